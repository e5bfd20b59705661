within Nonholonomic.Interfaces;
connector KinematicOutput "Kinematics of a body, exported by the body"
  output Units.Position r_0[3] "Position of the centre of mass, world frame";
  output Real T[3, 3] "Orientation: rotation matrix resolving body-frame vectors in the world frame";
  output Units.Velocity v_0[3] "Velocity of the centre of mass, world frame";
  output Units.AngularVelocity w_0[3] "Angular velocity, world frame";
  output Units.Acceleration a_0[3] "Acceleration of the centre of mass, world frame";
  output Units.AngularAcceleration z_0[3] "Angular acceleration, world frame";
  annotation(Icon(graphics = {Polygon(lineColor = {0, 0, 255}, fillColor = {0, 0, 255}, fillPattern = FillPattern.Solid,
    points = {{-100, 100}, {100, 0}, {-100, -100}, {-100, 100}})}),
    Documentation(info = "<html><p>Position, orientation, velocity, angular velocity, acceleration and angular
acceleration of a body, as the body exports them (decision 1 of the library design).</p></html>"));
end KinematicOutput;
