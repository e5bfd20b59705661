"""Studies of any model (issue 27, item 1): the values' syntax, the Latin hypercube, the metrics against closed
forms and against the same run read directly, real studies on a local Dask cluster (resume by key, a refused
value recorded as failed), the tippe-top's inversion over a 2x2 grid, and every bad input as one line."""

from __future__ import annotations

import math
import os
import pathlib
import signal
import subprocess
import time

import numpy as np
import pandas as pd
import psutil
import pytest

import nonholonomic as nh
from nonholonomic.errors import NonholonomicError
from nonholonomic.references.tippe_top import TippeTop, inversion_time
from nonholonomic.study import (Axis, check_metric, grid, growth_rate, latin_hypercube, metric_values, parse_sample,
                                parse_values, plot_study)
from conftest import sigint_default
from test_cli import CLI, assert_one_line_error, run as run_cli

EPS = np.finfo(float).eps
DISK_STOP = 0.5  # simulated seconds of the rolling disk in these tests: the machinery, not the physics


def spread(frame: pd.DataFrame) -> dict:
    """A metric function (by its dotted name test_study:spread): two columns."""
    return {"energy spread": float(frame["energy"].max() - frame["energy"].min()),
            "height at the end": float(frame["r_0[3]"].iloc[-1])}


def speed_at_the_end(frame: pd.DataFrame) -> float:
    """A metric function returning one number (test_study:speed_at_the_end)."""
    return float(np.linalg.norm(frame[["v_0[1]", "v_0[2]", "v_0[3]"]].iloc[-1].to_numpy()))


def not_a_number(frame: pd.DataFrame):
    return "fast"


def stamps(folder: pathlib.Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in folder.iterdir() if p.suffix in (".json", ".parquet")
            and p.name.startswith("run_")}


# --- the values of a parameter ------------------------------------------------------------------------------------

def test_values_lists_linear_and_logarithmic_ranges():
    assert parse_values("mu", "0.1,0.2, 0.4").values == (0.1, 0.2, 0.4)
    assert parse_values("mu", "0.25").values == (0.25,)
    assert parse_values("mu", [1, 2.5]).values == (1.0, 2.5)
    linear = parse_values("mu", "0.1:0.5:5")
    assert linear.values == tuple(np.linspace(0.1, 0.5, 5)) and linear.bounds == (0.1, 0.5) and not linear.log
    assert linear.values[0] == 0.1 and linear.values[-1] == 0.5  # both ends exactly
    log = parse_values("spin_0", "log:1e-3:1e1:5")
    assert log.log and log.bounds == (1e-3, 10.0)
    # 10^-3 ... 10^1, each within the round-off of exp(log a + k (log b - log a)/4): a few ulps
    assert log.values == pytest.approx([1e-3, 1e-2, 1e-1, 1.0, 10.0], rel=8 * EPS)
    assert parse_values("mu", "0.5:0.1:3").values == tuple(np.linspace(0.5, 0.1, 3))  # descending: as given
    bounds = parse_values("mu", "log:0.01:1")
    assert bounds.values is None and bounds.bounds == (0.01, 1.0) and bounds.log
    axes = [parse_values("a", "1,2"), parse_values("b", "0:1:3")]
    assert grid(axes) == [{"a": a, "b": b} for a in (1.0, 2.0) for b in (0.0, 0.5, 1.0)]


@pytest.mark.parametrize("values, fragment", [
    ("0.1:0.5:1", "the number of values n must be a whole number of at least 2, got '1'"),
    ("0.1:0.5:2.5", "whole number of at least 2, got '2.5'"),
    ("a,b", "'a' is not a finite number"),
    ("1,,2", "'' is not a finite number"),
    ("nan", "'nan' is not a finite number"),
    ("1:inf:3", "'inf' is not a finite number"),
    ("log:-1:2:3", "a logarithmic range needs positive ends"),
    ("log:0:2:3", "a logarithmic range needs positive ends"),
    ("1:1:3", "the range's ends are equal"),
    ("1:2:3:4", "expected a list 0.1,0.2, a range a:b:n or log:a:b:n"),
])
def test_malformed_values(values, fragment):
    with pytest.raises(NonholonomicError, match="^--vary mu=.*" + fragment.replace("(", r"\(")):
        parse_values("mu", values)


def test_latin_hypercube_hits_each_stratum_once_and_repeats_with_its_seed():
    n = 23
    axes = [parse_values("a", "-2:3"), parse_values("b", "log:1e-4:1e2"), parse_values("c", "5:1")]
    points = latin_hypercube(axes, n, seed=7)
    assert len(points) == n
    for axis in axes:
        a, b = axis.bounds
        x = np.array([p[axis.name] for p in points])
        s = (np.log(x / a) / np.log(b / a)) if axis.log else (x - a) / (b - a)  # 0 .. 1 across the range
        assert ((s >= 0) & (s < 1)).all(), axis.name
        assert sorted(np.floor(s * n).astype(int)) == list(range(n)), axis.name  # each stratum exactly once
    assert latin_hypercube(axes, n, seed=7) == points  # reproducible
    assert latin_hypercube(axes, n, seed=8) != points
    assert parse_sample("lhs:23") == (23, 0) and parse_sample("lhs:5:42") == (5, 42) and parse_sample(None) is None
    for bad in ("lhs:0", "lhs", "lhs:x", "sobol:8", "lhs:4:-1"):
        with pytest.raises(NonholonomicError, match="expected lhs:N or lhs:N:SEED"):
            parse_sample(bad)


# --- metrics ----------------------------------------------------------------------------------------------------

def test_first_time_on_a_known_crossing():
    dt = 0.01
    t = np.arange(0, 401) * dt
    frame = pd.DataFrame({"time": t, "x": np.sin(t), "r_0[1]": 2.0 * t})
    outputs = set(frame.columns)

    def first(condition):
        return metric_values(check_metric(f"first time {condition}", outputs), frame)[f"first time {condition}"]
    # sin t > 1/2 from t = pi/6 = 0.5236: the first output time after it is 0.53
    assert first("x > 0.5") == t[int(math.ceil(math.asin(0.5) / dt))] == t[53]
    assert math.isnan(first("x > 1.5"))  # never
    assert first("x >= 0") == 0.0  # holds at the start
    # sin t < 0 from t = pi; pi, abs, ** and a name with an index
    assert first("x < 0") == t[int(math.ceil(math.pi / dt))]
    assert first("abs(x - 2) < 1e-3 or r_0[1] > 2**2 + 1e-3") == t[201]  # never |sin t - 2| < 1e-3; 2t > 4.001
    assert first("x > 0.95*pi - 2.5 and r_0[1] > 1") == t[int(math.ceil(math.asin(0.95 * math.pi - 2.5) / dt))]
    assert first("-1 < x < 0") == t[int(math.ceil(math.pi / dt))]  # chained


def test_growth_recovers_the_rate_of_an_exponential():
    """x = 3 exp(a t) sampled at 201 times in [0, 2]. log|x| = log 3 + a t up to the round-off of a t, exp and log:
    each point's log is off by at most 2 EPS (1 + |log x|). The least-squares slope is sum w_i y_i with the weights
    w_i = (t_i - mean t)/sum (t - mean t)^2: the points' errors move it by at most sum |w_i| 2 EPS (1 + max |log x|),
    and the fit's own sums (n terms each) by at most n EPS sum |w_i| |y_i - mean y|, twice (the two sums)."""
    t = np.linspace(0.0, 2.0, 201)
    w = np.abs(t - t.mean()) / np.sum((t - t.mean()) ** 2)
    for a in (-3.5, 0.0, 0.7, 12.0):
        x = 3.0 * np.exp(a * t)
        y = math.log(3.0) + a * t
        bound = w.sum() * 2 * EPS * (1 + np.abs(y).max()) + 2 * len(t) * EPS * np.sum(w * np.abs(y - y.mean()))
        assert abs(growth_rate(t, x) - a) <= bound, a
        assert abs(growth_rate(t, -x) - a) <= bound  # of |x|
        frame = pd.DataFrame({"time": t, "y": x})
        assert metric_values(check_metric("growth y", {"y"}), frame)["growth y"] == growth_rate(t, x)
    assert math.isnan(growth_rate([0.0, 1.0], [0.0, 0.0]))  # nothing to fit


def test_function_metrics_by_dotted_name():
    frame = pd.DataFrame({"time": [0.0, 1.0], "energy": [2.0, 2.5], "r_0[3]": [0.1, 0.2],
                          "v_0[1]": [0.0, 3.0], "v_0[2]": [0.0, 4.0], "v_0[3]": [0.0, 0.0]})
    assert metric_values(check_metric("test_study:spread", set()), frame) == {"energy spread": 0.5,
                                                                             "height at the end": 0.2}
    assert metric_values(check_metric("test_study:speed_at_the_end", set()), frame) == \
        {"test_study:speed_at_the_end": 5.0}
    with pytest.raises(NonholonomicError, match="metric test_study:not_a_number: TypeError: returned str, not a "
                                                "number or a dict of numbers"):
        metric_values(check_metric("test_study:not_a_number", set()), frame)
    with pytest.raises(NonholonomicError, match="metric test_study:nothing: cannot import it"):
        check_metric("test_study:nothing", set())
    with pytest.raises(NonholonomicError, match="metric no_such_module:f: cannot import it"):
        check_metric("no_such_module:f", set())


@pytest.mark.parametrize("condition", [
    "__import__('os').system('touch {marker}') > 0", "open('{marker}', 'w') > 0", "x.__class__ > 0",
    "[x for x in ()] > 0", "(lambda: 1)() > 0", "x if x else x > 0", "'{marker}' > 0", "x[x] > 0", "abs(x, 2) > 0",
    "max(x) > 0", "x @ x > 0", "x // 2 > 0", "x", "x > 1 and x", "not x > 0", "x > ", "x = 1"])
def test_condition_evaluator_refuses_anything_but_its_syntax(tmp_path, condition):
    marker = tmp_path / "executed"
    frame = pd.DataFrame({"time": [0.0], "x": [1.0]})
    with pytest.raises(NonholonomicError, match="(malformed|unknown output)"):
        metric_values(check_metric(f"first time {condition.format(marker=marker)}", {"x"}), frame)
    assert not marker.exists()


def test_final_max_min_and_first_time_of_a_real_run(rumoca_fmus):
    """On the rolling disk: the metrics against the same run read directly, and the start against its closed form
    (the centre at height R sin theta_0)."""
    frame = nh.simulate("RollingDisk", {"theta_0": 1.2}, stop_time=DISK_STOP)
    outputs = set(frame.columns)
    values = {}
    for spec in ("final energy", "max N", "min r_0[3]", "first time N > 9", "first time r_0[3] < 0"):
        values.update(metric_values(check_metric(spec, outputs), frame))
    assert values["final energy"] == frame["energy"].iloc[-1]
    assert values["max N"] == frame["N"].max() and values["min r_0[3]"] == frame["r_0[3]"].min()
    assert values["first time N > 9"] == frame.loc[frame["N"] > 9, "time"].iloc[0]
    assert math.isnan(values["first time r_0[3] < 0"])  # the disk does not fall through the plane
    assert frame["r_0[3]"].iloc[0] == pytest.approx(0.1 * math.sin(1.2), rel=4 * EPS)  # R = 0.1, set exactly


def test_plot_of_three_parameters_is_a_grid_of_small_multiples(tmp_path):
    table = pd.DataFrame({"run": ["r1", "r2", "r3"], "a": [1.0, 2.0, 3.0], "b": [0.1, 0.01, 0.001],
                          "c": [5.0, 4.0, 3.0], "final x": [1.0, np.nan, 2.0], "max y": [0.0, 1.0, 2.0],
                          "status": ["ok", "failed", "ok"], "error": ["", "boom", ""], "key": ["k1", "k2", "k3"]})
    axes = [Axis("a", (1.0, 2.0, 3.0), (1.0, 3.0)), Axis("b", None, (1e-3, 0.1), True), Axis("c", (3.0, 5.0), None)]
    path = plot_study(table, axes, tmp_path / "study.png")
    assert path.is_file() and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# --- real studies on a local Dask cluster ---------------------------------------------------------------------------

DISK_METRICS = ["final energy", "max N", "min r_0[3]", "first time N > 9", "growth slip", "test_study:spread"]


def test_study_on_dask_equals_direct_runs_and_resumes_by_key(rumoca_fmus, tmp_path):
    out = tmp_path / "study"
    lines = []
    vary = {"theta_0": "1.2,1.4", "dphi_0": "10:15:2"}
    table = nh.study("RollingDisk", vary, DISK_METRICS, stop_time=DISK_STOP, workers=2, out_dir=out,
                     progress=lines.append)
    assert lines == [f"study of RollingDisk: 4 runs, 0 on disk for this key, 4 to compute, in {out}"]
    assert list(table["status"]) == ["ok"] * 4 and list(table["error"]) == [""] * 4
    assert [(r.theta_0, r.dphi_0) for r in table.itertuples()] == [(1.2, 10.0), (1.2, 15.0), (1.4, 10.0), (1.4, 15.0)]
    assert list(table.columns) == ["run", "theta_0", "dphi_0", "final energy", "max N", "min r_0[3]",
                                   "first time N > 9", "growth slip", "energy spread", "height at the end", "status",
                                   "error", "key"]
    for row in table.to_dict("records"):
        # the same FMU, settings and code in another process: bit for bit
        direct = nh.simulate("RollingDisk", {"theta_0": row["theta_0"], "dphi_0": row["dphi_0"]}, stop_time=DISK_STOP)
        pd.testing.assert_frame_equal(pd.read_parquet(out / f"{row['run']}.parquet"), direct, check_exact=True)
        expected = {"final energy": direct["energy"].iloc[-1], "max N": direct["N"].max(),
                    "min r_0[3]": direct["r_0[3]"].min(), "growth slip": growth_rate(direct["time"], direct["slip"]),
                    **spread(direct)}
        crossing = direct.loc[direct["N"] > 9, "time"]
        expected["first time N > 9"] = crossing.iloc[0] if len(crossing) else math.nan
        for column, value in expected.items():
            np.testing.assert_equal(row[column], value, err_msg=column)  # exactly (NaN equal to NaN)
    pd.testing.assert_frame_equal(pd.read_parquet(out / "study.parquet"), table, check_exact=True)
    csv = pd.read_csv(out / "study.csv", keep_default_na=False, na_values=[""])
    assert list(csv["run"]) == list(table["run"]) and csv["final energy"].tolist() == table["final energy"].tolist()
    assert (out / "study.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"  # the heat maps
    # again: nothing recomputed, no cluster started
    before = stamps(out)
    lines.clear()
    again = nh.study("RollingDisk", vary, DISK_METRICS, stop_time=DISK_STOP, workers=2, out_dir=out,
                     progress=lines.append)
    assert lines == [f"study of RollingDisk: 4 runs, 4 on disk for this key, 0 to compute, in {out}"]
    assert stamps(out) == before
    pd.testing.assert_frame_equal(again, table, check_exact=True)
    # a grid grown by one value: only the new runs computed
    lines.clear()
    grown = nh.study("RollingDisk", {**vary, "theta_0": "1.2,1.4,1.0"}, DISK_METRICS, stop_time=DISK_STOP, workers=2,
                     out_dir=out, progress=lines.append)
    assert lines[0].startswith("study of RollingDisk: 6 runs, 4 on disk for this key, 2 to compute")
    assert {k: v for k, v in stamps(out).items() if k in before} == before and len(grown) == 6
    # another stop time: every run recomputed, into the same files
    lines.clear()
    longer = nh.study("RollingDisk", vary, DISK_METRICS, stop_time=2 * DISK_STOP, workers=2, out_dir=out,
                      progress=lines.append)
    assert lines[0].startswith("study of RollingDisk: 4 runs, 0 on disk for this key, 4 to compute")
    after = stamps(out)
    assert all(after[name] != stamp for name, stamp in before.items())
    assert (longer["key"] != table["key"]).all()
    assert pd.read_parquet(out / f"{longer['run'].iloc[0]}.parquet")["time"].iloc[-1] == 2 * DISK_STOP
    # another metric: recomputed too (the key holds the metrics)
    lines.clear()
    nh.study("RollingDisk", vary, ["final energy"], stop_time=2 * DISK_STOP, workers=2, out_dir=out,
             progress=lines.append)
    assert lines[0].startswith("study of RollingDisk: 4 runs, 0 on disk for this key, 4 to compute")


def test_refused_value_is_a_failed_run_and_the_others_finish(rumoca_fmus, tmp_path):
    """C = 1 kg m^2 breaks the disk's assert C <= m R^2 (0.01): the FMU refuses it at initialisation."""
    out = tmp_path / "study"
    table = nh.study("RollingDisk", {"C": "0,1,0.004"}, ["final energy"], stop_time=DISK_STOP, workers=1,
                     out_dir=out, progress=False)
    assert list(table["status"]) == ["ok", "failed", "ok"]
    error = table["error"].iloc[1]
    assert "assertion failed" in error and "RollingDisk.mo" in error and "\n" not in error
    assert math.isnan(table["final energy"].iloc[1]) and np.isfinite(table["final energy"].iloc[[0, 2]]).all()
    assert not (out / f"{table['run'].iloc[1]}.parquet").exists()
    assert pd.read_csv(out / "study.csv")["status"].tolist() == ["ok", "failed", "ok"]
    assert (out / "study.png").is_file()  # one parameter: the curve of the finished runs
    before = stamps(out)
    lines = []
    nh.study("RollingDisk", {"C": "0,1,0.004"}, ["final energy"], stop_time=DISK_STOP, workers=1, out_dir=out,
             progress=lines.append)
    assert lines[0].startswith("study of RollingDisk: 3 runs, 2 on disk for this key, 1 to compute")  # the failed
    assert {k: v for k, v in stamps(out).items() if k != f"{table['run'].iloc[1]}.json"} == \
        {k: v for k, v in before.items() if k != f"{table['run'].iloc[1]}.json"}


def test_latin_hypercube_study(rumoca_fmus, tmp_path):
    out = tmp_path / "study"
    table = nh.study("RollingDisk", {"theta_0": "1.0:1.4", "dphi_0": "log:5:20"}, ["max N"], sample="lhs:3:1",
                     stop_time=DISK_STOP, workers=2, out_dir=out, progress=False)
    points = latin_hypercube([parse_values("theta_0", "1.0:1.4"), parse_values("dphi_0", "log:5:20")], 3, 1)
    assert table[["theta_0", "dphi_0"]].to_dict("records") == points
    assert list(table["status"]) == ["ok"] * 3 and (out / "study.png").is_file()


def test_tippe_top_inversion_over_mu_and_spin(rumoca_fmus, tmp_path):
    """The issue's example, short: 2.5 s of the tippe-top (0.016 CPU s per simulated s at its rtol 1e-8:
    docs/tippe_top.md) over mu and the initial spin, against the Python reference (references/tippe_top.py, written
    from the paper, at the same rtol 1e-8 on the same 2 ms grid; its inversion time interpolated on the grid). At
    mu 0.3 and 180 rad/s our loop at rtol 1e-8 is 2.3e-7 s off the reference (docs/tippe_top.md, the peers table):
    1e-6 bounds the two integrations' difference; the metric is the first output time after the crossing, up to
    one output interval (0.002 s) after the interpolated one."""
    out = tmp_path / "tippe"
    result = run_cli("study", "TippeTop", "--vary", "mu=0.3:0.5:2", "--vary", "spin_0=180,220", "--metric",
                     "first time theta > 0.95*pi", "--metric", "max theta", "--stop-time", "2.5", "--workers", "2",
                     "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert "4 finished, 0 failed" in result.stdout and f"plot: {out / 'study.png'}" in result.stdout
    assert f"study of TippeTop: 4 runs, 0 on disk for this key, 4 to compute, in {out}" in result.stderr
    table = pd.read_csv(out / "study.csv").set_index(["mu", "spin_0"])
    inversion = table["first time theta > 0.95*pi"]
    times = np.linspace(0.0, 2.5, 1251)
    for mu, spin in ((0.3, 180.0), (0.5, 180.0), (0.3, 220.0)):
        seconds = inversion_time(TippeTop(mu=mu, spin0=spin).simulate(times, rtol=1e-8))
        assert seconds - 1e-6 <= inversion[(mu, spin)] <= seconds + 0.002 + 1e-6, (mu, spin, seconds)
    assert (table["max theta"] > 0.95 * math.pi).tolist() == inversion.notna().tolist()  # two metrics, one event
    again = run_cli("study", "TippeTop", "--vary", "mu=0.3:0.5:2", "--vary", "spin_0=180,220", "--metric",
                    "first time theta > 0.95*pi", "--metric", "max theta", "--stop-time", "2.5", "--out", str(out))
    assert again.returncode == 0 and "4 runs, 4 on disk for this key, 0 to compute" in again.stderr


# --- bad input: one line, exit 2, before any run --------------------------------------------------------------------

@pytest.mark.parametrize("args, fragments", [
    (["NoSuchModel", "--vary", "mu=1,2"], ["unknown model 'NoSuchModel'"]),
    (["RollingDisk", "--vary", "radius=1,2"], ["unknown parameter 'radius' of RollingDisk"]),
    (["RollingDisk", "--vary", "A_used=1,2"], ["parameter A_used of RollingDisk is computed from"]),
    (["RollingDisk", "--vary", "energy=1,2"], ["'energy' of RollingDisk is an output, not a parameter"]),
    (["RollingDisk", "--vary", "theta_0=0:1:3"], ["parameter theta_0 = 0 is below its minimum 0.05"]),
    (["RollingDisk", "--vary", "m=1,-1"], ["parameter m = -1 is below its minimum"]),
    (["TippeTop", "--vary", "frictionLaw=1,5"], ["parameter frictionLaw = 5 is above its maximum 4"]),
    (["TippeTop", "--vary", "frictionLaw=1.5,2"], ["parameter frictionLaw must be an integer, got 1.5"]),
    (["RollingDisk", "--vary", "m=1:2:x"], ["--vary m=1:2:x: the number of values n must be a whole number"]),
    (["RollingDisk", "--vary", "m=one,two"], ["--vary m=one,two: 'one' is not a finite number"]),
    (["RollingDisk", "--vary", "m"], ["--vary expects NAME=VALUES, got 'm'"]),
    (["RollingDisk", "--vary", "m=1,2", "--vary", "m=3"], ["--vary: m is given twice"]),
    (["RollingDisk", "--vary", "m=1:2"], ["--vary m: a range needs its number of values, a:b:n"]),
    (["RollingDisk", "--vary", "m=1,2", "--sample", "lhs:4"], ["--vary m: with --sample lhs:N give a range"]),
    (["RollingDisk", "--vary", "m=1:2", "--sample", "lhs:0"], ["--sample lhs:0: expected lhs:N or lhs:N:SEED"]),
    (["RollingDisk", "--vary", "m=1:2:2", "--metric", "final theta"],
     ["unknown output 'theta' of RollingDisk in metric 'final theta'"]),
    (["RollingDisk", "--vary", "m=1:2:2", "--metric", "first time theta > 0.95*pi"],
     ["unknown output 'theta' of RollingDisk in condition 'theta > 0.95*pi'"]),
    (["RollingDisk", "--vary", "m=1:2:2", "--metric", "first time N >"], ["malformed condition 'N >'"]),
    (["RollingDisk", "--vary", "m=1:2:2", "--metric", "first time N"], ["malformed condition 'N': not a comparison"]),
    (["RollingDisk", "--vary", "m=1:2:2", "--metric", "first time exec('1') > 0"],
     ["malformed condition", "is not allowed"]),
    (["RollingDisk", "--vary", "m=1:2:2", "--metric", "median N"], ["unknown metric 'median N'"]),
    (["RollingDisk", "--vary", "m=1:2:2", "--metric", "no_such_module:f"], ["metric no_such_module:f: cannot import"]),
    (["RollingDisk", "--vary", "m=1:2:2", "--stop-time", "0"], ["argument --stop-time: '0' is not a positive number"]),
    (["RollingDisk", "--vary", "m=1:2:2", "--workers", "0"], ["argument --workers: '0' is not a positive integer"]),
    (["RollingDisk", "--vary", "m=1:2:2", "--scheduler", "nowhere"], ["--scheduler 'nowhere' is not a Dask scheduler"]),
    (["RollingDisk"], ["the following arguments are required: --vary"]),
])
def test_bad_study_input(rumoca_fmus, tmp_path, args, fragments):
    out = tmp_path / "study"
    result = run_cli("study", *args, "--out", str(out))
    assert result.returncode == 2
    assert_one_line_error(result, *fragments)
    assert not out.exists()  # nothing was run


def test_study_output_folder_that_cannot_be_written(rumoca_fmus, tmp_path):
    a_file = tmp_path / "file.txt"
    a_file.write_text("not a folder")
    for out, fragments in ((a_file, [f"cannot write --out {a_file}", "is a file, not a folder"]),
                           ("/proc/study", ["cannot write --out /proc/study", "accepts no new files"])):
        result = run_cli("study", "RollingDisk", "--vary", "m=1,2", "--out", str(out))
        assert result.returncode == 2
        assert_one_line_error(result, *fragments)
    assert a_file.read_text() == "not a folder"


def test_bad_study_arguments_through_the_api(rumoca_fmus, tmp_path):
    with pytest.raises(NonholonomicError, match="vary must name at least one parameter"):
        nh.study("RollingDisk", {}, out_dir=tmp_path)
    with pytest.raises(NonholonomicError, match="workers must be a positive integer, got 0"):
        nh.study("RollingDisk", {"m": [1, 2]}, workers=0, out_dir=tmp_path)
    with pytest.raises(NonholonomicError, match="a metric must be a string"):
        nh.study("RollingDisk", {"m": [1, 2]}, [3], out_dir=tmp_path)
    with pytest.raises(NonholonomicError, match="model must be an example's name or the path of an FMU, got 42"):
        nh.study(42, {"m": [1, 2]}, out_dir=tmp_path)
    assert not list(tmp_path.iterdir())


def test_ctrl_c_keeps_the_finished_runs(rumoca_fmus, tmp_path):
    """SIGINT to the whole process group, as Ctrl-C in a terminal sends it: one worker runs the three runs one after
    another (each about 3 CPU s: 1000 s of the disk at 0.0034 CPU s per simulated s, docs/tippe_top.md); the study
    stops when the first is on disk, keeps it, writes the table of what finished and says so in one line."""
    out = tmp_path / "study"
    proc = subprocess.Popen([*CLI, "study", "RollingDisk", "--vary", "theta_0=1.2,1.3,1.4", "--metric", "max N",
                             "--stop-time", "1000", "--output-interval", "0.1", "--workers", "1", "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=sigint_default)
    try:
        deadline = time.monotonic() + 300
        while not list(out.glob("run_*.json")) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        workers = psutil.Process(proc.pid).children(recursive=True)
        os.killpg(proc.pid, signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr + stdout
    [line] = [l for l in stderr.splitlines() if l.startswith(("interrupted", "error"))]
    finished = len(list(out.glob("run_*.json")))
    assert finished in (1, 2) and line == f"interrupted: {finished} of 3 runs finished, kept in {out}"
    table = pd.read_csv(out / "study.csv")
    assert len(table) == finished and (table["status"] == "ok").all()
    psutil.wait_procs(workers, timeout=10)
    assert not [w for w in workers if w.is_running() and w.status() != psutil.STATUS_ZOMBIE]
