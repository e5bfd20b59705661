within Nonholonomic.Vehicles;
model OmniVehicle "Vehicle on omni-wheels with massive rollers, rolling with friction on a horizontal plane"
  parameter Integer nWheels(min = 1) = 3 "Number of wheels (N)";
  parameter Integer nRollers(min = 2) = 4 "Number of rollers per wheel (n)";
  parameter Units.Length R_p(min = 1e-6) = 0.15 "Distance of the wheels' centres from the platform's centre";
  parameter Units.Length R_w(min = 1e-6) = 0.05 "Wheel radius";
  parameter Units.Angle alpha[nWheels] = 2*Constants.pi*(0:nWheels - 1)/nWheels "Directions of the wheels' axles in the platform's frame";
  parameter Units.Mass m_p(min = 1e-9) = 1 "Mass of the platform";
  parameter Units.Inertia I_p[3](each min = 1e-12) = {0.005625, 0.005625, 0.01125} "Principal central moments of inertia of the platform, z vertical (default: thin homogeneous disk of radius R_p, m_p R_p^2 {1/4, 1/4, 1/2} at the default m_p, R_p)";
  parameter Units.Mass m_w(min = 1e-9) = 0.15 "Total mass of a wheel: hub and rollers";
  parameter Real eta(min = 1e-12, max = 1/nRollers - 1e-9) = 0.01 "Mass of one roller over the total mass of its wheel (below 1/nRollers: the hub keeps a positive mass)";
  parameter Real mu(min = 0) = 0.5 "Coefficient of friction between rollers and plane";
  parameter Units.Velocity v_eps(min = 1e-12) = 1e-3 "Regularisation speed of the friction";
  parameter Units.Acceleration g(min = 0) = 9.81 "Gravity acceleration";
  parameter Units.Position x_0 = 0 "Initial x of the platform's centre";
  parameter Units.Position y_0 = 0 "Initial y of the platform's centre";
  parameter Units.Angle psi_0 = 0 "Initial heading of the platform";
  parameter Units.Velocity v_0[2] = {0, 0.0} "Initial velocity of the platform's centre, world frame";
  parameter Units.AngularVelocity omega_0 = 1 "Initial angular velocity of the platform";
  parameter Units.Angle chi_0[nWheels] = zeros(nWheels) "Initial rotation of the wheels about their axles (0: roller 1 on top)";
  // initial state of wheel i from scalars of its axle's heading theta_i = psi_0 + alpha[i] (rows of 2-D
  // parameter arrays, A[i], are beyond rumoca's own simulator): axle n_i = (cos, sin, 0) theta_i, centre
  // velocity v_0 + omega_0 R_p (e_z x n_i), rolling rate s_i = (v_i . (e_z x n_i))/R_w about -n_i
  final parameter Units.AngularVelocity s_0[nWheels] = {(v_0[2]*cos(psi_0 + alpha[i]) - v_0[1]*sin(psi_0 + alpha[i])
    + omega_0*R_p)/R_w for i in 1:nWheels} "Initial rolling rates of the wheels about their axles";
  Bodies.Ground ground(nW = nWheels*nRollers) annotation(Placement(transformation(extent = {{-10, -90}, {10, -70}})));
  Bodies.RigidBody platform(nW = nWheels, m = m_p, I_b = I_p, g_0 = {0, 0, -g}, r_0_start = {x_0, y_0, R_w},
    v_0_start = {v_0[1], v_0[2], 0.0}, Q_start = Rotations.fromAxisAngle({0.0, 0.0, 1.0}, psi_0), w_0_start = {0.0, 0.0, omega_0})
    annotation(Placement(transformation(extent = {{-10, 60}, {10, 80}})));
  // hub frames: z along the axle, x up (a half turn about (1, 0, 1) then alpha about the vertical)
  OmniWheel wheel[nWheels](each nRollers = nRollers, each R_w = R_w, each m_w = m_w, each eta = eta, each mu = mu, each v_eps = v_eps,
    each g_0 = {0, 0, -g}, r_0_start = {{x_0 + R_p*cos(psi_0 + alpha[i]), y_0 + R_p*sin(psi_0 + alpha[i]), R_w}
      for i in 1:nWheels},
    v_0_start = {{v_0[1] - omega_0*R_p*sin(psi_0 + alpha[i]), v_0[2] + omega_0*R_p*cos(psi_0 + alpha[i]), 0.0}
      for i in 1:nWheels},
    Q_start = {Rotations.product(Rotations.product(Rotations.fromAxisAngle({0.0, 0.0, 1.0}, psi_0 + alpha[i]),
      {0.0, sqrt(0.5), 0.0, sqrt(0.5)}), Rotations.fromAxisAngle({0.0, 0.0, 1.0}, chi_0[i])) for i in 1:nWheels},
    // rolling without slipping in the wheel's plane: d chi/dt = -s_i
    w_0_start = {{-s_0[i]*cos(psi_0 + alpha[i]), -s_0[i]*sin(psi_0 + alpha[i]), omega_0} for i in 1:nWheels})
    annotation(Placement(transformation(extent = {{-10, -10}, {10, 10}})));
  Joints.Revolute axle[nWheels](p_a = {R_p*{cos(alpha[i]), sin(alpha[i]), 0.0} for i in 1:nWheels},
    n_a = {{cos(alpha[i]), sin(alpha[i]), 0.0} for i in 1:nWheels}, each final p_b = {0.0, 0.0, 0.0},
    each final n_b = {0.0, 0.0, 1.0})
    annotation(Placement(transformation(extent = {{-10, 30}, {10, 50}})));
  output Units.Position x = platform.r_0[1] "x of the platform's centre";
  output Units.Position y = platform.r_0[2] "y of the platform's centre";
  output Units.Angle psi = atan2(platform.T[2, 1], platform.T[1, 1]) "Heading of the platform, in (-pi, pi]";
  output Units.Velocity vx = platform.v_0[1] "x velocity of the platform's centre";
  output Units.Velocity vy = platform.v_0[2] "y velocity of the platform's centre";
  output Units.AngularVelocity omega = platform.k.w_0[3] "Angular velocity of the platform about the vertical";
  output Units.Energy kineticEnergy "Kinetic energy of the vehicle";
  Interfaces.RealOutput contactRoller[nWheels] "Index of the roller in contact on each wheel";
  Interfaces.RealOutput slip[nWheels](each unit = "m/s") "Slip speed at each wheel's contact";
  Interfaces.RealOutput N_contact[nWheels](each unit = "N") "Normal reaction at each wheel";
protected
  Interfaces.RealOutput wheelEnergy[nWheels](each unit = "J") "Kinetic energy of each wheel";
equation
  kineticEnergy = platform.kineticEnergy + sum(wheelEnergy);
  connect(wheel.kineticEnergy, wheelEnergy);
  connect(wheel.contactRoller, contactRoller);
  connect(wheel.slip, slip);
  connect(wheel.normalForce, N_contact);
  for i in 1:nWheels loop
    connect(platform.k, axle[i].kA);
    connect(wheel[i].k, axle[i].kB);
    connect(axle[i].wA, platform.w[i]);
    connect(axle[i].wB, wheel[i].w);
    connect(ground.k, wheel[i].kGround);
    connect(wheel[i].wGround, ground.w[(i - 1)*nRollers + 1:i*nRollers]);
  end for;
  annotation(Documentation(info = "<html>
<p>A vehicle on omni-wheels with massive rollers (Gerasimov 2018, ch. 3): a platform carries <code>nWheels</code>
<a href=\"modelica://Nonholonomic.Vehicles.OmniWheel\">OmniWheels</a> on revolute joints, their axles
horizontal along the directions <code>alpha</code> at distance <code>R_p</code> from the centre; the rollers
touch the plane with friction. With <code>nWheels = 3</code>, <code>nRollers = 4</code> it has 16 bodies. The initial
state is given by the platform's velocity and angular velocity; the wheels start rolling without slipping
in their planes, the rollers at rest on their hubs. As the rollers' mass tends to zero the motion tends to
that of the massless-roller (nonholonomic) model. The platform's inertia <code>I_p</code> defaults to that of
a thin homogeneous disk of radius <code>R_p</code> at the default <code>m_p</code>, <code>R_p</code> and does not
follow them: set it too when changing those.</p>
</html>"), Icon(graphics = {Polygon(lineColor = {0, 0, 0}, fillColor = {220, 220, 220}, fillPattern = FillPattern.Solid,
    points = {{0, 80}, {70, -40}, {-70, -40}, {0, 80}}), Text(textColor = {0, 0, 255}, extent = {{-150, 90}, {150, 120}}, textString = "%name")}));
end OmniVehicle;
