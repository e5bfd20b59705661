"""Omni-wheel (or mecanum) vehicle with massless rollers: the nonholonomic model of Borisov, Kilin
and Mamaev (2011) used as the verification model of ch. 3, section 3.1 of seed 004.

Sources: K.V. Gerasimov, "Dynamics of an omni-wheel vehicle with roller inertia and friction",
thesis, Moscow State University, 2018 (seed 004), ch. 3 sec. 3.1-3.2, which reprints the equations
of A.V. Borisov, A.A. Kilin, I.S. Mamaev, "A cart with omni-wheels on a plane and a sphere",
Nelin. Dinam. 7(4), 2011, 785-801; DIGEST.md section 4.8. The printed equations have two defects,
both settled here by derivation and checked numerically in tests/test_reference_omni.py:

* CORRECTED (sign convention): the thesis prints J = [[0, 1], [-1, 0]]. With that J the equations
  are NOT those of the vehicle (they still conserve the energy, because J^2 = -E either way, but the
  massless-wheel limit I_i -> 0 then gives a free platform whose centre of mass circles instead of
  moving uniformly along a line). The force balance, and a brute-force Newton-Euler solve with the
  wheel spin rates as extra unknowns and the lateral contact forces as multipliers (tests), give

      J = [[0, -1], [1, 0]],   J r = e_z x r   (rotation by +90 degrees, counter-clockwise).

  Both conventions agree only when r_C = 0, R = 0 and v omega = 0 (e.g. the two motion types of
  ch. 3), so the ch. 3 experiments cannot tell them apart. This module uses J r = e_z x r.
* CORRECTED (physics): I_i is printed as "the moment of inertia of the wheel about its diameter".
  The wheel spin chi_i' enters the kinetic energy through the wheel's AXIAL moment (about its own
  axle); the moment about a diameter only adds a constant to the platform's yaw inertia (it belongs
  in I). Here I_i is the axial moment.

Vehicle and parameters
----------------------
Platform frame O e1 e2 e3: origin O (any point of the platform), e1 "forward", e3 = e_z up; all
2-vectors below are platform (body) components. N wheels, each a vertical disk whose plane is
fixed in the platform; wheel i has

* r_i: horizontal position of the wheel centre (= of its contact point Q_i, the wheel is vertical);
* e_i = (cos beta_i, sin beta_i): the wheel-plane direction ("rolling direction"), a_i = e_z x e_i
  the axle; the wheel spins about a_i with rate chi_i' (positive = rolling forward along e_i);
* h_i: wheel radius; I_i: AXIAL moment of inertia of the wheel with its rollers (see above);
* delta_i in (0, pi): angle from the wheel plane (e_i) to the line along which the contact point
  may slide, s_i' = cos delta_i e_i + sin delta_i a_i (pi/2: omni-wheel, rollers tangent to the rim;
  pi/4 or 3 pi/4: mecanum wheels of either hand). The roller axis is the unit vector perpendicular
  to it, alpha_i = sin delta_i e_i - cos delta_i a_i, and s_i = sin delta_i = (e_i, alpha_i).

m: total mass; r_C: centre of mass; I: moment of inertia about the vertical through O of the whole
vehicle frozen (platform plus the wheels as rigid bodies: their moments about vertical axes are
constant while they spin).

Constraints (ideal massless rollers): the velocity of the wheel-disk point at Q_i has no component
along the roller axis, (v_Qi, alpha_i) = 0, with v_Qi = v + omega J r_i - h_i chi_i' e_i:

    chi_i' = (v + omega J r_i, alpha_i) / (h_i s_i).                                (wheel rates)

Equations (BKM 2011 as reprinted in seed 004 sec. 3.1, with J = e_z x)
--------------------------------------------------------------------
State y = (x, y, phi, v1, v2, omega, chi_1..chi_N): pose of O ((x, y) world, phi = heading of e1
from world x), body-frame velocity v = (v1, v2) of O, yaw rate omega, wheel angles chi_i.

    (Gamma + m E) v' + m omega' (J r_C + Rv) + m omega J (v + omega J r_C) = 0
    I^ omega' + m (J r_C + Rv) . v' + m omega (v . r_C) = 0
    x' = v1 cos phi - v2 sin phi,  y' = v1 sin phi + v2 cos phi,  phi' = omega,  chi_i' as above,

    Gamma = sum_i I_i/(s_i h_i)^2 alpha_i alpha_i^T,
    Rv    = m^-1 sum_i I_i/(s_i h_i)^2 (J r_i . alpha_i) alpha_i       (printed as "R"),
    I^    = I + sum_i I_i/(s_i h_i)^2 (J r_i . alpha_i)^2.

Derivation (the check of the printed form): the platform momentum P = m (v + omega J r_C) and
angular momentum about O, K = I omega + m (J r_C . v), obey P' + omega J P = sum_i lambda_i alpha_i
and K' + m omega (v . r_C) = sum_i lambda_i (J r_i . alpha_i) (v x P = m omega (v . r_C) e_z); the
wheel spin obeys I_i chi_i'' = -h_i s_i lambda_i (moment of the lateral contact force lambda_i
alpha_i at Q_i about the axle); eliminating lambda_i with the differentiated constraint gives the
equations above. Only the platform momentum enters the gyroscopic terms, not Gamma: this is the
nonholonomic (non-Euler-Poincare) part.

Motors (torques between platform and wheels)
--------------------------------------------
A motor on wheel i applies the torque tau_i a_i to the wheel (about its axle a_i = e_z x e_i, the
direction about which chi_i' is positive) and -tau_i a_i to the platform. Its power is
tau_i a_i . (omega e_z + chi_i' a_i) - tau_i a_i . (omega e_z) = tau_i chi_i' (the spin relative to
the platform), and chi_i' = b_i . xi with b_i = (alpha_i1, alpha_i2, J r_i . alpha_i)/(h_i s_i), so the
generalised force on xi = (v1, v2, omega) is

    Q = B tau,   B = [b_1 ... b_N] (3 x N, `B_tau`),   Mcal xi' + g(xi) = Q,

g the gyroscopic terms above (xi . g = 0). In the derivation: the wheel spin equation becomes
I_i chi_i'' = -h_i s_i lambda_i + tau_i, so lambda_i = (tau_i - I_i chi_i'')/(h_i s_i) carries tau_i into
the platform equations; the reaction -tau_i a_i on the platform is horizontal and does not enter the
planar (force, yaw) equations at all (it is balanced by the normal forces and the axle's bending
reactions) -- the motors act on the motion only through the lateral contact forces lambda_i. Checked in
the tests by a body-by-body Newton-Euler solve (platform and wheels as separate rigid bodies, axle
reaction forces and vertical torques as unknowns). Power balance: dT/dt = xi . Q = sum_i tau_i chi_i'.

Closed forms (symmetric vehicle, delta = pi/2, from rest): equal torques tau on all wheels give
sum_i e_i = 0, J r_i . e_i = R, hence Q = (0, 0, N R tau/h) and a pure rotation with v = 0 and
omega' = N R tau/(h I^), I^ = I + N I_w R^2/h^2. For N = 3 and phase 0, the torques (0, tau, -tau) give
Q = (tau/h)(e_2 - e_3, R - R) = (-sqrt(3) tau/h, 0, 0): straight motion along a_1 = -r_1/R (from wheel
1 through the centre; wheel 1 does not turn) with acceleration sqrt(3) tau/(h (m + gamma)),
gamma = N I_w/(2 h^2).

Sign convention of the Modelica vehicle (Vehicles.OmniVehicle, Examples.OmniVehicleDriven):
`Joints.Revolute.tau` acts on the wheel (body B) about the axle n_a = (cos alpha_i, sin alpha_i, 0) of
the platform frame, the outward radial direction r_i/R_p. `OmniMassless.symmetric` (phase 0 = the
Modelica alpha_i) has e_i = e_z x r_i/R and hence a_i = e_z x (e_z x r_i/R) = -r_i/R = -n_a, so

    tau_reference = -tau_Modelica,   chi_i'(reference) = -wheelRate_i (= -axle.w_rel),

and the power tau_i chi_i' is the same in both. (Consistently, the Modelica wheel rolls forward along
e_z x n_a when it turns about -n_a; see the start values s_0 in OmniVehicle.)

Energy integral: T = 1/2 m v^2 + m omega (J r_C . v) + 1/2 I omega^2 + 1/2 sum_i I_i chi_i'^2
= 1/2 (v, omega) Mcal (v, omega)^T with Mcal = [[m E + Gamma, m (J r_C + Rv)], [., I^]] (constant
without motors; with motors dT/dt = sum_i tau_i chi_i').

Analytic oracle (symmetric N >= 3 omni vehicle, delta = pi/2, equal wheels equally spaced on a
circle with e_i perpendicular to r_i, r_C = 0): Rv = 0 and Gamma = gamma E with
gamma = N I_w/(2 h^2), so omega = const and (m + gamma) v' = -m omega J v: v turns in the platform
frame at the rate kappa = m omega/(m + gamma), and the world velocity at the rate omega - kappa:

    v(t) = Rot(-kappa t) v0,   phi = phi0 + omega t,   (x, y) = (x0, y0) + t sinc((omega - kappa) t/2)
    Rot(phi0 + (omega - kappa) t/2) v0  (sinc(u) = sin u/u).

Type 1 of ch. 3 (v0 = 0, omega0 = 1): O stays at the origin, psi = phi = omega0 t. Type 2 (v0 = 1
along one wheel's axle, omega0 = 0): uniform straight motion, psi = const. See `closed_form`, which
needs (and checks) r_C = 0, Rv = 0 and an isotropic Gamma.

World mapping (3-D model; quaternions scalar first, T resolves body vectors in the world frame)
-------------------------------------------------------------------------------------------
Platform: body frame (e1, e2, e3), T = Rz(phi), origin O at (x, y, z_O) (z_O = `height`, default
the mean wheel radius: O in the plane of the wheel centres). Wheel i: frame (e_i, a_i, e_z) at zero
chi_i, spinning about its y axis: T_i = Rz(phi + beta_i) Ry(chi_i); centre (x, y, 0) + Rz(phi)
(r_i, h_i); angular velocity omega e_z + chi_i' a_i. See `to_world`, `from_world`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from nonholonomic.errors import NonholonomicError
from nonholonomic.references.common import body_attitude, integrate, quaternion_product, quaternion_to_matrix

BASE_STATE = ("x", "y", "phi", "v1", "v2", "omega")


def _jr(r):
    """J r = e_z x r for 2-vectors with the components first (J = [[0, -1], [1, 0]])."""
    r = np.asarray(r, dtype=float)
    return np.stack([-r[1], r[0]])


def _qz(angle):
    z = np.zeros_like(angle)
    return np.stack([np.cos(0.5 * angle), z, z, np.sin(0.5 * angle)], axis=-1)


def _qy(angle):
    z = np.zeros_like(angle)
    return np.stack([np.cos(0.5 * angle), z, np.sin(0.5 * angle), z], axis=-1)


def _per_wheel(value, N, name):
    arr = np.broadcast_to(np.asarray(value, dtype=float), (N,)).copy()
    if not np.all(np.isfinite(arr)):
        raise NonholonomicError(f"{name} must be finite, got {value}")
    return arr


class OmniMassless:
    """Vehicle on N omni/mecanum wheels with massless rollers (BKM 2011); see the module docstring."""

    def __init__(self, positions, directions, h, I_w, delta, m: float, I: float,  # noqa: E741
                 r_C=(0.0, 0.0), height: float | None = None):
        pos = np.asarray(positions, dtype=float)
        if pos.ndim != 2 or pos.shape[1] != 2 or pos.shape[0] < 1 or not np.all(np.isfinite(pos)):
            raise NonholonomicError(f"positions must be finite (N, 2) wheel centres, got shape {pos.shape}")
        N = pos.shape[0]
        d = np.asarray(directions, dtype=float)
        if d.shape == (N,):
            beta = d
        elif d.shape == (N, 2):
            norm = np.linalg.norm(d, axis=1)
            if not np.all(norm > 0):
                raise NonholonomicError("wheel directions must be non-zero vectors")
            beta = np.arctan2(d[:, 1], d[:, 0])
        else:
            raise NonholonomicError(f"directions must be N = {N} angles or (N, 2) vectors, got shape {d.shape}")
        if not np.all(np.isfinite(beta)):
            raise NonholonomicError("wheel directions must be finite")
        self.N = N
        self.r = pos.T.copy()                                      # (2, N)
        self.beta = beta
        self.h = _per_wheel(h, N, "h")
        self.I_w = _per_wheel(I_w, N, "I_w")
        self.delta = _per_wheel(delta, N, "delta")
        if np.any(self.h <= 0):
            raise NonholonomicError(f"wheel radii h must be positive, got {h}")
        if np.any(self.I_w < 0):
            raise NonholonomicError(f"wheel axial moments I_w must be >= 0, got {I_w}")
        self.s = np.sin(self.delta)
        if np.any(self.s <= 1e-12):
            raise NonholonomicError(f"delta must lie in (0, pi) (sliding not along the wheel plane), got {delta}")
        self.m, self.I = float(m), float(I)
        self.r_C = np.asarray(r_C, dtype=float).reshape(2)
        if not (np.isfinite(self.m) and self.m > 0):
            raise NonholonomicError(f"m must be positive, got {m}")
        if not np.all(np.isfinite(self.r_C)):
            raise NonholonomicError(f"r_C must be finite, got {r_C}")
        if not (np.isfinite(self.I) and self.I - self.m * (self.r_C @ self.r_C) > 0):
            raise NonholonomicError(f"I (about O) must exceed m |r_C|^2 = {self.m * (self.r_C @ self.r_C)}, got {I}")
        self.height = float(np.mean(self.h)) if height is None else float(height)
        # wheel geometry in body components
        self.e = np.stack([np.cos(beta), np.sin(beta)])            # (2, N) wheel-plane directions
        self.a = _jr(self.e)                                      # (2, N) axles e_z x e_i
        self.alpha = np.sin(self.delta) * self.e - np.cos(self.delta) * self.a   # roller axes
        self.k = self.I_w / (self.s * self.h) ** 2                 # I_i/(s_i h_i)^2
        self.jra = np.sum(_jr(self.r) * self.alpha, axis=0)        # (J r_i . alpha_i)
        self.Gamma = (self.k * self.alpha) @ self.alpha.T
        self.Rv = (self.alpha @ (self.k * self.jra)) / self.m
        self.I_hat = self.I + float(np.sum(self.k * self.jra**2))
        c = self.m * (_jr(self.r_C) + self.Rv)
        Mc = np.zeros((3, 3))
        Mc[:2, :2] = self.m * np.eye(2) + self.Gamma
        Mc[:2, 2] = Mc[2, :2] = c
        Mc[2, 2] = self.I_hat
        if np.min(np.linalg.eigvalsh(Mc)) <= 0:
            raise NonholonomicError("the mass matrix on the constraints is not positive definite")
        self.Mcal = Mc
        self._Minv = np.linalg.inv(Mc)
        # generalised force per unit motor torque: column i = (alpha_i, J r_i . alpha_i)/(h_i s_i)
        self.B_tau = np.vstack([self.alpha, self.jra[None, :]]) / (self.h * self.s)

    @classmethod
    def symmetric(cls, N: int = 3, R: float = 0.15, h: float = 0.05, I_w: float = 1e-4,
                  m: float = 2.0, I: float = 0.03, delta: float = np.pi / 2, phase: float = 0.0,
                  height: float | None = None):
        """N equal wheels at r_i = R (cos a_i, sin a_i), a_i = phase + 2 pi (i-1)/N, wheel planes
        perpendicular to r_i (e_i = e_z x r_i/R, axles radial as in seed 004 ch. 1-3), r_C = 0."""
        if int(N) != N or N < 1:
            raise NonholonomicError(f"N must be a positive integer, got {N}")
        if not R > 0:
            raise NonholonomicError(f"R must be positive, got {R}")
        ang = phase + 2.0 * np.pi * np.arange(int(N)) / int(N)
        pos = R * np.stack([np.cos(ang), np.sin(ang)], axis=1)
        return cls(pos, ang + 0.5 * np.pi, h, I_w, delta, m, I, (0.0, 0.0), height)

    # ------------------------------------------------------------------ kinematics
    def wheel_rates(self, state):
        """chi_i' = (v + omega J r_i, alpha_i)/(h_i s_i) = ((alpha_i, v) + omega (J r_i, alpha_i))/(h_i s_i):
        shape (N,) or (N, k)."""
        y = np.asarray(state, dtype=float)
        v, w = y[3:5], y[5]
        extra = (1,) * (np.ndim(w))
        num = np.tensordot(self.alpha.T, v, axes=1) + self.jra.reshape((-1,) + extra) * w
        return num / (self.h * self.s).reshape((-1,) + extra)

    def contact_points(self, state):
        """World (x, y) of the contact points Q_i: shape (N, 2) or (k, N, 2) for states (6+, k)."""
        y = np.asarray(state, dtype=float)
        c, s = np.cos(y[2]), np.sin(y[2])
        X = y[0][..., None] + c[..., None] * self.r[0] - s[..., None] * self.r[1]
        Y = y[1][..., None] + s[..., None] * self.r[0] + c[..., None] * self.r[1]
        return np.stack([X, Y], axis=-1)

    # ------------------------------------------------------------------ dynamics
    def _torques(self, torques):
        tau = np.asarray(torques, dtype=float)
        if tau.ndim == 0 or tau.shape[0] != self.N or tau.ndim > 2:
            raise NonholonomicError(f"torques must have N = {self.N} entries (first axis), got shape {tau.shape}")
        if not np.all(np.isfinite(tau)):
            raise NonholonomicError(f"torques must be finite, got {torques}")
        return tau

    def generalized_force(self, torques):
        """Q = B_tau tau = sum_i tau_i/(h_i s_i) (alpha_i1, alpha_i2, J r_i . alpha_i): the generalised
        force on xi = (v1, v2, omega) of the motor torques tau_i (about a_i on wheel i, -tau_i a_i on the
        platform); torques (N,) or (N, k) gives (3,) or (3, k)."""
        return self.B_tau @ self._torques(torques)

    def power(self, state, torques):
        """Power of the motors, sum_i tau_i chi_i' (= xi . Q = dT/dt)."""
        tau = self._torques(torques)
        rates = self.wheel_rates(state)
        if tau.ndim < rates.ndim:
            tau = tau[:, None]
        return np.sum(tau * rates, axis=0)

    def accelerations(self, state, torques=None):
        """(v1', v2', omega') from Mcal xi' + g = Q; state (6+,) or (6+, k).

        torques: None (no motors; the same numbers as before motors were added) or the N motor torques
        tau_i about the axles a_i, shape (N,) or (N, k) (see the module docstring)."""
        y = np.asarray(state, dtype=float)
        v1, v2, w = y[3], y[4], y[5]
        m, rc = self.m, self.r_C
        # gyroscopic terms: m omega J (v + omega J r_C) and m omega (v . r_C)
        u1 = v1 - w * rc[1]
        u2 = v2 + w * rc[0]
        g = np.array([-m * w * u2, m * w * u1, m * w * (v1 * rc[0] + v2 * rc[1])])
        if torques is None:
            return -(self._Minv @ g.reshape(3, -1)).reshape(g.shape)
        Q = self.generalized_force(torques)
        if Q.ndim < g.ndim:
            Q = Q[:, None]
        elif g.ndim < Q.ndim:
            g = g[:, None]
        f = g - Q                                      # (3,) or (3, k)
        return -(self._Minv @ f.reshape(3, -1)).reshape(f.shape)

    def rhs(self, t, y, torques=None):
        """dy/dt for y = (x, y, phi, v1, v2, omega, chi_1..chi_N) (or the first 6 only); torques as in
        `accelerations` (None: no motors)."""
        y = np.asarray(y, dtype=float)
        c, s = np.cos(y[2]), np.sin(y[2])
        acc = self.accelerations(y, torques)
        out = [y[3] * c - y[4] * s, y[3] * s + y[4] * c, y[5], acc[0], acc[1], acc[2]]
        base = np.array(out)
        if y.shape[0] == 6:
            return base
        return np.concatenate([base, self.wheel_rates(y)])

    def energy(self, state):
        """T = 1/2 xi^T Mcal xi, xi = (v1, v2, omega) (equals 1/2 m |v_C|^2 + ... + 1/2 sum I_i chi_i'^2)."""
        y = np.asarray(state, dtype=float)
        xi = y[3:6]
        return 0.5 * np.einsum("i...,ij,j...->...", xi, self.Mcal, xi)

    def energy_direct(self, state):
        """The same energy from its definition, with chi_i' from the constraints (a check)."""
        y = np.asarray(state, dtype=float)
        v1, v2, w = y[3], y[4], y[5]
        jrc = _jr(self.r_C)
        chi = self.wheel_rates(y)
        spin = np.sum(self.I_w.reshape((-1,) + (1,) * (chi.ndim - 1)) * chi**2, axis=0)
        return 0.5 * self.m * (v1**2 + v2**2) + self.m * w * (jrc[0] * v1 + jrc[1] * v2) \
            + 0.5 * self.I * w**2 + 0.5 * spin

    # ------------------------------------------------------------------ simulation
    def _full_state(self, state0):
        y0 = np.asarray(state0, dtype=float).reshape(-1)
        if y0.shape == (6,):
            y0 = np.concatenate([y0, np.zeros(self.N)])
        if y0.shape != (6 + self.N,):
            raise NonholonomicError(f"state0 must have 6 {BASE_STATE} or {6 + self.N} entries (+ chi_i), "
                                    f"got {y0.shape[0]}")
        return y0

    def columns(self):
        """Column names of `simulate`."""
        n = range(1, self.N + 1)
        return (("time",) + BASE_STATE + tuple(f"chi{i}" for i in n) + tuple(f"dchi{i}" for i in n)
                + ("energy",) + tuple(f"xq{i}" for i in n) + tuple(f"yq{i}" for i in n))

    def _frame(self, y, t):
        chi_rate = self.wheel_rates(y)
        q = self.contact_points(y)                                  # (k, N, 2)
        data = {"time": t, **dict(zip(BASE_STATE, y[:6]))}
        for i in range(self.N):
            data[f"chi{i + 1}"] = y[6 + i]
        for i in range(self.N):
            data[f"dchi{i + 1}"] = chi_rate[i]
        data["energy"] = self.energy(y)
        for i in range(self.N):
            data[f"xq{i + 1}"] = q[:, i, 0]
        for i in range(self.N):
            data[f"yq{i + 1}"] = q[:, i, 1]
        return pd.DataFrame(data)

    def simulate(self, state0, t_eval, rtol=1e-12, atol=1e-12, method="DOP853", torques=None) -> pd.DataFrame:
        """Integrate from state0 = (x, y, phi, v1, v2, omega[, chi_1..chi_N]) (chi default 0).

        torques (motor torques tau_i about the axles a_i, module docstring): None (no motors), a
        constant array of N, or a callable torques(t, y) -> array of N, y the full state (6 + N,)
        (x, y, phi, v1, v2, omega, chi_1..chi_N); it is evaluated at every stage of the integrator, so
        it is a continuous-time feedback and should be smooth in t and y (a discontinuity costs
        steps and accuracy). A sampled controller (zero-order hold) is one `simulate` call per sample
        with a constant array, started from the last row's full state (chi included).

        DataFrame columns: time, x, y, phi, v1, v2, omega, chi1..chiN, dchi1..dchiN, energy,
        xq1..xqN, yq1..yqN (world contact points, for plots of the contact traces)."""
        y0 = self._full_state(state0)
        t_eval = np.asarray(t_eval, dtype=float)
        if torques is None:
            rhs = self.rhs
        elif callable(torques):
            def rhs(t, y):
                tau = self._torques(torques(t, y))
                if tau.shape != (self.N,):
                    raise NonholonomicError(f"torques(t, y) must return N = {self.N} values, got shape {tau.shape}")
                return self.rhs(t, y, tau)
        else:
            tau = self._torques(torques)
            if tau.shape != (self.N,):
                raise NonholonomicError(f"constant torques must have shape ({self.N},), got {tau.shape}")

            def rhs(t, y):
                return self.rhs(t, y, tau)
        return self._frame(integrate(rhs, y0, t_eval, rtol, atol, method), t_eval)

    # ------------------------------------------------------------------ closed form
    def is_symmetric(self, tol: float = 1e-12) -> bool:
        """True if r_C = 0, Rv = 0 and Gamma is isotropic (the case of `closed_form`)."""
        scale = max(1.0, float(np.max(np.abs(self.Gamma))))
        return bool(np.all(np.abs(self.r_C) <= tol) and np.all(np.abs(self.Rv) <= tol * scale)
                    and abs(self.Gamma[0, 1]) <= tol * scale
                    and abs(self.Gamma[0, 0] - self.Gamma[1, 1]) <= tol * scale)

    def closed_form(self, state0, t) -> pd.DataFrame:
        """Exact motion of the symmetric vehicle (module docstring); columns of `simulate`."""
        if not self.is_symmetric():
            raise NonholonomicError("closed_form needs r_C = 0, Rv = 0 and an isotropic Gamma")
        y0 = self._full_state(state0)
        t = np.asarray(t, dtype=float)
        gamma = self.Gamma[0, 0]
        w = y0[5]
        kap = self.m * w / (self.m + gamma)
        mu = w - kap
        v0 = y0[3:5]

        def rot(a, vec):
            c, s = np.cos(a), np.sin(a)
            return np.stack([c * vec[0] - s * vec[1], s * vec[0] + c * vec[1]])

        v = rot(-kap * t, v0)
        chord = t * np.sinc(0.5 * mu * t / np.pi)
        disp = chord * rot(y0[2] + 0.5 * mu * t, v0)
        body_disp = t * np.sinc(0.5 * kap * t / np.pi) * rot(-0.5 * kap * t, v0)   # int v dt (body)
        jr = _jr(self.r)
        chi = y0[6:, None] + (np.einsum("ik,in->nk", body_disp, self.alpha)
                              + w * t[None, :] * np.sum(jr * self.alpha, axis=0)[:, None]) \
            / (self.h * self.s)[:, None]
        one = np.ones_like(t)
        y = np.vstack([y0[0] + disp[0], y0[1] + disp[1], y0[2] + w * t, v[0], v[1], w * one, chi])
        return self._frame(y, t)

    # ------------------------------------------------------------------ world mapping
    def to_world(self, state):
        """{'platform': {...}, 'wheel1': {...}, ...}: each dict(r_0, Q, T, v_0, w_0) (world frame).

        Platform: origin O at height `height`, Q = Rz(phi). Wheel i: centre, Q_i = Rz(phi + beta_i)
        Ry(chi_i), velocity of the centre, angular velocity omega e_z + chi_i' a_i. A state (6+N,)
        gives (3,), (4,), (3, 3) arrays; (6+N, k) gives (k, 3), (k, 4), (k, 3, 3)."""
        y = np.asarray(state, dtype=float)
        if y.shape[0] != 6 + self.N:
            raise NonholonomicError(f"to_world needs the full state with the {self.N} wheel angles")
        x, yy, phi, v1, v2, w = y[:6]
        c, s = np.cos(phi), np.sin(phi)
        zero = np.zeros_like(phi)
        col = lambda a: np.asarray(a)[..., None]
        ez = np.stack([zero, zero, zero + 1.0], axis=-1)
        vO = np.stack([v1 * c - v2 * s, v1 * s + v2 * c, zero], axis=-1)
        Qp = _qz(phi)
        out = {"platform": {"r_0": np.stack([x, yy, zero + self.height], axis=-1), "Q": Qp,
                            "T": quaternion_to_matrix(Qp), "v_0": vO, "w_0": col(w) * ez}}
        rates = self.wheel_rates(y)
        for i in range(self.N):
            rx, ry = self.r[:, i]
            wx, wy = c * rx - s * ry, s * rx + c * ry                # Rz(phi) r_i
            centre = np.stack([x + wx, yy + wy, zero + self.h[i]], axis=-1)
            vel = vO + col(w) * np.stack([-wy, wx, zero], axis=-1)
            ang = phi + self.beta[i]
            axle = np.stack([-np.sin(ang), np.cos(ang), zero], axis=-1)
            Q = quaternion_product(_qz(ang), _qy(y[6 + i]))
            out[f"wheel{i + 1}"] = {"r_0": centre, "Q": Q, "T": quaternion_to_matrix(Q), "v_0": vel,
                                    "w_0": col(w) * ez + col(rates[i]) * axle}
        return out

    def from_world(self, platform, wheels=None, tol: float | None = 1e-6):
        """State from 3-D world kinematics.

        platform: dict with r_0 (O), v_0 (velocity of O), w_0 (angular velocity) and the attitude
        as Q (scalar first, sign free) or T. wheels: None (returns the 6-state) or a list of N dicts
        with the attitude (Q or T) of each wheel (returns the 6+N state; chi_i in (-pi, pi]).
        With `tol` set, a residual larger than tol of the planar motion (platform level, at height
        `height`, no vertical velocity or tilt rate), of the wheel mounting (wheel frames Rz(phi +
        beta_i) Ry(chi_i)) or of the constraint on the wheel angular velocities raises
        NonholonomicError."""
        Tp = body_attitude(platform, "platform")
        r0 = np.asarray(platform["r_0"], dtype=float)
        v0 = np.asarray(platform["v_0"], dtype=float)
        w0 = np.asarray(platform["w_0"], dtype=float)
        phi = np.arctan2(Tp[..., 1, 0], Tp[..., 0, 0])
        c, s = np.cos(phi), np.sin(phi)
        v1 = c * v0[..., 0] + s * v0[..., 1]
        v2 = -s * v0[..., 0] + c * v0[..., 1]
        base = np.array([r0[..., 0], r0[..., 1], phi, v1, v2, w0[..., 2]])
        resid = [np.abs(Tp[..., 2, 2] - 1.0), np.abs(r0[..., 2] - self.height), np.abs(v0[..., 2]),
                 np.abs(w0[..., 0]), np.abs(w0[..., 1])]
        if wheels is None:
            state = base
        else:
            if len(wheels) != self.N:
                raise NonholonomicError(f"give {self.N} wheel dicts, got {len(wheels)}")
            chis = []
            for i, wd in enumerate(wheels):
                Ti = body_attitude(wd, f"wheel{i + 1}")
                T0 = quaternion_to_matrix(_qz(phi + self.beta[i]))
                M = np.swapaxes(T0, -1, -2) @ Ti                     # should be Ry(chi)
                chis.append(np.arctan2(M[..., 0, 2], M[..., 0, 0]))
                resid.append(np.abs(M[..., 1, 1] - 1.0))
            state = np.concatenate([base, np.array(chis)])
            ref = self.to_world(state)
            for i, wd in enumerate(wheels):
                if "w_0" in wd:
                    resid.append(np.abs(np.asarray(wd["w_0"], dtype=float) - ref[f"wheel{i + 1}"]["w_0"]))
        if tol is not None:
            worst = max(float(np.max(r)) for r in resid)
            if worst > tol:
                raise NonholonomicError(f"world state violates the omni-vehicle constraints "
                                        f"(residual {worst:.3g} > tol {tol:g})")
        return state
