within Nonholonomic.Joints;
model SphericalHinge "Spherical hinge: a point of body A and a point of body B coincide"
  extends Interfaces.PartialConstraint;
  parameter Units.Position p_a[3] = {0, 0, 0} "Hinge point in body A, relative to A's centre of mass, frame of A";
  parameter Units.Position p_b[3] = {0, 0, 0} "Hinge point in body B, relative to B's centre of mass, frame of B";
  parameter Units.Frequency alpha(min = 0) = 20 "Baumgarte damping rate of the constraint velocity drift";
  parameter Units.Frequency beta(min = 0) = 20 "Baumgarte stiffness of the constraint position drift";
  Units.Position delta_0[3] "Position of B's hinge point relative to A's, world frame (0 when the constraint holds)";
protected
  Units.Position rhoA_0[3] "Hinge point of A relative to A's centre of mass, world frame";
  Units.Position rhoB_0[3] "Hinge point of B relative to B's centre of mass, world frame";
  Units.Velocity ddelta_0[3] "d delta_0/dt";
  Units.Acceleration dddelta_0[3] "d2 delta_0/dt2";
equation
  rhoA_0 = kA.T*p_a;
  rhoB_0 = kB.T*p_b;
  delta_0 = kB.r_0 + rhoB_0 - kA.r_0 - rhoA_0;
  ddelta_0 = kB.v_0 + cross(kB.w_0, rhoB_0) - kA.v_0 - cross(kA.w_0, rhoA_0);
  dddelta_0 = kB.a_0 + cross(kB.z_0, rhoB_0) + cross(kB.w_0, cross(kB.w_0, rhoB_0))
    - kA.a_0 - cross(kA.z_0, rhoA_0) - cross(kA.w_0, cross(kA.w_0, rhoA_0));
  dddelta_0 + 2*alpha*ddelta_0 + beta^2*delta_0 = {0.0, 0.0, 0.0};
  p_0 = kB.r_0 + rhoB_0;
  t_0 = {0.0, 0.0, 0.0};
  annotation(Icon(graphics = {Line(points = {{-70, 0}, {-32, 0}}, thickness = 1), Line(points = {{25, 0}, {70, 0}}, thickness = 1), Ellipse(lineColor = {0, 0, 0}, fillColor = {160, 160, 164}, fillPattern = FillPattern.Sphere, extent = {{-25, -25}, {25, 25}}), Line(points = {{-14, 36}, {-30, 22}, {-36, 0}, {-30, -22}, {-14, -36}}, thickness = 1, smooth = Smooth.Bezier), Text(textColor = {0, 0, 0}, extent = {{-150, -68}, {150, -98}}, textString = "p_b=%p_b")}), Documentation(info = "<html><p>Three relations: the hinge points of A and B coincide. The
reaction is a force at the hinge point, without torque (Bizyaev, Borisov, Mamaev 2013, eq. (1.1)).</p></html>"));
end SphericalHinge;
