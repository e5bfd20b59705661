"""The verification report: a compact table for the terminal, a summary CSV and a self-contained HTML page
(``verification.html``: summary coloured by verdict, a section per system with its paper and the diagrams of its
example models, per case the signal errors, the checks as a table and the figures; every link relative to the
output folder)."""

from __future__ import annotations

import html
import json
import math
import pathlib
import struct

import pandas as pd

from ..paths import write_bytes, write_table
from .case import CaseResult, unit_text
from .provenance import provenance

NO_SIGNALS = "no signal comparison; see checks"


def _verdict(passed: bool) -> str:
    return "PASS" if passed else "FAIL"


def _worst(r: CaseResult):
    """The signal with the largest relative error, or None for a case without a signal comparison."""
    return r.errors.loc[r.errors["max_rel"].idxmax()] if len(r.errors) else None


def _system(r: CaseResult) -> str:
    return getattr(r.case, "system", "") or "other"  # set by nonholonomic.cases.all_cases


def summary_row(r: CaseResult) -> dict:
    """One case in the summary CSV (no error columns filled for a case without a signal comparison)."""
    worst = _worst(r)
    return {"case": r.case.name, "system": _system(r), "model": r.case.model, "passed": r.passed,
            "worst signal": worst["signal"] if worst is not None else NO_SIGNALS,
            "worst rel. error": worst["max_rel"] if worst is not None else None,
            "tolerance": worst["tolerance"] if worst is not None else None,
            "checks passed": sum(c.passed for c in r.checks), "checks": len(r.checks), "error": r.error or "",
            "run time [s]": r.seconds}


def format_table(results: list[CaseResult]) -> str:
    """One line per case (verdict, worst signal error against its tolerance, checks passed); below a failed
    case, what failed."""
    signals = {}
    for r in results:
        worst = _worst(r)
        signals[r.case.name] = (f"worst signal {worst['signal']} {worst['max_rel']:.1e} (tolerance "
                                f"{worst['tolerance']:.0e})" if worst is not None else NO_SIGNALS)
    name_width = max((len(r.case.name) for r in results), default=0)
    signal_width = max((len(s) for s in signals.values()), default=0)
    lines = []
    for r in results:
        checks = f"checks {sum(c.passed for c in r.checks)}/{len(r.checks)}"
        name, signal = f"{r.case.name:<{name_width}}", f"{signals[r.case.name]:<{signal_width}}"
        if r.error:
            lines.append(f"{_verdict(r.passed)}  {name}  not run: {r.error}")
            continue
        lines.append(f"{_verdict(r.passed)}  {name}  {signal}  {checks}")
        lines += [f"      FAIL signal {e.signal}: rel. error {e.max_rel:.2e} > {e.tolerance:.0e}"
                  for e in r.errors.itertuples() if not e.passed]
        lines += [f"      FAIL {c.name}: {'not computed' if math.isnan(c.value) else f'{c.value:.2e}'} "
                  f"(bound {c.bound:.0e})" for c in r.checks if not c.passed]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------- HTML
CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:1120px;
 padding:1em 2em;color:#1d1d1f;line-height:1.45}
h1{margin-bottom:.2em} h2{border-bottom:2px solid #ccd;padding-bottom:.2em;margin-top:2.2em}
h3{margin-top:2em} .paper{background:#f4f6fa;border-left:4px solid #7a8bb5;padding:.5em .9em}
table{border-collapse:collapse;margin:.6em 0 1em} th,td{border:1px solid #d4d7de;padding:3px 9px;text-align:left;
 vertical-align:top} th{background:#eef0f4}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
caption{text-align:left;font-weight:600;padding:.2em 0}
.pass{background:#e3f4e1} .fail{background:#fbe0de} .verdict{font-weight:bold;white-space:nowrap}
.pass .verdict,.verdict.pass{color:#176b1d} .fail .verdict,.verdict.fail{color:#b0170e}
.badge{display:inline-block;padding:0 .5em;border-radius:4px;font-size:.8em;vertical-align:middle;margin-left:.4em}
.badge.pass{background:#2e7d32;color:#fff} .badge.fail{background:#c62828;color:#fff}
.banner{padding:.6em 1em;font-size:1.15em;border-radius:4px} .note{color:#555;font-style:italic}
figure{margin:1em 0 1.6em} figure img{max-width:100%;height:auto;border:1px solid #e2e4e8}
figcaption{font-size:.85em;color:#555} figure.diagram img{max-height:520px;width:auto} nav ul{margin:.2em 0} nav>ul{columns:2} nav>ul>li{break-inside:avoid}
.provenance th{width:12em}
figure.animation iframe{width:100%;height:420px;border:1px solid #ccc}
.summary{font-size:.86em} .summary td{white-space:nowrap} .files{font-size:.9em}
"""

INTRO = ("<p>Each case runs an FMU of the Modelica library and compares it with an independent reference model "
         "written from the paper of its system. <b>Signals</b>: per signal the largest difference to the "
         "reference, relative to the signal's largest magnitude, against the case's tolerance. <b>Checks</b>: "
         "energy and first integrals, constraint residuals, closed forms and trends, each a measured value "
         "against a bound. Tolerances and their reasons are stated in the case modules "
         "(<code>python/nonholonomic/cases/&lt;system&gt;.py</code>). A case passes when every signal and "
         "every check does.</p>")


def _num(x) -> str:
    """A number as HTML, one format throughout: three significant digits, written plainly from 0.1 to 10^4
    (0.699, 86.3, 1500) and as m × 10^e outside (2.51 × 10^−7; 10^−5 for a mantissa of 1); 0 as 0; infinities
    and NaN in words."""
    x = float(x)
    if math.isnan(x):
        return "not computed"
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    if x == 0 or 0.1 <= abs(x) < 1e4:
        text = f"{x:.{max(0, 2 - math.floor(math.log10(abs(x))))}f}" if x else "0"
    else:
        mantissa, exponent = f"{x:.2e}".split("e")
        mantissa = mantissa.rstrip("0").rstrip(".")
        power = f"10<sup>{int(exponent)}</sup>"
        text = power if mantissa == "1" else f"{mantissa} × {power}"
    return text.replace("-", "−")  # a true minus sign


def _esc(text) -> str:
    return html.escape(str(text))


def _anchor(kind: str, name: str) -> str:
    return f"{kind}-{''.join(ch if ch.isalnum() or ch in '-_' else '-' for ch in name)}"


def _title(system: str) -> str:
    return system.replace("_", " ").capitalize()


def _case_link(r: CaseResult) -> str:
    return f"<a href='#{_anchor('case', r.case.name)}'>{_esc(r.case.name)}</a>"


def _verdict_cell(passed: bool) -> str:
    return f"<td class='verdict {'pass' if passed else 'fail'}'>{_verdict(passed)}</td>"


def _png_size(path: pathlib.Path):
    """(width, height) from a PNG's header, or None if it is not a readable PNG."""
    try:
        with open(path, "rb") as f:
            head = f.read(24)
    except OSError:
        return None
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", head[16:24])


def _signal_table(r: CaseResult) -> str:
    if not len(r.errors):
        return f"<p class='note'>{NO_SIGNALS}.</p>"
    try:  # units of the signals, where the case states them or its FMU declares them
        units = {s: unit_text(u) for s, u in r.case.signal_units(list(r.errors["signal"])).items()}
    except (AttributeError, ValueError):
        units = {}
    rows = "".join(
        f"<tr class='{'pass' if e.passed else 'fail'}'><td>{_esc(e.signal)}</td>"
        f"<td>{_esc(units.get(e.signal, ''))}</td><td class='num'>{_num(e.max_abs)}</td>"
        f"<td class='num'>{_num(e.max_rel)}</td><td class='num'>{_num(e.tolerance)}</td>"
        f"{_verdict_cell(bool(e.passed))}</tr>" for e in r.errors.itertuples())
    return ("<table><caption>Signals: FMU against the reference (rel. error = max |FMU − ref.| / max |ref.|)"
            "</caption><thead><tr><th>signal</th><th>unit</th><th>max abs. error</th>"
            "<th>max rel. error</th><th>tolerance</th><th>verdict</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>")


def _checks_table(r: CaseResult) -> str:
    if not r.checks:
        return "<p class='note'>No checks.</p>"
    rows = "".join(
        f"<tr class='{'pass' if c.passed else 'fail'}'><td>{_esc(c.name)}</td><td class='num'>{_num(c.value)}</td>"
        f"<td class='num'>≤ {_num(c.bound)}</td>{_verdict_cell(c.passed)}</tr>" for c in r.checks)
    return ("<table class='checks'><caption>Checks: measured value against its bound</caption><thead><tr>"
            "<th>check</th><th>measured</th><th>bound</th><th>verdict</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>")


def _files(r: CaseResult, out_dir: pathlib.Path) -> str:
    parts = []
    pngs = [f for f in r.files if f.suffix in (".png", ".gif")]  # images, shown in the page (GIF: an animation)
    data = [f for f in r.files if f not in pngs]
    if data:
        links = ", ".join(f"<a href='{_esc(f.relative_to(out_dir).as_posix())}'>{_esc(f.name)}</a>" for f in data)
        parts.append(f"<p class='files'>Data: {links}</p>")
    for f in pngs:
        rel = _esc(f.relative_to(out_dir).as_posix())
        size = _png_size(f)
        dims = f" width='{size[0]}' height='{size[1]}'" if size else ""
        parts.append(f"<figure><a href='{rel}'><img src='{rel}' alt='{_esc(r.case.name)}: {_esc(f.stem)}'{dims} "
                     f"loading='lazy'></a><figcaption>{_esc(f.name)} (click for full size)</figcaption></figure>")
    return "\n".join(parts)


def _summary_table(results: list[CaseResult]) -> str:
    rows = []
    for r in results:
        worst = _worst(r)
        error = (f"<td colspan='3'>not run: {_esc(r.error)}</td>" if r.error else
                 f"<td>{_esc(worst['signal'])}</td><td class='num'>{_num(worst['max_rel'])}</td>"
                 f"<td class='num'>{_num(worst['tolerance'])}</td>" if worst is not None
                 else f"<td colspan='3' class='note'>{_esc(NO_SIGNALS)}</td>")
        passed = sum(c.passed for c in r.checks)
        rows.append(f"<tr class='{'pass' if r.passed else 'fail'}'>{_verdict_cell(r.passed)}"
                    f"<td>{_case_link(r)}</td>"
                    f"<td>{_esc(_title(_system(r)))}</td><td>{_esc(r.case.model)}</td>{error}"
                    f"<td class='num'>{passed} / {len(r.checks)}</td><td class='num'>{_seconds(r)}</td></tr>")
    return ("<table class='summary'><thead><tr><th>verdict</th><th>case</th><th>system</th><th>model (FMU)</th>"
            "<th>worst signal</th><th>rel. error</th><th>tolerance</th><th>checks passed</th><th>run time</th>"
            "</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")


def _seconds(r: CaseResult) -> str:
    return "" if r.seconds is None else f"{r.seconds:.0f} s" if r.seconds >= 10 else f"{r.seconds:.1f} s"


def _made(info: dict) -> str:
    """The line under the title: when and from which commit."""
    commit = info["commit"] or "none (not a git checkout)"
    return (f"<p class='note'>Made {_esc(info['date'])} from commit {_esc(commit)}, on "
            f"{_esc(info['machine']['processor'])}; the tools, the machine and the FMUs' checksums: "
            "<a href='#provenance'>provenance</a>.</p>")


def _provenance(info: dict) -> str:
    """When and from what the report was made: commit, tools, machine, and each FMU's SHA-256."""
    rows = [("date (UTC)", info["date"]), ("commit", info["commit"] or "not a git checkout")]
    rows += [(f"{name} version", version) for name, version in info["versions"].items()]
    rows += [(key, str(value)) for key, value in info["machine"].items()]
    general = "".join(f"<tr><th>{_esc(k)}</th><td>{_esc(v)}</td></tr>" for k, v in rows)
    fmus = "".join(f"<tr><td>{_esc(model)}</td><td><code>{_esc(f['sha256'])}</code></td>"
                   f"<td>{_esc(f.get('FMI', ''))}</td><td>{_esc(f.get('generated by', ''))}</td></tr>"
                   for model, f in info["fmus"].items())
    return ("<section><h2 id='provenance'>Provenance</h2><p>Also in <a href='provenance.json'>provenance.json</a>."
            f"</p><table class='provenance'><tbody>{general}</tbody></table>"
            "<table class='summary'><caption>The FMUs the cases ran</caption><thead><tr><th>FMU</th>"
            "<th>SHA-256</th><th>FMI</th><th>generated by</th></tr>"
            f"</thead><tbody>{fmus}</tbody></table></section>")


def _diagrams(rs: list[CaseResult], out_dir: pathlib.Path) -> str:
    """The diagrams of a system's example models, drawn from their Modelica annotations into
    ``diagrams/<model>.svg`` (none for a model that is not a class of the library)."""
    from ..diagram import write_diagram
    from ..errors import NonholonomicError
    parts = []
    for model in dict.fromkeys(r.case.model for r in rs):
        try:
            path = write_diagram(model, out_dir / "diagrams" / f"{model}.svg")
        except NonholonomicError:
            continue
        rel = _esc(path.relative_to(out_dir).as_posix())
        parts.append(f"<figure class='diagram'><a href='{rel}'><img src='{rel}' alt='diagram of {_esc(model)}'></a>"
                     f"<figcaption>{_esc(model)}: the model's diagram (components, connections), drawn from its "
                     "Modelica annotations</figcaption></figure>")
    return "\n".join(parts)


def _by_system(results: list[CaseResult]) -> dict:
    systems = {}
    for r in results:
        systems.setdefault(_system(r), []).append(r)
    return systems


def _animations(made: list, out_dir: pathlib.Path) -> str:
    """A system's 3D animations (``made``: [(example, its page or the reason there is none)]), each in a frame."""
    parts = []
    for example, page in made:
        if isinstance(page, str):
            parts.append(f"<p class='note'>{_esc(example)}: {_esc(page)}</p>")
            continue
        where = pathlib.Path(page).relative_to(out_dir).as_posix()
        parts.append(f"<figure class='animation'><iframe src='{_esc(where)}' loading='lazy' title='{_esc(example)}'>"
                     f"</iframe><figcaption>{_esc(example)} in 3D: drag to turn, scroll to zoom, <i>Open Controls "
                     f"&gt; Animations</i> to play, pause and scrub (<a href='{_esc(where)}'>the page alone</a>)."
                     "</figcaption></figure>")
    return "".join(parts)


def write_report(results: list[CaseResult], out_dir: pathlib.Path, animations: dict | None = None) -> pathlib.Path:
    """``verification.csv`` (one row per case), ``provenance.json`` and ``verification.html`` in ``out_dir``;
    ``animations`` maps systems to their examples' 3D animations: [(example, its page or why there is none)]."""
    out_dir = pathlib.Path(out_dir)
    write_table(pd.DataFrame([summary_row(r) for r in results]), out_dir / "verification.csv")
    info = provenance(r.case.model for r in results)
    write_bytes(out_dir / "provenance.json", json.dumps(info, indent=1).encode("utf-8"))
    systems = _by_system(results)
    failed = [r for r in results if not r.passed]
    banner = (f"<p class='banner {'fail' if failed else 'pass'}'><span class='verdict'>"
              f"{'FAIL' if failed else 'PASS'}</span>: {len(results) - len(failed)} of {len(results)} cases pass"
              + (f"; failed: {', '.join(_case_link(r) for r in failed)}" if failed else "") + ".</p>")
    toc = "".join(
        f"<li><a href='#{_anchor('system', s)}'>{_esc(_title(s))}</a><ul>"
        + "".join(f"<li>{_case_link(r)} "
                  f"<span class='badge {'pass' if r.passed else 'fail'}'>{_verdict(r.passed)}</span></li>"
                  for r in rs) + "</ul></li>" for s, rs in systems.items())
    parts = ["<!DOCTYPE html>", "<html lang='en'>", "<head>", "<meta charset='utf-8'>",
             "<meta name='viewport' content='width=device-width, initial-scale=1'>",
             "<title>Nonholonomic: verification of the FMUs against reference models</title>",
             f"<style>{CSS}</style>", "</head>", "<body>",
             "<h1>Verification: FMUs against reference models</h1>", _made(info), banner,
             INTRO,
             "<nav><h2 id='contents'>Contents</h2><ul><li><a href='#summary'>Summary</a></li>", toc,
             "<li><a href='#provenance'>Provenance</a></li></ul></nav>",
             "<h2 id='summary'>Summary</h2>", _summary_table(results)]
    for system, rs in systems.items():
        parts.append(f"<section><h2 id='{_anchor('system', system)}'>{_esc(_title(system))}</h2>")
        paper = getattr(rs[0].case, "paper", "")
        if paper:
            parts.append(f"<p class='paper'>{_esc(paper)}</p>")
        parts.append(_diagrams(rs, out_dir))
        parts.append(_animations((animations or {}).get(system, []), out_dir))
        for r in rs:
            badge = f"<span class='badge {'pass' if r.passed else 'fail'}'>{_verdict(r.passed)}</span>"
            took = f" <span class='note'>({_seconds(r)})</span>" if r.seconds is not None else ""
            parts += [f"<article><h3 id='{_anchor('case', r.case.name)}'>{_esc(r.case.name)}{badge}{took}</h3>",
                      f"<p>{_esc(r.case.description)} <span class='note'>Model: {_esc(r.case.model)}.</span></p>",
                      *([f"<p class='banner fail'>Not run: {_esc(r.error)}</p>"] if r.error else
                        [_signal_table(r), _checks_table(r), _files(r, out_dir)]),
                      "<p><a href='#summary'>back to the summary</a></p></article>"]
        parts.append("</section>")
    parts += [_provenance(info), "</body>", "</html>"]
    path = out_dir / "verification.html"
    write_bytes(path, "\n".join(parts).encode("utf-8"))
    return path
