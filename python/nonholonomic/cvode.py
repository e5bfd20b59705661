"""The project's own integration loop for the Model Exchange FMUs (FMI 2 and 3) built by the rumoca backend: SUNDIALS
CVODE (the library fmpy ships) calling the FMU binary's compiled right-hand side, exact Jacobian and event
indicators directly, with no Python inside a step; at an event (a root of an indicator located by CVODE, or a
time event the FMU announced) the FMU's event iteration runs through FMI and CVODE restarts."""

from __future__ import annotations

import contextlib
import ctypes
import os
import pathlib
import re
import sys

import numpy as np
import pandas as pd

from . import isolation
from .errors import Interrupted, NonholonomicError, SimulationFailed
from .fmu import extra_info
from .grid import output_grid
from .inputs import InputTable


ROWS_EVERY = 0.1  # seconds of wall time between the chunks of rows handed to a ``rows`` callback at the most


def rows_due(unsent: int, sent: int, seconds_since: float) -> bool:
    """Whether the rows computed but not yet handed on go out now: after ROWS_EVERY seconds of wall time, or
    once they are a quarter of those already out (so a crash of the binary in a child process loses at most
    the last tenth of a second, or a fifth of the rows: the chunks grow geometrically, about 4 ln(n) of them)."""
    return unsent > 0 and (seconds_since > ROWS_EVERY or unsent >= max(1, sent // 4))


def run_ode(fmu: pathlib.Path, md, values: dict, stop_time: float, output_interval: float, tolerance: float,
            outputs: list[str], progress, exact_jacobian: bool, rows=None,
            inputs: InputTable | None = None) -> pd.DataFrame:
    """Model exchange of an FMU (FMI 2 or 3) whose binary exports CVODE's callbacks (every
    rumoca-backend FMU: ``backends/solver_entry.c``) with SUNDIALS CVODE (BDF, dense), driven
    directly: CVODE calls the model's compiled right-hand side and exact Jacobian, so no Python runs inside
    a step (fmpy's solver calls three Python ctypes callbacks per model evaluation, which cost more than
    the evaluation of a small model). The FMU instance is initialised through FMI (parameters, initial
    state); the states at the output times are kept, and the outputs computed from them in one call of the
    binary at the end (three FMI calls and an evaluation of the whole model per row cost more than the
    integration of a small model). Settings that fmpy leaves at CVODE's defaults:

    - the exact Jacobian of the state derivatives instead of CVODE's finite differences, whose n_x model
      evaluations per Jacobian were most of the cost of the omni vehicle, and whose round-off spoils the
      Newton iterations for light rollers next to heavy hubs; with it the Newton iteration is asked to
      converge ten times tighter (nonlinear convergence coefficient 0.01: half the steps on the omni
      vehicle, whose error test otherwise sees unconverged stiff roller spins);
    - up to 4 Newton iterations per step (CVODE's default 3; an iteration that has not converged by then
      gets a fresh Jacobian sooner: on the omni vehicle moving straight 30 % fewer model evaluations than
      with 10, and no less accurate, measured at roller masses eta = 2.5e-3 to 2.5e-5, docs/omni.md);
    - no limit on the steps per output interval (stiff rolling contacts with friction; the lightest
      rollers of the omni vehicle need many steps); CVODE returns every ``STEPS_PER_CALL`` steps all the
      same, so that Ctrl-C is honoured within a fraction of a second.

    ``rows(frame)``, if given, receives the output rows in chunks as they are computed (:func:`rows_due`; a caller
    that must survive a crash of the binary keeps them).
    Ctrl-C raises :class:`Interrupted` with the rows so far, after the instance is freed. The result's
    ``attrs["solver"]`` holds CVODE's counters."""
    import shutil
    import time as clock

    refs = {v.name: v.valueReference for v in md.modelVariables}
    info = extra_info(fmu)
    if inputs is None or inputs.names != info.get("input_names", []):
        raise NonholonomicError(f"the inputs of {md.modelName} differ from its binary's (rebuild the FMU)")
    times: list[float] = []
    states: list[np.ndarray] = []  # at the output times; the outputs are computed from them at the end
    memories: list[np.ndarray] = []  # the event memory at the output times
    folder = isolation.temporary_folder("run")
    instance = solver = None
    chunks: list[pd.DataFrame] = []  # rows already computed (and handed to ``rows``)
    done = lambda: sum(len(c) for c in chunks)

    def new_rows() -> pd.DataFrame:
        start = done()
        chunk = instance.frame(np.array(times[start:]), np.array(states[start:]).reshape(-1, instance.nx),
                               np.array(memories[start:]).reshape(len(times) - start, -1), outputs, info, refs,
                               inputs)
        chunks.append(chunk)
        return chunk

    def frame() -> pd.DataFrame:
        if done() < len(times):
            new_rows()
        return pd.concat(chunks, ignore_index=True) if len(chunks) > 1 else chunks[0]
    try:
        instance = _Fmi3(fmu, md, info, folder)
        with native_output_silenced():
            if values:
                instance.set([refs[n] for n in values], list(values.values()))
            if inputs.names:  # the inputs at t = 0 during initialisation
                instance.set([refs[n] for n in inputs.names], list(inputs.at(0.0)[0]))
            instance.initialise(tolerance, stop_time)
            instance.parameters = instance.get([refs[n] for n in info["jacobian_parameters"]])
            solver = Cvode(instance.dll, instance.states(), instance.parameters, instance.nominals() * tolerance,
                           tolerance, max_step=stop_time / 50, exact_jacobian=exact_jacobian, inputs=inputs,
                           memory=instance.memory(), indicators=info.get("event_indicators", 0))
            x = np.ctypeslib.as_array(solver.state_pointer, (instance.nx,))
            if progress:  # also inside an output interval: a run that crawls shows where it is
                solver.heartbeat = lambda time: progress(time, stop_time)

            def record(time):
                times.append(time)
                states.append(x.copy())
                memories.append(solver.memory.copy())
            record(0.0)
            sent = clock.monotonic()
            for target in output_grid(stop_time, output_interval)[1:]:
                time = advance_with_events(solver, instance, target, record)
                record(time)
                if progress:
                    progress(time, stop_time)
                if rows and rows_due(len(times) - done(), done(), clock.monotonic() - sent):
                    rows(new_rows())
                    sent = clock.monotonic()
                if instance.terminated:
                    break
            if rows and done() < len(times):
                rows(new_rows())
            stats = solver.statistics()
            stats["events"] = instance.events
            result = frame()
            if instance.terminated:  # the model's terminate(): the run ends there, successfully
                result.attrs["terminated_at"] = times[-1]
    except KeyboardInterrupt:
        reached = times[-1] if times else 0.0
        raise Interrupted(f"simulation of {md.modelName} interrupted at t = {reached:g} s",
                          partial=_partial(frame), time=reached) from None
    except Exception as e:  # CVODE or the FMU failed: keep the rows computed before
        raise SimulationFailed(f"simulation of {md.modelName} failed: {solver_message(e)}",
                               _partial(frame) if times else None) from None
    finally:
        if solver is not None:
            solver.free()
        if instance is not None:
            instance.free()
        shutil.rmtree(folder, ignore_errors=True)
    result.attrs["solver"] = stats
    return result


def advance_with_events(solver: "Cvode", instance: "_Fmi3", target: float, record=None,
                        stop_at_target: bool = False) -> float:
    """Integrate to ``target``, handling the FMU's events on the way: at a root of an event indicator (CVODE
    locates it) or a time event (CVODE stops there), the FMU's event iteration runs through FMI and CVODE starts
    afresh from the new state. ``record(time)``, if given, is called just before and just after each event
    (the left and right limits). Returns the time reached: ``target``, or where the model called terminate()
    (``instance.terminated``). ``stop_at_target``: never step past ``target`` (a communication point)."""
    while True:
        event_time = instance.next_event_time
        time_event = event_time is not None and (event_time < target or _same_time(event_time, target))
        stop = (target if _same_time(event_time, target) else event_time) if time_event else target
        if time_event or stop_at_target:
            solver.stop_at(stop)
        else:
            solver.clear_stop_time()
        time = solver.advance(stop)
        if solver.flag == Cvode.ROOT or (time_event and _same_time(time, stop)):
            if record:
                record(time)
            x = np.ctypeslib.as_array(solver.state_pointer, (instance.nx,))
            x[:] = instance.event(time, x)
            solver.memory[:] = instance.memory()
            solver.restart(time)
            if record:
                record(time)
            if instance.terminated:
                return time
        if time >= target or _same_time(time, target):
            return time


def _same_time(a, b) -> bool:
    """a and b are one instant (times reported by the FMU and reached by CVODE, up to rounding)."""
    return a is not None and b is not None and abs(a - b) <= 64 * np.finfo(float).eps * max(1.0, abs(a), abs(b))


def _partial(frame):
    """The rows of an interrupted or failed run (None if even they cannot be computed)."""
    try:
        return frame()
    except Exception:
        return None


class _Fmi3:
    """The FMI 3 model-exchange functions this loop needs, called through ctypes directly: fmpy's
    wrappers cost about 15 ms to load and 10 us a call (three calls per output row), more than the whole
    integration of a small model. Only the binary is extracted from the FMU (into ``folder``); CasADi's
    FMUs use no resources. The rumoca backend's FMI 2.0 FMUs have the same fmi3 functions in their binary
    (``fmi2_model.c`` forwards to them), so this serves both versions."""

    def __init__(self, fmu: pathlib.Path, md, info: dict, folder: str):
        """``info``: the FMU's :func:`~nonholonomic.fmu.extra_info`."""
        import zipfile
        from .backends.fmu_export import binary_member
        member = binary_member(md.fmiVersion, md.modelExchange.modelIdentifier)
        if fmu.is_dir():
            binary = fmu / member
        else:
            with zipfile.ZipFile(fmu) as z:
                binary = pathlib.Path(z.extract(member, folder))
        self.dll = ctypes.CDLL(str(binary))
        c = ctypes
        vr, dp, inst = c.POINTER(c.c_uint32), c.POINTER(c.c_double), c.c_void_p
        for name, restype, argtypes in [
                ("fmi3InstantiateModelExchange", inst, [c.c_char_p, c.c_char_p, c.c_char_p, c.c_bool, c.c_bool,
                                                        c.c_void_p, c.c_void_p]),
                ("fmi3SetFloat64", c.c_int, [inst, vr, c.c_size_t, dp, c.c_size_t]),
                ("fmi3GetFloat64", c.c_int, [inst, vr, c.c_size_t, dp, c.c_size_t]),
                ("fmi3EnterInitializationMode", c.c_int, [inst, c.c_bool, c.c_double, c.c_double, c.c_bool,
                                                          c.c_double]),
                ("fmi3ExitInitializationMode", c.c_int, [inst]), ("fmi3EnterContinuousTimeMode", c.c_int, [inst]),
                ("fmi3GetContinuousStates", c.c_int, [inst, dp, c.c_size_t]),
                ("fmi3GetNominalsOfContinuousStates", c.c_int, [inst, dp, c.c_size_t]),
                ("fmi3SetContinuousStates", c.c_int, [inst, dp, c.c_size_t]), ("fmi3SetTime", c.c_int, [inst, c.c_double]),
                ("fmi3EnterEventMode", c.c_int, [inst]),
                ("fmi3UpdateDiscreteStates", c.c_int, [inst] + [c.POINTER(c.c_bool)] * 5 + [dp]),
                ("nonholonomic_memory", c.c_int, [inst, dp]),
                ("fmi3Terminate", c.c_int, [inst]), ("fmi3FreeInstance", None, [inst])]:
            function = getattr(self.dll, name)
            function.restype, function.argtypes = restype, argtypes
        self.nx, self._name = md.numberOfContinuousStates, md.modelName.encode()
        self.nm = int(info.get("memory_size", 0))  # the event memory (discrete values, relations, ...)
        self.next_event_time: float | None = None  # the next time event the FMU announced
        self.terminated = False  # the model called terminate()
        self.events = 0  # events handled
        self.parameters: list[float] = []  # in the order of jacobian_parameters, once initialised
        self.errors: list[str] = []  # what the FMU logged with an error status (the reason a call failed)

        def log(env, status, category, message):
            if status > 1:
                self.errors.append((message or b"").decode(errors="replace"))
        self._log = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p)(log)
        self._instance = self.dll.fmi3InstantiateModelExchange(self._name, md.guid.encode(), None, False, False,
                                                                None, ctypes.cast(self._log, ctypes.c_void_p))
        if not self._instance:
            raise NonholonomicError(f"the FMU of {md.modelName} could not be instantiated")

    def _check(self, status: int, what: str) -> None:
        if status > 1:  # fmi3OK, fmi3Warning
            reason = self.errors[-1].split(f"{what}: ", 1)[-1] if self.errors else f"FMI status {status}"
            raise NonholonomicError(f"the FMU failed in {what}: {reason}")

    def set(self, refs: list[int], values: list[float]) -> None:
        n = len(refs)
        self._check(self.dll.fmi3SetFloat64(self._instance, (ctypes.c_uint32 * n)(*refs), n,
                                            (ctypes.c_double * n)(*values), n), "fmi3SetFloat64")

    def get(self, refs: list[int]) -> list[float]:
        n = len(refs)
        values = (ctypes.c_double * max(1, n))()
        self._check(self.dll.fmi3GetFloat64(self._instance, (ctypes.c_uint32 * max(1, n))(*refs), n, values, n),
                    "fmi3GetFloat64")
        return list(values[:n])

    def initialise(self, tolerance: float, stop_time: float) -> None:
        self._check(self.dll.fmi3EnterInitializationMode(self._instance, True, tolerance, 0.0, True, stop_time),
                    "fmi3EnterInitializationMode")
        self._check(self.dll.fmi3ExitInitializationMode(self._instance), "fmi3ExitInitializationMode")
        self._update_discrete_states()
        self._check(self.dll.fmi3EnterContinuousTimeMode(self._instance), "fmi3EnterContinuousTimeMode")

    def _update_discrete_states(self) -> None:
        flags = [ctypes.c_bool() for _ in range(5)]
        when = ctypes.c_double()
        again = True
        while again:
            self._check(self.dll.fmi3UpdateDiscreteStates(self._instance, *[ctypes.byref(f) for f in flags],
                                                          ctypes.byref(when)), "fmi3UpdateDiscreteStates")
            again = flags[0].value and not flags[1].value
        self.terminated = self.terminated or flags[1].value
        self.next_event_time = when.value if flags[4].value else None

    def event(self, time: float, x: np.ndarray) -> np.ndarray:
        """The event at ``time`` with states ``x``: the FMU's event iteration; returns the states after it."""
        pointer = lambda a: a.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
        x = np.ascontiguousarray(x, dtype=float)
        self._check(self.dll.fmi3SetTime(self._instance, time), "fmi3SetTime")
        self._check(self.dll.fmi3SetContinuousStates(self._instance, pointer(x), self.nx), "fmi3SetContinuousStates")
        self._check(self.dll.fmi3EnterEventMode(self._instance), "fmi3EnterEventMode")
        self._update_discrete_states()
        self._check(self.dll.fmi3EnterContinuousTimeMode(self._instance), "fmi3EnterContinuousTimeMode")
        self.events += 1
        return self.states()

    def memory(self) -> np.ndarray:
        """The FMU's event memory (discrete variables, relation and condition values), at least one value."""
        values = np.zeros(max(1, self.nm))
        if self.dll.nonholonomic_memory(self._instance, values.ctypes.data_as(ctypes.POINTER(ctypes.c_double))):
            raise NonholonomicError("the FMU's event memory could not be read")
        return values

    def _vector(self, function) -> np.ndarray:
        values = np.zeros(self.nx)
        self._check(function(self._instance, values.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), self.nx),
                    function.__name__)
        return values

    def states(self) -> np.ndarray:
        return self._vector(self.dll.fmi3GetContinuousStates)

    def nominals(self) -> np.ndarray:
        return self._vector(self.dll.fmi3GetNominalsOfContinuousStates)

    def frame(self, times: np.ndarray, states: np.ndarray, memories: np.ndarray, outputs: list[str], info: dict,
              refs: dict, inputs: InputTable) -> pd.DataFrame:
        """The named variables at the given times, states and event memories: the FMU's outputs by the
        binary's batch function (``nonholonomic_outputs``), states, discrete variables and inputs from
        their rows, any other variable through FMI."""
        pointer = lambda a: a.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
        columns = {"time": times}
        y = np.zeros((len(times), len(info["output_names"])))
        function = self.dll.nonholonomic_outputs
        function.restype = ctypes.c_int
        function.argtypes = [ctypes.c_long] + [ctypes.POINTER(ctypes.c_double)] * 6
        p = np.ascontiguousarray(self.parameters + [0.0])
        u = np.ascontiguousarray(inputs.at(times)) if inputs.names else np.zeros((len(times), 1))
        m = np.ascontiguousarray(memories[:, :self.nm] if self.nm else np.zeros((len(times), 1)), dtype=float)
        times, states = np.ascontiguousarray(times, dtype=float), np.ascontiguousarray(states, dtype=float)
        if function(len(times), pointer(times), pointer(states), pointer(p), pointer(u), pointer(m), pointer(y)):
            raise NonholonomicError("the FMU's outputs could not be evaluated")
        where = {name: ("y", k) for k, name in enumerate(info["output_names"])}
        where.update({name: ("m", k) for k, name in enumerate(info.get("discrete_names", []))})
        where.update({name: ("x", k) for k, name in enumerate(info["state_names"])})
        where.update({name: ("u", k) for k, name in enumerate(inputs.names)})
        others = [name for name in outputs if name not in where]
        through_fmi = {name: [] for name in others}
        for time, x, u_row in zip(times, states, u) if others else ():
            self._check(self.dll.fmi3SetTime(self._instance, time), "fmi3SetTime")
            if inputs.names:
                self.set([refs[n] for n in inputs.names], list(u_row))
            self._check(self.dll.fmi3SetContinuousStates(self._instance, pointer(x), self.nx), "fmi3SetContinuousStates")
            for name, value in zip(others, self.get([refs[n] for n in others])):
                through_fmi[name].append(value)
        for name in outputs:
            kind, k = where.get(name, (None, None))
            columns[name] = (y[:, k] if kind == "y" else states[:, k] if kind == "x" else u[:, k] if kind == "u"
                             else m[:, k] if kind == "m" else np.array(through_fmi[name]))
        return pd.DataFrame(columns)

    def free(self) -> None:
        import _ctypes
        if self._instance:
            self.dll.fmi3Terminate(self._instance)
            self.dll.fmi3FreeInstance(self._instance)
            self._instance = None
        (_ctypes.dlclose if hasattr(_ctypes, "dlclose") else _ctypes.FreeLibrary)(self.dll._handle)


def _sundials(library: str, name: str, restype, *argtypes):
    """A SUNDIALS function of the libraries fmpy ships, typed here (a fresh ctypes object: fmpy's own
    solver keeps its typing of the shared ones)."""
    from fmpy.sundials import libraries
    function = getattr(libraries, library)[name]
    function.restype, function.argtypes = restype, list(argtypes)
    return function


class CvodeFailed(RuntimeError):
    """CVODE returned an error flag (its name, e.g. CV_CONV_FAILURE) at the time it reached."""

    def __init__(self, flag_name: str, time: float):
        super().__init__(f"CVode error {flag_name} At t = {time!r}")
        self.flag_name, self.time = flag_name, time


class Cvode:
    """CVODE (BDF, dense linear solver) on an FMU binary's exported right-hand side and, with
    ``exact_jacobian``, its Jacobian (``nonholonomic_cvode_rhs`` / ``_jacobian``); otherwise CVODE's
    finite differences of that right-hand side. ``free()`` releases everything."""

    @staticmethod
    def data_type(nu: int):
        """nonholonomic_cvode_data in the binary (backends/solver_entry.c) for nu inputs."""
        dp = ctypes.POINTER(ctypes.c_double)
        return type("Data", (ctypes.Structure,), {"_fields_": [
            ("vector_data", ctypes.c_void_p), ("matrix_data", ctypes.c_void_p), ("p", dp), ("nx", ctypes.c_long),
            ("fallbacks", ctypes.c_long), ("rhs_work", ctypes.c_void_p), ("jac_work", ctypes.c_void_p),
            ("nu", ctypes.c_long), ("u_points", ctypes.c_long), ("u_times", dp), ("u_values", dp),
            ("m", dp), ("root_work", ctypes.c_void_p), ("u_now", ctypes.c_double * max(1, nu))]})

    # CVODE returns at least this often: SIGINT to Interrupted measured 0.04 s on the vehicle with the exact
    # Jacobian, 0.26 s with finite differences (208 evaluations per Jacobian); a call costs ~3 us
    STEPS_PER_CALL = 20

    # CVode's return flags that end a call successfully: at the output time, at the stop time, at a root
    SUCCESS, TSTOP, ROOT = 0, 1, 2

    def __init__(self, dll, x0: list, parameters: list, abstol, rtol: float, max_step: float, exact_jacobian: bool,
                 inputs: InputTable | None = None, memory: np.ndarray | None = None, indicators: int = 0):
        self._mem = self._ctx = self._matrix = self._linear_solver = self._data = None
        self._vectors, self._dll = [], dll
        self.nu = len(inputs.names) if inputs else 0
        # the FMU's event memory, read by the binary's functions (the caller updates it after events)
        self.memory = np.ascontiguousarray(np.zeros(1) if memory is None else memory, dtype=float).copy()
        self.indicators, self.flag = indicators, self.SUCCESS
        self.heartbeat = None  # heartbeat(time) after every STEPS_PER_CALL steps inside an advance
        self._before: dict = {}  # counters of the runs before the last restart
        try:
            self._create(x0, parameters, abstol, rtol, max_step, exact_jacobian)
            self.set_inputs(inputs or InputTable([], np.zeros(1), np.zeros((1, 0))))
        except BaseException:
            self.free()
            raise

    def _create(self, x0, parameters, abstol, rtol, max_step, exact_jacobian) -> None:
        from ctypes import POINTER, byref, c_double, c_int, c_int64, c_long, c_void_p
        dll, vp = self._dll, c_void_p
        ok = lambda flag, what: flag == 0 or self._fail(f"CVODE refused {what} (flag {flag})")
        nx = len(x0)
        self.nx, self.exact_jacobian = nx, exact_jacobian
        self._parameters = (c_double * max(1, len(parameters)))(*parameters)
        self._data = self.data_type(self.nu)(
            ctypes.cast(_sundials("sundials_core", "N_VGetArrayPointer", vp, vp), vp),
            ctypes.cast(_sundials("sundials_sunmatrixdense", "SUNDenseMatrix_Data", vp, vp), vp),
            self._parameters, nx, 0, None, None, self.nu)
        self._data.m = self.memory.ctypes.data_as(POINTER(c_double))
        self._ctx = vp()
        ok(_sundials("sundials_core", "SUNContext_Create", c_int, c_int, POINTER(vp))(0, byref(self._ctx)),
           "a context")  # SUN_COMM_NULL: no MPI
        # no error handler: SUNDIALS would print each message (a returned flag says it all) and a Python
        # one would run inside CVode, where a Ctrl-C can get lost
        _sundials("sundials_core", "SUNContext_ClearErrHandlers", c_int, vp)(self._ctx)
        new_vector = _sundials("sundials_nvecserial", "N_VNew_Serial", vp, c_int64, vp)
        data_of = _sundials("sundials_core", "N_VGetArrayPointer", POINTER(c_double), vp)
        self._y, tolerances = new_vector(nx, self._ctx), new_vector(nx, self._ctx)
        self._vectors = [self._y, tolerances]
        if not self._y or not tolerances:
            self._fail("out of memory")
        self.state_pointer = data_of(self._y)
        np.ctypeslib.as_array(self.state_pointer, (nx,))[:] = x0
        np.ctypeslib.as_array(data_of(tolerances), (nx,))[:] = abstol
        cv = lambda name, *argtypes: _sundials("sundials_cvode", name, c_int, vp, *argtypes)
        self._mem = _sundials("sundials_cvode", "CVodeCreate", vp, c_int, vp)(2, self._ctx)  # CV_BDF
        if not self._mem:
            self._fail("out of memory")
        rhs = ctypes.cast(dll.nonholonomic_cvode_rhs, vp)
        ok(cv("CVodeInit", vp, c_double, vp)(self._mem, rhs, 0.0, self._y), "the right-hand side")
        ok(cv("CVodeSetUserData", vp)(self._mem, ctypes.cast(ctypes.pointer(self._data), vp)), "the user data")
        ok(cv("CVodeSVtolerances", c_double, vp)(self._mem, rtol, tolerances), "the tolerances")
        self._matrix = _sundials("sundials_sunmatrixdense", "SUNDenseMatrix", vp, c_int64, c_int64, vp)(nx, nx, self._ctx)
        self._linear_solver = _sundials("sundials_sunlinsoldense", "SUNLinSol_Dense", vp, vp, vp, vp)(
            self._y, self._matrix, self._ctx)
        ok(cv("CVodeSetLinearSolver", vp, vp)(self._mem, self._linear_solver, self._matrix), "the linear solver")
        if exact_jacobian:
            ok(cv("CVodeSetJacFn", vp)(self._mem, ctypes.cast(dll.nonholonomic_cvode_jacobian, vp)), "the Jacobian")
            ok(cv("CVodeSetNonlinConvCoef", c_double)(self._mem, 0.01), "the convergence coefficient")
        ok(cv("CVodeSetMaxNonlinIters", c_int)(self._mem, 4), "the Newton iterations")
        ok(cv("CVodeSetMaxStep", c_double)(self._mem, max_step), "the maximum step")
        ok(cv("CVodeSetMaxNumSteps", c_long)(self._mem, self.STEPS_PER_CALL), "the steps per call")
        ok(cv("CVodeSetMaxHnilWarns", c_int)(self._mem, -1), "silence")  # t + h = t is for the error flags to say
        if self.indicators:
            ok(cv("CVodeRootInit", c_int, vp)(self._mem, self.indicators, ctypes.cast(dll.nonholonomic_cvode_roots, vp)),
               "the event indicators")
            ok(cv("CVodeSetNoInactiveRootWarn")(self._mem), "silence")
        self._cvode = cv("CVode", c_double, vp, POINTER(c_double), c_int)
        self._time = c_double(0.0)
        # the functions called between steps, typed once: a lookup and typing per call (``_sundials``) cost more
        # than the call itself, at every output time of a run
        self._set_stop, self._clear_stop = cv("CVodeSetStopTime", c_double), cv("CVodeClearStopTime")
        self._current_time, self._reinit = cv("CVodeGetCurrentTime", POINTER(c_double)), cv("CVodeReInit", c_double, vp)
        self._counter_functions = {key: cv(name, POINTER(c_long)) for key, name in self._COUNTERS.items()
                                   if key != "indicator_evaluations" or self.indicators}
        self._stop_set = False  # a stop time was set since the last clear_stop_time

    def _fail(self, message: str):
        raise NonholonomicError(message)

    def set_inputs(self, table: InputTable) -> None:
        """The inputs from now on: ``table`` (its times and values are kept referenced while in use)."""
        if len(table.names) != self.nu:
            raise NonholonomicError(f"{len(table.names)} inputs given, the model has {self.nu}")
        self._table = (np.ascontiguousarray(table.times, dtype=float), np.ascontiguousarray(table.values, dtype=float))
        pointer = lambda a: a.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
        self._data.u_points = len(self._table[0])
        self._data.u_times, self._data.u_values = pointer(self._table[0]), pointer(self._table[1])

    _COUNTERS = {"steps": "CVodeGetNumSteps", "rhs_evaluations": "CVodeGetNumRhsEvals",
                 "error_test_failures": "CVodeGetNumErrTestFails", "newton_failures": "CVodeGetNumNonlinSolvConvFails",
                 "jacobians": "CVodeGetNumJacEvals", "finite_difference_evaluations": "CVodeGetNumLinRhsEvals",
                 "indicator_evaluations": "CVodeGetNumGEvals"}

    def _counters(self) -> dict:
        """CVODE's counters since its last (re)start."""
        value = ctypes.c_long()

        def counter(key):
            function = self._counter_functions.get(key)
            if function is None:
                return 0
            function(self._mem, ctypes.byref(value))
            return int(value.value)
        return {key: counter(key) for key in self._COUNTERS}

    def restart(self, time: float) -> None:
        """Start the multistep method afresh at ``time`` from the current state (its last accepted one)."""
        done = self._counters()  # CVodeReInit sets them to zero
        self._before = {key: self._before.get(key, 0) + value for key, value in done.items()}
        if self._reinit(self._mem, time, self._y) != 0:
            self._fail(f"CVODE refused to restart at t = {time:g}")

    def set_stop_time(self, stop_time: float) -> None:
        """Never step past ``stop_time`` (a communication point, whose inputs are not known yet)."""
        if self._set_stop(self._mem, stop_time) != 0:
            self._fail(f"CVODE refused the stop time {stop_time:g}")
        self._stop_set = True

    def stop_at(self, time: float) -> None:
        """Never step past ``time``; where CVODE's last step already went past it (an event time found after
        an output time), its solution there is interpolated, and a restart at the event discards the rest."""
        now = ctypes.c_double()
        self._current_time(self._mem, ctypes.byref(now))
        if now.value >= time:
            self.clear_stop_time()
        else:
            self.set_stop_time(time)

    def clear_stop_time(self) -> None:
        if self._stop_set:  # none is set otherwise: the call (at every output time of a run) is saved
            self._clear_stop(self._mem)
            self._stop_set = False

    def advance(self, target: float) -> float:
        """Integrate to ``target`` (CVODE's interpolated solution there, in ``state_pointer``) or to a root of
        the event indicators before it (``flag`` is then ROOT); returns the time reached. Each CVode call takes
        at most STEPS_PER_CALL steps (flag -1, CV_TOO_MUCH_WORK, then means: go on), so a Ctrl-C between calls
        ends the run promptly."""
        while True:
            flag = self._cvode(self._mem, target, self._y, ctypes.byref(self._time), 1)  # CV_NORMAL
            if flag >= 0:
                self.flag = flag
                return self._time.value
            if flag == -1 and self.heartbeat:
                self.heartbeat(self._time.value)
            if flag != -1:
                name = _sundials("sundials_cvode", "CVodeGetReturnFlagName", ctypes.c_char_p, ctypes.c_long)(flag)
                raise CvodeFailed(name.decode(), self._time.value)

    def statistics(self) -> dict:
        """CVODE's counters over the whole run (restarts included), and where the Jacobian came from."""
        now = self._counters()
        return {**{key: now[key] + self._before.get(key, 0) for key in now},
                "jacobian": "exact (FMU)" if self.exact_jacobian else "finite differences (CVODE)",
                "jacobian_fallbacks": int(self._data.fallbacks)}

    def free(self) -> None:
        vp = ctypes.c_void_p
        if self._mem:
            _sundials("sundials_cvode", "CVodeFree", None, ctypes.POINTER(vp))(ctypes.byref(vp(self._mem)))
        if self._linear_solver:
            _sundials("sundials_core", "SUNLinSolFree", ctypes.c_int, vp)(self._linear_solver)
        if self._matrix:
            _sundials("sundials_core", "SUNMatDestroy", None, vp)(self._matrix)
        for vector in self._vectors:
            if vector:
                _sundials("sundials_core", "N_VDestroy", None, vp)(vector)
        if self._data is not None:
            self._dll.nonholonomic_cvode_data_free.argtypes = [vp]
            self._dll.nonholonomic_cvode_data_free(ctypes.byref(self._data))
        if self._ctx:
            _sundials("sundials_core", "SUNContext_Free", ctypes.c_int, ctypes.POINTER(vp))(ctypes.byref(self._ctx))
        self._mem = self._linear_solver = self._matrix = self._ctx = self._data = None
        self._vectors = []


def solver_message(error: Exception) -> str:
    text = " ".join(str(error).split())
    domain = re.search(r"the model leaves its domain at t = .*", text)  # an assert of the model failed at an event
    if domain:
        return domain.group(0)
    at = re.search(r"At t = ([-+0-9.eE]+)", text)
    if "CVode" in text and at:
        code = re.search(r"code (-?\d+)|(CV_[A-Z_]+)", text)
        return (f"the integrator (CVODE{', error ' + (code.group(1) or code.group(2)) if code else ''}) could not continue at "
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


