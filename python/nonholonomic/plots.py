"""Plots of verification runs: FMU and reference overlaid, with error panels."""

from __future__ import annotations

import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

FMU_STYLE = dict(color="tab:blue", lw=1.6, label="FMU")
REF_STYLE = dict(color="tab:orange", lw=1.2, ls="--", label="reference")


def _save(fig, path: pathlib.Path) -> pathlib.Path:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def overlay_with_error(x, fmu_y, ref_y, xlabel, ylabel, title, path, x_ref=None) -> pathlib.Path:
    """A curve from the FMU over the reference, and below it the difference."""
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7.5, 5.5), sharex=x_ref is None,
                                      gridspec_kw={"height_ratios": [3, 1.2]})
    top.plot(x, fmu_y, **FMU_STYLE)
    top.plot(x if x_ref is None else x_ref, ref_y, **REF_STYLE)
    top.set_ylabel(ylabel)
    top.set_title(title)
    top.legend(loc="best")
    top.grid(alpha=0.3)
    bottom.plot(x, np.asarray(fmu_y) - np.asarray(ref_y), color="tab:red", lw=1)
    bottom.set_xlabel(xlabel)
    bottom.set_ylabel("FMU - ref.")
    bottom.grid(alpha=0.3)
    return _save(fig, path)


def phase_plane_with_error(q, dq, q_ref, dq_ref, tau, labels, title, path) -> pathlib.Path:
    """The phase curve of FMU and reference, and the distance between them against time."""
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7.5, 6.5), gridspec_kw={"height_ratios": [3, 1.2]})
    top.plot(q, dq, **FMU_STYLE)
    top.plot(q_ref, dq_ref, **REF_STYLE)
    top.set_xlabel(labels[0])
    top.set_ylabel(labels[1])
    top.set_title(title)
    top.legend(loc="best")
    top.grid(alpha=0.3)
    bottom.plot(tau, np.hypot(np.asarray(q) - q_ref, np.asarray(dq) - dq_ref), color="tab:red", lw=1)
    bottom.set_xlabel(labels[2])
    bottom.set_ylabel("distance")
    bottom.grid(alpha=0.3)
    return _save(fig, path)


def signals_with_errors(time, fmu, ref, signals, title, path) -> pathlib.Path:
    """Each signal of FMU and reference over time (left) and their difference (right)."""
    fig, axes = plt.subplots(len(signals), 2, figsize=(11, 2.1 * len(signals)), sharex=True)
    for (left, right), s in zip(np.atleast_2d(axes), signals):
        left.plot(time, fmu[s], **FMU_STYLE)
        left.plot(time, ref[s], **REF_STYLE)
        left.set_ylabel(s)
        left.grid(alpha=0.3)
        right.plot(time, fmu[s].to_numpy() - ref[s].to_numpy(), color="tab:red", lw=1)
        right.set_ylabel(f"{s}: FMU - ref.")
        right.grid(alpha=0.3)
    np.atleast_2d(axes)[0, 0].legend(loc="best")
    np.atleast_2d(axes)[0, 0].set_title(title)
    np.atleast_2d(axes)[-1, 0].set_xlabel("t [s]")
    np.atleast_2d(axes)[-1, 1].set_xlabel("t [s]")
    return _save(fig, path)


def drift(time, energy, residuals: dict, title, path) -> pathlib.Path:
    """Relative energy drift and the constraint residuals of an FMU run, log scale."""
    fig, ax = plt.subplots(figsize=(7.5, 4))
    energy = np.asarray(energy)
    floor = 1e-18  # below double precision of any of these quantities; keeps log(0) off the plot
    ax.semilogy(time, np.maximum(np.abs(energy - energy[0]) / abs(energy[0]), floor), label="|E - E0| / |E0|")
    for name, values in residuals.items():
        ax.semilogy(time, np.maximum(np.abs(values), floor), label=f"|{name}|")
    ax.set_xlabel("t [s]")
    ax.set_title(title)
    ax.legend(loc="best")
    ax.grid(alpha=0.3, which="both")
    return _save(fig, path)


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
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    ax.set_zlabel("z [m]")
    ax.set_title(title)
    ax.legend(loc="upper left")
    return _save(fig, path)


def planar_paths(paths: dict, title, path, xlabel="x [m]", ylabel="y [m]") -> pathlib.Path:
    """Paths in the horizontal plane: label -> (x, y, style dict)."""
    fig, ax = plt.subplots(figsize=(6.5, 6))
    for label, (x, y, style) in paths.items():
        ax.plot(x, y, **{**style, "label": label})
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(loc="best")
    ax.grid(alpha=0.3)
    return _save(fig, path)


def integrals(time, values: dict, title, path) -> pathlib.Path:
    """Relative drift |I(t) - I(0)| / |I(0)| of first integrals, log scale (label -> values)."""
    fig, ax = plt.subplots(figsize=(7.5, 4))
    floor = 1e-18  # below double precision; keeps log(0) off the plot
    for label, v in values.items():
        v = np.asarray(v, dtype=float)
        scale = abs(v[0]) if abs(v[0]) > 0 else max(np.max(np.abs(v)), 1e-300)
        ax.semilogy(time, np.maximum(np.abs(v - v[0]) / scale, floor), label=label)
    ax.set_xlabel("t [s]")
    ax.set_ylabel("relative drift")
    ax.set_title(title)
    ax.legend(loc="best")
    ax.grid(alpha=0.3, which="both")
    return _save(fig, path)


def trend(x, y, xlabel, ylabel, title, path, fit_slope: float | None = None) -> pathlib.Path:
    """A log-log trend (e.g. error against stiffness), with an optional reference slope."""
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    ax.loglog(x, y, "o-", color="tab:blue", label="measured")
    if fit_slope is not None:
        x = np.asarray(x, dtype=float)
        ax.loglog(x, y[0] * (x / x[0]) ** fit_slope, "--", color="0.5", label=f"slope {fit_slope:g}")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(loc="best")
    ax.grid(alpha=0.3, which="both")
    return _save(fig, path)


def unit_sphere_paths(paths: dict, title, path) -> pathlib.Path:
    """Curves on the unit sphere (label -> (k, 3) array), e.g. the vertical in a body frame."""
    fig = plt.figure(figsize=(6.5, 6))
    ax = fig.add_subplot(projection="3d")
    u, v = np.meshgrid(np.linspace(0, 2 * np.pi, 36), np.linspace(0, np.pi, 18))
    ax.plot_wireframe(np.cos(u) * np.sin(v), np.sin(u) * np.sin(v), np.cos(v), color="0.85", lw=0.4)
    for (label, xyz), style in zip(paths.items(), (FMU_STYLE, REF_STYLE, {})):
        xyz = np.asarray(xyz)
        ax.plot(xyz[:, 0], xyz[:, 1], xyz[:, 2], **{**style, "label": label})
    ax.set_box_aspect((1, 1, 1))
    ax.set_title(title)
    ax.legend(loc="upper left")
    return _save(fig, path)
