"""Tests of the snakeboard reference model (python/nonholonomic/references/snakeboard.py).

The model is checked on its own, against expectations that do not come from its equations of motion:

* a brute-force Newton-Euler solve of the four bodies (board, rotor, two wheelsets with their joint
  forces and torques and the lateral ground forces; any split of the mass between them) at random
  states: accelerations, servo torques and lateral forces of both formulations;
* the second formulation (Lagrange multipliers in world coordinates) against the reduced one along whole
  runs, to a bound derived from the solver tolerances;
* the energy balance T(t) - T(0) = servo work, and the constraint residual A q' of the multiplier
  formulation (both first integrals of the integrated systems);
* Ostrowski's closed form (Bessel function J_1) for the speed gain of the drive gait;
* the four gaits against spectral (Chebyshev) quadratures of the whole motion, and the behaviour types
  of Lewis et al. (drive speeds up, rotate turns in place, park drifts sideways) with the zeros that the
  gaits' symmetries impose.

Integration bounds. An accepted DOP853 step has an estimated local error of RMS norm <= 1 in the weights
atol + rtol |y_i|, so component i errs by at most e_i = sqrt(n) (atol + rtol max|y_i|) per step (as in
test_reference_omni._tol_bound). A first integral carries such an error unchanged after the step, so its
drift is at most the number of steps times the per-step error (`_first_integral_bound`). The reduced
system is triangular (s alone, then theta, then x, y), so the propagation of the other errors is derived
exactly to first order (`_reduced_bounds`, `_multiplier_bounds`).
"""

import numpy as np
import pytest
from bounds import residual_bound, roundoff
from nonholonomic.errors import NonholonomicError
from nonholonomic.references.snakeboard import (
    COLUMNS,
    CYCLE_COLUMNS,
    GAIT_NAMES,
    Gait,
    ServoLaw,
    Snakeboard,
)
from numpy.polynomial import Chebyshev
from scipy.integrate import quad, solve_ivp
from scipy.special import j1

RTOL, ATOL = 1e-10, 1e-12  # the defaults of Snakeboard.simulate

# a model without Ostrowski's assumption (m l^2 = 0.1875 != J + Jr + 2 Jw = 0.77) and a gait without
# any symmetry (offsets, two harmonics, independent wheelsets)
GENERAL = Snakeboard(m=3.0, l=0.25, J=0.6, Jr=0.15, Jw=0.01)
GENERAL_GAIT = Gait(psi=ServoLaw(0.2, (0.8, 0.3), (1.0, 2.0), (0.0, 1.0)),
                    phi_f=ServoLaw(0.1, (0.5,), (1.0,), (0.3,)),
                    phi_b=ServoLaw(-0.2, (0.3, 0.2), (1.0, 3.0), (2.0, 0.0)))


# ================================================================================ helpers
def _steps(model, gait, t_end, s0=0.0, formulation="reduced", **pose):
    """The run of model.simulate done with solve_ivp directly (same rhs, method and tolerances, hence the
    same steps; the step count enters the bounds), with dense output for maxima between the steps."""
    z0 = model.initial_state(gait, 0.0, s0=s0, formulation=formulation, **pose)
    sol = solve_ivp(model.rhs(gait, formulation), (0.0, t_end), z0, method="DOP853", rtol=RTOL, atol=ATOL,
                    dense_output=True)
    assert sol.success
    return sol


def _per_step(sol):
    """e_i = sqrt(n) (atol + rtol max|y_i|): the largest error of component i in one accepted step."""
    return np.sqrt(sol.y.shape[0]) * (ATOL + RTOL * np.abs(sol.y).max(axis=1))


def _first_integral_bound(sol, grad):
    """Drift bound of a first integral E(t, y) over a run: steps x max per-step error of E, the latter
    sqrt(n) sum_i |dE/dy_i| (atol + rtol |y_i|) (growth 1: a shifted value is then carried unchanged)."""
    n = sol.y.shape[0]
    per_step = max(np.sqrt(n) * float(np.abs(grad(t, y)) @ (ATOL + RTOL * np.abs(y)))
                   for t, y in zip(sol.t, sol.y.T))
    return (sol.t.size - 1) * per_step


def _grid(sol):
    """A grid 20 times finer than the steps, for maxima and minima of smooth functions of the run."""
    return np.linspace(sol.t[0], sol.t[-1], 20 * (sol.t.size - 1) + 1)


def _gait_extrema(model, gait, t):
    d = model.null_vector(*gait.shape(t)[0][1:])
    sq = np.sqrt(model.metric(d))
    return d, sq


def _reduced_bounds(model, gait, sol):
    """(Es, Et, Er): bounds on the integration errors of s, theta and |(x, y)| at any time of a reduced run.

    * s: u = s sqrt(Q(t)) + int_0^t d_3 F / sqrt(Q) dt is a first integral (module docstring), so an error
      ds_k made in step k shifts u by sqrt(Q(t_k)) ds_k for good: |ds(t)| <= N max sqrt(Q) e_s / min sqrt(Q);
    * theta' = s d_3(t): |dtheta(t)| <= N e_theta + t_end Es max|d_3|;
    * (x, y)' = R(theta) s (d_1, d_2): |dr(t)| <= N (e_x + e_y) + t_end (Et max|v| + Es max|(d_1, d_2)|).
    """
    N, e, t_end = sol.t.size - 1, _per_step(sol), sol.t[-1]
    t = _grid(sol)
    d, sq = _gait_extrema(model, gait, t)
    s = sol.sol(t)[3]
    d12 = np.hypot(d[0], d[1])
    Es = N * sq.max() * e[3] / sq.min()
    Et = N * e[2] + t_end * Es * np.abs(d[2]).max()
    Er = N * (e[0] + e[1]) + t_end * (Et * np.abs(s * d12).max() + Es * d12.max())
    return Es, Et, Er


def _constraint_residual(model, gait, t, Y):
    """g = A(q, t) q' (2, k) at the times t for multiplier-formulation states Y (7, k)."""
    ang = gait.shape(t)[0]
    A = model.world_constraint_matrix(Y[2], ang[1], ang[2])
    return np.einsum("ijk,jk->ik", A, Y[3:6])


def _multiplier_bounds(model, gait, sol):
    """(Es, Et, Er, G) for a run of the multiplier formulation; G (2,) bounds the constraint residual g = A q'.

    A velocity error dq' splits into ds = d_w^T M dq' / Q along the admissible direction d_w (world) and
    dg = A dq' across it. g is a first integral (d/dt (A q') = 0 identically), so |g| <= N |A| e_v = G
    (asserted in the tests); its actual value at the step ends is the residual of the computed states,
    g_max = max |A q'| over the steps, and it is that value which moves the solution: writing q' = s d_w +
    B g with B = M^-1 A^T (A M^-1 A^T)^-1 (so d_w^T M B = 0), the projection of Lagrange's equations on d_w
    is the reduced equation plus d_w'^T M B g / Q, i.e. u = s sqrt(Q) drifts by at most
    |d_w'^T M B| g_max / sqrt(Q) per unit time, and B g moves theta and (x, y) directly. The s errors
    themselves propagate as in `_reduced_bounds`.
    """
    N, e, t_end = sol.t.size - 1, _per_step(sol), sol.t[-1]
    ev = e[3:6]
    M = np.diag([model.m, model.m, model.I])
    Minv = np.linalg.inv(M)
    g_max = np.abs(_constraint_residual(model, gait, sol.t, sol.y)).max(axis=1)
    t = _grid(sol)
    Y = sol.sol(t)
    ang, rat, _ = gait.shape(t)
    es, eg, drift_u, off_t, off_r, sq, vmax, d3max, d12max = [], [], [], [], [], [], 0.0, 0.0, 0.0
    for k in range(t.size):
        th, om = Y[2, k], Y[5, k]
        d, dd = model.null_vector(ang[1, k], ang[2, k], rat[1, k], rat[2, k])
        c, sn = np.cos(th), np.sin(th)
        R = np.array([[c, -sn], [sn, c]])
        dw = np.array([*(R @ d[:2]), d[2]])
        dwdot = np.array([*(R @ dd[:2] + om * (R @ np.array([-d[1], d[0]]))), dd[2]])
        Q = dw @ M @ dw
        A = model.world_constraint_matrix(th, ang[1, k], ang[2, k])
        B = Minv @ A.T @ np.linalg.inv(A @ Minv @ A.T)
        es.append(np.abs(dw @ M) @ ev / Q)
        eg.append(np.abs(A) @ ev)
        drift_u.append(np.abs(dwdot @ M @ B) @ g_max / np.sqrt(Q))
        off_t.append(np.abs(B[2]) @ g_max)
        off_r.append((np.abs(B[0]) + np.abs(B[1])) @ g_max)
        sq.append(np.sqrt(Q))
        vmax = max(vmax, np.hypot(Y[3, k], Y[4, k]))
        d3max, d12max = max(d3max, abs(d[2])), max(d12max, np.hypot(d[0], d[1]))
    sq = np.array(sq)
    G = N * np.max(eg, axis=0)
    Es = (N * np.max(sq * np.array(es)) + t_end * max(drift_u)) / sq.min()
    Et = N * e[2] + t_end * (Es * d3max + max(off_t))
    Er = N * (e[0] + e[1]) + t_end * (Et * vmax + Es * d12max + max(off_r))
    return Es, Et, Er, G


def _spectral(model, gait, s0, t_end, deg=400):
    """The motion from the pose (0, 0, 0) with speed s0, by Chebyshev quadratures instead of an ODE solver:
    u = s sqrt(Q) from u' = -d_3 F / sqrt(Q) (module docstring), theta = int s d_3, x, y = int R(theta) s
    (d_1, d_2). Returns callables s, theta, x, y and the largest of the last ten Chebyshev coefficients of
    the four integrands (they decay geometrically; the interpolation error is of their size)."""
    dom = [0.0, t_end]

    def parts(t):
        ang, _, acc = gait.shape(t)
        d = model.null_vector(ang[1], ang[2])
        return d, np.sqrt(model.metric(d)), model.shape_load(acc)

    _, sq0, _ = parts(0.0)
    U = Chebyshev.interpolate(lambda t: -parts(t)[0][2] * parts(t)[2] / parts(t)[1], deg, domain=dom)

    def s(t):
        return (s0 * sq0 + U.integ(lbnd=0.0)(t)) / parts(t)[1]

    W = Chebyshev.interpolate(lambda t: s(t) * parts(t)[0][2], deg, domain=dom)
    theta = W.integ(lbnd=0.0)

    def v(t, k):
        d, th, sp = parts(t)[0], theta(t), s(t)
        xi, eta = sp * d[0], sp * d[1]
        return xi * np.cos(th) - eta * np.sin(th) if k == 0 else xi * np.sin(th) + eta * np.cos(th)

    VX = Chebyshev.interpolate(lambda t: v(t, 0), deg, domain=dom)
    VY = Chebyshev.interpolate(lambda t: v(t, 1), deg, domain=dom)
    tail = max(np.abs(c.coef[-10:]).max() for c in (U, W, VX, VY))
    return s, theta, VX.integ(lbnd=0.0), VY.integ(lbnd=0.0), tail


def _random_shape(rng, k=1):
    """Random (angles, rates, accelerations) of (psi, phi_f, phi_b), wheelsets within +-1.3 rad."""
    ang = np.array([rng.uniform(-3, 3, k), rng.uniform(-1.3, 1.3, k), rng.uniform(-1.3, 1.3, k)])
    return ang, rng.normal(0.0, 3.0, (3, k)), rng.normal(0.0, 30.0, (3, k))


# ================================================================================ input
def test_servo_laws_and_named_gaits():
    law = ServoLaw(0.1, (0.4, -0.2), (1.0, 3.0), (0.5, 0.0))
    t = np.linspace(0.0, 2.0, 41)
    want = 0.1 + 0.4 * np.sin(2 * np.pi * t + 0.5) - 0.2 * np.sin(6 * np.pi * t)
    np.testing.assert_allclose(law.angle(t), want, rtol=0, atol=roundoff(1.0))  # one formula
    assert law.angle(0.25).shape == () and law.reach == pytest.approx(0.7, abs=roundoff())
    # rate and acceleration are the derivatives: their integrals (adaptive quadrature, error estimate
    # returned by quad) give the increments of angle and rate
    for lo, hi in ((0.0, 0.37), (0.2, 1.9)):
        inc, err = quad(law.rate, lo, hi, epsabs=1e-12, epsrel=1e-12)
        assert abs(inc - (law.angle(hi) - law.angle(lo))) < err + roundoff(10.0)
        inc, err = quad(law.acceleration, lo, hi, epsabs=1e-11, epsrel=1e-12)
        assert abs(inc - (law.rate(hi) - law.rate(lo))) < err + roundoff(100.0)
    # the named gaits (period 1 s): psi, phi_f = -phi_b
    tt = np.linspace(0.0, 1.0, 17)
    w = 2 * np.pi * tt
    laws = {"drive": (np.sin(w), 0.4 * np.sin(w)), "drive_shifted": (np.sin(w), 0.4 * np.sin(w + np.pi / 2)),
            "rotate": (np.sin(2 * w), 0.4 * np.sin(w)),
            "park": (np.sin(3 * w), 0.4 * np.sin(2 * w))}  # rotor 3 : axles 2 (Marsden, after Lewis et al.)
    assert set(laws) == set(GAIT_NAMES)
    for name, (psi, phi) in laws.items():
        g = Gait.named(name)
        assert g.period == 1.0 and g.name == name
        ang = g.shape(tt)[0]
        np.testing.assert_allclose(ang, [psi, phi, -phi], rtol=0, atol=roundoff(10.0))  # sin of args up to 6 pi
    # amplitudes are parameters; Gait.symmetric negates the back law
    g = Gait.named("drive", rotor=0.5, wheels=1.2)
    assert g.psi.amplitudes == (0.5,) and g.phi_f.amplitudes == (1.2,) and g.phi_b.amplitudes == (-1.2,)


def test_non_physical_input():
    for kw in ({"m": 0.0}, {"l": -0.3}, {"J": 0.0}, {"Jr": -0.1}, {"Jw": 0.0}, {"m": np.nan}, {"l": np.inf},
               {"J": "0.3"}, {"Jw": True}):
        with pytest.raises(NonholonomicError) as err:
            Snakeboard(**kw)
        assert "\n" not in str(err.value) and next(iter(kw)) in str(err.value)
    # a wheelset that can reach 90 degrees: |offset| + sum |amplitudes| >= pi/2
    for bad in ({"wheels": np.pi / 2}, {"wheels": 1.6}):
        with pytest.raises(NonholonomicError, match="pi/2") as err:
            Gait.named("drive", **bad)
        assert "\n" not in str(err.value)
    with pytest.raises(NonholonomicError, match="phi_b"):
        Gait(ServoLaw.sine(1.0, 1.0), ServoLaw.sine(0.5, 1.0), ServoLaw(1.0, (0.3, 0.3), (1.0, 2.0)))
    Gait(ServoLaw.sine(1.0, 1.0), ServoLaw.sine(0.5, 1.0), ServoLaw(0.9, (0.3, 0.3), (1.0, 2.0)))  # 1.5 < pi/2
    for bad in (lambda: ServoLaw(0.0, (1.0,), ()), lambda: ServoLaw(0.0, (1.0,), (-1.0,)),
                lambda: ServoLaw(0.0, 1.0, 1.0),
                lambda: ServoLaw(np.nan), lambda: Gait.named("walk"),
                lambda: Gait(ServoLaw(), ServoLaw(), ServoLaw(), period=0.0),
                lambda: Gait(ServoLaw(), 0.3, ServoLaw())):
        with pytest.raises(NonholonomicError):
            bad()
    model, gait = Snakeboard(), Gait.named("drive")
    for bad in (lambda: model.simulate(gait, [0.0, 1.0], formulation="lagrange"),
                lambda: model.simulate(gait, [1.0, 0.0]),
                lambda: model.simulate(gait, [0.0, 1.0], s0=0.1, xi0=0.2),
                lambda: model.simulate("drive", [0.0, 1.0]), lambda: model.cycle_displacement(gait, cycles=0)):
        with pytest.raises(NonholonomicError):
            bad()


# ================================================================================ kinematics and dynamics
def test_null_vector_and_its_rate():
    rng = np.random.default_rng(11)
    model = GENERAL
    ang, rat, _ = _random_shape(rng, 200)
    d, dd = model.null_vector(ang[1], ang[2], rat[1], rat[2])
    C = model.constraint_matrix(ang[1], ang[2])
    # d spans the null space: the cross product of the two constraint rows is -2 l d (one formula each)
    cross = np.cross(C[0].T, C[1].T).T
    np.testing.assert_allclose(cross, -2 * model.l * d, rtol=0, atol=roundoff(1.0))
    np.testing.assert_allclose(np.einsum("ijk,jk->ik", C, d), 0.0, rtol=0, atol=roundoff(1.0))
    assert np.all(d[0] > 0)  # never zero while |phi| < pi/2
    # d' by complex-step differentiation along the rates (exact to round-off: no difference is taken)
    h = 1e-30
    dc = model.null_vector(ang[1] + 1j * h * rat[1], ang[2] + 1j * h * rat[2])
    np.testing.assert_allclose(dd, dc.imag / h, rtol=0, atol=roundoff(np.abs(rat).max() / model.l))


def four_bodies(model, theta, vO, w, shape, m_r, m_w):
    """Newton-Euler of board, rotor and the two wheelsets in the world frame; one linear solve.

    Masses: rotor m_r and wheelsets m_w (centres at O and at the pivots), board m - m_r - 2 m_w with its
    centre at O and yaw inertia J - 2 m_w l^2 (J holds the wheelsets' masses at distance l). Unknowns (14):
    a_O (2), alpha, the joint forces F_r, F_f, F_b of the board on the rotor and wheelsets (2 each), the
    servo torques tau_psi, tau_f, tau_b, and the lateral ground forces lambda_f, lambda_b along the axles.
    Equations (14): Newton-Euler of the rotor, of each wheelset (ground force along the axle through the
    pivot: no moment about it) and of the board (reactions -F, -tau), and the two no-slip conditions
    differentiated, d/dt (v_P . n) = a_P . n + v_P . n' = 0 with a_P = a_O + alpha k x rho - omega^2 rho.
    The velocity of O (world) and omega are given (they need not satisfy the constraints: the equations
    only keep v_P . n constant, as the multiplier formulation does).
    Returns (a_O world, alpha, (tau_psi, tau_f, tau_b), (lambda_f, lambda_b), matrix).
    """
    ang, rat, acc = shape
    m, l = model.m, model.l
    m_b, J_b = m - m_r - 2 * m_w, model.J - 2 * m_w * l * l
    assert m_b > 0 and J_b > 0
    e1 = np.array([np.cos(theta), np.sin(theta)])

    def kx(r):
        return np.array([-r[1], r[0]])

    K, b = np.zeros((14, 14)), np.zeros(14)
    K[0:2, 0:2], K[0:2, 3:5] = m_r * np.eye(2), -np.eye(2)                 # rotor: m_r a_O = F_r
    K[2, 2], K[2, 5], b[2] = model.Jr, -1.0, -model.Jr * acc[0]            # Jr (alpha + psi'') = tau_psi
    K[9:11, 0:2], K[11, 2], K[11, 5] = m_b * np.eye(2), J_b, 1.0           # board
    K[9:11, 3:5] = np.eye(2)
    wheelsets = ((l * e1, ang[1], rat[1], acc[1]), (-l * e1, ang[2], rat[2], acc[2]))
    for j, (rho, phi, dphi, ddphi) in enumerate(wheelsets):
        F, tau, lam, row = slice(6 + 3 * j, 8 + 3 * j), 8 + 3 * j, 12 + j, 3 + 3 * j
        n = np.array([-np.sin(theta + phi), np.cos(theta + phi)])
        ndot = -(w + dphi) * np.array([np.cos(theta + phi), np.sin(theta + phi)])
        K[row:row + 2, 0:2], K[row:row + 2, 2] = m_w * np.eye(2), m_w * kx(rho)
        K[row:row + 2, F], K[row:row + 2, lam] = -np.eye(2), -n
        b[row:row + 2] = m_w * w * w * rho                                  # m_w a_P = F + lambda n
        K[row + 2, 2], K[row + 2, tau], b[row + 2] = model.Jw, -1.0, -model.Jw * ddphi
        K[9:11, F] = np.eye(2)                                              # board: -F
        K[11, tau] = 1.0                                                    # board: -tau
        K[11, F] = [-rho[1], rho[0]]                                        # board: moment of -F about O
        K[12 + j, 0:2], K[12 + j, 2] = n, n @ kx(rho)                       # no slip, differentiated
        b[12 + j] = w * w * (n @ rho) - (vO + w * kx(rho)) @ ndot
    z = np.linalg.solve(K, b)
    return z[0:2], z[2], z[[5, 8, 11]], z[12:14], K


def test_both_formulations_against_newton_euler_of_four_bodies():
    """At random states: the reduced equation (with (NE) for lambda and the torque formulas) and the KKT
    solve of the multiplier formulation against the four-body solve, for two mass splits (the result must
    not depend on how m and J are shared between the bodies)."""
    rng = np.random.default_rng(7)
    for _ in range(25):
        model = Snakeboard(m=rng.uniform(2, 8), l=rng.uniform(0.15, 0.5), J=rng.uniform(0.3, 1.0),
                           Jr=rng.uniform(0.02, 0.3), Jw=rng.uniform(0.001, 0.02))
        ang, rat, acc = (a[:, 0] for a in _random_shape(rng))
        shape = (ang, rat, acc)
        theta, s = rng.uniform(-np.pi, np.pi), rng.normal(0.0, 1.5)
        red = model.reduced(s, shape)
        c, sn = np.cos(theta), np.sin(theta)
        a_board = np.array([red["dxi"] - red["omega"] * red["eta"], red["deta"] + red["omega"] * red["xi"]])
        a_world = np.array([c * a_board[0] - sn * a_board[1], sn * a_board[0] + c * a_board[1]])
        want = np.concatenate([a_world, [red["domega"]], red["tau"], red["lam"]])
        q = np.array([0.3, -0.2, theta])
        qd = np.array([c * red["xi"] - sn * red["eta"], sn * red["xi"] + c * red["eta"], red["omega"]])
        qdd, lam, Kk = model.kkt(q, qd, shape)
        tau_k = model.servo_torques(qdd[2], acc)
        for split in (0.1, 0.35):
            m_w = split * min(model.m / 4, model.J / (4 * model.l**2))
            aO, alpha, tau, lam_ne, K = four_bodies(model, theta, qd[:2], qd[2], shape, split * model.m, m_w)
            got = np.concatenate([aO, [alpha], tau, lam_ne])
            scale = np.abs(got).max()
            # two solves in double precision (cond x round-off each) and the reduced formulas (a few dozen
            # operations, within the same round-off); measured <= 2.2e-15 relative to the largest unknown
            bound = residual_bound(K, scale) + residual_bound(Kk, scale)
            np.testing.assert_allclose(got, want, rtol=0, atol=bound)
            np.testing.assert_allclose(np.concatenate([qdd, tau_k, lam]), got, rtol=0, atol=bound)


# ================================================================================ closed form
@pytest.mark.parametrize("rotor, wheels", [(1.0, 0.4), (0.6, 1.1)])
def test_drive_gait_closed_form(rotor, wheels):
    """Ostrowski's case (m l^2 = J + Jr + 2 Jw, phi_f = -phi_b = phi): d/dt (xi/cos phi) = -(Jr/(m l)) sin(phi)
    psi''; for the drive gait from rest xi/cos phi = (4 pi^2 A J_1(a) Jr / (m l)) t at every half cycle."""
    model = Snakeboard()
    assert model.m * model.l**2 == pytest.approx(model.I, rel=roundoff(ulps=8))
    gait = Gait.named("drive", rotor=rotor, wheels=wheels)
    gain = 4 * np.pi**2 * rotor * j1(wheels) * model.Jr / (model.m * model.l)
    t = 0.5 * np.arange(7)
    df = model.simulate(gait, t)
    got = df["xi"] / np.cos(df["phi_f"])
    # xi/cos phi = s cos phi = s sqrt(Q)/sqrt(m) here: the first integral u = s sqrt(Q) + ... (module
    # docstring) drifts by at most the bound below, hence xi/cos phi by that over sqrt(m)
    sol = _steps(model, gait, t[-1])
    drift = _first_integral_bound(sol, lambda tk, y: np.array(
        [0, 0, 0, np.sqrt(model.metric(model.null_vector(*gait.shape(tk)[0][1:]))), 0]))
    # measured 1.2e-11 and 1.5e-10 (bounds 2.9e-8 and 6.4e-8)
    np.testing.assert_allclose(got, gain * t, rtol=0, atol=drift / np.sqrt(model.m) + roundoff(gain * t[-1]))
    # with the defaults: 0.5159 m/s per cycle
    if (rotor, wheels) == (1.0, 0.4):
        assert gain == pytest.approx(0.51592127, abs=1e-8)


def test_speed_quadrature_general_model():
    """Without Ostrowski's assumption and without symmetry: s(t) sqrt(Q(t)) = s0 sqrt(Q0) - int d_3 F /
    sqrt(Q) dt (adaptive quadrature, its own error estimate) at every sample."""
    model, gait = GENERAL, GENERAL_GAIT
    s0 = 0.4
    t = np.linspace(0.0, 3.0, 13)
    df = model.simulate(gait, t, s0=s0)

    def parts(tk):
        ang, _, acc = gait.shape(tk)
        d = model.null_vector(ang[1], ang[2])
        return d, np.sqrt(model.metric(d)), model.shape_load(acc)

    sol = _steps(model, gait, t[-1], s0)
    drift = _first_integral_bound(sol, lambda tk, y: np.array([0, 0, 0, parts(tk)[1], 0]))
    for tk, sk in zip(t, df["s"]):
        integral, err = quad(lambda x: parts(x)[0][2] * parts(x)[2] / parts(x)[1], 0.0, tk, epsabs=1e-13,
                             epsrel=1e-13, limit=200)
        want = s0 * parts(0.0)[1] - integral
        assert abs(sk * parts(tk)[1] - want) < drift + err + roundoff(10.0)  # measured <= 3.1e-10, bound 1.8e-7


# ================================================================================ the gaits
EXPECTED = {  # per cycle, from rest and from s0 = 0.5 m/s: the module docstring's table (4 decimals)
    "drive": {"forward": ([0.2473, 0.7337, 1.1876], [0.7191, 1.1743, 1.5743]),
              "sideways": ([-0.0042, 0.0750, 0.2553], [0.0710, 0.2483, 0.5165]), "rotation": (-0.1075, -0.1075)},
    "drive_shifted": {"forward": (0.0404, 0.4814), "sideways": (0.0, 0.0), "rotation": (0.0, 0.0)},
    "rotate": {"forward": (0.0010, 0.4687), "sideways": (-0.0094, 0.0913), "rotation": (0.2156, 0.2156)},
    "park": {"forward": (0.0, 0.4760), "sideways": (0.0273, 0.0522), "rotation": (0.0, 0.0)},
}


@pytest.mark.parametrize("name", GAIT_NAMES)
def test_gait_against_spectral_quadrature_and_behaviour(name):
    model, gait = Snakeboard(), Gait.named(name)
    gain = 4 * np.pi**2 * j1(0.4) * model.Jr / (model.m * model.l)  # drive, per cycle (previous test)
    for i, s0 in enumerate((0.0, 0.5)):
        cd = model.cycle_displacement(gait, s0=s0, cycles=3)
        assert list(cd.columns) == list(CYCLE_COLUMNS)
        Es, Et, Er = _reduced_bounds(model, gait, _steps(model, gait, 3.0, s0))
        s, theta, x, y, tail = _spectral(model, gait, s0, 3.0)
        assert tail < 1e-12  # the Chebyshev series are resolved (measured <= 2.7e-14)
        spec = 3.0 * tail * 10  # integrand error ~ tail, integrated over 3 s, with a margin of 10
        # expected per-cycle motion from the quadratures
        k = np.arange(4.0)
        X, Y, TH = x(k), y(k), theta(k)
        c, sn = np.cos(TH[:-1]), np.sin(TH[:-1])
        fwd = np.diff(X) * c + np.diff(Y) * sn
        side = -np.diff(X) * sn + np.diff(Y) * c
        span = np.hypot(np.diff(X), np.diff(Y)).max()
        b_pos = 2 * Er + span * Et + spec  # both ends, and the heading that resolves the displacement
        b_rot, b_s = 2 * Et + spec, Es + spec
        np.testing.assert_allclose(cd["forward"], fwd, rtol=0, atol=b_pos)
        np.testing.assert_allclose(cd["sideways"], side, rtol=0, atol=b_pos)
        np.testing.assert_allclose(cd["rotation"], np.diff(TH), rtol=0, atol=b_rot)
        np.testing.assert_allclose(cd["s_end"], s(k[1:]), rtol=0, atol=b_s)
        # measured differences <= 3.9e-11 (positions), 2.4e-11 (rotation), 3.9e-11 (s); bounds b_pos
        # 2.3e-8 .. 2.9e-6, b_rot 1.6e-8 .. 6.0e-7, b_s 2.1e-9 .. 8.0e-8: small against the motions tested
        assert b_pos < 1e-5 and b_rot < 1e-6
        # the table of the module docstring (rounded to 4 decimals)
        for col in ("forward", "sideways", "rotation"):
            np.testing.assert_allclose(cd[col], EXPECTED[name][col][i], rtol=0, atol=5e-5 + b_pos)

        # behaviour types (Lewis et al.); the zeros are exact by the gaits' symmetries
        if name == "drive":
            # speeds up by the closed-form gain every cycle (phi = 0 at the cycle ends, so xi = s)
            np.testing.assert_allclose(cd["s_end"] - cd["s_start"], gain, rtol=0, atol=2 * b_s)
            np.testing.assert_allclose(cd["xi_end"], s0 + gain * (k[1:]), rtol=0, atol=b_s)
            assert np.all(np.diff(cd["forward"]) > 1e3 * b_pos)  # the distance per cycle grows
        else:
            # no speed builds up: int over a period of d_3 F / sqrt(Q) vanishes, as its integrand is odd
            # under the gait's half-period shift (rotate: phi -> -phi, psi'' kept) or under the reflections
            # of time about t = 1/4 and t = 3/4 (drive_shifted and park: phi -> -phi, psi'' kept)
            np.testing.assert_allclose(cd["s_end"], s0, rtol=0, atol=b_s)
        if name == "drive_shifted":
            # creeps forward without turning or drifting (lateral mirror with a half-period shift, and
            # time reversal with the fore-aft mirror: zero rotation and sideways motion for any s0)
            np.testing.assert_allclose(cd["rotation"], 0.0, rtol=0, atol=b_rot)
            np.testing.assert_allclose(cd["sideways"], 0.0, rtol=0, atol=b_pos)
            np.testing.assert_allclose(cd["forward"], cd["forward"][0], rtol=0, atol=2 * b_pos)
            assert cd["forward"][0] > 1e3 * b_pos
        if name == "rotate":
            assert np.all(cd["rotation"] > 1e3 * b_rot)  # turns by 0.2156 rad per cycle
            if s0 == 0.0:  # in place: the centre moves by 9.4 mm per cycle, 3 % of l
                assert np.all(np.hypot(cd["forward"], cd["sideways"]) < 0.05 * model.l)
        if name == "park":
            # no net rotation for any s0 (time reversal about t = 1/4 with the board turned by pi maps the
            # gait onto itself, so theta(1/2) = theta(0), and likewise for the second half)
            np.testing.assert_allclose(cd["rotation"], 0.0, rtol=0, atol=b_rot)
            if s0 == 0.0:
                # from rest the second half cycle is the fore-aft mirror of the first (psi -> -psi after
                # half a period, phi kept, s(1/2) = 0): the forward parts cancel, the sideways parts add
                np.testing.assert_allclose(cd["forward"], 0.0, rtol=0, atol=b_pos)
                assert np.all(cd["sideways"] > 1e3 * b_pos)  # 27.3 mm per cycle


# ================================================================================ the two formulations
CASES = {  # model, gait, s0, initial pose
    "drive": (Snakeboard(), Gait.named("drive"), 0.5, {}),
    "drive_shifted": (Snakeboard(), Gait.named("drive_shifted"), 0.5, {}),
    "rotate": (Snakeboard(), Gait.named("rotate"), 0.0, {}),
    "park": (Snakeboard(), Gait.named("park"), 0.0, {}),
    "general": (GENERAL, GENERAL_GAIT, 0.3, {"x0": 1.0, "y0": -2.0, "theta0": 0.7}),
}


@pytest.mark.parametrize("case", CASES)
def test_formulations_agree(case):
    model, gait, s0, pose = CASES[case]
    t = np.linspace(0.0, 3.0, 31)
    red = model.simulate(gait, t, s0=s0, **pose)
    mul = model.simulate(gait, t, s0=s0, formulation="multipliers", **pose)
    sr = _steps(model, gait, 3.0, s0, **pose)
    sm = _steps(model, gait, 3.0, s0, "multipliers", **pose)
    Es1, Et1, Er1 = _reduced_bounds(model, gait, sr)
    Es2, Et2, Er2, G = _multiplier_bounds(model, gait, sm)
    # trajectories: each run is within its bound of the exact motion, so they differ by at most the sum;
    # measured |dr| 1.6e-12 .. 2.7e-10 m (bounds 3.0e-7 .. 1.9e-5), |dtheta| 1.6e-12 .. 1.8e-10 (bounds
    # 9.9e-8 .. 1.9e-6), |ds| 1.7e-12 .. 2.5e-10 m/s (bounds 2.6e-8 .. 3.2e-7); 74 .. 267 steps
    dr = np.hypot(red["x"] - mul["x"], red["y"] - mul["y"]).max()
    dth = np.abs(red["theta"] - mul["theta"]).max()
    ds = np.abs(red["s"] - mul["s"]).max()
    assert dr < Er1 + Er2 and dth < Et1 + Et2 and ds < Es1 + Es2
    # the constraint residual g = A q' of the multiplier run stays at its initial 0: a first integral
    # (measured <= 4.6e-11, G >= 1.1e-8)
    assert np.all(np.abs(_constraint_residual(model, gait, sm.t, sm.y)) < G[:, None])
    # the servo torques and lateral forces of both frames at the frames' own states, against the
    # four-body Newton-Euler solve (single steps: cond x round-off)
    for df in (red, mul):
        for k in range(0, t.size, 6):
            row = df.iloc[k]
            shape = gait.shape(row["time"])
            c, sn = np.cos(row["theta"]), np.sin(row["theta"])
            vO = np.array([c * row["xi"] - sn * row["eta"], sn * row["xi"] + c * row["eta"]])
            _, _, tau, lam, K = four_bodies(model, row["theta"], vO, row["omega"], shape, 0.2 * model.m, 0.02)
            got = row[["tau_psi", "tau_f", "tau_b", "lambda_f", "lambda_b"]].to_numpy(dtype=float)
            want = np.concatenate([tau, lam])
            np.testing.assert_allclose(got, want, rtol=0, atol=2 * residual_bound(K, np.abs(want).max()))


@pytest.mark.parametrize("formulation", ["reduced", "multipliers"])
def test_energy_balance(formulation):
    """T(t) - T(0) = int (tau_psi psi' + tau_f phi_f' + tau_b phi_b') dt, the servo work."""
    model, gait, s0, pose = CASES["general"]
    t = np.linspace(0.0, 3.0, 31)
    df = model.simulate(gait, t, s0=s0, formulation=formulation, **pose)
    resid = np.abs(df["kinetic_energy"] - df["kinetic_energy"][0] - df["servo_work"]).max()
    sol = _steps(model, gait, 3.0, s0, formulation, **pose)

    def shape_momentum(tk):  # Jr psi' + Jw (phi_f' + phi_b')
        rat = gait.shape(tk)[1]
        return model.Jr * rat[0] + model.Jw * (rat[1] + rat[2])

    if formulation == "reduced":
        # E = T(t, s) - W is a first integral; dT/ds = s Q + d_3 (Jr psi' + Jw (phi_f' + phi_b'))
        def grad(tk, y):
            d = model.null_vector(*gait.shape(tk)[0][1:])
            return np.array([0, 0, 0, y[3] * model.metric(d) + d[2] * shape_momentum(tk), -1.0])
        bound = _first_integral_bound(sol, grad)
    else:
        # E = T - W changes only by g . lambda (the multipliers' power on the constraint residual g)
        def grad(tk, y):
            return np.array([0, 0, 0, model.m * y[3], model.m * y[4], model.I * y[5] + shape_momentum(tk), -1.0])
        # (g is the residual carried from the step ends, constant in between along the exact flow)
        g = np.abs(_constraint_residual(model, gait, sol.t, sol.y)).max(axis=1)
        lam = np.abs(df[["lambda_f", "lambda_b"]].to_numpy()).max(axis=0)
        bound = _first_integral_bound(sol, grad) + t[-1] * float(g @ lam)
    assert resid < bound                                  # measured 3.2e-9 / 5.6e-10, bounds 1.5e-6 / 1.9e-6
    assert np.ptp(df["kinetic_energy"]) > 1e3 * bound     # the servos do real work (T varies by 18.4 J)
    # single-step identities of the columns: P = tau x rate, T from its definition with world velocities
    for p, tau, rate in (("P_psi", "tau_psi", "dpsi"), ("P_f", "tau_f", "dphi_f"), ("P_b", "tau_b", "dphi_b")):
        np.testing.assert_allclose(df[p], df[tau] * df[rate], rtol=roundoff(ulps=4), atol=0)
    vx = df["xi"] * np.cos(df["theta"]) - df["eta"] * np.sin(df["theta"])
    vy = df["xi"] * np.sin(df["theta"]) + df["eta"] * np.cos(df["theta"])
    T = 0.5 * model.m * (vx**2 + vy**2) + 0.5 * model.J * df["omega"]**2 \
        + 0.5 * model.Jr * (df["omega"] + df["dpsi"])**2 \
        + 0.5 * model.Jw * ((df["omega"] + df["dphi_f"])**2 + (df["omega"] + df["dphi_b"])**2)
    np.testing.assert_allclose(df["kinetic_energy"], T, rtol=0, atol=roundoff(df["kinetic_energy"].abs().max()))


# ================================================================================ output
def test_simulate_output():
    model, gait = Snakeboard(), Gait.named("drive_shifted")
    df = model.simulate(gait, np.linspace(0.0, 1.0, 5), xi0=0.5)
    assert list(df.columns) == list(COLUMNS)
    # xi0 sets s0 = xi0 / (cos phi_f cos phi_b) (phi(0) = 0.4 here)
    assert df["xi"][0] == pytest.approx(0.5, abs=roundoff())
    assert df["s"][0] == pytest.approx(0.5 / np.cos(0.4) ** 2, abs=roundoff())
    assert df["eta"].abs().max() < roundoff()  # phi_b = -phi_f: sin(phi_f + phi_b) = 0
    one = model.simulate(gait, [0.25], s0=0.3, x0=1.0, theta0=0.2)
    assert len(one) == 1 and one["x"][0] == 1.0 and one["theta"][0] == 0.2 and one["s"][0] == 0.3
    # simulate is the solver's run: sampled at the solver's own step points it returns the step results
    # (no dense-output interpolation), up to round-off
    sol = _steps(model, gait, 1.0, 0.2)
    again = model.simulate(gait, sol.t, s0=0.2)
    Y = again[["x", "y", "theta", "s", "servo_work"]].to_numpy().T
    np.testing.assert_allclose(Y, sol.y, rtol=0, atol=roundoff(np.abs(sol.y).max()) * sol.t.size)
