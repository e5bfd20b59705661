"""An FMU on disk: where it is, its model description and what the rumoca backend adds beside it."""

from __future__ import annotations

import functools
import json
import pathlib
import zipfile

from .errors import NonholonomicError
from .models import get_model


def fmu_path(model: str | pathlib.Path) -> pathlib.Path:
    """The FMU of an example model (``fmus/<name>.fmu``), an explicit ``.fmu`` path, or a folder with an
    extracted FMU."""
    path = pathlib.Path(model)
    if path.is_dir() and (path / "modelDescription.xml").is_file():
        return path
    if path.suffix == ".fmu":
        if not path.is_file():
            raise NonholonomicError(f"FMU not found: {path}")
        return path
    example = get_model(str(model))
    if not example.fmu.is_file():
        raise NonholonomicError(f"no FMU for {example.name} yet: run `nonholonomic build {example.name}`")
    return example.fmu


@functools.lru_cache(maxsize=32)
def _description(path: str, mtime: float):
    from fmpy import read_model_description
    return read_model_description(path)


def model_description(fmu: pathlib.Path):
    return _description(str(fmu), fmu.stat().st_mtime)


@functools.lru_cache(maxsize=32)
def _extra_info(path: str, mtime: float) -> dict:
    """What the rumoca backend writes next to the model description (``PARAMETER_INFO``), or {}."""
    from .backends.fmu_export import PARAMETER_INFO
    if pathlib.Path(path).is_dir():
        info_file = pathlib.Path(path) / PARAMETER_INFO
        return json.loads(info_file.read_text()) if info_file.is_file() else {}
    with zipfile.ZipFile(path) as z:
        return json.loads(z.read(PARAMETER_INFO)) if PARAMETER_INFO in z.namelist() else {}




def extra_info(fmu: pathlib.Path) -> dict:
    """What the rumoca backend writes next to the model description (``PARAMETER_INFO``), or {}."""
    return _extra_info(str(fmu), fmu.stat().st_mtime)
