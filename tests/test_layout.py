"""The package layout: every example belongs to one system with a case module and reference models, and the
package has no import circles (the verification machinery imports no case)."""

from __future__ import annotations

import ast
import importlib
import pathlib

import nonholonomic
from nonholonomic.cases import SYSTEMS, all_cases, system_cases
from nonholonomic.models import list_models

PACKAGE = pathlib.Path(nonholonomic.__file__).parent


def test_every_example_belongs_to_exactly_one_system():
    for example in list_models():
        owners = [s for s, system in SYSTEMS.items() if example.name in system.examples]
        assert len(owners) == 1, (example.name, owners)
    known = {m.name for m in list_models()}
    for system in SYSTEMS.values():
        assert set(system.examples) <= known


def test_each_system_has_its_case_module_and_references():
    for name, system in SYSTEMS.items():
        cases = system_cases(name)
        assert cases, name
        assert all(case.model in system.examples for case in cases), name
        for reference in system.references:
            importlib.import_module(f"nonholonomic.references.{reference}")
    assert {case.system for case in all_cases().values()} == set(SYSTEMS)


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: pathlib.Path) -> set[str]:
    """Modules of the package that a module imports, at top level or inside functions."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            target = f"{base}.{node.module}" if node.module else base
            found.add(target)
            found.update(f"{target}.{a.name}" for a in node.names)  # "from . import x" imports a module
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("nonholonomic"):
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("nonholonomic"))
    return found


def _graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph = {}
    for name, path in modules.items():
        graph[name] = set()
        for target in _imports(path):
            while target and target not in modules:  # a name imported from a module: the module itself
                target = target.rpartition(".")[0]
            if target and target != name:
                graph[name].add(target)
    return graph


def test_no_import_circles():
    graph = _graph()
    # a package imports its own submodules' names through __init__: that edge is not a circle back to it
    for name, targets in graph.items():
        targets.discard(name)
    state, cycle = {}, []

    def visit(node, stack):
        state[node] = "open"
        for nxt in sorted(graph[node]):
            if nxt.startswith(node + "."):
                continue  # a package's __init__ importing its own submodule
            if state.get(nxt) == "open":
                cycle.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, stack + [nxt])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert not cycle, cycle


def test_verification_machinery_imports_no_case():
    graph = _graph()
    for name, targets in graph.items():
        if name.startswith("nonholonomic.verification"):
            assert not any(t.startswith("nonholonomic.cases") for t in targets), (name, targets)
