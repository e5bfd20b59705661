within Nonholonomic;
package UsersGuide "User's Guide"
  extends Nonholonomic.Icons.Information;

  class Overview "Overview: bodies, constraints, and the three families of interactions"
    extends Nonholonomic.Icons.Information;
    annotation(Documentation(info = "<html>
<p><b>Nonholonomic</b> models systems of rigid bodies that roll, slide and pivot on each other, in the physically
oriented multiport style of I. I. Kosenko (Kosenko 2022). A model is a graph: its nodes are <b>bodies</b>, its
edges are <b>interactions</b> between two bodies. Every interaction has a body A and a body B; the ground
(<a href=\"modelica://Nonholonomic.Bodies.Ground\">Bodies.Ground</a>, the world frame) is a body like any other.</p>

<h4>What a body sends and what an interaction returns</h4>
<ul>
<li>A <b>body</b> (<a href=\"modelica://Nonholonomic.Bodies.RigidBody\">RigidBody</a>,
<a href=\"modelica://Nonholonomic.Bodies.Rotor\">Rotor</a>, Ground) integrates its own equations of motion (Newton
for the centre of mass in the world frame, Euler in its principal axes, a unit quaternion for its attitude) and
sends its kinematics through its output port <code>k</code>
(<a href=\"modelica://Nonholonomic.Interfaces.KinematicOutput\">KinematicOutput</a>): position <code>r_0</code>,
rotation matrix <code>T</code>, velocity <code>v_0</code>, angular velocity <code>w_0</code>, acceleration
<code>a_0</code> and angular acceleration <code>z_0</code> of its centre of mass.</li>
<li>An <b>interaction</b> reads the kinematics of its two bodies through <code>kA</code> and <code>kB</code>
(<a href=\"modelica://Nonholonomic.Interfaces.KinematicInput\">KinematicInput</a>) and returns a wrench to each of
them through <code>wA</code> and <code>wB</code>
(<a href=\"modelica://Nonholonomic.Interfaces.WrenchOutput\">WrenchOutput</a>): a force <code>f_0</code>, a torque
<code>t_0</code> and the point <code>p_0</code> where they act. The two wrenches are equal and opposite about the
same point (the third law, <a href=\"modelica://Nonholonomic.Interfaces.PartialInteraction\">PartialInteraction</a>).</li>
<li>A body collects the wrenches of all interactions acting on it in its array input <code>w[nW]</code>
(<a href=\"modelica://Nonholonomic.Interfaces.WrenchInput\">WrenchInput</a>), one element for each, and moves them
to its centre of mass (<a href=\"modelica://Nonholonomic.Interfaces.PartialBody\">PartialBody</a>). Set
<code>nW</code> to the number of interactions on the body.</li>
</ul>
<p>Information flows one way on each cable: kinematics from bodies to interactions, wrenches from interactions to
bodies. There are no flow variables and no potential variables; every connection is an output connected to an
input.</p>

<h4>The three families of interactions</h4>
<table border=1 cellspacing=0 cellpadding=3>
<tr><th>family</th><th>what it states</th><th>components</th></tr>
<tr><td><b>ideal constraints</b></td><td>kinematic relations (a holonomic constraint twice differentiated, a
nonholonomic one once) at acceleration level with Baumgarte stabilisation <code>g'' + 2 alpha g' + beta^2 g = 0</code>;
the reaction is an unknown determined by them, as many components as relations</td>
<td><a href=\"modelica://Nonholonomic.Joints\">Joints</a> (Revolute, SphericalHinge, NonholonomicHinge,
PlanarSupport, ...), <a href=\"modelica://Nonholonomic.Contacts\">Contacts</a> for rolling without slipping
(DiskOnPlane, BallOnPlane, BallOnSurfaceOfRevolution, KnifeEdge, RollerPlaneContact)</td></tr>
<tr><td><b>servo-constraints</b></td><td>a relative motion prescribed as a function of time (a rider, a motor
holding a speed), stated at acceleration level like an ideal constraint; its reaction is the actuator's torque</td>
<td><a href=\"modelica://Nonholonomic.Joints.ServoRevolute\">ServoRevolute</a>,
<a href=\"modelica://Nonholonomic.Joints.ShaftDrive\">ShaftDrive</a></td></tr>
<tr><td><b>compliant contacts</b></td><td>a force law of the bodies' states: Hertz pressure over the contact
patch, Coulomb friction integrated over it (force and pivoting torque, Contensou); no constraint, no unknown</td>
<td><a href=\"modelica://Nonholonomic.Contacts.SphereOnPlaneElastic\">SphereOnPlaneElastic</a>,
<a href=\"modelica://Nonholonomic.Contacts.BallOnRaceway\">BallOnRaceway</a>,
<a href=\"modelica://Nonholonomic.Contacts.BallInPocket\">BallInPocket</a>,
<a href=\"modelica://Nonholonomic.Contacts.InvoluteToothContact\">InvoluteToothContact</a></td></tr>
</table>
<p>Every assembled model is an index-1 DAE whose states are the states of its bodies: the accelerations and the
reactions of the ideal constraints and servo-constraints form a linear system, solved at every step. The same
sources compile in OpenModelica and in rumoca; the library does not use the Modelica Standard Library.</p>

<h4>Frames and units</h4>
<ul>
<li>Vectors are resolved in the world frame when their name ends in <code>_0</code>, in the body frame when it
ends in <code>_b</code> (<code>_a</code>, <code>_b</code> in an interaction's parameters: the frame of body A, of
body B). The world z axis points up; gravity is a parameter of each body (default <code>{0, 0, -9.81}</code>).</li>
<li><code>T</code> resolves body-frame vectors in the world frame: <code>v_0 = T v_b</code>. Quaternions are scalar
first, <code>Q = {cos(a/2), n sin(a/2)}</code> (<a href=\"modelica://Nonholonomic.Rotations\">Rotations</a>).</li>
<li>Every parameter and variable carries its SI unit (<a href=\"modelica://Nonholonomic.Units\">Units</a>):
metres, seconds, radians, kilograms, newtons.</li>
<li>A torque in a wrench is taken about the wrench's point <code>p_0</code>; a body converts it to its centre of
mass, <code>t = t_0 + (p_0 - r_0) x f_0</code>.</li>
</ul>

<h4>Where to go next</h4>
<p>The <a href=\"modelica://Nonholonomic.UsersGuide.Tutorial\">Tutorial</a> builds a rolling disk in OMEdit;
<a href=\"modelica://Nonholonomic.UsersGuide.Connectors\">Connectors</a> states the connection rules;
<a href=\"modelica://Nonholonomic.Examples\">Examples</a> holds the systems of the papers, each with an
<code>experiment</code> annotation and verified against an independent reference model by the project's Python
package (<code>nonholonomic verify</code>).</p>
</html>"));
  end Overview;

  class Tutorial "Tutorial: a disk rolling on a plane, built in OMEdit"
    extends Nonholonomic.Icons.Information;
    annotation(Documentation(info = "<html>
<p>This tutorial builds, step by step, a thin disk rolling without slipping on a horizontal plane from three
components: the ground, a rigid body and a rolling contact. The result is the example
<a href=\"modelica://Nonholonomic.Examples.RollingDisk\">Examples.RollingDisk</a>; compare with it at the end.</p>

<h4>1. Open the library</h4>
<p>In OMEdit, <i>File &gt; Open Model/Library File(s)</i> and choose <code>modelica/Nonholonomic/package.mo</code>.
The library appears in the Libraries Browser. Create a new model: <i>File &gt; New &gt; New Modelica Class</i>,
name <code>MyRollingDisk</code>, specialization <i>Model</i>. (To export it as an FMU with the project's own
tools later, create it inside <code>Nonholonomic.Examples</code>: give <code>Nonholonomic.Examples</code> as the
class it is inserted in.)</p>

<h4>2. Place the components</h4>
<p>Drag from the Libraries Browser into the diagram, from left to right:</p>
<ol>
<li><a href=\"modelica://Nonholonomic.Bodies.Ground\">Bodies.Ground</a>, name <code>ground</code>;</li>
<li><a href=\"modelica://Nonholonomic.Contacts.DiskOnPlane\">Contacts.DiskOnPlane</a>, name <code>contact</code>;</li>
<li><a href=\"modelica://Nonholonomic.Bodies.RigidBody\">Bodies.RigidBody</a>, name <code>disk</code>.</li>
</ol>
<p>The ground is body A of the contact (the plane <code>z = 0</code>), the disk is body B. A body has its ports on its
left side, the kinematics <code>k</code> above and the wrenches <code>w</code> below; an interaction has body A's
ports on its left and body B's on its right. Flip the ground horizontally (right-click, <i>Flip Horizontal</i>), so
that its ports face the contact: the cables then run straight from left to right.</p>

<h4>3. Connect them</h4>
<p>Draw four connections (click a port, then the other; OMEdit routes the line):</p>
<ul>
<li><code>ground.k</code> (filled blue triangle, upper side) to <code>contact.kA</code> (open blue triangle, upper
left): the contact reads the ground's kinematics;</li>
<li><code>disk.k</code> to <code>contact.kB</code> (upper right): the contact reads the disk's kinematics;</li>
<li><code>contact.wA</code> (filled orange square, lower left) to <code>ground.w</code> (open orange square, lower
side): OMEdit asks for the index of the array element: <code>1</code>;</li>
<li><code>contact.wB</code> (lower right) to <code>disk.w</code>, element <code>1</code>.</li>
</ul>
<p>Each body has one interaction acting on it, so set <code>nW = 1</code> on both (double-click the component,
<i>Parameters</i>); it is the size of the array <code>w</code>.</p>

<h4>4. Set the parameters</h4>
<p>On <code>contact</code>: <code>R = 0.1</code> (the radius) and <code>n_b = {0, 0, 1}</code> (the disk's symmetry
axis is its body z axis). On <code>disk</code>: <code>m = 1</code>, <code>I_b = {0.0025, 0.0025, 0.005}</code> (a thin
homogeneous disk, <code>m R^2/4</code> about a diameter and <code>m R^2/2</code> about its axis). The initial state
must satisfy the constraints: the disk tilted by <code>theta = 1.4 rad</code> from the vertical, its contact point
at the origin, spinning at 15 rad/s and precessing at 1 rad/s:</p>
<pre>
Q_start   = Nonholonomic.Rotations.fromEulerZXZ(0, 1.4, 0)
w_0_start = Nonholonomic.Rotations.angularVelocityZXZ(0, 1.4, 1, 0, 15)
r_0_start = -0.1*{0, -cos(1.4), -sin(1.4)}        (the centre R above the contact point, in the disk's plane)
v_0_start = -0.1*cross(w_0_start, {0, -cos(1.4), -sin(1.4)})  (rolling without slipping: v = w x (centre - contact point))
</pre>
<p>(RollingDisk declares these as parameters of the model and computes them the same way.) Gravity is the
default <code>g_0 = {0, 0, -9.81}</code>.</p>

<h4>5. Simulate</h4>
<p><i>Simulation &gt; Simulation Setup</i>: stop time 10 s, tolerance 1e-10, then <i>Simulate</i>. Plot
<code>disk.r_0</code> (the centre traces loops), <code>disk.energy</code> (constant to the solver's tolerance),
and the constraints' drift <code>contact.gap</code> and <code>contact.slip</code> (zero to the solver's tolerance:
Baumgarte stabilisation keeps them there). <code>contact.N</code> is the normal reaction, about <code>m g</code>.</p>
<p>To keep the settings with the model, add <code>annotation(experiment(StopTime = 10, Tolerance = 1e-10,
Interval = 0.01))</code> (OMEdit: <i>Simulation Setup &gt; Save experiment annotation</i>).</p>

<h4>6. The FMU</h4>
<ul>
<li>With OpenModelica: <i>File &gt; Export &gt; FMU</i> in OMEdit (or <code>buildModelFMU</code> in a script).</li>
<li>With the project's Python package (rumoca and CasADi, no OpenModelica needed): the model must be a class of
<code>Nonholonomic.Examples</code> in its own file <code>Examples/MyRollingDisk.mo</code>, listed in
<code>Examples/package.order</code> (OMEdit writes both when the class is created there, step 1). Then
<pre>
nonholonomic build MyRollingDisk                        # writes fmus/MyRollingDisk.fmu
nonholonomic simulate MyRollingDisk --out disk.csv      # runs it with the experiment annotation's settings
</pre>
The FMU's inputs, outputs and parameters are the model's Modelica declarations: declare
<code>output</code> variables (as RollingDisk does, <code>output Units.Position r_0[3] = disk.r_0</code>) for what
you want to read. A parameter bound to others (<code>parameter Units.Inertia A = m*R^2/4</code>) follows them but
is a calculated parameter of the FMU, not settable; for a default that follows and may be set, RollingDisk declares
<code>A = 0</code> (\"0: thin homogeneous disk, m R^2/4\") and uses <code>final parameter Units.Inertia A_used = if
A &gt; 0 then A else m*R^2/4</code>.</li>
</ul>

<h4>What to try next</h4>
<ul>
<li>Replace <code>DiskOnPlane</code> by <a href=\"modelica://Nonholonomic.Contacts.BallOnPlane\">BallOnPlane</a>
for a ball (the Chaplygin ball: unequal moments of inertia, <code>c_b = 0</code>).</li>
<li>Add a second contact on the same body: raise its <code>nW</code> to 2 and connect the new contact's
<code>wB</code> to <code>w[2]</code>.</li>
<li>Replace the ideal contact by a compliant one,
<a href=\"modelica://Nonholonomic.Contacts.SphereOnPlaneElastic\">SphereOnPlaneElastic</a> (same ports), to let the
body slide and bounce.</li>
</ul>
</html>"));
  end Tutorial;

  class Connectors "Connectors: the kinematic and wrench ports and how to connect them"
    extends Nonholonomic.Icons.Information;
    annotation(Documentation(info = "<html>
<p>The library has two kinds of cable (Kosenko 2022) and four connectors, all causal (<code>input</code> or
<code>output</code> variables, no flow variables):</p>
<table border=1 cellspacing=0 cellpadding=3>
<tr><th>connector</th><th>icon</th><th>on</th><th>variables</th></tr>
<tr><td><a href=\"modelica://Nonholonomic.Interfaces.KinematicOutput\">KinematicOutput</a></td><td>filled blue
triangle</td><td>a body: <code>k</code></td><td rowspan=2><code>r_0[3]</code> position [m], <code>T[3,3]</code>
rotation matrix (body to world), <code>v_0[3]</code> velocity [m/s], <code>w_0[3]</code> angular velocity [rad/s],
<code>a_0[3]</code> acceleration [m/s2], <code>z_0[3]</code> angular acceleration [rad/s2]: of the centre of mass,
world frame</td></tr>
<tr><td><a href=\"modelica://Nonholonomic.Interfaces.KinematicInput\">KinematicInput</a></td><td>open blue
triangle</td><td>an interaction: <code>kA</code>, <code>kB</code>; a Rotor: <code>kCarrier</code></td></tr>
<tr><td><a href=\"modelica://Nonholonomic.Interfaces.WrenchOutput\">WrenchOutput</a></td><td>filled orange
square</td><td>an interaction: <code>wA</code>, <code>wB</code>; a Rotor: <code>wCarrier</code></td>
<td rowspan=2><code>f_0[3]</code> force [N], <code>t_0[3]</code> torque about <code>p_0</code> [N.m],
<code>p_0[3]</code> point of application [m]: world frame</td></tr>
<tr><td><a href=\"modelica://Nonholonomic.Interfaces.WrenchInput\">WrenchInput</a></td><td>open orange
square</td><td>a body: <code>w[nW]</code></td></tr>
</table>
<p>A fifth connector, <a href=\"modelica://Nonholonomic.Interfaces.RealOutput\">RealOutput</a>, passes a signal of
an assembly (an omni-wheel's contact roller, its slip) up to the model that contains it.</p>

<h4>Rules</h4>
<ol>
<li>Each interaction is connected to exactly two bodies: <code>kA</code> from body A's <code>k</code>,
<code>kB</code> from body B's <code>k</code>, <code>wA</code> to one element of body A's <code>w</code>,
<code>wB</code> to one element of body B's <code>w</code>. Which body is A matters where the component says so
(the ground is body A of the contacts with the plane <code>z = 0</code>; the pinion is body A of a gear mesh).</li>
<li>A body's <code>k</code> may feed any number of interactions (an output connected to many inputs).</li>
<li>Every element of a body's <code>w[nW]</code> receives exactly one wrench: set <code>nW</code> to the number of
interactions acting on the body and number them <code>w[1]</code> ... <code>w[nW]</code>. An unconnected element is
an unbound input (the model does not check).</li>
<li>The ground is a body: connect it like one, with its own <code>nW</code>. Its <code>f_0</code> and
<code>t_0</code> are the resultant reaction on it.</li>
<li>A <a href=\"modelica://Nonholonomic.Bodies.Rotor\">Rotor</a> is a body mounted on a carrier body: its
<code>kCarrier</code> reads the carrier's <code>k</code>, its <code>wCarrier</code> goes to one element of the
carrier's <code>w</code>; other interactions act on it through its own <code>k</code> and <code>w</code>.</li>
<li>Assemblies (<a href=\"modelica://Nonholonomic.Vehicles.OmniWheel\">OmniWheel</a>,
<a href=\"modelica://Nonholonomic.Vehicles.SkateboardTruck\">SkateboardTruck</a>) follow the same rules on their
outer ports: the ground's kinematics in (<code>kGround</code>), the contact wrenches out (<code>wGround</code>, one
per contact: that many elements of the ground's <code>w</code>).</li>
</ol>
<h4>Where the ports are</h4>
<p>A body has its ports on its left side: <code>k</code> above, <code>w</code> below. An interaction has body A's
ports on its left (<code>kA</code> above, <code>wA</code> below) and body B's on its right (<code>kB</code>,
<code>wB</code>), at the same heights. So a body placed to the right of an interaction connects to its B side with
two straight cables; a body placed to its left (the ground, usually) is flipped horizontally. In the diagrams of the
examples kinematic cables are blue and wrench cables orange, the ground stands on the left and the bodies on the
right, the interactions between them.</p>
</html>"));
  end Connectors;

  class ReleaseNotes "Release notes"
    extends Nonholonomic.Icons.Information;
    annotation(Documentation(info = "<html>
<h4>Version 0.1.0 (2026-11-28)</h4>
<p>First release.</p>
<ul>
<li>Bodies: rigid body (Newton-Euler, quaternion attitude), ground, rotor on a carrier.</li>
<li>Ideal constraints: revolute joints (rigid, compliant along the axis, suspended, elastic about the axis),
spherical and nonholonomic hinges, planar support; rolling without slipping of a disk, a ball with an offset centre
of mass, a ball on a surface of revolution (built-in or user meridians), a knife edge; the roller contact of
omni-wheels and mecanum wheels (Signorini switch, regularised Coulomb friction, the change of the roller in contact
as a state event).</li>
<li>Servo-constraints: a revolute joint following a prescribed angle, a shaft drive at a prescribed speed.</li>
<li>Compliant contacts: Hertz contact of a sphere on a plane and of a ball in a bearing's groove (elliptic patch),
Coulomb-Contensou friction over the patch with four friction laws; the involute mesh of spur gears.</li>
<li>Assemblies: omni-wheels and omni-wheel vehicles (massive rollers with friction; massive truncated rollers with
impacts), the skateboard's truck.</li>
<li>24 examples from the papers (<a href=\"modelica://Nonholonomic.UsersGuide.References\">References</a>), each
verified against an independent reference model.</li>
<li>OpenModelica: the library loads without a warning, and every example checks and translates without an error
or a warning; a users' guide, icons, diagrams and documentation for OMEdit.</li>
</ul>
</html>"));
  end ReleaseNotes;

  class References "References"
    extends Nonholonomic.Icons.Information;
    annotation(Documentation(info = "<html>
<p>The papers the library is built on (the seeds of the project) and the sources of its force laws.</p>
<table border=0 cellspacing=0 cellpadding=3>
<tr><td valign=top>[Kosenko 2022]</td><td>I. I. Kosenko. On one way to build up a computer model of the multibody
system dynamics. <i>Vestnik of Saint Petersburg University. Mathematics. Mechanics. Astronomy</i> 9 (67), issue 1,
126-134, 2022. The multiport style of the library: bodies, constraints, kinematic and wrench cables, the rolling
disk and the wheelset.</td></tr>
<tr><td valign=top>[Kosenko, Kuleshov, Shishkov 2024]</td><td>I. I. Kosenko, A. S. Kuleshov, A. A. Shishkov. The
problem of a ball rolling on a surface of revolution and its numerical analysis. <i>Trudy MAI</i> 136, 2024.
<a href=\"modelica://Nonholonomic.Contacts.BallOnSurfaceOfRevolution\">BallOnSurfaceOfRevolution</a>.</td></tr>
<tr><td valign=top>[Bizyaev, Borisov, Mamaev 2013]</td><td>I. A. Bizyaev, A. V. Borisov, I. S. Mamaev. Dynamics of
nonholonomic systems consisting of a spherical shell with a moving rigid body inside. <i>Rus. J. Nonlin. Dyn.</i>
9 (3), 547-566, 2013. The shell examples, the nonholonomic hinge and the bundle.</td></tr>
<tr><td valign=top>[Borisov, Mamaev, Bizyaev 2016]</td><td>A. V. Borisov, I. S. Mamaev, I. A. Bizyaev. Historical
and critical review of the development of nonholonomic mechanics: the classical period. <i>Regular and Chaotic
Dynamics</i> 21 (4), 455-476, 2016. The classical problems: the Chaplygin ball and sleigh, the Routh sphere.</td></tr>
<tr><td valign=top>[Gerasimov 2018]</td><td>K. V. Gerasimov. Dynamics of an omni-wheel vehicle with the inertia of
its rollers and friction (in Russian). Thesis, Lomonosov Moscow State University, 2018. The omni-wheel vehicles:
massive rollers with impacts (ch. 1-2), with friction (ch. 3).</td></tr>
<tr><td valign=top>[Borisov, Kilin, Mamaev 2011]</td><td>A. V. Borisov, A. A. Kilin, I. S. Mamaev. An omni-wheel
vehicle on a plane and a sphere. <i>Rus. J. Nonlin. Dyn.</i> 7 (4), 785-801, 2011. The massless-roller model and
mecanum wheels.</td></tr>
<tr><td valign=top>[Vil'ke, Kosenko, Aleksandrov 2009]</td><td>V. G. Vil'ke, I. I. Kosenko, E. B. Aleksandrov. On
computer implementation of the Hertz elastic contact model and its simplifications. <i>Regular and Chaotic
Dynamics</i> 14 (6), 693-714, 2009. The compliant contacts: Hertz pressure and Contensou friction over the patch,
the tippe-top and the ball bearing.</td></tr>
<tr><td valign=top>[Kosenko, Kuleshov 2008]</td><td>I. I. Kosenko, A. S. Kuleshov. Modelica implementation of the
skateboard dynamics. <i>Proceedings of the 6th International Modelica Conference</i>, Bielefeld, 727-734, 2008. The
skateboard, after M. Hubbard, Lateral dynamics and stability of the skateboard, <i>J. Applied Mechanics</i> 46,
1979.</td></tr>
<tr><td valign=top>[Leine, Glocker 2003]</td><td>R. I. Leine, Ch. Glocker. A set-valued force law for spatial
Coulomb-Contensou friction. <i>European J. Mechanics A/Solids</i> 22 (2), 2003. The ellipsoidal friction law and
the tippe-top.</td></tr>
<tr><td valign=top>[Zhuravlev 1998]</td><td>V. Ph. Zhuravlev. The model of dry friction in the problem of the
rolling of rigid bodies. <i>J. Applied Mathematics and Mechanics (PMM)</i> 62 (5), 1998. The Pade approximation
of the friction law.</td></tr>
<tr><td valign=top>[Johnson 1985]</td><td>K. L. Johnson. <i>Contact Mechanics</i>. Cambridge University Press,
1985. Hertz contact of spheres and of cylinders (gear teeth).</td></tr>
<tr><td valign=top>[Hamrock, Brewe 1983]</td><td>B. J. Hamrock, D. E. Brewe. Simplified solution for stresses and
deformations. <i>J. Lubrication Technology</i> 105 (2), 1983. The elliptic contacts of the ball bearing; also T. A.
Harris, M. N. Kotzalas, <i>Rolling Bearing Analysis</i>.</td></tr>
</table>
</html>"));
  end References;

  class Contact "Contact"
    extends Nonholonomic.Icons.Information;
    annotation(Documentation(info = "<html>
<p>The Nonholonomic library is developed by the maintainers of the Nonholonomic project, together with its Python
package (FMU export with rumoca and CasADi, reference models from the papers, verification, sweeps and benchmarks;
see the project's <code>README.md</code>). Questions, bug reports and proposals: the issue tracker of the
project's repository. A report is most useful with the model (or the example and the parameters changed), the
tool and its version, and the message or the result that is wrong.</p>
<p>The modelling approach, the multiport style with ideal constraints, servo-constraints and compliant contacts,
is that of I. I. Kosenko (Moscow Aviation Institute, Lomonosov Moscow State University); see
<a href=\"modelica://Nonholonomic.UsersGuide.References\">References</a>.</p>
<p>License: MIT (the project's <code>pyproject.toml</code>).</p>
</html>"));
  end Contact;

  annotation(Documentation(info = "<html>
<p>The users' guide of the Nonholonomic library:</p>
<ul>
<li><a href=\"modelica://Nonholonomic.UsersGuide.Overview\">Overview</a>: bodies and interactions, the three
families of constraints, frames and units;</li>
<li><a href=\"modelica://Nonholonomic.UsersGuide.Tutorial\">Tutorial</a>: a rolling disk built in OMEdit, and its
FMU;</li>
<li><a href=\"modelica://Nonholonomic.UsersGuide.Connectors\">Connectors</a>: the ports and how to connect them;</li>
<li><a href=\"modelica://Nonholonomic.UsersGuide.ReleaseNotes\">Release notes</a>;</li>
<li><a href=\"modelica://Nonholonomic.UsersGuide.References\">References</a>: the papers;</li>
<li><a href=\"modelica://Nonholonomic.UsersGuide.Contact\">Contact</a>.</li>
</ul>
</html>"));
end UsersGuide;
