within Nonholonomic.Examples;
model EulerDisk "Euler's disk: a heavy steel disk with a rounded edge spun on a glass mirror, rolling on a compliant contact with Coulomb-Contensou friction until it rests"
  parameter Units.Length R(min = 1e-6) = 0.0381 "Disk radius (3 in diameter)";
  parameter Units.Length h(min = 1e-6) = 0.0127 "Disk thickness (1/2 in)";
  parameter Units.Length r(min = 1e-9) = 1e-3 "Edge radius of the lower face's rounded edge (at most h/2)";
  parameter Units.Mass m(min = 1e-9) = 0.454 "Disk mass (steel, 7850 kg/m3, of this size)";
  parameter Units.Acceleration g(min = 0) = 9.81 "Gravity acceleration";
  parameter Units.Inertia A(min = 0) = 0 "Central moment of inertia about a diameter (0: homogeneous cylinder, m (3 R^2 + h^2)/12)";
  parameter Units.Inertia C(min = 0) = 0 "Central moment of inertia about the symmetry axis, at most 2 A (0: homogeneous cylinder, m R^2/2)";
  parameter Integer frictionLaw(min = 1, max = 4) = 2 "Friction law over the patch: 1 point contact, 2 Contensou-Zhuravlev, 3 ellipsoidal (Leine-Glocker), 4 exact Hertz-Coulomb"
    annotation(choices(choice = 1 "point contact Coulomb", choice = 2 "Contensou-Zhuravlev approximation",
      choice = 3 "ellipsoidal law (Leine-Glocker)", choice = 4 "exact integral over the Hertz patch"));
  parameter Units.DimensionlessRatio mu(min = 0) = 0.3 "Coulomb friction coefficient, steel on glass";
  parameter Units.Velocity eps(min = 1e-12) = 1e-5 "Regularisation of the friction law at zero relative motion";
  parameter Units.Pressure E_disk(min = 1) = 2.1e11 "Young's modulus of the disk (steel)";
  parameter Units.DimensionlessRatio nu_disk(min = -1, max = 0.5) = 0.3 "Poisson's ratio of the disk (steel)";
  parameter Units.Pressure E_base(min = 1) = 7e10 "Young's modulus of the base (soda-lime glass)";
  parameter Units.DimensionlessRatio nu_base(min = -1, max = 0.5) = 0.22 "Poisson's ratio of the base (soda-lime glass)";
  parameter Units.InverseVelocity d(min = 0) = 0.3 "Hunt-Crossley damping factor (restitution about 0.9 at 0.5 m/s: e = 1 - 2/3 d v)";
  parameter Integer nRing(min = 3) = 24 "Points of the face's edge ring that carry the disk when it lies flat";
  parameter Units.Angle theta_0(min = 0.01, max = 1.5) = 0.5 "Initial tilt: angle between the disk's axis and the vertical (= that of the disk's plane to the table)";
  parameter Units.Angle psi_0 = 0 "Initial precession angle (heading of the line of nodes)";
  parameter Units.Angle phi_0 = 0 "Initial spin angle";
  parameter Units.AngularVelocity dtheta_0 = 0 "Initial d theta/dt";
  parameter Units.AngularVelocity dpsi_0 = 45.6 "Initial precession rate d psi/dt (the thin-disk steady rolling with the centre at rest at theta_0 = 0.5: Omega^2 = m g R/(A sin theta_0))";
  parameter Units.AngularVelocity dphi_0 = -40.0 "Initial spin rate d phi/dt (the same steady rolling: -Omega cos theta_0)";
  parameter Units.Position x_0 = 0 "Initial x of the contact point";
  parameter Units.Position y_0 = 0 "Initial y of the contact point";
  final parameter Units.Inertia A_used = if A > 0 then A else m*(3*R^2 + h^2)/12 "Central moment of inertia about a diameter in use" annotation(Evaluate = false);
  final parameter Units.Inertia C_used = if C > 0 then C else m*R^2/2 "Central moment of inertia about the symmetry axis in use" annotation(Evaluate = false);
  final parameter Units.Pressure E_star = 1/((1 - nu_disk^2)/E_disk + (1 - nu_base^2)/E_base) "Effective modulus of steel on glass";
  final parameter Units.Length R_normal_0 = Contacts.Hertz.stiffnessRadius(r, r + (R - r)/sin(theta_0)) "Stiffness radius of the rim's contact at the initial tilt";
  final parameter Units.Length delta_0 = (m*g/(4/3*E_star*sqrt(R_normal_0)))^(2/3) "Initial penetration: the static one under the disk's weight";
  final parameter Real d_start[3](each unit = "1") = {sin(psi_0)*cos(theta_0), -cos(psi_0)*cos(theta_0), -sin(theta_0)} "Initial unit vector in the disk's plane towards its lowest point";
  final parameter Real n_start[3](each unit = "1") = {sin(psi_0)*sin(theta_0), -cos(psi_0)*sin(theta_0), cos(theta_0)} "Initial symmetry axis";
  final parameter Units.Position rc_start[3] = -(h/2 - r)*n_start + (R - r)*d_start - {0, 0, r - delta_0} "Initial contact point relative to the centre of mass";
  final parameter Units.AngularVelocity w_start[3] = Rotations.angularVelocityZXZ(psi_0, theta_0, dpsi_0, dtheta_0, dphi_0) "Initial angular velocity, world frame";
  Bodies.Ground ground(nW = 1) annotation(Placement(transformation(extent = {{-30, -10}, {-50, 10}})));
  Bodies.RigidBody disk(nW = 1, shapeType = Visualizers.cylinder, shapeSize = {2*R, 0, h}, color = {200, 170, 60}, m = m, I_b = {A_used, A_used, C_used}, g_0 = {0, 0, -g},
    r_0_start = {x_0, y_0, 0} - rc_start, v_0_start = -cross(w_start, rc_start),
    Q_start = Rotations.fromEulerZXZ(psi_0, theta_0, phi_0), w_0_start = w_start)
    annotation(Placement(transformation(extent = {{30, -10}, {50, 10}})));
  Contacts.DiskOnPlaneElastic contact(R = R, r = r, e = h/2 - r, frictionLaw = frictionLaw, mu = mu, eps = eps,
    E_A = E_base, nu_A = nu_base, E_B = E_disk, nu_B = nu_disk, d = d, nRing = nRing)
    annotation(Placement(transformation(extent = {{-10, -10}, {10, 10}})));
  Units.Energy lost_slide(start = 0, fixed = true) "Energy lost in sliding friction since the start";
  Units.Energy lost_pivot(start = 0, fixed = true) "Energy lost in pivoting friction since the start";
  Units.Energy lost_damp(start = 0, fixed = true) "Energy lost in normal damping since the start";
  output Units.Position r_0[3] = disk.r_0 "Centre of the disk";
  output Units.Quaternion Q[4] = disk.Q "Attitude of the disk (body z = symmetry axis)";
  output Units.Velocity v_0[3] = disk.v_0 "Velocity of the centre";
  output Units.AngularVelocity w_0[3] = disk.k.w_0 "Angular velocity, world frame";
  output Units.Position p_0[3] = contact.p_0 "Foot of the edge circle's centre on the plane";
  output Units.Angle tilt = atan2(contact.sinTilt, disk.T[3, 3]) "Angle between the disk's plane and the table (between its axis and the vertical)";
  output Units.AngularVelocity Omega = (disk.k.w_0[3] - disk.T[3, 3]*disk.w_b[3])/noEvent(max(contact.sinTilt^2, 1e-12)) "Precession rate d psi/dt: turning rate of the line of nodes about the vertical";
  output Units.AngularVelocity spin = disk.w_b[3] "Spin about the symmetry axis";
  output Units.AngularVelocity pivot = contact.spin "Spin about the vertical (the contact's pivoting rate)";
  output Units.Velocity slip = contact.slip "Slip speed at the rim's lowest point";
  output Units.Force N = contact.N "Normal force";
  output Units.Length delta = contact.delta "Penetration at the rim's lowest point";
  output Units.DimensionlessRatio rimShare = contact.w "Share of the rim's contact (1) against the face's edge ring (0)";
  output Units.Energy energy = disk.energy + contact.elasticEnergy "Kinetic, gravity and elastic energy";
  output Units.Power P_slide = contact.P_slide "Power lost in sliding friction";
  output Units.Power P_pivot = contact.P_pivot "Power lost in pivoting friction";
  output Units.Power P_damp = contact.P_damp "Power lost in normal damping";
  output Units.Energy W_slide = lost_slide "Energy lost in sliding friction since the start";
  output Units.Energy W_pivot = lost_pivot "Energy lost in pivoting friction since the start";
  output Units.Energy W_damp = lost_damp "Energy lost in normal damping since the start";
  output Units.Energy W_lost = lost_slide + lost_pivot + lost_damp "Energy lost since the start";
  output Units.Energy balance = energy + W_lost "Energy now plus the energy lost: constant";
  output Units.Length R_normal = contact.R_normal "Stiffness radius of the rim's elliptic contact";
  output Units.Length semiMajor = contact.semiMajor "Semi-major axis of the rim's contact ellipse";
  output Units.Length semiMinor = contact.semiMinor "Semi-minor axis of the rim's contact ellipse";
equation
  assert(r <= h/2, "EulerDisk: the edge radius r must be at most half the thickness h");
  assert(C_used <= (1 + 1e-9)*2*A_used, "EulerDisk: C must be at most 2 A (the triangle inequality of the inertia)");
  assert(C_used <= (1 + 1e-9)*m*R^2, "EulerDisk: C must be at most m R^2 (the disk's mass lies within its radius R)");
  der(lost_slide) = contact.P_slide;
  der(lost_pivot) = contact.P_pivot;
  der(lost_damp) = contact.P_damp;
  connect(ground.k, contact.kA) annotation(Line(points = {{-30, 4}, {-10, 4}}, color = {0, 0, 255}));
  connect(disk.k, contact.kB) annotation(Line(points = {{30, 4}, {10, 4}}, color = {0, 0, 255}));
  connect(contact.wA, ground.w[1]) annotation(Line(points = {{-10, -4}, {-30, -4}}, color = {255, 128, 0}));
  connect(contact.wB, disk.w[1]) annotation(Line(points = {{10, -4}, {30, -4}}, color = {255, 128, 0}));
  annotation(experiment(StartTime = 0, StopTime = 197, Tolerance = 1e-8, Interval = 0.002),
    Documentation(info = "<html>
<p>Euler's disk (Tangent Toy Co., invented by J. Bendik): a heavy chrome-plated steel disk of 3 in (76 mm)
diameter with a polished, slightly rounded edge, spun on a slightly concave glass mirror of 9 in
(scienceofgadgets.com, 'Euler's Disc'; Wikipedia, 'Euler's Disk'). The thickness 1/2 in and the mass 0.454 kg
(steel of 7850 kg/m3 of that size) are this model's choices within the published 'about 12 mm, about 0.45 kg';
the base is taken flat (its curvature radius is metres, against the disk's 38 mm).
Choices where nothing is published: edge radius <code>r = 1 mm</code>, friction <code>mu = 0.3</code>, Hunt-Crossley
damping <code>d = 0.3 s/m</code> (restitution about 0.9 at 0.5 m/s), steel <code>E = 210 GPa, nu = 0.3</code>,
soda-lime glass <code>E = 70 GPa, nu = 0.22</code>; <code>docs/euler_disk.md</code> shows how the results depend
on them.</p>
<p>The contact is <a href=\"modelica://Nonholonomic.Contacts.DiskOnPlaneElastic\">DiskOnPlaneElastic</a>: the
lower face's rounded edge, a torus of tube radius <code>r</code> about a circle of radius <code>R - r</code> at
<code>h/2 - r</code> below the mid-plane, with the elliptic Hertz contact at its lowest point, the face's edge ring
when the disk lies flat, Coulomb-Contensou friction and Hunt-Crossley damping; no air. The disk starts at the tilt
<code>theta_0</code> in the steady rolling of the ideal thin disk with its centre at rest (the spinning-coin
motion a spun disk settles into: Moffatt, Nature 404:833, 2000, eq. (1): <code>Omega^2 sin(alpha) = m g R/A</code>),
its lowest point at the static penetration. It rolls, precesses faster as it loses energy and tilts down, and ends
abruptly flat on the mirror. Outputs: tilt, precession rate, spin, pivoting rate, slip, normal force, energy and
the energy lost in sliding, pivoting and normal damping (integrated as states: <code>balance</code> stays at the
initial energy).</p>
</html>"));
end EulerDisk;
