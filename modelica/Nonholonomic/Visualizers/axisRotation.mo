within Nonholonomic.Visualizers;
function axisRotation "Rotation matrix of a rotation by an angle about a unit axis"
  input Real n[3] "Unit axis";
  input Units.Angle angle "Angle of rotation";
  output Real T[3, 3] "Rotation matrix: resolves the rotated frame's vectors in the original frame";
algorithm
  T := Rotations.rotationMatrix(Rotations.fromAxisAngle(n, angle));
  annotation(Documentation(info = "<html><p>For the poses of <a href=\"modelica://Nonholonomic.Visualizers.Shape\">Shape</a>s
built from angles.</p></html>"));
end axisRotation;
