"""The project's own integration loop for FMI 3 Model Exchange FMUs without events: SUNDIALS CVODE (the
library fmpy ships) driven directly, with the FMU's exact Jacobian where the rumoca backend exported one."""

from __future__ import annotations

import contextlib
import os
import pathlib
import re
import sys

import numpy as np
import pandas as pd

from .errors import NonholonomicError, SimulationFailed
from .fmu import extra_info


def run_ode(fmu: pathlib.Path, md, values: dict, stop_time: float, output_interval: float, tolerance: float,
                  outputs: list[str], progress, exact_jacobian: bool) -> pd.DataFrame:
    """Model exchange of an FMI 3 FMU without events (every rumoca-backend FMU) with SUNDIALS CVODE (BDF),
    as fmpy runs it, with settings fmpy leaves at CVODE's defaults:

    - the FMU's exact Jacobian of the state derivatives (``nonholonomic_state_jacobian``) instead of
      CVODE's finite differences, whose n_x model evaluations per Jacobian were most of the cost of the
      omni vehicle, and whose round-off spoils the Newton iterations for light rollers next to heavy hubs;
      with it the Newton iteration is asked to converge ten times tighter (nonlinear convergence
      coefficient 0.01: half the steps on the omni vehicle, whose error test otherwise sees unconverged
      stiff roller spins);
    - up to 10 Newton iterations per step and no limit of 500 steps per output interval (stiff rolling
      contacts with friction; the lightest rollers of the omni vehicle need many steps).

    The result's ``attrs["solver"]`` holds CVODE's counters."""
    import ctypes
    import shutil
    import tempfile
    from fmpy import extract
    from fmpy.fmi3 import FMU3Model
    from fmpy.sundials import CVodeSolver

    unzipped = str(fmu) if fmu.is_dir() else extract(str(fmu), unzipdir=tempfile.mkdtemp(prefix="nh_run_"))
    refs = {v.name: v.valueReference for v in md.modelVariables}
    out_refs = [refs[name] for name in outputs]
    rows: list[list[float]] = []
    instance = FMU3Model(guid=md.guid, unzipDirectory=unzipped, modelIdentifier=md.modelExchange.modelIdentifier,
                         instanceName=md.modelName)

    class _NoInputs:
        def apply(self, time):
            pass

    stats = {}
    try:
        with native_output_silenced():
            instance.instantiate()
            if values:
                instance.setFloat64([refs[n] for n in values], list(values.values()))
            instance.enterInitializationMode(tolerance=tolerance, startTime=0.0, stopTime=stop_time)
            instance.exitInitializationMode()
            instance.enterContinuousTimeMode()
            rows.append([0.0] + list(instance.getFloat64(out_refs)))
            nx = md.numberOfContinuousStates
            solver = CVodeSolver(nx=nx, nz=0, get_x=instance.getContinuousStates,
                                 set_x=instance.setContinuousStates, get_dx=instance.getContinuousStateDerivatives,
                                 get_z=instance.getEventIndicators, get_nominals=instance.getNominalsOfContinuousStates,
                                 set_time=instance.setTime, input=_NoInputs(), startTime=0.0, maxStep=stop_time / 50,
                                 relativeTolerance=tolerance, maxNumSteps=10**7)
            _cvode_set(solver, "CVodeSetMaxNonlinIters", ctypes.c_int, 10)
            jacobian = _ExactJacobian.of(instance, fmu, md, refs) if exact_jacobian else None
            if jacobian is not None:
                jacobian.attach(solver)
                _cvode_set(solver, "CVodeSetNonlinConvCoef", ctypes.c_double, 0.01)
            from .simulate import output_grid  # one grid for every path (simulate imports this module)
            time = 0.0
            for target in output_grid(stop_time, output_interval)[1:]:
                _, _, time = solver.step(time, target)
                instance.setTime(time)
                rows.append([time] + list(instance.getFloat64(out_refs)))
                if progress:
                    progress(time, stop_time)
            stats = _cvode_statistics(solver, jacobian)
    except Exception as e:  # CVODE or the FMU failed: keep the rows computed before
        partial = pd.DataFrame(rows, columns=["time"] + outputs) if rows else None
        raise SimulationFailed(f"simulation of {md.modelName} failed: {solver_message(e)}", partial) from None
    finally:
        try:
            instance.terminate()
            instance.freeInstance()
        except Exception:
            pass
        if not fmu.is_dir():
            shutil.rmtree(unzipped, ignore_errors=True)
    frame = pd.DataFrame(rows, columns=["time"] + outputs)
    frame.attrs["solver"] = stats
    return frame


class _ExactJacobian:
    """CVODE's Jacobian function from the FMU binary's ``nonholonomic_state_jacobian`` (rumoca backend).
    Where it gives a non-finite value (a model with a singular derivative, such as a square root at zero),
    that Jacobian is made by finite differences instead, counted in ``fallbacks``."""

    def __init__(self, function, parameters, instance, nx: int):
        self.function, self.parameters, self.instance, self.nx = function, parameters, instance, nx
        self.fallbacks = 0
        self._callback = self._matrix_data = None

    @classmethod
    def of(cls, instance, fmu: pathlib.Path, md, refs: dict) -> "_ExactJacobian | None":
        import ctypes
        from .backends.fmu_export import JACOBIAN_SYMBOL
        names = extra_info(fmu).get("jacobian_parameters")
        function = getattr(instance.dll, JACOBIAN_SYMBOL, None)
        if names is None or function is None:
            return None
        double_p = ctypes.POINTER(ctypes.c_double)
        function.argtypes = [ctypes.c_double, double_p, double_p, double_p]
        function.restype = ctypes.c_int
        values = instance.getFloat64([refs[n] for n in names]) if names else []
        return cls(function, (ctypes.c_double * max(1, len(names)))(*values), instance, md.numberOfContinuousStates)

    def attach(self, solver) -> None:
        import ctypes
        from fmpy.sundials.cvode import sundials_cvode
        from fmpy.sundials.sundials_matrix import SUNMatrix
        from fmpy.sundials.sundials_nvector import N_Vector
        from fmpy.sundials.sunmatrix_dense import sundials_sunmatrixdense
        self._matrix_data = sundials_sunmatrixdense.SUNDenseMatrix_Data
        self._matrix_data.restype = ctypes.POINTER(ctypes.c_double)
        self._matrix_data.argtypes = [ctypes.c_void_p]
        jac_fn = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_double, N_Vector, N_Vector, SUNMatrix, ctypes.c_void_p,
                                  N_Vector, N_Vector, N_Vector)
        self._callback = jac_fn(self._evaluate)  # kept alive as long as the solver
        set_jac = sundials_cvode.CVodeSetJacFn
        set_jac.argtypes = [ctypes.c_void_p, jac_fn]
        if set_jac(solver.cvode_mem, self._callback) != 0:
            raise NonholonomicError("CVODE refused the FMU's Jacobian function")

    def _evaluate(self, t, y, fy, matrix, user_data, tmp1, tmp2, tmp3) -> int:
        try:  # an exception must not cross into C: CVODE would take an unset matrix
            return self._fill(t, y, fy, matrix)
        except Exception:
            return -1

    def _fill(self, t, y, fy, matrix) -> int:
        import ctypes
        from fmpy.sundials.nvector_serial import NV_DATA_S
        data, x = self._matrix_data(matrix), NV_DATA_S(y)
        columns = np.ctypeslib.as_array(data, (self.nx, self.nx))  # row j = column j of the Jacobian
        if self.function(t, x, self.parameters, data) == 0 and np.isfinite(columns).all():
            return 0
        self.fallbacks += 1
        pointer = lambda a: a.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
        state = np.ctypeslib.as_array(x, (self.nx,)).copy()
        f0 = np.ctypeslib.as_array(NV_DATA_S(fy), (self.nx,)).copy()
        dx = np.zeros(self.nx)
        self.instance.setTime(t)
        for j in range(self.nx):
            shifted = state.copy()
            shifted[j] += 1.5e-8 * max(abs(state[j]), 1.0)  # sqrt(machine epsilon), relative
            self.instance.setContinuousStates(pointer(shifted), self.nx)
            self.instance.getContinuousStateDerivatives(pointer(dx), self.nx)
            columns[j] = (dx - f0) / (shifted[j] - state[j])
        self.instance.setContinuousStates(pointer(state), self.nx)
        return 0 if np.isfinite(columns).all() else -1


def _cvode_set(solver, setting: str, c_type, value) -> None:
    import ctypes
    from fmpy.sundials.cvode import sundials_cvode
    function = getattr(sundials_cvode, setting)
    function.argtypes = [ctypes.c_void_p, c_type]
    function(solver.cvode_mem, value)


def _cvode_statistics(solver, jacobian) -> dict:
    """CVODE's counters after a run, and where the Jacobian came from."""
    import ctypes
    from fmpy.sundials.cvode import sundials_cvode

    def counter(name):
        value = ctypes.c_long()
        function = getattr(sundials_cvode, name)
        function.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_long)]
        function(solver.cvode_mem, ctypes.byref(value))
        return int(value.value)

    return {"steps": counter("CVodeGetNumSteps"), "rhs_evaluations": counter("CVodeGetNumRhsEvals"),
            "error_test_failures": counter("CVodeGetNumErrTestFails"),
            "newton_failures": counter("CVodeGetNumNonlinSolvConvFails"),
            "jacobians": counter("CVodeGetNumJacEvals"),
            "finite_difference_evaluations": counter("CVodeGetNumLinRhsEvals"),
            "jacobian": "exact (FMU)" if jacobian is not None else "finite differences (CVODE)",
            "jacobian_fallbacks": jacobian.fallbacks if jacobian is not None else 0}


def solver_message(error: Exception) -> str:
    text = " ".join(str(error).split())
    at = re.search(r"At t = ([-+0-9.eE]+)", text)
    if "CVode" in text and at:
        code = re.search(r"code (-?\d+)", text)
        return (f"the integrator (CVODE{', error ' + code.group(1) if code else ''}) could not continue at "
                f"t = {float(at.group(1)):.6g} s; the motion may have reached a configuration where the model is singular "
                "(a disk falling flat, a ball past the rim of its surface) or a parameter is non-physical")
    return text or type(error).__name__


@contextlib.contextmanager
def native_output_silenced():
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


