"""Run an FMU with fmpy: parameters checked against the model description, results as a DataFrame."""

from __future__ import annotations

import difflib
import functools
import math
import os
import pathlib
import signal
from collections.abc import Mapping

import numpy as np
import pandas as pd

from . import isolation
from .errors import Interrupted, NonholonomicError, SimulationFailed
from .cvode import native_output_silenced, run_ode, solver_message
from .fmu import extra_info, fmu_path, has_solver_functions, model_description
from .grid import output_grid  # the output times of every path (fmpy's and cvode.py's)
from .inputs import input_table


def _number(name: str, value) -> float:
    if isinstance(value, bool):
        raise NonholonomicError(f"parameter {name}: {value!r} is not a number")
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):  # a Boolean parameter: 1 or 0
        return 1.0 if value.strip().lower() == "true" else 0.0
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise NonholonomicError(f"parameter {name}: {value!r} is not a number") from None
    if not math.isfinite(number):
        raise NonholonomicError(f"parameter {name}: {value!r} is not a finite number")
    return number


def _parameter_info(fmu: pathlib.Path) -> tuple[frozenset, dict]:
    """Integer parameters (typed so in FMI 2 FMUs, listed in extra/ by the rumoca backend) and the
    parameters that the rumoca backend computed from others (name -> those others)."""
    info = extra_info(fmu)
    names = {v.name for v in model_description(fmu).modelVariables
             if v.type in ("Integer", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64")}
    return frozenset(names | set(info.get("integer_parameters", []))), info.get("dependent_parameters", {})


def check_parameters(fmu: pathlib.Path, parameters: dict) -> dict[str, float]:
    """Numeric values of ``parameters``, each checked to be a parameter of the FMU within its bounds."""
    variables = {v.name: v for v in model_description(fmu).modelVariables}
    integers, dependent = _parameter_info(fmu)
    tunable = [n for n, v in variables.items() if v.causality == "parameter"]
    checked = {}
    for name, value in parameters.items():
        var = variables.get(name)
        calculated = name in dependent and (var is None or var.causality == "calculatedParameter")
        if calculated and not dependent[name]:
            raise NonholonomicError(f"parameter {name} of {fmu.stem} is fixed when the FMU is built (final, an array "
                                    "size or a constant): change it in the Modelica model and rebuild")
        if calculated:
            raise NonholonomicError(f"parameter {name} of {fmu.stem} is computed from {', '.join(dependent[name])}; "
                                    "set those instead")
        if var is not None and var.causality == "input":
            raise NonholonomicError(f"'{name}' of {fmu.stem} is an input, not a parameter: give it with --input "
                                    f"{name}=VALUE or a table (inputs= in Python)")
        if var is None or var.causality != "parameter":
            hint = difflib.get_close_matches(name, tunable, n=3)
            kind = ("an output" if var.causality == "output" else "the time" if var.causality == "independent"
                    else "a variable") if var is not None else None
            raise NonholonomicError((f"'{name}' of {fmu.stem} is {kind}, not a parameter" if kind else
                                     f"unknown parameter '{name}' of {fmu.stem}")
                                    + (f" (did you mean: {', '.join(hint)}?)" if hint else ""))
        number = _number(name, value)
        what = f" ({var.description})" if var.description else ""
        if name in integers and not number.is_integer():
            raise NonholonomicError(f"parameter {name} must be an integer, got {value!r}{what}")
        if var.min is not None and number < float(var.min):
            raise NonholonomicError(f"parameter {name} = {number:g} is below its minimum {float(var.min):.12g}{what}")
        if var.max is not None and number > float(var.max):
            raise NonholonomicError(f"parameter {name} = {number:g} is above its maximum {float(var.max):.12g}{what}")
        checked[name] = number
    return checked


TOLERANCE_RANGE = (1e-14, 1e-3)  # relative tolerances: below, round-off exceeds the error asked for; above, CVODE's
# own guidance (rtol <= 1e-3) and this library's contacts: rtol 1 left the disk's energy off by 10 %
PROGRESS_EVERY = 0.1  # seconds of wall time between the progress reports a child sends (isolate=True)


def check_tolerance(value, what: str = "tolerance") -> float:
    """A relative tolerance of an integrator, within :data:`TOLERANCE_RANGE`."""
    low, high = TOLERANCE_RANGE
    number = _positive(what, value, None, None)
    if not low <= number <= high:
        raise NonholonomicError(f"{what} must lie between {low:g} and {high:g} (a relative tolerance: below "
                                f"{low:g} round-off exceeds it, above {high:g} the run has no reliable digit), "
                                f"got {value!r}")
    return number


def model_argument(model) -> str | pathlib.Path:
    """A model as the API takes it: an example's name or an FMU's path (anything else: one line saying so)."""
    if isinstance(model, bool) or not isinstance(model, (str, os.PathLike)):
        raise NonholonomicError(f"model must be an example's name or the path of an FMU, got {model!r}")
    return model


def parameters_argument(parameters) -> dict:
    """Parameters as the API takes them: a dict of name -> value, or None."""
    if parameters is not None and not isinstance(parameters, Mapping):
        raise NonholonomicError(f"parameters must be a dict of name -> value, got {type(parameters).__name__}")
    return dict(parameters or {})


def names_argument(what: str, names) -> list[str] | None:
    """A list of names from None, one name or an iterable of names (a string is one name, not its letters)."""
    if names is None:
        return None
    if isinstance(names, str):
        return [names]
    try:
        listed = list(names)
    except TypeError:
        raise NonholonomicError(f"{what} must be a name or a list of names, got {names!r}") from None
    wrong = [n for n in listed if not isinstance(n, str)]
    if wrong:
        raise NonholonomicError(f"{what} must be names (strings), got {wrong[0]!r}")
    return listed


def simulate(model: str | pathlib.Path, parameters: dict | None = None, stop_time: float | None = None,
             output_interval: float | None = None, tolerance: float | None = None,
             outputs: list[str] | None = None, progress=None, exact_jacobian: bool = True, poses: bool = False,
             rows=None, inputs=None, isolate: bool = True) -> pd.DataFrame:
    """Simulate an example model's FMU (or an FMU file) and return its outputs over time.

    ``parameters`` maps FMU parameter names to values; the stop time, output interval and relative
    tolerance default to the model's experiment annotation. ``inputs`` drive the FMU's inputs: a dict of
    constants or a DataFrame with a ``time`` column, linear between its rows and held beyond them
    (:mod:`.inputs`; inputs not given stay at their start values). Columns: ``time``, the inputs and the
    outputs (unless ``outputs`` names some variables); ``poses=True`` adds the visual shapes and poses that
    :func:`.animate.animate` draws. ``exact_jacobian=False`` makes the integrator use
    finite differences even where the FMU has an exact Jacobian (for comparison). ``progress(time, stop_time)``
    is called as the run advances (at output times, and every few integrator steps in between);
    ``rows(frame)``, if given, receives the rows as they are computed, in chunks about a tenth of a second of
    wall time apart at the most, and more often early in a run (:func:`.cvode.rows_due`).

    ``isolate`` (default): the FMU's binary runs in a child process (:mod:`.isolation`), so a crash of its C code
    raises :class:`SimulationFailed` with the rows computed before it instead of killing this process.
    ``isolate=False`` runs it in this process (no fork: for timing a run; a crash then ends the process).
    A failure raises :class:`SimulationFailed` with the rows before it, Ctrl-C :class:`Interrupted` with them.
    """
    fmu = fmu_path(model_argument(model))
    values = check_parameters(fmu, parameters_argument(parameters))
    md = model_description(fmu)
    stop_time, output_interval, tolerance = run_settings(md, stop_time, output_interval, tolerance)
    names = {v.name for v in md.modelVariables}
    table = input_table(md, inputs)
    outputs = names_argument("outputs", outputs)
    if outputs is None:
        outputs = [v.name for v in md.modelVariables if v.causality in ("input", "output")]
    if poses:  # what nonholonomic animate draws: the visual shapes and their poses
        from .animate import pose_variables
        outputs = outputs + [name for name in pose_variables(fmu) if name not in outputs]
    for name in outputs:
        if name not in names:
            raise NonholonomicError(f"unknown variable '{name}' of {fmu.stem}")
    for name, callback in (("progress", progress), ("rows", rows)):
        if callback is not None and not callable(callback):
            raise NonholonomicError(f"{name} must be a function or None, got {callback!r}")
    run = functools.partial(_run, fmu, md, values, stop_time, output_interval, tolerance, outputs, exact_jacobian,
                            table)
    if not isolate or isolation.inside():
        return run(progress=progress, rows=rows)
    return _isolated(run, md, progress, rows)


def run_settings(md, stop_time=None, output_interval=None, tolerance=None) -> tuple[float, float, float]:
    """The stop time, output interval and relative tolerance of a run: those given, checked, else the model's
    experiment annotation (``md``: its model description); an impossible output grid is said before the run."""
    exp = md.defaultExperiment
    stop_time = _positive("stop time", stop_time, getattr(exp, "stopTime", None) if exp else None, 1.0)
    output_interval = _positive("output interval", output_interval,
                                getattr(exp, "stepSize", None) if exp else None, stop_time / 500)
    if tolerance is not None:
        tolerance = check_tolerance(tolerance)
    else:  # the model's own, within the range
        default = float((getattr(exp, "tolerance", None) if exp else None) or 1e-6)
        tolerance = min(max(default, TOLERANCE_RANGE[0]), TOLERANCE_RANGE[1])
    output_grid(stop_time, output_interval)
    return stop_time, output_interval, tolerance


class _CallbackFailed(Exception):
    """A caller's callback raised (in this process, while the child waits): end the run as in-process."""

    def __init__(self, error: Exception):
        super().__init__(str(error))
        self.error = error


def _isolated(run, md, progress, rows) -> pd.DataFrame:
    """``run`` in a child process (:func:`isolation.call`): the rows it computes are streamed here as it goes,
    so that a crash of the binary keeps them."""
    chunks, reached = [], [0.0]

    def on_rows(chunk):
        chunks.append(chunk)
        reached[0] = max(reached[0], float(chunk["time"].iloc[-1])) if len(chunk) else reached[0]
        if rows:
            try:
                rows(chunk)
            except Exception as e:
                raise _CallbackFailed(e) from e

    def on_progress(time, stop_time):
        reached[0] = time
        if progress:
            try:
                progress(time, stop_time)
            except Exception as e:
                raise _CallbackFailed(e) from e

    def child(progress, rows):  # in the child: progress at most every PROGRESS_EVERY seconds, and at the end
        import time as clock
        last = [-math.inf]

        def report(time, stop_time):
            now = clock.monotonic()
            if now - last[0] >= PROGRESS_EVERY or time >= stop_time:
                last[0] = now
                progress(time, stop_time)
        return run(progress=report, rows=rows)

    def so_far():
        return pd.concat(chunks, ignore_index=True) if chunks else None
    import fmpy.sundials  # noqa: F401  loaded once in this process: each child would load its libraries anew
    try:
        return isolation.call(child, {"progress": on_progress, "rows": on_rows})
    except isolation.BinaryCrashed as e:
        raise SimulationFailed(f"the FMU's binary crashed ({e.how}) after t = {reached[0]:.6g} s", so_far()) from None
    except _CallbackFailed as e:
        raise SimulationFailed(f"simulation of {md.modelName} failed: {solver_message(e.error)}", so_far()) from None


def _run(fmu, md, values, stop_time, output_interval, tolerance, outputs, exact_jacobian, table, progress=None,
         rows=None) -> pd.DataFrame:
    """The run itself, in this process: the project's CVODE loop for FMUs of the rumoca backend, else fmpy."""
    import fmpy
    import time as clock
    from .cvode import rows_due
    if has_solver_functions(fmu):  # the binary has CVODE's callbacks
        return _finite(md, run_ode(fmu, md, values, stop_time, output_interval, tolerance, outputs, progress,
                                   exact_jacobian, rows, table))
    recorder, reached, sent = {}, {"time": 0.0}, {"rows": 0, "at": clock.monotonic()}

    def step_finished(time, rec):
        recorder["rec"], reached["time"] = rec, time
        if progress:
            progress(time, stop_time)
        if rows and rows_due(len(rec.rows) - sent["rows"], sent["rows"], clock.monotonic() - sent["at"]):
            rows(_recorded(rec, sent["rows"]))
            sent["rows"], sent["at"] = len(rec.rows), clock.monotonic()
        return not interrupted  # False ends fmpy's loop after this step, with the rows so far

    def rows_so_far():
        rec = recorder.get("rec")
        if rec is None or not getattr(rec, "rows", None):
            return None
        return _recorded(rec, 0)

    interrupted = False

    def on_sigint(signum, frame):  # a KeyboardInterrupt inside fmpy's ctypes callbacks would be lost in C
        nonlocal interrupted
        interrupted = True

    with isolation.handling(signal.SIGINT, on_sigint):
        try:
            with native_output_silenced():
                # model exchange with fmpy's CVODE wherever the FMU offers it: OpenModelica's me_cs FMUs would
                # otherwise run as co-simulation, by default one forward Euler step per output interval
                interface = "ModelExchange" if md.modelExchange is not None else "CoSimulation"
                result = fmpy.simulate_fmu(str(fmu), fmi_type=interface, start_time=0.0, stop_time=stop_time,
                                           output_interval=output_interval, relative_tolerance=tolerance,
                                           start_values=values, input=table.structured(), output=outputs,
                                           solver="CVode",
                                           step_finished=step_finished)
        except Exception as e:  # fmpy raises plain exceptions from the solver or the FMU
            if interrupted:
                raise Interrupted(partial=rows_so_far(), time=reached["time"]) from None
            raise SimulationFailed(f"simulation of {md.modelName} failed: {solver_message(e)}",
                                   rows_so_far()) from None
    frame = pd.DataFrame({name: np.asarray(result[name]) for name in result.dtype.names})
    if rows and len(frame) > sent["rows"]:
        rows(frame.iloc[sent["rows"]:].reset_index(drop=True))
    if interrupted:
        raise Interrupted(partial=frame, time=reached["time"])
    return _finite(md, frame)


def _recorded(rec, start: int) -> pd.DataFrame:
    """The rows of fmpy's recorder from ``start`` on, as a DataFrame."""
    result = np.array(rec.rows[start:], dtype=np.dtype(rec.cols))
    return pd.DataFrame({name: np.asarray(result[name]) for name in result.dtype.names})


def _finite(md, frame: pd.DataFrame) -> pd.DataFrame:
    """The frame, if every value is finite; else SimulationFailed naming the first row and variables that are
    not, with the rows before it (a nonlinear algebraic loop without a root makes its unknowns NaN)."""
    values = frame.to_numpy(dtype=float)
    bad = ~np.isfinite(values)
    if not bad.any():
        return frame
    row = int(np.argmax(bad.any(axis=1)))
    names = [c for c, b in zip(frame.columns, bad[row]) if b]
    shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
    raise SimulationFailed(f"simulation of {md.modelName}: {shown} not finite at t = {frame['time'].iloc[row]:g} "
                           "(a nonlinear algebraic loop without a root, a singular linear block or an overflow)",
                           frame.iloc[:row])


def _positive(what: str, value, default, fallback) -> float:
    value = default if value is None else value
    value = fallback if value is None else value
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise NonholonomicError(f"{what}: {value!r} is not a number") from None
    if not number > 0 or not math.isfinite(number):
        raise NonholonomicError(f"{what} must be a positive number, got {value!r}")
    return number
