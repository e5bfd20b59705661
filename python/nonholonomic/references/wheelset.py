"""Ideal wheelset: two disks on a horizontal axle, each on a revolute joint, rolling on a plane.

Reference model for the wheelset example of seed 002 (I.I. Kosenko, "Object-oriented multiport
modelling of multibody systems", 2022, Section 3). The seed gives no equations: it says that a rigid
wheel-axle joint is statically indeterminate along the axle (so the Modelica model adds compliance
in the joints along the axle) and that the compliant model agrees with an "ideal model" built from
the translational-rotational equations of the separate bodies. This module is that ideal model,
derived here from Newton-Euler and Lagrange-d'Alembert (no seed formula to correct; the only seed
misprint that matters, Euler's equation printed without I on dOmega/dt, is avoided by the brute-force
check in tests/test_reference_sleigh_and_wheelset.py, which uses I alpha + w x I w = torque).

Bodies and parameters
---------------------
* wheels 1 and 2: identical thin disks (any axisymmetric wheel), mass m_w, radius R, central
  moments A about a diameter and C about the symmetry axis (thin uniform disk: A = m_w R^2/4,
  C = m_w R^2/2, see `thin_disk`);
* axle: a body of revolution about its own axis (e.g. a uniform cylinder, see `cylinder_axle`),
  mass m_a, centre of mass at the midpoint, central moment J_a about ANY diameter (in particular the
  vertical) and C_a about its own axis. Axial symmetry of the axle is assumed: it is what decouples
  the axle's spin (below);
* the wheel centres are at distance b on either side of the axle midpoint (track 2b);
* optional joint (motor) torques tau1, tau2: the axle drives wheel i by tau_i about the axle
  direction n and receives -tau_i (default 0: the free wheelset of the brief);
* gravity g (only enters the normal reactions).

Conventions
-----------
World frame: z up (k = (0, 0, 1)), plane z = 0. psi = heading = angle of the forward direction
e_f (horizontal, perpendicular to the axle) from world x:

    e_f = (cos psi, sin psi, 0),    n = k x e_f = (-sin psi, cos psi, 0)   (axle direction)

n points from wheel 1 to wheel 2, so wheel 1 is on the RIGHT and wheel 2 on the LEFT when facing
e_f. M = (x, y, R) is the axle midpoint (system centre of mass); the wheel centres are
G1 = M - b n, G2 = M + b n; the contact points K1 = G1 - R k, K2 = G2 - R k, i.e.

    (x1, y1) = (x + b sin psi, y - b cos psi),   (x2, y2) = (x - b sin psi, y + b cos psi).

Angles about the axle (all right-handed about +n; positive = rolling forward along e_f):
phi_i = rotation of wheel i relative to the "heading frame" (e_f, -k, n) that only yaws with psi;
chi = the same for the axle. Angular velocities: w_axle = psi' k + chi' n, w_i = psi' k + phi_i' n.
The JOINT angle of wheel i (relative to the axle) is phi_i - chi.

State y = (x, y, psi, phi1, phi2, chi, dphi1, dphi2, dchi).

Constraints
-----------
No slip at K_i: v_Gi + w_i x (-R k) = v_Gi - R phi_i' e_f = 0, with v_G1 = v_M + b psi' e_f,
v_G2 = v_M - b psi' e_f. The two lateral components both say v_M . n = 0 (ONE independent
condition: this is Kosenko's static indeterminacy, only the sum of the lateral contact forces is
determined). Hence

    v_M = v e_f,   v = R (phi1' + phi2') / 2,   omega = psi' = R (phi1' - phi2') / (2 b).

Equations of motion (Lagrange-d'Alembert, derived here)
------------------------------------------------------
Kinetic energy on the constraint, with M_t = m_a + 2 m_w, J_t = J_a + 2 A + 2 m_w b^2:

    T = 1/2 M_t v^2 + 1/2 J_t omega^2 + 1/2 C (phi1'^2 + phi2'^2) + 1/2 C_a chi'^2.

Virtual displacements dphi1, dphi2, dchi (with dr_M = R(dphi1+dphi2)/2 e_f, dpsi = R(dphi1-dphi2)/(2b));
the centripetal acceleration v omega n of M and the gyroscopic terms C phi_i' psi' (k x n) do no
virtual work, so

    (C + M_t R^2/2)      (phi1'' + phi2'') = tau1 + tau2
    (C + J_t R^2/(2b^2)) (phi1'' - phi2'') = tau1 - tau2
    C_a chi'' = -(tau1 + tau2)

(the same follows from Newton-Euler: C phi_i'' = tau_i - R f_i, M_t v' = f1 + f2,
J_t omega' = b (f1 - f2), f_i = longitudinal contact force on wheel i along e_f).
Kinematics: x' = v cos psi, y' = v sin psi, psi' = omega.

The axle's spin about its own axis: no constraint acts on it and, the axle being axisymmetric,
its angular momentum component C_a chi' along n changes only by joint torques along n; so chi'
is CONSERVED and DECOUPLED in the free wheelset (chi'' = 0; chi only enters the world mapping and
the normal reactions through the gyroscopic couple). With motor torques chi'' = -(tau1+tau2)/C_a,
which needs C_a > 0.

Reactions (forces of the plane on wheel i: f_i e_f + g_i n + N_i k)
    f_i = (tau_i - C phi_i'') / R,   g1 + g2 = M_t v omega (only the sum is determined),
    N1 + N2 = M_t g,   N2 - N1 = -omega [C (phi1' + phi2') + C_a chi' + M_t R v] / b,
the last from the roll component (along e_f) of the angular momentum balance about M:
d/dt [J_t omega k + (C (phi1' + phi2') + C_a chi') n] = sum (r_Ki - M) x F_i.

First integrals and closed form of the free wheelset (tau = 0)
--------------------------------------------------------------
phi1', phi2', chi' are constant, hence v and omega are constant and the energy T is conserved.
The midpoint moves uniformly on a circle of radius |v/omega| about (x, y) + (v/omega) n(psi0)
(a straight line if phi1' = phi2'); psi = psi0 + omega t,
x = x0 + (v/omega)(sin psi - sin psi0), y = y0 - (v/omega)(cos psi - cos psi0).
With torques the energy balance is dT/dt = tau1 (phi1' - chi') + tau2 (phi2' - chi').

World mapping (three bodies; quaternions scalar first, T resolves body vectors in the world frame)
-------------------------------------------------------------------------------------------------
Each body frame has its z axis along n; at zero spin angle its x axis is e_f and its y axis -k:

    T_axle = Rz(psi) Rx(-pi/2) Rz(chi),    T_wheel_i = Rz(psi) Rx(-pi/2) Rz(phi_i)

(Rx(-pi/2) maps body (x, y, z) to world (x, -z, y); so T_axle^T T_wheel_i = Rz(phi_i - chi):
a revolute joint about the common z axis). r_0: axle M = (x, y, R), wheels G_i; v_0: axle v e_f,
wheel i R phi_i' e_f; w_0: axle psi' k + chi' n, wheel i psi' k + phi_i' n. See `to_world`,
`from_world`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from nonholonomic.errors import NonholonomicError
from nonholonomic.references.common import body_attitude, integrate, quaternion_product, quaternion_to_matrix

STATE = ("x", "y", "psi", "phi1", "phi2", "chi", "dphi1", "dphi2", "dchi")
COLUMNS = ("time", "x", "y", "psi", "phi1", "phi2", "chi", "dphi1", "dphi2", "dchi",
           "v", "omega", "energy", "x1", "y1", "x2", "y2")
BODIES = ("axle", "wheel1", "wheel2")


def thin_disk(m_w: float, R: float):
    """(A, C) of a thin uniform disk: A = m R^2/4 about a diameter, C = m R^2/2 about its axis."""
    return 0.25 * m_w * R * R, 0.5 * m_w * R * R


def cylinder_axle(m_a: float, length: float, radius: float):
    """(J_a, C_a) of a uniform solid cylinder: J_a = m (3 r^2 + L^2)/12, C_a = m r^2/2."""
    return m_a * (3.0 * radius**2 + length**2) / 12.0, 0.5 * m_a * radius**2


# ---------------------------------------------------------------------- rotations (scalar first)
def _qz(angle):
    z = np.zeros_like(angle)
    return np.stack([np.cos(0.5 * angle), z, z, np.sin(0.5 * angle)], axis=-1)


_Q_TILT = np.array([np.sqrt(0.5), -np.sqrt(0.5), 0.0, 0.0])  # Rx(-pi/2)


def _attitude(psi, spin):
    """Quaternion of Rz(psi) Rx(-pi/2) Rz(spin)."""
    return quaternion_product(quaternion_product(_qz(psi), np.broadcast_to(_Q_TILT, np.shape(psi) + (4,))), _qz(spin))


class Wheelset:
    """Ideal wheelset; see the module docstring for the conventions and equations."""

    def __init__(self, m_w: float, R: float, A: float, C: float, m_a: float, J_a: float,
                 C_a: float, b: float, g: float = 9.81):
        vals = dict(m_w=m_w, R=R, A=A, C=C, m_a=m_a, J_a=J_a, C_a=C_a, b=b, g=g)
        for name, val in vals.items():
            if not np.isfinite(float(val)):
                raise NonholonomicError(f"{name} must be finite, got {val}")
        for name in ("m_w", "R", "C", "b"):
            if float(vals[name]) <= 0.0:
                raise NonholonomicError(f"{name} must be positive, got {vals[name]}")
        for name in ("A", "m_a", "J_a", "C_a"):
            if float(vals[name]) < 0.0:
                raise NonholonomicError(f"{name} must be >= 0, got {vals[name]}")
        self.m_w, self.R, self.A, self.C = float(m_w), float(R), float(A), float(C)
        self.m_a, self.J_a, self.C_a, self.b, self.g = float(m_a), float(J_a), float(C_a), float(b), float(g)
        self.M_t = self.m_a + 2.0 * self.m_w                               # total mass
        self.J_t = self.J_a + 2.0 * self.A + 2.0 * self.m_w * self.b**2    # yaw inertia about M
        self.k_sum = self.C + 0.5 * self.M_t * self.R**2                   # (phi1'' + phi2'') coefficient
        self.k_diff = self.C + 0.5 * self.J_t * self.R**2 / self.b**2      # (phi1'' - phi2'') coefficient

    # ------------------------------------------------------------------ helpers
    def _torques(self, torques, t, y):
        if torques is None:
            return 0.0, 0.0
        tau = torques(t, y) if callable(torques) else torques
        tau1, tau2 = (np.asarray(z, dtype=float) for z in tau)
        if self.C_a == 0.0 and np.any(tau1 + tau2 != 0.0):
            raise NonholonomicError("motor torques need C_a > 0 (the axle spin is otherwise undetermined)")
        return tau1, tau2

    def speeds(self, y):
        """(v, omega): forward speed of the midpoint along e_f and yaw rate, from dphi1, dphi2."""
        return 0.5 * self.R * (y[6] + y[7]), 0.5 * self.R * (y[6] - y[7]) / self.b

    def contact_points(self, y):
        """(x1, y1, x2, y2): contact points of wheels 1 (right) and 2 (left) on the plane."""
        s, c = np.sin(y[2]), np.cos(y[2])
        b = self.b
        return y[0] + b * s, y[1] - b * c, y[0] - b * s, y[1] + b * c

    # ------------------------------------------------------------------ equations
    def accelerations(self, y, tau1=0.0, tau2=0.0):
        """(phi1'', phi2'', chi'') for joint torques tau1, tau2 (module docstring)."""
        s = (tau1 + tau2) / self.k_sum
        d = (tau1 - tau2) / self.k_diff
        dchi = -(tau1 + tau2) / self.C_a if self.C_a > 0.0 else 0.0 * s
        return 0.5 * (s + d) + 0.0 * y[6], 0.5 * (s - d) + 0.0 * y[7], dchi + 0.0 * y[8]

    def rhs(self, t, y, torques=None):
        """dy/dt; y has shape (9,) or (9, k). torques: None, (tau1, tau2) or callable(t, y)."""
        tau1, tau2 = self._torques(torques, t, y)
        v, w = self.speeds(y)
        a1, a2, a3 = self.accelerations(y, tau1, tau2)
        return np.array([v * np.cos(y[2]), v * np.sin(y[2]), w, y[6], y[7], y[8], a1, a2, a3])

    def energy(self, y):
        """Kinetic energy T = 1/2 M_t v^2 + 1/2 J_t omega^2 + 1/2 C (phi1'^2 + phi2'^2) + 1/2 C_a chi'^2."""
        v, w = self.speeds(y)
        return 0.5 * self.M_t * v**2 + 0.5 * self.J_t * w**2 \
            + 0.5 * self.C * (y[6] ** 2 + y[7] ** 2) + 0.5 * self.C_a * y[8] ** 2

    def reactions(self, y, tau1=0.0, tau2=0.0):
        """Contact forces of the plane on the wheels: dict f1, f2 (along e_f), g_sum (= g1 + g2,
        along n; the split is statically indeterminate), N1, N2 (along k), in newtons."""
        v, w = self.speeds(y)
        a1, a2, _ = self.accelerations(y, tau1, tau2)
        f1 = (tau1 - self.C * a1) / self.R
        f2 = (tau2 - self.C * a2) / self.R
        diff = -w * (self.C * (y[6] + y[7]) + self.C_a * y[8] + self.M_t * self.R * v) / self.b
        total = self.M_t * self.g
        return {"f1": f1, "f2": f2, "g_sum": self.M_t * v * w,
                "N1": 0.5 * (total - diff), "N2": 0.5 * (total + diff)}

    def _frame(self, y, t):
        y = np.asarray(y, dtype=float)
        v, w = self.speeds(y)
        x1, y1, x2, y2 = self.contact_points(y)
        return pd.DataFrame({"time": t, **dict(zip(STATE, y)), "v": v, "omega": w,
                             "energy": self.energy(y), "x1": x1, "y1": y1, "x2": x2, "y2": y2})

    def simulate(self, state0, t_eval, torques=None, rtol=1e-12, atol=1e-12, method="DOP853"):
        """Integrate; DataFrame with COLUMNS (time, x, y, psi, phi1, phi2, chi, dphi1, dphi2, dchi,
        v, omega, energy, x1, y1, x2, y2)."""
        y0 = np.asarray(state0, dtype=float)
        if y0.shape != (9,):
            raise NonholonomicError(f"state0 must be 9 finite numbers {STATE}, got {state0!r}")
        t_eval = np.asarray(t_eval, dtype=float)
        return self._frame(integrate(lambda t, y: self.rhs(t, y, torques), y0, t_eval, rtol, atol, method), t_eval)

    # ------------------------------------------------------------------ closed form (tau = 0)
    def closed_form(self, state0, t):
        """Exact free motion from state0 at t = 0; DataFrame with the columns of `simulate`."""
        t = np.asarray(t, dtype=float)
        y0 = np.asarray(state0, dtype=float)
        v, w = self.speeds(y0)
        psi = y0[2] + w * t
        # (v/w)(sin psi - sin psi0) = v t cos(psi0 + w t/2) sinc(w t/2): also right for w -> 0
        half = 0.5 * w * t
        chord = v * t * np.sinc(half / np.pi)
        x = y0[0] + chord * np.cos(y0[2] + half)
        yy = y0[1] + chord * np.sin(y0[2] + half)
        one = np.ones_like(t)
        y = np.array([x, yy, psi, y0[3] + y0[6] * t, y0[4] + y0[7] * t, y0[5] + y0[8] * t,
                      y0[6] * one, y0[7] * one, y0[8] * one])
        return self._frame(y, t)

    def circle(self, state):
        """dict(xc, yc, radius, v, omega) of the free motion; xc = yc = radius = inf if straight."""
        v, w = self.speeds(np.asarray(state, dtype=float))
        if w == 0.0:
            return {"xc": np.inf, "yc": np.inf, "radius": np.inf, "v": v, "omega": w}
        rho = v / w
        return {"xc": state[0] - rho * np.sin(state[2]), "yc": state[1] + rho * np.cos(state[2]),
                "radius": abs(rho), "v": v, "omega": w}

    # ------------------------------------------------------------------ world mapping
    def to_world(self, state):
        """{'axle': {...}, 'wheel1': {...}, 'wheel2': {...}}, each dict(r_0, Q, T, v_0, w_0).

        state (9,) gives (3,), (4,), (3, 3) arrays; state (9, k) gives (k, 3), (k, 4), (k, 3, 3).
        """
        y = np.asarray(state, dtype=float)
        x, yy, psi, phi1, phi2, chi, d1, d2, dchi = y
        v, w = self.speeds(y)
        c, s = np.cos(psi), np.sin(psi)
        zero = np.zeros_like(psi)
        ef = np.stack([c, s, zero], axis=-1)
        n = np.stack([-s, c, zero], axis=-1)
        k = np.stack([zero, zero, zero + 1.0], axis=-1)
        mid = np.stack([x, yy, zero + self.R], axis=-1)
        col = lambda a: np.asarray(a)[..., None]
        out = {}
        for name, pos, vel, spin, rate in (
                ("axle", mid, col(v) * ef, chi, dchi),
                ("wheel1", mid - self.b * n, col(self.R * d1) * ef, phi1, d1),
                ("wheel2", mid + self.b * n, col(self.R * d2) * ef, phi2, d2)):
            Q = _attitude(psi, spin)
            out[name] = {"r_0": pos, "Q": Q, "T": quaternion_to_matrix(Q), "v_0": vel,
                         "w_0": col(w) * k + col(rate) * n}
        return out

    def from_world(self, axle, wheel1, wheel2, tol: float | None = 1e-6):
        """State (9,) (or (9, k)) from the three bodies' world kinematics.

        Each argument is a dict with r_0, v_0, w_0 and the attitude as Q (scalar first, sign free)
        or T (as returned by `to_world`; Q is used when both are given). Angles come back in
        (-pi, pi]. With `tol` set, a violation of the holonomic geometry (axle horizontal at height
        R, wheel centres at +-b n, wheel axes along the axle), of the joints, or of rolling without
        slipping larger than tol (m, m/s, rad/s or matrix units) raises NonholonomicError.
        """
        Ta, T1, T2 = (body_attitude(bd, lb) for bd, lb in ((axle, "axle"), (wheel1, "wheel1"), (wheel2, "wheel2")))
        n = Ta[..., :, 2]
        psi = np.arctan2(-n[..., 0], n[..., 1])
        T0 = quaternion_to_matrix(_attitude(psi, np.zeros_like(psi)))  # Rz(psi) Rx(-pi/2)

        def spin(T):
            M = np.swapaxes(T0, -1, -2) @ T  # should be Rz(spin)
            return np.arctan2(M[..., 1, 0], M[..., 0, 0]), M

        chi, Ma = spin(Ta)
        phi1, M1 = spin(T1)
        phi2, M2 = spin(T2)
        ra, wa = (np.asarray(axle[z], dtype=float) for z in ("r_0", "w_0"))
        w1, w2 = (np.asarray(bd["w_0"], dtype=float) for bd in (wheel1, wheel2))
        dot = lambda a, b: np.sum(a * b, axis=-1)
        dchi, d1, d2 = dot(wa, n), dot(w1, n), dot(w2, n)
        state = np.array([ra[..., 0], ra[..., 1], psi, phi1, phi2, chi, d1, d2, dchi])
        if tol is not None:
            ref = self.to_world(state)
            resid = [np.abs(M[..., 2, 2] - 1.0) for M in (Ma, M1, M2)]
            for name, body in (("axle", axle), ("wheel1", wheel1), ("wheel2", wheel2)):
                for key in ("r_0", "v_0", "w_0"):
                    resid.append(np.abs(np.asarray(body[key], dtype=float) - ref[name][key]))
            worst = max(float(np.max(r)) for r in resid)
            if worst > tol:
                raise NonholonomicError(f"world state violates the wheelset constraints "
                                        f"(residual {worst:.3g} > tol {tol:g})")
        return state
