"""Command line: ``nonholonomic list | build | simulate | verify | sweep | study | bench | diagram | ...``."""

from __future__ import annotations

import argparse
import json
import math
import os
import pathlib
import re
import signal
import sys

from . import isolation
from .errors import Interrupted, NonholonomicError, SimulationFailed
from .grid import check_rows
from .paths import check_writable_dir, check_writable_file, exclusive, staged_files, write_table


def _progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _cmd_list(args) -> int:
    from .cases import SYSTEMS, all_cases, system_of
    from .models import list_models
    cases = all_cases()
    print("Models (fmus/<name>.fmu), each with its system: verification cases and reference models")
    for m in list_models():
        built = "built" if m.fmu.is_file() else "not built"
        system = system_of(m.name)
        print(f"  {m.name:<28} {m.description} [{built}]")
        print(f"  {'':<28} system {system}: cases {', '.join(c.name for c in cases.values() if c.system == system)}; "
              f"reference {', '.join('nonholonomic.references.' + r for r in SYSTEMS[system].references)}")
    print("Verification cases (nonholonomic verify CASE ... or SYSTEM ...):")
    for name, case in cases.items():
        print(f"  {name:<28} {case.system:<18} {case.model}")
    return 0


def _cmd_describe(args) -> int:
    from .describe import describe
    print(describe(args.model).text())
    return 0


def _cmd_build(args) -> int:
    from .build import build
    from .models import FMU_DIR, LIBRARY
    check_writable_dir(args.out or FMU_DIR, "--out")
    build(args.models or None, backend=args.backend, out_dir=args.out,
          library_dir=pathlib.Path(args.library) if args.library else LIBRARY, progress=_progress, jobs=args.jobs,
          fmi_version=args.fmi_version, force=args.force)
    return 0


def _parse_sets(items, option: str = "--set", what: str = "name=value", once: bool = False) -> dict:
    """``NAME=VALUE`` items as a dict (the last of a name, or ``once``: a name given twice is an error)."""
    values = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise NonholonomicError(f"{option} expects {what}, got {item!r}")
        if once and name.strip() in values:
            raise NonholonomicError(f"{option}: {name.strip()} is given twice")
        values[name.strip()] = value.strip()
    return values


def _parse_inputs(items, out: pathlib.Path):
    """``--input`` values: ``NAME=VALUE`` constants and at most one table file (CSV or Parquet with a
    ``time`` column), never the ``--out`` file; None without any."""
    import pandas as pd
    constants, table = {}, None
    for item in items or []:
        name, sep, value = item.partition("=")
        if sep:
            constants[name.strip()] = value.strip()
            continue
        if table is not None:
            raise NonholonomicError(f"--input: one table file at most, got {item!r} as a second")
        path = pathlib.Path(item)
        if path.suffix not in (".csv", ".parquet"):
            raise NonholonomicError(f"--input expects name=value or a .csv/.parquet table, got {item!r}")
        if path.resolve() == out.resolve():
            raise NonholonomicError(f"--out {out} is the --input table: the results would overwrite it; choose "
                                    "another --out")
        try:
            table = pd.read_csv(path) if path.suffix == ".csv" else pd.read_parquet(path)
        except (OSError, ValueError) as e:
            raise NonholonomicError(f"--input: cannot read {path}: {str(e).splitlines()[0]}") from None
    if table is None:
        return constants or None
    for name, value in constants.items():
        table[name] = value
    return table


class _Progress:
    """A run's progress on stderr: a first line, then every REPORT_EVERY seconds of wall time the simulated time
    reached; a warning instead when the last interval's pace would need more than SLOW_RUN seconds more (a stiff
    or non-physical set of parameters makes the integrator crawl: the user should know, and may stop it)."""
    REPORT_EVERY, SLOW_RUN = 10.0, 1000.0

    def __init__(self):
        self.start = self.last = None

    def __call__(self, time: float, stop_time: float) -> None:
        import time as clock
        now = clock.monotonic()
        if self.start is None:
            self.start, self.last = now, (now, time)
            _progress(f"running, {stop_time:g} s to simulate (Ctrl-C stops and keeps the rows so far)")
            return
        if now - self.last[0] < self.REPORT_EVERY:
            return
        pace = (time - self.last[1]) / (now - self.last[0])  # simulated seconds per second of wall time
        self.last = (now, time)
        where = f"t = {time:.6g} s of {stop_time:g} s after {now - self.start:.0f} s"
        remaining = (stop_time - time) / pace if pace > 0 else math.inf
        if remaining > self.SLOW_RUN:
            _progress(f"warning: slow: {where}; the last {self.REPORT_EVERY:g} s advanced {pace:.3g} s per second "
                      f"(at this pace {_duration(remaining)} to go): stiff or non-physical parameters? Ctrl-C stops "
                      "and keeps the rows so far")
        else:
            _progress(f"{where} (about {_duration(remaining)} to go)")


def _duration(seconds: float) -> str:
    if not math.isfinite(seconds):
        return "forever"
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:.3g} {unit}"
    return f"{seconds:.0f} s"


def _cmd_simulate(args) -> int:
    from .simulate import simulate
    out = pathlib.Path(args.out)
    if out.suffix not in (".csv", ".parquet"):
        raise NonholonomicError(f"--out must end in .csv or .parquet, got {out}")
    check_writable_file(out, "--out")
    inputs = _parse_inputs(args.input, out)
    with exclusive(out, f"--out {out}"):
        try:
            frame = simulate(args.model, parameters=_parse_sets(args.set), stop_time=args.stop_time,
                             output_interval=args.output_interval, tolerance=args.tolerance,
                             outputs=args.output or None, inputs=inputs, progress=_Progress(), poses=args.poses)
        except SimulationFailed as e:
            raise NonholonomicError(f"{e}; {_keep(e.partial, out)}") from None
        except Interrupted as e:
            at = f" at t = {e.time:.6g} s" if e.time is not None else ""
            rows = 0 if e.partial is None else len(e.partial)
            if rows:
                _write_rows(e.partial, out)
            raise Interrupted(f"interrupted{at}; {rows} rows written to {out}" if rows else
                              f"interrupted{at}; nothing written") from None
        _write_rows(frame, out)
    if frame.attrs.get("terminated_at") is not None:
        _progress(f"the model called terminate() at t = {frame.attrs['terminated_at']:g} s")
    _progress(f"wrote {len(frame)} rows x {len(frame.columns)} columns to {out}")
    return 0


def _cmd_animate(args) -> int:
    from .animate import animate
    out = animate(args.model, args.result, args.out, speed=args.speed)
    _progress(f"wrote {out} (open it in a browser: drag to turn, scroll to zoom, Open Controls > Animations)")
    return 0


def _keep(partial, out: pathlib.Path) -> str:
    """Write the rows of a run that stopped early; the words that say where they are."""
    if partial is None or not len(partial):
        return f"nothing written to {out}"
    _write_rows(partial, out)
    return f"the {len(partial)} rows computed before (to t = {partial['time'].iloc[-1]:.6g} s) are in {out}"


def _write_rows(frame, out: pathlib.Path) -> None:
    """The rows, whole or not at all; where ``out`` cannot take them (a full disk), into a rescue file in the
    system's temporary folder, so that nothing computed is lost."""
    try:
        write_table(frame, out, f"--out {out}")
    except NonholonomicError as e:
        import tempfile
        try:
            fd, rescue = tempfile.mkstemp(prefix="nonholonomic-rescue-", suffix=out.suffix)
            os.close(fd)
            write_table(frame, rescue)
        except (OSError, NonholonomicError):
            raise NonholonomicError(f"{e}; the {len(frame)} rows are lost") from None
        raise NonholonomicError(f"{e}; the {len(frame)} rows are kept in {rescue}") from None


def _cmd_verify(args) -> int:
    from .verification import format_table
    from .verify import verify
    check_writable_dir(args.out, "--out")
    with exclusive(args.out, f"--out {args.out}"):
        results = verify(args.cases or None, out_dir=args.out, progress=_progress, jobs=args.jobs)
    print(format_table(results))
    failed = [r.case.name for r in results if not r.passed]
    print(f"{len(results) - len(failed)} passed, {len(failed)} failed; report: {pathlib.Path(args.out) / 'verification.html'}")
    return 1 if failed else 0


def _cmd_sweep(args) -> int:
    from .sweep import ETAS, cases, interrupted_sweep, plot_sweep, run_sweep, trend_ratios
    todo = cases(args.kinds or ("spin", "straight"), args.eta or ETAS, args.stop_time, truncated=args.truncated,
                 tolerance=args.tolerance, mecanum=args.mecanum)
    check_writable_dir(args.out, "--out")
    with exclusive(args.out, f"--out {args.out}"):
        table = run_sweep(todo, args.out, scheduler=args.scheduler, workers=args.workers, time_limit=args.time_limit)
        try:
            files = plot_sweep(table, args.out)
        except KeyboardInterrupt:  # every case is on disk already: say so, as run_sweep does when interrupted
            raise interrupted_sweep(table, todo, args.out) from None
    columns = ["case", "status", "path difference [m]", "velocity difference [m/s]", "omega difference [rad/s]",
               "heading difference [rad]", "max slip [m/s]", "mean slip [m/s]", "energy change (relative)", "events",
               "roller changes"]
    print(table[[c for c in columns if c in table]].to_string(index=False, float_format=lambda x: f"{x:.2e}"))
    for kind, ratios in trend_ratios(table).items():
        print(f"{kind}: path difference ratio per tenfold lighter rollers: " + ", ".join(f"{r:.2f}" for r in ratios))
    failed = table[table["status"] != "ok"] if len(table) else table
    for case, error in zip(failed.get("case", []), failed.get("error", [])):
        print(f"failed: {case}: {error}")
    print(f"{len(table) - len(failed)} finished, {len(failed)} failed; table: {args.out}/sweep.csv; "
          f"plots: {len(files)} PNG")
    return 1 if len(failed) else 0


def _cmd_study(args) -> int:
    from .study import default_out_dir, metric_columns, study
    vary = _parse_sets(args.vary, "--vary", "NAME=VALUES", once=True)
    out = args.out or default_out_dir(args.model)
    check_writable_dir(out, "--out")
    with exclusive(out, f"--out {out}"):
        table = study(args.model, vary, args.metric, stop_time=args.stop_time, output_interval=args.output_interval,
                      tolerance=args.tolerance, sample=args.sample, scheduler=args.scheduler, workers=args.workers,
                      out_dir=out, time_limit=args.time_limit, progress=_progress)
    shown = ["run", *vary, *metric_columns(table, list(vary)), "status"]
    print(table[shown].to_string(index=False, float_format=lambda x: f"{x:.6g}"))
    failed = table[table["status"] != "ok"]
    for run, error in zip(failed["run"], failed["error"]):
        print(f"failed: {run}: {error}")
    plot = pathlib.Path(out) / "study.png"
    print(f"{len(table) - len(failed)} finished, {len(failed)} failed; table: {pathlib.Path(out) / 'study.csv'} "
          f"(and .parquet); plot: {plot if plot.is_file() else 'none'}")
    return 1 if len(failed) else 0


def _writes_folder(kept: str):
    """A command that writes its results into the folder ``--out`` as it goes: the folder is checked and locked
    (one writer) before any work; the work runs in a child process (:func:`isolation.call`), so that an FMU
    binary that crashes ends the child, not the command; a crash, Ctrl-C or SIGTERM says in one line what stays
    (``kept``, with ``{out}``)."""
    def wrap(command):
        def run(args) -> int:
            what = kept.format(out=args.out)
            check_writable_dir(args.out, "--out")
            with exclusive(args.out, f"--out {args.out}"):
                try:
                    return isolation.call(lambda: command(args))
                except isolation.BinaryCrashed as e:
                    raise NonholonomicError(f"{e}; {what}") from None
                except Interrupted as e:  # the command's own words on what it kept, where it has them
                    raise Interrupted(str(e) if str(e) != "interrupted" else f"interrupted: {what}") from None
                except KeyboardInterrupt:
                    raise Interrupted(f"interrupted: {what}") from None
        return run
    return wrap


@_writes_folder("the files of the finished cases are in {out}")
def _cmd_chapter2(args) -> int:
    import pandas as pd
    from .cases.omni_impact import OUTPUT_INTERVAL
    from .references.omni_massive import OUTPUT_DT, chapter2_experiment, plot_chapter2, thesis_quantities
    out = pathlib.Path(args.out)
    for case in args.cases or (1, 2, 3):
        if case not in (1, 2, 3):
            raise NonholonomicError(f"chapter 2 has the initial conditions 1, 2 and 3, not {case}")
    check_rows("--t-end", args.t_end, min(OUTPUT_DT, OUTPUT_INTERVAL))
    out.mkdir(parents=True, exist_ok=True)
    for case in args.cases or (1, 2, 3):
        runs = {}
        if args.model in ("reference", "both"):
            _progress(f"chapter 2, case {case}: {args.t_end} s, reference (omni_massive)")
            runs["reference"] = chapter2_experiment(case, args.t_end)
        if args.model in ("fmu", "both"):
            _progress(f"chapter 2, case {case}: {args.t_end} s, FMU (Examples.OmniVehicleImpact*)")
            runs["fmu"] = _chapter2_fmu(case, args.t_end)
        for kind, result in runs.items():
            name = f"case{case}" if kind == "reference" else f"case{case}_fmu"
            with staged_files(out) as stage:  # a case's files appear together, its record (JSON) last
                result["trajectory"].to_csv(stage / f"{name}.csv", index=False)
                plot_chapter2(result, stage, prefix=name)
                numbers = thesis_quantities({**result, "trajectory": result.get("grid", result["trajectory"])})
                (stage / f"{name}.json").write_text(json.dumps({k: v for k, v in numbers.items()
                                                               if isinstance(v, (int, float, str))}, indent=1))
            print(f"case {case} ({kind}): {len(result['switches'])} roller changes; " +
                  ", ".join(f"{k} = {v:.4g}" for k, v in numbers.items() if isinstance(v, float)))
        if len(runs) == 2:
            fmu, ref = (pd.DataFrame(frame[["time", "nu1", "nu2", "nu3"]].to_dict("list")).round({"time": 9})
                        for frame in (runs["fmu"]["grid"], runs["reference"]["trajectory"]))
            both = fmu.merge(ref, on="time", suffixes=("_fmu", "_ref"))
            worst = max(float((both[f"{c}_fmu"] - both[f"{c}_ref"]).abs().max()) for c in ("nu1", "nu2", "nu3"))
            print(f"case {case}: FMU vs reference: max |nu FMU - nu reference| = {worst:.3g} at {len(both)} output "
                  "times")
    return 0


def _chapter2_fmu(case: int, t_end: float) -> dict:
    """A chapter-2 case run by its example FMU, as ``chapter2_experiment`` returns it: ``trajectory`` in the
    reference's columns with every row (an impact's time twice: before and after), ``grid`` the rows at the output
    times only, ``switches`` the impacts (time, wheels, T before and after, Carnot's loss)."""
    from .cases.omni_impact import OUTPUT_INTERVAL, grid_rows, impacts, reference_columns, run_fmu
    from .references.omni_massive import OmniMassive, chapter2_parameters
    params = chapter2_parameters()
    raw = run_fmu(case, t_end, angles=True)
    trajectory = reference_columns(raw, params["R"])
    grid = grid_rows(trajectory, OUTPUT_INTERVAL)
    return {"trajectory": trajectory, "grid": grid, "switches": impacts(raw, OmniMassive(**params)), "case": case,
            "params": params}


@_writes_folder("the files of the finished cases are in {out}")
def _cmd_compare(args) -> int:
    from .omni_compare import FMU_ETAS, FMU_OUTPUT_INTERVAL, compare, fmu_trend
    check_rows("--t-end", args.t_end, FMU_OUTPUT_INTERVAL)
    if (args.eta or args.untruncated) and not args.fmu:
        raise NonholonomicError("--eta and --untruncated need --fmu (the friction model against the impact model's FMU)")
    if args.fmu:
        if any(not 0 < e < 0.2 for e in args.eta or ()):
            raise NonholonomicError("--eta: roller mass over wheel mass must lie in (0, 0.2) for five rollers")
        table = fmu_trend(args.out, etas=tuple(args.eta or FMU_ETAS), t_end=args.t_end,
                          truncated=not args.untruncated, progress=_progress)
        name = "fmu_trend_untruncated" if args.untruncated else "fmu_trend"
        print(table.to_string(index=False, float_format=lambda x: f"{x:.3g}"))
        print(f"table: {pathlib.Path(args.out) / (name + '.csv')}; figure: {name}.png")
        return 0
    table = compare(args.out, args.t_end, progress=_progress)
    print(table.to_string(index=False, float_format=lambda x: f"{x:.4g}"))
    print(f"table: {pathlib.Path(args.out) / 'compare.csv'}; figures: case1..3_compare.png")
    return 0


@_writes_folder("the files of the finished runs are in {out}")
def _cmd_track(args) -> int:
    from .omni_tracking import FINE_STEP, PATHS, report
    if args.stop_time is not None:
        check_rows("--stop-time", args.stop_time, FINE_STEP)
    unknown = [p for p in args.paths if p not in PATHS]
    if unknown:
        raise NonholonomicError(f"unknown path '{unknown[0]}' (known: {', '.join(PATHS)})")
    table = report(args.out, paths=args.paths or tuple(PATHS), stop_time=args.stop_time, progress=_progress)
    print(table.to_string(index=False, float_format=lambda x: f"{x:.4g}"))
    print(f"table: {pathlib.Path(args.out) / 'tracking.csv'}; figures and runs: <path>.png, <path>_<plant>.csv")
    return 0


def _cmd_bench(args) -> int:
    if args.peers and args.importers:
        raise NonholonomicError("bench: --peers and --importers are two benchmarks; run one at a time")
    if args.peers:  # said before any work: MuJoCo missing, or models given to a comparison of fixed models
        from .peers import require_mujoco
        require_mujoco()
        if args.models:
            raise NonholonomicError("bench --peers runs the tippe-top and the rolling disk: it takes no models")
    return _bench(args)


@_writes_folder("nothing written")
def _bench(args) -> int:
    if args.peers:
        from .peers import peers
        peers(out_dir=args.out, progress=_progress)
        return 0
    if args.importers:
        from .importers import importers
        importers(args.models or None, out_dir=args.out, progress=_progress)
        return 0
    from .bench import bench
    bench(args.models or None, out_dir=args.out, progress=_progress)
    return 0


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error (no usage dump) and exit code 2; a negative number in scientific notation
    (``--tolerance -1e-6``) is a value, not an option (argparse knows only ``-1`` and ``-0.5``)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = re.compile(r"^-(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^-inf(inity)?$", re.I)

    def error(self, message):
        self.exit(2, f"error: {message} (see: {self.prog} --help)\n")


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number")
    return value


def _tolerance(text: str) -> float:
    from .simulate import check_tolerance
    try:
        return check_tolerance(text, "the tolerance")
    except NonholonomicError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


MAX_WORKERS_PER_CORE = 4  # a local cluster beyond this only waits for the cores (and takes memory)


def _workers(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive integer")
    cores = os.cpu_count() or 1
    if value > MAX_WORKERS_PER_CORE * cores:
        raise argparse.ArgumentTypeError(f"{value} workers are more than {MAX_WORKERS_PER_CORE} per core of this "
                                         f"machine's {cores} (at most {MAX_WORKERS_PER_CORE * cores})")
    return value


def _jobs(text: str) -> int:
    from .build import MAX_JOBS
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if not 1 <= value <= MAX_JOBS:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from 1 to {MAX_JOBS}")
    return value


def _cmd_diagram(args) -> int:
    from .diagram import write_diagram
    out = check_writable_file(args.out, "--out")
    print(write_diagram(args.model, out))
    return 0


def _run_settings_arguments(command, stop_time_help: str) -> None:
    """--stop-time, --output-interval and --tolerance of a run (simulate.run_settings takes them)."""
    default = " (default: the model's experiment annotation)"
    command.add_argument("--stop-time", type=_positive_float, default=None, help=stop_time_help + default)
    command.add_argument("--output-interval", type=_positive_float, default=None,
                         help="time between output rows [s]" + default)
    command.add_argument("--tolerance", type=_tolerance, default=None,
                         help="relative tolerance of the integrator, 1e-14 to 1e-3" + default)


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="nonholonomic", description="Rolling-body dynamics: Modelica library, FMUs, "
                                "verification against reference models.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sub.add_parser("list", help="list the example models and verification cases").set_defaults(run=_cmd_list)
    de = sub.add_parser("describe", help="a model's parameters, inputs, outputs and states with units, defaults and "
                                         "ranges; its experiment, references and verification cases")
    de.add_argument("model", help="example model name or .fmu file")
    de.set_defaults(run=_cmd_describe)
    b = sub.add_parser("build", help="export example models as FMUs into fmus/")
    b.add_argument("models", nargs="*", help="example models (default: all)")
    b.add_argument("--backend", default="auto", help="auto (default: OpenModelica if omc is installed, else rumoca), openmodelica or rumoca")
    b.add_argument("--out", default=None, help="output folder (default: fmus/)")
    b.add_argument("--library", default=None, help="folder of the Nonholonomic Modelica library (default: the project's)")
    b.add_argument("--jobs", type=_jobs, default=None,
                   help="FMUs built at once, each in its own process (default: one per core)")
    b.add_argument("--fmi-version", type=int, choices=(2, 3), default=None,
                   help="FMI version of the FMUs: 3 or 2 (default: the backend's own, rumoca 3, openmodelica 2)")
    b.add_argument("--force", action="store_true",
                   help="rebuild every FMU, also those up to date (same Modelica sources, backend and options)")
    b.set_defaults(run=_cmd_build)
    s = sub.add_parser("simulate", help="simulate a model's FMU and write its outputs")
    s.add_argument("model", help="example model name or .fmu file")
    s.add_argument("--set", action="append", metavar="NAME=VALUE", help="set a parameter (repeatable; its unit, default and range: nonholonomic describe MODEL)")
    s.add_argument("--input", action="append", metavar="NAME=VALUE|TABLE",
                   help="an input held at a value, or a .csv/.parquet table with a time column and a column per "
                        "input, linear in between (repeatable; default: every input at its start value)")
    _run_settings_arguments(s, "simulated time [s]")
    s.add_argument("--output", action="append", help="variable to record (repeatable; default: all outputs)")
    s.add_argument("--poses", action="store_true",
                   help="also record every shaped body's pose and visual shape, for nonholonomic animate (default: off)")
    s.add_argument("--out", required=True, help="result file, .csv or .parquet")
    s.set_defaults(run=_cmd_simulate)
    an = sub.add_parser("animate", help="an interactive 3D animation (HTML) of a run recorded with simulate --poses")
    an.add_argument("model", help="example model name or .fmu file")
    an.add_argument("result", help="the run: a .csv or .parquet file written by simulate --poses")
    an.add_argument("--out", required=True, help="the HTML file to write")
    an.add_argument("--speed", type=float, default=None,
                    help="simulated seconds per second of playback (default: real time for runs of 4 to 20 s, "
                         "slow motion over 4 s for shorter ones, fast over 20 s for longer ones)")
    an.set_defaults(run=_cmd_animate)
    v = sub.add_parser("verify", help="run verification cases against reference models")
    v.add_argument("cases", nargs="*", help="cases or systems (default: all)")
    v.add_argument("--out", default="results", help="results folder (default: results/)")
    v.add_argument("--jobs", type=_jobs, default=None,
                   help="cases run at once, each in its own process (default: one per core)")
    v.set_defaults(run=_cmd_verify)
    sw = sub.add_parser("sweep", help="omni-wheel vehicle against the massless-roller model over the roller mass")
    sw.add_argument("kinds", nargs="*", help="spin, straight and/or generic (default: spin and straight)")
    rollers = sw.add_mutually_exclusive_group()
    rollers.add_argument("--truncated", action="store_true",
                         help="truncated rollers (Examples.OmniVehicleTruncated, ch. 1-2) instead of untruncated spindles")
    rollers.add_argument("--mecanum", action="store_true",
                    help="mecanum wheels (Examples.MecanumVehicle: truncated rollers at 45 degrees) against massless "
                         "rollers with the same friction")
    sw.add_argument("--tolerance", type=_tolerance, default=1e-6, help="relative tolerance of the runs (default 1e-6)")
    sw.add_argument("--eta", type=float, nargs="+", action="extend",
                    help="roller mass fractions (one or more, repeatable; default 1e-1/n..1e-6/n)")
    sw.add_argument("--stop-time", type=_positive_float, default=None,
                    help="simulated time of every case [s] (default: each kind's own span)")
    sw.add_argument("--scheduler", default=None, help="address of a running Dask scheduler (default: a local cluster)")
    sw.add_argument("--workers", type=_workers, default=2, help="workers of the local cluster (default 2)")
    sw.add_argument("--time-limit", type=_positive_float, default=900.0,
                    help="wall-time limit of one case in seconds; a case over it is recorded as failed (default 900)")
    sw.add_argument("--out", default="results/omni_sweep", help="folder of the results (default results/omni_sweep; finished cases are kept)")
    sw.set_defaults(run=_cmd_sweep)
    st = sub.add_parser("study", help="any example model over a grid or a sample of its parameters, on Dask: metrics "
                                      "per run, a table and a plot")
    st.add_argument("model", help="example model name or .fmu file")
    st.add_argument("--vary", action="append", required=True, metavar="NAME=VALUES",
                    help="a parameter and its values: a list 0.1,0.2, a range a:b:n (linear, ends included) or "
                         "log:a:b:n; with --sample the bounds a:b or log:a:b (repeatable)")
    st.add_argument("--metric", action="append", default=None,
                    help="final NAME, max NAME, min NAME, growth NAME, first time CONDITION (such as "
                         "'theta > 0.95*pi') or package.module:function of the run's DataFrame (repeatable; "
                         "default: final of every output)")
    st.add_argument("--sample", default=None, metavar="lhs:N[:SEED]",
                    help="N points of a Latin hypercube within the ranges (seed 0 unless given) instead of the grid (default: the grid)")
    _run_settings_arguments(st, "simulated time of every run [s]")
    st.add_argument("--scheduler", default=None, help="address of a running Dask scheduler (default: a local cluster)")
    st.add_argument("--workers", type=_workers, default=2, help="workers of the local cluster (default 2)")
    st.add_argument("--time-limit", type=_positive_float, default=None,
                    help="wall-time limit of one run in seconds; a run over it is recorded as failed (default: none)")
    st.add_argument("--out", default=None,
                    help="folder of the results (default results/study_MODEL; finished runs are kept)")
    st.set_defaults(run=_cmd_study)
    c2 = sub.add_parser("chapter2", help="the massive-roller vehicle with impacts: Gerasimov 2018, ch. 2 (Fig. 2.4-2.6)")
    c2.add_argument("cases", nargs="*", type=int, help="initial conditions 1, 2, 3 (default: all)")
    c2.add_argument("--t-end", type=_positive_float, default=60.0, help="simulated time [s] (default 60; the thesis shows up to 1000 s)")
    c2.add_argument("--out", default="results/chapter2", help="folder of the results (default results/chapter2)")
    c2.add_argument("--model", choices=("reference", "fmu", "both"), default="reference",
                    help="the Python reference (omni_massive), the example FMUs (Examples.OmniVehicleImpact*: "
                         "case<n>_fmu.csv, ...) or both (default: reference)")
    c2.set_defaults(run=_cmd_chapter2)
    cp = sub.add_parser("compare-impacts", help="omni vehicle: friction model (FMU) vs massive rollers with impacts, ch. 2 data")
    cp.add_argument("--t-end", type=_positive_float, default=10.0, help="simulated time [s] (default 10)")
    cp.add_argument("--fmu", action="store_true",
                    help="both models as FMUs (OmniVehicleChapter2 against OmniVehicleImpact*), equal masses and "
                         "moments, as the rollers get lighter: fmu_trend.csv, fmu_trend.png")
    cp.add_argument("--eta", type=float, nargs="+", action="extend",
                    help="with --fmu: roller mass over wheel mass (default 0.125 0.0125 0.00125 0.000125)")
    cp.add_argument("--untruncated", action="store_true",
                    help="with --fmu: the friction model with the untruncated spindles of ch. 3 (default: truncated "
                         "rollers, the impact model's geometry)")
    cp.add_argument("--out", default="results/omni_compare", help="folder of the results (default results/omni_compare)")
    cp.set_defaults(run=_cmd_compare)
    tr = sub.add_parser("track", help="omni vehicle: a path-following controller in the loop (co-simulation), FMU "
                                      "and massless-roller model, roller mass and communication step")
    tr.add_argument("paths", nargs="*", help="circle and/or eight (default: both)")
    tr.add_argument("--stop-time", type=_positive_float, default=None,
                    help="simulated time of every run [s] (default: one period of its path: 8 s circle, 12 s eight)")
    tr.add_argument("--out", default="results/omni_tracking", help="folder of the results (default results/omni_tracking)")
    tr.set_defaults(run=_cmd_track)
    be = sub.add_parser("bench", help="benchmark FMU build and run against rumoca and the reference")
    be.add_argument("models", nargs="*", help="example models (default: all with a reference)")
    be.add_argument("--out", default="results", help="results folder (default: results/)")
    be.add_argument("--peers", action="store_true",
                    help="MuJoCo beside our loop on the tippe-top and the rolling disk: cost against accuracy "
                         "(peers.md, peers.csv, peers.png; needs pip install .[peers])")
    be.add_argument("--importers", action="store_true",
                    help="fmpy.simulate_fmu (the FMU's own co-simulation) beside our loop on the given or the "
                         "benchmark's models: CPU time at matched accuracy (importers.md, importers.csv)")
    be.set_defaults(run=_cmd_bench)
    dg = sub.add_parser("diagram", help="draw a class's diagram from its Modelica annotations (SVG)")
    dg.add_argument("model", help="example model name or full class name (Nonholonomic.Vehicles.OmniWheel)")
    dg.add_argument("--out", required=True, help="the SVG file to write")
    dg.set_defaults(run=_cmd_diagram)
    return p


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    try:
        with isolation.sigterm_as_interrupt():  # rows kept, children and temporary folders cleaned, as on Ctrl-C
            return args.run(args)
    except NonholonomicError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:  # errors.Interrupted says what was kept; a bare Ctrl-C says nothing
        line = str(e) if isinstance(e, Interrupted) else ""
        line = line if line.startswith("interrupted") else f"interrupted: {line}" if line else "interrupted"
        stop = isolation.stop_signal or signal.SIGINT
        if stop == signal.SIGTERM:
            line = "terminated (SIGTERM)" + line[len("interrupted"):]
        print(line, file=sys.stderr)
        return 128 + stop
    except BrokenPipeError:  # the reader went away (`nonholonomic list | head -1`): stop quietly, as Unix tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so that Python's final flush of stdout does not fail again
        return 128 + signal.SIGPIPE


if __name__ == "__main__":
    sys.exit(main())
