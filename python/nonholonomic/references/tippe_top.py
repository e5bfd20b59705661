"""Tippe top with compliant Hertz contacts: a free rigid body whose two spheres touch the plane z = 0.

Model of Leine & Glocker (2003, "A set-valued force law for spatial Coulomb-Contensou friction",
Eur. J. Mech. A/Solids 22(2), 193-216, Section 6), with the set-valued contact replaced by a compliant
one: Hertz normal force with Hunt-Crossley damping and the regularised Coulomb-Contensou friction of
:mod:`nonholonomic.references.contact_patch` (whose laws f, g are used as they are). Written here from the
Newton-Euler equations of a free rigid body, independently of any Modelica model; checked in
tests/test_reference_tippe_top.py (energy balance, Jellett's quantity, static penetration, upright spin).

Body and parameters (defaults: the top of Leine & Glocker)
----------------------------------------------------------
Mass m = 6e-3 kg, central principal moments I1 = I2 = 8e-7, I3 = 7e-7 kg m^2 about body axes x, y, z; the
body z axis is the symmetry axis, pointing to the head. Body sphere: radius R1 = 0.015 m, centre at
e1 = 0.003 m from the centre of mass G along +z_body; head (stem) sphere: R2 = 0.005 m, centre at
e2 = 0.016 m. Friction coefficient mu = 0.3, g = 9.81, both bodies of E = 9.1e9 Pa and Poisson ratio
nu = 0.3, so E* = 1/((1-nu^2)/E + (1-nu^2)/E) = E/(2(1-nu^2)) = 5.0e9 Pa.

State y (14 entries, STATE): centre of mass r (world), its velocity v (world), the unit quaternion q
(scalar first, T(q) resolves body vectors in the world frame; common.quaternion_to_matrix's convention),
the angular velocity w_b in BODY axes, and W = the work dissipated so far (damping + friction), J.

    r' = v,   m v' = F1 + F2 - m g e_z,
    q' = 1/2 q o (0, w_b) + lam (1 - |q|^2) q,
    I w_b' = tau_b - w_b x I w_b,       tau_b = T^T tau_G,   I = diag(I1, I2, I3),
    W' = P_diss (below).

Attitude drift: the rotation used in the right-hand side is T(q/|q|), so the dynamics never see |q|; the
kinematic term preserves |q| exactly and the term lam (1 - |q|^2) q (lam = LAMBDA_Q = 10 1/s, far below
the contact's stiffness, so it costs no step size) pulls back the integration error in |q|. The output
column quat_norm_error = |q| - 1 shows what is left (of the order of rtol).

Contacts (sphere i = 1 body, 2 head; centre c_i = r + e_i z_b, z_b = T e_z)
--------------------------------------------------------------------------
Penetration delta_i = R_i - c_i.z. When delta_i > 0 (else the sphere exerts nothing):

    a_i = sqrt(R_i delta_i)               Hertz patch radius,
    p_i = c_i - (R_i - delta_i) e_z       patch centre, ON the plane (p_i = (c_i.x, c_i.y, 0)),
    v_p = v + w x (p_i - r)               velocity of the body's material point at p_i (w = T w_b),
    delta_dot = -v_p.z,
    N_el = 4/3 E* sqrt(R_i) delta^(3/2),  N = max(0, N_el (1 + d delta_dot))   (Hunt & Crossley 1975),
    v_t = (v_p.x, v_p.y),  omega_n = w.z,
    s_r = sqrt(|v_t|^2 + eps^2),  w_r = sqrt((a omega_n)^2 + eps^2),  u = s_r / w_r,
    F_t = -mu N f(u) v_t / s_r,   M_n = -mu N a g(u) (a omega_n) / w_r,

with (f, g) = contact_patch.law_fg(law, u) (law "point", "contensou", "ellipsoid", "exact" or 1..4). This is
contact_patch.friction_wrench written out with scalars (it costs 75 us a call through numpy, a third of a
right-hand side); the tests check the two agree. The force F_i = N e_z + F_t acts at p_i, the couple M_n e_z
is free: tau_G = sum_i (p_i - r) x F_i + M_n,i e_z.

Energy balance
--------------
E = 1/2 m |v|^2 + 1/2 w_b . I w_b + m g r.z (column `energy`, kinetic + gravity as asked) and the elastic
energy U = sum_i 8/15 E* sqrt(R_i) delta_i^(5/2) (column `elastic`; U' = N_el delta_dot). The power of the
contact on the body is sum_i (N v_p.z + F_t . v_t + M_n omega_n), so

    d(E + U)/dt = -P_diss,   P_diss = sum_i [(N - N_el) delta_dot - F_t . v_t - M_n omega_n] >= 0

(each term is >= 0: (N - N_el) delta_dot = d N_el delta_dot^2 unclipped, -N_el delta_dot > 0 when the clip
acts, which needs delta_dot < -1/d; F_t is anti-parallel to v_t and M_n to omega_n). E + U + W is constant.
With mu = 0 and d = 0 nothing dissipates; U is then the only difference between E and a constant
(U = 4e-9 J at rest against E = 1.2e-2 J: 3e-7 relative, above the integration error, so the tests use E + U).

Damping factor (default d = 1000 s/m)
--------------------------------------
Resting upright on the body sphere, N_el(delta0) = m g gives the static penetration

    delta0 = (3 m g / (4 E* sqrt(R1)))^(2/3) = 1.70e-7 m   (defaults).

Linearised about it, the stiffness is k = dN_el/d delta = 3/2 m g / delta0 and the damping coefficient
c = dN/d delta_dot = N_el d = m g d, so the vertical oscillation (mass m; the rotation does not enter for an
upright top) has omega0 = sqrt(3 g / (2 delta0)) = 9.3e3 rad/s and damping ratio

    zeta = c / (2 m omega0) = g d / (2 omega0) = d sqrt(g delta0 / 6).

zeta = 0.5 asks d = omega0 / g = 946 s/m; d = 1000 s/m gives zeta = 0.53 (`vertical_oscillation`).

Jellett's quantity
------------------
J = L_G . rho,  L_G = T I w_b (angular momentum about G),  rho = e1 z_b - R1 e_z,

rho being p_1 - r for a rigid body sphere (delta_1 = 0). About G, L_G' = tau_G (gravity has no moment), and
rho' = e1 w x z_b, so

    J' = tau_G . rho + e1 L_G . (w x z_b).

The second term vanishes for I1 = I2: I w = I1 w + (I3 - I1)(w . z_b) z_b, and both parts are orthogonal to
w x z_b. (It is kept in `jellett_rate` for I1 != I2.) With the actual patch centre p_1 - r = rho + delta_1 e_z
the body-sphere force F_1 contributes ((rho + delta_1 e_z) x F_1) . rho = delta_1 (e_z x F_1) . e1 z_b
= -e1 delta_1 (z_b x F_t1) . e_z (the normal part of F_1 drops out, e_z x e_z = 0), and its couple
M_n1 e_z . rho = M_n1 (e1 cos theta - R1). Hence J is conserved when the friction is a pure force through
the contact point of the body sphere (law "point": M_n = 0), up to the O(delta) term; in general

    J' = M_n1 (e1 cos theta - R1) - e1 delta_1 (z_b x F_t1) . e_z                         (body sphere)
       + M_n2 (e1 cos theta - R1) + (e1 (R2 - delta_2) - e2 R1) (z_b x F_t2) . e_z        (head, if touching)

where the head term follows in the same way from p_2 - r = e2 z_b - (R2 - delta_2) e_z:
((e2 z_b - h e_z) x F_2) . (e1 z_b - R1 e_z) = -e2 R1 (z_b x F_2) . e_z + h e1 (z_b x F_2) . e_z with
h = R2 - delta_2, and (z_b x N_2 e_z) . e_z = 0. cos theta = z_b . e_z.

Initial state (`initial_state`)
-------------------------------
Symmetry axis tilted by theta0 (default 0.1 rad) by a rotation about the world x axis, q = (cos theta0/2,
sin theta0/2, 0, 0), z_b = (0, -sin theta0, cos theta0); spin spin0 (default 180 rad/s) about the symmetry
axis, w_b = (0, 0, spin0); centre of mass at rest; body sphere just touching the plane above the origin,
c_1 = (0, 0, R1), i.e. r = (0, e1 sin theta0, R1 - e1 cos theta0). It then settles onto its static
penetration within ~1 ms (zeta ~ 0.5).

Integration and measured behaviour
----------------------------------
The contact is stiff (omega0 ~ 1e4 rad/s, and |dF_t/dv_t| ~ mu N / eps when the slip is small), so the
default method is LSODA (scipy's solve_ivp), which switches between Adams and BDF; BDF and Radau give the
same results (scipy's finite-difference Jacobian may print a harmless overflow warning with them). The
right-hand side is scalar Python (one call ~5 us separated, ~25-30 us with one contact: law_fg is most of
it). Measured on one core (this machine): the default top (law contensou, rtol 1e-8) over 10 s takes
8.4 s in the solver (290e3 right-hand sides; 21 s with the other core busy), mu = 0 takes 1.3 s.

Default top, law contensou: it inverts; theta first exceeds 0.95 pi at t = 1.59712 s (sampled every
1e-5 s: 1.5971158 s at rtol 1e-8 and 1e-10, with LSODA, BDF and Radau alike; 1.5971182 s at rtol 1e-6),
the head first touches at t = 1.45631 s, and it then spins on the head (theta ~ 2.9-3.1 rad, spin about
-100 rad/s, i.e. still the same sense about the vertical) to t = 10 s. Laws ellipsoid and exact invert
later (1.965 s and 1.889 s); with the point law the top settles within 0.5 s into near-rolling (slip
~1e-5 m/s < eps, no pivoting resistance), theta oscillates between 0.033 and 0.05 rad and it does not
invert within 10 s; nor with mu = 0 (theta stays 0.098-0.100 rad over 10 s).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, fields

import numpy as np
import pandas as pd
from scipy.integrate import solve_ivp

from nonholonomic.errors import NonholonomicError
from nonholonomic.references.contact_patch import LAWS, law_fg

STATE = ("x", "y", "z", "vx", "vy", "vz", "q0", "q1", "q2", "q3", "wx", "wy", "wz", "dissipated")
LAMBDA_Q = 10.0  # 1/s, rate at which the quaternion's norm error is pulled back
MAX_PENETRATION = 0.01  # initial penetration allowed, fraction of the sphere's radius


@dataclass(frozen=True)
class TippeTop:
    """Tippe top on the plane z = 0 with compliant Hertz contacts (see the module docstring).

    All lengths in m, masses in kg, moments in kg m^2, E in Pa, d in s/m, eps in m/s, angles in rad."""

    m: float = 6e-3
    I1: float = 8e-7
    I2: float = 8e-7
    I3: float = 7e-7
    R1: float = 0.015
    e1: float = 0.003
    R2: float = 0.005
    e2: float = 0.016
    mu: float = 0.3
    g: float = 9.81
    E: float = 9.1e9
    nu: float = 0.3
    d: float = 1000.0
    law: str | int = "contensou"
    eps: float = 1e-4
    theta0: float = 0.1
    spin0: float = 180.0

    def __post_init__(self):
        for f in fields(self):
            if f.name == "law":
                continue
            val = getattr(self, f.name)
            if isinstance(val, bool) or not isinstance(val, (int, float, np.integer, np.floating)) \
                    or not math.isfinite(val):
                raise NonholonomicError(f"tippe top: {f.name} must be a finite number, got {val!r}")
            object.__setattr__(self, f.name, float(val))
        for name in ("m", "I1", "I2", "I3", "R1", "R2", "E", "eps"):
            if not getattr(self, name) > 0:
                raise NonholonomicError(f"tippe top: {name} must be positive, got {getattr(self, name)}")
        if self.mu < 0:
            raise NonholonomicError(f"tippe top: friction coefficient mu must be >= 0, got {self.mu}")
        if self.d < 0:
            raise NonholonomicError(f"tippe top: damping factor d must be >= 0, got {self.d}")
        if self.g < 0:
            raise NonholonomicError(f"tippe top: gravity g must be >= 0, got {self.g}")
        if not -1.0 < self.nu <= 0.5:
            raise NonholonomicError(f"tippe top: Poisson ratio nu must lie in (-1, 0.5], got {self.nu}")
        I1, I2, I3 = self.I1, self.I2, self.I3
        tol = 1e-12 * (I1 + I2 + I3)
        if I1 + I2 < I3 - tol or I2 + I3 < I1 - tol or I3 + I1 < I2 - tol:
            raise NonholonomicError(f"tippe top: principal moments violate the triangle inequality: "
                                    f"I1 = {I1}, I2 = {I2}, I3 = {I3}")
        law = self.law
        if isinstance(law, (np.integer,)):
            law = int(law)
        if isinstance(law, bool) or not (law in LAWS or (isinstance(law, int) and 1 <= law <= len(LAWS))):
            raise NonholonomicError(f"tippe top: unknown friction law {self.law!r}; use one of "
                                    f"{', '.join(LAWS)} (or 1..4)")
        object.__setattr__(self, "law", LAWS[law - 1] if isinstance(law, int) else law)

    # ------------------------------------------------------------------ derived constants
    @property
    def E_star(self) -> float:
        """Effective modulus E/(2 (1 - nu^2)) (both bodies alike)."""
        return self.E / (2.0 * (1.0 - self.nu**2))

    def static_penetration(self) -> float:
        """delta0 = (3 m g / (4 E* sqrt(R1)))^(2/3): upright top at rest on the body sphere."""
        return (3.0 * self.m * self.g / (4.0 * self.E_star * math.sqrt(self.R1)))**(2.0 / 3.0)

    def vertical_oscillation(self) -> dict:
        """Small vertical oscillation of the upright top resting on its body sphere (module docstring):
        delta_static, stiffness k = 3/2 m g/delta0, omega0 = sqrt(k/m), damping coefficient c = m g d,
        damping ratio zeta = c/(2 m omega0) = g d/(2 omega0), and d_for_half = omega0/g (zeta = 0.5)."""
        d0 = self.static_penetration()
        k = 1.5 * self.m * self.g / d0
        w0 = math.sqrt(k / self.m)
        c = self.m * self.g * self.d
        return {"delta_static": d0, "stiffness": k, "omega0": w0, "damping": c,
                "zeta": c / (2.0 * self.m * w0), "d_for_half": w0 / self.g}

    # ------------------------------------------------------------------ initial state
    def initial_state(self, theta0: float | None = None, spin0: float | None = None) -> np.ndarray:
        """The 14-state of the module docstring (tilt about world x, spin about the axis, body sphere
        touching the plane above the origin); theta0, spin0 default to the parameters."""
        th = self.theta0 if theta0 is None else float(theta0)
        sp = self.spin0 if spin0 is None else float(spin0)
        if not (math.isfinite(th) and math.isfinite(sp)):
            raise NonholonomicError(f"tippe top: theta0 and spin0 must be finite, got {th}, {sp}")
        y0 = np.zeros(14)
        y0[0:3] = (0.0, self.e1 * math.sin(th), self.R1 - self.e1 * math.cos(th))
        y0[6:10] = (math.cos(th / 2), math.sin(th / 2), 0.0, 0.0)
        y0[12] = sp
        self.check_state(y0)
        return y0

    def check_state(self, y0) -> np.ndarray:
        """Validate a 14-state: finite, non-zero quaternion, neither sphere deeper than 1 % of its radius."""
        y0 = np.asarray(y0, dtype=float)
        if y0.shape != (14,):
            raise NonholonomicError(f"tippe top: the state has the 14 entries {STATE}, got shape {y0.shape}")
        if not np.all(np.isfinite(y0)):
            bad = [STATE[i] for i in np.flatnonzero(~np.isfinite(y0))]
            raise NonholonomicError(f"tippe top: the state must be finite, not at {', '.join(bad)}")
        nq = float(np.linalg.norm(y0[6:10]))
        if not nq > 0.5:
            raise NonholonomicError(f"tippe top: quaternion norm {nq} is far from 1")
        q = y0[6:10] / nq
        zbz = 1.0 - 2.0 * (q[1]**2 + q[2]**2)
        for i, (R, e) in enumerate(((self.R1, self.e1), (self.R2, self.e2)), 1):
            pen = R - (y0[2] + e * zbz)
            if pen > MAX_PENETRATION * R:
                raise NonholonomicError(f"tippe top: sphere {i} starts {pen:.3g} m deep in the plane "
                                        f"(more than {MAX_PENETRATION:.0%} of its radius {R})")
        return y0

    # ------------------------------------------------------------------ equations
    def _eval(self, y, full: bool):
        """Right-hand side (list of 14) and, if `full`, a tuple of the output quantities."""
        x, yy, z, vx, vy, vz, q0, q1, q2, q3, p, qb, rb, _ = (float(c) for c in y)
        m, g = self.m, self.g
        n2 = q0 * q0 + q1 * q1 + q2 * q2 + q3 * q3
        s = 1.0 / math.sqrt(n2)
        a0, a1, a2, a3 = q0 * s, q1 * s, q2 * s, q3 * s
        T00 = 1 - 2 * (a2 * a2 + a3 * a3); T01 = 2 * (a1 * a2 - a0 * a3); T02 = 2 * (a1 * a3 + a0 * a2)
        T10 = 2 * (a1 * a2 + a0 * a3); T11 = 1 - 2 * (a1 * a1 + a3 * a3); T12 = 2 * (a2 * a3 - a0 * a1)
        T20 = 2 * (a1 * a3 - a0 * a2); T21 = 2 * (a2 * a3 + a0 * a1); T22 = 1 - 2 * (a1 * a1 + a2 * a2)
        wx = T00 * p + T01 * qb + T02 * rb
        wy = T10 * p + T11 * qb + T12 * rb
        wz = T20 * p + T21 * qb + T22 * rb
        Fx = Fy = Fz = tx = ty = tz = P = 0.0
        jr = 0.0  # Jellett rate (explicit formula)
        cos_t = T22
        lev = self.e1 * cos_t - self.R1
        out = []
        for i, (R, e) in enumerate(((self.R1, self.e1), (self.R2, self.e2))):
            delta = R - (z + e * T22)
            if not delta > 0.0:
                if full:
                    out += [0.0, delta, math.nan, math.nan, 0.0, 0.0, 0.0, 0.0]
                continue
            # rho = p_i - r (contact point on the plane)
            rx, ry, rz = e * T02, e * T12, -z
            vpx = vx + wy * rz - wz * ry
            vpy = vy + wz * rx - wx * rz
            vpz = vz + wx * ry - wy * rx
            dd = -vpz
            Nel = 4.0 / 3.0 * self.E_star * math.sqrt(R) * delta * math.sqrt(delta)
            N = Nel * (1.0 + self.d * dd)
            N = max(N, 0.0)
            a = math.sqrt(R * delta)
            Ftx = Fty = Mn = 0.0
            if N > 0.0 and self.mu > 0.0:
                eps2 = self.eps * self.eps
                s_r = math.sqrt(vpx * vpx + vpy * vpy + eps2)
                an = a * wz
                w_r = math.sqrt(an * an + eps2)
                f, gg = law_fg(self.law, s_r / w_r)
                c = -self.mu * N * float(f) / s_r
                Ftx, Fty = c * vpx, c * vpy
                Mn = -self.mu * N * a * float(gg) * an / w_r
            Fx += Ftx; Fy += Fty; Fz += N
            tx += ry * N - rz * Fty
            ty += rz * Ftx - rx * N
            tz += rx * Fty - ry * Ftx + Mn
            P += (N - Nel) * dd - (Ftx * vpx + Fty * vpy) - Mn * wz
            if full:
                zxF = T02 * Fty - T12 * Ftx  # (z_b x F_t) . e_z
                if i == 0:
                    jr += Mn * lev - self.e1 * delta * zxF
                else:
                    jr += Mn * lev + (self.e1 * (R - delta) - e * self.R1) * zxF
                out += [N, delta, x + rx, yy + ry, Ftx, Fty, Mn, 0.4 * Nel * delta]
        # body-frame torque and Euler's equations
        tb1 = T00 * tx + T10 * ty + T20 * tz
        tb2 = T01 * tx + T11 * ty + T21 * tz
        tb3 = T02 * tx + T12 * ty + T22 * tz
        I1, I2, I3 = self.I1, self.I2, self.I3
        dp = (tb1 - (I3 - I2) * qb * rb) / I1
        dq = (tb2 - (I1 - I3) * rb * p) / I2
        dr = (tb3 - (I2 - I1) * p * qb) / I3
        lq = LAMBDA_Q * (1.0 - n2)
        dy = [vx, vy, vz, Fx / m, Fy / m, Fz / m - g,
              0.5 * (-q1 * p - q2 * qb - q3 * rb) + lq * q0,
              0.5 * (q0 * p + q2 * rb - q3 * qb) + lq * q1,
              0.5 * (q0 * qb - q1 * rb + q3 * p) + lq * q2,
              0.5 * (q0 * rb + q1 * qb - q2 * p) + lq * q3,
              dp, dq, dr, P]
        if not full:
            return dy, None
        # Jellett: J = L_G . (e1 z_b - R1 e_z); L_G world = T (I w_b)
        Lb = (I1 * p, I2 * qb, I3 * rb)
        Lx = T00 * Lb[0] + T01 * Lb[1] + T02 * Lb[2]
        Ly = T10 * Lb[0] + T11 * Lb[1] + T12 * Lb[2]
        Lz = T20 * Lb[0] + T21 * Lb[1] + T22 * Lb[2]
        J = self.e1 * Lb[2] - self.R1 * Lz
        # asymmetric term e1 L_G . (w x z_b), zero for I1 = I2
        cx, cy, cz = wy * T22 - wz * T12, wz * T02 - wx * T22, wx * T12 - wy * T02
        jr += self.e1 * (Lx * cx + Ly * cy + Lz * cz)
        kin = 0.5 * m * (vx * vx + vy * vy + vz * vz) + 0.5 * (I1 * p * p + I2 * qb * qb + I3 * rb * rb)
        extra = (math.acos(max(-1.0, min(1.0, T22))), rb,
                 kin + m * g * z, J, jr, P, math.sqrt(n2) - 1.0, *out)
        return dy, extra

    def rhs(self, t, y):
        """dy/dt of the 14-state (numpy array)."""
        return np.array(self._eval(y, False)[0])

    def outputs(self, y) -> dict:
        """Output quantities (see `simulate`) of one state (14,) or of states (14, k), as arrays."""
        y = np.asarray(y, dtype=float)
        cols = y[:, None] if y.ndim == 1 else y
        names = ("theta", "spin", "energy", "jellett", "jellett_rate", "dissipation_rate",
                 "quat_norm_error",
                 "N1", "delta1", "px1", "py1", "Ftx1", "Fty1", "Mn1", "elastic1",
                 "N2", "delta2", "px2", "py2", "Ftx2", "Fty2", "Mn2", "elastic2")
        rows = np.array([self._eval(c, True)[1] for c in cols.T]).reshape(-1, len(names))
        res = {k: rows[:, j] for j, k in enumerate(names)}
        res["elastic"] = res.pop("elastic1") + res.pop("elastic2")
        if y.ndim == 1:
            res = {k: v[0] for k, v in res.items()}
        return res

    # ------------------------------------------------------------------ simulation
    def default_atol(self, rtol: float) -> np.ndarray:
        """Absolute tolerances per state: rtol times the scales of the contact (static penetration delta0
        for positions, delta0 omega0 for velocities, delta0/R1 for the quaternion, delta0 omega0/R1 for
        the angular velocity, m g delta0 for the dissipated work)."""
        osc = self.vertical_oscillation()
        d0, w0 = osc["delta_static"], osc["omega0"]
        scale = np.array([d0] * 3 + [d0 * w0] * 3 + [d0 / self.R1] * 4 + [d0 * w0 / self.R1] * 3
                         + [self.m * self.g * d0])
        return rtol * scale

    def simulate(self, t_eval, rtol: float = 1e-8, atol=None, y0=None, method: str = "LSODA",
                 first_step: float | None = 1e-7, max_step: float = np.inf) -> pd.DataFrame:
        """Integrate from y0 (default `initial_state()`) over t_eval (increasing, t_eval[0] = start).

        atol: scalar or 14 values; default `default_atol(rtol)`. Returns a DataFrame with columns time,
        the state (STATE), theta (angle of z_b from the vertical), height (= z of G), spin (w . z_b),
        energy (kinetic + m g z), elastic (Hertz energy of both contacts), dissipated (W),
        energy_balance (energy + elastic + dissipated), jellett, jellett_rate (formula of the module
        docstring), dissipation_rate, N1, N2 (normal forces), delta1, delta2 (signed penetrations
        R_i - c_i.z, negative while separated), px1, py1, px2, py2 (patch centres, NaN when separated), Ftx1, Fty1, Mn1, Ftx2, Fty2, Mn2 (friction), quat_norm_error.
        `attrs` holds wall_time (s), nfev, njev, nlu, method, rtol.
        """
        t_eval = np.asarray(t_eval, dtype=float)
        if t_eval.ndim != 1 or t_eval.size < 2 or np.any(np.diff(t_eval) <= 0):
            raise NonholonomicError("tippe top: t_eval must be an increasing 1-D array of >= 2 times")
        if not (rtol > 0 and math.isfinite(rtol)):
            raise NonholonomicError(f"tippe top: rtol must be positive, got {rtol}")
        y0 = self.check_state(self.initial_state() if y0 is None else y0)
        atol = self.default_atol(rtol) if atol is None else np.broadcast_to(
            np.asarray(atol, dtype=float), (14,)).copy()
        if not np.all(atol > 0):
            raise NonholonomicError("tippe top: atol must be positive")
        fun = lambda t, y: self._eval(y, False)[0]
        opts = {"rtol": rtol, "atol": atol, "t_eval": t_eval, "max_step": max_step}
        if first_step is not None:
            opts["first_step"] = min(first_step, t_eval[-1] - t_eval[0])
        tic = time.perf_counter()
        sol = solve_ivp(fun, (t_eval[0], t_eval[-1]), y0, method=method, **opts)
        wall = time.perf_counter() - tic
        if not sol.success:
            raise NonholonomicError(f"tippe top: integration failed: {sol.message}")
        df = pd.DataFrame({"time": t_eval, **dict(zip(STATE, sol.y))})
        out = self.outputs(sol.y)
        for k, v in out.items():
            df[k] = v
        df["height"] = df["z"]
        df["energy_balance"] = df["energy"] + df["elastic"] + df["dissipated"]
        df.attrs.update(wall_time=wall, nfev=int(sol.nfev), njev=int(sol.njev), nlu=int(sol.nlu),
                        method=method, rtol=rtol)
        return df


def inversion_time(result, level: float = 0.95 * math.pi) -> float:
    """First output time with theta > level (linear interpolation between samples), NaN if never."""
    t, th = np.asarray(result["time"], dtype=float), np.asarray(result["theta"], dtype=float)
    return _first_crossing(t, th, level)


def head_touch_time(result) -> float:
    """First time with N2 > 0 (the head sphere touching), NaN if never: the first sample with N2 > 0,
    moved back to where delta2 crosses 0 by linear interpolation from the previous sample."""
    t, n2 = np.asarray(result["time"], dtype=float), np.asarray(result["N2"], dtype=float)
    idx = np.flatnonzero(n2 > 0)
    if not idx.size:
        return math.nan
    i = idx[0]
    if i == 0:
        return float(t[0])
    d = np.asarray(result["delta2"], dtype=float)  # signed penetration: < 0 while separated
    return float(t[i - 1] - d[i - 1] * (t[i] - t[i - 1]) / (d[i] - d[i - 1])) if d[i - 1] < 0 < d[i] \
        else float(t[i])


def _first_crossing(t, x, level):
    idx = np.flatnonzero(x > level)
    if not idx.size:
        return math.nan
    i = idx[0]
    if i == 0:
        return float(t[0])
    return float(t[i - 1] + (level - x[i - 1]) * (t[i] - t[i - 1]) / (x[i] - x[i - 1]))
