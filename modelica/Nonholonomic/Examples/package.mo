within Nonholonomic;
package Examples "Example systems, each exported as an FMU"
  extends Nonholonomic.Icons.ExamplesPackage;
end Examples;
