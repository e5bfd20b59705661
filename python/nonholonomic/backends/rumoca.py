"""rumoca backend: rumoca flattens the Modelica model, the project turns the flat DAE into an explicit
ODE with CasADi and exports it as an FMI 3.0 model-exchange FMU (see :mod:`.flat_dae`,
:mod:`.explicit_ode`, :mod:`.fmu_export`)."""

from __future__ import annotations

import pathlib

from ..errors import NonholonomicError
from .explicit_ode import ExplicitOde, build_explicit_ode
from .flat_dae import FlatDae


def _diagnostic_line(error: Exception) -> str:
    diagnostics = getattr(error, "diagnostics", None) or []
    for d in diagnostics:
        if getattr(d, "level", "error") == "error":
            where = f"{d.file}:{d.line}: " if getattr(d, "file", None) and getattr(d, "line", None) else ""
            return f"{where}{d.message}".splitlines()[0]
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def flatten(model: str, library_dir: pathlib.Path) -> dict:
    """rumoca's flat DAE of the Modelica class ``model`` from the library in ``library_dir``."""
    import rumoca
    try:
        session = rumoca.Session(roots=[str(library_dir.parent)])
        compiled = session.load(str(library_dir / "package.mo"), model=model)
        return compiled.to_dict("dae")
    except rumoca.RumocaError as e:
        raise NonholonomicError(f"rumoca could not compile {model}: {_diagnostic_line(e)}") from None


def explicit_ode(model: str, library_dir: pathlib.Path, progress=None) -> ExplicitOde:
    return build_explicit_ode(FlatDae(flatten(model, library_dir), model), progress=progress)


def build_fmu(model: str, library_dir: pathlib.Path, out_path: pathlib.Path, experiment: dict | None = None,
              progress=None) -> pathlib.Path:
    from .fmu_export import export_fmu
    say = progress or (lambda msg: None)
    say("rumoca: flatten")
    ode = explicit_ode(model, library_dir, progress=say)
    fmi_experiment = None
    if experiment:
        keys = {"StartTime": "startTime", "StopTime": "stopTime", "Tolerance": "tolerance", "Interval": "stepSize"}
        fmi_experiment = {keys[k]: v for k, v in experiment.items() if k in keys}
    return export_fmu(ode, model.rsplit(".", 1)[-1], out_path, experiment=fmi_experiment, progress=say)
