"""Machine-independent bounds for the tests' assertions (issue 9).

A bound on one arithmetic step (a formula evaluated once, a conversion round trip) is a number of
ulps of the magnitude involved, never a bare 1e-15: the last bits depend on the machine, on which
SIMD kernel numpy picks for sin/cos/exp and on the order in which the BLAS sums a product. A bound on
anything integrated, iterated or summed over many steps is derived in the test from the solver
tolerance or from a round-off growth estimate (``roundoff`` times the number of steps or times the
condition number), with the reason next to it.
"""

import numpy as np

EPS = np.finfo(float).eps  # 2.2e-16: one ulp at 1.0


def roundoff(scale=1.0, ulps=64):
    """``ulps`` units in the last place of ``scale``: the round-off of one short chain of arithmetic
    on operands of magnitude ``scale`` (64 ulps leave room for a few dozen roundings, each at most
    half an ulp, and for the 1-4 ulp error of the library's sin/cos/sqrt)."""
    return ulps * EPS * scale


def residual_bound(matrix, scale=1.0, ulps=64):
    """Forward error of a linear solve in double precision: condition number times ``roundoff``."""
    return np.linalg.cond(matrix) * roundoff(scale, ulps)
