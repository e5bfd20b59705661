"""Verification cases of the Chaplygin sleigh: Modelica example ``Examples.ChaplyginSleigh``, reference
``nonholonomic.references.chaplygin_sleigh``.

The FMU against a reference written from the classical reduced equations: see ``cases.common`` for how
the states are mapped and for the tolerances and their reasons.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..plots import FMU_STYLE, REF_STYLE, integrals, planar_paths, signals_with_errors
from ..references.chaplygin_sleigh import ChaplyginSleigh
from ..verification import Check, TrajectoryCase
from .common import COMMON, state_check, vector

PAPER = ("The Chaplygin sleigh (Chaplygin 1912, Caratheodory 1933), as reviewed by A. V. Borisov, I. S. Mamaev, "
         "I. A. Bizyaev (2016), section 3. Reference: the reduced equations of a planar body with a knife edge, "
         "derived from Newton-Euler, and their closed form (tanh, sech).")
SLEIGH = dict(m=1.0, I_z=0.02, a=0.2)
SLEIGH_SIGNALS = ("x", "y", "psi", "v", "omega")
SLEIGH_UNITS = dict(x="m", y="m", psi="rad", v="m/s", omega="rad/s")  # (x, y): the blade point


def chaplygin_sleigh_case() -> TrajectoryCase:
    m, I, a = SLEIGH["m"], SLEIGH["I_z"], SLEIGH["a"]
    model = ChaplyginSleigh(m, I, a)
    x_c, y_c, psi0, u0, omega0 = 0.0, 0.0, 0.3, 0.5, 2.0
    # reference state: the blade point P = C + a e1, speed along the blade, angular velocity
    state0 = np.array([x_c + a * math.cos(psi0), y_c + a * math.sin(psi0), psi0, u0, omega0])

    expected = model.to_world(state0)
    holder = {}

    def observe(raw):
        holder["raw"] = raw
        s = model.from_world(vector(raw, "r_0"), vector(raw, "Q", 4), vector(raw, "v_0"), vector(raw, "w_0"), tol=None)
        out = pd.DataFrame({"time": raw["time"].to_numpy(), **dict(zip(("x", "y", "psi", "v", "omega"), s))})
        out["psi"] = np.unwrap(out["psi"].to_numpy())
        out["energy"] = raw["energy"].to_numpy()
        out["x_c"], out["y_c"] = raw["r_0[1]"].to_numpy(), raw["r_0[2]"].to_numpy()
        return out

    def checks(fmu, ref):
        closed = model.closed_form(state0, fmu["time"].to_numpy())
        limit = model.limit_speed(state0)
        return [state_check("r_0, Q, v_0, w_0", holder["raw"], {k: expected[k] for k in ("r_0", "Q", "v_0", "w_0")},
                             1e-12),
                Check("FMU vs closed form: max |v - v_exact| [m/s]", float(np.max(np.abs(fmu["v"] - closed["v"]))), 1e-7),
                Check("FMU vs closed form: max |omega - omega_exact| [rad/s]",
                      float(np.max(np.abs(fmu["omega"] - closed["omega"]))), 1e-7),
                Check("asymptotics: | |v(T)| - limit speed | / limit speed",
                      abs(abs(fmu["v"].iloc[-1]) - limit) / limit, 1e-6),
                Check("asymptotics: |omega(T)| / |omega(0)|", abs(fmu["omega"].iloc[-1]) / abs(omega0), 1e-6)]

    def plots(case, fmu, ref, out):
        t = fmu["time"].to_numpy()
        return [signals_with_errors(t, fmu, ref, case.signals, case.signal_units(case.signals),
                                    f"{case.name}: FMU vs reference", out / "signals.png"),
                planar_paths({"blade point, FMU": (fmu["x"], fmu["y"], FMU_STYLE),
                              "blade point, reference": (ref["x"], ref["y"], REF_STYLE),
                              "centre of mass, FMU": (fmu["x_c"], fmu["y_c"], dict(color="tab:green", lw=1))},
                             f"{case.name}: paths on the plane", out / "paths.png"),
                integrals(t, {"energy (FMU)": fmu["energy"], "energy (reference)": ref["energy"]},
                          f"{case.name}: energy integral", out / "integrals.png")]

    return TrajectoryCase(
        "chaplygin_sleigh", "ChaplyginSleigh",
        f"Chaplygin sleigh m = {m} kg, I = {I} kg m^2, blade {a} m ahead of the centre of mass; started at "
        f"{u0} m/s along the blade, turning at {omega0} rad/s; 10 s: the rotation dies out and the speed tends "
        "to sqrt(2E/m) (closed form: tanh and sech).",
        parameters=dict(m=m, I_z=I, a=a, x_0=x_c, y_0=y_c, psi_0=psi0, u_0=u0, omega_0=omega0), stop_time=10.0,
        output_interval=0.01, reference=lambda t: model.simulate(state0, t), observe=observe, signals=SLEIGH_SIGNALS,
        residual_tolerances={"slip": 1e-6}, extra_checks=checks, plots=plots, units=SLEIGH_UNITS, **COMMON)


def cases() -> list[TrajectoryCase]:
    return [chaplygin_sleigh_case()]
