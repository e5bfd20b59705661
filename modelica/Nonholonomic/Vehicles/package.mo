within Nonholonomic;
package Vehicles "Assemblies: omni-wheels and omni-wheel vehicles"
  extends Nonholonomic.Icons.Package;

  function rollerInertia "Principal central moments of inertia of a homogeneous spindle roller of an omni-wheel or a mecanum wheel (axis = body x)"
    extends Nonholonomic.Icons.Function;
    input Units.Length R_w "Radius of the omni-wheel: the roller's profile is an arc of this radius";
    input Integer n "Number of rollers on the wheel";
    input Units.Mass m_r "Mass of the roller";
    input Units.Length R1 = R_w*cos(Constants.pi/n) "Distance of the roller's axis from the wheel's centre (default: untruncated spindle; R_w cos(pi/(n - 1)): truncated, ch. 1-2)";
    input Units.Angle gamma = 0 "Tilt of the roller's axis out of the wheel's plane, pi/2 - delta (0: omni-wheel; pi/4: mecanum wheel; needs n >= 3 unless 0)";
    output Units.Inertia I_b[3] "Moments about the roller's axis and about two transverse axes";
  protected
    Units.Angle half = Constants.pi/n "Half the angle a roller spans (truncated or not, it covers 2 pi/n of the rim)";
    Units.Length X = R_w*sin(half) "Half-length of the roller";
    Units.Length C = R_w*cos(half) "sqrt(R_w^2 - X^2): height of the arc's ends above the wheel's centre line";
    Real S1, S2, S3, S4, XS1, XS2, X2 "Integrals over x in [-X, X] of s^k and x^2 s^k, s = sqrt(R_w^2 - x^2)";
    Real V, A4, T2 "Integrals of rho^2, rho^4 and x^2 rho^2, rho = s - R1 the profile radius";
    Real k(unit = "1") = cos(gamma) "cos(gamma)";
    Real s(unit = "1") = sin(gamma) "sin(gamma)";
    Real Cp1(unit = "1"), Cp2(unit = "1"), Cp3(unit = "1"), Cp4(unit = "1"), Cp5(unit = "1"), Cp6(unit = "1") "Integrals of cos(theta)^p, p = 0 ... 5, over |theta| <= pi/n";
    Real Cm1(unit = "1"), Cm2(unit = "1"), Cm3(unit = "1"), Cm4(unit = "1"), Cm5(unit = "1"), Cm6(unit = "1") "Integrals of cos(theta)^-m, m = 1 ... 6, over |theta| <= pi/n";
  algorithm
    // the roller x^2 + (r + R1)^2 = R_w^2, |x| <= X (Gerasimov 2018, ch. 3, eq. (2.1); truncated rollers, ch. 1:
    // R1 < R_w cos(pi/n) and flat ends of radius C - R1) is a solid of revolution of rho(x) = s(x) - R1; slices
    // give m = pi dens int rho^2, I_axis = pi dens/2 int rho^4, I_transverse = pi dens int (rho^4/4 + x^2 rho^2);
    // integrals of s^k in closed form (s(X) = C: for the untruncated spindle C = R1)
    if gamma == 0 then
    S1 := X*C + R_w^2*half;
    S2 := 2*(R_w^2*X - X^3/3);
    S3 := X*(5*R_w^2 - 2*X^2)*C/4 + 3*R_w^4*half/4;
    S4 := 2*(R_w^4*X - 2*R_w^2*X^3/3 + X^5/5);
    XS1 := X*(2*X^2 - R_w^2)*C/4 + R_w^4*half/4;
    XS2 := 2*(R_w^2*X^3/3 - X^5/5);
    X2 := 2*X^3/3;
    V := S2 - 2*R1*S1 + 2*X*R1^2;
    A4 := S4 - 4*R1*S3 + 6*R1^2*S2 - 4*R1^3*S1 + 2*X*R1^4;
    T2 := XS2 - 2*R1*XS1 + R1^2*X2;
    else
    // mecanum roller (axis tilted by gamma): the envelope of the spheres of RollerPlaneContact, parametrised by the
    // angle theta (|theta| <= pi/n) in the wheel's plane of its line of contact with the cylinder of radius R_w:
    // axial position x = R_w k sin(theta) + R1 (s^2/k) tan(theta), profile radius
    // rho = sqrt(1 - k^2 sin(theta)^2) (R_w - R1/cos(theta)) (k = cos(gamma), s = sin(gamma); gamma = 0: the arc
    // above). The integrands of V, A4 and T2 over x are Laurent polynomials in cos(theta) (sin^2 = 1 - cos^2),
    // integrated term by term with the reduction formulas of int cos^p and int sec^m
    // (int sec = 2 asinh(tan(pi/n)) = 2 log(sec + tan))
    Cp1 := 2*half;
    Cp2 := 2*sin(half);
    Cp3 := sin(half)*cos(half) + Cp1/2;
    Cp4 := 2*sin(half)*cos(half)^2/3 + 2*Cp2/3;
    Cp5 := sin(half)*cos(half)^3/2 + 3*Cp3/4;
    Cp6 := 2*sin(half)*cos(half)^4/5 + 4*Cp4/5;
    Cm1 := 2*log(1/cos(half) + tan(half));
    Cm2 := 2*tan(half);
    Cm3 := tan(half)/cos(half) + Cm1/2;
    Cm4 := 2*tan(half)/cos(half)^2/3 + 2*Cm2/3;
    Cm5 := tan(half)/cos(half)^3/2 + 3*Cm3/4;
    Cm6 := 2*tan(half)/cos(half)^4/5 + 4*Cm4/5;
    V := (R1^3*s^4/k)*Cm4 + (-2*R_w*R1^2*s^4/k)*Cm3 + (R1*s^2*(R_w^2*s^2 + R1^2*k^2)/k)*Cm2 + (-R_w*R1^2*k*s^2)*Cm1 + (-R_w^2*R1*k*s^2)*Cp1 + (R_w*k*(R_w^2*s^2 + R1^2*k^2))*Cp2 + (-2*R_w^2*R1*k^3)*Cp3 + (R_w^3*k^3)*Cp4;
    A4 := (R1^5*s^6/k)*Cm6 + (-4*R_w*R1^4*s^6/k)*Cm5 + (2*R1^3*s^4*(3*R_w^2*s^2 + R1^2*k^2)/k)*Cm4 + (-R_w*R1^2*s^4*(4*R_w^2*s^2 + 7*R1^2*k^2)/k)*Cm3 + (R1*s^2*(R_w^4*s^4 + 8*R_w^2*R1^2*k^2*s^2 + R1^4*k^4)/k)*Cm2 + (-2*R_w*R1^2*k*s^2*(R_w^2*s^2 + R1^2*k^2))*Cm1 + (-2*R_w^2*R1*k*s^2*(R_w^2*s^2 + R1^2*k^2))*Cp1 + (R_w*k*(R_w^4*s^4 + 8*R_w^2*R1^2*k^2*s^2 + R1^4*k^4))*Cp2 + (-R_w^2*R1*k^3*(7*R_w^2*s^2 + 4*R1^2*k^2))*Cp3 + (2*R_w^3*k^3*(R_w^2*s^2 + 3*R1^2*k^2))*Cp4 + (-4*R_w^4*R1*k^5)*Cp5 + (R_w^5*k^5)*Cp6;
    T2 := (R1^5*s^8/k^3)*Cm6 + (-2*R_w*R1^4*s^6*(-k + s)*(k + s)/k^3)*Cm5 + (-R1^3*s^4*(-R_w^2*k^4 + 4*R_w^2*k^2*s^2 - R_w^2*s^4 - R1^2*k^2*s^2 + R1^2*s^4)/k^3)*Cm4 + (R_w*R1^2*s^4*(-2*R_w^2*k^4 + 2*R_w^2*k^2*s^2 + 2*R1^2*k^4 - 3*R1^2*k^2*s^2 + 2*R1^2*s^4)/k^3)*Cm3 + (-R1*s^2*(-R_w^4*k^4*s^2 - R_w^2*R1^2*k^6 + 3*R_w^2*R1^2*k^4*s^2 - 3*R_w^2*R1^2*k^2*s^4 + R_w^2*R1^2*s^6 + R1^4*k^2*s^4)/k^3)*Cm2 + (R_w*R1^2*s^2*(-R_w^2*k^4 - R_w^2*s^4 - R1^2*k^2*s^2 + R1^2*s^4)/k)*Cm1 + (R_w^2*R1*s^2*(-R_w^2*k^4 + R_w^2*k^2*s^2 + R1^2*k^4 + R1^2*s^4)/k)*Cp1 + (-R_w*(-R_w^4*k^4*s^2 - R_w^2*R1^2*k^6 + 3*R_w^2*R1^2*k^4*s^2 - 3*R_w^2*R1^2*k^2*s^4 + R_w^2*R1^2*s^6 + R1^4*k^2*s^4)/k)*Cp2 + (R_w^2*R1*k*(-2*R_w^2*k^4 + 3*R_w^2*k^2*s^2 - 2*R_w^2*s^4 - 2*R1^2*k^2*s^2 + 2*R1^2*s^4))*Cp3 + (-R_w^3*k*(-R_w^2*k^4 + R_w^2*k^2*s^2 + R1^2*k^4 - 4*R1^2*k^2*s^2 + R1^2*s^4))*Cp4 + (-2*R_w^4*R1*k^3*(-k + s)*(k + s))*Cp5 + (-R_w^5*k^5)*Cp6;
    end if;
    I_b := m_r*{A4/(2*V), (A4/4 + T2)/V, (A4/4 + T2)/V};
    annotation(Documentation(info = "<html><p>The principal central moments of inertia of a homogeneous roller of an omni-wheel (its profile an arc of the wheel's circle of radius <code>R_w</code> over <code>2 pi/n</code>, its axis at <code>R1</code> from the wheel's centre: untruncated spindle or truncated, Gerasimov 2018, ch. 1 and 3) or of a mecanum wheel (its axis tilted by <code>gamma</code>: the envelope of <a href=\"modelica://Nonholonomic.Contacts.RollerPlaneContact\">RollerPlaneContact</a>), from slices of the solid of revolution, in closed form: about its axis and about two transverse axes.</p></html>"));
  end rollerInertia;

  function rollerStartVelocity "Initial angular velocity of a roller: the wheel's, plus the spin that makes the roller in contact roll without slipping"
    extends Nonholonomic.Icons.Function;
    input Units.Position r_hub[3] "Centre of the hub, world frame";
    input Units.Velocity v_hub[3] "Velocity of the hub's centre, world frame";
    input Units.AngularVelocity w_hub[3] "Angular velocity of the hub, world frame";
    input Real T_hub[3, 3] "Attitude of the hub (its z axis is the axle)";
    input Units.Angle kappa "Angular position of the roller on the hub";
    input Units.Length R_w "Wheel radius";
    input Integer n "Number of rollers on the wheel";
    input Units.Length R1 = R_w*cos(Constants.pi/n) "Distance of the roller's axis from the wheel's centre";
    input Units.Angle gamma = 0 "Tilt of the roller's axis out of the wheel's plane, pi/2 - delta (0: omni-wheel)";
    output Units.AngularVelocity w_0[3] "Angular velocity of the roller, world frame";
  protected
    Real a[3] "Roller axis, world frame";
    Real axle[3] "Axle of the wheel, world frame";
    Units.Position c_r[3] "Centre of the roller";
    Units.Position P[3] "Lowest point of the roller";
    Units.Velocity v_P[3] "Velocity of the hub's material point at P";
    Real slide[3](each unit = "1") "Horizontal direction across the axis of the lowest roller (the axle for an omni-wheel), world frame";
    Real s(unit = "1") "sqrt(cos(gamma)^2 - a_z^2) (omni-wheel: sine of the axis' angle to the vertical)";
    Real lever(unit = "m") "Velocity along slide per unit spin";
  algorithm
    // axis tilted by gamma out of the wheel's plane towards the axle; the lowest point as in RollerPlaneContact
    a := T_hub*{-cos(gamma)*sin(kappa), cos(gamma)*cos(kappa), sin(gamma)};
    axle := T_hub*{0.0, 0.0, 1.0};
    slide := cos(gamma)*axle + sin(gamma)*cross(axle, {0.0, 0.0, 1.0});
    c_r := r_hub + T_hub*{R1*cos(kappa), R1*sin(kappa), 0.0};
    s := max(sqrt(max(cos(gamma)^2 - a[3]^2, 0.0)), 1e-9);
    P := c_r + R1*({0.0, 0.0, cos(gamma)} - a[3]/cos(gamma)*a)/s - {0.0, 0.0, R_w};
    v_P := v_hub + cross(w_hub, P - r_hub);
    lever := cross(a, P - c_r)*slide;
    // only the roller in contact (the same test as RollerPlaneContact) spins: it cancels the sliding across its
    // axis (along the axle for an omni-wheel); along the axis the wheel's rate must cancel it (OmniVehicle's s_0)
    w_0 := w_hub + (if abs(a[3]) <= cos(gamma)*sin(Constants.pi/n) and c_r[3] < r_hub[3] and abs(lever) > 1e-12
      then -(v_P*slide)/lever else 0.0)*a;
    annotation(Documentation(info = "<html><p>The initial angular velocity of roller <code>kappa</code> of a wheel: the hub's, plus, for the roller in contact with the plane, the spin about its own axis that makes its contact point roll without slipping across the axis (the wheel's rate must cancel the slip along it).</p></html>"));
  end rollerStartVelocity;

  annotation(Documentation(info = "<html><p>Omni-wheels (a hub with massive rollers on revolute joints,
rolling with friction on the plane) and a vehicle on omni-wheels (Gerasimov 2018, ch. 3); the skateboard's
truck (a hanger on an inclined elastic pivot, two wheels rolling on the plane; Hubbard 1979, Kosenko and
Kuleshov 2008).</p></html>"));
end Vehicles;
