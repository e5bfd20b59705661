within Nonholonomic.Contacts;
model BallOnPlane "Ball (body B) with an offset centre of mass rolling without slipping on the plane z = 0 of the world (body A)"
  extends Interfaces.PartialUnilateralConstraint;
  parameter Units.Length R(min = 1e-6) = 0.1 "Ball radius";
  parameter Units.Position c_b[3] = {0, 0, 0} "Centre of mass relative to the geometric centre, body frame";
  parameter Units.Frequency alpha(min = 0) = 20 "Baumgarte damping rate of the constraint velocity drift";
  parameter Units.Frequency beta(min = 0) = 20 "Baumgarte stiffness of the constraint position drift";
  Units.Length gap "Height of the geometric centre above R (0 when the constraint holds)";
  Units.Velocity slip "Slip speed of the ball's material point at the contact (0 when the constraint holds)";
protected
  Units.Position c_0[3] "Centre of mass relative to the geometric centre, world frame";
  Units.Velocity dc_0[3] "dc_0/dt";
  Units.Acceleration ddc_0[3] "d2c_0/dt2";
  Units.Position rho_0[3] "Contact point relative to the centre of mass, world frame";
  Units.Velocity sigma_0[3] "Velocity of the ball's material point at the contact, world frame";
  Units.Acceleration dsigma_0[3] "d sigma_0/dt, world frame";
equation
  c_0 = kB.T*c_b;
  dc_0 = cross(kB.w_0, c_0);
  ddc_0 = cross(kB.z_0, c_0) + cross(kB.w_0, dc_0);
  rho_0 = -c_0 - {0.0, 0.0, R};
  p_0 = kB.r_0 + rho_0;
  // holonomic: the geometric centre stays at height R
  gap = kB.r_0[3] - c_0[3] - R;
  kB.a_0[3] - ddc_0[3] + 2*alpha*(kB.v_0[3] - dc_0[3]) + beta^2*gap = 0;
  // rolling without slipping: the horizontal velocity of the material point at the contact vanishes
  sigma_0 = kB.v_0 + cross(kB.w_0, rho_0);
  dsigma_0 = kB.a_0 + cross(kB.z_0, rho_0) - cross(kB.w_0, dc_0);
  dsigma_0[1] + alpha*sigma_0[1] = 0;
  dsigma_0[2] + alpha*sigma_0[2] = 0;
  slip = sqrt(sigma_0[1]^2 + sigma_0[2]^2);
  t_0 = {0.0, 0.0, 0.0};
  N = f_0[3];
  annotation(Icon(graphics = {Line(points = {{-80, -44}, {80, -44}}, thickness = 0.5), Rectangle(lineColor = {255, 255, 255}, fillColor = {160, 160, 164}, fillPattern = FillPattern.Backward, extent = {{-80, -56}, {80, -45}}), Ellipse(lineColor = {0, 0, 0}, fillColor = {255, 85, 85}, fillPattern = FillPattern.Sphere, extent = {{-42, -44}, {42, 40}}), Text(textColor = {0, 0, 0}, extent = {{-150, -68}, {150, -98}}, textString = "R=%R")}), Documentation(info = "<html>
<p>A ball of radius <code>R</code> (body B) whose centre of mass is at <code>c_b</code> from its geometric
centre rolls without slipping on the horizontal plane <code>z = 0</code> fixed in the world (body A, a
Ground); any principal inertia of the body. The contact point is below the geometric centre; the reaction
force acts there without torque. <code>c_b = 0</code> with unequal principal moments is the Chaplygin ball;
a symmetric body with <code>c_b</code> on its axis is the Routh sphere (Borisov, Mamaev, Bizyaev 2016,
eqs. (6.4)-(6.5)).</p>
</html>"));
end BallOnPlane;
