"""Tests of the spur gear pair reference (references/gears.py).

Oracles, each independent of the formulation under test:
* the tip circles: the ends of the active segment, put in the plane, lie on the tip circles;
* the tooth flanks written in the test from the pitch-circle tooth thickness and the involute's polar
  angle (a flank crossing the pitch circle at theta_p is at theta_p -/+ (inv(alpha) - inv(arccos(r_b/r)))
  at the radius r): the contact points on both lines of action lie on a pinion flank and on a wheel flank;
* a brute-force count of the pairs over a fine grid of phi1 against the closed-form zones;
* Johnson's line-contact law: for equal materials the closed form delta = (2 P k/pi)(ln(2 pi a sin(alpha)/
  (P k)) - 1) (rho1 + rho2 = a sin(alpha)); its inverse by Lambert's W (scipy.special.lambertw);
  Palmgren's empirical law (Harris & Kotzalas); central differences for the stiffness;
* static TE: one pair carries the whole load, two equal pairs (equal materials) half each;
* dynamics: the power balance KE + W_mesh - T1 dphi1 - T2 dphi2 = const, the mean ratio -z1/z2, the TE
  spectrum at the tooth-pass frequency z1 omega1.
Bounds: single formulas by `bounds.roundoff`; root solves by their tolerance (gears.XTOL) times the
sensitivity of the checked quantity; integrations from rtol as explained at each test.
"""

import math

import numpy as np
import pytest
from bounds import EPS, roundoff
from nonholonomic.errors import NonholonomicError
from nonholonomic.references import gears as gr
from nonholonomic.references.gears import SpurGearPair
from scipy.special import lambertw

G = SpurGearPair(bending=False)  # the contact law alone: the tests of Johnson's law and of the machinery
GB = SpurGearPair()  # with the teeth's compliance (the Modelica example's defaults)
# steel pinion, bronze wheel: unequal materials, so the law depends on the position s
MIXED = SpurGearPair(E2=1.1e11, nu2=0.34, bending=False)
INV = lambda x: math.tan(x) - x


def _wrap(x, period):
    """x reduced to [-period/2, period/2)."""
    return (x + period / 2) % period - period / 2


# --- geometry ----------------------------------------------------------------------------------------

def test_default_geometry():
    al = math.radians(20.0)
    r1, r2 = 20e-3, 35e-3
    assert (G.m, G.z1, G.z2, G.b, G.E1, G.nu1, G.rho, G.j) == (2e-3, 20, 35, 20e-3, 2.1e11, 0.3, 7850.0, 1e-4)
    for got, ref in ((G.r1, r1), (G.r2, r2), (G.rb1, r1 * math.cos(al)), (G.rb2, r2 * math.cos(al)),
                     (G.ra1, 22e-3), (G.ra2, 37e-3), (G.a, 55e-3), (G.p_b, math.pi * 2e-3 * math.cos(al)),
                     (G.s_P, r1 * math.sin(al)), (G.T1T2, 55e-3 * math.sin(al)),
                     (G.J1, 7850 * math.pi * 20e-3 * r1**4 / 2), (G.J2, 7850 * math.pi * 20e-3 * r2**4 / 2)):
        assert abs(got - ref) <= roundoff(ref)
    # by hand: s_E = sqrt(22^2 - 18.794^2) mm = 11.436 mm, s_A = 18.811 - sqrt(37^2 - 32.889^2) = 1.861 mm,
    # p_b = 5.904 mm, eps = 9.575 / 5.904 = 1.6217
    assert abs(G.s_E - 11.4364e-3) < 1e-7 and abs(G.s_A - 1.8612e-3) < 1e-7 and abs(G.p_b - 5.9043e-3) < 1e-7
    assert abs(G.eps_alpha - 1.62173) < 1e-5
    assert G.z_min == 18 and 2 / math.sin(al) ** 2 == pytest.approx(17.097, abs=1e-3)
    assert G.mesh_frequency(100.0) == 2000.0


def test_segment_ends_on_the_tip_circles():
    """The points of s_A, s_E on both lines: s_E on the pinion's tip circle, s_A on the wheel's. The lines
    are tangent to the base circles at their ends and pass the pitch point (r1, 0) at s_P, rising towards
    the wheel (drive) or falling (coast) at alpha to the y axis."""
    geo = G.flank_geometry()
    O2 = np.array([G.a, 0.0])
    for line, seg in (("drive_line", "drive_segment"), ("coast_line", "coast_segment")):
        A, E = geo[seg]
        assert abs(np.linalg.norm(E) - G.ra1) <= roundoff(G.ra1)
        assert abs(np.linalg.norm(A - O2) - G.ra2) <= roundoff(G.ra2)
        T1, T2 = geo[line]
        assert abs(np.linalg.norm(T1) - G.rb1) <= roundoff(G.rb1)
        assert abs(np.linalg.norm(T2 - O2) - G.rb2) <= roundoff(G.rb2)
        u = (T2 - T1) / np.linalg.norm(T2 - T1)
        assert abs(T1 @ u) <= roundoff(G.rb1) and abs((T2 - O2) @ u) <= roundoff(G.rb2)  # tangent
        P = T1 + G.s_P * u
        assert np.all(np.abs(P - [G.r1, 0.0]) <= roundoff(G.r1))
        sign = 1.0 if line == "drive_line" else -1.0
        assert np.all(np.abs(u - [math.sin(G.alpha), sign * math.cos(G.alpha)]) <= roundoff())


def _on_flank(point, centre, rb, theta_pitch, r_pitch, pitch_angle, kind):
    """Angular distance (rad) of `point` from the nearest of the teeth's flanks that cross the pitch
    circle at theta_pitch + k pitch_angle: a drive-type flank (string along the counter-clockwise tangent)
    is at theta_pitch + inv(alpha) - inv(arccos(rb/r)) at the radius r, a coast-type one at
    theta_pitch - inv(alpha) + inv(arccos(rb/r))."""
    d = np.asarray(point) - centre
    r = math.hypot(*d)
    inv_a, inv_r = INV(math.acos(rb / r_pitch)), INV(math.acos(rb / r))
    theta = math.atan2(d[1], d[0])
    flank = theta_pitch + (inv_a - inv_r if kind == "drive" else inv_r - inv_a)
    return abs(_wrap(theta - flank, pitch_angle))


@pytest.mark.parametrize("phi1", [0.0, 0.05, 0.13, -0.4, 1.7])
def test_contact_points_lie_on_both_flanks(phi1):
    """At e = 0 every drive pair's point lies on a pinion drive flank (pitch crossing at phi1, tooth
    thickness p/2 clockwise of it) and on a wheel drive flank (pitch crossing at pi + phi2 about O2); at
    e = -j every coast pair's point lies on a pinion coast flank (pitch crossing phi1 - pi/z1) and on a
    wheel coast flank (pitch crossing pi + phi2 - s2/r2, s2 = p/2 - j/cos(alpha)). The drawn flanks follow
    the same polar angles. Bound: a few ulps of the angles (~ 2 pi) from atan2, acos, tan."""
    O1, O2 = np.zeros(2), np.array([G.a, 0.0])
    tol = roundoff(2 * math.pi, 256)
    s2 = math.pi * G.m / 2 - G.j / math.cos(G.alpha)
    for side, e in (("drive", 0.0), ("coast", -G.j)):
        phi2 = (e - G.rb1 * phi1) / G.rb2
        geo = G.flank_geometry(phi1, phi2, n=12)
        pts = geo[f"{side}_contacts"]
        assert len(pts) == G.pairs_in_contact(phi1, side) and len(pts) in (1, 2)
        if side == "drive":
            pin, whl = (phi1, "drive"), (math.pi + phi2, "drive")
        else:
            pin, whl = (phi1 - math.pi / G.z1, "coast"), (math.pi + phi2 - s2 / G.r2, "coast")
        for p in pts:
            assert _on_flank(p, O1, G.rb1, pin[0], G.r1, 2 * math.pi / G.z1, pin[1]) <= tol
            assert _on_flank(p, O2, G.rb2, whl[0], G.r2, 2 * math.pi / G.z2, whl[1]) <= tol
        for name, centre, rb, r, z, (thp, kind) in ((f"pinion_{side}", O1, G.rb1, G.r1, G.z1, pin),
                                                     (f"wheel_{side}", O2, G.rb2, G.r2, G.z2, whl)):
            flanks = geo[name]
            assert flanks.shape == (z, 12, 2)
            radii = np.linalg.norm(flanks - centre, axis=-1)
            assert np.allclose(radii[:, 0], rb, rtol=0, atol=roundoff(rb)) and \
                np.allclose(radii[:, -1], r + G.m, rtol=0, atol=roundoff(r))
            for q in flanks[:, 1:, :].reshape(-1, 2):
                assert _on_flank(q, centre, rb, thp, r, 2 * math.pi / z, kind) <= tol


def test_pair_count_zones_against_brute_force():
    """One base pitch (phi1 over 2 pi/z1) on a grid of 200001 angles: two pairs where the closed-form
    phase x = (s_P + r_b1 phi1 - s_A) mod p_b <= (eps - 1) p_b, one pair elsewhere (grid points closer
    than 1e-12 p_b to a zone boundary skipped); the two-pair fraction is eps - 1 to one grid step."""
    n, two, one = G.contact_intervals()
    assert n == 1 and abs(two + one - G.p_b) <= roundoff(G.p_b)
    assert abs(two - (G.eps_alpha - 1) * G.p_b) <= roundoff(G.p_b)
    phis = np.linspace(0.0, 2 * math.pi / G.z1, 200001)
    counts = np.array([G.pairs_in_contact(p) for p in phis])
    x = G.zone_phase(phis)
    clear = (np.abs(x - two) > 1e-12 * G.p_b) & (x > 1e-12 * G.p_b) & (G.p_b - x > 1e-12 * G.p_b)
    assert np.array_equal(counts[clear], np.where(x[clear] <= two, 2, 1))
    assert abs(np.mean(counts[:-1] == 2) - (G.eps_alpha - 1)) <= 2 / (phis.size - 1)
    # the coast side has the same zones, mirrored: two pairs over the same fraction
    coast = np.array([G.pairs_in_contact(p, "coast") for p in phis[:-1]])
    assert set(coast) == {1, 2} and abs(np.mean(coast == 2) - (G.eps_alpha - 1)) <= 2 / (phis.size - 1)
    # the pitch point is in the single-pair zone (eps < 2 and the zone of two pairs hugs the segment ends)
    assert list(G.pair_positions(0.0)) == [G.s_P]


@pytest.mark.parametrize("kwargs, words", [
    ({"m": 0.0}, "module"), ({"m": -1e-3}, "module"), ({"z1": 17}, "undercut"), ({"z2": 12}, "undercut"),
    ({"z1": 20.0}, "integer"), ({"z2": True}, "integer"), ({"alpha": 0.0}, "pressure angle"),
    ({"alpha": math.pi / 4}, "pressure angle"), ({"alpha": math.nan}, "finite"), ({"b": -0.01}, "face width"),
    ({"nu2": 0.6}, "Poisson"), ({"j": -1e-5}, "backlash"), ({"j": 3e-3}, "backlash"), ({"E1": 0.0}, "Young"),
    ({"rho": math.inf}, "finite"), ({"alpha": math.radians(14.5), "z1": 31, "z2": 40}, "undercut")])
def test_bad_gears(kwargs, words):
    with pytest.raises(NonholonomicError, match=words) as info:
        SpurGearPair(**kwargs)
    assert "\n" not in str(info.value) and str(info.value).startswith("gears:")


def test_bad_calls():
    SpurGearPair(alpha=math.radians(14.5), z1=32, z2=40)  # z_min = ceil(31.9) = 32
    for call in (lambda: G.pair_positions(0.0, "left"), lambda: G.delta_of_force(-1.0, G.s_P),
                 lambda: G.delta_of_force(1.0, 0.0), lambda: G.delta_of_force(1.0, G.T1T2),
                 lambda: G.force_of_delta(1.0, G.s_P), lambda: G.force_of_delta(math.nan, G.s_P),
                 lambda: G.static_transmission_error(0.0, "50"), lambda: G.simulate([0.0]),
                 lambda: G.simulate([0.0, 1e-3], d_mesh=-1.0), lambda: G.simulate([1e-3, 0.0])):
        with pytest.raises(NonholonomicError) as info:
            call()
        assert "\n" not in str(info.value)


# --- Johnson's law ----------------------------------------------------------------------------------

@pytest.mark.parametrize("F", [10.0, 1000.0, 2e4])
def test_law_equal_materials_closed_form(F):
    """k1 = k2 = k: delta = (2 P k/pi)(ln(2 pi a sin(alpha)/(P k)) - 1) at every s (rho1 rho2/R = a sin
    alpha); the law written with the half-width c = sqrt(4 P R/(pi E*)) must agree to round-off."""
    k, P = (1 - G.nu1**2) / G.E1, F / G.b
    ref = 2 * P * k / math.pi * (math.log(2 * math.pi * G.T1T2 / (P * k)) - 1)
    for s in np.linspace(G.s_A, G.s_E, 7):
        assert abs(G.delta_of_force(F, s) - ref) <= roundoff(ref)
        rho1, rho2 = s, G.T1T2 - s
        R = rho1 * rho2 / (rho1 + rho2)
        c = G.half_width(F, s)
        assert abs(c - math.sqrt(8 * P * R * k / math.pi)) <= roundoff(c)  # E* = 1/(2k)
    assert G.delta_of_force(0.0, G.s_P) == 0.0 and G.force_of_delta(-1e-9, G.s_P) == 0.0


def test_law_unequal_materials_structure():
    """delta/P is affine in ln P with the slope -(k1 + k2)/pi (c ~ sqrt P), and depends on s."""
    K = (1 - MIXED.nu1**2) / MIXED.E1 + (1 - MIXED.nu2**2) / MIXED.E2
    for s in (MIXED.s_A, MIXED.s_P, MIXED.s_E):
        (P1, d1), (P2, d2) = [(F / MIXED.b, MIXED.delta_of_force(F, s)) for F in (200.0, 5000.0)]
        slope = (d1 / P1 - d2 / P2) / math.log(P1 / P2)
        # two values ~ 20 K/pi, each to ~ 64 ulps, divided by ln 25 = 3.2
        assert abs(slope + K / math.pi) <= 2 * roundoff(20 * K / math.pi) / math.log(25.0)
    assert MIXED.delta_of_force(1000.0, MIXED.s_A) != pytest.approx(MIXED.delta_of_force(1000.0, MIXED.s_E), rel=1e-4)


@pytest.mark.parametrize("gear", [G, MIXED], ids=["steel", "steel-bronze"])
def test_inverse_round_trip_and_lambert_w(gear):
    """force_of_delta inverts delta_of_force (brentq in ln F to XTOL: relative error of F at most
    XTOL + 4 eps |ln P| from brentq plus the round-off of delta, amplified by 1/(d ln delta/d ln P) < 1.1
    here); the closed form F = -b x / W_{-1}(-x e^(-K0/K)), x = pi delta / K, agrees alike."""
    K = (1 - gear.nu1**2) / gear.E1 + (1 - gear.nu2**2) / gear.E2
    for s in (gear.s_A, gear.s_P, 0.5 * (gear.s_P + gear.s_E), gear.s_E):
        rho1, rho2 = s, gear.T1T2 - s
        R = rho1 * rho2 / (rho1 + rho2)
        k1, k2 = (1 - gear.nu1**2) / gear.E1, (1 - gear.nu2**2) / gear.E2
        E_star = 1 / (k1 + k2)
        K0 = k1 * (2 * math.log(4 * rho1) - 1) + k2 * (2 * math.log(4 * rho2) - 1) \
            - K * math.log(4 * R / (math.pi * E_star))
        for F in (1.0, 100.0, 1520.0, 3e4):
            delta = gear.delta_of_force(F, s)
            P = F / gear.b
            rel = 1.1 * (gr.XTOL + 4 * EPS * abs(math.log(P)) + roundoff(1.0, 256))
            assert abs(gear.force_of_delta(delta, s) - F) <= rel * F
            x = math.pi * delta / K
            w = lambertw(-x * math.exp(-K0 / K), -1)
            assert abs(w.imag) <= roundoff(abs(w.real))
            F_w = -gear.b * x / w.real
            assert abs(F_w - F) <= rel * F + roundoff(F, 1024)  # lambertw: a few ulps, ln terms ~ 20


def test_palmgren_agreement():
    """Palmgren's empirical line-contact law delta = 3.84e-5 F^0.9 / L^0.8 (mm, N; Harris & Kotzalas,
    steel rollers) against Johnson's: measured ratio 0.908 (100 N) .. 0.982 (10 kN), 0.961 at 1 kN, the
    same at every s for equal materials. An empirical fit quoted without an error band: we require
    agreement within 15 %."""
    ratios = []
    for F in np.geomspace(100.0, 1e4, 9):
        pal = 3.84e-5 * F**0.9 / (G.b * 1e3) ** 0.8 * 1e-3
        ratios += [G.delta_of_force(F, s) / pal for s in np.linspace(G.s_A, G.s_E, 5)]
    assert 0.85 < min(ratios) and max(ratios) < 1.0
    pal = 3.84e-5 * 1000.0**0.9 / 20.0**0.8 * 1e-3
    assert abs(G.delta_of_force(1000.0, G.s_P) / pal - 0.961) < 1e-3


@pytest.mark.parametrize("gear, F", [(G, 1000.0), (G, 50.0), (MIXED, 1520.0)])
def test_pair_stiffness_by_central_difference(gear, F):
    """1/stiffness = ddelta/dF against (delta(F+h) - delta(F-h))/(2h): truncation h^2/6 max|delta'''|,
    delta''' = K/(pi b F^2) (delta = (F/(pi b))(K0 - K ln(F/b))), round-off roundoff(delta)/h."""
    K = (1 - gear.nu1**2) / gear.E1 + (1 - gear.nu2**2) / gear.E2
    h = 1e-3 * F
    for s in (gear.s_A, gear.s_P, gear.s_E):
        fd = (gear.delta_of_force(F + h, s) - gear.delta_of_force(F - h, s)) / (2 * h)
        delta = gear.delta_of_force(F, s)
        bound = h * h / 6 * K / (math.pi * gear.b * (F - h) ** 2) + roundoff(delta) / h
        compliance = 1 / gear.pair_stiffness(F, s)
        assert abs(fd - compliance) <= bound + roundoff(compliance)
    assert gear.pair_stiffness(0.0, gear.s_P) == 0.0


# --- statics -------------------------------------------------------------------------------------------

def _double_zone_phi(gear, frac=0.5):
    """A pinion angle at the fraction `frac` of the two-pair zone."""
    _, two, _ = gear.contact_intervals()
    return (gear.s_A - gear.s_P + frac * two) / gear.rb1


def test_static_te_single_and_double_equal_materials():
    """T2 = 50 N m: W = T2/r_b2 = 1520 N. Single zone (phi1 = 0, one pair at s_P): e = delta(W), and
    the pair carries W back. Double zone: two pairs with the same law (equal materials) carry W/2 each,
    e = delta(W/2) < delta(W); brentq's tolerance XTOL on delta/delta(W) bounds the difference. Coast
    (T2 < 0): e = -j - delta(W). Mesh stiffness 1 or 2 pair stiffnesses."""
    T2 = 50.0
    W = T2 / G.rb2
    e1 = G.static_transmission_error(0.0, T2)
    assert e1 == G.delta_of_force(W, G.s_P)
    assert abs(G.force_of_delta(e1, G.s_P) - W) <= W * 1.1 * (gr.XTOL + 4 * EPS * 20 + roundoff(1.0, 256))
    phi = _double_zone_phi(G)
    assert G.pairs_in_contact(phi) == 2
    e2 = G.static_transmission_error(phi, T2)
    top = G.delta_of_force(W, G.s_A)
    assert abs(e2 - G.delta_of_force(W / 2, G.s_P)) <= 2 * gr.XTOL * top + roundoff(e1)
    assert e2 < 0.6 * e1  # 1.309 um against 2.472 um
    assert G.static_transmission_error(0.0, 0.0) == 0.0
    phi_c = G.p_b / 2 / G.rb1  # coast pairs at s_P - p_b/2 + p_b/2 = s_P (one) and at phi1 = 0 (two)
    assert list(G.pair_positions(phi_c, "coast")) == pytest.approx([G.s_P], abs=roundoff(G.p_b))
    assert abs(G.static_transmission_error(phi_c, -T2) + G.j + G.delta_of_force(W, G.s_P)) <= roundoff(G.j)
    assert G.pairs_in_contact(0.0, "coast") == 2
    ec = G.static_transmission_error(0.0, -T2)
    assert abs(ec + G.j + G.delta_of_force(W / 2, G.s_P)) <= 2 * gr.XTOL * top + roundoff(G.j)
    k1 = G.mesh_stiffness(0.0, T2)
    assert k1 == G.pair_stiffness(W, G.s_P)
    k2 = G.mesh_stiffness(phi, T2)
    ref = 2 * G.pair_stiffness(W / 2, G.s_P)
    # F_k = W/2 up to the brentq tolerance; the stiffness varies with F like F/(delta ln): relative slope < 1
    assert abs(k2 - ref) <= ref * (4 * gr.XTOL * top / e2 + roundoff(1.0, 256))
    assert k2 > 1.8 * k1  # two softer-loaded pairs: 1.263e9 against 6.72e8 N/m


@pytest.mark.parametrize("frac", [0.1, 0.5, 0.9])
def test_static_te_double_zone_mixed_materials(frac):
    """Unequal materials: the pairs' laws differ, so one pair carries more than W/2 and the other less;
    since delta(F, s) increases in F, e lies between delta(W/2, s_1) and delta(W/2, s_2), below both
    single-pair values delta(W, s_k); the forces sum to W to the brentq tolerance (XTOL on delta/top, times
    the mesh stiffness)."""
    T2 = 50.0
    W = T2 / MIXED.rb2
    phi = _double_zone_phi(MIXED, frac)
    s = MIXED.pair_positions(phi)
    assert len(s) == 2
    e = MIXED.static_transmission_error(phi, T2)
    halves = sorted(MIXED.delta_of_force(W / 2, x) for x in s)
    tol = gr.XTOL * max(MIXED.delta_of_force(W, x) for x in s)
    assert halves[0] - tol <= e <= halves[1] + tol and halves[0] < halves[1]
    assert e < min(MIXED.delta_of_force(W, x) for x in s)
    k = MIXED.mesh_stiffness(phi, T2)
    total = sum(MIXED.force_of_delta(e, x) for x in s)
    assert abs(total - W) <= 2 * k * tol + roundoff(W, 256)
    # mesh stiffness by central differences of the total force (Richardson: the h^2 term is a third of the
    # difference between steps h and 2h; round-off of F ~ 1e-14 F over h)
    h = 1e-3 * e
    fd = lambda h: sum(MIXED.force_of_delta(e + h, x) - MIXED.force_of_delta(e - h, x) for x in s) / (2 * h)
    f1, f2 = fd(h), fd(2 * h)
    assert abs(f1 - k) <= 2 * abs(f2 - f1) / 3 + 1e-13 * W / h


# --- dynamics -------------------------------------------------------------------------------------------

def test_power_balance_and_ratio():
    """Free pinion, constant input torque T1 = 1.02 T2 r_b1/r_b2 (it speeds up), load T2 = 50 N m, no
    damping, 6 mesh periods from 100 rad/s at the static TE; after a few periods the undamped pair starts
    to rattle (e < 0: flanks apart), which the balance must survive.
    * KE + W_mesh - T1 (phi1 - phi1_0) - T2 (phi2 - phi2_0) is constant: each of the ~10^4 steps errs by
      less than rtol |y| and the errors partly cancel (measured drift 1.7e-10 J, 1.1e-8 J at rtol = 1e-8);
      bound 20 rtol times the sum of the magnitudes of the terms (148 J: 3e-7 J, against a mesh work of
      6e-3 J).
    * mean ratio: (phi2 - phi2_0)/(phi1 - phi1_0) + z1/z2 = (e - e0)/(r_b2 (phi1 - phi1_0)) (e = r_b1 phi1 +
      r_b2 phi2); e stays between -j - delta(F_coast max) and delta(F_drive max) (the flanks cannot pass
      through each other; each pair carries at most the total force), so the ratio tends to -z1/z2 as
      1/(phi1 - phi1_0)."""
    T2, rtol = 50.0, 1e-10
    T1 = 1.02 * T2 * G.rb1 / G.rb2
    Tm = 2 * math.pi / G.mesh_frequency(100.0)
    t = np.linspace(0.0, 6 * Tm, 601)
    df = G.simulate(t, T2=T2, T1=T1, omega1=100.0, rtol=rtol)
    dphi1, dphi2 = df.phi1 - df.phi1[0], df.phi2 - df.phi2[0]
    H = df.kinetic_energy + df.W_mesh - T1 * dphi1 - T2 * dphi2
    scale = (df.kinetic_energy.abs() + df.W_mesh.abs() + (T1 * dphi1).abs() + (T2 * dphi2).abs()).max()
    assert np.max(np.abs(H - H[0])) <= 20 * rtol * scale
    assert df.omega1.iloc[-1] > 105.0 and (df.pairs == 0).any() and set(df.pairs) <= {0, 1, 2}
    assert np.all(df.T1 == T1) and df.W_mesh.abs().max() > 1e-3  # the mesh work is far above the bound
    e_hi = G.delta_of_force(df.F_drive.max(), G.s_P)
    e_lo = -G.j - G.delta_of_force(df.F_coast.max(), G.s_P)
    assert e_lo <= df.e.min() and df.e.max() <= e_hi * (1 + roundoff(1.0, 256))
    for i in (200, 400, 600):  # 2, 4, 6 mesh periods
        ratio = dphi2[i] / dphi1[i]
        assert abs(ratio + G.z1 / G.z2) <= (e_hi - e_lo) / (G.rb2 * dphi1[i]) + roundoff()


def test_te_spectrum_peaks_at_mesh_frequency():
    """Pinion at a prescribed 100 rad/s, load 50 N m, d_mesh = 1500 N s/m: damping ratio zeta =
    d/(2 sqrt(k m)) = 0.036 .. 0.05 of the mesh mode (m = J2/r_b2^2 = 0.342 kg, k = 6.7e8 .. 1.26e9 N/m:
    7 .. 10 kHz), enough to keep the flanks in contact (with 500 N s/m they part once per mesh period).
    The response then becomes periodic with the mesh period 2 pi/(z1 omega1): a transient decays at least
    like exp(-zeta omega_n t), by e^-5.5 per mesh period, e^-44 after the 8 periods skipped. Over the
    next 16 periods (64 samples each) the spectrum of e sits at multiples of the tooth-pass frequency,
    the largest at z1 omega1 (bin 16); the other bins hold only the integration error (relative ~ rtol
    per step, measured 9e-11 of the peak): bound 1e-6."""
    omega1, T2, N = 100.0, 50.0, 64
    Tm = 2 * math.pi / G.mesh_frequency(omega1)
    t = np.arange(24 * N + 1) * (Tm / N)
    df = G.simulate(t, T2=T2, omega1=omega1, prescribed=True, d_mesh=1500.0)
    assert np.all(df.omega1 == omega1) and np.all(df.e > 0) and set(df.pairs) == {1, 2}
    e = df.e.values[8 * N:24 * N]
    spec = np.abs(np.fft.rfft(e - e.mean()))
    assert int(np.argmax(spec)) == 16
    harmonic = np.arange(spec.size) % 16 == 0
    assert spec[~harmonic].max() < 1e-6 * spec[16]
    # the static TE is the quasi-static level: the mean of e lies between the two zones' values
    e_single, e_double = G.static_transmission_error(0.0, T2), G.static_transmission_error(_double_zone_phi(G), T2)
    assert e_double < e.mean() < e_single


# ---------------------------------------------------------------- teeth's compliance, ISO 6336-1, tip relief
def test_tooth_bending_against_cantilever_beam():
    """The potential-energy bending integral (angle parametrisation of Yang & Lin) against Euler-Bernoulli's
    beam written independently along the tooth's centre line x from the involute in polar form: r = r_b
    sqrt(1 + t^2), polar angle from the centre line alpha_2 - (t - arctan t), half thickness y = r sin, x = r cos;
    M(x) = F cos(a1) (x_F - x) - F sin(a1) y_F, compliance int M^2/(E I F^2) dx, I = (2 y)^3 b/12."""
    from scipy.integrate import quad
    from nonholonomic.references.gears import tooth_compliance
    z, m, al, b, E = GB.z1, GB.m, GB.alpha, GB.b, GB.E1
    rb = m * z / 2 * math.cos(al)
    a2 = math.pi / (2 * z) + math.tan(al) - al
    for s_r in (GB.s_A, GB.s_P, GB.s_E):
        t_F = s_r / rb  # roll angle of the contact point
        a1 = t_F - a2
        point = lambda t: (rb * math.hypot(1, t) * math.cos(a2 - t + math.atan(t)), rb * math.hypot(1, t) * math.sin(a2 - t + math.atan(t)))
        x_F, y_F = point(t_F)
        def integrand(t):  # dx/dt M^2/(E I)
            h = 1e-7
            x, y = point(t)
            dxdt = (point(t + h)[0] - point(t - h)[0]) / (2 * h)
            M = math.cos(a1) * (x_F - x) - math.sin(a1) * y_F
            return M**2 / (E * (2 * y) ** 3 * b / 12) * dxdt
        beam = quad(integrand, 0.0, t_F, epsabs=0, epsrel=1e-10, limit=200)[0]
        pe = tooth_compliance(z, m, al, b, E, 0.3, GB.r_int1, s_r, parts=True)["bending"]
        # the same energy in two parametrisations: quadrature (1e-10) and the central difference of dx/dt (1e-9)
        assert abs(pe / beam - 1) < 1e-6


def test_iso6336_method_b_numbers():
    """q' of ISO 6336-1 method B for z 20/35 without profile shift; c' b and c_gamma_alpha b at 50 N m."""
    from nonholonomic.references import iso6336
    assert abs(iso6336.q_prime(20, 35) - (0.04723 + 0.15551 / 20 + 0.25791 / 35)) < 1e-15
    assert abs(iso6336.basic_rack_factor(1.25) - 0.975) < 1e-15
    F_t = 50.0 / GB.r2  # 1428.6 N, 71.4 N/mm: the load factor (0.714)^0.25
    c1 = 0.8 * 0.975 / iso6336.q_prime(20, 35) * (F_t / 20.0 / 100.0) ** 0.25 * 1e9 * GB.b * 210 / 206  # E/E_st
    E = dict(E1=GB.E1, E2=GB.E2)
    assert abs(iso6336.single_stiffness(20, 35, GB.b, F_t, **E) / c1 - 1) < 1e-14
    assert abs(iso6336.mesh_stiffness(20, 35, GB.b, F_t, GB.eps_alpha, **E) / (c1 * (0.75 * GB.eps_alpha + 0.25)) - 1) < 1e-14
    assert abs(c1 / 2.3438e8 - 1) < 1e-4  # 1/0.062374 * 0.8 * 0.975 * 0.9193 * 1.0194 N/(mm um) * 20 mm


def test_stiffness_against_iso6336():
    """Single-pair (pitch point, secant) and mean mesh stiffness (mean of W/e over a base pitch) of the reference
    within 10 % of ISO 6336-1 method B at 50 N m (issue 29)."""
    from nonholonomic.references import iso6336
    T2 = 50.0
    W, F_t = T2 / GB.rb2, T2 / GB.r2
    single = W / GB.static_transmission_error(0.0, T2)
    phis = np.linspace(0.0, 2 * math.pi / GB.z1, 120, endpoint=False)
    mesh = np.mean([W / GB.static_transmission_error(p, T2) for p in phis])
    E = dict(E1=GB.E1, E2=GB.E2)
    assert abs(single / iso6336.single_stiffness(20, 35, GB.b, F_t, **E) - 1) < 0.10
    assert abs(mesh / iso6336.mesh_stiffness(20, 35, GB.b, F_t, GB.eps_alpha, **E) - 1) < 0.10


def test_series_law_and_relief():
    """The pair's approach is the contact's plus q F (compliances in series); a relieved pair carries
    F(delta - C(s)); the relief is C_a at each tip and 0 from L_a on."""
    R = SpurGearPair(C_a=10e-6)
    F, s = 800.0, GB.s_P
    assert abs(GB.delta_of_force(F, s) - G.delta_of_force(F, s) - GB.tooth_pair_compliance(s) * F) < 1e-20
    assert abs(GB.force_of_delta(GB.delta_of_force(F, s), s) / F - 1) < 1e-12
    assert R.relief(R.s_E) == pytest.approx(10e-6, rel=1e-14) and R.relief(R.s_A) == pytest.approx(10e-6, rel=1e-14)
    assert R.relief(R.s_P) == 0.0
    assert R.pair_force(5e-6, R.s_E) == 0.0
    # the spline of q against the quadrature over the segment
    ss = np.linspace(GB.s_A, GB.s_E, 37)
    assert max(abs(GB.tooth_pair_compliance(x) / GB.tooth_pair_compliance_exact(x) - 1) for x in ss) < 1e-9
