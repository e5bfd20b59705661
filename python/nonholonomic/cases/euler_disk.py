"""Verification cases of Euler's disk: Modelica ``Contacts.DiskOnPlaneElastic`` and ``Examples.EulerDisk``;
references: the ideal disk ``Examples.RollingDisk`` (itself verified against the classical equations, cases
``disk_*``) and ``nonholonomic.references.euler_disk`` (closed forms and the published final-phase exponents).

* ``euler_disk_convergence``: while it rolls (0.5 s), the compliant disk tends to the ideal one as the contact
  stiffens; the differences fall in proportion to the compliance (the measured log-log slope).
* ``euler_disk_energy``: spun to rest; kinetic + gravity + elastic energy + the integrated losses stay at the
  initial energy; the split of the losses; the energy at rest against Hertz's closed form.
* ``euler_disk_final_phase``: the precession rate against the time to the end on log axes: the fitted exponent and
  end time, against the published analyses; the abrupt end and its rattle; the animation.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pandas as pd

from ..plots import label, on_log_axis, plt, save_figure
from ..references import euler_disk as ref
from ..simulate import simulate
from ..verification import Case, CaseResult, Check, no_signals

PAPER = ("H. K. Moffatt, \"Euler's disk and its finite-time singularity\", Nature 404 (2000) 833-834; K. Easwar, "
         "F. Rouyer, N. Menon, Phys. Rev. E 66 (2002) 045102; H. Caps et al., Phys. Rev. E 69 (2004) 056610; C. Le "
         "Saux, R. I. Leine, Ch. Glocker, \"Dynamics of a rolling disk in the presence of dry friction\", J. Nonlinear "
         "Sci. 15 (2005) 27-61; Hamrock and Brewe (1983) for the elliptic Hertz contact. References: the ideal rolling "
         "disk (classical equations, via Examples.RollingDisk) and closed forms (Hertz, Moffatt's eq. (1)).")
# the example's defaults (Examples.EulerDisk): a 3 in x 1/2 in steel disk on glass
DISK = dict(R=0.0381, h=0.0127, r=1e-3, m=0.454, g=9.81, nRing=24)
A_DISK = DISK["m"] * (3 * DISK["R"] ** 2 + DISK["h"] ** 2) / 12
C_DISK = DISK["m"] * DISK["R"] ** 2 / 2
E_STAR = ref.effective_modulus(7e10, 0.22, 2.1e11, 0.3)  # glass base, steel disk (the example's)
SPIN = dict(theta_0=0.5, psi_0=0.0, phi_0=0.0, dtheta_0=0.0, dpsi_0=45.6, dphi_0=-40.0, x_0=0.0, y_0=0.0)
# The example (spun at 0.5 rad) lands after about 194 s and takes minutes of wall time. The cases spin the same disk
# at 0.1 rad in the same steady rolling (Omega^2 sin(alpha) = m g R/A: 99.74 rad/s, spin rate -Omega cos(alpha)):
# the example's run from where its tilt has fallen to 0.1 rad, with less energy and without the nutation of its start.
SHORT = dict(theta_0=0.1, dpsi_0=99.74, dphi_0=-99.24)
STOP_TIME, INTERVAL, RTOL = 82.0, 0.002, 1e-9  # it lands at about 79.4 s; the rattle is over by 81.5 s


@functools.lru_cache(maxsize=1)
def run_to_rest() -> pd.DataFrame:
    """The disk spun at 0.1 rad and run to rest."""
    return simulate("EulerDisk", SHORT, stop_time=STOP_TIME, output_interval=INTERVAL, tolerance=RTOL)


def axis(frame: pd.DataFrame) -> np.ndarray:
    """The symmetry axis (body z) in the world frame from the quaternion Q[1..4] (scalar first)."""
    q0, q1, q2, q3 = (frame[f"Q[{i}]"].to_numpy() for i in range(1, 5))
    n = np.stack([2 * (q1 * q3 + q0 * q2), 2 * (q2 * q3 - q0 * q1), q0**2 - q1**2 - q2**2 + q3**2], -1)
    return n / np.linalg.norm(n, axis=1)[:, None]


def centre(frame: pd.DataFrame) -> np.ndarray:
    return frame[["r_0[1]", "r_0[2]", "r_0[3]"]].to_numpy()


def landing_time(frame: pd.DataFrame) -> float:
    """First time the disk lies flat (tilt below 1e-5 rad) after the rolling."""
    t, tilt = frame["time"].to_numpy(), frame["tilt"].to_numpy()
    flat = np.flatnonzero((t > 10) & (tilt < 1e-5))
    return float(t[flat[0]]) if len(flat) else math.nan


class ConvergenceCase(Case):
    """The compliant disk against the ideal one as the contact stiffens.

    The ideal disk (``DiskOnPlane``) has a sharp edge; the compliant one a rounded edge of radius r, whose torus rolls
    differently by O(r/R). Its limit is therefore taken with the edge: at compliance c the edge radius is r = c r_1
    (its circle in the mid-plane, e = 0), the moduli E/c^2 (so that, by Hertz, the penetration falls at least like c:
    delta ~ (N/(E* sqrt(r)))^(2/3)) and the friction's regularisation eps = c eps_1: every difference the compliance
    causes is then O(c). The friction law is the point contact (``frictionLaw = 1``), mu = 1: the ideal disk has no
    pivoting torque, and the Contensou torque over the patch falls only like the patch's length, sqrt(rho delta)
    (about c^0.7 here; docs/euler_disk.md). Both start from the same Euler angles and rates, the same inertia."""
    COMPLIANCE = (0.1, 0.05, 0.025, 0.0125)
    STOP, DT, TOL = 0.5, 0.005, 1e-11
    R1, EPS1 = 1e-3, 1e-5

    def __init__(self):
        super().__init__("euler_disk_convergence", "EulerDisk",
                         "Spun at 0.5 rad as the example, 0.5 s: the compliant disk (edge radius r = c mm, moduli "
                         "E/c^2, eps = c 1e-5 m/s, point-contact friction, mu = 1) against the ideal RollingDisk of "
                         f"the same inertia for c = {', '.join(map(str, self.COMPLIANCE))}: the differences of the "
                         "centre and the axis fall in proportion to c.")

    def parameters(self, c: float) -> dict:
        return dict(R=DISK["R"], m=DISK["m"], A=A_DISK, C=C_DISK, r=self.R1 * c, h=2 * self.R1 * c,
                    E_disk=2.1e11 / c**2, E_base=7e10 / c**2, eps=self.EPS1 * c, mu=1.0, frictionLaw=1, **SPIN)

    def execute(self) -> CaseResult:
        ideal = simulate("RollingDisk", dict(R=DISK["R"], m=DISK["m"], A=A_DISK, C=C_DISK, **SPIN),
                         stop_time=self.STOP, output_interval=self.DT, tolerance=self.TOL)
        rows, runs = [], {"ideal": ideal}
        for c in self.COMPLIANCE:
            run = simulate("EulerDisk", self.parameters(c), stop_time=self.STOP, output_interval=self.DT,
                           tolerance=self.TOL)
            runs[f"c={c}"] = run
            rows.append(dict(c=c, r=self.R1 * c, delta_max=float(run["delta"].max()),
                             centre=float(np.max(np.linalg.norm(centre(run) - centre(ideal), axis=1))),
                             axis=float(np.max(np.linalg.norm(axis(run) - axis(ideal), axis=1))),
                             slip_max=float(run["slip"].max())))
        table = pd.DataFrame(rows)
        log_c = np.log(table["c"])
        table.attrs["slopes"] = {k: float(np.polyfit(log_c, np.log(table[k]), 1)[0]) for k in ("centre", "axis")}
        # Bound on |slope - 1|: the leading differences (the edge radius r and eps) are exactly O(c); the Hertz
        # penetration falls faster (here at most 3e-4 of r) and the second-order terms are O(r/R) <= 0.3 %, which
        # move the slope by less than 0.01. 0.05 leaves room for that and for the integration error (rtol 1e-11,
        # below 1e-8 of the smallest difference), and fails the c^0.7 of a pivoting torque or a missing scaling.
        checks = [Check(f"log-log slope of the {k} difference against the compliance, |slope - 1|",
                        abs(table.attrs["slopes"][k] - 1), 0.05) for k in ("centre", "axis")]
        # at the stiffest contact the centres differ by about the edge radius (the torus's offset): at most 3 r
        checks.append(Check("centre difference / edge radius at the stiffest contact",
                            float(table["centre"].iloc[-1] / table["r"].iloc[-1]), 3.0))
        return CaseResult(self, no_signals(), checks, {"convergence": table})

    def plot(self, result, out_dir):
        table = result.frames["convergence"]
        slopes = table.attrs.get("slopes", {})
        fig, ax = plt.subplots(figsize=(6, 4.2))
        for key, marker, text in (("centre", "o", "centre |r - r_ideal| [m]"), ("axis", "s", "axis |n - n_ideal| [-]")):
            ax.loglog(table["c"], table[key], marker, label=f"{text}: slope {slopes.get(key, math.nan):.3f}")
            ax.loglog(table["c"], table[key].iloc[0] * table["c"] / table["c"].iloc[0], "--", color="0.6", lw=0.8)
        ax.set_xlabel(label("compliance c (edge radius r = c mm, moduli E/c^2)", "1"))
        ax.set_ylabel("largest difference to the ideal disk over 0.5 s")
        ax.set_title("euler_disk_convergence: compliant to ideal disk (dashed: slope 1)", fontsize=10)
        ax.legend(fontsize=8)
        ax.grid(True, which="both", alpha=0.3)
        return [save_figure(fig, out_dir / "convergence.png")]


class EnergyCase(Case):
    """The run to rest: the energy balance and the split of the losses."""

    def __init__(self):
        super().__init__("euler_disk_energy", "EulerDisk",
                         "The example's disk spun at 0.1 rad (16 Hz precession) and run to rest (rtol 1e-9): energy "
                         "now (kinetic, gravity, elastic) plus the integrated losses (sliding, pivoting, normal "
                         "damping) against the initial energy; the energy at rest against Hertz.")

    def execute(self) -> CaseResult:
        run = run_to_rest()
        balance = run["balance"].to_numpy()
        E0 = balance[0]
        # Bound: CVODE holds each step's local error below rtol (relative to the states' sizes and nominals); over
        # the run's ~1e5 steps these errors add up like a random walk (sqrt(1e5) ~ 300) in each of the ~10 states the
        # energy sums: 2000 rtol. The energy balance of the model itself is exact (the contact's force is the gradient
        # of its elastic energy, with the tilt torque of DiskOnPlaneElastic), so nothing else enters.
        checks = [Check("energy balance: max |E + W_lost - E(0)| / E(0)", float(np.max(np.abs(balance - E0)) / E0),
                        2000 * RTOL)]
        # every loss is a power >= 0: each must never fall below the round-off of its terms (1e-12 W)
        checks += [Check(f"largest negative value of {p} [W] (a loss is never negative)", float(max(-run[p].min(), 0)),
                         1e-12)
                   for p in ("P_slide", "P_pivot", "P_damp")]
        # at rest flat on the nRing points of its edge circle: the energy is m g (h/2 - delta) plus the elastic
        # energy of the nRing Hertz contacts, 2/5 of (m g/nRing) delta each
        delta = ref.flat_rest_penetration(DISK["m"], DISK["g"], DISK["r"], E_STAR, DISK["nRing"])
        E_rest = DISK["m"] * DISK["g"] * (DISK["h"] / 2 - delta) + 0.4 * DISK["m"] * DISK["g"] * delta
        last = run["time"] >= STOP_TIME - 0.5  # the rattle's last half second, averaged
        checks.append(Check("energy at rest against m g (h/2 - delta) + elastic (Hertz), relative to E(0)",
                            abs(float(run["energy"][last].mean()) - E_rest) / E0, 1e-6))
        split = {k: float(run[f"W_{k}"].iloc[-1]) for k in ("slide", "pivot", "damp")}
        table = pd.DataFrame([dict(E0=E0, E_end=float(run["energy"].iloc[-1]), **{f"W_{k}": v for k, v in split.items()},
                                   landing=landing_time(run))])
        keep = run[["time", "tilt", "Omega", "spin", "pivot", "slip", "N", "energy", "W_slide", "W_pivot", "W_damp",
                    "balance", "rimShare"]]
        return CaseResult(self, no_signals(), checks, {"run": keep.iloc[::5], "energy": table})

    def plot(self, result, out_dir):
        run = result.frames["run"]
        t = run["time"]
        fig, axes = plt.subplots(3, 2, figsize=(11, 9), sharex=True)
        axes = axes.ravel()
        for ax, (col, unit, text) in zip(axes, (("tilt", "rad", "tilt of the disk"), ("Omega", "rad/s", "precession rate"),
                                                ("spin", "rad/s", "spin about the axis"), ("slip", "m/s", "slip speed"),
                                                ("N", "N", "normal force"))):
            ax.plot(t, run[col], lw=0.6)
            ax.set_ylabel(label(text, unit))
            ax.grid(True, alpha=0.3)
        axes[1].set_yscale("log")
        axes[3].set_yscale("log")
        ax = axes[5]
        E0 = run["balance"].iloc[0]
        ax.plot(t, run["energy"], label="E (kinetic + gravity + elastic)")
        bottom = run["energy"].to_numpy()
        for k, colour in (("pivot", "C1"), ("slide", "C2"), ("damp", "C3")):
            top = bottom + run[f"W_{k}"].to_numpy()
            ax.fill_between(t, bottom, top, color=colour, alpha=0.5, label=f"lost in {k} {run[f'W_{k}'].iloc[-1]:.4f} J")
            bottom = top
        ax.axhline(E0, color="k", lw=0.6, ls="--", label=f"E(0) = {E0:.5f} J")
        ax.set_ylabel(label("energy", "J"))
        ax.legend(fontsize=7, loc="lower left")
        for ax in axes[4:]:
            ax.set_xlabel(label("time", "s"))
        fig.suptitle("euler_disk_energy: Euler's disk spun at 0.1 rad, run to rest", fontsize=11)
        return [save_figure(fig, out_dir / "run.png")]


class FinalPhaseCase(Case):
    """The final phase: Omega ~ (t0 - t)^(-n) fitted with t0, against the literature."""
    T_FIT = 1.0  # the fit starts after the first second (the start's small nutation)
    SMOOTH = 0.5  # s: the running mean over the nutation (period about 0.4 s)

    def __init__(self):
        super().__init__("euler_disk_final_phase", "EulerDisk",
                         "The run to rest of euler_disk_energy: precession rate against the time to the end, the "
                         "fitted exponent n and end time t0 (also from the energy, E - E_rest ~ (t0 - t)^(2n)), "
                         "Moffatt's steady-precession relation, the abrupt end, the landing's rattle, the rest.")

    def execute(self) -> CaseResult:
        run = run_to_rest()
        t = run["time"].to_numpy()
        width = int(round(self.SMOOTH / INTERVAL))
        omega = ref.running_mean(run["Omega"], width)
        tilt = ref.running_mean(run["tilt"], width)
        energy = run["energy"].to_numpy()
        excess = ref.running_mean(energy - energy[-1], width)
        hand = float(t[np.argmax(run["rimShare"].to_numpy() < 1)])  # the edge ring starts to take over
        land = landing_time(run)
        bounds = (hand, hand + 30.0)
        fit = ref.fit_power_law(t, omega, self.T_FIT, hand, self.SMOOTH, bounds)
        fit_e = ref.fit_power_law(t, excess, self.T_FIT, hand, self.SMOOTH, bounds)
        fit_land = ref.fit_power_law(t, omega, self.T_FIT, hand, self.SMOOTH, (land, land))
        window = (t >= self.T_FIT) & (t <= hand)
        loss = ref.running_mean(run["P_slide"] + run["P_pivot"] + run["P_damp"], width)
        p = float(np.polyfit(np.log(tilt[window]), np.log(loss[window]), 1)[0])
        a_c = DISK["R"] - DISK["r"]  # horizontal lever of the contact as the disk flattens
        moffatt = omega**2 * np.sin(tilt) * A_DISK / (DISK["m"] * DISK["g"] * a_c)
        checks = [
            # Moffatt's eq. (1), Omega^2 sin(alpha) = m g a_c / A, for the nutation-averaged motion: the thick disk's
            # corrections (e sin(alpha)/a_c, the offset of its contact below the mid-plane) are below 1 % for
            # alpha < 0.2, the nutation's residue after the 0.5 s mean is a few per cent
            Check("Moffatt eq. (1): max |Omega^2 sin(alpha) A/(m g a_c) - 1| in the fitted window",
                  float(np.max(np.abs(moffatt[window] - 1))), 0.05),
            # (fit_power_law returns minus the exponent: m = -fit_e.n)
        # Omega^2 alpha = const makes n = m/2 for E - E_rest ~ alpha ~ (t0 - t)^m: the two fits see it through
            # the rippled Omega and the smooth energy; the relation's spread (<= 5 %, above) over 1.1 decades of
            # t0 - t moves a slope by up to about 0.05/1.1: bound 0.1
            Check("exponent from Omega against half that of the energy, |n - m/2|", abs(fit.n + fit_e.n / 2), 0.1),
            Check("the end times of both fits, |t0(Omega) - t0(E)| [s]", abs(fit.t0 - fit_e.t0), 2.0),
            # the abrupt end: the disk lands (tilt < 1e-5) before the rolling phase's law reaches its singularity
            Check("landing before the fitted singularity, t_land - t0 [s]", land - fit.t0, 0.0),
        ]
        # at rest: flat on the edge circle's nRing points, each a Hertz sphere of radius r under m g/nRing
        delta = ref.flat_rest_penetration(DISK["m"], DISK["g"], DISK["r"], E_STAR, DISK["nRing"])
        last = t >= STOP_TIME - 0.5
        z_rest = float(run["r_0[3]"][last].mean())
        checks.append(Check("centre height at rest against h/2 - delta (Hertz), relative to delta",
                            abs(z_rest - (DISK["h"] / 2 - delta)) / delta, 0.01))
        after = (t > land) & (t < land + 0.2)
        rattle = dict(N_min=float(run["N"][after].min()), N_max=float(run["N"][after].max()))
        summary = pd.DataFrame([dict(n=fit.n, t0=fit.t0, C=fit.C, rms=fit.rms, tau_min=fit.tau_range[0],
                                     tau_max=fit.tau_range[1], m_energy=-fit_e.n, t0_energy=fit_e.t0,
                                     n_t0_landing=fit_land.n, loss_law_p=p, n_loss_law=ref.exponent_from_loss_law(p),
                                     handover=hand, landing=land, **rattle)])
        literature = pd.DataFrame(ref.LITERATURE, columns=["source", "mechanism", "n", "kind"])
        final = run[(t >= land - 20)][["time", "tilt", "Omega", "spin", "pivot", "slip", "N", "rimShare", "energy",
                                 "r_0[1]", "r_0[2]", "r_0[3]", "Q[1]", "Q[2]", "Q[3]", "Q[4]"]]
        frames = {"final_phase": summary, "literature": literature, "end": final,
                  "omega": pd.DataFrame({"time": t[::10], "Omega_mean": omega[::10], "Omega": run["Omega"][::10]}),
                  "animation": run[["time", "r_0[1]", "r_0[2]", "r_0[3]", "Q[1]", "Q[2]", "Q[3]", "Q[4]", "tilt",
                                    "Omega"]].iloc[::5]}
        return CaseResult(self, no_signals(), checks, frames)

    def plot(self, result, out_dir):
        s = result.frames["final_phase"].iloc[0]
        om = result.frames["omega"]
        t, mean = om["time"].to_numpy(), om["Omega_mean"].to_numpy()
        files = []
        fig, ax = plt.subplots(figsize=(7, 5))
        tau = s["t0"] - t
        ok = (t >= self.T_FIT) & (t < s["landing"] - 0.01)  # rolling, then on the edge ring, until the landing
        ax.loglog(tau[ok], np.abs(om["Omega"].to_numpy()[ok]), color="0.75", lw=0.5, label="Omega")
        ax.loglog(tau[ok], mean[ok], color="C0", lw=1, label="Omega, 0.5 s mean")
        x = np.logspace(np.log10(s["tau_min"]), np.log10(s["tau_max"]), 50)
        ax.loglog(x, s["C"] * x ** -s["n"], "r--", lw=1.5, label=f"fit: n = {s['n']:.3f}, t0 = {s['t0']:.2f} s")
        for (source, _, n, _kind), colour in zip(result.frames["literature"].itertuples(index=False),
                                                   ("C2", "C3", "C4", "C5", "C6", "C7")):
            ax.loglog(x, s["C"] * x[-1] ** -s["n"] * (x / x[-1]) ** -n, ":", color=colour, lw=1,
                      label=f"n = {n:.3g}: {source.split(',')[0]}")
        ax.axvline(max(s["t0"] - s["landing"], 1e-3), color="k", lw=0.6, ls="--")
        ax.text(max(s["t0"] - s["landing"], 1e-3), ax.get_ylim()[0] * 1.5, " landing", fontsize=8)
        ax.set_xlabel(label("time to the end t0 - t", "s"))
        ax.set_ylabel(label("precession rate Omega", "rad/s"))
        ax.set_title("euler_disk_final_phase: Omega ~ (t0 - t)^(-n)", fontsize=10)
        ax.legend(fontsize=7)
        ax.grid(True, which="both", alpha=0.3)
        files.append(save_figure(fig, out_dir / "final_phase_loglog.png"))

        end = result.frames["end"]
        land = s["landing"]
        near = (end["time"] > s["handover"] - 0.3) & (end["time"] < land + 0.5)
        e = end[near]
        fig, axes = plt.subplots(3, 1, figsize=(8, 7), sharex=True)
        axes[0].plot(e["time"], e["N"], lw=0.5)
        axes[0].set_ylabel(label("normal force N", "N"))
        axes[1].semilogy(e["time"], on_log_axis(np.abs(e["Omega"])), lw=0.5)
        axes[1].set_ylabel(label("|Omega|", "rad/s"))
        axes[2].semilogy(e["time"], on_log_axis(e["tilt"]), lw=0.5)
        axes[2].set_ylabel(label("tilt", "rad"))
        axes[2].set_xlabel(label("time", "s"))
        for ax in axes:
            ax.axvline(land, color="k", lw=0.6, ls="--")
            ax.axvline(s["handover"], color="0.5", lw=0.6, ls=":")
            ax.grid(True, alpha=0.3)
        fig.suptitle(f"the end: the edge ring takes over (dotted, {s['handover']:.2f} s), the disk lands flat "
                     f"(dashed, {land:.3f} s) and rattles", fontsize=10)
        files.append(save_figure(fig, out_dir / "end_and_rattle.png"))
        from ..plots import euler_disk_animation
        files.append(euler_disk_animation(result.frames["animation"], DISK, out_dir / "euler_disk.gif", landing=land))
        return files


def cases() -> list:
    return [ConvergenceCase(), EnergyCase(), FinalPhaseCase()]
