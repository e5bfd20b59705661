"""Sparse LU of a linear block, generated as straight-line code, with QR for its dense core and as fallback.

The algebraic block of a multibody model (accelerations, reactions, intermediate kinematic quantities) is
large and very sparse, and its sparsity pattern never changes. Instead of a general sparse solver run in
every evaluation, a pivot sequence is chosen once, when the FMU is built, and the elimination is written
out as CasADi SX expressions: no index arithmetic and no search at run time, only the arithmetic of the
factors' nonzeros.

The sequence is chosen by Markowitz's rule (least ``(r - 1)(c - 1)``, the bound on the fill-in of a
pivot with r entries in its row and c in its column) among the entries that pass the threshold test
``|a_ij| >= tau max_k |a_kj|`` of partial pivoting on every one of a few sample matrices (the block at the
initial state and at perturbed states). Most pivots of a multibody block pass it everywhere (unit
coefficients of kinematic definitions, masses, inertias). Where no entry passes on all samples (rows whose
only possible pivot vanishes in some samples, such as the normal force of a contact that opens, and what
they couple to), the elimination stops: the remaining Schur complement, the core, is solved at run time by
CasADi's sparse Householder QR, which needs no pivot order. A fixed sequence can still meet a small pivot
elsewhere; the generated code repeats the threshold test at run time with 0.01 (MA57's default; 0.1 is
that of MA48 and UMFPACK) and, where any pivot fails it, solves the whole block by QR instead (a switch:
only the chosen branch runs). An elimination step with multipliers up to 1/tau grows an entry by at most
(1 + 1/tau). The selection's threshold trades the core's size against evaluations that fall back; 0.1
kept every evaluation of the omni vehicle's straight and spinning runs on the LU (docs/omni.md).
"""

from __future__ import annotations

import casadi as ca
import numpy as np

TAU = 0.1  # threshold of partial pivoting when the sequence is chosen on the samples
TAU_RUN = 0.01  # threshold that every pivot must pass at run time, else the block is solved by QR
NEGLIGIBLE = 1e-140  # entries below this fraction of their column's largest are zeros to the QR (qr_solve)


def qr_solve(A: ca.MX, B: ca.MX) -> ca.MX:
    """X with A X = B by CasADi's sparse Householder QR, safe for tiny and huge columns. CasADi's Householder
    step (casadi_house) sums the squares below the diagonal unscaled, unlike LAPACK's: a column whose entries
    there are about 1e-155 next to a diagonal of order 1 gives a subnormal sum, a reflector of 1/0 and NaN (the
    sleigh's out-of-plane motion, zero in theory, decays through round-off to such values), and entries of
    1e160 overflow. Here each column is first divided by the power of two at or below its largest magnitude
    (exact: the QR's results are bit for bit those of the unscaled matrix wherever that one works), and entries
    below NEGLIGIBLE of their column's largest are zeros to it (they move the solution by less than 1e-140
    relative, while rows of physical equations differ in scale by far less than 1e140; a system whose rows
    differ by more, as a row multiplied by 1e160, is beyond it, as it is beyond the unscaled QR)."""
    A_scaled, c = _column_scaling(A.sparsity())(A)
    return ca.solve(A_scaled, B, "qr") / ca.repmat(c, 1, B.size2())  # A = A_s diag(c): X = diag(c)^-1 A_s^-1 B


def _column_scaling(sparsity: ca.Sparsity) -> ca.Function:
    """``A -> (A_s, c)``: A_s = A diag(c)^-1, c_j the power of two at or below the largest magnitude of column j
    (1 for a column of zeros), entries of A_s below NEGLIGIBLE set to zero."""
    A = ca.SX.sym("A", sparsity)
    _, cols = sparsity.get_triplet()
    values = [A.nz[k] for k in range(sparsity.nnz())]
    largest = [ca.SX(0)] * sparsity.size2()
    for j, a in zip(cols, values):
        largest[j] = ca.fmax(largest[j], ca.fabs(a))
    c = [ca.if_else(m > 0, 2 ** ca.floor(ca.log(m) / np.log(2.0)), 1) for m in largest]
    scaled = [ca.if_else(ca.fabs(a) < NEGLIGIBLE * largest[j], 0, a / c[j]) for j, a in zip(cols, values)]
    A_scaled = ca.SX(sparsity, ca.vertcat(*scaled) if scaled else ca.SX(0, 1))
    return ca.Function("qr_column_scaling", [A], [A_scaled, ca.vertcat(*c)], ["A"], ["A_s", "c"])


def pivot_sequence(pattern: np.ndarray, samples: np.ndarray, tau: float = TAU) -> list[tuple[int, int]]:
    """Pivots (row, column) for an n x n block of sparsity ``pattern`` (bool) with values ``samples``
    (s x n x n), as long as some entry passes the threshold test on every sample; the rows and columns
    not in the list form the core."""
    n = pattern.shape[0]
    structure = pattern.copy()
    values = np.array(samples, dtype=float)
    active_rows = np.ones(n, bool)
    active_cols = np.ones(n, bool)
    pivots = []
    for _ in range(n):
        live = structure & active_rows[:, None] & active_cols[None, :]
        i_nz, j_nz = np.nonzero(live)
        cost = (np.bincount(i_nz, minlength=n)[i_nz] - 1) * (np.bincount(j_nz, minlength=n)[j_nz] - 1)
        # the worst threshold ratio over the samples of every candidate
        magnitude = np.abs(values[:, i_nz, j_nz])  # samples x candidates
        col_max = np.zeros((len(values), n))
        for m, largest in zip(magnitude, col_max):
            np.maximum.at(largest, j_nz, m)
        ratio = magnitude / np.where(col_max[:, j_nz] > 0, col_max[:, j_nz], np.inf)
        worst = ratio.min(axis=0)
        passing = np.flatnonzero(worst >= tau)
        if not passing.size:
            break
        best = passing[np.lexsort((-worst[passing], cost[passing]))[0]]
        r, c = int(i_nz[best]), int(j_nz[best])
        pivots.append((r, c))
        below = np.flatnonzero(live[:, c])
        below = below[below != r]
        if below.size:
            factors = values[:, below, c] / values[:, r, c][:, None]  # samples x rows
            values[:, below, :] -= factors[:, :, None] * values[:, r, None, :]
            values[:, below, c] = 0.0
            structure[below] |= live[r]
            structure[below, c] = False
        active_rows[r] = False
        active_cols[c] = False
    return pivots


class StaticLU:
    """The elimination of a block of sparsity ``sparsity`` in the order ``pivots``, as SX Functions:
    ``factor(A) -> (F, S)``: the factors' nonzeros (the multipliers first) and the core's Schur complement;
    ``forward(F, b) -> (b_pivots, b_core)`` and ``back(F, b_pivots, x_core) -> x``. :meth:`solve` chains
    them with the core's QR, the run-time threshold test and the fallback."""

    def __init__(self, sparsity: ca.Sparsity, pivots: list[tuple[int, int]]):
        n = sparsity.size1()
        A = ca.SX.sym("A", sparsity)
        rows: list[dict[int, ca.SX]] = [{} for _ in range(n)]
        in_col: list[set[int]] = [set() for _ in range(n)]
        for k, (i, j) in enumerate(zip(*sparsity.get_triplet())):
            rows[i][j] = A.nz[k]
            in_col[j].add(i)
        eliminations = []  # (row, pivot row) per multiplier, in order
        multipliers = []
        for r, c in pivots:
            pivot = rows[r][c]
            others = sorted(in_col[c] - {r})
            for j in rows[r]:
                in_col[j].discard(r)
            for i in others:
                factor = rows[i].pop(c) / pivot
                multipliers.append(factor)
                eliminations.append((i, r))
                for j, a in rows[r].items():
                    if j != c:
                        rows[i][j] = rows[i][j] - factor * a if j in rows[i] else -factor * a
                        in_col[j].add(i)
                in_col[c].discard(i)
        pivot_rows = {r for r, _ in pivots}
        pivot_cols = {c for _, c in pivots}
        core_rows = [i for i in range(n) if i not in pivot_rows]
        core_cols = [j for j in range(n) if j not in pivot_cols]
        # the core's Schur complement, as a sparse matrix of what is left in its rows
        core_index = {j: k for k, j in enumerate(core_cols)}
        entries = sorted(((k, core_index[j], a) for k, i in enumerate(core_rows) for j, a in rows[i].items()),
                         key=lambda e: (e[1], e[0]))  # column-major, the order of a sparsity's nonzeros
        core_sparsity = ca.Sparsity.triplet(len(core_rows), len(core_cols), [e[0] for e in entries],
                                            [e[1] for e in entries])
        S = ca.SX(core_sparsity, ca.vertcat(*[e[2] for e in entries]) if entries else ca.SX(0, 1))
        # U: per pivot, in the order of back substitution, its row's off-pivot entries and then the pivot
        back_steps, upper = [], []
        for r, c in reversed(pivots):
            off = [j for j in rows[r] if j != c]
            back_steps.append((r, c, off))
            upper += [rows[r][j] for j in off] + [rows[r][c]]
        self.n, self.core_size, self.n_multipliers = n, len(core_rows), len(multipliers)
        self.n_factors = len(multipliers) + len(upper)
        self.factor = ca.Function("lu_factor", [A], [ca.vertcat(*multipliers, *upper), S], ["A"], ["F", "S"])
        F, b = ca.SX.sym("F", self.n_factors), ca.SX.sym("b", n)
        rhs = [b[i] for i in range(n)]
        for k, (i, r) in enumerate(eliminations):
            rhs[i] = rhs[i] - F[k] * rhs[r]
        b_pivots = ca.vertcat(*[rhs[r] for r, _ in pivots])
        self.forward = ca.Function("lu_forward", [F, b], [b_pivots, ca.vertcat(*[rhs[i] for i in core_rows])],
                                   ["F", "b"], ["b_pivots", "b_core"])
        b_piv, x_core = ca.SX.sym("b_pivots", len(pivots)), ca.SX.sym("x_core", len(core_cols))
        piv_index = {r: k for k, (r, _) in enumerate(pivots)}
        x = [None] * n
        for k, j in enumerate(core_cols):
            x[j] = x_core[k]
        k = len(eliminations)
        for r, c, off in back_steps:
            total = b_piv[piv_index[r]]
            for j in off:
                total, k = total - F[k] * x[j], k + 1
            x[c], k = total / F[k], k + 1
        self.back = ca.Function("lu_back", [F, b_piv, x_core], [ca.vertcat(*x)], ["F", "b_pivots", "x_core"], ["x"])

    def solve(self, A: ca.MX, B: ca.MX) -> ca.MX:
        """X with A X = B (B of any number of columns): the static elimination with the core solved by QR
        where every pivot passes the run-time test, else QR on the whole block; only one branch runs."""
        columns = B.size2()
        forward, back = (self.forward, self.back) if columns == 1 else (  # F shared by all columns, not copied
            self.forward.map("lu_forward_columns", "serial", columns, [0], []),
            self.back.map("lu_back_columns", "serial", columns, [0], []))
        F, S = self.factor(A)
        # the threshold test of partial pivoting: every multiplier a_ic / a_rc within 1 / TAU_RUN (a
        # comparison with NaN is false, so a NaN multiplier fails it too)
        ok = ca.sum1(ca.fabs(F[:self.n_multipliers]) <= 1 / TAU_RUN) == self.n_multipliers
        F_in, S_in = ca.MX.sym("F", F.sparsity()), ca.MX.sym("S", S.sparsity())
        A_in, B_in = ca.MX.sym("A", A.sparsity()), ca.MX.sym("B", self.n, columns)
        b_pivots, b_core = forward(F_in, B_in)
        x_core = qr_solve(S_in, b_core) if self.core_size else b_core
        by_lu = ca.Function("by_lu", [F_in, S_in, A_in, B_in], [back(F_in, b_pivots, x_core)])
        by_qr = ca.Function("by_qr", [F_in, S_in, A_in, B_in], [ca.solve(A_in, B_in, "qr")])
        return ca.Function.if_else("lu_or_qr", by_lu, by_qr)(ok, F, S, A, B)
