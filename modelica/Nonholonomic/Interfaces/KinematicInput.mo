within Nonholonomic.Interfaces;
connector KinematicInput "Kinematics of a body, read by a constraint"
  input Units.Position r_0[3] "Position of the centre of mass, world frame";
  input Real T[3, 3] "Orientation: rotation matrix resolving body-frame vectors in the world frame";
  input Units.Velocity v_0[3] "Velocity of the centre of mass, world frame";
  input Units.AngularVelocity w_0[3] "Angular velocity, world frame";
  input Units.Acceleration a_0[3] "Acceleration of the centre of mass, world frame";
  input Units.AngularAcceleration z_0[3] "Angular acceleration, world frame";
  annotation(Icon(graphics = {Polygon(lineColor = {0, 0, 255}, fillColor = {255, 255, 255}, fillPattern = FillPattern.Solid,
    points = {{-100, 100}, {100, 0}, {-100, -100}, {-100, 100}})}),
    Documentation(info = "<html><p>The kinematics of a body as an interaction reads it (<code>kA</code>,
<code>kB</code>) or a rotor reads its carrier's (<code>kCarrier</code>): connect it to the body's
<a href=\"modelica://Nonholonomic.Interfaces.KinematicOutput\">KinematicOutput</a> <code>k</code>. Position,
rotation matrix (body to world), velocity, angular velocity, acceleration and angular acceleration of the centre of
mass, in the world frame.</p></html>"));
end KinematicInput;
