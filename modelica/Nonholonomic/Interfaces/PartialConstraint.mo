within Nonholonomic.Interfaces;
partial model PartialConstraint "Base class of ideal constraints between body A and body B"
  extends PartialInteraction;
  annotation(Documentation(info = "<html>
<p>A constraint reads the kinematics of its two bodies and returns equal and opposite reaction wrenches
about a common application point (<a href=\"modelica://Nonholonomic.Interfaces.PartialInteraction\">PartialInteraction</a>).
A derived class defines the application point <code>p_0</code> and adds only kinematic relations, stated at
acceleration level with Baumgarte stabilisation, as many as the reaction has unknown components.</p>
</html>"));
end PartialConstraint;
