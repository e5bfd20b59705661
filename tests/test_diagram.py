"""The graphical layer of the library and ``nonholonomic diagram``: every connect equation has an orthogonal Line that
starts and ends at the ports it connects, no two components of a diagram overlap, every instantiable class has an
icon with its name, and the SVG drawn from the annotations holds every component (its name), every connection line
and every connector icon. Positions are recomputed here from the Placement annotations by the MLS 18.6 rules
(scale into the extent, rotate about the origin), not taken from the renderer's output."""

from __future__ import annotations

import itertools
import math
import re
import xml.etree.ElementTree as ET

import pytest

from nonholonomic import diagram
from nonholonomic.cli import main
from nonholonomic.models import list_models

CLASSES = diagram._library()
WITH_CONNECTIONS = sorted(name for name, cls in CLASSES.items() if cls.connections)
EXAMPLES = [m.modelica_class for m in list_models()]
# the classes a user instantiates: bodies, joints, contacts, vehicles and connectors (not the partial bases)
INSTANTIABLE = sorted(name for name, cls in CLASSES.items()
                      if name.split(".")[1:2] in (["Bodies"], ["Joints"], ["Contacts"], ["Vehicles"], ["Interfaces"])
                      and cls.kind in ("model", "connector") and not name.split(".")[-1].startswith("Partial"))


def test_placement_transform_follows_the_specification():
    """extent {{-10, -10}, {10, 10}} scales the icon's {{-100, -100}, {100, 100}} by 0.1; a reversed extent
    mirrors; rotation turns counter-clockwise about origin, then moves there."""
    system = [[-100.0, -100.0], [100.0, 100.0]]
    plain = diagram.Call("transformation", [], {"extent": [[-10.0, -10.0], [10.0, 10.0]]})
    assert diagram._apply(diagram.placement_transform(plain, system), -100.0, 40.0) == pytest.approx((-10.0, 4.0))
    mirrored = diagram.Call("transformation", [], {"extent": [[10.0, -10.0], [-10.0, 10.0]]})
    assert diagram._apply(diagram.placement_transform(mirrored, system), -100.0, 40.0) == pytest.approx((10.0, 4.0))
    turned = diagram.Call("transformation", [], {"extent": [[-10.0, -10.0], [10.0, 10.0]], "origin": [30.0, 50.0],
                                                 "rotation": -90.0})
    # (-100, 40) -> (-10, 4) -> turned clockwise by 90 deg: (4, 10) -> moved to the origin: (34, 60)
    assert diagram._apply(diagram.placement_transform(turned, system), -100.0, 40.0) == pytest.approx((34.0, 60.0))


@pytest.mark.parametrize("name", WITH_CONNECTIONS, ids=lambda n: n.rsplit(".", 1)[-1])
def test_every_connect_has_an_orthogonal_line_between_its_ports(name):
    cls = CLASSES[name]
    for connection in cls.connections:
        what = f"connect({connection.a}, {connection.b})"
        line = connection.annotation.get("Line") if connection.annotation is not None else None
        assert isinstance(line, diagram.Call), f"{what} has no Line annotation"
        points = [tuple(p) for p in line.get("points")]
        assert len(points) >= 2, what
        for (x1, y1), (x2, y2) in zip(points, points[1:]):
            assert x1 == x2 or y1 == y2, f"{what}: segment {(x1, y1)} -> {(x2, y2)} is not orthogonal"
        ends = {diagram.port_position(cls, connection.a, CLASSES), diagram.port_position(cls, connection.b, CLASSES)}
        assert None not in ends, f"{what}: a port without a placement"
        assert {tuple(round(v, 6) for v in p) for p in (points[0], points[-1])} == \
            {tuple(round(v, 6) for v in p) for p in ends}, f"{what}: the line does not end at the ports {ends}"


def _boxes(cls) -> dict:
    """The box (xmin, ymin, xmax, ymax) of every placed component of ``cls`` in its diagram."""
    boxes = {}
    for component in diagram._all_components(cls, CLASSES):
        transformation = diagram._transformation(component, False)
        comp_cls = diagram._component_class(cls, component, CLASSES)
        if transformation is None or comp_cls is None or comp_cls.kind == "connector":
            continue
        _, ((u1, v1), (u2, v2)) = diagram._graphics(comp_cls, "Icon", CLASSES)
        t = diagram.placement_transform(transformation, [[u1, v1], [u2, v2]])
        xs, ys = zip(*[diagram._apply(t, u, v) for u, v in ((u1, v1), (u2, v1), (u2, v2), (u1, v2))])
        boxes[component.name] = (min(xs), min(ys), max(xs), max(ys))
    return boxes


@pytest.mark.parametrize("name", WITH_CONNECTIONS, ids=lambda n: n.rsplit(".", 1)[-1])
def test_no_two_components_overlap(name):
    boxes = _boxes(CLASSES[name])
    for (a, p), (b, q) in itertools.combinations(boxes.items(), 2):
        overlap = min(p[2], q[2]) - max(p[0], q[0]) > 1e-9 and min(p[3], q[3]) - max(p[1], q[1]) > 1e-9
        assert not overlap, f"{a} {p} and {b} {q} overlap"


@pytest.mark.parametrize("name", INSTANTIABLE, ids=lambda n: n.rsplit(".", 1)[-1])
def test_every_instantiable_class_has_an_icon(name):
    items, _ = diagram._graphics(CLASSES[name], "Icon", CLASSES)
    assert items, f"{name} has no Icon graphics"
    if CLASSES[name].kind == "model":  # a component shows its name
        assert any(i.name == "Text" and "%name" in (i.get("textString") or "") for i in items), name


@pytest.mark.parametrize("model", EXAMPLES, ids=lambda m: m.rsplit(".", 1)[-1])
def test_diagram_of_every_example_draws_its_components_and_connections(model):
    cls = CLASSES[model]
    svg = ET.fromstring(diagram.render(model))
    ns = {"s": "http://www.w3.org/2000/svg"}
    texts = [t.text for t in svg.iterfind(".//s:text", ns)]
    placed = [c.name for c in diagram._all_components(cls, CLASSES) if diagram._transformation(c, False) is not None
              and diagram._component_class(cls, c, CLASSES).kind != "connector"]
    missing = [name for name in placed if name not in texts]
    assert not missing, f"components not drawn with their names: {missing}"
    paths = svg.findall(".//s:path", ns)
    lines = [c for c in diagram._all_connections(cls, CLASSES)]
    colored = {p.get("stroke") for p in paths}
    if lines:
        assert "rgb(0,0,255)" in colored and "rgb(255,128,0)" in colored  # kinematic and wrench cables
    # every connection is a path through its Line's points (4 SVG units per diagram unit from the cropped corner)
    drawn = [[tuple(map(float, xy.split())) for xy in re.findall(r"[-\d.]+ [-\d.]+", p.get("d"))] for p in paths]
    shapes = {tuple(round(b - a, 1) for a, b in zip(d[0], d[-1])) for d in drawn if len(d) >= 2}
    for connection in lines:
        points = connection.annotation.get("Line").get("points")
        span = (round(4 * (points[-1][0] - points[0][0]), 1), round(-4 * (points[-1][1] - points[0][1]), 1))
        assert span in shapes, f"connect({connection.a}, {connection.b}) not drawn"
    width, height = float(svg.get("width")), float(svg.get("height"))
    assert width > 0 and height > 0 and math.isfinite(width * height)


def test_diagram_command_writes_the_svg_and_refuses_an_unknown_class_in_one_line(tmp_path, capsys):
    out = tmp_path / "sub" / "OmniWheel.svg"
    assert main(["diagram", "Nonholonomic.Vehicles.OmniWheel", "--out", str(out)]) == 0
    svg = ET.fromstring(out.read_text())
    assert svg.tag.endswith("svg") and "roller" in [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")]
    assert main(["diagram", "NoSuchModel", "--out", str(tmp_path / "x.svg")]) == 2
    assert main(["diagram", "RollingDisk", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(line.startswith("error: ") for line in err)
    assert "NoSuchModel" in err[0] and "folder" in err[1]


def test_report_shows_each_system_s_diagram(tmp_path):
    from nonholonomic.verification import Case, CaseResult, Check
    from nonholonomic.verification.report import write_report
    import pandas as pd
    case = Case("disk_case", "RollingDisk", "a disk")
    case.system, case.paper = "rolling_disk", "Kosenko 2022"
    errors = pd.DataFrame(columns=["signal", "max_abs", "max_rel", "tolerance", "passed"])
    page = write_report([CaseResult(case, errors, [Check("c", 0.0, 1.0)], {})], tmp_path).read_text()
    assert "<img src='diagrams/RollingDisk.svg'" in page
    assert ET.fromstring((tmp_path / "diagrams" / "RollingDisk.svg").read_text()).tag.endswith("svg")
