within Nonholonomic;
package Visualizers "Visual shapes of bodies for 3D animation (no effect on the dynamics)"
  extends Nonholonomic.Icons.Package;
  constant Integer none = 0 "Shape type: nothing drawn";
  constant Integer inertia = 1 "Shape type: the body's ellipsoid of inertia (uniform solid ellipsoid of the body's mass and principal moments; shapeSize unused)";
  constant Integer box = 2 "Shape type: box, shapeSize = its lengths along the frame's x, y, z";
  constant Integer ellipsoid = 3 "Shape type: ellipsoid, shapeSize = its diameters along x, y, z (equal: a sphere)";
  constant Integer cylinder = 4 "Shape type: cylinder on the frame's z axis, shapeSize = {diameter, unused, length} along the axis shapeCode (1 x, 2 y, 3 z; 0: z)";
  constant Integer ring = 5 "Shape type: ring (a tube of rectangular section) on the axis shapeCode, shapeSize = {outer diameter, inner diameter, width}";
  constant Integer gear = 6 "Shape type: spur gear on the axis shapeCode, shapeSize = {module, number of teeth, face width}, 20 deg standard involute teeth; a tooth on the frame's first axis after the gear's axis (x for z)";
  constant Integer surfaceOfRevolution = 7 "Shape type: surface of revolution on the z axis on which a ball rolls, shapeSize = {a, b, ball radius}, shapeCode = the built-in meridian of its centre (Surfaces.builtInMeridian)";
  constant Integer plane = 8 "Shape type: the frame's plane z = 0, drawn as a grid under the run (the default of the ground)";
  annotation(Documentation(info = "<html>
<p>Every body (<a href=\"modelica://Nonholonomic.Interfaces.PartialBody\">PartialBody</a>) carries a visual
shape, as the bodies of the Modelica Standard Library's MultiBody do: the parameters <code>shapeType</code>
(one of the constants of this package), <code>shapeSize[3]</code>, <code>shapeCode</code>,
<code>color[3]</code> (RGB, 0 to 255) and <code>opacity</code>. The shape is drawn in the body's frame (<code>r_0</code>, <code>T</code>)
by <code>nonholonomic animate</code>, which reads the parameters from the FMU. A
<a href=\"modelica://Nonholonomic.Visualizers.Shape\">Shape</a> draws a further shape at a pose given by
equations (a hub's roller, a platform described by planar coordinates). The default shape of a
<a href=\"modelica://Nonholonomic.Bodies.RigidBody\">RigidBody</a> is its ellipsoid of inertia, so a model of
one's own animates without any setting.</p>
</html>"));
end Visualizers;
