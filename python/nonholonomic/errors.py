"""The exception types of the package.

Every failure a user can cause (unknown model or parameter, non-physical value, broken Modelica,
missing tool, failed solver) is raised as :class:`NonholonomicError` with a one-line message that
names the problem; the CLI prints that line and exits non-zero, without a traceback.
"""


class NonholonomicError(Exception):
    """A failure with a one-line, user-facing explanation."""


class SimulationFailed(NonholonomicError):
    """A simulation that stopped early; ``partial`` holds what was computed before the failure."""

    def __init__(self, message: str, partial):  # partial: a pandas DataFrame or None
        super().__init__(message)
        self.partial = partial

    def __reduce__(self):  # pickled with its rows (from a child process: isolation.call)
        return type(self), (str(self), self.partial)


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (SIGINT) during a long operation, raised after its clean-up. ``partial`` holds what was
    computed before (a simulation's rows as a DataFrame, or None) and ``time`` the simulated time reached
    (or None); the CLI writes ``partial``, prints one line and exits with 130."""

    def __init__(self, message: str = "interrupted", partial=None, time: float | None = None):
        super().__init__(message)
        self.partial, self.time = partial, time

    def __reduce__(self):
        return type(self), (str(self), self.partial, self.time)
