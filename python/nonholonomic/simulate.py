"""Run an FMU with fmpy: parameters checked against the model description, results as a DataFrame."""

from __future__ import annotations

import contextlib
import difflib
import functools
import math
import os
import pathlib
import re
import sys

import numpy as np
import pandas as pd

from .errors import NonholonomicError
from .models import get_model


class SimulationFailed(NonholonomicError):
    """A simulation that stopped early; ``partial`` holds what was computed before the failure."""

    def __init__(self, message: str, partial: pd.DataFrame | None):
        super().__init__(message)
        self.partial = partial


def fmu_path(model: str | pathlib.Path) -> pathlib.Path:
    """The FMU of an example model (``fmus/<name>.fmu``), an explicit ``.fmu`` path, or a folder with an
    extracted FMU."""
    path = pathlib.Path(model)
    if path.is_dir() and (path / "modelDescription.xml").is_file():
        return path
    if path.suffix == ".fmu":
        if not path.is_file():
            raise NonholonomicError(f"FMU not found: {path}")
        return path
    example = get_model(str(model))
    if not example.fmu.is_file():
        raise NonholonomicError(f"no FMU for {example.name} yet: run `nonholonomic build {example.name}`")
    return example.fmu


@functools.lru_cache(maxsize=32)
def _description(path: str, mtime: float):
    from fmpy import read_model_description
    return read_model_description(path)


def model_description(fmu: pathlib.Path):
    return _description(str(fmu), fmu.stat().st_mtime)


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


@functools.lru_cache(maxsize=32)
def _parameter_info(path: str, mtime: float) -> tuple[frozenset, dict]:
    """Integer parameters (typed so in FMI 2 FMUs, listed in extra/ by the rumoca backend) and the
    parameters that the rumoca backend computed from others (name -> those others)."""
    import json
    import zipfile
    from .backends.fmu_export import PARAMETER_INFO
    names = {v.name for v in _description(path, mtime).modelVariables
             if v.type in ("Integer", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64")}
    dependent = {}
    if pathlib.Path(path).is_dir():
        info_file = pathlib.Path(path) / PARAMETER_INFO
        info = json.loads(info_file.read_text()) if info_file.is_file() else None
    else:
        with zipfile.ZipFile(path) as z:
            info = json.loads(z.read(PARAMETER_INFO)) if PARAMETER_INFO in z.namelist() else None
    if info:
        names |= set(info["integer_parameters"])
        dependent = info.get("dependent_parameters", {})
    return frozenset(names), dependent


def check_parameters(fmu: pathlib.Path, parameters: dict) -> dict[str, float]:
    """Numeric values of ``parameters``, each checked to be a parameter of the FMU within its bounds."""
    variables = {v.name: v for v in model_description(fmu).modelVariables}
    integers, dependent = _parameter_info(str(fmu), fmu.stat().st_mtime)
    tunable = [n for n, v in variables.items() if v.causality == "parameter"]
    checked = {}
    for name, value in parameters.items():
        var = variables.get(name)
        if var is None and name in dependent and not dependent[name]:
            raise NonholonomicError(f"parameter {name} of {fmu.stem} is fixed when the FMU is built (an array size or "
                                    "a constant): change it in the Modelica model and rebuild")
        if var is None and name in dependent:
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
            raise NonholonomicError(f"parameter {name} = {number:g} is below its minimum {float(var.min):g}{what}")
        if var.max is not None and number > float(var.max):
            raise NonholonomicError(f"parameter {name} = {number:g} is above its maximum {float(var.max):g}{what}")
        checked[name] = number
    return checked


def simulate(model: str | pathlib.Path, parameters: dict | None = None, stop_time: float | None = None,
             output_interval: float | None = None, tolerance: float | None = None,
             outputs: list[str] | None = None, progress=None) -> pd.DataFrame:
    """Simulate an example model's FMU (or an FMU file) and return its outputs over time.

    ``parameters`` maps FMU parameter names to values; the stop time, output interval and relative
    tolerance default to the model's experiment annotation. Columns: ``time`` and the outputs (all FMU
    outputs unless ``outputs`` names some variables).
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
    names = {v.name for v in md.modelVariables}
    if outputs is None:
        outputs = [v.name for v in md.modelVariables if v.causality == "output"]
    for name in outputs:
        if name not in names:
            raise NonholonomicError(f"unknown variable '{name}' of {fmu.stem}")
    if md.fmiVersion.startswith("3") and md.modelExchange is not None and not md.numberOfEventIndicators:
        return _simulate_ode(fmu, md, values, stop_time, output_interval, tolerance, outputs, progress)
    recorder = {}

    def step_finished(time, rec):
        recorder["rec"] = rec
        if progress:
            progress(time, stop_time)
        return True

    try:
        with _native_output_silenced():
            result = fmpy.simulate_fmu(str(fmu), start_time=0.0, stop_time=stop_time,
                                       output_interval=output_interval, relative_tolerance=tolerance,
                                       start_values=values, output=outputs, solver="CVode",
                                       step_finished=step_finished)
    except Exception as e:  # fmpy raises plain exceptions from the solver or the FMU
        partial = None
        rec = recorder.get("rec")
        if rec is not None and getattr(rec, "rows", None):
            partial = pd.DataFrame(rec.result()).rename(columns=str)
        raise SimulationFailed(f"simulation of {md.modelName} failed: {_solver_message(e)}", partial) from None
    frame = pd.DataFrame({name: np.asarray(result[name]) for name in result.dtype.names})
    return frame


def _simulate_ode(fmu: pathlib.Path, md, values: dict, stop_time: float, output_interval: float, tolerance: float,
                  outputs: list[str], progress) -> pd.DataFrame:
    """Model exchange of an FMI 3 FMU without events (every rumoca-backend FMU) with SUNDIALS CVODE (BDF),
    as fmpy runs it, with two settings fmpy leaves at CVODE's defaults: up to 10 Newton iterations per step
    (stiff rolling contacts with friction otherwise fail to converge and rebuild the finite-difference
    Jacobian every few steps: measured 2x fewer rebuilds on the omni vehicle) and no limit of 500 steps per
    output interval (the lightest rollers of the omni vehicle need more)."""
    import ctypes
    import shutil
    import tempfile
    from fmpy import extract
    from fmpy.fmi3 import FMU3Model
    from fmpy.sundials import CVodeSolver
    from fmpy.sundials.cvode import sundials_cvode

    unzipped = str(fmu) if fmu.is_dir() else extract(str(fmu), unzipdir=tempfile.mkdtemp(prefix="nh_run_"))
    refs = {v.name: v.valueReference for v in md.modelVariables}
    out_refs = [refs[name] for name in outputs]
    rows: list[list[float]] = []
    instance = FMU3Model(guid=md.guid, unzipDirectory=unzipped, modelIdentifier=md.modelExchange.modelIdentifier,
                         instanceName=md.modelName)

    class _NoInputs:
        def apply(self, time):
            pass

    try:
        with _native_output_silenced():
            instance.instantiate()
            if values:
                instance.setFloat64([refs[n] for n in values], list(values.values()))
            instance.enterInitializationMode(tolerance=tolerance, startTime=0.0, stopTime=stop_time)
            instance.exitInitializationMode()
            instance.enterContinuousTimeMode()
            rows.append([0.0] + list(instance.getFloat64(out_refs)))
            solver = CVodeSolver(nx=md.numberOfContinuousStates, nz=0, get_x=instance.getContinuousStates,
                                 set_x=instance.setContinuousStates, get_dx=instance.getContinuousStateDerivatives,
                                 get_z=instance.getEventIndicators, get_nominals=instance.getNominalsOfContinuousStates,
                                 set_time=instance.setTime, input=_NoInputs(), startTime=0.0, maxStep=stop_time / 50,
                                 relativeTolerance=tolerance, maxNumSteps=10**7)
            set_iters = sundials_cvode.CVodeSetMaxNonlinIters
            set_iters.argtypes = [ctypes.c_void_p, ctypes.c_int]
            set_iters(solver.cvode_mem, 10)
            n_out = int(round(stop_time / output_interval))
            time = 0.0
            for k in range(1, n_out + 1):
                target = stop_time if k == n_out else k * output_interval
                _, _, time = solver.step(time, target)
                instance.setTime(time)
                rows.append([time] + list(instance.getFloat64(out_refs)))
                if progress:
                    progress(time, stop_time)
    except Exception as e:  # CVODE or the FMU failed: keep the rows computed before
        partial = pd.DataFrame(rows, columns=["time"] + outputs) if rows else None
        raise SimulationFailed(f"simulation of {md.modelName} failed: {_solver_message(e)}", partial) from None
    finally:
        try:
            instance.terminate()
            instance.freeInstance()
        except Exception:
            pass
        if not fmu.is_dir():
            shutil.rmtree(unzipped, ignore_errors=True)
    return pd.DataFrame(rows, columns=["time"] + outputs)


def _solver_message(error: Exception) -> str:
    text = " ".join(str(error).split())
    at = re.search(r"At t = ([-+0-9.eE]+)", text)
    if "CVode" in text and at:
        code = re.search(r"code (-?\d+)", text)
        return (f"the integrator (CVODE{', error ' + code.group(1) if code else ''}) could not continue at "
                f"t = {float(at.group(1)):.6g} s; the motion may have reached a configuration where the model is singular "
                "(a disk falling flat, a ball past the rim of its surface) or a parameter is non-physical")
    return text or type(error).__name__


@contextlib.contextmanager
def _native_output_silenced():
    """Keep C libraries (SUNDIALS inside fmpy) from printing on the terminal during a run."""
    saved = []
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        with open(os.devnull, "w") as devnull:
            for fd in (1, 2):
                saved.append((fd, os.dup(fd)))
                os.dup2(devnull.fileno(), fd)
        yield
    finally:
        for fd, copy in saved:
            os.dup2(copy, fd)
            os.close(copy)


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
