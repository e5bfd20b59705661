within Nonholonomic.Contacts;
model DiskOnPlaneElastic "Elastic unilateral contact of a disk with a rounded edge (body B) with the plane z = 0 of body A: elliptic Hertz at the rim, the face's edge ring when flat, Coulomb-Contensou friction"
  extends Interfaces.PartialInteraction;
  parameter Units.Length R(min = 1e-6) = 0.0381 "Disk radius, to the outside of the rounded edge";
  parameter Units.Length r(min = 1e-9) = 1e-3 "Edge radius: radius of the torus tube that rounds the lower face's edge (below R)";
  parameter Units.Length e(min = 0) = 0 "Distance of the tube's centre circle from the disk's mid-plane towards the lower face (body -z); 0: the circle in the mid-plane";
  parameter Integer frictionLaw(min = 1, max = 4) = 2 "Friction law over the patch: 1 point contact, 2 Contensou-Zhuravlev, 3 ellipsoidal (Leine-Glocker), 4 exact Hertz-Coulomb"
    annotation(choices(choice = 1 "point contact Coulomb", choice = 2 "Contensou-Zhuravlev approximation",
      choice = 3 "ellipsoidal law (Leine-Glocker)", choice = 4 "exact integral over the Hertz patch"));
  parameter Units.DimensionlessRatio mu(min = 0) = 0.3 "Coulomb friction coefficient";
  parameter Units.Velocity eps(min = 1e-12) = 1e-4 "Regularisation of the friction law at zero relative motion (slip and a times spin)";
  parameter Units.Pressure E_A(min = 1) = 7e10 "Young's modulus of body A (the plane)";
  parameter Units.DimensionlessRatio nu_A(min = -1, max = 0.5) = 0.22 "Poisson's ratio of body A";
  parameter Units.Pressure E_B(min = 1) = 2.1e11 "Young's modulus of body B (the disk)";
  parameter Units.DimensionlessRatio nu_B(min = -1, max = 0.5) = 0.3 "Poisson's ratio of body B";
  parameter Units.InverseVelocity d(min = 0) = 0 "Hunt-Crossley damping factor: N = N_el (1 + d d(delta)/dt)";
  parameter Integer nRing(min = 3) = 6 "Number of points of the face's edge ring (the tube's centre circle) that carry the disk when it lies flat";
  parameter Units.DimensionlessRatio sFlat(min = 1e-9, max = 0.5) = 2e-3 "sinTilt below which the face's edge ring alone carries the disk";
  parameter Units.DimensionlessRatio sRim(min = 1e-9, max = 1) = 5e-3 "sinTilt above which the rim's lowest point alone carries the disk (between sFlat and sRim the two are blended)";
  final parameter Units.Pressure E_star = 1/((1 - nu_A^2)/E_A + (1 - nu_B^2)/E_B) "Effective modulus of the pair";
  Real n_0[3](each unit = "1") "Symmetry axis of the disk (body z), world frame";
  Real nz_0[3](each unit = "1") "Normal of the plane (A's z axis), world frame";
  Units.DimensionlessRatio sinTilt "sin of the angle between the disk's axis and the plane's normal: 1 upright, 0 flat";
  Units.DimensionlessRatio w "Share of the rim's contact (1) against the edge ring's (0)";
  Units.Length delta "Penetration at the rim's lowest point (> 0 in contact)";
  Units.Velocity ddelta "d(delta)/dt";
  Units.Length R_normal "Radius of the sphere on a plane as stiff as the rim's elliptic contact";
  Units.Length R_hertz "Radius of the circular patch with the pivoting friction of the rim's ellipse";
  Units.DimensionlessRatio ellipticity "Ratio a/b of the rim's contact ellipse";
  Units.Length semiMajor "Semi-major axis of the rim's contact ellipse, along the rim (0 when separated)";
  Units.Length semiMinor "Semi-minor axis of the rim's contact ellipse, across the rim (0 when separated)";
  Units.Force N "Normal force on the disk, rim and ring";
  Units.Force N_rim "Normal force of the rim's contact, before its share w";
  Units.Force N_ring[nRing] "Normal force at each point of the edge ring, before its share 1 - w";
  Units.Length delta_ring[nRing] "Penetration at each point of the edge ring";
  Units.Velocity slip "Slip speed at the rim's lowest point";
  Units.AngularVelocity spin "Spin of body B relative to body A about the plane's normal";
  Units.Power P_slide "Power lost in sliding friction (>= 0)";
  Units.Power P_pivot "Power lost in pivoting friction (>= 0)";
  Units.Power P_damp "Power lost in Hunt-Crossley normal damping (>= 0)";
  Units.Power dissipation "Power lost in friction and normal damping, P_slide + P_pivot + P_damp";
  Units.Energy elasticEnergy "Elastic energy stored in the contact (Hertz), shared as the forces";
protected
  final parameter Real hs(unit = "1") = 1e-5 "Relative step of the forward difference of R_normal in sinTilt";
  Real cosTilt(unit = "1") "cos of the angle between the disk's axis and the plane's normal";
  Real s_g(unit = "1") "sinTilt, held above sFlat/2 where the rim's lowest point is undefined (w = 0 there)";
  Real x_w(unit = "1") "(sinTilt - sFlat)/(sRim - sFlat) clipped to [0, 1]";
  Real dw(unit = "1") "dw/d(sinTilt)";
  Units.Position o_0[3] "Centre of the tube's centre circle, world frame";
  Real dir_0[3](each unit = "1") "Unit vector in the disk's plane towards its lowest point, world frame";
  Units.Position q_0[3] "Lowest point of the tube's centre circle, world frame";
  Units.Length h "Height of q_0 above the plane";
  Units.Position p_rim_0[3] "Centre of the rim's patch: the foot of q_0 on the plane";
  Units.Velocity v_rim_0[3] "Velocity of B's material point at p_rim_0 relative to A's";
  Units.Velocity vt_rim_0[3] "Its tangential part";
  Units.Length rho "Radius of curvature of the rim along itself at the lowest point, r + (R - r)/sinTilt";
  Real A_major(unit = "m") "a^2/delta of the rim's ellipse";
  Units.Length patchRadius "Radius of the rim's equivalent circular patch";
  Units.Force N_el_rim "Elastic part of N_rim";
  Units.Torque M_rim "Pivoting friction torque of the rim's contact";
  Units.Length R_up "R_normal at sinTilt (1 + hs)";
  Units.Force F_rim_0[3] "Friction force of the rim's contact";
  Units.Energy U_rim "Elastic energy of the rim's contact";
  Units.Position q_ring_0[nRing, 3] "Points of the edge ring, world frame";
  Units.Position p_ring_0[nRing, 3] "Centres of the ring points' patches";
  Units.Velocity v_ring_0[nRing, 3] "Velocities of B's material points there, relative to A's";
  Units.Velocity vt_ring_0[nRing, 3] "Their tangential parts";
  Units.Velocity ddelta_ring[nRing] "d(delta_ring)/dt";
  Units.Force f_ring_0[nRing, 3] "Force of each ring point";
  Units.Torque t_ring_0[nRing, 3] "Torque of each ring point about p_0";
  Units.Energy U_ring "Elastic energy of the ring's contacts";
  HertzPatch ringPatch[nRing](each frictionLaw = frictionLaw, each mu = mu, each eps = eps, each E_star = E_star,
    each d = d, each R = r, delta = delta_ring, ddelta = ddelta_ring, v_t_0 = vt_ring_0, each spin = spin) "The ring points' patches, each a sphere of radius r on the plane";
  Units.Power P_slide_ring[nRing] "Power lost in sliding at each ring point";
  Units.Power P_damp_ring[nRing] "Power lost in normal damping at each ring point";
  Units.Torque t_tilt_0[3] "Torque of the energy's dependence on the tilt (the stiffness R_normal(sinTilt) and the share w)";
equation
  nz_0 = kA.T[:, 3];
  n_0 = kB.T[:, 3];
  // normalised: a quaternion's norm a little below 1 would otherwise leave a false tilt of sqrt(2 (1 - |Q|)) at rest
  cosTilt = n_0*nz_0/sqrt(n_0*n_0);
  sinTilt = sqrt(noEvent(max(1 - cosTilt^2, 0)));
  s_g = noEvent(max(sinTilt, sFlat/2));
  x_w = noEvent(min(max((sinTilt - sFlat)/(sRim - sFlat), 0), 1));
  w = x_w^2*(3 - 2*x_w);
  dw = 6*x_w*(1 - x_w)/(sRim - sFlat);
  // the rounded edge: a torus, tube radius r about a circle of radius R - r centred at o_0 in the plane normal to
  // n_0; its lowest point lies below the circle's lowest point q_0 (dir_0 as in DiskOnPlane); for a disk whose
  // axis points up the lower face's edge touches
  o_0 = kB.r_0 - e*n_0;
  dir_0 = (-nz_0 + cosTilt*n_0)/s_g;
  q_0 = o_0 + (R - r)*dir_0;
  h = nz_0*(q_0 - kA.r_0);
  delta = r - h;
  p_rim_0 = q_0 - h*nz_0;
  v_rim_0 = kB.v_0 + cross(kB.w_0, p_rim_0 - kB.r_0) - kA.v_0 - cross(kA.w_0, p_rim_0 - kA.r_0);
  // q_0 is the lowest material point of the circle, so d(h)/dt is the normal velocity of the material point there
  ddelta = -nz_0*v_rim_0;
  vt_rim_0 = v_rim_0 - (nz_0*v_rim_0)*nz_0;
  spin = (kB.w_0 - kA.w_0)*nz_0;
  slip = sqrt(vt_rim_0*vt_rim_0);
  // elliptic Hertz: the torus's principal radii at its lowest point are r across the rim and, along it, r plus
  // (R - r)/sinTilt (Meusnier: the circle's curvature 1/(R - r) seen in the vertical plane along the rim)
  rho = r + (R - r)/s_g;
  (R_normal, R_hertz, A_major, ellipticity) = Hertz.ellipticRadii(r, rho);
  R_up = Hertz.stiffnessRadius(r, r + (R - r)/(s_g*(1 + hs)));
  semiMajor = noEvent(if delta > 0 then sqrt(A_major*delta) else 0);
  semiMinor = semiMajor/ellipticity;
  (N_rim, N_el_rim, patchRadius, F_rim_0, M_rim, U_rim) = Hertz.patchWrench(frictionLaw, mu, eps, E_star, d, R_hertz,
    R_normal, delta, ddelta, vt_rim_0, spin);
  // the face's edge ring: nRing points of the tube's centre circle, each a sphere of radius r on the plane
  for k in 1:nRing loop
    q_ring_0[k, :] = o_0 + (R - r)*(cos(2*Constants.pi*(k - 1)/nRing)*kB.T[:, 1] + sin(2*Constants.pi*(k - 1)/nRing)*kB.T[:, 2]);
    delta_ring[k] = r - nz_0*(q_ring_0[k, :] - kA.r_0);
    p_ring_0[k, :] = q_ring_0[k, :] - (r - delta_ring[k])*nz_0;
    v_ring_0[k, :] = kB.v_0 + cross(kB.w_0, p_ring_0[k, :] - kB.r_0) - kA.v_0 - cross(kA.w_0, p_ring_0[k, :] - kA.r_0);
    ddelta_ring[k] = -nz_0*v_ring_0[k, :];
    vt_ring_0[k, :] = v_ring_0[k, :] - (nz_0*v_ring_0[k, :])*nz_0;
    N_ring[k] = ringPatch[k].N;
    f_ring_0[k, :] = N_ring[k]*nz_0 + ringPatch[k].F_t_0;
    t_ring_0[k, :] = cross(p_ring_0[k, :] - p_0, f_ring_0[k, :]) + ringPatch[k].M_n*nz_0;
    P_slide_ring[k] = -ringPatch[k].F_t_0*vt_ring_0[k, :];
    P_damp_ring[k] = (N_ring[k] - ringPatch[k].N_el)*ddelta_ring[k];
  end for;
  U_ring = sum(ringPatch.U);
  // the wrench is minus the gradient of the elastic energy U = w U_rim + (1 - w) U_ring (plus friction and damping);
  // U_rim's stiffness and w depend on sinTilt, whose change under a small rotation dth is
  // -(cosTilt/sinTilt) (n_0 x nz_0).dth: the torque (dU/dsinTilt) (cosTilt/sinTilt) (n_0 x nz_0)
  t_tilt_0 = (w*U_rim*(R_up - R_normal)/(2*R_normal*hs*s_g) + (U_rim - U_ring)*dw)*cosTilt/s_g*cross(n_0, nz_0);
  p_0 = o_0 - (nz_0*(o_0 - kA.r_0))*nz_0;
  f_0 = w*(N_rim*nz_0 + F_rim_0) + (1 - w)*ones(nRing)*f_ring_0;
  t_0 = w*(cross(p_rim_0 - p_0, N_rim*nz_0 + F_rim_0) + M_rim*nz_0) + (1 - w)*ones(nRing)*t_ring_0 + t_tilt_0;
  N = w*N_rim + (1 - w)*sum(N_ring);
  P_slide = -w*(F_rim_0*vt_rim_0) + (1 - w)*sum(P_slide_ring);
  P_pivot = -(w*M_rim + (1 - w)*sum(ringPatch.M_n))*spin;
  P_damp = w*(N_rim - N_el_rim)*ddelta + (1 - w)*sum(P_damp_ring);
  dissipation = P_slide + P_pivot + P_damp;
  elasticEnergy = w*U_rim + (1 - w)*U_ring;
  annotation(Documentation(info = "<html>
<p>A disk of radius <code>R</code> (body B, symmetry axis its body z axis) whose lower face's edge is rounded with
radius <code>r</code>: a torus, tube radius <code>r</code>, about a circle of radius <code>R - r</code> centred on
the axis at <code>e</code> below the mid-plane (<code>e = h/2 - r</code> for a disk of thickness <code>h</code>;
<code>e = 0</code>: the circle in the mid-plane), presses on the plane <code>z = 0</code> of body A. The disk's
axis is taken to point up (<code>cosTilt &gt; 0</code>): the lower face's edge touches.</p>
<p><b>Rim.</b> While the disk is tilted the contact is the torus's lowest point, below the lowest point
<code>q</code> of the tube's centre circle (<code>q = o + (R - r) d</code>, <code>d</code> the downward vertical
projected on the disk's plane, normalised, as in
<a href=\"modelica://Nonholonomic.Contacts.DiskOnPlane\">DiskOnPlane</a>); the penetration is
<code>delta = r - height(q)</code>, exact for any attitude. The torus's principal radii there are <code>r</code>
across the rim and <code>r + (R - r)/sinTilt</code> along it (Meusnier), a ratio of 27 upright and of thousands
near flat. The elliptic Hertz contact of these radii, from Johnson's relation for the ellipticity solved by Newton's
method (<a href=\"modelica://Nonholonomic.Contacts.Hertz.ellipticRadii\">Hertz.ellipticRadii</a>: Hamrock and Brewe's
fit, which <a href=\"modelica://Nonholonomic.Contacts.BallOnRaceway\">BallOnRaceway</a> uses, is 12 to 28 % off at
ratios of 1000 to 7000), enters as the circle of equal stiffness (<code>R_normal</code>) and of equal pivoting
friction (<code>R_hertz</code>), as in BallOnRaceway. The stiffness changes with
the tilt, so the contact also exerts the torque <code>-(dU/dsinTilt) grad(sinTilt)</code> that makes its force
the gradient of its elastic energy <code>U</code> (without it the energy would not balance).</p>
<p><b>Face's edge ring.</b> As the disk falls flat the rim's contact ellipse stretches along the rim
(<code>r + (R - r)/sinTilt</code> grows without bound) and the lowest point becomes undefined: at
<code>sinTilt = 0</code> the whole circle touches. Below <code>sinTilt = sRim</code> the contact hands over to
<code>nRing</code> points equally spaced on the tube's centre circle (fixed in the disk), each a sphere of radius
<code>r</code> on the plane (as <a href=\"modelica://Nonholonomic.Contacts.SphereOnPlaneElastic\">SphereOnPlaneElastic</a>):
the line contact of the flat-lying edge lumped into points, on which the disk lands and rests. The shares are
<code>w</code> (rim) and <code>1 - w</code> (ring), <code>w</code> a smooth step (C1) in <code>sinTilt</code> from 0 at
<code>sFlat</code> to 1 at <code>sRim</code>, and the energy is <code>w U_rim + (1 - w) U_ring</code>; its gradient's
part from <code>w</code> is in the tilt torque too. The defaults <code>sFlat = 0.002</code>,
<code>sRim = 0.005</code> are where, for a steel disk of 38 mm on glass at its own weight (penetration about
0.5 um), the rim's patch would span about +-0.12 and +-0.07 rad of the edge circle, where the small-patch
assumption of Hertz's theory fails.</p>
<p><b>Forces.</b> Each patch has the force law of
<a href=\"modelica://Nonholonomic.Interfaces.PartialCompliantContact\">PartialCompliantContact</a>
(<a href=\"modelica://Nonholonomic.Contacts.Hertz.patchWrench\">Hertz.patchWrench</a>): Hertz pressure,
Hunt-Crossley damping <code>d</code>, Coulomb friction integrated over the patch by the law
<code>frictionLaw</code> (Contensou-Zhuravlev by default); the ring's points are an array of
<a href=\"modelica://Nonholonomic.Contacts.HertzPatch\">HertzPatch</a>. This model does not extend the partial,
whose radii are parameters and which has one patch. The dissipated power is split into
sliding (<code>P_slide</code>), pivoting (<code>P_pivot</code>) and normal damping (<code>P_damp</code>); there
is no rolling resistance beyond what the damping gives.</p>
</html>"), Icon(graphics = {Line(points = {{-80, -44}, {80, -44}}, thickness = 0.5), Rectangle(lineColor = {255, 255, 255}, fillColor = {160, 160, 164}, fillPattern = FillPattern.Backward, extent = {{-80, -56}, {80, -45}}),
    Rectangle(origin = {0, -4}, rotation = -25, lineColor = {0, 0, 0}, fillColor = {200, 200, 200}, fillPattern = FillPattern.Solid, extent = {{-10, -40}, {10, 40}}, radius = 6),
    Text(textColor = {0, 0, 0}, extent = {{-150, -68}, {150, -98}}, textString = "R=%R r=%r"), Text(textColor = {0, 0, 255}, extent = {{-150, 70}, {150, 100}}, textString = "%name")}));
end DiskOnPlaneElastic;
