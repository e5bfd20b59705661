within Nonholonomic.Joints;
model SuspendedRevolute "Revolute joint on a spring-damper: B's joint point travels along a direction of A across the axis, optionally driven"
  extends PartialRevolute;
  parameter Real s_a[3] = {0, 0, 1} "Unit direction of the travel, frame of A (perpendicular to n_a)";
  parameter Real c(unit = "N/m", min = 0) = 1e5 "Stiffness along the travel";
  parameter Real d(unit = "N.s/m", min = 0) = 300 "Damping along the travel";
  parameter Units.Force f_pre = 0 "Preload: the spring's force on B along s_a at zero travel (the static share of the weight carried, to start without a transient)";
  input Units.Torque tau = 0 "Drive torque on B about the axis (on A the opposite)";
  Units.Length s "Travel of B's joint point along s_a, from A's joint point";
  Units.Velocity ds "ds/dt";
  Units.Force f_s "Spring-damper force on B along the travel";
  Units.Force lambda_u "Reaction force on B along the axis";
  Units.Force lambda_h "Reaction force on B across the axis and the travel";
  Units.Torque tau1 "Reaction torque on B along e1 (perpendicular to the axis)";
  Units.Torque tau2 "Reaction torque on B along e2 (perpendicular to the axis)";
protected
  final parameter Real h_a[3] = cross(s_a, n_a) "Unit vector across the axis and the travel, frame of A";
  Real s_0[3] "Travel direction, world frame";
  Real h_0[3] "h_a, world frame";
  Real du_0[3](each unit = "1/s") "du_0/dt";
  Real dh_0[3](each unit = "1/s") "dh_0/dt";
  Real ddu_0[3](each unit = "1/s2") "d2u_0/dt2";
  Real ddh_0[3](each unit = "1/s2") "d2h_0/dt2";
equation
  s_0 = kA.T*s_a;
  h_0 = kA.T*h_a;
  du_0 = cross(kA.w_0, u_0);
  dh_0 = cross(kA.w_0, h_0);
  ddu_0 = cross(kA.z_0, u_0) + cross(kA.w_0, du_0);
  ddh_0 = cross(kA.z_0, h_0) + cross(kA.w_0, dh_0);
  // B's joint point stays on the line through A's joint point along s: u.delta = h.delta = 0, at acceleration
  // level with Baumgarte terms: d2/dt2 (e.delta) = e''.delta + 2 e'.delta' + e.delta''
  ddu_0*delta_0 + 2*(du_0*ddelta_0) + u_0*dddelta_0 + 2*alpha*(du_0*delta_0 + u_0*ddelta_0) + beta^2*(u_0*delta_0) = 0;
  ddh_0*delta_0 + 2*(dh_0*ddelta_0) + h_0*dddelta_0 + 2*alpha*(dh_0*delta_0 + h_0*ddelta_0) + beta^2*(h_0*delta_0) = 0;
  s = s_0*delta_0;
  ds = cross(kA.w_0, s_0)*delta_0 + s_0*ddelta_0;
  f_s = f_pre - c*s - d*ds;
  f_0 = lambda_u*u_0 + lambda_h*h_0 + f_s*s_0;
  t_0 = tau1*e1_0 + tau2*e2_0 + tau*u_0;
  annotation(Icon(graphics = {Rectangle(lineColor = {0, 0, 0}, fillColor = {160, 160, 164}, fillPattern = FillPattern.HorizontalCylinder, extent = {{-70, -30}, {-25, 30}}), Rectangle(lineColor = {0, 0, 0}, fillColor = {160, 160, 164}, fillPattern = FillPattern.HorizontalCylinder, extent = {{25, -30}, {70, 30}}), Rectangle(lineColor = {0, 0, 0}, fillColor = {255, 255, 255}, fillPattern = FillPattern.HorizontalCylinder, extent = {{-25, -10}, {25, 10}}), Line(points = {{0, -45}, {0, 45}}, pattern = LinePattern.DashDot), Line(points = {{50, 30}, {50, 34}, {40, 38}, {60, 42}, {40, 46}, {60, 50}, {50, 54}}, thickness = 0.5), Text(textColor = {0, 0, 0}, extent = {{-150, -68}, {150, -98}}, textString = "c=%c")}), Documentation(info = "<html><p>A revolute joint whose point on B may travel along a direction
<code>s_a</code> of A across the axis (a wheel's suspension: <code>s_a</code> vertical in the platform), held
there by a linear spring-damper (stiffness <code>c</code>, damping <code>d</code>, preload
<code>f_pre</code>). Four relations: B's joint point stays on the line of travel (2) and the axes stay
parallel (2). A vehicle on more than three wheels needs such a compliance: with rigid axles the normal forces
of its contacts are statically indeterminate (Kosenko 2022; the wheelset) and its linear block singular. A
drive torque <code>tau</code> about the axis acts on B, the opposite on A, as in
<a href=\"modelica://Nonholonomic.Joints.Revolute\">Revolute</a>.</p></html>"));
end SuspendedRevolute;
