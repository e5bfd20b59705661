"""Verification cases: FMU runs against independent reference models, with stated tolerances.

A case runs one or more FMU simulations and compares them with a reference. Its result is a table of
signal errors (max absolute error, and that error relative to the signal's largest magnitude) and a list
of checks (energy drift, constraint residuals, the reference's own integrals, steady-motion relations,
trends), each a measured value against a stated bound. :class:`TrajectoryCase` is the common kind: one
FMU run against one reference solution on the same time grid. This module imports no case: the
cases of each system live in :mod:`nonholonomic.cases`, the report in :mod:`.report`.
"""

from __future__ import annotations

import dataclasses
import pathlib
import re
from typing import Callable

import numpy as np
import pandas as pd

from ..errors import NonholonomicError
from ..paths import staged_folder
from ..fmu import fmu_path, model_description
from ..simulate import simulate


@dataclasses.dataclass
class Check:
    name: str
    value: float
    bound: float

    @property
    def passed(self) -> bool:
        return bool(self.value <= self.bound)


@dataclasses.dataclass
class CaseResult:
    case: "Case"
    errors: pd.DataFrame              # per signal: max_abs, max_rel, tolerance, passed
    checks: list[Check]
    frames: dict                      # name -> DataFrame written as <name>.csv (fmu, reference, ...)
    files: list = dataclasses.field(default_factory=list)
    error: str | None = None          # why the case could not run (a crashed, corrupt or missing FMU, ...)
    seconds: float | None = None      # its wall time in ``verify`` (set there)

    @property
    def passed(self) -> bool:
        return self.error is None and bool(self.errors["passed"].all()) and all(c.passed for c in self.checks)

    @classmethod
    def failed(cls, case: "Case", error: str) -> "CaseResult":
        """A case that could not run: no signals, no checks, the reason."""
        return cls(case, no_signals(), [], {}, error=error)


@dataclasses.dataclass
class Case:
    name: str
    model: str
    description: str
    units = {}  # signal -> unit of signals that are not FMU variables (after ``observe``); see signal_units

    def execute(self) -> CaseResult:
        raise NotImplementedError

    def plot(self, result: CaseResult, out_dir: pathlib.Path) -> list[pathlib.Path]:
        return []

    def signal_units(self, signals) -> dict:
        """The unit of each signal: the case's own statement (``units``), else the unit of the FMU variable of
        that name in its modelDescription.xml; a signal without either is an error of the case."""
        units = {**fmu_units(self.model), **self.units}
        missing = [s for s in signals if not units.get(s)]
        if missing:
            raise ValueError(f"case {self.name}: no unit for {', '.join(missing)} (state it in the case's units)")
        return {s: units[s] for s in signals}

    def bench_cases(self) -> list["TrajectoryCase"]:
        """Single FMU runs against their references that stand for this case in the benchmark."""
        return []

    def run(self, out_dir: pathlib.Path | None = None) -> CaseResult:
        """Execute the case; with ``out_dir``, its files (runs, errors, checks, plots) go to ``out_dir/<name>``,
        written into a temporary folder that takes that place only when all are written (a failure or a kill
        leaves the folder of the last complete run, never a mix)."""
        if out_dir is None:
            return self.execute()
        final = pathlib.Path(out_dir) / self.name
        with staged_folder(final) as case_dir:
            result = self.execute()
            for name, frame in result.frames.items():
                frame.to_csv(case_dir / f"{name}.csv", index=False)
                result.files.append(case_dir / f"{name}.csv")
            result.errors.to_csv(case_dir / "errors.csv", index=False)
            pd.DataFrame([dataclasses.asdict(c) | {"passed": c.passed} for c in result.checks]).to_csv(
                case_dir / "checks.csv", index=False)
            result.files += [case_dir / "errors.csv", case_dir / "checks.csv"]
            result.files += self.plot(result, case_dir)
        result.files = [final / pathlib.Path(f).relative_to(case_dir) for f in result.files]
        return result


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def unit_text(unit: str) -> str:
    """An FMI unit string for people: "kg.m2/s" -> "kg·m²/s", "1" (dimensionless) -> "-"."""
    if unit == "1":
        return "-"
    return re.sub(r"(?<=[A-Za-z])-?\d+", lambda m: m.group().translate(_SUPERSCRIPT), unit.replace(".", "·"))


def fmu_units(model: str) -> dict:
    """Unit of every variable of the model's FMU that declares one ({} if the FMU is not built)."""
    try:
        description = model_description(fmu_path(model))
    except NonholonomicError:
        return {}
    units = {v.name: v.unit or getattr(v.declaredType, "unit", None) for v in description.modelVariables}
    return {name: unit for name, unit in units.items() if unit}


DRIFT_FORMULA = "|I(t) - I(0)| / max |I|"


def integral_drift(values) -> np.ndarray:
    """Drift of a first integral against time, |I(t) - I(0)| / max_t |I(t)|: ``values`` (k,) for a scalar,
    (k, n) for a vector fixed in space (Euclidean norm). The largest magnitude, not |I(0)|, is the scale so
    that an integral starting at or near zero (a component of a vector, (M, gamma)) is not divided by ~0.
    The checks (``relative_drift``) and the plots (``plots.integrals``) both use this function."""
    values = np.asarray(values, dtype=float)
    change = np.abs(values - values[0]) if values.ndim == 1 else np.linalg.norm(values - values[0], axis=1)
    size = np.abs(values) if values.ndim == 1 else np.linalg.norm(values, axis=1)
    scale = np.max(size)
    return change / scale if scale > 0 else change


def relative_drift(values) -> float:
    """Largest :func:`integral_drift` over the run."""
    return float(np.max(integral_drift(values)))


def compare(fmu: pd.DataFrame, ref: pd.DataFrame, signals, tolerance: float) -> pd.DataFrame:
    """Max absolute and relative (to the reference's largest magnitude) error of each signal."""
    rows = []
    for s in signals:
        err = np.abs(fmu[s].to_numpy() - ref[s].to_numpy())
        scale = np.max(np.abs(ref[s].to_numpy()))
        max_abs = float(np.max(err))
        max_rel = max_abs / scale if scale > 0 else max_abs
        rows.append({"signal": s, "max_abs": max_abs, "max_rel": max_rel, "tolerance": tolerance,
                     "passed": max_rel <= tolerance})
    return pd.DataFrame(rows, columns=["signal", "max_abs", "max_rel", "tolerance", "passed"])


def no_signals() -> pd.DataFrame:
    """The error table of a case that compares no signals (its checks say everything)."""
    return pd.DataFrame(columns=["signal", "max_abs", "max_rel", "tolerance", "passed"])


@dataclasses.dataclass
class TrajectoryCase(Case):
    """One FMU run against one reference solution; ``observe`` maps FMU outputs to reference signals."""
    parameters: dict = dataclasses.field(default_factory=dict)
    stop_time: float = 1.0
    output_interval: float = 0.01
    reference: Callable[[np.ndarray], pd.DataFrame] | None = None  # time grid -> signals + "energy"
    observe: Callable[[pd.DataFrame], pd.DataFrame] | None = None   # FMU outputs -> the same signals
    signals: tuple[str, ...] = ()
    tolerance: float = 1e-5           # max |FMU - reference| / max |reference|, per signal
    energy_tolerance: float = 1e-7    # max |E(t) - E(0)| / |E(0)| of the FMU run
    residual_tolerances: dict = dataclasses.field(default_factory=dict)  # FMU output -> bound on max |.|
    reference_integrals: dict = dataclasses.field(default_factory=lambda: {"energy": 1e-9})  # ref column -> drift
    fmu_tolerance: float = 1e-12      # relative tolerance of the FMU's integrator
    extra_checks: Callable[[pd.DataFrame, pd.DataFrame], list[Check]] | None = None
    plots: Callable | None = None     # (case, fmu, ref, out_dir) -> list of written files
    units: dict = dataclasses.field(default_factory=dict)  # signal -> unit (see Case.signal_units)
    rumoca_comparison: bool = True    # the benchmark also runs rumoca's own solver (False: too slow for the model)

    def execute(self) -> CaseResult:
        raw = simulate(self.model, self.parameters, stop_time=self.stop_time, output_interval=self.output_interval,
                       tolerance=self.fmu_tolerance)
        fmu = self.observe(raw) if self.observe else raw
        ref = self.reference(raw["time"].to_numpy())
        errors = compare(fmu, ref, self.signals, self.tolerance)
        checks = [Check("FMU energy drift (relative)", relative_drift(raw["energy"]), self.energy_tolerance)]
        checks += [Check(f"FMU max |{k}|", float(np.max(np.abs(raw[k].to_numpy()))), bound)
                   for k, bound in self.residual_tolerances.items()]
        checks += [Check(f"reference {k} drift (relative)", relative_drift(ref[k]), bound)
                   for k, bound in self.reference_integrals.items()]
        if self.extra_checks:
            checks += self.extra_checks(fmu, ref)
        return CaseResult(self, errors, checks, {"fmu": fmu, "reference": ref})

    def bench_cases(self) -> list["TrajectoryCase"]:
        return [self]

    def plot(self, result: CaseResult, out_dir: pathlib.Path) -> list[pathlib.Path]:
        if self.plots is None:
            return []
        return self.plots(self, result.frames["fmu"], result.frames["reference"], out_dir)
