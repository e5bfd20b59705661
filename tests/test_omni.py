"""Omni-wheel vehicle: roller geometry and contact tracking on hand-made geometries (the sweep: test_sweep.py)."""

from __future__ import annotations

import math
import shutil

import numpy as np
import pytest
import rumoca
from scipy.integrate import quad

from bounds import roundoff
from conftest import fmu_from_source, on_grid
from nonholonomic.backends.explicit_ode import build_explicit_ode
from nonholonomic.backends.flat_dae import FlatDae
from nonholonomic.build import build
from nonholonomic.fmu import extra_info
from nonholonomic.models import LIBRARY
from nonholonomic.simulate import simulate

R_W, N = 0.05, 4
ALPHA = math.pi / N
R1 = R_W * math.cos(ALPHA)

ROLLER = """
package OmniTests
  model Roller "One roller of an omni-wheel near the plane, placed by parameters"
    parameter Real z0 = 0.05 "height of the roller's centre";
    parameter Real tilt = 0 "angle of the roller's axis to the horizontal";
    parameter Real yaw = 0 "heading of the roller's axis";
    Nonholonomic.Bodies.Ground ground(nW = 1);
    Nonholonomic.Bodies.RigidBody roller(nW = 1, m = 0.01, I_b = {1e-6, 2e-6, 2e-6}, r_0_start = {0, 0, z0},
      Q_start = Nonholonomic.Rotations.product(Nonholonomic.Rotations.fromAxisAngle({0.0, 0.0, 1.0}, yaw),
        Nonholonomic.Rotations.fromAxisAngle({0.0, -1.0, 0.0}, tilt)), g_0 = {0, 0, 0});
    Nonholonomic.Contacts.RollerPlaneContact contact(R_w = 0.05, n = 4);
    output Real closed = contact.closed;
    output Real gap = contact.gap;
    output Real p[3] = contact.p_0;
  equation
    connect(ground.k, contact.kA);
    connect(roller.k, contact.kB);
    connect(contact.wA, ground.w[1]);
    connect(contact.wB, roller.w[1]);
  end Roller;
end OmniTests;
"""


@pytest.fixture(scope="module")
def roller_fmu(tmp_path_factory):
    return fmu_from_source(tmp_path_factory.mktemp("omni"), ROLLER, "OmniTests.Roller")


def lowest_point(z0, tilt, yaw):
    """Brute force: the lowest of many points of the roller's surface x^2 + (r + R1)^2 = R_w^2 (Gerasimov
    2018, ch. 3, eq. (2.1)), written independently of the library's tracking formula."""
    a = np.array([math.cos(tilt) * math.cos(yaw), math.cos(tilt) * math.sin(yaw), math.sin(tilt)])
    u = np.cross(a, [0.0, 0.0, 1.0])
    u = u / np.linalg.norm(u) if np.linalg.norm(u) > 1e-12 else np.array([1.0, 0.0, 0.0])
    v = np.cross(a, u)
    x = np.linspace(-R_W * math.sin(ALPHA), R_W * math.sin(ALPHA), 4001)[:, None]
    theta = np.linspace(0, 2 * math.pi, 721)[None, :]
    rho = np.sqrt(R_W**2 - x**2) - R1
    pts = (np.array([0, 0, z0])[None, None, :] + x[..., None] * a + rho[..., None]
           * (np.cos(theta)[..., None] * u + np.sin(theta)[..., None] * v))
    k = np.unravel_index(np.argmin(pts[..., 2]), pts.shape[:2])
    return pts[k], x[k[0], 0]


@pytest.mark.parametrize("z0, tilt, yaw, closed", [
    (R_W - R1, 0.0, 0.0, 1.0),                    # axis horizontal, surface touching the plane
    (0.01, 0.0, 0.7, 1.0),                        # horizontal, turned about the vertical
    (0.012, 0.5 * ALPHA, 0.3, 1.0),               # tilted within the roller's half angle
    (0.012, -0.8 * ALPHA, -1.1, 1.0),
    (0.02, 1.3 * ALPHA, 0.0, 0.0),                # tilted beyond: a tip is lowest, not this roller's arc
    (0.06, 0.0, 0.0, 0.0),                        # centre above the wheel's centre: the top roller
])
def test_contact_tracking_picks_roller_and_point(roller_fmu, z0, tilt, yaw, closed):
    df = simulate(roller_fmu, {"z0": z0, "tilt": tilt, "yaw": yaw}, stop_time=1e-6, output_interval=1e-6)
    first = df.iloc[0]
    assert first["closed"] == closed
    point, x = lowest_point(z0, tilt, yaw)
    if closed:
        # the tracked point is the lowest point of the surface: sampled to ~1e-6 m (grid of the brute force)
        assert first["gap"] == pytest.approx(point[2], abs=2e-6)
        assert np.allclose([first["p[1]"], first["p[2]"]], point[:2], atol=5e-5)
        # the point is the gap's lowest point: one formula, round-off of the positions (z0 + R_w)
        assert first["p[3]"] == pytest.approx(first["gap"], abs=roundoff(z0 + R_W))
    else:
        # beyond the half angle the lowest point is at a tip of the roller, where tracking hands over
        if abs(tilt) > ALPHA:
            assert abs(x) == pytest.approx(R_W * math.sin(ALPHA), rel=1e-3)


def test_roller_inertia_from_geometry():
    """rollerInertia's closed-form integrals against scipy quadrature of the spindle's slices."""
    X = R_W * math.sin(ALPHA)
    rho = lambda x: math.sqrt(R_W**2 - x**2) - R1
    V = quad(lambda x: rho(x) ** 2, -X, X, epsabs=1e-16)[0]
    axial = 0.5 * quad(lambda x: rho(x) ** 4, -X, X, epsabs=1e-18)[0] / V
    transverse = quad(lambda x: rho(x) ** 4 / 4 + x**2 * rho(x) ** 2, -X, X, epsabs=1e-18)[0] / V
    source = ("package RI\n  model M\n    parameter Real m_r = 0.002;\n"
              "    parameter Real I[3] = Nonholonomic.Vehicles.rollerInertia(0.05, 4, m_r);\n"
              "    Real x(start = 0, fixed = true);\n    output Real i1 = I[1], i2 = I[2];\n"
              "  equation\n    der(x) = 1;\n  end M;\nend RI;\n")
    model = rumoca.Session(roots=[str(LIBRARY.parent)]).loads(source, model="RI.M")
    ode = build_explicit_ode(FlatDae(model.to_dict("dae"), "RI.M"))
    p = [q.start for q in ode.parameters]
    y = ode.rhs(0.0, [0.0], p, [], [])[1].full().ravel()
    assert y[0] == pytest.approx(0.002 * axial, rel=1e-10)
    assert y[1] == pytest.approx(0.002 * transverse, rel=1e-10)


# Vehicles.OmniWheel before Bodies.Rotor (commit 2123d1a): each roller a free RigidBody (13 states) held on the hub
# by a Joints.Revolute. The same physics as the rotor version; a test fixture, not part of the library. Since
# issue 14 with the rotor version's interface (R1, delta, contactPoint) and its choice of the roller in contact (one at a
# time: at a junction the roller before in the cyclic order keeps it while both are in their sectors).
OMNI_WHEEL_WITH_REVOLUTE_JOINTS = """\
within Nonholonomic.Vehicles;
model OmniWheel "Omni-wheel: a hub with nRollers massive spindle rollers on revolute joints, rolling with friction on the plane"
  parameter Integer nRollers(min = 2) = 4 "Number of rollers";
  parameter Units.Length R_w(min = 1e-6) = 0.05 "Wheel radius (outer surface of the rollers)";
  parameter Units.Mass m_w(min = 1e-9) = 0.15 "Total mass of the wheel: hub and rollers";
  parameter Real eta(min = 1e-12, max = 1/nRollers - 1e-9) = 0.01 "Mass of one roller over the total mass of the wheel (below 1/nRollers: the hub keeps a positive mass)";
  parameter Real mu(min = 0) = 0.5 "Coefficient of friction between rollers and plane";
  parameter Units.Velocity v_eps(min = 1e-12) = 1e-3 "Regularisation speed of the friction";
  parameter Units.Acceleration g_0[3] = {0, 0, -9.81} "Gravity acceleration";
  parameter Units.Position r_0_start[3] = {0, 0, R_w} "Initial centre of the hub";
  parameter Units.Velocity v_0_start[3] = {0, 0, 0.0} "Initial velocity of the hub's centre";
  parameter Units.Quaternion Q_start[4] = {1, 0, 0, 0.0} "Initial attitude of the hub (its z axis is the wheel's axle)";
  parameter Units.AngularVelocity w_0_start[3] = {0, 0, 0.0} "Initial angular velocity of the wheel";
  final parameter Units.Mass m_r = eta*m_w "Mass of a roller";
  final parameter Units.Mass m_hub = (1 - nRollers*eta)*m_w "Mass of the hub";
  parameter Units.Length R1 = R_w*cos(Constants.pi/nRollers) "Distance of the rollers' axes from the wheel's centre";
  parameter Units.Angle delta = Constants.pi/2 "Rollers' angle (this fixture: omni-wheels only, rollers tangent to the rim)";
  final parameter Units.Angle kappa[nRollers] = 2*Constants.pi*(0:nRollers - 1)/nRollers "Angular positions of the rollers on the hub";
  final parameter Real T_start[3, 3] = Rotations.rotationMatrix(Q_start) "Initial attitude matrix of the hub";
  Interfaces.KinematicOutput k "Kinematics of the hub";
  Interfaces.WrenchInput w "Wrench of the axle's joint on the hub";
  Interfaces.KinematicInput kGround "Kinematics of the ground";
  Interfaces.WrenchOutput wGround[nRollers] "Contact wrenches on the ground";
  Bodies.RigidBody hub(nW = nRollers + 1, m = m_hub, I_b = {m_hub*R_w^2/4, m_hub*R_w^2/4, m_hub*R_w^2/2}, g_0 = g_0,
    r_0_start = r_0_start, v_0_start = v_0_start, Q_start = Q_start, w_0_start = w_0_start)
   ;
  Bodies.RigidBody roller[nRollers](each nW = 2, each m = m_r, each I_b = rollerInertia(R_w, nRollers, m_r, R1), each g_0 = g_0,
    r_0_start = {r_0_start + T_start*{R1*cos(kappa[j]), R1*sin(kappa[j]), 0.0} for j in 1:nRollers},
    v_0_start = {v_0_start + cross(w_0_start, T_start*{R1*cos(kappa[j]), R1*sin(kappa[j]), 0.0}) for j in 1:nRollers},
    Q_start = {Rotations.product(Q_start, Rotations.product(Rotations.fromAxisAngle({0.0, 0.0, 1.0}, kappa[j]),
      {0.5, 0.5, 0.5, 0.5})) for j in 1:nRollers},
    w_0_start = {rollerStartVelocity(r_0_start, v_0_start, w_0_start, T_start, kappa[j], R_w, nRollers, R1) for j in 1:nRollers})
   ;
  Joints.Revolute axle[nRollers](p_a = {{R1*cos(kappa[j]), R1*sin(kappa[j]), 0.0} for j in 1:nRollers},
    n_a = {{-sin(kappa[j]), cos(kappa[j]), 0.0} for j in 1:nRollers}, each n_b = {1, 0, 0.0})
   ;
  Contacts.RollerPlaneContact contact[nRollers](each R_w = R_w, each n = nRollers, each R1 = R1, each mu = mu,
    each v_eps = v_eps, yielding = before)
   ;
  Interfaces.RealOutput contactRoller "Index of the roller in contact (0: none)";
  Interfaces.RealOutput contactPoint[3](each unit = "m") "Contact point, world frame";
  Interfaces.RealOutput slip(unit = "m/s") "Slip speed at the contact";
  Interfaces.RealOutput normalForce(unit = "N") "Normal reaction";
  Interfaces.RealOutput kineticEnergy(unit = "J") "Kinetic energy of the wheel";
protected
  Real closed[nRollers] "Contact state of each roller";
  Units.Velocity slips[nRollers] "Slip speed of each roller";
  Units.Force normal[nRollers] "Normal reaction on each roller";
  Units.Energy rollerEnergy[nRollers] "Kinetic energy of each roller";
  Units.Position points[nRollers, 3] "Application point of each roller's contact wrench";
  Real before[nRollers](each unit = "1") "1 while the roller before in the cyclic order is in its sector";
equation
  contactRoller = sum({j*closed[j] for j in 1:nRollers});
  slip = sum(slips);
  normalForce = sum(normal);
  kineticEnergy = hub.kineticEnergy + sum(rollerEnergy);
  contactPoint = closed*points;
  before[1] = contact[nRollers].inSector;
  for j in 2:nRollers loop
    before[j] = contact[j - 1].inSector;
  end for;
  connect(hub.k, k);
  connect(w, hub.w[nRollers + 1]);
  for j in 1:nRollers loop
    closed[j] = contact[j].closed;
    slips[j] = contact[j].slip;
    normal[j] = contact[j].N;
    rollerEnergy[j] = roller[j].kineticEnergy;
    points[j, :] = contact[j].p_0;
    connect(hub.k, axle[j].kA);
    connect(roller[j].k, axle[j].kB);
    connect(axle[j].wA, hub.w[j]);
    connect(axle[j].wB, roller[j].w[1]);
    connect(kGround, contact[j].kA);
    connect(roller[j].k, contact[j].kB);
    connect(contact[j].wA, wGround[j]);
    connect(contact[j].wB, roller[j].w[2]);
  end for;
end OmniWheel;
"""


@pytest.fixture(scope="module")
def revolute_roller_fmus(tmp_path_factory):
    """OmniVehicleSpin and OmniVehicleStraight built from a copy of the library whose OmniWheel has the
    rollers as RigidBody + Revolute."""
    root = tmp_path_factory.mktemp("omni_revolute")
    library = root / "Nonholonomic"
    shutil.copytree(LIBRARY, library)
    (library / "Vehicles" / "OmniWheel.mo").write_text(OMNI_WHEEL_WITH_REVOLUTE_JOINTS)
    models = ["OmniVehicleSpin", "OmniVehicleStraight"]
    return dict(zip(models, build(models, backend="rumoca", out_dir=root / "fmus", library_dir=library)))


@pytest.mark.slow
@pytest.mark.parametrize("model, stop_time", [("OmniVehicleSpin", 1.0), ("OmniVehicleStraight", 0.3)])
def test_rotor_rollers_move_the_vehicle_as_revolute_rollers(rumoca_fmus, revolute_roller_fmus, model, stop_time):
    """The rollers as Bodies.Rotor (2 states each) against the rollers as RigidBody + Revolute (13 states and
    5 stabilised constraints each): the same physics, so path, heading and energy agree to the integration
    error (eta = 2.5e-3, the bench cases)."""
    rtol = 1e-9
    run = lambda fmu: simulate(fmu, {"eta": 2.5e-3}, stop_time=stop_time, output_interval=1e-3, tolerance=rtol)
    # on the output grid (an event's two rows, and the no-op echoes of a junction, differ between the runs)
    rotor, revolute = (on_grid(run(fmu), 1e-3) for fmu in (rumoca_fmus[model], revolute_roller_fmus[model]))
    assert np.array_equal(rotor["time"].to_numpy(), revolute["time"].to_numpy())
    # each step's local error is at most rtol of the solution (CVODE's weighted test, atol = rtol), and
    # over these short spans the errors add up at most linearly in the steps of the two runs (measured:
    # 1e-8 m, 1e-7 rad, 1e-7 J against bounds of 3e-6 to 9e-6); the revolute joints' Baumgarte drift is
    # of the same order
    bound = (rotor.attrs["solver"]["steps"] + revolute.attrs["solver"]["steps"]) * rtol
    for name in ("x", "y", "psi", "kineticEnergy"):
        scale = np.max(np.abs(revolute[name])) + 1.0
        assert np.max(np.abs(rotor[name] - revolute[name])) < bound * scale, name
    # the rotor version integrates 76 states instead of 208
    assert len(extra_info(rumoca_fmus[model])["state_names"]) == 76
    assert len(extra_info(revolute_roller_fmus[model])["state_names"]) == 208
