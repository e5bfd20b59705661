"""The exact Jacobian that every rumoca-backend FMU exports for implicit integrators."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import FmuJacobian
from nonholonomic.models import list_models


# Central differences of the FMU's own derivatives (step 1e-6 relative) against its exported exact
# Jacobian, at the initial state (symmetric: zero slips, rollers with vertical axes) and at a perturbed
# one. Measured relative Frobenius differences: vehicles 9e-9 (initial) and 3.6e-6 (perturbed: the
# finite differences carry the round-off of the light rollers' accelerations, 1e-5 rad/s2, over the
# step); every other example <= 3e-9.
@pytest.mark.parametrize("model", [m.name for m in list_models()])
def test_exact_jacobian_matches_central_differences(model, rumoca_fmus, tmp_path):
    fmu = FmuJacobian(rumoca_fmus[model], tmp_path)
    x0 = fmu.initial_state()
    perturbed = x0 + 1e-3 * np.random.default_rng(0).standard_normal(x0.size)
    bound = 2e-5 if model.startswith("OmniVehicle") else 1e-7
    for x in (x0, perturbed):
        exact, differences = fmu.jacobian(x), fmu.central_differences(x, 1e-6)
        assert np.isfinite(exact).all()
        assert np.linalg.norm(exact - differences) / np.linalg.norm(differences) < bound


# The FMU's FMI directional derivatives are CasADi's derivatives of the model with its linear blocks
# solved by QR (compact code), its evaluations and exported Jacobian go through the generated LU: two
# exact derivatives of one function, different only by the round-off of two solvers. That round-off is
# the condition number of the algebraic block times eps (tests/bounds.py); the vehicle's block (light
# rollers on a heavy platform) has cond ~1e18 in the raw units, so its bound is the finite-difference
# one above. Measured: 7.6e-14 (disk), 4.7e-10 (vehicle spinning), relative to |J seed|.
@pytest.mark.parametrize("model", [m.name for m in list_models()])
def test_fmi_directional_derivatives_match_the_exported_jacobian(model, rumoca_fmus, tmp_path):
    fmu = FmuJacobian(rumoca_fmus[model], tmp_path)
    x = fmu.initial_state()
    seed = np.random.default_rng(1).standard_normal(fmu.nx)
    expected = fmu.jacobian(x) @ seed
    fmu.instance.setContinuousStates(fmu._ptr(np.ascontiguousarray(x)), fmu.nx)
    directional = np.array(fmu.instance.getDirectionalDerivative(fmu.derivative_refs, fmu.state_refs, list(seed)))
    bound = 2e-5 if model.startswith("OmniVehicle") else 1e-7
    assert np.abs(directional - expected).max() < bound * np.abs(expected).max()
