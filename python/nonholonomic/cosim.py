"""Co-simulation: FMUs and Python functions coupled by connecting outputs to inputs, stepped by a master.

Components
----------
- :class:`FmuComponent`: an FMU stepped from one communication point to the next. Model exchange through
  the project's integrator (CVODE calling the binary's right-hand side and exact Jacobian: FMI 2 and 3 FMUs of
  the rumoca backend), or co-simulation through the FMU's own ``fmi3DoStep``/``fmi2DoStep`` (any FMU with
  a CoSimulation interface: the rumoca backend's CVODE, OpenModelica's CVODE). Its inputs are held
  constant over a step (zero-order hold; FMI 3 has no input derivatives), and the integration restarts
  at every communication point where an input changed, so no step of the integrator straddles a jump.
- :class:`FunctionComponent`: a Python function ``outputs = f(t, inputs)`` (a controller, a signal), with
  direct feedthrough: evaluated at each communication point after its inputs are set.
- :class:`OdeComponent`: a Python ODE ``x' = f(t, x, inputs)`` (a reference model), its inputs held over a
  step like an FMU's.

Master (:class:`System.run`): fixed communication step H from t0 to the stop time.

- ``jacobi``: every component steps [t, t + H] with the inputs of time t, then all outputs of t + H are
  exchanged: components may run in any order (or in parallel); every coupling lags one step.
- ``gauss-seidel``: components step in the given order, each with the outputs its predecessors already
  produced at t + H (and the others' of t): put the plant before its controller and the controller sees
  the plant's outputs without delay.

Both are first-order in H: with held inputs the coupling error (the difference to the monolithic solution
of the coupled equations) falls proportionally to H (halving H halves it); the integrators inside the
components keep their own error control. The master guarantees nothing more: no iteration of a step, no
step-size control, no detection of algebraic loops between direct-feedthrough components (such a loop is
cut where the order meets it). Results: one DataFrame per component, its inputs and outputs at the
communication points.
"""

from __future__ import annotations

import ctypes
import dataclasses
import itertools
import math
from collections.abc import Iterable, Mapping
from typing import Callable

import numpy as np
import pandas as pd

from . import isolation
from .cvode import CvodeFailed, advance_with_events, solver_message
from .errors import Interrupted, NonholonomicError, SimulationFailed


class FunctionComponent:
    """A Python function as a component: ``function(t, inputs) -> outputs`` (dicts by name)."""

    def __init__(self, name: str, function: Callable[[float, dict], dict], inputs: list[str], outputs: list[str]):
        self.name, self.function = name, function
        self.inputs, self.outputs = list(inputs), list(outputs)
        self._u = {n: 0.0 for n in self.inputs}
        self._y: dict = {}

    def initialise(self, stop_time: float, tolerance: float) -> None:
        self._t = 0.0

    def set_inputs(self, values: dict) -> None:
        self._u.update(values)

    def evaluate(self) -> None:
        try:
            y = self.function(self._t, dict(self._u))
        except Exception as e:  # the user's function failed: its own traceback stays chained to this line
            raise NonholonomicError(f"component {self.name}: its function raised {type(e).__name__}: {e}") from e
        if not isinstance(y, Mapping):
            raise NonholonomicError(f"component {self.name}: its function returned {type(y).__name__}, not a dict of "
                                    f"its outputs ({', '.join(self.outputs)})")
        missing = [n for n in self.outputs if n not in y]
        if missing:
            raise NonholonomicError(f"component {self.name}: its function returned no {', '.join(missing)}")
        values = {}
        for n in self.outputs:
            try:
                values[n] = float(y[n])
            except (TypeError, ValueError):
                raise NonholonomicError(f"component {self.name}: output {n} = {y[n]!r} is not a number") from None
        self._y = values

    def step(self, t: float, h: float) -> None:
        self._t = t + h
        self.evaluate()

    def get_outputs(self) -> dict:
        return dict(self._y)

    def get_inputs(self) -> dict:
        return dict(self._u)

    def save(self):
        """What the master's rollback restores: the time, inputs and outputs (a function keeping memory of its own,
        such as a controller's integral, is not rolled back: give such a state to an OdeComponent)."""
        return self._t, dict(self._u), dict(self._y)

    def restore(self, saved) -> None:
        self._t, self._u, self._y = saved[0], dict(saved[1]), dict(saved[2])

    def release(self, saved) -> None:
        pass

    def free(self) -> None:
        pass


class OdeComponent:
    """A Python ODE ``x' = rhs(t, x, inputs)`` as a component (a reference model in the loop), integrated
    over each communication step by scipy's DOP853 at the system's tolerance with its inputs held;
    ``observe(t, x, inputs) -> outputs``."""

    def __init__(self, name: str, rhs, x0, inputs: list[str], outputs: list[str], observe):
        self.name, self.rhs, self.observe = name, rhs, observe
        self.inputs, self.outputs = list(inputs), list(outputs)
        self._x0 = np.asarray(x0, dtype=float)
        self._u = {n: 0.0 for n in self.inputs}

    def initialise(self, stop_time: float, tolerance: float) -> None:
        self._t, self._x, self._tolerance = 0.0, self._x0.copy(), tolerance

    def set_inputs(self, values: dict) -> None:
        self._u.update({n: float(v) for n, v in values.items()})

    def get_inputs(self) -> dict:
        return dict(self._u)

    def step(self, t: float, h: float) -> None:
        from scipy.integrate import solve_ivp
        u = dict(self._u)
        solution = solve_ivp(lambda time, x: self.rhs(time, x, u), (t, t + h), self._x, method="DOP853",
                             rtol=self._tolerance, atol=self._tolerance)
        if not solution.success:
            raise NonholonomicError(f"component {self.name}: the integration failed at t = {t:g} s: "
                                    f"{solution.message}")
        self._t, self._x = t + h, solution.y[:, -1]

    def get_outputs(self) -> dict:
        y = self.observe(self._t, self._x, dict(self._u))
        return {n: float(y[n]) for n in self.outputs}

    def evaluate(self) -> None:
        pass

    def save(self):
        return self._t, self._x.copy(), dict(self._u)

    def restore(self, saved) -> None:
        self._t, self._x, self._u = saved[0], saved[1].copy(), dict(saved[2])

    def release(self, saved) -> None:
        pass

    def free(self) -> None:
        pass


def cs_steps(slave) -> int | None:
    """The steps of fmi3DoStep's CVODE so far in an fmpy co-simulation instance of an FMU of the rumoca backend
    (its binary's non-FMI ``nonholonomic_cs_steps``, event location included); None for other FMUs."""
    if not hasattr(slave.dll, "nonholonomic_cs_steps"):
        return None
    count = slave.dll.nonholonomic_cs_steps
    count.restype, count.argtypes = ctypes.c_long, [ctypes.c_void_p]
    return int(count(slave.component))


class FmuComponent:
    """An FMU as a component (see the module docstring). ``interface``: ``"me"`` (the project's integrator;
    rumoca-backend FMUs), ``"cs"`` (the FMU's own doStep) or ``"auto"`` (ME where possible). ``isolate``
    (default): the FMU's binary runs in a child process (:class:`isolation.Remote`), so that a crash of its C code
    ends the run with a one-line :class:`NonholonomicError` naming the component and the rows so far, instead of
    this process; ``isolate=False`` runs it here (no inter-process call per step)."""

    def __init__(self, name: str, model, parameters: dict | None = None, interface: str = "auto",
                 isolate: bool = True):
        from .fmu import fmu_path, has_solver_functions, model_description
        from .simulate import check_parameters, model_argument, parameters_argument
        if not isinstance(name, str) or not name:
            raise NonholonomicError(f"a component's name must be a text, got {name!r}")
        self.name = name
        self.fmu = fmu_path(model_argument(model))
        self.md = model_description(self.fmu)
        self.values = check_parameters(self.fmu, parameters_argument(parameters))
        own_loop = has_solver_functions(self.fmu)
        if interface not in ("auto", "me", "cs"):
            raise NonholonomicError(f"component {name}: interface must be auto, me or cs, got {interface!r}")
        if interface == "me" and not own_loop:
            raise NonholonomicError(f"component {name}: model exchange needs an FMU of the rumoca backend "
                                    f"(the project's integrator); {self.fmu.name} can run as co-simulation (cs)")
        if interface == "cs" and self.md.coSimulation is None:
            raise NonholonomicError(f"component {name}: {self.fmu.name} has no co-simulation interface")
        if interface == "auto" and not own_loop and self.md.coSimulation is None:
            raise NonholonomicError(f"component {name}: {self.fmu.name} offers neither the project's model exchange "
                                    "(rumoca backend) nor co-simulation")
        self.interface = "me" if interface == "me" or (interface == "auto" and own_loop) else "cs"
        self.inputs = [v.name for v in self.md.modelVariables if v.causality == "input"]
        self.outputs = [v.name for v in self.md.modelVariables if v.causality == "output"]
        self._refs = {v.name: v.valueReference for v in self.md.modelVariables}
        self._u = {v.name: float(v.start) if v.start is not None else 0.0
                   for v in self.md.modelVariables if v.causality == "input"}
        self._changed = True
        self._instance = self._solver = self._slave = None
        self.steps: int | None = None  # the integrator's steps, once the run is over (see _steps)
        self.isolate, self._remote = bool(isolate), None
        self._saved, self._keys = {}, itertools.count()  # rollback: saved states by key (where the binary runs)

    # ---- where the binary runs: here, or in a child process
    def _call(self, method: str, *args):
        """This component's ``method`` (an underscored one of its own) here, or on its copy in the child."""
        if self._remote is None:
            return getattr(self, method)(*args)
        try:
            return self._remote.call(method, *args)
        except isolation.BinaryCrashed as e:
            raise NonholonomicError(f"component {self.name}: {e} in {method.strip('_')}") from None

    def _in_child(self):
        """The child's copy of this component (made by fork), which runs the binary there."""
        self._remote = None
        return self

    # ---- life cycle
    def initialise(self, stop_time: float, tolerance: float) -> None:
        """Instantiate and initialise at t = 0 with the parameters and the current inputs."""
        if self.isolate and not isolation.inside():
            self._remote = isolation.Remote(self._in_child)
        self._call("_initialise", stop_time, tolerance)

    def _initialise(self, stop_time: float, tolerance: float) -> None:
        if self.interface == "me":
            self._initialise_me(stop_time, tolerance)
        else:
            self._initialise_cs(stop_time, tolerance)

    def _initialise_me(self, stop_time: float, tolerance: float) -> None:
        from .cvode import Cvode, _Fmi3
        from .fmu import extra_info
        self._folder = isolation.temporary_folder("cosim")
        self._info = extra_info(self.fmu)
        self._instance = instance = _Fmi3(self.fmu, self.md, self._info, self._folder)
        if self.values:
            instance.set([self._refs[n] for n in self.values], list(self.values.values()))
        if self.inputs:
            instance.set([self._refs[n] for n in self.inputs], [self._u[n] for n in self.inputs])
        instance.initialise(tolerance, stop_time)
        instance.parameters = instance.get([self._refs[n] for n in self._info["jacobian_parameters"]])
        table = self._held_inputs(0.0)
        self._solver = Cvode(instance.dll, instance.states(), instance.parameters, instance.nominals() * tolerance,
                             tolerance, max_step=math.inf, exact_jacobian=True, inputs=table,
                             memory=instance.memory(), indicators=self._info.get("event_indicators", 0))
        self._x = np.ctypeslib.as_array(self._solver.state_pointer, (instance.nx,))
        self._t = 0.0

    def _initialise_cs(self, stop_time: float, tolerance: float) -> None:
        import fmpy
        from fmpy import extract
        self._folder = isolation.temporary_folder("cosim")
        unzipped = extract(str(self.fmu), unzipdir=self._folder) if self.fmu.is_file() else str(self.fmu)
        kwargs = dict(guid=self.md.guid, unzipDirectory=unzipped,
                      modelIdentifier=self.md.coSimulation.modelIdentifier, instanceName=self.name)
        if self.md.fmiVersion.startswith("3"):
            self._slave = fmpy.fmi3.FMU3Slave(**kwargs)
            self._slave.instantiate()
            self._set, self._get = self._slave.setFloat64, self._slave.getFloat64
        else:
            self._slave = fmpy.fmi2.FMU2Slave(**kwargs)
            self._slave.instantiate()
            self._slave.setupExperiment(tolerance=tolerance, startTime=0.0, stopTime=stop_time)
            self._set, self._get = self._slave.setReal, self._slave.getReal
        if self.values:
            self._set([self._refs[n] for n in self.values], list(self.values.values()))
        if self.inputs:
            self._set([self._refs[n] for n in self.inputs], [self._u[n] for n in self.inputs])
        if self.md.fmiVersion.startswith("3"):
            self._slave.enterInitializationMode(tolerance=tolerance, startTime=0.0, stopTime=stop_time)
        else:
            self._slave.enterInitializationMode()
        self._slave.exitInitializationMode()
        self._t = 0.0

    def free(self) -> None:
        if self._remote is None:
            self._free()
            return
        try:
            self.steps = self._remote.call("_free")
        except (NonholonomicError, RuntimeError):  # its binary crashed before: nothing left to free
            pass
        finally:
            self._remote.close()
            self._remote = None

    def _free(self) -> int | None:
        import shutil
        self.steps = self._steps()
        if self._solver is not None:
            self._solver.free()
        if self._instance is not None:
            self._instance.free()
        if self._slave is not None:
            try:
                self._slave.terminate()
            finally:
                self._slave.freeInstance()
        self._instance = self._solver = self._slave = None
        if getattr(self, "_folder", None):
            shutil.rmtree(self._folder, ignore_errors=True)
        return self.steps

    def _steps(self) -> int | None:
        """The integrator's steps so far: CVODE's (model exchange), or those of fmi3DoStep's CVODE (an FMU of
        the rumoca backend in co-simulation); None where the FMU does not tell."""
        if self._solver is not None:
            return self._solver.statistics()["steps"]
        if self._slave is not None:
            return cs_steps(self._slave)
        return self.steps

    # ---- stepping
    def set_inputs(self, values: dict) -> None:
        for name, value in values.items():
            if name not in self._u:
                raise NonholonomicError(f"component {self.name} has no input '{name}' (its inputs: "
                                        f"{', '.join(self.inputs) or 'none'})")
            if self._u[name] != value:
                self._u[name], self._changed = float(value), True
        if self._remote is not None:
            self._remote.call("set_inputs", values)

    def get_inputs(self) -> dict:
        return dict(self._u)

    def step(self, t: float, h: float) -> None:
        self._call("_step", t, h)

    def _step(self, t: float, h: float) -> None:
        if self.interface == "me":
            if self._changed:  # held inputs jump at t; CVODE's error test meets the jump on its next steps
                self._solver.set_inputs(self._held_inputs(t))
            # never past the communication point (its inputs are not known yet); the FMU's events on the way
            step = lambda: advance_with_events(self._solver, self._instance, t + h, stop_at_target=True)
            try:
                try:
                    self._t = step()
                except CvodeFailed as e:
                    # at tight tolerances a jump can defeat the multistep history: once more, afresh from the last
                    # accepted point (a restart at every communication point instead cost the vehicle 15 times
                    # the time, and its order-1 restarts added up to errors above the coupling error)
                    self._solver.restart(e.time)
                    self._t = step()
            except CvodeFailed as e:
                raise NonholonomicError(f"component {self.name}: {solver_message(e)}") from None
        else:
            if self._changed and self.inputs:
                self._set([self._refs[n] for n in self.inputs], [self._u[n] for n in self.inputs])
            try:
                self._slave.doStep(currentCommunicationPoint=t, communicationStepSize=h)
            except Exception as e:  # fmpy raises FMICallException on fmi3Error/fmi2Error
                raise NonholonomicError(f"component {self.name}: doStep from t = {t:g} s failed ({e})") from None
            self._t = t + h
        self._changed = False

    def get_outputs(self) -> dict:
        return self._call("_get_outputs") if self.outputs else {}

    def _get_outputs(self) -> dict:
        if self.interface == "cs":
            return dict(zip(self.outputs, self._get([self._refs[n] for n in self.outputs])))
        frame = self._instance.frame(np.array([self._t]), self._x.copy()[None, :], self._solver.memory[None, :],
                                     self.outputs, self._info, self._refs, self._held_inputs(self._t))
        return {n: float(frame[n].iloc[0]) for n in self.outputs}

    # ---- rollback (System.run's accept): the FMU's own state in co-simulation (fmi3GetFMUState), the integrator's
    # state and the event memory in model exchange (CVODE restarts from it, as after an event)
    def save(self):
        """A handle of the component's state now, for :meth:`restore` and :meth:`release`."""
        return self._call("_save"), dict(self._u)

    def restore(self, saved) -> None:
        key, u = saved
        self._u, self._changed = dict(u), True
        self._call("_restore", key, dict(u))

    def release(self, saved) -> None:
        self._call("_release", saved[0])

    def _save(self) -> int:
        if self.interface == "cs":
            if not self.md.coSimulation.canGetAndSetFMUstate:
                raise NonholonomicError(f"component {self.name}: {self.fmu.name} cannot save its state "
                                        "(canGetAndSetFMUState is false): no rollback")
            state = self._slave.getFMUState() if self.md.fmiVersion.startswith("3") else self._slave.getFMUstate()
        else:
            state = self._x.copy(), self._solver.memory.copy()
        key = next(self._keys)
        self._saved[key] = self._t, state
        return key

    def _restore(self, key: int, u: dict) -> None:
        self._t, state = self._saved[key]
        self._u, self._changed = u, True
        if self.interface == "cs":
            (self._slave.setFMUState if self.md.fmiVersion.startswith("3") else self._slave.setFMUstate)(state)
        else:
            self._x[:], self._solver.memory[:] = state
            self._solver.restart(self._t)

    def _release(self, key: int) -> None:
        _, state = self._saved.pop(key)
        if self.interface == "cs":
            (self._slave.freeFMUState if self.md.fmiVersion.startswith("3") else self._slave.freeFMUstate)(state)

    def _held_inputs(self, t: float):
        """The current inputs as a one-row table from ``t`` on (held: the table's rule beyond its ends)."""
        from .inputs import InputTable
        return InputTable(self.inputs, np.array([t]), np.array([[self._u[n] for n in self.inputs]]))

    def evaluate(self) -> None:  # an FMU's outputs follow from its state; nothing to do at a point
        pass


@dataclasses.dataclass
class System:
    """Components and connections ``("source.output", "target.input")``."""
    components: list
    connections: list[tuple[str, str]]

    def __post_init__(self):
        if isinstance(self.components, (str, bytes)) or not isinstance(self.components, Iterable):
            raise NonholonomicError(f"components must be a list of components, got {self.components!r}")
        self.components = list(self.components)
        for c in self.components:
            if not all(hasattr(c, a) for a in ("name", "inputs", "outputs", "initialise", "step", "get_outputs")):
                raise NonholonomicError(f"{c!r} is not a component (FmuComponent, FunctionComponent, OdeComponent)")
        self._by_name = {}
        for c in self.components:
            if c.name in self._by_name:
                raise NonholonomicError(f"two components are named {c.name}")
            self._by_name[c.name] = c
        self._links = []
        for connection in self.connections:
            if (isinstance(connection, str) or not isinstance(connection, (tuple, list)) or len(connection) != 2
                    or not all(isinstance(end, str) for end in connection)):
                raise NonholonomicError(f"connection {connection!r} is not a pair of names "
                                        "('source.output', 'target.input')")
            source, target = connection
            (a, y), (b, u) = self._split(source, "outputs"), self._split(target, "inputs")
            self._links.append((a, y, b, u))
        targets = [(b, u) for _, _, b, u in self._links]
        doubled = {f"{b}.{u}" for b, u in targets if targets.count((b, u)) > 1}
        if doubled:
            raise NonholonomicError(f"input connected twice: {', '.join(sorted(doubled))}")

    def _split(self, port: str, kind: str) -> tuple[str, str]:
        name, _, variable = port.partition(".")
        component = self._by_name.get(name)
        if component is None:
            raise NonholonomicError(f"connection {port!r}: no component {name!r} "
                                    f"(components: {', '.join(self._by_name)})")
        if variable not in getattr(component, kind):
            raise NonholonomicError(f"connection {port!r}: {name} has no {kind[:-1]} {variable!r} "
                                    f"(its {kind}: {', '.join(getattr(component, kind)) or 'none'})")
        return name, variable

    def _feed(self, target: str, outputs: dict) -> None:
        values = {u: outputs[a][y] for a, y, b, u in self._links if b == target}
        if values:
            self._by_name[target].set_inputs(values)

    def run(self, stop_time: float, step: float, algorithm: str = "gauss-seidel", tolerance: float = 1e-8,
            progress=None, accept=None, halvings: int = 10) -> dict[str, pd.DataFrame]:
        """From t = 0 to ``stop_time`` (a whole number of communication steps ``step``); ``tolerance``
        is the relative tolerance of the components' integrators.

        ``accept(t, h, before, after) -> bool`` (optional) judges each communication step from t to t + h by the
        components' outputs before and after it (dicts of dicts by component): where it says False, every
        component is rolled back to t (an FMU through its own state, fmi3SetFMUState) and the step is taken
        again as two halves, each judged again, up to ``halvings`` times; the results keep the points of
        ``step``. A limit on how far a coupling signal may move in one step is such a rule."""
        if algorithm not in ("jacobi", "gauss-seidel"):
            raise NonholonomicError(f"algorithm must be jacobi or gauss-seidel, got {algorithm!r}")
        if accept is not None and not callable(accept):
            raise NonholonomicError(f"accept must be a function (t, h, before, after) -> bool, got {accept!r}")
        if isinstance(halvings, bool) or not isinstance(halvings, int) or not 0 <= halvings <= 50:
            raise NonholonomicError(f"halvings must be a whole number from 0 to 50, got {halvings!r}")
        try:
            step, stop_time = float(step), float(stop_time)
        except (TypeError, ValueError):
            raise NonholonomicError(f"the step and the stop time must be numbers, got {step!r}, {stop_time!r}") from None
        if not (step > 0 and math.isfinite(step)) or not (stop_time > 0 and math.isfinite(stop_time)):
            raise NonholonomicError(f"the step and the stop time must be positive numbers, got {step}, {stop_time}")
        from .simulate import check_tolerance
        tolerance = check_tolerance(tolerance)
        n = max(1, round(stop_time / step))
        if abs(n * step - stop_time) > 1e-9 * stop_time:
            raise NonholonomicError(f"the stop time {stop_time:g} is not a whole number of steps {step:g}")
        rows = {c.name: [] for c in self.components}
        names = [c.name for c in self.components]

        def record(t):
            for c in self.components:
                rows[c.name].append({"time": t, **c.get_inputs(), **c.get_outputs()})

        def outputs_of(c, t) -> dict:  # every value a component passes on must be a finite number
            y = c.get_outputs()
            bad = [n for n, v in y.items() if not math.isfinite(v)]
            if bad:
                raise NonholonomicError(f"component {c.name}: output {bad[0]} = {y[bad[0]]} at t = {t:g} s")
            return y
        t = 0.0
        try:
            for c in self.components:
                c.initialise(stop_time, tolerance)
            # outputs at t0: FMUs from their initial state, functions in order from what is known so far
            outputs = {c.name: outputs_of(c, t) for c in self.components}
            for c in self.components:
                if isinstance(c, FunctionComponent):
                    self._feed(c.name, outputs)
                    c.evaluate()
                    outputs[c.name] = outputs_of(c, t)
            for name in names:
                self._feed(name, outputs)
            record(t)

            def communicate(t: float, h: float, outputs: dict) -> dict:
                """One step of every component from t to t + h; the outputs at t + h, fed to the inputs."""
                outputs = dict(outputs)
                if algorithm == "jacobi":
                    for c in self.components:
                        c.step(t, h)
                    outputs = {c.name: outputs_of(c, t + h) for c in self.components}
                else:
                    for c in self.components:
                        self._feed(c.name, outputs)
                        c.step(t, h)
                        outputs[c.name] = outputs_of(c, t + h)
                for name in names:  # the inputs of t + h, as recorded and used by the next step
                    self._feed(name, outputs)
                return outputs

            def judged(t: float, h: float, outputs: dict, halved: int) -> dict:
                """communicate(), rolled back and halved while accept() refuses it."""
                saved = [c.save() for c in self.components]
                try:
                    after = communicate(t, h, outputs)
                    if accept(t, h, outputs, after):
                        return after
                    if halved == halvings:
                        raise NonholonomicError(f"the step from t = {t:g} s was refused {halvings} times halved "
                                                f"(down to {h:g} s)")
                    for c, state in zip(self.components, saved):
                        c.restore(state)
                finally:
                    for c, state in zip(self.components, saved):
                        c.release(state)
                middle = judged(t, h / 2, outputs, halved + 1)
                return judged(t + h / 2, h / 2, middle, halved + 1)

            for k in range(n):
                t_next = (k + 1) * step
                outputs = communicate(t, t_next - t, outputs) if accept is None else \
                    judged(t, t_next - t, outputs, 0)
                t = t_next
                record(t)
                if progress:
                    progress(t, stop_time)
        except KeyboardInterrupt:
            raise Interrupted(f"co-simulation interrupted at t = {t:g} s", partial=self._frames(rows), time=t) from None
        except NonholonomicError as e:  # the rows up to the failure are kept
            raise SimulationFailed(f"co-simulation failed after t = {t:g} s: {e}", self._frames(rows)) from None
        except Exception as e:  # a component's own failure (an ODE's right-hand side, ...): its traceback chained
            raise SimulationFailed(f"co-simulation failed after t = {t:g} s: {type(e).__name__}: {e}",
                                   self._frames(rows)) from e
        finally:
            for c in self.components:
                c.free()
        return self._frames(rows)

    @staticmethod
    def _frames(rows: dict) -> dict[str, pd.DataFrame]:
        return {name: pd.DataFrame(r) for name, r in rows.items()}
