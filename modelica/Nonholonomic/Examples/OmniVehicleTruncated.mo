within Nonholonomic.Examples;
model OmniVehicleTruncated "Omni-wheel vehicle on truncated rollers (Gerasimov 2018, ch. 1-2 geometry) in a generic motion: translation and turning"
  extends Vehicles.OmniVehicle(truncated = true, v_0 = {0.3, 0.2}, omega_0 = 0.7);
  annotation(experiment(StartTime = 0, StopTime = 2, Tolerance = 1e-6, Interval = 0.002),
    Documentation(info = "<html><p>The vehicle of <a href=\"modelica://Nonholonomic.Vehicles.OmniVehicle\">OmniVehicle</a>
(three wheels of four rollers, friction between rollers and plane) with truncated rollers: their axes at
<code>R1 = R_w cos(pi/(n - 1))</code> from the wheel's centre (Gerasimov 2018, ch. 1-2), so that the contact
radius is at least <code>R_w (cos(pi/n) - cos(pi/(n - 1)))</code> = 10.4 mm instead of vanishing at the
junctions of untruncated spindles. Each change of the roller in contact is a state event. Initial data: the
generic motion <code>v_0 = {0.3, 0.2}</code> m/s, <code>omega_0 = 0.7</code> rad/s; the two motions of ch. 3
are parameter settings of the same FMU: spinning in place <code>v_0 = {0, 0}, omega_0 = 1</code>, moving straight
along wheel 1's axle <code>v_0 = {1, 0}, omega_0 = 0</code>. As <code>eta</code> tends to zero the motion tends
to that of the massless-roller model in proportion to <code>eta</code> (<code>nonholonomic verify
omni_truncated_convergence</code>, docs/omni.md).</p></html>"));
end OmniVehicleTruncated;
