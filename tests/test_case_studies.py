"""The verification cases built on studies (issue 27, item 1): the study metrics of the case modules against known
answers (the snakeboard's speed gain per cycle against Ostrowski's closed form on the reference model, the
skateboard's tilt growth rate on signals of known rate), the tippe-top's sensitivity table assembled from its
studies, and a case's studies kept under verify's folder (a rerun reuses them)."""

from __future__ import annotations

import math
import multiprocessing
import os

import numpy as np
import pandas as pd
import pytest
from scipy.special import j1

from nonholonomic.cases import skateboard, snakeboard, tippe_top
from nonholonomic.cases.common import StudyCase
from nonholonomic.references.snakeboard import Gait
from nonholonomic.verification import CaseResult, Check, no_signals

# --- the snakeboard's speed gain per gait cycle ---------------------------------------------------------------------


def _drive(rotor: float, wheels: float, stop: float = 3.0, interval: float = 0.01) -> pd.DataFrame:
    """The reference snakeboard (references/snakeboard.py, checked on its own) from rest in the drive gait
    psi = rotor sin 2 pi t, phi_f = -phi_b = wheels sin 2 pi t, sampled like a study's run."""
    return snakeboard.REFERENCE.simulate(Gait.named("drive", rotor=rotor, wheels=wheels),
                                         np.arange(0.0, stop + interval / 2, interval))


@pytest.mark.parametrize("rotor, wheels", [(1.0, 0.4), (0.5, 0.8), (1.5, 0.2), (1.0, 1.2)])
def test_snakeboard_gain_per_cycle_is_ostrowski_s_closed_form(rotor, wheels):
    """Over each cycle of the drive gait xi/cos(phi) grows by (Jr/(m l)) 4 pi^2 A_psi J1(A_phi), and phi = 0 at
    whole cycles (test_reference_snakeboard checks the reference against it). The reference at rtol 1e-10 over
    three cycles errs by about 1e-10 of its speed; whole cycles fall on samples, so the period from the interpolated
    zero crossings of phi_f (linear through a sine's zero: exact to its curvature, zero there) adds less: bound
    1e-9 m/s (measured: at most 8e-11)."""
    model = snakeboard.REFERENCE
    expected = model.Jr / (model.m * model.l) * 4 * math.pi**2 * rotor * j1(wheels)
    frame = _drive(rotor, wheels)
    assert snakeboard.gait_period(frame) == pytest.approx(1.0, abs=1e-9)
    assert abs(snakeboard.speed_gain_per_cycle(frame) - expected) <= 1e-9


def test_snakeboard_gains_nothing_without_a_rotor_or_wheelsets_and_needs_a_whole_cycle():
    """No rotor swing or no wheelset swing: the board stays at rest (exactly: s' is proportional to psi'' phi);
    neither: no period, and no gain either. A run shorter than a cycle has no gain per cycle."""
    assert snakeboard.speed_gain_per_cycle(_drive(0.0, 0.4)) == 0.0
    assert snakeboard.speed_gain_per_cycle(_drive(1.0, 0.0)) == 0.0
    still = _drive(0.0, 0.0)
    assert math.isnan(snakeboard.gait_period(still)) and snakeboard.speed_gain_per_cycle(still) == 0.0
    assert math.isnan(snakeboard.speed_gain_per_cycle(_drive(1.0, 0.4, stop=0.8)))


def test_snakeboard_gait_period_between_samples():
    """The period of a law whose zero crossings fall between samples (phase 0.3, 0.7 Hz, 0.01 s samples): linear
    interpolation through a sine's zero errs by its third-order term, (2 pi f dt)^2/6 of dt at most: 1e-7 s."""
    t = np.arange(0.0, 6.0, 0.01)
    frame = pd.DataFrame({"time": t, "phi_f": 0.4 * np.sin(2 * math.pi * 0.7 * t + 0.3), "psi": np.sin(t)})
    assert snakeboard.gait_period(frame) == pytest.approx(1 / 0.7, abs=1e-7)


# --- the skateboard's tilt ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("sigma", [-0.5, -0.05, 0.3])
def test_skateboard_growth_rate_of_an_oscillating_tilt(sigma):
    """theta = A exp(sigma t) cos(omega t + phase): its extrema are pi/omega apart with magnitudes exactly
    proportional to exp(sigma t); refined by parabolas through three samples (omega dt = 0.05: the peak's value
    off by (omega dt)^4 / 64 relative, a constant factor that leaves the slope alone): bound 1e-4 1/s."""
    t = np.arange(0.0, 5.0, 0.01)
    frame = pd.DataFrame({"time": t, "theta": 0.01 * np.exp(sigma * t) * np.cos(5.0 * t + 0.2)})
    assert skateboard.tilt_growth_rate(frame) == pytest.approx(sigma, abs=1e-4)


def test_skateboard_growth_rate_of_a_falling_board():
    """No oscillation: the rate of the envelope from twice the start to 0.2 rad; a pure exponential (plus a mode
    that has decayed, 1e-7 of it, by then) gives its rate to the fit's round-off."""
    t = np.arange(0.0, 4.0, 0.01)
    frame = pd.DataFrame({"time": t, "theta": 0.01 * np.exp(1.5 * t) + 1e-3 * np.exp(-20 * t)})
    assert skateboard.tilt_growth_rate(frame) == pytest.approx(1.5, abs=1e-6)
    decay = skateboard.tilt_decay(frame)
    assert decay["tilt_end"] > decay["tilt_start"] and decay["tilt_max"] > 0.5  # the board fell: not stable


def test_a_parameter_of_one_value_is_no_axis_of_the_plot(tmp_path):
    """The skateboard's stability map sets theta_0 and the axle joints in every run: the plot is the heat map over
    (V, a) with those values in its title, not a grid of scatter plots over five parameters."""
    import matplotlib.pyplot as plt
    from nonholonomic.study import Axis, plot_study
    table = pd.DataFrame({"run": list("pqrs"), "V": [1.0, 1.0, 2.0, 2.0], "a": [-0.1, 0.1, -0.1, 0.1],
                          "theta_0": [0.01] * 4, "rate": [0.1, -0.1, 0.2, -0.2], "status": ["ok"] * 4,
                          "error": [""] * 4, "key": list("kkkk")})
    axes = [Axis("V", (1.0, 2.0), (1.0, 2.0)), Axis("a", (-0.1, 0.1), None), Axis("theta_0", (0.01,), None)]
    titles = []
    original = plt.Figure.suptitle
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(plt.Figure, "suptitle", lambda self, t, **k: titles.append(t) or original(self, t, **k))
        patch.setattr(plt.Figure, "savefig", lambda self, path, **k: titles.append(len(self.axes)))
        plot_study(table, axes, tmp_path / "study.png", title="Skateboard, 5 s", units={"V": "m/s"})
    assert titles == ["Skateboard, 5 s, theta_0 = 0.01: 4 runs", 2]  # one heat map and its colour bar


# --- the tippe-top's sensitivity table from its studies -------------------------------------------------------------

def test_sensitivity_table_from_one_study_per_parameter():
    """Each row of the table is the run of its own parameters (each group a study of one parameter, the laws at eps
    1e-5 a study of two), the default top run once (frictionLaw = 2) for the rows of every group at its defaults,
    and no run asked for twice."""
    asked = []

    def value(parameters: dict) -> float:  # a number that tells the run's parameters apart
        merged = {**tippe_top.DEFAULTS, **parameters}
        return sum((i + 1) * math.log1p(float(merged[k])) for i, k in enumerate(sorted(merged)))

    def study(group, vary, metrics, stop_time, output_interval, tolerance):
        assert metrics == [tippe_top.SENSITIVITY_METRIC]
        assert (stop_time, output_interval, tolerance) == (tippe_top.SWEEP_STOP, tippe_top.INTERVAL, 1e-8)
        names = list(vary)
        rows = []
        for point in (dict(zip(names, p)) for p in np.array(np.meshgrid(*vary.values())).reshape(len(names), -1).T):
            asked.append(tuple(sorted({**tippe_top.DEFAULTS, **point}.items())))
            rows.append({**point, "inversion_time": value(point), "head_touch_time": 1.0, "max_theta": 3.0,
                         "final_theta": 3.0, "rhs_evaluations": 7.0, "status": "ok"})
        return pd.DataFrame(rows)

    table = tippe_top.sensitivity_table(study)
    runs = tippe_top.sweep_runs()
    assert len(table) == len(runs) and len(asked) == len(set(asked)) == len(runs) - 5  # the default once, not 6 times
    for row, parameters in zip(table.itertuples(), runs):
        assert row.inversion_time == value(parameters), parameters
        assert row.frictionLaw == parameters.get("frictionLaw", 2)
    assert table["rhs_evaluations"].dtype.kind == "i"


# --- a case's studies under verify's folder -------------------------------------------------------------------------

class _DiskCase(StudyCase):
    """Two short runs of the rolling disk as a study."""

    def __init__(self):
        super().__init__("disk_study_case", "RollingDisk", "two runs of the rolling disk")

    def execute(self):
        table = self.study("tilt", {"theta_0": [1.2, 1.3]}, ["max N"], stop_time=0.2, output_interval=0.01,
                           tolerance=1e-8)
        return CaseResult(self, no_signals(), [Check("runs", float(len(table)), 2.0)], {"runs": table})


def test_a_case_keeps_its_studies_and_a_rerun_reuses_them(rumoca_fmus, tmp_path):
    case = _DiskCase()
    first = case.run(tmp_path)
    folder = tmp_path / case.name / "study" / "tilt"
    records = sorted(folder.glob("run_*.json"))
    assert len(records) == 2 and (folder / "study.csv").is_file() and all(c.passed for c in first.checks)
    assert not (tmp_path / f".{case.name}.study").exists()  # moved into the case's folder
    stamps = {p.name: os.stat(p).st_ino for p in records}
    again = case.run(tmp_path)  # the runs come back from the last complete folder: not recomputed
    assert {p.name: os.stat(p).st_ino for p in sorted(folder.glob("run_*.json"))} == stamps
    pd.testing.assert_frame_equal(first.frames["runs"], again.frames["runs"])
    alone = case.execute()  # no output folder: the study in a temporary folder, removed after it
    pd.testing.assert_frame_equal(alone.frames["runs"].drop(columns="key"), first.frames["runs"].drop(columns="key"))


def _run_disk_case(folder):
    result = _DiskCase().run(folder)
    (folder / "passed").write_text(str(all(c.passed for c in result.checks)))


def test_a_study_case_runs_in_a_daemonic_process(rumoca_fmus, tmp_path):
    """Cases may be run in parallel in worker processes (a pool's or Dask's), which are daemonic: multiprocessing
    lets them start no process, yet the case's study starts a local cluster of its own there, and closes it. The
    worker is started as Dask's are, from a fork server (a fork of this process, which may have run Dask already,
    would inherit Dask's state of this process)."""
    process = multiprocessing.get_context("forkserver").Process(target=_run_disk_case, args=(tmp_path,), daemon=True)
    process.start()
    process.join(240)
    assert process.exitcode == 0 and (tmp_path / "passed").read_text() == "True"
    assert len(list((tmp_path / "disk_study_case" / "study" / "tilt").glob("run_*.json"))) == 2
