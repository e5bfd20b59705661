"""Snakeboard: a board on two steerable wheelsets with a rotor (the rider's torso), driven by servo laws.

Reference model of the snakeboard of A.D. Lewis, J.P. Ostrowski, R.M. Murray, J.W. Burdick,
"Nonholonomic mechanics and locomotion: the snakeboard example", ICRA 1994, pp. 2391-2400, and of the
reduced (momentum) equations of Ostrowski and of Bullo & Lewis. Everything below is derived here from
the mechanics of the bodies (no Modelica model, no printed equation is copied) and checked on its own in
tests/test_reference_snakeboard.py: a brute-force Newton-Euler solve of the four bodies at random states,
a second formulation with Lagrange multipliers in world coordinates, the energy balance with the servo
work, a closed form (Bessel function) for the drive gait, and spectral quadratures of the whole motion.

Bodies and parameters
---------------------
* board: centre O = centre of mass of the WHOLE system; frame x forward along the board, y to the left,
  z up; heading theta = angle of board x from world x;
* two wheelsets, pivoting about vertical axes through the board points (+l, 0) (front, f) and (-l, 0)
  (back, b) by the angles phi_f, phi_b relative to the board (positive counter-clockwise about +z);
  each wheelset's centre of mass is at its pivot and its own yaw moment of inertia about the pivot is Jw;
  the wheels are light (no spin inertia). A wheelset has two wheels at the ends of its axle; it rolls
  without lateral slip, i.e. the velocity of its pivot has no component along its axle. Kinematically
  that is one wheel at the pivot;
* rotor (the rider's torso) at O, axial moment of inertia Jr, turned by psi relative to the board;
* m: total mass; J: yaw moment of inertia of everything about O EXCEPT the rotor's axial inertia and the
  wheelsets' own inertias about their pivots (J includes the wheelsets' masses at distance l).

Defaults m = 5 kg, l = 0.3 m, J = 0.34, Jr = 0.1, Jw = 0.005 kg m^2 satisfy m l^2 = J + Jr + 2 Jw, the
simplifying assumption of Ostrowski's reduced equations; the model does NOT rely on it (any positive
m, l, J, Jr, Jw; other values raise NonholonomicError).

Kinetic energy, with the board velocity (xi, eta) of O in the board frame and omega = theta':

    T = 1/2 m (xi^2 + eta^2) + 1/2 J omega^2 + 1/2 Jr (omega + psi')^2
        + 1/2 Jw [(omega + phi_f')^2 + (omega + phi_b')^2].

Servo-constraints: psi(t), phi_f(t), phi_b(t) are prescribed (`ServoLaw`: offset plus a sum of sines,
with exact rates and accelerations; `Gait`: three laws). A gait is physical only if no wheelset reaches
90 degrees, |offset| + sum |amplitudes| < pi/2 for phi_f and phi_b (with both wheelsets across the board
the two constraints below become dependent); otherwise `Gait` raises NonholonomicError.

Constraints and the null vector
-------------------------------
The pivot P_f = O + l e_x moves with (xi, eta + l omega) (board frame); its axle is (-sin phi_f, cos
phi_f). No lateral slip at both pivots:

    C (xi, eta, omega)^T = 0,   C = [[-sin phi_f, cos phi_f,  l cos phi_f],
                                     [-sin phi_b, cos phi_b, -l cos phi_b]].

The null vector is the cross product of the two rows: row_f x row_b = -2 l d with

    d = (cos phi_f cos phi_b,  sin(phi_f + phi_b)/2,  sin(phi_f - phi_b)/(2 l)),

which does not vanish while |phi_f|, |phi_b| < pi/2 (d_1 > 0). Every admissible velocity is
(xi, eta, omega) = s d; s (m/s) is the single velocity state. World kinematics: x' = xi cos theta -
eta sin theta, y' = xi sin theta + eta cos theta, theta' = omega; (x, y) is the position of O.

Reduced equation (derived here; formulation="reduced")
------------------------------------------------------
External horizontal forces: only the lateral forces lambda_f, lambda_b of the ground on the wheelsets,
along their axles (the light free wheels take no longitudinal force). They act on the axle line, which
passes through the pivot, so they can be applied at the pivots. Linear momentum m (xi, eta) (O is the
centre of mass; its rate in the rotating board frame is m (xi' - omega eta, eta' + omega xi)); angular
momentum about O:

    L = (J + Jr + 2 Jw) omega + Jr psi' + Jw (phi_f' + phi_b').

Newton and Euler (about the centre of mass O) for the whole system, written as one 3-vector:

    [m (xi' - omega eta),  m (eta' + omega xi),  L']^T = C^T (lambda_f, lambda_b)^T         (NE)

(the third row: l lambda_f cos phi_f - l lambda_b cos phi_b, the moments about O of the forces at
(+-l, 0)). Projected on d (C d = 0), with M = diag(m, m, I), I = J + Jr + 2 Jw, (xi, eta, omega) = s d,
and F = Jr psi'' + Jw (phi_f'' + phi_b''):

    Q = d^T M d,   d^T M d' = Q'/2,   d' = (dd/dphi_f) phi_f' + (dd/dphi_b) phi_b'

    ds/dt = -[s d^T M d' + d_3 F] / Q.

The Coriolis terms cancel: d_1 (-m omega eta) + d_2 (m omega xi) = m s omega (-d_1 d_2 + d_2 d_1) = 0.
(This confirms the form stated in the task.) The multipliers follow from (NE) once the accelerations are
known: lambda = (C C^T)^-1 C r, r the left-hand side of (NE) (exact, since r lies in the range of C^T).

A quadrature (derived here). As M is constant, d^T M d' = Q'/2, hence with u = s sqrt(Q)

    du/dt = -d_3 F / sqrt(Q),    s(t) = [s(t0) sqrt(Q(t0)) - int_t0^t d_3 F / sqrt(Q) dt] / sqrt(Q(t)):

the speed is known in closed form up to one integral over the prescribed gait (u^2/2 is the kinetic
energy of the motion with the shape frozen). Ostrowski's special case, phi_f = -phi_b = phi and
m l^2 = I: d = cos phi (cos phi, 0, sin phi / l), Q = m cos^2 phi, xi = s cos^2 phi, and

    d/dt (xi / cos phi) = -(Jr / (m l)) sin(phi) psi''          (as stated in the task, confirmed).

For the drive gait psi = A sin(2 pi f t), phi = a sin(2 pi f t), over one period (the Bessel identity
int_0^{2pi} sin(a sin x) sin x dx = 2 pi J_1(a)) the forward speed at phi = 0 gains

    Delta xi = 4 pi^2 f A J_1(a) Jr / (m l)   per cycle        (0.5159 m/s with the defaults).

Servo torques (derived here)
----------------------------
tau = torque of the board ON the rotor or wheelset about +z, needed to follow its law. The rotor's
centre is at O on its axis: Euler about it, Jr (omega' + psi'') = tau_psi. A wheelset: its centre of
mass is at its pivot; the joint force of the board acts at the pivot and the ground's lateral forces act
along the axle line through the pivot, so neither has a moment about the pivot (the vertical forces have
no moment about +z). Hence

    tau_psi = Jr (omega' + psi''),   tau_f = Jw (omega' + phi_f''),   tau_b = Jw (omega' + phi_b'').

Energy balance: the constraint forces do no work (each lateral force is perpendicular to the velocity
of its pivot) and each servo torque acts with its reaction on the board, so the pair works at the
relative rate:

    dT/dt = tau_psi psi' + tau_f phi_f' + tau_b phi_b' = P_psi + P_f + P_b,   T(t) - T(0) = servo_work(t).

Both state vectors carry servo_work = int (P_psi + P_f + P_b) dt as their last component.

Full coordinates with multipliers (formulation="multipliers")
-------------------------------------------------------------
Generalised coordinates q = (x, y, theta) (world), q' = (vx, vy, omega). With the shape laws inserted,

    T = 1/2 m (vx^2 + vy^2) + 1/2 I omega^2 + omega (Jr psi' + Jw (phi_f' + phi_b'))
        + 1/2 (Jr psi'^2 + Jw (phi_f'^2 + phi_b'^2)),

and the constraints A(q, t) q' = 0 with a_f = theta + phi_f, a_b = theta + phi_b (world axle angles)

    A = [[-sin a_f, cos a_f,  l cos phi_f],
         [-sin a_b, cos a_b, -l cos phi_b]].

Lagrange's equations M q'' + (0, 0, F) = A^T lambda and the constraints at acceleration level,
A q'' + A' q' = 0 (A' q': row f is -(omega + phi_f') (cos a_f vx + sin a_f vy) - l sin(phi_f) phi_f'
omega, row b likewise with +l), give the saddle-point (KKT) system

    [[M, -A^T], [A, 0]] (q'', lambda) = (-(0, 0, F), -A' q'),

solved at every step. lambda_f, lambda_b multiply unit axle directions: they are the lateral forces on
the wheelsets (N), the same quantities as in (NE). d/dt (A q') = 0 holds identically, so A q' is a first
integral of this ODE: it stays at its initial 0 up to the integration error (no stabilisation needed).
The two formulations are independent derivations; the tests compare them.

Gaits (period 1 s; `Gait.named`, amplitudes: rotor 1 rad, wheelsets 0.4 rad)
-------------------------------------------------------------------------------
All are symmetric (phi_b = -phi_f = -phi, Ostrowski's coupling), so eta = sin(phi_f + phi_b)/2 = 0: the
board always moves along its own axis, and sideways motion can only come from the heading's wiggle.

* drive:          psi = sin(2 pi t),        phi = 0.4 sin(2 pi t)           (same frequency, in phase)
* drive_shifted:  psi = sin(2 pi t),        phi = 0.4 sin(2 pi t + pi/2)    (phi a quarter period ahead)
* rotate:         psi = sin(4 pi t),        phi = 0.4 sin(2 pi t)           (rotor at twice the frequency)
* park:           psi = sin(6 pi t),        phi = 0.4 sin(4 pi t)           (rotor 3 : wheelsets 2)

Literature on the parking gait: J.E. Marsden, "Mechanics, dynamics, and symmetry" (lecture notes,
Lecture 3 "Systems with rolling constraints", p. 382), describing the gaits of Lewis et al.: drive, rotor
and axles at the same frequency; rotate, the rotor at twice the frequency of the axles ("the robot
essentially rotates in place"); parallel parking "requiring that the rotor oscillate three times for
every two oscillations of the axles". CORRECTED (the task's expectation): the task expected
psi = sin(2 pi t), phi = 0.4 sin(4 pi t) (rotor 1 : axles 2). That law also drifts sideways with no net
rotation and no net forward motion, but only by 0.27 mm per cycle from rest; the literature's 3 : 2 law
(with period 1 s: rotor 3 Hz, axles 2 Hz) drifts by 27.3 mm per cycle. `park` is the literature's law.

Behaviour (measured with this module: default parameters, reduced formulation, rtol 1e-10; per cycle, the
displacement of O resolved in the board frame at the start of the cycle, and the rotation; from rest,
s0 = 0, and from s0 = 0.5 m/s; the multiplier formulation gives the same to 3e-10 m):

    gait           s0 (m/s)  forward (m)            sideways (m)            rotation (rad)
    drive          0         0.2473 0.7337 1.1876   -0.0042 0.0750 0.2553   -0.1075 (each cycle)
    drive          0.5       0.7191 1.1743 1.5743    0.0710 0.2483 0.5165   -0.1075 (each cycle)
    drive_shifted  0         0.0404 (each cycle)     0                       0
    drive_shifted  0.5       0.4814 (each cycle)     0                       0
    rotate         0         0.0010 (each cycle)    -0.0094 (each cycle)     0.2156 (each cycle)
    rotate         0.5       0.4687 (each cycle)     0.0913 (each cycle)     0.2156 (each cycle)
    park           0         0                       0.0273 (each cycle)     0
    park           0.5       0.4760 (each cycle)     0.0522 (each cycle)     0

* drive speeds up: xi gains the closed-form 0.5159 m/s every cycle (the distance per cycle grows), and
  the heading turns by -0.1075 rad per cycle whatever the speed (in Ostrowski's case the speed carried
  into a cycle adds omega = xi_start sin(phi) / l, whose integral over the cycle vanishes).
* drive_shifted builds no speed (s returns to s0 after every cycle); it creeps forward by 40.4 mm per
  cycle from rest, without turning or drifting sideways.
* rotate builds no speed and turns in place: 0.2156 rad per cycle while O moves by 9.4 mm = 0.03 l.
* park builds no speed and never turns; from rest it goes 0.215 m forward and back within each cycle
  while the sideways parts add up to 27.3 mm per cycle.

The zeros of the table are exact, by symmetries of the equations (time reversal with s -> -s; the
lateral mirror, psi, phi -> -psi, -phi; the fore-aft mirror, psi -> -psi with s -> -s) combined with
those of the gaits, and measured at 1e-12 and below (the integration error):
* speed: s(T) = s0 when int_0^T d_3 F / sqrt(Q) dt = 0 (the quadrature above). Its integrand is odd
  under the half-period shift for rotate (phi -> -phi, psi'' kept) and under the reflections of time
  about T/4 and 3T/4 for drive_shifted and park (phi -> -phi, psi'' kept).
* park: reversing time about T/4 and turning the board by pi (phi -> -phi, psi kept) maps the gait on
  itself, so theta(T/2) = theta(0) (likewise in the second half): no net rotation for any s0. From rest
  s(T/2) = 0, and after half a period psi changes sign while phi does not, so the second half cycle is
  the fore-aft mirror image of the first: the forward parts cancel, the sideways parts add.
* drive_shifted: the lateral mirror with a half-period shift and time reversal with the fore-aft mirror
  map the gait on itself; together they make the rotation and the sideways motion per cycle vanish for
  any s0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields

import numpy as np
import pandas as pd
from scipy.integrate import solve_ivp

from nonholonomic.errors import NonholonomicError
from nonholonomic.references.common import finite_number

STATE_REDUCED = ("x", "y", "theta", "s", "servo_work")
STATE_MULTIPLIERS = ("x", "y", "theta", "vx", "vy", "omega", "servo_work")
COLUMNS = ("time", "x", "y", "theta", "xi", "eta", "omega", "psi", "phi_f", "phi_b", "dpsi", "dphi_f",
           "dphi_b", "tau_psi", "tau_f", "tau_b", "P_psi", "P_f", "P_b", "kinetic_energy", "servo_work",
           "lambda_f", "lambda_b", "s")
CYCLE_COLUMNS = ("cycle", "t_start", "forward", "sideways", "rotation", "s_start", "s_end", "xi_start",
                 "xi_end")
FORMULATIONS = ("reduced", "multipliers")
GAIT_NAMES = ("drive", "drive_shifted", "rotate", "park")


def net_motion(x, y, theta) -> dict:
    """Motion of the centre between successive poses (x, y, theta): the displacement resolved in the board's
    frame at the start of each interval (forward along board x, sideways along board y) and the rotation."""
    dx, dy, c, s = np.diff(x), np.diff(y), np.cos(theta[:-1]), np.sin(theta[:-1])
    return {"forward": dx * c + dy * s, "sideways": -dx * s + dy * c, "rotation": np.diff(theta)}


# ====================================================================================== servo laws
@dataclass(frozen=True)
class ServoLaw:
    """angle(t) = offset + sum_k a_k sin(2 pi f_k t + p_k) with amplitudes a_k (rad), frequencies f_k
    (Hz) and phases p_k (rad; default 0); `rate` and `acceleration` are its exact derivatives."""

    offset: float = 0.0
    amplitudes: tuple = ()
    frequencies: tuple = ()
    phases: tuple = ()
    _arrays: tuple = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "offset", finite_number("servo law: offset", self.offset))
        for name in ("amplitudes", "frequencies", "phases"):
            vals = getattr(self, name)
            if isinstance(vals, (str, bytes)) or not hasattr(vals, "__len__"):
                raise NonholonomicError(f"servo law: {name} must be a sequence of numbers, got {vals!r}")
        n = len(self.amplitudes)
        phases = tuple(self.phases) if len(self.phases) else (0.0,) * n
        if len(self.frequencies) != n or len(phases) != n:
            raise NonholonomicError(f"servo law: give one frequency and one phase per amplitude, got {n} "
                                    f"amplitudes, {len(self.frequencies)} frequencies, {len(phases)} phases")
        for name, vals in (("amplitudes", self.amplitudes), ("frequencies", self.frequencies),
                           ("phases", phases)):
            object.__setattr__(self, name, tuple(finite_number(f"servo law: {name[:-1]}", v) for v in vals))
        if any(f < 0.0 for f in self.frequencies):
            raise NonholonomicError(f"servo law: frequencies must be >= 0 Hz, got {self.frequencies}")
        a = np.array(self.amplitudes, dtype=float)
        w = 2.0 * np.pi * np.array(self.frequencies, dtype=float)
        object.__setattr__(self, "_arrays", (a, w, np.array(self.phases, dtype=float), a * w, a * w * w))

    @classmethod
    def sine(cls, amplitude: float, frequency: float, phase: float = 0.0, offset: float = 0.0) -> ServoLaw:
        """offset + amplitude sin(2 pi frequency t + phase)."""
        return cls(offset, (amplitude,), (frequency,), (phase,))

    def negated(self) -> ServoLaw:
        """The law -angle(t)."""
        return ServoLaw(-self.offset, tuple(-a for a in self.amplitudes), self.frequencies, self.phases)

    @property
    def reach(self) -> float:
        """|offset| + sum |a_k|: the largest |angle| the law can reach (rad)."""
        return abs(self.offset) + sum(abs(a) for a in self.amplitudes)

    def _args(self, t):
        _, w, p, _, _ = self._arrays
        t = np.asarray(t, dtype=float)
        return np.multiply.outer(t, w) + p  # (..., k)

    def angle(self, t):
        return self.offset + np.sin(self._args(t)) @ self._arrays[0]

    def rate(self, t):
        return np.cos(self._args(t)) @ self._arrays[3]

    def acceleration(self, t):
        return -(np.sin(self._args(t)) @ self._arrays[4])


@dataclass(frozen=True)
class Gait:
    """Prescribed shape motion: rotor psi(t), front and back wheelsets phi_f(t), phi_b(t) (rad, relative to
    the board); `period` (s) is the cycle used by `Snakeboard.cycle_displacement`."""

    psi: ServoLaw
    phi_f: ServoLaw
    phi_b: ServoLaw
    period: float = 1.0
    name: str = "custom"

    def __post_init__(self):
        for label in ("psi", "phi_f", "phi_b"):
            if not isinstance(getattr(self, label), ServoLaw):
                raise NonholonomicError(f"gait: {label} must be a ServoLaw, got {getattr(self, label)!r}")
        period = finite_number("gait: period", self.period)
        if not period > 0.0:
            raise NonholonomicError(f"gait: period must be positive, got {period}")
        object.__setattr__(self, "period", period)
        for label in ("phi_f", "phi_b"):
            reach = getattr(self, label).reach
            if not reach < 0.5 * np.pi:
                raise NonholonomicError(
                    f"gait {self.name}: {label} can reach {reach:.6g} rad >= pi/2 (|offset| + sum |amplitudes|); "
                    f"a wheelset across the board makes the two rolling constraints dependent")

    @classmethod
    def symmetric(cls, psi: ServoLaw, phi: ServoLaw, period: float = 1.0, name: str = "custom") -> Gait:
        """phi_f = phi, phi_b = -phi (the wheelsets coupled as in Ostrowski's model)."""
        return cls(psi, phi, phi.negated(), period, name)

    @classmethod
    def named(cls, name: str, rotor: float = 1.0, wheels: float = 0.4) -> Gait:
        """One of GAIT_NAMES (module docstring) with rotor amplitude `rotor` and wheelset amplitude `wheels`
        (rad); period 1 s."""
        sine = ServoLaw.sine
        laws = {"drive": (sine(rotor, 1.0), sine(wheels, 1.0)),
                "drive_shifted": (sine(rotor, 1.0), sine(wheels, 1.0, 0.5 * np.pi)),
                "rotate": (sine(rotor, 2.0), sine(wheels, 1.0)),
                "park": (sine(rotor, 3.0), sine(wheels, 2.0))}
        if name not in laws:
            raise NonholonomicError(f"unknown gait {name!r}; use one of {', '.join(GAIT_NAMES)}")
        return cls.symmetric(*laws[name], period=1.0, name=name)

    def shape(self, t):
        """(angles, rates, accelerations), each an array (3, ...) in the order psi, phi_f, phi_b."""
        laws = (self.psi, self.phi_f, self.phi_b)
        return (np.array([law.angle(t) for law in laws]), np.array([law.rate(t) for law in laws]),
                np.array([law.acceleration(t) for law in laws]))


# ====================================================================================== the model
@dataclass(frozen=True)
class Snakeboard:
    """Planar snakeboard (see the module docstring); m in kg, l in m, J, Jr, Jw in kg m^2."""

    m: float = 5.0
    l: float = 0.3
    J: float = 0.34
    Jr: float = 0.1
    Jw: float = 0.005

    def __post_init__(self):
        for f in fields(self):
            val = finite_number(f"snakeboard: {f.name}", getattr(self, f.name))
            if not val > 0.0:
                raise NonholonomicError(f"snakeboard: {f.name} must be positive, got {val}")
            object.__setattr__(self, f.name, val)

    @property
    def I(self) -> float:
        """J + Jr + 2 Jw: yaw moment of inertia of the whole system about O with the shape frozen."""
        return self.J + self.Jr + 2.0 * self.Jw

    # ------------------------------------------------------------------ kinematics
    def constraint_matrix(self, phi_f, phi_b):
        """C, shape (2, 3, ...): rows (-sin phi_f, cos phi_f, l cos phi_f) and (-sin phi_b, cos phi_b,
        -l cos phi_b)."""
        l = self.l
        sf, cf, sb, cb = np.sin(phi_f), np.cos(phi_f), np.sin(phi_b), np.cos(phi_b)
        return np.array([[-sf, cf, l * cf], [-sb, cb, -l * cb]])

    def world_constraint_matrix(self, theta, phi_f, phi_b):
        """A(q, t), shape (2, 3, ...): the constraints on (vx, vy, omega) in world coordinates."""
        l = self.l
        af, ab = theta + phi_f, theta + phi_b
        return np.array([[-np.sin(af), np.cos(af), l * np.cos(phi_f)],
                         [-np.sin(ab), np.cos(ab), -l * np.cos(phi_b)]])

    def null_vector(self, phi_f, phi_b, dphi_f=None, dphi_b=None):
        """d = (cos phi_f cos phi_b, sin(phi_f + phi_b)/2, sin(phi_f - phi_b)/(2 l)); with the rates also
        its time derivative: returns d, or (d, d')."""
        l = self.l
        sf, cf, sb, cb = np.sin(phi_f), np.cos(phi_f), np.sin(phi_b), np.cos(phi_b)
        d = np.array([cf * cb, 0.5 * np.sin(phi_f + phi_b), np.sin(phi_f - phi_b) / (2.0 * l)])
        if dphi_f is None:
            return d
        dd = np.array([-sf * cb * dphi_f - cf * sb * dphi_b,
                       0.5 * np.cos(phi_f + phi_b) * (dphi_f + dphi_b),
                       np.cos(phi_f - phi_b) * (dphi_f - dphi_b) / (2.0 * l)])
        return d, dd

    def metric(self, d):
        """Q = d^T M d, M = diag(m, m, I)."""
        return self.m * (d[0] ** 2 + d[1] ** 2) + self.I * d[2] ** 2

    def shape_load(self, acc):
        """F = Jr psi'' + Jw (phi_f'' + phi_b''): the shape's part of dL/dt (N m)."""
        return self.Jr * acc[0] + self.Jw * (acc[1] + acc[2])

    def kinetic_energy(self, xi, eta, omega, rates):
        """T = 1/2 m (xi^2 + eta^2) + 1/2 J omega^2 + 1/2 Jr (omega + psi')^2
        + 1/2 Jw [(omega + phi_f')^2 + (omega + phi_b')^2]  (J)."""
        return 0.5 * self.m * (xi**2 + eta**2) + 0.5 * self.J * omega**2 \
            + 0.5 * self.Jr * (omega + rates[0]) ** 2 \
            + 0.5 * self.Jw * ((omega + rates[1]) ** 2 + (omega + rates[2]) ** 2)

    def servo_torques(self, domega, acc):
        """(tau_psi, tau_f, tau_b) = (Jr (omega' + psi''), Jw (omega' + phi_f''), Jw (omega' + phi_b''))."""
        return np.array([self.Jr * (domega + acc[0]), self.Jw * (domega + acc[1]), self.Jw * (domega + acc[2])])

    def lateral_forces(self, phi_f, phi_b, r):
        """lambda = (C C^T)^-1 C r: the lateral forces that produce r = C^T lambda, the left-hand side of
        the Newton-Euler equations (NE) (components first; vectorised)."""
        C = self.constraint_matrix(phi_f, phi_b)
        a = np.einsum("i...,i...->...", C[0], C[0])
        b = np.einsum("i...,i...->...", C[0], C[1])
        c = np.einsum("i...,i...->...", C[1], C[1])
        u = np.einsum("i...,i...->...", C[0], r)
        v = np.einsum("i...,i...->...", C[1], r)
        det = a * c - b * b
        return np.array([(c * u - b * v) / det, (a * v - b * u) / det])

    # ------------------------------------------------------------------ reduced formulation
    def reduced(self, s, shape) -> dict:
        """Everything the reduced equation gives at speed s and shape = (angles, rates, accelerations) of
        (psi, phi_f, phi_b) (as from `Gait.shape`; vectorised): d, dd (= d'), Q, ds (= s'), xi, eta, omega,
        dxi, deta, domega, tau (3, ...), lam (2, ...) and shape."""
        ang, rat, acc = shape
        d, dd = self.null_vector(ang[1], ang[2], rat[1], rat[2])
        Q = self.metric(d)
        F = self.shape_load(acc)
        ds = -(s * (self.m * (d[0] * dd[0] + d[1] * dd[1]) + self.I * d[2] * dd[2]) + d[2] * F) / Q
        xi, eta, om = s * d
        dxi, deta, dom = ds * d + s * dd
        r = np.array([self.m * (dxi - om * eta), self.m * (deta + om * xi), self.I * dom + F])
        return {"d": d, "dd": dd, "Q": Q, "ds": ds, "xi": xi, "eta": eta, "omega": om, "dxi": dxi,
                "deta": deta, "domega": dom, "tau": self.servo_torques(dom, acc),
                "lam": self.lateral_forces(ang[1], ang[2], r), "shape": shape}

    def rhs_reduced(self, t, y, gait: Gait):
        """d/dt (x, y, theta, s, servo_work)."""
        th, s = y[2], y[3]
        ang, rat, acc = gait.shape(t)
        d, dd = self.null_vector(ang[1], ang[2], rat[1], rat[2])
        m, I = self.m, self.I
        Q = m * (d[0] * d[0] + d[1] * d[1]) + I * d[2] * d[2]
        ds = -(s * (m * (d[0] * dd[0] + d[1] * dd[1]) + I * d[2] * dd[2]) + d[2] * self.shape_load(acc)) / Q
        xi, eta, om = s * d
        c, sn = math.cos(th), math.sin(th)
        power = self.servo_torques(ds * d[2] + s * dd[2], acc) @ rat
        return np.array([xi * c - eta * sn, xi * sn + eta * c, om, ds, power])

    # ------------------------------------------------------------------ multipliers formulation
    def kkt(self, q, qd, shape):
        """Saddle-point solve at one state: (q'' (3,), lambda (2,), K) for q = (x, y, theta), q' = (vx, vy,
        omega) (world frame) and shape = (angles, rates, accelerations) of (psi, phi_f, phi_b); lambda =
        lateral forces on the front and back wheelsets (N); K the saddle-point matrix."""
        ang, rat, acc = shape
        l = self.l
        af, ab = q[2] + ang[1], q[2] + ang[2]
        A = self.world_constraint_matrix(q[2], ang[1], ang[2])
        wf, wb = qd[2] + rat[1], qd[2] + rat[2]
        dA_qd = (-wf * (math.cos(af) * qd[0] + math.sin(af) * qd[1]) - l * math.sin(ang[1]) * rat[1] * qd[2],
                 -wb * (math.cos(ab) * qd[0] + math.sin(ab) * qd[1]) + l * math.sin(ang[2]) * rat[2] * qd[2])
        K = np.zeros((5, 5))
        K[0, 0] = K[1, 1] = self.m
        K[2, 2] = self.I
        K[:3, 3:] = -A.T
        K[3:, :3] = A
        sol = np.linalg.solve(K, np.array([0.0, 0.0, -self.shape_load(acc), -dA_qd[0], -dA_qd[1]]))
        return sol[:3], sol[3:], K

    def rhs_multipliers(self, t, y, gait: Gait):
        """d/dt (x, y, theta, vx, vy, omega, servo_work)."""
        _, rat, acc = shape = gait.shape(t)
        qdd, _, _ = self.kkt(y[:3], y[3:6], shape)
        power = self.servo_torques(qdd[2], acc) @ rat
        return np.array([y[3], y[4], y[5], qdd[0], qdd[1], qdd[2], power])

    # ------------------------------------------------------------------ simulation
    def rhs(self, gait: Gait, formulation: str = "reduced"):
        """The right-hand side f(t, y) of `formulation` for `gait` (state STATE_REDUCED or STATE_MULTIPLIERS)."""
        if formulation == "reduced":
            return lambda t, y: self.rhs_reduced(t, y, gait)
        if formulation == "multipliers":
            return lambda t, y: self.rhs_multipliers(t, y, gait)
        raise NonholonomicError(f"unknown formulation {formulation!r}; use one of {', '.join(FORMULATIONS)}")

    def initial_state(self, gait: Gait, t0=0.0, x0=0.0, y0=0.0, theta0=0.0, s0=0.0, xi0=None,
                      formulation: str = "reduced"):
        """State vector at t0 for the pose (x0, y0, theta0) and speed s0 (m/s), or forward speed xi0
        (then s0 = xi0 / (cos phi_f cos phi_b) at t0)."""
        if not isinstance(gait, Gait):
            raise NonholonomicError(f"gait must be a Gait (e.g. Gait.named('drive')), got {gait!r}")
        t0, x0, y0, theta0, s0 = (finite_number(k, v) for k, v in
                                  (("t0", t0), ("x0", x0), ("y0", y0), ("theta0", theta0), ("s0", s0)))
        d = self.null_vector(*gait.shape(t0)[0][1:])
        if xi0 is not None:
            if s0 != 0.0:
                raise NonholonomicError("give the initial speed as s0 or as xi0, not both")
            s0 = finite_number("xi0", xi0) / d[0]
        if formulation == "reduced":
            return np.array([x0, y0, theta0, s0, 0.0])
        self.rhs(gait, formulation)  # checks the name
        xi, eta, om = s0 * d
        c, sn = math.cos(theta0), math.sin(theta0)
        return np.array([x0, y0, theta0, xi * c - eta * sn, xi * sn + eta * c, om, 0.0])

    def simulate(self, gait: Gait, t_eval, x0=0.0, y0=0.0, theta0=0.0, s0=0.0, xi0=None, rtol=1e-10,
                 atol=1e-12, formulation: str = "reduced", method: str = "DOP853") -> pd.DataFrame:
        """Integrate from t_eval[0] (gait time is absolute); DataFrame with COLUMNS (SI units): time, pose
        x, y, theta; board velocity xi, eta, omega; shape and rates; servo torques tau_* (board on rotor /
        wheelset, about +z) and powers P_*; kinetic_energy; servo_work (integrated); lateral forces
        lambda_f, lambda_b (recomputed from (NE) in the reduced formulation, from the KKT solve in the
        other); s (speed along d)."""
        t_eval = np.asarray(t_eval, dtype=float)
        if t_eval.ndim != 1 or t_eval.size < 1 or not np.all(np.isfinite(t_eval)) \
                or np.any(np.diff(t_eval) <= 0):
            raise NonholonomicError("t_eval must be a non-empty increasing 1-D array of finite times")
        z0 = self.initial_state(gait, t_eval[0], x0, y0, theta0, s0, xi0, formulation)
        if t_eval.size == 1:
            z = z0[:, None]
        else:
            sol = solve_ivp(self.rhs(gait, formulation), (t_eval[0], t_eval[-1]), z0, method=method,
                            t_eval=t_eval, rtol=rtol, atol=atol)
            if not sol.success:
                raise NonholonomicError(f"snakeboard: integration failed: {sol.message}")
            z = sol.y
        return self.frame(t_eval, z, gait, formulation)

    def frame(self, t, z, gait: Gait, formulation: str = "reduced") -> pd.DataFrame:
        """The DataFrame of `simulate` for states z (n_state, k) at times t (k,)."""
        t = np.asarray(t, dtype=float)
        th = z[2]
        if formulation == "reduced":
            s = z[3]
            red = self.reduced(s, gait.shape(t))
            xi, eta, om, domega, lam = red["xi"], red["eta"], red["omega"], red["domega"], red["lam"]
            ang, rat, acc = red["shape"]
        else:
            c, sn = np.cos(th), np.sin(th)
            xi, eta, om = z[3] * c + z[4] * sn, -z[3] * sn + z[4] * c, z[5]
            ang, rat, acc = gait.shape(t)
            out = [self.kkt(z[:3, k], z[3:6, k], (ang[:, k], rat[:, k], acc[:, k])) for k in range(t.size)]
            domega = np.array([o[0][2] for o in out])
            lam = np.array([o[1] for o in out]).T.reshape(2, t.size)
            d = self.null_vector(ang[1], ang[2])
            s = (self.m * (xi * d[0] + eta * d[1]) + self.I * om * d[2]) / self.metric(d)
        tau = self.servo_torques(domega, acc)
        P = tau * rat
        return pd.DataFrame({
            "time": t, "x": z[0], "y": z[1], "theta": th, "xi": xi, "eta": eta, "omega": om,
            "psi": ang[0], "phi_f": ang[1], "phi_b": ang[2], "dpsi": rat[0], "dphi_f": rat[1], "dphi_b": rat[2],
            "tau_psi": tau[0], "tau_f": tau[1], "tau_b": tau[2], "P_psi": P[0], "P_f": P[1], "P_b": P[2],
            "kinetic_energy": self.kinetic_energy(xi, eta, om, rat), "servo_work": z[-1],
            "lambda_f": lam[0], "lambda_b": lam[1], "s": s})

    def cycle_displacement(self, gait: Gait, s0=0.0, cycles: int = 3, t0=0.0, rtol=1e-10, atol=1e-12,
                           formulation: str = "reduced") -> pd.DataFrame:
        """Net motion per gait cycle from the pose (0, 0, 0) at t0 with speed s0: CYCLE_COLUMNS, i.e. the
        displacement of O over each cycle resolved in the board frame at the START of that cycle
        (forward along board x, sideways along board y), the rotation theta_end - theta_start, and the
        speeds s and xi at both ends."""
        if isinstance(cycles, bool) or not isinstance(cycles, (int, np.integer)) or cycles < 1:
            raise NonholonomicError(f"cycles must be a positive integer, got {cycles!r}")
        ends = self.simulate(gait, t0 + gait.period * np.arange(cycles + 1), s0=s0, rtol=rtol, atol=atol,
                             formulation=formulation)
        return pd.DataFrame({"cycle": np.arange(1, cycles + 1), "t_start": ends["time"].to_numpy()[:-1],
                             **net_motion(*(ends[k].to_numpy() for k in ("x", "y", "theta"))),
                             "s_start": ends["s"].to_numpy()[:-1], "s_end": ends["s"].to_numpy()[1:],
                             "xi_start": ends["xi"].to_numpy()[:-1], "xi_end": ends["xi"].to_numpy()[1:]})
