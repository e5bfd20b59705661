"""The verification report (HTML, CSV, terminal table) and the plots: verdicts people can read, no NaN, a
checks table per case, a section per system with its paper, units on every plot axis, integral drifts drawn
as the checks measure them. Results are built by hand: no FMU is run."""

from __future__ import annotations

import html.parser
import inspect
import math
import pathlib
import re

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from nonholonomic import plots
from nonholonomic.cases import all_cases
from nonholonomic.cases.spherical_robot import _integral, _integral_checks
from nonholonomic.cases.wheelset import WHEELSET_SIGNALS
from nonholonomic.references.meridians import meridian_from_code
from nonholonomic.verification import Case, CaseResult, Check, compare, format_table, integral_drift, relative_drift
from nonholonomic.verification.case import fmu_units
from nonholonomic.verification.report import NO_SIGNALS, write_report


# ------------------------------------------------------------------------------------------- results by hand
def _case(name, system, paper, units=None):
    case = Case(name, "SomeModel", f"description of {name}")
    case.system, case.paper = system, paper
    if units:
        case.units = units
    return case


def _errors(rows):
    return pd.DataFrame([{"signal": s, "max_abs": a, "max_rel": r, "tolerance": 1e-5, "passed": r <= 1e-5}
                         for s, a, r in rows], columns=["signal", "max_abs", "max_rel", "tolerance", "passed"])


@pytest.fixture
def report(tmp_path):
    """Three cases in two systems: one passing, one failing a signal and a check, one without signals whose
    trend check could not be computed (NaN)."""
    (tmp_path / "good").mkdir()
    png = plots.planar_paths({"a": ([0, 1], [0, 1], {})}, "path", tmp_path / "good" / "path.png")
    good = CaseResult(_case("good_case", "ball_on_surface", "Paper A (2024)", {"q1": "1", "v": "m/s"}),
                      _errors([("q1", 2e-9, 1.5e-8), ("v", 3e-10, 2.5e-9)]),
                      [Check("FMU energy drift (relative)", 7.2e-11, 1e-7), Check("FMU max |gap|", 0.0, 1e-8)], {},
                      [tmp_path / "good" / "fmu.csv", png])
    (tmp_path / "good" / "fmu.csv").write_text("time\n0\n")
    bad = CaseResult(_case("bad_case", "ball_on_surface", "Paper A (2024)"),
                     _errors([("x", 1e-3, 2e-4), ("y", 1e-9, 1e-9)]),
                     [Check("FMU max |slip|", 3e-6, 1e-6), Check("FMU energy drift (relative)", 1e-10, 1e-7)], {})
    no_signals = CaseResult(_case("sweep_case", "omni_vehicle", "Thesis B (2018)"), _errors([]),
                            [Check("spin: largest ratio of mean slip", float("nan"), 0.9),
                             Check("cases failed", 0.0, 0.0)], {})
    results = [good, bad, no_signals]
    good.seconds, bad.seconds = 12.3, 0.52  # no_signals has none: it did not run under verify
    path = write_report(results, tmp_path)
    return results, path.read_text(encoding="utf-8"), tmp_path


class Page(html.parser.HTMLParser):
    """The page's element tree, enough to check nesting and read tables and sections."""
    VOID = {"meta", "img", "br", "hr", "link", "input", "source", "wbr", "col", "area", "base", "embed", "track"}

    def __init__(self):
        super().__init__()
        self.stack, self.ids, self.links, self.errors, self.doctype = [], [], [], [], None
        self.root = {"tag": "root", "attrs": {}, "children": [], "text": ""}
        self.open = [self.root]

    def handle_decl(self, decl):
        self.doctype = decl

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        node = {"tag": tag, "attrs": attrs, "children": [], "text": ""}
        self.open[-1]["children"].append(node)
        if "id" in attrs:
            self.ids.append(attrs["id"])
        for key in ("href", "src"):
            if key in attrs:
                self.links.append(attrs[key])
        if tag not in self.VOID:
            self.open.append(node)

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        if self.open[-1]["tag"] != tag:
            self.errors.append(f"</{tag}> closes <{self.open[-1]['tag']}>")
            return
        self.open.pop()

    def handle_data(self, data):
        for node in self.open:
            node["text"] += data


def _parse(text) -> Page:
    page = Page()
    page.feed(text)
    page.close()
    return page


def _find(node, tag=None, cls=None):
    """Every descendant with the tag (and the class)."""
    found = []
    for child in node["children"]:
        if (tag is None or child["tag"] == tag) and (cls is None or cls in child["attrs"].get("class", "").split()):
            found.append(child)
        found += _find(child, tag, cls)
    return found


# ----------------------------------------------------------------------------------------------- report
def test_report_is_well_formed_html5_with_relative_links(report):
    _, text, out = report
    page = _parse(text)
    assert page.doctype.lower() == "doctype html"
    assert page.errors == [] and [n["tag"] for n in page.open] == ["root"]  # every element closed, in order
    assert len(page.ids) == len(set(page.ids))
    html_node = _find(page.root, "html")[0]
    assert html_node["attrs"]["lang"] == "en" and _find(html_node, "title") and _find(html_node, "meta")
    for link in page.links:
        if link.startswith("#"):
            assert link[1:] in page.ids, link
        else:  # self-contained: relative paths to files in the output folder
            assert "://" not in link and not link.startswith("/") and (out / link).is_file(), link


def test_report_has_no_nan_and_no_true_false(report):
    _, text, out = report
    assert not re.search(r"\bnan\b", text, re.IGNORECASE)
    assert "True" not in text and "False" not in text
    assert "not computed" in text  # the NaN check value, in words
    csv = (out / "verification.csv").read_text()
    assert not re.search(r"\bnan\b", csv, re.IGNORECASE)
    table = pd.read_csv(out / "verification.csv")
    assert list(table["passed"]) == [True, False, False]
    assert list(table["checks passed"]) == [2, 1, 1] and list(table["checks"]) == [2, 2, 2]
    assert table["worst signal"].tolist() == ["q1", "x", NO_SIGNALS]


def test_summary_is_coloured_by_verdict(report):
    results, text, _ = report
    page = _parse(text)
    summary = _find(page.root, "table")[0]
    rows = _find(summary, "tbody")[0]["children"]
    assert len(rows) == len(results)
    for row, r in zip(rows, results):
        verdict = "PASS" if r.passed else "FAIL"
        assert row["attrs"]["class"] == verdict.lower()
        cells = row["children"]
        assert cells[0]["text"] == verdict and "verdict" in cells[0]["attrs"]["class"]
        assert cells[1]["text"] == r.case.name
    assert [r.passed for r in results] == [True, False, False]
    # the worst signal against its tolerance; the case without signals says so
    assert [c["text"] for c in rows[0]["children"][4:]] == ["q1", "1.5 × 10−8", "10−5", "2 / 2", "12 s"]
    assert [c["text"] for c in rows[1]["children"][-1:]] == ["0.5 s"]
    assert [c["text"] for c in rows[2]["children"][4:]] == [NO_SIGNALS, "1 / 2", ""]
    css = _find(page.root, "style")[0]["text"]
    green, red = re.search(r"\.pass\{background:([^}]+)\}", css), re.search(r"\.fail\{background:([^}]+)\}", css)
    assert green and red and green.group(1) != red.group(1)


def test_one_checks_table_per_case_with_measured_bound_verdict(report):
    results, text, _ = report
    page = _parse(text)
    tables = _find(page.root, "table", "checks")
    assert len(tables) == len(results)
    for table, r in zip(tables, results):
        header = [th["text"] for th in _find(table, "th")]
        assert header == ["check", "measured", "bound", "verdict"]
        rows = _find(table, "tbody")[0]["children"]
        assert [row["children"][0]["text"] for row in rows] == [c.name for c in r.checks]
        assert [row["children"][3]["text"] for row in rows] == ["PASS" if c.passed else "FAIL" for c in r.checks]
    good = _find(tables[0], "tbody")[0]["children"][0]["children"]
    assert good[1]["text"] == "7.2 × 10−11" and good[2]["text"] == "≤ 10−7"


def test_a_section_per_system_with_its_paper_and_cases(report):
    _, text, _ = report
    page = _parse(text)
    sections = _find(page.root, "section")
    assert [_find(s, "h2")[0]["attrs"]["id"] for s in sections] == ["system-ball_on_surface", "system-omni_vehicle",
                                                                    "provenance"]
    sections = sections[:2]  # the systems
    assert [_find(s, "p", "paper")[0]["text"] for s in sections] == ["Paper A (2024)", "Thesis B (2018)"]
    assert [h["attrs"]["id"] for h in _find(sections[0], "h3")] == ["case-good_case", "case-bad_case"]
    assert [h["attrs"]["id"] for h in _find(sections[1], "h3")] == ["case-sweep_case"]
    assert _find(sections[1], "p", "note")[0]["text"] == NO_SIGNALS + "."
    # the table of contents links every system and case
    nav = _find(page.root, "nav")[0]
    targets = [a["attrs"]["href"] for a in _find(nav, "a")]
    assert targets == ["#summary", "#system-ball_on_surface", "#case-good_case", "#case-bad_case",
                       "#system-omni_vehicle", "#case-sweep_case", "#provenance"]


def test_numbers_have_one_format():
    from nonholonomic.verification.report import _num
    assert [_num(x) for x in (0.001074, 2.51e-7, 0.699, 86.26, 1500, 12345.0, 1e-5, 0, -0.05)] == [
        "1.07 × 10<sup>−3</sup>", "2.51 × 10<sup>−7</sup>", "0.699", "86.3", "1500", "1.23 × 10<sup>4</sup>",
        "10<sup>−5</sup>", "0", "−5 × 10<sup>−2</sup>"]


def test_report_says_where_it_came_from(rumoca_fmus, tmp_path):
    """The commit it was made from, the tools' versions, and the SHA-256 of each FMU a case ran."""
    import hashlib
    import json
    import subprocess
    result = CaseResult(Case("disk", "RollingDisk", "a case of the rolling disk"), _errors([]), [], {})
    text = write_report([result], tmp_path).read_text(encoding="utf-8")
    info = json.loads((tmp_path / "provenance.json").read_text())
    head = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                          cwd=pathlib.Path(__file__).parent)
    if head.returncode == 0:  # a clone; a source tree without .git says so instead
        assert info["commit"].split()[0] == head.stdout.strip()
    assert info["fmus"]["RollingDisk"]["sha256"] == hashlib.sha256(rumoca_fmus["RollingDisk"].read_bytes()).hexdigest()
    assert {"rumoca", "casadi", "fmpy", "C compiler"} <= set(info["versions"])
    assert info["fmus"]["RollingDisk"]["sha256"] in text and info["date"] in text


def test_signal_table_has_units_and_figures_are_linked_at_full_size(report):
    _, text, _ = report
    page = _parse(text)
    good = _find(page.root, "article")[0]
    rows = _find(_find(good, "table")[0], "tbody")[0]["children"]
    assert [(r["children"][0]["text"], r["children"][1]["text"]) for r in rows] == [("q1", "-"), ("v", "m/s")]
    figure = _find(good, "figure")[0]
    link, img = _find(figure, "a")[0], _find(figure, "img")[0]
    assert link["attrs"]["href"] == img["attrs"]["src"] == "good/path.png"
    # the figure's own pixel size, so the browser shows it at full size up to the column width
    assert (int(img["attrs"]["width"]), int(img["attrs"]["height"])) == (715, 660)  # 6.5 x 6 in at 110 dpi


def test_terminal_table_is_one_line_per_case_plus_what_failed(report):
    results, _, _ = report
    lines = format_table(results).splitlines()
    assert lines[0].startswith("PASS  good_case ") and lines[0].endswith("checks 2/2")
    assert "worst signal q1 1.5e-08 (tolerance 1e-05)" in lines[0]
    assert lines[1].startswith("FAIL  bad_case ") and lines[1].endswith("checks 1/2")
    assert lines[2] == "      FAIL signal x: rel. error 2.00e-04 > 1e-05"
    assert lines[3] == "      FAIL FMU max |slip|: 3.00e-06 (bound 1e-06)"
    assert lines[4].startswith("FAIL  sweep_case ") and NO_SIGNALS in lines[4]
    assert lines[5] == "      FAIL spin: largest ratio of mean slip: not computed (bound 9e-01)" and len(lines) == 6
    assert not re.search(r"\bnan\b", "\n".join(lines), re.IGNORECASE)
    assert len({m.start() for m in (re.search(r"checks \d+/\d+$", line) for line in lines) if m}) == 1  # aligned


# ------------------------------------------------------------------------------------------------ plots
@pytest.fixture
def figures(monkeypatch):
    """Every figure a plot function saves, captured before it is closed."""
    saved = []
    original = plots.save_figure

    def capture(fig, path):
        saved.append([(ax, ax.get_xlabel(), ax.get_ylabel(), getattr(ax, "get_zlabel", lambda: None)())
                      for ax in fig.axes])
        return original(fig, path)

    monkeypatch.setattr(plots, "save_figure", capture)
    return saved


UNIT = re.compile(r"\S.*\[[^\[\]]+\]$")  # "name [unit]"


def _assert_units_on_every_axis(axes):
    for ax, xlabel, ylabel, zlabel in axes:
        assert UNIT.match(ylabel), ylabel
        if zlabel is not None:
            assert UNIT.match(zlabel), zlabel
        if not xlabel:  # an inner panel: it shares its x axis with a labelled panel below it
            assert any(UNIT.match(other_x) and ax.get_shared_x_axes().joined(ax, other)
                       for other, other_x, _, _ in axes), ax.get_title()
        else:
            assert UNIT.match(xlabel), xlabel


def _call_every_plot(out: pathlib.Path) -> set:
    t = np.linspace(0, 1, 11)
    frame = pd.DataFrame({"time": t, "q1": np.sin(t), "v": np.cos(t), "Lambda": np.full_like(t, 0.2)})
    ref = frame.assign(q1=np.sin(t) + 1e-9, Lambda=0.2 + 1e-12 * t)
    units = {"q1": "1", "v": "m/s", "Lambda": "m/s"}
    plots.overlay_with_error(t, frame["q1"], ref["q1"], ("tau", "1"), ("q1", "1"), "overlay", out / "a.png")
    plots.phase_plane_with_error(frame["q1"], frame["v"], ref["q1"], ref["v"], t, (("q1", "1"), ("dq1", "1"),
                                 ("tau", "1")), "phase", out / "b.png")
    plots.signals_with_errors(t, frame, ref, ("q1", "v", "Lambda"), units, "signals", out / "c.png")
    plots.signals_with_errors(t, frame, ref, ("v",), units, "one signal", out / "c1.png")
    plots.drift(t, 1 + 1e-10 * t, {"gap": (1e-12 * t, "m"), "slip": (1e-11 * t, "m/s")}, "drift", out / "d.png")
    plots.path_on_surface_3d(meridian_from_code(1, 0.2), (0.1, 0.5), (np.cos(t), np.sin(t), t),
                             (np.cos(t), np.sin(t), t), "surface", out / "e.png")
    plots.planar_paths({"FMU": (t, t, plots.FMU_STYLE)}, "paths", out / "f.png")
    plots.integrals(t, {"energy": 1 + 1e-10 * t, "K (vector)": np.stack([t, t, t], -1) + 1}, "integrals",
                    out / "g.png")
    plots.trend([1e3, 1e4], [1e-3, 1e-4], ("stiffness", "N/m"), ("difference", "m"), "trend", out / "h.png",
                fit_slope=-1)
    plots.unit_sphere_paths({"FMU": np.stack([np.cos(t), np.sin(t), 0 * t], -1)}, "sphere", out / "i.png",
                            names=("gamma1", "gamma2", "gamma3"))
    forces = pd.DataFrame({"time": t, "N": 1 - t})
    plots.lift_off(forces.iloc[:-1], forces, forces, 1.0, "lift-off", out / "j.png")
    return {"overlay_with_error", "phase_plane_with_error", "signals_with_errors", "drift", "path_on_surface_3d",
            "planar_paths", "integrals", "trend", "unit_sphere_paths", "lift_off"}


def test_every_plot_function_labels_every_axis_with_a_unit(figures, tmp_path):
    called = _call_every_plot(tmp_path)
    public = {name for name, f in inspect.getmembers(plots, inspect.isfunction)
              if f.__module__ == plots.__name__ and not name.startswith("_")
              and name not in ("label", "save_figure", "on_log_axis", "tippe_top_animation", "snakeboard_animation",
                               "skateboard_animation", "euler_disk_animation")}
    assert called == public  # a new plot function must be added here
    assert len(figures) == 11
    for axes in figures:
        _assert_units_on_every_axis(axes)
    signal_axes = figures[2]
    assert [ylabel for _, _, ylabel, _ in signal_axes] == ["q1 [-]", "Δq1 [-]", "v [m/s]", "Δv [m/s]",
                                                          "Lambda [m/s]", "ΔLambda [m/s]"]
    # a signal constant to 1e-12 (a steady motion) is drawn at its own scale, not zoomed into rounding noise
    low, high = signal_axes[4][0].get_ylim()
    assert (low, high) == pytest.approx((0.2 - 0.02, 0.2 + 0.02), rel=1e-9)  # +-10 % of the size, a few steps
    assert plt.get_fignums() == []  # every figure closed


def test_figures_with_a_title_or_a_colorbar_are_laid_out(tmp_path):
    """A figure's own title over titled axes lies above them; a colorbar added before the layout is kept."""
    for title, colorbar in ((True, False), (True, True), (False, True)):
        fig, axes = plt.subplots(2, 2)
        for ax in axes.ravel():
            ax.set_title("column")
        if colorbar:
            fig.colorbar(axes[0, 0].pcolormesh(np.eye(3)), ax=axes[0, 0])
        if title:
            fig.suptitle("figure")
        path = plots.save_figure(fig, tmp_path / "f.png")
        assert path.stat().st_size > 0
    fig, axes = plt.subplots(11, 2, figsize=(11, 23.5), sharex=True)  # as tall as signals_with_errors draws
    ax = axes[0, 1]
    ax.set_title("column")
    ax.plot([0, 1], [0, 1e-8])  # an offset label "1e-8" above the axes
    fig.suptitle("figure")
    plots.save_figure(fig, tmp_path / "g.png")  # laid out, written and closed; its artists keep their places
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    canvas = FigureCanvasAgg(fig)  # the closed figure drawn again, with the layout it was saved with
    canvas.draw()
    renderer = canvas.get_renderer()
    title_box = [t for t in fig.texts if t.get_text() == "figure"][0].get_window_extent(renderer)
    assert title_box.y0 >= ax.title.get_window_extent(renderer).y1  # above the axes' title, not over it
    plt.close(fig)


def test_a_plot_without_a_unit_is_refused(tmp_path):
    t = np.linspace(0, 1, 5)
    frame = pd.DataFrame({"time": t, "a": t})
    with pytest.raises(KeyError):
        plots.signals_with_errors(t, frame, frame, ("a",), {}, "no unit", tmp_path / "x.png")
    with pytest.raises(ValueError, match="no unit"):
        plots.trend([1, 2], [1, 2], ("c", ""), ("d", "m"), "no unit", tmp_path / "y.png")
    with pytest.raises(ValueError, match="one unit"):  # a distance between a position and a speed
        plots.phase_plane_with_error(t, t, t, t, t, (("x", "m"), ("v", "m/s"), ("t", "s")), "mixed",
                                     tmp_path / "z.png")
    plt.close("all")


def test_unit_text():
    assert plots.label("M1", "kg.m2/s") == "M1 [kg·m²/s]"
    assert plots.label("a", "m/s2") == "a [m/s²]" and plots.label("gamma1", "1") == "gamma1 [-]"
    assert plots.label("d", "N.s/m") == "d [N·s/m]" and plots.label("v1", "1/s") == "v1 [1/s]"


# ---------------------------------------------------------------------------- integral drift: checks = plots
def test_vector_integral_drift_uses_the_norm_as_check_and_plot(figures, tmp_path):
    """K = (3, 4, 1e-9 t): its z component starts at 0, so a drift per component would be ~1 (the old plot);
    the drift of the vector is |K(t) - K(0)| / max |K| = 1e-9 t / 5 (|K| = 5 to 1e-18 relative)."""
    t = np.linspace(0, 1, 101)
    fmu = pd.DataFrame({"time": t, "K_x": np.full_like(t, 3.0), "K_y": np.full_like(t, 4.0), "K_z": 1e-9 * t,
                        "energy": 2.0 + 1e-10 * t})
    expected = 1e-9 * t / 5
    # a few arithmetic steps on each value: round-off bound
    np.testing.assert_allclose(integral_drift(_integral(fmu, "K")), expected, rtol=1e-12, atol=0)
    checks = {c.name: c.value for c in _integral_checks(fmu, ["K", "energy"])}
    assert checks["FMU vector K fixed in space: max |K(t) - K(0)| / max |K|"] == pytest.approx(2e-10, rel=1e-12)
    # energy 2 + 1e-10 t: drift 1e-10 t / (2 + 1e-10)
    assert checks["FMU integral energy: max |I - I(0)| / max |I|"] == pytest.approx(1e-10 / (2 + 1e-10), rel=1e-12)
    plots.integrals(t, {"K (vector)": _integral(fmu, "K"), "energy": fmu["energy"]}, "integrals", tmp_path / "i.png")
    lines = {line.get_label(): line.get_ydata() for line in figures[0][0][0].get_lines()}
    # the plot draws exactly what the check takes the maximum of; on the log axis a drift at or below round-off
    # (here the exact 0 at t = 0) is a gap, not a point at an invented floor
    drift = integral_drift(_integral(fmu, "K"))
    np.testing.assert_array_equal(lines["K (vector)"], np.where(drift > np.finfo(float).eps, drift, np.nan))
    assert np.isnan(lines["K (vector)"][0]) and np.isnan(lines["energy"][0])
    assert np.nanmax(lines["K (vector)"]) == checks["FMU vector K fixed in space: max |K(t) - K(0)| / max |K|"]
    assert np.nanmax(lines["energy"]) == checks["FMU integral energy: max |I - I(0)| / max |I|"]
    assert relative_drift(fmu["energy"]) == checks["FMU integral energy: max |I - I(0)| / max |I|"]


def test_integral_drift_of_a_scalar_starting_at_zero():
    """(M, gamma) may start at 0: it is scaled by its largest magnitude, not divided by 0."""
    values = np.array([0.0, 0.5, -1.0, 0.25])
    np.testing.assert_array_equal(integral_drift(values), [0.0, 0.5, 1.0, 0.25])
    assert integral_drift(np.zeros(3)).tolist() == [0.0, 0.0, 0.0]
    assert not math.isnan(relative_drift(np.zeros(3)))


def test_compare_feeds_the_report_without_nan():
    t = np.linspace(0, 1, 5)
    a = pd.DataFrame({"s": np.sin(t), "z": np.zeros(5)})
    errors = compare(a.assign(s=a["s"] + 1e-8), a, ["s", "z"], 1e-5)
    assert not errors.isna().any().any()


# ------------------------------------------------------------------------------------ units of every case
def test_every_case_signal_has_a_unit_that_agrees_with_its_fmu(rumoca_fmus):
    """Each compared signal has a unit: stated by the case, or the FMU variable's own (modelDescription.xml);
    where the case states one for a name the FMU also has, they agree."""
    checked = 0
    for case in all_cases().values():
        signals = WHEELSET_SIGNALS if case.name == "wheelset_stiffness" else getattr(case, "signals", ())
        if not signals:
            continue
        units = case.signal_units(signals)
        assert set(units) == set(signals) and all(units.values()), case.name
        declared = fmu_units(case.model)
        assert declared, case.model
        for s in signals:
            if s in declared and s in case.units:
                assert case.units[s] == declared[s], (case.name, s)
        checked += 1
    # all but the cases that compare no signals: the omni sweep and its truncated-roller and mecanum convergence, the three
    # omni impact cases, the friction-law table, the tippe-top's wrench at sampled states and its sensitivity
    # table, the snakeboard's convergence table, the skateboard's truck geometry, eigenvalue fits and stability
    # map, the bearing's seven cases (closed forms, loads with and without clearance, balances, the cage,
    # skidding), the gears' static TE, power balance, stiffness against ISO and dynamic TE sweep, the two lift-off
    # cases (their N is no signal of the case's list) and the three Euler's disk cases
    assert checked == len(all_cases()) - 29


def test_each_system_shows_its_animations_or_why_there_are_none(report):
    results, _, out = report
    (out / "animations").mkdir()
    for name in ("BallOnSurfaceOfRevolution", "MecanumVehicle"):
        (out / "animations" / f"{name}.html").write_text("<!DOCTYPE html><html></html>")
    animations = {"ball_on_surface": [("BallOnSurfaceOfRevolution",
                                       out / "animations" / "BallOnSurfaceOfRevolution.html")],
                  "omni_vehicle": [("OmniVehicleSpin", "no animation: the FMU is missing"),
                                   ("MecanumVehicle", out / "animations" / "MecanumVehicle.html")]}
    page = _parse(write_report(results, out, animations).read_text(encoding="utf-8"))
    ball, omni = _find(page.root, "section")[:2]
    assert [f["attrs"]["src"] for f in _find(ball, "iframe")] == ["animations/BallOnSurfaceOfRevolution.html"]
    assert [f["attrs"]["src"] for f in _find(omni, "iframe")] == ["animations/MecanumVehicle.html"]
    assert "OmniVehicleSpin: no animation: the FMU is missing" in [p["text"] for p in _find(omni, "p", "note")]
