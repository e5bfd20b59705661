"""Tests of the ball-on-a-surface-of-revolution reference model (seed 000, Kosenko et al. 2024).

Oracles: the energy integral; the numbers of DIGEST.md section 1.8 (computed, not published);
Routh's property that (v2, Lambda) are single-valued functions of q1; the equivalence of the
printed (23) with a rescaled consistent system; and an independent brute-force 3-D
Newton-Euler model of the ball (centre on the surface, no slip v_G + w x (-R n) = 0) that
checks (19), the reactions and the sign conventions documented in ball_on_surface.py.
"""

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from nonholonomic.errors import NonholonomicError
from nonholonomic.references.ball_on_surface import (
    PAPER_Y0, BallOnSurfaceOfRevolution, ParaboloidDimensionless)
from nonholonomic.references.meridians import (
    Cone, EllipsoidBowl, Paraboloid, SphericalBowl, TorusTrough, meridian_from_code)

from bounds import roundoff

G = 9.81

# (meridian, initial state (q1, q2, v1, v2, Lambda), q1 range for random states)
CASES = {
    "paraboloid": (Paraboloid(0.5), (1.0, 0.0, 1.0, 3.0, 0.2), (0.3, 3.0)),
    "sphere": (SphericalBowl(1.0), (0.5, 0.0, 0.5, 2.0, 0.3), (0.2, 1.4)),
    "ellipsoid": (EllipsoidBowl(1.0, 0.6), (0.7, 0.0, 0.3, 2.5, 0.1), (0.2, 1.4)),
    "cone": (Cone(1.0, 1.0), (1.0, 0.0, 0.0, 2.0, 0.2), (0.3, 3.0)),
    "torus": (TorusTrough(0.3, 1.0), (0.3, 0.0, 1.0, 1.5, 0.2), (-1.2, 1.2)),
}


def turning_points(model, y0, t_end, rtol=1e-12):
    """Times and states where dq1/dt = 0 (q1 turning points), from event location."""
    sol = solve_ivp(model.rhs, (0.0, t_end), y0, method="DOP853", rtol=rtol, atol=1e-12,
                    events=lambda t, y: y[2])
    return sol.t_events[0], sol.y_events[0]


# ------------------------------------------------------------------------------ meridians
def test_meridian_codes():
    for code, cls in enumerate([Paraboloid, SphericalBowl, EllipsoidBowl, Cone, TorusTrough], 1):
        m = meridian_from_code(code, 0.4, 1.3)
        assert type(m) is cls and m.code == code and m.a == 0.4
    with pytest.raises(NonholonomicError):
        meridian_from_code(6, 1.0, 1.0)
    with pytest.raises(NonholonomicError):
        TorusTrough(1.0, 0.5)


@pytest.mark.parametrize("name", CASES)
def test_meridian_derivatives_and_frame(name):
    m, _, (lo, hi) = CASES[name]
    s = np.linspace(lo, hi, 7)
    h = 1e-4
    fd = lambda f: (f(s + h) - f(s - h)) / (2 * h)
    for f, df in [(m.rho, m.drho), (m.zeta, m.dzeta), (m.drho, m.d2rho), (m.dzeta, m.d2zeta),
                  (m.h1, m.dh1), (m.h2, m.dh2)]:
        np.testing.assert_allclose(df(s), fd(f), atol=1e-7)
    q2 = np.linspace(0.0, 6.0, 7)
    e1, e2, e3 = m.frame_vectors(s, q2)
    r = lambda s_, q_: m.position(s_, q_)
    np.testing.assert_allclose(e1, (r(s + h, q2) - r(s - h, q2)) / (2 * h) / m.h1(s)[:, None],
                               atol=1e-7)  # e1 = r_q1 / h1
    np.testing.assert_allclose(e2, (r(s, q2 + h) - r(s, q2 - h)) / (2 * h) / m.h2(s)[:, None],
                               atol=1e-7)  # e2 = r_q2 / h2
    # unit vectors from one formula each: round-off of size 1
    np.testing.assert_allclose(e3, np.cross(e1, e2), atol=roundoff())
    np.testing.assert_allclose(np.linalg.norm(e1, axis=-1), 1.0, atol=roundoff())
    if name != "torus":  # bowls: e3 points up (ball inside)
        assert np.all(e3[:, 2] > 0)


# ------------------------------------------------------------------------------ energy
@pytest.mark.parametrize("name", CASES)
def test_energy_conserved(name):
    m, y0, _ = CASES[name]
    model = BallOnSurfaceOfRevolution(m, g=G)
    df = model.simulate(y0, np.linspace(0.0, 10.0, 501))
    drift = np.max(np.abs(df["energy"] - df["energy"][0]))  # m^2/s^2; |H(0)| is 0.6 .. 9
    assert drift < 1e-9  # measured 6e-12 .. 4.5e-11 over 10 s (rtol 1e-11, DOP853)
    assert df["q1"].max() - df["q1"].min() > 0.05  # the ball really moves


def test_simulate_columns_and_reactions():
    m, y0, _ = CASES["sphere"]
    df = BallOnSurfaceOfRevolution(m).simulate(y0, np.linspace(0, 1, 11), mass=2.0)
    assert list(df.columns) == ["time", "q1", "q2", "v1", "v2", "Lambda", "energy",
                                "F1", "F2", "N"]
    assert np.all(df["N"] > 0)


# ------------------------------------------------------------------------------ paper case
# DIGEST.md 1.8 (computed with DOP853, rtol 1e-12): q1 range, period, first maximum, q2 advance.
PAPER = {"printed": (0.726166, 6.258809, 20.47689, 10.02269, 6.5560),
         "consistent": (0.727589, 5.578819, 16.56299, 8.06690, 6.5722)}


@pytest.mark.parametrize("variant", PAPER)
def test_paper_numbers(variant):
    q_min, q_max, period, t_first_max, dq2 = PAPER[variant]
    model = ParaboloidDimensionless(variant=variant)
    t, y = turning_points(model, PAPER_Y0, 45.0)
    is_max = y[:, 0] > 3.0
    assert abs(t[0] - t_first_max) < 1e-5 and is_max[0]
    np.testing.assert_allclose(y[is_max, 0], q_max, atol=1e-5)
    np.testing.assert_allclose(y[~is_max, 0], q_min, atol=1e-5)
    np.testing.assert_allclose(np.diff(t[is_max]), period, atol=1e-5)
    np.testing.assert_allclose(np.diff(y[is_max, 1]), dq2, atol=1e-4)
    df = model.simulate(PAPER_Y0, np.linspace(0.0, 45.0, 901))
    assert np.ptp(df["energy"]) < 1e-9 * df["energy"][0]  # measured 4e-11 relative
    if variant == "printed":
        assert abs(df["energy"][0] - 8.6792857) < 1e-7  # DIGEST H_p(0)


@pytest.mark.parametrize("variant", PAPER)
def test_routh_single_valued(variant):
    """(y2, y3) are functions of q1 alone: equal at equal q1 (turning points, level crossings)."""
    model = ParaboloidDimensionless(variant=variant)
    t, y = turning_points(model, PAPER_Y0, 45.0)
    for sel in (y[:, 0] > 3.0, y[:, 0] < 3.0):
        assert sel.sum() >= 2
        assert np.max(np.abs(y[sel][:, 3:] - y[sel][0, 3:])) < 1e-8  # measured ~1e-11
    if variant == "printed":
        np.testing.assert_allclose(y[0, 3:], [0.088649, -4.628539], atol=1e-6)
        np.testing.assert_allclose(y[1, 3:], [5.700219, 0.504757], atol=1e-6)
    sol = solve_ivp(model.rhs, (0.0, 45.0), PAPER_Y0, method="DOP853", rtol=1e-12, atol=1e-12,
                    events=lambda t, y: y[0] - 2.0)
    ye = sol.y_events[0]
    up, down = ye[ye[:, 2] > 0], ye[ye[:, 2] < 0]
    assert len(up) >= 2 and len(down) >= 2
    assert np.max(np.abs(np.vstack([up, down])[:, 3:] - up[0, 3:])) < 1e-8
    np.testing.assert_allclose(down[:, 2], -up[0, 2], atol=1e-8)  # y1 changes sign only


def test_printed_is_rescaled_consistent():
    """Second derivation of the digest claim: printed (23) = consistent with lam', n2', y3/lam'."""
    printed = ParaboloidDimensionless(variant="printed")
    cons, f = printed.printed_as_consistent()
    assert abs(cons.lam - 5 / 12) < roundoff() and abs(cons.n2 - 1 / 7) < roundoff()  # a few divisions
    tau = np.linspace(0.0, 20.0, 201)
    a = printed.simulate(PAPER_Y0, tau)
    y0 = np.array(PAPER_Y0) * [1, 1, 1, 1, f]
    b = cons.simulate(y0, tau)
    np.testing.assert_allclose(b[["q1", "q2", "y1", "y2"]], a[["q1", "q2", "y1", "y2"]],
                               atol=1e-8)
    np.testing.assert_allclose(b["y3"] / f, a["y3"], atol=1e-8)


def test_consistent_equals_dimensional_19():
    """(23)-consistent with the paper's scalings is (19) on the paraboloid a = R/lam."""
    radius = 0.05
    dimless = ParaboloidDimensionless(variant="consistent")
    model = dimless.to_dimensional(radius, G)
    tau = np.linspace(0.0, 20.0, 101)
    a = dimless.simulate(PAPER_Y0, tau)
    s, c = np.sqrt(radius / G), np.sqrt(G * radius)
    y0 = np.array(PAPER_Y0) * [1, 1, 1 / s, 1 / s, c]
    b = model.simulate(y0, tau * s)
    np.testing.assert_allclose(b["q1"], a["q1"], atol=1e-8)
    np.testing.assert_allclose(b["v2"] * s, a["y2"], atol=1e-8)
    np.testing.assert_allclose(b["Lambda"] / c, a["y3"], atol=1e-8)
    # energies: lam^2 H / (g R) is the consistent dimensionless energy
    np.testing.assert_allclose(dimless.lam**2 * b["energy"] / (G * radius), a["energy"],
                               rtol=1e-10)


@pytest.mark.parametrize("variant", PAPER)
def test_contact_force_positive_on_paper_run(variant):
    dimless = ParaboloidDimensionless(variant=variant)
    factor = 1.0
    if variant == "printed":  # the physical problem the printed (23) describes (n2' = 1/7)
        dimless, factor = dimless.printed_as_consistent()
    radius, mass = 0.05, 1.0
    s, c = np.sqrt(radius / G), np.sqrt(G * radius)
    y0 = np.array(PAPER_Y0) * [1, 1, 1 / s, 1 / s, c * factor]
    df = dimless.to_dimensional(radius, G).simulate(y0, np.linspace(0, 45 * s, 1001), mass=mass)
    assert df["N"].min() > 0.2 * mass * G  # measured min N/(M g): 0.274 printed, 0.344 consistent


# ------------------------------------------------------------------------------ 3-D check
def _skew(n):
    return np.array([[0, -n[2], n[1]], [n[2], 0, -n[0]], [-n[1], n[0], 0]])


def newton_euler_3d(m, y, mass, radius, inertia, g=G):
    """Brute-force 3-D ball: returns (q1'', q2'', Lambda', F_world, consistency residual).

    Unknowns: centre acceleration a, angular acceleration alpha, contact force F (world frame).
      M a = F + M g_vec;  J alpha = (-R n) x F;  d/dt[v - R w x n] = 0  (no slip, (3)),
    where n = unit normal of the centre surface, computed here from r_q1 x r_q2 and
    differentiated numerically, independently of the paper's curvatures (12), (13).
    """
    q1, q2, v1, v2, lam = y

    def derivs(s, p):
        rho, drho, d2rho = m.rho(s), m.drho(s), m.d2rho(s)
        dz, d2z = m.dzeta(s), m.d2zeta(s)
        c, sn = np.cos(p), np.sin(p)
        r1 = np.array([drho * c, drho * sn, dz])
        r2 = np.array([-rho * sn, rho * c, 0.0])
        r11 = np.array([d2rho * c, d2rho * sn, d2z])
        r12 = np.array([-drho * sn, drho * c, 0.0])
        r22 = np.array([-rho * c, -rho * sn, 0.0])
        return r1, r2, r11, r12, r22

    def normal(s, p):
        r1, r2 = derivs(s, p)[:2]
        n = np.cross(r1, r2)
        return n / np.linalg.norm(n)

    h = 1e-3  # 5-point central differences, error ~ h^4
    d5 = lambda f: (-f(2 * h) + 8 * f(h) - 8 * f(-h) + f(-2 * h)) / (12 * h)
    ndot = d5(lambda e: normal(q1 + e, q2)) * v1 + d5(lambda e: normal(q1, q2 + e)) * v2
    r1, r2, r11, r12, r22 = derivs(q1, q2)
    n = normal(q1, q2)
    v = r1 * v1 + r2 * v2
    w = np.cross(n, v) / radius + lam / radius * n  # no slip + Lambda = R w.n
    assert np.allclose(v - radius * np.cross(w, n), 0.0, atol=roundoff(np.abs(v).max()))  # one formula

    A = np.zeros((9, 9))
    rhs = np.zeros(9)
    I3, S = np.eye(3), _skew(n)
    A[0:3, 0:3], A[0:3, 6:9], rhs[0:3] = mass * I3, -I3, [0.0, 0.0, -mass * g]
    A[3:6, 3:6], A[3:6, 6:9] = inertia * I3, radius * S  # J alpha + R n x F = 0
    A[6:9, 0:3], A[6:9, 3:6], rhs[6:9] = I3, radius * S, radius * np.cross(w, ndot)
    x = np.linalg.solve(A, rhs)
    acc, alpha, F = x[0:3], x[3:6], x[6:9]
    # centre stays on the surface: a = r1 q1'' + r2 q2'' + r11 v1^2 + 2 r12 v1 v2 + r22 v2^2
    b = acc - (r11 * v1**2 + 2 * r12 * v1 * v2 + r22 * v2**2)
    qdd, *_ = np.linalg.lstsq(np.column_stack([r1, r2]), b, rcond=None)
    resid = np.linalg.norm(np.column_stack([r1, r2]) @ qdd - b)
    dlam = radius * (alpha @ n + w @ ndot)
    return qdd[0], qdd[1], dlam, F, resid


@pytest.mark.parametrize("name", CASES)
def test_newton_euler_3d_matches_19_and_reactions(name):
    m, _, (lo, hi) = CASES[name]
    model = BallOnSurfaceOfRevolution(m, n2=2 / 7, g=G)
    mass, radius = 1.7, 0.08
    inertia = 0.4 * mass * radius**2  # solid ball: n2 = J/(J + M R^2) = 2/7
    rng = np.random.default_rng(7)
    worst = 0.0
    for _ in range(6):
        y = np.array([rng.uniform(lo, hi), rng.uniform(0, 2 * np.pi), *rng.normal(0, 1.5, 3)])
        a1, a2, dlam, F, resid = newton_euler_3d(m, y, mass, radius, inertia)
        ref = model.rhs(0.0, y)
        e1, e2, e3 = model.frame_vectors(y[0], y[1])
        got = np.array([a1, a2, dlam, F @ e1, F @ e2, F @ e3])
        want = np.array([ref[2], ref[3], ref[4], *model.reactions(y, mass)])
        scale = 1.0 + np.abs(want)
        worst = max(worst, np.max(np.abs(got - want) / scale), resid)
        # documented conventions: w_0 and Lambda, world_state
        rG, vG, w0 = model.world_state(y, radius)
        np.testing.assert_allclose(radius * w0 @ e3, y[4], atol=1e-12)
        np.testing.assert_allclose(vG + np.cross(w0, -radius * e3), 0.0, atol=1e-12)
        np.testing.assert_allclose(rG, m.position(y[0], y[1]), atol=roundoff(np.abs(rG).max()))
    assert worst < 1e-9  # measured <= 5e-12 (relative to 1 + |value|)
