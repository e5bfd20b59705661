"""Verification cases of the ball rolling on a surface of revolution (Kosenko, Kuleshov, Shishkov 2024).

The reference is the paper's Cauchy form (19) for a general meridian
(:mod:`nonholonomic.references.ball_on_surface`), written from the paper and checked on its own; the
FMU is the 3-D multibody model (rigid body + rolling contact) of the Modelica library.

Tolerances. The FMU integrates with CVODE at relative tolerance 1e-10, the reference with DOP853 at
1e-11/1e-12; both solve the same physics, so their difference is integration error, which grows
about linearly in time through the phase of the oscillation. Over the spans below it measures
1e-8 to 1e-7 relative (see the verification report); the bound 1e-5 leaves two orders of magnitude for
other machines and compilers while still catching any modelling error (a wrong sign, a missing term,
a misprint carried over from the paper changes the signals at the 1e-2 to 1 level). Energy: the contact
does no work, so the FMU's energy drifts only by integration error (measured <= 1e-9 relative; bound
1e-7). Constraint drift is held by the Baumgarte terms (alpha = beta = 20 1/s) at the level of the
integration error: bounds 1e-8 m for the gap and 1e-6 m/s for the slip.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..plots import drift, overlay_with_error, path_on_surface_3d, phase_plane_with_error, signals_with_errors
from ..references.ball_on_surface import PAPER_LAMBDA, PAPER_Y0, BallOnSurfaceOfRevolution, ParaboloidDimensionless
from ..references.meridians import meridian_from_code
from ..verification import TrajectoryCase
from .common import LiftOffCase

PAPER = ('I. I. Kosenko, A. S. Kuleshov, A. A. Shishkov, "The problem of rolling a ball on a surface of revolution '
         'and its numerical analysis", Trudy MAI, no. 136 (2024). Reference: the paper\'s Cauchy form (19) for any '
         'meridian; the paraboloid experiment of its Fig. 1 and Fig. 2.')
SIGNALS = ("q1", "q2", "v1", "v2", "Lambda", "N")
N2_HOMOGENEOUS = 2.0 / 7.0  # J/(J + M R^2) of a homogeneous ball
G = 9.81
MASS = 1.0
RADIUS = 0.1
TOLERANCES = dict(tolerance=1e-5, energy_tolerance=1e-7, residual_tolerances={"gap": 1e-8, "slip": 1e-6},
                  fmu_tolerance=1e-12)


def _unwrap_azimuth(raw: pd.DataFrame) -> pd.DataFrame:
    """The FMU's q2 comes from atan2, in (-pi, pi]; the reference integrates it: compare it unwrapped."""
    out = raw.copy()
    out["q2"] = np.unwrap(raw["q2"].to_numpy())
    return out


def _reference(model: BallOnSurfaceOfRevolution, y0, mass: float):
    def run(t: np.ndarray) -> pd.DataFrame:
        df = model.simulate(y0, t, mass=mass)
        # the reference's energy is per unit of (M + J/R^2) = M/(1 - n2): back to joules
        df["energy"] = df["energy"] * mass / (1.0 - model.n2)
        return df
    return run


def _centre_xyz(meridian, q1, q2):
    rho, zeta = meridian.rho(q1), meridian.zeta(q1)
    return rho * np.cos(q2), rho * np.sin(q2), zeta


def _plots(meridian, tau_scale: float | None = None):
    def make(case: TrajectoryCase, fmu: pd.DataFrame, ref: pd.DataFrame, out):
        t = fmu["time"].to_numpy()
        units = case.signal_units(case.signals + ("gap", "slip"))  # the FMU's units (modelDescription.xml)
        files = [signals_with_errors(t, fmu, ref, case.signals, units, f"{case.name}: FMU vs reference",
                                     out / "signals.png"),
                 drift(t, fmu["energy"], {k: (fmu[k], units[k]) for k in ("gap", "slip")},
                       f"{case.name}: energy drift and constraint residuals", out / "drift.png")]
        q1, q2 = fmu["q1"].to_numpy(), fmu["q2"].to_numpy()
        lo, hi = min(q1.min(), ref["q1"].min()), max(q1.max(), ref["q1"].max())
        margin = 0.15 * (hi - lo)
        files.append(path_on_surface_3d(meridian, (max(lo - margin, 0.0) if meridian.code in (1, 2, 3, 4) else lo - margin,
                                                   hi + margin), _centre_xyz(meridian, q1, q2),
                                        _centre_xyz(meridian, ref["q1"].to_numpy(), ref["q2"].to_numpy()),
                                        f"{case.name}: path of the ball centre", out / "path3d.png"))
        if tau_scale is not None:  # the paper's Fig. 1 and Fig. 2, in its dimensionless time tau
            tau = t * tau_scale
            q1_axis, tau_axis = ("$q_1$", units["q1"]), (r"$\tau = t\sqrt{g/R}$", "1")
            files.append(overlay_with_error(tau, q1, ref["q1"], tau_axis, q1_axis,
                                            "Fig. 1: $q_1$ against dimensionless time", out / "fig1_q1.png"))
            files.append(phase_plane_with_error(q1, fmu["v1"] / tau_scale, ref["q1"], ref["v1"] / tau_scale, tau,
                                                (q1_axis, (r"$dq_1/d\tau$", "1"), tau_axis),
                                                r"Fig. 2: phase plane $(q_1, dq_1/d\tau)$", out / "fig2_phase.png"))
        return files
    return make


def paper_case() -> TrajectoryCase:
    """The paper's experiment on the paraboloid (consistent form (22); see the digest on (23))."""
    dimensionless = ParaboloidDimensionless(PAPER_LAMBDA, N2_HOMOGENEOUS, variant="consistent")
    model = dimensionless.to_dimensional(RADIUS, G)
    rate, speed = math.sqrt(G / RADIUS), math.sqrt(G * RADIUS)
    q1, q2, y1, y2, y3 = PAPER_Y0
    y0 = (q1, q2, y1 * rate, y2 * rate, y3 * speed)
    tau_end = 50.0  # the paper does not state its span; 50 covers three periods of q1 (16.56 each)
    return TrajectoryCase(
        "paraboloid_paper", "BallOnParaboloid",
        "Paper experiment: lambda = R/a = 1/2, n^2 = 2/7, q1(0) = 1, q2(0) = 0, y = (2, 3, 0.1), tau in [0, 50]; "
        "FMU with its default parameters (the paper's), reference (19) with a = 2R.",
        parameters={}, stop_time=tau_end / rate, output_interval=0.01 / rate, reference=_reference(model, y0, MASS),
        observe=_unwrap_azimuth, signals=SIGNALS, plots=_plots(model.meridian, tau_scale=rate), **TOLERANCES)


def surface_case(name: str, description: str, surface: int, a: float, b: float, q1_0: float, v1_0: float,
                 v2_0: float, lambda_0: float, stop_time: float) -> TrajectoryCase:
    meridian = meridian_from_code(surface, a, b)
    model = BallOnSurfaceOfRevolution(meridian, N2_HOMOGENEOUS, G)
    params = dict(surface=surface, a=a, b=b, R=RADIUS, m=MASS, g=G, q1_0=q1_0, q2_0=0.0, v1_0=v1_0, v2_0=v2_0,
                  Lambda_0=lambda_0)
    return TrajectoryCase(name, "BallOnSurfaceOfRevolution", description, parameters=params, stop_time=stop_time,
                          output_interval=0.005, reference=_reference(model, (q1_0, 0.0, v1_0, v2_0, lambda_0), MASS),
                          observe=_unwrap_azimuth, signals=SIGNALS, plots=_plots(meridian), **TOLERANCES)


def lift_off_case() -> LiftOffCase:
    """The ball on the outside of an inverted cone (a peak, slope 31 degrees), climbing towards the apex while it
    circles: its circling speed grows as its radius shrinks, until the centrifugal pull exceeds gravity's push."""
    model = BallOnSurfaceOfRevolution(meridian_from_code(4, 0.5, -0.3), N2_HOMOGENEOUS, G)
    y0 = np.array([1.0, 0.0, -4.0, 2.0, 0.0])
    params = dict(surface=4, a=0.5, b=-0.3, R=RADIUS, m=MASS, g=G, q1_0=y0[0], q2_0=0.0, v1_0=y0[2], v2_0=y0[3],
                  Lambda_0=0.0)
    return LiftOffCase("ball_lift_off", "BallOnSurfaceOfRevolution", "Ball on an inverted cone (a = 0.5 m, "
                       "b = -0.3 m: a peak), q1(0) = 1, v1(0) = -4 1/s towards the apex, v2(0) = 2 rad/s: the normal "
                       "force falls through zero before the apex; the run stops there.", parameters=params,
                       stop_time=1.0, reference_time=lambda: model.lift_off(y0, t_max=1.0, mass=MASS),
                       reference=lambda t: model.simulate(y0, t, mass=MASS), force_scale=MASS * G)


def cases() -> list:
    return [
        paper_case(),
        surface_case("sphere_bowl", "Spherical bowl (centre sphere a = 0.5 m), q1(0) = 0.6, v2(0) = 3 rad/s, "
                     "Lambda(0) = 0.2 m/s.", 2, 0.5, 0.0, 0.6, 0.0, 3.0, 0.2, 5.0),
        surface_case("ellipsoid_bowl", "Ellipsoid bowl (a = 0.6 m, b = 0.4 m), q1(0) = 0.8, v1(0) = 0.5 1/s, "
                     "v2(0) = 2.5 rad/s, Lambda(0) = -0.1 m/s.", 3, 0.6, 0.4, 0.8, 0.5, 2.5, -0.1, 5.0),
        surface_case("torus_trough", "Torus trough (tube a = 0.2 m around a circle b = 0.6 m), q1(0) = 0.5, "
                     "v2(0) = 2 rad/s, Lambda(0) = 0.3 m/s.", 5, 0.2, 0.6, 0.5, 0.0, 2.0, 0.3, 5.0),
        surface_case("cone", "Cone (a = 1, b = 0.7: slope 35 degrees), q1(0) = 0.5, v2(0) = 4 rad/s.",
                     4, 1.0, 0.7, 0.5, 0.0, 4.0, 0.0, 3.0),
        lift_off_case(),
    ]
