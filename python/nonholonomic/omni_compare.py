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


def spindle_inertia(R_w: float, n: int, m_r: float) -> tuple[float, float]:
    """Axial and transverse central moments of a homogeneous spindle roller (by quadrature)."""
    from scipy.integrate import quad
    R1, X = R_w * math.cos(math.pi / n), R_w * math.sin(math.pi / n)
    rho = lambda x: math.sqrt(R_w**2 - x**2) - R1
    V = quad(lambda x: rho(x) ** 2, -X, X)[0]
    axial = 0.5 * quad(lambda x: rho(x) ** 4, -X, X)[0] / V
    transverse = quad(lambda x: rho(x) ** 4 / 4 + x**2 * rho(x) ** 2, -X, X)[0] / V
    return m_r * axial, m_r * transverse


def impact_parameters() -> dict:
    v = VEHICLE
    R1 = v["l"] * math.cos(math.pi / v["n"])
    B, I_tr = spindle_inertia(v["l"], v["n"], v["m_r"])
    J = 0.5 * v["m_hub"] * v["l"] ** 2 + v["n"] * (v["m_r"] * R1**2 + I_tr)
    m_w = v["m_hub"] + v["n"] * v["m_r"]
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
                       stop_time=t_end, output_interval=0.002, tolerance=1e-6)
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
