within Nonholonomic;
package Contacts "Contacts: rolling and other nonholonomic constraints, and compliant contacts (Hertz, Coulomb-Contensou)"
  extends Nonholonomic.Icons.Package;
  annotation(Documentation(info = "<html>
<p>Contacts between two bodies. <b>Ideal</b> rolling constraints, stated at acceleration level with Baumgarte
stabilisation: a thin disk (<a href=\"modelica://Nonholonomic.Contacts.DiskOnPlane\">DiskOnPlane</a>) or a ball
(<a href=\"modelica://Nonholonomic.Contacts.BallOnPlane\">BallOnPlane</a>) on the plane, a ball on a surface of
revolution (<a href=\"modelica://Nonholonomic.Contacts.BallOnSurfaceOfRevolution\">BallOnSurfaceOfRevolution</a>),
a knife edge (<a href=\"modelica://Nonholonomic.Contacts.KnifeEdge\">KnifeEdge</a>), the roller of an omni-wheel
(<a href=\"modelica://Nonholonomic.Contacts.RollerPlaneContact\">RollerPlaneContact</a>, unilateral with friction).
<b>Compliant</b> contacts, force laws of the bodies' states (Hertz pressure, Coulomb-Contensou friction over the
patch, <a href=\"modelica://Nonholonomic.Contacts.PatchFriction\">PatchFriction</a>): a sphere on a plane
(<a href=\"modelica://Nonholonomic.Contacts.SphereOnPlaneElastic\">SphereOnPlaneElastic</a>), a ball in a
bearing's groove (<a href=\"modelica://Nonholonomic.Contacts.BallOnRaceway\">BallOnRaceway</a>), a ball in a cage's pocket
(<a href=\"modelica://Nonholonomic.Contacts.BallInPocket\">BallInPocket</a>), the mesh of spur
gears (<a href=\"modelica://Nonholonomic.Contacts.InvoluteToothContact\">InvoluteToothContact</a>). Body A is the
supporting body (the ground for the plane <code>z = 0</code>), body B the rolling one.</p>
</html>"));
end Contacts;
