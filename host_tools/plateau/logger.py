"""Events to disk (P6): one JSON object a line, written by the host's own serialiser as each
event arrives, and the games in it indexed (plateau.index), the index consistent with it.

Each line goes to the operating system as soon as it is written, so a crash of the logger
loses nothing it had received; the file is fsync'ed at most every FSYNC_S, so a power cut
loses at most that much (and the board resends it: a restarted logger asks from the last
event on disk). A line cut short by a crash is removed when the log is opened again.

A log that cannot be written (a full disk, a file-size limit, a disk error, its folder gone)
does not end the logger: the events are held in memory, in order, the write is tried again
every RETRY_S, and when it goes through an `outage` line says what happened before the held
events follow. A line torn by a failing write is cut back at once (or completed, when the
cut fails), so no reader ever finds half a line followed by another. Past HOLD_BYTES held,
the logger takes nothing more from the board (`keep` pauses the receiver): the board's ring
keeps its last events, it is asked for them once the log can be written, and what the ring
no longer has is an exact `gap`. The index failing alone (plateau/index.py) stops only the
index: the log goes on, and the index catches up from its last commit once it can.

The log is the truth; the index is derived from it and never gets ahead of what is on disk
(plateau/index.py says how). This module also reads a log back (`read_log`) and tells a
restarted logger where to take up (`take_up`)."""

from __future__ import annotations

import errno
import fcntl
import os
import sqlite3
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from plateau import events
from plateau.repeats import BOOTS_KEPT

FSYNC_S = 0.5
RETRY_S = 1.0  # a log that could not be written is tried again this often
INDEX_RETRY_S = (1.0, 30.0)  # an index that failed: tried again after 1 s, backing off to 30 s
# Events held in memory while the log cannot be written (a few hours of play); past this the
# receiver is paused and the board's ring keeps the rest (its last 256 events)
HOLD_BYTES = 32 << 20
INDEX_BUSY_S = 0.5  # another program holding the index locked fails its commit after this


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


def _now_text() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _err(e: BaseException) -> str:
    """An OSError or an SQLite error in words (no errno numbers, no Python names)."""
    if isinstance(e, OSError):
        return e.strerror or str(e)
    return str(e) or type(e).__name__


def _stderr(text: str) -> None:
    print(text, file=sys.stderr)


class Logger:
    """Appends events to a log (one writer at a time: a second logger on the same file is
    refused) and keeps its index. `write` never fails for the disk's sake: what cannot be
    written is held and tried again (`tick`, and every `write`); `say` tells a person, once
    per outage, what failed and what is held."""

    def __init__(
        self,
        path: str | os.PathLike,
        db: str | os.PathLike | None = None,
        say: Callable[[str], None] = _stderr,
        clock: Callable[[], float] = time.monotonic,
        hold_bytes: int = HOLD_BYTES,
    ):
        self.path = Path(path)
        if db and _same_file(self.path, Path(db)):  # a typo: SQLite would write over lines
            raise LogError(f"{db} is the log itself: the index (--db) needs a file of its own")
        self.db = db
        self.say = say
        self.clock = clock
        self.hold_bytes = hold_bytes
        try:
            self.fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as e:
            raise LogError(f"cannot write {self.path}: {_err(e)}") from e
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            os.close(self.fd)
            raise LogError(f"{self.path} is being written by another plateau log") from e
        try:
            self._start(db)
        except BaseException:
            os.close(self.fd)  # and its lock with it: another logger may try
            raise

    def _start(self, db: str | os.PathLike | None) -> None:
        clock = self.clock
        self._repair()
        self.offset = os.fstat(self.fd).st_size
        self.lines = _count_lines(self.fd, self.offset)
        self.written = 0
        self.held: deque[tuple[bytes, dict]] = deque()  # lines not yet written, in order
        self.held_bytes = 0
        self.full = False  # held all it may: the receiver is paused (keep) until written
        self.outage: dict | None = None  # the log's: why, since when, what it held
        self.lost: int = 0  # events given up at close, held and never written
        self._retry_at = 0.0
        self._moved_said = False
        self.index: Any = None
        self.index_down: str | None = None  # why the index is not kept, while it is not
        self._index_retry_at = 0.0
        self._index_wait = 0.0
        self._db_ino: int | None = None
        if db:
            self._open_index(at_start=True)
        self._synced = clock()

    # --- the log file -------------------------------------------------------------------

    def _repair(self) -> None:
        """A last line without its newline was cut short by a crash: it goes (the board
        resends that event: the logger asks from the last whole line)."""
        fd = self.fd
        size = os.fstat(fd).st_size
        if not size or os.pread(fd, 1, size - 1) == b"\n":
            return
        back = min(size, events.MAX_LINE + 1)
        while True:
            tail = os.pread(fd, back, size - back)
            cut = tail.rfind(b"\n")
            if cut >= 0 or back == size:
                break
            back = min(size, back * 2)
        os.ftruncate(fd, size - back + cut + 1 if cut >= 0 else 0)

    def _append(self, line: bytes) -> None:
        """One whole line at the log's end, or an OSError and nothing of it left there: the
        first bytes of a write the disk cut short are cut off again at once (a reader never
        finds half a line with another line after it), or, if even that fails, before the
        next line is written."""
        fd = self.fd
        size = os.fstat(fd).st_size
        if size != self.offset:
            self._mend(size)
        view = memoryview(line)
        try:
            while view:
                view = view[os.write(fd, view) :]
        except OSError:
            if len(view) < len(line):
                try:
                    os.ftruncate(fd, self.offset)
                except OSError:
                    pass  # cut before the next line (_mend), or at the next start (_repair)
            raise

    def _mend(self, size: int) -> None:
        """The file does not end where the last whole line did: the first bytes of a line
        whose write failed (cut off: an OSError if that fails again), or a file changed under
        the logger."""
        fd = self.fd
        if size > self.offset:
            os.ftruncate(fd, self.offset)
            return
        # shorter than what was written: cut by another program, or lost by the disk
        self.say(
            f"plateau log: {self.path} is shorter than what was written to it ({size} bytes,"
            f" not {self.offset}): taken as it is; lines written before may be gone"
        )
        self._repair()
        self.offset = os.fstat(fd).st_size
        self.lines = _count_lines(fd, self.offset)

    def _where(self) -> str | None:
        """Why the path no longer names the file being written (removed, its folder with
        it; replaced), or None when it does."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            st = None
        except OSError:
            return None  # its folder cannot be looked into: the file open is all there is
        mine = os.fstat(self.fd)
        if st is not None and (st.st_dev, st.st_ino) == (mine.st_dev, mine.st_ino):
            return None
        if mine.st_nlink:  # still a file somewhere: moved, or another put in its place
            if not self._moved_said:
                self._moved_said = True
                self.say(
                    f"plateau log: {self.path} is no longer the file being written (moved, or"
                    " another file put in its place): the log goes on in the file it was"
                )
            return None
        if st is None:
            return "it was removed (or its folder)"
        return "it was removed and another file put in its place"

    def _restore(self) -> bool:
        """The log removed (its folder with it): written again at its path, whole, from the
        file still open, once the folder is there again. False while it cannot be."""
        try:
            new = os.open(
                self.path,
                os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC,
                0o644,
            )
        except FileExistsError:
            return False  # another file: left alone (the outage says so)
        except OSError:
            return False  # no folder yet, or not writable
        try:
            fcntl.flock(new, fcntl.LOCK_EX | fcntl.LOCK_NB)
            done = 0
            while done < self.offset:
                chunk = os.pread(self.fd, min(1 << 20, self.offset - done), done)
                if not chunk:
                    raise OSError(errno.EIO, "the removed log could not be read back")
                view = memoryview(chunk)
                while view:
                    view = view[os.write(new, view) :]
                done += len(chunk)
            os.fsync(new)
        except OSError:
            try:
                os.unlink(self.path)
            except OSError:
                pass
            os.close(new)
            return False
        os.close(self.fd)
        self.fd = new
        self.say(f"plateau log: {self.path} written again ({self.lines} lines it held)")
        return True

    # --- writing ------------------------------------------------------------------------

    def write(self, ev: dict) -> None:
        """One event, one line, in the host's own words (never the board's bytes); held, in
        order, while the log cannot be written."""
        line = events.dump(ev)
        if len(line) > events.MAX_LINE:  # cannot happen with 1 KB frames; kept bounded anyway
            line = events.dump(events.bad(ev.get("boot"), ev.get("seq"), "too long", line))
        self.held.append((line, ev))
        self.held_bytes += len(line)
        if self.outage is None:
            self._drain()
        if self.held_bytes >= self.hold_bytes and not self.full:
            self.full = True
            if self.outage is not None:
                self.outage["paused"] = True
            self.say(
                f"plateau log: {len(self.held)} events held unwritten ({self.held_bytes >> 10}"
                f" KB): taking no more from the board until {self.path} can be written; the"
                " board keeps its last events, and what it no longer has then is a gap line"
            )
        self.tick()

    def _drain(self) -> None:
        """The held lines written, the outage's line first; stops at the first failure (the
        outage goes on: it ends when every held line is written)."""
        o = self.outage
        if o is not None:
            why = self._where()
            if why is not None and not self._restore():
                self._failed(why)
                return
            if not o["noted"]:
                note = self._note()
                line = events.dump(note)
                try:
                    self._append(line)
                except OSError as e:
                    self._failed(e)
                    return
                o["noted"] = True
                self._wrote(line, note)
        while self.held:
            line, ev = self.held[0]
            try:
                self._append(line)
            except OSError as e:
                self._failed(e)
                return
            self.held.popleft()
            self.held_bytes -= len(line)
            self._wrote(line, ev)
            if o is not None:
                o["written"] += 1
        self.full = False
        if o is not None:
            self.outage = None
            self._index_retry_at = self._index_wait = 0.0  # the space may be back for it too
            self.say(
                f"plateau log: {self.path} written again after {self.clock() - o['at']:.0f} s:"
                f" the {o['written']} events held are in it"
            )

    def _wrote(self, line: bytes, ev: dict) -> None:
        self.lines += 1
        self.written += 1
        self.offset += len(line)
        if self.index is not None:
            self._indexing(self.index.add, self.lines, self.offset, ev)

    def _note(self) -> dict:
        """The outage's line in the log, written when it can be again: what failed, since
        when, how many events were held meanwhile (they follow it: should the disk fill again
        before they are all written, the rest follow as soon as it can), whether the board
        was asked to keep the rest (then a gap line says what it no longer had)."""
        o = self.outage
        assert o is not None
        note = {
            "type": "outage",
            "what": "log",
            "why": o["why"],
            "since": o["since"],
            "until": _now_text(),
            "seconds": round(self.clock() - o["at"], 1),
            "held": len(self.held),
        }
        if o["paused"]:
            note["paused"] = True
        return note

    def _failed(self, e: OSError | str) -> None:
        """A write (or a sync) that failed: said once per outage, tried again later."""
        why = e if isinstance(e, str) else _err(e)
        now = self.clock()
        self._retry_at = now + RETRY_S
        if self.outage is not None:
            return
        self.outage = {
            "why": why,
            "since": _now_text(),
            "at": now,
            "paused": self.full,
            "noted": False,
            "written": 0,
        }
        self.say(
            f"plateau log: cannot write {self.path}: {why}. Holding the events in memory"
            f" ({len(self.held)} so far) and trying again every {RETRY_S:.0f} s; the board keeps"
            " its last events too: nothing is lost while this logger runs"
        )

    def tick(self) -> None:
        """Between events too (plateau log calls it at every frame and while the link is
        down): a held write tried again when due, the file synced, the index committed or
        brought back."""
        now = self.clock()
        if self.outage is not None and now >= self._retry_at:
            self._drain()
        if self.index is None and self.index_down and now >= self._index_retry_at:
            if self.outage is None:  # (it reads the log, which must be there, whole)
                self._open_index()
        index = self.index
        if self.outage is None and (
            now - self._synced >= FSYNC_S or (index is not None and index.due())
        ):
            self._sync(now)

    def _sync(self, now: float) -> None:
        """The log still where it was, on disk, then the index committed (never ahead of
        what is on disk). Not during an outage: what is held is not written yet."""
        self._synced = now
        why = self._where()
        if why is not None:  # the file went: what it held is written again from here
            self._failed(why)
            return
        try:
            os.fsync(self.fd)
        except OSError as e:
            self._failed(e)
            return
        index = self.index
        if index is not None and index.due():
            self._indexing(index.commit)
            self._index_there()

    # --- the index ----------------------------------------------------------------------

    def _open_index(self, at_start: bool = False) -> None:
        """The index opened and caught up with the log from its last commit. Failing, it is
        tried again later (backing off) while the log goes on; at the start, an index that
        is not one (damaged, another kind of file) is refused instead, with the way out."""
        from plateau.index import Index  # (which reads logs with this module's scan_log)

        assert self.db is not None
        index = None
        try:
            index = Index(self.db, self.path, clock=self.clock, busy_s=INDEX_BUSY_S)
            index.catch_up()
            if index.offset != self.offset:  # the log changed under it: not this logger's
                raise OSError(errno.EAGAIN, "it could not read the log up to its end")
            self._db_ino = os.stat(self.db).st_ino
        except (sqlite3.Error, OSError) as e:
            if index is not None:
                index.abandon()
            operational = isinstance(e, (sqlite3.OperationalError, OSError))
            if at_start and not operational:
                raise
            self._index_failed(e)
            return
        self.index = index
        if self.index_down:
            self.say(f"plateau log: the index {self.db} caught up with the log (line {index.line})")
        self.index_down = None
        self._index_wait = 0.0

    def _indexing(self, op: Callable[..., object], *args: object) -> None:
        try:
            op(*args)
        except (sqlite3.Error, OSError) as e:
            self._index_failed(e)

    def _index_there(self) -> None:
        """The index file still the one open (a removed one would take commits no one sees)."""
        try:
            same = os.stat(self.db).st_ino == self._db_ino  # type: ignore[arg-type]
        except OSError:
            same = False
        if not same and self.index is not None:
            self._index_failed(f"{self.db} was removed or replaced: it is made again")

    def _index_failed(self, e: BaseException | str) -> None:
        why = e if isinstance(e, str) else _err(e)
        if self.index is not None:
            self.index.abandon()
            self.index = None
        self._index_wait = min(max(self._index_wait * 2, INDEX_RETRY_S[0]), INDEX_RETRY_S[1])
        self._index_retry_at = self.clock() + self._index_wait
        if self.index_down is None:
            way = (
                ""
                if isinstance(e, (str, sqlite3.OperationalError, OSError))
                else (" (if it stays so: plateau index LOG --db DB --rebuild makes it again)")
            )
            self.say(
                f"plateau log: the index {self.db}: {why}. The log goes on; the index catches"
                f" up from its last commit when it can be written{way}"
            )
        self.index_down = why

    def outage_why(self) -> str:
        """Why the log cannot be written now ("" when it can)."""
        return self.outage["why"] if self.outage is not None else ""

    # --- the end ------------------------------------------------------------------------

    def close(self) -> None:
        """A last try at what is held, the file synced, the index committed. What is still
        held is counted in `lost` (the board keeps its last events: a logger started again
        asks for what the log lacks)."""
        if self.outage is not None or self.held:
            self._drain()
        try:
            os.fsync(self.fd)
        except OSError as e:
            self._failed(e)
        if self.index is None and self.index_down and self.outage is None:
            self._open_index()  # a last try: the index caught up with the whole log
        if self.index is not None:
            if self.outage is None:
                self._indexing(self.index.close)
            else:
                self.index.abandon()
            self.index = None
        self.lost = len(self.held)
        os.close(self.fd)


def _count_lines(fd: int, size: int) -> int:
    n = done = 0
    while done < size:
        chunk = os.pread(fd, min(1 << 20, size - done), done)
        if not chunk:
            break
        n += chunk.count(b"\n")
        done += len(chunk)
    return n


def keep(log: Logger, rx: Any, ev: dict | None = None, logged: bool = False) -> None:
    """What `plateau log` does with each (event, logged) its receiver (hostlink.Receiver)
    passes on, and between them (ev None): the event written, or held while the log cannot
    be; the receiver paused while the logger holds all it may, so that the board keeps what
    follows, and asked to go on once the log is written again."""
    if ev is not None and logged:
        log.write(ev)
    else:
        log.tick()
    rx.pause(log.full)
