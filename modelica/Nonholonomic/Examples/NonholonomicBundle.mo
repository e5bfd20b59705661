within Nonholonomic.Examples;
model NonholonomicBundle "Two bodies joined at a common point by a spherical and a nonholonomic hinge, moving freely"
  parameter Units.Mass m_s(min = 1e-9) = 1 "Mass of the shell";
  parameter Units.Inertia I_s(min = 1e-12) = 0.03 "Central moment of inertia of the shell (dynamically spherical)";
  parameter Units.Mass m_b(min = 1e-9) = 2 "Mass of the inner body";
  parameter Units.Inertia I_b[3](each min = 1e-12) = {0.012, 0.02, 0.016} "Principal central moments of inertia of the inner body";
  parameter Real e_b[3] = {0, 0, 1} "Unit direction fixed in the inner body (principal frame) about which the shell may not turn relative to it";
  parameter Units.Quaternion Q_b_0[4] = Rotations.fromAxisAngle({0.6, 0.8, 0}, 0.4) "Initial attitude of the inner body";
  parameter Units.AngularVelocity w_b_b_0[3] = {1, -0.5, 2} "Initial angular velocity of the inner body, its body frame";
  parameter Units.AngularVelocity W_rel_b_0[3] = {0.5, 1.5, 0} "Initial angular velocity of the shell relative to the inner body, inner body frame (its component along e_b is removed)";
  final parameter Units.AngularVelocity W_b_start[3] = w_b_b_0 + W_rel_b_0 - (W_rel_b_0*e_b)*e_b "Initial angular velocity of the shell, inner body frame";
  Bodies.RigidBody shell(nW = 2, color = {120, 170, 220}, opacity = 0.3, m = m_s, I_b = {I_s, I_s, I_s}, final g_0 = {0, 0, 0}, final r_0_start = {0, 0, 0},
    final v_0_start = {0, 0, 0}, final Q_start = {1, 0, 0, 0}, w_0_start = Rotations.rotationMatrix(Q_b_0)*W_b_start)
    annotation(Placement(transformation(extent = {{-30, -10}, {-50, 10}})));
  Bodies.RigidBody body(nW = 2, m = m_b, I_b = I_b, final g_0 = {0, 0, 0}, final r_0_start = {0, 0, 0},
    final v_0_start = {0, 0, 0}, Q_start = Q_b_0,
    w_0_start = Rotations.rotationMatrix(Q_b_0)*w_b_b_0) annotation(Placement(transformation(extent = {{30, -10}, {50, 10}})));
  Joints.SphericalHinge hinge(final p_a = {0, 0, 0}, final p_b = {0, 0, 0}) annotation(Placement(transformation(extent = {{-10, 5}, {10, 25}})));
  Joints.NonholonomicHinge suslov(e_a = e_b) annotation(Placement(transformation(extent = {{10, -25}, {-10, -5}})));
  output Units.Quaternion Q_b[4] = body.Q "Attitude of the inner body";
  output Units.AngularVelocity w_b_b[3] = body.w_b "Angular velocity of the inner body, its body frame";
  output Units.AngularVelocity w_s_0[3] = shell.k.w_0 "Angular velocity of the shell, world frame";
  output Units.Energy energy = shell.energy + body.energy "Total (kinetic) energy";
  output Units.AngularVelocity hinge_slip = suslov.w_rel "Drift of the nonholonomic hinge";
  output Units.Length hinge_drift = sqrt(hinge.delta_0*hinge.delta_0) "Drift of the spherical hinge";
equation
  connect(shell.k, hinge.kA) annotation(Line(points = {{-30, 4}, {-22, 4}, {-22, 19}, {-10, 19}}, color = {0, 0, 255}));
  connect(body.k, hinge.kB) annotation(Line(points = {{30, 4}, {18, 4}, {18, 19}, {10, 19}}, color = {0, 0, 255}));
  connect(hinge.wA, shell.w[1]) annotation(Line(points = {{-10, 11}, {-18, 11}, {-18, -4}, {-30, -4}}, color = {255, 128, 0}));
  connect(hinge.wB, body.w[1]) annotation(Line(points = {{10, 11}, {22, 11}, {22, -4}, {30, -4}}, color = {255, 128, 0}));
  connect(body.k, suslov.kA) annotation(Line(points = {{30, 4}, {18, 4}, {18, -11}, {10, -11}}, color = {0, 0, 255}));
  connect(shell.k, suslov.kB) annotation(Line(points = {{-30, 4}, {-22, 4}, {-22, -11}, {-10, -11}}, color = {0, 0, 255}));
  connect(suslov.wA, body.w[2]) annotation(Line(points = {{10, -19}, {22, -19}, {22, -4}, {30, -4}}, color = {255, 128, 0}));
  connect(suslov.wB, shell.w[2]) annotation(Line(points = {{-10, -19}, {-18, -19}, {-18, -4}, {-30, -4}}, color = {255, 128, 0}));
  annotation(experiment(StartTime = 0, StopTime = 10, Tolerance = 1e-10, Interval = 0.01),
    Documentation(info = "<html>
<p>The free nonholonomic bundle (Bizyaev, Borisov, Mamaev 2013, section 3; a generalised Suslov problem):
a dynamically spherical shell and an inner body, their centres of mass joined by a spherical hinge, may
not turn relative to each other about the direction <code>e_b</code> fixed in the inner body. No plane, no
gravity: the common centre stays at rest, the total angular momentum is fixed in space and the kinetic
energy is conserved.</p>
</html>"));
end NonholonomicBundle;
