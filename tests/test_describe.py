"""``nonholonomic describe``: every example model's interface as its Modelica source declares it.

The expectations are read from the Modelica sources (each top-level parameter's type, default literal and
description string, the units of the library's type aliases), not from the FMU that ``describe`` reads."""

from __future__ import annotations

import math
import re
import subprocess
import sys

import pytest

from nonholonomic import describe
from nonholonomic.fmu import model_description
from nonholonomic.models import LIBRARY, list_models

NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
# parameter [Type][(type modifiers)] name[(modifiers)] = literal "description"  (not final, literal default)
PARAMETER = re.compile(rf'^\s*parameter\s+(Units\.\w+|Real|Integer|Boolean)\s*(\([^)]*\))?\s+(\w+)\s*(\([^)]*\))?'
                       rf'\s*=\s*({NUMBER}|true|false)\s*"([^"]*)"', re.M)
ALIAS = re.compile(r'type\s+(\w+)\s*=\s*Real\s*\([^)]*unit\s*=\s*"([^"]*)"')
EXTENDS = re.compile(r"^\s*extends\s+((?:Vehicles\.)?\w+)\s*(?:\((.*?)\))?\s*;", re.M | re.S)
MODIFIER = re.compile(r"^\s*(final\s+)?(\w+)\s*=\s*(.*?)\s*$", re.S)


def top_level(modifiers: str) -> list[str]:
    """The comma-separated items of a modification, commas inside braces and parentheses kept."""
    items, depth, item = [], 0, ""
    for c in modifiers:
        depth += (c in "({") - (c in ")}")
        if c == "," and depth == 0:
            items, item = items + [item], ""
        else:
            item += c
    return items + [item]


def declared_parameters(source) -> tuple[dict, set]:
    """name -> (unit, default, description) of the parameters with a literal default that a model declares or
    inherits (the modifiers of its ``extends`` applied), and the names its ``extends`` makes final."""
    units = dict(ALIAS.findall((LIBRARY / "Units" / "package.mo").read_text()))
    text_of_source = source.read_text()
    found, final = {}, set()
    for base, modifiers in EXTENDS.findall(text_of_source):
        path = LIBRARY / f"{base.replace('.', '/')}.mo" if "." in base else source.parent / f"{base}.mo"
        if not path.is_file():
            continue  # an icon or another non-model class
        found, final = declared_parameters(path)
        for item in top_level(modifiers):
            match = MODIFIER.match(item)
            if not match:
                continue  # a component's modification, such as axle(tau = tau)
            is_final, name, value = match.groups()
            if is_final:
                final.add(name)
            if is_final or name not in found:
                found.pop(name, None)
            elif re.fullmatch(NUMBER, value) or value in ("true", "false"):
                literal = {"true": 1.0, "false": 0.0}.get(value, None)
                found[name] = (found[name][0], float(value) if literal is None else literal, found[name][2])
            else:
                found.pop(name)  # bound to an expression of other parameters
    for type_, type_mods, name, mods, literal, text in PARAMETER.findall(text_of_source):
        if type_.startswith("Units."):
            unit = units[type_.split(".")[1]]
        else:
            unit = (re.search(r'unit\s*=\s*"([^"]*)"', type_mods + mods) or [None, ""])[1]
        value = {"true": 1.0, "false": 0.0}.get(literal)
        found[name] = (unit, float(literal) if value is None else value,
                       text + (" (1 true, 0 false)" if type_ == "Boolean" else ""))
    return found, final


@pytest.mark.parametrize("model", list_models(), ids=lambda m: m.name)
def test_every_example_is_described_as_declared(rumoca_fmus, model):
    described = describe(model.name)
    parameters = {p.name: p for p in described.parameters}
    # an Integer that sizes arrays is fixed when the FMU is built: listed with its value, computed from nothing
    parameters.update({p.name: p for p in described.dependent if not p.depends_on})
    declared, final = declared_parameters(model.source)
    assert declared, f"no literal parameter found in {model.source}"
    assert not final & {p.name for p in described.parameters}, "a final modifier leaves a parameter settable"
    for name, (unit, default, text) in declared.items():
        p = parameters[name]
        assert (p.unit, p.values, p.description) == (unit, (default,), text), name
    md = model_description(rumoca_fmus[model.name])
    assert sum(s.count for s in described.states) == md.numberOfContinuousStates
    assert sum(o.count for o in described.outputs) == sum(v.causality == "output" for v in md.modelVariables)
    assert described.experiment["stop"] == model.experiment["StopTime"]
    assert described.experiment["tolerance"] == model.experiment["Tolerance"]
    assert described.system is not None and described.references


def test_dependent_parameters_are_computed(rumoca_fmus):
    described = describe("BallBearing")
    dependent = {p.name: p.values for p in described.dependent}
    sources = {p.name: p.depends_on for p in described.dependent}
    assert sources["m_ball"] == ("D_ball", "rho") and sources["Z"] == ()
    # m_ball = rho pi D_ball^3/6 with the defaults: a few arithmetic steps, so a few ulps apart at most
    assert math.isclose(dependent["m_ball"][0], 7850 * math.pi * 8e-3 ** 3 / 6, rel_tol=1e-14)
    assert dependent["Z"] == (8.0,)
    assert "bearing_energy" in described.cases


def test_arrays_share_a_row(rumoca_fmus):
    described = describe("RollingDisk")
    states = {s.name: s for s in described.states}
    assert states["disk.Q[:]"].count == 4 and states["disk.Q[:]"].unit == "1"
    outputs = {o.name: o for o in described.outputs}
    assert outputs["r_0[:]"].count == 3 and outputs["N"].unit == "N"
    assert "disk_lift_off" in described.cases


def test_cli(rumoca_fmus):
    run = lambda *args: subprocess.run([sys.executable, "-m", "nonholonomic", "describe", *args],  # noqa: E731
                                       capture_output=True, text=True)
    ok = run("TippeTop")
    assert ok.returncode == 0, ok.stderr
    assert re.search(r"^  mu\s+\S+\s+1\s", ok.stdout, re.M)  # the friction coefficient, unit 1
    assert "States: 13" in ok.stdout
    bad = run("NoSuchModel")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("error: unknown model 'NoSuchModel'") and bad.stderr.count("\n") == 1


def test_every_option_says_its_default_and_unit():
    """Each option of every command that takes a value says its default; those that take a time say [s]."""
    import argparse

    from nonholonomic.cli import parser
    commands = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
    for command, sub in commands.items():
        for action in sub._actions:
            if not action.option_strings or action.nargs == 0 or action.dest == "help":
                continue  # positionals, flags
            text = action.help or ""
            assert action.required or "default" in text, f"{command} {action.option_strings[0]}: no default"
            if "time" in action.dest and "limit" not in action.dest:
                assert "[s]" in text, f"{command} {action.option_strings[0]}: no unit"
