"""`plateau`: the host tools, one command with subcommands (`plateau --help`).

The commands are a table (COMMANDS): each line names a command and the function, in its
area's handler module under plateau/commands/ (or a tool's own module), that adds its parser
and handler. Options several commands share (--port/--baud, --json, --db) are parent parsers
defined once (plateau.commands.Common). A handler returns an exit code or raises
PlateauError, which main() prints as `plateau COMMAND: message` and exits with its code."""

from __future__ import annotations

import argparse
import importlib
import signal
import sqlite3
import sys

from plateau import __version__
from plateau.errors import CODES, INTERRUPTED, NO_BOARD, PlateauError
from plateau.hostlink import LinkError

# One line per command: its name, and "module:function" that adds it (function(sub, common)).
COMMANDS = (
    ("sim", "plateau.commands.sim:add_sim"),
    ("demo", "plateau.commands.sim:add_demo"),
    ("gen", "plateau.commands.gen:add_gen"),
    ("chaos", "plateau.commands.sim:add_chaos"),
    ("resets", "plateau.commands.sim:add_resets"),
    ("log", "plateau.commands.logs:add_log"),
    ("replay", "plateau.commands.logs:add_replay"),
    ("index", "plateau.commands.logs:add_index"),
    ("games", "plateau.commands.logs:add_games"),
    ("send", "plateau.commands.board:add_send"),
    ("wifi", "plateau.commands.board:add_wifi"),
    ("selftest", "plateau.commands.board:add_selftest"),
    ("calibrate", "plateau.commands.board:add_calibrate"),
    ("ports", "plateau.commands.board:add_ports"),
    ("enrol", "plateau.commands.board:add_enrol"),
    ("deploy", "plateau.commands.install:add_deploy"),
    ("firmware", "plateau.commands.install:add_firmware"),
    ("build", "plateau.commands.install:add_build"),
    ("size", "plateau.commands.install:add_size"),
    ("tock", "plateau.games.tock.prompt:add_parser"),  # the games' own commands
    ("holdem", "plateau.games.holdem.showdown:add_parser"),
    ("bridge", "plateau.club:add_bridge"),
    ("serve", "plateau.club:add_serve"),
    ("players", "plateau.club:add_players"),
    ("league", "plateau.club:add_league"),
    ("results", "plateau.club:add_results"),
    ("club-broker", "plateau.club:add_broker"),
)

# Options one area adds to another's commands: --mqtt on log and sim (docs/club.md)
OPTIONS = ("plateau.club:add_mqtt",)

DOCS = """Documentation: docs/README.md in the repository (the games' rules, the table-script
format, the serial link, the hardware). Try it without a board: plateau demo."""


def parser() -> argparse.ArgumentParser:
    from plateau.commands import Common

    p = argparse.ArgumentParser(
        prog="plateau",
        description="Plateau smart table host tools",
        epilog=f"{DOCS}\n\n{CODES}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"plateau {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    common = Common()
    for _name, where in COMMANDS:
        module, function = where.split(":")
        getattr(importlib.import_module(module), function)(sub, common)
    # options some commands add to others' (after every command exists)
    for where in OPTIONS:
        module, function = where.split(":")
        getattr(importlib.import_module(module), function)(sub, common)
    return p


def _interrupted(*_) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    if argv is None:  # the command line (not a test calling main)
        argv = sys.argv[1:]
        # Ctrl-C stops every command (exit 130, its clean-up done), even one started with
        # SIGINT ignored, as a script's background job is: serve, bridge, send, calibrate
        # and sim went on (log and sim --serve set their own handlers, SIGTERM's too)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        # and `kill`, or the terminal closing, end a command as Ctrl-C does (plateau sim left
        # its firmware running for ever); a signal ignored on purpose (nohup) stays ignored
        for sig in (signal.SIGTERM, signal.SIGHUP):
            if signal.getsignal(sig) == signal.SIG_DFL:
                signal.signal(sig, _interrupted)
    from plateau import FIRMWARE, games

    trouble = games.declaration_trouble()  # a game's declarations, before anything runs
    if trouble:
        print(f"plateau: {FIRMWARE}: {trouble}", file=sys.stderr)
        return 2
    if argv[:1] == ["resets"]:  # its own options and help (plateau/resets.py)
        from plateau import resets

        return resets.main(argv[1:])
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except PlateauError as e:
        print(f"plateau {args.command}: {e}", file=sys.stderr)
        return e.code
    except LinkError as e:  # the board: no port, a busy port, no answer, a dead link
        print(f"plateau {args.command}: {e}", file=sys.stderr)
        return NO_BOARD
    except sqlite3.Error as e:
        print(f"plateau {args.command}: the index: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return INTERRUPTED
    except BrokenPipeError:  # `plateau ... | head`: the reader has had enough
        sys.stderr.close()
        return 0


# kept importable from here (tests, tools)
from plateau.commands.sim import sim_events  # noqa: E402
from plateau.view import View, show  # noqa: E402

__all__ = ["COMMANDS", "main", "parser", "show", "sim_events", "View"]

if __name__ == "__main__":
    sys.exit(main())
