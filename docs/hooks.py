"""MkDocs hook: the command-line reference (``reference/cli.md``) is written from the CLI's own argparse parser
(``nonholonomic.cli.parser()``) when the site is built, so that it cannot drift from the code; the API pages show the docstrings' Sphinx cross-references as code."""

from __future__ import annotations

import argparse
import os
import re

MARKER = "<!-- cli-reference -->"
SYSTEMS_MARKER = "<!-- systems-table -->"
CASES_MARKER = "<!-- cases-table -->"


def cli_reference() -> str:
    """Markdown: the usage and help of ``nonholonomic`` and of each of its commands, as ``--help`` prints them."""
    os.environ["COLUMNS"] = "100"  # argparse wraps at the terminal's width: a fixed one, whatever builds the site
    from nonholonomic.cli import parser

    top = parser()
    (commands,) = [a for a in top._actions if isinstance(a, argparse._SubParsersAction)]
    table = ["| command | what it does |", "|---|---|"]
    table += [f"| [`{c.dest}`](#{c.dest}) | {c.help} |" for c in commands._choices_actions]
    sections = ["\n".join(table) + "\n", "## nonholonomic\n", "```text\n" + top.format_help() + "```\n"]
    for name, sub in commands.choices.items():
        sections += [f"## {name}\n", "```text\n" + sub.format_help() + "```\n"]
    return "\n".join(sections)


def systems_table() -> str:
    """Markdown: each system of ``nonholonomic.cases.SYSTEMS`` with its examples, reference modules and cases."""
    from nonholonomic.cases import SYSTEMS, system_cases

    rows = ["| system | Modelica examples (`Nonholonomic.Examples.`) | reference models (`nonholonomic.references.`) "
            "| cases (`nonholonomic.cases.<system>`) |", "|---|---|---|---|"]
    for name, system in SYSTEMS.items():
        cases = ", ".join(f"`{c.name}`" for c in system_cases(name))
        rows.append(f"| `{name}` | {', '.join(system.examples)} | "
                    f"{', '.join(f'`{r}`' for r in system.references)} | {cases} |")
    return "\n".join(rows) + "\n"


def cases_table() -> str:
    """Markdown: every verification case (``nonholonomic.cases.all_cases()``) with its system, model and what it
    checks (the case's description)."""
    from nonholonomic.cases import all_cases

    rows = ["| case | system | model | what it checks |", "|---|---|---|---|"]
    for name, case in all_cases().items():
        description = " ".join(str(case.description).split()).replace("|", "\\|")
        rows.append(f"| `{name}` | `{case.system}` | {case.model} | {description} |")
    return "\n".join(rows) + "\n"


def on_page_markdown(markdown: str, page, config, files) -> str:
    if MARKER in markdown:
        markdown = markdown.replace(MARKER, cli_reference())
    if CASES_MARKER in markdown:
        markdown = markdown.replace(CASES_MARKER, cases_table())
    if SYSTEMS_MARKER in markdown:
        markdown = markdown.replace(SYSTEMS_MARKER, systems_table())
    return markdown


SPHINX_ROLE = re.compile(r":(?:func|class|mod|meth|data|attr|exc|obj):(<code>[^<]*</code>)")


def on_page_content(html: str, page, config, files) -> str:
    """The docstrings' Sphinx cross-references (``:func:`name```), which mkdocstrings leaves as text, shown as
    the code they name."""
    return SPHINX_ROLE.sub(r"\1", html)
