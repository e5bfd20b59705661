within Nonholonomic.Examples;
model Snakeboard "Snakeboard of Lewis et al. (1994): two steered wheelsets and a rotor, driven by three servo-constraints"
  parameter Units.Mass m(min = 1e-6) = 5 "Total mass";
  parameter Units.Length l(min = 1e-6) = 0.3 "Distance of each wheelset's pivot from the board's centre";
  parameter Units.Inertia J(min = 1e-9) = 0.34 "Yaw moment of inertia about the centre of everything but the rotor's and the wheelsets' own inertias (the wheelsets' masses at distance l included)";
  parameter Units.Inertia Jr(min = 1e-9) = 0.1 "Moment of inertia of the rotor about its (vertical) axis";
  parameter Units.Inertia Jw(min = 1e-9) = 0.005 "Yaw moment of inertia of one wheelset (axle and wheels) about its pivot";
  parameter Units.Mass m_r(min = 1e-6) = 1 "Mass of the rotor";
  parameter Units.Mass m_ws(min = 1e-6) = 0.5 "Mass of one wheelset, wheels included";
  parameter Units.Length R(min = 1e-6) = 0.05 "Wheel radius";
  parameter Units.Length b(min = 1e-6) = 0.05 "Distance of each wheel from its wheelset's pivot, along the axle";
  parameter Units.Mass m_w(min = 1e-9) = 0.01 "Mass of a wheel (a thin homogeneous disk)";
  parameter Real c_w(unit = "N/m", min = 0) = 1e5 "Stiffness of the wheels' joints along the axles";
  parameter Real d_w(unit = "N.s/m", min = 0) = 10 "Damping of the wheels' joints along the axles";
  parameter Real c_bar(unit = "N/m", min = 0) = 1e5 "Stiffness of the crossbar's joint along the crossbar";
  parameter Real d_bar(unit = "N.s/m", min = 0) = 200 "Damping of the crossbar's joint along the crossbar";
  parameter Units.Angle A_psi = 1 "Amplitude of the rotor's law psi = A_psi sin(2 pi f_psi t + phase_psi)";
  parameter Units.Frequency f_psi(min = 0) = 1 "Frequency of the rotor's law";
  parameter Units.Angle phase_psi = 0 "Phase of the rotor's law";
  parameter Units.Angle A_phi_f = 0.4 "Amplitude of the front wheelset's law phi_f = A_phi_f sin(2 pi f_phi t + phase_phi)";
  parameter Real backRatio(unit = "1") = -1 "phi_b = backRatio phi_f: -1 turns the wheelsets opposite (Lewis et al.), +1 alike";
  parameter Units.Frequency f_phi(min = 0) = 1 "Frequency of the wheelsets' laws";
  parameter Units.Angle phase_phi = 0 "Phase of the wheelsets' laws";
  parameter Units.Velocity v_0 = 0 "Initial forward speed of the board's centre";
  parameter Units.Position x_0 = 0 "Initial x of the board's centre";
  parameter Units.Position y_0 = 0 "Initial y of the board's centre";
  parameter Units.Angle theta_0 = 0 "Initial heading of the board";
  parameter Boolean unilateral = true "true: the run stops where a wheel's normal force would turn negative (it would lift off); false: the plane may pull (the planar model's wheels that never leave the ground)";
  // masses and inertias of the bodies from the reference's lumped parameters (the rotor and the wheelsets'
  // centres of mass on the pivots, the board's halves at l/2 from the centre)
  final parameter Units.Mass m_h = (m - m_r - 2*m_ws)/2 "Mass of one half of the crossbar";
  final parameter Units.Inertia A_w = m_w*R^2/4 "Moment of inertia of a wheel about a diameter";
  final parameter Units.Inertia C_w = m_w*R^2/2 "Moment of inertia of a wheel about its axis";
  final parameter Units.Inertia J_h = (J - 2*m_ws*l^2 - 2*m_h*(l/2)^2)/2 "Central yaw moment of inertia of one half of the crossbar";
  final parameter Units.Inertia J_a = Jw - 2*(m_w*b^2 + A_w) "Central yaw moment of inertia of an axle (the wheels' share of Jw removed)";
  final parameter Units.Mass m_a = m_ws - 2*m_w "Mass of an axle";
  // initial servo angles and rates, and the board's velocity (xi, eta, omega) = s (c_f c_b, sin(phi_f + phi_b)/2,
  // sin(phi_f - phi_b)/(2 l)) that satisfies both wheelsets' rolling constraints, with xi = v_0
  final parameter Units.Angle A_phi_b = backRatio*A_phi_f "Amplitude of the back wheelset's law phi_b = A_phi_b sin(2 pi f_phi t + phase_phi)";
  final parameter Units.Angle psi_s = A_psi*sin(phase_psi) "Initial rotor angle";
  final parameter Units.AngularVelocity dpsi_s = 2*Constants.pi*f_psi*A_psi*cos(phase_psi) "Initial rotor rate";
  final parameter Units.Angle phi_s[2] = {A_phi_f, A_phi_b}*sin(phase_phi) "Initial wheelset angles (front, back)";
  final parameter Units.AngularVelocity dphi_s[2] = 2*Constants.pi*f_phi*{A_phi_f, A_phi_b}*cos(phase_phi) "Initial wheelset rates";
  final parameter Units.Velocity s_s = v_0/(cos(phi_s[1])*cos(phi_s[2])) "Initial speed along the allowed direction";
  final parameter Units.Velocity eta_s = s_s*sin(phi_s[1] + phi_s[2])/2 "Initial lateral speed of the board's centre";
  final parameter Units.AngularVelocity omega_s = s_s*sin(phi_s[1] - phi_s[2])/(2*l) "Initial yaw rate of the board";
  final parameter Real ex[3] = {cos(theta_0), sin(theta_0), 0} "Initial board x axis, world frame";
  final parameter Real ey[3] = {-sin(theta_0), cos(theta_0), 0} "Initial board y axis, world frame";
  final parameter Units.Velocity vO_s[3] = v_0*ex + eta_s*ey "Initial velocity of the board's centre";
  // wheels 1, 2 on the front wheelset (right, left), 3, 4 on the back one
  final parameter Real along[4] = {1, 1, -1, -1} "Wheel i's wheelset: +1 front, -1 back";
  final parameter Real side[4] = {-1, 1, -1, 1} "Wheel i's side: -1 right, +1 left";
  final parameter Units.Angle hw[4] = theta_0 .+ {phi_s[1], phi_s[1], phi_s[2], phi_s[2]} "Initial heading of wheel i's wheelset";
  final parameter Units.AngularVelocity rw[4] = omega_s .+ {dphi_s[1], dphi_s[1], dphi_s[2], dphi_s[2]} "Initial yaw rate of wheel i's wheelset";
  final parameter Units.Velocity vcx[4] = {vO_s[1] + omega_s*along[i]*l*ey[1] for i in 1:4} "Initial x velocity of wheel i's pivot";
  final parameter Units.Velocity vcy[4] = {vO_s[2] + omega_s*along[i]*l*ey[2] for i in 1:4} "Initial y velocity of wheel i's pivot";
  final parameter Units.AngularVelocity spin_s[4] = {(vcx[i]*cos(hw[i]) + vcy[i]*sin(hw[i]) - side[i]*rw[i]*b)/R for i in 1:4} "Initial rolling rate of wheel i about its axle";
  Bodies.Ground ground(nW = 4) annotation(Placement(transformation(extent = {{-110, -10}, {-130, 10}})));
  Bodies.RigidBody halfF(shapeType = Visualizers.box, shapeSize = {l, 0.2, 0.02}, color = {190, 140, 90}, nW = 2, m = m_h, I_b = {J_h/10, J_h, J_h}, r_0_start = {x_0, y_0, R} + l/2*ex,
    v_0_start = vO_s + omega_s*l/2*ey, Q_start = Rotations.fromAxisAngle({0, 0, 1}, theta_0), w_0_start = {0, 0, omega_s})
    annotation(Placement(transformation(extent = {{50, 5}, {70, 25}})));
  Bodies.RigidBody halfB(shapeType = Visualizers.box, shapeSize = {l, 0.2, 0.02}, color = {190, 140, 90}, nW = 3, m = m_h, I_b = {J_h/10, J_h, J_h}, r_0_start = {x_0, y_0, R} - l/2*ex,
    v_0_start = vO_s - omega_s*l/2*ey, Q_start = Rotations.fromAxisAngle({0, 0, 1}, theta_0), w_0_start = {0, 0, omega_s})
    annotation(Placement(transformation(extent = {{50, -25}, {70, -5}})));
  Bodies.RigidBody rotor(nW = 1, shapeType = Visualizers.cylinder, shapeSize = {0.4, 0, 0.03}, color = {200, 80, 60}, m = m_r, I_b = {0.6*Jr, 0.6*Jr, Jr}, r_0_start = {x_0, y_0, R}, v_0_start = vO_s,
    Q_start = Rotations.fromAxisAngle({0, 0, 1}, theta_0 + psi_s), w_0_start = {0, 0, omega_s + dpsi_s})
    annotation(Placement(transformation(extent = {{110, -10}, {130, 10}})));
  Bodies.RigidBody axleF(nW = 3, shapeType = Visualizers.box, shapeSize = {0.03, 2*b, 0.03}, color = {170, 175, 185}, m = m_a, I_b = {J_a, J_a/100, J_a}, r_0_start = {x_0, y_0, R} + l*ex,
    v_0_start = vO_s + omega_s*l*ey, Q_start = Rotations.fromAxisAngle({0, 0, 1}, theta_0 + phi_s[1]),
    w_0_start = {0, 0, omega_s + dphi_s[1]}) annotation(Placement(transformation(extent = {{-10, 5}, {10, 25}})));
  Bodies.RigidBody axleB(nW = 3, shapeType = Visualizers.box, shapeSize = {0.03, 2*b, 0.03}, color = {170, 175, 185}, m = m_a, I_b = {J_a, J_a/100, J_a}, r_0_start = {x_0, y_0, R} - l*ex,
    v_0_start = vO_s - omega_s*l*ey, Q_start = Rotations.fromAxisAngle({0, 0, 1}, theta_0 + phi_s[2]),
    w_0_start = {0, 0, omega_s + dphi_s[2]}) annotation(Placement(transformation(extent = {{-10, -25}, {10, -5}})));
  // wheels: symmetry axis along body y (the axle), rolling forward along their wheelset's heading
  Bodies.RigidBody wheel[4](each nW = 2, each shapeType = Visualizers.cylinder, each shapeSize = {2*R, 0, R/2}, each shapeCode = 2, each color = {230, 220, 120}, each m = m_w, each I_b = {A_w, C_w, A_w},
    r_0_start = {{x_0, y_0, R} + along[i]*l*ex + side[i]*b*{-sin(hw[i]), cos(hw[i]), 0} for i in 1:4},
    v_0_start = {{vcx[i], vcy[i], 0} - side[i]*rw[i]*b*{cos(hw[i]), sin(hw[i]), 0} for i in 1:4},
    Q_start = {Rotations.fromAxisAngle({0, 0, 1}, hw[i]) for i in 1:4},
    w_0_start = {{0, 0, rw[i]} + spin_s[i]*{-sin(hw[i]), cos(hw[i]), 0} for i in 1:4})
    annotation(Placement(transformation(extent = {{-70, -10}, {-50, 10}})));
  Joints.CompliantRevolute crossbar(p_a = {l/2, 0, 0}, p_b = {-l/2, 0, 0}, final n_a = {1, 0, 0}, final n_b = {1, 0, 0},
    c = c_bar, d = d_bar) "The crossbar's halves: free to twist about the crossbar, a spring-damper along it"
    annotation(Placement(transformation(extent = {{80, 5}, {100, 25}})));
  Joints.ServoRevolute rotorServo(p_a = {l/2, 0, 0}, final p_b = {0, 0, 0}, final n_a = {0, 0, 1}, final n_b = {0, 0, 1},
    amplitude = {A_psi}, frequency = {f_psi}, phase = {phase_psi}) "The rider's torso: psi(t)"
    annotation(Placement(transformation(extent = {{80, -25}, {100, -5}})));
  Joints.ServoRevolute pivotF(p_a = {l/2, 0, 0}, final p_b = {0, 0, 0}, final n_a = {0, 0, 1}, final n_b = {0, 0, 1},
    amplitude = {A_phi_f}, frequency = {f_phi}, phase = {phase_phi}) "The rider's front foot: phi_f(t)"
    annotation(Placement(transformation(extent = {{40, 5}, {20, 25}})));
  Joints.ServoRevolute pivotB(p_a = {-l/2, 0, 0}, final p_b = {0, 0, 0}, final n_a = {0, 0, 1}, final n_b = {0, 0, 1},
    amplitude = {A_phi_b}, frequency = {f_phi}, phase = {phase_phi}) "The rider's back foot: phi_b(t)"
    annotation(Placement(transformation(extent = {{40, -25}, {20, -5}})));
  Joints.CompliantRevolute wheelJoint[4](p_a = {{0, side[i]*b, 0} for i in 1:4}, each final p_b = {0, 0, 0},
    each final n_a = {0, 1, 0}, each final n_b = {0, 1, 0}, each c = c_w, each d = d_w)
    annotation(Placement(transformation(extent = {{-20, -10}, {-40, 10}})));
  Contacts.DiskOnPlane contact[4](each R = R, each final n_b = {0, 1, 0}, each unilateral = unilateral) annotation(Placement(transformation(extent = {{-100, -10}, {-80, 10}})));
  output Units.Position x = crossbar.p_0[1] "x of the board's centre";
  output Units.Position y = crossbar.p_0[2] "y of the board's centre";
  output Units.Angle theta = atan2(halfB.T[2, 1], halfB.T[1, 1]) "Heading of the board, in (-pi, pi]";
  output Units.Velocity xi = v_centre*halfB.T[:, 1] "Forward speed of the board's centre (along the board)";
  output Units.Velocity eta = v_centre*halfB.T[:, 2] "Lateral speed of the board's centre (to the board's left)";
  output Units.AngularVelocity omega = halfB.k.w_0[3] "Yaw rate of the board";
  output Units.Angle psi = rotorServo.phi "Rotor angle relative to the board";
  output Units.Angle phi_f = pivotF.phi "Front wheelset angle relative to the board";
  output Units.Angle phi_b = pivotB.phi "Back wheelset angle relative to the board";
  output Units.Torque tau_psi = rotorServo.tau "Servo torque on the rotor";
  output Units.Torque tau_f = pivotF.tau "Servo torque on the front wheelset";
  output Units.Torque tau_b = pivotB.tau "Servo torque on the back wheelset";
  output Units.Power P_psi = rotorServo.power "Power of the rotor's servo";
  output Units.Power P_f = pivotF.power "Power of the front wheelset's servo";
  output Units.Power P_b = pivotB.power "Power of the back wheelset's servo";
  output Units.Energy kineticEnergy = halfF.kineticEnergy + halfB.kineticEnergy + rotor.kineticEnergy + axleF.kineticEnergy
    + axleB.kineticEnergy + sum(wheel[i].kineticEnergy for i in 1:4) "Kinetic energy of all bodies";
  output Units.Energy springEnergy = c_bar/2*crossbar.s^2 + c_w/2*sum(wheelJoint[i].s^2 for i in 1:4) "Energy in the joints' springs";
  output Units.Power dampingPower = d_bar*crossbar.ds^2 + d_w*sum(wheelJoint[i].ds^2 for i in 1:4) "Power dissipated in the joints' dampers";
  output Units.Force N[4] = {contact[i].N for i in 1:4} "Normal force of the plane on each wheel";
  output Units.Velocity slip[4] = {contact[i].slip for i in 1:4} "Slip speed of each wheel (drift of the rolling constraints)";
  output Units.Length gap = max(max(abs(contact[1].gap), abs(contact[2].gap)), max(abs(contact[3].gap), abs(contact[4].gap))) "Largest drift of the contacts' holonomic constraints";
  output Units.Length s_bar = crossbar.s "Deflection of the crossbar's joint along the crossbar";
protected
  Units.Velocity v_centre[3] = halfB.v_0 + cross(halfB.k.w_0, halfB.T*{l/2, 0, 0}) "Velocity of the board's centre";
equation
  // the asserts are written on settable parameters: rumoca evaluates final parameters at their defaults in them
  assert(m - m_r - 2*m_ws > 0, "Snakeboard: the rotor and the wheelsets weigh more than the total mass m");
  assert(J - 2*m_ws*l^2 - (m - m_r - 2*m_ws)*l^2/4 > 0, "Snakeboard: J is too small for the masses at the wheelsets' pivots (the crossbar's halves would need a negative inertia)");
  assert(m_ws > 2*m_w and Jw > 2*m_w*(b^2 + R^2/4), "Snakeboard: the wheels are too heavy for the wheelset's mass m_ws or yaw inertia Jw");
  assert(abs(A_phi_f) < Constants.pi/2 and abs(backRatio*A_phi_f) < Constants.pi/2, "Snakeboard: gait amplitudes of the wheelsets must stay below 90 deg (at 90 deg both axles lie along the board and the board's motion is undetermined)");
  connect(ground.k, contact[1].kA) annotation(Line(points = {{-110, 4}, {-100, 4}}, color = {0, 0, 255}));
  connect(wheel[1].k, contact[1].kB) annotation(Line(points = {{-70, 4}, {-80, 4}}, color = {0, 0, 255}));
  connect(wheel[1].k, wheelJoint[1].kB) annotation(Line(points = {{-70, 4}, {-74, 4}, {-74, 18}, {-44, 18}, {-44, 4}, {-40, 4}}, color = {0, 0, 255}));
  connect(contact[1].wA, ground.w[1]) annotation(Line(points = {{-100, -4}, {-110, -4}}, color = {255, 128, 0}));
  connect(contact[1].wB, wheel[1].w[1]) annotation(Line(points = {{-80, -4}, {-70, -4}}, color = {255, 128, 0}));
  connect(wheelJoint[1].wB, wheel[1].w[2]) annotation(Line(points = {{-40, -4}, {-44, -4}, {-44, -18}, {-74, -18}, {-74, -4}, {-70, -4}}, color = {255, 128, 0}));
  connect(ground.k, contact[2].kA) annotation(Line(points = {{-110, 4}, {-100, 4}}, color = {0, 0, 255}));
  connect(wheel[2].k, contact[2].kB) annotation(Line(points = {{-70, 4}, {-80, 4}}, color = {0, 0, 255}));
  connect(wheel[2].k, wheelJoint[2].kB) annotation(Line(points = {{-70, 4}, {-74, 4}, {-74, 18}, {-44, 18}, {-44, 4}, {-40, 4}}, color = {0, 0, 255}));
  connect(contact[2].wA, ground.w[2]) annotation(Line(points = {{-100, -4}, {-110, -4}}, color = {255, 128, 0}));
  connect(contact[2].wB, wheel[2].w[1]) annotation(Line(points = {{-80, -4}, {-70, -4}}, color = {255, 128, 0}));
  connect(wheelJoint[2].wB, wheel[2].w[2]) annotation(Line(points = {{-40, -4}, {-44, -4}, {-44, -18}, {-74, -18}, {-74, -4}, {-70, -4}}, color = {255, 128, 0}));
  connect(ground.k, contact[3].kA) annotation(Line(points = {{-110, 4}, {-100, 4}}, color = {0, 0, 255}));
  connect(wheel[3].k, contact[3].kB) annotation(Line(points = {{-70, 4}, {-80, 4}}, color = {0, 0, 255}));
  connect(wheel[3].k, wheelJoint[3].kB) annotation(Line(points = {{-70, 4}, {-74, 4}, {-74, 18}, {-44, 18}, {-44, 4}, {-40, 4}}, color = {0, 0, 255}));
  connect(contact[3].wA, ground.w[3]) annotation(Line(points = {{-100, -4}, {-110, -4}}, color = {255, 128, 0}));
  connect(contact[3].wB, wheel[3].w[1]) annotation(Line(points = {{-80, -4}, {-70, -4}}, color = {255, 128, 0}));
  connect(wheelJoint[3].wB, wheel[3].w[2]) annotation(Line(points = {{-40, -4}, {-44, -4}, {-44, -18}, {-74, -18}, {-74, -4}, {-70, -4}}, color = {255, 128, 0}));
  connect(ground.k, contact[4].kA) annotation(Line(points = {{-110, 4}, {-100, 4}}, color = {0, 0, 255}));
  connect(wheel[4].k, contact[4].kB) annotation(Line(points = {{-70, 4}, {-80, 4}}, color = {0, 0, 255}));
  connect(wheel[4].k, wheelJoint[4].kB) annotation(Line(points = {{-70, 4}, {-74, 4}, {-74, 18}, {-44, 18}, {-44, 4}, {-40, 4}}, color = {0, 0, 255}));
  connect(contact[4].wA, ground.w[4]) annotation(Line(points = {{-100, -4}, {-110, -4}}, color = {255, 128, 0}));
  connect(contact[4].wB, wheel[4].w[1]) annotation(Line(points = {{-80, -4}, {-70, -4}}, color = {255, 128, 0}));
  connect(wheelJoint[4].wB, wheel[4].w[2]) annotation(Line(points = {{-40, -4}, {-44, -4}, {-44, -18}, {-74, -18}, {-74, -4}, {-70, -4}}, color = {255, 128, 0}));
  connect(axleF.k, wheelJoint[1].kA) annotation(Line(points = {{-10, 19}, {-17, 19}, {-17, 4}, {-20, 4}}, color = {0, 0, 255}));
  connect(axleF.k, wheelJoint[2].kA) annotation(Line(points = {{-10, 19}, {-17, 19}, {-17, 4}, {-20, 4}}, color = {0, 0, 255}));
  connect(axleB.k, wheelJoint[3].kA) annotation(Line(points = {{-10, -11}, {-17, -11}, {-17, 4}, {-20, 4}}, color = {0, 0, 255}));
  connect(axleB.k, wheelJoint[4].kA) annotation(Line(points = {{-10, -11}, {-17, -11}, {-17, 4}, {-20, 4}}, color = {0, 0, 255}));
  connect(wheelJoint[1].wA, axleF.w[1]) annotation(Line(points = {{-20, -4}, {-13, -4}, {-13, 11}, {-10, 11}}, color = {255, 128, 0}));
  connect(wheelJoint[2].wA, axleF.w[2]) annotation(Line(points = {{-20, -4}, {-13, -4}, {-13, 11}, {-10, 11}}, color = {255, 128, 0}));
  connect(wheelJoint[3].wA, axleB.w[1]) annotation(Line(points = {{-20, -4}, {-13, -4}, {-13, -19}, {-10, -19}}, color = {255, 128, 0}));
  connect(wheelJoint[4].wA, axleB.w[2]) annotation(Line(points = {{-20, -4}, {-13, -4}, {-13, -19}, {-10, -19}}, color = {255, 128, 0}));
  connect(halfF.k, pivotF.kA) annotation(Line(points = {{50, 19}, {40, 19}}, color = {0, 0, 255}));
  connect(axleF.k, pivotF.kB) annotation(Line(points = {{-10, 19}, {-14, 19}, {-14, 33}, {16, 33}, {16, 19}, {20, 19}}, color = {0, 0, 255}));
  connect(pivotF.wA, halfF.w[1]) annotation(Line(points = {{40, 11}, {50, 11}}, color = {255, 128, 0}));
  connect(pivotF.wB, axleF.w[3]) annotation(Line(points = {{20, 11}, {16, 11}, {16, 25}, {-14, 25}, {-14, 11}, {-10, 11}}, color = {255, 128, 0}));
  connect(halfB.k, pivotB.kA) annotation(Line(points = {{50, -11}, {40, -11}}, color = {0, 0, 255}));
  connect(axleB.k, pivotB.kB) annotation(Line(points = {{-10, -11}, {-14, -11}, {-14, -25}, {16, -25}, {16, -11}, {20, -11}}, color = {0, 0, 255}));
  connect(pivotB.wA, halfB.w[1]) annotation(Line(points = {{40, -19}, {50, -19}}, color = {255, 128, 0}));
  connect(pivotB.wB, axleB.w[3]) annotation(Line(points = {{20, -19}, {16, -19}, {16, -33}, {-14, -33}, {-14, -19}, {-10, -19}}, color = {255, 128, 0}));
  connect(halfB.k, crossbar.kA) annotation(Line(points = {{50, -11}, {46, -11}, {46, -25}, {76, -25}, {76, 19}, {80, 19}}, color = {0, 0, 255}));
  connect(halfF.k, crossbar.kB) annotation(Line(points = {{50, 19}, {46, 19}, {46, 33}, {104, 33}, {104, 19}, {100, 19}}, color = {0, 0, 255}));
  connect(crossbar.wA, halfB.w[2]) annotation(Line(points = {{80, 11}, {76, 11}, {76, -33}, {46, -33}, {46, -19}, {50, -19}}, color = {255, 128, 0}));
  connect(crossbar.wB, halfF.w[2]) annotation(Line(points = {{100, 11}, {104, 11}, {104, 25}, {46, 25}, {46, 11}, {50, 11}}, color = {255, 128, 0}));
  connect(halfB.k, rotorServo.kA) annotation(Line(points = {{50, -11}, {46, -11}, {46, -25}, {76, -25}, {76, -11}, {80, -11}}, color = {0, 0, 255}));
  connect(rotor.k, rotorServo.kB) annotation(Line(points = {{110, 4}, {103, 4}, {103, -11}, {100, -11}}, color = {0, 0, 255}));
  connect(rotorServo.wA, halfB.w[3]) annotation(Line(points = {{80, -19}, {76, -19}, {76, -33}, {46, -33}, {46, -19}, {50, -19}}, color = {255, 128, 0}));
  connect(rotorServo.wB, rotor.w[1]) annotation(Line(points = {{100, -19}, {107, -19}, {107, -4}, {110, -4}}, color = {255, 128, 0}));
  annotation(experiment(StartTime = 0, StopTime = 3, Tolerance = 1e-8, Interval = 0.01),
    Documentation(info = "<html>
<p>The snakeboard of Lewis, Ostrowski, Murray and Burdick (ICRA 1994) as Kosenko builds it (seed 002, sec. 3):
a crossbar with a wheelset at each end, each wheelset turning about a vertical pivot at distance <code>l</code>
from the centre, and a rotor (the rider's torso) on a vertical axis at the centre. Three
<a href=\"modelica://Nonholonomic.Joints.ServoRevolute\">servo-constraints</a> play the robot rider: the rotor's
angle <code>psi(t)</code> and the wheelsets' angles <code>phi_f(t)</code>, <code>phi_b(t)</code> relative to
the crossbar. The board moves by the reactions of the wheels' rolling constraints alone.</p>
<p>Each wheelset is an axle with two light wheels (thin disks rolling without slipping,
<a href=\"modelica://Nonholonomic.Contacts.DiskOnPlane\">DiskOnPlane</a>) on
<a href=\"modelica://Nonholonomic.Joints.CompliantRevolute\">compliant joints</a>, as in the wheelset.
The crossbar is two bodies joined at the centre by a
<a href=\"modelica://Nonholonomic.Joints.CompliantRevolute\">CompliantRevolute</a> along the crossbar: free to
twist, held by a spring-damper along the axis. A rigid crossbar on four wheels is statically indeterminate (the
four normal reactions of a four-legged table); the twist makes each half carry its own wheelset.</p>
<p>The lumped parameters are those of the planar model of Lewis et al.: total mass <code>m</code>, the
board's yaw inertia <code>J</code> about the centre (wheelsets' masses at distance <code>l</code> included),
the rotor's axial inertia <code>Jr</code>, a wheelset's yaw inertia <code>Jw</code> about its pivot; the
defaults satisfy Ostrowski's <code>m l^2 = J + Jr + 2 Jw</code>. The bodies' masses and inertias follow from
them and from the rotor's and the wheelsets' masses. The gait is a sine per servo; the default is the
\"drive\" gait: <code>psi = sin(2 pi t)</code>, <code>phi_f = -phi_b = 0.4 sin(2 pi t)</code>. The initial
state satisfies every constraint: the board moves at <code>v_0</code> along the direction both wheelsets allow,
each wheel rolls.</p>
<p>The wheels can only push (<a href=\"modelica://Nonholonomic.Interfaces.PartialUnilateralConstraint\">unilateral</a>
contacts), which the planar model cannot see: the wheels' sideways forces act at ground level, below the board,
and shift the load between them. At the drive gait the board gains 0.5 m/s per cycle; the least-loaded wheel's
force falls from 8.5 N in the first cycle to 0.5 N in the fourth, and at t = 4.28 s (2.06 m/s) wheel 4 would lift
off: the run stops there (at rtol 1e-4 already at 3.84 s: the least force is 0.5 N in the fourth cycle). The
experiment ends after three cycles, at 3 s, where every wheel still carries 3.9 N or more;
<code>unilateral = false</code> continues the
bilateral model of Lewis et al.</p>
</html>"));
end Snakeboard;
