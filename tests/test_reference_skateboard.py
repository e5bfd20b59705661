"""Tests of the skateboard reference model (python/nonholonomic/references/skateboard.py).

The model is checked on its own: its kinematics against finite differences and the no-slip
conditions, the closed-form equations against the independent Newton-Euler formulation (one linear
solve for the accelerations and the reactions) at random states and along trajectories, the energy
integral (and the energy balance with damping), the first integral of the case a = 0, the
closed-form linearisation against finite-difference Jacobians of BOTH formulations, and the
behaviours the linearisation predicts against nonlinear runs: decay for a V > 0 above the critical
speed, growth for a V < 0, falling below it, at the rates of the eigenvalues; and the board turning
into the lean.
"""

import math

import numpy as np
import pytest
from bounds import residual_bound, roundoff
from nonholonomic.errors import NonholonomicError
from nonholonomic.references.skateboard import COLUMNS, REACTIONS, Skateboard
from scipy.integrate import solve_ivp

DEFAULT = Skateboard()
# an asymmetric rider (A != B, C large) with damping, so that every term of the equations matters
ODD = Skateboard(m=60.0, l=0.25, lam=0.6, k=180.0, c=4.0, h=0.9, a=-0.07, A=9.0, B=11.0, C=4.5)


def _random_state(rng, theta_max=1.3):
    return np.array([*rng.normal(0.0, 1.0, 2), rng.uniform(-np.pi, np.pi), rng.uniform(-theta_max, theta_max),
                     rng.normal(0.0, 3.0), rng.normal(0.0, 2.0)])


def _centre_of_mass(sb, y):
    """G in the world, written from the conventions (independent of the model's kinematics)."""
    x, yy, psi, th = y[:4]
    e = np.array([np.cos(psi), np.sin(psi), 0.0])
    n = np.array([-np.sin(psi), np.cos(psi), 0.0])
    z_b = np.sin(th) * n + np.cos(th) * np.array([0.0, 0.0, 1.0])
    return np.array([x, yy, 0.0]) + sb.a * e + sb.h * z_b


# ================================================================================ parameters
def test_defaults_and_bad_input():
    sb = DEFAULT
    assert (sb.m, sb.l, sb.lam, sb.k, sb.c, sb.h, sb.a, sb.A, sb.B, sb.C, sb.g) == \
        (73.0, 0.2, math.pi / 4, 250.0, 0.0, 1.0, 0.05, 12.0, 12.0, 1.5, 9.81)
    bad = [{"m": 0.0}, {"m": -1.0}, {"A": 0.0}, {"B": -2.0}, {"C": 0.0}, {"l": 0.0}, {"l": -0.2},
           {"h": 0.0}, {"h": -0.5}, {"k": -1.0}, {"c": -0.1}, {"g": -9.81}, {"lam": 0.0},
           {"lam": math.pi / 2}, {"lam": -0.3}, {"lam": 2.0}, {"a": float("nan")}, {"m": float("inf")},
           {"A": 1.0, "B": 1.0, "C": 2.5}, {"A": 5.0, "B": 1.0, "C": 1.0}, {"A": 1.0, "B": 5.0, "C": 1.0}, {"h": "1"}]
    for kw in bad:
        with pytest.raises(NonholonomicError) as err:
            Skateboard(**kw)
        assert "\n" not in str(err.value) and str(err.value).startswith("skateboard:")
    Skateboard(A=1.0, B=1.0, C=2.0, k=0.0, g=0.0, a=0.0)  # the flat-plate limit and the limits k = 0, a = 0 are allowed
    for kw in ({"theta0": math.pi / 2}, {"theta0": -2.0}, {"V": float("nan")}):
        with pytest.raises(NonholonomicError):
            sb.simulate([0.0, 1.0], **kw)
    with pytest.raises(NonholonomicError):
        sb.simulate([1.0, 0.0])
    with pytest.raises(NonholonomicError):
        sb.stability_map([1.0, 2.0], [0.1], parameter="mass")
    with pytest.raises(NonholonomicError):
        sb.stability_map([1.0, 2.0], [0.5, -0.1], parameter="h")  # a non-physical value in the map
    with pytest.raises(NonholonomicError):
        sb.speed_ratio_a0(0.1)  # only a first integral for a = 0
    with pytest.raises(NonholonomicError):
        sb.critical_speed(h=[1.0, 0.0])


# ================================================================================ kinematics
def test_kinematics_no_slip_and_kinetic_energy():
    """At random states: the axle centres do not slip along their axles (this fixes psi' = kappa v
    sin(theta) together with the steer convention); v_G is the time derivative of G written from the
    conventions (central difference); T of the closed form is 1/2 m |v_G|^2 + 1/2 Omega . I Omega."""
    rng = np.random.default_rng(11)
    for sb in (DEFAULT, ODD):
        for _ in range(20):
            y = _random_state(rng)
            kin = sb.world_kinematics(y)
            e, om = kin["e"], kin["omega"]
            v_O = y[4] * e
            speed = abs(y[4]) + np.abs(om).max() * (sb.l + sb.h + abs(sb.a))
            # axle directions from the conventions: n turned by +delta (front) and -delta (rear) about z,
            # tan(delta) = tan(lam) sin(theta)
            delta = np.arctan(np.tan(sb.lam) * np.sin(y[3]))
            for sign, name in ((1.0, "a_F"), (-1.0, "a_B")):
                a_P = np.array([-np.sin(y[2] + sign * delta), np.cos(y[2] + sign * delta), 0.0])
                v_P = v_O + np.cross(om, sign * sb.l * e)
                assert abs(v_P @ a_P) < roundoff(speed)  # a few products and sums of size `speed`
                np.testing.assert_allclose(kin[name], a_P, rtol=0, atol=roundoff())
            assert kin["delta"] == pytest.approx(delta, abs=roundoff())
            # v_G from a central difference of G along d = dy/dt: G is linear in (x, y) and trigonometric
            # with amplitude <= h + |a| in (psi, theta), so the truncation error is below
            # step^2/6 (h + |a|) (|psi'| + |theta'|)^3; round-off: that of G (size |y| + h) over the step
            d = sb.rhs(0.0, y)
            step = 1e-5
            num = (_centre_of_mass(sb, y + step * d) - _centre_of_mass(sb, y - step * d)) / (2 * step)
            trunc = step**2 / 6 * (sb.h + abs(sb.a)) * (abs(d[2]) + abs(d[3])) ** 3
            assert np.max(np.abs(num - kin["v_G"])) < trunc + roundoff(np.abs(y).max() + sb.h) / step
            # kinetic energy from the world vectors
            I_w = kin["R"] @ np.diag([sb.A, sb.B, sb.C]) @ kin["R"].T
            T = 0.5 * sb.m * kin["v_G"] @ kin["v_G"] + 0.5 * om @ I_w @ om
            assert sb.kinetic_energy(y) == pytest.approx(T, rel=roundoff(ulps=256))  # dozens of products
            # the mass matrix is symmetric positive definite (module docstring)
            M11, M12, M22 = sb.mass_matrix(y[3])
            assert M11 > 0 and M11 * M22 - M12**2 > 0


def test_turns_into_the_lean():
    """Leaning left (theta > 0) turns left: dpsi/dt has the sign of theta for v > 0, the centre of the
    turn (O + n / (kappa sin theta)) and the centre of mass lie on the same side; the sign of dpsi
    reverses with v, the curvature dpsi/ds does not."""
    sb = DEFAULT
    for theta in (0.05, -0.05, 0.3, -0.3):
        for v in (2.0, -2.0):
            y = np.array([0.0, 0.0, 0.7, theta, v, 0.0])
            dpsi = sb.rhs(0.0, y)[2]
            assert np.sign(dpsi) == np.sign(theta) * np.sign(v)
            assert np.sign(dpsi / v) == np.sign(theta)  # curvature
            kin = sb.world_kinematics(y)
            assert np.sign(kin["r_G"] @ kin["n"]) == np.sign(theta)  # the lean side
            assert np.sign(kin["delta"]) == np.sign(theta)  # the front axle turned towards the lean
    # along a weaving run (tilt oscillating about 0) the yaw rate follows the tilt sample by sample
    df = sb.simulate(np.linspace(0.0, 6.0, 301), theta0=0.1, V=3.0)
    big = df["theta"].abs() > 1e-6
    assert big.sum() > 290
    assert np.all(np.sign(df["dpsi"][big]) == np.sign(df["theta"][big]))
    # a left lean from rest-in-tilt (theta0 > 0, psi0 = 0) first carries the board to the left (y > 0)
    assert df["y"].iloc[10] > 0 and df["psi"].iloc[10] > 0


# ================================================================================ two formulations
def test_closed_form_equals_newton_euler_at_random_states():
    """The closed-form (Lagrange-d'Alembert) accelerations equal those of the Newton-Euler solve. The
    bound is the forward error of the solve: cond(M) ulps of the size of its unknowns and right-hand
    side, plus the round-off of the closed-form evaluation (measured <= 1e-14 relative, cond ~ 40)."""
    rng = np.random.default_rng(7)
    worst = 0.0
    for sb in (DEFAULT, ODD, Skateboard(a=0.0, c=1.0, A=3.0, B=10.0, C=8.0)):
        for _ in range(40):
            y = _random_state(rng)
            M, b, _ = sb.newton_euler_system(y)
            X = np.linalg.solve(M, b)
            dv, dw, ddpsi, _ = sb.accelerations_newton_euler(y)
            want_dv, want_dw = sb.accelerations(y[3], y[4], y[5])
            kin = sb.world_kinematics(y)
            scale = np.abs(X).max() + np.abs(b).max() + np.abs(kin["omega"]).max() ** 2 * (sb.l + sb.h + abs(sb.a))
            bound = residual_bound(M, scale) + roundoff(scale, ulps=256)
            assert abs(dv - want_dv) < bound and abs(dw - want_dw) < bound
            # the Newton-Euler yaw acceleration is the derivative of the constraint psi' = kappa v sin(theta)
            dd = sb.kappa * (np.sin(y[3]) * dv + y[4] * np.cos(y[3]) * y[5])
            assert abs(ddpsi - dd) < bound
            worst = max(worst, abs(dv - want_dv) / scale, abs(dw - want_dw) / scale)
            np.testing.assert_allclose(sb.rhs_newton_euler(0.0, y), sb.rhs(0.0, y), rtol=0, atol=bound)
    assert worst < 1e-13  # measured 7e-16; cond(M) <= 40


def test_reactions_at_rest_and_in_a_turn():
    """Board upright at rest: N_F = m g (l + a)/(2 l), N_B = m g (l - a)/(2 l), no lateral forces
    (statics about the roll axis). Steady speed upright: the same. Vertical balance always: the sum of
    the vertical reactions is m (g + z_G'')."""
    sb = DEFAULT
    for v in (0.0, 3.0, -2.0):
        r = sb.reactions(np.array([0.0, 0.0, 0.2, 0.0, v, 0.0]))
        assert set(r) == set(REACTIONS)
        mg = sb.m * sb.g
        M, _, _ = sb.newton_euler_system(np.array([0.0, 0.0, 0.2, 0.0, v, 0.0]))
        bound = residual_bound(M, mg)
        assert r["N_F"] == pytest.approx(mg * (sb.l + sb.a) / (2 * sb.l), abs=bound)
        assert r["N_B"] == pytest.approx(mg * (sb.l - sb.a) / (2 * sb.l), abs=bound)
        assert abs(r["f_F"]) < bound and abs(r["f_B"]) < bound
    rng = np.random.default_rng(2)
    for _ in range(10):
        y = _random_state(rng, theta_max=0.5)
        r = ODD.reactions(y)
        dy = ODD.rhs(0.0, y)
        # z_G = h cos(theta): z_G'' = -h (cos(theta) theta'^2 + sin(theta) theta'')
        zdd = -ODD.h * (np.cos(y[3]) * y[5] ** 2 + np.sin(y[3]) * dy[5])
        M, _, _ = ODD.newton_euler_system(y)
        assert r["N_F"] + r["N_B"] == pytest.approx(ODD.m * (ODD.g + zdd), abs=residual_bound(M, 10 * ODD.m * ODD.g))


def test_trajectories_of_the_two_formulations_agree():
    """Both formulations integrated by DOP853 at rtol = 1e-10, atol = 1e-12 over 4 s. Each run has a
    global error of a few hundred local errors (< rtol |y| each) amplified by at most exp(sigma T)
    (sigma <= 0.4/s here, growth factor 5): bound 2 x 1e3 x rtol x max|y|. Measured 6e-14 .. 1.5e-13:
    the two right-hand sides differ by round-off only, so the runs take nearly the same steps."""
    for sb in (ODD, DEFAULT):
        y0 = sb.initial_state(theta0=0.2, dtheta0=0.5, V=3.0, psi0=0.3)
        t = np.linspace(0.0, 4.0, 41)
        rtol, atol = 1e-10, 1e-12
        s1 = solve_ivp(sb.rhs, (0.0, 4.0), y0, method="DOP853", t_eval=t, rtol=rtol, atol=atol)
        s2 = solve_ivp(sb.rhs_newton_euler, (0.0, 4.0), y0, method="DOP853", t_eval=t, rtol=rtol, atol=atol)
        diff = np.abs(s1.y - s2.y).max()
        assert diff < 2e3 * rtol * np.abs(s1.y).max()
        df = sb.simulate(t, theta0=0.2, dtheta0=0.5, V=3.0, psi0=0.3, rtol=rtol, atol=atol)
        np.testing.assert_array_equal(df[["x", "y", "psi", "theta", "v", "dtheta"]].to_numpy().T, s1.y)


# ================================================================================ energy
@pytest.mark.parametrize("a, V, theta0, T", [(0.05, 3.0, 0.1, 6.0), (-0.05, 3.0, 0.02, 6.0), (0.05, 0.8, 0.01, 2.0),
                                             (0.0, 2.0, 0.3, 6.0)])
def test_energy_is_conserved_without_damping(a, V, theta0, T):
    """c = 0: E = T + m g h cos(theta) + k theta^2/2 is constant. DOP853 holds each local error below
    rtol |y|; the energy error is a linear functional of these (relative size ~ rtol per step) and
    they partly cancel over the ~10^3 steps: measured |E - E0| / E0 <= 1.6e-11 at rtol = 1e-10;
    bound 20 rtol E0. (The runs stay below |theta| = 0.6, inside the physical range.)"""
    sb = Skateboard(a=a)
    t = np.linspace(0.0, T, 301)
    rtol = 1e-10
    df = sb.simulate(t, theta0=theta0, V=V, rtol=rtol)
    assert list(df.columns) == list(COLUMNS)
    assert df["theta"].abs().max() < 0.6
    e0 = df["energy"].iloc[0]
    assert np.max(np.abs(df["energy"] - e0)) < 20 * rtol * e0
    # the derived columns, one formula each
    np.testing.assert_allclose(df["delta"], np.arctan(np.tan(sb.lam) * np.sin(df["theta"])), rtol=0, atol=roundoff())
    np.testing.assert_allclose(df["dpsi"], df["v"] * np.tan(df["delta"]) / sb.l, rtol=0,
                               atol=roundoff(np.abs(df["v"]).max() / sb.l))


def test_energy_balance_with_damping():
    """c > 0: E(t) + int_0^t c dtheta^2 = E(0) (the bushing damping is the only dissipation). The work
    is integrated as a seventh state by the same solver: bound 20 rtol E0 as for the energy."""
    sb = ODD
    y0 = sb.initial_state(theta0=0.2, dtheta0=-0.3, V=2.5)
    rtol = 1e-10

    def rhs(t, z):
        return np.append(sb.rhs(t, z[:6]), sb.c * z[5] ** 2)

    t = np.linspace(0.0, 5.0, 101)
    sol = solve_ivp(rhs, (0.0, 5.0), np.append(y0, 0.0), method="DOP853", t_eval=t, rtol=rtol, atol=1e-12)
    E = sb.energy(sol.y[:6])
    assert sol.y[6, -1] > 1.0  # a few joules dissipated: the check is not trivial
    assert np.max(np.abs(E + sol.y[6] - E[0])) < 20 * rtol * E[0]
    assert np.all(np.diff(E) < 0)  # dE/dt = -c dtheta^2 <= 0


# ================================================================================ linearisation
def _fd_error_bound(sb, V, eps, noise):
    """Bound on the error of the central-difference Jacobian at (0, V, 0), step eps in theta.

    Only the theta column has a truncation error (at theta = 0 the rates are exactly linear in dtheta
    and independent of v): eps^2/6 |d^3 theta''/d theta^3|. theta'' = f2 / (M22 - M12^2/M11) at
    dtheta = 0, a sum of terms of sizes (m g h, k, m h kappa V^2) theta / J, whose cubic relative
    coefficients are 1/6 (gravity), 2/3 + h kappa + |C - B| kappa/(m h) (centripetal), plus
    m (a h kappa)^2 / J from the mass coupling; so the third derivative is below
    6 (1 + h kappa + |C - B| kappa/(m h) + m (a h kappa)^2/J) S, S = (m g h + k + m h kappa V^2)/J,
    with a factor 2 for the cross products of the expansions. Round-off: noise/eps."""
    S = (sb.m * sb.g * sb.h + sb.k + sb.m * sb.h * sb.kappa * V * V) / sb.J
    cubic = 1 + sb.h * sb.kappa + abs(sb.C - sb.B) * sb.kappa / (sb.m * sb.h) + sb.m * (sb.a * sb.h * sb.kappa) ** 2 / sb.J
    return 2 * eps**2 * cubic * S + noise / eps


def _fd_jacobian(f, y, steps):
    """Central-difference Jacobian of the (theta, v, dtheta) rates of f at y."""
    idx = (3, 4, 5)
    Jm = np.zeros((3, 3))
    for j, (i, hstep) in enumerate(zip(idx, steps)):
        dp, dm = y.copy(), y.copy()
        dp[i] += hstep
        dm[i] -= hstep
        Jm[:, j] = (f(0.0, dp)[list(idx)] - f(0.0, dm)[list(idx)]) / (2 * hstep)
    return Jm


@pytest.mark.parametrize("route", ["closed form", "newton-euler"])
@pytest.mark.parametrize("sb, V", [(DEFAULT, 2.0), (DEFAULT, 4.0), (DEFAULT, 0.5), (Skateboard(a=-0.05), 3.0), (ODD, 2.0),
                                   (ODD, -1.0)])
def test_linearisation_against_finite_differences(sb, V, route):
    """The Jacobian of (theta', v', dtheta'') at (theta, v, dtheta) = (0, V, 0) is
    [[0, 0, 1], [0, 0, 0], [-K/J, 0, -D/J]], to the central-difference error bound of _fd_error_bound
    (measured 0.1 .. 0.7 of it). The round-off of one evaluation is a few ulps of the terms
    (closed form) or cond(M) ulps of the unknowns ~ g (Newton-Euler, hence its larger step)."""
    f = sb.rhs if route == "closed form" else sb.rhs_newton_euler
    y = np.array([0.3, -0.2, 0.4, 0.0, V, 0.0])
    J, D, K = sb.linear_coefficients(V)
    exact = np.array([[0.0, 0.0, 1.0], [0.0, 0.0, 0.0], [-K / J, 0.0, -D / J]])
    if route == "closed form":
        eps = 1e-5
        noise = roundoff(eps * (sb.m * sb.g * sb.h + sb.k + sb.m * sb.h * sb.kappa * V * V + abs(D)) / J)
    else:
        M, _, _ = sb.newton_euler_system(y)
        eps, noise = 3e-5, residual_bound(M, 10.0 * sb.g)
    steps = (eps, eps * max(1.0, abs(V)), eps)
    Jfd = _fd_jacobian(f, y, steps)
    bound = _fd_error_bound(sb, V, eps, noise)
    assert np.max(np.abs(Jfd - exact)) < bound
    # eigenvalues of the (theta, dtheta) block: |d lambda| <= (|dp| + |lambda| |dq|) / |lambda1 - lambda2|
    lam = sb.eigenvalues(V)
    blk = np.linalg.eigvals(Jfd[np.ix_([0, 2], [0, 2])])
    blk = blk[np.argsort(-blk.real - 1e-9 * blk.imag)]
    lam_sorted = lam[np.argsort(-lam.real - 1e-9 * lam.imag)]
    tol = bound * (1.0 + np.abs(lam).max()) / abs(lam[0] - lam[1])
    np.testing.assert_allclose(blk, lam_sorted, rtol=0, atol=tol)
    # characteristic polynomial: J s^2 + D s + K vanishes at the eigenvalues (a single formula)
    for s in lam:
        assert abs(np.polyval(sb.characteristic_polynomial(V), s)) < roundoff(J * abs(s) ** 2 + abs(D * s) + abs(K))


def test_critical_speed_and_eigenvalues_of_the_defaults():
    sb = DEFAULT
    m, g, h, k, l, lam = 73.0, 9.81, 1.0, 250.0, 0.2, math.pi / 4
    Vc = math.sqrt(l * (m * g * h - k) / (m * h * math.tan(lam)))
    assert sb.critical_speed() == pytest.approx(Vc, rel=roundoff(ulps=8))
    assert sb.critical_speed() == pytest.approx(1.1300745520, abs=1e-10)
    J, D, K = sb.linear_coefficients(Vc)
    assert abs(K) < roundoff(m * g * h)  # K(V_c) = 0: cancellation of terms of size m g h
    assert J == pytest.approx(85.0, rel=roundoff(ulps=4))
    # eigenvalues (-D +- i sqrt(4 J K - D^2)) / (2 J), written out: J = 85, D = m a h V tan(lam)/l,
    # K = k - m g h + m h V^2 tan(lam)/l
    for a in (0.05, -0.05):
        for V in (2.0, 4.0):
            D = 73 * a * 1.0 * V * math.tan(lam) / 0.2
            K = 250 - 73 * 9.81 + 73 * V * V * math.tan(lam) / 0.2
            want = complex(-D / 170, math.sqrt(4 * 85 * K - D * D) / 170)
            got = Skateboard(a=a).eigenvalues(V)
            assert got[0] == pytest.approx(want, abs=roundoff(10.0))
            assert got[1] == pytest.approx(want.conjugate(), abs=roundoff(10.0))
    # the values quoted in the report
    np.testing.assert_allclose(Skateboard(a=0.05).eigenvalues(2.0)[0], -0.2147058824 + 3.4126953599j, atol=1e-10)
    np.testing.assert_allclose(Skateboard(a=0.05).eigenvalues(4.0)[0], -0.4294117647 + 7.9396225059j, atol=1e-10)
    np.testing.assert_allclose(Skateboard(a=-0.05).eigenvalues(2.0)[0], 0.2147058824 + 3.4126953599j, atol=1e-10)
    # m g h <= k: the bushings alone hold the rider, V_c = 0
    assert Skateboard(k=800.0).critical_speed() == 0.0
    np.testing.assert_allclose(sb.critical_speed(h=[0.3, 1.0]), [0.0, Vc], rtol=roundoff(ulps=8))


def test_stability_conditions():
    """Below V_c one real positive eigenvalue for any a (and any damping); above V_c the sign of the
    largest real part is -sign(a V) (c = 0), zero at a = 0; with damping the boundary is
    a V = -c/(m h kappa)."""
    sb = DEFAULT
    Vc = sb.critical_speed()
    for a in (-0.3, -0.05, 0.0, 0.05, 0.3):
        for V in (0.0, 0.5 * Vc, 0.99 * Vc, -0.8 * Vc):
            lam = Skateboard(a=a, c=[0.0, 5.0][a > 0]).eigenvalues(V)
            assert lam[0].real > 0 and lam[0].imag == 0 and lam[1].real < 0
        for V in (1.01 * Vc, 2.0, 4.0, -3.0):
            mr = Skateboard(a=a).max_real_part(V)
            if a == 0:
                assert mr == 0.0  # purely imaginary: D = 0 exactly
            else:
                assert np.sign(mr) == -np.sign(a * V)
    # damping: the boundary a V = -c / (m h kappa)
    c = 5.0
    a_star = -c / (sb.m * sb.h * sb.kappa * 3.0)
    assert Skateboard(a=a_star * 0.99, c=c).max_real_part(3.0) < 0 < Skateboard(a=a_star * 1.01, c=c).max_real_part(3.0)
    assert abs(Skateboard(a=a_star, c=c).max_real_part(3.0)) < roundoff(c / sb.J)


def test_stability_maps_and_the_second_route():
    """stability_map over (V, h) and (V, a): the sign structure follows V_c(h) and a V, and each entry
    equals the largest real eigenvalue of the finite-difference Jacobian of the NEWTON-EULER route
    (bound: the Jacobian error of test_linearisation_against_finite_differences propagated through
    the eigenvalue sensitivity of the 2 x 2 block)."""
    sb = DEFAULT
    V = np.array([0.3, 0.9, 1.6, 3.0])
    hs = np.array([0.3, 0.6, 1.0, 1.4])
    mp = sb.stability_map(V, hs, parameter="h")
    assert mp.shape == (4, 4)
    Vc = sb.critical_speed(hs)
    assert Vc[0] == 0.0 and np.all(np.diff(Vc) > 0)
    np.testing.assert_array_equal(mp < 0, V[None, :] > Vc[:, None])  # a = 0.05 > 0: stable above V_c(h)
    a_vals = np.array([-0.1, 0.0, 0.1])
    ma = sb.stability_map(V, a_vals, parameter="a")
    above = V > sb.critical_speed()
    assert np.all(ma[0, above] > 0) and np.all(ma[1, above] == 0) and np.all(ma[2, above] < 0)
    assert np.all(ma[:, ~above] > 0)
    # entries against the Newton-Euler route
    eps = 3e-5
    for grid, name, vals in ((mp, "h", hs), (ma, "a", a_vals)):
        for i, p in enumerate(vals):
            model = Skateboard(**{name: float(p)})
            for j, Vj in enumerate(V):
                y = np.array([0.0, 0.0, 0.0, 0.0, Vj, 0.0])
                M, _, _ = model.newton_euler_system(y)
                Jfd = _fd_jacobian(model.rhs_newton_euler, y, (eps, eps * max(1.0, Vj), eps))
                lam = model.eigenvalues(Vj)
                bound = _fd_error_bound(model, Vj, eps, residual_bound(M, 10 * model.g))
                tol = bound * (1.0 + np.abs(lam).max()) / abs(lam[0] - lam[1])
                fd = np.linalg.eigvals(Jfd[np.ix_([0, 2], [0, 2])]).real.max()
                assert abs(fd - grid[i, j]) < tol
                # the v row and column vanish to the same accuracy: v is neutral to first order
                assert np.abs(Jfd[1, :]).max() < bound and abs(Jfd[2, 1]) < bound


# ================================================================================ nonlinear runs
def _extrema(sb, y0, T, rtol=1e-10, atol=1e-14):
    """Times and values of the local extrema of theta (events dtheta = 0) on (0, T]."""
    sol = solve_ivp(sb.rhs, (0.0, T), y0, method="DOP853", rtol=rtol, atol=atol,
                    events=lambda t, y: y[5], dense_output=True)
    te = sol.t_events[0]
    te = te[te > 1e-9]
    return te, sol.sol(te)[3], sol


@pytest.mark.parametrize("a, V, T", [(0.05, 2.0, 12.0), (0.05, 4.0, 8.0), (-0.05, 2.0, 8.0), (-0.05, 4.0, 4.0),
                                     (-0.05, -3.0, 8.0), (0.05, -3.0, 5.0)])
def test_small_oscillations_grow_or_decay_at_the_eigenvalue_rate(a, V, T):
    """Above V_c: small nonlinear oscillations (theta0 = 1e-3) have the eigenvalue sigma +- i omega.
    The extrema of theta (dtheta = 0) of sigma e^{sigma t} cos(omega t + phi) are spaced by pi/omega
    and their absolute values lie on e^{sigma t} exactly; so a log-linear fit of |theta| at the extrema
    returns sigma, and their spacing omega, up to the neglected nonlinearity: the cubic terms carry
    relative coefficients 1/6 .. 3/2 h kappa per rad^2 (sin/cos, the factor 1 - h kappa s^2, the
    speed change of order 3/2 h kappa theta^2 V), so |d lambda| <= 10 (1 + h kappa) A^2 |lambda|,
    A = the largest amplitude of the run (measured: |d sigma| <= 0.34 A^2 |lambda|,
    |d omega| <= 7.8 A^2 |lambda|; the error scales as A^2, checked at A = 1e-3 .. 3e-2)."""
    sb = Skateboard(a=a)
    lam = sb.eigenvalues(V)[0]
    theta0 = 1e-3
    te, th, _ = _extrema(sb, sb.initial_state(theta0=theta0, V=V), T)
    assert len(te) >= 8
    sigma, _ = np.polyfit(te, np.log(np.abs(th)), 1)
    omega = np.pi / np.mean(np.diff(te))
    amp = max(theta0, np.abs(th).max())
    bound = 10.0 * (1.0 + sb.h * sb.kappa) * amp**2 * abs(lam)
    assert abs(sigma - lam.real) < bound
    assert abs(omega - lam.imag) < bound
    assert abs(lam.real) > 20 * bound  # the rate is resolved, not only bounded
    assert np.sign(sigma) == -np.sign(a * V)


@pytest.mark.parametrize("a", [0.05, -0.05, 0.0])
def test_below_critical_speed_the_board_falls_at_the_eigenvalue_rate(a):
    """V = 0.5 m/s < V_c: start on the unstable eigenvector (dtheta0 = lambda1 theta0), theta grows as
    e^{lambda1 t}; fit log theta over theta = 1e-4 .. 3e-3 (bound as for the oscillations)."""
    sb = Skateboard(a=a)
    V = 0.5
    lam = sb.eigenvalues(V)[0].real
    theta0 = 1e-4
    T = math.log(30.0) / lam
    t = np.linspace(0.0, T, 60)
    df = sb.simulate(t, theta0=theta0, dtheta0=lam * theta0, V=V, atol=1e-16)
    slope = np.polyfit(t, np.log(df["theta"]), 1)[0]
    bound = 10.0 * (1.0 + sb.h * sb.kappa) * df["theta"].max() ** 2 * lam
    assert abs(slope - lam) < bound and lam > 100 * bound


@pytest.mark.parametrize("a, V", [(0.05, 3.0), (-0.05, -3.0), (0.05, 2.0)])
def test_nonlinear_tilt_decays_for_positive_aV(a, V):
    """theta0 = 0.1 rad (6 degrees): the tilt decays. At 0.1 rad the decay rate is smaller than
    |sigma| by O(theta^2) (about 0.34 theta^2 |lambda| ~ 0.01/s, see the small-amplitude test), so over
    13 s the amplitude stays below twice the linear prediction theta0 e^{sigma t} (measured 1.1 - 1.2
    times). The energy of the tilt and the work of raising the rider go into the speed: v tends to
    sign(V) sqrt(2 (E0 - m g h)/m) (the state theta = dtheta = 0 with energy E0), up to the energy
    still in the residual tilt A: bound 10 (1 + h kappa) A^2 |V| (measured 1e-5 .. 2.4e-4)."""
    sb = Skateboard(a=a)
    sigma = sb.eigenvalues(V)[0].real
    t = np.linspace(0.0, 15.0, 1501)
    df = sb.simulate(t, theta0=0.1, V=V)
    late = df["theta"].abs()[df["time"] > 13.0].max()
    assert late < 2 * 0.1 * math.exp(sigma * 13.0)
    assert late < 0.05
    v_inf = np.sign(V) * math.sqrt(2 * (df["energy"].iloc[0] - sb.m * sb.g * sb.h) / sb.m)
    assert abs(df["v"].iloc[-1] - v_inf) < 10 * (1 + sb.h * sb.kappa) * late**2 * abs(V)
    assert abs(v_inf) < abs(V)  # raising the rider from theta0 = 0.1 costs more than the tilt energy returns
    assert np.sign(df["v"]).eq(np.sign(V)).all()


@pytest.mark.parametrize("a, V", [(-0.05, 3.0), (0.05, -3.0)])
def test_nonlinear_tilt_grows_for_negative_aV(a, V):
    """theta0 = 0.02: the oscillation grows at about sigma (> 0) until the tilt passes 0.15 rad."""
    sb = Skateboard(a=a)
    sigma = sb.eigenvalues(V)[0].real
    assert sigma > 0.3
    t = np.linspace(0.0, 8.0, 801)
    df = sb.simulate(t, theta0=0.02, V=V)
    env = [df["theta"].abs()[(df["time"] >= t0) & (df["time"] < t0 + 1.0)].max() for t0 in range(8)]
    assert env[-1] > 0.15 > env[0]
    assert np.all(np.diff(env) > 0)  # grows period after period


@pytest.mark.parametrize("a", [0.05, -0.05, 0.3])
def test_nonlinear_board_falls_below_critical_speed(a):
    """V = 0.5 m/s < V_c, theta0 = 0.02: the tilt grows monotonically past 0.3 rad (deck on the ground)
    within about ln(0.3/0.02)/lambda1 (plus the time the stable mode takes to die out)."""
    sb = Skateboard(a=a)
    lam = sb.eigenvalues(0.5)[0].real
    t_fall = math.log(0.3 / 0.02) / lam
    t = np.linspace(0.0, 1.5 * t_fall, 301)
    df = sb.simulate(t, theta0=0.02, V=0.5)
    theta = df["theta"].to_numpy()
    upto = theta < 0.3
    assert not upto.all() and np.all(np.diff(theta[upto]) > 0)


def test_a_zero_is_neutral_with_a_first_integral():
    """a = 0, c = 0: the extrema of theta keep their size (neither decay nor growth; bound: the global
    error of the run, 1e3 rtol theta0 as in the trajectory test) and v / Phi(theta) is conserved to
    the solver tolerance (20 rtol, as for the energy). For C = 0 Phi is (D(u)/m)^(-3/4) in closed form."""
    sb = Skateboard(a=0.0)
    theta0 = 0.25
    rtol = 1e-10
    te, th, sol = _extrema(sb, sb.initial_state(theta0=theta0, V=3.0), 10.0, rtol=rtol, atol=1e-12)
    assert len(te) > 10
    np.testing.assert_allclose(np.abs(th), theta0, rtol=0, atol=1e3 * rtol * theta0)
    t = np.linspace(0.0, 10.0, 41)
    y = sol.sol(t)
    ratio = y[4] / sb.speed_ratio_a0(y[3])
    np.testing.assert_allclose(ratio, ratio[0], rtol=20 * rtol)
    assert np.ptp(y[4]) > 0.05  # the speed does change with the tilt (the integral is not trivial)
    # C = 0 limit (triangle inequality with A = B): Phi = (D(u)/m)^(-3/4)
    flat = Skateboard(a=0.0, A=12.0, B=12.0, C=1e-300)
    u = np.sin(0.4) ** 2
    D = flat.m * (1 - flat.h * flat.kappa * u) ** 2 + flat.kappa**2 * u * flat.B * u
    assert flat.speed_ratio_a0(0.4) == pytest.approx((D / flat.m) ** -0.75, rel=1e-12)
    # small theta: ln Phi = (3/2 h kappa - kappa^2 C / (2 m)) theta^2 + O(theta^4); the relative size of
    # the theta^4 term is at most (1 + h kappa)^2 theta^2 (measured 5 theta^2)
    small = 1e-3
    coef = 1.5 * sb.h * sb.kappa - sb.kappa**2 * sb.C / (2 * sb.m)
    assert math.log(sb.speed_ratio_a0(small)) == pytest.approx(coef * small**2,
                                                               rel=(1 + sb.h * sb.kappa) ** 2 * small**2)


def test_pivot_bushing_is_the_roll_law_to_first_order_and_conserves_its_energy():
    roll, pivot = Skateboard(), Skateboard(bushing="pivot")
    theta = np.linspace(-1.2, 1.2, 49)
    # its torque is minus the derivative of its energy (central difference, step 1e-6: truncation 1e-12 N m
    # times the third derivative, round-off 1e-10 N m from an energy of ~100 J)
    step = 1e-6
    numeric = -(pivot.bushing_energy(theta + step) - pivot.bushing_energy(theta - step)) / (2 * step)
    np.testing.assert_allclose(pivot.bushing_torque(theta), numeric, rtol=0, atol=1e-6)
    # -k (theta - 4/3 theta^3 + O(theta^5)) at lam = 45 deg (series of atan(sqrt(2) tan theta) and of the
    # denominator 1/2 + sin(theta)^2/2): at 1e-3 rad the cubic term is the whole difference to 1e-6 relative
    small = np.array([-1e-3, 1e-3])
    np.testing.assert_allclose(pivot.bushing_torque(small) - roll.bushing_torque(small), 250 * 4 / 3 * small**3,
                               rtol=1e-5)
    # the linearisation is the same
    np.testing.assert_allclose(pivot.eigenvalues(3.0), roll.eigenvalues(3.0), rtol=0, atol=1e-15 * 10)
    # energy with the pivot law is conserved (c = 0) to a bound from the solver tolerance, as for the roll law
    t = np.linspace(0.0, 4.0, 401)
    df = pivot.simulate(t, theta0=0.3, V=3.0)  # stays below 0.3 rad (0.4 rad tips over)
    assert np.max(np.abs(df["energy"] - df["energy"].iloc[0])) < 20 * 1e-10 * abs(df["energy"].iloc[0])
    # and the two laws part at large tilts (the pivot law is softer: it restores less at 0.4 rad)
    assert abs(pivot.bushing_torque(0.4)) < abs(roll.bushing_torque(0.4))
