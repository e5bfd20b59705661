"""What the case modules share: the common tolerances and the reading of FMU vector outputs.

Each FMU is the 3-D multibody model of the Modelica library (rigid bodies, contacts and joints); each
reference is written from the classical reduced equations (``nonholonomic.references``) and checked on
its own. The FMU's world-frame state is mapped into the reference's variables by the reference's own
``from_world``, and the reference's ``to_world`` of the initial state is compared with the FMU's initial
state (:func:`state_check`), so the two independent parametrisations of the initial conditions are checked
against each other.

Tolerances. Both sides integrate the same physics with tight tolerances (FMU: CVODE at 1e-12;
references: DOP853 at 1e-11/1e-12), so their difference is integration error: 1e-9 to 1e-7 relative over
the spans of the cases. The bound on every signal is 1e-5 relative to the signal's largest magnitude, two
orders above that and far below the effect of a modelling error. Energy is conserved by every model but
the damped ones: bound 1e-7 relative. Constraint drift is held by the Baumgarte terms at the level of
the integration error: gap below 1e-8 m, slip below 1e-6 m/s. Steady motions: the tilt, radius or position
that must stay constant may move by integration error only: bounds 1e-7 (radians, metres).
"""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
import os
import pathlib
import shutil

import numpy as np
import pandas as pd

from ..errors import NonholonomicError, SimulationFailed
from ..simulate import simulate
from ..verification import Case, CaseResult, Check
from ..verification.case import compare, no_signals

COMMON = dict(tolerance=1e-5, energy_tolerance=1e-7, fmu_tolerance=1e-12)
RESIDUALS = {"gap": 1e-8, "slip": 1e-6}


class StudyCase(Case):
    """A case whose FMU runs are studies (:func:`nonholonomic.study`) on a local Dask cluster of ``workers``
    processes of its own, started at its first study and shared by the others (one cluster per run of the case):
    :meth:`study` runs one group of them. Under ``verify``'s folder the runs are kept in
    ``<out>/<case>/study/<group>/`` (the study's files: a run per Parquet and JSON file, the table; no plot: the
    case draws its own), so a rerun recomputes only what changed (the study's resume: a run is reused only for
    the same FMU, parameters, settings and metric code). While the case runs they live in ``<out>/.<case>.study``,
    beside the case's staged folder: an interrupted or failed case keeps the runs it finished for the next try, and
    ``<out>/<case>`` stays the complete folder of the last complete run. Without an output folder (``run()``,
    ``execute()``) each study goes to a temporary folder, removed after it."""
    workers = 2
    _study_root: pathlib.Path | None = None
    _clusters: contextlib.ExitStack | None = None
    _scheduler: str | None = None

    def run(self, out_dir=None):
        with contextlib.ExitStack() as clusters:  # the shared cluster, closed when the case is done
            self._clusters = clusters
            try:
                return self._run(out_dir)
            finally:
                self._clusters = self._scheduler = None

    def _run(self, out_dir):
        if out_dir is None:
            return super().run(None)
        out_dir = pathlib.Path(out_dir)
        kept, work = out_dir / self.name / "study", out_dir / f".{self.name}.study"
        if kept.is_dir():
            _link_tree(kept, work)
        self._study_root = work
        try:
            result = super().run(out_dir)
        finally:
            self._study_root = None
        if work.is_dir():
            os.replace(work, kept)  # into the case's new folder, which has no study/ of its own
        return result

    def study(self, group: str, vary: dict, metrics, stop_time: float, output_interval: float,
              tolerance: float) -> pd.DataFrame:
        """The table of the study ``group`` of this case's model; every run must have finished (a failed run
        fails the case, with its error)."""
        from ..dask_runs import local_cluster
        from ..isolation import scratch_folder
        from ..study import study
        if self._clusters is not None and self._scheduler is None:
            self._clusters.enter_context(_children_allowed())
            self._scheduler = self._clusters.enter_context(local_cluster(self.workers))
        with contextlib.ExitStack() as stack:
            stack.enter_context(_children_allowed())
            root = self._study_root or stack.enter_context(scratch_folder(self.name))
            table = study(self.model, vary, list(metrics), stop_time=stop_time, output_interval=output_interval,
                          tolerance=tolerance, scheduler=self._scheduler, workers=self.workers,
                          out_dir=root / group, progress=False, plot=False)
        failed = table[table["status"] != "ok"]
        if len(failed) or len(table) == 0:
            row = failed.iloc[0] if len(failed) else None
            raise NonholonomicError(f"{self.name}: study {group}: " + (
                f"run {dict((k, row[k]) for k in vary)} failed: {row['error']}" if row is not None else "no runs"))
        return table


@contextlib.contextmanager
def _children_allowed():
    """A daemonic process (a worker of a multiprocessing pool or of a Dask cluster, where cases may be run in
    parallel) may not start processes: multiprocessing refuses, and the study's local cluster could not start its
    workers. The cluster is closed before the study returns, so no child outlives the block: for its time the
    process is not daemonic (multiprocessing's own flag; ``Process.daemon`` cannot change after the start)."""
    process = multiprocessing.current_process()
    daemon = process._config.get("daemon", False)
    process._config["daemon"] = False
    try:
        yield
    finally:
        process._config["daemon"] = daemon


def _link_tree(source: pathlib.Path, target: pathlib.Path) -> None:
    """The files of ``source`` into ``target`` (hard links; copies across file systems), where ``target`` has
    none of that name yet (a newer one, of an interrupted run, wins)."""
    for file in source.rglob("*"):
        if not file.is_file() or file.name.startswith("."):
            continue
        to = target / file.relative_to(source)
        if to.exists():
            continue
        to.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(file, to)
        except OSError:
            shutil.copy2(file, to)



def one_row_per_time(frame: pd.DataFrame) -> pd.DataFrame:
    """A run's rows, one per time: an event that changes nothing (a bilateral contact's N crossing zero) gives two
    rows at its instant, the left and the right limit, equal here; the right one is kept."""
    return frame.drop_duplicates("time", keep="last").reset_index(drop=True)


def vector(frame: pd.DataFrame, name: str, n: int = 3) -> np.ndarray:
    """The (k, n) array of an FMU vector output ``name[1]`` ... ``name[n]``."""
    return np.stack([frame[f"{name}[{i}]"].to_numpy() for i in range(1, n + 1)], axis=-1)


def state_check(name: str, fmu_raw: pd.DataFrame, expected: dict, bound: float) -> Check:
    """Largest difference between the FMU's initial world state and the reference's ``to_world``
    (``expected`` maps FMU vector outputs to the reference's values)."""
    worst = 0.0
    for key, value in expected.items():
        got = vector(fmu_raw, key, len(value))[0]
        if key == "Q":  # q and -q are the same attitude
            worst = max(worst, min(np.max(np.abs(got - value)), np.max(np.abs(got + value))))
        else:
            worst = max(worst, float(np.max(np.abs(got - value))))
    return Check(f"initial state: FMU vs reference to_world ({name})", worst, bound)




# The lift-off instant: CVODE at the cases' rtol 1e-12 locates the zero of N to round-off; the state's error over
# the fraction of a second before it is at most about 1e3 rtol of its scale, which moves the zero by that over
# |dN/dt| (several N/s): 1e-7 s bounds it with a margin. The force at the stop is zero to the same error.
LIFT_OFF_TIME = 1e-7


@dataclasses.dataclass
class LiftOffCase(Case):
    """An ideal contact that lifts off (``Interfaces.PartialUnilateralConstraint``): the FMU's run must stop with
    the line naming ``contact`` at the instant the reference's normal force falls through zero
    (``reference_time()``), keeping its rows; the same run with ``unilateral = false`` goes on with a pulling
    surface, and its normal force ``N`` must follow the reference's (``reference(t)``, a frame with ``N``)."""
    parameters: dict = dataclasses.field(default_factory=dict)
    stop_time: float = 1.0
    contact: str = "contact"
    reference_time: object = None  # () -> the reference's lift-off instant [s]
    reference: object = None  # (t) -> frame with time and N
    force_scale: float = 1.0  # the size of N [N], for the bound on N at the stop
    output_interval: float = 0.005
    units = {"N": "N"}

    def execute(self) -> CaseResult:
        try:
            simulate(self.model, parameters=self.parameters, stop_time=self.stop_time,
                     output_interval=self.output_interval, tolerance=1e-12)
        except SimulationFailed as e:
            message, rows = str(e), e.partial
        else:
            return CaseResult.failed(self, f"the run went on to t = {self.stop_time:g} s: no lift-off")
        expected = self.reference_time()
        # the bilateral run a little past the lift-off (10 %: a falling disk then nears the flat, where the ideal
        # contact is undefined)
        bilateral = simulate(self.model, parameters={**self.parameters, "unilateral": 0},
                             stop_time=1.1 * expected, output_interval=self.output_interval, tolerance=1e-12)
        grid = one_row_per_time(bilateral)
        ref = self.reference(grid["time"].to_numpy())
        named = f"{self.model.rsplit('.', 1)[-1]}.{self.contact} lifts off"
        checks = [Check("|lift-off time - reference's| [s]", abs(float(rows["time"].iloc[-1]) - expected),
                        LIFT_OFF_TIME),
                  Check("|N| at the stop / m g", abs(float(rows["N"].iloc[-1])) / self.force_scale, 1e-6),
                  Check("rows before the stop where N <= 0", float((rows["N"].iloc[:-1] <= 0).sum()), 0),
                  Check(f"the line names the contact ('{named}'): 0 yes, 1 no", float(named not in message), 0)]
        errors = compare(grid, ref, ["N"], COMMON["tolerance"])
        return CaseResult(self, errors if len(errors) else no_signals(), checks,
                          {"fmu": rows, "bilateral": grid, "reference": ref,
                           "lift_off": pd.DataFrame({"reference_time": [expected], "message": [message]})})

    def plot(self, result: CaseResult, out_dir: pathlib.Path) -> list[pathlib.Path]:
        from ..plots import lift_off
        if result.error:
            return []
        f = result.frames
        return [lift_off(f["fmu"], f["bilateral"], f["reference"], float(f["lift_off"]["reference_time"][0]),
                         f"{self.name}: normal force to the lift-off", out_dir / "normal_force.png")]
