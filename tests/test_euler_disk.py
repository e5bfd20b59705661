"""Euler's disk: the compliant rim contact (Contacts.DiskOnPlaneElastic) and Examples.EulerDisk against independent
expectations (Hertz, the exact elliptic contact, Meusnier's radii, the energy balance, the
convergence to the ideal disk), and the final-phase fit on synthetic data."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest

from nonholonomic.build import build
from nonholonomic.cases.euler_disk import A_DISK, DISK, E_STAR, ConvergenceCase
from nonholonomic.references import euler_disk as ref
from nonholonomic.references.bearing import HertzEllipse
from nonholonomic.simulate import simulate

from bounds import roundoff


@pytest.fixture(scope="module")
def fmus():
    """Only the two FMUs these tests run (built where missing or not up to date)."""
    build(["EulerDisk", "RollingDisk"], backend="rumoca")


def first_row(**parameters):
    return simulate("EulerDisk", parameters, stop_time=1e-4, output_interval=1e-4, tolerance=1e-10).iloc[0]


@pytest.mark.parametrize("theta", [1.5, 0.5, 0.05])
def test_rim_contact_is_the_exact_elliptic_hertz_contact_of_the_torus_radii(fmus, theta):
    """At the start the rim's contact carries the weight (static penetration): its penetration and semi-axes are
    those of the exact elliptic Hertz contact (references.bearing.HertzEllipse: Carlson's R_D, brentq) of the torus's
    principal radii (Meusnier), from upright to near flat (radius ratios 27, 78 and 740)."""
    row = first_row(theta_0=theta, dpsi_0=0.0, dphi_0=0.0)
    across, along = ref.torus_radii(DISK["R"], DISK["r"], math.sin(theta))
    P = DISK["m"] * DISK["g"]
    assert row["N"] == pytest.approx(P, rel=1e-9)  # the initial penetration is the static one
    exact = HertzEllipse.from_curvatures(1 / across, 1 / along, E_STAR)
    a, b = exact.semi_axes(P)
    # Newton meets Johnson's relation to 3e-13; K, E of Hastings' polynomials (|error| <= 2e-8) leave the radii within
    # 2e-8 of the exact ones (checked for ratios 1.5 to 1e5), the penetration within 1e-8: bound 5e-8
    assert row["delta"] == pytest.approx(exact.approach(P), rel=5e-8)
    assert row["semiMajor"] == pytest.approx(a, rel=5e-8)
    assert row["semiMinor"] == pytest.approx(b, rel=5e-8)
    assert row["R_normal"] == pytest.approx((3 * P / (4 * E_STAR * exact.approach(P) ** 1.5)) ** 2, rel=5e-8)


def test_disk_lands_flat_and_rests_on_its_edge_ring(fmus):
    """Released at a small tilt without spin, the disk falls flat onto the edge ring of its lower face and rests
    there: the normal force is its weight and the centre lies h/2 - delta above the plane, delta the Hertz
    penetration of each of the nRing points under m g/nRing (sphere of radius r on the plane)."""
    run = simulate("EulerDisk", dict(theta_0=0.02, dpsi_0=0.0, dphi_0=0.0, d=30.0), stop_time=1.0,
                   output_interval=0.01, tolerance=1e-10)
    delta = ref.flat_rest_penetration(DISK["m"], DISK["g"], DISK["r"], E_STAR, DISK["nRing"])
    last = run.iloc[-1]
    assert last["rimShare"] == 0.0 and last["tilt"] < 1e-8
    # at rest the damping has no rate to act on: what remains of the landing's vibration after 1 s (d = 30 s/m
    # damps it at a rate d g/2 ~ 150 1/s) is far below 1e-6 of the load and of delta
    assert last["N"] == pytest.approx(DISK["m"] * DISK["g"], rel=1e-6)
    assert last["r_0[3]"] == pytest.approx(DISK["h"] / 2 - delta, abs=1e-6 * delta)


def test_energy_balance_while_spinning(fmus):
    """10 s of the example at rtol 1e-10: energy + integrated losses stay at the initial energy; every loss >= 0."""
    rtol = 1e-10
    run = simulate("EulerDisk", {}, stop_time=10.0, output_interval=0.01, tolerance=rtol)
    balance = run["balance"].to_numpy()
    # CVODE's local errors (<= rtol per step, ~5e3 steps here) add up like a random walk (sqrt(5e3) ~ 70) over the
    # ~10 states the energy sums: 1000 rtol
    assert np.max(np.abs(balance - balance[0])) / balance[0] < 1000 * rtol
    assert run["W_pivot"].iloc[-1] > 0 and run["W_slide"].iloc[-1] > 0
    for power in ("P_slide", "P_pivot", "P_damp"):
        assert run[power].min() >= -1e-12, power
    # the losses are the integrals of their powers: W_lost = the energy lost
    assert run["W_lost"].iloc[-1] == pytest.approx(balance[0] - run["energy"].iloc[-1], rel=1000 * rtol)


def test_steady_precession_at_the_start_follows_moffatt(fmus):
    """Spun at the thin disk's steady rolling with the centre at rest (Omega^2 sin(alpha) = m g R/A, Moffatt's
    eq. (1) with the cylinder's A): the example's default rates are that motion's, to the 3 digits given."""
    omega = ref.steady_precession(0.5, DISK["m"], DISK["g"], DISK["R"], A_DISK)
    row = first_row()
    assert row["Omega"] == pytest.approx(omega, rel=2e-3)
    # d phi/dt = -Omega cos(theta): the spin about the axis, phi' + psi' cos(theta), vanishes
    assert abs(row["spin"]) < 2e-3 * omega


def test_power_law_fit_recovers_exponent_and_end_time():
    t = np.linspace(0.0, 49.0, 20000)
    t0, n = 50.0, 0.3
    clean = 3.0 * (t0 - t) ** -n
    fit = ref.fit_power_law(t, clean, 1.0, 49.0, 0.5, (49.1, 80.0))
    assert fit.t0 == pytest.approx(t0, abs=1e-3) and fit.n == pytest.approx(n, abs=1e-4)
    rippled = clean * (1 + 0.05 * np.sin(2 * np.pi * t / 0.4))  # a nutation of 0.4 s, 5 %
    smooth = ref.running_mean(rippled, int(0.4 / (t[1] - t[0])))
    fit = ref.fit_power_law(t, smooth, 1.0, 49.0, 0.5, (49.1, 80.0))
    assert fit.t0 == pytest.approx(t0, abs=0.2) and fit.n == pytest.approx(n, abs=0.01)
    fixed = ref.fit_power_law(t, clean, 1.0, 49.0, 0.5, (t0, t0))
    assert fixed.t0 == t0 and fixed.n == pytest.approx(n, abs=roundoff(1.0, 4096))


def test_exponents_from_loss_laws_match_the_literature_table():
    # Moffatt's air gap P ~ alpha^-2 -> 1/6; a loss ~ Omega ~ alpha^-1/2 -> 1/3 (Easwar et al.'s measured value)
    assert ref.exponent_from_loss_law(-2.0) == pytest.approx(1 / 6)
    assert ref.exponent_from_loss_law(-0.5) == pytest.approx(1 / 3)
    with pytest.raises(Exception, match="no finite-time end"):
        ref.exponent_from_loss_law(1.5)


def test_edge_radius_above_half_the_thickness_is_one_line(fmus, tmp_path):
    result = subprocess.run([sys.executable, "-m", "nonholonomic", "simulate", "EulerDisk", "--set", "r=0.01",
                             "--stop-time", "0.01", "--out", str(tmp_path / "x.csv")], capture_output=True, text=True)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "edge radius r must be at most half the thickness h" in lines[0], result.stderr


@pytest.mark.slow
def test_compliant_disk_converges_to_the_ideal_disk_with_slope_one(fmus):
    result = ConvergenceCase().execute()
    slopes = result.frames["convergence"].attrs["slopes"]
    assert result.passed, [(c.name, c.value) for c in result.checks]
    assert slopes["centre"] == pytest.approx(1.0, abs=0.05) and slopes["axis"] == pytest.approx(1.0, abs=0.05)
