within Nonholonomic.Contacts;
model KnifeEdge "Blade at a point of body B: no velocity across the blade (Chaplygin sleigh); body A is the world"
  extends Interfaces.PartialConstraint;
  parameter Units.Position p_b[3] = {0.1, 0, 0} "Point of the blade relative to the centre of mass, body frame";
  parameter Real e_b[3] = {0, 1, 0} "Unit normal of the blade: the direction in which the point cannot move, body frame";
  parameter Units.Frequency alpha(min = 0) = 20 "Baumgarte damping rate of the constraint velocity drift";
  Units.Force lambda "Reaction of the blade along its normal";
  Units.Velocity slip "Velocity of the blade point across the blade (0 when the constraint holds)";
protected
  Real e_0[3] "Normal of the blade, world frame";
  Real de_0[3](each unit = "1/s") "de_0/dt";
  Units.Position rho_0[3] "Blade point relative to the centre of mass, world frame";
  Units.Velocity sigma_0[3] "Velocity of the blade point, world frame";
  Units.Acceleration dsigma_0[3] "d sigma_0/dt, world frame";
equation
  e_0 = kB.T*e_b;
  de_0 = cross(kB.w_0, e_0);
  rho_0 = kB.T*p_b;
  p_0 = kB.r_0 + rho_0;
  sigma_0 = kB.v_0 + cross(kB.w_0, rho_0);
  dsigma_0 = kB.a_0 + cross(kB.z_0, rho_0) + cross(kB.w_0, cross(kB.w_0, rho_0));
  // d/dt (e . sigma) + alpha (e . sigma) = 0
  e_0*dsigma_0 + de_0*sigma_0 + alpha*(e_0*sigma_0) = 0;
  slip = e_0*sigma_0;
  f_0 = lambda*e_0;
  t_0 = {0.0, 0.0, 0.0};
  annotation(Icon(graphics = {Line(points = {{-80, -44}, {80, -44}}, thickness = 0.5), Rectangle(lineColor = {255, 255, 255}, fillColor = {160, 160, 164}, fillPattern = FillPattern.Backward, extent = {{-80, -56}, {80, -45}}), Polygon(lineColor = {0, 0, 0}, fillColor = {160, 160, 164}, fillPattern = FillPattern.Solid, points = {{-50, 30}, {50, 30}, {40, -43}, {-40, -43}, {-50, 30}}), Line(points = {{0, -10}, {0, 20}}, color = {255, 0, 0}, thickness = 1, arrow = {Arrow.Filled, Arrow.Filled}), Text(textColor = {0, 0, 0}, extent = {{-150, -68}, {150, -98}}, textString = "e_b=%e_b")}), Documentation(info = "<html>
<p>The velocity of the body-fixed point <code>p_b</code> of body B has no component along the body-fixed
direction <code>e_b</code> (a knife edge or a skate: the Chaplygin sleigh, Borisov, Mamaev, Bizyaev 2016).
The reaction is a force along <code>e_b</code> at the blade point. It is the only relation this constraint
states; keep the body on the plane with a
<a href=\"modelica://Nonholonomic.Joints.PlanarSupport\">PlanarSupport</a>.</p>
</html>"));
end KnifeEdge;
