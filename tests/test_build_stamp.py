"""``nonholonomic build`` skips an FMU that is up to date: its stamp names the library, backend and options it
was built from (nonholonomic.backends.stamp)."""

from __future__ import annotations

import shutil
import zipfile

import pytest

from test_cli import run

from nonholonomic.backends import stamp
from nonholonomic.fmu import model_description
from nonholonomic.models import LIBRARY


def _members(fmu) -> dict[str, bytes]:
    with zipfile.ZipFile(fmu) as z:
        return {name: z.read(name) for name in z.namelist()}


@pytest.mark.slow
def test_an_fmu_is_rebuilt_only_where_what_it_is_built_from_changed(tmp_path):
    library, out = tmp_path / "Nonholonomic", tmp_path / "fmus"
    shutil.copytree(LIBRARY, library)
    fmu = out / "RollingDisk.fmu"
    build = ("build", "RollingDisk", "--backend", "rumoca", "--library", str(library), "--out", str(out))

    first = run(*build)
    assert first.returncode == 0, first.stderr
    assert "C code generation" in first.stderr
    built, first_stamp = _members(fmu), stamp.read(fmu)
    assert set(first_stamp) == {"sources", "model"}

    again = run(*build)  # nothing changed: no flattening, the file untouched
    assert again.returncode == 0, again.stderr
    assert "1 of 1 FMUs up to date" in again.stderr and "flatten" not in again.stderr
    assert _members(fmu) == built

    # an edit that leaves the model as it is (a comment, another example): flattened, kept, restamped
    other = library / "Examples" / "ChaplyginSleigh.mo"
    other.write_text("// a comment that shifts every line\n\n" + other.read_text())
    (library / "Examples" / "RollingDisk.mo").write_text("// another\n" + (library / "Examples" / "RollingDisk.mo").read_text())
    kept = run(*build)
    assert kept.returncode == 0, kept.stderr
    assert "its flat model is unchanged: FMU kept" in kept.stderr and "C code generation" not in kept.stderr
    members = _members(fmu)  # every member but the stamp as it was
    assert {k: v for k, v in members.items() if k != stamp.MEMBER} == {k: v for k, v in built.items() if k != stamp.MEMBER}
    assert stamp.read(fmu)["model"] == first_stamp["model"] and stamp.read(fmu)["sources"] != first_stamp["sources"]

    # an edit of the model: rebuilt, and the FMU says what changed
    source = library / "Examples" / "RollingDisk.mo"
    source.write_text(source.read_text().replace('parameter Units.AngularVelocity dphi_0 = 15 ',
                                                 'parameter Units.AngularVelocity dphi_0 = 17 '))
    rebuilt = run(*build)
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert "C code generation" in rebuilt.stderr
    start = {v.name: v.start for v in model_description(fmu).modelVariables}
    assert float(start["dphi_0"]) == 17.0

    forced = run(*build, "--force")  # everything again, though up to date
    assert forced.returncode == 0, forced.stderr
    assert "up to date" not in forced.stderr and "C code generation" in forced.stderr
