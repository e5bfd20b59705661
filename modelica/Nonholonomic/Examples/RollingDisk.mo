within Nonholonomic.Examples;
model RollingDisk "Thin disk (homogeneous by default) rolling without slipping on a horizontal plane"
  parameter Units.Length R(min = 1e-6) = 0.1 "Disk radius";
  parameter Units.Mass m(min = 1e-9) = 1 "Disk mass";
  parameter Units.Acceleration g(min = 0) = 9.81 "Gravity acceleration";
  parameter Units.Angle theta_0(min = 0.05, max = 3.0916) = 1.4 "Initial angle between the disk's axis and the vertical (pi/2: upright; 0 or pi: flat)";
  parameter Units.Angle psi_0 = 0 "Initial precession angle (heading of the line of nodes)";
  parameter Units.Angle phi_0 = 0 "Initial spin angle";
  parameter Units.AngularVelocity dtheta_0 = 0 "Initial d theta/dt";
  parameter Units.AngularVelocity dpsi_0 = 1 "Initial d psi/dt";
  parameter Units.AngularVelocity dphi_0 = 15 "Initial d phi/dt";
  parameter Units.Position x_0 = 0 "Initial x of the contact point";
  parameter Units.Position y_0 = 0 "Initial y of the contact point";
  parameter Units.Inertia A(min = 0) = 0 "Central moment of inertia about a diameter (0: thin homogeneous disk, m R^2/4, following m and R)";
  parameter Units.Inertia C(min = 0) = 0 "Central moment of inertia about the symmetry axis, at most 2 A (0: thin homogeneous disk, m R^2/2, following m and R)";
  parameter Boolean unilateral = true "true: the run stops where the disk's normal force would turn negative (it would lift off); false: the plane may pull (the bilateral model)";
  // Evaluate = false: the values in use follow parameters set at run time (rumoca would fold an assert that reads
  // only final parameters at their build-time values)
  final parameter Units.Inertia A_used = if A > 0 then A else m*R^2/4 "Central moment of inertia about a diameter in use: A, or m R^2/4 if A = 0" annotation(Evaluate = false);
  final parameter Units.Inertia C_used = if C > 0 then C else m*R^2/2 "Central moment of inertia about the symmetry axis in use: C, or m R^2/2 if C = 0" annotation(Evaluate = false);
  final parameter Real d_start[3] = {sin(psi_0)*cos(theta_0), -cos(psi_0)*cos(theta_0), -sin(theta_0)} "Initial unit vector from the centre to the contact point";
  final parameter Units.AngularVelocity w_start[3] = Rotations.angularVelocityZXZ(psi_0, theta_0, dpsi_0, dtheta_0, dphi_0) "Initial angular velocity, world frame";
  Bodies.Ground ground(nW = 1) annotation(Placement(transformation(extent = {{-30, -10}, {-50, 10}})));
  Bodies.RigidBody disk(nW = 1, shapeType = Visualizers.cylinder, shapeSize = {2*R, 0, R/10}, color = {70, 120, 200}, m = m, I_b = {A_used, A_used, C_used}, g_0 = {0, 0, -g},
    r_0_start = {x_0, y_0, 0} - R*d_start, v_0_start = -R*cross(w_start, d_start),
    Q_start = Rotations.fromEulerZXZ(psi_0, theta_0, phi_0), w_0_start = w_start)
    annotation(Placement(transformation(extent = {{30, -10}, {50, 10}})));
  Contacts.DiskOnPlane contact(R = R, final n_b = {0, 0, 1}, unilateral = unilateral) annotation(Placement(transformation(extent = {{-10, -10}, {10, 10}})));
  output Units.Position r_0[3] = disk.r_0 "Centre of the disk";
  output Units.Quaternion Q[4] = disk.Q "Attitude of the disk (body z = symmetry axis)";
  output Units.Velocity v_0[3] = disk.v_0 "Velocity of the centre";
  output Units.AngularVelocity w_0[3] = disk.k.w_0 "Angular velocity, world frame";
  output Units.Position p_0[3] = contact.p_0 "Contact point";
  output Units.Energy energy = disk.energy "Total energy";
  output Units.Force N = contact.N "Normal reaction";
  output Units.Length gap = contact.gap "Drift of the holonomic constraint";
  output Units.Velocity slip = contact.slip "Drift of the rolling constraint";
equation
  assert(C_used <= (1 + 1e-9)*2*A_used, "RollingDisk: C must be at most 2 A (the triangle inequality of the inertia: a thin disk has C = 2 A, a thicker one less; A = 0 stands for m R^2/4)");
  assert(C_used <= (1 + 1e-9)*m*R^2, "RollingDisk: C must be at most m R^2 (the disk's mass lies within its radius R; a ring has C = m R^2)");
  connect(ground.k, contact.kA) annotation(Line(points = {{-30, 4}, {-10, 4}}, color = {0, 0, 255}));
  connect(disk.k, contact.kB) annotation(Line(points = {{30, 4}, {10, 4}}, color = {0, 0, 255}));
  connect(contact.wA, ground.w[1]) annotation(Line(points = {{-10, -4}, {-30, -4}}, color = {255, 128, 0}));
  connect(contact.wB, disk.w[1]) annotation(Line(points = {{10, -4}, {30, -4}}, color = {255, 128, 0}));
  annotation(experiment(StartTime = 0, StopTime = 10, Tolerance = 1e-10, Interval = 0.01),
    Documentation(info = "<html>
<p>A thin disk, axisymmetric with central moments of inertia <code>A</code> (about a diameter) and
<code>C</code> (about its axis), rolls without slipping on a horizontal plane. Their default 0 means those of a
thin homogeneous disk, <code>A = m R^2/4</code>, <code>C = m R^2/2</code>, which follow <code>m</code> and
<code>R</code>; a positive value is used as given. The values in use are <code>A_used</code> and
<code>C_used</code>. The first building block of Kosenko (2022), verified against the classical
equations of the rolling disk. The initial attitude is given by z-x-z Euler angles: precession <code>psi</code>,
nutation <code>theta</code> (angle between the disk's axis and the vertical, <code>pi/2</code> upright),
spin <code>phi</code>; the initial velocity of the centre follows from rolling without slipping.</p>
</html>"));
end RollingDisk;
