within Nonholonomic.Examples;
model MecanumVehicle "Vehicle on three mecanum wheels (rollers inclined at 45 degrees to the wheel's plane, truncated) in a generic motion: translation and turning"
  extends Vehicles.OmniVehicle(truncated = true, delta = Constants.pi/4, v_0 = {0.3, 0.2}, omega_0 = 0.7);
  annotation(experiment(StartTime = 0, StopTime = 0.3, Tolerance = 1e-6, Interval = 0.001),
    Documentation(info = "<html><p>The vehicle of <a href=\"modelica://Nonholonomic.Examples.OmniVehicleTruncated\">OmniVehicleTruncated</a>
(three wheels of four truncated rollers, axes at <code>R1 = R_w cos(pi/(n - 1))</code>, friction between rollers and
plane) with mecanum wheels: <code>delta = pi/4</code>, the rollers' axes tilted by <code>gamma = pi/2 - delta</code>
= 45 degrees out of the wheels' planes (<a href=\"modelica://Nonholonomic.Contacts.RollerPlaneContact\">RollerPlaneContact</a>:
each roller's surface is the envelope of spheres that touch the cylinder of radius <code>R_w</code> about the axle,
so the wheel still rolls on the circle of radius <code>R_w</code>). Along a roller the contact point moves across the
wheel by <code>-R1 tan(psi) tan(gamma)</code> (<code>psi</code> the roller's angle from the bottom) and jumps back
by <code>2 R1 tan(pi/n) tan(gamma)</code> = 50 mm at each change of the roller in contact (a state event).
Initial data: the generic motion <code>v_0 = {0.3, 0.2}</code> m/s, <code>omega_0 = 0.7</code> rad/s; spinning in
place <code>v_0 = {0, 0}, omega_0 = 1</code> and moving along wheel 1's axle <code>v_0 = {1, 0}, omega_0 = 0</code>
are parameter settings of the same FMU. The wheels start rolling without sliding along the lowest rollers' axes,
the lowest roller spinning so that it rolls (docs/omni.md, \"Mecanum wheels: the Modelica model\").</p></html>"));
end MecanumVehicle;
