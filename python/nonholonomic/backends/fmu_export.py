"""Export an :class:`ExplicitOde` as an FMI 3.0 model-exchange FMU with CasADi, compiled with gcc.

CasADi's ``DaeBuilder.export_fmu`` writes the C sources (model equations, their derivatives, the FMI
wrapper) and ``modelDescription.xml``. Its wrapper keeps state start values as fixed numbers; the
physical initial state of our models depends on parameters (a ball starts on its surface, rolling), so
the wrapper's ``fmi3ExitInitializationMode`` is extended to evaluate the generated ``initial_state(p)``
function with the parameters set by the importer. The binary also exports the exact Jacobian of the
state derivatives and CVODE's right-hand side and Jacobian callbacks (not part of FMI, ``_solver_code``;
:mod:`..cvode` hands them to CVODE).
The sources are compiled against the FMI headers that fmpy ships and packed with the sources into the
``.fmu``.
"""

from __future__ import annotations

import json
import os
import pathlib
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

import casadi as ca

from ..errors import NonholonomicError
from .explicit_ode import ExplicitOde

PARAMETER_INFO = "extra/org.nonholonomic/parameters.json"
JACOBIAN_SYMBOL = "nonholonomic_state_jacobian"

_EXIT_INIT = """FMI3_Export fmi3Status fmi3ExitInitializationMode(fmi3Instance instance) {
  // Unused variables
  (void)instance;  // unused
  // Always successful return
  return fmi3OK;
}"""


def fmi_headers() -> pathlib.Path:
    import fmpy
    path = pathlib.Path(fmpy.__file__).parent / "c-code"
    if not (path / "fmi3Functions.h").is_file():
        raise NonholonomicError(f"FMI 3 headers not found in {path} (reinstall fmpy)")
    return path


def fmi3_platform() -> str:
    machine = {"amd64": "x86_64", "x86_64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}.get(
        platform.machine().lower(), platform.machine().lower())
    system = {"linux": "linux", "darwin": "darwin", "win32": "windows"}.get(sys.platform, sys.platform)
    return f"{machine}-{system}"


def _casadi_call(function: str, args: list[str], outputs: list[tuple[str, int]]) -> str:
    """C block that calls the generated CasADi function ``function`` with its work arrays on the heap:
    ``args`` are C expressions of its inputs, ``outputs`` (array, length) receive its outputs, zeroed first
    (CasADi writes the structural non-zeros only). Sets ``flag`` (0 on success)."""
    set_args = "".join(f"\n      arg[{k}] = {a};" for k, a in enumerate(args))
    set_results = "".join(f"\n      for (i = 0; i < {n}L; ++i) {r}[i] = 0;\n      res[{k}] = {r};"
                          for k, (r, n) in enumerate(outputs))
    return f"""{{
    casadi_int sz_arg, sz_res, sz_iw, sz_w;
    const casadi_real** arg;
    casadi_real** res;
    casadi_int* iw;
    casadi_real* w;
    long i;
    {function}_work(&sz_arg, &sz_res, &sz_iw, &sz_w);
    arg = (const casadi_real**)malloc((sz_arg + 1) * sizeof(casadi_real*));
    res = (casadi_real**)malloc((sz_res + 1) * sizeof(casadi_real*));
    iw = (casadi_int*)malloc((sz_iw + 1) * sizeof(casadi_int));
    w = (casadi_real*)malloc((sz_w + 1) * sizeof(casadi_real));
    flag = !arg || !res || !iw || !w;
    if (!flag) {{{set_args}{set_results}
      flag = {function}(arg, res, iw, w, 0);
    }}
    free(arg); free(res); free(iw); free(w);
  }}"""


def _initial_state_code(name: str, p_vr: list[int], x_vr: list[int]) -> str:
    """C code that sets the states from the parameters at the end of initialisation."""
    p_list = ", ".join(map(str, p_vr)) or "0"
    x_list = ", ".join(map(str, x_vr)) or "0"
    call = _casadi_call(f"{name}_initial_state", ["p"], [("x", len(x_vr))])
    return f"""#include "{name}_init.h"

/* Nonholonomic: initial state x0 = initial_state(p), evaluated when initialisation ends */
static const fmi3ValueReference nh_p_vr[] = {{{p_list}}};
static const fmi3ValueReference nh_x_vr[] = {{{x_list}}};

static int nh_set_initial_state(casadi_fmi_memory* m) {{
  casadi_real p[{max(1, len(p_vr))}], x[{max(1, len(x_vr))}];
  size_t i;
  int flag;
  for (i = 0; i < {len(p_vr)}; ++i) p[i] = m->v[var_offset[nh_p_vr[i]]];
  {call}
  if (!flag) {{
    for (i = 0; i < {len(x_vr)}; ++i) m->v[var_offset[nh_x_vr[i]]] = x[i];
    m->up_to_date = 0;
  }}
  return flag;
}}

FMI3_Export fmi3Status fmi3ExitInitializationMode(fmi3Instance instance) {{
  return nh_set_initial_state((casadi_fmi_memory*)instance) ? fmi3Error : fmi3OK;
}}"""


def _model_function(name: str, ode: ExplicitOde) -> ca.Function:
    """The model as CasADi's FMU wrapper evaluates it, (t, x, z, p, u) -> (ode, alg, y, zero), from
    ``ode.rhs``: the wrapper's own model function is generated from ``ode.rhs_qr`` for the sake of its
    derivatives (directional and adjoint derivatives of FMI), and its evaluations are redirected here."""
    t, x, p = ode.rhs.mx_in()
    xdot, y = ode.rhs(t, x, p)
    return ca.Function(f"{name}_model", [t, x, ca.MX.sym("z", 0), p, ca.MX.sym("u", 0)],
                       [ca.densify(xdot), ca.MX(0, 1), ca.densify(y), ca.MX(0, 1)],
                       ["t", "x", "z", "p", "u"], ["ode", "alg", "y", "zero"])


def _work_sizes(f: ca.Function) -> dict[str, int]:
    return {"SZ_ARG": f.sz_arg(), "SZ_RES": f.sz_res(), "SZ_IW": f.sz_iw(), "SZ_W": f.sz_w()}


def _evaluate_with(wrapper: str, name: str, function: str, sizes: dict[str, int]) -> str:
    """CasADi's FMU wrapper with its model evaluation (``evaluate``) calling ``function`` (same arguments,
    in the Jacobian's source) instead of the generated ``name``; its work arrays grown to fit both."""
    call = f"  mem = {name}_checkout();\n  flag = {name}(m->arg, m->res, m->iw, m->w, mem);\n  {name}_release(mem);\n"
    if wrapper.count(call) != 1:
        raise NonholonomicError("CasADi's FMU wrapper changed: cannot redirect its model evaluation "
                                "(check casadi version)")
    wrapper = wrapper.replace(call, f"  (void)mem;\n  flag = {function}(m->arg, m->res, m->iw, m->w, 0);\n")
    for macro, size in sizes.items():
        wrapper, count = re.subn(rf"#define {macro} (\d+)\n",
                                 lambda m: f"#define {macro} {max(int(m.group(1)), size)}\n", wrapper)
        if count != 1:
            raise NonholonomicError(f"CasADi's FMU wrapper changed: no {macro} (check casadi version)")
    declaration = (f"int {function}(const casadi_real** arg, casadi_real** res, casadi_int* iw, casadi_real* w, "
                   f"int mem);\n")
    include = f'#include "{name}.h"\n'
    return wrapper.replace(include, include + declaration, 1)


def _solver_code(name: str, nx: int, ny: int) -> str:
    """C entry points for implicit integrators (not part of FMI), beside the generated
    ``{name}_state_derivatives`` and ``{name}_state_jacobian`` (both of (t, x, p), p in the order of
    ``jacobian_parameters`` in PARAMETER_INFO):

    - ``nonholonomic_state_jacobian(t, x, p, jac)``: jac (column-major n_x x n_x) = d der(x)/dx; 0 on success;
    - ``nonholonomic_cvode_rhs`` and ``nonholonomic_cvode_jacobian`` with the signatures of CVODE's
      right-hand side and dense Jacobian functions, so that CVODE calls the model directly and no
      interpreter runs inside a step (ctypes callbacks cost more than a small model's evaluation and
      swallow Ctrl-C). Their user data is a ``nonholonomic_cvode_data`` (below) that carries SUNDIALS'
      ``N_VGetArrayPointer`` and ``SUNDenseMatrix_Data``, so the binary does not link SUNDIALS. Where the
      exact Jacobian is not finite (a square root at zero), that Jacobian is made by forward differences
      of the derivatives instead, counted in ``fallbacks``;
    - ``nonholonomic_outputs(n, t, x, p, y)``: the outputs (``output_names`` in PARAMETER_INFO) at n
      points at once (row r: time t[r], states x[r*n_x...], outputs y[r*n_y...]), for the rows of a run:
      one call instead of three FMI calls and an evaluation of the whole model per row."""
    return f"""
/* ---- Nonholonomic: entry points for implicit integrators (not part of FMI) ---- */
#include <stdlib.h>
typedef int (*nh_sizes_fn)(casadi_int*, casadi_int*, casadi_int*, casadi_int*);
typedef int (*nh_eval_fn)(const casadi_real**, casadi_real**, casadi_int*, casadi_real*, int);
typedef struct {{ const casadi_real** arg; casadi_real** res; casadi_int* iw; casadi_real* w; }} nh_work;

static void nh_work_free(nh_work* k) {{
  if (k) {{ free(k->arg); free(k->res); free(k->iw); free(k->w); free(k); }}
}}

static nh_work* nh_work_new(nh_sizes_fn sizes) {{
  casadi_int sz_arg, sz_res, sz_iw, sz_w;
  nh_work* k = (nh_work*)calloc(1, sizeof(nh_work));
  if (!k) return 0;
  sizes(&sz_arg, &sz_res, &sz_iw, &sz_w);
  k->arg = (const casadi_real**)malloc((sz_arg + 1) * sizeof(casadi_real*));
  k->res = (casadi_real**)malloc((sz_res + 1) * sizeof(casadi_real*));
  k->iw = (casadi_int*)malloc((sz_iw + 1) * sizeof(casadi_int));
  k->w = (casadi_real*)malloc((sz_w + 1) * sizeof(casadi_real));
  if (!k->arg || !k->res || !k->iw || !k->w) {{ nh_work_free(k); return 0; }}
  return k;
}}

/* out[0..n) = f(t, x, p), zeroed first (CasADi writes the structural non-zeros only); 0 if finite */
static int nh_eval(nh_eval_fn f, nh_work* k, double t, const double* x, const double* p, double* out, long n) {{
  long i;
  for (i = 0; i < n; ++i) out[i] = 0;
  k->arg[0] = &t; k->arg[1] = x; k->arg[2] = p; k->res[0] = out;
  if (f(k->arg, k->res, k->iw, k->w, 0)) return -1;
  for (i = 0; i < n; ++i) if (!(out[i] - out[i] == 0)) return 1;  /* NaN or infinite */
  return 0;
}}

CASADI_SYMBOL_EXPORT int {JACOBIAN_SYMBOL}(double t, const double* x, const double* p, double* jac) {{
  nh_work* k = nh_work_new({name}_state_jacobian_work);
  int flag = k ? nh_eval({name}_state_jacobian, k, t, x, p, jac, {nx * nx}L) < 0 : 1;
  nh_work_free(k);
  return flag;
}}

typedef struct {{
  double* (*vector_data)(void* v);     /* N_VGetArrayPointer */
  double* (*matrix_data)(void* m);     /* SUNDenseMatrix_Data (column-major) */
  const double* p;                     /* parameters, in the order of jacobian_parameters */
  long nx;                             /* number of states, checked against this binary's */
  long fallbacks;                      /* Jacobians made by differences */
  nh_work* rhs_work;                   /* allocated on first use */
  nh_work* jac_work;
}} nonholonomic_cvode_data;

CASADI_SYMBOL_EXPORT int nonholonomic_cvode_rhs(double t, void* y, void* ydot, void* user_data) {{
  nonholonomic_cvode_data* d = (nonholonomic_cvode_data*)user_data;
  if (d->nx != {nx}L) return -1;
  if (!d->rhs_work && !(d->rhs_work = nh_work_new({name}_state_derivatives_work))) return -1;
  /* non-finite derivatives are passed on as fmpy's loop did: CVODE's tests then fail and it stops (a
     recoverable error instead makes it retry with ever smaller steps at a singular configuration) */
  return nh_eval({name}_state_derivatives, d->rhs_work, t, d->vector_data(y), d->p, d->vector_data(ydot), {nx}L) < 0 ? -1 : 0;
}}

CASADI_SYMBOL_EXPORT int nonholonomic_cvode_jacobian(double t, void* y, void* fy, void* J, void* user_data,
                                                     void* tmp1, void* tmp2, void* tmp3) {{
  nonholonomic_cvode_data* d = (nonholonomic_cvode_data*)user_data;
  const double *x = d->vector_data(y), *f0 = d->vector_data(fy);
  double *jac = d->matrix_data(J), *shifted = d->vector_data(tmp1), h;
  long i, j;
  int flag;
  (void)tmp2; (void)tmp3;
  if (d->nx != {nx}L) return -1;
  if (!d->jac_work && !(d->jac_work = nh_work_new({name}_state_jacobian_work))) return -1;
  flag = nh_eval({name}_state_jacobian, d->jac_work, t, x, d->p, jac, {nx * nx}L);
  if (flag <= 0) return flag;
  d->fallbacks++;
  if (!d->rhs_work && !(d->rhs_work = nh_work_new({name}_state_derivatives_work))) return -1;
  for (i = 0; i < {nx}L; ++i) shifted[i] = x[i];
  for (j = 0; j < {nx}L; ++j) {{
    shifted[j] = x[j] + 1.5e-8 * (fabs(x[j]) > 1.0 ? fabs(x[j]) : 1.0);  /* sqrt(machine epsilon), relative */
    h = shifted[j] - x[j];
    if (nh_eval({name}_state_derivatives, d->rhs_work, t, shifted, d->p, jac + j * {nx}L, {nx}L)) return -1;
    for (i = 0; i < {nx}L; ++i) jac[j * {nx}L + i] = (jac[j * {nx}L + i] - f0[i]) / h;
    shifted[j] = x[j];
  }}
  return 0;
}}

CASADI_SYMBOL_EXPORT int nonholonomic_outputs(long n, const double* t, const double* x, const double* p, double* y) {{
  nh_work* k = nh_work_new({name}_outputs_work);
  long r;
  int flag = !k;
  for (r = 0; r < n && !flag; ++r) flag = nh_eval({name}_outputs, k, t[r], x + r * {nx}L, p, y + r * {ny}L, {ny}L) < 0;
  nh_work_free(k);
  return flag;
}}

CASADI_SYMBOL_EXPORT void nonholonomic_cvode_data_free(void* user_data) {{
  nonholonomic_cvode_data* d = (nonholonomic_cvode_data*)user_data;
  nh_work_free(d->rhs_work);
  nh_work_free(d->jac_work);
  d->rhs_work = d->jac_work = 0;
}}
"""


def _compile(sources: list[str], binary: pathlib.Path, name: str) -> None:
    """gcc each source to an object in parallel (the model and its Jacobian are megabytes of C for the
    larger models), then link the shared library."""
    objects = [pathlib.Path(s).with_suffix(".o").name for s in sources]
    try:
        flags = ["-fPIC", "-O2", "-Werror=implicit-function-declaration", "-I", str(fmi_headers()), "-I", "."]
        jobs = [subprocess.Popen(["gcc", "-c", *flags, "-o", o, s],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for s, o in zip(sources, objects)]
        results = []
        for job in jobs:
            _, stderr = job.communicate()  # reads the pipes to the end: no job blocks on a full one
            results.append((job.returncode, stderr))
        if all(code == 0 for code, _ in results):
            link = subprocess.run(["gcc", "-shared", "-o", str(binary), *objects, "-lm"], capture_output=True, text=True)
            results = [(link.returncode, link.stderr)]
    except FileNotFoundError:
        raise NonholonomicError("gcc not found: the rumoca backend compiles FMUs with gcc") from None
    for code, stderr in results:
        if code != 0:
            first = next((l for l in stderr.splitlines() if "error" in l), stderr.strip()[:200])
            raise NonholonomicError(f"gcc failed to compile the FMU of {name}: {first}")


def _list_sources(build_description: pathlib.Path, added: list[str]) -> None:
    """Add source files to the FMI build description that CasADi wrote."""
    entries = "".join(f'\n            <SourceFile name="{f}"/>' for f in added)
    text = build_description.read_text()
    build_description.write_text(re.sub(r"\n\s*</SourceFileSet>", lambda m: entries + m.group(0), text, count=1))


def export_fmu(ode: ExplicitOde, name: str, out_path: pathlib.Path, experiment: dict | None = None,
               progress=None, keep_dir=None) -> pathlib.Path:
    """Write ``out_path`` (an ``.fmu``) for the explicit model ``ode``; ``name`` is the model identifier.

    ``experiment`` holds the FMI DefaultExperiment attributes (startTime, stopTime, tolerance, stepSize).
    """
    say = progress or (lambda msg: None)
    if not name.isidentifier():
        raise NonholonomicError(f"FMU model identifier {name!r} is not a C identifier")
    work = pathlib.Path(tempfile.mkdtemp(prefix=f"nh_{name}_"))
    cwd = os.getcwd()
    try:
        os.chdir(work)
        dae = ca.DaeBuilder(name)
        t = dae.add("time", "independent", "continuous", {})
        P = [dae.add(p.name, "parameter", "tunable", _opts(p)) for p in ode.parameters]
        X = [dae.add(s.name, "local", "continuous", _opts(s)) for s in ode.states]
        xdot, y = ode.rhs_qr(t, ca.vertcat(*X), ca.vertcat(*P) if P else ca.MX(0, 1))
        for k, x in enumerate(X):
            dae.eq(dae.der(x), xdot[k])
        for k, out in enumerate(ode.outputs):
            dae.eq(dae.add(out.name, "output", "continuous", _opts(out)), y[k])
        say("C code generation")
        files = dae.export_fmu({"no_warning": True})
        init_src = f"{name}_init.c"
        p_in = ode.initial_state.mx_in(0)
        init_gen = ca.CodeGenerator(init_src, {"with_header": True})
        init_gen.add(ca.Function(f"{name}_initial_state", [p_in], [ode.initial_state(p_in)]))
        init_gen.generate()
        jac_src = f"{name}_jacobian.c"
        t_in, x_in, p_in = ode.jacobian.mx_in()
        jac_gen = ca.CodeGenerator(jac_src, {"with_header": False})
        jac_gen.add(ca.Function(f"{name}_state_jacobian", [t_in, x_in, p_in], [ode.jacobian(t_in, x_in, p_in)]))
        jac_gen.add(ca.Function(f"{name}_state_derivatives", [t_in, x_in, p_in], [ode.derivatives(t_in, x_in, p_in)]))
        jac_gen.add(ca.Function(f"{name}_outputs", [t_in, x_in, p_in], [ode.rhs(t_in, x_in, p_in)[1]]))
        model = _model_function(name, ode)
        jac_gen.add(model)
        jac_gen.generate()
        with open(jac_src, "a") as f:
            f.write(_solver_code(name, len(ode.states), len(ode.outputs)))
        wrapper = pathlib.Path(f"{name}_wrap.c")
        text = wrapper.read_text()
        if text.count(_EXIT_INIT) != 1:
            raise NonholonomicError("CasADi's FMU wrapper changed: cannot hook the initial state (check casadi version)")
        p_vr = [int(dae.value_reference(p.name)) for p in ode.parameters]
        x_vr = [int(dae.value_reference(s.name)) for s in ode.states]
        text = text.replace(_EXIT_INIT, _initial_state_code(name, p_vr, x_vr))
        wrapper.write_text(_evaluate_with(text, name, model.name(), _work_sizes(model)))
        complete_model_description(pathlib.Path("modelDescription.xml"), x_vr, experiment)
        sources = [f for f in files if f.endswith(".c")] + [init_src, jac_src]
        for local, archived in files.items():  # importers that compile from source need the added files
            if archived.endswith("buildDescription.xml"):
                _list_sources(pathlib.Path(local), [init_src, f"{name}_init.h", jac_src])
        say(f"gcc ({sum(pathlib.Path(f).stat().st_size for f in sources) // 1024} KB of C)")
        binary = pathlib.Path("binaries") / fmi3_platform() / f"{name}.so"
        binary.parent.mkdir(parents=True)
        _compile(sources, binary, name)
        out_path = pathlib.Path(out_path)
        out_path.parent.mkdir(parents=True, exist_ok=True)
        partial = out_path.with_suffix(".fmu.part")
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as z:
            for local, archived in files.items():
                z.write(local, archived)
            for added in (init_src, f"{name}_init.h", jac_src):
                z.write(added, f"sources/{added}")
            z.write(binary, str(binary), zipfile.ZIP_STORED)  # stored: importers extract it on every run
            # FMI 3 Int32 is not implemented by CasADi's wrapper: Integer parameters travel as Float64, and
            # this list lets importers reject non-integer values; parameters bound to others are not FMU
            # parameters, and the second list lets importers say which ones to set instead; the third
            # gives the order of p in the Jacobian's arguments (and of x and y in _solver_code's functions);
            # the flag says that the binary has CVODE's callbacks and the batch outputs (_solver_code)
            integers = [p.name for p in ode.parameters if p.is_integer]
            z.writestr(PARAMETER_INFO, json.dumps({"integer_parameters": integers,
                                                   "dependent_parameters": ode.dependent_parameters,
                                                   "jacobian_parameters": [p.name for p in ode.parameters],
                                                   "state_names": [x.name for x in ode.states],
                                                   "output_names": [y.name for y in ode.outputs],
                                                   "solver_functions": True},
                                                  indent=1))
        os.replace(partial, out_path)
        if keep_dir is not None:
            shutil.copytree(work, keep_dir, dirs_exist_ok=True)
        return out_path
    finally:
        os.chdir(cwd)
        shutil.rmtree(work, ignore_errors=True)


_BASE_UNITS = ("kg", "m", "s", "A", "K", "mol", "cd", "rad")
_DERIVED_UNITS = {"N": {"kg": 1, "m": 1, "s": -2}, "J": {"kg": 1, "m": 2, "s": -2}, "W": {"kg": 1, "m": 2, "s": -3},
                  "Pa": {"kg": 1, "m": -1, "s": -2}, "Hz": {"s": -1}, "g": {"kg": 1}}


def base_unit_exponents(unit: str) -> dict[str, int]:
    """Exponents of the SI base units of a Modelica unit string such as ``kg.m2``, ``m/s2`` or ``N.m``."""
    exps: dict[str, int] = {}
    for sign, part in zip((1, -1), (unit.split("/", 1) + [""])[:2]):
        for token in filter(None, part.split(".")):
            m = re.fullmatch(r"([A-Za-z]+)(-?\d*)", token)
            if token == "1":
                continue
            if not m or (m.group(1) not in _BASE_UNITS and m.group(1) not in _DERIVED_UNITS):
                raise NonholonomicError(f"unit {unit!r}: cannot express {token!r} in SI base units")
            power = sign * int(m.group(2) or 1)
            for base, e in _DERIVED_UNITS.get(m.group(1), {m.group(1): 1}).items():
                exps[base] = exps.get(base, 0) + e * power
    return {b: e for b, e in exps.items() if e}


def complete_model_description(path: pathlib.Path, state_vrs: list[int], experiment: dict | None) -> None:
    """Complete CasADi's modelDescription.xml: unit definitions, default experiment, initial unknowns."""
    text = path.read_text()
    units = sorted(set(re.findall(r' unit="([^"]+)"', text)))
    rows = []
    for unit in units:
        exps = base_unit_exponents(unit)
        attrs = " ".join(f'{b}="{e}"' for b, e in exps.items())
        rows.append(f'        <Unit name="{unit}">' + (f"<BaseUnit {attrs}/>" if attrs else "") + "</Unit>")
    insert = ("    <UnitDefinitions>\n" + "\n".join(rows) + "\n    </UnitDefinitions>\n") if rows else ""
    if experiment:
        attrs = " ".join(f'{k}="{v}"' for k, v in experiment.items())
        insert += f"    <DefaultExperiment {attrs}/>\n"
    anchor = "    <ModelVariables>"
    if text.count(anchor) != 1 or text.count("    </ModelStructure>") != 1:
        raise NonholonomicError("unexpected modelDescription.xml from CasADi (check the casadi version)")
    text = text.replace(anchor, insert + anchor)
    # CasADi's helper variables "__assign__x__" are not legal structured names unless quoted
    text = re.sub(r'name="(__assign__[^"]*__)"', lambda m: f"name=\"'{m.group(1)}'\"", text)
    # The states are computed at initialisation (from the parameters), so they are initial unknowns too;
    # dependencies are left out (= all knowns), since CasADi lists states where parameters are meant.
    vrs = {int(v) for v in re.findall(r'<InitialUnknown [^>]*valueReference="(\d+)"', text)} | set(state_vrs)
    text = re.sub(r"\s*<InitialUnknown [^>]*/>", "", text)
    rows = "".join(f'\n        <InitialUnknown valueReference="{vr}"/>' for vr in sorted(vrs))
    text = text.replace("\n    </ModelStructure>", rows + "\n    </ModelStructure>")
    path.write_text(text)


def _opts(v) -> dict:
    opts = {"start": float(v.start)}
    if v.description:
        opts["description"] = v.description
    if v.unit:
        opts["unit"] = v.unit
    if v.min is not None:
        opts["min"] = float(v.min)
    if v.max is not None:
        opts["max"] = float(v.max)
    return opts
