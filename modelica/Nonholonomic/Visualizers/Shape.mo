within Nonholonomic.Visualizers;
model Shape "Visual shape at a pose given by equations (no effect on the dynamics)"
  parameter Integer shapeType(min = 0, max = 8) = Visualizers.box "Visual shape: a constant of Visualizers";
  parameter Units.Length shapeSize[3] = {0.1, 0.1, 0.1} "Size of the shape (meaning by shapeType)";
  parameter Integer shapeCode = 0 "Axis of a cylinder, ring or gear (1 x, 2 y, 3 z; 0: z); the built-in meridian of a surface of revolution";
  parameter Integer color[3](each min = 0, each max = 255) = {160, 160, 164} "Colour, RGB";
  parameter Units.DimensionlessRatio opacity(min = 0, max = 1) = 1 "Opacity of the visual shape (0: invisible, 1: opaque)";
  input Units.Position r_0[3] "Origin of the shape's frame, world frame" annotation(Dialog);
  input Real T[3, 3] "Rotation matrix: resolves the shape's frame in the world frame" annotation(Dialog);
  annotation(Documentation(info = "<html>
<p>A shape drawn at the pose <code>(r_0, T)</code>, both bound by modifiers where the shape is declared,
for parts that are not bodies of their own: the rollers of a vehicle whose dynamics is written in planar
coordinates, for example. See <a href=\"modelica://Nonholonomic.Visualizers\">Visualizers</a>.</p>
</html>"), Icon(graphics = {Rectangle(lineColor = {0, 0, 0}, fillColor = {160, 160, 164}, fillPattern = FillPattern.Solid,
    extent = {{-60, -40}, {60, 40}}), Text(textColor = {0, 0, 255}, extent = {{-150, 50}, {150, 80}}, textString = "%name")}));
end Shape;
