"""Verification cases of the spur gear pair: Modelica example ``Examples.SpurGearPair``, reference
``nonholonomic.references.gears``.

No paper gives trajectories of this mesh (seed 002, section 7, reports none); the oracles are the involute
geometry (contact ratio, the one- and two-pair zones, the mean ratio z2/z1), Johnson's line contact of the flanks
(static transmission error, mesh stiffness), and a two-rotor model of the mesh written from them
(``SpurGearPair.simulate``), each checked on its own in ``tests/test_reference_gears.py``.

The FMU is the multibody model: two rigid bodies on revolute joints, the pinion at a prescribed speed (a servo)
and the wheel loaded by a torque, the involute tooth contact tracking which pairs mesh.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..plots import FMU_STYLE, REF_STYLE, label, on_log_axis, plt, save_figure
from ..references import iso6336
from ..references.gears import SpurGearPair
from ..simulate import simulate
from ..verification import Case, CaseResult, Check, TrajectoryCase, compare, no_signals

PAPER = ("Seed 002, section 7 (Kosenko's spur involute gear mesh with Johnson's contact model). Oracles: involute "
         "geometry (Niemann and Winter, Maschinenelemente II; ISO 21771), Johnson, Contact Mechanics (1985), the "
         "line contact of two cylinders; the teeth's compliance by the potential-energy method (Yang and Lin 1987, "
         "Tian 2004, Chaari et al. 2009) with Sainsot et al.'s (2004) foundation; ISO 6336-1 method B (tooth "
         "stiffness c', c_gamma_alpha); a two-rotor model of the compliant mesh written from them.")
GEARS = SpurGearPair()  # the Modelica example's defaults: m 2 mm, z 20/35, 20 deg, b 20 mm, backlash 0.1 mm
OMEGA1, T2, DAMPING = 100.0, 50.0, 1500.0  # the example's defaults
SAMPLES = 64  # per mesh period
FINE = 1024  # per mesh period, where powers are integrated
MESH_PERIOD = 2 * math.pi / float(GEARS.mesh_frequency(OMEGA1))


def mesh_run(parameters: dict | None = None, periods: int = 24, tolerance: float = 1e-10,
             samples: int = SAMPLES) -> pd.DataFrame:
    """The FMU at its defaults (pinion at 100 rad/s, 50 N m on the wheel, starting statically deflected),
    ``periods`` mesh periods sampled ``samples`` times each; angles unwrapped."""
    fmu = simulate("SpurGearPair", parameters or {}, stop_time=periods * MESH_PERIOD,
                   output_interval=MESH_PERIOD / samples, tolerance=tolerance)
    for name in ("phi1", "phi2"):
        fmu[name] = np.unwrap(fmu[name].to_numpy())
    return fmu


def reference_run(time, d_mesh: float = DAMPING) -> pd.DataFrame:
    ref = GEARS.simulate(np.asarray(time), T2=T2, omega1=OMEGA1, prescribed=True, d_mesh=d_mesh)
    return ref.assign(F=ref["F_drive"] + ref["F_coast"], nContact=ref["pairs"].astype(float))


def switch_distance(fmu: pd.DataFrame) -> np.ndarray:
    """Each sample's distance (in samples) from the nearest change of the number of pairs in contact."""
    n = fmu["nContact"].to_numpy()
    changes = np.nonzero(np.diff(n) != 0)[0]
    index = np.arange(n.size)
    if changes.size == 0:
        return np.full(n.size, n.size)
    return np.min(np.abs(index[:, None] - np.concatenate([changes, changes + 1])[None, :]), axis=1)


class MeshCase(Case):
    """Steady running: trajectory against the two-rotor reference, mean ratio, pair counts, TE spectrum."""
    signals = ("e", "F")
    units = dict(e="m", F="N")

    def __init__(self):
        super().__init__("gears_mesh", "SpurGearPair",
                         "Spur gears (m 2 mm, z 20/35, 20 deg, b 20 mm, steel), pinion at 100 rad/s, 50 N m on the wheel, "
                         "24 mesh periods (75 ms): transmission error and mesh force against the two-rotor reference, "
                         "mean ratio, one- and two-pair zones against the involute geometry, TE spectrum.")

    def execute(self) -> CaseResult:
        fmu = mesh_run()
        ref = reference_run(fmu["time"].to_numpy())
        # both integrate the same mesh (rtol 1e-10); the FMU's integrator steps across the pairs' entries and exits
        # (force jumps) without locating them, the reference restarts there; the FMU evaluates the teeth's
        # compliance by its 10-term Chebyshev series (8e-5 of it against the reference's quadrature): measured
        # 3.4e-5 of |e| (2e-6 before the teeth's compliance, from the ringing each jump starts); bound 1e-4
        errors = compare(fmu, ref, self.signals, 1e-4)
        t = fmu["time"].to_numpy()
        turn1, turn2 = fmu["phi1"].iloc[-1] - fmu["phi1"].iloc[0], fmu["phi2"].iloc[-1] - fmu["phi2"].iloc[0]
        # phi2 = (e - r_b1 phi1)/r_b2 exactly, so the mean ratio differs from -z1/z2 only by the change of e
        ratio_bound = 2 * float(np.max(np.abs(fmu["e"]))) / (GEARS.rb2 * abs(turn1))
        n, two, one = GEARS.contact_intervals()
        counts = fmu["nContact"].to_numpy()[:-1]  # whole periods: the last sample starts the next one
        changes = int(np.count_nonzero(np.diff(fmu["nContact"].to_numpy()) != 0))
        # each change is seen at the first sample after it: each fraction is off by at most changes/2 samples
        fraction_bound = (changes / 2 + 1) / counts.size
        geometric = np.array([GEARS.pairs_in_contact(p) for p in fmu["phi1"]])
        mismatch = (fmu["nContact"].to_numpy() != geometric) & (switch_distance(fmu) > 1)
        # spectrum of e over the last 16 periods (transient gone: e^-5.5 per period, 8 skipped): peak at bin 16
        e = fmu["e"].to_numpy()[8 * SAMPLES:24 * SAMPLES]
        spectrum = np.abs(np.fft.rfft(e - e.mean()))
        peak = int(np.argmax(spectrum))
        checks = [
            Check(f"mean speed ratio against -z1/z2 = {-GEARS.z1 / GEARS.z2:.6f}", abs(turn2 / turn1 + GEARS.z1 / GEARS.z2),
                  ratio_bound),
            Check(f"time fraction with one pair against 2 - eps_alpha = {one / GEARS.p_b:.5f}",
                  abs(np.mean(counts == 1) - one / GEARS.p_b), fraction_bound),
            Check(f"time fraction with two pairs against eps_alpha - 1 = {two / GEARS.p_b:.5f}",
                  abs(np.mean(counts == 2) - two / GEARS.p_b), fraction_bound),
            Check("samples whose pair count differs from the geometry's, away from a change", float(mismatch.sum()), 0),
            Check("spectrum of e: distance of the peak from the mesh frequency z1 omega1 (bins of 1/16 of it)",
                  float(abs(peak - 16)), 0),
            Check("spectrum of e: largest bin off the mesh harmonics / peak", float(np.max(np.delete(
                spectrum, np.arange(0, spectrum.size, 16))) / spectrum[peak]), 1e-3),
        ]
        frequency = np.fft.rfftfreq(e.size, d=t[1] - t[0]) * 2 * math.pi / float(GEARS.mesh_frequency(OMEGA1))
        summary = pd.DataFrame(dict(
            quantity=["contact ratio eps_alpha", "one-pair fraction (FMU)", "two-pair fraction (FMU)", "mean ratio (FMU)",
                      "TE, one pair (um, FMU max over the last 16 periods)", "TE, mean (um)",
                      "static TE one pair / two pairs (um, reference)"],
            value=[GEARS.eps_alpha, float(np.mean(counts == 1)), float(np.mean(counts == 2)), turn2 / turn1,
                   float(e.max() * 1e6), float(e.mean() * 1e6),
                   f"{GEARS.static_transmission_error(0.0, T2) * 1e6:.4f} / "
                   f"{GEARS.static_transmission_error((GEARS.s_A - GEARS.s_P + 0.1 * two) / GEARS.rb1, T2) * 1e6:.4f}"]))
        return CaseResult(self, errors, checks, dict(fmu=fmu, reference=ref, summary=summary,
                                                    spectrum=pd.DataFrame(dict(f_over_mesh=frequency, amplitude=spectrum))))

    def bench_cases(self):
        """24 mesh periods of the default run: the FMU's run time per mesh cycle."""
        return [TrajectoryCase("gears_bench", "SpurGearPair", "bench", stop_time=24 * MESH_PERIOD,
                               output_interval=MESH_PERIOD / SAMPLES, reference=reference_run, signals=("e",),
                               fmu_tolerance=1e-8, rumoca_comparison=False)]

    def plot(self, result, out_dir):
        fmu, ref = result.frames["fmu"], result.frames["reference"]
        t_ms = fmu["time"] * 1e3
        fig, axes = plt.subplots(2, 1, figsize=(9, 6), sharex=True, gridspec_kw=dict(height_ratios=(3, 1)))
        axes[0].plot(t_ms, fmu["e"] * 1e6, **FMU_STYLE)
        axes[0].plot(t_ms, ref["e"] * 1e6, **REF_STYLE)
        for level, text in ((GEARS.static_transmission_error(0.0, T2), "static, one pair"),
                            (GEARS.delta_of_force(T2 / GEARS.rb2 / 2, GEARS.s_P), "static, two pairs")):
            axes[0].axhline(level * 1e6, color="0.5", lw=0.8, ls=":")
            axes[0].annotate(text, (t_ms.iloc[-1], level * 1e6), ha="right", va="bottom", fontsize=8, color="0.3")
        axes[0].set_ylabel(label("transmission error e", "um"))
        axes[0].legend(fontsize=8)
        axes[0].set_title(f"{self.name}: transmission error at 100 rad/s, 50 N m (mesh frequency 318 Hz)")
        axes[1].step(t_ms, fmu["nContact"], where="post", color="tab:blue")
        axes[1].set_ylabel("pairs")
        axes[1].set_xlabel(label("t", "ms"))
        for ax in axes:
            ax.grid(alpha=0.3)
        paths = [save_figure(fig, out_dir / "transmission_error.png")]
        spec = result.frames["spectrum"]
        fig, ax = plt.subplots(figsize=(8, 3.8))
        ax.semilogy(spec["f_over_mesh"], on_log_axis(spec["amplitude"]), "o-", ms=3)
        for k in range(1, int(spec["f_over_mesh"].max()) + 1):
            ax.axvline(k, color="0.7", lw=0.8, ls=":")
        ax.set_xlabel("frequency / mesh frequency z1 omega1")
        ax.set_ylabel(label("|FFT of e|", "m"))
        ax.set_xlim(0, 8)
        ax.set_ylim(spec["amplitude"].max() * 1e-12, spec["amplitude"].max() * 3)
        ax.set_title(f"{self.name}: spectrum of the transmission error (16 periods, steady)")
        ax.grid(alpha=0.3)
        paths.append(save_figure(fig, out_dir / "te_spectrum.png"))
        row = fmu.iloc[int(np.argmax(fmu["nContact"].to_numpy()[8 * SAMPLES:] == 2)) + 8 * SAMPLES]
        paths.append(mesh_picture(row, out_dir / "mesh.png",
                                  f"{self.name}: the mesh at t = {row['time'] * 1e3:.2f} ms (FMU angles), two pairs"))
        return paths


class StaticCase(Case):
    """The pinion turned slowly under load: the transmission error against the static one of the contact law."""
    OMEGA = 0.5  # rad/s: a mesh period takes 0.63 s

    def __init__(self):
        super().__init__("gears_static", "SpurGearPair",
                         "Spur gears under 50 N m on the wheel, the pinion turned at 0.5 rad/s through one mesh period "
                         "(0.63 s): transmission error against the static one (Johnson's line contact), mesh stiffness.")

    def execute(self) -> CaseResult:
        period = 2 * math.pi / float(GEARS.mesh_frequency(self.OMEGA))
        fmu = simulate("SpurGearPair", dict(omega1=self.OMEGA), stop_time=1.05 * period, output_interval=period / 2000,
                       tolerance=1e-10)
        static = np.array([GEARS.static_transmission_error(p, T2) for p in fmu["phi1"]])
        fmu["e_static"] = static
        # a change of the pair count steps the static TE by 1.2 um and sets the wheel ringing on the mesh (zeta
        # omega_n >= 2300 1/s): 5 ms later it is down to exp(-11.5) = 1e-5 of the step. Away from the changes the
        # motion is quasi-static: the inertia forces (J2 phi2''/r_b2, and phi2'' = 0 in each zone, where e is
        # constant) vanish, the damping force too; left are the integrator's error and the ringing's 1e-5
        settled = fmu["time"].to_numpy() - np.maximum.accumulate(np.where(
            np.concatenate([[True], np.diff(fmu["nContact"].to_numpy()) != 0]), fmu["time"].to_numpy(), -np.inf)) > 5e-3
        error = float(np.max(np.abs(fmu["e"].to_numpy() - static)[settled]) / np.max(static))
        one = GEARS.static_transmission_error(0.0, T2)
        two = GEARS.static_transmission_error((GEARS.s_A - GEARS.s_P + 0.3 * GEARS.contact_intervals()[1]) / GEARS.rb1, T2)
        W = T2 / GEARS.rb2
        summary = pd.DataFrame(dict(
            zone=["one pair", "two pairs"], load_per_pair_N=[W, W / 2], static_TE_um=[one * 1e6, two * 1e6],
            secant_stiffness_N_per_m=[W / one, W / two],
            tangent_stiffness_N_per_m=[GEARS.mesh_stiffness(0.0, T2),
                                       2 * GEARS.pair_stiffness(W / 2, GEARS.s_P)],
            fmu_TE_um=[float(np.median(fmu["e"][settled & (fmu["nContact"] == 1)])) * 1e6,
                       float(np.median(fmu["e"][settled & (fmu["nContact"] == 2)])) * 1e6]))
        # the model evaluates the teeth's compliance by a 10-term Chebyshev series (8e-5 of it at most against the
        # reference's quadrature), which bounds the TE's error by 1e-4 of it; the damping force d e' of the slow
        # drift of the static TE within a zone adds 1500 N s/m * 1e-6 m/s / 2e8 N/m = 1e-6 of it
        checks = [Check("TE against the static TE (teeth in series with the contact law), settled samples (relative "
                        "to its largest)", error, 1e-4),
                  Check("fraction of the samples left out as within 5 ms of a change", 1 - float(np.mean(settled)), 0.1)]
        return CaseResult(self, no_signals(), checks,
                          dict(fmu=fmu, summary=summary))

    def plot(self, result, out_dir):
        fmu = result.frames["fmu"]
        fig, ax = plt.subplots(figsize=(8, 4))
        ax.plot(np.degrees(fmu["phi1"]), fmu["e"] * 1e6, **FMU_STYLE)
        ax.plot(np.degrees(fmu["phi1"]), fmu["e_static"] * 1e6, **{**REF_STYLE, "label": "static TE (Johnson)"})
        ax.set_xlabel(label("pinion angle phi1", "deg"))
        ax.set_ylabel(label("transmission error e", "um"))
        ax.set_title(f"{self.name}: quasi-static TE through one mesh period, 50 N m")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        return [save_figure(fig, out_dir / "static_te.png")]


def step_integrals(fmu: pd.DataFrame, power: np.ndarray) -> np.ndarray:
    """The integral of a sampled power over each output step. The trapezoid rule, except over the steps where the
    pair count changes: there the power jumps, at the pinion angle where a pair enters (zone phase 0) or leaves
    (zone phase (eps_alpha - 1) p_b), found by interpolating the angle; each side is integrated from its own
    samples, extrapolated linearly to the jump (error O(h^3) per jump, against O(h |jump|) for the trapezoid)."""
    t, n = fmu["time"].to_numpy(), fmu["nContact"].to_numpy()
    h = t[1] - t[0]
    out = h * 0.5 * (power[1:] + power[:-1])
    u = GEARS.s_P + GEARS.rb1 * fmu["phi1"].to_numpy() - GEARS.s_A  # zone phase before the reduction mod p_b
    two = GEARS.contact_intervals()[1]
    for k in np.nonzero(np.diff(n) != 0)[0]:
        if k < 1 or k + 2 >= n.size:
            continue
        lo, hi = u[k], u[k + 1]
        first = math.floor(lo / GEARS.p_b) * GEARS.p_b
        switch = [x for x in (first, first + two, first + GEARS.p_b, first + GEARS.p_b + two) if lo < x <= hi]
        if len(switch) != 1:  # not a geometric entry or exit (flanks parting): keep the trapezoid
            continue
        th = (switch[0] - lo) / (hi - lo)
        left, right = (power[k] - power[k - 1]) / h, (power[k + 2] - power[k + 1]) / h
        out[k] = th * h * (power[k] + th * h * left / 2) + (1 - th) * h * (power[k + 1] - (1 - th) * h * right / 2)
    return out


class EnergyCase(Case):
    """Power balance of the mesh, without and with flank friction."""

    def __init__(self):
        super().__init__("gears_energy", "SpurGearPair",
                         "Spur gears at 100 rad/s under 50 N m, 24 mesh periods, without friction and with mu = 0.1: "
                         "work in - work out = kinetic energy + mesh work + friction loss at every instant; the mean "
                         "powers in steady running and the efficiency.")

    def execute(self) -> CaseResult:
        checks, frames, rows = [], {}, []
        for mu in (0.0, 0.1):
            # 1024 samples per mesh period: 34 per cycle of the mesh's ringing
            fmu = mesh_run(dict(mu=mu), tolerance=1e-10, samples=FINE)
            t = fmu["time"].to_numpy()
            net = (fmu["P_in"] - fmu["P_out"] - fmu["meshPower"] - fmu["frictionPower"]).to_numpy()
            work = np.concatenate([[0.0], np.cumsum(step_integrals(fmu, net))])
            fmu["energy_balance"] = fmu["kineticEnergy"].to_numpy() - fmu["kineticEnergy"].iloc[0] - work
            # quadrature error of the smooth steps, about h^2/12 int |P''| dt (the mesh's ringing dominates it),
            # estimated from the second differences away from the jumps; the integrator's error is far below
            h = t[1] - t[0]
            smooth = np.ones(t.size - 2, bool)
            for k in np.nonzero(np.diff(fmu["nContact"].to_numpy()) != 0)[0]:
                smooth[max(k - 2, 0):k + 2] = False
            quadrature = h / 12 * float(np.sum(np.abs(np.diff(net, 2))[smooth]))
            largest = float(np.max(np.abs(fmu["energy_balance"])))
            checks.append(Check(f"mu = {mu}: |KE - KE0 - int (P_in - P_out - meshPower - frictionPower)| over the "
                                "quadrature's error estimate", largest / quadrature, 1.0))
            steady = slice(8 * FINE, 24 * FINE + 1)  # 16 whole mesh periods
            span = t[steady][-1] - t[steady][0]
            mean = lambda name: float(np.sum(step_integrals(fmu, fmu[name].to_numpy())[steady][:-1])) / span
            rows.append(dict(mu=mu, P_in=mean("P_in"), P_out=mean("P_out"), meshPower=mean("meshPower"),
                             frictionPower=mean("frictionPower"), dissipation=mean("dissipation"),
                             efficiency=mean("P_out") / mean("P_in"), largest_balance_error_J=largest,
                             quadrature_estimate_J=quadrature))
            frames[f"fmu_mu_{mu}"] = fmu[["time", "P_in", "P_out", "meshPower", "frictionPower", "kineticEnergy",
                                          "energy_balance"]].iloc[::8].reset_index(drop=True)
        checks.append(Check("mu = 0: friction power (W)", float(np.max(np.abs(frames["fmu_mu_0.0"]["frictionPower"]))),
                            0.0))
        frames["powers"] = pd.DataFrame(rows)
        return CaseResult(self, no_signals(), checks, frames)

    def plot(self, result, out_dir):
        fig, axes = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
        for mu, style in ((0.0, dict(color="tab:blue")), (0.1, dict(color="tab:red", ls="--"))):
            fmu = result.frames[f"fmu_mu_{mu}"]
            axes[0].plot(fmu["time"] * 1e3, fmu["P_in"] - fmu["P_out"], lw=0.8, label=f"P_in - P_out, mu = {mu}", **style)
            axes[1].plot(fmu["time"] * 1e3, fmu["energy_balance"], lw=0.8, label=f"mu = {mu}", **style)
        axes[0].set_ylabel(label("P_in - P_out", "W"))
        axes[1].set_ylabel(label("KE - KE0 - int (P_in - P_out - losses)", "J"))
        axes[1].set_xlabel(label("t", "ms"))
        for ax in axes:
            ax.grid(alpha=0.3)
            ax.legend(fontsize=8)
        axes[0].set_title(f"{self.name}: power through the mesh")
        return [save_figure(fig, out_dir / "mesh_power.png")]


def mesh_picture(row: pd.Series, path, title: str):
    """The flanks of both gears near the pitch point at the row's angles, the lines of action, the active
    segments, the geometric pair positions (reference) and the FMU's contact point."""
    g = GEARS.flank_geometry(float(row["phi1"]), float(row["phi2"]), n=40)
    fig, ax = plt.subplots(figsize=(7, 6))
    mm = lambda p: np.asarray(p) * 1e3
    for gear, color in (("pinion", "tab:blue"), ("wheel", "tab:green")):
        for drive, coast in zip(g[f"{gear}_drive"], g[f"{gear}_coast"]):  # a tooth: its two flanks and its tip land
            outline = np.concatenate([drive, coast[::-1]])
            ax.plot(*mm(outline).T, color=color, lw=1.0)
    for key, style in (("drive_line", dict(color="0.5", lw=0.8)), ("coast_line", dict(color="0.5", lw=0.8, ls=":"))):
        ax.plot(*mm(g[key]).T, **style)
    ax.plot(*mm(g["drive_segment"]).T, color="tab:orange", lw=3, alpha=0.6, label="active segment (drive)")
    ax.plot(*mm(g["drive_contacts"]).T, "o", mfc="none", mec="k", ms=9, label="pairs in the segment (geometry)")
    if row["sContact"] > 0:
        n = np.array([math.sin(GEARS.alpha), math.cos(GEARS.alpha)])
        T1 = GEARS.rb1 * np.array([math.cos(GEARS.alpha), -math.sin(GEARS.alpha)])
        ax.plot(*mm(T1 + row["sContact"] * n), "x", color="tab:red", ms=10, mew=2, label="FMU: first loaded pair")
    for r, c in ((GEARS.r1, (0, 0)), (GEARS.r2, (GEARS.a, 0))):
        s = np.linspace(0, 2 * math.pi, 400)
        ax.plot(mm(c[0] + r * np.cos(s)), mm(c[1] + r * np.sin(s)), color="0.8", lw=0.6, ls="--")
    ax.set_xlim(mm(GEARS.r1 - 0.012), mm(GEARS.r1 + 0.012))
    ax.set_ylim(-12, 12)
    ax.set_aspect("equal")
    ax.set_xlabel(label("x", "mm"))
    ax.set_ylabel(label("y", "mm"))
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7, loc="lower left")
    return save_figure(fig, path)


def iso_stiffness(T2_load: float = T2) -> tuple:
    """(c' b, c_gamma_alpha b) in N/m by ISO 6336-1 method B for the example's gears under T2_load on the wheel."""
    F_t = T2_load / GEARS.r2  # nominal tangential force at the reference circle
    E = dict(E1=GEARS.E1, E2=GEARS.E2)
    return (iso6336.single_stiffness(GEARS.z1, GEARS.z2, GEARS.b, F_t, **E),
            iso6336.mesh_stiffness(GEARS.z1, GEARS.z2, GEARS.b, F_t, GEARS.eps_alpha, **E))


def quasi_static_run(parameters: dict, omega: float = 0.5, periods: float = 1.05, samples: int = 1000):
    """The FMU with the pinion turned at omega (rad/s) through ``periods`` mesh periods."""
    period = 2 * math.pi / float(GEARS.mesh_frequency(omega))
    return simulate("SpurGearPair", dict(omega1=omega, **parameters), stop_time=periods * period,
                    output_interval=period / samples, tolerance=1e-10)


RELIEF = 10e-6  # m: C_a of the relieved runs, about the single-pair deflection at 100 N m (chosen, stated)
LOADS = (50.0, 100.0)  # N m on the wheel


class StiffnessCase(Case):
    """Single-pair and mesh stiffness of the FMU's static transmission error against ISO 6336-1 method B, and the
    static TE at two loads with and without tip relief against the reference."""

    def __init__(self):
        super().__init__("gears_stiffness", "SpurGearPair",
                         "Spur gears turned at 0.5 rad/s through one mesh period at 50 and 100 N m, without and with "
                         f"linear tip relief (C_a = {RELIEF * 1e6:g} um, long relief): single-pair stiffness (pitch point) "
                         "and mean mesh stiffness against ISO 6336-1 method B (within 10 %), static TE against the "
                         "reference (teeth's compliance in series with Johnson's contact).")

    def execute(self) -> CaseResult:
        checks, rows, frames = [], [], {}
        for load in LOADS:
            for relief in (0.0, RELIEF):
                ref_gears = SpurGearPair(C_a=relief)
                fmu = quasi_static_run(dict(T2=load, C_a=relief))
                x = GEARS.zone_phase(fmu["phi1"].to_numpy())
                fmu["e_static"] = [ref_gears.static_transmission_error(p, load) for p in fmu["phi1"]]
                settled = fmu["time"].to_numpy() > 5e-3  # the start's ringing: exp(-11.5) after 5 ms (StaticCase)
                e, es = fmu["e"].to_numpy()[settled], fmu["e_static"].to_numpy()[settled]
                key = f"T2={load:g}, C_a={relief * 1e6:g}um"
                frames[key] = fmu[["time", "phi1", "e", "e_static", "nContact"]].assign(x=x)
                # away from the jumps of the unrelieved TE the quasi-static FMU follows the static TE (StaticCase)
                changes = np.abs(np.diff(fmu["e_static"].to_numpy(), prepend=fmu["e_static"].iloc[0])) > 0.05 * es.max()
                near = np.convolve(changes, np.ones(101), "same")[settled] > 0  # 5 % of a period about each jump
                error = float(np.max(np.abs(e - es)[~near]) / es.max())
                checks.append(Check(f"{key}: FMU TE against the static TE of the reference (relative, away from jumps)",
                                    error, 1e-4))
                W = load / GEARS.rb2
                rows.append(dict(case=key, TE_max_um=e.max() * 1e6, TE_min_um=e.min() * 1e6,
                                 TE_peak_to_peak_um=(e.max() - e.min()) * 1e6, TE_mean_um=e.mean() * 1e6,
                                 ref_peak_to_peak_um=(es.max() - es.min()) * 1e6, ref_mean_um=es.mean() * 1e6,
                                 # the next pair at the pitch point, one mesh period after the start
                                 single_pair_N_per_m=W / float(fmu["e"].iloc[int(np.argmin(np.abs(
                                     fmu["phi1"].to_numpy() - 2 * math.pi / GEARS.z1)))]) if relief == 0 else np.nan,
                                 mesh_mean_N_per_m=float(np.mean(W / e)) if relief == 0 else np.nan))
        table = pd.DataFrame(rows)
        for load in LOADS:
            c1, cg = iso_stiffness(load)
            row = table[table["case"] == f"T2={load:g}, C_a=0um"].iloc[0]
            table.loc[table["case"] == f"T2={load:g}, C_a=0um", ["ISO_c_prime_b", "ISO_c_gamma_alpha_b"]] = c1, cg
            checks.append(Check(f"T2 = {load:g} N m: single-pair stiffness at the pitch point / ISO c' b = {c1:.3e} - 1",
                                abs(row["single_pair_N_per_m"] / c1 - 1), 0.10))
            checks.append(Check(f"T2 = {load:g} N m: mean mesh stiffness (FMU) / ISO c_gamma_alpha b = {cg:.3e} - 1",
                                abs(row["mesh_mean_N_per_m"] / cg - 1), 0.10))
        # the relief lowers the TE's variation at the load it is designed for (Harris map, Munro 1962)
        pp = table.set_index("case")["TE_peak_to_peak_um"]
        checks.append(Check("T2 = 100 N m: TE peak-to-peak with relief / without", pp["T2=100, C_a=10um"] / pp["T2=100, C_a=0um"], 0.5))
        along = np.linspace(GEARS.s_A, GEARS.s_E, 60)
        bores = {f"r_int = {k:g} r_f": SpurGearPair(r_int1=k * (GEARS.r1 - 1.25 * GEARS.m), r_int2=k * (GEARS.r2 - 1.25 * GEARS.m))
                 for k in (0.3, 0.5, 0.7)}
        W = T2 / GEARS.rb2
        frames["along"] = pd.DataFrame({"s": along, **{k: [W / g.delta_of_force(W, s) for s in along] for k, g in bores.items()},
                                        "contact only": [W / SpurGearPair(bending=False).delta_of_force(W, s) for s in along]})
        frames["summary"] = table
        return CaseResult(self, no_signals(), checks, frames)

    def plot(self, result, out_dir):
        fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
        styles = {0.0: "-", RELIEF: "--"}
        for key, fmu in result.frames.items():
            if not key.startswith("T2="):
                continue
            relief = RELIEF if not key.endswith("C_a=0um") else 0.0
            order = np.argsort(fmu["x"].to_numpy())
            line, = axes[0].plot(fmu["x"].to_numpy()[order] / GEARS.p_b, fmu["e"].to_numpy()[order] * 1e6, ls=styles[relief],
                                 label=f"FMU {key}")
            axes[0].plot(fmu["x"].to_numpy()[order][::40] / GEARS.p_b, fmu["e_static"].to_numpy()[order][::40] * 1e6, "o",
                         mfc="none", color=line.get_color(), ms=4)
        for load in LOADS:
            c1, cg = iso_stiffness(load)
            W = load / GEARS.rb2
            axes[0].axhline(W / cg * 1e6, color="0.5", lw=0.8, ls=":")
            axes[0].annotate(f"ISO mean, {load:g} N m", (1.0, W / cg * 1e6), ha="right", va="bottom", fontsize=7)
        axes[0].set_xlabel("mesh phase x / p_b (two pairs for x < eps_alpha - 1)")
        axes[0].set_ylabel(label("static transmission error", "um"))
        axes[0].set_title("static TE over a mesh cycle (circles: reference)", fontsize=9)
        axes[0].legend(fontsize=7)
        along = result.frames["along"]
        for col in along.columns[1:]:
            axes[1].plot(along["s"] * 1e3, along[col] / 1e8, label=col)
        c1, _ = iso_stiffness(T2)
        axes[1].axhline(c1 / 1e8, color="k", ls=":", label="ISO 6336-1 c' b (method B)")
        axes[1].set_xlabel(label("position s on the line of action", "mm"))
        axes[1].set_ylabel(label("single-pair secant stiffness", "1e8 N/m"))
        axes[1].set_title("one pair along the path of contact, 50 N m", fontsize=9)
        axes[1].legend(fontsize=7)
        for ax in axes:
            ax.grid(alpha=0.3)
        return [save_figure(fig, out_dir / "stiffness_ste.png")]


SWEEP_LOAD = 100.0  # N m: the load the relief RELIEF is about right for (its single-pair deflection, 12 um)
SWEEP = np.linspace(500.0, 2500.0, 36)  # pinion speeds (rad/s): mesh frequency 1.6 to 8 kHz
SWEEP_PERIODS, SWEEP_KEPT = 16, 8  # mesh periods run, of which the last ones are kept (the start decays by e^-5)


def resonance_speed(k_mean: float) -> float:
    """Pinion speed (rad/s) whose mesh frequency z1 omega1 is the mesh's natural frequency: the pinion is held by
    the speed servo, so the wheel vibrates alone on the mesh, m_e = J2/r_b2^2, omega_n = sqrt(k_mean/m_e). (For
    two free gears m_e = J1 J2/(J1 r_b2^2 + J2 r_b1^2): 0.084 kg instead of 0.342 kg.)"""
    return math.sqrt(k_mean / (GEARS.J2 / GEARS.rb2**2)) / GEARS.z1


def sweep_run(omega: float, relief: float, tolerance: float = 1e-8, samples: int = 64) -> pd.DataFrame:
    period = 2 * math.pi / float(GEARS.mesh_frequency(omega))
    return simulate("SpurGearPair", dict(omega1=omega, T2=SWEEP_LOAD, C_a=relief), stop_time=SWEEP_PERIODS * period,
                    output_interval=period / samples, tolerance=tolerance, outputs=["e", "nContact"])


class DynamicCase(Case):
    """Dynamic transmission error against the pinion's speed through the mesh resonance, without and with relief."""

    def __init__(self):
        super().__init__("gears_dynamic", "SpurGearPair",
                         f"Spur gears under {SWEEP_LOAD:g} N m, the pinion at {SWEEP.size} speeds from {SWEEP[0]:g} to "
                         f"{SWEEP[-1]:g} rad/s, {SWEEP_PERIODS} mesh periods each (the last {SWEEP_KEPT} kept), without "
                         f"and with tip relief (C_a = {RELIEF * 1e6:g} um): peak-to-peak dynamic TE against speed, the "
                         "resonance speed against the one of the mean mesh stiffness, the peak's height; one run against "
                         "the two-rotor reference.")

    def execute(self) -> CaseResult:
        rows = []
        for relief in (0.0, RELIEF):
            for omega in SWEEP:
                e = sweep_run(omega, relief)["e"].to_numpy()[-SWEEP_KEPT * 64 - 1:]
                rows.append(dict(omega1=omega, C_a=relief, mesh_frequency_Hz=GEARS.z1 * omega / (2 * math.pi),
                                 DTE_peak_to_peak_um=(e.max() - e.min()) * 1e6, DTE_mean_um=e.mean() * 1e6,
                                 DTE_min_um=e.min() * 1e6))
        sweep = pd.DataFrame(rows)
        phis = np.linspace(0.0, 2 * math.pi / GEARS.z1, 120, endpoint=False)
        static_pp, k_mean, predicted = {}, {}, {}
        for relief in (0.0, RELIEF):
            g = SpurGearPair(C_a=relief)
            te = np.array([g.static_transmission_error(p, SWEEP_LOAD) for p in phis])
            static_pp[relief] = float(te.max() - te.min()) * 1e6
            # the vibration about the static state sees the tangent stiffness dF/de, averaged over the mesh cycle
            k_mean[relief] = float(np.mean([g.mesh_stiffness(p, SWEEP_LOAD) for p in phis]))
            predicted[relief] = resonance_speed(k_mean[relief])
        peaks = {relief: sweep[sweep["C_a"] == relief].sort_values("DTE_peak_to_peak_um").iloc[-1] for relief in (0.0, RELIEF)}
        step = SWEEP[1] - SWEEP[0]
        # one run against the reference: at the predicted resonance with relief (the pairs' forces are continuous:
        # the FMU's integrator needs no restarts); both at rtol 1e-10, as MeshCase
        omega_c = float(SWEEP[np.argmin(np.abs(SWEEP - predicted[RELIEF]))])
        fmu = sweep_run(omega_c, RELIEF, tolerance=1e-10)
        ref = SpurGearPair(C_a=RELIEF).simulate(fmu["time"].to_numpy(), T2=SWEEP_LOAD, omega1=omega_c, prescribed=True,
                                                d_mesh=DAMPING)
        scale = float(np.max(np.abs(ref["e"])))
        checks = [
            # with relief the TE varies little and the flanks stay in contact: a nearly linear mesh, whose peak the
            # sweep locates to its grid step
            Check(f"relief: speed of the largest DTE / predicted {predicted[RELIEF]:.0f} rad/s (mean tangent stiffness "
                  f"{k_mean[RELIEF]:.3e} N/m) - 1, bound the grid step",
                  abs(peaks[RELIEF]["omega1"] / predicted[RELIEF] - 1), step / predicted[RELIEF]),
            # without relief the flanks part near the resonance (e < 0): the mesh softens, the peak moves below the
            # linear prediction and the response jumps there (Kahraman and Blankenship 1997 measured the same)
            Check("no relief: smallest e at the largest DTE (um; < 0: the flanks part)", float(peaks[0.0]["DTE_min_um"]), 0.0),
            Check(f"no relief: speed of the largest DTE / predicted {predicted[0.0]:.0f} rad/s (below 1: softening)",
                  peaks[0.0]["omega1"] / predicted[0.0], 1.0),
            Check("peak DTE with relief / without", peaks[RELIEF]["DTE_peak_to_peak_um"] / peaks[0.0]["DTE_peak_to_peak_um"],
                  1.0),
            Check(f"FMU against the two-rotor reference at {omega_c:.0f} rad/s with relief: largest |e| difference / "
                  "largest |e| (the Chebyshev series of q: 1e-4)",
                  float(np.max(np.abs(fmu["e"].to_numpy() - ref["e"].to_numpy()))) / scale, 1e-4),
        ]
        summary = pd.DataFrame(dict(
            quantity=["mean tangent mesh stiffness, no relief / relief (N/m)", "predicted resonance speed (rad/s)",
                      "predicted resonance (Hz)",
                      "largest DTE, no relief: speed (rad/s) / peak-to-peak (um)",
                      "largest DTE, relief: speed (rad/s) / peak-to-peak (um)",
                      "static TE peak-to-peak, no relief / relief (um)"],
            value=[f"{k_mean[0.0]:.4e} / {k_mean[RELIEF]:.4e}", f"{predicted[0.0]:.1f} / {predicted[RELIEF]:.1f}",
                   f"{predicted[0.0] * GEARS.z1 / (2 * math.pi):.1f} / {predicted[RELIEF] * GEARS.z1 / (2 * math.pi):.1f}",
                   f"{peaks[0.0]['omega1']:.0f} / {peaks[0.0]['DTE_peak_to_peak_um']:.2f}",
                   f"{peaks[RELIEF]['omega1']:.0f} / {peaks[RELIEF]['DTE_peak_to_peak_um']:.2f}",
                   f"{static_pp[0.0]:.2f} / {static_pp[RELIEF]:.2f}"]))
        return CaseResult(self, no_signals(), checks, dict(sweep=sweep, summary=summary,
                                                          comparison=pd.DataFrame(dict(time=fmu["time"], e_fmu=fmu["e"],
                                                                                       e_reference=ref["e"])),
                                                          static=pd.DataFrame(dict(C_a=list(static_pp),
                                                                                   static_pp_um=list(static_pp.values())))))

    def plot(self, result, out_dir):
        sweep = result.frames["sweep"]
        static = result.frames["static"].set_index("C_a")["static_pp_um"]
        summary = result.frames["summary"].set_index("quantity")["value"]
        predicted = float(summary["predicted resonance speed (rad/s)"].split("/")[0])
        fig, ax = plt.subplots(figsize=(9, 4.5))
        for relief, color in ((0.0, "tab:blue"), (RELIEF, "tab:red")):
            part = sweep[sweep["C_a"] == relief]
            text = "no relief" if relief == 0 else f"tip relief C_a = {relief * 1e6:g} um, L_a = long"
            ax.plot(part["omega1"], part["DTE_peak_to_peak_um"], "o-", ms=3, color=color, label=f"FMU, {text}")
            ax.axhline(static[relief], color=color, lw=0.8, ls=":", label=f"static TE peak-to-peak, {text}")
        ax.axvline(predicted, color="k", lw=0.8, ls="--", label="predicted resonance (mean tangent mesh stiffness)")
        ax.axvline(predicted / 2, color="0.5", lw=0.8, ls="--", label="half of it (second mesh harmonic)")
        ax.set_xlabel(label("pinion speed omega1", "rad/s"))
        ax.set_ylabel(label("dynamic TE, peak-to-peak", "um"))
        ax.set_title(f"{self.name}: dynamic transmission error through the mesh resonance, {SWEEP_LOAD:g} N m", fontsize=9)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
        return [save_figure(fig, out_dir / "dte_sweep.png")]


def cases() -> list:
    return [MeshCase(), StaticCase(), EnergyCase(), StiffnessCase(), DynamicCase()]
