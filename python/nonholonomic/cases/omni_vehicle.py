"""Verification cases of the omni-wheel vehicle (Gerasimov 2018, ch. 1-3): Modelica examples
``Examples.OmniVehicleSpin``, ``Examples.OmniVehicleStraight`` (untruncated spindle rollers) and
``Examples.OmniVehicleTruncated`` (truncated rollers), references ``nonholonomic.references.omni_massless``
(massless rollers) and ``nonholonomic.references.omni_massive`` (massive rollers with impacts, ``nonholonomic
chapter2``); the full sweep over the roller mass is ``nonholonomic sweep`` (:mod:`nonholonomic.sweep`).
"""

from __future__ import annotations

import pathlib
import tempfile

import numpy as np
import pandas as pd

from ..sweep import (N_ROLLERS, N_WHEELS, cases as sweep_cases, lowest_rollers, massless_reference, plot_sweep,
                     run_sweep, trend_ratios)
from ..verification import CaseResult, Check, TrajectoryCase

PAPER = ('K. V. Gerasimov, "Dynamics of an omni-wheel vehicle with roller inertia and friction", thesis, Moscow State '
         "University (2018), ch. 3. Reference: the massless-roller model of A. V. Borisov, A. A. Kilin, I. S. Mamaev, "
         '"A cart with omni-wheels on a plane and a sphere", Nelin. Dinam. 7(4) (2011) 785-801.')


class MasslessLimitCase:
    """Verification case: a short sweep over three roller masses; the discrepancy to the massless-roller
    model must fall as the rollers get lighter (the full sweep: ``nonholonomic sweep``)."""

    name, model = "omni_massless_limit", "OmniVehicleSpin"
    description = ("Omni-wheel vehicle (16 bodies, friction) against the massless-roller model for "
                   "eta = 1e-1/n, 1e-2/n, 1e-3/n: spinning in place (1.2 s, two roller changes per wheel) and "
                   "moving straight (0.3 s); the path difference must fall with eta.")
    etas = (0.1 / N_ROLLERS, 0.01 / N_ROLLERS, 0.001 / N_ROLLERS)
    stop_times = {"spin": 1.2, "straight": 0.3}

    def bench_cases(self):
        """The vehicle spinning in place for 1 s and moving straight for 0.3 s (eta = 1e-2/n) against the
        massless-roller model."""
        def observe(raw):
            out = raw.copy()
            out["psi"] = np.unwrap(raw["psi"].to_numpy())
            return out

        def reference(kind):
            return lambda t: massless_reference(kind, t).rename(columns={"phi": "psi"})

        return [TrajectoryCase(f"omni_{kind}_eta2.5e-03", model, "bench", parameters={"eta": 0.0025},
                               stop_time=stop_time, output_interval=0.001, reference=reference(kind), observe=observe,
                               signals=signals, fmu_tolerance=1e-6)
                for kind, model, stop_time, signals in (("spin", "OmniVehicleSpin", 1.0, ("psi", "x", "y")),
                                                        ("straight", "OmniVehicleStraight", 0.3, ("x", "y", "psi")))]

    def run(self, out_dir=None):
        folder = pathlib.Path(out_dir or tempfile.mkdtemp()) / self.name
        todo = [c for kind, stop_time in self.stop_times.items() for c in sweep_cases((kind,), self.etas, stop_time)]
        # cases already in the folder are reused only if written for the same key (FMU checksum, eta, stop
        # time, ...) and intact (run_sweep): anything else is recomputed
        table = run_sweep(todo, folder, progress=False)
        checks = []
        # lighter rollers must follow the massless model more closely: every tenfold step must reduce the mean
        # slip at the contacts (both motions) and the path difference (straight motion; spinning in place
        # the centre stays within 1e-7 m of the origin, the integration error)
        for column, kinds in (("mean slip [m/s]", ("spin", "straight")), ("path difference [m]", ("straight",))):
            for kind, ratios in trend_ratios(table, column).items():
                if kind in kinds:
                    checks.append(Check(f"{kind}: largest ratio of {column.split(' [')[0]} between tenfold lighter "
                                        "rollers", float(max(ratios)) if ratios else float("inf"), 0.9))
        checks.append(Check("cases failed", float((table["status"] != "ok").sum()), 0.0))
        errors = pd.DataFrame(columns=["signal", "max_abs", "max_rel", "tolerance", "passed"])
        result = CaseResult(self, errors, checks, {})
        result.files = [folder / "sweep.csv"] + plot_sweep(table, folder)
        return result


def convergence_slopes(table: pd.DataFrame, columns) -> pd.DataFrame:
    """Per kind and column: the slope of log10(difference) against log10(eta), a least-squares line through the
    finished cases, and the range of eta it spans."""
    rows = []
    for kind, group in table[table["status"] == "ok"].groupby("kind", sort=False):
        for column in columns:
            eta, value = group["eta"].to_numpy(float), group[column].to_numpy(float)
            ok = value > 0
            slope = float(np.polyfit(np.log10(eta[ok]), np.log10(value[ok]), 1)[0]) if ok.sum() >= 2 else float("nan")
            rows.append({"kind": kind, "quantity": column, "slope": slope, "points": int(ok.sum()),
                         "eta min": float(eta.min()), "eta max": float(eta.max())})
    return pd.DataFrame(rows)


def plot_convergence(table: pd.DataFrame, quantities: dict, out_dir: pathlib.Path,
                     title: str = "truncated rollers: convergence to massless rollers (0.3 s)") -> pathlib.Path:
    """Log-log differences to the massless-roller model against eta, one panel per motion, with a slope-1
    guide line through the heaviest rollers' value of the first quantity."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ok = table[table["status"] == "ok"]
    kinds = [k for k in quantities if k in set(ok["kind"])]
    fig, axes = plt.subplots(1, max(1, len(kinds)), figsize=(4.2 * max(1, len(kinds)), 3.8), squeeze=False)
    for ax, kind in zip(axes[0], kinds):
        group = ok[ok["kind"] == kind].sort_values("eta")
        eta = group["eta"].to_numpy(float)
        for column in quantities[kind]:
            ax.loglog(eta, group[column].to_numpy(float), "o-", label=column)
        first = group[quantities[kind][0]].to_numpy(float)
        ax.loglog(eta, first[-1] * eta / eta[-1], "k--", lw=0.8, label="slope 1")
        ax.set_xlabel("eta = roller mass / wheel mass [-]"), ax.set_title(kind)
        ax.grid(alpha=0.3, which="both"), ax.legend(fontsize=7)
    axes[0][0].set_ylabel("max difference to the massless-roller model")
    fig.suptitle(title)
    fig.tight_layout()
    out = pathlib.Path(out_dir) / "convergence.png"
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


class TruncatedConvergenceCase:
    """Verification case (issue 14, part 5): with truncated rollers the friction model converges to the
    massless-roller model in proportion to the roller mass, in three motions; the roller changes are events,
    one per junction the wheels pass (at most one echo each), at the roller the wheels' attitudes say."""

    name, model = "omni_truncated_convergence", "OmniVehicleTruncated"
    description = ("Omni-wheel vehicle on truncated rollers (16 bodies, friction, Gerasimov 2018 ch. 1-2 geometry) "
                   "against the massless-roller model of the same vehicle frozen at each eta, for eta = 1e-1/n, "
                   "1e-2/n, 1e-3/n over 0.3 s (rtol 1e-8): spinning in place, moving straight, and v0 = (0.3, 0.2) "
                   "m/s, omega0 = 0.7 rad/s. The fitted slope of log10(difference) against log10(eta) must lie "
                   "between 0.8 and 1.2 (first order in the roller mass) for the quantities the rollers move; each "
                   "roller change is one state event (at most one echo) at the roller the hub's attitude selects.")
    etas = (0.1 / N_ROLLERS, 0.01 / N_ROLLERS, 0.001 / N_ROLLERS)
    stop_time, tolerance = 0.3, 1e-8
    # what the rollers' mass moves in each motion: spinning in place the centre stays at rest by symmetry in both
    # models (path and velocity differences: integration error, 1e-12), the spin slows at each roller change
    quantities = {"spin": ["omega difference [rad/s]", "heading difference [rad]"],
                  "straight": ["path difference [m]", "velocity difference [m/s]"],
                  "generic": ["path difference [m]", "velocity difference [m/s]", "omega difference [rad/s]"]}
    slope_bounds = (0.8, 1.2)
    mecanum, plot_title = False, "truncated rollers: convergence to massless rollers (0.3 s)"

    def bench_cases(self):
        """Straight motion on truncated rollers at eta = 1e-6/n (0.3 s, rtol 1e-6) against the massless-roller
        model: the cost of the events at the roller changes (``nonholonomic bench``, issue 14 part 6)."""
        def reference(t):
            return massless_reference("straight", t, 2.5e-7, True).rename(columns={"phi": "psi"})

        def observe(raw):
            out = raw.copy()
            out["psi"] = np.unwrap(raw["psi"].to_numpy())
            return out

        return [TrajectoryCase("omni_truncated_straight_eta2.5e-07", self.model, "bench",
                               parameters={"eta": 2.5e-7, "v_0[1]": 1.0, "v_0[2]": 0.0, "omega_0": 0.0},
                               stop_time=0.3, output_interval=0.001, reference=reference, observe=observe,
                               signals=("x", "y", "psi"), fmu_tolerance=1e-6, rumoca_comparison=False)]

    def run(self, out_dir=None):
        from ..simulate import simulate
        folder = pathlib.Path(out_dir or tempfile.mkdtemp()) / self.name
        todo = sweep_cases(tuple(self.quantities), self.etas, self.stop_time, truncated=True, tolerance=self.tolerance,
                           mecanum=self.mecanum)
        table = run_sweep(todo, folder, progress=False)
        slopes = convergence_slopes(table, sorted({q for qs in self.quantities.values() for q in qs}))
        checks = [Check("cases failed", float((table["status"] != "ok").sum()), 0.0)]
        low, high = self.slope_bounds
        for kind, columns in self.quantities.items():
            for column in columns:
                row = slopes[(slopes["kind"] == kind) & (slopes["quantity"] == column)]
                slope = float(row["slope"].iloc[0]) if len(row) else float("nan")
                checks.append(Check(f"{kind}: |slope - 1| of log10 {column.split(' [')[0]} against log10 eta "
                                    f"(expected order 1: slope {low}-{high}; measured {slope:.3f})",
                                    abs(slope - 1.0) if np.isfinite(slope) else float("inf"), high - 1.0))
        # events: the heaviest rollers of each motion once more, with the hubs' attitudes
        hubs = [f"wheel[{i}].hub.Q[{k}]" for i in range(1, N_WHEELS + 1) for k in range(1, 5)]
        rollers = [f"contactRoller[{i}]" for i in range(1, N_WHEELS + 1)]
        for case in [c for c in todo if c.eta == max(self.etas)]:
            df = simulate(self.model, case.parameters, stop_time=case.stop_time, output_interval=case.output_interval,
                          tolerance=case.tolerance, outputs=rollers + hubs)
            checks += event_checks(case.kind, df)
        errors = pd.DataFrame(columns=["signal", "max_abs", "max_rel", "tolerance", "passed"])
        result = CaseResult(self, errors, checks, {})
        folder.mkdir(parents=True, exist_ok=True)
        slopes.to_csv(folder / "slopes.csv", index=False)
        result.files = [folder / "sweep.csv", folder / "slopes.csv",
                        plot_convergence(table, self.quantities, folder, self.plot_title)]
        return result


class MecanumConvergenceCase(TruncatedConvergenceCase):
    """Verification case (issue 14, part 5): the same on mecanum wheels (delta = pi/4). The contact jumps across the
    wheel at each roller change, so the limit eta -> 0 is the massless-roller model with the same friction law
    (``references.mecanum_friction``), not ideal rollers with impacts (docs/omni.md)."""

    name, model, mecanum = "mecanum_convergence", "MecanumVehicle", True
    description = ("Mecanum vehicle (rollers at 45 degrees, truncated; 16 bodies, friction) against the massless-roller "
                   "model with the same friction law frozen at each eta, for eta = 1e-1/n, 1e-2/n, 1e-3/n over 0.3 s "
                   "(rtol 1e-8), in the three motions: the fitted slope of log10(difference) against log10(eta) must lie "
                   "between 0.8 and 1.2; each roller change is one state event at the roller the hub's attitude "
                   "selects.")
    plot_title = "mecanum wheels: convergence to massless rollers with friction (0.3 s)"

    def bench_cases(self):
        return []


def event_checks(kind: str, df: pd.DataFrame, n_wheels: int = N_WHEELS, n: int = N_ROLLERS) -> list:
    """The roller changes of a run (its contactRoller columns, both rows of each event) against the hubs'
    attitudes (:func:`~nonholonomic.sweep.lowest_rollers`): away from the junctions (1e-6 rad) the roller in
    contact is the one whose sector holds the lowest point; the changes are as many as the lowest roller's, and
    the events at most two per change (the relation of the leaving and of the entering roller: one event, or
    two 1e-11 s apart); no change without an event."""
    expected, margin = lowest_rollers(df, n_wheels, n)
    actual = df[[f"contactRoller[{i}]" for i in range(1, n_wheels + 1)]].to_numpy()
    clear = margin > 1e-6
    changes = int(np.sum(np.diff(actual, axis=0) != 0))
    expected_changes = int(np.sum(np.diff(expected, axis=0) != 0))
    events = int(df.attrs["solver"]["events"])
    return [Check(f"{kind}: rows away from a junction whose roller in contact is not the lowest one",
                  float(np.sum(actual[clear] != expected[clear])), 0.0),
            Check(f"{kind}: |roller changes - junctions passed| ({changes} changes, {expected_changes} junctions)",
                  float(abs(changes - expected_changes)), 0.0),
            Check(f"{kind}: events per roller change ({events} events; at most one echo each)",
                  events / max(changes, 1), 2.0),
            Check(f"{kind}: roller changes without an event", float(max(0, changes - events)), 0.0)]


def cases() -> list:
    return [MasslessLimitCase(), TruncatedConvergenceCase(), MecanumConvergenceCase()]
