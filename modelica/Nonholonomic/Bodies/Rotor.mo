within Nonholonomic.Bodies;
model Rotor "Axisymmetric rotor on a frictionless axle fixed in a carrier body: 2 states (angle and rate on the axle)"
  extends Interfaces.PartialBody;
  parameter Units.Mass m(min = 1e-9) = 1 "Mass";
  parameter Units.Inertia I_a(min = 1e-20) = 1 "Central moment of inertia about the axle (the rotor's axis of symmetry)";
  parameter Units.Inertia I_t(min = 1e-20) = 1 "Central moment of inertia about any axis across the axle through the centre";
  parameter Units.Acceleration g_0[3] = {0, 0, -9.81} "Gravity acceleration, world frame";
  parameter Units.Position p_a[3] = {0, 0, 0} "Centre of the rotor relative to the carrier's centre of mass, carrier frame";
  parameter Units.Quaternion Q_mount[4] = {1, 0, 0, 0} "Attitude of the rotor's frame relative to the carrier's frame at phi = 0 (unit quaternion)";
  parameter Real n_b[3](each min = -1, each max = 1) = {1, 0, 0} "Unit axle direction, rotor frame";
  parameter Units.Angle phi_start = 0 "Initial rotation angle on the axle";
  parameter Units.AngularVelocity w_rel_start = 0 "Initial angular velocity relative to the carrier, about the axle";
  final parameter Real T_mount[3, 3] = Rotations.rotationMatrix(Q_mount) "Resolves rotor-frame vectors at phi = 0 in the carrier frame";
  final parameter Real n_a[3] = T_mount*n_b "Unit axle direction, carrier frame";
  Interfaces.KinematicInput kCarrier "Kinematics of the carrier body" annotation(Placement(transformation(origin = {-40, 100}, extent = {{-10, -10}, {10, 10}}, rotation = -90)));
  Interfaces.WrenchOutput wCarrier "The axle's reaction on the carrier, at the rotor's centre" annotation(Placement(transformation(origin = {40, 100}, extent = {{-10, -10}, {10, 10}}, rotation = 90)));
  Units.Angle phi(start = phi_start, fixed = true) "Rotation angle relative to the carrier, about the axle";
  Units.AngularVelocity w_rel(start = w_rel_start, fixed = true) "Angular velocity relative to the carrier, about the axle";
  Units.AngularAcceleration z_rel "Angular acceleration relative to the carrier, about the axle (d w_rel/dt)";
  Units.Position r_0[3] "Position of the centre of mass, world frame";
  Units.Velocity v_0[3] "Velocity of the centre of mass, world frame";
  Units.Acceleration a_0[3] "Acceleration of the centre of mass, world frame";
  Units.AngularVelocity w_0[3] "Angular velocity, world frame";
  Units.AngularAcceleration z_0[3] "Angular acceleration, world frame";
  Real T[3, 3] "Rotation matrix: resolves rotor-frame vectors in the world frame";
  Real n_0[3] "Unit axle direction, world frame";
  Units.Force f_axle_0[3] "Force of the axle on the rotor, world frame";
  Units.Torque t_axle_0[3] "Torque of the axle on the rotor, world frame (across the axle: frictionless)";
  Units.Energy kineticEnergy "Kinetic energy";
  Units.Energy energy "Kinetic energy plus potential energy of gravity (zero at the world origin)";
protected
  Units.Position rho_0[3] "Centre of the rotor relative to the carrier's centre of mass, world frame";
  Real R_phi[3, 3] "Rotation by phi about n_b (Rodrigues' formula)";
  Real H_0[3](each unit = "kg.m2/s") "Angular momentum about the centre of mass, world frame";
  Units.Torque dH_0[3] "Time derivative of the angular momentum about the centre of mass, world frame";
equation
  // an axisymmetric body's moments satisfy I_a <= 2 I_t (the triangle inequality I_a <= I_t + I_t)
  assert(I_a <= (1 + 1e-9)*2*I_t, "Rotor: I_a must be at most 2 I_t (the triangle inequality of the principal moments: a thin disk has I_a = 2 I_t)");
  der(phi) = w_rel;
  der(w_rel) = z_rel;
  // kinematics: the centre is a point of the carrier; the rotor turns by phi about the axle fixed in the carrier
  rho_0 = kCarrier.T*p_a;
  n_0 = kCarrier.T*n_a;
  r_0 = kCarrier.r_0 + rho_0;
  v_0 = kCarrier.v_0 + cross(kCarrier.w_0, rho_0);
  a_0 = kCarrier.a_0 + cross(kCarrier.z_0, rho_0) + cross(kCarrier.w_0, cross(kCarrier.w_0, rho_0));
  R_phi = [cos(phi) + (1 - cos(phi))*n_b[1]^2, (1 - cos(phi))*n_b[1]*n_b[2] - sin(phi)*n_b[3], (1 - cos(phi))*n_b[1]*n_b[3] + sin(phi)*n_b[2];
           (1 - cos(phi))*n_b[2]*n_b[1] + sin(phi)*n_b[3], cos(phi) + (1 - cos(phi))*n_b[2]^2, (1 - cos(phi))*n_b[2]*n_b[3] - sin(phi)*n_b[1];
           (1 - cos(phi))*n_b[3]*n_b[1] - sin(phi)*n_b[2], (1 - cos(phi))*n_b[3]*n_b[2] + sin(phi)*n_b[1], cos(phi) + (1 - cos(phi))*n_b[3]^2];
  T = kCarrier.T*T_mount*R_phi;
  w_0 = kCarrier.w_0 + w_rel*n_0;
  // d n_0/dt = w_carrier x n_0
  z_0 = kCarrier.z_0 + z_rel*n_0 + w_rel*cross(kCarrier.w_0, n_0);
  // Newton: the axle's force carries the rotor along with the carrier's point
  m*a_0 = f_0 + f_axle_0 + m*g_0;
  // Euler about the centre for a body axisymmetric about n: H = I_t w + (I_a - I_t)(n.w) n, and
  // dH/dt = I z + w x I w = I_t z + (I_a - I_t)(n.z) n + (I_a - I_t)(n.w)(w x n)
  H_0 = I_t*w_0 + (I_a - I_t)*(n_0*w_0)*n_0;
  dH_0 = I_t*z_0 + (I_a - I_t)*(n_0*z_0)*n_0 + (I_a - I_t)*(n_0*w_0)*cross(w_0, n_0);
  dH_0 = t_0 + t_axle_0;
  // frictionless axle, n.t_axle = 0; with n.(w x n) = 0 and n.(w_carrier x n) = 0 this is I_a (n.z_carrier + z_rel) = n.t
  I_a*(n_0*kCarrier.z_0 + z_rel) = n_0*t_0;
  // third law: the carrier gets the opposite wrench at the rotor's centre
  wCarrier.f_0 = -f_axle_0;
  wCarrier.t_0 = -t_axle_0;
  wCarrier.p_0 = r_0;
  kineticEnergy = 0.5*m*(v_0*v_0) + 0.5*(w_0*H_0);
  energy = kineticEnergy - m*(g_0*r_0);
  k.r_0 = r_0;
  k.T = T;
  k.v_0 = v_0;
  k.w_0 = w_0;
  k.a_0 = a_0;
  k.z_0 = z_0;
  annotation(Documentation(info = "<html>
<p>A rigid body, axisymmetric about its axle, mounted on a carrier body by a frictionless axle through its
centre of mass (what the Modelica Standard Library's <code>MultiBody.Parts.Rotor1D</code> with 3-D effects
does for rotors mounted on bodies). It has two states, its angle <code>phi</code> on the axle relative to the
carrier and its rate <code>w_rel</code>, instead of a free <a href=\"modelica://Nonholonomic.Bodies.RigidBody\">RigidBody</a>
(13 states) held by a <a href=\"modelica://Nonholonomic.Joints.Revolute\">Revolute</a> joint (five
constraint relations): the same physics, without the stiff joint and the fast quaternion of a spinning body.
It reads the carrier's kinematics through <code>kCarrier</code>, exports its own through <code>k</code> like
RigidBody (constraints acting on it connect there and to <code>w[nW]</code>), and returns the axle's
reaction to the carrier through <code>wCarrier</code>.</p>
<p>With the carrier's centre <code>r_A</code>, attitude <code>T_A</code>, velocity, angular velocity
<code>w_A</code>, acceleration and angular acceleration <code>z_A</code>, and <code>rho = T_A p_a</code>,
<code>n = T_A n_a</code> (<code>n_a = T_mount n_b</code>):</p>
<pre>
r_0 = r_A + rho                 T = T_A T_mount R(n_b, phi)
v_0 = v_A + w_A x rho           w_0 = w_A + phi' n
a_0 = a_A + z_A x rho + w_A x (w_A x rho)
z_0 = z_A + phi'' n + phi' (w_A x n)
m a_0 = f + f_axle + m g
I z_0 + w_0 x I w_0 = t + t_axle,   n . t_axle = 0   (I = I_t 1 + (I_a - I_t) n n^T)
  =>  I_a (n . z_A + phi'') = n . t
</pre>
<p>where <code>f</code>, <code>t</code> are the resultant of the constraints acting on the rotor (about its
centre); the carrier receives <code>-f_axle</code>, <code>-t_axle</code> at the rotor's centre. The energy
outputs are those of RigidBody.</p>
</html>"), Icon(graphics = {Text(textColor = {0, 0, 0}, extent = {{-150, -68}, {150, -98}}, textString = "I_a=%I_a"), Rectangle(lineColor = {0, 0, 0}, fillColor = {255, 85, 85}, fillPattern = FillPattern.HorizontalCylinder,
    extent = {{-60, -40}, {60, 40}}, radius = 20), Line(points = {{-90, 0}, {90, 0}}, thickness = 1),
    Text(textColor = {0, 0, 255}, extent = {{-150, 70}, {150, 100}}, textString = "%name")}));
end Rotor;
