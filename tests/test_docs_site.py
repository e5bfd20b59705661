"""The documentation site: MkDocs (Material) from ``docs/``, built with warnings as errors (``mkdocs.yml``:
``strict``), so a broken link, a missing page or image and an API reference that does not resolve fail; the
command-line reference is written from the parser at build time (``docs/hooks.py``)."""

from __future__ import annotations

import os
import re
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
MKDOCS = [sys.executable, "-m", "mkdocs"]


def build(config: pathlib.Path, out: pathlib.Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    return subprocess.run([*MKDOCS, "build", "--strict", "--config-file", str(config), "--site-dir", str(out)],
                          capture_output=True, text=True, env=env, timeout=600)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> pathlib.Path:
    out = tmp_path_factory.mktemp("site")
    run = build(ROOT / "mkdocs.yml", out)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "WARNING" not in run.stderr, run.stderr
    return out


def test_every_page_is_built(site):
    import yaml

    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=yaml.BaseLoader)

    def pages(nav):
        for item in nav:
            for value in item.values():
                yield from pages(value) if isinstance(value, list) else [value]

    listed = list(pages(config["nav"]))
    for page in listed:
        html = site / ("index.html" if page == "index.md" else page.removesuffix(".md") + "/index.html")
        assert html.is_file(), page
    on_disk = {str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md")}
    assert on_disk == set(listed), ("pages not in the nav", on_disk ^ set(listed))


def test_cli_reference_is_written_from_the_parser(site):
    from nonholonomic.cli import parser

    html = (site / "reference" / "cli" / "index.html").read_text()
    assert "cli-reference" not in html
    commands = parser()._subparsers._group_actions[0].choices
    for name, sub in commands.items():
        assert f'id="{name}"' in html, name
        for action in sub._actions:
            for option in action.option_strings:
                assert option in html, (name, option)


def test_api_reference_is_written_from_the_docstrings(site):
    import nonholonomic

    html = (site / "reference" / "api" / "index.html").read_text()
    for function in (nonholonomic.simulate, nonholonomic.build, nonholonomic.verify, nonholonomic.describe,
                     nonholonomic.study):
        assert f'id="nonholonomic.{function.__name__}.{function.__name__}"' in html, function.__name__
        first_line = function.__doc__.strip().splitlines()[0].split("``")[0].strip()[:30]
        assert first_line.replace("'", "&#39;") in html or first_line in html, first_line


def test_tables_of_systems_and_cases_are_written_from_the_package(site):
    from nonholonomic.cases import SYSTEMS, all_cases

    cases = (site / "tutorials" / "verification" / "index.html").read_text()
    layout = (site / "reference" / "layout" / "index.html").read_text()
    assert "cases-table" not in cases and "systems-table" not in layout
    for name, case in all_cases().items():
        assert f"<td><code>{name}</code></td>" in cases, name
    for name, system in SYSTEMS.items():
        assert f"<td><code>{name}</code></td>" in layout and ", ".join(system.examples) in layout, name


def test_a_broken_link_fails_the_build(tmp_path):
    """strict is on: a link to a page that does not exist stops the build."""
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs)
    (docs / "getting-started.md").write_text((docs / "getting-started.md").read_text() + "\n[gone](no_such_page.md)\n")
    config = tmp_path / "mkdocs.yml"
    config.write_text((ROOT / "mkdocs.yml").read_text().replace("docs/hooks.py", str(docs / "hooks.py"))
                      .replace("paths: [python]", f"paths: [{ROOT / 'python'}]"))
    run = build(config, tmp_path / "site")
    assert run.returncode != 0
    assert "no_such_page.md" in run.stderr


# ---- the README: a front page


README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_has_the_two_commands_with_their_times():
    block = re.search(r"```bash\n(.*?)```", README, re.S).group(1)
    commands = [line.split("#")[0].strip() for line in block.splitlines() if line.strip()]
    assert commands == ["./build.sh", "./build.sh test"]
    assert re.search(r"\./build\.sh +# \d+ min \d+ s", block) and re.search(r"\./build\.sh test +# \d+ min \d+ s", block)


def test_readme_first_example_within_40_lines_with_its_plot():
    lines = README.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(".venv/bin/nonholonomic simulate"))
    assert first < 40, first
    plot = re.search(r'savefig\("(\w+)\.png"', README).group(1)
    image = re.search(r"!\[[^\]]*\]\((docs/images/[\w/]+\.png)\)", README[README.index("savefig"):]).group(1)
    assert (ROOT / image).is_file() and plot == "ball"


def test_readme_systems_table_has_every_system_with_a_small_thumbnail():
    from nonholonomic.cases import SYSTEMS

    rows = {m.group(2): m for m in re.finditer(r'^\| <img src="([^"]+)"[^|]*\| `(\w+)` \| ([^|]+) \|', README, re.M)}
    assert set(rows) == set(SYSTEMS), set(rows) ^ set(SYSTEMS)
    for name, row in rows.items():
        thumbnail = ROOT / row.group(1)
        assert thumbnail.is_file() and thumbnail.stat().st_size < 200_000, thumbnail
        assert [m.strip() for m in row.group(3).split(",")] == list(SYSTEMS[name].examples), name
    for image in (ROOT / "docs" / "images").rglob("*.png"):
        assert image.stat().st_size < 200_000, image


def test_readme_links_resolve():
    for target in re.findall(r"\]\(([^)#]+)\)", README) + re.findall(r'<img src="([^"]+)"', README):
        if not target.startswith("http"):
            assert (ROOT / target).exists(), target


def test_api_reference_shows_cross_references_as_code(site):
    # the docstrings are Sphinx-style: ":func:`.animate.animate`" must read as the name, not as the role's markup
    html = (site / "reference" / "api" / "index.html").read_text()
    assert "<code>.animate.animate</code>" in html
    assert not re.findall(r":(?:func|class|mod|meth|data|attr|exc|obj):<code>", html)
