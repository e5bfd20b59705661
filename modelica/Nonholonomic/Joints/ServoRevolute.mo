within Nonholonomic.Joints;
model ServoRevolute "Servo-constraint: a revolute joint whose angle follows a prescribed law (built-in sum of sines plus inputs)"
  extends PartialTwistRevolute;
  parameter Units.Angle offset = 0 "Constant part of the built-in law";
  parameter Units.Angle amplitude[:] = {0} "Amplitudes of the sines of the built-in law";
  parameter Units.Frequency frequency[size(amplitude, 1)](each min = 0) = fill(1, size(amplitude, 1)) "Frequencies of the sines (Hz: sin(2 pi f t + phase))";
  parameter Units.Angle phase[size(amplitude, 1)] = zeros(size(amplitude, 1)) "Phases of the sines";
  input Units.Angle phi_in = 0 "Angle added to the built-in law (zero unless bound)";
  input Units.AngularVelocity w_in = 0 "Rate added to the built-in law: the time derivative of phi_in (zero unless bound)";
  input Units.AngularAcceleration a_in = 0 "Acceleration added to the built-in law: the second derivative of phi_in (zero unless bound)";
  Units.Angle phi_law "Prescribed angle: built-in law plus phi_in";
  Units.AngularVelocity w_law "Prescribed rate";
  Units.AngularAcceleration a_law "Prescribed acceleration";
  Units.Power power "Power of the actuator torque tau (on B, relative rotation)";
equation
  phi_law = offset + sum(amplitude[i]*sin(2*Constants.pi*frequency[i]*time + phase[i]) for i in 1:size(amplitude, 1)) + phi_in;
  w_law = sum(2*Constants.pi*frequency[i]*amplitude[i]*cos(2*Constants.pi*frequency[i]*time + phase[i]) for i in 1:size(amplitude, 1)) + w_in;
  a_law = -sum((2*Constants.pi*frequency[i])^2*amplitude[i]*sin(2*Constants.pi*frequency[i]*time + phase[i]) for i in 1:size(amplitude, 1)) + a_in;
  phi_c = phi_law;
  // the servo-constraint phi = phi_law at acceleration level, with the joint's Baumgarte terms
  dw_rel - a_law + 2*alpha*(w_rel - w_law) + beta^2*phi_err = 0;
  power = tau*w_rel;
  annotation(Documentation(info = "<html>
<p>A servo-constraint (Kosenko's third family of constraints, after the ideal and the compliant ones): a
rigid revolute joint whose angle <code>phi</code> of B relative to A is prescribed as a function of time, the
way a rider or a robot turns one part of a vehicle against another. Six relations: the five of the revolute
joint and</p>
<pre>  phi'' = a_law - 2 alpha (phi' - w_law) - beta^2 (phi - phi_law)</pre>
<p>at acceleration level, with the joint's Baumgarte rates (the drift decays as <code>exp(-beta t)</code> for
<code>alpha = beta</code>). Its reaction about the axis is the actuator torque <code>tau</code> (of A on B),
and <code>power = tau w_rel</code> is the power the actuator puts in.</p>
<p><b>The law</b> is the built-in one, <code>offset + sum(amplitude[i] sin(2 pi frequency[i] t + phase[i]))</code>,
plus the inputs <code>phi_in</code>, <code>w_in</code>, <code>a_in</code> (zero unless bound). With the inputs
unbound the built-in law alone drives the joint; to drive it from outside (another model, a controller, an
FMU input), bind the inputs and set the amplitudes to zero.</p>
<p><b>The derivatives of an input</b> are not computed by the joint: a constraint at acceleration level needs
the angle, its rate and its acceleration, and differentiating a sampled or connected signal would need
either its derivative or a filter with states of its own. Supply them with the angle (a trajectory
generator, a controller that knows its reference, or the analytic derivatives of a law); if only
<code>phi_in</code> is bound, <code>w_in = a_in = 0</code> and the joint follows the angle through the
second-order filter <code>s^2 + 2 alpha s + beta^2</code>: a lag of about <code>2 alpha/beta^2</code> seconds,
0.1 s at the defaults (raise <code>alpha</code> and <code>beta</code> for a faster follower).</p>
</html>"), Icon(graphics = {Ellipse(lineColor = {0, 0, 0}, fillColor = {255, 255, 255}, fillPattern = FillPattern.Solid,
    extent = {{-30, -30}, {30, 30}}), Line(points = {{0, 0}, {20, 20}}, color = {0, 0, 0}, thickness = 1),
    Text(textColor = {0, 0, 0}, extent = {{-80, -40}, {80, -60}}, textString = "phi(t)")}));
end ServoRevolute;
