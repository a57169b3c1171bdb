"""The SQLite index of the games in a log, kept consistent with it (P6). The log is the truth;
the index is derived from it. The index records how far into the log it has read (byte
offset and line) in the same SQLite transaction as its rows, and commits only what is
already on disk, so a kill at any point leaves an index that summarises a prefix of the log
exactly; the next open reads on from there. `plateau index --rebuild LOG` starts it again
from the first line. What a game's row says of its plays and its winner is the game's own
(its host module's PLAYED and winner: plateau.games)."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import astuple, dataclass
from pathlib import Path
from typing import IO, Any

from plateau import events
from plateau.logger import scan_log
from plateau.repeats import Read, Reader
from plateau.schema import IDENT_COLUMN, SCHEMA, boots, check_all, checked, count_ok

COMMIT_S = 1.0  # the index commits at most this often (each commit fsyncs the log first)
MAX_GAMES = 10_000  # rows per log: a board announcing games without end does not fill the disk

IDENT_BYTES = 4096  # a log's identity: a hash of its first bytes and of those before the offset


def ident(f: IO[bytes], offset: int) -> str:
    """A log's identity up to `offset`: a hash of its first bytes and of those before the
    offset (a log appended to keeps it; another file at the same path has another)."""
    h = hashlib.sha256()
    f.seek(0)
    h.update(f.read(min(offset, IDENT_BYTES)))
    f.seek(max(0, offset - IDENT_BYTES))
    h.update(f.read(min(offset, IDENT_BYTES)))
    return h.hexdigest()[:32]


def same_log(path: str | os.PathLike, offset: int, known: str | None) -> bool:
    """Whether the log at `path` is still the one indexed up to `offset` with identity
    `known` (None: an index written before identities: believed)."""
    if known is None:
        return True
    with open(path, "rb") as f:
        if os.fstat(f.fileno()).st_size < offset:
            return False
        return ident(f, offset) == known


def scalar(v: Any) -> str | int | None:
    """A value the index may store: a short string or a number, else nothing."""
    if isinstance(v, str) and len(v) <= 64:
        return v
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) < events.MAX_INT:
        return v
    return None


@dataclass
class Row:
    id: int
    first_line: int
    last_line: int
    boot: str | None
    first_seq: int | None
    last_seq: int | None
    game: str | int | None
    rules: str | int | None
    players: int | None
    moves: int
    winner: str | int | None


@functools.lru_cache(maxsize=64)
def _host(game: object):
    """The host side of a row's game (plateau.games), PLAIN's for a game this host does not
    know (a log from another firmware) or none named."""
    from plateau import games

    try:
        return games.find(game) if isinstance(game, str) else games.PLAIN
    except ValueError:
        return games.PLAIN


def plays(game: object) -> tuple[str, str]:
    """(the event counted, its name) for a game's row (its `moves` column): the game's
    host module's PLAYED, moves for a game without one."""
    return _host(game).PLAYED


def _players(ev: dict) -> int | None:
    """How many play, from whichever field a game's greeting or `game` event says it in."""
    for where in (ev.get("position"), ev, ev.get("settings")):
        n = where.get("players") if isinstance(where, dict) else None
        if count_ok(n) and not isinstance(n, bool):  # a number: a word is not a count
            return n
    stacks = ev.get("stacks")  # Hold'em's `game` event: a stack a seat
    return len(stacks) if isinstance(stacks, dict) and stacks else None


def _named_winner(ev: dict, before: object) -> object:
    """The winner of a game without a host module of its own: the seat a `win` names, or the
    winner a `match_end` names."""
    kind = ev["type"]
    if kind == "win":
        return scalar(ev.get("seat")) or before
    if kind == "match_end":
        return scalar(ev.get("winner")) or before
    return before


class Index:
    """games(log, first_line, last_line, boot, seqs, game, rules, players, moves, winner),
    one row a game of any kind, derived from the log line by line (`add`), committed with how
    far it has read (`indexed`). A game starts at a `game` event, at a greeting whose game
    differs from the one indexed or from another boot (a board that lost its game), or
    (Pocha, whose `new` says nothing) at a first hand after hands; a row in which nothing
    was played yet (no numbered event but the one that started it) is reused rather than a
    new one made. The lines are taken as every reader takes them (repeats.Reader): one
    that breaks the log's rules is not taken and is named in `faults` (those read by this
    Index); a hello of a new boot waits for the lines after it to say it was a restart, and
    the index commits how far it has read only up to before it (`kept`), so that the next
    open reads it again and decides the same."""

    def __init__(
        self,
        path: str | os.PathLike,
        log: str | os.PathLike,
        rebuild: bool = False,
        clock: Callable[[], float] = time.monotonic,
        busy_s: float = 5.0,
    ) -> None:
        """`busy_s`: how long a commit waits for another program holding the file locked
        (plateau log gives little: its log goes on, and the index catches up later)."""
        self.clock = clock
        self.db = sqlite3.connect(str(path), timeout=busy_s)
        self.db.executescript(SCHEMA)
        cols = [r[1] for r in self.db.execute("pragma table_info(indexed)")]
        if "ident" not in cols:
            self.db.execute(IDENT_COLUMN)
        self.log = str(Path(log).resolve())
        if rebuild:  # before reading any of it: a damaged index is what a rebuild is for
            self._forget()
            # rows whose log is not text are no log's: no rebuild of a log would reach them
            self.db.execute("delete from games where typeof(log) != 'text'")
            self.db.execute("delete from indexed where typeof(log) != 'text'")
        check_all(self.db)
        self._load()

    def _forget(self) -> None:
        self.db.execute("delete from games where log = ?", (self.log,))
        self.db.execute("delete from indexed where log = ?", (self.log,))

    def _load(self) -> None:
        cols = "offset, line, boots, unindexed_games, ident"
        got = self.db.execute(f"select {cols} from indexed where log = ?", (self.log,)).fetchone()
        if got:
            checked("indexed", cols, got)
        self.ident: str | None = got[4] if got else None
        self.offset: int = got[0] if got else 0
        self.line: int = got[1] if got else 0
        self.unindexed: int = got[3] if got else 0
        self.kept: tuple[int, int] = (self.line, self.offset)  # (line, offset) committed
        cols = (
            "id, first_line, last_line, boot, first_seq, last_seq, game, rules, players,"
            " moves, winner"
        )
        row = self.db.execute(
            f"select {cols} from games where log = ? order by id desc limit 1", (self.log,)
        ).fetchone()
        self.cur = Row(*checked("games", cols, row)) if row else None
        cur = self.cur
        self.reader = Reader(
            boots(got[2]) if got else {},
            cur.boot if cur and isinstance(cur.boot, str) else None,
            cur.game if cur and isinstance(cur.game, str) else None,
        )
        self.faults: list[tuple[int, str]] = []  # (line, why) of the lines not taken
        self.rows = self.db.execute(
            "select count(*) from games where log = ?", (self.log,)
        ).fetchone()[0]
        self._dirty = 0
        self._committed = self.clock()

    def rebuild(self) -> None:
        """Forget this log's rows and read it again from the first line."""
        self._forget()
        self._load()
        self.catch_up()

    def catch_up(self) -> int:
        """Reads the lines written since the last commit (all of them for a new index);
        starts again from the first line if the log is shorter than what was indexed (it was
        replaced). Returns the lines read."""
        try:
            f = open(self.log, "rb")  # noqa: SIM115 (closed below)
        except FileNotFoundError:
            return 0
        with f:
            size = os.fstat(f.fileno()).st_size
            if (
                size < self.offset
                or (self.offset and not _ends_line(f, self.offset))
                or (self.ident is not None and ident(f, self.kept[1]) != self.ident)
            ):  # another log at this path (replaced): read from its first line
                self._forget()
                self._load()
            n = 0
            for line, end, ev, _ in scan_log(f, self.offset, self.line, partial=False):
                self.add(line, end, ev)
                n += 1
        self.commit()
        return n

    def add(self, line: int, end: int, ev: dict | None) -> None:
        """Log line number `line`, ending at byte `end`, holding ev (None: a bad line)."""
        self.line, self.offset = line, end
        self._dirty += 1
        for read in self.reader.read(line, ev) if ev is not None else ():
            self._take(read)
        if not self.reader.held:
            self.kept = (line, end)

    def _take(self, read: Read) -> None:
        """One line as the reader took it: a game's row started or added to."""
        line, ev = read.line, read.ev
        if read.fault:
            self.faults.append((line, read.fault))
            return
        kind = ev["type"]
        game = scalar(ev.get("game"))
        cur = self.cur
        # a greeting: a snapshot, or a hello that opens a boot (one of the boot followed only
        # says where the board is: a `game` event or a snapshot says what it plays)
        greeting = (kind == "snapshot" or (kind == "hello" and read.opens)) and game
        if (
            kind == "game"
            or (greeting and (cur is None or game != cur.game))
            # a board that lost its game (a new boot: erased, or another board) plays anew
            or (greeting and cur and cur.boot is not None and ev.get("boot") != cur.boot)
            or (kind == "hand_start" and ev.get("hand") == 1 and cur and cur.moves)
        ):
            self._start(line, ev)
        cur = self.cur
        if cur is None:
            return
        if kind in ("hello", "snapshot") and game == cur.game:  # what the row lacks, it says
            cur.players = cur.players if cur.players is not None else _players(ev)
            cur.rules = cur.rules if cur.rules is not None else scalar(ev.get("rules"))
        cur.last_line = line
        if read.opens:  # the boot it follows (a reopened index takes it up from the row)
            cur.boot = ev["boot"]
        if "seq" in ev:
            cur.boot, cur.last_seq = ev.get("boot"), ev["seq"]
            if cur.first_seq is None:
                cur.first_seq = ev["seq"]
        if kind == plays(cur.game)[0]:
            cur.moves += 1
        winner = _host(cur.game).winner or _named_winner
        cur.winner = scalar(winner(ev, cur.winner))

    def _start(self, line: int, ev: dict) -> None:
        pos = ev.get("position")
        pos = pos if isinstance(pos, dict) else {}
        seq = ev.get("seq")
        cur = self.cur
        same = cur is not None and ev.get("game") in (None, cur.game)
        game = scalar(ev.get("game")) if not same or cur is None else cur.game
        rules = scalar(pos.get("rules", ev.get("rules")))
        players = _players(ev)
        if same and cur is not None:  # what this event does not say, the row's game did
            rules = rules if rules is not None else cur.rules
            players = players if players is not None else cur.players
        if cur is not None and cur.first_seq in (None, cur.last_seq) and not cur.moves:
            # nothing happened in the row's game: it is this one (a `game` after the
            # greeting that announced the table, a game changed before any play)
            cur.first_line, cur.game, cur.rules, cur.players = line, game, rules, players
            cur.first_seq = cur.last_seq = seq
            cur.winner = None
            return
        if self.rows >= MAX_GAMES:
            self.unindexed += 1  # counted; the last row goes on
            return
        self._write_row()
        new = self.db.execute(
            "insert into games (log, first_line, last_line, game) values (?, ?, ?, ?)",
            (self.log, line, line, game),
        )
        assert new.lastrowid is not None
        self.rows += 1
        self.cur = Row(new.lastrowid, line, line, None, seq, seq, game, rules, players, 0, None)

    def _write_row(self) -> None:
        if self.cur is not None:
            _, *values = astuple(self.cur)
            self.db.execute(
                "update games set first_line = ?, last_line = ?, boot = ?, first_seq = ?,"
                " last_seq = ?, game = ?, rules = ?, players = ?, moves = ?, winner = ?"
                " where id = ?",
                (*values, self.cur.id),
            )

    def due(self) -> bool:
        return self._dirty > 0 and self.clock() - self._committed >= COMMIT_S

    def commit(self) -> None:
        """The rows and how far they go, in one transaction."""
        self._write_row()
        line, offset = self.kept
        try:
            with open(self.log, "rb") as f:
                self.ident = ident(f, offset)
        except OSError:  # the log gone meanwhile: the next catch-up sees it
            self.ident = None
        self.db.execute(
            "insert or replace into indexed (log, offset, line, boots, unindexed_games, ident)"
            " values (?, ?, ?, ?, ?, ?)",
            (
                self.log,
                offset,
                line,
                json.dumps(self.reader.repeats.boots),
                self.unindexed,
                self.ident,
            ),
        )
        self.db.commit()
        self._dirty = 0
        self._committed = self.clock()

    def games(self) -> list[tuple]:
        cols = "id, game, rules, players, moves, winner, first_line, last_line"
        rows = self.db.execute(
            f"select {cols} from games where log = ? order by id", (self.log,)
        ).fetchall()
        return [checked("games", cols, row) for row in rows]

    def close(self) -> None:
        self.commit()
        self.db.close()

    def abandon(self) -> None:
        """Closed without a commit (what it read since the last one is read again by the
        next catch-up): an index that failed."""
        try:
            self.db.close()
        except sqlite3.Error:
            pass


def _ends_line(f: IO[bytes], offset: int) -> bool:
    f.seek(offset - 1)
    return f.read(1) == b"\n"
