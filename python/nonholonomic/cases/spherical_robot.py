"""Verification cases of the spherical robots (Bizyaev, Borisov, Mamaev 2013).

The FMUs are 3-D multibody models (shell, inner body, rolling contact, spherical and nonholonomic
hinges); the references are the paper's reduced equations in the inner body's frame
(``nonholonomic.references.spherical_robot``), each checked on its own against a brute-force
Newton-Euler solve. The FMU's body states are mapped into the reduced variables with the reference's
``from_world``, and every first integral of the paper is evaluated on the FMU run as well.

Tolerances (as for the other systems, see ``cases.common``): signals 1e-5 relative to their largest
magnitude (measured differences 1e-9 to 1e-7: integration error of both sides); every integral evaluated
on the FMU run conserved to 1e-7 relative (measured 1e-10 to 1e-8), on the reference run to 1e-9;
contact gap below 1e-8 m, slip below 1e-6 m/s, hinge drift below 1e-8 (m or rad/s).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.integrate import cumulative_simpson

from .common import COMMON, vector
from ..plots import FMU_STYLE, REF_STYLE, integrals, planar_paths, signals_with_errors, unit_sphere_paths
from ..references.spherical_robot import NonholonomicBundle, ShellWithNonholonomicHinge, ShellWithTop
from ..verification import Check, TrajectoryCase, relative_drift

PAPER = ('I. A. Bizyaev, A. V. Borisov, I. S. Mamaev, "The dynamics of nonholonomic systems consisting of a spherical '
         'shell with a moving rigid body inside", Rus. J. Nonlin. Dyn. 9 (2013) 547-566. References: the reduced '
         "equations (1.11) (shell with a top on a spherical hinge), (2.4) (body on a nonholonomic hinge), (3.3) and "
         "(3.5) (free nonholonomic bundle), with their integrals.")
INTEGRAL_BOUND = 1e-7
# omega: the inner body's angular velocity, Omega: the shell's, both in the inner body's frame; gamma: the vertical
# in that frame; (x, y): the contact point
UNITS = dict(omega1="rad/s", omega2="rad/s", omega3="rad/s", Omega1="rad/s", Omega2="rad/s", Omega3="rad/s",
             gamma1="1", gamma2="1", gamma3="1", x="m", y="m")


def _axis_angle(axis, angle):
    axis = np.asarray(axis, dtype=float) / np.linalg.norm(axis)
    return np.concatenate([[math.cos(angle / 2)], axis * math.sin(angle / 2)])


def _vector_parameters(**vectors) -> dict:
    """FMU parameters name[1], name[2], ... of the given vectors."""
    return {f"{name}[{i + 1}]": float(v) for name, vec in vectors.items() for i, v in enumerate(vec)}


Q0 = _axis_angle([0.6, 0.8, 0.0], 0.4)   # initial attitude of the inner body
W0 = np.array([3.0, -2.0, 4.0])          # initial angular velocity of the inner body, its frame


def _integral(fmu: pd.DataFrame, name: str):
    """The values of an integral: a column, or the (k, 3) array of a vector fixed in space ("K": K_x, K_y, K_z)."""
    return fmu[[f"{name}_{c}" for c in "xyz"]].to_numpy() if f"{name}_x" in fmu else fmu[name].to_numpy()


def _integral_checks(fmu: pd.DataFrame, names) -> list[Check]:
    """Drift of each integral, a vector's as one (its norm): the measure ``plots.integrals`` draws."""
    return [Check(f"FMU vector {name} fixed in space: max |{name}(t) - {name}(0)| / max |{name}|"
                  if f"{name}_x" in fmu else f"FMU integral {name}: max |I - I(0)| / max |I|",
                  relative_drift(_integral(fmu, name)), INTEGRAL_BOUND) for name in names]


def _plots(integral_names, contact=True):
    def make(case, fmu, ref, out):
        t = fmu["time"].to_numpy()
        values = {n + (" (vector)" if f"{n}_x" in fmu else ""): _integral(fmu, n) for n in integral_names}
        files = [signals_with_errors(t, fmu, ref, case.signals, case.signal_units(case.signals),
                                     f"{case.name}: FMU vs reference", out / "signals.png"),
                 integrals(t, values, f"{case.name}: integrals of the FMU run", out / "integrals.png")]
        if contact:
            files.append(planar_paths({"FMU": (fmu["x"], fmu["y"], FMU_STYLE),
                                       "reference": (ref["x"], ref["y"], REF_STYLE)},
                                      f"{case.name}: path of the contact point", out / "contact_path.png"))
            files.append(unit_sphere_paths({"FMU": fmu[["gamma1", "gamma2", "gamma3"]].to_numpy(),
                                            "reference": ref[["gamma1", "gamma2", "gamma3"]].to_numpy()},
                                           f"{case.name}: vertical gamma in the inner body's frame",
                                           out / "gamma_sphere.png", names=("gamma1", "gamma2", "gamma3")))
        return files
    return make


# ------------------------------------------------------------------------------ system A
SHELL = dict(R_s=0.2, m_s=1.0, m_t=2.0, g=9.81)


def shell_top_case(name: str, description: str, I_t, c, extra_integral: str | None = None,
                   stop_time: float = 10.0) -> TrajectoryCase:
    R_s, m_s, m_t, g = SHELL["R_s"], SHELL["m_s"], SHELL["m_t"], SHELL["g"]
    I_s = 2 / 3 * m_s * R_s**2
    model = ShellWithTop(m_s, I_s, R_s, m_t, I_t, c, g)
    W_shell = np.array([0.5, 1.0, 0.3])  # initial angular velocity of the shell, world frame
    state0 = model.initial_state(Q0, W0, W_shell)
    names = ["area", "energy", "K", "gamma_squared"] + ([extra_integral] if extra_integral else [])
    extra = {"euler": model.euler_integral, "lagrange": model.lagrange_integral}

    def observe(raw):
        y = model.from_world(vector(raw, "Q_t", 4), vector(raw, "w_t_b"), vector(raw, "r_s_0"), vector(raw, "v_s_0"),
                             vector(raw, "w_s_0"))
        out = model.dataframe(y, raw["time"].to_numpy())
        if extra_integral:
            out[extra_integral] = extra[extra_integral](y)
        out["energy_fmu"] = raw["energy"].to_numpy()
        return out

    def reference(t):
        ref = model.simulate(state0, t)
        if extra_integral:
            ref[extra_integral] = extra[extra_integral](ref[list(ref.columns[1:17])].to_numpy().T)
        return ref

    def checks(fmu, ref):
        sliding = model.equivalent_sliding_ball().simulate(np.concatenate([state0[:6], state0[10:14]]),
                                                           ref["time"].to_numpy())
        theorem = float(np.max(np.abs(sliding[["omega1", "omega2", "omega3"]].to_numpy()
                                      - ref[["omega1", "omega2", "omega3"]].to_numpy())))
        return _integral_checks(fmu, names) + [
            Check("Theorem 1: reference A vs the unbalanced sliding ball, max |omega difference| [rad/s]", theorem,
                  1e-7),
            Check("reference: extra integral drift" if extra_integral else "reference: area integral drift",
                  float(np.max(np.abs(ref[extra_integral or "area"] - ref[extra_integral or "area"][0]))
                        / np.max(np.abs(ref[extra_integral or "area"]))), 1e-9)]

    return TrajectoryCase(
        name, "ShellWithInnerBody", description,
        # I_s left at 0 in the example: the thin shell of R_s, m_s, as the reference's
        parameters=dict(R_s=R_s, m_s=m_s, m_t=m_t, g=g,
                        **_vector_parameters(I_t=I_t, c=c, Q_t_0=Q0, w_t_b_0=W0, W_s_0=W_shell)),
        stop_time=stop_time, output_interval=0.01, reference=reference, observe=observe,
        signals=("omega1", "omega2", "omega3", "gamma1", "gamma2", "gamma3", "x", "y"),
        residual_tolerances={"gap": 1e-8, "slip": 1e-6, "hinge_drift": 1e-8},
        reference_integrals={"energy": 1e-9, "area": 1e-9, "K_norm": 1e-9}, extra_checks=checks,
        plots=_plots(names), units=UNITS, **COMMON)


# ------------------------------------------------------------------------------ system B
def shell_hinge_case() -> TrajectoryCase:
    R_s, m_s, m_b, g = SHELL["R_s"], SHELL["m_s"], 2.0, SHELL["g"]
    I_s = 2 / 3 * m_s * R_s**2
    I_b = (0.012, 0.02, 0.016)
    model = ShellWithNonholonomicHinge(m_s, I_s, R_s, m_b, I_b, g)
    Omega_12 = (0.5, 1.5)
    state0 = model.initial_state(Q0, W0, *Omega_12)
    names = ["M_squared", "M_gamma", "F4", "energy", "gamma_squared"]

    def observe(raw):
        y = model.from_world(vector(raw, "Q_b", 4), vector(raw, "w_b_b"), vector(raw, "r_s_0"), vector(raw, "w_s_0"))
        out = model.dataframe(y, raw["time"].to_numpy())
        out["energy_fmu"] = raw["energy"].to_numpy()
        return out

    def checks(fmu, ref):
        return _integral_checks(fmu, names) + [
            Check("FMU hinge: max |omega3 - Omega3| [rad/s]", float(np.max(np.abs(fmu["hinge"]))), 1e-8)]

    return TrajectoryCase(
        "shell_nonholonomic_hinge", "ShellWithNonholonomicHinge",
        "Shell (R = 0.2 m, 1 kg) rolling on the plane with an inner body (2 kg, I = (0.012, 0.02, 0.016)) on a "
        "nonholonomic hinge about its axis 3; 10 s. Integrals (2.6), (2.7): M^2, (M, gamma), F4, energy.",
        # I_s left at 0 in the example: the thin shell of R_s, m_s, as the reference's
        parameters=dict(R_s=R_s, m_s=m_s, m_b=m_b, g=g,
                        **_vector_parameters(I_b=I_b, Q_b_0=Q0, w_b_b_0=W0, Omega_12_0=Omega_12)),
        stop_time=10.0, output_interval=0.01, reference=lambda t: model.simulate(state0, t), observe=observe,
        signals=("Omega1", "Omega2", "Omega3", "omega1", "omega2", "omega3", "gamma1", "gamma2", "gamma3", "x", "y"),
        residual_tolerances={"gap": 1e-8, "slip": 1e-6, "hinge_slip": 1e-8},
        reference_integrals={"energy": 1e-9, "M_squared": 1e-9, "M_gamma": 1e-9, "F4": 1e-9}, extra_checks=checks,
        plots=_plots(names), units=UNITS, **COMMON)


# ------------------------------------------------------------------------------ system C
def bundle_case(name: str, description: str, e_b, closed_form: bool = False) -> TrajectoryCase:
    I_s, I_b = 0.03, (0.012, 0.02, 0.016)
    e_b = np.asarray(e_b, dtype=float) / np.linalg.norm(e_b)
    model = NonholonomicBundle(I_s, I_b, e_b)
    W_rel = np.array([0.5, 1.5, 0.0])
    W_shell = W0 + W_rel - (W_rel @ e_b) * e_b  # the shell's angular velocity as the example computes it
    state0 = model.initial_state(Q0, W0, W_shell)
    names = ["M_squared", "energy", "M"] + (["F"] if closed_form else [])

    def observe(raw):
        y = model.from_world(vector(raw, "Q_b", 4), vector(raw, "w_b_b"), vector(raw, "w_s_0"))
        out = model.dataframe(y, raw["time"].to_numpy())
        out["energy_fmu"] = raw["energy"].to_numpy()
        return out

    def checks(fmu, ref):
        result = _integral_checks(fmu, names) + [
            Check("FMU hinge: max |(w_b - W_s, e)| [rad/s]", float(np.max(np.abs(fmu["hinge"]))), 1e-8)]
        if closed_form:
            # (3.5) integrated in closed form in tau = int omega3 dt: compare the FMU at its own tau
            w3 = fmu["omega3"].to_numpy()
            tau = cumulative_simpson(w3, x=fmu["time"].to_numpy(), initial=0.0)  # error ~ dt^4
            x0 = [state0[0], state0[1], state0[3], state0[4], state0[5]]
            exact = model.closed_form(x0, tau)
            got = np.stack([fmu["Omega1"], fmu["Omega2"], fmu["omega1"], fmu["omega2"]])
            result.append(Check("FMU vs closed form of (3.5) in tau: max |(Omega1, Omega2, omega1, omega2) "
                                "difference| [rad/s]", float(np.max(np.abs(got - exact[:4]))), 1e-7))
            # omega3 comes from the energy in the closed form: compare its square (|omega3| is ill
            # conditioned where omega3 changes sign); the energy balance carries the tau error of the
            # other components, amplified by the inertias (measured 2.5e-8): bound 1e-6
            result.append(Check("FMU vs closed form: max |omega3^2 difference| [rad^2/s^2]",
                                float(np.max(np.abs(w3**2 - exact[4] ** 2))), 1e-6))
        return result

    return TrajectoryCase(
        name, "NonholonomicBundle", description,
        parameters=dict(I_s=I_s, **_vector_parameters(I_b=I_b, e_b=e_b, Q_b_0=Q0, w_b_b_0=W0, W_rel_b_0=W_rel)),
        stop_time=10.0, output_interval=0.001 if closed_form else 0.01,
        reference=lambda t: model.simulate(state0, t), observe=observe,
        signals=("Omega1", "Omega2", "Omega3", "omega1", "omega2", "omega3"),
        residual_tolerances={"hinge_slip": 1e-8, "hinge_drift": 1e-8},
        reference_integrals={"energy": 1e-9, "M_squared": 1e-9}, extra_checks=checks,
        plots=_plots(names, contact=False), units=UNITS, **COMMON)


def cases() -> list[TrajectoryCase]:
    I_t = (0.012, 0.016, 0.02)
    return [
        shell_top_case("shell_top", "Shell (R = 0.2 m, 1 kg) rolling on the plane with a top (2 kg, "
                       "I = (0.012, 0.016, 0.02)) on a spherical hinge, centre of mass at c = (0.02, -0.01, -0.06) "
                       "m; 10 s. Integrals: energy, area (J omega, gamma), Chaplygin vector K.", I_t, (0.02, -0.01, -0.06)),
        shell_top_case("shell_top_euler", "Euler case c = 0: the extra integral M^2.", I_t, (0.0, 0.0, 0.0), "euler"),
        shell_top_case("shell_top_lagrange", "Lagrange case I1 = I2, c = (0, 0, -0.06): the extra integral M3.",
                       (0.014, 0.014, 0.02), (0.0, 0.0, -0.06), "lagrange"),
        shell_hinge_case(),
        bundle_case("bundle_generic", "Free nonholonomic bundle, hinge direction e = (0.3, 0.2, 1)/|.| (not a "
                    "principal axis): (3.3) with M^2 and the energy; 10 s.", (0.3, 0.2, 1.0)),
        bundle_case("bundle_principal", "Free nonholonomic bundle, e along the principal axis 3: the reduced "
                    "system (3.5) and its closed-form solution in tau = int omega3 dt; 10 s.", (0.0, 0.0, 1.0),
                    closed_form=True),
    ]
