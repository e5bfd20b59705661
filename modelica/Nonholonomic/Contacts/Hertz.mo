within Nonholonomic.Contacts;
package Hertz "Hertz contact as functions: elliptic-to-circular radii (Hamrock-Brewe) and the compliant wrench of a patch"
  extends Nonholonomic.Icons.Package;

  function ellipticRadii "Radii of the circular contact equivalent to an elliptic Hertz contact (Newton on the ellipticity; within 2e-8 of the exact contact)"
    extends Nonholonomic.Icons.Function;
    input Real Rx(unit = "m", min = 0) "A principal radius of relative curvature";
    input Real Ry(unit = "m", min = 0) "The other principal radius of relative curvature";
    output Real R_stiff(unit = "m") "Radius of the sphere on a plane with the same normal stiffness";
    output Real R_patch(unit = "m") "Radius of the circular patch with the same torque of pure pivoting";
    output Real A_major(unit = "m") "Semi-major axis squared over the approach: a^2 = A_major delta";
    output Real k(unit = "1") "Ellipticity a/b";
  protected
    constant Real pi = 3.14159265358979323846;
    Real ratio(unit = "1") "Ratio of the principal radii, larger over smaller (>= 1)";
    Real s(unit = "1") "ln k, from Hamrock-Brewe's k = 1.0339 ratio^0.636 and three Newton steps (ln ratio met to 3e-13 up to ratio 1e5)";
    Real KE[2](each unit = "1") "Complete elliptic integrals K(m), E(m), m = 1 - 1/k^2";
    Real m(unit = "1") "Parameter 1 - 1/k^2";
    Real D(unit = "1") "(K - E)/m";
    Real c(unit = "1/m") "Smaller curvature sum 1/max(Rx, Ry)";
    Real kHB(unit = "1") "Hamrock-Brewe's ellipticity (used below ratio 1.5, where it is within 0.2 % of the exact one)";
    Real R_eq(unit = "m") "1/(1/Rx + 1/Ry)";
    Real R_HB(unit = "m") "Hamrock-Brewe's stiffness radius";
  algorithm
    ratio := max(Rx, Ry)/min(Rx, Ry);
    kHB := 1.0339*ratio^0.6360;
    // Johnson (Contact Mechanics, 1985, eq. 4.39): ratio = (k^2 E(m) - K(m))/(K(m) - E(m)); solved for ln k from
    // Hamrock-Brewe's start (within a factor 1.6 up to ratio 2e4); clamped at k >= 1.2 where the exact branch is
    // not used (it would divide 0 by 0 at k = 1)
    s := max(log(kHB), 0.2);
    s := newtonStep(s, ratio);
    s := newtonStep(s, ratio);
    s := newtonStep(s, ratio);
    k := exp(max(s, 0.2));
    KE := ellipticKE(k);
    m := 1 - 1/k^2;
    D := (KE[1] - KE[2])/m;
    c := 1/max(Rx, Ry);
    // Johnson 4.2 (as references.bearing.HertzEllipse): a^3 = 3 P D/(pi E* c), delta = 3 P K/(2 pi a E*):
    // P = 4/3 E* sqrt(R_stiff) delta^(3/2) with sqrt(R_stiff) = 3/4 (3 K/(2 pi) (pi c/(3 D))^(1/3))^(-3/2);
    // a^2/delta = 2 D/(c K)
    R_eq := 1/(1/Rx + 1/Ry);
    R_HB := (3/4*pi*kHB*2*sqrt(2*(1.0003 + 0.5968/ratio)*R_eq/9)/(1.5277 + 0.6023*log(ratio))^1.5)^2;
    R_stiff := if ratio < 1.5 then R_HB else (3/4)^2*(3*KE[1]/(2*pi)*(pi*c/(3*D))^(1/3))^(-3);
    A_major := if ratio < 1.5 then (6*kHB^2*(1.0003 + 0.5968/ratio)*R_eq*(4/3*sqrt(R_HB))/(2*pi))^(2/3) else 2*D/(c*KE[1]);
    k := if ratio < 1.5 then kHB else k;
    // the circle with the ellipse's torque of pure pivoting: a_eq = 2 E a/pi (as BallOnRaceway)
    R_patch := (2*(if ratio < 1.5 then 1.0003 + 0.5968/ratio else KE[2])/pi)^2*A_major;
    annotation(Documentation(info = "<html>
<p>The elliptic Hertz contact of two bodies with principal radii of relative curvature <code>Rx</code>,
<code>Ry</code>, expressed as the radius of the sphere on a plane with the same normal stiffness
(<code>R_stiff</code>) and the radius of the circular patch with the same torque of pure pivoting
(<code>R_patch</code>, <code>a_eq = 2 E(m) a/pi</code> as in
<a href=\"modelica://Nonholonomic.Contacts.BallOnRaceway\">BallOnRaceway</a>). The ellipticity <code>k = a/b</code>
solves Johnson's <code>Ry/Rx = (k^2 E(m) - K(m))/(K(m) - E(m))</code>, <code>m = 1 - 1/k^2</code> (Contact Mechanics,
1985, sec. 4.2), by three Newton steps in <code>ln k</code> (the relation met to 3e-13 up to a ratio of 1e5) from Hamrock and Brewe's <code>k = 1.0339 (Ry/Rx)^0.636</code>
(1983); <code>K</code>, <code>E</code> by Hastings' polynomials (Abramowitz and Stegun 17.3.34, 17.3.36); the radii are within 2e-8 of the exact contact's (references.bearing.HertzEllipse) for ratios 1.5 to 1e5. Hamrock and Brewe's closed forms, fitted for
ratios up to about 100, are 12 % (approach) and 15 % (semi-major axis) off at a ratio of 1000 and 20 % and 28 % at
7000, ratios the rim of a disk near flat reaches; below a ratio of 1.5 they are used (within 0.2 %).</p>
</html>"));
  end ellipticRadii;

  function ellipticKE "Complete elliptic integrals K(m), E(m) of the parameter m = 1 - 1/k^2 (Hastings' polynomials, |error| <= 2e-8)"
    extends Nonholonomic.Icons.Function;
    input Real k(unit = "1", min = 1) "Ellipticity a/b";
    output Real KE[2](each unit = "1") "{K(m), E(m)}";
  protected
    Real m1(unit = "1") "1 - m = 1/k^2";
    Real L(unit = "1") "ln(1/m1) = 2 ln k";
  algorithm
    // Abramowitz and Stegun 17.3.34 and 17.3.36 (Hastings): |error| <= 2e-8 for 0 <= m < 1 (checked against scipy's
    // ellipk, ellipe: 1.3e-8 and 1.6e-8 at most)
    m1 := 1/k^2;
    L := 2*log(k);
    KE := {1.38629436112 + m1*(0.09666344259 + m1*(0.03590092383 + m1*(0.03742563713 + m1*0.01451196212)))
             + (0.5 + m1*(0.12498593597 + m1*(0.06880248576 + m1*(0.03328355346 + m1*0.00441787012))))*L,
           1 + m1*(0.44325141463 + m1*(0.06260601220 + m1*(0.04757383546 + m1*0.01736506451)))
             + m1*(0.24998368310 + m1*(0.09200180037 + m1*(0.04069697526 + m1*0.00526449639)))*L};
    annotation(Documentation(info = "<html>
<p>K and E of the parameter <code>m = 1 - 1/k^2</code> by the polynomial approximations of Abramowitz and Stegun
17.3.34 and 17.3.36 (Hastings), <code>|error| &lt;= 2e-8</code>, for
<a href=\"modelica://Nonholonomic.Contacts.Hertz.ellipticRadii\">ellipticRadii</a>.</p>
</html>"));
  end ellipticKE;

  function curvatureRatio "Ratio of the principal radii Ry/Rx of the Hertz ellipse of ellipticity k (Johnson eq. 4.39)"
    extends Nonholonomic.Icons.Function;
    input Real k(unit = "1", min = 1) "Ellipticity a/b";
    output Real ratio(unit = "1");
  protected
    Real KE[2](each unit = "1");
  algorithm
    KE := ellipticKE(k);
    ratio := (k^2*KE[2] - KE[1])/(KE[1] - KE[2]);
    annotation(Documentation(info = "<html>
<p>Johnson's relation (Contact Mechanics, 1985, sec. 4.2) between the ellipticity <code>k = a/b</code> of a Hertz contact and the ratio of the principal radii of relative curvature: <code>(k^2 E(m) - K(m))/(K(m) - E(m))</code>, <code>m = 1 - 1/k^2</code>.</p>
</html>"));
  end curvatureRatio;

  function newtonStep "A Newton step on ln(curvatureRatio(exp(s))) = ln(ratio)"
    extends Nonholonomic.Icons.Function;
    input Real s(unit = "1") "ln k";
    input Real ratio(unit = "1") "The ratio to meet";
    output Real s1(unit = "1");
  protected
    Real g(unit = "1");
    Real gp(unit = "1");
  algorithm
    g := log(curvatureRatio(exp(s))/ratio);
    gp := (log(curvatureRatio(exp(s + 1e-6))/ratio) - g)/1e-6;
    s1 := max(s - g/gp, 0.2);
    annotation(Documentation(info = "<html>
<p>A Newton step for <code>ln k</code> on <code>ln curvatureRatio(k) = ln ratio</code>, its slope by a forward difference of 1e-6; held at <code>ln k &gt;= 0.2</code>.</p>
</html>"));
  end newtonStep;

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
    // Johnson 1985, sec. 4.2; Hunt-Crossley; Contensou coupling through PatchFriction.laws. Only a^2 enters the
    // friction (no infinite slope at first touch)
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
<p>The force law of the library's compliant contacts, stated once:
<a href=\"modelica://Nonholonomic.Interfaces.PartialCompliantContact\">PartialCompliantContact</a> calls it,
<a href=\"modelica://Nonholonomic.Contacts.DiskOnPlaneElastic\">DiskOnPlaneElastic</a> calls it for its rim, whose
radii vary with the tilt, and <a href=\"modelica://Nonholonomic.Contacts.HertzPatch\">HertzPatch</a> makes it a
component for arrays of patches (the disk's edge ring). Hertz's
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
