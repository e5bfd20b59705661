within Nonholonomic.Examples;
model OmniVehicleImpactStraight "Omni-wheel vehicle with massive rollers and impacts at roller changes, moving straight along wheel 1's axle (Gerasimov 2018, ch. 2, initial data 2)"
  extends Vehicles.OmniVehicleImpact(nu_0 = {1, 0, 0});
  annotation(experiment(StartTime = 0, StopTime = 10, Tolerance = 1e-10, Interval = 0.01),
    Documentation(info = "<html><p>Initial data 2 of Gerasimov (2018), ch. 2: <code>nu = (1, 0, 0)</code>, the
centre moving along the axle of wheel 1, which does not turn and rides on one roller; wheels 2 and 3 turn in
opposite senses and change rollers together, mirror-symmetrically, in one impact each time (until rounding and
integration errors move their junction passages more than <code>switchTolerance</code> apart: 16.8 s with the
defaults; then one wheel at a time). The platform does not turn and the speed falls in steps. Reference:
<code>nonholonomic.references.omni_massive.chapter2_experiment(2, ...)</code>.</p></html>"));
end OmniVehicleImpactStraight;
