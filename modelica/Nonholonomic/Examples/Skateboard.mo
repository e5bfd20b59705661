within Nonholonomic.Examples;
model Skateboard "Skateboard with a rigid rider on two lean-to-steer trucks (Hubbard 1979; Kosenko and Kuleshov 2008)"
  parameter Units.Mass m(min = 1e-9) = 73 "Mass of the board and the rider (one rigid body)";
  parameter Units.Inertia A(min = 1e-12) = 12 "Central principal moment of inertia of board and rider about the board's longitudinal axis x";
  parameter Units.Inertia B(min = 1e-12) = 12 "Central principal moment of inertia about the board's lateral axis y";
  parameter Units.Inertia C(min = 1e-12) = 1.5 "Central principal moment of inertia about the board's normal z";
  parameter Units.Length a = 0.05 "Centre of mass ahead of the board's centre O (the midpoint of the axle centres)";
  parameter Units.Length h(min = 0) = 1.0 "Height of the centre of mass above the roll axis (the line through the axle centres)";
  parameter Units.Length l(min = 1e-6) = 0.2 "Half the distance between the axle centres";
  parameter Units.Length R(min = 1e-6) = 0.03 "Wheel radius";
  parameter Units.Length b(min = 1e-6) = 0.08 "Distance of each wheel from its axle centre (half track)";
  parameter Units.Angle lambda(min = 0, max = Constants.pi/2) = Constants.pi/4 "Inclination of the trucks' pivot axes to the board plane";
  parameter Real k(unit = "N.m/rad", min = 0) = 250 "Total restoring stiffness of the bushings about the roll axis (small tilt, level axles)";
  parameter Real c(unit = "N.m.s/rad", min = 0) = 0 "Total damping of the bushings about the roll axis";
  parameter Units.Mass m_w(min = 1e-9) = 0.01 "Mass of a wheel";
  parameter Units.Inertia A_w(min = 0) = 0 "Central moment of inertia of a wheel about a diameter (0: thin homogeneous disk, m_w R^2/4, following m_w and R)";
  parameter Units.Inertia C_w(min = 0) = 0 "Central moment of inertia of a wheel about its axis, at most 2 A_w (0: thin homogeneous disk, m_w R^2/2, following m_w and R)";
  parameter Units.Mass m_h(min = 1e-9) = 0.01 "Mass of a hanger";
  parameter Units.Inertia A_h(min = 1e-15) = 2.2e-5 "Central moment of inertia of a hanger about its x and z axes (a rod of length 2 b at the defaults)";
  parameter Units.Inertia C_h(min = 1e-15) = 1e-7 "Central moment of inertia of a hanger about its axle";
  parameter Real c_w(unit = "N/m", min = 0) = 1e5 "Stiffness of the wheels' joints along the axles";
  parameter Real d_w(unit = "N.s/m", min = 0) = 100 "Damping of the wheels' joints along the axles";
  parameter Units.Acceleration g(min = 0) = 9.81 "Gravity acceleration";
  parameter Units.Frequency alpha(min = 0) = 20 "Baumgarte damping rate of the joints and contacts";
  parameter Units.Frequency beta(min = 0) = 20 "Baumgarte stiffness of the joints and contacts";
  parameter Boolean unilateral = true "true: the run stops where a wheel's normal force would turn negative (it would lift off); false: the plane may pull (the planar model's wheels that never leave the ground)";
  parameter Units.Velocity V = 3 "Initial forward speed of O";
  parameter Units.Angle theta_0(min = -1.2, max = 1.2) = 0.02 "Initial tilt of the board about its longitudinal axis (> 0: leaning to its left)";
  parameter Units.AngularVelocity dtheta_0 = 0 "Initial rate of the tilt";
  parameter Units.Angle psi_0 = 0 "Initial heading of the board's longitudinal axis (from the world x, counter-clockwise)";
  parameter Units.Position x_0 = 0 "Initial x of O";
  parameter Units.Position y_0 = 0 "Initial y of O";
  // Bushings. Leaning the board by theta with level axles turns each hanger about its pivot by chi with
  // tan(chi) = +-tan(theta)/cos(lambda) (the axle a = T_board (cos(chi) y + sin(chi) n x y) is level, n the
  // pivot axis in the board's xz plane at lambda to the board), so chi = +-theta/cos(lambda) for small theta.
  // The two bushings store 2 k_t chi^2/2 = k_t theta^2/cos(lambda)^2 = k theta^2/2, hence
  // k_t = k cos(lambda)^2/2; their dissipation function 2 c_t dchi^2/2 = c dtheta^2/2 gives c_t likewise.
  final parameter Real k_t(unit = "N.m/rad") = k*cos(lambda)^2/2 "Torsional stiffness of each bushing about its pivot axis";
  final parameter Real c_t(unit = "N.m.s/rad") = c*cos(lambda)^2/2 "Torsional damping of each bushing about its pivot axis";
  final parameter Units.Position r_G_b[3] = {a, 0.0, h} "Centre of mass relative to O, board frame";
  // initial attitude: heading psi_0 about the world z, then the tilt theta_0 about the backward axis (-x):
  // the board's normal leans toward its left for theta_0 > 0
  final parameter Units.Quaternion Q_start[4] = Rotations.product(Rotations.fromAxisAngle({0.0, 0.0, 1.0}, psi_0),
    Rotations.fromAxisAngle({-1.0, 0.0, 0.0}, theta_0)) "Initial attitude of the board";
  final parameter Real T_start[3, 3](each unit = "1") = Rotations.rotationMatrix(Q_start) "Initial attitude matrix of the board";
  final parameter Real e_start[3](each unit = "1") = {cos(psi_0), sin(psi_0), 0.0} "Initial longitudinal (forward) axis of the board, horizontal";
  // initial steer angle from the front hanger's geometry: its angle chi about the pivot that levels the axle,
  // the axle's direction, and its angle to the board's lateral axis in the horizontal plane (the same
  // computation as in the truck; it equals atan(tan(lambda) sin(theta_0)))
  final parameter Real m_f[3](each unit = "1") = {-sin(lambda), 0.0, cos(lambda)} "n x y for the front pivot axis n = (cos(lambda), 0, sin(lambda)), board frame";
  final parameter Units.Angle chi_f0 = atan(-T_start[3, 2]/(T_start[3, :]*m_f)) "Initial angle of the front hanger about its pivot";
  final parameter Real a_f0[3](each unit = "1") = T_start*(cos(chi_f0)*{0.0, 1.0, 0.0} + sin(chi_f0)*m_f) "Initial front axle, world frame";
  final parameter Units.Angle delta_0 = atan2(T_start[1, 2]*a_f0[2] - T_start[2, 2]*a_f0[1], T_start[1, 2]*a_f0[1] + T_start[2, 2]*a_f0[2]) "Initial steer angle of the front axle";
  // rolling without lateral slip at both axle centres, the rear axle steered by -delta_0: no lateral
  // velocity of O, and the yaw rate V tan(delta_0)/l
  final parameter Units.AngularVelocity dpsi_0 = V*tan(delta_0)/l "Initial yaw rate";
  final parameter Units.AngularVelocity w_start[3] = {0.0, 0.0, dpsi_0} - dtheta_0*e_start "Initial angular velocity of the board";
  final parameter Units.Position r_start[3] = {x_0, y_0, R} + T_start*r_G_b "Initial centre of mass";
  final parameter Units.Velocity v_start[3] = V*e_start + cross(w_start, T_start*r_G_b) "Initial velocity of the centre of mass";
  Bodies.Ground ground(nW = 4) annotation(Placement(transformation(origin = {0, -40}, extent = {{-10, -10}, {10, 10}}, rotation = -90)));
  Bodies.RigidBody board(nW = 2, m = m, I_b = {A, B, C}, g_0 = {0.0, 0.0, -g}, r_0_start = r_start, v_0_start = v_start,
    Q_start = Q_start, w_0_start = w_start) annotation(Placement(transformation(origin = {0, 40}, extent = {{10, -10}, {-10, 10}}, rotation = -90)));
  Vehicles.SkateboardTruck front(final front = true, lambda = lambda, k = k_t, c = c_t, r_b = {l, 0.0, 0.0} - r_G_b, R = R, b = b,
    m_h = m_h, A_h = A_h, C_h = C_h, m_w = m_w, A_w = A_w, C_w = C_w, c_w = c_w, d_w = d_w, g_0 = {0.0, 0.0, -g},
    alpha = alpha, beta = beta, unilateral = unilateral, r_board_start = r_start, Q_board_start = Q_start, v_board_start = v_start,
    w_board_start = w_start) annotation(Placement(transformation(origin = {30, -0}, extent = {{-10, -10}, {10, 10}})));
  Vehicles.SkateboardTruck rear(final front = false, lambda = lambda, k = k_t, c = c_t, r_b = {-l, 0.0, 0.0} - r_G_b, R = R, b = b,
    m_h = m_h, A_h = A_h, C_h = C_h, m_w = m_w, A_w = A_w, C_w = C_w, c_w = c_w, d_w = d_w, g_0 = {0.0, 0.0, -g},
    alpha = alpha, beta = beta, unilateral = unilateral, r_board_start = r_start, Q_board_start = Q_start, v_board_start = v_start,
    w_board_start = w_start) annotation(Placement(transformation(origin = {-30, -0}, extent = {{-10, -10}, {10, 10}})));
  output Units.Angle theta = atan2(-board.T[3, 2], board.T[3, 3]) "Tilt of the board about its longitudinal axis (> 0: leaning to its left, the left side down)";
  output Units.AngularVelocity dtheta = -(board.k.w_0*board.T[:, 1]) "Rate of the tilt";
  output Units.Angle psi = atan2(board.T[2, 1], board.T[1, 1]) "Heading of the board's longitudinal axis, from the world x, counter-clockwise, in (-pi, pi]";
  output Units.AngularVelocity dpsi = (board.T[1, 1]*x_dot[2] - board.T[2, 1]*x_dot[1])/(board.T[1, 1]^2 + board.T[2, 1]^2) "Yaw rate d(psi)/dt";
  output Units.Velocity speed = v_O*e_h "Velocity of O along the board's horizontal longitudinal direction";
  output Units.Velocity lateralSpeed = v_O*{-e_h[2], e_h[1], 0.0} "Velocity of O across the board's longitudinal direction (horizontal, positive to the left)";
  output Units.Angle delta_f = front.delta "Steer angle of the front axle (> 0: turned counter-clockwise, toward a left turn)";
  output Units.Angle delta_b = rear.delta "Steer angle of the rear axle";
  output Units.Position x = r_O[1] "x of O";
  output Units.Position y = r_O[2] "y of O";
  output Units.Energy energy = board.energy + front.energy + rear.energy "Total energy: kinetic, gravity, bushing springs, springs along the axles";
  output Units.Force N[4] = cat(1, front.N, rear.N) "Normal forces of the plane on the wheels: front left, front right, rear left, rear right";
  output Units.Length gap = max(front.gap, rear.gap) "Largest drift of the holonomic contact constraints";
  output Units.Velocity slip = max(front.slip, rear.slip) "Largest drift of the rolling constraints";
  Visualizers.Shape deck(shapeType = Visualizers.box, shapeSize = {2*l + 0.2, 0.22, 0.015}, color = {190, 140, 90},
    r_0 = board.r_0 - board.T*r_G_b, T = board.T) "The deck at O (animation; the board's ellipsoid of inertia stands for its rider)";
protected
  Units.Position r_O[3] "Board's centre O, world frame";
  Units.Velocity v_O[3] "Velocity of O, world frame";
  Real x_dot[3](each unit = "1/s") "Rate of the board's longitudinal axis, world frame";
  Real e_h[3](each unit = "1") "Board's longitudinal axis projected on the horizontal plane, normalised";
equation
  assert(h > 0, "rider below the board: the height h of the centre of mass above the roll axis must be positive");
  r_O = board.r_0 - board.T*r_G_b;
  v_O = board.v_0 - cross(board.k.w_0, board.T*r_G_b);
  x_dot = cross(board.k.w_0, board.T[:, 1]);
  e_h = {board.T[1, 1], board.T[2, 1], 0.0}/sqrt(board.T[1, 1]^2 + board.T[2, 1]^2);
  connect(board.k, front.kBoard) annotation(Line(points = {{4, 30}, {4, 20}, {30, 20}, {30, 10}}, color = {0, 0, 255}));
  connect(board.k, rear.kBoard) annotation(Line(points = {{4, 30}, {4, 20}, {-30, 20}, {-30, 10}}, color = {0, 0, 255}));
  connect(front.wBoard, board.w[1]) annotation(Line(points = {{34, 10}, {34, 20}, {-4, 20}, {-4, 30}}, color = {255, 128, 0}));
  connect(rear.wBoard, board.w[2]) annotation(Line(points = {{-26, 10}, {-26, 20}, {-4, 20}, {-4, 30}}, color = {255, 128, 0}));
  connect(ground.k, front.kGround) annotation(Line(points = {{4, -30}, {4, -20}, {30, -20}, {30, -10}}, color = {0, 0, 255}));
  connect(ground.k, rear.kGround) annotation(Line(points = {{4, -30}, {4, -20}, {-30, -20}, {-30, -10}}, color = {0, 0, 255}));
  connect(front.wGround[1], ground.w[1]) annotation(Line(points = {{34, -10}, {34, -20}, {-4, -20}, {-4, -30}}, color = {255, 128, 0}));
  connect(front.wGround[2], ground.w[2]) annotation(Line(points = {{34, -10}, {34, -20}, {-4, -20}, {-4, -30}}, color = {255, 128, 0}));
  connect(rear.wGround[1], ground.w[3]) annotation(Line(points = {{-26, -10}, {-26, -20}, {-4, -20}, {-4, -30}}, color = {255, 128, 0}));
  connect(rear.wGround[2], ground.w[4]) annotation(Line(points = {{-26, -10}, {-26, -20}, {-4, -20}, {-4, -30}}, color = {255, 128, 0}));
  annotation(experiment(StartTime = 0, StopTime = 10, Tolerance = 1e-8, Interval = 0.01),
    Documentation(info = "<html>
<p>The skateboard of Hubbard (J. Appl. Mech. 46, 1979) as modelled in Modelica by Kosenko and Kuleshov
(6th Modelica Conference, 2008): the board and a rigid rider standing perpendicular to it are one rigid
body (mass <code>m = 73 kg</code>, central principal moments <code>A = B = 12</code>, <code>C = 1.5 kg m^2</code>
about the board's axes x forward, y left, z normal to the board), its centre of mass <code>h = 1 m</code>
above the roll axis and <code>a = 0.05 m</code> ahead of the board's centre <code>O</code>. Two
<a href=\"modelica://Nonholonomic.Vehicles.SkateboardTruck\">SkateboardTrucks</a> carry it: each a light hanger
on an elastic pivot (the bushing) whose axis, inclined at <code>lambda = 45 deg</code> to the board, passes
through the axle centre; the axle centres are at <code>O +- l</code> along the board (<code>l = 0.2 m</code>),
so the roll axis is the line through them. Each hanger carries two light wheels (radius <code>R = 0.03 m</code>,
at <code>+-b = +-0.08 m</code>) on compliant revolute joints, rolling without slipping on the plane
<code>z = 0</code>. The constraints keep the axles level and the roll axis horizontal at the height
<code>R</code>: leaning the board by <code>theta</code> steers the front axle by <code>delta</code>,
<code>tan(delta) = tan(lambda) sin(theta)</code>, and the rear axle by <code>-delta</code>, and the board
turns into its lean with the yaw rate <code>V tan(delta)/l</code>.</p>
<p>Bushings: <code>k</code> is the total restoring stiffness about the roll axis for a small tilt; a tilt
<code>theta</code> with level axles turns each hanger about its pivot by <code>chi</code>,
<code>tan(chi) = +-tan(theta)/cos(lambda)</code>, so each bushing has the stiffness
<code>k cos(lambda)^2/2</code> about its pivot (and the damping <code>c cos(lambda)^2/2</code>).</p>
<p>Linearised about the straight run at the speed <code>V</code> the tilt obeys
<code>(A + m h^2) theta'' + (c + m a h V tan(lambda)/l) theta' + (k - m g h + m h V^2 tan(lambda)/l) theta = 0</code>:
below the critical speed <code>sqrt(l (m g h - k)/(m h tan(lambda)))</code> (1.1 m/s for the defaults)
the board falls; above it the tilt oscillates and decays for <code>a V > 0</code>, grows for
<code>a V < 0</code> (with <code>c = 0</code>).</p>
<p>Conventions: <code>theta > 0</code> when the board leans to its left (its left edge down; a rotation
about the backward axis); <code>psi</code> is the heading of the board's longitudinal axis from the world
x, counter-clockwise; <code>delta_f</code>, <code>delta_b</code> are the steer angles of the axles,
counter-clockwise about the world z (a left turn for the front axle).</p>
<p>Initial state: the roll axis horizontal at the height <code>R</code>, <code>O</code> at
<code>(x_0, y_0)</code>, heading <code>psi_0</code>, tilt <code>theta_0</code> and tilt rate
<code>dtheta_0</code>, <code>O</code> moving with the speed <code>V</code> along the board, the yaw rate
<code>V tan(delta_0)/l</code> with the steer angle <code>delta_0</code> computed from the front hanger's
geometry; the trucks turn their hangers so that the axles are level (and keep them level at the rate that
<code>dtheta_0</code> needs) and spin the wheels so that they roll. The wheels and hangers are light
(10 g), the axle joints stiff (<code>c_w = 1e5 N/m</code>) with a little damping.</p>
</html>"), Icon(graphics = {Rectangle(lineColor = {0, 0, 0}, fillColor = {200, 150, 100}, fillPattern = FillPattern.Solid,
    extent = {{-90, -10}, {90, 10}}, radius = 8), Ellipse(lineColor = {0, 0, 0}, fillColor = {60, 60, 60}, fillPattern = FillPattern.Solid,
    extent = {{-70, -40}, {-50, -20}}), Ellipse(lineColor = {0, 0, 0}, fillColor = {60, 60, 60}, fillPattern = FillPattern.Solid,
    extent = {{50, -40}, {70, -20}})}));
end Skateboard;
