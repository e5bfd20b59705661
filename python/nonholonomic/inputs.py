"""Input signals of an FMU run: a table of times and values, linear in between, held beyond its ends.

The same rule is applied everywhere an FMU's inputs are needed: in the binary's CVODE callbacks (the
rumoca backend's FMUs, ``backends/solver_entry.c``), by fmpy's ``Input`` for other FMUs, and
by :meth:`InputTable.at` for the output rows.
"""

from __future__ import annotations

import dataclasses
import difflib
import math

import numpy as np
import pandas as pd

from .errors import NonholonomicError


@dataclasses.dataclass
class InputTable:
    names: list[str]     # the FMU's continuous inputs, in the order of its model description
    times: np.ndarray    # (n,), strictly increasing; n >= 1
    values: np.ndarray   # (n, len(names)), C order

    def at(self, t) -> np.ndarray:
        """The inputs at the times ``t``: rows of shape (len(t), len(names))."""
        t = np.atleast_1d(np.asarray(t, dtype=float))
        return np.stack([np.interp(t, self.times, self.values[:, k]) for k in range(len(self.names))], axis=1) \
            if self.names else np.zeros((t.size, 0))

    def structured(self) -> np.ndarray | None:
        """fmpy's form of the table (a structured array with a ``time`` field), None without inputs."""
        if not self.names:
            return None
        rows = np.zeros(len(self.times), dtype=[("time", float)] + [(n, float) for n in self.names])
        rows["time"] = self.times
        for k, n in enumerate(self.names):
            rows[n] = self.values[:, k]
        return rows


def input_table(md, inputs) -> InputTable:
    """The checked input table of an FMU (model description ``md``) from ``inputs``: None (every input at
    its start value), a dict of input name -> constant value, or a DataFrame with a ``time`` column and a
    column per input (inputs not given stay at their start values)."""
    variables = [v for v in md.modelVariables if v.causality == "input"]
    names = [v.name for v in variables]
    start = np.array([float(v.start) if v.start is not None else 0.0 for v in variables])
    if inputs is None:
        return InputTable(names, np.zeros(1), start[None, :].copy())
    if isinstance(inputs, pd.DataFrame):
        if "time" not in inputs.columns:
            raise NonholonomicError("input table: no 'time' column")
        columns = {c: inputs[c] for c in inputs.columns if c != "time"}
        times = _numbers("input table: time", inputs["time"])
        if times.size == 0:
            raise NonholonomicError("input table: no rows")
        if np.any(np.diff(times) <= 0):
            raise NonholonomicError("input table: the times must increase strictly")
    elif isinstance(inputs, dict):
        columns, times = {k: [v] for k, v in inputs.items()}, np.zeros(1)
    else:
        raise NonholonomicError(f"inputs must be a dict of constants or a DataFrame with a time column, "
                                f"got {type(inputs).__name__}")
    values = np.repeat(start[None, :], times.size, axis=0)
    for name, column in columns.items():
        if name not in names:
            hint = difflib.get_close_matches(str(name), names, n=3)
            raise NonholonomicError(f"unknown input '{name}' of {md.modelName}"
                                    + (f" (did you mean: {', '.join(hint)}?)" if hint else
                                       f" (its inputs: {', '.join(names)})" if names else " (it has no inputs)"))
        values[:, names.index(name)] = _numbers(f"input {name}", column)
    return InputTable(names, times, np.ascontiguousarray(values))


def _numbers(what: str, column) -> np.ndarray:
    try:
        values = np.asarray([float(v) for v in (column if not np.isscalar(column) else [column])])
    except (TypeError, ValueError):
        raise NonholonomicError(f"{what}: not a number") from None
    if not all(math.isfinite(v) for v in values):
        raise NonholonomicError(f"{what}: not a finite number")
    return values
