"""The example models of the Modelica library: what can be built, simulated and verified.

The catalogue is read from the library itself (``Nonholonomic/Examples/package.order`` and each model's
description string and ``experiment`` annotation), so a new example needs no Python change.
"""

from __future__ import annotations

import dataclasses
import pathlib
import re

from .errors import NonholonomicError

ROOT = pathlib.Path(__file__).resolve().parents[2]
LIBRARY = ROOT / "modelica" / "Nonholonomic"
FMU_DIR = ROOT / "fmus"


@dataclasses.dataclass(frozen=True)
class ExampleModel:
    name: str             # short name, also the FMU file name: fmus/<name>.fmu
    modelica_class: str   # fully qualified Modelica class
    description: str
    source: pathlib.Path
    experiment: dict      # StartTime, StopTime, Tolerance, Interval from the annotation

    @property
    def fmu(self) -> pathlib.Path:
        return FMU_DIR / f"{self.name}.fmu"


def _read_example(name: str, library: pathlib.Path) -> ExampleModel:
    source = library / "Examples" / f"{name}.mo"
    if not source.is_file():
        raise NonholonomicError(f"{library / 'Examples' / 'package.order'} lists {name}, but {source} is missing")
    text = source.read_text()
    m = re.search(rf'model\s+{name}\s+"([^"]*)"', text)
    experiment = {}
    e = re.search(r"experiment\s*\(([^)]*)\)", text)
    if e:
        for key, value in re.findall(r"(\w+)\s*=\s*([-+0-9.eE]+)", e.group(1)):
            experiment[key] = float(value)
    return ExampleModel(name, f"Nonholonomic.Examples.{name}", m.group(1) if m else "", source, experiment)


def list_models(library: pathlib.Path = LIBRARY) -> list[ExampleModel]:
    """All example models of the library, in the library's order."""
    order_file = pathlib.Path(library) / "Examples" / "package.order"
    if not order_file.is_file():
        raise NonholonomicError(f"no Nonholonomic library at {library} ({order_file} missing)")
    return [_read_example(name, pathlib.Path(library)) for name in order_file.read_text().split()]


def get_model(name: str, library: pathlib.Path = LIBRARY) -> ExampleModel:
    """An example model by short name (``BallOnParaboloid``) or full Modelica class name."""
    models = list_models(library)
    for model in models:
        if name in (model.name, model.modelica_class):
            return model
    known = ", ".join(m.name for m in models)
    raise NonholonomicError(f"unknown model '{name}' (known: {known})")
