"""Verification cases of the classical rolling bodies: rolling disk, Chaplygin ball, Chaplygin sleigh, wheelset.

Each FMU is the 3-D multibody model of the Modelica library (rigid bodies, contacts and joints); each
reference is written from the classical reduced equations (``nonholonomic.references``) and checked on
its own. The FMU's world-frame state is mapped into the reference's variables by the reference's own
``from_world``, and the reference's ``to_world`` of the initial state is compared with the FMU's initial
state, so the two independent parametrisations of the initial conditions are checked against each other.

Tolerances. Both sides integrate the same physics with tight tolerances (FMU: CVODE at 1e-12;
references: DOP853 at 1e-11/1e-12), so their difference is integration error: 1e-9 to 1e-7 relative over
the spans below. The bound on every signal is 1e-5 relative to the signal's largest magnitude, two
orders above that and far below the effect of a modelling error. Energy is conserved by every model but
the damped wheelset: bound 1e-7 relative. Constraint drift is held by the Baumgarte terms at the level
of the integration error: gap below 1e-8 m, slip below 1e-6 m/s. Steady motions: the tilt, radius or
position that must stay constant may move by integration error only: bounds 1e-7 (radians, metres).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .plots import FMU_STYLE, REF_STYLE, integrals, planar_paths, signals_with_errors, trend
from .references.chaplygin_ball import ChaplyginBall
from .references.chaplygin_sleigh import ChaplyginSleigh
from .references.common import quaternion_to_matrix
from .references.rolling_disk import RollingDisk
from .references.wheelset import Wheelset
from .simulate import simulate
from .verify import Case, CaseResult, Check, TrajectoryCase, compare

COMMON = dict(tolerance=1e-5, energy_tolerance=1e-7, fmu_tolerance=1e-12)
RESIDUALS = {"gap": 1e-8, "slip": 1e-6}


def vector(frame: pd.DataFrame, name: str, n: int = 3) -> np.ndarray:
    """The (k, n) array of an FMU vector output ``name[1]`` ... ``name[n]``."""
    return np.stack([frame[f"{name}[{i}]"].to_numpy() for i in range(1, n + 1)], axis=-1)


def _state_check(name: str, fmu_raw: pd.DataFrame, expected: dict, bound: float) -> Check:
    """Largest difference between the FMU's initial world state and the reference's ``to_world``
    (``expected`` maps FMU vector outputs to the reference's values)."""
    worst = 0.0
    for key, value in expected.items():
        got = vector(fmu_raw, key, len(value))[0]
        if key == "Q":  # q and -q are the same attitude
            worst = max(worst, min(np.max(np.abs(got - value)), np.max(np.abs(got + value))))
        else:
            worst = max(worst, float(np.max(np.abs(got - value))))
    return Check(f"initial state: FMU vs reference to_world ({name})", worst, bound)


# ------------------------------------------------------------------------------ rolling disk
DISK = dict(m=1.0, R=0.1, g=9.81)


def _disk_reference():
    return RollingDisk.homogeneous(DISK["m"], DISK["R"], DISK["g"])


def _disk_params(state) -> dict:
    theta, psi, phi, dtheta, dpsi, dphi, x, y = (float(v) for v in state)
    return dict(m=DISK["m"], R=DISK["R"], g=DISK["g"], theta_0=theta, psi_0=psi, phi_0=phi, dtheta_0=dtheta,
                dpsi_0=dpsi, dphi_0=dphi, x_0=x, y_0=y)


DISK_SIGNALS = ("theta", "psi", "theta_dot", "psi_dot", "phi_dot", "x", "y")


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
    return [signals_with_errors(t, fmu, ref, case.signals, f"{case.name}: FMU vs reference", out / "signals.png"),
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
        result = [_state_check("r_0, Q, v_0", fmu_raw_holder["raw"], {k: expected[k] for k in ("r_0", "Q", "v_0")},
                               1e-12)]
        return result + (extra(fmu, ref) if extra else [])

    fmu_raw_holder = {}

    def observe(raw):
        fmu_raw_holder["raw"] = raw
        return _disk_observe(raw)

    return TrajectoryCase(name, "RollingDisk", description, parameters=_disk_params(state0), stop_time=stop_time,
                          output_interval=0.01, reference=reference, observe=observe, signals=signals,
                          residual_tolerances=RESIDUALS, extra_checks=checks, plots=_disk_plots, **COMMON)


def disk_cases() -> list[TrajectoryCase]:
    model = _disk_reference()
    R = DISK["R"]
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


# ------------------------------------------------------------------------------ Chaplygin ball
BALL = dict(m=1.0, R=0.1, I=(0.002, 0.003, 0.0045), g=9.81)
BALL_SIGNALS = ("M1", "M2", "M3", "gamma1", "gamma2", "gamma3", "x", "y")


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
        result = [_state_check("r_0, v_0, w_b", holder["raw"], {k: expected[k] for k in ("r_0", "v_0", "w_b")}, 1e-12)]
        for k in ("M_squared", "M_gamma", "gamma_squared"):
            v = fmu[k].to_numpy()
            result.append(Check(f"FMU integral {k}: max |I - I(0)| / |I(0)|",
                                float(np.max(np.abs(v - v[0])) / abs(v[0])), 1e-7))
        return result

    def plots(case, fmu, ref, out):
        t = fmu["time"].to_numpy()
        return [signals_with_errors(t, fmu, ref, case.signals, f"{case.name}: FMU vs reference", out / "signals.png"),
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
        extra_checks=checks, plots=plots, **COMMON)


# ------------------------------------------------------------------------------ Chaplygin sleigh
SLEIGH = dict(m=1.0, I_z=0.02, a=0.2)
SLEIGH_SIGNALS = ("x", "y", "psi", "v", "omega")


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
        return [_state_check("r_0, Q, v_0, w_0", holder["raw"], {k: expected[k] for k in ("r_0", "Q", "v_0", "w_0")},
                             1e-12),
                Check("FMU vs closed form: max |v - v_exact| [m/s]", float(np.max(np.abs(fmu["v"] - closed["v"]))), 1e-7),
                Check("FMU vs closed form: max |omega - omega_exact| [rad/s]",
                      float(np.max(np.abs(fmu["omega"] - closed["omega"]))), 1e-7),
                Check("asymptotics: | |v(T)| - limit speed | / limit speed",
                      abs(abs(fmu["v"].iloc[-1]) - limit) / limit, 1e-6),
                Check("asymptotics: |omega(T)| / |omega(0)|", abs(fmu["omega"].iloc[-1]) / abs(omega0), 1e-6)]

    def plots(case, fmu, ref, out):
        t = fmu["time"].to_numpy()
        return [signals_with_errors(t, fmu, ref, case.signals, f"{case.name}: FMU vs reference", out / "signals.png"),
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
        residual_tolerances={"slip": 1e-6}, extra_checks=checks, plots=plots, **COMMON)


# ------------------------------------------------------------------------------ wheelset
WHEELSET = dict(R=0.1, m_w=1.0, m_a=2.0, b=0.25, J_a=0.05, C_a=0.001)
STIFFNESSES = (1e3, 1e4, 1e5, 1e6)
WHEELSET_SIGNALS = ("x", "y", "psi", "v", "omega", "dphi1", "dphi2")


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
                checks.append(_state_check("axle r_0, Q, v_0", raw,
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
                trend(table["stiffness"], table["path difference [m]"], "joint stiffness c [N/m]",
                      "max path difference to the ideal wheelset [m]", f"{self.name}: convergence", out_dir / "trend.png",
                      fit_slope=-1.0),
                signals_with_errors(t, stiffest, ref, WHEELSET_SIGNALS, f"{self.name}: c = {STIFFNESSES[-1]:.0e} N/m vs "
                                    "ideal", out_dir / "signals.png")]


def classic_cases() -> list:
    return disk_cases() + [chaplygin_ball_case(), chaplygin_sleigh_case(), WheelsetStiffnessSweep()]
