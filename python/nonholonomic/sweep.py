"""The omni-wheel vehicle's sweep over the rollers' mass (Gerasimov 2018, ch. 3), run on Dask.

Each case simulates the 16-body vehicle FMU at one roller mass fraction eta in one motion (``KINDS``: spinning in
place, moving straight along a wheel's axle, and a generic motion of translation and turning) with untruncated
spindle rollers (``OmniVehicleSpin``, ``OmniVehicleStraight``; ch. 3) or truncated rollers
(``OmniVehicleTruncated``; ch. 1-2), and compares it with the massless-roller nonholonomic model
(:mod:`nonholonomic.references.omni_massless`) of the same vehicle frozen at that eta (:func:`massless_model`:
the rollers' mass and inertia in the wheels, the wheels' in the platform): the path, velocity and heading of the
centre, and the slip at the contacts. As eta tends to zero the discrepancy must shrink, in proportion to eta with
truncated rollers.

The cases run on Dask (:mod:`.dask_runs`: a local cluster or an existing scheduler; each case written to disk
as it completes, ``<case>.parquet`` and ``<case>.json``; a failed case, a lost worker or one over its time limit
recorded with ``status: failed`` while the rest goes on). A case's key (:func:`case_key`) holds everything that
determines its result (model, sha256 of the FMU file, parameters, stop time, output interval, tolerance, record
format): a rerun skips a case only if its record is intact, finished and written for the same key, with its
Parquet file the one written with it; anything else (another stop time, a rebuilt FMU, a half-written, corrupt
or edited file) is recomputed.
"""

from __future__ import annotations

import dataclasses
import math
import pathlib

import numpy as np
import pandas as pd

from .dask_runs import (SCHEDULER_TIMEOUT, OVER_TIME_LIMIT, _digest, _unzipped, check_options,  # noqa: F401
                        fmu_bytes, fmu_sums, interrupted, pending, record, records, run_all, run_key, simulate_run)
from .dask_runs import positive as _positive
from .errors import Interrupted, NonholonomicError, SimulationFailed
from .grid import check_rows
from .paths import write_bytes

N_WHEELS, N_ROLLERS = 3, 4
ETAS = tuple(10.0 ** -k / N_ROLLERS for k in range(1, 7))  # 1e-1/n ... 1e-6/n
# vehicle data of the Modelica example (Vehicles.OmniVehicle defaults; I_p: the platform's central moment about
# the vertical, I_p_used[3] = m_p R_p^2/2 of the thin disk that I_p = 0 stands for)
VEHICLE = dict(R_p=0.15, R_w=0.05, m_p=1.0, m_w=0.15, I_p=0.01125)
KINDS = {  # model of the untruncated rollers, initial velocity (world), angular velocity, default span
    "spin": ("OmniVehicleSpin", (0.0, 0.0), 1.0, 3.0),
    "straight": ("OmniVehicleStraight", (1.0, 0.0), 0.0, 1.5),
    "generic": ("OmniVehicleSpin", (0.3, 0.2), 0.7, 1.5),  # issue 14: translation and turning together
}
TRUNCATED_MODEL = "OmniVehicleTruncated"  # truncated rollers (ch. 1-2): every kind through v_0 and omega_0
MECANUM_MODEL, MECANUM_DELTA = "MecanumVehicle", math.pi / 4  # the same vehicle on mecanum wheels (truncated rollers)
# version of the records and of what run_case computes: raise it when either changes, so that old records
# are recomputed rather than mixed with new ones
RECORD_FORMAT = 4


@dataclasses.dataclass(frozen=True)
class SweepCase:
    kind: str
    eta: float
    stop_time: float
    output_interval: float = 0.001
    tolerance: float = 1e-6
    truncated: bool = False
    mecanum: bool = False  # MecanumVehicle (truncated rollers at delta = pi/4) against the massless friction model

    @property
    def name(self) -> str:
        rollers = "_mecanum" if self.mecanum else "_truncated" if self.truncated else ""
        return f"{self.kind}{rollers}_eta{self.eta:.1e}"

    @property
    def model(self) -> str:
        return MECANUM_MODEL if self.mecanum else TRUNCATED_MODEL if self.truncated else KINDS[self.kind][0]

    @property
    def delta(self) -> float:
        return MECANUM_DELTA if self.mecanum else math.pi / 2

    @property
    def parameters(self) -> dict:
        """The FMU's parameters: eta, and the initial velocities where the model's defaults are another motion."""
        if not (self.truncated or self.mecanum) and self.kind in ("spin", "straight"):
            return {"eta": self.eta}
        _, (vx, vy), omega, _ = KINDS[self.kind]
        return {"eta": self.eta, "v_0[1]": vx, "v_0[2]": vy, "omega_0": omega}


def cases(kinds=("spin", "straight"), etas=ETAS, stop_time: float | None = None, truncated: bool = False,
          tolerance: float = 1e-6, mecanum: bool = False) -> list[SweepCase]:
    """The cases of the given motions and roller masses (untruncated or truncated omni-wheel rollers, or
    ``mecanum`` wheels, whose rollers are truncated), each over ``stop_time`` (default: the kind's span) at the
    relative tolerance ``tolerance``."""
    from .simulate import check_tolerance
    tolerance = check_tolerance(tolerance)
    if stop_time is not None:
        stop_time = _positive("stop time", stop_time)
    out = {}
    for kind in kinds:
        if kind not in KINDS:
            raise NonholonomicError(f"unknown sweep kind '{kind}' (known: {', '.join(KINDS)})")
        for eta in etas:
            if not 0 < eta < 1 / N_ROLLERS:
                raise NonholonomicError(f"eta = {eta:g} is outside (0, 1/n) = (0, {1 / N_ROLLERS:g}): "
                                        "the rollers would outweigh their wheel")
            # the slip transients at roller changes shorten with the roller's mass: the lightest are sampled finer
            case = SweepCase(kind, float(eta), stop_time or KINDS[kind][3], 1e-3 if eta >= 1e-6 else 1e-4, tolerance,
                             bool(truncated or mecanum), bool(mecanum))
            check_rows("stop time", case.stop_time, case.output_interval)
            if out.get(case.name, case) != case:  # one file per case name
                raise NonholonomicError(f"eta = {out[case.name].eta!r} and {eta!r} differ beyond the case name's "
                                        f"two digits ({case.name})")
            out[case.name] = case
    return list(out.values())


def roller_inertia(R_w: float, n: int, m_r: float, R1: float | None = None, gamma: float = 0.0) -> tuple[float, float]:
    """Central moments (about the axis, across it) of a homogeneous roller of mass m_r: the solid of revolution
    of the arc of radius R_w over the angle 2 pi/n, its axis at R1 from the arc's centre (default R_w cos(pi/n):
    the untruncated spindle; R_w cos(pi/(n - 1)): truncated, with flat ends). The closed form of
    ``Vehicles.rollerInertia``; tests/test_omni_truncated.py checks both against quadrature.

    gamma != 0: the mecanum roller inclined by gamma out of the wheel plane (:mod:`.references.mecanum_massless`):
    the envelope of the spheres centred on its axis at c with radius rho(c) = R_w - sqrt(R1^2 + c^2 cos^2 gamma),
    |c| <= R1 tan(pi/n)/cos(gamma), between flat ends (gamma = 0: the arc's solid above). A surface of revolution
    is the envelope of the spheres centred where its normals meet the axis: the sphere at c touches it on the
    circle at the axial position x(c) = c - rho rho'(c), of radius r(c) = rho sqrt(1 - rho'^2). The moments,
    (pi/2) int r^4 dx and pi int (r^4/4 + x^2 r^2) dx over V = pi int r^2 dx, by Gauss-Legendre quadrature in c
    (the integrands are analytic: 128 nodes are exact to round-off). NOTE: rho(c) is the radius of the sphere at
    c, NOT the profile's radius at the axial position c (at gamma = 0 the solid of revolution of rho(c) itself
    would not be the arc's roller; tests/test_reference_mecanum.py)."""
    if gamma != 0.0:
        return _inclined_roller_inertia(R_w, n, m_r, R_w * math.cos(math.pi / n) if R1 is None else R1, gamma)
    half = math.pi / n
    X, C = R_w * math.sin(half), R_w * math.cos(half)
    R1 = C if R1 is None else R1
    S1 = X * C + R_w**2 * half
    S2 = 2 * (R_w**2 * X - X**3 / 3)
    S3 = X * (5 * R_w**2 - 2 * X**2) * C / 4 + 3 * R_w**4 * half / 4
    S4 = 2 * (R_w**4 * X - 2 * R_w**2 * X**3 / 3 + X**5 / 5)
    XS1 = X * (2 * X**2 - R_w**2) * C / 4 + R_w**4 * half / 4
    XS2 = 2 * (R_w**2 * X**3 / 3 - X**5 / 5)
    V = S2 - 2 * R1 * S1 + 2 * X * R1**2
    A4 = S4 - 4 * R1 * S3 + 6 * R1**2 * S2 - 4 * R1**3 * S1 + 2 * X * R1**4
    T2 = XS2 - 2 * R1 * XS1 + R1**2 * 2 * X**3 / 3
    return m_r * A4 / (2 * V), m_r * (A4 / 4 + T2) / V


def _inclined_roller_inertia(R_w: float, n: int, m_r: float, R1: float, gamma: float) -> tuple[float, float]:
    cg2 = math.cos(gamma) ** 2
    c_max = R1 * math.tan(math.pi / n) / math.cos(gamma)
    nodes, weights = np.polynomial.legendre.leggauss(128)
    c, w = c_max * nodes, c_max * weights
    D = np.sqrt(R1**2 + c**2 * cg2)
    rho = R_w - D
    d1 = -c * cg2 / D                      # rho'
    d2 = -cg2 * R1**2 / D**3               # rho''
    x = c - rho * d1
    r2 = rho**2 * (1.0 - d1**2)
    dx = 1.0 - d1**2 - rho * d2            # dx/dc > 0
    V = math.pi * np.sum(w * r2 * dx)
    I_a = 0.5 * math.pi * np.sum(w * r2**2 * dx)
    I_t = math.pi * np.sum(w * (r2**2 / 4 + x**2 * r2) * dx)
    return float(m_r * I_a / V), float(m_r * I_t / V)


def axle_distance(R_w: float, n: int, truncated: bool) -> float:
    """R1 of ``Vehicles.OmniVehicle``: R_w cos(pi/(n - 1)) for truncated rollers, R_w cos(pi/n) untruncated."""
    return R_w * math.cos(math.pi / (n - 1 if truncated else n))


def frozen_vehicle(positions, axle_angles, R_w: float, m_w: float, n: int, eta: float | None, R1: float,
                   m_p: float, I_p: float, r_C=(0.0, 0.0), delta: float = math.pi / 2, phase=0.0):
    """The massless-roller model of ``Vehicles.OmniVehicle`` with the given layout, its rollers frozen on their
    hubs at the mass fraction eta (None: the limit eta -> 0, all of a wheel's mass in its hub): for delta = pi/2
    (omni-wheels) :class:`~nonholonomic.references.omni_massless.OmniMassless` (exact for omni-wheels at any n),
    else :class:`~nonholonomic.references.mecanum_massless.MecanumMassless` with n rollers per wheel, their
    centres at d = R1, the roller phase ``phase`` (the reference's wheel angle at which a roller is centred at the
    bottom, :func:`roller_phase`) and impacts at the roller changes.

    positions: (N, 2) wheel centres relative to the reference point O (platform frame); axle_angles: N axle
    directions (the reference's wheel plane e_i = e_z x axle, so its a_i = -axle, as in ``symmetric``); m_p, I_p,
    r_C: the platform body's mass, central moment about the vertical and centre of mass relative to O. Each
    wheel: a hub (thin disk of mass (1 - n eta) m_w) and n rollers of m_r = eta m_w, centres on the circle R1,
    axes inclined by gamma = pi/2 - delta out of the wheel plane (tangent to the circle for gamma = 0), with the
    central moments I_a (own axis), I_t (across) of :func:`roller_inertia`. A roller's moment about the axle
    ((axis, axle)^2 = sin^2 gamma) is I_a sin^2 gamma + I_t cos^2 gamma
    + m_r R1^2; about a diameter w (n >= 3 rollers equally spaced: the sums of (t_j, w)^2 and (u_j, w)^2 over
    the rollers' tangents and radii are n/2) the n rollers give n (I_a cos^2 gamma + I_t (1 + sin^2 gamma)
    + m_r R1^2)/2. The wheel's axial moment (the reference's I_i) is m_hub R_w^2/2 + n (I_a sin^2 gamma
    + I_t cos^2 gamma + m_r R1^2); about a diameter (a vertical axis through its centre, part of the yaw
    moment I about O) m_hub R_w^2/4 + n (I_a cos^2 gamma + I_t (1 + sin^2 gamma) + m_r R1^2)/2. The
    products of inertia vanish (n >= 3), so the frozen wheel is axisymmetric about its axle."""
    from .references.mecanum_massless import MecanumMassless
    from .references.omni_massless import OmniMassless
    pos = np.asarray(positions, dtype=float)
    N = len(pos)
    gamma = math.pi / 2 - delta
    m_r = 0.0 if eta is None else eta * m_w
    m_hub = m_w - n * m_r
    I_a, I_t = roller_inertia(R_w, n, m_r, R1, gamma) if m_r > 0 else (0.0, 0.0)
    sg2, cg2 = math.sin(gamma) ** 2, math.cos(gamma) ** 2
    I_axial = m_hub * R_w**2 / 2 + n * (I_a * sg2 + I_t * cg2 + m_r * R1**2)
    I_diameter = m_hub * R_w**2 / 4 + n * (I_a * cg2 + I_t * (1 + sg2) + m_r * R1**2) / 2
    r_C = np.asarray(r_C, dtype=float)
    m = m_p + N * m_w
    centre = (m_p * r_C + m_w * pos.sum(axis=0)) / m
    inertia = I_p + m_p * (r_C @ r_C) + N * I_diameter + m_w * float(np.sum(pos**2))
    directions = np.asarray(axle_angles, dtype=float) + 0.5 * math.pi
    if delta == math.pi / 2:
        return OmniMassless(pos, directions, R_w, I_axial, math.pi / 2, m, inertia, centre)
    return MecanumMassless(pos, directions, R_w, I_axial, delta, m, inertia, centre, n=n, d=R1, phase=phase)


def roller_phase(n: int, chi_0=0.0):
    """The reference's roller phase of a ``Vehicles.OmniWheel`` started at the wheel angle chi_0 (Modelica):
    roller j is centred at kappa_j = 2 pi (j - 1)/n from the hub's x axis, which is up at chi_0 = 0 (roller 1
    on top); the hub turns by theta = chi_0 - chi about the Modelica axle n_a = -a (chi: the reference's wheel
    angle, 0 at the start), so roller j is at the bottom when kappa_j + chi_0 - chi = pi (mod 2 pi): phase =
    chi_0 - pi modulo 2 pi/n, in [-pi/n, pi/n) (0 for even n and chi_0 = 0: roller n/2 + 1 at the bottom)."""
    period = 2 * math.pi / n
    return (np.asarray(chi_0, dtype=float) - math.pi + math.pi / n) % period - math.pi / n


def massless_model(eta: float | None = None, truncated: bool = False, delta: float = math.pi / 2,
                   friction: bool = False):
    """The massless-roller model of the Modelica vehicle (its defaults: three wheels at R_p, axles radial, the
    platform a thin disk, I_p[3] = m_p R_p^2/2, chi_0 = 0), with the rollers frozen at eta (:func:`frozen_vehicle`;
    None: all of a wheel's mass in its hub); delta != pi/2: mecanum rollers of finite size with impacts.
    friction: instead the massless rollers of finite size with the vehicle's regularised Coulomb friction
    (mu = 0.5, v_eps = 1e-3 m/s; :class:`~nonholonomic.references.mecanum_friction.MecanumFriction`, any delta)."""
    v = VEHICLE
    angles = 2 * np.pi * np.arange(N_WHEELS) / N_WHEELS
    positions = v["R_p"] * np.stack([np.cos(angles), np.sin(angles)], axis=1)
    R1, phase = axle_distance(v["R_w"], N_ROLLERS, truncated), roller_phase(N_ROLLERS)
    model = frozen_vehicle(positions, angles, v["R_w"], v["m_w"], N_ROLLERS, eta, R1, v["m_p"], v["I_p"],
                           delta=delta, phase=phase)
    if not friction:
        return model
    from .references.mecanum_friction import MecanumFriction
    return MecanumFriction.from_model(model, n=N_ROLLERS, d=R1, phase=phase, mu=0.5, v_eps=1e-3)


def massless_reference(kind: str, t: np.ndarray, eta: float | None = None, truncated: bool = False,
                       delta: float = math.pi / 2, friction: bool = False) -> pd.DataFrame:
    """The massless-roller model with the vehicle's masses (rollers frozen at eta), from the initial state of
    ``kind``, at the times ``t`` (which may repeat: an FMU run has two rows at each event, its left and right
    limits; the mecanum model's own impacts give left and right limits at repeated times too), one row per time
    given, with the world velocity of the centre added (``vx``, ``vy``). friction: the massless rollers with the
    vehicle's friction (:func:`massless_model`; continuous velocities, no impacts; rtol 1e-10)."""
    _, (vx, vy), omega, _ = KINDS[kind]
    model = massless_model(eta, truncated, delta, friction)
    if delta == math.pi / 2 and not friction:  # BKM's model: one row per distinct time
        times, rows = np.unique(np.asarray(t, dtype=float), return_inverse=True)
        ref = model.simulate((0.0, 0.0, 0.0, vx, vy, omega), times)
        ref = ref.iloc[rows].reset_index(drop=True)
    else:
        ref = model.simulate((0.0, 0.0, 0.0, vx, vy, omega), np.asarray(t, dtype=float))
    c, s = np.cos(ref["phi"].to_numpy()), np.sin(ref["phi"].to_numpy())
    ref["vx"] = ref["v1"].to_numpy() * c - ref["v2"].to_numpy() * s
    ref["vy"] = ref["v1"].to_numpy() * s + ref["v2"].to_numpy() * c
    return ref


def case_key(case: SweepCase, fmu_sha256: str) -> dict:
    """Everything that determines a case's result."""
    return run_key(RECORD_FORMAT, case, fmu_sha256)


def keys(todo: list[SweepCase], fmus: dict[str, bytes] | None = None) -> dict[str, dict]:
    """Each case's key (name -> :func:`case_key`) for the FMUs' bytes (default: the files as they are now)."""
    sums = fmu_sums(fmus or fmu_bytes(todo))
    return {c.name: case_key(c, sums[c.model]) for c in todo}


def _failure(case: SweepCase, error: str) -> dict:
    return {"case": case.name, "kind": case.kind, "eta": case.eta, "stop_time": case.stop_time, "status": "failed",
            "error": error}


def run_case(case: SweepCase, fmu: bytes | str | pathlib.Path, time_limit: float | None = None
             ) -> tuple[dict, pd.DataFrame | None]:
    """Simulate one case (``fmu``: the FMU file's bytes or path) and compare it with the massless model. A run
    that takes more than ``time_limit`` seconds of wall time is stopped and reported as failed (its status; no
    exception, so that Dask does not run it again)."""
    import time
    outputs = ["x", "y", "psi", "vx", "vy", "omega", "kineticEnergy"] + [
        f"{s}[{i}]" for s in ("slip", "contactRoller", "N_contact") for i in range(1, N_WHEELS + 1)]
    started = time.perf_counter()
    try:
        df = simulate_run(fmu, case, outputs, time_limit)
    except SimulationFailed as e:
        if OVER_TIME_LIMIT not in str(e):
            raise
        return _failure(case, str(e)), None
    wall = time.perf_counter() - started
    solver = df.attrs.get("solver", {})
    df["psi"] = np.unwrap(df["psi"].to_numpy())
    # mecanum wheels: the massless rollers with the same friction law (the limit eta -> 0 at the same mu; against
    # ideal massless rollers, whose changes are impacts, the differences stop at the slip transients; docs/omni.md)
    ref = massless_reference(case.kind, df["time"].to_numpy(), case.eta, case.truncated, case.delta,
                             friction=case.mecanum)
    for name, column in (("x", "x"), ("y", "y"), ("psi", "phi"), ("vx", "vx"), ("vy", "vy"), ("omega", "omega")):
        df[f"{name}_ref"] = ref[column].to_numpy()
    slip = df[[f"slip[{i}]" for i in range(1, N_WHEELS + 1)]].to_numpy()
    metrics = {"case": case.name, "kind": case.kind, "eta": case.eta, "stop_time": case.stop_time, "status": "ok",
               "truncated": case.truncated, "mecanum": case.mecanum,
               "path difference [m]": float(np.max(np.hypot(df["x"] - df["x_ref"], df["y"] - df["y_ref"]))),
               "velocity difference [m/s]": float(np.max(np.hypot(df["vx"] - df["vx_ref"], df["vy"] - df["vy_ref"]))),
               "omega difference [rad/s]": float(np.max(np.abs(df["omega"] - df["omega_ref"]))),
               "heading difference [rad]": float(np.max(np.abs(df["psi"] - df["psi_ref"]))),
               # the time average (an event's two rows share their time and add nothing: the entering roller's
               # slip right after a change is kinematic, not a share of the run)
               "max slip [m/s]": float(np.max(slip)),
               "mean slip [m/s]": float(np.trapezoid(slip, df["time"].to_numpy(), axis=0).mean() / case.stop_time),
               "energy change (relative)": float((df["kineticEnergy"].iloc[-1] - df["kineticEnergy"].iloc[0])
                                                 / df["kineticEnergy"].iloc[0]),
               "min normal force [N]": float(df[[f"N_contact[{i}]" for i in range(1, N_WHEELS + 1)]].min().min()),
               "events": int(solver.get("events", 0)), "steps": int(solver.get("steps", 0)),
               "roller changes": roller_changes(df), "run time [s]": wall}
    return metrics, df


def lowest_rollers(df: pd.DataFrame, n_wheels: int = N_WHEELS, n: int = N_ROLLERS) -> tuple[np.ndarray, np.ndarray]:
    """For each row and wheel, the roller whose sector holds the wheel's lowest point, from the hub's attitude
    alone (columns ``wheel[i].hub.Q[1..4]``; roller j centred at kappa_j = 2 pi (j - 1)/n from the hub's x
    axis, spanning +-pi/n), and the angle from that point to the nearest junction: (rows, wheels) arrays. An
    account of the contact roller independent of the model's switching relations."""
    from .references.common import quaternion_to_matrix
    index = np.zeros((len(df), n_wheels), dtype=int)
    margin = np.zeros((len(df), n_wheels))
    kappa = 2 * np.pi * np.arange(n) / n
    for i in range(n_wheels):
        Q = df[[f"wheel[{i + 1}].hub.Q[{k}]" for k in range(1, 5)]].to_numpy()
        T = quaternion_to_matrix(Q / np.linalg.norm(Q, axis=1, keepdims=True))
        down = -T[:, 2, :]  # the world's -z in hub components: the third row of T, negated
        beta = np.arctan2(down[:, 1], down[:, 0])
        offset = np.angle(np.exp(1j * (beta[:, None] - kappa[None, :])))  # wrapped to (-pi, pi]
        index[:, i] = np.argmin(np.abs(offset), axis=1) + 1
        margin[:, i] = np.pi / n - np.min(np.abs(offset), axis=1)
    return index, margin


def roller_changes(df: pd.DataFrame) -> int:
    """How many times the roller in contact changed on the wheels, from the contactRoller columns (each event's
    two rows included: a change is counted once)."""
    rollers = df[[c for c in df.columns if c.startswith("contactRoller[")]].to_numpy()
    return int(np.sum(np.diff(rollers, axis=0) != 0))


def run_sweep(todo: list[SweepCase], out_dir: pathlib.Path | str = "results/omni_sweep", scheduler: str | None = None,
              workers: int = 2, progress: bool = True, time_limit: float | None = 900.0, run=None) -> pd.DataFrame:
    """Run the cases of ``todo`` not yet finished for their key in ``out_dir`` on Dask; returns the table of
    the cases' records (also ``sweep.csv``). A case over ``time_limit`` seconds of wall time is recorded as
    failed (the lightest rollers moving straight can take hours: docs/omni.md); a rerun tries it again, as
    every failed case. Ctrl-C: the cluster is closed, the finished cases stay, :class:`Interrupted` is raised
    with their table. ``run`` replaces :func:`run_case` (tests)."""
    out_dir = pathlib.Path(out_dir)
    time_limit = check_options(out_dir, scheduler, workers, time_limit)
    fmus = fmu_bytes(todo)
    key = keys(todo, fmus)
    stopped = run_all(pending(todo, out_dir, key), out_dir, key, fmus, run or run_case, _failure, scheduler, workers,
                      progress, time_limit, label="omni sweep", unit="case")
    table = collect(out_dir, todo, key)
    if stopped:
        raise interrupted_sweep(table, todo, out_dir)
    return table


def interrupted_sweep(table: pd.DataFrame, todo: list[SweepCase], out_dir) -> Interrupted:
    """The one line of a sweep stopped by Ctrl-C: how many cases are finished and kept where."""
    return interrupted(table, todo, out_dir, "cases")


def collect(out_dir: pathlib.Path, todo: list[SweepCase], key: dict[str, dict] | None = None) -> pd.DataFrame:
    """The records of ``todo`` written for their keys (default: with the FMUs as they are now), one row per
    case, also written to ``sweep.csv``."""
    out_dir = pathlib.Path(out_dir)
    table = pd.DataFrame(records(out_dir, todo, key or keys(todo)))
    if len(table):
        table = table.sort_values(["kind", "eta"], ascending=[True, False]).reset_index(drop=True)
        write_bytes(out_dir / "sweep.csv", table.to_csv(index=False).encode())
    return table


def trend_ratios(table: pd.DataFrame, column: str = "path difference [m]") -> dict[str, list[float]]:
    """For each kind, the ratios of the discrepancy between successive (decreasing) eta."""
    out = {}
    for kind, group in table[table["status"] == "ok"].groupby("kind"):
        values = group.sort_values("eta", ascending=False)[column].to_numpy()
        out[kind] = list(values[1:] / values[:-1])
    return out


def plot_sweep(table: pd.DataFrame, out_dir: pathlib.Path) -> list[pathlib.Path]:
    """Fig. 3.7-3.12 in the manner of the thesis: paths, headings and contact rollers of the heaviest
    rollers; differences to the massless model against time for every eta; the trend against eta."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .plots import on_log_axis
    out_dir = pathlib.Path(out_dir)
    files = []
    ok = table[table["status"] == "ok"]
    for kind, group in ok.groupby("kind"):
        group = group.sort_values("eta", ascending=False)
        frames = {row.eta: pd.read_parquet(out_dir / f"{row.case}.parquet") for row in group.itertuples()}
        heaviest = frames[group["eta"].iloc[0]]
        fig, axes = plt.subplots(1, 3, figsize=(11, 3.8))
        axes[0].plot(heaviest["x"], heaviest["y"], label="FMU")
        axes[0].plot(heaviest["x_ref"], heaviest["y_ref"], "--", label="massless rollers")
        axes[0].set_xlabel("x [m]"), axes[0].set_ylabel("y [m]"), axes[0].set_title("path of the centre")
        axes[0].legend()
        axes[1].plot(heaviest["time"], heaviest["psi"], label="FMU")
        axes[1].plot(heaviest["time"], heaviest["psi_ref"], "--", label="massless rollers")
        axes[1].set_xlabel("t [s]"), axes[1].set_ylabel("psi [rad]"), axes[1].set_title("heading")
        for i in range(1, N_WHEELS + 1):
            axes[2].step(heaviest["time"], heaviest[f"contactRoller[{i}]"], where="post", label=f"wheel {i}")
        axes[2].set_xlabel("t [s]"), axes[2].set_ylabel("roller in contact [index]"), axes[2].legend()
        fig.suptitle(f"{kind}, eta = {group['eta'].iloc[0]:.1e} (cf. Fig. 3.7)")
        fig.tight_layout()
        files.append(out_dir / f"{kind}_fig3.7.png")
        fig.savefig(files[-1], dpi=110)
        plt.close(fig)
        fig, axes = plt.subplots(1, 3, figsize=(11, 3.8))
        for eta, f in frames.items():
            t = f["time"]
            axes[0].semilogy(t, on_log_axis(np.hypot(f["x"] - f["x_ref"], f["y"] - f["y_ref"])), label=f"eta {eta:.1e}")
            axes[1].semilogy(t, on_log_axis(np.abs(f["psi"] - f["psi_ref"])))
            axes[2].semilogy(t, on_log_axis(f[[f"slip[{i}]" for i in range(1, N_WHEELS + 1)]].max(axis=1)))
        axes[0].set_ylabel("|position - massless| [m]"), axes[1].set_ylabel("|psi - massless| [rad]")
        axes[2].set_ylabel("max slip speed [m/s]")
        for ax in axes:
            ax.set_xlabel("t [s]"), ax.grid(alpha=0.3, which="both")
        axes[0].legend(fontsize=8)
        fig.suptitle(f"{kind}: differences to the massless-roller model and slip (cf. Fig. 3.8-3.12)")
        fig.tight_layout()
        files.append(out_dir / f"{kind}_differences.png")
        fig.savefig(files[-1], dpi=110)
        plt.close(fig)
    if len(ok):
        fig, (path_ax, slip_ax) = plt.subplots(1, 2, figsize=(10, 4))
        for kind, group in ok.groupby("kind"):
            path_ax.loglog(group["eta"], group["path difference [m]"], "o-", label=kind)
            slip_ax.loglog(group["eta"], group["max slip [m/s]"], "s--", label=kind)
        path_ax.set_ylabel("path difference to the massless model [m]"), slip_ax.set_ylabel("max slip speed [m/s]")
        for ax in (path_ax, slip_ax):
            ax.set_xlabel("eta = roller mass / wheel mass [-]"), ax.grid(alpha=0.3, which="both"), ax.legend(fontsize=8)
        fig.suptitle("massless-roller limit")
        fig.tight_layout()
        files.append(out_dir / "trend.png")
        fig.savefig(files[-1], dpi=110)
        plt.close(fig)
    return files
