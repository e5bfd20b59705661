"""The omni vehicle's sweep on Dask: failures recorded, resume by key (stale, corrupt and edited files are
recomputed), a lost worker recorded, no extracted FMU left behind, Ctrl-C, and every bad option as one line."""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import tempfile
import time
import zipfile

import pandas as pd
import psutil
import pytest

from nonholonomic.cases.omni_vehicle import MasslessLimitCase
from nonholonomic.errors import Interrupted, NonholonomicError
from conftest import sigint_default
from test_cli import CLI, assert_one_line_error, run as run_cli

from nonholonomic.sweep import (SCHEDULER_TIMEOUT, SweepCase, cases, collect, keys, record, run_case, run_sweep,
                                trend_ratios)

TINY = 0.01  # simulated seconds of a case in these tests: the machinery, not the physics




def stamps(folder: pathlib.Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in folder.iterdir() if p.suffix in (".json", ".parquet")}


# --- bad input: one line, before any work --------------------------------------------------------------------

@pytest.mark.parametrize("args, fragments", [
    (["--workers", "0"], ["--workers", "'0' is not a positive integer"]),
    (["--workers", "-1"], ["--workers", "'-1' is not a positive integer"]),
    (["--workers", "two"], ["--workers", "'two' is not an integer"]),
    (["--stop-time", "0"], ["--stop-time", "'0' is not a positive number"]),
    (["--stop-time", "-3"], ["--stop-time", "'-3' is not a positive number"]),
    (["--time-limit", "0"], ["--time-limit", "'0' is not a positive number"]),
    (["--eta", "0"], ["eta = 0 is outside (0, 1/n) = (0, 0.25)"]),
    (["--eta", "0.25"], ["eta = 0.25 is outside (0, 1/n) = (0, 0.25)"]),
    (["--eta", "nan"], ["eta = nan is outside"]),
    (["--eta", "0.0251", "0.0252"], ["differ beyond the case name's two digits"]),
    (["wobble"], ["unknown sweep kind 'wobble'"]),
    (["--scheduler", "notanaddress"], ["--scheduler 'notanaddress' is not a Dask scheduler address"]),
    (["--scheduler", "tcp://host"], ["--scheduler 'tcp://host' is not a Dask scheduler address"]),
    (["--scheduler", "http://host:8786"], ["--scheduler 'http://host:8786' is not a Dask scheduler address"]),
    (["--scheduler", "tcp://host:99999"], ["--scheduler 'tcp://host:99999' is not a Dask scheduler address"]),
])
def test_bad_sweep_option(tmp_path, args, fragments):
    out = tmp_path / "sweep"
    result = run_cli("sweep", *args, "--out", str(out))
    assert_one_line_error(result, *fragments)
    assert not out.exists()  # nothing was started


def test_sweep_output_folder_that_cannot_be_written(tmp_path):
    a_file = tmp_path / "file.txt"
    a_file.write_text("not a folder")
    assert_one_line_error(run_cli("sweep", "--out", str(a_file)), f"cannot write --out {a_file}", "is a file, not a folder")
    assert_one_line_error(run_cli("sweep", "--out", str(a_file / "sweep")), "is a file, not a folder")
    assert_one_line_error(run_cli("sweep", "--out", "/proc/sweep"), "cannot write --out /proc/sweep", "accepts no new files")
    assert a_file.read_text() == "not a folder"


def test_unreachable_scheduler(rumoca_fmus, tmp_path):
    """Nothing listens on port 1: the client gives up after SCHEDULER_TIMEOUT, in one line."""
    out = tmp_path / "sweep"
    result = run_cli("sweep", "spin", "--eta", "0.025", "--stop-time", str(TINY), "--scheduler", "tcp://127.0.0.1:1",
                     "--out", str(out))
    assert_one_line_error(result, "cannot reach the Dask scheduler at tcp://127.0.0.1:1",
                          f"after {SCHEDULER_TIMEOUT:g} s")
    assert not list(out.glob("*.json"))


def test_bad_sweep_arguments_through_the_api(tmp_path):
    todo = cases(("spin",), (0.025,), TINY)
    with pytest.raises(NonholonomicError, match="stop time must be a positive number, got 0"):
        cases(("spin",), (0.025,), 0)
    with pytest.raises(NonholonomicError, match="workers must be a positive integer, got 0"):
        run_sweep(todo, tmp_path, workers=0)
    with pytest.raises(NonholonomicError, match="time limit must be a positive number, got -1"):
        run_sweep(todo, tmp_path, time_limit=-1)
    assert not list(tmp_path.iterdir())


# --- records, resume and keys ----------------------------------------------------------------------------------

def test_sweep_records_failures_resumes_and_shows_the_trend(rumoca_fmus, tmp_path):
    todo = cases(("spin",), (0.025, 0.0025), 0.15)
    broken = [SweepCase("spin", 0.001, 0.0)]  # stop time 0 (not through cases()): fails in simulate
    table = run_sweep(todo + broken, tmp_path, progress=False, workers=1)
    assert list(table["status"]) == ["ok", "ok", "failed"]
    assert "stop time must be a positive number" in json.loads((tmp_path / f"{broken[0].name}.json").read_text())["error"]
    assert list(pd.read_csv(tmp_path / "sweep.csv")["status"]) == ["ok", "ok", "failed"]
    # resume: finished cases are not recomputed, a removed one is
    before = stamps(tmp_path)
    (tmp_path / f"{todo[1].name}.json").unlink()
    again = run_sweep(todo, tmp_path, progress=False, workers=1)
    after = stamps(tmp_path)
    assert after[f"{todo[0].name}.parquet"] == before[f"{todo[0].name}.parquet"]
    assert after[f"{todo[1].name}.parquet"] != before[f"{todo[1].name}.parquet"]
    assert list(again["status"]) == ["ok", "ok"]
    # lighter rollers slip less (Gerasimov 2018, ch. 3: the motion tends to the massless-roller one)
    assert trend_ratios(again, "mean slip [m/s]")["spin"][0] < 0.9
    frame = pd.read_parquet(tmp_path / f"{todo[0].name}.parquet")
    assert {"x", "y", "psi", "x_ref", "psi_ref", "slip[1]", "contactRoller[1]"} <= set(frame.columns)
    assert collect(tmp_path, todo)["case"].tolist() == [c.name for c in todo]


def test_sweep_case_over_its_time_limit_is_recorded_as_failed(rumoca_fmus):
    case = SweepCase("straight", 2.5e-3, 0.05)
    metrics, frame = run_case(case, str(rumoca_fmus["OmniVehicleStraight"]), time_limit=1e-9)
    assert frame is None and metrics["status"] == "failed" and "over the time limit of 1e-09 s" in metrics["error"]
    metrics, frame = run_case(case, str(rumoca_fmus["OmniVehicleStraight"]), time_limit=600)
    assert metrics["status"] == "ok" and frame["time"].iloc[-1] == pytest.approx(0.05)


def test_key_holds_everything_that_determines_a_case(rumoca_fmus, tmp_path):
    case = cases(("spin",), (0.025,), TINY)[0]
    key = keys([case])[case.name]
    assert key == {"format": key["format"], "model": "OmniVehicleSpin", "parameters": {"eta": 0.025},
                   "fmu_sha256": hashlib.sha256(rumoca_fmus["OmniVehicleSpin"].read_bytes()).hexdigest(),
                   "stop_time": TINY, "output_interval": 0.001, "tolerance": 1e-6}
    run_sweep([case], tmp_path, progress=False, workers=1)
    rec = json.loads((tmp_path / f"{case.name}.json").read_text())
    assert rec["key"] == key
    assert rec["key_sha256"] == hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()
    assert rec["parquet_sha256"] == hashlib.sha256((tmp_path / f"{case.name}.parquet").read_bytes()).hexdigest()
    assert record(tmp_path, case, key) == rec
    for changed in ({"fmu_sha256": "0" * 64}, {"stop_time": 2 * TINY}, {"tolerance": 1e-8},
                    {"output_interval": 1e-4}, {"parameters": {"eta": 0.0025}}, {"format": key["format"] - 1}):
        assert record(tmp_path, case, {**key, **changed}) is None, changed


def test_changed_stop_time_or_rebuilt_fmu_recomputes(rumoca_fmus, tmp_path, monkeypatch):
    short = cases(("spin",), (0.025,), TINY)
    run_sweep(short, tmp_path, progress=False, workers=1)
    first = stamps(tmp_path)
    run_sweep(short, tmp_path, progress=False, workers=1)  # same key: kept
    assert stamps(tmp_path) == first
    longer = cases(("spin",), (0.025,), 2 * TINY)  # same case name, another stop time
    table = run_sweep(longer, tmp_path, progress=False, workers=1)
    assert table["stop_time"].tolist() == [2 * TINY]
    assert pd.read_parquet(tmp_path / f"{longer[0].name}.parquet")["time"].iloc[-1] == pytest.approx(2 * TINY)
    # the same model rebuilt: other bytes (here only the zip's comment), another checksum, recomputed
    rebuilt = tmp_path / "rebuilt" / "OmniVehicleSpin.fmu"
    rebuilt.parent.mkdir()
    shutil.copy(rumoca_fmus["OmniVehicleSpin"], rebuilt)
    with zipfile.ZipFile(rebuilt, "a") as z:
        z.comment = b"rebuilt"
    monkeypatch.setattr("nonholonomic.fmu.fmu_path", lambda model: rebuilt)
    second = stamps(tmp_path)
    rebuilt_table = run_sweep(longer, tmp_path, progress=False, workers=1)
    assert stamps(tmp_path)[f"{longer[0].name}.parquet"] != second[f"{longer[0].name}.parquet"]
    assert rebuilt_table["key_sha256"].iloc[0] != table["key_sha256"].iloc[0]
    assert json.loads((tmp_path / f"{longer[0].name}.json").read_text())["key"]["fmu_sha256"] == \
        hashlib.sha256(rebuilt.read_bytes()).hexdigest()


def test_half_written_and_corrupt_files_are_recomputed(rumoca_fmus, tmp_path):
    todo = cases(("spin",), (0.025, 0.0025, 0.00025), TINY)
    run_sweep(todo, tmp_path, progress=False, workers=1)
    originals = {c.name: pd.read_parquet(tmp_path / f"{c.name}.parquet") for c in todo}
    a, b, c = (case.name for case in todo)
    text = (tmp_path / f"{a}.json").read_text()
    (tmp_path / f"{a}.json").write_text(text[: len(text) // 2])  # half-written record: not JSON
    data = (tmp_path / f"{b}.parquet").read_bytes()
    (tmp_path / f"{b}.parquet").write_bytes(data[: len(data) // 2])  # half-written Parquet: unreadable
    (tmp_path / f"{c}.json").write_text("[1, 2")  # garbage
    before = stamps(tmp_path)
    table = run_sweep(todo, tmp_path, progress=False, workers=1)
    assert list(table["status"]) == ["ok"] * 3
    after = stamps(tmp_path)
    for name in (a, b, c):
        assert after[f"{name}.parquet"] != before[f"{name}.parquet"]
        frame = pd.read_parquet(tmp_path / f"{name}.parquet")
        # the same computation again: equal up to the integration error (rtol 1e-6 on a motion of ~1 m, rad)
        assert frame["psi"].to_numpy() == pytest.approx(originals[name]["psi"].to_numpy(), abs=1e-5)


def test_massless_limit_case_does_not_trust_edited_or_stale_files(rumoca_fmus, tmp_path):
    """verify omni_massless_limit reuses its folder's cases only if written for the same key and unedited."""
    case = MasslessLimitCase()
    case.etas, case.stop_times = (0.025, 0.0025), {"spin": TINY, "straight": TINY}
    case.run(tmp_path)
    folder = tmp_path / case.name
    edited_metric, edited_signal, stale, kept = "spin_eta2.5e-02", "spin_eta2.5e-03", "straight_eta2.5e-02", \
        "straight_eta2.5e-03"
    rec = json.loads((folder / f"{edited_metric}.json").read_text())
    true_slip = rec["mean slip [m/s]"]
    rec["mean slip [m/s]"] = 1e-30  # a better number, in a record that still parses
    (folder / f"{edited_metric}.json").write_text(json.dumps(rec))
    frame = pd.read_parquet(folder / f"{edited_signal}.parquet")
    frame["x"] += 1.0
    frame.to_parquet(folder / f"{edited_signal}.parquet", index=False)
    rec = json.loads((folder / f"{stale}.json").read_text())
    rec["key"]["stop_time"] = 99.0  # written for another run (seal recomputed as a writer would)
    from nonholonomic.sweep import _digest
    rec["record_sha256"] = _digest({k: v for k, v in rec.items() if k != "record_sha256"})
    (folder / f"{stale}.json").write_text(json.dumps(rec))
    before = stamps(folder)
    result = case.run(tmp_path)
    after = stamps(folder)
    for name in (edited_metric, edited_signal, stale):
        assert after[f"{name}.json"] != before[f"{name}.json"], name
    assert after[f"{kept}.json"] == before[f"{kept}.json"] and after[f"{kept}.parquet"] == before[f"{kept}.parquet"]
    table = pd.read_csv(folder / "sweep.csv").set_index("case")
    # recomputed: the same computation again, equal up to the integration error (rtol 1e-6)
    assert table.loc[edited_metric, "mean slip [m/s]"] == pytest.approx(true_slip, rel=1e-3)
    assert pd.read_parquet(folder / f"{edited_signal}.parquet")["x"].abs().max() < 1e-3  # spinning in place
    assert (table["stop_time"] == TINY).all()
    assert next(c for c in result.checks if c.name == "cases failed").value == 0


# --- lost workers, clean-up, Ctrl-C -----------------------------------------------------------------------------

def test_lost_worker_is_recorded_and_the_rest_goes_on(rumoca_fmus, tmp_path, monkeypatch):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))  # the workers' temporary and work folders
    monkeypatch.setattr("tempfile.tempdir", str(scratch))
    todo = cases(("spin",), (0.025, 0.0025), TINY)

    def crash_on_heavy_rollers(case, fmu, time_limit):  # sent to the worker by value (a local function)
        import os
        import signal
        from nonholonomic.sweep import _unzipped, run_case
        if case.eta == 0.025:
            with _unzipped(fmu):  # with its copy of the FMU extracted, the worker dies as a crash of the FMU's
                os.kill(os.getpid(), signal.SIGKILL)  # binary or the OOM killer would kill it
        return run_case(case, fmu, time_limit)

    out = tmp_path / "out"
    table = run_sweep(todo, out, progress=False, workers=1, run=crash_on_heavy_rollers).set_index("case")
    assert table.loc[todo[0].name, "status"] == "failed"
    assert table.loc[todo[0].name, "error"].startswith("worker lost: the worker process died while running this case")
    assert table.loc[todo[1].name, "status"] == "ok"  # the restarted worker ran the rest
    csv = pd.read_csv(out / "sweep.csv").set_index("case")
    assert csv.loc[todo[0].name, "error"].startswith("worker lost:")
    # no extracted FMU (nor anything else but Dask's lock files) left in the temporary folder
    left = [p for p in scratch.rglob("*") if p.is_file() and not p.name.endswith(".lock")]
    assert left == [] and not list(scratch.glob("nh-*"))
    # a rerun tries the lost case again
    again = run_sweep(todo, out, progress=False, workers=1)
    assert list(again["status"]) == ["ok", "ok"]


def test_sweep_on_an_existing_scheduler(rumoca_fmus, tmp_path):
    """--scheduler: the cases go to a running cluster's workers (two threads: both cases handed out at once)."""
    import logging
    from distributed import LocalCluster
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=True, dashboard_address=":0",
                      silence_logs=logging.CRITICAL) as cluster:
        todo = cases(("spin", "straight"), (0.025,), TINY)
        table = run_sweep(todo, tmp_path, scheduler=cluster.scheduler_address, progress=False)
        assert list(table["status"]) == ["ok", "ok"]
        assert [record(tmp_path, c, keys(todo)[c.name])["status"] for c in todo] == ["ok", "ok"]


def test_sweep_leaves_no_extracted_fmu(rumoca_fmus, tmp_path):
    # a short TMPDIR: the workers' fork server puts its Unix socket there, and a socket's path has at most 107
    # bytes (pytest's tmp_path of a long test name, under xdist, can be longer: see the next test)
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="nh-test-"))
    try:
        out = tmp_path / "out"
        result = run_cli("sweep", "spin", "straight", "--eta", "0.025", "--stop-time", str(TINY), "--workers", "2",
                         "--out", str(out), env={**os.environ, "TMPDIR": str(scratch)})
        assert result.returncode == 0, result.stderr
        assert "2 finished, 0 failed" in result.stdout
        left = [p for p in scratch.rglob("*") if p.is_file() and not p.name.endswith(".lock")]
        assert left == [] and not list(scratch.glob("nh-*"))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def test_a_temporary_folder_too_long_for_the_workers_socket_is_one_line(rumoca_fmus, tmp_path):
    scratch = tmp_path / ("t" * 100)
    scratch.mkdir()
    result = run_cli("sweep", "spin", "--eta", "0.025", "--stop-time", str(TINY), "--workers", "2",
                     "--out", str(tmp_path / "out"), env={**os.environ, "TMPDIR": str(scratch)})
    assert_one_line_error(result, "has too long a path for the Dask workers' socket", "set TMPDIR")


def test_a_stop_while_the_cluster_closes_is_a_stop_with_every_case_kept(rumoca_fmus, tmp_path, monkeypatch):
    """Ctrl-C or SIGTERM that arrives after the last run, while the cluster closes: the cluster is still closed
    (at once), and the sweep says it was stopped with what it kept, not a bare "interrupted"."""
    from nonholonomic import dask_runs
    real_close, calls = dask_runs._close, []

    def close_stopped_once(cluster, at_once):
        calls.append(at_once)
        if len(calls) == 1:
            raise KeyboardInterrupt  # where the signal's handler raises it
        real_close(cluster, at_once)

    monkeypatch.setattr(dask_runs, "_close", close_stopped_once)
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    todo = cases(("spin",), (0.025,), TINY)
    with pytest.raises(Interrupted, match=re.escape(f"interrupted: 1 of 1 cases finished, kept in {tmp_path}")):
        run_sweep(todo, tmp_path, progress=False, workers=1)
    assert calls == [False, True]
    assert json.loads((tmp_path / f"{todo[0].name}.json").read_text())["status"] == "ok"
    # no worker or nanny left; multiprocessing's fork server and resource tracker live as long as this process
    left = [p for p in psutil.Process().children(recursive=True) if p.pid not in before and p.is_running()
            and p.status() != psutil.STATUS_ZOMBIE and "from multiprocessing." not in " ".join(p.cmdline())]
    assert [p.cmdline() for p in left] == []


@pytest.mark.parametrize("stop, code, said", [(signal.SIGINT, 130, "interrupted"),
                                              (signal.SIGTERM, 143, "terminated (SIGTERM)")])
def test_ctrl_c_or_sigterm_keeps_finished_cases_and_closes_the_cluster(rumoca_fmus, tmp_path, stop, code, said):
    """SIGINT to the whole process group, as Ctrl-C in a terminal sends it (the workers ignore it), or SIGTERM to
    it, as a shell's kill or a service manager sends it (the workers get it too): the sweep stops the workers, keeps
    the finished cases, writes their table, reports no leaked resource and says so in one line."""
    out = tmp_path / "out"
    # moving straight, the light rollers (1e-5/n) take about 2.4 times the wall time of the heavy ones (1e-1/n),
    # both on a worker of their own (measured: 3.9 s and 9.1 s for 10 s): over 20 s the light case is still running
    # about 10 s after the heavy case is done, on a busy machine longer (a stop that comes after both is said as
    # "2 of 2": run_all's clean-up)
    proc = subprocess.Popen([*CLI, "sweep", "straight", "--eta", "0.025", "2.5e-6", "--stop-time", "20", "--workers",
                             "2", "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=sigint_default)
    try:
        deadline = time.monotonic() + 300
        while not (out / "straight_eta2.5e-02.json").is_file() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
        workers = psutil.Process(proc.pid).children(recursive=True)
        assert len(workers) >= 2
        os.killpg(proc.pid, stop)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == code, stderr
    assert "Traceback" not in stderr + stdout and "leaked" not in stderr
    assert [l for l in stderr.splitlines() if l.startswith(("interrupted", "terminated", "error"))] == \
        [f"{said}: 1 of 2 cases finished, kept in {out}"]
    assert pd.read_csv(out / "sweep.csv")["case"].tolist() == ["straight_eta2.5e-02"]
    todo = cases(("straight",), (0.025, 2.5e-6), 20.0)
    finished = json.loads((out / f"{todo[0].name}.json").read_text())
    assert finished["status"] == "ok" and record(out, todo[0], finished["key"]) == finished  # intact
    assert not (out / f"{todo[1].name}.json").exists()
    psutil.wait_procs(workers, timeout=10)
    assert not [w for w in workers if w.is_running() and w.status() != psutil.STATUS_ZOMBIE]


def test_failed_case_says_why_on_the_console(rumoca_fmus, tmp_path):
    """A case over its time limit: the table shows `failed`, and a line below it says why."""
    out = tmp_path / "out"
    result = run_cli("sweep", "straight", "--eta", "2.5e-6", "--stop-time", "2", "--time-limit", "0.5", "--workers",
                     "1", "--out", str(out))
    assert result.returncode == 1, result.stderr
    [line] = [l for l in result.stdout.splitlines() if l.startswith("failed: ")]
    assert re.fullmatch(r"failed: straight_eta2\.5e-06: .*stopped at t = \S+ s: over the time limit of 0\.5 s of "
                        r"wall time", line), line
    assert "0 finished, 1 failed" in result.stdout
