"""Shared fixtures: FMUs built with the rumoca backend (rebuilt when the Modelica sources or the exporter are newer)."""

from __future__ import annotations

import pathlib
import signal
import sys

import numpy as np
import pytest

from nonholonomic.build import build
from nonholonomic.models import FMU_DIR, LIBRARY, list_models


def _build_stale_fmus(progress=None) -> None:
    """Build the FMUs of the examples that are missing or not up to date (their stamps: ``nonholonomic build``
    skips the others), all at once, one per core, under a lock: with pytest-xdist every worker asks, the first
    builds, the others wait for it and find nothing left to build."""
    import fcntl
    FMU_DIR.mkdir(exist_ok=True)
    with open(FMU_DIR / ".tests-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        build(backend="rumoca", progress=progress)


def pytest_sessionstart(session) -> None:
    """With workers (pytest-xdist, as ``./build.sh test`` runs), the FMUs are built here first, where the terminal
    shows their progress (a fresh clone builds for minutes); a worker's output would stay hidden until the end."""
    if getattr(session.config.option, "numprocesses", None) and not hasattr(session.config, "workerinput"):
        terminal = session.config.pluginmanager.get_plugin("terminalreporter")

        def say(line: str) -> None:
            if not line.startswith("[") or ": wrote " in line:  # one line per FMU
                terminal.write_line(line)
        _build_stale_fmus(progress=say)


@pytest.fixture(scope="session")
def rumoca_fmus() -> dict[str, pathlib.Path]:
    """fmus/<model>.fmu for every example model, built by the rumoca backend where missing or not up to date."""
    _build_stale_fmus()
    return {m.name: m.fmu for m in list_models()}


def on_grid(frame, interval: float):
    """The rows at the output times k * interval (one each: the last), without the rows of events between them."""
    steps = frame["time"].to_numpy() / interval
    rows = frame[np.abs(steps - np.round(steps)) <= 1e-9 * np.maximum(1.0, steps)]
    return rows.drop_duplicates("time", keep="last").reset_index(drop=True)


def sigint_default() -> None:
    """``preexec_fn`` of the child processes that tests interrupt: SIGINT at its default action (Python's
    KeyboardInterrupt) as in a terminal, whatever the test runner inherited. A runner started in the
    background by a non-interactive shell ignores SIGINT, its children inherit that, and Python then
    installs no handler of its own: the Ctrl-C tests would fail for a reason that is not the code."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def write_package(root: pathlib.Path, name: str, body: str) -> pathlib.Path:
    """A one-file Modelica package ``root/name/package.mo``; returns the package folder."""
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "package.mo").write_text(f"package {name}\n{body}\nend {name};\n")
    return folder


def fmu_from_source(root: pathlib.Path, source: str, model: str, fmi_version: int = 3) -> pathlib.Path:
    """Build an FMU (rumoca backend, FMI ``fmi_version``) of ``model`` from a one-file Modelica package that uses
    the library."""
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
    return export_fmu(build_explicit_ode(FlatDae.of(compiled, model)), name, root / f"{name}.fmu",
                      fmi_version=fmi_version)


class FmuJacobian:
    """An FMU of the rumoca backend opened for its derivatives: ``derivatives(x)`` through FMI,
    ``jacobian(x)`` through the binary's exported exact Jacobian (parameters at their start values,
    except those given)."""

    def __init__(self, fmu: pathlib.Path, tmp: pathlib.Path, parameters: dict | None = None):
        import ctypes
        import json
        from fmpy import extract, read_model_description
        from fmpy.fmi3 import FMU3Model
        from nonholonomic.backends.fmu_export import JACOBIAN_SYMBOL, PARAMETER_INFO
        folder = pathlib.Path(extract(str(fmu), unzipdir=str(tmp)))
        md = read_model_description(str(folder))
        refs = {v.name: v.valueReference for v in md.modelVariables}
        self.nx = md.numberOfContinuousStates
        self.states = [v.derivative.name for v in md.modelVariables if v.derivative is not None]
        self.derivative_refs = [v.valueReference for v in md.modelVariables if v.derivative is not None]
        self.state_refs = [v.derivative.valueReference for v in md.modelVariables if v.derivative is not None]
        self.instance = FMU3Model(guid=md.guid, unzipDirectory=str(folder),
                                  modelIdentifier=md.modelExchange.modelIdentifier, instanceName="jacobian")
        self.instance.instantiate()
        if parameters:
            self.instance.setFloat64([refs[n] for n in parameters], list(parameters.values()))
        self.instance.enterInitializationMode()
        self.instance.exitInitializationMode()
        self.instance.enterContinuousTimeMode()
        names = json.loads((folder / PARAMETER_INFO).read_text())["jacobian_parameters"]
        self.p = np.array(self.instance.getFloat64([refs[n] for n in names]) if names else [0.0])
        self._jacobian = getattr(self.instance.dll, JACOBIAN_SYMBOL)
        double_p = ctypes.POINTER(ctypes.c_double)
        self._ptr = lambda a: a.ctypes.data_as(double_p)
        self._jacobian.argtypes = [ctypes.c_double, double_p, double_p, double_p, double_p, double_p]
        self.u = np.array([v.start for v in md.modelVariables if v.causality == "input"] + [0.0], dtype=float)
        self.m = np.zeros(max(1, int(json.loads((folder / PARAMETER_INFO).read_text()).get("memory_size", 0))))
        memory = self.instance.dll.nonholonomic_memory  # the event memory after initialisation
        memory.argtypes = [ctypes.c_void_p, double_p]
        assert memory(self.instance.component, self._ptr(self.m)) == 0

    def initial_state(self) -> np.ndarray:
        x = np.zeros(self.nx)
        self.instance.getContinuousStates(self._ptr(x), self.nx)
        return x

    def derivatives(self, x: np.ndarray) -> np.ndarray:
        x = np.ascontiguousarray(x, dtype=float)
        dx = np.zeros(self.nx)
        self.instance.setContinuousStates(self._ptr(x), self.nx)
        self.instance.getContinuousStateDerivatives(self._ptr(dx), self.nx)
        return dx

    def jacobian(self, x: np.ndarray, t: float = 0.0) -> np.ndarray:
        x = np.ascontiguousarray(x, dtype=float)
        out = np.zeros(self.nx * self.nx)
        assert self._jacobian(t, self._ptr(x), self._ptr(self.p), self._ptr(self.u), self._ptr(self.m),
                              self._ptr(out)) == 0
        return out.reshape(self.nx, self.nx, order="F")

    def central_differences(self, x: np.ndarray, relative_step: float) -> np.ndarray:
        columns = []
        for j in range(self.nx):
            h = relative_step * max(abs(x[j]), 1.0)
            e = np.zeros(self.nx)
            e[j] = h
            columns.append((self.derivatives(x + e) - self.derivatives(x - e)) / (2 * h))
        return np.array(columns).T
