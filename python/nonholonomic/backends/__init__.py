"""FMU backends: ``openmodelica`` (OMPython, FMI 2.0) and ``rumoca`` (rumoca + CasADi, FMI 3.0).

``auto`` picks OpenModelica when ``omc`` is installed and rumoca otherwise. Both write the same model
(same variable and parameter names) to ``fmus/<model>.fmu``; fmpy runs either.
"""

from __future__ import annotations

import pathlib

from ..errors import NonholonomicError

BACKENDS = ("auto", "openmodelica", "rumoca")


def resolve_backend(backend: str) -> str:
    from .openmodelica import omc_executable
    if backend not in BACKENDS:
        raise NonholonomicError(f"unknown backend '{backend}' (choose one of: {', '.join(BACKENDS)})")
    if backend == "auto":
        return "openmodelica" if omc_executable() else "rumoca"
    return backend


def build_fmu(backend: str, model: str, library_dir: pathlib.Path, out_path: pathlib.Path,
              experiment: dict | None = None, progress=None) -> pathlib.Path:
    backend = resolve_backend(backend)
    if backend == "openmodelica":
        from .openmodelica import build_fmu as om_build
        return om_build(model, library_dir, out_path, progress=progress)
    from .rumoca import build_fmu as rumoca_build
    return rumoca_build(model, library_dir, out_path, experiment=experiment, progress=progress)
