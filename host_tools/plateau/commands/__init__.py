"""The handlers of `plateau`'s commands, one module per area (the table of commands is
`plateau.cli.COMMANDS`). Each module has, for each command NAME it owns, `add_NAME(sub,
common)`: it adds the command's parser (with `common`'s shared parent parsers where they fit)
and sets its handler, a function of the parsed arguments that returns the exit code or raises
`plateau.errors.PlateauError`."""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path
from typing import Any

from plateau.errors import PlateauError, UsageError


class Bounded:
    """An argparse `type` for a number option: int or float, from `low` to `high`, finite.
    Every number option takes one, so `--baud -1`, `--timeout nan` or a seed of twenty
    digits is an option error (exit 2) naming the range, never a traceback from deep down."""

    def __init__(self, kind: type, low: float, high: float, what: str = ""):
        self.kind, self.low, self.high = kind, low, high
        self.what = what or ("a whole number" if kind is int else "a number")
        self.__name__ = self.what  # argparse names the type in its "invalid ..." message

    def __call__(self, text: str) -> int | float:
        try:
            value = self.kind(text)
        except (ValueError, OverflowError):
            value = None
        if value is None or not math.isfinite(value) or not self.low <= value <= self.high:
            raise argparse.ArgumentTypeError(
                f"{text!r}: {self.what} from {self._say(self.low)} to {self._say(self.high)}"
                " expected"
            )
        return value

    def _say(self, bound: float) -> str:
        return str(int(bound)) if self.kind is int else f"{bound:g}"


def whole(low: int, high: int) -> Bounded:
    return Bounded(int, low, high)


def seconds(low: float = 0.0, high: float = 7 * 86400.0) -> Bounded:
    return Bounded(float, low, high, "a number of seconds")


BAUD = Bounded(int, 50, 10_000_000, "a speed in bits/s")
SEED = whole(0, 2**63 - 1)


def _named(text: str) -> None:
    """An empty path names no file: Path("") is the current folder (`plateau replay ""`
    said "is a folder")."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty name: a file's name or path is wanted")


def out_file(text: str) -> str:
    """An argparse `type` for a file an option writes: not a folder, in a folder that is
    there and may be written in (relative paths are from the current folder, as every path
    option's). Checked before the command runs: a chaos run wrote its totals into a missing
    folder after the whole run, in a traceback (adversarial tester's finding 24)."""
    _named(text)
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder; a file name is wanted")
    folder = path.parent
    if not folder.is_dir():
        there = "is not a folder" if folder.exists() else "is not there"
        raise argparse.ArgumentTypeError(f"{text}: its folder {folder} {there}")
    if not os.access(path if path.exists() else folder, os.W_OK):
        raise argparse.ArgumentTypeError(f"{text}: no permission to write it")
    return text


def write_out(path: str, text: str) -> None:
    """Writes the file an option names (checked by out_file, but a disk fills, a folder
    goes): what went wrong in one line, not a traceback."""
    try:
        Path(path).write_text(text)
    except OSError as e:
        raise PlateauError(f"cannot write {path}: {e.strerror or e}") from None


def out_folder(text: str) -> str:
    """An argparse `type` for a folder an option writes into: made if missing, and taken as
    an absolute path (the simulator runs in a folder of its own: a relative one would point
    elsewhere there)."""
    _named(text)
    path = Path(text)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise argparse.ArgumentTypeError(f"{text}: {e.strerror or e}") from None
    return str(path.resolve())


def in_file(text: str) -> str:
    """An argparse `type` for a file an option or argument reads: named, not a folder."""
    _named(text)
    if Path(text).is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder; a file is wanted")
    return text


OPTION_FILE_MAX = 1 << 16  # a token, a password, blind levels, a position: a few lines


def read_file(path: str, limit: int = OPTION_FILE_MAX) -> bytes:
    """The one way the host tools read a small file a user names (an option's file, a Tock
    position, a tag map): there, not a folder, at most `limit` bytes (not a device that never
    ends); UsageError naming the file otherwise."""
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except IsADirectoryError:
        raise UsageError(f"{path} is a folder; a file is wanted") from None
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror or e}") from None
    if len(data) > limit:
        raise UsageError(f"{path}: longer than {limit} bytes")
    return data


def read_text(path: str, limit: int = OPTION_FILE_MAX) -> str:
    """A small file a user names, as UTF-8 text (read_file's checks, then the encoding)."""
    data = read_file(path, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise UsageError(f"{path}: not UTF-8 text (byte {e.start})") from None


def read_json(path: str, limit: int = OPTION_FILE_MAX) -> Any:
    """A small JSON file a user names: read_file's checks, then plain bounded JSON
    (plateau.events.plain_json: UTF-8, no NaN, not nested absurdly deep)."""
    from plateau.events import plain_json

    data = read_file(path, limit)
    try:
        return plain_json(data)
    except ValueError as e:
        raise UsageError(f"{path}: {e}") from None


def text_file(text: str) -> str:
    """An argparse `type` for a small text file an option reads whole (a token, a password,
    blind levels): read_text's checks, made when the options are read."""
    _named(text)
    try:
        read_text(text)
    except UsageError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


class Common:
    """Options several commands share, defined once as argparse parent parsers."""

    def __init__(self) -> None:
        self.port = argparse.ArgumentParser(add_help=False)
        self.port.add_argument(
            "--port",
            default="auto",
            help="the board's serial port, e.g. /dev/ttyUSB0, or a simulated table's pty "
            "(plateau sim --serve); 'auto' (the default) takes the one board plugged in "
            "(plateau ports lists them)",
        )
        self.port.add_argument(
            "--baud",
            type=BAUD,
            default=115200,
            help="its speed in bits/s (default 115200; a USB-CDC board ignores it)",
        )
        self.json = argparse.ArgumentParser(add_help=False)
        self.json.add_argument(
            "--json", action="store_true", help="print events as JSON lines, one each"
        )
        self.view = argparse.ArgumentParser(add_help=False)
        self.view.add_argument(
            "--heartbeats",
            action="store_true",
            help="show the board's heartbeats too (hidden by default; --json prints them)",
        )
        self.view.add_argument(
            "--draw",
            choices=["ring", "rows", "none"],
            default="ring",
            help="how the live view draws a game's table after each event (Tock's board after "
            "each move): as the table's ring (default), a colour's 18 squares a line, or not "
            "at all",
        )
        # its name before --draw (the word "board" now means the ESP32 alone), kept working
        self.view.add_argument(
            "--board",
            dest="draw",
            choices=["ring", "rows", "none"],
            default=argparse.SUPPRESS,
            help=argparse.SUPPRESS,
        )
        self.logfiles = argparse.ArgumentParser(add_help=False)
        self.logfiles.add_argument(
            "--db",
            type=out_file,
            default="plateau-games.sqlite",
            help="the SQLite index of the log's games",
        )
