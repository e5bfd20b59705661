"""Events in the rumoca backend (issue 14, part 1): when-equations, reinit, pre, edge, change, initial(),
elsewhen, discrete Real/Integer/Boolean variables, relations as state events, sample() and conditions on time
as time events, terminate().

Each model has a closed-form solution. It runs three ways: the project's integrator (CVODE locating the
roots of the FMU's event indicators, ``simulate``), fmpy's model exchange (its own CVODE loop through FMI)
and the FMU's co-simulation (CVODE with the events handled inside fmi3DoStep).

Bounds: between events every model here is a polynomial in t of degree <= 2 or a harmonic oscillation. CVODE's
error test keeps each step's local error below sqrt(n) (atol + rtol |x|) (weighted RMS norm <= 1); the global
error is at most the sum over the steps, and an event time moves by that error over the speed |dz/dt| of the
indicator at the crossing. Where the solution is linear in t between events, BDF is exact and only rounding is
left, which these bounds dominate.
"""

from __future__ import annotations

import math

import fmpy
import numpy as np
import pandas as pd
import pytest

from conftest import fmu_from_source
from nonholonomic.cosim import cs_steps
from nonholonomic.errors import SimulationFailed
from nonholonomic.simulate import simulate

SOURCE = """package Events
  model BouncingBall "A ball dropped on the ground, with restitution"
    parameter Real e = 0.8 "coefficient of restitution";
    parameter Real g = 9.81 "gravity";
    parameter Real h0 = 1 "start height";
    Real h(start = h0, fixed = true);
    Real v(start = 0, fixed = true);
    Integer impacts(start = 0, fixed = true);
    output Real height = h;
    output Real velocity = v;
  equation
    der(h) = v;
    der(v) = -g;
    when h < 0 then
      reinit(v, -e*pre(v));
      impacts = pre(impacts) + 1;
    end when;
  end BouncingBall;
  model SampledController "x' = u with u = -k x sampled every T and held"
    parameter Real k = 2;
    parameter Real T = 0.1;
    Real x(start = 1, fixed = true);
    discrete Real u(start = 0, fixed = true);
    Integer samples(start = 0, fixed = true);
    output Real position = x;
  equation
    der(x) = u;
    when sample(0, T) then
      u = -k*x;
      samples = pre(samples) + 1;
    end when;
  end SampledController;
  model Relay "x' = 1 while on, -1 while off; off above 1, on below -1"
    Real x(start = 0, fixed = true);
    Boolean on(start = true, fixed = true);
    output Real position = x;
    output Real force;
  equation
    when x > 1 then
      on = false;
    elsewhen x < -1 then
      on = true;
    end when;
    force = if on then 1 else -1;
    der(x) = force;
  end Relay;
  model SwitchedForce "x'' = -2 where x > 0, x'' = -x - 1/2 elsewhere"
    Real x(start = 1, fixed = true);
    Real v(start = 0, fixed = true);
    output Real position = x;
    output Real force;
  equation
    force = if x > 0 then -2 else -x - 0.5;
    der(x) = v;
    der(v) = force;
  end SwitchedForce;
  model Logic "edge, change, when {a, b}, initial(), elsewhen, a condition on time and terminate"
    parameter Real tStop = 1.5;
    Real x(start = 0, fixed = true);
    Boolean b;
    Integer n(start = 0, fixed = true);
    Integer k(start = 0, fixed = true);
    discrete Real tSwitch(start = -1, fixed = true);
    output Real position = x;
    output Real rate;
  equation
    rate = if time >= 0.25 then 2 else 1;
    der(x) = rate;
    b = x > 0.5;
    when {edge(b), x > 0.8} then
      n = pre(n) + 1;
    end when;
    when change(n) then
      k = pre(k) + 10;
    end when;
    when initial() then
      tSwitch = time;
    elsewhen b then
      tSwitch = time;
    end when;
    when time > tStop then
      terminate("done");
    end when;
  end Logic;
  model Domain "asserts on time-varying variables: the run fails at the event where one fails"
    parameter Real limit = 0.5;
    parameter Boolean watch = true;
    Real x(start = 1, fixed = true);
    output Real position = x;
  equation
    der(x) = -1;
    assert(x > limit, "x falls to its limit");
    when watch and x < 0.75 then
      assert(false, getInstanceName() + " passes 0.75");
    end when;
  end Domain;
  model ReinitSeesNewMode "v jumps to the speed of the mode the same event selects"
    Real x(start = 0, fixed = true);
    Real v(start = 1, fixed = true);
    Integer mode(start = 1, fixed = true);
    Real target "speed of the current mode";
    output Real position = x;
  equation
    target = if mode == 1 then 1 else -2;
    der(x) = v;
    der(v) = 0;
    when x > 1 then
      mode = 2;
      reinit(v, target);
    end when;
  end ReinitSeesNewMode;
  model ForLoop "relations inside a for-loop equation: x_i = i t, y_i switches at x_i = 1"
    Real x[3](each start = 0, each fixed = true);
    output Real y[3];
  equation
    for i in 1:3 loop
      der(x[i]) = i;
      y[i] = if x[i] > 1 then 1 else 0;
    end for;
  end ForLoop;
end Events;
"""

TOLERANCE = 1e-10
G, E, H0 = 9.81, 0.8, 1.0


@pytest.fixture(scope="module")
def fmus(tmp_path_factory):
    root = tmp_path_factory.mktemp("events")
    return {name: fmu_from_source(root / name, SOURCE, f"Events.{name}")
            for name in ("BouncingBall", "SampledController", "Relay", "SwitchedForce", "Logic",
                         "ReinitSeesNewMode", "ForLoop", "Domain")}


def run(fmu, interface: str, stop_time: float, outputs: list[str]) -> pd.DataFrame:
    """``own``: the project's integrator; ``me`` / ``cs``: fmpy's model exchange / the FMU's co-simulation.
    ``attrs["solver"]["steps"]``: CVODE's steps (own), the co-simulation's CVODE steps (cs)."""
    if interface == "own":
        return simulate(fmu, stop_time=stop_time, output_interval=0.01, tolerance=TOLERANCE, outputs=outputs)
    slave = cs_instance(fmu) if interface == "cs" else None
    try:
        result = fmpy.simulate_fmu(str(fmu), fmi_type={"me": "ModelExchange", "cs": "CoSimulation"}[interface],
                                   stop_time=stop_time, output_interval=0.01, relative_tolerance=TOLERANCE,
                                   output=outputs, fmu_instance=slave)
        df = pd.DataFrame({name: np.asarray(result[name]) for name in result.dtype.names})
        if slave is not None:
            df.attrs["solver"] = {"steps": cs_steps(slave)}
    finally:
        if slave is not None:
            slave.freeInstance()
    return df


def cs_instance(fmu):
    """An instantiated co-simulation FMU for fmpy (kept after the run, so that its step count can be read)."""
    md = fmpy.read_model_description(str(fmu))
    slave = fmpy.fmi3.FMU3Slave(guid=md.guid, unzipDirectory=fmpy.extract(str(fmu)),
                                modelIdentifier=md.coSimulation.modelIdentifier, instanceName="cs")
    slave.instantiate()
    return slave


def event_times(df: pd.DataFrame) -> np.ndarray:
    """Times recorded more than once (the left and the right limit of an event, and an output time that falls
    on it), one per event: an event whose crossing starts at the restart point after another is met again a few
    ulp later and changes nothing."""
    t = df["time"].to_numpy()
    repeated = t[1:][t[1:] == t[:-1]]
    return repeated[np.concatenate([[True], np.diff(repeated) > 1e-9])] if repeated.size else repeated


def right_limits(df: pd.DataFrame) -> pd.DataFrame:
    """One row per time: the last (after the event where there was one)."""
    return df.drop_duplicates("time", keep="last").reset_index(drop=True)


def steps(df: pd.DataFrame) -> int:
    """The integrator's steps of a run of ``run`` (own or cs)."""
    return df.attrs["solver"]["steps"]


def integration_bound(steps: int, n_states: int, scale: float) -> float:
    """Global error bound of a run: its steps (CVODE's, in the project's loop or in fmi3DoStep, with the same weighted RMS error
    test and atol = rtol here, event location included) times the local error allowed per step."""
    return steps * math.sqrt(n_states) * TOLERANCE * (1.0 + scale)


def ball_impacts(count: int) -> tuple[np.ndarray, np.ndarray]:
    """Impact times and speeds before impact: t1 = sqrt(2 h0/g), v1 = g t1, t_k+1 = t_k + 2 e^k v1/g."""
    v1 = math.sqrt(2 * G * H0)
    speeds = v1 * E ** np.arange(count)
    times = math.sqrt(2 * H0 / G) + np.concatenate([[0.0], np.cumsum(2 * E * speeds[:-1] / G)])
    return times, speeds


@pytest.mark.parametrize("interface", ["own", "me"])
def test_bouncing_ball_impact_times_and_heights(fmus, interface):
    df = run(fmus["BouncingBall"], interface, 2.5, ["height", "velocity", "impacts"])
    times, speeds = ball_impacts(4)
    # the ball also leaves h < 0 right after each impact (a second, silent event): the impacts are the events
    # where the velocity jumps
    t = df["time"].to_numpy()
    jumps = np.flatnonzero((t[1:] == t[:-1]) & (np.diff(df["velocity"].to_numpy()) != 0))
    measured = t[jumps]
    assert len(measured) == len(times)  # 0.45, 1.17, 1.75, 2.21 s before 2.5 s
    # an impact time moves by the height error over the impact speed (>= 2.8 m/s here); fmpy's run has no
    # step count: the project's run of the same model at the same tolerance bounds both
    reference_run = df if interface == "own" else run(fmus["BouncingBall"], "own", 2.5, ["height"])
    bound = integration_bound(steps(reference_run), 2, math.sqrt(2 * G * H0)) / speeds.min()
    assert np.max(np.abs(measured - times)) < bound
    before, after = df.iloc[jumps], df.iloc[jumps + 1]
    assert np.max(np.abs(-before["velocity"].to_numpy() - speeds)) < bound * G
    # reinit(v, -e pre(v)): the velocity after an impact is -e times the one before, to rounding
    assert np.allclose(after["velocity"].to_numpy(), -E * before["velocity"].to_numpy(), rtol=4 * np.finfo(float).eps,
                       atol=0)
    assert after["impacts"].tolist() == [1.0, 2.0, 3.0, 4.0]
    # the apex after impact k is e^2k h0, from the speed after it
    apex = after["velocity"].to_numpy() ** 2 / (2 * G)
    assert np.max(np.abs(apex - H0 * E ** (2 * np.arange(1, 5)))) < 2 * bound * G


def test_bouncing_ball_runs_alike_in_the_three_interfaces(fmus):
    own, me, cs = (run(fmus["BouncingBall"], i, 2.0, ["height"]) for i in ("own", "me", "cs"))
    grid = np.round(np.arange(0, 2.0 + 1e-9, 0.01), 10)
    values = {name: np.interp(grid, right_limits(df)["time"], right_limits(df)["height"])
              for name, df in (("own", own), ("me", me), ("cs", cs))}
    # closed form on the grid: after the impact k at t_k, h = e^k v1 (t - t_k) - g (t - t_k)^2 / 2
    times, speeds = ball_impacts(4)
    k = np.searchsorted(times, grid) - 1
    tau = np.where(k < 0, grid, grid - times[np.maximum(k, 0)])
    exact = np.where(k < 0, H0 - G * grid ** 2 / 2, E * speeds[np.maximum(k, 0)] * tau - G * tau ** 2 / 2)
    bound = integration_bound(steps(own), 2, math.sqrt(2 * G * H0))
    for name in ("own", "me"):
        assert np.max(np.abs(values[name] - exact)) < bound, name
    assert np.max(np.abs(values["cs"] - exact)) < integration_bound(steps(cs), 2, math.sqrt(2 * G * H0))


@pytest.mark.parametrize("interface", ["own", "me", "cs"])
def test_sampled_controller(fmus, interface):
    """u = -k x(t_j) at t_j = j T, held: x(t) = 0.8^j (1 - k (t - t_j)); linear between samples, so exact up
    to rounding (bound: the tolerance)."""
    df = right_limits(run(fmus["SampledController"], interface, 2.0, ["position", "u", "samples"]))
    t = df["time"].to_numpy()
    j = np.floor(t / 0.1 + 1e-9)
    exact = 0.8 ** j * (1 - 2.0 * (t - 0.1 * j))
    assert np.max(np.abs(df["position"].to_numpy() - exact)) < TOLERANCE
    assert np.max(np.abs(df["u"].to_numpy() + 2.0 * 0.8 ** j)) < 2 * TOLERANCE
    assert df["samples"].tolist() == (j + 1).tolist()  # ticks at 0, T, 2T, ... (t = 0 included)


@pytest.mark.parametrize("interface", ["own", "me", "cs"])
def test_relay_with_hysteresis(fmus, interface):
    """x' = +-1 between -1 and 1: a triangle wave of period 4, switching at t = 1, 3, 5."""
    df = run(fmus["Relay"], interface, 6.0, ["position", "force", "on"])
    if interface != "cs":  # the co-simulation records at the communication points only
        assert event_times(df) == pytest.approx([1.0, 3.0, 5.0], abs=TOLERANCE)
    df = right_limits(df)
    t = df["time"].to_numpy()
    exact = np.where(t <= 1, t, np.where(t <= 3, 2 - t, np.where(t <= 5, t - 4, 6 - t)))
    assert np.max(np.abs(df["position"].to_numpy() - exact)) < 10 * TOLERANCE
    inside = (np.abs(t - 1) > 1e-6) & (np.abs(t - 3) > 1e-6) & (np.abs(t - 5) > 1e-6)
    expected_on = ((t < 1) | ((t > 3) & (t < 5)))[inside]
    assert (df["on"].to_numpy()[inside] == expected_on).all()
    assert (df["force"].to_numpy()[inside] == np.where(expected_on, 1.0, -1.0)).all()


@pytest.mark.parametrize("interface", ["own", "me", "cs"])
def test_if_switched_force(fmus, interface):
    """x = 1 - t^2 until x = 0 at t = 1 (v = -2); then x'' = -x - 1/2:
    x = -1/2 + cos(t - 1)/2 - 2 sin(t - 1), until it comes back to 0 (not within 2 s)."""
    df = run(fmus["SwitchedForce"], interface, 2.0, ["position", "force"])
    if interface != "cs":
        assert event_times(df) == pytest.approx([1.0], abs=1e-8)
    df = right_limits(df)
    t = df["time"].to_numpy()
    tau = t - 1
    exact = np.where(t <= 1, 1 - t ** 2, -0.5 + 0.5 * np.cos(tau) - 2 * np.sin(tau))
    # fmpy's model exchange has no step count: the project's run of the same model bounds it
    bound = integration_bound(steps(df if interface != "me" else run(fmus["SwitchedForce"], "own", 2.0, ["position"])),
                              2, 2.0)
    assert np.max(np.abs(df["position"].to_numpy() - exact)) < bound


@pytest.mark.parametrize("interface", ["own", "me", "cs"])
def test_edge_change_initial_elsewhen_time_event_and_terminate(fmus, interface):
    """x' = 1, then 2 from t = 1/4 (a condition on time): x = 1/2 at t = 3/8, x = 0.8 at t = 0.525.
    edge(b) and x > 0.8 each fire n once, change(n) fires k twice, tSwitch is 0 at initial() and 3/8 when b
    rises; terminate() ends the run at t = 1.5 (x = 2.75)."""
    df = run(fmus["Logic"], interface, 3.0, ["position", "rate", "b", "n", "k", "tSwitch"])
    last = df.iloc[-1]
    assert last["time"] == pytest.approx(1.5, abs=1e-9)
    if interface == "own":
        assert df.attrs["terminated_at"] == pytest.approx(1.5, abs=1e-9)
    assert last["position"] == pytest.approx(2.75, abs=10 * TOLERANCE)
    assert (last["n"], last["k"], last["b"]) == (2.0, 20.0, 1.0)
    assert last["tSwitch"] == pytest.approx(0.375, abs=10 * TOLERANCE)
    first = df.iloc[0]
    assert (first["n"], first["k"], first["b"], first["tSwitch"]) == (0.0, 0.0, 0.0, 0.0)  # tSwitch: initial()
    if interface != "cs":
        # fmpy stops at terminate() without recording the event's right limit
        assert event_times(df)[:3] == pytest.approx([0.25, 0.375, 0.525], abs=10 * TOLERANCE)


@pytest.mark.parametrize("interface", ["own", "me", "cs"])
@pytest.mark.parametrize("watch, failed_at, message", [(1, 0.25, "Domain passes 0.75"),
                                                       (0, 0.5, "x falls to its limit")])
def test_an_assert_on_a_state_fails_the_run_at_its_event(fmus, interface, watch, failed_at, message):
    """x = 1 - t: the when-assert (watch = true) fails where x < 0.75 rises, the plain assert where x > 0.5 stops
    holding; each is a state event located to the integrator's root finding, and the run ends there with the
    model's message (the rows up to it kept by the project's loop)."""
    if interface == "own":
        with pytest.raises(SimulationFailed) as failed:
            simulate(fmus["Domain"], parameters={"watch": watch}, stop_time=1.0, output_interval=0.01,
                     tolerance=TOLERANCE, outputs=["position"])
        stated = str(failed.value).split("the model leaves its domain at t = ")[1]
        assert float(stated.split(" s: ")[0]) == pytest.approx(failed_at, abs=10 * TOLERANCE)
        assert stated.split(" s: ")[1] == message
        rows = failed.value.partial
        assert rows["time"].iloc[-1] == pytest.approx(failed_at, abs=10 * TOLERANCE)
        assert rows["position"].iloc[-1] == pytest.approx(1 - failed_at, abs=10 * TOLERANCE)
        return
    slave = cs_instance(fmus["Domain"]) if interface == "cs" else None
    try:
        with pytest.raises(Exception, match="fmi3(UpdateDiscreteStates|DoStep)"):
            fmpy.simulate_fmu(str(fmus["Domain"]), fmi_type={"me": "ModelExchange", "cs": "CoSimulation"}[interface],
                              stop_time=1.0, output_interval=0.01, relative_tolerance=TOLERANCE,
                              start_values={"watch": watch}, fmu_instance=slave)
    finally:
        if slave is not None:
            slave.freeInstance()


@pytest.mark.parametrize("interface", ["own", "me", "cs"])
def test_reinit_value_sees_the_discrete_values_of_its_event(fmus, interface):
    """At x = 1 (t = 1) mode becomes 2 and v is reinit to target, which depends on mode: Modelica solves the
    event's equations together, so v = -2 after it (not the old mode's 1): x = 1 - 2 (t - 1) beyond t = 1."""
    df = right_limits(run(fmus["ReinitSeesNewMode"], interface, 2.0, ["position", "mode"]))
    t = df["time"].to_numpy()
    exact = np.where(t <= 1, t, 1 - 2 * (t - 1))
    assert np.max(np.abs(df["position"].to_numpy() - exact)) < 10 * TOLERANCE  # linear: exact but for rounding
    assert df["mode"].iloc[-1] == 2.0


def test_relations_in_a_for_loop_equation(fmus):
    df = run(fmus["ForLoop"], "own", 1.5, ["y[1]", "y[2]", "y[3]"])
    assert event_times(df) == pytest.approx([1 / 3, 1 / 2, 1.0], abs=10 * TOLERANCE)  # x_i = i t = 1
    df = right_limits(df)
    for i in (1, 2, 3):
        assert (df[f"y[{i}]"].to_numpy() == (df["time"].to_numpy() * i >= 1 - 1e-9)).all()  # right limits


def test_event_indicators_in_the_model_description(fmus):
    md = fmpy.read_model_description(str(fmus["Relay"]))
    assert md.numberOfEventIndicators == 2  # x > 1 and x < -1
    variables = {v.name: v for v in md.modelVariables}
    assert variables["on"].variability == "discrete"
    assert "package.mo" in variables["_eventIndicator[1]"].description


def test_event_counts_in_the_solver_statistics(fmus):
    df = run(fmus["Relay"], "own", 6.0, ["position"])
    assert 3 <= df.attrs["solver"]["events"] <= 6  # three switches, each met at most once more (event_times)
    # a piecewise-linear solution: CVODE needs few steps, and the restarts do not reset the counts
    assert 3 <= df.attrs["solver"]["steps"] and df.attrs["solver"]["indicator_evaluations"] > 0


@pytest.mark.parametrize("interface", ["me", "cs"])
def test_events_inside_a_communication_step(fmus, interface):
    """The bouncing ball as a component of the co-simulation master, communication step 0.1 s: impacts fall
    inside steps (0.45 s, 1.17 s, 1.75 s) and are handled there, by the project's integrator (me) or by
    fmi3DoStep (cs); at the communication points the height is the closed form's."""
    from nonholonomic.cosim import FmuComponent, System
    ball = FmuComponent("ball", fmus["BouncingBall"], interface=interface)
    df = System([ball], []).run(stop_time=2.0, step=0.1, tolerance=TOLERANCE)["ball"]
    t = df["time"].to_numpy()
    times, speeds = ball_impacts(4)
    k = np.searchsorted(times, t) - 1
    tau = np.where(k < 0, t, t - times[np.maximum(k, 0)])
    exact = np.where(k < 0, H0 - G * t ** 2 / 2, E * speeds[np.maximum(k, 0)] * tau - G * tau ** 2 / 2)
    # me: CVODE restarted at each event; cs: CVODE in fmi3DoStep, restarted at each event: the component's steps over the run bound its
    # error as above
    bound = integration_bound(ball.steps, 2, math.sqrt(2 * G * H0))
    assert np.max(np.abs(df["height"].to_numpy() - exact)) < bound
