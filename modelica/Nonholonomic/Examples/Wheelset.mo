within Nonholonomic.Examples;
model Wheelset "Two disks on an axle with compliant revolute joints, rolling on a plane"
  parameter Units.Length R(min = 1e-6) = 0.1 "Wheel radius";
  parameter Units.Mass m_w(min = 1e-9) = 1 "Mass of a wheel";
  parameter Units.Mass m_a(min = 1e-9) = 2 "Mass of the axle";
  parameter Units.Length b(min = 1e-6) = 0.25 "Distance of each wheel from the middle of the axle";
  parameter Units.Inertia A_w(min = 0) = 0 "Central moment of inertia of a wheel about a diameter (0: thin homogeneous disk, m_w R^2/4, following m_w and R)";
  parameter Units.Inertia C_w(min = 0) = 0 "Central moment of inertia of a wheel about its axis, at most 2 A_w (0: thin homogeneous disk, m_w R^2/2, following m_w and R)";
  parameter Units.Inertia J_a(min = 1e-12) = 0.05 "Moment of inertia of the axle about a diameter (vertical)";
  parameter Units.Inertia C_a(min = 1e-12) = 0.001 "Moment of inertia of the axle about its own axis";
  // Evaluate = false: follows parameters set at run time (not folded at build time)
  final parameter Units.Inertia A_w_used = if A_w > 0 then A_w else m_w*R^2/4 "Central moment of inertia of a wheel about a diameter in use: A_w, or m_w R^2/4 if A_w = 0" annotation(Evaluate = false);
  final parameter Units.Inertia C_w_used = if C_w > 0 then C_w else m_w*R^2/2 "Central moment of inertia of a wheel about its axis in use: C_w, or m_w R^2/2 if C_w = 0" annotation(Evaluate = false);
  parameter Real c(unit = "N/m", min = 0) = 1e5 "Stiffness of the joints along the axle";
  parameter Real d(unit = "N.s/m", min = 0) = 200 "Damping of the joints along the axle";
  parameter Units.Position x_0 = 0 "Initial x of the middle of the axle";
  parameter Units.Position y_0 = 0 "Initial y of the middle of the axle";
  parameter Units.Angle psi_0 = 0 "Initial heading (direction of motion, perpendicular to the axle)";
  parameter Units.Velocity v_0 = 1 "Initial forward speed of the middle of the axle";
  parameter Units.AngularVelocity dpsi_0 = 0.5 "Initial yaw rate";
  parameter Boolean unilateral = true "true: the run stops where a wheel's normal force would turn negative (it would lift off); false: the plane may pull (the planar model's wheels that never leave the ground)";
  final parameter Real f_start[3] = {cos(psi_0), sin(psi_0), 0} "Initial direction of motion";
  final parameter Real a_start[3] = {-sin(psi_0), cos(psi_0), 0} "Initial axle direction, from wheel 1 to wheel 2";
  // body frames of the axle and the wheels: x along the motion, z along the axle
  final parameter Units.Quaternion Q_start[4] = Rotations.product(Rotations.fromAxisAngle({0, 0, 1}, psi_0),
    {sqrt(0.5), -sqrt(0.5), 0, 0}) "Initial attitude of the axle and the wheels (a quarter turn about x, then psi_0 about z)";
  Bodies.Ground ground(nW = 2) annotation(Placement(transformation(extent = {{-70, -10}, {-90, 10}})));
  Bodies.RigidBody axle(nW = 2, shapeType = Visualizers.cylinder, shapeSize = {R/4, 0, 2*b}, color = {170, 175, 185}, m = m_a, I_b = {J_a, J_a, C_a}, final g_0 = {0, 0, -9.81},
    r_0_start = {x_0, y_0, R}, v_0_start = v_0*f_start, Q_start = Q_start, w_0_start = {0, 0, dpsi_0})
    annotation(Placement(transformation(extent = {{70, -10}, {90, 10}})));
  Bodies.RigidBody wheel1(nW = 2, shapeType = Visualizers.cylinder, shapeSize = {2*R, 0, R/5}, color = {70, 120, 200}, m = m_w, I_b = {A_w_used, A_w_used, C_w_used}, final g_0 = {0, 0, -9.81},
    r_0_start = {x_0, y_0, R} - b*a_start, v_0_start = (v_0 + b*dpsi_0)*f_start, Q_start = Q_start,
    w_0_start = (v_0 + b*dpsi_0)/R*a_start + {0, 0, dpsi_0}) annotation(Placement(transformation(extent = {{-10, 5}, {10, 25}})));
  Bodies.RigidBody wheel2(nW = 2, shapeType = Visualizers.cylinder, shapeSize = {2*R, 0, R/5}, color = {70, 120, 200}, m = m_w, I_b = {A_w_used, A_w_used, C_w_used}, final g_0 = {0, 0, -9.81},
    r_0_start = {x_0, y_0, R} + b*a_start, v_0_start = (v_0 - b*dpsi_0)*f_start, Q_start = Q_start,
    w_0_start = (v_0 - b*dpsi_0)/R*a_start + {0, 0, dpsi_0}) annotation(Placement(transformation(extent = {{-10, -25}, {10, -5}})));
  Joints.CompliantRevolute joint1(p_a = {0, 0, -b}, final p_b = {0, 0, 0}, final n_a = {0, 0, 1}, final n_b = {0, 0, 1},
    c = c, d = d) annotation(Placement(transformation(extent = {{50, 5}, {30, 25}})));
  Joints.CompliantRevolute joint2(p_a = {0, 0, b}, final p_b = {0, 0, 0}, final n_a = {0, 0, 1}, final n_b = {0, 0, 1},
    c = c, d = d) annotation(Placement(transformation(extent = {{50, -25}, {30, -5}})));
  Contacts.DiskOnPlane contact1(R = R, final n_b = {0, 0, 1}, unilateral = unilateral) annotation(Placement(transformation(extent = {{-50, 5}, {-30, 25}})));
  Contacts.DiskOnPlane contact2(R = R, final n_b = {0, 0, 1}, unilateral = unilateral) annotation(Placement(transformation(extent = {{-50, -25}, {-30, -5}})));
  output Units.Position r_0[3] = axle.r_0 "Middle of the axle";
  output Units.Quaternion Q[4] = axle.Q "Attitude of the axle (body z along the axle)";
  output Units.Velocity v_axle_0[3] = axle.v_0 "Velocity of the middle of the axle";
  output Units.AngularVelocity w_axle_0[3] = axle.k.w_0 "Angular velocity of the axle, world frame";
  output Units.AngularVelocity w_rel1 = joint1.w_rel "Rotation rate of wheel 1 relative to the axle";
  output Units.AngularVelocity w_rel2 = joint2.w_rel "Rotation rate of wheel 2 relative to the axle";
  output Units.AngularVelocity w1_0[3] = wheel1.k.w_0 "Angular velocity of wheel 1, world frame";
  output Units.AngularVelocity w2_0[3] = wheel2.k.w_0 "Angular velocity of wheel 2, world frame";
  output Units.Position p1_0[3] = contact1.p_0 "Contact point of wheel 1";
  output Units.Position p2_0[3] = contact2.p_0 "Contact point of wheel 2";
  output Units.Length s1 = joint1.s "Deflection of joint 1 along the axle";
  output Units.Length s2 = joint2.s "Deflection of joint 2 along the axle";
  output Units.Energy energy = axle.energy + wheel1.energy + wheel2.energy + c/2*(joint1.s^2 + joint2.s^2) "Total energy, springs included";
  output Units.Force N1 = contact1.N "Normal force of the plane on wheel 1";
  output Units.Force N2 = contact2.N "Normal force of the plane on wheel 2";
  output Units.Length gap = max(abs(contact1.gap), abs(contact2.gap)) "Drift of the holonomic contact constraints";
  output Units.Velocity slip = max(contact1.slip, contact2.slip) "Drift of the rolling constraints";
equation
  connect(ground.k, contact1.kA) annotation(Line(points = {{-70, 4}, {-62, 4}, {-62, 19}, {-50, 19}}, color = {0, 0, 255}));
  connect(ground.k, contact2.kA) annotation(Line(points = {{-70, 4}, {-62, 4}, {-62, -11}, {-50, -11}}, color = {0, 0, 255}));
  connect(wheel1.k, contact1.kB) annotation(Line(points = {{-10, 19}, {-30, 19}}, color = {0, 0, 255}));
  connect(wheel2.k, contact2.kB) annotation(Line(points = {{-10, -11}, {-30, -11}}, color = {0, 0, 255}));
  connect(contact1.wA, ground.w[1]) annotation(Line(points = {{-50, 11}, {-58, 11}, {-58, -4}, {-70, -4}}, color = {255, 128, 0}));
  connect(contact2.wA, ground.w[2]) annotation(Line(points = {{-50, -19}, {-58, -19}, {-58, -4}, {-70, -4}}, color = {255, 128, 0}));
  connect(contact1.wB, wheel1.w[1]) annotation(Line(points = {{-30, 11}, {-10, 11}}, color = {255, 128, 0}));
  connect(contact2.wB, wheel2.w[1]) annotation(Line(points = {{-30, -19}, {-10, -19}}, color = {255, 128, 0}));
  connect(axle.k, joint1.kA) annotation(Line(points = {{70, 4}, {58, 4}, {58, 19}, {50, 19}}, color = {0, 0, 255}));
  connect(axle.k, joint2.kA) annotation(Line(points = {{70, 4}, {58, 4}, {58, -11}, {50, -11}}, color = {0, 0, 255}));
  connect(wheel1.k, joint1.kB) annotation(Line(points = {{-10, 19}, {-14, 19}, {-14, 33}, {26, 33}, {26, 19}, {30, 19}}, color = {0, 0, 255}));
  connect(wheel2.k, joint2.kB) annotation(Line(points = {{-10, -11}, {-14, -11}, {-14, -25}, {26, -25}, {26, -11}, {30, -11}}, color = {0, 0, 255}));
  connect(joint1.wA, axle.w[1]) annotation(Line(points = {{50, 11}, {62, 11}, {62, -4}, {70, -4}}, color = {255, 128, 0}));
  connect(joint2.wA, axle.w[2]) annotation(Line(points = {{50, -19}, {62, -19}, {62, -4}, {70, -4}}, color = {255, 128, 0}));
  connect(joint1.wB, wheel1.w[2]) annotation(Line(points = {{30, 11}, {26, 11}, {26, 25}, {-14, 25}, {-14, 11}, {-10, 11}}, color = {255, 128, 0}));
  connect(joint2.wB, wheel2.w[2]) annotation(Line(points = {{30, -19}, {26, -19}, {26, -33}, {-14, -33}, {-14, -19}, {-10, -19}}, color = {255, 128, 0}));
  annotation(experiment(StartTime = 0, StopTime = 10, Tolerance = 1e-10, Interval = 0.01),
    Documentation(info = "<html>
<p>A wheelset (Kosenko 2022): two thin disks (central moments of inertia <code>A_w</code> about a
diameter, <code>C_w</code> about the axis; their default 0 means those of a thin homogeneous disk, following
<code>m_w</code> and <code>R</code>, in use as <code>A_w_used</code>, <code>C_w_used</code>) on the ends of an axle, each on a
<a href=\"modelica://Nonholonomic.Joints.CompliantRevolute\">CompliantRevolute</a> joint, rolling without
slipping on a horizontal plane. With rigid joints the reactions along the axle would be statically
indeterminate (both rolling contacts resist sliding along the axle); the spring-damper along each joint
axis removes that indeterminacy, and as the stiffness <code>c</code> grows the motion tends to that of the
ideal wheelset with a rigid axle. The initial state is the ideal one: forward speed <code>v_0</code> and
yaw rate <code>dpsi_0</code>, each wheel rolling.</p>
</html>"));
end Wheelset;
