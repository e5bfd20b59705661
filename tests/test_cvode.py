"""The project's own CVODE loop (nonholonomic.cvode): CVODE calls the FMU binary's exported right-hand side,
Jacobian and batch outputs directly; they agree with the FMU's FMI functions, and Ctrl-C ends a run
promptly with the rows so far."""

from __future__ import annotations

import ctypes
import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from conftest import sigint_default
from nonholonomic.cvode import _Fmi3
from nonholonomic.fmu import extra_info, model_description
from nonholonomic.inputs import input_table


@pytest.mark.parametrize("model", ["ChaplyginSleigh", "ShellWithNonholonomicHinge", "Wheelset"])
def test_exported_solver_functions_agree_with_fmi(model, rumoca_fmus, tmp_path):
    """nonholonomic_cvode_rhs against fmi3GetContinuousStateDerivatives and nonholonomic_outputs against
    fmi3GetFloat64, at the initial state and at a perturbed one: the same expressions in two generated
    functions, one evaluation each, so they can differ by round-off only, which the linear block
    (accelerations and reactions) amplifies by its condition number. Measured: identical (CasADi emits the
    same operations in the same order); bound 1e-10 relative to the largest magnitude."""
    fmu = rumoca_fmus[model]
    md, info = model_description(fmu), extra_info(fmu)
    refs = {v.name: v.valueReference for v in md.modelVariables}
    instance = _Fmi3(fmu, md, info, str(tmp_path))
    try:
        instance.initialise(1e-6, 1.0)
        instance.parameters = instance.get([refs[n] for n in info["jacobian_parameters"]])
        derivatives = instance.dll.fmi3GetContinuousStateDerivatives
        derivatives.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_double), ctypes.c_size_t]
        x0 = instance.states()
        rows = np.array([x0, x0 + 1e-3 * np.random.default_rng(1).standard_normal(x0.size)])
        times = np.array([0.0, 0.5])
        inputs = input_table(md, None)
        memories = np.zeros((len(times), 1))  # these models have no events
        frame = instance.frame(times, rows, memories, info["output_names"], info, refs, inputs)
        for time_, x, (_, row) in zip(times, rows, frame.iterrows()):
            instance._check(instance.dll.fmi3SetTime(instance._instance, time_), "fmi3SetTime")
            instance._check(instance.dll.fmi3SetContinuousStates(instance._instance, _pointer(x), x.size), "set")
            through_fmi = np.zeros(x.size)
            instance._check(derivatives(instance._instance, _pointer(through_fmi), x.size), "derivatives")
            outputs = np.array(instance.get([refs[n] for n in info["output_names"]]))
            exported, jacobian = _cvode_functions(instance, time_, x)
            assert np.max(np.abs(exported - through_fmi)) <= 1e-10 * np.max(np.abs(through_fmi))
            # CVODE's Jacobian entry point is the exported exact Jacobian (the same generated function)
            assert np.array_equal(jacobian, _state_jacobian(instance, time_, x))
            batch = row[info["output_names"]].to_numpy(dtype=float)
            assert np.max(np.abs(batch - outputs)) <= 1e-10 * np.max(np.abs(outputs))
    finally:
        instance.free()


def _pointer(a: np.ndarray):
    return a.ctypes.data_as(ctypes.POINTER(ctypes.c_double))


def _cvode_functions(instance: _Fmi3, t: float, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The binary's CVODE right-hand side and Jacobian on plain arrays: their user data takes the
    functions that give a vector's or a matrix's data, here the identity on pointers."""
    from nonholonomic.cvode import Cvode
    identity = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p)(lambda p: p)
    p = (ctypes.c_double * max(1, len(instance.parameters)))(*instance.parameters)
    u = np.zeros(1)  # these models have no inputs
    data = Cvode.data_type(0)(ctypes.cast(identity, ctypes.c_void_p), ctypes.cast(identity, ctypes.c_void_p), p,
                              x.size, 0, None, None, 0, 1, _pointer(u), _pointer(u), _pointer(u))  # m: no events
    rhs, jac = instance.dll.nonholonomic_cvode_rhs, instance.dll.nonholonomic_cvode_jacobian
    rhs.argtypes = [ctypes.c_double] + [ctypes.c_void_p] * 3
    jac.argtypes = [ctypes.c_double] + [ctypes.c_void_p] * 7
    state, out = np.array(x, dtype=float), np.zeros(x.size)
    matrix, scratch = np.zeros((x.size, x.size), order="F"), np.zeros(x.size)
    assert rhs(t, state.ctypes.data, out.ctypes.data, ctypes.addressof(data)) == 0
    assert jac(t, state.ctypes.data, out.ctypes.data, matrix.ctypes.data, ctypes.addressof(data),
               scratch.ctypes.data, scratch.ctypes.data, scratch.ctypes.data) == 0
    assert data.fallbacks == 0
    instance.dll.nonholonomic_cvode_data_free.argtypes = [ctypes.c_void_p]
    instance.dll.nonholonomic_cvode_data_free(ctypes.addressof(data))
    return out, matrix


def _state_jacobian(instance: _Fmi3, t: float, x: np.ndarray) -> np.ndarray:
    from nonholonomic.backends.fmu_export import JACOBIAN_SYMBOL
    function = getattr(instance.dll, JACOBIAN_SYMBOL)
    function.argtypes = [ctypes.c_double] + [ctypes.POINTER(ctypes.c_double)] * 5
    p, u = np.array(instance.parameters + [0.0]), np.zeros(1)  # no inputs, no events
    matrix = np.zeros((x.size, x.size), order="F")  # column-major
    assert function(t, _pointer(np.array(x, dtype=float)), _pointer(p), _pointer(u), _pointer(u),
                    _pointer(matrix)) == 0
    return matrix


# SIGINT to a Python process that runs nonholonomic.simulate on the omni vehicle (API, not the CLI): it
# must raise Interrupted with the rows so far soon after the signal. CVODE returns to Python every
# Cvode.STEPS_PER_CALL steps (signal to Interrupted measured 0.04 s with the exact Jacobian, 0.26 s with
# finite differences); the bound of 3 s leaves room for a machine loaded by other work, far below the
# 1000 s the run would otherwise take.
_CHILD = textwrap.dedent("""
    import json, pathlib, sys, time
    import nonholonomic as nh
    from nonholonomic.errors import Interrupted
    marker = pathlib.Path(sys.argv[2])
    def progress(t, stop):
        if t >= 0.01 and not marker.exists():
            marker.write_text("running")
    try:
        nh.simulate(sys.argv[1], stop_time=1000.0, output_interval=0.001, progress=progress,
                    exact_jacobian=sys.argv[3] == "exact")
        print(json.dumps({"finished": True}))
    except Interrupted as e:
        print(json.dumps({"caught": time.time(), "time": e.time, "rows": len(e.partial),
                          "last": float(e.partial["time"].iloc[-1]), "first": float(e.partial["time"].iloc[0]),
                          # in order; a roller change is an event, whose two rows share their time
                          "increasing": bool((e.partial["time"].diff().dropna() >= 0).all()
                                             and e.partial["time"].value_counts().max() <= 2)}))
""")


@pytest.mark.parametrize("jacobian", ["exact", "differences"])
def test_sigint_raises_interrupted_with_the_rows_so_far(jacobian, rumoca_fmus, tmp_path):
    temp = tmp_path / "tmp"
    temp.mkdir()
    marker = tmp_path / "running"
    child = subprocess.Popen([sys.executable, "-c", _CHILD, str(rumoca_fmus["OmniVehicleStraight"]), str(marker),
                              jacobian], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "TMPDIR": str(temp)}, preexec_fn=sigint_default)
    try:
        deadline = time.time() + 300
        while not marker.exists() and child.poll() is None and time.time() < deadline:
            time.sleep(0.05)
        assert marker.exists(), child.stderr.read() if child.poll() is not None else "no progress in 300 s"
        time.sleep(0.5)
        sent = time.time()
        child.send_signal(signal.SIGINT)
        stdout, stderr = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 0, stderr
    result = json.loads(stdout.strip().splitlines()[-1])
    assert "caught" in result, result
    assert result["caught"] - sent < 3.0
    assert result["first"] == 0.0 and result["increasing"] and result["rows"] >= 11  # t = 0 ... >= 0.01
    assert result["last"] == result["time"] < 1000.0
    assert list(temp.iterdir()) == []  # the extracted binary is removed
