"""Verification cases of the compliant contacts and the tippe-top: Modelica ``Contacts.SphereOnPlaneElastic``,
``Contacts.PatchFriction`` and ``Examples.TippeTop``; references ``nonholonomic.references.contact_patch`` (the
friction wrench over a Hertz patch by quadrature) and ``nonholonomic.references.tippe_top`` (the top as a rigid
body with both compliant contacts).

* ``friction_laws``: every approximate law against the exact wrench over u in [0, inf) (the table of errors), and
  the exact law's closed forms (used by the Modelica model) against the quadrature.
* ``tippe_top_wrench``: the FMU's state derivatives against the reference's right-hand side at states sampled
  along a run, for each law: the Modelica contact computes the same wrench as the Python law.
* ``tippe_top_<law>``: FMU against reference over the inversion, with tolerances from the reference's own
  sensitivity to its integration tolerance; the inversion and head-touch times.
* ``tippe_top_frictionless``: mu = 0, no inversion.
* ``tippe_top_sensitivity``: the inversion time against mu, spin, initial tilt, law, eps and d (FMU runs: a study
  of each parameter, :func:`nonholonomic.study` on a local Dask cluster, kept under verify's folder).
"""

from __future__ import annotations

import math
import pathlib

import numpy as np
import pandas as pd

from ..fmu import state_derivatives
from ..plots import FMU_STYLE, REF_STYLE, label, plt, save_figure, tippe_top_animation
from ..references import contact_patch
from ..references.tippe_top import STATE, TippeTop, head_touch_time, inversion_time
from ..simulate import simulate
from ..verification import CaseResult, Check, TrajectoryCase, no_signals
from ..verification.case import Case, compare
from .common import StudyCase

PAPER = ('R. I. Leine, Ch. Glocker, "A set-valued force law for spatial Coulomb-Contensou friction", Eur. J. Mech. '
         "A/Solids 22(2) (2003) 193-216 (the tippe-top); P. Contensou (1963) and V. F. Zhuravlev, PMM 62(5) (1998) "
         "(friction over a contact patch); I. I. Kosenko, E. B. Aleksandrov (2009, wood, the Contensou approximation "
         "in Modelica); seed 002, sections 5-6. References: the exact wrench over a Hertz patch by quadrature, and the "
         "top as a rigid body with both compliant contacts, written from Newton-Euler.")
LAWS = dict(enumerate(contact_patch.LAWS, start=1))  # Modelica frictionLaw -> name
STOP_TIME, INTERVAL = 3.0, 0.002  # every law but the point contact turns the top over by 2 s
FMU_RTOL, REF_RTOL, PROBE_RTOL = 1e-10, 1e-10, 1e-7
SIGNALS = ("theta", "height", "spin", "energy")
GEOMETRY = dict(R1=0.015, e1=0.003, R2=0.005, e2=0.016)  # the example's defaults (Leine and Glocker's top)


class FrictionLawsCase(Case):
    """The approximation error of each law over u in [0, inf), and the exact law's closed forms (the Modelica
    model's) against the independent quadrature about the instantaneous centre of rotation."""

    def __init__(self):
        super().__init__("friction_laws", "TippeTop", "Friction over a Hertz contact patch: the point-contact, "
                         "Contensou-Zhuravlev and ellipsoidal (Leine-Glocker) laws against the exact integral of "
                         "Coulomb's law, f(u) = |F|/(mu N), g(u) = |M|/(mu N a), u = |v|/(a |spin|).")

    def execute(self) -> CaseResult:
        table = pd.DataFrame(contact_patch.approximation_errors())
        u = np.concatenate([np.linspace(0, 1, 201), np.geomspace(1.0001, 1e6, 400)])
        closed = np.array(contact_patch.exact_fg_fast(u))
        quadrature = np.array(contact_patch.exact_fg(u))
        pi = math.pi
        curves = pd.DataFrame({"u": u, **{f"{k}_{law}": v for law, (f, g) in contact_patch.wrench_curves(u).items()
                                          for k, v in (("f", f), ("g", g))}})
        checks = [
            # quad about the instantaneous centre runs at QUAD_TOL on each of two halves
            Check("exact law: closed forms vs quadrature, max |difference| over u", float(np.max(np.abs(
                closed - quadrature))), 4 * contact_patch.QUAD_TOL),
            # single formulas evaluated once: a few ulps
            Check("exact law: |g(0) - 3 pi/16| (pure spin)", abs(float(contact_patch.exact_fg(0.0)[1]) - 3 * pi / 16),
                  4 * contact_patch.QUAD_TOL),
            Check("exact law: |f(u)/u - 3 pi/8| at u = 1e-6 (small slip)", abs(
                float(contact_patch.exact_fg(1e-6)[0]) / 1e-6 - 3 * pi / 8), 1e-6),
            Check("exact law: |5 u g(u) - 1| at u = 1e6 (large slip)", abs(
                5e6 * float(contact_patch.exact_fg(1e6)[1]) - 1), 1e-6)]
        for law in ("contensou", "ellipsoid"):
            _, g0 = contact_patch.law_fg(law, 0.0)
            checks.append(Check(f"{law}: |g(0) - 3 pi/16| (exact in pure spin)", abs(float(g0) - 3 * pi / 16), 1e-15))
        return CaseResult(self, no_signals(), checks, {"approximation_errors": table, "curves": curves})

    def plot(self, result, out_dir):
        return [friction_law_plot(result.frames["curves"], out_dir / "friction_laws.png")]


class WrenchCase(Case):
    """The FMU's state derivatives against the reference's right-hand side at states sampled from a reference run
    of each law (body sphere alone, both spheres, head alone)."""

    def __init__(self):
        super().__init__("tippe_top_wrench", "TippeTop", "The Modelica contacts against the Python friction laws: "
                         "state derivatives of the FMU and of the reference at 81 states along a run (body sphere "
                         "sliding, head touching, both), for each of the four laws.")

    def execute(self) -> CaseResult:
        checks, rows = [], []
        for number, law in LAWS.items():
            reference = TippeTop(law=law)
            run = reference.simulate(np.linspace(0.0, STOP_TIME, 81), rtol=1e-8)
            states = run[list(STATE)].to_numpy().copy()
            states[:, 6:10] /= np.linalg.norm(states[:, 6:10], axis=1, keepdims=True)  # both sides see |q| = 1
            fmu = state_derivatives("TippeTop", {"frictionLaw": number}, states[:, :13])
            ref = np.array([reference.rhs(0.0, y)[:13] for y in states])
            groups = {"dv/dt": slice(3, 6), "dQ/dt": slice(6, 10), "dw_b/dt": slice(10, 13)}
            for name, s in groups.items():
                worst = float(np.max(np.abs(fmu[:, s] - ref[:, s])) / np.max(np.abs(ref[:, s])))
                rows.append({"law": law, "derivative": name, "max_rel": worst})
                # The contact force is a function of the penetration delta = R - c_z, a difference of numbers of size
                # R1 = 15 mm leaving ~1.7e-7 m: the two sides' round-off in c_z (ulps of R1, computed in different
                # orders) is amplified by R1/delta ~ 1e5 and by 1.5 in delta^1.5: 64 ulps x 1e5 x 1.5 = 2e-9 per
                # force term, times 10 for the terms summed in a derivative (measured: <= 1e-10)
                checks.append(Check(f"{law}: max |{name} FMU - reference| / max |{name}|", worst,
                                    64 * np.finfo(float).eps * 1e5 * 1.5 * 10))
        return CaseResult(self, no_signals(), checks, {"derivatives": pd.DataFrame(rows)})


class TippeTopCase(Case):
    """FMU against reference for one friction law over the inversion."""
    signals = SIGNALS

    def __init__(self, law: int, parameters: dict | None = None, name: str | None = None, description: str = ""):
        self.law, self.parameters = law, dict(parameters or {})
        super().__init__(name or f"tippe_top_{LAWS[law]}", "TippeTop", description or (
            f"Tippe-top of Leine and Glocker (tilt 0.1 rad, spin 180 rad/s, mu = 0.3, wood) with the {LAWS[law]} law, "
            f"{STOP_TIME:g} s: FMU against the reference; inversion time and first touch of the head."))

    def fmu_parameters(self) -> dict:
        names = dict(mu="mu", eps="eps", d="d", theta0="theta_0", spin0="spin_0", E="E", nu="nu")
        return {"frictionLaw": self.law, **{names[k]: v for k, v in self.parameters.items()}}

    def execute(self) -> CaseResult:
        t = np.arange(0.0, STOP_TIME + INTERVAL / 2, INTERVAL)
        reference = TippeTop(law=LAWS[self.law], **self.parameters)
        ref = reference.simulate(t, rtol=REF_RTOL)
        probe = reference.simulate(t, rtol=PROBE_RTOL)
        raw = simulate("TippeTop", self.fmu_parameters(), stop_time=STOP_TIME, output_interval=INTERVAL,
                       tolerance=FMU_RTOL)
        fmu = raw.copy()
        # the FMU's energy is kinetic + gravity + elastic; the reference's column energy leaves the elastic part out
        ref["energy"] = ref["energy"] + ref["elastic"]
        probe["energy"] = probe["energy"] + probe["elastic"]
        # Tolerance of each signal: the reference's own change from rtol 1e-7 to rtol 1e-10 (its sensitivity to
        # integration error, large near the inversion), relative to the signal's size; the FMU at rtol 1e-10 must
        # be at least as close. Floor: 1e-7 relative (both solvers' error at 1e-10 over ~1e5 steps).
        sensitivity = compare(probe, ref, SIGNALS, 0.0)
        errors = compare(fmu, ref, SIGNALS, 0.0)
        errors["tolerance"] = np.maximum(sensitivity["max_rel"].to_numpy(), 1e-7)
        errors["passed"] = errors["max_rel"] <= errors["tolerance"]
        t_fmu, t_ref, t_probe = inversion_time(fmu), inversion_time(ref), inversion_time(probe)
        h_fmu = _first_touch(fmu)
        h_ref = head_touch_time(ref)
        checks = []
        if self.parameters.get("mu", 0.3) == 0:
            checks.append(Check("mu = 0: largest tilt of the FMU run [rad] (no inversion; starts at 0.1)",
                                float(fmu["theta"].max()), 0.1 + 1e-3))
        elif math.isnan(t_ref):
            checks.append(Check("reference inverts (theta > 0.95 pi) within the run", 1.0, 0.0))
        else:
            # inversion time: ten times the reference's own change between its two tolerances, floor one microsecond
            checks.append(Check("|inversion time FMU - reference| [s]", abs(t_fmu - t_ref) if not math.isnan(t_fmu)
                                else math.inf, max(10 * abs(t_probe - t_ref), 1e-6)))
            # the FMU has N2 > 0 at the first output sample after the touch: one output interval
            checks.append(Check("|first touch of the head FMU - reference| [s]", abs(h_fmu - h_ref), INTERVAL))
        # energy never increases (dissipation >= 0): any rise is integration error; bound 1000 tolerance units
        # (rtol x energy), the local errors of a stretch of steps adding up
        checks.append(Check("FMU energy: largest rise over any interval [J]", _largest_rise(fmu["energy"]),
                            1e3 * FMU_RTOL * float(fmu["energy"].abs().max())))
        fmu.attrs["inversion_time"], ref.attrs["inversion_time"] = t_fmu, t_ref
        return CaseResult(self, errors, checks, {"fmu": fmu, "reference": ref})

    def plot(self, result, out_dir):
        files = tippe_top_plots(self.name, result.frames["fmu"], result.frames["reference"], out_dir)
        if self.law == 2 and not self.parameters:  # one animation: the default top
            files.append(tippe_top_animation(result.frames["fmu"], GEOMETRY, out_dir / "tippe_top.gif", max_frames=100,
                                             title="tippe-top (FMU, Contensou-Zhuravlev law)"))
        return files


def at_law(table: pd.DataFrame, law: int, eps: float, column: str) -> float:
    """``column`` of the sensitivity table's run of one law at one regularisation (other parameters default)."""
    rows = table[(table.frictionLaw == law) & (((table.parameter == "eps") & (table.value == eps))
                                               | ((table.parameter == "frictionLaw") & (eps == 1e-4)))]
    return float(rows[column].iloc[0])


def _first_touch(frame: pd.DataFrame) -> float:
    touching = np.flatnonzero(frame["N2"].to_numpy() > 0)
    return float(frame["time"].to_numpy()[touching[0]]) if touching.size else math.nan


def _largest_rise(values) -> float:
    """max over s < t of E(t) - E(s): how much a quantity that must never increase rose anywhere."""
    v = np.asarray(values, dtype=float)
    return float(np.max(v - np.minimum.accumulate(v)))


SWEEP = {  # parameter -> values; the others at the Leine-Glocker defaults
    "frictionLaw": (1, 2, 3, 4), "mu": (0.05, 0.1, 0.2, 0.3, 0.5), "spin_0": (100, 140, 180, 220, 300),
    "theta_0": (0.02, 0.05, 0.1, 0.2, 0.5), "eps": (1e-6, 1e-5, 1e-4, 1e-3), "d": (0, 300, 1000, 3000)}
DEFAULTS = dict(frictionLaw=2, mu=0.3, spin_0=180, theta_0=0.1, eps=1e-4, d=1000)  # TippeTop.mo's
SWEEP_STOP = 15.0
SENSITIVITY_METRIC = "nonholonomic.cases.tippe_top:sensitivity_metrics"


def sweep_runs() -> list[dict]:
    """The parameter sets of the sensitivity table: each parameter of SWEEP varied alone (the default law 2 among
    them at four eps), and the other laws at eps = 1e-5 as well as at the default 1e-4."""
    runs = [{name: value} for name, values in SWEEP.items() for value in values]
    return runs + [{"frictionLaw": law, "eps": 1e-5} for law in (1, 3, 4)]


def sensitivity_metrics(frame: pd.DataFrame) -> dict:
    """The sensitivity table's numbers of one run (a study metric, :data:`SENSITIVITY_METRIC`): the inversion
    time (theta > 0.95 pi, interpolated between samples), the head's first touch, the largest and the final tilt,
    and CVODE's right-hand-side evaluations."""
    return {"inversion_time": inversion_time(frame), "head_touch_time": _first_touch(frame),
            "max_theta": float(frame["theta"].max()), "final_theta": float(frame["theta"].iloc[-1]),
            "rhs_evaluations": frame.attrs["solver"]["rhs_evaluations"]}


sensitivity_metrics.unit = dict(inversion_time="s", head_touch_time="s", max_theta="rad", final_theta="rad",
                                rhs_evaluations="1")  # the study's plot labels


def sensitivity_table(study) -> pd.DataFrame:
    """Inversion and head-touch times and the largest tilt of the FMU (rtol 1e-8) for every run of sweep_runs,
    by ``study(group, vary, metrics, stop_time, output_interval, tolerance)`` (:meth:`StudyCase.study`): a study
    of one parameter per parameter of SWEEP, and one of the laws 1, 3 and 4 at eps = 1e-5. The default top (every
    parameter at its DEFAULTS value) is one run, that of frictionLaw = 2: its row stands in each group."""
    settings = dict(stop_time=SWEEP_STOP, output_interval=INTERVAL, tolerance=1e-8)
    metrics = ("inversion_time", "head_touch_time", "max_theta", "final_theta", "rhs_evaluations")
    found = {}  # the runs by their parameters
    for name, values in SWEEP.items():
        others = [v for v in values if v != DEFAULTS[name] or name == "frictionLaw"]
        table = study(name, {name: others}, [SENSITIVITY_METRIC], **settings)
        found.update({((name, float(row[name])),): row for _, row in table.iterrows()})
    table = study("frictionLaw_at_eps_1e-5", {"frictionLaw": [1, 3, 4], "eps": [1e-5]}, [SENSITIVITY_METRIC],
                  **settings)
    found.update({(("frictionLaw", float(row.frictionLaw)), ("eps", 1e-5)): row for _, row in table.iterrows()})
    default = found[(("frictionLaw", 2.0),)]
    rows = []
    for parameters in sweep_runs():
        key = tuple((k, float(v)) for k, v in parameters.items())
        if len(parameters) == 1 and parameters == {k: DEFAULTS[k] for k in parameters}:
            key = (("frictionLaw", 2.0),)
        run = found[key] if key in found else default
        varied = "eps" if "eps" in parameters else next(iter(parameters))
        rows.append({"frictionLaw": int(parameters.get("frictionLaw", 2)), "parameter": varied,
                     "value": parameters[varied], **{m: run[m] for m in metrics}})
    table = pd.DataFrame(rows)
    table["rhs_evaluations"] = table["rhs_evaluations"].astype(int)
    return table


class SensitivityCase(StudyCase):
    """One parameter at a time, each a study (:func:`sensitivity_table`)."""

    def __init__(self):
        super().__init__("tippe_top_sensitivity", "TippeTop", f"Inversion time of the FMU as one parameter varies "
                         f"(law, mu, spin, initial tilt, regularisation eps, damping d), {SWEEP_STOP:g} s runs.")

    def execute(self) -> CaseResult:
        table = sensitivity_table(self.study)
        main = table[table.frictionLaw == 2]
        at = lambda name, value: float(main[(main.parameter == name) & (main.value == value)].inversion_time.iloc[0])  # noqa: E731
        checks = [Check("mu = 0.3, every patch law (2-4) inverts: number that do not", float(sum(
            math.isnan(at_law(table, k, 1e-4, "inversion_time")) for k in (2, 3, 4))), 0.0),
            Check("inversion time falls as mu grows (0.05 -> 0.5): largest rise [s]", float(np.max(np.maximum(
                np.diff([at("mu", m) for m in SWEEP["mu"]]), 0))), 0.0)]
        # The regularisation acts only where the slip is below eps; the slip speeds of the inversion are mm/s and up,
        # so a tenfold smaller eps must leave the inversion time alone: bound 0.1 % of it, a quarter of what a 1 %
        # change of mu does (mu 0.2 -> 0.3 moves it by 25 %, table). The point contact does not turn over at either
        # eps: its slip dies out within 0.5 s and the late motion (a slow rolling nutation) lies inside the
        # regularised band, so only the absence of the inversion is claimed for it.
        checks.append(Check("point contact: runs that turn over (eps = 1e-4, 1e-5)", float(sum(
            not math.isnan(at_law(table, 1, eps, "inversion_time")) for eps in (1e-4, 1e-5))), 0.0))
        for law in (2, 3, 4):
            base = at_law(table, law, 1e-4, "inversion_time")
            checks.append(Check(f"{LAWS[law]}: |inversion time at eps = 1e-5 - at eps = 1e-4| / inversion time",
                                abs(at_law(table, law, 1e-5, "inversion_time") - base) / base, 1e-3))
        return CaseResult(self, no_signals(), checks, {"sensitivity": table})

    def bench_cases(self):
        """The default top, 3 s (through the inversion), with each friction law, against the reference."""
        def reference(law):
            def run(t):
                ref = TippeTop(law=law).simulate(t, rtol=1e-8)
                return ref.assign(energy=ref["energy"] + ref["elastic"])
            return run
        return [TrajectoryCase(f"tippe_top_bench_{name}", "TippeTop", "bench", parameters={"frictionLaw": law},
                               stop_time=STOP_TIME, output_interval=INTERVAL, reference=reference(name),
                               signals=("theta", "height"), fmu_tolerance=1e-8) for law, name in LAWS.items()]

    def plot(self, result, out_dir):
        return [sensitivity_plot(result.frames["sensitivity"], out_dir / "sensitivity.png")]


# ----------------------------------------------------------------------------------------------- plots
def friction_law_plot(curves: pd.DataFrame, path: pathlib.Path) -> pathlib.Path:
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.3))
    u = curves["u"].to_numpy()
    styles = {"point": dict(color="0.5", ls=":"), "contensou": dict(color="tab:blue"),
              "ellipsoid": dict(color="tab:green"), "exact": dict(color="k", lw=2.2, ls="--")}
    for ax, k, title in zip(axes, ("f", "g"), ("friction force f(u) = |F|/(mu N)", "pivoting torque g(u) = |M|/(mu N a)")):
        for law, style in styles.items():
            ax.semilogx(np.maximum(u, 1e-3), curves[f"{k}_{law}"], label=law, **style)
        ax.set_xlim(1e-3, 1e3)
        ax.set_xlabel(label("u = |v|/(a |spin|)", "1"))
        ax.set_ylabel(label(k, "1"))
        ax.set_title(title)
        ax.grid(alpha=0.3, which="both")
        ax.legend(loc="best")
    return save_figure(fig, path)


def tippe_top_plots(name: str, fmu: pd.DataFrame, ref: pd.DataFrame, out_dir: pathlib.Path) -> list[pathlib.Path]:
    t = fmu["time"].to_numpy()
    files = []
    fig, axes = plt.subplots(2, 2, figsize=(12, 7.5))
    ax = axes[0, 0]
    ax.plot(t, fmu["theta"], **FMU_STYLE)
    ax.plot(ref["time"], ref["theta"], **REF_STYLE)
    for frame, style in ((fmu, FMU_STYLE), (ref, REF_STYLE)):
        t_inv = frame.attrs.get("inversion_time", math.nan)
        if not math.isnan(t_inv):
            ax.axvline(t_inv, color=style["color"], ls=":", lw=1)
    ax.axhline(0.95 * math.pi, color="0.6", lw=0.8)
    t_inv = fmu.attrs.get("inversion_time", math.nan)
    ax.set_title("tilt of the symmetry axis" + (f": inverted at {t_inv:.4f} s" if not math.isnan(t_inv) else ""))
    ax.set_xlabel(label("t", "s"))
    ax.set_ylabel(label("theta", "rad"))
    ax.legend(loc="best")
    ax = axes[0, 1]
    ax.plot(t, fmu["N1"], color="tab:blue", label="N1 body sphere (FMU)")
    ax.plot(t, fmu["N2"], color="tab:red", label="N2 head (FMU)")
    ax.plot(ref["time"], ref["N1"], color="k", ls="--", lw=0.8, label="reference")
    ax.plot(ref["time"], ref["N2"], color="k", ls="--", lw=0.8)
    ax.set_xlabel(label("t", "s"))
    ax.set_ylabel(label("normal force", "N"))
    ax.set_title("normal forces")
    ax.legend(loc="best", fontsize=8)
    ax = axes[1, 0]
    ax.plot(t, fmu["energy"], **FMU_STYLE)
    ax.plot(ref["time"], ref["energy"], **REF_STYLE)
    ax.set_xlabel(label("t", "s"))
    ax.set_ylabel(label("energy", "J"))
    ax2 = ax.twinx()
    ax2.plot(t, fmu["jellett"], color="tab:purple", lw=1.2, label="Jellett (FMU)")
    ax2.plot(ref["time"], ref["jellett"], color="k", lw=0.8, ls=":", label="Jellett (reference)")
    ax2.set_ylabel(label("Jellett L.(e1 z - R1 e_z)", "kg.m3/s"))
    ax2.legend(loc="center right", fontsize=8)
    ax.set_title("total energy and Jellett's quantity")
    ax.legend(loc="upper right", fontsize=8)
    ax = axes[1, 1]
    for key, color, text in (("p1_0", "tab:blue", "body sphere"), ("p2_0", "tab:red", "head")):
        touching = fmu["N1" if key == "p1_0" else "N2"].to_numpy() > 0
        x = np.where(touching, fmu[f"{key}[1]"], np.nan)
        y = np.where(touching, fmu[f"{key}[2]"], np.nan)
        ax.plot(1e3 * x, 1e3 * y, color=color, lw=0.8, label=f"patch of the {text} (FMU)")
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_xlabel(label("x", "mm"))
    ax.set_ylabel(label("y", "mm"))
    ax.set_title("path of the contact points on the plane")
    ax.legend(loc="best", fontsize=8)
    for a in axes.flat:
        a.grid(alpha=0.3)
    fig.suptitle(f"{name}: FMU vs reference")
    files.append(save_figure(fig, out_dir / "tippe_top.png"))
    return files


def sensitivity_plot(table: pd.DataFrame, path: pathlib.Path) -> pathlib.Path:
    names = list(SWEEP)
    fig, axes = plt.subplots(2, 3, figsize=(13, 7))
    units = dict(frictionLaw="1", mu="1", spin_0="rad/s", theta_0="rad", eps="m/s", d="s/m")
    for ax, name in zip(axes.flat, names):
        rows = table[(table.parameter == name) & ((table.frictionLaw == 2) | (name == "frictionLaw"))]
        x = rows["value"].to_numpy(dtype=float)
        y = rows["inversion_time"].to_numpy(dtype=float)
        ax.plot(x, y, "o-", color="tab:blue")
        for xi, yi in zip(x, y):
            if math.isnan(yi):
                ax.plot([xi], [SWEEP_STOP], "x", color="tab:red")
        if name in ("eps",):
            ax.set_xscale("log")
        if name == "frictionLaw":
            ax.set_xticks([1, 2, 3, 4], ["point", "contensou", "ellipsoid", "exact"])
        ax.set_xlabel(label(name, units[name]))
        ax.set_ylabel(label("inversion time", "s"))
        ax.set_ylim(0, SWEEP_STOP * 1.05)
        ax.grid(alpha=0.3)
    fig.suptitle(f"Tippe-top: time to turn over (theta > 0.95 pi); x at {SWEEP_STOP:g} s: no inversion")
    return save_figure(fig, path)


def cases() -> list:
    return [FrictionLawsCase(), WrenchCase()] + [TippeTopCase(law) for law in (2, 3, 4)] + [
        TippeTopCase(2, {"mu": 0.0}, "tippe_top_frictionless", "Tippe-top with mu = 0 (Contensou law inactive): no "
                     "inversion; FMU against the reference."), SensitivityCase()]
