within Nonholonomic;
package Interfaces "Kinematic and wrench ports; base classes of bodies and constraints"
  extends Nonholonomic.Icons.Package;
  annotation(Documentation(info = "<html>
<p>Two cable types connect the library's components (Kosenko 2022): a <b>kinematic cable</b> from a body to
the constraints acting on it, and a <b>wrench cable</b> from a constraint back to each of its two bodies.
A body owns one <a href=\"modelica://Nonholonomic.Interfaces.KinematicOutput\">KinematicOutput</a> and an
array of <code>nW</code> <a href=\"modelica://Nonholonomic.Interfaces.WrenchInput\">WrenchInputs</a>,
one for each constraint acting on it.</p>
</html>"));
end Interfaces;
