"""The massless-roller FRICTION model of the mecanum vehicle (references.mecanum_friction: massless rollers of finite
size, regularised Coulomb friction at the real contact points, normal forces from the whole vehicle's moment
balance): its energy and momentum balances, its limits (mu -> infinity: the ideal model with impacts,
references.mecanum_massless; delta = pi/2, v_eps -> 0: BKM, references.omni_massless), its static normal forces,
and the MecanumVehicle FMU's approach to it as the rollers get lighter (first order in eta)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from nonholonomic.build import build
from nonholonomic.errors import NonholonomicError
from nonholonomic.models import get_model
from nonholonomic.references.mecanum_friction import MecanumFriction
from nonholonomic.simulate import simulate
from nonholonomic.sweep import KINDS, axle_distance, massless_model, massless_reference, roller_phase

ETA = 2.5e-3
RTOL = 1e-10
GENERIC = (0.0, 0.0, 0.0, 0.3, 0.2, 0.7)   # x, y, phi, v1, v2, omega (body = world at phi = 0)


def _differences(a, b):
    """Largest path, velocity (body components) and yaw-rate differences of two runs on one grid."""
    return (float(np.max(np.hypot(a["x"] - b["x"], a["y"] - b["y"]))),
            float(np.max(np.hypot(a["v1"] - b["v1"], a["v2"] - b["v2"]))),
            float(np.max(np.abs(a["omega"] - b["omega"]))))


@pytest.fixture(scope="module")
def generic_run():
    model = massless_model(ETA, truncated=True, delta=math.pi / 4, friction=True)
    return model, model.simulate(GENERIC, np.linspace(0.0, 0.3, 301), rtol=RTOL)


def test_energy_balance(generic_run):
    """(a) dE/dt = sum_i f_i sigma_i (the friction power, never positive): the kinetic energy from the state
    against the integral of the power carried as a quadrature state. Both are integrated at rtol 1e-10: the global
    error of the velocities is about 3e-10 m/s (rtol 1e-10 against 1e-12, generic motion), so E (about 0.1 J,
    momenta about 1 kg m/s) carries about 3e-10 J; bound 1e-8 J. The power is <= 0 at every evaluation, so the
    work never increases between rows (bound: round-off of the quadrature, 1e-13 J)."""
    _, df = generic_run
    E, W = df["energy"].to_numpy(), df["work"].to_numpy()
    assert np.max(np.abs(E - E[0] - W)) < 1e-8
    assert np.all(np.diff(W) <= 1e-13)
    assert W[-1] < -1e-5   # three roller changes with slip transients: a loss well above the bound
    power = (df[["f1", "f2", "f3"]].to_numpy() * df[["sigma1", "sigma2", "sigma3"]].to_numpy()).sum(axis=1)
    assert np.all(power <= 1e-15)


def test_momentum_balance(generic_run):
    """(b) The world horizontal momentum m (v_O + omega e_z x r_C) changes by the integral of the friction forces
    (quadrature state): same integration error as (a), momenta of 0.5 kg m/s at 3e-10 relative; bound 1e-8 N s.
    The impulse itself is of order 1e-2 N s (the slip transients turn the velocity)."""
    _, df = generic_run
    P = df[["px", "py"]].to_numpy()
    J = df[["impulse_x", "impulse_y"]].to_numpy()
    assert np.max(np.abs(P - P[0] - J)) < 1e-8
    assert np.max(np.abs(J)) > 1e-3


def test_static_normal_forces():
    """(e) At rest (no slip: no friction, no gyroscopic terms) the normal forces are the lever rule's: they sum to
    m g and their moment about the centre of mass vanishes, with the contact points offset along the axles as the
    Modelica contact puts them (RollerPlaneContact: -d tan(psi_M) tan(gamma) along the Modelica axle n_i, psi_M =
    -psi the angle about n_i = -a_i), computed here in world terms independently of the model's rows. Wheel angles
    off the rollers' middles so that the contacts are off the wheels' centres. Round-off bounds (9 x 9 solve)."""
    model = massless_model(ETA, truncated=True, delta=math.pi / 4, friction=True)
    chi = np.array([0.3, -0.5, 0.1])
    y = model.full_state(np.concatenate([[0.0, 0.0, 0.0, 0.0, 0.0, 0.0], chi, np.zeros(3)]))
    k = model.geo.roller_index(chi)
    acc, normal, f, _ = model.forces(y, k)
    m = model.geo.m
    assert abs(normal.sum() - m * 9.81) < 1e-12
    assert np.all(np.abs(acc) < 1e-12) and np.all(f == 0)
    angles = 2 * np.pi * np.arange(3) / 3
    axles = np.stack([np.cos(angles), np.sin(angles)])
    R1 = axle_distance(0.05, 4, True)
    psi = chi - roller_phase(4) - 2 * np.pi * k / 4
    contacts = 0.15 * axles + R1 * np.tan(psi) * math.tan(math.pi / 4) * axles
    lever = np.vstack([np.ones(3), contacts])        # centre of mass at O (symmetric layout)
    expected = np.linalg.solve(lever, [m * 9.81, 0.0, 0.0])
    assert np.max(np.abs(normal - expected)) < 1e-12
    assert np.ptp(expected) > 0.1   # the offsets move the load by more than 0.1 N


@pytest.mark.parametrize("kind", ["spin", "generic"])
def test_tolerance(kind):
    """The global error of the reference at RTOL: against rtol 1e-12, below 1e-10 m, 1e-8 m/s, 1e-8 rad/s
    (measured at 1e-10: path 2e-12 m, velocity 3e-10 m/s, omega 2e-9 rad/s, the straight motion included)."""
    _, (vx, vy), omega, _ = KINDS[kind]
    t = np.linspace(0.0, 0.2, 201)
    model = massless_model(ETA, truncated=True, delta=math.pi / 4, friction=True)
    a = model.simulate((0.0, 0.0, 0.0, vx, vy, omega), t, rtol=RTOL)
    b = model.simulate((0.0, 0.0, 0.0, vx, vy, omega), t, rtol=1e-12)
    path, vel, om = _differences(a, b)
    assert path < 1e-10 and vel < 1e-8 and om < 1e-8


@pytest.mark.slow
def test_large_friction_gives_the_impact_model():
    """(c) mu -> infinity, v_eps small: the ideal massless-roller model with inelastic impacts at the roller changes
    (mecanum_massless). The slip transient after a change lasts ~ m dv/(mu N), so the differences shrink as 1/mu.
    With the load transfers a large mu tips the vehicle (the friction's moment about the centre of mass, ~ mu N h,
    outweighs the normal forces' lever, ~ N R_p, beyond mu ~ 4: the model refuses, N <= 0); the transfers do not
    enter the limit (the impulses lie along the constraint rows whatever the normal forces, and the end state is the
    one that satisfies the new constraints: Carnot's projection), so the large-mu sequence runs with the static
    lever rule (load_transfer=False), the physical model at mu = 1, 2, 4. One change (wheel 1 at t = 0.0615 s);
    v_eps = 1e-6 m/s keeps the creep below the 1/mu part (measured: ratios 2.006, 2.003 from 12.5 to 50 over 0.3 s)."""
    ideal = massless_model(ETA, truncated=True, delta=math.pi / 4)
    t = np.linspace(0.0, 0.08, 81)
    ref = ideal.simulate(GENERIC, t, rtol=1e-12, atol=1e-12)
    assert len(ref.attrs["impacts"]) == 1
    diffs = []
    for mu in (12.5, 25.0, 50.0):
        model = MecanumFriction.from_model(ideal, mu=mu, v_eps=1e-6, load_transfer=False)
        diffs.append(_differences(model.simulate(GENERIC, t, rtol=1e-9), ref))
    diffs = np.array(diffs)
    ratios = diffs[:-1] / diffs[1:]
    assert np.all((ratios > 1.8) & (ratios < 2.2)), ratios
    assert diffs[-1, 0] < 3e-7
    physical = []
    for mu in (1.0, 2.0, 4.0):
        model = MecanumFriction.from_model(ideal, mu=mu, v_eps=1e-5)
        physical.append(_differences(model.simulate(GENERIC, t, rtol=1e-9), ref))
    physical = np.array(physical)
    assert np.all(physical[1:] < 0.75 * physical[:-1]), physical
    # mu = 20 at the vehicle's v_eps: a wheel's normal force turns negative in the transient of the second change
    # (t = 0.153 s; from mu = 5 on), and the model says so instead of pulling the wheel down
    with pytest.raises(NonholonomicError, match="lift off"):
        MecanumFriction.from_model(ideal, mu=20.0, v_eps=1e-3).simulate(GENERIC, [0.0, 0.2], rtol=1e-8)


def test_omni_limit_is_bkm():
    """(d) delta = pi/2 (omni-wheels: no offset, alpha = e constant, no constraint jumps): with v_eps -> 0 the
    friction model tends to BKM (omni_massless) to O(v_eps): in the linear zone the friction is a damper of
    mu N/v_eps along alpha, so the slip creeps at ~ v_eps (force needed)/(mu N). Differences at v_eps = 1e-3 and
    1e-4 over 0.2 s of the generic motion (measured: path 1.07e-7 and 1.07e-8 m, velocity 5.4e-7 and 5.4e-8 m/s;
    omega agrees to 1e-12 rad/s, the symmetric vehicle's yaw is hardly touched): their ratio within 20 % of 10."""
    bkm = massless_model(ETA, truncated=True, delta=math.pi / 2)
    t = np.linspace(0.0, 0.2, 201)
    ref = bkm.simulate(GENERIC, t)
    R1 = axle_distance(0.05, 4, True)
    diffs = []
    for v_eps in (1e-3, 1e-4):
        model = MecanumFriction.from_model(bkm, n=4, d=R1, phase=roller_phase(4), mu=0.5, v_eps=v_eps)
        diffs.append(_differences(model.simulate(GENERIC, t, rtol=RTOL), ref))
    diffs = np.array(diffs)
    ratios = diffs[0, :2] / diffs[1, :2]
    assert np.all((ratios > 8) & (ratios < 12)), (diffs, ratios)
    assert diffs[0, 0] < 1e-6 and diffs[0, 2] < 1e-10


def test_sweep_reference_columns():
    """sweep.massless_reference(friction=True): the columns of the ideal reference, repeated times allowed."""
    t = np.array([0.0, 0.01, 0.01, 0.02])
    ref = massless_reference("generic", t, ETA, truncated=True, delta=math.pi / 4, friction=True)
    assert len(ref) == 4
    for column in ("x", "y", "phi", "v1", "v2", "omega", "vx", "vy"):
        assert column in ref
    assert np.array_equal(ref.iloc[1][["x", "vx", "omega"]], ref.iloc[2][["x", "vx", "omega"]])


@pytest.fixture(scope="module")
def mecanum_fmu():
    fmu = get_model("MecanumVehicle").fmu
    build(["MecanumVehicle"], backend="rumoca")  # where not up to date
    return fmu


@pytest.mark.parametrize("kind", ["straight", "generic"])
def test_fmu_tends_to_the_friction_model(mecanum_fmu, kind):
    """The MecanumVehicle FMU (massive rollers, rtol 1e-8) against this model frozen at the same eta: first order in
    eta (measured over 0.3 s from eta = 2.5e-2 to 2.5e-5: fitted slopes 0.98-0.99 of path, velocity and omega,
    path differences 6.5e-4 m straight, 9.4e-5 m generic at 2.5e-3; docs/omni.md). Here eta = 2.5e-3 and 2.5e-4
    over 0.15 s: the ratio of the path and velocity differences within 25 % of 10."""
    _, (vx, vy), omega, _ = KINDS[kind]
    diffs = []
    for eta in (2.5e-3, 2.5e-4):
        df = simulate(mecanum_fmu, {"eta": eta, "v_0[1]": vx, "v_0[2]": vy, "omega_0": omega}, stop_time=0.15,
                      output_interval=1e-3, tolerance=1e-8, outputs=["x", "y", "vx", "vy", "omega"])
        ref = massless_reference(kind, df["time"].to_numpy(), eta, truncated=True, delta=math.pi / 4, friction=True)
        diffs.append((float(np.max(np.hypot(df["x"] - ref["x"], df["y"] - ref["y"]))),
                      float(np.max(np.hypot(df["vx"] - ref["vx"], df["vy"] - ref["vy"])))))
    ratios = np.array(diffs[0]) / np.array(diffs[1])
    assert np.all((ratios > 7.5) & (ratios < 12.5)), (diffs, ratios)
