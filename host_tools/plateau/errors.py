"""The one error type of the host tools: what went wrong, in words for the person at the
terminal, and the exit code it ends the command with. `plateau.cli.main` prints it as
`plateau COMMAND: message` and exits with its code; nothing else prints tracebacks."""

from __future__ import annotations

# exit codes (also in `plateau --help`)
OK = 0
FAILED = 1  # the command ran and the answer is no: a refusal, a mismatch, a failed check
USAGE = 2  # the input is wrong: an option, a file that cannot be read, a bad script
NO_BOARD = 3  # no port, a busy port, or no answer from the board
INTERRUPTED = 130  # Ctrl-C

CODES = f"""exit codes: {OK} done; {FAILED} the answer is no (a refusal, a mismatch, a failed
check); {USAGE} bad input (options, files, scripts); {NO_BOARD} no port, a busy port, or no answer
from the board; {INTERRUPTED} interrupted (Ctrl-C, kill's SIGTERM, the terminal closed: a simulator
the command ran goes with it)"""


class PlateauError(Exception):
    def __init__(self, message: str, code: int = FAILED):
        super().__init__(message)
        self.code = code


class UsageError(PlateauError):
    def __init__(self, message: str):
        super().__init__(message, USAGE)


class NoBoard(PlateauError):
    def __init__(self, message: str):
        super().__init__(message, NO_BOARD)
