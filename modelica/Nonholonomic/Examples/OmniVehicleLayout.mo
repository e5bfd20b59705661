within Nonholonomic.Examples;
model OmniVehicleLayout "Omni-wheel vehicle with four wheels at the corners of a rectangular platform (X drive) and an offset centre of mass"
  extends Vehicles.OmniVehicle(nWheels = 4, nRollers = 4, truncated = true, R_w = 0.05, m_w = 0.15, m_p = 2,
    xWheel = {0.2, -0.2, -0.2, 0.2}, yWheel = {0.125, 0.125, -0.125, -0.125},
    axleAngle = {Constants.pi/4, 3*Constants.pi/4, 5*Constants.pi/4, 7*Constants.pi/4}, r_C = {0.05, 0.02},
    I_p = m_p/12*{b_p^2, a_p^2, a_p^2 + b_p^2}, v_0 = {0.3, 0.1}, omega_0 = 0.5);
  parameter Units.Length a_p(min = 0) = 0.4 "Length of the platform, a thin homogeneous plate, along x (sets I_p)";
  parameter Units.Length b_p(min = 0) = 0.25 "Width of the platform along y (sets I_p)";
  annotation(experiment(StartTime = 0, StopTime = 2, Tolerance = 1e-6, Interval = 0.002),
    Documentation(info = "<html><p>A layout other than the thesis' symmetric one: a rectangular platform of 0.4 x
0.25 m (<code>a_p</code> x <code>b_p</code>, 2 kg, a thin homogeneous plate: <code>I_p</code> about its centre of
mass follows <code>m_p</code>, <code>a_p</code> and <code>b_p</code>) with four omni-wheels at its corners,
their axles at 45 degrees to the sides (an X drive), truncated rollers (four per wheel). The platform's centre of
mass is 5 cm ahead of and 2 cm to the left of the reference point O, the centre of the wheels; the outputs
<code>x</code>, <code>y</code>, <code>vx</code>, <code>vy</code> are those of O. With four wheels the normal
forces are statically indeterminate on rigid axles, so the wheels hang on vertical spring-dampers
(<code>suspended</code>, 1e5 N/m, 300 N s/m). Initial data <code>v_0 = {0.3, 0.1}</code> m/s,
<code>omega_0 = 0.5</code> rad/s: with the offset centre of mass the massless-roller model has no closed form;
as <code>eta</code> tends to zero the motion tends to it (<code>tests/test_omni_truncated.py</code>).</p></html>"));
end OmniVehicleLayout;
