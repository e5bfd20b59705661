"""Output paths checked before any work: a command that would fail to write its result after a long build
or simulation says so at once, in one line."""

from __future__ import annotations

import os
import pathlib
import tempfile

from .errors import NonholonomicError


def _existing_folder(folder: pathlib.Path, what: str) -> pathlib.Path:
    """The deepest existing ancestor of ``folder`` (or itself), which must be a writable folder; every
    existing part of the path must be a folder."""
    probe = folder
    while not probe.exists():
        if probe.is_symlink():  # a dangling link cannot become a folder
            raise NonholonomicError(f"cannot write {what}: {probe} is a broken link")
        probe = probe.parent
    if not probe.is_dir():
        raise NonholonomicError(f"cannot write {what}: {probe} is a file, not a folder")
    try:  # permission bits say nothing for root, and nothing about read-only or virtual file systems: try it
        fd, name = tempfile.mkstemp(prefix=".nh_probe_", dir=probe)
        os.close(fd)
        os.unlink(name)
    except OSError as e:
        raise NonholonomicError(f"cannot write {what}: folder {probe} is not writable ({e.strerror})") from None
    return probe


def check_writable_dir(path: str | os.PathLike, option: str | None = None) -> pathlib.Path:
    """``path`` as a folder that can be created (with its parents) and written into; ``option`` (such as
    ``--out``) names it in the error."""
    path = pathlib.Path(path)
    _existing_folder(path, f"{option} {path}" if option else str(path))
    return path


def check_writable_file(path: str | os.PathLike, option: str | None = None) -> pathlib.Path:
    """``path`` as a file that can be written (its folder is created when it is written); ``option`` (such
    as ``--out``) names it in the error."""
    path = pathlib.Path(path)
    what = f"{option} {path}" if option else str(path)
    if path.is_dir():
        raise NonholonomicError(f"cannot write {what}: it is a folder")
    _existing_folder(path.parent, what)
    if path.exists() and not os.access(path, os.W_OK):
        raise NonholonomicError(f"cannot write {what}: the file is read-only")
    return path
