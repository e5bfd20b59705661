"""The generated sparse LU of linear blocks (backends/sparse_lu.py) against numpy's dense solve.

Bounds: a solve in double precision is exact up to its backward error; the forward error is then at most
cond(A) times a few hundred ulps of the solution's size (``residual_bound``, 1024 ulps: the elimination
with multipliers up to 1/TAU_RUN = 100 grows round-off by at most that factor per step, and the
matrices here have a handful of eliminations per column).
"""

import casadi as ca
import numpy as np
from nonholonomic.backends.sparse_lu import TAU_RUN, StaticLU, pivot_sequence, qr_solve
from bounds import residual_bound


def _sparse_matrix(n, density, rng):
    """A random sparse n x n matrix with a dominant diagonal (nonsingular) and its CasADi sparsity."""
    A = (rng.random((n, n)) < density) * rng.standard_normal((n, n)) + np.diag(3.0 + rng.random(n))
    return A, ca.sparsify(ca.DM(A)).sparsity()


def _solver(sparsity, pivots, columns=1):
    A = ca.MX.sym("A", sparsity)
    B = ca.MX.sym("B", sparsity.size1(), columns)
    return ca.Function("solve", [A, B], [StaticLU(sparsity, pivots).solve(A, B)])


def _values(A, sparsity):
    """The nonzeros of A in the order of ``sparsity`` (a matrix of that pattern)."""
    rows, cols = sparsity.get_triplet()
    return ca.DM(sparsity, A[rows, cols])


def test_solution_and_several_columns_agree_with_numpy():
    rng = np.random.default_rng(3)
    A, sp = _sparse_matrix(120, 0.03, rng)
    samples = np.stack([A * (1 + 0.2 * rng.standard_normal(A.shape)) for _ in range(5)])
    pivots = pivot_sequence(A != 0, samples)[:100]  # the last 20 rows and columns left as a core for QR
    b = rng.standard_normal((120, 3))
    x = _solver(sp, pivots, 3)(_values(A, sp), b).full()
    assert np.abs(x - np.linalg.solve(A, b)).max() < residual_bound(A, np.abs(x).max(), 1024)
    x1 = _solver(sp, pivots)(_values(A, sp), b[:, 0]).full().ravel()
    assert np.abs(x1 - x[:, 0]).max() < residual_bound(A, np.abs(x).max(), 1024)


def test_an_entry_that_vanishes_on_a_sample_is_no_pivot():
    """An entry that is zero at one sample (a contact that is open) is never a static pivot; the solution
    is right with either value of that entry."""
    rng = np.random.default_rng(5)
    A, sp = _sparse_matrix(40, 0.08, rng)
    open_contact = A.copy()
    open_contact[7, 7] = 0.0
    pivots = pivot_sequence(A != 0, np.stack([A, open_contact]))
    assert (7, 7) not in pivots
    solve = _solver(sp, pivots)
    b = rng.standard_normal(40)
    for M in (A, open_contact):
        x = solve(_values(M, sp), b).full().ravel()
        assert np.abs(x - np.linalg.solve(M, b)).max() < residual_bound(M, np.abs(x).max(), 1024)


def test_a_pivot_that_fails_at_run_time_falls_back_to_qr():
    """Pivots chosen where a diagonal entry is large; at run time it is 1e-9: multipliers of 1e9 fail the
    threshold test, and the solve is QR's (exact to round-off, where the static LU would lose 9 digits)."""
    rng = np.random.default_rng(11)
    A, sp = _sparse_matrix(30, 0.15, rng)
    pivots = pivot_sequence(A != 0, A[None])
    first_row, first_col = pivots[0]
    column = A[:, first_col]
    assert np.count_nonzero(column) > 1  # the pivot has entries below it to eliminate
    small = A.copy()
    small[first_row, first_col] = 1e-9
    b = rng.standard_normal(30)
    x = _solver(sp, pivots)(_values(small, sp), b).full().ravel()
    assert np.abs(x - np.linalg.solve(small, b)).max() < residual_bound(small, np.abs(x).max(), 1024)
    F, _ = StaticLU(sp, pivots).factor(_values(small, sp))
    assert np.abs(F.full()).max() > 1 / TAU_RUN  # the static factors would fail the run-time test



def _qr(sparsity):
    A, B = ca.MX.sym("A", sparsity), ca.MX.sym("B", sparsity.size1())
    return ca.Function("qr", [A, B], [qr_solve(A, B)]), ca.Function("plain", [A, B], [ca.solve(A, B, "qr")])


def test_qr_with_scaled_columns_is_the_plain_qr_bit_for_bit():
    """Columns divided by powers of two: every operation of the Householder QR scales exactly."""
    rng = np.random.default_rng(7)
    A, sp = _sparse_matrix(40, 0.1, rng)
    b = rng.standard_normal(40)
    scaled, plain = _qr(sp)
    assert np.array_equal(scaled(_values(A, sp), b).full(), plain(_values(A, sp), b).full())


def test_qr_survives_tiny_and_huge_entries():
    """Columns of 1e-160 and 1e160 (their sums of squares under- and overflow), and entries of 1e-155 below a
    diagonal of order 1 (the sleigh's decayed out-of-plane motion: a subnormal sum of squares, a reflector of
    1/0 in CasADi's unscaled Householder step): the solution is numpy's, to the round-off of a solve of the
    column-scaled matrix (its condition number; column scaling does not change the solution)."""
    rng = np.random.default_rng(9)
    A, sp = _sparse_matrix(30, 0.2, rng)
    b = rng.standard_normal(30)
    scaled, _ = _qr(sp)
    tiny_below = A.copy()
    below = np.arange(30) > 0
    tiny_below[below, 0] = np.where(A[below, 0] != 0, 1e-155, 0.0)
    assert np.count_nonzero(tiny_below[below, 0]) > 0
    for factor in (None, (3, 1e-160), (5, 1e160), "both"):
        M = tiny_below.copy() if factor is None else A.copy()
        if factor == "both":
            M[:, 3] *= 1e-160
            M[:, 5] *= 1e160
        elif factor is not None:
            M[:, factor[0]] *= factor[1]
        x = scaled(_values(M, sp), b).full().ravel()
        expected = np.linalg.solve(M, b)
        column_scale = np.abs(M).max(axis=0)
        # relative to each unknown's own scale (1 / its column's): the error bound of the column-scaled solve
        assert np.all(np.abs(x - expected) * column_scale
                      < residual_bound(M / column_scale, np.abs(expected * column_scale).max(), 1024)), factor
