within Nonholonomic;
package Contacts "Contacts: rolling and other nonholonomic constraints, and compliant contacts (Hertz, Coulomb-Contensou)"
  extends Nonholonomic.Icons.Package;
end Contacts;
