"""OpenModelica accepts the library: ``loadFile`` of the library, ``checkModel`` (front end: flattening, types,
units, balance) and ``translateModel`` (back end: alias elimination, index reduction, matching, tearing, the
structure of the simulation code) of every example, each without an error or a warning.

The steps are those of ``../shared/openmodelica/omc-check`` (its README), run with the ``omc`` it unpacks, or,
where that script is absent, with a user's OpenModelica installation (``$OPENMODELICAHOME/bin/omc`` or ``omc`` on
``PATH``). Where neither can run, the tests are skipped with the reason in one line. One omc process does all the
steps (loading the library once): about 80 s on two shared cores.
"""

from __future__ import annotations

import os
import pathlib
import re
import subprocess

import pytest

from nonholonomic.backends.openmodelica import omc_executable
from nonholonomic.models import LIBRARY, ROOT, list_models

OMC_CHECK = ROOT.parent / "shared" / "openmodelica" / "omc-check"
EXAMPLES = [m.modelica_class for m in list_models()]
# a message of omc: "[file:l:c-l:c:writable] Warning: text" or "Error: text", continued on the lines that follow
_MESSAGE = re.compile(r"^(?:\[[^\]]*\] )?(Error|Warning|Notification): ", re.M)


def _omc() -> tuple[list[str], dict]:
    """The omc command and its environment, or pytest.skip with the reason."""
    if OMC_CHECK.is_file():
        found = subprocess.run([str(OMC_CHECK), "--omc"], capture_output=True, text=True)
        if found.returncode != 0:
            reason = (found.stderr.strip() or found.stdout.strip()).splitlines()
            pytest.skip(f"{OMC_CHECK} cannot run omc: {reason[-1] if reason else f'exit {found.returncode}'}")
        omc = pathlib.Path(found.stdout.strip().splitlines()[-1])
        lib = str(omc.parent.parent / "lib")
        env = dict(os.environ, LD_LIBRARY_PATH=lib + (os.pathsep + os.environ["LD_LIBRARY_PATH"]
                                                       if os.environ.get("LD_LIBRARY_PATH") else ""))
        return [str(omc)], env
    omc = omc_executable()
    if omc is None:
        pytest.skip(f"no OpenModelica: neither {OMC_CHECK} nor omc ($OPENMODELICAHOME/bin or PATH)")
    return [omc], dict(os.environ)


def _script(models: list[str]) -> str:
    """omc-check's steps: load, check every model, translate every model without generating code. Each step
    prints a header line ``=== step``, its result and then omc's messages."""
    lines = ["echo(false);",
             f'ok := loadFile("{(LIBRARY / "package.mo").as_posix()}"); '
             'print("=== loadFile\\n" + String(ok) + "\\n"); print(getErrorString());']
    for m in models:
        lines.append(f'print("=== checkModel {m}\\n"); res := checkModel({m}); print(res + "\\n"); '
                     'print(getErrorString());')
    lines.append('setCommandLineOptions("--simCodeTarget=None"); getErrorString();')
    for m in models:
        lines.append(f'print("=== translateModel {m}\\n"); ok := translateModel({m}, fileNamePrefix="m"); '
                     'print(String(ok) + "\\n"); print(getErrorString());')
    return "\n".join(lines) + "\n"


def _messages(text: str) -> list[str]:
    """The errors and warnings in omc's output of one step, each on one line, paths relative to the library."""
    starts = [m.start() for m in _MESSAGE.finditer(text)] + [len(text)]
    found = []
    for a, b in zip(starts, starts[1:]):
        message = " ".join(text[a:b].split())
        if not _MESSAGE.match(message) or _MESSAGE.match(message).group(1) == "Notification":
            continue
        found.append(message.replace(str(LIBRARY.parent) + os.sep, ""))
    return found


@pytest.fixture(scope="module")
def steps(tmp_path_factory) -> dict[str, tuple[str, list[str]]]:
    """Every step's result line and its errors and warnings, by step (``checkModel <class>`` ...)."""
    command, env = _omc()
    work = tmp_path_factory.mktemp("omc")
    (work / "check.mos").write_text(_script(EXAMPLES))
    # translateModel writes its files into the working folder; omc's own exit status is 0 even when a step fails
    run = subprocess.run(command + ["check.mos"], cwd=work, env=env, capture_output=True, text=True)
    blocks = re.split(r"^=== ", run.stdout + run.stderr, flags=re.M)[1:]
    assert blocks, f"omc printed no step (exit {run.returncode}): {(run.stdout + run.stderr).strip()[:500]}"
    found = {}
    for block in blocks:
        head, _, body = block.partition("\n")
        result, _, rest = body.partition("\n")
        found[head.strip()] = (result.strip(), _messages(rest))
    return found


def test_library_loads_without_messages(steps):
    result, messages = steps["loadFile"]
    assert result == "true" and not messages, "\n".join(messages)


@pytest.mark.parametrize("model", EXAMPLES, ids=lambda m: m.rsplit(".", 1)[-1])
def test_example_checks_and_translates_without_messages(steps, model):
    checked, check_messages = steps[f"checkModel {model}"]
    translated, translate_messages = steps[f"translateModel {model}"]
    messages = [f"checkModel: {m}" for m in check_messages] + [f"translateModel: {m}" for m in translate_messages]
    assert checked.startswith(f"Check of {model} completed successfully"), checked
    assert translated == "true" and not messages, "\n".join(messages)
