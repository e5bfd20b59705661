within Nonholonomic.Joints;
model NonholonomicHinge "Nonholonomic hinge: no relative rotation about a direction fixed in body A"
  extends Interfaces.PartialConstraint;
  parameter Real e_a[3] = {0, 0, 1} "Unit direction fixed in body A about which B may not turn relative to A, frame of A";
  parameter Units.Frequency alpha(min = 0) = 20 "Baumgarte damping rate of the constraint velocity drift";
  Units.Torque lambda "Reaction torque on B about e";
  Units.AngularVelocity w_rel "Relative angular velocity about e (0 when the constraint holds)";
protected
  Real e_0[3] "e_a, world frame";
  Real de_0[3](each unit = "1/s") "de_0/dt";
equation
  e_0 = kA.T*e_a;
  de_0 = cross(kA.w_0, e_0);
  w_rel = (kB.w_0 - kA.w_0)*e_0;
  // d/dt ((w_B - w_A).e) + alpha (w_B - w_A).e = 0
  (kB.z_0 - kA.z_0)*e_0 + (kB.w_0 - kA.w_0)*de_0 + alpha*w_rel = 0;
  f_0 = {0.0, 0.0, 0.0};
  t_0 = lambda*e_0;
  p_0 = kB.r_0;
  annotation(Icon(graphics = {Ellipse(lineColor = {0, 0, 0}, fillColor = {160, 160, 164}, fillPattern = FillPattern.Solid, extent = {{-62, -30}, {-10, 30}}), Ellipse(lineColor = {0, 0, 0}, fillColor = {200, 200, 200}, fillPattern = FillPattern.Solid, extent = {{10, -30}, {62, 30}}), Line(points = {{-75, 0}, {75, 0}}, pattern = LinePattern.DashDot), Line(points = {{-10, 22}, {10, -22}}, color = {255, 0, 0}, thickness = 1), Line(points = {{-10, -22}, {10, 22}}, color = {255, 0, 0}, thickness = 1), Text(textColor = {0, 0, 0}, extent = {{-150, -68}, {150, -98}}, textString = "e_a=%e_a")}), Documentation(info = "<html><p>The angular velocity of B relative to A has no component along
the direction <code>e_a</code> fixed in A: <code>(w_B - w_A, e) = 0</code> (Suslov-type constraint; realised
by sharp wheels, Wagner, Kharlamov's nonholonomic hinge; Bizyaev, Borisov, Mamaev 2013, eq. (2.1)). The
reaction is a pair of opposite torques <code>+-lambda e</code>; combine it with a
<a href=\"modelica://Nonholonomic.Joints.SphericalHinge\">SphericalHinge</a> for two bodies turning about a
common point.</p></html>"));
end NonholonomicHinge;
