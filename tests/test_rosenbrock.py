"""The self-contained RODAS4 integrator for FMI Co-Simulation (backends/rosenbrock.c).

The C file is compiled (gcc) together with a small C driver holding the test problems; the driver
#includes rosenbrock.c so that it can also hand out the method's coefficient table for the algebraic
checks. Bounds on integrated quantities are derived from the tolerance (see each comment), never
round-off bounds; the algebraic coefficient checks use ``roundoff`` (one short chain of arithmetic).
"""

from __future__ import annotations

import ctypes
import math
import pathlib
import shutil
import subprocess

import numpy as np
import pytest

from bounds import residual_bound, roundoff

SOURCE = pathlib.Path(__file__).resolve().parents[1] / "python" / "nonholonomic" / "backends" / "rosenbrock.c"
OK, ERR_HMIN, ERR_MAXSTEPS, ERR_RHS, ERR_SINGULAR, ERR_ARG = 0, -1, -2, -3, -4, -5
LINEAR, SMOOTH, ROBERTSON, VDPOL, BLOWUP, OVERFLOW = 0, 1, 2, 3, 4, 5

DRIVER = r"""
#include "rosenbrock.c"   /* one translation unit: the statics (coefficients) are visible here */

typedef struct { int prob; long n; const double* A; double omega; double t_fail; int jac_fail; } ctx_t;

/* SMOOTH: x' = g(x) - g(s(t)) + s'(t) has the solution x = s(t), s = (cos(w t), sin(w t) exp(-t/2));
   g1 = -2 x1 + x2^2 + sin(x1), g2 = x1 - 10 x2 + x1 x2 (mildly stiff, explicitly time dependent). */
static void g_smooth(const double* x, double* g) {
    g[0] = -2.0 * x[0] + x[1] * x[1] + sin(x[0]);
    g[1] = x[0] - 10.0 * x[1] + x[0] * x[1];
}
void smooth_exact(double w, double t, double* s) { s[0] = cos(w * t); s[1] = sin(w * t) * exp(-0.5 * t); }

static int rhs(void* vctx, double t, const double* x, double* f) {
    const ctx_t* c = (const ctx_t*)vctx;
    long i, j, n = c->n;
    if (t > c->t_fail) return 1;
    switch (c->prob) {
    case 0: /* LINEAR, A row-major */
        for (i = 0; i < n; ++i) { double v = 0.0; for (j = 0; j < n; ++j) v += c->A[i * n + j] * x[j]; f[i] = v; }
        return 0;
    case 1: {
        double s[2], ds[2], g[2], gs[2], w = c->omega;
        smooth_exact(w, t, s);
        ds[0] = -w * sin(w * t);
        ds[1] = (w * cos(w * t) - 0.5 * sin(w * t)) * exp(-0.5 * t);
        g_smooth(x, g); g_smooth(s, gs);
        f[0] = g[0] - gs[0] + ds[0];
        f[1] = g[1] - gs[1] + ds[1];
        return 0; }
    case 2: /* ROBERTSON */
        f[0] = -0.04 * x[0] + 1e4 * x[1] * x[2];
        f[1] = 0.04 * x[0] - 1e4 * x[1] * x[2] - 3e7 * x[1] * x[1];
        f[2] = 3e7 * x[1] * x[1];
        return 0;
    case 3: /* VDPOL, eps = 1e-6 (mu = 1000 in the time scale t/mu) */
        f[0] = x[1];
        f[1] = ((1.0 - x[0] * x[0]) * x[1] - x[0]) / 1e-6;
        return 0;
    case 4: /* BLOWUP x' = x^2 */
        f[0] = x[0] * x[0];
        return 0;
    case 5: /* OVERFLOW: x' = 0 with a Jacobian whose LU overflows (singular-matrix path) */
        f[0] = f[1] = 0.0;
        return 0;
    }
    return 1;
}

static int jac(void* vctx, double t, const double* x, double* J) { /* column-major */
    const ctx_t* c = (const ctx_t*)vctx;
    long i, j, n = c->n;
    (void)t;
    if (c->jac_fail) return 1;
    switch (c->prob) {
    case 0: for (i = 0; i < n; ++i) for (j = 0; j < n; ++j) J[i + j * n] = c->A[i * n + j]; return 0;
    case 1:
        J[0] = -2.0 + cos(x[0]); J[1] = 1.0 + x[1];
        J[2] = 2.0 * x[1];       J[3] = -10.0 + x[0];
        return 0;
    case 2:
        J[0] = -0.04; J[1] = 0.04;                               J[2] = 0.0;
        J[3] = 1e4 * x[2]; J[4] = -1e4 * x[2] - 6e7 * x[1];      J[5] = 6e7 * x[1];
        J[6] = 1e4 * x[1]; J[7] = -1e4 * x[1];                   J[8] = 0.0;
        return 0;
    case 3:
        J[0] = 0.0; J[1] = (-2.0 * x[0] * x[1] - 1.0) / 1e-6;
        J[2] = 1.0; J[3] = (1.0 - x[0] * x[0]) / 1e-6;
        return 0;
    case 4: J[0] = 2.0 * x[0]; return 0;
    case 5: J[0] = 1e308; J[1] = 1e308; J[2] = 1e308; J[3] = -1e308; return 0;
    }
    return 1;
}

/* ncalls equal calls from t0 to t1 (reset_each: forget the step size before each call);
   stats: steps, rejected, rhs, jacs, lus */
int run(int prob, long n, const double* A, double omega, double t_fail, int jac_fail, double t0, double t1,
        int ncalls, int reset_each, double* x, double rtol, const double* atol, double hmax,
        double* t_reached, long* stats) {
    ctx_t c = {prob, n, A, omega, t_fail, jac_fail};
    nh_ros* m = nh_ros_new(n);
    int k, rc = 0;
    if (!m) return -100;
    for (k = 0; k < ncalls && rc == 0; ++k) {
        double ta = t0 + (t1 - t0) * k / ncalls, tb = (k + 1 == ncalls) ? t1 : t0 + (t1 - t0) * (k + 1) / ncalls;
        if (reset_each) nh_ros_reset(m);
        rc = nh_ros_integrate(m, rhs, jac, &c, ta, tb, x, rtol, atol, hmax, t_reached);
    }
    nh_ros_stats(m, &stats[0], &stats[1], &stats[2], &stats[3], &stats[4]);
    nh_ros_free(m);
    return rc;
}

int run_fixed(int prob, long n, double omega, double t0, double t1, long nsteps, double* x) {
    ctx_t c = {prob, n, NULL, omega, 1e300, 0};
    nh_ros* m = nh_ros_new(n);
    double tr;
    int rc;
    if (!m) return -100;
    rc = nh_ros_integrate_fixed(m, rhs, jac, &c, t0, t1, x, nsteps, &tr);
    nh_ros_free(m);
    return rc;
}

/* LU of the row-major matrix a (copied to column-major), then solve a x = b in place; 1 if singular */
int lu_test(long n, const double* a, double* b) {
    double* lu = (double*)malloc((size_t)(n * n) * sizeof(double));
    long* piv = (long*)malloc((size_t)n * sizeof(long));
    long i, j;
    int rc;
    for (i = 0; i < n; ++i) for (j = 0; j < n; ++j) lu[i + j * n] = a[i * n + j];
    rc = lu_factor(n, lu, piv);
    if (!rc) lu_solve(n, lu, piv, b);
    free(lu); free(piv);
    return rc;
}

void coefficients(double* a, double* c, double* alpha, double* gam, double* gamma) {
    int i, j;
    for (i = 0; i < ROS_S; ++i) {
        alpha[i] = ros_alpha[i]; gam[i] = ros_gam[i];
        for (j = 0; j < ROS_S; ++j) { a[i * ROS_S + j] = ros_a[i][j]; c[i * ROS_S + j] = ros_c[i][j]; }
    }
    *gamma = ros_gamma;
}
"""

_D = ctypes.POINTER(ctypes.c_double)
_L = ctypes.POINTER(ctypes.c_long)


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    if shutil.which("gcc") is None:
        pytest.skip("gcc not available")
    tmp = tmp_path_factory.mktemp("rosenbrock")
    driver = tmp / "driver.c"
    driver.write_text(DRIVER)
    so = tmp / "librosdrv.so"
    subprocess.run(["gcc", "-std=c99", "-O2", "-fPIC", "-shared", "-I", str(SOURCE.parent), str(driver), "-o", str(so),
                    "-lm"], check=True, capture_output=True, text=True)
    cdll = ctypes.CDLL(str(so))
    cdll.run.argtypes = [ctypes.c_int, ctypes.c_long, _D, ctypes.c_double, ctypes.c_double, ctypes.c_int,
                         ctypes.c_double, ctypes.c_double, ctypes.c_int, ctypes.c_int, _D, ctypes.c_double, _D,
                         ctypes.c_double, _D, _L]
    cdll.run_fixed.argtypes = [ctypes.c_int, ctypes.c_long, ctypes.c_double, ctypes.c_double, ctypes.c_double,
                               ctypes.c_long, _D]
    cdll.smooth_exact.argtypes = [ctypes.c_double, ctypes.c_double, _D]
    cdll.lu_test.argtypes = [ctypes.c_long, _D, _D]
    return cdll


def _ptr(a):
    return None if a is None else a.ctypes.data_as(_D)


def run(lib, prob, x0, t0, t1, rtol, atol, *, A=None, omega=1.0, t_fail=1e300, jac_fail=False, ncalls=1,
        reset_each=False, hmax=0.0):
    """Integrate; returns (code, x, t_reached, stats dict)."""
    x = np.array(x0, dtype=float)
    atol = np.broadcast_to(np.asarray(atol, dtype=float), x.shape).copy()
    A = None if A is None else np.ascontiguousarray(A, dtype=float)
    tr = ctypes.c_double(math.nan)
    stats = (ctypes.c_long * 5)()
    rc = lib.run(prob, x.size, _ptr(A), omega, t_fail, int(jac_fail), t0, t1, ncalls, int(reset_each), _ptr(x),
                 rtol, _ptr(atol), hmax, ctypes.byref(tr), stats)
    return rc, x, tr.value, dict(zip(("steps", "rejected", "rhs", "jacs", "lus"), stats))


def smooth_exact(lib, omega, t):
    s = np.zeros(2)
    lib.smooth_exact(omega, t, _ptr(s))
    return s


def _weighted_error(x, exact, rtol, atol):
    """Max-norm error in units of the tolerance, weights atol + rtol |exact|."""
    return float(np.max(np.abs(x - exact) / (np.asarray(atol) + rtol * np.abs(exact))))


# ---------------------------------------------------------------------------------------------------------
# 0. Compiler hygiene: the required flags (-fPIC -O2 -Wall -Wextra -Werror=implicit-function-declaration)
#    plus -std=c99 -pedantic -Wshadow -Wconversion; no warning may appear.

def test_compiles_without_warnings(tmp_path):
    flags = ["-std=c99", "-fPIC", "-O2", "-Wall", "-Wextra", "-pedantic", "-Wshadow", "-Wconversion",
             "-Werror", "-Werror=implicit-function-declaration"]
    out = subprocess.run(["gcc", *flags, "-c", str(SOURCE), "-o", str(tmp_path / "r.o")], capture_output=True,
                         text=True)
    assert out.returncode == 0 and out.stderr == "", out.stderr


# ---------------------------------------------------------------------------------------------------------
# 1. The coefficients: order conditions and L-stability, from the table the C file actually uses.

def _tableau(lib):
    a, c = np.zeros(36), np.zeros(36)
    alpha, gam, gamma = np.zeros(6), np.zeros(6), ctypes.c_double()
    lib.coefficients(_ptr(a), _ptr(c), _ptr(alpha), _ptr(gam), ctypes.byref(gamma))
    a, c, g = a.reshape(6, 6), c.reshape(6, 6), gamma.value
    # back from the transformed form: Gamma^-1 = diag(1/g) - C, alpha = A Gamma, b = m Gamma
    Gam = np.linalg.inv(np.eye(6) / g - c)
    m_main = np.r_[a[5, :5], 1.0]          # x_new = x + sum a_6j u_j + u_6
    m_emb = a[5].copy()                     # embedded: x + sum a_6j u_j
    return dict(g=g, alpha=a @ Gam, Gam=Gam, b=m_main @ Gam, bhat=m_emb @ Gam, c_i=alpha, gam_i=gam)


def _order_conditions(t, b):
    """Residuals of the Rosenbrock order conditions (Hairer-Wanner II, Sec. IV.7) up to order 4:
    beta_ij = alpha_ij + gamma_ij (j < i), beta'_i = sum_j beta_ij, alpha_i = sum_j alpha_ij."""
    g, al = t["g"], t["alpha"]
    B = np.tril(al + t["Gam"], -1)
    bp, ai = B.sum(1), al.sum(1)
    return np.array([
        b.sum() - 1,
        b @ bp - (0.5 - g),
        b @ ai**2 - 1 / 3,
        b @ B @ bp - (1 / 6 - g + g * g),
        b @ ai**3 - 1 / 4,
        b @ (ai * (np.tril(al, -1) @ bp)) - (1 / 8 - g / 3),
        b @ B @ ai**2 - (1 / 12 - g / 3),
        b @ B @ B @ bp - (1 / 24 - g / 2 + 1.5 * g * g - g**3),
    ])


def _stability_function(t, b, z):
    """R(z) = 1 + z b^T (I - z B)^-1 1 with B = beta incl. the diagonal gamma (y' = lambda y, z = h lambda)."""
    B = np.tril(t["alpha"] + t["Gam"])
    return 1 + z * (b @ np.linalg.solve(np.eye(6) - z * B, np.ones(6)))


def test_coefficients_satisfy_order_conditions_and_l_stability(lib):
    t = _tableau(lib)
    # The table is 16-digit decimals of magnitude <= 34 pushed through a 6x6 inversion and short sums:
    # residuals of exact conditions are then a few dozen ulps of that magnitude (bounds.roundoff).
    tol = roundoff(34.0)
    main, emb = _order_conditions(t, t["b"]), _order_conditions(t, t["bhat"])
    print("order-condition residuals main", np.abs(main).max(), "embedded (order<=3)", np.abs(emb[:4]).max(),
          "embedded order-4 defects", emb[4:])
    assert np.abs(main).max() < tol                      # order 4
    assert np.abs(emb[:4]).max() < tol                   # embedded order 3 ...
    assert np.abs(emb[4:]).max() > 1e-3                  # ... and not 4 (else no error estimate)
    # stage times and df/dt coefficients of the table are the row sums of alpha and Gamma
    assert np.abs(t["alpha"].sum(1) - t["c_i"]).max() < tol
    assert np.abs(t["Gam"].sum(1) - t["gam_i"]).max() < tol
    # L-stability: R(-inf) = 0 (checked at z = -1e12, where R ~ 1/z: |R| <~ 1e-11), both solutions
    for b in (t["b"], t["bhat"]):
        assert abs(_stability_function(t, b, -1e12)) < 1e-10
    # A-stability of the main method: |R(z)| <= 1 on the imaginary axis and a grid of the left half plane
    ys = np.r_[0.0, np.logspace(-3, 6, 300)]
    zs = np.r_[1j * ys, (-np.logspace(-3, 6, 60)[:, None] + 1j * ys[None, ::10]).ravel()]
    R = np.array([abs(_stability_function(t, t["b"], z)) for z in zs])
    assert R.max() <= 1 + roundoff(1.0)


# ---------------------------------------------------------------------------------------------------------
# 2. Stiff linear system with known solution: error proportional to the tolerance.

V = np.array([[1.0, 0.5, 0.2], [0.3, 1.0, 0.4], [0.1, 0.6, 1.0]])
A_LIN = V @ np.diag([-1.0, -1e3, -1e6]) @ np.linalg.inv(V)


def test_linear_stiff_error_proportional_to_tolerance(lib):
    x0 = np.ones(3)
    exact = V @ (np.exp([-1.0, -1e3, -1e6]) * np.linalg.solve(V, x0))   # exp(A) x0
    errs, steps = [], []
    for rtol in (1e-4, 1e-6, 1e-8):
        rc, x, tr, st = run(lib, LINEAR, x0, 0.0, 1.0, rtol, rtol, A=A_LIN)
        assert rc == OK and tr == 1.0
        errs.append(_weighted_error(x, exact, rtol, rtol))
        steps.append(st["steps"])
    print("linear: error / tolerance", errs, "steps", steps)
    # Bound: each accepted step has a local error estimate <= 1 (in units of the tolerance); the estimate
    # belongs to the order-3 embedded solution, the propagated order-4 one is more accurate. Local errors
    # are carried to t = 1 by exp(A (1 - t)), whose norm is <= cond(V) (all modes decay), so the global
    # error is <= cond(V) * (number of steps) tolerance units.
    for e, n in zip(errs, steps):
        assert e <= np.linalg.cond(V) * n
    # Tolerance proportionality: the global error of this error-per-step control scales like rtol^(5/4 - 1/4)
    # = rtol; allow a factor 10 off the ideal 100x per 100x rtol, i.e. at least 10x smaller per step.
    assert errs[1] * 1e-6 < errs[0] * 1e-4 / 10 and errs[2] * 1e-8 < errs[1] * 1e-6 / 10


# ---------------------------------------------------------------------------------------------------------
# 3. Observed order with fixed steps on a smooth, nonlinear, explicitly time-dependent problem.

def test_observed_order_is_four(lib):
    omega, T = 3.0, 1.0
    exact = smooth_exact(lib, omega, T)
    errors = []
    for n in (20, 40, 80, 160):
        x = smooth_exact(lib, omega, 0.0)
        assert lib.run_fixed(SMOOTH, 2, omega, 0.0, T, n, _ptr(x)) == OK
        errors.append(np.abs(x - exact).max())
    orders = [math.log2(errors[i] / errors[i + 1]) for i in range(len(errors) - 1)]
    print("fixed-step errors", errors, "observed orders", orders)
    # the smallest error (~2e-10) is 100x above the floor set by round-off and the forward difference for
    # df/dt (~1e-12, seen at n >= 640), so the ratios measure the truncation error alone
    assert 3.7 <= orders[-1] <= 4.3 and 3.7 <= orders[-2] <= 4.3


# ---------------------------------------------------------------------------------------------------------
# 4. Very stiff standard problems.

def test_robertson(lib):
    rtol, atol = 1e-6, np.array([1e-8, 1e-14, 1e-8])
    rc, y, tr, st = run(lib, ROBERTSON, [1.0, 0.0, 0.0], 0.0, 40.0, rtol, atol)
    ref = np.array([0.7158271, 9.185535e-6, 0.2841637])   # Hairer-Wanner II (digits given there)
    half_digit = np.array([0.5e-7, 0.5e-12, 0.5e-7])       # rounding of the printed reference
    print("robertson", y, "error/tol", np.abs(y - ref) / (atol + rtol * np.abs(ref)), st)
    assert rc == OK and tr == 40.0
    # Bound: the problem is dissipative, so local errors are not amplified and the global error is at most
    # their sum: (steps) x the largest per-step tolerance. In units of the tolerance at t = 40 that largest
    # one is at most 4 units (y2 peaks at 3.6e-5, 4x its final value; y1, y3 vary less). Plus the rounding
    # of the reference digits.
    assert np.all(np.abs(y - ref) <= 4 * st["steps"] * (atol + rtol * np.abs(ref)) + half_digit)
    # y1 + y2 + y3 = 1 is a linear invariant, which a Rosenbrock method keeps up to round-off; bound it by
    # the tolerance of the largest component (a loose bound, as asked of integrated quantities)
    assert abs(y.sum() - 1.0) <= rtol
    # a few hundred steps at most (measured: see the print); stiff solvers take O(100) on this interval
    assert st["steps"] < 300


def test_van_der_pol_mu_1000(lib):
    # scaled form y1' = y2, eps y2' = (1 - y1^2) y2 - y1, eps = 1/mu^2 = 1e-6, t in [0, 2] = 2000 in the
    # unscaled time: one full period (~1614, two slow phases and two jumps) plus part of the next slow phase.
    rtol = atol = 1e-6
    rc, y, tr, st = run(lib, VDPOL, [2.0, 0.0], 0.0, 2.0, rtol, atol)
    print("van der Pol", y, st)
    assert rc == OK and tr == 2.0
    # reference y(2) of problem VDPOL of the Test Set for IVP Solvers (Bari); this integrator reproduces it
    # to 2e-12 at rtol = atol = 1e-11 and 1e-12 (86k / 240k steps, too slow for the test)
    ref = np.array([1.706167732170483, -0.8928097010247975])
    # Bound: on the limit cycle errors are not amplified on average (transverse errors are damped, phase
    # errors stay), so the global error is at most the sum of the local errors: (steps) tolerance units
    assert np.all(np.abs(y - ref) <= st["steps"] * (atol + rtol * np.abs(ref)))
    # a stiff solver needs ~1000 steps here (the 2 jumps and the start transient); bound with 50 % margin
    assert st["steps"] < 1500


# ---------------------------------------------------------------------------------------------------------
# 5. Continuation over many calls (co-simulation): same result, step-size memory keeps the cost.

def test_continuation_matches_single_call(lib):
    omega, rtol, atol = 10.0, 1e-8, 1e-8
    x0 = smooth_exact(lib, omega, 0.0)
    exact = smooth_exact(lib, omega, 1.0)
    rc1, x1, _, st1 = run(lib, SMOOTH, x0, 0.0, 1.0, rtol, atol, omega=omega)
    rc2, x2, tr2, st2 = run(lib, SMOOTH, x0, 0.0, 1.0, rtol, atol, omega=omega, ncalls=100)
    rc3, x3, _, st3 = run(lib, SMOOTH, x0, 0.0, 1.0, rtol, atol, omega=omega, ncalls=100, reset_each=True)
    e1, e2 = _weighted_error(x1, exact, rtol, atol), _weighted_error(x2, exact, rtol, atol)
    print("continuation: single", st1, "err/tol", e1, "| 100 calls", st2, "err/tol", e2, "| 100 calls, reset", st3)
    assert rc1 == rc2 == rc3 == OK and tr2 == 1.0
    # both approximate the same solution; each within the linear-test bound (steps tolerance units, the
    # problem is contractive), so they differ by at most the sum of both
    assert e1 <= st1["steps"] and e2 <= st2["steps"]
    assert _weighted_error(x2, x1, rtol, atol) <= st1["steps"] + st2["steps"]
    # step-size memory: at most twice the steps of one call (the landing steps on the 100 grid points add
    # at most one step per call)
    assert st2["steps"] <= 2 * st1["steps"]
    # and fewer than when the step size is forgotten at each call (initial-step heuristic every call)
    assert st2["steps"] < st3["steps"]


# ---------------------------------------------------------------------------------------------------------
# 6. Failure paths.

def test_rhs_failure_returns_last_accepted_state(lib):
    omega, rtol, atol = 1.0, 1e-6, 1e-6
    rc, x, tr, st = run(lib, SMOOTH, smooth_exact(lib, omega, 0.0), 0.0, 1.0, rtol, atol, omega=omega, t_fail=0.5)
    print("rhs failure:", rc, "t_reached", tr, st)
    assert rc == ERR_RHS
    assert 0.4 < tr <= 0.5 and np.all(np.isfinite(x))
    # the returned state is an accepted one: it matches the solution at t_reached within the tolerance bound
    assert _weighted_error(x, smooth_exact(lib, omega, tr), rtol, atol) <= max(st["steps"], 1)


def test_jacobian_failure_and_blowup_and_bad_arguments(lib):
    x0 = smooth_exact(lib, 1.0, 0.0)
    rc, x, tr, _ = run(lib, SMOOTH, x0, 0.0, 1.0, 1e-6, 1e-6, jac_fail=True)
    assert rc == ERR_RHS and tr == 0.0 and np.array_equal(x, x0)
    # x' = x^2, x(0) = 1 blows up at t = 1: the steps shrink until h < 16 eps |t|
    rc, x, tr, st = run(lib, BLOWUP, [1.0], 0.0, 2.0, 1e-6, 1e-6)
    print("blow-up:", rc, tr, x, st)
    # (the numerical solution may pass the pole by a few h: t_reached is 1 up to ~1e-7)
    assert rc == ERR_HMIN and abs(tr - 1.0) < 1e-3 and np.all(np.isfinite(x))
    # a Jacobian whose LU overflows: singular at every step size -> reductions, then the singular code
    rc, x, tr, st = run(lib, OVERFLOW, [0.0, 0.0], 0.0, 1.0, 1e-6, 1e-6)
    assert rc == ERR_SINGULAR and tr == 0.0 and st["rejected"] == 10
    assert run(lib, SMOOTH, x0, 1.0, 0.0, 1e-6, 1e-6)[0] == ERR_ARG        # t1 < t0
    assert run(lib, SMOOTH, x0, 0.0, 1.0, 1e-6, 0.0)[0] == ERR_ARG         # atol = 0
    lib.nh_ros_message.restype = ctypes.c_char_p
    for code in (OK, ERR_HMIN, ERR_MAXSTEPS, ERR_RHS, ERR_SINGULAR, ERR_ARG):
        assert lib.nh_ros_message(code)


def test_dense_lu(lib):
    rng = np.random.default_rng(7)
    n = 60
    A = rng.standard_normal((n, n))
    A[np.arange(n), np.arange(n)] = 0.0          # zero diagonal: pivoting is required
    b = rng.standard_normal(n)
    x = b.copy()
    assert lib.lu_test(n, _ptr(A), _ptr(x)) == 0
    # one solve: forward error <= cond(A) x round-off of the solution's size (bounds.residual_bound)
    assert np.abs(x - np.linalg.solve(A, b)).max() < residual_bound(A, np.abs(x).max(), 1024)
    Z = A.copy()
    Z[:, 7] = 0.0                                 # a zero column gives an exactly zero pivot: singular
    assert lib.lu_test(n, _ptr(Z), _ptr(b.copy())) == 1
