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
FLOOR = 1e-18  # below double precision of any plotted quantity; keeps log(0) off log axes


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


def _save(fig, path: pathlib.Path) -> pathlib.Path:
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
    return _save(fig, path)


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
    return _save(fig, path)


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
    return _save(fig, path)


def drift(time, energy, residuals: dict, title, path) -> pathlib.Path:
    """The FMU's relative energy drift (as its check measures it) and its constraint residuals, each in its
    own panel, log scale; ``residuals`` maps a name to (values, unit)."""
    fig, axes = plt.subplots(1 + len(residuals), 1, figsize=(7.5, 2.2 + 1.8 * len(residuals)), sharex=True)
    axes = np.atleast_1d(axes)
    axes[0].semilogy(time, np.maximum(integral_drift(energy), FLOOR), color="tab:blue")
    axes[0].set_ylabel(label("energy drift", "1"))
    axes[0].set_title(f"{title}\nenergy drift {DRIFT_FORMULA.replace('I', 'E')}", fontsize=10)
    for ax, (name, (values, unit)) in zip(axes[1:], residuals.items()):
        ax.semilogy(time, np.maximum(np.abs(values), FLOOR), color="tab:red", lw=1)
        ax.set_ylabel(label(f"|{name}|", unit))
    for ax in axes:
        ax.grid(alpha=0.3, which="both")
    axes[-1].set_xlabel(label("t", "s"))
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
    ax.set_xlabel(label("x", "m"))
    ax.set_ylabel(label("y", "m"))
    ax.set_zlabel(label("z", "m"))
    ax.set_title(title)
    ax.legend(loc="upper left")
    return _save(fig, path)


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
    return _save(fig, path)


def integrals(time, values: dict, title, path) -> pathlib.Path:
    """Drift of first integrals against time, log scale: label -> values, (k,) for a scalar or (k, n) for a
    vector fixed in space; normalised as the checks normalise them (:func:`integral_drift`)."""
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    for name, v in values.items():
        ax.semilogy(time, np.maximum(integral_drift(v), FLOOR), label=name)
    ax.set_xlabel(label("t", "s"))
    ax.set_ylabel(label(f"drift {DRIFT_FORMULA}", "1"))
    ax.set_title(title)
    ax.legend(loc="best", fontsize=9)
    ax.grid(alpha=0.3, which="both")
    return _save(fig, path)


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
    return _save(fig, path)


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
    return _save(fig, path)
