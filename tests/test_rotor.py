"""Bodies.Rotor against the same physics written as a free RigidBody on a Joints.Revolute: one carrier body
with one rotor, tumbling freely under gravity (no contact, no torque but the axle's)."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import fmu_from_source
from nonholonomic.simulate import simulate

RTOL = 1e-10
STOP = 2.0
M_C, I_C = 2.0, np.array([0.02, 0.03, 0.045])  # carrier: mass, principal moments
M_R, I_A, I_T = 0.5, 0.004, 0.0025              # rotor: mass, axial and transverse moments
P_A = np.array([0.1, 0.05, -0.02])              # rotor centre in the carrier frame
YAW = 0.3                                       # axle n_a = (cos YAW, sin YAW, 0) in the carrier frame
G = np.array([0.0, 0.0, -9.81])

# the carrier and its rotor, identical in both models: the carrier starts with its frame on the world's,
# at (0, 0, 1), moving and tumbling; the rotor spins at 40 rad/s on its axle
COMMON = f"""
    parameter Real p_a[3] = {{{P_A[0]}, {P_A[1]}, {P_A[2]}}};
    parameter Real n_a[3] = {{cos({YAW}), sin({YAW}), 0.0}};
    parameter Real Q_mount[4] = Nonholonomic.Rotations.fromAxisAngle({{0.0, 0.0, 1.0}}, {YAW});
    parameter Real v_c[3] = {{0.3, -0.2, 2.0}};
    parameter Real w_c[3] = {{1.0, 2.0, 0.5}};
    parameter Real spin = 40;
    Nonholonomic.Bodies.RigidBody carrier(nW = 1, m = {M_C}, I_b = {{{I_C[0]}, {I_C[1]}, {I_C[2]}}},
      r_0_start = {{0, 0, 1}}, v_0_start = v_c, w_0_start = w_c);
    output Real r_c[3] = carrier.r_0;
    output Real Q_c[4] = carrier.Q;
    output Real w_c0[3] = carrier.k.w_0;
"""

WITH_ROTOR = f"""
package RotorTests
  model WithRotor "Carrier with a Bodies.Rotor"
    {COMMON}
    Nonholonomic.Bodies.Rotor rotor(nW = 1, m = {M_R}, I_a = {I_A}, I_t = {I_T}, p_a = p_a, Q_mount = Q_mount,
      n_b = {{1, 0, 0.0}}, w_rel_start = spin);
    output Real r_r[3] = rotor.k.r_0;
    output Real w_r[3] = rotor.k.w_0;
    output Real energy = carrier.energy + rotor.energy;
  equation
    connect(carrier.k, rotor.kCarrier);
    connect(rotor.wCarrier, carrier.w[1]);
    rotor.w[1].f_0 = zeros(3);  // nothing else acts on the rotor
    rotor.w[1].t_0 = zeros(3);
    rotor.w[1].p_0 = rotor.r_0;
  end WithRotor;
end RotorTests;
"""

WITH_JOINT = f"""
package JointTests
  model WithJoint "Carrier with a free RigidBody on a Joints.Revolute"
    {COMMON}
    Nonholonomic.Bodies.RigidBody rotor(nW = 1, m = {M_R}, I_b = {{{I_A}, {I_T}, {I_T}}}, r_0_start = {{0, 0, 1}} + p_a,
      v_0_start = v_c + cross(w_c, p_a), Q_start = Q_mount, w_0_start = w_c + spin*n_a);
    Nonholonomic.Joints.Revolute axle(p_a = p_a, n_a = n_a, n_b = {{1, 0, 0.0}});
    output Real r_r[3] = rotor.r_0;
    output Real w_r[3] = rotor.k.w_0;
    output Real energy = carrier.energy + rotor.energy;
  equation
    connect(carrier.k, axle.kA);
    connect(rotor.k, axle.kB);
    connect(axle.wA, carrier.w[1]);
    connect(axle.wB, rotor.w[1]);
  end WithJoint;
end JointTests;
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("rotor")
    fmus = {"rotor": fmu_from_source(root / "a", WITH_ROTOR, "RotorTests.WithRotor"),
            "joint": fmu_from_source(root / "b", WITH_JOINT, "JointTests.WithJoint")}
    return {k: simulate(f, {}, stop_time=STOP, output_interval=0.01, tolerance=RTOL) for k, f in fmus.items()}


def global_error(*dfs) -> float:
    """Bound on the global error of CVODE runs, relative to a signal's magnitude: each step's local error is
    at most RTOL of the solution (CVODE's weighted error test, atol = RTOL), and over a few tumbling periods
    of a stable motion they add up at most linearly in the steps (summed over the runs compared)."""
    return sum(df.attrs["solver"]["steps"] for df in dfs) * RTOL


def columns(df, name, n):
    return df[[f"{name}[{i}]" for i in range(1, n + 1)]].to_numpy()


def attitude(Q):
    """Rotation matrices of unit quaternions (scalar first), resolving body vectors in the world frame."""
    w, x, y, z = Q.T
    return np.stack([np.stack([w*w + x*x - y*y - z*z, 2*(x*y - w*z), 2*(x*z + w*y)], -1),
                     np.stack([2*(x*y + w*z), w*w - x*x + y*y - z*z, 2*(y*z - w*x)], -1),
                     np.stack([2*(x*z - w*y), 2*(y*z + w*x), w*w - x*x - y*y + z*z], -1)], -2)


def test_rotor_and_revolute_joint_give_the_same_motion(runs):
    rotor, joint = runs["rotor"], runs["joint"]
    bound = global_error(rotor, joint)
    for name, n in (("r_c", 3), ("Q_c", 4), ("w_c0", 3), ("r_r", 3), ("w_r", 3)):
        a, b = columns(rotor, name, n), columns(joint, name, n)
        scale = np.max(np.abs(b)) + 1.0  # the signal's magnitude (atol = RTOL: plus one)
        assert np.max(np.abs(a - b)) < bound * scale, name


def test_energy_momentum_and_centre_of_mass(runs):
    df = runs["rotor"]
    t = df["time"].to_numpy()
    bound = global_error(df)
    # energy (kinetic + gravity) is conserved: the frictionless axle does no work
    E = df["energy"].to_numpy()
    assert np.max(np.abs(E - E[0])) < bound * np.max(np.abs(E))
    # the system's centre of mass falls freely from its start (rotor at r_c + p_a, velocity v_c + w_c x p_a)
    r_cm = (M_C * columns(df, "r_c", 3) + M_R * columns(df, "r_r", 3)) / (M_C + M_R)
    w_c, v_c = np.array([1.0, 2.0, 0.5]), np.array([0.3, -0.2, 2.0])
    r0 = (M_C * np.array([0, 0, 1.0]) + M_R * (np.array([0, 0, 1.0]) + P_A)) / (M_C + M_R)
    v0 = v_c + M_R * np.cross(w_c, P_A) / (M_C + M_R)
    expected = r0 + np.outer(t, v0) + 0.5 * np.outer(t**2, G)
    assert np.max(np.abs(r_cm - expected)) < bound * (np.max(np.abs(expected)) + 1.0)
    # angular momentum about the centre of mass is conserved (uniform gravity has no torque about it)
    T = attitude(columns(df, "Q_c", 4))
    w_c0, w_r = columns(df, "w_c0", 3), columns(df, "w_r", 3)
    n = T @ np.array([np.cos(YAW), np.sin(YAW), 0.0])
    H_c = np.einsum("tij,tj->ti", T @ np.diag(I_C) @ T.transpose(0, 2, 1), w_c0)
    axial = np.einsum("ti,ti->t", n, w_r)
    H_r = I_T * w_r + (I_A - I_T) * axial[:, None] * n
    # orbital part from the two centres' positions relative to the system's centre; their relative
    # velocity is the carrier's point velocity w_c x (T p_a), exact from the outputs
    rho = columns(df, "r_r", 3) - columns(df, "r_c", 3)
    mu = M_C * M_R / (M_C + M_R)
    L = H_c + H_r + mu * np.cross(rho, np.cross(w_c0, rho))
    assert np.max(np.linalg.norm(L - L[0], axis=1)) < bound * np.max(np.linalg.norm(L, axis=1))
    # the rotor's axial angular momentum I_a (n . w_rotor) is constant: d/dt (n . H) = (w_c x n) . H + n . t_axle,
    # and both vanish (H has components along n and w_rotor = w_c + spin n only; the axle has no friction)
    assert np.max(np.abs(axial - axial[0])) < bound * np.max(np.abs(axial))
    # ... while the rotor's rate on the axle is not: it changes as the carrier turns about the axle
    spin = axial - np.einsum("ti,ti->t", n, w_c0)
    assert np.ptp(spin) > 1e3 * bound * np.max(np.abs(spin))
