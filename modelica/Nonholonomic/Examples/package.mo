within Nonholonomic;
package Examples "Example systems, each exported as an FMU"
  extends Nonholonomic.Icons.ExamplesPackage;
  annotation(Documentation(info = "<html>
<p>The systems of the papers (<a href=\"modelica://Nonholonomic.UsersGuide.References\">References</a>), each with
an <code>experiment</code> annotation, exported as an FMU by the project and verified against an independent
reference model written from the paper's equations (<code>nonholonomic verify</code>): a ball on surfaces of
revolution, the rolling disk, the Chaplygin ball and sleigh, the wheelset, spherical shells with a body inside and
the nonholonomic bundle, omni-wheel and mecanum vehicles (with friction; with impacts at the changes of the contact
roller), the tippe-top, the skateboard and the snakeboard, a ball bearing and a spur gear pair.</p>
</html>"));
end Examples;
