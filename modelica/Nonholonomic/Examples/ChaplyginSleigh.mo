within Nonholonomic.Examples;
model ChaplyginSleigh "Chaplygin sleigh: a body on a plane with a knife edge at a distance from its centre of mass"
  parameter Units.Mass m(min = 1e-9) = 1 "Mass";
  parameter Units.Inertia I_z(min = 1e-12) = 0.02 "Moment of inertia about the vertical axis through the centre of mass";
  parameter Units.Length a = 0.2 "Distance of the blade point from the centre of mass along the blade (body x axis)";
  parameter Units.Position x_0 = 0 "Initial x of the centre of mass";
  parameter Units.Position y_0 = 0 "Initial y of the centre of mass";
  parameter Units.Angle psi_0 = 0 "Initial heading of the blade (body x axis)";
  parameter Units.Velocity u_0 = 0.5 "Initial speed along the blade";
  parameter Units.AngularVelocity omega_0 = 2 "Initial angular velocity about the vertical";
  Bodies.Ground ground(nW = 2) annotation(Placement(transformation(extent = {{-30, -10}, {-50, 10}})));
  Bodies.RigidBody sleigh(nW = 2, shapeType = Visualizers.box, shapeSize = {2.5*abs(a) + 0.1, 0.25, 0.03}, color = {190, 140, 90}, m = m, I_b = {I_z, I_z, I_z}, final g_0 = {0, 0, -9.81},
    r_0_start = {x_0, y_0, 0}, Q_start = Rotations.fromAxisAngle({0, 0, 1}, psi_0),
    // the blade point moves along the blade: v_c = u e_x - omega a e_y
    v_0_start = u_0*{cos(psi_0), sin(psi_0), 0} - omega_0*a*{-sin(psi_0), cos(psi_0), 0},
    w_0_start = {0, 0, omega_0}) annotation(Placement(transformation(extent = {{30, -10}, {50, 10}})));
  Joints.PlanarSupport support(final h = 0, final u_b = {0, 0, 1}) annotation(Placement(transformation(extent = {{-10, 5}, {10, 25}})));
  Contacts.KnifeEdge blade(p_b = {a, 0, 0}, final e_b = {0, 1, 0}) annotation(Placement(transformation(extent = {{-10, -25}, {10, -5}})));
  output Units.Position r_0[3] = sleigh.r_0 "Centre of mass";
  output Units.Quaternion Q[4] = sleigh.Q "Attitude";
  output Units.Velocity v_0[3] = sleigh.v_0 "Velocity of the centre of mass";
  output Units.AngularVelocity w_0[3] = sleigh.k.w_0 "Angular velocity, world frame";
  output Units.Position p_0[3] = blade.p_0 "Blade point";
  output Units.Energy energy = sleigh.energy "Total energy";
  output Units.Velocity slip = blade.slip "Drift of the knife-edge constraint";
equation
  connect(ground.k, support.kA) annotation(Line(points = {{-30, 4}, {-22, 4}, {-22, 19}, {-10, 19}}, color = {0, 0, 255}));
  connect(ground.k, blade.kA) annotation(Line(points = {{-30, 4}, {-22, 4}, {-22, -11}, {-10, -11}}, color = {0, 0, 255}));
  connect(sleigh.k, support.kB) annotation(Line(points = {{30, 4}, {18, 4}, {18, 19}, {10, 19}}, color = {0, 0, 255}));
  connect(sleigh.k, blade.kB) annotation(Line(points = {{30, 4}, {18, 4}, {18, -11}, {10, -11}}, color = {0, 0, 255}));
  connect(support.wA, ground.w[1]) annotation(Line(points = {{-10, 11}, {-18, 11}, {-18, -4}, {-30, -4}}, color = {255, 128, 0}));
  connect(blade.wA, ground.w[2]) annotation(Line(points = {{-10, -19}, {-18, -19}, {-18, -4}, {-30, -4}}, color = {255, 128, 0}));
  connect(support.wB, sleigh.w[1]) annotation(Line(points = {{10, 11}, {22, 11}, {22, -4}, {30, -4}}, color = {255, 128, 0}));
  connect(blade.wB, sleigh.w[2]) annotation(Line(points = {{10, -19}, {22, -19}, {22, -4}, {30, -4}}, color = {255, 128, 0}));
  annotation(experiment(StartTime = 0, StopTime = 10, Tolerance = 1e-10, Interval = 0.01),
    Documentation(info = "<html>
<p>The Chaplygin sleigh (1912): a rigid body moving on a horizontal plane with a knife edge at distance
<code>a</code> along its axis from the centre of mass; the blade point cannot move across the blade. A
<a href=\"modelica://Nonholonomic.Joints.PlanarSupport\">PlanarSupport</a> keeps the motion planar. With
the blade behind the centre of mass (<code>a</code> &lt; 0 in the direction of motion) the sleigh tends to
straight motion at a constant speed; energy is conserved.</p>
</html>"));
end ChaplyginSleigh;
