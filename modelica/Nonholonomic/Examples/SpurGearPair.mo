within Nonholonomic.Examples;
model SpurGearPair "Spur gear pair on a compliant involute mesh: pinion at a prescribed speed or driven by a torque, wheel loaded by a torque"
  parameter Units.Length m(min = 1e-9) = 2e-3 "Module";
  parameter Integer z1(min = 1) = 20 "Number of teeth of the pinion";
  parameter Integer z2(min = 1) = 35 "Number of teeth of the wheel";
  parameter Units.Angle alpha(min = 1e-6, max = 0.7853981633974483) = 0.3490658503988659 "Pressure angle (20 deg)";
  parameter Units.Length b(min = 1e-9) = 20e-3 "Face width";
  parameter Units.Length j(min = 0) = 1e-4 "Backlash along the line of action";
  parameter Units.Pressure E(min = 1) = 2.1e11 "Young's modulus of both gears (steel)";
  parameter Units.DimensionlessRatio nu(min = -1, max = 0.5) = 0.3 "Poisson's ratio of both gears";
  parameter Real rho(unit = "kg/m3", min = 1e-9) = 7850 "Density of both gears (steel)";
  parameter Units.Length r_int1(min = 1e-9) = (m*z1/2 - 1.25*m)/2 "Bore radius of the pinion (foundation compliance of its teeth; half its root radius)";
  parameter Units.Length r_int2(min = 1e-9) = (m*z2/2 - 1.25*m)/2 "Bore radius of the wheel (foundation compliance of its teeth; half its root radius)";
  parameter Units.Length C_a(min = 0) = 0 "Linear tip relief of both gears at the tip, along the line of action (0: none)";
  parameter Units.Length L_a(min = 1e-9) = 3.6709e-3 "Length of the tip relief along the line of action from each tip (the long relief (epsilon_alpha - 1) pb of the default gears)";
  parameter Real d(unit = "N.s/m", min = 0) = 1500 "Damping of each loaded tooth pair (damping ratio 0.08 to 0.13 of the wheel's vibration on the mesh)";
  parameter Units.DimensionlessRatio mu(min = 0) = 0 "Coulomb friction coefficient along the flanks";
  parameter Units.Velocity eps(min = 1e-12) = 1e-3 "Regularisation of the friction law at zero sliding speed";
  parameter Boolean speedDriven = true "true: the pinion turns at omega1 (a servo); false: the torque T1 drives it";
  parameter Units.AngularVelocity omega1 = 100 "Prescribed speed of the pinion about +z, and its initial speed";
  parameter Units.Torque T2 = 50 "Load torque on the wheel, about +z (against its driven rotation)";
  parameter Units.Torque T1 = T2*z1/z2 "Driving torque on the pinion about +z (used when speedDriven = false; default: balances T2)";
  parameter Units.Frequency gamma(min = 0) = 1000 "Rate at which the speed servo pulls a drift of the pinion's speed back to omega1";
  parameter Boolean preload = true "true: the teeth start statically deflected under T2 (one pair at the pitch point); false: e = 0 at start";
  parameter Units.Acceleration g(min = 0) = 9.81 "Gravity, along -z (the axes are vertical: it loads only the bearings)";
  input Units.AngularVelocity omega1_in(start = 0) "Added to omega1 (speed servo); its derivative is taken as zero";
  input Units.Torque T1_in(start = 0) "Added to T1 (torque drive)";
  input Units.Torque T2_in(start = 0) "Added to the load torque T2";
  final parameter Units.Length r1 = m*z1/2 "Pitch radius of the pinion";
  final parameter Units.Length r2 = m*z2/2 "Pitch radius of the wheel";
  final parameter Units.Length rb1 = r1*cos(alpha) "Base radius of the pinion";
  final parameter Units.Length rb2 = r2*cos(alpha) "Base radius of the wheel";
  final parameter Units.Length a = r1 + r2 "Centre distance";
  final parameter Units.Mass m1 = rho*Constants.pi*r1^2*b "Mass of the pinion: a steel disk of the pitch radius and the face width";
  final parameter Units.Mass m2 = rho*Constants.pi*r2^2*b "Mass of the wheel: a steel disk of the pitch radius and the face width";
  final parameter Units.Inertia J1 = rho*Constants.pi*b*r1^4/2 "Moment of inertia of the pinion about its axis, rho pi b r1^4/2";
  final parameter Units.Inertia J2 = rho*Constants.pi*b*r2^4/2 "Moment of inertia of the wheel about its axis, rho pi b r2^4/2";
  final parameter Units.Inertia Jt1 = m1*(3*r1^2 + b^2)/12 "Moment of inertia of the pinion about a diameter";
  final parameter Units.Inertia Jt2 = m2*(3*r2^2 + b^2)/12 "Moment of inertia of the wheel about a diameter";
  final parameter Units.AngularVelocity omega2_0 = -omega1*z1/z2 "Initial speed of the wheel: the gears' speeds in ratio";
  final parameter Real lambda(unit = "1/Pa") = (1 - nu^2)/E "Compliance (1 - nu^2)/E of each gear";
  final parameter Units.Length rho1_P = r1*sin(alpha) "Pinion's flank radius of curvature at the pitch point";
  final parameter Units.Length rho2_P = r2*sin(alpha) "Wheel's flank radius of curvature at the pitch point";
  final parameter Real P_0(unit = "N/m") = noEvent(max(T2, 1e-9))/rb2/b "Static load per unit face width of one pair at the pitch point under T2";
  final parameter Units.Length c_0 = sqrt(4*P_0*rho1_P*rho2_P/(rho1_P + rho2_P)*2*lambda/Constants.pi) "Half-width of its contact strip (Johnson 1985)";
  final parameter Units.Length e_0 = if preload and T2 > 0 then P_0/Constants.pi*lambda*(2*log(4*rho1_P/c_0) - 1 + 2*log(4*rho2_P/c_0) - 1) + mesh.qP*P_0*b + mesh.reliefP else 0 "Initial transmission error: the static approach of that pair (Johnson 1985, in series with the teeth's compliance at the pitch point, plus the relief there)";
  final parameter Units.Angle phi2_0 = e_0/rb2 "Initial angle of the wheel: e = rb2 phi2_0 = e_0 at phi1 = 0";
  final parameter Real servo(unit = "1") = if speedDriven then 1 else 0 "1: speed servo, 0: torque drive";
  Bodies.Ground ground(nW = 2, shapeType = Visualizers.none) annotation(Placement(transformation(extent = {{-50, -10}, {-70, 10}})));
  Bodies.RigidBody pinion(nW = 2, shapeType = Visualizers.none, m = m1, I_b = {Jt1, Jt1, J1}, g_0 = {0, 0, -g}, r_0_start = {0, 0, 0},
    w_0_start = {0, 0, omega1}) annotation(Placement(transformation(extent = {{10, 5}, {30, 25}})));
  Bodies.RigidBody wheel(nW = 2, shapeType = Visualizers.none, m = m2, I_b = {Jt2, Jt2, J2}, g_0 = {0, 0, -g}, r_0_start = {a, 0, 0},
    Q_start = Rotations.fromAxisAngle({0, 0, 1}, phi2_0), w_0_start = {0, 0, omega2_0})
    annotation(Placement(transformation(extent = {{10, -25}, {30, -5}})));
  Joints.Revolute pinionJoint(p_a = {0, 0, 0}, final p_b = {0, 0, 0}, final n_a = {0, 0, 1}, final n_b = {0, 0, 1}, tau = tau1)
    "Pinion's bearing; its drive torque tau1 is the servo's reaction or the driving torque"
    annotation(Placement(transformation(extent = {{-30, 5}, {-10, 25}})));
  Joints.Revolute wheelJoint(p_a = {a, 0, 0}, final p_b = {0, 0, 0}, final n_a = {0, 0, 1}, final n_b = {0, 0, 1}, tau = T2 + T2_in)
    "Wheel's bearing; the load torque acts on the wheel through it"
    annotation(Placement(transformation(extent = {{-30, -25}, {-10, -5}})));
  Contacts.InvoluteToothContact mesh(m = m, z1 = z1, z2 = z2, alpha = alpha, b = b, j = j, E_A = E, nu_A = nu, E_B = E,
    nu_B = nu, d = d, mu = mu, eps = eps, r_int1 = r_int1, r_int2 = r_int2, C_a = C_a, L_a = L_a) annotation(Placement(transformation(extent = {{50, -10}, {70, 10}})));
  Units.Torque tau1 "Torque on the pinion about +z from its drive (servo reaction or T1 + T1_in)";
  output Units.Angle phi1 = atan2(pinion.T[2, 1], pinion.T[1, 1]) "Angle of the pinion about +z, in (-pi, pi] (unwrap it over samples closer than half a turn)";
  output Units.Angle phi2 = atan2(wheel.T[2, 1], wheel.T[1, 1]) "Angle of the wheel about +z, in (-pi, pi]";
  output Units.AngularVelocity w1 = pinion.k.w_0[3] "Speed of the pinion about +z (omega1)";
  output Units.AngularVelocity w2 = wheel.k.w_0[3] "Speed of the wheel about +z (omega2, negative when driven)";
  output Units.Length e = mesh.e "Transmission error along the line of action, rb1 phi1 + rb2 phi2";
  output Units.Angle e_ang = mesh.e/rb2 "Angular transmission error of the wheel, e/rb2";
  output Units.Force F = mesh.F "Total normal mesh force";
  output Real nContact(unit = "1") = mesh.nContact "Number of tooth pairs in contact";
  output Units.Position sContact = mesh.sContact "Position along the line of action (from T1) of the loaded drive pair nearest to the start of the active segment; 0 if none";
  output Units.Torque tau_drive = tau1 "Torque of the drive on the pinion";
  output Units.Power P_in = tau1*w1 "Power put in at the pinion";
  output Units.Power P_out = -(T2 + T2_in)*w2 "Power taken out by the load at the wheel";
  output Units.Energy kineticEnergy = pinion.kineticEnergy + wheel.kineticEnergy "Kinetic energy of both gears";
  output Units.Power meshPower = mesh.meshPower "Power going into the teeth's compliance and damping";
  output Units.Power frictionPower = mesh.frictionPower "Power lost in the flanks' sliding friction";
  output Units.Power dissipation = mesh.dissipation "Power lost in the mesh's damping and friction";
  // a pinion's tooth flank and a wheel's tooth flank at the pitch point (on the x axis) at the start
  Visualizers.Shape pinionTeeth(shapeType = Visualizers.gear, shapeSize = {m, z1, b}, color = {200, 80, 60},
    r_0 = pinion.r_0, T = pinion.T*Visualizers.axisRotation({0, 0, 1}, -Constants.pi/(2*z1))) "The pinion's teeth (animation)";
  Visualizers.Shape wheelTeeth(shapeType = Visualizers.gear, shapeSize = {m, z2, b}, color = {70, 120, 200},
    r_0 = wheel.r_0, T = wheel.T*Visualizers.axisRotation({0, 0, 1}, Constants.pi - Constants.pi/(2*z2))) "The wheel's teeth (animation)";
protected
  final parameter Units.Inertia J_unit = 1 "Scales the torque relation to an angular acceleration (1 kg.m2: the same numbers)";
equation
  // one relation, linear in the accelerations and tau1: the speed servo at acceleration level (a rate is
  // prescribed, so a first-order Baumgarte term) or tau1 = the driving torque, divided by 1 kg.m2 so that both
  // branches are angular accelerations (unit-consistent) with the numbers of the torque in N.m
  servo*(pinion.k.z_0[3] + gamma*(w1 - omega1 - omega1_in)) + (1 - servo)*(tau1 - T1 - T1_in)/J_unit = 0;
  connect(ground.k, pinionJoint.kA) annotation(Line(points = {{-50, 4}, {-42, 4}, {-42, 19}, {-30, 19}}, color = {0, 0, 255}));
  connect(pinion.k, pinionJoint.kB) annotation(Line(points = {{10, 19}, {-10, 19}}, color = {0, 0, 255}));
  connect(pinionJoint.wA, ground.w[1]) annotation(Line(points = {{-30, 11}, {-38, 11}, {-38, -4}, {-50, -4}}, color = {255, 128, 0}));
  connect(pinionJoint.wB, pinion.w[1]) annotation(Line(points = {{-10, 11}, {10, 11}}, color = {255, 128, 0}));
  connect(ground.k, wheelJoint.kA) annotation(Line(points = {{-50, 4}, {-42, 4}, {-42, -11}, {-30, -11}}, color = {0, 0, 255}));
  connect(wheel.k, wheelJoint.kB) annotation(Line(points = {{10, -11}, {-10, -11}}, color = {0, 0, 255}));
  connect(wheelJoint.wA, ground.w[2]) annotation(Line(points = {{-30, -19}, {-38, -19}, {-38, -4}, {-50, -4}}, color = {255, 128, 0}));
  connect(wheelJoint.wB, wheel.w[1]) annotation(Line(points = {{-10, -19}, {10, -19}}, color = {255, 128, 0}));
  connect(pinion.k, mesh.kA) annotation(Line(points = {{10, 19}, {6, 19}, {6, 33}, {46, 33}, {46, 4}, {50, 4}}, color = {0, 0, 255}));
  connect(wheel.k, mesh.kB) annotation(Line(points = {{10, -11}, {6, -11}, {6, -25}, {74, -25}, {74, 4}, {70, 4}}, color = {0, 0, 255}));
  connect(mesh.wA, pinion.w[2]) annotation(Line(points = {{50, -4}, {46, -4}, {46, -18}, {6, -18}, {6, 11}, {10, 11}}, color = {255, 128, 0}));
  connect(mesh.wB, wheel.w[2]) annotation(Line(points = {{70, -4}, {74, -4}, {74, -33}, {6, -33}, {6, -19}, {10, -19}}, color = {255, 128, 0}));
  annotation(experiment(StartTime = 0, StopTime = 0.1, Tolerance = 1e-8, Interval = 1e-5),
    Documentation(info = "<html>
<p>A pair of standard steel spur gears (module 2 mm, 20 and 35 teeth, pressure angle 20 deg, face width 20 mm,
backlash 0.1 mm along the line of action) on the compliant mesh
<a href=\"modelica://Nonholonomic.Contacts.InvoluteToothContact\">InvoluteToothContact</a>: each loaded tooth
pair a Hertz line contact in series with the bending, shear, compression and foundation compliance of its two
teeth, one or two pairs in mesh (contact ratio 1.62), with optional linear tip relief (<code>C_a</code>,
<code>L_a</code>; default none) and the bores <code>r_int1</code>, <code>r_int2</code> of the foundation's
compliance (default half the root radius). The pinion and the wheel are
<a href=\"modelica://Nonholonomic.Bodies.RigidBody\">rigid bodies</a>, disks of their pitch radius and of the face
width (<code>J = rho pi b r^4/2</code>: <code>3.95e-5</code> and <code>3.70e-4 kg m^2</code>), each on a
<a href=\"modelica://Nonholonomic.Joints.Revolute\">Revolute</a> joint about the world z axis, at <code>(0, 0, 0)</code>
and <code>(a, 0, 0)</code>. The axes are vertical: gravity loads only the bearings.</p>
<p><b>Drive.</b> With <code>speedDriven = true</code> (default) the pinion turns at <code>omega1 + omega1_in</code>,
a servo stated at acceleration level, <code>omega1' = -gamma (omega1 - omega1_cmd)</code>, whose reaction is the
drive torque <code>tau1</code>; with <code>speedDriven = false</code> the torque <code>T1 + T1_in</code> drives it
(default <code>T1 = T2 z1/z2</code>, which balances the load). The wheel carries the load torque
<code>T2 + T2_in</code> about +z, against its driven rotation.</p>
<p><b>Start.</b> The speeds are in ratio (<code>omega2 = -omega1 z1/z2</code>). At <code>phi1 = 0</code> one
pair meshes, at the pitch point; with <code>preload = true</code> the wheel starts turned back by the static
approach of that pair under <code>T2</code> (Johnson's line contact in series with the teeth's compliance at the
pitch point, plus the relief there: <code>e_0 = 6.42 um</code>), so the run
starts near the static state; with <code>preload = false</code> it starts at <code>e = 0</code>, unloaded.</p>
<p><b>Outputs.</b> The angles <code>phi1</code>, <code>phi2</code> of the bodies' orientations about +z, in
<code>(-pi, pi]</code> (the model's states are the bodies' states: unwrap the angles over the samples), the
speeds, the transmission error <code>e</code> along the line of action and its angular value at the wheel
<code>e/rb2</code>, the mesh force, the number of pairs in contact and the position of the last engaged drive pair
along the line of action, the power in at the pinion and out at the load, the kinetic energy, the mesh power
and dissipation. The balance <code>P_in - P_out = d(kineticEnergy)/dt + meshPower + frictionPower</code> holds. The mesh's
stiffness changes with the number of loaded pairs: its force is not the gradient of an energy of <code>e</code>,
and its work over a mesh period need not vanish (in the default run it about cancels the damping loss, so that
<code>meshPower</code> averages near zero while <code>dissipation</code> is 0.4 W).</p>
<p>At 100 rad/s and 50 N m the mesh frequency is <code>z1 omega1/(2 pi) = 318 Hz</code>; without relief the
transmission error alternates at that frequency between the single-pair level (6.38 to 6.71 um, along the
path) and the double-pair level (3.68 to 3.90 um), for the fractions <code>2 - epsilon</code> and
<code>epsilon - 1</code> of each mesh period (<code>epsilon = 1.62</code>: 0.38 and 0.62), and the mean speed ratio
is <code>-z1/z2</code>. Each change of the number of pairs is a jump of the mesh stiffness and sets the wheel
ringing on the mesh (4.2 to 4.3 kHz on one pair, 5.4 to 5.6 kHz on two); the damping <code>d</code> gives that
vibration a damping ratio of 0.08 to 0.13, so it decays within a mesh period. A tip relief larger than the
pairs' deflection makes them enter and leave unloaded, and the transmission error continuous. With
<code>T2 &lt; 0</code> (the load drives the wheel) the coast flanks carry the load, at <code>e = -j - 6.4 um</code>
and <code>-j - 3.7 um</code>.</p>
</html>"), Icon(graphics = {Ellipse(lineColor = {0, 0, 0}, fillColor = {200, 200, 200}, fillPattern = FillPattern.Solid,
    extent = {{-90, -35}, {-20, 35}}), Ellipse(lineColor = {0, 0, 0}, fillColor = {160, 160, 164}, fillPattern = FillPattern.Solid,
    extent = {{-24, -60}, {96, 60}})}));
end SpurGearPair;
