"""Foreign binaries in a child process, and the process hygiene around them.

An FMU's binary is foreign C code: a crash in it (SIGSEGV, SIGBUS, abort) kills the process that loaded it,
with no Python exception to catch. :func:`call` runs a function in a forked child instead: the caller survives
a crash and learns of it as :class:`BinaryCrashed`; callbacks of the function (progress, rows) run in the
caller as the child calls them, so what they received is kept. A child never forks again for this purpose
(:func:`inside`): isolation happens once, at the outermost call.

Stopping: the child runs in its own process group, so a Ctrl-C at the terminal reaches only the caller, which
passes one SIGINT on (SIGTERM too: both stop the child, which returns what it computed as
:class:`~nonholonomic.errors.Interrupted`); a second signal kills the child. The child dies with its parent
(``PR_SET_PDEATHSIG``), and its temporary files live in a folder of the parent's that is removed when the child
ends; folders left by a parent that was killed (``nh-<pid>-...`` of a process that no longer exists) are
removed by the next run (:func:`temporary_folder`).
"""

from __future__ import annotations

import contextlib
import ctypes
import faulthandler
import os
import pathlib
import shutil
import signal
import tempfile
import threading
import traceback

from .errors import Interrupted, NonholonomicError

_inside = False  # this process is a child of call(): binaries run here directly
_purged = False  # stale temporary folders were looked for in this process
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)  # Ctrl-C, kill/timeout/a service manager: stop, keep what there is
# the signal that asked this process to stop (SIGINT or SIGTERM), for the CLI's exit code 128 + signal
stop_signal: int | None = None


class BinaryCrashed(NonholonomicError):
    """The child process died of a signal (or exited) without returning: ``how`` is SIGSEGV, SIGBUS, ..."""

    def __init__(self, how: str):
        super().__init__(f"the FMU's binary crashed ({how})")
        self.how = how

    def __reduce__(self):
        return type(self), (self.how,)


def inside() -> bool:
    """True in a child of :func:`call` (foreign binaries may run here: a crash ends only the child)."""
    return _inside


def die_with_parent() -> None:
    """This process gets SIGKILL when its parent dies (Linux; elsewhere nothing): a child busy in C code
    must not run on for minutes after the command that started it was killed. Also a ``preexec_fn``."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def own_group_dying_with_parent() -> None:
    """``preexec_fn`` of a helper program (gcc) that this process may have to stop with its own children (cc1,
    as): a process group of its own (``os.killpg`` ends them all; a Ctrl-C at the terminal reaches only this
    process, which stops them), and death with this process."""
    os.setpgid(0, 0)
    die_with_parent()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def purge_stale_folders() -> None:
    """Remove ``nh-<pid>-*`` temporary folders whose process no longer exists (killed before it could clean
    up). Once per process."""
    global _purged
    if _purged:
        return
    _purged = True
    for folder in pathlib.Path(tempfile.gettempdir()).glob("nh-*-*"):
        pid = folder.name.split("-")[1]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)) and folder.is_dir():
            shutil.rmtree(folder, ignore_errors=True)


def temporary_folder(purpose: str) -> pathlib.Path:
    """A new temporary folder ``nh-<pid>-<purpose>-...`` (the caller removes it; if this process is killed
    first, a later run does)."""
    purge_stale_folders()
    return pathlib.Path(tempfile.mkdtemp(prefix=f"nh-{os.getpid()}-{purpose}-"))


@contextlib.contextmanager
def scratch_folder(purpose: str):
    """A :func:`temporary_folder` for the block, removed after it."""
    folder = temporary_folder(purpose)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


_running: set[int] = set()  # the children of call() running now (from any thread)
_stopping = threading.Event()  # set by children_stopped(): every child of call() is asked to stop as it starts


@contextlib.contextmanager
def children_stopped():
    """For the block, every child of :func:`call`, running or starting, is asked to stop (SIGINT: it stops and
    answers what it has). For calls from other threads than the main one, which forward no stop signals."""
    _stopping.set()
    try:
        for pid in list(_running):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGINT)
        yield
    finally:
        _stopping.clear()


def _stop_child(signum, frame):
    """The child's handler of SIGINT and SIGTERM: the first raises KeyboardInterrupt (the function stops and
    returns what it has), later ones are ignored so that this clean-up is not broken."""
    for s in STOP_SIGNALS:
        signal.signal(s, signal.SIG_IGN)
    raise KeyboardInterrupt


def call(function, callbacks: dict | None = None):
    """``function(**senders)`` in a forked child, where each sender stands for a callback of ``callbacks``
    (name -> callable) and calls it in this process with the same arguments. Returns the function's value;
    re-raises its :class:`NonholonomicError` or :class:`Interrupted` (these and the value are pickled); raises
    :class:`BinaryCrashed` if the child dies without an answer, RuntimeError with the child's traceback for any
    other exception (a bug), and whatever a callback raises (the child is then killed). In a child already,
    or where there is no fork, the function runs here."""
    callbacks = callbacks or {}
    if _inside or not hasattr(os, "fork"):
        return function(**callbacks)
    import multiprocessing
    folder = str(temporary_folder("child"))
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    parent = os.getpid()

    def child_main():
        try:
            _become_child(parent, folder)
            receive.close()
            senders = {name: (lambda *args, name=name: send.send(("callback", name, args))) for name in callbacks}
            answer = _answer(function, **senders)
        except KeyboardInterrupt:  # a stop signal held back while the child was started
            answer = ("raise", Interrupted())
        try:
            send.send(answer)
        except (BrokenPipeError, ConnectionError):  # the parent is gone: nobody to answer
            pass
        except BaseException:  # an answer that cannot be pickled
            try:
                send.send(("bug", traceback.format_exc()))
            except (BrokenPipeError, ConnectionError):
                pass

    child = context.Process(target=child_main)  # not a daemon: a child may start processes of its own (Dask)
    signals = []

    def forward(signum=None, frame=None):  # the first stop signal asks the child to stop, a second one kills it
        global stop_signal
        if signum is not None:
            signals.append(signum)
            stop_signal = signum
        if child.pid is not None and signals:
            try:
                os.kill(child.pid, signal.SIGINT if len(signals) == 1 else signal.SIGKILL)
            except ProcessLookupError:
                pass

    main = threading.current_thread() is threading.main_thread()  # only there are signals handled
    previous = {s: signal.signal(s, forward) for s in STOP_SIGNALS} if main else {}
    try:
        with _stop_signals_held():  # until the child has its own handlers (it inherits forward's otherwise)
            child.start()
        _running.add(child.pid)
        if _stopping.is_set():  # started as children_stopped() asked the running ones
            os.kill(child.pid, signal.SIGINT)
        send.close()
        while True:
            try:
                message = receive.recv()
            except EOFError:  # the child ended without an answer
                break
            if message[0] == "callback":
                try:
                    callbacks[message[1]](*message[2])
                except BaseException:
                    os.kill(child.pid, signal.SIGKILL)
                    raise
                continue
            return _unpack(message)
    finally:
        child.join()
        _running.discard(child.pid)
        receive.close()
        for s, handler in previous.items():
            signal.signal(s, handler)
        shutil.rmtree(folder, ignore_errors=True)
    if signals:  # killed by the second stop signal
        raise Interrupted()
    raise BinaryCrashed(_death(child.exitcode))


def _become_child(parent: int, folder: str, on_stop=_stop_child) -> None:
    """What a child of :func:`call` or :class:`Remote` does first: dies with its parent, leaves the terminal's
    process group (the parent passes stop signals on), handles SIGINT/SIGTERM with ``on_stop`` (by default: stop
    and return what it has), keeps its temporary files in the parent's ``folder``."""
    global _inside
    _inside = True
    die_with_parent()
    if os.getppid() != parent:  # the parent died before the line above took effect
        os._exit(1)
    os.setpgid(0, 0)
    faulthandler.disable()  # a crash here is the parent's to say, in one line (not a dump of this process's stack)
    tempfile.tempdir = folder
    for s in STOP_SIGNALS:
        signal.signal(s, on_stop)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)  # held back by the parent while it forked


@contextlib.contextmanager
def _stop_signals_held():
    """SIGINT and SIGTERM held back (not lost) while the block forks a child: the child lets them through once it
    has its own handlers, this process after the block."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _answer(function, *args, **kwargs) -> tuple:
    """The message that reports ``function(*args, **kwargs)`` to the parent: its value, or its exception."""
    try:
        return ("value", function(*args, **kwargs))
    except (NonholonomicError, Interrupted) as e:
        return ("raise", e)
    except KeyboardInterrupt:
        return ("raise", Interrupted())
    except Exception:  # a bug: its traceback, as text
        return ("bug", traceback.format_exc())


def _unpack(message: tuple):
    kind, payload = message
    if kind == "bug":
        raise RuntimeError(f"the child process failed:\n{payload}")
    if kind == "raise":
        raise payload
    return payload


def _death(code: int | None) -> str:
    return signal.Signals(-code).name if code is not None and code < 0 else f"exit code {code}"


class Remote:
    """An object that lives in a forked child process, made there by ``make()``, whose methods are called from
    here (:meth:`call`): for a foreign binary that must keep its state between calls (an FMU stepped by a
    co-simulation master). The child answers one call at a time; if it dies (the binary crashed), the call
    raises :class:`BinaryCrashed`. In a child already (:func:`inside`), the object is made and called here."""

    def __init__(self, make):
        if _inside or not hasattr(os, "fork"):
            self._object, self._process = make(), None
            return
        import multiprocessing
        self._folder = str(temporary_folder("remote"))
        context = multiprocessing.get_context("fork")
        self._connection, there = context.Pipe()
        parent, folder = os.getpid(), self._folder

        def serve():
            _become_child(parent, folder, signal.SIG_IGN)  # the caller stops: it frees (or kills) this object
            self._connection.close()
            answer = _answer(make)
            obj = answer[1] if answer[0] == "value" else None
            there.send(answer if obj is None else ("value", None))
            while obj is not None:
                try:
                    name, args = there.recv()
                except (EOFError, ConnectionError):
                    return
                try:
                    there.send(_answer(getattr(obj, name), *args))
                except (BrokenPipeError, ConnectionError):
                    return
                except BaseException:
                    there.send(("bug", traceback.format_exc()))

        self._process = context.Process(target=serve)
        with _stop_signals_held():
            self._process.start()
        there.close()
        self._receive()

    def _receive(self):
        try:
            return _unpack(self._connection.recv())
        except (EOFError, ConnectionError):
            self._process.join()
            raise BinaryCrashed(_death(self._process.exitcode)) from None

    def call(self, name: str, *args):
        """``obj.name(*args)`` in the child; its value (pickled), or its exception."""
        if self._process is None:
            return getattr(self._object, name)(*args)
        try:
            self._connection.send((name, args))
        except (BrokenPipeError, ConnectionError):
            self._process.join()
            raise BinaryCrashed(_death(self._process.exitcode)) from None
        return self._receive()

    def close(self) -> None:
        """End the child (at once: whatever it was doing is no longer wanted) and remove its temporary folder."""
        if self._process is None:
            return
        if self._process.is_alive():
            self._process.kill()
        self._process.join()
        self._connection.close()
        shutil.rmtree(self._folder, ignore_errors=True)
        self._process = None
        self._object = None


@contextlib.contextmanager
def handling(signum: int, handler):
    """``handler`` for the signal while the block runs, then the previous one again (main thread only: elsewhere
    Python delivers no signal, and nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signum, handler)
    try:
        yield
    finally:
        signal.signal(signum, previous)


@contextlib.contextmanager
def sigterm_as_interrupt():
    """Within the block, SIGTERM (``kill``, ``timeout``, a service manager) stops this process as Ctrl-C does:
    KeyboardInterrupt, so that every clean-up runs and what was computed is kept; :data:`stop_signal` then says
    which signal it was (the CLI exits with 128 + it)."""
    global stop_signal
    stop_signal = None
    with handling(signal.SIGTERM, _raise_interrupt):
        yield


def _raise_interrupt(signum, frame):
    global stop_signal
    stop_signal = signum
    signal.signal(signum, lambda *_: None)  # a second one must not break the clean-up the first started
    raise KeyboardInterrupt
