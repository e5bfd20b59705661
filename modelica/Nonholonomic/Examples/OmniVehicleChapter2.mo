within Nonholonomic.Examples;
model OmniVehicleChapter2 "Omni-wheel vehicle with the masses of Gerasimov (2018), ch. 2: five heavy rollers per wheel"
  extends Vehicles.OmniVehicle(nRollers = 5, R_p = 0.15, R_w = 0.05, m_p = 1, m_w = 0.4, eta = 0.125,
    v_0 = {0, 0}, omega_0 = 1, chi_0 = fill(Constants.pi/5, 3));
  annotation(experiment(StartTime = 0, StopTime = 10, Tolerance = 1e-6, Interval = 0.002),
    Documentation(info = "<html><p>The vehicle of Gerasimov (2018), ch. 2 (platform 1 kg, wheel bodies 0.15 kg,
five rollers of 0.05 kg on each of three wheels, R = 0.15 m, wheel radius 0.05 m) in the friction model of
ch. 3, to compare with the massive-roller model with impacts on the initial data of ch. 2 (set
<code>v_0</code> and <code>omega_0</code>). The wheels start turned by <code>pi/5</code>, so that a roller stands
centred at the bottom, as in the impact model at zero wheel angle (with five rollers and no turn the wheels
would stand on the junction of two rollers, where the contact roller's radius vanishes).</p></html>"));
end OmniVehicleChapter2;
