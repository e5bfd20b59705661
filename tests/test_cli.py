"""The command line: real runs, and bad input that must give one clear error line and a non-zero exit."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from nonholonomic.models import LIBRARY

CLI = [sys.executable, "-m", "nonholonomic"]


def run(*args, env=None):
    return subprocess.run([*CLI, *args], capture_output=True, text=True, env=env, timeout=600)


def assert_one_line_error(result, *fragments):
    assert result.returncode != 0
    assert "Traceback" not in result.stderr + result.stdout, result.stderr
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
    (["simulate", "BallOnSurfaceOfRevolution", "--stop-time", "-3"], ["argument --stop-time: '-3' is not a positive number"]),
    (["simulate", "BallOnSurfaceOfRevolution", "--stop-time", "soon"], ["argument --stop-time: 'soon' is not a number"]),
    (["simulate", "RollingDisk", "--set", "R=-0.05"], ["parameter R = -0.05", "minimum"]),
    (["simulate", "RollingDisk", "--set", "m=0"], ["parameter m = 0", "minimum"]),
    (["simulate", "RollingDisk", "--set", "theta_0=0"], ["parameter theta_0 = 0", "minimum", "flat"]),
    (["simulate", "RollingDisk", "--set", "theta_0=3.14159"], ["parameter theta_0 = 3.14159", "maximum", "flat"]),
    (["simulate", "RollingDisk", "--set", "A=-0.001"], ["parameter A = -0.001", "minimum", "0: thin homogeneous disk"]),
    (["simulate", "RollingDisk", "--set", "A_used=0.01"], ["parameter A_used of RollingDisk is computed from A, R, m"]),
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
    """The documented limit of DiskOnPlane: at the flat position the contact is undefined (the bilateral disk gets
    there: the unilateral one stops at its lift-off before, test_lift_off)."""
    out = tmp_path / "x.csv"
    result = run("simulate", "RollingDisk", "--set", "theta_0=0.5", "--set", "dpsi_0=0", "--set", "dphi_0=0",
                 "--set", "unilateral=false", "--stop-time", "3", "--out", str(out))
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


def test_builds_at_once_number_their_lines_and_a_failed_one_stops_no_other(tmp_path):
    """Two builds at once (each in its own process): the lines keep the whole build's numbering; a model that
    cannot compile is named in the one error line with the count built, and the other FMU is written whole."""
    library = tmp_path / "Nonholonomic"
    shutil.copytree(LIBRARY, library)
    example = library / "Examples" / "ChaplyginSleigh.mo"
    example.write_text(example.read_text().replace("equation", "equation\n  x_undeclared = 1;", 1))
    out = tmp_path / "fmus"
    result = run("build", "RollingDisk", "ChaplyginSleigh", "--backend", "rumoca", "--library", str(library),
                 "--out", str(out), "--jobs", "2")
    assert_one_line_error(result, "ChaplyginSleigh: rumoca could not compile", "(1 of 2 FMUs built)")
    assert f"[1/2] RollingDisk: wrote {out / 'RollingDisk.fmu'}" in result.stderr
    assert "[2/2] ChaplyginSleigh: rumoca: flatten" in result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["RollingDisk.fmu"]
    from nonholonomic.fmu import check_fmu, model_description
    check_fmu(out / "RollingDisk.fmu")  # a whole FMU: its zip, description and binary read back
    assert model_description(out / "RollingDisk.fmu").modelName == "Nonholonomic.Examples.RollingDisk"


@pytest.mark.parametrize("jobs", ["0", "65", "two"])
def test_build_jobs_bounded(jobs, tmp_path):
    assert_one_line_error(run("build", "RollingDisk", "--jobs", jobs, "--out", str(tmp_path)), "argument --jobs")


def test_build_api_jobs_checked(tmp_path):
    from nonholonomic import build
    from nonholonomic.errors import NonholonomicError
    for jobs in (0, 2.5, True):
        with pytest.raises(NonholonomicError, match="jobs must be a whole number from 1 to 64"):
            build("RollingDisk", backend="rumoca", out_dir=tmp_path, jobs=jobs)


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
    """Two cases at once (--jobs 2), each in a process of its own: the table in the order asked for, and the same
    numbers as the cases run one after the other (the same runs, bit for bit)."""
    result = run("verify", "sphere_bowl", "cone", "--out", str(tmp_path / "both"), "--jobs", "2")
    assert result.returncode == 0, result.stderr
    assert "PASS  sphere_bowl" in result.stdout and "PASS  cone" in result.stdout
    assert "2 passed, 0 failed" in result.stdout
    assert "[1/2] sphere_bowl: passed" in result.stderr and "[2/2] cone: passed" in result.stderr
    table = pd.read_csv(tmp_path / "both" / "verification.csv")
    assert list(table["passed"]) == [True, True] and list(table["case"]) == ["sphere_bowl", "cone"]
    assert (tmp_path / "both" / "verification.html").is_file()
    # the system's 3D animation, in a frame of the report
    assert (tmp_path / "both" / "animations" / "BallOnSurfaceOfRevolution.html").is_file()
    assert "src='animations/BallOnSurfaceOfRevolution.html'" in (tmp_path / "both" / "verification.html").read_text()
    serial = run("verify", "sphere_bowl", "cone", "--out", str(tmp_path / "serial"), "--jobs", "1")
    assert serial.returncode == 0, serial.stderr
    # the same results, one by one or at once; only the measured run times differ
    serial_table = pd.read_csv(tmp_path / "serial" / "verification.csv")
    assert (serial_table["run time [s]"] > 0).all() and (table["run time [s]"] > 0).all()
    pd.testing.assert_frame_equal(serial_table.drop(columns="run time [s]"), table.drop(columns="run time [s]"))


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


# --- bounds, physics and messages said before any work (issue 24) ----------------------------------------------

@pytest.mark.parametrize("args, fragments", [
    (["chapter2", "1", "--t-end", "inf"], ["argument --t-end: 'inf' is not a positive number"]),
    (["chapter2", "1", "--t-end", "nan"], ["argument --t-end: 'nan' is not a positive number"]),
    (["chapter2", "1", "--t-end", "1e300"], ["--t-end 1e+300 s gives 1e+302 rows at the output interval 0.01 s"]),
    (["chapter2", "1", "--t-end", "1e9"], ["--t-end 1e+09 s gives 100000000001 rows at the output interval 0.01 s"]),
    (["compare-impacts", "--t-end", "inf"], ["argument --t-end: 'inf' is not a positive number"]),
    (["compare-impacts", "--t-end", "1e6"], ["--t-end 1e+06 s gives 500000001 rows at the output interval 0.002 s"]),
    (["simulate", "BallOnParaboloid", "--stop-time", "inf"], ["argument --stop-time: 'inf' is not a positive number"]),
    (["simulate", "BallOnParaboloid", "--stop-time", "1e300"], ["output interval 0.005 s gives 2e+302 rows up to 1e+300 s"]),
    (["simulate", "BallOnParaboloid", "--output-interval", "-0.1"], ["argument --output-interval: '-0.1'"]),
    (["simulate", "BallOnParaboloid", "--tolerance", "1"], ["the tolerance must lie between 1e-14 and 0.001", "got '1'"]),
    (["simulate", "BallOnParaboloid", "--tolerance", "10"], ["the tolerance must lie between", "got '10'"]),
    (["simulate", "BallOnParaboloid", "--tolerance", "-1e-6"], ["the tolerance must be a positive number, got '-1e-6'"]),
    (["simulate", "BallOnParaboloid", "--tolerance", "1e-300"], ["the tolerance must lie between", "got '1e-300'"]),
    (["simulate", "BallOnParaboloid", "--tolerance", "nan"], ["the tolerance must be a positive number"]),
    (["sweep", "--tolerance", "0.5"], ["the tolerance must lie between"]),
    (["sweep", "--workers", "100000"], ["100000 workers are more than 4 per core"]),
    (["sweep", "--time-limit", "inf"], ["argument --time-limit: 'inf' is not a positive number"]),
    (["sweep", "--truncated", "--mecanum"], ["argument --mecanum: not allowed with argument --truncated"]),
    (["bench", "Nope"], ["unknown model 'Nope' (known: "]),
    (["simulate", "BallOnParaboloid", "--set", "q1=2"],
     ["'q1' of BallOnParaboloid is an output, not a parameter (did you mean: q1_0?)"]),
    (["simulate", "OmniVehicleDriven", "--set", "tau[1]=2"],
     ["'tau[1]' of OmniVehicleDriven is an input, not a parameter: give it with --input tau[1]=VALUE"]),
])
def test_bad_values_are_said_before_any_work(rumoca_fmus, tmp_path, args, fragments):
    out = tmp_path / ("x.csv" if args[0] == "simulate" else "out")
    result = run(*args, "--out", str(out))
    assert_one_line_error(result, *fragments)
    assert len(result.stderr.splitlines()) == 1 and not out.exists()  # nothing was started


def test_virtual_file_system_is_named_as_such(tmp_path):
    assert_one_line_error(run("verify", "cone", "--out", "/proc/results"),
                          "cannot write --out /proc/results: folder /proc accepts no new files (a virtual file system")


def test_out_equal_to_the_input_table_is_refused(rumoca_fmus, tmp_path):
    table = tmp_path / "drive.csv"
    pd.DataFrame({"time": [0.0, 1.0], "tau[1]": [0.0, 0.01]}).to_csv(table, index=False)
    before = table.read_bytes()
    for out in (table, tmp_path / "." / "drive.csv"):
        assert_one_line_error(run("simulate", "OmniVehicleDriven", "--input", str(table), "--out", str(out)),
                              f"--out {out} is the --input table: the results would overwrite it")
    assert table.read_bytes() == before


@pytest.mark.parametrize("args, fragments", [
    # C <= 2 A: the triangle inequality of an axisymmetric body (the disk: the normal force swung -16..35 N)
    (["RollingDisk", "A=1e-6", "C=1"], ["RollingDisk: C must be at most 2 A", "(RollingDisk.mo:"]),
    # a ring has C = m R^2, nothing more is possible within the radius R (default m = 1, R = 0.1: 0.01)
    (["RollingDisk", "A=0.01", "C=0.0101"], ["RollingDisk: C must be at most m R^2"]),
    # C alone above twice the A that A = 0 stands for (m R^2/4 = 0.0025): the assert reads the inertia in use
    (["RollingDisk", "C=0.0051"], ["RollingDisk: C must be at most 2 A", "A = 0 stands for m R^2/4"]),
    (["RollingDisk", "m=2", "R=0.2", "C=0.0401"], ["RollingDisk: C must be at most 2 A"]),
    (["OmniVehicleSpin", "R_p=0"], ["OmniVehicle: the platform's moments of inertia must be positive"]),
    (["ChaplyginBall", "I_b[3]=0.006"], ["RigidBody: the principal moments of inertia I_b violate the triangle"]),
    (["ChaplyginBall", "I_b[1]=0.009", "I_b[2]=0.009", "I_b[3]=0.009"], ["ChaplyginBall: I_b[1] + I_b[2] + I_b[3] "
                                                                          "must be at most 2 m (R^2 - |c_b|^2)"]),
    (["ChaplyginBall", "c_b[3]=0.1"], ["ChaplyginBall: the centre of mass must lie inside the ball"]),
    (["ShellWithInnerBody", "I_s=0.03"], ["the shell's moment of inertia I_s must be at most 2/3 m_s R_s^2"]),
    (["ShellWithNonholonomicHinge", "I_b[2]=0.03"], ["RigidBody: the principal moments of inertia I_b violate"]),
])
def test_physically_impossible_parameters_are_refused(rumoca_fmus, tmp_path, args, fragments):
    model, *sets = args
    result = run("simulate", model, *[a for s in sets for a in ("--set", s)], "--out", str(tmp_path / "x.csv"))
    assert_one_line_error(result, "failed in fmi3ExitInitializationMode: assertion failed", *fragments)
    assert not (tmp_path / "x.csv").exists()


def test_limits_of_the_physical_relations_are_accepted(rumoca_fmus, tmp_path):
    """Exactly at the bounds (a thin homogeneous disk has C = 2 A; a thin shell I_s = 2/3 m_s R_s^2, the default)."""
    for model, sets in (("RollingDisk", ["A=0.0025", "C=0.005"]), ("ShellWithInnerBody", [])):
        result = run("simulate", model, *[a for s in sets for a in ("--set", s)], "--stop-time", "0.01",
                     "--out", str(tmp_path / "x.csv"))
        assert result.returncode == 0, result.stderr


def _first_row(tmp_path, model, sets, outputs):
    out = tmp_path / f"{model}.csv"
    result = run("simulate", model, *[a for s in sets for a in ("--set", s)],
                 *[a for o in outputs for a in ("--output", o)], "--stop-time", "0.001", "--out", str(out))
    assert result.returncode == 0, result.stderr
    return pd.read_csv(out).iloc[0]


def test_disk_inertia_follows_m_and_r(rumoca_fmus, tmp_path):
    """Issue 26, item 5: with m and R set and A, C left at 0 the disk is the thin homogeneous disk of the new m and
    R: its inertias, and its energy at the start, computed here from the Euler angles and rates and rolling."""
    m, R, g, theta, dtheta, dpsi, dphi = 2.0, 0.2, 9.81, 1.1, 0.5, 1.0, 15.0
    row = _first_row(tmp_path, "RollingDisk", [f"m={m}", f"R={R}", f"theta_0={theta}", f"dtheta_0={dtheta}"],
                     ["A_used", "C_used", "energy"])
    A, C = m * R**2 / 4, m * R**2 / 2  # 0.02, 0.04 (the defaults' disk: 0.0025, 0.005)
    assert (row["A_used"], row["C_used"]) == pytest.approx((A, C), rel=1e-15)
    e3 = np.array([0.0, -np.sin(theta), np.cos(theta)])  # the disk's axis (psi_0 = 0; z-x-z angles)
    w = dpsi * np.array([0.0, 0.0, 1.0]) + dtheta * np.array([1.0, 0.0, 0.0]) + dphi * e3
    down = -(np.array([0.0, 0.0, 1.0]) - e3[2] * e3)
    v = -R * np.cross(w, down / np.linalg.norm(down))  # the contact point at rest
    w3 = w @ e3
    energy = m * v @ v / 2 + (A * (w @ w - w3**2) + C * w3**2) / 2 + m * g * R * np.sin(theta)
    assert row["energy"] == pytest.approx(energy, rel=1e-12)
    # a positive value is used as given, the other still follows
    row = _first_row(tmp_path, "RollingDisk", [f"m={m}", f"R={R}", "A=0.03"], ["A_used", "C_used"])
    assert (row["A_used"], row["C_used"]) == pytest.approx((0.03, C), rel=1e-15)


@pytest.mark.parametrize("model, sets, expected", [
    ("ShellWithInnerBody", ["m_s=2", "R_s=0.3"], {"I_s_used": 2 / 3 * 2 * 0.3**2}),
    ("ShellWithNonholonomicHinge", ["m_s=2", "R_s=0.3"], {"I_s_used": 2 / 3 * 2 * 0.3**2}),
    ("ShellWithNonholonomicHinge", ["m_s=2", "R_s=0.3", "I_s=0.1"], {"I_s_used": 0.1}),
    ("Wheelset", ["m_w=2", "R=0.2"], {"A_w_used": 2 * 0.2**2 / 4, "C_w_used": 2 * 0.2**2 / 2}),
    ("Skateboard", ["m_w=0.02", "R=0.04"], {"front.A_w_used": 0.02 * 0.04**2 / 4, "rear.C_w_used": 0.02 * 0.04**2 / 2}),
    ("OmniVehicleSpin", ["m_p=2", "R_p=0.2", "I_p[3]=0.035"],
     {"I_p_used[1]": 2 * 0.2**2 / 4, "I_p_used[2]": 2 * 0.2**2 / 4, "I_p_used[3]": 0.035}),
])
def test_inertias_at_0_follow_the_geometry(rumoca_fmus, tmp_path, model, sets, expected):
    row = _first_row(tmp_path, model, sets, list(expected))
    assert {n: row[n] for n in expected} == pytest.approx(expected, rel=1e-15)


def test_api_arguments_are_checked_in_one_line(rumoca_fmus, tmp_path):
    import re as regex
    import nonholonomic as nh
    for call, message in (
            (lambda: nh.simulate(42), "model must be an example's name or the path of an FMU, got 42"),
            (lambda: nh.simulate(None), "model must be an example's name or the path of an FMU, got None"),
            (lambda: nh.simulate("BallOnParaboloid", [("m", 2)]), "parameters must be a dict of name -> value, got list"),
            (lambda: nh.simulate("BallOnParaboloid", outputs=3), "outputs must be a name or a list of names, got 3"),
            (lambda: nh.simulate("BallOnParaboloid", outputs=["q1", 2]), "outputs must be names (strings), got 2"),
            (lambda: nh.simulate("BallOnParaboloid", tolerance=1), "tolerance must lie between 1e-14 and 0.001"),
            (lambda: nh.simulate("BallOnParaboloid", progress=3), "progress must be a function or None, got 3"),
            (lambda: nh.build(42), "models must be a name or a list of names, got 42"),
            (lambda: nh.build("NoSuchModel"), "unknown model 'NoSuchModel'"),  # one name, not its letters
            (lambda: nh.build("BallOnParaboloid", backend=3), "backend must be a name"),
            (lambda: nh.verify("no_such_case", out_dir=tmp_path), "unknown verification case 'no_such_case'")):
        with pytest.raises(nh.NonholonomicError, match=regex.escape(message)):
            call()
    assert list(nh.simulate("BallOnParaboloid", outputs="q1", stop_time=0.01).columns) == ["time", "q1"]


def test_bench_importers_says_what_it_runs(tmp_path):
    """bench --importers runs fixed cases (issue 26, item 2): another model, or --peers with it, is one line and
    writes nothing."""
    assert_one_line_error(run("bench", "--importers", "Snakeboard", "--out", str(tmp_path / "r")),
                          "bench --importers has no case for Snakeboard", "RollingDisk", "TippeTop")
    assert_one_line_error(run("bench", "--importers", "--peers", "--out", str(tmp_path / "r")),
                          "--peers and --importers")
    assert not (tmp_path / "r").exists()
