"""The verification machinery: cases, checks, comparison with a reference, and the report.

It imports no case; the cases of each system are in :mod:`nonholonomic.cases` (one module per system,
named like the system's reference model in :mod:`nonholonomic.references`).
"""

from .case import Case, CaseResult, Check, TrajectoryCase, compare, integral_drift, no_signals, relative_drift
from .report import format_table, summary_row, write_report

__all__ = ["Case", "CaseResult", "Check", "TrajectoryCase", "compare", "integral_drift", "no_signals", "relative_drift",
           "format_table", "summary_row", "write_report"]
