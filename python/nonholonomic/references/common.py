"""What the reference models share: integration of their ODEs, and quaternion conversions.

Quaternions are scalar first, q = (q0, q1, q2, q3); rotation matrices resolve body-frame vectors in the
world frame. All functions are vectorised over leading axes.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.integrate import solve_ivp

from nonholonomic.errors import NonholonomicError


def finite_number(label: str, value) -> float:
    """``value`` as a float, or one NonholonomicError line naming ``label`` if it is not a finite real number."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not math.isfinite(value):
        raise NonholonomicError(f"{label} must be a finite number, got {value!r}")
    return float(value)


def integrate(rhs, y0, t_eval, rtol: float, atol: float, method: str = "DOP853") -> np.ndarray:
    """Solution of y' = rhs(t, y), y(t_eval[0]) = y0, at the times t_eval: shape (len(y0), len(t_eval))."""
    y0 = np.asarray(y0, dtype=float)
    t_eval = np.asarray(t_eval, dtype=float)
    if not np.all(np.isfinite(y0)):
        raise NonholonomicError(f"initial state must be finite numbers, got {y0}")
    if t_eval.ndim != 1 or t_eval.size < 1 or np.any(np.diff(t_eval) <= 0):
        raise NonholonomicError("t_eval must be a non-empty increasing 1-D array")
    if t_eval.size == 1:
        return y0[:, None]
    sol = solve_ivp(rhs, (t_eval[0], t_eval[-1]), y0, method=method, t_eval=t_eval, rtol=rtol, atol=atol)
    if not sol.success:
        raise NonholonomicError(f"integration failed: {sol.message}")
    return sol.y


def first_zero(rhs, y0, value, t_max: float, rtol: float = 1e-12, atol: float = 1e-13,
               method: str = "DOP853") -> float | None:
    """The first time in (0, t_max] where ``value(y)`` (a scalar of the state, positive at the start: a normal
    force) falls through zero along y' = rhs(t, y), located by the integrator's event root finding; None if
    it stays positive. A lift-off: where an ideal contact's normal reaction would turn into a pull."""
    y0 = np.asarray(y0, dtype=float)
    if not value(y0) > 0:
        raise NonholonomicError(f"the value must be positive at the start, got {value(y0)}")
    event = lambda t, y: value(y)
    event.terminal, event.direction = True, -1
    sol = solve_ivp(rhs, (0.0, float(t_max)), y0, method=method, rtol=rtol, atol=atol, events=event)
    if not sol.success:
        raise NonholonomicError(f"integration failed: {sol.message}")
    return float(sol.t_events[0][0]) if sol.t_events[0].size else None


def quaternion_product(p, q):
    """p o q."""
    p0, p1, p2, p3 = np.moveaxis(np.asarray(p, dtype=float), -1, 0)
    q0, q1, q2, q3 = np.moveaxis(np.asarray(q, dtype=float), -1, 0)
    return np.stack([p0 * q0 - p1 * q1 - p2 * q2 - p3 * q3,
                     p0 * q1 + p1 * q0 + p2 * q3 - p3 * q2,
                     p0 * q2 - p1 * q3 + p2 * q0 + p3 * q1,
                     p0 * q3 + p1 * q2 - p2 * q1 + p3 * q0], axis=-1)


def quaternion_to_matrix(q):
    """Rotation matrix (body -> world) of the quaternion q (normalised first), shape (..., 3, 3)."""
    q = np.asarray(q, dtype=float)
    q = q / np.linalg.norm(q, axis=-1, keepdims=True)
    q0, q1, q2, q3 = np.moveaxis(q, -1, 0)
    return np.stack([
        np.stack([1 - 2 * (q2**2 + q3**2), 2 * (q1 * q2 - q0 * q3), 2 * (q1 * q3 + q0 * q2)], -1),
        np.stack([2 * (q1 * q2 + q0 * q3), 1 - 2 * (q1**2 + q3**2), 2 * (q2 * q3 - q0 * q1)], -1),
        np.stack([2 * (q1 * q3 - q0 * q2), 2 * (q2 * q3 + q0 * q1), 1 - 2 * (q1**2 + q2**2)], -1)],
        -2)


def attitude_residual(gamma, q):
    """|gamma - T(q)^T e_z|: how far an integrated vertical gamma (body frame) is from the one the integrated
    quaternion gives; gamma (3, ...) and q (4, ...) with components first."""
    T = quaternion_to_matrix(np.moveaxis(np.asarray(q, dtype=float), 0, -1))
    from_q = np.moveaxis(T[..., 2, :], -1, 0)
    return np.sqrt(np.sum((np.asarray(gamma, dtype=float) - from_q)**2, axis=0))


def matrix_to_quaternion(T, continuous: bool = True):
    """Unit quaternion (scalar first) of rotation matrices (..., 3, 3), Shepperd's method.

    Sign: q0 >= 0 for a single matrix, or for every matrix if not `continuous`; for a series
    (shape (k, 3, 3)) with `continuous`, q0 >= 0 for the first one and then sign-continuous.
    """
    T = np.asarray(T, dtype=float)
    flat = T.reshape(-1, 3, 3)
    out = np.empty((flat.shape[0], 4))
    for i, m in enumerate(flat):
        tr = np.trace(m)
        k = int(np.argmax([tr, m[0, 0], m[1, 1], m[2, 2]]))
        if k == 0:
            s = 2.0 * np.sqrt(1.0 + tr)
            q = [0.25 * s, (m[2, 1] - m[1, 2]) / s, (m[0, 2] - m[2, 0]) / s, (m[1, 0] - m[0, 1]) / s]
        elif k == 1:
            s = 2.0 * np.sqrt(1.0 + m[0, 0] - m[1, 1] - m[2, 2])
            q = [(m[2, 1] - m[1, 2]) / s, 0.25 * s, (m[0, 1] + m[1, 0]) / s, (m[0, 2] + m[2, 0]) / s]
        elif k == 2:
            s = 2.0 * np.sqrt(1.0 + m[1, 1] - m[0, 0] - m[2, 2])
            q = [(m[0, 2] - m[2, 0]) / s, (m[0, 1] + m[1, 0]) / s, 0.25 * s, (m[1, 2] + m[2, 1]) / s]
        else:
            s = 2.0 * np.sqrt(1.0 + m[2, 2] - m[0, 0] - m[1, 1])
            q = [(m[1, 0] - m[0, 1]) / s, (m[0, 2] + m[2, 0]) / s, (m[1, 2] + m[2, 1]) / s, 0.25 * s]
        q = np.asarray(q)
        out[i] = q / np.linalg.norm(q)
    if out.shape[0] == 1 or T.ndim != 3 or not continuous:
        out *= np.where(out[:, :1] < 0, -1.0, 1.0)
    else:
        if out[0, 0] < 0:
            out[0] = -out[0]
        for i in range(1, out.shape[0]):
            if out[i] @ out[i - 1] < 0:
                out[i] = -out[i]
    return out.reshape(T.shape[:-2] + (4,))


def body_attitude(body: dict, label: str):
    """Attitude matrix T of a world-kinematics dict that gives it as Q (scalar first) or T; Q wins."""
    if "Q" in body:
        return quaternion_to_matrix(np.asarray(body["Q"], dtype=float))
    if "T" in body:
        return np.asarray(body["T"], dtype=float)
    raise NonholonomicError(f"{label}: give the attitude as Q or T")
