"""Studies beyond one machine (issue 27, item 2): a real Dask scheduler and two worker processes started as a user
starts them (``dask scheduler``, ``dask worker``), on loopback; one worker killed while it holds a run; that run
recorded as lost, the others finished; a rerun of the same command computes only the lost run. And the
scheduler's address: unreachable or malformed, one line."""

from __future__ import annotations

import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest

import nonholonomic as nh
from nonholonomic.build import build
from nonholonomic.dask_runs import SCHEDULER_TIMEOUT
from nonholonomic.models import FMU_DIR, get_model
from test_cli import CLI, assert_one_line_error, run as run_cli

DASK = pathlib.Path(sys.executable).parent / "dask"  # the venv's own: the same package versions as the client
# the rolling disk over 500 simulated seconds at its own rtol 1e-10: about 2 s of CPU per run on this machine
# (0.0034 CPU s per simulated s, docs/tippe_top.md; 1.1 s of wall time for 300 s measured under load), long
# enough to kill a worker while it holds one, and real work: no sleep stands in for a computation
STOP_TIME, OUTPUT_INTERVAL = "500", "0.1"
THETAS = (1.2, 1.3, 1.4)
WAIT = 120.0  # seconds: the longest any single wait may take on a loaded machine before the test gives up


@pytest.fixture(scope="module")
def disk_fmu() -> pathlib.Path:
    """fmus/RollingDisk.fmu, built (about 10 s) where not up to date: only the one FMU this file needs, not the
    24 of the ``rumoca_fmus`` fixture."""
    import fcntl
    fmu = get_model("RollingDisk").fmu
    FMU_DIR.mkdir(exist_ok=True)
    with open(FMU_DIR / ".tests-build.lock", "w") as lock:  # the conftest's lock: one builder at a time
        fcntl.flock(lock, fcntl.LOCK_EX)
        build(["RollingDisk"], backend="rumoca")
    return fmu


def _until(what: str, condition, timeout: float = WAIT, processes=()):
    """Poll ``condition`` until it returns something true (returned), failing after ``timeout`` seconds or as soon
    as one of ``processes`` has ended."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        ended = [p.args for p in processes if p.poll() is not None]
        assert not ended, f"while waiting for {what}: ended early: {ended}"
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {timeout:g} s")


class Cluster:
    """A ``dask scheduler`` and ``dask worker`` processes on 127.0.0.1, each in its own process group (a kill
    reaches the process and anything it started), all ended by :meth:`close`."""

    def __init__(self, folder: pathlib.Path):
        self.folder, self.workers, self.logs = folder, {}, []
        # the workers import the same nonholonomic as this test (a worktree's, not another installed copy)
        package_root = str(pathlib.Path(nh.__file__).resolve().parents[1])
        self.env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            [package_root, *filter(None, [os.environ.get("PYTHONPATH")])])}
        # the scheduler's own settings, as a user starts it: among them three retries of a run whose worker died
        self.env.pop("DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES", None)
        info = folder / "scheduler.json"
        # port 0: a free port chosen by the system (other tests or engineers may hold 8786); no dashboard (8787);
        # --idle-timeout: a scheduler left behind by a killed test run ends by itself
        self.scheduler = self._start("scheduler", [str(DASK), "scheduler", "--host", "127.0.0.1", "--port", "0",
                                                   "--no-dashboard", "--scheduler-file", str(info),
                                                   "--idle-timeout", "600"])
        try:
            self.address = _until("the scheduler's address", lambda: _read_address(info), processes=[self.scheduler])
        except BaseException:
            self.close()
            raise

    def _start(self, name: str, command: list[str]) -> subprocess.Popen:
        log = open(self.folder / f"{name}.log", "w")
        self.logs.append(log)
        return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=self.env, cwd=self.folder,
                                start_new_session=True)

    def add_worker(self, name: str) -> subprocess.Popen:
        """One worker process of one thread, without a nanny: a nanny would restart a killed worker, and the test
        wants it to stay dead, as a machine that went away does. --death-timeout: it ends by itself if the
        scheduler goes away."""
        work = self.folder / name
        work.mkdir()
        self.workers[name] = self._start(name, [str(DASK), "worker", self.address, "--name", name, "--nthreads",
                                                "1", "--nworkers", "1", "--no-nanny", "--no-dashboard",
                                                "--local-directory", str(work), "--death-timeout", "60"])
        return self.workers[name]

    def close(self) -> None:
        for proc in [*self.workers.values(), self.scheduler]:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in [*self.workers.values(), self.scheduler]:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
        for log in self.logs:
            log.close()

    def log(self, name: str) -> str:
        return (self.folder / f"{name}.log").read_text()


def _read_address(info: pathlib.Path) -> str | None:
    try:
        return json.loads(info.read_text())["address"]
    except (OSError, ValueError, KeyError):  # not yet written, or half-written
        return None


@pytest.fixture
def cluster(tmp_path):
    folder = tmp_path / "cluster"
    folder.mkdir()
    cluster = Cluster(folder)
    try:
        yield cluster
    finally:
        cluster.close()


def _study_command(address: str, out: pathlib.Path) -> list[str]:
    return [*CLI, "study", "RollingDisk", "--vary", "theta_0=" + ",".join(map(str, THETAS)), "--metric",
            "final energy", "--metric", "min energy", "--stop-time", STOP_TIME, "--output-interval", OUTPUT_INTERVAL,
            "--scheduler", address, "--out", str(out)]


@pytest.mark.slow
def test_a_worker_killed_mid_run_loses_only_its_run_and_a_rerun_computes_it(disk_fmu, cluster, tmp_path):
    from distributed import Client
    out = tmp_path / "study"
    for name in ("w1", "w2"):
        cluster.add_worker(name)
    watcher = Client(cluster.address, timeout=30)  # the test's own view of the scheduler: who runs what
    study = None
    try:
        _until("two workers", lambda: len(watcher.scheduler_info()["workers"]) == 2,
               processes=list(cluster.workers.values()))
        study = subprocess.Popen(_study_command(cluster.address, out), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, start_new_session=True)

        def held():  # worker name -> the key of the run it is computing, once both are busy
            names = {a: w["name"] for a, w in watcher.scheduler_info()["workers"].items()}
            busy = {names[a]: keys[0] for a, keys in watcher.processing().items() if keys and a in names}
            return busy if len(busy) == 2 else None

        victim_key = _until("both workers holding a run", held, processes=[study])["w1"]
        os.killpg(cluster.workers["w1"].pid, signal.SIGKILL)  # as a machine that goes away, or the OOM killer
        stdout, stderr = study.communicate(timeout=WAIT)
    finally:
        if study is not None and study.poll() is None:
            os.killpg(study.pid, signal.SIGKILL)
        watcher.close()
    assert cluster.workers["w1"].wait(timeout=10) == -signal.SIGKILL  # dead, and no nanny brought it back

    # the run w1 held is recorded as lost; the other two finished on w2
    assert study.returncode == 1, stderr
    assert "Traceback" not in stdout + stderr
    table = pd.read_csv(out / "study.csv").set_index("run")
    lost = victim_key.split("-")[1]  # keys are nh-<run>-<pid of the client>
    assert table.loc[lost, "status"] == "failed"
    assert table.loc[lost, "error"].startswith("worker lost: the worker process died while running this run (tcp://")
    assert f"failed: {lost}: worker lost: " in stdout
    finished = [r for r in table.index if r != lost]
    assert len(finished) == 2 and (table.loc[finished, "status"] == "ok").all()
    assert not (out / f"{lost}.parquet").exists()
    record = json.loads((out / f"{lost}.json").read_text())
    assert record["status"] == "failed" and record["error"] == table.loc[lost, "error"]
    # written by the client, into --out: nothing of the runs in the workers' folders but their extracted FMU
    for name in ("w1", "w2"):
        assert not list((cluster.folder / name).rglob("run_*")), name
    before = {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in out.glob("run_*")
              if not p.name.startswith(lost)}
    assert len(before) == 4  # the finished runs' .json and .parquet

    # the same command again, with the worker left: only the lost run is computed
    again = subprocess.run(_study_command(cluster.address, out), capture_output=True, text=True, timeout=WAIT)
    assert again.returncode == 0, again.stderr
    assert f"3 runs, 2 on disk for this key, 1 to compute" in again.stderr
    assert {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in out.glob("run_*")
            if not p.name.startswith(lost)} == before  # the finished runs untouched
    table = pd.read_csv(out / "study.csv").set_index("run")
    assert (table["status"] == "ok").all() and len(table) == 3
    theta = float(table.loc[lost, "theta_0"])

    # the rerun is the run itself: the same FMU, settings and integrator in this process give the same numbers bit
    # for bit (no tolerance: a difference would mean another FMU, other parameters or settings reached the worker)
    serial = nh.simulate("RollingDisk", {"theta_0": theta}, stop_time=float(STOP_TIME),
                         output_interval=float(OUTPUT_INTERVAL))
    pd.testing.assert_frame_equal(pd.read_parquet(out / f"{lost}.parquet"), serial, check_exact=True)
    assert table.loc[lost, "final energy"] == serial["energy"].iloc[-1]
    assert table.loc[lost, "min energy"] == serial["energy"].min()
    # and it is the physics: a disk rolling without slip keeps its energy; at rtol 1e-10 the drift over these 500 s
    # measured 1.4e-8 to 2.4e-8 relative for the three angles: 1e-6 is a wide bound that a wrong run would break
    energy = serial["energy"].to_numpy()
    assert np.abs(energy - energy[0]).max() <= 1e-6 * energy[0]


def test_a_study_waits_for_workers_and_says_so(disk_fmu, cluster, tmp_path):
    """A scheduler without workers: the study says it waits (one line naming the address), and runs as soon as one
    joins."""
    out = tmp_path / "study"
    process = subprocess.Popen([*CLI, "study", "RollingDisk", "--vary", "theta_0=1.2,1.3", "--stop-time", "0.1",
                                "--metric", "final energy", "--scheduler", cluster.address, "--out", str(out)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        seen = []
        for line in process.stderr:
            seen.append(line)
            if line.startswith("waiting for workers"):
                break
        assert seen[-1].strip() == (f"waiting for workers: the scheduler at {cluster.address} has none yet (on each "
                                    f"machine: dask worker {cluster.address})"), "".join(seen)
        cluster.add_worker("late")
        _, stderr = process.communicate(timeout=WAIT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, stderr
    table = pd.read_csv(out / "study.csv")
    assert table["status"].tolist() == ["ok", "ok"]
    # the late worker's runs are the runs themselves: the same FMU and settings here give the same numbers bit for bit
    for theta, energy in zip(table["theta_0"], table["final energy"]):
        serial = nh.simulate("RollingDisk", {"theta_0": float(theta)}, stop_time=0.1)
        assert energy == serial["energy"].iloc[-1]


@pytest.fixture
def silent_port():
    """A port on 127.0.0.1 that accepts connections (the kernel does, into the listen backlog) and never answers:
    another program, or a stopped scheduler. Dask's client would wait on its handshake until the connection
    drops."""
    import socket
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        yield listener.getsockname()[1]


@pytest.mark.parametrize("address, fragment", [
    ("tcp://127.0.0.1:1", f"Timed out trying to connect to tcp://127.0.0.1:1 after {SCHEDULER_TIMEOUT:g} s"),
    ("silent", f"it accepted the connection but did not answer as a Dask scheduler within {SCHEDULER_TIMEOUT + 2:g} s"),
], ids=["refused", "silent"])
def test_unreachable_scheduler_is_one_line(disk_fmu, tmp_path, silent_port, address, fragment):
    """Nothing listens on port 1 (refused), or a listener says nothing: one line within seconds, before any run."""
    address = f"tcp://127.0.0.1:{silent_port}" if address == "silent" else address
    out = tmp_path / "study"
    started = time.monotonic()
    result = run_cli("study", "RollingDisk", "--vary", "theta_0=1.2,1.3", "--stop-time", "0.1", "--scheduler",
                     address, "--out", str(out))
    assert_one_line_error(result, f"cannot reach the Dask scheduler at {address}: {fragment}")
    assert time.monotonic() - started < SCHEDULER_TIMEOUT + 60  # its seconds and the command's start, under load
    assert not list(out.glob("run_*"))


def test_ucx_scheduler_address_is_one_line(disk_fmu, tmp_path):
    """ucx:// is no longer one of distributed's own protocols (its module is a stub that fails with a TypeError):
    said before any connection, as the other malformed addresses (test_study, test_sweep)."""
    address = "ucx://127.0.0.1:8786"
    result = run_cli("study", "RollingDisk", "--vary", "theta_0=1.2,1.3", "--scheduler", address, "--out",
                     str(tmp_path / "study"))
    assert_one_line_error(result, f"--scheduler {address!r} is not a Dask scheduler address like tcp://host:8786")
    assert not (tmp_path / "study").exists()
