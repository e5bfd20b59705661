"""Elliptic Hertz contact and the statics and kinematics of a deep-groove ball bearing (groundwork for
issue 13: Vil'ke, Kosenko & Aleksandrov, Regular and Chaotic Dynamics 14(6), 2009, 8 balls between two
rings, 16 Hertz contacts).

Elliptic Hertz contact (Johnson, Contact Mechanics, 1985, sect. 4.2)
--------------------------------------------------------------------
Two bodies whose principal planes are aligned touch with the initial gap h = (rx x^2 + ry y^2)/2; rx, ry
are the principal relative curvatures (sums of the two bodies' curvatures in the x and y planes, concave
negative), so Johnson's A = min(rx, ry)/2, B = max(rx, ry)/2. Under a normal load P the contact is an
ellipse with semi-axes a >= b, a along the direction of the smaller curvature, and the pressure
p = p0 sqrt(1 - (s/a)^2 - (t/b)^2), p0 = 3 P / (2 pi a b). With e^2 = m = 1 - q, q = (b/a)^2, and the
complete elliptic integrals K = K(m), E = E(m) (parameter m = e^2, as scipy's ellipk/ellipe), Johnson's
(4.39) read

    A = p0 b (K - E) / (E* a^2 e^2),   B = p0 b (E/q - K) / (E* a^2 e^2),   delta = p0 b K / E*.

With Carlson's D = (K - E)/m = R_D(0, q, 1)/3 and (E - q K)/m = q R_D(0, 1, q)/3 (both free of the
cancellation that K - E suffers near the circle), the ellipticity k = a/b = q^(-1/2) is the root of

    B/A = R_D(0, 1, q) / R_D(0, q, 1),

(solved by brentq in ln k to XTOL), and then

    a^3 = 3 P D / (pi E* min(rx, ry)),  b = a sqrt(q),  delta = 3 P K / (2 pi a E*),  P = C delta^(3/2),

C = c^(-3/2) with the compliance c = delta / P^(2/3) = (3 K / (2 pi E*)) (pi E* min(rx, ry) / (3 D))^(1/3).
Circle (rx = ry = 1/R): q = 1, D = pi/4, K = pi/2: a^3 = 3 P R / (4 E*), delta = a^2 / R (the sphere of
contact_patch). Line-contact limit (B/A -> inf): B = p0 (E - q K) / (E* b m) -> p0 / (E* b), i.e. the
half-width b -> 2 p0 R / E* of a cylinder of radius R = 1/max(rx, ry) (Johnson 4.43).

Approximation of Hamrock & Brewe (J. Lubrication Technology 105(2), 171-177, 1983; Hamrock, Schmid &
Jacobson, Fundamentals of Machine Elements / Fluid Film Lubrication, eqs. for "simplified elliptical
contact"), with Rx = 1/max(rx, ry) < Ry = 1/min(rx, ry), alpha_r = Ry/Rx, 1/R = rx + ry, E' = 2 E*:

    k ~ 1.0339 alpha_r^0.6360,  E ~ 1.0003 + 0.5968/alpha_r,  K ~ 1.5277 + 0.6023 ln alpha_r,
    a = (6 k^2 E P R / (pi E'))^(1/3),  b = (6 E P R / (pi k E'))^(1/3),
    delta = K (9/(2 E R) (P / (pi k E'))^2)^(1/3)

(a, b: Hamrock's D_y/2, D_x/2). With the exact k, E, K these are the exact relations above (checked in the
tests); `hamrock_brewe_errors` tabulates the fit's relative errors over alpha_r in [1, 1000].
Signed relative errors (fit/exact - 1; exact k checked against the surface-displacement integral in the
tests), 3001 log-spaced alpha_r in [1, 1000]:

    alpha_r      1       2       10      100     1000
    k       +0.0339 +0.0132 -0.0062 +0.0634 +0.2325
    a       +0.0282 +0.0092 -0.0041 +0.0421 +0.1497
    b       -0.0056 -0.0040 +0.0021 -0.0201 -0.0672
    delta   -0.0541 -0.0126 +0.0042 -0.0377 -0.1171

largest |error| over [1, 1000]: k 0.232, a 0.150, b 0.067, delta 0.117, all at alpha_r = 1000; over
[1, 100] (the range of the fit): k 0.063 (100), a 0.042 (100), b 0.020 (100), delta 0.054 (1, the circle).

Deep-groove ball bearing (Harris & Kotzalas, Rolling Bearing Analysis, 5th ed., ch. 2 and 7)
-----------------------------------------------------------------------------------------
Ball diameter d, pitch diameter D_pm, groove radii r = f d (conformity f > 1/2), contact angle 0, gamma =
d cos(alpha) / D_pm. Relative curvatures, x in the rolling direction, y across the groove:

    inner ring: rx = 2/d + 2/(D_pm - d)  (convex race),  ry = 2/d - 1/(f_i d)  (concave groove)
    outer ring: rx = 2/d - 2/(D_pm + d)  (concave race), ry = 2/d - 1/(f_o d)

so both ellipses have their major axis across the groove. A ball squeezed between the rings is two
contacts in series: delta = delta_i + delta_o = (Q/K_n)^(2/3), K_n = (K_i^(-2/3) + K_o^(-2/3))^(-3/2).

Pure rolling with the outer ring fixed, the inner ring at omega_i, the ball's spin axis (relative to the
cage) perpendicular to the contact line (for alpha = 0 parallel to the bearing axis): no slip at the two
contact points gives the cage (ball-centre) speed and the ball's spin relative to the cage

    omega_c = omega_i (1 - gamma)/2,   omega_b = -(D_pm / (2 d)) (1 - gamma^2) omega_i,

omega_b signed about the bearing axis direction of omega_i (the ball turns against the inner ring; Harris
quotes the magnitude). The ball's absolute spin about the axis (alpha = 0) is omega_c + omega_b =
-omega_i (1 - gamma) D_pm / (2 d).

Stribeck's load distribution (Stribeck 1901; Harris ch. 7), zero clearance, rigid rings
---------------------------------------------------------------------------------------
Ball j at psi_j from the load line ("ball": psi_j = 2 pi j / Z, a ball on the load line; "straddle":
psi_j = 2 pi (j + 1/2) / Z, two balls straddling it) is compressed by delta_j = delta_r cos psi_j - c/2
(radial clearance c) and carries Q_j = K_n delta_j^(3/2) where delta_j > 0; F_r = sum Q_j cos psi_j. With
c = 0, Q_j = Q_max cos^(3/2) psi_j and Q_max = S F_r / Z, S = Z / sum_{cos psi_j > 0} cos^(5/2) psi_j.
Z = 8: S = 4.3457 ("ball"), 4.3907 ("straddle"); Z -> inf: S -> 1/J_r(1/2) = 2 pi / B(1/2, 7/4) =
4.3701 (B: the beta function; J_r(1/2) = 0.22883 is Sjovall's radial integral for a half-loaded zone).
`rigid_ring_deflection` solves F_r(delta_r) = F_r by brentq (any clearance).
With the diametral clearance P_d, Harris (sect. 7.2) writes the same equilibrium with the load zone's extent
eps = (1 - P_d/(2 delta_r))/2 as the unknown: Q_psi = Q_max [1 - (1 - cos psi)/(2 eps)]^(3/2), loaded for
cos psi > 1 - 2 eps; `harris_load_zone` solves it for eps by brentq (tests: the two solves and a direct 2-D
equilibrium of the ring agree to 1e-12).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq
from scipy.special import beta, ellipe, ellipkm1, elliprd

from nonholonomic.errors import NonholonomicError
from nonholonomic.references.common import finite_number

XTOL = 1e-14  # brentq's absolute tolerance on ln(a/b) in HertzEllipse, and on delta_r / delta_ref
ORIENTATIONS = ("ball", "straddle")


def _positive(x, name: str) -> float:
    x = finite_number(name, x)
    if not x > 0:
        raise NonholonomicError(f"{name} must be positive, got {x}")
    return x


def _load(P) -> np.ndarray:
    P = np.asarray(P, dtype=float)
    if not np.all(P >= 0) or not np.all(np.isfinite(P)):
        raise NonholonomicError("normal load P must be >= 0 and finite")
    return P


def _curvature_ratio(q: float) -> float:
    """B/A = R_D(0, 1, q) / R_D(0, q, 1) of an ellipse with (b/a)^2 = q (module docstring)."""
    return float(elliprd(0.0, 1.0, q) / elliprd(0.0, q, 1.0))


# --- elliptic Hertz contact ------------------------------------------------------------------------

@dataclass(frozen=True)
class HertzEllipse:
    """Hertz contact of two bodies with relative principal curvatures rx, ry (1/m) and effective modulus
    E_star (Pa). Build it with `from_curvatures`; the load-independent shape (k = a/b and the elliptic
    integrals) is solved once there."""

    rx: float
    ry: float
    E_star: float
    k: float  # ellipticity a/b >= 1
    K: float  # K(m), m = 1 - 1/k^2
    E: float  # E(m)
    D: float  # (K - E)/m

    @classmethod
    def from_curvatures(cls, rx, ry, E_star) -> HertzEllipse:
        rx, ry = _positive(rx, "curvature sum rx"), _positive(ry, "curvature sum ry")
        E_star = _positive(E_star, "effective modulus E_star")
        ratio = max(rx, ry) / min(rx, ry)
        if ratio == 1.0:
            s = 0.0
        else:  # ratio(k) > k for k > 1, so [0, ln(ratio) + 1] brackets the root
            s = brentq(lambda s: _curvature_ratio(math.exp(-2 * s)) - ratio, 0.0, math.log(ratio) + 1.0,
                       xtol=XTOL, rtol=4 * np.finfo(float).eps, maxiter=200)
        q = math.exp(-2 * s)
        return cls(rx, ry, E_star, math.exp(s), float(ellipkm1(q)), float(ellipe(1.0 - q)),
                   float(elliprd(0.0, q, 1.0)) / 3.0)

    @property
    def major_axis(self) -> str:
        """'x' or 'y': the direction of the semi-major axis a (that of the smaller curvature)."""
        return "y" if self.ry <= self.rx else "x"

    def semi_axes(self, P):
        """(a, b), a >= b, of the contact ellipse under the normal load P."""
        P = _load(P)
        a = np.cbrt(3 * P * self.D / (math.pi * self.E_star * min(self.rx, self.ry)))
        return a, a / self.k

    def max_pressure(self, P):
        """p0 = 3 P / (2 pi a b)."""
        a, b = self.semi_axes(P)
        with np.errstate(invalid="ignore"):
            return np.where(a > 0, 3 * np.asarray(P, float) / (2 * math.pi * a * b), 0.0)

    def approach(self, P):
        """Approach (deflection) delta = 3 P K / (2 pi a E*) of the two bodies' distant points."""
        return self.compliance * _load(P) ** (2.0 / 3.0)

    @property
    def compliance(self) -> float:
        """delta / P^(2/3) = (3 K / (2 pi E*)) (pi E* min(rx, ry) / (3 D))^(1/3)."""
        return 3 * self.K / (2 * math.pi * self.E_star) * np.cbrt(
            math.pi * self.E_star * min(self.rx, self.ry) / (3 * self.D))

    @property
    def stiffness(self) -> float:
        """C of the force law P = C delta^(3/2)."""
        return self.compliance ** -1.5

    def load(self, delta):
        """P(delta) = C max(delta, 0)^(3/2): the force law of a compliant contact."""
        delta = np.asarray(delta, dtype=float)
        if np.any(np.isnan(delta)):
            raise NonholonomicError("approach delta must be a number, got NaN")
        return self.stiffness * np.maximum(delta, 0.0) ** 1.5

    def load_rate(self, delta):
        """dP/ddelta = 3/2 C max(delta, 0)^(1/2)."""
        delta = np.asarray(delta, dtype=float)
        return 1.5 * self.stiffness * np.sqrt(np.maximum(delta, 0.0))


def hamrock_brewe(rx, ry, E_star, P) -> dict:
    """Hamrock & Brewe's (1983) closed-form approximation (module docstring): k, a, b, delta."""
    rx, ry = _positive(rx, "curvature sum rx"), _positive(ry, "curvature sum ry")
    E_star, P = _positive(E_star, "effective modulus E_star"), _load(P)
    alpha_r = max(rx, ry) / min(rx, ry)  # Ry / Rx
    k = 1.0339 * alpha_r**0.6360
    E = 1.0003 + 0.5968 / alpha_r
    K = 1.5277 + 0.6023 * math.log(alpha_r)
    R, E_prime = 1.0 / (rx + ry), 2.0 * E_star
    a = np.cbrt(6 * k * k * E * P * R / (math.pi * E_prime))
    b = np.cbrt(6 * E * P * R / (math.pi * k * E_prime))
    delta = K * np.cbrt(9 / (2 * E * R) * (P / (math.pi * k * E_prime)) ** 2)
    return {"k": k, "a": a, "b": b, "delta": delta}


def hamrock_brewe_errors(ratios=None):
    """Relative errors (approximate/exact - 1) of k, a, b, delta of `hamrock_brewe` against
    `HertzEllipse` over curvature ratios Ry/Rx (default 3001 log-spaced in [1, 1000]); they do not depend
    on P, E* or the size. Returns a dict of arrays: ratio, k, a, b, delta."""
    ratios = np.logspace(0, 3, 3001) if ratios is None else np.asarray(ratios, dtype=float)
    out = {name: np.empty_like(ratios) for name in ("k", "a", "b", "delta")}
    for i, r in enumerate(ratios):
        exact = HertzEllipse.from_curvatures(r, 1.0, 1.0)
        a, b = exact.semi_axes(1.0)
        approx = hamrock_brewe(r, 1.0, 1.0, 1.0)
        for name, value in (("k", exact.k), ("a", a), ("b", b), ("delta", exact.approach(1.0))):
            out[name][i] = approx[name] / value - 1.0
    return {"ratio": ratios, **out}


# --- deep-groove ball bearing ----------------------------------------------------------------------

def series_stiffness(K_i, K_o) -> float:
    """K_n = (K_i^(-2/3) + K_o^(-2/3))^(-3/2) of two Hertz contacts in series."""
    K_i, K_o = _positive(K_i, "contact stiffness K_i"), _positive(K_o, "contact stiffness K_o")
    return (K_i ** (-2 / 3) + K_o ** (-2 / 3)) ** -1.5


@dataclass(frozen=True)
class DeepGrooveBallBearing:
    """Deep-groove ball bearing (contact angle 0); SI units. Defaults: D_pm = 40 mm, d = 8 mm,
    f_i = f_o = 0.52, steel (E = 210 GPa, nu = 0.3) balls and rings, Z = 8 balls."""

    d: float = 8e-3
    D_pm: float = 40e-3
    f_i: float = 0.52
    f_o: float = 0.52
    E: float = 2.1e11
    nu: float = 0.3
    Z: int = 8

    def __post_init__(self):
        d, D_pm = _positive(self.d, "ball diameter d"), _positive(self.D_pm, "pitch diameter D_pm")
        if d >= D_pm:
            raise NonholonomicError(f"ball diameter d = {d} must be smaller than the pitch diameter D_pm = {D_pm}")
        for f, name in ((self.f_i, "f_i"), (self.f_o, "f_o")):
            if not (_positive(f, f"groove conformity {name}") > 0.5):
                raise NonholonomicError(f"groove conformity {name} = r/d must exceed 0.5, got {f}")
        _positive(self.E, "Young's modulus E")
        if not (-1 < self.nu <= 0.5):
            raise NonholonomicError(f"Poisson ratio nu must lie in (-1, 0.5], got {self.nu}")
        if not (isinstance(self.Z, (int, np.integer)) and self.Z >= 3):
            raise NonholonomicError(f"number of balls Z must be an integer >= 3, got {self.Z}")

    @property
    def E_star(self) -> float:
        """E* = E / (2 (1 - nu^2)) of two bodies of the same material."""
        return self.E / (2 * (1 - self.nu**2))

    @property
    def race_radii(self):
        """(inner, outer) radii of the groove bottoms from the bearing axis, (D_pm -+ d)/2."""
        return (self.D_pm - self.d) / 2, (self.D_pm + self.d) / 2

    @property
    def groove_radii(self):
        """(r_i, r_o) = (f_i d, f_o d)."""
        return self.f_i * self.d, self.f_o * self.d

    def curvatures(self, ring: str):
        """(rx, ry) of the 'inner' or 'outer' contact: rolling direction, across the groove."""
        d, D = self.d, self.D_pm
        if ring == "inner":
            return 2 / d + 2 / (D - d), 2 / d - 1 / (self.f_i * d)
        if ring == "outer":
            return 2 / d - 2 / (D + d), 2 / d - 1 / (self.f_o * d)
        raise NonholonomicError(f"ring must be 'inner' or 'outer', got {ring!r}")

    def contact(self, ring: str) -> HertzEllipse:
        return HertzEllipse.from_curvatures(*self.curvatures(ring), self.E_star)

    @property
    def K_n(self) -> float:
        """Load-deflection constant of one ball between the rings, Q = K_n delta^(3/2)."""
        return series_stiffness(self.contact("inner").stiffness, self.contact("outer").stiffness)

    def hamrock_brewe_stiffness(self, ring: str) -> float:
        """C of P = C delta^(3/2) of the 'inner' or 'outer' contact by Hamrock and Brewe's approximation (in it
        delta ~ P^(2/3) exactly, so one load fixes C): the law of the Modelica contact BallOnRaceway."""
        return 1.0 / float(hamrock_brewe(*self.curvatures(ring), self.E_star, 1.0)["delta"]) ** 1.5

    @property
    def K_n_hamrock_brewe(self) -> float:
        """K_n of one ball between the rings by Hamrock and Brewe's approximation."""
        return series_stiffness(self.hamrock_brewe_stiffness("inner"), self.hamrock_brewe_stiffness("outer"))

    def cage_speed(self, omega_i, alpha=0.0):
        """omega_c = omega_i (1 - gamma)/2, gamma = d cos(alpha)/D_pm (outer ring fixed)."""
        return np.asarray(omega_i, float) * (1 - self.d * math.cos(alpha) / self.D_pm) / 2

    def ball_spin(self, omega_i, alpha=0.0):
        """Ball's spin relative to the cage, signed along omega_i: -(D_pm/(2 d)) (1 - gamma^2) omega_i."""
        g = self.d * math.cos(alpha) / self.D_pm
        return -self.D_pm / (2 * self.d) * (1 - g * g) * np.asarray(omega_i, float)


# --- Stribeck ------------------------------------------------------------------------------------

def ball_angles(Z: int, orientation: str = "ball") -> np.ndarray:
    """psi_j from the load line: 2 pi j/Z ('ball') or 2 pi (j + 1/2)/Z ('straddle'), j = 0..Z-1."""
    if not (isinstance(Z, (int, np.integer)) and Z >= 3):
        raise NonholonomicError(f"number of balls Z must be an integer >= 3, got {Z}")
    if orientation not in ORIENTATIONS:
        raise NonholonomicError(f"orientation must be 'ball' or 'straddle', got {orientation!r}")
    shift = 0.0 if orientation == "ball" else 0.5
    return 2 * math.pi * (np.arange(Z) + shift) / Z


def _loaded_cos(Z: int, orientation: str) -> np.ndarray:
    c = np.cos(ball_angles(Z, orientation))
    return np.where(c > 1e-12, c, 0.0)  # cos(pi/2) evaluates to 6e-17: that ball carries nothing


def stribeck_factor(Z: int, orientation: str = "ball") -> float:
    """S = Z / sum_{cos psi_j > 0} cos^(5/2) psi_j, so that Q_max = S F_r / Z (zero clearance)."""
    return Z / float(np.sum(_loaded_cos(Z, orientation) ** 2.5))


def stribeck_limit() -> float:
    """lim_{Z->inf} S = 2 pi / int_{-pi/2}^{pi/2} cos^(5/2) psi dpsi = 2 pi / B(1/2, 7/4) = 1/J_r(1/2)."""
    return 2 * math.pi / float(beta(0.5, 1.75))


def rigid_ring_deflection(F_r, K_n, Z: int, orientation: str = "ball", clearance=0.0):
    """Radial deflection delta_r of the inner ring under the radial load F_r (rigid rings, Q_j = K_n
    delta_j^(3/2), delta_j = delta_r cos psi_j - clearance/2), solved by brentq; returns (delta_r, Q_j)."""
    F_r, K_n = _positive(F_r, "radial load F_r"), _positive(K_n, "load-deflection constant K_n")
    if not (clearance >= 0 and math.isfinite(clearance)):
        raise NonholonomicError(f"radial clearance must be >= 0 and finite, got {clearance}")
    c = _loaded_cos(Z, orientation)

    def loads(delta_r):
        return K_n * np.maximum(delta_r * c - clearance / 2, 0.0) ** 1.5

    scale = (F_r / (K_n * Z)) ** (2 / 3) + clearance / 2  # delta_r's order of magnitude
    residual = lambda x: float(np.sum(loads(x * scale) * c)) / F_r - 1.0
    hi = 1.0
    while residual(hi) <= 0:
        hi *= 2.0
    x = brentq(residual, 0.0, hi, xtol=XTOL, rtol=4 * np.finfo(float).eps, maxiter=200)
    return x * scale, loads(x * scale)


def harris_load_zone(F_r, K_n, Z: int, P_d, orientation: str = "ball"):
    """Harris's form of the rigid-ring load distribution with the diametral clearance P_d >= 0 (Rolling Bearing
    Analysis, 5th ed., sect. 7.2): Q_psi = Q_max [1 - (1 - cos psi)/(2 eps)]^(3/2) where the bracket is positive,
    Q_max = K_n (delta_r - P_d/2)^(3/2), the load zone's extent eps = (1 - P_d/(2 delta_r))/2 and
    F_r = sum Q_psi cos psi; solved by brentq for eps in (0, 1/2] (delta_r = P_d/(2 (1 - 2 eps))).
    The same equilibrium as `rigid_ring_deflection`, written in Harris's unknown; returns (eps, delta_r, Q_j)."""
    F_r, K_n = _positive(F_r, "radial load F_r"), _positive(K_n, "load-deflection constant K_n")
    if not (P_d >= 0 and math.isfinite(P_d)):
        raise NonholonomicError(f"diametral clearance P_d must be >= 0 and finite, got {P_d}")
    cos_psi = np.cos(ball_angles(Z, orientation))

    def loads(eps):
        # at P_d = 0, eps = 1/2 for any deflection: Q_max then follows from F_r alone (Stribeck)
        shape = np.maximum(1 - (1 - cos_psi) / (2 * eps), 0.0) ** 1.5
        if P_d == 0:
            return shape * F_r / float(np.sum(shape * cos_psi))
        delta_r = P_d / (2 * (1 - 2 * eps))
        return K_n * (delta_r - P_d / 2) ** 1.5 * shape

    if P_d == 0:
        eps = 0.5
    else:
        top = 0.5 - 1e-15
        if float(np.sum(loads(top) * cos_psi)) < F_r:  # F_r beyond what the bracket holds in double precision
            raise NonholonomicError(f"radial load F_r = {F_r} N is too large for the clearance P_d = {P_d} m")
        eps = brentq(lambda e: float(np.sum(loads(e) * cos_psi)) / F_r - 1.0, 1e-12, top, xtol=1e-15,
                     rtol=4 * np.finfo(float).eps, maxiter=400)
    # Q_max is the load of a ball at psi = 0 (where the bracket is 1), whether or not a ball sits there
    q_max = float(loads(eps)[0]) / max(1 - (1 - cos_psi[0]) / (2 * eps), 0.0) ** 1.5
    return eps, (q_max / K_n) ** (2 / 3) + P_d / 2, loads(eps)
