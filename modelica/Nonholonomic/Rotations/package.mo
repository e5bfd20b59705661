within Nonholonomic;
package Rotations "Quaternions and rotation matrices"
  extends Nonholonomic.Icons.Package;

  function product "Quaternion product p o q (scalar part first)"
    extends Nonholonomic.Icons.Function;
    input Units.Quaternion p[4] "Left factor";
    input Units.Quaternion q[4] "Right factor";
    output Units.Quaternion pq[4] "Product p o q";
  algorithm
    pq := {p[1]*q[1] - p[2]*q[2] - p[3]*q[3] - p[4]*q[4],
           p[1]*q[2] + p[2]*q[1] + p[3]*q[4] - p[4]*q[3],
           p[1]*q[3] - p[2]*q[4] + p[3]*q[1] + p[4]*q[2],
           p[1]*q[4] + p[2]*q[3] - p[3]*q[2] + p[4]*q[1]};
    annotation(Documentation(info = "<html><p>The quaternion product <code>p o q = (p0 q0 - p.q, p0 q + q0 p + p x q)</code>, scalar parts first: the rotation <code>q</code> followed by <code>p</code>.</p></html>"));
  end product;

  function rotationMatrix "Rotation matrix T of a unit quaternion: v_0 = T*v_b"
    extends Nonholonomic.Icons.Function;
    input Units.Quaternion Q[4] "Unit quaternion, scalar part first";
    output Real T[3, 3] "Resolves body-frame vectors in the world frame";
  algorithm
    T := [Q[1]^2 + Q[2]^2 - Q[3]^2 - Q[4]^2, 2*(Q[2]*Q[3] - Q[1]*Q[4]), 2*(Q[2]*Q[4] + Q[1]*Q[3]);
          2*(Q[2]*Q[3] + Q[1]*Q[4]), Q[1]^2 - Q[2]^2 + Q[3]^2 - Q[4]^2, 2*(Q[3]*Q[4] - Q[1]*Q[2]);
          2*(Q[2]*Q[4] - Q[1]*Q[3]), 2*(Q[3]*Q[4] + Q[1]*Q[2]), Q[1]^2 - Q[2]^2 - Q[3]^2 + Q[4]^2];
    annotation(Documentation(info = "<html><p>The rotation matrix of a unit quaternion <code>Q = (q0, q)</code>: <code>T = (q0^2 - q.q) E + 2 q q^T + 2 q0 [q x]</code>; it resolves body-frame vectors in the world frame, <code>v_0 = T v_b</code>. For a quaternion of norm other than 1 the result is <code>|Q|^2</code> times a rotation.</p></html>"));
  end rotationMatrix;

  function kinematics "Quaternion rate dQ/dt = 1/2 Q o (0, w_b) for the body-frame angular velocity w_b"
    extends Nonholonomic.Icons.Function;
    input Units.Quaternion Q[4] "Attitude quaternion";
    input Units.AngularVelocity w_b[3] "Angular velocity, body frame";
    output Real dQ[4](each unit = "1/s") "Time derivative of Q";
  algorithm
    dQ := 0.5*product(Q, {0.0, w_b[1], w_b[2], w_b[3]});
    annotation(Documentation(info = "<html><p>The attitude kinematics of a body, <code>dQ/dt = 1/2 Q o (0, w_b)</code>, with the angular velocity <code>w_b</code> resolved in the body frame (Kosenko 2022, sec. 3).</p></html>"));
  end kinematics;

  function fromAxisAngle "Unit quaternion of a rotation by angle about a unit axis"
    extends Nonholonomic.Icons.Function;
    input Real n[3] "Unit rotation axis";
    input Units.Angle angle "Rotation angle";
    output Units.Quaternion Q[4] "Unit quaternion, scalar part first";
  algorithm
    Q := {cos(angle/2), n[1]*sin(angle/2), n[2]*sin(angle/2), n[3]*sin(angle/2)};
    annotation(Documentation(info = "<html><p>The unit quaternion <code>{cos(angle/2), n sin(angle/2)}</code> of the rotation by <code>angle</code> about the unit axis <code>n</code>.</p></html>"));
  end fromAxisAngle;

  function resolveInBody "Resolve a world-frame vector in the body frame of attitude Q"
    extends Nonholonomic.Icons.Function;
    input Units.Quaternion Q[4] "Unit quaternion of the body";
    input Real v_0[3] "Vector resolved in the world frame";
    output Real v_b[3] "Same vector resolved in the body frame";
  protected
    Real T[3, 3] "Rotation matrix";
  algorithm
    T := rotationMatrix(Q);
    v_b := {T[1, 1]*v_0[1] + T[2, 1]*v_0[2] + T[3, 1]*v_0[3],
            T[1, 2]*v_0[1] + T[2, 2]*v_0[2] + T[3, 2]*v_0[3],
            T[1, 3]*v_0[1] + T[2, 3]*v_0[2] + T[3, 3]*v_0[3]};
    annotation(Documentation(info = "<html><p>The components <code>v_b = T^T v_0</code> in the body frame of a vector given in the world frame, <code>T = rotationMatrix(Q)</code>.</p></html>"));
  end resolveInBody;

  function fromEulerZXZ "Unit quaternion of the z-x-z Euler angles: precession psi, nutation theta, spin phi"
    extends Nonholonomic.Icons.Function;
    input Units.Angle psi "Precession: rotation about the world z axis";
    input Units.Angle theta "Nutation: rotation about the line of nodes (angle between body z and world z)";
    input Units.Angle phi "Spin: rotation about the body z axis";
    output Units.Quaternion Q[4] "Unit quaternion, scalar part first";
  algorithm
    Q := product(product(fromAxisAngle({0.0, 0.0, 1.0}, psi), fromAxisAngle({1.0, 0.0, 0.0}, theta)),
                 fromAxisAngle({0.0, 0.0, 1.0}, phi));
    annotation(Documentation(info = "<html><p>The unit quaternion of the z-x-z Euler angles: a rotation by the precession <code>psi</code> about the world z axis, then by the nutation <code>theta</code> about the line of nodes, then by the spin <code>phi</code> about the body z axis.</p></html>"));
  end fromEulerZXZ;

  function angularVelocityZXZ "World-frame angular velocity from z-x-z Euler angles and their rates"
    extends Nonholonomic.Icons.Function;
    input Units.Angle psi "Precession";
    input Units.Angle theta "Nutation";
    input Units.AngularVelocity dpsi "d psi/dt";
    input Units.AngularVelocity dtheta "d theta/dt";
    input Units.AngularVelocity dphi "d phi/dt";
    output Units.AngularVelocity w_0[3] "Angular velocity, world frame";
  algorithm
    // w = dpsi e_z + dtheta (line of nodes) + dphi (body z axis)
    w_0 := {0.0, 0.0, dpsi} + dtheta*{cos(psi), sin(psi), 0.0}
      + dphi*{sin(psi)*sin(theta), -cos(psi)*sin(theta), cos(theta)};
    annotation(Documentation(info = "<html><p>The angular velocity in the world frame of a body whose attitude has the z-x-z Euler angles <code>psi</code>, <code>theta</code> (and any spin) and their rates: <code>w = dpsi e_z + dtheta n + dphi e3</code>, <code>n</code> the line of nodes, <code>e3</code> the body z axis.</p></html>"));
  end angularVelocityZXZ;

  function perpendicular "A unit vector perpendicular to a unit vector"
    extends Nonholonomic.Icons.Function;
    input Real n[3] "Unit vector";
    output Real e[3] "Unit vector perpendicular to n";
  protected
    Real h[3] "Helper direction, not parallel to n";
    Real c[3] "n x h";
  algorithm
    h := if abs(n[1]) < 0.9 then {1.0, 0.0, 0.0} else {0.0, 1.0, 0.0};
    c := {n[2]*h[3] - n[3]*h[2], n[3]*h[1] - n[1]*h[3], n[1]*h[2] - n[2]*h[1]};
    e := c/sqrt(c[1]^2 + c[2]^2 + c[3]^2);
    annotation(Documentation(info = "<html><p>A unit vector perpendicular to the unit vector <code>n</code>: <code>n x h</code> normalised, with <code>h</code> the x axis, or the y axis where <code>n</code> is nearly along x. Used for the reference directions of joints.</p></html>"));
  end perpendicular;

  annotation(Documentation(info = "<html>
<p>Unit quaternions <code>Q = {cos(a/2), n sin(a/2)}</code> (scalar part first) describe the attitude of a
body; <code>rotationMatrix(Q)</code> resolves body-frame vectors in the world frame. The attitude kinematics
is <code>dQ/dt = 1/2 Q o (0, w_b)</code> (Kosenko 2022, sec. 3) with the angular velocity <code>w_b</code>
resolved in the body frame.</p>
</html>"));
end Rotations;
