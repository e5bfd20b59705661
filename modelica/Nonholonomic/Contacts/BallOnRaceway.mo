within Nonholonomic.Contacts;
model BallOnRaceway "Elastic contact of a ball (body B) with the toroidal groove of a ring (body A): elliptic Hertz patch (Hamrock-Brewe), Coulomb-Contensou friction"
  extends Interfaces.PartialCompliantContact(final R_hertz = R_patch, final R_normal = R_stiff);
  parameter Units.Length D_ball(min = 1e-9) = 8e-3 "Ball diameter";
  parameter Units.Length D_race(min = 1e-9) = 32e-3 "Diameter of the raceway at the bottom of the groove";
  parameter Units.DimensionlessRatio f(min = 0.5) = 0.52 "Groove conformity: groove radius over ball diameter (> 1/2)";
  parameter Boolean outerRace = false "true: outer ring (concave raceway, the ball inside it); false: inner ring (convex raceway)";
  final parameter Units.Length r_groove = f*D_ball "Radius of the groove's cross-section";
  final parameter Real sigma(unit = "1") = if outerRace then -1 else 1 "+1 inner ring, -1 outer ring";
  final parameter Units.Length R_centres = D_race/2 + sigma*r_groove "Radius of the circle of the groove's centres of curvature, about the ring's axis";
  final parameter Units.Curvature rx = 2/D_ball + sigma*2/D_race "Curvature sum in the rolling direction (the outer raceway is concave)";
  final parameter Units.Curvature ry = 2/D_ball - 1/r_groove "Curvature sum across the groove (the groove is concave)";
  final parameter Units.DimensionlessRatio alpha_r = max(rx, ry)/min(rx, ry) "Ratio of the principal radii of relative curvature, Ry/Rx >= 1";
  final parameter Units.Length R_eq = 1/(rx + ry) "Effective radius of curvature, 1/(rx + ry)";
  final parameter Units.DimensionlessRatio k_e = 1.0339*alpha_r^0.6360 "Ellipticity a/b (Hamrock-Brewe)";
  final parameter Units.DimensionlessRatio E_e = 1.0003 + 0.5968/alpha_r "Complete elliptic integral of the second kind E(1 - 1/k^2) (Hamrock-Brewe)";
  final parameter Units.DimensionlessRatio K_e = 1.5277 + 0.6023*log(alpha_r) "Complete elliptic integral of the first kind K(1 - 1/k^2) (Hamrock-Brewe)";
  final parameter Units.Length R_stiff = (3/4*Constants.pi*k_e*2*sqrt(2*E_e*R_eq/9)/K_e^1.5)^2 "Radius of the sphere on a plane as stiff as this contact: 4/3 E* sqrt(R_stiff) = pi k E' sqrt(2 E R/9)/K^(3/2), E' = 2 E*";
  final parameter Real A_major(unit = "m") = (6*k_e^2*E_e*R_eq*(4/3*sqrt(R_stiff))/(2*Constants.pi))^(2/3) "Semi-major axis squared over the approach: a^2 = A_major delta";
  final parameter Units.Length R_patch = (2*E_e/Constants.pi)^2*A_major "Radius of the circular patch with the pivoting friction of the ellipse: a_eq = 2 E(m)/pi a";
  Units.Length semiMajor "Semi-major axis a of the contact ellipse, across the groove (0 when separated)";
  Units.Length semiMinor "Semi-minor axis b = a/k of the contact ellipse, in the rolling direction (0 when separated)";
protected
  Real e_axis_0[3](each unit = "1") "The ring's axis (A's body z axis), world frame";
  Units.Position rho_0[3] "Ball centre relative to the ring's centre, world frame";
  Units.Position rho_r_0[3] "Component of rho_0 normal to the axis";
  Units.Length rho_r "Distance of the ball centre from the ring's axis";
  Units.Position g_0[3] "Centre of curvature of the groove nearest to the ball, world frame";
  Units.Length dist "Distance of the ball centre from g_0";
  Real u_0[3](each unit = "1") "Unit vector from g_0 to the ball centre";
  Units.Velocity v_rel_0[3] "Velocity of body B's material point at p_0 relative to body A's, world frame";
equation
  // The groove is the torus of tube radius r_groove about the circle of radius R_centres in A's plane z = 0;
  // the ball touches it along the line from the circle's nearest point g_0 through the ball's centre.
  e_axis_0 = kA.T[:, 3];
  rho_0 = kB.r_0 - kA.r_0;
  rho_r_0 = rho_0 - (e_axis_0*rho_0)*e_axis_0;
  rho_r = sqrt(rho_r_0*rho_r_0);
  g_0 = kA.r_0 + R_centres/rho_r*rho_r_0;
  dist = sqrt((kB.r_0 - g_0)*(kB.r_0 - g_0));
  u_0 = (kB.r_0 - g_0)/dist;
  delta = dist + D_ball/2 - r_groove;
  n_0 = -u_0;
  // the patch centre: midway through the overlap of the undeformed surfaces
  p_0 = kB.r_0 + (D_ball/2 - delta/2)*u_0;
  v_rel_0 = kB.v_0 + cross(kB.w_0, p_0 - kB.r_0) - kA.v_0 - cross(kA.w_0, p_0 - kA.r_0);
  // d(dist)/dt = u.(velocity of the ball centre relative to A's material point g_0); the same as -n.v_rel
  // at p_0 (the two points differ along u, and u is normal to the groove's circle at g_0)
  ddelta = -n_0*v_rel_0;
  v_t_0 = v_rel_0 - (n_0*v_rel_0)*n_0;
  spin = (kB.w_0 - kA.w_0)*n_0;
  semiMajor = noEvent(if delta > 0 then sqrt(A_major*delta) else 0);
  semiMinor = semiMajor/k_e;
  annotation(Documentation(info = "<html>
<p>A ball of diameter <code>D_ball</code> centred at body B's centre of mass runs in the groove of a ring, body A:
the groove's cross-section is a circle of radius <code>r_groove = f D_ball</code> (conformity <code>f &gt; 1/2</code>),
the raceway's diameter at the bottom of the groove is <code>D_race</code>, the ring's axis is A's body z axis
and the groove lies in A's plane <code>z = 0</code> (contact angle 0, a deep-groove bearing). The groove's
surface is a torus; the ball touches it on the line from the torus's nearest centre of curvature
<code>g_0</code> through the ball's centre, so the penetration is
<code>delta = |c - g_0| + D_ball/2 - r_groove</code> for a convex (inner) or a concave (outer) raceway
alike, exact for any position and motion of either body.</p>
<p><b>The elliptic Hertz patch.</b> The principal curvature sums are those of the nominal contact,
<code>rx = 2/D_ball +- 2/D_race</code> in the rolling direction (+ inner, - outer ring) and
<code>ry = 2/D_ball - 1/r_groove</code> across the groove (Harris and Kotzalas, Rolling Bearing Analysis,
ch. 2). The ellipticity <code>k = a/b</code> and the complete elliptic integrals come from the approximation of
Hamrock and Brewe (J. Lubrication Technology 105(2), 1983): <code>k = 1.0339 alpha_r^0.636</code>,
<code>E = 1.0003 + 0.5968/alpha_r</code>, <code>K = 1.5277 + 0.6023 ln alpha_r</code>,
<code>alpha_r = Ry/Rx</code>; then <code>N = pi k E' sqrt(2 E R/9) K^(-3/2) delta^(3/2)</code>,
<code>a^3 = 6 k^2 E N R/(pi E')</code>, <code>b = a/k</code>, <code>E' = 2 E*</code>,
<code>R = 1/(rx + ry)</code>. For the default bearing (<code>alpha_r</code> 32.5 inner, 21.7 outer) the
approximation's stiffness is 1.7 % (inner) and 0.6 % (outer) above that of the exact elliptic-integral
solution, the semi-axes within 1.1 % of it (<code>nonholonomic.references.bearing</code> solves the exact
ellipse; the verification case <code>bearing_hertz</code> measures the difference).</p>
<p><b>Friction.</b> The friction laws of
<a href=\"modelica://Nonholonomic.Interfaces.PartialCompliantContact\">PartialCompliantContact</a> are those of a
circular patch. The ellipse enters them as the circle with the same normal stiffness (<code>R_normal</code>)
and the same torque of pure pivoting: over the Hertz ellipse that torque is <code>mu N a (3/8) E(m)</code>,
against <code>mu N a_eq 3 pi/16</code> over a circle, so <code>a_eq = 2 E(m) a/pi</code>. The slip-spin
coupling of the ellipse (its anisotropy) is left out: the Contensou-type law of the seed paper, section 6.
<code>frictionLaw = 1</code> is the point-contact Coulomb law, <code>2</code> the Contensou-Zhuravlev law.</p>
</html>"), Icon(graphics = {Text(textColor = {0, 0, 0}, extent = {{-150, -68}, {150, -98}}, textString = "D=%D_ball"), Text(textColor = {0, 0, 255}, extent = {{-150, 70}, {150, 100}}, textString = "%name"), Ellipse(lineColor = {0, 0, 0}, fillColor = {200, 200, 200}, fillPattern = FillPattern.Sphere,
    extent = {{-30, -30}, {30, 30}}), Line(points = {{-60, -60}, {-40, -45}, {-20, -38}, {0, -36}, {20, -38}, {40, -45}, {60, -60}}, thickness = 1),
    Line(points = {{-60, 60}, {-40, 45}, {-20, 38}, {0, 36}, {20, 38}, {40, 45}, {60, 60}}, thickness = 1)}));
end BallOnRaceway;
