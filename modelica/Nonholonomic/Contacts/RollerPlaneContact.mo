within Nonholonomic.Contacts;
model RollerPlaneContact "Unilateral contact with Coulomb friction between a roller of an omni-wheel or a mecanum wheel (body B) and the plane z = 0 (body A)"
  extends Interfaces.PartialConstraint;
  parameter Units.Length R_w(min = 1e-6) = 0.05 "Radius of the omni-wheel (the roller's profile is an arc of radius R_w)";
  parameter Integer n(min = 2) = 4 "Number of rollers on the wheel: each spans the angle 2 pi/n";
  parameter Units.Length R1(min = 0, max = R_w*cos(Constants.pi/n)) = R_w*cos(Constants.pi/n) "Distance of the roller's axis from the wheel's centre: R_w cos(pi/n) for untruncated spindles (ch. 3), less for truncated rollers (R_w cos(pi/(n - 1)) in ch. 1-2)";
  parameter Units.Angle delta(min = 0, max = Constants.pi) = Constants.pi/2 "Angle from the wheel's plane to the line along which the lowest roller lets the contact slide (Borisov, Kilin, Mamaev 2011), strictly between 0 and pi: pi/2 omni-wheel (roller axes in the wheel's plane), pi/4 or 3 pi/4 mecanum wheel (needs n >= 3)";
  parameter Real mu(min = 0) = 0.5 "Coefficient of dry friction";
  parameter Units.Velocity v_eps(min = 1e-12) = 1e-3 "Slip speed below which friction is linear in the slip (regularised Coulomb)";
  parameter Units.Frequency alpha(min = 0) = 20 "Baumgarte damping rate of the gap's velocity drift";
  parameter Units.Frequency beta(min = 0) = 20 "Baumgarte stiffness of the gap's position drift";
  final parameter Units.Angle halfAngle = Constants.pi/n "Half the angle a roller spans on the wheel";
  final parameter Units.Angle gamma = Constants.pi/2 - delta "Tilt of the roller's axis out of the wheel's plane (0: omni-wheel)";
  final parameter Real cg(unit = "1") = cos(gamma) "cos(gamma): exactly 1 for the omni-wheel";
  final parameter Units.Length rhoEnd = sqrt(1 - (cg*sin(halfAngle))^2)*(R_w - R1/cos(halfAngle)) "Radius of the roller at its ends (0: untruncated spindle)";
  input Real yielding(unit = "1", min = 0, max = 1) = 0 "1 while a neighbouring roller of the same wheel keeps the contact, else 0 (set by the wheel: at a junction two rollers are within their sectors for an instant)";
  Real inSector(unit = "1") "1 while the lowest point of the wheel's circle lies on this roller's arc, else 0 (a relation: an event where it changes)";
  Real closed(unit = "1") "1 while this roller carries the wheel on the plane (closed gap), 0 otherwise";
  Units.Length gap "Height of the roller's lowest point above the plane";
  Units.Force N "Normal reaction of the plane (0 while the gap is open)";
  Units.Velocity slip "Slip speed of the roller's material point at the contact (0 while open)";
  Real cosPsi(unit = "1") "Cosine of the angle between the downward vertical and the direction from the wheel's centre to the roller's centre";
protected
  // the Signorini alternative is one residual of two kinds, an acceleration (closed) or the force (open); the force
  // is divided by 1 kg so that both branches are accelerations (unit-consistent) with the numbers of N in newtons
  final parameter Units.Mass m_unit = 1 "Scales the open contact's force residual to an acceleration (1 kg: the same numbers)";
  Real a[3] "Axis of the roller, world frame";
  Real da[3](each unit = "1/s") "da/dt";
  Real dda[3](each unit = "1/s2") "d2a/dt2";
  Real c(unit = "1") "sqrt(cos(gamma)^2 - a_z^2) (omni-wheel: sin of the angle between the axis and the vertical)";
  Real dc(unit = "1/s") "dc/dt";
  Real ddc(unit = "1/s2") "d2c/dt2";
  Units.Position P[3] "Lowest point of the roller's surface, world frame";
  Units.Velocity sigma_0[3] "Velocity of the roller's material point at P, world frame";
  Units.Velocity sigmaH "Horizontal slip speed at P";
  Units.Velocity sigmaSat "max(sigmaH, v_eps), the speed that saturates friction";
equation
  a = kB.T*{1.0, 0.0, 0.0};
  da = cross(kB.w_0, a);
  dda = cross(kB.z_0, a) + cross(kB.w_0, da);
  // contact tracking. The roller (centre C = kB.r_0 at R1 from the wheel's centre, unit axis a, tilted by gamma
  // out of the wheel's plane) is the envelope of the spheres centred at C + s a of radius
  // R_w - sqrt(R1^2 + s^2 cos(gamma)^2), each touching the cylinder of radius R_w about the wheel's axle (the
  // wheel's envelope). Minimising the spheres' lowest points over s: s* = -a_z R1/(cos(gamma) c) with
  // c = sqrt(cos(gamma)^2 - a_z^2), the lowest point P = C + s* a - (R_w - R1 cos(gamma)/c) e_z at the height
  // C_z + R1 c/cos(gamma) - R_w. Omni-wheel (gamma = 0): the centre of the roller's profile arc is R1 above the
  // axis in the vertical plane through it, P is R_w below it (Gerasimov 2018, ch. 3, eqs. (2.2)-(2.5)).
  // Guarded divisions: c vanishes only for rollers whose axis is at its steepest, which are never in contact
  // (the guard is inside the root, so that c has a finite derivative there too: the FMU's Jacobian).
  c = sqrt(noEvent(max(cg^2 - a[3]^2, 1e-18)));
  dc = -a[3]*da[3]/c;
  ddc = -(da[3]^2 + a[3]*dda[3])/c - (a[3]*da[3])^2/c^3;
  P = kB.r_0 + R1*({0.0, 0.0, cg} - a[3]/cg*a)/c - {0.0, 0.0, R_w};
  gap = kB.r_0[3] + R1/cg*c - R_w;
  // the roller carries the wheel while the lowest point of the wheel's circle lies on its arc, i.e. while its
  // centre, seen from the wheel's centre, is within the half angle pi/n of the downward vertical: (2.4) and
  // (2.5) in one relation. For a vertical wheel the axis' vertical component is a_z = cos(gamma) sin(psi) (psi
  // the angle of the roller's centre from the downward vertical), so the cosine is c/cos(gamma) below the
  // wheel's centre and -c/cos(gamma) above (the sign changes where the axis is at its steepest, c = 0, far
  // from the threshold): the relation changes only at the two junctions at the
  // bottom, never at the top. The thesis (ch. 2) prints the switch "at chi = 2 pi/n"; geometrically it is at
  // +-pi/n from the roller's centre, every 2 pi/n of the wheel's turn. The relation is outside noEvent: the
  // integrator stops at each junction and restarts with the new contact (issue 14).
  // The cosine is that of the unit axis: the body's attitude matrix is |Q|^2 times a rotation, and a drift of the
  // quaternion's norm by 2e-9 (rtol 1e-8) would move both neighbours' cosines at a junction by 1.7e-9, leaving
  // the wheel without a roller in its sector for a moment. The sector is widened by 1e-10 (1.4e-10 rad at
  // n = 4): at a junction the entering roller's relation then changes before the leaving one's (their cosines
  // differ there by rounding), the wheel keeps one roller in contact throughout (the one the wheel's rule
  // prefers while both are in their sectors), and the contact moves by 1e-21 m at the change.
  cosPsi = (if noEvent(kB.r_0[3] < R_w) then 1 else -1)*sqrt(noEvent(max(1 - a[3]^2/((a*a)*cg^2), 1e-18)));
  inSector = if cosPsi >= cos(halfAngle) - 1e-10 then 1.0 else 0.0;
  closed = inSector*(1 - yielding);
  // Signorini: a closed gap stays closed (at acceleration level, stabilised), an open one carries no force
  0 = if noEvent(closed > 0.5) then kB.a_0[3] + R1/cg*ddc + 2*alpha*(kB.v_0[3] + R1/cg*dc) + beta^2*gap else N/m_unit;
  sigma_0 = kB.v_0 + cross(kB.w_0, P - kB.r_0);
  sigmaH = sqrt(sigma_0[1]^2 + sigma_0[2]^2);
  // regularised Coulomb friction: linear in the slip below v_eps, mu N above (the root is taken after the
  // max, so that the derivative exists at zero slip)
  sigmaSat = sqrt(noEvent(max(sigma_0[1]^2 + sigma_0[2]^2, v_eps^2)));
  f_0 = {-mu*N*sigma_0[1]/sigmaSat, -mu*N*sigma_0[2]/sigmaSat, N};
  t_0 = {0.0, 0.0, 0.0};
  p_0 = if noEvent(closed > 0.5) then P else kB.r_0;
  slip = closed*sigmaH;
  annotation(Icon(graphics = {Line(points = {{-80, -44}, {80, -44}}, thickness = 0.5), Rectangle(lineColor = {255, 255, 255}, fillColor = {160, 160, 164}, fillPattern = FillPattern.Backward, extent = {{-80, -56}, {80, -45}}), Ellipse(lineColor = {0, 0, 0}, fillColor = {255, 170, 85}, fillPattern = FillPattern.HorizontalCylinder, extent = {{-60, -44}, {60, 0}}), Line(points = {{-75, -22}, {75, -22}}, pattern = LinePattern.DashDot), Text(textColor = {0, 0, 0}, extent = {{-150, -68}, {150, -98}}, textString = "n=%n")}), Documentation(info = "<html>
<p>The contact of one roller of an omni-wheel with the horizontal plane (Gerasimov 2018, ch. 1-3). The
roller's profile is an arc of the wheel's circle (radius <code>R_w</code>) over the angle <code>2 pi/n</code>, its
axis at <code>R1</code> from the wheel's centre: <code>R1 = R_w cos(pi/n)</code> (default) is the untruncated
spindle of ch. 3, whose radius vanishes at its ends; a smaller <code>R1</code> gives a truncated roller with flat
ends of radius <code>rhoEnd = R_w cos(pi/n) - R1</code> (ch. 1-2: <code>R1 = R_w cos(pi/(n - 1))</code>). The
contact is tracked explicitly: the lowest point of the roller's surface is <code>R_w</code> below the centre of its
profile arc, which lies <code>R1</code> above the axis in the vertical plane through it.</p>
<p><b>Mecanum wheels.</b> With <code>delta</code> other than <code>pi/2</code> (the angle of Borisov, Kilin and
Mamaev 2011: at the lowest roller the contact may slide along <code>cos(delta) e + sin(delta) a</code>, <code>e</code>
the wheel's rolling direction, <code>a</code> its axle) the roller's axis is tilted by <code>gamma = pi/2 - delta</code>
out of the wheel's plane (the wheel sets it: <code>a_k = cos(gamma) t_k + sin(gamma) a</code>, <code>t_k</code> the
rim's tangent at the roller). The roller is the envelope of the spheres centred at <code>C + s a_k</code>
(<code>C</code> its centre, at <code>R1</code> from the wheel's centre) of radius
<code>R_w - sqrt(R1^2 + s^2 cos(gamma)^2)</code>: each touches the cylinder of radius <code>R_w</code> about the
axle, so the wheel rolls on the circle <code>R_w</code> as before. The lowest point is
<code>P = C + s* a_k - (R_w - R1 cos(gamma)/c) e_z</code> with <code>c = sqrt(cos(gamma)^2 - a_z^2)</code>,
<code>s* = -a_z R1/(cos(gamma) c)</code>, at the height <code>C_z + R1 c/cos(gamma) - R_w</code> (the gap, whose
time derivatives follow those of <code>c</code>). For a vertical wheel <code>P</code> is directly below the wheel's
centre in its plane, offset along the axle by <code>-R1 tan(psi) tan(gamma)</code> (<code>psi</code> the angle of
the roller's centre from the downward vertical, positive about the axle); at a change of the roller in contact it
jumps along the axle by <code>2 R1 tan(pi/n) tan(gamma)</code>, the normal direction staying vertical. The sector
relation uses <code>cos(psi) = c/cos(gamma)</code> (a vertical wheel, as before). At <code>delta = pi/2</code> the
equations are those of the omni-wheel, operation by operation (<code>cos(gamma)</code> is exactly 1).</p>
<p>The roller is in its sector while its centre, seen from the wheel's centre, is within <code>pi/n</code> of the
downward vertical (<code>inSector</code>): a relation outside <code>noEvent</code>, so the integrator stops where it
changes (a state event) and restarts with the new contact. The roller carries the wheel (<code>closed</code>)
while it is in its sector and <code>yielding</code> is 0; a wheel sets <code>yielding</code> so that at a junction,
where two neighbours are in their sectors for an instant, only one carries it (a standalone roller: 0). While
closed the gap is kept closed at acceleration level (Baumgarte terms), otherwise the normal force is zero (the
Signorini alternative). Friction is Coulomb's law regularised by a linear saturation: the force is
<code>-mu N sigma/max(|sigma|, v_eps)</code> for the slip velocity <code>sigma</code>.</p>
<p>Limits: the wheel must stay vertical (as in the vehicle); lift-off (<code>N &lt; 0</code>) is not detected, so
check <code>N</code>. At a junction the contact point (the lowest point of the wheel's circle) is the same for both
rollers, so the change is no impact in the normal direction; the entering roller, at rest on its axle, slips until
friction has spun it up: with truncated rollers over a time proportional to its mass, with untruncated ones at
its tip, of zero radius, without bound.</p>
</html>"));
end RollerPlaneContact;
