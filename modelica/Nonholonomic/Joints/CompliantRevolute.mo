within Nonholonomic.Joints;
model CompliantRevolute "Revolute joint with a spring-damper along its axis"
  extends PartialRevolute;
  parameter Real c(unit = "N/m", min = 0) = 1e5 "Stiffness along the axis";
  parameter Real d(unit = "N.s/m", min = 0) = 100 "Damping along the axis";
  Units.Length s "Displacement of B's joint point along the axis of A";
  Units.Velocity ds "ds/dt";
  Units.Force f_axis "Spring-damper force on B along the axis";
  Units.Force lambda1 "Reaction force on B along e1";
  Units.Force lambda2 "Reaction force on B along e2";
  Units.Torque tau1 "Reaction torque on B along e1";
  Units.Torque tau2 "Reaction torque on B along e2";
equation
  // e_k . delta = 0 for k = 1, 2, at acceleration level: d2/dt2 (e.delta) = e''.delta + 2 e'.delta' + e.delta''
  dde1_0*delta_0 + 2*(de1_0*ddelta_0) + e1_0*dddelta_0 + 2*alpha*(de1_0*delta_0 + e1_0*ddelta_0) + beta^2*(e1_0*delta_0) = 0;
  dde2_0*delta_0 + 2*(de2_0*ddelta_0) + e2_0*dddelta_0 + 2*alpha*(de2_0*delta_0 + e2_0*ddelta_0) + beta^2*(e2_0*delta_0) = 0;
  s = u_0*delta_0;
  ds = cross(kA.w_0, u_0)*delta_0 + u_0*ddelta_0;
  f_axis = -c*s - d*ds;
  f_0 = lambda1*e1_0 + lambda2*e2_0 + f_axis*u_0;
  t_0 = tau1*e1_0 + tau2*e2_0;
  annotation(Icon(graphics = {Rectangle(lineColor = {0, 0, 0}, fillColor = {160, 160, 164}, fillPattern = FillPattern.HorizontalCylinder, extent = {{-70, -30}, {-25, 30}}), Rectangle(lineColor = {0, 0, 0}, fillColor = {160, 160, 164}, fillPattern = FillPattern.HorizontalCylinder, extent = {{25, -30}, {70, 30}}), Line(points = {{-25, 0}, {-18, 10}, {-10, -10}, {-2, 10}, {6, -10}, {14, 10}, {25, 0}}, thickness = 0.5), Text(textColor = {0, 0, 0}, extent = {{-150, -68}, {150, -98}}, textString = "c=%c")}), Documentation(info = "<html><p>Four relations: the joint points stay on the axis of A (2) and
the axes stay parallel (2); along the axis, B is held by a linear spring-damper with stiffness
<code>c</code> and damping <code>d</code>. As <code>c</code> grows the joint tends to the rigid
<a href=\"modelica://Nonholonomic.Joints.Revolute\">Revolute</a>, without its static indeterminacy in
closed kinematic loops (Kosenko 2022, the wheelset).</p></html>"));
end CompliantRevolute;
