within Nonholonomic.Contacts;
model DiskOnPlane "Thin disk (body B) rolling without slipping on the horizontal plane z = 0 of the world (body A)"
  extends Interfaces.PartialUnilateralConstraint;
  parameter Units.Length R(min = 1e-6) = 0.1 "Disk radius";
  parameter Real n_b[3] = {0, 0, 1} "Unit symmetry axis of the disk (normal of its plane), body frame";
  parameter Units.Frequency alpha(min = 0) = 20 "Baumgarte damping rate of the constraint velocity drift";
  parameter Units.Frequency beta(min = 0) = 20 "Baumgarte stiffness of the constraint position drift";
  Real n[3] "Symmetry axis of the disk, world frame";
  Units.Length gap "Height of the lowest point of the rim above the plane (0 when the constraint holds)";
  Units.Velocity slip "Slip speed of the disk's material point at the contact (0 when the constraint holds)";
  Real sinTilt(unit = "1") "sin of the angle between the disk's axis and the vertical: 1 upright, 0 flat";
protected
  Real dn[3](each unit = "1/s") "dn/dt, world frame";
  Real ddn[3](each unit = "1/s2") "d2n/dt2, world frame";
  Real dsinTilt(unit = "1/s") "d sinTilt/dt";
  Real ddsinTilt(unit = "1/s2") "d2 sinTilt/dt2";
  Real d[3] "Unit vector from the centre to the contact point, world frame";
  Real dd[3](each unit = "1/s") "dd/dt, world frame";
  Units.Velocity sigma_0[3] "Velocity of the disk's material point at the contact, world frame";
  Units.Acceleration dsigma_0[3] "d sigma_0/dt, world frame";
equation
  n = kB.T*n_b;
  dn = cross(kB.w_0, n);
  ddn = cross(kB.z_0, n) + cross(kB.w_0, dn);
  // the contact point is the lowest point of the rim: d is -e_z projected on the disk's plane, normalised;
  // its length sinTilt vanishes when the disk lies flat, where the contact point is undefined
  sinTilt = sqrt(1 - n[3]^2);
  dsinTilt = -n[3]*dn[3]/sinTilt;
  ddsinTilt = -(dn[3]^2 + n[3]*ddn[3])/sinTilt - (n[3]*dn[3])^2/sinTilt^3;
  d = ({0.0, 0.0, -1.0} + n[3]*n)/sinTilt;
  dd = (dn[3]*n + n[3]*dn)/sinTilt - dsinTilt/sinTilt*d;
  p_0 = kB.r_0 + R*d;
  // holonomic: the contact point stays on the plane, z_centre - R sinTilt = 0
  gap = kB.r_0[3] - R*sinTilt;
  kB.a_0[3] - R*ddsinTilt + 2*alpha*(kB.v_0[3] - R*dsinTilt) + beta^2*gap = 0;
  // rolling without slipping: the horizontal velocity of the material point at the contact vanishes
  sigma_0 = kB.v_0 + R*cross(kB.w_0, d);
  dsigma_0 = kB.a_0 + R*(cross(kB.z_0, d) + cross(kB.w_0, dd));
  dsigma_0[1] + alpha*sigma_0[1] = 0;
  dsigma_0[2] + alpha*sigma_0[2] = 0;
  slip = sqrt(sigma_0[1]^2 + sigma_0[2]^2);
  t_0 = {0.0, 0.0, 0.0};
  N = f_0[3];
  annotation(Icon(graphics = {Line(points = {{-80, -44}, {80, -44}}, thickness = 0.5), Rectangle(lineColor = {255, 255, 255}, fillColor = {160, 160, 164}, fillPattern = FillPattern.Backward, extent = {{-80, -56}, {80, -45}}), Ellipse(origin = {0, -4}, rotation = -25, lineColor = {0, 0, 0}, fillColor = {255, 85, 85}, fillPattern = FillPattern.Solid, extent = {{-14, -40}, {14, 40}}), Text(textColor = {0, 0, 0}, extent = {{-150, -68}, {150, -98}}, textString = "R=%R")}), Documentation(info = "<html>
<p>A thin disk of radius <code>R</code> (body B) rolls without slipping on the horizontal plane
<code>z = 0</code> fixed in the world (body A, a <a href=\"modelica://Nonholonomic.Bodies.Ground\">Ground</a>).
The contact point is tracked geometrically: it is the lowest point of the rim,
<code>P = r + R d</code>, with <code>d</code> the downward vertical projected on the disk's plane and
normalised. Three relations at acceleration level determine the reaction force at <code>P</code> (no
torque): <code>P</code> stays on the plane (holonomic, Baumgarte terms <code>2 alpha gap' + beta^2 gap</code>)
and the horizontal velocity of the disk's material point at <code>P</code> vanishes (nonholonomic, term
<code>alpha sigma</code>).</p>
<p>The plane can only push: where the normal force <code>N</code> would turn negative (a disk falling over
without spin does so at a tilt of 29 degrees) the run stops with an error at that instant
(<a href=\"modelica://Nonholonomic.Interfaces.PartialUnilateralConstraint\">PartialUnilateralConstraint</a>;
<code>unilateral = false</code> lets the plane pull). A disk that must land and rest flat is
<a href=\"modelica://Nonholonomic.Contacts.DiskOnPlaneElastic\">DiskOnPlaneElastic</a>.</p>
<p><b>Limit:</b> when the disk lies flat (<code>sinTilt = 0</code>) the lowest point of the rim is not
unique and the contact is undefined; the equations divide by <code>sinTilt</code>, so a simulation that
reaches it stops with a solver error. Examples reject a flat initial state through the <code>max</code>
of the initial tilt parameter.</p>
</html>"));
end DiskOnPlane;
