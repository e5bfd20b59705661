within Nonholonomic.Joints;
model Revolute "Rigid revolute joint: B turns relative to A about a common axis through a common point"
  extends PartialRevolute;
  Units.Torque tau1 "Reaction torque on B along e1 (perpendicular to the axis)";
  Units.Torque tau2 "Reaction torque on B along e2 (perpendicular to the axis)";
equation
  dddelta_0 + 2*alpha*ddelta_0 + beta^2*delta_0 = {0.0, 0.0, 0.0};
  t_0 = tau1*e1_0 + tau2*e2_0;
  annotation(Documentation(info = "<html><p>Five relations: the joint points coincide (3) and the axes
stay parallel (2). The reaction is a force at the joint point and a torque perpendicular to the axis.</p></html>"));
end Revolute;
