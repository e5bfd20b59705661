"""The build stamp of an FMU: what determined it, so that ``nonholonomic build`` skips an FMU that is up to date.

An FMU carries ``extra/org.nonholonomic/build.json`` with two keys (SHA-256 hex digests):

- ``sources``: the Modelica library's files, the backend's code (this folder), the tools' versions (rumoca,
  CasADi, gcc or omc) and the build's options (backend, FMI version, model class). Computed in milliseconds:
  equal means the FMU is up to date and nothing is run.
- ``model``: the flat model rumoca makes of the class (what the FMU is built from), the backend's code, the tools'
  versions and the options. An edit elsewhere in the library (another example, a comment) changes ``sources`` but
  not ``model``: the FMU is then kept after the flattening (seconds) and only its stamp rewritten, not rebuilt
  (minutes). The openmodelica backend has no ``model`` key and rebuilds on any change of ``sources``.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import json
import os
import pathlib
import shutil
import subprocess
import zipfile

from ..paths import atomic_path

MEMBER = "extra/org.nonholonomic/build.json"
KEY_VERSION = 1  # raised when what a key covers changes


@functools.lru_cache(maxsize=None)
def tool_versions(backend: str) -> tuple[str, ...]:
    """The versions of the tools a ``backend`` build runs (a missing tool is a version too: ``missing``)."""
    def command(*args: str) -> str:
        try:
            return subprocess.run(args, capture_output=True, text=True, timeout=60).stdout.strip() or "missing"
        except (OSError, subprocess.SubprocessError):
            return "missing"
    if backend == "openmodelica":
        from .openmodelica import omc_executable
        omc = omc_executable()
        return ("omc", command(str(omc), "--version") if omc else "missing")
    return ("rumoca", importlib.metadata.version("rumoca"), "casadi", importlib.metadata.version("casadi"),
            "gcc", command("gcc", "-dumpfullversion", "-dumpversion"))


@functools.lru_cache(maxsize=None)
def _backend_code() -> str:
    """The digest of this folder's code (the flat DAE's translation, the exporter, the C wrapper)."""
    here = pathlib.Path(__file__).parent
    digest = hashlib.sha256()
    for f in sorted(p for p in here.iterdir() if p.suffix in (".py", ".c", ".h")):
        digest.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return digest.hexdigest()


def _options(backend: str, fmi_version: int, model: str) -> bytes:
    return json.dumps([KEY_VERSION, backend, fmi_version, model, tool_versions(backend), _backend_code()]).encode()


def sources_key(library_dir: pathlib.Path, backend: str, fmi_version: int, model: str) -> str:
    """The ``sources`` key: every file of the library (its path and bytes) and the build's options."""
    digest = hashlib.sha256(_options(backend, fmi_version, model))
    library_dir = pathlib.Path(library_dir)
    for root, folders, files in os.walk(library_dir):
        folders.sort()
        for name in sorted(files):
            f = pathlib.Path(root, name)
            digest.update(str(f.relative_to(library_dir)).encode() + b"\0" + f.read_bytes() + b"\0")
    return digest.hexdigest()


def model_key(flat_model: dict, backend: str, fmi_version: int, model: str) -> str:
    """The ``model`` key: the flat model (rumoca's DAE as a dict of plain values) and the build's options."""
    text = json.dumps(flat_model, sort_keys=True, default=str).encode()
    return hashlib.sha256(_options(backend, fmi_version, model) + b"\0" + text).hexdigest()


def read(fmu: pathlib.Path) -> dict:
    """The stamp of ``fmu``; empty where there is no FMU, no stamp or no readable one."""
    try:
        with zipfile.ZipFile(fmu) as z:
            stamp = json.loads(z.read(MEMBER))
        return stamp if isinstance(stamp, dict) else {}
    except (OSError, KeyError, ValueError, zipfile.BadZipFile):
        return {}


def write(fmu: pathlib.Path, stamp: dict) -> None:
    """Give ``fmu`` the stamp ``stamp`` (its other members copied as they are), atomically."""
    fmu = pathlib.Path(fmu)
    with atomic_path(fmu, str(fmu)) as partial, zipfile.ZipFile(fmu) as old, \
            zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            if info.filename != MEMBER:
                with old.open(info) as source, new.open(info, "w") as target:
                    shutil.copyfileobj(source, target)
        new.writestr(MEMBER, json.dumps(stamp, indent=1))
