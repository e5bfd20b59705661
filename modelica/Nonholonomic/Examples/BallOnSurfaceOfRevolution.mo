within Nonholonomic.Examples;
model BallOnSurfaceOfRevolution "Heavy homogeneous ball rolling without slipping on a surface of revolution chosen by parameter"
  parameter Integer surface(min = 1, max = 5) = 2 "Built-in centre surface: 1 paraboloid, 2 spherical bowl, 3 ellipsoid bowl, 4 cone, 5 torus trough";
  parameter Units.Length a(min = 1e-6) = 0.5 "First shape parameter of the centre surface";
  parameter Units.Length b = 0.3 "Second shape parameter of the centre surface";
  parameter Units.Length R(min = 1e-6) = 0.1 "Ball radius";
  parameter Units.Mass m(min = 1e-9) = 1 "Ball mass";
  parameter Units.Acceleration g(min = 0) = 9.81 "Gravity acceleration";
  parameter Units.Coordinate q1_0 = 0.6 "Initial meridian coordinate of the centre";
  parameter Units.Angle q2_0 = 0 "Initial azimuth of the centre";
  parameter Real v1_0(unit = "1/s") = 0 "Initial dq1/dt";
  parameter Units.AngularVelocity v2_0 = 3 "Initial dq2/dt";
  parameter Units.Velocity Lambda_0 = 0 "Initial R omega_3 (spin about the surface normal)";
  parameter Boolean unilateral = true "true: the run stops where the ball's normal force would turn negative (it would lift off); false: the surface may pull (the bilateral model)";
  final parameter Units.Inertia J = 2/5*m*R^2 "Central moment of inertia of a homogeneous ball";
  Bodies.Ground ground(nW = 1, shapeType = Visualizers.none) annotation(Placement(transformation(extent = {{-30, -10}, {-50, 10}})));
  Bodies.RigidBody ball(nW = 1, m = m, I_b = {J, J, J}, g_0 = {0, 0, -g}, final Q_start = {1, 0, 0, 0},
    r_0_start = Surfaces.centrePosition(q1_0, q2_0, surface, a, b),
    v_0_start = Surfaces.centreVelocity(q1_0, q2_0, v1_0, v2_0, surface, a, b),
    w_0_start = Surfaces.rollingAngularVelocity(q1_0, q2_0, v1_0, v2_0, Lambda_0, R, surface, a, b))
    annotation(Placement(transformation(extent = {{30, -10}, {50, 10}})));
  Contacts.BallOnSurfaceOfRevolution contact(surface = surface, a = a, b = b, R = R, unilateral = unilateral)
    annotation(Placement(transformation(extent = {{-10, -10}, {10, 10}})));
  output Units.Coordinate q1 = contact.s "Meridian coordinate of the centre";
  output Units.Angle q2 = contact.phi "Azimuth of the centre, in (-pi, pi]";
  output Real v1(unit = "1/s") = contact.ds "dq1/dt";
  output Units.AngularVelocity v2 = contact.dphi "dq2/dt";
  output Units.Velocity Lambda = contact.Lambda "R omega_3";
  output Units.Energy energy = ball.energy "Total energy of the ball";
  output Units.Force F1 = contact.F1 "Reaction on the ball along the meridian";
  output Units.Force F2 = contact.F2 "Reaction on the ball along the parallel";
  output Units.Force N = contact.N "Normal reaction on the ball";
  output Units.Length gap = contact.gap "Drift of the holonomic constraint";
  output Units.Velocity slip = contact.slip "Drift of the rolling constraint";
  Visualizers.Shape surfaceShape(shapeType = Visualizers.surfaceOfRevolution, shapeSize = {a, b, R}, shapeCode = surface,
    color = {150, 190, 150}, opacity = 0.6, r_0 = {0, 0, 0}, T = [1, 0, 0; 0, 1, 0; 0, 0, 1]) "The surface on which the ball rolls (animation)";
equation
  connect(ground.k, contact.kA) annotation(Line(points = {{-30, 4}, {-10, 4}}, color = {0, 0, 255}));
  connect(ball.k, contact.kB) annotation(Line(points = {{30, 4}, {10, 4}}, color = {0, 0, 255}));
  connect(contact.wA, ground.w[1]) annotation(Line(points = {{-10, -4}, {-30, -4}}, color = {255, 128, 0}));
  connect(contact.wB, ball.w[1]) annotation(Line(points = {{10, -4}, {30, -4}}, color = {255, 128, 0}));
  annotation(experiment(StartTime = 0, StopTime = 5, Tolerance = 1e-10, Interval = 0.01),
    Documentation(info = "<html>
<p>A heavy homogeneous ball (<code>n^2 = J/(J + m R^2) = 2/7</code>) rolls without slipping on a surface of
revolution (Kosenko, Kuleshov, Shishkov 2024). The surface traced by the centre is one of the built-in
meridians, chosen by <code>surface</code>; initial values are given in the paper's coordinates
<code>q1, q2</code>, their rates <code>v1, v2</code>, and <code>Lambda = R omega_3</code>. The outputs are the
paper's variables, the energy (constant: the contact does no work) and the drift of both constraints.</p>
</html>"));
end BallOnSurfaceOfRevolution;
