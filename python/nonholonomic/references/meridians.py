"""Meridians of the CENTRE surface of revolution of a rolling ball (seed 000, eq. (8)).

The surface traced by the ball centre G is

    r(s, q2) = (rho(s) cos q2, rho(s) sin q2, zeta(s))                              (8)

in a world frame with the z axis up and the origin on the symmetry axis; s is the paper's q1,
q2 the azimuth. The supporting surface is its offset r - R e3 (R = ball radius). Lengths in metres.

Moving frame (checked in tests/test_reference_ball.py against (12) and a 3-D model):

    e1 = r_s / h1   = ( rho' cos q2,  rho' sin q2, zeta') / h1   (along the meridian, s increasing)
    e2 = r_q2 / h2  = (-sin q2,       cos q2,      0    )        (along the parallel, q2 increasing)
    e3 = e1 x e2    = (-zeta' cos q2, -zeta' sin q2, rho') / h1  (normal)

The ball lies on the +e3 side: e3 points from the contact point to the centre. In the meridian
half-plane (radial, vertical) e3 is the meridian tangent (rho', zeta') turned by +90 degrees, so
with rho' > 0 the ball is inside a bowl when zeta' > 0 (all built-ins below, for s in their
natural range) and on top of a dome when zeta' < 0.

Lame coefficients (10) and principal curvatures (13), with ' = d/ds:

    h1 = sqrt(rho'^2 + zeta'^2),  h2 = rho
    k1 = (zeta'' rho' - zeta' rho'') / h1^3      (meridian; > 0 when the meridian bends towards e3)
    k2 = zeta' / (rho h1)                        (normal curvature of the parallel)

Built-ins, numbered like the Modelica library (integer code, parameters a, b):

    1 Paraboloid(a)        rho = a s,            zeta = a s^2/2    (a = vertex radius of curvature)
    2 SphericalBowl(a)     rho = a sin s,        zeta = -a cos s   (centre sphere of radius a)
    3 EllipsoidBowl(a, b)  rho = a sin s,        zeta = -b cos s
    4 Cone(a, b)           rho = a s,            zeta = b s
    5 TorusTrough(a, b)    rho = b + a sin s,    zeta = -a cos s   (a = tube radius, b = radius of
                                                                    the tube's centre circle)
"""

from __future__ import annotations

import numpy as np

from nonholonomic.errors import NonholonomicError


def _f(s):
    return np.asarray(s, dtype=float)


class Meridian:
    """Base class: subclasses give rho, zeta and their first two derivatives in s (vectorised)."""

    code = 0

    def __init__(self, a: float, b: float = 0.0):
        self.a = float(a)
        self.b = float(b)
        if not self.a > 0.0:
            raise NonholonomicError(f"{type(self).__name__}: parameter a must be > 0, got {a}")

    def __repr__(self):
        return f"{type(self).__name__}(a={self.a!r}, b={self.b!r})"

    # --- the meridian curve (subclasses) ---------------------------------------------------
    def rho(self, s): raise NotImplementedError
    def zeta(self, s): raise NotImplementedError
    def drho(self, s): raise NotImplementedError
    def dzeta(self, s): raise NotImplementedError
    def d2rho(self, s): raise NotImplementedError
    def d2zeta(self, s): raise NotImplementedError

    # --- derived quantities, eqs. (10), (13) -----------------------------------------------
    def h1(self, s):
        return np.hypot(self.drho(s), self.dzeta(s))

    def h2(self, s):
        return self.rho(s)

    def dh1(self, s):
        return (self.drho(s) * self.d2rho(s) + self.dzeta(s) * self.d2zeta(s)) / self.h1(s)

    def dh2(self, s):
        return self.drho(s)

    def k1(self, s):
        return (self.d2zeta(s) * self.drho(s) - self.dzeta(s) * self.d2rho(s)) / self.h1(s) ** 3

    def k2(self, s):
        return self.dzeta(s) / (self.rho(s) * self.h1(s))

    # --- embedding in the world frame --------------------------------------------------------
    def position(self, s, q2):
        """World position of the ball centre, eq. (8); shape broadcast(s, q2) + (3,)."""
        s, q2 = np.broadcast_arrays(_f(s), _f(q2))
        rho = self.rho(s)
        return np.stack([rho * np.cos(q2), rho * np.sin(q2), self.zeta(s)], axis=-1)

    def frame_vectors(self, s, q2):
        """World-frame unit vectors (e1, e2, e3) of the moving frame G x1 x2 x3 (module doc)."""
        s, q2 = np.broadcast_arrays(_f(s), _f(q2))
        c, sn = np.cos(q2), np.sin(q2)
        dr, dz, h1 = self.drho(s), self.dzeta(s), self.h1(s)
        e1 = np.stack([dr * c / h1, dr * sn / h1, dz / h1], axis=-1)
        e2 = np.stack([-sn, c, np.zeros_like(c)], axis=-1)
        e3 = np.stack([-dz * c / h1, -dz * sn / h1, dr / h1], axis=-1)
        return e1, e2, e3


class Paraboloid(Meridian):
    """Code 1: rho = a s, zeta = a s^2/2 (paper eq. (20)); s > 0."""

    code = 1

    def rho(self, s): return self.a * _f(s)
    def zeta(self, s): return 0.5 * self.a * _f(s) ** 2
    def drho(self, s): return np.full_like(_f(s), self.a)
    def dzeta(self, s): return self.a * _f(s)
    def d2rho(self, s): return np.zeros_like(_f(s))
    def d2zeta(self, s): return np.full_like(_f(s), self.a)


class SphericalBowl(Meridian):
    """Code 2: rho = a sin s, zeta = -a cos s; s in (0, pi), lower hemisphere for s < pi/2."""

    code = 2

    def rho(self, s): return self.a * np.sin(s)
    def zeta(self, s): return -self.a * np.cos(s)
    def drho(self, s): return self.a * np.cos(s)
    def dzeta(self, s): return self.a * np.sin(s)
    def d2rho(self, s): return -self.a * np.sin(s)
    def d2zeta(self, s): return self.a * np.cos(s)


class EllipsoidBowl(Meridian):
    """Code 3: rho = a sin s, zeta = -b cos s (a, b > 0); s in (0, pi)."""

    code = 3

    def __init__(self, a: float, b: float):
        super().__init__(a, b)
        if not self.b > 0.0:
            raise NonholonomicError(f"EllipsoidBowl: parameter b must be > 0, got {b}")

    def rho(self, s): return self.a * np.sin(s)
    def zeta(self, s): return -self.b * np.cos(s)
    def drho(self, s): return self.a * np.cos(s)
    def dzeta(self, s): return self.b * np.sin(s)
    def d2rho(self, s): return -self.a * np.sin(s)
    def d2zeta(self, s): return self.b * np.cos(s)


class Cone(Meridian):
    """Code 4: rho = a s, zeta = b s; s > 0 (b > 0: ball inside a funnel, k1 = 0)."""

    code = 4

    def rho(self, s): return self.a * _f(s)
    def zeta(self, s): return self.b * _f(s)
    def drho(self, s): return np.full_like(_f(s), self.a)
    def dzeta(self, s): return np.full_like(_f(s), self.b)
    def d2rho(self, s): return np.zeros_like(_f(s))
    def d2zeta(self, s): return np.zeros_like(_f(s))


class TorusTrough(Meridian):
    """Code 5: rho = b + a sin s, zeta = -a cos s (b > a > 0): ball in the lower half of a ring tube."""

    code = 5

    def __init__(self, a: float, b: float):
        super().__init__(a, b)
        if not self.b > self.a:
            raise NonholonomicError(f"TorusTrough: need b > a > 0 (rho > 0), got a={a}, b={b}")

    def rho(self, s): return self.b + self.a * np.sin(s)
    def zeta(self, s): return -self.a * np.cos(s)
    def drho(self, s): return self.a * np.cos(s)
    def dzeta(self, s): return self.a * np.sin(s)
    def d2rho(self, s): return -self.a * np.sin(s)
    def d2zeta(self, s): return self.a * np.cos(s)


MERIDIANS = {1: Paraboloid, 2: SphericalBowl, 3: EllipsoidBowl, 4: Cone, 5: TorusTrough}


def meridian_from_code(code: int, a: float, b: float = 0.0) -> Meridian:
    """The built-in meridian with the Modelica integer code (1..5); b is ignored for codes 1, 2."""
    try:
        cls = MERIDIANS[int(code)]
    except (KeyError, ValueError, TypeError):
        raise NonholonomicError(f"unknown meridian code {code!r}; known: 1..5") from None
    return cls(a) if cls in (Paraboloid, SphericalBowl) else cls(a, b)
