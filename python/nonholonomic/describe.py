"""What a model offers a user: its parameters, inputs, outputs and states with units, defaults and ranges, its
experiment, and for an example model its system, reference models and verification cases
(``nonholonomic describe MODEL``, :func:`describe`).

Everything is read from the FMU's model description, so an FMU of a user's own model is described as well.
Array elements share a row: ``ball[:].Q_start[:]`` stands for every index, with its number of elements.
"""

from __future__ import annotations

import dataclasses
import pathlib
import re

from .fmu import example_of, fmu_path, model_description

_INDEX = re.compile(r"\[\d+\]")


VISUAL_PARAMETERS = {"shapeType", "shapeSize", "shapeCode", "color", "opacity"}  # Nonholonomic.Visualizers


@dataclasses.dataclass(frozen=True)
class Variable:
    """A variable of the model, or every element of an array of them (``count`` > 1, ``name`` with ``[:]``)."""
    name: str
    unit: str
    values: tuple      # the default of each element (None: computed at run time)
    min: float | None
    max: float | None
    description: str
    variability: str   # parameters: "fixed" (set before the run) or "tunable"; others: "continuous", ...
    count: int = 1
    depends_on: tuple = ()  # dependent parameters: the parameters they are computed from (none: fixed at build)


@dataclasses.dataclass(frozen=True)
class Description:
    name: str
    modelica_class: str
    description: str
    fmu: pathlib.Path
    fmi_version: str
    interfaces: tuple
    experiment: dict           # start, stop, tolerance, interval (the FMU's default experiment)
    parameters: tuple          # settable: the model's own first, then its components'
    dependent: tuple           # the model's parameters computed from others or fixed when the FMU was built
    inputs: tuple
    outputs: tuple
    states: tuple
    system: str | None         # for an example model: its system, references and verification cases
    references: tuple
    cases: tuple

    def text(self) -> str:
        """The description as ``nonholonomic describe`` prints it."""
        e = self.experiment
        lines = [f"{self.name}: {self.description}",
                 f"  class {self.modelica_class}; FMU {self.fmu} (FMI {self.fmi_version}, "
                 f"{' and '.join(self.interfaces)})",
                 f"  experiment: {_number(e['start'])} to {_number(e['stop'])} s, output every "
                 f"{_number(e['interval'])} s, relative tolerance {_number(e['tolerance'])}"]
        if self.system:
            lines.append(f"  system {self.system}: reference "
                         f"{', '.join('nonholonomic.references.' + r for r in self.references)}; "
                         f"cases {', '.join(self.cases) or 'none'} (nonholonomic verify {self.system})")
        own = [p for p in self.parameters if "." not in p.name]
        visual = lambda p: p.name.rpartition(".")[2].partition("[")[0] in VISUAL_PARAMETERS  # noqa: E731
        sections = (
            ("Parameters (nonholonomic simulate --set NAME=VALUE; fixed: before the run, tunable: also during it)",
             own),
            ("Parameters of the components (also settable)",
             [p for p in self.parameters if "." in p.name and not visual(p)]),
            ("Parameters fixed when the FMU was built (array sizes, constants; rebuild to change them)",
             [p for p in self.dependent if not p.depends_on]),
            ("Dependent parameters (computed from the parameters in brackets, not settable)",
             [p for p in self.dependent if p.depends_on]),
            ("Inputs (nonholonomic simulate --input NAME=VALUE or a table)", self.inputs),
            ("Outputs (the columns of a result)", self.outputs),
            ("States", self.states))
        for title, variables in sections:
            if variables:
                lines += ["", f"{title}: {sum(v.count for v in variables)}"] + _table(variables, title)
        shaped = list(dict.fromkeys(p.name.rpartition(".")[0] for p in self.parameters if visual(p)))
        if shaped:
            lines += ["", f"Visual shapes (nonholonomic animate; no effect on the dynamics): {len(shaped)}",
                      f"  {', '.join(shaped)}: each with {', '.join(sorted(VISUAL_PARAMETERS))} "
                      "(Nonholonomic.Visualizers; settable)"]
        return "\n".join(lines)


def describe(model: str | pathlib.Path) -> Description:
    """The interface of an example model's FMU (by name: ``describe("TippeTop")``) or of any FMU (its path)."""
    path = fmu_path(model)
    md = model_description(path)
    variables = md.modelVariables
    states = [d.variable.derivative for d in md.derivatives if d.variable.derivative is not None]
    example = example_of(model)
    system, references, cases = None, (), ()
    if example is not None:
        from .cases import SYSTEMS, all_cases, system_of
        system = system_of(example.name)
        references = SYSTEMS[system].references
        cases = tuple(name for name, case in all_cases().items() if case.model == example.name)
    experiment = md.defaultExperiment
    pick = lambda causality: [v for v in variables if v.causality == causality]  # noqa: E731
    parameters = pick("parameter")
    dependent = [v for v in pick("calculatedParameter") if "." not in v.name]
    return Description(
        name=example.name if example else path.stem, modelica_class=md.modelName,
        description=example.description if example else (md.description or ""), fmu=path,
        fmi_version=md.fmiVersion,
        interfaces=tuple(n for n, i in (("model exchange", md.modelExchange), ("co-simulation", md.coSimulation))
                         if i is not None),
        experiment={"start": _value(experiment, "startTime", 0.0), "stop": _value(experiment, "stopTime", 1.0),
                    "tolerance": _value(experiment, "tolerance", 1e-6),
                    "interval": _value(experiment, "stepSize", None)},
        parameters=tuple(_grouped([p for p in parameters if "." not in p.name])
                         + _grouped([p for p in parameters if "." in p.name])),
        dependent=tuple(_grouped(dependent, _initial_values(path, md, dependent), _dependencies(path))),
        inputs=tuple(_grouped(pick("input"))), outputs=tuple(_grouped(pick("output"))),
        states=tuple(_grouped(states)), system=system, references=tuple(references), cases=cases)


def _value(experiment, key: str, default):
    value = getattr(experiment, key, None) if experiment is not None else None
    return float(value) if value not in (None, "") else default


def _unit(v) -> str:
    declared = getattr(v.declaredType, "unit", None) if v.declaredType is not None else None
    return v.unit or declared or ""


def _float(x):
    return None if x in (None, "") else float(x)


def _initial_values(path: pathlib.Path, md, variables) -> dict:
    """The values of ``variables`` after the FMU's initialisation with its defaults (FMI 3 model exchange), or {}
    for an FMU that this package does not instantiate (then the dependent parameters show no value)."""
    from .fmu import initialised_instance
    if not variables or md.fmiVersion != "3.0" or md.modelExchange is None:
        return {}
    with initialised_instance(path, None, "describe") as (instance, _, refs):
        values = instance.getFloat64([refs[v.name] for v in variables if v.type == "Float64"])
    return dict(zip((v.name for v in variables if v.type == "Float64"), values))


def _dependencies(path: pathlib.Path) -> dict:
    """Each dependent parameter's list of the parameters it is computed from, as the rumoca backend records it
    (an OpenModelica FMU has no such record: {})."""
    import ast
    from .fmu import extra_info
    recorded = extra_info(path).get("dependent_parameters", {})
    return ast.literal_eval(recorded) if isinstance(recorded, str) else recorded


def _grouped(variables, values: dict | None = None, dependencies: dict | None = None) -> list[Variable]:
    """The variables, each array (same name up to its indices) as one row, in the order of first appearance;
    a variable's default is its start value, or its value in ``values``; a dependent parameter's sources are
    those of all its elements, from ``dependencies`` (or marked unknown: "?")."""
    groups: dict[str, list] = {}
    for v in variables:
        groups.setdefault(_INDEX.sub("[:]", v.name), []).append(v)
    rows = []
    for name, members in groups.items():
        first = members[0]
        starts = tuple(values[m.name] if m.name in (values or {}) else _float(m.start) for m in members)
        rows.append(Variable(name, _unit(first), starts, _float(first.min), _float(first.max),
                             first.description or "", first.variability or "", len(members),
                             _sources(members, dependencies)))
    return rows


def _sources(members, dependencies: dict | None) -> tuple:
    if dependencies is None:
        return ()
    if any(m.name not in dependencies for m in members):
        return ("?",)
    return tuple(sorted({d for m in members for d in dependencies[m.name]}))


def _number(x) -> str:
    if x is None:
        return "-"
    return f"{x:.6g}"


def _default(v: Variable) -> str:
    """One value, the range of an array's values, or "" where they are computed during the run."""
    known = [x for x in v.values if x is not None]
    if not known:
        return ""
    low, high = min(known), max(known)
    return _number(low) if low == high else f"{_number(low)} .. {_number(high)}"


def _range(v: Variable) -> str:
    if v.min is None and v.max is None:
        return ""
    return f"[{_number(v.min) if v.min is not None else '-inf'}, {_number(v.max) if v.max is not None else 'inf'}]"


def _table(variables, title: str) -> list[str]:
    """Aligned rows: name (with its element count), default, unit, range, fixed/tunable, description."""
    parameters = title.startswith(("Parameters", "Dependent"))
    rows = []
    for v in variables:
        name = v.name + (f" ({v.count})" if v.count > 1 else "")
        text = v.description + (f" [{', '.join(v.depends_on)}]" if v.depends_on else "")
        cells = [name, _default(v), v.unit, _range(v)] + ([v.variability] if parameters else []) + [text]
        rows.append(cells)
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]) - 1)]
    return ["  " + "  ".join(c.ljust(w) for c, w in zip(r[:-1], widths)) + "  " + r[-1] for r in rows]

