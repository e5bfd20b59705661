"""The rumoca -> CasADi translator on small models with known solutions."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bounds import roundoff
from conftest import write_package
from nonholonomic.backends.rumoca import build_fmu, explicit_ode
from nonholonomic.errors import NonholonomicError, SimulationFailed
from nonholonomic.simulate import simulate

# A mass on a spring written with an algebraic loop (acceleration and two forces solved together),
# a parameter bound to another parameter, and a start value that depends on parameters. Solving the
# loop by hand: f + g = -k x + m a/2 and m a = f + g, so a = -(2 k/m) x.
OSCILLATOR = """
  model Oscillator "x'' = -(2 k/m) x, with x(0) = amplitude, x'(0) = 0"
    parameter Real m(min = 1e-9) = 2 "mass";
    parameter Real k = 8 "stiffness";
    parameter Real amplitude = 0.5;
    parameter Real x0 = 2*amplitude/2 "start value bound to another parameter";
    Real x(start = x0, fixed = true);
    Real v(start = 0, fixed = true);
    Real a, f, g;
    output Real energy = 0.5*m*v^2 + k*x^2;
    output Real position = x;
  equation
    der(x) = v;
    der(v) = a;
    m*a = f + g;
    f = -k*x - g + m*a/2;
    g = m*a/4;
  end Oscillator;
"""


@pytest.fixture(scope="module")
def oscillator_fmu(tmp_path_factory):
    root = tmp_path_factory.mktemp("lib")
    library = write_package(root, "Small", OSCILLATOR)
    return build_fmu("Small.Oscillator", library, root / "Oscillator.fmu")


def test_algebraic_loop_and_parameter_start_values(oscillator_fmu):
    df = simulate(oscillator_fmu, {"amplitude": 0.3, "m": 2.0, "k": 8.0}, stop_time=3.0, output_interval=0.01,
                  tolerance=1e-12)
    omega = math.sqrt(2 * 8.0 / 2.0)  # a = -(2 k/m) x
    # CVODE at rtol 1e-12 over ~1.4 periods: measured 9e-11; bound 1e-7
    assert np.max(np.abs(df["position"] - 0.3 * np.cos(omega * df["time"]))) < 1e-7
    # BDF is not symplectic: the energy drifts by integration error only, measured 8e-10 at rtol 1e-12
    assert np.max(np.abs(df["energy"] - df["energy"][0])) / df["energy"][0] < 1e-8


def test_explicit_model_exposes_free_parameters_only(tmp_path):
    library = write_package(tmp_path, "Small", OSCILLATOR)
    ode = explicit_ode("Small.Oscillator", library)
    assert [p.name for p in ode.parameters] == ["m", "k", "amplitude"]  # x0 is bound to amplitude
    assert [s.name for s in ode.states] == ["x", "v"]
    assert [y.name for y in ode.outputs] == ["energy", "position"]
    assert ode.parameters[0].min == pytest.approx(1e-9)
    x0 = ode.initial_state([2.0, 8.0, 0.7]).full().ravel()
    assert x0 == pytest.approx([0.7, 0.0])
    assert ode.n_linear_blocks == 1 and ode.largest_linear_block == 3


def test_unsupported_construct_names_construct_and_place(tmp_path):
    library = write_package(tmp_path, "Small", """
  model Delayed
    Real x(start = 1, fixed = true);
  equation
    der(x) = -delay(x, 0.1);
  end Delayed;
""")
    with pytest.raises(NonholonomicError) as info:
        explicit_ode("Small.Delayed", library)
    message = str(info.value)
    assert "\n" not in message
    assert "delay" in message.lower()
    assert "package.mo:6" in message  # the line of der(x) = -delay(x, 0.1)


def test_exact_jacobian_of_the_algebraic_loop(oscillator_fmu, tmp_path):
    """The FMU's exported Jacobian, through the linear block: x' = v, v' = -(2 k/m) x."""
    from conftest import FmuJacobian
    for m, k in ((2.0, 8.0), (0.5, 3.0)):
        fmu = FmuJacobian(oscillator_fmu, tmp_path / f"m{m}", {"m": m, "k": k})
        for x in ([0.3, 0.0], [-1.2, 4.5]):
            # one solve of the linear block: round-off of the largest entry, 2 k/m
            assert fmu.jacobian(np.array(x)) == pytest.approx(np.array([[0.0, 1.0], [-2 * k / m, 0.0]]),
                                                              abs=roundoff(2 * k / m))


def test_simulate_hands_the_exact_jacobian_to_cvode(oscillator_fmu):
    exact = simulate(oscillator_fmu, stop_time=3.0, output_interval=0.01, tolerance=1e-10)
    differences = simulate(oscillator_fmu, stop_time=3.0, output_interval=0.01, tolerance=1e-10, exact_jacobian=False)
    assert exact.attrs["solver"]["jacobian"] == "exact (FMU)"
    assert exact.attrs["solver"]["jacobians"] >= 1 and exact.attrs["solver"]["finite_difference_evaluations"] == 0
    assert differences.attrs["solver"]["jacobian"] == "finite differences (CVODE)"
    assert differences.attrs["solver"]["finite_difference_evaluations"] >= 2  # n_x = 2 per Jacobian
    omega = math.sqrt(2 * 8.0 / 2.0)
    for df in (exact, differences):  # both converge to the solution (measured 2e-9 at rtol 1e-10)
        assert np.max(np.abs(df["position"] - 0.5 * np.cos(omega * df["time"]))) < 1e-7


def test_non_finite_jacobian_falls_back_to_finite_differences(tmp_path):
    # d sqrt(|y|)/dy = sign(y)/(2 sqrt(|y|)) is 0 * inf at y = 0, where y stays: every Jacobian is made
    # by finite differences, and the run gives x = t
    library = write_package(tmp_path, "Small", """
  model Kink
    Real x(start = 0, fixed = true);
    Real y(start = 0, fixed = true);
  equation
    der(x) = 1 + sqrt(abs(y));
    der(y) = 0;
  end Kink;
""")
    fmu = build_fmu("Small.Kink", library, tmp_path / "Kink.fmu")
    df = simulate(fmu, stop_time=1.0, output_interval=0.1, tolerance=1e-10, outputs=["x"])
    assert df.attrs["solver"]["jacobian_fallbacks"] == df.attrs["solver"]["jacobians"] >= 1
    # BDF integrates x' = 1 exactly: only round-off of |x| <= 1 per step accumulates
    assert df["x"].to_numpy() == pytest.approx(df["time"].to_numpy(), abs=df.attrs["solver"]["steps"] * roundoff())
    # a start value that is a structural zero of the initial-state function is set, not left uninitialised
    assert df["x"].iloc[0] == 0.0


ASSERTED = """
  model Asserted "x' = -k x with an assert on the parameters"
    parameter Real k = 1;
    parameter Real kmax = 3;
    Real x(start = 1, fixed = true);
  equation
    assert(k < kmax, "k must stay below kmax = " + String(kmax));
    der(x) = -k*x;
  end Asserted;
"""


def test_assert_on_parameters_is_checked_when_the_fmu_initialises(tmp_path):
    """An assert on parameters holds: the run goes; fails: simulate and plain fmpy (another importer) both stop at
    fmi3ExitInitializationMode with the model's message and its place."""
    import fmpy
    library = write_package(tmp_path, "Small", ASSERTED)
    fmu = build_fmu("Small.Asserted", library, tmp_path / "Asserted.fmu")
    run = simulate(fmu, stop_time=1.0, output_interval=0.5, tolerance=1e-10, outputs=["x"])
    assert run["x"].iloc[-1] == pytest.approx(math.exp(-1.0), rel=1e-8)  # CVODE at 1e-10 over one time constant
    with pytest.raises(NonholonomicError) as info:
        simulate(fmu, {"k": 5.0}, stop_time=1.0)
    assert "assertion failed: k must stay below kmax = <kmax> (package.mo:8)" in str(info.value)
    assert "\n" not in str(info.value)
    with pytest.raises(Exception):
        fmpy.simulate_fmu(str(fmu), start_values={"k": 5.0}, stop_time=1.0)


def test_assert_on_a_time_varying_variable_is_an_event_that_fails_the_run(tmp_path):
    """assert(x > 1/2): x = exp(-t) reaches 1/2 at t = ln 2, where the run fails with the model's message; the
    assert is no parameter check of the initialisation but an event of the run (test_events has more)."""
    library = write_package(tmp_path, "Small", ASSERTED.replace('assert(k < kmax, "k must stay below kmax = " + '
                                                                'String(kmax));', 'assert(x > 0.5, "x halves");'))
    fmu = build_fmu("Small.Asserted", library, tmp_path / "Asserted.fmu")
    assert not explicit_ode("Small.Asserted", library).assertions
    with pytest.raises(SimulationFailed) as info:
        simulate(fmu, stop_time=1.0, output_interval=0.1, tolerance=1e-10, outputs=["x"])
    message = str(info.value)
    assert "the model leaves its domain at t = " in message and message.endswith(" s: x halves")
    # CVODE at 1e-10 over one time constant: x within 1e-8 of exp(-t), so the zero within 1e-8/|x'| = 2e-8 s
    assert float(message.split("at t = ")[1].split(" s")[0]) == pytest.approx(math.log(2), abs=2e-8)
    assert info.value.partial["x"].iloc[-1] == pytest.approx(0.5, abs=1e-8)


COMPREHENSION = """
  function scaled "y[i] = i u[i], by an array comprehension in a function"
    input Real u[:];
    output Real y[size(u, 1)];
  algorithm
    y := {i*u[i] for i in 1:size(u, 1)};
  end scaled;
  model Comprehension
    Real x(start = 1, fixed = true);
    output Real y[3] = scaled({x, 2*x, 3*x});
  equation
    der(x) = -x;
  end Comprehension;
"""


def test_array_comprehension_in_a_function_sees_each_index(tmp_path):
    """Each element of a comprehension is evaluated with its own index (a function's expressions were cached by
    node without the comprehension's binders: every element was the first)."""
    import casadi as ca
    ode = explicit_ode("Small.Comprehension", write_package(tmp_path, "Small", COMPREHENSION))
    y = ode.output_values(0.0, [2.0], [], [], ca.DM.zeros(max(1, ode.n_memory))).full().ravel()
    assert list(y) == [2.0, 8.0, 18.0]  # i * (i x) at x = 2: exact in floating point
