"""Mecanum wheels (rollers tilted by gamma = pi/2 - delta out of the wheel's plane): the rollers' inertia against
quadrature of the union of the spheres that define them, the contact geometry and the roller changes of the
MecanumVehicle FMU against closed forms, the dissipation of the kinetic energy, and delta = pi/2 against
OmniVehicleTruncated (Contacts.RollerPlaneContact, Vehicles.OmniWheel, Vehicles.rollerInertia; docs/omni.md,
"Mecanum wheels: the Modelica model")."""

from __future__ import annotations

import math

import numpy as np
import pytest
import rumoca
from scipy.integrate import quad
from scipy.optimize import minimize_scalar

from nonholonomic.backends.explicit_ode import build_explicit_ode
from nonholonomic.backends.flat_dae import FlatDae
from nonholonomic.build import build
from nonholonomic.errors import NonholonomicError
from nonholonomic.models import LIBRARY, get_model
from nonholonomic.simulate import simulate
from nonholonomic.sweep import axle_distance, roller_inertia

R_W, N, M_R = 0.05, 4, 0.002
RTOL = 1e-8
KINDS = {"spin": ((0.0, 0.0), 1.0), "straight": ((1.0, 0.0), 0.0), "generic": ((0.3, 0.2), 0.7)}


def union_of_spheres_inertia(R_w: float, n: int, m_r: float, d: float, gamma: float) -> tuple[float, float]:
    """The roller as defined in RollerPlaneContact, by brute force: the union of the spheres centred on its axis at
    s (|s| <= s_end = d tan(pi/n)/cos(gamma)) of radius rho(s) = R_w - sqrt(d^2 + s^2 cos^2 gamma), cut across the
    axis where the end spheres touch the envelope (x - s = -rho rho'). Its radius at x is the largest cross-section
    of a sphere there, max_s sqrt(rho(s)^2 - (x - s)^2) (a bounded scalar maximisation); moments by slices with
    scipy's adaptive quadrature. Independent of the closed forms (no parametrisation of the envelope)."""
    k = math.cos(gamma)
    s_end = d * math.tan(math.pi / n) / k
    rho = lambda s: R_w - math.sqrt(d * d + s * s * k * k)

    def r2(x):
        best = minimize_scalar(lambda s: (x - s) ** 2 - rho(s) ** 2, bounds=(-s_end, s_end), method="bounded",
                               options={"xatol": 1e-13})
        return -best.fun

    x_end = s_end + rho(s_end) * s_end * k * k / math.sqrt(d * d + s_end * s_end * k * k)
    volume = quad(r2, -x_end, x_end, epsabs=0, epsrel=1e-12, limit=200)[0]
    a4 = quad(lambda x: r2(x) ** 2, -x_end, x_end, epsabs=0, epsrel=1e-12, limit=200)[0]
    t2 = quad(lambda x: x * x * r2(x), -x_end, x_end, epsabs=0, epsrel=1e-12, limit=200)[0]
    return m_r * a4 / (2 * volume), m_r * (a4 / 4 + t2) / volume


INERTIA_CASES = [(n, truncated, gamma) for n in (3, 4, 5) for truncated in (False, True) for gamma in (0.0, math.pi / 4)]


@pytest.fixture(scope="module")
def modelica_inertia():
    """Vehicles.rollerInertia for every case, from one model compiled by rumoca and evaluated through CasADi."""
    lines = [f"    parameter Real I{j}[3] = Nonholonomic.Vehicles.rollerInertia({R_W}, {n}, {M_R}, "
             f"{axle_distance(R_W, n, truncated)!r}, {gamma!r});" for j, (n, truncated, gamma) in enumerate(INERTIA_CASES)]
    outputs = ", ".join(f"a{j} = I{j}[1], t{j} = I{j}[2], u{j} = I{j}[3]" for j in range(len(INERTIA_CASES)))
    source = ("package MI\n  model M\n" + "\n".join(lines) + "\n    Real x(start = 0, fixed = true);\n"
              f"    output Real {outputs};\n  equation\n    der(x) = 1;\n  end M;\nend MI;\n")
    model = rumoca.Session(roots=[str(LIBRARY.parent)]).loads(source, model="MI.M")
    ode = build_explicit_ode(FlatDae(model.to_dict("dae"), "MI.M"))
    y = ode.rhs(0.0, [0.0], [q.start for q in ode.parameters], [], [])[1].full().ravel()
    return {case: y[3 * j:3 * j + 3] for j, case in enumerate(INERTIA_CASES)}


@pytest.mark.parametrize("n, truncated, gamma", INERTIA_CASES)
def test_roller_inertia_against_the_union_of_spheres(modelica_inertia, n, truncated, gamma):
    """The closed forms (omni: the arc's; mecanum: Laurent polynomials in cos(theta) integrated term by term)
    against quadrature of the roller's definition; at gamma = 0 also the present values (sweep.roller_inertia, the
    omni closed form the function keeps unchanged for gamma = 0)."""
    d = axle_distance(R_W, n, truncated)
    axial, transverse = union_of_spheres_inertia(R_W, n, M_R, d, gamma)
    value = modelica_inertia[(n, truncated, gamma)]
    # quadrature of smooth integrands to 1e-12 against closed forms whose terms cancel to about 1e-12 at worst
    # (untruncated, n = 5: the profile radius is a difference of R_w-sized numbers, A4 of its fourth power)
    assert value[0] == pytest.approx(axial, rel=1e-10)
    assert value[1] == pytest.approx(transverse, rel=1e-10) and value[2] == value[1]
    if gamma == 0:
        # the same closed form evaluated by CasADi and by Python: equal up to the order of a few roundings
        assert value[:2] == pytest.approx(roller_inertia(R_W, n, M_R, d), rel=1e-14)


@pytest.fixture(scope="module")
def fmus():
    """MecanumVehicle and OmniVehicleTruncated, built by the rumoca backend into fmus/ only if missing or stale
    (not the session fixture, which rebuilds every example)."""
    paths = {}
    for name in ("MecanumVehicle", "OmniVehicleTruncated"):
        fmu = get_model(name).fmu
        build([name], backend="rumoca")  # where not up to date
        paths[name] = fmu
    return paths


GEOMETRY = ([f"{s}[{i}]" for s in ("contactRoller", "xContact", "yContact", "N_contact", "slip") for i in (1, 2, 3)]
            + [f"wheel[{i}].hub.{v}[{k}]" for i in (1, 2, 3) for v, ks in (("Q", range(1, 5)), ("r_0", range(1, 4)))
               for k in ks] + ["kineticEnergy"])


@pytest.fixture(scope="module")
def runs(fmus):
    """The three motions on the mecanum vehicle (eta = 2.5e-2, 0.3 s, rtol 1e-8)."""
    return {kind: simulate(fmus["MecanumVehicle"], {"eta": 0.025, "v_0[1]": vx, "v_0[2]": vy, "omega_0": omega},
                           stop_time=0.3, output_interval=1e-3, tolerance=RTOL, outputs=GEOMETRY)
            for kind, ((vx, vy), omega) in KINDS.items()}


def wheel_frames(df, i):
    """Hub attitude matrices (z: the axle), hub centres and the angle beta of the downward vertical in the hub's
    xy plane (the rollers' centres are at kappa_k = 2 pi (k - 1)/n there)."""
    q = df[[f"wheel[{i}].hub.Q[{k}]" for k in range(1, 5)]].to_numpy()
    q = q / np.linalg.norm(q, axis=1)[:, None]
    w, x, y, z = q.T
    T = np.stack([np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
                  np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
                  np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1)], 1)
    down = -T[:, 2, :]  # world -e_z in hub coordinates (rows of T^T)
    beta = np.arctan2(down[:, 1], down[:, 0])
    hub = df[[f"wheel[{i}].hub.r_0[{k}]" for k in range(1, 4)]].to_numpy()
    return T, hub, beta


GAMMA = math.pi / 4
D = axle_distance(R_W, N, True)
JUMP = 2 * D * math.tan(math.pi / N) * math.tan(GAMMA)


@pytest.mark.parametrize("kind", list(KINDS))
def test_contact_point_crosses_the_wheel_and_jumps_back_at_each_change(runs, kind):
    """The hub stays at R_w; one roller carries each wheel; the contact point is directly below the hub in the
    wheel's plane, at the height 0, offset along the axle by -d tan(psi) tan(gamma) (psi the angle of the carrying
    roller's centre from the downward vertical, from the hub's attitude); each change of the roller in contact is
    at an event where psi = +-pi/n (so the changes are 2 pi/n of the wheel's turn apart), and the contact point
    jumps there along the axle by 2 d tan(pi/n) tan(gamma) = 50 mm against the wheel's turn."""
    df = runs[kind]
    time = df["time"].to_numpy()
    total_changes = 0
    for i in (1, 2, 3):
        T, hub, beta = wheel_frames(df, i)
        roller = df[f"contactRoller[{i}]"].to_numpy()
        assert np.all(np.isin(roller, np.arange(1, N + 1)))  # exactly one roller in contact at every row
        # the gap is closed at acceleration level with Baumgarte terms (rate 20/s): the hub's height drifts by
        # the integration error only, of order rtol times the wheel's travel (<= 0.3 m): 3e-9 m, measured 3e-9
        assert np.max(np.abs(hub[:, 2] - R_W)) < 1e-8
        # psi from the hub's attitude; the contact's sector relation reads the roller's axis, which differs from it
        # by the axle's tilt (the hubs' height differences over the wheel spacing, 1e-8 rad) and overshoots the
        # junction by the event's location (wheel rate <= 31 rad/s times the 1e-9 s of the second event)
        EDGE = 1e-7
        psi = np.angle(np.exp(1j * (2 * np.pi * (roller - 1) / N - beta)))
        assert np.max(np.abs(psi)) <= math.pi / N + EDGE
        # the contact point's height is the gap (zero on a closed gap: the hub's height above)
        P = np.stack([df[f"xContact[{i}]"], df[f"yContact[{i}]"], np.zeros(len(df))], -1)
        axle, rel = T[:, :, 2], P - hub
        rolling = np.cross(axle, [0.0, 0.0, 1.0])
        # exact geometry of the state: the residuals come from the axle's tilt (1e-8 rad times lengths of 0.05 m)
        # and the gap, both of the integration error (measured 3e-9 m)
        assert np.max(np.abs(np.einsum("ij,ij->i", rel, rolling))) < 1e-8
        assert np.max(np.abs(np.einsum("ij,ij->i", rel, axle) + D * np.tan(psi) * math.tan(GAMMA))) < 1e-8
        # changes: consecutive rows at one time (the event), the leaving roller at the edge of its sector
        changes = np.flatnonzero(roller[1:] != roller[:-1])
        for k in changes:
            assert time[k + 1] == time[k]
            assert abs(abs(psi[k]) - math.pi / N) < EDGE and abs(abs(psi[k + 1]) - math.pi / N) < EDGE
            # both contact points at one state: the jump's error is d tan(gamma)/cos^2(pi/n) = 0.05 m times the
            # error of psi (EDGE), measured 3e-9 m
            jump = (P[k + 1] - P[k]) @ axle[k]
            assert abs(abs(jump) - JUMP) < 1e-8
            assert np.sign(jump) == -np.sign(psi[k + 1] - psi[k])  # psi jumps by -+2 pi/n, the offset by +-JUMP
        # the wheel's turn between changes: 2 pi/n (beta unwrapped over the rows between them)
        turn = np.unwrap(beta)
        for k0, k1 in zip(changes[:-1], changes[1:]):
            assert abs(abs(turn[k1] - turn[k0]) - 2 * math.pi / N) < 2 * EDGE
        total_changes += len(changes)
    assert total_changes >= 3  # each motion passes junctions within 0.3 s


@pytest.mark.parametrize("kind", list(KINDS))
def test_wheels_start_rolling_without_slipping(runs, kind):
    """The initial wheel rates (no sliding along the lowest roller's axis: BKM's (v_i . alpha_i)/(R_w sin delta))
    and the lowest roller's spin (no sliding across it) are start values, exact: the slip at t = 0 is rounding of
    velocities of 1 m/s."""
    assert max(runs[kind][f"slip[{i}]"].iloc[0] for i in (1, 2, 3)) < 1e-14


@pytest.mark.parametrize("kind", list(KINDS))
def test_kinetic_energy_never_increases(runs, kind):
    """Friction dissipates and the normal forces do no work on a closed gap; the rollers' centres of mass turn
    symmetrically about their hub, so the potential energy is constant and the kinetic energy cannot increase."""
    e = runs[kind]["kineticEnergy"].to_numpy()
    # rtol 1e-8 bounds each step's local error; between two output points a few steps: 1e-7 of the energy
    assert np.max(np.diff(e)) <= 1e-7 * e[0]
    assert e[-1] < e[0]


def test_omni_setting_has_the_omni_vehicles_equations(fmus, tmp_path):
    """MecanumVehicle at delta = pi/2 is OmniVehicleTruncated: the same start values and the same state derivatives,
    at the start and at perturbed states (off the constraints: any state), up to rounding. The two FMUs are built
    from different parameter defaults, so the backend's sparse LU may pivot differently (the equations themselves
    are the same operation by operation: cos(gamma) = 1 exactly and every tilt term carries sin(gamma) = 0)."""
    from conftest import FmuJacobian
    rng = np.random.default_rng(7)
    for kind, ((vx, vy), omega) in KINDS.items():
        params = {"eta": 0.025, "v_0[1]": vx, "v_0[2]": vy, "omega_0": omega}
        omni = FmuJacobian(fmus["OmniVehicleTruncated"], tmp_path / f"omni_{kind}", params)
        mecanum = FmuJacobian(fmus["MecanumVehicle"], tmp_path / f"mecanum_{kind}", {**params, "delta": math.pi / 2})
        assert omni.states == mecanum.states
        x0 = omni.initial_state()
        # the start values are computed by the same formulas: equal but for the order of a few roundings
        assert mecanum.initial_state() == pytest.approx(x0, rel=1e-14, abs=1e-15)
        for x in [x0] + [x0 + 1e-3 * rng.standard_normal(len(x0)) for _ in range(3)]:
            a, b = omni.derivatives(x), mecanum.derivatives(x)
            # one solve of the vehicle's linear block, pivoted differently: its condition (rollers' axial inertia
            # 5e-7 kg m^2 against the platform's 1e-2, the rollers' spin accelerations 1e4 times the platform's)
            # is about 1e8, so rounding of 1e-16 grows to 1e-8 of the largest derivative at most (measured 3e-10)
            assert np.max(np.abs(a - b)) <= 1e-8 * np.max(np.abs(a))


def test_omni_setting_reproduces_the_omni_vehicle(fmus):
    """The same, integrated: MecanumVehicle at delta = pi/2 against OmniVehicleTruncated over 0.3 s, rows away from
    events (at a simultaneous junction of two wheels the order of their event rows is the rounding's)."""
    outputs = ["x", "y", "vx", "vy", "omega", "kineticEnergy"] + [
        f"{s}[{i}]" for s in ("contactRoller", "xContact", "yContact") for i in (1, 2, 3)]
    for kind, ((vx, vy), omega) in KINDS.items():
        params = {"eta": 0.025, "v_0[1]": vx, "v_0[2]": vy, "omega_0": omega}
        omni = simulate(fmus["OmniVehicleTruncated"], params, stop_time=0.3, output_interval=1e-3, tolerance=RTOL,
                        outputs=outputs)
        mecanum = simulate(fmus["MecanumVehicle"], {**params, "delta": math.pi / 2}, stop_time=0.3,
                           output_interval=1e-3, tolerance=RTOL, outputs=outputs)
        grid = lambda df: df[np.isclose(df["time"].to_numpy() * 1000, np.round(df["time"].to_numpy() * 1000),
                                        rtol=0, atol=1e-6)].drop_duplicates("time", keep="last")
        a, b = grid(omni), grid(mecanum)
        assert len(a) == len(b) == 301
        # two integrations of one system with different rounding, each within its global error of the exact
        # solution: at rtol 1e-8 over 0.3 s with up to 12 events, 1e-6 of each quantity's scale (measured 4e-7)
        scales = {"x": 0.3, "y": 0.3, "vx": 1.0, "vy": 1.0, "omega": 1.0, "kineticEnergy": a["kineticEnergy"].iloc[0]}
        scales.update({f"{s}[{i}]": 0.5 for s in ("xContact", "yContact") for i in (1, 2, 3)})
        for name, scale in scales.items():
            assert np.max(np.abs(a[name].to_numpy() - b[name].to_numpy())) <= 1e-6 * scale, (kind, name)
        for i in (1, 2, 3):
            assert np.array_equal(a[f"contactRoller[{i}]"].to_numpy(), b[f"contactRoller[{i}]"].to_numpy())


@pytest.mark.parametrize("delta", [0.0, math.pi])
def test_delta_at_the_ends_of_its_range_is_refused_with_its_reason(fmus, delta):
    """delta = 0 or pi puts the rollers' axes along the axle: tan(gamma) in the contact is infinite. The FMU's
    assertion refuses it at the end of initialisation, naming the parameter (rather than a solver failure)."""
    with pytest.raises(NonholonomicError, match="delta must lie strictly between 0 and pi"):
        simulate(fmus["MecanumVehicle"], {"delta": delta}, stop_time=0.01)
