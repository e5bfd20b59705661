"""Heavy homogeneous ball rolling without slipping on a surface of revolution.

Reference model of seed 000: I.I. Kosenko, A.S. Kuleshov, A.A. Shishkov, "The problem of rolling
a ball on a surface of revolution and its numerical analysis", Trudy MAI no. 136 (2024). Equation
numbers below are the paper's. The given surface is the one traced by the ball CENTRE G (see
:mod:`nonholonomic.references.meridians`); the supporting surface is its offset by the radius R.

State and conventions (derived from (1)-(6), (9), (12), (16); checked against a brute-force 3-D
Newton-Euler model in tests/test_reference_ball.py)
---------------------------------------------------------------------------------------------
World frame: z up, gravity (0, 0, -g), origin on the symmetry axis.
State y = (q1, q2, v1, v2, Lambda): q1 = meridian parameter s, q2 = azimuth of G
(q2 = atan2(y_G, x_G)), v1 = dq1/dt, v2 = dq2/dt.

Moving frame, world components (`frame_vectors`), ' = d/dq1, h1 = sqrt(rho'^2 + zeta'^2):

    e1 = ( rho' cos q2,  rho' sin q2, zeta') / h1    tangent to the meridian, q1 increasing
    e2 = (-sin q2, cos q2, 0)                        tangent to the parallel, q2 increasing
    e3 = e1 x e2 = (-zeta' cos q2, -zeta' sin q2, rho') / h1
                                                     normal, from the contact point K to G

With these signs (16) holds (X = -M g zeta'/h1 = (M g_vec).e1, P = -M g rho'/h1 = (M g_vec).e3),
the contact point is K = G - R e3 (GK = -R e3 as in (2)), v_G = h1 v1 e1 + h2 v2 e2 (9), and the
frame rotation (12) is Omega = h2 k2 v2 e1 - h1 k1 v1 e2 + (rho' v2 / h1) e3.

For a 3-D model with ball angular velocity w_0 and contact force F_0 ON THE BALL (world frame):

    Lambda = R * dot(w_0, e3)          (= R omega3; spin about the normal, right-handed about e3)
    F1 = dot(F_0, e1),  F2 = dot(F_0, e2),  N = dot(F_0, e3)   (N > 0: surface pushes the ball)

and no slip, v_G + w_0 x (-R e3) = 0 (3), gives w_0 = e3 x v_G / R + (Lambda / R) e3, i.e.
omega1 = -h2 v2 / R, omega2 = h1 v1 / R (11). `world_state` returns (r_G, v_G, w_0).

Equations
---------
Cauchy form (19) (checked: it is (15), (17), (18) solved for the highest derivatives; (17), (18)
follow from (7) with (9), (12), (16); (7) from (4)-(6)), n2 = J / (J + M R^2):

    dq1/dt = v1,  dq2/dt = v2
    dv1/dt = (h2 h2' / h1^2) v2^2 - (h1'/h1) v1^2 - g (1-n2) zeta'/h1^2 + (n2 h2 k2 / h1) v2 Lambda
    dv2/dt = -(2 h2'/h2) v1 v2 - (n2 h1 k1 / h2) v1 Lambda
    dLambda/dt = h1 h2 (k1 - k2) v1 v2                                                 (15)

Energy integral (not in the paper; derived from T + V and divided by M + J/R^2; exact for (19)):

    H = 1/2 (h1^2 v1^2 + h2^2 v2^2) + 1/2 n2 Lambda^2 + g (1 - n2) zeta(q1)

Reactions (from (4): F1 = M(u' - theta3 v) - X, F2 = M(v' + theta3 u) - Y, N = M(theta1 v -
theta2 u) - P):

    F1 = M (h1 q1'' + h1' v1^2 - (h2/h1) h2' v2^2 + g zeta'/h1)
    F2 = M (h2 q2'' + 2 h2' v1 v2)
    N  = M (h2^2 k2 v2^2 + h1^2 k1 v1^2 + g rho'/h1)
    CORRECTED: the paper prints N with v2, v1 instead of v2^2, v1^2 (dimensionally wrong).
With (17), (18) the tangential ones reduce to F1 = M n2 (g zeta'/h1 + h2 k2 v2 Lambda) and
F2 = -M n2 h1 k1 v1 Lambda (a handy cross-check for a 3-D model).

Dimensionless paraboloid (20)-(23): see :class:`ParaboloidDimensionless`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from nonholonomic.errors import NonholonomicError
from nonholonomic.references.common import first_zero, integrate as _integrate
from nonholonomic.references.meridians import Meridian

STATE = ("q1", "q2", "v1", "v2", "Lambda")

# The paper's numerical experiment (Section 3): solid ball on a paraboloid with a = 2R.
PAPER_LAMBDA = 0.5
PAPER_N2 = 2.0 / 7.0
PAPER_Y0 = (1.0, 0.0, 2.0, 3.0, 0.1)  # q1, q2, y1, y2, y3 at tau = 0


class BallOnSurfaceOfRevolution:
    """Ball whose centre moves on the surface of revolution of `meridian`; Cauchy form (19)."""

    def __init__(self, meridian: Meridian, n2: float = 2.0 / 7.0, g: float = 9.81):
        if not 0.0 <= n2 < 1.0:
            raise NonholonomicError(f"n2 = J/(J + M R^2) must be in [0, 1), got {n2}")
        self.meridian, self.n2, self.g = meridian, float(n2), float(g)

    def frame_vectors(self, q1, q2):
        """World-frame unit vectors e1, e2, e3 (each shape (..., 3)); see module docstring."""
        return self.meridian.frame_vectors(q1, q2)

    def rhs(self, t, y):
        """Eq. (19); y has shape (5,) or (5, k)."""
        q1, _, v1, v2, lam = y
        m, n2 = self.meridian, self.n2
        h1, h2, dh1, dh2 = m.h1(q1), m.h2(q1), m.dh1(q1), m.dh2(q1)
        k1, k2 = m.k1(q1), m.k2(q1)
        dv1 = (h2 * dh2 / h1**2) * v2**2 - (dh1 / h1) * v1**2 \
            - self.g * (1.0 - n2) * m.dzeta(q1) / h1**2 + (n2 * h2 * k2 / h1) * v2 * lam
        dv2 = -(2.0 * dh2 / h2) * v1 * v2 - (n2 * h1 * k1 / h2) * v1 * lam
        dlam = h1 * h2 * (k1 - k2) * v1 * v2  # (15)
        return np.array([v1, v2, dv1, dv2, dlam])

    def energy(self, y):
        """H = 1/2 (h1^2 v1^2 + h2^2 v2^2) + 1/2 n2 Lambda^2 + g (1-n2) zeta(q1), per (M + J/R^2)."""
        q1, _, v1, v2, lam = y
        m = self.meridian
        return 0.5 * (m.h1(q1) ** 2 * v1**2 + m.h2(q1) ** 2 * v2**2) + 0.5 * self.n2 * lam**2 \
            + self.g * (1.0 - self.n2) * m.zeta(q1)

    def reactions(self, y, mass: float):
        """Contact force on the ball (F1, F2, N) in newtons, moving-frame components (see (4))."""
        q1, _, v1, v2, _ = y
        _, _, a1, a2, _ = self.rhs(0.0, y)
        m, g = self.meridian, self.g
        h1, h2, dh1, dh2 = m.h1(q1), m.h2(q1), m.dh1(q1), m.dh2(q1)
        f1 = mass * (h1 * a1 + dh1 * v1**2 - (h2 / h1) * dh2 * v2**2 + g * m.dzeta(q1) / h1)
        f2 = mass * (h2 * a2 + 2.0 * dh2 * v1 * v2)
        # CORRECTED: squares on v2, v1 (printed without them); N = M (theta1 v - theta2 u) - P.
        n = mass * (h2**2 * m.k2(q1) * v2**2 + h1**2 * m.k1(q1) * v1**2 + g * m.drho(q1) / h1)
        return f1, f2, n

    def lift_off(self, y0, t_max: float, mass: float = 1.0) -> float | None:
        """The time the normal reaction N first falls through zero (the surface would pull: a real ball
        lifts off there), None if it stays positive up to ``t_max``."""
        return first_zero(self.rhs, y0, lambda y: float(self.reactions(y, mass)[2]), t_max)

    def world_state(self, y, radius: float):
        """(r_G, v_G, w_0) in the world frame for state y (shape (5,)) and ball radius R."""
        q1, q2, v1, v2, lam = y
        m = self.meridian
        e1, e2, e3 = m.frame_vectors(q1, q2)
        v = m.h1(q1) * v1 * e1 + m.h2(q1) * v2 * e2  # (9)
        w = (np.cross(e3, v) + lam * e3) / radius  # (3) solved for w, plus Lambda = R w.e3
        return m.position(q1, q2), v, w

    def simulate(self, y0, t_eval, rtol=1e-11, atol=1e-12, method="DOP853", mass=None):
        """Integrate (19); DataFrame with time, q1, q2, v1, v2, Lambda, energy (+F1, F2, N)."""
        y = _integrate(self.rhs, y0, t_eval, rtol, atol, method)
        df = pd.DataFrame({"time": np.asarray(t_eval, dtype=float),
                           **dict(zip(STATE, y)), "energy": self.energy(y)})
        if mass is not None:
            df["F1"], df["F2"], df["N"] = self.reactions(y, mass)
        return df


class ParaboloidDimensionless:
    """Dimensionless paraboloid equations (23), state (q1, q2, y1, y2, y3), time tau.

    Scalings (paper, Section 3): y1 = sqrt(R/g) v1, y2 = sqrt(R/g) v2, y3 = Lambda / sqrt(g R),
    tau = sqrt(g/R) t, lam = R/a (a = vertex radius of curvature of the centre paraboloid (20)).

    variant="consistent": what (22) gives under these scalings,
        dy3/dtau = -(1/lam) q1^3/(1+q1^2) y1 y2.
    variant="printed": (23) exactly as printed, dy3/dtau = -q1^3/(1+q1^2) y1 y2.
    CORRECTED: the printed (23) lacks the factor 1/lam in the y3 equation (verified by
    substituting the scalings into (22), and (22) from (19) with (21)). The printed system is
    still a ball problem: it equals the consistent one with lam' = lam (1-n2)/(1-n2 lam),
    n2' = n2 lam and y3' = y3 / lam' (see `printed_as_consistent`).

    Conserved energies (derived here; equal to lam^2 H/(g R) for the consistent variant):
        consistent: 1/2 [(1+q1^2) y1^2 + q1^2 y2^2] + 1/2 n2 lam^2 y3^2 + 1/2 lam (1-n2) q1^2
        printed:    the same with 1/2 n2 lam y3^2.
    """

    COLUMNS = ("q1", "q2", "y1", "y2", "y3")

    def __init__(self, lam: float = PAPER_LAMBDA, n2: float = PAPER_N2, variant: str = "printed"):
        if variant not in ("printed", "consistent"):
            raise NonholonomicError(f"variant must be 'printed' or 'consistent', got {variant!r}")
        self.lam, self.n2, self.variant = float(lam), float(n2), variant

    def rhs(self, tau, y):
        """Eq. (23) (printed) or its consistent form; y has shape (5,) or (5, k)."""
        q, _, y1, y2, y3 = y
        lam, n2 = self.lam, self.n2
        c = q / (1.0 + q**2)
        dy1 = c * (y2**2 - y1**2 - lam * (1.0 - n2) + n2 * lam * y2 * y3)
        dy2 = -(2.0 * y2 + n2 * lam * y3 / (1.0 + q**2)) * y1 / q
        dy3 = -q**2 * c * y1 * y2
        if self.variant == "consistent":
            dy3 = dy3 / lam
        return np.array([y1, y2, dy1, dy2, dy3])

    def energy(self, y):
        q, _, y1, y2, y3 = y
        spin = self.n2 * (self.lam**2 if self.variant == "consistent" else self.lam)
        return 0.5 * ((1.0 + q**2) * y1**2 + q**2 * y2**2) + 0.5 * spin * y3**2 \
            + 0.5 * self.lam * (1.0 - self.n2) * q**2

    def printed_as_consistent(self):
        """(model, y3_factor): the consistent model equal to this printed one, Y3 = y3 * y3_factor."""
        lam_p = self.lam * (1.0 - self.n2) / (1.0 - self.n2 * self.lam)
        return ParaboloidDimensionless(lam_p, self.n2 * self.lam, "consistent"), 1.0 / lam_p

    def to_dimensional(self, radius: float, g: float = 9.81):
        """The dimensional model (19) with a = R/lam (consistent variant only)."""
        if self.variant != "consistent":
            raise NonholonomicError("only the consistent variant follows from (22)")
        from nonholonomic.references.meridians import Paraboloid
        return BallOnSurfaceOfRevolution(Paraboloid(radius / self.lam), self.n2, g)

    def simulate(self, y0=PAPER_Y0, tau_eval=None, rtol=1e-11, atol=1e-12, method="DOP853"):
        """Integrate; DataFrame with tau, q1, q2, y1, y2, y3, energy."""
        tau_eval = np.linspace(0.0, 50.0, 2001) if tau_eval is None else tau_eval
        y = _integrate(self.rhs, y0, tau_eval, rtol, atol, method)
        return pd.DataFrame({"tau": np.asarray(tau_eval, dtype=float),
                             **dict(zip(self.COLUMNS, y)), "energy": self.energy(y)})
