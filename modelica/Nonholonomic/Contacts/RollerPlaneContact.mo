within Nonholonomic.Contacts;
model RollerPlaneContact "Unilateral contact with Coulomb friction between a roller of an omni-wheel (body B) and the plane z = 0 (body A)"
  extends Interfaces.PartialConstraint;
  parameter Units.Length R_w(min = 1e-6) = 0.05 "Radius of the omni-wheel (the roller's profile is an arc of radius R_w)";
  parameter Integer n(min = 2) = 4 "Number of rollers on the wheel: each spans the angle 2 pi/n";
  parameter Real mu(min = 0) = 0.5 "Coefficient of dry friction";
  parameter Units.Velocity v_eps(min = 1e-12) = 1e-3 "Slip speed below which friction is linear in the slip (regularised Coulomb)";
  parameter Units.Frequency alpha(min = 0) = 20 "Baumgarte damping rate of the gap's velocity drift";
  parameter Units.Frequency beta(min = 0) = 20 "Baumgarte stiffness of the gap's position drift";
  final parameter Units.Angle halfAngle = Constants.pi/n "Half the angle a roller spans on the wheel";
  final parameter Units.Length R1 = R_w*cos(halfAngle) "Distance of the roller's axis from the wheel's centre";
  Real closed(unit = "1") "1 while this roller carries the wheel on the plane (closed gap), 0 otherwise";
  Units.Length gap "Height of the roller's lowest point above the plane";
  Units.Force N "Normal reaction of the plane (0 while the gap is open)";
  Units.Velocity slip "Slip speed of the roller's material point at the contact (0 while open)";
protected
  Real a[3] "Axis of the roller, world frame";
  Real da[3](each unit = "1/s") "da/dt";
  Real dda[3](each unit = "1/s2") "d2a/dt2";
  Real c(unit = "1") "sqrt(1 - a_z^2): sin of the angle between the axis and the vertical";
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
  // contact tracking (Gerasimov 2018, ch. 3, eqs. (2.2)-(2.5)): the centre of the roller's profile arc is
  // R1 above the axis in the vertical plane through it; the lowest point of the surface is R_w below that
  // centre. Guarded divisions: c vanishes only for rollers with a vertical axis, which are never in contact
  // (the guard is inside the root, so that c has a finite derivative there too: the FMU's Jacobian).
  c = sqrt(noEvent(max(1 - a[3]^2, 1e-18)));
  dc = -a[3]*da[3]/c;
  ddc = -(da[3]^2 + a[3]*dda[3])/c - (a[3]*da[3])^2/c^3;
  P = kB.r_0 + R1*({0.0, 0.0, 1.0} - a[3]*a)/c - {0.0, 0.0, R_w};
  gap = kB.r_0[3] + R1*c - R_w;
  // the roller is in contact while its axis is within the half angle of the horizontal (2.4) and its centre
  // is below the wheel's centre (2.5): exactly one roller of a vertical wheel standing on the plane
  closed = if noEvent(abs(a[3]) <= sin(halfAngle) and kB.r_0[3] < R_w) then 1.0 else 0.0;
  // Signorini: a closed gap stays closed (at acceleration level, stabilised), an open one carries no force
  0 = if noEvent(closed > 0.5) then kB.a_0[3] + R1*ddc + 2*alpha*(kB.v_0[3] + R1*dc) + beta^2*gap else N;
  sigma_0 = kB.v_0 + cross(kB.w_0, P - kB.r_0);
  sigmaH = sqrt(sigma_0[1]^2 + sigma_0[2]^2);
  // regularised Coulomb friction: linear in the slip below v_eps, mu N above (the root is taken after the
  // max, so that the derivative exists at zero slip)
  sigmaSat = sqrt(noEvent(max(sigma_0[1]^2 + sigma_0[2]^2, v_eps^2)));
  f_0 = {-mu*N*sigma_0[1]/sigmaSat, -mu*N*sigma_0[2]/sigmaSat, N};
  t_0 = {0.0, 0.0, 0.0};
  p_0 = if noEvent(closed > 0.5) then P else kB.r_0;
  slip = closed*sigmaH;
  annotation(Documentation(info = "<html>
<p>The contact of one roller of an omni-wheel with the horizontal plane (Gerasimov 2018, ch. 3). The
roller is a spindle whose profile is an arc of the wheel's circle (radius <code>R_w</code>), its axis at
<code>R1 = R_w cos(pi/n)</code> from the wheel's centre. The contact is tracked explicitly: the lowest
point of the roller's surface is <code>R_w</code> below the centre of its profile arc, which lies
<code>R1</code> above the axis in the vertical plane through it. The roller is the one in contact when
its axis is within <code>pi/n</code> of the horizontal and its centre is below the wheel's centre; then
the gap is kept closed at acceleration level (Baumgarte terms), otherwise the normal force is zero (the
Signorini alternative). Friction is Coulomb's law regularised by a linear saturation: the force is
<code>-mu N sigma/max(|sigma|, v_eps)</code> for the slip velocity <code>sigma</code>.</p>
<p>Limits: the wheel must stay vertical (as in the vehicle); lift-off (<code>N &lt; 0</code>) is not
detected, so check <code>N</code>; the switch between rollers is a change of the active constraint without
an event, smooth in the motion because the two rollers' contact points coincide at the junction.</p>
</html>"));
end RollerPlaneContact;
