"""Chaplygin sleigh: a rigid body on a horizontal plane with a knife edge (blade) at a body point.

Reference model of the classical problem named in seed 003 (Borisov, Mamaev, Bizyaev 2016,
"Historical and critical review of nonholonomic mechanics", Section 3: Chaplygin 1912,
Carathéodory 1933, earlier Brill 1909 as a nonholonomic planimeter). The seed gives no
equations for the sleigh (it only names it as the example of Chaplygin's reducing multiplier),
so everything below is derived here from the Newton-Euler equations of a planar rigid body and
checked independently in tests/test_reference_sleigh_and_wheelset.py (energy integral, closed
form, asymptotics, a brute-force Newton-Euler solve, and the world mapping round trip).

Parameters: mass m, moment of inertia I about the vertical axis through the centre of mass C,
blade offset a (signed).

Conventions
-----------
World frame: z up, the sleigh moves in a horizontal plane. Body frame: x along the blade,
z vertical; in the world its horizontal axes are

    e1 = (cos psi, sin psi, 0)    along the blade (psi = heading of the blade, from world x)
    e2 = (-sin psi, cos psi, 0)   across the blade (e1 turned by +90 deg about z)

The blade touches the plane at the body point P = C + a e1 (a > 0: P ahead of C along body x;
a < 0 allowed; a = 0: the blade at the centre of mass). The blade forbids motion of P along e2:

    v_P . e2 = 0,      v_P = v_C + omega e3 x (a e1) = v_C + a omega e2.

State y = (x, y, psi, v, omega): (x, y) = position of the blade point P; psi = heading;
v = v_P . e1 = v_C . e1 (the velocity along the blade is the SAME for P and C, because
omega e3 x a e1 is across the blade); omega = dpsi/dt. Hence

    v_P = v e1,   v_C = v e1 - a omega e2,   r_C = r_P - a e1.

Equations (derived; no seed formula to correct)
-----------------------------------------------
The plane acts on the body by a force lambda e2 at P only (ideal blade). With
de1/dt = omega e2, de2/dt = -omega e1:

    dv_C/dt = (dv/dt + a omega^2) e1 + (v omega - a domega/dt) e2
    m dv_C/dt = lambda e2,      I domega/dt = (a e1) x (lambda e2) . e3 = a lambda

so, with J = I + m a^2 (moment of inertia about the vertical through P),

    dx/dt = v cos psi,   dy/dt = v sin psi,   dpsi/dt = omega
    dv/dt     = -a omega^2
    domega/dt = (m a / J) v omega
    lambda    = m (v omega - a domega/dt) = (m I / J) v omega     (blade force along e2)

Energy integral (kinetic only; a potential m g h at a constant height h is omitted):

    E = 1/2 m |v_C|^2 + 1/2 I omega^2 = 1/2 m v^2 + 1/2 J omega^2

(dE/dt = -m a v omega^2 + m a v omega^2 = 0).

Closed form (derived here): put V = sqrt(2E/m) = sqrt(v0^2 + (J/m) omega0^2) and
k = m a V / J (a rate, 1/s). Then (v, sqrt(J/m) omega) = V (cos theta, sin theta) with
dtheta/dt = k sin theta, whence, for omega0 != 0,

    v(t)     = V tanh(u0 - k t),            u0 = artanh(v0 / V)
    omega(t) = sgn(omega0) sqrt(m/J) V sech(u0 - k t)
    psi(t)   = psi0 + sgn(omega0) (sqrt(J/m) / a) [gd(k t - u0) + gd(u0)]      (a != 0)

with the Gudermannian gd(x) = atan(sinh x) = 2 atan(tanh(x/2)). For omega0 = 0 the motion is
straight and uniform (v = v0); for a = 0 (k = 0) it is uniform on a circle (v, omega const).
The path (x, y) needs a quadrature (psi is a multiple sqrt(J/m)/a > 1 of gd, so x, y are not
elementary in general); `simulate` integrates it.

Asymptotics (a != 0, omega0 != 0): omega -> 0 and v -> v_inf = -sgn(a) V, i.e. the speed tends
to V = sqrt(2E/m) (all the energy ends up translational) and the sleigh moves with the centre of
mass LEADING the blade (for a > 0 it slides backwards along body x). The relaxation rate is
2|k| = 2 m |a| V / J (v_inf - v ~ exp(-2|k| t)) and the heading tends to

    psi_inf = psi0 + sgn(omega0) (sqrt(J/m) / |a|) [pi/2 + sgn(a) gd(u0)].

The opposite straight motion (v = +sgn(a) V, omega = 0) is an unstable equilibrium. Energy is
conserved while the motion is asymptotically stable: the classical nonholonomic paradox.

World mapping (for a 3-D multibody model)
-----------------------------------------
Centre of mass r_0 = (x_c, y_c, h) at a constant height h; attitude a rotation by psi about
world z, quaternion (scalar first) Q = (cos psi/2, 0, 0, sin psi/2), T = Rz(psi) (T resolves
body vectors in the world frame); v_0 = v e1 - a omega e2; w_0 = (0, 0, omega).
See `to_world` / `from_world`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from nonholonomic.errors import NonholonomicError
from nonholonomic.references.common import integrate, quaternion_to_matrix

STATE = ("x", "y", "psi", "v", "omega")
COLUMNS = ("time", "x", "y", "psi", "v", "omega", "energy", "x_c", "y_c")


def _gd(x):
    """Gudermannian gd(x) = atan(sinh x), written without overflow."""
    return 2.0 * np.arctan(np.tanh(0.5 * np.asarray(x, dtype=float)))


class ChaplyginSleigh:
    """Chaplygin sleigh with mass m, central moment of inertia I, blade at P = C + a e1."""

    def __init__(self, m: float, I: float, a: float):  # noqa: E741 (I is the physics name)
        m, I, a = float(m), float(I), float(a)
        if not (np.isfinite(m) and m > 0.0):
            raise NonholonomicError(f"mass m must be positive, got {m}")
        if not (np.isfinite(I) and I >= 0.0):
            raise NonholonomicError(f"moment of inertia I must be >= 0, got {I}")
        if not np.isfinite(a):
            raise NonholonomicError(f"blade offset a must be finite, got {a}")
        if I + m * a * a <= 0.0:
            raise NonholonomicError("I + m a^2 must be positive (otherwise omega is undetermined)")
        self.m, self.I, self.a = m, I, a
        self.J = I + m * a * a  # moment of inertia about the vertical through the blade point P

    # ------------------------------------------------------------------ equations
    def rhs(self, t, y):
        """d/dt (x, y, psi, v, omega); y has shape (5,) or (5, k)."""
        _, _, psi, v, w = y
        m, a, J = self.m, self.a, self.J
        return np.array([v * np.cos(psi), v * np.sin(psi), w, -a * w * w, (m * a / J) * v * w])

    def reaction(self, y):
        """Blade force on the sleigh along e2 (body y), newtons: lambda = (m I / J) v omega."""
        return (self.m * self.I / self.J) * y[3] * y[4]

    def energy(self, y):
        """E = 1/2 m v^2 + 1/2 (I + m a^2) omega^2 (kinetic energy, joules)."""
        return 0.5 * self.m * y[3] ** 2 + 0.5 * self.J * y[4] ** 2

    def centre_of_mass(self, y):
        """(x_c, y_c) = r_P - a e1."""
        return y[0] - self.a * np.cos(y[2]), y[1] - self.a * np.sin(y[2])

    def simulate(self, state0, t_eval, rtol=1e-12, atol=1e-12, method="DOP853"):
        """Integrate the reduced equations; DataFrame with COLUMNS (time, x, y, psi, v, omega,
        energy, x_c, y_c); (x, y) is the blade point P, (x_c, y_c) the centre of mass."""
        y0 = np.asarray(state0, dtype=float)
        if y0.shape != (5,):
            raise NonholonomicError(f"state0 must be 5 finite numbers {STATE}, got {state0!r}")
        t_eval = np.asarray(t_eval, dtype=float)
        y = integrate(self.rhs, y0, t_eval, rtol, atol, method)
        xc, yc = self.centre_of_mass(y)
        return pd.DataFrame({"time": t_eval, **dict(zip(STATE, y)), "energy": self.energy(y),
                             "x_c": xc, "y_c": yc})

    # ------------------------------------------------------------------ closed form
    def speed_scale(self, state0):
        """V = sqrt(2E/m) = sqrt(v0^2 + (J/m) omega0^2): the limit speed (m/s)."""
        return float(np.sqrt(2.0 * self.energy(np.asarray(state0, dtype=float)) / self.m))

    def limit_speed(self, state0):
        """lim |v| as t -> infinity: sqrt(2E/m) if omega0 != 0 and a != 0, else |v0|."""
        v0, w0 = float(state0[3]), float(state0[4])
        if w0 == 0.0 or self.a == 0.0:
            return abs(v0)
        return self.speed_scale(state0)

    def limit_velocity(self, state0):
        """lim v (signed, along body x) as t -> infinity: -sgn(a) sqrt(2E/m) (omega0, a != 0)."""
        v0, w0 = float(state0[3]), float(state0[4])
        if w0 == 0.0 or self.a == 0.0:
            return v0
        return -np.sign(self.a) * self.speed_scale(state0)

    def limit_heading(self, state0):
        """lim psi as t -> infinity (a != 0): psi0 + sgn(w0) sqrt(J/m)/|a| (pi/2 + sgn(a) gd(u0))."""
        if self.a == 0.0 and state0[4] != 0.0:
            raise NonholonomicError("a = 0 and omega0 != 0: uniform rotation, no limit heading")
        psi0, v0, w0 = float(state0[2]), float(state0[3]), float(state0[4])
        if w0 == 0.0:
            return psi0
        u0 = np.arctanh(v0 / self.speed_scale(state0))
        return psi0 + np.sign(w0) * np.sqrt(self.J / self.m) / abs(self.a) \
            * (0.5 * np.pi + np.sign(self.a) * _gd(u0))

    def closed_form(self, state0, t):
        """Exact (psi, v, omega) at times t (t = 0 at state0); DataFrame time, psi, v, omega, energy."""
        t = np.asarray(t, dtype=float)
        psi0, v0, w0 = float(state0[2]), float(state0[3]), float(state0[4])
        m, a, J = self.m, self.a, self.J
        if w0 == 0.0:  # straight uniform motion (stable or unstable equilibrium)
            psi, v, w = np.full_like(t, psi0), np.full_like(t, v0), np.zeros_like(t)
        elif a == 0.0:  # uniform rotation on a circle
            psi, v, w = psi0 + w0 * t, np.full_like(t, v0), np.full_like(t, w0)
        else:
            V = self.speed_scale(state0)
            k = m * a * V / J
            u0 = np.arctanh(v0 / V)  # finite: |v0| < V because omega0 != 0
            s = np.sign(w0)
            v = V * np.tanh(u0 - k * t)
            w = s * np.sqrt(m / J) * V / np.cosh(u0 - k * t)
            psi = psi0 + s * (np.sqrt(J / m) / a) * (_gd(k * t - u0) + _gd(u0))
        out = np.array([np.zeros_like(t), np.zeros_like(t), psi, v, w])
        return pd.DataFrame({"time": t, "psi": psi, "v": v, "omega": w, "energy": self.energy(out)})

    # ------------------------------------------------------------------ world mapping
    def to_world(self, state, h: float = 0.0):
        """dict(r_0, Q, T, v_0, w_0) of the sleigh body for state (5,) or (5, k); see module doc.

        Shapes: (3,), (4,), (3, 3) for one state; (k, 3), (k, 4), (k, 3, 3) for k states.
        """
        x, y, psi, v, w = (np.asarray(c, dtype=float) for c in state)
        c, s = np.cos(psi), np.sin(psi)
        xc, yc = x - self.a * c, y - self.a * s
        zero, one = np.zeros_like(psi), np.ones_like(psi)
        r_0 = np.stack([xc, yc, h + zero], axis=-1)
        Q = np.stack([np.cos(0.5 * psi), zero, zero, np.sin(0.5 * psi)], axis=-1)
        T = np.stack([np.stack([c, -s, zero], -1), np.stack([s, c, zero], -1),
                      np.stack([zero, zero, one], -1)], axis=-2)
        # v_0 = v e1 - a omega e2
        v_0 = np.stack([v * c + self.a * w * s, v * s - self.a * w * c, zero], axis=-1)
        w_0 = np.stack([zero, zero, w], axis=-1)
        return {"r_0": r_0, "Q": Q, "T": T, "v_0": v_0, "w_0": w_0}

    def from_world(self, r_0, attitude, v_0, w_0, tol: float | None = 1e-6):
        """State (x, y, psi, v, omega) from the body's world kinematics.

        attitude: quaternion Q (..., 4), scalar first (Q and -Q give the same state), or rotation
        matrix T (..., 3, 3). psi is returned in (-pi, pi]. With `tol` set, a state that violates
        the planar motion (tilt, vertical velocity, w_0 not vertical) or the blade constraint by
        more than tol (in m/s, rad/s or rotation-matrix units) raises NonholonomicError.
        """
        r_0, v_0, w_0 = (np.asarray(z, dtype=float) for z in (r_0, v_0, w_0))
        att = np.asarray(attitude, dtype=float)
        if att.shape[-1] == 4:
            T = quaternion_to_matrix(att)
        elif att.shape[-2:] == (3, 3):
            T = att
        else:
            raise NonholonomicError(f"attitude must be a quaternion (..., 4) or a matrix (..., 3, 3), "
                                    f"got shape {att.shape}")
        psi = np.arctan2(T[..., 1, 0], T[..., 0, 0])
        c, s = np.cos(psi), np.sin(psi)
        v = v_0[..., 0] * c + v_0[..., 1] * s
        w = w_0[..., 2]
        x, y = r_0[..., 0] + self.a * c, r_0[..., 1] + self.a * s
        if tol is not None:
            slip = -v_0[..., 0] * s + v_0[..., 1] * c + self.a * w  # v_P . e2
            resid = np.max(np.abs(np.stack([
                np.abs(T[..., 2, 2] - 1.0), np.abs(T[..., 0, 2]) + np.abs(T[..., 1, 2]),
                np.abs(v_0[..., 2]), np.abs(w_0[..., 0]) + np.abs(w_0[..., 1]), np.abs(slip)])))
            if resid > tol:
                raise NonholonomicError(f"world state is not a planar sleigh motion obeying the blade "
                                        f"constraint (residual {resid:.3g} > tol {tol:g})")
        return np.array([x, y, psi, v, w])
