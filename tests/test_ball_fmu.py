"""The rumoca-backend FMUs of the ball on a surface of revolution against the reference model (19)."""

from __future__ import annotations

import math
import zipfile

import numpy as np
import pytest
from fmpy.validation import validate_fmu

from nonholonomic.cases.ball_on_surface import RADIUS, cases as ball_cases
from nonholonomic.references.ball_on_surface import BallOnSurfaceOfRevolution
from nonholonomic.references.meridians import SphericalBowl
from nonholonomic.simulate import simulate

CASES = {c.name: c for c in ball_cases() if not c.name.endswith("_lift_off")}  # those: test_lift_off


@pytest.mark.slow
def test_fmus_pass_fmpy_validation(rumoca_fmus):
    for path in rumoca_fmus.values():
        assert validate_fmu(str(path)) == []
        with zipfile.ZipFile(path) as z:  # FMI 3.0 model exchange, with the sources
            assert 'fmiVersion="3.0"' in z.read("modelDescription.xml").decode()
            assert any(n.startswith("sources/") and n.endswith(".c") for n in z.namelist())


@pytest.mark.parametrize("name", list(CASES))
def test_fmu_matches_reference(rumoca_fmus, name, tmp_path):
    """q1, q2, v1, v2, Lambda, N within the case's tolerance; energy drift and constraint drift bounded.

    The tolerances and their reasons are in nonholonomic.cases.ball_on_surface (1e-5 relative on every signal,
    1e-7 energy drift, gap < 1e-8 m, slip < 1e-6 m/s); the reference must conserve its own energy
    integral to 1e-9 before it judges anything.
    """
    case = CASES[name]
    result = case.run(tmp_path)
    assert list(result.errors["signal"]) == ["q1", "q2", "v1", "v2", "Lambda", "N"]
    for row in result.errors.itertuples():
        assert row.max_rel <= case.tolerance, f"{name}: {row.signal} relative error {row.max_rel:.2e}"
    checks = {c.name: c for c in result.checks}
    assert checks["FMU energy drift (relative)"].value <= case.energy_tolerance
    assert checks["FMU max |gap|"].value <= case.residual_tolerances["gap"]
    assert checks["FMU max |slip|"].value <= case.residual_tolerances["slip"]
    assert checks["reference energy drift (relative)"].value <= 1e-9
    assert result.passed
    assert (tmp_path / name / "signals.png").stat().st_size > 10_000


def test_paper_case_oscillation_range_and_period(rumoca_fmus):
    """The paper's experiment on its own terms: q1 oscillates between two parallels, period in tau.

    Expected numbers (digest section 1.8, consistent form (22)): q1 in [0.727589, 5.578819], period
    16.56299 in tau = sqrt(g/R) t. The FMU reproduces them to the output grid resolution.
    """
    rate = math.sqrt(9.81 / RADIUS)
    df = simulate("BallOnParaboloid", {}, stop_time=40 / rate, output_interval=0.002 / rate, tolerance=1e-12)
    q1 = df["q1"].to_numpy()
    assert q1.min() == pytest.approx(0.727589, abs=2e-5)
    assert q1.max() == pytest.approx(5.578819, abs=2e-5)
    v1 = df["v1"].to_numpy()
    tau = df["time"].to_numpy() * rate
    # maxima of q1: v1 changes sign from + to -; linear interpolation of the crossing
    k = np.where((v1[:-1] > 0) & (v1[1:] <= 0))[0]
    crossings = tau[k] + (tau[k + 1] - tau[k]) * v1[k] / (v1[k] - v1[k + 1])
    assert len(crossings) == 2
    assert crossings[1] - crossings[0] == pytest.approx(16.56299, abs=1e-4)
    assert (df["N"] > 0).all()  # the ball stays in contact


def test_changed_parameters_take_effect_in_the_fmu(rumoca_fmus):
    """Initial values and geometry set at simulation time change the FMU's initial state (no rebuild)."""
    params = dict(surface=2, a=0.7, b=0.0, R=0.05, m=2.0, g=9.81, q1_0=0.9, q2_0=0.4, v1_0=-0.3, v2_0=2.0,
                  Lambda_0=-0.05)
    df = simulate("BallOnSurfaceOfRevolution", params, stop_time=2.0, output_interval=0.01, tolerance=1e-12)
    ref = BallOnSurfaceOfRevolution(SphericalBowl(0.7), 2 / 7, 9.81).simulate(
        (0.9, 0.4, -0.3, 2.0, -0.05), df["time"].to_numpy(), mass=2.0)
    for s in ("q1", "v1", "v2", "Lambda", "N"):
        assert np.max(np.abs(df[s] - ref[s])) <= 1e-5 * np.max(np.abs(ref[s])), s
    assert np.max(np.abs(np.unwrap(df["q2"]) - ref["q2"])) <= 1e-5 * np.max(np.abs(ref["q2"]))
    # energy in joules: (m + J/R^2) H with J = 2/5 m R^2
    assert df["energy"][0] == pytest.approx(2.0 * 7 / 5 * ref["energy"][0], rel=1e-12)
