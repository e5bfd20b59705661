within Nonholonomic.Joints;
model ElasticRevolute "Rigid revolute joint with a torsional spring-damper about its axis (a bushing)"
  extends PartialTwistRevolute;
  parameter Real k(unit = "N.m/rad", min = 0) = 100 "Torsional stiffness about the axis";
  parameter Real c(unit = "N.m.s/rad", min = 0) = 0 "Torsional damping about the axis";
  parameter Units.Angle phi_0 = 0 "Angle at which the spring is relaxed";
  Units.Energy elasticEnergy "Energy stored in the spring";
equation
  phi_c = phi_0;
  tau = -k*phi_err - c*w_rel;
  elasticEnergy = k/2*phi_err^2;
  annotation(Icon(graphics = {Rectangle(lineColor = {0, 0, 0}, fillColor = {160, 160, 164}, fillPattern = FillPattern.HorizontalCylinder, extent = {{-70, -30}, {-25, 30}}), Rectangle(lineColor = {0, 0, 0}, fillColor = {160, 160, 164}, fillPattern = FillPattern.HorizontalCylinder, extent = {{25, -30}, {70, 30}}), Line(points = {{-25, 0}, {-10, 0}, {-10, 16}, {10, 16}, {10, -16}, {-4, -16}, {-4, 8}, {4, 8}, {4, 0}, {25, 0}}, thickness = 0.5), Text(textColor = {0, 0, 0}, extent = {{-150, -68}, {150, -98}}, textString = "k=%k")}), Documentation(info = "<html><p>A rigid revolute joint (five relations) with a linear torsional
spring-damper about its axis: <code>tau = -k (phi - phi_0) - c w_rel</code> on B, the opposite on A. The
angle is measured from <code>phi_0</code> within half a turn (see
<a href=\"modelica://Nonholonomic.Joints.PartialTwistRevolute\">PartialTwistRevolute</a>). The skateboard's
trucks use it as the bushing that centres the axle.</p></html>"));
end ElasticRevolute;
