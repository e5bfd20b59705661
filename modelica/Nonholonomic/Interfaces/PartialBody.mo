within Nonholonomic.Interfaces;
partial model PartialBody "Base class of bodies: one kinematic port, nW wrench ports and their resultant"
  parameter Integer nW(min = 1) = 1 "Number of constraints acting on the body (size of w)";
  parameter Integer shapeType(min = 0, max = 8) = Visualizers.inertia "Visual shape for animation: a constant of Visualizers (default: the ellipsoid of inertia; the ground: the plane z = 0)" annotation(Dialog(tab = "Animation"));
  parameter Units.Length shapeSize[3] = {0.1, 0.1, 0.1} "Size of the visual shape (meaning by shapeType)" annotation(Dialog(tab = "Animation"));
  parameter Integer shapeCode = 0 "Axis of a cylinder, ring or gear (1 x, 2 y, 3 z; 0: z); the built-in meridian of a surface of revolution" annotation(Dialog(tab = "Animation"));
  parameter Integer color[3](each min = 0, each max = 255) = {200, 80, 60} "Colour of the visual shape, RGB" annotation(Dialog(tab = "Animation"));
  parameter Units.DimensionlessRatio opacity(min = 0, max = 1) = 1 "Opacity of the visual shape (0: invisible, 1: opaque)" annotation(Dialog(tab = "Animation"));
  KinematicOutput k "Kinematics of the body" annotation(Placement(transformation(extent = {{-90, 30}, {-110, 50}})));
  WrenchInput w[nW] "Wrenches of the constraints acting on the body" annotation(Placement(transformation(extent = {{-110, -50}, {-90, -30}})));
  Units.Force f_0[3] "Resultant constraint force, world frame";
  Units.Torque t_0[3] "Resultant constraint torque about the centre of mass (k.r_0), world frame";
protected
  Units.Torque t_i_0[nW, 3] "Torque of each wrench about the centre of mass, world frame";
equation
  for i in 1:nW loop
    t_i_0[i, :] = w[i].t_0 + cross(w[i].p_0 - k.r_0, w[i].f_0);
  end for;
  f_0 = {sum(w[i].f_0[j] for i in 1:nW) for j in 1:3};
  t_0 = {sum(t_i_0[i, j] for i in 1:nW) for j in 1:3};
  annotation(Documentation(info = "<html>
<p>A body receives the wrenches of the constraints acting on it through the array <code>w</code>, each with
its own application point, and moves them to its centre of mass: <code>t = t_0 + (p_0 - r_0) x f_0</code>
(Kosenko 2022, sec. 3). Set <code>nW</code> to the number of constraints connected to the body.</p>
</html>"));
end PartialBody;
