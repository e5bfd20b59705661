within Nonholonomic.Bodies;
model RigidBody "Rigid body: Newton-Euler equations in principal axes, quaternion attitude, gravity"
  extends Interfaces.PartialBody;
  parameter Units.Mass m(min = 1e-9) = 1 "Mass";
  parameter Units.Inertia I_b[3](each min = 1e-20) = {1, 1, 1} "Principal central moments of inertia (body frame axes are the principal axes; > 0: the Euler equations divide by them)";
  parameter Units.Acceleration g_0[3] = {0, 0, -9.81} "Gravity acceleration, world frame";
  parameter Units.Position r_0_start[3] = {0, 0, 0} "Initial position of the centre of mass, world frame";
  parameter Units.Velocity v_0_start[3] = {0, 0, 0} "Initial velocity of the centre of mass, world frame";
  parameter Units.Quaternion Q_start[4] = {1, 0, 0, 0} "Initial attitude, unit quaternion (scalar part first)";
  parameter Units.AngularVelocity w_0_start[3] = {0, 0, 0} "Initial angular velocity, world frame";
  parameter Units.Frequency k_Q(min = 0) = 1 "Rate at which a drift of the quaternion norm is pulled back to 1";
  Units.Position r_0[3](start = r_0_start, each fixed = true) "Position of the centre of mass, world frame";
  Units.Velocity v_0[3](start = v_0_start, each fixed = true) "Velocity of the centre of mass, world frame";
  Units.Quaternion Q[4](start = Q_start, each fixed = true) "Attitude quaternion (scalar part first)";
  Units.AngularVelocity w_b[3](start = Rotations.resolveInBody(Q_start, w_0_start), each fixed = true) "Angular velocity, body frame";
  Units.Acceleration a_0[3] "Acceleration of the centre of mass, world frame";
  Units.AngularAcceleration z_b[3] "Angular acceleration, body frame";
  Real T[3, 3] "Rotation matrix: resolves body-frame vectors in the world frame";
  Units.Torque t_b[3] "Resultant torque about the centre of mass, body frame";
  Units.Energy kineticEnergy "Kinetic energy";
  Units.Energy energy "Kinetic energy plus potential energy of gravity (zero at the world origin)";
equation
  // a mass distribution's principal moments satisfy the triangle inequalities (I_1 + I_2 - I_3 = 2 sum m z^2 >= 0);
  // the slack 1e-9 admits a lamina's equality (a thin disk: C = 2 A) computed with round-off
  assert(I_b[1] <= (1 + 1e-9)*(I_b[2] + I_b[3]) and I_b[2] <= (1 + 1e-9)*(I_b[3] + I_b[1]) and I_b[3] <= (1 + 1e-9)*(I_b[1] + I_b[2]),
    "RigidBody: the principal moments of inertia I_b violate the triangle inequality: each must be at most the sum of the other two (no mass distribution has them)");
  der(r_0) = v_0;
  der(v_0) = a_0;
  m*a_0 = f_0 + m*g_0;
  // Quaternion kinematics (Kosenko 2022, sec. 3) with a term that keeps |Q| = 1 against integration drift
  der(Q) = Rotations.kinematics(Q, w_b) + k_Q*(1 - Q*Q)*Q;
  T = Rotations.rotationMatrix(Q);
  der(w_b) = z_b;
  // Euler's equations in principal axes; the seed paper prints them without I on dOmega/dt (a misprint)
  t_b = transpose(T)*t_0;
  I_b .* z_b + cross(w_b, I_b .* w_b) = t_b;
  kineticEnergy = 0.5*m*(v_0*v_0) + 0.5*(w_b*(I_b .* w_b));
  energy = kineticEnergy - m*(g_0*r_0);
  k.r_0 = r_0;
  k.T = T;
  k.v_0 = v_0;
  k.w_0 = T*w_b;
  k.a_0 = a_0;
  k.z_0 = T*z_b;
  annotation(Documentation(info = "<html>
<p>Newton's equation for the centre of mass in the world frame, Euler's equations in the principal central
axes, and the quaternion kinematics <code>dQ/dt = 1/2 Q o (0, w_b)</code> (Kosenko 2022, sec. 3); 13 states.
Initial angular velocity is given in the world frame.</p>
</html>"), Icon(graphics = {Text(textColor = {0, 0, 0}, extent = {{-150, -68}, {150, -98}}, textString = "m=%m"), Ellipse(lineColor = {0, 0, 0}, fillColor = {255, 85, 85}, fillPattern = FillPattern.Sphere,
    extent = {{-60, -60}, {60, 60}}), Text(textColor = {0, 0, 255}, extent = {{-150, 70}, {150, 100}}, textString = "%name")}));
end RigidBody;
