"""The ball bearing and the spur gear pair FMUs against closed forms, and their bad parameters.

Oracles written here from the mechanics, not from the reference modules (``references/bearing.py``,
``references/gears.py``):

* bearing, static preload: Hamrock and Brewe's approximation of the elliptic Hertz contact (ellipticity,
  elliptic integrals, approach) at both raceways, the two contacts of a ball in series under the preload
  -P_d/2 (the curvature sums of Harris and Kotzalas);
* bearing, torque drive: the drive's law T_drive (1 - exp(-t/t_ramp));
* bearing, steady running: pure rolling at both contacts with the outer ring fixed (cage speed and ball spin),
  first at the nominal radii, then with the rolling radii shortened by the elastic approach;
* bearing, cage: Hertz's circular contact of a ball inside its spherical pocket (Johnson, sec. 4.2);
* gears, quasi-static: Johnson's line-contact approach of two cylinders (its independence of the position on
  the line of action for equal materials), one pair carrying T2/r_b2 or two pairs half each; the ends of the
  single-pair zone from the involute geometry (the pinion's base circle moves the pairs along the line like a
  belt);
* gears, dynamic: the kinematic identity e = r_b1 phi1 + r_b2 phi2 for the mean speed ratio, the transverse
  contact ratio epsilon_alpha from the tip and base circles for the time fractions of one and two pairs.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from bounds import roundoff
from nonholonomic.errors import NonholonomicError
from nonholonomic.simulate import SimulationFailed, simulate

# the bearing's defaults (BallBearing.mo)
Z, D_BALL, D_PM, F_I, F_O, E_STEEL, NU = 8, 8e-3, 40e-3, 0.52, 0.52, 2.1e11, 0.3
P_D = -2e-6  # the preload of the rolling test (the example's default is a clearance of +10 um)
# the gears' defaults (SpurGearPair.mo)
M, Z1, Z2, ALPHA, B_FACE = 2e-3, 20, 35, math.radians(20.0), 20e-3


def _hamrock_brewe_stiffness(rx: float, ry: float) -> float:
    """K in P = K delta^(3/2) of an elliptic Hertz contact of two steel bodies (Hamrock and Brewe 1983):
    delta = K_e (9/(2 E_e R) (P/(pi k E'))^2)^(1/3), solved for P."""
    alpha_r = max(rx, ry) / min(rx, ry)  # Ry/Rx
    k = 1.0339 * alpha_r**0.636
    e_int = 1.0003 + 0.5968 / alpha_r
    k_int = 1.5277 + 0.6023 * math.log(alpha_r)
    r_eq = 1 / (rx + ry)
    e_prime = 2 / (2 * (1 - NU**2) / E_STEEL)  # E' = 2 E*, 1/E* = 2 (1 - nu^2)/E for two steel bodies
    return math.pi * k * e_prime * math.sqrt(2 * e_int * r_eq / 9) / k_int**1.5


def _series_load(approach: float, d_inner: float, d_outer: float) -> tuple[float, float, float]:
    """Load P of a ball pressed between raceways of diameters d_inner, d_outer by the total approach
    delta_i + delta_o = approach, (P/K_i)^(2/3) + (P/K_o)^(2/3) = approach, and the two approaches."""
    # rolling direction: the inner raceway convex, the outer concave; across: the concave groove of radius f d
    k_i = _hamrock_brewe_stiffness(2 / D_BALL + 2 / d_inner, 2 / D_BALL - 1 / (F_I * D_BALL))
    k_o = _hamrock_brewe_stiffness(2 / D_BALL - 2 / d_outer, 2 / D_BALL - 1 / (F_O * D_BALL))
    k_n = (k_i ** (-2 / 3) + k_o ** (-2 / 3)) ** -1.5
    load = k_n * approach**1.5
    return load, (load / k_i) ** (2 / 3), (load / k_o) ** (2 / 3)


@pytest.mark.parametrize("p_d", [-2e-6, -20e-6])
def test_bearing_preload_loads_every_contact_with_the_series_hertz_load(rumoca_fmus, p_d):
    df = simulate(rumoca_fmus["BallBearing"], dict(omega=0.0, F_r=0.0, P_d=p_d), stop_time=1e-3,
                  output_interval=1e-4, tolerance=1e-10)
    last = df.iloc[-1]
    assert last["time"] == 1e-3
    loads = np.array([last[f"N_i[{j}]"] for j in range(1, Z + 1)] + [last[f"N_o[{j}]"] for j in range(1, Z + 1)])
    # Hamrock-Brewe on the nominal raceways D_pm -+ d (9.5366 N at -2 um, 301.57 N at -20 um)
    q_nominal, _, _ = _series_load(-p_d / 2, D_PM - D_BALL, D_PM + D_BALL)
    # the grooves' bottoms are where the clearance puts them: P_d = D_o - D_i - 2 d with D_pm = (D_i + D_o)/2,
    # so D_i = D_pm - d - P_d/2 and D_o = D_pm + d + P_d/2, P_d/2 from the nominal ones: the curvature sum
    # 2/D_race changes by 3e-5 of itself, the load by 5.9e-7 (-2 um) and 5.9e-6 (-20 um) of itself
    q_grooves, delta_i, delta_o = _series_load(-p_d / 2, D_PM - D_BALL - p_d / 2, D_PM + D_BALL + p_d / 2)
    # the balls start where both contacts balance and nothing moves (omega = 0, no load, no gravity): the
    # penetrations are differences of positions of 0.02 m, each off by round-off of that size, 1.5 times
    # that in the load (N ~ delta^(3/2)); an imbalance of such size moves a ball by 1e-17 m against its
    # 3e7 N/m contacts (measured: 1.6e-11 of Q at -2 um, 6e-13 at -20 um)
    bound = q_grooves * 1.5 * roundoff(D_PM / 2) / min(delta_i, delta_o)
    assert np.max(np.abs(loads - q_grooves)) < bound
    assert np.max(np.abs(loads - q_nominal)) < abs(q_grooves - q_nominal) + bound
    assert abs(q_grooves - q_nominal) < 1e-5 * q_nominal  # the raceways' shift is a small effect


def test_bearing_torque_drive_follows_its_ramp(rumoca_fmus):
    t_drive, t_ramp = 0.01, 0.02
    df = simulate(rumoca_fmus["BallBearing"], dict(torqueDriven=1, T_drive=t_drive), stop_time=0.05,
                  output_interval=1e-3, tolerance=1e-8)
    t = df["time"].to_numpy()
    # an algebraic relation of the model, evaluated once per sample: round-off of T_drive
    assert np.max(np.abs(df["shaftTorque"] - t_drive * (1 - np.exp(-t / t_ramp)))) < roundoff(t_drive)
    assert df["shaftSpeed"].iloc[-1] > 0  # the torque turns the shaft (no servo holds it)


def test_bearing_balls_roll_purely_at_the_cage_speed(rumoca_fmus):
    omega = 100.0
    df = simulate(rumoca_fmus["BallBearing"], dict(P_d=P_D), stop_time=0.3, output_interval=5e-3, tolerance=1e-10)
    last = df.iloc[-1]
    orbit = np.array([last[f"orbitSpeed[{j}]"] for j in range(1, Z + 1)])
    spin = np.array([last[f"ballSpin[{j}]"] for j in range(1, Z + 1)])
    delta_i = np.array([last[f"delta_i[{j}]"] for j in range(1, Z + 1)])
    delta_o = np.array([last[f"delta_o[{j}]"] for j in range(1, Z + 1)])
    # A ball's centre at radius R_c orbits at Omega, the ball turns at w about the axis; its contact points
    # lie rho_i inside and rho_o outside the centre. No slip at the fixed outer ring: Omega R_c + w rho_o = 0;
    # no slip on the inner ring turning at omega: Omega R_c - w rho_i = omega (R_c - rho_i). Hence
    #   Omega = omega (R_c - rho_i) rho_o/(R_c (rho_i + rho_o)),  w = -Omega R_c/rho_o,
    # at the nominal R_c = D_pm/2, rho = d/2: Omega = omega (1 - d/D_pm)/2 = 40 rad/s and
    # w = -omega (1 - d/D_pm) D_pm/(2 d) = -200 rad/s. Pure rolling holds in steady running: every ball is
    # loaded by the preload and orbits alike, so none touches its pocket (asserted below) and the cage turns with
    # them; a ball then has no tangential acceleration, so its two tangential contact forces are equal and opposite, and
    # their moment about the ball's centre, d times that force, must vanish too: no creep.
    # The elastic approach delta (about 0.5 um) moves each contact point by delta/2 and the centre's radius
    # by up to delta: the rolling radii change at order delta/d; bound 2 delta/d relative (measured 1.6e-5
    # and 7.8e-5 of 1.25e-4, the ramp's remainder exp(-15) = 3e-7 included)
    cage, ball = omega * (1 - D_BALL / D_PM) / 2, -omega * (1 - D_BALL / D_PM) * D_PM / (2 * D_BALL)
    relative = 2 * max(delta_i.max(), delta_o.max()) / D_BALL
    assert relative < 1.5e-4  # the approach under the 9.5 N preload
    assert all(last[f"N_p[{j}]"] == 0 for j in range(1, Z + 1))  # the balls orbit alike: no pocket touched
    assert np.max(np.abs(orbit - cage)) < relative * abs(cage)
    assert np.max(np.abs(spin - ball)) < relative * abs(ball)
    # the same rolling with the contact points the model uses (midway through each overlap) and the
    # measured approaches: R_c = (D_i + d)/2 - delta_i, rho = d/2 - delta/2, at the shaft's measured speed
    # (the ramp's remainder). What is left: the balls' lag behind the ramp (a force m R_c Omega' = 3e-8 N
    # needs a slip eps F/(mu N) = 3e-12 m/s, 4e-12 relative) and the integration error at rtol 1e-10 of
    # the speeds of balls ringing on 3e7 N/m contacts (measured: 1.1e-8 relative, as the spread across the
    # balls); bound 1e-6 relative
    w_shaft = last["shaftSpeed"]
    r_c = (D_PM - D_BALL - P_D / 2 + D_BALL) / 2 - delta_i  # D_i = D_pm - d - P_d/2
    rho_i, rho_o = D_BALL / 2 - delta_i / 2, D_BALL / 2 - delta_o / 2
    orbit_exact = w_shaft * (r_c - rho_i) * rho_o / (r_c * (rho_i + rho_o))
    assert np.max(np.abs(orbit - orbit_exact)) < 1e-6 * abs(cage)
    assert np.max(np.abs(spin + orbit_exact * r_c / rho_o)) < 1e-6 * abs(ball)


@pytest.mark.parametrize("model, parameters, message", [
    ("BallBearing", {"f_i": 0.5}, "groove conformity f_i and f_o must exceed 0.5"),
    ("BallBearing", {"P_d": -1e-3}, "the ball is larger than the gap between the rings"),
    ("BallBearing", {"D_ball": 0.05}, "must be smaller than the pitch diameter D_pm"),
    ("BallBearing", {"c_p": 5e-3}, "the pocket clearance c_p must be smaller than the ball's radius"),
    ("SpurGearPair", {"z1": 12}, "z1 and z2 must be at least 2/sin(alpha)^2"),
])
def test_non_physical_machine_elements_are_refused_at_initialisation(rumoca_fmus, model, parameters, message):
    with pytest.raises(SimulationFailed, match=re.escape(message)) as failure:
        simulate(rumoca_fmus[model], parameters, stop_time=0.01)
    assert "\n" not in str(failure.value)  # one clear line


@pytest.mark.parametrize("parameters", [{"m": -1.0}, {"alpha": 0.0}])
def test_gear_parameters_below_their_minimum_are_refused_before_the_run(rumoca_fmus, parameters):
    with pytest.raises(NonholonomicError, match="below its minimum") as failure:
        simulate(rumoca_fmus["SpurGearPair"], parameters, stop_time=0.01)
    assert "\n" not in str(failure.value)


def _gear_geometry():
    r1, r2 = M * Z1 / 2, M * Z2 / 2
    rb1, rb2 = r1 * math.cos(ALPHA), r2 * math.cos(ALPHA)
    ra1, ra2 = r1 + M, r2 + M
    line = (r1 + r2) * math.sin(ALPHA)  # T1T2 = a sin(alpha)
    s_a = line - math.sqrt(ra2**2 - rb2**2)  # the wheel's tip circle: a pair enters
    s_e = math.sqrt(ra1**2 - rb1**2)  # the pinion's tip circle: it leaves
    p_b = math.pi * M * math.cos(ALPHA)
    eps_alpha = (math.sqrt(ra1**2 - rb1**2) + math.sqrt(ra2**2 - rb2**2) - line) / p_b
    return dict(r1=r1, rb1=rb1, rb2=rb2, line=line, s_a=s_a, s_e=s_e, p_b=p_b, s_p=r1 * math.sin(ALPHA),
                eps_alpha=eps_alpha)


def _johnson_approach(force: float, s: float, line: float) -> float:
    """Approach of two steel cylinders of radii s and line - s pressed along the face width by ``force``
    (Johnson, Contact Mechanics, 1985, eq. 5.40)."""
    lam = (1 - NU**2) / E_STEEL
    p = force / B_FACE
    r_eq = 1 / (1 / s + 1 / (line - s))
    c = math.sqrt(4 * p * r_eq / (math.pi / (2 * lam)))  # E* = 1/(2 lam)
    return p / math.pi * sum(lam * (2 * math.log(4 * rho / c) - 1) for rho in (s, line - s))


def test_gears_quasi_static_transmission_error_is_the_line_contact_approach(rumoca_fmus):
    g = _gear_geometry()
    omega1, t2, tol, dt = 1.0, 50.0, 1e-10, 1e-4
    force = t2 / g["rb2"]  # the load's torque on the wheel's base radius
    e_single = _johnson_approach(force, g["s_p"], g["line"])
    e_double = _johnson_approach(force / 2, g["s_p"], g["line"])
    # equal materials: sum of 2 ln(4 rho_i/c) = 2 ln(16 rho1 rho2/c^2) with rho1 rho2/R = rho1 + rho2 = a sin(alpha),
    # so the approach is the same all along the active segment (one formula: round-off)
    for s in np.linspace(g["s_a"], g["s_e"], 7):
        assert abs(_johnson_approach(force, s, g["line"]) - e_single) < roundoff(e_single)
        assert abs(_johnson_approach(force / 2, s, g["line"]) - e_double) < roundoff(e_double)
    assert abs(e_single - 2.4724e-6) < 1e-10 and abs(e_double - 1.3089e-6) < 1e-10  # by hand, as the docs say

    df = simulate(rumoca_fmus["SpurGearPair"], dict(omega1=omega1, T2=t2), stop_time=0.35, output_interval=dt,
                  tolerance=tol)
    t, n, e = df["time"].to_numpy(), df["nContact"].to_numpy(), df["e"].to_numpy()
    assert set(np.unique(n)) == {1.0, 2.0}
    # the zones from the geometry: phi1 = omega1 t (the servo starts at omega1), the loaded pair starts at the
    # pitch point and moves along the line at r_b1 omega1; the next pair enters at s_A when it reaches
    # s_A + p_b, it leaves at s_E. Each change is seen at the first sample after it
    changes = t[1:][np.diff(n) != 0]
    enter = (g["s_a"] + g["p_b"] - g["s_p"]) / (g["rb1"] * omega1)
    leave = (g["s_e"] - g["s_p"]) / (g["rb1"] * omega1)
    assert len(changes) == 2
    assert 0 <= changes[0] - enter < dt and 0 <= changes[1] - leave < dt
    # After each change the wheel rings on the mesh (equivalent mass J2/r_b2^2 = 0.342 kg, the pinion held by its
    # servo; about 5 kHz with the teeth's compliance) and the damping d = 1500 N s/m per pair makes it decay with
    # tau = 2 m/c <= 0.46 ms: 10 ms after a change exp(-10/0.46) = 4e-10 of the jump is left. Beyond it the TE is
    # the static one of the teeth's compliance in series with Johnson's contact (the reference, whose contact law
    # is checked above and whose tooth compliance is checked against a cantilever beam in
    # test_reference_gears.py), moving slowly: the damping force d e' displaces it by d |e'|/k (k >= 1.6e8 N/m,
    # |e'| from the static TE's slope at 1 rad/s), the inertia by (J2/r_b2^2) |e''|/k (negligible: e'' ~ 1e-4 m/s^2
    # gives 2e-13 m); CVODE's error as before, 2 * 4 tol (r_b1 + r_b2)
    from nonholonomic.references.gears import SpurGearPair
    gears = SpurGearPair()
    skip = 10e-3
    settled = np.ones_like(t, dtype=bool)
    for c in changes:
        settled &= ~((t >= c) & (t < c + skip))
    e_static = np.array([gears.static_transmission_error(p, t2) for p in df["phi1"].to_numpy()])
    slope = np.max(np.abs(np.diff(e_static)[settled[1:] & settled[:-1]])) / dt
    bound = 2 * 4 * tol * (g["rb1"] + g["rb2"]) + 1500.0 * 2 * slope / 1.6e8 + 1e-12 \
        + math.exp(-skip / 0.46e-3) * 3.1e-6 + 1e-4 * np.max(e_static)
    # 1e-12: the inertia term bounded; 3.1 um: the largest TE jump; 1e-4 of e: the model's 10-term Chebyshev series
    # of the teeth's compliance, 8e-5 of it at most against the quadrature (InvoluteToothContact's documentation)
    single, double = settled & (n == 1), settled & (n == 2)
    assert single.sum() > 1000 and double.sum() > 1000
    assert np.max(np.abs(e[settled] - e_static[settled])) < bound
    # the single-pair TE at the pitch point, 6.42 um: 1520 N over the secant stiffness 2.37e8 N/m
    assert abs(e_static[0] - 6.4222e-6) < 1e-9


def test_gears_mean_ratio_and_contact_fractions_over_thirty_mesh_periods(rumoca_fmus):
    g = _gear_geometry()
    omega1, dt = 100.0, 1e-5
    period = 2 * math.pi / (Z1 * omega1)
    df = simulate(rumoca_fmus["SpurGearPair"], dict(omega1=omega1), stop_time=30 * period, output_interval=dt,
                  tolerance=1e-8)
    t, n, e = df["time"].to_numpy(), df["nContact"].to_numpy(), df["e"].to_numpy()
    assert np.max(np.abs(e)) < g["p_b"] / 2  # in mesh throughout: e is the unreduced r_b1 phi1 + r_b2 phi2
    # 1e-3 rad per sample: np.unwrap recovers the turning angles
    phi1, phi2 = np.unwrap(df["phi1"].to_numpy()), np.unwrap(df["phi2"].to_numpy())
    turned = phi1[-1] - phi1[0]
    # phi2 = (e - r_b1 phi1)/r_b2 and r_b1/r_b2 = z1/z2: the ratio of the angles turned is -z1/z2 + (change of
    # e)/(r_b2 phi1), at most 2 max|e|/(r_b2 phi1) off (measured: 4.9e-8 of 2.2e-5)
    ratio = (phi2[-1] - phi2[0]) / turned
    assert abs(ratio + Z1 / Z2) < 2 * np.max(np.abs(e)) / (g["rb2"] * turned) + roundoff(1.0)
    # The number of pairs depends only on the pinion's angle while the teeth stay loaded (e > 0 throughout):
    # per mesh period p_b/(r_b1 omega1) a single-pair zone of 2 - eps and a double-pair zone of eps - 1.
    # Over the 9425 samples of [0, 30 periods) every change of nContact is located only to one sample, so
    # each one can misclassify at most one sample; one more for the window's end (measured: 1.6e-5 of 6.6e-3)
    assert abs(g["eps_alpha"] - 1.6217) < 1e-4  # as the model's documentation says
    window = t < 30 * period * (1 - 1e-12)
    count = window.sum()
    assert count == 9425
    n_w = n[window]
    assert np.all(e[window] > 0) and set(np.unique(n_w)) == {1.0, 2.0}
    changes = np.count_nonzero(np.diff(n_w))
    assert changes == 60  # two per mesh period
    bound = (changes + 1) / count
    assert abs(np.mean(n_w == 1) - (2 - g["eps_alpha"])) < bound
    assert abs(np.mean(n_w == 2) - (g["eps_alpha"] - 1)) < bound


def test_bearing_pocket_force_is_hertz_of_a_ball_in_a_spherical_pocket(rumoca_fmus):
    """The cage's pockets (Contacts.BallInPocket): with the damping off, the force of a ball pressed into its
    spherical pocket against Hertz's circular contact (Johnson, Contact Mechanics, sec. 4.2) of a sphere of radius
    d/2 inside a concave sphere of radius d/2 + c_p: R = 1/(2/d - 1/(d/2 + c_p)), N = 4/3 E* sqrt(R) delta^(3/2)."""
    c_p = 1e-4
    df = simulate(rumoca_fmus["BallBearing"], dict(F_r=500.0, d_p=0.0), stop_time=0.06, output_interval=1e-4,
                  tolerance=1e-8)
    delta = df[[f"delta_p[{j}]" for j in range(1, Z + 1)]].to_numpy()
    force = df[[f"N_p[{j}]" for j in range(1, Z + 1)]].to_numpy()
    touching = delta > 0
    assert touching.sum() >= 10  # the balls catch the cage during the spin-up (measured: 495 ball-samples)
    e_star = E_STEEL / (2 * (1 - NU**2))
    radius = 1 / (2 / D_BALL - 1 / (D_BALL / 2 + c_p))
    hertz = 4 / 3 * e_star * np.sqrt(radius) * delta[touching] ** 1.5
    # the same closed form of the sampled penetration, evaluated in another order (the model's R from its curvature
    # sums, sqrt and power apart): a few units of round-off (measured: identical); penetrations 5e-10 to 4.5e-7 m
    assert np.max(np.abs(force[touching] - hertz) / hertz) < roundoff(1.0, 16)
    assert np.all(force[~touching] == 0)
