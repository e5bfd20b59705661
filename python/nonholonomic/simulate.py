"""Run an FMU with fmpy: parameters checked against the model description, results as a DataFrame."""

from __future__ import annotations

import contextlib
import difflib
import math
import pathlib
import signal
import threading

import numpy as np
import pandas as pd

from .errors import Interrupted, NonholonomicError, SimulationFailed
from .cvode import native_output_silenced, run_ode, solver_message
from .fmu import extra_info, fmu_path, model_description
from .grid import output_grid  # the output times of every path (fmpy's and cvode.py's)
from .inputs import input_table


def _number(name: str, value) -> float:
    if isinstance(value, bool):
        raise NonholonomicError(f"parameter {name}: {value!r} is not a number")
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
        if var is None or var.causality != "parameter":
            hint = difflib.get_close_matches(name, tunable, n=3)
            kind = "is not a parameter" if var is not None else "unknown parameter"
            raise NonholonomicError(f"{kind} '{name}' of {fmu.stem}"
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


def simulate(model: str | pathlib.Path, parameters: dict | None = None, stop_time: float | None = None,
             output_interval: float | None = None, tolerance: float | None = None,
             outputs: list[str] | None = None, progress=None, exact_jacobian: bool = True,
             rows=None, inputs=None) -> pd.DataFrame:
    """Simulate an example model's FMU (or an FMU file) and return its outputs over time.

    ``parameters`` maps FMU parameter names to values; the stop time, output interval and relative
    tolerance default to the model's experiment annotation. ``inputs`` drive the FMU's inputs: a dict of
    constants or a DataFrame with a ``time`` column, linear between its rows and held beyond them
    (:mod:`.inputs`; inputs not given stay at their start values). Columns: ``time``, the inputs and the
    outputs (unless ``outputs`` names some variables). ``exact_jacobian=False`` makes the integrator use
    finite differences even where the FMU has an exact Jacobian (for comparison). ``progress(time, stop_time)``
    is called at every output time; ``rows(frame)``, if given, receives the rows as they are computed, in
    chunks about a second of wall time apart (the project's own loop; the CLI keeps them in case the FMU's
    binary crashes).
    """
    import fmpy

    fmu = fmu_path(model)
    values = check_parameters(fmu, parameters or {})
    md = model_description(fmu)
    exp = md.defaultExperiment
    stop_time = _positive("stop time", stop_time, getattr(exp, "stopTime", None) if exp else None, 1.0)
    output_interval = _positive("output interval", output_interval,
                                getattr(exp, "stepSize", None) if exp else None, stop_time / 500)
    tolerance = _positive("tolerance", tolerance, getattr(exp, "tolerance", None) if exp else None, 1e-6)
    output_grid(stop_time, output_interval)  # an impossible grid is said before the run
    names = {v.name for v in md.modelVariables}
    table = input_table(md, inputs)
    if outputs is None:
        outputs = [v.name for v in md.modelVariables if v.causality in ("input", "output")]
    for name in outputs:
        if name not in names:
            raise NonholonomicError(f"unknown variable '{name}' of {fmu.stem}")
    from .backends.fmu_export import SOLVER_ABI
    if (md.fmiVersion.startswith("3") and md.modelExchange is not None
            and extra_info(fmu).get("solver_functions") == SOLVER_ABI):  # the binary has CVODE's callbacks
        return _finite(md, run_ode(fmu, md, values, stop_time, output_interval, tolerance, outputs, progress,
                                   exact_jacobian, rows, table))
    recorder, reached = {}, {"time": 0.0}

    def step_finished(time, rec):
        recorder["rec"], reached["time"] = rec, time
        if progress:
            progress(time, stop_time)
        return not interrupted  # False ends fmpy's loop after this step, with the rows so far

    def rows_so_far():
        rec = recorder.get("rec")
        if rec is None or not getattr(rec, "rows", None):
            return None
        result = rec.result()
        return pd.DataFrame({name: np.asarray(result[name]) for name in result.dtype.names})

    interrupted = False

    def on_sigint(signum, frame):  # a KeyboardInterrupt inside fmpy's ctypes callbacks would be lost in C
        nonlocal interrupted
        interrupted = True

    with _sigint_handler(on_sigint):
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
    if interrupted:
        raise Interrupted(partial=frame, time=reached["time"])
    return _finite(md, frame)


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


@contextlib.contextmanager
def _sigint_handler(handler):
    """``handler`` for SIGINT while the block runs (main thread only: elsewhere Python delivers no signal)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


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
