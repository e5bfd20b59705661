"""The output grid of every simulation, in one place for the fmpy path (:mod:`.simulate`) and the own CVODE
loop (:mod:`.cvode`)."""

from __future__ import annotations

import math

import numpy as np

from .errors import NonholonomicError

MAX_ROWS = 10**7  # a result beyond this (gigabytes) is a mistyped output interval, said before the run


def rows(stop_time: float, output_interval: float) -> int:
    """The number of output rows up to ``stop_time`` (finite, positive) at ``output_interval``."""
    return int(math.floor(stop_time / output_interval)) + 1


def _count(n: int) -> str:
    """A row count as a person reads it: exact up to a trillion, in powers of ten beyond (1e300 s / 0.01 s)."""
    return str(n) if n < 10**12 else f"{float(n):.3g}"


def check_rows(what: str, stop_time: float, output_interval: float) -> None:
    """A time span asked for (``what``: the option that gave it) said to be impossible before any work: it must be
    a finite positive number whose output grid at ``output_interval`` fits MAX_ROWS (a mistyped 1e9 would
    otherwise allocate gigabytes, or run for years)."""
    if not (stop_time > 0 and math.isfinite(stop_time)):
        raise NonholonomicError(f"{what} must be a positive number, got {stop_time:g}")
    n = rows(stop_time, output_interval)
    if n > MAX_ROWS:
        raise NonholonomicError(f"{what} {stop_time:g} s gives {_count(n)} rows at the output interval "
                                f"{output_interval:g} s (at most {MAX_ROWS}): choose a shorter time")


def output_grid(stop_time: float, output_interval: float) -> np.ndarray:
    """The output times of every run: 0, dt, 2 dt, ... below the stop time, and the stop time itself (so
    the last row is always the stop time and no row is dropped; a multiple of dt within round-off of the
    stop time, as 5 * 0.1 of 0.5, is the stop time). fmpy's loop (simulateME/CS) makes the same grid."""
    n = rows(stop_time, output_interval)
    if n > MAX_ROWS:
        raise NonholonomicError(f"output interval {output_interval:g} s gives {_count(n)} rows up to "
                                f"{stop_time:g} s (at most {MAX_ROWS}): choose a longer interval")
    times = np.arange(n) * output_interval  # multiples, not sums: no accumulated round-off
    times = times[(times < stop_time) & ~np.isclose(times, stop_time, rtol=1e-9, atol=0.0)]
    return np.append(times, stop_time)
