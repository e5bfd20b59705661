within Nonholonomic;
package Bodies "Rigid bodies and the ground"
  extends Nonholonomic.Icons.Package;
end Bodies;
