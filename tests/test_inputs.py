"""Top-level Modelica inputs become FMI inputs (rumoca backend), driven by tables in ``simulate``."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from nonholonomic.errors import NonholonomicError
from nonholonomic.fmu import model_description
from nonholonomic.simulate import simulate

from conftest import fmu_from_source
from test_cli import assert_one_line_error, run

# A forced oscillator x'' + k x = F(t), k = 4, at rest at t = 0
SOURCE = """package Forced
  model Oscillator
    parameter Real k(unit = "N/m") = 4 "Stiffness (unit mass)";
    input Real F(unit = "N", start = 0) "Applied force";
    output Real x_out(unit = "m") = x "Position";
    Real x(start = 0, fixed = true, unit = "m");
    Real v(start = 0, fixed = true, unit = "m/s");
  equation
    der(x) = v;
    der(v) = -k*x + F;
  end Oscillator;
end Forced;
"""
RTOL = 1e-10


@pytest.fixture(scope="module")
def oscillator(tmp_path_factory):
    return fmu_from_source(tmp_path_factory.mktemp("forced"), SOURCE, "Forced.Oscillator")


def test_input_is_an_fmi_input_with_unit_and_start(oscillator):
    inputs = [v for v in model_description(oscillator).modelVariables if v.causality == "input"]
    assert [(v.name, v.unit, float(v.start), v.variability) for v in inputs] == [("F", "N", 0.0, "continuous")]


@pytest.mark.parametrize("inputs, exact", [
    ({"F": 2.0}, lambda t: 0.5 * (1 - np.cos(2 * t))),                                  # constant force 2 N
    (pd.DataFrame({"time": [0.0, 10.0], "F": [0.0, 10.0]}), lambda t: t / 4 - np.sin(2 * t) / 8),  # ramp F = t
    (pd.DataFrame({"time": [0.0, 1.0], "F": [0.0, 1.0]}),                                # ramp, held after t = 1
     lambda t: np.where(t <= 1, t / 4 - np.sin(2 * t) / 8,
                        0.25 + (0.25 - np.sin(2) / 8 - 0.25) * np.cos(2 * (t - 1))
                        + (0.25 - np.cos(2) / 4) / 2 * np.sin(2 * (t - 1)))),
])
def test_driven_oscillator_against_closed_form(oscillator, inputs, exact):
    """The project's loop (the binary's CVODE callbacks interpolate the input table) against the closed
    form. Bound: the oscillator neither damps nor amplifies errors, so the global error is at most the
    sum of the local errors, one tolerance unit (atol + rtol |x|, atol = rtol x nominal 1) per step."""
    result = simulate(oscillator, stop_time=3.0, output_interval=0.05, tolerance=RTOL, inputs=inputs)
    t = result["time"].to_numpy()
    steps = result.attrs["solver"]["steps"]
    error = np.max(np.abs(result["x_out"].to_numpy() - exact(t)))
    assert error <= steps * RTOL * (1 + np.max(np.abs(exact(t))))
    given = inputs["F"] if isinstance(inputs, dict) else np.interp(t, inputs["time"], inputs["F"])
    assert np.array_equal(result["F"].to_numpy(), np.broadcast_to(given, t.shape))  # the input column as applied


@pytest.mark.parametrize("inputs, message", [
    ({"G": 1.0}, "unknown input 'G' of Forced.Oscillator (its inputs: F)"),
    ({"F": "strong"}, "input F: not a number"),
    (pd.DataFrame({"time": [0.0, 1.0, 1.0], "F": [0.0, 1.0, 2.0]}), "input table: the times must increase strictly"),
    (pd.DataFrame({"t": [0.0], "F": [1.0]}), "input table: no 'time' column"),
    ([1.0, 2.0], "inputs must be a dict of constants or a DataFrame with a time column, got list"),
])
def test_bad_inputs_are_one_line(oscillator, inputs, message):
    with pytest.raises(NonholonomicError) as error:
        simulate(oscillator, stop_time=0.1, inputs=inputs)
    assert str(error.value) == message


def test_cli_inputs_constant_and_table(oscillator, tmp_path):
    """``simulate --input``: a constant, a table file (ramp F = t on [0, 1]), and the bad forms as one line.
    Bound as in the closed-form test above, with the step count of the API run of the same case."""
    table = tmp_path / "force.csv"
    pd.DataFrame({"time": [0.0, 1.0], "F": [0.0, 1.0]}).to_csv(table, index=False)
    out = tmp_path / "run.csv"
    result = run("simulate", str(oscillator), "--input", str(table), "--stop-time", "1", "--output-interval", "0.1",
                 "--tolerance", str(RTOL), "--out", str(out))
    assert result.returncode == 0, result.stderr
    rows = pd.read_csv(out)
    t = rows["time"].to_numpy()
    steps = simulate(oscillator, stop_time=1.0, output_interval=0.1, tolerance=RTOL,
                     inputs=pd.read_csv(table)).attrs["solver"]["steps"]
    assert np.max(np.abs(rows["x_out"] - (t / 4 - np.sin(2 * t) / 8))) <= steps * RTOL * 2
    assert np.allclose(rows["F"], t, rtol=0, atol=1e-15)  # the input column, written as CSV text
    assert_one_line_error(run("simulate", str(oscillator), "--input", "G=1", "--out", str(out)), "unknown input 'G'")
    assert_one_line_error(run("simulate", str(oscillator), "--input", str(tmp_path / "none.csv"), "--out", str(out)),
                          "--input: cannot read")
    assert_one_line_error(run("simulate", str(oscillator), "--input", "force.txt", "--out", str(out)),
                          "--input expects name=value or a .csv/.parquet table")


def test_driven_omni_vehicle_symmetry(rumoca_fmus):
    """OmniVehicleDriven from rest: equal drive torques on the three wheels (120 degrees apart) turn the
    vehicle in place, its centre stays where it is; opposite torques on wheels 2 and 3 (axles at
    +-120 degrees, symmetric about the x axis) drive it along x without turning. Bounds: the symmetry is
    exact in the equations, broken only by the integration error, at most one tolerance unit
    (rtol x the scale of the motion, R_p = 0.15 m or the heading) per step; the motion itself is of
    order 1e-2 m and 1e-1 rad, far above."""
    fmu, rtol, scale = rumoca_fmus["OmniVehicleDriven"], 1e-6, 0.15
    spin = simulate(fmu, stop_time=0.5, output_interval=0.01, tolerance=rtol,
                    inputs={"tau[1]": 0.01, "tau[2]": 0.01, "tau[3]": 0.01})
    bound = spin.attrs["solver"]["steps"] * rtol * scale
    assert np.max(np.abs(spin[["x", "y"]].to_numpy())) <= bound
    assert abs(spin["psi"].iloc[-1]) > 0.1  # it turns (-0.42 rad measured)
    straight = simulate(fmu, stop_time=0.5, output_interval=0.01, tolerance=rtol,
                        inputs={"tau[2]": 0.01, "tau[3]": -0.01})
    bound = straight.attrs["solver"]["steps"] * rtol * scale
    assert np.max(np.abs(straight[["y", "psi"]].to_numpy())) <= bound
    assert straight["x"].iloc[-1] > 0.01  # it moves along x (0.028 m measured)


def test_fmpy_co_simulation_with_inputs_from_python(oscillator):
    """fmpy's co-simulation master runs the FMU's own integrator (CVODE) with an input array from Python:
    F = 2 N (held), so x = F/k (1 - cos 2t). Bound by the method's convergence instead of a number: with
    the error per step held at the tolerance, a method of order q has a global error falling like tol^(q/(q+1)),
    CVODE's BDF (orders 1 to 5) at least 100^(1/2) = 10 times per 100 times smaller tolerance, which is asserted;
    the error must be there (the exact solution is not reproduced by accident)."""
    import fmpy
    force = np.array([(0.0, 2.0)], dtype=[("time", float), ("F", float)])
    errors = []
    for rtol in (1e-6, 1e-8, 1e-10):
        result = fmpy.simulate_fmu(str(oscillator), fmi_type="CoSimulation", stop_time=3.0, output_interval=0.05,
                                   relative_tolerance=rtol, input=force, output=["x_out"])
        errors.append(np.max(np.abs(result["x_out"] - 0.5 * (1 - np.cos(2 * result["time"])))))
    assert errors[0] > 0 and errors[0] / errors[1] >= 10 and errors[1] / errors[2] >= 10, errors
