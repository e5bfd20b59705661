within Nonholonomic.Joints;
model PlanarSupport "Frictionless support keeping body B's centre at a fixed height and a body axis vertical (body A is the world)"
  extends Interfaces.PartialConstraint;
  parameter Units.Position h = 0 "Height of B's centre of mass";
  parameter Real u_b[3] = {0, 0, 1} "Body axis of B kept vertical, body frame";
  parameter Units.Frequency alpha(min = 0) = 20 "Baumgarte damping rate of the constraint velocity drift";
  parameter Units.Frequency beta(min = 0) = 20 "Baumgarte stiffness of the constraint position drift";
  Units.Force N "Vertical reaction on B";
  Units.Torque tau1 "Reaction torque on B about the world x axis";
  Units.Torque tau2 "Reaction torque on B about the world y axis";
protected
  Real u_0[3] "Axis u_b, world frame";
  Real du_0[3](each unit = "1/s") "du_0/dt";
  Real ddu_0[3](each unit = "1/s2") "d2u_0/dt2";
equation
  u_0 = kB.T*u_b;
  du_0 = cross(kB.w_0, u_0);
  ddu_0 = cross(kB.z_0, u_0) + cross(kB.w_0, du_0);
  kB.a_0[3] + 2*alpha*kB.v_0[3] + beta^2*(kB.r_0[3] - h) = 0;
  ddu_0[1] + 2*alpha*du_0[1] + beta^2*u_0[1] = 0;
  ddu_0[2] + 2*alpha*du_0[2] + beta^2*u_0[2] = 0;
  p_0 = kB.r_0;
  f_0 = {0.0, 0.0, N};
  t_0 = {tau1, tau2, 0.0};
  annotation(Icon(graphics = {Line(points = {{-80, -44}, {80, -44}}, thickness = 0.5), Rectangle(lineColor = {255, 255, 255}, fillColor = {160, 160, 164}, fillPattern = FillPattern.Backward, extent = {{-80, -56}, {80, -45}}), Ellipse(lineColor = {0, 0, 0}, fillColor = {255, 85, 85}, fillPattern = FillPattern.Sphere, extent = {{-16, -4}, {16, 28}}), Line(points = {{0, -42}, {0, -6}}, pattern = LinePattern.Dash), Line(points = {{-45, 12}, {-22, 12}}, arrow = {Arrow.None, Arrow.Filled}), Line(points = {{45, 12}, {22, 12}}, arrow = {Arrow.None, Arrow.Filled}), Text(textColor = {0, 0, 0}, extent = {{-150, -68}, {150, -98}}, textString = "h=%h")}), Documentation(info = "<html><p>Three holonomic relations keep the motion of B planar: its centre
of mass at height <code>h</code> and its axis <code>u_b</code> vertical. The reaction (a vertical force at
the centre of mass and a horizontal torque) does no work, so the motion in the plane is free: add a
<a href=\"modelica://Nonholonomic.Contacts.KnifeEdge\">KnifeEdge</a> for the Chaplygin sleigh.</p></html>"));
end PlanarSupport;
