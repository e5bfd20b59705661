within Nonholonomic;
package Vehicles "Assemblies: omni-wheels and omni-wheel vehicles"
  extends Nonholonomic.Icons.Package;

  function rollerInertia "Principal central moments of inertia of a homogeneous spindle roller (axis = body x)"
    extends Nonholonomic.Icons.Function;
    input Units.Length R_w "Radius of the omni-wheel: the roller's profile is an arc of this radius";
    input Integer n "Number of rollers on the wheel";
    input Units.Mass m_r "Mass of the roller";
    input Units.Length R1 = R_w*cos(Constants.pi/n) "Distance of the roller's axis from the wheel's centre (default: untruncated spindle; R_w cos(pi/(n - 1)): truncated, ch. 1-2)";
    output Units.Inertia I_b[3] "Moments about the roller's axis and about two transverse axes";
  protected
    Units.Angle half = Constants.pi/n "Half the angle a roller spans (truncated or not, it covers 2 pi/n of the rim)";
    Units.Length X = R_w*sin(half) "Half-length of the roller";
    Units.Length C = R_w*cos(half) "sqrt(R_w^2 - X^2): height of the arc's ends above the wheel's centre line";
    Real S1, S2, S3, S4, XS1, XS2, X2 "Integrals over x in [-X, X] of s^k and x^2 s^k, s = sqrt(R_w^2 - x^2)";
    Real V, A4, T2 "Integrals of rho^2, rho^4 and x^2 rho^2, rho = s - R1 the profile radius";
  algorithm
    // the roller x^2 + (r + R1)^2 = R_w^2, |x| <= X (Gerasimov 2018, ch. 3, eq. (2.1); truncated rollers, ch. 1:
    // R1 < R_w cos(pi/n) and flat ends of radius C - R1) is a solid of revolution of rho(x) = s(x) - R1; slices
    // give m = pi dens int rho^2, I_axis = pi dens/2 int rho^4, I_transverse = pi dens int (rho^4/4 + x^2 rho^2);
    // integrals of s^k in closed form (s(X) = C: for the untruncated spindle C = R1)
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
    I_b := m_r*{A4/(2*V), (A4/4 + T2)/V, (A4/4 + T2)/V};
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
    output Units.AngularVelocity w_0[3] "Angular velocity of the roller, world frame";
  protected
    Real a[3] "Roller axis, world frame";
    Real axle[3] "Axle of the wheel, world frame";
    Units.Position c_r[3] "Centre of the roller";
    Units.Position P[3] "Lowest point of the roller";
    Units.Velocity v_P[3] "Velocity of the hub's material point at P";
    Real s "Sine of the axis' angle to the vertical";
    Real lever "Velocity along the axle per unit spin";
  algorithm
    a := T_hub*{-sin(kappa), cos(kappa), 0.0};
    axle := T_hub*{0.0, 0.0, 1.0};
    c_r := r_hub + T_hub*{R1*cos(kappa), R1*sin(kappa), 0.0};
    s := max(sqrt(max(1 - a[3]^2, 0.0)), 1e-9);
    P := c_r + R1*({0.0, 0.0, 1.0} - a[3]*a)/s - {0.0, 0.0, R_w};
    v_P := v_hub + cross(w_hub, P - r_hub);
    lever := cross(a, P - c_r)*axle;
    // only the roller in contact (the same test as RollerPlaneContact) spins: it cancels the sliding along the axle
    w_0 := w_hub + (if abs(a[3]) <= sin(Constants.pi/n) and c_r[3] < r_hub[3] and abs(lever) > 1e-12
      then -(v_P*axle)/lever else 0.0)*a;
  end rollerStartVelocity;

  annotation(Documentation(info = "<html><p>Omni-wheels (a hub with massive rollers on revolute joints,
rolling with friction on the plane) and a vehicle on omni-wheels (Gerasimov 2018, ch. 3); the skateboard's
truck (a hanger on an inclined elastic pivot, two wheels rolling on the plane; Hubbard 1979, Kosenko and
Kuleshov 2008).</p></html>"));
end Vehicles;
