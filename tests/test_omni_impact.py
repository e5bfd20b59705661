"""The omni vehicle with massive rollers and impacts in Modelica (issue 14, part 4): the example FMUs
``OmniVehicleImpact{Spin,Straight,TranslationSpin}`` against the reference ``omni_massive`` on ch. 2's three
initial conditions, the impacts against Carnot's theorem and the reference's projection, the integrals between the
impacts, the changes per wheel; ``nonholonomic chapter2 --model``; the friction model against the impact model as
FMUs (part 5).

Bounds: trajectories and integrals are integration error, bounded by ``integration_bound`` (the sum over CVODE's
steps of the local error it admits, sqrt(n_x) (atol + rtol |x|) at rtol 1e-10); an impact is one linear solve, so
the impact's identities hold to round-off: the condition number of its linear system times 64 ulp.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from nonholonomic.cases.omni_impact import (EPS, ImpactCase, events, impacts, integration_bound, junctions_passed,
                                            run_fmu)
from nonholonomic.cli import main
from nonholonomic.references.omni_massive import OmniMassive, chapter2_experiment, chapter2_parameters

STOP = 3.0
# the reference's roller changes in the first 3 s (chapter2_experiment; none closer than 0.04 s to 3 s): per wheel,
# and the impacts (several wheels changing at once are one)
CHANGES = {1: ([7, 7, 7], 7), 2: ([0, 5, 5], 5), 3: ([5, 6, 10], 21)}


@pytest.fixture(scope="module")
def results(rumoca_fmus):
    return {case: ImpactCase(case, STOP).execute() for case in (1, 2, 3)}


@pytest.fixture(scope="module")
def spin(rumoca_fmus):
    return run_fmu(1, STOP)


@pytest.mark.parametrize("case", [1, 2, 3])
def test_trajectories_follow_the_reference(results, case):
    result = results[case]
    errors = result.errors.set_index("signal")
    assert errors["passed"].all(), errors[~errors["passed"]]
    # the two formulations agree to 1e-10 .. 6e-7 of each signal (measured: nu3 1.6e-10 in case 1, nu1 6.5e-8 in
    # case 2, the roller rates up to 6e-7 in case 2, where the wheels' changes come fastest); the bound of each signal
    # (the column "tolerance") is twice the FMU's integration bound
    assert errors.loc["nu3", "max_rel"] < errors.loc["nu3", "tolerance"]
    assert errors.loc["T", "max_rel"] < errors.loc["T", "tolerance"]


@pytest.mark.parametrize("case", [1, 2, 3])
def test_all_checks_pass(results, case):
    failed = [(c.name, c.value, c.bound) for c in results[case].checks if not c.passed]
    assert not failed


@pytest.mark.parametrize("case", [1, 2, 3])
def test_changes_per_wheel_and_impacts(results, case):
    per_wheel, count = CHANGES[case]
    fmu = results[case].frames["fmu"]
    found = results[case].frames["impacts_fmu"]
    assert len(found) == count
    # every change is one wheel's passage of a junction: the FMU's counters, those of the reference (the table
    # above) and the junctions its wheel angles passed agree exactly
    wheels = [sum(i in w for w in found["wheels"]) for i in (1, 2, 3)]
    assert wheels == per_wheel
    angles = pd.DataFrame({f"wheelAngle[{i}]": fmu[f"chi{i}"] for i in (1, 2, 3)})
    assert junctions_passed(angles) == per_wheel


@pytest.mark.parametrize("case", [1, 2, 3])
def test_energy_drop_at_each_impact_is_carnots_loss(results, case):
    found = results[case].frames["impacts_fmu"]
    drop = found["T_before"] - found["T_after"]
    # T- - T+ = 1/2 (Mcal dq', dq') holds exactly for the projection; the FMU's rows give it to round-off of the
    # impact's linear system (its condition number, 2.0e5 here, times 64 ulp of T; measured 1.1e-14 of T)
    assert np.all(np.abs(drop - found["carnot"]) <= found["kkt_condition"] * 64 * EPS * found["T_before"])
    # no impact gains energy (beyond round-off); the smallest loss, 4e-13 of T in the spin, is a roller that
    # re-enters with nearly the spin it left with, (2.8)
    assert np.all(drop > -64 * EPS * found["T_before"])
    # and the FMU loses what the reference loses at each change, to the integration error of the states before it
    # (measured 1.6e-11 to 4.1e-9 of T(0), bound 1.6e-6 to 8.6e-6: twice the integration bound)
    reference = results[case].frames["impacts_reference"]
    lost = np.max(np.abs(drop.to_numpy() - (reference["T_before"] - reference["T_after"]).to_numpy()))
    bound = next(c.bound for c in results[case].checks if c.name.startswith("impacts: max |energy lost"))
    assert lost / results[case].frames["fmu"]["T"].iloc[0] < bound


def test_simultaneous_changes_are_one_projection(spin):
    """Spinning in place, the three wheels reach their junctions together: the FMU's velocities after the change are
    the joint projection onto the three new constraints, not three projections one after the other."""
    model = OmniMassive(**chapter2_parameters())
    first, last = events(spin)[0]
    before, after = spin.iloc[first], spin.iloc[last]
    from nonholonomic.cases.omni_impact import contacts, coordinates
    q, qd_minus = coordinates(before)
    _, qd_plus = coordinates(after)
    old, new = contacts(before), contacts(after)
    assert (old != new).all()
    joint = model.impact(q, qd_minus, new)["qdot"]
    sequential, contact = qd_minus, old.copy()
    for wheel in range(3):
        contact[wheel] = new[wheel]
        sequential = model.impact(q, sequential, contact.copy())["qdot"]
    kkt = impacts(spin.iloc[first:last + 1].reset_index(drop=True), model)[0]["kkt_condition"]
    scale = np.max(np.abs(qd_minus))
    assert np.max(np.abs(qd_plus - joint)) <= kkt * 64 * EPS * scale
    # one wheel after the other ends elsewhere (measured 2.3e-2 of the largest rate), far beyond that round-off
    assert np.max(np.abs(qd_plus - sequential)) > 1e3 * kkt * 64 * EPS * scale


def test_free_rollers_keep_their_spin_between_impacts(spin):
    """(2.8): a free roller's spin about its own axis, dphi/dt + dtheta/dt sin(chi + kappa), is constant between
    the changes; the contact roller's is not (its reaction has a moment about its axis)."""
    bounds = [0] + [b for f, l in events(spin) for b in (f + 1, l)] + [len(spin)]
    steps = spin.attrs["solver"]["steps"]
    drift, contact_change = 0.0, 0.0
    for a, b in zip(bounds[::2], bounds[1::2]):
        seg = spin.iloc[a:b]
        for i in (1, 2, 3):
            c = int(seg[f"contactRoller[{i}]"].iloc[0])
            for j in range(1, 6):
                s = seg[f"rollerSpin[{i},{j}]"].to_numpy()
                if j == c:
                    contact_change = max(contact_change, float(np.ptp(s)))
                else:
                    drift = max(drift, float(np.ptp(s)))
    scale = max(float(spin[f"rollerSpin[{i},{j}]"].abs().max()) for i in (1, 2, 3) for j in range(1, 6))
    assert drift < integration_bound(steps, scale)  # measured 7e-9 rad/s, bound 8e-7
    assert contact_change > 0.1  # the contact roller's spin follows its tilt (up to 0.54 rad/s here)


def test_centre_stays_at_rest_and_energy_falls_in_steps_in_the_spin(spin):
    steps = spin.attrs["solver"]["steps"]
    # the symmetric spin: the centre's velocity is zero by symmetry, only round-off of the 3-fold sums remains
    assert np.max(np.hypot(spin["x"], spin["y"])) < integration_bound(steps, 1.0) * STOP
    T = spin["kineticEnergy"].to_numpy()
    assert np.all(np.diff(T) <= 2 * integration_bound(steps, 1.0) * T[0])  # never rises (beyond integration error)
    assert 0.99 < T[-1] / T[0] < 0.999  # measured 0.9927 after 7 impacts


def test_chapter2_command_runs_the_fmu_and_writes_the_reference_s_files(rumoca_fmus, tmp_path, capfd):
    # capfd: the command's work, and what it prints, is in a child process (isolation.call)
    assert main(["chapter2", "2", "--t-end", "0.5", "--model", "both", "--out", str(tmp_path)]) == 0
    printed = capfd.readouterr().out
    assert "case 2 (fmu): 1 roller changes" in printed and "case 2 (reference): 1 roller changes" in printed
    fmu, ref = pd.read_csv(tmp_path / "case2_fmu.csv"), pd.read_csv(tmp_path / "case2.csv")
    assert list(fmu.columns) == list(ref.columns)
    for name in ("case2_fmu_energy.png", "case2_fmu_trajectory.png", "case2_fmu_overview.png"):
        assert (tmp_path / name).stat().st_size > 0
    numbers = json.loads((tmp_path / "case2_fmu.json").read_text())
    assert numbers["n_switches"] == 1
    # the FMU's rows at the output times against the reference's (the FMU's CSV has the impact's two rows as well)
    grid = fmu.drop_duplicates("time", keep=False).round({"time": 9}).merge(ref.round({"time": 9}), on="time")
    assert len(grid) == 51
    # both at rtol 1e-10 (the reference's DOP853 as the FMU's CVODE): each within the FMU run's integration bound
    # (nu1 = 1 at the start; measured 7e-9)
    bound = 2 * integration_bound(run_fmu(2, 0.5).attrs["solver"]["steps"], 1.0)
    assert np.max(np.abs(grid["nu1_x"] - grid["nu1_y"])) < bound


def test_chapter2_command_errors_are_one_line(capfd):
    assert main(["chapter2", "4", "--model", "fmu"]) == 2
    for bad in (["1", "--t-end", "0", "--model", "fmu"], ["--model", "neither"]):  # said by the option's parser
        with pytest.raises(SystemExit) as exit_:
            main(["chapter2", *bad])
        assert exit_.value.code == 2
    err = capfd.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith("error: ") for line in err)


def test_reference_run_of_the_case_is_the_chapter2_experiment():
    """The case compares with chapter2_experiment at the thesis' data: its first change (case 2) at the time the
    wheels 2 and 3 reach tilt pi/5 (the junction) rolling at R/l |sin alpha| nu1 = 2.598 rad/s, slowed only by the
    rollers' inertia."""
    r = chapter2_experiment(2, 0.3, dt=0.01)
    first = r["switches"][0]
    assert first["wheels"] == [2, 3]
    assert abs(first["time"] - (np.pi / 5) / 2.598) < 0.02  # measured 0.2438 against 0.2418 at constant rate


def test_friction_model_approaches_the_impact_model_as_the_rollers_get_lighter(rumoca_fmus, tmp_path):
    """Issue 14, part 5, moving straight for 1 s (two changes of wheels 2 and 3), equal masses and moments. With
    truncated rollers in both models the entering roller is spun up by friction in the one and by the impact in
    the other, which dissipate the same 1/2 B dw^2 as the roller gets light: the difference falls about like eta^1.9
    (measured 1.1e-4, 1.4e-6, 1.7e-8 m at eta = 0.125, 0.0125, 0.00125) until the friction's regularisation
    shows. With the untruncated spindles of ch. 3 the contact must slide along the axle at each change, where the
    spindle's radius vanishes; that slide costs energy falling only like eta^(1/3) (measured 0.028, 0.013 m)."""
    from nonholonomic.omni_compare import fmu_trend
    truncated = fmu_trend(tmp_path, etas=(0.125, 0.0125, 0.00125), t_end=1.0, cases=(2,))
    path = truncated["path difference [m]"].to_numpy()
    assert np.all(path[1:] / path[:-1] < 0.05)  # faster than eta (0.1 per decade); measured 0.013 and 0.012
    untruncated = fmu_trend(tmp_path, etas=(0.0125, 0.00125), t_end=1.0, cases=(2,), truncated=False)
    slow = untruncated["path difference [m]"].to_numpy()
    assert 0.2 < slow[1] / slow[0] < 0.8  # eta^(1/3) would be 0.46; measured 0.49
    assert (tmp_path / "fmu_trend.png").stat().st_size > 0 and (tmp_path / "fmu_trend_untruncated.csv").is_file()


def test_impacts_in_fmpy_model_exchange_and_co_simulation(rumoca_fmus):
    """The same FMU in another importer (fmpy's model exchange: CVODE through FMI) and in its co-simulation (CVODE
    with the events inside fmi3DoStep): the same 21 impacts and the energy left after them."""
    import fmpy
    own = run_fmu(3, STOP)
    for interface in ("ModelExchange", "CoSimulation"):
        r = fmpy.simulate_fmu(str(rumoca_fmus["OmniVehicleImpactTranslationSpin"]), fmi_type=interface, stop_time=STOP,
                              output_interval=0.01, relative_tolerance=1e-10, output=["impacts", "kineticEnergy"])
        assert r["impacts"][-1] == 21
        # integration error of the velocities (rtol 1e-10, a few thousand steps; measured 1.5e-11 for fmpy's CVODE,
        # 1.5e-8 for the co-simulation's former RODAS4)
        assert abs(r["kineticEnergy"][-1] - own["kineticEnergy"].iloc[-1]) / own["kineticEnergy"].iloc[0] < 1e-6
