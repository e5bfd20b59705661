"""Spherical robots: a dynamically spherical shell rolling on the horizontal plane with a rigid body
inside, and the free "nonholonomic bundle" of two bodies.

I. A. Bizyaev, A. V. Borisov, I. S. Mamaev, "The dynamics of nonholonomic systems consisting of a
spherical shell with a moving rigid body inside", Rus. J. Nonlin. Dyn. 9 (2013) 547-566 (seed 001;
in Russian; the OCR of the seed is badly damaged and DIGEST.md section 2 reconstructs it). Every
equation below was re-derived here, and each model is checked in
tests/test_reference_spherical_robot.py against a brute-force Newton-Euler solve of the full
multibody system (both bodies, all constraint forces unknown) at random states, and by its integrals.

Four independent reference models:

* `ShellWithTop` -- system A (paper section 1): a rigid body (the "top") on a spherical hinge at the
  shell centre. Reduced equations (1.11) in (omega, gamma), the Chaplygin vector integral K (1.9),
  absolute motion (1.12), and the integrable cases (Euler, Lagrange, Hess).
* `UnbalancedSlidingBall` -- the unbalanced, dynamically asymmetric ball sliding on a perfectly smooth
  plane (Lagrangian (1.13), equations (1.14)), written separately; `sliding_ball_from_shell` is the
  parameter map of Theorem 1.
* `ShellWithNonholonomicHinge` -- system B (section 2): an inner body with its centre of mass at the
  shell centre, coupled to the shell by a nonholonomic hinge omega3 = Omega3 (equations (2.4)).
* `NonholonomicBundle` -- system C (section 3): the free bundle (no plane, no gravity) of the shell and
  a balanced inner body coupled by the nonholonomic hinge (equations (3.3)-(3.6)).

Common conventions
==================
World frame: z up, gravity (0, 0, -g), the plane is z = 0 (systems A, B). Every body has a
principal-axes body frame; its attitude is a unit quaternion Q = (q0, q1, q2, q3), scalar first, and
T = T(Q) resolves body vectors in the world frame (v_world = T v_body), as in common.py. Kinematics:
Q' = 1/2 Q o (0, w_b), w_b the body-frame angular velocity. "w_0" is an angular velocity in the world
frame. The reduced vectors are resolved in the frame of the INNER body (the top in A, the inner body in
B, C): omega = angular velocity of the inner body, Omega = angular velocity of the SHELL, gamma =
T^T ez = the upward vertical, all with components in the inner body's frame. The shell's centre C is
at (x, y, R_s) over the contact point (x, y, 0); "x, y" is always the contact point. The shell itself
is dynamically spherical (central inertia I_s E), so its attitude is not needed and is not integrated.
Arrays passed to the vectorised methods have the state index FIRST ((n,) or (n, k)); 3-D world states
(to_world / from_world / initial_state) have the components LAST ((..., 3), (..., 4)), so a whole
trajectory of k samples is (k, 3).

System A: shell + top on a spherical hinge (paper section 1)
============================================================
Shell: mass m_s, central moment I_s, radius R_s. Top: mass m_t, principal central inertia
I_t = diag(I1, I2, I3), centre of mass O at c (top frame) from the shell centre C. Constraints
(1.1) v = V + omega x c (hinge; v = velocity of O, V of C) and (1.2) V = R_s Omega x gamma (no slip).
Momentum balances in the top frame (1.3), N_c = force of the top on the shell, N_p = contact force:

    m_s (V' + omega x V) = N_c + N_p - m_s g gamma        I_s (Omega' + omega x Omega) = R_s N_p x gamma
    m_t (v' + omega x v) = -N_c - m_t g gamma             I_t omega' + omega x I_t omega = -N_c x c

CORRECTED (1.3): the printed shell equation has no weight -m_s g gamma; it only changes the vertical
(normal) part of N_p, which has no moment about C, so the motion is unaffected (`contact_force`
includes it). Then (Omega, gamma) = Omega_gamma = const and (1.5) Omega = gamma x V / R_s +
Omega_gamma gamma (CORRECTED: printed without the factor Omega_gamma). With a_c = v_c' + omega x v_c,
v_c = omega x c (the acceleration of O relative to C, top frame):

    (1.8)  V' + omega x V = -k Pi_gamma a_c,   k = m_t R_s^2 / (I_s + (m_s + m_t) R_s^2)
    (1.9)  K = V + k Pi_gamma v_c is fixed in space (Chaplygin's vector integral): K' = K x omega,
           (K, gamma) = 0;  Pi_a b = a x (b x a) = a^2 b - (a, b) a
    (1.11) J omega' + omega x J omega = k m_t (a_c, gamma) gamma x c + m_t g gamma x c,
           gamma' = gamma x omega,  J = I_t + (1 - k) m_t Pi_c

(the numerator of k and (1.10)-(1.11) are OCR-damaged; derived here, = DIGEST 2.A). As a linear
system for omega' (a_c contains omega' x c):

    [J + k m_t s (x) s] omega' = -omega x J omega + (k m_t (omega x v_c, gamma) + m_t g) gamma x c,
    s = c x gamma.

Integrals: gamma^2 = 1; the area integral F1 = (J omega, gamma); the energy
E = 1/2 (omega, J omega) + 1/2 k m_t (v_c, gamma)^2 + m_t g (c, gamma) (CORRECTED: printed
"m_t (c, gamma)" without g); |K|, and K_world = T K constant. The physical energy of both bodies
(`energy_total`, potential zero on the plane) is E + m_t K^2/(2k) + I_s Omega_gamma^2/2
+ (m_s + m_t) g R_s (derived here; checked: it is computed from the body velocities and conserved).
Legendre momentum (Theorem 2): M = J omega + k m_t (omega, c x gamma) c x gamma.
Integrable cases: Euler c = 0: M^2 (`euler_integral`); Lagrange I1 = I2, c1 = c2 = 0:
M3 = J3 omega3 (`lagrange_integral`); Hess: in the principal axes of J (J1 > J2 > J3), c2 = 0 and
c1^2 (1/J3 - 1/J2) = c3^2 (1/J2 - 1/J1): the relation (J omega, c) = 0 is invariant
(`hess_relation`, `hess_condition_residual`; the printed condition is illegible: derived here from
d/dt (J omega, c) = (J omega x omega, c), the gamma x c terms drop out, so it is the heavy-top Hess
condition: the plane normal to c cuts the ellipsoid (J^-1 x, x) = 1 in a circle).
Absolute motion (1.12): the paper takes Ox || K and writes x' = |K| - k (v_c, alpha),
y' = k (v_c, alpha x gamma) with beta = gamma x alpha (checked); here, with arbitrary world axes,
(x', y') = horizontal part of T V, V = K - k Pi_gamma v_c, and Q is integrated (Q' = 1/2 Q o (0, omega)).

State (16): omega1..3, gamma1..3, K1..3 (top frame), Omega_gamma, q0..q3 (top attitude), x, y.
gamma is integrated AND follows from Q: `attitude_residual` = |gamma - T^T ez| is a check.
3-D mapping: top centre of mass r_O = (x, y, R_s) + T c, v_O = T (V + omega x c), w_b = omega;
shell centre r_C = (x, y, R_s), v_C = T V, w_0 = T Omega.

Unbalanced ball sliding on a smooth plane (1.13)-(1.15)
=======================================================
Mass m, central inertia I (any symmetric positive-definite 3x3, or principal moments), centre of mass
G at a (body frame) from the geometric centre, radius R. The horizontal velocity of G is constant (set
to zero). L = 1/2 (omega, I omega) + 1/2 m (omega, r x gamma)^2 - U(gamma), r = -R gamma - a,
U = m g (a, gamma) (+ m g R, dropped). The Euler-Poincare equations give (derived here, = (1.14)):

    I omega' + omega x I omega = m (a_a, gamma) gamma x a + m g gamma x a,   gamma' = gamma x omega,
    a_a = v_a' + omega x v_a, v_a = omega x a;   as a linear system
    [I + m s (x) s] omega' = -omega x I omega + m ((omega x v_a, gamma) + g) gamma x a,  s = a x gamma.

CORRECTED (1.13) text: r = -R gamma - a points from G to the contact point, not from the contact
point to G as the text says; only (omega, r x gamma)^2 enters, so this is immaterial.
Integrals: gamma^2, E = 1/2 (omega, I omega) + 1/2 m (v_a, gamma)^2 + m g (a, gamma), (I omega, gamma).
Theorem 1: with k m = m_t, a = k c, I = J (the printed map is illegible: derived here; substituting
gives (1.11) term by term), (1.14)-(1.15) coincide with (1.11)-(1.12) (`sliding_ball_from_shell`).
State (10): omega1..3, gamma1..3, q0..q3.

System B: shell + inner body with a nonholonomic hinge (paper section 2)
========================================================================
Inner body: principal inertia I = diag(I1, I2, I3), centre of mass at the shell centre C, mass m_b;
m = m_s + m_b. The hinge forbids relative rotation about e = (0, 0, 1) (inner-body frame): it applies
the torque +lambda0 e to the inner body and -lambda0 e to the shell. Constraints (2.2):
omega3 - Omega3 = 0, v = R_s Omega x gamma (v = velocity of C). Equations (2.3), lambda = contact force:

    m (v' + omega x v) = lambda - m g gamma,
    I_s (Omega' + omega x Omega) = R_s lambda x gamma - lambda0 e,   I omega' + omega x I omega = lambda0 e

(CORRECTED: the printed (2.3) has no weight; as in A only the normal force changes). Eliminating
lambda (derived here; = (2.4)):

    (I~ Omega)' = (I~ Omega) x omega - lambda0 e,   (I omega)' = (I omega) x omega + lambda0 e,
    gamma' = gamma x omega,   I~ = (I_s + m R_s^2) E - m R_s^2 gamma (x) gamma,
    lambda0 = -I_s (I_s + m R_s^2) [(I1 - I2) omega1 omega2 + I3 (Omega2 omega1 - Omega1 omega2)]
              / [I_s (I_s + m R_s^2 + I3) + m R_s^2 I3 gamma3^2].

Implementation form (with |gamma| = 1; I~^-1 = E/(I_s + m R_s^2) + m R_s^2 gamma (x) gamma /
((I_s + m R_s^2) I_s)): Omega' = Omega x omega - lambda0 I~^-1 e, omega' = I^-1 (I omega x omega +
lambda0 e). M = I~ Omega + I omega (angular momentum about the contact point, (2.5)) is fixed in
space. Integrals (2.6): gamma^2, omega3 - Omega3 (= 0), M^2, (M, gamma),
F4 = I1 (I1 - I3) omega1^2 + I2 (I2 - I3) omega2^2, and (2.7) E = 1/2 (I~ Omega, Omega)
+ 1/2 (I omega, omega) (= kinetic energy; potential m g R_s constant). Invariant measure (2.8): density
rho = sqrt(I_s (I_s + m R_s^2 + I3) + m R_s^2 I3 gamma3^2) (`measure_density`).
Absolute motion: v = R_s (M - I omega) x gamma / (I_s + m R_s^2). With fixed axes such that
(M, beta) = 0 and beta = gamma x alpha: x' = -R_s (I omega, beta)/(I_s + m R_s^2),
y' = R_s ((I omega, alpha) - M_alpha)/(I_s + m R_s^2) (the sign of x' is lost in the OCR; checked
here); the model uses (x', y') = horizontal part of T v with the world axes of the 3-D model.
State (15): Omega1..3, omega1..3, gamma1..3 (inner-body frame), q0..q3 (inner-body attitude), x, y.
3-D mapping: both centres at (x, y, R_s), v_0 = T v; inner body w_b = omega; shell w_0 = T Omega.

System C: free nonholonomic bundle (paper section 3)
====================================================
The shell (central moment I_s) and an inner body (principal moments I_principal, balanced at C), no
plane, no gravity, C at rest (centre-of-mass frame). The hinge forbids relative rotation about the
unit vector e_b fixed in the inner body (given in its principal frame). The paper writes the
equations in a "paper frame" with e along x3 and x1, x2 chosen so that I12 = 0:
I_p = [[I1, 0, I13], [0, I2, I23], [I13, I23, I3]]; here `paper_frame` P (columns = the paper axes,
components in the principal frame; det P = +1, x_principal = P x_paper) is built from e_b and the
eigenvectors of the inertia block normal to e_b (the one closest to the first trial axis first).

    (3.3) I_s Omega' = I_s Omega x omega - lambda0 e,   I omega' = I omega x omega + lambda0 e,
          lambda0 = (Omega x omega - I^-1 (I omega x omega), e) / (I_s^-1 + (I^-1 e, e))

(CORRECTED: the printed denominator reads "(I e + I^-1 e, e)"; the first term is 1/I_s, derived
from d/dt (omega3 - Omega3) = 0.) (3.4) M = I_s Omega + I omega is fixed in space; integrals M^2,
omega3 - Omega3 (= 0), T = 1/2 I_s Omega^2 + 1/2 (omega, I omega) (3.2).
e along a principal axis (I13 = I23 = 0): with Omega3 = omega3, a = (I3 - I1)/I2, b = (I3 - I2)/I1,
c = I3/I_s (paper-frame moments; reconstructed and checked against (3.3)):

    (3.5) Omega1' = omega3 (Omega2 - omega2),  Omega2' = -omega3 (Omega1 - omega1),
          omega1' = -b omega2 omega3,           omega2' = a omega1 omega3,
          omega3' = (Omega1 omega2 - Omega2 omega1)/(1 + c) - c (a - b) omega1 omega2 / ((1 - ab)(1 + c))

(the sign of the last term is lost in the OCR: derived here; (a - b)/(1 - ab) = (I2 - I1)/I3 is used
so that the flat body I3 = I1 + I2, where 1 - ab = 0, is regular). Integrals: (3.6)
F = a omega1^2 + b omega2^2; Casimir C2 = omega1^2 + omega2^2 + (1 - ab)(Omega1^2 + Omega2^2)
- 2 (1 - a) Omega1 omega1 - 2 (1 - b) Omega2 omega2; H (3.7) = T / (I_s + I3).
Closed form (derived here): in tau = int omega3 dt the (Omega1, Omega2, omega1, omega2) system is
linear with constant coefficients; with kappa^2 = ab, Ck = cos(kappa tau), Sk = sin(kappa tau)/kappa
(cosh, sinh for ab < 0; 1, tau for ab = 0):

    omega1 = Ck omega1_0 - b Sk omega2_0,   omega2 = Ck omega2_0 + a Sk omega1_0,
    (Omega1, Omega2) = (p omega1, s omega2) + Rot(tau) (Omega_0 - (p omega1_0, s omega2_0)),
    p = (1 - a)/(1 - ab) = I1/I3,  s = (1 - b)/(1 - ab) = I2/I3,  Rot = [[cos, sin], [-sin, cos]],
    omega3^2 = (2T - I_s (Omega1^2 + Omega2^2) - I1 omega1^2 - I2 omega2^2)/(I_s + I3),
    t(tau) = int_0^tau dtau'/omega3 (while omega3 keeps its sign).

State (11): Omega1..3 (shell angular velocity), omega1..3 (inner body), both in the inner body's
PRINCIPAL frame, q0..q3 (inner-body attitude), tau (= int omega.e_b dt). The paper-frame components
are the columns Omega_p1..3, omega_p1..3. 3-D mapping: centres at the origin at rest; inner body
w_b = omega; shell w_0 = T Omega.

Corrections of the seed (and of DIGEST.md), all checked in the tests
====================================================================
1. (1.1) printed "V + omega x c": the hinge constraint is v = V + omega x c (= DIGEST).
2. (1.3), (2.3): the momentum equation of the shell (A) / of the system (B) has no weight; it changes
   only the normal contact force (no moment about the centre). NEW (not in DIGEST); `contact_force`
   includes it and matches the brute-force reaction.
3. (1.5) printed "Omega = R^-1 gamma x V + gamma": the last term is Omega_gamma gamma (= DIGEST).
4. (1.8) k = m_t R_s^2 / (I_s + (m_s + m_t) R_s^2) (numerator illegible; = DIGEST; checked by the
   18x18 Newton-Euler solve).
5. Energy of (1.11): printed "... + m_t (c, gamma)"; the potential is m_t g (c, gamma) (DIGEST
   already has g; with the printed form the "integral" varies by 960 % in the test run).
6. (1.13) text: r = -R gamma - a points from G to the contact point (immaterial; = DIGEST).
7. Theorem 1 map (illegible): k m = m_t, a = k c, I = J (= DIGEST; the two codes agree to 4e-10).
8. Hess case (illegible): c2 = 0, c1^2 (1/J3 - 1/J2) = c3^2 (1/J2 - 1/J1) in the principal axes of J
   (= DIGEST). J is generally NOT diagonal in the top's principal frame; the condition is on J.
9. Absolute motion of B: x' = -R_s (I omega, beta)/(I_s + m R_s^2) with beta = gamma x alpha
   (DIGEST: UNSURE of the printed sign; resolved: minus).
10. (3.3): printed denominator "(I e + I^-1 e, e)" -> 1/I_s + (I^-1 e, e) (= DIGEST; the printed
    form roughly doubles lambda0 in the test state and breaks omega3 = Omega3).
11. (3.5): a = (I3 - I1)/I2, b = (I3 - I2)/I1, c = I3/I_s and the minus sign of the last term of
    omega3' (= DIGEST; with a plus sign omega3' is wrong by 20 % at the test state).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.integrate import quad

from nonholonomic.errors import NonholonomicError
from nonholonomic.references.common import (
    attitude_residual, integrate as _integrate, matrix_to_quaternion, quaternion_product, quaternion_to_matrix)

EZ = np.array([0.0, 0.0, 1.0])

STATE_A = ("omega1", "omega2", "omega3", "gamma1", "gamma2", "gamma3", "K1", "K2", "K3",
           "Omega_gamma", "q0", "q1", "q2", "q3", "x", "y")
STATE_BALL = ("omega1", "omega2", "omega3", "gamma1", "gamma2", "gamma3", "q0", "q1", "q2", "q3")
STATE_B = ("Omega1", "Omega2", "Omega3", "omega1", "omega2", "omega3", "gamma1", "gamma2", "gamma3",
           "q0", "q1", "q2", "q3", "x", "y")
STATE_C = ("Omega1", "Omega2", "Omega3", "omega1", "omega2", "omega3", "q0", "q1", "q2", "q3", "tau")


# ------------------------------------------------------------------------------ helpers
def _cross(a, b):
    """a x b for components first ((3,) or (3, k), broadcasting); faster than np.cross here."""
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


def _dot(a, b):
    return np.sum(a * b, axis=0)


def _mv(M, v):
    """Constant 3x3 matrix times vectors (3,) or (3, k)."""
    return np.einsum("ij,j...->i...", M, v)


def _col(v, like):
    """Constant vector (3,) shaped to broadcast against (3,) or (3, k)."""
    return np.reshape(v, (3,) + (1,) * (np.ndim(like) - 1))


def _solve(A, b):
    """Solve A x = b; A (3, 3, ...) and b (3, ...) with the same trailing axes."""
    if b.ndim == 1:
        return np.linalg.solve(A, b)
    x = np.linalg.solve(np.moveaxis(A, (0, 1), (-2, -1)), np.moveaxis(b, 0, -1)[..., None])
    return np.moveaxis(x[..., 0], -1, 0)


def _rot(q):
    """T(q), (..., 3, 3), from q with the 4 components first."""
    return quaternion_to_matrix(np.moveaxis(np.asarray(q, dtype=float), 0, -1))


def _to_world(q, v):
    """T(q) v, components first."""
    return np.moveaxis(np.einsum("...ij,...j->...i", _rot(q), np.moveaxis(v, 0, -1)), -1, 0)


def _qdot(q, w):
    """Q' = 1/2 Q o (0, w), components first."""
    w0 = np.concatenate([np.zeros_like(w[:1]), w])
    return 0.5 * np.moveaxis(quaternion_product(np.moveaxis(q, 0, -1), np.moveaxis(w0, 0, -1)), -1, 0)


def _attitude(Q, continuous=True):
    """(unit quaternions (..., 4), matrices (..., 3, 3)) from quaternions (..., 4) or matrices."""
    Q = np.asarray(Q, dtype=float)
    if Q.shape[-1:] == (4,):
        n = np.linalg.norm(Q, axis=-1, keepdims=True)
        if not np.all(np.isfinite(Q)) or np.any(n < 1e-12):
            raise NonholonomicError("attitude quaternions must be finite and non-zero")
        Q = Q / n
        return Q, quaternion_to_matrix(Q)
    if Q.shape[-2:] == (3, 3):
        if not np.all(np.isfinite(Q)):
            raise NonholonomicError("attitude matrices must be finite")
        return matrix_to_quaternion(Q, continuous), Q
    raise NonholonomicError(f"attitude must be quaternions (..., 4) or matrices (..., 3, 3), "
                            f"got shape {Q.shape}")


def _vec3(v, name):
    v = np.asarray(v, dtype=float)
    if v.shape[-1:] != (3,) or not np.all(np.isfinite(v)):
        raise NonholonomicError(f"{name} must be finite 3-vectors (..., 3), got shape {v.shape}")
    return v


def _positive(**kw):
    for k, v in kw.items():
        if not (np.isfinite(v) and v > 0):
            raise NonholonomicError(f"{k} must be a positive number, got {v}")


def _principal(I, name):
    I = np.asarray(I, dtype=float)
    if I.shape != (3,) or not np.all(np.isfinite(I)) or np.any(I <= 0):
        raise NonholonomicError(f"{name} must be three positive principal moments, got {I}")
    tol = 1e-12 * I.sum()
    if I[0] > I[1] + I[2] + tol or I[1] > I[0] + I[2] + tol or I[2] > I[0] + I[1] + tol:
        raise NonholonomicError(f"{name} violates the triangle inequality: {I}")
    return I


def _state(y, n, names):
    y = np.asarray(y, dtype=float)
    if y.shape[:1] != (n,):
        raise NonholonomicError(f"state must have the {n} entries {names} first, got shape {y.shape}")
    return y


def _comp_last(v):
    return np.moveaxis(np.asarray(v), 0, -1)


def _frame(names_values, time):
    df = pd.DataFrame({"time": np.atleast_1d(np.asarray(time, dtype=float))})
    for k, v in names_values.items():
        df[k] = np.atleast_1d(v)
    return df


class _Reference:
    """Common driver: a subclass names its state (STATES) and gives rhs(t, y) and dataframe(Y, time)."""

    STATES: tuple

    def simulate(self, state0, t_eval, rtol=1e-11, atol=1e-12, method="DOP853"):
        """Integrate from `state0` (the entries STATES); DataFrame of `dataframe`."""
        state0 = np.asarray(state0, dtype=float)
        if state0.shape != (len(self.STATES),):
            raise NonholonomicError(f"state0 must have the {len(self.STATES)} entries {self.STATES}, "
                                    f"got {state0.shape}")
        return self.dataframe(_integrate(self.rhs, state0, t_eval, rtol, atol, method), t_eval)


# ============================================================================== system A
class ShellWithTop(_Reference):
    """System A: shell rolling on z = 0 with a top on a spherical hinge at its centre (module doc)."""

    STATES = STATE_A

    def __init__(self, m_s: float, I_s: float, R_s: float, m_t: float, I_t, c, g: float = 9.81):
        m_s, I_s, R_s, m_t, g = (float(v) for v in (m_s, I_s, R_s, m_t, g))
        _positive(m_s=m_s, I_s=I_s, R_s=R_s, m_t=m_t)
        if not np.isfinite(g):
            raise NonholonomicError(f"g must be finite, got {g}")
        self.I_t = _principal(I_t, "I_t")
        self.c = np.asarray(c, dtype=float)
        if self.c.shape != (3,) or not np.all(np.isfinite(self.c)):
            raise NonholonomicError(f"c must be a finite 3-vector, got {c}")
        if np.linalg.norm(self.c) >= R_s:
            raise NonholonomicError(f"|c| = {np.linalg.norm(self.c)} must be smaller than R_s = {R_s}")
        self.m_s, self.I_s, self.R_s, self.m_t, self.g = m_s, I_s, R_s, m_t, g
        self.k = m_t * R_s**2 / (I_s + (m_s + m_t) * R_s**2)  # (1.8)
        c = self.c
        self.J = np.diag(self.I_t) + (1.0 - self.k) * m_t * (c @ c * np.eye(3) - np.outer(c, c))

    # ---------------------------------------------------------------- reduced system (1.11)
    def _parts(self, y):
        w, gam, K = y[0:3], y[3:6], y[6:9]
        c = _col(self.c, w)
        vc = _cross(w, c)
        return w, gam, K, c, vc

    def omega_dot(self, omega, gamma):
        """omega' of (1.11) (linear solve), for (3,) or (3, k) arrays."""
        w, gam = np.asarray(omega, dtype=float), np.asarray(gamma, dtype=float)
        c = _col(self.c, w)
        km = self.k * self.m_t
        s = _cross(c, gam)
        vc = _cross(w, c)
        A = self.J.reshape((3, 3) + (1,) * (w.ndim - 1)) + km * s[:, None] * s[None, :]
        gxc = _cross(gam, c)
        b = -_cross(w, _mv(self.J, w)) + (km * _dot(_cross(w, vc), gam) + self.m_t * self.g) * gxc
        return _solve(A, b)

    def centre_velocity(self, y):
        """V (top frame) = K - k Pi_gamma v_c."""
        y = np.asarray(y, dtype=float)
        _, gam, K, _, vc = self._parts(y)
        return K - self.k * (_dot(gam, gam) * vc - _dot(vc, gam) * gam)

    def shell_omega(self, y):
        """Omega (top frame) from (1.5): gamma x V / R_s + Omega_gamma gamma."""
        y = np.asarray(y, dtype=float)
        return _cross(y[3:6], self.centre_velocity(y)) / self.R_s + y[9] * y[3:6]

    def rhs(self, t, y):
        """d/dt of the 16-state (shape (16,) or (16, k))."""
        y = np.asarray(y, dtype=float)
        w, gam, K = y[0:3], y[3:6], y[6:9]
        dw = self.omega_dot(w, gam)
        Vw = _to_world(y[10:14], self.centre_velocity(y))
        return np.concatenate([dw, _cross(gam, w), _cross(K, w), np.zeros_like(y[9:10]),
                               _qdot(y[10:14], w), Vw[:2]])

    # ---------------------------------------------------------------- integrals
    def momentum(self, y):
        """Legendre momentum M = J omega + k m_t (omega, c x gamma) c x gamma (Theorem 2)."""
        y = np.asarray(y, dtype=float)
        w, gam = y[0:3], y[3:6]
        s = _cross(_col(self.c, w), gam)
        return _mv(self.J, w) + self.k * self.m_t * _dot(w, s) * s

    def euler_integral(self, y):
        """M^2 (Legendre M): an integral in the Euler case c = 0."""
        M = self.momentum(y)
        return _dot(M, M)

    def lagrange_integral(self, y):
        """M3 = (M, e3) (= J3 omega3): an integral in the Lagrange case I1 = I2, c1 = c2 = 0."""
        return self.momentum(y)[2]

    def hess_relation(self, y):
        """(J omega, c): stays 0 if it starts at 0 and `hess_condition_residual()` = 0."""
        y = np.asarray(y, dtype=float)
        return _dot(_mv(self.J, y[0:3]), _col(self.c, y[0:3]))

    def hess_condition_residual(self):
        """Hess condition in the principal axes of J (J1 > J2 > J3): (c2, c1^2 (1/J3 - 1/J2)
        - c3^2 (1/J2 - 1/J1)), both 0 in the Hess case (c1, c2, c3 = components of c there)."""
        lam, P = np.linalg.eigh(self.J)
        lam, P = lam[::-1], P[:, ::-1]
        c1, c2, c3 = P.T @ self.c
        return np.array([c2, c1**2 * (1 / lam[2] - 1 / lam[1]) - c3**2 * (1 / lam[1] - 1 / lam[0])])

    def integrals(self, y):
        """dict of gamma_squared (F0), area (F1 = (J omega, gamma)), energy (E of (1.11)),
        energy_total (kinetic + potential of both bodies, zero on the plane), K_norm = |K|,
        K_gamma = (K, gamma), K_x, K_y, K_z (K in the world frame: constant), quat_norm."""
        y = np.asarray(y, dtype=float)
        w, gam, K, c, vc = self._parts(y)
        m_s, m_t, I_s, R, g, k = self.m_s, self.m_t, self.I_s, self.R_s, self.g, self.k
        E = 0.5 * _dot(w, _mv(self.J, w)) + 0.5 * k * m_t * _dot(vc, gam)**2 + m_t * g * _dot(c, gam)
        V = self.centre_velocity(y)
        Om = self.shell_omega(y)
        v = V + vc
        Et = (0.5 * m_s * _dot(V, V) + 0.5 * I_s * _dot(Om, Om) + 0.5 * m_t * _dot(v, v)
              + 0.5 * _dot(w, _col(self.I_t, w) * w) + m_s * g * R + m_t * g * (R + _dot(c, gam)))
        Kw = _to_world(y[10:14], K)
        return {"gamma_squared": _dot(gam, gam), "area": _dot(_mv(self.J, w), gam), "energy": E,
                "energy_total": Et, "K_norm": np.sqrt(_dot(K, K)), "K_gamma": _dot(K, gam),
                "K_x": Kw[0], "K_y": Kw[1], "K_z": Kw[2],
                "quat_norm": np.sqrt(_dot(y[10:14], y[10:14]))}

    def attitude_residual(self, y):
        """|gamma - T(Q)^T ez|."""
        y = np.asarray(y, dtype=float)
        return attitude_residual(y[3:6], y[10:14])

    def contact_force(self, y):
        """Force of the plane on the shell, world (..., 3): (m_s + m_t)(a_C + g ez) + m_t T a_c."""
        y = np.asarray(y, dtype=float)
        w, gam, _, c, vc = self._parts(y)
        ac = _cross(self.omega_dot(w, gam), c) + _cross(w, vc)
        A = -self.k * (_dot(gam, gam) * ac - _dot(ac, gam) * gam)
        F = _to_world(y[10:14], (self.m_s + self.m_t) * A + self.m_t * ac)
        F[2] = F[2] + (self.m_s + self.m_t) * self.g
        return _comp_last(F)

    # ---------------------------------------------------------------- world mapping
    def initial_state(self, Q_t, w_t_b, W_s_0, x0: float = 0.0, y0: float = 0.0):
        """16-state from the 3-D data: top attitude Q_t (quaternion, scalar first, or matrix), top
        angular velocity w_t_b (top body frame), shell angular velocity W_s_0 (WORLD frame), contact
        point (x0, y0). The shell centre velocity follows from no slip: V = R_s W_s_0 x ez."""
        Q, T = _attitude(Q_t)
        w = _vec3(w_t_b, "w_t_b")
        W = _vec3(W_s_0, "W_s_0")
        if Q.shape != (4,) or w.shape != (3,) or W.shape != (3,):
            raise NonholonomicError("initial_state takes a single attitude and two 3-vectors")
        V_w = self.R_s * np.cross(W, EZ)
        return self.from_world(Q, w, [x0, y0, self.R_s], V_w, W)

    def from_world(self, Q_t, w_t_b, r_0_s, v_0_s, w_0_s, continuous: bool = True):
        """16-state ((16,) or (16, k)) from the 3-D states: the top's attitude Q_t (quaternions
        (..., 4) or matrices (..., 3, 3)) and body angular velocity w_t_b (..., 3); the shell's
        centre r_0_s, centre velocity v_0_s and angular velocity w_0_s (world). K = T^T v_0_s +
        k Pi_gamma (w x c) (v_0_s used as given: a vertical part shows up as K_gamma != 0),
        Omega_gamma = w_0_s,z, contact point = (r_0_s,x, r_0_s,y)."""
        Q, T = _attitude(Q_t, continuous)
        w = _vec3(w_t_b, "w_t_b")
        r, v, W = _vec3(r_0_s, "r_0_s"), _vec3(v_0_s, "v_0_s"), _vec3(w_0_s, "w_0_s")
        gam = T[..., 2, :]
        vc = np.cross(w, self.c)
        Pvc = vc - np.sum(vc * gam, axis=-1, keepdims=True) * gam
        K = np.einsum("...ji,...j->...i", T, v) + self.k * Pvc
        shape = gam.shape[:-1]
        mv = lambda a: np.moveaxis(np.broadcast_to(a, shape + (a.shape[-1],)), -1, 0)
        return np.concatenate([mv(w), mv(gam), mv(K), mv(W[..., 2:3]), mv(Q), mv(r[..., :2])])

    def to_world(self, y):
        """3-D states of the two bodies, components last: dict(top=dict(r_0, Q, v_0, w_b, w_0),
        shell=dict(r_0, v_0, w_0)) (r_0: centres of mass; w_0: world angular velocities)."""
        y = _state(y, 16, STATE_A)
        q = y[10:14]
        V = self.centre_velocity(y)
        w, c = y[0:3], _col(self.c, y[0:3])
        rC = np.stack([y[14], y[15], self.R_s * np.ones_like(y[14])])
        return {"top": {"r_0": _comp_last(rC + _to_world(q, c * np.ones_like(w))), "Q": _comp_last(q),
                        "v_0": _comp_last(_to_world(q, V + _cross(w, c))), "w_b": _comp_last(w),
                        "w_0": _comp_last(_to_world(q, w))},
                "shell": {"r_0": _comp_last(rC), "v_0": _comp_last(_to_world(q, V)),
                          "w_0": _comp_last(_to_world(q, self.shell_omega(y)))}}

    def slip_velocity(self, v_0_s, w_0_s):
        """Velocity of the shell's material contact point, world: v_0 + w_0 x (-R_s ez)."""
        return np.asarray(v_0_s, dtype=float) + np.cross(w_0_s, -self.R_s * EZ)

    # ---------------------------------------------------------------- equivalent sliding ball
    def equivalent_sliding_ball(self):
        """`sliding_ball_from_shell(self)`."""
        return sliding_ball_from_shell(self)

    # ---------------------------------------------------------------- output
    def dataframe(self, Y, time=None):
        """DataFrame of states Y (16,) or (16, k): time, the state columns, Omega1..3 (shell angular
        velocity, top frame), W_s_x, W_s_y, W_s_z (shell, world), V_x, V_y, V_z (shell centre
        velocity, world), Np_x, Np_y, Np_z (contact force on the shell, world), the integrals
        (see `integrals`), M1..M3 (Legendre momentum), attitude_residual."""
        Y = _state(Y, 16, STATE_A)
        Y2 = Y if Y.ndim == 2 else Y[:, None]
        time = np.zeros(Y2.shape[1]) if time is None else time
        Om = self.shell_omega(Y2)
        W = _to_world(Y2[10:14], Om)
        V = _to_world(Y2[10:14], self.centre_velocity(Y2))
        F = self.contact_force(Y2).T
        M = self.momentum(Y2)
        cols = dict(zip(STATE_A, Y2))
        cols.update({"Omega1": Om[0], "Omega2": Om[1], "Omega3": Om[2], "W_s_x": W[0], "W_s_y": W[1],
                     "W_s_z": W[2], "V_x": V[0], "V_y": V[1], "V_z": V[2],
                     "Np_x": F[0], "Np_y": F[1], "Np_z": F[2], "M1": M[0], "M2": M[1], "M3": M[2]})
        cols.update(self.integrals(Y2))
        cols["attitude_residual"] = self.attitude_residual(Y2)
        return _frame(cols, time)



# ============================================================================== sliding ball
class UnbalancedSlidingBall(_Reference):
    """Unbalanced asymmetric ball sliding on a perfectly smooth plane (1.13)-(1.15); module doc."""

    STATES = STATE_BALL

    def __init__(self, m: float, I, a, R: float, g: float = 9.81):
        m, R, g = float(m), float(R), float(g)
        _positive(m=m, R=R)
        if not np.isfinite(g):
            raise NonholonomicError(f"g must be finite, got {g}")
        I = np.asarray(I, dtype=float)
        if I.shape == (3,):
            I = np.diag(I)
        if I.shape != (3, 3) or not np.all(np.isfinite(I)) \
                or not np.allclose(I, I.T, rtol=0, atol=1e-14 * np.abs(I).max()):
            raise NonholonomicError(f"I must be 3 principal moments or a symmetric 3x3 matrix, got {I}")
        if np.linalg.eigvalsh(I).min() <= 0:
            raise NonholonomicError(f"I must be positive definite, got {I}")
        self.a = np.asarray(a, dtype=float)
        if self.a.shape != (3,) or not np.all(np.isfinite(self.a)):
            raise NonholonomicError(f"a must be a finite 3-vector, got {a}")
        self.m, self.I, self.R, self.g = m, 0.5 * (I + I.T), R, g

    def omega_dot(self, omega, gamma):
        """omega' of (1.14), for (3,) or (3, k) arrays."""
        w, gam = np.asarray(omega, dtype=float), np.asarray(gamma, dtype=float)
        a = _col(self.a, w)
        s = _cross(a, gam)
        va = _cross(w, a)
        A = self.I.reshape((3, 3) + (1,) * (w.ndim - 1)) + self.m * s[:, None] * s[None, :]
        b = -_cross(w, _mv(self.I, w)) + self.m * (_dot(_cross(w, va), gam) + self.g) * _cross(gam, a)
        return _solve(A, b)

    def rhs(self, t, y):
        """d/dt of (omega, gamma, q) (shape (10,) or (10, k))."""
        y = np.asarray(y, dtype=float)
        w, gam = y[0:3], y[3:6]
        return np.concatenate([self.omega_dot(w, gam), _cross(gam, w), _qdot(y[6:10], w)])

    def integrals(self, y):
        """dict(gamma_squared, area = (I omega, gamma), energy (potential zero at (a, gamma) = 0),
        quat_norm)."""
        y = np.asarray(y, dtype=float)
        w, gam = y[0:3], y[3:6]
        a = _col(self.a, w)
        va = _cross(w, a)
        E = (0.5 * _dot(w, _mv(self.I, w)) + 0.5 * self.m * _dot(va, gam)**2
             + self.m * self.g * _dot(a, gam))
        return {"gamma_squared": _dot(gam, gam), "area": _dot(_mv(self.I, w), gam), "energy": E,
                "quat_norm": np.sqrt(_dot(y[6:10], y[6:10]))}

    def to_world(self, y, x_G: float = 0.0, y_G: float = 0.0):
        """3-D state dict(r_0, Q, v_0, w_b), components last: centre of mass at (x_G, y_G,
        R + (a, gamma)), its velocity (0, 0, (omega x a, gamma)) (horizontal momentum zero)."""
        y = _state(y, 10, STATE_BALL)
        w, gam = y[0:3], y[3:6]
        a = _col(self.a, w)
        z = self.R + _dot(a, gam)
        vz = _dot(_cross(w, a), gam)
        return {"r_0": _comp_last(np.stack([x_G + 0 * z, y_G + 0 * z, z])), "Q": _comp_last(y[6:10]),
                "v_0": _comp_last(np.stack([0 * vz, 0 * vz, vz])), "w_b": _comp_last(w)}

    def dataframe(self, Y, time=None):
        Y = _state(Y, 10, STATE_BALL)
        Y2 = Y if Y.ndim == 2 else Y[:, None]
        cols = dict(zip(STATE_BALL, Y2))
        cols.update(self.integrals(Y2))
        return _frame(cols, np.zeros(Y2.shape[1]) if time is None else time)



def sliding_ball_from_shell(system: ShellWithTop) -> UnbalancedSlidingBall:
    """Theorem 1: the sliding ball whose (omega, gamma, attitude) motion is that of system A's top:
    m = m_t / k, a = k c, I = J (full 3x3 in the top frame), R = R_s, same g. A state of A maps to
    the ball state (omega, gamma, q) = y[[0..5, 10..13]] (`shell_state_to_ball`)."""
    if not isinstance(system, ShellWithTop):
        raise NonholonomicError("sliding_ball_from_shell expects a ShellWithTop")
    k = system.k
    return UnbalancedSlidingBall(system.m_t / k, system.J, k * system.c, system.R_s, system.g)


def shell_state_to_ball(y):
    """(omega, gamma, q) of a system-A state (16,) or (16, k)."""
    y = _state(y, 16, STATE_A)
    return np.concatenate([y[0:6], y[10:14]])


# ============================================================================== system B
class ShellWithNonholonomicHinge(_Reference):
    """System B: shell rolling on z = 0, balanced inner body, nonholonomic hinge omega3 = Omega3."""

    STATES = STATE_B

    def __init__(self, m_s: float, I_s: float, R_s: float, m_b: float, I_b, g: float = 9.81):
        m_s, I_s, R_s, m_b, g = (float(v) for v in (m_s, I_s, R_s, m_b, g))
        _positive(m_s=m_s, I_s=I_s, R_s=R_s, m_b=m_b)
        if not np.isfinite(g):
            raise NonholonomicError(f"g must be finite, got {g}")
        self.I = _principal(I_b, "I_b")
        self.m_s, self.I_s, self.R_s, self.m_b, self.g = m_s, I_s, R_s, m_b, g
        self.m = m_s + m_b

    def lambda0(self, y):
        """Hinge torque (on the inner body, along e) of (2.4)."""
        y = np.asarray(y, dtype=float)
        Om, w, gam = y[0:3], y[3:6], y[6:9]
        I1, I2, I3 = self.I
        Is, mR2 = self.I_s, self.m * self.R_s**2
        num = (I1 - I2) * w[0] * w[1] + I3 * (Om[1] * w[0] - Om[0] * w[1])
        return -Is * (Is + mR2) * num / (Is * (Is + mR2 + I3) + mR2 * I3 * gam[2]**2)

    def rhs(self, t, y):
        """d/dt of the 15-state (shape (15,) or (15, k))."""
        y = np.asarray(y, dtype=float)
        Om, w, gam = y[0:3], y[3:6], y[6:9]
        Is, mR2 = self.I_s, self.m * self.R_s**2
        l0 = self.lambda0(y)
        Iinv_e = _col(EZ, gam) / (Is + mR2) + mR2 * gam[2] * gam / ((Is + mR2) * Is)
        I = _col(self.I, w)
        dOm = _cross(Om, w) - l0 * Iinv_e
        dw = (_cross(I * w, w) + l0 * _col(EZ, w)) / I
        v = self.R_s * _cross(Om, gam)
        vw = _to_world(y[9:13], v)
        return np.concatenate([dOm, dw, _cross(gam, w), _qdot(y[9:13], w), vw[:2]])

    def tilde_I(self, gamma):
        """The operator I~ of (2.4) at gamma: Omega -> (I_s + m R^2) Omega - m R^2 (gamma, Omega) gamma."""
        mR2 = self.m * self.R_s**2
        return lambda Om: (self.I_s + mR2) * Om - mR2 * _dot(gamma, Om) * gamma

    def momentum(self, y):
        """M = I~ Omega + I omega (inner-body frame), (2.5)."""
        y = np.asarray(y, dtype=float)
        return self.tilde_I(y[6:9])(y[0:3]) + _col(self.I, y[3:6]) * y[3:6]

    def integrals(self, y):
        """dict(gamma_squared (F0), hinge (F1 = omega3 - Omega3), M_squared (F2), M_gamma (F3), F4,
        energy (2.7), M_x, M_y, M_z (M in the world frame: constant), quat_norm)."""
        y = np.asarray(y, dtype=float)
        Om, w, gam = y[0:3], y[3:6], y[6:9]
        I1, I2, I3 = self.I
        M = self.momentum(y)
        Mw = _to_world(y[9:13], M)
        E = 0.5 * _dot(self.tilde_I(gam)(Om), Om) + 0.5 * _dot(_col(self.I, w) * w, w)
        return {"gamma_squared": _dot(gam, gam), "hinge": w[2] - Om[2], "M_squared": _dot(M, M),
                "M_gamma": _dot(M, gam), "F4": I1 * (I1 - I3) * w[0]**2 + I2 * (I2 - I3) * w[1]**2,
                "energy": E, "M_x": Mw[0], "M_y": Mw[1], "M_z": Mw[2],
                "quat_norm": np.sqrt(_dot(y[9:13], y[9:13]))}

    def measure_density(self, y):
        """rho of (2.8): d ln(rho)/dt = -div(rhs) on R^9 (Omega, omega, gamma)."""
        y = np.asarray(y, dtype=float)
        Is, mR2, I3 = self.I_s, self.m * self.R_s**2, self.I[2]
        return np.sqrt(Is * (Is + mR2 + I3) + mR2 * I3 * y[8]**2)

    def attitude_residual(self, y):
        y = np.asarray(y, dtype=float)
        return attitude_residual(y[6:9], y[9:13])

    def contact_force(self, y):
        """Force of the plane on the shell, world (..., 3): m (a_C + g ez), a_C = R_s W_s' x ez."""
        y = np.asarray(y, dtype=float)
        d = self.rhs(0.0, y)
        dW = _to_world(y[9:13], d[0:3] + _cross(y[3:6], y[0:3]))  # (T Omega)' = T (Omega' + w x Omega)
        F = self.m * self.R_s * _cross(dW, _col(EZ, dW) * np.ones_like(dW))
        F[2] = F[2] + self.m * self.g
        return _comp_last(F)

    # ---------------------------------------------------------------- world mapping
    def initial_state(self, Q_b, w_b_b, Omega1: float, Omega2: float, x0: float = 0.0,
                      y0: float = 0.0):
        """15-state from the inner body's attitude Q_b and angular velocity w_b_b (body frame), the
        shell's angular velocity components Omega1, Omega2 in the inner body's frame (Omega3 =
        omega3 by the hinge) and the contact point (x0, y0)."""
        Q, T = _attitude(Q_b)
        w = _vec3(w_b_b, "w_b_b")
        if Q.shape != (4,) or w.shape != (3,):
            raise NonholonomicError("initial_state takes a single attitude and a 3-vector")
        Om = np.array([Omega1, Omega2, w[2]], dtype=float)
        if not np.all(np.isfinite(Om)):
            raise NonholonomicError("Omega1, Omega2 must be finite")
        return self.from_world(Q, w, [x0, y0, self.R_s], T @ Om)

    def from_world(self, Q_b, w_b_b, r_0_s, w_0_s, continuous: bool = True):
        """15-state ((15,) or (15, k)) from the inner body's attitude (quaternions (..., 4) or
        matrices) and body angular velocity w_b_b, and the shell's centre r_0_s and WORLD angular
        velocity w_0_s: Omega = T^T w_0_s, gamma = T^T ez, (x, y) = (r_0_s,x, r_0_s,y)."""
        Q, T = _attitude(Q_b, continuous)
        w, r, W = _vec3(w_b_b, "w_b_b"), _vec3(r_0_s, "r_0_s"), _vec3(w_0_s, "w_0_s")
        Om = np.einsum("...ji,...j->...i", T, W)
        gam = T[..., 2, :]
        shape = gam.shape[:-1]
        mv = lambda a: np.moveaxis(np.broadcast_to(a, shape + (a.shape[-1],)), -1, 0)
        return np.concatenate([mv(Om), mv(w), mv(gam), mv(Q), mv(r[..., :2])])

    def to_world(self, y):
        """dict(inner=dict(r_0, Q, v_0, w_b, w_0), shell=dict(r_0, v_0, w_0)), components last."""
        y = _state(y, 15, STATE_B)
        q = y[9:13]
        rC = _comp_last(np.stack([y[13], y[14], self.R_s * np.ones_like(y[13])]))
        v = _comp_last(_to_world(q, self.R_s * _cross(y[0:3], y[6:9])))
        return {"inner": {"r_0": rC, "Q": _comp_last(q), "v_0": v, "w_b": _comp_last(y[3:6]),
                          "w_0": _comp_last(_to_world(q, y[3:6]))},
                "shell": {"r_0": rC.copy(), "v_0": v.copy(), "w_0": _comp_last(_to_world(q, y[0:3]))}}

    def dataframe(self, Y, time=None):
        """DataFrame: time, state columns, W_s_x.. (shell angular velocity, world), v_x, v_y
        (centre velocity, world), lambda0, Np_x, Np_y, Np_z (contact force, world), M1..M3
        (inner-body frame), the integrals, attitude_residual."""
        Y = _state(Y, 15, STATE_B)
        Y2 = Y if Y.ndim == 2 else Y[:, None]
        W = _to_world(Y2[9:13], Y2[0:3])
        v = _to_world(Y2[9:13], self.R_s * _cross(Y2[0:3], Y2[6:9]))
        F = self.contact_force(Y2).T
        M = self.momentum(Y2)
        cols = dict(zip(STATE_B, Y2))
        cols.update({"W_s_x": W[0], "W_s_y": W[1], "W_s_z": W[2], "v_x": v[0], "v_y": v[1],
                     "lambda0": self.lambda0(Y2), "Np_x": F[0], "Np_y": F[1], "Np_z": F[2],
                     "M1": M[0], "M2": M[1], "M3": M[2]})
        cols.update(self.integrals(Y2))
        cols["attitude_residual"] = self.attitude_residual(Y2)
        return _frame(cols, np.zeros(Y2.shape[1]) if time is None else time)



# ============================================================================== system C
class NonholonomicBundle(_Reference):
    """System C: free bundle of the shell and a balanced body, nonholonomic hinge about e_b."""

    STATES = STATE_C

    def __init__(self, I_s: float, I_principal, e_b):
        I_s = float(I_s)
        _positive(I_s=I_s)
        self.I_s = I_s
        self.I_principal = _principal(I_principal, "I_principal")
        e = np.asarray(e_b, dtype=float)
        if e.shape != (3,) or not np.all(np.isfinite(e)) or np.linalg.norm(e) < 1e-12:
            raise NonholonomicError(f"e_b must be a non-zero finite 3-vector, got {e_b}")
        e = e / np.linalg.norm(e)
        self.e_b = e
        D = np.diag(self.I_principal)
        t = np.array([1.0, 0.0, 0.0]) if abs(e[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
        u1 = t - (t @ e) * e
        u1 /= np.linalg.norm(u1)
        u2 = np.cross(e, u1)
        U = np.stack([u1, u2], 1)
        _, vec = np.linalg.eigh(U.T @ D @ U)
        v = vec[:, int(np.argmax(np.abs(vec[0])))]
        v = v if v[0] > 0 else -v
        p1 = U @ v
        p1 /= np.linalg.norm(p1)
        self.P = np.stack([p1, np.cross(e, p1), e], 1)  # paper axes (columns), principal components
        Ip = self.P.T @ D @ self.P
        Ip[0, 1] = Ip[1, 0] = 0.0  # I12 = 0 by construction (round-off only)
        scale = np.trace(D)
        self.principal_axis = bool(abs(Ip[0, 2]) < 1e-12 * scale and abs(Ip[1, 2]) < 1e-12 * scale)
        if self.principal_axis:
            Ip[0, 2] = Ip[2, 0] = Ip[1, 2] = Ip[2, 1] = 0.0
        self.I_p = 0.5 * (Ip + Ip.T)
        self.I_p_inv = np.linalg.inv(self.I_p)

    @property
    def paper_frame(self):
        """P: columns = paper axes (e along the third), components in the principal frame."""
        return self.P

    # ---------------------------------------------------------------- (3.3) in the paper frame
    def lambda0_paper(self, Om_p, w_p):
        """lambda0 of (3.3) from paper-frame (3,) or (3, k) vectors."""
        Iw = _mv(self.I_p, w_p)
        num = _cross(Om_p, w_p)[2] - _mv(self.I_p_inv, _cross(Iw, w_p))[2]
        return num / (1.0 / self.I_s + self.I_p_inv[2, 2])

    def rhs_paper(self, Om_p, w_p):
        """(Omega_p', omega_p', lambda0) of (3.3) in the paper frame."""
        l0 = self.lambda0_paper(Om_p, w_p)
        e = _col(EZ, w_p)
        dOm = _cross(Om_p, w_p) - l0 * e / self.I_s
        dw = _mv(self.I_p_inv, _cross(_mv(self.I_p, w_p), w_p) + l0 * e)
        return dOm, dw, l0

    def to_paper(self, y):
        """(Omega_p, omega_p) paper-frame components of a state (11,) or (11, k)."""
        y = np.asarray(y, dtype=float)
        return _mv(self.P.T, y[0:3]), _mv(self.P.T, y[3:6])

    def rhs(self, t, y):
        """d/dt of the 11-state (principal-frame Omega, omega; q; tau)."""
        y = np.asarray(y, dtype=float)
        Om_p, w_p = self.to_paper(y)
        dOm_p, dw_p, _ = self.rhs_paper(Om_p, w_p)
        return np.concatenate([_mv(self.P, dOm_p), _mv(self.P, dw_p), _qdot(y[6:10], y[3:6]),
                               w_p[2:3]])

    def lambda0(self, y):
        return self.lambda0_paper(*self.to_paper(y))

    def momentum(self, y):
        """M = I_s Omega + I omega, principal frame (3.4)."""
        y = np.asarray(y, dtype=float)
        return self.I_s * y[0:3] + _col(self.I_principal, y[3:6]) * y[3:6]

    def integrals(self, y):
        """dict(hinge = (omega - Omega, e_b), M_squared, energy T (3.2), M_x, M_y, M_z (world:
        constant), quat_norm); plus F (3.6), C2 (Casimir), H (3.7) if e_b is a principal axis."""
        y = np.asarray(y, dtype=float)
        Om, w = y[0:3], y[3:6]
        M = self.momentum(y)
        Mw = _to_world(y[6:10], M)
        out = {"hinge": _dot(w - Om, _col(self.e_b, w)), "M_squared": _dot(M, M),
               "energy": 0.5 * self.I_s * _dot(Om, Om) + 0.5 * _dot(_col(self.I_principal, w) * w, w),
               "M_x": Mw[0], "M_y": Mw[1], "M_z": Mw[2], "quat_norm": np.sqrt(_dot(y[6:10], y[6:10]))}
        if self.principal_axis:
            Om_p, w_p = self.to_paper(y)
            out.update(self.reduced_integrals(np.stack([Om_p[0], Om_p[1], w_p[0], w_p[1], w_p[2]])))
        return out

    # ---------------------------------------------------------------- (3.5): e principal
    def _require_principal(self):
        if not self.principal_axis:
            raise NonholonomicError("the reduced form (3.5) needs e_b along a principal axis")

    def reduced_coefficients(self):
        """(a, b, c) of (3.5): a = (I3 - I1)/I2, b = (I3 - I2)/I1, c = I3/I_s (paper-frame moments)."""
        self._require_principal()
        I1, I2, I3 = np.diag(self.I_p)
        return (I3 - I1) / I2, (I3 - I2) / I1, I3 / self.I_s

    def reduced_rhs(self, t, x):
        """(3.5) for x = (Omega1, Omega2, omega1, omega2, omega3) (paper frame, Omega3 = omega3)."""
        a, b, c = self.reduced_coefficients()
        I1, I2, I3 = np.diag(self.I_p)
        O1, O2, w1, w2, w3 = np.asarray(x, dtype=float)
        # c (a - b)/((1 - ab)(1 + c)) written with (a - b)/(1 - ab) = (I2 - I1)/I3 (regular if flat)
        dw3 = (O1 * w2 - O2 * w1) / (1 + c) - c * (I2 - I1) / I3 * w1 * w2 / (1 + c)
        return np.array([w3 * (O2 - w2), -w3 * (O1 - w1), -b * w2 * w3, a * w1 * w3, dw3])

    def reduced_integrals(self, x):
        """dict(F (3.6), C2 (Casimir of (3.8)), H (3.7)) for x = (Omega1, Omega2, omega1, omega2,
        omega3), paper frame."""
        a, b, c = self.reduced_coefficients()
        I1, I2, I3 = np.diag(self.I_p)
        O1, O2, w1, w2, w3 = np.asarray(x, dtype=float)
        C2 = (w1**2 + w2**2 + (1 - a * b) * (O1**2 + O2**2)
              - 2 * (1 - a) * O1 * w1 - 2 * (1 - b) * O2 * w2)
        # c (1 - a)/((1 - ab)(1 + c)) = I1/(I_s + I3), c (1 - b)/(...) = I2/(I_s + I3)
        H = ((O1**2 + O2**2) / (2 * (1 + c)) + w3**2 / 2
             + (I1 * w1**2 + I2 * w2**2) / (2 * (self.I_s + I3)))
        return {"F": a * w1**2 + b * w2**2, "C2": C2, "H": H}

    def closed_form(self, x0, tau):
        """Closed-form solution of (3.5) in tau = int omega3 dt (module doc): array (5, len(tau))
        of (Omega1, Omega2, omega1, omega2, |omega3|), paper frame, from x0 = (Omega1, Omega2,
        omega1, omega2, omega3) at tau = 0. The sign of omega3 is that of the branch (|omega3|
        returned; omega3 = 0 where tau turns back)."""
        a, b, _ = self.reduced_coefficients()
        I1, I2, I3 = np.diag(self.I_p)
        O10, O20, w10, w20, w30 = np.asarray(x0, dtype=float)
        tau = np.asarray(tau, dtype=float)
        ab = a * b
        if ab > 0:
            kap = np.sqrt(ab)
            Ck, Sk = np.cos(kap * tau), np.sin(kap * tau) / kap
        elif ab < 0:
            kap = np.sqrt(-ab)
            Ck, Sk = np.cosh(kap * tau), np.sinh(kap * tau) / kap
        else:
            Ck, Sk = np.ones_like(tau), tau
        w1 = Ck * w10 - b * Sk * w20
        w2 = Ck * w20 + a * Sk * w10
        p, s = I1 / I3, I2 / I3  # (1 - a)/(1 - ab), (1 - b)/(1 - ab)
        d1, d2 = O10 - p * w10, O20 - s * w20
        O1 = p * w1 + np.cos(tau) * d1 + np.sin(tau) * d2
        O2 = s * w2 - np.sin(tau) * d1 + np.cos(tau) * d2
        T2 = self.I_s * (O10**2 + O20**2) + I1 * w10**2 + I2 * w20**2 + (self.I_s + I3) * w30**2
        w3sq = (T2 - self.I_s * (O1**2 + O2**2) - I1 * w1**2 - I2 * w2**2) / (self.I_s + I3)
        return np.stack([O1, O2, w1, w2, np.sqrt(np.maximum(w3sq, 0.0))])

    def time_of_tau(self, x0, tau):
        """t(tau) = int_0^tau dtau'/omega3(tau') on the closed form (sign of omega3 = that of x0's
        omega3; valid while omega3 does not vanish)."""
        sgn = np.sign(np.asarray(x0, dtype=float)[4])
        if sgn == 0:
            raise NonholonomicError("time_of_tau needs omega3 != 0 at tau = 0")
        f = lambda u: 1.0 / (sgn * self.closed_form(x0, np.array([u]))[4, 0])
        return np.array([quad(f, 0.0, float(tk), epsabs=1e-14, epsrel=1e-13, limit=200)[0]
                         for tk in np.atleast_1d(tau)])

    # ---------------------------------------------------------------- world mapping
    def initial_state(self, Q_b, w_b_b, W_s_b, tol: float = 1e-9):
        """11-state from the inner body's attitude Q_b and angular velocity w_b_b (principal frame)
        and the shell's angular velocity W_s_b in the inner body's principal frame; the hinge
        requires (W_s_b, e_b) = (w_b_b, e_b) (NonholonomicError beyond tol (1 + |w|))."""
        Q, T = _attitude(Q_b)
        w, W = _vec3(w_b_b, "w_b_b"), _vec3(W_s_b, "W_s_b")
        if Q.shape != (4,) or w.shape != (3,) or W.shape != (3,):
            raise NonholonomicError("initial_state takes a single attitude and two 3-vectors")
        if abs((w - W) @ self.e_b) > tol * (1 + np.linalg.norm(w) + np.linalg.norm(W)):
            raise NonholonomicError(f"hinge violated: (w_b_b - W_s_b, e_b) = {(w - W) @ self.e_b}")
        return self.from_world(Q, w, T @ W)

    def from_world(self, Q_b, w_b_b, w_0_s, continuous: bool = True):
        """11-state ((11,) or (11, k)) from the inner body's attitude and body angular velocity and
        the shell's WORLD angular velocity; Omega = T^T w_0_s. tau is not recoverable: set to 0."""
        Q, T = _attitude(Q_b, continuous)
        w, W = _vec3(w_b_b, "w_b_b"), _vec3(w_0_s, "w_0_s")
        Om = np.einsum("...ji,...j->...i", T, W)
        shape = T.shape[:-2]
        mv = lambda a: np.moveaxis(np.broadcast_to(a, shape + (a.shape[-1],)), -1, 0)
        return np.concatenate([mv(Om), mv(w), mv(Q), np.zeros((1,) + shape)])

    def to_world(self, y):
        """dict(inner=dict(r_0, Q, v_0, w_b, w_0), shell=dict(r_0, v_0, w_0), M_world), components
        last; centres at the origin, at rest."""
        y = _state(y, 11, STATE_C)
        q = y[6:10]
        z = _comp_last(np.zeros_like(y[0:3]))
        return {"inner": {"r_0": z, "Q": _comp_last(q), "v_0": z.copy(), "w_b": _comp_last(y[3:6]),
                          "w_0": _comp_last(_to_world(q, y[3:6]))},
                "shell": {"r_0": z.copy(), "v_0": z.copy(), "w_0": _comp_last(_to_world(q, y[0:3]))},
                "M_world": _comp_last(_to_world(q, self.momentum(y)))}

    def dataframe(self, Y, time=None):
        """DataFrame: time, state columns (principal frame), Omega_p1..3, omega_p1..3 (paper frame),
        W_s_x, W_s_y, W_s_z (shell, world), lambda0, M1..M3 (principal frame), the integrals."""
        Y = _state(Y, 11, STATE_C)
        Y2 = Y if Y.ndim == 2 else Y[:, None]
        Om_p, w_p = self.to_paper(Y2)
        W = _to_world(Y2[6:10], Y2[0:3])
        M = self.momentum(Y2)
        cols = dict(zip(STATE_C, Y2))
        cols.update({f"Omega_p{i + 1}": Om_p[i] for i in range(3)})
        cols.update({f"omega_p{i + 1}": w_p[i] for i in range(3)})
        cols.update({"W_s_x": W[0], "W_s_y": W[1], "W_s_z": W[2], "lambda0": self.lambda0(Y2),
                     "M1": M[0], "M2": M[1], "M3": M[2]})
        cols.update(self.integrals(Y2))
        return _frame(cols, np.zeros(Y2.shape[1]) if time is None else time)

