"""A table's log: `plateau log` (follow a board: live view, JSON lines, SQLite index),
`plateau replay` (re-check a log with the rules) and `plateau index` (its games)."""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import time
from pathlib import Path

from plateau.commands import in_file, out_file, seconds
from plateau.errors import NoBoard, PlateauError, UsageError
from plateau.events import clean
from plateau.hostlink import LinkError
from plateau.view import say

LOG_HELP = "a JSON-lines log written by plateau log or plateau sim --log"


def add_log(sub, common) -> None:
    lg = sub.add_parser(
        "log",
        parents=[common.port, common.json, common.view, common.logfiles],
        help="log a table: live view, JSON lines, SQLite index",
    )
    lg.add_argument(
        "--log", type=out_file, default="plateau-log.jsonl", help="JSON-lines file (appended)"
    )
    lg.add_argument(
        "--give-up",
        type=seconds(),
        default=None,
        help="stop after this many seconds without a link (default: never)",
    )
    lg.set_defaults(func=cmd_log)


def add_replay(sub, common) -> None:
    rp = sub.add_parser("replay", help="re-check a logged game with the rules")
    rp.add_argument("log", type=in_file, help=LOG_HELP)
    rp.add_argument(
        "--json",
        action="store_true",
        help="print only the last game's end as JSON (Tock: its final position)",
    )
    rp.set_defaults(func=cmd_replay)


def add_index(sub, common) -> None:
    ix = sub.add_parser(
        "index", parents=[common.logfiles], help="the games of a log, from its SQLite index"
    )
    ix.add_argument("log", type=in_file, help=LOG_HELP)
    ix.add_argument("--rebuild", action="store_true", help="index the log again from its start")
    ix.set_defaults(func=cmd_index)


def cmd_log(args: argparse.Namespace) -> int:
    import signal

    from plateau.hostlink import HostLink, follow
    from plateau.logger import LogError, Logger, keep, take_up
    from plateau.ports import resolve
    from plateau.view import View

    port = resolve(args.port)
    link = HostLink(port, args.baud)
    # a port that is not there (a typo, a board not plugged in) leaves no files behind: at
    # once, or after --give-up seconds of trying (a board being plugged in)
    waited_until = time.monotonic() + (args.give_up or 0)
    while True:
        try:
            link.open(hello=False)
            link.close()
            break
        except LinkError as e:
            if time.monotonic() >= waited_until:
                raise NoBoard(str(e)) from None
            time.sleep(0.5)
    tell = (lambda m: print(m, file=sys.stderr)) if args.json else print
    try:
        log = Logger(args.log, args.db, say=tell)
    except (LogError, OSError, sqlite3.Error) as e:
        raise PlateauError(str(e)) from None
    take_up(link.rx, args.log)
    view = View(args.json, draw=args.draw, heartbeats=args.heartbeats)
    tell(f"logging {port} to {args.log} (index {args.db}); Ctrl-C to stop")

    def stop(*_):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)  # `kill` ends it as cleanly as Ctrl-C
    # and Ctrl-C itself, even when started with SIGINT ignored (in the background of a
    # script, under nohup: the chaos harness's loggers then never stopped on it)
    signal.signal(signal.SIGINT, stop)
    try:
        for ev, logged in follow(link, say=tell, give_up_s=args.give_up, idle=log.tick):
            keep(log, link.rx, ev, logged)
            view.show(ev)
    except KeyboardInterrupt:
        pass
    finally:
        log.close()
        print(
            f"plateau log: {log.written} lines written; link: {link.stats.line()}", file=sys.stderr
        )
        if log.lost:
            print(
                f"plateau log: {log.lost} events held could not be written ({log.outage_why()});"
                " the board keeps its last 256: plateau log started again asks it for what the"
                " log lacks",
                file=sys.stderr,
            )
    return 1 if log.lost else 0


def cmd_replay(args: argparse.Namespace) -> int:
    return replay(args.log, args.json)


def replay(path: str, as_json: bool = False) -> int:
    """Every game of a log checked again with the host's copy of its rules, by the checker
    its host module makes (plateau.games): Tock move by move, the others by what their
    events must add up to (each game's checker.py); a game without one is counted,
    not checked. The lines read as every reader takes them (repeats.Reader): a line that
    breaks the log's rules (an event with no number where one is due, a boot no hello
    opened, a hello out of place) is named and not taken, so the lines after it are checked
    as the board sent them, and the replay exits 1."""
    from plateau.games import Mismatch
    from plateau.repeats import Reader

    reader = Reader()
    checks: list = []  # one per game met in the log, in order
    game: str | None = None
    shapes: list[str] = []  # events a check could not read
    n = odd = faults = 0
    skipped: list[int] = [0]  # bad lines (not events)
    try:
        for r in _reads(path, reader, skipped):
            ev, line = r.ev, r.line
            seq = ev.get("seq")
            what = f"line {line} ({'' if seq is None else f'event #{seq} '}{ev['type']})"
            if r.fault:  # not taken: the lines after it are read as the board sent them
                faults += 1
                if faults <= 20:
                    say(f"{what} breaks the log's rules: {r.fault}; not taken")
                continue
            if r.odd:  # taken, and said: the lines after it are read as ever
                odd += 1
                if odd <= 20:
                    say(
                        f"plateau replay: {path} line {line}: {r.odd}: a damaged line,"
                        " or lines missing",
                        file=sys.stderr,
                    )
            n += 1
            said = ev.get("game")
            kind = ev.get("type")
            # a game begins at a `game` event, a snapshot of another game, or a hello that
            # opens a boot (a new boot: a board that lost its game plays anew, as the index
            # has it); a hello of the boot being followed only says where the board is
            if isinstance(said, str) and (
                kind == "game"
                or (kind == "snapshot" and said != game)
                or (kind == "hello" and r.opens)
            ):
                game = said
                checks.append(_checker(game))
            if not checks:
                continue  # no game named yet: nothing to check it against
            try:
                checks[-1].feed(ev)
            except (KeyError, TypeError, ValueError, AttributeError, IndexError):
                shapes.append(f"line {line} (event #{ev.get('seq')} {ev.get('type')})")
            except Mismatch as e:
                say(f"{what} does not follow: {e}")
                return 1
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}") from None
    if not checks:
        raise UsageError(f"{path} holds no game (is it a Plateau log?)")
    if as_json and not faults:  # the last game's end
        print(json.dumps(checks[-1].state()))
        return 0
    print(
        f"replayed {n} events ({skipped[0]} bad lines skipped, {reader.repeated} repeated"
        " lines dropped"
        + (f", {odd} numbered out of order" if odd else "")
        + "): "
        + (
            f"{faults} lines break the log's rules (named above, not taken); every other"
            " event checked follows the rules"
            if faults
            else "every event checked follows the rules"
        )
    )
    for c in checks:
        for text in c.summary():
            say(f"  {text}")
    if shapes:
        say(
            f"  {len(shapes)} events of a shape the check could not read, not checked: "
            + ", ".join(shapes[:5])
            + (" ..." if len(shapes) > 5 else "")
        )
    return 1 if faults else 0


def _reads(path: str, reader, skipped: list[int]):
    """The lines of the log at `path` as `reader` takes them (repeats.Read), the bad ones
    (not events) said and counted in skipped[0]."""
    from plateau.logger import read_log

    for line, ev, why in read_log(path):
        if ev is None:
            skipped[0] += 1
            if skipped[0] <= 20:
                say(f"plateau replay: {path} line {line}: {why}; skipped", file=sys.stderr)
            continue
        yield from reader.read(line, ev)
    yield from reader.end()


class Unchecked:
    """The replay of a game its host module has no checker for (or a game this host does not
    know): its events counted, not checked."""

    def __init__(self, game: str, why: str) -> None:
        self.game, self.why, self.events = game, why, 0

    def feed(self, ev: dict) -> None:
        self.events += 1

    def summary(self) -> list[str]:
        return [f"{self.game}: {self.events} events, not checked ({self.why})"]

    def state(self) -> dict:
        return {"game": self.game, "events": self.events}


def _checker(game: str):
    """A new replay checker for one game of a log (its host module's `replay()`)."""
    from plateau import games

    try:
        make = games.find(game).replay
    except ValueError:
        return Unchecked(game, "a game this host does not know")
    return make() if make else Unchecked(game, "the host has no rules for it")


def cmd_index(args: argparse.Namespace) -> int:
    from plateau.index import Index, plays

    if not Path(args.log).exists():
        raise UsageError(f"{args.log} does not exist")
    try:
        index = Index(args.db, args.log, rebuild=args.rebuild)
        index.catch_up()
        rows = index.games()
        unindexed = index.unindexed
        faults = index.faults
        index.close()
    except OSError as e:  # the log's or the index's: the one it is
        raise PlateauError(f"{e.filename or args.db}: {e.strerror or e}") from None
    except sqlite3.Error as e:
        raise PlateauError(f"{args.db}: {e}") from None
    for line, why in faults[:20]:  # read this time (all of them with --rebuild)
        say(f"{args.log} line {line} breaks the log's rules: {why}; not indexed", file=sys.stderr)
    if len(faults) > 20:
        say(f"... and {len(faults) - 20} more lines that break them", file=sys.stderr)
    for gid, game, rules, players, moves, winner, first, last in rows:
        say(
            f"game {gid}: {game} {rules or ''} {players or '?'} players, {moves}"
            f" {plays(game)[1]}, winner {winner or '-'}  (lines {first}-{last})"
        )
    print(
        f"{len(rows)} games in {args.log}"
        + (f" ({unindexed} more not indexed)" if unindexed else "")
    )
    return 0


def add_games(sub, common) -> None:
    gm = sub.add_parser(
        "games",
        parents=[common.logfiles],
        help="the games in the SQLite index (plateau log's --db): list, or show N",
        description="The games the index holds, from every log it indexed: game, rules, "
        "players, moves, winner, the log and its line range. `plateau games show N`: one "
        "game with its duration and its events, read from the log's lines.",
    )
    gm.add_argument(
        "what",
        nargs="*",
        metavar="show N",
        help="nothing: every game; `show N`: game N in full",
    )
    gm.set_defaults(func=cmd_games)


GAME_COLUMNS = "id, log, game, rules, players, moves, winner, first_line, last_line"


def cmd_games(args: argparse.Namespace) -> int:
    from plateau.schema import check_all, checked

    if not Path(args.db).exists():
        raise UsageError(f"no index {args.db} (plateau log and plateau sim --log --db write one)")
    if args.what and (args.what[0] != "show" or len(args.what) != 2 or _id(args.what[1]) is None):
        raise UsageError("plateau games [show N]: N a game's number, as the list gives it")
    try:
        db = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
        try:
            check_all(db)  # as every command that opens the index does
            if args.what:
                rows = db.execute(
                    f"select {GAME_COLUMNS} from games where id = ?", (_id(args.what[1]),)
                ).fetchall()
                if not rows:
                    raise PlateauError(f"no game {args.what[1]} in {args.db}")
                row = checked("games", GAME_COLUMNS, rows[0])
                _same_log(db, args.db, row[1])
                return _show_game(row)
            rows = db.execute(f"select {GAME_COLUMNS} from games order by id").fetchall()
            rows = [checked("games", GAME_COLUMNS, row) for row in rows]
        finally:
            db.close()
    except sqlite3.Error as e:
        raise PlateauError(f"{args.db}: {e}") from None
    for row in rows:
        say(_game_line(row))
    print(f"{len(rows)} games in {args.db}" + ("; plateau games show N for one" if rows else ""))
    return 0


def _same_log(db: sqlite3.Connection, path: str, log: str) -> None:
    """PlateauError when the log at `log` is not the one the index read (another file put
    at its path since: its lines are not this game's)."""
    from plateau.index import same_log
    from plateau.schema import checked

    if "ident" not in [r[1] for r in db.execute("pragma table_info(indexed)")]:
        return  # an index written before identities
    got = db.execute("select offset, ident from indexed where log = ?", (log,)).fetchone()
    if got is None:
        return
    offset, known = checked("indexed", "offset, ident", got)
    try:
        same = same_log(log, offset, known)
    except OSError as e:
        raise UsageError(f"the game's log {clean(log)}: {e.strerror}") from None
    if not same:
        raise PlateauError(
            f"{clean(log)} is not the log {path} indexed (another file was put at its path): its"
            f" lines are not this game's; plateau index {clean(log)} --db {path} --rebuild"
            " indexes it again"
        )


def _id(text: str) -> int | None:
    """A game's number as typed (ASCII digits; one past SQLite's integers is no game: -1)."""
    if not (text.isascii() and text.isdigit()):
        return None
    digits = text.lstrip("0") or "0"
    return int(digits) if len(digits) < 19 else -1


def _game_line(row: tuple) -> str:
    from plateau.index import plays

    gid, log, game, rules, players, moves, winner, first, last = row
    what = f"{game or '?'}" + (f" {rules}" if rules and rules != game else "")
    who = f"{players} players" if players else ""
    unit = plays(game)[1]
    return (
        f"game {gid:<4} {what:<16} {who:<10} {moves:>4} {unit:<5}  winner {winner or '-':<6}"
        f" {log} lines {first}-{last}"
    )


def _show_game(row: tuple) -> int:
    """One game: its line, then its events from the log (times from the board's clock)."""
    from plateau.fw.clock import elapsed
    from plateau.logger import read_log
    from plateau.view import show

    gid, log, *_, first, last = row
    say(_game_line(row))
    # A move's "t" is the board's tick counter, which wraps every 12.4 days and restarts at a
    # reset: the length is the sum of the steps between timed events, none across a reset.
    lines = []
    timed = span = 0
    at = boot = None
    try:
        for line, ev, _why in read_log(log):
            if line < first:
                continue
            if line > last:
                break
            if ev is None:
                continue
            if ev.get("type") == "resumed" or ev.get("boot", boot) != boot:
                at, boot = None, ev.get("boot", boot)
            t = ev.get("t")
            if isinstance(t, int):
                span += 0 if at is None else elapsed(t, at)
                at, timed = t, timed + 1
            lines.append(show(ev, row[2]))
    except OSError as e:
        raise UsageError(f"the game's log {clean(log)}: {e.strerror}") from None
    if timed > 1:
        s = span // 1000
        say(f"duration {s // 60} min {s % 60:02d} s (board clock, first to last timed event)")
    for text in lines:
        say(text)
    return 0
