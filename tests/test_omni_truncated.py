"""Omni-wheel vehicle on truncated rollers (issue 14, parts 3 and 5): the rollers' geometry and inertia, the
massless-roller model frozen at a roller mass, the roller changes as state events, and the convergence to
massless rollers in proportion to the rollers' mass, for the symmetric vehicle and a four-wheel layout with an
offset centre of mass (Examples.OmniVehicleTruncated, Examples.OmniVehicleLayout)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import rumoca
from scipy.integrate import quad

from nonholonomic.backends.explicit_ode import build_explicit_ode
from nonholonomic.backends.flat_dae import FlatDae
from nonholonomic.cases.omni_vehicle import event_checks
from nonholonomic.models import LIBRARY
from nonholonomic.simulate import simulate
from nonholonomic.sweep import (KINDS, N_ROLLERS, N_WHEELS, VEHICLE, axle_distance, frozen_vehicle, lowest_rollers,
                                massless_model, massless_reference, roller_inertia)

R_W = 0.05
RTOL = 1e-8


def quadrature_inertia(R_w: float, n: int, m_r: float, R1: float) -> tuple[float, float]:
    """Moments of a homogeneous solid of revolution of rho(x) = sqrt(R_w^2 - x^2) - R1, |x| <= R_w sin(pi/n),
    by slices (discs of radius rho at x), with scipy's adaptive quadrature: independent of the closed forms."""
    X = R_w * math.sin(math.pi / n)
    rho = lambda x: math.sqrt(R_w**2 - x**2) - R1
    volume = quad(lambda x: rho(x) ** 2, -X, X, epsabs=1e-18)[0]
    axial = 0.5 * quad(lambda x: rho(x) ** 4, -X, X, epsabs=1e-20)[0] / volume
    transverse = quad(lambda x: rho(x) ** 4 / 4 + x**2 * rho(x) ** 2, -X, X, epsabs=1e-20)[0] / volume
    return m_r * axial, m_r * transverse


GEOMETRIES = [(n, truncated) for n in (3, 4, 5) for truncated in (False, True)]


@pytest.mark.parametrize("n, truncated", GEOMETRIES)
def test_roller_inertia_of_truncated_and_untruncated_rollers(n, truncated):
    """Vehicles.rollerInertia (Modelica, with the axis distance R1 given) and sweep.roller_inertia (Python, the
    same closed form) against quadrature; the default R1 of rollerInertia is the untruncated spindle's."""
    R1 = axle_distance(R_W, n, truncated)
    expected = quadrature_inertia(R_W, n, 0.002, R1)
    call = f"rollerInertia(0.05, {n}, m_r{', ' + repr(R1) if truncated else ''})"
    source = ("package RI\n  model M\n    parameter Real m_r = 0.002;\n"
              f"    parameter Real I[3] = Nonholonomic.Vehicles.{call};\n"
              "    Real x(start = 0, fixed = true);\n    output Real i1 = I[1], i2 = I[2], i3 = I[3];\n"
              "  equation\n    der(x) = 1;\n  end M;\nend RI;\n")
    model = rumoca.Session(roots=[str(LIBRARY.parent)]).loads(source, model="RI.M")
    ode = build_explicit_ode(FlatDae(model.to_dict("dae"), "RI.M"))
    y = ode.rhs(0.0, [0.0], [q.start for q in ode.parameters], [], [])[1].full().ravel()
    # closed forms against an adaptive quadrature of smooth integrands: agreement to its 1e-10 (measured 1e-13;
    # the closed forms subtract terms of similar size, rho being a small difference of R_w-sized numbers)
    assert y[0] == pytest.approx(expected[0], rel=1e-10)
    assert y[1] == pytest.approx(expected[1], rel=1e-10) and y[2] == y[1]
    assert roller_inertia(R_W, n, 0.002, R1) == pytest.approx(expected, rel=1e-10)


def test_truncated_roller_of_the_thesis():
    """DIGEST 4.6: the thesis' roller (l = 0.05, n = 5, 0.05 kg) as a homogeneous truncated solid has
    B = 4.2e-6 kg m^2 (untruncated: 1.75e-6); its ends have the radius l (cos(pi/5) - cos(pi/4)) = 5.1 mm."""
    assert roller_inertia(0.05, 5, 0.05, axle_distance(0.05, 5, True))[0] == pytest.approx(4.2e-6, rel=0.01)
    assert roller_inertia(0.05, 5, 0.05)[0] == pytest.approx(1.75e-6, rel=0.01)
    assert 0.05 * math.cos(math.pi / 5) - axle_distance(0.05, 5, True) == pytest.approx(0.0051, abs=1e-4)


def test_frozen_vehicle_in_the_limit_and_at_a_mass():
    """eta -> 0: all of a wheel's mass in its hub (the model of the sweep before issue 14); at eta: the rollers'
    inertia about the axle and about the vertical by parallel axes, summed by hand for the four rollers (their
    centres at R1 (cos, sin) kappa, axes tangent), the symmetric vehicle's closed-form quantities."""
    limit, v = massless_model(), VEHICLE
    assert limit.I_w[0] == pytest.approx(v["m_w"] * v["R_w"] ** 2 / 2, rel=1e-14)
    assert limit.I == pytest.approx(v["I_p"] + N_WHEELS * v["m_w"] * (v["R_w"] ** 2 / 4 + v["R_p"] ** 2), rel=1e-14)
    eta = 0.02
    m_r, R1 = eta * v["m_w"], axle_distance(v["R_w"], N_ROLLERS, True)
    I_a, I_t = roller_inertia(v["R_w"], N_ROLLERS, m_r, R1)
    m_hub = v["m_w"] - N_ROLLERS * m_r
    # the wheel's inertia tensor about its centre, hub frame (z = axle): each roller's central tensor
    # (I_a along its axis t, I_t across) plus m_r (R1^2 E - c c^T)
    tensor = np.diag([m_hub * v["R_w"] ** 2 / 4, m_hub * v["R_w"] ** 2 / 4, m_hub * v["R_w"] ** 2 / 2])
    for kappa in 2 * np.pi * np.arange(N_ROLLERS) / N_ROLLERS:
        c, t = R1 * np.array([np.cos(kappa), np.sin(kappa), 0.0]), np.array([-np.sin(kappa), np.cos(kappa), 0.0])
        tensor += I_t * np.eye(3) + (I_a - I_t) * np.outer(t, t) + m_r * (c @ c * np.eye(3) - np.outer(c, c))
    frozen = massless_model(eta, truncated=True)
    assert frozen.I_w[0] == pytest.approx(tensor[2, 2], rel=1e-14)
    # about the vertical: a diameter of the wheel (axisymmetric sum: any in-plane direction)
    assert tensor[0, 0] == pytest.approx(tensor[1, 1], rel=1e-14)
    assert frozen.I == pytest.approx(v["I_p"] + N_WHEELS * (tensor[0, 0] + v["m_w"] * v["R_p"] ** 2), rel=1e-14)
    assert frozen.m == limit.m and frozen.is_symmetric()


@pytest.mark.parametrize("kind", ["spin", "straight", "generic"])
def test_truncated_vehicle_starts_with_the_frozen_models_energy(rumoca_fmus, kind):
    """At t = 0 every roller is at rest on its hub except the one in contact, which spins so that it rolls:
    the FMU's kinetic energy is the frozen massless model's plus that spin's, (1/2) I_a w^2 per wheel with
    w = (sliding speed of the hub's point along the roller's axis)/(roller radius at the bottom). Spinning in place
    the wheels roll in their planes: no spin, the same energy."""
    _, (vx, vy), omega, _ = KINDS[kind]
    eta = 0.02
    df = simulate(rumoca_fmus["OmniVehicleTruncated"], {"eta": eta, "v_0[1]": vx, "v_0[2]": vy, "omega_0": omega},
                  stop_time=1e-4, output_interval=1e-4, tolerance=RTOL, outputs=["kineticEnergy"])
    frozen = massless_model(eta, truncated=True)
    R1 = axle_distance(R_W, N_ROLLERS, True)
    I_a = roller_inertia(R_W, N_ROLLERS, eta * VEHICLE["m_w"], R1)[0]
    angles = 2 * np.pi * np.arange(N_WHEELS) / N_WHEELS
    # the hub's point at the bottom moves with the centre's velocity v + omega e_z x r_i; along the axle (radial)
    axial = np.array([vx * np.cos(a) + vy * np.sin(a) for a in angles])
    spin = 0.5 * I_a * np.sum((axial / (R_W - R1)) ** 2)
    expected = frozen.energy(np.array([0, 0, 0, vx, vy, omega])) + spin
    # the start values are exact (no integration); the platform's height R_w and the gravity's potential do not
    # enter the kinetic energy: agreement to rounding of the 16 bodies' sums
    assert df["kineticEnergy"].iloc[0] == pytest.approx(expected, rel=1e-12)


@pytest.fixture(scope="module")
def truncated_runs(rumoca_fmus):
    """The three motions on truncated rollers (eta = 2.5e-2, 0.3 s, rtol 1e-8) with the hubs' attitudes and the
    contact points."""
    outputs = ([f"{s}[{i}]" for s in ("contactRoller", "N_contact", "xContact", "yContact") for i in range(1, 4)]
               + [f"wheel[{i}].hub.Q[{k}]" for i in range(1, 4) for k in range(1, 5)])
    runs = {}
    for kind, (_, (vx, vy), omega, _) in KINDS.items():
        runs[kind] = simulate(rumoca_fmus["OmniVehicleTruncated"],
                              {"eta": 0.025, "v_0[1]": vx, "v_0[2]": vy, "omega_0": omega}, stop_time=0.3,
                              output_interval=1e-3, tolerance=RTOL, outputs=outputs)
    return runs


@pytest.mark.parametrize("kind, junctions", [("spin", 3), ("straight", 6), ("generic", 3)])
def test_each_roller_change_is_an_event_at_the_geometric_junction(truncated_runs, kind, junctions):
    """The roller in contact is the one whose sector holds the wheel's lowest point, from the hubs' attitudes
    alone; it changes as often as that roller does (spinning: the three wheels turn by 0.3 R_p/R_w = 0.9 rad,
    each passes the junction at pi/4; straight along wheel 1's axle: wheel 1 does not turn, the others roll
    at cos 30 deg m/s and pass three junctions each in 0.3 s), each change at an event (the leaving and the
    entering roller's relations: one event, or two with the second within 1e-9 s), never back and forth."""
    df = truncated_runs[kind]
    checks = event_checks(kind, df)
    assert all(c.passed for c in checks), [(c.name, c.value) for c in checks if not c.passed]
    expected, _ = lowest_rollers(df)
    assert int(np.sum(np.diff(expected, axis=0) != 0)) == junctions
    rollers = df[[f"contactRoller[{i}]" for i in range(1, 4)]].to_numpy()
    assert np.all(rollers >= 1)  # never a row without a roller in contact on some wheel
    time = df["time"].to_numpy()
    event_times = np.unique(time[1:][time[1:] == time[:-1]])
    changes = [k for k in range(len(df) - 1) if np.any(rollers[k + 1] != rollers[k])]
    for k in changes:
        wheel = int(np.flatnonzero(rollers[k + 1] != rollers[k])[0])
        # at an event (two rows of one time), to the neighbouring roller
        assert time[k + 1] == time[k]
        assert (rollers[k + 1, wheel] - rollers[k, wheel]) % N_ROLLERS in (1, N_ROLLERS - 1)
        # no echo more than 1e-9 s later and no second change at that junction
        near = event_times[np.abs(event_times - time[k]) < 1e-6]
        assert len(near) <= 2 * N_WHEELS and np.ptp(near) < 1e-6
    assert len(changes) == junctions


@pytest.mark.parametrize("kind", ["spin", "straight", "generic"])
def test_contact_point_is_continuous_and_the_new_roller_carries_the_wheel(truncated_runs, kind):
    """Across a change the contact point (the lowest point of the wheel's circle, tracked on the leaving and on
    the entering roller) does not move, and the entering roller carries the wheel (normal force of the order of
    the weight on the wheel, 4.9 N)."""
    df = truncated_runs[kind]
    rollers = df[[f"contactRoller[{i}]" for i in range(1, 4)]].to_numpy()
    for k in np.flatnonzero(np.any(np.diff(rollers, axis=0) != 0, axis=1)):
        for i in np.flatnonzero(rollers[k + 1] != rollers[k]) + 1:
            before, after = df.iloc[k], df.iloc[k + 1]
            jump = math.hypot(after[f"xContact[{i}]"] - before[f"xContact[{i}]"],
                              after[f"yContact[{i}]"] - before[f"yContact[{i}]"])
            # both points are the bottom of the wheel's circle computed from two rollers' kinematics: they differ
            # by the wheel's tilt (the axle joint's Baumgarte drift, of the order of rtol: 1e-7 rad at rtol 1e-8)
            # times the rollers' distance from the axle's line: R1 sin(pi/n) 1e-7 = 2e-9 m (measured 0.2-2.2e-9 m at
            # rtol 1e-8, 1e-12-2e-11 m at 1e-10: proportional to rtol)
            assert jump < 20 * RTOL * R_W
            assert 3.0 < after[f"N_contact[{i}]"] < 8.0 and 3.0 < before[f"N_contact[{i}]"] < 8.0


LAYOUT = dict(positions=[(0.2, 0.125), (-0.2, 0.125), (-0.2, -0.125), (0.2, -0.125)],
              axles=[math.pi / 4, 3 * math.pi / 4, 5 * math.pi / 4, 7 * math.pi / 4], m_p=2.0, I_p=0.0371,
              r_C=(0.05, 0.02), state=(0.0, 0.0, 0.0, 0.3, 0.1, 0.5))


def layout_differences(fmu, eta: float, stop_time: float) -> tuple[float, float]:
    """Largest path and velocity differences of Examples.OmniVehicleLayout to its frozen massless-roller model."""
    df = simulate(fmu, {"eta": eta}, stop_time=stop_time, output_interval=1e-3, tolerance=RTOL,
                  outputs=["x", "y", "vx", "vy"])
    model = frozen_vehicle(LAYOUT["positions"], LAYOUT["axles"], R_W, 0.15, 4, eta, axle_distance(R_W, 4, True),
                           LAYOUT["m_p"], LAYOUT["I_p"], LAYOUT["r_C"])
    times, rows = np.unique(df["time"].to_numpy(), return_inverse=True)
    ref = model.simulate(LAYOUT["state"], times).iloc[rows].reset_index(drop=True)
    c, s = np.cos(ref["phi"]), np.sin(ref["phi"])
    path = np.hypot(df["x"] - ref["x"], df["y"] - ref["y"]).max()
    velocity = np.hypot(df["vx"] - (ref["v1"] * c - ref["v2"] * s), df["vy"] - (ref["v1"] * s + ref["v2"] * c)).max()
    return float(path), float(velocity)


def test_four_wheel_layout_with_offset_centre_of_mass_converges_to_its_massless_model(rumoca_fmus):
    """Examples.OmniVehicleLayout (four wheels at the corners of a rectangle, X drive, centre of mass off the
    reference point, suspended wheels) against the massless-roller model of the same layout (BKM 2011 with
    r_C != 0: no closed form) frozen at eta: the differences fall tenfold per tenfold lighter rollers (first
    order in the roller mass, as for the symmetric vehicle); the suspension's settling (2.5e-5 m in 20 ms) does
    not enter the planar motion at this order."""
    fmu = rumoca_fmus["OmniVehicleLayout"]
    heavy, light = layout_differences(fmu, 2.5e-3, 0.5), layout_differences(fmu, 2.5e-4, 0.5)
    for h, l in zip(heavy, light):
        # measured ratios 0.098 (path), 0.10 (velocity); first order: 0.1 within the bounds of slope 0.8-1.2
        assert 10 ** -1.2 < l / h < 10 ** -0.8
    # the lighter rollers' path difference: 6e-6 m over 0.5 s (the vehicle moves 0.16 m)
    assert light[0] < 1e-5
