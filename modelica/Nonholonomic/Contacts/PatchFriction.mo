within Nonholonomic.Contacts;
package PatchFriction "Coulomb friction integrated over a circular Hertz contact patch: the laws f(u), g(u)"
  extends Nonholonomic.Icons.Package;

  function laws "Dimensionless friction force f(u) = |F|/(mu N) and torque g(u) = |M|/(mu N a) of a friction law"
    extends Nonholonomic.Icons.Function;
    input Integer law(min = 1, max = 4) "1 point contact, 2 Contensou-Zhuravlev, 3 ellipsoidal (Leine-Glocker), 4 exact";
    input Real u(unit = "1", min = 0) "Slip speed over pivoting speed, |v|/(a |spin|)";
    output Real fg[2](each unit = "1") "{f(u), g(u)}";
  protected
    constant Real pi = 3.14159265358979323846;
    constant Real c = 3*pi/16 "Rbar/a of the ellipsoidal law: g(0) of the exact law";
    Real fgExact[2](each unit = "1");
  algorithm
    fgExact := exact(u);
    fg := if law == 1 then {1, 0}
      elseif law == 2 then {u/(u + 8/(3*pi)), c/(1 + 15*pi/16*u)}
      elseif law == 3 then {u/sqrt(u^2 + c^2), c^2/sqrt(u^2 + c^2)}
      else fgExact;
    annotation(Documentation(info = "<html>
<p>Every law is exact in pure sliding (<code>f = 1</code> as <code>u</code> grows) and, except the point
contact, in pure spin (<code>g(0) = 3 pi/16</code>, the torque of Coulomb friction over a Hertz patch).
</p>
<ul>
<li><b>1, point contact</b>: <code>f = 1, g = 0</code>: Coulomb's law at one point, no pivoting friction.</li>
<li><b>2, Contensou-Zhuravlev</b>: first-order Pade approximants in the manner of Zhuravlev (PMM 62(5), 1998)
matched to both ends of the exact law of a Hertz patch: <code>f = u/(u + 8/(3 pi))</code> (slope
<code>3 pi/8</code> at 0, 1 at infinity), <code>g = (3 pi/16)/(1 + 15 pi u/16)</code> (<code>3 pi/16</code> at 0,
<code>1/(5u)</code> at infinity).</li>
<li><b>3, ellipsoidal</b> (Leine and Glocker, Eur. J. Mech. A/Solids 22(2), 2003, after Moeller): force and
torque/Rbar on the unit circle, <code>Rbar = 3 pi a/16</code>:
<code>f = u/sqrt(u^2 + c^2)</code>, <code>g = c^2/sqrt(u^2 + c^2)</code>, <code>c = 3 pi/16</code>.</li>
<li><b>4, exact</b>: the integral over the Hertz patch in closed form, <a href=\"modelica://Nonholonomic.Contacts.PatchFriction.exact\">exact</a>.</li>
</ul>
</html>"));
  end laws;

  function exact "Exact f(u), g(u) of Coulomb friction over a circular Hertz patch (closed forms)"
    extends Nonholonomic.Icons.Function;
    input Real u(unit = "1", min = 0) "Slip speed over pivoting speed, |v|/(a |spin|)";
    output Real fg[2](each unit = "1") "{f(u), g(u)}";
  protected
    constant Real pi = 3.14159265358979323846;
    Real ui(unit = "1") "min(u, 1)";
    Real k(unit = "1") "1/u when the instantaneous centre of rotation lies outside the patch (u > 1)";
    Real k2(unit = "1");
    Real kc(unit = "1") "k where the closed form is used, a harmless 1/2 elsewhere (no infinite slope of asin at 1)";
    Real m(unit = "1") "asin(kc)";
    Real c(unit = "1") "sqrt(1 - kc^2)";
  algorithm
    ui := min(u, 1);
    k := 1/max(u, 1);
    k2 := k*k;
    kc := if u > 1 and k >= 1/6 then k else 0.5;
    m := asin(kc);
    c := sqrt((1 - kc)*(1 + kc));
    fg := if u <= 1 then {3*pi*ui*(4 - ui^2)/32, 3*pi*(8 - 8*ui^2 + 3*ui^4)/128}
      elseif k >= 1/6 then {3*((4*kc^2 - 1)*m + kc*c*(1 + 2*kc^2))/(16*kc^3),
                            3*((8*kc^4 - 8*kc^2 + 3)*m + 3*kc*c*(2*kc^2 - 1))/(64*kc^4)}
      else {1 - k2*(1/10 + k2*(3/280 + k2*(1/336 + k2*(5/4224 + k2*(21/36608 + k2*21/66560))))),
            k*(1/5 + k2*(1/70 + k2*(1/280 + k2*(5/3696 + k2*(35/54912 + k2*(63/183040 + k2*231/1131520))))))};
    annotation(Documentation(info = "<html>
<p>The exact resultant of Coulomb friction over a circular patch with Hertz pressure
<code>p = p0 sqrt(1 - r^2/a^2)</code>: <code>f(u) = |F|/(mu N)</code>, <code>g(u) = |M|/(mu N a)</code>,
<code>u = |v|/(a |spin|)</code> the distance of the instantaneous centre of rotation from the patch centre
in units of <code>a</code>. Integrated in polar coordinates about that centre, where each element's
friction direction depends on the polar angle only, the integrals are elementary:</p>
<ul>
<li><code>u &lt;= 1</code>: <code>f = 3 pi u (4 - u^2)/32</code>, <code>g = 3 pi (8 - 8 u^2 + 3 u^4)/128</code>;</li>
<li><code>u &gt; 1</code>, <code>k = 1/u</code>: <code>f = 3 ((4k^2 - 1) asin k + k sqrt(1 - k^2) (1 + 2k^2))/(16 k^3)</code>,
<code>g = 3 ((8k^4 - 8k^2 + 3) asin k + 3k sqrt(1 - k^2) (2k^2 - 1))/(64 k^4)</code>, replaced by their
Taylor series in <code>k</code> for <code>u &gt; 6</code>, where the closed forms lose digits.</li>
</ul>
<p>Limits: <code>f(0) = 0</code>, slope <code>3 pi/8</code>, <code>g(0) = 3 pi/16</code> (pure spin),
<code>f(1) = 9 pi/32</code>, <code>g(1) = 9 pi/128</code>, <code>f -> 1</code> and <code>g ~ 1/(5u)</code> for
large <code>u</code>. Derived for this library (<code>nonholonomic.references.contact_patch</code>), checked
there against two independent quadratures (about the instantaneous centre, and about the patch centre) to
1e-11, and against a third formulation (complete elliptic integrals over rings, Gauss-Legendre in radius)
to 2e-8. The seed paper's remark that the exact wrench needs complete elliptic integrals holds for an
elliptic patch (unequal curvatures); for a circular patch they reduce to these elementary functions.</p>
</html>"));
  end exact;

  annotation(Documentation(info = "<html>
<p>The friction laws of the compliant contacts
(<a href=\"modelica://Nonholonomic.Interfaces.PartialCompliantContact\">PartialCompliantContact</a>), as
dimensionless functions of <code>u = |v|/(a |spin|)</code>: the friction force
<code>F = -mu N f(u) v/|v|</code> and the pivoting torque <code>M = -mu N a g(u) spin/|spin|</code>.</p>
</html>"));
end PatchFriction;
