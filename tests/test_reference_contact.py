"""Tests of the Hertz contact-patch friction reference (references/contact_patch.py).

Oracles, each independent of the formulation under test:
* the exact law's known limits (g(0) = 3 pi/16, f ~ 3 pi u/8, f -> 1, u g -> 1/5, f(0) = 0);
* `exact_fg` (phi quadrature about the instantaneous centre of rotation) against a brute-force 2-D
  quadrature of the elementary Coulomb law over the patch in polar coordinates about its centre;
* the closed forms (`exact_fg_fast`) against `exact_fg`;
* the approximate laws' limits from their formulas; the regularised wrench's dissipation, its
  pure-spin and pure-slide limits and its O(eps^2) convergence to the unregularised law;
* Hertz: N = dU/ddelta for the elastic energy U = (8/15) E* sqrt(R) delta^(5/2) by a central
  difference whose truncation error is known in closed form; E* of two equal bodies.
Tolerances: quadratures are bounded by their requested tolerance (cp.QUAD_TOL for exact_fg, BRUTE_TOL
for the 2-D rule) times the number of pieces they are assembled from, see QUAD and BRUTE below;
single formulas by `bounds.roundoff` of the magnitude involved.
"""

import itertools
import math

import numpy as np
import pytest
from scipy.integrate import dblquad

from nonholonomic.errors import NonholonomicError
from nonholonomic.references import contact_patch as cp

from bounds import roundoff

# exact_fg doubles one mirror half, computed by quad to max(epsabs, epsrel |I|) = QUAD_TOL (|I| < 1)
QUAD = 2 * cp.QUAD_TOL
# brute force: dblquad's outer error <= BRUTE_TOL plus the inner errors (each <= BRUTE_TOL) integrated
# over an alpha range <= pi/2, i.e. (1 + pi/2) BRUTE_TOL a piece; at most 2 pieces, doubled by symmetry
BRUTE_TOL = 1e-10
BRUTE = 4 * (1 + math.pi / 2) * BRUTE_TOL
P0 = 3 / (2 * math.pi)  # centre pressure for a = 1, N = 1
G0, SLOPE = 3 * math.pi / 16, 3 * math.pi / 8
APPROX = ("point", "contensou", "ellipsoid")


def brute_fg(u):
    """f, g of the elementary law integrated over the patch: a = 1, N = 1, omega = 1, v = (u, 0), so
    an element at r = (x, y) moves with w = (u - y, x); f = int p w_x/|w| dA, g = int p (r x w)/|w| dA.
    Polar coordinates about the centre with r = sin(alpha) (smooth pressure p0 cos(alpha)); the half
    x >= 0 doubled (mirror symmetry); alpha split at the ICR's radius u."""
    def integrand(theta, alpha, which):
        r = math.sin(alpha)
        x, y = r * math.cos(theta), r * math.sin(theta)
        w = math.hypot(u - y, x)
        if w == 0.0:
            return 0.0
        weight = P0 * math.cos(alpha) ** 2 * r  # p dA / (dalpha dtheta)
        return weight * ((u - y) if which == 0 else (r * r - u * y)) / w
    edges = [0.0, math.asin(u), math.pi / 2] if 0 < u < 1 else [0.0, math.pi / 2]
    out = []
    for which in (0, 1):
        total = sum(dblquad(integrand, a0, a1, -math.pi / 2, math.pi / 2, args=(which,),
                            epsabs=BRUTE_TOL, epsrel=BRUTE_TOL)[0] for a0, a1 in itertools.pairwise(edges))
        out.append(2 * total)
    return out


# --- exact law -----------------------------------------------------------------------------------

def test_exact_limits():
    f0, g0 = cp.exact_fg(0.0)
    assert abs(f0) <= QUAD and abs(g0 - G0) <= QUAD + roundoff(G0)
    # f is odd in u (reversing v mirrors the patch) and smooth at 0, so f/u = 3 pi/8 + O(u^2); the
    # coefficient is -3 pi/32 (closed form), bounded here by 1/3
    for u in (1e-3, 1e-2):
        assert abs(cp.exact_fg(u)[0] / u - SLOPE) <= QUAD / u + u**2 / 3
    # f = 1 - 1/(10 u^2) + O(u^-4), u g = 1/5 + 1/(70 u^2) + O(u^-4) (series of the closed forms): bound 1/u^2
    for u in (1e2, 1e3):
        f, g = cp.exact_fg(u)
        assert abs(1 - f) <= 1 / u**2 + QUAD
        assert abs(u * g - 0.2) <= 1 / u**2 + u * QUAD
    assert cp.exact_fg(np.inf) == (1.0, 0.0)


@pytest.mark.parametrize("u", [0.0, 0.3, 0.9, 0.999, 1.0, 1.001, 1.1, 3.0, 30.0])
def test_icr_quadrature_matches_brute_force(u):
    exact = cp.exact_fg(u)
    brute = brute_fg(u)
    for e, b in zip(exact, brute):
        assert abs(e - b) <= QUAD + BRUTE, (u, e, b)


def test_closed_forms_match_quadrature():
    u = np.concatenate([np.linspace(0, 3, 61), 1 + np.array([-1e-3, -1e-6, -1e-9, 1e-9, 1e-6, 1e-3]),
                        6 * (1 + np.array([-1e-9, 1e-9])),  # switch to the series at u = 6
                        np.logspace(0.5, 8, 25)])
    fq, gq = cp.exact_fg(u)
    ff, gf = cp.exact_fg_fast(u)
    bound = QUAD + roundoff(1.0)  # the closed forms are exact up to ~1e-14 round-off (mpmath)
    assert np.max(np.abs(ff - fq)) <= bound and np.max(np.abs(gf - gq)) <= bound
    # the quoted special values
    f1, g1 = cp.exact_fg_fast(1.0)
    assert abs(f1 - 9 * math.pi / 32) <= roundoff(1.0) and abs(g1 - 9 * math.pi / 128) <= roundoff(1.0)
    # vectorisation and scalars
    f2, _ = cp.exact_fg_fast(u.reshape(-1, 2)[:4].T)
    assert f2.shape == (2, 4) and np.array_equal(f2, ff[:8].reshape(-1, 2).T)
    assert isinstance(cp.exact_fg_fast(0.5)[0], float)
    assert cp.exact_fg_fast(np.inf) == (1.0, 0.0)


# --- approximate laws ----------------------------------------------------------------------------

def test_law_limits():
    c = G0
    tiny, huge = 1e-8, 1e8
    for law in cp.LAWS:
        f0, g0 = cp.law_fg(law, 0.0)
        assert f0 == (1.0 if law == "point" else 0.0)
        assert abs(g0 - (0.0 if law == "point" else G0)) <= roundoff(G0)
        f_inf, g_inf = cp.law_fg(law, np.inf)
        assert f_inf == 1.0 and g_inf == 0.0
    # Contensou-Zhuravlev: f/u = 1/(u + 8/(3 pi)) and u g = (3 pi/16) u/(1 + 15 pi u/16) exactly, so the
    # deviations from the Hertz limits are (3 pi/8)^2 u and (1/5)/(1 + 15 pi u/16) <= 1/(15 pi u/16)/5
    f, g = cp.law_fg("contensou", tiny)
    assert abs(f / tiny - SLOPE) <= SLOPE**2 * tiny + roundoff(SLOPE)
    f, g = cp.law_fg("contensou", huge)
    assert abs(1 - f) <= 8 / (3 * math.pi * huge) + roundoff(1.0)
    assert abs(huge * g - 0.2) <= 16 / (75 * math.pi * huge) + roundoff(1.0)
    # ellipsoid: slope 1/c, u g -> c^2, deviations O(u^2) and O(1/u^2) with coefficients <= 1/c^3, c^4
    f, g = cp.law_fg("ellipsoid", tiny)
    assert abs(f / tiny - 1 / c) <= tiny**2 / c**3 + roundoff(1 / c)
    f, g = cp.law_fg("ellipsoid", huge)
    assert abs(huge * g - c**2) <= c**4 / huge**2 + roundoff(1.0)
    # the exact law's limits (its closed forms)
    f, g = cp.law_fg("exact", tiny)
    assert abs(f / tiny - SLOPE) <= tiny**2 + roundoff(SLOPE)
    f, g = cp.law_fg("exact", huge)
    assert abs(1 - f) <= 1 / huge**2 + roundoff(1.0) and abs(huge * g - 0.2) <= 1 / huge**2 + roundoff(1.0)
    # shapes, numbers, monotonicity and range
    u = np.concatenate([[0.0], np.logspace(-4, 4, 400), [np.inf]])
    for i, law in enumerate(cp.LAWS, start=1):
        f, g = cp.law_fg(law, u)
        fn, gn = cp.law_fg(i, u)
        assert np.array_equal(f, fn) and np.array_equal(g, gn) and f.shape == u.shape
        assert np.all((f >= 0) & (f <= 1) & (g >= 0)) and np.all(np.diff(f) >= 0) and np.all(np.diff(g) <= 0)
    curves = cp.wrench_curves(u)
    assert set(curves) == set(cp.LAWS) and np.array_equal(curves["exact"][1], cp.exact_fg_fast(u)[1])


def test_approximation_errors():
    rows = cp.approximation_errors()
    assert [r["law"] for r in rows] == list(APPROX)
    point = rows[0]
    assert point["max_df"] == 1.0 and point["u_df"] == 0.0
    assert abs(point["max_dg"] - G0) <= roundoff(G0) and point["u_dg"] == 0.0
    # each reported maximum is attained where reported (checked against the quadrature) and is not
    # exceeded on an independent grid
    u_check = np.concatenate([np.linspace(0, 4, 81), np.logspace(0.7, 4, 30)])
    fq, gq = cp.exact_fg(u_check)
    for row in rows:
        fe, ge = cp.exact_fg(np.array([row["u_df"], row["u_dg"]]))
        fl = cp.law_fg(row["law"], row["u_df"])[0]
        gl = cp.law_fg(row["law"], row["u_dg"])[1]
        assert abs(abs(fl - fe[0]) - row["max_df"]) <= QUAD + roundoff(1.0)
        assert abs(abs(gl - ge[1]) - row["max_dg"]) <= QUAD + roundoff(1.0)
        fl, gl = cp.law_fg(row["law"], u_check)
        assert np.max(np.abs(fl - fq)) <= row["max_df"] + QUAD
        assert np.max(np.abs(gl - gq)) <= row["max_dg"] + QUAD
    # on a given grid, the maxima over that grid
    grid = np.array([0.0, 0.5, 1.0, 2.0])
    row = cp.approximation_errors(grid)[1]
    fe, ge = cp.exact_fg(grid)
    dev = np.abs(cp.law_fg("contensou", grid)[0] - fe)
    assert abs(row["max_df"] - dev.max()) <= QUAD and row["u_df"] == grid[np.argmax(dev)]


# --- regularised wrench --------------------------------------------------------------------------

def unregularised(law, mu, N, a, v, omega):
    u = np.linalg.norm(v) / (a * abs(omega))
    f, g = cp.law_fg(law, u)
    return -mu * N * f * v / np.linalg.norm(v), -mu * N * a * g * np.sign(omega)


def test_friction_wrench_dissipates():
    rng = np.random.default_rng(7)
    for dim in (2, 3):
        v = rng.normal(size=(400, dim)) * 10.0 ** rng.uniform(-8, 1, (400, 1))
        omega = rng.normal(size=400) * 10.0 ** rng.uniform(-6, 3, 400)
        for law in (*cp.LAWS, 1, 2, 3, 4):
            F, M = cp.friction_wrench(law, 0.4, 12.0, 3e-3, v, omega, 1e-6)
            assert F.shape == v.shape and M.shape == omega.shape
            # each term is a product of non-negative factors and a minus sign: exactly <= 0
            assert np.all(np.sum(F * v, axis=-1) + M * omega <= 0.0)
    F2, M2 = cp.friction_wrench("exact", 0.4, 12.0, 3e-3, v[:, :2], omega, 1e-6)
    F3, M3 = cp.friction_wrench("exact", 0.4, 12.0, 3e-3, np.c_[v[:, :2], np.zeros(400)], omega, 1e-6)
    assert np.array_equal(F3[:, :2], F2) and np.all(F3[:, 2] == 0) and np.array_equal(M2, M3)


@pytest.mark.parametrize("law", cp.LAWS)
def test_friction_wrench_limits(law):
    mu, N, a, eps = 0.3, 5.0, 2e-3, 1e-9
    # pure spin: F = 0 exactly, M -> -mu N a g(0) sign(omega); u = eps/w_r ~ 1e-7 moves g by at most
    # |g'(0)| u, the largest |g'(0)| being Contensou's (15 pi/16)(3 pi/16) = 1.73 (the others' are 0)
    for omega in (4.0, -4.0):
        F, M = cp.friction_wrench(law, mu, N, a, np.zeros(3), omega, eps)
        g0 = cp.law_fg(law, 0.0)[1]
        u = eps / (a * abs(omega))
        assert np.all(F == 0.0)
        assert abs(M + mu * N * a * g0 * np.sign(omega)) <= mu * N * a * (2 * u + roundoff(1.0))
    # pure slide: M = 0 exactly, F anti-parallel to v with |F| -> mu N: 1 - f(u) <= 1/u for every law
    v = np.array([0.3, -0.4, 0.0])
    F, M = cp.friction_wrench(law, mu, N, a, v, 0.0, eps)
    u = np.linalg.norm(v) / eps
    assert M == 0.0
    assert np.linalg.norm(np.cross(F, v)) <= roundoff(np.linalg.norm(F) * np.linalg.norm(v))
    assert F @ v < 0 and -roundoff(1.0) <= 1 - np.linalg.norm(F) / (mu * N) <= 1 / u + roundoff(1.0)


@pytest.mark.parametrize("law", cp.LAWS)
def test_regularisation_converges_quadratically(law):
    """s_r, w_r, u and the factors v/s_r, a omega/w_r each differ from their eps = 0 values by at most
    eps^2/(2 m^2) relatively, m = min(|v|, a |omega|); with f, g, |u f'|, |u g'| <= 1 for every law the
    wrench error is <= mu N max(1, a) 2 eps^2/m^2, and it falls by 100 per decade of eps."""
    mu, N, a = 0.5, 3.0, 0.01
    for v, omega in ((np.array([0.03, -0.02, 0.0]), 2.0), (np.array([1e-3, 4e-3]), -0.7)):
        F0, M0 = unregularised(law, mu, N, a, v, omega)
        m = min(np.linalg.norm(v), a * abs(omega))
        errors = []
        for eps in (1e-5, 1e-6, 1e-7):
            F, M = cp.friction_wrench(law, mu, N, a, v, omega, eps)
            err = max(np.max(np.abs(F - F0)), abs(M - M0))
            assert err <= mu * N * max(1.0, a) * 2 * eps**2 / m**2
            errors.append(err)
        assert 80 <= errors[0] / errors[1] <= 120, errors


# --- Hertz ---------------------------------------------------------------------------------------

def test_hertz_force_is_energy_gradient():
    E_star, R = cp.effective_modulus(2.1e11, 0.3, 7e10, 0.33), 0.015
    U = lambda d: 8 / 15 * E_star * math.sqrt(R) * d**2.5
    for delta in (1e-7, 1e-5, 1e-3):
        x = 1e-2
        h = x * delta
        N = float(cp.hertz_normal_force(E_star, R, delta))
        fd = (U(delta + h) - U(delta - h)) / (2 * h)
        # central difference of d^(5/2): N (1 + x^2/8 + 3 x^4/640 + ...); rounding of U over 2 h
        assert abs(fd - N * (1 + x**2 / 8)) <= N * x**4 / 100 + roundoff(U(delta) / h)
        a = float(cp.patch_radius(R, delta))
        assert abs(a**2 - R * delta) <= roundoff(R * delta)
        assert abs(N - 4 / 3 * E_star * a**3 / R) <= roundoff(N)  # N = (4/3) E* a^3 / R
    d = np.array([-1e-4, 0.0, 1e-5, 1e-5, 1e-5])
    dd = np.array([0.0, 1.0, 0.5, -0.5, -5.0])
    N = cp.hertz_normal_force(E_star, R, d, dd, 1.0)
    N0 = cp.hertz_normal_force(E_star, R, 1e-5)
    assert N[0] == 0 and N[1] == 0 and N[4] == 0  # separated; damping clipped at 0
    assert abs(N[2] - 1.5 * N0) <= roundoff(N0) and abs(N[3] - 0.5 * N0) <= roundoff(N0)
    assert np.array_equal(cp.patch_radius(R, d)[:2], [0.0, 0.0])


def test_effective_modulus():
    E, nu = 2.1e11, 0.29
    assert abs(cp.effective_modulus(E, nu, E, nu) - E / (2 * (1 - nu**2))) <= roundoff(E)
    assert abs(cp.effective_modulus(E, nu, 1e300, nu) - E / (1 - nu**2)) <= roundoff(E)  # rigid plane


@pytest.mark.parametrize("call", [
    lambda: cp.effective_modulus(-1.0, 0.3, 1e9, 0.3),
    lambda: cp.effective_modulus(1e9, 0.6, 1e9, 0.3),
    lambda: cp.effective_modulus(1e9, 0.3, 1e9, -1.0),
    lambda: cp.hertz_normal_force(0.0, 0.01, 1e-5),
    lambda: cp.hertz_normal_force(1e9, -0.01, 1e-5),
    lambda: cp.hertz_normal_force(1e9, 0.01, np.array([1e-5, np.nan])),
    lambda: cp.hertz_normal_force(1e9, 0.01, 1e-5, 0.1, -1.0),
    lambda: cp.patch_radius(0.0, 1e-5),
    lambda: cp.exact_fg(-0.5),
    lambda: cp.exact_fg_fast(np.nan),
    lambda: cp.law_fg("coulomb", 1.0),
    lambda: cp.law_fg(5, 1.0),
    lambda: cp.law_fg(True, 1.0),
    lambda: cp.law_fg("point", -1e-3),
    lambda: cp.friction_wrench("exact", -0.1, 1.0, 1e-3, [1.0, 0.0], 0.0, 1e-6),
    lambda: cp.friction_wrench("exact", 0.1, -1.0, 1e-3, [1.0, 0.0], 0.0, 1e-6),
    lambda: cp.friction_wrench("exact", 0.1, 1.0, -1e-3, [1.0, 0.0], 0.0, 1e-6),
    lambda: cp.friction_wrench("exact", 0.1, 1.0, 1e-3, [1.0, 0.0], 0.0, 0.0),
    lambda: cp.friction_wrench("exact", 0.1, 1.0, 1e-3, [1.0, 0.0, 0.0, 0.0], 0.0, 1e-6),
    lambda: cp.friction_wrench(0, 0.1, 1.0, 1e-3, [1.0, 0.0], 0.0, 1e-6),
])
def test_bad_input_raises_one_line(call):
    with pytest.raises(NonholonomicError) as exc:
        call()
    assert str(exc.value) and "\n" not in str(exc.value)
