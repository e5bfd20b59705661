within Nonholonomic.Examples;
model ChaplyginBall "Chaplygin ball: balanced, dynamically asymmetric ball rolling without slipping on a plane"
  parameter Units.Length R(min = 1e-6) = 0.1 "Ball radius";
  parameter Units.Mass m(min = 1e-9) = 1 "Mass";
  parameter Units.Inertia I_b[3](each min = 1e-12) = {0.002, 0.003, 0.0045} "Principal central moments of inertia";
  parameter Units.Position c_b[3] = {0, 0, 0} "Centre of mass relative to the geometric centre, body frame (0: Chaplygin ball)";
  parameter Units.Acceleration g(min = 0) = 9.81 "Gravity acceleration";
  parameter Units.Quaternion Q_0[4] = Rotations.fromAxisAngle({0.6, 0, 0.8}, 0.7) "Initial attitude";
  parameter Units.AngularVelocity w_0_start[3] = {2, -1, 5} "Initial angular velocity, world frame";
  parameter Units.Position x_0 = 0 "Initial x of the contact point";
  parameter Units.Position y_0 = 0 "Initial y of the contact point";
  parameter Boolean unilateral = true "true: the run stops where the ball's normal force would turn negative (it would lift off); false: the plane may pull (the bilateral model)";
  final parameter Units.Position c_start[3] = Rotations.rotationMatrix(Q_0)*c_b "Initial offset of the centre of mass, world frame";
  Bodies.Ground ground(nW = 1) annotation(Placement(transformation(extent = {{-30, -10}, {-50, 10}})));
  Bodies.RigidBody ball(nW = 1, color = {200, 80, 60}, m = m, I_b = I_b, g_0 = {0, 0, -g},
    r_0_start = {x_0, y_0, R} + c_start, v_0_start = cross(w_0_start, {0, 0, R} + c_start),
    Q_start = Q_0, w_0_start = w_0_start) annotation(Placement(transformation(extent = {{30, -10}, {50, 10}})));
  Contacts.BallOnPlane contact(R = R, c_b = c_b, unilateral = unilateral) annotation(Placement(transformation(extent = {{-10, -10}, {10, 10}})));
  output Units.Position r_0[3] = ball.r_0 "Centre of mass";
  output Units.Quaternion Q[4] = ball.Q "Attitude";
  output Units.Velocity v_0[3] = ball.v_0 "Velocity of the centre of mass";
  output Units.AngularVelocity w_b[3] = ball.w_b "Angular velocity, body frame";
  output Units.Position p_0[3] = contact.p_0 "Contact point";
  output Units.Energy energy = ball.energy "Total energy";
  output Units.Force N = contact.N "Normal reaction";
  output Units.Length gap = contact.gap "Drift of the holonomic constraint";
  output Units.Velocity slip = contact.slip "Drift of the rolling constraint";
  Visualizers.Shape sphere(shapeType = Visualizers.ellipsoid, shapeSize = fill(2*R, 3), color = {120, 170, 220}, opacity = 0.3,
    r_0 = ball.r_0 - ball.T*c_b, T = ball.T) "The ball's surface around its ellipsoid of inertia (animation)";
equation
  assert(c_b*c_b < R^2, "ChaplyginBall: the centre of mass must lie inside the ball: |c_b| < R");
  assert(I_b[1] + I_b[2] + I_b[3] <= (1 + 1e-9)*2*m*(R^2 - c_b*c_b), "ChaplyginBall: I_b[1] + I_b[2] + I_b[3] must be at most 2 m (R^2 - |c_b|^2) (the trace is 2 sum m |r|^2 about the centre of mass: the mass lies within the ball)");
  connect(ground.k, contact.kA) annotation(Line(points = {{-30, 4}, {-10, 4}}, color = {0, 0, 255}));
  connect(ball.k, contact.kB) annotation(Line(points = {{30, 4}, {10, 4}}, color = {0, 0, 255}));
  connect(contact.wA, ground.w[1]) annotation(Line(points = {{-10, -4}, {-30, -4}}, color = {255, 128, 0}));
  connect(contact.wB, ball.w[1]) annotation(Line(points = {{10, -4}, {30, -4}}, color = {255, 128, 0}));
  annotation(experiment(StartTime = 0, StopTime = 10, Tolerance = 1e-10, Interval = 0.01),
    Documentation(info = "<html>
<p>The Chaplygin ball (1903): a ball whose centre of mass is its geometric centre, with three different
principal moments of inertia, rolls without slipping on a horizontal plane. Integrable; its energy, the
area integral <code>(M, gamma)</code>, <code>M^2</code> and <code>gamma^2 = 1</code> are conserved
(<code>M</code>: angular momentum about the contact point). A nonzero <code>c_b</code> gives an
unbalanced ball on the same contact model. The initial velocity follows from rolling without slipping.</p>
</html>"));
end ChaplyginBall;
