/*
 * fmi3_model.c - the FMI 3.0 C API (Model Exchange and Co-Simulation) of an ODE model with events
 *
 *     der(x) = f(t, x, p, u, m),   y = g(t, x, p, u, m),   x(t_start) = x0(p),   c = h(p)
 *
 * m is the memory of the events (discrete variables, relation values, condition values), constant between
 * events; z(t, x, p, u, m) are the event indicators (a relation may change its value where one changes sign).
 *
 * on top of the model functions generated with CasADi by the nonholonomic package. This file is the same
 * for every model; everything model specific comes from the generated header "nh_model.h" (sizes, value
 * references, start values, names, and via "nh_functions.h" the declarations of the generated functions).
 *
 * Plain C99, libc + libm only. Reentrant: all mutable data lives in the instance (no mutable globals);
 * instances may be used concurrently from different threads, one instance from one thread at a time.
 *
 * Contract with the generator (see nh_model.h):
 *   value references: 0 = time, then contiguous blocks p (NH_VR_P), c (NH_VR_C), x (NH_VR_X),
 *   der(x) (NH_VR_DX), u (NH_VR_U), y (NH_VR_Y), discrete variables (NH_VR_D, the first NH_ND of m),
 *   NH_NVR in total; all variables are scalar Float64.
 *   Generated functions (CasADi calling convention, every one with its f_work):
 *     nh_model(t, x, p, u, m) -> (xdot, y)          nh_state_derivatives(t, x, p, u, m) -> xdot
 *     nh_state_jacobian(t, x, p, u, m) -> J (dense, column-major, nx x nx)
 *     nh_initial_state(p) -> x0                       nh_calculated(p) -> c
 *     nh_assertions(p) -> ok (1 where the model's assert on parameters holds; checked at fmi3ExitInitializationMode)
 *     nh_forward(t, x, p, u, m, dx, dp, du) -> (dxdot, dy)
 *     nh_adjoint(t, x, p, u, m, bxdot, by) -> (bx, bp, bu)
 *     nh_initial_memory(p) -> m0 (start values of the discrete variables, then zeros)
 *     nh_indicators(t, x, p, u, m) -> z (NH_NZ)
 *     nh_event(t, x, p, u, m, ticks, initial, fire) -> (m', x', end): one event iteration; end is 1 + the
 *       index of the run's end that fired (nh_end_messages: terminate(), or an assert on time-varying variables,
 *       nh_end_failure, that fails the run at the event with its message), 0 for none
 *   Time events: the NH_NK sample clocks tick at nh_clock_phase[k] + i nh_clock_period[k]; nh_time_events
 *   lists the NH_NTE instants of conditions on time.
 *   Optional macro: NH_CS_HAS_EVENT_MODE (default 0) must equal the attribute hasEventMode of the
 *   <CoSimulation> element of the model description (see "Event Mode in Co-Simulation" below).
 *
 * State machine (FMI 3.0, sections 2.3, 3.2, 4.2); calls outside the listed modes log and return fmi3Error,
 * and a refused call changes nothing (the instance stays in its mode):
 *   any mode:            fmi3GetVersion, fmi3SetDebugLogging, fmi3Reset, fmi3FreeInstance,
 *                        fmi3GetFloat64 (Instantiated: start values; der(x) and outputs are evaluated),
 *                        fmi3GetNominalsOfContinuousStates (ME; constants)
 *   Instantiated:        fmi3EnterInitializationMode
 *   InitializationMode:  fmi3ExitInitializationMode (ME -> EventMode, CS -> StepMode, or EventMode if
 *                        eventModeUsed)
 *   EventMode:           fmi3UpdateDiscreteStates (the whole event iteration: discreteStatesNeedUpdate false),
 *                        fmi3EnterContinuousTimeMode (ME), fmi3EnterStepMode (CS)
 *   ContinuousTimeMode:  fmi3CompletedIntegratorStep, fmi3EnterEventMode (ME)
 *   EventMode, ContinuousTimeMode (ME): fmi3SetTime, fmi3SetContinuousStates
 *   InitializationMode, EventMode, ContinuousTimeMode, Terminated (ME): fmi3GetContinuousStates,
 *                        fmi3GetContinuousStateDerivatives, fmi3GetEventIndicators
 *   ME, any mode:        fmi3GetNumberOfContinuousStates, fmi3GetNumberOfEventIndicators
 *   StepMode (CS):       fmi3DoStep, fmi3EnterEventMode (only if eventModeUsed)
 *   InitializationMode, EventMode, ContinuousTimeMode, StepMode: fmi3GetDirectionalDerivative,
 *                        fmi3GetAdjointDerivative
 *   EventMode, ContinuousTimeMode, StepMode: fmi3Terminate -> Terminated
 *   fmi3SetFloat64:      parameters with variability fixed: Instantiated, InitializationMode;
 *                        tunable parameters: also EventMode and StepMode;
 *                        inputs: any mode but Terminated; states (ME only): EventMode, ContinuousTimeMode;
 *                        time, calculated parameters, derivatives, outputs: never.
 *                        The whole call is validated first: a refused value reference sets nothing.
 *                        Non-finite values are refused.
 * Until fmi3ExitInitializationMode, x and c follow p: after a parameter change x = x0(p) and c = h(p) are
 * recomputed before the next read and at fmi3ExitInitializationMode. Afterwards a change of a tunable
 * parameter recomputes c only (the states are not re-initialised).
 * The model is evaluated lazily: der(x) (nh_state_derivatives) and y (nh_model) when read after a change.
 *
 * Events (Modelica 3, 8.6): at an event nh_event is repeated until m and x stop changing (at most
 * NH_MAX_EVENT_ITERATIONS times); where a clock ticks or at initialisation, once more with the ticks and
 * initial() false again. fmi3ExitInitializationMode computes m0(p), makes it consistent with the start
 * (nh_event with fire = 0: relations and equations without when hold, no when fires) and handles the event at
 * the start time (when initial(), clocks ticking then). A terminate() of the model makes
 * fmi3UpdateDiscreteStates / fmi3DoStep report terminateSimulation.
 *
 * Co-Simulation: fmi3DoStep integrates x over [t, t + h] with SUNDIALS CVODE (BDF, Newton with the exact
 * dense Jacobian nh_state_jacobian; linked in statically, its symbols hidden), set as the project's own loop
 * sets it (nonholonomic.cvode: nonlinear convergence coefficient 0.01, 4 Newton iterations; but at most
 * NH_CS_MAX_STEPS steps per call of CVODE, where a run crawling to a singularity would otherwise never return,
 * and no bound on the step size, which the loop sets from its stop time), the inputs held constant
 * over the step (FMI 3 has no input derivatives), rtol = tolerance of fmi3EnterInitializationMode
 * (NH_DEFAULT_TOLERANCE if none), atol_i = rtol * nominal(x_i). CVODE keeps its history (order, step size,
 * Jacobian) across communication points: it steps past a communication point and interpolates back, as
 * the project's loop does at its output times, so a co-simulation takes the steps of the project's loop.
 * It starts afresh at fmi3ExitInitializationMode, fmi3Reset, after an event, after a change of the value of a
 * parameter or an input, and where an FMU state is taken or restored (its history is not part of the state:
 * a run restored from a state then repeats the original one bit for bit). It never steps past a time event.
 * The importer's stopTime does not change the steps (importers that differ only there, one defining it and
 * the other not, get the same results). State events: CVODE's root finding on the event indicators locates the sign
 * change; the event is handled there and the integration goes on within the same fmi3DoStep. If the
 * integration fails, x and t are CVODE's last point, *lastSuccessfulTime is that time, the reason (CVODE's
 * flag) and the state are logged in one line and fmi3Error returned. The FMU never returns early
 * (earlyReturnAllowed is ignored) and refuses to step past a defined stopTime. requiredIntermediateVariables
 * are ignored (no intermediate update).
 *
 * Event Mode in Co-Simulation: the FMU handles its events inside fmi3DoStep, so Event Mode is trivial. The
 * standard allows eventModeUsed = true only if the model description declares
 * hasEventMode = "true"; NH_CS_HAS_EVENT_MODE states what the model description declares. With 0 (default)
 * fmi3InstantiateCoSimulation refuses eventModeUsed = true (log, NULL); with 1 it is accepted and
 * fmi3ExitInitializationMode / fmi3EnterEventMode lead to Event Mode, fmi3EnterStepMode back to Step Mode.
 *
 * fmi3Reset returns to Instantiated with the start values of p and u, x = x0(p_start), c = h(p_start),
 * t = 0, the default tolerance, no stop time; the logging setting and the instantiation arguments are kept.
 *
 * Not supported (fmi3Error, declared so in the model description):
 * configuration mode, variable dependencies, fmi3EvaluateDiscreteStates, output derivatives, Scheduled
 * Execution, fmi3ActivateModelPartition. Typed getters and setters other than Float64, clocks, intervals and
 * shifts: fmi3OK for zero value references (nothing to do), else fmi3Error (there are no such variables).
 *
 * Logging: errors always go to logMessage (when it is non-NULL), with category "logStatusError" and a
 * one-line message "<instance>: <function>: <reason>"; warnings only when logging is on
 * ("logStatusWarning"). The model description should declare these two log categories.
 *
 * Build (the generated functions, solver_entry.c and this file, with SUNDIALS' CVODES, into one shared
 * library; fmu_export.py and sundials.py), e.g.
 *   gcc -std=c99 -fPIC -O2 -fvisibility=hidden -shared -I<fmi3 headers> -I<SUNDIALS headers> fmi3_model.c
 *       solver_entry.c nh_functions.c libcvodes.a -lm
 * Compiling with -fvisibility=hidden (and -DCASADI_SYMBOL_EXPORT=) leaves only the fmi3 functions and the
 * nonholonomic_* entries exported.
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmi3Functions.h"
#include "nh_model.h"
#include <cvodes/cvodes.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#ifndef NH_CS_HAS_EVENT_MODE
#define NH_CS_HAS_EVENT_MODE 0
#endif

#if defined(__GNUC__)
#define NH_PRINTF(f, a) __attribute__((format(printf, f, a))) /* compiler checks of the log formats */
#else
#define NH_PRINTF(f, a)
#endif

/* ---- sizes ---- */

#define NH_DIM(n) ((n) > 0 ? (n) : 1) /* arrays never have size 0 */
#define NH_LOG_LEN 512                /* longest log message (longer ones are truncated) */
#define NH_MIN_ARG 8                  /* most inputs of a generated function (nh_forward, nh_event) */
#define NH_MAX_EVENT_ITERATIONS 100   /* event iterations before an event is declared not to converge */
#define NH_MIN_RES 3                  /* most outputs (nh_adjoint) */
#define NH_CS_MAX_STEPS 500000L       /* CVODE's steps in one call (up to an event or the step's end); more: an error */

/* ---- modes (bit flags, so that a set of allowed modes is a mask) ---- */

#define M_INSTANTIATED 0x01u
#define M_INITIALIZATION 0x02u
#define M_EVENT 0x04u
#define M_CONTINUOUS_TIME 0x08u
#define M_STEP 0x10u
#define M_TERMINATED 0x20u
#define M_ANY 0x3Fu

/* interfaces (bit flags as well) */
#define IF_ME 0x1u
#define IF_CS 0x2u
#define IF_ANY 0x3u

/* classes of value references */
typedef enum { VR_TIME, VR_P, VR_C, VR_X, VR_DX, VR_U, VR_Y, VR_D, VR_Z, VR_INVALID } vr_class;

typedef int (*nh_fn)(const casadi_real** arg, casadi_real** res, casadi_int* iw, casadi_real* w, int mem);
typedef int (*nh_fn_work)(casadi_int* sz_arg, casadi_int* sz_res, casadi_int* sz_iw, casadi_int* sz_w);

typedef struct {
    char* name; /* copy of instanceName */
    fmi3LogMessageCallback log;
    fmi3InstanceEnvironment env;
    int logging_on;
    unsigned iface;      /* IF_ME or IF_CS */
    unsigned mode;       /* one of M_* */
    int event_mode_used; /* CS only */

    double t;
    double tolerance; /* relative tolerance of the CS integrator */
    int stop_defined;
    double t_stop;

    double p[NH_DIM(NH_NP)];
    double c[NH_DIM(NH_NC)];
    double x[NH_DIM(NH_NX)];
    double xdot[NH_DIM(NH_NX)];
    double u[NH_DIM(NH_NU)];
    double y[NH_DIM(NH_NY)];
    double atol[NH_DIM(NH_NX)];

    /* events */
    double m[NH_DIM(NH_NM)];        /* memory: discrete variables, relation values, condition values */
    double m_new[NH_DIM(NH_NM)];    /* scratch of the event iteration */
    double x_new[NH_DIM(NH_NX)];
    double z_new[NH_DIM(NH_NZ)];    /* the indicators, when read */
    long clock_next[NH_DIM(NH_NK)]; /* index i of the next tick of each clock */
    int time_event_next;            /* index of the next entry of nh_time_events */
    int terminate_requested;        /* a terminate() of the model fired */

    int params_dirty; /* c (and, before the end of initialisation, x) must be recomputed from p */
    int xdot_dirty;   /* xdot is out of date */
    int y_dirty;      /* y is out of date */

    /* scratch for directional / adjoint derivatives */
    double dx[NH_DIM(NH_NX)], dp[NH_DIM(NH_NP)], du[NH_DIM(NH_NU)];
    double dxdot[NH_DIM(NH_NX)], dy[NH_DIM(NH_NY)];

    /* CS with NH_NX > 0 only: CVODE and its objects (NULL otherwise), and whether it runs, i.e. holds the
       history of the steps up to the current time (else the next fmi3DoStep starts it afresh from t, x) */
    SUNContext cv_context;
    void* cv;
    N_Vector cv_y, cv_atol;
    SUNMatrix cv_matrix;
    SUNLinearSolver cv_solver;
    int cv_running;
    long cv_counts[5]; /* counters of the runs before the last restart (CVodeReInit clears them) */

    /* work arrays of the generated functions, sized for the largest of them */
    const casadi_real** arg;
    casadi_real** res;
    casadi_int* iw;
    casadi_real* w;
} Instance;

/* =====================================================================================================
 * Logging
 * ===================================================================================================== */

static const char* status_category(fmi3Status status) {
    switch (status) {
    case fmi3OK: return "logStatusOK";
    case fmi3Warning: return "logStatusWarning";
    case fmi3Discard: return "logStatusDiscard";
    case fmi3Error: return "logStatusError";
    default: return "logStatusFatal";
    }
}

/* Format "<name>: <func>: <message>" and pass it to the callback (if any). */
static void log_va(fmi3LogMessageCallback cb, fmi3InstanceEnvironment env, fmi3Status status, const char* name,
                   const char* func, const char* fmt, va_list ap) {
    char msg[NH_LOG_LEN];
    int len;
    if (!cb) return;
    len = snprintf(msg, sizeof msg, "%s: %s: ", name ? name : "?", func);
    if (len < 0) len = 0;
    if ((size_t)len < sizeof msg) vsnprintf(msg + len, sizeof msg - (size_t)len, fmt, ap);
    cb(env, status, status_category(status), msg);
}

/* Log an error (always) and return fmi3Error. */
static fmi3Status log_error(const Instance* S, const char* func, const char* fmt, ...) NH_PRINTF(3, 4);
static fmi3Status log_error(const Instance* S, const char* func, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    log_va(S->log, S->env, fmi3Error, S->name, func, fmt, ap);
    va_end(ap);
    return fmi3Error;
}

/* Log a warning if logging is on. */
static void log_warning(const Instance* S, const char* func, const char* fmt, ...) NH_PRINTF(3, 4);
static void log_warning(const Instance* S, const char* func, const char* fmt, ...) {
    va_list ap;
    if (!S->logging_on) return;
    va_start(ap, fmt);
    log_va(S->log, S->env, fmi3Warning, S->name, func, fmt, ap);
    va_end(ap);
}

/* Log an error before an instance exists (instantiation). */
static void log_early(fmi3LogMessageCallback cb, fmi3InstanceEnvironment env, const char* name, const char* func,
                      const char* fmt, ...) NH_PRINTF(5, 6);
static void log_early(fmi3LogMessageCallback cb, fmi3InstanceEnvironment env, const char* name, const char* func,
                      const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    log_va(cb, env, fmi3Error, name, func, fmt, ap);
    va_end(ap);
}

static const char* mode_name(unsigned mode) {
    switch (mode) {
    case M_INSTANTIATED: return "Instantiated";
    case M_INITIALIZATION: return "Initialization Mode";
    case M_EVENT: return "Event Mode";
    case M_CONTINUOUS_TIME: return "Continuous-Time Mode";
    case M_STEP: return "Step Mode";
    case M_TERMINATED: return "Terminated";
    default: return "an unknown mode";
    }
}

/* =====================================================================================================
 * Checks shared by the API functions
 * ===================================================================================================== */

/* The instance if the call is allowed for its interface and in its mode; else log and NULL. */
static Instance* enter(fmi3Instance instance, const char* func, unsigned modes, unsigned ifaces) {
    Instance* S = (Instance*)instance;
    if (!S) return NULL; /* nothing to log with */
    if (!(S->iface & ifaces)) {
        log_error(S, func, "not available in %s", S->iface == IF_ME ? "Model Exchange" : "Co-Simulation");
        return NULL;
    }
    if (!(S->mode & modes)) {
        log_error(S, func, "not allowed in %s", mode_name(S->mode));
        return NULL;
    }
    return S;
}

/* A pointer the function must read or write is NULL. */
static int null_arg(const Instance* S, const char* func, const void* ptr, const char* what) {
    if (ptr) return 0;
    log_error(S, func, "argument %s is NULL", what);
    return 1;
}

/* Vector argument of the continuous-state functions: length must be NH_NX, pointer valid if NH_NX > 0. */
static int bad_state_vector(const Instance* S, const char* func, const void* ptr, size_t n, const char* what) {
    if (n != (size_t)NH_NX) {
        log_error(S, func, "%s has %lu elements, the model has %d continuous states", what, (unsigned long)n,
                  NH_NX);
        return 1;
    }
    return n > 0 && null_arg(S, func, ptr, what);
}

static vr_class classify(fmi3ValueReference vr) {
    if (vr == 0) return VR_TIME;
    if (vr < (fmi3ValueReference)NH_VR_C) return VR_P;
    if (vr < (fmi3ValueReference)NH_VR_X) return VR_C;
    if (vr < (fmi3ValueReference)NH_VR_DX) return VR_X;
    if (vr < (fmi3ValueReference)NH_VR_U) return VR_DX;
    if (vr < (fmi3ValueReference)NH_VR_Y) return VR_U;
    if (vr < (fmi3ValueReference)NH_VR_D) return VR_Y;
    if (vr < (fmi3ValueReference)NH_VR_Z) return VR_D;
    if (vr < (fmi3ValueReference)NH_NVR) return VR_Z;
    return VR_INVALID;
}

static const char* vr_name(fmi3ValueReference vr) {
    return vr < (fmi3ValueReference)NH_NVR ? nh_names[vr] : "?";
}

/* Nominal value of state i (> 0 as the standard requires; 1 if the generated one is unusable). */
static double nominal(int i) {
    double v = nh_x_nominal[i];
    if (!isfinite(v) || v == 0.0) return 1.0;
    return fabs(v);
}

/* Typed getters/setters, clocks, intervals, shifts: there are no variables of that kind. */
static fmi3Status no_variables(fmi3Instance instance, const char* func, const char* kind, size_t n) {
    Instance* S = (Instance*)instance;
    if (!S) return fmi3Error;
    if (n == 0) return fmi3OK;
    return log_error(S, func, "no variable of type %s (all are Float64)", kind);
}

static fmi3Status not_supported(fmi3Instance instance, const char* func) {
    Instance* S = (Instance*)instance;
    if (!S) return fmi3Error;
    return log_error(S, func, "not supported by this FMU");
}

/* =====================================================================================================
 * Calls of the generated functions
 * ===================================================================================================== */

/* Evaluate f with n_in inputs and n_out outputs (output k has out_n[k] elements, zeroed first since
   CasADi writes only structural non-zeros). Returns the function's flag (0 = success). */
static int call(Instance* S, nh_fn f, int n_in, const double* const* in, int n_out, double* const* out,
                const int* out_n) {
    int k;
    for (k = 0; k < n_out; ++k)
        if (out_n[k] > 0) memset(out[k], 0, (size_t)out_n[k] * sizeof(double));
    for (k = 0; k < n_in; ++k) S->arg[k] = in[k];
    for (k = 0; k < n_out; ++k) S->res[k] = out[k];
    return f(S->arg, S->res, S->iw, S->w, 0);
}

/* The model's assert()s on parameters: an error naming the first that fails. */
static fmi3Status check_assertions(Instance* S, const char* func) {
    double ok[NH_NA + 1];
    const double* in[1];
    double* out[1];
    int n[1], k;
    in[0] = S->p;
    out[0] = ok;
    n[0] = NH_NA;
    if (NH_NA == 0) return fmi3OK;
    if (call(S, nh_assertions, 1, in, 1, out, n)) return log_error(S, func, "evaluation of the assertions failed");
    for (k = 0; k < NH_NA; ++k)
        if (!(ok[k] > 0.5)) return log_error(S, func, "assertion failed: %s", nh_assertion_messages[k]);
    return fmi3OK;
}

/* Bring c - and before the end of initialisation x = x0(p) - up to date with p. */
static fmi3Status refresh_parameters(Instance* S, const char* func) {
    const double* in[1];
    double* out[1];
    int n[1];
    if (!S->params_dirty) return fmi3OK;
    in[0] = S->p;
    out[0] = S->c;
    n[0] = NH_NC;
    if (call(S, nh_calculated, 1, in, 1, out, n))
        return log_error(S, func, "evaluation of the calculated parameters failed");
    if (S->mode & (M_INSTANTIATED | M_INITIALIZATION)) {
        out[0] = S->x;
        n[0] = NH_NX;
        if (call(S, nh_initial_state, 1, in, 1, out, n))
            return log_error(S, func, "evaluation of the initial state failed");
    }
    S->params_dirty = 0;
    S->xdot_dirty = S->y_dirty = 1;
    return fmi3OK;
}

/* Is some of the n values v (value references from vr) NaN or infinite? Logs the first with the time and the
   state's largest magnitude (what an importer's integrator may have driven there) and returns 1: an importer
   never gets a non-finite derivative, output or event indicator with status OK. */
static int not_finite(const Instance* S, const char* func, const double* v, int n, int vr) {
    int i, k;
    double largest = 0.0;
    for (i = 0; i < n && isfinite(v[i]); ++i) {
    }
    if (i == n) return 0;
    for (k = 0; k < NH_NX; ++k)
        if (!(fabs(S->x[k]) <= largest)) largest = fabs(S->x[k]);
    log_error(S, func, "%s = %g at t = %.17g (the state's largest magnitude: %g)",
              vr_name((fmi3ValueReference)(vr + i)), v[i], S->t, largest);
    return 1;
}

/* Bring xdot (and y if need_y) up to date. */
static fmi3Status evaluate(Instance* S, const char* func, int need_y) {
    const double* in[5];
    double* out[2];
    int n[2];
    if (refresh_parameters(S, func) != fmi3OK) return fmi3Error;
    in[0] = &S->t;
    in[1] = S->x;
    in[2] = S->p;
    in[3] = S->u;
    in[4] = S->m;
    out[0] = S->xdot;
    out[1] = S->y;
    n[0] = NH_NX;
    n[1] = NH_NY;
    if (need_y && S->y_dirty) {
        if (call(S, nh_model, 5, in, 2, out, n)) return log_error(S, func, "model evaluation failed at t = %.17g", S->t);
        if (not_finite(S, func, S->xdot, NH_NX, NH_VR_DX) || not_finite(S, func, S->y, NH_NY, NH_VR_Y))
            return fmi3Error;
        S->xdot_dirty = S->y_dirty = 0;
    } else if (S->xdot_dirty) {
        if (call(S, nh_state_derivatives, 5, in, 1, out, n))
            return log_error(S, func, "evaluation of the state derivatives failed at t = %.17g", S->t);
        if (not_finite(S, func, S->xdot, NH_NX, NH_VR_DX)) return fmi3Error;
        S->xdot_dirty = 0;
    }
    return fmi3OK;
}

static void mark_dirty(Instance* S) {
    S->xdot_dirty = S->y_dirty = 1;
}

/* out (n_out values) = f(t, x, p, u, m) for a generated function of the model with one output. */
static int call_at(Instance* S, nh_fn f, double t, const double* x, double* out, int n_out) {
    const double* in[5];
    double* res[1];
    int n[1];
    in[0] = &t;
    in[1] = x;
    in[2] = S->p;
    in[3] = S->u;
    in[4] = S->m;
    res[0] = out;
    n[0] = n_out;
    return call(S, f, 5, in, 1, res, n);
}

/* CVODE's right-hand side, exact Jacobian (dense, column-major like the generated one) and roots (the event
   indicators), the inputs held over the step. A failed evaluation stops CVODE (-1); non-finite derivatives
   or Jacobian entries are a recoverable failure (1): CVODE retries with a smaller step, and says so if that
   does not help. */
static int finite_all(const double* v, long n) {
    long i;
    for (i = 0; i < n; ++i)
        if (!isfinite(v[i])) return 0;
    return 1;
}

static int cv_rhs(sunrealtype t, N_Vector y, N_Vector ydot, void* user) {
    double* out = N_VGetArrayPointer(ydot);
    if (call_at((Instance*)user, nh_state_derivatives, t, N_VGetArrayPointer(y), out, NH_NX)) return -1;
    return finite_all(out, NH_NX) ? 0 : 1;
}

static int cv_jac(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void* user, N_Vector t1, N_Vector t2,
                  N_Vector t3) {
    double* out = SUNDenseMatrix_Data(J);
    (void)fy;
    (void)t1;
    (void)t2;
    (void)t3;
    if (call_at((Instance*)user, nh_state_jacobian, t, N_VGetArrayPointer(y), out, NH_NX * NH_NX)) return -1;
    return finite_all(out, (long)NH_NX * NH_NX) ? 0 : 1;
}

/* =====================================================================================================
 * Events
 * ===================================================================================================== */

/* The indicators z(t, x, p, u, m) into z. Returns the function's flag. */
static int indicators(Instance* S, double t, const double* x, double* z) {
    return call_at(S, nh_indicators, t, x, z, NH_NZ);
}

static int cv_roots(sunrealtype t, N_Vector y, sunrealtype* z, void* user) {
    return indicators((Instance*)user, t, N_VGetArrayPointer(y), z) ? -1 : 0;
}

/* a and b are one instant (time events are met by the importer's arithmetic on the reported times) */
static int same_time(double a, double b) {
    double scale = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return fabs(a - b) <= 64.0 * DBL_EPSILON * (scale > 1.0 ? scale : 1.0);
}

static double clock_time(int k, long i) {
    return nh_clock_phase[k] + (double)i * nh_clock_period[k];
}

/* The next time event after the current time (clocks and instants of conditions on time), if any. */
static int next_time_event(const Instance* S, double* when) {
    int k, defined = 0;
    double t = 0.0;
    for (k = 0; k < NH_NK; ++k) {
        double tk = clock_time(k, S->clock_next[k]);
        if (!defined || tk < t) t = tk;
        defined = 1;
    }
    if (S->time_event_next < NH_NTE) {
        double te = nh_time_events[S->time_event_next];
        if (!defined || te < t) t = te;
        defined = 1;
    }
    *when = t;
    return defined;
}

/* Event iterations with the given ticks, initial() and fire until m and x stop changing; *jumped is set where
   either changed. */
static fmi3Status iterate(Instance* S, const char* func, const double* ticks, double initial, double fire,
                          int* jumped) {
    const double* in[8];
    double* out[3];
    int n[3], it, i, changed;
    double stop = 0.0;
    in[0] = &S->t;
    in[1] = S->x;
    in[2] = S->p;
    in[3] = S->u;
    in[4] = S->m;
    in[5] = ticks;
    in[6] = &initial;
    in[7] = &fire;
    out[0] = S->m_new;
    out[1] = S->x_new;
    out[2] = &stop;
    n[0] = NH_NM;
    n[1] = NH_NX;
    n[2] = 1;
    for (it = 0; it < NH_MAX_EVENT_ITERATIONS; ++it) {
        if (call(S, nh_event, 8, in, 3, out, n))
            return log_error(S, func, "evaluation of the event at t = %.17g failed", S->t);
        changed = 0;
        for (i = 0; i < NH_NM; ++i) {
            if (!isfinite(S->m_new[i]))
                return log_error(S, func, "a discrete value is not finite after the event at t = %.17g", S->t);
            if (S->m_new[i] != S->m[i]) changed = *jumped = 1;
            S->m[i] = S->m_new[i];
        }
        for (i = 0; i < NH_NX; ++i) {
            if (!isfinite(S->x_new[i]))
                return log_error(S, func, "reinit gives the state %s a non-finite value at t = %.17g",
                                 nh_names[NH_VR_X + i], S->t);
            if (S->x_new[i] != S->x[i]) changed = *jumped = 1;
            S->x[i] = S->x_new[i];
        }
        if (stop > 0.5) { /* 1 + the index of the end that fired: a terminate(), or a failed assert */
            int k = (int)(stop - 0.5);
            if (k >= NH_NE) k = NH_NE > 0 ? NH_NE - 1 : 0;
            if (nh_end_failure[k])
                return log_error(S, func, "the model leaves its domain at t = %.9g s: %s", S->t, nh_end_messages[k]);
            if (!S->terminate_requested) {
                S->terminate_requested = 1;
                log_warning(S, func, "the model calls terminate() at t = %.17g: %s", S->t, nh_end_messages[k]);
            }
        }
        mark_dirty(S);
        if (!changed) return fmi3OK;
    }
    return log_error(S, func, "the event iteration at t = %.17g does not converge in %d iterations (discrete "
                     "values keep changing)", S->t, NH_MAX_EVENT_ITERATIONS);
}

/* The event at the current time: clocks due tick, time events due pass, the event iterations run (and once
   more without the ticks and initial() where any was true). */
static fmi3Status handle_event(Instance* S, const char* func, int initial, int* jumped) {
    double ticks[NH_DIM(NH_NK)];
    int k, any = initial;
    for (k = 0; k < NH_NK; ++k) {
        ticks[k] = 0.0;
        if (same_time(S->t, clock_time(k, S->clock_next[k])) || clock_time(k, S->clock_next[k]) < S->t) {
            ticks[k] = 1.0;
            any = 1;
            while (clock_time(k, S->clock_next[k]) <= S->t || same_time(S->t, clock_time(k, S->clock_next[k])))
                S->clock_next[k]++;
        }
    }
    while (S->time_event_next < NH_NTE && (nh_time_events[S->time_event_next] <= S->t ||
                                           same_time(S->t, nh_time_events[S->time_event_next])))
        S->time_event_next++;
    if (iterate(S, func, ticks, initial ? 1.0 : 0.0, 1.0, jumped) != fmi3OK) return fmi3Error;
    if (!any) return fmi3OK;
    for (k = 0; k < NH_NK; ++k) ticks[k] = 0.0;
    return iterate(S, func, ticks, 0.0, 1.0, jumped);
}

/* m = m0(p): the discrete variables' start values, relations and conditions false. */
static fmi3Status initial_memory(Instance* S, const char* func) {
    const double* in[1];
    double* out[1];
    int n[1];
    in[0] = S->p;
    out[0] = S->m;
    n[0] = NH_NM;
    if (call(S, nh_initial_memory, 1, in, 1, out, n))
        return log_error(S, func, "evaluation of the discrete start values failed");
    return fmi3OK;
}

/* At the end of initialisation: m0(p), made consistent with the start, then the event at the start time. */
static fmi3Status start_events(Instance* S, const char* func) {
    double ticks[NH_DIM(NH_NK)];
    int k, jumped = 0;
    if (initial_memory(S, func) != fmi3OK) return fmi3Error;
    for (k = 0; k < NH_NK; ++k) { /* the first tick at or after the start */
        double i = ceil((S->t - nh_clock_phase[k]) / nh_clock_period[k]);
        S->clock_next[k] = i > 0.0 ? (long)i : 0;
        while (S->clock_next[k] > 0 && same_time(S->t, clock_time(k, S->clock_next[k] - 1))) S->clock_next[k]--;
        ticks[k] = 0.0;
    }
    for (S->time_event_next = 0;
         S->time_event_next < NH_NTE && nh_time_events[S->time_event_next] < S->t &&
         !same_time(S->t, nh_time_events[S->time_event_next]);
         S->time_event_next++) {
    }
    S->terminate_requested = 0;
    if (iterate(S, func, ticks, 0.0, 0.0, &jumped) != fmi3OK) return fmi3Error;
    return handle_event(S, func, 1, &jumped);
}

/* Non-FMI entry for the project's integrator (nonholonomic.cvode): the memory m of an instance. */
#if defined(_WIN32)
#define NH_ENTRY __declspec(dllexport)
#else
#define NH_ENTRY __attribute__((visibility("default")))
#endif
NH_ENTRY int nonholonomic_memory(fmi3Instance instance, double* m) {
    Instance* S = (Instance*)instance;
    if (!S || (NH_NM > 0 && !m)) return 1;
    if (NH_NM > 0) memcpy(m, S->m, (size_t)NH_NM * sizeof(double));
    return 0;
}

/* fmi3DoStep's CVODE counters since the instance was created (restarts included): steps, error test
   failures, rhs evaluations, Jacobians, LU factorisations (linear solver setups). */
static void cv_counters(const Instance* S, long out[5]) {
    long now[5] = {0, 0, 0, 0, 0};
    int k;
    if (S->cv) {
        CVodeGetNumSteps(S->cv, &now[0]);
        CVodeGetNumErrTestFails(S->cv, &now[1]);
        CVodeGetNumRhsEvals(S->cv, &now[2]);
        CVodeGetNumJacEvals(S->cv, &now[3]);
        CVodeGetNumLinSolvSetups(S->cv, &now[4]);
    }
    for (k = 0; k < 5; ++k) out[k] = S->cv_counts[k] + now[k];
}

/* Non-FMI entries for tests and the benchmark: the steps of fmi3DoStep's integrator since the instance was
   created (from which a bound of its global error follows), and all five counters of cv_counters. */
NH_ENTRY long nonholonomic_cs_steps(fmi3Instance instance) {
    long counts[5] = {0, 0, 0, 0, 0};
    if (instance) cv_counters((Instance*)instance, counts);
    return counts[0];
}

NH_ENTRY int nonholonomic_cs_statistics(fmi3Instance instance, long* counts) {
    if (!instance || !counts) return 1;
    cv_counters((Instance*)instance, counts);
    return 0;
}

/* CVODE (BDF, Newton with the dense exact Jacobian; the settings of the project's own loop, nonholonomic.cvode)
   for fmi3DoStep: created once per instance, started at t, x by cv_start. Returns nonzero if out of memory. */
static int cv_create(Instance* S) {
    if (SUNContext_Create(SUN_COMM_NULL, &S->cv_context) != 0) return 1;
    SUNContext_ClearErrHandlers(S->cv_context); /* no printing: a returned flag says what failed */
    S->cv_y = N_VNew_Serial(NH_NX, S->cv_context);
    S->cv_atol = N_VNew_Serial(NH_NX, S->cv_context);
    S->cv_matrix = SUNDenseMatrix(NH_NX, NH_NX, S->cv_context);
    S->cv = CVodeCreate(CV_BDF, S->cv_context);
    if (!S->cv_y || !S->cv_atol || !S->cv_matrix || !S->cv) return 1;
    S->cv_solver = SUNLinSol_Dense(S->cv_y, S->cv_matrix, S->cv_context);
    if (!S->cv_solver) return 1;
    memset(N_VGetArrayPointer(S->cv_y), 0, sizeof S->x);
    return CVodeInit(S->cv, cv_rhs, 0.0, S->cv_y) || CVodeSetUserData(S->cv, S) ||
           CVodeSetLinearSolver(S->cv, S->cv_solver, S->cv_matrix) || CVodeSetJacFn(S->cv, cv_jac) ||
           CVodeSetNonlinConvCoef(S->cv, 0.01) || CVodeSetMaxNonlinIters(S->cv, 4) ||
           CVodeSetMaxNumSteps(S->cv, NH_CS_MAX_STEPS) || CVodeSetMaxHnilWarns(S->cv, -1) ||
           (NH_NZ > 0 && (CVodeRootInit(S->cv, NH_NZ, cv_roots) || CVodeSetNoInactiveRootWarn(S->cv)));
}

static void cv_free(Instance* S) {
    if (S->cv) CVodeFree(&S->cv);
    if (S->cv_solver) SUNLinSolFree(S->cv_solver);
    if (S->cv_matrix) SUNMatDestroy(S->cv_matrix);
    if (S->cv_y) N_VDestroy(S->cv_y);
    if (S->cv_atol) N_VDestroy(S->cv_atol);
    if (S->cv_context) SUNContext_Free(&S->cv_context);
}

/* CVODE afresh from the current t and x with the tolerances of the instance. No bound on the step (the project's
   loop bounds it by a fiftieth of its run): an importer's stop time, which some give and others do not
   (fmusim), does not change the steps. */
static fmi3Status cv_start(Instance* S, const char* func) {
    double* atol = N_VGetArrayPointer(S->cv_atol);
    long now[5];
    cv_counters(S, now);
    memcpy(S->cv_counts, now, sizeof now);
    memcpy(N_VGetArrayPointer(S->cv_y), S->x, sizeof S->x);
    memcpy(atol, S->atol, sizeof S->atol);
    if (CVodeReInit(S->cv, S->t, S->cv_y) || CVodeSVtolerances(S->cv, S->tolerance, S->cv_atol))
        return log_error(S, func, "CVODE refused to start at t = %.17g", S->t);
    S->cv_running = 1;
    return fmi3OK;
}

/* "name = value, ..." of the states x (as many as fit into text, of size len) */
static const char* state_text(const double* x, char* text, size_t len) {
    size_t used = 0;
    int i;
    text[0] = '\0';
    for (i = 0; i < NH_NX && used + 1 < len; ++i) {
        int n = snprintf(text + used, len - used, "%s%s = %.17g", i ? ", " : "", nh_names[NH_VR_X + i], x[i]);
        if (n < 0) break;
        used += (size_t)n;
    }
    return text;
}

/* For the FMI 2.0 adapter fmi2_model.c (not exported): the instanceEnvironment given at instantiation. */
fmi3InstanceEnvironment nh_instance_environment(fmi3Instance instance) {
    return instance ? ((Instance*)instance)->env : NULL;
}

/* =====================================================================================================
 * Instance life cycle
 * ===================================================================================================== */

/* Enlarge *sz to the work sizes of one generated function. Returns nonzero if f_work fails. */
static int add_work(nh_fn_work f, casadi_int sz[4]) {
    casadi_int s[4] = {0, 0, 0, 0};
    int k;
    if (f(&s[0], &s[1], &s[2], &s[3])) return 1;
    for (k = 0; k < 4; ++k) {
        if (s[k] < 0) return 1;
        if (s[k] > sz[k]) sz[k] = s[k];
    }
    return 0;
}

static void free_instance(Instance* S) {
    if (!S) return;
    free(S->name);
    free((void*)S->arg);
    free(S->res);
    free(S->iw);
    free(S->w);
    cv_free(S);
    free(S);
}

/* Start values: p, u from the model description, x = x0(p), c = h(p), t = 0; mode Instantiated. */
static fmi3Status set_start_values(Instance* S, const char* func) {
    int i;
    for (i = 0; i < NH_NP; ++i) S->p[i] = nh_p_start[i];
    for (i = 0; i < NH_NU; ++i) S->u[i] = nh_u_start[i];
    S->mode = M_INSTANTIATED;
    S->t = 0.0;
    S->tolerance = NH_DEFAULT_TOLERANCE;
    S->stop_defined = 0;
    S->t_stop = 0.0;
    S->cv_running = 0;
    S->params_dirty = 1;
    S->terminate_requested = 0;
    mark_dirty(S);
    if (refresh_parameters(S, func) != fmi3OK) return fmi3Error;
    return initial_memory(S, func); /* the discrete variables' start values until the end of initialisation */
}

static Instance* instantiate(const char* func, unsigned iface, fmi3String instanceName,
                             fmi3String instantiationToken, fmi3Boolean loggingOn,
                             fmi3InstanceEnvironment env, fmi3LogMessageCallback logMessage) {
    Instance* S;
    casadi_int sz[4] = {NH_MIN_ARG, NH_MIN_RES, 0, 0};
    size_t len;
    const char* p;

    if (!instanceName) {
        log_early(logMessage, env, "?", func, "instanceName is NULL");
        return NULL;
    }
    for (p = instanceName; *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'; ++p) {
    }
    if (!*p) {
        log_early(logMessage, env, instanceName, func, "instanceName is empty");
        return NULL;
    }
    if (!instantiationToken || strcmp(instantiationToken, NH_INSTANTIATION_TOKEN) != 0) {
        log_early(logMessage, env, instanceName, func,
                  "instantiationToken %s does not match the binary's %s (model description and binary of "
                  "different models?)",
                  instantiationToken ? instantiationToken : "(NULL)", NH_INSTANTIATION_TOKEN);
        return NULL;
    }
    if (add_work(nh_model_work, sz) || add_work(nh_state_derivatives_work, sz) ||
        add_work(nh_state_jacobian_work, sz) || add_work(nh_initial_state_work, sz) ||
        add_work(nh_calculated_work, sz) || add_work(nh_forward_work, sz) || add_work(nh_adjoint_work, sz) ||
        add_work(nh_assertions_work, sz) || add_work(nh_initial_memory_work, sz) ||
        add_work(nh_indicators_work, sz) || add_work(nh_event_work, sz)) {
        log_early(logMessage, env, instanceName, func, "a generated function reports invalid work sizes");
        return NULL;
    }

    S = (Instance*)calloc(1, sizeof(Instance));
    if (!S) {
        log_early(logMessage, env, instanceName, func, "out of memory");
        return NULL;
    }
    len = strlen(instanceName);
    S->name = (char*)malloc(len + 1);
    S->arg = (const casadi_real**)malloc(((size_t)sz[0] + 1) * sizeof(casadi_real*));
    S->res = (casadi_real**)malloc(((size_t)sz[1] + 1) * sizeof(casadi_real*));
    S->iw = (casadi_int*)malloc(((size_t)sz[2] + 1) * sizeof(casadi_int));
    S->w = (casadi_real*)malloc(((size_t)sz[3] + 1) * sizeof(casadi_real));
    if (!S->name || !S->arg || !S->res || !S->iw || !S->w || (iface == IF_CS && NH_NX > 0 && cv_create(S))) {
        log_early(logMessage, env, instanceName, func, "out of memory");
        free_instance(S);
        return NULL;
    }
    memcpy(S->name, instanceName, len + 1);
    S->log = logMessage;
    S->env = env;
    S->logging_on = loggingOn ? 1 : 0;
    S->iface = iface;
    if (set_start_values(S, func) != fmi3OK) { /* logged */
        free_instance(S);
        return NULL;
    }
    return S;
}

/* =====================================================================================================
 * Common functions
 * ===================================================================================================== */

FMI3_Export const char* fmi3GetVersion(void) {
    return fmi3Version;
}

FMI3_Export fmi3Status fmi3SetDebugLogging(fmi3Instance instance, fmi3Boolean loggingOn, size_t nCategories,
                                           const fmi3String categories[]) {
    Instance* S = enter(instance, "fmi3SetDebugLogging", M_ANY, IF_ANY);
    (void)nCategories; /* categories are not distinguished */
    (void)categories;
    if (!S) return fmi3Error;
    S->logging_on = loggingOn ? 1 : 0;
    return fmi3OK;
}

FMI3_Export fmi3Instance fmi3InstantiateModelExchange(fmi3String instanceName, fmi3String instantiationToken,
                                                      fmi3String resourcePath, fmi3Boolean visible,
                                                      fmi3Boolean loggingOn, fmi3InstanceEnvironment instanceEnvironment,
                                                      fmi3LogMessageCallback logMessage) {
    (void)resourcePath; /* no resources */
    (void)visible;      /* no user interaction */
    return instantiate("fmi3InstantiateModelExchange", IF_ME, instanceName, instantiationToken, loggingOn,
                       instanceEnvironment, logMessage);
}

FMI3_Export fmi3Instance fmi3InstantiateCoSimulation(
    fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath, fmi3Boolean visible,
    fmi3Boolean loggingOn, fmi3Boolean eventModeUsed, fmi3Boolean earlyReturnAllowed,
    const fmi3ValueReference requiredIntermediateVariables[], size_t nRequiredIntermediateVariables,
    fmi3InstanceEnvironment instanceEnvironment, fmi3LogMessageCallback logMessage,
    fmi3IntermediateUpdateCallback intermediateUpdate) {
    static const char func[] = "fmi3InstantiateCoSimulation";
    Instance* S;
    (void)resourcePath;
    (void)visible;
    (void)earlyReturnAllowed; /* never returns early */
    (void)requiredIntermediateVariables;
    (void)intermediateUpdate; /* never called */
    if (eventModeUsed && !NH_CS_HAS_EVENT_MODE) {
        log_early(logMessage, instanceEnvironment, instanceName, func,
                  "eventModeUsed = true but the FMU declares hasEventMode = false (the model has no events)");
        return NULL;
    }
    S = instantiate(func, IF_CS, instanceName, instantiationToken, loggingOn, instanceEnvironment, logMessage);
    if (!S) return NULL;
    S->event_mode_used = eventModeUsed ? 1 : 0;
    if (nRequiredIntermediateVariables > 0)
        log_warning(S, func, "requiredIntermediateVariables ignored: the FMU provides no intermediate update");
    return S;
}

FMI3_Export fmi3Instance fmi3InstantiateScheduledExecution(
    fmi3String instanceName, fmi3String instantiationToken, fmi3String resourcePath, fmi3Boolean visible,
    fmi3Boolean loggingOn, fmi3InstanceEnvironment instanceEnvironment, fmi3LogMessageCallback logMessage,
    fmi3ClockUpdateCallback clockUpdate, fmi3LockPreemptionCallback lockPreemption,
    fmi3UnlockPreemptionCallback unlockPreemption) {
    (void)instantiationToken;
    (void)resourcePath;
    (void)visible;
    (void)loggingOn;
    (void)clockUpdate;
    (void)lockPreemption;
    (void)unlockPreemption;
    log_early(logMessage, instanceEnvironment, instanceName, "fmi3InstantiateScheduledExecution",
              "Scheduled Execution is not supported by this FMU");
    return NULL;
}

FMI3_Export void fmi3FreeInstance(fmi3Instance instance) {
    free_instance((Instance*)instance);
}

FMI3_Export fmi3Status fmi3EnterInitializationMode(fmi3Instance instance, fmi3Boolean toleranceDefined,
                                                   fmi3Float64 tolerance, fmi3Float64 startTime,
                                                   fmi3Boolean stopTimeDefined, fmi3Float64 stopTime) {
    static const char func[] = "fmi3EnterInitializationMode";
    Instance* S = enter(instance, func, M_INSTANTIATED, IF_ANY);
    if (!S) return fmi3Error;
    if (toleranceDefined && !(tolerance > 0.0 && isfinite(tolerance)))
        return log_error(S, func, "tolerance = %g must be positive and finite", tolerance);
    if (!isfinite(startTime)) return log_error(S, func, "startTime is not finite");
    if (stopTimeDefined && !(stopTime >= startTime)) /* also catches NaN */
        return log_error(S, func, "stopTime = %.17g is before startTime = %.17g", stopTime, startTime);
    S->tolerance = toleranceDefined ? tolerance : NH_DEFAULT_TOLERANCE;
    S->stop_defined = stopTimeDefined ? 1 : 0;
    S->t_stop = stopTimeDefined ? stopTime : 0.0;
    S->t = startTime;
    S->mode = M_INITIALIZATION;
    mark_dirty(S);
    return fmi3OK;
}

FMI3_Export fmi3Status fmi3ExitInitializationMode(fmi3Instance instance) {
    static const char func[] = "fmi3ExitInitializationMode";
    Instance* S = enter(instance, func, M_INITIALIZATION, IF_ANY);
    int i;
    if (!S) return fmi3Error;
    if (refresh_parameters(S, func) != fmi3OK) return fmi3Error; /* x0 and c of the final parameters */
    if (check_assertions(S, func) != fmi3OK) return fmi3Error;
    for (i = 0; i < NH_NX; ++i) S->atol[i] = S->tolerance * nominal(i);
    S->cv_running = 0;
    if (start_events(S, func) != fmi3OK) return fmi3Error;
    S->mode = (S->iface == IF_CS && !S->event_mode_used) ? M_STEP : M_EVENT;
    return fmi3OK;
}

FMI3_Export fmi3Status fmi3EnterEventMode(fmi3Instance instance) {
    static const char func[] = "fmi3EnterEventMode";
    Instance* S = (Instance*)instance;
    if (!S) return fmi3Error;
    if (S->iface == IF_CS && !S->event_mode_used)
        return log_error(S, func, "not allowed: the instance was created with eventModeUsed = false");
    S = enter(instance, func, S->iface == IF_ME ? M_CONTINUOUS_TIME : M_STEP, IF_ANY);
    if (!S) return fmi3Error;
    S->mode = M_EVENT;
    return fmi3OK;
}

FMI3_Export fmi3Status fmi3Terminate(fmi3Instance instance) {
    Instance* S = enter(instance, "fmi3Terminate", M_EVENT | M_CONTINUOUS_TIME | M_STEP, IF_ANY);
    if (!S) return fmi3Error;
    S->mode = M_TERMINATED;
    return fmi3OK;
}

FMI3_Export fmi3Status fmi3Reset(fmi3Instance instance) {
    static const char func[] = "fmi3Reset";
    Instance* S = enter(instance, func, M_ANY, IF_ANY);
    if (!S) return fmi3Error;
    return set_start_values(S, func);
}

/* =====================================================================================================
 * Float64 variables
 * ===================================================================================================== */

FMI3_Export fmi3Status fmi3GetFloat64(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                      size_t nValueReferences, fmi3Float64 values[], size_t nValues) {
    static const char func[] = "fmi3GetFloat64";
    Instance* S = enter(instance, func, M_ANY, IF_ANY);
    size_t i;
    int need_xdot = 0, need_y = 0, need_z = 0;
    if (!S) return fmi3Error;
    if (nValues != nValueReferences)
        return log_error(S, func, "nValues = %lu differs from nValueReferences = %lu (all variables are scalars)",
                         (unsigned long)nValues, (unsigned long)nValueReferences);
    if (nValueReferences == 0) return fmi3OK;
    if (null_arg(S, func, valueReferences, "valueReferences") || null_arg(S, func, values, "values"))
        return fmi3Error;
    for (i = 0; i < nValueReferences; ++i) {
        vr_class k = classify(valueReferences[i]);
        if (k == VR_INVALID)
            return log_error(S, func, "value reference %lu does not exist (the FMU has %d)",
                             (unsigned long)valueReferences[i], NH_NVR);
        if (k == VR_DX) need_xdot = 1;
        if (k == VR_Y) need_y = 1;
        if (k == VR_Z) need_z = 1;
    }
    if (need_xdot || need_y) {
        if (evaluate(S, func, need_y) != fmi3OK) return fmi3Error;
    } else if (refresh_parameters(S, func) != fmi3OK) {
        return fmi3Error;
    }
    if (need_z && NH_NZ > 0 && indicators(S, S->t, S->x, S->z_new))
        return log_error(S, func, "evaluation of the event indicators failed at t = %.17g", S->t);
    for (i = 0; i < nValueReferences; ++i) {
        fmi3ValueReference vr = valueReferences[i];
        switch (classify(vr)) {
        case VR_TIME: values[i] = S->t; break;
        case VR_P: values[i] = S->p[vr - NH_VR_P]; break;
        case VR_C: values[i] = S->c[vr - NH_VR_C]; break;
        case VR_X: values[i] = S->x[vr - NH_VR_X]; break;
        case VR_DX: values[i] = S->xdot[vr - NH_VR_DX]; break;
        case VR_U: values[i] = S->u[vr - NH_VR_U]; break;
        case VR_Y: values[i] = S->y[vr - NH_VR_Y]; break;
        case VR_D: values[i] = S->m[vr - NH_VR_D]; break;
        case VR_Z: values[i] = S->z_new[vr - NH_VR_Z]; break;
        default: break; /* excluded above */
        }
    }
    return fmi3OK;
}

/* Is the value of a parameter or input within its declared range? Logs the reason and returns 0 if not, in the
   words of the project's own checks. */
static int in_range(const Instance* S, const char* func, fmi3ValueReference vr, double value) {
    int p = classify(vr) == VR_P, k = (int)vr - (p ? NH_VR_P : NH_VR_U);
    double low = p ? nh_p_min[k] : nh_u_min[k], high = p ? nh_p_max[k] : nh_u_max[k];
    const char* kind = p ? "parameter" : "input";
    if (value < low) {
        log_error(S, func, "%s %s = %g is below its minimum %.12g", kind, vr_name(vr), value, low);
        return 0;
    }
    if (value > high) {
        log_error(S, func, "%s %s = %g is above its maximum %.12g", kind, vr_name(vr), value, high);
        return 0;
    }
    return 1;
}

/* May vr be set now? Logs the reason and returns 0 if not. */
static int settable(const Instance* S, const char* func, fmi3ValueReference vr, double value) {
    const char* name = vr_name(vr);
    unsigned m = S->mode;
    switch (classify(vr)) {
    case VR_INVALID:
        log_error(S, func, "value reference %lu does not exist (the FMU has %d)", (unsigned long)vr, NH_NVR);
        return 0;
    case VR_P:
        if (nh_p_fixed[vr - NH_VR_P]) {
            if (m & (M_INSTANTIATED | M_INITIALIZATION)) break;
            log_error(S, func, "parameter %s is fixed: set it before fmi3ExitInitializationMode", name);
            return 0;
        }
        if (m & (M_INSTANTIATED | M_INITIALIZATION | M_EVENT | M_STEP)) break;
        log_error(S, func, "tunable parameter %s can only be set in Instantiated, Initialization, Event or Step "
                  "Mode, not in %s", name, mode_name(m));
        return 0;
    case VR_U:
        if (m != M_TERMINATED) break;
        log_error(S, func, "input %s cannot be set after fmi3Terminate", name);
        return 0;
    case VR_X:
        if (S->iface == IF_ME && (m & (M_EVENT | M_CONTINUOUS_TIME))) break;
        if (S->iface == IF_ME)
            log_error(S, func, "state %s can only be set in Event or Continuous-Time Mode, not in %s", name,
                      mode_name(m));
        else
            log_error(S, func, "variable %s is not settable (a state of Co-Simulation)", name);
        return 0;
    default: /* time, calculated parameters, derivatives, outputs */
        log_error(S, func, "variable %s is not settable", name);
        return 0;
    }
    if (!isfinite(value)) {
        log_error(S, func, "value %g of %s is not finite", value, name);
        return 0;
    }
    return classify(vr) == VR_X || in_range(S, func, vr, value); /* states have no declared range here */
}

FMI3_Export fmi3Status fmi3SetFloat64(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                      size_t nValueReferences, const fmi3Float64 values[], size_t nValues) {
    static const char func[] = "fmi3SetFloat64";
    Instance* S = enter(instance, func, M_ANY, IF_ANY);
    size_t i;
    int changed = 0;
    if (!S) return fmi3Error;
    if (nValues != nValueReferences)
        return log_error(S, func, "nValues = %lu differs from nValueReferences = %lu (all variables are scalars)",
                         (unsigned long)nValues, (unsigned long)nValueReferences);
    if (nValueReferences == 0) return fmi3OK;
    if (null_arg(S, func, valueReferences, "valueReferences") || null_arg(S, func, values, "values"))
        return fmi3Error;
    for (i = 0; i < nValueReferences; ++i) /* validate all before assigning any */
        if (!settable(S, func, valueReferences[i], values[i])) return fmi3Error;
    for (i = 0; i < nValueReferences; ++i) {
        fmi3ValueReference vr = valueReferences[i];
        switch (classify(vr)) {
        case VR_P:
            if (S->p[vr - NH_VR_P] != values[i]) changed = 1;
            S->p[vr - NH_VR_P] = values[i];
            S->params_dirty = 1;
            break;
        case VR_X: S->x[vr - NH_VR_X] = values[i]; break;
        case VR_U:
            if (S->u[vr - NH_VR_U] != values[i]) changed = 1;
            S->u[vr - NH_VR_U] = values[i];
            break;
        default: break; /* excluded by settable() */
        }
    }
    if (changed) S->cv_running = 0; /* a discontinuity of the right-hand side: CVODE starts afresh */
    mark_dirty(S);
    return fmi3OK;
}

/* ---- all other variable types: there are none ---- */

#define NH_NO_GET(T, CT)                                                                                      \
    FMI3_Export fmi3Status fmi3Get##T(fmi3Instance instance, const fmi3ValueReference valueReferences[],     \
                                      size_t nValueReferences, CT values[], size_t nValues) {                \
        (void)valueReferences;                                                                                \
        (void)values;                                                                                         \
        (void)nValues;                                                                                        \
        return no_variables(instance, "fmi3Get" #T, #T, nValueReferences);                                    \
    }
#define NH_NO_SET(T, CT)                                                                                      \
    FMI3_Export fmi3Status fmi3Set##T(fmi3Instance instance, const fmi3ValueReference valueReferences[],     \
                                      size_t nValueReferences, const CT values[], size_t nValues) {          \
        (void)valueReferences;                                                                                \
        (void)values;                                                                                         \
        (void)nValues;                                                                                        \
        return no_variables(instance, "fmi3Set" #T, #T, nValueReferences);                                    \
    }

NH_NO_GET(Float32, fmi3Float32)
NH_NO_GET(Int8, fmi3Int8)
NH_NO_GET(UInt8, fmi3UInt8)
NH_NO_GET(Int16, fmi3Int16)
NH_NO_GET(UInt16, fmi3UInt16)
NH_NO_GET(Int32, fmi3Int32)
NH_NO_GET(UInt32, fmi3UInt32)
NH_NO_GET(Int64, fmi3Int64)
NH_NO_GET(UInt64, fmi3UInt64)
NH_NO_GET(Boolean, fmi3Boolean)
NH_NO_GET(String, fmi3String)
NH_NO_SET(Float32, fmi3Float32)
NH_NO_SET(Int8, fmi3Int8)
NH_NO_SET(UInt8, fmi3UInt8)
NH_NO_SET(Int16, fmi3Int16)
NH_NO_SET(UInt16, fmi3UInt16)
NH_NO_SET(Int32, fmi3Int32)
NH_NO_SET(UInt32, fmi3UInt32)
NH_NO_SET(Int64, fmi3Int64)
NH_NO_SET(UInt64, fmi3UInt64)
NH_NO_SET(Boolean, fmi3Boolean)
NH_NO_SET(String, fmi3String)

FMI3_Export fmi3Status fmi3GetBinary(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                     size_t nValueReferences, size_t valueSizes[], fmi3Binary values[],
                                     size_t nValues) {
    (void)valueReferences;
    (void)valueSizes;
    (void)values;
    (void)nValues;
    return no_variables(instance, "fmi3GetBinary", "Binary", nValueReferences);
}

FMI3_Export fmi3Status fmi3SetBinary(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                     size_t nValueReferences, const size_t valueSizes[], const fmi3Binary values[],
                                     size_t nValues) {
    (void)valueReferences;
    (void)valueSizes;
    (void)values;
    (void)nValues;
    return no_variables(instance, "fmi3SetBinary", "Binary", nValueReferences);
}

FMI3_Export fmi3Status fmi3GetClock(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                    size_t nValueReferences, fmi3Clock values[]) {
    (void)valueReferences;
    (void)values;
    return no_variables(instance, "fmi3GetClock", "Clock", nValueReferences);
}

FMI3_Export fmi3Status fmi3SetClock(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                    size_t nValueReferences, const fmi3Clock values[]) {
    (void)valueReferences;
    (void)values;
    return no_variables(instance, "fmi3SetClock", "Clock", nValueReferences);
}

/* =====================================================================================================
 * Unsupported common functions
 * ===================================================================================================== */

FMI3_Export fmi3Status fmi3GetNumberOfVariableDependencies(fmi3Instance instance, fmi3ValueReference valueReference,
                                                           size_t* nDependencies) {
    (void)valueReference;
    (void)nDependencies;
    return not_supported(instance, "fmi3GetNumberOfVariableDependencies");
}

FMI3_Export fmi3Status fmi3GetVariableDependencies(fmi3Instance instance, fmi3ValueReference dependent,
                                                   size_t elementIndicesOfDependent[],
                                                   fmi3ValueReference independents[],
                                                   size_t elementIndicesOfIndependents[],
                                                   fmi3DependencyKind dependencyKinds[], size_t nDependencies) {
    (void)dependent;
    (void)elementIndicesOfDependent;
    (void)independents;
    (void)elementIndicesOfIndependents;
    (void)dependencyKinds;
    (void)nDependencies;
    return not_supported(instance, "fmi3GetVariableDependencies");
}

/* ---- FMU state: a copy of the instance's values and of its integrator's step-size memory ---- */

#define NH_STATE_MAGIC "NHSTATE1"

typedef struct {
    char magic[8];                                /* NH_STATE_MAGIC, without its terminating zero */
    char token[sizeof NH_INSTANTIATION_TOKEN];    /* the model's: a state fits only the FMU it came from */
    unsigned long size;                           /* sizeof(FmuState): the binary's layout */
    Instance values;                              /* pointers and identity in it are never restored */
} FmuState;

static void save_state(const Instance* S, FmuState* state) {
    memcpy(state->magic, NH_STATE_MAGIC, sizeof state->magic);
    memcpy(state->token, NH_INSTANTIATION_TOKEN, sizeof state->token);
    state->size = (unsigned long)sizeof(FmuState);
    state->values = *S;
}

/* The values of state into S; S keeps its identity (name, callbacks, logging) and its memory. */
static fmi3Status restore_state(Instance* S, const char* func, const FmuState* state) {
    char* name = S->name;
    fmi3LogMessageCallback log = S->log;
    fmi3InstanceEnvironment env = S->env;
    int logging_on = S->logging_on;
    SUNContext cv_context = S->cv_context; /* CVODE's objects and counters */
    void* cv = S->cv;
    N_Vector cv_y = S->cv_y, cv_atol = S->cv_atol;
    SUNMatrix cv_matrix = S->cv_matrix;
    SUNLinearSolver cv_solver = S->cv_solver;
    long cv_counts[5];
    const casadi_real** arg = S->arg;
    casadi_real** res = S->res;
    casadi_int* iw = S->iw;
    casadi_real* w = S->w;
    if (state->values.iface != S->iface)
        return log_error(S, func, "the FMU state is of a %s instance, this is one of %s",
                         state->values.iface == IF_ME ? "Model Exchange" : "Co-Simulation",
                         S->iface == IF_ME ? "Model Exchange" : "Co-Simulation");
    memcpy(cv_counts, S->cv_counts, sizeof cv_counts);
    *S = state->values;
    S->name = name;
    S->log = log;
    S->env = env;
    S->logging_on = logging_on;
    S->cv_context = cv_context;
    S->cv = cv;
    S->cv_y = cv_y;
    S->cv_atol = cv_atol;
    S->cv_matrix = cv_matrix;
    S->cv_solver = cv_solver;
    S->cv_running = 0; /* CVODE's history is not part of the state: it starts afresh, as the original run did */
    memcpy(S->cv_counts, cv_counts, sizeof S->cv_counts);
    S->arg = arg;
    S->res = res;
    S->iw = iw;
    S->w = w;
    return fmi3OK;
}

FMI3_Export fmi3Status fmi3GetFMUState(fmi3Instance instance, fmi3FMUState* FMUState) {
    static const char func[] = "fmi3GetFMUState";
    Instance* S = enter(instance, func, M_ANY, IF_ANY);
    if (!S || null_arg(S, func, FMUState, "FMUState")) return fmi3Error;
    if (!*FMUState) { /* a new state; else the given one is overwritten, as the standard allows */
        *FMUState = calloc(1, sizeof(FmuState));
        if (!*FMUState) return log_error(S, func, "out of memory");
    }
    /* CVODE's history cannot be copied: it starts afresh here, as it will in a run that restores this state */
    S->cv_running = 0;
    save_state(S, (FmuState*)*FMUState);
    return fmi3OK;
}

FMI3_Export fmi3Status fmi3SetFMUState(fmi3Instance instance, fmi3FMUState FMUState) {
    static const char func[] = "fmi3SetFMUState";
    Instance* S = enter(instance, func, M_ANY, IF_ANY);
    if (!S || null_arg(S, func, FMUState, "FMUState")) return fmi3Error;
    return restore_state(S, func, (const FmuState*)FMUState);
}

FMI3_Export fmi3Status fmi3FreeFMUState(fmi3Instance instance, fmi3FMUState* FMUState) {
    static const char func[] = "fmi3FreeFMUState";
    Instance* S = enter(instance, func, M_ANY, IF_ANY);
    if (!S) return fmi3Error;
    if (!FMUState) return fmi3OK;
    /* An importer that passes the state where its address belongs (fmusim 0.0.39 does, since fmi3FMUState is a
       void* that converts silently) would have the state's first bytes freed as a pointer. They are the magic,
       which is never an address (not canonical on 64-bit machines): free that state instead. */
    if (memcmp(FMUState, NH_STATE_MAGIC, 8) == 0) {
        log_warning(S, func, "given an FMU state instead of its address (an error of the importer); freed it");
        free(FMUState);
        return fmi3OK;
    }
    free(*FMUState);
    *FMUState = NULL;
    return fmi3OK;
}

FMI3_Export fmi3Status fmi3SerializedFMUStateSize(fmi3Instance instance, fmi3FMUState FMUState, size_t* size) {
    static const char func[] = "fmi3SerializedFMUStateSize";
    Instance* S = enter(instance, func, M_ANY, IF_ANY);
    if (!S || null_arg(S, func, FMUState, "FMUState") || null_arg(S, func, size, "size")) return fmi3Error;
    *size = sizeof(FmuState);
    return fmi3OK;
}

FMI3_Export fmi3Status fmi3SerializeFMUState(fmi3Instance instance, fmi3FMUState FMUState,
                                             fmi3Byte serializedState[], size_t size) {
    static const char func[] = "fmi3SerializeFMUState";
    Instance* S = enter(instance, func, M_ANY, IF_ANY);
    if (!S || null_arg(S, func, FMUState, "FMUState") || null_arg(S, func, serializedState, "serializedState"))
        return fmi3Error;
    if (size != sizeof(FmuState))
        return log_error(S, func, "size = %lu, a serialized state has %lu bytes", (unsigned long)size,
                         (unsigned long)sizeof(FmuState));
    memcpy(serializedState, FMUState, sizeof(FmuState));
    return fmi3OK;
}

FMI3_Export fmi3Status fmi3DeserializeFMUState(fmi3Instance instance, const fmi3Byte serializedState[],
                                               size_t size, fmi3FMUState* FMUState) {
    static const char func[] = "fmi3DeserializeFMUState";
    Instance* S = enter(instance, func, M_ANY, IF_ANY);
    unsigned long bytes = 0;
    if (!S || null_arg(S, func, serializedState, "serializedState") || null_arg(S, func, FMUState, "FMUState"))
        return fmi3Error;
    /* the bytes may lie anywhere in memory: read the header's fields by memcpy, not through a pointer */
    if (size == sizeof(FmuState)) memcpy(&bytes, serializedState + offsetof(FmuState, size), sizeof bytes);
    if (size != sizeof(FmuState) || memcmp(serializedState, NH_STATE_MAGIC, 8) != 0 || bytes != size)
        return log_error(S, func, "the %lu bytes are not a state serialized by this FMU's binary", (unsigned long)size);
    if (memcmp(serializedState + offsetof(FmuState, token), NH_INSTANTIATION_TOKEN, sizeof NH_INSTANTIATION_TOKEN))
        return log_error(S, func, "the serialized state is of another model (its instantiation token differs)");
    if (!*FMUState) {
        *FMUState = malloc(sizeof(FmuState));
        if (!*FMUState) return log_error(S, func, "out of memory");
    }
    memcpy(*FMUState, serializedState, sizeof(FmuState));
    return fmi3OK;
}

FMI3_Export fmi3Status fmi3EnterConfigurationMode(fmi3Instance instance) {
    return not_supported(instance, "fmi3EnterConfigurationMode");
}

FMI3_Export fmi3Status fmi3ExitConfigurationMode(fmi3Instance instance) {
    return not_supported(instance, "fmi3ExitConfigurationMode");
}

FMI3_Export fmi3Status fmi3GetIntervalDecimal(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                              size_t nValueReferences, fmi3Float64 intervals[],
                                              fmi3IntervalQualifier qualifiers[]) {
    (void)valueReferences;
    (void)intervals;
    (void)qualifiers;
    return no_variables(instance, "fmi3GetIntervalDecimal", "Clock", nValueReferences);
}

FMI3_Export fmi3Status fmi3GetIntervalFraction(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                               size_t nValueReferences, fmi3UInt64 counters[],
                                               fmi3UInt64 resolutions[], fmi3IntervalQualifier qualifiers[]) {
    (void)valueReferences;
    (void)counters;
    (void)resolutions;
    (void)qualifiers;
    return no_variables(instance, "fmi3GetIntervalFraction", "Clock", nValueReferences);
}

FMI3_Export fmi3Status fmi3GetShiftDecimal(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                           size_t nValueReferences, fmi3Float64 shifts[]) {
    (void)valueReferences;
    (void)shifts;
    return no_variables(instance, "fmi3GetShiftDecimal", "Clock", nValueReferences);
}

FMI3_Export fmi3Status fmi3GetShiftFraction(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                            size_t nValueReferences, fmi3UInt64 counters[],
                                            fmi3UInt64 resolutions[]) {
    (void)valueReferences;
    (void)counters;
    (void)resolutions;
    return no_variables(instance, "fmi3GetShiftFraction", "Clock", nValueReferences);
}

FMI3_Export fmi3Status fmi3SetIntervalDecimal(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                              size_t nValueReferences, const fmi3Float64 intervals[]) {
    (void)valueReferences;
    (void)intervals;
    return no_variables(instance, "fmi3SetIntervalDecimal", "Clock", nValueReferences);
}

FMI3_Export fmi3Status fmi3SetIntervalFraction(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                               size_t nValueReferences, const fmi3UInt64 counters[],
                                               const fmi3UInt64 resolutions[]) {
    (void)valueReferences;
    (void)counters;
    (void)resolutions;
    return no_variables(instance, "fmi3SetIntervalFraction", "Clock", nValueReferences);
}

FMI3_Export fmi3Status fmi3SetShiftDecimal(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                           size_t nValueReferences, const fmi3Float64 shifts[]) {
    (void)valueReferences;
    (void)shifts;
    return no_variables(instance, "fmi3SetShiftDecimal", "Clock", nValueReferences);
}

FMI3_Export fmi3Status fmi3SetShiftFraction(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                            size_t nValueReferences, const fmi3UInt64 counters[],
                                            const fmi3UInt64 resolutions[]) {
    (void)valueReferences;
    (void)counters;
    (void)resolutions;
    return no_variables(instance, "fmi3SetShiftFraction", "Clock", nValueReferences);
}

FMI3_Export fmi3Status fmi3EvaluateDiscreteStates(fmi3Instance instance) {
    return not_supported(instance, "fmi3EvaluateDiscreteStates");
}

FMI3_Export fmi3Status fmi3UpdateDiscreteStates(fmi3Instance instance, fmi3Boolean* discreteStatesNeedUpdate,
                                                fmi3Boolean* terminateSimulation,
                                                fmi3Boolean* nominalsOfContinuousStatesChanged,
                                                fmi3Boolean* valuesOfContinuousStatesChanged,
                                                fmi3Boolean* nextEventTimeDefined, fmi3Float64* nextEventTime) {
    static const char func[] = "fmi3UpdateDiscreteStates";
    Instance* S = enter(instance, func, M_EVENT, IF_ANY);
    int jumped = 0;
    double when = 0.0;
    if (!S) return fmi3Error;
    if (null_arg(S, func, discreteStatesNeedUpdate, "discreteStatesNeedUpdate") ||
        null_arg(S, func, terminateSimulation, "terminateSimulation") ||
        null_arg(S, func, nominalsOfContinuousStatesChanged, "nominalsOfContinuousStatesChanged") ||
        null_arg(S, func, valuesOfContinuousStatesChanged, "valuesOfContinuousStatesChanged") ||
        null_arg(S, func, nextEventTimeDefined, "nextEventTimeDefined") ||
        null_arg(S, func, nextEventTime, "nextEventTime"))
        return fmi3Error;
    if (refresh_parameters(S, func) != fmi3OK || handle_event(S, func, 0, &jumped) != fmi3OK) return fmi3Error;
    *discreteStatesNeedUpdate = fmi3False; /* the event iteration ran to its end */
    *terminateSimulation = S->terminate_requested ? fmi3True : fmi3False;
    *nominalsOfContinuousStatesChanged = fmi3False;
    /* A change of the discrete values alone (a roller that takes over, a relation that flips) leaves x as it was
       but makes the right-hand side jump; it is reported as a change too, so that every importer restarts its
       integrator there, as the project's loop does after each event (a multistep history across the jump costs
       accuracy: fmusim's CVODE kept it and missed its bound on the omni and mecanum vehicles). */
    *valuesOfContinuousStatesChanged = jumped ? fmi3True : fmi3False;
    *nextEventTimeDefined = next_time_event(S, &when) ? fmi3True : fmi3False;
    *nextEventTime = when;
    return fmi3OK;
}

/* =====================================================================================================
 * Partial derivatives
 * ===================================================================================================== */

#define M_DERIVATIVES (M_INITIALIZATION | M_EVENT | M_CONTINUOUS_TIME | M_STEP)

/* Unknowns must be derivatives or outputs, knowns states, inputs or parameters. */
static int check_unknowns_knowns(const Instance* S, const char* func, const fmi3ValueReference unknowns[],
                                 size_t nUnknowns, const fmi3ValueReference knowns[], size_t nKnowns) {
    size_t i;
    if ((nUnknowns > 0 && null_arg(S, func, unknowns, "unknowns")) ||
        (nKnowns > 0 && null_arg(S, func, knowns, "knowns")))
        return 0;
    for (i = 0; i < nUnknowns; ++i) {
        vr_class k = classify(unknowns[i]);
        if (k != VR_DX && k != VR_Y) {
            log_error(S, func, "unknown %lu (%s) is not a state derivative or an output", (unsigned long)unknowns[i],
                      vr_name(unknowns[i]));
            return 0;
        }
    }
    for (i = 0; i < nKnowns; ++i) {
        vr_class k = classify(knowns[i]);
        if (k != VR_X && k != VR_U && k != VR_P) {
            log_error(S, func, "known %lu (%s) is not a state, an input or a parameter", (unsigned long)knowns[i],
                      vr_name(knowns[i]));
            return 0;
        }
    }
    return 1;
}

/* Scratch vector and offset of a known (state, input or parameter). */
static double* known_slot(Instance* S, fmi3ValueReference vr) {
    switch (classify(vr)) {
    case VR_X: return &S->dx[vr - NH_VR_X];
    case VR_U: return &S->du[vr - NH_VR_U];
    case VR_P: return &S->dp[vr - NH_VR_P];
    default: return NULL;
    }
}

/* Scratch vector and offset of an unknown (derivative or output). */
static double* unknown_slot(Instance* S, fmi3ValueReference vr) {
    switch (classify(vr)) {
    case VR_DX: return &S->dxdot[vr - NH_VR_DX];
    case VR_Y: return &S->dy[vr - NH_VR_Y];
    default: return NULL;
    }
}

static void clear_scratch(Instance* S) {
    memset(S->dx, 0, sizeof S->dx);
    memset(S->dp, 0, sizeof S->dp);
    memset(S->du, 0, sizeof S->du);
    memset(S->dxdot, 0, sizeof S->dxdot);
    memset(S->dy, 0, sizeof S->dy);
}

FMI3_Export fmi3Status fmi3GetDirectionalDerivative(fmi3Instance instance, const fmi3ValueReference unknowns[],
                                                    size_t nUnknowns, const fmi3ValueReference knowns[],
                                                    size_t nKnowns, const fmi3Float64 seed[], size_t nSeed,
                                                    fmi3Float64 sensitivity[], size_t nSensitivity) {
    static const char func[] = "fmi3GetDirectionalDerivative";
    Instance* S = enter(instance, func, M_DERIVATIVES, IF_ANY);
    const double* in[8];
    double* out[2];
    int n[2];
    size_t i;
    if (!S) return fmi3Error;
    if (nSeed != nKnowns || nSensitivity != nUnknowns)
        return log_error(S, func, "nSeed = %lu must equal nKnowns = %lu and nSensitivity = %lu nUnknowns = %lu",
                         (unsigned long)nSeed, (unsigned long)nKnowns, (unsigned long)nSensitivity,
                         (unsigned long)nUnknowns);
    if (!check_unknowns_knowns(S, func, unknowns, nUnknowns, knowns, nKnowns)) return fmi3Error;
    if ((nKnowns > 0 && null_arg(S, func, seed, "seed")) ||
        (nUnknowns > 0 && null_arg(S, func, sensitivity, "sensitivity")))
        return fmi3Error;
    if (nUnknowns == 0) return fmi3OK;
    if (refresh_parameters(S, func) != fmi3OK) return fmi3Error;
    clear_scratch(S);
    for (i = 0; i < nKnowns; ++i) *known_slot(S, knowns[i]) += seed[i]; /* a repeated known adds up */
    in[0] = &S->t;
    in[1] = S->x;
    in[2] = S->p;
    in[3] = S->u;
    in[4] = S->m;
    in[5] = S->dx;
    in[6] = S->dp;
    in[7] = S->du;
    out[0] = S->dxdot;
    out[1] = S->dy;
    n[0] = NH_NX;
    n[1] = NH_NY;
    if (call(S, nh_forward, 8, in, 2, out, n))
        return log_error(S, func, "evaluation of the directional derivative failed at t = %.17g", S->t);
    for (i = 0; i < nUnknowns; ++i) sensitivity[i] = *unknown_slot(S, unknowns[i]);
    return fmi3OK;
}

FMI3_Export fmi3Status fmi3GetAdjointDerivative(fmi3Instance instance, const fmi3ValueReference unknowns[],
                                                size_t nUnknowns, const fmi3ValueReference knowns[],
                                                size_t nKnowns, const fmi3Float64 seed[], size_t nSeed,
                                                fmi3Float64 sensitivity[], size_t nSensitivity) {
    static const char func[] = "fmi3GetAdjointDerivative";
    Instance* S = enter(instance, func, M_DERIVATIVES, IF_ANY);
    const double* in[7];
    double* out[3];
    int n[3];
    size_t i;
    if (!S) return fmi3Error;
    if (nSeed != nUnknowns || nSensitivity != nKnowns)
        return log_error(S, func, "nSeed = %lu must equal nUnknowns = %lu and nSensitivity = %lu nKnowns = %lu",
                         (unsigned long)nSeed, (unsigned long)nUnknowns, (unsigned long)nSensitivity,
                         (unsigned long)nKnowns);
    if (!check_unknowns_knowns(S, func, unknowns, nUnknowns, knowns, nKnowns)) return fmi3Error;
    if ((nUnknowns > 0 && null_arg(S, func, seed, "seed")) ||
        (nKnowns > 0 && null_arg(S, func, sensitivity, "sensitivity")))
        return fmi3Error;
    if (nKnowns == 0) return fmi3OK;
    if (refresh_parameters(S, func) != fmi3OK) return fmi3Error;
    clear_scratch(S);
    /* the adjoint seeds live in the unknowns' slots, the results in the knowns' slots */
    for (i = 0; i < nUnknowns; ++i) *unknown_slot(S, unknowns[i]) += seed[i];
    in[0] = &S->t;
    in[1] = S->x;
    in[2] = S->p;
    in[3] = S->u;
    in[4] = S->m;
    in[5] = S->dxdot;
    in[6] = S->dy;
    out[0] = S->dx;
    out[1] = S->dp;
    out[2] = S->du;
    n[0] = NH_NX;
    n[1] = NH_NP;
    n[2] = NH_NU;
    if (call(S, nh_adjoint, 7, in, 3, out, n))
        return log_error(S, func, "evaluation of the adjoint derivative failed at t = %.17g", S->t);
    for (i = 0; i < nKnowns; ++i) sensitivity[i] = *known_slot(S, knowns[i]);
    return fmi3OK;
}

/* =====================================================================================================
 * Model Exchange
 * ===================================================================================================== */

FMI3_Export fmi3Status fmi3EnterContinuousTimeMode(fmi3Instance instance) {
    Instance* S = enter(instance, "fmi3EnterContinuousTimeMode", M_EVENT, IF_ME);
    if (!S) return fmi3Error;
    S->mode = M_CONTINUOUS_TIME;
    return fmi3OK;
}

FMI3_Export fmi3Status fmi3CompletedIntegratorStep(fmi3Instance instance, fmi3Boolean noSetFMUStatePriorToCurrentPoint,
                                                   fmi3Boolean* enterEventMode, fmi3Boolean* terminateSimulation) {
    static const char func[] = "fmi3CompletedIntegratorStep";
    Instance* S = enter(instance, func, M_CONTINUOUS_TIME, IF_ME);
    (void)noSetFMUStatePriorToCurrentPoint;
    if (!S) return fmi3Error;
    if (null_arg(S, func, enterEventMode, "enterEventMode") ||
        null_arg(S, func, terminateSimulation, "terminateSimulation"))
        return fmi3Error;
    *enterEventMode = fmi3False;
    *terminateSimulation = fmi3False;
    return fmi3OK;
}

FMI3_Export fmi3Status fmi3SetTime(fmi3Instance instance, fmi3Float64 time) {
    static const char func[] = "fmi3SetTime";
    Instance* S = enter(instance, func, M_EVENT | M_CONTINUOUS_TIME, IF_ME);
    if (!S) return fmi3Error;
    if (!isfinite(time)) return log_error(S, func, "time is not finite");
    if (time != S->t) {
        S->t = time;
        mark_dirty(S);
    }
    return fmi3OK;
}

FMI3_Export fmi3Status fmi3SetContinuousStates(fmi3Instance instance, const fmi3Float64 continuousStates[],
                                               size_t nContinuousStates) {
    static const char func[] = "fmi3SetContinuousStates";
    Instance* S = enter(instance, func, M_EVENT | M_CONTINUOUS_TIME, IF_ME);
    int i;
    if (!S) return fmi3Error;
    if (bad_state_vector(S, func, continuousStates, nContinuousStates, "continuousStates")) return fmi3Error;
    for (i = 0; i < NH_NX; ++i)
        if (!isfinite(continuousStates[i]))
            return log_error(S, func, "state %s = %g is not finite", nh_names[NH_VR_X + i], continuousStates[i]);
    for (i = 0; i < NH_NX; ++i) S->x[i] = continuousStates[i];
    mark_dirty(S);
    return fmi3OK;
}

#define M_ME_STATE_ACCESS (M_INITIALIZATION | M_EVENT | M_CONTINUOUS_TIME | M_TERMINATED)

FMI3_Export fmi3Status fmi3GetContinuousStateDerivatives(fmi3Instance instance, fmi3Float64 derivatives[],
                                                         size_t nContinuousStates) {
    static const char func[] = "fmi3GetContinuousStateDerivatives";
    Instance* S = enter(instance, func, M_ME_STATE_ACCESS, IF_ME);
    int i;
    if (!S) return fmi3Error;
    if (bad_state_vector(S, func, derivatives, nContinuousStates, "derivatives")) return fmi3Error;
    if (evaluate(S, func, 0) != fmi3OK) return fmi3Error;
    for (i = 0; i < NH_NX; ++i) derivatives[i] = S->xdot[i];
    return fmi3OK;
}

FMI3_Export fmi3Status fmi3GetEventIndicators(fmi3Instance instance, fmi3Float64 eventIndicators[],
                                              size_t nEventIndicators) {
    static const char func[] = "fmi3GetEventIndicators";
    Instance* S = enter(instance, func, M_ME_STATE_ACCESS, IF_ME);
    if (!S) return fmi3Error;
    if (nEventIndicators != (size_t)NH_NZ)
        return log_error(S, func, "nEventIndicators = %lu but the model has %d event indicators",
                         (unsigned long)nEventIndicators, NH_NZ);
    if (NH_NZ == 0) return fmi3OK;
    if (null_arg(S, func, eventIndicators, "eventIndicators") || refresh_parameters(S, func) != fmi3OK)
        return fmi3Error;
    if (indicators(S, S->t, S->x, eventIndicators))
        return log_error(S, func, "evaluation of the event indicators failed at t = %.17g", S->t);
    return not_finite(S, func, eventIndicators, NH_NZ, NH_VR_Z) ? fmi3Error : fmi3OK;
}

FMI3_Export fmi3Status fmi3GetContinuousStates(fmi3Instance instance, fmi3Float64 continuousStates[],
                                               size_t nContinuousStates) {
    static const char func[] = "fmi3GetContinuousStates";
    Instance* S = enter(instance, func, M_ME_STATE_ACCESS, IF_ME);
    int i;
    if (!S) return fmi3Error;
    if (bad_state_vector(S, func, continuousStates, nContinuousStates, "continuousStates")) return fmi3Error;
    if (refresh_parameters(S, func) != fmi3OK) return fmi3Error; /* x0(p) in Initialization Mode */
    for (i = 0; i < NH_NX; ++i) continuousStates[i] = S->x[i];
    return fmi3OK;
}

FMI3_Export fmi3Status fmi3GetNominalsOfContinuousStates(fmi3Instance instance, fmi3Float64 nominals[],
                                                         size_t nContinuousStates) {
    static const char func[] = "fmi3GetNominalsOfContinuousStates";
    Instance* S = enter(instance, func, M_ANY, IF_ME);
    int i;
    if (!S) return fmi3Error;
    if (bad_state_vector(S, func, nominals, nContinuousStates, "nominals")) return fmi3Error;
    for (i = 0; i < NH_NX; ++i) nominals[i] = nominal(i);
    return fmi3OK;
}

FMI3_Export fmi3Status fmi3GetNumberOfEventIndicators(fmi3Instance instance, size_t* nEventIndicators) {
    static const char func[] = "fmi3GetNumberOfEventIndicators";
    Instance* S = enter(instance, func, M_ANY, IF_ME);
    if (!S || null_arg(S, func, nEventIndicators, "nEventIndicators")) return fmi3Error;
    *nEventIndicators = (size_t)NH_NZ;
    return fmi3OK;
}

FMI3_Export fmi3Status fmi3GetNumberOfContinuousStates(fmi3Instance instance, size_t* nContinuousStates) {
    static const char func[] = "fmi3GetNumberOfContinuousStates";
    Instance* S = enter(instance, func, M_ANY, IF_ME);
    if (!S || null_arg(S, func, nContinuousStates, "nContinuousStates")) return fmi3Error;
    *nContinuousStates = (size_t)NH_NX;
    return fmi3OK;
}

/* =====================================================================================================
 * Co-Simulation
 * ===================================================================================================== */

FMI3_Export fmi3Status fmi3EnterStepMode(fmi3Instance instance) {
    Instance* S = enter(instance, "fmi3EnterStepMode", M_EVENT, IF_CS);
    if (!S) return fmi3Error;
    S->mode = M_STEP;
    return fmi3OK;
}

FMI3_Export fmi3Status fmi3GetOutputDerivatives(fmi3Instance instance, const fmi3ValueReference valueReferences[],
                                                size_t nValueReferences, const fmi3Int32 orders[],
                                                fmi3Float64 values[], size_t nValues) {
    (void)valueReferences;
    (void)nValueReferences;
    (void)orders;
    (void)values;
    (void)nValues;
    return not_supported(instance, "fmi3GetOutputDerivatives (maxOutputDerivativeOrder = 0)");
}

FMI3_Export fmi3Status fmi3DoStep(fmi3Instance instance, fmi3Float64 currentCommunicationPoint,
                                  fmi3Float64 communicationStepSize, fmi3Boolean noSetFMUStatePriorToCurrentPoint,
                                  fmi3Boolean* eventHandlingNeeded, fmi3Boolean* terminateSimulation,
                                  fmi3Boolean* earlyReturn, fmi3Float64* lastSuccessfulTime) {
    static const char func[] = "fmi3DoStep";
    Instance* S = enter(instance, func, M_STEP, IF_CS);
    double t0, t1, scale, tol;
    (void)noSetFMUStatePriorToCurrentPoint;
    if (!S) return fmi3Error;
    if (null_arg(S, func, eventHandlingNeeded, "eventHandlingNeeded") ||
        null_arg(S, func, terminateSimulation, "terminateSimulation") ||
        null_arg(S, func, earlyReturn, "earlyReturn") ||
        null_arg(S, func, lastSuccessfulTime, "lastSuccessfulTime"))
        return fmi3Error;
    *eventHandlingNeeded = fmi3False;
    *terminateSimulation = fmi3False;
    *earlyReturn = fmi3False;
    *lastSuccessfulTime = S->t;

    if (!isfinite(currentCommunicationPoint) || !isfinite(communicationStepSize))
        return log_error(S, func, "currentCommunicationPoint or communicationStepSize is not finite");
    if (!(communicationStepSize > 0.0))
        return log_error(S, func, "communicationStepSize = %g must be positive", communicationStepSize);
    /* the importer's communication point may differ from the FMU's time by rounding only */
    scale = fabs(S->t) > fabs(currentCommunicationPoint) ? fabs(S->t) : fabs(currentCommunicationPoint);
    tol = 1024.0 * DBL_EPSILON * (scale > 1.0 ? scale : 1.0);
    if (fabs(currentCommunicationPoint - S->t) > tol)
        return log_error(S, func, "currentCommunicationPoint = %.17g differs from the FMU's time %.17g",
                         currentCommunicationPoint, S->t);
    t0 = currentCommunicationPoint;
    t1 = t0 + communicationStepSize;
    if (S->stop_defined && t1 > S->t_stop + 1024.0 * DBL_EPSILON * (fabs(S->t_stop) > 1.0 ? fabs(S->t_stop) : 1.0))
        return log_error(S, func, "the step to t = %.17g would pass stopTime = %.17g", t1, S->t_stop);
    if (refresh_parameters(S, func) != fmi3OK) return fmi3Error; /* c after a tunable parameter change */

    while (!(S->t >= t1 || same_time(S->t, t1))) {
        double t_end = t1, when = 0.0;
        int time_event = 0, jumped = 0; /* time_event: an event at t_end */
        if (next_time_event(S, &when) && (when < t1 || same_time(when, t1))) {
            t_end = same_time(when, t1) ? t1 : when;
            time_event = 1;
        }
        if (NH_NX > 0) {
            double t_now = 0.0, t_reached = S->t;
            int flag, stops;
            if (!S->cv_running && cv_start(S, func) != fmi3OK) return fmi3Error;
            /* CVODE steps past t_end and interpolates back, except past a time event (where its last step has
               already passed that time, it is interpolated there and restarts after it). Not even the importer's
               stopTime bounds a step, as some importers define one and others do not (fmusim): it does not
               change the steps, and no value past it is ever asked for. */
            stops = time_event && CVodeGetCurrentTime(S->cv, &t_now) == 0 && t_now < t_end;
            if (stops ? CVodeSetStopTime(S->cv, t_end) : CVodeClearStopTime(S->cv))
                return log_error(S, func, "CVODE refused the stop time %.17g", t_end);
            flag = CVode(S->cv, t_end, S->cv_y, &t_reached, CV_NORMAL);
            if (flag < 0) {
                char text[NH_LOG_LEN];
                /* CVODE's state at the last point it reached (its last step's end) */
                memcpy(S->x, N_VGetArrayPointer(S->cv_y), sizeof S->x);
                S->t = t_reached;
                S->cv_running = 0;
                mark_dirty(S);
                *lastSuccessfulTime = t_reached;
                return log_error(S, func, "integration from t = %.17g to %.17g failed at t = %.17g (%s); state: %s",
                                 t0, t1, t_reached, CVodeGetReturnFlagName(flag),
                                 state_text(S->x, text, sizeof text));
            }
            memcpy(S->x, N_VGetArrayPointer(S->cv_y), sizeof S->x);
            if (flag == CV_ROOT_RETURN) { /* a state event: CVODE located the indicator's sign change */
                t_end = t_reached;
                time_event = 1;
            }
        }
        S->t = t_end;
        mark_dirty(S);
        if (time_event) { /* a time event, or the state event located above */
            if (handle_event(S, func, 0, &jumped) != fmi3OK) {
                *lastSuccessfulTime = S->t;
                return fmi3Error;
            }
            S->cv_running = 0; /* the right-hand side may jump: CVODE starts afresh after the event */
            if (S->terminate_requested) {
                *terminateSimulation = fmi3True;
                *lastSuccessfulTime = S->t;
                return fmi3OK;
            }
        }
        if (t_end >= t1 || same_time(t_end, t1)) break;
    }
    S->t = t1;
    mark_dirty(S);
    *lastSuccessfulTime = t1;
    return fmi3OK;
}

/* =====================================================================================================
 * Scheduled Execution
 * ===================================================================================================== */

FMI3_Export fmi3Status fmi3ActivateModelPartition(fmi3Instance instance, fmi3ValueReference clockReference,
                                                  fmi3Float64 activationTime) {
    (void)clockReference;
    (void)activationTime;
    return not_supported(instance, "fmi3ActivateModelPartition");
}
