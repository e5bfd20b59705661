within Nonholonomic;
package Units "SI type aliases used throughout the library"
  extends Nonholonomic.Icons.Package;

  type Length = Real(final quantity = "Length", final unit = "m", nominal = 1e-3) "Length (nominal 1 mm, as Position: aliases of positions agree)";
  type Position = Real(final quantity = "Length", final unit = "m", nominal = 1e-3) "Position (nominal 1 mm: an importer's absolute tolerance rtol x nominal then resolves contact deformations)";
  type Velocity = Real(final quantity = "Velocity", final unit = "m/s", nominal = 1e-3) "Velocity (nominal 1 mm/s: slip speeds near stick matter)";
  type Acceleration = Real(final quantity = "Acceleration", final unit = "m/s2");
  type Angle = Real(final quantity = "Angle", final unit = "rad");
  type AngularVelocity = Real(final quantity = "AngularVelocity", final unit = "rad/s");
  type AngularAcceleration = Real(final quantity = "AngularAcceleration", final unit = "rad/s2");
  type Mass = Real(final quantity = "Mass", final unit = "kg", min = 0);
  type Inertia = Real(final quantity = "MomentOfInertia", final unit = "kg.m2", min = 0);
  type Force = Real(final quantity = "Force", final unit = "N");
  type Torque = Real(final quantity = "Torque", final unit = "N.m");
  type Energy = Real(final quantity = "Energy", final unit = "J");
  type Pressure = Real(final quantity = "Pressure", final unit = "Pa");
  type InverseVelocity = Real(final unit = "s/m");
  type Power = Real(final quantity = "Power", final unit = "W");
  type Frequency = Real(final quantity = "Frequency", final unit = "1/s");
  type Time = Real(final quantity = "Time", final unit = "s");
  type Curvature = Real(final quantity = "Curvature", final unit = "1/m");
  type Quaternion = Real(final quantity = "Quaternion", final unit = "1");
  type DimensionlessRatio = Real(final unit = "1");
  type Coordinate = Real(final unit = "1") "Dimensionless surface coordinate";

  annotation(Documentation(info = "<html>
<p>SI types with units, so that every parameter and variable of the library carries its unit. They mirror
the types of <code>Modelica.Units.SI</code> without depending on the Modelica Standard Library.</p>
</html>"));
end Units;
