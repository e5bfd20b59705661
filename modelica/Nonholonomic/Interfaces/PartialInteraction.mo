within Nonholonomic.Interfaces;
partial model PartialInteraction "Base class of interactions between body A and body B: the third law"
  KinematicInput kA "Kinematics of body A" annotation(Placement(transformation(extent = {{-110, 30}, {-90, 50}})));
  KinematicInput kB "Kinematics of body B" annotation(Placement(transformation(extent = {{110, 30}, {90, 50}})));
  WrenchOutput wA "Wrench on body A" annotation(Placement(transformation(extent = {{-90, -50}, {-110, -30}})));
  WrenchOutput wB "Wrench on body B" annotation(Placement(transformation(extent = {{90, -50}, {110, -30}})));
  Units.Force f_0[3] "Force on body B, world frame";
  Units.Torque t_0[3] "Torque on body B about the application point p_0, world frame";
  Units.Position p_0[3] "Common application point of the wrench, world frame";
equation
  // Third law, both wrenches about the common point p_0 (Kosenko 2022, eq. (1))
  wB.f_0 = f_0;
  wB.t_0 = t_0;
  wB.p_0 = p_0;
  wA.f_0 = -f_0;
  wA.t_0 = -t_0;
  wA.p_0 = p_0;
  annotation(Documentation(info = "<html>
<p>An interaction reads the kinematics of its two bodies and returns equal and opposite wrenches about a
common application point: <code>F_A + F_B = 0</code>, <code>M_A + M_B = 0</code>. The two families of the
library extend it: ideal constraints (<a href=\"modelica://Nonholonomic.Interfaces.PartialConstraint\">PartialConstraint</a>),
whose reaction is an unknown fixed by kinematic relations, and compliant contacts
(<a href=\"modelica://Nonholonomic.Interfaces.PartialCompliantContact\">PartialCompliantContact</a>), whose
wrench is a force law of the bodies' states.</p>
</html>"), Icon(graphics = {Rectangle(lineColor = {95, 95, 95}, fillColor = {235, 235, 235}, fillPattern = FillPattern.Solid,
    extent = {{-90, -60}, {90, 60}}, radius = 10), Text(textColor = {0, 0, 255}, extent = {{-150, 70}, {150, 100}}, textString = "%name")}));
end PartialInteraction;
