"""An FMU on disk: where it is, its model description and what the rumoca backend adds beside it."""

from __future__ import annotations

import contextlib
import functools
import json
import pathlib
import struct
import sys
import zipfile

from .errors import NonholonomicError
from .models import get_model


def example_of(model: str | pathlib.Path):
    """The example model that ``model`` names, or None where it names an FMU file or an extracted FMU's folder."""
    path = pathlib.Path(model)
    return None if path.is_dir() or path.suffix == ".fmu" else get_model(str(model))


def fmu_path(model: str | pathlib.Path) -> pathlib.Path:
    """The FMU of an example model (``fmus/<name>.fmu``), an explicit ``.fmu`` path, or a folder with an
    extracted FMU."""
    path = pathlib.Path(model)
    example = example_of(model)
    if example is None and path.is_dir():
        if not (path / "modelDescription.xml").is_file():
            raise NonholonomicError(f"{path} is a folder without modelDescription.xml, not an extracted FMU")
        return path
    if example is None:
        if not path.is_file():
            raise NonholonomicError(f"FMU not found: {path}")
        return path
    if not example.fmu.is_file():
        raise NonholonomicError(f"no FMU for {example.name} yet: run `nonholonomic build {example.name}`")
    return example.fmu


@functools.lru_cache(maxsize=32)
def _description(path: str, mtime: float):
    from fmpy import read_model_description
    check_fmu(pathlib.Path(path))
    try:
        return read_model_description(path)
    except Exception as e:  # fmpy's own checks of a well-formed XML (variables, structure)
        raise NonholonomicError(f"{path}: invalid modelDescription.xml: {_first_line(e)}") from None


def model_description(fmu: pathlib.Path):
    """fmpy's model description of an FMU, after :func:`check_fmu`."""
    return _description(str(fmu), fmu.stat().st_mtime)


def _first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


class _Files:
    """The files of an FMU, zipped or extracted, by their archive names."""

    def __init__(self, path: pathlib.Path):
        self.path = path
        if path.is_dir():
            self.names = {p.relative_to(path).as_posix() for p in path.rglob("*") if p.is_file()}
            self.zip = None
            return
        if path.stat().st_size == 0:
            raise NonholonomicError(f"{path} is empty, not an FMU")
        try:
            self.zip = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError) as e:
            raise NonholonomicError(f"{path} is not an FMU: not a readable zip archive ({_first_line(e)})") from None
        self.names = set(self.zip.namelist())

    def read(self, name: str) -> bytes:
        if self.zip is None:
            return (self.path / name).read_bytes()
        try:  # reading checks the member's CRC
            return self.zip.read(name)
        except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError) as e:
            raise NonholonomicError(f"{self.path} is damaged: {name} cannot be read ({_first_line(e)})") from None


# FMI platform names of this machine and its ELF machine number (e_machine)
_ELF_MACHINE = {"x86_64": 62, "aarch64": 183}


def check_fmu(path: pathlib.Path) -> None:
    """Check an FMU before anything loads it: a readable zip (or folder), a well-formed modelDescription.xml
    for FMI 2 or 3 with model exchange or co-simulation, and for each interface a shared library for this
    platform that is an ELF file for this machine and not truncated (a truncated library loaded with dlopen
    kills the process with SIGBUS instead of raising)."""
    from lxml import etree
    files = _Files(path)
    if "modelDescription.xml" not in files.names:
        raise NonholonomicError(f"{path} is not an FMU: it has no modelDescription.xml")
    try:
        root = etree.fromstring(files.read("modelDescription.xml"))
    except etree.XMLSyntaxError as e:
        raise NonholonomicError(f"{path}: modelDescription.xml is not well-formed XML ({_first_line(e)})") from None
    version = root.get("fmiVersion", "")
    if root.tag != "fmiModelDescription" or version[:2] not in ("2.", "3."):
        raise NonholonomicError(f"{path}: modelDescription.xml is not an FMI 2 or FMI 3 model description "
                                f"(fmiVersion {version!r})")
    interfaces = [e for e in root if e.tag in ("ModelExchange", "CoSimulation")]
    if not interfaces:
        raise NonholonomicError(f"{path}: the FMU has neither model exchange nor co-simulation")
    from .backends.fmu_export import binary_member
    for interface in interfaces:
        binary = binary_member(version, interface.get("modelIdentifier", ""))
        if binary not in files.names:
            others = sorted({n.split("/")[1] for n in files.names if n.startswith("binaries/") and n.count("/") >= 2})
            raise NonholonomicError(f"{path}: no binary for this platform ({binary} missing; "
                                    f"the FMU has: {', '.join(others) or 'no binaries'})")
        _check_elf(files.read(binary), f"{path}: {binary}")


def _check_elf(data: bytes, what: str) -> None:
    """A shared library that this machine can load: ELF magic, 64-bit little-endian (or as this Python),
    this machine's architecture, and its program and section tables and loaded segments inside the file."""
    import platform
    if data[:4] != b"\x7fELF" or len(data) < 64:
        raise NonholonomicError(f"{what} is not a shared library (no ELF header)")
    bits = 64 if sys.maxsize > 2**32 else 32
    if data[4] != (2 if bits == 64 else 1) or data[5] != (1 if sys.byteorder == "little" else 2):
        raise NonholonomicError(f"{what} is built for another machine (not {bits}-bit {sys.byteorder}-endian)")
    if bits != 64:
        return  # the table checks below read the 64-bit layout
    e_type, e_machine = struct.unpack_from("<HH", data, 16)
    e_phoff, e_shoff = struct.unpack_from("<QQ", data, 32)
    e_phentsize, e_phnum, e_shentsize, e_shnum = struct.unpack_from("<HHHH", data, 54)
    expected = _ELF_MACHINE.get(platform.machine().lower())
    if expected is not None and e_machine != expected:
        raise NonholonomicError(f"{what} is built for another processor (ELF machine {e_machine}, "
                                f"this is {platform.machine()})")
    if e_type != 3:
        raise NonholonomicError(f"{what} is not a shared library (ELF type {e_type})")
    size = len(data)
    if e_phoff + e_phnum * e_phentsize > size or e_shoff + e_shnum * e_shentsize > size:
        raise NonholonomicError(f"{what} is truncated ({size} bytes, its tables reach beyond the end)")
    for k in range(e_phnum):
        p_type, _, p_offset = struct.unpack_from("<IIQ", data, e_phoff + k * e_phentsize)
        p_filesz, = struct.unpack_from("<Q", data, e_phoff + k * e_phentsize + 32)
        if p_type == 1 and p_offset + p_filesz > size:  # PT_LOAD: mapped from the file
            raise NonholonomicError(f"{what} is truncated ({size} bytes, a loaded segment ends at "
                                    f"{p_offset + p_filesz})")


@functools.lru_cache(maxsize=32)
def _extra_info(path: str, mtime: float) -> dict:
    """What the rumoca backend writes next to the model description (``PARAMETER_INFO``), or {}."""
    from .backends.fmu_export import PARAMETER_INFO
    files = _Files(pathlib.Path(path))
    if PARAMETER_INFO not in files.names:
        return {}
    try:
        info = json.loads(files.read(PARAMETER_INFO))
    except ValueError as e:
        raise NonholonomicError(f"{path}: {PARAMETER_INFO} is not valid JSON ({_first_line(e)})") from None
    if not isinstance(info, dict):
        raise NonholonomicError(f"{path}: {PARAMETER_INFO} is not a JSON object")
    return info


def extra_info(fmu: pathlib.Path) -> dict:
    """What the rumoca backend writes next to the model description (``PARAMETER_INFO``), or {}."""
    return _extra_info(str(fmu), fmu.stat().st_mtime)


def has_solver_functions(fmu: pathlib.Path) -> bool:
    """A model-exchange FMU of the rumoca backend (FMI 2 or 3) whose binary has the functions of
    ``solver_entry.c`` in the version this package calls: the project's CVODE loop (:mod:`.cvode`) runs it."""
    from .backends.fmu_export import SOLVER_ABI
    return (model_description(fmu).modelExchange is not None
            and extra_info(fmu).get("solver_functions") == SOLVER_ABI)


@contextlib.contextmanager
def initialised_instance(model: str | pathlib.Path, parameters: dict | None = None, name: str = "nonholonomic"):
    """An FMI 3.0 model-exchange instance of an example's FMU (or an FMU's path) through fmpy, its ``parameters``
    set and its initialisation done: (instance, model description, value references by name); freed, and its
    extracted folder removed, after the block."""
    import tempfile

    import fmpy
    from fmpy.fmi3 import FMU3Model
    path = fmu_path(model)
    md = model_description(path)
    if md.fmiVersion != "3.0" or md.modelExchange is None:
        raise NonholonomicError(f"{path.name}: an FMI 3.0 model-exchange FMU is needed here")
    refs = {v.name: v.valueReference for v in md.modelVariables}
    unknown = sorted(set(parameters or {}) - set(refs))
    if unknown:
        raise NonholonomicError(f"{md.modelName} has no variable {', '.join(unknown)}")
    with tempfile.TemporaryDirectory() as folder:
        instance = FMU3Model(guid=md.guid, unzipDirectory=fmpy.extract(str(path), folder),
                             modelIdentifier=md.modelExchange.modelIdentifier, instanceName=name)
        instance.instantiate()
        try:
            if parameters:
                instance.setFloat64([refs[k] for k in parameters], [float(v) for v in parameters.values()])
            instance.enterInitializationMode()
            instance.exitInitializationMode()
            yield instance, md, refs
            instance.terminate()
        finally:
            instance.freeInstance()


def state_derivatives(model: str | pathlib.Path, parameters: dict, states, time: float = 0.0):
    """The FMU's state derivatives at given states (rows of ``states``, the FMU's state order), through FMI 3
    model exchange (fmpy): the model's right-hand side as any importer sees it, to compare with a reference's."""
    import ctypes

    import numpy as np

    pointer = lambda a: a.ctypes.data_as(ctypes.POINTER(ctypes.c_double))  # noqa: E731
    with initialised_instance(model, parameters, "derivatives") as (instance, md, _):
        states = np.ascontiguousarray(np.atleast_2d(np.asarray(states, dtype=float)))
        nx = md.numberOfContinuousStates
        if states.shape[1] != nx:
            raise NonholonomicError(f"{md.modelName} has {nx} states, got rows of {states.shape[1]}")
        instance.enterContinuousTimeMode()
        instance.setTime(time)
        out = np.zeros_like(states)
        for x, dx in zip(states, out):
            instance.setContinuousStates(pointer(np.ascontiguousarray(x)), nx)
            instance.getContinuousStateDerivatives(pointer(dx), nx)
    return out
