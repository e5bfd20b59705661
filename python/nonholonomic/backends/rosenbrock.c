/*
 * rosenbrock.c - self-contained stiff ODE integrator for the Co-Simulation interface (fmi3DoStep) of the
 * exported FMUs: x' = f(t, x), with the exact dense Jacobian df/dx supplied by the model.
 *
 * Plain C99, libc + libm only, reentrant (no mutable globals; all state is in the nh_ros object).
 *
 * Method: RODAS4 ("RODAS"), the 6-stage Rosenbrock method of order 4 with embedded order-3 solution,
 *   stiffly accurate and L-stable (R(-inf) = 0 for both solutions), gamma = 1/4.
 *   Source of the coefficients: E. Hairer, G. Wanner, "Solving Ordinary Differential Equations II.
 *   Stiff and Differential-Algebraic Problems", 2nd ed., Springer 1996, Sec. IV.7 (method RODAS, with
 *   gamma = 0.25, alpha21 = 0.386, gamma21 = -0.3543, alpha_i = 0, 0.386, 0.21, 0.63, 1, 1,
 *   gamma_i = 0.25, -0.1043, 0.1035, -0.0362, 0, 0), used in the transformed variables described there
 *   for the implementation of Rosenbrock methods: u_i = sum_{j<=i} gamma_ij k_j, A = (alpha_ij) Gamma^-1,
 *   C = diag(1/gamma) - Gamma^-1, which avoids the matrix-vector products with J:
 *
 *     (1/(h gamma) I - J) u_i = f(t + alpha_i h, x + sum_{j<i} a_ij u_j) + sum_{j<i} (c_ij / h) u_j
 *                               + h gamma_i df/dt,                                i = 1..6,
 *     x_new = x + sum_{j<6} a_6j u_j + u_6       (a_6j = a_5j for j < 5, a_65 = 1: stiffly accurate),
 *     error estimate = u_6  (difference to the embedded order-3 solution x + sum_j a_6j u_j).
 *
 *   The 16-digit values below are transcriptions of the published table; they were checked
 *   independently (tests/test_rosenbrock.py): transformed back to (alpha_ij, gamma_ij, b_i), they satisfy
 *   all 8 Rosenbrock order conditions up to order 4 (embedded solution: the 4 up to order 3) to ~1e-15,
 *   R(z) -> 0 as z -> -inf, |R(z)| <= 1 in the left half plane, and the observed order is 4.
 *
 * Cost per step: 1 Jacobian, 1 LU factorisation of (1/(h gamma) I - J) (dense, partial pivoting, reused
 *   for all 6 stages), 6 stage rhs evaluations (the first is f at the step start, evaluated when the previous
 *   step was accepted), plus ONE extra rhs evaluation for df/dt, computed by a forward difference in t,
 *       df/dt ~ (f(t + d, x) - f(t, x)) / d,   d = min(sqrt(eps) max(|t|, h), h)
 *   (forward, i.e. inside the step, because co-simulation inputs may be interpolated in t within the step;
 *   for an autonomous f this is exactly 0). After a rejected step J is reused, the LU and df/dt are redone.
 *
 * Error control: weighted RMS norm of u_6 with weights atol_i + rtol max(|x_i|, |x_new,i|) must be <= 1.
 *   Step size: h_new = h * min(6, max(0.2, 0.9 err^(-1/4))) combined (min) with Gustafsson's predictive
 *   controller (Hairer-Wanner II, Sec. IV.8) after accepted steps; no increase right after a rejection.
 *   Initial step: the heuristic of Hairer-Norsett-Wanner I, Sec. II.4 (from ||x||, ||f|| and a difference
 *   of f along an explicit Euler step), bounded by h_max. The step size is remembered between calls
 *   (one call per communication step); nh_ros_reset() forgets it. The final step lands exactly on t1.
 *
 * Failures: a failed rhs evaluation (nonzero return or non-finite value) or a non-finite error estimate
 *   inside a step rejects the step and divides h by 4 (as CVODE does); 10 consecutive such failures, or h
 *   falling below h_min = 16 eps max(|t0|, |t1|) because of them, returns NH_ROS_ERR_RHS. A singular
 *   iteration matrix is handled alike (NH_ROS_ERR_SINGULAR). A failing Jacobian, or a failing f at the
 *   start point of a call, cannot be cured by a smaller step: NH_ROS_ERR_RHS at once. Error-test failures
 *   with h < h_min: NH_ROS_ERR_HMIN. Before a step (other than the one ending the call) is accepted, f is
 *   evaluated at its end point (this is the first stage of the next step, so it costs nothing extra);
 *   hence every accepted state inside a call is one where f could be evaluated.
 */
#include "rosenbrock.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- RODAS4 coefficients (transformed form, see header comment) ---- */
#define ROS_S 6
static const double ros_gamma = 0.25;
static const double ros_alpha[ROS_S] = {0.0, 0.386, 0.21, 0.63, 1.0, 1.0};     /* stage times c_i */
static const double ros_gam[ROS_S] = {0.25, -0.1043, 0.1035, -0.0362, 0.0, 0.0}; /* gamma_i (df/dt) */
static const double ros_a[ROS_S][ROS_S] = {
    {0.0, 0.0, 0.0, 0.0, 0.0, 0.0},
    {1.544, 0.0, 0.0, 0.0, 0.0, 0.0},
    {0.9466785280815826, 0.2557011698983284, 0.0, 0.0, 0.0, 0.0},
    {3.314825187068521, 2.896124015972201, 0.9986419139977817, 0.0, 0.0, 0.0},
    {1.221224509226641, 6.019134481288629, 12.53708332932087, -0.6878860361058950, 0.0, 0.0},
    {1.221224509226641, 6.019134481288629, 12.53708332932087, -0.6878860361058950, 1.0, 0.0}};
static const double ros_c[ROS_S][ROS_S] = {
    {0.0, 0.0, 0.0, 0.0, 0.0, 0.0},
    {-5.6688, 0.0, 0.0, 0.0, 0.0, 0.0},
    {-2.430093356833875, -0.2063599157091915, 0.0, 0.0, 0.0, 0.0},
    {-0.1073529058151375, -9.594562251023355, -20.47028614809616, 0.0, 0.0, 0.0},
    {7.496443313967647, -10.24680431464352, -33.99990352819905, 11.70890893206160, 0.0, 0.0},
    {8.083246795921522, -7.981132988064893, -31.52159432874371, 16.31930543123136, -6.058818238834054, 0.0}};

/* ---- controller constants ---- */
#define ROS_SAFETY 0.9
#define ROS_FAC_MIN 0.2 /* h_new / h >= 0.2 */
#define ROS_FAC_MAX 6.0 /* h_new / h <= 6   */
#define ROS_MAX_FAIL 10 /* consecutive rhs failures / singular matrices in one step */

enum { STEP_OK = 0, STEP_RHS = 1, STEP_SINGULAR = 2 };

struct nh_ros {
    long n;
    double h;       /* step size proposed for the next call; 0 = unknown */
    double h_acc;   /* last accepted step and its error (predictive controller) */
    double err_acc; /* 0 = no memory */
    long nstep, nrej, nrhs, njac, nlu;
    long* piv;
    nh_ros_monitor monitor; /* called after accepted steps, or NULL */
    double* jac;   /* n*n, Jacobian at the current point */
    double* lu;    /* n*n, LU of 1/(h gamma) I - J */
    double* f0;    /* f(t, x) */
    double* ft;    /* df/dt */
    double* u[ROS_S];
    double* arg;   /* stage argument; after a step: embedded solution x + sum a_6j u_j */
    double* fs;    /* stage rhs */
    double* xnew;
    double* fnew;  /* f(t + h, xnew) */
};

nh_ros* nh_ros_new(long n) {
    nh_ros* m;
    size_t nn, total;
    int i;
    if (n < 1) return NULL;
    nn = (size_t)n;
    if (nn > (SIZE_MAX / sizeof(double) - 12) / (nn + 12) / 2) return NULL; /* size overflow */
    total = 2 * nn * nn + 12 * nn;
    m = (nh_ros*)calloc(1, sizeof(nh_ros));
    if (!m) return NULL;
    m->jac = (double*)calloc(total, sizeof(double));
    m->piv = (long*)calloc(nn, sizeof(long));
    if (!m->jac || !m->piv) {
        nh_ros_free(m);
        return NULL;
    }
    m->n = n;
    m->lu = m->jac + nn * nn;
    m->f0 = m->lu + nn * nn;
    m->ft = m->f0 + nn;
    for (i = 0; i < ROS_S; ++i) m->u[i] = m->ft + nn * (size_t)(1 + i);
    m->arg = m->u[ROS_S - 1] + nn;
    m->fs = m->arg + nn;
    m->xnew = m->fs + nn;
    m->fnew = m->xnew + nn; /* ends at 2 nn^2 + 12 nn */
    return m;
}

void nh_ros_free(nh_ros* m) {
    if (!m) return;
    free(m->jac);
    free(m->piv);
    free(m);
}

void nh_ros_set_monitor(nh_ros* m, nh_ros_monitor monitor) {
    if (m) m->monitor = monitor;
}

void nh_ros_reset(nh_ros* m) {
    if (!m) return;
    m->h = 0.0;
    m->h_acc = 0.0;
    m->err_acc = 0.0;
}

void nh_ros_get_memory(const nh_ros* m, double memory[NH_ROS_MEMORY]) {
    memory[0] = m ? m->h : 0.0;
    memory[1] = m ? m->h_acc : 0.0;
    memory[2] = m ? m->err_acc : 0.0;
}

void nh_ros_set_memory(nh_ros* m, const double memory[NH_ROS_MEMORY]) {
    if (!m) return;
    m->h = memory[0];
    m->h_acc = memory[1];
    m->err_acc = memory[2];
}

void nh_ros_stats(const nh_ros* m, long* steps, long* rejected, long* rhs, long* jacs, long* lus) {
    if (steps) *steps = m ? m->nstep : 0;
    if (rejected) *rejected = m ? m->nrej : 0;
    if (rhs) *rhs = m ? m->nrhs : 0;
    if (jacs) *jacs = m ? m->njac : 0;
    if (lus) *lus = m ? m->nlu : 0;
}

const char* nh_ros_message(int code) {
    switch (code) {
    case NH_ROS_OK: return "success";
    case NH_ROS_STOPPED: return "stopped by the monitor";
    case NH_ROS_ERR_HMIN: return "step size underflow (error test failed repeatedly)";
    case NH_ROS_ERR_MAXSTEPS: return "too many steps in one call";
    case NH_ROS_ERR_RHS: return "rhs or Jacobian evaluation failed repeatedly";
    case NH_ROS_ERR_SINGULAR: return "singular iteration matrix after step reductions";
    case NH_ROS_ERR_ARG: return "invalid argument";
    default: return "unknown error code";
    }
}

/* ---- helpers ---- */

static int all_finite(long n, const double* v) {
    long i;
    for (i = 0; i < n; ++i)
        if (!isfinite(v[i])) return 0;
    return 1;
}

static int eval_rhs(nh_ros* m, nh_ros_rhs f, void* ctx, double t, const double* x, double* out) {
    m->nrhs++;
    if (f(ctx, t, x, out) != 0) return 1;
    return all_finite(m->n, out) ? 0 : 1;
}

static int eval_jac(nh_ros* m, nh_ros_jac jac, void* ctx, double t, const double* x) {
    m->njac++;
    if (jac(ctx, t, x, m->jac) != 0) return 1;
    return all_finite(m->n * m->n, m->jac) ? 0 : 1;
}

/* weighted RMS norm of v with weights atol_i + rtol max(|x_i|, |y_i|) (y may be NULL) */
static double wrms(long n, const double* v, const double* x, const double* y, double rtol, const double* atol) {
    double s = 0.0;
    long i;
    for (i = 0; i < n; ++i) {
        double ax = fabs(x[i]);
        double w, q;
        if (y && fabs(y[i]) > ax) ax = fabs(y[i]);
        w = atol[i] + rtol * ax;
        q = v[i] / w;
        s += q * q;
    }
    return sqrt(s / (double)n);
}

/* In-place LU factorisation with partial pivoting of the column-major n x n matrix a (P a = L U).
   Returns 0, or 1 if a pivot is zero or not finite. */
static int lu_factor(long n, double* a, long* piv) {
    long i, j, k;
    for (k = 0; k < n; ++k) {
        double* ak = a + k * n;
        double amax = fabs(ak[k]), inv;
        long p = k;
        for (i = k + 1; i < n; ++i) {
            double v = fabs(ak[i]);
            if (v > amax) {
                amax = v;
                p = i;
            }
        }
        piv[k] = p;
        if (!(amax > 0.0) || !isfinite(amax)) return 1;
        if (p != k) {
            for (j = 0; j < n; ++j) {
                double tmp = a[k + j * n];
                a[k + j * n] = a[p + j * n];
                a[p + j * n] = tmp;
            }
        }
        inv = 1.0 / ak[k];
        for (i = k + 1; i < n; ++i) ak[i] *= inv;
        for (j = k + 1; j < n; ++j) {
            double* aj = a + j * n;
            double akj = aj[k];
            if (akj != 0.0)
                for (i = k + 1; i < n; ++i) aj[i] -= ak[i] * akj;
        }
    }
    return 0;
}

/* Solve (L U) x = P b in place (b overwritten by x). */
static void lu_solve(long n, const double* a, const long* piv, double* b) {
    long i, k;
    for (k = 0; k < n; ++k) {
        long p = piv[k];
        if (p != k) {
            double tmp = b[k];
            b[k] = b[p];
            b[p] = tmp;
        }
    }
    for (k = 0; k < n; ++k) {
        const double* ak = a + k * n;
        double bk = b[k];
        if (bk != 0.0)
            for (i = k + 1; i < n; ++i) b[i] -= ak[i] * bk;
    }
    for (k = n - 1; k >= 0; --k) {
        const double* ak = a + k * n;
        double bk;
        b[k] /= ak[k];
        bk = b[k];
        if (bk != 0.0)
            for (i = 0; i < k; ++i) b[i] -= ak[i] * bk;
    }
}

/* One RODAS4 step attempt of size h from (t, x); needs m->f0 = f(t, x) and m->jac = J(t, x).
   On STEP_OK: m->xnew = new state, m->u[5] = local error estimate, m->arg = embedded solution. */
static int ros_step(nh_ros* m, nh_ros_rhs f, void* ctx, double t, double h, const double* x) {
    const long n = m->n;
    const double diag = 1.0 / (h * ros_gamma);
    double d, td;
    long i, nn = n * n;
    int s, j;

    /* df/dt by a forward difference in t (one rhs evaluation); td - t is the exactly representable step */
    d = sqrt(DBL_EPSILON) * (fabs(t) > h ? fabs(t) : h);
    if (d > h) d = h;
    td = t + d;
    d = td - t;
    if (!(d > 0.0)) return STEP_RHS; /* cannot happen for h >= h_min */
    if (eval_rhs(m, f, ctx, td, x, m->fs)) return STEP_RHS;
    for (i = 0; i < n; ++i) m->ft[i] = (m->fs[i] - m->f0[i]) / d;

    /* iteration matrix 1/(h gamma) I - J and its LU */
    for (i = 0; i < nn; ++i) m->lu[i] = -m->jac[i];
    for (i = 0; i < n; ++i) m->lu[i + i * n] += diag;
    m->nlu++;
    if (lu_factor(n, m->lu, m->piv)) return STEP_SINGULAR;

    for (s = 0; s < ROS_S; ++s) {
        double* us = m->u[s];
        const double* fsv;
        const double hg = h * ros_gam[s];
        if (s == 0) {
            fsv = m->f0;
        } else {
            for (i = 0; i < n; ++i) {
                double v = x[i];
                for (j = 0; j < s; ++j) v += ros_a[s][j] * m->u[j][i];
                m->arg[i] = v;
            }
            if (eval_rhs(m, f, ctx, t + ros_alpha[s] * h, m->arg, m->fs)) return STEP_RHS;
            fsv = m->fs;
        }
        for (i = 0; i < n; ++i) {
            double v = fsv[i] + hg * m->ft[i];
            for (j = 0; j < s; ++j) v += (ros_c[s][j] / h) * m->u[j][i];
            us[i] = v;
        }
        lu_solve(n, m->lu, m->piv, us);
    }
    for (i = 0; i < n; ++i) m->xnew[i] = m->arg[i] + m->u[ROS_S - 1][i];
    return STEP_OK;
}

/* Initial step size: Hairer-Norsett-Wanner I, Sec. II.4, with p = 4; m->f0 = f(t, x) must be set. */
static double initial_step(nh_ros* m, nh_ros_rhs f, void* ctx, double t, const double* x, double rtol,
                           const double* atol, double hmax) {
    const long n = m->n;
    double d0 = wrms(n, x, x, NULL, rtol, atol);
    double d1 = wrms(n, m->f0, x, NULL, rtol, atol);
    double h0, h1, d2, dm;
    long i;
    h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
    if (h0 > hmax) h0 = hmax;
    for (i = 0; i < n; ++i) m->arg[i] = x[i] + h0 * m->f0[i];
    if (eval_rhs(m, f, ctx, t + h0, m->arg, m->fs)) return 0.1 * h0;
    for (i = 0; i < n; ++i) m->fs[i] -= m->f0[i];
    d2 = wrms(n, m->fs, x, NULL, rtol, atol) / h0;
    dm = d1 > d2 ? d1 : d2;
    if (dm <= 1e-15) {
        h1 = h0 * 1e-3;
        if (h1 < 1e-6) h1 = 1e-6;
    } else {
        h1 = pow(0.01 / dm, 0.2);
    }
    if (h1 > 100.0 * h0) h1 = 100.0 * h0;
    if (h1 > hmax) h1 = hmax;
    return h1;
}

static int check_args(const nh_ros* m, nh_ros_rhs f, nh_ros_jac jac, double t0, double t1, const double* x) {
    if (!m || !f || !jac || !x) return 1;
    if (!isfinite(t0) || !isfinite(t1) || t1 < t0) return 1;
    if (!all_finite(m->n, x)) return 1;
    return 0;
}

int nh_ros_integrate(nh_ros* m, nh_ros_rhs f, nh_ros_jac jac, void* ctx, double t0, double t1, double* x,
                     double rtol, const double* atol, double h_max, double* t_reached) {
    long n, i, attempts = 0;
    double t = t0, h, hmax, hmin;
    int need_jac = 1, n_fail = 0, no_grow = 0, first;

    if (t_reached) *t_reached = t0;
    if (check_args(m, f, jac, t0, t1, x) || !atol || !(rtol >= 0.0) || !isfinite(rtol)) return NH_ROS_ERR_ARG;
    n = m->n;
    for (i = 0; i < n; ++i)
        if (!(atol[i] > 0.0) || !isfinite(atol[i])) return NH_ROS_ERR_ARG;
    if (t1 == t0) return NH_ROS_OK;

    hmax = t1 - t0;
    if (h_max > 0.0 && h_max < hmax) hmax = h_max; /* h_max <= 0 or NaN: no bound */
    hmin = 16.0 * DBL_EPSILON * (fabs(t0) > fabs(t1) ? fabs(t0) : fabs(t1));

    if (eval_rhs(m, f, ctx, t, x, m->f0)) return NH_ROS_ERR_RHS;
    first = !(m->h > 0.0);
    h = first ? initial_step(m, f, ctx, t, x, rtol, atol, hmax) : m->h;
    if (h > hmax) h = hmax;
    if (h < hmin) h = hmin;

    for (;;) {
        double h_plan = h, err = 0.0, fac;
        int last = 0, rc;

        if (attempts >= NH_ROS_MAX_STEPS) return NH_ROS_ERR_MAXSTEPS;
        if (need_jac) {
            if (eval_jac(m, jac, ctx, t, x)) return NH_ROS_ERR_RHS;
            need_jac = 0;
        }
        /* land exactly on t1; avoid a tiny last step by stretching the step up to 1 % */
        {
            double rem = t1 - t;
            if (rem <= 1.01 * h) {
                if (rem <= hmax) {
                    h = rem;
                    last = 1;
                } else {
                    h = 0.5 * rem; /* rem in (hmax, 1.01 hmax]: two equal steps */
                }
            }
        }
        attempts++;
        rc = ros_step(m, f, ctx, t, h, x);
        if (rc == STEP_OK) {
            err = wrms(n, m->u[ROS_S - 1], x, m->xnew, rtol, atol);
            if (!isfinite(err)) rc = STEP_RHS; /* non-finite new state */
            else if (err <= 1.0 && !last && eval_rhs(m, f, ctx, t + h, m->xnew, m->fnew)) rc = STEP_RHS;
        }
        if (rc != STEP_OK) {
            /* rhs failure or singular matrix: reduce h by 4 */
            m->nrej++;
            n_fail++;
            no_grow = 1;
            h *= 0.25;
            if (n_fail >= ROS_MAX_FAIL || h < hmin) {
                if (t_reached) *t_reached = t;
                return rc == STEP_SINGULAR ? NH_ROS_ERR_SINGULAR : NH_ROS_ERR_RHS;
            }
            continue;
        }

        /* step-size factor from the error estimate (order 3 embedded -> exponent 1/4) */
        fac = err > 0.0 ? ROS_SAFETY * pow(err, -0.25) : ROS_FAC_MAX;
        if (fac > ROS_FAC_MAX) fac = ROS_FAC_MAX;
        if (fac < ROS_FAC_MIN) fac = ROS_FAC_MIN;

        if (err <= 1.0) {
            /* accept */
            double h_new;
            if (m->err_acc > 0.0) { /* Gustafsson predictive controller */
                double fg = ROS_SAFETY * (h / m->h_acc) * pow(m->err_acc / (err * err > 1e-300 ? err * err : 1e-300), 0.25);
                if (fg > ROS_FAC_MAX) fg = ROS_FAC_MAX;
                if (fg < ROS_FAC_MIN) fg = ROS_FAC_MIN;
                if (fg < fac) fac = fg;
            }
            if (no_grow && fac > 1.0) fac = 1.0;
            h_new = h * fac;
            m->h_acc = h;
            m->err_acc = err > 1e-2 ? err : 1e-2;
            m->nstep++;
            memcpy(x, m->xnew, (size_t)n * sizeof(double));
            n_fail = 0;
            no_grow = 0;
            first = 0;
            if (last) {
                /* a step shortened to land on t1 that still could grow: keep the planned step */
                if (h < h_plan && fac >= 1.0 && h_plan > h_new) h_new = h_plan;
                m->h = h_new;
                if (t_reached) *t_reached = t1;
                if (m->monitor && m->monitor(ctx, t1, x)) return NH_ROS_STOPPED;
                return NH_ROS_OK;
            }
            t += h;
            if (t_reached) *t_reached = t;
            if (m->monitor && m->monitor(ctx, t, x)) {
                m->h = h_new;
                return NH_ROS_STOPPED;
            }
            memcpy(m->f0, m->fnew, (size_t)n * sizeof(double));
            need_jac = 1;
            h = h_new > hmax ? hmax : h_new;
            if (h < hmin) h = hmin;
        } else {
            /* reject on the error test */
            m->nrej++;
            no_grow = 1;
            h *= first ? 0.1 : fac; /* first step of a fresh start: the heuristic guess was off */
            if (h < hmin) return NH_ROS_ERR_HMIN;
        }
    }
}

int nh_ros_integrate_fixed(nh_ros* m, nh_ros_rhs f, nh_ros_jac jac, void* ctx, double t0, double t1, double* x,
                           long nsteps, double* t_reached) {
    long k;
    double h;
    if (t_reached) *t_reached = t0;
    if (check_args(m, f, jac, t0, t1, x) || nsteps < 1) return NH_ROS_ERR_ARG;
    if (t1 == t0) return NH_ROS_OK;
    h = (t1 - t0) / (double)nsteps;
    for (k = 0; k < nsteps; ++k) {
        double t = t0 + (double)k * h;
        int rc;
        if (eval_rhs(m, f, ctx, t, x, m->f0) || eval_jac(m, jac, ctx, t, x)) return NH_ROS_ERR_RHS;
        rc = ros_step(m, f, ctx, t, h, x);
        if (rc != STEP_OK) return rc == STEP_SINGULAR ? NH_ROS_ERR_SINGULAR : NH_ROS_ERR_RHS;
        if (!all_finite(m->n, m->xnew)) return NH_ROS_ERR_RHS;
        memcpy(x, m->xnew, (size_t)m->n * sizeof(double));
        m->nstep++;
        if (t_reached) *t_reached = t0 + (double)(k + 1) * h;
    }
    if (t_reached) *t_reached = t1;
    return NH_ROS_OK;
}
