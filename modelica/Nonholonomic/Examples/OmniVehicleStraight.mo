within Nonholonomic.Examples;
model OmniVehicleStraight "Omni-wheel vehicle moving straight along one wheel's axle (Gerasimov 2018, ch. 3, type 2)"
  extends Vehicles.OmniVehicle(v_0 = {1, 0}, omega_0 = 0);
  annotation(experiment(StartTime = 0, StopTime = 2, Tolerance = 1e-8, Interval = 0.002),
    Documentation(info = "<html><p>Initial data of type 2 (Gerasimov 2018, ch. 3): <code>v0 = 1</code> along the
axle of wheel 1, <code>omega0 = 0</code>. With massless rollers the vehicle moves along a straight line at
constant speed without turning.</p></html>"));
end OmniVehicleStraight;
