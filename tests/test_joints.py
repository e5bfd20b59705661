"""The rigid revolute joint, on a compound pendulum with a closed-form energy and a scipy reference."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from conftest import fmu_from_source
from nonholonomic.simulate import simulate

PENDULUM = """
package JointTests
  model Pendulum "A rigid body hanging from the ground on a revolute joint about the world y axis"
    parameter Real L = 0.5 "pivot to centre of mass";
    parameter Real m = 2;
    parameter Real I = 0.1 "central moment of inertia about the axis";
    parameter Real theta0 = 1.0 "initial angle from the downward vertical";
    Nonholonomic.Bodies.Ground ground(nW = 1);
    Nonholonomic.Bodies.RigidBody body(nW = 1, m = m, I_b = {I, I, I}, g_0 = {0, 0, -9.81},
      r_0_start = {L*sin(theta0), 0, -L*cos(theta0)},
      Q_start = Nonholonomic.Rotations.fromAxisAngle({0, 1, 0}, -theta0));
    Nonholonomic.Joints.Revolute joint(p_a = {0, 0, 0}, p_b = {0, 0, L}, n_a = {0, 1, 0}, n_b = {0, 1, 0});
    output Real theta = atan2(body.r_0[1], -body.r_0[3]);
    output Real energy = body.energy;
    output Real drift = sqrt(joint.delta_0[1]^2 + joint.delta_0[2]^2 + joint.delta_0[3]^2);
  equation
    connect(ground.k, joint.kA);
    connect(body.k, joint.kB);
    connect(joint.wA, ground.w[1]);
    connect(joint.wB, body.w[1]);
  end Pendulum;
end JointTests;
"""


@pytest.fixture(scope="module")
def pendulum_fmu(tmp_path_factory):
    return fmu_from_source(tmp_path_factory.mktemp("joints"), PENDULUM, "JointTests.Pendulum")


def test_revolute_pendulum_matches_the_planar_equation(pendulum_fmu):
    L, m, I, g, theta0 = 0.5, 2.0, 0.1, 9.81, 1.0
    df = simulate(pendulum_fmu, {}, stop_time=5.0, output_interval=0.01, tolerance=1e-12)
    # I_O theta'' = -m g L sin theta, I_O = I + m L^2 (the joint is the only constraint)
    k = m * g * L / (I + m * L**2)
    ref = solve_ivp(lambda t, y: [y[1], -k * math.sin(y[0])], (0, 5), [theta0, 0.0], t_eval=df["time"],
                    rtol=1e-12, atol=1e-12, method="DOP853")
    # both integrate the same motion at 1e-12: differences are integration error (measured ~1e-9)
    assert np.max(np.abs(df["theta"] - ref.y[0])) < 1e-7
    assert np.max(np.abs(df["energy"] - df["energy"][0])) / abs(df["energy"][0]) < 1e-8  # measured 1e-9
    assert np.max(df["drift"]) < 1e-9  # Baumgarte keeps the joint points together (measured 3e-11 m)
