"""Studies of any example model: runs over a grid or a Latin-hypercube sample of its parameters, on Dask, with
scalar metrics per run, the table of runs and a plot.

Values of a varied parameter (``VALUES``): a list ``0.1,0.2``, a linear range ``a:b:n`` (n values, both ends
included) or a logarithmic one ``log:a:b:n``. A grid runs every combination; ``sample="lhs:N"`` (or
``lhs:N:SEED``, seed 0 by default) instead draws N points of a Latin hypercube within the ranges' bounds (``a:b``
or ``log:a:b``, a count is ignored): each parameter's range cut into N strata (equal in log for ``log:``), each
stratum hit by exactly one point, the same points for the same seed.

Metrics (``metrics``, each a string; default ``final NAME`` of every output):

- ``final NAME``, ``max NAME``, ``min NAME``: of the output NAME over the run;
- ``first time CONDITION``: the first output time at which CONDITION holds (NaN if it never does; resolution:
  the output interval). CONDITION is a comparison of expressions of output names, numbers, ``+ - * / **``,
  ``abs(...)`` and ``pi`` (``theta > 0.95*pi``; ``and``/``or`` join comparisons), evaluated by a restricted
  evaluator of its syntax tree, never by ``eval``;
- ``growth NAME``: the rate a of |NAME| ~ c exp(a t), the least-squares slope of log|NAME| against time over the
  rows where NAME is not zero (positive: growth, negative: decay; NaN with fewer than two distinct times);
- ``package.module:function``: a function of the run's DataFrame (``time`` and the outputs) returning a number
  (its column: the metric's text) or a dict of numbers (a column per key). Its attribute ``unit``, if it has one
  (a string, or a dict column -> unit), labels the plot.

Each run is a :mod:`.dask_runs` run: its signals in ``<run>.parquet``, its record (parameters, metrics, status,
error) in ``<run>.json`` under its key (everything of :func:`.dask_runs.run_key`, and the metrics with the source's
sha256 of each metric function), recomputed only when the key changes. The table of runs is ``study.csv`` and
``study.parquet``, the plot ``study.png``: one varied parameter, a curve per metric; two, a heat map with contours
per metric; more, a grid of scatter plots (a row per metric, a column per parameter). A parameter given one value
is a setting of every run, not an axis of the plot (its value is in the title).
"""

from __future__ import annotations

import ast
import dataclasses
import difflib
import functools
import hashlib
import importlib
import inspect
import itertools
import json
import math
import operator
import pathlib
import re
from collections.abc import Mapping

import numpy as np
import pandas as pd

from . import dask_runs
from .errors import NonholonomicError
from .paths import write_table

# version of the records and of what run_one computes: raise it when either changes
RECORD_FORMAT = 1
METRIC_FORMS = "final NAME, max NAME, min NAME, first time CONDITION, growth NAME, package.module:function"
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"


# --- the parameters' values -------------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Axis:
    """A varied parameter: its grid ``values`` (None for bounds only: ``a:b``), the bounds of a range, and whether
    it was given on a log scale."""
    name: str
    values: tuple[float, ...] | None
    bounds: tuple[float, float] | None
    log: bool = False


def _float(name: str, text: str, values: str) -> float:
    try:
        number = float(text)
    except ValueError:
        number = math.nan
    if not math.isfinite(number):
        raise NonholonomicError(f"--vary {name}={values}: {text.strip()!r} is not a finite number")
    return number


def parse_values(name: str, values) -> Axis:
    """A parameter's ``VALUES``: ``0.1,0.2``, ``a:b:n``, ``log:a:b:n``, bounds ``a:b``/``log:a:b`` (sampling
    only), or, from Python, a number or a list of numbers."""
    if not isinstance(values, str):
        items = list(values) if isinstance(values, (list, tuple, np.ndarray)) else [values]
        return parse_values(name, ",".join(str(v) for v in items))
    text = values.strip()
    log = text.startswith("log:")
    parts = text[4:].split(":") if log else text.split(":")
    if len(parts) == 1 and not log:  # a list
        items = [_float(name, v, values) for v in text.split(",")]
        return Axis(name, tuple(items), None)
    if len(parts) not in (2, 3):
        raise NonholonomicError(f"--vary {name}={values}: expected a list 0.1,0.2, a range a:b:n or log:a:b:n")
    a, b = (_float(name, v, values) for v in parts[:2])
    if a == b:
        raise NonholonomicError(f"--vary {name}={values}: the range's ends are equal")
    if log and not (a > 0 and b > 0):
        raise NonholonomicError(f"--vary {name}={values}: a logarithmic range needs positive ends")
    if len(parts) == 2:
        return Axis(name, None, (a, b), log)
    if not re.fullmatch(r"\s*\d+\s*", parts[2]) or int(parts[2]) < 2:
        raise NonholonomicError(f"--vary {name}={values}: the number of values n must be a whole number of at "
                                f"least 2, got {parts[2].strip()!r}")
    n = int(parts[2])
    grid = np.geomspace(a, b, n) if log else np.linspace(a, b, n)
    return Axis(name, tuple(float(v) for v in grid), (a, b), log)


def parse_sample(sample) -> tuple[int, int] | None:
    """``lhs:N`` or ``lhs:N:SEED`` as (N, seed); None for a grid."""
    if sample is None:
        return None
    m = re.fullmatch(r"lhs:(\d+)(?::(\d+))?", str(sample).strip())
    if not m or int(m.group(1)) < 1:
        raise NonholonomicError(f"--sample {sample}: expected lhs:N or lhs:N:SEED (N points, N >= 1)")
    return int(m.group(1)), int(m.group(2) or 0)


def latin_hypercube(axes: list[Axis], n: int, seed: int = 0) -> list[dict[str, float]]:
    """N points within the axes' bounds, each axis' N strata (equal in log for a log axis) hit once each; the same
    points for the same seed."""
    rng = np.random.default_rng(seed)
    columns = {}
    for axis in axes:
        s = (rng.permutation(n) + rng.random(n)) / n  # one point in each stratum [k/N, (k+1)/N)
        a, b = axis.bounds
        columns[axis.name] = (np.exp(math.log(a) + (math.log(b) - math.log(a)) * s) if axis.log else a + (b - a) * s)
    return [{name: float(v[i]) for name, v in columns.items()} for i in range(n)]


def grid(axes: list[Axis]) -> list[dict[str, float]]:
    """Every combination of the axes' values (the last axis fastest)."""
    return [dict(zip((a.name for a in axes), point)) for point in itertools.product(*(a.values for a in axes))]


# --- metrics ---------------------------------------------------------------------------------------------------

_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.Pow: operator.pow}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos}
_COMPARE = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
            ast.Eq: operator.eq, ast.NotEq: operator.ne}
_ALLOWED = "output names, numbers, + - * / **, comparisons, and, or, abs(...), pi"


def _variable(node) -> str | None:
    """The output name a Name / Attribute / Subscript chain spells (``theta``, ``r_0[1]``, ``wheel[1].hub.Q[1]``)."""
    inner = node
    while isinstance(inner, (ast.Attribute, ast.Subscript)):
        if isinstance(inner, ast.Subscript) and not (isinstance(inner.slice, ast.Constant)
                                                     and type(inner.slice.value) is int):
            return None
        inner = inner.value
    return ast.unparse(node) if isinstance(inner, ast.Name) else None


def _evaluate(node, columns: Mapping[str, np.ndarray]):
    """The value of a checked condition's node over the columns (arrays; numbers for constants)."""
    if isinstance(node, ast.Expression):
        return _evaluate(node.body, columns)
    if isinstance(node, ast.Constant):
        return float(node.value)
    if isinstance(node, ast.BinOp):
        return _BINARY[type(node.op)](_evaluate(node.left, columns), _evaluate(node.right, columns))
    if isinstance(node, ast.UnaryOp):
        return _UNARY[type(node.op)](_evaluate(node.operand, columns))
    if isinstance(node, ast.Call):
        return np.abs(_evaluate(node.args[0], columns))
    if isinstance(node, ast.Compare):
        left, result = _evaluate(node.left, columns), True
        for op, right_node in zip(node.ops, node.comparators):
            right = _evaluate(right_node, columns)
            result = np.logical_and(result, _COMPARE[type(op)](left, right))
            left = right
        return result
    if isinstance(node, ast.BoolOp):
        join = np.logical_and if isinstance(node.op, ast.And) else np.logical_or
        return functools.reduce(join, (_evaluate(v, columns) for v in node.values))
    name = _variable(node)
    return columns[name] if name in columns else math.pi  # checked: an output, or pi


def parse_condition(text: str, outputs, model: str = "the model") -> ast.Expression:
    """The syntax tree of a condition, checked to use only :data:`_ALLOWED` and outputs of the model."""
    what = f"condition {text!r}"
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as e:
        raise NonholonomicError(f"malformed {what}: {e.msg}") from None

    def check(node, top=False) -> None:
        name = _variable(node)
        if name is not None:
            if name not in outputs and name != "pi":
                hint = difflib.get_close_matches(name, list(outputs), n=3)
                raise NonholonomicError(f"unknown output '{name}' of {model} in {what}"
                                        + (f" (did you mean: {', '.join(hint)}?)" if hint else ""))
            return
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            return
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            parts = [node.left, node.right]
        elif isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            parts = [node.operand]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "abs"
              and len(node.args) == 1 and not node.keywords):
            parts = node.args
        elif isinstance(node, ast.Compare) and all(type(op) in _COMPARE for op in node.ops):
            parts = [node.left, *node.comparators]
        elif isinstance(node, ast.BoolOp) and top:  # comparisons joined by and/or
            for value in node.values:
                if not isinstance(value, (ast.Compare, ast.BoolOp)):
                    raise NonholonomicError(f"malformed {what}: {ast.unparse(value)!r} is not a comparison")
                check(value, top=True)
            return
        else:
            raise NonholonomicError(f"malformed {what}: {ast.unparse(node)!r} is not allowed (allowed: {_ALLOWED})")
        for part in parts:
            check(part)

    body = tree.body
    if not isinstance(body, (ast.Compare, ast.BoolOp)):
        raise NonholonomicError(f"malformed {what}: not a comparison (such as theta > 0.95*pi)")
    check(body, top=True)
    return tree


def growth_rate(time, values) -> float:
    """The rate a of |x| ~ c exp(a t): the least-squares slope of log|x| against t over the rows where x != 0."""
    t, x = np.asarray(time, dtype=float), np.abs(np.asarray(values, dtype=float))
    t, y = t[x > 0], np.log(x[x > 0])
    if len(np.unique(t)) < 2:
        return math.nan
    dt = t - t.mean()
    return float(np.dot(dt, y - y.mean()) / np.dot(dt, dt))


def _function(spec: str):
    module, _, name = spec.partition(":")
    try:
        function = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as e:
        raise NonholonomicError(f"metric {spec}: cannot import it ({type(e).__name__}: {e})") from None
    if not callable(function):
        raise NonholonomicError(f"metric {spec}: {name} of {module} is not a function")
    return function


def _is_function(spec: str) -> bool:
    return re.fullmatch(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*", spec) is not None


def check_metric(spec, outputs, model: str = "the model") -> str:
    """A metric's text, checked: its form, its outputs, its condition, its function importable."""
    if not isinstance(spec, str):
        raise NonholonomicError(f"a metric must be a string such as 'final x', got {spec!r}")
    spec = " ".join(spec.split())
    kind, _, argument = spec.partition(" ")
    if kind in ("final", "max", "min", "growth") and argument:
        if argument not in outputs:
            hint = difflib.get_close_matches(argument, list(outputs), n=3)
            raise NonholonomicError(f"unknown output '{argument}' of {model} in metric '{spec}'"
                                    + (f" (did you mean: {', '.join(hint)}?)" if hint else ""))
    elif spec.startswith("first time "):
        parse_condition(spec[len("first time "):], outputs, model)
    elif _is_function(spec):
        _function(spec)
    else:
        raise NonholonomicError(f"unknown metric '{spec}' (metrics: {METRIC_FORMS})")
    return spec


def metric_values(spec: str, frame: pd.DataFrame) -> dict[str, float]:
    """A checked metric of a run's signals: column name(s) -> value."""
    kind, _, argument = spec.partition(" ")
    if kind in ("final", "max", "min"):
        column = frame[argument].to_numpy(dtype=float)
        return {spec: float(column[-1] if kind == "final" else column.max() if kind == "max" else column.min())}
    if kind == "growth":
        return {spec: growth_rate(frame["time"], frame[argument])}
    if spec.startswith("first time "):
        tree = parse_condition(spec[len("first time "):], frame.columns)
        holds = np.broadcast_to(_evaluate(tree, {c: frame[c].to_numpy(dtype=float) for c in frame.columns}),
                                (len(frame),))
        return {spec: float(frame["time"].iloc[int(np.argmax(holds))]) if holds.any() else math.nan}
    try:
        result = _function(spec)(frame)
        values = result if isinstance(result, Mapping) else {spec: result}
        return {str(k): _metric_number(v) for k, v in values.items()}
    except Exception as e:  # the user's function: its failure is the run's, in one line
        raise NonholonomicError(f"metric {spec}: {type(e).__name__}: {' '.join(str(e).split())}") from None


def _metric_number(value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"returned {type(value).__name__}, not a number or a dict of numbers")
    return float(value)


def _source_sha256(spec: str) -> str | None:
    try:
        return hashlib.sha256(inspect.getsource(_function(spec)).encode()).hexdigest()
    except (OSError, TypeError):  # no source (a built-in): its name stands for it
        return None


# --- runs ---------------------------------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class StudyRun:
    model: str
    parameters: dict
    stop_time: float
    output_interval: float
    tolerance: float
    metrics: tuple[str, ...]

    @property
    def name(self) -> str:
        """The run's files' name, from its parameters only: a grid grown or resampled keeps the runs it shares."""
        return "run_" + hashlib.sha256(json.dumps(self.parameters, sort_keys=True).encode()).hexdigest()[:12]


def _row(run: StudyRun) -> dict:
    return {"run": run.name, **run.parameters}


def _failure(run: StudyRun, error: str) -> dict:
    return {**_row(run), "status": "failed", "error": error}


def run_one(run: StudyRun, fmu: bytes, time_limit: float | None = None) -> tuple[dict, pd.DataFrame | None]:
    """Simulate one run (on a Dask worker) and compute its metrics; a failure of the run or of a metric is its
    record's status and one-line error, not an exception."""
    try:
        frame = dask_runs.simulate_run(fmu, run, time_limit=time_limit)
        values = {}
        for spec in run.metrics:
            values.update(metric_values(spec, frame))
    except NonholonomicError as e:
        return _failure(run, " ".join(str(e).split())), None
    return {**_row(run), **values, "status": "ok", "error": ""}, frame


def study(model, vary: Mapping, metrics=None, stop_time: float | None = None, output_interval: float | None = None,
          tolerance: float | None = None, sample: str | None = None, scheduler: str | None = None, workers: int = 2,
          out_dir=None, time_limit: float | None = None, progress=True, plot: bool = True) -> pd.DataFrame:
    """Run ``model`` (an example's name or an ``.fmu`` path) over ``vary`` (parameter name -> VALUES, see the
    module) on Dask and return the table of runs (``run``, the parameters, the metrics, ``status``, ``error``,
    ``key``), also written to ``out_dir`` (default ``results/study_<model>``) with the runs' files and the plot.
    Every input is checked before any run. Stop time, output interval and tolerance default to the model's
    experiment annotation. ``progress``: True shows a line and a progress bar on stderr, a function receives the
    lines instead (the bar then shows too), False shows nothing. ``plot=False``: no ``study.png`` (a caller that
    draws its own). Ctrl-C: :class:`.Interrupted` with the table of the finished runs, which stay on disk."""
    from .fmu import fmu_path, model_description
    from .simulate import check_parameters, model_argument, run_settings
    fmu = fmu_path(model_argument(model))
    md = model_description(fmu)
    name = fmu.stem
    stop_time, output_interval, tolerance = run_settings(md, stop_time, output_interval, tolerance)
    if not isinstance(vary, Mapping) or not vary:
        raise NonholonomicError("vary must name at least one parameter: a dict of name -> VALUES")
    axes = [parse_values(str(k), v) for k, v in vary.items()]
    drawn = parse_sample(sample)
    for axis in axes:
        if drawn and axis.bounds is None:
            raise NonholonomicError(f"--vary {axis.name}: with --sample lhs:N give a range a:b or log:a:b, not a list")
        if not drawn and axis.values is None:
            raise NonholonomicError(f"--vary {axis.name}: a range needs its number of values, a:b:n")
        for value in (axis.bounds if drawn else axis.values):
            check_parameters(fmu, {axis.name: value})
    outputs = {v.name for v in md.modelVariables if v.causality in ("input", "output")}
    if metrics is None:
        metrics = [f"final {v.name}" for v in md.modelVariables if v.causality == "output"]
    metrics = tuple(check_metric(m, outputs, name) for m in ([metrics] if isinstance(metrics, str) else metrics))
    out_dir = pathlib.Path(out_dir or default_out_dir(model))
    time_limit = dask_runs.check_options(out_dir, scheduler, workers, time_limit)

    points = latin_hypercube(axes, *drawn) if drawn else grid(axes)
    todo = list({r.name: r for r in (StudyRun(str(model), p, stop_time, output_interval, tolerance, metrics)
                                     for p in points)}.values())  # a point listed twice is one run
    fmus = dask_runs.fmu_bytes(todo)
    sources = {m: _source_sha256(m) for m in metrics if _is_function(m)}
    sums = dask_runs.fmu_sums(fmus)
    key = {r.name: {**dask_runs.run_key(RECORD_FORMAT, r, sums[r.model]), "metrics": list(metrics),
                    **({"metric_sources": sources} if sources else {})} for r in todo}
    say = progress if callable(progress) else (_stderr if progress else None)
    left = dask_runs.pending(todo, out_dir, key)
    if say:
        say(f"study of {name}: {len(todo)} runs, {len(todo) - len(left)} on disk for this key, {len(left)} to "
            f"compute, in {out_dir}")
    stopped = dask_runs.run_all(left, out_dir, key, fmus, run_one, _failure, scheduler, workers, bool(progress),
                                time_limit, label=f"study of {name}")
    table = collect(out_dir, todo, key, [a.name for a in axes])
    if stopped:
        raise dask_runs.interrupted(table, todo, out_dir)
    try:
        if plot:
            plot_study(table, axes, out_dir / "study.png", title=f"{name}, {stop_time:g} s",
                       units=plot_units(md, [a.name for a in axes], metrics))
    except KeyboardInterrupt:  # every run is on disk already: say so
        raise dask_runs.interrupted(table, todo, out_dir) from None
    return table


def plot_units(md, parameters: list[str], metrics) -> dict[str, str]:
    """The units of a study's axes for its plot: of each varied parameter and each metric column, where known
    (the FMU's declared units; ``first time``: s; ``growth``: 1/s; a metric function's ``unit`` attribute, a
    string for its one column or a dict column -> unit for a dict of them)."""
    declared = {v.name: v.unit or getattr(v.declaredType, "unit", None) for v in md.modelVariables}
    units = {name: declared.get(name) for name in parameters}
    for spec in metrics:
        kind, _, argument = spec.partition(" ")
        if kind in ("final", "max", "min"):
            units[spec] = declared.get(argument)
        elif kind == "growth":
            units[spec] = "1/s"
        elif spec.startswith("first time "):
            units[spec] = "s"
        elif _is_function(spec):
            unit = getattr(_function(spec), "unit", None)
            units.update(unit if isinstance(unit, Mapping) else {spec: unit})
    return {k: v for k, v in units.items() if isinstance(v, str) and v}


def default_out_dir(model) -> pathlib.Path:
    """``results/study_<model>``."""
    from .fmu import fmu_path
    from .simulate import model_argument
    return pathlib.Path("results") / f"study_{fmu_path(model_argument(model)).stem}"


def _stderr(line: str) -> None:
    import sys
    print(line, file=sys.stderr, flush=True)


def collect(out_dir: pathlib.Path, todo: list[StudyRun], key: dict[str, dict], parameters: list[str]) -> pd.DataFrame:
    """The table of the runs on disk for their keys, in the order of ``todo``: run, parameters, metrics, status,
    error, key (its sha256); written to ``study.csv`` and ``study.parquet``."""
    table = pd.DataFrame(dask_runs.records(out_dir, todo, key))
    if not len(table):
        return table
    table = table.rename(columns={"key_sha256": "key"}).drop(columns="parquet_sha256", errors="ignore")
    table = table[["run", *parameters, *metric_columns(table, parameters), "status", "error", "key"]]
    table["error"] = table["error"].fillna("")
    for suffix in ("csv", "parquet"):
        write_table(table, pathlib.Path(out_dir) / f"study.{suffix}")
    return table


def metric_columns(table: pd.DataFrame, parameters: list[str]) -> list[str]:
    """The table's metric columns: all but the run, its parameters, status, error and key."""
    return [c for c in table.columns if c not in ("run", *parameters, "status", "error", "key")]


def plot_study(table: pd.DataFrame, axes: list[Axis], path: pathlib.Path, title: str = "",
               units: Mapping[str, str] | None = None) -> pathlib.Path | None:
    """The metrics against the varied parameters (see the module), as a PNG; None without a finished run. Failed
    runs: dotted lines (one parameter); failed runs and NaN values (a condition never met): crosses (two). Axes
    and metrics named in ``units`` (name -> FMI unit) are labelled ``name [unit]``. A parameter given a single
    value is no axis: its value is in the title."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from .verification.case import unit_text
    units = dict(units or {})

    def text(name: str) -> str:
        return f"{name} [{unit_text(units[name])}]" if units.get(name) else name

    names = [a.name for a in axes]
    metrics = metric_columns(table, names) if len(table) else []
    if not metrics:
        return None
    # a parameter given one value is a setting of every run, not an axis: said in the title
    settings = [a for a in axes if a.values is not None and len(set(a.values)) == 1]
    if settings and len(settings) < len(axes):
        axes = [a for a in axes if a not in settings]
        names = [a.name for a in axes]
        title = ", ".join([title] * bool(title) + [f"{a.name} = {a.values[0]:g}" for a in settings])
    rows, cols = (len(metrics), len(axes)) if len(axes) > 2 else (1, len(metrics))
    fig, panels = plt.subplots(rows, cols, figsize=(3.6 * cols + 0.6, 3.0 * rows + 0.4), squeeze=False)
    for i, metric in enumerate(metrics):
        z = pd.to_numeric(table[metric], errors="coerce").to_numpy(dtype=float)
        if len(axes) == 1:
            ax, x = panels[0, i], table[names[0]].to_numpy(dtype=float)
            order = np.argsort(x)
            ax.plot(x[order], z[order], "o-")
            for value in x[(table["status"] != "ok").to_numpy()]:
                ax.axvline(value, color="grey", linestyle=":")
            ax.set_xlabel(text(names[0])), ax.set_ylabel(text(metric)), ax.grid(alpha=0.3)
            ax.set_xscale("log" if axes[0].log else "linear")
        elif len(axes) == 2:
            _heat_map(fig, panels[0, i], table[names[0]].to_numpy(dtype=float),
                      table[names[1]].to_numpy(dtype=float), z, axes, text)
            panels[0, i].set_title(text(metric), fontsize=9)
        else:
            for j, axis in enumerate(axes):
                ax = panels[i, j]
                ax.scatter(table[axis.name].to_numpy(dtype=float), z, s=12)
                ax.set_xscale("log" if axis.log else "linear"), ax.grid(alpha=0.3)
                ax.set_xlabel(text(axis.name) if i == rows - 1 else ""), ax.set_ylabel(text(metric) if j == 0 else "")
    failed = int((table["status"] != "ok").sum())
    fig.suptitle(f"{title}: {len(table)} runs" + (f", {failed} failed" if failed else ""), fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _heat_map(fig, ax, x, y, z, axes: list[Axis], text=str) -> None:
    """z over (x, y): on a full grid cells with contours; scattered points (a sample) coloured, with contours of
    their triangulation. Failed runs and NaN metrics are left blank."""
    xs, ys = np.unique(x), np.unique(y)
    finite = np.isfinite(z)
    if len(xs) * len(ys) == len(z):  # a grid
        Z = np.full((len(ys), len(xs)), np.nan)
        Z[np.searchsorted(ys, y), np.searchsorted(xs, x)] = z
        image = ax.pcolormesh(xs, ys, np.ma.masked_invalid(Z), shading="nearest")
        if min(Z.shape) >= 2 and finite.sum() >= 4 and np.ptp(z[finite]) > 0:  # contours around the blanks
            ax.clabel(ax.contour(xs, ys, np.ma.masked_invalid(Z), colors="k", linewidths=0.8), fontsize=7)
    else:
        image = ax.scatter(x[finite], y[finite], c=z[finite], s=25)
        if finite.sum() >= 3 and np.ptp(z[finite]) > 0:
            try:
                ax.tricontour(x[finite], y[finite], z[finite], colors="k", linewidths=0.8)
            except (ValueError, RuntimeError):  # collinear points: no triangulation
                pass
    if (~finite).any():
        ax.plot(x[~finite], y[~finite], "x", color="grey", label="no value (never met, or failed)")
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.18), frameon=False)
    fig.colorbar(image, ax=ax)
    ax.set_xlabel(text(axes[0].name)), ax.set_ylabel(text(axes[1].name))
    ax.set_xscale("log" if axes[0].log else "linear"), ax.set_yscale("log" if axes[1].log else "linear")
