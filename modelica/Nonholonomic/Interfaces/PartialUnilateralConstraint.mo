within Nonholonomic.Interfaces;
partial model PartialUnilateralConstraint "Base class of ideal contacts that can only push: a state event stops the run where the normal reaction would pull"
  extends PartialConstraint;
  parameter Boolean unilateral = true "true: the run stops with an error where the normal force N turns negative (the contact would lift off); false: the surface may pull (the bilateral model)";
  Units.Force N "Normal reaction on body B, positive when the surface pushes";
equation
  // a relation outside noEvent: the integrator locates the instant N crosses zero (a state event), where the
  // ideal contact leaves its domain; the rows up to that instant are the valid motion. (A bilateral contact's
  // crossings of N = 0 are events too, without action: the rumoca backend folds an if-expression on a Boolean
  // parameter at its build-time value, so "if unilateral then N else 1" would not follow a value set at run time.)
  when unilateral and N < 0 then
    assert(false, getInstanceName() + " lifts off: its normal force N reaches 0 N and would pull (set unilateral = false for a surface that may pull)");
  end when;
  annotation(Documentation(info = "<html>
<p>A physical contact of rolling (a disk or a ball on a surface) can push but not pull: its normal reaction
<code>N</code>, which a derived class defines, must stay non-negative. An ideal constraint keeps the bodies
together whatever the force, so where <code>N</code> would turn negative the model leaves its domain: the real
body lifts off and flies. With <code>unilateral = true</code> (default) the relation <code>N &lt; 0</code> is
watched by a state event: the integrator locates the instant <code>N</code> crosses zero and the run fails there
with one message naming the contact; the motion up to that instant is kept. With <code>unilateral = false</code>
the surface may pull and the run goes on (the bilateral model, for studies of the constrained system
itself).</p>
<p>A contact that must go on past lift-off (flight, landing, bouncing) is a compliant one, e.g.
<a href=\"modelica://Nonholonomic.Contacts.SphereOnPlaneElastic\">SphereOnPlaneElastic</a>.</p>
</html>"));
end PartialUnilateralConstraint;
