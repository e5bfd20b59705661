"""Spur involute gear pair with compliant (Hertz line-contact) teeth: geometry of the mesh, static
transmission error, mesh stiffness and a two-rotor dynamic model.

Everything below is derived here from the involute geometry and from contact mechanics, never from a
Modelica model, and checked on its own in tests/test_reference_gears.py.

Geometry (standard gears, no profile shift, addendum m; e.g. Niemann & Winter, Maschinenelemente II,
or ISO 21771)
------------------------------------------------------------------------------------------------------
Module m, tooth numbers z1 (pinion), z2 (wheel), pressure angle alpha, face width b:

    r_i = m z_i / 2,   r_bi = r_i cos(alpha),   r_ai = r_i + m,   a = r1 + r2,
    p = pi m,   p_b = p cos(alpha) = pi m cos(alpha)   (base pitch = normal pitch),
    inv(x) = tan(x) - x   (involute function).

Plane: pinion centre O1 at the origin, wheel centre O2 at (a, 0); phi1, phi2 are the rotations about +z
(counter-clockwise positive). The pinion drives counter-clockwise (phi1 > 0), the wheel turns clockwise
(phi2 < 0). Pitch point P = (r1, 0).

Lines of action. The DRIVE line (contact of the pinion's counter-clockwise-facing flanks) is the inner
common tangent of the base circles through P inclined by alpha to the common pitch tangent (the y axis),
RISING TOWARDS THE WHEEL: unit vector n = (sin alpha, cos alpha), tangent points

    T1 = r_b1 (cos alpha, -sin alpha)   (below the x axis),   T2 = O2 + r_b2 (-cos alpha, sin alpha),

|T1 T2| = a sin(alpha). The COAST line (the clockwise-facing flanks) is its mirror image in the x axis:
unit vector m_c = (sin alpha, -cos alpha) from T1' = r_b1 (cos alpha, sin alpha) to
T2' = O2 + r_b2 (-cos alpha, -sin alpha). Positions s (drive) and s' (coast) are measured along each
line from the pinion's tangent point (T1, resp. T1'). On both, the pitch point is at s_P = r1 sin(alpha)
and the flank radii of curvature at s are rho1 = s (pinion involute), rho2 = a sin(alpha) - s (wheel).

Active segment (where a tip circle cuts the line): the pinion tip at s_E = sqrt(r_a1^2 - r_b1^2), the
wheel tip at s_A = a sin(alpha) - sqrt(r_a2^2 - r_b2^2), contact ratio eps_alpha = (s_E - s_A)/p_b. By the
mirror symmetry the coast segment, measured from T1', is the SAME interval [s_A, s_E]; only the order is
reversed: for the counter-clockwise pinion a drive pair enters at s_A (wheel tip) and leaves at s_E (pinion
tip), a coast pair enters at s_E and leaves at s_A. (Measured from T2' instead, the coast segment would be
[a sin(alpha) - s_E, a sin(alpha) - s_A], i.e. "s'_A = a sin(alpha) - sqrt(r_a1^2 - r_b1^2)".)

Flanks and phases. A pinion drive flank is the involute whose string leaves the base circle along the
counter-clockwise tangent; its base-circle start angle is beta_D = phi1 + inv(alpha) + 2 pi i / z1 and a
point of it at radius r has the polar angle beta_D - inv(arccos(r_b1 / r)) (so at phi1 = 0 tooth 0 passes
P). Where it crosses the drive line, s = r_b1 (beta_D - (-alpha)) (string length = unwound arc), so the
drive pairs sit at

    s_k = s_P + r_b1 phi1 + k p_b,   k integer,   i.e.  s_P + (r_b1 phi1 mod p_b) + k p_b,

moving towards the wheel at r_b1 dphi1/dt. Tooth thickness on the pitch circle: pinion s1 = p/2, wheel
s2 = p/2 - j / cos(alpha) (the whole backlash j, measured along the line of action, on the wheel; the
circumferential backlash is j / cos(alpha)). A pinion coast flank starts at beta_C = beta_D - psi_b1,
psi_b1 = s1/r1 + 2 inv(alpha) (base-circle tooth thickness); the string leaves clockwise, a point at
radius r has the polar angle beta_C + inv(arccos(r_b1/r)), and it crosses the coast line at
s' = r_b1 (alpha - beta_C), so the coast pairs sit at

    s'_k = s_P - r_b1 phi1 + s1 cos(alpha) + k p_b = s_P - r_b1 phi1 + p_b/2 + k p_b

(with s1 = p/2; an even split of the backlash, s1 = p/2 - j/(2 cos alpha), would shift them by -j/2).
Wheel flanks: drive start angle (about O2) phi2 + pi + inv(alpha) + 2 pi i / z2 (counter-clockwise string,
polar angle minus inv), coast start angle that minus psi_b2 = s2/r2 + 2 inv(alpha) (clockwise string, plus
inv).

Approaches. The involute flanks stay perpendicular to their line of action; the pinion's drive flank moves
along n by r_b1 phi1, the wheel's by -r_b2 phi2; the pinion's coast flank along m_c by -r_b1 phi1, the
wheel's by +r_b2 phi2. With e = r_b1 phi1 + r_b2 phi2 (transmission error along the line of action, m):

    drive: delta = e,       coast: delta_c = -e - j,

the same for every pair on a side (rigid teeth apart from the contact compliance). The geometric
positions are those of the pinion's flanks (the wheel's differ by the approach, microns).

Forces and torques. A drive force F (>= 0) acts on the wheel along +n at a point of the drive line and on
the pinion along -n; a coast force F_c along +m_c on the wheel, -m_c on the pinion. Their moments about the
centres (moment arms r_b1, r_b2; e.g. (T2 - O2) x n = -r_b2 e_z):

    J1 phi1'' = T1 - r_b1 F_drive + r_b1 F_coast,
    J2 phi2'' = T2 - r_b2 F_drive + r_b2 F_coast,

T1 the input torque on the pinion, T2 the torque on the wheel: a LOAD opposing the wheel's clockwise
rotation is T2 > 0. Static equilibrium: F_drive = T2 / r_b2 = T1 / r_b1. Power: d(KE)/dt = T1 phi1' +
T2 phi2' - F_drive e' - F_coast delta_c', so KE + W_mesh - int (T1 phi1' + T2 phi2') dt is constant, with
the mesh work integral W_mesh = int (F_drive e' + F_coast delta_c') dt. (The mesh forces are not derived
from a potential: a pair entering or leaving the active segment under load makes them jump, and for
unequal materials a pair's law depends on its position s, i.e. on phi1.)
Inertias: both gears solid steel disks of their pitch radius, J_i = rho pi b r_i^4 / 2.

Normal law of one pair: two cylinders in line contact (Johnson, Contact Mechanics, 1985, ch. 4 and 5)
------------------------------------------------------------------------------------------------------
Load per unit length P = F / b, 1/R = 1/rho1 + 1/rho2, 1/E* = k1 + k2 with k_i = (1 - nu_i^2)/E_i,
Hertz half-width c = sqrt(4 P R / (pi E*)) (Johnson (4.43)), and the approach of the two cylinders' axes
(Johnson ch. 5; the brief cites sect. 5.6 -- the equation number could not be checked against the book here)

    delta = (P/pi) [ k1 (2 ln(4 rho1 / c) - 1) + k2 (2 ln(4 rho2 / c) - 1) ].

For equal materials this is the form delta = P/(pi E_c) (ln(8 rho1/w) + ln(8 rho2/w) - 1) with the full
width w = 2c and E_c = E*, as it is also quoted. Since ln c = ln(4 R/(pi E*))/2 + ln(P)/2 the law is
delta = (P/pi) (K0 - K ln P), K = k1 + k2, K0 = k1 (2 ln 4 rho1 - 1) + k2 (2 ln 4 rho2 - 1) - K ln(4R/(pi E*)),
so delta/P is affine in ln P. For equal materials (k1 = k2 = k) the position drops out, because
rho1 rho2 / R = rho1 + rho2 = a sin(alpha):

    delta = (2 P k / pi) (ln(2 pi a sin(alpha) / (P k)) - 1)   for every s,

so the pair stiffness is the same all along the line of action and the mesh stiffness only counts pairs.
In general

    d delta / dP = delta/P - K/pi,      stiffness of a pair  dF/ddelta = b / (delta/P - K/pi).

The law increases only for P < P* = exp(K0/K - 1) (for equal materials c = 4 sqrt(rho1 rho2)/e there, far
outside the theory's range c << rho; F* = 7e7 N for the defaults); `force_of_delta` inverts it by brentq
in ln F on (0, P*) and refuses delta >= delta(P*).
Closed form of the inverse (used as the tests' oracle, not here): P = -x / W_{-1}(-x e^(-K0/K)), x = pi
delta / K, W_{-1} the lower branch of Lambert's W.
Check against Palmgren's empirical line-contact law delta = 3.84e-5 F^0.9 / L^0.8 (mm, N; Harris &
Kotzalas, Rolling Bearing Analysis, for steel rollers; it has no radius in it): for the default pair
(b = 20 mm, any s) Johnson/Palmgren - 1 = -9.2 % at 100 N, -3.9 % at 1000 N, -1.8 % at 10000 N.

Tooth compliance: bending, shear, axial compression, foundation (potential-energy method)
------------------------------------------------------------------------------------------
In series with the contact each pair has the compliance of its two teeth, q(s) = q_1(s) + q_2(s) (m/N), by the
potential-energy method of Yang & Lin (1987) in the form of Tian (2004) and Chaari, Fakhfakh & Haddar (2009,
Eur. J. Mech. A/Solids 28, 461), the tooth a non-uniform cantilever from its base circle, with the foundation
(gear body) compliance of Sainsot, Velex & Duverger (2004, J. Mech. Des. 126, 748). Tooth of a gear with z
teeth, base radius r_b: half tooth angle on the base circle alpha_2 = pi/(2 z) + inv(alpha); a pair at the
roll length s_r from the gear's tangent point (s for the pinion, a sin(alpha) - s for the wheel) loads the
tooth with F at the angle alpha_1 = s_r/r_b - alpha_2 to the normal of its centre line (its pressure angle at
the contact is arctan(s_r/r_b) and the tooth's half angle there alpha_2 - inv). With the profile
parametrised by the angle a in [-alpha_1, alpha_2] (Tian's eqs.; Chaari et al. 2009, eqs. 4-6):

    1/k_b = int 3 {1 + cos a1 [(a2 - a) sin a - cos a]}^2 (a2 - a) cos a / (2 E b [sin a + (a2 - a) cos a]^3) da
    1/k_s = int 1.2 (1 + nu) (a2 - a) cos a cos^2 a1 / (E b [sin a + (a2 - a) cos a]) da
    1/k_a = int (a2 - a) cos a sin^2 a1 / (2 E b [sin a + (a2 - a) cos a]) da

(the shear term with G = E/(2(1 + nu)) and the shear factor 1.2 of a rectangular section). Foundation
(Sainsot et al. 2004, eq. 8 and table 1): 1/k_f = cos^2 a1/(E b) [L* (u_f/S_f)^2 + M* u_f/S_f + P* (1 + Q* tan^2 a1)],
with u_f the distance along the centre line from the root (here the base) circle to where the load line
crosses it, S_f = 2 r_b alpha_2 the root (base) circle's tooth arc, and X* = A/theta_f^2 + B h_f^2 + C h_f/theta_f
+ D/theta_f + E h_f + F for X = L, M, P, Q, h_f = r_b/r_int (r_int: the bore), theta_f = alpha_2. Both the
tooth integrals and the foundation take the root at the base circle, as Tian and Chaari et al. do (for these
gears the root circle lies 1.3 mm (pinion) and 2.0 mm (wheel) below it: that part of the tooth and its
fillet are left to the foundation term). The contact keeps Johnson's law above (approach of the cylinders'
axes); the classic PE papers use instead the constant Hertz stiffness pi E b/(4 (1 - nu^2)) of Yang & Lin.
The pair's approach is the sum

    delta = (P/pi) (K0 - K ln P) + q(s) b P,   i.e. the contact law with K0 -> K0 + pi b q(s),

so every inversion below holds unchanged (brentq in ln P, or Lambert's W). The bore radius is not given by
the example (solid disks); the default r_int = r_f/2 for each gear (h_f = 2.15 pinion, 2.09 wheel) is a
choice; the stiffness's dependence on it is shown in the stiffness case.

Linear tip relief: the flanks are cut back by C(s) = C_a max(0, s - (s_E - L_a))/L_a (pinion tip) +
C_a max(0, s_A + L_a - s)/L_a (wheel tip), measured along the line of action (normal to the involute), over
the length L_a of the line of action from each tip; a pair at s carries F(delta - C(s), s) (0 while
delta <= C(s)).

Mesh counts, static transmission error, mesh stiffness
------------------------------------------------------
With x = (s_P + r_b1 phi1 - s_A) mod p_b and n = floor(eps_alpha): n + 1 pairs lie in the active segment
for x in [0, (eps_alpha - n) p_b], n pairs for x in ((eps_alpha - n) p_b, p_b); for 1 < eps_alpha < 2:
two pairs over (eps_alpha - 1) p_b, one pair over (2 - eps_alpha) p_b of each base pitch. Static TE under
the load torque T2 > 0: sum_k F(delta, s_k) = T2 / r_b2 over the drive pairs at phi1, solved for delta by
brentq (one pair: delta = delta_of_force(T2 / r_b2, s)); e = delta. For T2 < 0 the coast pairs carry
|T2| / r_b2 and e = -j - delta_c. Mesh stiffness k_mesh = sum_k dF_k/ddelta at that delta. Mesh
(tooth-pass) frequency z1 omega1 (rad/s).

Undercut: a standard pinion cut by a rack has no undercut iff z >= 2 / sin(alpha)^2 (17.1 for 20 deg:
z >= 18); both gears are required to satisfy it.

Dynamics (`simulate`)
---------------------
Two rotors, the equations above, optional viscous damping d_mesh of each loaded pair: while a side is in
contact (delta > 0 there and a pair in the active segment) its force is sum_k max(F_k + d_mesh ddelta/dt, 0)
over its loaded pairs (no pair pulls), with ddelta/dt = e' (drive) or -e' (coast). Optionally the pinion turns at a
prescribed speed omega1 (then T1 is the torque that keeps it so: r_b1 (F_drive - F_coast)). The state is
(phi1, phi1', e, e', W_mesh) (e rather than phi2, so that the microns of e keep their digits); the pair
set changes when a pair enters or leaves a segment: the integration is restarted there (events on phi1, or
the known times for a prescribed speed), so that the right-hand side is smooth inside each piece.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from functools import cached_property

import numpy as np
import pandas as pd
from scipy.integrate import quad, solve_ivp
from scipy.interpolate import CubicSpline
from scipy.optimize import brentq

from nonholonomic.errors import NonholonomicError
from nonholonomic.references.common import finite_number

XTOL = 1e-14  # brentq's absolute tolerance on ln F (force_of_delta) and on delta / delta_bracket (static TE)
SIDES = ("drive", "coast")
COLUMNS = ("time", "phi1", "phi2", "omega1", "omega2", "e", "F_drive", "F_coast", "pairs", "T1",
           "kinetic_energy", "W_mesh")


def _inv(x):
    """Involute function tan(x) - x."""
    return np.tan(x) - x


def _as_float(name: str, value) -> float:
    return finite_number(f"gears: {name}", value)


# Sainsot, Velex & Duverger (2004), table 1: X* = A/theta_f^2 + B h_f^2 + C h_f/theta_f + D/theta_f + E h_f + F
SAINSOT = {"L": (-5.574e-5, -1.9986e-3, -2.3015e-4, 4.7702e-3, 0.0271, 6.8045),
           "M": (60.111e-5, 28.100e-3, -83.431e-4, -9.9256e-3, 0.1624, 0.9086),
           "P": (-50.952e-5, 185.50e-3, 0.0538e-4, 53.300e-3, 0.2895, 0.9236),
           "Q": (-6.2042e-5, 9.0889e-3, -4.0964e-4, 7.8297e-3, -0.1472, 0.6904)}


def tooth_compliance(z, m, alpha, b, E, nu, r_int, s_r, parts=False):
    """Compliance (m/N) of one tooth (z teeth, module m, pressure angle alpha, face width b, E, nu, bore radius
    r_int) loaded on its flank at the roll length s_r from its base-circle tangent point: bending + shear + axial
    (potential-energy integrals, quad) + foundation (Sainsot et al. 2004); module docstring. With parts=True a
    dict of the four."""
    rb = m * z / 2 * math.cos(alpha)
    a2 = math.pi / (2 * z) + float(_inv(alpha))
    a1 = s_r / rb - a2
    c1, n1 = math.cos(a1), math.sin(a1)
    den = lambda a: math.sin(a) + (a2 - a) * math.cos(a)  # half thickness / r_b at the section a
    terms = {
        "bending": lambda a: 3 * (1 + c1 * ((a2 - a) * math.sin(a) - math.cos(a))) ** 2 * (a2 - a) * math.cos(a)
        / (2 * E * b * den(a) ** 3),
        "shear": lambda a: 1.2 * (1 + nu) * (a2 - a) * math.cos(a) * c1**2 / (E * b * den(a)),
        "axial": lambda a: (a2 - a) * math.cos(a) * n1**2 / (2 * E * b * den(a)),
    }
    q = {k: quad(f, -a1, a2, epsabs=0.0, epsrel=1e-12, limit=200)[0] for k, f in terms.items()}
    # foundation: the load line crosses the centre line at u_f above the base circle's chord point
    h_load = rb * ((a1 + a2) * c1 - n1)  # distance of the contact point from the centre line
    u_f = rb * ((a1 + a2) * n1 + c1) - h_load * math.tan(a1) - rb * math.cos(a2)
    S_f, h_f, th = 2 * rb * a2, rb / r_int, a2
    X = {k: A / th**2 + B * h_f**2 + C * h_f / th + D / th + Ek * h_f + F for k, (A, B, C, D, Ek, F) in SAINSOT.items()}
    q["foundation"] = c1**2 / (E * b) * (X["L"] * (u_f / S_f) ** 2 + X["M"] * u_f / S_f
                                         + X["P"] * (1 + X["Q"] * math.tan(a1) ** 2))
    return q if parts else sum(q.values())


@dataclass(frozen=True)
class SpurGearPair:
    """Standard spur involute gear pair (no profile shift, addendum = m); SI units, angles in rad.

    m (module), z1 (pinion teeth), z2 (wheel teeth), alpha (pressure angle), b (face width), E1, nu1, E2,
    nu2 (Young's moduli and Poisson ratios of pinion and wheel), rho (density), j (backlash along the line
    of action, all of it on the wheel's teeth). Defaults: m = 2 mm, 20/35 teeth, 20 deg, b = 20 mm, steel
    (210 GPa, 0.3, 7850 kg/m^3), j = 0.1 mm. bending: the teeth's compliance (bending, shear, axial,
    foundation) in series with the contact; r_int1, r_int2: bore radii (default half the root radius
    r - 1.25 m); C_a, L_a: linear tip relief on both gears' tips (default none; L_a default the long relief
    (eps_alpha - 1) p_b)."""

    m: float = 2e-3
    z1: int = 20
    z2: int = 35
    alpha: float = math.radians(20.0)
    b: float = 20e-3
    E1: float = 2.1e11
    nu1: float = 0.3
    E2: float = 2.1e11
    nu2: float = 0.3
    rho: float = 7850.0
    j: float = 1e-4
    bending: bool = True
    r_int1: float | None = None
    r_int2: float | None = None
    C_a: float = 0.0
    L_a: float | None = None

    def __post_init__(self):
        for f in fields(self):
            if f.name == "bending":
                object.__setattr__(self, f.name, bool(self.bending))
            elif f.name in ("r_int1", "r_int2", "L_a") and getattr(self, f.name) is None:
                continue
            elif f.name in ("z1", "z2"):
                z = getattr(self, f.name)
                if isinstance(z, bool) or not isinstance(z, (int, np.integer)):
                    raise NonholonomicError(f"gears: tooth number {f.name} must be an integer, got {z!r}")
                object.__setattr__(self, f.name, int(z))
            else:
                object.__setattr__(self, f.name, _as_float(f.name, getattr(self, f.name)))
        for name, what in (("m", "module m"), ("b", "face width b"), ("E1", "Young's modulus E1"),
                           ("E2", "Young's modulus E2"), ("rho", "density rho")):
            if not getattr(self, name) > 0.0:
                raise NonholonomicError(f"gears: {what} must be positive, got {getattr(self, name)}")
        for name in ("nu1", "nu2"):
            if not -1.0 < getattr(self, name) <= 0.5:
                raise NonholonomicError(f"gears: Poisson ratio {name} must lie in (-1, 0.5], got {getattr(self, name)}")
        if not 0.0 < self.alpha < math.pi / 4:
            raise NonholonomicError(f"gears: pressure angle alpha must lie in (0, 45 deg), got {self.alpha} rad")
        z_min = self.z_min
        for name in ("z1", "z2"):
            if getattr(self, name) < z_min:
                raise NonholonomicError(f"gears: {name} = {getattr(self, name)} is below {z_min} teeth "
                                        f"(undercut of a standard gear at alpha = {math.degrees(self.alpha):g} deg)")
        if not 0.0 <= self.j < self.p_b / 2:
            raise NonholonomicError(f"gears: backlash j must lie in [0, p_b/2 = {self.p_b / 2:g} m), got {self.j}")
        for name, z in (("r_int1", self.z1), ("r_int2", self.z2)):
            r_f = self.m * z / 2 - 1.25 * self.m
            if getattr(self, name) is None:
                object.__setattr__(self, name, r_f / 2)
            if not 0.0 < getattr(self, name) < r_f:
                raise NonholonomicError(f"gears: bore radius {name} must lie in (0, r_f = {r_f:g} m)")
        if self.L_a is None:
            object.__setattr__(self, "L_a", (self.eps_alpha - 1) * self.p_b)
        if not (self.C_a >= 0.0 and 0.0 < self.L_a <= self.s_E - self.s_A):
            raise NonholonomicError(f"gears: tip relief needs C_a >= 0 and 0 < L_a <= s_E - s_A, got {self.C_a}, {self.L_a}")
        if not (self.s_A > 0.0 and self.s_E < self.T1T2 and self.eps_alpha > 1.0):  # cannot happen for z >= z_min
            raise NonholonomicError(f"gears: the mesh is not valid (s_A = {self.s_A:g}, s_E = {self.s_E:g}, "
                                    f"eps_alpha = {self.eps_alpha:g})")

    # ------------------------------------------------------------------ geometry
    @property
    def z_min(self) -> int:
        """Smallest tooth number free of undercut, ceil(2 / sin(alpha)^2) (18 for 20 deg)."""
        return math.ceil(2.0 / math.sin(self.alpha) ** 2 - 1e-9)  # 1e-9: 2/sin^2 = 8.000000000000002 at 30 deg

    @property
    def r1(self) -> float:
        return self.m * self.z1 / 2

    @property
    def r2(self) -> float:
        return self.m * self.z2 / 2

    @property
    def rb1(self) -> float:
        return self.r1 * math.cos(self.alpha)

    @property
    def rb2(self) -> float:
        return self.r2 * math.cos(self.alpha)

    @property
    def ra1(self) -> float:
        return self.r1 + self.m

    @property
    def ra2(self) -> float:
        return self.r2 + self.m

    @property
    def a(self) -> float:
        """Centre distance r1 + r2."""
        return self.r1 + self.r2

    @property
    def p_b(self) -> float:
        """Base pitch pi m cos(alpha)."""
        return math.pi * self.m * math.cos(self.alpha)

    @property
    def T1T2(self) -> float:
        """Length a sin(alpha) of the line of action between the base-circle tangent points."""
        return self.a * math.sin(self.alpha)

    @property
    def s_P(self) -> float:
        """Pitch point r1 sin(alpha) on the line of action (from T1)."""
        return self.r1 * math.sin(self.alpha)

    @property
    def s_A(self) -> float:
        """Start of approach (wheel tip): a sin(alpha) - sqrt(r_a2^2 - r_b2^2)."""
        return self.T1T2 - math.sqrt(self.ra2**2 - self.rb2**2)

    @property
    def s_E(self) -> float:
        """End of recess (pinion tip): sqrt(r_a1^2 - r_b1^2)."""
        return math.sqrt(self.ra1**2 - self.rb1**2)

    @property
    def eps_alpha(self) -> float:
        """Transverse contact ratio (s_E - s_A) / p_b."""
        return (self.s_E - self.s_A) / self.p_b

    @property
    def J1(self) -> float:
        """Pinion: solid disk of the pitch radius, rho pi b r1^4 / 2."""
        return self.rho * math.pi * self.b * self.r1**4 / 2

    @property
    def J2(self) -> float:
        """Wheel: solid disk of the pitch radius, rho pi b r2^4 / 2."""
        return self.rho * math.pi * self.b * self.r2**4 / 2

    @property
    def tooth_thickness(self):
        """(s1, s2) on the pitch circles: p/2 and p/2 - j/cos(alpha)."""
        p = math.pi * self.m
        return p / 2, p / 2 - self.j / math.cos(self.alpha)

    def mesh_frequency(self, omega1):
        """Tooth-pass (mesh) frequency z1 omega1 (rad/s) for the pinion speed omega1 (rad/s)."""
        return self.z1 * np.asarray(omega1, dtype=float)

    # ------------------------------------------------------------------ pairs on the lines of action
    def _offset(self, side: str) -> float:
        if side == "drive":
            return 0.0
        if side == "coast":
            return self.p_b / 2
        raise NonholonomicError(f"gears: side must be 'drive' or 'coast', got {side!r}")

    def _k_range(self, u: float, side: str):
        """Integers k with s_P + sign u + offset + k p_b in [s_A, s_E], u = r_b1 phi1."""
        base = self.s_P + self._offset(side) + (u if side == "drive" else -u)
        lo = math.ceil((self.s_A - base) / self.p_b)
        hi = math.floor((self.s_E - base) / self.p_b)
        return base, range(lo, hi + 1)

    def pair_positions(self, phi1, side: str = "drive") -> np.ndarray:
        """Positions s (from T1, or s' from T1') of the pairs lying in the active segment [s_A, s_E]
        at the pinion angle phi1: s_P + r_b1 phi1 + k p_b (drive), s_P - r_b1 phi1 + p_b/2 + k p_b
        (coast), ascending. Geometric: whether a pair carries load depends on the approach."""
        phi1 = _as_float("phi1", phi1)
        # reduce r_b1 phi1 to one base pitch first: s_P + (r_b1 phi1 mod p_b) + k p_b
        u = math.fmod(self.rb1 * phi1, self.p_b)
        base, ks = self._k_range(u, side)
        return np.array([base + k * self.p_b for k in ks])

    def pairs_in_contact(self, phi1, side: str = "drive") -> int:
        """Number of pairs in the active segment at phi1 (geometric)."""
        return len(self.pair_positions(phi1, side))

    def contact_intervals(self):
        """(n, length of the (n+1)-pair zone, length of the n-pair zone) per base pitch along the line of
        action, n = floor(eps_alpha): (n + 1) pairs over (eps - n) p_b, n pairs over (n + 1 - eps) p_b."""
        n = math.floor(self.eps_alpha)
        return n, (self.eps_alpha - n) * self.p_b, (n + 1 - self.eps_alpha) * self.p_b

    def zone_phase(self, phi1) -> np.ndarray:
        """x = (s_P + r_b1 phi1 - s_A) mod p_b: the drive side has n + 1 pairs in the active segment for
        x <= (eps_alpha - n) p_b and n pairs beyond (contact_intervals)."""
        return np.mod(self.s_P + self.rb1 * np.asarray(phi1, dtype=float) - self.s_A, self.p_b)

    # ------------------------------------------------------------------ normal law of one pair
    def _radii(self, s):
        s = _as_float("position s", s)
        if not 0.0 < s < self.T1T2:
            raise NonholonomicError(f"gears: position s = {s} lies outside (0, a sin(alpha) = {self.T1T2})")
        return s, self.T1T2 - s

    @property
    def E_star(self) -> float:
        """E* = 1 / ((1 - nu1^2)/E1 + (1 - nu2^2)/E2)."""
        return 1.0 / ((1 - self.nu1**2) / self.E1 + (1 - self.nu2**2) / self.E2)

    def _law(self, s):
        """(K0, K) of delta = (P/pi) (K0 - K ln P) at the position s (module docstring)."""
        rho1, rho2 = self._radii(s)
        k1, k2 = (1 - self.nu1**2) / self.E1, (1 - self.nu2**2) / self.E2
        R = rho1 * rho2 / (rho1 + rho2)
        K = k1 + k2
        K0 = k1 * (2 * math.log(4 * rho1) - 1) + k2 * (2 * math.log(4 * rho2) - 1) \
            - K * math.log(4 * R / (math.pi * self.E_star))
        return K0 + math.pi * self.b * self.tooth_pair_compliance(s), K

    def tooth_pair_compliance_exact(self, s) -> float:
        """q(s) = q_1(s) + q_2(s) (m/N): both teeth's bending, shear, axial and foundation compliance (0 when
        bending is off); module docstring."""
        if not self.bending:
            return 0.0
        rho1, rho2 = self._radii(s)
        return (tooth_compliance(self.z1, self.m, self.alpha, self.b, self.E1, self.nu1, self.r_int1, rho1)
                + tooth_compliance(self.z2, self.m, self.alpha, self.b, self.E2, self.nu2, self.r_int2, rho2))

    @cached_property
    def _q_spline(self):
        """q(s) on 241 points of [s_A, s_E] and a cubic spline through them (interpolation error below 1e-9 of q,
        tests/test_reference_gears.py), so that the dynamics need no quadrature per step."""
        s = np.linspace(self.s_A, self.s_E, 241)
        return CubicSpline(s, [self.tooth_pair_compliance_exact(x) for x in s])

    def tooth_pair_compliance(self, s) -> float:
        """q(s) (m/N): the spline inside the active segment, the quadrature outside it."""
        if not self.bending:
            return 0.0
        if self.s_A <= s <= self.s_E:
            return float(self._q_spline(s))
        return self.tooth_pair_compliance_exact(s)

    def relief(self, s) -> float:
        """Linear tip relief C(s) (m) of the pair at s: both tips, module docstring."""
        return self.C_a * (max(0.0, s - (self.s_E - self.L_a)) + max(0.0, self.s_A + self.L_a - s)) / self.L_a

    def half_width(self, F, s) -> float:
        """Hertz half-width c = sqrt(4 P R / (pi E*)) of the contact strip, P = F/b (Johnson (4.43))."""
        rho1, rho2 = self._radii(s)
        F = _as_float("force F", F)
        if F < 0:
            raise NonholonomicError(f"gears: force F must be >= 0, got {F}")
        R = rho1 * rho2 / (rho1 + rho2)
        return math.sqrt(4 * (F / self.b) * R / (math.pi * self.E_star))

    def delta_of_force(self, F, s) -> float:
        """Approach delta (m) of a pair at the position s under the normal force F (N), Johnson's
        line-contact law written out term by term, (P/pi) sum_i k_i (2 ln(4 rho_i / c) - 1), plus the teeth's
        q(s) F (without relief)."""
        F = _as_float("force F", F)
        if F < 0:
            raise NonholonomicError(f"gears: force F must be >= 0, got {F}")
        if F == 0.0:
            return 0.0
        rho1, rho2 = self._radii(s)
        c = self.half_width(F, s)
        k1, k2 = (1 - self.nu1**2) / self.E1, (1 - self.nu2**2) / self.E2
        return (F / self.b) / math.pi * (k1 * (2 * math.log(4 * rho1 / c) - 1) + k2 * (2 * math.log(4 * rho2 / c) - 1)) \
            + self.tooth_pair_compliance(s) * F

    def max_force(self, s) -> float:
        """F* = b P*, P* = exp(K0/K - 1): the law delta(F) increases on (0, F*) only."""
        K0, K = self._law(s)
        return self.b * math.exp(K0 / K - 1)

    def force_of_delta(self, delta, s) -> float:
        """Normal force F (N) of a pair at s with the approach delta (m): 0 for delta <= 0, otherwise the
        root of delta_of_force(F, s) = delta by brentq in ln F (xtol XTOL)."""
        delta = _as_float("approach delta", delta)
        if delta <= 0.0:
            return 0.0
        K0, K = self._law(s)
        ln_pmax = K0 / K - 1

        def law(ln_p):  # the same law in the form (P/pi)(K0 - K ln P), cheaper inside brentq
            return math.exp(ln_p) / math.pi * (K0 - K * ln_p) - delta

        if law(ln_pmax) <= 0:
            raise NonholonomicError(f"gears: approach delta = {delta} m exceeds the line-contact law's maximum "
                                    f"at s = {s}")
        # P = pi delta / (K0 - K ln P) < pi delta / K below P* (there K0 - K ln P > K): an upper end; then
        # step down until the law falls below delta
        hi = min(math.log(math.pi * delta / K), ln_pmax)
        lo, step = hi - 1.0, 1.0
        while law(lo) >= 0:
            lo -= step
            step *= 2
        ln_p = brentq(law, lo, hi, xtol=XTOL, rtol=4 * np.finfo(float).eps, maxiter=200)
        return self.b * math.exp(ln_p)

    def pair_stiffness(self, F, s) -> float:
        """dF/ddelta (N/m) of a pair at s under the force F: b / (delta/P - K/pi) (module docstring)."""
        F = _as_float("force F", F)
        if F <= 0.0:
            return 0.0
        _, K = self._law(s)
        return self.b / (self.delta_of_force(F, s) / (F / self.b) - K / math.pi)

    # ------------------------------------------------------------------ statics
    def _loaded_side(self, T2):
        T2 = _as_float("load torque T2", T2)
        return T2, ("drive" if T2 >= 0 else "coast")

    def pair_force(self, delta, s) -> float:
        """Force of the pair at s when the flanks' approach (without relief) is delta: F(delta - C(s), s)."""
        return self.force_of_delta(delta - self.relief(s), s)

    def _static_delta(self, positions, W):
        """delta with sum_k F(delta - C(s_k), s_k) = W (W > 0) over the given positions, by brentq."""
        if len(positions) == 1:
            return self.delta_of_force(W, positions[0]) + self.relief(positions[0])
        # each pair carries at most W: delta <= max_k delta(W, s_k) + C(s_k)
        top = max(self.delta_of_force(W, s) + self.relief(s) for s in positions)
        g = lambda x: sum(self.pair_force(x * top, s) for s in positions) - W
        x = brentq(g, 0.0, 1.0, xtol=XTOL, rtol=4 * np.finfo(float).eps, maxiter=200)
        return x * top

    def static_transmission_error(self, phi1, T2) -> float:
        """Static transmission error e (m) at the pinion angle phi1 under the load torque T2 (N m) on the
        wheel (T2 > 0 opposes the driven clockwise rotation: the drive flanks carry T2/r_b2, e = delta > 0;
        T2 < 0: the coast flanks carry |T2|/r_b2, e = -j - delta_c; T2 = 0: e = 0)."""
        T2, side = self._loaded_side(T2)
        if T2 == 0:
            return 0.0
        positions = self.pair_positions(phi1, side)
        delta = self._static_delta(positions, abs(T2) / self.rb2)
        return delta if side == "drive" else -self.j - delta

    def mesh_stiffness(self, phi1, T2) -> float:
        """k_mesh = sum_k dF_k/ddelta (N/m) of the loaded side at phi1 under the load torque T2 (N m)."""
        T2, side = self._loaded_side(T2)
        if T2 == 0:
            return 0.0
        positions = self.pair_positions(phi1, side)
        delta = self._static_delta(positions, abs(T2) / self.rb2)
        return sum(self.pair_stiffness(self.pair_force(delta, s), s) for s in positions)

    # ------------------------------------------------------------------ picture
    def flank_geometry(self, phi1=0.0, phi2=0.0, n: int = 30) -> dict:
        """Points in the plane (pinion centre at the origin, wheel centre at (a, 0)) of the involute flanks
        from the base to the tip circle, n points each, at the angles phi1, phi2; and the pairs' points:

        pinion_drive, pinion_coast: (z1, n, 2); wheel_drive, wheel_coast: (z2, n, 2);
        drive_line, coast_line: (2, 2), the tangent points (T1, T2), (T1', T2');
        drive_segment, coast_segment: (2, 2), the points of s_A and s_E on each line;
        drive_contacts, coast_contacts: (k, 2), the pairs in the active segments (pinion flank points)."""
        phi1, phi2 = _as_float("phi1", phi1), _as_float("phi2", phi2)
        al, inv_a = self.alpha, float(_inv(self.alpha))
        s1, s2 = self.tooth_thickness
        O2 = np.array([self.a, 0.0])

        def involutes(centre, rb, ra, starts, ccw_string):
            L = np.linspace(0.0, math.sqrt(ra**2 - rb**2), n)
            beta = np.asarray(starts)[:, None]
            tau = beta - L / rb if ccw_string else beta + L / rb  # tangent point of the string
            sgn = 1.0 if ccw_string else -1.0  # string along the ccw tangent (-sin, cos) or the cw one
            x = rb * np.cos(tau) - sgn * L * np.sin(tau)
            y = rb * np.sin(tau) + sgn * L * np.cos(tau)
            return np.stack([x, y], -1) + centre

        i1, i2 = np.arange(self.z1), np.arange(self.z2)
        bD1 = phi1 + inv_a + 2 * math.pi * i1 / self.z1
        bD2 = phi2 + math.pi + inv_a + 2 * math.pi * i2 / self.z2
        n_vec, m_vec = np.array([math.sin(al), math.cos(al)]), np.array([math.sin(al), -math.cos(al)])
        T1, T1c = self.rb1 * np.array([math.cos(al), -math.sin(al)]), self.rb1 * np.array([math.cos(al), math.sin(al)])
        on_drive = lambda s: T1 + np.multiply.outer(np.asarray(s, float), n_vec)
        on_coast = lambda s: T1c + np.multiply.outer(np.asarray(s, float), m_vec)
        return {
            "pinion_drive": involutes(np.zeros(2), self.rb1, self.ra1, bD1, True),
            "pinion_coast": involutes(np.zeros(2), self.rb1, self.ra1, bD1 - (s1 / self.r1 + 2 * inv_a), False),
            "wheel_drive": involutes(O2, self.rb2, self.ra2, bD2, True),
            "wheel_coast": involutes(O2, self.rb2, self.ra2, bD2 - (s2 / self.r2 + 2 * inv_a), False),
            "drive_line": on_drive([0.0, self.T1T2]),
            "coast_line": on_coast([0.0, self.T1T2]),
            "drive_segment": on_drive([self.s_A, self.s_E]),
            "coast_segment": on_coast([self.s_A, self.s_E]),
            "drive_contacts": on_drive(self.pair_positions(phi1, "drive")).reshape(-1, 2),
            "coast_contacts": on_coast(self.pair_positions(phi1, "coast")).reshape(-1, 2),
        }

    # ------------------------------------------------------------------ dynamics
    def _switches(self):
        """Residues of u = r_b1 phi1 modulo p_b at which a pair enters or leaves an active segment."""
        r = [self.s_A - self.s_P, self.s_E - self.s_P,  # drive: s_P + u + k p_b = s_A, s_E
             self.s_P + self.p_b / 2 - self.s_A, self.s_P + self.p_b / 2 - self.s_E]  # coast
        return np.sort(np.mod(r, self.p_b))

    def _piece(self, u, direction):
        """(lo, hi, drive ks, coast ks): the open interval of u = r_b1 phi1 between two switches that u
        lies in (at a switch, the one entered when moving in `direction`), and the pairs k active there."""
        res = self._switches()
        q = math.floor(u / self.p_b)
        grid = np.concatenate([res + (q + i) * self.p_b for i in (-1, 0, 1, 2)])
        tol = 1e-12 * self.p_b
        probe = u + (tol if direction >= 0 else -tol)
        hi = grid[grid > probe].min()
        lo = grid[grid < probe].max()
        mid = 0.5 * (lo + hi)
        ks = {side: self._k_range(mid, side)[1] for side in SIDES}
        return lo, hi, ks

    def _forces(self, u, e, de, ks, d_mesh):
        """(F_drive, F_coast, loaded pairs) at u = r_b1 phi1 with the pair sets ks of the current piece."""
        out, count = [], 0
        for side, delta, ddelta in (("drive", e, de), ("coast", -e - self.j, -de)):
            krange = ks[side]
            if delta > 0.0 and len(krange) > 0:
                base = self.s_P + self._offset(side) + (u if side == "drive" else -u)
                loads = [self.pair_force(delta, base + k * self.p_b) for k in krange]
                out.append(sum(max(F + d_mesh * ddelta, 0.0) for F in loads if F > 0.0))
                count += sum(F > 0.0 for F in loads)
            else:
                out.append(0.0)
        return out[0], out[1], count

    def simulate(self, t_eval, T2=50.0, T1=None, omega1=100.0, prescribed=False, d_mesh=0.0, phi1_0=0.0,
                 e0=None, de0=0.0, rtol=1e-10, atol=None, method="LSODA") -> pd.DataFrame:
        """Two rotors coupled by the compliant mesh (module docstring), from t_eval[0].

        T2: torque on the wheel (N m; a load opposing the driven rotation is > 0). T1: input torque on
        the pinion (default T2 r_b1/r_b2, the static balance); ignored if `prescribed`, when the pinion
        turns at omega1 exactly. Initial state: phi1 = phi1_0, phi1' = omega1, e = e0 (default: the static
        TE at phi1_0 under T2), e' = de0, so that phi2' = (de0 - r_b1 omega1)/r_b2. d_mesh (N s/m): viscous
        damping of each loaded pair. Returns a DataFrame with COLUMNS: F_drive, F_coast (N), pairs
        (loaded pairs), T1 (the pinion's torque: applied, or the one the prescribed speed requires),
        kinetic_energy, W_mesh = int (F_drive e' - F_coast e') dt (J)."""
        t_eval = np.asarray(t_eval, dtype=float)
        if t_eval.ndim != 1 or t_eval.size < 2 or np.any(np.diff(t_eval) <= 0) or not np.all(np.isfinite(t_eval)):
            raise NonholonomicError("gears: t_eval must be an increasing 1-D array of at least two finite times")
        T2, omega1, d_mesh = _as_float("T2", T2), _as_float("omega1", omega1), _as_float("d_mesh", d_mesh)
        phi1_0, de0 = _as_float("phi1_0", phi1_0), _as_float("de0", de0)
        if d_mesh < 0:
            raise NonholonomicError(f"gears: damping d_mesh must be >= 0, got {d_mesh}")
        T1 = T2 * self.rb1 / self.rb2 if T1 is None else _as_float("T1", T1)
        e0 = self.static_transmission_error(phi1_0, T2) if e0 is None else _as_float("e0", e0)
        rb1, rb2, J1, J2 = self.rb1, self.rb2, self.J1, self.J2
        if atol is None:  # per component: rtol times the scale of phi1, omega, e, e', W
            atol = rtol * np.array([1.0, max(abs(omega1), 1.0), 1e-6, 1e-4, 1e-3])

        def accelerations(u, e, de, ks):
            Fd, Fc, _ = self._forces(u, e, de, ks, d_mesh)
            return (T1 - rb1 * Fd + rb1 * Fc) / J1, (T2 - rb2 * Fd + rb2 * Fc) / J2, Fd, Fc

        def rhs(t, y, ks):
            phi1, w1, e, de, _ = y
            if prescribed:  # phi1 = phi1_0 + omega1 t: only the wheel's equation
                Fd, Fc, _ = self._forces(rb1 * phi1, e, de, ks, d_mesh)
                a1, a2 = 0.0, (T2 - rb2 * Fd + rb2 * Fc) / J2
            else:
                a1, a2, Fd, Fc = accelerations(rb1 * phi1, e, de, ks)
            return [w1, a1, de, rb1 * a1 + rb2 * a2, (Fd - Fc) * de]

        y = np.array([phi1_0, omega1, e0, de0, 0.0])
        t, rows = t_eval[0], [(0, y)]
        while True:
            direction = 1.0 if y[1] >= 0 else -1.0
            lo, hi, ks = self._piece(rb1 * y[0], direction)
            if prescribed:  # the piece ends at a known time
                if omega1 == 0:
                    t_end = t_eval[-1]
                else:
                    t_end = t + ((hi if omega1 > 0 else lo) - rb1 * y[0]) / (rb1 * omega1)
                t_end, events = min(t_end, t_eval[-1]), None
            else:
                ev_hi = lambda t, y, ks, hi=hi: rb1 * y[0] - hi
                ev_lo = lambda t, y, ks, lo=lo: rb1 * y[0] - lo
                ev_hi.terminal, ev_hi.direction = True, 1
                ev_lo.terminal, ev_lo.direction = True, -1
                t_end, events = t_eval[-1], [ev_hi, ev_lo]
            if t_end <= t:
                break
            inside = t_eval[(t_eval > t) & (t_eval < t_end)]
            points = np.append(inside, t_end)  # t_end too: the state there starts the next piece
            sol = solve_ivp(rhs, (t, t_end), y, method=method, t_eval=points, events=events, args=(ks,),
                            rtol=rtol, atol=atol)
            if sol.status < 0:
                raise NonholonomicError(f"gears: integration failed at t = {t}: {sol.message}")
            for k in range(sol.t.size):
                i = int(np.searchsorted(t_eval, sol.t[k]))
                if i < t_eval.size and t_eval[i] == sol.t[k]:
                    rows.append((i, sol.y[:, k]))
            if sol.status == 1:  # a pair entered or left: restart at the event
                t, y = float(sol.t_events[0][0] if sol.t_events[0].size else sol.t_events[1][0]), \
                    (sol.y_events[0][0] if sol.t_events[0].size else sol.y_events[1][0]).copy()
                i = int(np.searchsorted(t_eval, t))
                if i < t_eval.size and t_eval[i] == t:
                    rows.append((i, y.copy()))
            else:
                t, y = t_end, sol.y[:, -1].copy()
            if prescribed:  # keep phi1 exact
                y[0], y[1] = phi1_0 + omega1 * (t - t_eval[0]), omega1
            if t >= t_eval[-1]:
                break
        Y = np.full((5, t_eval.size), np.nan)
        for i, state in rows:
            Y[:, i] = state
        if np.isnan(Y).any():
            raise NonholonomicError("gears: internal error, a requested time was not reached")
        phi1, w1, e, de, W = Y
        if prescribed:
            phi1, w1 = phi1_0 + omega1 * (t_eval - t_eval[0]), np.full_like(t_eval, omega1)
        Fd, Fc, pairs = np.empty_like(t_eval), np.empty_like(t_eval), np.empty(t_eval.size, dtype=int)
        for i in range(t_eval.size):
            _, _, ks = self._piece(rb1 * phi1[i], 1.0 if w1[i] >= 0 else -1.0)
            Fd[i], Fc[i], pairs[i] = self._forces(rb1 * phi1[i], e[i], de[i], ks, d_mesh)
        phi2, w2 = (e - rb1 * phi1) / rb2, (de - rb1 * w1) / rb2
        T1_col = rb1 * (Fd - Fc) if prescribed else np.full_like(t_eval, T1)
        return pd.DataFrame({"time": t_eval, "phi1": phi1, "phi2": phi2, "omega1": w1, "omega2": w2, "e": e,
                             "F_drive": Fd, "F_coast": Fc, "pairs": pairs, "T1": T1_col,
                             "kinetic_energy": 0.5 * J1 * w1**2 + 0.5 * J2 * w2**2, "W_mesh": W})
