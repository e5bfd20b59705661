"""The FMU guards itself in any importer (values outside their declared range, NaN and infinities are
fmi3Error with a message naming the variable), and saves and restores its whole state (fmi3GetFMUState,
fmi3SetFMUState, serialisation): a restored run repeats the original bit for bit (issue 26)."""

from __future__ import annotations

import ctypes
import math

import numpy as np
import pytest
from fmpy import extract, read_model_description
from fmpy.fmi1 import FMICallException
from fmpy.fmi3 import FMU3Model, FMU3Slave

from conftest import fmu_from_source

SOURCE = """package Guard
  model M
    parameter Real a(unit = "1/s", min = 0, max = 10) = 2 "Decay rate";
    input Real u(min = -1, max = 1, start = 0) "Drive";
    output Real y = 1/(x - 1) "Infinite at x = 1";
    Real x(start = 2, fixed = true);
  equation
    der(x) = -a*x + u + 1/(x - 1);
  end M;
  model Ends "x = 2/3 (1 - (1 - t)^(3/2)), not defined after t = 1"
    Real x(start = 0, fixed = true);
  equation
    der(x) = sqrt(1 - time);
  end Ends;
end Guard;
"""


class Log:
    """An fmpy log callback that keeps the messages (without the instance's name before them)."""

    def __init__(self):
        self.messages = []
        self.callback = self.keep

    def keep(self, environment, status, category, message):
        self.messages.append(message.decode().split(": ", 1)[1])


@pytest.fixture(scope="module")
def guard_fmu(tmp_path_factory):
    return fmu_from_source(tmp_path_factory.mktemp("guard"), SOURCE, "Guard.M")


def _open(fmu, tmp, kind=FMU3Model, name="guard"):
    md = read_model_description(str(fmu))
    interface = md.modelExchange if kind is FMU3Model else md.coSimulation
    instance = kind(guid=md.guid, unzipDirectory=extract(str(fmu), str(tmp)),
                    modelIdentifier=interface.modelIdentifier, instanceName=name)
    log = Log()
    instance.instantiate(loggingOn=True, logMessage=log.callback)
    return instance, {v.name: v.valueReference for v in md.modelVariables}, log


def test_values_outside_their_declared_range_are_refused_with_the_range(guard_fmu, tmp_path):
    fmu, vr, log = _open(guard_fmu, tmp_path)
    try:
        for name, value, message in (
                ("a", -1.0, "fmi3SetFloat64: parameter a = -1 is below its minimum 0"),
                ("a", 11.0, "fmi3SetFloat64: parameter a = 11 is above its maximum 10"),
                ("a", math.nan, "fmi3SetFloat64: value nan of a is not finite"),
                ("a", math.inf, "fmi3SetFloat64: value inf of a is not finite"),
                ("u", 2.0, "fmi3SetFloat64: input u = 2 is above its maximum 1")):
            with pytest.raises(FMICallException):
                fmu.setFloat64([vr[name]], [value])
            assert log.messages[-1] == message
        fmu.setFloat64([vr["a"], vr["u"]], [0.0, 1.0])  # the ends of the ranges are in them
        with pytest.raises(FMICallException):  # all or nothing: a valid value beside a refused one is not set
            fmu.setFloat64([vr["a"], vr["u"]], [3.0, -5.0])
        assert fmu.getFloat64([vr["a"], vr["u"]]) == [0.0, 1.0]
    finally:
        fmu.freeInstance()


def test_non_finite_derivatives_and_outputs_are_errors_naming_the_variable(guard_fmu, tmp_path):
    fmu, vr, log = _open(guard_fmu, tmp_path)
    try:
        fmu.enterInitializationMode()
        fmu.exitInitializationMode()
        fmu.enterContinuousTimeMode()
        derivatives = (ctypes.c_double * 1)()
        fmu.getContinuousStateDerivatives(derivatives, 1)
        assert derivatives[0] == -2 * 2 + 0 + 1 / (2 - 1)  # finite away from the pole: exact small integers
        fmu.setContinuousStates((ctypes.c_double * 1)(1.0), 1)
        with pytest.raises(FMICallException):
            fmu.getContinuousStateDerivatives(derivatives, 1)
        assert log.messages[-1].startswith("fmi3GetContinuousStateDerivatives: der(x) = inf at t = 0")
        with pytest.raises(FMICallException):
            fmu.getFloat64([vr["y"]])
        assert log.messages[-1].startswith("fmi3GetFloat64: der(x) = inf at t = 0")  # the first non-finite value
    finally:
        fmu.freeInstance()


def _run(slave, t, h, n, refs):
    rows = []
    for _ in range(n):
        slave.doStep(t, h)
        t += h
        rows.append(slave.getFloat64(refs))
    return np.array(rows), t


@pytest.mark.parametrize("model", ["TippeTop", "OmniVehicleImpactStraight"])
def test_a_restored_state_repeats_the_trajectory_bit_for_bit(model, rumoca_fmus, tmp_path):
    """Co-simulation through the FMU's CVODE (which starts afresh where a state is taken and where it is set), the
    tippe-top's stiff contact and the vehicle's impacts (events inside the steps): from a saved state, from the same
    state set after other steps, and from its serialisation deserialised into a second instance of the FMU."""
    md = read_model_description(str(rumoca_fmus[model]))
    assert md.coSimulation.canGetAndSetFMUstate and md.coSimulation.canSerializeFMUstate
    assert md.modelExchange.canGetAndSetFMUstate and md.modelExchange.canSerializeFMUstate
    first, vr, _ = _open(rumoca_fmus[model], tmp_path / "a", FMU3Slave, "first")
    second, _, _ = _open(rumoca_fmus[model], tmp_path / "b", FMU3Slave, "second")
    refs = [v.valueReference for v in md.modelVariables if v.causality == "output"]
    stop = float(md.defaultExperiment.stopTime)  # fmpy reads the attributes as strings
    h = stop / 200
    try:
        for fmu in (first, second):
            fmu.enterInitializationMode(tolerance=float(md.defaultExperiment.tolerance), startTime=0.0, stopTime=stop)
            fmu.exitInitializationMode()
        _, t = _run(first, 0.0, h, 20, refs)
        state = first.getFMUState()
        serialized = first.serializeFMUState(state)
        original, _ = _run(first, t, h, 60, refs)
        first.setFMUState(state)
        again, _ = _run(first, t, h, 60, refs)
        copy = second.deserializeFMUState(serialized)
        second.setFMUState(copy)
        elsewhere, _ = _run(second, t, h, 60, refs)
        assert np.array_equal(original, again) and np.array_equal(original, elsewhere)
        assert np.ptp(original, axis=0).max() > 0  # it moved
        first.freeFMUState(state)
        second.freeFMUState(copy)
    finally:
        for fmu in (first, second):
            fmu.terminate()
            fmu.freeInstance()


def test_a_state_of_another_model_or_foreign_bytes_are_refused(rumoca_fmus, tmp_path):
    disk, _, disk_log = _open(rumoca_fmus["RollingDisk"], tmp_path / "disk", FMU3Slave, "disk")
    top, _, _ = _open(rumoca_fmus["TippeTop"], tmp_path / "top", FMU3Slave, "top")
    try:
        state = top.getFMUState()
        serialized = top.serializeFMUState(state)
        top.freeFMUState(state)
        size = ctypes.c_size_t()
        disk.fmi3SerializedFMUStateSize(disk.component, disk.getFMUState(), ctypes.byref(size))
        with pytest.raises(FMICallException):
            disk.deserializeFMUState(serialized)
        if len(serialized) == size.value:  # the same layout: the model's token tells them apart
            assert "another model" in disk_log.messages[-1]
        else:
            assert disk_log.messages[-1].endswith("bytes are not a state serialized by this FMU's binary")
        with pytest.raises(FMICallException):
            disk.deserializeFMUState(bytes(size.value))
        assert disk_log.messages[-1] == (f"fmi3DeserializeFMUState: the {size.value} bytes are not a state "
                                         "serialized by this FMU's binary")
    finally:
        disk.freeInstance()
        top.freeInstance()


def test_a_failed_co_simulation_step_says_when_and_where(tmp_path):
    """der(x) = sqrt(1 - t) is not defined after t = 1 (NaN there, which CVODE takes as a failed evaluation and
    retries with ever smaller steps): the step from t = 1 fails, in one line with CVODE's reason, the time and the
    state, which are the FMU's time and state afterwards, x = 2/3 (1 - (1 - t)^(3/2)) at t = 1. That value to
    1e-5: the singular second derivative at t = 1 spoils the error estimates of the last steps before it."""
    import re
    fmu = fmu_from_source(tmp_path, SOURCE, "Guard.Ends")
    slave, vr, log = _open(fmu, tmp_path / "ends", FMU3Slave, "ends")
    try:
        slave.enterInitializationMode(tolerance=1e-8, startTime=0.0)
        slave.exitInitializationMode()
        for k in range(4):
            slave.doStep(k * 0.25, 0.25)
        with pytest.raises(FMICallException):
            slave.doStep(1.0, 0.25)
        assert len(log.messages) == 1 and "\n" not in log.messages[0], log.messages
        found = re.fullmatch(r"fmi3DoStep: integration from t = 1 to 1\.25 failed at t = (\S+) \((CV_\w+)\); "
                             r"state: x = (\S+)", log.messages[0])
        assert found, log.messages[0]
        t, x = float(found.group(1)), float(found.group(3))
        assert slave.getFloat64([0, vr["x"]]) == [t, x]
        assert t == 1.0 and x == pytest.approx(2 / 3, abs=1e-5)
    finally:
        slave.freeInstance()
