"""The exact Jacobian that every rumoca-backend FMU exports for implicit integrators."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import FmuJacobian
from nonholonomic.models import list_models
from nonholonomic.simulate import simulate

# A compliant contact's force has kinks where a sphere first touches (delta = 0: the tippe-top's initial state)
# and where its damped normal force would pull; there the Jacobian is one-sided and central differences straddle
# it. These models are checked at the state after a short run instead (the top sliding on its body sphere,
# delta ~ 1.7e-7 m), perturbed by 1e-9 (well inside the contact: it keeps delta > 0 and the force pushing), with
# central-difference steps well below the penetration: relative step 1e-10 (the truncation error goes like
# (h/delta)^2: measured 1.4e-4, 1.4e-6, 1.8e-8 at steps 1e-8, 1e-9, 1e-10).
# The machine elements' contact forces vary on the scale of their penetrations (microns): the default step (1e-6 of
# max(|x|, 1), a micron) straddles it, so they take steps well below it too: the bearing at its initial state (balls
# at rest, 0.5 um into both rings; at speed the friction's regularisation couples positions and spins on the scale
# eps/omega = 0.5 um), measured 1.2e-8 with steps of 1e-10; the gears after 10 ms (2.5 um of mesh approach), 4.5e-9
# with steps of 1e-8. Euler's disk at its initial state (the rim 0.5 um into the glass, the static penetration):
# 2.3e-8 and 3.6e-8 (perturbed) with steps of 1e-10; 1.2e-7 at 1e-9 and 1.2e-5 at 1e-8, the (h/delta)^2 truncation.
KINK_FREE = {"TippeTop": (0.2, 1e-9, 1e-10),  # time of the state, perturbation, relative step
             "BallBearing": (0.0, 1e-9, 1e-10), "SpurGearPair": (0.01, 1e-9, 1e-8), "EulerDisk": (0.0, 1e-9, 1e-10)}
# the bearing with a 2 um preload: with its default clearance the balls start just touching the inner ring
# (delta = 0, the kink); the cage's pockets, the balls at their centres, are smooth there (regularised distance)
PARAMETERS = {"BallBearing": {"P_d": -2e-6}}


def _states(model: str, fmu: FmuJacobian):
    """The state to check at, a perturbed one, and the central differences' relative step."""
    x0 = fmu.initial_state()
    scale, step = 1e-3, 1e-6
    if model in KINK_FREE:
        time, scale, step = KINK_FREE[model]
        if time > 0:
            run = simulate(model, stop_time=time, output_interval=time, tolerance=1e-10, outputs=fmu.states)
            x0 = run[fmu.states].to_numpy()[-1]
    return x0, x0 + scale * np.random.default_rng(0).standard_normal(x0.size), step


# Central differences of the FMU's own derivatives (step 1e-6 relative) against its exported exact
# Jacobian, at the initial state (symmetric: zero slips, rollers with vertical axes) and at a perturbed
# one. Measured relative Frobenius differences: vehicles 9e-9 (initial) and 3.6e-6 (perturbed: the
# finite differences carry the round-off of the light rollers' accelerations, 1e-5 rad/s2, over the
# step); every other example <= 3e-9.
@pytest.mark.parametrize("model", [m.name for m in list_models()])
def test_exact_jacobian_matches_central_differences(model, rumoca_fmus, tmp_path):
    fmu = FmuJacobian(rumoca_fmus[model], tmp_path, PARAMETERS.get(model))
    x0, perturbed, step = _states(model, fmu)
    bound = 2e-5 if model.startswith("OmniVehicle") else 1e-7
    for x in (x0, perturbed):
        exact, differences = fmu.jacobian(x), fmu.central_differences(x, step)
        assert np.isfinite(exact).all()
        assert np.linalg.norm(exact - differences) / np.linalg.norm(differences) < bound


# The FMU's FMI directional derivatives (fmi3GetDirectionalDerivative) are CasADi's derivatives of the
# model with its linear blocks solved by QR, while its evaluations go through the generated LU
# (backends/sparse_lu.py): checked, like the exported Jacobian above, against central differences of the
# FMU's own derivatives along a random direction, with the bounds and reasons of the test above.
# Measured: <= 1.3e-10 for every example but the vehicles, 1.7e-9 to 1.2e-8 for those.
@pytest.mark.parametrize("model", [m.name for m in list_models()])
def test_fmi_directional_derivatives_match_central_differences(model, rumoca_fmus, tmp_path):
    fmu = FmuJacobian(rumoca_fmus[model], tmp_path, PARAMETERS.get(model))
    x, _, step = _states(model, fmu)
    seed = np.random.default_rng(1).standard_normal(fmu.nx)
    differences = fmu.central_differences(x, step) @ seed
    fmu.instance.setContinuousStates(fmu._ptr(np.ascontiguousarray(x)), fmu.nx)
    directional = np.array(fmu.instance.getDirectionalDerivative(fmu.derivative_refs, fmu.state_refs, list(seed)))
    bound = 2e-5 if model.startswith("OmniVehicle") else 1e-7
    assert np.linalg.norm(directional - differences) / np.linalg.norm(differences) < bound
