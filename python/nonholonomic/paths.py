"""Output paths: checked before any work (a command that would fail to write its result after a long build or
simulation says so at once, in one line), written whole or not at all (a full disk, a kill or a concurrent
writer never leaves a part of a file under its final name), and written by one process at a time."""

from __future__ import annotations

import contextlib
import errno
import os
import pathlib
import shutil
import tempfile

from .errors import NonholonomicError


def _reason(e: OSError) -> str:
    """An OSError's cause in words a user can act on."""
    hints = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is used up",
             errno.EROFS: "a read-only file system", errno.EFBIG: "the file would exceed the size allowed"}
    reason = e.strerror or type(e).__name__
    return f"{reason}: {hints[e.errno]}" if e.errno in hints else reason


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
        if e.errno in (errno.ENOENT, errno.EOPNOTSUPP, errno.EINVAL):  # /proc, /sys: no files can be made there
            raise NonholonomicError(f"cannot write {what}: folder {probe} accepts no new files (a virtual file "
                                    f"system such as /proc: {e.strerror})") from None
        raise NonholonomicError(f"cannot write {what}: folder {probe} is not writable ({_reason(e)})") from None
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


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike, what: str | None = None):
    """A temporary path beside ``path`` for the block to write; it is renamed onto ``path`` when the block ends
    without error and removed otherwise, so ``path`` holds the old file or the whole new one, never a part. A
    link is followed (the file it points to is replaced, the link kept); a device or a pipe (no rename
    possible) is written directly. An OSError becomes one line naming ``what`` (default: the path)."""
    path = pathlib.Path(path)
    target = path.resolve() if path.is_symlink() else path
    what = what or str(path)
    if target.exists() and not target.is_file() and not target.is_dir():
        try:
            yield target
        except OSError as e:
            raise NonholonomicError(f"cannot write {what}: {_reason(e)}") from None
        return
    temporary = target.with_name(f".{target.name}.{os.getpid()}.part")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        yield temporary
        os.replace(temporary, target)
    except OSError as e:
        raise NonholonomicError(f"cannot write {what}: {_reason(e)}") from None
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink()


def write_table(frame, path: str | os.PathLike, what: str | None = None) -> None:
    """A DataFrame as CSV or (by the suffix ``.parquet``) Parquet, whole or not at all (:func:`atomic_path`)."""
    with atomic_path(path, what) as temporary:
        if pathlib.Path(path).suffix == ".parquet":
            frame.to_parquet(temporary, index=False)
        else:
            frame.to_csv(temporary, index=False)


def write_bytes(path: str | os.PathLike, data: bytes, what: str | None = None) -> None:
    with atomic_path(path, what) as temporary:
        temporary.write_bytes(data)


@contextlib.contextmanager
def exclusive(path: str | os.PathLike, what: str):
    """Only one process writes ``path`` (a file or a folder) at a time: a lock (``flock``) on ``.<name>.lock``
    beside it, held for the block and released (the lock file removed) after it, or by the system if the
    process dies. A second writer is refused at once in one line naming ``what`` and the holder's pid."""
    import fcntl
    path = pathlib.Path(path).absolute()
    lock = path.with_name(f".{path.name}.lock")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        while True:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.pread(fd, 32, 0).decode(errors="replace").strip()
                os.close(fd)
                raise NonholonomicError(f"cannot write {what}: another nonholonomic process"
                                        f"{f' (pid {holder})' if holder else ''} is writing it; wait for it to end "
                                        "or choose another output") from None
            with contextlib.suppress(FileNotFoundError):
                if os.stat(lock).st_ino == os.fstat(fd).st_ino:
                    break  # else its last holder removed the file meanwhile: lock the new one
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
    except OSError as e:
        raise NonholonomicError(f"cannot write {what}: {_reason(e)}") from None
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(lock)
        os.close(fd)


@contextlib.contextmanager
def staged_folder(final: str | os.PathLike):
    """A temporary folder beside ``final`` for the block to fill; when the block ends without error it takes
    the place of ``final`` (an older ``final`` is removed), otherwise it is removed: ``final`` holds the
    complete files of one run, never a mix or a part. Yields the temporary folder."""
    final = pathlib.Path(final)
    final.parent.mkdir(parents=True, exist_ok=True)
    stage = pathlib.Path(tempfile.mkdtemp(prefix=f".{final.name}.", suffix=".part", dir=final.parent))
    try:
        yield stage
        if final.exists():
            old = final.with_name(f".{final.name}.{os.getpid()}.old")
            os.replace(final, old)
            os.replace(stage, final)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(stage, final)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


@contextlib.contextmanager
def staged_files(folder: str | os.PathLike):
    """A temporary folder inside ``folder`` for the block to fill with files; when the block ends without error
    they are moved into ``folder`` (JSON files last: a record's presence means its data are complete), otherwise
    they are removed. For results that share a folder with others (one case's files among other cases')."""
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    stage = pathlib.Path(tempfile.mkdtemp(prefix=".staged.", suffix=".part", dir=folder))
    try:
        yield stage
        for file in sorted(stage.iterdir(), key=lambda p: (p.suffix == ".json", p.name)):
            os.replace(file, folder / file.name)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
