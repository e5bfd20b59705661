within Nonholonomic.Interfaces;
connector RealOutput = output Real "A signal that an assembly passes up to its enclosing model" annotation(
  Icon(graphics = {Polygon(lineColor = {0, 0, 127}, fillColor = {255, 255, 255}, fillPattern = FillPattern.Solid,
    points = {{-100, 100}, {100, 0}, {-100, -100}, {-100, 100}})}));
