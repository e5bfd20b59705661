"""Tests of the elliptic Hertz contact and ball-bearing reference (references/bearing.py).

Oracles, each independent of the formulation under test:
* the sphere (contact_patch's Hertz law, a = (3 P R / (4 E*))^(1/3), delta = a^2 / R);
* the elastic half-space itself: the surface displacement of the Hertz pressure p0 sqrt(1 - x^2/b^2 -
  y^2/a^2), integrated numerically in polar coordinates about the field point (the ray integral of the
  square root is elementary), must be delta at the centre and delta - (rx x^2 + ry y^2)/2 inside;
* the line-contact asymptotics of the complete elliptic integrals (Abramowitz & Stegun 17.3.26, 17.3.34);
* Hamrock & Brewe's formulas evaluated with the exact k, E, K (they must then be exact), and at the
  circle by hand;
* bearing curvatures from the radii; contacts in series by adding the approaches;
* kinematics from the two no-slip conditions written with 3-D vectors and solved as a linear system;
* Stribeck's factor by hand for Z = 8, its limit by quadrature of cos^(5/2).
Bounds: single formulas by `bounds.roundoff`; quadratures by the error estimate quad returns; the root
solves by their tolerance (bearing.XTOL) times the sensitivity of the checked quantity.
"""

import itertools
import math

import numpy as np
import pytest
from scipy.integrate import quad

from nonholonomic.errors import NonholonomicError
from nonholonomic.references import bearing as br
from nonholonomic.references import contact_patch as cp

from bounds import roundoff

E_STAR = 1.15e11


def surface_displacement(x0, y0, ax, ay, p0):
    """Normal surface displacement w(x0, y0) of the half-space (E* = 1) under the pressure p0 sqrt(1 -
    x^2/ax^2 - y^2/ay^2): w = (1/(pi E*)) int dphi int_0^rho1 p drho (Boussinesq in polar coordinates
    about the inner point (x0, y0)); returns (w, quad's error estimate for it)."""
    alpha = 1 - x0**2 / ax**2 - y0**2 / ay**2

    def ray(phi):
        c, s = math.cos(phi), math.sin(phi)
        g = c * c / ax**2 + s * s / ay**2
        bt = x0 * c / ax**2 + y0 * s / ay**2
        h = math.sqrt(bt * bt + alpha * g) / g  # half chord; 1 - r^2 = g (h^2 - t^2), t = rho + bt/g
        t0 = bt / g
        return math.sqrt(g) * (h * h * math.pi / 4 - (t0 * math.sqrt(h * h - t0 * t0) + h * h * math.asin(t0 / h)) / 2)

    val, err = quad(ray, 0, 2 * math.pi, epsabs=1e-14, epsrel=1e-13, limit=400)
    return p0 * val / math.pi, p0 * err / math.pi


# --- elliptic Hertz contact ----------------------------------------------------------------------

@pytest.mark.parametrize("R, P", [(4e-3, 100.0), (0.5, 3.0)])
def test_circle_is_the_sphere(R, P):
    e = br.HertzEllipse.from_curvatures(1 / R, 1 / R, E_STAR)
    assert e.k == 1.0
    a, b = e.semi_axes(P)
    a_ref = (3 * P * R / (4 * E_STAR)) ** (1 / 3)
    assert abs(a - a_ref) <= roundoff(a_ref) and a == b
    delta = e.approach(P)
    assert abs(delta - a_ref**2 / R) <= roundoff(delta)
    assert abs(cp.hertz_normal_force(E_STAR, R, delta) - P) <= roundoff(P)
    assert abs(e.max_pressure(P) - 3 * P / (2 * math.pi * a_ref**2)) <= roundoff(e.max_pressure(P))


@pytest.mark.parametrize("ratio", [1.0, 1.5, 3.0, 32.5, 100.0])
def test_ellipse_solves_the_half_space(ratio):
    """rx = ratio, ry = 1 (units 1/m, E* = 1, P = 1): a along y. The displacement of the Hertz pressure
    is delta at the centre and falls by exactly rx x^2/2, ry y^2/2 along the axes."""
    e = br.HertzEllipse.from_curvatures(ratio, 1.0, 1.0)
    assert e.major_axis == "y" or ratio == 1.0
    a, b = e.semi_axes(1.0)
    p0 = float(e.max_pressure(1.0))
    w0, err0 = surface_displacement(0.0, 0.0, b, a, p0)
    delta = float(e.approach(1.0))
    assert abs(w0 - delta) <= err0 + roundoff(delta)
    # the curvatures recovered: ln(a/b) is solved to XTOL, and ln(B/A) varies with ln k at most with
    # slope 2 (B/A ~ k^2 / ln k at large k, ~ k^1.57 near 1)
    for (x, y), curv in (((0.5 * b, 0.0), ratio), ((0.0, 0.5 * a), 1.0)):
        w, err = surface_displacement(x, y, b, a, p0)
        s2 = (x * x + y * y) / 2
        bound = (err + err0) / s2 + 2 * br.XTOL * curv + roundoff(delta / s2)
        assert abs((w0 - w) / s2 - curv) <= bound


def test_line_contact_limit():
    """B/A -> inf: p0 -> E* b / (2 Rx) (a cylinder of radius Rx = 1/rx, Johnson 4.43). By the
    expansions of K and E about m = 1, 2 p0 Rx / (E* b) - 1 = q (L/2 - 3/4) (1 + O(q L)), q = (b/a)^2,
    L = ln(4/sqrt q)."""
    devs = []
    for ratio in (1e2, 1e3, 1e4, 1e5, 1e6):
        e = br.HertzEllipse.from_curvatures(ratio, 1.0, 1.0)
        _, b = e.semi_axes(1.0)
        dev = 2 * float(e.max_pressure(1.0)) / (ratio * b) - 1
        q = 1 / e.k**2
        L = math.log(4 / math.sqrt(q))
        if ratio >= 1e4:  # q L < 1e-3: the O(q L) remainder, with a factor 2 for its coefficient
            assert abs(dev / (q * (L / 2 - 0.75)) - 1) <= 2 * q * L
        devs.append(dev)
    assert all(d1 < d0 for d0, d1 in itertools.pairwise(devs)) and devs[-1] > 0


@pytest.mark.parametrize("rx, ry", [(312.5, 9.615), (10.0, 40.0), (7.0, 7.0)])
def test_force_law_and_its_rate(rx, ry):
    e = br.HertzEllipse.from_curvatures(rx, ry, E_STAR)
    P = 100.0
    delta = float(e.approach(P))
    assert abs(e.load(delta) - P) <= roundoff(P)
    assert e.load(-1e-6) == 0.0 and e.load_rate(-1e-6) == 0.0
    # d(delta)/dP by a central difference of the forward map delta = c P^(2/3): truncation h^2/6 times
    # max |delta'''| = (8/27) c (P - h)^(-7/3); round-off 2 roundoff(delta) / (2 h)
    h = 1.0
    fd = (e.approach(P + h) - e.approach(P - h)) / (2 * h)
    c = e.compliance
    bound = h * h / 6 * 8 / 27 * c * (P - h) ** (-7 / 3) + roundoff(delta) / h
    assert abs(fd - 1 / e.load_rate(delta)) <= bound


def test_hamrock_brewe_structure_and_circle():
    """HB's a, b, delta with the exact k, E, K are the exact ones; at the circle its errors by hand."""
    e = br.HertzEllipse.from_curvatures(32.5, 1.0, E_STAR)
    P, R, Ep = 50.0, 1 / 33.5, 2 * E_STAR
    a, b = e.semi_axes(P)
    k, E, K = e.k, e.E, e.K
    assert abs((6 * k * k * E * P * R / (math.pi * Ep)) ** (1 / 3) - a) <= roundoff(a)
    assert abs((6 * E * P * R / (math.pi * k * Ep)) ** (1 / 3) - b) <= roundoff(b)
    d_hb = K * (9 / (2 * E * R) * (P / (math.pi * k * Ep)) ** 2) ** (1 / 3)
    assert abs(d_hb - e.approach(P)) <= roundoff(d_hb)
    # circle, rx = ry = 1, E* = P = 1: exact a^3 = 3/4, delta = a^2; HB: R = 1/2, E' = 2
    table = br.hamrock_brewe_errors([1.0])
    kf, Ef, Kf = 1.0339, 1.0003 + 0.5968, 1.5277
    a_hb = (6 * kf * kf * Ef * 0.5 / (2 * math.pi)) ** (1 / 3)
    b_hb = (6 * Ef * 0.5 / (2 * math.pi * kf)) ** (1 / 3)
    d_hb = Kf * (9 / Ef * (1 / (2 * math.pi * kf)) ** 2) ** (1 / 3)
    a0 = 0.75 ** (1 / 3)
    for name, ref in (("k", kf - 1), ("a", a_hb / a0 - 1), ("b", b_hb / a0 - 1), ("delta", d_hb / a0**2 - 1)):
        assert abs(table[name][0] - ref) <= roundoff()


def test_hamrock_brewe_error_table():
    """The fit is a few per cent on its range 1..100 and drifts beyond (module docstring's table)."""
    t = br.hamrock_brewe_errors()
    assert t["ratio"][0] == 1.0 and abs(t["ratio"][-1] - 1000.0) <= roundoff(1000.0)
    fit = t["ratio"] <= 100 * (1 + roundoff())
    for name, on_fit, overall in (("k", 0.0635, 0.2325), ("a", 0.0421, 0.1497), ("b", 0.0202, 0.0673),
                                  ("delta", 0.0541, 0.1172)):
        err = np.abs(t[name])
        assert err[fit].max() < on_fit and err.max() < overall
        assert err.max() > overall - 1e-4  # documented value, to its 4 digits


def test_bad_contact_input():
    for args in ((0.0, 1.0, 1.0), (1.0, -1.0, 1.0), (1.0, 1.0, math.inf), (math.nan, 1.0, 1.0)):
        with pytest.raises(NonholonomicError):
            br.HertzEllipse.from_curvatures(*args)
    with pytest.raises(NonholonomicError, match="load"):
        br.HertzEllipse.from_curvatures(1.0, 2.0, 1.0).approach(-1.0)


# --- bearing -------------------------------------------------------------------------------------

def test_default_bearing_geometry():
    brg = br.DeepGrooveBallBearing()
    d, D, f = 8e-3, 40e-3, 0.52
    r_in, r_out = br.DeepGrooveBallBearing().race_radii
    assert (r_in, r_out) == ((D - d) / 2, (D + d) / 2)
    ry = 1 / (d / 2) - 1 / (f * d)
    for ring, rx in (("inner", 1 / (d / 2) + 1 / r_in), ("outer", 1 / (d / 2) - 1 / r_out)):
        got = brg.curvatures(ring)
        assert abs(got[0] - rx) <= roundoff(rx) and abs(got[1] - ry) <= roundoff(rx)
    assert abs(brg.curvatures("inner")[0] - 312.5) <= roundoff(312.5)
    assert abs(brg.curvatures("outer")[0] - 625 / 3) <= roundoff(312.5)
    assert abs(ry - 250 / 26) <= roundoff(250)
    assert brg.contact("inner").major_axis == "y"
    # contacts in series: the approaches add
    Q = 100.0
    total = brg.contact("inner").approach(Q) + brg.contact("outer").approach(Q)
    assert abs((Q / brg.K_n) ** (2 / 3) - total) <= roundoff(total)


@pytest.mark.parametrize("kwargs, words", [
    ({"d": 40e-3}, "smaller than the pitch diameter"), ({"d": 50e-3}, "smaller than the pitch diameter"),
    ({"f_i": 0.5}, "f_i"), ({"f_o": 0.49}, "f_o"), ({"d": -1.0}, "ball diameter"), ({"Z": 2}, "Z"),
    ({"nu": 0.6}, "Poisson")])
def test_bad_bearing(kwargs, words):
    with pytest.raises(NonholonomicError, match=words) as info:
        br.DeepGrooveBallBearing(**kwargs)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("alpha", [0.0, 0.3])
def test_kinematics_from_no_slip(alpha):
    """Outer ring fixed, inner ring at omega_i about e_z. Ball centre at (D/2) e_r, contact normal n =
    (cos alpha, sin alpha) in (e_r, e_z); the ball's absolute angular velocity is omega_c e_z + w u with
    u = (-sin alpha, cos alpha) (spin axis relative to the cage perpendicular to the contact line). No
    slip at the contact points c -/+ (d/2) n: two linear equations (the e_theta components) for
    (omega_c, w); all other components vanish identically."""
    brg, wi = br.DeepGrooveBallBearing(), 100.0
    d, D = brg.d, brg.D_pm
    e_r, e_t, e_z = np.eye(3)
    n = math.cos(alpha) * e_r + math.sin(alpha) * e_z
    u = -math.sin(alpha) * e_r + math.cos(alpha) * e_z
    centre = D / 2 * e_r
    rows, rhs = [], []
    for sign, ring_rate in ((-1, wi), (1, 0.0)):  # inner contact, outer contact
        p = centre + sign * d / 2 * n
        # ball point velocity: omega_c e_z x centre + (omega_c e_z + w u) x (p - centre)
        col_c = np.cross(e_z, centre) + np.cross(e_z, p - centre)
        col_w = np.cross(u, p - centre)
        rows.append([col_c @ e_t, col_w @ e_t])
        rhs.append(np.cross(ring_rate * e_z, p) @ e_t)
    omega_c, w = np.linalg.solve(np.array(rows), np.array(rhs))
    cond = np.linalg.cond(np.array(rows))
    assert abs(brg.cage_speed(wi, alpha) - omega_c) <= cond * roundoff(wi)
    assert abs(brg.ball_spin(wi, alpha) - w) <= cond * roundoff(abs(w))
    if alpha == 0.0:
        assert abs(brg.cage_speed(wi) - 40.0) <= roundoff(40.0)
        assert abs(brg.ball_spin(wi) + 240.0) <= roundoff(240.0)


# --- Stribeck ------------------------------------------------------------------------------------

def test_stribeck_factor_z8_and_limit():
    s_ball = 8 / (1 + 2 * 2 ** -1.25)
    s_straddle = 8 / (2 * (math.cos(math.pi / 8) ** 2.5 + math.cos(3 * math.pi / 8) ** 2.5))
    assert abs(br.stribeck_factor(8, "ball") - s_ball) <= roundoff(s_ball)
    assert abs(br.stribeck_factor(8, "straddle") - s_straddle) <= roundoff(s_straddle)
    half, err = quad(lambda x: math.cos(x) ** 2.5, 0, math.pi / 2, epsabs=1e-13, epsrel=1e-13)
    integral, err = 2 * half, 2 * err
    limit = 2 * math.pi / integral
    assert abs(br.stribeck_limit() - limit) <= limit * err / integral + roundoff(limit)
    assert abs(limit - 4.37) < 0.005
    # Z -> inf: the sum is a trapezoidal rule of a function with a cos^(5/2) kink at +-pi/2, error ~ Z^-3.5
    gaps = [max(abs(br.stribeck_factor(Z, o) - limit) for o in br.ORIENTATIONS) for Z in (8, 32, 128, 512)]
    assert all(g1 < g0 / 8 for g0, g1 in itertools.pairwise(gaps))


@pytest.mark.parametrize("orientation", br.ORIENTATIONS)
def test_rigid_ring_solution(orientation):
    brg, F_r, Z = br.DeepGrooveBallBearing(), 1000.0, 8
    K_n = brg.K_n
    delta_r, Q = br.rigid_ring_deflection(F_r, K_n, Z, orientation)
    # delta_r / scale is solved to XTOL (scale = (F_r/(K_n Z))^(2/3)); Q_max ~ delta_r^(3/2) is the load
    # of a ball on the load line (the largest ball load for 'ball', Q_max cos^(3/2)(pi/Z) for 'straddle')
    Q_max = br.stribeck_factor(Z, orientation) * F_r / Z
    scale = (F_r / (K_n * Z)) ** (2 / 3)
    assert abs(K_n * delta_r**1.5 - Q_max) <= 1.5 * Q_max * br.XTOL * scale / delta_r + roundoff(Q_max, 256)
    psi = br.ball_angles(Z, orientation)
    loaded = np.cos(psi) > 1e-12
    assert np.all(Q[~loaded] == 0)
    assert np.allclose(Q[loaded], Q_max * np.cos(psi[loaded]) ** 1.5, rtol=2 * br.XTOL * scale / delta_r + roundoff(1.0, 256), atol=0)
    # with clearance: equilibrium, and a larger Q_max (fewer balls share the load)
    d_c, Q_c = br.rigid_ring_deflection(F_r, K_n, Z, orientation, clearance=10e-6)
    # delta_r solved to XTOL (scale = (F_r/(K_n Z))^(2/3) + clearance/2): F_r off by at most that times
    # dF/ddelta_r = sum 3/2 K_n delta_j^(1/2) cos^2 psi_j (concave in delta_r beyond the root's neighbourhood)
    c = np.where(loaded, np.cos(psi), 0.0)
    delta_j = np.maximum(d_c * c - 5e-6, 0.0)
    slope = np.sum(1.5 * K_n * np.sqrt(delta_j) * c * c)
    step = br.XTOL * ((F_r / (K_n * Z)) ** (2 / 3) + 5e-6)
    assert abs(np.sum(Q_c * c) - F_r) <= slope * step + roundoff(F_r, 256)
    assert Q_c.max() > Q.max() and d_c > delta_r


@pytest.mark.parametrize("P_d", [10e-6, 20e-6])
@pytest.mark.parametrize("orientation", br.ORIENTATIONS)
def test_load_zone_with_clearance_two_formulations_and_direct_equilibrium(P_d, orientation):
    """rigid_ring_deflection (the ring's deflection as unknown) and harris_load_zone (Harris's eps) against a
    third formulation written here: the inner ring displaced by (x, y) in its plane, each ball's approach the
    projection of that displacement on its radius minus P_d/2, both force components balanced by Newton's
    method on the 2x2 system, not assuming the displacement is along the load; started beyond the root, where
    at least two balls are loaded (the system's Jacobian is regular) and the stiffening law keeps Newton's
    steps from overshooting (F(u) convex along the load)."""
    brg, F_r, Z = br.DeepGrooveBallBearing(), 500.0, 8
    K_n = brg.K_n
    psi = br.ball_angles(Z, orientation)
    n = np.stack([np.sin(psi), -np.cos(psi)], axis=1)  # unit radius of each ball, the load line along -y

    def residual_and_jacobian(u):
        approach = n @ u - P_d / 2
        q = K_n * np.maximum(approach, 0.0) ** 1.5
        dq = 1.5 * K_n * np.sqrt(np.maximum(approach, 0.0))
        return n.T @ q + np.array([0.0, F_r]), (n.T * dq) @ n  # the balls push the ring by -n q; the load is (0, -F_r)

    u = np.array([1e-7, -(P_d + 5 * (F_r / (K_n * Z)) ** (2 / 3))])
    for _ in range(100):
        r, jac = residual_and_jacobian(u)
        u = u - np.linalg.solve(jac, r)
    r, _ = residual_and_jacobian(u)
    assert np.max(np.abs(r)) <= roundoff(F_r, 64)
    assert abs(u[0]) <= roundoff(abs(u[1]), 64)  # the symmetric load zone is the equilibrium
    q_direct = K_n * np.maximum(n @ u - P_d / 2, 0.0) ** 1.5
    delta_r, q_ring = br.rigid_ring_deflection(F_r, K_n, Z, orientation, clearance=P_d)
    eps, delta_h, q_harris = br.harris_load_zone(F_r, K_n, Z, P_d, orientation)
    # the root solves meet F_r to XTOL of delta_r's scale (test_rigid_ring_solution): relative 1e-12 with margin
    for q, d in ((q_ring, delta_r), (q_harris, delta_h)):
        assert np.max(np.abs(q - q_direct)) <= 1e-12 * q_direct.max()
        assert abs(d + u[1]) <= 1e-12 * d
    # Harris's load zone: eps = (1 - P_d/(2 delta_r))/2, below 1/2 with a clearance (fewer balls share the load)
    assert abs(eps - (1 - P_d / (2 * delta_r)) / 2) <= 1e-12
    assert eps < 0.5 and q_harris.max() > br.rigid_ring_deflection(F_r, K_n, Z, orientation)[1].max()
