within Nonholonomic.Vehicles;
model SkateboardTruck "Skateboard truck: a hanger on an elastic pivot (the bushing) with an axle and two wheels rolling on the plane"
  parameter Boolean front = true "true: front truck (pivot axis leaning forward, toward the nose); false: rear truck (the mirror image, toward the tail)";
  parameter Units.Angle lambda(min = 0, max = Constants.pi/2) = Constants.pi/4 "Inclination of the pivot axis to the board plane (0 < lambda < pi/2)";
  parameter Real k(unit = "N.m/rad", min = 0) = 62.5 "Torsional stiffness of the bushing about the pivot axis";
  parameter Real c(unit = "N.m.s/rad", min = 0) = 0 "Torsional damping of the bushing about the pivot axis";
  parameter Units.Position r_b[3] = {0.2, 0.0, -1.0} "Axle centre (on the pivot axis) relative to the board's centre of mass, board frame";
  parameter Units.Length R(min = 1e-6) = 0.03 "Wheel radius";
  parameter Units.Length b(min = 1e-6) = 0.08 "Distance of each wheel from the axle centre (half track)";
  parameter Units.Mass m_h(min = 1e-9) = 0.01 "Mass of the hanger (its centre of mass is the axle centre)";
  parameter Units.Inertia A_h(min = 1e-15) = 2.2e-5 "Central moment of inertia of the hanger about its x and z axes";
  parameter Units.Inertia C_h(min = 1e-15) = 1e-7 "Central moment of inertia of the hanger about the axle (its y axis)";
  parameter Units.Mass m_w(min = 1e-9) = 0.01 "Mass of a wheel";
  parameter Units.Inertia A_w(min = 0) = 0 "Central moment of inertia of a wheel about a diameter (0: thin homogeneous disk, m_w R^2/4, following m_w and R)";
  parameter Units.Inertia C_w(min = 0) = 0 "Central moment of inertia of a wheel about its axis, at most 2 A_w (0: thin homogeneous disk, m_w R^2/2, following m_w and R)";
  parameter Real c_w(unit = "N/m", min = 0) = 1e5 "Stiffness of the wheels' joints along the axle";
  parameter Real d_w(unit = "N.s/m", min = 0) = 100 "Damping of the wheels' joints along the axle";
  parameter Units.Acceleration g_0[3] = {0.0, 0.0, -9.81} "Gravity acceleration, world frame";
  parameter Units.Frequency alpha(min = 0) = 20 "Baumgarte damping rate of the pivot, the axle joints and the contacts";
  parameter Units.Frequency beta(min = 0) = 20 "Baumgarte stiffness of the pivot, the axle joints and the contacts";
  parameter Boolean unilateral = true "true: the run stops where a wheel's normal force would turn negative (it would lift off); false: the plane may pull (the planar model's wheels that never leave the ground)";
  parameter Units.Position r_board_start[3] = {0.0, 0.0, 1.03} "Initial centre of mass of the board, world frame";
  parameter Units.Quaternion Q_board_start[4] = {1.0, 0.0, 0.0, 0.0} "Initial attitude of the board (x forward, y left, z normal to the board)";
  parameter Units.Velocity v_board_start[3] = {0.0, 0.0, 0.0} "Initial velocity of the board's centre of mass, world frame";
  parameter Units.AngularVelocity w_board_start[3] = {0.0, 0.0, 0.0} "Initial angular velocity of the board, world frame";
  // Evaluate = false: follows parameters set at run time (not folded at build time)
  final parameter Units.Inertia A_w_used = if A_w > 0 then A_w else m_w*R^2/4 "Central moment of inertia of a wheel about a diameter in use: A_w, or m_w R^2/4 if A_w = 0" annotation(Evaluate = false);
  final parameter Units.Inertia C_w_used = if C_w > 0 then C_w else m_w*R^2/2 "Central moment of inertia of a wheel about its axis in use: C_w, or m_w R^2/2 if C_w = 0" annotation(Evaluate = false);
  final parameter Real n_b[3](each unit = "1") = {if front then cos(lambda) else -cos(lambda), 0.0, sin(lambda)} "Unit pivot axis, frame of the board and of the hanger (upper end toward the near end of the board)";
  final parameter Real m_b[3](each unit = "1") = cross(n_b, {0.0, 1.0, 0.0}) "n_b x y: the direction into which the hanger's axle turns, board frame";
  final parameter Real T_board_start[3, 3](each unit = "1") = Rotations.rotationMatrix(Q_board_start) "Initial attitude matrix of the board";
  // the axle a = T_board (cos(chi) y + sin(chi) n_b x y) (n_b has no y component) is level when
  // cos(chi) p + sin(chi) q = 0, p = (T_board y)_z, q = (T_board (n_b x y))_z
  final parameter Real p_start(unit = "1") = T_board_start[3, 2] "Height component of the board's lateral axis at the start";
  final parameter Real q_start(unit = "1") = T_board_start[3, :]*m_b "Height component of n_b x y at the start";
  final parameter Units.Angle chi_start = atan(-p_start/q_start) "Initial angle of the hanger about the pivot: the axle level";
  final parameter Real dp_start(unit = "1/s") = cross(w_board_start, T_board_start[:, 2])*{0.0, 0.0, 1.0} "Rate of p at the start";
  final parameter Real dq_start(unit = "1/s") = cross(w_board_start, T_board_start*m_b)*{0.0, 0.0, 1.0} "Rate of q at the start";
  final parameter Units.AngularVelocity dchi_start = -(cos(chi_start)*dp_start + sin(chi_start)*dq_start)
    /(cos(chi_start)*q_start - sin(chi_start)*p_start) "Initial rate of the hanger about the pivot: the axle stays level";
  final parameter Units.Quaternion Q_hanger_start[4] = Rotations.product(Q_board_start, Rotations.fromAxisAngle(n_b, chi_start)) "Initial attitude of the hanger and the wheels";
  final parameter Real T_hanger_start[3, 3](each unit = "1") = Rotations.rotationMatrix(Q_hanger_start) "Initial attitude matrix of the hanger";
  final parameter Real a_start[3](each unit = "1") = T_hanger_start[:, 2] "Initial axle direction (hanger y), world frame";
  final parameter Real f_start[3](each unit = "1") = cross(a_start, {0.0, 0.0, 1.0})/sqrt(a_start[1]^2 + a_start[2]^2) "Initial rolling direction: horizontal, perpendicular to the axle";
  final parameter Units.Position r_hanger_start[3] = r_board_start + T_board_start*r_b "Initial axle centre";
  final parameter Units.Velocity v_hanger_start[3] = v_board_start + cross(w_board_start, T_board_start*r_b) "Initial velocity of the axle centre";
  final parameter Units.AngularVelocity w_hanger_start[3] = w_board_start + dchi_start*(T_board_start*n_b) "Initial angular velocity of the hanger";
  final parameter Units.Velocity v1_start[3] = v_hanger_start + cross(w_hanger_start, b*a_start) "Initial velocity of wheel 1's centre";
  final parameter Units.Velocity v2_start[3] = v_hanger_start - cross(w_hanger_start, b*a_start) "Initial velocity of wheel 2's centre";
  Interfaces.KinematicInput kBoard "Kinematics of the board" annotation(Placement(transformation(origin = {0, 100}, extent = {{-10, -10}, {10, 10}}, rotation = -90)));
  Interfaces.WrenchOutput wBoard "Wrench of the pivot on the board" annotation(Placement(transformation(extent = {{30, 90}, {50, 110}})));
  Interfaces.KinematicInput kGround "Kinematics of the ground" annotation(Placement(transformation(origin = {0, -100}, extent = {{-10, -10}, {10, 10}}, rotation = 90)));
  Interfaces.WrenchOutput wGround[2] "Wrenches of the two wheel contacts on the ground" annotation(Placement(transformation(extent = {{30, -110}, {50, -90}})));
  Bodies.RigidBody hanger(nW = 3, shapeType = Visualizers.box, shapeSize = {R/2, 2*b, R/2}, color = {170, 175, 185}, m = m_h, I_b = {A_h, C_h, A_h}, g_0 = g_0, r_0_start = r_hanger_start,
    v_0_start = v_hanger_start, Q_start = Q_hanger_start, w_0_start = w_hanger_start)
    annotation(Placement(transformation(origin = {0, 30}, extent = {{-10, -10}, {10, 10}}, rotation = -90)));
  Joints.ElasticRevolute pivot(p_a = r_b, final p_b = {0.0, 0.0, 0.0}, final n_a = n_b, final n_b = n_b, k = k, c = c,
    final phi_0 = 0, alpha = alpha, beta = beta) annotation(Placement(transformation(origin = {0, 60}, extent = {{-10, -10}, {10, 10}}, rotation = -90)));
  // wheel 1 at +b along the hanger's y axis (the board's left), wheel 2 at -b; each wheel's frame is the hanger's
  // turned about the axle, its symmetry axis is its y axis; the spin makes the contact point rest
  Bodies.RigidBody wheel1(nW = 2, shapeType = Visualizers.cylinder, shapeSize = {2*R, 0, R}, shapeCode = 2, color = {230, 220, 120}, m = m_w, I_b = {A_w_used, C_w_used, A_w_used}, g_0 = g_0, r_0_start = r_hanger_start + b*a_start,
    v_0_start = v1_start, Q_start = Q_hanger_start,
    w_0_start = w_hanger_start + (v1_start*f_start/R - w_hanger_start*a_start)*a_start)
    annotation(Placement(transformation(origin = {22, -30}, extent = {{-10, -10}, {10, 10}}, rotation = -90)));
  Bodies.RigidBody wheel2(nW = 2, shapeType = Visualizers.cylinder, shapeSize = {2*R, 0, R}, shapeCode = 2, color = {230, 220, 120}, m = m_w, I_b = {A_w_used, C_w_used, A_w_used}, g_0 = g_0, r_0_start = r_hanger_start - b*a_start,
    v_0_start = v2_start, Q_start = Q_hanger_start,
    w_0_start = w_hanger_start + (v2_start*f_start/R - w_hanger_start*a_start)*a_start)
    annotation(Placement(transformation(origin = {-22, -30}, extent = {{-10, -10}, {10, 10}}, rotation = -90)));
  Joints.CompliantRevolute joint1(p_a = {0.0, b, 0.0}, final p_b = {0.0, 0.0, 0.0}, final n_a = {0.0, 1.0, 0.0}, final n_b = {0.0, 1.0, 0.0},
    c = c_w, d = d_w, alpha = alpha, beta = beta) annotation(Placement(transformation(origin = {22, -0}, extent = {{-10, -10}, {10, 10}}, rotation = -90)));
  Joints.CompliantRevolute joint2(p_a = {0.0, -b, 0.0}, final p_b = {0.0, 0.0, 0.0}, final n_a = {0.0, 1.0, 0.0}, final n_b = {0.0, 1.0, 0.0},
    c = c_w, d = d_w, alpha = alpha, beta = beta) annotation(Placement(transformation(origin = {-22, -0}, extent = {{-10, -10}, {10, 10}}, rotation = -90)));
  Contacts.DiskOnPlane contact1(R = R, final n_b = {0.0, 1.0, 0.0}, alpha = alpha, beta = beta, unilateral = unilateral)
    annotation(Placement(transformation(origin = {22, -60}, extent = {{-10, -10}, {10, 10}}, rotation = -90)));
  Contacts.DiskOnPlane contact2(R = R, final n_b = {0.0, 1.0, 0.0}, alpha = alpha, beta = beta, unilateral = unilateral)
    annotation(Placement(transformation(origin = {-22, -60}, extent = {{-10, -10}, {10, 10}}, rotation = -90)));
  output Units.Angle delta "Steer angle of the axle: from the board's lateral direction to the axle (hanger y), both projected on the horizontal plane, counter-clockwise about the world z";
  output Units.Angle chi "Angle of the hanger about the pivot axis (0: axle perpendicular to the board's longitudinal plane)";
  output Units.Energy energy "Energy of the truck: kinetic and gravity of hanger and wheels, bushing spring, springs along the axle";
  output Units.Force N[2] = {contact1.N, contact2.N} "Normal forces of the plane on the two wheels";
  output Units.Length gap "Largest drift of the wheels' holonomic contact constraints";
  output Units.Velocity slip "Largest drift of the wheels' rolling constraints";
protected
  Real yb_0[3](each unit = "1") "Board's lateral axis (body y), world frame";
  Real a_0[3](each unit = "1") "Axle (hanger y), world frame";
equation
  assert(lambda > 0 and lambda < Constants.pi/2, "the pivot axis inclination lambda must lie in (0, pi/2)");
  yb_0 = kBoard.T[:, 2];
  a_0 = hanger.T[:, 2];
  delta = atan2(yb_0[1]*a_0[2] - yb_0[2]*a_0[1], yb_0[1]*a_0[1] + yb_0[2]*a_0[2]);
  chi = pivot.phi;
  energy = hanger.energy + wheel1.energy + wheel2.energy + pivot.elasticEnergy + c_w/2*(joint1.s^2 + joint2.s^2);
  gap = max(abs(contact1.gap), abs(contact2.gap));
  slip = max(contact1.slip, contact2.slip);
  connect(kBoard, pivot.kA) annotation(Line(points = {{0, 100}, {0, 85}, {4, 85}, {4, 70}}, color = {0, 0, 255}));
  connect(pivot.wA, wBoard) annotation(Line(points = {{-4, 70}, {-4, 85}, {40, 85}, {40, 100}}, color = {255, 128, 0}));
  connect(hanger.k, pivot.kB) annotation(Line(points = {{4, 40}, {4, 50}}, color = {0, 0, 255}));
  connect(pivot.wB, hanger.w[1]) annotation(Line(points = {{-4, 50}, {-4, 40}}, color = {255, 128, 0}));
  connect(hanger.k, joint1.kA) annotation(Line(points = {{4, 40}, {4, 25}, {26, 25}, {26, 10}}, color = {0, 0, 255}));
  connect(hanger.k, joint2.kA) annotation(Line(points = {{4, 40}, {4, 25}, {-18, 25}, {-18, 10}}, color = {0, 0, 255}));
  connect(wheel1.k, joint1.kB) annotation(Line(points = {{26, -20}, {26, -10}}, color = {0, 0, 255}));
  connect(wheel2.k, joint2.kB) annotation(Line(points = {{-18, -20}, {-18, -10}}, color = {0, 0, 255}));
  connect(joint1.wA, hanger.w[2]) annotation(Line(points = {{18, 10}, {18, 25}, {-4, 25}, {-4, 40}}, color = {255, 128, 0}));
  connect(joint2.wA, hanger.w[3]) annotation(Line(points = {{-26, 10}, {-26, 25}, {-4, 25}, {-4, 40}}, color = {255, 128, 0}));
  connect(joint1.wB, wheel1.w[1]) annotation(Line(points = {{18, -10}, {18, -20}}, color = {255, 128, 0}));
  connect(joint2.wB, wheel2.w[1]) annotation(Line(points = {{-26, -10}, {-26, -20}}, color = {255, 128, 0}));
  connect(kGround, contact1.kA) annotation(Line(points = {{0, -100}, {0, -75}, {26, -75}, {26, -50}}, color = {0, 0, 255}));
  connect(kGround, contact2.kA) annotation(Line(points = {{0, -100}, {0, -75}, {-18, -75}, {-18, -50}}, color = {0, 0, 255}));
  connect(wheel1.k, contact1.kB) annotation(Line(points = {{26, -20}, {26, -70}}, color = {0, 0, 255}));
  connect(wheel2.k, contact2.kB) annotation(Line(points = {{-18, -20}, {-18, -70}}, color = {0, 0, 255}));
  connect(contact1.wA, wGround[1]) annotation(Line(points = {{18, -50}, {18, -75}, {40, -75}, {40, -100}}, color = {255, 128, 0}));
  connect(contact2.wA, wGround[2]) annotation(Line(points = {{-26, -50}, {-26, -75}, {40, -75}, {40, -100}}, color = {255, 128, 0}));
  connect(contact1.wB, wheel1.w[2]) annotation(Line(points = {{18, -70}, {18, -20}}, color = {255, 128, 0}));
  connect(contact2.wB, wheel2.w[2]) annotation(Line(points = {{-26, -70}, {-26, -20}}, color = {255, 128, 0}));
  annotation(Documentation(info = "<html>
<p>A skateboard truck in the ideal form of Hubbard (1979) and Kosenko and Kuleshov (2008): a light hanger
turns about a pivot axis fixed in the board (a <a href=\"modelica://Nonholonomic.Joints.ElasticRevolute\">ElasticRevolute</a>,
whose torsional spring-damper <code>k</code>, <code>c</code> is the rubber bushing). The pivot axis lies in
the board's vertical longitudinal plane, inclined at <code>lambda</code> to the board plane, and passes
through the axle centre <code>r_b</code> (a point of the board, given relative to the board's centre of
mass in the board frame; it is also the hanger's centre of mass). Its upper end leans away from the board's
centre, as the axis through the pivot cup of a real truck does: <code>n = (cos(lambda), 0, sin(lambda))</code>
for the front truck, <code>(-cos(lambda), 0, sin(lambda))</code> for the rear one (<code>front = false</code>),
so that the rear axle steers opposite to the front one and the board turns into its lean (the opposite
inclination would steer out of the lean). The hanger's y axis is the axle; two thin wheels (radius <code>R</code>, symmetry
axis their body y; moments of inertia <code>A_w</code>, <code>C_w</code>, by default 0: those of a thin
homogeneous disk, following <code>m_w</code> and <code>R</code>) sit on it at <code>+b</code> (wheel 1) and <code>-b</code> (wheel 2) on
<a href=\"modelica://Nonholonomic.Joints.CompliantRevolute\">CompliantRevolute</a> joints, whose spring-damper
along the axle (<code>c_w</code>, <code>d_w</code>) removes the static indeterminacy of two rolling wheels on
one axle (as in <a href=\"modelica://Nonholonomic.Examples.Wheelset\">Wheelset</a>), and each rolls on the
plane <code>z = 0</code> through a <a href=\"modelica://Nonholonomic.Contacts.DiskOnPlane\">DiskOnPlane</a>.</p>
<p>Ports: <code>kBoard</code> and <code>wBoard</code> (the board's kinematics and the pivot's wrench on it),
<code>kGround</code> and <code>wGround[2]</code> (the ground's kinematics and the two contacts' wrenches on it).
Outputs: the steer angle <code>delta</code> of the axle (the angle in the horizontal plane from the
projection of the board's lateral axis to the axle, counter-clockwise about the world z; for a board leaning
to its left by <code>theta</code> about its horizontal longitudinal axis the constraints give
<code>tan(delta) = tan(lambda) sin(theta)</code> at the front and the opposite at the rear: the front axle
turns to the left), the hanger's angle
<code>chi</code> about the pivot, the truck's energy and the drift of its contacts.</p>
<p>Initial state, from the board's (<code>r_board_start</code>, <code>Q_board_start</code>,
<code>v_board_start</code>, <code>w_board_start</code>; the board's roll axis is expected horizontal at the
height <code>R</code>): the hanger is turned about the pivot by the angle <code>chi</code> that makes its axle
level, <code>tan(chi) = -p/q</code> with <code>p</code>, <code>q</code> the heights of the board's lateral axis
and of <code>n x y</code>, and turns at the rate that keeps it level; every wheel spins so that its contact
point is at rest.</p>
</html>"), Icon(graphics = {Text(textColor = {0, 0, 0}, extent = {{-150, -86}, {150, -112}}, textString = "lambda=%lambda"), Rectangle(lineColor = {0, 0, 0}, fillColor = {160, 160, 164}, fillPattern = FillPattern.Solid,
    extent = {{-80, 10}, {80, 30}}), Ellipse(lineColor = {0, 0, 0}, fillColor = {60, 60, 60}, fillPattern = FillPattern.Solid,
    extent = {{-90, -40}, {-50, 0}}), Ellipse(lineColor = {0, 0, 0}, fillColor = {60, 60, 60}, fillPattern = FillPattern.Solid,
    extent = {{50, -40}, {90, 0}}), Text(textColor = {0, 0, 255}, extent = {{-150, 40}, {150, 70}}, textString = "%name")}));
end SkateboardTruck;
