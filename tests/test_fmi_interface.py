"""The FMI 3.0 interface of the rumoca backend's FMUs (issue 10, item 5): variables as the Modelica model
declares them, calls that follow the standard (also with empty arrays), fmpy's validation, and the same
trajectories from every importer: the project's loop (ME), fmpy's CVODE (ME), fmpy's Euler (ME, to its
order) and the FMU's own co-simulation (CVODE inside fmi3DoStep, through fmpy)."""

from __future__ import annotations

import pathlib
import subprocess

import numpy as np
import pandas as pd
import pytest
from fmpy import extract, read_model_description
from fmpy.fmi1 import FMICallException
from fmpy.fmi3 import FMU3Model

from nonholonomic.cases import SYSTEMS
from nonholonomic.fmu import model_description
from nonholonomic.models import ROOT, list_models
from nonholonomic.simulate import simulate

from conftest import fmu_from_source, on_grid

# Every kind of declaration; the expected interface below is read off this text (MLS: final and bound
# parameters are not free, protected elements are not part of the interface, outputs of components are
# not outputs of the model)
SOURCE = """package Interface
  model Part
    parameter Real k = 1 "Gain";
    parameter Real s(unit = "m") = 2 "Size";
    output Real o = s;
  protected
    parameter Real h = 5;
  end Part;
  model M
    parameter Real a(unit = "1/s", min = 0) = 2 "Decay rate";
    final parameter Real b = 3 "Final";
    parameter Real c = 2*a "Bound to a";
    parameter Real x0(unit = "m") = 1 "Initial position";
    parameter Real g[3] = {0, 0, -a} "Partly bound array";
    Part p1(final k = 4);
    input Real u(unit = "m/s", start = 0.5) "Drive";
    output Real y(unit = "m") = x "Position";
    Real x(start = x0, fixed = true, unit = "m");
  protected
    Part p2;
    parameter Real d = 7;
    output Real hidden = 2*x;
  equation
    der(x) = -a*x + b + c + p1.k + p1.s + p2.k + d + g[3] + u;
  end M;
end Interface;
"""
EXPECTED = {  # name: (causality, variability)
    "time": ("independent", "continuous"),
    "a": ("parameter", "tunable"), "x0": ("parameter", "fixed"), "p1.s": ("parameter", "tunable"),
    "b": ("calculatedParameter", "fixed"), "c": ("calculatedParameter", "tunable"),
    "p1.k": ("calculatedParameter", "fixed"),
    "g[1]": ("calculatedParameter", "fixed"), "g[2]": ("calculatedParameter", "fixed"),  # constants
    "g[3]": ("calculatedParameter", "tunable"),  # follows a
    "x": ("local", "continuous"), "der(x)": ("local", "continuous"),
    "u": ("input", "continuous"), "y": ("output", "continuous"), "hidden": ("local", "continuous"),
}


@pytest.fixture(scope="module")
def interface_fmu(tmp_path_factory):
    return fmu_from_source(tmp_path_factory.mktemp("interface"), SOURCE, "Interface.M")


def test_variables_follow_the_modelica_declarations(interface_fmu):
    variables = {v.name: (v.causality, v.variability) for v in model_description(interface_fmu).modelVariables}
    assert variables == EXPECTED


@pytest.mark.slow
def test_fmpy_validates_every_example(rumoca_fmus, interface_fmu):
    from fmpy.validation import validate_fmu
    for fmu in [interface_fmu, *rumoca_fmus.values()]:
        assert validate_fmu(str(fmu)) == [], fmu.name


def test_calls_follow_the_standard(interface_fmu, tmp_path):
    """Settable only what the declaration allows and when; calculated parameters follow the settable ones;
    the state starts from the parameters; every array call with n = 0 is fine."""
    md = read_model_description(str(interface_fmu))
    vr = {v.name: v.valueReference for v in md.modelVariables}
    fmu = FMU3Model(guid=md.guid, unzipDirectory=extract(str(interface_fmu), str(tmp_path)),
                    modelIdentifier=md.modelExchange.modelIdentifier, instanceName="calls")
    fmu.instantiate()
    try:
        fmu.setFloat64([vr["x0"], vr["a"]], [0.25, 1.5])
        fmu.enterInitializationMode()
        fmu.exitInitializationMode()
        assert fmu.getFloat64([vr["x"], vr["c"], vr["g[3]"], vr["b"]]) == [0.25, 3.0, -1.5, 3.0]
        with pytest.raises(FMICallException):  # fixed: only before initialisation ends
            fmu.setFloat64([vr["x0"]], [1.0])
        for name in ("c", "b", "y", "der(x)", "time"):
            with pytest.raises(FMICallException):
                fmu.setFloat64([vr[name]], [1.0])
        fmu.setFloat64([vr["a"]], [2.5])  # tunable, in event mode: the calculated ones follow
        assert fmu.getFloat64([vr["c"], vr["g[3]"]]) == [5.0, -2.5]
        fmu.enterContinuousTimeMode()
        import ctypes
        fmu.getEventIndicators((ctypes.c_double * 1)(), 0)  # fmpy raises FMICallException unless fmi3OK
        assert fmu.getFloat64([]) == []
        fmu.setFloat64([vr["u"]], [1.0])
        # der(x) = -a x + b + c + p1.k + p1.s + p2.k + d + g[3] + u, every term one rounding of exact data
        expected = -2.5 * 0.25 + 3 + 5 + 4 + 2 + 1 + 7 - 2.5 + 1.0
        assert fmu.getFloat64([vr["der(x)"]]) == pytest.approx([expected], rel=1e-15)
        with pytest.raises(FMICallException):
            fmu.getFloat64([10**6])  # no such value reference
    finally:
        fmu.terminate()
        fmu.freeInstance()




# stiff models: a Hertz contact vibrates at ~1e4 rad/s (the tippe-top) and faster (a bearing's 2 g ball between
# its rings, ~1e5 rad/s; the gears' mesh, 6e4 rad/s), a 10 g wheel on its 1e5 N/m axle joint at 3e3 rad/s with
# damping ratio 0.16 (the snakeboard): explicit Euler at 1e-4 s amplifies it (|1 + h lambda| > 1)
MACHINES = ("BallBearing", "SpurGearPair", "EulerDisk")  # Euler's disk: steel on glass, its friction regularised at
# 1e-5 m/s (the friction force's slope mu N/eps on the 0.45 kg disk: a time constant of 3 us)
STIFF = ("TippeTop", "Snakeboard", *MACHINES)


def _our_run(model: str, fmu):
    """The project's loop on the settings of the importers' comparison: (stop, interval, rtol, its run on the output
    grid, the compared names, the bound of an importer's difference to it; see test_importers_agree)."""
    vehicle = model in SYSTEMS["omni_vehicle"].examples + SYSTEMS["omni_impact"].examples
    # the machine elements take thousands of steps per 0.02 s (the mesh's and the balls' vibration at 1e4 to 1e5
    # rad/s): fmpy's CVODE stops at 500 steps per output interval, so their runs are short
    stop, rtol = (0.1, 1e-6) if vehicle else (0.01, 1e-8) if model in MACHINES else (1.0, 1e-8)
    # the tippe-top's contact takes about 70000 steps per second at rtol 1e-8 (absolute tolerances of 1e-11 m on its
    # positions, their nominal 1 mm): more output points keep fmpy's CVODE under its 500 steps per output interval
    interval = stop / (500 if model == "TippeTop" else 50)
    units = {v.name: v.unit or getattr(v.declaredType, "unit", None) for v in model_description(fmu).modelVariables}
    # compared at the output times: the project's loop and fmpy's model exchange also record the left and right
    # limits of each event (the omni vehicles' roller changes), the co-simulation only the communication points
    ours = on_grid(simulate(fmu, stop_time=stop, output_interval=interval, tolerance=rtol), interval)
    names = [c for c in ours.columns if c != "time" and units.get(c) not in ("N", "N.m", "W")]
    scale = 1.0 + np.max(np.abs(ours[names].to_numpy()))
    return stop, interval, rtol, ours, names, ours.attrs["solver"]["steps"] * rtol * scale


def test_the_co_simulation_takes_the_steps_of_our_loop(rumoca_fmus):
    """fmpy.simulate_fmu at its defaults runs the FMU's co-simulation: CVODE compiled into the FMU, set as the
    project's loop sets it and keeping its history across the communication points, so on the rolling disk (no
    events; the loop's bound on the step, a fiftieth of the run, far above its steps) it takes the loop's steps,
    rhs evaluations and Jacobians one for one (the binary's nonholonomic_cs_statistics). The outputs then differ
    by round-off only: the two compute them with different generated functions (nh_model, nh_outputs), and a
    step's rounding is carried on like a local error, at most ten ulps of the largest output per step."""
    from nonholonomic.importers import cosimulation
    fmu = rumoca_fmus["RollingDisk"]
    cs, counts = cosimulation(fmu, {}, None)
    ours = simulate(fmu)
    solver = ours.attrs["solver"]
    assert (counts["steps"], counts["rhs evaluations"], counts["Jacobians"]) == (
        solver["steps"], solver["rhs_evaluations"], solver["jacobians"])
    names = [n for n in cs.columns if n != "time" and n in ours.columns]
    assert len(cs) == len(ours) and len(names) == len(ours.columns) - 1
    scale = 1.0 + np.max(np.abs(ours[names].to_numpy()))
    bound = 10 * solver["steps"] * np.finfo(float).eps * scale
    assert np.max(np.abs(cs[names].to_numpy() - ours[names].to_numpy())) <= bound


def test_the_binary_exports_no_sundials_symbols(rumoca_fmus, tmp_path):
    """SUNDIALS is linked into the FMU with its symbols hidden, so that an importer with its own SUNDIALS loaded
    (fmpy, fmusim) never meets them: the binary defines the fmi3 functions and the project's nonholonomic_*
    entries only, needs nothing but libc and libm, and carries SUNDIALS' BSD licence."""
    import zipfile
    fmu = rumoca_fmus["RollingDisk"]
    binary = pathlib.Path(extract(str(fmu), str(tmp_path))) / "binaries" / "x86_64-linux" / "RollingDisk.so"
    nm = lambda *flags: subprocess.run(["nm", "-D", *flags, str(binary)], capture_output=True, text=True,
                                       check=True).stdout.split("\n")
    defined = [line.split()[-1] for line in nm("--defined-only") if line.strip()]
    assert defined and all(n.startswith(("fmi3", "nonholonomic_")) for n in defined), defined
    needed = [line.split()[-1] for line in nm("--undefined-only") if line.strip() and " U " in line]
    assert not [n for n in needed if "@" not in n], needed  # every one from a versioned system library
    with zipfile.ZipFile(fmu) as z:
        assert "BSD 3-Clause License" in z.read("documentation/licenses/SUNDIALS-LICENSE.txt").decode()


@pytest.mark.parametrize("model", [m.name for m in list_models()])
def test_importers_agree(model, rumoca_fmus):
    """One FMU, four importers. Against the project's loop at rtol (its step count N): fmpy's CVODE (the
    same method and tolerances: its error and the loop's are each at most N tolerance units, the sum of
    the local errors), and the FMU's own co-simulation through fmpy (the same CVODE, compiled into the FMU, at
    the same rtol, its history kept across communication points: again at most N units).
    A tolerance unit is rtol times the largest signal: the error test bounds a weighted norm of the whole
    error vector, so a small component coupled to large ones (the wheelset axle's lateral spin, 1e-10
    rad/s, next to wheel spins of 20 rad/s) carries errors of the large ones' tolerance. Reactions and powers
    (outputs in N, N.m, W) are left out: a compliant joint's force is its stiffness (1e5 N/m and more) times
    a deflection, so it carries the states' error times that stiffness, not a tolerance unit.
    fmpy's fixed-step Euler converges to order 1: halving its step halves its error (ratio within
    [1.6, 2.4], the first-order error constant changing little between h and h/2)."""
    fmu = rumoca_fmus[model]
    vehicle = model in SYSTEMS["omni_vehicle"].examples + SYSTEMS["omni_impact"].examples
    stop, interval, rtol, ours, names, bound = _our_run(model, fmu)
    import fmpy
    for interface in ("ModelExchange", "CoSimulation"):
        other = on_grid(pd.DataFrame(fmpy.simulate_fmu(str(fmu), fmi_type=interface, solver="CVode", stop_time=stop,
                                                       output_interval=interval, relative_tolerance=rtol,
                                                       output=names)), interval)
        assert len(other) == len(ours), interface
        difference = np.max(np.abs(np.array([other[n] for n in names]).T - ours[names].to_numpy()), axis=0)
        assert np.all(difference <= 2 * bound), (interface, dict(zip(names, difference / bound)))
    if vehicle or model in STIFF:
        return  # explicit Euler would need steps below the rollers', the contact's or the joints' time scale
    reference = simulate(fmu, stop_time=stop, output_interval=interval, tolerance=1e-12)
    errors = []
    for step in (1e-4, 5e-5):
        # fmpy's Euler takes one step per output interval: every step is a row, compared at the reference's
        euler = fmpy.simulate_fmu(str(fmu), fmi_type="ModelExchange", solver="Euler", step_size=step,
                                  stop_time=stop, output_interval=step, output=names)
        rows = np.rint(reference["time"].to_numpy() / step).astype(int)
        assert np.allclose(euler["time"][rows], reference["time"], rtol=0, atol=1e-9 * stop)
        errors.append(np.max(np.abs(np.array([euler[n][rows] for n in names]).T - reference[names].to_numpy())))
    assert 1.6 <= errors[0] / errors[1] <= 2.4, errors


@pytest.mark.parametrize("model", [m.name for m in list_models()])
def test_an_importer_at_a_loose_tolerance_runs_every_example_through(model, rumoca_fmus):
    """fmpy's model exchange (CVODE) at rtol 1e-4 over the example's experiment (issue 26): it reaches the stop time
    with finite outputs. Its absolute tolerances are rtol x the nominals of the states (positions 1 mm, velocities
    1 mm/s), so a contact's micrometre deformation is still resolved and no step fails."""
    import fmpy
    fmu = rumoca_fmus[model]
    stop = float(read_model_description(str(fmu)).defaultExperiment.stopTime)  # fmpy reads it as a string
    interface = "ModelExchange"
    if model == "EulerDisk":
        # its 197 s to rest take our loop 70 to 100 s; fmpy's model exchange (CVODE with difference-quotient
        # Jacobians, at most 500 steps per output interval) stops at t = 0.0085 s on the friction's 3 us time
        # constant (a limit of this example in that importer, docs/euler_disk.md); the co-simulation (the FMU's own
        # CVODE, exact Jacobian) runs in any importer: its first 10 s here
        stop, interface = 10.0, "CoSimulation"
    result = fmpy.simulate_fmu(str(fmu), fmi_type=interface, relative_tolerance=1e-4, stop_time=stop)
    assert result["time"][-1] == stop
    assert all(np.all(np.isfinite(result[name])) for name in result.dtype.names)


FMUSIM = ROOT.parent / "shared" / "fmusim" / "fmusim"


def _fmusim() -> str:
    """The Modelica Association's importer (../shared/fmusim), or pytest.skip with the reason it cannot run."""
    if not FMUSIM.is_file():
        pytest.skip(f"no {FMUSIM}")
    probe = subprocess.run([str(FMUSIM), "--version"], capture_output=True, text=True)
    if probe.returncode != 0:  # its libraries missing (the README's Debian packages)
        pytest.skip(f"{FMUSIM} cannot run: {(probe.stderr or probe.stdout).strip().splitlines()[-1:]}")
    return str(FMUSIM)


@pytest.mark.parametrize("model, interface", [(m.name, i) for m in list_models() for i in ("me", "cs")])
def test_an_importer_we_did_not_write_agrees_with_our_loop(model, interface, rumoca_fmus, tmp_path):
    """fmusim, the Modelica Association's importer: model exchange with its CVODE and co-simulation through the
    FMU's own integrator, at the settings and bound of test_importers_agree (each run's error at most N tolerance
    units of the project's loop's N steps), on the outputs it records; the schema and every FMI call pass its checks
    (exit 0)."""
    fmusim = _fmusim()
    fmu = rumoca_fmus[model]
    stop, interval, rtol, ours, names, bound = _our_run(model, fmu)
    out = tmp_path / f"{interface}.csv"
    run = subprocess.run([fmusim, "--interface-type", interface, "--solver", "cvode", "--tolerance", repr(rtol),
                          "--stop-time", repr(stop), "--output-interval", repr(interval),
                          "--output-file", str(out), str(fmu)], capture_output=True, text=True)
    assert run.returncode == 0, (run.stdout[-2000:], run.stderr[-2000:])
    other = on_grid(pd.read_csv(out), interval)
    outputs = [v.name for v in model_description(fmu).modelVariables if v.causality == "output"]
    assert set(outputs) <= set(other.columns) and len(other) == len(ours)
    recorded = [n for n in names if n in outputs]  # fmusim records the outputs, not the inputs
    difference = np.max(np.abs(other[recorded].to_numpy() - ours[recorded].to_numpy()), axis=0)
    assert np.all(difference <= 2 * bound), dict(zip(recorded, difference / bound))


def test_an_importer_we_did_not_write_continues_from_a_saved_state(rumoca_fmus, tmp_path):
    """fmusim saves the FMU's serialised state at the end of a co-simulation run and starts a second run from it: the
    two halves give the run in one piece, to the integrators' errors. The FMU's CVODE starts afresh where a state is
    taken (its history is not part of the state), so the halves are a second CVODE solution at the same tolerance:
    the bound of test_importers_agree on the same settings (each run within N tolerance units of the project's loop).
    A state lost on the way would restart the disk from its initial position, metres away."""
    fmusim = _fmusim()
    fmu = str(rumoca_fmus["RollingDisk"])
    common = ["--interface-type", "cs", "--tolerance", "1e-8", "--output-interval", "0.02"]
    whole, first, second, state = (tmp_path / f for f in ("whole.csv", "first.csv", "second.csv", "state.bin"))
    for args in ([*common, "--stop-time", "1", "--output-file", str(whole), fmu],
                 [*common, "--stop-time", "0.5", "--final-fmu-state-file", str(state), "--output-file", str(first), fmu],
                 [*common, "--start-time", "0.5", "--stop-time", "1", "--initial-fmu-state-file", str(state),
                  "--output-file", str(second), fmu]):
        run = subprocess.run([fmusim, *args], capture_output=True, text=True)
        assert run.returncode == 0, (args, run.stderr[-2000:])
    whole, second = pd.read_csv(whole), pd.read_csv(second)
    tail = whole[whole["time"] >= 0.5 - 1e-9].reset_index(drop=True)
    assert len(tail) == len(second) == 26
    *_, names, bound = _our_run("RollingDisk", rumoca_fmus["RollingDisk"])  # 1 s at rtol 1e-8, outputs every 0.02 s
    assert np.all(np.abs(tail[names].to_numpy() - second[names].to_numpy()) <= 2 * bound)
