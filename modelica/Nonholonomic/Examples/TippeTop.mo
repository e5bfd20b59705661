within Nonholonomic.Examples;
model TippeTop "Tippe-top of Leine and Glocker (2003) on two compliant Hertz contacts with Coulomb-Contensou friction"
  parameter Units.Mass m(min = 1e-9) = 6e-3 "Mass of the top";
  parameter Units.Inertia I1(min = 1e-15) = 8e-7 "Central moment of inertia about a transverse axis";
  parameter Units.Inertia I3(min = 1e-15) = 7e-7 "Central moment of inertia about the symmetry axis";
  parameter Units.Length R1(min = 1e-6) = 0.015 "Radius of the body sphere";
  parameter Units.Length R2(min = 1e-6) = 0.005 "Radius of the head sphere";
  parameter Units.Length e1 = 0.003 "Centre of the body sphere: distance from the centre of mass towards the head";
  parameter Units.Length e2 = 0.016 "Centre of the head sphere: distance from the centre of mass towards the head";
  parameter Integer frictionLaw(min = 1, max = 4) = 2 "Friction law over the patch: 1 point contact, 2 Contensou-Zhuravlev, 3 ellipsoidal (Leine-Glocker), 4 exact Hertz-Coulomb"
    annotation(choices(choice = 1 "point contact Coulomb", choice = 2 "Contensou-Zhuravlev approximation",
      choice = 3 "ellipsoidal law (Leine-Glocker)", choice = 4 "exact integral over the Hertz patch"));
  parameter Units.DimensionlessRatio mu(min = 0) = 0.3 "Coulomb friction coefficient";
  parameter Units.Velocity eps(min = 1e-12) = 1e-4 "Regularisation of the friction law at zero relative motion";
  parameter Units.Pressure E(min = 1) = 9.1e9 "Young's modulus of the top and of the plane (wood, Kosenko and Aleksandrov 2009)";
  parameter Units.DimensionlessRatio nu(min = -1, max = 0.5) = 0.3 "Poisson's ratio of the top and of the plane";
  parameter Units.InverseVelocity d(min = 0) = 1000 "Hunt-Crossley damping factor of both contacts (damping ratio about 0.5 of the small vertical oscillation at rest)";
  parameter Units.Acceleration g(min = 0) = 9.81 "Gravity acceleration";
  parameter Units.Angle theta_0(min = 0, max = 3.1416) = 0.1 "Initial tilt of the symmetry axis from the vertical (a rotation about the world x axis)";
  parameter Units.AngularVelocity spin_0 = 180 "Initial spin about the symmetry axis";
  parameter Units.Length gap_0(min = 0) = 0 "Initial height of the body sphere above the plane (0: just touching)";
  final parameter Real z_start[3](each unit = "1") = {0, -sin(theta_0), cos(theta_0)} "Initial symmetry axis, world frame";
  Bodies.Ground ground(nW = 2) annotation(Placement(transformation(extent = {{-30, -10}, {-50, 10}})));
  Bodies.RigidBody top(nW = 2, shapeType = Visualizers.none, m = m, I_b = {I1, I1, I3}, g_0 = {0, 0, -g},
    r_0_start = {0, 0, R1 + gap_0} - e1*z_start, v_0_start = {0, 0, 0},
    Q_start = Rotations.fromAxisAngle({1, 0, 0}, theta_0), w_0_start = spin_0*z_start)
    annotation(Placement(transformation(extent = {{30, -10}, {50, 10}})));
  Contacts.SphereOnPlaneElastic bodyContact(R = R1, c_b = {0, 0, e1}, frictionLaw = frictionLaw, mu = mu, eps = eps,
    E_A = E, nu_A = nu, E_B = E, nu_B = nu, d = d) annotation(Placement(transformation(extent = {{-10, 5}, {10, 25}})));
  Contacts.SphereOnPlaneElastic headContact(R = R2, c_b = {0, 0, e2}, frictionLaw = frictionLaw, mu = mu, eps = eps,
    E_A = E, nu_A = nu, E_B = E, nu_B = nu, d = d) annotation(Placement(transformation(extent = {{-10, -25}, {10, -5}})));
  output Units.Position r_0[3] = top.r_0 "Centre of mass";
  output Units.Quaternion Q[4] = top.Q "Attitude (body z: the symmetry axis, towards the head)";
  output Units.Angle theta = atan2(sqrt(top.T[1, 3]^2 + top.T[2, 3]^2), top.T[3, 3]) "Tilt of the symmetry axis from the vertical (pi: standing on the head)";
  output Units.Length height = top.r_0[3] "Height of the centre of mass";
  output Units.AngularVelocity spin = top.w_b[3] "Spin about the symmetry axis";
  output Units.Energy energy = top.energy + bodyContact.elasticEnergy + headContact.elasticEnergy "Total energy: kinetic, gravity, elastic";
  output Real jellett(unit = "kg.m3/s") = (top.T*(top.w_b .* {I1, I1, I3}))*(e1*top.T[:, 3] - {0, 0, R1}) "Jellett's quantity L.(e1 z - R1 e_z) of the body sphere";
  output Units.Force N1 = bodyContact.N "Normal force on the body sphere";
  output Units.Force N2 = headContact.N "Normal force on the head sphere";
  output Real touching(unit = "1") = noEvent((if bodyContact.delta > 0 then 1 else 0) + (if headContact.delta > 0 then 2 else 0)) "Which sphere touches: 0 none, 1 body, 2 head, 3 both";
  output Units.Position p1_0[3] = bodyContact.p_0 "Centre of the body sphere's contact patch (on the plane when touching)";
  output Units.Position p2_0[3] = headContact.p_0 "Centre of the head sphere's contact patch (on the plane when touching)";
  output Units.Power dissipation = bodyContact.dissipation + headContact.dissipation "Power lost in both contacts";
  Visualizers.Shape bodySphere(shapeType = Visualizers.ellipsoid, shapeSize = fill(2*R1, 3), color = {200, 80, 60},
    r_0 = top.r_0 + e1*top.T[:, 3], T = top.T) "The body sphere (animation)";
  Visualizers.Shape headSphere(shapeType = Visualizers.ellipsoid, shapeSize = fill(2*R2, 3), color = {70, 120, 200},
    r_0 = top.r_0 + e2*top.T[:, 3], T = top.T) "The head sphere (animation)";
  Visualizers.Shape stem(shapeType = Visualizers.cylinder, shapeSize = {R2, 0, e2 - e1}, color = {70, 120, 200},
    r_0 = top.r_0 + (e1 + e2)/2*top.T[:, 3], T = top.T) "The stem between them (animation)";
equation
  // the body sphere starts at gap_0 >= 0 above the plane; the head must not start inside it (Hertz holds for
  // penetrations small against the radius: 1 % allowed, as in the reference)
  assert(R1 + gap_0 + (e2 - e1)*cos(theta_0) >= 0.99*R2,
    "the head sphere starts inside the plane: lower theta_0 or R2, or raise gap_0");
  connect(ground.k, bodyContact.kA) annotation(Line(points = {{-30, 4}, {-22, 4}, {-22, 19}, {-10, 19}}, color = {0, 0, 255}));
  connect(top.k, bodyContact.kB) annotation(Line(points = {{30, 4}, {18, 4}, {18, 19}, {10, 19}}, color = {0, 0, 255}));
  connect(bodyContact.wA, ground.w[1]) annotation(Line(points = {{-10, 11}, {-18, 11}, {-18, -4}, {-30, -4}}, color = {255, 128, 0}));
  connect(bodyContact.wB, top.w[1]) annotation(Line(points = {{10, 11}, {22, 11}, {22, -4}, {30, -4}}, color = {255, 128, 0}));
  connect(ground.k, headContact.kA) annotation(Line(points = {{-30, 4}, {-22, 4}, {-22, -11}, {-10, -11}}, color = {0, 0, 255}));
  connect(top.k, headContact.kB) annotation(Line(points = {{30, 4}, {18, 4}, {18, -11}, {10, -11}}, color = {0, 0, 255}));
  connect(headContact.wA, ground.w[2]) annotation(Line(points = {{-10, -19}, {-18, -19}, {-18, -4}, {-30, -4}}, color = {255, 128, 0}));
  connect(headContact.wB, top.w[2]) annotation(Line(points = {{10, -19}, {22, -19}, {22, -4}, {30, -4}}, color = {255, 128, 0}));
  annotation(experiment(StartTime = 0, StopTime = 10, Tolerance = 1e-8, Interval = 0.002),
    Documentation(info = "<html>
<p>The tippe-top of Leine and Glocker (Eur. J. Mech. A/Solids 22(2), 2003): a body sphere of radius
<code>R1 = 15 mm</code> and a head sphere of radius <code>R2 = 5 mm</code> whose centres lie
<code>e1 = 3 mm</code> and <code>e2 = 16 mm</code> from the centre of mass along the symmetry axis; mass
6 g, <code>I1 = I2 = 8e-7</code>, <code>I3 = 7e-7 kg m^2</code>, <code>mu = 0.3</code>. Spun fast on its
body sphere, friction turns it over onto its head. Each sphere has its own compliant contact with the
plane (<a href=\"modelica://Nonholonomic.Contacts.SphereOnPlaneElastic\">SphereOnPlaneElastic</a>): Hertz
pressure with the modulus of wood (<code>E = 9.1e9 Pa</code>, Poisson 0.3, for the top and the plane alike:
Kosenko and Aleksandrov 2009), Coulomb friction integrated over the patch by the law
<code>frictionLaw</code>. Leine and Glocker's contact is rigid; the Hunt-Crossley damping
<code>d = 1000 s/m</code> is this model's choice (the paper has none to give): it damps the vertical
oscillation of the top on its body sphere (about 1.5 kHz) with a damping ratio near 0.5, without which the
oscillation started by the first touch would ring through the run.</p>
<p>Initial state: the symmetry axis tilted by <code>theta_0 = 0.1 rad</code> (about the world x axis), spin
<code>spin_0 = 180 rad/s</code> about it, the centre of mass at rest, the body sphere just touching the plane
(<code>gap_0 = 0</code>; its centre above the origin). Outputs: the tilt <code>theta</code> (the top has
turned over at <code>theta</code> near <code>pi</code>), the height of the centre of mass, the spin,
the total energy (never increasing; constant for <code>mu = 0, d = 0</code>), Jellett's quantity (constant
for a point-contact friction force on the body sphere alone), the normal forces, which sphere touches.</p>
</html>"));
end TippeTop;
