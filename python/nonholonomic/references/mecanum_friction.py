"""Mecanum (or omni) vehicle on wheels with MASSLESS ROLLERS OF FINITE SIZE and REGULARISED COULOMB FRICTION at
the roller/plane contact: the limit eta -> 0 (roller mass over wheel mass) of ``Examples.MecanumVehicle`` at
FIXED mu and v_eps. The ideal model (:mod:`.mecanum_massless`: no slip along the roller axis, an inelastic impact
at each roller change) is this model's limit mu -> infinity, v_eps -> 0; at finite mu the velocity jump that the
ideal model absorbs instantly at a change is a slip transient of duration ~ m dv/(mu N), independent of eta.

Reused from :mod:`.mecanum_massless` (a :class:`~.mecanum_massless.MecanumMassless` instance, ``self.geo``, holds
it): the notation (platform frame, body 2-vectors, J r = e_z x r, wheel i at r_i, rolling direction e_i, axle
a_i = e_z x e_i, radius h, axial moment I_i of the frozen wheel, slide angle delta, kappa = cot(delta)), the roller
geometry (roller phase, psi_i = chi_i - phase_i - 2 pi k_i/n in [-pi/n, pi/n], contact offset
s(psi) = -d kappa tan(psi) along the axle, unit roller axis alpha(psi) = (sin(delta) cos(psi) e - cos(delta) a)/|.|,
checked there against a brute-force envelope), the constraint rows A(psi) (``constraint_matrix``), the mass
matrix M of u = (v1, v2, omega, chi_1' .. chi_N') (``mass_matrix``: platform block M_p of the whole frozen
vehicle, mass m, centre of mass r_C relative to O, yaw moment I about O; wheel spins I_i) and the gyroscopic
terms g(u) of the body-frame quasi-velocities. The vehicle data are those of ``sweep.frozen_vehicle`` (rollers
frozen on their hubs at the mass fraction eta).

Model
-----
Bodies: the platform and N = 3 wheels, each wheel a rigid body (hub with its rollers frozen on it, axisymmetric
about its axle for n >= 3) on a frictionless axle. The vehicle stays level: the platform horizontal, the wheels
vertical, the hubs at the height h = R_w (the rollers' envelope touches the plane at height 0 for any psi when the
hub is at R_w). In ``Vehicles.OmniVehicle`` the platform's centre of mass is at the hubs' height too
(``platform.r_0_start[3] = R_w``, axles at p_a[3] = 0), so every body's centre of mass, and the total one G, is at
the height h. Coordinates: the planar pose (x, y, phi), the body velocity (v1, v2) of O and omega; the wheel angles
chi_i with FREE rates chi_i' (no rolling constraint).

Contact of wheel i at P_i = r_i + s(psi_i) a_i (horizontal position; at height 0, below the hub, offset along
the axle: the lowest point of the roller in contact). The velocity of the hub's material point at P_i (the wheel
turns with omega e_z + chi_i' a_i about its centre; P_i - centre = s a_i - h e_z; e_z x a = -e, a x e_z = e) is

    v_Pi = v + omega J (r_i + s_i a_i) - h chi_i' e_i      (horizontal),    sigma_i = alpha_i . v_Pi = A_i u.

The massless roller spins freely on its axle (axis a_k, horizontally along alpha_i, the sphere of the envelope
that touches the plane centred directly above P_i): its spin adds at P_i the velocity w_r a_k x (-rho e_z), which
is horizontal and perpendicular to alpha_i. So the Modelica contact's slip (the roller's material point at P) is
v_Pi plus a component perpendicular to alpha_i that the roller's spin sets; with a massless roller the moment of
the contact force about its axis must vanish, (P - C') x F . a_k = -rho F . (a_k x e_z) = 0 (C' the sphere's
centre, the normal force has no moment about it): the force has no component perpendicular to alpha_i, i.e. the
friction law's perpendicular slip is zero (the roller spins to cancel it) and

    F_i = f_i alpha_i,   f_i = -mu N_i c_i,   c_i = sigma_i / max(|sigma_i|, v_eps)

(``RollerPlaneContact``: f = -mu N sigma/max(|sigma|, v_eps) with |sigma| = |sigma_i| here). The massless roller
passes F_i + N_i e_z on to the hub at P_i.

Horizontal motion (d'Alembert on u; the normal forces are vertical and do no virtual work on u): the generalised
force of F_i is f_i A_i^T (the virtual power F_i . v_Pi = f_i A_i u), so

    M u' + g(u) = A^T f,      g = (-m omega (v2 + omega r_C1), m omega (v1 - omega r_C2), m omega (v . r_C), 0..0),

the rows of u = chi_i' being the wheel spin equations I_i chi_i'' = -h (alpha_i . e_i) f_i (moment of F_i about
the axle; N_i e_z at P_i has none about a_i).

Normal forces (three wheels: statically determinate). Vertical balance (every centre of mass stays at height h):
sum N_i = m g. Horizontal components of the moment balance about G of the whole vehicle,
dH_G/dt = sum (P_i - G) x (F_i + N_i e_z) (gravity acts at G). H_G = sum_b [I_b w_b + m_b (r_b - r_G) x (v_b -
v_G)]: the relative momenta of bodies whose centres of mass are all at the height h are vertical (both factors
horizontal), the platform's spin I_p omega e_z is vertical (principal axes, z vertical), and a wheel's
I_i chi_i' a_i + I_d omega e_z has the horizontal part I_i chi_i' a_i, whose derivative (a_i turns with the
platform, a_i' = omega J a_i = -omega e_i) is I_i (chi_i'' a_i - chi_i' omega e_i). With rho_i = P_i - r_G
(horizontal), P_i - G = rho_i - h e_z, the moments are -J (N_i rho_i + h F_i) horizontally, so (multiplying by J,
J^2 = -1)

    sum_i N_i rho_i + h sum_i F_i + sum_i I_i (chi_i'' e_i + chi_i' omega a_i) = 0

(2 equations; braking loads the front, the gyroscopic term I_i chi_i' omega a_i is the wheels' precession; with the
spin equation h F_i + I_i chi_i'' e_i = h f_i (alpha_i . a_i) a_i: only the axial part of the friction tilts the
vehicle, its part along e_i spins the wheel up). The accelerations depend on f, f on N, N on the accelerations:
given the slip directions c_i the equations are linear in z = (u', N),

    [ M                        mu A^T diag(c) ] [u']   [ -g                          ]
    [ 0 .. 0                   1 .. 1         ] [N ] = [ m g                         ]
    [ -(I_i e_i) on chi_i''    rho_i - h mu c_i alpha_i ]   [ -omega sum I_i chi_i' a_i ]

solved (9 x 9 for N = 3) at each evaluation of the right-hand side (``forces``).

Energy: E = 1/2 u^T M u, dE/dt = u . A^T f - u . g = sum_i f_i sigma_i <= 0 (friction power; u . g = 0).
Momentum: the world horizontal momentum R(phi) m (v + omega J r_C) changes by the integral of R(phi) sum F_i.
Both integrals are carried as quadrature states (``work``, ``impulse_x``, ``impulse_y``) for the checks.

Roller changes: psi_i = +-pi/n is a state event (located by solve_ivp on its dense output); there is no impact
(the state is continuous), the contact point jumps by -+2 d kappa tan(pi/n) along the axle and the right-hand side
jumps with it, so the integration restarts there with the new roller. The equations are stiff
(mu N/v_eps ~ 2400 N s/m against an effective mass ~ I_i/h^2 + ...): Radau (implicit, finite-difference
Jacobian).

Lift-off is not modelled: a run whose normal force turns <= 0 at a solver step raises NonholonomicError. With this
vehicle (h = 0.05 m, wheels at 0.15 m) that happens from mu ~ 5 on (generic motion, the slip transient of the
second change): the friction's moment about the centre of mass, ~ mu N h |alpha . a|, then outweighs the normal
forces' lever. ``load_transfer=False`` replaces the moment balance by the static lever rule at the current contact
points (a diagnostic: the large-mu limit without tipping, and a measure of what the transfers do).

Checked (tests/test_reference_mecanum_friction.py): energy and momentum balances against their quadratures;
mu -> infinity, v_eps -> 0: mecanum_massless (impacts), differences ~ 1/mu; delta = pi/2, v_eps -> 0:
omni_massless (BKM), differences ~ v_eps; static normal forces: the lever rule; global error at rtol 1e-10 (against
1e-12): path 2e-12 m, velocity 3e-10 m/s, omega 2e-9 rad/s. The MecanumVehicle FMU (rtol 1e-8, massive rollers)
tends to this model frozen at the same eta at first order in eta (fitted slopes 0.98-1.00 of the path, velocity
and yaw-rate differences from eta = 2.5e-2 to 2.5e-7, straight and generic motions), its normal forces too (away
from the roller changes); with the static lever rule instead it stays 1e-3 m/s off (straight, eta = 2.5e-5).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.integrate import solve_ivp

from nonholonomic.errors import NonholonomicError
from nonholonomic.references.mecanum_massless import MecanumMassless, roller_change
from nonholonomic.references.omni_massless import BASE_STATE

G_ACC = 9.81


class MecanumFriction:
    """N = 3 wheels with n massless rollers of finite size each and regularised Coulomb friction at the
    contacts; see the module docstring. Arguments as :class:`~.mecanum_massless.MecanumMassless` (the geometry),
    and mu, v_eps (the friction law of ``Contacts.RollerPlaneContact``), g (gravity)."""

    def __init__(self, positions, directions, h, I_w, delta, m: float, I: float,  # noqa: E741
                 r_C=(0.0, 0.0), n=None, d=0.0, phase=0.0, mu: float = 0.5, v_eps: float = 1e-3,
                 g: float = G_ACC, load_transfer: bool = True):
        self.geo = MecanumMassless(positions, directions, h, I_w, delta, m, I, r_C, n=n, d=d, phase=phase)
        if self.geo.N != 3:
            raise NonholonomicError(f"the normal forces are statically determinate only for 3 wheels, got {self.geo.N}")
        if np.ptp(self.geo.h) != 0:
            raise NonholonomicError("the wheels must have one radius (the hubs and the centre of mass at one height)")
        for name, value in (("mu", mu), ("v_eps", v_eps), ("g", g)):
            if not (isinstance(value, (int, float)) and 0 < value < math.inf):
                raise NonholonomicError(f"{name} must be a positive number, got {value!r}")
        self.mu, self.v_eps, self.g = float(mu), float(v_eps), float(g)
        self.load_transfer = bool(load_transfer)
        self.N = self.geo.N
        self.M = self.geo.mass_matrix()
        self.nstate = 6 + 2 * self.N + 3      # pose, xi, chi, chi', work, impulse (world x, y)

    @classmethod
    def from_model(cls, model, n=None, d=0.0, phase=0.0, mu: float = 0.5, v_eps: float = 1e-3, g: float = G_ACC,
                   load_transfer: bool = True):
        """The friction model of a frozen vehicle (an :class:`~.omni_massless.OmniMassless` or a
        :class:`~.mecanum_massless.MecanumMassless`, e.g. from ``sweep.frozen_vehicle``): its layout, masses and
        (for a MecanumMassless) its rollers; n, d, phase for an OmniMassless."""
        if isinstance(model, MecanumMassless):
            n = None if not model.finite else model.n
            d, phase = model.d, model.phase
        return cls(model.r.T, model.beta, model.h, model.I_w, model.delta, model.m, model.I, model.r_C, n=n, d=d,
                   phase=phase, mu=mu, v_eps=v_eps, g=g, load_transfer=load_transfer)

    # ------------------------------------------------------------------ forces
    def forces(self, y, k):
        """(u', N, f, sigma) at the state y on the rollers k: accelerations of u = (v1, v2, omega, chi'), normal
        forces, tangential forces along alpha_i, slips along alpha_i."""
        geo, Nw = self.geo, self.N
        xi, rate = y[3:6], y[6 + Nw:6 + 2 * Nw]
        u = np.concatenate([xi, rate])
        psi = geo.psi(y[6:6 + Nw], k)
        A = geo.constraint_matrix(psi)                            # (N, 3 + N), rows with the unit alpha_i
        al = geo.alpha(psi)                                       # (2, N)
        sigma = A @ u
        c = sigma / np.maximum(np.abs(sigma), self.v_eps)
        v1, v2, w = xi
        m, rc = geo.m, geo.r_C
        gyro = np.zeros(3 + Nw)
        gyro[:3] = (-m * w * (v2 + w * rc[0]), m * w * (v1 - w * rc[1]), m * w * (v1 * rc[0] + v2 * rc[1]))
        rho = geo.r + geo.offset(psi) * geo.a - rc[:, None]       # (2, N) contact points from the centre of mass
        h = geo.h[0]
        nu = 3 + Nw
        K = np.zeros((nu + 3, nu + Nw))
        rhs = np.zeros(nu + 3)
        K[:nu, :nu] = self.M
        K[:nu, nu:] = self.mu * A.T * c[None, :]
        rhs[:nu] = -gyro
        K[nu, nu:] = 1.0
        rhs[nu] = m * self.g
        if self.load_transfer:
            K[nu + 1:, 3:nu] = geo.e * geo.I_w[None, :]
            K[nu + 1:, nu:] = rho - h * self.mu * c[None, :] * al
            rhs[nu + 1:] = -w * (geo.a @ (geo.I_w * rate))
        else:     # the static lever rule at the current contact points (a diagnostic variant)
            K[nu + 1:, nu:] = rho
        z = np.linalg.solve(K, rhs)
        acc, normal = z[:nu], z[nu:]
        return acc, normal, -self.mu * normal * c, sigma

    def rhs(self, t, y, k):
        """dy/dt for y = (x, y, phi, v1, v2, omega, chi_1..N, chi_1'..N', work, impulse_x, impulse_y)."""
        Nw = self.N
        acc, _, f, sigma = self.forces(y, k)
        phi, (v1, v2, w) = y[2], y[3:6]
        c, s = math.cos(phi), math.sin(phi)
        F = self.geo.alpha(self.geo.psi(y[6:6 + Nw], k)) @ f      # sum of the friction forces, body frame
        return np.concatenate([[v1 * c - v2 * s, v1 * s + v2 * c, w], acc[:3], y[6 + Nw:6 + 2 * Nw], acc[3:],
                               [f @ sigma, F[0] * c - F[1] * s, F[0] * s + F[1] * c]])

    def energy(self, y):
        u = np.concatenate([y[3:6], y[6 + self.N:6 + 2 * self.N]])
        return 0.5 * u @ self.M @ u

    def momentum(self, y):
        """World horizontal momentum of the vehicle."""
        v1, v2, w = y[3:6]
        rc = self.geo.r_C
        p1, p2 = self.geo.m * (v1 - w * rc[1]), self.geo.m * (v2 + w * rc[0])
        c, s = math.cos(y[2]), math.sin(y[2])
        return np.array([p1 * c - p2 * s, p1 * s + p2 * c])

    # ------------------------------------------------------------------ simulation
    def _events(self, k):
        geo = self.geo
        events = []
        if not geo.finite:
            return events
        for i in range(self.N):
            for sign in (1.0, -1.0):
                def ev(t, y, i=i, sign=sign):
                    return y[6 + i] - geo.phase[i] - 2.0 * geo.half[i] * k[i] - sign * geo.half[i]
                ev.terminal, ev.direction = True, sign
                events.append(ev)
        return events

    def full_state(self, state0, k=None):
        """(x, y, phi, v1, v2, omega[, chi_1..N[, chi_1'..N']]) -> the full state; chi default 0, chi' default
        the ideal rates b_i(psi_i) . xi of :mod:`.mecanum_massless` (no slip along alpha_i: the Modelica
        vehicle's start, ``OmniVehicle.s_0`` at psi = 0), work and impulse 0."""
        y = np.asarray(state0, dtype=float).reshape(-1)
        Nw = self.N
        if y.shape == (6,):
            y = np.concatenate([y, np.zeros(Nw)])
        if y.shape == (6 + Nw,):
            kk = self.geo.roller_index(y[6:]) if k is None else k
            y = np.concatenate([y, self.geo.wheel_rates(y, kk)])
        if y.shape != (6 + 2 * Nw,) or not np.all(np.isfinite(y)):
            raise NonholonomicError(f"state0 must have 6, {6 + Nw} or {6 + 2 * Nw} finite entries")
        return np.concatenate([y, np.zeros(3)])

    def integrate(self, state0, t_end, t0=0.0, rtol=1e-10, atol=None, method="Radau", first_step=None):
        """Piecewise integration from state0 (:meth:`full_state`) at t0 to t_end, restarted at each roller
        change. atol default: rtol times the scales 1 m, 1 rad, 1 m/s, 1 rad/s, 10 rad, 10 rad/s, 1 J, 1 N s.
        Returns (segments, changes): segments dicts t0, t1, sol (dense output), k; changes dicts time, wheels,
        signs, y, k_minus, k_plus."""
        Nw = self.N
        y = self.full_state(state0)
        if atol is None:
            atol = rtol * np.concatenate([np.ones(6), 10 * np.ones(2 * Nw), np.ones(3)])
        geo = self.geo
        k = geo.roller_index(y[6:6 + Nw])
        segments, changes = [], []
        t = float(t0)
        while True:
            kk = k.copy()
            sol = solve_ivp(lambda tt, yy, kk=kk: self.rhs(tt, yy, kk), (t, t_end), y, method=method, rtol=rtol,
                            atol=atol, dense_output=True, events=self._events(kk) or None, first_step=first_step)
            if sol.status < 0:
                raise NonholonomicError(f"integration failed at t = {sol.t[-1]}: {sol.message}")
            segments.append({"t0": t, "t1": float(sol.t[-1]), "sol": sol.sol, "k": kk, "nfev": sol.nfev})
            # lift-off is not modelled: the normal forces at the solver's steps must stay positive (at a large
            # mu h/(lever) the friction's moment would tip the vehicle, and a negative N would drive the slip)
            normal = np.array([self.forces(yy, kk)[1] for yy in sol.y.T])
            if np.min(normal) <= 0:
                j = int(np.argmin(np.min(normal, axis=1)))
                raise NonholonomicError(f"normal force {np.min(normal):.3g} N <= 0 at t = {sol.t[j]:.6g}: a wheel "
                                        "would lift off (the vehicle tips), which this model does not describe")
            if sol.status != 1:
                break
            te, ye = float(sol.t[-1]), sol.y[:, -1].copy()
            psi = geo.psi(ye[6:6 + Nw], kk)
            rate = ye[6 + Nw:6 + 2 * Nw]
            k, changed, signs = roller_change(te, kk, psi, rate, geo.half, 1e-9)
            changes.append({"time": te, "wheels": np.flatnonzero(changed), "signs": signs, "y": ye, "k_minus": kk,
                            "k_plus": k})
            y, t = ye, te
            if te >= t_end:
                break
        return segments, changes

    def columns(self):
        n = range(1, self.N + 1)
        return (("time",) + BASE_STATE + tuple(f"chi{i}" for i in n) + tuple(f"dchi{i}" for i in n)
                + ("work", "impulse_x", "impulse_y") + tuple(f"psi{i}" for i in n) + tuple(f"roller{i}" for i in n)
                + tuple(f"N{i}" for i in n) + tuple(f"f{i}" for i in n) + tuple(f"sigma{i}" for i in n)
                + ("energy", "px", "py"))

    def _row(self, t, y, k):
        _, normal, f, sigma = self.forces(y, k)
        return ([t] + list(y) + list(self.geo.psi(y[6:6 + self.N], k)) + list(k) + list(normal) + list(f)
                + list(sigma) + [self.energy(y)] + list(self.momentum(y)))

    def simulate(self, state0, t_eval, rtol=1e-10, atol=None, method="Radau") -> pd.DataFrame:
        """Integrate from state0 (:meth:`full_state`) at t_eval[0]; one row per time given (times may repeat:
        the state is continuous, the first of repeated times has the rollers before a change there, the others
        those after). Columns: time, x, y, phi, v1, v2, omega, chi1..N, dchi1..N, work (friction work so far),
        impulse_x, impulse_y (world impulse of the friction forces so far), psi1..N, roller1..N, N1..N (normal
        forces), f1..N (friction forces along alpha_i), sigma1..N (slips along alpha_i), energy, px, py (world
        momentum); ``attrs``: changes (roller changes), nfev, segments."""
        t_eval = np.asarray(t_eval, dtype=float)
        if t_eval.ndim != 1 or t_eval.size < 1 or np.any(np.diff(t_eval) < 0) or not np.all(np.isfinite(t_eval)):
            raise NonholonomicError("t_eval must be a non-empty non-decreasing 1-D array of finite times")
        segments, changes = self.integrate(state0, float(t_eval[-1]), float(t_eval[0]), rtol, atol, method)
        starts = np.array([seg["t0"] for seg in segments])
        ends = np.array([seg["t1"] for seg in segments])
        rows = []
        for j, t in enumerate(t_eval):
            repeated = (j + 1 < len(t_eval) and t_eval[j + 1] == t) and (j == 0 or t_eval[j - 1] != t)
            if repeated:
                seg = segments[min(int(np.searchsorted(ends, t, side="left")), len(segments) - 1)]
            else:
                seg = segments[max(int(np.searchsorted(starts, t, side="right")) - 1, 0)]
            rows.append(self._row(t, seg["sol"](t), seg["k"]))
        df = pd.DataFrame(rows, columns=self.columns())
        df.attrs["changes"] = changes
        df.attrs["nfev"] = int(sum(seg["nfev"] for seg in segments))
        df.attrs["segments"] = len(segments)
        return df
