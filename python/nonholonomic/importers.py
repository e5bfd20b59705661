"""The FMUs in another importer (``nonholonomic bench --importers``, issue 26 item 2): ``fmpy.simulate_fmu`` with its
default arguments, which runs the FMU's own co-simulation (SUNDIALS CVODE inside ``fmi3DoStep``), beside the
project's loop (CVODE on the binary's entry points) on the same FMU, ``fmus/<model>.fmu``.

Cost: CPU seconds (``time.process_time``: the importer's loading and validation of the FMU and its own work per
communication point included, as a user sees them) per simulated second, the median of three runs where a run takes
under half a second. Accuracy: both runs at the experiment's tolerance, against the project's loop at a hundredth
of it, compared at the co-simulation's communication points on every output: the largest error of a signal over
its largest value (plus one). The goal: the co-simulation within 1.5 times the loop's CPU time at matched accuracy;
the sleigh's co-simulation, on which an earlier integrator failed, is run over 40 s and has to run through.
"""

from __future__ import annotations

import ctypes
import pathlib
import time

import numpy as np
import pandas as pd

from .bench import _markdown
from .errors import NonholonomicError
from .fmu import fmu_path, model_description
from .simulate import simulate

# (case, model, parameters, stop time or None for the experiment's)
CASES = (("rolling disk", "RollingDisk", {}, None),
         ("tippe-top, law 2 (Contensou-Zhuravlev)", "TippeTop", {"frictionLaw": 2}, None),
         ("tippe-top, law 3 (Leine-Glocker)", "TippeTop", {"frictionLaw": 3}, None),
         ("tippe-top, law 4 (Hertz-Coulomb)", "TippeTop", {"frictionLaw": 4}, None),
         ("omni vehicle moving straight", "OmniVehicleStraight", {}, None),
         ("ball bearing", "BallBearing", {}, None),
         ("spur gear pair", "SpurGearPair", {}, None),
         ("Chaplygin sleigh, 40 s", "ChaplyginSleigh", {}, 40.0))
GOAL = 1.5  # the co-simulation's CPU time over the loop's, at most
REPEAT_BELOW = 0.5  # CPU seconds: runs shorter than this are repeated (three runs, the median)
REFERENCE_FACTOR = 0.01  # the reference run's tolerance: the experiment's times this


def _timed(run):
    """``run()`` -> (result, CPU seconds), the median of three runs when one is under REPEAT_BELOW."""
    start = time.process_time()
    result = run()
    times = [time.process_time() - start]
    if times[0] < REPEAT_BELOW:
        for _ in range(2):
            start = time.process_time()
            run()
            times.append(time.process_time() - start)
    return result, float(np.median(times))


def cosimulation(fmu: pathlib.Path, parameters: dict, stop_time: float | None):
    """``fmpy.simulate_fmu`` at its defaults (the stop time given for the sleigh only) and the co-simulation's
    CVODE counters at its end (the binary's ``nonholonomic_cs_statistics``, read in the last step's callback)."""
    import fmpy
    counts = (ctypes.c_long * 5)()
    experiment = model_description(pathlib.Path(fmu)).defaultExperiment
    stop = stop_time if stop_time is not None else float(experiment.stopTime)

    def finished(t, recorder):
        if t >= stop * (1 - 1e-12) and hasattr(recorder.fmu.dll, "nonholonomic_cs_statistics"):
            read = recorder.fmu.dll.nonholonomic_cs_statistics
            read.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
            read(recorder.fmu.component, counts)
        return True

    extra = {"stop_time": stop_time} if stop_time is not None else {}
    result = fmpy.simulate_fmu(str(fmu), start_values=parameters, step_finished=finished, **extra)
    return pd.DataFrame({n: np.asarray(result[n]) for n in result.dtype.names}), dict(
        zip(("steps", "error test failures", "rhs evaluations", "Jacobians", "LU factorisations"), map(int, counts)))


def error(frame: pd.DataFrame, reference: pd.DataFrame, times: np.ndarray) -> float:
    """The largest error of the outputs of ``frame`` at ``times`` against ``reference``, each over its signal's
    largest value plus one (the later row where an event gives two at one time)."""
    worst = 0.0
    for name in (n for n in reference.columns if n != "time" and n in frame.columns):
        ref_t, ref = reference["time"].to_numpy(), reference[name].to_numpy()
        t, x = frame["time"].to_numpy(), frame[name].to_numpy()
        last = lambda tt, v: (np.searchsorted(tt, times, side="right") - 1, v)
        i, _ = last(ref_t, ref)
        j, _ = last(t, x)
        if np.any(i < 0) or np.any(j < 0) or np.any(np.abs(ref_t[i] - times) > 1e-9 * max(1.0, times[-1])) or \
                np.any(np.abs(t[j] - times) > 1e-9 * max(1.0, times[-1])):
            raise NonholonomicError(f"the runs have no common output times for {name}")
        worst = max(worst, float(np.max(np.abs(x[j] - ref[i])) / (1.0 + np.max(np.abs(ref)))))
    return worst


def importers(models=None, out_dir: pathlib.Path | str = "results", progress=None) -> pd.DataFrame:
    """Run every case (of ``models`` if given); write importers.csv and importers.md into ``out_dir``."""
    say = progress or (lambda msg: None)
    cases = [c for c in CASES if not models or c[1] in models]
    if not cases:
        raise NonholonomicError(f"bench --importers has no case for {', '.join(models)}; it runs "
                                f"{', '.join(dict.fromkeys(c[1] for c in CASES))}")
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    for case, model, parameters, stop_time in cases:
        fmu = fmu_path(model)
        experiment = model_description(fmu).defaultExperiment
        stop = stop_time if stop_time is not None else float(experiment.stopTime)
        rtol = float(experiment.tolerance)
        say(f"bench --importers {case}: fmpy.simulate_fmu (co-simulation), our loop, reference at rtol "
            f"{rtol * REFERENCE_FACTOR:g}")
        cosimulation(fmu, parameters, stop_time)  # once before: loading fmpy and SUNDIALS is not part of a run
        (cs, counts), cpu_cs = _timed(lambda: cosimulation(fmu, parameters, stop_time))
        ours, cpu_ours = _timed(lambda: simulate(fmu, parameters, stop_time=stop, isolate=False))
        reference = simulate(fmu, parameters, stop_time=stop, tolerance=rtol * REFERENCE_FACTOR, isolate=False)
        times = cs["time"].to_numpy()
        solver = ours.attrs["solver"]
        rows.append({
            "case": case, "simulated [s]": stop, "rtol": rtol,
            "co-simulation CPU s / simulated s": cpu_cs / stop, "our loop CPU s / simulated s": cpu_ours / stop,
            "ratio": cpu_cs / cpu_ours, "within goal": cpu_cs / cpu_ours <= GOAL,
            "co-simulation error": error(cs, reference, times), "our loop error": error(ours, reference, times),
            "ran through": bool(np.isclose(times[-1], stop)),
            "co-simulation steps": counts["steps"], "our loop steps": solver["steps"],
            "co-simulation rhs": counts["rhs evaluations"], "our loop rhs": solver["rhs_evaluations"],
            "co-simulation Jacobians": counts["Jacobians"], "our loop Jacobians": solver["jacobians"],
            "communication points": len(times)})
    table = pd.DataFrame(rows)
    table.to_csv(out_dir / "importers.csv", index=False)
    text = ("# Another importer: fmpy.simulate_fmu (the FMU's own co-simulation) beside our loop\n\n"
            "CPU seconds per simulated second (median of 3 runs where a run is under "
            f"{REPEAT_BELOW:g} s; fmpy's loading and validation of the FMU, and its work per communication point, "
            f"included); goal: the co-simulation within {GOAL:g} times our loop. Errors: the largest of an output "
            "over its largest value plus one, at the communication points, against our loop at a hundredth of "
            "the experiment's tolerance. Both integrate with CVODE (in the FMU: compiled in, its history kept "
            "across communication points), so their steps agree; all columns: `importers.csv`.\n\n"
            + _markdown(table[["case", "simulated [s]", "rtol", "co-simulation CPU s / simulated s",
                               "our loop CPU s / simulated s", "ratio", "co-simulation error", "our loop error",
                               "co-simulation steps", "our loop steps", "ran through"]]) + "\n")
    (out_dir / "importers.md").write_text(text)
    print(text)
    return table
