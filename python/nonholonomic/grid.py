"""The output grid of every simulation, in one place for the fmpy path (:mod:`.simulate`) and the own CVODE
loop (:mod:`.cvode`)."""

from __future__ import annotations

import math

import numpy as np

from .errors import NonholonomicError

MAX_ROWS = 10**7  # a result beyond this (gigabytes) is a mistyped output interval, said before the run


def output_grid(stop_time: float, output_interval: float) -> np.ndarray:
    """The output times of every run: 0, dt, 2 dt, ... below the stop time, and the stop time itself (so
    the last row is always the stop time and no row is dropped; a multiple of dt within round-off of the
    stop time, as 5 * 0.1 of 0.5, is the stop time). fmpy's loop (simulateME/CS) makes the same grid."""
    n = int(math.floor(stop_time / output_interval)) + 1
    if n > MAX_ROWS:
        raise NonholonomicError(f"output interval {output_interval:g} s gives {n} rows up to {stop_time:g} s "
                                f"(at most {MAX_ROWS}): choose a longer interval")
    times = np.arange(n) * output_interval  # multiples, not sums: no accumulated round-off
    times = times[(times < stop_time) & ~np.isclose(times, stop_time, rtol=1e-9, atol=0.0)]
    return np.append(times, stop_time)
