"""The verification report: a text table for the terminal, a summary CSV and an HTML page."""

from __future__ import annotations

import dataclasses
import html
import pathlib

import pandas as pd

from .case import CaseResult


def summary_row(r: CaseResult) -> dict:
    row = {"case": r.case.name, "model": r.case.model, "passed": r.passed}
    worst = r.errors.sort_values("max_rel").iloc[-1] if len(r.errors) else None
    row["worst signal"] = worst["signal"] if worst is not None else ""
    row["worst rel. error"] = worst["max_rel"] if worst is not None else float("nan")
    row["tolerance"] = worst["tolerance"] if worst is not None else float("nan")
    row["checks"] = "; ".join(f"{c.name} {c.value:.2e} (<= {c.bound:.0e})" for c in r.checks)
    return row


def format_table(results: list[CaseResult]) -> str:
    lines = []
    for r in results:
        lines.append(f"{'PASS' if r.passed else 'FAIL'}  {r.case.name}")
        if len(r.errors):
            errs = "  ".join(f"{e.signal} {e.max_rel:.1e}" for e in r.errors.itertuples())
            lines.append(f"      rel. error: {errs}  (tolerance {r.errors['tolerance'].iloc[0]:.0e})")
        for c in r.checks:
            lines.append(f"      {'ok  ' if c.passed else 'FAIL'} {c.name}: {c.value:.2e} (bound {c.bound:.0e})")
    return "\n".join(lines)


def write_report(results: list[CaseResult], out_dir: pathlib.Path) -> pathlib.Path:
    out_dir = pathlib.Path(out_dir)
    table = pd.DataFrame([summary_row(r) for r in results])
    table.to_csv(out_dir / "verification.csv", index=False)
    fmt = lambda x: f"{x:.2e}"
    parts = ["<html><head><meta charset='utf-8'><title>Nonholonomic verification</title>",
             "<style>body{font-family:sans-serif;margin:2em} td,th{padding:2px 8px} img{max-width:48%}</style>",
             "</head><body><h1>Verification: FMU against reference models</h1>",
             table.to_html(index=False, float_format=fmt)]
    for r in results:
        parts.append(f"<h2>{html.escape(r.case.name)}: {'passed' if r.passed else 'FAILED'}</h2>"
                     f"<p>{html.escape(r.case.description)}</p>")
        parts.append(r.errors.to_html(index=False, float_format=fmt))
        checks = pd.DataFrame([dataclasses.asdict(c) | {"passed": c.passed} for c in r.checks])
        parts.append(checks.to_html(index=False, float_format=fmt))
        for f in r.files:
            if f.suffix == ".png":
                parts.append(f"<img src='{f.relative_to(out_dir).as_posix()}'>")
    parts.append("</body></html>")
    path = out_dir / "verification.html"
    path.write_text("\n".join(parts))
    return path
