within Nonholonomic.Interfaces;
connector RealOutput = output Real "A signal that an assembly passes up to its enclosing model" annotation(
  Icon(graphics = {Polygon(lineColor = {0, 0, 127}, fillColor = {255, 255, 255}, fillPattern = FillPattern.Solid,
    points = {{-100, 100}, {100, 0}, {-100, -100}, {-100, 100}})}),
  Documentation(info = "<html><p>A real signal that an assembly (an omni-wheel, a vehicle) passes up to the model
that contains it: the roller in contact, the slip, the normal force. The library's own counterpart of the
Modelica Standard Library's <code>Blocks.Interfaces.RealOutput</code>.</p></html>"));
