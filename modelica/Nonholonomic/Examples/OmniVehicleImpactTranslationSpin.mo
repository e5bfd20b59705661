within Nonholonomic.Examples;
model OmniVehicleImpactTranslationSpin "Omni-wheel vehicle with massive rollers and impacts at roller changes, translating and spinning (Gerasimov 2018, ch. 2, initial data 3)"
  extends Vehicles.OmniVehicleImpact(nu_0 = {1, 0, 1});
  annotation(experiment(StartTime = 0, StopTime = 10, Tolerance = 1e-10, Interval = 0.01),
    Documentation(info = "<html><p>Initial data 3 of Gerasimov (2018), ch. 2: <code>nu = (1, 0, 1)</code>, translation
along the axle of wheel 1 and spin. The wheels change rollers at different times, one impact each; the front
wheel's changes happen where its contact roller spins fastest, and the translation dies out within about 90 s
with the defaults (docs/omni.md). Reference:
<code>nonholonomic.references.omni_massive.chapter2_experiment(3, ...)</code>.</p></html>"));
end OmniVehicleImpactTranslationSpin;
