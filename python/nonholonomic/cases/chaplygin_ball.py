"""Verification cases of the Chaplygin ball: Modelica example ``Examples.ChaplyginBall``, reference
``nonholonomic.references.chaplygin_ball``.

The FMU against a reference written from the classical reduced equations: see ``cases.common`` for how
the states are mapped and for the tolerances and their reasons.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..plots import FMU_STYLE, REF_STYLE, integrals, planar_paths, signals_with_errors
from ..references.chaplygin_ball import ChaplyginBall
from ..references.common import quaternion_to_matrix
from ..verification import Check, TrajectoryCase, relative_drift
from .common import COMMON, RESIDUALS, state_check, vector

PAPER = ('S. A. Chaplygin, "On a ball\'s rolling on a horizontal plane", Mat. Sbornik 24 (1903) 139-168, as named by '
         "A. V. Borisov, I. S. Mamaev, I. A. Bizyaev (2016). Reference: the equations in (M, gamma) with the integrals "
         "energy, (M, gamma), M^2 and gamma^2.")
BALL = dict(m=1.0, R=0.1, I=(0.002, 0.003, 0.0045), g=9.81)
BALL_SIGNALS = ("M1", "M2", "M3", "gamma1", "gamma2", "gamma3", "x", "y")
# M: angular momentum about the contact point, body frame; gamma: the vertical in the body frame
BALL_UNITS = dict(M1="kg.m2/s", M2="kg.m2/s", M3="kg.m2/s", gamma1="1", gamma2="1", gamma3="1", x="m", y="m")


def chaplygin_ball_case() -> TrajectoryCase:
    model = ChaplyginBall(BALL["m"], BALL["R"], *BALL["I"], g=BALL["g"])
    axis, angle = np.array([0.6, 0.0, 0.8]), 0.7
    Q0 = np.concatenate([[math.cos(angle / 2)], axis * math.sin(angle / 2)])
    w0_world = np.array([2.0, -1.0, 5.0])
    T0 = quaternion_to_matrix(Q0)
    state0 = model.state(T0.T @ w0_world, Q0, 0.0, 0.0)
    expected = model.to_world(state0)
    holder = {}

    def observe(raw):
        holder["raw"] = raw
        s = model.from_world(vector(raw, "r_0"), vector(raw, "Q", 4), vector(raw, "v_0"), vector(raw, "w_b"),
                             frame="body")
        names = ("M1", "M2", "M3", "gamma1", "gamma2", "gamma3", "q0", "q1", "q2", "q3", "x", "y")
        out = pd.DataFrame({"time": raw["time"].to_numpy(), **dict(zip(names, s))})
        M, gamma = s[0:3], s[3:6]
        out["M_squared"] = np.sum(M * M, axis=0)
        out["M_gamma"] = np.sum(M * gamma, axis=0)
        out["gamma_squared"] = np.sum(gamma * gamma, axis=0)
        out["energy"] = raw["energy"].to_numpy()
        return out

    def checks(fmu, ref):
        result = [state_check("r_0, v_0, w_b", holder["raw"], {k: expected[k] for k in ("r_0", "v_0", "w_b")}, 1e-12)]
        for k in ("M_squared", "M_gamma", "gamma_squared"):
            result.append(Check(f"FMU integral {k}: max |I - I(0)| / max |I|", relative_drift(fmu[k]), 1e-7))
        return result

    def plots(case, fmu, ref, out):
        t = fmu["time"].to_numpy()
        return [signals_with_errors(t, fmu, ref, case.signals, case.signal_units(case.signals),
                                    f"{case.name}: FMU vs reference", out / "signals.png"),
                planar_paths({"FMU": (fmu["x"], fmu["y"], FMU_STYLE), "reference": (ref["x"], ref["y"], REF_STYLE)},
                             f"{case.name}: path of the contact point", out / "contact_path.png"),
                integrals(t, {"energy": fmu["energy"], "M^2": fmu["M_squared"], "(M, gamma)": fmu["M_gamma"],
                              "gamma^2": fmu["gamma_squared"]}, f"{case.name}: integrals of the FMU run",
                          out / "integrals.png")]

    return TrajectoryCase(
        "chaplygin_ball", "ChaplyginBall",
        "Chaplygin ball I = (0.002, 0.003, 0.0045) kg m^2, m = 1 kg, R = 0.1 m, started turned by 0.7 rad about "
        "(0.6, 0, 0.8) with angular velocity (2, -1, 5) rad/s; 20 s.",
        parameters=dict(m=BALL["m"], R=BALL["R"], **{f"I_b[{i + 1}]": v for i, v in enumerate(BALL["I"])},
                        **{f"Q_0[{i + 1}]": float(v) for i, v in enumerate(Q0)},
                        **{f"w_0_start[{i + 1}]": float(v) for i, v in enumerate(w0_world)}),
        stop_time=20.0, output_interval=0.01, reference=lambda t: model.simulate(state0, t), observe=observe,
        signals=BALL_SIGNALS, residual_tolerances=RESIDUALS,
        reference_integrals={"energy": 1e-9, "M_squared": 1e-9, "M_gamma": 1e-9, "gamma_squared": 1e-9},
        extra_checks=checks, plots=plots, units=BALL_UNITS, **COMMON)


def cases() -> list[TrajectoryCase]:
    return [chaplygin_ball_case()]
