within Nonholonomic.Vehicles;
model OmniVehicleImpact "Vehicle on omni-wheels with massive truncated rollers rolling without slipping, an inelastic impact at every change of the contact roller (Gerasimov 2018, ch. 1-2)"
  parameter Integer nWheels(min = 1) = 3 "Number of wheels";
  parameter Integer nRollers(min = 3) = 5 "Number of rollers per wheel";
  parameter Units.Length R(min = 1e-6) = 0.15 "Distance of the wheels' centres from the centre of mass S of the vehicle";
  parameter Units.Length l(min = 1e-6) = 0.05 "Wheel radius: radius of the arc that is the rollers' profile (the thesis' l; ch. 2 calls it r)";
  parameter Units.Length r(min = 0) = l*cos(Constants.pi/(nRollers - 1)) "Distance of the rollers' axes from the wheel's centre (truncated rollers: l cos(pi/(n-1)), ch. 2 sec. 1)";
  parameter Units.Angle alpha[nWheels] = {2*Constants.pi*(i - 1)/nWheels for i in 1:nWheels} "Directions of the wheels' axles from the platform's axis S xi";
  parameter Units.Mass M(min = 1e-9) = 2.2 "Total mass of the vehicle (default 1 + 3 (0.15 + 5 x 0.05), ch. 2)";
  parameter Units.Inertia I_S(min = 1e-12) = 0.03912 "Moment of inertia of the vehicle about the vertical through S, the rollers' spin about their axes excluded (default: platform disk, wheel disks, rollers as point masses; references.omni_massive.chapter2_parameters)";
  parameter Units.Inertia J(min = 1e-12) = 5e-4 "Moment of inertia of a wheel about its axle, with its rollers' translation (default 0.15 l^2/2 + 5 x 0.05 r^2)";
  parameter Units.Inertia B(min = 1e-15) = 1.6e-5 "Moment of inertia of a roller about its own axis (ch. 2: 1.6e-5)";
  parameter Units.DimensionlessRatio Lambda(min = 1e-9) = 1 "Scale of the third pseudo-velocity, nu3 = Lambda dtheta/dt (not defined in the thesis)";
  parameter Units.Position x_0 = 0 "Initial x of the centre of mass S";
  parameter Units.Position y_0 = 0 "Initial y of the centre of mass S";
  parameter Units.Angle theta_0 = 0 "Initial heading of the platform";
  parameter Units.Frequency nu_0[3] = {0, 0, 1} "Initial pseudo-velocities (nu1, nu2, nu3): velocity of S = R (nu1 e_xi + nu2 e_eta), dtheta/dt = nu3/Lambda";
  parameter Units.Angle chi_0[nWheels] = zeros(nWheels) "Initial wheel angles, in (-pi/n, pi/n): roller 1 in contact (0: its middle at the bottom); the other rollers start at rest on their wheels";
  parameter Units.Frequency beta(min = 0) = 20 "Baumgarte rate of the no-slip constraints (stated at acceleration level)";
  parameter Units.Angle switchTolerance(min = 0, max = 1e-3) = 1e-8 "Wheels within this tilt of their junction, turning outwards, change roller in the same impact";
  final parameter Units.Angle half = Constants.pi/nRollers "Half the angle of a roller's profile: the contact roller changes at the tilt +-pi/n";
  final parameter Units.Angle kappa[nRollers] = {2*Constants.pi*(j - 1)/nRollers for j in 1:nRollers} "Angular positions of the rollers on the wheel, from the downward direction in the sense of chi";
  final parameter Units.Length rho_0[nWheels] = {l*cos(chi_0[i]) - r for i in 1:nWheels} "Initial distance of the contact roller's axis from the contact point";
  // coordinates q = (x, y, theta, chi_i, phi_ij) (ch. 1, sec. 1)
  Units.Position xS(start = x_0, fixed = true) "x of the centre of mass S";
  Units.Position yS(start = y_0, fixed = true) "y of the centre of mass S";
  Units.Angle thetaS(start = theta_0, fixed = true) "Heading of the platform: angle from O X to S xi";
  Units.Angle chi[nWheels](start = chi_0, each fixed = true) "Wheel angles about the axles (counter-clockwise seen from the axle's tip)";
  Units.Angle phi[nWheels, nRollers](each start = 0, each fixed = true) "Roller angles about the rollers' axes";
  // generalised velocities dq/dt, initially on the constraints: (1.4) for the wheels; (1.3) for the contact roller
  // (roller 1), the other rollers at rest on their wheels
  Units.Velocity vxS(start = R*(nu_0[1]*cos(theta_0) - nu_0[2]*sin(theta_0)), fixed = true) "x velocity of S";
  Units.Velocity vyS(start = R*(nu_0[1]*sin(theta_0) + nu_0[2]*cos(theta_0)), fixed = true) "y velocity of S";
  Units.AngularVelocity omegaS(start = nu_0[3]/Lambda, fixed = true) "Angular velocity of the platform, dtheta/dt";
  Units.AngularVelocity dchi[nWheels](start = {R/l*(nu_0[1]*sin(alpha[i]) - nu_0[2]*cos(alpha[i]) - nu_0[3]/Lambda) for i in 1:nWheels},
    each fixed = true) "Wheel rates dchi/dt";
  Units.AngularVelocity dphi[nWheels, nRollers](start = {{if j == 1
    then R/rho_0[i]*(nu_0[1]*cos(alpha[i]) + nu_0[2]*sin(alpha[i])) else 0 for j in 1:nRollers} for i in 1:nWheels},
    each fixed = true) "Roller rates dphi/dt";
  Units.Force Ft[nWheels] "Reaction of the plane on the contact roller of each wheel along t_i (in the wheel's plane)";
  Units.Force Fn[nWheels] "Reaction of the plane on the contact roller of each wheel along n_i (along the axle)";
  output Units.Position x = xS "x of the centre of mass S";
  output Units.Position y = yS "y of the centre of mass S";
  output Units.Angle theta = thetaS "Heading of the platform (not wrapped)";
  output Units.Velocity vx = vxS "x velocity of S";
  output Units.Velocity vy = vyS "y velocity of S";
  output Units.AngularVelocity omega = omegaS "Angular velocity of the platform, dtheta/dt";
  output Units.Frequency nu[3] = {(vxS*cos(thetaS) + vyS*sin(thetaS))/R, (vyS*cos(thetaS) - vxS*sin(thetaS))/R, Lambda*omegaS} "Pseudo-velocities (1.5): nu1, nu2 = velocity of S along S xi, S eta over R; nu3 = Lambda dtheta/dt";
  output Units.Angle wheelAngle[nWheels] = chi "Wheel angles";
  output Units.AngularVelocity wheelRate[nWheels] = dchi "Wheel rates about the axles";
  output Units.AngularVelocity rollerRate[nWheels, nRollers] = dphi "Roller rates about their axes, relative to the wheels";
  output Units.Energy kineticEnergy "Kinetic energy (2.2)";
  output Integer contactRoller[nWheels](each start = 1, each fixed = true) "Index of the contact roller of each wheel";
  output Integer changes[nWheels](each start = 0, each fixed = true) "Number of roller changes of each wheel (junctions passed)";
  output Integer impacts(start = 0, fixed = true) "Number of impacts (the simultaneous changes of several wheels are one impact)";
  output Units.Angle tilt[nWheels] "Tilt of each wheel's contact roller, in [-pi/n, pi/n]";
  output Units.AngularVelocity rollerSpin[nWheels, nRollers] "Spin of each roller about its own axis, dphi/dt + dtheta/dt sin(chi + kappa): constant while the roller is free (2.8)";
  output Units.Velocity slip[nWheels] "Speed of the contact point of each wheel's contact roller (0 when the constraints hold)";
  Visualizers.Shape floor(shapeType = Visualizers.plane, r_0 = {0, 0, 0}, T = [1, 0, 0; 0, 1, 0; 0, 0, 1]) "The plane (animation)";
  Visualizers.Shape platformShape(shapeType = Visualizers.cylinder, shapeSize = {1.6*R, 0, l/3}, color = {190, 140, 90},
    r_0 = {xS, yS, l}, T = Visualizers.axisRotation({0, 0, 1}, thetaS)) "The platform (animation)";
  // wheel frames: z along the axle, x down at chi = 0 (then turned by chi about the axle)
  OmniWheelShape wheelShape[nWheels](each nRollers = nRollers, each l = l, each r = r,
    r_0 = {{xS + R*cos(thetaS + alpha[i]), yS + R*sin(thetaS + alpha[i]), l} for i in 1:nWheels},
    T = {Visualizers.axisRotation({0, 0, 1}, thetaS + alpha[i])*Visualizers.axisRotation({0, 1, 0}, Constants.pi/2)
      *Visualizers.axisRotation({0, 0, 1}, chi[i]) for i in 1:nWheels}, phi = phi) "The wheels' hubs and rollers (animation)";
protected
  Integer sector[nWheels](each start = 0, each fixed = true) "Sector of each wheel: the contact roller's tilt is chi + 2 pi sector/n";
  Units.Length rho[nWheels] "Distance of the contact roller's axis from the contact point (1.3)";
  Units.DimensionlessRatio cn[nWheels] "cos(theta + alpha): n_i = (cn, sn) along the axle, t_i = (-sn, cn) in the wheel's plane";
  Units.DimensionlessRatio sn[nWheels] "sin(theta + alpha)";
  Units.DimensionlessRatio sel[nWheels, nRollers] "1 for the contact roller of each wheel, else 0";
  Units.DimensionlessRatio step[nWheels] "Step of each wheel's sector at a roller change now: -1, +1, or 0 (no change)";
  Units.Angle tiltPre[nWheels] "Tilt of each wheel's contact roller in the sector before the event, chi + 2 pi pre(sector)/n (= tilt between events)";
  Units.DimensionlessRatio sinPsi[nWheels, nRollers] "sin(chi_i + kappa_j): sine of roller j's tilt";
  Units.DimensionlessRatio cosPsi[nWheels, nRollers] "cos(chi_i + kappa_j)";
  Units.AngularVelocity dphiC[nWheels] "Rate of each wheel's contact roller";
  Units.AngularAcceleration ddphiC[nWheels] "Angular acceleration of each wheel's contact roller";
  // the platform's angular acceleration as a variable of its own: omegaS is re-initialised (so OpenModelica gives it
  // and its derivative stateSelect = always), and its derivative would otherwise be an iteration variable of the
  // linear system of the accelerations and reactions in OpenModelica's initialisation (a warning that it cannot be
  // a state); zS takes that place
  Units.AngularAcceleration zS "Angular acceleration of the platform, d omegaS/dt";
  Units.Velocity gt[nWheels] "Velocity of the contact point along t_i";
  Units.Velocity gn[nWheels] "Velocity of the contact point along n_i";
  // the velocities after an impact with the current contact set (ch. 2 (1.1), (1.2)); equal to the velocities between impacts
  Units.Velocity vxPlus "x velocity of S after the impact";
  Units.Velocity vyPlus "y velocity of S after the impact";
  Units.AngularVelocity wPlus "dtheta/dt after the impact";
  Units.AngularVelocity dchiPlus[nWheels] "Wheel rates after the impact";
  Units.AngularVelocity dphiPlus[nWheels, nRollers] "Roller rates after the impact";
  Real Pt[nWheels](each unit = "N.s") "Impulse of the plane on each wheel along t_i";
  Real Pn[nWheels](each unit = "N.s") "Impulse of the plane on each wheel along n_i";
initial equation
  assert(max(abs(chi_0)) < half, "the wheels must start with roller 1 in contact: |chi_0| < pi/n");
  assert(r < l*cos(half), "the rollers' profile must not reach their axes: r < l cos(pi/n)");
equation
  der(xS) = vxS;
  der(yS) = vyS;
  der(thetaS) = omegaS;
  der(omegaS) = zS;
  der(chi) = dchi;
  der(phi) = dphi;
  for i in 1:nWheels loop
    // (1.3): tilt of the contact roller (the thesis' chi_k in rho_k is this tilt) and its distance to the contact point
    tilt[i] = chi[i] + 2*Constants.pi*sector[i]/nRollers;
    rho[i] = l*cos(tilt[i]) - r;
    cn[i] = cos(thetaS + alpha[i]);
    sn[i] = sin(thetaS + alpha[i]);
    for j in 1:nRollers loop
      // roller j's tilt is chi_i + kappa_j; its coupling to the platform's rotation in (2.2): B sin(chi_i + kappa_j)
      sinPsi[i, j] = sin(chi[i] + kappa[j]);
      cosPsi[i, j] = cos(chi[i] + kappa[j]);
      sel[i, j] = if contactRoller[i] == j then 1 else 0;
      rollerSpin[i, j] = dphi[i, j] + omegaS*sinPsi[i, j];
    end for;
  end for;
  dphiC = (sel .* dphi)*ones(nRollers);
  ddphiC = (sel .* der(dphi))*ones(nRollers);
  // velocity of the contact point C_i, v_S + (R dtheta/dt + l dchi_i/dt) t_i - rho_i dphi_c/dt n_i: the rows of
  // J dq/dt (ch. 2 (1.3)); zero by (1.3), (1.4) of ch. 1
  gt = -sn*vxS + cn*vyS + R*omegaS*ones(nWheels) + l*dchi;
  gn = cn*vxS + sn*vyS - rho .* dphiC;
  slip = sqrt(gt .^ 2 + gn .^ 2);
  // the same constraints at acceleration level with Baumgarte's term, d/dt g + beta g = 0 (dt_i/dt = -w n_i,
  // dn_i/dt = w t_i, drho_i/dt = -l sin(psi_i) dchi_i/dt)
  -sn*der(vxS) + cn*der(vyS) - omegaS*(cn*vxS + sn*vyS) + R*zS*ones(nWheels) + l*der(dchi) + beta*gt = zeros(nWheels);
  cn*der(vxS) + sn*der(vyS) + omegaS*(cn*vyS - sn*vxS) - rho .* ddphiC + l*sin(tilt) .* dchi .* dphiC + beta*gn
    = zeros(nWheels);
  // Lagrange's equations d/dt dT/d(dq/dt) - dT/dq = J^T F (T: (2.2)); the reaction of the plane on the contact
  // roller of wheel i is F_i = Ft_i t_i + Fn_i n_i at C_i, whose generalised forces are the columns of J^T:
  // F_i on (x, y), R Ft_i on theta, l Ft_i on chi_i, -rho_i Fn_i on the contact roller's phi, none on the others
  M*der(vxS) = -sn*Ft + cn*Fn;
  M*der(vyS) = cn*Ft + sn*Fn;
  I_S*zS + B*(sum(sinPsi .* der(dphi)) + dchi*((cosPsi .* dphi)*ones(nRollers))) = R*sum(Ft);
  J*der(dchi) - B*omegaS*((cosPsi .* dphi)*ones(nRollers)) = l*Ft;
  for i in 1:nWheels loop
    for j in 1:nRollers loop
      B*(der(dphi[i, j]) + sinPsi[i, j]*zS + cosPsi[i, j]*dchi[i]*omegaS) = -sel[i, j]*rho[i]*Fn[i];
    end for;
  end for;
  // (2.2): 2T = M v_S^2 + I_S (dtheta/dt)^2 + J sum (dchi_i/dt)^2 + B sum ((dphi_ij/dt)^2 + 2 dtheta/dt sin(chi_i + kappa_j) dphi_ij/dt)
  kineticEnergy = 0.5*(M*(vxS^2 + vyS^2) + I_S*omegaS^2 + J*sum(dchi .^ 2) + B*sum(dphi .^ 2) + 2*B*omegaS*sum(sinPsi .* dphi));
  // the impact (ch. 2 (1.1), (1.2), (1.6)): Mcal (dq/dt+ - dq/dt-) = J^T P, J dq/dt+ = 0, P the impulses of the
  // plane, with J of the current contact set. Between impacts its solution is the velocity itself (P = 0). At a
  // roller change the when-clause below re-initialises the velocities to it computed with the NEW contact set:
  // the Mcal-orthogonal projection of dq/dt- onto the kernel of the new constraints
  M*(vxPlus - vxS) = -sn*Pt + cn*Pn;
  M*(vyPlus - vyS) = cn*Pt + sn*Pn;
  I_S*(wPlus - omegaS) + B*sum(sinPsi .* (dphiPlus - dphi)) = R*sum(Pt);
  J*(dchiPlus - dchi) = l*Pt;
  for i in 1:nWheels loop
    for j in 1:nRollers loop
      B*(dphiPlus[i, j] - dphi[i, j] + sinPsi[i, j]*(wPlus - omegaS)) = -sel[i, j]*rho[i]*Pn[i];
    end for;
  end for;
  -sn*vxPlus + cn*vyPlus + R*wPlus*ones(nWheels) + l*dchiPlus = zeros(nWheels);
  cn*vxPlus + sn*vyPlus - rho .* ((sel .* dphiPlus)*ones(nRollers)) = zeros(nWheels);
  for i in 1:nWheels loop
    // a wheel changes its contact roller where the tilt reaches +-pi/n, turning outwards (the thesis prints "at
    // chi_i = 2 pi/n": that is the period of the changes, from one junction to the next; DIGEST 4.5 and its
    // misprint 10): to roller j - 1 at +pi/n (step -1 of the sector), to roller j + 1 at -pi/n (step +1). The step
    // is read from the tilt in the sector before the event (pre): the when-clause then assigns the new sector from
    // known values, outside any algebraic loop (OpenModelica's back end refuses a when-equation inside a nonlinear
    // loop: sector -> tilt -> step -> sector); between events pre(sector) = sector, tiltPre = tilt
    tiltPre[i] = chi[i] + 2*Constants.pi*pre(sector[i])/nRollers;
    step[i] = noEvent(if abs(tiltPre[i]) >= half - switchTolerance and tiltPre[i]*dchi[i] > 0 then (if tiltPre[i] > 0 then -1 else 1)
      else 0);
  end for;
  // ONE when-clause for all wheels: the wheels at their junctions at the same time (within switchTolerance) change
  // in one impact, one projection. Its condition, too, reads the tilt in the sector before the event (tiltPre,
  // the tilt itself between events): a condition on the tilt in the new sector would close the loop
  // sector -> tilt -> condition -> sector
  when max(abs(tiltPre)) > half then
    sector = pre(sector) + nearestInteger(step);
    contactRoller = rollerIndex(sector, nRollers);
    changes = pre(changes) + nearestInteger(step .* step);
    impacts = pre(impacts) + (if sum(changes) > sum(pre(changes)) then 1 else 0);
    reinit(vxS, vxPlus);
    reinit(vyS, vyPlus);
    reinit(omegaS, wPlus);
    reinit(dchi, dchiPlus);
    reinit(dphi, dphiPlus);
  end when;
protected
  function nearestInteger "The nearest integer (vectorisable: applied to each element of an array)"
    extends Nonholonomic.Icons.Function;
    input Real u "A real number";
    output Integer k "The integer nearest to it";
  algorithm
    k := integer(u + 0.5);
  end nearestInteger;

  function rollerIndex "Index 1..n of the contact roller of a wheel in a given sector (vectorisable in the sector)"
    extends Nonholonomic.Icons.Function;
    input Integer sector "Sector: the contact roller's tilt is chi + 2 pi sector/n";
    input Integer n "Number of rollers on the wheel";
    output Integer index "Index of the contact roller";
  algorithm
    // roller j's tilt is chi + kappa_j = chi + 2 pi (j - 1)/n, so j - 1 = sector modulo n
    index := sector - n*integer(sector/n) + 1;
  end rollerIndex;
  annotation(Diagram(graphics = {Ellipse(lineColor = {0, 0, 0}, fillColor = {220, 220, 220}, fillPattern = FillPattern.Solid, extent = {{-50, -50}, {50, 50}}), Ellipse(lineColor = {0, 0, 0}, fillColor = {0, 0, 0}, fillPattern = FillPattern.Solid, extent = {{-3, -3}, {3, 3}}), Text(textColor = {0, 0, 0}, extent = {{4, -2}, {20, -12}}, textString = "S"), Line(points = {{0, 0}, {40.0, 0.0}}, pattern = LinePattern.Dash), Rectangle(origin = {62.0, 0.0}, rotation = 0, lineColor = {0, 0, 0}, fillColor = {120, 120, 120}, fillPattern = FillPattern.Solid, extent = {{-6, -22}, {6, 22}}, radius = 3), Ellipse(origin = {62.0, 0.0}, rotation = 0, lineColor = {0, 0, 0}, fillColor = {255, 170, 85}, fillPattern = FillPattern.Solid, extent = {{-8, -19}, {8, -9}}), Ellipse(origin = {62.0, 0.0}, rotation = 0, lineColor = {0, 0, 0}, fillColor = {255, 170, 85}, fillPattern = FillPattern.Solid, extent = {{-8, -5}, {8, 5}}), Ellipse(origin = {62.0, 0.0}, rotation = 0, lineColor = {0, 0, 0}, fillColor = {255, 170, 85}, fillPattern = FillPattern.Solid, extent = {{-8, 9}, {8, 19}}), Line(points = {{0, 0}, {-20.0, 34.6}}, pattern = LinePattern.Dash), Rectangle(origin = {-31.0, 53.7}, rotation = 120, lineColor = {0, 0, 0}, fillColor = {120, 120, 120}, fillPattern = FillPattern.Solid, extent = {{-6, -22}, {6, 22}}, radius = 3), Ellipse(origin = {-31.0, 53.7}, rotation = 120, lineColor = {0, 0, 0}, fillColor = {255, 170, 85}, fillPattern = FillPattern.Solid, extent = {{-8, -19}, {8, -9}}), Ellipse(origin = {-31.0, 53.7}, rotation = 120, lineColor = {0, 0, 0}, fillColor = {255, 170, 85}, fillPattern = FillPattern.Solid, extent = {{-8, -5}, {8, 5}}), Ellipse(origin = {-31.0, 53.7}, rotation = 120, lineColor = {0, 0, 0}, fillColor = {255, 170, 85}, fillPattern = FillPattern.Solid, extent = {{-8, 9}, {8, 19}}), Line(points = {{0, 0}, {-20.0, -34.6}}, pattern = LinePattern.Dash), Rectangle(origin = {-31.0, -53.7}, rotation = 240, lineColor = {0, 0, 0}, fillColor = {120, 120, 120}, fillPattern = FillPattern.Solid, extent = {{-6, -22}, {6, 22}}, radius = 3), Ellipse(origin = {-31.0, -53.7}, rotation = 240, lineColor = {0, 0, 0}, fillColor = {255, 170, 85}, fillPattern = FillPattern.Solid, extent = {{-8, -19}, {8, -9}}), Ellipse(origin = {-31.0, -53.7}, rotation = 240, lineColor = {0, 0, 0}, fillColor = {255, 170, 85}, fillPattern = FillPattern.Solid, extent = {{-8, -5}, {8, 5}}), Ellipse(origin = {-31.0, -53.7}, rotation = 240, lineColor = {0, 0, 0}, fillColor = {255, 170, 85}, fillPattern = FillPattern.Solid, extent = {{-8, 9}, {8, 19}}), Text(textColor = {0, 0, 255}, extent = {{-100, 96}, {100, 84}}, textString = "%name: platform, 3 omni-wheels, 5 rollers each (top view)"), Text(textColor = {0, 0, 0}, extent = {{-100, -86}, {100, -98}}, textString = "written as equations (Lagrange, impacts at roller changes): no components to connect")}), Documentation(info = "<html>
<p>The omni-wheel vehicle of Gerasimov (2018), ch. 1-2 (DIGEST 4.1-4.6): a platform with <code>nWheels</code>
omni-wheels whose axles lie on the rays from the centre of mass <code>S</code> at the angles <code>alpha</code>, each
wheel with <code>nRollers</code> massive truncated rollers. The rollers' profile is an arc of radius <code>l</code>
spanning <code>2 pi/n</code>, their axes at <code>r = l cos(pi/(n-1))</code> from the wheel's centre, so the
contact roller's radius at the contact, <code>rho = l cos(psi) - r</code>, stays positive over its sector
<code>|psi| &lt;= pi/n</code> (<code>psi</code>: the contact roller's tilt, output <code>tilt</code>). The contact
roller of each wheel rolls on the plane without slipping (ideal nonholonomic constraints); the other rollers
spin freely.</p>
<p><b>Formulation.</b> Lagrange's equations of the first kind in the coordinates
<code>q = (x, y, theta, chi_i, phi_ij)</code> (all roller angles, in a fixed order) with the kinetic energy (2.2),
<code>2T = M v_S^2 + I_S theta'^2 + J sum chi_i'^2 + B sum (phi_ij'^2 + 2 theta' sin(chi_i + kappa_j) phi_ij')</code>,
and one multiplier pair per wheel, the reaction <code>F_i = Ft_i t_i + Fn_i n_i</code> of the plane at the contact
point (<code>n_i</code> along the axle, <code>t_i = e_z x n_i</code>). The no-slip constraints, the velocity of the
contact point <code>v_S + (R theta' + l chi_i') t_i - rho_i phi_ic' n_i = 0</code> (ch. 1 (1.3), (1.4); the rows of
ch. 2's <code>J q' = 0</code>), are stated at acceleration level with Baumgarte's term <code>beta</code>, as the
library's ideal constraints are. This is a second formulation next to the reference
<code>nonholonomic.references.omni_massive</code>, which eliminates the multipliers with the pseudo-velocities
<code>nu</code> (Tatarinov's equations, the null-space form <code>V^T Mcal V nu' = ...</code>).</p>
<p><b>Roller changes.</b> The contact roller of each wheel is a discrete variable (<code>contactRoller</code>,
through the Integer <code>sector</code>: <code>psi = chi + 2 pi sector/n</code>). It changes where the tilt reaches
<code>+-pi/n</code> with the wheel turning outwards (a state event; the thesis prints &quot;at chi_i = 2 pi/n&quot;, which
is the period of the changes, from one junction to the next). A change is a perfectly inelastic impact (ch. 2
(1.1), (1.2), (1.6)): the coordinates keep their values and the velocities jump to the solution of
<code>Mcal (q'+ - q'-) = J^T P, J q'+ = 0</code> with <code>J</code> of the NEW contact set (the
<code>Mcal</code>-orthogonal projection of <code>q'-</code> onto the kernel of the new constraints; the energy falls by
Carnot's <code>1/2 (Mcal dq', dq')</code>). That linear system is part of the model's equations (its solution equals
the velocities between impacts); the when-clause re-initialises the velocities to it, computed with the contact set
the same event selects. All wheels are handled by one when-clause: wheels at their junctions at the same time
(within <code>switchTolerance</code>, e.g. the three wheels of the symmetric spin from <code>chi_i = 0</code>) change in
one impact, one projection (doing them one after the other gives another result).</p>
<p><b>Parameters</b> default to the data of ch. 2 (N = 3, n = 5, R = 0.15, l = 0.05, masses 1, 0.15 and 5 x 0.05,
B = 1.6e-5) with the inertias the thesis does not give chosen as in
<code>references.omni_massive.chapter2_parameters()</code>: a disk platform, disk wheels of radius l, rollers as
point masses (<code>I_S = 0.03912</code>, <code>J = 5e-4</code>), <code>Lambda = 1</code>. Initially roller 1 of each
wheel is in contact (<code>|chi_0| &lt; pi/n</code>), rolls without slipping, and the other rollers are at rest on
their wheels.</p>
<p><b>Outputs</b>: the path and heading (<code>x, y, theta</code>), the velocities (<code>vx, vy, omega</code>, the
pseudo-velocities <code>nu</code> of the thesis), all wheel and roller rates (so that the impacts' energy balance can
be recomputed from the rows before and after an event), the kinetic energy, the contact roller of each wheel, the
roller changes per wheel and the number of impacts, the rollers' spins about their own axes
(<code>rollerSpin</code>, constant while a roller is free: the integrals (2.8)), and the contact points' slip
(the constraints' drift).</p>
<p>Limitation: a wheel that turns back right after an impact (grazing at a junction) changes back to its former
roller at once (another impact); the reference stops there with an error.</p>
</html>"), Icon(graphics = {Text(textColor = {0, 0, 0}, extent = {{-150, -68}, {150, -98}}, textString = "n=%nRollers"), Polygon(lineColor = {0, 0, 0}, fillColor = {220, 220, 220}, fillPattern = FillPattern.Solid,
    points = {{0, 80}, {70, -40}, {-70, -40}, {0, 80}}), Ellipse(lineColor = {0, 0, 0}, fillColor = {255, 170, 85},
    fillPattern = FillPattern.Solid, extent = {{-10, -60}, {10, -40}}), Line(points = {{-40, -50}, {40, -50}}, color = {255, 0, 0},
    thickness = 1), Text(textColor = {0, 0, 255}, extent = {{-150, 90}, {150, 120}}, textString = "%name")}));
end OmniVehicleImpact;
