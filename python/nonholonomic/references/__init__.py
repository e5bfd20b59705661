"""Independent Python reference models (numpy/scipy) used to verify the Modelica library.

* :mod:`nonholonomic.references.meridians` -- meridians of the centre surface of revolution.
* :mod:`nonholonomic.references.ball_on_surface` -- heavy homogeneous ball rolling without
  slipping on a surface of revolution (Kosenko, Kuleshov, Shishkov, Trudy MAI 136, 2024).
"""
