"""Dry friction on a circular Hertz contact patch that slides and spins (Contensou-Zhuravlev friction).

A sphere pressed on a plane touches it on a disk of radius a = sqrt(R delta) (Hertz 1882) with the
pressure p(r) = p0 sqrt(1 - r^2/a^2), N = (2/3) pi a^2 p0 = (4/3) E* sqrt(R) delta^(3/2). Every element
obeys Coulomb's law, dF = -mu p dA w/|w|, with the element's velocity w = v + omega e_z x r relative to
the plane (v: sliding velocity of the body point at the patch centre, omega: spin about the normal).
The resultant is a force anti-parallel to v and a torque about the normal through the patch centre,

    |F| = mu N f(u),   |M| = mu N a g(u),   u = |v| / (a |omega|)

(Contensou 1963; Zhuravlev 1998, PMM 62(5); Leine & Glocker 2003, Eur. J. Mech. A/Solids 22(2)).

Exact law, formulation used here (polar coordinates about the instantaneous centre of rotation)
--------------------------------------------------------------------------------------------------
Units a = 1, N = 1 (p0 = 3/(2 pi)), omega > 0, v = u e_x: w vanishes at the ICR r_c = (0, u). With
r = r_c + rho (cos phi, sin phi) every element on the ray phi moves along (-sin phi, cos phi), and the
moment arm r x w/|w| = rho + b, b = u sin phi. With t = rho + b, 1 - r^2 = D - t^2, D = 1 - u^2 cos^2 phi,
the ray integrals I = int p rho drho and G = int p (rho + b) rho drho are elementary (sqrt, arcsin), and

    f = -int I(phi) sin phi dphi,   g = int G(phi) dphi,

over the full circle (rays start at the ICR, t from b to sqrt(D)) when u < 1, over the rays that cross
the patch, |phi + pi/2| < asin(1/u) (t from -sqrt(D) to sqrt(D)), when u >= 1. `exact_fg` evaluates
the phi integral with scipy's adaptive quad (QUAD_TOL, absolute and relative); it is checked in the
tests against a brute-force 2-D quadrature of the elementary law about the patch centre.

Closed forms (derived here from the same ray integrals: for u < 1 the arcsin terms are odd in phi and
drop out; for u >= 1 the chord integrals are pi D/2 and pi D^2/8; checked against `exact_fg`):

    u <= 1:  f = 3 pi u (4 - u^2) / 32,   g = 3 pi (8 - 8 u^2 + 3 u^4) / 128
    u >= 1:  k = 1/u, m = asin k, c = sqrt(1 - k^2),
             f = 3 [(4 k^2 - 1) m + k c (1 + 2 k^2)] / (16 k^3),
             g = 3 [(8 k^4 - 8 k^2 + 3) m + 3 k c (2 k^2 - 1)] / (64 k^4)
             (for k < 1/6 their Taylor series to k^12 and k^13: the closed forms cancel there).

They give the limits g(0) = 3 pi/16, f ~ (3 pi/8) u, f(1) = 9 pi/32, g(1) = 9 pi/128, f -> 1 - 1/(10 u^2),
u g -> 1/5. `exact_fg_fast` evaluates them (so no interpolation table is needed), ~30 us a scalar
call: max deviation measured 1e-14 from `exact_fg` and 1.2e-14 from the closed forms in 40-digit
mpmath (u in [0, 1e9]); the tests assert 2 QUAD_TOL + round-off against `exact_fg`.

Approximate laws (each f(u), g(u); numbers are the Modelica parameter frictionLaw):
1 "point": Coulomb point contact, f = 1, g = 0.
2 "contensou": Contensou-Zhuravlev Pade approximation matched to the Hertz-patch limits above,
  f = u / (u + 8/(3 pi)),  g = (3 pi/16) / (1 + (15 pi/16) u).
3 "ellipsoid": Leine-Glocker / Moeller ellipsoidal law with Rbar = c a, c = 3 pi/16,
  f = u / sqrt(u^2 + c^2),  g = c^2 / sqrt(u^2 + c^2).
4 "exact": the closed forms above.
Largest deviations from the exact law over u in [0, inf) (`approximation_errors`):
point |df| 1 (u = 0), |dg| 0.589 (u = 0); contensou 0.344 (u = 1.05), 0.231 (u = 0.373);
ellipsoid 0.111 (u = 0.355), 0.083 (u = 1.17).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.integrate import quad
from scipy.optimize import minimize_scalar

from nonholonomic.errors import NonholonomicError

LAWS = ("point", "contensou", "ellipsoid", "exact")
QUAD_TOL = 1e-12  # absolute and relative tolerance of exact_fg's phi quadrature
_P0 = 3.0 / (2.0 * math.pi)  # centre pressure for a = 1, N = 1
_C = 3.0 * math.pi / 16.0  # g(0); also the ellipsoidal law's Rbar / a
_K_SERIES = 1.0 / 6.0  # k = 1/u below which the u >= 1 closed forms are replaced by their series


def _require(ok, message: str):
    if not np.all(ok):
        raise NonholonomicError(message)


def _number(x, name: str) -> np.ndarray:
    arr = np.asarray(x, dtype=float)
    _require(~np.isnan(arr), f"{name} must be a number, got NaN")
    return arr


def _speed_ratio(u) -> np.ndarray:
    u = _number(u, "u")
    _require(u >= 0, f"u = |v|/(a |omega|) must be >= 0, got {np.min(u)}")
    return u


# --- Hertz ---------------------------------------------------------------------------------------

def effective_modulus(E1, nu1, E2, nu2):
    """E* = 1 / ((1 - nu1^2)/E1 + (1 - nu2^2)/E2) of two elastic bodies in contact."""
    E1, nu1, E2, nu2 = (_number(x, n) for x, n in ((E1, "E1"), (nu1, "nu1"), (E2, "E2"), (nu2, "nu2")))
    for E, name in ((E1, "E1"), (E2, "E2")):
        _require((E > 0) & np.isfinite(E), f"Young's modulus {name} must be positive and finite")
    for nu, name in ((nu1, "nu1"), (nu2, "nu2")):
        _require((nu > -1) & (nu <= 0.5), f"Poisson ratio {name} must lie in (-1, 0.5], got {np.min(nu)}")
    return 1.0 / ((1 - nu1**2) / E1 + (1 - nu2**2) / E2)


def hertz_normal_force(E_star, R, delta, delta_dot=0.0, d=0.0):
    """N = 4/3 E* sqrt(R) delta^(3/2) (1 + d delta_dot) for delta > 0, clipped at >= 0, else 0
    (Hertz; Hunt-Crossley damping factor d in s/m, penetration delta in m)."""
    E_star, R, d = _number(E_star, "E_star"), _number(R, "R"), _number(d, "d")
    delta, delta_dot = _number(delta, "delta"), _number(delta_dot, "delta_dot")
    _require((E_star > 0) & np.isfinite(E_star), "effective modulus E_star must be positive and finite")
    _require((R > 0) & np.isfinite(R), "sphere radius R must be positive and finite")
    _require(d >= 0, "Hunt-Crossley damping factor d must be >= 0")
    pen = np.maximum(delta, 0.0)
    return np.maximum(4.0 / 3.0 * E_star * np.sqrt(R) * pen**1.5 * (1.0 + d * delta_dot), 0.0)


def patch_radius(R, delta):
    """Hertz contact radius a = sqrt(R delta) for delta > 0, else 0."""
    R, delta = _number(R, "R"), _number(delta, "delta")
    _require((R > 0) & np.isfinite(R), "sphere radius R must be positive and finite")
    return np.sqrt(R * np.maximum(delta, 0.0))


# --- exact law -----------------------------------------------------------------------------------

def _ray_integrals(sin: float, cos: float, u: float):
    """(I, G) on the ray from the ICR with direction (cos phi, sin phi) (module docstring), elementary in t."""
    b = u * sin
    if u < 1.0:  # ray starts at the ICR (t = b), inside the patch; D = b^2 + q^2 without cancellation
        t0, q = b, math.sqrt((1.0 - u) * (1.0 + u))
        D, asn = b * b + q * q, math.atan2(t0, q)  # asn = asin(t0 / sqrt(D))
    else:  # ray crosses the whole chord, t from -sqrt(D) to sqrt(D)
        D = max((1.0 - u * cos) * (1.0 + u * cos), 0.0)
        t0, q, asn = -math.sqrt(D), 0.0, -math.pi / 2
    A0 = D * math.pi / 4 - (t0 * q + D * asn) / 2  # int_t0^sqrt(D) sqrt(D - t^2) dt
    A1 = q**3 / 3  # ... t sqrt(D - t^2) dt
    A2 = D * D * math.pi / 16 - (t0 * (2 * t0 * t0 - D) * q + D * D * asn) / 8  # ... t^2 sqrt(D - t^2) dt
    return _P0 * (A1 - b * A0), _P0 * (A2 - b * A1)


def _exact_scalar(u: float):
    if math.isinf(u):
        return 1.0, 0.0
    opts = {"epsabs": QUAD_TOL, "epsrel": QUAD_TOL, "limit": 200}
    if u < 1.0:  # phi over the full circle, halved by the mirror symmetry phi -> pi - phi; as u -> 1 (ICR
        # near the edge) the integrand steepens about phi = 0 over a width w: break points there
        w = math.sqrt((1.0 - u) * (1.0 + u))
        steps = [w * 8.0**j for j in range(20) if w * 8.0**j < 1.0]
        lo, hi, opts["points"] = -math.pi / 2, math.pi / 2, [0.0, *steps, *(-x for x in steps)]
        sc = lambda x: (math.sin(x), math.cos(x))
    else:  # x = phi + pi/2 in [0, asin(1/u)] (x, not phi, so that cos phi = sin x keeps its digits)
        lo, hi = 0.0, math.asin(1.0 / u)
        sc = lambda x: (-math.cos(x), math.sin(x))
    f = quad(lambda x: -_ray_integrals(*sc(x), u)[0] * sc(x)[0], lo, hi, **opts)[0]
    g = quad(lambda x: _ray_integrals(*sc(x), u)[1], lo, hi, **opts)[0]
    return 2.0 * f, 2.0 * g


def exact_fg(u):
    """Exact (f(u), g(u)) by quadrature about the ICR, arrays of u's shape (floats for a scalar u);
    error within 2 QUAD_TOL (two mirror halves), measured <= 1e-14 against the closed forms; ~0.2 ms a u."""
    u = _speed_ratio(u)
    out = np.array([_exact_scalar(float(x)) for x in u.ravel()]).reshape(u.shape + (2,))
    return out[..., 0][()], out[..., 1][()]


def exact_fg_fast(u):
    """Exact (f(u), g(u)) from the closed forms (module docstring), vectorised, ~1e-14 absolute;
    floats for a scalar u."""
    u = _speed_ratio(u)
    k = 1.0 / np.maximum(u, 1.0)
    k2 = k * k
    m, c = np.arcsin(k), np.sqrt((1.0 - k) * (1.0 + k))
    big = k < _K_SERIES
    kc = np.where(big, 1.0, k)  # keeps the unused closed-form branch finite
    f_out = 3 * ((4 * k2 - 1) * m + kc * c * (1 + 2 * k2)) / (16 * kc**3)
    g_out = 3 * ((8 * k2 * k2 - 8 * k2 + 3) * m + 3 * kc * c * (2 * k2 - 1)) / (64 * kc**4)
    f_ser = 1 - k2 * (1 / 10 + k2 * (3 / 280 + k2 * (1 / 336 + k2 * (5 / 4224 + k2 * (21 / 36608
                                                                                  + k2 * 21 / 66560)))))
    g_ser = k * (1 / 5 + k2 * (1 / 70 + k2 * (1 / 280 + k2 * (5 / 3696 + k2 * (35 / 54912 + k2 * (
        63 / 183040 + k2 * 231 / 1131520))))))
    ui = np.minimum(u, 1.0)
    f = np.where(u <= 1, 3 * math.pi * ui * (4 - ui * ui) / 32, np.where(big, f_ser, f_out))
    g = np.where(u <= 1, 3 * math.pi * (8 - 8 * ui**2 + 3 * ui**4) / 128, np.where(big, g_ser, g_out))
    return f[()], g[()]


# --- the laws ------------------------------------------------------------------------------------

def law_fg(law, u):
    """(f(u), g(u)) of a law given by name (LAWS) or Modelica number 1..4."""
    if isinstance(law, (int, np.integer)) and not isinstance(law, bool) and 1 <= law <= len(LAWS):
        law = LAWS[law - 1]
    if law not in LAWS:
        raise NonholonomicError(f"unknown friction law {law!r}; use one of {', '.join(LAWS)} (or 1..4)")
    u = _speed_ratio(u)
    if law == "point":
        return np.ones_like(u)[()], np.zeros_like(u)[()]
    if law == "contensou":
        with np.errstate(invalid="ignore"):  # u = inf
            f = np.where(np.isinf(u), 1.0, u / (u + 8 / (3 * math.pi)))
        return f[()], (_C / (1 + 15 * math.pi / 16 * u))[()]
    if law == "ellipsoid":
        r = np.hypot(u, _C)
        with np.errstate(invalid="ignore"):
            f = np.where(np.isinf(u), 1.0, u / r)
        return f[()], (_C**2 / r)[()]
    return exact_fg_fast(u)


def friction_wrench(law, mu, N, a, v_t, omega_n, eps):
    """Regularised friction force F_t (shape of v_t, (..., 2|3)) and torque M_n about the normal of
    the law (name or number 1..4); v_t: velocity of the body point at the patch centre relative to the
    plane, omega_n: spin rate about the normal relative to the plane, eps (m/s) > 0:

    s_r = sqrt(|v_t|^2 + eps^2), w_r = sqrt((a omega_n)^2 + eps^2), u = s_r / w_r,
    F_t = -mu N f(u) v_t / s_r,  M_n = -mu N a g(u) (a omega_n) / w_r   (the Modelica model's formulas).
    At fixed non-zero (v_t, omega_n) the wrench differs from the unregularised law by O(eps^2)."""
    mu, N, a, eps = _number(mu, "mu"), _number(N, "N"), _number(a, "a"), _number(eps, "eps")
    _require(mu >= 0, "friction coefficient mu must be >= 0")
    _require(N >= 0, "normal force N must be >= 0")
    _require((a >= 0) & np.isfinite(a), "patch radius a must be >= 0 and finite")
    _require((eps > 0) & np.isfinite(eps), "regularisation eps must be positive and finite")
    v_t, omega_n = _number(v_t, "v_t"), _number(omega_n, "omega_n")
    _require(v_t.ndim >= 1 and v_t.shape[-1] in (2, 3), f"v_t must have 2 or 3 components, got shape {v_t.shape}")
    s_r = np.sqrt(np.sum(v_t**2, axis=-1) + eps**2)
    a_w = a * omega_n
    w_r = np.sqrt(a_w**2 + eps**2)
    f, g = law_fg(law, s_r / w_r)
    F = -(mu * N * f / s_r)[..., None] * v_t
    M = -mu * N * a * g * a_w / w_r
    return F, M[()]


# --- comparison ----------------------------------------------------------------------------------

def wrench_curves(u):
    """{law: (f(u), g(u))} for every law in LAWS (the exact one from the closed forms), for plots."""
    return {law: law_fg(law, u) for law in LAWS}


def approximation_errors(u_grid=None):
    """For each approximate law, max over u of |f_law - f_exact| and |g_law - g_exact| and where:
    list of dicts (law, max_df, u_df, max_dg, u_dg). Default grid: 2001 points uniform in
    s = u/(1+u) on [0, 1] (s = 1 is u = inf), each maximum then refined by a bounded Brent search in s
    between the grid neighbours; with `u_grid` given, the maxima over that grid only."""
    refine = u_grid is None
    s = np.linspace(0.0, 1.0, 2001) if refine else None
    with np.errstate(divide="ignore"):
        u = _speed_ratio(s / (1.0 - s) if refine else u_grid).ravel()
    f_ex, g_ex = exact_fg_fast(u)
    rows = []
    for law in LAWS[:3]:
        row = {"law": law}
        for key, idx, ex in (("f", 0, f_ex), ("g", 1, g_ex)):
            dev = np.abs(law_fg(law, u)[idx] - ex)
            i = int(np.argmax(dev))
            best, u_best = float(dev[i]), float(u[i])
            if refine and 0 < i < len(s) - 1:
                def neg(si, law=law, idx=idx):
                    ui = si / (1.0 - si)
                    return -abs(float(law_fg(law, ui)[idx]) - float(exact_fg_fast(ui)[idx]))
                res = minimize_scalar(neg, bounds=(s[i - 1], s[i + 1]), method="bounded",
                                      options={"xatol": 1e-12})
                if -res.fun > best:
                    best, u_best = float(-res.fun), float(res.x / (1.0 - res.x))
            row[f"max_d{key}"], row[f"u_d{key}"] = best, u_best
        rows.append(row)
    return rows
