/*
 * rosenbrock.h - self-contained stiff integrator (RODAS4 Rosenbrock method) for FMI 3.0 Co-Simulation.
 *
 * Plain C99, libc/libm only, reentrant (all state lives in the nh_ros object; no mutable globals).
 * See rosenbrock.c for the method, its coefficients and their source.
 */
#ifndef NH_ROSENBROCK_H
#define NH_ROSENBROCK_H

#ifdef __cplusplus
extern "C" {
#endif

/* Right-hand side xdot = f(t, x). Return 0 on success, nonzero on failure.
   A non-finite entry of xdot is also treated as failure. */
typedef int (*nh_ros_rhs)(void* ctx, double t, const double* x, double* xdot);
/* Exact Jacobian df/dx at (t, x), column-major n x n: jac[i + j*n] = df_i/dx_j. Return 0 on success. */
typedef int (*nh_ros_jac)(void* ctx, double t, const double* x, double* jac);

/* Called after each accepted step with its end point; nonzero stops the integration there. */
typedef int (*nh_ros_monitor)(void* ctx, double t, const double* x);

typedef struct nh_ros nh_ros; /* opaque: workspace + step-size memory + counters */

/* Return codes of nh_ros_integrate / nh_ros_integrate_fixed. */
#define NH_ROS_OK 0
#define NH_ROS_STOPPED 1         /* the monitor stopped the integration after an accepted step (*t_reached) */
#define NH_ROS_ERR_HMIN (-1)     /* step size underflow: h < 16 eps max(|t|, |t1|) after error test failures */
#define NH_ROS_ERR_MAXSTEPS (-2) /* more than NH_ROS_MAX_STEPS step attempts in one call */
#define NH_ROS_ERR_RHS (-3)      /* rhs or Jacobian evaluation failed (repeatedly, after step reductions) */
#define NH_ROS_ERR_SINGULAR (-4) /* iteration matrix singular (repeatedly, after step reductions) */
#define NH_ROS_ERR_ARG (-5)      /* invalid argument (t1 < t0, non-finite input, atol <= 0, rtol < 0, ...) */

#define NH_ROS_MAX_STEPS 500000L /* step attempts (accepted + rejected) per call */

nh_ros* nh_ros_new(long n); /* NULL on allocation failure or n < 1 */
void nh_ros_free(nh_ros* m);
void nh_ros_reset(nh_ros* m); /* forget the step size (after a discontinuity / re-initialisation) */
void nh_ros_set_monitor(nh_ros* m, nh_ros_monitor monitor); /* NULL: none (the default) */
/* The step-size memory (what the next call starts from), to save and restore with an FMU state: with it
   restored, a call repeats an earlier one bit for bit. */
#define NH_ROS_MEMORY 3
void nh_ros_get_memory(const nh_ros* m, double memory[NH_ROS_MEMORY]);
void nh_ros_set_memory(nh_ros* m, const double memory[NH_ROS_MEMORY]);

/* Integrate x from t0 to t1 (t1 >= t0; t1 == t0 does nothing) with error control.
   Error test: weighted RMS norm of the local error estimate with weights atol[i] + rtol*max(|x_i|, |x_i,new|) <= 1.
   h_max > 0 bounds the step (h_max <= 0 or non-finite: no bound besides t1 - t0).
   The step size is carried over between calls. The last step lands exactly on t1.
   Returns NH_ROS_OK or a negative NH_ROS_ERR_* code; on error x holds the last accepted state and
   *t_reached its time (on success *t_reached = t1). t_reached may be NULL. */
int nh_ros_integrate(nh_ros* m, nh_ros_rhs f, nh_ros_jac jac, void* ctx, double t0, double t1, double* x,
                     double rtol, const double* atol, double h_max, double* t_reached);

/* Test/verification hook: nsteps equal steps of the same RODAS4 step from t0 to t1, no error control
   (a step whose rhs/Jacobian fails or whose matrix is singular returns the error code at once). */
int nh_ros_integrate_fixed(nh_ros* m, nh_ros_rhs f, nh_ros_jac jac, void* ctx, double t0, double t1, double* x,
                           long nsteps, double* t_reached);

/* Counters accumulated since nh_ros_new: accepted steps, rejected steps, rhs evaluations,
   Jacobian evaluations, LU factorisations. Any pointer may be NULL. */
void nh_ros_stats(const nh_ros* m, long* steps, long* rejected, long* rhs, long* jacs, long* lus);

const char* nh_ros_message(int code); /* short text per return code */

#ifdef __cplusplus
}
#endif

#endif /* NH_ROSENBROCK_H */
