within Nonholonomic;
package Bodies "Rigid bodies and the ground"
  extends Nonholonomic.Icons.Package;
  annotation(Documentation(info = "<html>
<p>The bodies of the library: a <a href=\"modelica://Nonholonomic.Bodies.RigidBody\">RigidBody</a> (Newton-Euler
equations in principal axes, quaternion attitude, 13 states), the <a href=\"modelica://Nonholonomic.Bodies.Ground\">Ground</a>
(the world frame, a body without states) and a <a href=\"modelica://Nonholonomic.Bodies.Rotor\">Rotor</a> (an
axisymmetric body on a frictionless axle of a carrier body, 2 states). Each sends its kinematics through
<code>k</code> and receives the wrenches of the interactions acting on it through <code>w[nW]</code>
(<a href=\"modelica://Nonholonomic.UsersGuide.Connectors\">connector conventions</a>).</p>
</html>"));
end Bodies;
