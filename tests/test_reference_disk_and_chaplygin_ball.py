"""Tests of the rolling-disk and Chaplygin-ball reference models (seeds 002 and 003).

Oracles, each independent of the reduced equations under test:
* the conserved quantities (disk: energy; ball: energy, (M, gamma), M^2, gamma^2 = 1);
* a brute-force 3-D Newton-Euler model of each body (m a = F + m g, I w' + w x I w = torque in
  body axes, no slip v_0 + w x (P - r_0) = 0 differentiated in time, contact force unknown), solved
  as a 9x9 linear system at random states and compared with the reduced right-hand sides;
* finite differences of the world trajectories (to_world) against the exported velocities;
* classical closed forms for the disk: steady circular rolling (the coin formula
  tan(alpha) = (C + m R^2) v^2 / (m g R^2 rho) for rho >> R, the Euler-disk precession
  Omega^2 = 4 g / (R sin theta) with the centre at rest), the spin about a vertical diameter and
  its stability threshold Omega^2 = 4 g / (5 R) (homogeneous disk).
Tolerances: integration runs use rtol 1e-11 / atol 1e-12 (DOP853), for which the drifts of the
integrals are ~1e-11 relative over the spans used; algebraic identities are checked to a few
hundred ulps (`bounds.roundoff`, of the magnitude involved); quantities that are exactly constant
by construction along a run get a round-off growth bound (rate round-off times the span).
"""

import numpy as np
import pytest

from nonholonomic.errors import NonholonomicError
from nonholonomic.references.chaplygin_ball import ChaplyginBall, matrix_to_quaternion
from nonholonomic.references.chaplygin_ball import quaternion_to_matrix as ball_q2m
from nonholonomic.references.rolling_disk import (
    RollingDisk, contact_point, euler_to_matrix, euler_to_quaternion, quaternion_to_matrix)

from bounds import residual_bound, roundoff

G = 9.81
EZ = np.array([0.0, 0.0, 1.0])

DISKS = {
    "homogeneous": RollingDisk.homogeneous(1.5, 0.3, G),
    "rim_heavy": RollingDisk(2.0, 0.25, 0.05, 0.09, G),  # A = 0.4 m R^2, C = 0.72 m R^2
}
BALLS = {
    "asymmetric": ChaplyginBall(1.0, 0.5, 0.08, 0.10, 0.12, G),
    "strongly_asymmetric": ChaplyginBall(2.0, 0.3, 0.02, 0.05, 0.065, G),
}


def skew(a):
    return np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])


def random_disk_state(rng):
    return np.array([rng.uniform(0.3, np.pi - 0.3), rng.uniform(-3, 3), rng.uniform(-3, 3),
                     *rng.uniform(-3, 3, 3), *rng.uniform(-1, 1, 2)])


# ============================================================================== disk: kinematics
def test_disk_rotation_conventions():
    rng = np.random.default_rng(1)
    ps, th, ph = rng.uniform(-3, 3, 20), rng.uniform(0.1, 3.0, 20), rng.uniform(-3, 3, 20)
    T = euler_to_matrix(ps, th, ph)
    # rotation matrices (entries of size 1), each from one short formula: round-off of size 1
    np.testing.assert_allclose(quaternion_to_matrix(euler_to_quaternion(ps, th, ph)), T,
                               atol=roundoff())  # closed-form z-x-z quaternion vs matrix product
    np.testing.assert_allclose(np.einsum("kij,kjl->kil", T, T.transpose(0, 2, 1)),
                               np.broadcast_to(np.eye(3), T.shape), atol=roundoff())
    # seed 003: gamma = T^T ez = (sin phi sin theta, cos phi sin theta, cos theta) (as printed)
    np.testing.assert_allclose(T[:, 2, :], np.stack(
        [np.sin(ph) * np.sin(th), np.cos(ph) * np.sin(th), np.cos(th)], -1), atol=roundoff())
    # seed 003's printed ||Q_ij|| is T^T (CORRECTED in rolling_disk.py: x' = Q^T v, not Q v)
    k = 0
    s, c = np.sin, np.cos
    Q = np.array([[c(ph[k]) * c(ps[k]) - c(th[k]) * s(ps[k]) * s(ph[k]),
                   c(ph[k]) * s(ps[k]) + c(th[k]) * c(ps[k]) * s(ph[k]), s(ph[k]) * s(th[k])],
                  [-s(ph[k]) * c(ps[k]) - c(th[k]) * s(ps[k]) * c(ph[k]),
                   -s(ph[k]) * s(ps[k]) + c(th[k]) * c(ps[k]) * c(ph[k]), c(ph[k]) * s(th[k])],
                  [s(th[k]) * s(ps[k]), -s(th[k]) * c(ps[k]), c(th[k])]])
    np.testing.assert_allclose(Q, T[k].T, atol=roundoff())
    assert np.max(np.abs(Q - T[k])) > 0.1  # ... and it is not T itself


@pytest.mark.parametrize("name", DISKS)
def test_disk_world_round_trip_and_constraint(name):
    d = DISKS[name]
    rng = np.random.default_rng(2)
    Y = np.stack([random_disk_state(rng) for _ in range(50)], 1)  # (8, 50)
    W = d.to_world(Y)
    T = quaternion_to_matrix(W["Q"])
    w_world = np.einsum("kij,kj->ki", T, W["w_b"])
    # round trip: round-off of the state's size, amplified by the 1/sin(theta) of the Euler rates
    trip = roundoff(np.abs(Y).max() / np.sin(Y[0]).min())  # (1.4e-13; measured 5.3e-15)
    for back in (d.from_world(W["r_0"], W["Q"], W["v_0"], W["w_b"], frame="body", unwrap=False),
                 d.from_world(W["r_0"], T, W["v_0"], w_world, unwrap=False)):
        np.testing.assert_allclose(back, Y, rtol=0, atol=trip)  # angles in (-pi, pi) here
    for k in range(3):  # single states
        s = Y[:, k]
        w = d.to_world(s)
        np.testing.assert_allclose(d.from_world(w["r_0"], w["Q"], w["v_0"], w["w_b"], "body"),
                                   s, atol=trip)
    # geometry of the world state: contact on the plane, on the rim, in the disk plane
    P = contact_point(W["r_0"], W["Q"], d.R)
    n = T[:, :, 2]
    # one formula each: round-off of the positions (|r_0|) and velocities (|v_0| + R |w|)
    size_r = np.abs(W["r_0"]).max()
    size_v = np.abs(W["v_0"]).max() + d.R * np.abs(w_world).max()
    np.testing.assert_allclose(P[:, 2], 0.0, atol=roundoff(size_r))
    np.testing.assert_allclose(np.linalg.norm(P - W["r_0"], axis=1), d.R, rtol=roundoff())
    np.testing.assert_allclose(np.einsum("ki,ki->k", P - W["r_0"], n), 0.0, atol=roundoff(size_r))
    np.testing.assert_allclose(W["r_0"][:, 2], d.R * np.sin(Y[0]), rtol=roundoff())
    np.testing.assert_allclose(d.slip_velocity(W["r_0"], T, W["v_0"], w_world), 0.0,
                               atol=roundoff(size_v))  # no slip in the exported initial conditions
    np.testing.assert_allclose(W["v_0"][:, 2], d.R * Y[3] * np.cos(Y[0]),
                               atol=roundoff(size_v))  # z_0 = R sin theta differentiated
    with pytest.raises(NonholonomicError):
        d.from_world([0, 0, 0], np.eye(3), [0, 0, 0], [0, 0, 0])  # flat disk: singular


def test_disk_world_trajectory_is_consistent():
    """d r_0/dt = v_0 and dT/dt = T [w_b]x along a simulated trajectory (5-point stencils)."""
    d = DISKS["rim_heavy"]
    h = 1e-3
    t = 1.7 + h * np.arange(-2, 3)
    df = d.simulate([1.2, 0.3, -0.5, 0.4, 1.5, -6.0, 0.0, 0.0], np.concatenate([[0.0], t]))
    Y = df[["theta", "psi", "phi", "theta_dot", "psi_dot", "phi_dot", "x", "y"]].to_numpy().T[:, 1:]
    W = d.to_world(Y)
    T = quaternion_to_matrix(W["Q"])
    stencil = np.array([1.0, -8.0, 0.0, 8.0, -1.0]) / (12 * h)
    dr = np.einsum("k,ki->i", stencil, W["r_0"])
    dT = np.einsum("k,kij->ij", stencil, T)
    # error budget: h^4 truncation ~1e-12, integration noise up to ~rtol/h = 1e-8 (it is smooth,
    # so it mostly cancels); measured 4e-11 (dr) and 6e-10 (dT)
    np.testing.assert_allclose(dr, W["v_0"][2], atol=1e-8)
    np.testing.assert_allclose(dT, T[2] @ skew(W["w_b"][2]), atol=1e-8)
    # the contact point of the world state is the state's (x, y)
    P = contact_point(W["r_0"], W["Q"], d.R)
    np.testing.assert_allclose(P[:, :2], Y[6:8].T, atol=roundoff(np.abs(W["r_0"]).max()))  # one formula


# ============================================================================== disk: dynamics
@pytest.mark.parametrize("name", DISKS)
def test_disk_energy_conserved(name):
    d = DISKS[name]
    df = d.simulate([1.2, 0.0, 0.0, 0.3, 2.0, -8.0, 0.0, 0.0], np.linspace(0.0, 10.0, 1001))
    e = df["energy"].to_numpy()
    # measured 9.7e-13 (homogeneous) and 8.6e-13 (rim_heavy) relative over 10 s (rtol 1e-11)
    assert np.max(np.abs(e - e[0])) / abs(e[0]) < 1e-9
    assert df["theta"].max() - df["theta"].min() > 0.05  # the disk really nutates
    assert df["Fz"].min() > 0  # the plane pushes: a physical (unilateral-compatible) motion


def rolling_newton_euler(m, Ib, T, w_b, r, rhs_roll):
    """Solve Newton, Euler (body axes) and the rolling condition a_0 + w' x r = rhs_roll (world) for
    X = (a_0, w_b', N), N the contact force on the body at r (centre -> contact point, world), and the
    solve's forward-error bound: cond(K) (20 .. 120 here) times n = 9 ulps of |X|."""
    K = np.zeros((9, 9))
    rhs = np.zeros(9)
    K[0:3, 0:3] = m * np.eye(3)
    K[0:3, 6:9] = -np.eye(3)
    rhs[0:3] = -m * G * EZ
    K[3:6, 3:6] = Ib
    K[3:6, 6:9] = -skew(T.T @ r) @ T.T
    rhs[3:6] = -np.cross(w_b, Ib @ w_b)
    K[6:9, 0:3] = np.eye(3)
    K[6:9, 3:6] = -skew(r) @ T
    rhs[6:9] = rhs_roll
    X = np.linalg.solve(K, rhs)
    return X, residual_bound(K, np.abs(X).max(), ulps=len(K))


def newton_euler_disk(d, r0, T, v0, w_b):
    """Brute-force 3-D Newton-Euler solve: (a_0, w_b', N, P') for the disk at a world state."""
    m, R = d.m, d.R
    Ib = np.diag([d.A, d.A, d.C])
    w = T @ w_b
    n = T[:, 2]
    u = EZ - n[2] * n
    s = np.linalg.norm(u)
    r = -R * u / s  # G -> P, world
    dn = np.cross(w, n)
    du = -dn[2] * n - n[2] * dn
    dr = -R * (du / s - u * (u @ du) / s**3)  # d/dt of the GEOMETRIC contact vector
    X, bound = rolling_newton_euler(m, Ib, T, w_b, r, -np.cross(w, dr))
    # the state is a rolling state (one formula: round-off of the velocities)
    assert np.allclose(v0 + np.cross(w, r), 0.0, atol=roundoff(np.abs(v0).max() + R * np.abs(w).max()))
    return X[0:3], X[3:6], X[6:9], v0 + dr, bound


@pytest.mark.parametrize("name", DISKS)
def test_disk_reduced_equations_match_newton_euler_3d(name):
    d = DISKS[name]
    rng = np.random.default_rng(3)
    worst = 0.0
    for _ in range(40):
        y = random_disk_state(rng)
        W = d.to_world(y)
        T = quaternion_to_matrix(W["Q"])
        a0, dwb, N, dP, bound = newton_euler_disk(d, W["r_0"], T, W["v_0"], W["w_b"])
        # map the 3-D accelerations to Euler-angle accelerations (derivative of from_world's
        # rates theta' = w1 cos phi - w2 sin phi, psi' = (w1 sin phi + w2 cos phi)/sin theta,
        # phi' = w3 - psi' cos theta, along the motion)
        th, _, ph, dth, dps, dph = d.from_world(W["r_0"], T, W["v_0"], W["w_b"], frame="body")[:6]
        w1, w2, _ = W["w_b"]
        ddth = dwb[0] * np.cos(ph) - dwb[1] * np.sin(ph) - (w1 * np.sin(ph) + w2 * np.cos(ph)) * dph
        ddps = (dwb[0] * np.sin(ph) + dwb[1] * np.cos(ph)
                + (w1 * np.cos(ph) - w2 * np.sin(ph)) * dph) / np.sin(th) \
            - dps * np.cos(th) * dth / np.sin(th)
        ddph = dwb[2] - ddps * np.cos(th) + dps * np.sin(th) * dth
        f = d.rhs(0.0, y)
        brute = np.array([dth, dps, dph, ddth, ddps, ddph, dP[0], dP[1]])
        # in units of the solve's bound, amplified by the 1/sin(theta) of the Euler-angle rates
        worst = max(worst, np.max(np.abs(f - brute)) / (bound / np.sin(th)))
        # the contact point stays on z = 0 (one formula on the velocities)
        np.testing.assert_allclose(dP[2], 0.0, atol=roundoff(np.abs(W["v_0"]).max() + d.R * np.abs(W["w_b"]).max()))
        np.testing.assert_allclose(d.contact_force(y), N, rtol=1e-11, atol=1e-11)
        np.testing.assert_allclose(a0, (N - d.m * G * EZ) / d.m, atol=bound)
    assert worst < 1  # bound ~1e-11; measured 3.2e-14 / 4.1e-14 (relative to 1 + |value|)


# ============================================================================== disk: steady motions
def test_disk_straight_rolling():
    d = DISKS["homogeneous"]
    y0 = d.straight_rolling(2.0, psi=0.7, x=0.1, y=-0.2)
    t = np.linspace(0.0, 5.0, 51)
    df = d.simulate(y0, t)
    # exact equilibrium: theta'' is round-off of its terms (size (v/R)^2 + g/R), integrated twice
    # over the 5 s span (1.4e-11; measured < 5e-15)
    acc = (2.0 / d.R)**2 + G / d.R
    np.testing.assert_allclose(df["theta"], np.pi / 2, atol=0.5 * t[-1]**2 * roundoff(acc))
    np.testing.assert_allclose(df["x"], 0.1 + 2.0 * t * np.cos(0.7), atol=1e-10)
    np.testing.assert_allclose(df["y"], -0.2 + 2.0 * t * np.sin(0.7), atol=1e-10)
    np.testing.assert_allclose(df["Fz"], d.m * G, rtol=roundoff(ulps=256))  # one formula of the state


@pytest.mark.parametrize("name", DISKS)
def test_disk_spin_about_vertical_diameter(name):
    d = DISKS[name]
    crit = d.m * G * d.R / (d.A + d.m * d.R**2)
    if name == "homogeneous":
        assert crit == pytest.approx(4 * G / (5 * d.R), rel=roundoff(ulps=8))  # the classical 4 g / (5 R)
    Om = 2.0 * np.sqrt(crit)
    y0, info = d.spin_about_diameter(Om, psi=0.4, x=0.3, y=0.1)
    assert info["Omega2_critical"] == pytest.approx(crit, rel=roundoff(ulps=8))  # a few operations
    df = d.simulate(y0, np.linspace(0.0, 5.0, 101))
    np.testing.assert_allclose(df["theta"], np.pi / 2, atol=1e-12)
    np.testing.assert_allclose(df[["x", "y"]].to_numpy(), [[0.3, 0.1]] * 101, atol=1e-12)
    np.testing.assert_allclose(df["psi"], 0.4 + Om * df["time"], rtol=1e-11)
    # small nutation: period from the linearisation, 2 pi / sqrt(Omega^2 - crit). Perturb
    # theta = pi/2 + eps with omega3 = m R^2 Omega eps / (C + m R^2) (the value that the omega3
    # equation ties to eps), so that theta oscillates about pi/2 (otherwise about a shifted centre)
    eps = 1e-4

    def perturbed(y, Om):
        y = y.copy()
        y[0] += eps
        w3 = d.m * d.R**2 * Om * eps / (d.C + d.m * d.R**2)
        y[5] = w3 - Om * np.cos(y[0])
        return y

    y1 = perturbed(y0, Om)
    nu = info["nutation_frequency"]
    t = np.linspace(0.0, 3 * 2 * np.pi / nu, 3001)
    th = d.simulate(y1, t)["theta"].to_numpy() - np.pi / 2
    i = np.nonzero((th[:-1] > 0) & (th[1:] <= 0))[0]  # downward zero crossings, one per period
    zc = t[i] + th[i] / (th[i] - th[i + 1]) * (t[1] - t[0])  # linear interpolation
    period = np.mean(np.diff(zc))
    # nonlinear correction O(eps^2) = 1e-8 plus interpolation on a 1e-3-period grid; measured
    # 1.3e-8 (homogeneous) and 1.2e-8 (rim_heavy)
    assert period == pytest.approx(2 * np.pi / nu, rel=1e-6)
    assert np.max(np.abs(th)) < 1.5 * eps  # bounded: stable above the threshold
    # below the threshold the upright spin is unstable
    y2, info2 = d.spin_about_diameter(0.5 * np.sqrt(crit))
    assert np.isnan(info2["nutation_frequency"])
    y2 = perturbed(y2, 0.5 * np.sqrt(crit))
    th2 = d.simulate(y2, np.linspace(0.0, 3.0, 31))["theta"].to_numpy() - np.pi / 2
    assert np.max(np.abs(th2)) > 100 * eps


STEADY_CASES = [  # (disk, theta0, keyword, value)
    ("homogeneous", 1.2, "radius", 0.8),
    ("homogeneous", 1.2, "precession", -3.0),
    ("homogeneous", 2.0, "radius", -0.5),       # leaning the other way (cos theta0 < 0)
    ("rim_heavy", 0.9, "radius_centre", 0.4),
    ("rim_heavy", 1.4, "precession", 5.0),
    ("homogeneous", 0.7, "radius_centre", 0.0),  # Euler's disk: the centre at rest
]


@pytest.mark.parametrize("name,theta0,key,value", STEADY_CASES)
def test_disk_steady_circle(name, theta0, key, value):
    d = DISKS[name]
    sc = d.steady_circle(theta0, **{key: value})
    if key != "precession":
        assert sc[key] == pytest.approx(value, abs=roundoff(abs(value) + d.R))  # one formula back and forth
    else:
        assert sc["psi_dot"] == value
    t = np.linspace(0.0, 10.0, 401)
    df = d.simulate(sc["state"], t)
    # steady: theta constant (theta'' = 0 at the state up to round-off; measured drift <= 4e-15
    # over 10 s); radii: measured drift <= 3.5e-12 m
    assert np.max(np.abs(df["theta"] - theta0)) < 1e-12
    np.testing.assert_allclose(df["psi_dot"], sc["psi_dot"], rtol=1e-10)
    # contact point and centre on circles about the origin with the predicted radii
    np.testing.assert_allclose(np.hypot(df["x"], df["y"]), abs(sc["radius"]), atol=1e-10)
    np.testing.assert_allclose(np.hypot(df["x0"], df["y0"]), abs(sc["radius_centre"]),
                               atol=1e-10)
    np.testing.assert_allclose(df["z0"], d.R * np.sin(theta0), atol=1e-12)
    # the contact point really travels: swept angle = psi_dot * t
    assert abs(sc["psi_dot"]) * 10.0 > 1.0
    # horizontal force = centripetal force of the centre, -m Omega^2 (x0, y0) (independent of the
    # steady-circle relation: it follows from Newton's law alone)
    F = df[["Fx", "Fy"]].to_numpy()
    mw2 = d.m * sc["psi_dot"]**2  # N/m: the position drift (<= 3.5e-12 m) times m Omega^2
    np.testing.assert_allclose(F, -mw2 * df[["x0", "y0"]].to_numpy(), atol=1e-10 * mw2)


def test_disk_steady_circle_classical_formulas():
    d = DISKS["homogeneous"]
    # Euler's disk (centre at rest): Omega^2 = m g R / (A sin theta) = 4 g / (R sin theta)
    for th in (0.3, 0.9, 1.3):
        sc = d.steady_circle(th, radius_centre=0.0)
        assert sc["psi_dot"]**2 == pytest.approx(4 * G / (d.R * np.sin(th)), rel=1e-13)
        assert sc["omega3"] == pytest.approx(0.0, abs=roundoff(abs(sc["psi_dot"])))  # no spin about the axis
    # coin on a large circle: tan(alpha) = (C + m R^2) v^2 / (m g R^2 rho), alpha = pi/2 - theta,
    # = 3 v^2 / (2 g rho) for the homogeneous disk. The exact relation has the extra factor
    # 1 - ((C + m R^2 - A)/(C + m R^2)) (R/rho) sin(alpha) = 1 - 8.3e-4 sin(alpha) here: measured
    # deviations 4.2e-5, 1.7e-4, 4.0e-4, all < 1e-3
    rho = 1e3 * d.R
    for alpha in (0.05, 0.2, 0.5):
        sc = d.steady_circle(np.pi / 2 - alpha, radius=rho)
        v = sc["speed"]
        assert np.tan(alpha) == pytest.approx(3 * v**2 / (2 * G * rho), rel=1e-3)
    # the disk leans into the turn: no steady circle with the "wrong" lean
    with pytest.raises(NonholonomicError):
        d.steady_circle(1.2, radius=-0.5)
    with pytest.raises(NonholonomicError):
        d.steady_circle(np.pi / 2, radius=1.0)
    with pytest.raises(NonholonomicError):
        d.steady_circle(1.2, radius=1.0, precession=2.0)


def test_disk_bad_input():
    with pytest.raises(NonholonomicError):
        RollingDisk(1.0, 0.3, 0.01, 0.05)  # C > 2 A
    with pytest.raises(NonholonomicError):
        RollingDisk(-1.0, 0.3, 0.02, 0.04)
    with pytest.raises(NonholonomicError):
        DISKS["homogeneous"].simulate([0.0, 0, 0, 0, 0, 0, 0, 0], [0.0, 1.0])
    with pytest.raises(NonholonomicError):
        DISKS["homogeneous"].simulate([1.0, 0, 0], [0.0, 1.0])


# ============================================================================== Chaplygin ball
def random_ball_state(b, rng):
    q = rng.normal(size=4)
    q *= np.sign(q[0]) / np.linalg.norm(q)
    return b.state(rng.uniform(-3, 3, 3), q, *rng.uniform(-1, 1, 2))


@pytest.mark.parametrize("name", BALLS)
def test_ball_world_round_trip(name):
    b = BALLS[name]
    rng = np.random.default_rng(4)
    Y = np.stack([random_ball_state(b, rng) for _ in range(50)], 1)  # (12, 50)
    W = b.to_world(Y)
    T = ball_q2m(W["Q"])
    w_world = np.einsum("kij,kj->ki", T, W["w_b"])
    for back in (b.from_world(W["r_0"], W["Q"], W["v_0"], W["w_b"], frame="body"),
                 b.from_world(W["r_0"], T, W["v_0"], w_world, continuous=False)):
        np.testing.assert_allclose(back, Y, rtol=0, atol=roundoff(np.abs(Y).max()))  # measured 1.3e-15
    s = Y[:, 0]
    w = b.to_world(s)
    np.testing.assert_allclose(b.from_world(w["r_0"], w["Q"], w["v_0"], w["w_b"], "body"), s,
                               atol=roundoff(np.abs(s).max()))
    # one formula each, round-off of size 1 (unit vectors, R) or of the velocities
    np.testing.assert_allclose(W["r_0"][:, 2], b.R, rtol=roundoff())
    np.testing.assert_allclose(b.slip_velocity(W["r_0"], W["v_0"], w_world), 0.0,
                               atol=roundoff(np.abs(W["v_0"]).max() + b.R * np.abs(w_world).max()))
    np.testing.assert_allclose(b.attitude_residual(Y), 0.0, atol=roundoff())
    # omega(M, gamma) inverts M(omega, gamma): a 3x3 solve and a product, round-off of |M|
    np.testing.assert_allclose(b.angular_momentum(b.omega(Y[0:3], Y[3:6]), Y[3:6]), Y[0:3],
                               atol=roundoff(np.abs(Y[0:3]).max()))
    # quaternion from matrix: the inverse of quaternion_to_matrix (q0 >= 0 here)
    np.testing.assert_allclose(matrix_to_quaternion(T, continuous=False), W["Q"], atol=roundoff())
    # along a series the default keeps the sign continuous (q and -q are the same attitude)
    Qc = matrix_to_quaternion(T)
    np.testing.assert_allclose(np.abs(np.einsum("ki,ki->k", Qc, W["Q"])), 1.0, rtol=roundoff())


@pytest.mark.parametrize("name", BALLS)
def test_ball_integrals_conserved(name):
    b = BALLS[name]
    s0 = b.state([1.0, -2.0, 0.5], [0.9, 0.2, -0.3, 0.1], 0.3, 0.4)
    df = b.simulate(s0, np.linspace(0.0, 20.0, 801))
    first = df.iloc[0]
    Mn = np.sqrt(first["M_squared"])
    # measured over 20 s (asymmetric / strongly_asymmetric): energy 1.7e-11 / 9.4e-12,
    # M^2 2.6e-11 / 3.9e-11, gamma^2 6.8e-11 / 1.5e-11, (M, gamma)/|M| 6.6e-11 / 4.0e-11,
    # |Q| 3.7e-12 / 5.1e-12, attitude residual 5.4e-11 / 2.2e-11; all < 1e-9 (rtol 1e-11)
    assert np.max(np.abs(df["energy"] / first["energy"] - 1)) < 1e-9
    assert np.max(np.abs(df["M_squared"] / first["M_squared"] - 1)) < 1e-9
    assert np.max(np.abs(df["gamma_squared"] - 1)) < 1e-9
    assert np.max(np.abs(df["M_gamma"] - first["M_gamma"])) / Mn < 1e-9  # |gamma| = 1 scale
    assert np.max(np.abs(df["quat_norm"] - 1)) < 1e-9
    assert df["attitude_residual"].max() < 1e-9  # integrated gamma = T(Q)^T ez
    assert np.ptp(df["omega3"]) > 0.5 and np.ptp(df["gamma3"]) > 0.5  # the motion is not trivial
    np.testing.assert_allclose(b.energy(s0), first["energy"], rtol=roundoff())  # one formula, two paths


def newton_euler_ball(b, T, w_b):
    """Brute-force 3-D Newton-Euler solve: (a_0, w_b', N) for the ball at a world state."""
    m, R = b.m, b.R
    Ib = np.diag(b.I)
    r = -R * EZ  # centre -> contact point; constant in the world, so d r/dt = 0
    X, bound = rolling_newton_euler(m, Ib, T, w_b, r, np.zeros(3))  # w x dr/dt vanishes
    return X[0:3], X[3:6], X[6:9], bound


@pytest.mark.parametrize("name", BALLS)
def test_ball_reduced_equations_match_newton_euler_3d(name):
    b = BALLS[name]
    rng = np.random.default_rng(5)
    worst = 0.0
    mr2 = b.m * b.R**2
    for _ in range(40):
        y = random_ball_state(b, rng)
        W = b.to_world(y)
        T = ball_q2m(W["Q"])
        a0, dwb, N, bound = newton_euler_ball(b, T, W["w_b"])
        # map to (M', gamma'): derivative of M = I w + m R^2 (w - (w, gamma) gamma), gamma = T^T ez
        w, gamma = W["w_b"], T.T @ EZ
        dgamma = -np.cross(w, gamma)  # d/dt (T^T ez) = -[w]x T^T ez
        dM = b.I * dwb + mr2 * (dwb - (dwb @ gamma) * gamma - (w @ dgamma) * gamma
                                - (w @ gamma) * dgamma)
        dQ = 0.5 * np.array([-W["Q"][1:] @ w,
                             *(W["Q"][0] * w + np.cross(W["Q"][1:], w))])  # Q' = Q o (0, w)/2
        brute = np.concatenate([dM, dgamma, dQ, W["v_0"][:2]])
        f = b.rhs(0.0, y)
        worst = max(worst, np.max(np.abs(f - brute)) / bound)  # in units of the solve's bound
        np.testing.assert_allclose(b.contact_force(y), N, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(a0[2], 0.0, atol=bound)  # the centre stays at height R
    assert worst < 1  # bound ~1e-12 .. 5e-12; measured 4.6e-16 (relative to 1 + |value|)


def test_ball_world_trajectory_is_consistent():
    b = BALLS["strongly_asymmetric"]
    h = 1e-3
    t = 2.3 + h * np.arange(-2, 3)
    s0 = b.state([2.0, 0.5, -1.0], [0.6, -0.4, 0.5, 0.3])
    df = b.simulate(s0, np.concatenate([[0.0], t]))
    cols = ["M1", "M2", "M3", "gamma1", "gamma2", "gamma3", "q0", "q1", "q2", "q3", "x", "y"]
    Y = df[cols].to_numpy().T[:, 1:]
    W = b.to_world(Y)
    T = ball_q2m(W["Q"])
    stencil = np.array([1.0, -8.0, 0.0, 8.0, -1.0]) / (12 * h)
    # same error budget as the disk; measured 4e-14 (dr) and 7e-13 (dT)
    np.testing.assert_allclose(np.einsum("k,ki->i", stencil, W["r_0"]), W["v_0"][2], atol=1e-8)
    np.testing.assert_allclose(np.einsum("k,kij->ij", stencil, T), T[2] @ skew(W["w_b"][2]),
                               atol=1e-8)


def test_ball_special_motions():
    # equal moments: omega is constant in the world (I w' = 0 ... the rolling ball of Routh),
    # the contact point moves on a straight line at speed R |w_horizontal|
    b = ChaplyginBall(1.0, 0.5, 0.1, 0.1, 0.1, G)
    s0 = b.state([1.0, 2.0, -0.5], [0.8, 0.1, 0.5, -0.3])
    t = np.linspace(0.0, 5.0, 51)
    df = b.simulate(s0, t)
    ww = ball_q2m(s0[6:10]) @ np.array([1.0, 2.0, -0.5])
    np.testing.assert_allclose(df["x"], s0[10] + b.R * ww[1] * t, atol=1e-10)
    np.testing.assert_allclose(df["y"], s0[11] - b.R * ww[0] * t, atol=1e-10)
    # permanent rotation about a vertical principal axis: a steady motion, contact point at rest
    b = BALLS["asymmetric"]
    s1 = b.state([0.0, 0.0, 3.0])  # Q = identity: body z vertical
    df = b.simulate(s1, np.linspace(0.0, 5.0, 11))
    # exactly steady (M parallel to omega and gamma, all vertical): round-off of the rates (size
    # omega^2 = 9 rad/s^2, and R omega for x, y) integrated over the 5 s
    np.testing.assert_allclose(df[["omega1", "omega2", "omega3"]].to_numpy(),
                               [[0.0, 0.0, 3.0]] * 11, atol=5.0 * roundoff(3.0**2))
    np.testing.assert_allclose(df[["x", "y"]].to_numpy(), 0.0, atol=5.0 * roundoff(b.R * 3.0))


def test_ball_bad_input():
    with pytest.raises(NonholonomicError):
        ChaplyginBall(1.0, 0.5, 0.01, 0.02, 0.05)  # I3 > I1 + I2
    with pytest.raises(NonholonomicError):
        ChaplyginBall(1.0, 0.0, 0.1, 0.1, 0.1)
    with pytest.raises(NonholonomicError):
        BALLS["asymmetric"].simulate(np.zeros(6), [0.0, 1.0])
    with pytest.raises(NonholonomicError):
        BALLS["asymmetric"].from_world([0, 0, 0.5], np.eye(2), [0, 0, 0], [0, 0, 0])
