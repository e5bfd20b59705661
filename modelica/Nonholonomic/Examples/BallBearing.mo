within Nonholonomic.Examples;
model BallBearing "Deep-groove ball bearing of Vil'ke, Kosenko and Aleksandrov (2009) with a radial clearance and a ball-guided cage: Z balls between two rings, 2 Z elliptic Hertz contacts and Z cage pockets with Coulomb-Contensou friction"
  parameter Integer Z(min = 3) = 8 "Number of balls";
  parameter Units.Length D_ball(min = 1e-6) = 8e-3 "Ball diameter";
  parameter Units.Length D_pm(min = 1e-6) = 40e-3 "Pitch diameter (of the balls' centres)";
  parameter Units.DimensionlessRatio f_i(min = 0.5) = 0.52 "Conformity of the inner groove: groove radius over ball diameter";
  parameter Units.DimensionlessRatio f_o(min = 0.5) = 0.52 "Conformity of the outer groove";
  parameter Units.Length P_d = 10e-6 "Diametral clearance (negative: preload); the default 10 um is in the normal (CN) group of ISO 5753-1 for bores 18-30 mm (6-20 um)";
  parameter Units.Pressure E(min = 1) = 2.1e11 "Young's modulus of balls and rings (steel)";
  parameter Units.DimensionlessRatio nu(min = -1, max = 0.5) = 0.3 "Poisson's ratio of balls and rings";
  parameter Real rho(unit = "kg/m3", min = 1) = 7850 "Density of the balls";
  parameter Units.Mass m_s(min = 1e-6) = 0.5 "Mass of the inner ring with its shaft";
  parameter Units.Inertia J_s(min = 1e-12) = 1e-4 "Moment of inertia of the inner ring with its shaft about the axis";
  parameter Units.Mass m_c(min = 1e-9) = 5e-3 "Mass of the cage (pressed steel)";
  parameter Units.Inertia J_c(min = 1e-15) = m_c*(D_pm/2)^2 "Moment of inertia of the cage about the axis (default: a thin ring on the pitch circle)";
  parameter Units.Length c_p(min = 1e-9) = 1e-4 "Pocket clearance: radius of a cage pocket minus the ball's radius";
  parameter Boolean sphericalPockets = true "true: spherical pockets on the pitch circle (the balls locate the cage); false: cylinders with radial axes (the balls hold it only circumferentially)";
  parameter Units.DimensionlessRatio mu_p(min = 0) = 0.1 "Coulomb friction coefficient of the balls on the cage pockets";
  parameter Units.InverseVelocity d_p(min = 0) = 10 "Hunt-Crossley damping factor of the pocket contacts";
  parameter Integer frictionLaw(min = 1, max = 4) = 2 "Friction law over the patch: 1 point contact, 2 Contensou-Zhuravlev, 3 ellipsoidal (Leine-Glocker), 4 exact over a circle"
    annotation(choices(choice = 1 "point contact Coulomb", choice = 2 "Contensou-Zhuravlev approximation",
      choice = 3 "ellipsoidal law (Leine-Glocker)", choice = 4 "exact integral over the Hertz patch"));
  parameter Units.DimensionlessRatio mu(min = 0) = 0.1 "Coulomb friction coefficient of the balls on the raceways";
  parameter Units.Velocity eps(min = 1e-12) = 1e-4 "Regularisation of the friction law at zero relative motion";
  parameter Units.InverseVelocity d(min = 0) = 10 "Hunt-Crossley damping factor of the contacts";
  parameter Boolean torqueDriven = false "false: the shaft's spin rate follows omega (servo); true: the torque T_drive drives it";
  parameter Units.AngularVelocity omega = 100 "Final spin rate of the inner ring (servo)";
  parameter Units.Torque T_drive = 0 "Final driving torque on the inner ring (torqueDriven)";
  parameter Units.Force F_r = 0 "Final radial load on the shaft, along -y";
  parameter Units.Time t_ramp(min = 1e-9) = 0.02 "Time constant of the start: rate, torque and load rise as 1 - exp(-t/t_ramp)";
  parameter Units.Angle theta_1 = -Constants.pi/2 "Initial orbital angle of ball 1 (-pi/2: on the load line)";
  parameter Units.Acceleration g(min = 0) = 0 "Gravity acceleration along -y (shaft horizontal)";
  final parameter Units.Mass m_ball = rho*Constants.pi*D_ball^3/6 "Mass of a ball";
  final parameter Units.Inertia I_ball = m_ball*D_ball^2/10 "Moment of inertia of a ball";
  final parameter Units.Length D_i = D_pm - D_ball - P_d/2 "Diameter of the inner raceway at the groove's bottom";
  final parameter Units.Length D_o = D_pm + D_ball + P_d/2 "Diameter of the outer raceway at the groove's bottom";
  // a ball pressed between the rings by the preload -P_d/2 is at rest where both contacts carry the same load:
  // delta_i + delta_o = -P_d/2 and sqrt(R_normal,i) delta_i^(3/2) = sqrt(R_normal,o) delta_o^(3/2)
  final parameter Units.Length delta_i_0 = noEvent(max(-P_d/2, 0))*contactOut[1].R_normal^(1/3)
    /(contactIn[1].R_normal^(1/3) + contactOut[1].R_normal^(1/3)) "Initial penetration of the inner contacts (balls at rest in equilibrium)";
  final parameter Units.Length r_ball_0 = (D_i + D_ball)/2 - delta_i_0 "Initial distance of the balls' centres from the axis";
  Bodies.Ground ground(nW = Z + 3, shapeType = Visualizers.ring, shapeSize = {D_o + D_ball/2, D_o, D_ball}, color = {170, 175, 185}, opacity = 0.5) "Housing with the outer ring" annotation(Placement(transformation(extent = {{-50, -10}, {-70, 10}})));
  Bodies.RigidBody shaft(nW = Z + 2, shapeType = Visualizers.ring, shapeSize = {D_i, D_i - D_ball/2, D_ball}, color = {170, 175, 185}, m = m_s, I_b = {J_s, J_s, J_s}, g_0 = {0, -g, 0}) "Inner ring on its shaft, axis z"
    annotation(Placement(transformation(extent = {{10, 5}, {30, 25}})));
  Bodies.RigidBody ball[Z](each nW = 3, each color = {60, 60, 70}, each m = m_ball, each I_b = fill(I_ball, 3), each g_0 = {0, -g, 0},
    r_0_start = {r_ball_0*{cos(theta_1 + 2*Constants.pi*(j - 1)/Z), sin(theta_1 + 2*Constants.pi*(j - 1)/Z), 0} for j in 1:Z})
    "Balls, at rest at first, each where its two contacts balance" annotation(Placement(transformation(extent = {{10, -25}, {30, -5}})));
  Bodies.RigidBody cage(nW = Z + 1, shapeType = Visualizers.ring, shapeSize = {D_pm + D_ball/4, D_pm - D_ball/4, D_ball/5}, color = {220, 170, 60}, m = m_c, I_b = {J_c/2, J_c/2, J_c}, g_0 = {0, -g, 0}) "Ball-guided cage, a ring on the pitch circle with Z pockets, axis z; its centre free in the bearing's plane"
    annotation(Placement(transformation(extent = {{50, 30}, {70, 50}})));
  Joints.PlanarSupport cageSupport "Keeps the cage's axis along z and its centre in the plane z = 0"
    annotation(Placement(transformation(extent = {{50, 60}, {70, 80}})));
  Contacts.BallInPocket pocket[Z](each D_ball = D_ball, each c_p = c_p, each spherical = sphericalPockets, each R_c = D_pm/2, phi = {theta_1 + 2*Constants.pi*(j - 1)/Z for j in 1:Z},
    each frictionLaw = frictionLaw, each mu = mu_p, each eps = eps, each d = d_p, each E_A = E, each nu_A = nu,
    each E_B = E, each nu_B = nu) "Balls in the cage's pockets" annotation(Placement(transformation(extent = {{80, 30}, {100, 50}})));
  Joints.PlanarSupport support "Keeps the shaft's axis along z and its centre in the plane z = 0"
    annotation(Placement(transformation(extent = {{-30, 20}, {-10, 40}})));
  Joints.ShaftDrive drive(torqueDriven = torqueDriven, omega = omega, T_drive = T_drive, F_load_0 = {0, -F_r, 0},
    t_ramp = t_ramp) "Drive and radial load of the shaft" annotation(Placement(transformation(extent = {{-30, -10}, {-10, 10}})));
  Contacts.BallOnRaceway contactIn[Z](each D_ball = D_ball, each D_race = D_i, each f = f_i, each outerRace = false,
    each frictionLaw = frictionLaw, each mu = mu, each eps = eps, each d = d, each E_A = E, each nu_A = nu,
    each E_B = E, each nu_B = nu) "Balls on the inner ring" annotation(Placement(transformation(extent = {{50, -10}, {70, 10}})));
  Contacts.BallOnRaceway contactOut[Z](each D_ball = D_ball, each D_race = D_o, each f = f_o, each outerRace = true,
    each frictionLaw = frictionLaw, each mu = mu, each eps = eps, each d = d, each E_A = E, each nu_A = nu,
    each E_B = E, each nu_B = nu) "Balls in the outer ring" annotation(Placement(transformation(extent = {{-30, -40}, {-10, -20}})));
  output Units.Angle orbitAngle[Z] = {atan2(ball[j].r_0[2], ball[j].r_0[1]) for j in 1:Z} "Orbital angle of each ball's centre about the bearing's axis";
  output Units.AngularVelocity orbitSpeed[Z] = {(ball[j].r_0[1]*ball[j].v_0[2] - ball[j].r_0[2]*ball[j].v_0[1])
    /(ball[j].r_0[1]^2 + ball[j].r_0[2]^2) for j in 1:Z} "Orbital speed of each ball's centre about the bearing's axis";
  output Units.AngularVelocity ballSpin[Z] = {ball[j].k.w_0[3] for j in 1:Z} "Each ball's absolute angular velocity about the bearing's axis";
  output Units.Force N_i[Z] = contactIn.N "Normal forces of the inner contacts";
  output Units.Force N_p[Z] = pocket.N "Normal forces of the pocket contacts";
  output Units.Length delta_p[Z] = pocket.delta "Penetrations of the pocket contacts (negative: apart)";
  output Units.AngularVelocity cageSpeed = cage.k.w_0[3] "Spin rate of the cage about the bearing's axis";
  output Units.Angle cageAngle = atan2(cage.T[2, 1], cage.T[1, 1]) "Angle of the cage about the bearing's axis";
  output Units.Position x_c = cage.r_0[1] "Displacement of the cage's centre along x";
  output Units.Position y_c = cage.r_0[2] "Displacement of the cage's centre along y";
  output Units.Force N_o[Z] = contactOut.N "Normal forces of the outer contacts";
  output Units.Length delta_i[Z] = contactIn.delta "Penetrations of the inner contacts (negative: apart)";
  output Units.Length delta_o[Z] = contactOut.delta "Penetrations of the outer contacts (negative: apart)";
  output Units.Length a_i[Z] = contactIn.semiMajor "Semi-major axes of the inner contact ellipses";
  output Units.Length b_i[Z] = contactIn.semiMinor "Semi-minor axes of the inner contact ellipses";
  output Units.Length a_o[Z] = contactOut.semiMajor "Semi-major axes of the outer contact ellipses";
  output Units.Length b_o[Z] = contactOut.semiMinor "Semi-minor axes of the outer contact ellipses";
  output Units.AngularVelocity shaftSpeed = drive.w_rel "Spin rate of the inner ring";
  output Units.Torque shaftTorque = drive.tau "Torque of the drive on the shaft";
  output Units.Power shaftPower = drive.power "Power put in by the drive and the radial load";
  output Units.Power frictionPower = sum(contactIn.dissipation) + sum(contactOut.dissipation) + sum(pocket.dissipation) "Power lost in the 2 Z raceway contacts and the Z pockets (friction and normal damping)";
  output Units.Power pocketPower = sum(pocket.dissipation) "Power lost in the Z pockets (friction and normal damping)";
  output Units.Position x_s = shaft.r_0[1] "Displacement of the shaft's centre along x";
  output Units.Position y_s = shaft.r_0[2] "Displacement of the shaft's centre along y (the load's line)";
  output Units.Energy energy = shaft.energy + sum(ball.energy) + cage.energy + sum(contactIn.elasticEnergy) + sum(contactOut.elasticEnergy)
    + sum(pocket.elasticEnergy) "Kinetic, gravity and elastic energy";
equation
  // the ball must fit the gap between the grooves' bottoms, and the grooves must hold it
  assert(D_ball < D_pm, "ball diameter D_ball must be smaller than the pitch diameter D_pm (the inner ring would vanish)");
  assert(P_d > -0.01*D_ball, "the ball is larger than the gap between the rings: a preload -P_d above 1 % of D_ball is no Hertz contact");
  assert(P_d < 0.1*D_ball, "the diametral clearance P_d must stay below 10 % of D_ball (the balls would leave the grooves)");
  assert(c_p < D_ball/2, "the pocket clearance c_p must be smaller than the ball's radius");
  assert(f_i > 0.5 and f_o > 0.5, "groove conformity f_i and f_o must exceed 0.5 (a groove tighter than the ball cannot hold it)");
  for j in 1:Z loop
    connect(shaft.k, contactIn[j].kA) annotation(Line(points = {{10, 19}, {6, 19}, {6, 33}, {46, 33}, {46, 4}, {50, 4}}, color = {0, 0, 255}));
    connect(ball[j].k, contactIn[j].kB) annotation(Line(points = {{10, -11}, {6, -11}, {6, -25}, {74, -25}, {74, 4}, {70, 4}}, color = {0, 0, 255}));
    connect(contactIn[j].wA, shaft.w[j]) annotation(Line(points = {{50, -4}, {46, -4}, {46, -18}, {6, -18}, {6, 11}, {10, 11}}, color = {255, 128, 0}));
    connect(contactIn[j].wB, ball[j].w[1]) annotation(Line(points = {{70, -4}, {74, -4}, {74, -33}, {6, -33}, {6, -19}, {10, -19}}, color = {255, 128, 0}));
    connect(ground.k, contactOut[j].kA) annotation(Line(points = {{-50, 4}, {-42, 4}, {-42, -26}, {-30, -26}}, color = {0, 0, 255}));
    connect(ball[j].k, contactOut[j].kB) annotation(Line(points = {{10, -11}, {-2, -11}, {-2, -26}, {-10, -26}}, color = {0, 0, 255}));
    connect(contactOut[j].wA, ground.w[j]) annotation(Line(points = {{-30, -34}, {-38, -34}, {-38, -4}, {-50, -4}}, color = {255, 128, 0}));
    connect(contactOut[j].wB, ball[j].w[2]) annotation(Line(points = {{-10, -34}, {2, -34}, {2, -19}, {10, -19}}, color = {255, 128, 0}));
    connect(cage.k, pocket[j].kA) annotation(Line(points = {{50, 44}, {46, 44}, {46, 52}, {78, 52}, {78, 44}, {80, 44}}, color = {0, 0, 255}));
    connect(ball[j].k, pocket[j].kB) annotation(Line(points = {{10, -11}, {6, -11}, {6, -27}, {104, -27}, {104, 44}, {100, 44}}, color = {0, 0, 255}));
    connect(pocket[j].wA, cage.w[j]) annotation(Line(points = {{80, 36}, {48, 36}, {48, 36}, {50, 36}}, color = {255, 128, 0}));
    connect(pocket[j].wB, ball[j].w[3]) annotation(Line(points = {{100, 36}, {106, 36}, {106, -29}, {4, -29}, {4, -19}, {10, -19}}, color = {255, 128, 0}));
  end for;
  connect(ground.k, cageSupport.kA) annotation(Line(points = {{-50, 4}, {-44, 4}, {-44, 74}, {50, 74}}, color = {0, 0, 255}));
  connect(cage.k, cageSupport.kB) annotation(Line(points = {{50, 44}, {44, 44}, {44, 58}, {74, 58}, {74, 74}, {70, 74}}, color = {0, 0, 255}));
  connect(cageSupport.wA, ground.w[Z+3]) annotation(Line(points = {{50, 66}, {-46, 66}, {-46, -4}, {-50, -4}}, color = {255, 128, 0}));
  connect(cageSupport.wB, cage.w[Z+1]) annotation(Line(points = {{70, 66}, {76, 66}, {76, 28}, {48, 28}, {48, 36}, {50, 36}}, color = {255, 128, 0}));
  connect(ground.k, support.kA) annotation(Line(points = {{-50, 4}, {-42, 4}, {-42, 34}, {-30, 34}}, color = {0, 0, 255}));
  connect(shaft.k, support.kB) annotation(Line(points = {{10, 19}, {-2, 19}, {-2, 34}, {-10, 34}}, color = {0, 0, 255}));
  connect(support.wA, ground.w[Z+1]) annotation(Line(points = {{-30, 26}, {-38, 26}, {-38, -4}, {-50, -4}}, color = {255, 128, 0}));
  connect(support.wB, shaft.w[Z+1]) annotation(Line(points = {{-10, 26}, {2, 26}, {2, 11}, {10, 11}}, color = {255, 128, 0}));
  connect(ground.k, drive.kA) annotation(Line(points = {{-50, 4}, {-30, 4}}, color = {0, 0, 255}));
  connect(shaft.k, drive.kB) annotation(Line(points = {{10, 19}, {-2, 19}, {-2, 4}, {-10, 4}}, color = {0, 0, 255}));
  connect(drive.wA, ground.w[Z+2]) annotation(Line(points = {{-30, -4}, {-50, -4}}, color = {255, 128, 0}));
  connect(drive.wB, shaft.w[Z+2]) annotation(Line(points = {{-10, -4}, {2, -4}, {2, 11}, {10, 11}}, color = {255, 128, 0}));
  annotation(experiment(StartTime = 0, StopTime = 0.3, Tolerance = 1e-8, Interval = 5e-4),
    Documentation(info = "<html>
<p>The ball bearing of Vil'ke, Kosenko and Aleksandrov (Regular and Chaotic Dynamics 14(6), 2009; seed 002,
section 6): <code>Z = 8</code> balls of <code>D_ball = 8 mm</code> on the pitch diameter <code>D_pm = 40 mm</code>,
deep grooves of conformity 0.52 on both rings, contact angle 0, steel (<code>E = 2.1e11 Pa</code>, Poisson 0.3,
7850 kg/m^3). The outer ring is the housing (the ground); the inner ring and its shaft are one body, kept
in the plane of the bearing by a <a href=\"modelica://Nonholonomic.Joints.PlanarSupport\">PlanarSupport</a> (its
centre free to move in that plane, as on real balls) and driven by a
<a href=\"modelica://Nonholonomic.Joints.ShaftDrive\">ShaftDrive</a>: a prescribed spin rate
<code>omega</code> (servo-constraint) or a torque <code>T_drive</code>, and a radial load <code>F_r</code> along
<code>-y</code>. Each ball is a free rigid body (no ball-to-ball contact) with two
<a href=\"modelica://Nonholonomic.Contacts.BallOnRaceway\">BallOnRaceway</a> contacts, 16 elliptic Hertz
patches in all.</p>
<p><b>Clearance and cage.</b> The diametral clearance <code>P_d = D_o - D_i - 2 D_ball</code> is
<code>+10 um</code> by default, the middle of the normal group (CN) of ISO 5753-1 for bores over 18 to 30 mm
(6 to 20 um), as a real bearing is mounted: under a radial load only the balls within Harris's load zone
<code>|psi| &lt; arccos(1 - 2 eps)</code>, <code>eps = (1 - P_d/(2 delta_r))/2</code>, carry it (Harris and
Kotzalas, Rolling Bearing Analysis, sect. 7.2). A negative <code>P_d</code> is a preload that loads every ball.
The balls are held apart by a ball-guided <code>cage</code>, a rigid ring (a <a href=\"modelica://Nonholonomic.Bodies.RigidBody\">RigidBody</a>
kept in the bearing's plane by a second PlanarSupport, its centre otherwise free) with one
<a href=\"modelica://Nonholonomic.Contacts.BallInPocket\">BallInPocket</a> contact per ball: spherical pockets on the
pitch circle with the clearance <code>c_p = 0.1 mm</code>, Hertz contact (steel on steel) with Hunt-Crossley damping
<code>d_p</code> and Coulomb-Contensou friction <code>mu_p</code>. The balls locate the cage, the cage keeps the balls'
spacing, and the unloaded balls outside the load zone are pushed by their pockets. Pockets shaped as cylinders
with radial axes (<code>sphericalPockets = false</code>) leave the cage free to wander radially: measured 1.7 mm
under 500 N at 100 rad/s, and at 20 N the balls leave their places; the spherical pocket is the default.</p>
<p>Choices the sources leave open: the cage's mass 5 g and its moment of inertia that of a thin ring on the pitch
circle, <code>c_p = 0.1 mm</code>, <code>mu_p = 0.1</code> (boundary-lubricated steel), <code>mu = 0.1</code>, the
inner ring with its shaft 0.5 kg and <code>1e-4 kg m^2</code>, Hunt-Crossley damping <code>d = d_p = 10 s/m</code>,
and a start from rest: the balls at rest on the inner ring (with a preload: where it presses them equally on both
rings) in the middle of their pockets, the spin rate and the load rising as <code>1 - exp(-t/t_ramp)</code>,
<code>t_ramp = 20 ms</code>.</p>
<p>In steady running the balls' centres orbit at the cage speed of pure rolling,
<code>omega_c = omega (1 - D_ball/D_pm)/2</code> (40 rad/s at <code>omega = 100 rad/s</code>), and each ball
turns at <code>-omega (1 - D_ball/D_pm) D_pm/(2 D_ball)</code> about the axis; the cage turns with them.</p>
</html>"));
end BallBearing;
