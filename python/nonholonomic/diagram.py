"""Diagrams of the library's classes, drawn from their Modelica annotations: ``nonholonomic diagram MODEL --out
FILE.svg``.

The library's own reader of the graphical annotations (Modelica Language Specification 3.6, ch. 18): a class's
``Diagram`` graphics, its components' ``Placement`` (extent, origin, rotation; a reversed extent flips), each
component drawn with its class's ``Icon`` (inherited graphics first) and its connectors at their own placements
(``iconTransformation`` where given), and the ``Line`` annotations of the ``connect`` equations. ``%name`` in a text
is the component's name, ``%par`` the value of parameter ``par`` (its modifier in the instance, else its default).
Graphic items: Line, Polygon, Rectangle (with radius), Ellipse, Text, each with origin and rotation; fill patterns
Solid, Sphere and cylinders (gradients), hatches (a pattern); smooth Bezier lines through their points' midpoints
as OMEdit draws them.

pymoca parses the library but keeps no component or equation annotations, so the sources are read here with a
small tokenizer: classes (long and short, nested), extends clauses, component declarations with their
modifications, connect equations (also inside for-loops) and annotations as nested Python values.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import pathlib
import re
from xml.sax.saxutils import escape

from .errors import NonholonomicError
from .models import LIBRARY

# ---------------------------------------------------------------------------------------------- tokens
_TOKEN = re.compile(r'''\s+|//[^\n]*|/\*.*?\*/|(?P<s>"(?:[^"\\]|\\.)*")|(?P<n>\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)
                        |(?P<i>[A-Za-z_]\w*|'(?:[^'\\]|\\.)*')|(?P<p>\.\^|\.\*|\./|\.\+|\.-|==|<>|<=|>=|:=|[-+*/^(){}\[\];,=.:<>])''',
                    re.S | re.X)
_CLASS_KINDS = {"model", "class", "package", "connector", "block", "record", "function", "type"}
_CLASS_PREFIXES = {"encapsulated", "partial", "final", "replaceable", "redeclare", "expandable", "operator", "pure",
                   "impure", "inner", "outer"}
_ELEMENT_PREFIXES = {"parameter", "constant", "discrete", "input", "output", "flow", "stream", "final", "inner",
                     "outer", "replaceable", "redeclare", "each"}


@dataclasses.dataclass(frozen=True)
class _Tok:
    kind: str   # s string, n number, i identifier, p punctuation
    text: str


def _tokens(text: str) -> list[_Tok]:
    out, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise NonholonomicError(f"cannot read Modelica text near: {text[pos:pos + 40]!r}")
        pos = m.end()
        if m.lastgroup:
            out.append(_Tok(m.lastgroup, m.group(m.lastgroup)))
    return out


# ---------------------------------------------------------------------------------------------- annotation values
@dataclasses.dataclass(frozen=True)
class Name:
    """A name in an annotation: an enumeration literal (``FillPattern.Solid``) or a reference."""
    text: str


@dataclasses.dataclass
class Call:
    """``Name(args)``: a record constructor or a modification (``Placement(transformation(...))``)."""
    name: str
    args: list
    named: dict

    def get(self, key, default=None):
        return self.named.get(key, default)


class _Parser:
    def __init__(self, toks: list[_Tok], i: int = 0):
        self.toks, self.i = toks, i

    def peek(self, k: int = 0) -> _Tok | None:
        return self.toks[self.i + k] if self.i + k < len(self.toks) else None

    def take(self) -> _Tok:
        tok = self.peek()
        if tok is None:
            raise NonholonomicError("unexpected end of Modelica text")
        self.i += 1
        return tok

    def expect(self, text: str) -> None:
        tok = self.take()
        if tok.text != text:
            raise NonholonomicError(f"expected {text!r}, found {tok.text!r}")

    def at(self, *texts: str) -> bool:
        tok = self.peek()
        return tok is not None and tok.text in texts

    def skip_balanced(self) -> list[_Tok]:
        """The tokens from an opening bracket at the current position to its closing one (both included)."""
        start, depth = self.i, 0
        while True:
            t = self.take().text
            depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(t, 0)
            if depth == 0:
                return self.toks[start:self.i]

    def name(self) -> str:
        parts = [self.take().text]
        while self.at(".") and self.peek(1) is not None and self.peek(1).kind == "i":
            self.take()
            parts.append(self.take().text)
        return ".".join(parts)

    # expressions: enough of MLS 3 for annotations (literals, arrays, records, names, arithmetic on numbers)
    def expression(self):
        if self.at("if"):  # if c then a else b: keep the first branch (annotations rarely use it)
            self.take()
            self.expression()
            self.expect("then")
            value = self.expression()
            while self.at("elseif", "else"):
                if self.take().text == "elseif":
                    self.expression()
                    self.expect("then")
                self.expression()
            return value
        return self._sum()

    def _sum(self):
        value = self._product()
        while self.at("+", "-"):
            op = self.take().text
            rhs = self._product()
            value = _arith(op, value, rhs)
        return value

    def _product(self):
        value = self._power()
        while self.at("*", "/", ".*", "./"):
            op = self.take().text.lstrip(".")
            value = _arith(op, value, self._power())
        return value

    def _power(self):
        value = self._unary()
        if self.at("^", ".^"):
            self.take()
            value = _arith("^", value, self._unary())
        return value

    def _unary(self):
        if self.at("-", "+"):
            sign = self.take().text
            value = self._unary()
            return _arith("*", -1.0, value) if sign == "-" else value
        if self.at("not"):
            self.take()
            return self._unary()
        return self._primary()

    def _primary(self):
        tok = self.peek()
        if tok.kind == "n":
            self.take()
            return float(tok.text)
        if tok.kind == "s":
            self.take()
            value = _unquote(tok.text)
            while self.at("+") and self.peek(1) is not None and self.peek(1).kind == "s":  # "a" + "b"
                self.take()
                value += _unquote(self.take().text)
            return value
        if tok.text == "(":
            self.take()
            value = self.expression()
            self.expect(")")
            return value
        if tok.text == "{":
            return self.array()
        if tok.text == "[":  # matrix [a, b; c, d]: a list of rows
            self.take()
            rows, row = [], []
            while not self.at("]"):
                row.append(self.expression())
                if self.at(";"):
                    self.take()
                    rows.append(row)
                    row = []
                elif self.at(","):
                    self.take()
            self.take()
            return rows + [row] if row else rows
        if tok.kind == "i":
            if tok.text in ("true", "false"):
                self.take()
                return tok.text == "true"
            name = self.name()
            if self.at("("):
                return self.call(name)
            if self.at("["):
                self.skip_balanced()
            return Name(name)
        raise NonholonomicError(f"unexpected {tok.text!r} in an annotation")

    def array(self) -> list:
        self.expect("{")
        items = []
        while not self.at("}"):
            items.append(self.expression())
            if self.at("for"):  # {e for i in ...}: not evaluated
                while not self.at("}"):
                    self.take()
                return []
            if self.at(","):
                self.take()
        self.take()
        return items

    def call(self, name: str) -> Call:
        self.expect("(")
        args, named = [], {}
        while not self.at(")"):
            while self.at("each", "final", "redeclare", "replaceable"):
                self.take()
            tok, nxt = self.peek(), self.peek(1)
            if tok.kind == "i" and nxt is not None and nxt.text in ("=", "("):
                key = self.name()
                if self.at("="):
                    self.take()
                    named[key] = self.expression()
                else:
                    named[key] = self.call(key)
            else:
                args.append(self.expression())
            if self.at(","):
                self.take()
        self.take()
        return Call(name, args, named)


def _unquote(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text[1:-1])


def _arith(op: str, a, b):
    if isinstance(a, float) and isinstance(b, float):
        return {"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else math.nan, "^": a ** b}[op]
    if isinstance(a, list) and isinstance(b, list) and op in "+-":
        return [_arith(op, x, y) for x, y in zip(a, b)]
    if isinstance(a, float) and isinstance(b, list):
        return [_arith(op, a, y) for y in b]
    if isinstance(a, list) and isinstance(b, float):
        return [_arith(op, x, b) for x in a]
    return None


def _text(toks: list[_Tok]) -> str:
    """Tokens back to compact Modelica text (for the values of modifiers shown by %par): spaces after commas and
    around binary + and -."""
    out, prev = "", None
    for t in toks:
        binary = t.text in ("+", "-") and prev is not None and (prev.kind in "ins" or prev.text in (")", "]", "}"))
        if binary:
            out += f" {t.text} "
        elif out and t.kind in "ins" and prev is not None and prev.kind in "ins":
            out += " " + t.text
        else:
            out += t.text + (" " if t.text == "," else "")
        prev = t
    return out.strip()


# ---------------------------------------------------------------------------------------------- classes
@dataclasses.dataclass
class Component:
    type_name: str
    name: str
    modifiers: dict        # name -> Modelica text of its value
    annotation: Call | None
    default: str | None    # the binding's text: parameter R = 0.1 -> "0.1"
    protected: bool


@dataclasses.dataclass
class Connection:
    a: str
    b: str
    annotation: Call | None


@dataclasses.dataclass
class ModelicaClass:
    name: str                       # full name
    kind: str
    extends: list = dataclasses.field(default_factory=list)     # (name, modifiers)
    components: list = dataclasses.field(default_factory=list)
    connections: list = dataclasses.field(default_factory=list)
    annotation: Call | None = None
    short_base: str | None = None

    @property
    def scope(self) -> str:
        return self.name.rpartition(".")[0]


def _annotation(p: _Parser) -> Call | None:
    """``annotation(...)`` at the current position (the keyword taken), as a Call named annotation."""
    return p.call("annotation")


def _modifiers(toks: list[_Tok]) -> dict:
    """The top-level modifiers of a modification ``( ... )``: name -> text of the value."""
    found, depth, start = {}, 0, 1
    for k, t in enumerate(toks):
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(t.text, 0)
        if (depth == 0 and t.text == ")") or (depth == 1 and t.text == ","):
            part = [x for x in toks[start:k] if x.text not in ("each", "final")]
            if len(part) > 2 and part[0].kind == "i" and part[1].text == "=":
                found[part[0].text] = _text(part[2:])
            start = k + 1
    return found


def _parse_class(p: _Parser, scope: str, classes: dict) -> None:
    while p.peek().text in _CLASS_PREFIXES:
        p.take()
    kind = p.take().text
    if kind == "operator" or kind == "expandable":
        kind = p.take().text
    name = p.take().text
    full = f"{scope}.{name}" if scope else name
    cls = ModelicaClass(full, kind)
    classes[full] = cls
    if p.at("="):  # short class: name = [prefixes] Base [dims] [(mods)] ["desc"] [annotation(...)];
        p.take()
        while p.peek().text in _ELEMENT_PREFIXES:
            p.take()
        cls.short_base = p.name()
        depth = 0
        while not (depth == 0 and p.at(";")):
            if depth == 0 and p.at("annotation"):
                p.take()
                cls.annotation = _annotation(p)
                continue
            t = p.take().text
            depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(t, 0)
        p.take()
        return
    section, protected = "element", False
    while True:
        tok = p.peek()
        if tok.text == "end" and p.peek(1) is not None and p.peek(1).text == name:
            p.take(), p.take(), p.expect(";")
            return
        if tok.kind == "s":  # the class's description
            p.take()
            continue
        if tok.text in ("public", "protected"):
            protected = p.take().text == "protected"
            continue
        if tok.text in ("equation", "algorithm"):
            p.take()
            section = "equation"
            continue
        if tok.text == "initial" and p.peek(1) is not None and p.peek(1).text in ("equation", "algorithm"):
            p.take(), p.take()
            section = "initial"
            continue
        k = 0
        while p.peek(k).text in _CLASS_PREFIXES:
            k += 1
        if section == "element" and p.peek(k).text in _CLASS_KINDS | {"operator", "expandable"}:
            _parse_class(p, full, classes)
            continue
        _element(p, cls, section, protected)


def _element(p: _Parser, cls: ModelicaClass, section: str, protected: bool) -> None:
    """One element or equation, up to its ';' at depth 0."""
    start, depth, annotation = p.i, 0, None
    while not (depth == 0 and p.at(";")):
        if depth == 0 and p.at("annotation"):
            p.take()
            annotation = _annotation(p)
            continue
        t = p.take().text
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(t, 0)
    toks = p.toks[start:p.i]
    p.take()
    words = [t.text for t in toks]
    if not toks:
        return
    if words[0] == "annotation" or (not words and annotation is not None):
        cls.annotation = annotation
    elif toks[0].text == "annotation":
        cls.annotation = annotation
    if section == "equation":
        if "connect" in words:
            k = words.index("connect")
            q = _Parser(toks, k + 1)
            inner = q.skip_balanced()
            depth, split = 0, None
            for j, t in enumerate(inner):
                depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(t.text, 0)
                if depth == 1 and t.text == ",":
                    split = j
            a, b = "".join(t.text for t in inner[1:split]), "".join(t.text for t in inner[split + 1:-1])
            cls.connections.append(Connection(a, b, annotation))
        return
    if section != "element" or not toks:
        if annotation is not None and not toks:
            cls.annotation = annotation
        return
    q = _Parser(toks)
    if q.at("extends"):
        q.take()
        base = q.name()
        cls.extends.append((base, _modifiers(q.skip_balanced()) if q.at("(") else {}))
        return
    if q.at("import"):
        return
    while q.peek() is not None and q.peek().text in _ELEMENT_PREFIXES:
        q.take()
    if q.peek() is None or q.peek().kind != "i":
        if annotation is not None:
            cls.annotation = annotation
        return
    type_name = q.name()
    if q.at("["):
        q.skip_balanced()
    while q.peek() is not None and q.peek().kind == "i":  # declarators: name [dims] [(mods)] [= value], ...
        name = q.take().text
        if q.at("["):
            q.skip_balanced()
        modifiers = _modifiers(q.skip_balanced()) if q.at("(") else {}
        default = None
        if q.at("="):
            q.take()
            s, depth = q.i, 0
            while q.peek() is not None and not (depth == 0 and q.peek().text in (",", "if")) and q.peek().kind != "s":
                depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(q.take().text, 0)
            default = _text(toks[s:q.i])
        cls.components.append(Component(type_name, name, modifiers, annotation, default, protected))
        while q.peek() is not None and q.peek().text != ",":
            q.take()
        if q.at(","):
            q.take()
        else:
            break


@functools.cache
def _library(library: pathlib.Path = LIBRARY) -> dict:
    """Every class of the library by full name."""
    classes = {}
    for path in sorted(pathlib.Path(library).rglob("*.mo")):
        toks = _tokens(path.read_text(encoding="utf-8"))
        p = _Parser(toks)
        scope = ""
        if p.at("within"):
            p.take()
            scope = p.name() if not p.at(";") else ""
            p.expect(";")
        while p.peek() is not None:
            _parse_class(p, scope, classes)
    return classes


def find_class(name: str, library: pathlib.Path = LIBRARY) -> ModelicaClass:
    """A class by full name or by an example's short name; a one-line error for an unknown one."""
    classes = _library(pathlib.Path(library))
    for candidate in (name, f"Nonholonomic.Examples.{name}", f"Nonholonomic.{name}"):
        if candidate in classes:
            return classes[candidate]
    raise NonholonomicError(f"no class {name} in the library (an example's name, or a full name such as "
                            "Nonholonomic.Vehicles.OmniWheel)")


def _resolve(name: str, scope: str, classes: dict) -> ModelicaClass | None:
    """Modelica's lookup of a class name from ``scope`` outwards (MLS 5.3): the first part in the enclosing
    classes, then the rest inside it."""
    first, _, rest = name.partition(".")
    parts = scope.split(".") if scope else []
    while True:
        base = ".".join(parts + [first])
        if base in classes:
            full = f"{base}.{rest}" if rest else base
            return classes.get(full)
        if not parts:
            return None
        parts.pop()


def _bases(cls: ModelicaClass, classes: dict) -> list[ModelicaClass]:
    """The class after all its base classes, depth first (base graphics first)."""
    out = []
    for base, _ in cls.extends:
        found = _resolve(base, cls.name, classes)
        if found is not None:
            out += _bases(found, classes)
    if cls.short_base:
        found = _resolve(cls.short_base, cls.scope, classes)
        if found is not None:
            out += _bases(found, classes)
    return out + [cls]


def _layer(cls: ModelicaClass, layer: str) -> Call | None:
    return cls.annotation.get(layer) if cls.annotation is not None else None


def _graphics(cls: ModelicaClass, layer: str, classes: dict) -> tuple[list, list]:
    """The graphics of a layer (``Icon``, ``Diagram``) with those inherited, and its coordinate system extent."""
    items, extent = [], [[-100.0, -100.0], [100.0, 100.0]]
    for c in _bases(cls, classes):
        lay = _layer(c, layer)
        if lay is None:
            continue
        system = lay.get("coordinateSystem")
        if isinstance(system, Call) and isinstance(system.get("extent"), list):
            extent = system.get("extent")
        items += [g for g in lay.get("graphics") or [] if isinstance(g, Call)]
    return items, extent


def _all_components(cls: ModelicaClass, classes: dict) -> list[Component]:
    return [comp for c in _bases(cls, classes) for comp in c.components]


def _all_connections(cls: ModelicaClass, classes: dict) -> list[Connection]:
    return [con for c in _bases(cls, classes) for con in c.connections]


# ---------------------------------------------------------------------------------------------- geometry
Affine = tuple  # (a, b, c, d, e, f): x' = a x + c y + e, y' = b x + d y + f


def _compose(outer: Affine, inner: Affine) -> Affine:
    a1, b1, c1, d1, e1, f1 = outer
    a2, b2, c2, d2, e2, f2 = inner
    return (a1 * a2 + c1 * b2, b1 * a2 + d1 * b2, a1 * c2 + c1 * d2, b1 * c2 + d1 * d2,
            a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1)


def _apply(t: Affine, x: float, y: float) -> tuple[float, float]:
    return t[0] * x + t[2] * y + t[4], t[1] * x + t[3] * y + t[5]


def _rotation(deg: float, origin=(0.0, 0.0)) -> Affine:
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    ox, oy = origin
    return (c, s, -s, c, ox, oy)


def placement_transform(transformation: Call, system: list) -> Affine:
    """The map from a component's class coordinates (``system``: its icon's coordinate extent) into the enclosing
    class's coordinates (MLS 18.6.3: scaled into ``extent``, a reversed extent flips; rotated by ``rotation``
    degrees counter-clockwise about ``origin``, and moved there)."""
    (x1, y1), (x2, y2) = transformation.get("extent", [[-10.0, -10.0], [10.0, 10.0]])
    (u1, v1), (u2, v2) = system
    sx, sy = (x2 - x1) / (u2 - u1), (y2 - y1) / (v2 - v1)
    scale = (sx, 0.0, 0.0, sy, x1 - u1 * sx, y1 - v1 * sy)
    origin = transformation.get("origin") or [0.0, 0.0]
    return _compose(_rotation(float(transformation.get("rotation") or 0.0), tuple(origin)), scale)


def _transformation(component: Component, icon_layer: bool) -> Call | None:
    placement = component.annotation.get("Placement") if component.annotation is not None else None
    if not isinstance(placement, Call):
        return None
    if icon_layer and isinstance(placement.get("iconTransformation"), Call):
        return placement.get("iconTransformation")
    transformation = placement.get("transformation")
    return transformation if isinstance(transformation, Call) else None


def _connector_classes(cls: ModelicaClass, classes: dict) -> list[tuple[Component, ModelicaClass]]:
    """The public components of ``cls`` whose class is a connector, with their classes."""
    found = []
    for comp in _all_components(cls, classes):
        comp_cls = _component_class(cls, comp, classes)
        if comp_cls is not None and not comp.protected and any(c.kind == "connector" for c in _bases(comp_cls, classes)):
            found.append((comp, comp_cls))
    return found


def _component_class(cls: ModelicaClass, comp: Component, classes: dict) -> ModelicaClass | None:
    for owner in _bases(cls, classes):
        if comp in owner.components:
            return _resolve(comp.type_name, owner.name, classes)
    return None


def port_position(cls: ModelicaClass, reference: str, classes: dict | None = None) -> tuple[float, float] | None:
    """Where ``reference`` (``contact.kA``, ``ground.w[1]``, or a port of ``cls`` itself: ``k``) lies in the
    diagram of ``cls``: the centre of the connector's placement, through its component's placement."""
    classes = classes if classes is not None else _library()
    parts = [re.sub(r"\[.*?\]", "", part) for part in reference.split(".")]
    components = {c.name: c for c in _all_components(cls, classes)}
    if len(parts) == 1:
        port = components.get(parts[0])
        t = _transformation(port, False) if port else None
        return _apply(placement_transform(t, [[-100.0, -100.0], [100.0, 100.0]]), 0.0, 0.0) if t else None
    comp = components.get(parts[0])
    if comp is None or _transformation(comp, False) is None:
        return None
    comp_cls = _component_class(cls, comp, classes)
    if comp_cls is None:
        return None
    _, system = _graphics(comp_cls, "Icon", classes)
    outer = placement_transform(_transformation(comp, False), system)
    port = {c.name: c for c in _all_components(comp_cls, classes)}.get(parts[1])
    t = _transformation(port, True) if port else None
    if t is None:
        return None
    return _apply(_compose(outer, placement_transform(t, [[-100.0, -100.0], [100.0, 100.0]])), 0.0, 0.0)


# ---------------------------------------------------------------------------------------------- SVG
def _color(value, default=(0, 0, 0)) -> str:
    r, g, b = (int(round(float(v))) for v in (value if isinstance(value, list) and len(value) == 3 else default))
    return f"rgb({r},{g},{b})"


def _enum(value, default: str) -> str:
    return value.text.rpartition(".")[2] if isinstance(value, Name) else default


class _Svg:
    def __init__(self, extent):
        (x1, y1), (x2, y2) = extent
        self.xmin, self.ymax = min(x1, x2), max(y1, y2)
        self.width, self.height = abs(x2 - x1), abs(y2 - y1)
        self.scale = 4.0  # SVG units per diagram unit: a 200-unit diagram is 800 px wide
        self.defs, self.body, self._ids = [], [], {}
        self.bounds = [math.inf, math.inf, -math.inf, -math.inf]  # of everything drawn, in SVG units

    def xy(self, x: float, y: float) -> tuple[float, float]:
        u, v = (x - self.xmin) * self.scale, (self.ymax - y) * self.scale
        self.bounds = [min(self.bounds[0], u), min(self.bounds[1], v), max(self.bounds[2], u), max(self.bounds[3], v)]
        return u, v

    def fill(self, item: Call, shape: str) -> str:
        pattern = _enum(item.get("fillPattern"), "None")
        if pattern == "None":
            return "none"
        color = _color(item.get("fillColor"))
        if pattern == "Solid":
            return color
        key = (pattern, color)
        if key not in self._ids:
            ident = f"f{len(self._ids)}"
            self._ids[key] = ident
            if pattern == "Sphere":
                self.defs.append(f"<radialGradient id='{ident}' cx='40%' cy='35%' r='65%'><stop offset='0' "
                                 f"stop-color='white'/><stop offset='1' stop-color='{color}'/></radialGradient>")
            elif pattern in ("HorizontalCylinder", "VerticalCylinder"):
                x2, y2 = ("0", "1") if pattern == "HorizontalCylinder" else ("1", "0")
                self.defs.append(f"<linearGradient id='{ident}' x1='0' y1='0' x2='{x2}' y2='{y2}'><stop offset='0' "
                                 f"stop-color='{color}'/><stop offset='0.5' stop-color='white'/><stop offset='1' "
                                 f"stop-color='{color}'/></linearGradient>")
            else:  # hatches
                lines = {"Horizontal": "M0 4H8", "Vertical": "M4 0V8", "Cross": "M0 4H8M4 0V8",
                         "Forward": "M0 8L8 0", "Backward": "M0 0L8 8", "CrossDiag": "M0 0L8 8M0 8L8 0"}
                self.defs.append(f"<pattern id='{ident}' width='8' height='8' patternUnits='userSpaceOnUse'>"
                                 f"<rect width='8' height='8' fill='white'/><path d='{lines.get(pattern, 'M0 0L8 8')}' "
                                 f"stroke='{color}' stroke-width='1'/></pattern>")
        return f"url(#{self._ids[key]})"

    def path(self, points: list, closed: bool, item: Call, line_key: str, stroke_default=(0, 0, 0),
             smooth: bool = False) -> None:
        pts = [self.xy(*p) for p in points]
        if len(pts) < 2:
            return
        if smooth and len(pts) > 2:  # OMEdit's Bezier: quadratic pieces between the midpoints
            d = f"M{pts[0][0]:.2f} {pts[0][1]:.2f}"
            mids = [((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in zip(pts, pts[1:])]
            d += f" L{mids[0][0]:.2f} {mids[0][1]:.2f}"
            for k in range(1, len(pts) - 1):
                d += f" Q{pts[k][0]:.2f} {pts[k][1]:.2f} {mids[k][0]:.2f} {mids[k][1]:.2f}"
            d += f" L{pts[-1][0]:.2f} {pts[-1][1]:.2f}"
        else:
            d = "M" + " L".join(f"{x:.2f} {y:.2f}" for x, y in pts) + (" Z" if closed else "")
        pattern = _enum(item.get("pattern"), "Solid")
        stroke = "none" if pattern == "None" else _color(item.get(line_key), stroke_default)
        width = float(item.get("thickness") or item.get("lineThickness") or 0.25) * self.scale * 1.5
        dash = {"Dash": "6 3", "Dot": "1.5 3", "DashDot": "6 3 1.5 3", "DashDotDot": "6 3 1.5 3 1.5 3"}.get(pattern)
        fill = self.fill(item, "path") if closed else "none"
        self.body.append(f"<path d='{d}' fill='{fill}' stroke='{stroke}' stroke-width='{max(width, 0.75):.2f}'"
                         + (f" stroke-dasharray='{dash}'" if dash else "") + " stroke-linejoin='round'/>")

    def text(self, corners: list, string: str, item: Call, centre=None) -> None:
        """A text in the box ``corners`` (its extent's corners, mapped), written horizontally: the font fits the
        box's own width and height (before any rotation), so that text stays readable. In a box turned upright (a
        rotated component) the text starts at the box's side nearer to ``centre`` (the component's) and runs away
        from it."""
        if not string.strip():
            return
        pts = [self.xy(*c) for c in corners]
        xs, ys = zip(*pts)
        width, height = math.dist(pts[0], pts[1]), math.dist(pts[1], pts[2])
        cx, cy = sum(xs) / 4, sum(ys) / 4
        turned = abs(pts[1][1] - pts[0][1]) > abs(pts[1][0] - pts[0][0])
        xs, ys = (cx - width / 2, cx + width / 2), (cy - height / 2, cy + height / 2)
        if turned and centre is not None:
            u, _ = self.xy(*centre)
            side = height / 2 + 2
            xs, ys = ((cx - side, cx - side + width) if cx > u else (cx + side - width, cx + side)), (cy - height / 2,
                                                                                                    cy + height / 2)
            item = Call(item.name, item.args, dict(item.named, horizontalAlignment=Name(
                "TextAlignment.Left" if cx > u else "TextAlignment.Right")))
        size = min(height * 0.85, width / max(0.55 * len(string), 1e-9))
        font = item.get("fontSize")
        if isinstance(font, float) and font > 0:
            size = min(size, font * self.scale / 2.5)
        align = _enum(item.get("horizontalAlignment"), "Center")
        x = {"Left": min(xs), "Right": max(xs)}.get(align, (min(xs) + max(xs)) / 2)
        anchor = {"Left": "start", "Right": "end"}.get(align, "middle")
        color = _color(item.get("textColor") if item.get("textColor") is not None else item.get("lineColor"))
        self.body.append(f"<text x='{x:.2f}' y='{(min(ys) + max(ys)) / 2:.2f}' font-size='{max(size, 1.0):.2f}' "
                         f"fill='{color}' text-anchor='{anchor}' dominant-baseline='central' "
                         f"font-family='Arial, Helvetica, sans-serif'>{escape(string)}</text>")

    def document(self, title: str) -> str:
        """The SVG document, cropped to what is drawn (with a margin), or the whole coordinate system if empty."""
        if math.isfinite(self.bounds[0]):
            margin = 6 * self.scale
            x0, y0 = self.bounds[0] - margin, self.bounds[1] - margin
            w, h = self.bounds[2] - self.bounds[0] + 2 * margin, self.bounds[3] - self.bounds[1] + 2 * margin
        else:
            x0, y0, w, h = 0.0, 0.0, self.width * self.scale, self.height * self.scale
        return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{w:.0f}' height='{h:.0f}' viewBox='{x0:.2f} {y0:.2f} "
                f"{w:.2f} {h:.2f}'>\n<title>{escape(title)}</title>\n<defs>{''.join(self.defs)}</defs>\n"
                f"<rect x='{x0:.2f}' y='{y0:.2f}' width='{w:.2f}' height='{h:.2f}' fill='white'/>\n"
                + "\n".join(self.body) + "\n</svg>\n")


def _item_transform(item: Call) -> Affine:
    origin = item.get("origin") or [0.0, 0.0]
    return _rotation(float(item.get("rotation") or 0.0), tuple(origin))


def _ellipse_points(extent, start: float = 0.0, end: float = 360.0) -> list:
    (x1, y1), (x2, y2) = extent
    cx, cy, rx, ry = (x1 + x2) / 2, (y1 + y2) / 2, abs(x2 - x1) / 2, abs(y2 - y1) / 2
    n = 48
    return [(cx + rx * math.cos(math.radians(start + (end - start) * k / n)),
             cy + ry * math.sin(math.radians(start + (end - start) * k / n))) for k in range(n + 1)]


def _rectangle_points(extent, radius: float) -> list:
    (x1, y1), (x2, y2) = extent
    xa, xb, ya, yb = min(x1, x2), max(x1, x2), min(y1, y2), max(y1, y2)
    r = min(radius, (xb - xa) / 2, (yb - ya) / 2)
    if r <= 0:
        return [(xa, ya), (xb, ya), (xb, yb), (xa, yb)]
    pts = []
    for cx, cy, a0 in ((xb - r, ya + r, -90), (xb - r, yb - r, 0), (xa + r, yb - r, 90), (xa + r, ya + r, 180)):
        pts += [(cx + r * math.cos(math.radians(a0 + 90 * k / 6)), cy + r * math.sin(math.radians(a0 + 90 * k / 6)))
                for k in range(7)]
    return pts


def _draw(svg: _Svg, items: list, t: Affine, values) -> None:
    """Graphic items in coordinates mapped by ``t``; ``values(text)`` fills in %name and %par."""
    for item in items:
        m = _compose(t, _item_transform(item))
        tp = lambda pts: [_apply(m, float(x), float(y)) for x, y in pts]
        kind = item.name
        try:
            if kind == "Line":
                svg.path(tp(item.get("points") or []), False, item, "color",
                         smooth=_enum(item.get("smooth"), "None") == "Bezier")
            elif kind == "Polygon":
                svg.path(tp(item.get("points") or []), True, item, "lineColor",
                         smooth=_enum(item.get("smooth"), "None") == "Bezier")
            elif kind == "Rectangle":
                svg.path(tp(_rectangle_points(item.get("extent"), float(item.get("radius") or 0.0))), True, item,
                         "lineColor")
            elif kind == "Ellipse":
                start, end = float(item.get("startAngle") or 0.0), float(item.get("endAngle") or 360.0)
                svg.path(tp(_ellipse_points(item.get("extent"), start, end)), True, item, "lineColor")
            elif kind == "Text":
                (x1, y1), (x2, y2) = item.get("extent")
                svg.text(tp([(x1, y1), (x2, y1), (x2, y2), (x1, y2)]), values(item.get("textString") or ""), item,
                         _apply(t, 0.0, 0.0))
        except (TypeError, ValueError):
            continue  # an item whose values are expressions of parameters: not drawn


def _values(component: Component | None, cls: ModelicaClass, classes: dict, outer: dict | None = None):
    """The function that fills in %name, %class and %par in a text of ``cls`` drawn for ``component``; a modifier
    that names a parameter of the enclosing class (``outer``: name -> default) shows that parameter's value."""
    defaults = {c.name: c.default for c in _all_components(cls, classes)}
    outer = outer or {}

    def value(match) -> str:
        key = match.group(1)
        if key == "name":
            return component.name if component else cls.name.rpartition(".")[2]
        if key == "class":
            return cls.name.rpartition(".")[2]
        found = component.modifiers.get(key) if component else None
        if found is not None and outer.get(found) is not None:
            found = outer[found]
        found = found if found is not None else defaults.get(key)
        return found if found is not None else key

    return lambda text: re.sub(r"%(\w+)", value, text.replace("%%", "\0")).replace("\0", "%")


def _draw_component(svg: _Svg, component: Component, comp_cls: ModelicaClass, t: Affine, classes: dict,
                    outer: dict) -> None:
    items, system = _graphics(comp_cls, "Icon", classes)
    inner = _compose(t, placement_transform(_transformation(component, False), system))
    _draw(svg, items, inner, _values(component, comp_cls, classes, outer))
    for port, port_cls in _connector_classes(comp_cls, classes):
        transformation = _transformation(port, True)
        if transformation is None:
            continue
        port_items, port_system = _graphics(port_cls, "Icon", classes)
        _draw(svg, port_items, _compose(inner, placement_transform(transformation, port_system)),
              _values(port, port_cls, classes))


def render(model: str, library: pathlib.Path = LIBRARY) -> str:
    """The SVG text of the diagram of ``model`` (an example's name or a full class name)."""
    classes = _library(pathlib.Path(library))
    cls = find_class(model, library)
    items, extent = _graphics(cls, "Diagram", classes)
    svg = _Svg(extent)
    identity = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    _draw(svg, items, identity, _values(None, cls, classes))
    outer = {c.name: c.default for c in _all_components(cls, classes)}
    for component in _all_components(cls, classes):
        if _transformation(component, False) is None:
            continue
        comp_cls = _component_class(cls, component, classes)
        if comp_cls is not None:
            _draw_component(svg, component, comp_cls, identity, classes, outer)
    for connection in _all_connections(cls, classes):
        line = connection.annotation.get("Line") if connection.annotation is not None else None
        if isinstance(line, Call):
            _draw(svg, [line], identity, _values(None, cls, classes))
    return svg.document(cls.name)


def write_diagram(model: str, out: pathlib.Path | str, library: pathlib.Path = LIBRARY) -> pathlib.Path:
    """Render the diagram of ``model`` into the SVG file ``out``."""
    out = pathlib.Path(out)
    text = render(model, library)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    return out
