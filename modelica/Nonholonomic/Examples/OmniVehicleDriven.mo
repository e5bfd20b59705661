within Nonholonomic.Examples;
model OmniVehicleDriven "Omni-wheel vehicle driven by a torque on each wheel's axle, starting at rest"
  extends Vehicles.OmniVehicle(v_0 = {0, 0}, omega_0 = 0, axle(tau = tau));
  input Units.Torque tau[nWheels](each start = 0) "Drive torque on each wheel about its axle, from the platform";
  output Units.AngularVelocity wheelRate[nWheels] = axle.w_rel "Spin of each wheel about its axle relative to the platform";
  annotation(experiment(StartTime = 0, StopTime = 2, Tolerance = 1e-6, Interval = 0.002),
    Documentation(info = "<html><p>The vehicle of <a href=\"modelica://Nonholonomic.Vehicles.OmniVehicle\">OmniVehicle</a>
(Gerasimov 2018, ch. 3: three wheels of four rollers, friction between rollers and plane) with a motor on
each axle: <code>tau[i]</code> turns wheel <code>i</code> about its axle (positive about the axle's
direction <code>alpha[i]</code>) and the platform the other way. The inputs make the vehicle a plant for
controllers in the loop (FMI inputs of the FMU).</p></html>"));
end OmniVehicleDriven;
