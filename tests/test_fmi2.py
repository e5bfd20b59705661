"""FMI 2.0 FMUs of the rumoca backend (issue 26, item 7): the FMI 3.0 FMU's code plus ``fmi2_model.c``, which
forwards every fmi2 function to its fmi3 counterpart, and a model description written from the same variables.

The two versions of a model are built here from the same Modelica source, so their binaries hold the same
compiled model and integrator. An importer that runs them alike (fmpy's model-exchange loops for FMI 2 and 3
make the same CVODE calls; co-simulation integrates inside the FMU; the project's own loop calls the same
entry points in both binaries) then performs the same floating-point operations: the results must be equal
bit for bit, not just to a tolerance. A tolerance, a start or stop time or a parameter that the adapter failed
to pass on would change them (the runs use a tolerance and parameters other than the defaults)."""

from __future__ import annotations

import ctypes
import pathlib
import subprocess
import zipfile

import fmpy
import numpy as np
import pandas as pd
import pytest
from fmpy.fmi1 import FMICallException
from fmpy.fmi2 import FMU2Model, FMU2Slave, fmi2CallbackFunctions, fmi2CallbackLoggerTYPE
from fmpy.validation import validate_fmu

from conftest import fmu_from_source
from nonholonomic.backends import resolve_backend
from nonholonomic.backends.fmu_export import CAPABILITIES
from nonholonomic.build import build
from nonholonomic.cosim import FmuComponent, System
from nonholonomic.errors import NonholonomicError
from nonholonomic.simulate import simulate
from test_cli import assert_one_line_error, run
from test_cosim import run as closed_loop
from test_events import SOURCE as EVENTS
from test_inputs import SOURCE as FORCED

PARAMETERS = {"dpsi_0": 1.5, "g": 9.0}  # a fixed parameter (the initial state) and a tunable one
TOLERANCE = 1e-8  # not the FMU's default (1e-10): a tolerance the adapter did not pass on would show
FMUSIM = pathlib.Path(__file__).parents[2] / "shared" / "fmusim" / "fmusim"


@pytest.fixture(scope="module")
def disk(tmp_path_factory) -> dict[int, pathlib.Path]:
    """RollingDisk as FMI 2.0 (through the CLI) and FMI 3.0 (through the Python API)."""
    root = tmp_path_factory.mktemp("fmi2")
    result = run("build", "RollingDisk", "--backend", "rumoca", "--fmi-version", "2", "--jobs", "1",
                 "--out", str(root / "v2"))
    assert result.returncode == 0, result.stderr
    [v3] = build("RollingDisk", backend="rumoca", out_dir=root / "v3", jobs=1, fmi_version=3)
    return {2: root / "v2" / "RollingDisk.fmu", 3: v3}


@pytest.fixture(scope="module")
def events(tmp_path_factory) -> dict[tuple[str, int], pathlib.Path]:
    """Two models of test_events in both versions: state events with reinit, and a time event with terminate()."""
    root = tmp_path_factory.mktemp("fmi2-events")
    return {(name, v): fmu_from_source(root / f"{name}{v}", EVENTS, f"Events.{name}", fmi_version=v)
            for name in ("BouncingBall", "Logic") for v in (2, 3)}


def frame(result) -> np.ndarray:
    return np.array(result.tolist())


def test_the_fmi2_fmu_validates_and_describes_the_same_variables(disk):
    assert validate_fmu(str(disk[2])) == [] and validate_fmu(str(disk[3])) == []
    md2, md3 = (fmpy.read_model_description(str(disk[v])) for v in (2, 3))
    assert (md2.fmiVersion, md3.fmiVersion) == ("2.0", "3.0")
    with zipfile.ZipFile(disk[2]) as z:
        assert "binaries/linux64/RollingDisk.so" in z.namelist()
        assert "sources/fmi2_model.c" in z.namelist() and "sources/fmi3Functions.h" in z.namelist()
    describe = lambda v: (v.name, v.valueReference, v.causality, v.variability, v.initial, v.start, v.unit,  # noqa
                          v.min, v.max, v.derivative.name if v.derivative else None)
    assert [describe(v) for v in md2.modelVariables] == [describe(v) for v in md3.modelVariables]
    assert "r_0[1]" in [v.name for v in md2.modelVariables]  # arrays are scalar variables in both versions
    assert md2.numberOfContinuousStates == md3.numberOfContinuousStates == 13
    assert [u.variable.name for u in md2.outputs] == [u.variable.name for u in md3.outputs]
    assert [u.variable.name for u in md2.derivatives] == [u.variable.name for u in md3.derivatives]
    assert [u.variable.name for u in md2.initialUnknowns] == [u.variable.name for u in md3.initialUnknowns]
    assert float(md2.defaultExperiment.tolerance) == float(md3.defaultExperiment.tolerance) == 1e-10
    for interface in (md2.modelExchange, md2.coSimulation, md3.modelExchange, md3.coSimulation):
        assert interface.canGetAndSetFMUstate == CAPABILITIES["canGetAndSetFMUState"]
        assert interface.canSerializeFMUstate == CAPABILITIES["canSerializeFMUState"]
    assert md2.modelExchange.providesDirectionalDerivative == CAPABILITIES["providesDirectionalDerivatives"]


@pytest.mark.parametrize("interface", ["ModelExchange", "CoSimulation"])
def test_fmpy_runs_both_versions_alike(disk, interface):
    """fmpy's CVODE (model exchange) and the FMU's CVODE (co-simulation): equal results, bit for bit."""
    runs = {v: frame(fmpy.simulate_fmu(str(disk[v]), fmi_type=interface, stop_time=0.5, output_interval=0.05,
                                       relative_tolerance=TOLERANCE, start_values=PARAMETERS, solver="CVode"))
            for v in (2, 3)}
    assert runs[2].shape == (11, 21) and np.array_equal(runs[2], runs[3])
    default = frame(fmpy.simulate_fmu(str(disk[2]), fmi_type=interface, stop_time=0.5, output_interval=0.05,
                                      relative_tolerance=TOLERANCE, solver="CVode"))
    assert np.max(np.abs(default - runs[2])) > 1e-2  # the parameters were set: they change the run


@pytest.mark.slow
@pytest.mark.parametrize("version", [2, 3])
def test_both_versions_compile_from_their_sources_as_described(disk, version, tmp_path):
    """An importer that builds the FMU from sources/ (fmpy's compile_platform_binary, a tool on another platform)
    compiles the files the model description (FMI 2.0) or sources/buildDescription.xml (FMI 3.0) lists, SUNDIALS'
    included, with sources/ as the only include folder (FMI 2.0 names no other) besides the standard's headers.
    Compiled with the flags of the shipped binary (ours -O2, SUNDIALS' its own), the rebuilt FMU performs the same
    floating-point operations: fmpy's co-simulation through it equals the shipped one's bit for bit."""
    from nonholonomic.backends import sundials
    from nonholonomic.backends.fmu_export import binary_member, fmi_headers
    folder = tmp_path / "extracted"
    zipfile.ZipFile(disk[version]).extractall(folder)
    md = fmpy.read_model_description(str(disk[version]))
    [files] = [s.sourceFiles for c in md.buildConfigurations for s in c.sourceFileSets]
    assert "fmi3_model.c" in files and "sundials/src/cvodes/cvodes.c" in files
    binary = folder / binary_member(md.fmiVersion, "RollingDisk")
    binary.unlink()
    objects = []
    for k, name in enumerate(files):
        flags = sundials.FLAGS if name.startswith("sundials/") else ("-fPIC", "-O2")
        objects.append(str(tmp_path / f"{k}.o"))
        subprocess.run(["gcc", "-c", *flags, "-I", str(fmi_headers()), "-I", str(folder / "sources"), "-o",
                        objects[-1], str(folder / "sources" / name)], check=True, capture_output=True)
    subprocess.run(["gcc", "-shared", "-o", str(binary), *objects, "-lm"], check=True, capture_output=True)
    settings = dict(fmi_type="CoSimulation", stop_time=1.0, output_interval=0.05)
    rebuilt = fmpy.simulate_fmu(str(folder), **settings)
    shipped = fmpy.simulate_fmu(str(disk[version]), **settings)
    assert len(rebuilt) == 21 and np.array_equal(frame(rebuilt), frame(shipped))


def test_the_project_runs_both_versions_alike(disk):
    """simulate (the project's CVODE loop, which calls the fmi3 functions of either binary) and the co-simulation
    master with both interfaces."""
    own = [simulate(disk[v], PARAMETERS, stop_time=0.5, tolerance=TOLERANCE) for v in (2, 3)]
    assert len(own[0]) == 51
    pd.testing.assert_frame_equal(own[0], own[1], check_exact=True)
    for interface in ("me", "cs"):
        frames, steps = [], []
        for v in (2, 3):
            component = FmuComponent("disk", disk[v], PARAMETERS, interface=interface)
            frames.append(System([component], []).run(stop_time=0.3, step=0.05, tolerance=TOLERANCE)["disk"])
            steps.append(component.steps)
        pd.testing.assert_frame_equal(frames[0], frames[1], check_exact=True)
        assert steps[0] == steps[1] > 10  # nonholonomic_cs_steps takes the fmi2Component as well


@pytest.mark.parametrize("interface", ["ModelExchange", "CoSimulation"])
def test_events_and_terminate_alike(events, interface):
    """Events through FMI 2 (fmi2NewDiscreteStates, event indicators; inside fmi2DoStep) and terminate(): fmi2DoStep
    returns fmi2Discard with fmi2Terminated and the time reached, where fmpy stops its FMI 2 run."""
    ball = {v: frame(fmpy.simulate_fmu(str(events["BouncingBall", v]), fmi_type=interface, stop_time=2.0,
                                       output_interval=0.01, relative_tolerance=TOLERANCE,
                                       output=["height", "velocity", "impacts"])) for v in (2, 3)}
    assert len(ball[2]) >= 201 and np.array_equal(ball[2], ball[3])
    assert ball[2][-1, 3] == 3  # impacts (time, height, velocity, impacts), at 0.45, 1.17, 1.75 s
    logic = {v: fmpy.simulate_fmu(str(events["Logic", v]), fmi_type=interface, stop_time=3.0, output_interval=0.01,
                                  relative_tolerance=TOLERANCE) for v in (2, 3)}
    assert logic[2]["time"][-1] == pytest.approx(1.5, abs=1e-9)  # terminate() at t = 1.5
    assert logic[2]["position"][-1] == pytest.approx(2.75, abs=1e-8)  # x = 2 t - 1/4 after t = 1/4
    same = min(len(logic[2]), len(logic[3])) - 1  # the versions' loops may record the termination differently
    assert same > 140 and np.array_equal(frame(logic[2][:same]), frame(logic[3][:same]))


def test_inputs_alike(tmp_path):
    """An FMU input (fmi2SetReal between steps; in model exchange the binary's input table) driven by a Python
    controller in the co-simulation master: the oscillator of test_inputs in both versions and interfaces."""
    fmus = {v: fmu_from_source(tmp_path / f"v{v}", FORCED, "Forced.Oscillator", fmi_version=v) for v in (2, 3)}
    for interface in ("me", "cs"):
        runs = [closed_loop(fmus[v], interface, "gauss-seidel", 0.01, stop=0.5)["plant"] for v in (2, 3)]
        assert len(runs[0]) == 51 and runs[0]["F"].abs().max() > 1  # the controller drives the plant
        pd.testing.assert_frame_equal(runs[0], runs[1], check_exact=True)


def test_fmu_state_functions_follow_the_declared_capability(disk, tmp_path):
    """fmi2GetFMUstate and fmi2SetFMUstate forward to the fmi3 ones: they work exactly where the model description
    (CAPABILITIES, one setting for both versions) says so."""
    slave = FMU2Slave(guid=fmpy.read_model_description(str(disk[2])).guid,
                      unzipDirectory=fmpy.extract(str(disk[2]), str(tmp_path)), modelIdentifier="RollingDisk",
                      instanceName="state")
    slave.instantiate()
    try:
        slave.setupExperiment(tolerance=TOLERANCE)
        slave.enterInitializationMode()
        slave.exitInitializationMode()
        slave.doStep(0.0, 0.1)
        if not CAPABILITIES["canGetAndSetFMUState"]:
            with pytest.raises(FMICallException):
                slave.getFMUstate()
            return
        every = [v.valueReference for v in fmpy.read_model_description(str(disk[2])).modelVariables]
        state, before = slave.getFMUstate(), slave.getReal(every)
        slave.doStep(0.1, 0.1)
        slave.setFMUstate(state)
        assert slave.getReal(every) == before
        slave.freeFMUstate(state)
    finally:
        slave.terminate()
        slave.freeInstance()


def test_adapter_logs_name_the_fmi2_function(disk, tmp_path):
    """Errors reach the FMI 2 logger (with its instance name, '%' escaped for its printf format) naming the fmi2
    function called; the typed getters of types the FMU has none of accept empty calls only."""
    messages = []
    callbacks = fmi2CallbackFunctions()
    callbacks.logger = fmi2CallbackLoggerTYPE(lambda env, name, status, category, message:
                                              messages.append((name, status, category, message)))
    md = fmpy.read_model_description(str(disk[2]))
    folder = fmpy.extract(str(disk[2]), str(tmp_path))
    model = FMU2Model(guid=md.guid, unzipDirectory=folder, modelIdentifier="RollingDisk", instanceName="disk%1")
    model.instantiate(callbacks=callbacks)
    try:
        model.setupExperiment(startTime=0.0)
        model.enterInitializationMode()
        model.exitInitializationMode()
        assert (model.getInteger([]), model.getBoolean([]), model.getString([])) == ([], [], [])
        for call in (lambda: model.getReal([999]), lambda: model.getInteger([1]), lambda: model.setupExperiment()):
            with pytest.raises(FMICallException):
                call()
        assert messages == [(b"disk%1", 3, b"logStatusError", m) for m in (
            b"disk%%1: fmi2GetReal: value reference 999 does not exist (the FMU has " + b"%d)" % len(md.modelVariables),
            b"disk%%1: fmi2GetInteger: no variable of type Int32 (all are Float64)",
            b"disk%%1: fmi2SetupExperiment: not allowed after fmi2EnterInitializationMode")]
        x = (ctypes.c_double * 13)()
        model.enterContinuousTimeMode()
        model.getContinuousStates(x, 13)
        assert list(x) == model.getReal([d.variable.derivative.valueReference for d in md.derivatives])
    finally:
        model.terminate()
        model.freeInstance()
    wrong = FMU2Model(guid="{0}", unzipDirectory=folder, modelIdentifier="RollingDisk", instanceName="other")
    with pytest.raises(Exception, match="instantiate"):
        wrong.instantiate(callbacks=callbacks)
    assert b"fmi2Instantiate: instantiationToken {0} does not match" in messages[-1][3]


def test_fmi_version_is_2_or_3(tmp_path):
    assert_one_line_error(run("build", "RollingDisk", "--fmi-version", "4", "--out", str(tmp_path)),
                          "--fmi-version", "invalid choice: 4")
    assert_one_line_error(run("build", "NoSuchModel", "--fmi-version", "3"), "unknown model 'NoSuchModel'")
    for wrong in (4, "2", True):
        with pytest.raises(NonholonomicError, match="fmi_version must be 2 or 3"):
            build("RollingDisk", backend="rumoca", out_dir=tmp_path, fmi_version=wrong)
    with pytest.raises(NonholonomicError, match="openmodelica backend writes FMI 2.0 FMUs only"):
        resolve_backend("openmodelica", 3)
    assert resolve_backend("rumoca") == ("rumoca", 3) and resolve_backend("openmodelica") == ("openmodelica", 2)
    assert resolve_backend("auto", 3) == ("rumoca", 3)  # OpenModelica (if installed) writes FMI 2.0 only
    assert not list(tmp_path.iterdir())  # refused before any work


def _fmusim(fmu: pathlib.Path, interface: str, out: pathlib.Path) -> pd.DataFrame:
    result = subprocess.run([str(FMUSIM), "--interface-type", interface, "--solver", "cvode", "--stop-time", "0.5",
                             "--output-interval", "0.05", "--tolerance", str(TOLERANCE), "--start-value", "dpsi_0",
                             "1.5", "--output-file", str(out), str(fmu)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0 and result.stdout + result.stderr == "", result.stdout + result.stderr
    return pd.read_csv(out)


@pytest.mark.parametrize("interface", ["me", "cs"])
def test_the_reference_importer_runs_the_fmi2_fmu(disk, interface, tmp_path):
    """The Modelica Association's fmusim (v0.0.39, FMI 2 and 3; it checks the model description against the FMI
    schema): no complaint, and both versions' results alike."""
    probe = subprocess.run([str(FMUSIM), "--version"], capture_output=True, text=True) if FMUSIM.is_file() else None
    if probe is None or probe.returncode != 0:
        pytest.skip(f"fmusim cannot run here ({probe.stderr.strip() if probe else 'not found'}; its README says "
                    "which libraries it needs)")
    runs = [_fmusim(disk[v], interface, tmp_path / f"v{v}.csv") for v in (2, 3)]
    assert len(runs[0]) == 11 and runs[0]["time"].iloc[-1] == 0.5
    pd.testing.assert_frame_equal(runs[0], runs[1], check_exact=True)
    fmpy_run = fmpy.simulate_fmu(str(disk[2]), fmi_type={"me": "ModelExchange", "cs": "CoSimulation"}[interface],
                                 stop_time=0.5, output_interval=0.05, relative_tolerance=TOLERANCE,
                                 start_values={"dpsi_0": 1.5})
    # fmpy's run: the same FMU calls in the co-simulation, CVODE set alike in model exchange (fmusim's README:
    # 5e-16 on the project's FMUs); fmusim writes 16 significant digits, half a unit of the last is at most 5e-16
    # of the value
    assert np.allclose(runs[0].to_numpy(), frame(fmpy_run), rtol=1e-15, atol=0)
