"""Verification cases, one module per system. A system has one name in the three places: the case module
``nonholonomic.cases.<system>``, its reference models in ``nonholonomic.references``, and its Modelica examples
in ``Nonholonomic.Examples``, as listed in ``SYSTEMS`` (and printed by ``nonholonomic list``).

Each module has ``cases()``, the list of its cases; a new system adds a module here and a line to ``SYSTEMS``.
"""

from __future__ import annotations

import collections
import importlib

from ..errors import NonholonomicError

System = collections.namedtuple("System", "examples references")
SYSTEMS = {  # system (case module) -> its Modelica examples and its reference models (nonholonomic.references.*)
    "ball_on_surface": System(("BallOnSurfaceOfRevolution", "BallOnParaboloid"), ("ball_on_surface",)),
    "rolling_disk": System(("RollingDisk",), ("rolling_disk",)),
    "euler_disk": System(("EulerDisk",), ("euler_disk",)),
    "chaplygin_ball": System(("ChaplyginBall",), ("chaplygin_ball",)),
    "chaplygin_sleigh": System(("ChaplyginSleigh",), ("chaplygin_sleigh",)),
    "wheelset": System(("Wheelset",), ("wheelset",)),
    "spherical_robot": System(("ShellWithInnerBody", "ShellWithNonholonomicHinge", "NonholonomicBundle"),
                              ("spherical_robot",)),
    "omni_vehicle": System(("OmniVehicleSpin", "OmniVehicleStraight", "OmniVehicleChapter2", "OmniVehicleDriven",
                            "OmniVehicleTruncated", "OmniVehicleLayout", "MecanumVehicle"),
                           ("omni_massless", "omni_massive", "mecanum_massless", "mecanum_friction")),
    "omni_impact": System(("OmniVehicleImpactSpin", "OmniVehicleImpactStraight", "OmniVehicleImpactTranslationSpin"),
                          ("omni_massive",)),
    "tippe_top": System(("TippeTop",), ("contact_patch", "tippe_top")),
    "snakeboard": System(("Snakeboard",), ("snakeboard",)),
    "skateboard": System(("Skateboard",), ("skateboard",)),
    "bearing": System(("BallBearing",), ("bearing",)),
    "gears": System(("SpurGearPair",), ("gears",)),
}


ANIMATED = {  # the examples whose 3D animation the report shows, where not just a system's first example
    "omni_vehicle": ("OmniVehicleSpin", "MecanumVehicle"),
    "spherical_robot": ("ShellWithInnerBody", "ShellWithNonholonomicHinge"),
}


def animated_examples(system: str) -> tuple:
    """The examples of a system that the report animates."""
    if system not in SYSTEMS:
        raise NonholonomicError(f"unknown system '{system}' (known: {', '.join(SYSTEMS)})")
    return ANIMATED.get(system, SYSTEMS[system].examples[:1])


def system_of(example: str) -> str:
    """The system an example model belongs to."""
    for name, system in SYSTEMS.items():
        if example in system.examples:
            return name
    raise NonholonomicError(f"example model '{example}' belongs to no system (nonholonomic.cases.SYSTEMS)")


def system_cases(system: str) -> list:
    """The cases of one system (its module's ``cases()``)."""
    if system not in SYSTEMS:
        raise NonholonomicError(f"unknown system '{system}' (known: {', '.join(SYSTEMS)})")
    return importlib.import_module(f"{__name__}.{system}").cases()


def all_cases() -> dict:
    """Every verification case by name, in the order of ``SYSTEMS``."""
    cases = {}
    for system in SYSTEMS:
        for case in system_cases(system):
            case.system = system
            case.paper = importlib.import_module(f"{__name__}.{system}").PAPER  # the report cites it
            cases[case.name] = case
    return cases


def select_cases(names=None) -> list:
    """The named cases (all by default); a system's name selects all its cases."""
    cases = all_cases()
    if not names:
        return list(cases.values())
    selected = []
    for name in names:
        if name in SYSTEMS:
            selected += [c for c in cases.values() if c.system == name]
        elif name in cases:
            selected.append(cases[name])
        else:
            raise NonholonomicError(f"unknown verification case '{name}' (cases: {', '.join(cases)}; "
                                    f"systems: {', '.join(SYSTEMS)})")
    return selected
