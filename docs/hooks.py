"""MkDocs hook: the command-line reference (``reference/cli.md``) is written from the CLI's own argparse parser
(``nonholonomic.cli.parser()``) when the site is built, so that it cannot drift from the code."""

from __future__ import annotations

import argparse
import os

MARKER = "<!-- cli-reference -->"


def cli_reference() -> str:
    """Markdown: the usage and help of ``nonholonomic`` and of each of its commands, as ``--help`` prints them."""
    os.environ["COLUMNS"] = "110"  # argparse wraps at the terminal's width: a fixed one, whatever builds the site
    from nonholonomic.cli import parser

    top = parser()
    (commands,) = [a for a in top._actions if isinstance(a, argparse._SubParsersAction)]
    table = ["| command | what it does |", "|---|---|"]
    table += [f"| [`{c.dest}`](#{c.dest}) | {c.help} |" for c in commands._choices_actions]
    sections = ["\n".join(table) + "\n", "## nonholonomic\n", "```text\n" + top.format_help() + "```\n"]
    for name, sub in commands.choices.items():
        sections += [f"## {name}\n", "```text\n" + sub.format_help() + "```\n"]
    return "\n".join(sections)


def on_page_markdown(markdown: str, page, config, files) -> str:
    if MARKER in markdown:
        return markdown.replace(MARKER, cli_reference())
    return markdown
