"""``verify``: run verification cases (:mod:`nonholonomic.cases`) and write their results and the report."""

from __future__ import annotations

import pathlib

from .cases import select_cases
from .verification import CaseResult, write_report


def verify(names=None, out_dir: pathlib.Path | str = "results", progress=None) -> list[CaseResult]:
    """Run verification cases (all by default; a system's name selects its cases); write results, plots and
    a report to ``out_dir``."""
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    results = []
    for case in select_cases(names):
        if progress:
            progress(case.name)
        results.append(case.run(out_dir))
    write_report(results, out_dir)
    return results
