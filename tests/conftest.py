"""Shared fixtures: FMUs built with the rumoca backend (rebuilt when the Modelica sources are newer)."""

from __future__ import annotations

import pathlib

import pytest

from nonholonomic.build import build
from nonholonomic.models import LIBRARY, list_models


def _stale(fmu: pathlib.Path) -> bool:
    newest_source = max(p.stat().st_mtime for p in LIBRARY.rglob("*.mo"))
    return not fmu.is_file() or fmu.stat().st_mtime < newest_source


@pytest.fixture(scope="session")
def rumoca_fmus() -> dict[str, pathlib.Path]:
    """fmus/<model>.fmu for every example model, built by the rumoca backend where missing or stale."""
    stale = [m.name for m in list_models() if _stale(m.fmu)]
    if stale:
        build(stale, backend="rumoca")
    return {m.name: m.fmu for m in list_models()}


def write_package(root: pathlib.Path, name: str, body: str) -> pathlib.Path:
    """A one-file Modelica package ``root/name/package.mo``; returns the package folder."""
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "package.mo").write_text(f"package {name}\n{body}\nend {name};\n")
    return folder


def fmu_from_source(root: pathlib.Path, source: str, model: str) -> pathlib.Path:
    """Build an FMU (rumoca backend) of ``model`` from a one-file Modelica package that uses the library."""
    import rumoca
    from nonholonomic.backends.explicit_ode import build_explicit_ode
    from nonholonomic.backends.flat_dae import FlatDae
    from nonholonomic.backends.fmu_export import export_fmu
    package = model.split(".")[0]
    folder = root / package
    folder.mkdir(parents=True)
    (folder / "package.mo").write_text(source)
    compiled = rumoca.Session(roots=[str(LIBRARY.parent)]).load(str(folder / "package.mo"), model=model)
    name = model.rsplit(".", 1)[-1]
    return export_fmu(build_explicit_ode(FlatDae(compiled.to_dict("dae"), model)), name, root / f"{name}.fmu")
