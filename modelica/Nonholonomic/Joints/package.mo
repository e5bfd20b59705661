within Nonholonomic;
package Joints "Joints between two bodies"
  extends Nonholonomic.Icons.Package;

  partial model PartialRevolute "Common kinematics of revolute joints: a point of A and a point of B, and an axis of each"
    extends Interfaces.PartialConstraint;
    parameter Units.Position p_a[3] = {0, 0, 0} "Joint point in body A, relative to A's centre of mass, frame of A";
    parameter Units.Position p_b[3] = {0, 0, 0} "Joint point in body B, relative to B's centre of mass, frame of B";
    parameter Real n_a[3] = {0, 0, 1} "Unit joint axis, frame of A";
    parameter Real n_b[3] = {0, 0, 1} "Unit joint axis, frame of B";
    parameter Units.Frequency alpha(min = 0) = 20 "Baumgarte damping rate of the constraint velocity drift";
    parameter Units.Frequency beta(min = 0) = 20 "Baumgarte stiffness of the constraint position drift";
    Units.AngularVelocity w_rel "Angular velocity of B relative to A about the axis";
    Units.Position delta_0[3] "Position of B's joint point relative to A's, world frame (0 for a rigid joint)";
  protected
    final parameter Real e1_a[3] = Rotations.perpendicular(n_a) "Unit vector perpendicular to the axis, frame of A";
    final parameter Real e2_a[3] = cross(n_a, e1_a) "Unit vector perpendicular to the axis and to e1_a, frame of A";
    Real u_0[3] "Axis of A, world frame";
    Real e1_0[3] "e1_a, world frame";
    Real e2_0[3] "e2_a, world frame";
    Real de1_0[3](each unit = "1/s") "de1_0/dt";
    Real de2_0[3](each unit = "1/s") "de2_0/dt";
    Real dde1_0[3](each unit = "1/s2") "d2e1_0/dt2";
    Real dde2_0[3](each unit = "1/s2") "d2e2_0/dt2";
    Real ub_0[3] "Axis of B, world frame";
    Real dub_0[3](each unit = "1/s") "dub_0/dt";
    Real ddub_0[3](each unit = "1/s2") "d2ub_0/dt2";
    Units.Position rhoA_0[3] "Joint point of A relative to A's centre of mass, world frame";
    Units.Position rhoB_0[3] "Joint point of B relative to B's centre of mass, world frame";
    Units.Velocity ddelta_0[3] "d delta_0/dt";
    Units.Acceleration dddelta_0[3] "d2 delta_0/dt2";
  equation
    u_0 = kA.T*n_a;
    e1_0 = kA.T*e1_a;
    e2_0 = kA.T*e2_a;
    de1_0 = cross(kA.w_0, e1_0);
    de2_0 = cross(kA.w_0, e2_0);
    dde1_0 = cross(kA.z_0, e1_0) + cross(kA.w_0, de1_0);
    dde2_0 = cross(kA.z_0, e2_0) + cross(kA.w_0, de2_0);
    ub_0 = kB.T*n_b;
    dub_0 = cross(kB.w_0, ub_0);
    ddub_0 = cross(kB.z_0, ub_0) + cross(kB.w_0, dub_0);
    rhoA_0 = kA.T*p_a;
    rhoB_0 = kB.T*p_b;
    delta_0 = kB.r_0 + rhoB_0 - kA.r_0 - rhoA_0;
    ddelta_0 = kB.v_0 + cross(kB.w_0, rhoB_0) - kA.v_0 - cross(kA.w_0, rhoA_0);
    dddelta_0 = kB.a_0 + cross(kB.z_0, rhoB_0) + cross(kB.w_0, cross(kB.w_0, rhoB_0))
      - kA.a_0 - cross(kA.z_0, rhoA_0) - cross(kA.w_0, cross(kA.w_0, rhoA_0));
    // the axes stay parallel: e1.ub = e2.ub = 0, at acceleration level
    dde1_0*ub_0 + 2*(de1_0*dub_0) + e1_0*ddub_0 + 2*alpha*(de1_0*ub_0 + e1_0*dub_0) + beta^2*(e1_0*ub_0) = 0;
    dde2_0*ub_0 + 2*(de2_0*dub_0) + e2_0*ddub_0 + 2*alpha*(de2_0*ub_0 + e2_0*dub_0) + beta^2*(e2_0*ub_0) = 0;
    p_0 = kB.r_0 + rhoB_0;
    w_rel = (kB.w_0 - kA.w_0)*u_0;
    annotation(Documentation(info = "<html><p>Kinematics shared by the revolute joints: the relative position
<code>delta_0</code> of the joint points and its derivatives, and the two relations at acceleration level
that keep the axes parallel. The reaction torque has no component about the axis; the reaction acts at
B's joint point.</p></html>"));
  end PartialRevolute;

  partial model PartialTwistRevolute "Rigid revolute joint with the angle of B relative to A: base of joints that set the torque about the axis"
    extends PartialRevolute;
    Units.Angle phi "Angle of B relative to A about the axis (continuous near phi_c, see the documentation)";
    Units.AngularAcceleration dw_rel "Time derivative of w_rel";
    Units.Torque tau "Torque of A on B about the axis (on A the opposite)";
    Units.Torque tau1 "Reaction torque on B along e1 (perpendicular to the axis)";
    Units.Torque tau2 "Reaction torque on B along e2 (perpendicular to the axis)";
  protected
    final parameter Real e1_b[3] = Rotations.perpendicular(n_b) "B's direction that coincides with e1_a at phi = 0, frame of B";
    Units.Angle phi_c "Angle near which phi is measured (set by the derived class)";
    Units.Angle phi_err "phi - phi_c, in (-pi, pi]";
    Real v_0[3] "e1_b, world frame";
  equation
    dddelta_0 + 2*alpha*ddelta_0 + beta^2*delta_0 = {0.0, 0.0, 0.0};
    t_0 = tau1*e1_0 + tau2*e2_0 + tau*u_0;
    v_0 = kB.T*e1_b;
    // the angle from the direction at phi_c, cos(phi_c) e1 + sin(phi_c) e2, to B's e1_b: no branch cut while |phi - phi_c| < pi
    phi_err = atan2(v_0*(cos(phi_c)*e2_0 - sin(phi_c)*e1_0), v_0*(cos(phi_c)*e1_0 + sin(phi_c)*e2_0));
    phi = phi_c + phi_err;
    // w_rel = (w_B - w_A).u with du/dt = w_A x u
    dw_rel = (kB.z_0 - kA.z_0)*u_0 + (kB.w_0 - kA.w_0)*cross(kA.w_0, u_0);
    annotation(Documentation(info = "<html><p>A rigid revolute joint (the joint points coincide and the axes
stay parallel: five relations) that measures the angle <code>phi</code> of B relative to A about the axis:
<code>phi = 0</code> where B's unit vector <code>e1_b = perpendicular(n_b)</code> coincides with A's
<code>e1_a = perpendicular(n_a)</code> (for <code>n_a = n_b</code> and equal frames, when the frames coincide).
The angle is computed as <code>phi_c</code> plus the angle between the direction at <code>phi_c</code> and
<code>e1_b</code>, so it has no jump while it stays within half a turn of <code>phi_c</code>: a servo sets
<code>phi_c</code> to its target (continuous over many turns), a spring to its neutral angle. A derived class
defines <code>phi_c</code> and the torque <code>tau</code> about the axis.</p></html>"));
  end PartialTwistRevolute;

  annotation(Documentation(info = "<html><p>Joints between two bodies, stated at acceleration level with
Baumgarte stabilisation. A rigid joint between bodies that are also tied together through other
constraints can make the reactions statically indeterminate (a wheelset: two wheels rolling on the plane
and a rigid axle); <a href=\"modelica://Nonholonomic.Joints.CompliantRevolute\">CompliantRevolute</a>
removes that indeterminacy with a spring-damper along the axis (Kosenko 2022).</p>
<p><a href=\"modelica://Nonholonomic.Joints.ServoRevolute\">ServoRevolute</a> is a servo-constraint, the
third family of Kosenko's hierarchy: its angle follows a prescribed law (a rider, a robot), and its reaction
about the axis is the actuator's torque. <a href=\"modelica://Nonholonomic.Joints.ElasticRevolute\">ElasticRevolute</a>
holds the angle with a torsion spring-damper instead. <a href=\"modelica://Nonholonomic.Joints.ShaftDrive\">ShaftDrive</a>
prescribes a shaft's spin rate (a servo-constraint on one relation) or drives it by a torque, and loads it
with a force (the ball bearing).</p></html>"));
end Joints;
