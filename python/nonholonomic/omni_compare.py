"""The friction model (ch. 3) against the massive-roller model with impacts (ch. 1-2) of Gerasimov (2018).

Both describe the vehicle of ch. 2 (N = 3 wheels, n = 5 rollers of 0.05 kg, wheel bodies 0.15 kg, platform
1 kg) on the three initial conditions of ch. 2. They differ in kind: in the impact model every change of
the roller in contact is an instantaneous inelastic impact (the rollers are truncated, so the contact jumps
between rollers), in the friction model the rollers are untruncated spindles whose contact moves over
continuously, and the entering roller is brought to the rolling speed by regularised Coulomb friction over
a short time. The comparison is the result; there is no pass criterion.

Inertias: the impact model lumps the rollers' transverse inertia and mass into the platform and wheel
moments I_S and J; they are computed here from the friction model's bodies (spindle rollers), so that both
models carry the same masses and the same moments. Lambda = 1.
"""

from __future__ import annotations

import math
import pathlib

import numpy as np
import pandas as pd

from .references.omni_massive import chapter2_experiment, chapter2_parameters
from .simulate import simulate

VEHICLE = dict(N=3, n=5, R=0.15, l=0.05, m_p=1.0, m_hub=0.15, m_r=0.05)
CASES = {1: (0.0, 0.0, 1.0), 2: (1.0, 0.0, 0.0), 3: (1.0, 0.0, 1.0)}  # nu = (nu1, nu2, nu3), Lambda = 1
FMU_OUTPUT_INTERVAL = 0.002  # output interval of the friction model's FMU runs [s], the finest of compare's grids


def spindle_inertia(R_w: float, n: int, m_r: float, R1: float | None = None) -> tuple[float, float]:
    """Axial and transverse central moments of a homogeneous roller whose profile is the arc of the wheel's circle
    over 2 pi/n, its axis at R1 from the wheel's centre (default R_w cos(pi/n): the untruncated spindle; R_w
    cos(pi/(n - 1)): the truncated roller of ch. 1-2), by quadrature."""
    from scipy.integrate import quad
    R1 = R_w * math.cos(math.pi / n) if R1 is None else R1
    X = R_w * math.sin(math.pi / n)
    rho = lambda x: math.sqrt(R_w**2 - x**2) - R1
    V = quad(lambda x: rho(x) ** 2, -X, X)[0]
    axial = 0.5 * quad(lambda x: rho(x) ** 4, -X, X)[0] / V
    transverse = quad(lambda x: rho(x) ** 4 / 4 + x**2 * rho(x) ** 2, -X, X)[0] / V
    return m_r * axial, m_r * transverse


def impact_parameters(eta: float | None = None, truncated: bool = False) -> dict:
    """Parameters of the impact model with the masses and moments of the friction model's bodies: its rollers
    (homogeneous, the profile an arc of the wheel's circle; axes at R1 = l cos(pi/n), the untruncated spindles, or
    with ``truncated`` at l cos(pi/(n-1)), the impact model's own geometry) and hub (a disk of radius l); ``eta`` is
    the mass of one roller over the wheel's total mass (default: the thesis' 0.05 kg rollers on a 0.15 kg wheel
    body, eta = 0.125), the wheel's total mass staying 0.4 kg. The impact model always has truncated rollers (r = l
    cos(pi/(n-1))); with untruncated ones in the friction model the geometry differs, which matters only through
    the rollers' inertia, and that vanishes with the roller mass."""
    v = dict(VEHICLE)
    m_w = v["m_hub"] + v["n"] * v["m_r"]  # the wheel's total mass, whatever eta
    if eta is not None:
        v["m_r"], v["m_hub"] = eta * m_w, (1 - v["n"] * eta) * m_w
    R1 = v["l"] * math.cos(math.pi / (v["n"] - 1 if truncated else v["n"]))
    B, I_tr = spindle_inertia(v["l"], v["n"], v["m_r"], R1)
    J = 0.5 * v["m_hub"] * v["l"] ** 2 + v["n"] * (v["m_r"] * R1**2 + I_tr)
    I_S = 0.5 * v["m_p"] * v["R"] ** 2 + v["N"] * (m_w * v["R"] ** 2 + 0.25 * v["m_hub"] * v["l"] ** 2
                                                  + v["n"] * (0.5 * v["m_r"] * R1**2 + 0.5 * (B + I_tr)))
    return chapter2_parameters("default", B=B, J=J, I_S=I_S)


def compare(out_dir: pathlib.Path | str = "results/omni_compare", t_end: float = 10.0, progress=None) -> pd.DataFrame:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    params = impact_parameters()
    rows = []
    for case, (nu1, nu2, nu3) in CASES.items():
        if progress:
            progress(f"case {case}: impact model")
        impacts = chapter2_experiment(case, t_end, params=params)
        imp = impacts["trajectory"]
        if progress:
            progress(f"case {case}: friction model (FMU)")
        R = VEHICLE["R"]
        fmu = simulate("OmniVehicleChapter2", {"v_0[1]": R * nu1, "v_0[2]": R * nu2, "omega_0": nu3},
                       stop_time=t_end, output_interval=FMU_OUTPUT_INTERVAL, tolerance=1e-6)
        fmu.to_csv(out_dir / f"case{case}_friction.csv", index=False)
        imp.to_csv(out_dir / f"case{case}_impacts.csv", index=False)
        speed = np.hypot(fmu["vx"], fmu["vy"])
        changes = sum(int(np.count_nonzero(np.diff(fmu[f"contactRoller[{i}]"].to_numpy()))) for i in range(1, 4))
        rows.append({"case": case, "model": "impacts (ch. 2)", "T(end)/T(0)": imp["T"].iloc[-1] / imp["T"].iloc[0],
                     "omega(end) [rad/s]": imp["nu3"].iloc[-1] / params["Lam"], "speed(end) [m/s]": imp["v"].iloc[-1],
                     "centre displacement [m]": float(np.hypot(imp["x"].iloc[-1], imp["y"].iloc[-1])),
                     "roller changes": len(impacts["switches"])})
        rows.append({"case": case, "model": "friction (ch. 3)",
                     "T(end)/T(0)": fmu["kineticEnergy"].iloc[-1] / fmu["kineticEnergy"].iloc[0],
                     "omega(end) [rad/s]": fmu["omega"].iloc[-1], "speed(end) [m/s]": float(speed.iloc[-1]),
                     "centre displacement [m]": float(np.hypot(fmu["x"].iloc[-1], fmu["y"].iloc[-1])),
                     "roller changes": changes})
        fig, axes = plt.subplots(1, 4, figsize=(18, 4))
        axes[0].plot(imp["time"], imp["T"] / imp["T"].iloc[0], label="impacts")
        axes[0].plot(fmu["time"], fmu["kineticEnergy"] / fmu["kineticEnergy"].iloc[0], label="friction")
        axes[0].set_ylabel("T / T(0) [-]")
        axes[1].plot(imp["time"], imp["nu3"] / params["Lam"], label="impacts")
        axes[1].plot(fmu["time"], fmu["omega"], label="friction")
        axes[1].set_ylabel("platform angular velocity [rad/s]")
        axes[2].plot(imp["time"], imp["v"], label="impacts")
        axes[2].plot(fmu["time"], speed, label="friction")
        axes[2].set_ylabel("speed of the centre [m/s]")
        axes[3].plot(imp["x"], imp["y"], label="impacts")
        axes[3].plot(fmu["x"], fmu["y"], label="friction")
        axes[3].set_xlabel("x [m]"), axes[3].set_ylabel("y [m]"), axes[3].set_aspect("equal", adjustable="datalim")
        for ax in axes[:3]:
            ax.set_xlabel("t [s]")
        for ax in axes:
            ax.grid(alpha=0.3), ax.legend()
        fig.suptitle(f"ch. 2 initial data {case}: nu(0) = ({nu1:g}, {nu2:g}, {nu3:g})")
        fig.tight_layout()
        fig.savefig(out_dir / f"case{case}_compare.png", dpi=100)
        plt.close(fig)
    table = pd.DataFrame(rows)
    table.to_csv(out_dir / "compare.csv", index=False)
    return table


# ------------------------------------------------------------------------------------ FMU against FMU (issue 14, part 5)
FMU_ETAS = (0.125, 0.0125, 1.25e-3, 1.25e-4)  # one roller's share of its wheel's 0.4 kg: 0.05 kg down to 50 mg


def fmu_pair(case: int, eta: float, t_end: float, truncated: bool = True, friction_tolerance: float = 1e-8,
             impact_tolerance: float = 1e-10) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The friction model (``OmniVehicleChapter2``, rollers as bodies with regularised Coulomb friction; its
    rollers truncated as the impact model's, or the untruncated spindles of ch. 3) and the impact model
    (``OmniVehicleImpact*``, rolling without slipping, an impact at each roller change) on one initial condition of
    ch. 2, with the same masses and moments (:func:`impact_parameters`), every 0.01 s."""
    nu1, nu2, nu3 = CASES[case]
    p = impact_parameters(eta, truncated)
    R = VEHICLE["R"]
    friction = simulate("OmniVehicleChapter2", {"eta": eta, "truncated": float(truncated), "v_0[1]": R * nu1,
                                                "v_0[2]": R * nu2, "omega_0": nu3 / p["Lam"]},
                        stop_time=t_end, output_interval=0.01, tolerance=friction_tolerance,
                        outputs=["x", "y", "psi", "vx", "vy", "omega", "kineticEnergy"])
    friction["heading"] = np.unwrap(friction["psi"].to_numpy())
    from .cases.omni_impact import MODELS
    impact = simulate(MODELS[case], {"M": p["M"], "I_S": p["I_S"], "J": p["J"], "B": p["B"]}, stop_time=t_end,
                      output_interval=0.01, tolerance=impact_tolerance,
                      outputs=["x", "y", "theta", "vx", "vy", "omega", "kineticEnergy", "impacts"])
    impact = impact.drop_duplicates("time", keep="last").rename(columns={"theta": "heading"}).reset_index(drop=True)
    friction = friction.drop_duplicates("time", keep="last").reset_index(drop=True)
    return friction, impact


def fmu_trend(out_dir: pathlib.Path | str = "results/omni_compare", etas=FMU_ETAS, t_end: float = 3.0,
              cases=(1, 2, 3), truncated: bool = True, progress=None) -> pd.DataFrame:
    """The friction model against the impact model, both FMUs, as the rollers get lighter (equal total masses and
    moments; the friction model's rollers truncated as the impact model's, or ``truncated=False`` untruncated):
    per case and eta the largest differences of the path of the centre, the heading, the platform's angular
    velocity and the speed of the centre over ``t_end``, and of the kinetic energy at the end (relative). Writes
    fmu_trend.csv and fmu_trend.png (fmu_trend_untruncated.* for untruncated rollers); returns the table."""
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    for case in cases:
        for eta in etas:
            if progress:
                progress(f"case {case}, eta = {eta:g}: friction and impact FMUs, {t_end:g} s")
            friction, impact = fmu_pair(case, eta, t_end, truncated)
            both = friction.round({"time": 9}).merge(impact.round({"time": 9}), on="time", suffixes=("_f", "_i"))
            speed_f, speed_i = np.hypot(both["vx_f"], both["vy_f"]), np.hypot(both["vx_i"], both["vy_i"])
            rows.append({"case": case, "eta": eta, "roller mass [kg]": eta * (VEHICLE["m_hub"] + VEHICLE["n"] * VEHICLE["m_r"]),
                         "path difference [m]": float(np.max(np.hypot(both["x_f"] - both["x_i"], both["y_f"] - both["y_i"]))),
                         "heading difference [rad]": float(np.max(np.abs(both["heading_f"] - both["heading_i"]))),
                         "omega difference [rad/s]": float(np.max(np.abs(both["omega_f"] - both["omega_i"]))),
                         "speed difference [m/s]": float(np.max(np.abs(speed_f - speed_i))),
                         "energy difference at the end (relative)": float(abs(both["kineticEnergy_f"].iloc[-1]
                                                                             - both["kineticEnergy_i"].iloc[-1])
                                                                         / both["kineticEnergy_i"].iloc[0]),
                         "impacts": int(impact["impacts"].iloc[-1])})
    table = pd.DataFrame(rows)
    name = "fmu_trend" if truncated else "fmu_trend_untruncated"
    table.to_csv(out_dir / f"{name}.csv", index=False)
    plot_fmu_trend(table, out_dir / f"{name}.png", t_end, truncated)
    return table


def plot_fmu_trend(table: pd.DataFrame, path: pathlib.Path, t_end: float, truncated: bool = True) -> pathlib.Path:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .plots import on_log_axis
    columns = ["path difference [m]", "heading difference [rad]", "omega difference [rad/s]",
               "energy difference at the end (relative)"]
    fig, axes = plt.subplots(1, len(columns), figsize=(18, 4.2))
    for ax, column in zip(axes, columns):
        for case, rows in table.groupby("case"):
            ax.loglog(rows["eta"], on_log_axis(rows[column]), "o-", label=f"case {case}: nu(0) = {CASES[case]}")
        eta = np.array(sorted(table["eta"].unique()))
        top = table[column].max()
        ax.loglog(eta, top * eta / eta.max(), "k:", lw=1, label="slope 1")
        ax.loglog(eta, top * (eta / eta.max()) ** (1 / 3), "k--", lw=0.8, label="slope 1/3")
        ax.set_xlabel("eta = roller mass / wheel mass [-]")
        ax.set_ylabel(column)
        ax.grid(alpha=0.3, which="both")
    axes[0].legend(fontsize=7)
    fig.suptitle(f"friction model (FMU, {'truncated' if truncated else 'untruncated'} rollers) - impact model (FMU), "
                 f"equal masses and moments, {t_end:g} s")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
