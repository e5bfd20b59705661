"""The tippe-top animation: a GIF with one frame per (subsampled) row, and a one-line error for a missing column."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from PIL import Image

from nonholonomic import plots
from nonholonomic.errors import NonholonomicError

GEOMETRY = dict(R1=0.015, e1=0.003, R2=0.005, e2=0.016)


def _turning_over(n: int = 5) -> pd.DataFrame:
    """The top rotating about the world x axis from head up (theta 0) to head down (pi), its centre of mass
    held 30 mm above the plane so that neither sphere reaches it."""
    theta = np.linspace(0, np.pi, n)
    return pd.DataFrame({"time": np.linspace(0, 0.4, n), "r_0[1]": np.zeros(n), "r_0[2]": np.zeros(n),
                         "r_0[3]": np.full(n, 0.03), "Q[1]": np.cos(theta / 2), "Q[2]": np.sin(theta / 2),
                         "Q[3]": np.zeros(n), "Q[4]": np.zeros(n), "theta": theta})


def test_writes_a_gif_with_one_frame_per_row(tmp_path):
    path = plots.tippe_top_animation(_turning_over(), GEOMETRY, tmp_path / "top.gif", title="turning over")
    assert path == tmp_path / "top.gif"
    with Image.open(path) as gif:
        assert gif.format == "GIF"
        assert gif.n_frames == 5


def test_subsamples_to_max_frames_and_computes_theta_without_its_column(tmp_path):
    frame = _turning_over(9).drop(columns="theta")
    with Image.open(plots.tippe_top_animation(frame, GEOMETRY, tmp_path / "top.gif", max_frames=3)) as gif:
        assert gif.n_frames == 3


def test_a_missing_column_is_named_in_one_line(tmp_path):
    with pytest.raises(NonholonomicError, match=r"Q\[4\]") as error:
        plots.tippe_top_animation(_turning_over().drop(columns="Q[4]"), GEOMETRY, tmp_path / "top.gif")
    assert "\n" not in str(error.value)
    assert not (tmp_path / "top.gif").exists()
