"""Build the FMUs of the example models into ``fmus/``."""

from __future__ import annotations

import contextlib
import math
import os
import pathlib
import re
import signal
import subprocess
import sys
import threading
import time

from .backends import build_fmu, resolve_backend, stamp as stamps
from .errors import Interrupted, NonholonomicError
from .paths import check_writable_dir
from .models import FMU_DIR, LIBRARY, ExampleModel, get_model, list_models


MAX_JOBS = 64  # builds at once, at most (each holds a Python process and a gcc of up to 1.5 GB)


def default_jobs() -> int:
    """FMUs built at once by default: one per core this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def build(models=None, backend: str = "auto", out_dir: pathlib.Path | None = None,
          library_dir: pathlib.Path = LIBRARY, progress=None, jobs: int | None = None,
          fmi_version: int | None = None, force: bool = False) -> list[pathlib.Path]:
    """Export the named example models (all by default; one name or a list) as FMUs; returns the FMU paths.
    ``jobs`` FMUs are built at once, each in a process of its own (default: one per core). ``fmi_version``: 2 or
    3 (default: the backend's own, rumoca 3, openmodelica 2). An FMU whose stamp (:mod:`.backends.stamp`) says
    it was built from the same library, backend code, tools and options is up to date and left as it is, one
    whose flat model is unchanged is kept with a new stamp; ``force`` rebuilds them all."""
    from .simulate import names_argument
    models = names_argument("models", models)
    if not isinstance(backend, str):
        raise NonholonomicError(f"backend must be a name (auto, openmodelica or rumoca), got {backend!r}")
    jobs = default_jobs() if jobs is None else jobs
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= MAX_JOBS:
        raise NonholonomicError(f"jobs must be a whole number from 1 to {MAX_JOBS}, got {jobs!r}")
    backend, fmi_version = resolve_backend(backend, fmi_version)
    library_dir = pathlib.Path(library_dir).absolute()
    examples: list[ExampleModel] = ([get_model(m, library_dir) for m in models] if models
                                    else list_models(library_dir))
    if not isinstance(force, bool):
        raise NonholonomicError(f"force must be True or False, got {force!r}")
    out_dir = (pathlib.Path(out_dir) if out_dir is not None else FMU_DIR).absolute()
    check_writable_dir(out_dir, "the FMU folder")
    wanted = {e.name: {"sources": stamps.sources_key(library_dir, backend, fmi_version, e.modelica_class)}
              for e in examples}
    previous = {e.name: {} if force else stamps.read(out_dir / f"{e.name}.fmu") for e in examples}
    stale = [e for e in examples if previous[e.name].get("sources") != wanted[e.name]["sources"]]
    if progress and len(stale) < len(examples):
        progress(f"{len(examples) - len(stale)} of {len(examples)} FMUs up to date in {out_dir} (built from the "
                 f"same Modelica sources, backend and options)")
    if jobs > 1 and len(stale) > 1:
        _build_at_once(stale, backend, out_dir, library_dir, progress, jobs, fmi_version, force)
        return [out_dir / f"{e.name}.fmu" for e in examples]
    built = []
    for k, example in enumerate(stale, 1):
        say = (lambda msg, k=k, e=example: progress(f"[{k}/{len(stale)}] {e.name}: {msg}")) if progress else None
        start = time.perf_counter()
        try:  # the backends write each FMU under a temporary name and rename it: no half-written FMU
            path = build_fmu(backend, example.modelica_class, library_dir, out_dir / f"{example.name}.fmu",
                             experiment=example.experiment, progress=say, fmi_version=fmi_version,
                             stamp=wanted[example.name], previous=previous[example.name])
        except KeyboardInterrupt:
            raise Interrupted(f"interrupted while building {example.name}; {len(built)} of {len(stale)} FMUs "
                              f"built{' in ' + str(out_dir) if built else ''}") from None
        if progress:
            progress(f"[{k}/{len(stale)}] {example.name}: wrote {path} ({backend}, {time.perf_counter() - start:.1f} s)")
        built.append(path)
    return [out_dir / f"{e.name}.fmu" for e in examples]


def _generated_c_bytes(fmu: pathlib.Path) -> float:
    """The size of the generated C code in an FMU built before (what its compilation time grows with); infinite
    where there is none."""
    import zipfile
    try:
        with zipfile.ZipFile(fmu) as z:
            return float(sum(i.file_size for i in z.infolist() if i.filename.startswith("sources/nh_"))) or math.inf
    except (OSError, zipfile.BadZipFile):
        return math.inf


def _flat_size(model: str, library_dir: pathlib.Path) -> float:
    """The size of the flat model rumoca makes of ``model`` (its expression nodes); infinite where it fails (that
    build then starts first, and fails early with its message)."""
    import rumoca
    try:
        return float(len(rumoca.Session().load(str(library_dir / "package.mo"), model=model)
                         .to_dict("dae")["storage"]["expressions"]["nodes"]))
    except Exception:
        return math.inf


def _quiet_worker() -> None:
    """A pool worker leaves Ctrl-C to this process, and ends at the pool's SIGTERM without a word (it inherits this
    process's handler, which would raise KeyboardInterrupt there and print its traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _largest_first(examples, out_dir: pathlib.Path, library_dir: pathlib.Path, jobs: int, progress) -> list:
    """The examples in the order their builds should start, the longest first (so that no long one starts last):
    by the generated C of their last build, or where one has none (a fresh clone), by the size of their flat
    models (rumoca flattens them all, ``jobs`` at once: about a second each; 24 models: 12 s on 2 cores)."""
    sizes = {e.name: _generated_c_bytes(out_dir / f"{e.name}.fmu") for e in examples}
    if any(math.isinf(size) for size in sizes.values()):
        if progress:
            progress(f"flattening the {len(examples)} models to start the largest builds first")
        import multiprocessing
        with multiprocessing.get_context("fork").Pool(min(jobs, len(examples)), initializer=_quiet_worker) as pool:
            flat = pool.starmap(_flat_size, [(e.modelica_class, library_dir) for e in examples])
        sizes = {e.name: size for e, size in zip(examples, flat)}
    return sorted(examples, key=lambda e: -sizes[e.name])


def _build_at_once(examples, backend, out_dir, library_dir, progress, jobs, fmi_version, force) -> None:
    """Each example built by ``nonholonomic build NAME`` in a process of its own, ``jobs`` at a time, the
    largest first (:func:`_largest_first`); their progress lines passed on as ``[k/n] NAME: ...``. A failed build does
    not stop the others: the failures are raised together at the end. On a stop (Ctrl-C, SIGTERM) every running
    build is stopped (each removes its gcc and its temporary files) and the FMUs already built stay."""
    order = {e.name: k for k, e in enumerate(examples, 1)}
    waiting: list = []
    running: dict[str, subprocess.Popen] = {}
    readers: dict[str, threading.Thread] = {}
    errors: dict[str, str] = {}
    wrote: set[str] = set()  # built: said so by their build (which may still be ending)
    n = len(examples)

    def relay(name: str, stream) -> None:  # the child's lines, numbered as in the whole build
        for line in stream:
            line = line.rstrip("\n")
            if line.startswith(("interrupted", "terminated")):  # this process says it, for all builds
                continue
            if line.startswith("error: "):
                errors[name] = line[len("error: "):]
            else:
                if line.startswith(f"[1/1] {name}: wrote "):  # written whole (renamed into place)
                    wrote.add(name)
                if progress:
                    progress(re.sub(r"^\[1/1\] ", f"[{order[name]}/{n}] ", line))

    def start(example: ExampleModel) -> None:
        from . import isolation
        command = [sys.executable, "-m", "nonholonomic", "build", example.name, "--backend", backend,
                   "--out", str(out_dir), "--library", str(library_dir), "--jobs", "1",
                   "--fmi-version", str(fmi_version), *(["--force"] if force else [])]
        child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True, preexec_fn=isolation.own_group_dying_with_parent)
        running[example.name] = child
        readers[example.name] = threading.Thread(target=relay, args=(example.name, child.stderr), daemon=True)
        readers[example.name].start()

    try:
        waiting = _largest_first(examples, out_dir, library_dir, jobs, progress)
        while waiting or running:
            while waiting and len(running) < jobs:
                start(waiting.pop(0))
            time.sleep(0.05)
            for name, child in list(running.items()):
                if child.poll() is not None:
                    readers[name].join()
                    if child.returncode != 0:
                        errors.setdefault(name, f"its build ended with exit code {child.returncode}")
                    del running[name]
    except KeyboardInterrupt:  # each build (a process group of its own) stops as on its own Ctrl-C: gcc ended,
        # temporary files removed; CasADi's code generation may swallow a SIGINT (its own interrupt check), so
        # it is asked again every 5 s; not those that wrote their FMU: they are ending by themselves
        for attempt in range(6):
            if all(child.poll() is not None for child in running.values()):
                break
            for name, child in running.items():
                if child.poll() is None and name not in wrote:
                    with contextlib.suppress(ProcessLookupError):
                        child.send_signal(signal.SIGINT)
            deadline = time.monotonic() + 5.0
            while time.monotonic() < deadline and any(c.poll() is None for c in running.values()):
                time.sleep(0.05)
        for name, child in running.items():
            if child.poll() is None:
                child.kill()
            child.wait()
            readers[name].join()
        stopped, done = sorted(set(running) - wrote), len(wrote)
        where = f" while building {', '.join(stopped)}" if stopped else ""
        raise Interrupted(f"interrupted{where}; {done} of {n} FMUs "
                          f"built{' in ' + str(out_dir) if done else ''}") from None
    if errors:
        first = sorted(errors, key=order.get)
        raise NonholonomicError("; ".join(f"{name}: {errors[name]}" for name in first)
                                + f" ({len(wrote)} of {n} FMUs built)")
