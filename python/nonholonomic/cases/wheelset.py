"""Verification cases of the wheelset: Modelica example ``Examples.Wheelset``, reference
``nonholonomic.references.wheelset``.

The FMU against a reference written from the classical reduced equations: see ``cases.common`` for how
the states are mapped and for the tolerances and their reasons.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..plots import REF_STYLE, planar_paths, signals_with_errors, trend
from ..references.wheelset import Wheelset
from ..references.common import quaternion_to_matrix
from ..simulate import simulate
from ..verification import Case, CaseResult, Check, TrajectoryCase, compare
from .common import state_check, vector

PAPER = ('I. I. Kosenko, "On a way of building a computer model of the dynamics of systems of rigid bodies" '
         "(object-oriented multiport modelling, 2022), section 3: a wheelset with compliant joints, statically "
         "indeterminate when rigid. Reference: the ideal wheelset with a rigid axle, derived from Newton-Euler.")
WHEELSET = dict(R=0.1, m_w=1.0, m_a=2.0, b=0.25, J_a=0.05, C_a=0.001)
STIFFNESSES = (1e3, 1e4, 1e5, 1e6)
WHEELSET_SIGNALS = ("x", "y", "psi", "v", "omega", "dphi1", "dphi2")
WHEELSET_UNITS = dict(x="m", y="m", psi="rad", v="m/s", omega="rad/s", dphi1="rad/s", dphi2="rad/s")


def _wheelset_observe(raw: pd.DataFrame) -> pd.DataFrame:
    """Reference variables from the FMU's axle and wheel outputs (no assumption that the joints are rigid)."""
    T = quaternion_to_matrix(vector(raw, "Q", 4))
    n = T[:, :, 2]                                    # axle direction (body z of the axle)
    psi = np.unwrap(np.arctan2(-n[:, 0], n[:, 1]))    # n = (-sin psi, cos psi, 0)
    e_f = np.stack([np.cos(psi), np.sin(psi), np.zeros_like(psi)], -1)
    out = pd.DataFrame({"time": raw["time"].to_numpy(), "x": raw["r_0[1]"].to_numpy(), "y": raw["r_0[2]"].to_numpy(),
                        "psi": psi, "v": np.sum(vector(raw, "v_axle_0") * e_f, -1),
                        "omega": raw["w_axle_0[3]"].to_numpy(),
                        "dphi1": np.sum(vector(raw, "w1_0") * n, -1), "dphi2": np.sum(vector(raw, "w2_0") * n, -1)})
    out["energy"] = raw["energy"].to_numpy()
    for k in ("s1", "s2"):
        out[k] = raw[k].to_numpy()
    return out


class WheelsetStiffnessSweep(Case):
    """The compliant wheelset against the ideal one, for growing joint stiffness: the difference must shrink."""

    stop_time = 15.0
    v0, dpsi0 = 1.0, 1.0
    units = WHEELSET_UNITS

    def __init__(self):
        super().__init__("wheelset_stiffness", "Wheelset",
                         f"Wheelset (R = 0.1 m, track 0.5 m, wheels 1 kg, axle 2 kg) started at {self.v0} m/s turning at "
                         f"{self.dpsi0} rad/s (2.4 turns in {self.stop_time} s), with compliant joints of stiffness "
                         f"{', '.join(f'{c:.0e}' for c in STIFFNESSES)} N/m (damping ratio 0.5), against the ideal "
                         "wheelset with a rigid axle.")

    def initial_state(self) -> np.ndarray:
        w = WHEELSET
        d1, d2 = (self.v0 + w["b"] * self.dpsi0) / w["R"], (self.v0 - w["b"] * self.dpsi0) / w["R"]
        return np.array([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, d1, d2, 0.0])

    def parameters(self, c: float) -> dict:
        """FMU parameters for joint stiffness c, with damping ratio 0.5 against a wheel's mass."""
        w = WHEELSET
        # the wheels' inertias A_w, C_w left at 0 in the example: the thin homogeneous disks of m_w and R, as the
        # reference model's
        return dict(**w, c=c, d=2 * 0.5 * math.sqrt(c * w["m_w"]), x_0=0.0, y_0=0.0, psi_0=0.0, v_0=self.v0,
                    dpsi_0=self.dpsi0)

    def bench_cases(self) -> list[TrajectoryCase]:
        model, state0 = self.reference_model(), self.initial_state()
        c = STIFFNESSES[-1]
        return [TrajectoryCase(f"{self.name}_c{c:.0e}", self.model, f"The wheelset at c = {c:.0e} N/m",
                              parameters=self.parameters(c), stop_time=self.stop_time, output_interval=0.01,
                              reference=lambda t: model.simulate(state0, t), observe=_wheelset_observe,
                              signals=WHEELSET_SIGNALS, tolerance=1e-5, fmu_tolerance=1e-12)]

    def reference_model(self) -> Wheelset:
        w = WHEELSET
        return Wheelset(w["m_w"], w["R"], w["m_w"] * w["R"] ** 2 / 4, w["m_w"] * w["R"] ** 2 / 2, w["m_a"], w["J_a"],
                        w["C_a"], w["b"])

    def execute(self) -> CaseResult:
        model, state0 = self.reference_model(), self.initial_state()
        expected = model.to_world(state0)
        rows, frames, checks = [], {}, []
        ref = None
        for c in STIFFNESSES:
            params = self.parameters(c)
            raw = simulate("Wheelset", params, stop_time=self.stop_time, output_interval=0.01, tolerance=1e-12)
            fmu = _wheelset_observe(raw)
            if ref is None:
                ref = model.simulate(state0, fmu["time"].to_numpy())
                axle = expected["axle"]
                checks.append(state_check("axle r_0, Q, v_0", raw,
                                           {"r_0": axle["r_0"], "Q": axle["Q"], "v_axle_0": axle["v_0"]}, 1e-12))
            err = compare(fmu, ref, WHEELSET_SIGNALS, 1.0)
            path = float(np.max(np.hypot(fmu["x"] - ref["x"], fmu["y"] - ref["y"])))
            rows.append({"stiffness": c, "damping": params["d"], "path difference [m]": path,
                         **{f"{r.signal} rel": r.max_rel for r in err.itertuples()},
                         "max |s| [m]": float(np.max(np.abs(np.concatenate([fmu["s1"], fmu["s2"]])))),
                         "energy loss (relative)": float((fmu["energy"].iloc[0] - fmu["energy"].min())
                                                         / fmu["energy"].iloc[0]),
                         "max gap [m]": float(np.max(np.abs(raw["gap"]))), "max slip [m/s]": float(np.max(raw["slip"]))})
            frames[f"fmu_c{c:.0e}"] = fmu
        frames["reference"] = ref
        table = pd.DataFrame(rows)
        frames["trend"] = table
        paths = table["path difference [m]"].to_numpy()
        # the trend: every tenfold stiffness cuts the difference at least fivefold (the deflection is F/c)
        ratios = paths[1:] / paths[:-1]
        checks.append(Check("largest ratio of path differences between successive stiffnesses", float(np.max(ratios)),
                            0.2))
        checks.append(Check("stiffest joints: path difference to the ideal wheelset [m]", float(paths[-1]), 1e-4))
        checks.append(Check("reference energy drift (relative)", float(np.max(np.abs(ref["energy"] - ref["energy"][0]))
                                                                     / ref["energy"][0]), 1e-9))
        checks.append(Check("max gap of the contacts over all runs [m]", float(table["max gap [m]"].max()), 1e-8))
        checks.append(Check("max slip of the contacts over all runs [m/s]", float(table["max slip [m/s]"].max()), 1e-6))
        # signals of the stiffest run against the ideal model: the joints deflect by F/c, about 1e-6 m at
        # c = 1e6 N/m here (about 1e-6 relative on every signal); tolerance 1e-5
        stiffest = frames[f"fmu_c{STIFFNESSES[-1]:.0e}"]
        errors = compare(stiffest, ref, WHEELSET_SIGNALS, 1e-5)
        return CaseResult(self, errors, checks, frames)

    def plot(self, result: CaseResult, out_dir):
        ref, table = result.frames["reference"], result.frames["trend"]
        paths = {"ideal wheelset": (ref["x"], ref["y"], dict(REF_STYLE, color="k"))}
        for c in STIFFNESSES:
            f = result.frames[f"fmu_c{c:.0e}"]
            paths[f"compliant, c = {c:.0e} N/m"] = (f["x"], f["y"], dict(lw=1))
        stiffest = result.frames[f"fmu_c{STIFFNESSES[-1]:.0e}"]
        t = stiffest["time"].to_numpy()
        return [planar_paths(paths, f"{self.name}: path of the middle of the axle", out_dir / "paths.png"),
                trend(table["stiffness"], table["path difference [m]"], ("joint stiffness c", "N/m"),
                      ("max path difference to the ideal wheelset", "m"), f"{self.name}: convergence",
                      out_dir / "trend.png", fit_slope=-1.0),
                signals_with_errors(t, stiffest, ref, WHEELSET_SIGNALS, self.signal_units(WHEELSET_SIGNALS),
                                    f"{self.name}: c = {STIFFNESSES[-1]:.0e} N/m vs ideal", out_dir / "signals.png")]


def cases() -> list[Case]:
    return [WheelsetStiffnessSweep()]
