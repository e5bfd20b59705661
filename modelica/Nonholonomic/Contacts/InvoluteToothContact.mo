within Nonholonomic.Contacts;
model InvoluteToothContact "Compliant mesh of a pair of standard involute spur gears: pinion on body A, wheel on body B (every tooth pair: Hertz line contact in series with both teeth's bending, shear, compression and foundation; linear tip relief, backlash, damping, Coulomb friction)"
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
  parameter Units.Length r_int1(min = 1e-9) = (m*z1/2 - 1.25*m)/2 "Bore radius of the pinion (foundation compliance; default half the root radius)";
  parameter Units.Length r_int2(min = 1e-9) = (m*z2/2 - 1.25*m)/2 "Bore radius of the wheel (foundation compliance; default half the root radius)";
  parameter Units.Length C_a(min = 0) = 0 "Linear tip relief of both gears: the amount at the tip, along the line of action (0: none)";
  parameter Units.Length L_a(min = 1e-9) = (contactRatio - 1)*pb "Length of the tip relief along the line of action from each tip (default: long relief, (epsilon_alpha - 1) p_b)";
  parameter Integer nK(min = 1) = 2 "Candidate pairs on each side of the pitch point: k = -nK..nK (2 covers every pressure angle from 20 deg up)";
  final parameter Integer nC = 2*nK + 1 "Number of candidate pairs on each side of the teeth (drive, coast)";
  final parameter Integer nCheb = 10 "Terms of the Chebyshev series of the teeth's compliance along the line of action";
  final parameter Real chebD[nCheb, nCheb](each unit = "1") = {{0.10000000000000001, 0.10000000000000001, 0.10000000000000001, 0.10000000000000001, 0.10000000000000001, 0.10000000000000001, 0.10000000000000001, 0.10000000000000001, 0.10000000000000001, 0.10000000000000001},
    {0.19753766811902757, 0.1782013048376736, 0.14142135623730953, 0.090798099947909369, 0.031286893008046185, -0.031286893008046122, -0.090798099947909341, -0.1414213562373095, -0.17820130483767357, -0.19753766811902754},
    {0.19021130325903071, 0.11755705045849463, 1.2246467991473533e-17, -0.11755705045849461, -0.19021130325903071, -0.19021130325903077, -0.11755705045849466, -3.6739403974420595e-17, 0.11755705045849459, 0.19021130325903071},
    {0.1782013048376736, 0.031286893008046185, -0.1414213562373095, -0.19753766811902757, -0.090798099947909383, 0.090798099947909328, 0.19753766811902754, 0.14142135623730953, -0.031286893008045935, -0.17820130483767349},
    {0.16180339887498951, -0.061803398874989472, -0.20000000000000001, -0.061803398874989514, 0.16180339887498948, 0.16180339887498962, -0.061803398874989424, -0.20000000000000001, -0.061803398874989569, 0.16180339887498943},
    {0.14142135623730953, -0.1414213562373095, -0.14142135623730953, 0.14142135623730948, 0.14142135623730953, -0.14142135623730959, -0.1414213562373097, 0.14142135623730931, 0.14142135623730945, -0.14142135623730956},
    {0.11755705045849463, -0.19021130325903071, -3.6739403974420595e-17, 0.19021130325903074, -0.11755705045849459, -0.1175570504584947, 0.19021130325903068, 1.1021821192326179e-16, -0.19021130325903088, 0.11755705045849424},
    {0.090798099947909369, -0.19753766811902757, 0.14142135623730948, 0.031286893008046407, -0.17820130483767355, 0.1782013048376736, -0.031286893008045893, -0.14142135623730948, 0.19753766811902751, -0.090798099947909383},
    {0.061803398874989493, -0.16180339887498951, 0.20000000000000001, -0.16180339887498946, 0.061803398874989403, 0.061803398874989923, -0.16180339887498957, 0.20000000000000001, -0.1618033988749894, 0.061803398874989313},
    {0.031286893008046185, -0.090798099947909383, 0.14142135623730953, -0.17820130483767355, 0.19753766811902762, -0.19753766811902757, 0.1782013048376736, -0.14142135623730928, 0.090798099947909355, -0.031286893008045789}} "Discrete cosine transform: Chebyshev coefficients from the values at the nodes xCheb, (2 - [k = 1])/nCheb cos((k - 1) pi (i - 1/2)/nCheb)";
  final parameter Real xCheb[nCheb](each unit = "1") = {0.98768834059513777, 0.8910065241883679, 0.70710678118654757, 0.4539904997395468, 0.15643446504023092, -0.15643446504023059, -0.45399049973954669, -0.70710678118654746, -0.89100652418836779, -0.98768834059513766} "Chebyshev nodes cos(pi (i - 1/2)/nCheb) on [-1, 1]";
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
  final parameter Units.Length sLo = sA - 0.05*(sE - sA) "Lower end of the interval of the teeth's compliance's Chebyshev series";
  final parameter Units.Length sHi = sE + 0.05*(sE - sA) "Upper end of the interval of the teeth's compliance's Chebyshev series";
  final parameter Units.Position sNode[nCheb] = (sLo + sHi)/2*ones(nCheb) + (sHi - sLo)/2*xCheb "Chebyshev nodes of [sLo, sHi]";
  final parameter Real qNode[nCheb](each unit = "m/N") = {toothCompliance(sNode[1], z1, m, alpha, b, E_A, nu_A, r_int1) + toothCompliance(L - sNode[1], z2, m, alpha, b, E_B, nu_B, r_int2),
    toothCompliance(sNode[2], z1, m, alpha, b, E_A, nu_A, r_int1) + toothCompliance(L - sNode[2], z2, m, alpha, b, E_B, nu_B, r_int2),
    toothCompliance(sNode[3], z1, m, alpha, b, E_A, nu_A, r_int1) + toothCompliance(L - sNode[3], z2, m, alpha, b, E_B, nu_B, r_int2),
    toothCompliance(sNode[4], z1, m, alpha, b, E_A, nu_A, r_int1) + toothCompliance(L - sNode[4], z2, m, alpha, b, E_B, nu_B, r_int2),
    toothCompliance(sNode[5], z1, m, alpha, b, E_A, nu_A, r_int1) + toothCompliance(L - sNode[5], z2, m, alpha, b, E_B, nu_B, r_int2),
    toothCompliance(sNode[6], z1, m, alpha, b, E_A, nu_A, r_int1) + toothCompliance(L - sNode[6], z2, m, alpha, b, E_B, nu_B, r_int2),
    toothCompliance(sNode[7], z1, m, alpha, b, E_A, nu_A, r_int1) + toothCompliance(L - sNode[7], z2, m, alpha, b, E_B, nu_B, r_int2),
    toothCompliance(sNode[8], z1, m, alpha, b, E_A, nu_A, r_int1) + toothCompliance(L - sNode[8], z2, m, alpha, b, E_B, nu_B, r_int2),
    toothCompliance(sNode[9], z1, m, alpha, b, E_A, nu_A, r_int1) + toothCompliance(L - sNode[9], z2, m, alpha, b, E_B, nu_B, r_int2),
    toothCompliance(sNode[10], z1, m, alpha, b, E_A, nu_A, r_int1) + toothCompliance(L - sNode[10], z2, m, alpha, b, E_B, nu_B, r_int2)} "Compliance of both teeth of a pair at the nodes";
  final parameter Real qChebP[nCheb](each unit = "m/N") = chebD*qNode "Chebyshev coefficients of the teeth's compliance q(s) (as parameters; the run reads their copies qCheb1..qCheb10)";
  final parameter Real qP(unit = "m/N") = chebSeries(qChebP, (2*sP - sLo - sHi)/(sHi - sLo)) "Compliance of both teeth of the pair at the pitch point";
  final parameter Units.Length reliefP = C_a*(max(0, sP - (sE - L_a)) + max(0, sA + L_a - sP))/L_a "Tip relief at the pitch point";
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
  Real q_drive[nC](each unit = "m/N") "Compliance of both teeth of each drive candidate (at its clamped position)";
  Real q_coast[nC](each unit = "m/N") "Compliance of both teeth of each coast candidate (at its clamped position)";
  Units.Length relief_drive[nC] "Tip relief at each drive candidate (reduces its approach)";
  Units.Length relief_coast[nC] "Tip relief at each coast candidate (reduces its approach)";
  // the coefficients as discrete variables, set when the run starts: a parameter expression would be evaluated
  // anew by every evaluation of the right-hand side (the backend substitutes parameters symbolically)
  discrete Real qCheb1(unit = "m/N", start = 0, fixed = true) "Chebyshev coefficient 1 of the teeth's compliance, set once at the start";
  discrete Real qCheb2(unit = "m/N", start = 0, fixed = true) "Chebyshev coefficient 2 of the teeth's compliance, set once at the start";
  discrete Real qCheb3(unit = "m/N", start = 0, fixed = true) "Chebyshev coefficient 3 of the teeth's compliance, set once at the start";
  discrete Real qCheb4(unit = "m/N", start = 0, fixed = true) "Chebyshev coefficient 4 of the teeth's compliance, set once at the start";
  discrete Real qCheb5(unit = "m/N", start = 0, fixed = true) "Chebyshev coefficient 5 of the teeth's compliance, set once at the start";
  discrete Real qCheb6(unit = "m/N", start = 0, fixed = true) "Chebyshev coefficient 6 of the teeth's compliance, set once at the start";
  discrete Real qCheb7(unit = "m/N", start = 0, fixed = true) "Chebyshev coefficient 7 of the teeth's compliance, set once at the start";
  discrete Real qCheb8(unit = "m/N", start = 0, fixed = true) "Chebyshev coefficient 8 of the teeth's compliance, set once at the start";
  discrete Real qCheb9(unit = "m/N", start = 0, fixed = true) "Chebyshev coefficient 9 of the teeth's compliance, set once at the start";
  discrete Real qCheb10(unit = "m/N", start = 0, fixed = true) "Chebyshev coefficient 10 of the teeth's compliance, set once at the start";
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

  function pairForce "Force of a tooth pair for a given approach: Johnson's line contact of two cylinders (1985) in series with the teeth's compliance q; Newton's method in ln F, five unrolled steps from a series estimate"
    extends Nonholonomic.Icons.Function;
    input Units.Length delta "Approach of the pair (after the tip relief; > 0 in contact)";
    input Units.Length rho1 "Radius of curvature of the first cylinder (> 0)";
    input Units.Length rho2 "Radius of curvature of the second cylinder (> 0)";
    input Units.Length b "Length of the contact line (face width)";
    input Real lambda1(unit = "1/Pa") "(1 - nu1^2)/E1";
    input Real lambda2(unit = "1/Pa") "(1 - nu2^2)/E2";
    input Real q(unit = "m/N") "Compliance of both teeth in series with the contact (>= 0)";
    output Units.Force F "Normal force (0 for delta <= 0)";
  protected
    constant Real pi = 3.14159265358979323846;
    constant Real cP = 1.528731534925429e-10 "Palmgren's delta = 3.84e-5 F^0.9/L^0.8 (mm, N) in SI: delta = cP F^0.9/L^0.8 (m, N)";
    constant Real lambdaSteel(unit = "1/Pa") = 2*(1 - 0.3^2)/2.1e11 "Lambda of a steel pair, for which Palmgren's law holds";
    Units.Length dp "delta, kept positive";
    Real lambda(unit = "1/Pa") "lambda1 + lambda2";
    Units.Length R "Effective radius rho1 rho2/(rho1 + rho2)";
    Real Lbar(unit = "1") "Weighted log term: sum of lambda_i/lambda ln(4 rho_i^2/(R delta)), plus pi b q/lambda";
    Units.Force FH "Palmgren's estimate of the contact's force alone";
    Real x0(unit = "1") "ln(F/Fbar) of the series estimate, Fbar = pi b delta/lambda";
    Real x1(unit = "1");
    Real x2(unit = "1");
    Real x3(unit = "1");
    Real x4(unit = "1");
    Real x5(unit = "1");
  algorithm
    dp := max(delta, 1e-15);
    lambda := lambda1 + lambda2;
    R := rho1*rho2/(rho1 + rho2);
    Lbar := (lambda1*log(4*rho1^2/(R*dp)) + lambda2*log(4*rho2^2/(R*dp)))/lambda + pi*b*q/lambda;
    // Palmgren's estimate of the contact, scaled by the pair's compliance (exact for steel), in series with q
    FH := exp((log(dp) + 0.8*log(b) - log(cP))/0.9)*lambdaSteel/lambda;
    x0 := log(dp/(dp/FH + q)) - log(pi*b*dp/lambda);
    // g(x) = x + ln(Lbar - 1 - x) = 0: concave and increasing, Newton converges monotonically
    x1 := x0 - (x0 + log(max(Lbar - 1 - x0, 1e-6)))/(1 - 1/max(Lbar - 1 - x0, 1e-6));
    x2 := x1 - (x1 + log(max(Lbar - 1 - x1, 1e-6)))/(1 - 1/max(Lbar - 1 - x1, 1e-6));
    x3 := x2 - (x2 + log(max(Lbar - 1 - x2, 1e-6)))/(1 - 1/max(Lbar - 1 - x2, 1e-6));
    x4 := x3 - (x3 + log(max(Lbar - 1 - x3, 1e-6)))/(1 - 1/max(Lbar - 1 - x3, 1e-6));
    x5 := x4 - (x4 + log(max(Lbar - 1 - x4, 1e-6)))/(1 - 1/max(Lbar - 1 - x4, 1e-6));
    F := if delta > 0 then pi*b*dp/lambda*exp(x5) else 0;
    annotation(Documentation(info = "<html>
<p>Johnson (<i>Contact Mechanics</i>, 1985, sec. 5.6) gives the approach of two cylinders pressed along a
line of length <code>b</code> by <code>F = P b</code> as an explicit function of the force:</p>
<pre>  delta_H = (P/pi) [lambda1 (2 ln(4 rho1/c) - 1) + lambda2 (2 ln(4 rho2/c) - 1)],
  c = sqrt(4 P R lambda/pi),  1/R = 1/rho1 + 1/rho2,  lambda_i = (1 - nu_i^2)/E_i,  lambda = lambda1 + lambda2.</pre>
<p>The teeth's compliance <code>q</code> (bending, shear, compression, foundation of both teeth) is in series:
<code>delta = delta_H + q F</code>. With <code>x = ln(F/Fbar)</code>, <code>Fbar = pi b delta/lambda</code>, both
read <code>g(x) = x + ln(Lbar - 1 - x) = 0</code>, <code>Lbar = sum lambda_i/lambda ln(4 rho_i^2/(R delta)) + pi b q/lambda</code>
(the series term only adds a constant to <code>Lbar</code>): the relation is solved exactly, not linearised.
<code>g</code> is concave and increasing while <code>Lbar - 1 - x &gt; 1</code> (the half-width <code>c</code> well
below the radii), so Newton's method converges monotonically from either side after its first step. It
starts from Palmgren's empirical law (Harris and Kotzalas, <i>Rolling Bearing Analysis</i>),
<code>delta = 3.84e-5 F^0.9/b^0.8</code> in mm and N, in SI <code>delta = 1.5287e-10 F^0.9/b^0.8</code>, scaled
by <code>lambda_steel/lambda</code> for other materials, combined in series with <code>q</code>:
<code>F0 = delta/(delta/F_H + q)</code>. Five steps bring the force within 6e-15 (relative) of the root over
<code>delta</code> from 1e-9 to 1e-4 m along the whole active segment of the example's gears, with and
without <code>q</code> (checked against the reference's bracketed root).</p>
</html>"));
  end pairForce;

  function chebSeries "Sum of a Chebyshev series of 10 terms, sum c[k] T_(k-1)(x), by Clenshaw's recurrence"
    extends Nonholonomic.Icons.Function;
    input Real c[10](each unit = "m/N") "Coefficients";
    input Real x(unit = "1") "Argument (in [-1, 1])";
    output Real y(unit = "m/N") "Sum of the series";
  protected
    Real b2(unit = "m/N");
    Real b3(unit = "m/N");
    Real b4(unit = "m/N");
    Real b5(unit = "m/N");
    Real b6(unit = "m/N");
    Real b7(unit = "m/N");
    Real b8(unit = "m/N");
    Real b9(unit = "m/N");
    Real b10(unit = "m/N");
  algorithm
    // b_k = c_k + 2 x b_(k+1) - b_(k+2), y = c_1 + x b_2 - b_3 (no trigonometric function per evaluation)
    b10 := c[10];
    b9 := c[9] + 2*x*b10;
    b8 := c[8] + 2*x*b9 - b10;
    b7 := c[7] + 2*x*b8 - b9;
    b6 := c[6] + 2*x*b7 - b8;
    b5 := c[5] + 2*x*b6 - b7;
    b4 := c[4] + 2*x*b5 - b6;
    b3 := c[3] + 2*x*b4 - b5;
    b2 := c[2] + 2*x*b3 - b4;
    y := c[1] + x*b2 - b3;
  end chebSeries;

  function toothIntegrand "Integrand of the tooth's bending, shear and axial compliance at the profile angle a (times E b): Chaari et al. 2009, eqs. 4-6"
    extends Nonholonomic.Icons.Function;
    input Units.Angle a "Profile angle of the section";
    input Units.Angle a1 "Angle of the load to the normal of the tooth's centre line";
    input Units.Angle a2 "Half tooth angle on the base circle";
    input Units.DimensionlessRatio nu "Poisson's ratio";
    output Real f(unit = "1") "Integrand times E b";
  protected
    Real den(unit = "1") "Half thickness of the section over rb: sin(a) + (a2 - a) cos(a)";
  algorithm
    den := sin(a) + (a2 - a)*cos(a);
    // bending 3 {1 + cos a1 [(a2 - a) sin a - cos a]}^2 (a2 - a) cos a/(2 den^3), shear 1.2 (1 + nu) (a2 - a) cos a
    // cos^2 a1/den (G = E/(2 (1 + nu)), shear factor 1.2), axial (a2 - a) cos a sin^2 a1/(2 den)
    f := (a2 - a)*cos(a)/den*(1.5*(1 + cos(a1)*((a2 - a)*sin(a) - cos(a)))^2/den^2 + 1.2*(1 + nu)*cos(a1)^2 + sin(a1)^2/2);
  end toothIntegrand;

  function toothCompliance "Compliance of one involute tooth loaded at a roll length: bending, shear and axial compression by the potential-energy method (Yang and Lin 1987; Tian 2004; Chaari et al. 2009) and the foundation (Sainsot et al. 2004); 12-point Gauss-Legendre quadrature"
    extends Nonholonomic.Icons.Function;
    input Units.Length s_r "Roll length of the contact from the gear's base-circle tangent point (rho of its flank there)";
    input Integer z "Number of teeth";
    input Units.Length m "Module";
    input Units.Angle alpha "Pressure angle";
    input Units.Length b "Face width";
    input Units.Pressure E "Young's modulus";
    input Units.DimensionlessRatio nu "Poisson's ratio";
    input Units.Length r_int "Bore radius";
    output Real q(unit = "m/N") "Compliance of the tooth along the line of action";
  protected
    constant Real pi = 3.14159265358979323846;
    constant Real xg[12](each unit = "1") = {-0.98156063424671924, -0.9041172563704748, -0.76990267419430469, -0.58731795428661748,
      -0.36783149899818018, -0.12523340851146891, 0.12523340851146891, 0.36783149899818018, 0.58731795428661748,
      0.76990267419430469, 0.9041172563704748, 0.98156063424671924} "Gauss-Legendre nodes on [-1, 1]";
    constant Real wg[12](each unit = "1") = {0.047175336386511411, 0.10693932599531907, 0.16007832854334642, 0.20316742672306573,
      0.23349253653835461, 0.24914704581340269, 0.24914704581340269, 0.23349253653835461, 0.20316742672306573,
      0.16007832854334642, 0.10693932599531907, 0.047175336386511411} "Gauss-Legendre weights";
    Units.Length rb "Base radius";
    Units.Angle a2 "Half tooth angle on the base circle, pi/(2 z) + inv(alpha)";
    Units.Angle a1 "Angle of the load to the normal of the tooth's centre line";
    Units.Length h "Distance of the contact point from the centre line";
    Units.Length u_f "Height above the base circle where the load line crosses the centre line";
    Units.Length S_f "Tooth's arc on the base circle, 2 rb a2";
    Real h_f(unit = "1") "rb/r_int";
    Real Ls(unit = "1") "Sainsot's L*";
    Real Ms(unit = "1") "Sainsot's M*";
    Real Ps(unit = "1") "Sainsot's P*";
    Real Qs(unit = "1") "Sainsot's Q*";
  algorithm
    rb := m*z/2*cos(alpha);
    a2 := pi/(2*z) + tan(alpha) - alpha;
    a1 := s_r/rb - a2;
    // bending, shear and axial energy of the profile from -a1 to a2 (Chaari et al. 2009, eqs. 4-6), 12 Gauss points
    q := (a2 + a1)/(2*E*b)*(wg[1]*toothIntegrand((a2 + a1)/2*xg[1] + (a2 - a1)/2, a1, a2, nu) +
      wg[2]*toothIntegrand((a2 + a1)/2*xg[2] + (a2 - a1)/2, a1, a2, nu) +
      wg[3]*toothIntegrand((a2 + a1)/2*xg[3] + (a2 - a1)/2, a1, a2, nu) +
      wg[4]*toothIntegrand((a2 + a1)/2*xg[4] + (a2 - a1)/2, a1, a2, nu) +
      wg[5]*toothIntegrand((a2 + a1)/2*xg[5] + (a2 - a1)/2, a1, a2, nu) +
      wg[6]*toothIntegrand((a2 + a1)/2*xg[6] + (a2 - a1)/2, a1, a2, nu) +
      wg[7]*toothIntegrand((a2 + a1)/2*xg[7] + (a2 - a1)/2, a1, a2, nu) +
      wg[8]*toothIntegrand((a2 + a1)/2*xg[8] + (a2 - a1)/2, a1, a2, nu) +
      wg[9]*toothIntegrand((a2 + a1)/2*xg[9] + (a2 - a1)/2, a1, a2, nu) +
      wg[10]*toothIntegrand((a2 + a1)/2*xg[10] + (a2 - a1)/2, a1, a2, nu) +
      wg[11]*toothIntegrand((a2 + a1)/2*xg[11] + (a2 - a1)/2, a1, a2, nu) +
      wg[12]*toothIntegrand((a2 + a1)/2*xg[12] + (a2 - a1)/2, a1, a2, nu));
    // foundation (Sainsot, Velex and Duverger 2004, eq. 8 and table 1), root taken at the base circle
    h := rb*((a1 + a2)*cos(a1) - sin(a1));
    u_f := rb*((a1 + a2)*sin(a1) + cos(a1)) - h*tan(a1) - rb*cos(a2);
    S_f := 2*rb*a2;
    h_f := rb/r_int;
    Ls := -5.574e-5/a2^2 - 1.9986e-3*h_f^2 - 2.3015e-4*h_f/a2 + 4.7702e-3/a2 + 0.0271*h_f + 6.8045;
    Ms := 60.111e-5/a2^2 + 28.100e-3*h_f^2 - 83.431e-4*h_f/a2 - 9.9256e-3/a2 + 0.1624*h_f + 0.9086;
    Ps := -50.952e-5/a2^2 + 185.50e-3*h_f^2 + 0.0538e-4*h_f/a2 + 53.300e-3/a2 + 0.2895*h_f + 0.9236;
    Qs := -6.2042e-5/a2^2 + 9.0889e-3*h_f^2 - 4.0964e-4*h_f/a2 + 7.8297e-3/a2 - 0.1472*h_f + 0.6904;
    q := q + cos(a1)^2/(E*b)*(Ls*(u_f/S_f)^2 + Ms*u_f/S_f + Ps*(1 + Qs*tan(a1)^2));
    annotation(Documentation(info = "<html>
<p>The tooth is a cantilever of varying section from its base circle (Tian 2004; Chaari, Fakhfakh and Haddar,
<i>Eur. J. Mech. A/Solids</i> 28, 2009, eqs. 4-6, after Yang and Lin 1987); its profile is parametrised by the angle
<code>a</code> in <code>[-a1, a2]</code>, half thickness <code>rb (sin a + (a2 - a) cos a)</code>; the load acts at
<code>a1 = s_r/rb - a2</code> to the normal of the centre line. The potential energies of bending, shear
(factor 1.2, <code>G = E/(2 (1 + nu))</code>) and axial compression give the three integrals, evaluated by a
12-point Gauss-Legendre rule (relative error below 1e-6 against adaptive quadrature for these gears). The
foundation's compliance is Sainsot, Velex and Duverger's (<i>J. Mech. Des.</i> 126, 2004, eq. 8, coefficients of
table 1), with the root circle taken at the base circle as Tian and Chaari et al. do.</p>
</html>"));
  end toothCompliance;
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
  when initial() then
    qCheb1 = qChebP[1];
    qCheb2 = qChebP[2];
    qCheb3 = qChebP[3];
    qCheb4 = qChebP[4];
    qCheb5 = qChebP[5];
    qCheb6 = qChebP[6];
    qCheb7 = qChebP[7];
    qCheb8 = qChebP[8];
    qCheb9 = qChebP[9];
    qCheb10 = qChebP[10];
  end when;
  for k in 1:nC loop
    // candidate k - nK - 1: drive flanks at the pinion's flank position, coast flanks half a base pitch on
    s_drive[k] = sP + pb*psi1/(2*Constants.pi) + (k - nK - 1)*pb;
    s_coast[k] = sP - pb*psi1/(2*Constants.pi) + pb/2 + (k - nK - 1)*pb;
    sd_law[k] = noEvent(min(max(s_drive[k], sA), sE));
    sc_law[k] = noEvent(min(max(s_coast[k], sA), sE));
    relief_drive[k] = C_a*(noEvent(max(0, sd_law[k] - (sE - L_a))) + noEvent(max(0, sA + L_a - sd_law[k])))/L_a;
    relief_coast[k] = C_a*(noEvent(max(0, sc_law[k] - (sE - L_a))) + noEvent(max(0, sA + L_a - sc_law[k])))/L_a;
    inDrive[k] = if noEvent(s_drive[k] >= sA and s_drive[k] <= sE and delta > relief_drive[k]) then 1.0 else 0.0;
    inCoast[k] = if noEvent(s_coast[k] >= sA and s_coast[k] <= sE and delta_c > relief_coast[k]) then 1.0 else 0.0;
    q_drive[k] = chebSeries({qCheb1, qCheb2, qCheb3, qCheb4, qCheb5, qCheb6, qCheb7, qCheb8, qCheb9, qCheb10}, (2*sd_law[k] - sLo - sHi)/(sHi - sLo));
    q_coast[k] = chebSeries({qCheb1, qCheb2, qCheb3, qCheb4, qCheb5, qCheb6, qCheb7, qCheb8, qCheb9, qCheb10}, (2*sc_law[k] - sLo - sHi)/(sHi - sLo));
    Fel_drive[k] = inDrive[k]*pairForce(delta - relief_drive[k], sd_law[k], L - sd_law[k], b, lambda_A, lambda_B, q_drive[k]);
    Fel_coast[k] = inCoast[k]*pairForce(delta_c - relief_coast[k], sc_law[k], L - sc_law[k], b, lambda_A, lambda_B, q_coast[k]);
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
one side has the same approach of its unmodified involutes (equal base pitch); its force depends on its
position <code>s</code> through its compliance and its tip relief.</p>
<p><b>Drive candidates.</b> The pinion's drive flanks cut the line at <code>s_k = sP + pb psi1/(2 pi) + k pb</code>,
<code>psi1 = atan2(sin(z1 theta1), cos(z1 theta1))</code> (the phase <code>r_b1 phi1</code> modulo <code>pb</code>),
<code>k = -nK..nK</code>. When <code>psi1</code> jumps from <code>pi</code> to <code>-pi</code> every candidate takes
its neighbour's place: the set of positions is unchanged as long as the outermost candidates lie outside
<code>[sA, sE]</code> for every phase, i.e. <code>nK &gt;= (sP - sA)/pb + 1</code> and
<code>nK &gt;= (sE - sP)/pb + 1/2</code> (asserted; <code>nK = 2</code> suffices down to 20 deg, since
<code>(sP - sA)/pb &lt; 1/(pi sin(alpha) cos(alpha))</code>). A drive pair is loaded iff <code>sA &lt;= s_k &lt;= sE</code>
and <code>delta &gt; C(s_k)</code> (the tip relief, below).</p>
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
lies in <code>[sA, sE]</code> and <code>delta_c &gt; C(s')</code>. Its radii of curvature are <code>s'</code> and
<code>a sin(alpha) - s'</code>.</p>
<p><b>Force law.</b> Each loaded pair is a Hertz line contact of two cylinders of radii <code>rho1</code>,
<code>rho2</code> and length <code>b</code> (Johnson 1985) in series with the compliance <code>q(s)</code> of its
two teeth: <code>delta_k = delta_H(F) + q(s) F</code>, solved exactly for <code>F</code> by
<a href=\"modelica://Nonholonomic.Contacts.InvoluteToothContact.pairForce\">pairForce</a> (Newton's method,
unrolled; the series term keeps the form of Johnson's law). <code>q(s) = q_1(s) + q_2(s)</code> is each tooth's
bending, shear and axial compression by the potential-energy method (Yang and Lin 1987, in the form of Tian 2004
and Chaari, Fakhfakh and Haddar 2009) and the foundation's compliance of Sainsot, Velex and Duverger (2004), the
tooth taken from its base circle as in those papers, the pinion's loaded at the roll length <code>s</code>, the
wheel's at <code>a sin(alpha) - s</code> (<a href=\"modelica://Nonholonomic.Contacts.InvoluteToothContact.toothCompliance\">toothCompliance</a>).
This method was chosen because it gives the compliance of each tooth as a function of the contact position
from the tooth's geometry alone (Weber-Banaschek needs the same integrals with a different foundation; Cai's
1995 formula only the shape of the mesh stiffness, scaled to a given maximum), and because its published
comparisons with finite elements cover gears of this size. <code>q</code> is computed at 10 Chebyshev nodes of
<code>[sA, sE]</code> widened by 5 % on each side when the parameters are set, and evaluated during the run as
its Chebyshev series (relative error 8e-5 against adaptive quadrature for the example's gears). The series'
coefficients are copied into discrete variables when the run starts (<code>when initial()</code>): the
rumoca backend substitutes parameter expressions into the right-hand side, which would otherwise evaluate
the 240 quadrature points at every step (four times the run time). The foundation
needs the bore radii <code>r_int1</code>, <code>r_int2</code> (default half the root radius: a choice; the
stiffness changes by about 10 % between 0.3 and 0.7 of it). For the example (steel, m 2 mm, z 20/35, b 20 mm)
under 50 N m this gives a single-pair stiffness of 2.37e8 N/m at the pitch point and a mean mesh stiffness of
3.37e8 N/m (ISO 6336-1 method B: 2.34e8 and 3.44e8 N/m).</p>
<p><b>Tip relief.</b> Both gears' tips are cut back linearly along the line of action by <code>C_a</code> at the
tip over the length <code>L_a</code> (measured along the line of action from <code>sE</code>, the pinion's tip,
and from <code>sA</code>, the wheel's): the pair at <code>s</code> has the approach
<code>delta - C(s)</code>, <code>C(s) = C_a (max(0, s - (sE - L_a)) + max(0, sA + L_a - s))/L_a</code>, and is
loaded only while that is positive, so under a light load a relieved pair enters and leaves without force.
Default <code>C_a = 0</code> (no relief); <code>L_a</code> defaults to the long relief <code>(epsilon_alpha - 1) pb</code>.</p>
<p>A damping <code>d d(delta)/dt</code> is added to each loaded pair, which never pulls:
<code>F = max(F_el + d d(delta)/dt, 0)</code>. The friction of the pair acts along the flanks against the sliding
velocity <code>v_s</code> of the wheel's flank on the pinion's at the contact point (the relative velocity of the
material points there, along the flank), <code>-mu F v_s/sqrt(v_s^2 + eps^2)</code>. Corner contact (outside the
line of action) and the tooth deflections' coupling between neighbouring teeth are not modelled. The mesh force
is not the gradient of an energy of <code>e</code>: a time-varying stiffness, whose work over a mesh period need
not vanish.</p>
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
