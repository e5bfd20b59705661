within Nonholonomic.Interfaces;
connector WrenchInput "Wrench that a body receives from a constraint"
  input Units.Force f_0[3] "Force, world frame";
  input Units.Torque t_0[3] "Torque about the application point, world frame";
  input Units.Position p_0[3] "Application point, world frame";
  annotation(Icon(graphics = {Rectangle(lineColor = {255, 128, 0}, fillColor = {255, 255, 255}, fillPattern = FillPattern.Solid,
    extent = {{-100, -100}, {100, 100}})}),
    Documentation(info = "<html><p>The wrench a body receives from one interaction: an element of the body's array
<code>w[nW]</code>, connected to the interaction's <a href=\"modelica://Nonholonomic.Interfaces.WrenchOutput\">WrenchOutput</a>
<code>wA</code> or <code>wB</code>. Force, torque about the point of application, and that point, in the world
frame.</p></html>"));
end WrenchInput;
