"""Tests of the Chaplygin sleigh and ideal wheelset reference models (seeds 003 and 002).

Each model is checked on its own: energy integral, closed-form solution, asymptotics (sleigh), an
independent brute-force Newton-Euler solve at random states (the sleigh as one planar body with a
blade force; the wheelset as three 3-D bodies with two revolute joints and two rolling contacts,
accelerations and reactions from one linear solve), and the world-mapping round trips.
"""

import numpy as np
import pytest

from nonholonomic.errors import NonholonomicError
from nonholonomic.references.chaplygin_sleigh import COLUMNS as SLEIGH_COLUMNS
from nonholonomic.references.chaplygin_sleigh import ChaplyginSleigh
from nonholonomic.references.wheelset import COLUMNS as WHEELSET_COLUMNS
from nonholonomic.references.wheelset import Wheelset, cylinder_axle, thin_disk

from bounds import roundoff

G = 9.81
K = np.array([0.0, 0.0, 1.0])


def _skew(v):
    return np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])


# ================================================================================ sleigh
SLEIGHS = {  # (m, I, a), initial state (x, y, psi, v, omega)
    "a>0": ((2.0, 0.3, 0.25), (0.1, -0.2, 0.4, 0.7, 1.5)),
    "a<0": ((1.5, 0.05, -0.4), (0.0, 0.0, -1.0, -0.3, -2.0)),
    "a>0, v0<0": ((3.0, 0.5, 0.1), (1.0, 2.0, 2.5, -1.2, 0.8)),
}


@pytest.mark.parametrize("name", SLEIGHS)
def test_sleigh_energy_and_closed_form(name):
    params, y0 = SLEIGHS[name]
    s = ChaplyginSleigh(*params)
    t = np.linspace(0.0, 20.0, 801)
    df = s.simulate(y0, t)
    assert list(df.columns) == list(SLEIGH_COLUMNS)
    e0 = s.energy(np.array(y0))
    # DOP853 at rtol = atol = 1e-12: measured drift 2.7e-13 .. 2.4e-12 J (E0 = 0.65 .. 2.3 J)
    assert np.max(np.abs(df["energy"] - e0)) < 1e-10
    cf = s.closed_form(y0, t)
    err = np.max(np.abs(df[["psi", "v", "omega"]].to_numpy() - cf[["psi", "v", "omega"]].to_numpy()))
    assert err < 1e-8  # measured 2.2e-12 .. 7.7e-12 (integration error only)
    np.testing.assert_allclose(cf["energy"], e0, rtol=1e-13)  # the closed form is on the energy level
    # centre of mass columns: r_C = r_P - a e1
    # (one formula: round-off of the positions, which reach tens of metres)
    size = np.abs(df[["x", "y"]].to_numpy()).max()
    np.testing.assert_allclose(df["x_c"], df["x"] - s.a * np.cos(df["psi"]), atol=roundoff(size))
    np.testing.assert_allclose(df["y_c"], df["y"] - s.a * np.sin(df["psi"]), atol=roundoff(size))


@pytest.mark.parametrize("name", SLEIGHS)
def test_sleigh_asymptotics(name):
    params, y0 = SLEIGHS[name]
    s = ChaplyginSleigh(*params)
    V = np.sqrt(2.0 * s.energy(np.array(y0)) / s.m)
    assert s.limit_speed(y0) == pytest.approx(V, rel=roundoff(ulps=8))  # the same few operations
    assert s.limit_velocity(y0) == pytest.approx(-np.sign(s.a) * V, rel=roundoff(ulps=8))
    rate = 2.0 * s.m * abs(s.a) * V / s.J  # v_inf - v ~ exp(-rate t)
    t_end = 40.0 / rate + 5.0  # exp(-40) ~ 4e-18: the limit is reached to rounding
    df = s.simulate(y0, np.linspace(0.0, t_end, 401))
    last = df.iloc[-1]
    assert abs(last["v"] - s.limit_velocity(y0)) < 1e-9  # measured <= 8e-14
    assert abs(last["omega"]) < 1e-8  # exact |omega| = sqrt(m/J) V sech(k t - u0) <= 7e-11 here
    np.testing.assert_allclose(last["omega"], s.closed_form(y0, [t_end])["omega"][0], atol=1e-12)
    assert abs(last["psi"] - s.limit_heading(y0)) < 1e-8  # measured <= 7e-11
    # the path becomes straight: heading of the displacement over the last stretch = psi_inf
    dx, dy = df["x"].iloc[-1] - df["x"].iloc[-50], df["y"].iloc[-1] - df["y"].iloc[-50]
    travel = np.arctan2(dy, dx) - (s.limit_heading(y0) + (np.pi if s.limit_velocity(y0) < 0 else 0))
    assert abs(np.angle(np.exp(1j * travel))) < 1e-8


def test_sleigh_special_cases():
    s = ChaplyginSleigh(2.0, 0.3, 0.25)
    t = np.linspace(0.0, 3.0, 31)
    # omega0 = 0: straight uniform motion, both signs of v0 (v0 > 0 is an unstable equilibrium)
    for v0 in (0.8, -0.8):
        df = s.simulate((0.0, 0.0, 0.3, v0, 0.0), t)
        # exactly uniform by construction: every term of v' and omega' carries omega = 0 (measured 0)
        np.testing.assert_allclose(df["v"], v0, atol=roundoff(abs(v0)))
        np.testing.assert_allclose(df["omega"], 0.0, atol=roundoff())
        np.testing.assert_allclose(s.closed_form((0.0, 0.0, 0.3, v0, 0.0), t)["v"], v0, atol=0)
    # a = 0: uniform motion on a circle of radius v/omega
    s0 = ChaplyginSleigh(2.0, 0.3, 0.0)
    y0 = (0.0, 0.0, 0.0, 1.0, 2.0)
    df = s0.simulate(y0, t)
    np.testing.assert_allclose(df["psi"], 2.0 * t, atol=1e-10)
    r = np.hypot(df["x"] - 0.0, df["y"] - 0.5)  # centre (0, v/omega)
    np.testing.assert_allclose(r, 0.5, atol=1e-10)
    cf = s0.closed_form(y0, t)
    np.testing.assert_allclose(cf["psi"], df["psi"], atol=1e-10)
    # the speed decreases for a > 0, v > 0 (C behind the blade) and reverses
    df = s.simulate((0.0, 0.0, 0.0, 1.0, 0.5), np.linspace(0.0, 20.0, 201))
    assert df["v"].iloc[-1] < 0 < df["v"].iloc[0]


def test_sleigh_bad_input():
    for args in [(0.0, 1.0, 0.1), (1.0, -1.0, 0.1), (1.0, 1.0, np.nan), (1.0, 0.0, 0.0)]:
        with pytest.raises(NonholonomicError):
            ChaplyginSleigh(*args)
    s = ChaplyginSleigh(1.0, 0.1, 0.2)
    with pytest.raises(NonholonomicError):
        s.simulate((0.0, 0.0, 0.0, 1.0), [0.0, 1.0])
    with pytest.raises(NonholonomicError):
        s.simulate((0.0, 0.0, 0.0, 1.0, 0.0), [1.0, 0.0])


def sleigh_newton_euler(s, y):
    """Planar Newton-Euler with a blade force: solve for (a_C, alpha, lambda); return (v', w', lambda).

    Unknowns a_C (world x, y), alpha, lambda (force lambda e2 at P = C + a e1):
      m a_C = lambda e2,  I alpha = ((P - C) x lambda e2)_z,
      d/dt (v_P . e2) = (a_C + alpha k x rho + w k x (w k x rho)) . e2 + v_P . (w k x e2) = 0.
    """
    world = s.to_world(y)
    vC, w = world["v_0"], world["w_0"][2]
    T = world["T"]
    e1, e2 = T[:, 0], T[:, 1]
    rho = s.a * e1
    wv = np.array([0.0, 0.0, w])
    vP = vC + np.cross(wv, rho)
    assert abs(vP @ e2) < roundoff(np.abs(vC).max() + abs(w * s.a))  # to_world respects the blade constraint
    A = np.zeros((4, 4))
    rhs = np.zeros(4)
    A[0:2, 0:2] = s.m * np.eye(2)
    A[0:2, 3] = -e2[:2]
    A[2, 2], A[2, 3] = s.I, -np.cross(rho, e2)[2]
    A[3, 0:2] = e2[:2]
    A[3, 2] = np.cross(K, rho) @ e2
    rhs[3] = -np.cross(wv, np.cross(wv, rho)) @ e2 - vP @ np.cross(wv, e2)
    aC1, aC2, alpha, lam = np.linalg.solve(A, rhs)
    aC = np.array([aC1, aC2, 0.0])
    dv = aC @ e1 + vC @ np.cross(wv, e1)  # v = v_C . e1
    return np.array([dv, alpha, lam])


def test_sleigh_newton_euler_at_random_states():
    rng = np.random.default_rng(3)
    worst = 0.0
    for _ in range(20):
        m, I, a = rng.uniform(0.5, 3.0), rng.uniform(0.01, 1.0), rng.uniform(-0.5, 0.5)
        s = ChaplyginSleigh(m, I, a)
        y = np.array([*rng.normal(0, 1, 2), rng.uniform(-np.pi, np.pi), *rng.normal(0, 2, 2)])
        got = sleigh_newton_euler(s, y)
        d = s.rhs(0.0, y)
        want = np.array([d[3], d[4], s.reaction(y)])
        worst = max(worst, np.max(np.abs(got - want) / (1.0 + np.abs(want))))
    assert worst < 1e-12  # linear solve in double precision; measured 4e-16


def test_sleigh_world_round_trip():
    s = ChaplyginSleigh(2.0, 0.3, 0.25)
    rng = np.random.default_rng(5)
    ys = np.vstack([rng.normal(0, 1, (2, 50)), rng.uniform(-np.pi, np.pi, 50), rng.normal(0, 2, (2, 50))])
    world = s.to_world(ys, h=0.07)
    assert world["r_0"].shape == (50, 3) and world["Q"].shape == (50, 4) and world["T"].shape == (50, 3, 3)
    np.testing.assert_allclose(world["r_0"][:, 2], 0.07, atol=0)
    for att in (world["Q"], -world["Q"], world["T"]):
        back = s.from_world(world["r_0"], att, world["v_0"], world["w_0"])
        np.testing.assert_allclose(back, ys, atol=roundoff(np.abs(ys).max()))  # psi in (-pi, pi): no wrapping
    # single state; T is the rotation matrix of Q; v_0 = velocity of C; w_0 vertical
    y = ys[:, 0]
    one = s.to_world(y)
    q0, q3 = one["Q"][0], one["Q"][3]
    np.testing.assert_allclose(one["T"][:2, :2], [[q0**2 - q3**2, -2 * q0 * q3], [2 * q0 * q3, q0**2 - q3**2]],
                               atol=roundoff())
    # v_0 from a finite difference of r_0 along the motion
    h = 1e-6
    d = s.rhs(0.0, y)
    num = (s.to_world(y + h * d)["r_0"] - s.to_world(y - h * d)["r_0"]) / (2 * h)
    np.testing.assert_allclose(one["v_0"], num, atol=1e-8)  # central difference error ~ h^2
    # a state that slips across the blade is refused
    with pytest.raises(NonholonomicError):
        s.from_world(one["r_0"], one["Q"], one["v_0"] + 0.01 * one["T"][:, 1], one["w_0"])
    with pytest.raises(NonholonomicError):
        s.from_world(one["r_0"], one["Q"][:3], one["v_0"], one["w_0"])


# ================================================================================ wheelset
def make_wheelset(C_a=0.004):
    m_w, R = 1.3, 0.2
    # deliberately NOT a thin disk (C != 2A) so that A and C cannot be confused unnoticed
    return Wheelset(m_w=m_w, R=R, A=0.3 * m_w * R**2, C=0.55 * m_w * R**2, m_a=2.1, J_a=0.09,
                    C_a=C_a, b=0.35, g=G)


def test_inertia_helpers():
    assert thin_disk(2.0, 0.5) == (0.125, 0.25)
    J_a, C_a = cylinder_axle(3.0, 1.0, 0.1)
    assert J_a == pytest.approx(3.0 * (0.03 + 1.0) / 12.0) and C_a == pytest.approx(0.015)


STATES = {  # (x, y, psi, phi1, phi2, chi, dphi1, dphi2, dchi)
    "turning left": (0.3, -0.1, 0.5, 0.0, 1.0, 0.2, 12.0, 7.0, 3.0),
    "reversing, psi increasing": (0.0, 0.0, -2.0, 0.5, 0.0, 0.0, -3.0, -9.0, -1.0),
    "straight": (1.0, 2.0, 1.0, 0.0, 0.0, 0.0, 5.0, 5.0, 0.0),
    "spin in place": (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 4.0, -4.0, 2.0),
}


@pytest.mark.parametrize("name", STATES)
def test_wheelset_energy_and_closed_form(name):
    ws = make_wheelset()
    y0 = STATES[name]
    t = np.linspace(0.0, 10.0, 401)
    df = ws.simulate(y0, t)
    assert list(df.columns) == list(WHEELSET_COLUMNS)
    e0 = ws.energy(np.array(y0))
    assert np.max(np.abs(df["energy"] - e0)) < 1e-12 * max(e0, 1.0)  # measured 0: the rates are exact
    cf = ws.closed_form(y0, t)
    assert list(cf.columns) == list(WHEELSET_COLUMNS)
    err = np.max(np.abs(df.drop(columns="time").to_numpy() - cf.drop(columns="time").to_numpy()))
    assert err < 1e-8  # measured <= 1.4e-12 (integration error of x, y over 10 s)
    # geometry of the free motion: midpoint and both contacts on concentric circles
    c = ws.circle(y0)
    if np.isfinite(c["radius"]):
        rM = np.hypot(df["x"] - c["xc"], df["y"] - c["yc"])
        r1 = np.hypot(df["x1"] - c["xc"], df["y1"] - c["yc"])
        r2 = np.hypot(df["x2"] - c["xc"], df["y2"] - c["yc"])
        np.testing.assert_allclose(rM, c["radius"], atol=1e-9)
        rho = c["v"] / c["omega"]  # signed: wheel 1 (right) is on the outside when turning left
        np.testing.assert_allclose(r1, abs(rho + ws.b), atol=1e-9)
        np.testing.assert_allclose(r2, abs(rho - ws.b), atol=1e-9)
    # contact points are +-b n from the midpoint, n = (-sin psi, cos psi)
    # (one formula: round-off of the positions)
    size = np.abs(df[["x1", "y1", "x2", "y2"]].to_numpy()).max()
    np.testing.assert_allclose(df["x2"] - df["x1"], -2 * ws.b * np.sin(df["psi"]), atol=roundoff(size))
    np.testing.assert_allclose(df["y2"] - df["y1"], 2 * ws.b * np.cos(df["psi"]), atol=roundoff(size))


def test_wheelset_rolling_kinematics():
    """Each contact point of the reduced model moves along e_f with speed R phi_i' (no slip)."""
    ws = make_wheelset()
    y0 = STATES["turning left"]
    t = np.linspace(0.0, 1.0, 2001)
    df = ws.simulate(y0, t)
    dt = t[1] - t[0]
    for i in (1, 2):
        vx = np.gradient(df[f"x{i}"], dt)[5:-5]
        vy = np.gradient(df[f"y{i}"], dt)[5:-5]
        psi = df["psi"].to_numpy()[5:-5]
        speed = ws.R * df[f"dphi{i}"].to_numpy()[5:-5]
        np.testing.assert_allclose(vx, speed * np.cos(psi), atol=1e-5)  # central differences, h^2 error
        np.testing.assert_allclose(vy, speed * np.sin(psi), atol=1e-5)


def test_wheelset_motor_torques_energy_balance():
    """Constant joint torques: exact rates are linear in t; dT/dt = sum tau_i (phi_i' - chi')."""
    ws = make_wheelset()
    y0 = np.array(STATES["turning left"])
    tau = (0.4, -0.15)
    t = np.linspace(0.0, 3.0, 301)
    df = ws.simulate(y0, t, torques=tau)
    a1, a2, a3 = ws.accelerations(y0, *tau)
    np.testing.assert_allclose(df["dphi1"], y0[6] + a1 * t, atol=1e-10)
    np.testing.assert_allclose(df["dphi2"], y0[7] + a2 * t, atol=1e-10)
    np.testing.assert_allclose(df["dchi"], y0[8] + a3 * t, atol=1e-10)
    work = tau[0] * (df["phi1"] - df["chi"] - (y0[3] - y0[5])) \
        + tau[1] * (df["phi2"] - df["chi"] - (y0[4] - y0[5]))
    np.testing.assert_allclose(df["energy"] - df["energy"][0], work, atol=1e-9)  # measured 9e-14
    with pytest.raises(NonholonomicError):
        make_wheelset(C_a=0.0).simulate(y0, t, torques=tau)


def test_wheelset_bad_input():
    with pytest.raises(NonholonomicError):
        Wheelset(1.0, 0.0, 0.1, 0.1, 1.0, 0.1, 0.1, 0.3)
    with pytest.raises(NonholonomicError):
        Wheelset(1.0, 0.2, 0.1, 0.1, -1.0, 0.1, 0.1, 0.3)
    with pytest.raises(NonholonomicError):
        make_wheelset().simulate((0.0,) * 8, [0.0, 1.0])


def wheelset_newton_euler(ws, y, tau1, tau2):
    """Three bodies (axle, wheel 1, wheel 2) in 3-D: one linear solve for accelerations and reactions.

    Unknowns (34): a, alpha of each body (18); joint i: force F_Ji on the wheel at its centre and
    torque mu_i1 p + mu_i2 q (p, q = axle body x, y axes, perpendicular to the axle) (2 x 5);
    contact i: force F_Ki on the wheel at the lowest rim point (2 x 3). Equations (34):
      Newton-Euler of each body, m a = F + m g, I alpha + w x I w = torque (18);
      joint i: a_i - a_a - alpha_a x rho_i - w_a x (w_a x rho_i) = 0,
               d/dt[(w_i - w_a) . p] = 0, same for q                            (2 x 5);
      contact i: centre height R sqrt(1 - (k.n_i)^2) -> z''_i = -R (k.(w_i x n_i))^2,
               horizontal part of d/dt[v_i + w_i x rho_K(q)] = 0                 (2 x 3).
    The matrix has rank 33 (the two lateral no-slip conditions coincide): returns the min-norm
    solution, the singular values and the null vector.
    """
    world = ws.to_world(y)
    ax, w1, w2 = world["axle"], world["wheel1"], world["wheel2"]
    g_vec = np.array([0.0, 0.0, -G])
    Ta = ax["T"]
    p, q, n = Ta[:, 0], Ta[:, 1], Ta[:, 2]
    PQ = np.column_stack([p, q])
    Ia = Ta @ np.diag([ws.J_a, ws.J_a, ws.C_a]) @ Ta.T
    wa = ax["w_0"]
    A = np.zeros((34, 34))
    rhs = np.zeros(34)
    A[0:3, 0:3] = ws.m_a * np.eye(3)
    rhs[0:3] = ws.m_a * g_vec
    A[3:6, 3:6] = Ia
    rhs[3:6] = -np.cross(wa, Ia @ wa) - (tau1 + tau2) * n
    row = 6
    for i, (body, tau) in enumerate(((w1, tau1), (w2, tau2))):
        ia, il = 6 + 6 * i, 6 + 6 * i + 3  # this wheel's a, alpha columns
        jf, jm = 18 + 5 * i, 18 + 5 * i + 3  # joint force, joint torque multipliers
        kf = 28 + 3 * i  # contact force
        Tw, ww = body["T"], body["w_0"]
        nw = Tw[:, 2]
        Iw = Tw @ np.diag([ws.A, ws.A, ws.C]) @ Tw.T
        rho = body["r_0"] - ax["r_0"]
        kp = K - (K @ nw) * nw
        rhoK = -ws.R * kp / np.linalg.norm(kp)
        sdot = K @ np.cross(ww, nw)
        rhoK_dot = ws.R * sdot * nw
        # velocity-level constraints hold for the state given by to_world
        # (one formula each: round-off of the velocities and rates)
        rate = np.abs(ww).max() + np.abs(wa).max()
        size = np.abs(body["v_0"]).max() + np.abs(ax["v_0"]).max() + (ws.R + ws.b) * rate
        assert np.allclose(body["v_0"] + np.cross(ww, rhoK), 0.0, atol=roundoff(size))
        assert np.allclose(body["v_0"] - ax["v_0"] - np.cross(wa, rho), 0.0, atol=roundoff(size))
        assert np.allclose(np.cross(ww - wa, n), 0.0, atol=roundoff(rate))
        assert abs(body["r_0"][2] - ws.R) < roundoff(ws.R) and abs(sdot) < roundoff(rate)
        # axle: -F_Ji at r_a + rho, -joint torque
        A[0:3, jf:jf + 3] += np.eye(3)
        A[3:6, jf:jf + 3] += _skew(rho)
        A[3:6, jm:jm + 2] += PQ
        # wheel dynamics
        A[row:row + 3, ia:ia + 3] = ws.m_w * np.eye(3)
        A[row:row + 3, jf:jf + 3] = -np.eye(3)
        A[row:row + 3, kf:kf + 3] = -np.eye(3)
        rhs[row:row + 3] = ws.m_w * g_vec
        A[row + 3:row + 6, il:il + 3] = Iw
        A[row + 3:row + 6, jm:jm + 2] = -PQ
        A[row + 3:row + 6, kf:kf + 3] = -_skew(rhoK)
        rhs[row + 3:row + 6] = -np.cross(ww, Iw @ ww) + tau * n
        row += 6
        # joint position
        A[row:row + 3, ia:ia + 3] = np.eye(3)
        A[row:row + 3, 0:3] = -np.eye(3)
        A[row:row + 3, 3:6] = _skew(rho)
        rhs[row:row + 3] = np.cross(wa, np.cross(wa, rho))
        row += 3
        # joint orientation
        for e in (p, q):
            A[row, il:il + 3] = e
            A[row, 3:6] = -e
            rhs[row] = -(ww - wa) @ np.cross(wa, e)
            row += 1
        # contact: normal (holonomic) and tangential (no slip)
        A[row, ia:ia + 3] = K
        rhs[row] = -ws.R * sdot**2
        row += 1
        tang = np.hstack([np.eye(3), -_skew(rhoK)])[:2]
        A[row:row + 2, ia:ia + 3], A[row:row + 2, il:il + 3] = tang[:, :3], tang[:, 3:]
        rhs[row:row + 2] = -np.cross(ww, rhoK_dot)[:2]
        row += 2
    assert row == 34
    z, *_ = np.linalg.lstsq(A, rhs, rcond=1e-12)
    _, sv, vt = np.linalg.svd(A)
    return z, sv, vt[-1], np.linalg.norm(A @ z - rhs)


def test_wheelset_newton_euler_at_random_states():
    ws = make_wheelset()
    rng = np.random.default_rng(11)
    worst = 0.0
    for _ in range(12):
        y = np.array([*rng.normal(0, 1, 2), *rng.uniform(-np.pi, np.pi, 4), *rng.normal(0, 8, 3)])
        tau1, tau2 = rng.normal(0, 0.5, 2)
        z, sv, null, resid = wheelset_newton_euler(ws, y, tau1, tau2)
        assert resid < 1e-10  # the system is consistent (measured <= 4e-13 on |rhs| ~ 10 .. 100)
        # exactly one redundant constraint: Kosenko's static indeterminacy along the axle
        assert sv[-1] < 1e-13 * sv[0] and sv[-2] > 1e-6 * sv[0]  # measured 4e-16 and 1.3e-3
        assert np.max(np.abs(null[:18])) < 1e-12  # ... leaves the accelerations unique; measured 3e-14
        world = ws.to_world(y)
        Ta = world["axle"]["T"]
        n = Ta[:, 2]
        ef = np.cross(n, K)
        wa = world["axle"]["w_0"]
        a_a, al_a = z[0:3], z[3:6]
        # the null vector: equal and opposite lateral (along n) contact forces, no N or f change
        for kf in (28, 31):
            assert abs(null[kf:kf + 3] @ K) < 1e-12 and abs(null[kf:kf + 3] @ ef) < 1e-12
        assert abs(null[28:31] @ n + null[31:34] @ n) < 1e-12 and abs(null[28:31] @ n) > 0.1
        # reduced quantities from the 3-D accelerations
        v, w = ws.speeds(y)
        got = [a_a @ ef,                                     # dv/dt (e_f' = w k x e_f is _|_ v_M)
               al_a @ K,                                     # domega/dt
               z[9:12] @ n + world["wheel1"]["w_0"] @ np.cross(wa, n),   # phi1''
               z[15:18] @ n + world["wheel2"]["w_0"] @ np.cross(wa, n),  # phi2''
               al_a @ n]                                     # chi''
        d = ws.rhs(0.0, y, torques=(tau1, tau2))
        want = [0.5 * ws.R * (d[6] + d[7]), 0.5 * ws.R * (d[6] - d[7]) / ws.b, d[6], d[7], d[8]]
        np.testing.assert_allclose(a_a @ n, v * w, atol=1e-11)  # centripetal acceleration of M
        np.testing.assert_allclose(a_a @ K, 0.0, atol=1e-11)
        F1, F2 = z[28:31], z[31:34]
        r = ws.reactions(y, tau1, tau2)
        got += [F1 @ ef, F2 @ ef, (F1 + F2) @ n, F1 @ K, F2 @ K]
        want += [r["f1"], r["f2"], r["g_sum"], r["N1"], r["N2"]]
        got, want = np.array(got), np.array(want)
        worst = max(worst, np.max(np.abs(got - want) / (1.0 + np.abs(want))))
    assert worst < 1e-10  # double-precision solves, sigma_max/sigma_33 ~ 7e2; measured 9e-13


def test_wheelset_world_round_trip_and_checks():
    ws = make_wheelset()
    rng = np.random.default_rng(2)
    k = 40
    ys = np.vstack([rng.normal(0, 1, (2, k)), rng.uniform(-np.pi, np.pi, (4, k)), rng.normal(0, 8, (3, k))])
    world = ws.to_world(ys)
    assert world["wheel1"]["Q"].shape == (k, 4) and world["axle"]["T"].shape == (k, 3, 3)
    back = ws.from_world(world["axle"], world["wheel1"], world["wheel2"])
    np.testing.assert_allclose(back, ys, atol=1e-12)  # angles drawn in (-pi, pi): no wrapping
    # by T only, by -Q only, and a single state
    only_T = {b: {kk: vv for kk, vv in world[b].items() if kk != "Q"} for b in world}
    neg_Q = {b: {**{kk: vv for kk, vv in world[b].items() if kk != "T"}, "Q": -world[b]["Q"]} for b in world}
    for w in (only_T, neg_Q):
        np.testing.assert_allclose(ws.from_world(w["axle"], w["wheel1"], w["wheel2"]), ys, atol=1e-12)
    y = ys[:, 0]
    one = ws.to_world(y)
    # conventions: all body z axes along n = (-sin psi, cos psi, 0), from wheel 1 to wheel 2
    n = np.array([-np.sin(y[2]), np.cos(y[2]), 0.0])
    for b in ("axle", "wheel1", "wheel2"):
        # rotation matrices from one formula: round-off of size 1 (measured 2.2e-16 .. 4.4e-16)
        np.testing.assert_allclose(one[b]["T"][:, 2], n, atol=roundoff())
        np.testing.assert_allclose(one[b]["T"] @ one[b]["T"].T, np.eye(3), atol=roundoff())
    np.testing.assert_allclose(one["wheel2"]["r_0"] - one["wheel1"]["r_0"], 2 * ws.b * n,
                               atol=roundoff(np.abs(one["wheel1"]["r_0"]).max()))
    # joint: T_axle^T T_wheel = Rz(phi_i - chi)
    for i in (1, 2):
        rel = one["axle"]["T"].T @ one[f"wheel{i}"]["T"]
        ang = y[2 + i] - y[5]
        np.testing.assert_allclose(rel, [[np.cos(ang), -np.sin(ang), 0], [np.sin(ang), np.cos(ang), 0],
                                         [0, 0, 1]], atol=roundoff())
    # v_0 and w_0 are the time derivatives of r_0 and T along the motion (finite differences)
    h = 1e-6
    d = ws.rhs(0.0, y)
    plus, minus = ws.to_world(y + h * d), ws.to_world(y - h * d)
    for b in ("axle", "wheel1", "wheel2"):
        np.testing.assert_allclose(one[b]["v_0"], (plus[b]["r_0"] - minus[b]["r_0"]) / (2 * h), atol=1e-7)
        dT = (plus[b]["T"] - minus[b]["T"]) / (2 * h)
        W = dT @ one[b]["T"].T  # = skew(w_0)
        np.testing.assert_allclose([W[2, 1], W[0, 2], W[1, 0]], one[b]["w_0"], atol=1e-7)
    # violations are refused: a slipping wheel, a lifted axle
    bad = {b: dict(one[b]) for b in one}
    bad["wheel1"]["v_0"] = one["wheel1"]["v_0"] + 0.01 * n
    with pytest.raises(NonholonomicError):
        ws.from_world(bad["axle"], bad["wheel1"], bad["wheel2"])
    bad = {b: dict(one[b]) for b in one}
    bad["axle"]["r_0"] = one["axle"]["r_0"] + np.array([0.0, 0.0, 0.01])
    with pytest.raises(NonholonomicError):
        ws.from_world(bad["axle"], bad["wheel1"], bad["wheel2"])
