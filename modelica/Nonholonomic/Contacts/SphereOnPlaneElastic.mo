within Nonholonomic.Contacts;
model SphereOnPlaneElastic "Elastic unilateral contact of a sphere fixed on body B with the plane z = 0 of body A (Hertz, Coulomb-Contensou friction)"
  extends Interfaces.PartialCompliantContact(final R_hertz = R, final R_normal = R);
  parameter Units.Length R(min = 1e-9) = 0.01 "Radius of the sphere";
  parameter Units.Position c_b[3] = {0, 0, 0} "Centre of the sphere relative to body B's centre of mass, body-B frame";
protected
  Units.Position c_0[3] "Centre of the sphere, world frame";
  Units.Length h "Height of the centre above the plane";
  Units.Velocity v_rel_0[3] "Velocity of body B's material point at p_0 relative to body A's, world frame";
equation
  n_0 = kA.T[:, 3];
  c_0 = kB.r_0 + kB.T*c_b;
  h = n_0*(c_0 - kA.r_0);
  delta = R - h;
  // the centre of the patch: the foot of the sphere's centre on the plane
  p_0 = c_0 - h*n_0;
  v_rel_0 = kB.v_0 + cross(kB.w_0, p_0 - kB.r_0) - kA.v_0 - cross(kA.w_0, p_0 - kA.r_0);
  ddelta = -n_0*v_rel_0;
  v_t_0 = v_rel_0 - (n_0*v_rel_0)*n_0;
  spin = (kB.w_0 - kA.w_0)*n_0;
  annotation(Documentation(info = "<html>
<p>A sphere of radius <code>R</code> whose centre is fixed at <code>c_b</code> on body B presses on the
plane <code>z = 0</code> of body A (the plane through A's frame origin normal to A's z axis; for a
<a href=\"modelica://Nonholonomic.Bodies.Ground\">Ground</a>, the world's plane <code>z = 0</code>). The
penetration is <code>delta = R - h</code>, <code>h</code> the height of the centre above the plane; the wrench
acts at the foot of the centre on the plane and vanishes when <code>delta &lt;= 0</code> (unilateral).
The Hertz radius is <code>R</code> (a plane has none). The force law is that of
<a href=\"modelica://Nonholonomic.Interfaces.PartialCompliantContact\">PartialCompliantContact</a>.
The tippe-top (<a href=\"modelica://Nonholonomic.Examples.TippeTop\">Examples.TippeTop</a>) has two of
them; Kosenko and Aleksandrov (2009) and seed 002, sections 5-6.</p>
</html>"), Icon(graphics = {Text(textColor = {0, 0, 0}, extent = {{-150, -68}, {150, -98}}, textString = "R=%R"), Text(textColor = {0, 0, 255}, extent = {{-150, 70}, {150, 100}}, textString = "%name"), Ellipse(lineColor = {0, 0, 0}, fillColor = {255, 170, 85}, fillPattern = FillPattern.Sphere,
    extent = {{-40, -40}, {40, 40}}), Line(points = {{-80, -42}, {80, -42}}, thickness = 1)}));
end SphereOnPlaneElastic;
