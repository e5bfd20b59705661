"""``verify``: run verification cases (:mod:`nonholonomic.cases`) and write their results and the report."""

from __future__ import annotations

import concurrent.futures
import pathlib
import time

from . import isolation
from .cases import select_cases
from .errors import Interrupted, NonholonomicError
from .simulate import names_argument
from .verification import CaseResult, write_report


def verify(names=None, out_dir: pathlib.Path | str = "results", progress=None, jobs: int | None = None
           ) -> list[CaseResult]:
    """Run verification cases (all by default; a system's name selects its cases; one name or a list); write
    results, plots and a report to ``out_dir``. Each case runs in a child process (:mod:`.isolation`), ``jobs`` at
    once (default: one per core): a case whose FMU crashes, is corrupt or missing is recorded as failed with its
    reason, and the others run. ``progress`` receives a line as each case starts and ends."""
    from .build import MAX_JOBS, default_jobs
    out_dir = pathlib.Path(out_dir)
    selected = select_cases(names_argument("cases", names))
    jobs = default_jobs() if jobs is None else jobs
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= MAX_JOBS:
        raise NonholonomicError(f"jobs must be a whole number from 1 to {MAX_JOBS}, got {jobs!r}")
    out_dir.mkdir(parents=True, exist_ok=True)
    from . import plots  # noqa: F401  imported once here (matplotlib), not again in every case's process
    import scipy.integrate  # noqa: F401  (the references' integrators)
    say = progress or (lambda line: None)
    n = len(selected)
    results: dict[str, CaseResult] = {}

    def run(k: int, case) -> None:  # in a thread of the pool: the case itself runs in a child process
        say(f"[{k}/{n}] {case.name}")
        start = time.perf_counter()
        try:
            result = _isolated(case, out_dir)
        except Interrupted:
            return
        except NonholonomicError as e:  # its FMU crashed, is damaged or missing, its run failed: it failed
            result = CaseResult.failed(case, str(e))
        except Exception as e:  # a bug in the case: recorded as its failure too, so the other cases still run
            last = str(e).strip().splitlines()[-1] if str(e).strip() else type(e).__name__
            result = CaseResult.failed(case, f"internal error (please report it): {last}")
        result.seconds = time.perf_counter() - start
        results[case.name] = result
        say(f"[{k}/{n}] {case.name}: {'passed' if result.passed else 'FAILED'} ({result.seconds:.0f} s)")

    pool = concurrent.futures.ThreadPoolExecutor(max_workers=min(jobs, n) or 1)
    try:
        futures = [pool.submit(run, k, case) for k, case in enumerate(selected, 1)]
        while not all(f.done() for f in futures):  # a timed wait: Ctrl-C reaches this (the main) thread
            concurrent.futures.wait(futures, timeout=0.2)
        for f in futures:
            f.result()
    except KeyboardInterrupt:  # Ctrl-C, SIGTERM: the running cases stopped, the report of the finished ones
        for f in futures:
            f.cancel()
        running = [c.name for c, f in zip(selected, futures) if f.running()]
        with isolation.children_stopped():
            pool.shutdown(wait=True)
        finished = [results[c.name] for c in selected if c.name in results]
        write_report(finished, out_dir)
        where = f" in {', '.join(running)}" if running else ""
        raise Interrupted(f"interrupted{where}; {len(finished)} of {n} cases finished, "
                          f"report: {out_dir / 'verification.html'}") from None
    ordered = [results[c.name] for c in selected]
    try:
        animations = _animations(pool, list(dict.fromkeys(c.system for c in selected)), out_dir, say)
    except KeyboardInterrupt:
        write_report(ordered, out_dir)
        raise Interrupted(f"interrupted while making the animations; all {n} cases finished, "
                          f"report: {out_dir / 'verification.html'}") from None
    pool.shutdown(wait=True)
    write_report(ordered, out_dir, animations)
    return ordered


ANIMATION_SPAN = 20.0  # simulated seconds at most of an example's animation in the report


def animate_example(example: str, out_dir: pathlib.Path) -> pathlib.Path:
    """Run an example at its experiment's settings (at most ANIMATION_SPAN simulated seconds), recording what
    its animation draws, and write the animation to ``out_dir/animations/<example>.html``."""
    from .animate import animate, pose_variables
    from .models import get_model
    from .simulate import simulate
    stop_time = min(get_model(example).experiment.get("StopTime", ANIMATION_SPAN), ANIMATION_SPAN)
    frame = simulate(example, stop_time=stop_time, outputs=pose_variables(example))
    return animate(example, frame, pathlib.Path(out_dir) / "animations" / f"{example}.html")


def _animations(pool, systems: list[str], out_dir: pathlib.Path, say) -> dict:
    """The 3D animations of each system's animated examples (cases.animated_examples), in the pool's threads:
    system -> [(example, the page's path or the line that says why there is none)]."""
    from .cases import animated_examples
    examples = {e: s for s in systems for e in animated_examples(s)}
    made = {}

    def run(example: str) -> None:
        try:
            made[example] = animate_example(example, out_dir)
        except Interrupted:
            return
        except NonholonomicError as e:
            made[example] = f"no animation: {e}"
        say(f"animation of {example}: {made[example]}")

    futures = [pool.submit(run, e) for e in examples]
    try:
        while not all(f.done() for f in futures):
            concurrent.futures.wait(futures, timeout=0.2)
    except KeyboardInterrupt:
        for f in futures:
            f.cancel()
        with isolation.children_stopped():
            pool.shutdown(wait=True)
        raise
    by_system = {}
    for example, system in examples.items():
        if example in made:
            by_system.setdefault(system, []).append((example, made[example]))
    return by_system


def _isolated(case, out_dir: pathlib.Path) -> CaseResult:
    """``case.run(out_dir)`` in a child process; its result comes back without the case (which holds functions)."""
    def child():
        result = case.run(out_dir)
        return result.errors, result.checks, result.frames, result.files
    errors, checks, frames, files = isolation.call(child)
    return CaseResult(case, errors, checks, frames, files)
