within Nonholonomic.Joints;
model ShaftDrive "Drive of a shaft (body B) in its housing (body A): prescribed spin rate (servo-constraint) or torque about A's z axis, and a load force"
  extends Interfaces.PartialInteraction;
  parameter Boolean torqueDriven = false "false: the spin rate follows omega (servo-constraint); true: the torque T_drive drives the shaft";
  parameter Units.AngularVelocity omega = 100 "Final spin rate of B relative to A about A's z axis (servo)";
  parameter Units.Torque T_drive = 0 "Final driving torque on B about A's z axis (torqueDriven)";
  parameter Units.Force F_load_0[3] = {0, 0, 0} "Final load force on B at its centre of mass, world frame";
  parameter Units.Time t_ramp(min = 1e-9) = 0.02 "Time constant of the start: the rate, torque and load rise as 1 - exp(-t/t_ramp)";
  parameter Units.Frequency gamma(min = 0) = 200 "Rate at which the servo pulls a drift of the spin rate back to the law";
  Units.AngularVelocity w_rel "Spin rate of B relative to A about A's z axis";
  Units.AngularVelocity w_law "Prescribed spin rate (servo)";
  Units.Torque tau "Torque on B about A's z axis: the servo's reaction, or the driving torque";
  Units.Power power "Power put in by the drive (torque on the relative spin, load force on the velocity relative to A)";
protected
  Real n_0[3](each unit = "1") "A's z axis, world frame";
  Units.DimensionlessRatio ramp "1 - exp(-t/t_ramp)";
  Units.AngularAcceleration dw_rel "d(w_rel)/dt";
  Units.AngularAcceleration a_law "d(w_law)/dt";
  Real servo(unit = "1") "1: servo-constraint, 0: torque drive";
  final parameter Units.Inertia J_unit = 1 "Scales the torque relation to an angular acceleration (1 kg.m2: the same numbers)";
equation
  n_0 = kA.T[:, 3];
  ramp = 1 - exp(-time/t_ramp);
  w_rel = (kB.w_0 - kA.w_0)*n_0;
  dw_rel = (kB.z_0 - kA.z_0)*n_0 + (kB.w_0 - kA.w_0)*cross(kA.w_0, n_0);
  w_law = omega*ramp;
  a_law = omega/t_ramp*exp(-time/t_ramp);
  servo = if torqueDriven then 0 else 1;
  // one relation, linear in the accelerations and tau: the servo-constraint at acceleration level (a first
  // order Baumgarte term: a rate is prescribed, not an angle) or tau = the driving torque, divided by 1 kg.m2 so
  // that both branches are angular accelerations (unit-consistent) with the numbers of the torque in N.m
  servo*(dw_rel - a_law + gamma*(w_rel - w_law)) + (1 - servo)*(tau - T_drive*ramp)/J_unit = 0;
  p_0 = kB.r_0;
  f_0 = F_load_0*ramp;
  t_0 = tau*n_0;
  power = tau*w_rel + f_0*(kB.v_0 - kA.v_0 - cross(kA.w_0, kB.r_0 - kA.r_0));
  annotation(Documentation(info = "<html>
<p>The drive of a shaft, body B, in its housing, body A: a torque <code>tau</code> about A's z axis and a load
force <code>F_load_0</code> at B's centre of mass, both acting on B, their reaction on A. With
<code>torqueDriven = false</code> the spin rate of B relative to A follows the law
<code>w_law = omega (1 - exp(-t/t_ramp))</code>, a servo-constraint stated at acceleration level,
<code>w_rel' = w_law' - gamma (w_rel - w_law)</code>, whose reaction is <code>tau</code>; with
<code>torqueDriven = true</code>, <code>tau = T_drive (1 - exp(-t/t_ramp))</code>. The load rises alike. The
drive constrains nothing else: pair it with a support (<a href=\"modelica://Nonholonomic.Joints.PlanarSupport\">PlanarSupport</a>
leaves the shaft's centre free to move in the plane, as a bearing's inner ring on its balls).</p>
</html>"), Icon(graphics = {Text(textColor = {0, 0, 0}, extent = {{-150, -68}, {150, -98}}, textString = "omega=%omega"), Rectangle(lineColor = {0, 0, 0}, fillColor = {160, 160, 164}, fillPattern = FillPattern.HorizontalCylinder,
    extent = {{-80, -15}, {80, 15}}), Line(points = {{50, 40}, {70, 30}, {75, 0}, {70, -30}, {50, -40}}, thickness = 1),
    Text(textColor = {0, 0, 0}, extent = {{-80, -40}, {80, -60}}, textString = "omega(t)")}));
end ShaftDrive;
