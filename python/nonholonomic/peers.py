"""MuJoCo beside the project's loop (``nonholonomic bench --peers``, issue 26 item 8): cost against accuracy.

The tippe-top and the rolling disk run in MuJoCo (an optional dependency: ``pip install .[peers]``) at its
defaults and at settings chosen to match our accuracy, and in the project's CVODE loop on ``fmus/TippeTop.fmu`` and
``fmus/RollingDisk.fmu`` at several tolerances. Cost: CPU seconds (``time.process_time``, from the model to its
last state: MuJoCo's compilation of the MJCF string and our loading of the FMU included) per simulated second,
the median of three runs where a run takes under half a second. Accuracy against a truth that is neither peer's:

* tippe-top: the inversion time (the tilt first past 0.95 pi, sampled every 2 ms by both) against our loop at
  rtol 1e-10 (the tolerance of the verification case ``tippe_top_contensou``, which checks it against the Python
  reference: 1.59712 s);
* rolling disk: the energy drift max |E - E(0)| / E(0) (the energy is an integral of the motion), the RMS speed of
  the material point at the contact (zero when rolling without slipping) and the largest distance of the contact
  point from the reference's path (``references.rolling_disk``, DOP853 at rtol 1e-11) over 10 s.

Both MuJoCo models are built as MJCF strings from the parameters in the FMU's model description (the Modelica
example's defaults): mass, central inertia, geometry, friction, gravity and the initial state are the same. What
cannot be the same:

* MuJoCo's contacts are soft constraints (``solref``, ``solimp``): penetration, and slip while rolling (creep in
  proportion to the friction force), where our disk's rolling is an exact constraint and our top's contact Hertz's
  law with Hunt-Crossley damping.
* MuJoCo's friction is a cone over the contact force and torques with constant coefficients. The top's friction
  over its Hertz patch (the Contensou-Zhuravlev law: a torque mu N a g(u) coupled with the sliding, a the patch
  radius, growing as N^(1/3)) becomes an elliptic cone with a torsional coefficient (a length, the torque per
  newton) fixed at the resting patch: mu (3 pi / 16) a = 9.0e-6 m for the default top, below MuJoCo's floor of
  1e-5 (mjMINMU; every friction coefficient is raised to it). Our regularisation of Coulomb's law (eps) has no
  counterpart.
* MuJoCo has no thin disk: a cylinder of half-height ``DISK_HALF_HEIGHT`` (10 um, against the radius of 0.1 m)
  rolls on its lower rim; the body starts moved by that half-height along its axis so that the rim touches where
  our disk does.
"""

from __future__ import annotations

import math
import pathlib
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .bench import REPEAT_BELOW, _markdown, median_cpu, rows_kept
from .errors import NonholonomicError
from .fmu import initialised_instance
from .references.common import quaternion_to_matrix
from .references.rolling_disk import RollingDisk, contact_point
from .references.tippe_top import TippeTop, inversion_time
from .simulate import simulate

MJ_MIN_MU = 1e-5  # MuJoCo's mjMINMU: no friction coefficient of a contact is smaller
DISK_HALF_HEIGHT = 1e-5  # m: the cylinder standing for the thin disk (MuJoCo has no disk)
# the disk rolls without slipping: its friction force needs at most 0.17 N per newton of load on the default
# run (the reference's contact force), so mu = 1 keeps it inside MuJoCo's cone; our model has no sliding at all
DISK_MU = 1.0
TOP_STOP, TOP_INTERVAL = 3.0, 0.002  # the verification case's run: the top turns over by 2 s
DISK_STOP, DISK_INTERVAL = 10.0, 0.01  # the example's experiment: 15 m of path
TOP_TRUTH_RTOL = 1e-10
OURS_RTOL = {"TippeTop": (1e-4, 1e-6, 1e-8), "RollingDisk": (1e-4, 1e-6, 1e-8, 1e-10)}
# MuJoCo's steps at the matched settings: the last of each halves or more the one before, which shows whether
# the error still falls with the step (it does on the disk; on the top it has converged to the wrong value)
MATCHED_STEPS = {"TippeTop": (5e-5, 2e-5, 1e-5, 5e-6), "RollingDisk": (1e-4, 5e-5, 2e-5)}
BASELINE_RTOL = 1e-6  # our run in the sentences of peers.md: its errors are already far below MuJoCo's best
WRONG = 10  # a run whose every error is more than this many times ours is called wrong
TOP_ERRORS = ("inversion time error [s]",)
DISK_ERRORS = ("energy drift", "contact slip RMS [m/s]", "path deviation [m]")


def require_mujoco():
    """The mujoco module, or one line saying how to install it."""
    try:
        import mujoco
    except ImportError:
        raise NonholonomicError("MuJoCo (the peer of bench --peers) is not installed: pip install .[peers]") from None
    return mujoco


def fmu_parameters(name: str) -> dict[str, float]:
    """The parameters of an example's FMU as it uses them at the Modelica example's defaults: the settable ones
    and the calculated ones (an inertia left at 0 stands for the geometry's, ``A_used``), read from the FMU after
    its initialisation."""
    with initialised_instance(name, name="parameters") as (instance, md, _):
        variables = [v for v in md.modelVariables if v.causality in ("parameter", "calculatedParameter")]
        values = instance.getFloat64([v.valueReference for v in variables])
    return {v.name: value for v, value in zip(variables, values)}


@dataclass(frozen=True)
class Settings:
    """MuJoCo's settings of one run: ``option`` (attributes of <option>) and ``contact`` (of every geom)."""
    label: str
    option: str = ""
    contact: str = ""


def top_settings(p: dict, step: float | None) -> Settings:
    """MuJoCo at its defaults (``step`` None: 2 ms steps of semi-implicit Euler, pyramidal cone, condim 3: no
    torsional friction, solref 0.02 1; only the friction coefficient is the top's), or matched at ``step``:
    implicitfast, an elliptic cone with torsional friction (condim 4; rolling friction, condim 6, would add a
    rolling resistance our top does not have), the contact's stiffness and damping those of the Hertz contact
    linearised at rest (a negative solref gives them directly: omega0^2 and 2 zeta omega0) with an impedance of
    0.99 (solimp: close to a hard constraint, which MuJoCo's stiffness then sets)."""
    if step is None:
        return Settings("MuJoCo defaults", contact=f'friction="{p["mu"]} 0.005 0.0001"')
    osc = _top_reference(p).vertical_oscillation()
    w0, zeta = osc["omega0"], osc["zeta"]
    return Settings(f"MuJoCo matched, step {step:g} s",
                    option=f'timestep="{step!r}" integrator="implicitfast" cone="elliptic"',
                    contact=(f'condim="4" friction="{p["mu"]!r} {top_torsional_friction(p)!r} 0" '
                             f'solref="{-w0**2!r} {-2 * zeta * w0!r}" solimp="0.99 0.99 0.001"'))


def disk_settings(step: float | None) -> Settings:
    """MuJoCo at its defaults (``step`` None; friction DISK_MU), or matched at ``step``: implicitfast, an
    elliptic cone with impratio 100 (friction 100 times harder than the normal direction: less creep), condim 3
    (the classical disk pivots freely and rolls without resistance: no torsional or rolling friction), the
    stiffest contact MuJoCo allows at that step (time constant 2 steps, critical damping) at impedance 0.99. Measured
    on the way there: RK4 in place of implicitfast costs four times as much for no less drift and a larger path
    deviation; noslip iterations change nothing once impratio is 100."""
    if step is None:
        return Settings("MuJoCo defaults", contact=f'friction="{DISK_MU}"')
    return Settings(f"MuJoCo matched, step {step:g} s",
                    option=f'timestep="{step!r}" integrator="implicitfast" cone="elliptic" impratio="100"',
                    contact=f'condim="3" friction="{DISK_MU}" solref="{2 * step!r} 1" solimp="0.99 0.99 0.001"')


def _top_reference(p: dict) -> TippeTop:
    return TippeTop(m=p["m"], I1=p["I1"], I2=p["I1"], I3=p["I3"], R1=p["R1"], e1=p["e1"], R2=p["R2"], e2=p["e2"],
                    mu=p["mu"], g=p["g"], E=p["E"], nu=p["nu"], d=p["d"])


def top_torsional_friction(p: dict) -> float:
    """MuJoCo's torsional coefficient for the top: mu g(0) a, the Contensou torque per newton in pure spin
    (g(0) = 3 pi/16) on the body sphere's Hertz patch at rest, a = sqrt(R1 delta0); raised to MuJoCo's floor."""
    a = math.sqrt(p["R1"] * _top_reference(p).static_penetration())
    return max(p["mu"] * 3 * math.pi / 16 * a, MJ_MIN_MU)


def _mjcf(settings: Settings, g: float, body: str) -> str:
    return (f'<mujoco model="peer"><option gravity="0 0 {-g!r}" {settings.option}/>'
            f'<default><geom {settings.contact}/></default>'
            f'<worldbody><geom name="plane" type="plane" size="0 0 1"/>{body}</worldbody></mujoco>')


def _vector(values) -> str:
    return " ".join(repr(float(v)) for v in values)


def tippe_top_mjcf(p: dict, settings: Settings) -> tuple[str, np.ndarray]:
    """The tippe-top as MJCF and its initial qvel: the FMU's initial state (axis tilted by theta_0 about the world
    x axis, spin_0 about it, the body sphere gap_0 above the plane, at rest); the two spheres' centres e1 and e2
    from the centre of mass along the body z axis."""
    th = p["theta_0"]
    pos = (0.0, p["e1"] * math.sin(th), p["R1"] + p["gap_0"] - p["e1"] * math.cos(th))
    body = (f'<body name="top" pos="{_vector(pos)}" quat="{_vector((math.cos(th / 2), math.sin(th / 2), 0, 0))}">'
            f'<freejoint/><inertial pos="0 0 0" mass="{p["m"]!r}" '
            f'diaginertia="{_vector((p["I1"], p["I1"], p["I3"]))}"/>'
            f'<geom name="body_sphere" type="sphere" size="{p["R1"]!r}" pos="0 0 {p["e1"]!r}"/>'
            f'<geom name="head_sphere" type="sphere" size="{p["R2"]!r}" pos="0 0 {p["e2"]!r}"/></body>')
    qvel = np.array([0.0, 0.0, 0.0, 0.0, 0.0, p["spin_0"]])  # a free joint's angular velocity is in body axes
    return _mjcf(settings, p["g"], body), qvel


def disk_model(p: dict) -> RollingDisk:
    return RollingDisk(p["m"], p["R"], p["A_used"], p["C_used"], p["g"])


def disk_state(p: dict) -> np.ndarray:
    """The FMU's initial state as the reference's (Euler angles z-x-z, their rates, the contact point)."""
    return np.array([p[k] for k in ("theta_0", "psi_0", "phi_0", "dtheta_0", "dpsi_0", "dphi_0", "x_0", "y_0")])


def rolling_disk_mjcf(p: dict, settings: Settings) -> tuple[str, np.ndarray]:
    """The rolling disk as MJCF and its initial qvel (the reference's rolling initial state): a cylinder of
    half-height DISK_HALF_HEIGHT moved by it along its axis (upwards), so its lower rim touches the plane at the
    contact point."""
    w = disk_model(p).to_world(disk_state(p))
    T = quaternion_to_matrix(w["Q"])
    shift = DISK_HALF_HEIGHT * math.copysign(1.0, T[2, 2]) * T[:, 2]
    pos = w["r_0"] + shift
    v = w["v_0"] + np.cross(T @ w["w_b"], shift)  # the rim's lowest point at rest: v + w x (P - pos) = 0
    body = (f'<body name="disk" pos="{_vector(pos)}" quat="{_vector(w["Q"])}"><freejoint/>'
            f'<inertial pos="0 0 0" mass="{p["m"]!r}" diaginertia="{_vector((p["A_used"], p["A_used"], p["C_used"]))}"/>'
            f'<geom name="disk" type="cylinder" size="{p["R"]!r} {DISK_HALF_HEIGHT!r}"/></body>')
    return _mjcf(settings, p["g"], body), np.concatenate([v, w["w_b"]])


def run_mujoco(xml: str, qvel, stop_time: float, interval: float):
    """The states (time, qpos, qvel) every ``interval`` of a MuJoCo run of one free body, and its CPU time (from
    the MJCF string: its compilation is part of the cost, as loading the FMU is part of ours)."""
    mujoco = require_mujoco()
    start = time.process_time()
    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    data.qvel[:] = qvel
    steps = round(interval / model.opt.timestep)
    if steps < 1 or abs(steps * model.opt.timestep - interval) > 1e-9 * interval:
        raise NonholonomicError(f"MuJoCo's step {model.opt.timestep:g} s does not divide the output interval "
                                f"{interval:g} s")
    n = round(stop_time / interval)
    rows = np.empty((n + 1, 14))
    rows[0, 0], rows[0, 1:8], rows[0, 8:] = 0.0, data.qpos, data.qvel
    for i in range(1, n + 1):
        mujoco.mj_step(model, data, nstep=steps)
        rows[i, 0], rows[i, 1:8], rows[i, 8:] = data.time, data.qpos, data.qvel
    cpu = time.process_time() - start
    return pd.DataFrame(rows, columns=["time", "x", "y", "z", "q0", "q1", "q2", "q3",
                                       "vx", "vy", "vz", "wx", "wy", "wz"]), cpu


def _ours(model: str, rtol: float, stop_time: float, interval: float, outputs):
    def run():
        start = time.process_time()
        frame = simulate(model, stop_time=stop_time, output_interval=interval, tolerance=rtol, outputs=outputs,
                         isolate=False)  # in this process: a child's CPU time would not be counted
        return frame, time.process_time() - start
    return median_cpu(run)


def _theta(states: pd.DataFrame) -> np.ndarray:
    """Tilt of the body z axis from the vertical, from the quaternion (cos theta = 1 - 2 (q1^2 + q2^2))."""
    return np.arccos(np.clip(1 - 2 * (states["q1"] ** 2 + states["q2"] ** 2), -1.0, 1.0))


def tippe_top_rows(say, rows: list[dict]) -> None:
    p = fmu_parameters("TippeTop")
    outputs = ["theta"]
    say(f"peers TippeTop: truth (our loop at rtol {TOP_TRUTH_RTOL:g})")
    simulate("TippeTop", stop_time=TOP_INTERVAL, output_interval=TOP_INTERVAL, isolate=False)  # load once
    truth = inversion_time(_ours("TippeTop", TOP_TRUTH_RTOL, TOP_STOP, TOP_INTERVAL, outputs)[0])

    def row(peer, settings, frame, cpu, runs):
        t_inv = inversion_time(frame)
        rows.append({"model": "TippeTop", "peer": peer, "settings": settings, "simulated [s]": TOP_STOP,
                     "runs": runs, "CPU s / simulated s": cpu / TOP_STOP, "inversion time [s]": t_inv,
                     "inversion time error [s]": abs(t_inv - truth) if math.isfinite(t_inv) else math.inf,
                     "truth: inversion time [s]": truth})
    for rtol in OURS_RTOL["TippeTop"]:
        say(f"peers TippeTop: our loop at rtol {rtol:g}")
        row(f"ours, rtol {rtol:g}", f"rtol {rtol:g}", *_ours("TippeTop", rtol, TOP_STOP, TOP_INTERVAL, outputs))
    for step in (None, *MATCHED_STEPS["TippeTop"]):
        settings = top_settings(p, step)
        say(f"peers TippeTop: {settings.label}")
        xml, qvel = tippe_top_mjcf(p, settings)
        states, cpu, runs = median_cpu(lambda: run_mujoco(xml, qvel, TOP_STOP, TOP_INTERVAL))
        row(settings.label, f"{settings.option} {settings.contact}".strip(),
            pd.DataFrame({"time": states["time"], "theta": _theta(states)}), cpu, runs)


def disk_measures(p: dict, states: pd.DataFrame) -> dict:
    """Energy, contact point (the lowest point of the cylinder's lower rim) and the speed of the material point
    there, of a MuJoCo run of the rolling disk."""
    T = quaternion_to_matrix(states[["q0", "q1", "q2", "q3"]].to_numpy())
    r = states[["x", "y", "z"]].to_numpy()
    v = states[["vx", "vy", "vz"]].to_numpy()
    w_b = states[["wx", "wy", "wz"]].to_numpy()
    inertia = np.array([p["A_used"], p["A_used"], p["C_used"]])
    energy = 0.5 * p["m"] * np.sum(v**2, axis=1) + 0.5 * np.sum(inertia * w_b**2, axis=1) + p["m"] * p["g"] * r[:, 2]
    n = T[:, :, 2]
    contact = contact_point(r, T, p["R"]) - DISK_HALF_HEIGHT * np.sign(n[:, 2:3]) * n
    w = np.einsum("kij,kj->ki", T, w_b)
    slip = np.linalg.norm(v + np.cross(w, contact - r), axis=1)
    return {"energy": energy, "x": contact[:, 0], "y": contact[:, 1], "slip": slip}


def _disk_row(peer, settings, measures, truth, cpu, runs) -> dict:
    e = measures["energy"]
    return {"model": "RollingDisk", "peer": peer, "settings": settings, "simulated [s]": DISK_STOP, "runs": runs,
            "CPU s / simulated s": cpu / DISK_STOP,
            "energy drift": float(np.max(np.abs(e - e[0])) / abs(e[0])),
            "contact slip RMS [m/s]": float(np.sqrt(np.mean(np.asarray(measures["slip"]) ** 2))),
            "path deviation [m]": float(np.max(np.hypot(measures["x"] - truth["x"], measures["y"] - truth["y"]))),
            "path length [m]": float(np.sum(np.hypot(np.diff(truth["x"]), np.diff(truth["y"]))))}


def rolling_disk_rows(say, rows: list[dict]) -> None:
    p = fmu_parameters("RollingDisk")
    say("peers RollingDisk: truth (the reference, DOP853 at rtol 1e-11)")
    grid = np.linspace(0.0, DISK_STOP, round(DISK_STOP / DISK_INTERVAL) + 1)
    truth = disk_model(p).simulate(disk_state(p), grid)
    truth = {"x": truth["x"].to_numpy(), "y": truth["y"].to_numpy()}
    simulate("RollingDisk", stop_time=DISK_INTERVAL, output_interval=DISK_INTERVAL, isolate=False)  # load once
    for rtol in OURS_RTOL["RollingDisk"]:
        say(f"peers RollingDisk: our loop at rtol {rtol:g}")
        frame, cpu, runs = _ours("RollingDisk", rtol, DISK_STOP, DISK_INTERVAL, ["energy", "slip", "p_0[1]", "p_0[2]"])
        measures = {"energy": frame["energy"].to_numpy(), "slip": frame["slip"].to_numpy(),
                    "x": frame["p_0[1]"].to_numpy(), "y": frame["p_0[2]"].to_numpy()}
        rows.append(_disk_row(f"ours, rtol {rtol:g}", f"rtol {rtol:g}", measures, truth, cpu, runs))
    for step in (None, *MATCHED_STEPS["RollingDisk"]):
        settings = disk_settings(step)
        say(f"peers RollingDisk: {settings.label}")
        xml, qvel = rolling_disk_mjcf(p, settings)
        states, cpu, runs = median_cpu(lambda: run_mujoco(xml, qvel, DISK_STOP, DISK_INTERVAL))
        rows.append(_disk_row(settings.label, f"{settings.option} {settings.contact}".strip(),
                              disk_measures(p, states), truth, cpu, runs))


def verdicts(top: pd.DataFrame, disk: pd.DataFrame) -> list[str]:
    """Where MuJoCo is faster and where it is wrong, in sentences, from the measured rows: MuJoCo at its defaults
    and at its finest matched step against our loop at BASELINE_RTOL."""
    lines = []
    for name, table, errors, columns in (("Tippe-top", top, _top_errors, TOP_ERRORS),
                                         ("Rolling disk", disk, _disk_errors, DISK_ERRORS)):
        rows = table.set_index("peer")
        ours = rows.loc[f"ours, rtol {BASELINE_RTOL:g}"]
        matched = rows[rows.index.str.startswith("MuJoCo matched")]
        for label, row in (("at its defaults", rows.loc["MuJoCo defaults"]),
                           (f"matched, at its finest step ({matched.index[-1].split('step ')[1]})", matched.iloc[-1])):
            ratio = row["CPU s / simulated s"] / ours["CPU s / simulated s"]
            speed = f"{_times(1 / ratio)} times faster than" if ratio < 1 else f"{_times(ratio)} times slower than"
            worse = [row[c] / ours[c] for c in columns]
            verdict = ("wrong" if min(worse) > WRONG else "as accurate or better" if max(worse) <= 1
                       else "less accurate")
            spread = _times(min(worse)) + ("" if len(worse) == 1 else f" to {_times(max(worse))}")
            lines.append(f"- **{name}, MuJoCo {label}: {'faster' if ratio < 1 else 'slower'}, and {verdict}** (its "
                         f"error{'s' * (len(worse) > 1)} {spread} times ours). "
                         f"{row['CPU s / simulated s']:.2g} CPU s per simulated second, {speed} our loop at rtol "
                         f"{BASELINE_RTOL:g} ({ours['CPU s / simulated s']:.2g}); {errors(row, ours)}.")
    times = top[top["peer"].str.startswith("MuJoCo matched")]["inversion time [s]"].iloc[-2:].to_numpy()
    moves, off = abs(times[-1] - times[0]), abs(times[-1] - top["truth: inversion time [s]"].iloc[0])
    if len(times) == 2 and np.isfinite(times).all():
        lines.append(f"- The tippe-top's error in MuJoCo is its contact model's, not its step's: its inversion time "
                     f"moves by {moves:.2g} s between its last two steps and stays {off:.2g} s from the truth (a "
                     "friction cone of constant coefficients for the friction over the Hertz patch, the torsional "
                     "coefficient at MuJoCo's floor; no Contensou coupling of spin and sliding)." if moves < 0.1 * off
                     else f"- The tippe-top's inversion time in MuJoCo still moves by {moves:.2g} s between its last "
                     f"two steps ({off:.2g} s from the truth at the finest).")
    matched = disk[disk["peer"].str.startswith("MuJoCo matched")].iloc[[0, -1]]
    steps = matched["peer"].str.split("step ").str[1].str.removesuffix(" s").astype(float).to_numpy()

    def order(column):  # the exponent k of column ~ step^k between the coarsest and the finest matched step
        values = matched[column].to_numpy(dtype=float)
        return math.log(values[1] / values[0]) / math.log(steps[1] / steps[0])
    if steps[0] != steps[1]:
        lines.append(f"- The rolling disk's errors in MuJoCo fall with its step, as step^{order('energy drift'):.2g} "
                     f"(energy drift) and step^{order('path deviation [m]'):.2g} (path), and its cost rises as "
                     f"step^{order('CPU s / simulated s'):.2g}: a first-order method with a soft contact that creeps, "
                     "whose error times cost stays about the same as the step falls.")
    return lines


def _times(ratio: float) -> str:
    return f"{ratio:.2g}" if ratio < 10 else f"{float(f'{ratio:.2g}'):.0f}"  # two digits, no exponent


def _top_errors(row, ours) -> str:
    truth, t = row["truth: inversion time [s]"], row["inversion time [s]"]
    said = "the top does not invert" if not math.isfinite(t) else f"the top inverts at {t:.3f} s ({t - truth:+.3f} s)"
    return f"{said}, against {truth:.4f} s (ours: {ours['inversion time error [s]']:.1g} s off)"


def _disk_errors(row, ours) -> str:
    return (f"it loses {100 * row['energy drift']:.2g} % of the energy in {DISK_STOP:g} s, its contact slips at "
            f"{row['contact slip RMS [m/s]']:.2g} m/s (RMS) and it ends {row['path deviation [m]']:.2g} m off the "
            f"{row['path length [m]']:.0f} m path (ours: energy {ours['energy drift']:.1g}, slip "
            f"{ours['contact slip RMS [m/s]']:.1g} m/s, {ours['path deviation [m]']:.1g} m)")


def error_cost_plot(top: pd.DataFrame, disk: pd.DataFrame, path: pathlib.Path) -> pathlib.Path:
    """Error against cost, log-log: the top's inversion-time error, the disk's energy drift, slip and path
    deviation; our loop over its tolerances, MuJoCo's matched settings over their steps, its defaults alone.
    A top that does not invert is drawn at the top edge with an open marker."""
    from .plots import plt, save_figure
    panels = [(top, "inversion time error [s]", "tippe-top: |inversion time - truth| [s]"),
              (disk, "energy drift", "rolling disk: energy drift max|E - E0|/E0"),
              (disk, "contact slip RMS [m/s]", "rolling disk: contact slip (RMS) [m/s]"),
              (disk, "path deviation [m]", "rolling disk: distance from the path [m]")]
    fig, axes = plt.subplots(2, 2, figsize=(10, 7.5))
    for ax, (table, column, title) in zip(axes.flat, panels):
        finite = table[column][np.isfinite(table[column]) & (table[column] > 0)]
        ceiling = finite.max() * 3 if len(finite) else 1.0
        for peer, style in (("ours", dict(color="tab:blue", marker="o")),
                            ("MuJoCo matched", dict(color="tab:orange", marker="s")),
                            ("MuJoCo defaults", dict(color="tab:red", marker="D", linestyle="none"))):
            rows = table[table["peer"].str.startswith(peer)]
            x, y = rows["CPU s / simulated s"].to_numpy(), rows[column].to_numpy(dtype=float)
            label = {"ours": "ours (project's CVODE loop)",
                     "MuJoCo matched": "MuJoCo, matched settings"}.get(peer, peer)
            ax.plot(x, np.where(np.isfinite(y), np.maximum(y, 1e-16), ceiling), label=label, **style)
            for k, (xi, yi, text) in enumerate(zip(x, y, rows["settings"] if peer == "ours" else rows["peer"])):
                note = text.replace("MuJoCo matched, step ", "").replace("MuJoCo defaults", "")
                if not math.isfinite(yi):
                    note = (note + " no inversion").strip()
                    ax.plot([xi], [ceiling], marker="^", markersize=10, markerfacecolor="none", color=style["color"])
                # MuJoCo's step sizes: labels above and below in turn (close points at equal errors)
                below = peer != "ours" and k % 2 == 1
                ax.annotate(note, (xi, yi if math.isfinite(yi) else ceiling), textcoords="offset points",
                            xytext=(4, -10 if below else 4), fontsize=7)
        ax.set(xscale="log", yscale="log", xlabel="cost: CPU s per simulated s", title=title)
        ax.grid(True, which="both", alpha=0.3)
        ax.margins(x=0.2, y=0.08)
    axes.flat[0].legend(fontsize=8, loc="best")
    fig.suptitle("Error against cost: MuJoCo beside our loop (lower left is better)")
    return save_figure(fig, path)


def peers(out_dir: pathlib.Path | str = "results", progress=None) -> pd.DataFrame:
    """Run both peers on both models; write peers.csv, peers.md and peers.png into ``out_dir``."""
    say = progress or (lambda msg: None)
    mujoco = require_mujoco()
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    rows: list[dict] = []  # the tippe-top's, then the disk's (the finished ones kept on Ctrl-C)
    with rows_kept(rows, out_dir / "peers.csv"):
        tippe_top_rows(say, rows)
        rolling_disk_rows(say, rows)
    table = pd.DataFrame(rows)
    top, disk = (table[table["model"] == m].dropna(axis=1, how="all").reset_index(drop=True)
                 for m in ("TippeTop", "RollingDisk"))
    table.to_csv(out_dir / "peers.csv", index=False)
    error_cost_plot(top, disk, out_dir / "peers.png")
    shown = ["peer", "CPU s / simulated s", "runs"]
    text = (f"# The peers side by side: MuJoCo {mujoco.__version__} and our loop\n\n"
            "Cost: CPU seconds per simulated second (median of 3 runs where a run is under "
            f"{REPEAT_BELOW:g} s; MuJoCo's model compilation and our FMU's loading included). Accuracy against a truth "
            "that is neither run: the tippe-top's inversion time against our loop at rtol "
            f"{TOP_TRUTH_RTOL:g} ({top['truth: inversion time [s]'].iloc[0]:.5f} s; the verification case "
            "`tippe_top_contensou` checks it against the Python reference); the rolling "
            "disk against the reference (DOP853, rtol 1e-11). Both MuJoCo models are built from the FMUs' parameters "
            "(`nonholonomic.peers`: what cannot match, and the settings, in its comments). Plot: `peers.png`; "
            "all columns and the settings: `peers.csv`.\n\n## Where MuJoCo is faster and where it is wrong\n\n"
            + "\n".join(verdicts(top, disk)) + "\n\n"
            f"## Tippe-top ({TOP_STOP:g} s)\n\n"
            + _markdown(top[shown + ["inversion time [s]", "inversion time error [s]"]].assign(**{
                "inversion time [s]": top["inversion time [s]"].map(
                    lambda t: f"{t:.4f}" if math.isfinite(t) else "no inversion")})) + "\n\n"
            f"## Rolling disk ({DISK_STOP:g} s)\n\n"
            + _markdown(disk[shown + ["energy drift", "contact slip RMS [m/s]", "path deviation [m]"]]) + "\n\n"
            "## MuJoCo's settings\n\n" + "\n".join(
                f"- {r.model}, {r.peer}: `{r.settings or '(defaults)'}`" for r in table.itertuples()
                if r.peer.startswith("MuJoCo")) + "\n")
    (out_dir / "peers.md").write_text(text)
    print(text)
    return table
