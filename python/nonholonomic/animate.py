"""3D animation of a run: every body's visual shape, declared in the Modelica model (the parameters
``shapeType``, ``shapeSize``, ``shapeCode``, ``color`` and ``opacity`` of ``Nonholonomic.Visualizers``), moved
by its recorded pose, in one self-contained HTML page with meshcat's viewer (three.js; play, pause, scrub,
rotate, zoom). ``simulate(..., poses=True)`` (CLI ``simulate --poses``) records what it needs.
"""

from __future__ import annotations

import base64
import dataclasses
import html
import json
import pathlib

import numpy as np
import pandas as pd

from .errors import NonholonomicError

# the constants of Nonholonomic.Visualizers
NONE, INERTIA, BOX, ELLIPSOID, CYLINDER, RING, GEAR, SURFACE_OF_REVOLUTION, PLANE = range(9)
FIXED_SCENERY = (SURFACE_OF_REVOLUTION, PLANE)  # drawn around the run, not parts of its bounding box
SHAPE_PARAMETERS = ["shapeType", "shapeSize[1]", "shapeSize[2]", "shapeSize[3]", "shapeCode", "color[1]", "color[2]",
                    "color[3]", "opacity"]
MAX_FRAMES = 1000  # key frames of the page: its size grows by about 60 bytes per body and frame
FPS = 30


@dataclasses.dataclass
class Visual:
    """A shape drawn at a component's pose: its name (the component's), type, size and colour."""
    name: str
    shape_type: int
    size: np.ndarray
    code: int
    color: tuple
    opacity: float
    inertia: tuple | None = None  # (m, I_b) of a body drawn as its ellipsoid of inertia


def pose_variables(model) -> list[str]:
    """The variables a run must record to be animated: each shaped component's visual parameters (its mass
    and moments of inertia when it is drawn as its ellipsoid of inertia) and its pose: ``r_0`` and the
    attitude, the quaternion ``Q`` of a body, the rotation matrix ``T`` of anything else."""
    from .fmu import fmu_path, model_description
    names = {v.name for v in model_description(fmu_path(model)).modelVariables}
    wanted = []
    for prefix in _shaped(names):
        wanted += [f"{prefix}.{p}" for p in SHAPE_PARAMETERS]
        wanted += [f"{prefix}.{p}" for p in ("m", "I_b[1]", "I_b[2]", "I_b[3]") if f"{prefix}.{p}" in names]
        position = [f"{prefix}.r_0[{i}]" for i in (1, 2, 3)]
        if position[0] not in names:
            continue  # a fixed component (the ground): drawn at the world frame
        attitude = ([f"{prefix}.Q[{i}]" for i in (1, 2, 3, 4)] if f"{prefix}.Q[1]" in names
                    else [f"{prefix}.T[{i},{j}]" for i in (1, 2, 3) for j in (1, 2, 3)])
        wanted += position + attitude
    return wanted


def _shaped(names) -> list[str]:
    return sorted(name[:-len(".shapeType")] for name in names if name.endswith(".shapeType"))


def visuals(result: pd.DataFrame) -> list[Visual]:
    """The visual shapes recorded in a run (the columns that ``pose_variables`` names)."""
    found = []
    for prefix in _shaped(result.columns):
        value = lambda p: float(result[f"{prefix}.{p}"].iloc[0])
        kind = int(round(value("shapeType")))
        if kind == NONE:
            continue
        inertia = None
        if kind == INERTIA:
            if f"{prefix}.m" not in result:
                continue  # not a body: no ellipsoid of inertia
            inertia = (value("m"), np.array([value(f"I_b[{i}]") for i in (1, 2, 3)]))
        found.append(Visual(prefix, kind, np.array([value(f"shapeSize[{i}]") for i in (1, 2, 3)]),
                            int(round(value("shapeCode"))), tuple(int(round(value(f"color[{i}]"))) for i in (1, 2, 3)),
                            float(np.clip(value("opacity"), 0.0, 1.0)), inertia))
    return found


def poses(result: pd.DataFrame, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Positions (n, 3) and rotation matrices (n, 3, 3) of a component over the run (the world frame for a
    component without a recorded pose: the ground)."""
    n = len(result)
    if f"{name}.r_0[1]" not in result:
        return np.zeros((n, 3)), np.broadcast_to(np.eye(3), (n, 3, 3))
    r = result[[f"{name}.r_0[{i}]" for i in (1, 2, 3)]].to_numpy(float)
    if f"{name}.Q[1]" in result:
        q = result[[f"{name}.Q[{i}]" for i in (1, 2, 3, 4)]].to_numpy(float)
        return r, _rotation_matrices(q / np.linalg.norm(q, axis=1)[:, None])
    return r, result[[f"{name}.T[{i},{j}]" for i in (1, 2, 3) for j in (1, 2, 3)]].to_numpy(float).reshape(n, 3, 3)


def _rotation_matrices(q: np.ndarray) -> np.ndarray:
    w, x, y, z = q.T
    return np.stack([np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
                     np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
                     np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1)], 1)


def inertia_semi_axes(m: float, I_b: np.ndarray) -> np.ndarray:
    """Semi-axes of the homogeneous solid ellipsoid with the body's mass and principal central moments
    (I_1 = m (b^2 + c^2)/5, ...): a^2 = 5 (I_2 + I_3 - I_1)/(2 m); a flat body's zero axis is drawn at 2 % of
    its largest (a sphere of radius R: R; a thin disk of radius R: sqrt(5)/2 R across, 0 along its axis)."""
    squares = 5.0 * (np.sum(I_b) - 2.0 * np.asarray(I_b, float)) / (2.0 * m)
    axes = np.sqrt(np.clip(squares, 0.0, None))
    return np.maximum(axes, 0.02 * axes.max())


# ---- geometry (meshcat objects)

def _axis_rotation(code: int) -> np.ndarray:
    """Homogeneous transform taking a mesh's z axis (meshcat's cylinder: y) to the frame's axis `code`."""
    axis = {1: 0, 2: 1}.get(code, 2)
    return np.eye(4)[:, [(axis + 1) % 3, (axis + 2) % 3, axis, 3]]


def _prism(outline: np.ndarray, z0: float, z1: float, holes: np.ndarray | None = None):
    """Vertices and faces of a closed outline (n, 2), or an annulus between outline and holes (n, 2), extruded
    from z0 to z1 (faces outward)."""
    n = len(outline)
    if holes is None:  # a star-shaped outline about the origin: fan caps, with vertices of their own (the
        # viewer averages the normals of the faces at a shared vertex: caps and sides would shade as one surface)
        ring = [np.column_stack([outline, np.full(n, z)]) for z in (z0, z1)]
        v = np.vstack(ring + ring + [[0, 0, z0], [0, 0, z1]])
        k = np.arange(n)
        k1 = (k + 1) % n
        faces = np.vstack([np.column_stack([k, k1, n + k1]), np.column_stack([k, n + k1, n + k]),
                           np.column_stack([np.full(n, 4 * n), 2 * n + k1, 2 * n + k]),
                           np.column_stack([np.full(n, 4 * n + 1), 3 * n + k, 3 * n + k1])])
        return v, faces
    v = np.vstack([np.column_stack([c, np.full(n, z)]) for c in (outline, holes) for z in (z0, z1)])
    k = np.arange(n)
    k1 = (k + 1) % n
    o0, o1, i0, i1 = 0, n, 2 * n, 3 * n
    faces = np.vstack([np.column_stack([o0 + k, o0 + k1, o1 + k1]), np.column_stack([o0 + k, o1 + k1, o1 + k]),
                       np.column_stack([i0 + k, i1 + k1, i0 + k1]), np.column_stack([i0 + k, i1 + k, i1 + k1]),
                       np.column_stack([o0 + k, i0 + k1, o0 + k1]), np.column_stack([o0 + k, i0 + k, i0 + k1]),
                       np.column_stack([o1 + k, o1 + k1, i1 + k1]), np.column_stack([o1 + k, i1 + k1, i1 + k])])
    return v, faces


def gear_outline(module: float, teeth: int, pressure_angle: float = np.radians(20.0), points: int = 8) -> np.ndarray:
    """Outline (n, 2) of a standard spur gear (addendum 1 m, dedendum 1.25 m, involute flanks from the base
    circle, zero backlash), a tooth centred on the x axis."""
    r = module * teeth / 2
    rb, ra, rf = r * np.cos(pressure_angle), r + module, max(r - 1.25 * module, 0.2 * r)
    inv = lambda a: np.tan(a) - a
    half = np.pi / (2 * teeth) + inv(pressure_angle)  # half the tooth's angle at the base circle
    radii = np.union1d(np.linspace(max(rb, rf), ra, points), [r])  # the pitch circle among them
    flank = half - inv(np.arccos(np.clip(rb / radii, -1, 1)))  # polar angle of the flank at each radius
    pitch = 2 * np.pi / teeth
    outline = []
    for k in range(teeth):
        c = k * pitch
        angles = np.concatenate([[c - pitch / 2 + 1e-9], c - flank, c + flank[::-1], [c + pitch / 2 - 1e-9]])
        radius = np.concatenate([[rf], radii, radii[::-1], [rf]])
        radius[1] = radius[-2] = max(rb, rf)
        if rf < rb:  # a radial line from the root up to the base circle
            angles = np.concatenate([[angles[0], c - half], angles[1:-1], [c + half, angles[-1]]])
            radius = np.concatenate([[rf, rf], radius[1:-1], [rf, rf]])
        outline.append(np.column_stack([radius * np.cos(angles), radius * np.sin(angles)]))
    return np.vstack(outline)


def surface_mesh(code: int, a: float, b: float, R: float, extent: float, n_s: int = 40, n_phi: int = 64):
    """Vertices and faces of the surface on which a ball of radius R rolls: the offset by R of the centre
    surface of revolution (built-in meridian `code`), out to the distance `extent` from the axis."""
    from .references.meridians import meridian_from_code
    meridian = meridian_from_code(code, a, b)
    s_range = {1: (0.0, 4.0), 2: (0.0, np.pi / 2), 3: (0.0, np.pi / 2), 4: (0.0, 4.0),
               5: (-np.pi / 2, np.pi / 2)}[int(code)]
    s = np.linspace(*s_range, 400)
    rho, zeta, h1 = meridian.rho(s), meridian.zeta(s), meridian.h1(s)
    # the contact point: the centre moved by R against the normal e3 = (-zeta', rho')/h1 (meridians.py)
    rho_c, z_c = rho + R * meridian.dzeta(s) / h1, zeta - R * meridian.drho(s) / h1
    keep = (rho_c >= 0) & (rho_c <= extent)
    index = np.linspace(0, keep.sum() - 1, n_s).astype(int)
    rho_c, z_c = rho_c[keep][index], z_c[keep][index]
    phi = np.linspace(0, 2 * np.pi, n_phi, endpoint=False)
    v = np.array([[r * np.cos(p), r * np.sin(p), z] for r, z in zip(rho_c, z_c) for p in phi])
    faces = []
    for i in range(n_s - 1):
        for j in range(n_phi):
            a0, a1 = i * n_phi + j, i * n_phi + (j + 1) % n_phi
            faces += [[a0, a1, a1 + n_phi], [a0, a1 + n_phi, a0 + n_phi]]
    return v, np.array(faces)


def _geometry(visual: Visual, extent: float):
    """The meshcat geometry of a visual and the fixed transform from its frame to the geometry's."""
    import meshcat.geometry as g
    size, fixed = visual.size, np.eye(4)
    if visual.shape_type == INERTIA:
        return g.Ellipsoid(inertia_semi_axes(*visual.inertia)), fixed
    if visual.shape_type == BOX:
        return g.Box(np.maximum(size, 1e-9)), fixed
    if visual.shape_type == ELLIPSOID:
        return g.Ellipsoid(np.maximum(size, 1e-9) / 2), fixed
    if visual.shape_type == CYLINDER:  # meshcat's cylinder stands on its y axis
        to_z = np.array([[1, 0, 0, 0], [0, 0, -1, 0], [0, 1, 0, 0], [0, 0, 0, 1.0]])
        return g.Cylinder(size[2], size[0] / 2), _axis_rotation(visual.code) @ to_z
    if visual.shape_type == RING:
        phi = np.linspace(0, 2 * np.pi, 96, endpoint=False)
        circle = np.column_stack([np.cos(phi), np.sin(phi)])
        v, f = _prism(circle * size[0] / 2, -size[2] / 2, size[2] / 2, circle * size[1] / 2)
        return g.TriangularMeshGeometry(v, f), _axis_rotation(visual.code)
    if visual.shape_type == GEAR:
        v, f = _prism(gear_outline(size[0], int(round(size[1]))), -size[2] / 2, size[2] / 2)
        return g.TriangularMeshGeometry(v, f), _axis_rotation(visual.code)
    if visual.shape_type == SURFACE_OF_REVOLUTION:
        return g.TriangularMeshGeometry(*surface_mesh(visual.code, size[0], size[1], size[2], extent)), fixed
    raise NonholonomicError(f"{visual.name}: unknown shapeType {visual.shape_type} (0 to 8: Nonholonomic.Visualizers)")


def _diameter(visual: Visual) -> float:
    """The largest dimension of a visual's shape."""
    if visual.shape_type == INERTIA:
        return 2 * float(np.max(inertia_semi_axes(*visual.inertia)))
    if visual.shape_type == GEAR:  # tip diameter m (z + 2)
        return float(visual.size[0] * (visual.size[1] + 2))
    if visual.shape_type == CYLINDER:
        return float(max(visual.size[0], visual.size[2]))
    return float(np.max(visual.size))


def _homogeneous(r: np.ndarray, T: np.ndarray) -> np.ndarray:
    H = np.eye(4)
    H[:3, :3], H[:3, 3] = T, r
    return H


def _quaternion_xyzw(T: np.ndarray) -> np.ndarray:
    """Unit quaternions (x, y, z, w) of rotation matrices (n, 3, 3), sign-continuous along the run."""
    from scipy.spatial.transform import Rotation
    q = Rotation.from_matrix(T).as_quat()
    for k in range(1, len(q)):  # the shorter way between key frames: the viewer interpolates linearly
        if np.dot(q[k], q[k - 1]) < 0:
            q[k] = -q[k]
    return q


# ---- the page

def default_speed(duration: float) -> float:
    """Playback speed: real time for runs of 4 to 20 s, slow motion for shorter ones (played over 4 s),
    fast forward for longer ones (over 20 s)."""
    return duration / float(np.clip(duration, 4.0, 20.0)) if duration > 0 else 1.0


def animate(model, result, out, speed: float | None = None) -> pathlib.Path:
    """Write a self-contained interactive 3D animation (HTML) of a run of an example model (or an FMU).

    ``result`` is a DataFrame or a .csv/.parquet file recorded with ``simulate(..., poses=True)``; ``speed`` is
    simulated seconds per second of playback (default: ``default_speed``). Returns the page's path."""
    from .fmu import fmu_path
    from .paths import atomic_path, check_writable_file
    name = fmu_path(model).stem
    out = check_writable_file(out, "--out")
    if out.suffix.lower() not in (".html", ".htm"):
        raise NonholonomicError(f"--out {out}: an animation is an .html file")
    frame = _read_result(result)
    shapes = visuals(frame)
    if not shapes:
        raise NonholonomicError(f"the run has no visual shapes of {name}: record them with simulate --poses "
                                "(nonholonomic.simulate(..., poses=True))")
    if "time" not in frame or len(frame) < 1:
        raise NonholonomicError("the run has no time column or no rows")
    t = frame["time"].to_numpy(float)
    duration = float(t[-1] - t[0])
    if speed is None:
        speed = default_speed(duration)
    if not (isinstance(speed, (int, float)) and np.isfinite(speed) and speed > 0):
        raise NonholonomicError(f"speed must be a positive number of simulated seconds per second, got {speed!r}")
    rows = np.unique(np.linspace(0, len(frame) - 1, min(len(frame), MAX_FRAMES)).astype(int))
    frame = frame.iloc[rows].reset_index(drop=True)
    commands, view = _scene(frame, shapes, t[rows], speed)
    page = _page(name, commands, view, speed, float(t[0]), duration)
    with atomic_path(out, "--out") as temporary:
        pathlib.Path(temporary).write_text(page, encoding="utf-8")
    return out


def _read_result(result) -> pd.DataFrame:
    if isinstance(result, pd.DataFrame):
        return result
    path = pathlib.Path(result)
    if not path.is_file():
        raise NonholonomicError(f"no result file {path}")
    try:
        return pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)
    except Exception as error:  # a corrupt or foreign file: one line
        raise NonholonomicError(f"cannot read the result file {path}: {str(error).splitlines()[0]}") from None


@dataclasses.dataclass
class _View:
    """What the page shows besides the shapes: where the camera looks, how far, the plane's grid."""
    centre: np.ndarray  # where the camera looks (at the start, when it follows a body)
    size: float  # the span of the view
    follow: str | None  # the path of the body the camera follows (a run that travels far), else None
    grid: tuple | None  # (centre, span) of the plane's grid, or None for no plane


def _scene(frame: pd.DataFrame, shapes: list[Visual], t: np.ndarray, speed: float):
    """The viewer's commands and the view."""
    import meshcat.geometry as g
    from meshcat.animation import Animation, AnimationClip
    from meshcat.commands import SetAnimation, SetObject, SetTransform
    from meshcat.path import Path
    parts = [s for s in shapes if s.shape_type not in FIXED_SCENERY]
    tracks = {s.name: poses(frame, s.name) for s in shapes}
    centres = np.vstack([tracks[s.name][0] for s in parts]) if parts else np.zeros((1, 3))
    lo = np.min([tracks[s.name][0].min(axis=0) - _diameter(s) / 2 for s in parts] or [np.zeros(3)], axis=0)
    hi = np.max([tracks[s.name][0].max(axis=0) + _diameter(s) / 2 for s in parts] or [np.zeros(3)], axis=0)
    # a surface under a rolling ball reaches a little beyond the farthest centre from its axis
    extent = 1.5 * float(np.max(np.hypot(centres[:, 0], centres[:, 1]))) + 1e-3
    commands, animation = [], Animation(default_framerate=FPS)
    keys = (t - t[0]) / speed * FPS
    moving = {}
    for s in shapes:
        r, T = tracks[s.name]
        path = Path(("bodies", s.name))
        if s.shape_type != PLANE:
            geometry, fixed = _geometry(s, extent)
            colour = (s.color[0] << 16) + (s.color[1] << 8) + s.color[2]
            commands.append(SetObject(geometry, g.MeshLambertMaterial(color=colour, opacity=s.opacity),
                                      path.append("shape")))
            commands.append(SetTransform(fixed, path.append("shape")))
        rigid = f"{s.name}.Q[1]" in frame
        if rigid and s.shape_type in (INERTIA, ELLIPSOID):  # a round body's turning shows by its axes
            commands.append(SetObject(g.triad(0.75 * _diameter(s)), path=path.append("axes")))
        commands.append(SetTransform(_homogeneous(r[0], T[0]), path))
        if len(r) > 1 and (np.ptp(r, axis=0).max() > 0 or np.ptp(T, axis=0).max() > 0):
            moving[s.name] = path
            q = _quaternion_xyzw(T)
            clip = AnimationClip(fps=FPS)
            for k in range(len(r)):
                clip.set_property(float(keys[k]), "position", "vector3", [float(x) for x in r[k]])
                clip.set_property(float(keys[k]), "quaternion", "quaternion", [float(x) for x in q[k]])
            animation.clips[path] = clip
    if animation.clips:
        commands.append(SetAnimation(animation, play=True, repetitions=1))
    span = float(np.max(hi - lo)) or 1.0
    body = max((_diameter(s) for s in parts), default=span)
    # a run that travels far (a disk, a vehicle, a board): the camera follows its largest rigid body, whose path
    # is drawn
    leaders = [s for s in parts if s.name in moving and f"{s.name}.Q[1]" in frame]
    view = _View((lo + hi) / 2, span, None, None)
    if leaders and span > 4 * body:
        leader = max(leaders, key=_diameter)
        r = tracks[leader.name][0]
        view = _View(r[0], 3 * max(_diameter(leader), 0.3 * body), moving[leader.name].lower(), None)
        line = g.Line(g.PointsGeometry(r.T), g.LineBasicMaterial(color=0xffffff))
        commands.append(SetObject(line, path=Path(("paths", leader.name))))
    planes = [s for s in shapes if s.shape_type == PLANE]
    if planes:
        height = tracks[planes[0].name][0][0][2]  # the plane's z (the ground: 0)
        view.grid = (np.array([(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, height]), 1.5 * max(span, 3 * view.size))
    return commands, view


def _page(name: str, commands, view: _View, speed: float, t0: float, duration: float) -> str:
    import umsgpack
    import meshcat
    viewer_js = (pathlib.Path(meshcat.__file__).parent / "viewer" / "dist" / "main.min.js").read_text(encoding="utf-8")
    encoded = ",\n".join(f'"{base64.b64encode(umsgpack.packb(c.lower())).decode()}"' for c in commands)
    centre, size = [float(c) for c in view.centre], float(view.size)
    grid_centre, grid_span = ([float(c) for c in view.grid[0]], float(view.grid[1])) if view.grid else ([0, 0, 0], 1)
    speed_text = "real time" if abs(speed - 1) < 1e-9 else (f"slow motion x{speed:.3g}" if speed < 1 else f"x{speed:.3g}")
    title = f"{name}: {duration:.3g} s, {speed_text}"
    follow = f"the camera follows {view.follow.split('/')[-1]}" if view.follow else ""
    return f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>body {{margin: 0}} #meshcat-pane {{width: 100vw; height: 100vh; overflow: hidden}}
#caption {{position: absolute; left: 10px; top: 8px; font: 14px sans-serif; color: #fff; text-shadow: 0 0 3px #000}}</style>
</head><body><div id="meshcat-pane"></div><div id="caption">{html.escape(title)}<br><span id="clock"></span>
<br>{html.escape(follow)}</div>
<script>window.onerror = function (message) {{  // a browser without WebGL, say: said on the page
  document.getElementById("caption").textContent = "the animation cannot run here: " + message; }};</script>
<script>{viewer_js}</script>
<script>
// generated by nonholonomic animate; the viewer is meshcat's (MIT licence), three.js inside it
var viewer = new MeshCat.Viewer(document.getElementById("meshcat-pane"));
var commands = [{encoded}];
function bytes(text) {{ var s = atob(text), b = new Uint8Array(s.length);
  for (var i = 0; i < s.length; i++) b[i] = s.charCodeAt(i); return b; }}
commands.forEach(function (c) {{ viewer.handle_command_bytearray(bytes(c)); }});
var size = {size!r}, centre = {centre!r}, follow = {json.dumps(view.follow)};
// the camera's position in the viewer's (y up) frame: ahead, to the right and above what it looks at
viewer.set_property(["Cameras", "default", "rotated", "<object>"], "position", [0.6 * size, 0.9 * size, 0.9 * size]);
function look(at) {{  // turn the view to a point of the world (z up), the camera moved along: the user's orbit kept
  var target = new MeshCat.THREE.Vector3(at[0], at[2], -at[1]);
  viewer.camera.position.add(target.clone().sub(viewer.controls.target));
  viewer.controls.target.copy(target); viewer.controls.update(); viewer.set_dirty(); }}
look(centre);
var grid = {grid_span!r} / 20, gridCentre = {grid_centre!r};  // the grid (20 m, 40 squares) scaled to the run
viewer.set_transform(["Grid"], [grid, 0, 0, 0, 0, grid, 0, 0, 0, 0, grid, 0, gridCentre[0], gridCentre[1], gridCentre[2], 1]);
viewer.set_property(["Grid"], "visible", {str(view.grid is not None).lower()});
viewer.set_property(["Axes"], "visible", false);
var speed = {float(speed)!r}, t0 = {float(t0)!r};
var hash = /t=([0-9.eE+-]+)/.exec(location.hash);  // #t=1.5: the still at simulated time 1.5 s
if (hash && viewer.animator.actions.length) {{
  viewer.animator.pause(); viewer.animator.seek((parseFloat(hash[1]) - t0) / speed);
  viewer.animator.display_progress((parseFloat(hash[1]) - t0) / speed); }}
(function frame() {{
  document.getElementById("clock").textContent = "t = " + (t0 + viewer.animator.time * speed).toPrecision(4) + " s";
  if (follow) {{
    var p = viewer.scene_tree.find(follow.split("/").filter(function (x) {{ return x; }})).object.position;
    look([p.x, p.y, p.z]); }}
  requestAnimationFrame(frame); }})();
</script></body></html>
"""
