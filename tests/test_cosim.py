"""Co-simulation master (nonholonomic.cosim): an FMU plant and a Python controller in the loop."""

from __future__ import annotations

import numpy as np
import pytest

from nonholonomic.cosim import FmuComponent, FunctionComponent, System
from nonholonomic.errors import NonholonomicError

from conftest import fmu_from_source
from test_inputs import SOURCE  # the forced oscillator x'' + k x = F, k = 4, from rest

K, REFERENCE = 12.0, 1.0  # proportional controller F = K (r - x): closed loop x'' + (k + K) x = K r


def closed_loop(t):
    """The monolithic solution of plant and controller: x = K r/(k + K) (1 - cos(sqrt(k + K) t))."""
    return K * REFERENCE / (4.0 + K) * (1 - np.cos(np.sqrt(4.0 + K) * t))


@pytest.fixture(scope="module")
def oscillator(tmp_path_factory):
    return fmu_from_source(tmp_path_factory.mktemp("cosim"), SOURCE, "Forced.Oscillator")


def run(oscillator, interface, algorithm, step, stop=2.0):
    plant = FmuComponent("plant", oscillator, interface=interface)
    controller = FunctionComponent("controller", lambda t, u: {"F": K * (REFERENCE - u["x"])}, ["x"], ["F"])
    system = System([plant, controller], [("plant.x_out", "controller.x"), ("controller.F", "plant.F")])
    return system.run(stop_time=stop, step=step, algorithm=algorithm, tolerance=1e-10)


@pytest.mark.parametrize("interface", ["me", "cs"])
@pytest.mark.parametrize("algorithm", ["jacobi", "gauss-seidel"])
def test_coupling_error_is_first_order(oscillator, interface, algorithm):
    """The held controller output lags the plant by up to one step: the difference to the monolithic
    solution is proportional to the step. Halving it halves the error (ratio in [1.6, 2.4]: the
    first-order term dominates once H sqrt(k + K) = 4 H << 1; the integrators' own error, about 1e-9 at
    rtol 1e-10, is far below the coupling errors of 1e-3..1e-2)."""
    errors = []
    for step in (0.02, 0.01, 0.005):
        plant = run(oscillator, interface, algorithm, step)["plant"]
        t = plant["time"].to_numpy()
        assert t[-1] == pytest.approx(2.0, abs=1e-12) and len(t) == round(2.0 / step) + 1
        errors.append(np.max(np.abs(plant["x_out"].to_numpy() - closed_loop(t))))
    ratios = [errors[0] / errors[1], errors[1] / errors[2]]
    assert all(1.6 <= r <= 2.4 for r in ratios), (errors, ratios)


def test_recorded_inputs_are_the_controller_outputs(oscillator):
    results = run(oscillator, "me", "gauss-seidel", 0.01, stop=0.2)
    plant, controller = results["plant"], results["controller"]
    assert np.array_equal(plant["F"].to_numpy(), controller["F"].to_numpy())
    assert np.array_equal(controller["x"].to_numpy(), plant["x_out"].to_numpy())
    # the controller's output at each point is its function of the recorded input (one rounding)
    assert np.allclose(controller["F"], K * (REFERENCE - controller["x"]), rtol=0, atol=1e-15 * K)


@pytest.mark.parametrize("connections, message", [
    ([("plant.nope", "controller.x")], "connection 'plant.nope': plant has no output 'nope'"),
    ([("plant.x_out", "controller.x"), ("plant.x_out", "controller.x")], "input connected twice: controller.x"),
    ([("robot.x_out", "controller.x")], "connection 'robot.x_out': no component 'robot'"),
    ([("plant.x_out",)], "connection ('plant.x_out',) is not a pair of names ('source.output', 'target.input')"),
    (["plant.x_out -> controller.x"], "connection 'plant.x_out -> controller.x' is not a pair of names"),
    ([("plant.x_out", 3)], "connection ('plant.x_out', 3) is not a pair of names"),
])
def test_bad_connections_are_one_line(oscillator, connections, message):
    plant = FmuComponent("plant", oscillator)
    controller = FunctionComponent("controller", lambda t, u: {"F": 0.0}, ["x"], ["F"])
    with pytest.raises(NonholonomicError) as error:
        System([plant, controller], connections)
    assert str(error.value).startswith(message)


def test_a_non_component_is_one_line(oscillator):
    controller = FunctionComponent("controller", lambda t, u: {"F": 0.0}, ["x"], ["F"])
    for components, message in (([controller, 3], "3 is not a component"), ("controller", "components must be a list")):
        with pytest.raises(NonholonomicError, match=message):
            System(components, [])


@pytest.mark.parametrize("interface", ["me", "cs"])
@pytest.mark.parametrize("law, message", [  # each law gives F = 1 up to t = 0.1 s and then fails
    (lambda t, u: {"F": float("nan") if t > 0.105 else 1.0}, r"component controller: output F = nan at t = 0\.11 s"),
    (lambda t, u: None if t > 0.105 else {"F": 1.0},
     r"component controller: its function returned NoneType, not a dict of its outputs \(F\)"),
    (lambda t, u: "push" if t > 0.105 else {"F": 1.0}, r"component controller: its function returned str, not a dict"),
    (lambda t, u: {"F": "push" if t > 0.105 else 1.0}, r"component controller: output F = 'push' is not a number"),
    (lambda t, u: {"F": 1 / 0 if t > 0.105 else 1.0}, r"component controller: its function raised ZeroDivisionError"),
])
def test_a_failing_controller_ends_the_run_with_its_rows(oscillator, interface, law, message):
    """The controller fails at its eleventh communication point (t = 0.11 s): SimulationFailed naming the component,
    the variable and the time, with the rows of the ten points before (0 to 0.1 s) for every component."""
    from nonholonomic.errors import SimulationFailed
    plant = FmuComponent("plant", oscillator, interface=interface)
    controller = FunctionComponent("controller", law, ["x"], ["F"])
    system = System([plant, controller], [("plant.x_out", "controller.x"), ("controller.F", "plant.F")])
    with pytest.raises(SimulationFailed, match=r"^co-simulation failed after t = 0\.1 s: " + message) as failure:
        system.run(stop_time=1.0, step=0.01)
    for frame in failure.value.partial.values():
        assert frame["time"].to_numpy() == pytest.approx(np.arange(11) * 0.01, abs=1e-15)
    assert (failure.value.partial["plant"]["F"] == 1.0).all()  # the plant never saw the bad value


def run_judged(oscillator, interface, step, accept, stop=0.5, halvings=10):
    plant = FmuComponent("plant", oscillator, interface=interface)
    controller = FunctionComponent("controller", lambda t, u: {"F": K * (REFERENCE - u["x"])}, ["x"], ["F"])
    system = System([plant, controller], [("plant.x_out", "controller.x"), ("controller.F", "plant.F")])
    return system.run(stop_time=stop, step=step, tolerance=1e-10, accept=accept, halvings=halvings)


STEP = 2.0 ** -6  # a power of two: t + H/2 and (2k + 1) H/2 are the same floating-point number


@pytest.mark.parametrize("interface", ["me", "cs"])
def test_a_step_accepted_as_it_is_changes_nothing(oscillator, interface):
    """Saving the components' states before each step (fmi3GetFMUState in co-simulation) leaves the run as it
    is, bit for bit."""
    plain = run_judged(oscillator, interface, STEP, None)["plant"]
    judged = run_judged(oscillator, interface, STEP, lambda t, h, before, after: True)["plant"]
    assert np.array_equal(plain.to_numpy(), judged.to_numpy())


def test_a_refused_step_is_rolled_back_and_taken_in_halves(oscillator):
    """Every step refused once: rolled back through the FMU's own state (co-simulation: CVODE restarts where a state
    is taken and where it is restored, and at each changed input), the run is that with the halved step, bit for bit, on the points of the whole step."""
    halves = run_judged(oscillator, "cs", STEP / 2, None)["plant"]
    judged = run_judged(oscillator, "cs", STEP, lambda t, h, before, after: h < STEP)["plant"]
    assert np.array_equal(halves.iloc[::2].to_numpy(), judged.to_numpy())


def test_model_exchange_rolls_back_to_its_saved_state(oscillator):
    """Model exchange: the project's CVODE restarts from the restored state and event memory. Its run with every
    step refused once differs from the run with the halved step only by the integrators' own errors (each about
    1e-9 at rtol 1e-10 over this run, the restart adding one BDF start-up per step): bound 1e-8."""
    halves = run_judged(oscillator, "me", STEP / 2, None)["plant"]
    judged = run_judged(oscillator, "me", STEP, lambda t, h, before, after: h < STEP)["plant"]
    assert np.abs(halves["x_out"].to_numpy()[::2] - judged["x_out"].to_numpy()).max() < 1e-8


def test_a_step_refused_at_every_halving_ends_the_run_with_its_rows(oscillator):
    from nonholonomic.errors import SimulationFailed
    refuse_late = lambda t, h, before, after: t < 4 * STEP  # noqa: E731
    with pytest.raises(SimulationFailed) as error:
        run_judged(oscillator, "cs", STEP, refuse_late, halvings=2)
    assert str(error.value) == (f"co-simulation failed after t = {4 * STEP:g} s: the step from t = {4 * STEP:g} s "
                                f"was refused 2 times halved (down to {STEP / 4:g} s)")
    assert len(error.value.partial["plant"]) == 5
