"""Nothing computed is lost, nothing is left behind, nothing misleads: relative output folders, full disks, two
writers of one file, SIGTERM and SIGKILL to the command (or to its process group) during simulate, verify, build
and sweep, FMU binaries that crash inside verify, the Python API and co-simulation, a run that crawls, a case
interrupted while its files are written. Each ends in one line and keeps what was computed (issue 24)."""

from __future__ import annotations

import os
import pathlib
import re
import resource
import signal
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import psutil
import pytest

from conftest import sigint_default
from test_cli import CLI, assert_one_line_error, run
from test_faults import MODEL, crashing_fmu

from nonholonomic.errors import SimulationFailed


def start(*args, env=None, cwd=None, group=True) -> subprocess.Popen:
    """The CLI in the background; ``group``: in a process group of its own (its pid), as a shell job is."""
    return subprocess.Popen([*CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=cwd,
                            start_new_session=group, preexec_fn=None if group else sigint_default)


def wait_for(process: subprocess.Popen, *markers: str, timeout: float = 300) -> list[str]:
    """The stderr lines up to the first by which each of ``markers`` has been in a line, in any order (builds
    run at once); a hang is a failure, not a wait."""
    seen, missing, deadline = [], list(markers), time.monotonic() + timeout
    for line in process.stderr:
        seen.append(line)
        missing = [m for m in missing if m not in line]
        if not missing or time.monotonic() > deadline:
            break
    assert seen and not missing, "".join(seen)
    return seen


def processes_mentioning(text: str) -> list[psutil.Process]:
    """Live processes whose command line or working folder mentions ``text`` (a test's unique path)."""
    found = []
    for p in psutil.process_iter(["cmdline", "cwd", "status"]):
        if p.info["status"] == psutil.STATUS_ZOMBIE:
            continue
        if text in " ".join(p.info["cmdline"] or []) or text in (p.info["cwd"] or ""):
            found.append(p)
    return found


def scratch_env(tmp_path: pathlib.Path) -> tuple[dict, pathlib.Path]:
    """An environment whose temporary folder is the test's own (to see what a run leaves there)."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    return {**os.environ, "TMPDIR": str(scratch)}, scratch


# --- item 1: relative --out -----------------------------------------------------------------------------------

def test_build_writes_into_a_relative_out_folder(tmp_path, monkeypatch):
    result = subprocess.run([*CLI, "build", "ChaplyginSleigh", "--backend", "rumoca", "--out", "relout"],
                            capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert result.returncode == 0, result.stderr
    from nonholonomic.fmu import check_fmu
    check_fmu(tmp_path / "relout" / "ChaplyginSleigh.fmu")
    assert f"wrote {tmp_path / 'relout' / 'ChaplyginSleigh.fmu'}" in result.stderr
    import nonholonomic as nh  # the API, with one model's name as a string (not a list of its letters)
    monkeypatch.chdir(tmp_path)
    [path] = nh.build("ChaplyginSleigh", backend="rumoca", out_dir="rel")
    assert path == tmp_path / "rel" / "ChaplyginSleigh.fmu"
    check_fmu(path)


# --- item 2: a full disk ----------------------------------------------------------------------------------------

def test_full_disk_keeps_the_rows_in_a_rescue_file(rumoca_fmus, tmp_path):
    """--out through a link to /dev/full (every write: ENOSPC): one line, and the rows go to a rescue file."""
    out = tmp_path / "x.csv"
    out.symlink_to("/dev/full")
    env, scratch = scratch_env(tmp_path)
    result = run("simulate", MODEL, "--stop-time", "0.5", "--output-interval", "0.1", "--out", str(out), env=env)
    assert_one_line_error(result, f"cannot write --out {out}: No space left on device: the disk is full",
                          "the 6 rows are kept in")
    rescue = pathlib.Path(re.search(r"kept in (\S+)$", result.stderr.strip()).group(1))
    assert rescue.parent == scratch and rescue.name.startswith("nonholonomic-rescue-")
    assert pd.read_csv(rescue)["time"].tolist() == pytest.approx([0, 0.1, 0.2, 0.3, 0.4, 0.5], rel=1e-12)
    assert out.is_symlink() and os.readlink(out) == "/dev/full"  # the link is left as it was


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_disk_filling_up_mid_write_leaves_the_old_file(rumoca_fmus, tmp_path, suffix):
    """A file-size limit (RLIMIT_FSIZE: writes beyond it fail with EFBIG, as on a full disk) below the size of the
    result: the old file under --out stays as it was, no part of the new one is left, and one line says why."""
    out = tmp_path / f"x{suffix}"
    out.write_bytes(b"the previous result\n")
    # bytes: above the FMU's binary (0.2 MB, extracted for the run), below the result (50 001 rows x 13 columns:
    # 6 MB as Parquet, more as CSV)
    limit = 2_000_000

    def limited():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    result = subprocess.run([*CLI, "simulate", MODEL, "--stop-time", "50", "--output-interval", "0.001",
                             "--out", str(out)], capture_output=True, text=True, timeout=600, preexec_fn=limited)
    # (the rescue file in the temporary folder meets the same limit: said too)
    assert_one_line_error(result, f"cannot write --out {out}: ", "File too large", "the 50001 rows are lost")
    assert out.read_bytes() == b"the previous result\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [out.name]  # no .part, no lock file


# --- item 3: two writers of one --out ------------------------------------------------------------------------------

def test_second_writer_of_the_same_out_is_refused(rumoca_fmus, tmp_path):
    out = tmp_path / "x.csv"
    first = start("simulate", "OmniVehicleStraight", "--stop-time", "2", "--output-interval", "0.001", "--out", str(out))
    try:
        wait_for(first, "running")
        second = run("simulate", MODEL, "--out", str(out))
        assert_one_line_error(second, f"cannot write --out {out}: another nonholonomic process (pid {first.pid}) "
                                      "is writing it")
        _, stderr = first.communicate(timeout=600)
    finally:
        first.kill()
    assert first.returncode == 0, stderr
    frame = pd.read_csv(out)  # the first run's result, whole: 2001 grid rows and the roller changes' event rows
    times = frame["time"].to_numpy()
    on_grid = np.abs(times / 0.001 - np.round(times / 0.001)) < 1e-6
    assert len(np.unique(times[on_grid])) == 2001 and (np.diff(times) >= 0).all()
    assert not frame.isna().any().any()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.csv"]


def test_atomic_writes_and_staged_folders(tmp_path, monkeypatch):
    """The mechanisms themselves: an error while a file or a case's folder is written leaves the old one whole,
    and no temporary name behind; a finished one replaces it; a staged record (JSON) arrives after its data."""
    from nonholonomic.paths import atomic_path, staged_files, staged_folder, write_table
    path = tmp_path / "x.csv"
    write_table(pd.DataFrame({"time": [0.0, 1.0]}), path)
    with pytest.raises(ZeroDivisionError):
        with atomic_path(path) as temporary:
            temporary.write_text("half")
            1 / 0
    assert pd.read_csv(path)["time"].tolist() == [0.0, 1.0] and sorted(tmp_path.iterdir()) == [path]
    case = tmp_path / "case"
    with staged_folder(case) as stage:
        (stage / "old.csv").write_text("old")
    with pytest.raises(KeyboardInterrupt):
        with staged_folder(case) as stage:
            (stage / "new.csv").write_text("new")
            raise KeyboardInterrupt
    assert [p.name for p in case.iterdir()] == ["old.csv"] and sorted(tmp_path.iterdir()) == [case, path]
    with staged_folder(case) as stage:
        (stage / "new.csv").write_text("new")
    assert [p.name for p in case.iterdir()] == ["new.csv"] and sorted(tmp_path.iterdir()) == [case, path]
    shared, moved = tmp_path / "shared", []
    replace = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: (moved.append(pathlib.Path(b).name), replace(a, b))[1])
    with staged_files(shared) as stage:
        for name in ("case1.json", "case1.csv", "case1_plot.png"):
            (stage / name).write_text(name)
        assert moved == []  # nothing in place before the block ends
    assert moved[-1] == "case1.json" and sorted(p.name for p in shared.iterdir()) == sorted(moved)
    with pytest.raises(KeyboardInterrupt):
        with staged_files(shared) as stage:
            (stage / "case2.csv").write_text("half")
            raise KeyboardInterrupt
    assert sorted(p.name for p in shared.iterdir()) == sorted(moved)  # nothing of case 2, no staging folder


# --- items 4 and 14: SIGTERM, SIGKILL, children and temporary folders ---------------------------------------------

def test_sigterm_to_the_process_group_during_simulate_keeps_the_rows(rumoca_fmus, tmp_path):
    """As a shell's `kill -TERM -<job>` or a service manager does: one line, the rows so far, exit 143; the child
    that ran the binary ends too, and no temporary folder stays."""
    env, scratch = scratch_env(tmp_path)
    out = tmp_path / "x.csv"
    process = start("simulate", "OmniVehicleStraight", "--stop-time", "1000", "--output-interval", "0.01",
                    "--out", str(out), env=env)
    wait_for(process, "running")
    time.sleep(1.0)
    os.killpg(process.pid, signal.SIGTERM)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 143, stderr
    assert "Traceback" not in stderr
    [line] = stderr.splitlines()
    match = re.fullmatch(r"terminated \(SIGTERM\) at t = (\S+) s; (\d+) rows written to (.+)", line)
    assert match and match.group(3) == str(out), line
    frame = pd.read_csv(out)
    assert int(match.group(2)) == len(frame) >= 2 and frame["time"].iloc[0] == 0.0
    assert processes_mentioning(str(out)) == []
    assert list(scratch.iterdir()) == []


def test_sigterm_to_the_command_alone_as_timeout_sends_it(rumoca_fmus, tmp_path):
    out = tmp_path / "x.csv"
    process = start("simulate", "OmniVehicleStraight", "--stop-time", "1000", "--out", str(out), group=False)
    wait_for(process, "running")
    time.sleep(1.0)
    process.terminate()
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 143 and "rows written to" in stderr and len(pd.read_csv(out)) >= 2
    assert processes_mentioning(str(out)) == []


def test_sigkill_of_the_command_ends_its_child_and_the_next_run_clears_its_folder(rumoca_fmus, tmp_path):
    """SIGKILL cannot be handled: the child that runs the binary dies with its parent (not minutes later at full
    CPU), and its temporary folder, named after the dead parent, is removed by the next run."""
    env, scratch = scratch_env(tmp_path)
    out = tmp_path / "x.csv"
    process = start("simulate", "OmniVehicleStraight", "--stop-time", "1000", "--out", str(out), env=env)
    wait_for(process, "running")
    [child] = psutil.Process(process.pid).children()
    left = [p.name for p in scratch.iterdir()]
    assert left and all(name.startswith(f"nh-{process.pid}-") for name in left)
    process.kill()
    process.wait(timeout=60)
    psutil.wait_procs([child], timeout=10)
    assert not child.is_running() or child.status() == psutil.STATUS_ZOMBIE
    assert not out.exists()  # nothing under the final name: the rows were never written
    result = run("simulate", MODEL, "--stop-time", "0.1", "--out", str(tmp_path / "y.csv"), env=env)
    assert result.returncode == 0, result.stderr
    assert list(scratch.iterdir()) == []


def test_sigterm_during_verify_writes_the_report_of_the_finished_cases(rumoca_fmus, tmp_path):
    process = start("verify", "sphere_bowl", "wheelset_stiffness", "--out", str(tmp_path), "--jobs", "1")
    wait_for(process, "[2/2] wheelset_stiffness")
    os.killpg(process.pid, signal.SIGTERM)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 143, stderr
    assert stderr.splitlines()[-1] == (f"terminated (SIGTERM) in wheelset_stiffness; 1 of 2 cases finished, "
                                       f"report: {tmp_path / 'verification.html'}")
    assert pd.read_csv(tmp_path / "verification.csv")["case"].tolist() == ["sphere_bowl"]
    assert not (tmp_path / "wheelset_stiffness").exists()  # no half-written case folder
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_sigterm_during_a_benchmark_writes_the_finished_cases(rumoca_fmus, tmp_path):
    """bench --importers stopped in its second case: the first case's row is in importers.csv, the report (which
    compares the cases) is not written."""
    process = start("bench", "--importers", "RollingDisk", "TippeTop", "--out", str(tmp_path))
    wait_for(process, "bench --importers tippe-top, law 2")
    os.killpg(process.pid, signal.SIGTERM)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 143, stderr
    assert stderr.splitlines()[-1] == f"terminated (SIGTERM); 1 finished case written to {tmp_path / 'importers.csv'}"
    assert pd.read_csv(tmp_path / "importers.csv")["case"].tolist() == ["rolling disk"]
    assert not (tmp_path / "importers.md").exists()


@pytest.mark.slow
def test_sigterm_during_build_stops_gcc_and_removes_the_work_folder(tmp_path):
    """SIGTERM to the command alone while gcc compiles (gcc does not get it): the compilers are stopped, the
    temporary work folder removed, the finished FMU kept."""
    env, scratch = scratch_env(tmp_path)
    out = tmp_path / "fmus"
    process = start("build", "ChaplyginSleigh", "OmniVehicleSpin", "--backend", "rumoca", "--out", str(out), env=env,
                    group=False)
    wait_for(process, "[1/2] ChaplyginSleigh: wrote", "[2/2] OmniVehicleSpin: gcc")  # built at once
    compilers, deadline = [], time.monotonic() + 60
    while not compilers and time.monotonic() < deadline:  # gcc starts just after the line
        compilers = [p for p in psutil.Process(process.pid).children(recursive=True)
                     if p.name().startswith(("gcc", "cc1"))]
    assert compilers
    time.sleep(0.5)  # cc1 under way
    compilers = [p for p in psutil.Process(process.pid).children(recursive=True) if p.name().startswith(("gcc", "cc1"))]
    process.terminate()
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 143, stderr
    assert stderr.splitlines()[-1] == ("terminated (SIGTERM) while building OmniVehicleSpin; 1 of 2 FMUs built in "
                                       f"{out}")
    psutil.wait_procs(compilers, timeout=10)
    assert not [p for p in compilers if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    assert list(scratch.iterdir()) == [] and sorted(p.name for p in out.iterdir()) == ["ChaplyginSleigh.fmu"]


# --- item 5: verify isolates every case ----------------------------------------------------------------------------

VERIFY_WITH_FMUS = """
import pathlib, sys
import nonholonomic.models as models
models.FMU_DIR = pathlib.Path(sys.argv[1])  # the FMUs of this test, in place of fmus/
from nonholonomic.cli import main
sys.exit(main(sys.argv[2:]))
"""


def test_verify_records_crashed_corrupt_and_missing_fmus_and_runs_the_rest(rumoca_fmus, tmp_path):
    """sphere_bowl's FMU crashes (SIGSEGV at t > 0.25 s), chaplygin_sleigh's is random bytes, disk_straight's is
    missing: each is that case's failure with its reason; paraboloid_paper runs and passes; the report is written."""
    import shutil
    fmus = tmp_path / "fmus"
    fmus.mkdir()
    crashing = crashing_fmu(rumoca_fmus["BallOnSurfaceOfRevolution"], tmp_path / "crashing")
    shutil.make_archive(str(fmus / "BallOnSurfaceOfRevolution"), "zip", crashing)
    (fmus / "BallOnSurfaceOfRevolution.zip").rename(fmus / "BallOnSurfaceOfRevolution.fmu")
    (fmus / "ChaplyginSleigh.fmu").write_bytes(np.random.default_rng(1).bytes(5000))
    shutil.copy(rumoca_fmus["BallOnParaboloid"], fmus / "BallOnParaboloid.fmu")
    out = tmp_path / "results"
    result = subprocess.run([sys.executable, "-c", VERIFY_WITH_FMUS, str(fmus), "verify", "sphere_bowl",
                             "chaplygin_sleigh", "disk_straight", "paraboloid_paper", "--out", str(out)],
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert "3 passed" not in result.stdout and "1 passed, 3 failed" in result.stdout
    table = pd.read_csv(out / "verification.csv").set_index("case")
    assert table["passed"].to_dict() == {"sphere_bowl": False, "chaplygin_sleigh": False, "disk_straight": False,
                                         "paraboloid_paper": True}
    assert table.loc["sphere_bowl", "error"] == "the FMU's binary crashed (SIGSEGV)"
    assert "is not an FMU: not a readable zip archive" in table.loc["chaplygin_sleigh", "error"]
    assert "no FMU for RollingDisk yet" in table.loc["disk_straight", "error"]
    page = (out / "verification.html").read_text()
    assert page.count("Not run: ") == 3 and "1 of 4 cases pass" in page


# --- item 6: the Python API and co-simulation survive a crashing binary ----------------------------------------------

API_SIMULATE = """
import sys
import nonholonomic as nh
try:
    nh.simulate(sys.argv[1], stop_time=1, output_interval=0.01)
except nh.NonholonomicError as e:
    print(type(e).__name__, len(e.partial), e.partial["time"].iloc[-1], str(e), sep="|")
"""


def test_api_simulate_of_a_crashing_binary_raises_with_the_rows(rumoca_fmus, tmp_path):
    """In a separate interpreter (were the binary run in-process, the crash would end it): SimulationFailed with
    every row computed before the crash at t > 0.25 s (0, 0.01, ..., 0.25), the interpreter alive."""
    folder = crashing_fmu(rumoca_fmus[MODEL], tmp_path / "crashing")
    result = subprocess.run([sys.executable, "-c", API_SIMULATE, str(folder)], capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    kind, rows, last, message = result.stdout.strip().split("|")
    assert kind == "SimulationFailed"
    # computed before the crash: every row up to the end of the last step before t = 0.25 s, which is at least
    # 0.23 s (CVODE's steps are at most stop time / 50 = 0.02 s), so 24 rows or more; the rows go out as soon as
    # they are a quarter of those out already (cvode.rows_due): at least 4/5 of them are kept, 20 or more
    assert 20 <= int(rows) <= 26 and float(last) == pytest.approx((int(rows) - 1) * 0.01, rel=1e-12)
    reached = float(re.search(r"after t = (\S+) s", message).group(1))
    assert message.startswith("the FMU's binary crashed (SIGSEGV) after t = ") and float(last) <= reached <= 0.25


def test_cosimulation_with_a_crashing_binary_keeps_the_rows(rumoca_fmus, tmp_path):
    """An FMU component whose binary crashes (t > 0.25 s) ends the run with one error naming it; the rows of the
    communication points before are kept; this process lives on. The project's loop (me) stops at each
    communication point; the co-simulation's CVODE (cs) steps past it and interpolates back, so it may meet the
    crash in the step to 0.25 s already."""
    from nonholonomic.cosim import FmuComponent, FunctionComponent, System
    folder = crashing_fmu(rumoca_fmus[MODEL], tmp_path / "crashing")
    for interface in ("me", "cs"):
        plant = FmuComponent("plant", folder, interface=interface)
        probe = FunctionComponent("probe", lambda t, u: {"y": u["q1"]}, inputs=["q1"], outputs=["y"])
        system = System([plant, probe], [("plant.q1", "probe.q1")])
        with pytest.raises(SimulationFailed) as failure:
            system.run(stop_time=1.0, step=0.05)
        found = re.match(r"co-simulation failed after t = (0\.25|0\.2) s: component plant: the FMU's binary "
                         r"crashed \(SIGSEGV\) in step", str(failure.value))
        assert found and (interface == "cs" or found.group(1) == "0.25"), str(failure.value)
        rows = failure.value.partial["plant"]
        points = round(float(found.group(1)) / 0.05) + 1
        assert rows["time"].tolist() == pytest.approx(np.arange(points) * 0.05, rel=1e-12, abs=1e-15)


# --- item 8: a run that crawls says so ---------------------------------------------------------------------------

def test_a_crawling_run_warns_and_keeps_the_rows_on_ctrl_c(rumoca_fmus, tmp_path):
    """The ball started a million radii from the axis of its paraboloid: the integrator advances about 1e-4 s per
    second of wall time (measured: 14 hours to go for 5 s). Within the first report interval the user is told how
    slow, and Ctrl-C keeps what there is."""
    from nonholonomic.cli import _Progress
    out = tmp_path / "x.csv"
    process = start("simulate", MODEL, "--set", "q1_0=1e6", "--out", str(out), group=False)
    started = time.monotonic()
    seen = wait_for(process, "warning: slow:", timeout=_Progress.REPORT_EVERY * 6)
    # the pace is said after one report interval of wall time (not a speed bound: the first report comes then)
    assert time.monotonic() - started >= _Progress.REPORT_EVERY
    warning = seen[-1]
    pace = float(re.search(r"advanced (\S+) s per second", warning).group(1))
    assert pace * _Progress.SLOW_RUN < 5.0485  # slow by the definition: the rest would need > SLOW_RUN seconds
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130 and "Traceback" not in stderr
    assert re.search(r"interrupted at t = \S+ s; \d+ rows written to", stderr)
    assert pd.read_csv(out)["q1"].iloc[0] == pytest.approx(1e6)


# --- item 13: a case interrupted while its files are written -------------------------------------------------------

def test_interrupted_chapter2_leaves_whole_cases(tmp_path):
    """Ctrl-C while case 2 runs: case 1's files are all there (its record, case1.json, last), none of case 2's,
    no staging folder."""
    process = start("chapter2", "1", "2", "--t-end", "20", "--out", str(tmp_path), group=False)
    wait_for(process, "chapter 2, case 2")
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert stderr.splitlines()[-1] == f"interrupted: the files of the finished cases are in {tmp_path}"
    names = sorted(p.name for p in tmp_path.iterdir())
    assert "case1.json" in names and "case1.csv" in names and not [n for n in names if n.startswith(("case2", "."))]
