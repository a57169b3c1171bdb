"""Events to disk (P6): one JSON object a line, written by the host's own serialiser as each
event arrives, and an SQLite index of the games in the log that stays consistent with it.

Each line is flushed to the operating system as soon as it is written, so a crash of the
logger loses nothing it had received; the file is fsync'ed at most every FSYNC_S, so a power
cut loses at most that much (and the board resends it: a restarted logger asks from the last
event on disk). A line cut short by a crash is removed when the log is opened again.

The log is the truth; the index is derived from it. The index records how far into the log
it has read (byte offset and line) in the same SQLite transaction as its rows, and commits
only what is already on disk, so a kill at any point leaves an index that summarises a prefix
of the log exactly; the next open reads on from there. `plateau index --rebuild LOG` starts
it again from the first line."""

from __future__ import annotations

import fcntl
import functools
import hashlib
import json
import os
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import astuple, dataclass
from pathlib import Path
from typing import IO, Any

from plateau import events

FSYNC_S = 0.5
COMMIT_S = 1.0  # the index commits at most this often (each commit fsyncs the log first)
MAX_GAMES = 10_000  # rows per log: a board announcing games without end does not fill the disk
BOOTS_KEPT = 64  # boots whose numbers seen the index remembers (to drop repeated lines)
RANGES_KEPT = 32  # ranges of numbers seen a boot (one in a good log; a damaged line adds one)

SCHEMA = """
create table if not exists games (
    id integer primary key,
    log text not null,
    first_line integer not null,
    last_line integer not null,
    boot text,
    first_seq integer,
    last_seq integer,
    game text,
    rules text,
    players integer,
    moves integer not null default 0,
    winner text
);
create table if not exists indexed (
    log text primary key,
    offset integer not null,
    line integer not null,
    boots text not null,
    unindexed_games integer not null default 0
);
"""
# which log the index read: its first bytes and the bytes before the offset read (a log
# replaced by another file at the same path is not the one indexed). Added after the table
# was made: an index written before gets the column (and no identity, until it commits).
IDENT_COLUMN = "alter table indexed add column ident text"
IDENT_BYTES = 4096


class LogError(Exception):
    """A log that cannot be written: the message says why."""


class DamagedIndex(sqlite3.DatabaseError):
    """An index whose values are not of their column's kind (a disk error, a hand edit):
    refused in one line with the way out, like any other database SQLite refuses."""


def _count_ok(v: object) -> bool:
    return isinstance(v, int) and 0 <= v < events.MAX_INT


def _scalar_ok(v: object) -> bool:
    return v is None or isinstance(v, str) or _count_ok(v)


_KINDS: dict[str, tuple[Any, str]] = {
    "count": (_count_ok, "a whole number >= 0"),
    "count?": (lambda v: v is None or _count_ok(v), "a whole number >= 0 or nothing"),
    "text": (lambda v: isinstance(v, str), "text"),
    "text?": (lambda v: v is None or isinstance(v, str), "text or nothing"),
    "scalar?": (_scalar_ok, "text, a whole number or nothing"),
}
# each column the host tools read, and the kind of value it must hold
COLUMNS: dict[str, dict[str, str]] = {
    "games": {
        "id": "count",
        "log": "text",
        "first_line": "count",
        "last_line": "count",
        "boot": "text?",
        "first_seq": "count?",
        "last_seq": "count?",
        "game": "scalar?",
        "rules": "scalar?",
        "players": "count?",
        "moves": "count",
        "winner": "scalar?",
    },
    "indexed": {
        "log": "text",
        "offset": "count",
        "line": "count",
        "boots": "text",
        "unindexed_games": "count",
        "ident": "text?",
    },
}
REBUILD = "plateau index LOG --db DB --rebuild makes it again from its log"


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


def checked(table: str, columns: str, row: tuple) -> tuple:
    """A row read from the index, each value of its column's kind (DamagedIndex if not)."""
    for name, value in zip((c.strip() for c in columns.split(",")), row, strict=True):
        ok, kind = _KINDS[COLUMNS[table][name]]
        if not ok(value):
            shown = events.clean(events.excerpt(repr(value), 40))
            raise DamagedIndex(
                f"damaged index: {table}.{name} holds {shown}, not {kind}; {REBUILD}"
            )
    return row


def check_all(db: sqlite3.Connection) -> None:
    """Every row of the index (every log's), each value of its column's kind, each game's
    lines in order: DamagedIndex if not. Every command that opens an index (to read it or to
    write into it) calls this first, so one damaged value is refused by all of them alike, not
    only by the one that happens to read its row (a row whose `log` is not text is no log's:
    a reader that selects by log never sees it)."""
    for table, kinds in COLUMNS.items():
        have = {r[1] for r in db.execute(f"pragma table_info({table})")}
        cols = ", ".join(c for c in kinds if c in have)
        if not cols:
            continue  # no such table (yet): nothing in it to be damaged
        for row in db.execute(f"select {cols} from {table}"):
            checked(table, cols, row)
            if table == "indexed" and "boots" in have:
                _boots(row[cols.split(", ").index("boots")])
            if table == "games" and row[2] > row[3]:  # first_line, last_line
                raise DamagedIndex(
                    f"damaged index: game {row[0]} starts at line {row[2]}, after its last"
                    f" line {row[3]}; {REBUILD}"
                )


def _boots(text: str) -> dict[str, dict]:
    """indexed.boots: each boot's numbers seen (logger.Repeats), as JSON; an index written
    before kept the last seq of each boot only (the numbers up to it seen)."""
    try:
        boots = json.loads(text)
    except ValueError:
        boots = None
    out: dict[str, dict] = {}
    for k, v in boots.items() if isinstance(boots, dict) else [(None, None)]:
        if isinstance(k, str) and isinstance(v, int) and _count_ok(v):
            out[k] = up_to(v)
        elif isinstance(k, str) and isinstance(v, dict) and _seen_ok(v):
            out[k] = v
        else:
            shown = events.clean(events.excerpt(repr(text), 40))
            raise DamagedIndex(f"damaged index: indexed.boots holds {shown}; {REBUILD}")
    return out


def _seen_ok(v: object) -> bool:
    """A boot's numbers seen as Repeats keeps them: sorted, disjoint ranges, a few."""
    if not isinstance(v, dict) or set(v) != {"r", "last", "jump"}:
        return False
    ranges = v["r"]
    if not isinstance(ranges, list) or len(ranges) > RANGES_KEPT:
        return False
    below = -1
    for r in ranges:
        if not (isinstance(r, list) and len(r) == 2 and all(_count_ok(x) for x in r)):
            return False
        if not below < r[0] <= r[1]:
            return False
        below = r[1]
    return all(x is None or _count_ok(x) for x in (v["last"], v["jump"]))


def scan_log(
    f: IO[bytes], offset: int = 0, line: int = 0, partial: bool = True
) -> Iterator[tuple[int, int, dict | None, str | None]]:
    """(line number, offset after the line, event or None, why not) for each line from
    `offset`. Lines are read at most MAX_LINE bytes at a time: a line without end costs its
    length in time, not in memory. A last line without its newline (a writer cut short, or
    one still writing) is read only if `partial`."""
    f.seek(offset)
    while True:
        raw = f.readline(events.MAX_LINE + 1)
        if not raw:
            return
        if not raw.endswith(b"\n") and len(raw) <= events.MAX_LINE and not partial:
            return
        line += 1
        offset += len(raw)
        if not raw.endswith(b"\n") and len(raw) > events.MAX_LINE:
            while raw and not raw.endswith(b"\n"):  # skip the rest of the long line
                raw = f.readline(events.MAX_LINE + 1)
                offset += len(raw)
            yield line, offset, None, f"longer than {events.MAX_LINE} bytes"
            continue
        text = raw.strip()
        if not text:
            yield line, offset, None, None
            continue
        ev, why = events.parse(text)
        if why == "not JSON":
            why = "not JSON (a line cut short by a crash?)"
        yield line, offset, ev, why


def read_log(path: str | os.PathLike) -> Iterator[tuple[int, dict | None, str | None]]:
    """Yields (line number, event, None) for each good line, (line number, None, why) for a
    bad one; blank lines are skipped."""
    with open(path, "rb") as f:
        for n, _, ev, why in scan_log(f):
            if ev is not None or why is not None:
                yield n, ev, why


class Repeats:
    """Drops lines that repeat a numbered event already seen: per boot, the numbers seen, as
    ranges (one, in a good log). A number out of its boot's order (a jump no gap line says,
    or a step back to a number not seen) is taken, and `odd` says why: a damaged line, or
    lines missing. When the numbering goes on below a jump, the jump was a damaged number:
    it is not held against the event that really bears it (a damaged seq in the middle of a
    log hid every later line of its boot). Bounded: the last BOOTS_KEPT boots, RANGES_KEPT
    ranges a boot (past that the lowest is forgotten: a repeat of it is taken again, which
    loses nothing)."""

    def __init__(self, boots: dict[str, dict] | None = None):
        self.boots: OrderedDict[str, dict] = OrderedDict(boots or {})
        self.odd: str | None = None  # why the event last taken is out of its boot's order

    def seen(self, ev: dict) -> bool:
        self.odd = None
        boot = ev.get("boot")
        if not isinstance(boot, str):
            return False
        kind = ev["type"]
        if kind in ("retake", "gap"):
            b = self._boot(boot)
            if kind == "retake":
                # the logger found lines the board never sent: the numbers from "from" on
                # are taken again (hostlink.Receiver._check_log)
                b["r"] = [[lo, min(hi, ev["from"] - 1)] for lo, hi in b["r"] if lo < ev["from"]]
                b["last"] = ev["from"] - 1
            elif isinstance(ev.get("to"), int):
                b["last"] = ev["to"]  # gone, as the line says: what follows is in order
            b["jump"] = None
            return False
        seq = ev.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool):
            return False
        b = self._boot(boot)
        ranges = b["r"]
        if any(lo <= seq <= hi for lo, hi in ranges):
            return True
        last, jump = b["last"], b["jump"]
        if jump is not None and seq < jump:  # the numbering goes on below the jump
            _drop(ranges, jump)
            b["jump"] = None
        elif last is not None and seq > last + 1:
            self.odd = f"event #{seq} of boot {boot} follows #{last}, no gap line between"
            b["jump"] = seq
        elif last is not None and seq <= last:
            self.odd = f"event #{seq} of boot {boot} comes after #{last}"
        else:
            b["jump"] = None  # in order: a jump before it was lines missing, not a damage
        _add(ranges, seq)
        b["last"] = seq
        return False

    def had(self, boot: str, seq: int) -> None:
        """Every number of `boot` up to `seq` seen (a state taken up from there)."""
        self.boots[boot] = up_to(seq)

    def _boot(self, boot: str) -> dict:
        b = self.boots.get(boot)
        if b is None:
            b = self.boots[boot] = {"r": [], "last": None, "jump": None}
        self.boots.move_to_end(boot)
        while len(self.boots) > BOOTS_KEPT:
            self.boots.popitem(last=False)
        return b


def up_to(seq: int) -> dict:
    """A boot's numbers seen, all of them up to `seq` (its last)."""
    return {"r": [[1, seq]] if seq > 0 else [], "last": seq, "jump": None}


def _add(ranges: list[list[int]], n: int) -> None:
    """n into sorted, disjoint ranges [lo, hi] (it is in none of them)."""
    i = 0
    while i < len(ranges) and ranges[i][1] < n:
        i += 1
    if i and ranges[i - 1][1] == n - 1:
        ranges[i - 1][1] = n
        if i < len(ranges) and ranges[i][0] == n + 1:
            ranges[i - 1][1] = ranges.pop(i)[1]
    elif i < len(ranges) and ranges[i][0] == n + 1:
        ranges[i][0] = n
    else:
        ranges.insert(i, [n, n])
    del ranges[:-RANGES_KEPT]


def _drop(ranges: list[list[int]], n: int) -> None:
    """n out of the ranges."""
    for i, (lo, hi) in enumerate(ranges):
        if lo <= n <= hi:
            ranges[i : i + 1] = [r for r in ([lo, n - 1], [n + 1, hi]) if r[0] <= r[1]]
            return


def last_event(path: str | os.PathLike) -> tuple[str | None, int, list[str]]:
    """Where a restarted logger takes up: the boot the log heard last and its last numbered
    event (0 when it has only that boot's hello and snapshot: a new or erased board), and the
    boots before it (the board resends only what was missed, and late frames of the earlier
    boots are not taken). The last boot is the last one any line names, numbered or not:
    taking the last numbered event's boot instead would end the board that is talking."""
    boot: str | None = None
    last: dict[str, int] = {}  # boot -> its last number, in the order the log last names them
    if not Path(path).exists():
        return boot, 0, []
    for _, ev, _ in read_log(path):
        if ev is None or not isinstance(ev.get("boot"), str):
            continue
        boot = ev["boot"]
        seq = ev["to"] if ev["type"] == "gap" else ev.get("seq")
        had = last.pop(boot, 0) if ev["type"] != "retake" else ev["from"] - 1
        last[boot] = max(had, seq if isinstance(seq, int) else 0)
    seq = last.pop(boot, 0) if boot is not None else 0
    return boot, seq, list(last)[-BOOTS_KEPT:]


def log_has(path: str | os.PathLike, boot: str, most: int) -> int:
    """The highest number of `boot` the log holds (an event, or the end of a gap) that is
    at most `most`; 0 for none. What a logger takes up from when the board contradicts the
    log's last state."""
    best = 0
    for _, ev, _ in read_log(path):
        if ev is not None and ev.get("boot") == boot:
            if ev["type"] == "retake":
                best = min(best, ev["from"] - 1)
            seq = ev["to"] if ev["type"] == "gap" else ev.get("seq")
            if isinstance(seq, int) and best < seq <= most:
                best = seq
    return best


def take_up(rx: Any, path: str | os.PathLike) -> None:
    """A restarted logger's receiver (hostlink.Receiver) takes up where the log `path` ends:
    it asks only for what it missed, and takes no late frame of a boot that ended before.
    The board's first hello is checked against that (Receiver._check_log)."""
    rx.take_up(*last_event(path), lambda b, most: log_has(path, b, most))


def _scalar(v: Any) -> str | int | None:
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
def plays(game: object) -> tuple[str, str]:
    """(the event counted, its name) for a game's row (its `moves` column): the game's view
    module's PLAYED (plateau.registry), moves for a game without one."""
    from plateau import registry

    try:
        return registry.find(game).PLAYED if isinstance(game, str) else ("move", "moves")
    except ValueError:  # a game the registry does not know (a log from another firmware)
        return ("move", "moves")


def _players(ev: dict) -> int | None:
    """How many play, from whichever field a game's greeting or `game` event says it in."""
    for where in (ev.get("position"), ev, ev.get("settings")):
        n = where.get("players") if isinstance(where, dict) else None
        if _count_ok(n) and not isinstance(n, bool):  # a number: a word is not a count
            return n
    stacks = ev.get("stacks")  # Hold'em's `game` event: a stack a seat
    return len(stacks) if isinstance(stacks, dict) and stacks else None


def _winner(ev: dict) -> str | int | None:
    """The winner an event names, if it ends a game: Tock's `win`, Weykick's and Pocha's
    `match_end` (Pocha's ranking, highest first: its first place is never shared), a
    Hold'em hand that leaves one seat with every chip."""
    kind = ev["type"]
    if kind == "win":
        return _scalar(ev.get("seat"))
    if kind == "match_end":
        ranking = ev.get("ranking")
        if isinstance(ranking, list) and ranking and isinstance(ranking[0], list) and ranking[0]:
            return _scalar(ranking[0][0])
        return _scalar(ev.get("winner"))
    if kind == "hand_end" and isinstance(ev.get("stacks"), dict):
        left = [s for s, chips in ev["stacks"].items() if chips]
        return _scalar(left[0]) if len(left) == 1 and len(ev["stacks"]) > 1 else None
    return None


class Index:
    """games(log, first_line, last_line, boot, seqs, game, rules, players, moves, winner),
    one row a game of any kind, derived from the log line by line (`add`), committed with how
    far it has read (`indexed`). A game starts at a `game` event, at a greeting whose game
    differs from the one indexed or from another boot (a board that lost its game), or
    (Pocha, whose `new` says nothing) at a first hand after hands; a row in which nothing
    was played yet (no numbered event but the one that started it) is reused rather than a
    new one made."""

    def __init__(
        self, path: str | os.PathLike, log: str | os.PathLike, rebuild: bool = False
    ) -> None:
        self.db = sqlite3.connect(str(path))
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
        self.repeats = Repeats(_boots(got[2]) if got else {})
        cols = (
            "id, first_line, last_line, boot, first_seq, last_seq, game, rules, players,"
            " moves, winner"
        )
        row = self.db.execute(
            f"select {cols} from games where log = ? order by id desc limit 1", (self.log,)
        ).fetchone()
        self.cur = Row(*checked("games", cols, row)) if row else None
        self.rows = self.db.execute(
            "select count(*) from games where log = ?", (self.log,)
        ).fetchone()[0]
        self._dirty = 0
        self._committed = time.monotonic()

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
                or (self.ident is not None and ident(f, self.offset) != self.ident)
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
        if ev is None or self.repeats.seen(ev):
            return
        kind = ev["type"]
        game = _scalar(ev.get("game"))
        cur = self.cur
        greeting = kind in ("hello", "snapshot") and game
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
            cur.rules = cur.rules if cur.rules is not None else _scalar(ev.get("rules"))
        cur.last_line = line
        if "seq" in ev:
            cur.boot, cur.last_seq = ev.get("boot"), ev["seq"]
            if cur.first_seq is None:
                cur.first_seq = ev["seq"]
        if kind == plays(cur.game)[0]:
            cur.moves += 1
        if kind in ("win", "match_end", "hand_end"):
            cur.winner = _winner(ev) or cur.winner
        elif kind == "withdrawn":  # Weykick: an undo took the result back
            cur.winner = None
        elif kind == "undo" and "steps" in ev:
            # a move taken back (Tock's undo names its steps): a win ends a Tock game, so the
            # move undone was the winning one
            cur.winner = None

    def _start(self, line: int, ev: dict) -> None:
        pos = ev.get("position")
        pos = pos if isinstance(pos, dict) else {}
        seq = ev.get("seq")
        cur = self.cur
        same = cur is not None and ev.get("game") in (None, cur.game)
        game = _scalar(ev.get("game")) if not same or cur is None else cur.game
        rules = _scalar(pos.get("rules", ev.get("rules")))
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
        return self._dirty > 0 and time.monotonic() - self._committed >= COMMIT_S

    def commit(self) -> None:
        """The rows and how far they go, in one transaction."""
        self._write_row()
        try:
            with open(self.log, "rb") as f:
                self.ident = ident(f, self.offset)
        except OSError:  # the log gone meanwhile: the next catch-up sees it
            self.ident = None
        self.db.execute(
            "insert or replace into indexed (log, offset, line, boots, unindexed_games, ident)"
            " values (?, ?, ?, ?, ?, ?)",
            (
                self.log,
                self.offset,
                self.line,
                json.dumps(self.repeats.boots),
                self.unindexed,
                self.ident,
            ),
        )
        self.db.commit()
        self._dirty = 0
        self._committed = time.monotonic()

    def games(self) -> list[tuple]:
        cols = "id, game, rules, players, moves, winner, first_line, last_line"
        rows = self.db.execute(
            f"select {cols} from games where log = ? order by id", (self.log,)
        ).fetchall()
        return [checked("games", cols, row) for row in rows]

    def close(self) -> None:
        self.commit()
        self.db.close()


def _same_file(a: Path, b: Path) -> bool:
    """One file by two names (the same path, or the same file through a link)."""
    if a.resolve() == b.resolve():
        return True
    try:
        return a.samefile(b)
    except OSError:  # one of them does not exist yet
        return False


def _ends_line(f: IO[bytes], offset: int) -> bool:
    f.seek(offset - 1)
    return f.read(1) == b"\n"


class Logger:
    """Appends events to a log (one writer at a time: a second logger on the same file is
    refused) and keeps its index."""

    def __init__(self, path: str | os.PathLike, db: str | os.PathLike | None = None):
        self.path = Path(path)
        if db and _same_file(self.path, Path(db)):  # a typo: SQLite would write over lines
            raise LogError(f"{db} is the log itself: the index (--db) needs a file of its own")
        self.file = open(self.path, "a+b")  # noqa: SIM115 (kept open)
        try:
            fcntl.flock(self.file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            self.file.close()
            raise LogError(f"{self.path} is being written by another plateau log") from e
        self._repair()
        self.file.seek(0)
        self.lines = sum(chunk.count(b"\n") for chunk in iter(lambda: self.file.read(1 << 20), b""))
        self.offset = self.file.tell()
        self.written = 0
        self.index = Index(db, self.path) if db else None
        if self.index:
            self.index.catch_up()
        self._synced = time.monotonic()

    def _repair(self) -> None:
        """A last line without its newline was cut short by a crash: it goes (the board
        resends that event: the logger asks from the last whole line)."""
        f = self.file
        size = f.seek(0, os.SEEK_END)
        if not size:
            return
        f.seek(size - 1)
        if f.read(1) == b"\n":
            return
        back = min(size, events.MAX_LINE + 1)
        while True:
            f.seek(size - back)
            tail = f.read(back)
            cut = tail.rfind(b"\n")
            if cut >= 0 or back == size:
                break
            back = min(size, back * 2)
        f.truncate(size - back + cut + 1 if cut >= 0 else 0)

    def write(self, ev: dict) -> None:
        """One event, one line, in the host's own words (never the board's bytes)."""
        line = events.dump(ev)
        if len(line) > events.MAX_LINE:  # cannot happen with 1 KB frames; kept bounded anyway
            line = events.dump(events.bad(ev.get("boot"), ev.get("seq"), "too long", line))
        self.file.write(line)
        self.file.flush()
        self.lines += 1
        self.written += 1
        self.offset += len(line)
        now = time.monotonic()
        index = self.index
        if index:
            index.add(self.lines, self.offset, ev)
        if now - self._synced >= FSYNC_S or (index and index.due()):
            os.fsync(self.file.fileno())  # the index never gets ahead of what is on disk
            self._synced = now
            if index and index.due():
                index.commit()

    def close(self) -> None:
        self.file.flush()
        os.fsync(self.file.fileno())
        if self.index:
            self.index.close()
        self.file.close()
