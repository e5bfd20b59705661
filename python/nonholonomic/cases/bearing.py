"""Verification cases of the ball bearing: Modelica example ``Examples.BallBearing``, reference
``nonholonomic.references.bearing``.

No paper gives trajectories of this bearing; the oracles are textbook mechanics, each checked on its own in
``tests/test_reference_bearing.py``: the pure-rolling kinematics (cage speed and ball spin), the elliptic Hertz
contact (exact, by Carlson's R_D; and the Hamrock-Brewe approximation the Modelica contact uses), Stribeck's
load distribution (the rigid-ring solve for this geometry) and Harris's with clearance, and the energy balance.
The cage's skidding is compared with SKF's minimum-load rule and Harris's account (no closed form).

The FMU is the full multibody model: 8 free balls (13 states each) between a fixed outer ring and an inner ring
on its shaft, free in the plane of the bearing, 16 elliptic Hertz contacts with Contensou-type friction, and a
ball-guided cage (8 spherical pockets with a clearance of 0.1 mm, Hertz contacts with friction) free in the plane.
The example's default diametral clearance is +10 um (CN); the cases that need every ball loaded set a preload.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pandas as pd
from scipy.integrate import cumulative_trapezoid, trapezoid

from ..plots import label, plt, save_figure
from ..references.bearing import DeepGrooveBallBearing, hamrock_brewe, harris_load_zone, rigid_ring_deflection, \
    stribeck_factor, stribeck_limit
from ..simulate import simulate
from ..verification import Case, CaseResult, Check, TrajectoryCase, no_signals

PAPER = ("S. V. Vil'ke, I. I. Kosenko, E. B. Aleksandrov, \"On computer implementation of the ball bearing "
         "dynamics\", Regular and Chaotic Dynamics 14(6), 2009 (seed 002, section 6). Oracles: pure-rolling "
         "kinematics and Stribeck's load distribution (Harris and Kotzalas, Rolling Bearing Analysis, ch. 2 and 7), "
         "the elliptic Hertz contact (Johnson, Contact Mechanics, sect. 4.2; Hamrock and Brewe 1983).")
BEARING = DeepGrooveBallBearing()  # the Modelica example's defaults
Z = BEARING.Z
BALLS = range(1, Z + 1)
OMEGA = 100.0  # rad/s, the example's shaft speed
PRELOAD = -2e-6  # m, the diametral clearance of the cases that need every ball loaded (the example before its cage)
CLEARANCES = (10e-6, 20e-6)  # m, diametral clearances of the load-zone case: the CN group's middle and top (6-20 um)
POCKET_CLEARANCE = 1e-4  # m, the example's c_p


def columns(name: str) -> list[str]:
    """The Z columns of an array output, e.g. N_i[1..Z]."""
    return [f"{name}[{j}]" for j in BALLS]


def static_run(F_r: float = 1000.0, P_d: float = 0.0) -> pd.DataFrame:
    """A copy of ``_static_run(F_r, P_d)``: the Hertz and the Stribeck cases share one run."""
    return _static_run(F_r, P_d).copy()


@functools.lru_cache(maxsize=2)
def _static_run(F_r: float, P_d: float) -> pd.DataFrame:
    """The shaft held still (omega = 0), diametral clearance P_d, the radial load F_r along -y reached in 5 ms
    (rises as 1 - exp(-t/5 ms): 2e-9 short of it at 0.1 s), Hunt-Crossley damping settles the rings and balls."""
    return simulate("BallBearing", dict(omega=0.0, P_d=P_d, F_r=F_r, t_ramp=0.005), stop_time=0.1,
                    output_interval=5e-4, tolerance=1e-10)


PLACES = -math.pi / 2 + 2 * math.pi * np.arange(Z) / Z  # the balls' and pockets' starting angles (theta_1 = -pi/2)


def pocket_offsets(frame: pd.DataFrame) -> np.ndarray:
    """Each ball's orbital angle from its pocket's (the cage's angle plus the pocket's place), wrapped to +-pi."""
    angles = frame[columns("orbitAngle")].to_numpy() - frame["cageAngle"].to_numpy()[:, None] - PLACES
    return np.angle(np.exp(1j * angles))


def orbit_angles(frame: pd.DataFrame) -> np.ndarray:
    """The balls' orbital angles, continuous in time and starting at their places (ball j + 1 ahead of ball j)."""
    orbit = np.unwrap(frame[columns("orbitAngle")].to_numpy(), axis=0)
    return orbit + 2 * math.pi * np.round((PLACES - orbit[0]) / (2 * math.pi))


def steady_mean(frame: pd.DataFrame, column: str, start: float) -> float:
    """Time average of a column from ``start`` to the end (trapezoid rule)."""
    part = frame[frame["time"] >= start]
    t = part["time"].to_numpy()
    return float(trapezoid(part[column].to_numpy(), t) / (t[-1] - t[0]))


def radial_angle(frame: pd.DataFrame) -> np.ndarray:
    """Angle of each ball from the load line (-y), at the last row."""
    return np.angle(np.exp(1j * (frame[columns("orbitAngle")].to_numpy()[-1] + math.pi / 2)))


class CageSpeedCase(Case):
    """Spin-up from rest with the default preload: the balls' orbital speed and spin against pure rolling."""

    def __init__(self):
        super().__init__("bearing_cage_speed", "BallBearing",
                         "Ball bearing (8 balls of 8 mm on 40 mm, conformity 0.52, preload 2 um: every ball loaded) "
                         "started from rest, the inner ring brought to 100 rad/s (time constant 20 ms), 0.3 s: orbital "
                         "speeds, ball spins and the cage's speed against pure rolling, omega_c = omega (1 - d/D_pm)/2.")

    def execute(self) -> CaseResult:
        fmu = simulate("BallBearing", dict(omega=OMEGA, P_d=PRELOAD), stop_time=0.3, output_interval=5e-4,
                       tolerance=1e-10)
        steady = fmu["time"] >= 0.25  # the shaft's rate is 3.7e-6 short of omega there: exp(-12.5)
        omega = fmu["shaftSpeed"].to_numpy()[steady]
        orbit = fmu[columns("orbitSpeed")].to_numpy()[steady]
        spin = fmu[columns("ballSpin")].to_numpy()[steady]
        cage = BEARING.cage_speed(omega)[:, None]
        ball_spin = cage + BEARING.ball_spin(omega)[:, None]  # absolute spin about the axis: cage + relative
        orbit_error = float(np.max(np.abs(orbit / cage - 1)))
        # the cage rides on the balls: every ball orbits at the same speed, and the cage, free within its pockets'
        # play (an angle 2 c_p/(D_pm/2) from wall to wall), rattles there after the spin-up's impacts; over the
        # window T its mean speed is the balls' within that play over T (5e-3 of omega_c in 50 ms)
        t_steady = fmu["time"].to_numpy()[steady]
        window = t_steady[-1] - t_steady[0]
        cage_mean = steady_mean(fmu, "cageSpeed", t_steady[0])
        cage_error = abs(cage_mean / float(BEARING.cage_speed(steady_mean(fmu, "shaftSpeed", t_steady[0]))) - 1)
        cage_bound = 2 * POCKET_CLEARANCE / (BEARING.D_pm / 2) / (window * BEARING.cage_speed(OMEGA))
        spin_error = float(np.max(np.abs(spin / ball_spin - 1)))
        # the formulas are those of rigid bodies; the model's contact points lie delta/2 inside each undeformed
        # surface, so the rolling radii and hence both speeds differ from them at the order delta/d (1.3e-4 at
        # the preload's 0.5 um); the integrator's error (rtol 1e-10) is far below
        delta = max(fmu[columns("delta_i")].to_numpy()[steady].max(), fmu[columns("delta_o")].to_numpy()[steady].max())
        bound = 2 * delta / BEARING.d
        # during the spin-up (from 5 ms) the balls roll: besides the rolling radii, the regularised friction lets
        # them creep by less than eps (the traction they need, 0.1 N, is far below mu N = 0.9 N), relative to the
        # inner ring's surface speed, smallest at 5 ms
        # (the balls catch the cage, at rest at first, within 50 ms: while a ball's pocket pushes it, more than
        # friction acts on it, so each ball is compared where its pocket does not touch it: 98 % of the samples)
        spinup = fmu["time"].to_numpy() >= 0.005
        rate = fmu["shaftSpeed"].to_numpy()[spinup]
        free = fmu[columns("N_p")].to_numpy()[spinup] == 0
        ratio = fmu[columns("orbitSpeed")].to_numpy()[spinup] / BEARING.cage_speed(rate)[:, None]
        lag = float(np.max(np.abs(ratio[free] - 1)))
        creep = 1e-4 / (rate.min() * BEARING.race_radii[0])  # the example's eps over the surface speed
        summary = pd.DataFrame(dict(quantity=["balls' orbital speed (rad/s)", "ball spin about the axis (rad/s)",
                                              "cage speed (rad/s)"],
                                    formula=[BEARING.cage_speed(OMEGA), BEARING.cage_speed(OMEGA)
                                             + BEARING.ball_spin(OMEGA), BEARING.cage_speed(OMEGA)],
                                    fmu_mean=[orbit.mean(), spin.mean(), cage_mean],
                                    largest_relative_error=[orbit_error, spin_error, float(np.max(np.abs(
                                        fmu["cageSpeed"].to_numpy()[steady] / cage[:, 0] - 1)))]))
        checks = [Check("orbital speeds against omega_c = omega (1 - d/D_pm)/2, last 50 ms (relative)", orbit_error,
                        bound),
                      Check("ball spins against pure rolling, last 50 ms (relative)", spin_error, bound),
                      Check("cage speed, mean over the last 50 ms, against omega_c (relative)", cage_error,
                            cage_bound + bound),
                      Check("spin-up from 5 ms, each ball where its pocket does not touch it: orbital speeds "
                            "against the cage speed of the shaft's rate at the time (relative)", lag, bound + creep)]
        return CaseResult(self, no_signals(), checks, dict(fmu=fmu, summary=summary))

    def plot(self, result, out_dir):
        fmu = result.frames["fmu"]
        t = fmu["time"]
        fig, axes = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
        for j, c in enumerate(columns("orbitSpeed")):
            axes[0].plot(t, fmu[c], lw=1.0, label="balls (FMU)" if j == 0 else None)
        axes[0].plot(t, fmu["cageSpeed"], color="k", lw=2.0, alpha=0.4, label="cage (FMU)")
        axes[0].plot(t, BEARING.cage_speed(fmu["shaftSpeed"]), "k--", lw=1.0,
                     label="omega_c = omega (1 - d/D_pm)/2 of the shaft's rate")
        axes[0].set_ylabel(label("orbital speed", "rad/s"))
        axes[1].plot(t, fmu[columns("ballSpin")], lw=1.0)
        axes[1].plot(t, BEARING.cage_speed(fmu["shaftSpeed"]) + BEARING.ball_spin(fmu["shaftSpeed"]), "k--", lw=1.0,
                     label="pure rolling")
        axes[1].set_ylabel(label("ball spin about the axis", "rad/s"))
        axes[1].set_xlabel(label("t", "s"))
        for ax in axes:
            ax.grid(alpha=0.3)
            ax.legend(fontsize=8)
        axes[0].set_title(f"{self.name}: 8 balls and the cage spun up by the inner ring, preload 2 um")
        return [save_figure(fig, out_dir / "cage_speed.png")]


class HertzCase(Case):
    """The most loaded ball's two contacts under a static radial load against the closed forms."""

    def __init__(self):
        super().__init__("bearing_hertz", "BallBearing",
                         "Ball bearing with zero clearance under a static radial load of 1000 N, shaft held: penetration "
                         "and contact ellipse of the most loaded ball's contacts against Hertz's closed form, exact "
                         "(elliptic integrals) and in the Hamrock-Brewe approximation the model uses.")

    def execute(self) -> CaseResult:
        fmu = static_run()
        last = fmu.iloc[-1]
        j = int(np.argmax(last[columns("N_i")].to_numpy())) + 1
        rows, checks = [], []
        for ring, tag in (("inner", "i"), ("outer", "o")):
            N = float(last[f"N_{tag}[{j}]"])
            fm = dict(delta=float(last[f"delta_{tag}[{j}]"]), a=float(last[f"a_{tag}[{j}]"]),
                      b=float(last[f"b_{tag}[{j}]"]))
            rx, ry = BEARING.curvatures(ring)
            hb = hamrock_brewe(rx, ry, BEARING.E_star, N)
            exact = BEARING.contact(ring)
            a, b = exact.semi_axes(N)
            ex = dict(delta=float(exact.approach(N)), a=float(a), b=float(b))
            for q in ("delta", "a", "b"):
                rows.append(dict(contact=ring, quantity=q, load_N=N, fmu=fm[q], hamrock_brewe=float(hb[q]),
                                 exact=ex[q], fmu_vs_hb=fm[q] / float(hb[q]) - 1, fmu_vs_exact=fm[q] / ex[q] - 1,
                                 hb_vs_exact=float(hb[q]) / ex[q] - 1))
        table = pd.DataFrame(rows)
        # the FMU's penetration and axes and the Hamrock-Brewe closed form are the same law evaluated apart, but
        # the FMU's load includes the Hunt-Crossley term N_el d d(delta)/dt of what is left of the start's
        # vibration after 0.1 s: relative 2/3 d |d(delta)/dt|, below 1e-8 for |d(delta)/dt| < 1.5e-9 m/s
        # (measured 9e-10)
        checks.append(Check("FMU against the Hamrock-Brewe closed form at the FMU's load (largest relative)",
                            float(table["fmu_vs_hb"].abs().max()), 1e-8))
        # against the exact ellipse the FMU differs by the approximation's own error, computed independently
        # from the exact solution (reference); 1e-9 above it for the arithmetic
        excess = float((table["fmu_vs_exact"].abs() - table["hb_vs_exact"].abs()).max())
        checks.append(Check("FMU against the exact ellipse beyond the approximation's own error (relative)",
                            excess, 1e-8))
        return CaseResult(self, no_signals(), checks, dict(fmu=fmu, hertz=table))

    def plot(self, result, out_dir):
        table = result.frames["hertz"]
        fig, axes = plt.subplots(1, 2, figsize=(9, 3.8))
        s = np.linspace(0, 2 * math.pi, 200)
        for ax, ring in zip(axes, ("inner", "outer")):
            rows = table[table["contact"] == ring].set_index("quantity")
            for col, style in (("exact", dict(color="tab:orange", ls="--", label="exact Hertz")),
                               ("fmu", dict(color="tab:blue", label="FMU (Hamrock-Brewe)"))):
                a, b = rows.loc["a", col] * 1e6, rows.loc["b", col] * 1e6
                ax.plot(a * np.cos(s), b * np.sin(s), **style)
            ax.set_aspect("equal")
            ax.set_xlabel(label("across the groove", "um"))
            ax.set_ylabel(label("rolling direction", "um"))
            ax.set_title(f"{ring} ring, {rows.loc['a', 'load_N']:.0f} N: delta {rows.loc['delta', 'fmu'] * 1e6:.3f} "
                         f"um (exact {rows.loc['delta', 'exact'] * 1e6:.3f})", fontsize=9)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7)
        fig.suptitle(f"{self.name}: contact ellipses of the most loaded ball")
        return [save_figure(fig, out_dir / "contact_ellipses.png")]


class StribeckCase(Case):
    """Ball loads under a static radial load against Stribeck's distribution for this geometry."""

    def __init__(self):
        super().__init__("bearing_stribeck", "BallBearing",
                         "Ball bearing with zero clearance under a static radial load of 1000 N, ball 1 on the load line, "
                         "shaft held: ball loads and the shaft's deflection against the rigid-ring solution "
                         "(Stribeck), with the contacts' Hamrock-Brewe stiffness and with the exact one.")

    def execute(self) -> CaseResult:
        F_r = 1000.0
        fmu = static_run(F_r)
        last = fmu.iloc[-1]
        loads = last[columns("N_i")].to_numpy(float)
        psi = radial_angle(fmu)
        delta_r = -float(last["y_s"])
        ref_delta, ref_loads = rigid_ring_deflection(F_r, BEARING.K_n_hamrock_brewe, Z, "ball")
        exact_delta, exact_loads = rigid_ring_deflection(F_r, BEARING.K_n, Z, "ball")
        # ball j starts at psi = 2 pi (j - 1)/Z from the load line, the reference's ordering ("ball")
        S = loads.max() * Z / F_r
        # with zero clearance the load distribution does not depend on K_n: the exact contact gives the same loads
        table = pd.DataFrame(dict(ball=list(BALLS), psi_deg=np.degrees(psi), fmu_load=loads, stribeck_load=ref_loads,
                                  stribeck_load_exact_hertz=exact_loads))
        # the rigid-ring theory is linear in the rings' displacement: the FMU's exact geometry differs at the order
        # delta_r/R_i (15 um on 16 mm: 1e-3), and the loaded balls shift until both contact normals align (the same
        # order); the start's transient is damped out (Hunt-Crossley), the load 2e-9 short of F_r
        bound = 3 * delta_r / (BEARING.race_radii[0])
        checks = [
            Check("ball loads against Stribeck (Hamrock-Brewe K_n), largest error / Q_max",
                  float(np.max(np.abs(loads - ref_loads)) / ref_loads.max()), bound),
            Check("shaft deflection against the rigid-ring solve (Hamrock-Brewe K_n, relative)",
                  abs(delta_r / ref_delta - 1), bound),
            Check(f"Q_max Z / F_r against Stribeck's {stribeck_factor(Z, 'ball'):.4f} for Z = 8 (relative)",
                  abs(S / stribeck_factor(Z, "ball") - 1), bound),
            Check("loads beyond +-90 deg from the load line (N)", float(np.max(np.where(np.abs(psi) > math.pi / 2 + 0.01,
                                                                                       loads, 0.0))), 0.0),
        ]
        summary = pd.DataFrame(dict(quantity=["Q_max Z / F_r", "shaft deflection (um)"],
                                    fmu=[S, delta_r * 1e6],
                                    stribeck_hamrock_brewe=[stribeck_factor(Z, "ball"), ref_delta * 1e6],
                                    stribeck_exact_hertz=[stribeck_factor(Z, "ball"), exact_delta * 1e6],
                                    stribeck_many_balls=[stribeck_limit(), math.nan]))
        return CaseResult(self, no_signals(), checks, dict(fmu=fmu, loads=table, summary=summary))

    def plot(self, result, out_dir):
        table = result.frames["loads"]
        fmu = result.frames["fmu"]
        fig, ax = plt.subplots(figsize=(7, 4))
        psi = np.linspace(-math.pi / 2, math.pi / 2, 200)
        q_max = table["stribeck_load"].max()
        ax.plot(np.degrees(psi), q_max * np.cos(psi) ** 1.5, color="tab:orange", ls="--",
                label="Stribeck: Q_max cos^(3/2) psi (rigid rings)")
        ax.plot(table["psi_deg"], table["fmu_load"], "o", color="tab:blue", label="FMU, inner contacts")
        ax.set_xlabel(label("angle of the ball from the load line", "deg"))
        ax.set_ylabel(label("ball load", "N"))
        ax.set_xlim(-180, 180)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        ax.set_title(f"{self.name}: load distribution, F_r = 1000 N, zero clearance")
        paths = [save_figure(fig, out_dir / "load_distribution.png")]
        paths.append(bearing_picture(fmu.iloc[-1], out_dir / "bearing.png",
                                     f"{self.name}: ball loads (arrows), F_r = 1000 N along -y"))
        return paths


class EnergyCase(Case):
    """Running under a radial load: the energy balance, shaft power against the losses, with a preload and with the
    example's clearance (the pockets then work)."""
    STOP = 0.6
    STEADY = 0.4  # the drive's rate is exp(-20) = 2e-9 short of omega there
    RUNS = {"preload": -20e-6, "clearance": 10e-6}  # P_d (m)

    def __init__(self):
        super().__init__("bearing_energy", "BallBearing",
                         "Ball bearing under a radial load of 200 N, the inner ring brought to 100 rad/s, 0.6 s, with a "
                         "diametral preload of 20 um (P_d = -20 um: every ball keeps its contacts) and with the default "
                         "clearance P_d = +10 um (unloaded "
                         "balls driven by the cage): energy balance over the run, and in steady running the shaft's "
                         "power against the power lost in the 16 contacts and the 8 pockets.")

    def execute(self) -> CaseResult:
        checks, rows, frames = [], [], {}
        for run, P_d in self.RUNS.items():
            fmu = simulate("BallBearing", dict(omega=OMEGA, P_d=P_d, F_r=200.0), stop_time=self.STOP,
                           output_interval=2e-5, tolerance=1e-12,
                           outputs=["energy", "shaftPower", "frictionPower", "pocketPower", "shaftTorque", "shaftSpeed",
                                    "cageSpeed", "y_s", *columns("N_i"), *columns("N_o"), *columns("N_p"),
                                    *columns("orbitSpeed")])
            t = fmu["time"].to_numpy()
            work_in = cumulative_trapezoid(fmu["shaftPower"].to_numpy(), t, initial=0.0)
            lost = cumulative_trapezoid(fmu["frictionPower"].to_numpy(), t, initial=0.0)
            fmu["energy_balance"] = fmu["energy"] - fmu["energy"].iloc[0] - (work_in - lost)
            steady = t >= self.STEADY
            span = t[steady][-1] - t[steady][0]
            p_shaft = trapezoid(fmu["shaftPower"].to_numpy()[steady], t[steady]) / span
            p_lost = trapezoid(fmu["frictionPower"].to_numpy()[steady], t[steady]) / span
            p_pocket = trapezoid(fmu["pocketPower"].to_numpy()[steady], t[steady]) / span
            dE = (fmu["energy"].to_numpy()[steady][-1] - fmu["energy"].to_numpy()[steady][0]) / span
            # the works are trapezoidal sums of the sampled powers: their error is about h^2/12 int |P''| dt,
            # estimated from the samples' second differences (the balls' vibration under the changing loads and the
            # pockets' impacts dominate it; measured 0.91 of the estimate with the preload); the integrator's error
            # (rtol 1e-12 on 0.5 J) is far below. The estimate is itself good to a factor of order 1: bound 2
            net = (fmu["shaftPower"] - fmu["frictionPower"]).to_numpy()
            quadrature = float(np.sum(np.abs(np.diff(net, 2)))) * (t[1] - t[0]) / 12
            window = float(np.sum(np.abs(np.diff(net[steady], 2)))) * (t[1] - t[0]) / 12
            balance = fmu["energy_balance"].to_numpy()
            steady_residual = abs(balance[steady][-1] - balance[steady][0])
            checks.append(Check(f"{run}: energy balance |E - E0 - (shaft work - losses)|, whole run, over the "
                                "trapezoid rule's error estimate", float(np.max(np.abs(balance))) / quadrature, 2.0))
            checks.append(Check(f"{run}: steady running (t >= 0.4 s): |shaft work - losses - change of E| over the "
                                "trapezoid rule's error estimate there", steady_residual / window, 2.0))
            if run == "preload":
                # every ball loaded: the shaft's power (the servo's reaction torque times its rate, its error
                # following the integrator's: 9 % of the loss at rtol 1e-10 before the cage, linear in rtol) meets
                # the losses and the change of the stored energy to 2e-3 at rtol 1e-12. With the cage the running
                # is periodic, not stationary (each ball's load and rolling radius change as it orbits, the cage
                # holds it to the common speed): the stored energy swings within the window (dE/dt is reported)
                checks.append(Check(f"{run}: steady running: |shaft power - losses - dE/dt| / losses",
                                    abs(p_shaft - p_lost - dE) / p_lost, 2e-3))
            rows.append(dict(run=run, P_d_um=P_d * 1e6, shaft_power_W=p_shaft, losses_W=p_lost, pocket_losses_W=p_pocket,
                             dE_dt_W=dE, shaft_torque_Nm=float(fmu["shaftTorque"].to_numpy()[steady].mean()),
                             largest_balance_error_J=float(np.max(np.abs(balance))), trapezoid_estimate_J=quadrature,
                             steady_residual_J=steady_residual, steady_trapezoid_estimate_J=window))
            frames[f"fmu_{run}"] = fmu.iloc[::10].reset_index(drop=True)
        return CaseResult(self, no_signals(), checks, dict(frames, summary=pd.DataFrame(rows)))

    def bench_cases(self):
        """This case's bearing, 0.3 s from rest, with the point-contact Coulomb law and with the Contensou-Zhuravlev
        law (seed 002, sect. 6: the Contensou version ran faster). The compared signal is ball 1's orbital speed
        against the cage speed of the shaft's prescribed rate (the balls lag it while they spin up)."""
        def reference(t):
            omega = OMEGA * (1 - np.exp(-np.asarray(t) / 0.02))
            return pd.DataFrame({"time": t, "orbitSpeed[1]": BEARING.cage_speed(omega)})
        return [TrajectoryCase(f"bearing_bench_{name}", "BallBearing", "bench",
                               parameters=dict(frictionLaw=law, omega=OMEGA, P_d=-20e-6, F_r=200.0), stop_time=0.3,
                               output_interval=5e-4, reference=reference, signals=("orbitSpeed[1]",),
                               fmu_tolerance=1e-8, rumoca_comparison=False)
                for law, name in ((1, "point"), (2, "contensou"))]

    def plot(self, result, out_dir):
        fmu = result.frames["fmu_preload"]
        t = fmu["time"]
        fig, ax = plt.subplots(figsize=(9, 4.5))
        for j, c in enumerate(columns("N_i")):
            ax.plot(t, fmu[c], lw=0.9, color=plt.cm.viridis(j / Z), label=f"ball {j + 1}, inner")
        for j, c in enumerate(columns("N_o")):
            ax.plot(t, fmu[c], lw=0.9, ls="--", color=plt.cm.viridis(j / Z), label="outer contacts (dashed)" if j == 0
                    else None)
        ax.set_xlabel(label("t", "s"))
        ax.set_ylabel(label("normal force", "N"))
        ax.set_title(f"{self.name}: the 16 contact forces, preload 10 um, F_r = 200 N, 100 rad/s")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, ncol=3)
        paths = [save_figure(fig, out_dir / "contact_forces.png")]
        fig, axes = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
        for run, color in zip(self.RUNS, ("tab:blue", "tab:red")):
            frame = result.frames[f"fmu_{run}"]
            axes[0].plot(frame["time"], frame["shaftPower"], lw=0.8, color=color, label=f"{run}: shaft power")
            axes[0].plot(frame["time"], frame["frictionPower"], lw=1.2, color=color, alpha=0.5,
                         label=f"{run}: power lost in the contacts and pockets")
            axes[1].plot(frame["time"], frame["energy_balance"], lw=1.0, color=color, label=run)
        axes[0].set_ylabel(label("power", "W"))
        axes[0].set_yscale("symlog", linthresh=1e-6)
        axes[1].legend(fontsize=8)
        axes[1].set_ylabel(label("E - E0 - (W_shaft - W_lost)", "J"))
        axes[1].set_xlabel(label("t", "s"))
        for ax in axes:
            ax.grid(alpha=0.3)
        axes[0].legend(fontsize=8)
        axes[0].set_title(f"{self.name}: energy balance")
        paths.append(save_figure(fig, out_dir / "energy_balance.png"))
        return paths


class ClearanceCase(Case):
    """Ball loads with a diametral clearance against the rigid-ring solution with clearance, for two clearances."""
    F_R = 500.0

    def __init__(self):
        super().__init__("bearing_clearance", "BallBearing",
                         "Ball bearing with the diametral clearances 10 um and 20 um (ISO 5753-1, CN group 6-20 um) "
                         "under a static radial load of 500 N, ball 1 on the load line, shaft held, the cage in place: "
                         "ball loads and the shaft's deflection against the rigid-ring solution with clearance (Harris: "
                         "Q_psi = Q_max [1 - (1 - cos psi)/(2 eps)]^(3/2)), with the contacts' Hamrock-Brewe stiffness.")

    def execute(self) -> CaseResult:
        K_n = BEARING.K_n_hamrock_brewe
        rows, checks, summary, runs = [], [], [], {}
        for P_d in CLEARANCES:
            fmu = static_run(self.F_R, P_d)
            last = fmu.iloc[-1]
            loads = last[columns("N_i")].to_numpy(float)
            psi = radial_angle(fmu)
            delta_r = -float(last["y_s"])
            eps, ref_delta, ref_loads = harris_load_zone(self.F_R, K_n, Z, P_d)
            ring_delta, ring_loads = rigid_ring_deflection(self.F_R, K_n, Z, "ball", clearance=P_d)
            tag = f"P_d = {P_d * 1e6:.0f} um"
            # as in bearing_stribeck: the rigid-ring theory is linear in the ring's displacement, the FMU's geometry
            # exact (order delta_r/R_i); the clearance takes P_d/2 of delta_r without load, so a ball's approach
            # delta_r cos psi - P_d/2 is smaller than delta_r and its relative error larger by delta_r over the
            # largest approach
            approach = delta_r - P_d / 2
            bound = 3 * delta_r / BEARING.race_radii[0] * delta_r / approach
            zone = math.acos(1 - 2 * eps)  # Harris: the load zone's half angle, cos psi_l = 1 - 2 eps
            checks += [
                Check(f"{tag}: ball loads against Harris's rigid-ring solution, largest error / Q_max",
                      float(np.max(np.abs(loads - ref_loads)) / ref_loads.max()), bound),
                Check(f"{tag}: shaft deflection against it (relative)", abs(delta_r / ref_delta - 1), bound),
                # two formulations of the same equilibrium (eps as unknown, delta_r as unknown), both solved to
                # 1e-14 of their unknown's scale
                Check(f"{tag}: Harris's form against the direct solve (largest difference / Q_max)",
                      float(np.max(np.abs(ref_loads - ring_loads)) / ring_loads.max()), 1e-12),
                Check(f"{tag}: loads outside Harris's load zone |psi| > arccos(1 - 2 eps) (N)",
                      float(np.max(np.where(np.abs(psi) > zone + 1e-3, loads, 0.0))), 0.0),
            ]
            runs[P_d] = fmu
            rows += [dict(P_d_um=P_d * 1e6, ball=j, psi_deg=math.degrees(psi[j - 1]), fmu_load=loads[j - 1],
                          harris_load=ref_loads[j - 1]) for j in BALLS]
            summary.append(dict(P_d_um=P_d * 1e6, eps=eps, load_zone_deg=math.degrees(zone),
                                Q_max_Z_over_F_r_fmu=loads.max() * Z / self.F_R,
                                Q_max_Z_over_F_r_harris=ref_loads.max() * Z / self.F_R,
                                deflection_um_fmu=delta_r * 1e6, deflection_um_harris=ref_delta * 1e6,
                                largest_load_error_over_Q_max=float(np.max(np.abs(loads - ref_loads)) / ref_loads.max())))
        frames = dict(loads=pd.DataFrame(rows), summary=pd.DataFrame(summary))
        frames.update({f"fmu_{P_d * 1e6:.0f}um": f for P_d, f in runs.items()})
        return CaseResult(self, no_signals(), checks, frames)

    def plot(self, result, out_dir):
        table = result.frames["loads"]
        fig, ax = plt.subplots(figsize=(7.5, 4.2))
        psi = np.linspace(-math.pi, math.pi, 721)
        for (P_d_um, rows), color in zip(table.groupby("P_d_um"), ("tab:blue", "tab:red")):
            eps, _, q = harris_load_zone(self.F_R, BEARING.K_n_hamrock_brewe, Z, P_d_um * 1e-6)
            curve = q.max() * np.maximum(1 - (1 - np.cos(psi)) / (2 * eps), 0.0) ** 1.5
            ax.plot(np.degrees(psi), curve, color=color, ls="--", lw=1.0,
                    label=f"Harris, P_d = {P_d_um:.0f} um (eps = {eps:.3f})")
            ax.plot(rows["psi_deg"], rows["fmu_load"], "o", color=color, label=f"FMU, P_d = {P_d_um:.0f} um")
        q0 = rigid_ring_deflection(self.F_R, BEARING.K_n_hamrock_brewe, Z)[1].max()
        ax.plot(np.degrees(psi), q0 * np.maximum(np.cos(psi), 0.0) ** 1.5, color="0.5", lw=0.8,
                label="Stribeck, zero clearance")
        ax.set_xlabel(label("angle of the ball from the load line", "deg"))
        ax.set_ylabel(label("ball load", "N"))
        ax.set_xlim(-180, 180)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        ax.set_title(f"{self.name}: load distribution with clearance, F_r = {self.F_R:.0f} N")
        return [save_figure(fig, out_dir / "load_distribution.png")]


class CageCase(Case):
    """Running with the default clearance under a radial load: the balls in their pockets, the cage's speed."""
    STOP = 0.7  # s: 11.1 shaft revolutions at 100 rad/s
    STEADY = 0.3  # s: the ramp's remainder exp(-15) = 3e-7
    F_R = 500.0

    def __init__(self):
        super().__init__("bearing_cage", "BallBearing",
                         "Ball bearing with its cage and the default diametral clearance of 10 um under a radial load of "
                         "500 N, the inner ring brought to 100 rad/s, 0.7 s (11 shaft revolutions): the unloaded balls "
                         "outside the load zone stay in their pockets and keep their order, the pocket forces stay "
                         "finite, and the cage turns at the kinematic cage speed.")

    def execute(self) -> CaseResult:
        fmu = simulate("BallBearing", dict(omega=OMEGA, F_r=self.F_R), stop_time=self.STOP, output_interval=5e-4,
                       tolerance=1e-8)
        t = fmu["time"].to_numpy()
        offsets = pocket_offsets(fmu)
        orbit = orbit_angles(fmu)
        gaps = np.diff(np.concatenate([orbit, orbit[:, :1] + 2 * math.pi], axis=1), axis=1)  # ball j to j + 1
        pocket = fmu[columns("N_p")].to_numpy()
        steady = t >= self.STEADY
        cage = steady_mean(fmu, "cageSpeed", self.STEADY)
        kinematic = BEARING.cage_speed(steady_mean(fmu, "shaftSpeed", self.STEADY))
        unloaded = fmu[columns("N_i")].to_numpy()[steady] == 0
        # a ball sits within c_p of its pocket's centre, less the pocket's elastic approach; the pocket's centre is
        # off its nominal place by the cage centre's displacement: arc length on the pitch circle at most the sum
        eccentricity = float(np.max(np.hypot(fmu["x_c"], fmu["y_c"])))
        drift = float(np.max(np.abs(offsets))) * BEARING.D_pm / 2
        drift_bound = POCKET_CLEARANCE + max(float(fmu[columns("delta_p")].to_numpy().max()), 0.0) + eccentricity
        # the loaded balls roll: their orbital speed is omega_c within the rolling radii's change delta/d (bound
        # 2 delta/d as bearing_cage_speed); the cage turns with them on average (its offset from them is bounded)
        delta = max(fmu[columns("delta_i")].to_numpy()[steady].max(), fmu[columns("delta_o")].to_numpy()[steady].max())
        checks = [
            Check("largest distance of a ball from its pocket's nominal place over c_p + pocket approach + the cage "
                  "centre's displacement", drift / drift_bound, 1.0),
            Check("balls out of order: smallest gap between neighbours' orbital angles, below zero (rad)",
                  max(-float(gaps.min()), 0.0), 0.0),
            # a pocket that carried the whole radial load would jam the bearing; finite forces far below it
            Check("largest pocket force / radial load", float(pocket.max()) / self.F_R, 1.0),
            Check(f"cage speed, mean over t >= {self.STEADY} s, against omega_c (relative)",
                  abs(cage / kinematic - 1), 2 * delta / BEARING.d),
            # Harris's load zone at 500 N and 10 um reaches +-71 deg: 5 of the 8 balls are outside it at any time;
            # the run must have unloaded balls (at least a quarter of the ball-samples)
            Check("shortfall of the unloaded ball-samples in steady running below a quarter",
                  max(0.25 - float(unloaded.mean()), 0.0), 0.0),
        ]
        summary = pd.DataFrame(dict(quantity=["cage speed (rad/s)", "kinematic cage speed (rad/s)", "cage slip",
                                              "largest pocket force (N)", "mean pocket force (N)",
                                              "smallest gap between neighbours (deg)",
                                              "largest distance from the pocket's place (um)",
                                              "largest cage eccentricity (um)", "unloaded ball fraction",
                                              "pocket losses / all losses, steady"],
                                    value=[cage, float(kinematic), 1 - cage / kinematic, float(pocket.max()),
                                           float(pocket[steady].mean()), math.degrees(float(gaps.min())), drift * 1e6,
                                           eccentricity * 1e6, float(unloaded.mean()),
                                           steady_mean(fmu, "pocketPower", self.STEADY)
                                           / steady_mean(fmu, "frictionPower", self.STEADY)]))
        return CaseResult(self, no_signals(), checks, dict(fmu=fmu.iloc[::4].reset_index(drop=True), summary=summary))

    def bench_cases(self):
        """This case's run, 0.3 s (4.8 shaft revolutions): the time per shaft revolution with the cage. The compared
        signal is the cage's speed against the kinematic cage speed of the shaft's prescribed rate."""
        def reference(t):
            omega = OMEGA * (1 - np.exp(-np.asarray(t) / 0.02))
            return pd.DataFrame({"time": t, "cageSpeed": BEARING.cage_speed(omega)})
        return [TrajectoryCase("bearing_cage_bench", "BallBearing", "bench", parameters=dict(omega=OMEGA, F_r=self.F_R),
                               stop_time=0.3, output_interval=5e-4, reference=reference, signals=("cageSpeed",),
                               fmu_tolerance=1e-8, rumoca_comparison=False)]

    def plot(self, result, out_dir):
        fmu = result.frames["fmu"]
        t = fmu["time"].to_numpy()
        fig, axes = plt.subplots(3, 1, figsize=(8, 8.5), sharex=True)
        orbit = orbit_angles(fmu)
        omega_c = BEARING.cage_speed(fmu["shaftSpeed"].to_numpy())
        turned = cumulative_trapezoid(omega_c, t, initial=0.0)
        for j in range(Z):
            axes[0].plot(t, np.degrees(orbit[:, j] - turned), lw=1.0, color=plt.cm.viridis(j / Z), label=f"ball {j + 1}")
        axes[0].set_ylabel(label("orbital angle - int omega_c dt", "deg"))
        axes[0].legend(fontsize=7, ncol=4)
        axes[1].plot(t, fmu["cageSpeed"], lw=1.0, label="cage (FMU)")
        axes[1].plot(t, omega_c, "k--", lw=1.0, label="omega_c = omega (1 - d/D_pm)/2")
        axes[1].set_ylabel(label("speed", "rad/s"))
        axes[1].legend(fontsize=8)
        axes[2].plot(t, fmu[columns("N_p")], lw=0.7)
        axes[2].set_ylabel(label("pocket forces", "N"))
        axes[2].set_xlabel(label("t", "s"))
        for ax in axes:
            ax.grid(alpha=0.3)
        axes[0].set_title(f"{self.name}: P_d = 10 um, F_r = {self.F_R:.0f} N, 100 rad/s: the balls keep their places")
        paths = [save_figure(fig, out_dir / "cage_run.png")]
        paths.append(bearing_picture(fmu.iloc[-1], out_dir / "bearing.png",
                                     f"{self.name}: ball loads at t = {t[-1]:.2f} s, F_r = {self.F_R:.0f} N along -y"))
        return paths


def skf_minimum_load(n_rpm: float, viscosity: float = 20.0, k_r: float = 0.025) -> float:
    """SKF's requisite minimum radial load of a deep-groove ball bearing (SKF Rolling bearings catalogue, "Loads:
    requisite minimum load"), F_rm = k_r (nu n/1000)^(2/3) (d_m/100)^2 kN with nu the oil's viscosity (mm^2/s), n
    (r/min), d_m the pitch diameter (mm); below it the balls and cage may skid. Returned in N."""
    return 1e3 * k_r * (viscosity * n_rpm / 1000) ** (2 / 3) * (BEARING.D_pm * 1e3 / 100) ** 2


class SkiddingCase(Case):
    """Cage slip against the radial load at a high speed, for two traction laws."""
    OMEGA = 300.0  # rad/s, 2865 r/min
    LOADS = (10.0, 100.0, 1000.0)  # N
    CREEP = (1e-4, 0.02)  # m/s: the example's regularisation; an EHL traction curve's (1.2 % of the rolling speed)
    STOP, STEADY = 0.25, 0.15  # s: the ramp's remainder exp(-7.5) = 5.5e-4, the kinematic speed taken from the run

    def __init__(self):
        super().__init__("bearing_skidding", "BallBearing",
                         "Ball bearing with its cage and the default clearance of 10 um at 300 rad/s under radial loads "
                         "of 10, 100 and 1000 N, with the dry friction law's regularisation eps = 1e-4 m/s and with an "
                         "EHL-like creep eps = 0.02 m/s: the cage's slip 1 - omega_cage/omega_c against the load, "
                         "compared with SKF's minimum load rule and Harris's account of skidding.")

    def execute(self) -> CaseResult:
        rows, checks = [], []
        for eps in self.CREEP:
            for F_r in self.LOADS:
                fmu = simulate("BallBearing", dict(omega=self.OMEGA, F_r=F_r, eps=eps), stop_time=self.STOP,
                               output_interval=5e-4, tolerance=1e-8,
                               outputs=["cageSpeed", "shaftSpeed", "pocketPower", "frictionPower", *columns("N_p"),
                                        *columns("N_i"), *columns("delta_i"), *columns("delta_o")])
                cage = steady_mean(fmu, "cageSpeed", self.STEADY)
                kinematic = float(BEARING.cage_speed(steady_mean(fmu, "shaftSpeed", self.STEADY)))
                steady = fmu["time"] >= self.STEADY
                delta = max(fmu[columns("delta_i")][steady].to_numpy().max(),
                            fmu[columns("delta_o")][steady].to_numpy().max())
                slip = 1 - cage / kinematic
                # the cage skids (turns slower), it does not run ahead beyond the rolling radii's change 2 delta/d
                checks.append(Check(f"eps = {eps:g} m/s, F_r = {F_r:g} N: cage ahead of omega_c (relative, "
                                    f"bound the rolling radii's change)", max(-slip, 0.0), 2 * delta / BEARING.d))
                rows.append(dict(eps=eps, F_r=F_r, cage_speed=cage, kinematic=kinematic, slip=slip,
                                 max_pocket_force=float(fmu[columns("N_p")].to_numpy().max()),
                                 pocket_loss_W=steady_mean(fmu, "pocketPower", self.STEADY),
                                 all_losses_W=steady_mean(fmu, "frictionPower", self.STEADY)))
        table = pd.DataFrame(rows)
        n_rpm = self.OMEGA * 60 / (2 * math.pi)
        literature = pd.DataFrame(dict(
            source=["SKF minimum load, k_r 0.025, oil 20 mm^2/s", "SKF minimum load, k_r 0.025, oil 100 mm^2/s"],
            minimum_load_N=[skf_minimum_load(n_rpm, 20.0), skf_minimum_load(n_rpm, 100.0)]))
        return CaseResult(self, no_signals(), checks, dict(slip=table, literature=literature))

    def plot(self, result, out_dir):
        table = result.frames["slip"]
        fig, ax = plt.subplots(figsize=(7, 4))
        for (eps, rows), marker in zip(table.groupby("eps"), ("o-", "s-")):
            ax.plot(rows["F_r"], rows["slip"] * 100, marker, label=f"FMU, friction regularisation eps = {eps:g} m/s")
        for _, row in result.frames["literature"].iterrows():
            ax.axvline(row["minimum_load_N"], color="0.5", ls="--", lw=0.8)
            ax.annotate(row["source"], (row["minimum_load_N"], ax.get_ylim()[1]), rotation=90, fontsize=6,
                        va="top", ha="right")
        ax.set_xscale("log")
        ax.set_xlabel(label("radial load F_r", "N"))
        ax.set_ylabel(label("cage slip 1 - omega_cage/omega_c", "%"))
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        ax.set_title(f"{self.name}: {self.OMEGA:.0f} rad/s, P_d = 10 um (SKF's minimum loads dashed)")
        return [save_figure(fig, out_dir / "cage_slip.png")]


def bearing_picture(row: pd.Series, path, title: str):
    """The bearing in its plane: rings, balls where the row puts them, each ball's inner load as an arrow."""
    r_in, r_out = BEARING.race_radii
    d = BEARING.d
    fig, ax = plt.subplots(figsize=(5.5, 5.5))
    s = np.linspace(0, 2 * math.pi, 300)
    for r in (r_in, r_in - 0.004, r_out, r_out + 0.004):
        ax.plot(r * np.cos(s) * 1e3, r * np.sin(s) * 1e3, color="0.3", lw=1.2)
    ax.fill_between(r_in * np.cos(s) * 1e3, r_in * np.sin(s) * 1e3, color="0.85")
    loads = np.array([row[f"N_i[{j}]"] for j in BALLS])
    scale = 6.0 / max(loads.max(), 1e-12)
    for j in BALLS:
        theta = row[f"orbitAngle[{j}]"]
        x, y = BEARING.D_pm / 2 * math.cos(theta) * 1e3, BEARING.D_pm / 2 * math.sin(theta) * 1e3
        ax.add_patch(plt.Circle((x, y), d / 2 * 1e3, color="tab:blue", alpha=0.7))
        ax.annotate(str(j), (x, y), ha="center", va="center", color="white", fontsize=8)
        if loads[j - 1] > 0:
            ax.arrow(x, y, scale * loads[j - 1] * math.cos(theta), scale * loads[j - 1] * math.sin(theta),
                     width=0.25, color="tab:red", length_includes_head=True)
            ax.annotate(f"{loads[j - 1]:.0f} N", (x + 1.3 * scale * loads[j - 1] * math.cos(theta) + 2 * math.cos(theta),
                                                 y + 1.3 * scale * loads[j - 1] * math.sin(theta) + 2 * math.sin(theta)),
                        ha="center", fontsize=8, color="tab:red")
    ax.set_aspect("equal")
    ax.set_xlabel(label("x", "mm"))
    ax.set_ylabel(label("y", "mm"))
    ax.set_title(title, fontsize=9)
    return save_figure(fig, path)


def cases() -> list:
    return [CageSpeedCase(), HertzCase(), StribeckCase(), EnergyCase(), ClearanceCase(), CageCase(), SkiddingCase()]
