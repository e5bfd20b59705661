"""Verification cases of the rolling disk (thin disk on a plane): Modelica example ``Examples.RollingDisk``, reference
``nonholonomic.references.rolling_disk``.

The FMU against a reference written from the classical reduced equations: see ``cases.common`` for how
the states are mapped and for the tolerances and their reasons.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..plots import FMU_STYLE, REF_STYLE, integrals, planar_paths, signals_with_errors
from ..references.rolling_disk import RollingDisk
from ..verification import Check, TrajectoryCase
from .common import COMMON, RESIDUALS, LiftOffCase, state_check, vector

PAPER = ("The classical rolling disk (Slesser 1861, Vierkandt 1892, Chaplygin 1897, Korteweg 1899), as reviewed by "
         'A. V. Borisov, I. S. Mamaev, I. A. Bizyaev, "Historical and critical review of the development of '
         'nonholonomic mechanics: the classical period" (2016), section 2; the first verification case of I. I. '
         "Kosenko (2022). Reference: the reduced equations in Euler angles; the steady motions in closed form.")
DISK = dict(m=1.0, R=0.1, g=9.81)


def _disk_reference():
    return RollingDisk.homogeneous(DISK["m"], DISK["R"], DISK["g"])


def _disk_params(state) -> dict:
    theta, psi, phi, dtheta, dpsi, dphi, x, y = (float(v) for v in state)
    # the example's inertias A, C are left at 0: the thin homogeneous disk of m and R, as the reference's
    # (RollingDisk.homogeneous), computed on each side
    return dict(m=DISK["m"], R=DISK["R"], g=DISK["g"], theta_0=theta, psi_0=psi, phi_0=phi,
                dtheta_0=dtheta, dpsi_0=dpsi, dphi_0=dphi, x_0=x, y_0=y)


DISK_SIGNALS = ("theta", "psi", "theta_dot", "psi_dot", "phi_dot", "x", "y")
DISK_UNITS = dict(theta="rad", psi="rad", phi="rad", theta_dot="rad/s", psi_dot="rad/s", phi_dot="rad/s", x="m", y="m")


def _disk_observe(raw: pd.DataFrame) -> pd.DataFrame:
    model = _disk_reference()
    state = model.from_world(vector(raw, "r_0"), vector(raw, "Q", 4), vector(raw, "v_0"), vector(raw, "w_0"))
    out = pd.DataFrame({"time": raw["time"].to_numpy(), **dict(zip(
        ("theta", "psi", "phi", "theta_dot", "psi_dot", "phi_dot", "x", "y"), state))})
    out["energy"] = raw["energy"].to_numpy()
    out["contact_x"], out["contact_y"] = raw["p_0[1]"].to_numpy(), raw["p_0[2]"].to_numpy()
    return out


def _disk_plots(case, fmu, ref, out):
    t = fmu["time"].to_numpy()
    return [signals_with_errors(t, fmu, ref, case.signals, case.signal_units(case.signals),
                                f"{case.name}: FMU vs reference", out / "signals.png"),
            planar_paths({"FMU": (fmu["contact_x"], fmu["contact_y"], FMU_STYLE),
                          "reference": (ref["x"], ref["y"], REF_STYLE)},
                         f"{case.name}: path of the contact point", out / "contact_path.png"),
            integrals(t, {"energy (FMU)": fmu["energy"], "energy (reference)": ref["energy"]},
                      f"{case.name}: energy integral", out / "integrals.png")]


def disk_case(name: str, description: str, state0, stop_time: float, extra=None,
              signals=DISK_SIGNALS) -> TrajectoryCase:
    """A rolling-disk run from the reference state ``state0``. Signals that vanish identically in a steady
    motion are left out of the relative comparison (their size is rounding noise) and checked by ``extra``."""
    model = _disk_reference()
    state0 = np.asarray(state0, dtype=float)
    expected = model.to_world(state0)

    def reference(t):
        return model.simulate(state0, t)

    def checks(fmu, ref):
        result = [state_check("r_0, Q, v_0", fmu_raw_holder["raw"], {k: expected[k] for k in ("r_0", "Q", "v_0")},
                               1e-12)]
        return result + (extra(fmu, ref) if extra else [])

    fmu_raw_holder = {}

    def observe(raw):
        fmu_raw_holder["raw"] = raw
        return _disk_observe(raw)

    return TrajectoryCase(name, "RollingDisk", description, parameters=_disk_params(state0), stop_time=stop_time,
                          output_interval=0.01, reference=reference, observe=observe, signals=signals,
                          residual_tolerances=RESIDUALS, extra_checks=checks, plots=_disk_plots, units=DISK_UNITS,
                          **COMMON)


def disk_cases() -> list[TrajectoryCase]:
    model = _disk_reference()
    general = disk_case("disk_tilted", "Tilted disk (theta = 1.2 rad), precessing at 1 rad/s and spinning at "
                        "15 rad/s: nutation, several turns of the contact point in 20 s.",
                        (1.2, 0.0, 0.0, 0.0, 1.0, 15.0, 0.0, 0.0), 20.0)

    v = 2.0
    straight = model.straight_rolling(v)

    def straight_checks(fmu, ref):
        return [Check("straight rolling: max |theta - pi/2|", float(np.max(np.abs(fmu["theta"] - math.pi / 2))), 1e-7),
                Check("straight rolling: max |y| of the contact point", float(np.max(np.abs(fmu["contact_y"]))), 1e-7),
                Check("straight rolling: max |speed - v| / v",
                      float(np.max(np.abs(np.gradient(fmu["contact_x"], fmu["time"]) - v))) / v, 1e-6)]

    spin_rate = 12.0  # above the stability threshold sqrt(4 g / (5 R)) = 8.86 rad/s
    spin, _ = model.spin_about_diameter(spin_rate)

    def spin_checks(fmu, ref):
        moved = np.hypot(fmu["contact_x"] - fmu["contact_x"][0], fmu["contact_y"] - fmu["contact_y"][0])
        return [Check("spin about the vertical diameter: max |theta - pi/2|",
                      float(np.max(np.abs(fmu["theta"] - math.pi / 2))), 1e-7),
                Check("spin about the vertical diameter: contact point displacement [m]", float(np.max(moved)), 1e-7)]

    theta0, rho = 1.2, 0.5
    circle = model.steady_circle(theta0, radius=rho)

    def circle_checks(fmu, ref):
        # the contact point runs on a circle of radius rho about the origin (the reference places it so)
        r = np.hypot(fmu["contact_x"], fmu["contact_y"])
        return [Check("steady circle: max |theta - theta0|", float(np.max(np.abs(fmu["theta"] - theta0))), 1e-7),
                Check("steady circle: max |contact radius - rho| [m]", float(np.max(np.abs(r - abs(rho)))), 1e-7)]

    return [
        general,
        disk_case("disk_straight", f"Upright disk rolling straight at {v} m/s (steady motion a).", straight, 5.0,
                  straight_checks, signals=("theta", "phi_dot", "x")),
        disk_case("disk_spin_diameter", f"Disk spinning about its vertical diameter at {spin_rate} rad/s "
                  "(steady motion b; the contact point stays fixed).", spin, 5.0, spin_checks,
                  signals=("theta", "psi", "psi_dot")),
        disk_case("disk_steady_circle", f"Steady rolling at tilt {theta0} rad on a circle of radius {rho} m "
                  f"(steady motion c: precession {circle['psi_dot']:.4f} rad/s from the tilt-spin-radius relation).",
                  circle["state"], 10.0, circle_checks, signals=("theta", "psi", "psi_dot", "phi_dot", "x", "y")),
    ]


def lift_off_case() -> LiftOffCase:
    """The disk released at rest, tilted 0.17 rad from upright, falls over in its plane; the plane's vertical force
    falls through zero at a tilt of 29 degrees (closed form: ``RollingDisk.falling_lift_off``)."""
    model = _disk_reference()
    state0 = np.array([1.4, 0, 0, 0, 0, 0, 0, 0])
    return LiftOffCase("disk_lift_off", "RollingDisk", "Disk released at rest at tilt theta = 1.4 rad, without spin: "
                       "it falls over, and the plane's normal force reaches zero (the disk would lift off) at the "
                       "instant of the reference's closed form; the run stops there.",
                       parameters=_disk_params(state0), stop_time=1.0,
                       reference_time=lambda: model.lift_off(state0, t_max=1.0),
                       reference=lambda t: model.simulate(state0, t).assign(N=lambda f: f["Fz"]),
                       force_scale=DISK["m"] * DISK["g"])


def cases() -> list:
    return disk_cases() + [lift_off_case()]
