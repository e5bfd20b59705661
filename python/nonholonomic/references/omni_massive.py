"""Omni-wheel vehicle with MASSIVE rollers on a perfectly rough plane: Tatarinov equations between
roller changes (ch. 1) and inelastic impacts at every change of the contact roller (ch. 2).

Source: K.V. Gerasimov, "Dynamics of an omni-wheel vehicle with roller inertia and friction",
thesis, Moscow State University, 2018 (seed 004), ch. 1-2 (K.V. Gerasimov, A.A. Zobova, PMM 82(4),
2018 for the same experiments); DIGEST.md sections 4.1-4.6, 4.10. Equation numbers are the thesis'
(ch. 1 and ch. 2 both restart at (1.1)). The model is independent of `omni_massless`.

Vehicle, parameters, coordinates
--------------------------------
A platform with centre of mass S of the WHOLE system (Mcal below has no platform cross terms, so
sum_i cos alpha_i = sum_i sin alpha_i = 0 is assumed for the physics; other layouts are accepted
and handled consistently by the generic form) and N identical omni-wheels. Wheel i: axle along the
platform ray at angle alpha_i from S xi (default alpha_i = 2 pi (i-1)/N), centre P_i at distance R
from S, outer radius l; n rollers per wheel, roller axes tangent to the rim, in the wheel plane, at
distance r from the wheel centre. Truncated rollers (ch. 2): r = l cos(pi/(n-1)) by default; each
roller is the solid of revolution of an arc of radius l centred at the wheel centre, so its lowest
point is always directly below P_i and the distance from the contact roller's axis to the contact
point is

    rho_i = l cos psi_i - r > 0   for |psi_i| <= pi/n      (1.3; psi_i = tilt of the CONTACT roller)

(the thesis writes l cos chi_k - r: chi_k there is the contact roller's tilt, not the wheel angle).
M: total mass; I_S: moment of inertia of the whole vehicle about S Z with the rollers' axial spin
excluded (it includes the constant B sum_ij sin^2 psi_ij and all roller transverse and
translational parts, which are constant for n >= 3 equally spaced rollers); J: moment of one wheel
about its axle including its rollers' translational/transverse parts; B: axial moment of a roller;
Lambda: the scale in nu3 = Lambda theta' (never defined in the thesis; a positive parameter).

q = (x, y, theta, chi_1..chi_N, phi_11..phi_1n, phi_21, .., phi_Nn): x, y of S; heading theta;
wheel angles chi_i (right-handed about the axle n_i = S P_i/R, i.e. counter-clockwise seen from its
tip); ALL roller angles phi_ij in the fixed order (i, j) (right-handed about the roller axis
u_ij = t_i cos psi_ij + e_z sin psi_ij, t_i = e_z x n_i). Roller j sits at kappa_j = 2 pi (j-1)/n
from the downward direction, measured in the sense of chi: psi_ij = chi_i + kappa_j is its tilt.
The contact roller of wheel i is the one whose sector contains the downward direction:
c_i = j with wrap(psi_ij) in (-pi/n, pi/n]; it changes when the tilt psi_i of the contact roller
reaches +pi/n (next roller j-1) or -pi/n (next roller j+1), i.e. every 2 pi/n of wheel rotation
(the thesis says "at chi_i = 2 pi/n": the period, measured from a junction).

Pseudo-velocities nu = (nu1, nu2, nu3, nu_s), K = N(n-1) + 3: v_S = R nu1 e_xi + R nu2 e_eta,
nu3 = Lambda theta', nu_s = phi_ij' of the FREE rollers in the order (i, j), skipping the contact
roller of each wheel (the thesis numbers them s(i, j) = (n-1)(i-1) + j - 1 after putting the contact
roller first on each wheel: the same order up to which roller is "first").

Constraints (no slip at the N contact points; derived here from v_C = v_S + (R theta' + l chi_i')
t_i - rho_i phi_ic' n_i = 0, which reproduces the printed (1.3), (1.4)):

    (1.3) phi_ic' = (R/rho_i) (nu1 cos alpha_i + nu2 sin alpha_i)
    (1.4) chi_i'  = (R/l) (nu1 sin alpha_i - nu2 cos alpha_i - nu3/Lambda)
    (1.5) q' = V(theta, chi) nu     (V: rows x, y, theta, chi_i, phi_ij; built for the current contact set)

The constraint matrix J q' = 0 (ch. 2 (1.3)) is the Jacobian of the contact-point positions:
rows (x, y) of wheel i = (1, 0 | 0, 1) at (x, y), R t_i at theta, l t_i at chi_i, -rho_i n_i at
phi_ic (world components, t_i, n_i rotated by theta), and J V = 0 (ch. 2 (1.4)).

Kinetic energy (2.2): 2T = M v_S^2 + I_S theta'^2 + J sum chi_i'^2
+ B sum_ij (phi_ij'^2 + 2 theta' sin psi_ij phi_ij') = q'^T Mcal q'
(Mcal = diag(M, M, I_S, J E_N, B E_Nn) plus Mcal[theta, phi_ij] = B sin psi_ij).

Equations of motion between switches (the recommended generic projected form, DIGEST 4.3)
----------------------------------------------------------------------------------------
    (V^T Mcal V) nu' = -V^T [ Mcal V' nu + Mcal' q' - grad_q (1/2 q'^T Mcal q') ]

with V' = dV/dtheta theta' + sum_i dV/dchi_i chi_i' and Mcal' = sum_i dMcal/dchi_i chi_i' (analytic
partial derivatives, checked against finite differences in the tests). Cross-checks, both
implemented (`mstar_printed`, `accel_tatarinov`) and compared with the generic form in the tests:

* (2.3) M* = V^T Mcal V. CORRECTED: m33 = (I_S + sum_i J R^2/l^2)/Lambda^2 (printed 1/Lambda).
  For layouts with sum cos alpha_i != 0 or sum sin alpha_i != 0, m13 gets
  -J R^2/(l^2 Lambda) sum sin alpha_i and m23 +J R^2/(l^2 Lambda) sum cos alpha_i (not printed).
* (2.7) assembled Tatarinov equations. CORRECTED: the {P_alpha, L*} term enters as
  +(R/(2l)) sum_i (nu^T M*_i nu) (sin alpha_i, -cos alpha_i, -1/Lambda, 0..0) (printed with the
  opposite sign, contradicting the printed {P_alpha, L*} themselves); the first entry of p12 is
  R sigma[cos alpha] (printed without R); in (2.6) p_phi_k1 = (B R/rho_k) xi_+(alpha_k)
  + (B/Lambda) nu3 sin chi_k (printed without nu3; the printed p12, p13, p23 do contain that nu3
  term, so the misprint is confined to (2.6)).
* (1.5): the zero block O1 is (3 + 2N) x N(n-1) (printed "3 + 2n").

Properties (ch. 1; checked in tests/test_reference_omni.py): energy T = 1/2 nu^T M* nu constant
between switches; free-roller integrals (2.8) nu_s + Lambda^-1 sin(psi_ij) nu3 = const (= p_phi_s/B,
the absolute spin of a free roller about its own axis); B -> 0 gives m33 nu3 = const (the massless
linear integral); nu0 -> lambda nu0 is the time change t -> lambda t (lambda > 0 once impacts are
included: an inelastic impact is not time-reversible, so the thesis' "lambda != 0" holds only for
the smooth equations).

Impacts at roller changes (ch. 2)
--------------------------------
At a switch time the coordinates do not change; the no-slip constraint of the leaving roller is
removed and that of the entering roller imposed; perfectly inelastic impact (ch. 2 (1.1), (1.6)):

    nu+ = (V^T Mcal V)^-1 V^T Mcal q'-        (V of the NEW contact set)
    F   = -(J Mcal^-1 J^T)^-1 J q'-            (tangential contact impulses, Mcal Dq' = J^T F;
                                               CORRECTED: printed "(J M J^T)^-1", M^-1 is needed)
    T+ - T- = -1/2 (Mcal Dq', Dq') <= 0,  Dq' = q'+ - q'-          (Carnot)

Wheels whose contact rollers reach the junction at the same time (within `switch_tol` rad, and
turning outwards; e.g. all chi_i(0) equal on the symmetric vehicle) switch in ONE projection (doing
them one after the other gives another result). Event detection: scipy solve_ivp events on pi/n - |psi_i|; the
integration restarts after each impact. If after an impact a switched wheel turns back out of its
new sector (grazing), NonholonomicError is raised.

Chapter 2 experiments and the parameters the thesis omits
--------------------------------------------------------
N = 3, n = 5, alpha_i = 2 pi (i-1)/3, R = 0.15, l = 0.05 (ch. 2 calls the wheel radius r),
r = l cos(pi/4) = 0.035355, masses platform 1, wheel 0.15, roller 0.05 (M = 1 + 3 (0.15 + 5 x 0.05)
= 2.2), B = 1.6e-5 as given. The thesis gives neither I_S, J, Lambda nor the roller shape behind B
(note: a solid roller of mass 0.05 and axial moment 1.6e-5 would need a radius of gyration of
17.9 mm, more than the largest roller radius l - r = 14.6 mm allowed by the geometry; B is taken as
given). CHOSEN here (`chapter2_parameters`, variant "default"):

* platform: uniform disk of radius R, I_p = 1 x R^2/2 = 0.01125;
* wheel body: uniform disk of radius l, axial 0.15 l^2/2 = 1.875e-4, about a diameter 0.15 l^2/4;
* rollers: point masses 0.05 at distance r from the wheel centre (transverse moments neglected);
* J = 0.15 l^2/2 + n 0.05 r^2 = 5.0e-4;
* I_S = I_p + N [0.15 (R^2 + l^2/4) + n 0.05 (R^2 + r^2/2) + n B/2] = 0.03912;
* Lambda = 1 (nu3 = theta'), chi_i(0) = 0 (all wheels in phase: the symmetric start, switches are
  simultaneous), free rollers initially at rest relative to their wheels, x = y = theta = 0.

`parameter_study` reruns the thesis' quantities (drop of nu3 in case 1, time of the peak of nu3 and
the time the centre stops in case 3) for other choices; see its docstring.

Results against the thesis (script-level runs with this module: `parameter_study`, rtol 1e-9,
output every 0.05 s; t_peak = time of the maximum of the 1-s running mean of nu3; t_stop = time
after which |v_S| < 1 % of v_S(0) for good; not run by the tests)
------------------------------------------------------------------------------------------
Case 1, drop of nu3 over 1000 s (thesis: "about 5 %"), symmetric motion: default 60.1 %; ring
55.4 %; hub 61.4 %; digest (I_S = 0.02, J = 2e-4) 75.9 %; lambda_balanced (Lambda = 0.967)
60.9 %; Lambda = 10: 13.1 %; B_spindle (4.18e-6): 28.3 %; B/10: 13.1 %. Each within 0.2 % of
`spin_decay_estimate`: nu3(t) = 1/(1 + k t/Lambda), k proportional to B/(I_S + N J R^2/l^2). A
5 % drop needs B/(Lambda (I_S + N J R^2/l^2)) about 1/29 of the default: Lambda ~ 29, or
I_S + N J R^2/l^2 ~ 1.5 instead of 0.053, or B ~ 5.6e-7 (with B_spindle: Lambda ~ 7.5). Case 1
depends on Lambda only through the time scale (scaling law: the Lambda = 10 run at 1000 s equals
the Lambda = 1 run at 100 s to 3e-10). The symmetric motion is unstable: left alone (symmetric=
False), it breaks after ~15 s and the drop becomes 55.3 %.
Case 3, t_peak / t_stop (thesis: ~150 s / ~300 s) with the printed B: Lambda = 1 (default, ring,
hub, digest, lambda_balanced): nu3 does not rise (maximum 1.002-1.005 at ~4 s), t_stop 83-90 s
(the front wheel's roller changes happen at rho_min = 5.1 mm, where its contact roller spins at
R nu1/rho_min ~ 29 rad/s: each change can cost up to 1/2 B (29)^2 = 6.9e-3 J, 12 % of T(0), and
the speed falls to a quarter within 2 s); Lambda = 3: 44 s / 184 s; Lambda = 5: 88 s / 290 s;
Lambda = 10: 365 s / 648 s; Lambda = 20: 1385 s / 1709 s; Lambda = 30: nu3 still rising at
2000 s. With B_spindle: Lambda = 1: 11 s / 48 s; 3: 49 s / 117 s; 5: 131 s / 214 s; 10: 506 s /
608 s. B/10, Lambda = 1: 20 s / 71 s. So the thesis' case-3 picture (nu3 rising to a maximum,
then the centre stopping on a spiral) needs theta'(0) = nu3(0)/Lambda well below
v_S(0)/R = 1 s^-1 (Lambda >~ 3); its 150 s / 300 s lie between Lambda = 5 and 10 with the printed
B, while its case-1 5 % needs Lambda ~ 29 with the printed B: no single plausible (I_S, J, Lambda)
reproduces all three with B = 1.6e-5. I_S and J matter little (case 1 only through
I_S + N J R^2/l^2); Lambda and B dominate.

Columns of `simulate` / `chapter2_experiment` (one row per output time): time, x, y, theta, nu1,
nu2, nu3, v (= R |(nu1, nu2)|, speed of S), T (kinetic energy), chi1..chiN, dchi1..dchiN,
psi1..psiN (tilt of the contact roller), contact1..contactN (1-based index of the contact roller),
phi{i}_{j}, dphi{i}_{j} (all roller angles and rates, i = wheel, j = roller, 1-based).
"""

from __future__ import annotations

import pathlib
import time as _time

import numpy as np
import pandas as pd
from scipy.integrate import solve_ivp

from nonholonomic.errors import NonholonomicError

TWO_PI = 2.0 * np.pi


def _wrap(a):
    """Angle in (-pi, pi]."""
    return np.pi - np.mod(np.pi - np.asarray(a, dtype=float), TWO_PI)


# =============================================================================== parameters
def spindle_axial_moment(mass: float, l: float, r: float, n: int, points: int = 2001) -> float:
    """Axial moment of a uniform solid roller whose profile is the arc of radius l about the wheel
    centre, axis at distance r: radius rho(x) = sqrt(l^2 - x^2) - r for |x| <= l sin(pi/n)
    (B = mass * int rho^4/2 dx / int rho^2 dx). For the ch. 2 geometry and mass 0.05 this gives
    B = 4.18e-6, about 1/4 of the printed B = 1.6e-5 (which equals mass l^2/8 = 1.5625e-5 to the
    printed digits, e.g. a solid cylinder of radius l/2 = 25 mm, larger than the largest radius
    l - r = 14.6 mm the truncated geometry allows; a guess at its origin, not a statement)."""
    x = np.linspace(-l * np.sin(np.pi / n), l * np.sin(np.pi / n), points)
    rho = np.sqrt(l * l - x * x) - r
    if np.any(rho <= 0):
        raise NonholonomicError("roller profile radius must be positive (r < l cos(pi/n))")
    return float(mass * np.trapezoid(0.5 * rho**4, x) / np.trapezoid(rho**2, x))


def chapter2_parameters(variant: str = "default", **overrides) -> dict:
    """Parameters of the ch. 2 experiments (module docstring), for the constructor `OmniMassive(**p)`.

    Variants (the given data N, n, R, l, r, masses and B are always the thesis'):
      "default"        platform disk, wheel disk of radius l, rollers point masses at r, Lambda = 1;
      "ring"           platform mass on its rim (I_p = R^2 instead of R^2/2): larger I_S;
      "hub"            wheel disk of radius r instead of l: smaller J;
      "digest"         I_S = 0.02, J = 2e-4 (the guesses of the DIGEST sanity run), Lambda = 1;
      "lambda_balanced" Lambda^2 = m33/m11 of the massless model (nu1, nu2, nu3 on one scale);
      "lambda10"       Lambda = 10 (theta'(0) = nu3(0)/10 in cases 1 and 3);
      "B/10"           B = 1.6e-6;
      "B_spindle"      B of a uniform solid roller of the ch. 2 shape, `spindle_axial_moment` (4.18e-6).
    Keyword overrides replace any entry (e.g. I_S=..., J=..., Lam=...)."""
    N, n, R, l = 3, 5, 0.15, 0.05
    r = l * np.cos(np.pi / (n - 1))
    m_p, m_w, m_r, B = 1.0, 0.15, 0.05, 1.6e-5
    platform = 0.5 * m_p * R**2
    wheel_radius = l
    lam = 1.0
    if variant == "ring":
        platform = m_p * R**2
    elif variant == "hub":
        wheel_radius = r
    elif variant == "B/10":
        B = 1.6e-6
    elif variant == "B_spindle":
        B = spindle_axial_moment(m_r, l, r, n)
    elif variant not in ("default", "digest", "lambda_balanced", "lambda10"):
        raise NonholonomicError(f"unknown parameter variant {variant!r}")
    M = m_p + N * (m_w + n * m_r)
    J = 0.5 * m_w * wheel_radius**2 + n * m_r * r**2
    I_S = platform + N * (m_w * (R**2 + 0.25 * wheel_radius**2) + n * m_r * (R**2 + 0.5 * r**2) + 0.5 * n * B)
    if variant == "digest":
        I_S, J = 0.02, 2e-4
    if variant == "lambda_balanced":
        m11 = M * R**2 + 0.5 * N * J * R**2 / l**2
        lam = float(np.sqrt((I_S + N * J * R**2 / l**2) / m11))
    if variant == "lambda10":
        lam = 10.0
    p = dict(N=N, n=n, R=R, l=l, r=r, M=M, I_S=I_S, J=J, B=B, Lam=lam)
    p.update(overrides)
    return p


# =============================================================================== model
class OmniMassive:
    """Omni-wheel vehicle with massive rollers and impacts at roller changes; see the module docstring."""

    def __init__(self, N: int = 3, n: int = 5, R: float = 0.15, l: float = 0.05,  # noqa: E741
                 r: float | None = None, M: float = 2.2, I_S: float = 0.03912, J: float = 5e-4,
                 B: float = 1.6e-5, Lam: float = 1.0, alpha=None):
        if int(N) != N or N < 1:
            raise NonholonomicError(f"N must be a positive integer, got {N}")
        if int(n) != n or n < 3:
            raise NonholonomicError(f"n must be an integer >= 3 (equally spaced rollers), got {n}")
        self.N, self.n = int(N), int(n)
        if r is None:
            r = l * np.cos(np.pi / (self.n - 1))
        vals = dict(R=R, l=l, r=r, M=M, I_S=I_S, J=J, B=B, Lam=Lam)
        for name, val in vals.items():
            if not np.isfinite(float(val)):
                raise NonholonomicError(f"{name} must be finite, got {val}")
        for name in ("R", "l", "M", "I_S", "J", "B", "Lam"):
            if float(vals[name]) <= 0.0:
                raise NonholonomicError(f"{name} must be positive, got {vals[name]}")
        self.R, self.l, self.r = float(R), float(l), float(r)
        self.M, self.I_S, self.J, self.B, self.Lam = float(M), float(I_S), float(J), float(B), float(Lam)
        if not (0.0 <= self.r and self.l * np.cos(np.pi / self.n) - self.r > 0.0):
            raise NonholonomicError(f"need 0 <= r < l cos(pi/n) = {self.l * np.cos(np.pi / self.n):.6g} "
                                    f"(rho > 0 over the whole sector), got r = {r}")
        if alpha is None:
            alpha = TWO_PI * np.arange(self.N) / self.N
        self.alpha = np.asarray(alpha, dtype=float).reshape(-1)
        if self.alpha.shape != (self.N,) or not np.all(np.isfinite(self.alpha)):
            raise NonholonomicError(f"alpha must be N = {self.N} finite angles, got {alpha}")
        self.ca, self.sa = np.cos(self.alpha), np.sin(self.alpha)
        self.kappa = TWO_PI * np.arange(self.n) / self.n
        self.half = np.pi / self.n                                  # switching tilt
        self.nq = 3 + self.N + self.N * self.n
        self.K = 3 + self.N * (self.n - 1)
        self.ichi = 3 + np.arange(self.N)
        self.iphi = (3 + self.N + np.arange(self.N * self.n)).reshape(self.N, self.n)
        self._cache = {}

    # ------------------------------------------------------------------ indices and contact set
    def _layout(self, contact):
        key = tuple(int(c) for c in contact)
        lay = self._cache.get(key)
        if lay is None:
            if len(key) != self.N or not all(0 <= c < self.n for c in key):
                raise NonholonomicError(f"contact must be N = {self.N} roller indices in 0..{self.n - 1}, "
                                        f"got {contact}")
            free = [(i, j) for i in range(self.N) for j in range(self.n) if j != key[i]]
            lay = {"contact": np.array(key), "free_rows": np.array([self.iphi[i, j] for i, j in free]),
                   "free_ij": np.array(free), "contact_rows": np.array([self.iphi[i, key[i]] for i in range(self.N)])}
            self._cache[key] = lay
        return lay

    def contact_rollers(self, chi, chi_dot=None):
        """0-based index of each wheel's contact roller: wrap(chi_i + kappa_j) in (-pi/n, pi/n].
        At a junction (within 1e-9 rad) the roller the wheel turns into is chosen (sign of chi_dot)."""
        chi = np.asarray(chi, dtype=float).reshape(-1)
        if chi_dot is not None:
            chi = chi + 1e-9 * np.sign(np.asarray(chi_dot, dtype=float).reshape(-1))
        return np.mod(np.rint(-chi * self.n / TWO_PI).astype(int), self.n)

    def tilt(self, chi, contact):
        """Tilt psi_i = wrap(chi_i + kappa_{c_i}) of the contact rollers."""
        return _wrap(np.asarray(chi, dtype=float) + self.kappa[np.asarray(contact)])

    def rho(self, chi, contact):
        """(1.3) rho_i = l cos psi_i - r."""
        return self.l * np.cos(self.tilt(chi, contact)) - self.r

    # ------------------------------------------------------------------ matrices
    def V(self, q, contact):
        """(1.5) q' = V nu, shape (nq, K)."""
        q = np.asarray(q, dtype=float)
        lay = self._layout(contact)
        R, l, lam = self.R, self.l, self.Lam
        th, chi = q[2], q[self.ichi]
        rho = self.rho(chi, lay["contact"])
        V = np.zeros((self.nq, self.K))
        V[0, 0], V[0, 1] = R * np.cos(th), -R * np.sin(th)
        V[1, 0], V[1, 1] = R * np.sin(th), R * np.cos(th)
        V[2, 2] = 1.0 / lam
        V[self.ichi, 0] = R / l * self.sa
        V[self.ichi, 1] = -R / l * self.ca
        V[self.ichi, 2] = -R / (lam * l)
        V[lay["contact_rows"], 0] = R / rho * self.ca
        V[lay["contact_rows"], 1] = R / rho * self.sa
        V[lay["free_rows"], 3 + np.arange(self.K - 3)] = 1.0
        return V

    def dV(self, q, contact):
        """Partial derivatives of V: array (1 + N, nq, K) = (dV/dtheta, dV/dchi_1, .., dV/dchi_N)."""
        q = np.asarray(q, dtype=float)
        lay = self._layout(contact)
        R, l = self.R, self.l
        th, chi = q[2], q[self.ichi]
        psi = self.tilt(chi, lay["contact"])
        rho = l * np.cos(psi) - self.r
        out = np.zeros((1 + self.N, self.nq, self.K))
        out[0, 0, 0], out[0, 0, 1] = -R * np.sin(th), -R * np.cos(th)
        out[0, 1, 0], out[0, 1, 1] = R * np.cos(th), -R * np.sin(th)
        d = R * l * np.sin(psi) / rho**2                              # d(R/rho)/dchi
        for i in range(self.N):
            row = lay["contact_rows"][i]
            out[1 + i, row, 0] = d[i] * self.ca[i]
            out[1 + i, row, 1] = d[i] * self.sa[i]
        return out

    def mass_matrix(self, q):
        """(2.2) Mcal(chi), shape (nq, nq)."""
        q = np.asarray(q, dtype=float)
        Mc = np.diag(np.concatenate([[self.M, self.M, self.I_S], np.full(self.N, self.J),
                                     np.full(self.N * self.n, self.B)]))
        s = self.B * np.sin(q[self.ichi][:, None] + self.kappa[None, :]).reshape(-1)
        Mc[2, self.iphi.reshape(-1)] = s
        Mc[self.iphi.reshape(-1), 2] = s
        return Mc

    def dmass_matrix(self, q):
        """Partial derivatives dMcal/dchi_i, array (N, nq, nq)."""
        q = np.asarray(q, dtype=float)
        c = self.B * np.cos(q[self.ichi][:, None] + self.kappa[None, :])
        out = np.zeros((self.N, self.nq, self.nq))
        for i in range(self.N):
            out[i, 2, self.iphi[i]] = c[i]
            out[i, self.iphi[i], 2] = c[i]
        return out

    def constraint_jacobian(self, q, contact):
        """J (2N, nq): d(contact-point positions x_i, y_i)/dq (ch. 2 (1.3)); J V = 0."""
        q = np.asarray(q, dtype=float)
        lay = self._layout(contact)
        th, chi = q[2], q[self.ichi]
        rho = self.rho(chi, lay["contact"])
        Jm = np.zeros((2 * self.N, self.nq))
        for i in range(self.N):
            a = th + self.alpha[i]
            t = np.array([-np.sin(a), np.cos(a)])
            nn = np.array([np.cos(a), np.sin(a)])
            rows = slice(2 * i, 2 * i + 2)
            Jm[rows, 0:2] = np.eye(2)
            Jm[rows, 2] = self.R * t
            Jm[rows, self.ichi[i]] = self.l * t
            Jm[rows, lay["contact_rows"][i]] = -rho[i] * nn
        return Jm

    def mstar(self, q, contact):
        """M* = V^T Mcal V (K, K)."""
        V = self.V(q, contact)
        return V.T @ self.mass_matrix(q) @ V

    # ------------------------------------------------------------------ equations of motion
    def accel(self, q, nu, contact):
        """nu' from the generic projected form (module docstring)."""
        q = np.asarray(q, dtype=float)
        nu = np.asarray(nu, dtype=float)
        V = self.V(q, contact)
        Mc = self.mass_matrix(q)
        qd = V @ nu
        dV = self.dV(q, contact)
        dM = self.dmass_matrix(q)
        rates = np.concatenate([[qd[2]], qd[self.ichi]])               # theta', chi_i'
        Vdot_nu = np.tensordot(rates, dV, axes=1) @ nu
        Mdot_qd = np.tensordot(qd[self.ichi], dM, axes=1) @ qd
        grad = np.zeros(self.nq)
        grad[self.ichi] = 0.5 * np.einsum("a,iab,b->i", qd, dM, qd)
        rhs = -V.T @ (Mc @ Vdot_nu + Mdot_qd - grad)
        return np.linalg.solve(V.T @ Mc @ V, rhs)

    def rhs(self, t, y, contact):
        """d/dt of y = (q, nu) for a fixed contact set."""
        q, nu = y[:self.nq], y[self.nq:]
        return np.concatenate([self.V(q, contact) @ nu, self.accel(q, nu, contact)])

    # ---- printed forms (cross-checks)
    def mstar_printed(self, q, contact, printed_m33: bool = False):
        """(2.3) M* from the printed entries (m33 with 1/Lambda^2, CORRECTED; printed_m33=True uses
        the printed 1/Lambda), plus the non-symmetric-layout terms of m13, m23 and the M*12 block."""
        q = np.asarray(q, dtype=float)
        lay = self._layout(contact)
        R, l, lam, B, J = self.R, self.l, self.Lam, self.B, self.J
        chi = q[self.ichi]
        psi = self.tilt(chi, lay["contact"])
        rho = self.l * np.cos(psi) - self.r
        ca, sa = self.ca, self.sa
        m = np.zeros((self.K, self.K))
        m[0, 0] = self.M * R**2 + np.sum(J * R**2 / l**2 * sa**2 + B * R**2 / rho**2 * ca**2)
        m[1, 1] = self.M * R**2 + np.sum(J * R**2 / l**2 * ca**2 + B * R**2 / rho**2 * sa**2)
        m[0, 1] = m[1, 0] = np.sum((-J * R**2 / l**2 + B * R**2 / rho**2) * sa * ca)
        m[2, 2] = (self.I_S + self.N * J * R**2 / l**2) / (lam if printed_m33 else lam**2)
        m[0, 2] = m[2, 0] = np.sum(B * R / rho * np.sin(psi) * ca) / lam - J * R**2 / (l**2 * lam) * np.sum(sa)
        m[1, 2] = m[2, 1] = np.sum(B * R / rho * np.sin(psi) * sa) / lam + J * R**2 / (l**2 * lam) * np.sum(ca)
        fi, fj = lay["free_ij"][:, 0], lay["free_ij"][:, 1]
        m[2, 3:] = m[3:, 2] = B / lam * np.sin(chi[fi] + self.kappa[fj])
        m[3:, 3:] = B * np.eye(self.K - 3)
        return m

    def _dmstar_printed(self, q, contact):
        """M*_i = dM*/dchi_i from (2.3), array (N, K, K)."""
        lay = self._layout(contact)
        R, l, lam, B = self.R, self.l, self.Lam, self.B
        chi = np.asarray(q, dtype=float)[self.ichi]
        psi = self.tilt(chi, lay["contact"])
        rho = l * np.cos(psi) - self.r
        sp = np.sin(psi)
        d_inv_rho2 = 2.0 * l * sp / rho**3                            # d(1/rho^2)/dchi
        d_s_rho = (l - self.r * np.cos(psi)) / rho**2                 # d(sin psi/rho)/dchi
        fi, fj = lay["free_ij"][:, 0], lay["free_ij"][:, 1]
        out = np.zeros((self.N, self.K, self.K))
        for i in range(self.N):
            ca, sa = self.ca[i], self.sa[i]
            out[i, 0, 0] = B * R**2 * ca**2 * d_inv_rho2[i]
            out[i, 1, 1] = B * R**2 * sa**2 * d_inv_rho2[i]
            out[i, 0, 1] = out[i, 1, 0] = B * R**2 * sa * ca * d_inv_rho2[i]
            out[i, 0, 2] = out[i, 2, 0] = B * R * ca * d_s_rho[i] / lam
            out[i, 1, 2] = out[i, 2, 1] = B * R * sa * d_s_rho[i] / lam
            sel = fi == i
            cols = 3 + np.nonzero(sel)[0]
            out[i, 2, cols] = out[i, cols, 2] = B / lam * np.cos(chi[i] + self.kappa[fj[sel]])
        return out

    def accel_tatarinov(self, q, nu, contact, printed_sign: bool = False, printed_p12: bool = False,
                        printed_m33: bool = False):
        """nu' from the assembled Tatarinov equations (2.7), CORRECTED (module docstring).

        printed_sign / printed_p12 / printed_m33 = True restore the misprints (for the tests)."""
        q = np.asarray(q, dtype=float)
        nu = np.asarray(nu, dtype=float)
        lay = self._layout(contact)
        R, l, lam, B = self.R, self.l, self.Lam, self.B
        chi = q[self.ichi]
        psi = self.tilt(chi, lay["contact"])
        rho = l * np.cos(psi) - self.r
        sp = np.sin(psi)
        ca, sa = self.ca, self.sa
        Ms = self.mstar_printed(q, contact, printed_m33)
        Mi = self._dmstar_printed(q, contact)
        chid = R / l * (nu[0] * sa - nu[1] * ca - nu[2] / lam)        # (1.4)
        K = self.K
        f = np.zeros(K)
        f[0] = self.M * R**2 / lam * nu[1] * nu[2]
        f[1] = -self.M * R**2 / lam * nu[0] * nu[2]
        quad = np.einsum("a,iab,b->i", nu, Mi, nu)                    # nu^T M*_i nu
        sign = -1.0 if printed_sign else 1.0
        f[0] += sign * R / (2 * l) * np.sum(quad * sa)
        f[1] -= sign * R / (2 * l) * np.sum(quad * ca)
        f[2] -= sign * R / (2 * l * lam) * np.sum(quad)

        def sigma(g):
            return np.sum(g * sp / rho**3)

        p12 = np.zeros(K)
        p12[:3] = ((1.0 if printed_p12 else R) * sigma(ca), R * sigma(sa), sigma(rho * sp) / lam)
        p13 = np.zeros(K)
        p13[:3] = np.array([R * sigma(ca**2), R * sigma(sa * ca), sigma(rho * ca * sp) / lam]) / lam
        p23 = np.zeros(K)
        p23[:3] = np.array([R * sigma(sa * ca), R * sigma(sa**2), sigma(rho * sa * sp) / lam]) / lam
        a12, a13, a23 = p12 @ nu, p13 @ nu, p23 @ nu
        f[0] -= B * R**2 * (nu[1] * a12 + nu[2] * a13)
        f[1] -= B * R**2 * (-nu[0] * a12 + nu[2] * a23)
        f[2] -= B * R**2 * (-nu[0] * a13 - nu[1] * a23)
        f -= np.tensordot(chid, Mi, axes=1) @ nu
        return np.linalg.solve(Ms, f)

    # ------------------------------------------------------------------ integrals
    def energy(self, q, nu, contact):
        """T = 1/2 q'^T Mcal q' (= 1/2 nu^T M* nu)."""
        qd = self.V(q, contact) @ np.asarray(nu, dtype=float)
        return 0.5 * qd @ self.mass_matrix(q) @ qd

    def roller_integrals(self, q, nu, contact):
        """(2.8) nu_s + Lambda^-1 sin(psi_ij) nu3 for the free rollers (order of nu_s)."""
        lay = self._layout(contact)
        chi = np.asarray(q, dtype=float)[self.ichi]
        fi, fj = lay["free_ij"][:, 0], lay["free_ij"][:, 1]
        nu = np.asarray(nu, dtype=float)
        return nu[3:] + np.sin(chi[fi] + self.kappa[fj]) * nu[2] / self.Lam

    def absolute_roller_spins(self, q, qdot):
        """phi_ij' + theta' sin psi_ij for ALL rollers, (N, n): the spin about the roller's own axis."""
        q, qdot = np.asarray(q, dtype=float), np.asarray(qdot, dtype=float)
        psi = q[self.ichi][:, None] + self.kappa[None, :]
        return qdot[self.iphi] + qdot[2] * np.sin(psi)

    # ------------------------------------------------------------------ impact
    def impact(self, q, qdot_minus, new_contact) -> dict:
        """Inelastic impact imposing the no-slip constraints of `new_contact` (ch. 2 sec. 1).

        dict(nu, qdot, F (tangential impulses, world x/y per wheel), T_before, T_after, carnot
        (= 1/2 (Mcal Dq', Dq')), constraint_residual (max |J q'+|), impulse_residual
        (max |Mcal Dq' - J^T F|))."""
        q = np.asarray(q, dtype=float)
        qm = np.asarray(qdot_minus, dtype=float)
        V = self.V(q, new_contact)
        Mc = self.mass_matrix(q)
        nu = np.linalg.solve(V.T @ Mc @ V, V.T @ Mc @ qm)
        qp = V @ nu
        dq = qp - qm
        Jm = self.constraint_jacobian(q, new_contact)
        F = -np.linalg.solve(Jm @ np.linalg.solve(Mc, Jm.T), Jm @ qm)
        return {"nu": nu, "qdot": qp, "F": F.reshape(self.N, 2),
                "T_before": 0.5 * qm @ Mc @ qm, "T_after": 0.5 * qp @ Mc @ qp,
                "carnot": 0.5 * dq @ Mc @ dq,
                "constraint_residual": float(np.max(np.abs(Jm @ qp))),
                "impulse_residual": float(np.max(np.abs(Mc @ dq - Jm.T @ F)))}

    # ------------------------------------------------------------------ initial state
    def initial_state(self, nu0, chi0=None, free_rates0=None, x0=0.0, y0=0.0, theta0=0.0, phi0=None):
        """(q, nu, contact) from nu0 = (nu1, nu2, nu3), wheel angles chi0 (default 0), the free
        rollers' rates relative to their wheels (default 0, order (i, j)), roller angles phi0
        (default 0, shape (N, n))."""
        nu0 = np.asarray(nu0, dtype=float).reshape(-1)
        if nu0.shape != (3,) or not np.all(np.isfinite(nu0)):
            raise NonholonomicError(f"nu0 must be 3 finite numbers (nu1, nu2, nu3), got {nu0}")
        chi0 = np.zeros(self.N) if chi0 is None else np.asarray(chi0, dtype=float).reshape(-1)
        if chi0.shape != (self.N,) or not np.all(np.isfinite(chi0)):
            raise NonholonomicError(f"chi0 must be N = {self.N} finite angles, got {chi0}")
        chid = self.R / self.l * (nu0[0] * self.sa - nu0[1] * self.ca - nu0[2] / self.Lam)
        contact = self.contact_rollers(chi0, chid)
        q = np.zeros(self.nq)
        q[0], q[1], q[2] = x0, y0, theta0
        q[self.ichi] = chi0
        if phi0 is not None:
            q[self.iphi.reshape(-1)] = np.asarray(phi0, dtype=float).reshape(-1)
        free = np.zeros(self.K - 3) if free_rates0 is None else np.asarray(free_rates0, dtype=float).reshape(-1)
        if free.shape != (self.K - 3,):
            raise NonholonomicError(f"free_rates0 must have N(n-1) = {self.K - 3} entries, got {free.shape}")
        return q, np.concatenate([nu0, free]), contact

    # ------------------------------------------------------------------ simulation
    def _symmetrize(self, q, nu, contact):
        """Projection onto the N-fold symmetric set (see `simulate`)."""
        rel = _wrap(self.alpha - self.alpha[0] - TWO_PI * np.arange(self.N) / self.N)
        if np.max(np.abs(rel)) > 1e-12:
            raise NonholonomicError("symmetric=True needs equally spaced wheels alpha_i = alpha_1 + 2 pi (i-1)/N")
        q, nu = q.copy(), nu.copy()
        chi = q[self.ichi]
        if np.ptp(chi) > 1e-6 or np.ptp(contact) != 0 or np.max(np.abs(nu[:2])) > 1e-6 * max(1.0, abs(nu[2])):
            raise NonholonomicError("symmetric=True needs equal wheel angles (and contact rollers) and nu1 = nu2 = 0")
        q[self.ichi] = np.mean(chi)
        q[self.iphi] = np.mean(q[self.iphi], axis=0)[None, :]
        nu[:2] = 0.0
        free = nu[3:].reshape(self.N, self.n - 1)
        nu[3:] = np.broadcast_to(np.mean(free, axis=0), free.shape).reshape(-1)
        return q, nu, contact

    def columns(self):
        rng = range(1, self.N + 1)
        rol = [(i, j) for i in rng for j in range(1, self.n + 1)]
        return (("time", "x", "y", "theta", "nu1", "nu2", "nu3", "v", "T")
                + tuple(f"chi{i}" for i in rng) + tuple(f"dchi{i}" for i in rng)
                + tuple(f"psi{i}" for i in rng) + tuple(f"contact{i}" for i in rng)
                + tuple(f"phi{i}_{j}" for i, j in rol) + tuple(f"dphi{i}_{j}" for i, j in rol))

    def _samples(self, t, Y, contact):
        """Output rows for samples Y (nq + K, k) of one segment with a fixed contact set."""
        lay = self._layout(contact)
        R, l, lam = self.R, self.l, self.Lam
        q, nu = Y[:self.nq], Y[self.nq:]
        th, chi = q[2], q[self.ichi]
        psi_c = _wrap(chi + self.kappa[lay["contact"]][:, None])
        rho = l * np.cos(psi_c) - self.r
        xd = R * (nu[0] * np.cos(th) - nu[1] * np.sin(th))
        yd = R * (nu[0] * np.sin(th) + nu[1] * np.cos(th))
        thd = nu[2] / lam
        chid = R / l * (nu[0] * self.sa[:, None] - nu[1] * self.ca[:, None] - thd)
        phid = np.zeros((self.N * self.n, Y.shape[1]))
        phid[lay["free_rows"] - 3 - self.N] = nu[3:]
        phid[lay["contact_rows"] - 3 - self.N] = R / rho * (nu[0] * self.ca[:, None] + nu[1] * self.sa[:, None])
        psi_all = (chi[:, None, :] + self.kappa[None, :, None]).reshape(self.N * self.n, -1)
        T = 0.5 * (self.M * (xd**2 + yd**2) + self.I_S * thd**2 + self.J * np.sum(chid**2, axis=0)
                   + self.B * np.sum(phid**2, axis=0) + 2 * self.B * thd * np.sum(np.sin(psi_all) * phid, axis=0))
        data = {"time": t, "x": q[0], "y": q[1], "theta": th, "nu1": nu[0], "nu2": nu[1], "nu3": nu[2],
                "v": R * np.hypot(nu[0], nu[1]), "T": T}
        for i in range(self.N):
            data[f"chi{i + 1}"] = chi[i]
        for i in range(self.N):
            data[f"dchi{i + 1}"] = chid[i]
        for i in range(self.N):
            data[f"psi{i + 1}"] = psi_c[i]
        for i in range(self.N):
            data[f"contact{i + 1}"] = np.full(len(t), lay["contact"][i] + 1)
        for k in range(self.N * self.n):
            data[f"phi{k // self.n + 1}_{k % self.n + 1}"] = q[3 + self.N + k]
        for k in range(self.N * self.n):
            data[f"dphi{k // self.n + 1}_{k % self.n + 1}"] = phid[k]
        return data

    def simulate(self, nu0, t_eval, chi0=None, free_rates0=None, state=None, rtol: float = 1e-10,
                 atol: float = 1e-12, method: str = "DOP853", switch_tol: float = 1e-8,
                 max_switches: int = 10**6, symmetric: bool = False) -> pd.DataFrame:
        """Event-driven integration with impacts at every roller change.

        nu0 = (nu1, nu2, nu3) and chi0, free_rates0 as in `initial_state` (or state = (q, nu,
        contact) to continue a run). Returns the DataFrame of `columns()` at the times t_eval
        (nu, T sampled on the smooth segments: at a switch time the row holds the pre-impact values);
        df.attrs["switches"] is a list of dicts (time, wheels (1-based), contact_before/after,
        T_before, T_after, carnot, constraint_residual, nu_before, nu_after (each in the free-roller
        order of its own contact set), max_integral_drift (largest change of a (2.8) integral from
        the start of the segment that ended to the switch), energy_drift (relative change of T over
        the same interval)); df.attrs["final_state"] = (q, nu, contact).

        symmetric=True: the N-fold symmetric motion (equally spaced wheels, equal chi_i, nu1 = nu2 = 0,
        the same free-roller rates on every wheel, e.g. case 1 from chi_i(0) = 0). That set is
        invariant, but UNSTABLE: without help, rounding errors (1e-17) grow by about e per second and
        the wheels' switch times separate beyond `switch_tol`, after which the switches are done
        one wheel at a time, which is a different impact law (see the module docstring). With
        symmetric=True the state is projected back onto the symmetric set (wheel averages;
        nu1 = nu2 = 0) at the start and after every impact."""
        t_eval = np.asarray(t_eval, dtype=float)
        if t_eval.ndim != 1 or t_eval.size < 1 or np.any(np.diff(t_eval) <= 0):
            raise NonholonomicError("t_eval must be a non-empty increasing 1-D array")
        if state is None:
            q, nu, contact = self.initial_state(nu0, chi0, free_rates0)
        else:
            q, nu, contact = (np.asarray(state[0], dtype=float), np.asarray(state[1], dtype=float),
                              np.asarray(state[2], dtype=int))
            if q.shape != (self.nq,) or nu.shape != (self.K,) or contact.shape != (self.N,):
                raise NonholonomicError(f"state must be (q ({self.nq},), nu ({self.K},), contact ({self.N},))")
        if symmetric:
            q, nu, contact = self._symmetrize(q, nu, contact)
        psi0 = self.tilt(q[self.ichi], contact)
        if np.any(np.abs(psi0) > self.half + switch_tol):
            raise NonholonomicError("the given contact rollers do not contain the downward direction")
        t, t_end = float(t_eval[0]), float(t_eval[-1])
        rows = []
        switches = []
        nq = self.nq
        half = self.half
        while True:
            lay = self._layout(contact)
            chi = q[self.ichi]
            offset = self.kappa[lay["contact"]] - TWO_PI * np.rint((chi + self.kappa[lay["contact"]]) / TWO_PI)
            events = []
            for i in range(self.N):
                def ev(tt, yy, i=i, off=offset[i]):
                    return half - abs(yy[3 + i] + off)
                ev.terminal, ev.direction = True, -1
                events.append(ev)
            mask = (t_eval > t) | ((t_eval == t) & (len(rows) == 0))
            te = t_eval[mask]
            y0 = np.concatenate([q, nu])
            ct = tuple(contact)
            if t_end > t:
                sol = solve_ivp(lambda tt, yy: self.rhs(tt, yy, ct), (t, t_end), y0, method=method,
                                t_eval=te, events=events, rtol=rtol, atol=atol)
                if not sol.success:
                    raise NonholonomicError(f"integration failed at t = {t}: {sol.message}")
                ts = np.asarray(sol.t, dtype=float)
                if ts.size:
                    rows.append(self._samples(ts, np.asarray(sol.y, dtype=float).reshape(len(y0), -1), contact))
            else:  # only the initial row
                rows.append(self._samples(np.array([t]), y0[:, None], contact))
                break
            if sol.status != 1:  # reached t_end (the last t_eval point)
                q, nu = sol.y[:nq, -1], sol.y[nq:, -1]
                break
            k = min((e for e in range(self.N) if sol.t_events[e].size), key=lambda e: sol.t_events[e][0])
            t_star = float(sol.t_events[k][0])
            y_star = sol.y_events[k][0]
            q, nu_m = y_star[:nq], y_star[nq:]
            # segment checks: energy and (2.8) from start to the switch
            T_start = self.energy(y0[:nq], y0[nq:], contact)
            T_minus = self.energy(q, nu_m, contact)
            drift = float(np.max(np.abs(self.roller_integrals(q, nu_m, contact)
                                        - self.roller_integrals(y0[:nq], y0[nq:], contact))))
            psi = q[self.ichi] + offset
            qd_m = self.V(q, contact) @ nu_m
            # a wheel changes roller if its contact roller is at the junction AND turns outwards
            chid_m = qd_m[self.ichi]
            switching = np.nonzero((np.abs(psi) >= half - switch_tol) & (np.sign(chid_m) == np.sign(psi)))[0]
            if switching.size == 0:
                raise NonholonomicError(f"roller-change event at t = {t_star:.6g} without an outward-turning wheel")
            new_contact = contact.copy()
            for i in switching:
                new_contact[i] = (contact[i] - 1) % self.n if psi[i] > 0 else (contact[i] + 1) % self.n
            imp = self.impact(q, qd_m, new_contact)
            chid_new = imp["qdot"][self.ichi]
            for i in switching:
                if np.sign(chid_new[i]) != np.sign(psi[i]):
                    raise NonholonomicError(f"wheel {i + 1} turns back at a roller junction at t = {t_star:.6g} "
                                            f"(grazing switch: not handled)")
            switches.append({"time": t_star, "wheels": [int(i) + 1 for i in switching],
                             "contact_before": [int(c) + 1 for c in contact],
                             "contact_after": [int(c) + 1 for c in new_contact],
                             "T_before": float(imp["T_before"]), "T_after": float(imp["T_after"]),
                             "carnot": float(imp["carnot"]), "constraint_residual": imp["constraint_residual"],
                             "nu_before": nu_m.copy(), "nu_after": imp["nu"].copy(),
                             "max_integral_drift": drift,
                             "energy_drift": float(abs(T_minus - T_start) / max(T_start, 1e-300))})
            if len(switches) > max_switches:
                raise NonholonomicError(f"more than max_switches = {max_switches} roller changes")
            contact, nu, t = new_contact, imp["nu"], t_star
            if symmetric:
                q, nu, contact = self._symmetrize(q, nu, contact)
        if not rows:
            raise NonholonomicError("no output rows")
        df = pd.DataFrame({k: np.concatenate([np.atleast_1d(r[k]) for r in rows]) for k in rows[0]})
        df.attrs["switches"] = switches
        df.attrs["final_state"] = (q, nu, contact)
        return df


# =============================================================================== chapter 2
CASES = {1: (0.0, 0.0, 1.0), 2: (1.0, 0.0, 0.0), 3: (1.0, 0.0, 1.0)}
OUTPUT_DT = 0.01  # sampling of chapter2_experiment's trajectory [s]


def chapter2_experiment(case: int, t_end: float, params: dict | None = None, dt: float = OUTPUT_DT,
                        chi0=None, rtol: float = 1e-10, atol: float = 1e-12, symmetric: bool | None = None) -> dict:
    """Rerun a ch. 2 experiment: case 1 nu0 = (0, 0, 1) spin in place, 2 (1, 0, 0) straight along
    S xi, 3 (1, 0, 1) translation and spin; free rollers at rest relative to their wheels,
    chi_i(0) = 0 unless chi0 is given.

    symmetric: hold the 3-fold symmetric motion (`OmniMassive.simulate`); default True for case 1
    with chi0 = None (the thesis: "the centre of mass is at rest"), False otherwise.
    params: constructor keywords (default `chapter2_parameters()`). Returns dict(trajectory
    (DataFrame, columns of `OmniMassive.columns()`, sampled every dt), switches (list of dicts with
    time, wheels, T_before, T_after, carnot, ...), params, case, runtime_s)."""
    if case not in CASES:
        raise NonholonomicError(f"case must be 1, 2 or 3, got {case}")
    if not t_end > 0:
        raise NonholonomicError(f"t_end must be positive, got {t_end}")
    p = chapter2_parameters() if params is None else dict(params)
    model = OmniMassive(**p)
    k = int(np.floor(t_end / dt + 1e-9))
    t_eval = np.concatenate([dt * np.arange(k + 1), [t_end]]) if k * dt < t_end - 1e-12 else dt * np.arange(k + 1)
    start = _time.perf_counter()
    if symmetric is None:
        symmetric = case == 1 and chi0 is None
    df = model.simulate(CASES[case], t_eval, chi0=chi0, rtol=rtol, atol=atol, symmetric=symmetric)
    return {"trajectory": df, "switches": df.attrs["switches"], "params": p, "case": case,
            "symmetric": symmetric, "runtime_s": _time.perf_counter() - start}


def spin_decay_estimate(params: dict | None = None, t: float = 1000.0) -> dict:
    """Estimate of the case-1 decay of the spin (the mechanism behind the thesis' "5 % in 1000 s").

    A free roller keeps its absolute spin about its own axis, phi' + theta' sin psi (2.8), while its
    tilt goes from -pi/n (leaving contact, at rest relative to the wheel when nu1 = nu2 = 0) to
    +pi/n (re-entering), so it re-enters with the relative spin 2 sin(pi/n) theta', which the impact
    removes: about 1/2 B (2 sin(pi/n) theta')^2 per switch (an upper bound: the platform takes part
    in the impact). With N n |chi'|/(2 pi) switches per second, |chi'| = (R/l) theta', and
    T = 1/2 (I_S + N J R^2/l^2) theta'^2:

        theta'' = -k theta'^2,   k = N n R B sin^2(pi/n) / (pi l (I_S + N J R^2/l^2)),
        nu3(t)/nu3(0) = 1/(1 + k t/Lambda)      (theta'(0) = nu3(0)/Lambda = 1/Lambda).

    So the drop over a fixed time grows with B and falls with Lambda and with I_S + N J R^2/l^2
    (I_S and J act only through that sum, J with the weight N R^2/l^2 = 27 in ch. 2). Returns
    dict(k, drop (= 1 - nu3(t)/nu3(0) for nu3(0) = 1), Lambda_for_5_percent (the Lambda giving a
    5 % drop at t))."""
    p = chapter2_parameters() if params is None else params
    m33 = p["I_S"] + p["N"] * p["J"] * p["R"]**2 / p["l"]**2
    k = p["N"] * p["n"] * p["R"] * p["B"] * np.sin(np.pi / p["n"])**2 / (np.pi * p["l"] * m33)
    x = k * t / p["Lam"]
    return {"k": k, "drop": x / (1 + x), "Lambda_for_5_percent": k * t * 0.95 / 0.05}


def thesis_quantities(result: dict, stop_fraction: float = 0.01, smooth: float = 1.0) -> dict:
    """The numbers the thesis reports, measured on a `chapter2_experiment` result.

    nu3_drop: 1 - nu3(t_end)/nu3(0) (case 1: "about 5 % over the first 1000 s"); t_peak_nu3: time
    of the maximum of nu3 after a running mean over `smooth` seconds (case 3: "t1* ~ 150 s");
    t_stop: first time after which v = |v_S| stays below stop_fraction v(0) (case 3: "vanishingly
    small by t2* ~ 300 s"); energy_ratio T(t_end)/T(0); n_switches."""
    df = result["trajectory"]
    t, nu3, v, T = (df[c].to_numpy() for c in ("time", "nu3", "v", "T"))
    out = {"t_end": float(t[-1]), "n_switches": len(result["switches"]), "energy_ratio": float(T[-1] / T[0])}
    out["nu3_drop"] = float(1.0 - nu3[-1] / nu3[0]) if nu3[0] != 0 else float("nan")
    dt = float(np.median(np.diff(t))) if t.size > 1 else 1.0
    w = max(1, int(round(smooth / dt)))
    sm = np.convolve(nu3, np.ones(w) / w, mode="same") if t.size > w else nu3
    inner = slice(w // 2, max(w // 2 + 1, t.size - w // 2))
    out["t_peak_nu3"] = float(t[inner][np.argmax(sm[inner])])
    out["nu3_peak"] = float(np.max(sm[inner]))
    if v[0] > 0:
        above = np.nonzero(v >= stop_fraction * v[0])[0]
        out["t_stop"] = float(t[above[-1] + 1]) if above.size and above[-1] + 1 < t.size else float("nan")
    else:
        out["t_stop"] = float("nan")
    return out


def parameter_study(variants=("default", "ring", "hub", "digest", "lambda_balanced", "lambda10", "B_spindle",
                              "B/10"),
                    t_case1: float = 1000.0, t_case3: float = 600.0, dt: float = 0.05,
                    rtol: float = 1e-9, atol: float = 1e-11, stop_fraction: float = 0.01,
                    verbose: bool = False) -> pd.DataFrame:
    """How the thesis' reported numbers depend on the omitted I_S, J, Lambda (and on B).

    variants: names of `chapter2_parameters` variants, or (label, constructor-keywords dict) pairs,
    e.g. ("Lambda=5", chapter2_parameters(Lam=5.0)). For each: case 1 (the symmetric motion) run
    to t_case1 (nu3 drop; thesis: ~5 % in 1000 s) and case 3 run to t_case3 (peak time of nu3,
    thesis ~150 s; stop time of the centre, thesis ~300 s). Slow (about a minute per variant and
    case with the defaults: every roller change is an event); a script-level function, not called
    by the tests."""
    rows = []
    for item in variants:
        name, p = (item, chapter2_parameters(item)) if isinstance(item, str) else (item[0], dict(item[1]))
        m33 = (p["I_S"] + p["N"] * p["J"] * p["R"]**2 / p["l"]**2) / p["Lam"]**2
        row = {"variant": name, "I_S": p["I_S"], "J": p["J"], "Lam": p["Lam"], "B": p["B"], "m33": m33}
        if t_case1 > 0:
            r1 = chapter2_experiment(1, t_case1, p, dt=dt, rtol=rtol, atol=atol)
            q1 = thesis_quantities(r1, stop_fraction)
            row.update({"case1_nu3_drop": q1["nu3_drop"], "case1_switches": q1["n_switches"],
                        "case1_runtime_s": r1["runtime_s"]})
        if t_case3 > 0:
            r3 = chapter2_experiment(3, t_case3, p, dt=dt, rtol=rtol, atol=atol)
            q3 = thesis_quantities(r3, stop_fraction)
            row.update({"case3_t_peak": q3["t_peak_nu3"], "case3_nu3_peak": q3["nu3_peak"],
                        "case3_t_stop": q3["t_stop"], "case3_switches": q3["n_switches"],
                        "case3_runtime_s": r3["runtime_s"]})
        if verbose:
            print(row, flush=True)
        rows.append(row)
    return pd.DataFrame(rows)


def plot_chapter2(result: dict, folder, prefix: str | None = None) -> list:
    """Figures in the manner of Figs. 2.4-2.6 into PNG files in `folder`; returns their paths.

    Panels (one file each, plus an overview): kinetic energy T(t); nu3(t) (platform angular
    velocity, scaled by Lambda); speed of S v(t); roller rates on wheel 1 dphi1_j(t); wheel angles
    chi_i(t); platform angle theta(t); trajectory of S; roller angles on wheel 1."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    df = result["trajectory"]
    case = result.get("case", 0)
    prefix = prefix or f"omni_massive_case{case}"
    t = df["time"].to_numpy()
    n = sum(1 for c in df.columns if c.startswith("dphi1_"))
    N = sum(1 for c in df.columns if c.startswith("chi"))
    panels = {
        "energy": ("kinetic energy T", [("T", "T")]),
        "nu3": ("platform angular velocity nu3 = Lambda theta'", [("nu3", "nu3")]),
        "speed": ("speed of the centre v = R |(nu1, nu2)|", [("v", "v")]),
        "roller_rates_wheel1": ("roller rates on wheel 1", [(f"dphi1_{j}", f"roller {j}") for j in range(1, n + 1)]),
        "wheel_angles": ("wheel angles chi_i", [(f"chi{i}", f"wheel {i}") for i in range(1, N + 1)]),
        "platform_angle": ("platform angle theta", [("theta", "theta")]),
        "roller_angles_wheel1": ("roller angles on wheel 1", [(f"phi1_{j}", f"roller {j}") for j in range(1, n + 1)]),
    }
    # y-axis labels with units (SI data; Lambda is dimensionless, so nu3 = Lambda theta' is in rad/s)
    ylabels = {"energy": "T [J]", "nu3": "nu3 [rad/s]", "speed": "v [m/s]", "roller_rates_wheel1": "dphi/dt [rad/s]",
               "wheel_angles": "chi [rad]", "platform_angle": "theta [rad]", "roller_angles_wheel1": "phi [rad]"}
    paths = []
    fig_all, axes = plt.subplots(4, 2, figsize=(12, 13))
    for ax_all, (key, (title, series)) in zip(axes.flat, panels.items()):
        fig, ax = plt.subplots(figsize=(7, 4))
        for a in (ax, ax_all):
            for col, label in series:
                a.plot(t, df[col].to_numpy(), lw=0.8, label=label)
            a.set_title(title, fontsize=9)
            a.set_xlabel("t [s]")
            a.set_ylabel(ylabels[key])
            if len(series) > 1:
                a.legend(fontsize=7)
        fig.tight_layout()
        path = folder / f"{prefix}_{key}.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        paths.append(path)
    fig, ax = plt.subplots(figsize=(5, 5))
    for a in (ax, axes.flat[-1]):
        a.plot(df["x"].to_numpy(), df["y"].to_numpy(), lw=0.8)
        a.set_aspect("equal", adjustable="datalim")
        a.set_title("trajectory of S", fontsize=9)
        a.set_xlabel("x [m]")
        a.set_ylabel("y [m]")
    fig.tight_layout()
    path = folder / f"{prefix}_trajectory.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    paths.append(path)
    fig_all.tight_layout()
    path = folder / f"{prefix}_overview.png"
    fig_all.savefig(path, dpi=90)
    plt.close(fig_all)
    paths.append(path)
    return paths


if __name__ == "__main__":  # pragma: no cover - script-level reproduction of the thesis' numbers
    import sys

    out = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path("omni_massive_figures")
    for c, te, extra in ((1, 30.0, {}), (2, 30.0, {}), (3, 60.0, {}), (3, 600.0, {"Lam": 5.0})):
        res = chapter2_experiment(c, te, chapter2_parameters(**extra), dt=0.01 if te <= 60 else 0.05)
        print(f"case {c} {extra}: {thesis_quantities(res)}  ({res['runtime_s']:.1f} s)", flush=True)
        plot_chapter2(res, out, prefix=f"omni_massive_case{c}" + "".join(f"_{k}{v:g}" for k, v in extra.items()))
    lam_scan = [(f"Lambda={lam:g}", chapter2_parameters(Lam=lam)) for lam in (3.0, 5.0, 20.0)]
    print(parameter_study(tuple(parameter_study.__defaults__[0]) + tuple(lam_scan), verbose=True).to_string())
