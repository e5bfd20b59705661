within Nonholonomic;
package Constants "Mathematical constants"
  extends Nonholonomic.Icons.Package;
  constant Real pi = 3.14159265358979323846 "Ratio of a circle's circumference to its diameter";
  annotation(Documentation(info = "<html><p>Mathematical constants used by the library (it does not use the
Modelica Standard Library's <code>Modelica.Constants</code>).</p></html>"));
end Constants;
