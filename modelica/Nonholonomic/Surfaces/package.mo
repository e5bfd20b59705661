within Nonholonomic;
package Surfaces "Meridians of surfaces of revolution"
  extends Nonholonomic.Icons.Package;

  partial function partialMeridian "Meridian (rho(s), zeta(s)) of a surface of revolution and its derivatives"
    extends Nonholonomic.Icons.Function;
    input Units.Coordinate s "Meridian coordinate (q1 of Kosenko, Kuleshov, Shishkov 2024)";
    input Integer surface "Code of a built-in meridian (ignored by user-defined meridians)";
    input Units.Length a "First shape parameter";
    input Units.Length b "Second shape parameter";
    output Units.Length rho "Distance from the symmetry axis";
    output Units.Position zeta "Height";
    output Units.Length drho "d rho/ds";
    output Units.Length dzeta "d zeta/ds";
    output Units.Length ddrho "d2 rho/ds2";
    output Units.Length ddzeta "d2 zeta/ds2";
    annotation(Documentation(info = "<html><p>The interface of a meridian: <code>(rho(s), zeta(s))</code>, the distance from the axis and the height of the surface traced by the ball's centre, and their first and second derivatives in the coordinate <code>s</code>. A user-defined meridian extends it and ignores <code>surface</code>; <code>a</code> and <code>b</code> are its shape parameters.</p></html>"));
  end partialMeridian;

  partial function partialCoordinate "Inverse of rho(s): the meridian coordinate at a given distance from the axis"
    extends Nonholonomic.Icons.Function;
    input Units.Length rho "Distance from the symmetry axis";
    input Integer surface "Code of a built-in meridian (ignored by user-defined meridians)";
    input Units.Length a "First shape parameter";
    input Units.Length b "Second shape parameter";
    output Units.Coordinate s "Meridian coordinate with rho(s) = rho";
    annotation(Documentation(info = "<html><p>The interface of the inverse of <code>rho(s)</code>: the meridian coordinate <code>s</code> at a given distance <code>rho</code> from the axis. A user-defined meridian needs one too.</p></html>"));
  end partialCoordinate;

  function builtInMeridian "Built-in meridians, selected by the code surface"
    extends partialMeridian;
  algorithm
    if surface == 1 then
      // paraboloid, vertex radius of curvature a
      rho := a*s; zeta := a*s^2/2; drho := a; dzeta := a*s; ddrho := 0; ddzeta := a;
    elseif surface == 2 then
      // spherical bowl of radius a
      rho := a*sin(s); zeta := -a*cos(s); drho := a*cos(s); dzeta := a*sin(s); ddrho := -a*sin(s); ddzeta := a*cos(s);
    elseif surface == 3 then
      // ellipsoid bowl, horizontal semi-axis a, vertical semi-axis b
      rho := a*sin(s); zeta := -b*cos(s); drho := a*cos(s); dzeta := b*sin(s); ddrho := -a*sin(s); ddzeta := b*cos(s);
    elseif surface == 4 then
      // cone, slope b/a
      rho := a*s; zeta := b*s; drho := a; dzeta := b; ddrho := 0; ddzeta := 0;
    else
      // torus trough: lower half of a tube of radius a around a circle of radius b
      rho := b + a*sin(s); zeta := -a*cos(s); drho := a*cos(s); dzeta := a*sin(s); ddrho := -a*sin(s); ddzeta := a*cos(s);
    end if;
    annotation(Documentation(info = "<html><p>The five built-in meridians, selected by <code>surface</code>: 1 paraboloid, 2 spherical bowl, 3 ellipsoid bowl, 4 cone, 5 torus trough (the table in <a href=\"modelica://Nonholonomic.Surfaces\">Surfaces</a>).</p></html>"));
  end builtInMeridian;

  function builtInCoordinate "Inverse of rho(s) for the built-in meridians"
    extends partialCoordinate;
  algorithm
    if surface == 1 or surface == 4 then
      s := rho/a;
    elseif surface == 2 or surface == 3 then
      s := asin(rho/a);
    else
      s := asin((rho - b)/a);
    end if;
    annotation(Documentation(info = "<html><p>The inverse of <code>rho(s)</code> for the built-in meridians: <code>s = rho/a</code> (paraboloid, cone), <code>asin(rho/a)</code> (bowls), <code>asin((rho - b)/a)</code> (torus trough).</p></html>"));
  end builtInCoordinate;

  function centrePosition "Position of the ball centre at surface coordinates (s, phi), world frame"
    extends Nonholonomic.Icons.Function;
    input Units.Coordinate s "Meridian coordinate";
    input Units.Angle phi "Azimuth";
    input Integer surface "Code of the built-in meridian";
    input Units.Length a "First shape parameter";
    input Units.Length b "Second shape parameter";
    output Units.Position r_0[3] "Centre position, world frame";
  protected
    Units.Length rho, zeta, drho, dzeta, ddrho, ddzeta;
  algorithm
    (rho, zeta, drho, dzeta, ddrho, ddzeta) := builtInMeridian(s, surface, a, b);
    r_0 := {rho*cos(phi), rho*sin(phi), zeta};
    annotation(Documentation(info = "<html><p>The position <code>(rho cos(phi), rho sin(phi), zeta)</code> of the ball's centre at the surface coordinates <code>(s, phi)</code> of a built-in meridian: for initial states.</p></html>"));
  end centrePosition;

  function centreVelocity "Velocity of the ball centre for coordinate rates (ds, dphi), world frame"
    extends Nonholonomic.Icons.Function;
    input Units.Coordinate s "Meridian coordinate";
    input Units.Angle phi "Azimuth";
    input Real ds(unit = "1/s") "ds/dt";
    input Units.AngularVelocity dphi "dphi/dt";
    input Integer surface "Code of the built-in meridian";
    input Units.Length a "First shape parameter";
    input Units.Length b "Second shape parameter";
    output Units.Velocity v_0[3] "Centre velocity, world frame";
  protected
    Units.Length rho, zeta, drho, dzeta, ddrho, ddzeta;
  algorithm
    (rho, zeta, drho, dzeta, ddrho, ddzeta) := builtInMeridian(s, surface, a, b);
    v_0 := {drho*ds*cos(phi) - rho*dphi*sin(phi), drho*ds*sin(phi) + rho*dphi*cos(phi), dzeta*ds};
    annotation(Documentation(info = "<html><p>The velocity of the ball's centre for the coordinate rates <code>(ds, dphi)</code> at <code>(s, phi)</code> of a built-in meridian: for initial states.</p></html>"));
  end centreVelocity;

  function rollingAngularVelocity "Angular velocity of a ball rolling without slipping, world frame"
    extends Nonholonomic.Icons.Function;
    input Units.Coordinate s "Meridian coordinate";
    input Units.Angle phi "Azimuth";
    input Real ds(unit = "1/s") "ds/dt";
    input Units.AngularVelocity dphi "dphi/dt";
    input Units.Velocity Lambda "R times the spin about the surface normal";
    input Units.Length R "Ball radius";
    input Integer surface "Code of the built-in meridian";
    input Units.Length a "First shape parameter";
    input Units.Length b "Second shape parameter";
    output Units.AngularVelocity w_0[3] "Angular velocity, world frame";
  protected
    Units.Length rho, zeta, drho, dzeta, ddrho, ddzeta, h1;
    Real e1[3], e2[3], e3[3];
  algorithm
    (rho, zeta, drho, dzeta, ddrho, ddzeta) := builtInMeridian(s, surface, a, b);
    h1 := sqrt(drho^2 + dzeta^2);
    e1 := {drho*cos(phi), drho*sin(phi), dzeta}/h1;
    e2 := {-sin(phi), cos(phi), 0.0};
    e3 := {-dzeta*cos(phi), -dzeta*sin(phi), drho}/h1;
    // no slip v = R w x e3 (Kosenko et al. 2024, eq. (11)): w = (-rho dphi e1 + h1 ds e2 + Lambda e3)/R
    w_0 := (-rho*dphi*e1 + h1*ds*e2 + Lambda*e3)/R;
    annotation(Documentation(info = "<html><p>The angular velocity of a ball of radius <code>R</code> rolling without slipping with its centre at <code>(s, phi)</code>, moving at <code>(ds, dphi)</code>, spinning about the normal with <code>Lambda = R w.e3</code>: <code>w = (-rho dphi e1 + h1 ds e2 + Lambda e3)/R</code> (Kosenko, Kuleshov, Shishkov 2024, eq. (11)); for initial states.</p></html>"));
  end rollingAngularVelocity;

  annotation(Documentation(info = "<html>
<p>A surface of revolution about the world z axis is given by its meridian <code>(rho(s), zeta(s))</code>.
In the ball contact it is the surface traced by the ball's centre; the supporting surface is its offset by
the ball radius (Kosenko, Kuleshov, Shishkov 2024). Built-in meridians, selected by the Integer
<code>surface</code> without rebuilding an FMU:</p>
<table border=1 cellspacing=0 cellpadding=2>
<tr><th>code</th><th>surface</th><th>rho(s)</th><th>zeta(s)</th></tr>
<tr><td>1</td><td>paraboloid</td><td>a s</td><td>a s^2/2</td></tr>
<tr><td>2</td><td>spherical bowl</td><td>a sin s</td><td>-a cos s</td></tr>
<tr><td>3</td><td>ellipsoid bowl</td><td>a sin s</td><td>-b cos s</td></tr>
<tr><td>4</td><td>cone</td><td>a s</td><td>b s</td></tr>
<tr><td>5</td><td>torus trough</td><td>b + a sin s</td><td>-a cos s</td></tr>
</table>
<p>A user-defined meridian extends <code>partialMeridian</code> and <code>partialCoordinate</code> (the
inverse of <code>rho(s)</code>) and is passed to the contact by <code>redeclare function</code>. The
meridian must satisfy <code>d rho/ds &gt; 0</code> where the ball moves.</p>
</html>"));
end Surfaces;
