"""The command line: real runs, and bad input that must give one clear error line and a non-zero exit."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

import pandas as pd
import pytest

from nonholonomic.models import LIBRARY

CLI = [sys.executable, "-m", "nonholonomic"]


def run(*args, env=None):
    return subprocess.run([*CLI, *args], capture_output=True, text=True, env=env, timeout=600)


def assert_one_line_error(result, *fragments):
    assert result.returncode != 0
    assert "Traceback" not in result.stderr + result.stdout
    lines = [l for l in result.stderr.splitlines() if l.startswith("error:")]
    assert len(lines) == 1, result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def test_simulate_writes_the_outputs(rumoca_fmus, tmp_path):
    out = tmp_path / "run.csv"
    result = run("simulate", "BallOnParaboloid", "--set", "y2_0=3", "--stop-time", "0.5", "--output-interval", "0.1",
                 "--out", str(out))
    assert result.returncode == 0, result.stderr
    df = pd.read_csv(out)
    assert list(df["time"]) == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4, 0.5])
    assert df["q1"][0] == pytest.approx(1.0)
    assert df["v2"][0] == pytest.approx(3 * (9.81 / 0.1) ** 0.5)  # y2 = 3 in units of sqrt(g/R)


@pytest.mark.parametrize("args, fragments", [
    (["simulate", "NoSuchModel"], ["unknown model 'NoSuchModel'"]),
    (["simulate", "BallOnParaboloid", "--set", "radius=0.1"], ["unknown parameter 'radius'"]),
    (["simulate", "BallOnParaboloid", "--set", "m=heavy"], ["parameter m", "not a number"]),
    (["simulate", "BallOnSurfaceOfRevolution", "--set", "R=-0.1"], ["parameter R = -0.1", "minimum"]),
    (["simulate", "BallOnSurfaceOfRevolution", "--set", "m=-2"], ["parameter m = -2", "minimum"]),
    (["simulate", "BallOnSurfaceOfRevolution", "--set", "surface=9"], ["parameter surface = 9", "maximum"]),
    (["simulate", "BallOnSurfaceOfRevolution", "--set", "q1_0"], ["name=value"]),
    (["simulate", "BallOnSurfaceOfRevolution", "--stop-time", "-3"], ["stop time must be a positive number"]),
    (["simulate", "BallOnSurfaceOfRevolution", "--stop-time", "soon"], ["invalid float value: 'soon'"]),
    (["simulate", "RollingDisk", "--set", "R=-0.05"], ["parameter R = -0.05", "minimum"]),
    (["simulate", "RollingDisk", "--set", "m=0"], ["parameter m = 0", "minimum"]),
    (["simulate", "RollingDisk", "--set", "theta_0=0"], ["parameter theta_0 = 0", "minimum", "flat"]),
    (["simulate", "RollingDisk", "--set", "theta_0=3.14159"], ["parameter theta_0 = 3.14159", "maximum", "flat"]),
    (["simulate", "ChaplyginBall", "--set", "m=0"], ["parameter m = 0", "minimum"]),
    (["simulate", "ChaplyginSleigh", "--set", "m=0"], ["parameter m = 0", "minimum"]),
    (["simulate", "ChaplyginSleigh", "--set", "I_z=-1"], ["parameter I_z = -1", "minimum"]),
    (["simulate", "Wheelset", "--set", "R=-0.1"], ["parameter R = -0.1", "minimum"]),
    (["simulate", "Wheelset", "--set", "m_w=0"], ["parameter m_w = 0", "minimum"]),
    (["simulate", "Wheelset", "--set", "c=-5"], ["parameter c = -5", "minimum"]),
    (["simulate", "ShellWithInnerBody", "--set", "R_s=-0.2"], ["parameter R_s = -0.2", "minimum"]),
    (["simulate", "ShellWithInnerBody", "--set", "m_t=0"], ["parameter m_t = 0", "minimum"]),
    (["simulate", "BallOnParaboloid", "--set", "a=1"], ["parameter a", "computed from R, lambda"]),
    (["simulate", "ShellWithNonholonomicHinge", "--set", "m_s=-1"], ["parameter m_s = -1", "minimum"]),
    (["simulate", "NonholonomicBundle", "--set", "I_s=-0.01"], ["parameter I_s = -0.01", "minimum"]),
    (["simulate", "NonholonomicBundle", "--set", "m_b=0"], ["parameter m_b = 0", "minimum"]),
    (["simulate", "OmniVehicleSpin", "--set", "eta=0"], ["parameter eta = 0", "minimum"]),
    (["simulate", "OmniVehicleSpin", "--set", "eta=1.5"], ["parameter eta = 1.5", "maximum"]),
    (["simulate", "OmniVehicleStraight", "--set", "mu=-0.3"], ["parameter mu = -0.3", "minimum"]),
    (["simulate", "OmniVehicleSpin", "--set", "nRollers=3"], ["parameter nRollers", "fixed when the FMU is built"]),
])
def test_bad_simulate_input(rumoca_fmus, tmp_path, args, fragments):
    result = run(*args, "--out", str(tmp_path / "x.csv"))
    assert_one_line_error(result, *fragments)
    assert not (tmp_path / "x.csv").exists()


def test_failed_solver_keeps_what_was_computed(rumoca_fmus, tmp_path):
    """A ball thrown over the rim of a spherical bowl: the solver stops; the rows before are kept."""
    out = tmp_path / "x.csv"
    result = run("simulate", "BallOnSurfaceOfRevolution", "--set", "surface=2", "--set", "q1_0=1.4",
                 "--set", "v1_0=10", "--stop-time", "2", "--output-interval", "0.005", "--out", str(out))
    assert_one_line_error(result, "could not continue at t =", "rows computed before")
    df = pd.read_csv(out)
    assert len(df) >= 2 and df["q1"][0] == pytest.approx(1.4)


def test_disk_falling_flat_stops_with_a_clear_error(rumoca_fmus, tmp_path):
    """The documented limit of DiskOnPlane: at the flat position the contact is undefined."""
    out = tmp_path / "x.csv"
    result = run("simulate", "RollingDisk", "--set", "theta_0=0.5", "--set", "dpsi_0=0", "--set", "dphi_0=0",
                 "--stop-time", "3", "--out", str(out))
    assert_one_line_error(result, "could not continue at t =", "disk falling flat")
    df = pd.read_csv(out)
    assert df["r_0[3]"].iloc[-1] < 0.5 * df["r_0[3]"].iloc[0]  # it was falling: the centre dropped


def test_structural_parameter_out_of_bounds_stops_the_build(tmp_path):
    """n < 2 rollers: an array size, fixed when the FMU is built, so the build checks it."""
    folder = tmp_path / "Bad"
    folder.mkdir()
    (folder / "package.mo").write_text("package Bad\n  model OneRoller\n"
                                       "    extends Nonholonomic.Examples.OmniVehicleSpin(nRollers = 1);\n"
                                       "  end OneRoller;\nend Bad;\n")
    import rumoca
    from nonholonomic.backends.explicit_ode import build_explicit_ode
    from nonholonomic.backends.flat_dae import FlatDae
    from nonholonomic.errors import NonholonomicError
    model = rumoca.Session(roots=[str(LIBRARY.parent)]).load(str(folder / "package.mo"), model="Bad.OneRoller")
    with pytest.raises(NonholonomicError, match=r"parameter nRollers = 1 is below its minimum 2"):
        build_explicit_ode(FlatDae(model.to_dict("dae"), "Bad.OneRoller"))


def test_modelica_syntax_error_names_file_and_line(tmp_path):
    library = tmp_path / "Nonholonomic"
    shutil.copytree(LIBRARY, library)
    body = library / "Bodies" / "RigidBody.mo"
    lines = body.read_text().splitlines()
    k = next(i for i, l in enumerate(lines) if l.strip() == "der(r_0) = v_0;")
    lines[k] = "  der(r_0) = v_0 +;"
    body.write_text("\n".join(lines) + "\n")
    result = run("build", "BallOnParaboloid", "--backend", "rumoca", "--library", str(library),
                 "--out", str(tmp_path / "fmus"))
    assert_one_line_error(result, f"RigidBody.mo:{k + 1}:", "unexpected `;`")
    assert not (tmp_path / "fmus" / "BallOnParaboloid.fmu").exists()


def test_openmodelica_backend_without_omc(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "OPENMODELICAHOME"}
    env["PATH"] = str(pathlib.Path(sys.executable).parent) + os.pathsep + "/usr/bin:/bin"
    assert shutil.which("omc", path=env["PATH"]) is None
    result = run("build", "BallOnParaboloid", "--backend", "openmodelica", "--out", str(tmp_path), env=env)
    assert_one_line_error(result, "omc not found")


def test_unknown_backend_and_case(tmp_path):
    assert_one_line_error(run("build", "--backend", "dymola", "--out", str(tmp_path)), "unknown backend 'dymola'")
    assert_one_line_error(run("verify", "no_such_case", "--out", str(tmp_path)), "unknown verification case")


def test_verify_lists_passing_cases(rumoca_fmus, tmp_path):
    result = run("verify", "sphere_bowl", "cone", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "PASS  sphere_bowl" in result.stdout and "PASS  cone" in result.stdout
    assert "2 passed, 0 failed" in result.stdout
    table = pd.read_csv(tmp_path / "verification.csv")
    assert list(table["passed"]) == [True, True]
    assert (tmp_path / "verification.html").is_file()


def test_bench_reports_ratios_for_a_model(rumoca_fmus, tmp_path):
    """The benchmark runs every way of simulating the model once and reports ratios (no speed assertion)."""
    result = run("bench", "ChaplyginSleigh", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    table = pd.read_csv(tmp_path / "benchmark.csv")
    assert list(table["case"]) == ["chaplygin_sleigh"]
    row = table.iloc[0]
    for column in ("build / FMU run", "rumoca / FMU run", "reference / FMU run"):
        assert row[column] > 0
    # the three simulations describe the same motion: FMU and rumoca agree with the reference
    assert row["max error FMU"] < 1e-6 and row["max error rumoca"] < 1e-6
    assert (tmp_path / "benchmark.md").read_text().startswith("# Benchmark")


def test_chapter2_writes_trajectories_figures_and_numbers(tmp_path):
    """Gerasimov 2018, ch. 2, case 1 for 3 s: every roller change loses energy (Carnot), figures written."""
    result = run("chapter2", "1", "--t-end", "3", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    df = pd.read_csv(tmp_path / "case1.csv")
    energy = df["T"].to_numpy()
    assert (energy[1:] <= energy[:-1] * (1 + 1e-9)).all()  # never increases
    assert energy[-1] < energy[0]                           # and drops at the roller changes
    assert (tmp_path / "case1_overview.png").stat().st_size > 20_000
    assert_one_line_error(run("chapter2", "4", "--out", str(tmp_path)), "initial conditions 1, 2 and 3")
