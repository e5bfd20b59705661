within Nonholonomic;
package Constants "Mathematical constants"
  extends Nonholonomic.Icons.Package;
  constant Real pi = 3.14159265358979323846 "Ratio of a circle's circumference to its diameter";
end Constants;
