/*
 * solver_entry.c - entry points for implicit integrators beside the FMI functions (not part of FMI).
 *
 * Compiled into every rumoca-backend FMU with the generated nh_model.h and nh_functions.c (the model's
 * state derivatives, exact Jacobian, outputs and event indicators, of (t, x, p, u, m); p in the order of
 * "jacobian_parameters", u in that of "input_names" in the FMU's extra/org.nonholonomic/parameters.json and
 * m the event memory of "memory_size" values, which fmi3_model.c's nonholonomic_memory reads). Python's
 * nonholonomic.cvode hands them to SUNDIALS CVODE, so CVODE calls the model directly and no interpreter
 * runs inside a step (ctypes callbacks cost more than a small model's evaluation and swallow Ctrl-C):
 *
 * - nonholonomic_state_jacobian(t, x, p, u, m, jac): jac (column-major n_x x n_x) = d der(x)/dx; 0 on success;
 * - nonholonomic_cvode_rhs / nonholonomic_cvode_jacobian: CVODE's right-hand side and dense Jacobian
 *   signatures. Their user data, nonholonomic_cvode_data, carries SUNDIALS' N_VGetArrayPointer and
 *   SUNDenseMatrix_Data (so that this binary does not link SUNDIALS) and the inputs as a table (times,
 *   values), linear in t between its rows and held beyond its ends. Where the exact Jacobian is not finite
 *   (a square root at zero) that Jacobian is made by forward differences of the derivatives instead,
 *   counted in "fallbacks";
 * - nonholonomic_cvode_roots: CVODE's root function, the event indicators with the memory of the user data;
 * - nonholonomic_outputs(n, t, x, p, u, m, y): the outputs ("output_names") at n points at once (row r: time
 *   t[r], states x[r*n_x...], inputs u[r*n_u...], memory m[r*n_m...], outputs y[r*n_y...]), for the rows
 *   of a run.
 */
#include <math.h>
#include <stdlib.h>

#include "nh_model.h"

#if defined(_WIN32)
#define NH_EXPORT __declspec(dllexport)
#else
#define NH_EXPORT __attribute__((visibility("default")))
#endif

typedef int (*nh_sizes_fn)(casadi_int*, casadi_int*, casadi_int*, casadi_int*);
typedef int (*nh_eval_fn)(const casadi_real**, casadi_real**, casadi_int*, casadi_real*, int);
typedef struct { const casadi_real** arg; casadi_real** res; casadi_int* iw; casadi_real* w; } nh_work;

static void nh_work_free(nh_work* k) {
  if (k) { free(k->arg); free(k->res); free(k->iw); free(k->w); free(k); }
}

static nh_work* nh_work_new(nh_sizes_fn sizes) {
  casadi_int sz_arg, sz_res, sz_iw, sz_w;
  nh_work* k = (nh_work*)calloc(1, sizeof(nh_work));
  if (!k) return 0;
  sizes(&sz_arg, &sz_res, &sz_iw, &sz_w);
  k->arg = (const casadi_real**)malloc((size_t)(sz_arg + 1) * sizeof(casadi_real*));
  k->res = (casadi_real**)malloc((size_t)(sz_res + 1) * sizeof(casadi_real*));
  k->iw = (casadi_int*)malloc((size_t)(sz_iw + 1) * sizeof(casadi_int));
  k->w = (casadi_real*)malloc((size_t)(sz_w + 1) * sizeof(casadi_real));
  if (!k->arg || !k->res || !k->iw || !k->w) { nh_work_free(k); return 0; }
  return k;
}

/* out[0..n) = f(t, x, p, u), zeroed first (CasADi writes the structural non-zeros only); 0 if finite,
   1 if not finite, -1 if the evaluation failed */
static int nh_eval(nh_eval_fn f, nh_work* k, double t, const double* x, const double* p, const double* u,
                   const double* m, double* out, long n) {
  long i;
  for (i = 0; i < n; ++i) out[i] = 0;
  k->arg[0] = &t; k->arg[1] = x; k->arg[2] = p; k->arg[3] = u; k->arg[4] = m; k->res[0] = out;
  if (f(k->arg, k->res, k->iw, k->w, 0)) return -1;
  for (i = 0; i < n; ++i) if (!(out[i] - out[i] == 0)) return 1;  /* NaN or infinite */
  return 0;
}

NH_EXPORT int nonholonomic_state_jacobian(double t, const double* x, const double* p, const double* u,
                                          const double* m, double* jac) {
  nh_work* k = nh_work_new(nh_state_jacobian_work);
  int flag = k ? nh_eval(nh_state_jacobian, k, t, x, p, u, m, jac, (long)NH_NX * NH_NX) < 0 : 1;
  nh_work_free(k);
  return flag;
}

typedef struct {
  double* (*vector_data)(void* v);  /* N_VGetArrayPointer */
  double* (*matrix_data)(void* m);  /* SUNDenseMatrix_Data (column-major) */
  const double* p;                  /* parameters, in the order of jacobian_parameters */
  long nx;                          /* number of states, checked against this binary's */
  long fallbacks;                   /* Jacobians made by differences */
  nh_work* rhs_work;                /* allocated on first use */
  nh_work* jac_work;
  long nu;                          /* number of inputs, checked against this binary's */
  long u_points;                    /* rows of the input table (at least 1 if nu > 0) */
  const double* u_times;            /* increasing */
  const double* u_values;           /* row-major, u_points x nu */
  const double* m;                  /* the event memory (NH_NM values; the caller updates it at events) */
  nh_work* root_work;
  double u_now[NH_NU > 0 ? NH_NU : 1];  /* the inputs at the time of the last evaluation */
} nonholonomic_cvode_data;

/* the inputs at time t: linear between the table's rows, held beyond its ends */
static const double* nh_inputs(nonholonomic_cvode_data* d, double t) {
  long lo = 0, hi = d->u_points - 1, mid, i;
  double s;
  if (NH_NU == 0) return d->u_now;
  if (t <= d->u_times[0] || hi == 0) {
    for (i = 0; i < NH_NU; ++i) d->u_now[i] = d->u_values[i];
    return d->u_now;
  }
  if (t >= d->u_times[hi]) {
    for (i = 0; i < NH_NU; ++i) d->u_now[i] = d->u_values[hi * NH_NU + i];
    return d->u_now;
  }
  while (hi - lo > 1) {
    mid = (lo + hi) / 2;
    if (d->u_times[mid] <= t) lo = mid; else hi = mid;
  }
  s = (t - d->u_times[lo]) / (d->u_times[hi] - d->u_times[lo]);
  for (i = 0; i < NH_NU; ++i) d->u_now[i] = (1 - s) * d->u_values[lo * NH_NU + i] + s * d->u_values[hi * NH_NU + i];
  return d->u_now;
}

static int nh_check(const nonholonomic_cvode_data* d) {
  return d->nx == NH_NX && d->nu == NH_NU && (NH_NU == 0 || (d->u_points > 0 && d->u_times && d->u_values)) &&
         (NH_NM == 0 || d->m);
}

NH_EXPORT int nonholonomic_cvode_rhs(double t, void* y, void* ydot, void* user_data) {
  nonholonomic_cvode_data* d = (nonholonomic_cvode_data*)user_data;
  if (!nh_check(d)) return -1;
  if (!d->rhs_work && !(d->rhs_work = nh_work_new(nh_state_derivatives_work))) return -1;
  /* non-finite derivatives are passed on as fmpy's loop did: CVODE's tests then fail and it stops (a
     recoverable error instead makes it retry with ever smaller steps at a singular configuration) */
  return nh_eval(nh_state_derivatives, d->rhs_work, t, d->vector_data(y), d->p, nh_inputs(d, t), d->m,
                 d->vector_data(ydot), NH_NX) < 0 ? -1 : 0;
}

NH_EXPORT int nonholonomic_cvode_roots(double t, void* y, double* gout, void* user_data) {
  nonholonomic_cvode_data* d = (nonholonomic_cvode_data*)user_data;
  if (!nh_check(d)) return -1;
  if (!d->root_work && !(d->root_work = nh_work_new(nh_indicators_work))) return -1;
  return nh_eval(nh_indicators, d->root_work, t, d->vector_data(y), d->p, nh_inputs(d, t), d->m, gout, NH_NZ) < 0
             ? -1 : 0;
}

NH_EXPORT int nonholonomic_cvode_jacobian(double t, void* y, void* fy, void* J, void* user_data, void* tmp1,
                                          void* tmp2, void* tmp3) {
  nonholonomic_cvode_data* d = (nonholonomic_cvode_data*)user_data;
  const double *x = d->vector_data(y), *f0 = d->vector_data(fy), *u;
  double *jac = d->matrix_data(J), *shifted = d->vector_data(tmp1), h;
  long i, j;
  int flag;
  (void)tmp2; (void)tmp3;
  if (!nh_check(d)) return -1;
  if (!d->jac_work && !(d->jac_work = nh_work_new(nh_state_jacobian_work))) return -1;
  u = nh_inputs(d, t);
  flag = nh_eval(nh_state_jacobian, d->jac_work, t, x, d->p, u, d->m, jac, (long)NH_NX * NH_NX);
  if (flag <= 0) return flag;
  d->fallbacks++;
  if (!d->rhs_work && !(d->rhs_work = nh_work_new(nh_state_derivatives_work))) return -1;
  for (i = 0; i < NH_NX; ++i) shifted[i] = x[i];
  for (j = 0; j < NH_NX; ++j) {
    shifted[j] = x[j] + 1.5e-8 * (fabs(x[j]) > 1.0 ? fabs(x[j]) : 1.0);  /* sqrt(machine epsilon), relative */
    h = shifted[j] - x[j];
    if (nh_eval(nh_state_derivatives, d->rhs_work, t, shifted, d->p, u, d->m, jac + j * NH_NX, NH_NX)) return -1;
    for (i = 0; i < NH_NX; ++i) jac[j * NH_NX + i] = (jac[j * NH_NX + i] - f0[i]) / h;
    shifted[j] = x[j];
  }
  return 0;
}

NH_EXPORT int nonholonomic_outputs(long n, const double* t, const double* x, const double* p, const double* u,
                                   const double* m, double* y) {
  nh_work* k = nh_work_new(nh_outputs_work);
  long r;
  int flag = !k;
  for (r = 0; r < n && !flag; ++r)
    flag = nh_eval(nh_outputs, k, t[r], x + r * NH_NX, p, u + r * NH_NU, m + r * NH_NM, y + r * NH_NY, NH_NY) < 0;
  nh_work_free(k);
  return flag;
}

NH_EXPORT void nonholonomic_cvode_data_free(void* user_data) {
  nonholonomic_cvode_data* d = (nonholonomic_cvode_data*)user_data;
  nh_work_free(d->rhs_work);
  nh_work_free(d->jac_work);
  nh_work_free(d->root_work);
  d->rhs_work = d->jac_work = d->root_work = 0;
}
