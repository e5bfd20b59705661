"""Simulations of FMUs on Dask, each kept on disk under the key of everything that determines it.

The machinery of the omni vehicle's sweep (:mod:`.sweep`) and of the studies of any model (:mod:`.study`). A *run*
is any object with ``name`` (its files' name), ``model`` (an example's name or an ``.fmu`` path), ``parameters``,
``stop_time``, ``output_interval`` and ``tolerance``.

The runs go to a Dask cluster: a local one of ``workers`` processes by default, or an existing scheduler whose
address the user gives (its workers on other machines). The FMU's bytes go to the workers with the runs; each
worker extracts its own copy once, into its Dask work folder (removed when the worker closes): no worker reads a
path of the client's machine, and the workers return the results, which the client writes. Every run is written
to disk as it completes (``<name>.parquet`` with the signals, then ``<name>.json``, the record, both under a
temporary name renamed into place); a run that fails, whose worker is lost or that runs over its time limit is
recorded with ``status: failed`` and the rest goes on.

A record holds the run's key (:func:`run_key` and what its user adds), the sha256 of its Parquet file and a seal
over the whole record. A rerun skips a run only if its record is intact, finished, written for the same key and
its Parquet file is the one written with it; anything else (another stop time, a rebuilt FMU, a half-written,
corrupt or edited file) is recomputed.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import logging
import math
import os
import pathlib
import shutil
import signal
import sys
import tempfile
import threading
import zipfile

import pandas as pd

from . import isolation
from .errors import Interrupted, NonholonomicError
from .paths import check_writable_dir, write_bytes

SCHEDULER_TIMEOUT = 5.0  # seconds to reach a given scheduler before giving up
OVER_TIME_LIMIT = "over the time limit"


def positive(what: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < math.inf:
        raise NonholonomicError(f"{what} must be a positive number, got {value!r}")
    return float(value)


def check_options(out_dir, scheduler: str | None, workers: int, time_limit: float | None) -> float | None:
    """The options of :func:`run_all` checked before any work; returns the time limit as a float (or None)."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise NonholonomicError(f"workers must be a positive integer, got {workers!r}")
    if time_limit is not None:
        time_limit = positive("time limit", time_limit)
    if scheduler:
        _scheduler_address(scheduler)
    check_writable_dir(out_dir)
    return time_limit


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _digest(record: dict) -> str:
    return _sha256(json.dumps(record, sort_keys=True).encode())


def fmu_bytes(todo) -> dict[str, bytes]:
    """The bytes of each model's FMU, read once (the key's checksum and the workers' copies are of the same
    bytes, even if the file is rebuilt meanwhile); every run's parameters checked against the FMU's bounds."""
    from .fmu import fmu_path
    from .simulate import check_parameters
    data = {}
    for run in todo:
        path = fmu_path(run.model)
        check_parameters(path, run.parameters)
        if run.model not in data:
            if not path.is_file():
                raise NonholonomicError(f"{path} is an extracted FMU: runs on Dask need an example's name or an "
                                        ".fmu file")
            data[run.model] = path.read_bytes()
    return data


def fmu_sums(fmus: dict[str, bytes]) -> dict[str, str]:
    """model -> sha256 of its FMU's bytes."""
    return {model: _sha256(data) for model, data in fmus.items()}


def run_key(record_format: int, run, fmu_sha256: str) -> dict:
    """What determines a run's result in every use: the user's record format (raised when what a run computes
    changes), the model, the FMU's checksum, the parameters, stop time, output interval and tolerance."""
    return {"format": record_format, "model": str(run.model), "fmu_sha256": fmu_sha256, "parameters": run.parameters,
            "stop_time": run.stop_time, "output_interval": run.output_interval, "tolerance": run.tolerance}


def record(out_dir: pathlib.Path, run, key: dict) -> dict | None:
    """The run's record if it was written for ``key`` and is intact: readable, unedited (its seal), and for a
    finished run with its Parquet file the one written with it; else None (the run is to be computed)."""
    try:
        rec = json.loads((out_dir / f"{run.name}.json").read_text())
        if not isinstance(rec, dict) or rec.get("key") != key:
            return None
        if rec.get("record_sha256") != _digest({k: v for k, v in rec.items() if k != "record_sha256"}):
            return None
        if rec.get("status") == "ok" and rec.get("parquet_sha256") != _sha256(
                (out_dir / f"{run.name}.parquet").read_bytes()):
            return None
    except (OSError, ValueError):  # missing, unreadable, half-written or not JSON
        return None
    return rec


def records(out_dir: pathlib.Path, todo, key: dict[str, dict]) -> list[dict]:
    """The intact records of ``todo`` written for their keys, in the order of ``todo``, without the key and seal."""
    rows = []
    for run in todo:
        rec = record(pathlib.Path(out_dir), run, key[run.name])
        if rec is not None:
            rows.append({k: v for k, v in rec.items() if k not in ("key", "record_sha256")})
    return rows


def pending(todo, out_dir: pathlib.Path, key: dict[str, dict]) -> list:
    """The runs of ``todo`` without a finished record for their key in ``out_dir``."""
    return [run for run in todo if (record(pathlib.Path(out_dir), run, key[run.name]) or {}).get("status") != "ok"]


def _write(out_dir: pathlib.Path, run, key: dict, metrics: dict, frame: pd.DataFrame | None) -> None:
    """Write a run: the Parquet file first, then the record that names its checksum (so the record on disk
    always describes the newest Parquet file or none)."""
    rec = {**metrics, "key": key, "key_sha256": _digest(key)}
    if frame is not None:
        buffer = io.BytesIO()
        frame.to_parquet(buffer, index=False)
        write_bytes(out_dir / f"{run.name}.parquet", buffer.getvalue())
        rec["parquet_sha256"] = _sha256(buffer.getvalue())
    rec["record_sha256"] = _digest(rec)
    write_bytes(out_dir / f"{run.name}.json", json.dumps(rec, indent=1).encode())


@contextlib.contextmanager
def _unzipped(fmu: bytes):
    """An extracted copy of the FMU: on a Dask worker one per worker in its work folder, which Dask removes
    when the worker closes (and a later worker purges if this one was killed); elsewhere one for this call."""
    try:
        from distributed import get_worker
        folder = pathlib.Path(get_worker().local_directory) / f"fmu_{_sha256(fmu)[:16]}"
    except (ImportError, ValueError):  # not on a Dask worker
        with isolation.scratch_folder("fmu") as tmp:
            zipfile.ZipFile(io.BytesIO(fmu)).extractall(tmp)
            yield tmp
        return
    if not folder.is_dir():
        part = tempfile.mkdtemp(prefix=f"{folder.name}.part", dir=folder.parent)
        zipfile.ZipFile(io.BytesIO(fmu)).extractall(part)
        try:
            os.replace(part, folder)
        except OSError:  # another thread of this worker was first
            shutil.rmtree(part)
    yield folder


def simulate_run(fmu: bytes | str | pathlib.Path, run, outputs: list[str] | None = None,
                 time_limit: float | None = None) -> pd.DataFrame:
    """Simulate ``run`` on its FMU (``fmu``: the file's bytes or path), in this process: on a Dask worker the
    worker is itself the isolation (a crash is recorded as a lost worker). A run that takes more than
    ``time_limit`` seconds of wall time is stopped: :class:`SimulationFailed` saying :data:`OVER_TIME_LIMIT`."""
    import time
    from .simulate import simulate
    if not isinstance(fmu, bytes):
        fmu = pathlib.Path(fmu).read_bytes()
    started = time.perf_counter()

    def watch(t, stop_time):
        if time_limit is not None and time.perf_counter() - started > time_limit:
            raise NonholonomicError(f"stopped at t = {t:.4g} s: {OVER_TIME_LIMIT} of {time_limit:g} s of wall time")

    with _unzipped(fmu) as folder:
        return simulate(folder, run.parameters, stop_time=run.stop_time, output_interval=run.output_interval,
                        tolerance=run.tolerance, outputs=outputs, progress=watch, isolate=False)


def dask_setup(worker) -> None:
    """Dask preload of the local cluster's workers (``preload=["nonholonomic.dask_runs"]``). Ctrl-C in a terminal
    reaches every process of its group: the workers ignore it (as they do from birth if forked by the fork
    server of :func:`_client`) and the caller closes them (else every worker dies with a traceback of its
    own). The worker's temporary files go to its work folder, which Dask removes when the worker ends (or
    purges at the next start if the worker was killed)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    tempfile.tempdir = worker.local_directory


def _scheduler_address(address: str) -> str:
    """A Dask scheduler address, checked for its form (scheme://host:port) without connecting."""
    from distributed.comm.addressing import parse_address, parse_host_port
    try:
        scheme, location = parse_address(address)
        host, port = parse_host_port(location)
        if scheme not in ("tcp", "tls", "ws", "wss") or not host or not 0 < port < 65536:
            raise ValueError
    except ValueError:
        raise NonholonomicError(f"--scheduler {address!r} is not a Dask scheduler address like "
                                "tcp://host:8786") from None
    return address


def _check_socket_folder() -> None:
    """The local cluster's fork server listens on a Unix socket in multiprocessing's temporary folder, under
    TMPDIR (``pymp-XXXXXXXX/listener-XXXXXXXX``); Linux takes socket paths of at most 107 bytes. A longer one is
    said in one line before any worker starts."""
    import tempfile
    from multiprocessing import util
    length = len(os.fsencode(os.path.join(util.get_temp_dir(), "listener-12345678")))
    if length > 107:
        raise NonholonomicError(f"the temporary folder {tempfile.gettempdir()} has too long a path for the Dask "
                                f"workers' socket ({length} of at most 107 bytes): set TMPDIR to a shorter folder")


def _handshake(scheduler: str) -> None:
    """Connect to the scheduler and exchange Dask's handshake within SCHEDULER_TIMEOUT, or raise. Dask's client
    bounds the connection by its timeout but not the handshake after it: a program on that port that accepts
    connections and says nothing (not a scheduler, or a stopped one) would hold it until the connection drops.
    Run on an event loop of its own, in a thread of its own (the caller may be inside a running loop: Jupyter)."""
    import asyncio
    import concurrent.futures
    from distributed.comm import connect
    from distributed.security import Security

    limit = SCHEDULER_TIMEOUT + 2.0  # connect() gives up connecting after SCHEDULER_TIMEOUT with its own words

    async def exchange():
        try:
            comm = await asyncio.wait_for(connect(scheduler, timeout=SCHEDULER_TIMEOUT,
                                                  **Security().get_connection_args("client")), limit)
        except asyncio.TimeoutError:
            raise TimeoutError(f"it accepted the connection but did not answer as a Dask scheduler within "
                               f"{limit:g} s") from None
        await comm.close()

    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="nonholonomic-handshake") as pool:
        pool.submit(asyncio.run, exchange()).result()


def _client(scheduler: str | None, workers: int):
    """A Dask client of the given scheduler, or of a new local cluster (returned too, to be closed)."""
    from distributed import Client, LocalCluster
    if scheduler:
        try:
            _handshake(scheduler)
            return Client(scheduler, timeout=SCHEDULER_TIMEOUT), None
        except Exception as e:  # refused, unknown host, silent, not Dask, TLS not configured: the address's fault
            reason = " ".join(str(e).split()) or f"{type(e).__name__} after {SCHEDULER_TIMEOUT:g} s"
            raise NonholonomicError(f"cannot reach the Dask scheduler at {scheduler}: {reason}") from None
    # Ctrl-C at a terminal reaches every process of its group, the workers too, which must leave it to the
    # caller: they are forked (restarts too) from a fork server started while SIGINT is ignored, and inherit
    # that. A Ctrl-C while the cluster starts is held until it is up (a half-started one does not close
    # cleanly). Failures are recorded per run: Dask's own logging of them stays off the terminal.
    import multiprocessing.forkserver
    from distributed.utils import get_mp_context
    get_mp_context()  # Dask's modules preloaded by the fork server
    main = threading.current_thread() is threading.main_thread()  # only there can signals be handled
    caught = []
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    _check_socket_folder()
    try:
        multiprocessing.forkserver.ensure_running()
        if main:
            signal.signal(signal.SIGINT, lambda *_: caught.append(True))
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                               silence_logs=logging.CRITICAL, preload=["nonholonomic.dask_runs"])
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


@contextlib.contextmanager
def local_cluster(workers: int = 2):
    """A local cluster of ``workers`` processes as :func:`run_all` starts one, kept for several calls: pass the
    address it yields as their ``scheduler`` (a case's studies share one, instead of starting a cluster each).
    Closed after the block (at once on Ctrl-C)."""
    import dask
    import distributed  # noqa: F401  its configuration's defaults, before the settings below
    with dask.config.set({"distributed.scheduler.allowed-failures": 0,
                          "distributed.worker.multiprocessing-method": "forkserver"}):
        client, cluster = _client(None, workers)
        client.close()
        interrupted = False
        try:
            yield cluster.scheduler_address
        except KeyboardInterrupt:
            interrupted = True
            raise
        finally:
            _close(cluster, at_once=interrupted)


def _close(cluster, at_once: bool) -> None:
    """Close the local cluster; ``at_once`` (Ctrl-C): a worker busy with a run is terminated after 0.2 s
    instead of Dask's 4 s of grace."""
    import asyncio

    async def close_workers():
        await asyncio.gather(*(w.close(timeout=0.25) for w in cluster.workers.values()))

    if at_once:
        cluster.sync(close_workers)
    cluster.close()


def _error(e: BaseException, unit: str = "case") -> str:
    from distributed import KilledWorker
    if isinstance(e, KilledWorker):
        return _lost(unit, e.last_worker.address)
    return f"{type(e).__name__}: {' '.join(str(e).split()) or type(e).__name__}"


def _lost(unit: str, address) -> str:
    return f"worker lost: the worker process died while running this {unit} ({address})"


def _watch_lost_workers(client, futures: dict) -> dict:
    """Runs whose worker dies are lost, on any scheduler: returns the dict (filled as it happens) of the key of
    each such run -> the dead worker's address, and cancels its future, which the caller then records.

    The local cluster's scheduler does this itself (``allowed-failures: 0`` in :func:`run_all`), but a
    scheduler the user started has its own settings, by default three retries on other workers: a run that
    kills its worker (a crash of the FMU's binary, memory) would kill up to four, one after another. So the
    scheduler's events are watched instead: a worker removed unexpectedly (killed, stopped, its machine gone;
    not retired through Dask's ``retire_workers``, which hands its tasks back) names the tasks it was
    processing. ``futures`` (future -> run) is read from the client's event loop: it is only copied there."""
    lost = {}

    async def on_event(event):
        _, message = event
        if not isinstance(message, dict) or message.get("action") != "remove-worker" or message.get("expected"):
            return
        held = set(message.get("processing-tasks") or ())
        mine = [f for f in list(futures) if f.key in held and not f.done()]
        for future in mine:
            lost[future.key] = message.get("worker", "unknown address")
        if mine:
            await client.cancel(mine, asynchronous=True, reason="worker-lost", msg="its worker died")

    client.subscribe_topic("all", on_event)
    return lost


def run_all(todo, out_dir: pathlib.Path, key: dict[str, dict], fmus: dict[str, bytes], run, failure,
            scheduler: str | None = None, workers: int = 2, progress: bool = True, time_limit: float | None = None,
            label: str = "runs", unit: str = "run") -> bool:
    """Run ``todo`` on Dask, each written to ``out_dir`` with its key as it completes: ``run(item, fmu_bytes,
    time_limit)`` on a worker returns the record's fields and the signals (or None); an exception there or a
    lost worker is recorded as ``failure(item, one_line)``. A progress bar named ``label`` counts them in ``unit``s.
    Returns whether Ctrl-C stopped it (the cluster is closed then, and what finished is on disk). Options as
    :func:`check_options` checked them."""
    if not todo:
        return False
    from asyncio import CancelledError
    import dask
    from distributed import as_completed
    from tqdm import tqdm
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    client = cluster = bar = None
    interrupted = False
    # local cluster: a run whose worker dies is recorded at once (a crash of the FMU would only repeat; on a
    # scheduler of the user's, whose settings these are not, _watch_lost_workers does it);
    # workers forked from a fork server (_client); for the cluster's whole life (Dask restarts lost workers)
    with dask.config.set({"distributed.scheduler.allowed-failures": 0,
                          "distributed.worker.multiprocessing-method": "forkserver"}):
        try:
            client, cluster = _client(scheduler, workers)
            futures, queue = {}, list(todo)
            lost = _watch_lost_workers(client, futures)  # before any run is handed out
            if cluster is None and not client.nthreads() and progress:  # the runs wait for a worker to join
                print(f"waiting for workers: the scheduler at {scheduler} has none yet (on each machine: dask worker "
                      f"{scheduler})", file=sys.stderr, flush=True)

            def submit():  # the FMU's bytes go with the run (scattered data would be lost with its worker)
                item = queue.pop(0)
                future = client.submit(run, item, fmus[item.model], time_limit, pure=False,
                                       key=f"nh-{item.name}-{os.getpid()}")
                futures[future] = item
                return future

            # only as many runs handed out as there are threads: none waits on a worker behind a long one,
            # and a worker that dies takes only its own run down (Dask blames every run assigned to it). On a
            # scheduler of the user's, the threads are counted again as each run completes: workers join and leave
            def slots() -> int:
                return workers if cluster is not None else max(1, sum(client.nthreads().values()))

            running = as_completed([submit() for _ in range(min(slots(), len(queue)))])
            bar = tqdm(total=len(todo), desc=label, unit=unit, disable=not progress)
            for future in running:
                item = futures.pop(future)
                try:
                    fields, frame = future.result()
                except (Exception, CancelledError) as e:  # a failed run or a lost worker: recorded, go on
                    error = _lost(unit, lost[future.key]) if future.key in lost else _error(e, unit)
                    fields, frame = failure(item, error), None
                _write(out_dir, item, key[item.name], fields, frame)
                bar.update(1)
                for _ in range(min(max(1, slots() - len(futures)), len(queue))):
                    running.add(submit())
        except KeyboardInterrupt:
            interrupted = True
        finally:
            try:
                _release(bar, client, cluster, at_once=interrupted)
            except KeyboardInterrupt:  # a stop while closing (every run may be done by then): closed at once, said
                interrupted = True
                _release(None, None, cluster, at_once=True)
    return interrupted


def _release(bar, client, cluster, at_once: bool) -> None:
    """Close what :func:`run_all` opened (any may be None); ``at_once`` after a stop."""
    if bar is not None:
        bar.close()
    if client is not None:
        # unsubscribed first: the scheduler would send this client's own removal to it, over the closed
        # connection (a CRITICAL log with a traceback, on the terminal where the scheduler is local)
        with contextlib.suppress(Exception):
            client.unsubscribe_topic("all")
        client.close()
    if cluster is not None:
        _close(cluster, at_once=at_once)


def interrupted(table: pd.DataFrame, todo, out_dir, noun: str = "runs") -> Interrupted:
    """The one line of work on Dask stopped by Ctrl-C: how many runs are finished and kept where."""
    done = int((table["status"] == "ok").sum()) if len(table) else 0
    return Interrupted(f"interrupted: {done} of {len(todo)} {noun} finished, kept in {out_dir}", partial=table)
