/*
 * fmi2_model.c - the FMI 2.0 C API (Model Exchange and Co-Simulation) as a thin adapter over fmi3_model.c
 *
 * Compiled into the same shared library as fmi3_model.c (the fmi2* and fmi3* symbols coexist): every fmi2
 * function forwards to its fmi3 counterpart, so the model, the state machine and its checks, the events and
 * the co-simulation integrator exist once. The fmi2Component is the fmi3Instance itself (the non-FMI entry
 * points nonholonomic_memory and nonholonomic_cs_steps take either); what FMI 2 needs beyond FMI 3 lives in
 * an Adapter passed to the fmi3 instance as its instance environment (nh_instance_environment gives it back):
 * a copy of the importer's callbacks, the arguments of fmi2SetupExperiment until fmi2EnterInitializationMode
 * (without the call: no tolerance, start time 0, no stop time),
 * and the status of the last fmi2DoStep.
 *
 * Mapping:
 *   fmi2Instantiate(fmi2ModelExchange | fmi2CoSimulation) -> fmi3InstantiateModelExchange | CoSimulation
 *     (co-simulation without event mode: FMI 2 has none, the FMU handles its events inside fmi2DoStep)
 *   fmi2SetupExperiment + fmi2EnterInitializationMode   -> fmi3EnterInitializationMode(tolerance, start, stop)
 *   fmi2NewDiscreteStates                               -> fmi3UpdateDiscreteStates
 *   fmi2GetDerivatives                                  -> fmi3GetContinuousStateDerivatives
 *   fmi2Get/SetReal                                     -> fmi3Get/SetFloat64
 *   fmi2Get/SetInteger, Boolean, String                 -> fmi3 Int32, Boolean, String (there are no such
 *                                                          variables: fmi2OK for none, else fmi2Error)
 *   fmi2DoStep                                          -> fmi3DoStep; a terminate() of the model inside the
 *     step gives fmi2Discard, fmi2GetBooleanStatus(fmi2Terminated) = true and fmi2GetRealStatus
 *     (fmi2LastSuccessfulTime) the time reached
 *   FMU state functions                                 -> the fmi3 FMU state functions
 *   everything else                                     -> the fmi3 function of the same name
 * Not supported: fmi2SetRealInputDerivatives (canInterpolateInputs = false), fmi2CancelStep and the pending
 * status (canRunAsynchronuously = false; fmi2DoStep never returns fmi2Pending).
 *
 * Logging: the fmi3 messages "<instance>: fmi3Function: reason" reach the FMI 2 logger as
 * "<instance>: fmi2Function: reason", naming the fmi2 function that was called; '%' is doubled, since the
 * FMI 2 logger takes its message as a printf format.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmi2Functions.h"
#include "fmi3Functions.h"

#define NH_LOG_LEN 1024 /* longest message passed on (the fmi3 ones are at most 512 characters) */

fmi3InstanceEnvironment nh_instance_environment(fmi3Instance instance); /* fmi3_model.c */

typedef struct {
    fmi2CallbackFunctions callbacks; /* a copy: the importer's struct need not outlive fmi2Instantiate */
    char* name;
    const char* func;                /* the fmi2 function being called (named in the messages) */
    int initialised;                 /* fmi2EnterInitializationMode succeeded (fmi2SetupExperiment is over) */
    fmi3Boolean tolerance_defined, stop_defined;
    double tolerance, start, stop;
    fmi2Boolean terminated;          /* the last fmi2DoStep ended at a terminate() of the model */
    double last_successful_time;     /* where the last fmi2DoStep ended */
} Adapter;

/* Append text to buf (capacity NH_LOG_LEN, length *k), '%' doubled. */
static void append(char* buf, size_t* k, const char* text) {
    for (; *text && *k + 2 < NH_LOG_LEN; ++text) {
        if (*text == '%') buf[(*k)++] = '%';
        buf[(*k)++] = *text;
    }
    buf[*k] = '\0';
}

/* The fmi3 log callback: the message passed to the FMI 2 logger, naming the fmi2 function. */
static void log_message(fmi3InstanceEnvironment env, fmi3Status status, fmi3String category, fmi3String message) {
    Adapter* A = (Adapter*)env;
    char buf[NH_LOG_LEN];
    size_t k = 0, n;
    const char* rest = message ? message : "";
    if (!A || !A->callbacks.logger) return;
    buf[0] = '\0';
    n = strlen(A->name);
    if (A->func && strncmp(rest, A->name, n) == 0 && strncmp(rest + n, ": fmi3", 6) == 0 &&
        strstr(rest + n + 2, ": ")) {
        append(buf, &k, A->name);
        append(buf, &k, ": ");
        append(buf, &k, A->func);
        rest = strstr(rest + n + 2, ": ");
    }
    append(buf, &k, rest);
    A->callbacks.logger(A->callbacks.componentEnvironment, A->name, (fmi2Status)status, category, buf);
}

/* An error of the adapter itself, in the same form. */
static fmi2Status error(Adapter* A, const char* func, const char* reason) {
    char buf[NH_LOG_LEN];
    size_t k = 0;
    if (A && A->callbacks.logger) {
        buf[0] = '\0';
        append(buf, &k, A->name);
        append(buf, &k, ": ");
        append(buf, &k, func);
        append(buf, &k, ": ");
        append(buf, &k, reason);
        A->callbacks.logger(A->callbacks.componentEnvironment, A->name, fmi2Error, "logStatusError", buf);
    }
    return fmi2Error;
}

/* The adapter of an instance, with the fmi2 function now called; NULL for no instance. */
static Adapter* adapter(fmi2Component c, const char* func) {
    Adapter* A = c ? (Adapter*)nh_instance_environment((fmi3Instance)c) : NULL;
    if (A) A->func = func;
    return A;
}

#define FORWARD(func, call)                                                                                   \
    do {                                                                                                      \
        if (!adapter(c, func)) return fmi2Error;                                                              \
        return (fmi2Status)(call);                                                                            \
    } while (0)

/* ---- common functions ---- */

FMI2_Export const char* fmi2GetTypesPlatform(void) {
    return fmi2TypesPlatform;
}

FMI2_Export const char* fmi2GetVersion(void) {
    return fmi2Version;
}

FMI2_Export fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean loggingOn, size_t nCategories,
                                           const fmi2String categories[]) {
    FORWARD("fmi2SetDebugLogging", fmi3SetDebugLogging(c, loggingOn != fmi2False, nCategories, categories));
}

FMI2_Export fmi2Component fmi2Instantiate(fmi2String instanceName, fmi2Type fmuType, fmi2String fmuGUID,
                                          fmi2String fmuResourceLocation, const fmi2CallbackFunctions* functions,
                                          fmi2Boolean visible, fmi2Boolean loggingOn) {
    Adapter* A;
    fmi3Instance S = NULL;
    if (!functions) return NULL; /* nothing to log with */
    A = (Adapter*)calloc(1, sizeof(Adapter));
    if (A) A->name = (char*)malloc(strlen(instanceName ? instanceName : "?") + 1);
    if (!A || !A->name) {
        if (functions->logger)
            functions->logger(functions->componentEnvironment, instanceName, fmi2Error, "logStatusError",
                              "fmi2Instantiate: out of memory");
        free(A);
        return NULL;
    }
    strcpy(A->name, instanceName ? instanceName : "?");
    A->callbacks = *functions;
    A->func = "fmi2Instantiate";
    if (fmuType == fmi2ModelExchange)
        S = fmi3InstantiateModelExchange(instanceName, fmuGUID, fmuResourceLocation, visible != fmi2False,
                                         loggingOn != fmi2False, A, log_message);
    else if (fmuType == fmi2CoSimulation)
        S = fmi3InstantiateCoSimulation(instanceName, fmuGUID, fmuResourceLocation, visible != fmi2False,
                                        loggingOn != fmi2False, fmi3False, fmi3False, NULL, 0, A, log_message,
                                        NULL);
    else
        error(A, "fmi2Instantiate", "fmuType is neither fmi2ModelExchange nor fmi2CoSimulation");
    if (!S) {
        free(A->name);
        free(A);
    }
    return S;
}

FMI2_Export void fmi2FreeInstance(fmi2Component c) {
    Adapter* A = adapter(c, "fmi2FreeInstance");
    fmi3FreeInstance(c);
    if (A) free(A->name);
    free(A);
}

FMI2_Export fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean toleranceDefined, fmi2Real tolerance,
                                           fmi2Real startTime, fmi2Boolean stopTimeDefined, fmi2Real stopTime) {
    Adapter* A = adapter(c, "fmi2SetupExperiment");
    if (!A) return fmi2Error;
    if (A->initialised) return error(A, A->func, "not allowed after fmi2EnterInitializationMode");
    A->tolerance_defined = toleranceDefined != fmi2False;
    A->tolerance = tolerance;
    A->start = startTime;
    A->stop_defined = stopTimeDefined != fmi2False;
    A->stop = stopTime;
    return fmi2OK;
}

FMI2_Export fmi2Status fmi2EnterInitializationMode(fmi2Component c) {
    Adapter* A = adapter(c, "fmi2EnterInitializationMode");
    fmi3Status status;
    if (!A) return fmi2Error;
    status = fmi3EnterInitializationMode(c, A->tolerance_defined, A->tolerance, A->start, A->stop_defined, A->stop);
    if (status <= fmi3Warning) A->initialised = 1;
    return (fmi2Status)status;
}

FMI2_Export fmi2Status fmi2ExitInitializationMode(fmi2Component c) {
    FORWARD("fmi2ExitInitializationMode", fmi3ExitInitializationMode(c));
}

FMI2_Export fmi2Status fmi2Terminate(fmi2Component c) {
    FORWARD("fmi2Terminate", fmi3Terminate(c));
}

FMI2_Export fmi2Status fmi2Reset(fmi2Component c) {
    Adapter* A = adapter(c, "fmi2Reset");
    fmi3Status status;
    if (!A) return fmi2Error;
    status = fmi3Reset(c);
    if (status <= fmi3Warning) A->initialised = 0;
    A->terminated = fmi2False;
    A->last_successful_time = 0.0;
    return (fmi2Status)status;
}

/* ---- variables ---- */

FMI2_Export fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Real value[]) {
    FORWARD("fmi2GetReal", fmi3GetFloat64(c, vr, nvr, value, nvr));
}

FMI2_Export fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                   const fmi2Real value[]) {
    FORWARD("fmi2SetReal", fmi3SetFloat64(c, vr, nvr, value, nvr));
}

/* no variables of these types: the fmi3 functions accept nvr = 0 and refuse any other without reading values */
FMI2_Export fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                      fmi2Integer value[]) {
    FORWARD("fmi2GetInteger", fmi3GetInt32(c, vr, nvr, value, nvr));
}

FMI2_Export fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                      const fmi2Integer value[]) {
    FORWARD("fmi2SetInteger", fmi3SetInt32(c, vr, nvr, value, nvr));
}

FMI2_Export fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                      fmi2Boolean value[]) {
    FORWARD("fmi2GetBoolean", fmi3GetBoolean(c, vr, nvr, (fmi3Boolean*)(void*)value, nvr));
}

FMI2_Export fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                      const fmi2Boolean value[]) {
    FORWARD("fmi2SetBoolean", fmi3SetBoolean(c, vr, nvr, (const fmi3Boolean*)(const void*)value, nvr));
}

FMI2_Export fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                     fmi2String value[]) {
    FORWARD("fmi2GetString", fmi3GetString(c, vr, nvr, value, nvr));
}

FMI2_Export fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                     const fmi2String value[]) {
    FORWARD("fmi2SetString", fmi3SetString(c, vr, nvr, value, nvr));
}

/* ---- FMU state ---- */

FMI2_Export fmi2Status fmi2GetFMUstate(fmi2Component c, fmi2FMUstate* FMUstate) {
    FORWARD("fmi2GetFMUstate", fmi3GetFMUState(c, FMUstate));
}

FMI2_Export fmi2Status fmi2SetFMUstate(fmi2Component c, fmi2FMUstate FMUstate) {
    FORWARD("fmi2SetFMUstate", fmi3SetFMUState(c, FMUstate));
}

FMI2_Export fmi2Status fmi2FreeFMUstate(fmi2Component c, fmi2FMUstate* FMUstate) {
    FORWARD("fmi2FreeFMUstate", fmi3FreeFMUState(c, FMUstate));
}

FMI2_Export fmi2Status fmi2SerializedFMUstateSize(fmi2Component c, fmi2FMUstate FMUstate, size_t* size) {
    FORWARD("fmi2SerializedFMUstateSize", fmi3SerializedFMUStateSize(c, FMUstate, size));
}

FMI2_Export fmi2Status fmi2SerializeFMUstate(fmi2Component c, fmi2FMUstate FMUstate, fmi2Byte serializedState[],
                                             size_t size) {
    FORWARD("fmi2SerializeFMUstate", fmi3SerializeFMUState(c, FMUstate, (fmi3Byte*)serializedState, size));
}

FMI2_Export fmi2Status fmi2DeSerializeFMUstate(fmi2Component c, const fmi2Byte serializedState[], size_t size,
                                               fmi2FMUstate* FMUstate) {
    FORWARD("fmi2DeSerializeFMUstate",
            fmi3DeserializeFMUState(c, (const fmi3Byte*)serializedState, size, FMUstate));
}

FMI2_Export fmi2Status fmi2GetDirectionalDerivative(fmi2Component c, const fmi2ValueReference vUnknown_ref[],
                                                    size_t nUnknown, const fmi2ValueReference vKnown_ref[],
                                                    size_t nKnown, const fmi2Real dvKnown[], fmi2Real dvUnknown[]) {
    FORWARD("fmi2GetDirectionalDerivative", fmi3GetDirectionalDerivative(c, vUnknown_ref, nUnknown, vKnown_ref,
                                                                         nKnown, dvKnown, nKnown, dvUnknown,
                                                                         nUnknown));
}

/* ---- Model Exchange ---- */

FMI2_Export fmi2Status fmi2EnterEventMode(fmi2Component c) {
    FORWARD("fmi2EnterEventMode", fmi3EnterEventMode(c));
}

FMI2_Export fmi2Status fmi2NewDiscreteStates(fmi2Component c, fmi2EventInfo* eventInfo) {
    Adapter* A = adapter(c, "fmi2NewDiscreteStates");
    fmi3Boolean update = fmi3False, terminate = fmi3False, nominals = fmi3False, values = fmi3False,
                defined = fmi3False;
    fmi3Float64 when = 0.0;
    fmi3Status status;
    if (!A) return fmi2Error;
    if (!eventInfo) return error(A, A->func, "argument eventInfo is NULL");
    status = fmi3UpdateDiscreteStates(c, &update, &terminate, &nominals, &values, &defined, &when);
    eventInfo->newDiscreteStatesNeeded = update;
    eventInfo->terminateSimulation = terminate;
    eventInfo->nominalsOfContinuousStatesChanged = nominals;
    eventInfo->valuesOfContinuousStatesChanged = values;
    eventInfo->nextEventTimeDefined = defined;
    eventInfo->nextEventTime = when;
    return (fmi2Status)status;
}

FMI2_Export fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c) {
    FORWARD("fmi2EnterContinuousTimeMode", fmi3EnterContinuousTimeMode(c));
}

FMI2_Export fmi2Status fmi2CompletedIntegratorStep(fmi2Component c, fmi2Boolean noSetFMUStatePriorToCurrentPoint,
                                                   fmi2Boolean* enterEventMode, fmi2Boolean* terminateSimulation) {
    Adapter* A = adapter(c, "fmi2CompletedIntegratorStep");
    fmi3Boolean event = fmi3False, terminate = fmi3False;
    fmi3Status status;
    if (!A) return fmi2Error;
    if (!enterEventMode || !terminateSimulation)
        return error(A, A->func, "argument enterEventMode or terminateSimulation is NULL");
    status = fmi3CompletedIntegratorStep(c, noSetFMUStatePriorToCurrentPoint != fmi2False, &event, &terminate);
    *enterEventMode = event;
    *terminateSimulation = terminate;
    return (fmi2Status)status;
}

FMI2_Export fmi2Status fmi2SetTime(fmi2Component c, fmi2Real time) {
    FORWARD("fmi2SetTime", fmi3SetTime(c, time));
}

FMI2_Export fmi2Status fmi2SetContinuousStates(fmi2Component c, const fmi2Real x[], size_t nx) {
    FORWARD("fmi2SetContinuousStates", fmi3SetContinuousStates(c, x, nx));
}

FMI2_Export fmi2Status fmi2GetDerivatives(fmi2Component c, fmi2Real derivatives[], size_t nx) {
    FORWARD("fmi2GetDerivatives", fmi3GetContinuousStateDerivatives(c, derivatives, nx));
}

FMI2_Export fmi2Status fmi2GetEventIndicators(fmi2Component c, fmi2Real eventIndicators[], size_t ni) {
    FORWARD("fmi2GetEventIndicators", fmi3GetEventIndicators(c, eventIndicators, ni));
}

FMI2_Export fmi2Status fmi2GetContinuousStates(fmi2Component c, fmi2Real x[], size_t nx) {
    FORWARD("fmi2GetContinuousStates", fmi3GetContinuousStates(c, x, nx));
}

FMI2_Export fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component c, fmi2Real x_nominal[], size_t nx) {
    FORWARD("fmi2GetNominalsOfContinuousStates", fmi3GetNominalsOfContinuousStates(c, x_nominal, nx));
}

/* ---- Co-Simulation ---- */

FMI2_Export fmi2Status fmi2SetRealInputDerivatives(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                                   const fmi2Integer order[], const fmi2Real value[]) {
    Adapter* A = adapter(c, "fmi2SetRealInputDerivatives");
    (void)vr;
    (void)order;
    (void)value;
    if (!A) return fmi2Error;
    return nvr == 0 ? fmi2OK : error(A, A->func, "not supported by this FMU (canInterpolateInputs = false)");
}

FMI2_Export fmi2Status fmi2GetRealOutputDerivatives(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                                    const fmi2Integer order[], fmi2Real value[]) {
    FORWARD("fmi2GetRealOutputDerivatives", fmi3GetOutputDerivatives(c, vr, nvr, order, value, nvr));
}

FMI2_Export fmi2Status fmi2DoStep(fmi2Component c, fmi2Real currentCommunicationPoint,
                                  fmi2Real communicationStepSize, fmi2Boolean noSetFMUStatePriorToCurrentPoint) {
    Adapter* A = adapter(c, "fmi2DoStep");
    fmi3Boolean event = fmi3False, terminate = fmi3False, early = fmi3False;
    fmi3Float64 reached = currentCommunicationPoint;
    fmi3Status status;
    if (!A) return fmi2Error;
    status = fmi3DoStep(c, currentCommunicationPoint, communicationStepSize,
                        noSetFMUStatePriorToCurrentPoint != fmi2False, &event, &terminate, &early, &reached);
    A->terminated = terminate ? fmi2True : fmi2False;
    A->last_successful_time = reached;
    if (status <= fmi3Warning && terminate) return fmi2Discard; /* the model called terminate() in the step */
    return (fmi2Status)status;
}

FMI2_Export fmi2Status fmi2CancelStep(fmi2Component c) {
    Adapter* A = adapter(c, "fmi2CancelStep");
    return A ? error(A, A->func, "not supported: fmi2DoStep never returns fmi2Pending") : fmi2Error;
}

FMI2_Export fmi2Status fmi2GetStatus(fmi2Component c, const fmi2StatusKind s, fmi2Status* value) {
    Adapter* A = adapter(c, "fmi2GetStatus");
    (void)s;
    (void)value;
    return A ? error(A, A->func, "no such status: fmi2DoStep never returns fmi2Pending") : fmi2Error;
}

FMI2_Export fmi2Status fmi2GetRealStatus(fmi2Component c, const fmi2StatusKind s, fmi2Real* value) {
    Adapter* A = adapter(c, "fmi2GetRealStatus");
    if (!A) return fmi2Error;
    if (s != fmi2LastSuccessfulTime || !value) return error(A, A->func, "only fmi2LastSuccessfulTime, non-NULL");
    *value = A->last_successful_time;
    return fmi2OK;
}

FMI2_Export fmi2Status fmi2GetIntegerStatus(fmi2Component c, const fmi2StatusKind s, fmi2Integer* value) {
    Adapter* A = adapter(c, "fmi2GetIntegerStatus");
    (void)s;
    (void)value;
    return A ? error(A, A->func, "no integer status is defined") : fmi2Error;
}

FMI2_Export fmi2Status fmi2GetBooleanStatus(fmi2Component c, const fmi2StatusKind s, fmi2Boolean* value) {
    Adapter* A = adapter(c, "fmi2GetBooleanStatus");
    if (!A) return fmi2Error;
    if (s != fmi2Terminated || !value) return error(A, A->func, "only fmi2Terminated, non-NULL");
    *value = A->terminated;
    return fmi2OK;
}

FMI2_Export fmi2Status fmi2GetStringStatus(fmi2Component c, const fmi2StatusKind s, fmi2String* value) {
    Adapter* A = adapter(c, "fmi2GetStringStatus");
    (void)s;
    (void)value;
    return A ? error(A, A->func, "no such status: fmi2DoStep never returns fmi2Pending") : fmi2Error;
}
