"""Turn an index-1 flat DAE into an explicit ODE x' = f(t, x, p, u) with outputs y = g(t, x, p, u), u the
model's top-level inputs.

The unknowns of the DAE are the state derivatives and the algebraic variables. After alias elimination
(residuals ``a - b`` between two unknowns), the Jacobian of the residuals with respect to the unknowns is
put in block-triangular form (CasADi ``Sparsity.btf``). A block nonlinear in its own unknowns is solved at run
time by Newton's method with its exact Jacobian (CasADi's code-generated ``fast_newton``, from the unknowns'
start values; where it does not converge its unknowns are NaN). A linear scalar block is solved explicitly, a
larger linear block (accelerations and reaction forces of coupled bodies and constraints) at run time by a
sparse LU generated for its pattern, with pivots chosen on the block's values at sample states
(:mod:`.sparse_lu`; CasADi's sparse QR for the block's dense core and wherever a pivot fails at run time). Explicit solutions are substituted symbolically (SX); the linear blocks are
chained in MX, so the result is one CasADi Function whose C code has no algebraic loop left. A second
Function gives the exact Jacobian d x'/dx for implicit integrators (``_state_jacobian``); a third, the
same model with every block solved by QR (``rhs_qr``), is what CasADi differentiates for the FMU's
directional derivatives.

Parameters follow their Modelica declarations: a public, non-final, non-structural parameter whose whole
value is a literal is settable (FMI "fixed" where the initial state depends on it, else "tunable"); the
others (final, array sizes, bound to other parameters) are substituted, and the public ones among them
are calculated parameters, computed from the settable ones by ``calculated_values(p)``. State start
values may depend on parameters: ``initial_state(p)`` evaluates them, so an FMU computes its initial
state from the parameters set at simulation time.

Events: the model's functions take, after u, the memory m = (discrete variables, relation values, condition
values), constant between events. In continuous time a relation is its value in m, so the right-hand side is
smooth between events and ``indicators`` (one per relation, ``lhs - rhs``) tell the integrator where a value
may change. ``event`` is one event iteration (Modelica 3, 8.6): from the states and m it computes the
relations anew, then the discrete variables in the order their equations need (a when-branch fires where its
condition rises, i.e. is true now and was false in m; earlier branches of a variable first; ``fire = 0``
lets no branch fire, for the consistent start), the conditions, the reinit'ed states and whether a
``terminate`` fired. The continuous unknowns that relations and discrete equations read are computed with
the m it is given (their discrete inputs lag one iteration: an event needs as many iterations as such couplings
are deep); a reinit's value is computed with the new m (the post-impact velocities of a new contact set). The
FMU repeats it until m and x stop changing.
"""

from __future__ import annotations

import dataclasses

import casadi as ca
import numpy as np

from ..errors import NonholonomicError
from .flat_dae import FlatDae, Variable
from .sparse_lu import StaticLU, pivot_sequence, qr_solve


@dataclasses.dataclass
class ScalarVariable:
    """A scalar variable of the explicit model, with the metadata an FMU exposes."""
    name: str
    description: str
    unit: str
    start: float = 0.0
    min: float | None = None
    max: float | None = None
    is_integer: bool = False
    # FMI: parameters "fixed" (the initial state depends on them) or "tunable"; outputs "output", or "local" for
    # a protected output (a connector of the model itself), computed but not part of the interface
    variability: str = ""
    causality: str = ""
    nominal: float | None = None  # the declared magnitude (Modelica's nominal), for importers' absolute tolerances


@dataclasses.dataclass
class ExplicitOde:
    name: str
    states: list[ScalarVariable]
    parameters: list[ScalarVariable]
    outputs: list[ScalarVariable]
    rhs: ca.Function          # (t, x, p, u) -> (xdot, y)
    initial_state: ca.Function  # (p) -> x0
    n_linear_blocks: int
    largest_linear_block: int
    dependent_parameters: dict = dataclasses.field(default_factory=dict)  # name -> free parameters it is computed from
    jacobian: ca.Function | None = None  # (t, x, p, u) -> d xdot/dx, dense n_x x n_x
    derivatives: ca.Function | None = None  # (t, x, p, u) -> xdot alone (rhs without the outputs' code)
    # rhs with every linear block solved by QR: the same function, whose derivatives are small code
    # (CasADi's linear solver has them built in; those of the generated LU are as large as the LU)
    rhs_qr: ca.Function | None = None
    # (t, x, p, u) -> y alone, solving only the blocks the outputs depend on
    output_values: ca.Function | None = None
    inputs: list[ScalarVariable] = dataclasses.field(default_factory=list)  # top-level inputs, continuous
    # public parameters that are not settable (final, structural, or bound to other parameters), and their
    # values as a function of the settable ones: (p) -> c
    calculated: list[ScalarVariable] = dataclasses.field(default_factory=list)
    calculated_values: ca.Function | None = None
    # assert(condition, message) on parameters: (message, source place) of each, and (p) -> 1 where it holds
    assertions: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    assertion_values: ca.Function | None = None
    # events (see Events in the module docstring); every function above takes the memory m after u
    discrete: list[ScalarVariable] = dataclasses.field(default_factory=list)  # the first len(discrete) of m
    relation_places: list[str] = dataclasses.field(default_factory=list)  # then the relations' values (where)
    n_conditions: int = 0
    initial_memory: ca.Function | None = None  # (p) -> m0
    indicators: ca.Function | None = None  # (t, x, p, u, m) -> z, one per relation
    event: ca.Function | None = None  # (t, x, p, u, m, ticks, initial, fire) -> (m, x, terminate)
    clocks: list[tuple[float, float]] = dataclasses.field(default_factory=list)  # (phase, period) of sample()
    time_events: list[float] = dataclasses.field(default_factory=list)
    # the ends of a run at an event: (message, failure) of each terminate() (failure False) and of each assert on
    # time-varying variables (True); the event function's last output is 1 + the index of the one that fired
    terminations: list[tuple[str, bool]] = dataclasses.field(default_factory=list)

    @property
    def n_relations(self) -> int:
        return len(self.relation_places)

    @property
    def n_memory(self) -> int:
        return len(self.discrete) + self.n_relations + self.n_conditions


# Newton's method for nonlinear algebraic loops: at most NEWTON_ITERATIONS steps, stopping where the largest
# residual is below NEWTON_TOLERANCE; a block whose residual is still above NEWTON_CHECK has not converged
NEWTON_ITERATIONS, NEWTON_TOLERANCE, NEWTON_CHECK = 50, 1e-12, 1e-8


def _numeric(x) -> float | None:
    """The value of an expression that depends on nothing, or None."""
    sx = ca.SX(x)
    if sx.numel() != 1 or ca.symvar(sx):
        return None
    return float(ca.evalf(sx))


def _flat(arr) -> list:
    return [ca.SX(x) for x in np.asarray(arr, dtype=object).flat]


def _meta(var: Variable, dae: FlatDae, k: int, subst=None) -> tuple[str, str, float | None, float | None]:
    """Description, unit and bounds of element k; ``subst`` puts the values of structural parameters into
    bounds that are expressions of them (eta <= 1/nRollers - 1e-9)."""
    attrs = var.attributes
    description = attrs.get("description") or ""
    unit = attrs.get("unit") or ""
    bounds = []
    for key in ("min", "max"):
        value = dae.attribute(var, key)
        bound = None if value is None else np.asarray(value, dtype=object).flat[k if value.ndim else 0]
        bounds.append(None if bound is None else _numeric(subst([bound])[0] if subst else bound))
    if var.is_boolean:  # a Float64 in the FMU: 1 true, 0 false
        return (description + " (1 true, 0 false)").strip(), unit, 0.0, 1.0
    return description, unit, bounds[0], bounds[1]


def _nominal(var: Variable, dae: FlatDae, k: int, subst=None) -> float | None:
    """The declared nominal of element k (a positive number), or None where none is declared or it is not
    a number once the parameters are known."""
    value = dae.attribute(var, "nominal")
    if value is None:
        return None
    nominal = _numeric(subst([np.asarray(value, dtype=object).flat[k if value.ndim else 0]])[0] if subst else
                       np.asarray(value, dtype=object).flat[k if value.ndim else 0])
    return abs(nominal) if nominal else None


def build_explicit_ode(dae: FlatDae, progress=None) -> ExplicitOde:
    say = progress or (lambda msg: None)
    variables = dae.variables
    params = [v for v in variables if v.role == "parameter"]
    states = [v for v in variables if v.role == "state"]
    unknown_vars = [v for v in variables if v.role in ("algebraic", "output")]
    inputs = [v for v in variables if v.role == "input"]

    # ---- parameters: free (numeric value) or dependent (expression of other parameters)
    say("parameters")
    p_syms, p_values, all_numbers = [], [], {}
    for v in params:
        value = dae.attribute(v, "binding")
        if value is None:
            value = dae.attribute(v, "start")
        if value is None:
            value = np.zeros(v.shape, dtype=object) if v.shape else np.asarray(0.0, dtype=object)
        value = np.broadcast_to(np.asarray(value, dtype=object), v.shape)
        p_syms += _flat(v.value)
        p_values += _flat(value)
        # an array is settable as a whole or not at all: g_0 = {0, 0, -g} is computed, not two settable zeros
        all_numbers[v.name] = all(_numeric(e) is not None for e in _flat(value))
    dep_syms, dep_defs, free = [], [], []
    for sym, value, owner in zip(p_syms, p_values, [(v, k) for v in params for k in range(max(1, v.value.size))]):
        number = _numeric(value)
        if number is not None:  # a value the model fixes must respect its declared bounds
            description, _, lo, hi = _meta(owner[0], dae, owner[1])
            what = f" ({description})" if description else ""
            name = owner[0].scalar_names()[owner[1]]
            if lo is not None and number < lo:
                raise NonholonomicError(f"parameter {name} = {number:g} is below its minimum {lo:g}{what}")
            if hi is not None and number > hi:
                raise NonholonomicError(f"parameter {name} = {number:g} is above its maximum {hi:g}{what}")
        # settable: a number, public, not final (rumoca: is_tunable) and not structural (evaluable: array sizes,
        # loop bounds); the others are fixed when the FMU is built or computed from the settable ones
        attrs = owner[0].attributes
        if number is not None and attrs.get("is_tunable", True) and not attrs.get("evaluable") \
                and not owner[0].protected and all_numbers[owner[0].name]:
            free.append((sym, number, owner))
        else:
            dep_syms.append(sym)
            dep_defs.append(value if number is None else ca.SX(number))
    if dep_syms:  # resolve chains of dependent parameters (a = R/lambda, contact.a = a, ...)
        dep_defs = _resolve(dep_syms, dep_defs)

    def subst_params(exprs: list) -> list:
        if not dep_syms or not exprs:
            return exprs
        out = ca.substitute([ca.SX(e) for e in exprs], dep_syms, dep_defs)
        return list(out)

    # ---- residuals and unknowns
    say("equations")
    events = dae.event_system()
    residuals = dae.continuous_residuals()
    if dae.initial_residuals():
        raise NonholonomicError("rumoca backend: initial equations are not supported; give states start values "
                                "(they may depend on parameters)")
    unknowns = [s for v in states for s in _flat(v.derivative)] + [s for v in unknown_vars for s in _flat(v.value)]
    if len(residuals) != len(unknowns):
        raise NonholonomicError(f"rumoca backend: {len(residuals)} equations for {len(unknowns)} unknowns "
                                f"in {dae.model}")
    # ---- the memory m: discrete variables (pre(d) = d in continuous time), relations, conditions
    discrete_vars = [v for v in variables if v.is_discrete]
    d_sx = [s for v in discrete_vars for s in _flat(v.value)]
    pre_d = [s for v in discrete_vars for s in _flat(v.pre)]
    r_sx = [r.symbol for r in dae.relations]
    c_sx = [ca.SX.sym(f"condition{k}") for k in range(len(events.conditions))]
    m_sx = ca.vertcat(*d_sx, *r_sx, *c_sx)
    continuous_time = lambda exprs: list(ca.substitute(
        [ca.SX(e) for e in exprs], pre_d + [events.initial] + ca.vertsplit(events.ticks),
        d_sx + [ca.SX(0)] * (1 + events.ticks.numel()))) if exprs else []
    F = subst_params(continuous_time([r.expr for r in residuals]))
    where = [r.where for r in residuals]

    # ---- alias elimination: residual a - b with a, b both unknowns
    say("aliases")
    index_of = {u.name(): i for i, u in enumerate(unknowns)}
    parent = list(range(len(unknowns)))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    keep_eq = []
    for k, r in enumerate(F):
        if r.is_op(ca.OP_SUB) and r.dep(0).is_symbolic() and r.dep(1).is_symbolic():
            a, b = index_of.get(r.dep(0).name()), index_of.get(r.dep(1).name())
            if a is not None and b is not None and find(a) != find(b):
                # the lower index represents the class: state derivatives come first
                ra, rb = sorted((find(a), find(b)))
                parent[rb] = ra
                continue
        keep_eq.append(k)
    reps = [find(i) for i in range(len(unknowns))]
    alias_idx = [i for i in range(len(unknowns)) if reps[i] != i]
    w_idx = [i for i in range(len(unknowns)) if reps[i] == i]
    F = [F[k] for k in keep_eq]
    where = [where[k] for k in keep_eq]
    if alias_idx:
        F = list(ca.substitute(F, [unknowns[i] for i in alias_idx], [unknowns[reps[i]] for i in alias_idx]))
    w = [unknowns[i] for i in w_idx]

    # ---- block-triangular form of the remaining system
    say(f"block-triangular form of {len(w)} unknowns")
    Fv, wv = ca.vertcat(*F), ca.vertcat(*w)
    J = ca.jacobian(Fv, wv)
    sp = J.sparsity()
    if ca.sprank(sp) < len(w):
        raise NonholonomicError(f"rumoca backend: the equations of {dae.model} are structurally singular "
                                "(some unknowns are determined by no equation)")
    nb, rowperm, colperm, rowblock, colblock, _, _ = sp.btf()
    explicit_syms, explicit_defs = [], []
    # stages, solved in order at run time: (unknowns w, A, b) of a linear block A w = b, or (unknowns w,
    # J = dF/dw, F) of a nonlinear block F(w) = 0 (Newton's method); `nonlinear` says which
    stages, nonlinear = [], []
    for b in range(nb):
        rows = rowperm[rowblock[b]:rowblock[b + 1]]
        cols = colperm[colblock[b]:colblock[b + 1]]
        Fb = ca.vertcat(*[F[r] for r in rows])
        wb = ca.vertcat(*[w[c] for c in cols])
        Jb = ca.jacobian(Fb, wb)
        if ca.depends_on(Jb, wb):
            stages.append((wb, Jb, Fb))
            nonlinear.append(True)
            continue
        rest = ca.substitute(Fb, wb, ca.DM.zeros(wb.shape))
        if len(cols) == 1:
            explicit_syms.append(wb)
            explicit_defs.append(-rest / Jb)
        else:
            stages.append((wb, Jb, -rest))
            nonlinear.append(False)

    # ---- outputs of the model
    xdot = [unknowns[reps[index_of[s.name()]]] for v in states for s in _flat(v.derivative)]
    out_vars = [v for v in variables if v.role in ("algebraic", "output") and v.causality == "output"]  # top level
    out_vars += _visual_poses(variables)
    y = [unknowns[reps[index_of[s.name()]]] for v in out_vars for s in _flat(v.value)]

    # substitute every explicit solution (in block order) into the linear stages and the outputs
    say(f"{len(explicit_syms)} explicit, {len(stages) - sum(nonlinear)} linear and {sum(nonlinear)} nonlinear blocks")
    state_syms = [s for v in states for s in _flat(v.value)]
    # an assert on time-varying variables (a contact that would pull, ...) is an event where the run fails
    varying = ca.vertcat(dae.time, *state_syms, *[s for v in inputs + unknown_vars for s in _flat(v.value)], m_sx)
    asserts = [(subst_params([condition])[0], message, place, act) for condition, message, place, act in dae.assertions()]
    on_parameters = [(c, m, w) for c, m, w, _ in asserts if not ca.depends_on(ca.SX(c), varying)]
    events.failures = [(act, m) for c, m, _, act in asserts if ca.depends_on(ca.SX(c), varying)]
    fire, rates = ca.SX.sym("fire"), ca.SX.sym("rates", len(r_sx))
    fires = ca.SX.sym("fires", len(events.reinits))  # which reinit fires, from the first stage of the event
    z_e, event_e, reinit_e = _event_expressions(dae, events, discrete_vars, states, c_sx, fire, rates, fires,
                                                continuous_time)
    z_e, event_e, reinit_e = [ca.substitute(subst_params([e])[0], ca.vertcat(*[unknowns[i] for i in alias_idx]),
                                            ca.vertcat(*[unknowns[reps[i]] for i in alias_idx])) if alias_idx
                              else subst_params([e])[0] for e in (z_e, event_e, reinit_e)]
    exprs = [ca.vertcat(*xdot), ca.vertcat(*y), z_e, event_e, reinit_e] + [e for _, A, rhs in stages for e in (A, rhs)]
    if explicit_syms:
        v_all, vdef_all = ca.vertcat(*explicit_syms), ca.vertcat(*explicit_defs)
        vdef_all, exprs = ca.substitute_inplace([v_all], [vdef_all], exprs, False)
    xdot_e, y_e, z_e, event_e, reinit_e, stage_exprs = exprs[0], exprs[1], exprs[2], exprs[3], exprs[4], exprs[5:]

    # ---- initial state from the start attributes (may depend on parameters)
    x0 = []
    for v in states:
        start = dae.attribute(v, "start")
        start = np.zeros(v.shape, dtype=object) if start is None else np.broadcast_to(
            np.asarray(start, dtype=object), v.shape)
        x0 += _flat(start)
    x0 = subst_params(x0)

    def scalars(vars_):
        out = []
        for v in vars_:
            for k, name in enumerate(v.scalar_names()):
                description, unit, lo, hi = _meta(v, dae, k)
                out.append(ScalarVariable(name, description, unit, 0.0, lo, hi, v.is_integer,
                                          nominal=_nominal(v, dae, k, subst_params)))
        return out

    input_meta = scalars(inputs)
    for meta, start in zip(input_meta, _starts(inputs, dae, subst_params)):
        meta.start = start

    # ---- chain in MX: solve the linear stages in order, then evaluate the outputs
    x_sx = ca.vertcat(*state_syms)
    p_sx = ca.vertcat(*[f[0] for f in free])
    u_sx = ca.vertcat(*[s for v in inputs for s in _flat(v.value)])
    t_sx = dae.time
    X = ca.MX.sym("x", x_sx.numel())
    P = ca.MX.sym("p", p_sx.numel())
    U = ca.MX.sym("u", u_sx.numel())
    T = ca.MX.sym("t")
    M = ca.MX.sym("m", m_sx.numel())
    init_fun = ca.Function("initial_state", [p_sx], [ca.vertcat(*x0)], ["p"], ["x0"])
    if init_fun.has_free():
        raise NonholonomicError(f"rumoca backend: start values of states depend on non-parameters: "
                                f"{init_fun.free_sx()}")
    d0 = []
    for v in discrete_vars:
        start = dae.attribute(v, "start")
        d0 += _flat(np.broadcast_to(np.asarray(0.0 if start is None else start, dtype=object), v.shape))
    m0 = subst_params(d0) + [ca.SX(0)] * (len(r_sx) + len(c_sx))
    memory_fun = ca.Function("initial_memory", [p_sx], [ca.densify(ca.vertcat(*m0)) if m0 else ca.SX(0, 1)],
                             ["p"], ["m0"])
    if memory_fun.has_free():
        raise NonholonomicError(f"rumoca backend: start values of discrete variables depend on non-parameters: "
                                f"{memory_fun.free_sx()}")
    p_default = ca.DM([f[1] for f in free]) if free else ca.DM(0, 1)
    u_default = ca.DM([u.start for u in input_meta]) if input_meta else ca.DM(0, 1)
    m_default = memory_fun(p_default)
    x_default = init_fun(p_default).full().ravel()
    points = _sample_points(x_default, u_default.full().ravel(), _unit_groups(states, x_default))
    # the relations' values at each sample point (where the indicators depend on (t, x, p, u) only), so that the
    # pivots fit every regime the relations select (the omni vehicle's contact rows), not only the initial memory
    sample_memories = [m_default] * len(points)
    if r_sx and not any(ca.depends_on(z_e, ca.vertcat(wb)) for wb, _, _ in stages):
        z_sample = ca.Function("z_sample", [t_sx, x_sx, p_sx, u_sx, m_sx], [z_e])
        compare = {"less": np.less, "less_equal": np.less_equal, "greater": np.greater,
                   "greater_equal": np.greater_equal, "equal": np.equal, "not_equal": np.not_equal}
        sample_memories = []
        for t, x, u in points:
            z = z_sample(t, x, p_default, u, m_default).full().ravel()
            m = m_default.full().ravel().copy()
            for k, relation in enumerate(dae.relations):
                m[len(d_sx) + k] = float(compare[relation.operator](z[k], 0.0))
            sample_memories.append(ca.DM(m))
    known_sx, known_mx, known_qr, solvers = [], [], [], []
    guesses = _block_guesses(stages, nonlinear, unknown_vars, dae, subst_params, p_sx)
    for k, (wb, _, _) in enumerate(stages):
        A, rhs = stage_exprs[2 * k], stage_exprs[2 * k + 1]
        if nonlinear[k]:
            # F(w) = 0 by Newton's method with the block's exact Jacobian (CasADi's code-generated fast_newton),
            # from the unknowns' start values; its derivatives by the implicit function theorem
            say(f"nonlinear block {k + 1} of {len(stages)} ({wb.numel()} unknowns)")
            residual = ca.Function(f"residual{k}", [wb, t_sx, x_sx, p_sx, u_sx, m_sx] + known_sx, [rhs])
            newton = ca.rootfinder(f"newton{k}", "fast_newton", residual,
                                   {"max_iter": NEWTON_ITERATIONS, "abstol": NEWTON_TOLERANCE})
            guess = ca.Function(f"guess{k}", [p_sx], [guesses[k]])(P)
            w_mx = newton(guess, T, X, P, U, M, *known_mx)
            # the generated Newton iteration reports no failure: an unconverged block gives NaN unknowns, and
            # what depends on them is NaN too (simulate stops at the first such row with one line)
            converged = ca.norm_inf(residual(w_mx, T, X, P, U, M, *known_mx)) <= NEWTON_CHECK
            known_mx.append(ca.if_else(converged, w_mx, ca.DM.nan(wb.numel(), 1)))
            known_qr.append(newton(guess, T, X, P, U, M, *known_qr))
            solvers.append(qr_solve)
            known_sx.append(wb)
            continue
        f = ca.Function(f"block{k}", [t_sx, x_sx, p_sx, u_sx, m_sx] + known_sx, [A, rhs])
        A_mx, rhs_mx = f(T, X, P, U, M, *known_mx)
        say(f"pivots of the linear block {k + 1} of {len(stages)} ({wb.numel()} unknowns)")
        solvers.append(_block_solver(ca.Function("sample", [T, X, P, U, M], [A_mx]), points, p_default,
                                      sample_memories))
        known_sx.append(wb)
        known_mx.append(solvers[-1](A_mx, rhs_mx))
        known_qr.append(ca.solve(*f(T, X, P, U, M, *known_qr), "qr"))
    names = ["t", "x", "p", "u", "m"]
    args_sx, args_mx = [t_sx, x_sx, p_sx, u_sx, m_sx], [T, X, P, U, M]
    out = ca.Function("outputs", args_sx + known_sx, [xdot_e, y_e])
    rhs_fun = ca.Function("rhs", args_mx, out(*args_mx, *known_mx), names, ["xdot", "y"])
    rhs_qr = ca.Function("rhs", args_mx, out(*args_mx, *known_qr), names, ["xdot", "y"])
    # the integrator's right-hand side: xdot alone, so that its code does not compute the outputs too
    xdot_only = ca.Function("derivatives", args_sx + known_sx, [xdot_e])(*args_mx, *known_mx)
    derivatives_fun = ca.Function("state_derivatives", args_mx, [xdot_only], names, ["xdot"])
    needed = [w if ca.depends_on(y_e, wb) else ca.MX.zeros(wb.sparsity()) for wb, w in zip(known_sx, known_mx)]
    y_only = ca.Function("output_values", args_sx + known_sx, [y_e])(*args_mx, *needed)
    outputs_fun = ca.Function("output_values", args_mx, [y_only], names, ["y"])
    jac_fun = _state_jacobian(stages, stage_exprs, nonlinear, xdot_e, args_sx, args_mx, known_mx, solvers)
    # events: the indicators, and one event iteration (ticks, initial and fire are its further inputs)
    TICKS, INITIAL, FIRE = ca.MX.sym("ticks", events.ticks.numel()), ca.MX.sym("initial"), ca.MX.sym("fire")
    # the indicators without the blocks they do not depend on (CasADi evaluates every input of a call)
    z_needed = [w if ca.depends_on(z_e, wb) else ca.MX.zeros(wb.sparsity()) for wb, w in zip(known_sx, known_mx)]
    z_mx = ca.densify(ca.Function("z", args_sx + known_sx, [z_e])(*args_mx, *z_needed))
    z_fun = ca.Function("indicators", args_mx, [z_mx], names, ["z"])
    # the rates of the indicators along the motion, d/dt z(t, x(t)) (forward derivative through the blocks)
    rates_mx = ca.jtimes(z_mx, ca.vertcat(T, X), ca.vertcat(ca.MX(1), xdot_only)) if r_sx else ca.MX(0, 1)
    # first stage: the new memory, which reinit fires, terminate; second: the reinit values, from the continuous
    # unknowns solved with the new memory (a reinit's value sees the discrete values of its event: the contact
    # set after a change, for an impact)
    event_sx = args_sx + [events.ticks, events.initial, fire, rates] + known_sx
    n_m, n_r = m_sx.numel(), fires.numel()
    event_mx = ca.densify(ca.Function("event_core", event_sx, [event_e])(*args_mx, TICKS, INITIAL, FIRE, rates_mx,
                                                                        *known_mx))
    m_new, fired = event_mx[:n_m], event_mx[n_m:n_m + n_r]
    if n_r:
        blocks = ca.Function("blocks", args_mx, known_mx) if known_mx else None
        known_new = blocks(T, X, P, U, m_new) if blocks is not None else []
        known_new = [known_new] if isinstance(known_new, ca.MX) else list(known_new)
        pre_d = ca.vertcat(*[s for v in discrete_vars for s in _flat(v.pre)])
        x_new = ca.Function("reinit_core", args_sx + [pre_d, fires] + known_sx, [reinit_e])(
            T, X, P, U, m_new, M[:pre_d.numel()], fired, *known_new)
    else:
        x_new = X
    event_fun = ca.Function("event", args_mx + [TICKS, INITIAL, FIRE], [m_new, ca.densify(x_new), event_mx[-1]],
                            names + ["ticks", "initial", "fire"], ["m_new", "x_new", "terminate"])

    # ---- metadata
    state_meta = scalars(states)
    for s, val in zip(state_meta, points[0][1]):
        s.start = float(val)
    param_meta = []
    x0_all = ca.veccat(*[ca.SX(e) for e in x0])
    for sym, number, (v, k) in free:
        description, unit, lo, hi = _meta(v, dae, k, subst_params)
        name = v.scalar_names()[k]
        param_meta.append(ScalarVariable(name, description, unit, number, lo, hi, v.is_integer,
                                         "fixed" if ca.depends_on(x0_all, sym) else "tunable"))
    output_meta = scalars(out_vars)
    for meta, v in zip(output_meta, [v for v in out_vars for _ in v.scalar_names()]):
        meta.causality = "output" if v.causality == "output" and not v.protected else "local"
    # a calculated parameter changes with the tunable parameters it depends on (FMI: tunable), else fixed
    calculated, calculated_defs = [], []
    owners = {s.name(): (v, k) for v in params for k, s in enumerate(_flat(v.value))}
    tunable = ca.vertcat(*[f[0] for f, m in zip(free, param_meta) if m.variability == "tunable"])
    for sym, definition in zip(dep_syms, dep_defs):
        v, k = owners[sym.name()]
        if not v.protected:
            description, unit, lo, hi = _meta(v, dae, k, subst_params)
            variability = "tunable" if tunable.numel() and ca.depends_on(ca.SX(definition), tunable) else "fixed"
            calculated.append(ScalarVariable(v.scalar_names()[k], description, unit, 0.0, lo, hi, v.is_integer,
                                             variability))
            calculated_defs.append(definition)
    calculated_fun = ca.Function("calculated", [p_sx], [ca.densify(ca.vertcat(*calculated_defs)) if calculated_defs
                                                        else ca.SX(0, 1)], ["p"], ["c"])
    sizes = [int(wb.numel()) for wb, _, _ in stages]
    free_names = {f[0].name(): m.name for f, m in zip(free, param_meta)}
    # the settable parameters each calculated one is computed from ([]: fixed when the FMU is built)
    dependent = {c.name: sorted(free_names[v.name()] for v in ca.symvar(ca.SX(d)) if v.name() in free_names)
                 for c, d in zip(calculated, calculated_defs)}
    assertions, holds = [], []
    for condition, message, place in on_parameters:  # those on time-varying variables are events.failures
        if ca.SX(condition).is_constant() and not float(ca.evalf(ca.SX(condition))):
            raise NonholonomicError(f"assertion failed at {place}: {message}")
        assertions.append((message, place))
        holds.append(ca.SX(condition))
    assertion_fun = ca.Function("assertions", [p_sx], [ca.densify(ca.vertcat(*holds)) if holds else ca.SX(0, 1)],
                                ["p"], ["ok"])
    discrete_meta = scalars(discrete_vars)
    for meta, v, value in zip(discrete_meta, [v for v in discrete_vars for _ in v.scalar_names()],
                              m_default.full().ravel()):
        meta.start, meta.causality = float(value), "output" if v.causality == "output" else "local"
    return ExplicitOde(dae.model, state_meta, param_meta, output_meta, rhs_fun, init_fun,
                       len(stages), max(sizes, default=0), dependent, jac_fun, derivatives_fun, rhs_qr,
                       outputs_fun, input_meta, calculated, calculated_fun, assertions, assertion_fun,
                       discrete_meta, [r.where for r in dae.relations], len(c_sx), memory_fun, z_fun, event_fun, events.clocks,
                       events.time_events, [(message, False) for _, message in events.terminations] +
                       [(message, True) for _, message in events.failures])


def _event_expressions(dae: FlatDae, events, discrete_vars, states, c_sx, fire, rates, fired, continuous_time):
    """The indicators z (one per relation), the first stage of an event iteration, vertcat(m, reinit fires,
    terminate), in the symbols of the flat DAE (see Events in the module docstring), and the second, the states
    after the reinits ``fired`` says fire, in the symbols of the continuous equations with the new memory
    (pre(d): the old values).

    A relation whose sides are equal at the event takes its value just after it, from the sign of its
    indicator's rate ``rates``: the integrator stops where an indicator is zero, and the root finder after the
    event does not see a crossing that starts there (x > 1 with x = t, integrated exactly, stops at x = 1
    exactly)."""
    d_sx = [s for v in discrete_vars for s in _flat(v.value)]
    pre_d = [s for v in discrete_vars for s in _flat(v.pre)]
    x_sx = [s for v in states for s in _flat(v.value)]
    pre_x = [s for v in states for s in _flat(v.pre)]
    r_sx = [r.symbol for r in dae.relations]
    z = continuous_time([r.indicator for r in dae.relations])
    r_new = []
    for k, (relation, value) in enumerate(zip(dae.relations, continuous_time([r.value for r in dae.relations]))):
        if relation.operator in ("greater", "greater_equal", "less", "less_equal"):
            up = 1 if relation.operator.startswith("greater") else 0
            after = ca.if_else(rates[k] > 0, up, ca.if_else(rates[k] < 0, 1 - up, value))
            value = ca.if_else(z[k] == 0, after, value)
        r_new.append(value)
    # at the event: d is the new value (d_new), pre(d) the one in m, relations their new values
    d_new = [ca.SX.sym(f"new_{s.name()}") for s in d_sx]
    at_event = lambda exprs: list(ca.substitute([ca.SX(e) for e in exprs], d_sx + pre_d + r_sx + pre_x,
                                                d_new + d_sx + r_new + x_sx)) if exprs else []
    values = at_event([c for c, _ in events.conditions])
    rise = lambda k: ca.logic_and(values[k], ca.logic_not(c_sx[k]))
    fires_of = [_any([rise(j) for j in parts or [k]]) for k, (_, parts) in enumerate(events.conditions)]
    fires = lambda act: (ca.SX(1) if act is None else fire * values[act[1]] if act[0] is None else
                         fire * ca.logic_and(fires_of[act[0]], values[act[1]]))
    # each discrete variable: its pre value, unless a branch fires (the first in the model's order wins)
    index = {s.name(): k for k, s in enumerate(d_sx)}
    new = list(d_sx)
    for branch in reversed(events.branches):
        k = index[branch.target.name()]
        value = at_event([branch.value])[0]
        new[k] = value if branch.activation is None else ca.if_else(fires(branch.activation), value, new[k])
    new_vec = ca.vertcat(*new) if new else ca.SX(0, 1)
    for _ in range(len(new) + 1):  # in the order the equations need: substitute until no new value is left
        if not new or not ca.depends_on(new_vec, ca.vertcat(*d_new)):
            break
        new_vec = ca.substitute(new_vec, ca.vertcat(*d_new), new_vec)
    if new and ca.depends_on(new_vec, ca.vertcat(*d_new)):
        raise NonholonomicError(f"rumoca backend: discrete variables of {dae.model} depend on each other in a "
                                "cycle at an event")
    solved = lambda exprs: list(ca.substitute([ca.SX(e) for e in exprs], d_new, ca.vertsplit(new_vec))) \
        if exprs and d_new else list(exprs)
    c_new = solved(values)
    x_new = list(x_sx)
    state_index = {s.name(): k for k, s in enumerate(x_sx)}
    for j, (state, value, _) in enumerate(events.reinits):  # a later reinit of the same state wins
        k = state_index[state.name()]
        value = ca.substitute(ca.SX(value), ca.vertcat(*pre_x, events.initial, events.ticks),
                              ca.vertcat(*x_sx, ca.DM.zeros(1 + events.ticks.numel())))
        x_new[k] = ca.if_else(fired[j], value, x_new[k])
    fired_now = solved([fires(act) for _, _, act in events.reinits])
    # which end fires: 1 + its index (terminations, then failures), 0 for none
    stop = ca.SX(0)
    for k, fired_k in enumerate(solved([fires(act) for act, _ in events.terminations + events.failures])):
        stop = ca.fmax(stop, (k + 1) * fired_k)
    return (ca.vertcat(*z) if z else ca.SX(0, 1), ca.vertcat(new_vec, *r_new, *c_new, *fired_now, stop),
            ca.vertcat(*x_new) if x_new else ca.SX(0, 1))


def _any(conditions: list) -> ca.SX:
    """The logical or of SX conditions (0 for none)."""
    out = ca.SX(0)
    for c in conditions:
        out = ca.logic_or(out, c)
    return out


def _starts(variables: list[Variable], dae: FlatDae, subst) -> list[float]:
    """The numeric start values of ``variables``, element by element (0 where none is given)."""
    starts = []
    for v in variables:
        start = dae.attribute(v, "start")
        values = np.broadcast_to(np.asarray(0.0 if start is None else start, dtype=object), v.shape)
        for value in subst(_flat(values)):
            number = _numeric(value)
            if number is None:
                raise NonholonomicError(f"rumoca backend: the start value of input {v.name} must be a number")
            starts.append(number)
    return starts


def _unit_groups(states: list[Variable], x0: np.ndarray) -> list[list[int]]:
    """The indices in x of each state variable of four elements whose start value has unit length: a body's
    attitude quaternion (the library's ``Q``)."""
    groups, start = [], 0
    for v in states:
        size = len(_flat(v.value))
        if size == 4 and abs(float(np.linalg.norm(x0[start:start + 4])) - 1.0) < 1e-9:
            groups.append(list(range(start, start + 4)))
        start += size
    return groups


def _sample_points(x0: np.ndarray, u0: np.ndarray, unit_groups=(), count: int = 40, seed: int = 0) -> list[tuple]:
    """(t, x) where the linear blocks are sampled to choose their pivots: the initial state, and states
    around it (every state moved by a normal deviate of size 0.5 (1 + |x0|): other positions, attitudes,
    velocities; an unreachable state still gives a matrix of the block's kind). The states of each of
    ``unit_groups`` (attitude quaternions) are scaled back to unit length: a moved quaternion of length 0.3 or
    2 scales the rotation's entries of the block by its square, and the pivots that pass on such matrices are
    those of no real attitude (the omni vehicle: a core of 85 unknowns solved by QR in every evaluation against
    17-21 with unit quaternions, docs/omni.md)."""
    rng = np.random.default_rng(seed)
    move = lambda v: v + 0.5 * (1.0 + np.abs(v)) * rng.standard_normal(v.size)

    def moved_state():
        x = move(x0)
        for group in unit_groups:
            length = np.linalg.norm(x[group])
            if length > 0:
                x[group] = x[group] / length
        return x
    return [(0.0, x0, u0)] + [(0.1 * (k + 1), moved_state(), move(u0)) for k in range(count)]


def _block_solver(sample: ca.Function, points, p_default: ca.DM, memories: list):
    """``solve(A, b)`` for a linear block: a static sparse LU (:mod:`.sparse_lu`) with pivots chosen on
    the block's values ``sample(t, x, p, u, m)`` at the sample points (``memories``: each point's m), QR where a
    pivot fails at run time."""
    sparsity = sample.sparsity_out(0)
    pattern = ca.DM(sparsity, 1).full() != 0
    values = [A for A in (sample(t, x, p_default, u, m).full() for (t, x, u), m in zip(points, memories))
              if np.all(np.isfinite(A))]
    if not values:  # no sample evaluates: choose by the structure alone
        values = [pattern.astype(float)]
    return StaticLU(sparsity, pivot_sequence(pattern, np.stack(values))).solve


def _state_jacobian(stages, stage_exprs, nonlinear, xdot, args_sx: list, args_mx: list, known_mx,
                    solvers) -> ca.Function:
    """The Jacobian d xdot/dx for implicit integrators, by the implicit function theorem: the unknowns w_k
    of a stage g(w_k) = 0 (g = A w_k - b for a linear stage, g = F for a nonlinear one, A = dg/dw_k; all
    functions of x and of earlier stages) have dw_k/dx = -A^-1 (dg/dx + sum_j dg/dw_j dw_j/dx). One more
    factorisation of A and sparse symbolic derivatives of g replace the n_x model evaluations of a
    finite-difference Jacobian, and the result is exact where finite differences lose digits (light bodies
    next to heavy ones)."""
    known_sx = [wb for wb, _, _ in stages]
    x_sx = args_sx[1]  # args: t, x, p, u
    sens = []
    for k, (wb, _, _) in enumerate(stages):
        A, rhs = stage_exprs[2 * k], stage_exprs[2 * k + 1]
        g = rhs if nonlinear[k] else ca.mtimes(A, wb) - rhs
        parts = [ca.jacobian(g, x_sx)] + [ca.jacobian(g, w) for w in known_sx[:k]]
        f = ca.Function(f"block{k}_jac", args_sx + known_sx[:k + 1], [A] + parts)
        A_mx, gx, *gw = f.call([*args_mx, *known_mx[:k + 1]])
        total = gx
        for gj, sj in zip(gw, sens):
            total = total + ca.mtimes(gj, sj)
        sens.append(-solvers[k](A_mx, ca.densify(total)))
    parts = [ca.jacobian(xdot, x_sx)] + [ca.jacobian(xdot, w) for w in known_sx]
    f = ca.Function("outputs_jac", args_sx + known_sx, parts)
    dx, *dw = f.call([*args_mx, *known_mx])
    J = dx
    for dj, sj in zip(dw, sens):
        J = J + ca.mtimes(dj, sj)
    return ca.Function("state_jacobian", args_mx, [ca.densify(J)], ["t", "x", "p", "u", "m"], ["jac_xdot_x"])


def _block_guesses(stages, nonlinear, unknown_vars, dae: FlatDae, subst_params, p_sx) -> list:
    """Newton's starting point for each nonlinear stage: the start values of its unknowns (0 where none is
    given, and for state derivatives), which may depend on the parameters; None for a linear stage."""
    owner = {s.name(): (v, k) for v in unknown_vars for k, s in enumerate(_flat(v.value))}
    guesses = []
    for (wb, _, _), is_nonlinear in zip(stages, nonlinear):
        if not is_nonlinear:
            guesses.append(None)
            continue
        values = []
        for sym in ca.vertsplit(wb):
            v, k = owner.get(sym.name(), (None, 0))
            start = dae.attribute(v, "start") if v is not None else None
            values.append(0.0 if start is None else _flat(np.broadcast_to(np.asarray(start, dtype=object),
                                                                           v.shape))[k])
        guess = ca.vertcat(*subst_params(values))
        if {s.name() for s in ca.symvar(guess)} - {s.name() for s in ca.vertsplit(p_sx)}:
            raise NonholonomicError("rumoca backend: start values of a nonlinear loop's unknowns depend on "
                                    "non-parameters")
        guesses.append(guess)
    return guesses


def _resolve(syms: list, defs: list) -> list:
    """Substitute dependent parameters into each other until only free parameters remain."""
    defs = [ca.SX(d) for d in defs]
    sym_vec = ca.vertcat(*syms)
    for _ in range(len(syms) + 1):
        if not ca.depends_on(ca.vertcat(*defs), sym_vec):
            return defs
        defs = list(ca.substitute(defs, syms, defs))
    raise NonholonomicError("rumoca backend: parameters depend on each other in a cycle")


def _visual_poses(variables) -> list:
    """The poses (r_0, T) of the components that carry a visual shape (a `shapeType` parameter), as local
    variables of the FMU, so that `nonholonomic animate` can draw them; a body's states already hold its r_0."""
    shaped = {v.name.rpartition(".")[0] for v in variables if v.role == "parameter" and v.name.endswith(".shapeType")}
    return [v for v in variables if v.role == "algebraic" and v.causality != "output" and not v.protected
            and v.name.rpartition(".")[2] in ("r_0", "T") and v.name.rpartition(".")[0] in shaped]
