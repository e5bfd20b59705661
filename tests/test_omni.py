"""Omni-wheel vehicle: roller geometry and contact tracking on hand-made geometries (the sweep: test_sweep.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import rumoca
from scipy.integrate import quad

from bounds import roundoff
from conftest import fmu_from_source
from nonholonomic.backends.explicit_ode import build_explicit_ode
from nonholonomic.backends.flat_dae import FlatDae
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
    y = ode.rhs(0.0, [0.0], p)[1].full().ravel()
    assert y[0] == pytest.approx(0.002 * axial, rel=1e-10)
    assert y[1] == pytest.approx(0.002 * transverse, rel=1e-10)
