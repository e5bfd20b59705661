within Nonholonomic.Contacts;
model BallOnSurfaceOfRevolution "Ball (body B) rolling without slipping on a surface of revolution fixed in the world (body A)"
  extends Interfaces.PartialUnilateralConstraint;
  replaceable function meridian = Surfaces.builtInMeridian constrainedby Surfaces.partialMeridian "Meridian of the centre surface";
  replaceable function coordinate = Surfaces.builtInCoordinate constrainedby Surfaces.partialCoordinate "Inverse of rho(s)";
  parameter Integer surface(min = 1, max = 5) = 1 "Built-in meridian: 1 paraboloid, 2 spherical bowl, 3 ellipsoid bowl, 4 cone, 5 torus trough" annotation(Evaluate = false);
  parameter Units.Length a(min = 1e-6) = 1 "First shape parameter of the centre surface";
  parameter Units.Length b = 1 "Second shape parameter of the centre surface";
  parameter Units.Length R(min = 1e-6) = 0.1 "Ball radius";
  parameter Units.Frequency alpha(min = 0) = 20 "Baumgarte damping rate of the constraint velocity drift";
  parameter Units.Frequency beta(min = 0) = 20 "Baumgarte stiffness of the constraint position drift";
  // surface coordinates of the centre, and their rates
  Units.Coordinate s "Meridian coordinate of the centre (q1)";
  Units.Angle phi "Azimuth of the centre (q2), in (-pi, pi]";
  Real ds(unit = "1/s") "ds/dt (v1)";
  Units.AngularVelocity dphi "dphi/dt (v2)";
  Units.Velocity Lambda "R times the ball's spin about the surface normal";
  // reaction components in the moving frame (e1, e2, e3)
  Units.Force F1 "Reaction on the ball along e1 (meridian tangent)";
  Units.Force F2 "Reaction on the ball along e2 (parallel tangent)";
  // drift of the constraints
  Units.Length gap "Distance of the centre from the centre surface, measured along e3 (0 when the constraint holds)";
  Units.Velocity slip "Slip speed of the ball's contact point (0 when the constraint holds)";
protected
  Units.Length rho_c "Distance of the centre from the axis";
  Units.Velocity drho_c "d rho_c/dt";
  Units.Acceleration ddrho_c "d2 rho_c/dt2";
  Units.Length rho, zeta, drho, dzeta, ddrho, ddzeta "Meridian at s and its derivatives";
  Units.Length h1 "Lame coefficient of s";
  Units.Curvature k1 "Curvature of the meridian";
  Real e1[3] "Unit tangent of the meridian (increasing s), world frame";
  Real e2[3] "Unit tangent of the parallel (increasing phi), world frame";
  Real e3[3] "Unit normal from the contact point to the centre, world frame";
  Real de3[3](each unit = "1/s") "de3/dt, world frame";
  Units.Velocity sigma_0[3] "Velocity of the ball's material point at the contact, world frame";
  Units.Acceleration dsigma_0[3] "d sigma_0/dt, world frame";
equation
  // geometry of the centre surface at the centre of the ball (explicit; no der() of algebraic variables)
  rho_c = sqrt(kB.r_0[1]^2 + kB.r_0[2]^2);
  s = coordinate(rho_c, surface, a, b);
  phi = atan2(kB.r_0[2], kB.r_0[1]);
  (rho, zeta, drho, dzeta, ddrho, ddzeta) = meridian(s, surface, a, b);
  h1 = sqrt(drho^2 + dzeta^2);
  k1 = (ddzeta*drho - dzeta*ddrho)/h1^3;
  e1 = {drho*cos(phi), drho*sin(phi), dzeta}/h1;
  e2 = {-sin(phi), cos(phi), 0.0};
  e3 = {-dzeta*cos(phi), -dzeta*sin(phi), drho}/h1;
  drho_c = (kB.r_0[1]*kB.v_0[1] + kB.r_0[2]*kB.v_0[2])/rho_c;
  ddrho_c = (kB.v_0[1]^2 + kB.v_0[2]^2 + kB.r_0[1]*kB.a_0[1] + kB.r_0[2]*kB.a_0[2] - drho_c^2)/rho_c;
  ds = drho_c/drho;
  dphi = (kB.r_0[1]*kB.v_0[2] - kB.r_0[2]*kB.v_0[1])/rho_c^2;
  // de3/dt = -k1 h1 ds e1 - (zeta'/h1) dphi e2 (Weingarten; Kosenko et al. 2024, eq. (12))
  de3 = -k1*h1*ds*e1 - dzeta/h1*dphi*e2;
  // holonomic constraint g = z - zeta(s(rho_c)) = 0 (the centre stays on the centre surface), scaled by
  // drho/h1 so that it measures the distance along e3: gap'' + 2 alpha gap' + beta^2 gap = 0
  gap = drho/h1*(kB.r_0[3] - zeta);
  (drho*kB.a_0[3] - dzeta*ddrho_c)/h1 - k1*h1^2*ds^2 + 2*alpha*(drho*kB.v_0[3] - dzeta*drho_c)/h1 + beta^2*gap = 0;
  // rolling without slipping, tangential components at acceleration level: e.sigma' + alpha e.sigma = 0
  sigma_0 = kB.v_0 - R*cross(kB.w_0, e3);
  dsigma_0 = kB.a_0 - R*(cross(kB.z_0, e3) + cross(kB.w_0, de3));
  e1*dsigma_0 + alpha*(e1*sigma_0) = 0;
  e2*dsigma_0 + alpha*(e2*sigma_0) = 0;
  slip = sqrt((e1*sigma_0)^2 + (e2*sigma_0)^2);
  // point contact: the reaction acts at the contact point, without torque
  p_0 = kB.r_0 - R*e3;
  t_0 = {0.0, 0.0, 0.0};
  Lambda = R*(kB.w_0*e3);
  F1 = f_0*e1;
  F2 = f_0*e2;
  N = f_0*e3;
  annotation(Icon(graphics = {Line(points = {{-78, 45}, {-50, -10}, {-20, -40}, {0, -46}, {20, -40}, {50, -10}, {78, 45}}, thickness = 1, smooth = Smooth.Bezier), Ellipse(lineColor = {0, 0, 0}, fillColor = {255, 85, 85}, fillPattern = FillPattern.Sphere, extent = {{18, -36}, {52, -2}}), Text(textColor = {0, 0, 0}, extent = {{-150, -68}, {150, -98}}, textString = "R=%R")}), Documentation(info = "<html>
<p>Rolling without slipping of a ball of radius <code>R</code> (body B, connected to <code>kB</code>,
<code>wB</code>) on a surface of revolution about the world z axis, fixed in the world (body A must be a
<a href=\"modelica://Nonholonomic.Bodies.Ground\">Ground</a>). As in Kosenko, Kuleshov, Shishkov (2024), the
surface that is given is the one traced by the ball's centre, with meridian <code>(rho(s), zeta(s))</code>;
the supporting surface is its offset by <code>R</code> along the normal <code>e3</code>, which points from
the contact point <code>K = r - R e3</code> to the centre.</p>
<p>Three kinematic relations determine the three components of the reaction force at <code>K</code> (no
torque): the centre stays on the centre surface (holonomic, at acceleration level with Baumgarte terms
<code>2 alpha gap' + beta^2 gap</code>), and the two tangential components of the velocity of the ball's
material point at <code>K</code> vanish (nonholonomic, at acceleration level with the term
<code>alpha sigma</code>). The surface coordinates of the centre are computed explicitly from its position,
with <code>coordinate</code> the inverse of <code>rho(s)</code>.</p>
<p>Outputs follow the paper: <code>s</code> = q1, <code>phi</code> = q2, <code>ds</code> = dq1/dt,
<code>dphi</code> = dq2/dt, <code>Lambda</code> = R omega_3, and the reaction components <code>F1, F2, N</code>
on the ball along <code>e1</code> (meridian), <code>e2</code> (parallel), <code>e3</code> (normal).</p>
<p>Limits: the azimuth is singular on the axis (<code>rho_c = 0</code>), as the paper's polar coordinates are;
the meridian must have <code>d rho/ds &gt; 0</code> where the ball moves.</p>
</html>"));
end BallOnSurfaceOfRevolution;
