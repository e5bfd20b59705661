"""Verification case of the omni-wheel vehicle (Gerasimov 2018, ch. 3): Modelica examples
``Examples.OmniVehicleSpin`` and ``Examples.OmniVehicleStraight``, references
``nonholonomic.references.omni_massless`` (massless rollers) and ``nonholonomic.references.omni_massive``
(massive rollers with impacts, ``nonholonomic chapter2``); the full sweep over the roller mass is
``nonholonomic sweep`` (:mod:`nonholonomic.sweep`).
"""

from __future__ import annotations

import pathlib
import tempfile

import numpy as np
import pandas as pd

from ..sweep import N_ROLLERS, cases as sweep_cases, massless_reference, plot_sweep, run_sweep, trend_ratios
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


def cases() -> list:
    return [MasslessLimitCase()]
