within Nonholonomic;
package Contacts "Rolling and other nonholonomic contacts"
  extends Nonholonomic.Icons.Package;
end Contacts;
