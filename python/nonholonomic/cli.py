"""Command line: ``nonholonomic list | build | simulate | verify | bench | diagram | ...``."""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import signal
import sys

from .errors import Interrupted, NonholonomicError, SimulationFailed
from .paths import check_writable_dir, check_writable_file


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


def _cmd_build(args) -> int:
    from .build import build
    from .models import FMU_DIR, LIBRARY
    check_writable_dir(args.out or FMU_DIR, "--out")
    build(args.models or None, backend=args.backend, out_dir=args.out,
          library_dir=pathlib.Path(args.library) if args.library else LIBRARY, progress=_progress)
    return 0


def _parse_sets(items) -> dict:
    values = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise NonholonomicError(f"--set expects name=value, got {item!r}")
        values[name.strip()] = value.strip()
    return values


def _parse_inputs(items):
    """``--input`` values: ``NAME=VALUE`` constants and at most one table file (CSV or Parquet with a
    ``time`` column); None without any."""
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
        try:
            table = pd.read_csv(path) if path.suffix == ".csv" else pd.read_parquet(path)
        except (OSError, ValueError) as e:
            raise NonholonomicError(f"--input: cannot read {path}: {str(e).splitlines()[0]}") from None
    if table is None:
        return constants or None
    for name, value in constants.items():
        table[name] = value
    return table


def _cmd_simulate(args) -> int:
    out = pathlib.Path(args.out)
    if out.suffix not in (".csv", ".parquet"):
        raise NonholonomicError(f"--out must end in .csv or .parquet, got {out}")
    check_writable_file(out, "--out")
    kwargs = dict(model=args.model, parameters=_parse_sets(args.set), stop_time=args.stop_time,
                  output_interval=args.output_interval, tolerance=args.tolerance, outputs=args.output or None,
                  inputs=_parse_inputs(args.input))
    outcome = _run_isolated(_simulate_child, kwargs)
    kind = outcome[0]
    if kind == "done":
        frame = outcome[1]
        _write(frame, out)
        if frame.attrs.get("terminated_at") is not None:
            _progress(f"the model called terminate() at t = {frame.attrs['terminated_at']:g} s")
        _progress(f"wrote {len(frame)} rows x {len(frame.columns)} columns to {out}")
        return 0
    if kind == "crashed":
        _, how, reached, chunks = outcome
        kept = ""
        if chunks:
            import pandas as pd
            partial = pd.concat(chunks, ignore_index=True)
            _write(partial, out)
            kept = f"; the {len(partial)} rows computed before (to t = {partial['time'].iloc[-1]:.6g} s) are in {out}"
        raise NonholonomicError(f"the FMU's binary crashed ({how}) after t = {reached:.6g} s" +
                                (kept or f"; nothing written to {out}"))
    if kind == "error":
        raise NonholonomicError(outcome[1])
    if kind == "failed":
        _, message, partial = outcome
        if partial is not None and len(partial):
            _write(partial, out)
            raise NonholonomicError(f"{message} (the {len(partial)} rows computed before are in {out})")
        raise NonholonomicError(message)
    _, partial, reached = outcome  # interrupted
    rows = 0 if partial is None else len(partial)
    if rows:
        _write(partial, out)
    at = f" at t = {reached:.6g} s" if reached is not None else ""
    raise Interrupted(f"interrupted{at}; {rows} rows written to {out}" if rows else f"interrupted{at}; nothing written")


def _simulate_child(send, kwargs) -> None:
    """simulate() in the child process of :func:`_run_isolated`: progress and the outcome go to ``send``."""
    from .simulate import simulate
    try:
        frame = simulate(**kwargs, progress=lambda time, stop_time: send(("progress", time, stop_time)),
                         rows=lambda chunk: send(("rows", chunk)))
        send(("done", frame))
    except Interrupted as e:
        send(("interrupted", e.partial, e.time))
    except KeyboardInterrupt:
        send(("interrupted", None, None))
    except SimulationFailed as e:
        send(("failed", str(e), e.partial))
    except NonholonomicError as e:
        send(("error", str(e)))
    except Exception:  # a bug, not a user's mistake: its traceback, shown by the CLI
        import traceback
        send(("bug", traceback.format_exc()))


def _run_isolated(target, kwargs) -> tuple:
    """Run ``target(send, kwargs)`` in a forked child and return the first message it sends that is not
    progress or rows, or ``("crashed", signal name, last time reported, chunks of rows received)`` if it dies
    first.

    Why a child: an FMU's binary is foreign C code; a crash in it (SIGSEGV, SIGBUS, abort) kills the process
    that loaded it, with no Python exception to catch. In a child, the CLI survives to say so in one line.
    The child runs in its own process group, so a Ctrl-C at the terminal reaches only the CLI, which passes
    one SIGINT on: the child then stops and sends what it computed (a second SIGINT would break its clean-up).
    """
    import multiprocessing
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)

    def child_main():
        os.setpgid(0, 0)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        receive.close()
        target(send.send, kwargs)

    child = context.Process(target=child_main, daemon=True)
    interrupts = 0

    def forward(signum=None, frame=None):  # the first Ctrl-C asks the child to stop, a second one kills it
        nonlocal interrupts
        interrupts += signum is not None
        if child.pid is not None and interrupts:
            os.kill(child.pid, signal.SIGINT if interrupts == 1 else signal.SIGKILL)

    previous = signal.signal(signal.SIGINT, forward)
    try:
        child.start()
        forward()  # a Ctrl-C that came while the child was being started
        send.close()
        reached, chunks = 0.0, []
        while True:
            try:
                message = receive.recv()
            except EOFError:  # the child ended without an outcome
                break
            if message[0] == "bug":
                raise RuntimeError(f"the simulation process failed:\n{message[1]}")
            if message[0] == "rows":
                chunks.append(message[1])
                continue
            if message[0] != "progress":
                return message
            if not reached:
                _progress(f"running, {message[2]:g} s to simulate (Ctrl-C stops and keeps the rows so far)")
            reached = message[1]
    finally:
        child.join()
        signal.signal(signal.SIGINT, previous)
    if interrupts:
        return ("interrupted", None, reached)
    code = child.exitcode
    how = signal.Signals(-code).name if code is not None and code < 0 else f"exit code {code}"
    return ("crashed", how, reached, chunks)


def _write(frame, out: pathlib.Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    if out.suffix == ".parquet":
        frame.to_parquet(out, index=False)
    else:
        frame.to_csv(out, index=False)


def _cmd_verify(args) -> int:
    from .verification import format_table
    from .verify import verify
    check_writable_dir(args.out, "--out")
    results = verify(args.cases or None, out_dir=args.out, progress=lambda name: _progress(f"verifying {name}"))
    print(format_table(results))
    failed = [r.case.name for r in results if not r.passed]
    print(f"{len(results) - len(failed)} passed, {len(failed)} failed; report: {pathlib.Path(args.out) / 'verification.html'}")
    return 1 if failed else 0


def _cmd_sweep(args) -> int:
    from .sweep import ETAS, cases, interrupted_sweep, plot_sweep, run_sweep, trend_ratios
    todo = cases(args.kinds or ("spin", "straight"), args.eta or ETAS, args.stop_time, truncated=args.truncated,
                 tolerance=args.tolerance, mecanum=args.mecanum)
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
    failed = int((table["status"] != "ok").sum()) if len(table) else 0
    print(f"{len(table) - failed} finished, {failed} failed; table: {args.out}/sweep.csv; plots: {len(files)} PNG")
    return 1 if failed else 0


def _kept_on_interrupt(what: str):
    """For commands that write their results as they go: Ctrl-C says what stays (one line, exit 130)."""
    def wrap(command):
        def run(args) -> int:
            try:
                return command(args)
            except KeyboardInterrupt:
                raise Interrupted(f"interrupted: {what.format(out=args.out)}") from None
        return run
    return wrap


@_kept_on_interrupt("the files of the finished cases are in {out}")
def _cmd_chapter2(args) -> int:
    import pandas as pd
    from .references.omni_massive import chapter2_experiment, plot_chapter2, thesis_quantities
    out = check_writable_dir(args.out, "--out")
    for case in args.cases or (1, 2, 3):
        if case not in (1, 2, 3):
            raise NonholonomicError(f"chapter 2 has the initial conditions 1, 2 and 3, not {case}")
    if not args.t_end > 0:
        raise NonholonomicError(f"--t-end must be positive, got {args.t_end:g}")
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
            result["trajectory"].to_csv(out / f"{name}.csv", index=False)
            plot_chapter2(result, out, prefix=name)
            numbers = thesis_quantities({**result, "trajectory": result.get("grid", result["trajectory"])})
            (out / f"{name}.json").write_text(json.dumps({k: v for k, v in numbers.items()
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


@_kept_on_interrupt("the files of the finished cases are in {out}")
def _cmd_compare(args) -> int:
    from .omni_compare import FMU_ETAS, compare, fmu_trend
    check_writable_dir(args.out, "--out")
    if not args.t_end > 0:
        raise NonholonomicError(f"--t-end must be positive, got {args.t_end:g}")
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


@_kept_on_interrupt("the files of the finished runs are in {out}")
def _cmd_track(args) -> int:
    from .omni_tracking import PATHS, report
    check_writable_dir(args.out, "--out")
    unknown = [p for p in args.paths if p not in PATHS]
    if unknown:
        raise NonholonomicError(f"unknown path '{unknown[0]}' (known: {', '.join(PATHS)})")
    table = report(args.out, paths=args.paths or tuple(PATHS), stop_time=args.stop_time, progress=_progress)
    print(table.to_string(index=False, float_format=lambda x: f"{x:.4g}"))
    print(f"table: {pathlib.Path(args.out) / 'tracking.csv'}; figures and runs: <path>.png, <path>_<plant>.csv")
    return 0


@_kept_on_interrupt("nothing written (the benchmark report is written when every case has run)")
def _cmd_bench(args) -> int:
    from .bench import bench
    check_writable_dir(args.out, "--out")
    bench(args.models or None, out_dir=args.out, progress=_progress)
    return 0


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error (no usage dump) and exit code 2."""

    def error(self, message):
        self.exit(2, f"error: {message} (see: {self.prog} --help)\n")


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number")
    return value


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive integer")
    return value


def _cmd_diagram(args) -> int:
    from .diagram import write_diagram
    out = check_writable_file(args.out, "--out")
    print(write_diagram(args.model, out))
    return 0


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="nonholonomic", description="Rolling-body dynamics: Modelica library, FMUs, "
                                "verification against reference models.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sub.add_parser("list", help="list the example models and verification cases").set_defaults(run=_cmd_list)
    b = sub.add_parser("build", help="export example models as FMUs into fmus/")
    b.add_argument("models", nargs="*", help="example models (default: all)")
    b.add_argument("--backend", default="auto", help="auto (OpenModelica if omc is installed), openmodelica or rumoca")
    b.add_argument("--out", default=None, help="output folder (default: fmus/)")
    b.add_argument("--library", default=None, help="folder of the Nonholonomic Modelica library (default: the project's)")
    b.set_defaults(run=_cmd_build)
    s = sub.add_parser("simulate", help="simulate a model's FMU and write its outputs")
    s.add_argument("model", help="example model name or .fmu file")
    s.add_argument("--set", action="append", metavar="NAME=VALUE", help="set a parameter (repeatable)")
    s.add_argument("--input", action="append", metavar="NAME=VALUE|TABLE",
                   help="an input held at a value, or a .csv/.parquet table with a time column and a column per "
                        "input, linear in between (repeatable)")
    s.add_argument("--stop-time", type=float, default=None)
    s.add_argument("--output-interval", type=float, default=None)
    s.add_argument("--tolerance", type=float, default=None, help="relative tolerance of the integrator")
    s.add_argument("--output", action="append", help="variable to record (repeatable; default: all outputs)")
    s.add_argument("--out", required=True, help="result file, .csv or .parquet")
    s.set_defaults(run=_cmd_simulate)
    v = sub.add_parser("verify", help="run verification cases against reference models")
    v.add_argument("cases", nargs="*", help="cases or systems (default: all)")
    v.add_argument("--out", default="results", help="results folder (default: results/)")
    v.set_defaults(run=_cmd_verify)
    sw = sub.add_parser("sweep", help="omni-wheel vehicle against the massless-roller model over the roller mass")
    sw.add_argument("kinds", nargs="*", help="spin, straight and/or generic (default: spin and straight)")
    sw.add_argument("--truncated", action="store_true",
                    help="truncated rollers (Examples.OmniVehicleTruncated, ch. 1-2) instead of untruncated spindles")
    sw.add_argument("--mecanum", action="store_true",
                    help="mecanum wheels (Examples.MecanumVehicle: truncated rollers at 45 degrees) against massless "
                         "rollers with the same friction")
    sw.add_argument("--tolerance", type=_positive_float, default=1e-6, help="relative tolerance of the runs (default 1e-6)")
    sw.add_argument("--eta", type=float, nargs="+", action="extend",
                    help="roller mass fractions (one or more, repeatable; default 1e-1/n..1e-6/n)")
    sw.add_argument("--stop-time", type=_positive_float, default=None, help="simulated time of every case")
    sw.add_argument("--scheduler", default=None, help="address of a running Dask scheduler (default: a local cluster)")
    sw.add_argument("--workers", type=_positive_int, default=2, help="workers of the local cluster")
    sw.add_argument("--time-limit", type=_positive_float, default=900.0,
                    help="wall-time limit of one case in seconds; a case over it is recorded as failed (default 900)")
    sw.add_argument("--out", default="results/omni_sweep", help="folder of the results (finished cases are kept)")
    sw.set_defaults(run=_cmd_sweep)
    c2 = sub.add_parser("chapter2", help="the massive-roller vehicle with impacts: Gerasimov 2018, ch. 2 (Fig. 2.4-2.6)")
    c2.add_argument("cases", nargs="*", type=int, help="initial conditions 1, 2, 3 (default: all)")
    c2.add_argument("--t-end", type=float, default=60.0, help="simulated time [s] (the thesis shows up to 1000 s)")
    c2.add_argument("--out", default="results/chapter2", help="folder of the results")
    c2.add_argument("--model", choices=("reference", "fmu", "both"), default="reference",
                    help="the Python reference (omni_massive), the example FMUs (Examples.OmniVehicleImpact*: "
                         "case<n>_fmu.csv, ...) or both (default: reference)")
    c2.set_defaults(run=_cmd_chapter2)
    cp = sub.add_parser("compare-impacts", help="omni vehicle: friction model (FMU) vs massive rollers with impacts, ch. 2 data")
    cp.add_argument("--t-end", type=float, default=10.0, help="simulated time [s]")
    cp.add_argument("--fmu", action="store_true",
                    help="both models as FMUs (OmniVehicleChapter2 against OmniVehicleImpact*), equal masses and "
                         "moments, as the rollers get lighter: fmu_trend.csv, fmu_trend.png")
    cp.add_argument("--eta", type=float, nargs="+", action="extend",
                    help="with --fmu: roller mass over wheel mass (default 0.125 0.0125 0.00125 0.000125)")
    cp.add_argument("--untruncated", action="store_true",
                    help="with --fmu: the friction model with the untruncated spindles of ch. 3 (default: truncated "
                         "rollers, the impact model's geometry)")
    cp.add_argument("--out", default="results/omni_compare", help="folder of the results")
    cp.set_defaults(run=_cmd_compare)
    tr = sub.add_parser("track", help="omni vehicle: a path-following controller in the loop (co-simulation), FMU "
                                      "and massless-roller model, roller mass and communication step")
    tr.add_argument("paths", nargs="*", help="circle and/or eight (default: both)")
    tr.add_argument("--stop-time", type=_positive_float, default=None,
                    help="simulated time of every run (default: one period of its path: 8 s circle, 12 s eight)")
    tr.add_argument("--out", default="results/omni_tracking", help="folder of the results")
    tr.set_defaults(run=_cmd_track)
    be = sub.add_parser("bench", help="benchmark FMU build and run against rumoca and the reference")
    be.add_argument("models", nargs="*", help="example models (default: all with a reference)")
    be.add_argument("--out", default="results", help="results folder (default: results/)")
    be.set_defaults(run=_cmd_bench)
    dg = sub.add_parser("diagram", help="draw a class's diagram from its Modelica annotations (SVG)")
    dg.add_argument("model", help="example model name or full class name (Nonholonomic.Vehicles.OmniWheel)")
    dg.add_argument("--out", required=True, help="the SVG file")
    dg.set_defaults(run=_cmd_diagram)
    return p


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except NonholonomicError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:  # errors.Interrupted says what was kept; a bare Ctrl-C says nothing
        line = str(e) if isinstance(e, Interrupted) else ""
        print(line if line.startswith("interrupted") else f"interrupted: {line}" if line else "interrupted",
              file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`nonholonomic list | head -1`): stop quietly, as Unix tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so that Python's final flush of stdout does not fail again
        return 128 + signal.SIGPIPE


if __name__ == "__main__":
    sys.exit(main())
