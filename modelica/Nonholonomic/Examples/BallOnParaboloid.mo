within Nonholonomic.Examples;
model BallOnParaboloid "The paper's experiment: a homogeneous ball rolling on a paraboloid"
  extends BallOnSurfaceOfRevolution(final surface = 1, a = R/lambda, final b = 0, R = 0.1,
    q1_0 = 1, q2_0 = 0, v1_0 = y1_0*sqrt(g/R), v2_0 = y2_0*sqrt(g/R), Lambda_0 = y3_0*sqrt(g*R));
  parameter Units.DimensionlessRatio lambda(min = 1e-6) = 0.5 "R/a: ball radius over the vertex radius of curvature of the centre paraboloid";
  parameter Units.DimensionlessRatio y1_0 = 2 "Initial dimensionless dq1/dtau, tau = sqrt(g/R) t";
  parameter Units.DimensionlessRatio y2_0 = 3 "Initial dimensionless dq2/dtau";
  parameter Units.DimensionlessRatio y3_0 = 0.1 "Initial dimensionless Lambda/sqrt(g R)";
  output Units.DimensionlessRatio tau = time*sqrt(g/R) "Dimensionless time";
  annotation(experiment(StartTime = 0, StopTime = 5.0485, Tolerance = 1e-10, Interval = 0.005),
    Documentation(info = "<html>
<p>The numerical experiment of Kosenko, Kuleshov, Shishkov (2024): <code>lambda = R/a = 1/2</code>,
homogeneous ball, <code>q1(0) = 1, q2(0) = 0</code>, dimensionless <code>y1(0) = 2, y2(0) = 3,
y3(0) = 0.1</code>. The paper does not state its time span; the stop time covers <code>tau = 50</code>,
about three periods of <code>q1</code> (16.56 in tau). Note that the paper's printed dimensionless equation
for <code>y3</code> lacks a factor <code>1/lambda</code>; this model is the physical system, i.e. the
consistent form (22).</p>
</html>"));
end BallOnParaboloid;
