"""Nonholonomic: rigid bodies with rolling and other nonholonomic contacts.

A Modelica library (``modelica/Nonholonomic``), FMU export with OpenModelica or rumoca + CasADi, and this
Python package to simulate the FMUs, verify them against reference models from the literature, and plot.

    import nonholonomic as nh
    nh.build(["BallOnParaboloid"])                    # fmus/BallOnParaboloid.fmu
    print(nh.describe("BallOnParaboloid").text())     # its parameters, inputs, outputs, states
    df = nh.simulate("BallOnParaboloid", {"y2_0": 2.5}, stop_time=3)
    nh.animate("BallOnParaboloid", nh.simulate("BallOnParaboloid", poses=True), "ball.html")  # 3D, in a browser
    results = nh.verify()                             # results/verification.html
    table = nh.study("TippeTop", {"mu": "0.1:0.5:3"}, ["first time theta > 0.95*pi"], stop_time=3)
"""

from .animate import animate
from .build import build
from .describe import describe
from .errors import NonholonomicError
from .models import get_model, list_models
from .simulate import simulate
from .study import study
from .verify import verify

__all__ = ["animate", "build", "describe", "simulate", "study", "verify", "list_models", "get_model", "NonholonomicError"]
__version__ = "0.1.0"
