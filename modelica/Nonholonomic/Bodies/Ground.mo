within Nonholonomic.Bodies;
model Ground "Fixed body: the world frame"
  extends Interfaces.PartialBody(shapeType = Visualizers.plane, color = {160, 160, 164});
equation
  k.r_0 = {0.0, 0.0, 0.0};
  k.T = [1.0, 0.0, 0.0; 0.0, 1.0, 0.0; 0.0, 0.0, 1.0];
  k.v_0 = {0.0, 0.0, 0.0};
  k.w_0 = {0.0, 0.0, 0.0};
  k.a_0 = {0.0, 0.0, 0.0};
  k.z_0 = {0.0, 0.0, 0.0};
  annotation(Documentation(info = "<html><p>The inertial base body <code>B0</code> (Kosenko 2022). Its
<code>f_0</code> and <code>t_0</code> are the resultant reaction that the constraints exert on the ground,
the torque taken about the world origin.</p></html>"),
    Icon(graphics = {Rectangle(lineColor = {0, 0, 0}, fillColor = {160, 160, 164}, fillPattern = FillPattern.Backward,
      extent = {{-80, -60}, {80, 60}}), Line(points = {{-80, 60}, {80, 60}}, thickness = 1),
      Text(textColor = {0, 0, 255}, extent = {{-150, 70}, {150, 100}}, textString = "%name")}));
end Ground;
