"""Events to disk (P6): one JSON object a line, written by the host's own serialiser as each
event arrives, and the games in it indexed (plateau.index), the index consistent with it.

Each line is flushed to the operating system as soon as it is written, so a crash of the
logger loses nothing it had received; the file is fsync'ed at most every FSYNC_S, so a power
cut loses at most that much (and the board resends it: a restarted logger asks from the last
event on disk). A line cut short by a crash is removed when the log is opened again.

The log is the truth; the index is derived from it and never gets ahead of what is on disk
(plateau/index.py says how). This module also reads a log back (`read_log`) and tells a
restarted logger where to take up (`take_up`)."""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from plateau import events
from plateau.repeats import BOOTS_KEPT

FSYNC_S = 0.5


class LogError(Exception):
    """A log that cannot be written: the message says why."""


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


def _same_file(a: Path, b: Path) -> bool:
    """One file by two names (the same path, or the same file through a link)."""
    if a.resolve() == b.resolve():
        return True
    try:
        return a.samefile(b)
    except OSError:  # one of them does not exist yet
        return False


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
        from plateau.index import Index  # (which reads logs with this module's scan_log)

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
