"""The handlers of `plateau`'s commands, one module per area (the table of commands is
`plateau.cli.COMMANDS`). Each module has, for each command NAME it owns, `add_NAME(sub,
common)`: it adds the command's parser (with `common`'s shared parent parsers where they fit)
and sets its handler, a function of the parsed arguments that returns the exit code or raises
`plateau.errors.PlateauError`."""

from __future__ import annotations

import argparse


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
            type=int,
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
            "--board",
            choices=["ring", "rows", "none"],
            default="ring",
            help="how a Tock board is drawn after each move: as the table's ring (default), "
            "a colour's 18 squares a line, or not at all",
        )
        self.logfiles = argparse.ArgumentParser(add_help=False)
        self.logfiles.add_argument(
            "--db", default="plateau-games.sqlite", help="the SQLite index of the log's games"
        )
