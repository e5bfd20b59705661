within Nonholonomic.Interfaces;
connector KinematicInput "Kinematics of a body, read by a constraint"
  input Units.Position r_0[3] "Position of the centre of mass, world frame";
  input Real T[3, 3] "Orientation: rotation matrix resolving body-frame vectors in the world frame";
  input Units.Velocity v_0[3] "Velocity of the centre of mass, world frame";
  input Units.AngularVelocity w_0[3] "Angular velocity, world frame";
  input Units.Acceleration a_0[3] "Acceleration of the centre of mass, world frame";
  input Units.AngularAcceleration z_0[3] "Angular acceleration, world frame";
  annotation(Icon(graphics = {Polygon(lineColor = {0, 0, 255}, fillColor = {255, 255, 255}, fillPattern = FillPattern.Solid,
    points = {{-100, 100}, {100, 0}, {-100, -100}, {-100, 100}})}));
end KinematicInput;
