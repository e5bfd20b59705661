within Nonholonomic.Examples;
model OmniVehicleSpin "Omni-wheel vehicle spinning in place (Gerasimov 2018, ch. 3, initial data of type 1)"
  extends Vehicles.OmniVehicle(v_0 = {0, 0}, omega_0 = 1);
  annotation(experiment(StartTime = 0, StopTime = 5, Tolerance = 1e-8, Interval = 0.005),
    Documentation(info = "<html><p>Initial data of type 1 (Gerasimov 2018, ch. 3): <code>v0 = 0</code>,
<code>omega0 = 1</code>. With massless rollers the centre stays at the origin and the heading grows
uniformly; <code>eta</code> sets the rollers' mass.</p></html>"));
end OmniVehicleSpin;
