within Nonholonomic.Contacts;
package Hertz "Hertz contact as functions: elliptic-to-circular radii (Hamrock-Brewe) and the compliant wrench of a patch"
  extends Nonholonomic.Icons.Package;

  function ellipticRadii "Radii of the circular contact equivalent to an elliptic Hertz contact (Hamrock-Brewe 1983)"
    extends Nonholonomic.Icons.Function;
    input Real Rx(unit = "m", min = 0) "A principal radius of relative curvature";
    input Real Ry(unit = "m", min = 0) "The other principal radius of relative curvature";
    output Real R_stiff(unit = "m") "Radius of the sphere on a plane with the same normal stiffness";
    output Real R_patch(unit = "m") "Radius of the circular patch with the same torque of pure pivoting";
    output Real A_major(unit = "m") "Semi-major axis squared over the approach: a^2 = A_major delta";
    output Real k(unit = "1") "Ellipticity a/b";
  protected
    constant Real pi = 3.14159265358979323846;
    Real alpha_r(unit = "1") "Ratio of the principal radii, larger over smaller (>= 1)";
    Real R_eq(unit = "m") "Effective radius 1/(1/Rx + 1/Ry)";
    Real E(unit = "1") "Complete elliptic integral of the second kind";
    Real K(unit = "1") "Complete elliptic integral of the first kind";
  algorithm
    alpha_r := max(Rx, Ry)/min(Rx, Ry);
    R_eq := 1/(1/Rx + 1/Ry);
    // Hamrock and Brewe, J. Lubrication Technology 105(2), 1983: k, E, K as functions of alpha_r = Ry/Rx
    k := 1.0339*alpha_r^0.6360;
    E := 1.0003 + 0.5968/alpha_r;
    K := 1.5277 + 0.6023*log(alpha_r);
    // N = pi k E' sqrt(2 E R/9) K^(-3/2) delta^(3/2), E' = 2 E*, written as 4/3 E* sqrt(R_stiff) delta^(3/2)
    R_stiff := (3/4*pi*k*2*sqrt(2*E*R_eq/9)/K^1.5)^2;
    // a^3 = 6 k^2 E N R/(pi E'): a^2 = A_major delta
    A_major := (6*k^2*E*R_eq*(4/3*sqrt(R_stiff))/(2*pi))^(2/3);
    // the circle with the ellipse's torque of pure pivoting: a_eq = 2 E a/pi (as BallOnRaceway)
    R_patch := (2*E/pi)^2*A_major;
    annotation(Documentation(info = "<html>
<p>The elliptic Hertz contact of two bodies with principal radii of relative curvature <code>Rx</code>,
<code>Ry</code> in the approximation of Hamrock and Brewe (1983), as in
<a href=\"modelica://Nonholonomic.Contacts.BallOnRaceway\">BallOnRaceway</a>, expressed as the radius of the
sphere on a plane with the same normal stiffness (<code>R_stiff</code>) and the radius of the circular patch with
the same torque of pure pivoting (<code>R_patch</code>). For <code>Rx = Ry = R</code> both are <code>R</code>
within the fit's 0.03 %.</p>
</html>"));
  end ellipticRadii;

  function stiffnessRadius "Radius of the sphere on a plane as stiff as an elliptic Hertz contact (Hamrock-Brewe 1983)"
    extends Nonholonomic.Icons.Function;
    input Real Rx(unit = "m", min = 0) "A principal radius of relative curvature";
    input Real Ry(unit = "m", min = 0) "The other principal radius of relative curvature";
    output Real R_stiff(unit = "m") "Radius of the sphere on a plane with the same normal stiffness";
  protected
    Real R_patch(unit = "m");
    Real A_major(unit = "m");
    Real k(unit = "1");
  algorithm
    (R_stiff, R_patch, A_major, k) := ellipticRadii(Rx, Ry);
    annotation(Documentation(info = "<html>
<p>The first result of <a href=\"modelica://Nonholonomic.Contacts.Hertz.ellipticRadii\">ellipticRadii</a>.</p>
</html>"));
  end stiffnessRadius;

  function patchWrench "Hertz normal force with Hunt-Crossley damping and Coulomb friction over a circular patch"
    extends Nonholonomic.Icons.Function;
    input Integer law(min = 1, max = 4) "Friction law (PatchFriction.laws)";
    input Real mu(unit = "1", min = 0) "Coulomb friction coefficient";
    input Real eps(unit = "m/s", min = 1e-12) "Regularisation at zero relative motion";
    input Real E_star(unit = "Pa") "Effective modulus";
    input Real d(unit = "s/m", min = 0) "Hunt-Crossley damping factor";
    input Real R_hertz(unit = "m") "Patch radius a = sqrt(R_hertz delta)";
    input Real R_normal(unit = "m") "Stiffness radius: N = 4/3 E* sqrt(R_normal) delta^(3/2)";
    input Real delta(unit = "m") "Penetration (> 0 in contact)";
    input Real ddelta(unit = "m/s") "d(delta)/dt";
    input Real v_t[3](each unit = "m/s") "Tangential velocity of body B's material point at the patch centre relative to body A's";
    input Real spin(unit = "rad/s") "Relative spin about the normal";
    output Real N(unit = "N") "Normal force (>= 0)";
    output Real N_el(unit = "N") "Its elastic (Hertz) part";
    output Real a(unit = "m") "Patch radius";
    output Real F_t[3](each unit = "N") "Friction force on body B";
    output Real M_n(unit = "N.m") "Pivoting friction torque on body B about the normal";
    output Real U(unit = "J") "Elastic energy";
  protected
    Real delta_c(unit = "m");
    Real a2(unit = "m2");
    Real s_r(unit = "m/s");
    Real w_r(unit = "m/s");
    Real fg[2](each unit = "1");
  algorithm
    // the law of Interfaces.PartialCompliantContact, term by term (Johnson 1985, sec. 4.2; Hunt-Crossley;
    // Contensou coupling through PatchFriction.laws)
    delta_c := max(delta, 0);
    a2 := R_hertz*delta_c;
    N_el := 4/3*E_star*sqrt(R_normal)*delta_c^1.5;
    N := max(N_el*(1 + d*ddelta), 0);
    s_r := sqrt(v_t*v_t + eps^2);
    w_r := sqrt(a2*spin^2 + eps^2);
    fg := PatchFriction.laws(law, s_r/w_r);
    a := if a2 > 0 then sqrt(a2) else 0;
    F_t := -mu*N*fg[1]/s_r*v_t;
    M_n := -mu*N*fg[2]*a2*spin/w_r;
    U := 8/15*E_star*sqrt(R_normal)*delta_c^2.5;
    annotation(Documentation(info = "<html>
<p>The force law of <a href=\"modelica://Nonholonomic.Interfaces.PartialCompliantContact\">PartialCompliantContact</a>
as a function, for contacts that sum several patches or whose radii vary with the configuration
(<a href=\"modelica://Nonholonomic.Contacts.DiskOnPlaneElastic\">DiskOnPlaneElastic</a>): Hertz's
<code>N_el = 4/3 E* sqrt(R_normal) delta^(3/2)</code>, Hunt-Crossley's <code>N = N_el (1 + d d(delta)/dt)</code>
(never pulling), the friction force <code>F = -mu N f(u) v/sqrt(|v|^2 + eps^2)</code> and the pivoting torque
<code>M = -mu N g(u) a^2 spin/sqrt((a spin)^2 + eps^2)</code>, and the elastic energy
<code>8/15 E* sqrt(R_normal) delta^(5/2)</code>.</p>
</html>"));
  end patchWrench;

  annotation(Documentation(info = "<html>
<p>Functions of the Hertz contact used by compliant contacts whose curvature changes with the configuration.</p>
</html>"));
end Hertz;
