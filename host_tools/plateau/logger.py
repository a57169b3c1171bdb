"""Events to disk (P6): one JSON object a line, written as it arrives, and an SQLite index
of the games in the log.

Each line is flushed to the operating system as soon as it is written, so a crash of the
logger loses nothing it had received; the file is fsync'ed at most every FSYNC_S, so a power
cut loses at most that much. The SQLite index is derived data: it can be rebuilt from the
log by reading it again."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path

FSYNC_S = 0.5

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
    winner text,
    started real,
    updated real
);
"""


class Index:
    """games(log, first_line, last_line, boot, seqs, game, rules, players, moves, winner)."""

    def __init__(self, path: str | os.PathLike, log: str):
        self.db = sqlite3.connect(str(path))
        self.db.execute(SCHEMA)
        self.log = log
        self.current: int | None = None
        self._dirty = 0
        self._last: tuple = (0, None, None)  # line, seq, boot of the latest event
        self._moves = 0  # moves since the last commit
        self._winner: str | None = None

    def event(self, line: int, ev: dict) -> None:
        """Most events only move the game's last line and seq on: those are kept here and
        written with the next commit (every 200 events, and at every game, move... that
        counts), so indexing costs next to nothing per event."""
        kind = ev.get("type")
        if kind == "game" or (kind == "hello" and self.current is None):
            self.commit()
            pos = ev.get("position", {})
            now = time.time()
            cur = self.db.execute(
                "insert into games (log, first_line, last_line, boot, first_seq, last_seq,"
                " game, rules, players, started, updated) values (?,?,?,?,?,?,?,?,?,?,?)",
                (
                    self.log,
                    line,
                    line,
                    ev.get("boot"),
                    ev.get("seq"),
                    ev.get("seq"),
                    ev.get("game"),
                    pos.get("rules", ev.get("rules")),
                    pos.get("players", ev.get("players")),
                    now,
                    now,
                ),
            )
            self.current = cur.lastrowid
            self._moves = 0
            self._winner = None
        if self.current is None:
            return
        self._last = (line, ev.get("seq", self._last[1]), ev.get("boot", self._last[2]))
        if kind == "move":
            self._moves += 1
        elif kind in ("win", "match_end"):
            self._winner = ev.get("seat") or ev.get("winner")
        self._dirty += 1
        if self._dirty >= 200 or kind in ("win", "match_end"):
            self.commit()

    def commit(self) -> None:
        if self.current is not None and self._dirty:
            line, seq, boot = self._last
            self.db.execute(
                "update games set last_line = ?, last_seq = ?, boot = ?, moves = moves + ?,"
                " winner = coalesce(?, winner), updated = ? where id = ?",
                (line, seq, boot, self._moves, self._winner, time.time(), self.current),
            )
            self._moves = 0
        self.db.commit()
        self._dirty = 0

    def games(self) -> list[tuple]:
        return self.db.execute(
            "select id, game, rules, players, moves, winner, first_line, last_line from games"
            " order by id"
        ).fetchall()

    def close(self) -> None:
        self.commit()
        self.db.close()


class Logger:
    def __init__(self, path: str | os.PathLike, db: str | os.PathLike | None = None):
        self.path = Path(path)
        self.lines = 0  # lines already in the file: appending goes on from there
        if self.path.exists():
            with open(self.path, encoding="utf-8", errors="replace") as f:
                self.lines = sum(1 for _ in f)
        self.file = open(self.path, "ab")  # noqa: SIM115 (kept open)
        self.index = Index(db, str(self.path)) if db else None
        self._synced = time.monotonic()

    def write(self, ev: dict, raw: bytes | None = None) -> None:
        """One event, one line. `raw`: the event's JSON exactly as the board sent it (the
        link's payload), written as is instead of encoding `ev` again."""
        if raw is None:
            raw = json.dumps(ev, separators=(",", ":")).encode()
        self.file.write(raw + b"\n")
        self.file.flush()
        self.lines += 1
        if self.index:
            self.index.event(self.lines, ev)
        now = time.monotonic()
        if now - self._synced >= FSYNC_S:
            os.fsync(self.file.fileno())
            self._synced = now

    def close(self) -> None:
        self.file.flush()
        os.fsync(self.file.fileno())
        self.file.close()
        if self.index:
            self.index.close()


def last_event(path: str | os.PathLike) -> tuple[str | None, int]:
    """(boot, seq) of the last numbered event in a log, or (None, 0): where a restarted
    logger takes up, so the board resends only what it missed."""
    boot, seq = None, 0
    if not Path(path).exists():
        return boot, seq
    for item in read_log(path):
        ev = item[1]
        if ev is not None and isinstance(ev.get("seq"), int):
            boot, seq = ev.get("boot"), ev["seq"]
    return boot, seq


def read_log(path: str | os.PathLike):
    """Yields (line number, event) for each good line; (line number, None, why) for a bad
    one. A Plateau log is JSON lines of objects with a "type"."""
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                ev = json.loads(line)
            except ValueError:
                yield n, None, "not JSON (a line cut short by a crash?)"
                continue
            if not isinstance(ev, dict) or "type" not in ev:
                yield n, None, 'not a Plateau event (no "type")'
                continue
            yield n, ev, None
