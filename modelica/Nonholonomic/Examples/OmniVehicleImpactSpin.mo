within Nonholonomic.Examples;
model OmniVehicleImpactSpin "Omni-wheel vehicle with massive rollers and impacts at roller changes, spinning in place (Gerasimov 2018, ch. 2, initial data 1)"
  extends Vehicles.OmniVehicleImpact(nu_0 = {0, 0, 1});
  annotation(experiment(StartTime = 0, StopTime = 10, Tolerance = 1e-10, Interval = 0.01),
    Documentation(info = "<html><p>Initial data 1 of Gerasimov (2018), ch. 2: <code>nu = (0, 0, 1)</code>, the vehicle
spinning about its centre of mass, all wheels at <code>chi = 0</code>, the free rollers at rest on their wheels. The
three wheels reach their junctions together and change rollers in one impact every <code>2 pi/n</code> of wheel
rotation; a free roller keeps its spin about its own axis (2.8) while its axis tilts and re-enters with a relative
spin that the impact removes, so the spin <code>nu3</code> decays in steps while the centre stays at rest. The
symmetric motion is unstable: rounding errors grow until the wheels reach their junctions more than
<code>switchTolerance</code> apart (after 57.8 s with the defaults), and from then on they change one at a time.
Reference: <code>nonholonomic.references.omni_massive.chapter2_experiment(1, ...)</code>, which projects onto the
symmetric motion after every impact.</p></html>"));
end OmniVehicleImpactSpin;
