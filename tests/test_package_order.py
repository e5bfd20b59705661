"""Every package stored as a directory lists in its ``package.order`` exactly the classes it defines, in their order
(MLS 13.4.3): the classes of its ``package.mo`` in the order they stand there, and the files and subdirectories
beside it. OpenModelica checks this when it loads the library (``loadFile`` warns of a class the file omits, of one
it names that does not exist, and of classes in another order than in ``package.mo``), and OMEdit rewrites the file
on save. The classes are read with pymoca's parser; what is compared is plain text."""

from __future__ import annotations

import pathlib

import pytest
from pymoca import parser

from nonholonomic.models import LIBRARY

PACKAGES = sorted(path.parent for path in LIBRARY.rglob("package.mo"))


def _defined(package: pathlib.Path) -> tuple[list[str], set[str]]:
    """The classes ``package/package.mo`` defines, in their order, and the classes stored beside it."""
    parsed = parser.parse_text((package / "package.mo").read_text(encoding="utf-8"), bypass_cache=True)
    (cls,) = parsed.classes.values()
    inside = list(cls.classes)
    beside = {p.stem for p in package.glob("*.mo") if p.name != "package.mo"}
    beside |= {p.name for p in package.iterdir() if (p / "package.mo").is_file()}
    return inside, beside


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: str(p.relative_to(LIBRARY.parent)))
def test_package_order_lists_exactly_the_classes_of_the_package(package):
    order_file = package / "package.order"
    assert order_file.is_file(), f"{package.relative_to(LIBRARY.parent)} has no package.order"
    order = [line.strip() for line in order_file.read_text(encoding="utf-8").splitlines() if line.strip()]
    inside, beside = _defined(package)
    assert len(order) == len(set(order)), f"names listed twice: {sorted({n for n in order if order.count(n) > 1})}"
    assert sorted(set(inside) | beside) == sorted(order), (
        f"missing from package.order: {sorted((set(inside) | beside) - set(order))}; "
        f"listed but not defined: {sorted(set(order) - set(inside) - beside)}")
    # the classes of package.mo keep their relative order (the files beside it may stand anywhere between them)
    assert [name for name in order if name in inside] == inside
