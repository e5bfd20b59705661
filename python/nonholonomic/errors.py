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
