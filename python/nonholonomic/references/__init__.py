"""Independent Python reference models (numpy/scipy) used to verify the Modelica library, one module per
system (named like its case module in :mod:`nonholonomic.cases`):

* :mod:`.ball_on_surface` -- heavy homogeneous ball rolling without slipping on a surface of revolution
  (Kosenko, Kuleshov, Shishkov, Trudy MAI 136, 2024); meridians in :mod:`.meridians`.
* :mod:`.rolling_disk`, :mod:`.chaplygin_ball`, :mod:`.chaplygin_sleigh`, :mod:`.wheelset`.
* :mod:`.spherical_robot` -- Bizyaev, Borisov, Mamaev (2013): shell with a top, nonholonomic hinge, bundle.
* :mod:`.omni_massless`, :mod:`.omni_massive` -- omni-wheel vehicle (Gerasimov 2018).
* :mod:`.contact_patch`, :mod:`.tippe_top` -- Hertz contact with Coulomb-Contensou friction, the tippe-top.
* :mod:`.snakeboard` -- Lewis, Ostrowski, Murray, Burdick (1994), servo-driven; :mod:`.skateboard` -- Hubbard,
  Kuleshov: lean-to-steer trucks and a rigid rider.

The main classes are importable from here (``from nonholonomic.references import RollingDisk``); each
module is imported on first use, so importing one reference does not load the others.
"""

import importlib

_EXPORTS = {
    "BallOnSurfaceOfRevolution": "ball_on_surface", "ParaboloidDimensionless": "ball_on_surface",
    "Meridian": "meridians", "Paraboloid": "meridians", "SphericalBowl": "meridians", "EllipsoidBowl": "meridians",
    "Cone": "meridians", "TorusTrough": "meridians", "meridian_from_code": "meridians",
    "RollingDisk": "rolling_disk", "ChaplyginBall": "chaplygin_ball", "ChaplyginSleigh": "chaplygin_sleigh",
    "Wheelset": "wheelset",
    "ShellWithTop": "spherical_robot", "UnbalancedSlidingBall": "spherical_robot",
    "ShellWithNonholonomicHinge": "spherical_robot", "NonholonomicBundle": "spherical_robot",
    "OmniMassless": "omni_massless", "OmniMassive": "omni_massive",
    "TippeTop": "tippe_top", "Snakeboard": "snakeboard", "Skateboard": "skateboard",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))
