"""Plots of verification runs: FMU and reference overlaid, with error panels.

Every axis carries a unit: an axis is given as (name, unit), the unit in the FMI/Modelica notation of the
FMUs' model descriptions ("m/s", "kg.m2/s", "1" for a dimensionless quantity, shown as [-]). Drifts of first
integrals are drawn with :func:`nonholonomic.verification.integral_drift`, the function the checks use.
"""

from __future__ import annotations

import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from .verification.case import DRIFT_FORMULA, integral_drift, unit_text  # noqa: E402

FMU_STYLE = dict(color="tab:blue", lw=1.6, label="FMU")
REF_STYLE = dict(color="tab:orange", lw=1.2, ls="--", label="reference")
ERROR_STYLE = dict(color="tab:red", lw=1)
ROUND_OFF = float(np.finfo(float).eps)  # a relative difference at or below it is rounding, not a signal


def label(name: str, unit: str) -> str:
    """Axis label "name [unit]"."""
    if not unit:
        raise ValueError(f"no unit for the axis of {name} ('1' if it is dimensionless)")
    return f"{name} [{unit_text(unit)}]"


def _signal_limits(ax, *curves) -> None:
    """A signal that is constant to within 1e-6 of its size (a steady motion) is drawn at its own scale,
    +-10 % about its value: without this, matplotlib zooms into rounding noise with an offset label."""
    values = np.concatenate([np.asarray(c, dtype=float).ravel() for c in curves])
    size = np.max(np.abs(values))
    if size > 0 and np.ptp(values) <= 1e-6 * size:
        middle = 0.5 * (values.min() + values.max())
        ax.set_ylim(middle - 0.1 * size, middle + 0.1 * size)


def on_log_axis(values, floor: float = 0.0) -> np.ndarray:
    """``values`` for a log axis: those at or below ``floor`` (0; :data:`ROUND_OFF` for a relative drift) left
    out as gaps, not raised to an invented floor (a curve that plunges to 1e-18 where the drift is exactly 0)."""
    values = np.asarray(values, dtype=float)
    return np.where(values > floor, values, np.nan)


def save_figure(fig, path: pathlib.Path) -> pathlib.Path:
    """Lay out, write (110 dpi) and close a figure; returns the path. A figure with a title of its own over
    titled columns is laid out by constrained layout, which keeps the titles and the axes' offset labels apart
    (tight layout lets them overlap); the others, and those with a colorbar (made for tight layout when it was
    added: constrained layout cannot take it over), by tight layout."""
    colorbars = any(getattr(ax, "_colorbar", None) is not None for ax in fig.axes)  # matplotlib's mark of one
    if fig.get_suptitle() and not colorbars:
        fig.set_layout_engine("constrained")
    else:
        fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def overlay_with_error(x, fmu_y, ref_y, x_axis, y_axis, title, path) -> pathlib.Path:
    """A curve from the FMU over the reference, and below it the difference; axes are (name, unit)."""
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7.5, 5.5), sharex=True, gridspec_kw={"height_ratios": [3, 1.2]})
    top.plot(x, fmu_y, **FMU_STYLE)
    top.plot(x, ref_y, **REF_STYLE)
    _signal_limits(top, fmu_y, ref_y)
    top.set_ylabel(label(*y_axis))
    top.set_title(title)
    top.legend(loc="best")
    top.grid(alpha=0.3)
    bottom.plot(x, np.asarray(fmu_y) - np.asarray(ref_y), **ERROR_STYLE)
    bottom.set_xlabel(label(*x_axis))
    bottom.set_ylabel(label("FMU - ref.", y_axis[1]))
    bottom.grid(alpha=0.3)
    return save_figure(fig, path)


def phase_plane_with_error(q, dq, q_ref, dq_ref, tau, axes, title, path) -> pathlib.Path:
    """The phase curve of FMU and reference, and the distance between them against time; ``axes`` are the
    (name, unit) of q, dq and time. The distance needs q and dq in one unit."""
    (q_name, q_unit), (dq_name, dq_unit), t_axis = axes
    if q_unit != dq_unit:
        raise ValueError(f"a distance in the phase plane needs one unit, not {q_unit} and {dq_unit}")
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7.5, 6.5), gridspec_kw={"height_ratios": [3, 1.2]})
    top.plot(q, dq, **FMU_STYLE)
    top.plot(q_ref, dq_ref, **REF_STYLE)
    top.set_xlabel(label(q_name, q_unit))
    top.set_ylabel(label(dq_name, dq_unit))
    top.set_title(title)
    top.legend(loc="best")
    top.grid(alpha=0.3)
    bottom.plot(tau, np.hypot(np.asarray(q) - q_ref, np.asarray(dq) - dq_ref), **ERROR_STYLE)
    bottom.set_xlabel(label(*t_axis))
    bottom.set_ylabel(label("distance", q_unit))
    bottom.grid(alpha=0.3)
    return save_figure(fig, path)


def signals_with_errors(time, fmu, ref, signals, units: dict, title, path) -> pathlib.Path:
    """Each signal of FMU and reference over time (left) and their difference (right); ``units`` maps each
    signal to its unit."""
    fig, axes = plt.subplots(len(signals), 2, figsize=(11, 2.1 * len(signals) + 0.4), sharex=True, squeeze=False)
    for (left, right), s in zip(axes, signals):
        left.plot(time, fmu[s], **FMU_STYLE)
        left.plot(time, ref[s], **REF_STYLE)
        _signal_limits(left, fmu[s], ref[s])
        left.set_ylabel(label(s, units[s]))
        right.plot(time, fmu[s].to_numpy() - ref[s].to_numpy(), **ERROR_STYLE)
        right.set_ylabel(label(f"Δ{s}", units[s]))
        for ax in (left, right):
            ax.grid(alpha=0.3)
    axes[0, 0].legend(loc="best")
    axes[0, 0].set_title("FMU and reference")
    axes[0, 1].set_title("difference Δ = FMU - reference")
    for ax in axes[-1]:
        ax.set_xlabel(label("t", "s"))
    fig.suptitle(title)
    return save_figure(fig, path)


def drift(time, energy, residuals: dict, title, path) -> pathlib.Path:
    """The FMU's relative energy drift (as its check measures it) and its constraint residuals, each in its
    own panel, log scale; ``residuals`` maps a name to (values, unit)."""
    fig, axes = plt.subplots(1 + len(residuals), 1, figsize=(7.5, 2.2 + 1.8 * len(residuals)), sharex=True)
    axes = np.atleast_1d(axes)
    axes[0].semilogy(time, on_log_axis(integral_drift(energy), ROUND_OFF), color="tab:blue")
    axes[0].set_ylabel(label("energy drift", "1"))
    axes[0].set_title(f"{title}\nenergy drift {DRIFT_FORMULA.replace('I', 'E')}", fontsize=10)
    for ax, (name, (values, unit)) in zip(axes[1:], residuals.items()):
        ax.semilogy(time, on_log_axis(np.abs(values)), color="tab:red", lw=1)
        ax.set_ylabel(label(f"|{name}|", unit))
    for ax in axes:
        ax.grid(alpha=0.3, which="both")
    axes[-1].set_xlabel(label("t", "s"))
    return save_figure(fig, path)


def path_on_surface_3d(meridian, s_range, fmu_xyz, ref_xyz, title, path) -> pathlib.Path:
    """The centre's path on the centre surface of revolution (wireframe), FMU and reference."""
    fig = plt.figure(figsize=(7, 6))
    ax = fig.add_subplot(projection="3d")
    s = np.linspace(*s_range, 30)
    phi = np.linspace(0, 2 * np.pi, 48)
    S, PHI = np.meshgrid(s, phi)
    rho, zeta = meridian.rho(S), meridian.zeta(S)
    X, Y = rho * np.cos(PHI), rho * np.sin(PHI)
    ax.plot_wireframe(X, Y, zeta, color="0.75", lw=0.4)
    # true horizontal proportions; a shallow surface is stretched vertically so the path stays readable
    height = max(np.ptp(zeta), 0.35 * np.ptp(X))
    ax.set_box_aspect((np.ptp(X), np.ptp(Y), height))
    if height > np.ptp(zeta):
        title += " (vertical scale exaggerated)"
    ax.plot(*fmu_xyz, **FMU_STYLE)
    ax.plot(*ref_xyz, **REF_STYLE)
    ax.set_xlabel(label("x", "m"))
    ax.set_ylabel(label("y", "m"))
    ax.set_zlabel(label("z", "m"))
    ax.set_title(title)
    ax.legend(loc="upper left")
    return save_figure(fig, path)


def planar_paths(paths: dict, title, path, names=("x", "y"), unit="m") -> pathlib.Path:
    """Paths in the horizontal plane: label -> (x, y, style dict); both coordinates in ``unit``."""
    fig, ax = plt.subplots(figsize=(6.5, 6))
    for name, (x, y, style) in paths.items():
        ax.plot(x, y, **{**style, "label": name})
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_xlabel(label(names[0], unit))
    ax.set_ylabel(label(names[1], unit))
    ax.set_title(title)
    ax.legend(loc="best")
    ax.grid(alpha=0.3)
    return save_figure(fig, path)


def integrals(time, values: dict, title, path) -> pathlib.Path:
    """Drift of first integrals against time, log scale: label -> values, (k,) for a scalar or (k, n) for a
    vector fixed in space; normalised as the checks normalise them (:func:`integral_drift`)."""
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    for name, v in values.items():
        ax.semilogy(time, on_log_axis(integral_drift(v), ROUND_OFF), label=name)
    ax.set_xlabel(label("t", "s"))
    ax.set_ylabel(label(f"drift {DRIFT_FORMULA}", "1"))
    ax.set_title(title)
    ax.legend(loc="best", fontsize=9)
    ax.grid(alpha=0.3, which="both")
    return save_figure(fig, path)


def lift_off(unilateral, bilateral, reference, time, title, path) -> pathlib.Path:
    """Normal force N against time: the unilateral run up to its stop, the bilateral run on past it (the surface
    pulls), the reference, and the reference's lift-off instant."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(bilateral["time"], bilateral["N"], **{**FMU_STYLE, "alpha": 0.35, "label": "FMU, unilateral = false (pulls)"})
    ax.plot(unilateral["time"], unilateral["N"], **{**FMU_STYLE, "label": "FMU, unilateral = true (stops)"})
    ax.plot(reference["time"], reference["N"], **REF_STYLE)
    ax.plot(unilateral["time"].iloc[-1], unilateral["N"].iloc[-1], "o", color=FMU_STYLE["color"])
    ax.axhline(0.0, color="0.5", lw=0.8)
    ax.axvline(time, color="0.3", ls=":", lw=1, label=f"reference's lift-off, t = {time:.6g} s")
    ax.set_xlabel(label("time", "s"))
    ax.set_ylabel(label("normal force N", "N"))
    ax.set_title(title)
    ax.legend(loc="best", fontsize=8)
    return save_figure(fig, path)


def trend(x, y, x_axis, y_axis, title, path, fit_slope: float | None = None) -> pathlib.Path:
    """A log-log trend (e.g. error against stiffness), with an optional reference slope; axes are (name, unit)."""
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    ax.loglog(x, y, "o-", color="tab:blue", label="measured")
    if fit_slope is not None:
        x = np.asarray(x, dtype=float)
        ax.loglog(x, y[0] * (x / x[0]) ** fit_slope, "--", color="0.5", label=f"slope {fit_slope:g}")
    ax.set_xlabel(label(*x_axis))
    ax.set_ylabel(label(*y_axis))
    ax.set_title(title)
    ax.legend(loc="best")
    ax.grid(alpha=0.3, which="both")
    return save_figure(fig, path)


def unit_sphere_paths(paths: dict, title, path, names=("x", "y", "z")) -> pathlib.Path:
    """Curves on the unit sphere (label -> (k, 3) array), e.g. the vertical in a body frame; ``names`` are
    the (dimensionless) components."""
    fig = plt.figure(figsize=(6.5, 6))
    ax = fig.add_subplot(projection="3d")
    u, v = np.meshgrid(np.linspace(0, 2 * np.pi, 36), np.linspace(0, np.pi, 18))
    ax.plot_wireframe(np.cos(u) * np.sin(v), np.sin(u) * np.sin(v), np.cos(v), color="0.85", lw=0.4)
    for (name, xyz), style in zip(paths.items(), (FMU_STYLE, REF_STYLE, {})):
        xyz = np.asarray(xyz)
        ax.plot(xyz[:, 0], xyz[:, 1], xyz[:, 2], **{**style, "label": name})
    ax.set_box_aspect((1, 1, 1))
    ax.set_xlabel(label(names[0], "1"))
    ax.set_ylabel(label(names[1], "1"))
    ax.set_zlabel(label(names[2], "1"))
    ax.set_title(title)
    ax.legend(loc="upper left")
    return save_figure(fig, path)


TIPPE_TOP_COLUMNS = ("time", "r_0[1]", "r_0[2]", "r_0[3]", "Q[1]", "Q[2]", "Q[3]", "Q[4]")


def _quaternion_matrices(q) -> np.ndarray:
    """T(Q) for each row of the (k, 4) unit quaternions (scalar first, normalised here): body -> world."""
    q = np.asarray(q, dtype=float)
    q0, q1, q2, q3 = (q / np.linalg.norm(q, axis=1, keepdims=True)).T
    return np.stack([
        np.stack([1 - 2 * (q2**2 + q3**2), 2 * (q1 * q2 - q0 * q3), 2 * (q1 * q3 + q0 * q2)], -1),
        np.stack([2 * (q1 * q2 + q0 * q3), 1 - 2 * (q1**2 + q3**2), 2 * (q2 * q3 - q0 * q1)], -1),
        np.stack([2 * (q1 * q3 - q0 * q2), 2 * (q2 * q3 + q0 * q1), 1 - 2 * (q1**2 + q2**2)], -1)], -2)


def _sphere_faces(centre_z: float, radius: float, n_lon: int = 12, n_lat: int = 8):
    """Quadrilaterals of a sphere about (0, 0, centre_z) in body axes: corners (n, 4, 3), outward unit normals
    (n, 3) and each face's longitude band (n,); band 0 starts at the body x axis."""
    lon = np.linspace(0, 2 * np.pi, n_lon + 1)
    lat = np.linspace(0, np.pi, n_lat + 1)
    faces, normals, bands = [], [], []
    for i in range(n_lon):
        for j in range(n_lat):
            corners = [(lon[a], lat[b]) for a, b in ((i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1))]
            unit = np.array([(np.cos(u) * np.sin(v), np.sin(u) * np.sin(v), np.cos(v)) for u, v in corners])
            faces.append(unit * radius + (0, 0, centre_z))
            normal = unit.mean(axis=0)
            normals.append(normal / np.linalg.norm(normal))
            bands.append(i)
    return np.array(faces), np.array(normals), np.array(bands)


def tippe_top_animation(frame, geometry: dict, path: pathlib.Path, fps: int = 25, max_frames: int = 150,
                        title: str = "") -> pathlib.Path:
    """An animated GIF of a tippe top's attitude: the body sphere (radius R1, centre e1 along body +z from the
    centre of mass) with a red stripe along its body-x meridian, so the spin shows, the head sphere (R2 at e2)
    and the stem between their centres, over the plane z = 0 (grid of 10 mm, fixed in the world, so that
    the top's travel shows). ``frame`` holds time, centre of mass r_0[1..3] [m] and unit quaternion Q[1..4]
    (scalar first), optionally theta [rad] (else the tilt is computed from Q); it is subsampled evenly to at
    most ``max_frames`` frames. The view, at true scale, follows the centre of mass horizontally."""
    from matplotlib.animation import FuncAnimation, PillowWriter
    from mpl_toolkits.mplot3d.art3d import Line3DCollection, Poly3DCollection

    from .errors import NonholonomicError

    missing = [c for c in TIPPE_TOP_COLUMNS if c not in frame.columns]
    if missing:
        raise NonholonomicError(f"tippe_top_animation: the trajectory has no column {', '.join(missing)}")
    missing = [k for k in ("R1", "e1", "R2", "e2") if k not in geometry]
    if missing:
        raise NonholonomicError(f"tippe_top_animation: the geometry has no {', '.join(missing)}")
    if len(frame) == 0 or max_frames < 1 or fps < 1:
        raise NonholonomicError(f"tippe_top_animation: needs rows, max_frames >= 1 and fps >= 1 "
                                f"(got {len(frame)} rows, max_frames={max_frames}, fps={fps})")
    R1, e1, R2, e2 = (float(geometry[k]) for k in ("R1", "e1", "R2", "e2"))
    rows = np.unique(np.linspace(0, len(frame) - 1, min(len(frame), max_frames)).round().astype(int))
    time = frame["time"].to_numpy(dtype=float)[rows]
    r = frame[["r_0[1]", "r_0[2]", "r_0[3]"]].to_numpy(dtype=float)[rows]
    T = _quaternion_matrices(frame[["Q[1]", "Q[2]", "Q[3]", "Q[4]"]].to_numpy(dtype=float)[rows])
    theta = (frame["theta"].to_numpy(dtype=float)[rows] if "theta" in frame.columns
             else np.arccos(np.clip(T[:, 2, 2], -1.0, 1.0)))
    if not (np.all(np.isfinite(r)) and np.all(np.isfinite(T))):
        raise NonholonomicError("tippe_top_animation: the trajectory has non-finite positions or quaternions")

    # the top in body axes: both spheres and a hexagonal stem, one collection so that faces sort by depth
    body, body_n, bands = _sphere_faces(e1, R1)
    head, head_n, _ = _sphere_faces(e2, R2, 10, 6)
    a = np.linspace(0, 2 * np.pi, 7)
    rim = 0.25 * R2 * np.stack([np.cos(a), np.sin(a)], -1)
    stem = np.array([[(*rim[k], e1), (*rim[k + 1], e1), (*rim[k + 1], e2), (*rim[k], e2)] for k in range(6)])
    stem_n = np.array([(np.cos(m), np.sin(m), 0) for m in 0.5 * (a[:-1] + a[1:])])
    faces = np.concatenate([body, head, stem])
    normals = np.concatenate([body_n, head_n, stem_n])
    base = np.concatenate([np.where(bands[:, None] == 0, (0.85, 0.1, 0.1), (0.55, 0.75, 0.95)),
                           np.tile((0.95, 0.6, 0.2), (len(head), 1)), np.tile((0.25, 0.25, 0.25), (6, 1))])
    alpha = np.concatenate([np.full(len(body), 0.8), np.full(len(head), 0.9), np.ones(6)])
    light = np.array([-0.4, -0.6, 0.7]) / np.linalg.norm([-0.4, -0.6, 0.7])

    half = 1.6 * R1  # half-width of the view; its height is 1.7 half, at the same scale
    z_low = -0.15 * half
    grid = 0.01
    fig = plt.figure(figsize=(4.6, 4.6))
    ax = fig.add_axes((0, 0, 1, 0.92), projection="3d", computed_zorder=False, proj_type="ortho")
    ax.set_box_aspect((1, 1, 0.85), zoom=1.2)
    ax.view_init(elev=18, azim=-60)
    ax.set_axis_off()
    ax.set_zlim(z_low, z_low + 1.7 * half)
    # drawn in this order (no depth sorting between them): the plane, its grid, the track of the centre of
    # mass and the contact points on it, then the top
    floor = Poly3DCollection([], facecolor=(0.9, 0.9, 0.88), edgecolor="none", alpha=0.8, zorder=0)
    grid_lines = Line3DCollection([], colors="0.6", linewidths=0.5, zorder=1)
    track, = ax.plot([], [], [], color="0.35", lw=0.8, zorder=2)
    contacts, = ax.plot([], [], [], "o", color="k", ms=3, zorder=2)
    top = Poly3DCollection([], edgecolor=(0.2, 0.2, 0.3, 0.5), linewidths=0.3, zorder=3)
    for artist in (floor, grid_lines, top):
        ax.add_collection3d(artist, autolim=False)
    fig.suptitle(title, fontsize=10)
    text = fig.text(0.03, 0.03, "", fontsize=9, family="monospace")

    def draw(k):
        x, y = r[k, 0], r[k, 1]
        ax.set_xlim(x - half, x + half)
        ax.set_ylim(y - half, y + half)
        floor.set_verts([[(x - half, y - half, 0), (x + half, y - half, 0), (x + half, y + half, 0),
                          (x - half, y + half, 0)]])
        xs = np.arange(np.ceil((x - half) / grid), np.floor((x + half) / grid) + 1) * grid
        ys = np.arange(np.ceil((y - half) / grid), np.floor((y + half) / grid) + 1) * grid
        grid_lines.set_segments([[(g, y - half, 0), (g, y + half, 0)] for g in xs]
                                + [[(x - half, g, 0), (x + half, g, 0)] for g in ys])
        near = np.max(np.abs(r[: k + 1, :2] - (x, y)), axis=1) < half  # the track inside the view
        track.set_data_3d(np.where(near, r[: k + 1, 0], np.nan), np.where(near, r[: k + 1, 1], np.nan),
                          np.zeros(k + 1))
        centres = r[k] + np.outer((e1, e2), T[k][:, 2])  # sphere centres; a sphere touches within 2 % of R
        touching = centres[:, 2] < 1.02 * np.array([R1, R2])
        contacts.set_data_3d(centres[touching, 0], centres[touching, 1], np.zeros(touching.sum()))
        top.set_verts(faces @ T[k].T + r[k])
        shade = 0.55 + 0.45 * np.clip((normals @ T[k].T) @ light, 0, None)
        top.set_facecolor(np.column_stack([base * shade[:, None], alpha]))
        text.set_text(f"t = {time[k]:6.3f} s   θ = {np.degrees(theta[k]):6.1f}°   grid {grid * 1e3:g} mm")
        return top, floor, grid_lines, track, contacts, text

    animation = FuncAnimation(fig, draw, frames=len(rows), blit=False)
    path = pathlib.Path(path)
    try:
        animation.save(path, writer=PillowWriter(fps=fps), dpi=80)
    finally:
        plt.close(fig)
    return path


def snakeboard_animation(frame, path: pathlib.Path, l: float = 0.3, track: float = 0.05, fps: int = 25,
                         max_frames: int = 120, title: str = "") -> pathlib.Path:
    """An animated GIF of a snakeboard seen from above: the crossbar (length 2 l), each wheelset's axle with its
    two wheels (half track ``track``) turned by phi_f, phi_b, the rotor as a bar turned by psi, and the track
    of the centre. ``frame`` holds time, x, y, theta, psi, phi_f, phi_b (m, rad); it is subsampled evenly to at
    most ``max_frames`` frames. The view follows the centre."""
    from matplotlib.animation import FuncAnimation, PillowWriter

    from .errors import NonholonomicError

    columns = ("time", "x", "y", "theta", "psi", "phi_f", "phi_b")
    missing = [c for c in columns if c not in frame.columns]
    if missing or len(frame) == 0 or max_frames < 1 or fps < 1:
        raise NonholonomicError(f"snakeboard_animation: needs rows with {', '.join(columns)} "
                                f"(missing: {', '.join(missing) or 'none'}), max_frames >= 1 and fps >= 1")
    rows = np.unique(np.linspace(0, len(frame) - 1, min(len(frame), max_frames)).round().astype(int))
    t, x, y, th, psi, pf, pb = (frame[c].to_numpy(dtype=float) for c in columns)
    half = 2.2 * l
    fig, ax = plt.subplots(figsize=(4.8, 4.8))
    ax.set_aspect("equal")
    ax.grid(alpha=0.3)
    ax.set_xlabel(label("x", "m"))
    ax.set_ylabel(label("y", "m"))
    ax.set_title(title, fontsize=10)
    trail, = ax.plot([], [], color="0.5", lw=0.8)
    bar, = ax.plot([], [], color="0.2", lw=3, solid_capstyle="round")
    rotor, = ax.plot([], [], color="tab:red", lw=4, solid_capstyle="round")
    axles = [ax.plot([], [], color="tab:green", lw=2)[0] for _ in range(2)]
    wheels = [ax.plot([], [], color="k", lw=5, solid_capstyle="butt")[0] for _ in range(4)]
    text = ax.text(0.03, 0.95, "", transform=ax.transAxes, fontsize=9, family="monospace", va="top")

    def draw(k):
        e = np.array([np.cos(th[k]), np.sin(th[k])])
        c = np.array([x[k], y[k]])
        ax.set_xlim(x[k] - half, x[k] + half)
        ax.set_ylim(y[k] - half, y[k] + half)
        trail.set_data(x[: k + 1], y[: k + 1])
        bar.set_data(*np.stack([c - l * e, c + l * e], 1))
        r = 0.4 * l * np.array([np.cos(th[k] + psi[k]), np.sin(th[k] + psi[k])])
        rotor.set_data(*np.stack([c - r, c + r], 1))
        for i, (sign, phi) in enumerate(((1.0, pf[k]), (-1.0, pb[k]))):
            pivot = c + sign * l * e
            a = np.array([-np.sin(th[k] + phi), np.cos(th[k] + phi)])     # the axle
            f = np.array([np.cos(th[k] + phi), np.sin(th[k] + phi)])      # the rolling direction
            axles[i].set_data(*np.stack([pivot - track * a, pivot + track * a], 1))
            for j, side in enumerate((-1.0, 1.0)):
                hub = pivot + side * track * a
                wheels[2 * i + j].set_data(*np.stack([hub - 0.04 * f, hub + 0.04 * f], 1))
        text.set_text(f"t = {t[k]:5.2f} s")
        return [trail, bar, rotor, *axles, *wheels, text]

    animation = FuncAnimation(fig, draw, frames=rows, blit=False)
    animation.save(path, writer=PillowWriter(fps=fps))
    plt.close(fig)
    return path


def skateboard_animation(frame, path: pathlib.Path, l: float = 0.2, h: float = 1.0, fps: int = 25,
                         max_frames: int = 120, title: str = "") -> pathlib.Path:
    """An animated GIF of a skateboard: seen from above (left; the board of length 2 l at its heading, the
    path of its centre; the view follows the board) and from behind (right; the board tilted by theta and the rider up to the centre of
    mass at height h). ``frame`` holds time, x, y, psi, theta (m, rad; theta > 0 leans to the board's left);
    it is subsampled evenly to at most ``max_frames`` frames."""
    from matplotlib.animation import FuncAnimation, PillowWriter

    from .errors import NonholonomicError

    columns = ("time", "x", "y", "psi", "theta")
    missing = [c for c in columns if c not in frame.columns]
    if missing or len(frame) == 0 or max_frames < 1 or fps < 1:
        raise NonholonomicError(f"skateboard_animation: needs rows with {', '.join(columns)} "
                                f"(missing: {', '.join(missing) or 'none'}), max_frames >= 1 and fps >= 1")
    rows = np.unique(np.linspace(0, len(frame) - 1, min(len(frame), max_frames)).round().astype(int))
    t, x, y, psi, theta = (frame[c].to_numpy(dtype=float) for c in columns)
    fig, (top, back) = plt.subplots(1, 2, figsize=(8.4, 4.4), gridspec_kw={"width_ratios": [1.4, 1]})
    top.set_aspect("equal")
    half = 5 * l  # the top view follows the board
    top.set_xlabel(label("x", "m"))
    top.set_ylabel(label("y", "m"))
    back.set_aspect("equal")
    back.set_xlim(-0.8 * h, 0.8 * h)
    back.set_ylim(-0.1 * h, 1.2 * h)
    back.set_xlabel(label("to the board's right", "m"))
    back.set_ylabel(label("height above the roll axis", "m"))
    back.axhline(0.0, color="0.6", lw=0.8)
    for ax in (top, back):
        ax.grid(alpha=0.3)
    fig.suptitle(title, fontsize=10)
    trail, = top.plot([], [], color="0.5", lw=0.8)
    board, = top.plot([], [], color="0.2", lw=4, solid_capstyle="round")
    deck, = back.plot([], [], color="0.2", lw=4, solid_capstyle="round")
    body, = back.plot([], [], color="tab:blue", lw=3)
    head, = back.plot([], [], "o", color="tab:blue", ms=10)
    text = back.text(0.03, 0.95, "", transform=back.transAxes, fontsize=9, family="monospace", va="top")

    def draw(k):
        e = np.array([np.cos(psi[k]), np.sin(psi[k])])
        top.set_xlim(x[k] - half, x[k] + half)
        top.set_ylim(y[k] - half, y[k] + half)
        trail.set_data(x[: k + 1], y[: k + 1])
        board.set_data([x[k] - l * e[0], x[k] + l * e[0]], [y[k] - l * e[1], y[k] + l * e[1]])
        # from behind, the board's left is on the viewer's left: a lean to the left (theta > 0) tips the rider left
        s, c = np.sin(theta[k]), np.cos(theta[k])
        deck.set_data([-0.15 * c, 0.15 * c], [-0.15 * s, 0.15 * s])  # perpendicular to the rider
        body.set_data([0.0, -h * s], [0.0, h * c])
        head.set_data([-h * s], [h * c])
        text.set_text(f"t = {t[k]:5.2f} s\ntheta = {theta[k]:+.3f} rad")
        return [trail, board, deck, body, head, text]

    animation = FuncAnimation(fig, draw, frames=rows, blit=False)
    animation.save(path, writer=PillowWriter(fps=fps))
    plt.close(fig)
    return path


def euler_disk_animation(frame, geometry: dict, path: pathlib.Path, landing: float, fps: int = 20,
                         title: str = "Euler's disk to rest") -> pathlib.Path:
    """An animated GIF of Euler's disk: a cylinder of radius R and thickness h (``geometry``) with a radial stripe on
    its top face, so that the spin shows, over the plane z = 0, at true scale. ``frame`` holds time, r_0[1..3] [m],
    Q[1..4] (scalar first), tilt [rad] and Omega [rad/s]. The frames are spaced evenly in time up to a second
    before ``landing`` (60) and then again over that second and the first 0.3 s of the rest (100): the fast end
    is slowed down, as the time stamp shows."""
    from matplotlib.animation import FuncAnimation, PillowWriter
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection

    from .errors import NonholonomicError

    time = frame["time"].to_numpy(dtype=float)
    if len(time) < 2 or not time[0] < landing - 1.0 < time[-1]:
        raise NonholonomicError("euler_disk_animation: the trajectory must span the second before the landing")
    wanted = np.concatenate([np.linspace(time[0], landing - 1.0, 60, endpoint=False),
                             np.linspace(landing - 1.0, min(landing + 0.3, time[-1]), 100)])
    rows = np.unique(np.clip(np.searchsorted(time, wanted), 0, len(time) - 1))
    r = frame[["r_0[1]", "r_0[2]", "r_0[3]"]].to_numpy(dtype=float)[rows]
    T = _quaternion_matrices(frame[["Q[1]", "Q[2]", "Q[3]", "Q[4]"]].to_numpy(dtype=float)[rows])
    tilt, omega = frame["tilt"].to_numpy()[rows], frame["Omega"].to_numpy()[rows]
    R, h = float(geometry["R"]), float(geometry["h"])
    a = np.linspace(0, 2 * np.pi, 37)
    ring = np.stack([R * np.cos(a), R * np.sin(a)], -1)
    top = np.column_stack([ring, np.full(len(a), h / 2)])
    bottom = np.column_stack([ring, np.full(len(a), -h / 2)])
    band = np.array([[bottom[k], bottom[k + 1], top[k + 1], top[k]] for k in range(36)])
    stripe = np.array([[(0, -0.08 * R, h / 2 + 1e-5), (0.95 * R, -0.08 * R, h / 2 + 1e-5),
                        (0.95 * R, 0.08 * R, h / 2 + 1e-5), (0, 0.08 * R, h / 2 + 1e-5)]])
    half = 1.4 * R
    fig = plt.figure(figsize=(4.6, 4.2))
    ax = fig.add_axes((0, 0, 1, 0.9), projection="3d", proj_type="ortho", computed_zorder=False)
    ax.set_box_aspect((1, 1, 0.5), zoom=1.3)
    ax.view_init(elev=22, azim=-60)
    ax.set_axis_off()
    floor = Poly3DCollection([[(-half, -half, 0), (half, -half, 0), (half, half, 0), (-half, half, 0)]],
                             facecolor=(0.85, 0.88, 0.92), edgecolor="none", alpha=0.9, zorder=0)
    ax.add_collection3d(floor)
    disk = Poly3DCollection([], edgecolor=(0.3, 0.3, 0.3, 0.3), linewidths=0.2, zorder=1)
    ax.add_collection3d(disk)
    fig.suptitle(title, fontsize=10)
    text = fig.text(0.03, 0.03, "", fontsize=8, family="monospace")

    def draw(k):
        x, y = r[k, 0], r[k, 1]
        ax.set_xlim(x - half, x + half)
        ax.set_ylim(y - half, y + half)
        ax.set_zlim(-0.1 * half, 0.9 * half)
        faces = [list(map(tuple, f @ T[k].T + r[k])) for f in (top, bottom)]
        faces += [list(map(tuple, q @ T[k].T + r[k])) for q in band]
        faces += [list(map(tuple, stripe[0] @ T[k].T + r[k]))]
        disk.set_verts(faces)
        disk.set_facecolor([(0.75, 0.75, 0.8)] * 2 + [(0.55, 0.55, 0.6)] * 36 + [(0.8, 0.1, 0.1)])
        text.set_text(f"t = {time[rows[k]]:8.3f} s   tilt = {np.degrees(tilt[k]):6.3f} deg\n"
                      f"Omega = {omega[k]:8.1f} rad/s")
        return disk, text

    animation = FuncAnimation(fig, draw, frames=len(rows), blit=False)
    path = pathlib.Path(path)
    try:
        with np.errstate(over="ignore", invalid="ignore"):  # mplot3d's projection of the empty first collection
            animation.save(path, writer=PillowWriter(fps=fps), dpi=80)
    finally:
        plt.close(fig)
    return path
