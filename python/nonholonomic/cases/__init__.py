"""Verification cases, one module per system. A system has the same name in the three places:

========================  ===========================================  ==========================================
case module               Modelica examples (``Nonholonomic.Examples``)  reference model
========================  ===========================================  ==========================================
``ball_on_surface``       BallOnSurfaceOfRevolution, BallOnParaboloid  ``references.ball_on_surface``
``rolling_disk``          RollingDisk                                  ``references.rolling_disk``
``chaplygin_ball``        ChaplyginBall                                ``references.chaplygin_ball``
``chaplygin_sleigh``      ChaplyginSleigh                              ``references.chaplygin_sleigh``
``wheelset``              Wheelset                                     ``references.wheelset``
``spherical_robot``       ShellWithInnerBody, ShellWithNonholonomic-   ``references.spherical_robot``
                          Hinge, NonholonomicBundle
``omni_vehicle``          OmniVehicleSpin, OmniVehicleStraight,        ``references.omni_massless``,
                          OmniVehicleChapter2                          ``references.omni_massive``
========================  ===========================================  ==========================================

Each module has ``cases()``, the list of its cases; a new system adds a module here and to ``SYSTEMS``.
"""

from __future__ import annotations

import importlib

from ..errors import NonholonomicError

SYSTEMS = ("ball_on_surface", "rolling_disk", "chaplygin_ball", "chaplygin_sleigh", "wheelset", "spherical_robot",
           "omni_vehicle")


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
