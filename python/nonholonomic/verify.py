"""``verify``: run verification cases (:mod:`nonholonomic.cases`) and write their results and the report."""

from __future__ import annotations

import pathlib

from .cases import select_cases
from .errors import Interrupted
from .verification import CaseResult, write_report


def verify(names=None, out_dir: pathlib.Path | str = "results", progress=None) -> list[CaseResult]:
    """Run verification cases (all by default; a system's name selects its cases); write results, plots and
    a report to ``out_dir``."""
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    results = []
    selected = select_cases(names)
    for case in selected:
        if progress:
            progress(case.name)
        try:
            results.append(case.run(out_dir))
        except KeyboardInterrupt:  # Ctrl-C: the report of the cases finished, then stop
            write_report(results, out_dir)
            raise Interrupted(f"interrupted in {case.name}; {len(results)} of {len(selected)} cases finished, "
                              f"report: {out_dir / 'verification.html'}") from None
    write_report(results, out_dir)
    return results
