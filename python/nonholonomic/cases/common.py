"""What the case modules share: the common tolerances and the reading of FMU vector outputs.

Each FMU is the 3-D multibody model of the Modelica library (rigid bodies, contacts and joints); each
reference is written from the classical reduced equations (``nonholonomic.references``) and checked on
its own. The FMU's world-frame state is mapped into the reference's variables by the reference's own
``from_world``, and the reference's ``to_world`` of the initial state is compared with the FMU's initial
state (:func:`state_check`), so the two independent parametrisations of the initial conditions are checked
against each other.

Tolerances. Both sides integrate the same physics with tight tolerances (FMU: CVODE at 1e-12;
references: DOP853 at 1e-11/1e-12), so their difference is integration error: 1e-9 to 1e-7 relative over
the spans of the cases. The bound on every signal is 1e-5 relative to the signal's largest magnitude, two
orders above that and far below the effect of a modelling error. Energy is conserved by every model but
the damped ones: bound 1e-7 relative. Constraint drift is held by the Baumgarte terms at the level of
the integration error: gap below 1e-8 m, slip below 1e-6 m/s. Steady motions: the tilt, radius or position
that must stay constant may move by integration error only: bounds 1e-7 (radians, metres).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..verification import Check

COMMON = dict(tolerance=1e-5, energy_tolerance=1e-7, fmu_tolerance=1e-12)
RESIDUALS = {"gap": 1e-8, "slip": 1e-6}



def vector(frame: pd.DataFrame, name: str, n: int = 3) -> np.ndarray:
    """The (k, n) array of an FMU vector output ``name[1]`` ... ``name[n]``."""
    return np.stack([frame[f"{name}[{i}]"].to_numpy() for i in range(1, n + 1)], axis=-1)


def state_check(name: str, fmu_raw: pd.DataFrame, expected: dict, bound: float) -> Check:
    """Largest difference between the FMU's initial world state and the reference's ``to_world``
    (``expected`` maps FMU vector outputs to the reference's values)."""
    worst = 0.0
    for key, value in expected.items():
        got = vector(fmu_raw, key, len(value))[0]
        if key == "Q":  # q and -q are the same attitude
            worst = max(worst, min(np.max(np.abs(got - value)), np.max(np.abs(got + value))))
        else:
            worst = max(worst, float(np.max(np.abs(got - value))))
    return Check(f"initial state: FMU vs reference to_world ({name})", worst, bound)


