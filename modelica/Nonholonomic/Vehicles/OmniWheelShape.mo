within Nonholonomic.Vehicles;
model OmniWheelShape "Visual shape of an omni-wheel given by its pose and its rollers' angles (animation only)"
  parameter Integer nRollers(min = 1) = 5 "Number of rollers";
  parameter Units.Length l(min = 1e-6) = 0.05 "Wheel radius: radius of the rollers' profile arc";
  parameter Units.Length r(min = 0) = 0.04 "Distance of the rollers' axes from the wheel's centre";
  final parameter Units.Angle kappa[nRollers] = {2*Constants.pi*(j - 1)/nRollers for j in 1:nRollers} "Angular positions of the rollers, from the wheel frame's x axis";
  input Units.Position r_0[3] "Centre of the wheel, world frame" annotation(Dialog);
  input Real T[3, 3] "Wheel frame (z: the axle; x: towards roller 1 at zero roller angle), resolved in the world frame" annotation(Dialog);
  input Units.Angle phi[nRollers] "Roller angles about the rollers' axes" annotation(Dialog);
  Visualizers.Shape hub(shapeType = Visualizers.cylinder, shapeSize = {2*r, 0, l/5}, color = {170, 175, 185}, r_0 = r_0, T = T) "The hub";
  // roller j at kappa_j from the x axis, its axis (its x) tangent to the wheel, turned by phi_j about it
  Visualizers.Shape roller[nRollers](each shapeType = Visualizers.ellipsoid,
    each shapeSize = {2*l*sin(Constants.pi/nRollers), 2*(l - r) + l/20, 2*(l - r) + l/20}, each color = {60, 60, 60},
    r_0 = {r_0 + T*{r*cos(kappa[j]), r*sin(kappa[j]), 0} for j in 1:nRollers},
    T = {T*Visualizers.axisRotation({0, 0, 1}, kappa[j] + Constants.pi/2)*Visualizers.axisRotation({1, 0, 0}, phi[j]) for j in 1:nRollers}) "The rollers";
  annotation(Documentation(info = "<html><p>The hub and the barrel-shaped rollers of a wheel of
<a href=\"modelica://Nonholonomic.Vehicles.OmniVehicleImpact\">OmniVehicleImpact</a>, whose dynamics is written in
the platform's planar coordinates and the wheels' and rollers' angles: the shapes' poses follow from them
(<a href=\"modelica://Nonholonomic.Visualizers\">Visualizers</a>).</p></html>"),
    Icon(graphics = {Ellipse(lineColor = {0, 0, 0}, fillColor = {170, 175, 185}, fillPattern = FillPattern.Solid, extent = {{-60, -60}, {60, 60}}),
      Ellipse(lineColor = {0, 0, 0}, fillColor = {60, 60, 60}, fillPattern = FillPattern.Solid, extent = {{-20, 50}, {20, 80}}),
      Ellipse(lineColor = {0, 0, 0}, fillColor = {60, 60, 60}, fillPattern = FillPattern.Solid, extent = {{-20, -80}, {20, -50}}),
      Text(textColor = {0, 0, 255}, extent = {{-150, 90}, {150, 120}}, textString = "%name")}));
end OmniWheelShape;
