within Nonholonomic.Examples;
model ShellWithInnerBody "Spherical robot: a shell rolling on a plane with a body inside, on a spherical hinge at the shell's centre"
  parameter Units.Length R_s(min = 1e-6) = 0.2 "Outer radius of the shell";
  parameter Units.Mass m_s(min = 1e-9) = 1 "Mass of the shell";
  parameter Units.Inertia I_s(min = 0) = 0 "Central moment of inertia of the shell, dynamically spherical, at most 2/3 m_s R_s^2 (0: thin shell, 2/3 m_s R_s^2, following m_s and R_s)";
  // Evaluate = false: follows parameters set at run time (not folded at build time)
  final parameter Units.Inertia I_s_used = if I_s > 0 then I_s else 2/3*m_s*R_s^2 "Central moment of inertia of the shell in use: I_s, or 2/3 m_s R_s^2 if I_s = 0" annotation(Evaluate = false);
  parameter Units.Mass m_t(min = 1e-9) = 2 "Mass of the inner body";
  parameter Units.Inertia I_t[3](each min = 1e-12) = {0.012, 0.016, 0.02} "Principal central moments of inertia of the inner body";
  parameter Units.Position c[3] = {0.02, -0.01, -0.06} "Centre of mass of the inner body relative to the shell's centre, frame of the inner body";
  parameter Units.Acceleration g(min = 0) = 9.81 "Gravity acceleration";
  parameter Units.Quaternion Q_t_0[4] = Rotations.fromAxisAngle({0.6, 0.8, 0}, 0.4) "Initial attitude of the inner body";
  parameter Units.AngularVelocity w_t_b_0[3] = {1, -0.5, 2} "Initial angular velocity of the inner body, its body frame";
  parameter Units.AngularVelocity W_s_0[3] = {0.5, 1, 0.3} "Initial angular velocity of the shell, world frame";
  parameter Units.Position x_0 = 0 "Initial x of the contact point";
  parameter Units.Position y_0 = 0 "Initial y of the contact point";
  parameter Boolean unilateral = true "true: the run stops where the shell's normal force would turn negative (it would lift off); false: the plane may pull (the bilateral model)";
  final parameter Units.Position c_start[3] = Rotations.rotationMatrix(Q_t_0)*c "Initial offset of the inner body's centre of mass, world frame";
  final parameter Units.AngularVelocity w_t_start[3] = Rotations.rotationMatrix(Q_t_0)*w_t_b_0 "Initial angular velocity of the inner body, world frame";
  final parameter Units.Velocity V_start[3] = cross(W_s_0, {0, 0, R_s}) "Initial velocity of the shell's centre (rolling)";
  Bodies.Ground ground(nW = 1) annotation(Placement(transformation(extent = {{-70, -10}, {-90, 10}})));
  Bodies.RigidBody shell(shapeType = Visualizers.ellipsoid, shapeSize = fill(2*R_s, 3), color = {120, 170, 220}, opacity = 0.3, nW = 2, m = m_s, I_b = {I_s_used, I_s_used, I_s_used}, g_0 = {0, 0, -g}, r_0_start = {x_0, y_0, R_s},
    v_0_start = V_start, final Q_start = {1, 0, 0, 0}, w_0_start = W_s_0)
    annotation(Placement(transformation(extent = {{-10, -10}, {10, 10}})));
  Bodies.RigidBody top(nW = 1, m = m_t, I_b = I_t, g_0 = {0, 0, -g}, r_0_start = {x_0, y_0, R_s} + c_start,
    v_0_start = V_start + cross(w_t_start, c_start), Q_start = Q_t_0, w_0_start = w_t_start)
    annotation(Placement(transformation(extent = {{70, -10}, {90, 10}})));
  Contacts.BallOnPlane contact(R = R_s, final c_b = {0, 0, 0}, unilateral = unilateral) annotation(Placement(transformation(extent = {{-50, -10}, {-30, 10}})));
  Joints.SphericalHinge hinge(final p_a = {0, 0, 0}, p_b = -c) annotation(Placement(transformation(extent = {{30, -10}, {50, 10}})));
  output Units.Quaternion Q_t[4] = top.Q "Attitude of the inner body";
  output Units.AngularVelocity w_t_b[3] = top.w_b "Angular velocity of the inner body, its body frame";
  output Units.Position r_s_0[3] = shell.r_0 "Centre of the shell";
  output Units.Velocity v_s_0[3] = shell.v_0 "Velocity of the shell's centre";
  output Units.AngularVelocity w_s_0[3] = shell.k.w_0 "Angular velocity of the shell, world frame";
  output Units.Position p_0[3] = contact.p_0 "Contact point";
  output Units.Energy energy = shell.energy + top.energy "Total energy";
  output Units.Force N = contact.N "Normal reaction of the plane";
  output Units.Length gap = contact.gap "Drift of the holonomic contact constraint";
  output Units.Velocity slip = contact.slip "Drift of the rolling constraint";
  output Units.Length hinge_drift = sqrt(hinge.delta_0*hinge.delta_0) "Drift of the spherical hinge";
equation
  assert(c*c < R_s^2, "ShellWithInnerBody: the inner body's centre of mass must lie inside the shell: |c| < R_s");
  assert(I_s_used <= (1 + 1e-9)*2/3*m_s*R_s^2, "the shell's moment of inertia I_s must be at most 2/3 m_s R_s^2 (a dynamically spherical body within the radius R_s; a thin shell has 2/3 m_s R_s^2)");
  connect(ground.k, contact.kA) annotation(Line(points = {{-70, 4}, {-50, 4}}, color = {0, 0, 255}));
  connect(shell.k, contact.kB) annotation(Line(points = {{-10, 4}, {-30, 4}}, color = {0, 0, 255}));
  connect(contact.wA, ground.w[1]) annotation(Line(points = {{-50, -4}, {-70, -4}}, color = {255, 128, 0}));
  connect(contact.wB, shell.w[1]) annotation(Line(points = {{-30, -4}, {-10, -4}}, color = {255, 128, 0}));
  connect(shell.k, hinge.kA) annotation(Line(points = {{-10, 4}, {-14, 4}, {-14, 18}, {26, 18}, {26, 4}, {30, 4}}, color = {0, 0, 255}));
  connect(top.k, hinge.kB) annotation(Line(points = {{70, 4}, {50, 4}}, color = {0, 0, 255}));
  connect(hinge.wA, shell.w[2]) annotation(Line(points = {{30, -4}, {26, -4}, {26, -18}, {-14, -18}, {-14, -4}, {-10, -4}}, color = {255, 128, 0}));
  connect(hinge.wB, top.w[1]) annotation(Line(points = {{50, -4}, {70, -4}}, color = {255, 128, 0}));
  annotation(experiment(StartTime = 0, StopTime = 10, Tolerance = 1e-10, Interval = 0.01),
    Documentation(info = "<html>
<p>A spherical robot (Bizyaev, Borisov, Mamaev 2013, section 1): a dynamically spherical shell rolls
without slipping on a horizontal plane; a rigid body inside is fixed at the shell's centre by a
<a href=\"modelica://Nonholonomic.Joints.SphericalHinge\">SphericalHinge</a>, its centre of mass at
<code>c</code> from the hinge. The reduced motion in (omega, gamma) of the inner body has the energy, the
area integral and the Chaplygin vector integral; <code>c = 0</code> is the Euler case and
<code>I_t[1] = I_t[2]</code>, <code>c = {0, 0, c3}</code> the Lagrange case. The shell's moment of inertia
<code>I_s</code> defaults to 0, which means that of a thin shell, <code>2/3 m_s R_s^2</code>, following
<code>m_s</code> and <code>R_s</code>; the value in use is <code>I_s_used</code>.</p>
</html>"));
end ShellWithInnerBody;
