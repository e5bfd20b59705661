"""Verification cases of the omni-wheel vehicle with massive rollers and impacts at roller changes (Gerasimov 2018,
ch. 1-2): Modelica examples ``Examples.OmniVehicleImpactSpin``, ``...Straight`` and ``...TranslationSpin``
(``Vehicles.OmniVehicleImpact``), reference ``nonholonomic.references.omni_massive`` (``nonholonomic chapter2``).

Two formulations of one physical model (the masses, inertias, geometry, Lambda and B of
``chapter2_parameters()``): the FMU integrates Lagrange's equations of the first kind in
q = (x, y, theta, chi_i, phi_ij) with the no-slip constraints at acceleration level (Baumgarte) and, at a roller
change, re-initialises the velocities to the solution of Mcal (q'+ - q'-) = J^T P, J q'+ = 0 (a linear system in
its equations, a when-clause, CVODE locating the junctions); the reference integrates the pseudo-velocities nu
(null-space form of Tatarinov's equations) with DOP853 and projects nu+ = (V^T Mcal V)^-1 V^T Mcal q'- at its
own events (scipy). What each case measures, with the bound and its reason next to each check:

- the trajectories on the output grid between the changes (x, y, theta, nu, T, wheel angles and rates, roller
  rates), and the change times;
- at every change, from the FMU's rows before and after it: the energy jump against Carnot's loss
  -1/2 (Mcal dq', dq') computed here with the reference's mass matrix, the post-impact velocities against the
  reference's projection applied to the FMU's own pre-impact state, the new constraints J q'+ = 0, and that no
  impact gains energy;
- between the changes: the energy and the free rollers' integrals (2.8), constant;
- the number of changes of each wheel: the FMU's counters, the reference's, and the junctions the FMU's wheel
  angles passed.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..plots import FMU_STYLE, REF_STYLE, label, plt, save_figure
from ..references.omni_massive import CASES, OmniMassive, chapter2_experiment, chapter2_parameters
from ..simulate import simulate
from ..verification import Case, CaseResult, Check

PAPER = ('K. V. Gerasimov, "Dynamics of an omni-wheel vehicle with roller inertia and friction", thesis, Moscow State '
         "University (2018), ch. 1-2 (K. V. Gerasimov, A. A. Zobova, PMM 82(4), 2018): massive truncated rollers, "
         "rolling without slipping, an inelastic impact at each change of the contact roller. Reference: the "
         "pseudo-velocity (Tatarinov) equations with the projection nu+ = (V^T M V)^-1 V^T M q'- at each change.")
MODELS = {1: "OmniVehicleImpactSpin", 2: "OmniVehicleImpactStraight", 3: "OmniVehicleImpactTranslationSpin"}
NAMES = {1: "omni_impact_spin", 2: "omni_impact_straight", 3: "omni_impact_translation_spin"}
STOP_TIME, OUTPUT_INTERVAL, FMU_TOLERANCE = 3.0, 0.01, 1e-10
N_WHEELS, N_ROLLERS = 3, 5
N_STATES = 2 * (3 + N_WHEELS + N_WHEELS * N_ROLLERS)  # q and q' of the FMU
# the FMU's parameters (Modelica names) against the reference's (chapter2_parameters keys)
PARAMETERS = {"R": "R", "l": "l", "M": "M", "I_S": "I_S", "J": "J", "B": "B", "Lambda": "Lam"}
ROLLERS = [(i, j) for i in range(1, N_WHEELS + 1) for j in range(1, N_ROLLERS + 1)]
EPS = np.finfo(float).eps
SYMMETRY_ZERO = 1e-9  # largest magnitude of a signal that is zero by symmetry, made of rounding errors only


# ---------------------------------------------------------------------------------------------------- FMU runs
def fmu_outputs(angles: bool = False) -> list[str]:
    """The FMU variables a chapter-2 run records (``angles``: the roller angles phi too, FMU states)."""
    names = ["x", "y", "theta", "vx", "vy", "omega", "nu[1]", "nu[2]", "nu[3]", "kineticEnergy", "impacts"]
    for i in range(1, N_WHEELS + 1):
        names += [f"wheelAngle[{i}]", f"wheelRate[{i}]", f"tilt[{i}]", f"contactRoller[{i}]", f"changes[{i}]",
                  f"slip[{i}]"]
    names += [f"rollerRate[{i},{j}]" for i, j in ROLLERS] + [f"rollerSpin[{i},{j}]" for i, j in ROLLERS]
    return names + ([f"phi[{i},{j}]" for i, j in ROLLERS] if angles else [])


def run_fmu(case: int, stop_time: float = STOP_TIME, output_interval: float = OUTPUT_INTERVAL,
            tolerance: float = FMU_TOLERANCE, parameters: dict | None = None, angles: bool = False) -> pd.DataFrame:
    """The example FMU of a chapter-2 case (an event gives two rows at its time: before and after)."""
    return simulate(MODELS[case], parameters or {}, stop_time=stop_time, output_interval=output_interval,
                    tolerance=tolerance, outputs=fmu_outputs(angles))


def reference_columns(fmu: pd.DataFrame, R: float) -> pd.DataFrame:
    """The FMU's rows in the columns of ``OmniMassive.columns()`` (``nonholonomic chapter2``'s CSV), every row kept."""
    out = {"time": fmu["time"], "x": fmu["x"], "y": fmu["y"], "theta": fmu["theta"], "nu1": fmu["nu[1]"],
           "nu2": fmu["nu[2]"], "nu3": fmu["nu[3]"], "v": R * np.hypot(fmu["nu[1]"], fmu["nu[2]"]),
           "T": fmu["kineticEnergy"]}
    for kind, name in (("chi", "wheelAngle"), ("dchi", "wheelRate"), ("psi", "tilt"), ("contact", "contactRoller")):
        for i in range(1, N_WHEELS + 1):
            out[f"{kind}{i}"] = fmu[f"{name}[{i}]"]
    for i, j in ROLLERS:
        if f"phi[{i},{j}]" in fmu:
            out[f"phi{i}_{j}"] = fmu[f"phi[{i},{j}]"]
    for i, j in ROLLERS:
        out[f"dphi{i}_{j}"] = fmu[f"rollerRate[{i},{j}]"]
    frame = pd.DataFrame(out)
    for i in range(1, N_WHEELS + 1):  # as the reference's (1-based roller indices)
        frame[f"contact{i}"] = frame[f"contact{i}"].astype(int)
    return frame


def coordinates(row) -> tuple[np.ndarray, np.ndarray]:
    """(q, q') of the reference's OmniMassive from one FMU row (the roller angles do not enter Mcal or J: zero
    unless recorded)."""
    chi = [row[f"wheelAngle[{i}]"] for i in range(1, N_WHEELS + 1)]
    phi = [row.get(f"phi[{i},{j}]", 0.0) for i, j in ROLLERS]
    q = np.array([row["x"], row["y"], row["theta"], *chi, *phi], dtype=float)
    qd = np.array([row["vx"], row["vy"], row["omega"], *[row[f"wheelRate[{i}]"] for i in range(1, N_WHEELS + 1)],
                   *[row[f"rollerRate[{i},{j}]"] for i, j in ROLLERS]], dtype=float)
    return q, qd


def contacts(row) -> np.ndarray:
    """0-based contact rollers (the reference's convention) of one FMU row."""
    return np.array([int(round(row[f"contactRoller[{i}]"])) - 1 for i in range(1, N_WHEELS + 1)])


def events(fmu: pd.DataFrame) -> list[tuple[int, int]]:
    """(first, last) row index of every event with a roller change: the rows before and after it share its time
    (an event that changes nothing, such as a wheel that changed within the switching tolerance leaving its
    junction a few ulp later, can add rows at the same time)."""
    t = fmu["time"].to_numpy()
    out, k = [], 0
    while k < len(t) - 1:
        end = k
        while end + 1 < len(t) and t[end + 1] == t[k]:
            end += 1
        if end > k and fmu["impacts"].iloc[end] != fmu["impacts"].iloc[k]:
            out.append((k, end))
        k = end + 1
    return out


def impacts(fmu: pd.DataFrame, model: OmniMassive) -> list[dict]:
    """Every roller change of an FMU run from its rows before and after: time, wheels that changed (1-based),
    T before and after, Carnot's loss 1/2 (Mcal dq', dq') with the reference's Mcal, and checks against the
    reference's impact law on the FMU's own pre-impact state (``velocity_error``: max |q'+ FMU - q'+ reference|;
    ``constraint_residual``: max |J_new q'+| of the FMU's q'+; ``kkt_condition``: of the impact's linear system)."""
    out = []
    for first, last in events(fmu):
        before, after = fmu.iloc[first], fmu.iloc[last]
        q, qd_minus = coordinates(before)
        _, qd_plus = coordinates(after)
        old, new = contacts(before), contacts(after)
        Mc = model.mass_matrix(q)
        dq = qd_plus - qd_minus
        Jn = model.constraint_jacobian(q, new)
        reference = model.impact(q, qd_minus, new)
        kkt = np.block([[Mc, Jn.T], [Jn, np.zeros((Jn.shape[0], Jn.shape[0]))]])
        out.append({"time": float(before["time"]), "wheels": [int(i) + 1 for i in np.flatnonzero(old != new)],
                    "contact_before": [int(c) + 1 for c in old], "contact_after": [int(c) + 1 for c in new],
                    "T_before": float(before["kineticEnergy"]), "T_after": float(after["kineticEnergy"]),
                    "carnot": float(0.5 * dq @ Mc @ dq), "speed": float(np.max(np.abs(qd_minus))),
                    "velocity_error": float(np.max(np.abs(qd_plus - reference["qdot"]))),
                    "constraint_residual": float(np.max(np.abs(Jn @ qd_plus))),
                    "kkt_condition": float(np.linalg.cond(kkt))})
    return out


def segments(fmu: pd.DataFrame) -> list[pd.DataFrame]:
    """The rows between consecutive roller changes (each segment from the row after a change to the row before
    the next)."""
    bounds = [0] + [b for first, last in events(fmu) for b in (first + 1, last)] + [len(fmu)]
    return [fmu.iloc[a:b] for a, b in zip(bounds[::2], bounds[1::2]) if b > a]


def junctions_passed(fmu: pd.DataFrame, n: int = N_ROLLERS) -> list[int]:
    """Junctions each wheel passed, from its sampled angle alone: they lie at chi = pi/n + 2 pi k/n, so the sector
    index floor((chi + pi/n) / (2 pi/n)) changes by one at each (the rows are dense enough that no wheel turns by
    a whole sector between two of them)."""
    out = []
    for i in range(1, N_WHEELS + 1):
        sector = np.floor((fmu[f"wheelAngle[{i}]"].to_numpy() + math.pi / n) / (2 * math.pi / n))
        out.append(int(np.sum(np.abs(np.diff(sector)))))
    return out


def grid_rows(fmu: pd.DataFrame, interval: float) -> pd.DataFrame:
    """The FMU's rows at the output times (not at an event)."""
    t = fmu["time"].to_numpy()
    repeated = fmu["time"].duplicated(keep=False).to_numpy()
    on_grid = np.abs(t / interval - np.round(t / interval)) < 1e-6
    return fmu[on_grid & ~repeated].reset_index(drop=True)


def integration_bound(steps: int, scale: float, tolerance: float = FMU_TOLERANCE) -> float:
    """Global error bound of a CVODE run on a signal of magnitude ``scale``: the local error of each step is held
    below sqrt(n_x) (atol + rtol |x|) (weighted RMS norm <= 1, atol = rtol x nominal 1), and the global error is
    at most their sum over the steps (no amplification: over the few seconds of a case the instability of the
    symmetric spin, e-fold per second, stays far inside the slack of this sum, whose local errors are in practice
    orders below their limit; the errors measured against the reference are up to 0.3 of twice this bound)."""
    return steps * math.sqrt(N_STATES) * tolerance * (1.0 + scale)


# ---------------------------------------------------------------------------------------------------- the case
SIGNALS = {"x": "x", "y": "y", "theta": "theta", "nu1": "nu[1]", "nu2": "nu[2]", "nu3": "nu[3]",
           "T": "kineticEnergy", **{f"chi{i}": f"wheelAngle[{i}]" for i in range(1, N_WHEELS + 1)},
           **{f"dchi{i}": f"wheelRate[{i}]" for i in range(1, N_WHEELS + 1)},
           **{f"dphi{i}_{j}": f"rollerRate[{i},{j}]" for i, j in ROLLERS}}
UNITS = {"x": "m", "y": "m", "theta": "rad", "nu1": "1/s", "nu2": "1/s", "nu3": "1/s", "T": "J",
         **{f"chi{i}": "rad" for i in range(1, N_WHEELS + 1)}, **{f"dchi{i}": "rad/s" for i in range(1, N_WHEELS + 1)},
         **{f"dphi{i}_{j}": "rad/s" for i, j in ROLLERS}}


class ImpactCase(Case):
    """One initial condition of ch. 2: the FMU against the reference, the impacts against Carnot and the reference's
    projection, the integrals between the impacts, the changes per wheel."""
    units = UNITS

    def __init__(self, case: int, stop_time: float = STOP_TIME):
        self.case, self.stop_time = case, stop_time
        nu = CASES[case]
        what = {1: "spinning in place: the three wheels change together, one impact each time",
                2: "moving straight along wheel 1's axle: wheels 2 and 3 change together, wheel 1 never",
                3: "translating and spinning: the wheels change one at a time"}[case]
        super().__init__(NAMES[case], MODELS[case],
                         f"Omni vehicle with massive rollers and impacts (ch. 2, initial data {case}, nu(0) = "
                         f"{tuple(float(v) for v in nu)}), {stop_time:g} s, {what}. FMU (Lagrange multipliers, "
                         "when/reinit) against the pseudo-velocity reference; Carnot's loss at each impact; "
                         "energy and the free rollers' integrals (2.8) between impacts; changes per wheel.")

    def execute(self) -> CaseResult:
        params = chapter2_parameters()
        model = OmniMassive(**params)
        raw = run_fmu(self.case, self.stop_time)
        steps = int(raw.attrs["solver"]["steps"])
        reference = chapter2_experiment(self.case, self.stop_time, params, dt=OUTPUT_INTERVAL)
        ref, switches = reference["trajectory"], reference["switches"]
        grid = grid_rows(raw, OUTPUT_INTERVAL)
        ref_at = ref.set_index(np.round(ref["time"].to_numpy() / OUTPUT_INTERVAL).astype(int))
        ref_grid = ref_at.loc[np.round(grid["time"].to_numpy() / OUTPUT_INTERVAL).astype(int)].reset_index(drop=True)
        fmu = pd.DataFrame({"time": grid["time"], **{s: grid[c].to_numpy() for s, c in SIGNALS.items()}})
        rows = []
        for s in SIGNALS:
            err = np.abs(fmu[s].to_numpy() - ref_grid[s].to_numpy())
            scale = float(np.max(np.abs(ref_grid[s].to_numpy())))
            # both runs' integration errors: the FMU's bound (integration_bound), twice for the reference's, whose
            # DOP853 steps hold the same rtol and a hundredfold tighter atol
            bound = 2 * integration_bound(steps, scale)
            max_abs = float(np.max(err))
            # a signal that stays zero by symmetry (the centre in case 1, the heading in case 2) is compared in
            # absolute terms: max_rel and tolerance are then its absolute error and bound
            relative = scale > SYMMETRY_ZERO
            rows.append({"signal": s, "max_abs": max_abs, "max_rel": max_abs / scale if relative else max_abs,
                         "tolerance": bound / scale if relative else bound, "passed": max_abs <= bound})
        errors = pd.DataFrame(rows, columns=["signal", "max_abs", "max_rel", "tolerance", "passed"])
        found = impacts(raw, model)
        checks = self.event_checks(raw, found, switches, steps)
        checks += self.segment_checks(raw, steps)
        checks += self.parameter_checks(params)
        frames = {"fmu": reference_columns(raw, params["R"]), "reference": ref,
                  "impacts_fmu": pd.DataFrame(found).drop(columns=["contact_before", "contact_after"]),
                  "impacts_reference": pd.DataFrame([{k: v for k, v in s.items() if not k.startswith("nu_")}
                                                     for s in switches])}
        return CaseResult(self, errors, checks, frames)

    def event_checks(self, raw: pd.DataFrame, found: list[dict], switches: list[dict], steps: int) -> list[Check]:
        """The impacts ``found`` in the FMU's run (:func:`impacts`) against the reference's ``switches``."""
        checks = [Check("impacts: |FMU - reference| (count)", abs(len(found) - len(switches)), 0)]
        per_wheel_ref = [sum(i in s["wheels"] for s in switches) for i in range(1, N_WHEELS + 1)]
        last = raw.iloc[-1]
        counters = [int(last[f"changes[{i}]"]) for i in range(1, N_WHEELS + 1)]
        passed = junctions_passed(raw)
        checks.append(Check(f"changes per wheel: max |FMU counter - reference| (FMU {counters}, reference "
                            f"{per_wheel_ref})", max(abs(a - b) for a, b in zip(counters, per_wheel_ref)), 0))
        checks.append(Check(f"changes per wheel: max |FMU counter - junctions its wheel angle passed| ({passed})",
                            max(abs(a - b) for a, b in zip(counters, passed)), 0))
        simultaneous = [sorted(f["wheels"]) == sorted(s["wheels"]) for f, s in zip(found, switches)]
        checks.append(Check("impacts whose changing wheels differ from the reference's (simultaneous changes: one "
                            "impact)", float(len(simultaneous) - sum(simultaneous)), 0))
        if not found or len(found) != len(switches):
            return checks
        # a change time moves by the wheel angle's integration error over the wheel's rate at the junction
        rates = [min(abs(float(raw[f"wheelRate[{i}]"][raw["time"] == f["time"]].iloc[0])) for i in f["wheels"])
                 for f in found]
        chi_scale = float(max(np.max(np.abs(raw[f"wheelAngle[{i}]"])) for i in range(1, N_WHEELS + 1)))
        times = np.abs(np.array([f["time"] for f in found]) - np.array([s["time"] for s in switches]))
        checks.append(Check("change times: max |FMU - reference| [s] (bound: twice the wheel angle's integration bound "
                            "over the wheel's rate there)", float(np.max(times)),
                            2 * integration_bound(steps, chi_scale) / min(rates)))
        # Carnot: the jump T+ - T- equals -1/2 (Mcal dq', dq') exactly when M dq' lies in the range of J_new^T and
        # J_new q'+ = 0; the FMU solves that linear system by a sparse LU: round-off of its condition number times
        # 64 ulp of the energy
        worst = max(abs(f["T_after"] - f["T_before"] + f["carnot"]) / f["T_before"] for f in found)
        cond = max(f["kkt_condition"] for f in found)
        checks.append(Check("impacts: max |T+ - T- + 1/2 (Mcal dq', dq')| / T- (Carnot, Mcal of the reference)",
                            float(worst), cond * 64 * EPS))
        checks.append(Check("impacts: max (T+ - T-) / T- (no impact gains energy)",
                            float(max((f["T_after"] - f["T_before"]) / f["T_before"] for f in found)), 64 * EPS))
        checks.append(Check("impacts: max |q'+ FMU - reference's projection of the FMU's q'-| / max |q'-|",
                            float(max(f["velocity_error"] / f["speed"] for f in found)), cond * 64 * EPS))
        checks.append(Check("impacts: max |J_new q'+| / max |q'-| (on the new constraints)",
                            float(max(f["constraint_residual"] / f["speed"] for f in found)), cond * 64 * EPS))
        drops = np.array([f["T_before"] - f["T_after"] for f in found])
        ref_drops = np.array([s["T_before"] - s["T_after"] for s in switches])
        checks.append(Check("impacts: max |energy lost FMU - reference| / T(0)", float(np.max(np.abs(drops - ref_drops))
                                                                                / raw["kineticEnergy"].iloc[0]),
                            2 * integration_bound(steps, 1.0)))
        return checks

    def segment_checks(self, raw: pd.DataFrame, steps: int) -> list[Check]:
        energy, spins = 0.0, 0.0
        spin_scale = float(max(np.max(np.abs(raw[f"rollerSpin[{i},{j}]"])) for i, j in ROLLERS))
        T0 = float(raw["kineticEnergy"].iloc[0])
        for seg in segments(raw):
            energy = max(energy, float(np.max(np.abs(seg["kineticEnergy"] - seg["kineticEnergy"].iloc[0]))) / T0)
            for i, j in ROLLERS:
                free = (seg[f"contactRoller[{i}]"] != j).to_numpy()
                if free.all():
                    s = seg[f"rollerSpin[{i},{j}]"].to_numpy()
                    spins = max(spins, float(np.max(np.abs(s - s[0]))))
        # T is quadratic in the velocities: its relative error is at most twice theirs (the integration bound with
        # the velocities' magnitude 1 of the nominal); (2.8): the spins' integration bound
        return [Check("between impacts: max |T - T(segment start)| / T(0)", energy, 2 * integration_bound(steps, 1.0)),
                Check("between impacts: max drift of the free rollers' spins (2.8) [rad/s]", spins,
                      integration_bound(steps, spin_scale)),
                # the constraints' drift is integration error of the velocities, damped by Baumgarte's term
                Check("max slip at the contacts [m/s]", float(max(np.max(raw[f"slip[{i}]"])
                                                                  for i in range(1, N_WHEELS + 1))),
                      integration_bound(steps, 1.0))]

    def parameter_checks(self, params: dict) -> list[Check]:
        from ..fmu import fmu_path, model_description
        starts = {v.name: v.start for v in model_description(fmu_path(self.model)).modelVariables}
        worst = max(abs(float(starts[name]) - params[key]) / abs(params[key]) for name, key in PARAMETERS.items())
        # the FMU's defaults are the literals of chapter2_parameters(): equal to the last digit printed
        return [Check("FMU defaults vs chapter2_parameters(): max relative difference (R, l, M, I_S, J, B, Lambda)",
                      float(worst), 64 * EPS)]

    def plot(self, result: CaseResult, out_dir) -> list:
        return plot_case(result.frames["fmu"], result.frames["reference"], result.frames["impacts_fmu"],
                         f"{self.name}: nu(0) = {CASES[self.case]}", out_dir)


def plot_case(fmu: pd.DataFrame, ref: pd.DataFrame, found: pd.DataFrame, title: str, out_dir) -> list:
    """Energy staircase (FMU with every row, the reference on its grid, the impacts marked), nu3 and the speed, and
    the path of S (FMU and reference)."""
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.4))
    ax = axes[0]
    ax.plot(fmu["time"], fmu["T"], drawstyle="steps-post", **FMU_STYLE)
    ax.plot(ref["time"], ref["T"], **REF_STYLE)
    if len(found):
        ax.plot(found["time"], found["T_after"], "v", color="tab:red", ms=4, label="impact (after)")
    ax.set_xlabel(label("t", "s"))
    ax.set_ylabel(label("kinetic energy T", "J"))
    ax.set_title("energy staircase")
    ax = axes[1]
    ax.plot(fmu["time"], fmu["nu3"], **FMU_STYLE)
    ax.plot(ref["time"], ref["nu3"], **REF_STYLE)
    ax.plot(fmu["time"], fmu["v"], color="tab:green", lw=1.2, label="speed of S, FMU [m/s]")
    ax.set_xlabel(label("t", "s"))
    ax.set_ylabel(label("nu3 = Lambda theta'", "1/s"))
    ax.set_title("platform spin nu3 and speed of S")
    ax = axes[2]
    extent = max(np.ptp(fmu["x"]), np.ptp(fmu["y"]), np.ptp(ref["x"]), np.ptp(ref["y"]))
    if extent > SYMMETRY_ZERO:
        ax.plot(fmu["x"], fmu["y"], **FMU_STYLE)
        ax.plot(ref["x"], ref["y"], **REF_STYLE)
        ax.set_aspect("equal", adjustable="datalim")
    else:  # a path of rounding noise is no signal: say that S stays put instead of drawing it
        ax.text(0.5, 0.6, f"S stays at its start:\nits path spans {extent:.1e} m,\nround-off", ha="center",
                transform=ax.transAxes)
    ax.plot(fmu["x"].iloc[:1], fmu["y"].iloc[:1], "ko", ms=4, label="start")
    ax.set_xlabel(label("x", "m"))
    ax.set_ylabel(label("y", "m"))
    ax.set_title("path of the centre of mass S")
    for ax in axes:
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(title)
    return [save_figure(fig, out_dir / "energy_path.png")]


def cases() -> list[Case]:
    return [ImpactCase(case) for case in (1, 2, 3)]
