"""Tests of the OpenModelica backend that run without OpenModelica.

omc is not started anywhere here: the tests cover locating omc, the failure when it is absent, the
scripting expressions sent to omc (checked against the OpenModelica scripting API) and the
extraction of one error line from omc's and OMPython's message formats.
"""

from __future__ import annotations

import inspect
import os
import pathlib
import stat
import subprocess
import sys

import pytest

from nonholonomic.backends import openmodelica as om
from nonholonomic.errors import NonholonomicError

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.fixture
def no_omc(tmp_path, monkeypatch):
    """PATH and OPENMODELICAHOME both point at empty directories."""
    empty_path = tmp_path / "empty-path"
    empty_home = tmp_path / "empty-home"
    empty_path.mkdir()
    empty_home.mkdir()
    monkeypatch.setenv("PATH", str(empty_path))
    monkeypatch.setenv("OPENMODELICAHOME", str(empty_home))
    return tmp_path


def _library(tmp_path: pathlib.Path) -> pathlib.Path:
    lib = tmp_path / "Nonholonomic"
    lib.mkdir()
    (lib / "package.mo").write_text("package Nonholonomic\nend Nonholonomic;\n")
    return lib


def _stub_executable(path: pathlib.Path, marker: pathlib.Path) -> pathlib.Path:
    """An executable named like omc that only records that it was run (it must never be)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\necho ran > '{marker}'\nexit 1\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


# ----------------------------------------------------------------------------------------------
# omc absent
# ----------------------------------------------------------------------------------------------

def test_omc_executable_is_none_without_openmodelica(no_omc):
    assert om.omc_executable() is None


def test_build_fmu_without_omc_raises_one_line_error(no_omc):
    lib = _library(no_omc)
    out = no_omc / "out" / "Ball.fmu"
    with pytest.raises(NonholonomicError) as info:
        om.build_fmu("Nonholonomic.Examples.BallOnParaboloid", lib, out)
    message = str(info.value)
    assert "\n" not in message
    assert "omc" in message
    assert "OPENMODELICAHOME" in message
    assert not out.exists()


def test_build_fmu_without_omc_reports_no_progress(no_omc):
    lines: list[str] = []
    with pytest.raises(NonholonomicError):
        om.build_fmu("Nonholonomic.Examples.BallOnParaboloid", _library(no_omc), no_omc / "x.fmu", progress=lines.append)
    assert lines == []


def test_import_is_cheap_and_does_not_import_ompython():
    code = (
        "import sys, nonholonomic.backends.openmodelica as m; "
        "print('OMPython' in sys.modules, 'zmq' in sys.modules)"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert result.stdout.split() == ["False", "False"]


# ----------------------------------------------------------------------------------------------
# locating omc (no omc is run: the stub only has to exist)
# ----------------------------------------------------------------------------------------------

@pytest.mark.skipif(os.name == "nt", reason="POSIX executable bits")
def test_omc_executable_prefers_openmodelicahome(tmp_path, monkeypatch):
    marker = tmp_path / "ran"
    home_omc = _stub_executable(tmp_path / "home" / "bin" / "omc", marker)
    path_omc = _stub_executable(tmp_path / "pathdir" / "omc", marker)
    monkeypatch.setenv("OPENMODELICAHOME", str(tmp_path / "home"))
    monkeypatch.setenv("PATH", str(path_omc.parent))
    assert om.omc_executable() == str(home_omc)
    monkeypatch.delenv("OPENMODELICAHOME")
    assert om.omc_executable() == str(path_omc)
    assert not marker.exists()


@pytest.mark.skipif(os.name == "nt", reason="POSIX executable bits")
def test_omc_executable_falls_back_to_path_when_home_has_no_omc(tmp_path, monkeypatch):
    marker = tmp_path / "ran"
    (tmp_path / "home" / "bin").mkdir(parents=True)
    not_executable = tmp_path / "home" / "bin" / "omc"
    not_executable.write_text("not a program\n")
    not_executable.chmod(0o644)
    path_omc = _stub_executable(tmp_path / "pathdir" / "omc", marker)
    monkeypatch.setenv("OPENMODELICAHOME", str(tmp_path / "home"))
    monkeypatch.setenv("PATH", str(path_omc.parent))
    assert om.omc_executable() == str(path_omc)


@pytest.mark.skipif(os.name == "nt", reason="POSIX executable bits")
def test_missing_library_is_reported_before_omc_is_started(tmp_path, monkeypatch):
    marker = tmp_path / "ran"
    _stub_executable(tmp_path / "home" / "bin" / "omc", marker)
    monkeypatch.setenv("OPENMODELICAHOME", str(tmp_path / "home"))
    monkeypatch.setenv("PATH", str(tmp_path / "home" / "bin"))
    with pytest.raises(NonholonomicError) as info:
        om.build_fmu("Nonholonomic.Examples.BallOnParaboloid", tmp_path / "no-such-lib", tmp_path / "x.fmu")
    message = str(info.value)
    assert "\n" not in message
    assert "package.mo" in message and "no-such-lib" in message
    assert not marker.exists()


@pytest.mark.parametrize("bad", ["", "Nonholonomic.", ".Nonholonomic", "Nonholonomic..X", "A.B; system(\"rm\")", "1Ball"])
def test_build_fmu_rejects_invalid_class_names_first(bad, no_omc):
    with pytest.raises(NonholonomicError) as info:
        om.build_fmu(bad, _library(no_omc), no_omc / "x.fmu")
    assert "not a Modelica class name" in str(info.value)
    assert "\n" not in str(info.value)


# ----------------------------------------------------------------------------------------------
# scripting expressions (OpenModelica scripting API: buildModelFMU, loadFile, cd)
# ----------------------------------------------------------------------------------------------

def test_build_model_fmu_expression_for_fmi2_me_cs_static():
    # function buildModelFMU(TypeName className, String version = "2.0", String fmuType = "me",
    #   String fileNamePrefix = "<default>", String platforms[:] = {"static"}, ...)
    assert om.build_model_fmu_expression("Nonholonomic.Examples.BallOnParaboloid") == (
        'buildModelFMU(Nonholonomic.Examples.BallOnParaboloid, version="2.0", fmuType="me_cs", '
        'fileNamePrefix="Nonholonomic_Examples_BallOnParaboloid", platforms={"static"})'
    )


def test_build_model_fmu_expression_options():
    assert om.build_model_fmu_expression(
        "Nonholonomic.Examples.Disk", version="2.0", fmu_type="cs", file_name_prefix="Disk",
        platforms=["static", "x86_64-linux-gnu"],
    ) == (
        'buildModelFMU(Nonholonomic.Examples.Disk, version="2.0", fmuType="cs", '
        'fileNamePrefix="Disk", platforms={"static", "x86_64-linux-gnu"})'
    )


def test_build_model_fmu_expression_refuses_non_class_names():
    with pytest.raises(ValueError):
        om.build_model_fmu_expression('A.B, fileNamePrefix="x"')


def test_file_name_prefix_matches_openmodelica_default():
    # OpenModelica's fileNamePrefix="<default>" is the class path with "." replaced by "_".
    assert om.fmu_file_name_prefix("Nonholonomic.Examples.BallOnParaboloid") == "Nonholonomic_Examples_BallOnParaboloid"
    assert om.fmu_file_name_prefix("Top") == "Top"


def test_load_file_and_cd_expressions():
    assert om.load_file_expression(pathlib.PurePosixPath("/work/lib/Nonholonomic/package.mo")) == (
        'loadFile("/work/lib/Nonholonomic/package.mo")'
    )
    assert om.cd_expression(pathlib.PurePosixPath("/tmp/nonholonomic-omc-ab12")) == 'cd("/tmp/nonholonomic-omc-ab12")'


def test_modelica_string_escaping():
    assert om.modelica_string("plain") == '"plain"'
    assert om.modelica_string('a "b" c') == '"a \\"b\\" c"'
    assert om.modelica_string("C:\\Users\\x") == '"C:\\\\Users\\\\x"'
    assert om.modelica_string_array(["static"]) == '{"static"}'
    assert om.modelica_string_array([]) == "{}"


def test_class_name_validation():
    assert om.is_valid_class_name("Nonholonomic.Examples.BallOnParaboloid")
    assert om.is_valid_class_name("_A.b2")
    for bad in ["", "A.", "A..B", "A B", "A.B)", "2A", "A.'quoted'"]:
        assert not om.is_valid_class_name(bad), bad


# ----------------------------------------------------------------------------------------------
# one error line from omc's messages
# ----------------------------------------------------------------------------------------------

def test_parse_omc_string_decodes_the_printed_literal():
    # getErrorString() sent with parsed=False comes back as omc prints a String value
    raw = '"[/l/M.mo:1:1-1:2:writable] Error: Class \\"X\\" not found.\\nWarning: w\\n"\n'
    assert om.parse_omc_string(raw) == '[/l/M.mo:1:1-1:2:writable] Error: Class "X" not found.\nWarning: w\n'
    assert om.parse_omc_string('""\n') == ""
    assert om.parse_omc_string("  no quotes \n") == "no quotes"


def test_first_error_line_of_get_error_string():
    # getErrorString(): "[file.mo:n:n-n:n:b] Error: message", messages in the order they occurred
    text = (
        '"[/work/lib/Nonholonomic/Examples/BallOnParaboloid.mo:12:3-12:25:writable] '
        "Error: Variable rr not found in scope Nonholonomic.Examples.BallOnParaboloid.\n"
        "Error: Error occurred while flattening model Nonholonomic.Examples.BallOnParaboloid\n"
        '"\n'
    )
    assert om.first_error_line(text) == (
        "/work/lib/Nonholonomic/Examples/BallOnParaboloid.mo:12:3: "
        "Variable rr not found in scope Nonholonomic.Examples.BallOnParaboloid."
    )


def test_first_error_line_skips_warnings_and_handles_errors_without_location():
    text = (
        "[/l/package.mo:3:1-3:40:writable] Warning: Ignoring unknown annotation.\n"
        "Notification: Automatically loaded package Complex 4.0.0 due to uses annotation.\n"
        "Error: Class Nonholonomic.Examples.Nope not found in scope <top>.\n"
    )
    assert om.first_error_line(text) == "Class Nonholonomic.Examples.Nope not found in scope <top>."


def test_first_error_line_without_error_is_none():
    assert om.first_error_line("") is None
    assert om.first_error_line('""\n') is None
    assert om.first_error_line("Warning: only a warning\n") is None


def test_first_error_line_internal_error():
    assert om.first_error_line("Internal error: Stack overflow\n") == "Stack overflow"


# The text OMPython 4.1.0 puts into OMSessionException (om_session_omc.py, OMCSessionABC.sendExpression):
# getMessagesStringInternal() lists omc's messages oldest first, OMPython walks them reversed, so
# "00:" is the newest message.
SESSION_EXCEPTION = (
    "OMC error occurred for 'sendExpression(expr=loadFile(\"/work/lib/Nonholonomic/package.mo\"), parsed=True):\n"
    "00: [translation:error:238] [/work/lib/Nonholonomic/package.mo:false:0:0:0:0] "
    "Failed to load package Nonholonomic (default) using MODELICAPATH /work/lib.\n"
    "01: [translation:warning:260] [/work/lib/Nonholonomic/package.mo:false:2:1:2:30] Some warning.\n"
    "02: [syntax:error:2] [/work/lib/Nonholonomic/Examples/BallOnParaboloid.mo:false:17:5:17:5] "
    "Missing token: SEMICOLON\n"
    "second line of the syntax error"
)


def test_first_error_from_session_exception_takes_the_earliest_error():
    assert om.first_error_from_session_exception(SESSION_EXCEPTION) == (
        "/work/lib/Nonholonomic/Examples/BallOnParaboloid.mo:17:5: Missing token: SEMICOLON"
    )


def test_first_error_from_session_exception_without_location():
    text = (
        "OMC error occurred for 'sendExpression(expr=buildModelFMU(A.B), parsed=True):\n"
        "00: [scripting:error:4] [:false:0:0:0:0] Class A.B not found in scope <top>."
    )
    assert om.first_error_from_session_exception(text) == "Class A.B not found in scope <top>."


def test_first_error_from_session_exception_other_texts():
    assert om.first_error_from_session_exception(
        "No connection with OMC (timeout=300.00s)."
    ) == "No connection with OMC (timeout=300.00s)."
    assert om.first_error_from_session_exception(
        "OMC error: Error occurred building AST\nSyntax error near: ')'\n"
    ) == "OMC error: Error occurred building AST"
    assert om.first_error_from_session_exception("") == "unknown error"


def test_first_error_from_log_lines():
    # with raise_on_error=False OMPython logs the whole list as one warning record
    warning = (
        "OMC reported 'error'-level messages for 'sendExpression(expr=buildModelFMU(A.B), parsed=True)', "
        "but raise_on_error=False was requested; continuing:\n"
        "00: [symbolic:error:7] [:false:0:0:0:0] Compilation of the FMU failed.\n"
        "01: [translation:error:3] [/l/A.mo:false:4:3:4:9] Variable q not found in scope A.B."
    )
    assert om.first_error_from_log_lines(["unrelated", warning]) == "/l/A.mo:4:3: Variable q not found in scope A.B."
    # per-message records only (newest first): the last error-level one is the earliest
    records = [
        "[OMC log for 'sendExpression(expr=buildModelFMU(A.B), parsed=True)']: [symbolic:error:7] Compilation failed.",
        "[OMC log for 'sendExpression(expr=buildModelFMU(A.B), parsed=True)']: [translation:warning:1] A warning.",
        "[OMC log for 'sendExpression(expr=buildModelFMU(A.B), parsed=True)']: [translation:error:3] Root cause.",
    ]
    assert om.first_error_from_log_lines(records) == "Root cause."
    assert om.first_error_from_log_lines(records[1:2]) is None
    assert om.first_error_from_log_lines([]) is None


def test_ompython_message_format_is_the_one_parsed_here():
    """Guard against OMPython changing the formats the parsers above rely on."""
    OMPython = pytest.importorskip("OMPython")
    source = inspect.getsource(OMPython.OMCSessionABC.sendExpression)
    assert 'f"[{log_kind}:{log_level}:{log_id}] "' in source
    assert 'f"[{log_filename}:{log_readonly}:{log_lstart}:{log_cstart}:{log_lend}:{log_cend}] "' in source
    assert "f\"{idx:02d}: {msg}\"" in source
    assert "for log_entry in reversed(log_entries)" in source
    assert "[OMC log for 'sendExpression(expr={expr}, parsed={parsed})']: " in source
    assert "OMC reported 'error'-level messages" in source
    assert 'if expr == "getErrorString()":' in source
    assert "raise_on_error" in inspect.signature(OMPython.OMCSessionLocal.sendExpression).parameters
    assert "omhome" in inspect.signature(OMPython.OMCSessionLocal.__init__).parameters


def test_fmi_flags_select_cvode_for_co_simulation():
    # OpenModelica's compiler flag --fmiFlags writes <prefix>_flags.json into the FMU; "s:cvode" selects CVODE for
    # fmi2DoStep instead of the default forward Euler (one step per communication step)
    assert om.fmi_flags_expression() == 'setCommandLineOptions("--fmiFlags=s:cvode")'
