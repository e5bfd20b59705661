within Nonholonomic.Examples;
model ShellWithNonholonomicHinge "Spherical robot: a shell rolling on a plane with a body inside on a nonholonomic hinge"
  parameter Units.Length R_s(min = 1e-6) = 0.2 "Outer radius of the shell";
  parameter Units.Mass m_s(min = 1e-9) = 1 "Mass of the shell";
  parameter Units.Inertia I_s(min = 0) = 0 "Central moment of inertia of the shell, dynamically spherical, at most 2/3 m_s R_s^2 (0: thin shell, 2/3 m_s R_s^2, following m_s and R_s)";
  // Evaluate = false: follows parameters set at run time (not folded at build time)
  final parameter Units.Inertia I_s_used = if I_s > 0 then I_s else 2/3*m_s*R_s^2 "Central moment of inertia of the shell in use: I_s, or 2/3 m_s R_s^2 if I_s = 0" annotation(Evaluate = false);
  parameter Units.Mass m_b(min = 1e-9) = 2 "Mass of the inner body (its centre of mass at the shell's centre)";
  parameter Units.Inertia I_b[3](each min = 1e-12) = {0.012, 0.02, 0.016} "Principal central moments of inertia of the inner body";
  parameter Units.Acceleration g(min = 0) = 9.81 "Gravity acceleration";
  parameter Units.Quaternion Q_b_0[4] = Rotations.fromAxisAngle({0.6, 0.8, 0}, 0.4) "Initial attitude of the inner body";
  parameter Units.AngularVelocity w_b_b_0[3] = {1, -0.5, 2} "Initial angular velocity of the inner body, its body frame";
  parameter Units.AngularVelocity Omega_12_0[2] = {0.5, 1.5} "Initial angular velocity of the shell about the inner body's axes 1 and 2 (about axis 3 it equals the inner body's)";
  parameter Units.Position x_0 = 0 "Initial x of the contact point";
  parameter Units.Position y_0 = 0 "Initial y of the contact point";
  parameter Boolean unilateral = true "true: the run stops where the shell's normal force would turn negative (it would lift off); false: the plane may pull (the bilateral model)";
  final parameter Units.AngularVelocity W_start[3] = Rotations.rotationMatrix(Q_b_0)*{Omega_12_0[1], Omega_12_0[2], w_b_b_0[3]} "Initial angular velocity of the shell, world frame";
  final parameter Units.Velocity V_start[3] = cross(W_start, {0, 0, R_s}) "Initial velocity of the centre (rolling)";
  Bodies.Ground ground(nW = 1) annotation(Placement(transformation(extent = {{-70, -10}, {-90, 10}})));
  Bodies.RigidBody shell(shapeType = Visualizers.ellipsoid, shapeSize = fill(2*R_s, 3), color = {120, 170, 220}, opacity = 0.3, nW = 3, m = m_s, I_b = {I_s_used, I_s_used, I_s_used}, g_0 = {0, 0, -g}, r_0_start = {x_0, y_0, R_s},
    v_0_start = V_start, final Q_start = {1, 0, 0, 0}, w_0_start = W_start)
    annotation(Placement(transformation(extent = {{-10, -10}, {10, 10}})));
  Bodies.RigidBody body(nW = 2, m = m_b, I_b = I_b, g_0 = {0, 0, -g}, r_0_start = {x_0, y_0, R_s}, v_0_start = V_start,
    Q_start = Q_b_0, w_0_start = Rotations.rotationMatrix(Q_b_0)*w_b_b_0) annotation(Placement(transformation(extent = {{70, -10}, {90, 10}})));
  Contacts.BallOnPlane contact(R = R_s, final c_b = {0, 0, 0}, unilateral = unilateral) annotation(Placement(transformation(extent = {{-50, -10}, {-30, 10}})));
  Joints.SphericalHinge hinge(final p_a = {0, 0, 0}, final p_b = {0, 0, 0}) annotation(Placement(transformation(extent = {{30, 5}, {50, 25}})));
  Joints.NonholonomicHinge suslov(final e_a = {0, 0, 1}) annotation(Placement(transformation(extent = {{50, -25}, {30, -5}})));
  output Units.Quaternion Q_b[4] = body.Q "Attitude of the inner body";
  output Units.AngularVelocity w_b_b[3] = body.w_b "Angular velocity of the inner body, its body frame";
  output Units.Position r_s_0[3] = shell.r_0 "Centre of the shell";
  output Units.AngularVelocity w_s_0[3] = shell.k.w_0 "Angular velocity of the shell, world frame";
  output Units.Position p_0[3] = contact.p_0 "Contact point";
  output Units.Energy energy = shell.energy + body.energy "Total energy";
  output Units.Force N = contact.N "Normal reaction of the plane";
  output Units.Length gap = contact.gap "Drift of the holonomic contact constraint";
  output Units.Velocity slip = contact.slip "Drift of the rolling constraint";
  output Units.AngularVelocity hinge_slip = suslov.w_rel "Drift of the nonholonomic hinge";
equation
  assert(I_s_used <= (1 + 1e-9)*2/3*m_s*R_s^2, "the shell's moment of inertia I_s must be at most 2/3 m_s R_s^2 (a dynamically spherical body within the radius R_s; a thin shell has 2/3 m_s R_s^2)");
  connect(ground.k, contact.kA) annotation(Line(points = {{-70, 4}, {-50, 4}}, color = {0, 0, 255}));
  connect(shell.k, contact.kB) annotation(Line(points = {{-10, 4}, {-30, 4}}, color = {0, 0, 255}));
  connect(contact.wA, ground.w[1]) annotation(Line(points = {{-50, -4}, {-70, -4}}, color = {255, 128, 0}));
  connect(contact.wB, shell.w[1]) annotation(Line(points = {{-30, -4}, {-10, -4}}, color = {255, 128, 0}));
  connect(shell.k, hinge.kA) annotation(Line(points = {{-10, 4}, {-14, 4}, {-14, 33}, {26, 33}, {26, 19}, {30, 19}}, color = {0, 0, 255}));
  connect(body.k, hinge.kB) annotation(Line(points = {{70, 4}, {58, 4}, {58, 19}, {50, 19}}, color = {0, 0, 255}));
  connect(hinge.wA, shell.w[2]) annotation(Line(points = {{30, 11}, {26, 11}, {26, -18}, {-14, -18}, {-14, -4}, {-10, -4}}, color = {255, 128, 0}));
  connect(hinge.wB, body.w[1]) annotation(Line(points = {{50, 11}, {62, 11}, {62, -4}, {70, -4}}, color = {255, 128, 0}));
  connect(body.k, suslov.kA) annotation(Line(points = {{70, 4}, {58, 4}, {58, -11}, {50, -11}}, color = {0, 0, 255}));
  connect(shell.k, suslov.kB) annotation(Line(points = {{-10, 4}, {-14, 4}, {-14, -25}, {26, -25}, {26, -11}, {30, -11}}, color = {0, 0, 255}));
  connect(suslov.wA, body.w[2]) annotation(Line(points = {{50, -19}, {62, -19}, {62, -4}, {70, -4}}, color = {255, 128, 0}));
  connect(suslov.wB, shell.w[3]) annotation(Line(points = {{30, -19}, {26, -19}, {26, -33}, {-14, -33}, {-14, -4}, {-10, -4}}, color = {255, 128, 0}));
  annotation(experiment(StartTime = 0, StopTime = 10, Tolerance = 1e-10, Interval = 0.01),
    Documentation(info = "<html>
<p>A spherical robot with a nonholonomic hinge (Bizyaev, Borisov, Mamaev 2013, section 2): a dynamically
spherical shell rolls without slipping on a horizontal plane; an inner body with its centre of mass at the
shell's centre turns about that centre (spherical hinge) and may not turn relative to the shell about its
own axis 3 (<a href=\"modelica://Nonholonomic.Joints.NonholonomicHinge\">NonholonomicHinge</a>, realised
by sharp wheels). The angular momentum about the contact point is fixed in space; the energy is
conserved. The shell's moment of inertia
<code>I_s</code> defaults to 0, which means that of a thin shell, <code>2/3 m_s R_s^2</code>, following
<code>m_s</code> and <code>R_s</code>; the value in use is <code>I_s_used</code>.</p>
</html>"));
end ShellWithNonholonomicHinge;
