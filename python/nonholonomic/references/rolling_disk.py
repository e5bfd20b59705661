"""Thin rigid disk (axisymmetric body with a sharp circular edge) rolling without slipping on the
horizontal plane z = 0.

Classical problem (Slesser 1861, Vierkandt 1892, Chaplygin 1897, Korteweg 1899, Appell; seed 003,
Borisov-Mamaev-Bizyaev 2016, Section 2; it is the first verification case of seed 002, Kosenko
2022, who compares with Borisov-Mamaev-Kilin, "Dynamics of a rolling disk", 2002). The equations
below are derived here from the generic rolling equations (6.4)-(6.5) of seed 003 written in the
"Resal" frame of the disk; they are checked (tests/test_reference_disk_and_chaplygin_ball.py)
against a brute-force 3-D Newton-Euler model with the no-slip constraint differentiated, and by
the energy integral and the steady motions.

Parameters: mass m, edge radius R, principal central moments A (about any diameter) and C (about
the symmetry axis), gravity g. The centre of the edge circle is the centre of mass.

Frames and angles
-----------------
World frame: z up, gravity (0, 0, -g), the plane is z = 0. Body frame: principal axes, z axis
along the symmetry axis (inertia diag(A, A, C)). Attitude: z-x-z Euler angles (psi, theta, phi),

    T = Rz(psi) Rx(theta) Rz(phi)        (T resolves body vectors in the world frame)

* theta in (0, pi): angle between the symmetry axis n = T ez_body and the vertical; theta = pi/2 is
  an upright disk, theta -> 0 or pi a disk lying flat (Euler-angle singularity).
* psi: heading. f1 = (cos psi, sin psi, 0) is the horizontal diameter of the disk (the line of
  nodes): the contact point always moves along +-f1.
* phi: spin angle of the body about its axis, measured from the line of nodes.

Semi-moving (Resal) frame f1 = Rz(psi) ex, f2 = Rz(psi) Rx(theta) ey, f3 = n, i.e.

    f2 = (-sin psi cos theta, cos psi cos theta, sin theta)   (in the disk plane, pointing up),
    f3 = ( sin psi sin theta, -cos psi sin theta, cos theta),

so the contact point is P = G - R f2 and the centre height is z_G = R sin theta. This is the
brief's P = r_0 + R d with d = -(ez - (ez.n) n)/|ez - (ez.n) n| = -f2.

Euler-angle kinematics (seed 003, Section 6; re-derived here from T):

    w_b = (psi' sin theta sin phi + theta' cos phi,
           psi' sin theta cos phi - theta' sin phi,
           psi' cos theta + phi')                          (body components)
    theta' = w1 cos phi - w2 sin phi,  psi' = (w1 sin phi + w2 cos phi) / sin theta,
    phi' = w3 - psi' cos theta,
    gamma = T^T ez = (sin phi sin theta, cos phi sin theta, cos theta)

CORRECTED (seed 003): the matrix ||Q_ij|| printed next to "x_i' = sum_j Q_ij v_j" is T^T (its
first row is the first COLUMN of T above, and its third row is gamma); as printed, the centre
velocity must be x' = Q^T v (or x_i' = sum_j Q_ji v_j). Checked numerically in the tests.

State y = (theta, psi, phi, theta_dot, psi_dot, phi_dot, x, y), (x, y) = contact point. The spin
component w3 = phi' + psi' cos theta (the axial angular velocity) is written omega3 below.

Equations (derived here; CHECKED against the brute-force 3-D model)
-------------------------------------------------------------------
The frame f rotates with Omega_f = theta' f1 + psi' sin theta f2 + psi' cos theta f3, the body
with w = Omega_f + phi' f3. No slip (6.4), v_G + w x (P - G) = 0, gives

    v_G = R (theta' f3 - omega3 f1)

and Newton-Euler (6.5) with the contact force eliminated, N = m (a_G + g ez), taken about the
centre in the f frame (inertia diag(A, A, C) there as well), gives

    (A + m R^2) theta'' = A psi'^2 sin theta cos theta - (C + m R^2) psi' omega3 sin theta
                          - m g R cos theta
    A sin theta psi''   = C theta' omega3 - 2 A psi' theta' cos theta
    (C + m R^2) omega3' = m R^2 psi' theta' sin theta
    phi'' = omega3' - psi'' cos theta + psi' theta' sin theta

Contact point (geometric, not material): P' = v_G - R f2' = -R phi' f1, i.e.

    x' = -R phi' cos psi,   y' = -R phi' sin psi.

Note the sign: a disk rolling FORWARD along +f1 has phi' < 0.

Energy integral: E = 1/2 m R^2 (theta'^2 + omega3^2) + 1/2 A (theta'^2 + psi'^2 sin^2 theta)
                    + 1/2 C omega3^2 + m g R sin theta.

Contact force on the disk (f-frame components; N = m (a_G + g ez)):

    N1 = m R (psi' theta' sin theta - omega3'),
    N2 = m (g sin theta - R theta'^2 - R psi' omega3 cos theta),
    N3 = m (g cos theta + R theta'' + R psi' omega3 sin theta),
    vertical part N.ez = N2 sin theta + N3 cos theta.

Steady motions
--------------
(a) straight rolling of the upright disk: theta = pi/2, psi' = 0, phi' = -v/R (`straight_rolling`).
(b) spin about the vertical diameter: theta = pi/2, theta' = 0, psi' = Omega, phi' = omega3 = 0;
    a steady motion for ANY Omega (the contact point stays fixed). Linearising theta = pi/2 + e
    (with omega3 = m R^2 Omega e / (C + m R^2) from its equation) gives
    (A + m R^2) e'' = (m g R - (A + m R^2) Omega^2) e: linearly stable iff
    Omega^2 > m g R / (A + m R^2) (= 4 g / (5 R) for a homogeneous disk), small oscillations of
    theta with angular frequency sqrt(Omega^2 - m g R/(A + m R^2)) (`spin_about_diameter`).
(c) steady rolling on a circle: theta = theta0, theta' = 0, psi' = Omega, phi' const. The contact
    point moves with speed -R phi' along f1 while f1 turns at Omega, so it runs on a circle of
    SIGNED radius rho = -R phi' / Omega about the centre P + rho e_h, e_h = (-sin psi, cos psi, 0);
    the disk centre runs on a concentric circle of signed radius rho_G = rho - R cos theta0 (G
    is displaced by R cos theta0 e_h from P horizontally). With omega3 = Omega (cos theta0 - rho/R),
    theta'' = 0 requires

        Omega^2 sin theta0 [(C + m R^2) rho / R - (C + m R^2 - A) cos theta0] = m g R cos theta0,

    i.e. rho = R cos theta0 [(C + m R^2 - A) + m g R / (Omega^2 sin theta0)] / (C + m R^2) for a
    given precession rate, or Omega^2 from rho (`steady_circle`). The rho (or Omega) gives a
    real motion only where the bracket has the sign of cos theta0.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from nonholonomic.errors import NonholonomicError
from nonholonomic.references.common import first_zero, integrate as _integrate, quaternion_to_matrix

STATE = ("theta", "psi", "phi", "theta_dot", "psi_dot", "phi_dot", "x", "y")


# ------------------------------------------------------------------------------ rotations
def euler_to_matrix(psi, theta, phi):
    """T = Rz(psi) Rx(theta) Rz(phi), shape (..., 3, 3): body -> world."""
    sps, cps, sth, cth, sph, cph = (np.sin(psi), np.cos(psi), np.sin(theta), np.cos(theta),
                                    np.sin(phi), np.cos(phi))
    return np.stack([
        np.stack([cps * cph - sps * cth * sph, -cps * sph - sps * cth * cph, sps * sth], -1),
        np.stack([sps * cph + cps * cth * sph, -sps * sph + cps * cth * cph, -cps * sth], -1),
        np.stack([sth * sph, sth * cph, cth], -1)], -2)


def euler_to_quaternion(psi, theta, phi):
    """Unit quaternion (scalar first) of T = Rz(psi) Rx(theta) Rz(phi), shape (..., 4)."""
    a, b, c = 0.5 * np.asarray(psi), 0.5 * np.asarray(theta), 0.5 * np.asarray(phi)
    # q_z(psi) o q_x(theta) o q_z(phi); the z rotations commute, so the product is closed-form
    return np.stack([np.cos(b) * np.cos(a + c), np.sin(b) * np.cos(a - c),
                     np.sin(b) * np.sin(a - c), np.cos(b) * np.sin(a + c)], -1)


def _as_matrix(T):
    T = np.asarray(T, dtype=float)
    if T.shape[-1] == 4:
        return quaternion_to_matrix(T)
    if T.shape[-2:] != (3, 3):
        raise NonholonomicError(f"attitude must be (..., 3, 3) matrices or (..., 4) quaternions, "
                                f"got shape {T.shape}")
    return T


def contact_point(r_0, T, radius):
    """World contact point P = r_0 + R d, d = -(ez - (ez.n) n)/|ez - (ez.n) n|, n = T ez_body.

    `T` is (..., 3, 3) or a quaternion (..., 4). Undefined for a disk lying flat (n = +-ez).
    """
    n = _as_matrix(T)[..., :, 2]
    u = -n[..., 2:3] * n
    u[..., 2] += 1.0
    s = np.linalg.norm(u, axis=-1, keepdims=True)
    if np.any(s < 1e-12):
        raise NonholonomicError("contact point undefined: the disk lies flat (axis vertical)")
    return np.asarray(r_0, dtype=float) - radius * u / s


# ------------------------------------------------------------------------------ model
class RollingDisk:
    """Disk rolling without slipping on z = 0; state (theta, psi, phi, rates, x, y); see module."""

    def __init__(self, m: float, R: float, A: float, C: float, g: float = 9.81):
        m, R, A, C, g = (float(v) for v in (m, R, A, C, g))
        if not (m > 0 and R > 0 and A > 0 and C > 0):
            raise NonholonomicError(f"m, R, A, C must be positive, got {m}, {R}, {A}, {C}")
        if C > 2.0 * A * (1.0 + 1e-12):
            raise NonholonomicError(f"principal moments violate the triangle inequality "
                                    f"C <= 2 A: A = {A}, C = {C}")
        if not np.isfinite(g):
            raise NonholonomicError(f"g must be finite, got {g}")
        self.m, self.R, self.A, self.C, self.g = m, R, A, C, g

    @classmethod
    def homogeneous(cls, m: float, R: float, g: float = 9.81):
        """Thin homogeneous disk: A = m R^2 / 4, C = m R^2 / 2."""
        return cls(m, R, m * R**2 / 4.0, m * R**2 / 2.0, g)

    # ---------------------------------------------------------------- equations
    def accelerations(self, y):
        """(theta'', psi'', phi'', omega3'), each () or (k,), for y of shape (8,) or (8, k)."""
        th, _, _, dth, dps, dph = np.asarray(y, dtype=float)[:6]
        m, R, A, C, g = self.m, self.R, self.A, self.C, self.g
        s, c = np.sin(th), np.cos(th)
        w3 = dph + dps * c
        ddth = (A * dps**2 * s * c - (C + m * R**2) * dps * w3 * s - m * g * R * c) / (A + m * R**2)
        ddps = (C * dth * w3 - 2.0 * A * dps * dth * c) / (A * s)
        dw3 = m * R**2 * dps * dth * s / (C + m * R**2)
        ddph = dw3 - ddps * c + dps * dth * s
        return ddth, ddps, ddph, dw3

    def rhs(self, t, y):
        """d/dt of the state (shape (8,) or (8, k))."""
        _, ps, _, dth, dps, dph = np.asarray(y, dtype=float)[:6]
        ddth, ddps, ddph, _ = self.accelerations(y)
        return np.array([dth, dps, dph, ddth, ddps, ddph,
                         -self.R * dph * np.cos(ps), -self.R * dph * np.sin(ps)])

    def energy(self, y):
        """E = T + V in joules (see module docstring)."""
        th, _, _, dth, dps, dph = np.asarray(y, dtype=float)[:6]
        m, R, A, C = self.m, self.R, self.A, self.C
        w3 = dph + dps * np.cos(th)
        return 0.5 * m * R**2 * (dth**2 + w3**2) + 0.5 * A * (dth**2 + (dps * np.sin(th))**2) \
            + 0.5 * C * w3**2 + m * self.g * R * np.sin(th)

    def contact_force(self, y):
        """Force of the plane on the disk, world components, shape (..., 3) (N = m (a_G + g ez))."""
        th, ps, _, dth, dps, dph = np.asarray(y, dtype=float)[:6]
        m, R, g = self.m, self.R, self.g
        ddth, _, _, dw3 = self.accelerations(y)
        s, c = np.sin(th), np.cos(th)
        w3 = dph + dps * c
        n1 = m * R * (dps * dth * s - dw3)
        n2 = m * (g * s - R * dth**2 - R * dps * w3 * c)
        n3 = m * (g * c + R * ddth + R * dps * w3 * s)
        f1, f2, f3 = self._resal(th, ps)
        col = lambda a: np.asarray(a)[..., None]
        return col(n1) * f1 + col(n2) * f2 + col(n3) * f3

    @staticmethod
    def _resal(theta, psi):
        """World components of f1, f2, f3 (each shape (..., 3))."""
        sps, cps, sth, cth = np.sin(psi), np.cos(psi), np.sin(theta), np.cos(theta)
        z = np.zeros_like(sps)
        return (np.stack([cps, sps, z], -1), np.stack([-sps * cth, cps * cth, sth], -1),
                np.stack([sps * sth, -cps * sth, cth], -1))

    def centre(self, y):
        """World position of the centre G = P + R f2, shape (..., 3)."""
        th, ps = np.asarray(y, dtype=float)[:2]
        x, yy = np.asarray(y, dtype=float)[6:8]
        f2 = self._resal(th, ps)[1]
        return np.stack([x, yy, np.zeros_like(x)], -1) + self.R * f2

    def lift_off(self, state0, t_max: float) -> float | None:
        """The time the vertical force of the plane first falls through zero (the disk would be pulled: a
        real disk lifts off there), None if it stays positive up to ``t_max``."""
        return first_zero(self.rhs, state0, lambda y: float(self.contact_force(y)[2]), t_max)

    def falling_lift_off(self, theta0: float) -> tuple[float, float]:
        """Closed form of the lift-off of the disk released at rest at tilt ``theta0`` (no spin, no precession):
        it falls in its plane, (A + m R^2) theta'' = -m g R cos theta, with the energy integral
        theta'^2 = k (sin theta0 - sin theta), k = 2 m g R/(A + m R^2). The vertical force is
        N_z = m (g + z_G''), z_G = R sin theta, i.e. N_z/m = g - R k (cos^2 theta/2 + sin theta (sin theta0 -
        sin theta)); N_z = 0 at s = sin theta solving (3 b/2) s^2 - b s0 s + 1 - b/2 = 0, b = R k/g, the
        larger root reached first while s falls from s0. Returns (theta, time), the time by quadrature of
        dt = dtheta/|theta'|. Independent of the general equations above (a check of them)."""
        from scipy.integrate import quad
        m, R, A, g = self.m, self.R, self.A, self.g
        k = 2.0 * m * g * R / (A + m * R**2)
        b, s0 = R * k / g, np.sin(theta0)
        disc = (b * s0)**2 - 4.0 * 1.5 * b * (1.0 - b / 2.0)
        if not 0.0 < theta0 < np.pi / 2 or disc < 0:
            raise NonholonomicError(f"the disk released at theta0 = {theta0} does not lift off while it falls")
        s = (b * s0 + np.sqrt(disc)) / (3.0 * b)
        theta = float(np.arcsin(s))
        time, _ = quad(lambda th: 1.0 / np.sqrt(k * (s0 - np.sin(th))), theta, theta0, limit=200, epsabs=1e-14)
        return theta, float(time)

    # ---------------------------------------------------------------- world mapping
    def to_world(self, y):
        """Initial conditions of a 3-D rigid-body model consistent with no slip.

        Returns dict(r_0, Q, v_0, w_b): centre (world), unit quaternion (scalar first) of
        T = Rz(psi) Rx(theta) Rz(phi), centre velocity (world), angular velocity (body frame).
        Vectorised: y of shape (8, k) gives arrays with a leading axis k.
        """
        th, ps, ph, dth, dps, dph = np.asarray(y, dtype=float)[:6]
        f1, _, f3 = self._resal(th, ps)
        w3 = dph + dps * np.cos(th)
        v = self.R * (np.asarray(dth)[..., None] * f3 - np.asarray(w3)[..., None] * f1)
        w_b = np.stack([dps * np.sin(th) * np.sin(ph) + dth * np.cos(ph),
                        dps * np.sin(th) * np.cos(ph) - dth * np.sin(ph), w3], -1)
        return {"r_0": self.centre(y), "Q": euler_to_quaternion(ps, th, ph), "v_0": v, "w_b": w_b}

    def from_world(self, r_0, T, v_0, w_0, frame: str = "world", unwrap: bool = True):
        """State (8,) or (8, k) from a 3-D rigid-body state.

        r_0: centre (..., 3); T: body->world matrices (..., 3, 3) or quaternions (..., 4, scalar
        first); v_0: centre velocity (unused: the reduced state does not need it, see
        `slip_velocity` for the constraint residual); w_0: angular velocity in the world frame
        (frame="world") or body frame (frame="body"). Angles come from atan2 in (-pi, pi]; for
        a time series (leading axis k > 1) psi and phi are unwrapped if `unwrap`.
        """
        if frame not in ("world", "body"):
            raise NonholonomicError(f"frame must be 'world' or 'body', got {frame!r}")
        Tm = _as_matrix(T)
        w = np.asarray(w_0, dtype=float)
        w_b = np.einsum("...ji,...j->...i", Tm, w) if frame == "world" else w
        th = np.arccos(np.clip(Tm[..., 2, 2], -1.0, 1.0))
        ps = np.arctan2(Tm[..., 0, 2], -Tm[..., 1, 2])
        ph = np.arctan2(Tm[..., 2, 0], Tm[..., 2, 1])
        if np.any(np.sin(th) < 1e-12):
            raise NonholonomicError("Euler angles singular: the disk lies flat (theta = 0 or pi)")
        if unwrap and np.ndim(ps) == 1 and ps.size > 1:
            ps, ph = np.unwrap(ps), np.unwrap(ph)
        w1, w2, w3 = np.moveaxis(w_b, -1, 0)
        dth = w1 * np.cos(ph) - w2 * np.sin(ph)
        dps = (w1 * np.sin(ph) + w2 * np.cos(ph)) / np.sin(th)
        dph = w3 - dps * np.cos(th)
        P = contact_point(r_0, Tm, self.R)
        return np.array([th, ps, ph, dth, dps, dph, P[..., 0], P[..., 1]])

    def slip_velocity(self, r_0, T, v_0, w_0):
        """Velocity of the material point at the contact, v_0 + w_0 x (P - r_0) (world w_0)."""
        P = contact_point(r_0, T, self.R)
        return np.asarray(v_0, dtype=float) + np.cross(w_0, P - np.asarray(r_0, dtype=float))

    # ---------------------------------------------------------------- steady motions
    def straight_rolling(self, v: float, psi: float = 0.0, x: float = 0.0, y: float = 0.0):
        """(a) Upright disk rolling straight at speed v along (cos psi, sin psi): phi' = -v/R."""
        return np.array([np.pi / 2, psi, 0.0, 0.0, 0.0, -v / self.R, x, y])

    def spin_about_diameter(self, Omega: float, psi: float = 0.0, x: float = 0.0, y: float = 0.0):
        """(b) Upright disk spinning about its vertical diameter at rate Omega (any Omega).

        Returns (state, info): info has `Omega2_critical` = m g R / (A + m R^2) (linearly stable
        iff Omega^2 exceeds it) and `nutation_frequency` = sqrt(Omega^2 - Omega2_critical)
        (rad/s; NaN when unstable), the angular frequency of small theta oscillations.
        """
        crit = self.m * self.g * self.R / (self.A + self.m * self.R**2)
        nu = np.sqrt(Omega**2 - crit) if Omega**2 > crit else np.nan
        state = np.array([np.pi / 2, psi, 0.0, 0.0, Omega, 0.0, x, y])
        return state, {"Omega2_critical": crit, "nutation_frequency": nu}

    def steady_circle(self, theta0: float, radius: float | None = None,
                      precession: float | None = None, radius_centre: float | None = None,
                      sign: float = 1.0):
        """(c) Steady rolling on a circle at constant tilt theta0 (see module docstring).

        Give exactly one of: `radius` = signed radius rho of the contact-point circle,
        `radius_centre` = signed radius rho_G = rho - R cos theta0 of the centre's circle, or
        `precession` = psi' (then `sign` is ignored). With a radius, psi' = sign * |Omega|.
        Returns a dict with psi_dot, phi_dot, omega3, radius, radius_centre, speed (of the contact
        point), speed_centre, and `state`: the 8-state with psi = phi = 0 placed so that both
        circles are centred at the world origin (contact point at (0, -rho)).
        """
        m, R, A, C, g = self.m, self.R, self.A, self.C, self.g
        if not 0.0 < theta0 < np.pi:
            raise NonholonomicError(f"theta0 must be in (0, pi), got {theta0}")
        if sum(v is not None for v in (radius, precession, radius_centre)) != 1:
            raise NonholonomicError("give exactly one of radius, radius_centre, precession")
        s, c = np.sin(theta0), np.cos(theta0)
        J = C + m * R**2
        if precession is not None:
            Om = float(precession)
            if Om == 0.0:
                raise NonholonomicError("precession must be non-zero")
            rho = R * c * ((J - A) + m * g * R / (Om**2 * s)) / J
        else:
            rho = float(radius) if radius is not None else float(radius_centre) + R * c
            if abs(c) < 1e-14:
                raise NonholonomicError("an upright disk cannot roll on a circle; for theta0 = "
                                        "pi/2 use spin_about_diameter or straight_rolling")
            den = s * (J * rho / R - (J - A) * c)
            om2 = m * g * R * c / den if den != 0.0 else -1.0
            if not om2 > 0.0:
                raise NonholonomicError(f"no steady circular rolling with theta0 = {theta0} and "
                                        f"contact-circle radius {rho} (Omega^2 = {om2} <= 0)")
            Om = np.copysign(np.sqrt(om2), sign)
        dph = -rho * Om / R
        w3 = dph + Om * c
        state = np.array([theta0, 0.0, 0.0, 0.0, Om, dph, 0.0, -rho])
        return {"psi_dot": Om, "phi_dot": dph, "omega3": w3, "radius": rho,
                "radius_centre": rho - R * c, "speed": abs(R * dph),
                "speed_centre": abs(Om * (rho - R * c)), "state": state}

    # ---------------------------------------------------------------- simulation
    def simulate(self, state0, t_eval, rtol=1e-11, atol=1e-12, method="DOP853"):
        """Integrate; DataFrame with time, theta, psi, phi, theta_dot, psi_dot, phi_dot, x, y
        (contact point), energy, and also omega3, x0, y0, z0 (centre), Fx, Fy, Fz (force of the
        plane on the disk, world)."""
        state0 = np.asarray(state0, dtype=float)
        if state0.shape != (8,):
            raise NonholonomicError(f"state0 must have the 8 entries {STATE}, got {state0.shape}")
        if not 0.0 < state0[0] < np.pi:
            raise NonholonomicError(f"theta must be in (0, pi), got {state0[0]}")
        y = _integrate(self.rhs, state0, t_eval, rtol, atol, method)
        G, F = self.centre(y), self.contact_force(y)
        return pd.DataFrame({"time": np.asarray(t_eval, dtype=float), **dict(zip(STATE, y)),
                             "energy": self.energy(y), "omega3": y[5] + y[4] * np.cos(y[0]),
                             "x0": G[:, 0], "y0": G[:, 1], "z0": G[:, 2],
                             "Fx": F[:, 0], "Fy": F[:, 1], "Fz": F[:, 2]})
