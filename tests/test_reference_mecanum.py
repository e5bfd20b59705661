"""Tests of the mecanum vehicle with massless rollers of finite size (references/mecanum_massless.py) and of the
frozen inclined rollers of sweep.py.

Independent checks: the contact geometry against a brute-force envelope of the explicitly placed roller; gamma = 0
and n = None against BKM (omni_massless); energy between roller changes; the Carnot loss and the constraints at
each change against the full-space projection built here from 3-D kinematics; a second formulation (Lagrange
multipliers in the world coordinates (x, y, phi, chi), complex-step derivatives) over a short interval; the
mirror-symmetric mecanum car moving straight (omega = 0 kept, no velocity jumps); the inclined roller's inertia
against a quadrature of the union of balls.
"""

import math

import numpy as np
import pytest
from scipy.integrate import quad, solve_ivp
from scipy.optimize import minimize_scalar

from nonholonomic import sweep
from nonholonomic.references.mecanum_massless import MecanumMassless
from nonholonomic.references.omni_massless import OmniMassless

from bounds import roundoff

POS = np.array([(0.2, 0.12), (-0.18, 0.1), (-0.2, -0.13), (0.21, -0.09)])
DIRS = [0.1, 0.3, -0.2, 1.2]
H = [0.05, 0.06, 0.045, 0.05]
IW = [4e-4, 6e-4, 3e-4, 5e-4]
STATE = [0.0, 0.0, 0.0, 0.7, -0.4, 2.0]
COLS = ["x", "y", "phi", "v1", "v2", "omega"]
# DOP853 at rtol = atol = 1e-12 keeps each step's local error below 1e-12 of the state's size (~1 here); over
# the <= 1000 steps of 1 s the global error of either integration is below 1e-9 (errors add up at worst)
TOL_RUN = 1e-9


def _general(delta, n=4, d=0.03, phase=(0.0, 0.3, -0.2, 0.5)):
    """4 wheels, unequal radii, inertias and phases, offset centre of mass (d < h cos(pi/n) for every wheel)."""
    return MecanumMassless(POS, DIRS, H, IW, delta, 3.0, 0.09, (0.03, -0.02), n=n, d=d, phase=phase)


def _rot(axis, angle, v):
    """Rodrigues: v turned by angle about the unit axis."""
    axis = np.asarray(axis, float)
    return v * np.cos(angle) + np.cross(axis, v) * np.sin(angle) + axis * (axis @ v) * (1 - np.cos(angle))


# ---------------------------------------------------------------- geometry, by brute force
def _contact_by_envelope(h, d, delta, n, psi):
    """Wheel frame (e, a, z) = unit vectors; hub centre at (0, 0, h). The roller centred at the bottom at psi = 0
    has its centre at -d z and its axis cos(gamma) e - sin(gamma) a; the hub turns by psi about a (forward
    rolling). The roller is the union of the balls of radius rho(c) on its axis; its lowest point is found by
    minimising the balls' bottoms over c. Returns (P, axis, sphere centre)."""
    gamma = np.pi / 2 - delta
    e, a, z = np.eye(3)
    centre = _rot(a, psi, -d * z) + h * z
    axis = _rot(a, psi, np.cos(gamma) * e - np.sin(gamma) * a)
    c_max = d * np.tan(np.pi / n) / np.cos(gamma)

    def bottom(c):
        return (centre + c * axis)[2] - (h - np.sqrt(d**2 + (c * np.cos(gamma)) ** 2))

    res = minimize_scalar(bottom, bounds=(-c_max, c_max), method="bounded", options={"xatol": 1e-13 * d})
    c = res.x
    rho = h - np.sqrt(d**2 + (c * np.cos(gamma)) ** 2)
    return centre + c * axis - rho * z, axis, centre + c * axis


@pytest.mark.parametrize("delta", [np.pi / 4, 3 * np.pi / 4, 1.2, np.pi / 2])
def test_contact_geometry_by_brute_force(delta):
    h, d, n = 0.05, 0.032, 5
    model = MecanumMassless([(0.0, 0.0)], [0.0], h, 1e-4, delta, 1.0, 0.01, n=n, d=d)
    for psi in np.linspace(-np.pi / n, np.pi / n, 9):
        P, axis, sph = _contact_by_envelope(h, d, delta, n, psi)
        # the minimum over c is quadratic: c is found to ~sqrt(eps) of the roller's length, and P (the tangent
        # point moves with c to first order) to ~1e-8 d; the height (second order) to round-off of h
        assert abs(P[2]) < roundoff(h, 1024)                    # touches the plane at height 0 at every psi
        assert abs(P[0]) < 1e-7 * d                              # directly below the hub in the wheel's plane
        assert P[1] == pytest.approx(model.offset(np.array([psi]))[0], abs=1e-7 * d)   # s(psi) along a
        assert np.allclose(sph[:2], P[:2], atol=1e-7 * d)        # the ball's centre above P: its normal vertical
        # the horizontal part of the roller axis (normal to the free rolling direction axis x e_z) = alpha(psi)
        hor = axis[:2] / np.linalg.norm(axis[:2])
        np.testing.assert_allclose(hor, model.alpha(np.array([psi]))[:, 0], atol=1e-7)  # axis from c: exact;
        # alpha from the closed form: one formula (the tolerance covers the orientation of the wheel frame only)
    # psi = 0: the BKM roller axis alpha = sin(delta) e - cos(delta) a (here e = x, a = y)
    np.testing.assert_allclose(model.alpha(np.array([0.0]))[:, 0], [np.sin(delta), -np.cos(delta)],
                               atol=roundoff())


# ---------------------------------------------------------------- (a), (b): BKM as special cases
def test_gamma_zero_is_bkm():
    """(a) delta = pi/2: s = 0 and alpha = e at every psi, no impacts: BKM's equations."""
    t = np.linspace(0.0, 1.0, 21)
    ref = OmniMassless(POS, DIRS, H, IW, np.pi / 2, 3.0, 0.09, (0.03, -0.02)).simulate(STATE, t)
    got = _general(np.pi / 2).simulate(STATE, t)
    assert got.attrs["impacts"] == []
    diff = np.max(np.abs(ref[COLS + ["chi1", "chi4", "energy"]].to_numpy() - got[COLS + ["chi1", "chi4", "energy"]]
                         .to_numpy()))
    assert diff < 2 * TOL_RUN   # two integrations of the same equations (arithmetic in another order); measured 2.4e-11


def test_no_offset_frozen_psi_is_classical_mecanum():
    """(b) n = None (psi = 0, s = 0): BKM with the given delta (mixed hands and an omni-wheel here)."""
    deltas = [np.pi / 4, 3 * np.pi / 4, np.pi / 2, 1.1]
    t = np.linspace(0.0, 1.0, 21)
    ref = OmniMassless(POS, DIRS, H, IW, deltas, 3.0, 0.09, (0.03, -0.02)).simulate(STATE, t)
    got = MecanumMassless(POS, DIRS, H, IW, deltas, 3.0, 0.09, (0.03, -0.02), n=None).simulate(STATE, t)
    assert got.attrs["impacts"] == []
    cols = COLS + ["chi1", "chi2", "dchi1", "dchi3", "energy"]
    assert np.max(np.abs(ref[cols].to_numpy() - got[cols].to_numpy())) < 2 * TOL_RUN   # as above; measured 1.1e-13


# ---------------------------------------------------------------- (c), (d), (e): energy, Carnot, constraints
def _constraints_3d(model, psi):
    """A (N x (3 + N)) built here from 3-D kinematics: the hub's point at the contact P_i = r_i + s_i a_i
    (platform frame, height 0) moves with v + omega e_z x P_i + chi_i' a_i x (P_i - C_i), C_i = r_i + h_i e_z;
    the row is its component along the unit alpha_i(psi_i) (checked against the brute-force envelope above)."""
    A = np.zeros((model.N, 3 + model.N))
    ez = np.array([0.0, 0.0, 1.0])
    for i in range(model.N):
        e = np.array([np.cos(model.beta[i]), np.sin(model.beta[i]), 0.0])
        a = np.cross(ez, e)
        gamma = np.pi / 2 - model.delta[i]
        hor = np.cos(gamma) * np.cos(psi[i]) * e - np.sin(gamma) * a
        al = hor / np.linalg.norm(hor)
        s = -model.d[i] * np.tan(gamma) * np.tan(psi[i])
        P = np.array([*model.r[:, i], 0.0]) + s * a
        C = np.array([*model.r[:, i], model.h[i]])
        A[i, 0:2] = al[:2]
        A[i, 2] = al @ np.cross(ez, P)
        A[i, 3 + i] = al @ np.cross(a, P - C)
    return A


@pytest.fixture(scope="module")
def generic_run():
    model = _general([np.pi / 4, 3 * np.pi / 4, np.pi / 4, 1.2])
    df = model.simulate(STATE, np.linspace(0.0, 1.0, 101), include_events=True)
    return model, df


def test_energy_between_changes_and_carnot_loss_at_each(generic_run):
    model, df = generic_run
    impacts = df.attrs["impacts"]
    assert len(impacts) > 20                                 # measured 48 in 1 s
    E0 = df["energy"].iloc[0]
    # (c) between changes: the energy at each impact's left limit equals the previous right limit (and the rows
    # inside the arcs the arc's value); integration tolerance, TOL_RUN relative over the whole second
    starts = [E0] + [imp["energy_plus"] for imp in impacts]
    ends = [imp["energy_minus"] for imp in impacts] + [df["energy"].iloc[-1]]
    drift = max(abs(b - a) for a, b in zip(starts, ends)) / E0
    assert drift < TOL_RUN                                   # measured 4.4e-12
    M = model.mass_matrix()
    for imp in impacts:
        um, up = imp["u_minus"], imp["u_plus"]
        # (d) the jump equals the Carnot loss 1/2 |u- - u+|_M^2, recomputed here: one projection, round-off of T (measured 8.7e-16 of E0)
        loss = 0.5 * (um - up) @ M @ (um - up)
        assert imp["energy_minus"] - imp["energy_plus"] == pytest.approx(loss, abs=roundoff(E0, 256))
        assert loss > 0
        # (e) the state after satisfies the new constraints (3-D rows built here), and equals the full-space
        # projection u- - M^-1 A^T (A M^-1 A^T)^-1 A u- (A with the new rollers); one 3x3 and one NxN solve
        # (measured |A u+| <= 6.7e-16)
        psi_plus = model.psi(imp["y_plus"][6:], imp["k_plus"])
        A = _constraints_3d(model, psi_plus)
        assert np.max(np.abs(A @ up)) < roundoff(np.max(np.abs(up)), 256)
        Mi = np.linalg.inv(M)
        proj = um - Mi @ A.T @ np.linalg.solve(A @ Mi @ A.T, A @ um)
        np.testing.assert_allclose(up, proj, rtol=0, atol=roundoff(np.max(np.abs(um)) * np.linalg.cond(M), 64))
        # before: the old constraints held (integration), the new ones did not (a change with omega != 0)
        A_old = _constraints_3d(model, model.psi(imp["y_minus"][6:], imp["k_minus"]))
        assert np.max(np.abs(A_old @ um)) < 1e-9 * np.max(np.abs(um))
        assert np.all(np.abs(np.abs(psi_plus[imp["wheels"]]) - np.pi / 4) < 1e-8)
    # the DataFrame: left and right rows at each impact, energy dropping by the total loss
    ev = df[df["event"] == 1]
    assert len(ev) == 2 * len(impacts)
    total = sum(imp["loss"] for imp in impacts)
    assert E0 - df["energy"].iloc[-1] == pytest.approx(total, abs=TOL_RUN * E0)


def test_repeated_times_give_left_and_right_limits(generic_run):
    model, df = generic_run
    imp = df.attrs["impacts"][3]
    te = imp["time"]
    t = np.array([0.0, 0.5 * te, te, te, min(te + 0.01, 1.0)])
    got = model.simulate(STATE, t)
    # the same integration up to te (same steps): identical up to the event location (round-off of the state)
    np.testing.assert_allclose(got.iloc[2][COLS], imp["y_minus"][:6], atol=roundoff(10.0, 1024))
    np.testing.assert_allclose(got.iloc[3][COLS], imp["y_plus"][:6], atol=roundoff(10.0, 1024))
    assert got.iloc[2]["omega"] != got.iloc[3]["omega"]


# ---------------------------------------------------------------- (f): a second formulation
def _lagrange_world(model, k):
    """Lagrange equations with multipliers in q = (x, y, phi, chi_1..N), world frame: T = 1/2 m |X' + phi'
    R'(phi) r_C|^2 + 1/2 (I - m |r_C|^2) phi'^2 + 1/2 sum I_i chi_i'^2; constraints from the 3-D hub-point
    velocity at the moving contact, world components; the d/dt(A) q' and d/dt(M) q' - dT/dq terms by
    complex-step differentiation (exact to round-off). Returns the rhs of (q, q')."""
    N, m, rc = model.N, model.m, model.r_C
    Ic = model.I - m * rc @ rc

    def rot(phi):
        c, s = np.cos(phi), np.sin(phi)
        return np.array([[c, -s], [s, c]])

    def mass(q):
        phi = q[2]
        drc = np.array([-np.sin(phi) * rc[0] - np.cos(phi) * rc[1], np.cos(phi) * rc[0] - np.sin(phi) * rc[1]])
        M = np.zeros((3 + N, 3 + N), dtype=q.dtype)
        M[0, 0] = M[1, 1] = m
        M[0, 2] = M[2, 0] = m * drc[0]
        M[1, 2] = M[2, 1] = m * drc[1]
        M[2, 2] = m * (drc @ drc) + Ic
        M[3:, 3:] = np.diag(model.I_w)
        return M

    def cons(q):
        R = rot(q[2])
        A = np.zeros((N, 3 + N), dtype=q.dtype)
        for i in range(N):
            psi = q[3 + i] - model.phase[i] - 2 * np.pi / model.n[i] * k[i]
            gamma = np.pi / 2 - model.delta[i]
            e = R @ np.array([np.cos(model.beta[i]), np.sin(model.beta[i])])
            a = np.array([-e[1], e[0]])
            hor = np.cos(gamma) * np.cos(psi) * e - np.sin(gamma) * a
            al = hor / np.sqrt(hor @ hor)
            s = -model.d[i] * np.tan(gamma) * np.tan(psi)
            P = R @ model.r[:, i] + s * a                          # contact point relative to O (world)
            A[i, 0:2] = al
            A[i, 2] = al @ np.array([-P[1], P[0]])                  # e_z x P
            # chi' a x (P - C) with P - C = s a - h e_z: a x (-h e_z) = -h (a_y, -a_x)
            A[i, 3 + i] = -model.h[i] * (al @ np.array([a[1], -a[0]]))
        return A

    def cstep(f, q, dq):
        return np.imag(f(q + 1e-30j * dq)) / 1e-30

    def rhs(t, z):
        n3 = 3 + N
        q, dq = z[:n3], z[n3:]
        M, A = mass(q), cons(q)
        Mdot_dq = cstep(mass, q, dq) @ dq
        dT_dq = np.array([0.5 * dq @ cstep(mass, q, np.eye(n3)[j]) @ dq for j in range(n3)])
        Adot_dq = cstep(cons, q, dq) @ dq
        K = np.block([[M, -A.T], [A, np.zeros((N, N))]])
        sol = np.linalg.solve(K, np.concatenate([-(Mdot_dq - dT_dq), -Adot_dq]))
        return np.concatenate([dq, sol[:n3]])

    return rhs, cons


def test_second_formulation_world_multipliers():
    """(f) over 0.015 s (before the first roller change, at ~0.02 s), from a state with every wheel off its
    roller's centre: the reduced body-frame equations against Lagrange multipliers in world coordinates."""
    model = _general([np.pi / 4, 3 * np.pi / 4, np.pi / 4, 1.2])
    y0 = np.array(STATE + [0.1, 0.1, -0.1, 0.35])         # psi = 0.1, -0.2, 0.1, -0.15
    k = model.roller_index(y0[6:])
    T = 0.015
    t = np.linspace(0.0, T, 7)
    ref = model.simulate(y0, t)
    assert ref.attrs["impacts"] == [] or ref.attrs["impacts"][0]["time"] > T
    rhs, cons = _lagrange_world(model, k)
    c, s = np.cos(y0[2]), np.sin(y0[2])
    dq0 = np.concatenate([[y0[3] * c - y0[4] * s, y0[3] * s + y0[4] * c, y0[5]], model.wheel_rates(y0, k)])
    z0 = np.concatenate([[y0[0], y0[1], y0[2]], y0[6:], dq0])
    assert np.max(np.abs(cons(z0[:7]) @ dq0)) < roundoff(10.0)      # consistent start: one formula each
    sol = solve_ivp(rhs, (0.0, T), z0, method="DOP853", t_eval=t, rtol=1e-12, atol=1e-12)
    assert sol.success
    q, dq = sol.y[:7], sol.y[7:]
    phi = q[2]
    v1 = np.cos(phi) * dq[0] + np.sin(phi) * dq[1]
    v2 = -np.sin(phi) * dq[0] + np.cos(phi) * dq[1]
    mine = np.vstack([q[0], q[1], q[2], v1, v2, dq[2], q[3:]])
    theirs = ref[COLS + ["chi1", "chi2", "chi3", "chi4"]].to_numpy().T
    # both integrated at 1e-12 over a few dozen steps (the multiplier form also keeps A q' = 0 only to the
    # integration error: its drift is of the same order); velocities ~10, angles ~1; measured 1.9e-12
    assert np.max(np.abs(mine - theirs)) < TOL_RUN
    np.testing.assert_allclose(dq[3:], ref[["dchi1", "dchi2", "dchi3", "dchi4"]].to_numpy().T, atol=100 * TOL_RUN)  # rates ~ |v|/h: x 20 (measured 3.2e-11)


# ---------------------------------------------------------------- (g): symmetric motion without jumps
def test_mirror_symmetric_car_moving_sideways_has_no_jumps():
    """(g) The mecanum car in the X configuration: wheels at (+-0.2, +-0.15), all e = x, front-left and
    rear-right delta = pi/4, front-right and rear-left 3 pi/4, r_C = 0. The mirror x -> -x maps it onto itself:
    a wheel (e, delta) onto (-e, pi - delta), the same wheel as (e, pi - delta) with chi and psi reversed, so the
    front-left wheel at psi onto the rear-left at -psi. A sideways motion (v along y, omega = 0) with the rear
    phases the negatives of the front ones is mirrored onto itself and stays one: omega = v1 = 0, and every
    change is a front wheel and its rear mirror image together (psi = +pi/n and -pi/n at the same instant: one
    projection), with omega = 0: the new constraints hold already, nothing jumps. (Moving along e the
    wheels need no forces at all, whatever the phases: v . a = 0 makes b' . xi = 0; sideways they do.)"""
    pos = [(0.2, 0.15), (0.2, -0.15), (-0.2, 0.15), (-0.2, -0.15)]
    deltas = [np.pi / 4, 3 * np.pi / 4, 3 * np.pi / 4, np.pi / 4]

    def run(phase):
        model = MecanumMassless(pos, [0.0] * 4, 0.05, 2e-4, deltas, 4.0, 0.12, (0.0, 0.0), n=6, d=0.04,
                                phase=phase)
        return model.simulate([0, 0, 0, 0.0, 1.0, 0], np.linspace(0.0, 0.5, 51), include_events=True)

    df = run([0.1, 0.3, -0.1, -0.3])
    impacts = df.attrs["impacts"]
    assert len(impacts) >= 10 and all(len(imp["wheels"]) == 2 for imp in impacts)     # measured 20
    assert df["v2"].min() < 1.0 - 1e-3                     # forces act: the motion is not uniform (measured 0.9956)
    # zero by symmetry; the mirrored terms cancel only to round-off at each step, which the integration carries
    # along like its own error (measured omega 3.2e-15, v1 4e-16)
    assert df["omega"].abs().max() < TOL_RUN and df["v1"].abs().max() < TOL_RUN
    for imp in impacts:
        # the mirror wheel's psi is +-pi/n only to the integration error: the jump is of that order (measured
        # 4e-13 of |u| ~ 30 rad/s), the loss of its square
        assert np.max(np.abs(imp["u_plus"] - imp["u_minus"])) < TOL_RUN * np.max(np.abs(imp["u_minus"]))
        assert imp["loss"] < TOL_RUN**2 * imp["energy_minus"]
    # ... the same car with the phases not mirrored turns, and loses energy at its changes (measured omega up to
    # 0.023 rad/s, 40 single changes, 1.7e-6 J)
    df2 = run([0.1, 0.3, -0.1, 0.2])
    assert df2["omega"].abs().max() > 1e-3 and sum(imp["loss"] for imp in df2.attrs["impacts"]) > 1e-7


# ---------------------------------------------------------------- sweep: inclined rollers, frozen vehicle
def _inertia_by_balls(R_w, n, m_r, R1, gamma):
    """The roller as the union of the balls of radius rho(c) centred on its axis (|c| <= c_max), between the
    planes through the end balls' characteristic circles: profile r(x) = max_c sqrt(rho(c)^2 - (x - c)^2) by
    bounded maximisation, moments by adaptive quadrature over x."""
    cg = np.cos(gamma)
    c_max = R1 * np.tan(np.pi / n) / cg

    def rho(c):
        return R_w - np.sqrt(R1**2 + (c * cg) ** 2)

    rp = -c_max * cg**2 / np.sqrt(R1**2 + (c_max * cg) ** 2)
    x_max = c_max - rho(c_max) * rp

    def r2(x):
        res = minimize_scalar(lambda c: -(rho(c) ** 2 - (x - c) ** 2), bounds=(-c_max, c_max), method="bounded",
                              options={"xatol": 1e-14})
        return -res.fun

    V = np.pi * quad(r2, -x_max, x_max, epsabs=0, epsrel=1e-11)[0]
    Ia = 0.5 * np.pi * quad(lambda x: r2(x) ** 2, -x_max, x_max, epsabs=0, epsrel=1e-11)[0]
    It = np.pi * quad(lambda x: r2(x) ** 2 / 4 + x**2 * r2(x), -x_max, x_max, epsabs=0, epsrel=1e-11)[0]
    return m_r * Ia / V, m_r * It / V


@pytest.mark.parametrize("gamma", [np.pi / 4, -np.pi / 4, 0.3])
def test_inclined_roller_inertia_against_union_of_balls(gamma):
    R_w, n, m_r = 0.05, 4, 3.75e-4
    for R1 in (sweep.axle_distance(R_w, n, True), sweep.axle_distance(R_w, n, False)):
        got = sweep.roller_inertia(R_w, n, m_r, R1, gamma)
        # the profile by maximisation: r^2 exact to ~1e-14 relative (the maximum is quadratic in c: its value
        # is insensitive to the location); adaptive quadrature at 1e-11
        np.testing.assert_allclose(got, _inertia_by_balls(R_w, n, m_r, R1, gamma), rtol=1e-8)
    # gamma -> 0: the quadrature of the envelope reproduces the closed form of the arc's solid (Gauss-Legendre
    # with 128 nodes of analytic integrands: round-off of the sums)
    R1 = sweep.axle_distance(R_w, n, True)
    np.testing.assert_allclose(sweep._inclined_roller_inertia(R_w, n, m_r, R1, 0.0),
                               sweep.roller_inertia(R_w, n, m_r, R1), rtol=roundoff(1.0, 1024))


def test_frozen_mecanum_vehicle_inertia_by_tensor_sum():
    """The wheel's tensor summed roller by roller (central tensor I_t E + (I_a - I_t) t t^T with the inclined
    axis t, plus m_r (R1^2 E - c c^T)) in the hub frame (z = axle) against frozen_vehicle's I_i and I."""
    v, eta, delta = sweep.VEHICLE, 2.5e-3, np.pi / 4
    gamma = np.pi / 2 - delta
    n, R1 = sweep.N_ROLLERS, sweep.axle_distance(v["R_w"], sweep.N_ROLLERS, True)
    m_r = eta * v["m_w"]
    I_a, I_t = sweep.roller_inertia(v["R_w"], n, m_r, R1, gamma)
    m_hub = v["m_w"] - n * m_r
    tensor = np.diag([m_hub * v["R_w"] ** 2 / 4, m_hub * v["R_w"] ** 2 / 4, m_hub * v["R_w"] ** 2 / 2])
    for kap in 2 * np.pi * np.arange(n) / n:
        c = R1 * np.array([np.cos(kap), np.sin(kap), 0.0])
        t = np.cos(gamma) * np.array([-np.sin(kap), np.cos(kap), 0.0]) + np.sin(gamma) * np.array([0, 0, 1.0])
        tensor += I_t * np.eye(3) + (I_a - I_t) * np.outer(t, t) + m_r * (c @ c * np.eye(3) - np.outer(c, c))
    model = sweep.massless_model(eta, truncated=True, delta=delta)
    assert isinstance(model, MecanumMassless)
    assert model.I_w[0] == pytest.approx(tensor[2, 2], rel=1e-14)
    assert tensor[0, 0] == pytest.approx(tensor[1, 1], rel=1e-14)
    assert np.max(np.abs(tensor[:2, 2])) < roundoff(tensor[2, 2]) and abs(tensor[0, 1]) < roundoff(tensor[2, 2])
    assert model.I == pytest.approx(v["I_p"] + 3 * (tensor[0, 0] + v["m_w"] * v["R_p"] ** 2), rel=1e-14)
    assert np.all(model.n == n) and np.all(model.d == R1) and np.all(model.phase == 0.0)
    # the default is the omni model as before
    assert isinstance(sweep.massless_model(eta, truncated=True), OmniMassless)
    # the Modelica wheel at chi_0 = 0 has roller 1 on top: for n = 4 roller 3 is centred at the bottom
    assert sweep.roller_phase(4) == 0.0 and sweep.roller_phase(6, 0.2) == pytest.approx(0.2)


def test_massless_reference_mecanum_repeats_times():
    t = np.array([0.0, 0.1, 0.1, 0.2])
    ref = sweep.massless_reference("generic", t, 2.5e-3, True, np.pi / 4)
    assert len(ref) == 4 and np.all(ref["time"].to_numpy() == t)
    np.testing.assert_array_equal(ref.iloc[1][COLS].to_numpy(), ref.iloc[2][COLS].to_numpy())  # no impact at 0.1
