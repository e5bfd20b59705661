"""Skateboard with a rigid rider: lean-to-steer trucks, bushings, gravity (Hubbard's simplest model).

Reference model of the skateboard of M. Hubbard ("Lateral dynamics and stability of the skateboard",
J. Appl. Mech. 46, 1979; "Human control of the skateboard", J. Biomech. 13, 1980), as developed by
A. S. Kuleshov and A. V. Kremnev (Gibbs-Appell equations, Engineering of Sport 7, 2008; DCDS-S 3,
2010) and modelled in Modelica by I. I. Kosenko and A. S. Kuleshov (6th Modelica Conference, 2008).
Everything below is derived here from the mechanics, never from a Modelica model, and checked on its
own in tests/test_reference_skateboard.py: a second, independent formulation (Newton-Euler of the
rigid body with the constraint reactions as unknowns of one linear solve) against the closed form at
random states and along trajectories, the energy integral, the first integral of the case a = 0, and
the closed-form linearisation against finite-difference Jacobians of both formulations and against
the growth or decay of small nonlinear oscillations. The literature was available to this derivation
only through its abstracts (no equation of those papers was transcribed); the closed-form linear
equation below has the structure those abstracts describe (a critical speed above which the
lean-to-steer coupling restores the board, Hubbard 1979; the fore-aft position of the rider
deciding between decay and growth, Kremnev & Kuleshov, Varszegi et al. 2016), and the corrections
listed at the end are to the brief this module was written from.

Bodies and parameters (SI)
--------------------------
Board + rider: ONE rigid body of mass m. The wheels and the trucks are massless. The axle centres F
(front) and B (rear) stay at a constant height and define the roll axis; O is their midpoint,
F = O + l e, B = O - l e (wheelbase 2 l). The centre of mass G is at (a, 0, h) in the board frame
(a ahead of O, h > 0 above the roll axis); central principal moments A, B, C about the board's x, y,
z axes (the rider stands perpendicular to the board). Trucks: pivot-axis angle lam (lambda) to the
board plane, 0 < lam < pi/2. Bushings: restoring torque -k theta about the roll axis (k = total
stiffness of both trucks; bushing = "roll", the law of the papers) and damping -c dtheta. Gravity g
downward. With bushing = "pivot" each truck's spring acts about its own pivot axis, as in a real truck
(and in the Modelica model): its angle chi, tan(chi) = tan(theta)/cos(lam), stores k cos(lam)^2 chi^2/4
per truck; the torque about the roll axis is then -k theta + O(theta^3) (`bushing_torque`), so the
linearisation below holds for both.

Defaults: m = 73 kg, l = 0.2 m, lam = pi/4, k = 250 N m/rad, c = 0, h = 1.0 m, a = 0.05 m,
A = B = 12 kg m^2, C = 1.5 kg m^2, g = 9.81 m/s^2.

Conventions
-----------
World frame: z up (unit vector k_), the roll axis at height 0. Heading psi = angle of the board's
forward direction e from world x, counter-clockwise seen from above:

    e = (cos psi, sin psi, 0),     n = k_ x e = (-sin psi, cos psi, 0)   (to the LEFT of the rider).

Tilt theta > 0 leans the board to the LEFT: the board's normal z_b tilts towards +n. The board frame
(x_b, y_b, z_b) = (e, y to the left when level, normal) is

    x_b = e,   y_b = cos(theta) n - sin(theta) k_,   z_b = sin(theta) n + cos(theta) k_,

i.e. the board is turned by theta about -e. Its angular velocity is Omega = dpsi k_ - dtheta e, with
board-frame components (p, q, r) = (-dtheta, -dpsi sin(theta), dpsi cos(theta)).

Steering: the front axle is turned by delta, the rear axle by -delta, about the vertical, relative to
the board's lateral direction (axles level), with

    tan(delta) = tan(lam) sin(theta),     delta > 0 = front axle turned to the LEFT.

Leaning left (theta > 0) steers left (delta > 0): the board turns INTO the lean. Rolling without
lateral slip: v_F . a_F = 0 and v_B . a_B = 0 with the axle directions a_F = n rotated by +delta,
a_B = n rotated by -delta about k_. Writing v_O = v e + w n, v_F = v_O + l dpsi n and
v_B = v_O - l dpsi n, the two conditions give w = 0 and

    v_O = v e,     dpsi/dt = v tan(delta)/l = v kappa sin(theta),     kappa = tan(lam)/l.

The path curvature dpsi/ds = kappa sin(theta) has the sign of theta: for v > 0 the sign of dpsi/dt
is the sign of the tilt (psi grows when leaning left), and the centre of the turn is on the side of
the lean. State y = (x, y, psi, theta, v, dtheta), (x, y) = position of O; two velocities v and
dtheta (the configuration has four coordinates and three nonholonomic constraints x' = v cos psi,
y' = v sin psi, psi' = v kappa sin theta).

Kinematics of the centre of mass (s = sin theta, c = cos theta, dpsi = kappa s v):

    G - O = a e + h z_b,
    v_G = (v - h s dpsi) e + (a dpsi + h c dtheta) n - h s dtheta k_.

Equations of motion: Lagrange-d'Alembert in the quasi-velocities u = (v, dtheta)
--------------------------------------------------------------------------------
The reactions (vertical at F and B, along the axles at F and B) are ideal: they do no work on any
motion that respects the constraints. Projecting the momentum balances on the two admissible
motions (Kane's / Gibbs-Appell form of Lagrange-d'Alembert),

    m a_G . dv_G/du_r + dH_G/dt . dOmega/du_r = Q_r,    r = v, dtheta,

with the partial velocities dv_G/dv = (1 - h kappa s^2) e + a kappa s n, dOmega/dv = kappa s k_,
dv_G/ddtheta = h c n - h s k_, dOmega/ddtheta = -e, and the generalised forces Q_v = 0 (gravity is
vertical, the bushing torque is about e), Q_theta = m g h s - k theta - c dtheta. The rotational
part of the v-equation is d/dt[(B s^2 + C c^2) dpsi] because k_ is fixed; the rest is Euler's
equations in the board frame. After substituting dpsi = kappa s v,
ddpsi = kappa (c v dtheta + s dv) the equations are

    M11 dv + M12 ddtheta = f1,     M12 dv + M22 ddtheta = f2,

    M11 = m (1 - h kappa s^2)^2 + kappa^2 s^2 (m a^2 + B s^2 + C c^2)
    M12 = m a h kappa s c
    M22 = A + m h^2
    f1  = kappa s c v dtheta [3 m h (1 - h kappa s^2) - kappa (m a^2 + (3B - 2C) s^2 + C c^2)]
          + m a h kappa s^2 dtheta^2
    f2  = m g h s - k theta - c dtheta - m a h kappa c^2 v dtheta
          - kappa s c v^2 [m h (1 - h kappa s^2) + (C - B) kappa s^2]

and x' = v cos psi, y' = v sin psi, psi' = kappa s v, theta' = dtheta. The mass matrix is the
Hessian of the constrained kinetic energy

    T = 1/2 M11 v^2 + M12 v dtheta + 1/2 M22 dtheta^2

(T = 1/2 m |v_G|^2 + 1/2 (A p^2 + B q^2 + C r^2) with the kinematics above), so it is symmetric and
positive definite (M11 > 0 for every theta: its first term vanishes only where its second is
positive). The terms m a kappa^2 s^2 v^2 (1 - h kappa s^2) of the v-equation, one from the
centripetal acceleration of G and one from the Coriolis term, cancel exactly.

Energy: E = T + m g h cos(theta) + k theta^2/2, dE/dt = -c dtheta^2 (derived by substitution: the
velocity terms satisfy v f1 + dtheta f2 + 1/2 dtheta (dM11 v^2 + 2 dM12 v dtheta) = 0 with
dMij = dMij/dtheta). For c = 0 the energy is conserved.

Second, independent formulation (`newton_euler_system`, `rhs_newton_euler`)
----------------------------------------------------------------------------
Newton-Euler of the rigid body in world coordinates, with the four reaction magnitudes as unknowns
next to the accelerations: vertical forces N_F k_ at F and N_B k_ at B (constant height of the roll
axis: no heave, no pitch), lateral forces f_F a_F at F and f_B a_B at B (no slip along the axles);
the bushing torque (k theta + c dtheta) e (the restoring torque opposing theta, which is measured
about -e) and gravity. Unknowns (a_G, alpha, N_F/m, N_B/m, f_F/m, f_B/m); equations: m a_G = sum
of forces, I alpha + Omega x I Omega = sum of moments about G, and the second time derivatives of the
four constraints, a_P . k_ = 0 and a_P . a_P_axle + v_P . d(a_P_axle)/dt = 0 at P = F, B
(d a_F/dt = -(dpsi + ddelta) (cos(psi + delta), sin(psi + delta), 0),
ddelta = tan(lam) c dtheta / (1 + tan^2(lam) s^2)). One 10 x 10 linear solve; then
ddtheta = -alpha . e and dv = a_O . e with a_O = a_G + alpha x (O - G) + Omega x (Omega x (O - G))
(v = v_O . e and v_O . de/dt = v e . dpsi n = 0). The rows are scaled by 1/m (forces, moments) so
that the matrix is well conditioned; its condition number bounds the disagreement with the closed
form (tests).

Linearisation about the straight motion theta = 0 at constant speed V
---------------------------------------------------------------------
f1 is of second order in (theta, dtheta), so dv = O(theta^2): v stays V to first order, and

    (A + m h^2) ddtheta + (c + m a h V tan(lam)/l) dtheta + (k - m g h + m h V^2 tan(lam)/l) theta = 0.

Characteristic polynomial J s^2 + D s + K with J = A + m h^2, D = c + m a h kappa V,
K = k - m g h + m h kappa V^2; eigenvalues s = (-D +- sqrt(D^2 - 4 J K)) / (2 J). (The full 6-state
linearisation adds four zero eigenvalues: x, y, psi and v are neutral.) B and C do not enter.

* Critical speed (K = 0): V_c = sqrt(l (m g h - k) / (m h tan(lam))) if m g h > k, otherwise 0
  (the bushings alone hold the rider). Below V_c, K < 0, and the product of the roots K/J < 0
  gives one positive real eigenvalue whatever a and c are: the board falls.
* Above V_c (K > 0) the motion is asymptotically stable iff D > 0, i.e. (c = 0) iff a V > 0: the
  centre of mass ahead of O when riding forwards (or behind it when riding backwards). For a V < 0
  the tilt oscillates with a growing amplitude. The damping term m a h kappa V dtheta is the
  inertial reaction -m a ddpsi n of the centre of mass at height h to the yaw acceleration that a
  changing tilt steers.
* a = 0 (and c = 0): the eigenvalues are +-i sqrt(K/J), and the nonlinear motion is NEUTRAL, not
  only linearly: M12 = 0 and f1 = v dtheta F(theta) make d(ln v)/dtheta a function of theta alone,
  so v / Phi(theta) is a first integral with (u = sin^2 theta, D(u) = M11 at a = 0)

      ln Phi(theta) = -(3/4) ln(D(u)/m) + (kappa^2 C / 4) int_0^u du' / D(u'),

  and theta then obeys a conservative one-degree-of-freedom equation: periodic oscillations of
  constant amplitude about the straight motion (`speed_ratio_a0`). The equations are also
  reversible for a = 0 ((t, v, dtheta) -> (-t, -v, -dtheta)), which rules out decay or growth.
* The stability map over (V, h) or (V, a): `stability_map` (largest real part of the eigenvalues);
  the boundary is V = V_c(h) (`critical_speed(h)`) and a V = -c/(m h kappa) (a V = 0 for c = 0).

Range of validity. The model has no contact of the deck with the ground and no stop on the trucks:
a run continues mathematically past |theta| = pi/2 (the rider swinging below the roll axis), which is
not physical; a real deck touches the ground near |theta| ~ 0.2-0.3 rad. `simulate` does not stop
there: read the tilt column.

Steady turns. Besides the straight motion there are steady circular motions with a constant tilt
theta* != 0 solving f2(theta*, V, 0) = 0 (dv = 0 there since f1 vanishes with dtheta); they are not
used here.

Corrections to the brief this module was written from
-----------------------------------------------------
* "Tilting toward the right turns right" and "the sign of dpsi/dt follows the sign of the tilt"
  fix theta > 0 as a lean to the LEFT (psi counter-clockwise), as above; the statement about dpsi/dt
  holds for v > 0 (for v < 0 the sign reverses while the curvature dpsi/ds keeps the sign of theta).
* "Above V_c the tilt decays for a V > 0 and grows for a V < 0" holds for c = 0; with damping the
  boundary is a V = -c l / (m h tan(lam)).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace

import numpy as np
import pandas as pd
from scipy.integrate import quad

from nonholonomic.errors import NonholonomicError
from nonholonomic.references.common import finite_number, integrate

STATE = ("x", "y", "psi", "theta", "v", "dtheta")
COLUMNS = ("time", "x", "y", "psi", "theta", "v", "dtheta", "dpsi", "delta", "energy")
REACTIONS = ("N_F", "N_B", "f_F", "f_B")
_K = np.array([0.0, 0.0, 1.0])


def _as_float(name: str, value) -> float:
    return finite_number(f"skateboard: {name}", value)


@dataclass(frozen=True)
class Skateboard:
    """Skateboard with a rigid rider; see the module docstring for the conventions and equations.

    m (kg), l (half wheelbase, m), lam (truck pivot-axis angle to the board, rad), k (bushing
    stiffness, N m/rad), c (bushing damping, N m s/rad), h (height of the centre of mass above the
    roll axis, m), a (its distance ahead of the midpoint O, m), A, B, C (central principal moments in
    the board frame, kg m^2), g (m/s^2)."""

    m: float = 73.0
    l: float = 0.2  # the half wheelbase of the papers
    lam: float = math.pi / 4.0
    k: float = 250.0
    c: float = 0.0
    h: float = 1.0
    a: float = 0.05
    A: float = 12.0
    B: float = 12.0
    C: float = 1.5
    g: float = 9.81
    bushing: str = "roll"  # "roll": -k theta (Hubbard, Kuleshov); "pivot": a spring about each truck's pivot axis

    def __post_init__(self):
        if self.bushing not in ("roll", "pivot"):
            raise NonholonomicError(f"skateboard: bushing must be 'roll' or 'pivot', got {self.bushing!r}")
        for f in fields(self):
            if f.name != "bushing":
                object.__setattr__(self, f.name, _as_float(f.name, getattr(self, f.name)))
        for name, what in (("m", "mass m"), ("l", "half wheelbase l"), ("A", "moment A"),
                           ("B", "moment B"), ("C", "moment C")):
            if not getattr(self, name) > 0.0:
                raise NonholonomicError(f"skateboard: {what} must be positive, got {getattr(self, name)}")
        if not self.h > 0.0:
            raise NonholonomicError(f"skateboard: h must be positive (the rider's centre of mass above the "
                                    f"roll axis), got {self.h}")
        if self.k < 0.0:
            raise NonholonomicError(f"skateboard: bushing stiffness k must be >= 0, got {self.k}")
        if self.c < 0.0:
            raise NonholonomicError(f"skateboard: bushing damping c must be >= 0, got {self.c}")
        if self.g < 0.0:
            raise NonholonomicError(f"skateboard: gravity g must be >= 0, got {self.g}")
        if not 0.0 < self.lam < 0.5 * math.pi:
            raise NonholonomicError(f"skateboard: truck angle lam must lie in (0, pi/2), got {self.lam}")
        A, B, C = self.A, self.B, self.C
        if A + B < C or B + C < A or C + A < B:
            raise NonholonomicError(f"skateboard: principal moments violate the triangle inequality: "
                                    f"A = {A}, B = {B}, C = {C}")

    # ------------------------------------------------------------------ derived constants
    @property
    def kappa(self) -> float:
        """tan(lam)/l (1/m): the path curvature per unit sin(theta)."""
        return math.tan(self.lam) / self.l

    @property
    def J(self) -> float:
        """A + m h^2 (kg m^2): moment of inertia about the roll axis."""
        return self.A + self.m * self.h**2

    # ------------------------------------------------------------------ kinematics
    def steer(self, theta):
        """Steer angle delta of the front axle (rad): tan(delta) = tan(lam) sin(theta)."""
        return np.arctan(math.tan(self.lam) * np.sin(theta))

    def yaw_rate(self, theta, v):
        """dpsi/dt = v tan(delta)/l = kappa v sin(theta) (rad/s)."""
        return self.kappa * v * np.sin(theta)

    # ------------------------------------------------------------------ bushings
    def _pivot_angle(self, theta):
        """chi(theta): the hanger's turn about its pivot axis that keeps its axle level at tilt theta,
        tan(chi) = tan(theta)/cos(lam) (the axle (0, cos chi, 0) + sin chi (-sin lam, 0, cos lam) in the
        board frame, turned by theta about the roll axis, has no vertical component)."""
        return np.arctan(np.tan(theta) / math.cos(self.lam))

    def bushing_torque(self, theta):
        """Restoring torque of both bushings about the roll axis (N m), opposing theta. "roll": -k theta.
        "pivot": each truck's spring k cos(lam)^2/2 acts on its pivot angle chi, U = k cos(lam)^2 chi^2/2
        for both, so the torque is -dU/dtheta = -k cos(lam)^3 chi/(cos(lam)^2 cos(theta)^2 + sin(theta)^2),
        -k theta + O(theta^3)."""
        if self.bushing == "roll":
            return -self.k * theta
        cl = math.cos(self.lam)
        return -self.k * cl**3 * self._pivot_angle(theta) / (cl**2 * np.cos(theta) ** 2 + np.sin(theta) ** 2)

    def bushing_energy(self, theta):
        """Energy stored in the bushings (J): k theta^2/2 ("roll") or k cos(lam)^2 chi^2/2 ("pivot")."""
        if self.bushing == "roll":
            return 0.5 * self.k * theta**2
        return 0.5 * self.k * math.cos(self.lam) ** 2 * self._pivot_angle(theta) ** 2

    # ------------------------------------------------------------------ equations (closed form)
    def mass_matrix(self, theta):
        """(M11, M12, M22) of the module docstring at tilt theta."""
        m, h, a, B, C, kap = self.m, self.h, self.a, self.B, self.C, self.kappa
        s, c = np.sin(theta), np.cos(theta)
        M11 = m * (1.0 - h * kap * s * s) ** 2 + kap**2 * s * s * (m * a * a + B * s * s + C * c * c)
        return M11, m * a * h * kap * s * c, self.J + 0.0 * s

    def forces(self, theta, v, dtheta):
        """(f1, f2) of the module docstring: velocity terms, gravity, bushing."""
        m, h, a, B, C, kap, g = self.m, self.h, self.a, self.B, self.C, self.kappa, self.g
        s, c = np.sin(theta), np.cos(theta)
        e = 1.0 - h * kap * s * s
        f1 = kap * s * c * v * dtheta * (3.0 * m * h * e - kap * (m * a * a + (3.0 * B - 2.0 * C) * s * s + C * c * c)) \
            + m * a * h * kap * s * s * dtheta**2
        f2 = m * g * h * s + self.bushing_torque(theta) - self.c * dtheta - m * a * h * kap * c * c * v * dtheta \
            - kap * s * c * v * v * (m * h * e + (C - B) * kap * s * s)
        return f1, f2

    def accelerations(self, theta, v, dtheta):
        """(dv/dt, d^2 theta/dt^2) from the closed-form equations."""
        M11, M12, M22 = self.mass_matrix(theta)
        f1, f2 = self.forces(theta, v, dtheta)
        det = M11 * M22 - M12 * M12
        return (M22 * f1 - M12 * f2) / det, (M11 * f2 - M12 * f1) / det

    def rhs(self, t, y):
        """d/dt (x, y, psi, theta, v, dtheta); y has shape (6,) or (6, k)."""
        _, _, psi, theta, v, w = y
        dv, dw = self.accelerations(theta, v, w)
        return np.array([v * np.cos(psi), v * np.sin(psi), self.yaw_rate(theta, v), w, dv, dw])

    def kinetic_energy(self, y):
        """T = 1/2 M11 v^2 + M12 v dtheta + 1/2 M22 dtheta^2 (J)."""
        theta, v, w = y[3], y[4], y[5]
        M11, M12, M22 = self.mass_matrix(theta)
        return 0.5 * M11 * v * v + M12 * v * w + 0.5 * M22 * w * w

    def energy(self, y):
        """E = T + m g h cos(theta) + k theta^2/2 (J); the roll axis is the zero of height."""
        theta = y[3]
        return self.kinetic_energy(y) + self.m * self.g * self.h * np.cos(theta) + self.bushing_energy(theta)

    # ------------------------------------------------------------------ second formulation
    def world_kinematics(self, y):
        """dict of world vectors of one state y (6,): e, n, z_b, R (board -> world), omega, r_G (= G - O),
        v_G, delta, ddelta, the axle directions a_F, a_B and their time derivatives da_F, da_B."""
        _, _, psi, theta, v, w = (float(z) for z in y)
        s, c = math.sin(theta), math.cos(theta)
        e = np.array([math.cos(psi), math.sin(psi), 0.0])
        n = np.array([-math.sin(psi), math.cos(psi), 0.0])
        yb, zb = c * n - s * _K, s * n + c * _K
        R = np.column_stack([e, yb, zb])
        dpsi = self.kappa * s * v
        omega = dpsi * _K - w * e
        r_G = self.a * e + self.h * zb
        tl = math.tan(self.lam)
        delta = math.atan(tl * s)
        ddelta = tl * c * w / (1.0 + tl * tl * s * s)
        out = {"e": e, "n": n, "z_b": zb, "R": R, "omega": omega, "r_G": r_G, "dpsi": dpsi,
               "v_G": v * e + np.cross(omega, r_G), "delta": delta, "ddelta": ddelta}
        for name, sign in (("F", 1.0), ("B", -1.0)):
            ang = psi + sign * delta
            out["a_" + name] = np.array([-math.sin(ang), math.cos(ang), 0.0])
            out["da_" + name] = -(dpsi + sign * ddelta) * np.array([math.cos(ang), math.sin(ang), 0.0])
        return out

    def newton_euler_system(self, y):
        """(M, b, kin): the 10 x 10 system M X = b of the Newton-Euler formulation at state y (6,).

        X = (a_G (3), alpha (3), N_F/m, N_B/m, f_F/m, f_B/m); rows: Newton / m, Euler about G / m, the
        vertical accelerations of F and B, the derivatives of the no-slip conditions at F and B."""
        kin = self.world_kinematics(y)
        m, theta, w = self.m, float(y[3]), float(y[5])
        e, om, r_G = kin["e"], kin["omega"], kin["r_G"]
        I_w = kin["R"] @ np.diag([self.A, self.B, self.C]) @ kin["R"].T
        rho = {"F": self.l * e - r_G, "B": -self.l * e - r_G}  # contact points relative to G
        v_G = kin["v_G"]
        M = np.zeros((10, 10))
        b = np.zeros(10)
        M[0:3, 0:3] = np.eye(3)
        M[3:6, 3:6] = I_w / m
        b[0:3] = -self.g * _K
        b[3:6] = ((self.c * w - self.bushing_torque(theta)) * e - np.cross(om, I_w @ om)) / m
        directions = [("F", _K), ("B", _K), ("F", kin["a_F"]), ("B", kin["a_B"])]
        for j, (P, d) in enumerate(directions):
            M[0:3, 6 + j] = -d
            M[3:6, 6 + j] = -np.cross(rho[P], d)
        for j, (P, d) in enumerate(directions):
            row = 6 + j
            vP = v_G + np.cross(om, rho[P])
            M[row, 0:3] = d                                # d . (a_G + alpha x rho) = ...
            M[row, 3:6] = np.cross(rho[P], d)
            b[row] = -d @ np.cross(om, np.cross(om, rho[P]))
            if j >= 2:                                     # moving axle direction
                b[row] -= vP @ kin["da_" + P]
        return M, b, kin

    def _solve_newton_euler(self, y):
        M, b, kin = self.newton_euler_system(y)
        X = np.linalg.solve(M, b)
        return X, kin

    def accelerations_newton_euler(self, y):
        """(dv, ddtheta, ddpsi, reactions/m) from the Newton-Euler formulation at state y (6,)."""
        X, kin = self._solve_newton_euler(y)
        a_G, alpha = X[0:3], X[3:6]
        rOG = -kin["r_G"]
        a_O = a_G + np.cross(alpha, rOG) + np.cross(kin["omega"], np.cross(kin["omega"], rOG))
        return a_O @ kin["e"], -alpha @ kin["e"], alpha @ _K, X[6:]

    def rhs_newton_euler(self, t, y):
        """d/dt (x, y, psi, theta, v, dtheta) from the Newton-Euler formulation; y has shape (6,)."""
        dv, dw, _, _ = self.accelerations_newton_euler(y)
        _, _, psi, theta, v, w = y
        return np.array([v * math.cos(psi), v * math.sin(psi), self.kappa * math.sin(theta) * v, w, dv, dw])

    def reactions(self, y):
        """Reactions on the board (N) at state y (6,): dict N_F, N_B (vertical, at F and B) and f_F, f_B
        (horizontal, along the front and rear axle directions a_F, a_B; a_F is n turned by +delta)."""
        _, _, _, r = self.accelerations_newton_euler(y)
        return dict(zip(REACTIONS, self.m * r))

    # ------------------------------------------------------------------ linearisation
    def linear_coefficients(self, V):
        """(J, D, K) of J ddtheta + D dtheta + K theta = 0 about the straight motion at speed V."""
        V = np.asarray(V, dtype=float)
        kap = self.kappa
        return (self.J, self.c + self.m * self.a * self.h * kap * V,
                self.k - self.m * self.g * self.h + self.m * self.h * kap * V * V)

    def characteristic_polynomial(self, V):
        """Coefficients (J, D, K) of J s^2 + D s + K, highest power first (numpy.roots order)."""
        return np.array(self.linear_coefficients(float(V)))

    def eigenvalues(self, V):
        """The two tilt eigenvalues (1/s) at speed V, complex, largest real part first; shape (..., 2)."""
        J, D, K = self.linear_coefficients(V)
        root = np.sqrt(np.asarray(D * D - 4.0 * J * K, dtype=complex))
        s1, s2 = (-D + root) / (2.0 * J), (-D - root) / (2.0 * J)
        return np.stack([s1, s2], axis=-1)

    def max_real_part(self, V):
        """Largest real part of the tilt eigenvalues (1/s); < 0: the straight motion is asymptotically stable."""
        return np.max(self.eigenvalues(V).real, axis=-1)

    def critical_speed(self, h=None):
        """V_c = sqrt(l (m g h - k) / (m h tan(lam))) (m/s) if m g h > k, else 0; h defaults to self.h
        and may be an array (the boundary of the (V, h) stability map)."""
        hh = np.asarray(self.h if h is None else h, dtype=float)
        if np.any(~np.isfinite(hh)) or np.any(hh <= 0.0):
            raise NonholonomicError(f"skateboard: h must be positive, got {h!r}")
        excess = np.maximum(self.m * self.g * hh - self.k, 0.0)
        out = np.sqrt(self.l * excess / (self.m * hh * math.tan(self.lam)))
        return float(out) if out.ndim == 0 else out

    def stability_map(self, V_values, values, parameter: str = "h"):
        """Largest real part of the tilt eigenvalues over a grid: shape (len(values), len(V_values));
        `parameter` names the field varied (e.g. "h" or "a"), the others stay as in this model."""
        names = [f.name for f in fields(self)]
        if parameter not in names:
            raise NonholonomicError(f"skateboard: unknown parameter {parameter!r}; use one of {', '.join(names)}")
        V = np.asarray(V_values, dtype=float)
        return np.array([replace(self, **{parameter: float(p)}).max_real_part(V) for p in np.asarray(values, float)])

    # ------------------------------------------------------------------ the case a = 0
    def speed_ratio_a0(self, theta):
        """Phi(theta) of the first integral v / Phi(theta) = const of the case a = 0 (module docstring)."""
        if self.a != 0.0:
            raise NonholonomicError(f"skateboard: v / Phi(theta) is a first integral only for a = 0, got a = {self.a}")
        m, h, B, C, kap = self.m, self.h, self.B, self.C, self.kappa

        def D(u):
            return m * (1.0 - h * kap * u) ** 2 + kap**2 * u * (B * u + C * (1.0 - u))

        def one(th):
            u = math.sin(th) ** 2
            integral = quad(lambda z: 1.0 / D(z), 0.0, u, epsabs=0.0, epsrel=1e-13)[0]
            return math.exp(-0.75 * math.log(D(u) / m) + 0.25 * kap**2 * C * integral)

        return np.vectorize(one, otypes=[float])(np.asarray(theta, dtype=float))

    # ------------------------------------------------------------------ simulation
    def initial_state(self, theta0=0.1, dtheta0=0.0, V=3.0, psi0=0.0, x0=0.0, y0=0.0):
        """(x, y, psi, theta, v, dtheta) at t = 0; |theta0| < pi/2 (the board above the roll axis)."""
        vals = [_as_float(n, z) for n, z in (("x0", x0), ("y0", y0), ("psi0", psi0), ("theta0", theta0),
                                             ("V", V), ("dtheta0", dtheta0))]
        if not abs(vals[3]) < 0.5 * math.pi:
            raise NonholonomicError(f"skateboard: |theta0| must be < pi/2 (the board lies flat at pi/2), "
                                    f"got {theta0}")
        return np.array(vals)

    def simulate(self, t_eval, theta0=0.1, dtheta0=0.0, V=3.0, psi0=0.0, rtol=1e-10, atol=1e-12,
                 method="DOP853", x0=0.0, y0=0.0):
        """Integrate from (x0, y0, psi0, theta0, V, dtheta0) at t_eval[0]; DataFrame with COLUMNS
        (time, x, y, psi, theta, v, dtheta, dpsi, delta, energy), SI units, angles in rad."""
        state0 = self.initial_state(theta0, dtheta0, V, psi0, x0, y0)
        t_eval = np.asarray(t_eval, dtype=float)
        y = integrate(self.rhs, state0, t_eval, rtol, atol, method)
        return pd.DataFrame({"time": t_eval, **dict(zip(STATE, y)), "dpsi": self.yaw_rate(y[3], y[4]),
                             "delta": self.steer(y[3]), "energy": self.energy(y)})
