"""Verification cases of the snakeboard: Modelica example ``Examples.Snakeboard``, reference
``nonholonomic.references.snakeboard``.

The FMU is Kosenko's 3-D model: two crossbar halves on a compliant joint, two wheelsets on servo-driven pivots,
a servo-driven rotor, four wheels rolling on the plane on compliant axle joints. The reference is the planar
model of Lewis et al. (reduced equation in the speed along the direction both wheelsets allow; checked against
full coordinates with Lagrange multipliers and the energy balance). What the reference neglects: the wheels'
mass and spin inertia, and the compliance of the joints (along the crossbar and along the axles). Their
effects fall in proportion to the wheel mass and to 1/stiffness (``snakeboard_convergence`` measures both);
the gait cases run with 0.1 g wheels and joints of 1e7 N/m, where they are about 2e-4 of each signal.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.integrate import cumulative_simpson

from ..plots import FMU_STYLE, REF_STYLE, label, plt, save_figure, signals_with_errors, snakeboard_animation
from ..references.snakeboard import GAIT_NAMES, Gait, Snakeboard, net_motion
from ..simulate import simulate
from ..verification import Case, CaseResult, Check, compare, no_signals
from .common import one_row_per_time

PAPER = ("A. D. Lewis, J. P. Ostrowski, R. M. Murray, J. W. Burdick, \"Nonholonomic mechanics and locomotion: the "
         "snakeboard example\", ICRA 1994; I. I. Kosenko (seed 002, sec. 3): the snakeboard in Modelica with three "
         "servo-constraints. Reference: the reduced planar equations (momentum along the allowed direction), checked "
         "against full coordinates with Lagrange multipliers; gaits after Marsden's lectures (drive 1:1, rotate 2:1, "
         "park 3:2).")
REFERENCE = Snakeboard()
# the FMU's servo laws for the reference's gaits (Gait.named): rotor psi = A sin(2 pi f_psi t + phase_psi),
# wheelsets phi_f = -phi_b = A sin(2 pi f_phi t + phase_phi)
GAITS = {"drive": {}, "drive_shifted": dict(phase_phi=math.pi / 2), "rotate": dict(f_psi=2.0),
         "park": dict(f_psi=3.0, f_phi=2.0)}


def joints(c: float, m_w: float) -> dict:
    """Wheel mass and joint stiffness, with damping ratio 0.5 against a wheel (axle joints) and against a
    crossbar half of 1.5 kg (the crossbar's joint)."""
    return dict(m_w=m_w, c_w=c, d_w=math.sqrt(c * m_w), c_bar=c, d_bar=math.sqrt(c * 1.5))


LIGHT_STIFF = joints(1e7, 1e-4)
SIGNALS = ("x", "y", "theta", "xi", "omega", "psi", "phi_f", "tau_psi", "tau_f", "tau_b")
UNITS = dict(x="m", y="m", theta="rad", xi="m/s", omega="rad/s", psi="rad", phi_f="rad", tau_psi="N.m",
             tau_f="N.m", tau_b="N.m")


# The reference is planar: its wheels never leave the ground. The 3-D model's do: the wheels' sideways no-slip
# forces act at ground level, below the board, and the rotor's reaction (35 N m at the park gait's 3 Hz) makes them
# shift the load between the diagonals; wheels 1 and 4 would lift off at t = 0.023 s (park) and 0.110 s (rotate),
# while the drive gait keeps every wheel loaded (measured with unilateral = false: N down to -14.8 N and -0.08 N).
# The cases compare the bilateral model, the one the paper analyses.
BILATERAL = {"unilateral": 0}


def run(gait: str, parameters: dict, stop_time: float, interval: float = 0.01) -> pd.DataFrame:
    raw = simulate("Snakeboard", {**GAITS[gait], **BILATERAL, **parameters}, stop_time=stop_time,
                   output_interval=interval, tolerance=1e-10)
    raw = one_row_per_time(raw)  # a bilateral wheel's N crossing zero: an event without action
    raw["theta"] = np.unwrap(raw["theta"].to_numpy())
    return raw


def per_cycle(frame: pd.DataFrame, period: float = 1.0) -> pd.DataFrame:
    """Net motion over each cycle: displacement of the centre in the board's frame at the cycle's start
    (forward, sideways) and rotation, from the samples at whole periods."""
    t = frame["time"].to_numpy()
    ends = [int(np.argmin(np.abs(t - k * period))) for k in range(int(round(t[-1] / period)) + 1)]
    return pd.DataFrame({"cycle": np.arange(1, len(ends)),
                         **net_motion(*(frame[k].to_numpy()[ends] for k in ("x", "y", "theta")))})


def gait_period(frame: pd.DataFrame) -> float:
    """The gait's period [s] from the servo angles of a run: the mean time between the upward zero crossings
    (interpolated between samples) of the wheelsets' angle phi_f, or of the rotor's psi where the wheelsets stand
    still; NaN where neither swings (by more than 1e-6 rad) through two upward crossings."""
    t = frame["time"].to_numpy(dtype=float)
    for name in ("phi_f", "psi"):
        y = frame[name].to_numpy(dtype=float)
        if np.max(np.abs(y)) <= 1e-6:
            continue
        i = np.flatnonzero((y[:-1] < 0) & (y[1:] >= 0))
        crossings = t[i] - y[i] * (t[i + 1] - t[i]) / (y[i + 1] - y[i])
        if len(crossings) >= 2:
            return float(np.mean(np.diff(crossings)))
    return math.nan


def speed_gain_per_cycle(frame: pd.DataFrame) -> float:
    """A study metric (``nonholonomic.cases.snakeboard:speed_gain_per_cycle``): the forward speed xi [m/s] gained
    per gait cycle, averaged over the run's whole cycles: (xi(K T) - xi(0)) / K, T the gait's period
    (:func:`gait_period`: the wheelsets' period, which is the gait's for the drive and rotate gaits), K the number
    of whole periods in the run, xi interpolated between samples. A board whose servos stand still gains nothing
    (0); a run shorter than a period: NaN. The drive gait psi = A_psi sin 2 pi t, phi_f = -phi_b = A_phi sin 2 pi t
    gains (Jr/(m l)) 4 pi^2 A_psi J1(A_phi) per cycle (the reduced model, phi = 0 at whole cycles)."""
    t, xi = frame["time"].to_numpy(dtype=float), frame["xi"].to_numpy(dtype=float)
    period = gait_period(frame)
    if math.isnan(period):
        swinging = max(np.max(np.abs(frame[k].to_numpy(dtype=float))) for k in ("phi_f", "psi")) > 1e-6
        return math.nan if swinging else 0.0
    cycles = math.floor((t[-1] - t[0]) / period + 1e-6)
    if cycles < 1:
        return math.nan
    return float((np.interp(t[0] + cycles * period, t, xi) - xi[0]) / cycles)


speed_gain_per_cycle.unit = "m/s"  # the study's plot labels


def energy_balance(frame: pd.DataFrame, start: float = 0.2) -> np.ndarray:
    """FMU: kinetic + spring energy - (servo work - dissipated work) from ``start`` on, which must stay zero;
    the work integrals by Simpson's rule on the output grid. The balance starts after the joints' start
    transient (they start relaxed and settle within 0.1 s on a time scale of 1e-4 s, which the output grid
    does not resolve)."""
    frame = frame[frame["time"] >= start - 1e-9]
    t = frame["time"].to_numpy()
    power = (frame["P_psi"] + frame["P_f"] + frame["P_b"] - frame["dampingPower"]).to_numpy()
    work = cumulative_simpson(power, x=t, initial=0.0)
    stored = (frame["kineticEnergy"] + frame["springEnergy"]).to_numpy()
    return stored - stored[0] - work


class GaitCase(Case):
    """One gait from rest, three cycles: FMU against the reduced reference, and the gait's behaviour type."""
    signals = SIGNALS
    units = UNITS
    cycles = 3

    def __init__(self, gait: str):
        self.gait = gait
        laws = {"drive": "psi = sin 2 pi t, phi_f = -phi_b = 0.4 sin 2 pi t",
                "drive_shifted": "psi = sin 2 pi t, phi_f = -phi_b = 0.4 cos 2 pi t (a quarter period later)",
                "rotate": "psi = sin 4 pi t, phi_f = -phi_b = 0.4 sin 2 pi t",
                "park": "psi = sin 6 pi t, phi_f = -phi_b = 0.4 sin 4 pi t"}
        behaviour = {"drive": "speeds up", "drive_shifted": "creeps forward without speeding up",
                     "rotate": "turns on the spot", "park": "drifts sideways"}
        super().__init__(f"snakeboard_{gait}", "Snakeboard",
                         f"Snakeboard (5 kg, l = 0.3 m), gait '{gait}': {laws[gait]}; from rest, {self.cycles} cycles; "
                         f"0.1 g wheels, joints 1e7 N/m. FMU against the reduced model; the board {behaviour[gait]}.")

    def execute(self) -> CaseResult:
        fmu = run(self.gait, LIGHT_STIFF, float(self.cycles), 0.0005)
        ref = REFERENCE.simulate(Gait.named(self.gait), fmu["time"].to_numpy())
        # motion: measured 1e-5 to 3e-4 of each signal's largest magnitude (the joints' deflection F/c, the wheels);
        # bound 2e-3. Torques: the joints start relaxed while the servos already accelerate, and the transient of
        # their first 10 ms differs from the rigid model by up to 8e-3 of the wheelsets' small torques (falling as
        # c^-1/2: 2.5e-2 at 1e6 N/m, 1.7e-3 at 1e8 N/m, measured); bound 2e-2
        motion = [s for s in SIGNALS if not s.startswith("tau")]
        errors = pd.concat([compare(fmu, ref, motion, 2e-3),
                            compare(fmu, ref, [s for s in SIGNALS if s.startswith("tau")], 2e-2)], ignore_index=True)
        cycles_fmu, cycles_ref = per_cycle(fmu), per_cycle(ref)
        table = cycles_fmu.merge(cycles_ref, on="cycle", suffixes=("_fmu", "_reference"))
        checks = [Check(f"per cycle: max |{k} FMU - reference| [{'rad' if k == 'rotation' else 'm'}]",
                        float(np.max(np.abs(table[f"{k}_fmu"] - table[f"{k}_reference"]))), 1e-3)
                  for k in ("forward", "sideways", "rotation")]
        # the servo work equals the change of the stored energy plus the dissipated work. Simpson's rule on the
        # 0.5 ms grid errs by 2e-6 J on the park gait's powers of up to 330 W (measured: it falls as h^4, 6e-5 J at
        # 1 ms); the FMU's integration at 1e-10 adds less; bound 1e-5 J
        checks.append(Check("FMU energy balance from 0.2 s: max |E - E(0.2) - (servo work - dissipation)| [J]",
                            float(np.max(np.abs(energy_balance(fmu)))), 1e-5))
        checks.append(Check("reference energy balance: max |T - T0 - servo work| [J]", float(np.max(np.abs(
            ref["kinetic_energy"] - ref["kinetic_energy"].iloc[0] - ref["servo_work"]))), 1e-6))
        checks.append(Check("max slip of the wheels [m/s]", float(fmu[[f"slip[{i}]" for i in range(1, 5)]].max().max()),
                            1e-6))
        checks += self.behaviour(fmu, cycles_fmu)
        return CaseResult(self, errors, checks, {"fmu": fmu, "reference": ref, "cycles": table})

    def behaviour(self, fmu: pd.DataFrame, cycles: pd.DataFrame) -> list[Check]:
        """The behaviour type of Lewis et al., from the FMU alone (bounds: an order below the effect)."""
        f, side, rot = (cycles[k].to_numpy() for k in ("forward", "sideways", "rotation"))
        ends = fmu[np.isin(np.round(fmu["time"], 6), np.arange(self.cycles + 1.0))]["xi"].to_numpy()
        if self.gait == "drive":  # the speed at whole cycles grows by the Bessel-function gain, 0.516 m/s
            return [Check("drive: smallest speed gain per cycle, minus 0.5 m/s [m/s]", -float(np.min(np.diff(ends)) - 0.5), 0.0)]
        if self.gait == "drive_shifted":  # the same motions a quarter period apart build no speed
            return [Check("drive_shifted: largest speed at whole cycles [m/s]", float(np.max(np.abs(ends))), 1e-3),
                    Check("drive_shifted: least forward creep per cycle, minus 0.03 m [m]", 0.03 - float(np.min(f)), 0.0)]
        if self.gait == "rotate":  # 0.216 rad per cycle while the centre moves 1 cm (0.03 l)
            return [Check("rotate: least rotation per cycle, minus 0.2 rad [rad]", 0.2 - float(np.min(rot)), 0.0),
                    Check("rotate: largest net displacement per cycle [m]", float(np.max(np.hypot(f, side))), 0.03)]
        return [Check("park: least sideways drift per cycle, minus 0.025 m [m]", 0.025 - float(np.min(side)), 0.0),
                Check("park: largest forward displacement per cycle [m]", float(np.max(np.abs(f))), 1e-3),
                Check("park: largest rotation per cycle [rad]", float(np.max(np.abs(rot))), 1e-3)]

    def bench_cases(self):
        return []

    def plot(self, result, out_dir):
        fmu, ref = result.frames["fmu"], result.frames["reference"]
        return [board_path_plot(fmu, ref, f"{self.name}: path of the board (drawn every 0.5 s)", out_dir / "path.png"),
                signals_with_errors(fmu["time"], fmu, ref, SIGNALS, UNITS, f"{self.name}: FMU vs reduced model",
                                    out_dir / "signals.png"),
                snakeboard_animation(fmu, out_dir / "snakeboard.gif", title=f"{self.name} (FMU)")]


class ConvergenceCase(Case):
    """The FMU's difference to the reference as the wheels get lighter and the joints stiffer (drive gait)."""
    STIFFNESSES = (1e5, 1e6, 1e7)
    WHEEL_MASSES = (1e-2, 1e-3, 1e-4)

    def __init__(self):
        super().__init__("snakeboard_convergence", "Snakeboard",
                         "Snakeboard, drive gait from rest, 3 s: largest path difference to the reduced model for joint "
                         f"stiffnesses {', '.join(f'{c:.0e}' for c in self.STIFFNESSES)} N/m (0.01 g wheels) and wheel "
                         f"masses {', '.join(f'{m:g}' for m in self.WHEEL_MASSES)} kg (joints 1e8 N/m).")

    def execute(self) -> CaseResult:
        ref = None
        rows = []
        for kind, values in (("stiffness", self.STIFFNESSES), ("wheel mass", self.WHEEL_MASSES)):
            for value in values:
                params = joints(value, 1e-5) if kind == "stiffness" else joints(1e8, value)
                fmu = run("drive", params, 3.0)
                if ref is None:
                    ref = REFERENCE.simulate(Gait.named("drive"), fmu["time"].to_numpy())
                path = float(np.max(np.hypot(fmu["x"] - ref["x"], fmu["y"] - ref["y"])))
                rows.append({"varied": kind, "value": value, "path difference [m]": path,
                             "heading difference [rad]": float(np.max(np.abs(fmu["theta"] - ref["theta"])))})
        table = pd.DataFrame(rows)
        checks = []
        for kind in ("stiffness", "wheel mass"):
            paths = table[table["varied"] == kind]["path difference [m]"].to_numpy()
            # each tenfold step cuts the difference about tenfold (deflection F/c; the wheels' inertia m_w)
            checks.append(Check(f"{kind}: largest ratio of path differences per tenfold step (expected 0.1)",
                                float(np.max(paths[1:] / paths[:-1])), 0.2))
        return CaseResult(self, no_signals(), checks, {"trend": table})

    def plot(self, result, out_dir):
        table = result.frames["trend"]
        fig, axes = plt.subplots(1, 2, figsize=(10, 4.2))
        for ax, kind, unit in zip(axes, ("stiffness", "wheel mass"), ("N/m", "kg")):
            rows = table[table["varied"] == kind]
            ax.loglog(rows["value"], rows["path difference [m]"], "o-", label="FMU - reduced model")
            v = rows["value"].to_numpy()
            slope = -1 if kind == "stiffness" else 1
            ax.loglog(v, rows["path difference [m]"].iloc[0] * (v / v[0]) ** slope, "k:", lw=1, label=f"slope {slope}")
            ax.set_xlabel(label(f"joint {kind}" if kind == "stiffness" else kind, unit))
            ax.set_ylabel(label("max path difference", "m"))
            ax.grid(alpha=0.3, which="both")
            ax.legend(fontsize=8)
        fig.suptitle(f"{self.name}: drive gait, 3 s")
        return [save_figure(fig, out_dir / "trend.png")]


def board_path_plot(fmu: pd.DataFrame, ref: pd.DataFrame, title: str, path, every: float = 0.5, l: float = 0.3):
    """The path of the board's centre, with the crossbar and both wheelsets drawn at intervals (FMU)."""
    fig, ax = plt.subplots(figsize=(7.5, 6))
    ax.plot(fmu["x"], fmu["y"], **FMU_STYLE)
    ax.plot(ref["x"], ref["y"], **REF_STYLE)
    t = fmu["time"].to_numpy()
    for k in np.unique([int(np.argmin(np.abs(t - s))) for s in np.arange(0.0, t[-1] + 1e-9, every)]):
        x, y, th = fmu["x"].iloc[k], fmu["y"].iloc[k], fmu["theta"].iloc[k]
        e = np.array([math.cos(th), math.sin(th)])
        ax.plot([x - l * e[0], x + l * e[0]], [y - l * e[1], y + l * e[1]], color="0.35", lw=1.2)
        for sign, phi in ((1, fmu["phi_f"].iloc[k]), (-1, fmu["phi_b"].iloc[k])):
            centre = np.array([x, y]) + sign * l * e
            axle = 0.06 * np.array([-math.sin(th + phi), math.cos(th + phi)])
            ax.plot([centre[0] - axle[0], centre[0] + axle[0]], [centre[1] - axle[1], centre[1] + axle[1]],
                    color="tab:green", lw=2)
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_xlabel(label("x", "m"))
    ax.set_ylabel(label("y", "m"))
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="best")
    return save_figure(fig, path)


def cases() -> list[Case]:
    return [*(GaitCase(g) for g in GAIT_NAMES), ConvergenceCase()]
