"""The compliant contacts in Modelica against the Python references (issue 11).

Oracles: the friction laws of ``references.contact_patch`` (the exact one checked there against two quadratures),
and the tippe-top of ``references.tippe_top`` (a rigid body written from Newton-Euler, checked on its own). Bounds
and their reasons are those of the cases in ``nonholonomic.cases.tippe_top``.
"""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest

from nonholonomic.backends.explicit_ode import build_explicit_ode
from nonholonomic.backends.flat_dae import FlatDae
from nonholonomic.cases import system_cases
from nonholonomic.models import LIBRARY
from nonholonomic.references import contact_patch

from bounds import roundoff

CASES = {c.name: c for c in system_cases("tippe_top")}


def _passed(result):
    failed = [(c.name, c.value, c.bound) for c in result.checks if not c.passed]
    failed += [(r.signal, r.max_rel, r.tolerance) for r in result.errors.itertuples() if not r.passed]
    return failed


def test_modelica_friction_laws_equal_the_python_laws():
    """Contacts.PatchFriction.laws, compiled by the rumoca backend, against contact_patch.law_fg at u from 0 to
    1e8 (both branches of the exact law and its series): the same formulas, so a few ulps."""
    import rumoca
    source = """model LawCheck
  parameter Real u = 0.5;
  parameter Integer law = 4;
  Real x(start = 0, fixed = true);
  output Real fg[2] = Nonholonomic.Contacts.PatchFriction.laws(law, u);
equation
  der(x) = 0;
end LawCheck;"""
    compiled = rumoca.Session(roots=[str(LIBRARY.parent)]).loads(source, model="LawCheck")
    ode = build_explicit_ode(FlatDae.of(compiled, "LawCheck"))
    for law in (1, 2, 3, 4):
        for u in (0.0, 1e-6, 0.3, 0.999, 1.0, 1.001, 2.0, 5.99, 6.01, 50.0, 1e8):
            modelica = np.array(ode.output_values(0.0, [0.0], [u, law], [], [])).ravel()
            python = np.array(contact_patch.law_fg(law, u), dtype=float)
            assert np.max(np.abs(modelica - python)) <= roundoff(1.0), (law, u, modelica, python)
    # and the exact law is exact: the quadrature about the instantaneous centre of rotation
    for u in (0.0, 0.5, 1.0, 3.0, 100.0):
        modelica = np.array(ode.output_values(0.0, [0.0], [u, 4], [], [])).ravel()
        assert np.max(np.abs(modelica - np.array(contact_patch.exact_fg(u)))) <= 4 * contact_patch.QUAD_TOL


def test_friction_law_table(rumoca_fmus, tmp_path):
    result = CASES["friction_laws"].run(tmp_path)
    assert not _passed(result)
    table = result.frames["approximation_errors"].set_index("law")
    # the point contact has no pivoting torque: its g error is g(0) = 3 pi/16 and its f error is f(0) = 1
    assert table.loc["point", "max_dg"] == pytest.approx(3 * math.pi / 16, abs=1e-12)
    assert table.loc["point", "max_df"] == pytest.approx(1.0, abs=1e-12)
    # both patch laws are exact at the ends (u = 0 and u -> inf), so their largest errors lie in between
    for law in ("contensou", "ellipsoid"):
        assert 0.05 < table.loc[law, "u_df"] < 20 and 0.05 < table.loc[law, "u_dg"] < 20
    assert (tmp_path / "friction_laws" / "friction_laws.png").stat().st_size > 10_000


def test_modelica_contact_wrench_equals_the_reference_at_sampled_states(rumoca_fmus, tmp_path):
    assert not _passed(CASES["tippe_top_wrench"].run(tmp_path))


def test_tippe_top_inverts_as_the_reference(rumoca_fmus, tmp_path):
    result = CASES["tippe_top_contensou"].run(tmp_path)
    assert not _passed(result)
    fmu, ref = result.frames["fmu"], result.frames["reference"]
    # it turns over (theta from 0.1 to > 0.95 pi) before the end of the 3 s run, and ends on its head
    assert 1.0 < fmu.attrs["inversion_time"] < 2.5
    assert fmu["N1"].iloc[-1] == 0.0 and fmu["N2"].iloc[-1] > 0.0
    assert ref["N1"].iloc[-1] == 0.0 and ref["N2"].iloc[-1] > 0.0
    assert (tmp_path / "tippe_top_contensou" / "tippe_top.png").stat().st_size > 20_000


def test_tippe_top_does_not_invert_without_friction(rumoca_fmus, tmp_path):
    result = CASES["tippe_top_frictionless"].run(tmp_path)
    assert not _passed(result)
    assert result.frames["fmu"]["theta"].max() < 0.11


@pytest.mark.parametrize("setting, message", [
    ("R1=-0.01", "below its minimum"), ("E=0", "below its minimum"), ("mu=-0.1", "below its minimum"),
    ("nu=0.6", "above its maximum"), ("gap_0=-0.001", "below its minimum"), ("frictionLaw=2.5", "must be an integer"),
    # the top placed with its head deep inside the plane: the model's assert, checked when the FMU initialises
    ("theta_0=3", "the head sphere starts inside the plane"), ("R2=0.03", "the head sphere starts inside the plane")])
def test_bad_tippe_top_parameters_give_one_line(rumoca_fmus, tmp_path, setting, message):
    run = subprocess.run([sys.executable, "-m", "nonholonomic", "simulate", "TippeTop", "--set", setting,
                          "--stop-time", "0.1", "--out", str(tmp_path / "x.csv")], capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and message in run.stderr and "Traceback" not in run.stderr
    assert not (tmp_path / "x.csv").exists()


@pytest.mark.parametrize("law", [2, 3, 4])
def test_an_importer_at_ordinary_tolerance_gets_the_inversion_within_a_millisecond(law, rumoca_fmus):
    """fmpy's model exchange (its CVODE, absolute tolerances rtol x the states' nominals) at rtol 1e-6 (issue 26):
    the nominals of positions and velocities (1 mm, 1 mm/s) make the importer's error control resolve the contact's
    deformation and the slip near sticking; with nominal 1 the law 3 inversion was 2 ms off. Against the project's
    loop at rtol 1e-10, whose own change from rtol 1e-8 is below 1e-5 s."""
    import fmpy
    from nonholonomic.references.tippe_top import inversion_time
    from nonholonomic.simulate import simulate
    fmu = rumoca_fmus["TippeTop"]
    settings = dict(stop_time=2.5, output_interval=0.002)
    exact = inversion_time(simulate(fmu, parameters={"frictionLaw": law}, tolerance=1e-10, **settings))
    imported = fmpy.simulate_fmu(str(fmu), fmi_type="ModelExchange", relative_tolerance=1e-6,
                                 start_values={"frictionLaw": law}, output=["theta"], **settings)
    assert abs(inversion_time(imported) - exact) < 1e-3
