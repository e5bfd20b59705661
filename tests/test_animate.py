"""3D animation: the shapes' geometry against closed forms, the poses the FMUs record against the Modelica
kinematics they follow from, the page, and bad input (one line, non-zero exit)."""

from __future__ import annotations

import base64
import importlib
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

an = importlib.import_module("nonholonomic.animate")  # the module (the package exports its function animate)
from nonholonomic.simulate import simulate

CLI = [sys.executable, "-m", "nonholonomic"]


def run(*args):
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=600)


def test_ellipsoid_of_inertia_has_the_semi_axes_it_was_made_of():
    # a homogeneous solid ellipsoid of semi-axes (a, b, c): I_1 = m (b^2 + c^2)/5, ... (a closed form, inverted
    # by inertia_semi_axes); single arithmetic steps: round-off
    m, axes = 2.0, np.array([0.3, 0.2, 0.05])
    I_b = m / 5 * np.array([axes[1] ** 2 + axes[2] ** 2, axes[2] ** 2 + axes[0] ** 2, axes[0] ** 2 + axes[1] ** 2])
    assert an.inertia_semi_axes(m, I_b) == pytest.approx(axes, rel=1e-12)
    # a homogeneous ball is its own ellipsoid of inertia
    assert an.inertia_semi_axes(1.0, np.full(3, 0.4 * 0.1 ** 2)) == pytest.approx([0.1] * 3, rel=1e-12)
    # a thin disk (C = 2 A): zero thickness, drawn at 2 % of its diameter
    disk = an.inertia_semi_axes(1.0, np.array([0.25, 0.25, 0.5]) * 0.1 ** 2)
    assert disk[:2] == pytest.approx([np.sqrt(5) / 2 * 0.1] * 2, rel=1e-12)
    assert disk[2] == pytest.approx(0.02 * disk[0], rel=1e-12)


@pytest.mark.parametrize("teeth", [12, 20, 35])
def test_gear_teeth_are_standard_involute_teeth(teeth):
    module = 2e-3
    outline = an.gear_outline(module, teeth)
    radius = np.hypot(*outline.T)
    # tip and root circles of a standard gear: addendum 1 m, dedendum 1.25 m
    assert radius.max() == pytest.approx(module * (teeth + 2) / 2, rel=1e-12)
    assert radius.min() == pytest.approx(module * (teeth - 2.5) / 2, rel=1e-12)
    # zero backlash: at the pitch circle each tooth is half a circular pitch thick, pi m / 2 (an arc of pi/z)
    pitch = np.isclose(radius, module * teeth / 2, rtol=1e-12)
    angles = np.sort(np.arctan2(outline[pitch, 1], outline[pitch, 0]) % (2 * np.pi))
    assert len(angles) == 2 * teeth
    widths = np.diff(np.append(angles, angles[0] + 2 * np.pi))
    assert widths == pytest.approx(np.tile([np.pi / teeth, np.pi / teeth], teeth), abs=1e-12)
    # the tooth on the x axis is centred on it
    assert np.sort(np.abs(np.angle(outline[pitch, 0] + 1j * outline[pitch, 1])))[:2] == \
        pytest.approx([np.pi / (2 * teeth)] * 2, abs=1e-12)


def test_surface_of_a_spherical_bowl_is_the_sphere_the_ball_touches():
    # centre surface: a sphere of radius a about the origin (meridian 2); the ball of radius R touches the
    # sphere of radius a + R: every vertex lies on it (round-off of one offset)
    a, R = 0.5, 0.1
    vertices, faces = an.surface_mesh(2, a, 0.0, R, extent=0.4)
    assert np.linalg.norm(vertices, axis=1) == pytest.approx(np.full(len(vertices), a + R), rel=1e-12)
    assert np.hypot(vertices[:, 0], vertices[:, 1]).max() <= 0.4 + 1e-12
    assert faces.min() == 0 and faces.max() == len(vertices) - 1


def test_rigid_body_poses_agree_with_the_shapes_fixed_on_it(rumoca_fmus):
    # TippeTop's body sphere is a Shape at r_0 + e1 T e_z with the top's T, recorded as a rotation matrix; the
    # top's attitude is recorded as its quaternion: the two attitudes are one (quaternion -> matrix here against
    # Rotations.rotationMatrix in the FMU), the sphere's centre where the model puts it
    frame = simulate("TippeTop", stop_time=0.5, output_interval=0.05, poses=True)
    r_top, T_top = an.poses(frame, "top")
    r_sphere, T_sphere = an.poses(frame, "bodySphere")
    # the model's T is Rotations.rotationMatrix(Q), |Q|^2 times the rotation (|Q| drifts from 1 by the
    # integration error, pulled back at rate k_Q); poses() normalises Q first: one rounding per element
    norm2 = (frame[[f"top.Q[{i}]" for i in (1, 2, 3, 4)]].to_numpy() ** 2).sum(axis=1)
    assert np.abs(T_sphere - norm2[:, None, None] * T_top).max() < 1e-14
    e1 = 0.003  # the example's default
    assert np.abs(r_sphere - (r_top + e1 * T_sphere[:, :, 2])).max() < 1e-15
    assert abs(frame["top.r_0[3]"].iloc[0] - (0.015 - e1 * np.cos(0.1))) < 1e-12  # R1 - e1 cos(theta_0)
    kinds = {v.name: v.shape_type for v in an.visuals(frame)}
    assert kinds == {"bodySphere": an.ELLIPSOID, "headSphere": an.ELLIPSOID, "stem": an.CYLINDER,  # top: none
                     "ground": an.PLANE}


def test_rollers_of_the_vehicle_with_impacts_sit_on_their_wheels(rumoca_fmus):
    # the shapes of OmniVehicleImpact follow from planar coordinates and angles (Vehicles.OmniWheelShape): each
    # roller's centre at r from its hub's centre in the wheel's plane, its axis tangent to the wheel
    frame = simulate("OmniVehicleImpactSpin", stop_time=1.0, output_interval=0.1, poses=True)
    r, l = 0.05 * np.cos(np.pi / 4), 0.05  # the example's defaults: l cos(pi/(n - 1)) with n = 5
    for i in (1, 2, 3):
        r_hub, T_hub = an.poses(frame, f"wheelShape[{i}].hub")
        assert np.abs(r_hub[:, 2] - l).max() < 1e-15  # the axle at the height of the wheel's radius
        for j in range(1, 6):
            r_roller, T_roller = an.poses(frame, f"wheelShape[{i}].roller[{j}]")
            offset = r_roller - r_hub
            assert np.abs(np.linalg.norm(offset, axis=1) - r).max() < 1e-14
            assert np.abs(np.einsum("ni,ni->n", offset, T_hub[:, :, 2])).max() < 1e-14  # in the wheel's plane
            assert np.abs(np.einsum("ni,ni->n", offset, T_roller[:, :, 0])).max() < 1e-14  # axis tangent
    # the rollers turn: the free rollers' angles change while the vehicle spins
    _, T_first = an.poses(frame.iloc[[0, -1]], "wheelShape[1].roller[3]")
    assert np.abs(T_first[1] - T_first[0]).max() > 1e-3


def test_animation_page_is_self_contained(rumoca_fmus, tmp_path):
    out = tmp_path / "disk.csv"
    result = run("simulate", "RollingDisk", "--stop-time", "1", "--output-interval", "0.01", "--poses",
                 "--out", str(out))
    assert result.returncode == 0, result.stderr
    page = tmp_path / "disk.html"
    result = run("animate", "RollingDisk", str(out), "--out", str(page))
    assert result.returncode == 0, result.stderr
    text = page.read_text()
    assert "<script src" not in text and "MeshCat.Viewer" in text  # the viewer inlined, nothing fetched
    commands = re.findall(r'"([A-Za-z0-9+/=]{40,})"', text)
    import umsgpack
    decoded = [umsgpack.unpackb(base64.b64decode(c)) for c in commands]
    animation = [d for d in decoded if d["type"] == "set_animation"]
    assert len(animation) == 1
    clip = animation[0]["animations"][0]["clip"]
    keys = clip["tracks"][0]["keys"]
    assert len(keys) == 101  # one key frame per row
    # real time for a run shorter than 4 s is slowed down to last 4 s: key frames at FPS per second of playback
    assert keys[-1]["time"] == pytest.approx(4 * an.FPS, rel=1e-12)
    frame = pd.read_csv(out)
    assert keys[0]["value"] == pytest.approx([frame[f"disk.r_0[{i}]"][0] for i in (1, 2, 3)], rel=1e-12)


@pytest.mark.parametrize("args, fragments", [
    (["animate", "RollingDisk", "{csv}", "--out", "{dir}/a.png"], ["an animation is an .html file"]),
    (["animate", "RollingDisk", "{dir}/missing.csv", "--out", "{dir}/a.html"], ["no result file"]),
    (["animate", "RollingDisk", "{plain}", "--out", "{dir}/a.html"], ["no visual shapes", "--poses"]),
    (["animate", "RollingDisk", "{corrupt}", "--out", "{dir}/a.html"], ["cannot read the result file"]),
    (["animate", "RollingDisk", "{csv}", "--out", "{dir}/a.html", "--speed", "0"], ["speed must be a positive"]),
    (["animate", "NoSuchModel", "{csv}", "--out", "{dir}/a.html"], ["NoSuchModel"]),
])
def test_bad_animate_input(rumoca_fmus, tmp_path, args, fragments):
    poses = pd.DataFrame({"time": [0.0, 1.0], "disk.shapeType": [4.0, 4.0]})
    for name in an.SHAPE_PARAMETERS[1:]:
        poses[f"disk.{name}"] = 1.0
    poses.to_csv(tmp_path / "poses.csv", index=False)
    pd.DataFrame({"time": [0.0], "x": [1.0]}).to_csv(tmp_path / "plain.csv", index=False)
    (tmp_path / "corrupt.parquet").write_bytes(b"\x00\xff\x00 not a table")
    fill = {"csv": tmp_path / "poses.csv", "plain": tmp_path / "plain.csv", "corrupt": tmp_path / "corrupt.parquet",
            "dir": tmp_path}
    result = run(*[a.format(**fill) for a in args])
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = [l for l in result.stderr.splitlines() if l.startswith("error:")]
    assert len(lines) == 1, result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    assert not (tmp_path / "a.html").exists()
