"""The omni-wheel vehicle's sweep over the rollers' mass (Gerasimov 2018, ch. 3), run on Dask.

Each case simulates the 16-body vehicle FMU (``OmniVehicleSpin`` or ``OmniVehicleStraight``) at one roller
mass fraction eta and compares it with the massless-roller nonholonomic model
(:mod:`nonholonomic.references.omni_massless`): the path of the centre, the heading, and the slip at the
contacts. As eta tends to zero the discrepancy must shrink.

The cases run on a Dask cluster: a local one on this machine by default, or an existing scheduler whose
address the user gives. Each worker extracts its own copy of the FMU once. Every finished case is written
to disk as it completes (``<case>.parquet`` with the signals, ``<case>.json`` with the metrics); a case that
fails, or whose worker is lost, is recorded (``<case>.json`` with ``status: failed``) and the rest goes on.
A rerun skips the cases already finished.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import math
import os
import pathlib
import tempfile

import numpy as np
import pandas as pd

from .errors import NonholonomicError
from .models import get_model

N_WHEELS, N_ROLLERS = 3, 4
ETAS = tuple(10.0 ** -k / N_ROLLERS for k in range(1, 7))  # 1e-1/n ... 1e-6/n
# vehicle data of the Modelica example (Vehicles.OmniVehicle defaults)
VEHICLE = dict(R_p=0.15, R_w=0.05, m_p=1.0, m_w=0.15)
KINDS = {  # model, initial velocity (world), angular velocity, default span
    "spin": ("OmniVehicleSpin", (0.0, 0.0), 1.0, 3.0),
    "straight": ("OmniVehicleStraight", (1.0, 0.0), 0.0, 1.5),
}


@dataclasses.dataclass(frozen=True)
class SweepCase:
    kind: str
    eta: float
    stop_time: float
    output_interval: float = 0.001
    tolerance: float = 1e-6

    @property
    def name(self) -> str:
        return f"{self.kind}_eta{self.eta:.1e}"

    @property
    def model(self) -> str:
        return KINDS[self.kind][0]


def cases(kinds=("spin", "straight"), etas=ETAS, stop_time: float | None = None) -> list[SweepCase]:
    out = []
    for kind in kinds:
        if kind not in KINDS:
            raise NonholonomicError(f"unknown sweep kind '{kind}' (known: {', '.join(KINDS)})")
        for eta in etas:
            if not 0 < eta < 1 / N_ROLLERS:
                raise NonholonomicError(f"eta = {eta:g} is outside (0, 1/n) = (0, {1 / N_ROLLERS:g}): "
                                        "the rollers would outweigh their wheel")
            # the slip transients at roller changes shorten with the roller's mass: the lightest are sampled finer
            out.append(SweepCase(kind, float(eta), stop_time or KINDS[kind][3], 1e-3 if eta >= 1e-6 else 1e-4))
    return out


def massless_reference(kind: str, t: np.ndarray) -> pd.DataFrame:
    """The massless-roller model with the vehicle's masses: the wheels' whole mass in their hubs."""
    from .references.omni_massless import OmniMassless
    v = VEHICLE
    m = v["m_p"] + N_WHEELS * v["m_w"]
    inertia = v["m_p"] * v["R_p"] ** 2 / 2 + N_WHEELS * v["m_w"] * (v["R_w"] ** 2 / 4 + v["R_p"] ** 2)
    model = OmniMassless.symmetric(N=N_WHEELS, R=v["R_p"], h=v["R_w"], I_w=v["m_w"] * v["R_w"] ** 2 / 2, m=m,
                                   I=inertia, delta=math.pi / 2)
    _, (vx, vy), omega, _ = KINDS[kind]
    return model.simulate((0.0, 0.0, 0.0, vx, vy, omega), t)


@functools.lru_cache(maxsize=4)
def _extracted(fmu: str, mtime: float) -> str:
    """This worker's own extracted copy of the FMU."""
    from fmpy import extract
    return extract(fmu, unzipdir=tempfile.mkdtemp(prefix="nh_fmu_"))


OVER_TIME_LIMIT = "over the time limit"


def run_case(case: SweepCase, fmu: str, time_limit: float | None = None) -> tuple[dict, pd.DataFrame | None]:
    """Simulate one case on this process's copy of the FMU; metrics against the massless model. A run that
    takes more than ``time_limit`` seconds of wall time is stopped and reported as failed (its status; no
    exception, so that Dask does not run it again)."""
    import time
    from .errors import SimulationFailed
    from .simulate import simulate
    unzipped = _extracted(fmu, os.path.getmtime(fmu))
    outputs = ["x", "y", "psi", "omega", "kineticEnergy"] + [f"{s}[{i}]" for s in ("slip", "contactRoller", "N_contact")
                                                               for i in range(1, N_WHEELS + 1)]
    started = time.perf_counter()

    def watch(t, stop_time):
        if time_limit is not None and time.perf_counter() - started > time_limit:
            raise NonholonomicError(f"stopped at t = {t:.4g} s: {OVER_TIME_LIMIT} of {time_limit:g} s of wall time")

    try:
        df = simulate(pathlib.Path(unzipped), {"eta": case.eta}, stop_time=case.stop_time,
                      output_interval=case.output_interval, tolerance=case.tolerance, outputs=outputs, progress=watch)
    except SimulationFailed as e:
        if OVER_TIME_LIMIT not in str(e):
            raise
        return {"case": case.name, "kind": case.kind, "eta": case.eta, "status": "failed", "error": str(e)}, None
    df["psi"] = np.unwrap(df["psi"].to_numpy())
    ref = massless_reference(case.kind, df["time"].to_numpy())
    df["x_ref"], df["y_ref"], df["psi_ref"] = ref["x"].to_numpy(), ref["y"].to_numpy(), ref["phi"].to_numpy()
    slip = df[[f"slip[{i}]" for i in range(1, N_WHEELS + 1)]].to_numpy()
    metrics = {"case": case.name, "kind": case.kind, "eta": case.eta, "stop_time": case.stop_time, "status": "ok",
               "path difference [m]": float(np.max(np.hypot(df["x"] - df["x_ref"], df["y"] - df["y_ref"]))),
               "heading difference [rad]": float(np.max(np.abs(df["psi"] - df["psi_ref"]))),
               "max slip [m/s]": float(np.max(slip)), "mean slip [m/s]": float(np.mean(slip)),
               "energy change (relative)": float((df["kineticEnergy"].iloc[-1] - df["kineticEnergy"].iloc[0])
                                                 / df["kineticEnergy"].iloc[0]),
               "min normal force [N]": float(df[[f"N_contact[{i}]" for i in range(1, N_WHEELS + 1)]].min().min())}
    return metrics, df


def _write(out_dir: pathlib.Path, name: str, metrics: dict, frame: pd.DataFrame | None) -> None:
    """Write a finished case atomically (a half-written file must not count as finished on resume)."""
    if frame is not None:
        tmp = out_dir / f"{name}.parquet.part"
        frame.to_parquet(tmp, index=False)
        os.replace(tmp, out_dir / f"{name}.parquet")
    tmp = out_dir / f"{name}.json.part"
    tmp.write_text(json.dumps(metrics, indent=1))
    os.replace(tmp, out_dir / f"{name}.json")


def finished(out_dir: pathlib.Path, case: SweepCase) -> bool:
    path = out_dir / f"{case.name}.json"
    return path.is_file() and json.loads(path.read_text()).get("status") == "ok" \
        and (out_dir / f"{case.name}.parquet").is_file()


def run_sweep(todo: list[SweepCase], out_dir: pathlib.Path | str = "results/omni_sweep", scheduler: str | None = None,
              workers: int = 2, progress: bool = True, time_limit: float | None = 900.0) -> pd.DataFrame:
    """Run the cases not yet finished in ``out_dir`` on Dask; returns the table of all finished cases. A case
    over ``time_limit`` seconds of wall time is recorded as failed (the lightest rollers moving straight can
    take hours: docs/omni.md); a rerun tries it again."""
    from distributed import Client, LocalCluster, as_completed
    from tqdm import tqdm
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    pending = [c for c in todo if not finished(out_dir, c)]
    fmus = {}
    for c in pending:
        fmu = get_model(c.model).fmu
        if not fmu.is_file():
            raise NonholonomicError(f"no FMU for {c.model} yet: run `nonholonomic build {c.model}`")
        fmus[c.model] = str(fmu)
    if pending:
        cluster = None
        if scheduler:
            client = Client(scheduler)
        else:
            # failures are recorded per case: keep Dask's own logging of them off the terminal
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                                   silence_logs=logging.CRITICAL)
            client = Client(cluster)
        try:
            futures = {client.submit(run_case, c, fmus[c.model], time_limit, key=f"nh-{c.name}-{os.getpid()}",
                                     pure=False, retries=1): c for c in pending}
            bar = tqdm(total=len(futures), desc="omni sweep", unit="case", disable=not progress)
            for future in as_completed(futures):
                case = futures[future]
                try:
                    metrics, frame = future.result()
                    _write(out_dir, case.name, metrics, frame)
                except Exception as e:  # a failed case or a lost worker: record it and go on
                    message = " ".join(str(e).split()) or type(e).__name__
                    _write(out_dir, case.name, {"case": case.name, "kind": case.kind, "eta": case.eta,
                                                "status": "failed", "error": f"{type(e).__name__}: {message}"}, None)
                bar.update(1)
            bar.close()
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    return collect(out_dir, todo)


def collect(out_dir: pathlib.Path, todo: list[SweepCase]) -> pd.DataFrame:
    rows = []
    for c in todo:
        path = pathlib.Path(out_dir) / f"{c.name}.json"
        if path.is_file():
            rows.append(json.loads(path.read_text()))
    table = pd.DataFrame(rows)
    if len(table):
        table = table.sort_values(["kind", "eta"], ascending=[True, False]).reset_index(drop=True)
        table.to_csv(pathlib.Path(out_dir) / "sweep.csv", index=False)
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
    out_dir = pathlib.Path(out_dir)
    files = []
    ok = table[table["status"] == "ok"]
    for kind, group in ok.groupby("kind"):
        group = group.sort_values("eta", ascending=False)
        frames = {row.eta: pd.read_parquet(out_dir / f"{row.case}.parquet") for row in group.itertuples()}
        heaviest = frames[group["eta"].iloc[0]]
        fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
        axes[0].plot(heaviest["x"], heaviest["y"], label="FMU")
        axes[0].plot(heaviest["x_ref"], heaviest["y_ref"], "--", label="massless rollers")
        axes[0].set_xlabel("x [m]"), axes[0].set_ylabel("y [m]"), axes[0].set_title("path of the centre")
        axes[0].legend()
        axes[1].plot(heaviest["time"], heaviest["psi"], label="FMU")
        axes[1].plot(heaviest["time"], heaviest["psi_ref"], "--", label="massless rollers")
        axes[1].set_xlabel("t [s]"), axes[1].set_ylabel("psi [rad]"), axes[1].set_title("heading")
        for i in range(1, N_WHEELS + 1):
            axes[2].step(heaviest["time"], heaviest[f"contactRoller[{i}]"], where="post", label=f"wheel {i}")
        axes[2].set_xlabel("t [s]"), axes[2].set_ylabel("roller in contact"), axes[2].legend()
        fig.suptitle(f"{kind}, eta = {group['eta'].iloc[0]:.1e} (cf. Fig. 3.7)")
        fig.tight_layout()
        files.append(out_dir / f"{kind}_fig3.7.png")
        fig.savefig(files[-1], dpi=100)
        plt.close(fig)
        fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
        for eta, f in frames.items():
            t = f["time"]
            axes[0].semilogy(t, np.hypot(f["x"] - f["x_ref"], f["y"] - f["y_ref"]) + 1e-18, label=f"eta {eta:.1e}")
            axes[1].semilogy(t, np.abs(f["psi"] - f["psi_ref"]) + 1e-18)
            axes[2].semilogy(t, f[[f"slip[{i}]" for i in range(1, N_WHEELS + 1)]].max(axis=1) + 1e-18)
        axes[0].set_ylabel("|position - massless| [m]"), axes[1].set_ylabel("|psi - massless| [rad]")
        axes[2].set_ylabel("max slip speed [m/s]")
        for ax in axes:
            ax.set_xlabel("t [s]"), ax.grid(alpha=0.3, which="both")
        axes[0].legend(fontsize=8)
        fig.suptitle(f"{kind}: differences to the massless-roller model and slip (cf. Fig. 3.8-3.12)")
        fig.tight_layout()
        files.append(out_dir / f"{kind}_differences.png")
        fig.savefig(files[-1], dpi=100)
        plt.close(fig)
    if len(ok):
        fig, ax = plt.subplots(figsize=(6.5, 4.5))
        for kind, group in ok.groupby("kind"):
            ax.loglog(group["eta"], group["path difference [m]"], "o-", label=f"{kind}: path")
            ax.loglog(group["eta"], group["max slip [m/s]"], "s--", label=f"{kind}: max slip [m/s]")
        ax.set_xlabel("eta (roller mass / wheel mass)"), ax.set_ylabel("discrepancy")
        ax.grid(alpha=0.3, which="both"), ax.legend(fontsize=8)
        ax.set_title("massless-roller limit")
        fig.tight_layout()
        files.append(out_dir / "trend.png")
        fig.savefig(files[-1], dpi=100)
        plt.close(fig)
    return files
