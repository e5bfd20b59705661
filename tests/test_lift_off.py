"""Lift-off of the ideal contacts (issue 28): an ideal rolling contact can only push. Where its normal force would
turn negative the run stops at that instant (a state event) with one line naming the contact, and keeps the rows
up to it; ``unilateral = false`` lets the surface pull.

The instants are those of the references, written from the classical equations (the rolling disk) and from the
paper (the ball on a surface of revolution): each computes its normal force and finds where it falls through
zero with its own integrator's event location. The disk's is checked once more against a closed form (the
disk released without spin falls in its plane: an energy integral and a quadrature)."""

from __future__ import annotations

import subprocess

import numpy as np
import pandas as pd
import pytest

from nonholonomic.cases import system_cases
from nonholonomic.errors import SimulationFailed
from nonholonomic.references.ball_on_surface import BallOnSurfaceOfRevolution
from nonholonomic.references.meridians import meridian_from_code
from nonholonomic.references.rolling_disk import RollingDisk
from nonholonomic.simulate import simulate
from test_cli import CLI

# The FMUs run at rtol 1e-10 (the examples' experiment annotation) for well under a second: CVODE keeps the
# global error of such short runs within about 1e3 rtol of the state's scale, and a state error e moves the
# zero of N by e/|dN/dt| (|dN/dt| is several N/s in both set-ups, N of order 1 to 10 N), so 1e-6 s is that
# bound with a margin; the event itself is located to round-off.
EVENT_TIME_BOUND = 1e-6
DISK = dict(m=1.0, R=0.1, g=9.81)
FALLING = dict(theta_0=1.4, dpsi_0=0.0, dphi_0=0.0)  # released at rest, tilted 0.17 rad from upright
# a ball climbing the outside of an inverted cone (a peak, slope 31 degrees) towards its apex while it circles:
# the circling speed grows as the radius shrinks until the centrifugal pull exceeds gravity's push
CONE = dict(surface=4, a=0.5, b=-0.3, q1_0=1.0, v1_0=-4.0, v2_0=2.0)


def _disk() -> RollingDisk:
    return RollingDisk.homogeneous(DISK["m"], DISK["R"], DISK["g"])


def _failure(fmu, parameters: dict, stop_time: float) -> SimulationFailed:
    with pytest.raises(SimulationFailed) as failed:
        simulate(fmu, parameters=parameters, stop_time=stop_time)
    return failed.value


def test_reference_lift_off_of_the_falling_disk_agrees_with_the_closed_form():
    """The reference's event on its contact force (general equations, integrated) and the closed form (the planar
    fall: energy integral and quadrature) are two formulations; both at rtol 1e-12, so 1e-9 s bounds them."""
    disk = _disk()
    theta, time = disk.falling_lift_off(FALLING["theta_0"])
    event = disk.lift_off(np.array([FALLING["theta_0"], 0, 0, 0, 0, 0, 0, 0]), t_max=1.0)
    assert event == pytest.approx(time, abs=1e-9)
    # the closed form for the thin homogeneous disk: sin theta = (s0 + sqrt(s0^2 - 3/4))/3
    s0 = np.sin(FALLING["theta_0"])
    assert np.sin(theta) == pytest.approx((s0 + np.sqrt(s0**2 - 0.75)) / 3, rel=1e-14)


def test_falling_disk_stops_at_the_references_lift_off(rumoca_fmus):
    disk = _disk()
    expected = disk.lift_off(np.array([FALLING["theta_0"], 0, 0, 0, 0, 0, 0, 0]), t_max=1.0)
    failure = _failure(rumoca_fmus["RollingDisk"], FALLING, stop_time=2.0)
    message = str(failure)
    assert "the model leaves its domain at t = " in message
    assert "RollingDisk.contact lifts off: its normal force N reaches 0 N" in message
    stated = float(message.split("at t = ")[1].split(" s")[0])
    assert stated == pytest.approx(expected, abs=EVENT_TIME_BOUND)
    rows = failure.partial
    assert rows["time"].iloc[-1] == pytest.approx(expected, abs=EVENT_TIME_BOUND)
    assert rows["time"].iloc[-2] < rows["time"].iloc[-1]  # the output grid up to the event, then the event
    # N = m (g + z'') falls from m g (1 - ...) to 0: the last row is the zero (to the solver's tolerance, scaled
    # by m g), every row before it pushes
    assert abs(rows["N"].iloc[-1]) < 1e-6 * DISK["m"] * DISK["g"]
    assert (rows["N"].iloc[:-1] > 0).all()


def test_bilateral_disk_goes_on_with_a_pulling_plane(rumoca_fmus):
    disk = _disk()
    expected = disk.lift_off(np.array([FALLING["theta_0"], 0, 0, 0, 0, 0, 0, 0]), t_max=1.0)
    rows = simulate(rumoca_fmus["RollingDisk"], parameters={**FALLING, "unilateral": 0}, stop_time=0.32,
                    output_interval=0.001)
    assert rows["time"].iloc[-1] == pytest.approx(0.32)
    after = rows[rows["time"] > expected + 0.002]
    assert len(after) > 0 and (after["N"] < 0).all()  # the plane pulls: the bilateral model of before
    before = rows[rows["time"] < expected - 0.002]
    assert (before["N"] > 0).all()


def test_a_fast_disk_keeps_rolling(rumoca_fmus):
    """The example's own motion (tilted 0.17 rad, precessing, spinning at 15 rad/s) never lifts off over its
    10 s: the reference's force stays positive, and the FMU runs to the end."""
    disk = _disk()
    assert disk.lift_off(np.array([1.4, 0, 0, 0, 1.0, 15.0, 0, 0]), t_max=10.0) is None
    rows = simulate(rumoca_fmus["RollingDisk"])
    assert rows["time"].iloc[-1] == pytest.approx(10.0)
    assert rows["N"].min() > 0.5 * DISK["m"] * DISK["g"]


def test_ball_on_a_peak_lifts_off_at_the_references_instant(rumoca_fmus):
    model = BallOnSurfaceOfRevolution(meridian_from_code(CONE["surface"], CONE["a"], CONE["b"]), n2=2 / 7, g=9.81)
    expected = model.lift_off(np.array([CONE["q1_0"], 0.0, CONE["v1_0"], CONE["v2_0"], 0.0]), t_max=1.0)
    assert expected is not None and 0.1 < expected < 0.3
    failure = _failure(rumoca_fmus["BallOnSurfaceOfRevolution"], CONE, stop_time=1.0)
    assert "BallOnSurfaceOfRevolution.contact lifts off" in str(failure)
    assert failure.partial["time"].iloc[-1] == pytest.approx(expected, abs=EVENT_TIME_BOUND)


def test_cli_says_it_in_one_line_and_keeps_the_rows(rumoca_fmus, tmp_path):
    out = tmp_path / "fall.csv"
    done = subprocess.run([*CLI, "simulate", "RollingDisk", "--set", "dpsi_0=0", "--set", "dphi_0=0",
                           "--stop-time", "2", "--out", str(out)], capture_output=True, text=True, timeout=600)
    assert done.returncode != 0
    errors = [line for line in done.stderr.splitlines() if line.startswith("error")]
    assert len(errors) == 1 and "Traceback" not in done.stderr
    assert "RollingDisk.contact lifts off" in errors[0] and f"are in {out}" in errors[0]
    rows = pd.read_csv(out)
    expected = _disk().lift_off(np.array([1.4, 0, 0, 0, 0, 0, 0, 0]), t_max=1.0)
    assert rows["time"].iloc[-1] == pytest.approx(expected, abs=EVENT_TIME_BOUND)
    # unilateral is a Boolean: true/false on the command line
    done = subprocess.run([*CLI, "simulate", "RollingDisk", "--set", "dpsi_0=0", "--set", "dphi_0=0", "--set",
                           "unilateral=false", "--stop-time", "0.32", "--out", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert pd.read_csv(out)["N"].iloc[-1] < 0  # past the lift-off at 0.287 s the plane pulls


@pytest.mark.parametrize("system, name", [("rolling_disk", "disk_lift_off"), ("ball_on_surface", "ball_lift_off")])
def test_lift_off_cases_pass_with_their_plot(rumoca_fmus, tmp_path, system, name):
    case = next(c for c in system_cases(system) if c.name == name)
    result = case.run(tmp_path)
    assert result.error is None and result.passed, [(c.name, c.value, c.bound) for c in result.checks]
    assert len(result.checks) == 4 and list(result.errors["signal"]) == ["N"]
    assert (tmp_path / name / "normal_force.png").stat().st_size > 10_000
