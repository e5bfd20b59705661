"""Every command and code block of the README and the documentation (``docs/**/*.md``) is exercised, so that
none can rot.

Every fenced block carries a language: ``bash`` and ``python`` are code, ``modelica`` a file a tutorial writes
(its ``title="NAME"``), ``text`` an output listing or a file's layout, not run. A page's blocks are taken in order
in a temporary folder of their own that holds, as the repository's root does, ``.venv`` and ``modelica`` (links; the
example FMUs are built first where not up to date, as for the other tests),
so that a page runs as written there (``.venv/bin/nonholonomic ...``, files written by one block and read by the
next):

- run for real: ``python`` blocks (``.venv/bin/python``), and the short commands: ``nonholonomic list``,
  ``describe``, ``diagram``, ``animate`` (of a run an earlier command wrote), ``simulate`` of at most 20 s of model time (``--stop-time`` or the model's experiment),
  ``verify`` of one case (not a system), ``build`` into an ``--out`` folder (a model of a tutorial: seconds; the
  project's ``fmus/`` is never written), and the shell's ``cp``, ``echo``, ``mkdir``; each must exit 0;
- parsed and checked, not run (minutes to an hour each, beyond the suite's budget): ``./build.sh JOB``, the other
  ``nonholonomic`` commands (``build`` of the project's FMUs, ``verify`` of systems or of everything, ``bench``,
  ``sweep``, ``study``, ``chapter2``, ``compare-impacts``, ``track``, long ``simulate`` runs), ``pytest`` and
  ``dask``: a ``nonholonomic`` command is parsed by the CLI's own parser (``nonholonomic.cli.parser()``) and its
  names checked against the library: models, cases and systems exist, every ``--set``/``--vary`` name is a
  settable parameter of the model (``nonholonomic.describe``), every ``--input`` an input, every ``--output`` an
  output, a metric function ``package.module:function`` imports; ``./build.sh``'s job is one of its jobs;
  ``pytest``'s test files exist; ``dask``'s options are in that ``dask`` command's ``--help``.

A command no rule covers fails the test. The ``nonholonomic`` commands quoted in the prose (inline code) are parsed
and their names checked as the long ones are (synopses with ``MODEL``, ``a|b`` or ``[...]`` aside)."""

from __future__ import annotations

import functools
import os
import pathlib
import re
import shlex
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LANGUAGES = {"bash", "python", "modelica", "text"}
VENV_BIN = pathlib.Path(sys.executable).parent
SHORT_SIMULATION = 20.0  # s of model time: a simulate command up to this long runs in the suite
SHELL = {"cp", "echo", "mkdir"}
FENCE = re.compile(r"^```(.*)$")


def blocks(page: pathlib.Path) -> list[tuple[str, dict, str, int]]:
    """(language, attributes, code, line) of each fenced block of ``page``."""
    found, lines, i = [], page.read_text(encoding="utf-8").splitlines(), 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m:
            info, start = m.group(1).strip(), i
            j = i + 1
            while not lines[j].startswith("```"):
                j += 1
            language = info.split()[0] if info else ""
            attributes = dict(re.findall(r'(\w+)="([^"]*)"', info))
            found.append((language, attributes, "\n".join(lines[i + 1:j]) + "\n", start + 1))
            i = j
        i += 1
    return found


def commands(code: str) -> list[str]:
    """The commands of a bash block: continuation lines joined, comments and blank lines dropped."""
    joined = re.sub(r"\\\n\s*", " ", code)
    out = []
    for line in joined.splitlines():
        words = shlex.split(line, comments=True)
        if words:
            out.append(line)
    return out


@functools.cache
def models() -> dict:
    from nonholonomic.models import list_models
    return {m.name: m for m in list_models()}


@functools.cache
def description(model: str):
    from nonholonomic.describe import describe
    return describe(model)


@functools.cache
def cases() -> dict:
    from nonholonomic.cases import all_cases
    return all_cases()


def base(name: str) -> str:
    return re.sub(r"\[.*\]$", "", name)


def check_model(model: str, cwd: pathlib.Path) -> str:
    """The model's name for describe(): an example, or an FMU a previous command of the page wrote."""
    if model.endswith(".fmu"):
        path = cwd / model
        assert path.is_file(), f"{model}: no such FMU (written by no earlier command of the page)"
        return str(path)
    assert model in models(), f"unknown model {model}"
    return model


def check_names(args, cwd: pathlib.Path) -> None:
    """The names a parsed nonholonomic command uses exist in the library."""
    from nonholonomic.cases import SYSTEMS
    if args.command in ("simulate", "describe", "study"):
        model = check_model(args.model, cwd)
        if args.command == "describe":
            return
        d = description(model)
        settable = {base(v.name) for v in d.parameters}
        for item in (getattr(args, "set", None) or []) + (getattr(args, "vary", None) or []):
            name = base(item.partition("=")[0])
            assert name in settable, f"{name} is not a settable parameter of {args.model}"
        for item in getattr(args, "input", None) or []:
            if "=" in item:
                assert base(item.partition("=")[0]) in {base(v.name) for v in d.inputs}, item
        for item in getattr(args, "output", None) or []:
            assert base(item) in {base(v.name) for v in d.outputs}, item
        for metric in getattr(args, "metric", None) or []:
            if re.fullmatch(r"[\w.]+:\w+", metric):
                module, _, function = metric.partition(":")
                import importlib
                assert callable(getattr(importlib.import_module(module), function)), metric
    elif args.command == "diagram":
        assert args.model in models() or args.model.startswith("Nonholonomic."), args.model
    elif args.command == "animate":
        check_model(args.model, cwd)
        assert (cwd / args.result).is_file(), f"{args.result}: no such run (written by no earlier command)"
    elif args.command in ("build", "bench"):
        from nonholonomic.models import list_models
        library = getattr(args, "library", None)
        known = {m.name for m in list_models(cwd / library)} if library else set(models())
        for model in args.models:
            assert model in known, f"unknown model {model}"
    elif args.command == "verify":
        for name in args.cases:
            assert name in cases() or name in SYSTEMS, f"unknown case or system {name}"


def runs_in_the_suite(args, cwd: pathlib.Path) -> bool:
    if args.command in ("list", "describe", "diagram", "animate"):
        return True
    if args.command == "simulate":
        stop = args.stop_time
        if stop is None:
            stop = description(check_model(args.model, cwd)).experiment["stop"]
        return stop <= SHORT_SIMULATION
    if args.command == "verify":
        return len(args.cases) == 1 and args.cases[0] in cases()
    if args.command == "build":
        return args.out is not None and bool(args.models)
    return False


def run(argv, cwd, timeout=600) -> None:
    env = dict(os.environ, MPLBACKEND="Agg")
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
    assert done.returncode == 0, f"{argv}: exit {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"


def exercise(command: str, cwd: pathlib.Path) -> str:
    """Run or check one command of a bash block; 'ran' or 'checked'."""
    from nonholonomic.cli import parser
    words = shlex.split(command, comments=True)
    program = words[0]
    if program in (".venv/bin/nonholonomic", "nonholonomic"):
        try:
            args = parser().parse_args(words[1:])
        except SystemExit as exit:
            raise AssertionError(f"{command}: the CLI's parser refuses it (exit {exit.code})")
        check_names(args, cwd)
        if runs_in_the_suite(args, cwd):
            run([str(VENV_BIN / "nonholonomic"), *words[1:]], cwd)
            return "ran"
        return "checked"
    if program == "./build.sh":
        jobs = re.findall(r"(?m)^  ([a-z]+)\)$", (ROOT / "build.sh").read_text())
        assert len(words) == 1 or (len(words) == 2 and words[1] in jobs), (command, jobs)
        return "checked"
    if program == ".venv/bin/python" and words[1:3] == ["-m", "pytest"]:
        files = [w for w in words[3:] if w.startswith("tests/")]
        assert files and all((ROOT / f.split("::")[0]).is_file() for f in files), command
        return "checked"
    if program == ".venv/bin/dask":
        sub = words[1]
        help_text = subprocess.run([str(VENV_BIN / "dask"), sub, "--help"], capture_output=True, text=True,
                                   timeout=120).stdout
        for option in (w for w in words[2:] if w.startswith("--")):
            assert option in help_text, f"dask {sub} has no option {option}"
        return "checked"
    if program in SHELL:
        run(["bash", "-c", command], cwd)
        return "ran"
    raise AssertionError(f"no rule covers the command {command!r}")


def test_every_block_has_a_known_language():
    unlabelled = [f"{page.relative_to(ROOT)}:{line} ({language or 'no language'})"
                  for page in PAGES for language, _, _, line in blocks(page) if language not in LANGUAGES]
    assert not unlabelled, unlabelled


def test_every_bash_command_is_covered_by_a_rule():
    """Without running anything: each command of every bash block is one the rules know."""
    known = (".venv/bin/nonholonomic", "nonholonomic", "./build.sh", ".venv/bin/python", ".venv/bin/dask", *SHELL)
    for page in PAGES:
        for language, _, code, line in blocks(page):
            if language == "bash":
                for command in commands(code):
                    assert shlex.split(command, comments=True)[0] in known, (page.name, line, command)


@pytest.mark.parametrize("page", [p for p in PAGES if any(b[0] in ("bash", "python") for b in blocks(p))],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_page_runs_as_written(page, tmp_path, rumoca_fmus):
    (tmp_path / ".venv").symlink_to(sys.prefix)  # the environment running the tests, .venv under ./build.sh test
    (tmp_path / "modelica").symlink_to(ROOT / "modelica")
    done = {"ran": 0, "checked": 0}
    for language, attributes, code, line in blocks(page):
        if "title" in attributes:  # a file the page has the reader write
            (tmp_path / attributes["title"]).write_text(code)
            if language != "python":
                continue
            run([sys.executable, attributes["title"]], tmp_path)
            done["ran"] += 1
        elif language == "python":
            (tmp_path / f"block_{line}.py").write_text(code)
            run([sys.executable, f"block_{line}.py"], tmp_path)
            done["ran"] += 1
        elif language == "bash":
            for command in commands(code):
                try:
                    done[exercise(command, tmp_path)] += 1
                except AssertionError as e:
                    raise AssertionError(f"{page.relative_to(ROOT)}:{line}: {e}") from None
    assert done["ran"] + done["checked"] > 0


def inline_commands(page: pathlib.Path) -> list[str]:
    """The ``nonholonomic ...`` commands in a page's prose (inline code), without synopses (``MODEL``, ``a|b``,
    ``[...]``, ``...``) and bare command names (``nonholonomic simulate``)."""
    prose = re.sub(r"(?ms)^```.*?^```", "", page.read_text(encoding="utf-8"))
    found = []
    for span in re.findall(r"`((?:\.venv/bin/)?nonholonomic [^`]+)`", prose):
        synopsis = re.search(r"\||\.\.\.|\b[A-Z]{3,}\b|\[(?!\d+\])", span)
        if not synopsis and len(shlex.split(span)) > 2:
            found.append(span)
    return found


def test_commands_in_the_prose_parse(tmp_path, rumoca_fmus):
    """The commands quoted in the text are parsed by the CLI's parser and their names checked, as the blocks'
    long commands are (none is run: the blocks' commands run)."""
    from nonholonomic.cli import parser
    checked = 0
    for page in PAGES:
        for command in inline_commands(page):
            try:
                args = parser().parse_args(shlex.split(command)[1:])
            except SystemExit as exit:
                raise AssertionError(f"{page.relative_to(ROOT)}: `{command}`: the CLI's parser refuses it ({exit.code})")
            if args.command != "simulate" or not args.model.endswith(".fmu"):
                check_names(args, tmp_path)
            checked += 1
    assert checked > 20
