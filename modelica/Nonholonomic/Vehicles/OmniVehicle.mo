within Nonholonomic.Vehicles;
model OmniVehicle "Vehicle on omni-wheels with massive rollers, rolling with friction on a horizontal plane (any number and layout of wheels)"
  parameter Integer nWheels(min = 1) = 3 "Number of wheels (N)";
  parameter Integer nRollers(min = 2) = 4 "Number of rollers per wheel (n)";
  parameter Units.Length R_p(min = 0) = 0.15 "Symmetric layout: distance of the wheels' centres from the reference point (sets the defaults of xWheel and yWheel)";
  parameter Units.Length R_w(min = 1e-6) = 0.05 "Wheel radius";
  parameter Units.Angle alpha[nWheels] = 2*Constants.pi*(0:nWheels - 1)/nWheels "Symmetric layout: directions of the wheels from the reference point (sets the defaults of xWheel, yWheel and axleAngle)";
  parameter Units.Position xWheel[nWheels] = {R_p*cos(alpha[i]) for i in 1:nWheels} "x of each wheel's centre relative to the reference point O, platform frame";
  parameter Units.Position yWheel[nWheels] = {R_p*sin(alpha[i]) for i in 1:nWheels} "y of each wheel's centre relative to the reference point O, platform frame";
  parameter Units.Angle axleAngle[nWheels] = alpha "Direction of each wheel's axle, angle from the platform's x axis (default: radial, as in Gerasimov 2018)";
  parameter Units.Position r_C[2] = {0, 0} "Centre of mass of the platform body relative to the reference point O, platform frame";
  parameter Boolean truncated = false "Truncated rollers (Gerasimov 2018, ch. 1-2: axes at R_w cos(pi/(n - 1)), finite radius at the ends) instead of untruncated spindles (ch. 3: axes at R_w cos(pi/n))";
  parameter Units.Length R1(min = 0, max = R_w*cos(Constants.pi/nRollers)) = if truncated then R_w*cos(Constants.pi/(nRollers - 1)) else R_w*cos(Constants.pi/nRollers) "Distance of the rollers' axes from their wheel's centre (default from truncated)";
  parameter Units.Angle delta(min = 0, max = Constants.pi) = Constants.pi/2 "Angle from each wheel's plane to the line along which its lowest roller lets the contact slide (Borisov, Kilin, Mamaev 2011), strictly between 0 and pi: pi/2 omni-wheels, pi/4 or 3 pi/4 mecanum wheels (needs nRollers >= 3)";
  parameter Units.Mass m_p(min = 1e-9) = 1 "Mass of the platform";
  parameter Units.Inertia I_p[3](each min = 0) = {0, 0, 0} "Principal central moments of inertia of the platform, z vertical (0: thin homogeneous disk of radius R_p, m_p R_p^2 {1/4, 1/4, 1/2}, following m_p and R_p)";
  parameter Units.Mass m_w(min = 1e-9) = 0.15 "Total mass of a wheel: hub and rollers";
  parameter Real eta(min = 1e-12, max = 1/nRollers - 1e-9) = 0.01 "Mass of one roller over the total mass of its wheel (below 1/nRollers: the hub keeps a positive mass)";
  parameter Real mu(min = 0) = 0.5 "Coefficient of friction between rollers and plane";
  parameter Units.Velocity v_eps(min = 1e-12) = 1e-3 "Regularisation speed of the friction";
  parameter Units.Acceleration g(min = 0) = 9.81 "Gravity acceleration";
  parameter Boolean suspended = nWheels > 3 "Wheels on vertical spring-dampers instead of rigid axles (needed for more than three wheels: with rigid axles their normal forces are statically indeterminate)";
  parameter Real c_s(unit = "N/m", min = 0) = 1e5 "Stiffness of each wheel's suspension (if suspended)";
  parameter Real d_s(unit = "N.s/m", min = 0) = 300 "Damping of each wheel's suspension (if suspended)";
  parameter Units.Position x_0 = 0 "Initial x of the reference point O";
  parameter Units.Position y_0 = 0 "Initial y of the reference point O";
  parameter Units.Angle psi_0 = 0 "Initial heading of the platform";
  parameter Units.Velocity v_0[2] = {0, 0.0} "Initial velocity of the reference point O, world frame";
  parameter Units.AngularVelocity omega_0 = 1 "Initial angular velocity of the platform";
  parameter Units.Angle chi_0[nWheels] = zeros(nWheels) "Initial rotation of the wheels about their axles (0: roller 1 on top)";
  // initial state of wheel i from scalars of its axle's heading theta_i = psi_0 + axleAngle[i] (rows of 2-D
  // parameter arrays, A[i], are beyond rumoca's own simulator): axle n_i = (cos, sin, 0) theta_i, centre
  // p_i = Rz(psi_0) (xWheel, yWheel), its velocity v_0 + omega_0 e_z x p_i, rolling rate
  // s_i = (v_i . (e_z x n_i))/R_w about -n_i, with (e_z x p_i).(e_z x n_i) = p_i.n_i. Mecanum wheels (gamma =
  // pi/2 - delta): no sliding along the lowest roller's axis, horizontally alpha_i = sin(delta) e_i - cos(delta) n_i
  // with e_i = n_i x e_z, i.e. the rate (v_i . alpha_i)/(R_w sin(delta)) about n_i (BKM 2011): the term
  // tan(gamma) (v_i . n_i)/R_w more, with (e_z x p_i).n_i = (p_i x n_i)_z
  // Evaluate = false: follows parameters set at run time (not folded at build time)
  final parameter Units.Inertia I_p_used[3] = {if I_p[1] > 0 then I_p[1] else m_p*R_p^2/4, if I_p[2] > 0 then I_p[2] else m_p*R_p^2/4,
    if I_p[3] > 0 then I_p[3] else m_p*R_p^2/2} "Principal central moments of inertia of the platform in use: I_p, each 0 replaced by that of the thin disk" annotation(Evaluate = false);
  final parameter Units.Angle gamma = Constants.pi/2 - delta "Tilt of the rollers' axes out of the wheels' planes (0: omni-wheels)";
  final parameter Units.AngularVelocity s_0[nWheels] = {(v_0[2]*cos(psi_0 + axleAngle[i]) - v_0[1]*sin(psi_0 + axleAngle[i])
    + omega_0*(xWheel[i]*cos(axleAngle[i]) + yWheel[i]*sin(axleAngle[i])))/R_w
    + tan(gamma)*(v_0[1]*cos(psi_0 + axleAngle[i]) + v_0[2]*sin(psi_0 + axleAngle[i])
    + omega_0*(xWheel[i]*sin(axleAngle[i]) - yWheel[i]*cos(axleAngle[i])))/R_w for i in 1:nWheels} "Initial rolling rates of the wheels about their axles";
  final parameter Units.Position rC_0[2] = {cos(psi_0)*r_C[1] - sin(psi_0)*r_C[2], sin(psi_0)*r_C[1] + cos(psi_0)*r_C[2]} "Initial offset of the platform's centre of mass from O, world frame";
  final parameter Units.Position pW_0[nWheels, 2] = {{cos(psi_0)*xWheel[i] - sin(psi_0)*yWheel[i], sin(psi_0)*xWheel[i] + cos(psi_0)*yWheel[i]} for i in 1:nWheels} "Initial offsets of the wheels' centres from O, world frame";
  Bodies.Ground ground(nW = nWheels*nRollers) annotation(Placement(transformation(origin = {0, -75}, extent = {{-15, -15}, {15, 15}}, rotation = -90)));
  Bodies.RigidBody platform(nW = nWheels, shapeType = Visualizers.cylinder, shapeSize = {1.6*R_p, 0, R_w/3}, color = {190, 140, 90}, m = m_p, I_b = I_p_used, g_0 = {0, 0, -g}, r_0_start = {x_0 + rC_0[1], y_0 + rC_0[2], R_w},
    v_0_start = {v_0[1] - omega_0*rC_0[2], v_0[2] + omega_0*rC_0[1], 0.0}, Q_start = Rotations.fromAxisAngle({0.0, 0.0, 1.0}, psi_0),
    w_0_start = {0.0, 0.0, omega_0})
    annotation(Placement(transformation(origin = {0, 75}, extent = {{15, -15}, {-15, 15}}, rotation = -90)));
  // hub frames: z along the axle, x up (a half turn about (1, 0, 1) then the axle's heading about the vertical)
  OmniWheel wheel[nWheels](each nRollers = nRollers, each R_w = R_w, each R1 = R1, each delta = delta, each m_w = m_w, each eta = eta, each mu = mu,
    each v_eps = v_eps, each g_0 = {0, 0, -g},
    r_0_start = {{x_0 + pW_0[i, 1], y_0 + pW_0[i, 2], R_w} for i in 1:nWheels},
    v_0_start = {{v_0[1] - omega_0*pW_0[i, 2], v_0[2] + omega_0*pW_0[i, 1], 0.0} for i in 1:nWheels},
    Q_start = {Rotations.product(Rotations.product(Rotations.fromAxisAngle({0.0, 0.0, 1.0}, psi_0 + axleAngle[i]),
      {0.0, sqrt(0.5), 0.0, sqrt(0.5)}), Rotations.fromAxisAngle({0.0, 0.0, 1.0}, chi_0[i])) for i in 1:nWheels},
    // rolling without slipping in the wheel's plane: d chi/dt = -s_i
    w_0_start = {{-s_0[i]*cos(psi_0 + axleAngle[i]), -s_0[i]*sin(psi_0 + axleAngle[i]), omega_0} for i in 1:nWheels})
    annotation(Placement(transformation(origin = {0, -25}, extent = {{-15, -15}, {15, 15}}, rotation = -90)));
  // the axles: rigid revolute joints (three wheels), or revolute joints on vertical spring-dampers (suspended)
  Joints.Revolute axle[nWheels](p_a = {{xWheel[i] - r_C[1], yWheel[i] - r_C[2], 0.0} for i in 1:nWheels},
    n_a = {{cos(axleAngle[i]), sin(axleAngle[i]), 0.0} for i in 1:nWheels}, each final p_b = {0.0, 0.0, 0.0},
    each final n_b = {0.0, 0.0, 1.0}) if not suspended
    annotation(Placement(transformation(origin = {35, 25}, extent = {{-15, -15}, {15, 15}}, rotation = -90)));
  Joints.SuspendedRevolute suspension[nWheels](p_a = {{xWheel[i] - r_C[1], yWheel[i] - r_C[2], 0.0} for i in 1:nWheels},
    n_a = {{cos(axleAngle[i]), sin(axleAngle[i]), 0.0} for i in 1:nWheels}, each final p_b = {0.0, 0.0, 0.0},
    each final n_b = {0.0, 0.0, 1.0}, each final s_a = {0.0, 0.0, 1.0}, each c = c_s, each d = d_s) if suspended
    annotation(Placement(transformation(origin = {-35, 25}, extent = {{-15, -15}, {15, 15}}, rotation = -90)));
  output Units.Position x "x of the reference point O";
  output Units.Position y "y of the reference point O";
  output Units.Angle psi = atan2(platform.T[2, 1], platform.T[1, 1]) "Heading of the platform, in (-pi, pi]";
  output Units.Velocity vx "x velocity of the reference point O";
  output Units.Velocity vy "y velocity of the reference point O";
  output Units.AngularVelocity omega = platform.k.w_0[3] "Angular velocity of the platform about the vertical";
  output Units.Energy kineticEnergy "Kinetic energy of the vehicle";
  Interfaces.RealOutput contactRoller[nWheels] "Index of the roller in contact on each wheel" annotation(Placement(transformation(extent = {{100, 70}, {120, 90}})));
  Interfaces.RealOutput slip[nWheels](each unit = "m/s") "Slip speed at each wheel's contact" annotation(Placement(transformation(extent = {{100, 50}, {120, 70}})));
  Interfaces.RealOutput N_contact[nWheels](each unit = "N") "Normal reaction at each wheel" annotation(Placement(transformation(extent = {{100, 30}, {120, 50}})));
  Interfaces.RealOutput xContact[nWheels](each unit = "m") "x of each wheel's contact point (0 while none)" annotation(Placement(transformation(extent = {{100, 10}, {120, 30}})));
  Interfaces.RealOutput yContact[nWheels](each unit = "m") "y of each wheel's contact point (0 while none)" annotation(Placement(transformation(extent = {{100, -10}, {120, 10}})));
protected
  Interfaces.RealOutput wheelEnergy[nWheels](each unit = "J") "Kinetic energy of each wheel" annotation(Placement(transformation(extent = {{100, -30}, {120, -10}})));
  Units.Position rC_w[3] "Centre of mass of the platform relative to O, world frame";
equation
  assert(I_p_used[1] > 0 and I_p_used[2] > 0 and I_p_used[3] > 0, "OmniVehicle: the platform's moments of inertia must be positive (I_p = 0 stands for m_p R_p^2 {1/4, 1/4, 1/2}, none when R_p = 0): set I_p");
  rC_w = platform.T*{r_C[1], r_C[2], 0.0};
  x = platform.r_0[1] - rC_w[1];
  y = platform.r_0[2] - rC_w[2];
  vx = platform.v_0[1] - (platform.k.w_0[2]*rC_w[3] - platform.k.w_0[3]*rC_w[2]);
  vy = platform.v_0[2] - (platform.k.w_0[3]*rC_w[1] - platform.k.w_0[1]*rC_w[3]);
  kineticEnergy = platform.kineticEnergy + sum(wheelEnergy);
  connect(wheel.kineticEnergy, wheelEnergy) annotation(Line(points = {{-6, -40}, {-6, -44}, {106, -44}, {106, -20}, {110, -20}}, color = {0, 0, 255}));
  connect(wheel.contactRoller, contactRoller) annotation(Line(points = {{12, -40}, {12, -44}, {106, -44}, {106, 80}, {110, 80}}, color = {0, 0, 127}));
  connect(wheel.slip, slip) annotation(Line(points = {{6, -40}, {6, -44}, {106, -44}, {106, 60}, {110, 60}}, color = {0, 0, 127}));
  connect(wheel.normalForce, N_contact) annotation(Line(points = {{0, -40}, {0, -44}, {106, -44}, {106, 40}, {110, 40}}, color = {0, 0, 127}));
  for i in 1:nWheels loop
    connect(platform.k, axle[i].kA) annotation(Line(points = {{6, 60}, {6, 50}, {41, 50}, {41, 40}}, color = {0, 0, 255}));
    connect(wheel[i].k, axle[i].kB) annotation(Line(points = {{6, -10}, {6, 0}, {41, 0}, {41, 10}}, color = {0, 0, 255}));
    connect(axle[i].wA, platform.w[i]) annotation(Line(points = {{29, 40}, {29, 50}, {-6, 50}, {-6, 60}}, color = {255, 128, 0}));
    connect(axle[i].wB, wheel[i].w) annotation(Line(points = {{29, 10}, {29, 0}, {-6, 0}, {-6, -10}}, color = {255, 128, 0}));
    connect(platform.k, suspension[i].kA) annotation(Line(points = {{6, 60}, {6, 50}, {-29, 50}, {-29, 40}}, color = {0, 0, 255}));
    connect(wheel[i].k, suspension[i].kB) annotation(Line(points = {{6, -10}, {6, 0}, {-29, 0}, {-29, 10}}, color = {0, 0, 255}));
    connect(suspension[i].wA, platform.w[i]) annotation(Line(points = {{-41, 40}, {-41, 50}, {-6, 50}, {-6, 60}}, color = {255, 128, 0}));
    connect(suspension[i].wB, wheel[i].w) annotation(Line(points = {{-41, 10}, {-41, 0}, {-6, 0}, {-6, -10}}, color = {255, 128, 0}));
    xContact[i] = wheel[i].contactPoint[1];
    yContact[i] = wheel[i].contactPoint[2];
    connect(ground.k, wheel[i].kGround) annotation(Line(points = {{6, -60}, {6, -56}, {-19, -56}, {-19, -25}, {-15, -25}}, color = {0, 0, 255}));
    connect(wheel[i].wGround, ground.w[(i-1)*nRollers+1:i*nRollers]) annotation(Line(points = {{-15, -31}, {-19, -31}, {-19, -56}, {-6, -56}, {-6, -60}}, color = {255, 128, 0}));
  end for;
  annotation(Documentation(info = "<html>
<p>A vehicle on omni-wheels with massive rollers (Gerasimov 2018, ch. 3): a platform carries <code>nWheels</code>
<a href=\"modelica://Nonholonomic.Vehicles.OmniWheel\">OmniWheels</a> on revolute joints, their axles
horizontal; the rollers touch the plane with friction. With <code>nWheels = 3</code>, <code>nRollers = 4</code>
it has 16 bodies. As the rollers' mass tends to zero the motion tends to that of the massless-roller
(nonholonomic) model (<code>nonholonomic.references.omni_massless</code>).</p>
<p><b>Layout.</b> The platform's reference point O is the origin of its frame; the outputs <code>x</code>,
<code>y</code>, <code>vx</code>, <code>vy</code> are those of O, <code>psi</code> the platform's heading. Wheel
<code>i</code> has its centre at (<code>xWheel[i]</code>, <code>yWheel[i]</code>) in the platform frame and its
axle along the angle <code>axleAngle[i]</code>; the platform body's centre of mass is at <code>r_C</code>. The
defaults are the symmetric layout of the thesis: wheels at distance <code>R_p</code> in the directions
<code>alpha</code>, axles radial, <code>r_C = 0</code>. With more than three wheels the normal forces are
statically indeterminate on rigid axles: <code>suspended</code> (default for <code>nWheels &gt; 3</code>) mounts
each wheel on a vertical spring-damper (<a href=\"modelica://Nonholonomic.Joints.SuspendedRevolute\">SuspendedRevolute</a>,
<code>c_s</code>, <code>d_s</code>); the platform then sinks by its weight over the springs' stiffness (about
2.5e-5 m at the defaults) in a damped transient at the start.</p>
<p><b>Rollers.</b> <code>truncated = false</code> (default): untruncated spindles, axes at
<code>R_w cos(pi/n)</code>, the contact radius vanishes at each junction (ch. 3). <code>truncated = true</code>:
the truncated rollers of ch. 1-2, axes at <code>R_w cos(pi/(n - 1))</code>, contact radius at least
<code>R_w (cos(pi/n) - cos(pi/(n - 1)))</code>. <code>R1</code> may also be set directly. Either way each roller
covers <code>2 pi/n</code> of the rim, and the change of the roller in contact is a state event. <code>delta</code>
(default <code>pi/2</code>, omni-wheels) makes them mecanum wheels: <code>pi/4</code> tilts the rollers' axes by 45
degrees out of the wheels' planes (<a href=\"modelica://Nonholonomic.Examples.MecanumVehicle\">MecanumVehicle</a>);
the wheels then start with the rates of Borisov, Kilin and Mamaev's constraint, no sliding along the lowest
rollers' axes.</p>
<p><b>Start.</b> The initial state is given by the velocity of O and the angular velocity; the wheels start
rolling without slipping in their planes, the rollers at rest on their hubs except the one in contact, which
rolls. The platform's moments of inertia <code>I_p</code> default to 0, which means those of a thin homogeneous
disk of radius <code>R_p</code>, <code>m_p R_p^2 {1/4, 1/4, 1/2}</code>, following <code>m_p</code> and
<code>R_p</code> (each element separately); the values in use are <code>I_p_used</code>.</p>
</html>"), Icon(graphics = {Text(textColor = {0, 0, 0}, extent = {{-150, -68}, {150, -98}}, textString = "N=%nWheels"), Polygon(lineColor = {0, 0, 0}, fillColor = {220, 220, 220}, fillPattern = FillPattern.Solid,
    points = {{0, 80}, {70, -40}, {-70, -40}, {0, 80}}), Text(textColor = {0, 0, 255}, extent = {{-150, 90}, {150, 120}}, textString = "%name")}));
end OmniVehicle;
