within Nonholonomic.Contacts;
model InvoluteToothContact "Compliant mesh of a pair of standard involute spur gears: pinion on body A, wheel on body B (Hertz line contact of every tooth pair, backlash, damping, Coulomb friction)"
  extends Interfaces.PartialInteraction;
  parameter Units.Length m(min = 1e-9) = 2e-3 "Module";
  parameter Integer z1(min = 1) = 20 "Number of teeth of the pinion (body A)";
  parameter Integer z2(min = 1) = 35 "Number of teeth of the wheel (body B)";
  parameter Units.Angle alpha(min = 1e-6, max = 0.7853981633974483) = 0.3490658503988659 "Pressure angle (20 deg)";
  parameter Units.Length b(min = 1e-9) = 20e-3 "Face width";
  parameter Units.Length j(min = 0) = 1e-4 "Backlash along the line of action";
  parameter Units.Pressure E_A(min = 1) = 2.1e11 "Young's modulus of the pinion";
  parameter Units.DimensionlessRatio nu_A(min = -1, max = 0.5) = 0.3 "Poisson's ratio of the pinion";
  parameter Units.Pressure E_B(min = 1) = 2.1e11 "Young's modulus of the wheel";
  parameter Units.DimensionlessRatio nu_B(min = -1, max = 0.5) = 0.3 "Poisson's ratio of the wheel";
  parameter Real d(unit = "N.s/m", min = 0) = 0 "Damping of each loaded pair: d d(delta)/dt added to its elastic force (the total never pulls)";
  parameter Units.DimensionlessRatio mu(min = 0) = 0 "Coulomb friction coefficient along the flanks";
  parameter Units.Velocity eps(min = 1e-12) = 1e-3 "Regularisation of the friction law at zero sliding speed";
  parameter Integer nK(min = 1) = 2 "Candidate pairs on each side of the pitch point: k = -nK..nK (2 covers every pressure angle from 20 deg up)";
  final parameter Integer nC = 2*nK + 1 "Number of candidate pairs on each side of the teeth (drive, coast)";
  final parameter Units.Length r1 = m*z1/2 "Pitch radius of the pinion";
  final parameter Units.Length r2 = m*z2/2 "Pitch radius of the wheel";
  final parameter Units.Length rb1 = r1*cos(alpha) "Base radius of the pinion";
  final parameter Units.Length rb2 = r2*cos(alpha) "Base radius of the wheel";
  final parameter Units.Length ra1 = r1 + m "Tip radius of the pinion";
  final parameter Units.Length ra2 = r2 + m "Tip radius of the wheel";
  final parameter Units.Length a = r1 + r2 "Centre distance (along world x from the pinion to the wheel)";
  final parameter Units.Length pb = Constants.pi*m*cos(alpha) "Base pitch";
  final parameter Units.Length L = a*sin(alpha) "Length T1T2 of the line of action between the base circles";
  final parameter Units.Length sP = r1*sin(alpha) "Pitch point on the line of action, from T1";
  final parameter Units.Length sA = L - sqrt(ra2^2 - rb2^2) "Start of the active segment: the wheel's tip circle";
  final parameter Units.Length sE = sqrt(ra1^2 - rb1^2) "End of the active segment: the pinion's tip circle";
  final parameter Units.DimensionlessRatio contactRatio = (sE - sA)/pb "Transverse contact ratio epsilon_alpha";
  final parameter Real lambda_A(unit = "1/Pa") = (1 - nu_A^2)/E_A "Compliance (1 - nu^2)/E of the pinion";
  final parameter Real lambda_B(unit = "1/Pa") = (1 - nu_B^2)/E_B "Compliance (1 - nu^2)/E of the wheel";
  final parameter Real n_d[3](each unit = "1") = {sin(alpha), cos(alpha), 0} "Drive line of action, from T1 to T2: direction of a drive pair's force on the wheel";
  final parameter Real t_d[3](each unit = "1") = {cos(alpha), -sin(alpha), 0} "Direction along the drive flanks (in the plane, normal to n_d)";
  final parameter Real n_c[3](each unit = "1") = {sin(alpha), -cos(alpha), 0} "Coast line of action, from T1' to T2': direction of a coast pair's force on the wheel";
  final parameter Real t_c[3](each unit = "1") = {cos(alpha), sin(alpha), 0} "Direction along the coast flanks (in the plane, normal to n_c)";
  final parameter Units.Position T1_d[3] = rb1*{cos(alpha), -sin(alpha), 0} "Tangent point T1 of the drive line on the pinion's base circle, relative to the pinion's centre";
  final parameter Units.Position T1_c[3] = rb1*{cos(alpha), sin(alpha), 0} "Tangent point T1' of the coast line on the pinion's base circle, relative to the pinion's centre";
  Units.Angle psi1 "Tooth phase of the pinion: z1 phi1 reduced to (-pi, pi]";
  Units.Length e "Transmission error rb1 phi1 + rb2 phi2 along the line of action, reduced to (-pb/2, pb/2]";
  Units.Velocity de "d(e)/dt = rb1 omega1 + rb2 omega2";
  Units.Length delta "Approach of the drive flanks (= e; > 0: drive pairs loaded if in their active segment)";
  Units.Length delta_c "Approach of the coast flanks (-e - j)";
  Units.Position s_drive[nC] "Drive candidate pairs: positions along the drive line of action from T1";
  Units.Position s_coast[nC] "Coast candidate pairs: positions along the coast line of action from T1'";
  Units.DimensionlessRatio inDrive[nC] "1 where a drive candidate carries load (in [sA, sE] and delta > 0), else 0";
  Units.DimensionlessRatio inCoast[nC] "1 where a coast candidate carries load (in [sA, sE] and delta_c > 0), else 0";
  Units.Force F_drive[nC] "Normal force of each drive candidate pair (on the wheel along n_d)";
  Units.Force F_coast[nC] "Normal force of each coast candidate pair (on the wheel along n_c)";
  Units.Force Ff_drive[nC] "Friction force of each drive candidate on the wheel along t_d";
  Units.Force Ff_coast[nC] "Friction force of each coast candidate on the wheel along t_c";
  Units.Force F "Total normal mesh force (drive plus coast pairs)";
  Units.DimensionlessRatio nContact "Number of tooth pairs in contact (drive plus coast)";
  Units.Position sContact "Position from T1 of the loaded drive pair nearest to sA (the pair that engaged last); 0 when no drive pair is loaded";
  Units.Power meshPower "Power of the normal forces on the flanks' approach: into the teeth's compliance and its damping";
  Units.Power frictionPower "Power lost in sliding friction (>= 0)";
  Units.Power dissipation "Power lost in the pairs' damping and in friction (>= 0)";
protected
  Units.Angle theta1 "Angle of the pinion about z, in (-pi, pi] (read from its orientation)";
  Units.Angle theta2 "Angle of the wheel about z, in (-pi, pi] (read from its orientation)";
  Units.Velocity dd_c "d(delta_c)/dt";
  Units.Position sd_law[nC] "Drive positions clamped to [sA, sE] for the force law";
  Units.Position sc_law[nC] "Coast positions clamped to [sA, sE] for the force law";
  Units.Force Fel_drive[nC] "Elastic part of F_drive";
  Units.Force Fel_coast[nC] "Elastic part of F_coast";
  Units.Position X_drive[nC, 3] "Drive candidates' contact points, world frame";
  Units.Position X_coast[nC, 3] "Coast candidates' contact points, world frame";
  Units.Velocity vs_drive[nC] "Sliding velocity of the wheel's flank on the pinion's along t_d at each drive candidate";
  Units.Velocity vs_coast[nC] "Sliding velocity of the wheel's flank on the pinion's along t_c at each coast candidate";
  Units.Force f_d[nC, 3] "Force of each drive candidate on the wheel, world frame";
  Units.Force f_c[nC, 3] "Force of each coast candidate on the wheel, world frame";
  Units.Torque M_d[nC, 3] "Moment of each drive candidate's force about p_0, world frame";
  Units.Torque M_c[nC, 3] "Moment of each coast candidate's force about p_0, world frame";

  function lineContactForce "Force of a line contact of two cylinders for a given approach (Johnson 1985): Newton's method in ln F, four unrolled steps from Palmgren's estimate"
    extends Nonholonomic.Icons.Function;
    input Units.Length delta "Approach of distant points (> 0 in contact)";
    input Units.Length rho1 "Radius of curvature of the first cylinder (> 0)";
    input Units.Length rho2 "Radius of curvature of the second cylinder (> 0)";
    input Units.Length b "Length of the contact line (face width)";
    input Real lambda1(unit = "1/Pa") "(1 - nu1^2)/E1";
    input Real lambda2(unit = "1/Pa") "(1 - nu2^2)/E2";
    output Units.Force F "Normal force (0 for delta <= 0)";
  protected
    constant Real pi = 3.14159265358979323846;
    constant Real cP = 1.528731534925429e-10 "Palmgren's delta = 3.84e-5 F^0.9/L^0.8 (mm, N) in SI: delta = cP F^0.9/L^0.8 (m, N)";
    constant Real lambdaSteel(unit = "1/Pa") = 2*(1 - 0.3^2)/2.1e11 "Lambda of a steel pair, for which Palmgren's law holds";
    Units.Length dp "delta, kept positive";
    Real lambda(unit = "1/Pa") "lambda1 + lambda2";
    Units.Length R "Effective radius rho1 rho2/(rho1 + rho2)";
    Real Lbar(unit = "1") "Weighted log term: sum of lambda_i/lambda ln(4 rho_i^2/(R delta))";
    Real x0(unit = "1") "ln(F/Fbar) of Palmgren's estimate, Fbar = pi b delta/lambda";
    Real x1(unit = "1");
    Real x2(unit = "1");
    Real x3(unit = "1");
    Real x4(unit = "1");
  algorithm
    dp := max(delta, 1e-15);
    lambda := lambda1 + lambda2;
    R := rho1*rho2/(rho1 + rho2);
    Lbar := (lambda1*log(4*rho1^2/(R*dp)) + lambda2*log(4*rho2^2/(R*dp)))/lambda;
    // Palmgren's estimate, scaled by the pair's compliance (exact for steel)
    x0 := (log(dp) + 0.8*log(b) + log(lambdaSteel/lambda) - log(cP))/0.9 - log(pi*b*dp/lambda);
    // g(x) = x + ln(Lbar - 1 - x) = 0: concave and increasing, Newton converges monotonically
    x1 := x0 - (x0 + log(max(Lbar - 1 - x0, 1e-6)))/(1 - 1/max(Lbar - 1 - x0, 1e-6));
    x2 := x1 - (x1 + log(max(Lbar - 1 - x1, 1e-6)))/(1 - 1/max(Lbar - 1 - x1, 1e-6));
    x3 := x2 - (x2 + log(max(Lbar - 1 - x2, 1e-6)))/(1 - 1/max(Lbar - 1 - x2, 1e-6));
    x4 := x3 - (x3 + log(max(Lbar - 1 - x3, 1e-6)))/(1 - 1/max(Lbar - 1 - x3, 1e-6));
    F := if delta > 0 then pi*b*dp/lambda*exp(x4) else 0;
    annotation(Documentation(info = "<html>
<p>Johnson (<i>Contact Mechanics</i>, 1985, sec. 5.6) gives the approach of two cylinders pressed along a
line of length <code>b</code> by <code>F = P b</code> as an explicit function of the force:</p>
<pre>  delta = (P/pi) [lambda1 (2 ln(4 rho1/c) - 1) + lambda2 (2 ln(4 rho2/c) - 1)],
  c = sqrt(4 P R lambda/pi),  1/R = 1/rho1 + 1/rho2,  lambda_i = (1 - nu_i^2)/E_i,  lambda = lambda1 + lambda2.</pre>
<p>With <code>x = ln(F/Fbar)</code>, <code>Fbar = pi b delta/lambda</code>, it reads <code>g(x) = x + ln(Lbar - 1 - x) = 0</code>,
<code>Lbar = sum lambda_i/lambda ln(4 rho_i^2/(R delta))</code>: every quantity is dimensionless and
<code>g</code> is concave and increasing while <code>Lbar - 1 - x &gt; 1</code> (the half-width <code>c</code> well
below the radii), so Newton's method converges monotonically from either side after its first step. It
starts from Palmgren's empirical law (Harris and Kotzalas, <i>Rolling Bearing Analysis</i>),
<code>delta = 3.84e-5 F^0.9/b^0.8</code> in mm and N, in SI <code>delta = 1.5287e-10 F^0.9/b^0.8</code>, scaled
by <code>lambda_steel/lambda</code> for other materials. Three steps bring the relative residual of the
approach below 1e-15 over <code>delta</code> from 1e-9 to 1e-4 m and the whole active segment of the
example's gears (and of gears with module 1 to 10 mm, steel, aluminium or plastic); the function takes four.</p>
</html>"));
  end lineContactForce;
equation
  // the asserts are written on settable parameters: rumoca evaluates final parameters at their defaults in them
  assert(m > 0, "InvoluteToothContact: the module m must be positive");
  assert(alpha > 0 and alpha < Constants.pi/4, "InvoluteToothContact: the pressure angle alpha must lie between 0 and 45 deg");
  assert(z1 >= 2/sin(alpha)^2 and z2 >= 2/sin(alpha)^2, "InvoluteToothContact: z1 and z2 must be at least 2/sin(alpha)^2 (17.1 at 20 deg): fewer teeth are undercut by the generating rack");
  assert((sqrt((z2/2 + 1)^2 - (z2*cos(alpha)/2)^2) - z2*sin(alpha)/2)/(Constants.pi*cos(alpha)) + 1 <= nK
    and (sqrt((z1/2 + 1)^2 - (z1*cos(alpha)/2)^2) - z1*sin(alpha)/2)/(Constants.pi*cos(alpha)) + 0.5 <= nK,
    "InvoluteToothContact: nK candidate pairs per side do not cover the active segment: raise nK");
  // angles from the orientations; z*theta is continuous in the orientation modulo 2 pi (z integer)
  theta1 = atan2(kA.T[2, 1], kA.T[1, 1]);
  theta2 = atan2(kB.T[2, 1], kB.T[1, 1]);
  psi1 = atan2(sin(z1*theta1), cos(z1*theta1));
  e = pb/(2*Constants.pi)*atan2(sin(z1*theta1 + z2*theta2), cos(z1*theta1 + z2*theta2));
  de = rb1*kA.w_0[3] + rb2*kB.w_0[3];
  delta = e;
  delta_c = -e - j;
  dd_c = -de;
  p_0 = kA.r_0 + {r1, 0, 0};
  for k in 1:nC loop
    // candidate k - nK - 1: drive flanks at the pinion's flank position, coast flanks half a base pitch on
    s_drive[k] = sP + pb*psi1/(2*Constants.pi) + (k - nK - 1)*pb;
    s_coast[k] = sP - pb*psi1/(2*Constants.pi) + pb/2 + (k - nK - 1)*pb;
    inDrive[k] = if noEvent(s_drive[k] >= sA and s_drive[k] <= sE and delta > 0) then 1.0 else 0.0;
    inCoast[k] = if noEvent(s_coast[k] >= sA and s_coast[k] <= sE and delta_c > 0) then 1.0 else 0.0;
    sd_law[k] = noEvent(min(max(s_drive[k], sA), sE));
    sc_law[k] = noEvent(min(max(s_coast[k], sA), sE));
    Fel_drive[k] = inDrive[k]*lineContactForce(delta, sd_law[k], L - sd_law[k], b, lambda_A, lambda_B);
    Fel_coast[k] = inCoast[k]*lineContactForce(delta_c, sc_law[k], L - sc_law[k], b, lambda_A, lambda_B);
    F_drive[k] = inDrive[k]*noEvent(max(Fel_drive[k] + d*de, 0));
    F_coast[k] = inCoast[k]*noEvent(max(Fel_coast[k] + d*dd_c, 0));
    X_drive[k, :] = kA.r_0 + T1_d + s_drive[k]*n_d;
    X_coast[k, :] = kA.r_0 + T1_c + s_coast[k]*n_c;
    vs_drive[k] = (kB.v_0 + cross(kB.w_0, X_drive[k, :] - kB.r_0) - kA.v_0 - cross(kA.w_0, X_drive[k, :] - kA.r_0))*t_d;
    vs_coast[k] = (kB.v_0 + cross(kB.w_0, X_coast[k, :] - kB.r_0) - kA.v_0 - cross(kA.w_0, X_coast[k, :] - kA.r_0))*t_c;
    Ff_drive[k] = -mu*F_drive[k]*vs_drive[k]/sqrt(vs_drive[k]^2 + eps^2);
    Ff_coast[k] = -mu*F_coast[k]*vs_coast[k]/sqrt(vs_coast[k]^2 + eps^2);
    f_d[k, :] = F_drive[k]*n_d + Ff_drive[k]*t_d;
    f_c[k, :] = F_coast[k]*n_c + Ff_coast[k]*t_c;
    M_d[k, :] = cross(X_drive[k, :] - p_0, f_d[k, :]);
    M_c[k, :] = cross(X_coast[k, :] - p_0, f_c[k, :]);
  end for;
  // the wrench on the wheel about the pitch point; the pinion gets the opposite (PartialInteraction)
  f_0 = {sum(f_d[k, i] + f_c[k, i] for k in 1:nC) for i in 1:3};
  t_0 = {sum(M_d[k, i] + M_c[k, i] for k in 1:nC) for i in 1:3};
  F = sum(F_drive) + sum(F_coast);
  nContact = sum(inDrive) + sum(inCoast);
  sContact = noEvent(if sum(inDrive) > 0.5 then min({if inDrive[k] > 0.5 then s_drive[k] else sE for k in 1:nC}) else 0);
  meshPower = sum(F_drive)*de + sum(F_coast)*dd_c;
  frictionPower = -(Ff_drive*vs_drive + Ff_coast*vs_coast);
  dissipation = (sum(F_drive) - sum(Fel_drive))*de + (sum(F_coast) - sum(Fel_coast))*dd_c + frictionPower;
  annotation(Documentation(info = "<html>
<p>The mesh of two standard involute spur gears (no profile shift, addendum <code>m</code>) as a compliant
contact: a force law of the bodies' states, no constraint. Body A is the pinion (<code>z1</code> teeth), body B
the wheel (<code>z2</code>), both turning about axes parallel to the world z axis, the wheel's centre at
<code>a = r1 + r2</code> along world x from the pinion's (the centres are the bodies' centres of mass, held
there by their joints; the mesh takes them at the nominal centre distance).</p>
<p><b>Geometry.</b> Pitch radii <code>r_i = m z_i/2</code>, base radii <code>r_bi = r_i cos(alpha)</code>, tip
radii <code>r_ai = r_i + m</code>, base pitch <code>pb = pi m cos(alpha)</code>. The pinion drives turning
about +z (angle <code>phi1</code>), the wheel turns the other way (<code>phi2 &lt; 0</code>). The drive line of
action is the common tangent of the base circles through the pitch point <code>P = (r1, 0)</code> with unit
vector <code>n_d = (sin alpha, cos alpha)</code>: it touches the pinion's base circle at
<code>T1 = r_b1 (cos alpha, -sin alpha)</code> and the wheel's at <code>T2 = T1 + a sin(alpha) n_d</code>. A point
of it is <code>X = T1 + s n_d</code>; the pitch point is <code>sP = r1 sin(alpha)</code>, the flank radii of
curvature are <code>rho1 = s</code>, <code>rho2 = a sin(alpha) - s</code>. The pinion's base circle moves along
the line like a belt, <code>ds/dt = r_b1 omega1</code>: a drive pair enters where the wheel's tip circle cuts the
line, <code>sA = a sin(alpha) - sqrt(r_a2^2 - r_b2^2)</code>, and leaves at the pinion's tip circle,
<code>sE = sqrt(r_a1^2 - r_b1^2)</code>; the contact ratio is <code>(sE - sA)/pb</code> (1.62 for 20/35 teeth at
20 deg). A drive pair pushes the wheel along <code>n_d</code> with the lever arm <code>r_b2</code> about its
centre, wherever it lies on the line, and the pinion back with the arm <code>r_b1</code>.</p>
<p><b>Angles.</b> <code>theta_i = atan2(T[2,1], T[1,1])</code> of each body's orientation; since <code>z_i</code>
is an integer, <code>sin(z_i theta_i)</code> and <code>cos(z_i theta_i)</code> are continuous in the orientation
and no unwrapped angle is needed. At <code>phi1 = phi2 = 0</code> a drive pair touches at the pitch point, unloaded.
The transmission error along the line of action is <code>e = r_b1 phi1 + r_b2 phi2 = pb (z1 phi1 + z2 phi2)/(2 pi)</code>,
computed as <code>pb/(2 pi) atan2(sin(z1 theta1 + z2 theta2), cos(...))</code>: reduced to <code>(-pb/2, pb/2]</code>,
continuous while the gears stay in mesh. The drive flanks approach by <code>delta = e</code> (the pinion ahead),
the coast flanks by <code>delta_c = -e - j</code> (the pinion behind by more than the backlash). Every pair on
one side has the same approach: the teeth are rigid involutes of equal base pitch; only the local Hertz
compliance differs with <code>s</code>.</p>
<p><b>Drive candidates.</b> The pinion's drive flanks cut the line at <code>s_k = sP + pb psi1/(2 pi) + k pb</code>,
<code>psi1 = atan2(sin(z1 theta1), cos(z1 theta1))</code> (the phase <code>r_b1 phi1</code> modulo <code>pb</code>),
<code>k = -nK..nK</code>. When <code>psi1</code> jumps from <code>pi</code> to <code>-pi</code> every candidate takes
its neighbour's place: the set of positions is unchanged as long as the outermost candidates lie outside
<code>[sA, sE]</code> for every phase, i.e. <code>nK &gt;= (sP - sA)/pb + 1</code> and
<code>nK &gt;= (sE - sP)/pb + 1/2</code> (asserted; <code>nK = 2</code> suffices down to 20 deg, since
<code>(sP - sA)/pb &lt; 1/(pi sin(alpha) cos(alpha))</code>). A drive pair is loaded iff <code>sA &lt;= s_k &lt;= sE</code>
and <code>delta &gt; 0</code>.</p>
<p><b>Coast side.</b> The coast flanks mesh along the mirror image of the drive line in the line of centres:
<code>T1' = r_b1 (cos alpha, sin alpha)</code>, direction <code>n_c = (sin alpha, -cos alpha)</code> (a coast pair
pushes the wheel forward with the arm <code>r_b2</code> and the pinion backward), points
<code>X' = T1' + s' n_c</code>. The pinion's coast involutes run opposite to its drive ones: they cut this line
at <code>s' = sP + t1 cos(alpha) - r_b1 phi1 + k pb</code>, <code>t1</code> the pinion's tooth thickness on the
pitch circle. The teeth here are symmetric, the pinion's <code>p/2</code> thick (<code>p = pi m</code>), the wheel's
<code>p/2 - j/cos(alpha)</code> (the whole backlash on the wheel), so <code>t1 cos(alpha) = pb/2</code> and
<code>s'_k = sP - pb psi1/(2 pi) + pb/2 + k pb</code>; the wheel's coast flank of the same pair lies
<code>j + e</code> further from the pinion's tooth, whence <code>delta_c = -e - j</code>. Both tip circles
are symmetric about the line of centres, so the coast line cuts them at the same distances from
<code>T1'</code> as the drive line from <code>T1</code>: the active segment is again <code>sA &lt;= s' &lt;= sE</code>,
but the roles of the tips swap: with the pinion turning forward <code>s'</code> decreases, a coast pair enters
at the pinion's tip (<code>sE</code>) and leaves at the wheel's (<code>sA</code>). A coast pair is loaded iff it
lies in <code>[sA, sE]</code> and <code>delta_c &gt; 0</code>. Its radii of curvature are <code>s'</code> and
<code>a sin(alpha) - s'</code>.</p>
<p><b>Force law.</b> Each loaded pair is a Hertz line contact of two cylinders of radii <code>rho1</code>,
<code>rho2</code> and length <code>b</code> (Johnson 1985), its force <code>F(delta, s)</code> the inverse of
Johnson's approach, <a href=\"modelica://Nonholonomic.Contacts.InvoluteToothContact.lineContactForce\">lineContactForce</a>
(Newton's method, unrolled). A damping <code>d d(delta)/dt</code> is added to each loaded pair, which never pulls:
<code>F = max(F_el + d d(delta)/dt, 0)</code>. The friction of the pair acts along the flanks against the sliding
velocity <code>v_s</code> of the wheel's flank on the pinion's at the contact point (the relative velocity of the
material points there, along the flank), <code>-mu F v_s/sqrt(v_s^2 + eps^2)</code>. The bending and shear
compliance of the teeth, tip relief and corner contact are not modelled: the mesh stiffness jumps where a pair
enters or leaves. For two gears of one material Johnson's approach depends on the load alone
(<code>rho1 rho2/R = rho1 + rho2 = a sin(alpha)</code> along the whole line of action), for different
materials also on <code>s</code>; either way the number of loaded pairs changes with the mesh's position, so
the mesh force is not the gradient of an energy of <code>e</code>: a time-varying stiffness, whose work over a
mesh period need not vanish.</p>
<p><b>Wrench.</b> The forces act on the wheel at their contact points (the pinion's flank positions
<code>X</code>, <code>X'</code>, in the plane of A's centre of mass) and are summed about the pitch point
<code>p_0 = r_A + (r1, 0, 0)</code>: <code>f_0</code> their sum, <code>t_0</code> the sum of their moments about
<code>p_0</code>; the pinion gets the opposite wrench (third law, <a href=\"modelica://Nonholonomic.Interfaces.PartialInteraction\">PartialInteraction</a>).</p>
<p><b>Outputs.</b> <code>e</code>, the total normal force <code>F</code>, each candidate's <code>F_drive</code>,
<code>F_coast</code> and position <code>s_drive</code>, <code>s_coast</code> (they relabel when <code>psi1</code>
wraps), the number of loaded pairs <code>nContact</code>, the position <code>sContact</code> of the loaded drive
pair nearest to <code>sA</code>, <code>meshPower = sum F_drive d(delta)/dt + sum F_coast d(delta_c)/dt</code> (the
power going into the teeth's compliance and its damping), <code>frictionPower</code> and
<code>dissipation</code> (damping plus friction).</p>
</html>"), Icon(graphics = {Text(textColor = {0, 0, 0}, extent = {{-150, -68}, {150, -98}}, textString = "z=%z1:%z2"), Ellipse(lineColor = {0, 0, 0}, fillColor = {200, 200, 200}, fillPattern = FillPattern.Solid,
    extent = {{-80, -40}, {0, 40}}), Ellipse(lineColor = {0, 0, 0}, fillColor = {160, 160, 164}, fillPattern = FillPattern.Solid,
    extent = {{-4, -56}, {108, 56}}), Line(points = {{-30, -40}, {50, 40}}, color = {255, 0, 0}, thickness = 0.5),
    Text(textColor = {0, 0, 255}, extent = {{-150, 70}, {150, 100}}, textString = "%name")}));
end InvoluteToothContact;
