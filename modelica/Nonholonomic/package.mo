within;
package Nonholonomic "Dynamics of rigid bodies with rolling and other nonholonomic contacts"
  extends Nonholonomic.Icons.Library;

  package Icons "Icons of the library"
    extends Icons.Package;
    partial package Package "Icon for a package"
      annotation(Icon(coordinateSystem(extent = {{-100, -100}, {100, 100}}), graphics = {
        Rectangle(lineColor = {200, 200, 200}, fillColor = {248, 248, 248}, fillPattern = FillPattern.HorizontalCylinder,
          extent = {{-100, -100}, {100, 100}}, radius = 25),
        Rectangle(lineColor = {128, 128, 128}, extent = {{-100, -100}, {100, 100}}, radius = 25)}),
        Documentation(info = "<html><p>The frame of every package's icon: a rounded grey square.</p></html>"));
    end Package;

    partial package Library "Icon for the library: a ball on a bowl"
      extends Icons.Package;
      annotation(Icon(graphics = {
        Line(points = {{-80, 40}, {-60, -20}, {-30, -50}, {0, -58}, {30, -50}, {60, -20}, {80, 40}},
          color = {95, 95, 95}, thickness = 1, smooth = Smooth.Bezier),
        Ellipse(lineColor = {0, 0, 0}, fillColor = {255, 85, 85}, fillPattern = FillPattern.Sphere,
          extent = {{-2, -50}, {38, -10}})}),
        Documentation(info = "<html><p>The library's icon: a ball rolling in a bowl.</p></html>"));
    end Library;

    partial package ExamplesPackage "Icon for a package of examples"
      extends Icons.Package;
      annotation(Icon(graphics = {Polygon(origin = {8, 14}, lineColor = {78, 138, 73}, fillColor = {78, 138, 73},
        fillPattern = FillPattern.Solid, points = {{-58, 46}, {42, -14}, {-58, -74}, {-58, 46}})}),
        Documentation(info = "<html><p>The icon of a package of examples: a green triangle (play).</p></html>"));
    end ExamplesPackage;

    partial function Function "Icon for a function"
      annotation(Icon(graphics = {Text(textColor = {0, 0, 255}, extent = {{-150, 105}, {150, 145}}, textString = "%name"),
        Ellipse(lineColor = {108, 88, 49}, fillColor = {255, 215, 136}, fillPattern = FillPattern.Solid,
          extent = {{-100, -100}, {100, 100}}), Text(textColor = {108, 88, 49}, extent = {{-90, -90}, {90, 90}}, textString = "f")}),
        Documentation(info = "<html><p>The icon of a function: an f in a yellow circle, the function's name above.</p></html>"));
    end Function;

    partial class Information "Icon for a page of information (the users' guide)"
      annotation(Icon(coordinateSystem(extent = {{-100, -100}, {100, 100}}), graphics = {
        Ellipse(lineColor = {70, 110, 170}, fillColor = {70, 110, 170}, fillPattern = FillPattern.Solid, extent = {{-100, -100}, {100, 100}}),
        Ellipse(lineColor = {255, 255, 255}, fillColor = {255, 255, 255}, fillPattern = FillPattern.Solid, extent = {{-14, 44}, {14, 72}}),
        Rectangle(lineColor = {255, 255, 255}, fillColor = {255, 255, 255}, fillPattern = FillPattern.Solid, extent = {{-12, -70}, {12, 28}}, radius = 4)}),
        Documentation(info = "<html><p>The icon of the users' guide and its pages: a white i on a blue disk.</p></html>"));
    end Information;

    annotation(Documentation(info = "<html><p>The icons of packages, functions and the users' guide. The components
draw their own icons (the Modelica Standard Library's manner: recognisable at small size, the name above, the key
parameter below).</p></html>"));
  end Icons;

  annotation(
    version = "0.1.0",
    versionDate = "2026-11-28",
    Documentation(info = "<html>
<p><b>Nonholonomic</b> models rigid bodies with rolling and other nonholonomic contacts in the physically
oriented multiport style of I. I. Kosenko (Kosenko 2022, <i>Object-oriented multiport modelling of multibody
systems in Modelica</i>).</p>
<p>The system is a graph whose nodes are <b>bodies</b> and whose edges are <b>constraints</b>:</p>
<ul>
<li>a body integrates the Newton-Euler equations (attitude as a unit quaternion) and exports its kinematics
(position, orientation, velocity, angular velocity, acceleration, angular acceleration) through a
<a href=\"modelica://Nonholonomic.Interfaces.KinematicOutput\">kinematic port</a>;</li>
<li>a constraint reads the kinematic ports of its two bodies, states its kinematic relations <b>at
acceleration level</b> with Baumgarte stabilisation of the position and velocity drift, and returns the
reaction wrench (force, torque, application point) to both bodies through
<a href=\"modelica://Nonholonomic.Interfaces.WrenchOutput\">wrench ports</a>, obeying the third law.</li>
</ul>
<p>The interactions come in Kosenko's three families: <b>ideal constraints</b> (joints, rolling without
slipping: <a href=\"modelica://Nonholonomic.Joints\">Joints</a>, <a href=\"modelica://Nonholonomic.Contacts\">Contacts</a>),
<b>servo-constraints</b> that prescribe a relative motion
(<a href=\"modelica://Nonholonomic.Joints.ServoRevolute\">ServoRevolute</a>: the snakeboard's rider), and
<b>compliant contacts</b>, force laws of the bodies' states (Hertz pressure with Coulomb-Contensou friction over
the patch: <a href=\"modelica://Nonholonomic.Contacts.SphereOnPlaneElastic\">SphereOnPlaneElastic</a>, the tippe-top;
<a href=\"modelica://Nonholonomic.Contacts.BallOnRaceway\">BallOnRaceway</a>, the elliptic contacts of the ball bearing;
<a href=\"modelica://Nonholonomic.Contacts.BallInPocket\">BallInPocket</a>, a ball in its cage's pocket;
<a href=\"modelica://Nonholonomic.Contacts.InvoluteToothContact\">InvoluteToothContact</a>, the line contacts of a
spur gear mesh).</p>
<p>Every assembled model is then an index-1 DAE whose states are the states of the bodies, the same in every
tool. The library does not use the Modelica Standard Library, so the same sources compile in OpenModelica
and in rumoca.</p>
<p>Start with the <a href=\"modelica://Nonholonomic.UsersGuide\">UsersGuide</a>: an overview, a tutorial in OMEdit,
the connector conventions, the release notes and the references.</p>
<p>Conventions: vectors are resolved in the world frame when their name ends in <code>_0</code> and in the
body frame when it ends in <code>_b</code>; the world z axis points up; quaternions are scalar first.</p>
</html>"));
end Nonholonomic;
