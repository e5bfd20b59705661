within Nonholonomic.Vehicles;
model OmniWheel "Omni-wheel or mecanum wheel: a hub with nRollers massive rollers (untruncated spindles or truncated) on frictionless axles, rolling with friction on the plane"
  parameter Integer nRollers(min = 2) = 4 "Number of rollers";
  parameter Units.Length R_w(min = 1e-6) = 0.05 "Wheel radius (outer surface of the rollers)";
  parameter Units.Length R1(min = 0, max = R_w*cos(Constants.pi/nRollers)) = R_w*cos(Constants.pi/nRollers) "Distance of the rollers' axes from the wheel's centre: R_w cos(pi/nRollers) for untruncated spindles (Gerasimov 2018, ch. 3), R_w cos(pi/(nRollers - 1)) for the truncated rollers of ch. 1-2";
  parameter Units.Angle delta(min = 0, max = Constants.pi) = Constants.pi/2 "Angle from the wheel's plane to the line along which the lowest roller lets the contact slide (Borisov, Kilin, Mamaev 2011), strictly between 0 and pi: pi/2 omni-wheel, pi/4 or 3 pi/4 mecanum wheel (needs nRollers >= 3)";
  parameter Units.Mass m_w(min = 1e-9) = 0.15 "Total mass of the wheel: hub and rollers";
  parameter Real eta(min = 1e-12, max = 1/nRollers - 1e-9) = 0.01 "Mass of one roller over the total mass of the wheel (below 1/nRollers: the hub keeps a positive mass)";
  parameter Real mu(min = 0) = 0.5 "Coefficient of friction between rollers and plane";
  parameter Units.Velocity v_eps(min = 1e-12) = 1e-3 "Regularisation speed of the friction";
  parameter Units.Acceleration g_0[3] = {0, 0, -9.81} "Gravity acceleration";
  parameter Units.Position r_0_start[3] = {0, 0, R_w} "Initial centre of the hub";
  parameter Units.Velocity v_0_start[3] = {0, 0, 0.0} "Initial velocity of the hub's centre";
  parameter Units.Quaternion Q_start[4] = {1, 0, 0, 0.0} "Initial attitude of the hub (its z axis is the wheel's axle)";
  parameter Units.AngularVelocity w_0_start[3] = {0, 0, 0.0} "Initial angular velocity of the wheel";
  final parameter Units.Mass m_r = eta*m_w "Mass of a roller";
  final parameter Units.Mass m_hub = (1 - nRollers*eta)*m_w "Mass of the hub";
  final parameter Units.Angle gamma = Constants.pi/2 - delta "Tilt of the rollers' axes out of the wheel's plane (0: omni-wheel)";
  final parameter Units.Inertia I_r[3] = rollerInertia(R_w, nRollers, m_r, R1, gamma) "Central moments of inertia of a roller: about its axis, across it";
  final parameter Units.Angle kappa[nRollers] = 2*Constants.pi*(0:nRollers - 1)/nRollers "Angular positions of the rollers on the hub";
  final parameter Real T_start[3, 3] = Rotations.rotationMatrix(Q_start) "Initial attitude matrix of the hub";
  Interfaces.KinematicOutput k "Kinematics of the hub" annotation(Placement(transformation(extent = {{-90, 30}, {-110, 50}})));
  Interfaces.WrenchInput w "Wrench of the axle's joint on the hub" annotation(Placement(transformation(extent = {{-110, -50}, {-90, -30}})));
  Interfaces.KinematicInput kGround "Kinematics of the ground" annotation(Placement(transformation(origin = {0, -100}, extent = {{-10, -10}, {10, 10}}, rotation = 90)));
  Interfaces.WrenchOutput wGround[nRollers] "Contact wrenches on the ground" annotation(Placement(transformation(extent = {{30, -110}, {50, -90}})));
  Bodies.RigidBody hub(nW = nRollers + 1, shapeType = Visualizers.cylinder, shapeSize = {2*R1, 0, R_w/5}, color = {170, 175, 185}, m = m_hub, I_b = {m_hub*R_w^2/4, m_hub*R_w^2/4, m_hub*R_w^2/2}, g_0 = g_0,
    r_0_start = r_0_start, v_0_start = v_0_start, Q_start = Q_start, w_0_start = w_0_start)
    annotation(Placement(transformation(origin = {0, 60}, extent = {{15, -15}, {-15, 15}}, rotation = -90)));
  // each roller: an axisymmetric rotor on the hub (angle and rate on its axle), its frame at phi = 0 turned
  // by kappa about the hub's axle and then so that its x axis (the roller's axis) is tangent to the circle R1
  // (x -> hub y, y -> hub z, z -> hub x: the rotation by 2 pi/3 about (1, 1, 1)), then by gamma about its z axis
  // (the radial direction u = (cos, sin, 0) kappa): the axis cos(gamma) t + sin(gamma) e_z(hub), t = (-sin, cos, 0) kappa,
  // at the bottom horizontally along -(sin(delta) e - cos(delta) a), e = a x e_z the rolling direction of the axle a
  Bodies.Rotor roller[nRollers](each nW = 1, each shapeType = Visualizers.ellipsoid,
    each shapeSize = {2*R_w*sin(Constants.pi/nRollers), 2*(R_w - R1) + R_w/20, 2*(R_w - R1) + R_w/20}, each color = {60, 60, 60}, each m = m_r, each I_a = I_r[1],
    each I_t = I_r[2], each g_0 = g_0,
    p_a = {{R1*cos(kappa[j]), R1*sin(kappa[j]), 0.0} for j in 1:nRollers},
    Q_mount = {Rotations.product(Rotations.product(Rotations.fromAxisAngle({0.0, 0.0, 1.0}, kappa[j]), {0.5, 0.5, 0.5, 0.5}),
      Rotations.fromAxisAngle({0.0, 0.0, 1.0}, gamma)) for j in 1:nRollers},
    each final n_b = {1, 0, 0.0}, each final phi_start = 0,
    // spin relative to the hub: that of rollerStartVelocity along the roller's axis (zero but in contact)
    w_rel_start = {(rollerStartVelocity(r_0_start, v_0_start, w_0_start, T_start, kappa[j], R_w, nRollers, R1, gamma) - w_0_start)
      *(T_start*{-cos(gamma)*sin(kappa[j]), cos(gamma)*cos(kappa[j]), sin(gamma)}) for j in 1:nRollers})
    annotation(Placement(transformation(origin = {0, -0}, extent = {{-15, -15}, {15, 15}}, rotation = -90)));
  // one roller carries the wheel: at a junction both neighbours are within their sectors for an instant (the
  // entering roller's relation changes first, the leaving one's in the same event or in one up to 1e-9 s later),
  // and then the one before in the cyclic order keeps the contact until its own relation changes; never two (their
  // constraints on the wheel's lowest point would be the same, the normal forces undetermined), never none
  Contacts.RollerPlaneContact contact[nRollers](each R_w = R_w, each n = nRollers, each R1 = R1, each delta = delta, each mu = mu,
    each v_eps = v_eps, yielding = before)
    annotation(Placement(transformation(origin = {0, -60}, extent = {{-15, -15}, {15, 15}}, rotation = -90)));
  Interfaces.RealOutput contactRoller "Index of the roller in contact (0: none)" annotation(Placement(transformation(extent = {{90, 70}, {110, 90}})));
  Interfaces.RealOutput slip(unit = "m/s") "Slip speed at the contact" annotation(Placement(transformation(extent = {{90, 30}, {110, 50}})));
  Interfaces.RealOutput normalForce(unit = "N") "Normal reaction" annotation(Placement(transformation(extent = {{90, -10}, {110, 10}})));
  Interfaces.RealOutput kineticEnergy(unit = "J") "Kinetic energy of the wheel" annotation(Placement(transformation(extent = {{90, -50}, {110, -30}})));
  Interfaces.RealOutput contactPoint[3](each unit = "m") "Contact point (the lowest point of the roller in contact), world frame; zero while no roller is in contact" annotation(Placement(transformation(extent = {{90, -90}, {110, -70}})));
protected
  Real closed[nRollers] "Contact state of each roller";
  Units.Velocity slips[nRollers] "Slip speed of each roller";
  Units.Force normal[nRollers] "Normal reaction on each roller";
  Units.Energy rollerEnergy[nRollers] "Kinetic energy of each roller";
  Units.Position points[nRollers, 3] "Application point of each roller's contact wrench, world frame";
  Real before[nRollers](each unit = "1") "1 while the roller before this one in the cyclic order is within its sector at the bottom, else 0";
equation
  // tan(gamma) and tan(pi/nRollers) enter the contact's position (RollerPlaneContact): both must be finite
  assert(delta > 0 and delta < Constants.pi, "OmniWheel: delta must lie strictly between 0 and pi (pi/2 omni-wheel, pi/4 or 3 pi/4 mecanum wheel)");
  // (delta within 1e-12 of pi/2 counts as an omni-wheel: no == on Reals; tan(gamma) < 1e-12 there, so the contact's
  // jump along the axle, 2 R1 tan(pi/n) tan(gamma) with R1 <= R_w cos(pi/n), stays below 2e-12 R_w even for n = 2)
  assert(nRollers >= 3 or abs(delta - Constants.pi/2) < 1e-12, "OmniWheel: mecanum wheels (delta other than pi/2) need nRollers >= 3");
  contactRoller = sum({j*closed[j] for j in 1:nRollers});
  slip = sum(slips);
  normalForce = sum(normal);
  kineticEnergy = hub.kineticEnergy + sum(rollerEnergy);
  contactPoint = closed*points;
  before[1] = contact[nRollers].inSector;
  for j in 2:nRollers loop
    before[j] = contact[j - 1].inSector;
  end for;
  connect(hub.k, k) annotation(Line(points = {{6, 45}, {6, 40}, {-100, 40}}, color = {0, 0, 255}));
  connect(w, hub.w[nRollers+1]) annotation(Line(points = {{-100, -40}, {-6, -40}, {-6, 45}}, color = {255, 128, 0}));
  for j in 1:nRollers loop
    closed[j] = contact[j].closed;
    slips[j] = contact[j].slip;
    normal[j] = contact[j].N;
    rollerEnergy[j] = roller[j].kineticEnergy;
    points[j, :] = contact[j].p_0;
    connect(hub.k, roller[j].kCarrier) annotation(Line(points = {{6, 45}, {6, 41}, {19, 41}, {19, 6}, {15, 6}}, color = {0, 0, 255}));
    connect(roller[j].wCarrier, hub.w[j]) annotation(Line(points = {{15, -6}, {19, -6}, {19, 41}, {-6, 41}, {-6, 45}}, color = {255, 128, 0}));
    connect(kGround, contact[j].kA) annotation(Line(points = {{0, -100}, {0, -72}, {6, -72}, {6, -45}}, color = {0, 0, 255}));
    connect(roller[j].k, contact[j].kB) annotation(Line(points = {{6, 15}, {6, -75}}, color = {0, 0, 255}));
    connect(contact[j].wA, wGround[j]) annotation(Line(points = {{-6, -45}, {-6, -72}, {40, -72}, {40, -100}}, color = {255, 128, 0}));
    connect(contact[j].wB, roller[j].w[1]) annotation(Line(points = {{-6, -75}, {-6, 15}}, color = {255, 128, 0}));
  end for;
  annotation(Documentation(info = "<html>
<p>An omni-wheel (Gerasimov 2018, ch. 1-3): a hub (a thin disk, its axle along its body z axis) carrying
<code>nRollers</code> rollers, each an axisymmetric <a href=\"modelica://Nonholonomic.Bodies.Rotor\">Rotor</a>
on a frictionless axle fixed in the hub (two states each: its angle and rate on the axle), their axes in the
wheel's plane, tangent to the circle of radius <code>R1</code>. Each roller's profile is an arc of the wheel's
circle over <code>2 pi/nRollers</code>: with <code>R1 = R_w cos(pi/nRollers)</code> (default) untruncated spindles
(ch. 3), with a smaller <code>R1</code> truncated rollers (ch. 1-2: <code>R_w cos(pi/(nRollers - 1))</code>), whose
ends keep the radius <code>R_w cos(pi/nRollers) - R1</code>. The rollers' inertia follows from this geometry
(<a href=\"modelica://Nonholonomic.Vehicles.rollerInertia\">rollerInertia</a>, a homogeneous solid of revolution).
Each roller touches the plane through a
<a href=\"modelica://Nonholonomic.Contacts.RollerPlaneContact\">RollerPlaneContact</a> (unilateral, tracked,
with friction). The roller in contact is the one whose sector holds the wheel's lowest point; it changes at a
state event, and at a junction, where both neighbours are in their sectors for an instant, the one before in the
cyclic order keeps the contact (never two: their constraints on the same point would leave the normal forces
undetermined). The wheel's total mass <code>m_w</code> is fixed; <code>eta</code> is the share of one roller.
Initially the rollers do not turn on the hub, but the roller in contact spins so that it rolls without
slipping.</p>
<p><b>Mecanum wheel.</b> <code>delta</code> other than <code>pi/2</code> tilts each roller's axis by
<code>gamma = pi/2 - delta</code> out of the wheel's plane, towards the hub's axle (its frame turned by
<code>gamma</code> about its radial direction): <code>delta = pi/4</code> is the common mecanum wheel. The rollers'
surfaces still envelop the circle of radius <code>R_w</code> (RollerPlaneContact), their inertia follows from that
shape (<code>rollerInertia(..., gamma)</code>); the contact point moves across the wheel along each roller and jumps
back at each change. Rollers of neighbouring sectors do not touch each other in the model.</p></html>"), Icon(graphics = {Ellipse(lineColor = {0, 0, 0}, fillColor = {255, 170, 85}, fillPattern = FillPattern.Solid, extent = {{-20, 62}, {20, 82}}), Ellipse(lineColor = {0, 0, 0}, fillColor = {255, 170, 85}, fillPattern = FillPattern.Solid, extent = {{-20, -82}, {20, -62}}), Ellipse(lineColor = {0, 0, 0}, fillColor = {255, 170, 85}, fillPattern = FillPattern.Solid, extent = {{62, -20}, {82, 20}}), Ellipse(lineColor = {0, 0, 0}, fillColor = {255, 170, 85}, fillPattern = FillPattern.Solid, extent = {{-82, -20}, {-62, 20}}), Ellipse(lineColor = {0, 0, 0}, fillColor = {255, 255, 255}, fillPattern = FillPattern.Solid, extent = {{-12, -12}, {12, 12}}), Text(textColor = {0, 0, 0}, extent = {{-150, -86}, {150, -112}}, textString = "n=%nRollers"), Ellipse(lineColor = {0, 0, 0}, fillColor = {200, 200, 200}, fillPattern = FillPattern.Solid,
    extent = {{-80, -80}, {80, 80}}), Text(textColor = {0, 0, 255}, extent = {{-150, 90}, {150, 120}}, textString = "%name")}));
end OmniWheel;
