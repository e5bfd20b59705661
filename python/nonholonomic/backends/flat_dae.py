"""Translate rumoca's flat DAE (``Model.to_dict("dae")``, schema 43) into CasADi SX residuals.

rumoca flattens a Modelica model into one pool of expression nodes (literal, coordinate, binary, unary,
index, array, builtin, call, function_value, conditional), variables with roles (state, algebraic,
output, parameter) and equations as residuals ``lhs - rhs``, scalar or structured over a domain of
binders. Nodes with operands (array, builtin, call, conditional) and index nodes point into shared
side tables whose offsets come from scanning the nodes in order.

Values are numpy object arrays of CasADi SX scalars (0-d for scalars), so Modelica's array semantics
(``*`` is a dot product for two vectors, matrix-vector product, ...) follow the shapes. Functions are
executed symbolically, statement by statement, at every call (inlined). A construct this translator
does not support fails with one line naming the construct and where it stands in the Modelica source.

Events (Modelica 3, section 8.5): a relation outside ``noEvent`` on a time-varying quantity is *frozen*: in the
continuous equations it is a symbol (its value since the last event), and :class:`Relation` keeps the two
sides whose difference is the event indicator. Discrete variables (``discrete Real``, Integer, Boolean) are
symbols too, their ``pre()`` values further symbols; :meth:`FlatDae.event_system` gathers what happens at an
event (the branches of when-equations and statements, reinit, terminate, the conditions) for
:mod:`.explicit_ode`, which turns it into one event-iteration function.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from typing import Any

import casadi as ca
import numpy as np

from ..errors import NonholonomicError

_OPERAND_NODES = ("array", "builtin", "call", "conditional")


def _obj(x) -> np.ndarray:
    """Wrap a value as a numpy object array (0-d for a scalar)."""
    if isinstance(x, np.ndarray):
        return x if x.dtype == object else x.astype(object)
    a = np.empty((), dtype=object)
    a[()] = x
    return a


def _map(f, *arrays):
    """Apply a scalar function elementwise over object arrays (with broadcasting)."""
    arrays = np.broadcast_arrays(*[_obj(a) for a in arrays])
    out = np.empty(arrays[0].shape, dtype=object)
    for idx in np.ndindex(out.shape):
        out[idx] = f(*[a[idx] for a in arrays])
    return out


def _is_number(x) -> bool:
    return isinstance(x, (int, float, bool, np.integer, np.floating, np.bool_))


def _const_int(x, what: str) -> int:
    x = x[()] if isinstance(x, np.ndarray) and x.ndim == 0 else x
    if _is_number(x):
        return int(x)
    if isinstance(x, ca.SX) and x.is_constant():
        return int(float(x))
    raise _Unsupported(f"{what} that is not a constant integer")


def _first_provenance(data):
    """The first provenance record found in nested rumoca data."""
    if isinstance(data, dict):
        if "provenance" in data:
            return data["provenance"]
        items = data.values()
    elif isinstance(data, list):
        items = data
    else:
        return None
    for item in items:
        found = _first_provenance(item)
        if found is not None:
            return found
    return None


class _Unsupported(Exception):
    """A construct the translator does not support (message completed with a source location)."""


def _if_else(c, a, b):
    if _is_number(c):
        return a if c else b
    if isinstance(c, ca.SX) and c.is_constant():
        return a if float(c) else b
    return ca.if_else(c, a, b)


def _logic(op):
    def f(a, b):
        if _is_number(a) and _is_number(b):
            return {"and": lambda: bool(a) and bool(b), "or": lambda: bool(a) or bool(b)}[op]()
        return ca.logic_and(a, b) if op == "and" else ca.logic_or(a, b)
    return f


def _compare(op):
    py = {"equal": lambda a, b: a == b, "not_equal": lambda a, b: a != b, "less": lambda a, b: a < b,
          "less_equal": lambda a, b: a <= b, "greater": lambda a, b: a > b, "greater_equal": lambda a, b: a >= b}[op]
    sx = {"equal": ca.eq, "not_equal": ca.ne, "less": ca.lt, "less_equal": ca.le, "greater": ca.gt,
          "greater_equal": ca.ge}[op]

    def f(a, b):
        if _is_number(a) and _is_number(b):
            return py(a, b)
        return sx(a, b)
    return f


def _product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Modelica ``*``: scalar scaling, or dot/matrix products by the operands' shapes."""
    if a.ndim == 0 or b.ndim == 0:
        return _map(lambda x, y: x * y, a, b)
    return _obj(np.dot(a, b))


def _power(a, b):
    if _is_number(a) and _is_number(b):
        return float(a) ** b
    if _is_number(b) and float(b) == 2:
        return a * a
    return a ** b


_ELEMENTWISE_BINARY = {
    "add": lambda a, b: a + b, "subtract": lambda a, b: a - b,
    "elementwise_add": lambda a, b: a + b, "elementwise_subtract": lambda a, b: a - b,
    "elementwise_multiply": lambda a, b: a * b, "elementwise_divide": lambda a, b: a / b,
    "divide": lambda a, b: a / b, "power": _power, "elementwise_power": _power,
    "and": _logic("and"), "or": _logic("or"),
    **{op: _compare(op) for op in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal")},
}


def _scalar_math(name):
    f = {"sin": ca.sin, "cos": ca.cos, "tan": ca.tan, "asin": ca.asin, "acos": ca.acos, "atan": ca.atan,
         "sinh": ca.sinh, "cosh": ca.cosh, "tanh": ca.tanh, "exp": ca.exp, "log": ca.log, "log10": ca.log10,
         "sqrt": ca.sqrt, "abs": ca.fabs, "sign": ca.sign, "floor": ca.floor, "ceil": ca.ceil}[name]

    def g(x):
        if _is_number(x):
            return float(np.asarray(f(float(x))))
        return f(x)
    return g


def _as_2d(x: np.ndarray) -> np.ndarray:
    return x.reshape(1, 1) if x.ndim == 0 else (x.reshape(-1, 1) if x.ndim == 1 else x)


def _cross(a, b):
    return _obj(np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]],
                         dtype=object))


def _builtin(name: str, args: list[np.ndarray]) -> np.ndarray:
    if name in ("sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "exp", "log", "log10",
                "sqrt", "abs", "sign", "floor", "ceil"):
        return _map(_scalar_math(name), args[0])
    if name == "atan2":
        return _map(lambda y, x: ca.atan2(y, x) if not (_is_number(y) and _is_number(x)) else math.atan2(y, x),
                    args[0], args[1])
    if name in ("noEvent", "no_event", "smooth", "homotopy"):
        return args[-1] if name == "smooth" else args[0]
    if name == "sum":
        items = list(args[0].flat)
        return _obj(sum(items[1:], items[0]) if items else 0.0)
    if name == "product":
        out = 1.0
        for x in args[0].flat:
            out = out * x
        return _obj(out)
    if name in ("min", "max"):
        f = ca.fmin if name == "min" else ca.fmax
        pick = (lambda a, b: min(a, b)) if name == "min" else (lambda a, b: max(a, b))
        g = lambda a, b: pick(a, b) if _is_number(a) and _is_number(b) else f(a, b)
        if len(args) == 2:
            return _map(g, args[0], args[1])
        items = list(args[0].flat)
        out = items[0]
        for x in items[1:]:
            out = g(out, x)
        return _obj(out)
    if name == "cross":
        return _cross(args[0], args[1])
    if name == "transpose":
        return _obj(args[0].T)
    if name in ("ones", "zeros", "fill"):
        value, dims = (1.0, args) if name == "ones" else (0.0, args) if name == "zeros" else (args[0][()], args[1:])
        shape = tuple(_const_int(d, f"dimension of {name}()") for d in dims)
        out = np.empty(shape, dtype=object)
        out.fill(value)
        return out
    if name == "identity":
        n = _const_int(args[0], "dimension of identity()")
        return _obj(np.eye(n).astype(object))
    if name == "skew":
        x = args[0]
        return _obj(np.array([[0.0, -x[2], x[1]], [x[2], 0.0, -x[0]], [-x[1], x[0], 0.0]], dtype=object))
    if name == "outerProduct":
        return _obj(np.multiply.outer(args[0], args[1]))
    if name == "diagonal":
        v = args[0]
        out = np.empty((v.shape[0], v.shape[0]), dtype=object)
        out.fill(0.0)
        for i in range(v.shape[0]):
            out[i, i] = v[i]
        return out
    if name == "promoted_cat2":  # [a, b, c]: horizontal concatenation
        return _obj(np.concatenate([_as_2d(a) for a in args], axis=1))
    if name == "promoted_cat1":  # [a; b]: vertical concatenation
        return _obj(np.concatenate([_as_2d(a) for a in args], axis=0))
    if name in ("cat",):
        axis = _const_int(args[0], "dimension of cat()") - 1
        return _obj(np.concatenate(args[1:], axis=axis))
    if name in ("scalar",):
        return _obj(args[0].flat[0])
    if name in ("vector",):
        return _obj(args[0].reshape(-1))
    if name == "integer":
        return _map(lambda x: int(x) if _is_number(x) else ca.floor(x), args[0])
    raise _Unsupported(f"built-in function {name}()")


@dataclasses.dataclass
class Variable:
    """One variable of the flat DAE, its role and its CasADi symbols (numpy object arrays)."""
    index: int
    name: str
    role: str
    causality: str
    shape: tuple
    is_integer: bool
    attributes: dict
    value: np.ndarray  # symbols of the variable
    derivative: np.ndarray | None = None  # symbols of der(x) for states
    protected: bool = False  # declared in a protected section (of the model or of an enclosing component)
    pre: np.ndarray | None = None  # symbols of pre(v) for states and discrete variables (values before an event)
    is_boolean: bool = False  # a Boolean (1 true, 0 false in the FMU's Float64 variables)

    @property
    def is_discrete(self) -> bool:
        return self.role in ("discrete_real", "discrete_value")

    def scalar_names(self) -> list[str]:
        if not self.shape:
            return [self.name]
        return [f"{self.name}[{','.join(str(i + 1) for i in idx)}]" for idx in np.ndindex(self.shape)]


_COMPARISONS = ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal")


@dataclasses.dataclass
class Relation:
    """A relation that generates events: frozen at ``symbol`` between events; ``lhs - rhs`` changes sign where
    its value ``operator(lhs, rhs)`` may change."""
    symbol: ca.SX
    operator: str
    lhs: ca.SX
    rhs: ca.SX
    where: str

    @property
    def value(self):
        return _compare(self.operator)(self.lhs, self.rhs)

    @property
    def indicator(self):
        return self.lhs - self.rhs


@dataclasses.dataclass
class Branch:
    """``target = value`` when ``activation`` fires: a condition index (a when-branch, earlier branches of the
    same target first) or None (always, at every event)."""
    target: ca.SX
    value: ca.SX
    activation: tuple | None  # (trigger, guard) condition indices
    where: str


@dataclasses.dataclass
class EventSystem:
    """What happens at an event, in the symbols of the flat DAE (new values of the discrete variables, their
    ``pre`` symbols, the frozen relations, the states and their ``pre`` symbols):

    - ``branches``: assignments of the discrete variables (when-branches and always-equations);
    - ``reinits``: (state symbol, value, activation) of ``reinit``;
    - ``terminations``: (activation, message) of ``terminate``; ``failures``: (activation, message) of the
      asserts on time-varying variables (set by the explicit ODE, which tells them from those on parameters);
    - ``conditions``: the when-conditions, each a (value, parts) pair: ``value`` in the symbols above and
      in ``ticks`` (1 at an event where sample clock k ticks) and ``initial`` (1 at initialisation); ``parts``,
      for ``{c1, c2}``, the conditions any of whose rises fires it (else None: its own rise);
    - ``clocks``: (phase, period) of each ``sample``; ``time_events``: instants of conditions on time."""
    branches: list
    reinits: list
    terminations: list
    conditions: list
    ticks: ca.SX
    initial: ca.SX
    clocks: list
    time_events: list
    failures: list = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Residual:
    """A scalar residual equation and where it comes from."""
    expr: ca.SX
    where: str


class _Frame:
    """The slots (outputs, then locals) and parameters of one symbolic function call."""

    def __init__(self, function: int, params: list[np.ndarray], n_slots: int):
        self.function = function
        self.params = params
        self.slots: list[np.ndarray | None] = [None] * n_slots
        self.cache: dict[int, Any] = {}


class FlatDae:
    """The symbolic residual form of one rumoca flat DAE."""

    @classmethod
    def of(cls, compiled, model: str) -> "FlatDae":
        """The flat DAE of a model compiled by rumoca, with which variables are protected (rumoca's DAE
        stage does not say; its flat stage does)."""
        return cls(compiled.to_dict("dae"), model, cls.protected_names(compiled))

    @staticmethod
    def protected_names(compiled) -> frozenset:
        """The protected variables of a model compiled by rumoca."""
        return frozenset(n for n, v in compiled.to_dict("flat")["variables"].items() if v.get("is_protected"))

    def __init__(self, dae: dict, model: str = "model", protected: frozenset = frozenset()):
        self.model = model
        self.schema = dae.get("schema_version")
        self._sources = {h: (name, text) for h, name, text in dae.get("source_map", {}).get("files", [])}
        st = dae["storage"]
        self._st = st
        ex = st["expressions"]
        self._nodes = ex["nodes"]
        self._operands: dict[int, list[int]] = {}
        self._subscripts: dict[int, list[dict]] = {}
        o = s = 0
        for i, node in enumerate(self._nodes):
            (kind, body), = node.items()
            if kind in _OPERAND_NODES:
                n = body["operand_count"]
                self._operands[i] = ex["operands"][o:o + n]
                o += n
            elif kind == "index":
                n = body["subscript_count"]
                self._subscripts[i] = ex["subscripts"][s:s + n]
                s += n
        self._provenance = ex.get("provenance")
        self._functions = st["functions"]
        self._domains = st["domains"]
        self._check_unsupported_sections()
        self.time = ca.SX.sym("time")
        self.variables: list[Variable] = []
        for i, v in enumerate(st["variables"]):
            vt = st["value_types"][v["value_type"]]
            shape = tuple(vt["dimensions"])
            names = Variable(i, v["name"], v["role"], v["attributes"].get("causality", "local"), shape,
                             vt["scalar"] in ("integer", "boolean"), v["attributes"], _obj(0.0)).scalar_names()
            syms = np.empty(len(names), dtype=object)
            for k, nm in enumerate(names):
                syms[k] = ca.SX.sym(nm)
            var = Variable(i, v["name"], v["role"], v["attributes"].get("causality", "local"), shape,
                           vt["scalar"] in ("integer", "boolean"), v["attributes"], syms.reshape(shape),
                           protected=v["name"] in protected, is_boolean=vt["scalar"] == "boolean")
            if var.role == "state":
                der = np.empty(len(names), dtype=object)
                for k, nm in enumerate(names):
                    der[k] = ca.SX.sym(f"der({nm})")
                var.derivative = der.reshape(shape)
            if var.role == "state" or var.is_discrete:
                pre = np.empty(len(names), dtype=object)
                for k, nm in enumerate(names):
                    pre[k] = ca.SX.sym(f"pre({nm})")
                var.pre = pre.reshape(shape)
            elif var.role not in ("algebraic", "output", "parameter", "input"):
                raise NonholonomicError(
                    f"rumoca backend: variable {var.name} has role '{var.role}', which the translator does not support")
            self.variables.append(var)
        self._global_cache: dict[Any, Any] = {}
        # symbols whose value changes continuously in time: a relation on them generates events
        self._varying = {self.time.name()} | {
            s.name() for v in self.variables if v.role in ("state", "algebraic", "output", "input")
            for s in list(np.asarray(v.value).flat) + list(np.asarray(v.derivative if v.derivative is not None
                                                                        else []).flat)}
        self.relations: list[Relation] = []
        self._no_event = 0  # > 0 while the operand of noEvent() or smooth() is evaluated
        self._initial = ca.SX.sym("initial")  # 1 during the event iteration at initialisation
        self._ticks = ca.SX.sym("ticks", len(self._st.get("clocks") or []))  # 1 where sample clock k ticks

    # ----------------------------------------------------------------- source locations
    def where(self, provenance: dict | None) -> str:
        """``file:line`` of a provenance record, or the model name when unknown."""
        try:
            span = provenance["span"]
            name, text = self._sources[span["source"]]
            line = text.encode()[:span["start"]].count(b"\n") + 1
            return f"{name}:{line}"
        except (KeyError, TypeError):
            return self.model

    def _node_where(self, node: int) -> str:
        if isinstance(self._provenance, list) and node < len(self._provenance):
            return self.where(self._provenance[node])
        return self.model

    _UNSUPPORTED_SECTIONS = {
        "delays": "delay()", "previous_values": "clocked (synchronous) construct",
        "model_event_transactions": "event transaction",
    }

    def _check_unsupported_sections(self):
        for key, construct in self._UNSUPPORTED_SECTIONS.items():
            if self._st.get(key):
                raise NonholonomicError(f"rumoca backend: unsupported {construct} at "
                                        f"{self.where(_first_provenance(self._st[key]))}")
        for clock in self._st.get("clocks") or []:  # sample(start, interval): a periodic lattice of time events
            periodic = clock["kind"].get("periodic") if isinstance(clock["kind"], dict) else None
            if not periodic or periodic.get("anchor") != "absolute":
                raise NonholonomicError(f"rumoca backend: unsupported clocked (synchronous) construct at "
                                        f"{self.where(clock.get('provenance'))}")
        for owner in self._st.get("clock_ownerships") or []:
            if owner.get("sampled"):
                raise NonholonomicError(f"rumoca backend: unsupported clocked (synchronous) construct at "
                                        f"{self.where(owner.get('provenance'))}")

    # ----------------------------------------------------------------- expressions
    def evaluate(self, node: int, binders: dict | None = None, frame: _Frame | None = None) -> np.ndarray:
        """Evaluate an expression node to a numpy object array of SX scalars / numbers."""
        try:
            return self._eval(node, binders or {}, frame)
        except _Unsupported as e:
            raise NonholonomicError(f"rumoca backend: unsupported {e} at {self._node_where(node)}") from None

    def _eval(self, node: int, binders: dict, frame: _Frame | None) -> np.ndarray:
        # no cache under the binders of an array comprehension: a node's value depends on them
        cache = None if binders else frame.cache if frame is not None else self._global_cache
        key = ("noEvent", node) if self._no_event and frame is None else node
        if cache is not None and key in cache:
            return cache[key]
        value = self._eval_uncached(node, binders, frame)
        if cache is not None:
            cache[key] = value
        return value

    def _relation(self, node: int, operator: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """A comparison outside functions and noEvent: a frozen relation where it depends on time-varying
        quantities, else its value."""
        def one(x, y):
            value = _compare(operator)(x, y)
            if _is_number(value) or not ({s.name() for s in ca.symvar(ca.SX(value))} & self._varying):
                return value
            symbol = ca.SX.sym(f"relation{len(self.relations)}")
            self.relations.append(Relation(symbol, operator, ca.SX(x), ca.SX(y), self._node_where(node)))
            return symbol
        return _map(one, a, b)

    def _eval_uncached(self, node: int, binders: dict, frame: _Frame | None) -> np.ndarray:
        (kind, body), = self._nodes[node].items()
        ev = lambda n: self._eval(n, binders, frame)
        if kind == "literal":
            (lk, lv), = body.items()
            if lk in ("integer", "real"):
                return _obj(lv)
            if lk == "boolean":
                return _obj(bool(lv))
            raise _Unsupported(f"literal of type {lk}")
        if kind == "coordinate":
            (ck, cv), = body.items() if isinstance(body, dict) else ((body, None),)
            if ck in ("state", "algebraic", "parameter", "input", "discrete_real", "discrete_value"):
                return self.variables[cv].value
            if ck == "derivative":
                return self.variables[cv].derivative
            if ck in ("pre_state", "pre_discrete_real", "pre_discrete_value"):
                return self.variables[cv].pre
            if ck in ("t", "time"):
                return _obj(self.time)
            if ck == "function_parameter":
                if frame is None or frame.function != cv["function"]:
                    raise _Unsupported("function parameter outside its function")
                return frame.params[cv["ordinal"]]
            if ck == "binder":
                key = (cv["domain"], cv["ordinal"])
                if key not in binders:
                    raise _Unsupported("loop index outside its loop")
                return _obj(binders[key])
            raise _Unsupported(f"reference to a {ck}")
        if kind == "function_value":
            if frame is None or frame.function != body["function"]:
                raise _Unsupported("function local outside its function")
            value = frame.slots[body["value"]]
            if value is None:
                raise _Unsupported("read of a function variable before it is assigned")
            return value
        if kind == "binary":
            op = body["operator"]
            a, b = ev(body["lhs"]), ev(body["rhs"])
            if op == "multiply":
                return _product(a, b)
            if op in ("divide", "power") and b.ndim != 0:
                raise _Unsupported(f"'{op}' with an array right operand")
            if op not in _ELEMENTWISE_BINARY:
                raise _Unsupported(f"operator '{op}'")
            if op in _COMPARISONS and frame is None and not self._no_event:
                return self._relation(node, op, a, b)
            return _map(_ELEMENTWISE_BINARY[op], a, b)
        if kind == "unary":
            op, a = body["operator"], ev(body["operand"])
            if op == "negate":
                return _map(lambda x: -x, a)
            if op == "plus":
                return a
            if op == "not":
                return _map(lambda x: (not x) if _is_number(x) else ca.logic_not(x), a)
            raise _Unsupported(f"unary operator '{op}'")
        if kind == "index":
            base = ev(body["base"])
            index = []
            for sub in self._subscripts[node]:
                k = sub["kind"]
                if k == "whole":
                    index.append(slice(None))
                elif isinstance(k, dict) and "index" in k:
                    index.append(_const_int(ev(k["index"]), "array subscript") - 1)
                else:
                    raise _Unsupported(f"array subscript of kind {k}")
            return _obj(base[tuple(index)])
        if kind == "array":
            items = [ev(n) for n in self._operands[node]]
            out = np.empty((len(items),) + (items[0].shape if items else ()), dtype=object)
            for k, item in enumerate(items):
                out[k] = item
            return out
        if kind == "builtin":
            name = body["builtin"]
            if name in ("noEvent", "no_event", "smooth"):  # relations inside generate no events
                self._no_event += 1
                try:
                    return _builtin(name, [ev(n) for n in self._operands[node]])
                finally:
                    self._no_event -= 1
            if name == "initial":
                return _obj(self._initial)
            if name == "terminal":
                return _obj(False)
            return _builtin(name, [ev(n) for n in self._operands[node]])
        if kind == "conditional":  # operands: cond1, value1, cond2, value2, ..., else
            ops = self._operands[node]
            out = ev(ops[-1])
            for c, v in reversed(list(zip(ops[:-1:2], ops[1:-1:2]))):
                out = _map(_if_else, ev(c), ev(v), out)
            return out
        if kind == "range":  # a:b or a:step:b with constant integer bounds
            start = _const_int(ev(body["start_expression"]), "range start")
            stop = _const_int(ev(body["stop_expression"]), "range end")
            step = 1 if body.get("explicit_step_expression") is None else _const_int(
                ev(body["explicit_step_expression"]), "range step")
            return _obj(np.array(list(range(start, stop + (1 if step > 0 else -1), step)), dtype=object))
        if kind == "comprehension":  # {body for i in a:b, ...}
            domain = self._domains[body["domain"]]["domain"]["binders"]
            ranges = [range(b["lower"], b["upper"] + (1 if b["step"] > 0 else -1), b["step"]) for b in domain]
            items = []
            for combo in itertools.product(*ranges):
                env = dict(binders)
                env.update({(body["domain"], k): v for k, v in enumerate(combo)})
                items.append(self._eval(body["body"], env, frame))
            out = np.empty(tuple(len(r) for r in ranges) + (items[0].shape if items else ()), dtype=object)
            for idx, item in zip(np.ndindex(*[len(r) for r in ranges]), items):
                out[idx] = item
            return out
        if kind == "call":
            # the outputs of one call are separate nodes that share the owner node's operands
            owner = body["owner"]
            store = frame.cache if frame is not None else self._global_cache
            key = ("call", owner, tuple(sorted(binders.items())))
            if key not in store:
                store[key] = self._call(body["function"], [ev(n) for n in self._operands[owner]])
            return store[key][body["output"]]
        raise _Unsupported(f"expression of kind '{kind}'")

    def _call(self, function: int, args: list[np.ndarray]) -> list[np.ndarray]:
        f = self._functions[function]
        if f.get("external"):
            raise _Unsupported(f"external function {f['name']}")
        n_out = len(f["outputs"])
        frame = _Frame(function, args, n_out + len(f["locals"]))
        for statement in f["statements"]:
            (kind, body), = statement.items()
            if kind == "assignment":
                assignments = [body]
            elif kind == "assignment_group":
                assignments = body["assignments"]
            else:
                raise _Unsupported(f"statement '{kind}' in function {f['name']}")
            values = [self._eval(a["rhs"], {}, frame) for a in assignments]
            for a, value in zip(assignments, values):
                frame.slots[a["target"]] = value
        outputs = frame.slots[:n_out]
        if any(o is None for o in outputs):
            raise _Unsupported(f"function {f['name']} that leaves an output unassigned")
        return outputs

    # ----------------------------------------------------------------- equations
    def residuals(self, operations: list[dict]) -> list[Residual]:
        """Scalar residuals of a list of equation operations (continuous or initial)."""
        out: list[Residual] = []
        for op in operations:
            (kind, body), = op.items()
            where = self.where(body.get("provenance"))
            try:
                if kind == "residual":
                    values = [self._eval(body["residual"], {}, None)]
                elif kind == "structured":
                    values = self._structured(body)
                else:
                    raise _Unsupported(f"equation of kind '{kind}'")
            except _Unsupported as e:
                raise NonholonomicError(f"rumoca backend: unsupported {e} at {where}") from None
            for value in values:
                for x in value.flat:
                    out.append(Residual(ca.SX(x), where))
        return out

    def _structured(self, body: dict) -> list[np.ndarray]:
        domain = self._domains[body["domain"]]
        if domain.get("parent") is not None:
            raise _Unsupported("nested equation domain")
        binders = domain["domain"]["binders"]
        view = body["scalar_view"]
        if view == "RowMajorProjection":
            loop = []
        elif isinstance(view, dict) and "BinderPrefixProjection" in view:
            loop = binders[:view["BinderPrefixProjection"]["binder_count"]]
        elif view == "BinderSubstitution" or (isinstance(view, dict) and "BinderSubstitution" in view):
            loop = binders
        else:
            raise _Unsupported(f"equation view {view}")
        ranges = [range(b["lower"], b["upper"] + (1 if b["step"] > 0 else -1), b["step"]) for b in loop]
        values = []
        for combo in itertools.product(*ranges):
            env = {(body["domain"], k): v for k, v in enumerate(combo)}
            for b in body["bodies"]:
                values.append(self._eval(b, env, None))
        return values

    def assertions(self) -> list[tuple[Any, str, str, tuple]]:
        """The model's ``assert(condition, message)``: (condition as a 0/1 expression, message, source place,
        activation), those written in the model's own file first: of several that fail, the first is reported, and
        the model's own speak of the parameters its user sets (``C <= 2 A`` of a disk before a body's triangle
        inequality). rumoca lowers each to an event action whose guard is the negated condition; its trigger is
        the when-condition of an assert inside a when-equation, else None (the assert watches its condition at
        all times). An assert on time-varying variables is an event: the run fails where it fires."""
        out = []
        for action in self._st.get("event_actions") or []:
            if "assert" not in action.get("kind", {}):
                continue
            where = self.where(action.get("provenance"))
            try:
                failing = self._condition(action["guard"])
                message = self._message(action["kind"]["assert"]["message"])
            except _Unsupported as e:
                raise NonholonomicError(f"rumoca backend: unsupported {e} in an assert at {where}") from None
            holds = (not failing) if _is_number(failing) else ca.logic_not(failing)
            always = self._st["conditions"][action["trigger"]]["node"] == "always"
            out.append((holds, message, where, (None if always else action["trigger"], action["guard"])))
        own_file = self.model.rsplit(".", 1)[-1] + ".mo:"
        return sorted(out, key=lambda a: not a[2].rsplit("/", 1)[-1].startswith(own_file))  # stable: else as found

    def _condition(self, index: int):
        """The value of condition ``index`` (relations frozen, clocks and initial() as their symbols)."""
        node = self._st["conditions"][index]["node"]
        if node == "always":
            return True
        if node == "initial":
            return self._initial
        if isinstance(node, dict) and "relation" in node:
            return self._eval(self._st["relations"][node["relation"]]["relation"]["expression"], {}, None)[()]
        if isinstance(node, dict) and "clock" in node:
            return self._ticks[node["clock"]]
        if isinstance(node, dict) and "any_rise" in node:  # when {c1, c2}: true while any part is
            pair = node["any_rise"]
            return _logic("or")(self._condition(pair["lhs"]), self._condition(pair["rhs"]))
        if isinstance(node, dict) and "not" in node:
            inner = self._condition(node["not"])
            return (not inner) if _is_number(inner) else ca.logic_not(inner)
        if isinstance(node, dict) and "discrete" in node:
            return self._eval(node["discrete"], {}, None)[()]
        if isinstance(node, dict) and ("and" in node or "or" in node):
            (op, pair), = node.items()
            lhs, rhs = self._condition(pair["lhs"]), self._condition(pair["rhs"])
            if _is_number(lhs) and _is_number(rhs):
                return (lhs and rhs) if op == "and" else (lhs or rhs)
            return ca.logic_and(lhs, rhs) if op == "and" else ca.logic_or(lhs, rhs)
        raise _Unsupported(f"condition {node}")

    def _rise_parts(self, index: int) -> list[int] | None:
        """The conditions any of whose rises fires condition ``index`` (``when {c1, c2}``), None for one."""
        node = self._st["conditions"][index]["node"]
        if isinstance(node, dict) and "any_rise" in node:
            pair = node["any_rise"]
            return [k for side in (pair["lhs"], pair["rhs"]) for k in (self._rise_parts(side) or [side])]
        return None

    def event_system(self) -> EventSystem:
        """The event behaviour of the model (see :class:`EventSystem`); relations met here are registered too."""
        def activation(entry):
            act = entry.get("activation", entry)
            if act == "always":
                return None
            when = act["when"] if "when" in act else act
            return when["trigger"], when["guard"]

        def flat(value, n, where):
            items = list(np.asarray(value, dtype=object).flat)
            if len(items) == 1 and n > 1:
                items = items * n
            if len(items) != n:
                raise NonholonomicError(f"rumoca backend: {n} targets but {len(items)} values at {where}")
            return [ca.SX(x) for x in items]

        branches = []
        try:
            for owner in self._st.get("discrete_value_owners") or []:
                targets = [s for v in owner["targets"] for s in np.asarray(self.variables[v].value).flat]
                sizes = [np.asarray(self.variables[v].value).size for v in owner["targets"]]
                for branch in owner["branches"]:
                    where = self.where(branch.get("provenance"))
                    # one value for all targets, or one per target variable (an array value for an array variable)
                    counts = ([len(targets)] if len(branch["values"]) == 1 else
                              sizes if len(branch["values"]) == len(sizes) else [1] * len(branch["values"]))
                    values = [x for item, count in zip(branch["values"], counts) for x in
                              flat(self._eval(item["value"], {}, None), count, where)]
                    for target, value in zip(targets, values):
                        branches.append(Branch(ca.SX(target), value, activation(branch), where))
            discrete_reals = {s.name(): s for v in self.variables if v.role == "discrete_real"
                              for s in np.asarray(v.value).flat}
            for equation in self._st.get("discrete_real_equations") or []:
                where = self.where(equation.get("provenance"))
                residual = ca.SX(self._eval(equation["residual"], {}, None)[()])
                unknowns = [discrete_reals[s.name()] for s in ca.symvar(residual) if s.name() in discrete_reals]
                if len(unknowns) != 1:
                    raise _Unsupported("discrete equation that does not name exactly one discrete Real "
                                       "(write it as v = expression)")
                target = unknowns[0]
                slope = ca.jacobian(residual, target)
                if ca.depends_on(slope, target):
                    raise _Unsupported("discrete equation nonlinear in its discrete Real")
                value = -ca.substitute(residual, target, ca.SX(0)) / slope
                branches.append(Branch(target, ca.simplify(value), activation(equation), where))
            reinits, terminations = [], []
            for action in self._st.get("event_actions") or []:
                kind = action["kind"]
                where = self.where(action.get("provenance"))
                act = (action["trigger"], action["guard"])
                if "reinitialize" in kind:
                    state = self.variables[kind["reinitialize"]["state"]]
                    values = flat(self._eval(kind["reinitialize"]["value"], {}, None), state.value.size, where)
                    reinits += [(ca.SX(x), v, act) for x, v in zip(np.asarray(state.value).flat, values)]
                elif "terminate" in kind:
                    terminations.append((act, self._message(kind["terminate"]["message"])))
                elif "assert" not in kind:
                    raise _Unsupported(f"event action {next(iter(kind))}")
            conditions = [(ca.SX(self._condition(k)), self._rise_parts(k))
                          for k in range(len(self._st.get("conditions") or []))]
        except _Unsupported as e:
            raise NonholonomicError(f"rumoca backend: unsupported {e}") from None
        rational = lambda r: r["num"] / r["den"]
        clocks = [(rational(c["kind"]["periodic"]["lattice"]["phase"]),
                   rational(c["kind"]["periodic"]["lattice"]["period"])) for c in self._st.get("clocks") or []]
        time_events = sorted(rational(e["instant"]) for e in self._st.get("time_events") or [] if "instant" in e)
        return EventSystem(branches, reinits, terminations, conditions, self._ticks, self._initial, clocks,
                           time_events)

    def _message(self, node: int) -> str:
        """An assert's message: string literals and concatenations; a converted value shows as <name>."""
        (kind, body), = self._nodes[node].items()
        if kind == "literal" and "string" in body:
            return body["string"]
        if kind == "binary" and body["operator"] == "add":
            return self._message(body["lhs"]) + self._message(body["rhs"])
        if kind == "string_conversion":
            value = self._nodes[body["value"]]
            if "coordinate" in value and isinstance(value["coordinate"], dict):
                (role, index), = value["coordinate"].items()
                if role in ("state", "algebraic", "parameter", "input"):
                    return f"<{self.variables[index].name}>"
            return "<value>"
        raise _Unsupported(f"message expression '{kind}'")

    def continuous_residuals(self) -> list[Residual]:
        return self.residuals(self._st["continuous_equation_operations"])

    def initial_residuals(self) -> list[Residual]:
        return self.residuals(self._st["initialization_equation_operations"])

    def attribute(self, var: Variable, name: str) -> np.ndarray | None:
        """Evaluated attribute (binding, start, min, max, fixed, ...) of a variable, or None."""
        node = var.attributes.get(name)
        if node is None or isinstance(node, (list, bool)):
            return None
        return self.evaluate(node)

    def function_name(self, index: int) -> str:
        return self._functions[index]["name"]
