"""The omni-wheel vehicle's sweep over the rollers' mass (Gerasimov 2018, ch. 3), run on Dask.

Each case simulates the 16-body vehicle FMU (``OmniVehicleSpin`` or ``OmniVehicleStraight``) at one roller
mass fraction eta and compares it with the massless-roller nonholonomic model
(:mod:`nonholonomic.references.omni_massless`): the path of the centre, the heading, and the slip at the
contacts. As eta tends to zero the discrepancy must shrink.

The cases run on a Dask cluster: a local one on this machine by default, or an existing scheduler whose
address the user gives. The FMU's bytes go to the workers with the cases; each worker extracts its own copy
once, into its Dask work folder (removed when the worker closes). Every case is written to disk as it
completes (``<case>.parquet`` with the signals, then ``<case>.json``, the record, both under a temporary
name renamed into place); a case that fails, whose worker is lost or that runs over its time limit is
recorded with ``status: failed`` and the rest goes on.

A record holds the case's key, everything that determines its result (:func:`case_key`: model, sha256 of
the FMU file, parameters, stop time, output interval, tolerance, record format), the sha256 of its Parquet
file and a seal over the whole record. A rerun skips a case only if its record is intact, finished, written
for the same key and its Parquet file is the one written with it; anything else (another stop time, a
rebuilt FMU, a half-written, corrupt or edited file) is recomputed.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import io
import json
import logging
import math
import os
import pathlib
import shutil
import signal
import tempfile
import threading
import zipfile

import numpy as np
import pandas as pd

from .errors import Interrupted, NonholonomicError
from .paths import check_writable_dir

N_WHEELS, N_ROLLERS = 3, 4
ETAS = tuple(10.0 ** -k / N_ROLLERS for k in range(1, 7))  # 1e-1/n ... 1e-6/n
# vehicle data of the Modelica example (Vehicles.OmniVehicle defaults)
VEHICLE = dict(R_p=0.15, R_w=0.05, m_p=1.0, m_w=0.15)
KINDS = {  # model, initial velocity (world), angular velocity, default span
    "spin": ("OmniVehicleSpin", (0.0, 0.0), 1.0, 3.0),
    "straight": ("OmniVehicleStraight", (1.0, 0.0), 0.0, 1.5),
}
# version of the records and of what run_case computes: raise it when either changes, so that old records
# are recomputed rather than mixed with new ones
RECORD_FORMAT = 2
SCHEDULER_TIMEOUT = 5.0  # seconds to reach a given scheduler before giving up


@dataclasses.dataclass(frozen=True)
class SweepCase:
    kind: str
    eta: float
    stop_time: float
    output_interval: float = 0.001
    tolerance: float = 1e-6

    @property
    def name(self) -> str:
        return f"{self.kind}_eta{self.eta:.1e}"

    @property
    def model(self) -> str:
        return KINDS[self.kind][0]


def _positive(what: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < math.inf:
        raise NonholonomicError(f"{what} must be a positive number, got {value!r}")
    return float(value)


def cases(kinds=("spin", "straight"), etas=ETAS, stop_time: float | None = None) -> list[SweepCase]:
    if stop_time is not None:
        stop_time = _positive("stop time", stop_time)
    out = {}
    for kind in kinds:
        if kind not in KINDS:
            raise NonholonomicError(f"unknown sweep kind '{kind}' (known: {', '.join(KINDS)})")
        for eta in etas:
            if not 0 < eta < 1 / N_ROLLERS:
                raise NonholonomicError(f"eta = {eta:g} is outside (0, 1/n) = (0, {1 / N_ROLLERS:g}): "
                                        "the rollers would outweigh their wheel")
            # the slip transients at roller changes shorten with the roller's mass: the lightest are sampled finer
            case = SweepCase(kind, float(eta), stop_time or KINDS[kind][3], 1e-3 if eta >= 1e-6 else 1e-4)
            if out.get(case.name, case) != case:  # one file per case name
                raise NonholonomicError(f"eta = {out[case.name].eta!r} and {eta!r} differ beyond the case name's "
                                        f"two digits ({case.name})")
            out[case.name] = case
    return list(out.values())


def massless_model():
    """The massless-roller model of the Modelica vehicle (its defaults): the wheels' whole mass in their hubs
    (thin disks), the platform a thin disk (I_p[3] = m_p R_p^2/2)."""
    from .references.omni_massless import OmniMassless
    v = VEHICLE
    m = v["m_p"] + N_WHEELS * v["m_w"]
    inertia = v["m_p"] * v["R_p"] ** 2 / 2 + N_WHEELS * v["m_w"] * (v["R_w"] ** 2 / 4 + v["R_p"] ** 2)
    return OmniMassless.symmetric(N=N_WHEELS, R=v["R_p"], h=v["R_w"], I_w=v["m_w"] * v["R_w"] ** 2 / 2, m=m,
                                  I=inertia, delta=math.pi / 2)


def massless_reference(kind: str, t: np.ndarray) -> pd.DataFrame:
    """The massless-roller model with the vehicle's masses, from the initial state of ``kind``."""
    _, (vx, vy), omega, _ = KINDS[kind]
    return massless_model().simulate((0.0, 0.0, 0.0, vx, vy, omega), t)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _digest(record: dict) -> str:
    return _sha256(json.dumps(record, sort_keys=True).encode())


def case_key(case: SweepCase, fmu_sha256: str) -> dict:
    """Everything that determines a case's result."""
    return {"format": RECORD_FORMAT, "model": case.model, "fmu_sha256": fmu_sha256, "parameters": {"eta": case.eta},
            "stop_time": case.stop_time, "output_interval": case.output_interval, "tolerance": case.tolerance}


def _fmus(todo: list[SweepCase]) -> dict[str, bytes]:
    """The bytes of each model's FMU, read once (the key's checksum and the workers' copies are of the same
    bytes, even if the file is rebuilt meanwhile); eta checked against the FMU's bounds."""
    from .fmu import fmu_path
    from .simulate import check_parameters
    data = {}
    for c in todo:
        path = fmu_path(c.model)
        check_parameters(path, {"eta": c.eta})
        if c.model not in data:
            data[c.model] = path.read_bytes()
    return data


def keys(todo: list[SweepCase], fmus: dict[str, bytes] | None = None) -> dict[str, dict]:
    """Each case's key (name -> :func:`case_key`) for the FMUs' bytes (default: the files as they are now)."""
    sums = {model: _sha256(data) for model, data in (fmus or _fmus(todo)).items()}
    return {c.name: case_key(c, sums[c.model]) for c in todo}


def record(out_dir: pathlib.Path, case: SweepCase, key: dict) -> dict | None:
    """The case's record if it was written for ``key`` and is intact: readable, unedited (its seal), and for a
    finished case with its Parquet file the one written with it; else None (the case is to be computed)."""
    try:
        rec = json.loads((out_dir / f"{case.name}.json").read_text())
        if not isinstance(rec, dict) or rec.get("key") != key:
            return None
        if rec.get("record_sha256") != _digest({k: v for k, v in rec.items() if k != "record_sha256"}):
            return None
        if rec.get("status") == "ok" and rec.get("parquet_sha256") != _sha256(
                (out_dir / f"{case.name}.parquet").read_bytes()):
            return None
    except (OSError, ValueError):  # missing, unreadable, half-written or not JSON
        return None
    return rec


def _write_atomic(path: pathlib.Path, data: bytes) -> None:
    """Write under a temporary name and rename: a reader sees the old file or the whole new one."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _write(out_dir: pathlib.Path, case: SweepCase, key: dict, metrics: dict, frame: pd.DataFrame | None) -> None:
    """Write a case: the Parquet file first, then the record that names its checksum (so the record on disk
    always describes the newest Parquet file or none)."""
    rec = {**metrics, "key": key, "key_sha256": _digest(key)}
    if frame is not None:
        buffer = io.BytesIO()
        frame.to_parquet(buffer, index=False)
        _write_atomic(out_dir / f"{case.name}.parquet", buffer.getvalue())
        rec["parquet_sha256"] = _sha256(buffer.getvalue())
    rec["record_sha256"] = _digest(rec)
    _write_atomic(out_dir / f"{case.name}.json", json.dumps(rec, indent=1).encode())


def _failure(case: SweepCase, error: str) -> dict:
    return {"case": case.name, "kind": case.kind, "eta": case.eta, "stop_time": case.stop_time, "status": "failed",
            "error": error}


@contextlib.contextmanager
def _unzipped(fmu: bytes):
    """An extracted copy of the FMU: on a Dask worker one per worker in its work folder, which Dask removes
    when the worker closes (and a later worker purges if this one was killed); elsewhere one for this call."""
    try:
        from distributed import get_worker
        folder = pathlib.Path(get_worker().local_directory) / f"fmu_{_sha256(fmu)[:16]}"
    except (ImportError, ValueError):  # not on a Dask worker
        with tempfile.TemporaryDirectory(prefix="nh_fmu_") as tmp:
            zipfile.ZipFile(io.BytesIO(fmu)).extractall(tmp)
            yield pathlib.Path(tmp)
        return
    if not folder.is_dir():
        part = tempfile.mkdtemp(prefix=f"{folder.name}.part", dir=folder.parent)
        zipfile.ZipFile(io.BytesIO(fmu)).extractall(part)
        try:
            os.replace(part, folder)
        except OSError:  # another thread of this worker was first
            shutil.rmtree(part)
    yield folder


def dask_setup(worker) -> None:
    """Dask preload of the local cluster's workers (``preload=["nonholonomic.sweep"]``). Ctrl-C in a terminal
    reaches every process of its group: the workers ignore it (as they do from birth if forked by the fork
    server of :func:`_client`) and the sweep closes them (else every worker dies with a traceback of its
    own). The worker's temporary files go to its work folder, which Dask removes when the worker ends (or
    purges at the next start if the worker was killed)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    tempfile.tempdir = worker.local_directory


OVER_TIME_LIMIT = "over the time limit"


def run_case(case: SweepCase, fmu: bytes | str | pathlib.Path, time_limit: float | None = None
             ) -> tuple[dict, pd.DataFrame | None]:
    """Simulate one case (``fmu``: the FMU file's bytes or path) and compare it with the massless model. A run
    that takes more than ``time_limit`` seconds of wall time is stopped and reported as failed (its status; no
    exception, so that Dask does not run it again)."""
    import time
    from .errors import SimulationFailed
    from .simulate import simulate
    if not isinstance(fmu, bytes):
        fmu = pathlib.Path(fmu).read_bytes()
    outputs = ["x", "y", "psi", "omega", "kineticEnergy"] + [f"{s}[{i}]" for s in ("slip", "contactRoller", "N_contact")
                                                               for i in range(1, N_WHEELS + 1)]
    started = time.perf_counter()

    def watch(t, stop_time):
        if time_limit is not None and time.perf_counter() - started > time_limit:
            raise NonholonomicError(f"stopped at t = {t:.4g} s: {OVER_TIME_LIMIT} of {time_limit:g} s of wall time")

    try:
        with _unzipped(fmu) as folder:
            df = simulate(folder, {"eta": case.eta}, stop_time=case.stop_time, output_interval=case.output_interval,
                          tolerance=case.tolerance, outputs=outputs, progress=watch)
    except SimulationFailed as e:
        if OVER_TIME_LIMIT not in str(e):
            raise
        return _failure(case, str(e)), None
    df["psi"] = np.unwrap(df["psi"].to_numpy())
    ref = massless_reference(case.kind, df["time"].to_numpy())
    df["x_ref"], df["y_ref"], df["psi_ref"] = ref["x"].to_numpy(), ref["y"].to_numpy(), ref["phi"].to_numpy()
    slip = df[[f"slip[{i}]" for i in range(1, N_WHEELS + 1)]].to_numpy()
    metrics = {"case": case.name, "kind": case.kind, "eta": case.eta, "stop_time": case.stop_time, "status": "ok",
               "path difference [m]": float(np.max(np.hypot(df["x"] - df["x_ref"], df["y"] - df["y_ref"]))),
               "heading difference [rad]": float(np.max(np.abs(df["psi"] - df["psi_ref"]))),
               "max slip [m/s]": float(np.max(slip)), "mean slip [m/s]": float(np.mean(slip)),
               "energy change (relative)": float((df["kineticEnergy"].iloc[-1] - df["kineticEnergy"].iloc[0])
                                                 / df["kineticEnergy"].iloc[0]),
               "min normal force [N]": float(df[[f"N_contact[{i}]" for i in range(1, N_WHEELS + 1)]].min().min())}
    return metrics, df


def _scheduler_address(address: str) -> str:
    """A Dask scheduler address, checked for its form (scheme://host:port) without connecting."""
    from distributed.comm.addressing import parse_address, parse_host_port
    try:
        scheme, location = parse_address(address)
        host, port = parse_host_port(location)
        if scheme not in ("tcp", "tls", "ws", "wss", "ucx") or not host or not 0 < port < 65536:
            raise ValueError
    except ValueError:
        raise NonholonomicError(f"--scheduler {address!r} is not a Dask scheduler address like "
                                "tcp://host:8786") from None
    return address


def _client(scheduler: str | None, workers: int):
    """A Dask client of the given scheduler, or of a new local cluster (returned too, to be closed)."""
    from distributed import Client, LocalCluster
    if scheduler:
        try:
            return Client(scheduler, timeout=SCHEDULER_TIMEOUT), None
        except (OSError, TimeoutError) as e:
            reason = " ".join(str(e).split()) or f"{type(e).__name__} after {SCHEDULER_TIMEOUT:g} s"
            raise NonholonomicError(f"cannot reach the Dask scheduler at {scheduler}: {reason}") from None
    # Ctrl-C at a terminal reaches every process of its group, the workers too, which must leave it to the
    # sweep: they are forked (restarts too) from a fork server started while SIGINT is ignored, and inherit
    # that. A Ctrl-C while the cluster starts is held until it is up (a half-started one does not close
    # cleanly). Failures are recorded per case: Dask's own logging of them stays off the terminal.
    import multiprocessing.forkserver
    from distributed.utils import get_mp_context
    get_mp_context()  # Dask's modules preloaded by the fork server
    main = threading.current_thread() is threading.main_thread()  # only there can signals be handled
    caught = []
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        multiprocessing.forkserver.ensure_running()
        if main:
            signal.signal(signal.SIGINT, lambda *_: caught.append(True))
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                               silence_logs=logging.CRITICAL, preload=["nonholonomic.sweep"])
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)
    try:
        if caught:
            raise KeyboardInterrupt
        return Client(cluster), cluster
    except BaseException:
        _close(cluster, at_once=True)
        raise


def _close(cluster, at_once: bool) -> None:
    """Close the local cluster; ``at_once`` (Ctrl-C): a worker busy with a case is terminated after 0.2 s
    instead of Dask's 4 s of grace."""
    import asyncio

    async def close_workers():
        await asyncio.gather(*(w.close(timeout=0.25) for w in cluster.workers.values()))

    if at_once:
        cluster.sync(close_workers)
    cluster.close()


def _error(e: BaseException) -> str:
    from distributed import KilledWorker
    if isinstance(e, KilledWorker):
        return f"worker lost: the worker process died while running this case ({e.last_worker.address})"
    return f"{type(e).__name__}: {' '.join(str(e).split()) or type(e).__name__}"


def run_sweep(todo: list[SweepCase], out_dir: pathlib.Path | str = "results/omni_sweep", scheduler: str | None = None,
              workers: int = 2, progress: bool = True, time_limit: float | None = 900.0, run=None) -> pd.DataFrame:
    """Run the cases of ``todo`` not yet finished for their key in ``out_dir`` on Dask; returns the table of
    the cases' records (also ``sweep.csv``). A case over ``time_limit`` seconds of wall time is recorded as
    failed (the lightest rollers moving straight can take hours: docs/omni.md); a rerun tries it again, as
    every failed case. Ctrl-C: the cluster is closed, the finished cases stay, :class:`Interrupted` is raised
    with their table. ``run`` replaces :func:`run_case` (tests)."""
    out_dir = pathlib.Path(out_dir)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise NonholonomicError(f"workers must be a positive integer, got {workers!r}")
    if time_limit is not None:
        time_limit = _positive("time limit", time_limit)
    if scheduler:
        _scheduler_address(scheduler)
    check_writable_dir(out_dir)
    fmus = _fmus(todo)
    key = keys(todo, fmus)
    pending = [c for c in todo if (record(out_dir, c, key[c.name]) or {}).get("status") != "ok"]
    if not pending:
        return collect(out_dir, todo, key)
    from asyncio import CancelledError
    import dask
    from distributed import as_completed
    from tqdm import tqdm
    out_dir.mkdir(parents=True, exist_ok=True)
    client = cluster = bar = None
    interrupted = False
    # local cluster: a case whose worker dies is recorded at once (a crash of the FMU would only repeat);
    # workers forked from a fork server (_client); for the cluster's whole life (Dask restarts lost workers)
    with dask.config.set({"distributed.scheduler.allowed-failures": 0,
                          "distributed.worker.multiprocessing-method": "forkserver"}):
        try:
            client, cluster = _client(scheduler, workers)
            futures, queue = {}, list(pending)

            def submit():  # the FMU's bytes go with the case (scattered data would be lost with its worker)
                case = queue.pop(0)
                future = client.submit(run or run_case, case, fmus[case.model], time_limit, pure=False,
                                       key=f"nh-{case.name}-{os.getpid()}")
                futures[future] = case
                return future

            # only as many cases handed out as there are threads: none waits on a worker behind a long one,
            # and a worker that dies takes only its own case down (Dask blames every case assigned to it)
            slots = workers if cluster is not None else max(1, sum(client.nthreads().values()))
            running = as_completed([submit() for _ in range(min(slots, len(queue)))])
            bar = tqdm(total=len(pending), desc="omni sweep", unit="case", disable=not progress)
            for future in running:
                case = futures.pop(future)
                try:
                    metrics, frame = future.result()
                except (Exception, CancelledError) as e:  # a failed case or a lost worker: recorded, go on
                    metrics, frame = _failure(case, _error(e)), None
                _write(out_dir, case, key[case.name], metrics, frame)
                bar.update(1)
                if queue:
                    running.add(submit())
        except KeyboardInterrupt:
            interrupted = True
        finally:
            if bar is not None:
                bar.close()
            if client is not None:
                client.close()
            if cluster is not None:
                _close(cluster, at_once=interrupted)
    table = collect(out_dir, todo, key)
    if interrupted:
        raise interrupted_sweep(table, todo, out_dir)
    return table


def interrupted_sweep(table: pd.DataFrame, todo: list[SweepCase], out_dir) -> Interrupted:
    """The one line of a sweep stopped by Ctrl-C: how many cases are finished and kept where."""
    done = int((table["status"] == "ok").sum()) if len(table) else 0
    return Interrupted(f"interrupted: {done} of {len(todo)} cases finished, kept in {out_dir}", partial=table)


def collect(out_dir: pathlib.Path, todo: list[SweepCase], key: dict[str, dict] | None = None) -> pd.DataFrame:
    """The records of ``todo`` written for their keys (default: with the FMUs as they are now), one row per
    case, also written to ``sweep.csv``."""
    out_dir = pathlib.Path(out_dir)
    key = key or keys(todo)
    rows = []
    for c in todo:
        rec = record(out_dir, c, key[c.name])
        if rec is not None:
            rows.append({k: v for k, v in rec.items() if k not in ("key", "record_sha256")})
    table = pd.DataFrame(rows)
    if len(table):
        table = table.sort_values(["kind", "eta"], ascending=[True, False]).reset_index(drop=True)
        _write_atomic(out_dir / "sweep.csv", table.to_csv(index=False).encode())
    return table


def trend_ratios(table: pd.DataFrame, column: str = "path difference [m]") -> dict[str, list[float]]:
    """For each kind, the ratios of the discrepancy between successive (decreasing) eta."""
    out = {}
    for kind, group in table[table["status"] == "ok"].groupby("kind"):
        values = group.sort_values("eta", ascending=False)[column].to_numpy()
        out[kind] = list(values[1:] / values[:-1])
    return out


def plot_sweep(table: pd.DataFrame, out_dir: pathlib.Path) -> list[pathlib.Path]:
    """Fig. 3.7-3.12 in the manner of the thesis: paths, headings and contact rollers of the heaviest
    rollers; differences to the massless model against time for every eta; the trend against eta."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    out_dir = pathlib.Path(out_dir)
    files = []
    ok = table[table["status"] == "ok"]
    for kind, group in ok.groupby("kind"):
        group = group.sort_values("eta", ascending=False)
        frames = {row.eta: pd.read_parquet(out_dir / f"{row.case}.parquet") for row in group.itertuples()}
        heaviest = frames[group["eta"].iloc[0]]
        fig, axes = plt.subplots(1, 3, figsize=(11, 3.8))
        axes[0].plot(heaviest["x"], heaviest["y"], label="FMU")
        axes[0].plot(heaviest["x_ref"], heaviest["y_ref"], "--", label="massless rollers")
        axes[0].set_xlabel("x [m]"), axes[0].set_ylabel("y [m]"), axes[0].set_title("path of the centre")
        axes[0].legend()
        axes[1].plot(heaviest["time"], heaviest["psi"], label="FMU")
        axes[1].plot(heaviest["time"], heaviest["psi_ref"], "--", label="massless rollers")
        axes[1].set_xlabel("t [s]"), axes[1].set_ylabel("psi [rad]"), axes[1].set_title("heading")
        for i in range(1, N_WHEELS + 1):
            axes[2].step(heaviest["time"], heaviest[f"contactRoller[{i}]"], where="post", label=f"wheel {i}")
        axes[2].set_xlabel("t [s]"), axes[2].set_ylabel("roller in contact [index]"), axes[2].legend()
        fig.suptitle(f"{kind}, eta = {group['eta'].iloc[0]:.1e} (cf. Fig. 3.7)")
        fig.tight_layout()
        files.append(out_dir / f"{kind}_fig3.7.png")
        fig.savefig(files[-1], dpi=110)
        plt.close(fig)
        fig, axes = plt.subplots(1, 3, figsize=(11, 3.8))
        for eta, f in frames.items():
            t = f["time"]
            axes[0].semilogy(t, np.hypot(f["x"] - f["x_ref"], f["y"] - f["y_ref"]) + 1e-18, label=f"eta {eta:.1e}")
            axes[1].semilogy(t, np.abs(f["psi"] - f["psi_ref"]) + 1e-18)
            axes[2].semilogy(t, f[[f"slip[{i}]" for i in range(1, N_WHEELS + 1)]].max(axis=1) + 1e-18)
        axes[0].set_ylabel("|position - massless| [m]"), axes[1].set_ylabel("|psi - massless| [rad]")
        axes[2].set_ylabel("max slip speed [m/s]")
        for ax in axes:
            ax.set_xlabel("t [s]"), ax.grid(alpha=0.3, which="both")
        axes[0].legend(fontsize=8)
        fig.suptitle(f"{kind}: differences to the massless-roller model and slip (cf. Fig. 3.8-3.12)")
        fig.tight_layout()
        files.append(out_dir / f"{kind}_differences.png")
        fig.savefig(files[-1], dpi=110)
        plt.close(fig)
    if len(ok):
        fig, (path_ax, slip_ax) = plt.subplots(1, 2, figsize=(10, 4))
        for kind, group in ok.groupby("kind"):
            path_ax.loglog(group["eta"], group["path difference [m]"], "o-", label=kind)
            slip_ax.loglog(group["eta"], group["max slip [m/s]"], "s--", label=kind)
        path_ax.set_ylabel("path difference to the massless model [m]"), slip_ax.set_ylabel("max slip speed [m/s]")
        for ax in (path_ax, slip_ax):
            ax.set_xlabel("eta = roller mass / wheel mass [-]"), ax.grid(alpha=0.3, which="both"), ax.legend(fontsize=8)
        fig.suptitle("massless-roller limit")
        fig.tight_layout()
        files.append(out_dir / "trend.png")
        fig.savefig(files[-1], dpi=110)
        plt.close(fig)
    return files
