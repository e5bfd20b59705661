"""Nonlinear algebraic loops in the rumoca backend (issue 14, part 2): each nonlinear block of the flat DAE is
solved at run time by Newton's method with its exact Jacobian, from its unknowns' start values.

Oracles: Cardano's formula for the real root of a cubic; the implicit function theorem for the Jacobian of a
state derivative that depends on the root; sqrt for a loop that loses its root.
"""

from __future__ import annotations

import numpy as np
import pytest

from conftest import FmuJacobian, fmu_from_source
from nonholonomic.simulate import SimulationFailed, simulate

SOURCE = """package NL
  model Cubic "y + y^3 = a x with x = t: one nonlinear scalar block"
    parameter Real a = 2;
    Real x(start = 0, fixed = true);
    output Real y(start = 0);
  equation
    der(x) = 1;
    y + y^3 = a*x;
  end Cubic;
  model Coupled "y^3 + z = x, z = y: a block of two unknowns; the state's rate is -y"
    Real x(start = 1, fixed = true);
    output Real xOut = x;
    output Real y(start = 0.5);
    Real z(start = 0.5);
  equation
    der(x) = -y;
    y^3 + z = x;
    z - y = 0;
  end Coupled;
  model NoRoot "y^2 + 1 = x with x = 2 - t: the root disappears at t = 1"
    Real x(start = 2, fixed = true);
    output Real y(start = 1);
  equation
    der(x) = -1;
    y^2 + 1 = x;
  end NoRoot;
end NL;
"""


def cardano(q):
    """The real root of y^3 + y = q."""
    d = np.sqrt(np.asarray(q) ** 2 / 4 + 1 / 27)
    return np.cbrt(q / 2 + d) + np.cbrt(q / 2 - d)


def test_scalar_loop_follows_cardano(tmp_path):
    fmu = fmu_from_source(tmp_path, SOURCE, "NL.Cubic")
    df = simulate(fmu, {"a": 3.0}, stop_time=2.0, output_interval=0.1, tolerance=1e-10)
    # x = t exactly (BDF integrates a constant rate without error); Newton stops at a residual below 1e-12,
    # so y is off by at most 1e-12/(1 + 3 y^2) <= 1e-12
    assert np.max(np.abs(df["y"] - cardano(3.0 * df["time"]))) < 1e-12


def test_block_of_two_unknowns_and_its_exact_jacobian(tmp_path):
    fmu = fmu_from_source(tmp_path, SOURCE, "NL.Coupled")
    # x' = -y(x) with y^3 + y = x: dy/dx = 1/(3 y^2 + 1) (implicit function theorem), at x = 1
    y = float(cardano(1.0))
    jacobian = FmuJacobian(fmu, tmp_path).jacobian(np.array([1.0]))
    assert abs(jacobian[0, 0] + 1 / (3 * y**2 + 1)) < 1e-12
    df = simulate(fmu, {}, stop_time=1.0, output_interval=0.1, tolerance=1e-10)
    # along the run y is the root for the integrated x (Newton's residual below 1e-12: y within 1e-12)
    assert np.max(np.abs(df["y"] - cardano(df["xOut"]))) < 1e-12
    assert df["y"].iloc[-1] < y  # x decreases, so does y


def test_loop_without_a_root_stops_the_run_with_one_line(tmp_path):
    fmu = fmu_from_source(tmp_path, SOURCE, "NL.NoRoot")
    with pytest.raises(SimulationFailed) as failure:
        simulate(fmu, {}, stop_time=2.0, output_interval=0.25, tolerance=1e-10)
    message = str(failure.value)
    assert "\n" not in message and "y not finite at t = 1.25" in message and "nonlinear algebraic loop" in message
    rows = failure.value.partial  # the rows before: y = sqrt(1 - t) while the root exists (Newton from y = 1
    # keeps the positive branch; at t = 1, the double root, Newton converges only linearly: y ~ 1e-6)
    t, y = rows["time"].to_numpy(), rows["y"].to_numpy()
    assert list(t) == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert np.max(np.abs(y[:-1] - np.sqrt(1 - t[:-1]))) < 1e-9 and abs(y[-1]) < 1e-5
