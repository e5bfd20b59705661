"""Build the FMUs of the example models into ``fmus/``."""

from __future__ import annotations

import pathlib
import time

from .backends import build_fmu, resolve_backend
from .errors import Interrupted, NonholonomicError
from .paths import check_writable_dir
from .models import FMU_DIR, LIBRARY, ExampleModel, get_model, list_models


def build(models=None, backend: str = "auto", out_dir: pathlib.Path | None = None,
          library_dir: pathlib.Path = LIBRARY, progress=None) -> list[pathlib.Path]:
    """Export the named example models (all by default; one name or a list) as FMUs; returns the FMU paths."""
    from .simulate import names_argument
    models = names_argument("models", models)
    if not isinstance(backend, str):
        raise NonholonomicError(f"backend must be a name (auto, openmodelica or rumoca), got {backend!r}")
    backend = resolve_backend(backend)
    library_dir = pathlib.Path(library_dir)
    examples: list[ExampleModel] = ([get_model(m, library_dir) for m in models] if models
                                    else list_models(library_dir))
    out_dir = pathlib.Path(out_dir) if out_dir is not None else FMU_DIR
    check_writable_dir(out_dir, "the FMU folder")
    paths = []
    for k, example in enumerate(examples, 1):
        say = (lambda msg, k=k, e=example: progress(f"[{k}/{len(examples)}] {e.name}: {msg}")) if progress else None
        start = time.perf_counter()
        try:  # the backends write each FMU under a temporary name and rename it: no half-written FMU
            path = build_fmu(backend, example.modelica_class, library_dir, out_dir / f"{example.name}.fmu",
                             experiment=example.experiment, progress=say)
        except KeyboardInterrupt:
            raise Interrupted(f"interrupted while building {example.name}; {len(paths)} of {len(examples)} FMUs "
                              f"built{' in ' + str(out_dir) if paths else ''}") from None
        if progress:
            progress(f"[{k}/{len(examples)}] {example.name}: wrote {path} ({backend}, {time.perf_counter() - start:.1f} s)")
        paths.append(path)
    return paths
