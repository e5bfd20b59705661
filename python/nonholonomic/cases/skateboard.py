"""Verification cases of the skateboard: Modelica example ``Examples.Skateboard``, reference
``nonholonomic.references.skateboard``.

The FMU is the 3-D multibody model: the board and rider as one body, two trucks (a hanger on an elastic
revolute joint inclined at lambda, an axle with two light wheels on compliant joints, each wheel rolling on
the plane). The reference is the reduced model of Hubbard and Kuleshov (massless trucks and wheels, the
steering law tan(delta) = tan(lambda) sin(theta)) with the truck's bushing acting about its pivot axis, as
in the Modelica truck (``bushing="pivot"``; the same as the papers' -k theta to first order).

What the reference neglects, and so what bounds the differences: the wheels' and hangers' masses (10 g each
against 73 kg) and spin inertia, and the compliance of the wheels' joints along the axles. The cases run
with stiff axle joints (1e7 N/m); the difference to the reference falls tenfold per tenfold stiffer joints
(measured, and checked in ``skateboard_tilt``), 2e-4 of the tilt at 1e7 N/m.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pandas as pd

from ..plots import FMU_STYLE, REF_STYLE, label, plt, save_figure, skateboard_animation
from ..references.skateboard import Skateboard
from ..simulate import simulate
from ..verification import Case, CaseResult, Check, compare, no_signals
from .common import StudyCase, one_row_per_time

PAPER = ("I. I. Kosenko, A. S. Kuleshov, \"Modelica implementation of the skateboard dynamics\", 6th International "
         "Modelica Conference (2008), after M. Hubbard, \"Lateral dynamics and stability of the skateboard\" (1979), "
         "and A. V. Kremnev, A. S. Kuleshov (2008-2010). Reference: the reduced equations of a rigid rider on "
         "lean-to-steer trucks (Lagrange-d'Alembert; checked against Newton-Euler with the reactions as unknowns), "
         "and their linearisation about the straight motion.")
REFERENCE = Skateboard(bushing="pivot")


def rider(a: float) -> Skateboard:
    """The reference with the rider at a (m) ahead of the centre."""
    return replace(REFERENCE, a=a)
# stiff axle joints; their damping is set for the board's sideways mode against the four axle springs (73 kg on
# 4e7 N/m, 740 rad/s): 4 d / (2 sqrt(4 c m)) = 0.37, so the transient of the start dies out within 0.01 s
STIFF = dict(c_w=1e7, d_w=1e4)
LIGHT_TRUCKS = dict(m_w=1e-4, m_h=1e-4, A_h=2.2e-7, C_h=1e-9)  # 1/100 of the defaults (A_w, C_w follow m_w)
SIGNALS = ("theta", "psi", "x", "y", "speed", "dtheta", "dpsi")
UNITS = dict(theta="rad", psi="rad", x="m", y="m", speed="m/s", dtheta="rad/s", dpsi="rad/s")


# The references keep the four wheels on the ground (the linearised and the reduced model); so do the cases
# (unilateral = false): the truck's steering is followed while the board falls to 1 rad, past the tilt where the
# real board's upper wheels lift off (t = 1.68 s of that run), and the growing tilts run on past the 4 times their
# start that the fits read, until a wheel would lift off. The fits read only tilts of a few hundredths of a radian,
# where every wheel is loaded.
BILATERAL = {"unilateral": 0}


def run(parameters: dict, stop_time: float, interval: float = 0.01) -> pd.DataFrame:
    """The Skateboard FMU with stiff axle joints, wheels that stay on the ground; heading unwrapped."""
    raw = simulate("Skateboard", {**STIFF, **BILATERAL, **parameters}, stop_time=stop_time, output_interval=interval,
                   tolerance=1e-10)
    raw = one_row_per_time(raw)  # a bilateral wheel's N crossing zero: an event without action
    raw["psi"] = np.unwrap(raw["psi"].to_numpy())
    return raw


def reference_run(model: Skateboard, time, parameters: dict) -> pd.DataFrame:
    ref = model.simulate(time, theta0=parameters.get("theta_0", 0.02), V=parameters.get("V", 3.0),
                         dtheta0=parameters.get("dtheta_0", 0.0))
    return ref.rename(columns={"v": "speed"})


def fit_oscillation(time, theta, max_amplitude: float = math.inf) -> tuple[float, float]:
    """(sigma, omega) of theta = A exp(sigma t) cos(omega t + phase) from its extrema up to ``max_amplitude``:
    for that signal the extrema are exactly pi/omega apart and their magnitudes exactly proportional to
    exp(sigma t). Each extremum is refined by a parabola through its three samples."""
    t, y = np.asarray(time, float), np.asarray(theta, float)
    i = np.nonzero((y[1:-1] - y[:-2]) * (y[2:] - y[1:-1]) < 0)[0] + 1
    if len(i) < 3:
        return math.nan, math.nan
    y0, y1, y2 = y[i - 1], y[i], y[i + 1]
    shift = 0.5 * (y0 - y2) / (y0 - 2 * y1 + y2)
    t_ext = t[i] + shift * (t[1] - t[0])
    y_ext = y1 - 0.25 * (y0 - y2) * shift
    small = np.cumsum(np.abs(y_ext) > max_amplitude) == 0  # until the first extremum beyond it
    t_ext, y_ext = t_ext[small], y_ext[small]
    if len(t_ext) < 3:
        return math.nan, math.nan
    sigma = np.polyfit(t_ext, np.log(np.abs(y_ext)), 1)[0]
    return float(sigma), float(math.pi / np.mean(np.diff(t_ext)))


def fit_growth(time, theta, low: float, high: float) -> float:
    """Exponential rate of |theta| where it lies in [low, high] (a falling board: one real eigenvalue
    dominates once the other has decayed)."""
    y = np.abs(np.asarray(theta, float))
    window = (y >= low) & (y <= high)
    return float(np.polyfit(np.asarray(time, float)[window], np.log(y[window]), 1)[0])


class TiltCase(Case):
    """FMU against reference for a stable and an unstable rider at the same speed: tilt, heading, path."""
    signals = SIGNALS
    units = UNITS

    def __init__(self):
        super().__init__("skateboard_tilt", "Skateboard",
                         "Skateboard (73 kg, h = 1 m, lambda = 45 deg, k = 250 N m/rad) at 3 m/s tilted by 0.05 rad, "
                         "the rider 5 cm ahead of the centre (a V > 0: stable) and 5 cm behind it (a V < 0: unstable), "
                         "8 s: FMU against the reduced model.")

    def execute(self) -> CaseResult:
        frames, errors, checks = {}, [], []
        for a, tag, theta0, stop in ((0.05, "ahead", 0.05, 8.0), (-0.05, "behind", 0.02, 6.0)):
            params = dict(V=3.0, theta_0=theta0, a=a)
            fmu = run(params, stop)
            ref = reference_run(rider(a), fmu["time"].to_numpy(), params)
            frames[f"fmu_{tag}"], frames[f"reference_{tag}"] = fmu[["time", *SIGNALS, "delta_f", "delta_b", "energy",
                                                                   "gap", "slip"]], ref
            # measured 2e-4 (ahead) and 4e-4 (behind, growing 7-fold) relative, from the axle joints' compliance and
            # the trucks' 60 g (see the trend below); bound 1e-3 relative to each signal's largest magnitude
            err = compare(fmu, ref, SIGNALS, 1e-3)
            err["signal"] = err["signal"] + f" ({tag})"
            errors.append(err)
            sigma = fit_oscillation(fmu["time"], fmu["theta"])[0]
            expected = rider(a).eigenvalues(3.0)[0].real
            checks.append(Check(f"rider {tag}: sign of the fitted tilt growth rate differs from theory's",
                                float(np.sign(sigma) != np.sign(expected)), 0.0))
            # no bushing damping; the axle joints' dampers take what the sideways start transient has (2.5e-8)
            checks.append(Check(f"rider {tag}: FMU energy drift (relative)", float(np.max(np.abs(
                fmu["energy"] - fmu["energy"].iloc[0])) / fmu["energy"].iloc[0]), 1e-7))
            checks.append(Check(f"rider {tag}: max slip of the wheels [m/s]", float(fmu["slip"].max()), 1e-6))
        # the trend: light trucks, axle joints ever stiffer: the difference is the joints' deflection, F/c
        rows = []
        for c_w in (1e6, 1e7, 1e8):
            params = dict(V=3.0, theta_0=0.05, a=0.05, **LIGHT_TRUCKS, c_w=c_w, d_w=1e4)
            fmu = run(params, 8.0)
            ref = reference_run(REFERENCE, fmu["time"].to_numpy(), params)
            rows.append(dict(c_w=c_w, theta_difference=float(np.max(np.abs(fmu["theta"] - ref["theta"])))))
        trend = pd.DataFrame(rows)
        frames["stiffness_trend"] = trend
        ratios = trend["theta_difference"].to_numpy()[1:] / trend["theta_difference"].to_numpy()[:-1]
        checks.append(Check("largest ratio of tilt differences per tenfold stiffer axle joints (expected 0.1)",
                            float(ratios.max()), 0.2))
        return CaseResult(self, pd.concat(errors, ignore_index=True), checks, frames)

    def plot(self, result, out_dir):
        fig, axes = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
        for ax, tag, title in zip(axes, ("ahead", "behind"), ("a = +0.05 m (a V > 0)", "a = -0.05 m (a V < 0)")):
            fmu, ref = result.frames[f"fmu_{tag}"], result.frames[f"reference_{tag}"]
            ax.plot(fmu["time"], fmu["theta"], **FMU_STYLE)
            ax.plot(ref["time"], ref["theta"], **REF_STYLE)
            sigma = REFERENCE.eigenvalues(3.0)[0].real * (1 if tag == "ahead" else -1)
            envelope = abs(fmu["theta"].iloc[0]) * np.exp(sigma * fmu["time"])
            ax.plot(fmu["time"], envelope, color="0.5", lw=0.8, ls=":", label=f"exp({sigma:+.3f} t), linear theory")
            ax.plot(fmu["time"], -envelope, color="0.5", lw=0.8, ls=":")
            ax.set_ylabel(label("tilt theta", "rad"))
            ax.set_title(f"{self.name}: rider {tag} {'of ' if tag == 'ahead' else ''}the centre, {title}, V = 3 m/s")
            ax.grid(alpha=0.3)
            ax.legend(loc="upper left", fontsize=8)
        axes[-1].set_xlabel(label("t", "s"))
        paths = [save_figure(fig, out_dir / "tilt_envelopes.png")]
        fig, ax = plt.subplots(figsize=(7, 5))
        for tag in ("ahead", "behind"):
            fmu, ref = result.frames[f"fmu_{tag}"], result.frames[f"reference_{tag}"]
            ax.plot(fmu["x"], fmu["y"], label=f"FMU, rider {tag}")
            ax.plot(ref["x"], ref["y"], **{**REF_STYLE, "label": f"reference, rider {tag}"})
        ax.set_xlabel(label("x", "m"))
        ax.set_ylabel(label("y", "m"))
        ax.set_aspect("equal", adjustable="datalim")
        ax.set_title(f"{self.name}: path of the board's centre")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        paths.append(save_figure(fig, out_dir / "paths.png"))
        paths.append(skateboard_animation(result.frames["fmu_behind"], out_dir / "skateboard.gif",
                                          title=f"{self.name}: rider behind the centre, 3 m/s (FMU)"))
        return paths


class LinearCase(Case):
    """Eigenvalues fitted from small-amplitude FMU runs against the linearised reference; the critical speed."""
    SPEEDS = (1.6, 2.0, 3.0, 4.0, 5.0)   # above V_c = 1.13 m/s: oscillations
    SLOW = (0.0, 0.5, 0.8)               # below: the board falls
    AMPLITUDE = 0.005

    def __init__(self):
        super().__init__("skateboard_linear", "Skateboard",
                         f"Small tilts ({self.AMPLITUDE} rad) of the skateboard: growth rate and frequency fitted from FMU "
                         f"runs at V = {', '.join(map(str, self.SPEEDS))} m/s (rider 5 cm ahead and behind), the falling "
                         f"rate at V = {', '.join(map(str, self.SLOW))} m/s, and the critical speed from the frequencies, "
                         "against the linearised reduced model.")

    def execute(self) -> CaseResult:
        rows = []
        for a in (0.05, -0.05):
            model = rider(a)
            for V in self.SPEEDS:
                fmu = run(dict(V=V, theta_0=self.AMPLITUDE, a=a), 6.0, 0.005)
                # a growing tilt is fitted while it stays within 4 times its start (nonlinearity theta^2 < 4e-4)
                sigma, omega = fit_oscillation(fmu["time"], fmu["theta"], 4 * self.AMPLITUDE)
                lam = model.eigenvalues(V)[0]
                rows.append(dict(a=a, V=V, sigma_fmu=sigma, sigma_theory=lam.real, omega_fmu=omega,
                                 omega_theory=abs(lam.imag)))
        for V in self.SLOW:
            fmu = run(dict(V=V, theta_0=1e-4, a=0.05), 4.0, 0.005)
            rate = fit_growth(fmu["time"], fmu["theta"], 2e-3, 2e-2)
            rows.append(dict(a=0.05, V=V, sigma_fmu=rate, sigma_theory=REFERENCE.eigenvalues(V)[0].real,
                             omega_fmu=0.0, omega_theory=0.0))
        table = pd.DataFrame(rows)
        oscillating = table[table["omega_theory"] > 0]
        # J s^2 + D s + K: sigma^2 + omega^2 = K/J = (k - m g h)/J + m h kappa V^2/J, a line in V^2 whose root is V_c^2
        slope, intercept = np.polyfit(oscillating["V"] ** 2, oscillating["sigma_fmu"] ** 2 + oscillating["omega_fmu"] ** 2, 1)
        v_c_fit, v_c = math.sqrt(-intercept / slope), REFERENCE.critical_speed()
        table.attrs["V_c"] = (v_c_fit, v_c)
        scale = np.hypot(table["sigma_theory"], table["omega_theory"])
        # the fit is exact for a linear signal; what differs is the neglected 60 g of trucks and wheels (1e-3 of the
        # mass, less of the roll inertia) and the amplitude's nonlinearity (theta^2 up to 4e-4): bound 2e-3 of |lambda|
        checks = [Check("max |sigma_FMU - sigma_theory| / |lambda|", float(np.max(np.abs(table["sigma_fmu"] - table["sigma_theory"])
                                                                              / scale)), 2e-3),
                  Check("max |omega_FMU - omega_theory| / |lambda|", float(np.max(np.abs(table["omega_fmu"]
                                                                                        - table["omega_theory"]) / scale)), 2e-3),
                  # sigma^2 + omega^2 carries twice the fits' relative error; the line through V^2 = 2.6 ... 25
                  # extrapolated to its root at V_c^2 = 1.28 moves that root by about as much: bound 5e-3
                  Check("critical speed fitted from the FMU's frequencies vs theory, |V_c,fit - V_c| / V_c",
                        abs(v_c_fit - v_c) / v_c, 5e-3),
                  Check("above V_c: tilt decays for a V > 0 (largest fitted sigma)",
                        float(table[(table["a"] > 0) & (table["omega_theory"] > 0)]["sigma_fmu"].max()), 0.0),
                  Check("above V_c: tilt grows for a V < 0 (minus the smallest fitted sigma)",
                        -float(table[table["a"] < 0]["sigma_fmu"].min()), 0.0),
                  Check("below V_c: the board falls (minus the smallest fitted falling rate)",
                        -float(table[table["omega_theory"] == 0]["sigma_fmu"].min()), 0.0)]
        return CaseResult(self, no_signals(), checks, {"eigenvalues": table,
                                                       "critical_speed": pd.DataFrame({"V_c_fit": [v_c_fit], "V_c": [v_c]})})

    def plot(self, result, out_dir):
        table = result.frames["eigenvalues"]
        fig, (top, bottom) = plt.subplots(2, 1, figsize=(7.5, 7), sharex=True)
        V = np.linspace(0.0, 5.5, 300)
        for a, color in ((0.05, "tab:blue"), (-0.05, "tab:red")):
            lam = rider(a).eigenvalues(V)
            top.plot(V, lam[:, 0].real, color=color, lw=1, label=f"theory, a = {a:+.2f} m")
            top.plot(V, lam[:, 1].real, color=color, lw=1, ls="--")
            rows = table[table["a"] == a]
            top.plot(rows["V"], rows["sigma_fmu"], "o", color=color, mfc="none", label=f"FMU fit, a = {a:+.2f} m")
            bottom.plot(V, np.abs(lam[:, 0].imag), color=color, lw=1)
            bottom.plot(rows["V"], rows["omega_fmu"], "o", color=color, mfc="none")
        v_c_fit, v_c = result.frames["critical_speed"].iloc[0]
        for ax in (top, bottom):
            ax.axvline(v_c, color="k", lw=0.8, ls=":")
            ax.grid(alpha=0.3)
        top.set_title(f"{self.name}: eigenvalues of the tilt; V_c = {v_c:.4f} m/s (FMU fit {v_c_fit:.4f})")
        top.set_ylabel(label("growth rate Re(lambda)", "1/s"))
        top.legend(fontsize=8)
        bottom.set_ylabel(label("frequency |Im(lambda)|", "rad/s"))
        bottom.set_xlabel(label("speed V", "m/s"))
        return [save_figure(fig, out_dir / "eigenvalues.png")]


def tilt_decay(frame: pd.DataFrame) -> dict:
    """A study metric (``nonholonomic.cases.skateboard:tilt_decay``): the largest |theta| [rad] of the run's first
    and last fifth (of its samples: the first and the last second of a 5 s run) and of the whole run; the tilt
    decays where the last is below the first and the board has not fallen (below 0.5 rad throughout)."""
    theta = np.abs(frame["theta"].to_numpy())
    n = len(theta)
    return {"tilt_start": float(theta[: n // 5].max()), "tilt_end": float(theta[-n // 5:].max()),
            "tilt_max": float(theta.max())}


def tilt_growth_rate(frame: pd.DataFrame, max_tilt: float = 0.2) -> float:
    """A study metric (``nonholonomic.cases.skateboard:tilt_growth_rate``): the growth rate [1/s] of the tilt's
    envelope while |theta| stays below ``max_tilt``: negative where the straight motion is stable. A tilt that
    swings through zero there (twice at least): the rate of its extrema (:func:`fit_oscillation`); one that keeps
    its sign (a board that falls): the slope of log |theta| against time from twice the initial tilt (the other,
    decaying, mode of the start gone) to ``max_tilt``. NaN otherwise: an oscillation too slow for three extrema in
    the run (near the critical speed; run longer)."""
    t, theta = frame["time"].to_numpy(dtype=float), frame["theta"].to_numpy(dtype=float)
    inside = np.cumsum(np.abs(theta) > max_tilt) == 0
    if np.count_nonzero(np.diff(np.sign(theta[inside])) != 0) >= 2:
        return fit_oscillation(t, theta, max_tilt)[0]
    if np.any(np.sign(theta[inside]) == -np.sign(theta[0])):
        return math.nan
    y = np.abs(theta)
    window = inside & (y >= 2 * y[0]) & (y > 0)
    if window.sum() < 2:
        return math.nan
    return float(np.polyfit(t[window], np.log(y[window]), 1)[0])


tilt_decay.unit = dict(tilt_start="rad", tilt_end="rad", tilt_max="rad")  # the study's plot labels
tilt_growth_rate.unit = "1/s"


TILT_DECAY, TILT_GROWTH_RATE = (f"nonholonomic.cases.skateboard:{f}" for f in ("tilt_decay", "tilt_growth_rate"))


class StabilityMapCase(StudyCase):
    """The (V, a) stability map of the linearised reference, with FMU runs classified on it: two studies (a grid of
    V and a, and two riders near the centre at 2 m/s), the tilt's decay their metric (:func:`tilt_decay`)."""
    POINTS = [(V, a) for V in (-3.0, -0.6, 0.6, 3.0) for a in (-0.08, 0.08)] + [(2.0, 0.02), (2.0, -0.02)]
    GROUPS = {"grid": dict(V=(-3.0, -0.6, 0.6, 3.0), a=(-0.08, 0.08)), "near_centre": dict(V=(2.0,), a=(0.02, -0.02))}

    def __init__(self):
        super().__init__("skateboard_stability_map", "Skateboard",
                         "Stability of the skateboard's straight motion over the speed V and the rider's position a: "
                         "the boundary of the linearised reference (|V| = V_c, a V = 0), and FMU runs (tilt 0.01 rad, "
                         "5 s) marked stable where the tilt's envelope decays.")

    def execute(self) -> CaseResult:
        found = {}
        for group, grid in self.GROUPS.items():
            vary = {**grid, "theta_0": [0.01], **{k: [v] for k, v in {**STIFF, **BILATERAL}.items()}}
            table = self.study(group, vary, [TILT_DECAY, TILT_GROWTH_RATE], stop_time=5.0, output_interval=0.01,
                               tolerance=1e-10)
            found.update({(float(row["V"]), float(row["a"])): row for _, row in table.iterrows()})
        assert set(found) == set(self.POINTS), "the studies' grids are the case's points"
        rows = []
        for V, a in self.POINTS:
            run = found[(V, a)]
            # decay: the largest tilt of the last second below the first second's (a falling board leaves the map)
            decays = bool(run["tilt_end"] < run["tilt_start"] and run["tilt_max"] < 0.5)
            rate = float(rider(a).max_real_part(V))
            rows.append(dict(V=V, a=a, stable_fmu=decays, stable_theory=rate < 0,
                             growth_rate_fmu=float(run[TILT_GROWTH_RATE]), growth_rate_theory=rate))
        table = pd.DataFrame(rows)
        disagree = int((table["stable_fmu"] != table["stable_theory"]).sum())
        return CaseResult(self, no_signals(), [Check("FMU runs classified unlike the linear theory", disagree, 0)],
                          {"points": table})

    def plot(self, result, out_dir):
        table = result.frames["points"]
        V = np.linspace(-4, 4, 321)
        a = np.linspace(-0.1, 0.1, 201)
        growth = REFERENCE.stability_map(V, a, parameter="a")
        fig, ax = plt.subplots(figsize=(7.5, 5.5))
        mesh = ax.pcolormesh(V, a, growth, cmap="RdBu_r", vmin=-1.5, vmax=1.5, shading="auto")
        fig.colorbar(mesh, ax=ax, label=label("largest Re(lambda)", "1/s"))
        ax.contour(V, a, growth, levels=[0.0], colors="k", linewidths=1.2)
        for row in table.itertuples():
            ax.plot(row.V, row.a, "o" if row.stable_fmu else "x", color="k", ms=8, mfc="white" if row.stable_fmu else None,
                    mew=2)
        ax.plot([], [], "o", color="k", mfc="white", label="FMU run: tilt decays")
        ax.plot([], [], "x", color="k", mew=2, label="FMU run: tilt grows or the board falls")
        ax.set_xlabel(label("speed V", "m/s"))
        ax.set_ylabel(label("rider ahead of the centre a", "m"))
        ax.set_title(f"{self.name}: stable (blue) where a V > 0 and |V| > V_c = {REFERENCE.critical_speed():.3f} m/s")
        ax.legend(loc="lower left", fontsize=8)
        return [save_figure(fig, out_dir / "stability_map.png")]


class TruckCase(Case):
    """The truck's steering geometry along a falling run, and the turn into the lean."""

    def __init__(self):
        super().__init__("skateboard_truck", "Skateboard",
                         "The trucks' steering: along a run at 0.5 m/s (below the critical speed) in which the board "
                         "falls from 0.01 to 1 rad, tan(delta_f) = tan(lambda) sin(theta) and delta_b = -delta_f, "
                         "and the board turns into the lean (dpsi has the sign of theta).")

    def execute(self) -> CaseResult:
        fmu = run(dict(V=0.5, theta_0=0.01), 3.0)
        fmu = fmu[np.cumsum(np.abs(fmu["theta"]) > 1.0) == 0]  # until the tilt first reaches 1 rad
        lam = math.pi / 4
        law = np.abs(np.tan(fmu["delta_f"]) - math.tan(lam) * np.sin(fmu["theta"]))
        moving = np.abs(fmu["theta"]) > 1e-3
        wrong_way = int(np.sum(np.sign(fmu["dpsi"][moving]) != np.sign(fmu["theta"][moving])))
        # the relation is the constraints' geometry (axle level, wheels on the plane): held to the Baumgarte drift
        checks = [Check("tilt range swept [rad]", -float(np.abs(fmu["theta"]).max()), -0.9),
                  Check("max |tan(delta_f) - tan(lambda) sin(theta)|", float(law.max()), 1e-7),
                  Check("max |delta_b + delta_f| [rad]", float(np.abs(fmu["delta_b"] + fmu["delta_f"]).max()), 1e-7),
                  Check("samples turning out of the lean (sign(dpsi) != sign(theta))", wrong_way, 0)]
        return CaseResult(self, no_signals(), checks, {"fmu": fmu[["time", "theta", "delta_f", "delta_b", "dpsi", "psi"]]})

    def plot(self, result, out_dir):
        fmu = result.frames["fmu"]
        theta = np.linspace(fmu["theta"].min(), fmu["theta"].max(), 200)
        fig, ax = plt.subplots(figsize=(7, 5))
        ax.plot(theta, np.arctan(np.sin(theta)), color="tab:orange", lw=1.2, label="tan(delta) = tan(lambda) sin(theta)")
        ax.plot(fmu["theta"], fmu["delta_f"], ".", ms=3, color="tab:blue", label="FMU, front axle")
        ax.plot(fmu["theta"], -fmu["delta_b"], ".", ms=2, color="tab:green", label="FMU, rear axle (-delta_b)")
        ax.set_xlabel(label("tilt theta", "rad"))
        ax.set_ylabel(label("steer angle delta", "rad"))
        ax.set_title(f"{self.name}: steering of the trucks (lambda = 45 deg) while the board falls")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        return [save_figure(fig, out_dir / "steering.png")]


def cases() -> list[Case]:
    return [TruckCase(), TiltCase(), LinearCase(), StabilityMapCase()]
