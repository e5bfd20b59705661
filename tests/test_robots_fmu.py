"""The rumoca-backend FMUs of the spherical robots against the reduced equations of Bizyaev, Borisov,
Mamaev (2013). Tolerances and their reasons: nonholonomic.cases.spherical_robot."""

from __future__ import annotations

import pytest

from nonholonomic.cases.spherical_robot import cases as robot_cases

CASES = {c.name: c for c in robot_cases()}


@pytest.mark.parametrize("name", list(CASES))
def test_fmu_matches_reference_and_keeps_every_integral(rumoca_fmus, name, tmp_path):
    case = CASES[name]
    result = case.run(tmp_path)
    failed = [(c.name, c.value, c.bound) for c in result.checks if not c.passed]
    assert not failed
    for row in result.errors.itertuples():
        assert row.max_rel <= case.tolerance, f"{name}: {row.signal} relative error {row.max_rel:.2e}"
    integrals = [c.name for c in result.checks if c.name.startswith("FMU integral") or c.name.startswith("FMU vector")]
    assert len(integrals) >= 3  # every case checks several first integrals on the FMU run
    assert (tmp_path / name / "integrals.png").stat().st_size > 10_000


def test_special_cases_check_their_extra_integral(rumoca_fmus, tmp_path):
    euler = {c.name: c for c in CASES["shell_top_euler"].run(tmp_path).checks}
    lagrange = {c.name: c for c in CASES["shell_top_lagrange"].run(tmp_path).checks}
    assert euler["FMU integral euler: max |I - I(0)| / max |I|"].value < 1e-7
    assert lagrange["FMU integral lagrange: max |I - I(0)| / max |I|"].value < 1e-7
