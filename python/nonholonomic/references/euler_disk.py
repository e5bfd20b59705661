"""Euler's disk: the closed forms its runs are checked against, the published final-phase exponents, and the
analysis of a run's final phase (the fit of the precession rate against the time to the end).

Written from the papers and from textbook contact mechanics, never from the Modelica model:

* Steady rolling with the centre at rest (Moffatt, Nature 404:833, 2000, eq. (1), for the thin disk
  ``Omega^2 alpha = 4 g/a``): for an axisymmetric body whose contact point lies at the horizontal distance ``a_c``
  from the centre, the moment balance about the centre gives ``Omega^2 sin(alpha) = m g a_c / A`` (A: moment of
  inertia about a diameter); with A = m a^2/4 and a_c = a it is Moffatt's. ``steady_precession``.
* The energy above the flat rest at small tilt, ``E = 3/2 m g a alpha`` (Moffatt eq. (2)); hence, for a loss law
  ``P = K alpha^p``, ``alpha^(1 - p) ~ (t0 - t)`` and, with ``Omega ~ alpha^(-1/2)``, the exponent
  ``n = 1/(2 (1 - p))`` of ``Omega ~ (t0 - t)^(-n)`` (docs/euler_disk_literature.md, section 3). ``exponent_from_loss_law``.
* The torus (a rounded edge, tube radius r about a circle of radius R - r) touching a plane at tilt alpha: its
  principal radii of curvature at the lowest point are r across the rim and, by Meusnier's theorem, the circle's
  radius R - r divided by the sine of the angle between its plane and the plane's normal, plus r, along it.
  ``torus_radii``.
* Hertz (Johnson, Contact Mechanics, 1985, sec. 4.2): a sphere of radius r under the load P penetrates a plane by
  ``delta = (3 P/(4 E* sqrt(r)))^(2/3)``. A disk lying flat on n equal points of its edge circle carries m g/n on
  each. ``flat_rest_penetration``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize_scalar

from ..errors import NonholonomicError

# Published exponents n of Omega ~ (t0 - t)^(-n): (source, mechanism, n, kind). From docs/euler_disk_literature.md,
# whose status tags are kept: the derived ones follow from the loss law with E ~ alpha and Omega ~ alpha^(-1/2).
LITERATURE = (
    ("Moffatt 2000, Nature 404:833", "viscous air in the gap under the disk", 1 / 6, "predicted"),
    ("Bildsten 2002, Phys. Rev. E 66:056309", "viscous air, boundary layer", 2 / 9, "predicted (derived)"),
    ("McDonald & McDonald 2000-02, arXiv:physics/0008227", "rolling friction, loss ~ Omega^2", 1 / 4,
     "loss law measured (derived)"),
    ("Easwar, Rouyer, Menon 2002, Phys. Rev. E 66:045102", "rolling friction (surface dependent)", 1 / 3, "measured"),
    ("Caps et al. 2004, Phys. Rev. E 69:056610", "slipping of the disk", 1 / 3, "measured (approximate)"),
    ("loss law of a dry rolling-resistance torque with a fixed lever arm", "rolling resistance (torque)", 1.0,
     "derived"),
)


def steady_precession(alpha, m: float, g: float, a_c: float, A: float):
    """Precession rate of the steady rolling with the centre at rest, Omega^2 sin(alpha) = m g a_c / A."""
    return np.sqrt(m * g * a_c / (A * np.sin(alpha)))


def torus_radii(R: float, r: float, sin_tilt):
    """Principal radii (across, along the rim) of a torus of tube radius r about a circle of radius R - r, at its
    lowest point, for the circle's plane at sin_tilt to the horizontal (Meusnier)."""
    if not 0 < r < R:
        raise NonholonomicError(f"the edge radius r must lie in (0, R), got r = {r}, R = {R}")
    return r, r + (R - r) / np.asarray(sin_tilt, dtype=float)


def flat_rest_penetration(m: float, g: float, r: float, E_star: float, n_points: int) -> float:
    """Penetration of each of n_points spheres of radius r carrying m g/n_points (Hertz)."""
    return (3 * m * g / n_points / (4 * E_star * math.sqrt(r))) ** (2 / 3)


def effective_modulus(E_a: float, nu_a: float, E_b: float, nu_b: float) -> float:
    """1/E* = (1 - nu_a^2)/E_a + (1 - nu_b^2)/E_b."""
    return 1 / ((1 - nu_a**2) / E_a + (1 - nu_b**2) / E_b)


def exponent_from_loss_law(p: float) -> float:
    """n of Omega ~ (t0 - t)^(-n) for a loss P ~ alpha^p (p < 1: a finite-time end)."""
    if not p < 1:
        raise NonholonomicError(f"a loss law P ~ alpha^p with p = {p} >= 1 has no finite-time end")
    return 1 / (2 * (1 - p))


def running_mean(y, width: int) -> np.ndarray:
    """Mean over ``width`` neighbouring samples (shorter at the ends): removes the nutation's ripple."""
    y = np.asarray(y, dtype=float)
    kernel = np.ones(width)
    return np.convolve(y, kernel, mode="same") / np.convolve(np.ones_like(y), kernel, mode="same")


@dataclass
class PowerLawFit:
    t0: float        # time of the end
    n: float         # Omega ~ C (t0 - t)^(-n)
    C: float
    rms: float       # rms of the residuals of log Omega
    tau_range: tuple  # (shortest, longest) t0 - t fitted


def fit_power_law(t, y, t_min: float, t_max: float, tau_min: float, t0_bounds: tuple,
                  points: int = 400) -> PowerLawFit:
    """Fit y = C (t0 - t)^(-n) on t in [t_min, t_max] with t0 - t >= tau_min: for each t0 a straight line in
    (log(t0 - t), log y) resampled at ``points`` equally spaced values of log(t0 - t) (every decade weighs the same);
    t0 minimises the residual over ``t0_bounds`` (equal bounds: t0 given)."""
    t, y = np.asarray(t, dtype=float), np.asarray(y, dtype=float)
    keep = (t >= t_min) & (t <= t_max) & (y > 0)
    t, logy = t[keep], np.log(y[keep])
    if len(t) < 10:
        raise NonholonomicError(f"too few points to fit a power law in [{t_min}, {t_max}] s")

    def line(t0):
        tau = t0 - t
        sel = tau >= tau_min
        x = np.log(tau[sel])[::-1]
        xs = np.linspace(x[0], x[-1], points)
        ys = np.interp(xs, x, logy[sel][::-1])
        slope, intercept = np.polyfit(xs, ys, 1)
        rms = float(np.sqrt(np.mean((slope * xs + intercept - ys) ** 2)))
        return slope, intercept, rms, (float(np.exp(xs[0])), float(np.exp(xs[-1])))

    if t0_bounds[0] == t0_bounds[1]:  # t0 given
        t0 = float(t0_bounds[0])
    else:
        t0 = float(minimize_scalar(lambda t0: line(t0)[2], bounds=t0_bounds, method="bounded",
                                   options={"xatol": 1e-4}).x)
    slope, intercept, rms, tau_range = line(t0)
    return PowerLawFit(t0, float(-slope), float(np.exp(intercept)), rms, tau_range)
