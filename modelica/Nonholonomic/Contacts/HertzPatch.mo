within Nonholonomic.Contacts;
model HertzPatch "The compliant wrench of one circular Hertz patch (Hertz.patchWrench) as a component, for arrays of patches"
  parameter Integer frictionLaw(min = 1, max = 4) = 2 "Friction law over the patch: 1 point contact, 2 Contensou-Zhuravlev, 3 ellipsoidal (Leine-Glocker), 4 exact Hertz-Coulomb";
  parameter Units.DimensionlessRatio mu(min = 0) = 0.3 "Coulomb friction coefficient";
  parameter Units.Velocity eps(min = 1e-12) = 1e-4 "Regularisation of the friction law at zero relative motion (slip and a times spin)";
  parameter Units.Pressure E_star(min = 1) = 1.15e11 "Effective modulus of the pair";
  parameter Units.InverseVelocity d(min = 0) = 0 "Hunt-Crossley damping factor: N = N_el (1 + d d(delta)/dt)";
  parameter Units.Length R(min = 1e-9) = 1e-3 "Effective radius of curvature of the circular contact";
  input Units.Length delta "Penetration (> 0 in contact)" annotation(Dialog);
  input Units.Velocity ddelta "d(delta)/dt" annotation(Dialog);
  input Units.Velocity v_t_0[3] "Tangential velocity of body B's material point at the patch centre relative to body A's, world frame" annotation(Dialog);
  input Units.AngularVelocity spin "Spin of body B relative to body A about the normal" annotation(Dialog);
  Units.Force N "Normal force on body B (>= 0)";
  Units.Force N_el "Its elastic (Hertz) part";
  Units.Length a "Patch radius (0 when separated)";
  Units.Force F_t_0[3] "Friction force on body B, world frame";
  Units.Torque M_n "Pivoting friction torque on body B about the normal";
  Units.Energy U "Elastic energy";
equation
  (N, N_el, a, F_t_0, M_n, U) = Hertz.patchWrench(frictionLaw, mu, eps, E_star, d, R, R, delta, ddelta, v_t_0, spin);
  annotation(Documentation(info = "<html>
<p>The force law of <a href=\"modelica://Nonholonomic.Interfaces.PartialCompliantContact\">PartialCompliantContact</a>
(<a href=\"modelica://Nonholonomic.Contacts.Hertz.patchWrench\">Hertz.patchWrench</a>) for one circular patch of
effective radius <code>R</code>, its penetration, the rate, the tangential slip and the spin bound by modifiers
where it is declared. An array of these lumps a line contact into points:
<a href=\"modelica://Nonholonomic.Contacts.DiskOnPlaneElastic\">DiskOnPlaneElastic</a>'s edge ring. (A function's
several results cannot be assigned to array elements in the rumoca backend, nor an array result to a row in
OpenModelica's back end; an array of components has neither restriction.)</p>
</html>"), Icon(graphics = {Ellipse(lineColor = {0, 0, 0}, fillColor = {200, 200, 200}, fillPattern = FillPattern.Solid,
    extent = {{-60, -20}, {60, 100}}), Line(points = {{-80, -20}, {80, -20}}, thickness = 0.5),
    Text(textColor = {0, 0, 255}, extent = {{-150, -30}, {150, -60}}, textString = "%name")}));
end HertzPatch;
