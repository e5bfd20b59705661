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


# ----------------------------------------------------------------------------- servo and elastic joints
SERVO = """
package ServoTests
  model Pendulum "A rigid body on a servo-constrained or an elastic revolute joint about the world y axis"
    parameter Real L = 0.5 "pivot to centre of mass";
    parameter Real m = 2;
    parameter Real I = 0.1 "central moment of inertia about the axis";
    parameter Real theta0 = 0 "initial angle from the downward vertical";
    parameter Real dtheta0 = 0 "initial angular velocity";
    input Real u_phi(start = 0);
    input Real u_w(start = 0);
    input Real u_a(start = 0);
    Nonholonomic.Bodies.Ground ground(nW = 2);
    Nonholonomic.Bodies.RigidBody body(nW = 1, m = m, I_b = {I, I, I}, g_0 = {0, 0, -9.81},
      r_0_start = {-L*sin(theta0), 0, -L*cos(theta0)}, v_0_start = dtheta0*{-L*cos(theta0), 0, L*sin(theta0)},
      Q_start = Nonholonomic.Rotations.fromAxisAngle({0, 1, 0}, theta0), w_0_start = {0, dtheta0, 0});
    Nonholonomic.Joints.ServoRevolute servo(p_b = {0, 0, L}, n_a = {0, 1, 0}, n_b = {0, 1, 0},
      offset = 0.3, amplitude = {0.5, 0.2}, frequency = {0.7, 1.9}, phase = {0.2, 0}, phi_in = u_phi, w_in = u_w, a_in = u_a);
    output Real phi = servo.phi;
    output Real tau = servo.tau;
    output Real power = servo.power;
    output Real phi_law = servo.phi_law;
    output Real drift = sqrt(servo.delta_0[1]^2 + servo.delta_0[2]^2 + servo.delta_0[3]^2);
  equation
    connect(ground.k, servo.kA);
    connect(body.k, servo.kB);
    connect(servo.wA, ground.w[1]);
    connect(servo.wB, body.w[1]);
    ground.w[2].f_0 = zeros(3);
    ground.w[2].t_0 = zeros(3);
    ground.w[2].p_0 = zeros(3);
  end Pendulum;
  model Torsion "The same body on an elastic revolute joint (a torsion spring) about the world y axis"
    parameter Real L = 0.5;
    parameter Real m = 2;
    parameter Real I = 0.1;
    parameter Real theta0 = 1.2;
    Nonholonomic.Bodies.Ground ground(nW = 1);
    Nonholonomic.Bodies.RigidBody body(nW = 1, m = m, I_b = {I, I, I}, g_0 = {0, 0, -9.81},
      r_0_start = {-L*sin(theta0), 0, -L*cos(theta0)}, Q_start = Nonholonomic.Rotations.fromAxisAngle({0, 1, 0}, theta0));
    Nonholonomic.Joints.ElasticRevolute spring(p_b = {0, 0, L}, n_a = {0, 1, 0}, n_b = {0, 1, 0}, k = 3, c = 0.2, phi_0 = 0.1);
    output Real phi = spring.phi;
    output Real energy = body.energy + spring.elasticEnergy;
  equation
    connect(ground.k, spring.kA);
    connect(body.k, spring.kB);
    connect(spring.wA, ground.w[1]);
    connect(spring.wB, body.w[1]);
  end Torsion;
end ServoTests;
"""
LAW = dict(offset=0.3, amplitude=(0.5, 0.2), frequency=(0.7, 1.9), phase=(0.2, 0.0))


def _law(t, k=0):
    """The k-th time derivative of the servo law of the test model."""
    value = LAW["offset"] if k == 0 else 0.0
    for a, f, p in zip(LAW["amplitude"], LAW["frequency"], LAW["phase"]):
        w = 2 * math.pi * f
        value = value + a * w**k * np.sin(w * np.asarray(t) + p + k * math.pi / 2)
    return value


@pytest.fixture(scope="module")
def servo_fmus(tmp_path_factory):
    return {name: fmu_from_source(tmp_path_factory.mktemp(name), SERVO, f"ServoTests.{name}")
            for name in ("Pendulum", "Torsion")}


def test_servo_follows_its_law_with_the_torque_of_the_closed_form(servo_fmus):
    L, m, I, g = 0.5, 2.0, 0.1, 9.81
    df = simulate(servo_fmus["Pendulum"], {"theta0": _law(0.0), "dtheta0": _law(0.0, 1)}, stop_time=4.0,
                  output_interval=0.01, tolerance=1e-10)
    t = df["time"].to_numpy()
    np.testing.assert_allclose(df["phi_law"], _law(t), atol=1e-12)  # the built-in law itself: one formula
    # started on the law, the angle leaves it only by integration error, which the Baumgarte terms damp
    # (rtol 1e-10 on states of order 1: measured 1e-10 rad)
    assert np.max(np.abs(df["phi"] - _law(t))) < 1e-7
    # the actuator torque keeps I_O phi'' = tau - m g L sin(phi): the law's acceleration and angle
    tau = (I + m * L**2) * _law(t, 2) + m * g * L * np.sin(_law(t))
    assert np.max(np.abs(df["tau"] - tau)) < 1e-6 * np.max(np.abs(tau))  # integration error on phi, phi''
    assert np.max(np.abs(df["power"] - tau * _law(t, 1))) < 1e-6 * np.max(np.abs(tau * _law(t, 1)))
    assert np.max(df["drift"]) < 1e-9


def test_servo_driven_by_its_input_angle_alone_lags_like_the_critically_damped_filter(servo_fmus):
    # no built-in law; a constant input angle of 0.4 rad without its derivatives, from rest at 0: with the
    # default alpha = beta = 20/s the angle obeys e'' + 2 beta e' + beta^2 e = 0 for e = phi - 0.4
    params = {"servo.offset": 0.0, "servo.amplitude[1]": 0.0, "servo.amplitude[2]": 0.0}
    df = simulate(servo_fmus["Pendulum"], params, stop_time=1.0, output_interval=0.005, tolerance=1e-10,
                  inputs={"u_phi": 0.4})
    t, beta = df["time"].to_numpy(), 20.0
    expected = 0.4 * (1 - (1 + beta * t) * np.exp(-beta * t))
    assert np.max(np.abs(df["phi"] - expected)) < 1e-7  # integration error only (rtol 1e-10)
    # the torque: I_O phi'' + m g L sin(phi) along that closed form
    tau = (0.1 + 2.0 * 0.5**2) * 0.4 * beta**2 * (1 - beta * t) * np.exp(-beta * t) + 2.0 * 9.81 * 0.5 * np.sin(expected)
    assert np.max(np.abs(df["tau"] - tau)) < 1e-6 * np.max(np.abs(tau))


def test_elastic_revolute_is_a_torsion_spring_with_damping(servo_fmus):
    L, m, I, g, k, c, phi0, theta0 = 0.5, 2.0, 0.1, 9.81, 3.0, 0.2, 0.1, 1.2
    df = simulate(servo_fmus["Torsion"], {}, stop_time=5.0, output_interval=0.01, tolerance=1e-11)
    io = I + m * L**2
    ref = solve_ivp(lambda t, y: [y[1], (-k * (y[0] - phi0) - c * y[1] - m * g * L * math.sin(y[0])) / io],
                    (0, 5), [theta0, 0.0], t_eval=df["time"], rtol=1e-12, atol=1e-12, method="DOP853")
    assert np.max(np.abs(df["phi"] - ref.y[0])) < 1e-7  # both integrate one motion (tolerances 1e-11, 1e-12)
    # the damper only takes energy out: the energy never rises (beyond the integration error)
    assert np.all(np.diff(df["energy"]) < 1e-8)
    assert df["energy"].iloc[-1] < df["energy"].iloc[0] - 0.1
