within Nonholonomic.Joints;
model Revolute "Rigid revolute joint: B turns relative to A about a common axis through a common point, optionally driven"
  extends PartialRevolute;
  input Units.Torque tau = 0 "Drive torque on B about the axis (on A the opposite)";
  Units.Torque tau1 "Reaction torque on B along e1 (perpendicular to the axis)";
  Units.Torque tau2 "Reaction torque on B along e2 (perpendicular to the axis)";
equation
  dddelta_0 + 2*alpha*ddelta_0 + beta^2*delta_0 = {0.0, 0.0, 0.0};
  t_0 = tau1*e1_0 + tau2*e2_0 + tau*u_0;
  annotation(Icon(graphics = {Rectangle(lineColor = {0, 0, 0}, fillColor = {160, 160, 164}, fillPattern = FillPattern.HorizontalCylinder, extent = {{-70, -30}, {-25, 30}}), Rectangle(lineColor = {0, 0, 0}, fillColor = {160, 160, 164}, fillPattern = FillPattern.HorizontalCylinder, extent = {{25, -30}, {70, 30}}), Rectangle(lineColor = {0, 0, 0}, fillColor = {255, 255, 255}, fillPattern = FillPattern.HorizontalCylinder, extent = {{-25, -10}, {25, 10}}), Line(points = {{0, -45}, {0, 45}}, pattern = LinePattern.DashDot), Text(textColor = {0, 0, 0}, extent = {{-150, -68}, {150, -98}}, textString = "n=%n_a")}), Documentation(info = "<html><p>Five relations: the joint points coincide (3) and the axes
stay parallel (2). The reaction is a force at the joint point and a torque perpendicular to the axis; a
drive torque <code>tau</code> about the axis (a motor between A and B, zero unless bound) is added to the
torque on B and subtracted from that on A.</p></html>"));
end Revolute;
