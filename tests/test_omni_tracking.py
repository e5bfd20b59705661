"""The omni vehicle's path-following controller in the loop (nonholonomic.omni_tracking, `track`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from nonholonomic.omni_tracking import run

from test_cli import assert_one_line_error, run as run_cli


def test_coupling_error_of_the_controller_loop_is_first_order():
    """The massless-roller plant under the controller at communication steps H = 0.02, 0.01, 0.005 s against
    H = 0.00125 s: the controller's held torques make the coupling error proportional to H, so halving H
    halves it (ratio in [1.6, 2.4]; the plant's own integration error, rtol 1e-6 over 2 s, is below 1e-7 m,
    the coupling errors are 1e-4..1e-3 m)."""
    fine = run("circle", "reference", step=0.00125, stop_time=2.0)
    errors = []
    for step in (0.02, 0.01, 0.005):
        frame = run("circle", "reference", step=step, stop_time=2.0)
        at = np.isin(np.round(fine["time"], 9), np.round(frame["time"], 9))
        errors.append(np.max(np.hypot(frame["x"].to_numpy() - fine["x"][at].to_numpy(),
                                      frame["y"].to_numpy() - fine["y"][at].to_numpy())))
    ratios = [errors[0] / errors[1], errors[1] / errors[2]]
    assert all(1.6 <= r <= 2.4 for r in ratios), (errors, ratios)


def test_track_command_writes_its_table_and_figures(rumoca_fmus, tmp_path):
    """One command: both plants on the circle, the roller-mass and communication-step studies, a figure
    per path; the FMU vehicle starts from rest and moves onto the path."""
    out = tmp_path / "track"
    result = run_cli("track", "circle", "--stop-time", "1", "--out", str(out))
    assert result.returncode == 0, result.stderr
    table = pd.read_csv(out / "tracking.csv")
    assert set(table["study"]) == {"path", "roller mass", "communication step"}
    assert (out / "circle.png").stat().st_size > 10_000
    frame = pd.read_csv(out / "circle_FMU.csv")
    assert frame["x"].iloc[-1] > 0.1  # the circle starts along +x (0.21 m at t = 1 s)
    assert_one_line_error(run_cli("track", "square", "--out", str(out)), "unknown path 'square' (known: circle, eight)")
