"""Faults a user can meet on the command line, each ending in one line and a non-zero exit, with nothing that
was computed lost: broken or foreign FMUs, a crashing FMU binary, output paths that cannot be written, the
output grid, a closed pipe, Ctrl-C (SIGINT) during simulate, verify and build."""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import time
import zipfile

import numpy as np
import pandas as pd
import pytest

from conftest import sigint_default
from test_cli import CLI, assert_one_line_error, run

MODEL = "BallOnParaboloid"  # a small FMU; its binary is binaries/x86_64-linux/BallOnParaboloid.so
BINARY = f"binaries/x86_64-linux/{MODEL}.so"


def _rezip(source: pathlib.Path, target: pathlib.Path, replace: dict) -> pathlib.Path:
    """A copy of the FMU ``source`` with some members replaced (bytes) or removed (None)."""
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
        for name in old.namelist():
            if name not in replace:
                new.writestr(name, old.read(name))
        for name, data in replace.items():
            if data is not None:
                new.writestr(name, data)
    return target


def _member(fmu: pathlib.Path, name: str) -> bytes:
    with zipfile.ZipFile(fmu) as z:
        return z.read(name)


def _corrupt_fmus(fmu: pathlib.Path, folder: pathlib.Path) -> dict:
    """Broken and foreign variants of a good FMU -> a fragment of the one line each must get."""
    data = fmu.read_bytes()
    xml = _member(fmu, "modelDescription.xml")
    so = _member(fmu, BINARY)
    arm = bytearray(so)
    arm[18:20] = (183).to_bytes(2, "little")  # e_machine: AArch64
    cases = {}

    def add(name, content_or_path, fragment):
        path = folder / f"{name}.fmu"
        if isinstance(content_or_path, bytes):
            path.write_bytes(content_or_path)
        cases[path] = fragment

    add("empty", b"", "is empty, not an FMU")
    add("random", np.random.default_rng(1).bytes(5000), "not a readable zip archive")
    add("truncated_zip", data[: len(data) // 2], "not a readable zip archive")
    add("no_description", _rezip(fmu, folder / "no_description.fmu", {"modelDescription.xml": None}),
        "has no modelDescription.xml")
    add("half_xml", _rezip(fmu, folder / "half_xml.fmu", {"modelDescription.xml": xml[: len(xml) // 2]}),
        "modelDescription.xml is not well-formed XML")
    add("fmi1", _rezip(fmu, folder / "fmi1.fmu", {"modelDescription.xml": xml.replace(b'fmiVersion="3.0"',
                                                                                      b'fmiVersion="1.0"')}),
        "not an FMI 2 or FMI 3 model description")
    no_interface = re.sub(rb"<(ModelExchange|CoSimulation)\b.*?(/>|</\1>)", b"", xml, flags=re.S)
    add("no_interface", _rezip(fmu, folder / "no_interface.fmu", {"modelDescription.xml": no_interface}),
        "neither model exchange nor co-simulation")
    add("windows_only", _rezip(fmu, folder / "windows_only.fmu",
                               {BINARY: None, f"binaries/x86_64-windows/{MODEL}.dll": so}),
        "no binary for this platform")
    add("not_elf", _rezip(fmu, folder / "not_elf.fmu", {BINARY: b"#!/bin/sh\necho not a library\n" * 10}),
        "not a shared library (no ELF header)")
    add("arm", _rezip(fmu, folder / "arm.fmu", {BINARY: bytes(arm)}), "built for another processor")
    add("truncated_so", _rezip(fmu, folder / "truncated_so.fmu", {BINARY: so[: len(so) * 2 // 3]}), "is truncated")
    return cases


def test_broken_and_foreign_fmus_get_one_line(rumoca_fmus, tmp_path):
    assert zipfile.ZipFile(rumoca_fmus[MODEL]).read("modelDescription.xml").find(b'fmiVersion="3.0"') > 0
    for path, fragment in _corrupt_fmus(rumoca_fmus[MODEL], tmp_path).items():
        out = tmp_path / f"{path.stem}.csv"
        assert_one_line_error(run("simulate", str(path), "--out", str(out)), fragment)
        assert not out.exists()


def test_extracted_fmu_with_truncated_binary(rumoca_fmus, tmp_path):
    """The same checks for an extracted FMU (a folder): a truncated library would kill the process (SIGBUS)."""
    folder = tmp_path / "extracted"
    zipfile.ZipFile(rumoca_fmus[MODEL]).extractall(folder)
    library = folder / BINARY
    library.write_bytes(library.read_bytes()[:4096])
    assert_one_line_error(run("simulate", str(folder), "--out", str(tmp_path / "x.csv")), "is truncated")
    assert_one_line_error(run("simulate", str(tmp_path), "--out", str(tmp_path / "x.csv")),
                          "not an extracted FMU")


def _compile(sources: list[pathlib.Path], include: pathlib.Path, binary: pathlib.Path) -> None:
    """The FMU's own sources and SUNDIALS' (the files of sources/buildDescription.xml; sources/ holds every header)."""
    import xml.etree.ElementTree as ET
    from nonholonomic.backends.fmu_export import fmi_headers
    description = include / "buildDescription.xml"
    build = ET.parse(description).getroot() if description.is_file() else ET.Element("none")
    sundials = [include / e.get("name") for e in build.iter("SourceFile") if e.get("name").startswith("sundials/")]
    subprocess.run(["gcc", "-shared", "-fPIC", "-O0", "-I", str(fmi_headers()), "-I", str(include), "-o",
                    str(binary), *map(str, sources), *map(str, sundials), "-lm"], check=True, capture_output=True)


def crashing_fmu(fmu: pathlib.Path, folder: pathlib.Path, after: float = 0.25) -> pathlib.Path:
    """An extracted copy of a rumoca-backend FMU (in ``folder``) whose own sources are recompiled with a
    null-pointer write once t > ``after`` in every function that gets the time (fmi3SetTime for FMI importers,
    the project's C right-hand side for its CVODE loop, the right-hand side of fmi3DoStep's integrator):
    whatever runs it dies of SIGSEGV there."""
    zipfile.ZipFile(fmu).extractall(folder)
    crash = f" if (t > {after!r}) *(volatile int *)0 = 1;"
    wrapper = folder / "sources" / "fmi3_model.c"
    text = wrapper.read_text()
    assert text.count("S->t = time;") == 1
    wrapper.write_text(text.replace("S->t = time;", "S->t = time; { double t = time;" + crash + " }"))
    for source in (folder / "sources").glob("*.c"):
        text = source.read_text()
        source.write_text(re.sub(r"(int (?:nonholonomic_\w+\(double|cv_rhs\(sunrealtype) t,[^)]*\)\s*\{)",
                                 lambda m: m.group(1) + crash, text))
    identifier = fmu.stem
    _compile(sorted((folder / "sources").glob("*.c")), folder / "sources",
             folder / f"binaries/x86_64-linux/{identifier}.so")
    return folder


def test_binary_crash_during_the_run_is_one_line(rumoca_fmus, tmp_path):
    """The FMU, recompiled to crash once t > 0.25 s: the simulation process dies of SIGSEGV, the CLI says so with
    the last time reported before the crash."""
    folder = crashing_fmu(rumoca_fmus[MODEL], tmp_path / "crashing")
    out = tmp_path / "x.csv"
    result = run("simulate", str(folder), "--stop-time", "1", "--output-interval", "0.1", "--out", str(out))
    assert_one_line_error(result, "the FMU's binary crashed (SIGSEGV) after t = ", f"are in {out}")
    reached = float(re.search(r"after t = (\S+) s", result.stderr).group(1))
    assert 0.2 <= reached < 0.25
    # every row computed before the crash is kept (early in a run each row goes out as it is computed), and they
    # are the rows of the intact FMU: the same model code up to the crash, compiled at another optimisation
    # level, so equal up to round-off, which the step-size control may amplify at most to the order of the
    # integrator's tolerance (the experiment's 1e-10 relative); bound 1e-8 relative to each signal's size
    kept = pd.read_csv(out)
    assert kept["time"].tolist() == pytest.approx([0.0, 0.1, 0.2], rel=1e-12)
    intact = run("simulate", MODEL, "--stop-time", "1", "--output-interval", "0.1", "--out", str(tmp_path / "ok.csv"))
    assert intact.returncode == 0, intact.stderr
    expected = pd.read_csv(tmp_path / "ok.csv").iloc[:len(kept)]
    assert list(kept.columns) == list(expected.columns)
    scale = expected.abs().max().clip(lower=1.0)
    assert ((kept - expected).abs() <= 1e-8 * scale).all().all()


def test_binary_crash_when_loaded_is_one_line(rumoca_fmus, tmp_path):
    """A library that passes every check but dies of SIGBUS as it is loaded (its constructor)."""
    source = tmp_path / "boom.c"
    source.write_text("#include <signal.h>\n__attribute__((constructor)) static void boom(void) { raise(SIGBUS); }\n")
    _compile([source], tmp_path, tmp_path / "boom.so")
    fmu = _rezip(rumoca_fmus[MODEL], tmp_path / "boom.fmu", {BINARY: (tmp_path / "boom.so").read_bytes()})
    result = run("simulate", str(fmu), "--out", str(tmp_path / "x.csv"))
    assert_one_line_error(result, "the FMU's binary crashed (SIGBUS) after t = 0 s")


@pytest.fixture
def a_file(tmp_path) -> pathlib.Path:
    path = tmp_path / "file.txt"
    path.write_text("a file, not a folder\n")
    return path


def test_unwritable_simulate_output_is_said_first(rumoca_fmus, a_file, tmp_path):
    """Checked before the FMU is even looked at: the model name below does not exist."""
    for out, fragment in [(a_file / "out.csv", f"{a_file} is a file, not a folder"),
                          (a_file / "deeper" / "out.csv", f"{a_file} is a file, not a folder"),
                          ("/proc/out.csv", "folder /proc accepts no new files")]:
        assert_one_line_error(run("simulate", "NoSuchModel", "--out", str(out)), f"cannot write --out {out}",
                              fragment)
    folder = tmp_path / "a_folder.csv"
    folder.mkdir()
    assert_one_line_error(run("simulate", MODEL, "--out", str(folder)), "it is a folder")


@pytest.mark.parametrize("command", [["build", MODEL, "--backend", "rumoca"], ["verify", "sphere_bowl"],
                                     ["bench", "ChaplyginSleigh"], ["chapter2", "1"], ["compare-impacts"]])
def test_unwritable_output_folder_is_said_before_any_work(command, a_file):
    for out in (a_file, a_file / "sub", pathlib.Path("/proc/results")):
        result = run(*command, "--out", str(out))
        assert_one_line_error(result, f"cannot write --out {out}")
        assert len(result.stderr.splitlines()) == 1  # no progress line: nothing was started


def test_check_writable_helpers(a_file, tmp_path):
    from nonholonomic.errors import NonholonomicError
    from nonholonomic.paths import check_writable_dir, check_writable_file
    assert check_writable_dir(tmp_path / "new" / "deeper") == tmp_path / "new" / "deeper"
    assert not (tmp_path / "new").exists()  # checking creates nothing
    assert check_writable_file(tmp_path / "new" / "x.csv") == tmp_path / "new" / "x.csv"
    assert check_writable_file(a_file) == a_file  # an existing file may be overwritten
    with pytest.raises(NonholonomicError, match="is a file, not a folder"):
        check_writable_dir(a_file / "x")
    with pytest.raises(NonholonomicError, match="it is a folder"):
        check_writable_file(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt"]  # the probe files are gone


def test_output_grid_ends_at_the_stop_time():
    from nonholonomic.grid import output_grid
    assert output_grid(0.1, 1.0).tolist() == [0.0, 0.1]
    assert output_grid(0.1, 0.03) == pytest.approx([0.0, 0.03, 0.06, 0.09, 0.1], abs=0, rel=1e-15)
    assert output_grid(0.5, 0.1) == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4, 0.5], abs=0, rel=1e-15)
    assert output_grid(0.3, 0.1) == pytest.approx([0.0, 0.1, 0.2, 0.3], abs=0, rel=1e-15)  # 3 * 0.1 > 0.3
    assert output_grid(2.0, 2.0).tolist() == [0.0, 2.0]


@pytest.mark.parametrize("interval, times", [("1", [0.0, 0.1]), ("0.03", [0.0, 0.03, 0.06, 0.09, 0.1])])
def test_simulate_rows_end_at_the_stop_time(rumoca_fmus, tmp_path, interval, times):
    out = tmp_path / "x.csv"
    result = run("simulate", MODEL, "--stop-time", "0.1", "--output-interval", interval, "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert pd.read_csv(out)["time"].tolist() == pytest.approx(times, abs=0, rel=1e-12)  # CSV keeps 16 digits


def test_too_many_rows_is_said_before_the_run(rumoca_fmus, tmp_path):
    result = run("simulate", MODEL, "--stop-time", "1000", "--output-interval", "1e-6", "--out", str(tmp_path / "x.csv"))
    assert_one_line_error(result, "gives 1000000001 rows")


def test_closed_pipe_ends_quietly():
    """`nonholonomic list | head -1`: the reader is gone before the output is written."""
    process = subprocess.Popen([*CLI, "list"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=120) == 128 + signal.SIGPIPE
    assert stderr == ""


def test_readme_reference_import():
    from nonholonomic.references import BallOnSurfaceOfRevolution, meridian_from_code
    from nonholonomic.references.ball_on_surface import BallOnSurfaceOfRevolution as direct
    assert BallOnSurfaceOfRevolution is direct
    import nonholonomic.references as references
    for name in references.__all__:
        assert getattr(references, name).__name__ == name


@pytest.mark.parametrize("model, eta, bound", [("OmniVehicleSpin", "0.25", "0.249999999"),
                                               ("OmniVehicleChapter2", "0.2", "0.199999999")])
def test_eta_at_one_over_n_rollers_is_rejected(rumoca_fmus, tmp_path, model, eta, bound):
    """eta = 1/nRollers leaves the hub no mass: the bound max = 1/nRollers - 1e-9 of the Modelica source,
    evaluated for the example's nRollers (4, and 5 in the chapter 2 vehicle)."""
    assert_one_line_error(run("simulate", model, "--set", f"eta={eta}", "--out", str(tmp_path / "x.csv")),
                          f"parameter eta = {eta} is above its maximum {bound}")


# ---- Ctrl-C: SIGINT to the CLI process once it is working


def _start(args) -> subprocess.Popen:
    return subprocess.Popen([*CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=sigint_default)


def _interrupt_after(process: subprocess.Popen, marker: str, delay: float = 0.0) -> tuple[str, str, list[str]]:
    """Read stderr until a line containing ``marker``, wait ``delay``, send SIGINT; the output and the
    stderr lines seen before the signal."""
    seen = []
    for line in process.stderr:
        seen.append(line)
        if marker in line:
            break
    assert seen and marker in seen[-1], "".join(seen)
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=120)  # a hang is a failure, not a wait
    return stdout, stderr, seen


def test_ctrl_c_during_simulate_keeps_the_rows(rumoca_fmus, tmp_path):
    out = tmp_path / "x.csv"
    process = _start(["simulate", "OmniVehicleStraight", "--stop-time", "1000", "--output-interval", "0.01",
                      "--out", str(out)])
    stdout, stderr, _ = _interrupt_after(process, "running", delay=2.0)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    [line] = stderr.splitlines()
    match = re.fullmatch(r"interrupted at t = (\S+) s; (\d+) rows written to (.+)", line)
    assert match, line
    frame = pd.read_csv(out)
    assert match.group(3) == str(out) and int(match.group(2)) == len(frame) >= 2
    # in order; the vehicle's roller changes are events, whose two rows (left and right limits) share their time
    times = frame["time"].to_numpy()
    assert times[0] == 0.0 and (np.diff(times) >= 0).all() and np.unique(times, return_counts=True)[1].max() <= 2
    # the line prints the time with 6 significant digits (%g): compare at that precision
    assert float(match.group(1)) >= float(f"{frame['time'].iloc[-1]:g}") and frame["time"].iloc[-1] < 1000


def test_ctrl_c_during_verify_reports_the_finished_cases(rumoca_fmus, tmp_path):
    process = _start(["verify", "sphere_bowl", "wheelset_stiffness", "--out", str(tmp_path), "--jobs", "1"])
    stdout, stderr, seen = _interrupt_after(process, "[2/2] wheelset_stiffness")
    assert process.returncode == 130, stderr
    assert stderr.strip() == (f"interrupted in wheelset_stiffness; 1 of 2 cases finished, "
                              f"report: {tmp_path / 'verification.html'}")
    assert pd.read_csv(tmp_path / "verification.csv")["case"].tolist() == ["sphere_bowl"]
    assert (tmp_path / "verification.html").is_file()


@pytest.mark.slow
def test_ctrl_c_during_build_keeps_the_finished_fmus(tmp_path):
    process = _start(["build", "ChaplyginSleigh", "OmniVehicleSpin", "--backend", "rumoca", "--out", str(tmp_path)])
    # both are built at once: the small one is written while the omni vehicle still compiles
    stdout, stderr, seen = _interrupt_after(process, "[1/2] ChaplyginSleigh: wrote")
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr  # the omni vehicle's progress lines up to the signal, then the one line:
    assert stderr.splitlines()[-1] == f"interrupted while building OmniVehicleSpin; 1 of 2 FMUs built in {tmp_path}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ChaplyginSleigh.fmu"]  # no half-written FMU
    from nonholonomic.fmu import check_fmu
    check_fmu(tmp_path / "ChaplyginSleigh.fmu")
