within Nonholonomic.Interfaces;
partial model PartialCompliantContact "Base class of compliant contacts: Hertz normal force, Coulomb friction integrated over the contact patch"
  extends PartialInteraction;
  parameter Integer frictionLaw(min = 1, max = 4) = 2 "Friction law over the patch: 1 point contact, 2 Contensou-Zhuravlev, 3 ellipsoidal (Leine-Glocker), 4 exact Hertz-Coulomb"
    annotation(choices(choice = 1 "point contact Coulomb", choice = 2 "Contensou-Zhuravlev approximation",
      choice = 3 "ellipsoidal law (Leine-Glocker)", choice = 4 "exact integral over the Hertz patch"));
  parameter Units.DimensionlessRatio mu(min = 0) = 0.3 "Coulomb friction coefficient";
  parameter Units.Velocity eps(min = 1e-12) = 1e-4 "Regularisation of the friction law at zero relative motion (slip and a times spin)";
  parameter Units.Pressure E_A(min = 1) = 2.1e11 "Young's modulus of body A";
  parameter Units.DimensionlessRatio nu_A(min = -1, max = 0.5) = 0.3 "Poisson's ratio of body A";
  parameter Units.Pressure E_B(min = 1) = 2.1e11 "Young's modulus of body B";
  parameter Units.DimensionlessRatio nu_B(min = -1, max = 0.5) = 0.3 "Poisson's ratio of body B";
  parameter Units.InverseVelocity d(min = 0) = 0 "Hunt-Crossley damping factor: N = K delta^(3/2) (1 + d d(delta)/dt)";
  parameter Units.Length R_hertz(min = 1e-9) "Patch radius a = sqrt(R_hertz delta) (Hertz: the effective radius of curvature)";
  parameter Units.Length R_normal(min = 1e-9) "Normal stiffness N = 4/3 E* sqrt(R_normal) delta^(3/2) (Hertz: the effective radius of curvature)";
  final parameter Units.Pressure E_star = 1/((1 - nu_A^2)/E_A + (1 - nu_B^2)/E_B) "Effective modulus of the pair";
  Units.Length delta "Penetration (approach of the bodies; > 0 in contact)";
  Units.Velocity ddelta "d(delta)/dt";
  Real n_0[3](each unit = "1") "Unit normal of the contact plane, pointing from body A to body B, world frame";
  Units.Velocity v_t_0[3] "Tangential velocity of body B's material point at p_0 relative to body A's, world frame";
  Units.AngularVelocity spin "Spin of body B relative to body A about n_0";
  Units.Force N "Normal force on body B (0 when separated)";
  Units.Length a "Radius of the contact patch (0 when separated)";
  Units.Velocity slip "Slip speed |v_t_0|";
  Units.Force F_t_0[3] "Friction force on body B, world frame";
  Units.Torque M_n "Friction torque on body B about n_0 (pivoting friction)";
  Units.Power dissipation "Power lost in friction and normal damping (>= 0)";
  Units.Energy elasticEnergy "Elastic energy stored in the contact (Hertz)";
protected
  Units.Force N_el "Elastic (Hertz) part of the normal force";
equation
  // Hertz (Johnson 1985, sec. 4.2) with Hunt-Crossley damping and Coulomb friction over the patch: the law is
  // stated once, in Contacts.Hertz.patchWrench
  (N, N_el, a, F_t_0, M_n, elasticEnergy) = Contacts.Hertz.patchWrench(frictionLaw, mu, eps, E_star, d, R_hertz,
    R_normal, delta, ddelta, v_t_0, spin);
  slip = sqrt(v_t_0*v_t_0);
  f_0 = N*n_0 + F_t_0;
  t_0 = M_n*n_0;
  // the elastic part is conservative (elasticEnergy); the rest of the wrench's power on the relative motion is lost
  dissipation = -(F_t_0*v_t_0 + M_n*spin) + (N - N_el)*ddelta;
  annotation(Documentation(info = "<html>
<p>A compliant contact is a force law of the two bodies' states: it adds no constraint equation and no
algebraic loop (design decision 1). A derived class states the geometry: the penetration
<code>delta</code> and its rate, the normal <code>n_0</code>, the application point <code>p_0</code> (the
centre of the patch), the tangential relative velocity <code>v_t_0</code> of body B's material point
there and the relative spin about the normal; it sets <code>R_hertz</code> and <code>R_normal</code>, both the
effective radius of curvature <code>R</code> for a circular patch; an elliptic patch
(<a href=\"modelica://Nonholonomic.Contacts.BallOnRaceway\">BallOnRaceway</a>) enters as the circle of the same
normal stiffness (<code>R_normal</code>) and the same pivoting friction (<code>R_hertz</code>).</p>
<p>The normal pressure over the circular patch of radius <code>a = sqrt(R delta)</code> is Hertz's,
<code>p = p0 sqrt(1 - r^2/a^2)</code>, with resultant <code>N = 4/3 E* sqrt(R) delta^(3/2)</code>,
<code>1/E* = (1 - nu_A^2)/E_A + (1 - nu_B^2)/E_B</code>, and optional Hunt-Crossley damping
<code>N = N_el (1 + d d(delta)/dt)</code>, never pulling. Every element of the patch obeys Coulomb's law;
integrated over the patch the friction is a force against the slip and a torque against the spin,
coupled (Contensou 1963): <code>|F| = mu N f(u)</code>, <code>|M| = mu N a g(u)</code>,
<code>u = |v|/(a |spin|)</code>. <code>frictionLaw</code> selects <code>f, g</code>
(<a href=\"modelica://Nonholonomic.Contacts.PatchFriction\">PatchFriction</a>): the point contact,
the Contensou-Zhuravlev approximation, the ellipsoidal law of Leine and Glocker, or the exact integral.
At zero relative motion the law is regularised by <code>eps</code>:
<code>u = sqrt(|v|^2 + eps^2)/sqrt((a spin)^2 + eps^2)</code>, <code>F = -mu N f(u) v/sqrt(|v|^2 + eps^2)</code>,
<code>M = -mu N g(u) a^2 spin/sqrt((a spin)^2 + eps^2)</code>: the friction force rises from zero with
slope <code>mu N f(u)/eps</code> at most.</p>
</html>"));
end PartialCompliantContact;
