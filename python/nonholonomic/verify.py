"""Verification: FMU runs against independent reference models, with stated tolerances.

A :class:`Case` names an example model, its parameters and time span, a reference solution on the same
time grid, and tolerances. :func:`run_case` simulates the FMU, compares every signal (max absolute
error, and that error relative to the signal's largest magnitude), checks the FMU's energy drift and
constraint residuals and the reference's own integral, and passes or fails against the tolerances.
:func:`verify` runs cases, writes per-case CSV files and plots, a summary table (CSV) and an HTML report.
"""

from __future__ import annotations

import dataclasses
import html
import pathlib
from typing import Callable

import numpy as np
import pandas as pd

from .errors import NonholonomicError
from .simulate import simulate


@dataclasses.dataclass
class Case:
    name: str
    model: str
    description: str
    parameters: dict
    stop_time: float
    output_interval: float
    reference: Callable[[np.ndarray], pd.DataFrame]  # time grid -> reference signals (+ "energy")
    signals: tuple[str, ...]
    tolerance: float                  # max |FMU - reference| / max |reference|, per signal
    energy_tolerance: float           # max |E(t) - E(0)| / |E(0)| of the FMU run
    residual_tolerances: dict         # FMU output -> bound on its max magnitude (constraint drift)
    reference_energy_tolerance: float = 1e-9  # the reference's own energy integral
    fmu_tolerance: float = 1e-10      # relative tolerance of the FMU's integrator
    angles: tuple[str, ...] = ()      # signals compared after unwrapping (atan2 outputs of the FMU)
    plots: Callable | None = None     # (case, fmu, ref, out_dir) -> list of written files


@dataclasses.dataclass
class CaseResult:
    case: Case
    fmu: pd.DataFrame
    reference: pd.DataFrame
    errors: pd.DataFrame              # per signal: max_abs, max_rel, tolerance, passed
    energy_drift: float
    reference_energy_drift: float
    residuals: dict
    files: list = dataclasses.field(default_factory=list)

    @property
    def passed(self) -> bool:
        c = self.case
        return (bool(self.errors["passed"].all()) and self.energy_drift <= c.energy_tolerance
                and self.reference_energy_drift <= c.reference_energy_tolerance
                and all(self.residuals[k] <= v for k, v in c.residual_tolerances.items()))


def relative_drift(energy) -> float:
    energy = np.asarray(energy, dtype=float)
    return float(np.max(np.abs(energy - energy[0])) / abs(energy[0]))


def compare(fmu: pd.DataFrame, ref: pd.DataFrame, signals, tolerance: float) -> pd.DataFrame:
    rows = []
    for s in signals:
        err = np.abs(fmu[s].to_numpy() - ref[s].to_numpy())
        scale = np.max(np.abs(ref[s].to_numpy()))
        max_abs = float(np.max(err))
        max_rel = max_abs / scale if scale > 0 else max_abs
        rows.append({"signal": s, "max_abs": max_abs, "max_rel": max_rel, "tolerance": tolerance,
                     "passed": max_rel <= tolerance})
    return pd.DataFrame(rows)


def run_case(case: Case, out_dir: pathlib.Path | None = None) -> CaseResult:
    fmu = simulate(case.model, case.parameters, stop_time=case.stop_time, output_interval=case.output_interval,
                   tolerance=case.fmu_tolerance)
    for a in case.angles:
        fmu[a] = np.unwrap(fmu[a].to_numpy())
    ref = case.reference(fmu["time"].to_numpy())
    errors = compare(fmu, ref, case.signals, case.tolerance)
    residuals = {k: float(np.max(np.abs(fmu[k].to_numpy()))) for k in case.residual_tolerances}
    result = CaseResult(case, fmu, ref, errors, relative_drift(fmu["energy"]), relative_drift(ref["energy"]),
                        residuals)
    if out_dir is not None:
        case_dir = pathlib.Path(out_dir) / case.name
        case_dir.mkdir(parents=True, exist_ok=True)
        fmu.to_csv(case_dir / "fmu.csv", index=False)
        ref.to_csv(case_dir / "reference.csv", index=False)
        errors.to_csv(case_dir / "errors.csv", index=False)
        result.files = [case_dir / "fmu.csv", case_dir / "reference.csv", case_dir / "errors.csv"]
        if case.plots is not None:
            result.files += case.plots(case, fmu, ref, case_dir)
    return result


def all_cases() -> dict[str, Case]:
    from .cases_ball import ball_cases
    return {c.name: c for c in ball_cases()}


def select_cases(names=None) -> list[Case]:
    cases = all_cases()
    if not names:
        return list(cases.values())
    unknown = [n for n in names if n not in cases]
    if unknown:
        raise NonholonomicError(f"unknown verification case '{unknown[0]}' (known: {', '.join(cases)})")
    return [cases[n] for n in names]


def summary_row(r: CaseResult) -> dict:
    row = {"case": r.case.name, "model": r.case.model, "passed": r.passed}
    for _, e in r.errors.iterrows():
        row[f"{e['signal']} rel"] = e["max_rel"]
    row["tolerance"] = r.case.tolerance
    row["energy drift"] = r.energy_drift
    row["energy tol"] = r.case.energy_tolerance
    for k, v in r.residuals.items():
        row[f"max |{k}|"] = v
    row["ref energy drift"] = r.reference_energy_drift
    return row


def format_table(results: list[CaseResult]) -> str:
    lines = []
    for r in results:
        errs = "  ".join(f"{e['signal']} {e['max_rel']:.1e}" for _, e in r.errors.iterrows())
        res = "  ".join(f"{k} {v:.1e}" for k, v in r.residuals.items())
        lines.append(f"{'PASS' if r.passed else 'FAIL'}  {r.case.name:<24} rel.err: {errs}  (tol {r.case.tolerance:.0e})"
                     f"  energy drift {r.energy_drift:.1e} (tol {r.case.energy_tolerance:.0e})  max {res}"
                     f"  ref energy drift {r.reference_energy_drift:.1e}")
    return "\n".join(lines)


def write_report(results: list[CaseResult], out_dir: pathlib.Path) -> pathlib.Path:
    out_dir = pathlib.Path(out_dir)
    table = pd.DataFrame([summary_row(r) for r in results])
    table.to_csv(out_dir / "verification.csv", index=False)
    parts = ["<html><head><meta charset='utf-8'><title>Nonholonomic verification</title>",
             "<style>body{font-family:sans-serif;margin:2em} td,th{padding:2px 8px} img{max-width:48%}</style>",
             "</head><body><h1>Verification: FMU against reference models</h1>",
             table.to_html(index=False, float_format=lambda x: f"{x:.2e}")]
    for r in results:
        parts.append(f"<h2>{html.escape(r.case.name)}: {'passed' if r.passed else 'FAILED'}</h2>"
                     f"<p>{html.escape(r.case.description)}</p>")
        parts.append(r.errors.to_html(index=False, float_format=lambda x: f"{x:.2e}"))
        for f in r.files:
            if f.suffix == ".png":
                parts.append(f"<img src='{f.relative_to(out_dir).as_posix()}'>")
    parts.append("</body></html>")
    path = out_dir / "verification.html"
    path.write_text("\n".join(parts))
    return path


def verify(names=None, out_dir: pathlib.Path | str = "results", progress=None) -> list[CaseResult]:
    """Run verification cases (all by default); write results, plots and a report to ``out_dir``."""
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    results = []
    for case in select_cases(names):
        if progress:
            progress(case.name)
        results.append(run_case(case, out_dir))
    write_report(results, out_dir)
    return results
