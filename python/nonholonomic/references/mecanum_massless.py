"""Mecanum (or omni) vehicle on wheels with MASSLESS ROLLERS OF FINITE SIZE: the contact point moves along
the axle as the roller turns under the wheel, the roller axis at the contact turns with it, and the change of
the roller in contact is an inelastic impact. Borisov-Kilin-Mamaev 2011 (BKM, :mod:`.omni_massless`) is the
limit of infinitely many rollers (``n=None`` here) and is exact for omni-wheels (delta = pi/2) at any n.

Notation of :mod:`.omni_massless` (read its header): platform frame, body-component 2-vectors, J r = e_z x r,
wheel i at r_i, rolling direction e_i, axle a_i = e_z x e_i, radius h_i, axial moment I_i, slide angle delta_i,
BKM roller axis alpha_i = sin(delta_i) e_i - cos(delta_i) a_i. m, r_C, I: mass, centre of mass and yaw inertia
about O of the whole vehicle frozen (wheels' moments about their diameters included in I).

Roller geometry (wheel i; indices dropped)
------------------------------------------
gamma = pi/2 - delta is the inclination of the rollers out of the wheel plane, kappa = tan(gamma) = cot(delta).
n rollers, their centres on the circle of radius d (= R1 of the Modelica wheel) about the wheel centre in the
wheel plane, equally spaced. The roller centred at the bottom has its axis along the BKM alpha,

    axis_0 = cos(gamma) e - sin(gamma) a = sin(delta) e - cos(delta) a         (the HAND convention),

and every roller is that one turned with the wheel about the axle. The roller surface is the envelope of the
spheres centred on the axis at c (arc length from the roller centre) with radius
rho(c) = h - sqrt(d^2 + c^2 cos^2 gamma) (each internally tangent to the cylinder of radius h about the
axle), |c| <= d tan(pi/n)/cos(gamma).

Wheel angle chi (positive = rolling forward along e: angular velocity chi' a). ``phase`` c_i: the wheel angle
at which a roller's centre is at the bottom (chi_i = phase_i: a roller centred at the bottom; default 0). The
current roller k has its centre at the wheel angle chi = phase + 2 pi k/n and

    psi = chi - phase - 2 pi k/n,   |psi| <= pi/n        (psi' = chi': psi grows as the wheel rolls forward)

(psi is the wheel angle relative to the current roller's centre; psi > 0: the roller's centre has passed
the bottom, moving backwards). For a vertical wheel, hub at height h, the lowest point of the roller is
(derivation: turned by psi about a, the roller's centre is at d (-sin psi e - cos psi e_z) from the wheel
centre and its axis is cos(gamma) (cos psi e - sin psi e_z) - sin(gamma) a; the bottom of the sphere at c lies
at the height -d cos psi - w sin psi + sqrt(d^2 + w^2) >= 0, w = c cos gamma (Cauchy-Schwarz), with equality
at w = d tan psi, where the sphere's centre is directly below the hub, at -c sin(gamma) along a)

    P = (wheel centre) - h e_z + s(psi) a,     s(psi) = -d kappa tan(psi),

directly below the hub in the wheel's vertical plane shifted along the axle, at height 0 (the plane touches
the roller at any psi), on the sphere c* = d tan(psi)/cos(gamma). The roller axis there has the horizontal
part cos(gamma) cos(psi) e - sin(gamma) a (its vertical part plays no role), so the direction normal to the
free rolling direction (axis x e_z) is

    alpha(psi) = (sin(delta) cos(psi) e - cos(delta) a)/|.|,     alpha(0) = alpha_BKM.

tests/test_reference_mecanum.py checks P, s and alpha against a brute-force envelope of the explicitly
placed and rotated roller.

Constraint (ideal massless roller, free to spin on its axle): the hub's material point at P has no velocity
along alpha(psi); with the quasi-velocities u = (v1, v2, omega, chi_1' .. chi_N') (v: body velocity of O),

    (alpha, v) + omega (alpha, J (r + s a)) - h (alpha, e) chi' = 0,   J a = -e,

    chi' = b(psi) . xi,   xi = (v, omega),
    b(psi) = (1/h) (e - kappa sec(psi) a,  (e, J r) - kappa sec(psi) (a, J r) + d kappa tan(psi)).

Equations of motion (reduced form, d'Alembert-Lagrange on the constraint subspace u = B(psi) xi)
----------------------------------------------------------------------------------------------
Kinetic energy T = 1/2 xi^T M_p xi + 1/2 sum I_i chi_i'^2 = 1/2 xi^T Mcal(psi) xi,
M_p = [[m E, m J r_C], [m (J r_C)^T, I]], Mcal = M_p + sum_i I_i b_i b_i^T. The platform's momentum
equations (as in BKM) with the contact forces lambda_i alpha_i at P_i and the wheel spin equations
I_i chi_i'' = -h (alpha_i, e_i) lambda_i give M u' + g(u) = A^T lambda (A: the constraint rows above, g the
gyroscopic terms g = (m omega J (v + omega J r_C), m omega (v, r_C), 0)); projecting on u = B xi:

    Mcal(psi) xi' = -g_p(xi) - sum_i I_i b_i (b_i'(psi_i) . xi) chi_i',   chi_i' = b_i . xi,   psi_i' = chi_i',
    x' = v1 cos phi - v2 sin phi,  y' = v1 sin phi + v2 cos phi,  phi' = omega.

T is conserved (xi . g_p = 0 and 1/2 xi^T Mcal' xi = sum I_i (b_i . xi)(b_i' . xi) chi_i'). With kappa = 0
(omni) or n = None (psi = 0, s = 0: classical mecanum kinematics), b is constant and these are BKM's
equations.

Roller changes (impacts)
------------------------
When psi_i reaches +pi/n (or -pi/n) the next (previous) roller takes the contact: psi_i jumps by -+2 pi/n,
alpha_i (even in psi) is unchanged but s_i jumps by +-2 d kappa tan(pi/n) and the omega coefficient of the
constraint by -+2 d kappa tan(pi/n)/h. With omega != 0 the velocity violates the new constraint: a perfectly
inelastic impact, the velocity projected onto the new constraint subspace in the kinetic-energy metric
(Gauss/Carnot), u+ = u- - M^-1 A^T (A M^-1 A^T)^-1 A u-; in the reduced form

    xi+ = Mcal(psi+)^-1 (M_p xi- + sum_i I_i b_i(psi_i+) chi_i'-),

and the energy lost is the Carnot term 1/2 |u- - u+|_M^2. Changes within ``simultaneous`` (rad of psi) of
the located one are one projection. Events: psi_i = +-pi/n located by scipy's solve_ivp (dense output,
root to machine precision); the integration restarts from the projected state. An impact that would send a
wheel back onto the old roller (Zeno) raises NonholonomicError. Omni wheels (|cos delta| < 1e-12) and
n = None have no impacts (their changes are only counted).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.integrate import solve_ivp

from nonholonomic.errors import NonholonomicError
from nonholonomic.references.omni_massless import BASE_STATE, _jr, _per_wheel

OMNI_TOL = 1e-12  # |cos delta| below this: an omni-wheel (no offset, no impacts)


def roller_change(time: float, k, psi, rate, half: float, within: float, where=True):
    """The rollers in contact after a change at ``time``: a wheel whose angle psi has reached +half moving forward
    passes to the next roller, one at -half moving backward to the one before (``within``: the angles that count as
    reached, so that changes at one instant are one event; ``where``: the wheels that change rollers at all).
    Returns the new roller indices, the mask of the wheels that changed and their directions (+1, -1)."""
    up = where & (psi >= half - within) & (rate > 0)
    down = where & (psi <= -half + within) & (rate < 0)
    changed = up | down
    if not np.any(changed):
        raise NonholonomicError(f"event at t = {time} without a roller change (psi = {psi})")
    return k + up.astype(int) - down.astype(int), changed, (up.astype(int) - down)[changed]


class MecanumMassless:
    """N wheels with n massless rollers of finite size each; see the module docstring."""

    def __init__(self, positions, directions, h, I_w, delta, m: float, I: float,  # noqa: E741
                 r_C=(0.0, 0.0), n=None, d=0.0, phase=0.0, simultaneous: float = 1e-8):
        pos = np.asarray(positions, dtype=float)
        if pos.ndim != 2 or pos.shape[1] != 2 or pos.shape[0] < 1 or not np.all(np.isfinite(pos)):
            raise NonholonomicError(f"positions must be finite (N, 2) wheel centres, got shape {pos.shape}")
        N = pos.shape[0]
        dirs = np.asarray(directions, dtype=float)
        beta = dirs if dirs.shape == (N,) else np.arctan2(dirs[:, 1], dirs[:, 0])
        self.N, self.r, self.beta = N, pos.T.copy(), beta
        self.h = _per_wheel(h, N, "h")
        self.I_w = _per_wheel(I_w, N, "I_w")
        self.delta = _per_wheel(delta, N, "delta")
        if np.any(self.h <= 0) or np.any(self.I_w < 0):
            raise NonholonomicError("wheel radii must be positive and axial moments >= 0")
        if np.any(np.sin(self.delta) <= 1e-12):
            raise NonholonomicError(f"delta must lie in (0, pi), got {delta}")
        self.m, self.I = float(m), float(I)
        self.r_C = np.asarray(r_C, dtype=float).reshape(2)
        if not (self.m > 0 and self.I - self.m * (self.r_C @ self.r_C) > 0):
            raise NonholonomicError("m must be positive and I (about O) must exceed m |r_C|^2")
        self.finite = n is not None
        self.n = _per_wheel(n, N, "n") if self.finite else np.full(N, np.inf)
        if self.finite and (np.any(self.n < 2) or np.any(self.n != np.round(self.n))):
            raise NonholonomicError(f"n (rollers per wheel) must be an integer >= 2, got {n}")
        self.d = _per_wheel(d, N, "d") if self.finite else np.zeros(N)
        if np.any(self.d < 0) or np.any(self.d >= self.h):
            raise NonholonomicError(f"d (roller-centre distance) must lie in [0, h), got {d}")
        self.phase = _per_wheel(phase, N, "phase") if self.finite else np.zeros(N)
        self.simultaneous = float(simultaneous)
        self.e = np.stack([np.cos(beta), np.sin(beta)])            # (2, N)
        self.a = _jr(self.e)                                      # (2, N)
        self.kappa = np.cos(self.delta) / np.sin(self.delta)       # tan(gamma) = cot(delta)
        self.jre = np.sum(_jr(self.r) * self.e, axis=0)           # (e_i, J r_i)
        self.jra = np.sum(_jr(self.r) * self.a, axis=0)           # (a_i, J r_i)
        self.impacting = self.finite & (np.abs(np.cos(self.delta)) >= OMNI_TOL)   # (N,) bool
        self.half = np.pi / self.n                                 # pi/n (inf -> 0)
        jrc = _jr(self.r_C)
        self.Mp = np.array([[self.m, 0.0, self.m * jrc[0]], [0.0, self.m, self.m * jrc[1]],
                            [self.m * jrc[0], self.m * jrc[1], self.I]])

    # ------------------------------------------------------------------ geometry
    def psi(self, chi, k):
        """psi_i = chi_i - phase_i - 2 pi k_i/n_i (0 for n = None)."""
        if not self.finite:
            return np.zeros_like(np.asarray(chi, dtype=float))
        return np.asarray(chi, dtype=float) - self.phase - 2.0 * self.half * np.asarray(k)

    def roller_index(self, chi):
        """The roller k_i (integer, unbounded: the wheel's count) whose sector [-pi/n, pi/n) holds chi_i."""
        if not self.finite:
            return np.zeros(self.N, dtype=int)
        return np.floor((np.asarray(chi, dtype=float) - self.phase + self.half) / (2 * self.half)).astype(int)

    def offset(self, psi):
        """s_i(psi_i) = -d_i kappa_i tan(psi_i): the contact point's shift along the axle a_i."""
        return -self.d * self.kappa * np.tan(psi)

    def alpha(self, psi):
        """Unit alpha_i(psi_i) = (sin delta cos psi e - cos delta a)/|.|, shape (2, N)."""
        raw = np.sin(self.delta) * np.cos(psi) * self.e - np.cos(self.delta) * self.a
        return raw / np.linalg.norm(raw, axis=0)

    def b(self, psi):
        """chi_i' = b_i . xi: (3, N) and its psi-derivative (3, N)."""
        sec, tan = 1.0 / np.cos(psi), np.tan(psi)
        ks = self.kappa * sec
        b = np.vstack([self.e - ks * self.a, (self.jre - ks * self.jra + self.d * self.kappa * tan)[None]]) / self.h
        db = np.vstack([-(ks * tan) * self.a, (-ks * tan * self.jra + self.d * self.kappa * sec**2)[None]]) / self.h
        return b, db

    def constraint_matrix(self, psi):
        """A (N x (3 + N)) with A u = 0, u = (v1, v2, omega, chi'), rows normalised with the unit alpha_i."""
        al = self.alpha(psi)
        arm = self.r + self.offset(psi) * self.a                   # contact points (horizontal)
        A = np.zeros((self.N, 3 + self.N))
        A[:, :2] = al.T
        A[:, 2] = np.sum(al * _jr(arm), axis=0)
        A[np.arange(self.N), 3 + np.arange(self.N)] = -self.h * np.sum(al * self.e, axis=0)
        return A

    def mass_matrix(self):
        """M of u = (v1, v2, omega, chi_1'..chi_N'): platform block M_p, wheel spins I_i."""
        M = np.zeros((3 + self.N, 3 + self.N))
        M[:3, :3] = self.Mp
        M[3:, 3:] = np.diag(self.I_w)
        return M

    # ------------------------------------------------------------------ dynamics
    def rhs(self, t, y, k):
        """dy/dt for y = (x, y, phi, v1, v2, omega, chi_1..chi_N) on the rollers k."""
        phi, xi = y[2], y[3:6]
        psi = self.psi(y[6:], k)
        b, db = self.b(psi)
        rate = xi @ b                                              # chi_i'
        Mcal = self.Mp + (b * self.I_w) @ b.T
        v1, v2, w = xi
        m, rc = self.m, self.r_C
        u1, u2 = v1 - w * rc[1], v2 + w * rc[0]
        g = np.array([-m * w * u2, m * w * u1, m * w * (v1 * rc[0] + v2 * rc[1])])
        f = -g - b @ (self.I_w * (xi @ db) * rate)
        acc = np.linalg.solve(Mcal, f)
        c, s = np.cos(phi), np.sin(phi)
        return np.concatenate([[v1 * c - v2 * s, v1 * s + v2 * c, w], acc, rate])

    def wheel_rates(self, y, k):
        return y[3:6] @ self.b(self.psi(y[6:], k))[0]

    def energy(self, y, k):
        xi, rate = y[3:6], self.wheel_rates(y, k)
        return 0.5 * xi @ self.Mp @ xi + 0.5 * np.sum(self.I_w * rate**2)

    def impact(self, y, k_old, k_new):
        """Project y (velocities on the rollers k_old) onto the constraints of the rollers k_new: returns
        (y+, u-, u+, Carnot loss 1/2 |u- - u+|_M^2)."""
        xi = y[3:6]
        u_minus = np.concatenate([xi, self.wheel_rates(y, k_old)])
        b_new = self.b(self.psi(y[6:], k_new))[0]
        Mcal = self.Mp + (b_new * self.I_w) @ b_new.T
        xi_plus = np.linalg.solve(Mcal, self.Mp @ xi + b_new @ (self.I_w * u_minus[3:]))
        u_plus = np.concatenate([xi_plus, xi_plus @ b_new])
        du = u_minus - u_plus
        loss = 0.5 * du @ self.mass_matrix() @ du
        y_plus = y.copy()
        y_plus[3:6] = xi_plus
        return y_plus, u_minus, u_plus, loss

    # ------------------------------------------------------------------ simulation
    def _events(self, k):
        events = []
        for i in np.flatnonzero(self.impacting):
            for sign in (1.0, -1.0):
                def ev(t, y, i=i, sign=sign):
                    return y[6 + i] - self.phase[i] - 2.0 * self.half[i] * k[i] - sign * self.half[i]
                ev.terminal, ev.direction = True, sign
                events.append(ev)
        return events

    def integrate(self, state0, t_end, rtol=1e-12, atol=1e-12, method="DOP853", k0=None):
        """Piecewise integration from state0 = (x, y, phi, v1, v2, omega[, chi]) at t = 0 (or state0's own time
        if given as (t0, state)) to t_end: returns (segments, impacts). segments: list of dicts t0, t1, sol
        (dense output), k (rollers); impacts: list of dicts time, wheels, signs, y_minus, y_plus, u_minus,
        u_plus, energy_minus, energy_plus, loss, k_minus, k_plus."""
        t0 = 0.0
        if isinstance(state0, tuple) and len(state0) == 2 and np.ndim(state0[1]) == 1:
            t0, state0 = float(state0[0]), state0[1]
        y = np.asarray(state0, dtype=float).reshape(-1)
        if y.shape == (6,):
            y = np.concatenate([y, np.zeros(self.N)])
        if y.shape != (6 + self.N,) or not np.all(np.isfinite(y)):
            raise NonholonomicError(f"state0 must have 6 or {6 + self.N} finite entries")
        k = self.roller_index(y[6:]) if k0 is None else np.asarray(k0, dtype=int).copy()
        segments, impacts = [], []
        t = t0
        while True:
            kk = k.copy()
            sol = solve_ivp(lambda tt, yy: self.rhs(tt, yy, kk), (t, t_end), y, method=method, rtol=rtol,
                            atol=atol, dense_output=True, events=self._events(kk) or None)
            if sol.status < 0:
                raise NonholonomicError(f"integration failed: {sol.message}")
            segments.append({"t0": t, "t1": float(sol.t[-1]), "sol": sol.sol, "k": kk})
            if sol.status != 1:
                break
            te, y_minus = float(sol.t[-1]), sol.y[:, -1].copy()
            psi = self.psi(y_minus[6:], kk)
            rate = self.wheel_rates(y_minus, kk)
            k_new, changed, signs = roller_change(te, kk, psi, rate, self.half, self.simultaneous, self.impacting)
            y_plus, u_minus, u_plus, loss = self.impact(y_minus, kk, k_new)
            rate_plus = u_plus[3:]
            if np.any(np.sign(rate_plus[changed]) != np.sign(rate[changed])):
                raise NonholonomicError(f"impact at t = {te} sends a wheel back onto its old roller (Zeno)")
            impacts.append({"time": te, "wheels": np.flatnonzero(changed), "signs": signs,
                            "y_minus": y_minus, "y_plus": y_plus, "u_minus": u_minus, "u_plus": u_plus,
                            "energy_minus": self.energy(y_minus, kk), "energy_plus": self.energy(y_plus, k_new),
                            "loss": loss, "k_minus": kk, "k_plus": k_new})
            y, k, t = y_plus, k_new, te
            if te >= t_end:
                break
        return segments, impacts

    def columns(self):
        n = range(1, self.N + 1)
        return (("time",) + BASE_STATE + tuple(f"chi{i}" for i in n) + tuple(f"dchi{i}" for i in n)
                + tuple(f"psi{i}" for i in n) + tuple(f"roller{i}" for i in n) + ("energy",))

    def _row(self, t, y, k):
        return ([t] + list(y) + list(self.wheel_rates(y, k)) + list(self.psi(y[6:], k)) + list(k)
                + [self.energy(y, k)])

    def simulate(self, state0, t_eval, rtol=1e-12, atol=1e-12, method="DOP853", include_events=False
                 ) -> pd.DataFrame:
        """Integrate from state0 = (x, y, phi, v1, v2, omega[, chi_1..chi_N]) (chi default 0) at t_eval[0].

        t_eval: non-decreasing times, which may repeat (an FMU's output has its left and right limits at each
        of its events). One row per time given; at a time of an impact of this model given twice, the first
        row is the left limit and the second the right one (once: the right limit). include_events: also a
        left and a right row at each impact (column ``event`` 1 on those rows, 0 elsewhere). Columns: time,
        x, y, phi, v1, v2, omega, chi1..N, dchi1..N (wheel rates), psi1..N (angle on the current roller),
        roller1..N (its count k), energy; ``attrs['impacts']``: the impacts (see `integrate`)."""
        t_eval = np.asarray(t_eval, dtype=float)
        if t_eval.ndim != 1 or t_eval.size < 1 or np.any(np.diff(t_eval) < 0) or not np.all(np.isfinite(t_eval)):
            raise NonholonomicError("t_eval must be a non-empty non-decreasing 1-D array of finite times")
        segments, impacts = self.integrate((float(t_eval[0]), np.asarray(state0, dtype=float).reshape(-1)),
                                           float(t_eval[-1]), rtol, atol, method)
        rows, flags = [], []
        starts = np.array([seg["t0"] for seg in segments])
        ends = np.array([seg["t1"] for seg in segments])
        for j, t in enumerate(t_eval):
            repeated = (j + 1 < len(t_eval) and t_eval[j + 1] == t) and (j == 0 or t_eval[j - 1] != t)
            if repeated:   # the first of repeated times: the left limit (the segment ending at or after t)
                seg = segments[int(np.searchsorted(ends, t, side="left"))]
            else:          # else the right limit (the last segment starting at or before t)
                seg = segments[max(int(np.searchsorted(starts, t, side="right")) - 1, 0)]
            rows.append(self._row(t, seg["sol"](t), seg["k"]))
            flags.append(0)
        if include_events:
            for imp in impacts:
                rows.append(self._row(imp["time"], imp["y_minus"], imp["k_minus"]))
                rows.append(self._row(imp["time"], imp["y_plus"], imp["k_plus"]))
                flags += [1, 1]
        df = pd.DataFrame(rows, columns=self.columns())
        df["event"] = flags
        if include_events:
            df = df.sort_values(["time"], kind="stable").reset_index(drop=True)
        df.attrs["impacts"] = impacts
        return df
