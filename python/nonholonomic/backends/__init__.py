"""FMU backends: ``openmodelica`` (OMPython, FMI 2.0) and ``rumoca`` (rumoca + CasADi, FMI 3.0 or 2.0).

``auto`` picks OpenModelica when ``omc`` is installed and rumoca otherwise (or for FMI 3). Both write the same model
(same variable and parameter names) to ``fmus/<model>.fmu``; fmpy runs either.
"""

from __future__ import annotations

import pathlib

from ..errors import NonholonomicError

BACKENDS = ("auto", "openmodelica", "rumoca")
FMI_VERSIONS = (2, 3)


def resolve_backend(backend: str, fmi_version=None) -> tuple[str, int]:
    """The backend and the FMI version of a build. ``auto`` picks OpenModelica when ``omc`` is installed and rumoca
    otherwise or where FMI 3 is asked for; ``fmi_version`` 2 or 3 (the rumoca backend writes both, OpenModelica's
    2 only), None for the backend's own (rumoca 3, openmodelica 2)."""
    from .openmodelica import omc_executable
    if backend not in BACKENDS:
        raise NonholonomicError(f"unknown backend '{backend}' (choose one of: {', '.join(BACKENDS)})")
    if fmi_version is not None and (isinstance(fmi_version, bool) or fmi_version not in FMI_VERSIONS):
        raise NonholonomicError(f"fmi_version must be 2 or 3, got {fmi_version!r}")
    if backend == "auto":
        backend = "openmodelica" if omc_executable() and fmi_version != 3 else "rumoca"
    if backend == "openmodelica" and fmi_version == 3:
        raise NonholonomicError("the openmodelica backend writes FMI 2.0 FMUs only, not FMI 3 (the rumoca backend "
                                "writes both: --backend rumoca)")
    return backend, int(fmi_version or (2 if backend == "openmodelica" else 3))


def build_fmu(backend: str, model: str, library_dir: pathlib.Path, out_path: pathlib.Path,
              experiment: dict | None = None, progress=None, fmi_version: int | None = None,
              stamp: dict | None = None, previous: dict | None = None) -> pathlib.Path:
    """The FMU of ``model``, FMI ``fmi_version`` (:func:`resolve_backend`), carrying the build stamp ``stamp``
    (:mod:`.stamp`); ``previous``: the stamp of the FMU at ``out_path``, which is kept where its model is
    unchanged (rumoca backend)."""
    backend, fmi_version = resolve_backend(backend, fmi_version)
    if backend == "openmodelica":
        from . import stamp as stamps
        from .openmodelica import build_fmu as om_build
        path = om_build(model, library_dir, out_path, progress=progress)
        if stamp:
            stamps.write(path, stamp)
        return path
    from .rumoca import build_fmu as rumoca_build
    return rumoca_build(model, library_dir, out_path, experiment=experiment, progress=progress,
                        fmi_version=fmi_version, stamp=stamp, previous=previous)
