within Nonholonomic.Interfaces;
connector WrenchOutput "Wrench that a constraint applies to a body"
  output Units.Force f_0[3] "Force, world frame";
  output Units.Torque t_0[3] "Torque about the application point, world frame";
  output Units.Position p_0[3] "Application point, world frame";
  annotation(Icon(graphics = {Rectangle(lineColor = {255, 128, 0}, fillColor = {255, 128, 0}, fillPattern = FillPattern.Solid,
    extent = {{-100, -100}, {100, 100}})}),
    Documentation(info = "<html><p>Force, torque and the point where they act (Kosenko 2022: the interaction is
idealised as acting at one geometric point). The receiving body converts the torque to its centre of mass:
<code>t_cm = t_0 + (p_0 - r_0) x f_0</code>.</p></html>"));
end WrenchOutput;
