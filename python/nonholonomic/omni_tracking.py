"""Path following of the omni vehicle with a Python controller in the loop (co-simulation).

Plant: ``Examples.OmniVehicleDriven`` (massive rollers with friction, an FMU, model exchange in the project's
loop) or the massless-roller reference model (``references.omni_massless``, Borisov-Kilin-Mamaev 2011) with
the same masses, both driven by a torque on each wheel's axle. Controller, a function of the plant's
outputs at each communication point:

- kinematic loop: the platform's velocity command v = p_d'(t) + k_p (p_d(t) - p) (world frame) and turning
  rate command omega = -k_psi psi (the vehicle keeps its heading: an omni vehicle moves in any direction);
- inverse kinematics of the massless-roller model: wheel i (axle along n_i = (cos alpha_i, sin alpha_i) of
  the platform, at distance R_p) rolls without slipping in its plane when its spin about n_i relative to the
  platform is w_i = -(v_b . (e_z x n_i) + omega R_p)/R_w (v_b: the velocity command in the platform frame);
- wheel-rate loop: tau_i = k_w e_i + k_i (integral of e_i), e_i = w_i - wheelRate_i.

Paths: a circle (radius 0.3 m, 8 s per turn) and a figure-eight (a lemniscate of Gerono, 0.4 m by 0.2 m, 12 s),
both through the start point, where the vehicle is at rest. Results: tracking errors of both plants, the
effect of the rollers' mass, and the coupling error against the communication step (its measured order).
"""

from __future__ import annotations

import dataclasses
import math
import pathlib

import numpy as np
import pandas as pd

from .cosim import FmuComponent, FunctionComponent, OdeComponent, System
from .sweep import N_WHEELS, VEHICLE, massless_model

ALPHA = tuple(2 * math.pi * i / N_WHEELS for i in range(N_WHEELS))  # axle directions (Vehicles.OmniVehicle)
PATHS = {"circle": (0.3, 8.0), "eight": (0.4, 12.0)}  # size [m], period [s]
SIGNALS = ["x", "y", "psi", "vx", "vy", "omega"] + [f"wheelRate[{i + 1}]" for i in range(N_WHEELS)]
TORQUES = [f"tau[{i + 1}]" for i in range(N_WHEELS)]
FINE_STEP = 0.00125  # communication step [s] of the reference run for the coupling error (the finest of report's)


def desired(path: str, t) -> tuple[np.ndarray, np.ndarray]:
    """Position and velocity on the path at time(s) t: arrays (2,) or (2, k)."""
    size, period = PATHS[path]
    w = 2 * math.pi / period
    t = np.asarray(t, dtype=float)
    if path == "circle":
        return (np.array([size * np.sin(w * t), size * (1 - np.cos(w * t))]),
                np.array([size * w * np.cos(w * t), size * w * np.sin(w * t)]))
    return (np.array([size * np.sin(w * t), size / 2 * np.sin(2 * w * t)]),
            np.array([size * w * np.cos(w * t), size * w * np.cos(2 * w * t)]))


@dataclasses.dataclass
class Tracker:
    """The controller (module docstring); gains: k_p, k_psi [1/s], k_w [N m s/rad], k_i [N m/rad] (the
    wheel loop's integral term, the torque that holds the vehicle on a curve without a lasting rate error)."""
    path: str
    k_p: float = 2.0
    k_psi: float = 2.0
    k_w: float = 0.01
    k_i: float = 0.05

    def __post_init__(self):
        self._integral, self._t = np.zeros(N_WHEELS), 0.0

    def __call__(self, t: float, u: dict) -> dict:
        p, dp = desired(self.path, t)
        v = dp + self.k_p * (p - np.array([u["x"], u["y"]]))
        c, s = math.cos(u["psi"]), math.sin(u["psi"])
        v_b = np.array([c * v[0] + s * v[1], -s * v[0] + c * v[1]])
        omega = -self.k_psi * math.atan2(math.sin(u["psi"]), math.cos(u["psi"]))
        error = np.array([-(v_b @ np.array([-math.sin(a), math.cos(a)]) + omega * VEHICLE["R_p"]) / VEHICLE["R_w"]
                          - u[f"wheelRate[{i + 1}]"] for i, a in enumerate(ALPHA)])
        self._integral += error * (t - self._t)  # rectangle rule at the communication points
        self._t = t
        return {name: self.k_w * e + self.k_i * s for name, e, s in zip(TORQUES, error, self._integral)}


def reference_plant() -> OdeComponent:
    """The massless-roller model as a component with the FMU's inputs and outputs. Its torques act about
    the reference's axles a_i = -n_i: tau_reference = -tau (Joints.Revolute's tau is about n_i); its wheel
    spin chi_i' is about a_i: wheelRate_i = -chi_i'."""
    model = massless_model()

    def rhs(t, y, u):
        return model.rhs(t, y, torques=-np.array([u[n] for n in TORQUES]))

    def observe(t, y, u):
        d = model.rhs(t, y)
        out = {"x": y[0], "y": y[1], "psi": y[2], "vx": d[0], "vy": d[1], "omega": y[5]}
        out.update({f"wheelRate[{i + 1}]": -r for i, r in enumerate(model.wheel_rates(y))})
        return out
    return OdeComponent("plant", rhs, np.zeros(6 + N_WHEELS), TORQUES, SIGNALS, observe)


def run(path: str, plant: str = "fmu", eta: float = 2.5e-3, step: float = 0.01, stop_time: float | None = None,
        tolerance: float = 1e-6, algorithm: str = "gauss-seidel") -> pd.DataFrame:
    """One closed-loop run: the plant's inputs and outputs at the communication points, with the desired
    path and the tracking error |p_d - p|."""
    stop_time = PATHS[path][1] if stop_time is None else stop_time
    vehicle = FmuComponent("plant", "OmniVehicleDriven", {"eta": eta}) if plant == "fmu" else reference_plant()
    controller = FunctionComponent("controller", Tracker(path), SIGNALS, TORQUES)
    links = [(f"plant.{n}", f"controller.{n}") for n in SIGNALS] + [(f"controller.{n}", f"plant.{n}") for n in TORQUES]
    frame = System([vehicle, controller], links).run(stop_time, step, algorithm, tolerance)["plant"]
    p, _ = desired(path, frame["time"].to_numpy())
    frame["x_d"], frame["y_d"] = p
    frame["error"] = np.hypot(frame["x"] - p[0], frame["y"] - p[1])
    return frame


SETTLE = 2.0  # [s] the start from rest and its transient, excluded from the steady tracking error


def _errors(frame: pd.DataFrame) -> dict:
    t = frame["time"].to_numpy()
    steady = frame["error"].to_numpy()[t >= min(SETTLE, t[-1] / 2)]  # short runs: their second half
    return {"max tracking error [m]": float(np.max(steady)), "rms tracking error [m]": float(np.sqrt(np.mean(steady**2)))}


def _position_difference(a: pd.DataFrame, b: pd.DataFrame) -> float:
    """Largest distance between two runs' positions at common communication points."""
    t = np.intersect1d(np.round(a["time"].to_numpy(), 9), np.round(b["time"].to_numpy(), 9))
    pa = a.set_index(np.round(a["time"], 9)).loc[t, ["x", "y"]].to_numpy()
    pb = b.set_index(np.round(b["time"], 9)).loc[t, ["x", "y"]].to_numpy()
    return float(np.max(np.hypot(*(pa - pb).T)))


def report(out_dir: pathlib.Path | str = "results/omni_tracking", paths=("circle", "eight"),
           etas=(2.5e-2, 2.5e-3, 2.5e-4), steps=(0.02, 0.01, 0.005), fine_step: float = FINE_STEP,
           stop_time: float | None = None, progress=None) -> pd.DataFrame:
    """The controller on both plants for each path (CSV and a figure per path), the tracking error against
    the rollers' mass (circle), and the coupling error against the communication step with its order
    (circle, both plants; against a run at ``fine_step``). ``stop_time``: of every run (default: one period of
    its path). Returns the summary table (also tracking.csv)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    say = progress or (lambda msg: None)
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    for path in paths:
        say(f"{path}: the vehicle FMU (eta 2.5e-3) and the massless-roller model, step 0.01 s")
        runs = {"FMU": run(path, "fmu", stop_time=stop_time), "massless": run(path, "reference", stop_time=stop_time)}
        for plant, frame in runs.items():
            frame.to_csv(out_dir / f"{path}_{plant}.csv", index=False)
            rows.append({"study": "path", "path": path, "plant": plant, "eta": 2.5e-3 if plant == "FMU" else 0.0,
                         "step [s]": 0.01, **_errors(frame)})
        fig, ax = plt.subplots(1, 3, figsize=(13, 4.2))
        p, _ = desired(path, np.linspace(0, stop_time or PATHS[path][1], 400))
        ax[0].plot(p[0], p[1], "k:", label="path")
        for (plant, frame), style in zip(runs.items(), ("-", "--")):
            ax[0].plot(frame["x"], frame["y"], style, label=plant)
            for k, name in enumerate(TORQUES):
                ax[1].plot(frame["time"], frame[name], style, color=f"C{k}", label=f"{name}, {plant}")
            ax[2].plot(frame["time"], 1e3 * frame["error"], style, label=plant)
        ax[0].set(xlabel="x [m]", ylabel="y [m]", title=f"{path}: path", aspect="equal")
        ax[1].set(xlabel="time [s]", ylabel="wheel torque [N m]", title="drive torques")
        ax[2].set(xlabel="time [s]", ylabel="|p_d - p| [mm]", title="tracking error")
        for a in ax:
            a.grid(alpha=0.3)
            a.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(out_dir / f"{path}.png", dpi=110)
        plt.close(fig)
    reference = (pd.read_csv(out_dir / "circle_massless.csv") if "circle" in paths
                 else run("circle", "reference", stop_time=stop_time))
    for eta in etas:
        say(f"circle: rollers of eta = {eta:g}")
        frame = run("circle", "fmu", eta=eta, stop_time=stop_time)
        rows.append({"study": "roller mass", "path": "circle", "plant": "FMU", "eta": eta, "step [s]": 0.01,
                     **_errors(frame), "distance to the massless run [m]": _position_difference(frame, reference)})
    for plant in ("massless", "FMU"):
        say(f"circle: communication steps {', '.join(map(str, steps))} and {fine_step} s ({plant})")
        kind = "reference" if plant == "massless" else "fmu"
        fine = run("circle", kind, step=fine_step, stop_time=stop_time)
        coupling = []
        for step in steps:
            frame = run("circle", kind, step=step, stop_time=stop_time)
            coupling.append(_position_difference(frame, fine))
            rows.append({"study": "communication step", "path": "circle", "plant": plant,
                         "eta": 2.5e-3 if plant == "FMU" else 0.0, "step [s]": step, **_errors(frame),
                         "coupling error [m]": coupling[-1],
                         "order": math.log2(coupling[-2] / coupling[-1]) if len(coupling) > 1 else float("nan")})
    table = pd.DataFrame(rows)
    table.to_csv(out_dir / "tracking.csv", index=False)
    return table
