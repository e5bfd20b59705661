"""Chaplygin ball: a balanced, dynamically asymmetric ball rolling without slipping on the
horizontal plane z = 0.

S.A. Chaplygin, "On a ball's rolling on a horizontal plane", Mat. Sbornik 24 (1903) 139-168
(seed 003, ref. [119]; listed in seed 003 as an integrable classical problem). The equations are
derived here from the generic rolling equations (6.4)-(6.5) of seed 003 with r = -R gamma (the
centre of mass is the geometric centre); they are checked (tests/test_reference_disk_and_
chaplygin_ball.py) against a brute-force 3-D Newton-Euler model with the no-slip constraint
differentiated, and by the four integrals.

Parameters: mass m, radius R, principal central moments I1, I2, I3 (any positive values
satisfying the triangle inequalities), gravity g (it enters only the contact force and the
potential energy, which is constant: the centre stays at height R).

Frames and conventions
----------------------
World frame: z up, gravity (0, 0, -g), plane z = 0. Body frame: principal axes through the centre
(inertia I = diag(I1, I2, I3)). Attitude: unit quaternion Q = (q0, q1, q2, q3), scalar first;
T = T(Q) resolves body vectors in the world frame (v_world = T v_body). All of omega, M, gamma are
body components; gamma = T^T ez is the upward vertical (plane normal), so the contact point is
r = -R gamma from the centre and the centre is r_0 = (x, y, R) over the contact point (x, y, 0).

Equations (derived here; CHECKED against the brute-force 3-D model)
-------------------------------------------------------------------
No slip (6.4): v = -omega x r = R omega x gamma (body components of the centre velocity).
Angular momentum about the contact point, with gamma^2 = 1:

    M = I omega + m (R gamma) x v = I omega + m R^2 (omega - (omega, gamma) gamma)

Gravity acts at the centre, along gamma, and the reaction acts at P, so neither has a moment
about P; with (6.5) (dM/dt + omega x M = moment about P - v_P x m v, v_P the velocity of the
geometric contact point = v here, and v x v = 0):

    M' = M x omega,     gamma' = gamma x omega,

Inversion (J = I + m R^2 E, diagonal; denominator = sum gamma_i^2 I_i/(I_i + m R^2) > 0):

    omega = J^-1 M + m R^2 (omega, gamma) J^-1 gamma,
    (omega, gamma) = (J^-1 M, gamma) / (1 - m R^2 (J^-1 gamma, gamma))

Integrals: energy E = 1/2 (M, omega) (kinetic energy 1/2 (omega, I omega) + 1/2 m v^2; the constant
potential m g R is NOT included), the area integral (M, gamma), M^2 = (M, M), gamma^2 = 1.

Absolute motion: Q' = 1/2 Q o (0, omega); the contact point moves with the centre,
(x', y') = R (omega_w,y, -omega_w,x), omega_w = T omega (world angular velocity), since
v_world = omega_w x (R ez). The state integrates gamma AND Q; the identity gamma = T(Q)^T ez is a
further check (`attitude_residual`).

State y = (M1, M2, M3, gamma1, gamma2, gamma3, q0, q1, q2, q3, x, y), 12 entries.
Contact force on the ball (world): F = m a_0 + m g ez, a_0 = R (omega_w)' x ez (tangential part
from the rolling acceleration, vertical part m g).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from nonholonomic.errors import NonholonomicError
from nonholonomic.references.common import (
    attitude_residual, integrate as _integrate, matrix_to_quaternion, quaternion_to_matrix)

STATE = ("M1", "M2", "M3", "gamma1", "gamma2", "gamma3", "q0", "q1", "q2", "q3", "x", "y")


# ------------------------------------------------------------------------------ rotations
def _quat_mul(p, q):
    p0, p1, p2, p3 = p
    q0, q1, q2, q3 = q
    return np.array([p0 * q0 - p1 * q1 - p2 * q2 - p3 * q3, p0 * q1 + p1 * q0 + p2 * q3 - p3 * q2,
                     p0 * q2 - p1 * q3 + p2 * q0 + p3 * q1, p0 * q3 + p1 * q2 - p2 * q1 + p3 * q0])


# ------------------------------------------------------------------------------ model
class ChaplyginBall:
    """Balanced asymmetric ball rolling without slipping on z = 0; see the module docstring."""

    def __init__(self, m: float, R: float, I1: float, I2: float, I3: float, g: float = 9.81):
        m, R, I1, I2, I3, g = (float(v) for v in (m, R, I1, I2, I3, g))
        if not (m > 0 and R > 0 and I1 > 0 and I2 > 0 and I3 > 0):
            raise NonholonomicError(f"m, R, I1, I2, I3 must be positive, got {m}, {R}, {I1}, "
                                    f"{I2}, {I3}")
        tol = 1e-12 * (I1 + I2 + I3)
        if I1 > I2 + I3 + tol or I2 > I1 + I3 + tol or I3 > I1 + I2 + tol:
            raise NonholonomicError(f"principal moments violate the triangle inequality: "
                                    f"{I1}, {I2}, {I3}")
        if not np.isfinite(g):
            raise NonholonomicError(f"g must be finite, got {g}")
        self.m, self.R, self.g = m, R, g
        self.I = np.array([I1, I2, I3])
        self.J = self.I + m * R**2  # diag(I + m R^2 E)

    # ---------------------------------------------------------------- reduced system
    def omega(self, M, gamma):
        """Body angular velocity from M and gamma (arrays with the 3 components first)."""
        M, gamma = np.asarray(M, dtype=float), np.asarray(gamma, dtype=float)
        shape = (3,) + (1,) * (M.ndim - 1)
        Jinv = 1.0 / self.J.reshape(shape)
        mr2 = self.m * self.R**2
        wg = np.sum(Jinv * M * gamma, axis=0) / (1.0 - mr2 * np.sum(Jinv * gamma**2, axis=0))
        return Jinv * (M + mr2 * wg * gamma)

    def angular_momentum(self, omega, gamma):
        """M = I omega + m R^2 (omega - (omega, gamma) gamma) (3 components first)."""
        omega, gamma = np.asarray(omega, dtype=float), np.asarray(gamma, dtype=float)
        shape = (3,) + (1,) * (omega.ndim - 1)
        return self.I.reshape(shape) * omega \
            + self.m * self.R**2 * (omega - np.sum(omega * gamma, axis=0) * gamma)

    def rhs(self, t, y):
        """d/dt of the 12-state (shape (12,) or (12, k))."""
        y = np.asarray(y, dtype=float)
        M, gamma, q = y[0:3], y[3:6], y[6:10]
        w = self.omega(M, gamma)
        dq = 0.5 * _quat_mul(q, np.concatenate([np.zeros_like(w[:1]), w]))
        ww = self._world_omega(q, w)
        return np.concatenate([np.cross(M, w, axis=0), np.cross(gamma, w, axis=0), dq,
                               [self.R * ww[1], -self.R * ww[0]]])

    @staticmethod
    def _world_omega(q, w):
        T = quaternion_to_matrix(np.moveaxis(q, 0, -1))
        return np.moveaxis(np.einsum("...ij,...j->...i", T, np.moveaxis(w, 0, -1)), -1, 0)

    def integrals(self, y):
        """dict(energy, M_gamma, M_squared, gamma_squared, quat_norm); y is (12,) or (12, k).

        energy = 1/2 (M, omega) = kinetic energy in joules (potential m g R omitted: constant).
        """
        y = np.asarray(y, dtype=float)
        M, gamma = y[0:3], y[3:6]
        w = self.omega(M, gamma)
        return {"energy": 0.5 * np.sum(M * w, axis=0), "M_gamma": np.sum(M * gamma, axis=0),
                "M_squared": np.sum(M * M, axis=0),
                "gamma_squared": np.sum(gamma * gamma, axis=0),
                "quat_norm": np.sqrt(np.sum(y[6:10]**2, axis=0))}

    def energy(self, y):
        return self.integrals(y)["energy"]

    def attitude_residual(self, y):
        """|gamma - T(Q)^T ez|: consistency of the integrated gamma with the quaternion."""
        y = np.asarray(y, dtype=float)
        return attitude_residual(y[3:6], y[6:10])

    def contact_force(self, y):
        """Force of the plane on the ball, world (..., 3): m R (omega_w)' x ez + m g ez."""
        y = np.asarray(y, dtype=float)
        dy = self.rhs(0.0, y)
        M, gamma, q = y[0:3], y[3:6], y[6:10]
        # omega' from d/dt of M = I w + m R^2 (w - (w, g) g): solve (J - m R^2 g g^T) w' = rhs
        w = self.omega(M, gamma)
        dgamma = dy[3:6]
        mr2 = self.m * self.R**2
        b = dy[0:3] + mr2 * (np.sum(w * dgamma, axis=0) * gamma
                             + np.sum(w * gamma, axis=0) * dgamma)
        dw = self.omega(b, gamma)  # the same linear map as M -> omega
        dww = self._world_omega(q, dw)  # (T w)' = T w' since T' w = T (w x w) = 0
        m, R, g = self.m, self.R, self.g
        return np.moveaxis(np.array([m * R * dww[1], -m * R * dww[0],
                                     m * g * np.ones_like(dww[0])]), 0, -1)

    # ---------------------------------------------------------------- states and world mapping
    def state(self, omega, Q=(1.0, 0.0, 0.0, 0.0), x: float = 0.0, y: float = 0.0):
        """12-state from body angular velocity omega, attitude Q (scalar first), contact (x, y)."""
        Q = np.asarray(Q, dtype=float)
        if Q.shape != (4,) or not np.linalg.norm(Q) > 0:
            raise NonholonomicError(f"Q must be a non-zero quaternion (4,), got {Q}")
        Q = Q / np.linalg.norm(Q)
        gamma = quaternion_to_matrix(Q)[2, :]
        M = self.angular_momentum(np.asarray(omega, dtype=float), gamma)
        return np.concatenate([M, gamma, Q, [x, y]])

    def to_world(self, y):
        """Initial conditions of a 3-D rigid-body model consistent with no slip.

        dict(r_0, Q, v_0, w_b): centre (x, y, R), quaternion (scalar first, from the state),
        centre velocity (world) = R omega_w x ez, body angular velocity omega(M, gamma).
        Vectorised: y of shape (12, k) gives arrays with a leading axis k.
        """
        y = np.asarray(y, dtype=float)
        w = self.omega(y[0:3], y[3:6])
        ww = self._world_omega(y[6:10], w)
        r0 = np.array([y[10], y[11], self.R * np.ones_like(y[10])])
        v0 = np.array([self.R * ww[1], -self.R * ww[0], np.zeros_like(ww[0])])
        mv = lambda a: np.moveaxis(a, 0, -1)
        return {"r_0": mv(r0), "Q": mv(y[6:10]), "v_0": mv(v0), "w_b": mv(w)}

    def from_world(self, r_0, T, v_0, w_0, frame: str = "world", continuous: bool = True):
        """12-state (or (12, k)) from a 3-D rigid-body state.

        r_0: centre (..., 3) (its height should be R); T: body->world matrices (..., 3, 3) or
        quaternions (..., 4, scalar first, passed through normalised); v_0: centre velocity
        (unused, see `slip_velocity`); w_0: angular velocity, world frame (frame="world") or body
        frame (frame="body"). Contact point = (r_0x, r_0y). Quaternions from matrices follow
        `matrix_to_quaternion(T, continuous)` (sign-continuous along a time series).
        """
        if frame not in ("world", "body"):
            raise NonholonomicError(f"frame must be 'world' or 'body', got {frame!r}")
        T = np.asarray(T, dtype=float)
        if T.shape[-1] == 4:
            Q = T / np.linalg.norm(T, axis=-1, keepdims=True)
            Tm = quaternion_to_matrix(Q)
        elif T.shape[-2:] == (3, 3):
            Tm, Q = T, matrix_to_quaternion(T, continuous)
        else:
            raise NonholonomicError(f"attitude must be (..., 3, 3) or (..., 4), got {T.shape}")
        w = np.asarray(w_0, dtype=float)
        w_b = np.einsum("...ji,...j->...i", Tm, w) if frame == "world" else w
        gamma = Tm[..., 2, :]
        mv = lambda a: np.moveaxis(a, -1, 0)
        M = self.angular_momentum(mv(w_b), mv(gamma))
        r = mv(np.asarray(r_0, dtype=float))
        return np.concatenate([M, mv(gamma), mv(Q), r[:2]])

    def slip_velocity(self, r_0, v_0, w_0):
        """Velocity of the material point at the contact: v_0 + w_0 x (-R ez) (world w_0)."""
        return np.asarray(v_0, dtype=float) + np.cross(w_0, [0.0, 0.0, -self.R])

    # ---------------------------------------------------------------- simulation
    def simulate(self, state0, t_eval, rtol=1e-11, atol=1e-12, method="DOP853"):
        """Integrate; DataFrame with time, M1..M3, gamma1..gamma3, omega1..omega3, q0..q3, x, y
        (contact point), energy, M_gamma = (M, gamma), M_squared = (M, M), gamma_squared =
        (gamma, gamma), quat_norm = |Q|, attitude_residual = |gamma - T(Q)^T ez|."""
        state0 = np.asarray(state0, dtype=float)
        if state0.shape != (12,):
            raise NonholonomicError(f"state0 must have the 12 entries {STATE}, got {state0.shape}")
        y = _integrate(self.rhs, state0, t_eval, rtol, atol, method)
        w = self.omega(y[0:3], y[3:6])
        cols = dict(zip(STATE, y))
        df = pd.DataFrame({"time": np.asarray(t_eval, dtype=float),
                           **{k: cols[k] for k in STATE[:6]},
                           "omega1": w[0], "omega2": w[1], "omega3": w[2],
                           **{k: cols[k] for k in STATE[6:]}})
        for k, v in self.integrals(y).items():
            df[k] = v
        df["attitude_residual"] = self.attitude_residual(y)
        return df
