"""OpenModelica backend: build an FMU from the ``Nonholonomic`` Modelica library with ``omc``.

The build talks to ``omc`` through OMPython 4.1.0's :class:`OMPython.OMCSessionLocal` (the public,
non-deprecated session class of that release; ``OMCSessionZMQ`` and ``OMCProcessLocal`` are kept
there only as deprecated compatibility wrappers, see ``OMPython/OMCSession.py``). The scripting
calls it sends are, in order::

    cd("<temporary directory>")
    loadFile("<library>/package.mo")
    setCommandLineOptions("--fmiFlags=s:cvode")   -- the co-simulation part integrates with CVODE, not Euler
    buildModelFMU(<model>, version="2.0", fmuType="me_cs", fileNamePrefix="<prefix>", platforms={"static"})
    getErrorString()                      -- only on failure, as a last source of a message
    quit()

Error reporting. ``OMCSessionLocal.sendExpression`` (``om_session_omc.py``, lines 389-533) asks omc for
``getMessagesStringInternal()`` after every expression except ``getErrorString()``. That call empties
omc's message buffer, and when one of the messages has level ``error`` OMPython raises
``OMSessionException`` whose text lists them, one per entry, newest first::

    OMC error occurred for 'sendExpression(expr=..., parsed=True):
    00: [translation:error:258] [/lib/M.mo:false:3:3:3:20] Error occurred while flattening model M
    01: [translation:error:3] [/lib/M.mo:false:3:3:3:20] Variable y not found in scope M.

So the messages are read from that exception text (:func:`first_error_from_session_exception`).
``buildModelFMU`` is sent with ``raise_on_error=False`` (as OMPython's own ``buildModel`` does, since
omc can report recoverable errors and still build): success is judged by the FMU file, and on
failure the same list is taken from the warning OMPython logs instead
(:func:`first_error_from_log_lines`; a handler on the ``OMPython`` logger collects these records
during a build, which also keeps them off stderr). ``getErrorString()`` (format
``[file.mo:l:c-l:c:writable] Error: message``, see :func:`first_error_line`) is asked last, when
neither gave a message; after OMPython's drain it is normally empty.

Nothing here starts ``omc`` or imports OMPython at import time.
"""

from __future__ import annotations

import logging
import os
import pathlib
import re
import shutil
from typing import Callable, Iterable, Optional, Sequence

from .. import isolation
from ..errors import NonholonomicError
from ..paths import atomic_path

__all__ = [
    "omc_executable",
    "build_fmu",
    "modelica_string",
    "modelica_string_array",
    "parse_omc_string",
    "load_file_expression",
    "cd_expression",
    "build_model_fmu_expression",
    "fmi_flags_expression",
    "fmu_file_name_prefix",
    "first_error_line",
    "first_error_from_session_exception",
    "first_error_from_log_lines",
    "is_valid_class_name",
]

Progress = Optional[Callable[[str], None]]

FMI_VERSION = "2.0"
FMU_TYPE = "me_cs"
PLATFORMS: tuple[str, ...] = ("static",)
FMI_FLAGS = "s:cvode"  # CVODE for the FMU's co-simulation interface (see fmi_flags_expression)

_OMC_NOT_FOUND = "OpenModelica backend: omc not found (install OpenModelica or set OPENMODELICAHOME)"

# A Modelica class path made of plain identifiers: IDENT { "." IDENT } (quoted identifiers are not
# accepted; the project's own classes do not use them).
_CLASS_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")

# One entry of the message list in the text of OMPython 4.1.0's OMSessionException
# (om_session_omc.py lines 511-519):
#   f"{idx:02d}: [{kind}:{level}:{id}] [{file}:{readonly}:{lstart}:{cstart}:{lend}:{cend}] {message}"
_SESSION_ENTRY_RE = re.compile(
    r"^(?P<idx>\d+): \[(?P<kind>[^:\]]*):(?P<level>[^:\]]*):(?P<id>-?\d+)\] "
    r"\[(?P<file>.*?):(?P<readonly>[^:\]]*):(?P<lstart>-?\d+):(?P<cstart>-?\d+):(?P<lend>-?\d+):(?P<cend>-?\d+)\] "
    r"?(?P<message>.*)$"
)

# One message of getErrorString(): "[file:l1:c1-l2:c2:writable] Error: text" or "Error: text"
# (OpenModelica errorext.cpp, ErrorMessage::getMessage).
_ERROR_STRING_RE = re.compile(
    r"^(?:\[(?P<file>.*):(?P<lstart>\d+):(?P<cstart>\d+)-(?P<lend>\d+):(?P<cend>\d+):(?:readonly|writable)\] )?"
    r"(?P<severity>Internal error|Error|Warning|Notification): ?(?P<message>.*)$"
)

_MODELICA_ESCAPES = {
    "'": "'", '"': '"', "?": "?", "\\": "\\",
    "a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v",
}


# --------------------------------------------------------------------------------------------
# Locating omc
# --------------------------------------------------------------------------------------------

def _is_executable_file(path: pathlib.Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def omc_executable() -> str | None:
    """Path of the ``omc`` executable, or None when OpenModelica is not installed.

    ``$OPENMODELICAHOME/bin/omc`` is tried first, then ``omc`` on ``PATH``.
    """
    names = ("omc.exe", "omc") if os.name == "nt" else ("omc",)
    home = os.environ.get("OPENMODELICAHOME")
    if home:
        for name in names:
            candidate = pathlib.Path(home) / "bin" / name
            if _is_executable_file(candidate):
                return str(candidate)
    found = shutil.which("omc")
    return found if found else None


# --------------------------------------------------------------------------------------------
# Building scripting expressions (pure helpers)
# --------------------------------------------------------------------------------------------

def modelica_string(value: str) -> str:
    """``value`` as a double-quoted Modelica string literal (backslashes and quotes escaped).

    Same escaping as OMPython's ``OMCSessionABC.escape_str``.
    """
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def modelica_string_array(values: Iterable[str]) -> str:
    """A Modelica array of strings, e.g. ``{"static"}``."""
    return "{" + ", ".join(modelica_string(v) for v in values) + "}"


def parse_omc_string(raw: str) -> str:
    """Decode a string value as omc prints it (``"...\\n"`` with Modelica escapes) to plain text.

    Used for the unparsed answer of ``getErrorString()``; text that is not a quoted literal is
    returned stripped but otherwise unchanged.
    """
    text = raw.strip()
    if len(text) < 2 or not (text.startswith('"') and text.endswith('"')):
        return text
    body = text[1:-1]
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body) and body[i + 1] in _MODELICA_ESCAPES:
            out.append(_MODELICA_ESCAPES[body[i + 1]])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def is_valid_class_name(name: str) -> bool:
    """True for a dotted Modelica class path of plain identifiers (``A.B.C``)."""
    return _CLASS_NAME_RE.fullmatch(name) is not None


def fmu_file_name_prefix(model: str) -> str:
    """The ``fileNamePrefix`` passed to buildModelFMU: the class path with dots as underscores.

    This is what OpenModelica itself uses for ``fileNamePrefix="<default>"``; it becomes the FMU's
    file name and ``modelIdentifier`` (a C identifier, as FMI requires).
    """
    return model.replace(".", "_")


def cd_expression(directory: str | os.PathLike) -> str:
    """``cd("<dir>")``: change omc's working directory (forward slashes, also on Windows)."""
    return f"cd({modelica_string(pathlib.Path(directory).as_posix())})"


def load_file_expression(package_mo: str | os.PathLike) -> str:
    """``loadFile("<path>")``; for a ``package.mo`` omc loads the whole package directory."""
    return f"loadFile({modelica_string(pathlib.Path(package_mo).as_posix())})"


def fmi_flags_expression(flags: str = FMI_FLAGS) -> str:
    """``setCommandLineOptions("--fmiFlags=...")``: simulation flags written into the FMU's resources
    (``<prefix>_flags.json``). ``s:cvode`` makes the co-simulation interface integrate with CVODE; without
    it OpenModelica's FMI 2 ``fmi2DoStep`` takes one forward Euler step per communication step
    (``fmu_read_flags.c``: S_EULER unless the flags say otherwise; OpenModelica users' guide, "FMI
    co-simulation": forward Euler is the default, SUNDIALS CVODE the alternative). Model exchange, which
    ``simulate`` uses for FMI 2 FMUs, is not affected."""
    return f"setCommandLineOptions({modelica_string('--fmiFlags=' + flags)})"


def build_model_fmu_expression(
    model: str,
    *,
    version: str = FMI_VERSION,
    fmu_type: str = FMU_TYPE,
    file_name_prefix: str | None = None,
    platforms: Sequence[str] = PLATFORMS,
) -> str:
    """The ``buildModelFMU(...)`` call for class ``model``.

    OpenModelica scripting API::

        function buildModelFMU
          input TypeName className;
          input String version = "2.0";
          input String fmuType = "me";            // "me", "cs" or "me_cs"
          input String fileNamePrefix = "<default>";
          input String platforms[:] = {"static"};
          input Boolean includeResources = false;
          output String generatedFileName;        // full path of the FMU, "" on failure
        end buildModelFMU;

    ``className`` is a TypeName, so the class path is written unquoted.
    """
    if not is_valid_class_name(model):
        raise ValueError(f"not a Modelica class name: {model!r}")
    prefix = fmu_file_name_prefix(model) if file_name_prefix is None else file_name_prefix
    return (
        f"buildModelFMU({model}, version={modelica_string(version)}, fmuType={modelica_string(fmu_type)}, "
        f"fileNamePrefix={modelica_string(prefix)}, platforms={modelica_string_array(platforms)})"
    )


# --------------------------------------------------------------------------------------------
# Extracting one line from omc's messages (pure helpers)
# --------------------------------------------------------------------------------------------

def _location(file: str, line: str, column: str) -> str:
    if not file or file == "<interactive>":
        return ""
    if line in ("", "0"):
        return f"{file}: "
    return f"{file}:{line}:{column}: "


def _first_text_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


def first_error_line(error_string: str) -> str | None:
    """The first error of a ``getErrorString()`` text as one line, or None if it holds no error.

    ``"[/lib/M.mo:3:3-3:20:writable] Error: Variable y not found in scope M.\\n"`` gives
    ``"/lib/M.mo:3:3: Variable y not found in scope M."``; warnings and notifications are skipped.
    A quoted omc string literal is decoded first.
    """
    text = parse_omc_string(error_string) if error_string.strip().startswith('"') else error_string
    for line in text.splitlines():
        m = _ERROR_STRING_RE.match(line.strip())
        if m is None or m.group("severity") not in ("Error", "Internal error"):
            continue
        message = m.group("message").strip() or m.group("severity")
        return _location(m.group("file") or "", m.group("lstart") or "", m.group("cstart") or "") + message
    return None


def first_error_from_session_exception(text: str) -> str:
    """One line naming the problem from the text of an OMPython ``OMSessionException``.

    For OMPython's list of omc messages (newest first, see the module docstring) this is the
    earliest ``error``-level message, i.e. the last one listed, with its source location when it
    has one. For any other exception text it is the first non-empty line.
    """
    # lines that do not start an entry continue a multi-line message; only first lines are used
    entries = [m.groupdict() for m in map(_SESSION_ENTRY_RE.match, text.splitlines()) if m is not None]
    errors = [e for e in entries if e["level"] in ("error", "internal")]
    if errors:
        e = errors[-1]
        message = _first_text_line(e["message"]) or f"omc error {e['id']}"
        return _location(e["file"], e["lstart"], e["cstart"]) + message
    found = first_error_line(text)
    if found:
        return found
    return _first_text_line(text) or "unknown error"


# --------------------------------------------------------------------------------------------
# The build
# --------------------------------------------------------------------------------------------

class _Collect(logging.Handler):
    """Collects OMPython's log lines while a build runs (and keeps them off stderr)."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.lines.append(record.getMessage())
        except Exception:  # pragma: no cover - a broken record must not break the build
            pass


# One omc message as OMPython 4.1.0 logs it (om_session_omc.py lines 497-509):
#   "[OMC log for 'sendExpression(expr=..., parsed=...)']: [kind:level:id] message"
_LOG_ENTRY_RE = re.compile(r"^\[OMC log for .*\]: \[[^:\]]*:(?P<level>[^:\]]*):-?\d+\] (?P<message>.*)", re.DOTALL)


def first_error_from_log_lines(lines: Sequence[str]) -> str | None:
    """One line naming the problem from OMPython's log records of one ``sendExpression`` call.

    With ``raise_on_error=False`` OMPython 4.1.0 logs (lines 520-521) a warning
    ``"OMC reported 'error'-level messages for ...; continuing:\n00: ...\n01: ..."`` carrying the
    same list as the exception text; that is used when present. Otherwise the per-message records
    (newest first) are used: the last ``error``-level one is the earliest error. None if no error.
    """
    for line in lines:
        if "OMC reported 'error'-level messages" in line and any(
            _SESSION_ENTRY_RE.match(part) for part in line.splitlines()
        ):
            return first_error_from_session_exception(line)
    errors = []
    for line in lines:
        m = _LOG_ENTRY_RE.match(line)
        if m is not None and m.group("level") in ("error", "internal"):
            errors.append(_first_text_line(m.group("message")))
    errors = [e for e in errors if e]
    return errors[-1] if errors else None


def _one_line(message: str) -> str:
    """Collapse any line breaks so that an error message is exactly one line."""
    return " ".join(message.split())


def _say(progress: Progress, message: str) -> None:
    if progress is not None:
        progress(message)


def _error_string(session) -> str | None:
    """First error of getErrorString(), None when omc has none (or cannot be asked)."""
    try:
        raw = session.sendExpression("getErrorString()", parsed=False)
    except Exception:
        return None
    return first_error_line(raw if isinstance(raw, str) else str(raw))


def _close(session) -> None:
    """Stop omc now rather than whenever the session object is garbage-collected.

    OMPython 4.1.0 has no close(): ``sendExpression("quit()")`` closes the ZMQ socket
    (om_session_omc.py lines 425-428) and ``__del__`` (lines 278-306) closes the log file and
    waits for / kills the omc process; a second ``__del__`` by the garbage collector is a no-op.
    """
    try:
        session.sendExpression("quit()")
    except Exception:
        pass
    try:
        session.__del__()
    except Exception:
        pass


def build_fmu(
    model: str,
    library_dir: pathlib.Path,
    out_path: pathlib.Path,
    progress: Progress = None,
) -> pathlib.Path:
    """Build an FMI 2.0 ME+CS FMU of class ``model`` from the library in ``library_dir``.

    ``model`` is the fully qualified class (``"Nonholonomic.Examples.BallOnParaboloid"``);
    ``library_dir`` holds the library's ``package.mo``. The FMU is written to ``out_path``, which
    is returned. ``progress``, if given, receives one status line per step. Every failure raises
    :class:`NonholonomicError` with a one-line message.
    """
    library_dir = pathlib.Path(library_dir)
    out_path = pathlib.Path(out_path)

    if not is_valid_class_name(model):
        raise NonholonomicError(f"OpenModelica backend: not a Modelica class name: {model!r}")

    omc = omc_executable()
    if omc is None:
        raise NonholonomicError(_OMC_NOT_FOUND)
    omc = str(pathlib.Path(omc).absolute())

    package_mo = library_dir / "package.mo"
    if not package_mo.is_file():
        raise NonholonomicError(f"OpenModelica backend: Modelica library not found: {package_mo} does not exist")
    package_mo = package_mo.resolve()

    try:
        import OMPython  # lazily: importing this module must not need OMPython or omc
    except ImportError as exc:
        raise NonholonomicError(
            _one_line(f"OpenModelica backend: OMPython is not usable ({exc}); install OMPython==4.1.0")
        ) from exc
    session_error = OMPython.OMSessionException

    # OMPython logs every omc message (errors with logger.error); without a handler Python would
    # print them on stderr. Collect them instead, as a further source for the one-line message.
    collect = _Collect()
    om_logger = logging.getLogger("OMPython")
    om_logger.addHandler(collect)

    try:
        with isolation.scratch_folder("omc") as workdir:
            _say(progress, f"OpenModelica: starting {omc}")
            try:
                # omhome = the directory above bin/, so OMPython starts exactly this omc
                session = OMPython.OMCSessionLocal(omhome=pathlib.Path(omc).parent.parent)
            except session_error as exc:
                raise NonholonomicError(
                    f"OpenModelica backend: could not start {omc}: {first_error_from_session_exception(str(exc))}"
                ) from exc
            except OSError as exc:
                raise NonholonomicError(f"OpenModelica backend: could not start {omc}: {exc}") from exc
            try:
                return _build(session, session_error, model, package_mo, workdir, out_path, progress, collect)
            finally:
                _close(session)
    except NonholonomicError as exc:
        message = _one_line(str(exc))
        if message == str(exc):
            raise
        raise NonholonomicError(message) from exc.__cause__
    except Exception as exc:  # zmq / parser / OS failures below OMPython's own exception type
        detail = _first_text_line(str(exc)) or type(exc).__name__
        raise NonholonomicError(
            _one_line(f"OpenModelica backend: unexpected failure while talking to omc: {detail}")
        ) from exc
    finally:
        om_logger.removeHandler(collect)


def _build(session, session_error, model, package_mo, workdir, out_path, progress, collect) -> pathlib.Path:
    def failure(exc: Exception | None, since: int = 0) -> str:
        if exc is not None:
            return first_error_from_session_exception(str(exc))
        return first_error_from_log_lines(collect.lines[since:]) or _error_string(session) or ""

    # working directory: buildModelFMU writes <prefix>.fmu and its build files into omc's cwd
    try:
        session.sendExpression(cd_expression(workdir))
    except session_error as exc:
        raise NonholonomicError(
            f"OpenModelica backend: could not change omc's directory to {workdir}: {failure(exc)}"
        ) from exc

    _say(progress, f"OpenModelica: loading {package_mo.parent}")
    exc_load: Exception | None = None
    loaded = None
    try:
        loaded = session.sendExpression(load_file_expression(package_mo))
    except session_error as exc:
        exc_load = exc
    if exc_load is not None or loaded is not True:
        detail = failure(exc_load) or f"loadFile returned {loaded!r}"
        raise NonholonomicError(
            f"OpenModelica failed to load Modelica library {package_mo.parent}: {detail}"
        ) from exc_load

    try:
        session.sendExpression(fmi_flags_expression())
    except session_error as exc:
        raise NonholonomicError(f"OpenModelica refused {fmi_flags_expression()}: {failure(exc)}") from exc
    _say(progress, f"OpenModelica: building FMU for {model} (FMI {FMI_VERSION}, {FMU_TYPE})")
    exc_build: Exception | None = None
    generated = None
    since = len(collect.lines)
    try:
        # Like OMPython's own buildModel(), do not raise on 'error'-level messages here: omc may
        # report recoverable errors and still produce the FMU; success is judged by the file.
        generated = session.sendExpression(build_model_fmu_expression(model), raise_on_error=False)
    except session_error as exc:
        exc_build = exc
    fmu: pathlib.Path | None = None
    if exc_build is None and isinstance(generated, str) and generated:
        fmu = pathlib.Path(generated)
        if not fmu.is_absolute():
            fmu = workdir / fmu
    if fmu is None or not fmu.is_file():
        if exc_build is None and fmu is not None:
            detail = failure(None, since) or f"buildModelFMU reported {generated!r}, but that file does not exist"
        else:
            detail = failure(exc_build, since) or "buildModelFMU returned no FMU"
        raise NonholonomicError(f"OpenModelica could not build FMU for {model}: {detail}") from exc_build

    with atomic_path(out_path) as partial:  # no half-written file stays (a failure, Ctrl-C, a full disk)
        shutil.copyfile(fmu, partial)
    _say(progress, f"OpenModelica: wrote {out_path}")
    return out_path
