"""The library documents itself in OMEdit's browser: a version and its date on the library, a UsersGuide, and
``Documentation(info = ...)`` on every public class (read with pymoca's parser from the Modelica sources).

Choices: the type aliases of ``Units`` (``type Length = Real(final unit = "m")``) are exempt, as the SI types of
the Modelica Standard Library are: the ``Units`` package's documentation lists them with their units; so are the
replaceable function slots of a component (``replaceable function meridian = Surfaces.builtInMeridian``), whose
documentation is that of the function they stand for."""

from __future__ import annotations

import pathlib
import re

import pytest
from pymoca import ast, parser

from nonholonomic.models import LIBRARY

FILES = sorted(LIBRARY.rglob("*.mo"))


def _arguments(modification) -> dict:
    """The named arguments of an annotation or a modification: name -> value (a modification or an expression)."""
    found = {}
    for argument in getattr(modification, "arguments", []) or []:
        value = argument.value
        if isinstance(value, ast.ElementModification):
            found[value.component.name] = value.modifications[0] if value.modifications else None
        elif isinstance(value, ast.ComponentClause):
            continue
    return found


def _public_classes(cls, name: str):
    """(full name, class) of ``cls`` and of every public class nested in it."""
    yield name, cls
    for child_name, child in cls.classes.items():
        if child.visibility == ast.Visibility.PROTECTED:
            continue
        yield from _public_classes(child, f"{name}.{child_name}")


def _place(path: pathlib.Path) -> str:
    parts = (LIBRARY.name,) + path.relative_to(LIBRARY).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "package" else parts)


def _classes():
    for path in FILES:
        parsed = parser.parse_text(path.read_text(encoding="utf-8"), bypass_cache=True)
        for cls in parsed.classes.values():
            yield from ((name, c, path) for name, c in _public_classes(cls, _place(path)))


def _documented(cls, path: pathlib.Path | None = None) -> bool:
    if cls.is_short_class_definition and path is not None and path.stem == cls.name:
        # pymoca 0.12.0 drops the annotation of a short class definition (``connector RealOutput = output Real
        # "..." annotation(...)``): the file holds only that class, so its text is the class's
        return re.search(r"\bDocumentation\s*\(\s*info\s*=\s*\"[^\"]*\w", path.read_text(encoding="utf-8")) is not None
    documentation = _arguments(cls.annotation).get("Documentation")
    if documentation is None:
        return False
    info = _arguments(documentation).get("info")
    text = getattr(info, "value", None)
    return isinstance(text, str) and len(re.sub(r"<[^>]*>", "", text).strip()) > 0


def test_every_public_class_has_documentation_info():
    missing = [f"{name} ({path.relative_to(LIBRARY.parent)})" for name, cls, path in _classes()
               if not (cls.is_short_class_definition and (cls.type == "type" or cls.replaceable))
               and not _documented(cls, path)]
    assert not missing, "no Documentation(info = ...): " + ", ".join(missing)


def test_library_has_version_and_version_date():
    (cls,) = parser.parse_text((LIBRARY / "package.mo").read_text(encoding="utf-8"), bypass_cache=True
                               ).classes.values()
    arguments = _arguments(cls.annotation)
    version, date = getattr(arguments.get("version"), "value", None), getattr(arguments.get("versionDate"), "value", None)
    assert isinstance(version, str) and re.fullmatch(r"\d+\.\d+\.\d+", version), version
    assert isinstance(date, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", date), date


@pytest.mark.parametrize("section", ["Overview", "Tutorial", "Connectors", "ReleaseNotes", "References", "Contact"])
def test_users_guide_has_its_sections(section):
    (guide,) = parser.parse_text((LIBRARY / "UsersGuide.mo").read_text(encoding="utf-8"), bypass_cache=True
                                 ).classes.values()
    assert section in guide.classes and _documented(guide.classes[section])
