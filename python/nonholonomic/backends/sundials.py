"""SUNDIALS CVODES, compiled into every FMU for its Co-Simulation integrator (``fmi3DoStep`` runs CVODE as the
project's own loop does, :mod:`nonholonomic.cvode`).

The sources come from the sdist of ``amici`` on PyPI (it bundles SUNDIALS 7.1.1 in ThirdParty/sundials), pinned
by version and sha256. The subset CVODES needs (BDF, dense matrix and linear solver, Newton) is compiled once per
machine into a static library in the cache folder (``$NONHOLONOMIC_CACHE``, else ``$XDG_CACHE_HOME/nonholonomic``,
else ``~/.cache/nonholonomic``), with ``-fvisibility=hidden``: in an FMU none of its symbols is exported, so an
importer with its own SUNDIALS loaded (fmpy, fmusim) never meets them. SUNDIALS' BSD licence goes into each FMU
(``documentation/licenses``), its sources into ``sources/sundials``."""

from __future__ import annotations

import fcntl
import hashlib
import io
import os
import pathlib
import subprocess
import tarfile
import urllib.request

from ..errors import NonholonomicError

VERSION = "7.1.1"
SDIST = ("https://files.pythonhosted.org/packages/b0/ab/aeebac08b65fa7110934ed0938d48f1e3cdfed00361a09ca10d70e2ccf92/"
         "amici-1.1.0.tar.gz")
SHA256 = "63d51cbbf1f989f2f852bb98c9b5a59501f4d3697883221737ff0188eec6870f"
PREFIX = "amici-1.1.0/amici/_installation/ThirdParty/sundials/"
SOURCES = tuple(f"src/{s}.c" for s in (
    *(f"sundials/sundials_{n}" for n in ("context", "errors", "math", "nvector", "matrix", "linearsolver",
                                         "nonlinearsolver", "dense", "direct", "logger", "hashmap", "futils",
                                         "version", "memory", "nvector_senswrapper", "band", "iterative")),
    "nvector/serial/nvector_serial", "sunmatrix/dense/sunmatrix_dense", "sunlinsol/dense/sunlinsol_dense",
    "sunmatrix/band/sunmatrix_band",  # cvodes_ls.c refers to it (difference Jacobians of banded matrices)
    "sunnonlinsol/newton/sunnonlinsol_newton", "sunnonlinsol/fixedpoint/sunnonlinsol_fixedpoint",
    "sunmemory/system/sundials_system_memory",
    *(f"cvodes/{n}" for n in ("cvodes", "cvodes_io", "cvodes_ls", "cvodes_nls", "cvodes_nls_sim", "cvodes_nls_stg",
                              "cvodes_nls_stg1", "cvodes_proj", "cvodea", "cvodea_io"))))
FLAGS = ("-std=c99", "-fPIC", "-O2", "-fvisibility=hidden", "-DNDEBUG")

# written by SUNDIALS' CMake otherwise: double precision, 64-bit indices, no logging, no MPI
CONFIG = f"""#ifndef _SUNDIALS_CONFIG_H
#define _SUNDIALS_CONFIG_H
#include "sundials/sundials_export.h"
#define SUNDIALS_NOEXCEPT
#define SUNDIALS_DEPRECATED_MSG(msg) __attribute__((__deprecated__(msg)))
#define SUNDIALS_DEPRECATED_EXPORT_MSG(msg) SUNDIALS_EXPORT SUNDIALS_DEPRECATED_MSG(msg)
#define SUNDIALS_DEPRECATED_NO_EXPORT_MSG(msg) SUNDIALS_NO_EXPORT SUNDIALS_DEPRECATED_MSG(msg)
#define SUNDIALS_VERSION "{VERSION}"
#define SUNDIALS_VERSION_MAJOR {VERSION.split('.')[0]}
#define SUNDIALS_VERSION_MINOR {VERSION.split('.')[1]}
#define SUNDIALS_VERSION_PATCH {VERSION.split('.')[2]}
#define SUNDIALS_VERSION_LABEL ""
#define SUNDIALS_GIT_VERSION ""
#define SUNDIALS_DOUBLE_PRECISION 1
#define SUNDIALS_INT64_T 1
#define SUNDIALS_INDEX_TYPE int64_t
#define SUNDIALS_LOGGING_LEVEL 0
#define SUNDIALS_MPI_ENABLED 0
#endif
"""
EXPORT = """#ifndef SUNDIALS_EXPORT_H
#define SUNDIALS_EXPORT_H
#define SUNDIALS_EXPORT
#define SUNDIALS_NO_EXPORT
#define SUNDIALS_DEPRECATED __attribute__((__deprecated__))
#define SUNDIALS_DEPRECATED_EXPORT SUNDIALS_EXPORT SUNDIALS_DEPRECATED
#define SUNDIALS_DEPRECATED_NO_EXPORT SUNDIALS_NO_EXPORT SUNDIALS_DEPRECATED
#endif
"""


def cache_folder() -> pathlib.Path:
    base = os.environ.get("NONHOLONOMIC_CACHE") or pathlib.Path(
        os.environ.get("XDG_CACHE_HOME") or pathlib.Path.home() / ".cache") / "nonholonomic"
    return pathlib.Path(base) / f"sundials-{VERSION}"


def member(relative: pathlib.PurePath) -> str:
    """Where a SUNDIALS file (path relative to its root) goes in an FMU's sources/, so that sources/ alone is the
    include path (FMI 2.0 gives an importer that compiles the sources no other): the public headers of include/
    and config/ as they are (<cvodes/cvodes.h>, <sundials/sundials_config.h>), the private headers of
    src/sundials beside the FMU's own (its other sources include them with quotes), the rest under sundials/."""
    top, rest = relative.parts[0], pathlib.PurePath(*relative.parts[1:])
    if top in ("include", "config"):
        return rest.as_posix()
    if top == "src" and rest.parent.as_posix() == "sundials" and rest.suffix == ".h":
        return rest.name
    return f"sundials/{relative.as_posix()}"


def include_folders(root: pathlib.Path) -> list[pathlib.Path]:
    return [root / "config", root / "include", root / "src" / "sundials"]


def library(progress=None) -> pathlib.Path:
    """The cache folder holding ``libcvodes.a``, the headers (:func:`include_folders`), the sources and
    ``LICENSE``: downloaded and compiled on the first call on this machine (one process at a time)."""
    root = cache_folder()
    archive = root / "libcvodes.a"
    if archive.exists():
        return root
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "w") as lock:  # FMU builds at once: the first compiles, the others wait for it
        fcntl.flock(lock, fcntl.LOCK_EX)
        if archive.exists():
            return root
        (progress or (lambda msg: None))(f"SUNDIALS {VERSION}: download (amici's sdist) and compile, once per machine")
        _unpack(_download(), root)
        objects = []
        for source in SOURCES:
            obj = root / "obj" / (pathlib.Path(source).stem + ".o")
            obj.parent.mkdir(exist_ok=True)
            _run(["gcc", "-c", *FLAGS, *(f"-I{f}" for f in include_folders(root)), "-o", str(obj), str(root / source)])
            objects.append(str(obj))
        partial = root / "libcvodes.a.partial"
        partial.unlink(missing_ok=True)
        _run(["ar", "rcs", str(partial), *objects])
        partial.replace(archive)
    return root


def _download() -> bytes:
    try:
        with urllib.request.urlopen(SDIST, timeout=120) as response:
            data = response.read()
    except OSError as e:
        raise NonholonomicError(f"SUNDIALS' sources could not be downloaded from {SDIST}: {e}") from None
    if hashlib.sha256(data).hexdigest() != SHA256:
        raise NonholonomicError(f"the download of {SDIST} does not have the pinned sha256 {SHA256}")
    return data


def _unpack(data: bytes, root: pathlib.Path) -> None:
    wanted = set(SOURCES) | {"LICENSE"}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for member in tar.getmembers():
            name = member.name.removeprefix(PREFIX)
            if name == member.name or not member.isfile():
                continue
            if name in wanted or (name.startswith(("include/", "src/")) and name.endswith(".h")
                                  and "amici_matlab" not in name):
                target = root / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(tar.extractfile(member).read())
    (root / "config" / "sundials").mkdir(parents=True, exist_ok=True)
    (root / "config" / "sundials" / "sundials_config.h").write_text(CONFIG)
    (root / "config" / "sundials" / "sundials_export.h").write_text(EXPORT)


def _run(command: list[str]) -> None:
    try:
        done = subprocess.run(command, capture_output=True, text=True)
    except FileNotFoundError:
        raise NonholonomicError(f"{command[0]} not found: the FMUs' SUNDIALS is compiled with gcc") from None
    if done.returncode != 0:
        first = next((l for l in done.stderr.splitlines() if "error" in l), done.stderr.strip()[:200])
        raise NonholonomicError(f"compiling SUNDIALS failed: {first}")
