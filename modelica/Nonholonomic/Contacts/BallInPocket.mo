within Nonholonomic.Contacts;
model BallInPocket "Elastic contact of a ball (body B) with a pocket of a cage (body A): a sphere, or a cylinder whose axis is radial in the cage; Hertz patch, Coulomb-Contensou friction"
  extends Interfaces.PartialCompliantContact(final R_hertz = R_patch, final R_normal = R_stiff);
  parameter Units.Length D_ball(min = 1e-9) = 8e-3 "Ball diameter";
  parameter Units.Length c_p(min = 1e-9) = 1e-4 "Pocket clearance: radius of the pocket's cylinder minus the ball's radius";
  parameter Units.Angle phi "Direction of the pocket's axis in the cage's plane z = 0: angle from the cage's body x axis";
  parameter Boolean spherical = true "true: a spherical pocket centred on the axis at R_c from the cage's centre (the cage rides on the balls); false: a cylinder about the axis (the ball free along it)";
  parameter Units.Length R_c(min = 0) = 20e-3 "Distance of a spherical pocket's centre from the cage's centre (the pitch radius)";
  parameter Units.Length l_reg(min = 0) = 1e-9 "Regularisation of the ball's distance from the pocket's axis at the axis (no contact there)";
  final parameter Units.Length R_p = D_ball/2 + c_p "Radius of the pocket's cylinder";
  final parameter Real e_b[3](each unit = "1") = {cos(phi), sin(phi), 0} "Pocket axis (radial), cage frame";
  // curvature sums: along the pocket's axis the ball on a straight line (2/D_ball, cylinder) or in the concave
  // sphere; around it the ball inside the concave wall, 2/D_ball - 1/R_p (Johnson 1985, sec. 4.2); Hamrock and
  // Brewe's closed forms as in BallOnRaceway
  final parameter Units.Curvature rx = if spherical then 2/D_ball - 1/R_p else 2/D_ball "Curvature sum along the pocket's axis";
  final parameter Units.Curvature ry = 2/D_ball - 1/R_p "Curvature sum around the pocket's axis (the wall is concave)";
  final parameter Units.DimensionlessRatio alpha_r = max(rx, ry)/min(rx, ry) "Ratio of the principal radii of relative curvature (>= 1)";
  final parameter Units.Length R_eq = 1/(rx + ry) "Effective radius of curvature, 1/(rx + ry)";
  final parameter Units.DimensionlessRatio k_e = 1.0339*alpha_r^0.6360 "Ellipticity a/b (Hamrock-Brewe)";
  final parameter Units.DimensionlessRatio E_e = 1.0003 + 0.5968/alpha_r "Complete elliptic integral of the second kind (Hamrock-Brewe)";
  final parameter Units.DimensionlessRatio K_e = 1.5277 + 0.6023*log(alpha_r) "Complete elliptic integral of the first kind (Hamrock-Brewe)";
  // the spherical pocket's contact is circular: Hertz's exact law with R = 1/rx (Johnson 1985, sec. 4.2), where
  // Hamrock and Brewe's fit is 5 % off in the approach (references.bearing's table at a ratio of 1)
  final parameter Units.Length R_stiff = if spherical then 1/rx else (3/4*Constants.pi*k_e*2*sqrt(2*E_e*R_eq/9)/K_e^1.5)^2 "Radius of the sphere on a plane as stiff as this contact";
  final parameter Real A_major(unit = "m") = if spherical then 1/rx else (6*k_e^2*E_e*R_eq*(4/3*sqrt(R_stiff))/(2*Constants.pi))^(2/3) "Semi-major axis squared over the approach: a^2 = A_major delta";
  final parameter Units.Length R_patch = if spherical then 1/rx else (2*E_e/Constants.pi)^2*A_major "Radius of the circular patch with the pivoting friction of the ellipse";
  Units.Length semiMajor "Semi-major axis of the contact ellipse, around the pocket (0 when separated)";
protected
  Real e_0[3](each unit = "1") "Pocket axis, world frame";
  Units.Position rho_0[3] "Ball centre relative to the cage's centre, world frame";
  Units.Position q_0[3] "Ball centre's offset from the pocket's centre (sphere) or axis (cylinder), world frame";
  Units.Length dist "Regularised distance of the ball's centre from the pocket's axis";
  Real u_0[3](each unit = "1") "Unit vector from the pocket's axis to the ball's centre";
  Units.Velocity v_rel_0[3] "Velocity of body B's material point at p_0 relative to body A's, world frame";
equation
  assert(c_p < D_ball/2, "the pocket clearance c_p must be smaller than the ball's radius (the pocket would not hold the ball)");
  // The pocket is the sphere of radius R_p centred at R_c e_0 from the cage's centre, or the cylinder of radius R_p
  // about the line through the cage's centre along e_0; the ball touches its wall on the line from the sphere's
  // centre (the perpendicular from the cylinder's axis) through the ball's centre, at the distance dist from it:
  // delta = dist + D_ball/2 - R_p = dist - c_p, exact for any position and motion of either body.
  e_0 = kA.T*e_b;
  rho_0 = kB.r_0 - kA.r_0;
  q_0 = rho_0 - (if spherical then R_c else e_0*rho_0)*e_0;
  // sqrt(|q|^2 + l_reg^2): smooth where the ball sits on the axis (its start); at contact (dist = c_p) it differs
  // from |q| by l_reg^2/(2 c_p) = 5e-15 m for the defaults
  dist = sqrt(q_0*q_0 + l_reg^2);
  u_0 = q_0/dist;
  delta = dist - c_p;
  n_0 = -u_0;
  p_0 = kB.r_0 + (D_ball/2 - delta/2)*u_0;
  v_rel_0 = kB.v_0 + cross(kB.w_0, p_0 - kB.r_0) - kA.v_0 - cross(kA.w_0, p_0 - kA.r_0);
  // d(dist)/dt = u.(velocity of the ball's centre relative to the cage's material point at the sphere's centre or
  // on the axis), the same as -n.v_rel at p_0 (the two points differ along u)
  ddelta = -n_0*v_rel_0;
  v_t_0 = v_rel_0 - (n_0*v_rel_0)*n_0;
  spin = (kB.w_0 - kA.w_0)*n_0;
  semiMajor = noEvent(if delta > 0 then sqrt(A_major*delta) else 0);
  annotation(Documentation(info = "<html>
<p>The pocket of a cage (body A) holding a ball of diameter <code>D_ball</code> centred at body B's centre of mass,
of radius <code>R_p = D_ball/2 + c_p</code> along the radial direction <code>phi</code> of the cage's plane
<code>z = 0</code>: with <code>spherical = true</code> a sphere centred at <code>R_c</code> from the cage's centre
(the formed pocket of a pressed-steel cage riding on the balls: the balls locate the cage in every direction within
<code>c_p</code>); with <code>spherical = false</code> a cylinder whose axis is the radial line, the ball free to
move along it (the balls then hold the cage only in the circumferential direction). The ball touches the wall when
its centre is farther than <code>c_p</code> from the pocket's centre (axis): <code>delta = |q| - c_p</code>. In a
bearing the wall is met ahead of or behind the ball (the cage drives or brakes it), radially or beside it.</p>
<p><b>Normal force.</b> Hertz contact of the ball inside the concave pocket (steel on steel by default); in the cylinder
the principal radii of relative curvature are <code>D_ball/2</code> along the axis and
<code>1/(2/D_ball - 1/R_p)</code> around it (Johnson, Contact Mechanics, 1985, sec. 4.2). In the spherical pocket both
are <code>1/(2/D_ball - 1/R_p)</code> (164 mm for the defaults) and the patch is a circle, Hertz's exact law; in the
cylinder the ellipse comes from Hamrock and Brewe's closed forms as in
<a href=\"modelica://Nonholonomic.Contacts.BallOnRaceway\">BallOnRaceway</a> (the ratio of the radii is 41 for the defaults, inside their fit), with Hunt-Crossley damping: a force
law of the two bodies' states, no constraint and no algebraic loop. A lubricated pocket's film makes the contact
softer and more damped than Hertz's dry law; the dry law with damping <code>d</code> is the stiffer bound and keeps
the force a function of the approach alone.</p>
<p><b>Friction.</b> Coulomb-Contensou friction of <a href=\"modelica://Nonholonomic.Interfaces.PartialCompliantContact\">PartialCompliantContact</a>
(the ball's surface slides on the pocket's wall at about its spin times its radius), with its own <code>mu</code>.</p>
</html>"), Icon(graphics = {Text(textColor = {0, 0, 0}, extent = {{-150, -68}, {150, -98}}, textString = "c=%c_p"), Text(textColor = {0, 0, 255}, extent = {{-150, 70}, {150, 100}}, textString = "%name"),
    Ellipse(lineColor = {0, 0, 0}, fillColor = {200, 200, 200}, fillPattern = FillPattern.Sphere, extent = {{-30, -30}, {30, 30}}),
    Line(points = {{-40, -50}, {-40, 50}}, thickness = 1), Line(points = {{40, -50}, {40, 50}}, thickness = 1),
    Line(points = {{0, -55}, {0, 55}}, pattern = LinePattern.Dash)}));
end BallInPocket;
