"""``verify``: run verification cases (:mod:`nonholonomic.cases`) and write their results and the report."""

from __future__ import annotations

import pathlib

from . import isolation
from .cases import select_cases
from .errors import Interrupted, NonholonomicError
from .simulate import names_argument
from .verification import CaseResult, write_report


def verify(names=None, out_dir: pathlib.Path | str = "results", progress=None) -> list[CaseResult]:
    """Run verification cases (all by default; a system's name selects its cases; one name or a list); write
    results, plots and a report to ``out_dir``. Each case runs in a child process (:mod:`.isolation`): a case
    whose FMU crashes, is corrupt or missing is recorded as failed with its reason, and the others run."""
    out_dir = pathlib.Path(out_dir)
    selected = select_cases(names_argument("cases", names))
    out_dir.mkdir(parents=True, exist_ok=True)
    from . import plots  # noqa: F401  imported once here (matplotlib), not again in every case's process
    import scipy.integrate  # noqa: F401  (the references' integrators)
    results = []
    try:
        for case in selected:
            if progress:
                progress(case.name)
            try:
                results.append(_isolated(case, out_dir))
            except NonholonomicError as e:  # its FMU crashed, is damaged or missing, its run failed: it failed
                results.append(CaseResult.failed(case, str(e)))
            except Exception as e:  # a bug in the case: recorded as its failure too, so the other cases still run
                last = str(e).strip().splitlines()[-1] if str(e).strip() else type(e).__name__
                results.append(CaseResult.failed(case, f"internal error (please report it): {last}"))
    except KeyboardInterrupt:  # Ctrl-C, SIGTERM: the report of the cases finished, then stop
        write_report(results, out_dir)
        raise Interrupted(f"interrupted in {case.name}; {len(results)} of {len(selected)} cases finished, "
                          f"report: {out_dir / 'verification.html'}") from None
    write_report(results, out_dir)
    return results


def _isolated(case, out_dir: pathlib.Path) -> CaseResult:
    """``case.run(out_dir)`` in a child process; its result comes back without the case (which holds functions)."""
    def child():
        result = case.run(out_dir)
        return result.errors, result.checks, result.frames, result.files
    errors, checks, frames, files = isolation.call(child)
    return CaseResult(case, errors, checks, frames, files)
