"""rumoca backend: rumoca flattens the Modelica model, the project turns the flat DAE into an explicit
ODE with CasADi and exports it as an FMI 3.0 (or 2.0) FMU, model exchange and co-simulation (see :mod:`.flat_dae`,
:mod:`.explicit_ode`, :mod:`.fmu_export`)."""

from __future__ import annotations

import pathlib
import re

from ..errors import NonholonomicError
from .explicit_ode import ExplicitOde, build_explicit_ode
from .flat_dae import FlatDae


def _diagnostic_line(error: Exception) -> str:
    """One line for a rumoca error: ``file:line:column: message`` of the first error where known."""
    import rumoca
    text = str(error).strip()
    failed_file = re.search(r"^- (.+?\.mo) \[", text, re.M)
    if failed_file:  # rumoca names the file; its validator gives the position
        for d in rumoca.validate(failed_file.group(1)):
            where = re.search(r"\[(.+?\.mo):(\d+):(\d+)\]", d.message)
            what = re.search(r"× (.+)", d.message)
            if d.level == "error" and where and what:
                return f"{where.group(1)}:{where.group(2)}:{where.group(3)}: {what.group(1).strip()}"
    return text.splitlines()[0] if text else type(error).__name__


def _compiled(model: str, library_dir: pathlib.Path):
    """rumoca's compiled form of the Modelica class ``model`` from the library in ``library_dir``."""
    import rumoca
    if not (library_dir / "package.mo").is_file():
        raise NonholonomicError(f"no Modelica library at {library_dir} (package.mo missing)")
    try:
        return rumoca.Session().load(str(library_dir / "package.mo"), model=model)
    except rumoca.RumocaError as e:
        raise NonholonomicError(f"rumoca could not compile {model}: {_diagnostic_line(e)}") from None


def flatten(model: str, library_dir: pathlib.Path) -> FlatDae:
    """rumoca's flat DAE of the Modelica class ``model`` from the library in ``library_dir``."""
    return FlatDae.of(_compiled(model, library_dir), model)


def _without_positions(value):
    """A flat DAE's storage without its source positions (``span``: file, start, end), which change with any
    edit of a file the model's classes are in, even one that leaves the model as it is."""
    if isinstance(value, dict):
        return {k: _without_positions(v) for k, v in value.items() if k != "span"}
    if isinstance(value, list):
        return [_without_positions(v) for v in value]
    return value


def explicit_ode(model: str, library_dir: pathlib.Path, progress=None) -> ExplicitOde:
    return build_explicit_ode(flatten(model, library_dir), progress=progress)


def build_fmu(model: str, library_dir: pathlib.Path, out_path: pathlib.Path, experiment: dict | None = None,
              progress=None, fmi_version: int = 3, stamp: dict | None = None, previous: dict | None = None
              ) -> pathlib.Path:
    """``stamp`` (:mod:`.stamp`): the FMU's ``sources`` key, completed here with its ``model`` key. Where the FMU at
    ``out_path`` has the ``previous`` stamp with the same ``model`` key, it is kept and only restamped."""
    from . import stamp as stamps
    from .fmu_export import export_fmu
    say = progress or (lambda msg: None)
    say("rumoca: flatten")
    compiled = _compiled(model, library_dir)
    dae, protected = compiled.to_dict("dae"), FlatDae.protected_names(compiled)
    stamp = dict(stamp or {})
    stamp["model"] = stamps.model_key({"dae": _without_positions(dae["storage"]), "protected": sorted(protected),
                                       "experiment": experiment}, "rumoca", fmi_version, model)
    if previous and previous.get("model") == stamp["model"] and out_path.is_file():
        say("its flat model is unchanged: FMU kept, stamp renewed")
        stamps.write(out_path, stamp)
        return out_path
    ode = build_explicit_ode(FlatDae(dae, model, protected), progress=say)
    fmi_experiment = None
    if experiment:
        keys = {"StartTime": "startTime", "StopTime": "stopTime", "Tolerance": "tolerance", "Interval": "stepSize"}
        fmi_experiment = {keys[k]: v for k, v in experiment.items() if k in keys}
    return export_fmu(ode, model.rsplit(".", 1)[-1], out_path, experiment=fmi_experiment, progress=say,
                      fmi_version=fmi_version, stamp=stamp)
