"""Benchmark: FMU build and run time against rumoca's own simulation and the reference ODE.

For each verification case of the chosen models, one run each of: building the FMU with the rumoca
backend, simulating the FMU (CVODE with the FMU's exact Jacobian, and again with CVODE's finite-difference
Jacobian), simulating the same Modelica model with rumoca's own solver, and integrating the reference ODE
(scipy DOP853), all at the case's relative tolerance, with the max error of the first compared signal
against the reference so the times compare like with like; the FMU is run once for one output interval
before (the process's one-time loading), as rumoca's compilation is outside its timed run. Reported as
ratios to the FMU run, in ``results/benchmark.csv`` and ``results/benchmark.md``. Wall times of one run on a shared
machine: read the ratios as orders of magnitude.
"""

from __future__ import annotations

import contextlib
import ctypes
import math
import pathlib
import re
import tempfile
import time

import numpy as np
import pandas as pd

from .backends.rumoca import build_fmu as rumoca_build
from .errors import Interrupted, NonholonomicError
from .models import LIBRARY, get_model
from .fmu import model_description
from .simulate import names_argument, simulate
from .cases import all_cases


# straight motion on truncated rollers at eta = 1e-6/n: the roller changes' cost in ``nonholonomic bench``
ROLLER_CHANGE_CASE = {"eta": 2.5e-7, "v_0[1]": 1.0, "v_0[2]": 0.0, "omega_0": 0.0}


REPEAT_BELOW = 0.5  # CPU seconds: runs shorter than this are repeated (three runs, the median)


def _timed(f):
    start = time.perf_counter()
    value = f()
    return value, time.perf_counter() - start


def cpu_time(f):
    """``f()`` and the CPU seconds of this process it took (a child's would not count: run in this process)."""
    start = time.process_time()
    value = f()
    return value, time.process_time() - start


def median_cpu(run):
    """``run()`` -> (result, CPU seconds), repeated to three runs when one is under REPEAT_BELOW: (result, the
    median CPU seconds, the number of runs)."""
    result, cpu = run()
    times = [cpu]
    if cpu < REPEAT_BELOW:
        times += [run()[1] for _ in range(2)]
    return result, float(np.median(times)), len(times)


def _literal(value) -> str:
    """A Modelica literal: integral values without a decimal point, so Integer parameters accept them."""
    value = float(value)
    return str(int(value)) if value.is_integer() else repr(value)


def _rumoca_run(modelica_class: str, parameters: dict, defaults: dict, stop_time: float, dt: float, rtol: float):
    """rumoca's own simulation of the model with the case's parameters, as modifiers of a wrapper model
    (rumoca's ``params`` takes scalars only; array elements are set through their whole array)."""
    import rumoca
    arrays: dict[str, dict[int, float]] = {}
    modifiers = []
    for name, value in parameters.items():
        m = re.fullmatch(r"(.+)\[(\d+)\]", name)
        if m:
            arrays.setdefault(m.group(1), {})[int(m.group(2))] = float(value)
        else:
            modifiers.append(f"{name} = {_literal(value)}")
    for name, given in arrays.items():
        n = max(i for i in range(1, 100) if f"{name}[{i}]" in defaults)
        values = [given.get(i, defaults[f"{name}[{i}]"]) for i in range(1, n + 1)]
        modifiers.append(f"{name} = {{{', '.join(_literal(v) for v in values)}}}")
    source = f"model BenchRun extends {modelica_class}({', '.join(modifiers)}); end BenchRun;"
    model = rumoca.Session(roots=[str(LIBRARY.parent)]).loads(source, model="BenchRun")
    config = rumoca.SimConfig(rtol=rtol, atol=rtol, dt=dt)
    return _timed(lambda: model.simulate(t=(0.0, stop_time), config=config))


@contextlib.contextmanager
def rows_kept(rows: list[dict], path: pathlib.Path):
    """A benchmark's loop over its cases: where Ctrl-C or SIGTERM stops it, the rows of the finished cases are
    written to ``path`` (CSV) before the stop goes on, and its one line says so (the report, which compares the
    cases, is written only when all have run)."""
    try:
        yield
    except KeyboardInterrupt:
        if not rows:
            raise Interrupted("interrupted before the first case finished; nothing written") from None
        pd.DataFrame(rows).to_csv(path, index=False)
        n = len(rows)
        raise Interrupted(f"interrupted; {n} finished case{'s' if n > 1 else ''} written to {path}") from None


def bench(models=None, cases=None, out_dir: pathlib.Path | str = "results", progress=None) -> pd.DataFrame:
    say = progress or (lambda msg: None)
    out_dir = pathlib.Path(out_dir)
    models = names_argument("models", models)
    for name in models or ():
        get_model(name)  # an unknown name is said as such
    out_dir.mkdir(parents=True, exist_ok=True)
    selected = [b for c in all_cases().values() if (not models or c.model in models) and (not cases or c.name in cases)
                for b in c.bench_cases()]
    if not selected:
        raise NonholonomicError(f"no verification case for {', '.join(models or cases)}")
    rows, built = [], {}
    with tempfile.TemporaryDirectory() as tmp, rows_kept(rows, out_dir / "benchmark.csv"):
        for case in selected:
            example = get_model(case.model)
            if case.model not in built:
                say(f"bench {case.model}: build the FMU (rumoca backend)")
                _, built[case.model] = _timed(lambda: rumoca_build(example.modelica_class, LIBRARY,
                                                                   pathlib.Path(tmp) / f"{example.name}.fmu",
                                                                   example.experiment))
            fmu_file = pathlib.Path(tmp) / f"{example.name}.fmu"
            say(f"bench {case.name}: FMU run, rumoca run, reference")
            # warm-up: what a process does once (loading SUNDIALS and fmpy, validating the FMU: 0.1 s) is not
            # part of a run, as rumoca's compilation of the model is not part of its timed simulation
            # (the runs in this process, isolate=False: a child process would be timed too; the CLI runs the
            # whole benchmark in one child)
            simulate(fmu_file, case.parameters, stop_time=case.output_interval, output_interval=case.output_interval,
                     tolerance=case.fmu_tolerance, isolate=False)
            fmu, t_fmu = _timed(lambda: simulate(fmu_file, case.parameters, stop_time=case.stop_time,
                                                 output_interval=case.output_interval, tolerance=case.fmu_tolerance,
                                                 isolate=False))
            _, t_fd = _timed(lambda: simulate(fmu_file, case.parameters, stop_time=case.stop_time,
                                              output_interval=case.output_interval, tolerance=case.fmu_tolerance,
                                              exact_jacobian=False, isolate=False))
            observed_fmu = case.observe(fmu) if case.observe else fmu
            grid = fmu["time"].to_numpy()
            ref, t_ref = _timed(lambda: case.reference(grid))
            first = case.signals[0]  # an output of the model that the reference also gives
            try:
                if not case.rumoca_comparison:
                    raise NonholonomicError("not run for this model (too slow: see the case)")
                defaults = {v.name: float(v.start) for v in model_description(fmu_file).modelVariables
                            if v.causality == "parameter"}
                rum, t_rum = _rumoca_run(example.modelica_class, case.parameters, defaults, case.stop_time,
                                         case.output_interval, case.fmu_tolerance)
                rum_frame = pd.DataFrame({"time": grid, **{n: np.interp(grid, np.asarray(rum.time), np.asarray(rum[n]))
                                                           for n in fmu.columns if n != "time" and n in rum}})
                observed = case.observe(rum_frame) if case.observe else rum_frame
                err_rum = float(np.max(np.abs(observed[first].to_numpy() - ref[first].to_numpy())))
            except Exception as e:  # report, don't hide: a failed rumoca run is a result too
                say(f"bench {case.name}: rumoca's simulation failed: {str(e).splitlines()[0]}")
                t_rum, err_rum = float("nan"), float("nan")
            rows.append({
                "case": case.name, "model": case.model, "simulated [s]": case.stop_time,
                "rtol": case.fmu_tolerance,
                "build FMU [s]": built[case.model], "FMU run [s]": t_fmu,
                "FMU run, finite-difference Jacobian [s]": t_fd,
                "rumoca run [s]": t_rum, "reference run [s]": t_ref,
                "build / FMU run": built[case.model] / t_fmu, "rumoca / FMU run": t_rum / t_fmu,
                "reference / FMU run": t_ref / t_fmu, "finite differences / FMU run": t_fd / t_fmu,
                "FMU run / simulated time": t_fmu / case.stop_time,
                **{column: fmu.attrs.get("solver", {}).get(key, float("nan"))
                   for column, key in (("steps", "steps"), ("model evaluations", "rhs_evaluations"),
                                       ("Jacobians", "jacobians"))},
                "compared signal": first,
                "max error FMU": float(np.max(np.abs(observed_fmu[first].to_numpy() - ref[first].to_numpy()))),
                "max error rumoca": err_rum,
            })
        cost = None
        if "OmniVehicleTruncated" in built:
            say("bench OmniVehicleTruncated: the cost of the roller changes (straight, eta = 1e-6/n)")
            cost = pd.DataFrame([roller_change_cost(pathlib.Path(tmp) / "OmniVehicleTruncated.fmu", ROLLER_CHANGE_CASE,
                                                    0.3, 0.001, 1e-6)])
            cost.to_csv(out_dir / "benchmark_roller_changes.csv", index=False)
    table = pd.DataFrame(rows)
    table.to_csv(out_dir / "benchmark.csv", index=False)
    text = "# Benchmark (one run each)\n\n" + _markdown(table) + "\n"
    for prefix, system in (("tippe_top_bench_", "Tippe-top"), ("bearing_bench_", "Ball bearing")):
        laws = friction_law_ratios(table, prefix)
        if laws is not None:
            text += (f"\n## {system}: friction laws, as ratios to the Contensou-Zhuravlev law (same run)\n\n"
                     + _markdown(laws) + "\n")
    cage = table[table["case"] == "bearing_cage_bench"]
    if len(cage):
        from .cases.bearing import OMEGA
        row = cage.iloc[0]
        revolutions = row["simulated [s]"] * OMEGA / (2 * math.pi)
        text += (f"\n## Ball bearing with its cage\n\nFMU run time per shaft revolution: "
                 f"{row['FMU run [s]'] / revolutions:.3g} s ({revolutions:.1f} revolutions at {OMEGA:.0f} rad/s from "
                 f"rest, 500 N, clearance 10 um, rtol {row['rtol']:.0e}; {row['steps'] / revolutions:.0f} steps per "
                 f"revolution; build {row['build FMU [s]']:.0f} s)\n")
    gears = table[table["case"] == "gears_bench"]
    if len(gears):
        from .cases.gears import MESH_PERIOD
        row = gears.iloc[0]
        cycles = row["simulated [s]"] / MESH_PERIOD
        text += (f"\n## Spur gear pair\n\nFMU run time per mesh cycle: {row['FMU run [s]'] / cycles * 1e3:.3g} ms "
                 f"({cycles:.0f} mesh cycles at 100 rad/s, rtol {row['rtol']:.0e}; "
                 f"{row['steps'] / cycles:.0f} steps per cycle)\n")
    if cost is not None:
        text += ("\n## Omni vehicle on truncated rollers: roller changes as events\n\nMoving straight, eta = 1e-6/n, "
                 "0.3 s, rtol 1e-6 (issue 14, part 6); steps at the changes: from the step that reaches a change to "
                 "the first step at least half as long as the one before it:\n\n" + _markdown(cost) + "\n")
    (out_dir / "benchmark.md").write_text(text)
    print(text)
    return table


@contextlib.contextmanager
def step_log():
    """The end time of every step CVODE takes in the project's loop (``nonholonomic.cvode``), as a list filled
    while the block runs: the loop's CVode calls are made one step at a time (CV_ONE_STEP) and interpolated back
    to each target, as CV_NORMAL does inside (a root found past the target is returned at the next call, after
    the target). CVODE then searches each step for roots in one bracket instead of two split at the target: the
    events are located alike (to 1e-15 s on the omni vehicle), but the restarts after them are sensitive to that
    rounding, and the run takes other steps within its tolerance (on the vehicle moving straight on truncated
    rollers at eta = 1e-6/n: 688 steps against 599; docs/omni.md)."""
    from . import cvode
    steps: list[float] = []
    original = cvode.Cvode.advance
    vp, dp = ctypes.c_void_p, ctypes.POINTER(ctypes.c_double)
    dky = cvode._sundials("sundials_cvode", "CVodeGetDky", ctypes.c_int, vp, ctypes.c_double, ctypes.c_int, vp)
    current = cvode._sundials("sundials_cvode", "CVodeGetCurrentTime", ctypes.c_int, vp, dp)
    pending = {}  # solver -> a root found past the target of its call

    def at(solver, time: float, flag: int) -> float:
        if dky(solver._mem, time, 0, solver._y) != 0:
            raise NonholonomicError(f"CVODE could not interpolate to t = {time:g}")
        solver.flag, solver._time.value = flag, time
        return time

    def advance(solver, target: float) -> float:
        root = pending.pop(id(solver), None)
        if root is not None:
            if root <= target:
                return at(solver, root, solver.ROOT)
            pending[id(solver)] = root
            return at(solver, target, solver.SUCCESS)
        now = ctypes.c_double()
        while True:
            if current(solver._mem, ctypes.byref(now)) != 0:
                raise NonholonomicError("CVODE's current time could not be read")
            if now.value >= target:  # the last step (since the last restart) went past the target
                return at(solver, target, solver.SUCCESS)
            flag = solver._cvode(solver._mem, target, solver._y, ctypes.byref(solver._time), 2)  # CV_ONE_STEP
            if flag < 0:
                name = cvode._sundials("sundials_cvode", "CVodeGetReturnFlagName", ctypes.c_char_p, ctypes.c_long)(flag)
                raise cvode.CvodeFailed(name.decode(), solver._time.value)
            # a step that found a root ends there: the restart at the event discards the rest of it
            steps.append(solver._time.value)
            if flag == solver.ROOT:
                if solver._time.value > target:
                    pending[id(solver)] = solver._time.value
                    return at(solver, target, solver.SUCCESS)
                solver.flag = flag
                return solver._time.value
            if flag == solver.TSTOP:
                solver.flag = flag
                return solver._time.value

    cvode.Cvode.advance = advance
    try:
        yield steps
    finally:
        cvode.Cvode.advance = original


def event_steps(steps, event_times, window: float = 1e-4) -> pd.DataFrame:
    """The steps CVODE spends at each group of events (events less than ``window`` apart: the two rows of a
    roller change, the wheels that change together): from the step that reached the first event to the first
    step after the last one at least half as long as the last step before the group. One row per group: its
    time, the events in it, the step before, the steps spent."""
    t = np.asarray(steps, dtype=float)
    h = np.diff(np.concatenate([[0.0], t]))
    events = np.sort(np.asarray(event_times, dtype=float))
    groups = np.split(events, np.flatnonzero(np.diff(events) > window) + 1) if events.size else []
    rows = []
    for group in groups:
        before = np.flatnonzero(t < group[0] * (1 - 1e-15))
        h_before = h[before[-1]] if before.size else h[0]
        after = np.flatnonzero(t > group[-1])
        normal = after[h[after] >= 0.5 * h_before]
        end = normal[0] if normal.size else len(t) - 1
        start = before[-1] + 1 if before.size else 0
        rows.append({"time": group[0], "events": len(group), "step before [s]": h_before,
                     "steps": int(end - start + 1)})
    return pd.DataFrame(rows, columns=["time", "events", "step before [s]", "steps"])


def roller_change_cost(fmu, parameters: dict, stop_time: float, output_interval: float, tolerance: float) -> dict:
    """The cost of the roller changes of an omni vehicle run (issue 14, part 6): wall time per simulated second,
    steps and events per simulated second, steps per event and per roller change, and the steps spent at the
    changes (:func:`event_steps`) against the steps per simulated second away from them. Timed without the step
    log; a second run takes it (:func:`step_log`: its steps differ within the tolerance, so the steps at the
    changes are given with that run's total)."""
    from .sweep import roller_changes
    rollers = [v.name for v in model_description(fmu).modelVariables if v.name.startswith("contactRoller[")]
    simulate(fmu, parameters, stop_time=output_interval, output_interval=output_interval, tolerance=tolerance,
             isolate=False)
    df, wall = _timed(lambda: simulate(fmu, parameters, stop_time=stop_time, output_interval=output_interval,
                                       tolerance=tolerance, outputs=rollers, isolate=False))
    with step_log() as steps:  # patches this process's integrator: the run must be here
        logged = simulate(fmu, parameters, stop_time=stop_time, output_interval=output_interval, tolerance=tolerance,
                          outputs=rollers, isolate=False)
    time = logged["time"].to_numpy()
    event_times = time[1:][time[1:] == time[:-1]]
    groups = event_steps(steps, event_times)
    solver, changes = df.attrs["solver"], roller_changes(df)
    at_changes = int(groups["steps"].sum())
    return {"simulated [s]": stop_time, "rtol": tolerance, "wall time / simulated second [s]": wall / stop_time,
            "steps": solver["steps"], "events": solver["events"], "roller changes": changes,
            "steps / simulated second": solver["steps"] / stop_time, "events / simulated second": solver["events"] / stop_time,
            "steps / event": solver["steps"] / max(solver["events"], 1),
            "steps of the logged run": len(steps), "steps at the changes (logged run)": at_changes,
            "steps per roller change (logged run)": at_changes / max(changes, 1),
            "steps / simulated second away from the changes (logged run)": (len(steps) - at_changes) / stop_time,
            "model evaluations": solver["rhs_evaluations"], "Jacobians": solver["jacobians"]}


def friction_law_ratios(table: pd.DataFrame, prefix: str = "tippe_top_bench_") -> pd.DataFrame | None:
    """The runs of each friction law (``<prefix><law>``, e.g. tippe_top_bench_point) as ratios to the Contensou
    law: wall time per simulated second, steps, model evaluations, Jacobians (None if the table has none)."""
    rows = table[table["case"].str.startswith(prefix)].set_index("case")
    if f"{prefix}contensou" not in rows.index:
        return None
    base = rows.loc[f"{prefix}contensou"]
    columns = ("FMU run / simulated time", "steps", "model evaluations", "Jacobians")
    return pd.DataFrame([{"law": case.removeprefix(prefix),
                          **{f"{c} (ratio)": row[c] / base[c] for c in columns}} for case, row in rows.iterrows()])


def _markdown(table: pd.DataFrame) -> str:
    cols = list(table.columns)
    fmt = lambda v: f"{v:.3g}" if isinstance(v, float) else str(v)
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(fmt(v) for v in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join(lines)
