"""The FMUs in another importer (``nonholonomic bench --importers``, issue 26 item 2): ``fmpy.simulate_fmu`` with its
default arguments, which runs the FMU's own co-simulation (SUNDIALS CVODE inside ``fmi3DoStep``), beside the
project's loop (CVODE on the binary's entry points) on the same FMU, ``fmus/<model>.fmu``.

Cost: CPU seconds (``time.process_time``: the importer's loading and validation of the FMU and its own work per
communication point included, as a user sees them) per simulated second, the median of three runs where a run takes
under half a second. Accuracy: both runs at the experiment's tolerance, against the project's loop at a hundredth
of it, compared at the co-simulation's communication points on every output: the largest error of a signal over
its largest value (plus one). The goal: the co-simulation within 1.5 times the loop's CPU time at matched accuracy;
the sleigh's co-simulation, on which an earlier integrator failed, is run over 40 s and has to run through.
"""

from __future__ import annotations

import ctypes
import pathlib

import numpy as np
import pandas as pd

from .bench import REPEAT_BELOW, _markdown, cpu_time, median_cpu, rows_kept
from .errors import NonholonomicError
from .fmu import fmu_path, model_description
from .references.tippe_top import inversion_time
from .simulate import simulate

# (case, model, parameters, stop time or None for the experiment's)
CASES = (("rolling disk", "RollingDisk", {}, None),
         ("tippe-top, law 2 (Contensou-Zhuravlev)", "TippeTop", {"frictionLaw": 2}, None),
         ("tippe-top, law 3 (Leine-Glocker)", "TippeTop", {"frictionLaw": 3}, None),
         ("tippe-top, law 4 (Hertz-Coulomb)", "TippeTop", {"frictionLaw": 4}, None),
         ("omni vehicle moving straight", "OmniVehicleStraight", {}, None),
         ("ball bearing", "BallBearing", {}, None),
         ("spur gear pair", "SpurGearPair", {}, None),
         ("Chaplygin sleigh, 40 s", "ChaplyginSleigh", {}, 40.0))
GOAL = 1.5  # the co-simulation's CPU time over the loop's, at most
REFERENCE_FACTOR = 0.01  # the reference run's tolerance: the experiment's times this


def _timed(f):
    """``f()`` and its median CPU seconds (:func:`.bench.median_cpu`)."""
    result, cpu, _ = median_cpu(lambda: cpu_time(f))
    return result, cpu


def cosimulation(fmu: pathlib.Path, parameters: dict, stop_time: float | None, output_interval: float | None = None):
    """``fmpy.simulate_fmu`` at its defaults (the stop time given for the sleigh only, the output interval for the
    run in one communication step) and the co-simulation's CVODE counters at its end (the binary's
    ``nonholonomic_cs_statistics``, read in the last step's callback)."""
    import fmpy
    counts = (ctypes.c_long * 5)()
    experiment = model_description(pathlib.Path(fmu)).defaultExperiment
    stop = stop_time if stop_time is not None else float(experiment.stopTime)

    def finished(t, recorder):
        if t >= stop * (1 - 1e-12) and hasattr(recorder.fmu.dll, "nonholonomic_cs_statistics"):
            read = recorder.fmu.dll.nonholonomic_cs_statistics
            read.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
            read(recorder.fmu.component, counts)
        return True

    extra = {k: v for k, v in (("stop_time", stop_time), ("output_interval", output_interval)) if v is not None}
    result = fmpy.simulate_fmu(str(fmu), start_values=parameters, step_finished=finished, **extra)
    return pd.DataFrame({n: np.asarray(result[n]) for n in result.dtype.names}), dict(
        zip(("steps", "error test failures", "rhs evaluations", "Jacobians", "LU factorisations"), map(int, counts)))


def at_times(frame: pd.DataFrame, times: np.ndarray) -> pd.DataFrame:
    """The rows of ``frame`` at ``times`` (the later row where an event gives two at one time); every time must be
    an output time of ``frame``."""
    t = frame["time"].to_numpy()
    i = np.searchsorted(t, times, side="right") - 1
    if np.any(i < 0) or np.any(np.abs(t[i] - times) > 1e-9 * max(1.0, times[-1])):
        raise NonholonomicError("the runs have no common output times")
    return frame.iloc[i].reset_index(drop=True)


def error(frame: pd.DataFrame, reference: pd.DataFrame, times: np.ndarray) -> float:
    """The largest error of the outputs of ``frame`` at ``times`` against ``reference``, each over its signal's
    largest value plus one."""
    x, ref = at_times(frame, times), at_times(reference, times)
    names = [n for n in reference.columns if n != "time" and n in frame.columns]
    return max(float(np.max(np.abs(x[n].to_numpy() - ref[n].to_numpy())) / (1.0 + np.max(np.abs(reference[n]))))
               for n in names)


def inversion_errors(cs: pd.DataFrame, ours: pd.DataFrame, reference: pd.DataFrame, times: np.ndarray) -> dict:
    """The tippe-top's inversion time (theta through 0.95 pi, interpolated linearly on the co-simulation's
    communication points, which fmpy spaces up to 16 ms apart: all three runs on those points, so that the
    interpolation's error is common to them) of the reference, and each run's error against it: the issue's
    measure of an importer's accuracy, 1 ms."""
    truth = inversion_time(at_times(reference, times))
    return {"inversion time [s]": truth,
            "co-simulation inversion error [s]": abs(inversion_time(at_times(cs, times)) - truth),
            "our loop inversion error [s]": abs(inversion_time(at_times(ours, times)) - truth)}


def importers(models=None, out_dir: pathlib.Path | str = "results", progress=None) -> pd.DataFrame:
    """Run every case (of ``models`` if given); write importers.csv and importers.md into ``out_dir``."""
    say = progress or (lambda msg: None)
    cases = [c for c in CASES if not models or c[1] in models]
    if not cases:
        raise NonholonomicError(f"bench --importers has no case for {', '.join(models)}; it runs "
                                f"{', '.join(dict.fromkeys(c[1] for c in CASES))}")
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    with rows_kept(rows, out_dir / "importers.csv"):
        for case, model, parameters, stop_time in cases:
            fmu = fmu_path(model)
            experiment = model_description(fmu).defaultExperiment
            stop = stop_time if stop_time is not None else float(experiment.stopTime)
            rtol = float(experiment.tolerance)
            say(f"bench --importers {case}: fmpy.simulate_fmu (co-simulation), our loop, reference at rtol "
                f"{rtol * REFERENCE_FACTOR:g}")
            cosimulation(fmu, parameters, stop_time)  # once before: loading fmpy and SUNDIALS is not part of a run
            (cs, counts), cpu_cs = _timed(lambda: cosimulation(fmu, parameters, stop_time))
            ours, cpu_ours = _timed(lambda: simulate(fmu, parameters, stop_time=stop, isolate=False))
            reference = simulate(fmu, parameters, stop_time=stop, tolerance=rtol * REFERENCE_FACTOR, isolate=False)
            times = cs["time"].to_numpy()
            solver = ours.attrs["solver"]
            # each run's cost that does not grow with the simulated time (fmpy: reading and validating the model
            # description, wrapping the FMI functions, extracting the binary; ours: loading the FMU): a run over
            # one communication interval
            interval = float(times[1] - times[0])
            fixed_cs = _timed(lambda: cosimulation(fmu, parameters, interval))[1]
            fixed_ours = _timed(lambda: simulate(fmu, parameters, stop_time=interval, output_interval=interval,
                                                 isolate=False))[1]
            # the FMU's integration with fmpy's work per communication point left out: one step over the run
            one_step = _timed(lambda: cosimulation(fmu, parameters, stop, stop))[1]
            rows.append({
                "case": case, "simulated [s]": stop, "rtol": rtol,
                "co-simulation CPU s / simulated s": cpu_cs / stop, "our loop CPU s / simulated s": cpu_ours / stop,
                "ratio": cpu_cs / cpu_ours, "within goal": cpu_cs / cpu_ours <= GOAL,
                "co-simulation fixed cost [s]": fixed_cs, "our loop fixed cost [s]": fixed_ours,
                "ratio less the fixed costs": (cpu_cs - fixed_cs) / (cpu_ours - fixed_ours),
                "co-simulation in one step CPU s / simulated s": one_step / stop,
                "co-simulation error": error(cs, reference, times), "our loop error": error(ours, reference, times),
                "ran through": bool(np.isclose(times[-1], stop)),
                "co-simulation steps": counts["steps"], "our loop steps": solver["steps"],
                "co-simulation rhs": counts["rhs evaluations"], "our loop rhs": solver["rhs_evaluations"],
                "co-simulation Jacobians": counts["Jacobians"], "our loop Jacobians": solver["jacobians"],
                "communication points": len(times),
                **(inversion_errors(cs, ours, reference, times) if model == "TippeTop" else {})})
    table = pd.DataFrame(rows)
    table.to_csv(out_dir / "importers.csv", index=False)
    text = ("# Another importer: fmpy.simulate_fmu (the FMU's own co-simulation) beside our loop\n\n"
            "CPU seconds per simulated second (median of 3 runs where a run is under "
            f"{REPEAT_BELOW:g} s; fmpy's loading and validation of the FMU, and its work per communication point, "
            f"included); goal: the co-simulation within {GOAL:g} times our loop. Errors: the largest of an output "
            "over its largest value plus one, at the communication points, against our loop at a hundredth of "
            "the experiment's tolerance. Both integrate with CVODE (in the FMU: compiled in, its history kept "
            "across communication points), so their steps agree; all columns: `importers.csv`.\n\n"
            + _markdown(table[["case", "simulated [s]", "rtol", "co-simulation CPU s / simulated s",
                               "our loop CPU s / simulated s", "ratio", "co-simulation error", "our loop error",
                               "co-simulation steps", "our loop steps", "ran through"]]) + "\n"
            "\n## Where the co-simulation's time goes\n\nFixed cost: a run over one communication interval, CPU "
            "seconds (fmpy reads and validates the model description, wraps each FMI function and extracts the "
            "binary on every call of `simulate_fmu`; our loop has the FMU loaded once). Ratio less the fixed "
            "costs: the integration and the work per communication point (fmpy's Python: a `doStep` and a "
            "`getFloat64` of the outputs, some 30 microseconds each time). In one step: `simulate_fmu` with "
            "`output_interval` the whole run, the FMU's CVODE alone with fmpy's fixed cost. Where a run takes few "
            "steps per communication point (the rolling disk: 11566 steps in 1000 points, tens of milliseconds in "
            "all), fmpy's own costs decide the ratio:\n\n"
            + _markdown(table[["case", "ratio", "co-simulation fixed cost [s]", "our loop fixed cost [s]",
                               "ratio less the fixed costs", "co-simulation in one step CPU s / simulated s",
                               "our loop CPU s / simulated s"]]) + "\n")
    if "inversion time [s]" in table:
        top = table.dropna(subset=["inversion time [s]"])
        text += ("\n## Tippe-top: the inversion time\n\nThe reference's inversion time (theta through 0.95 pi) and "
                 "each run's error against it:\n\n" + _markdown(top[[
                     "case", "inversion time [s]", "co-simulation inversion error [s]",
                     "our loop inversion error [s]"]]) + "\n")
    (out_dir / "importers.md").write_text(text)
    print(text)
    return table
