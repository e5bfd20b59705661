"""Every package stored as a directory lists in its ``package.order`` exactly the classes and constants it defines,
in their order (MLS 13.4.3): the classes and the constants of its ``package.mo`` in the order they stand there, and
the files and subdirectories beside it. OpenModelica checks this when it loads the library (``loadFile`` warns of a class the file omits, of one
it names that does not exist, and of classes in another order than in ``package.mo``), and OMEdit rewrites the file
on save. The classes are read with pymoca's parser; what is compared is plain text."""

from __future__ import annotations

import pathlib

import pytest
from pymoca import parser

from nonholonomic.models import LIBRARY

PACKAGES = sorted(path.parent for path in LIBRARY.rglob("package.mo"))


def _defined(package: pathlib.Path) -> tuple[list[str], list[str], set[str]]:
    """The classes and the constants ``package/package.mo`` defines, each in their order, and the classes stored
    beside it."""
    parsed = parser.parse_text((package / "package.mo").read_text(encoding="utf-8"), bypass_cache=True)
    (cls,) = parsed.classes.values()
    inside = list(cls.classes)
    constants = [name for name, symbol in cls.symbols.items() if "constant" in symbol.prefixes]
    beside = {p.stem for p in package.glob("*.mo") if p.name != "package.mo"}
    beside |= {p.name for p in package.iterdir() if (p / "package.mo").is_file()}
    return inside, constants, beside


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: str(p.relative_to(LIBRARY.parent)))
def test_package_order_lists_exactly_the_classes_of_the_package(package):
    order_file = package / "package.order"
    assert order_file.is_file(), f"{package.relative_to(LIBRARY.parent)} has no package.order"
    order = [line.strip() for line in order_file.read_text(encoding="utf-8").splitlines() if line.strip()]
    inside, constants, beside = _defined(package)
    defined = set(inside) | set(constants) | beside
    assert len(order) == len(set(order)), f"names listed twice: {sorted({n for n in order if order.count(n) > 1})}"
    assert sorted(defined) == sorted(order), (
        f"missing from package.order: {sorted(defined - set(order))}; "
        f"listed but not defined: {sorted(set(order) - defined)}")
    # the classes and the constants of package.mo keep their relative order (the files beside it may stand anywhere)
    assert [name for name in order if name in inside] == inside
    assert [name for name in order if name in constants] == constants
