"""A logger that outlives its disk (issue 34): `plateau log` on a disk that fills and frees at
seeded moments keeps the link and the board's numbering, holds what it cannot write, says so
once, and catches up when space returns, the index after the log; what the board no longer
holds by then is an exact `gap`; no line is ever left half written.

The disk is a small filesystem of the test's own: a tmpfs it mounts where it can (as root),
else a file-size limit on this process (RLIMIT_FSIZE, what `ulimit -f` sets: every file the
logger writes is held to it, the log and the index each) standing in for it. Each run says
which it had. Board and logger run in one process on a virtual clock (logkit), so what the
log holds is counted against what the board emitted, whatever the machine's speed."""

from __future__ import annotations

import errno
import os
import random
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from conftest import REPORT
from logkit import SETTLE_MS, Table

from plateau.index import Index
from plateau.logger import read_log

DISK_BYTES = 1024 * 1024


class SmallDisk:
    """`size` bytes to write in, at `where`: a tmpfs mounted there, or (where mounting is
    not allowed) this process's file-size limit. `fill(left)` leaves about `left` bytes to
    write, `free()` gives the space back."""

    def __init__(self, where: Path, size: int = DISK_BYTES, mount: bool = True):
        where.mkdir(parents=True, exist_ok=True)
        self.path = where
        self.size = size
        self.mounted = False
        self.why_not = ""
        if mount:
            done = subprocess.run(
                ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0777", "tmpfs", str(where)],
                capture_output=True,
                text=True,
            )
            self.mounted = done.returncode == 0
            self.why_not = (done.stderr or "mount failed").strip().splitlines()[-1]
        self._limit = resource.getrlimit(resource.RLIMIT_FSIZE)
        assert signal.getsignal(signal.SIGXFSZ) == signal.SIG_IGN  # Python's default
        self.filler = where / "filler"
        self.full = False

    @property
    def kind(self) -> str:
        if self.mounted:
            return f"a {self.size // 1024} KB tmpfs mounted by the test"
        why = f"; no mount: {self.why_not}" if self.why_not else ""
        return f"a file-size limit, RLIMIT_FSIZE{why}"

    def fill(self, left: int) -> None:
        self.free()
        self.full = True
        if self.mounted:
            block = b"\0" * 4096
            with open(self.filler, "wb", buffering=0) as f:
                try:
                    while True:
                        f.write(block)
                except OSError as e:
                    assert e.errno == errno.ENOSPC
                size = f.tell()
                f.truncate(max(0, size - left))  # tmpfs counts whole pages
        else:
            biggest = max((p.stat().st_size for p in self.path.iterdir()), default=0)
            resource.setrlimit(resource.RLIMIT_FSIZE, (biggest + left, self._limit[1]))

    def free(self) -> None:
        self.full = False
        if self.mounted:
            self.filler.unlink(missing_ok=True)
        else:
            resource.setrlimit(resource.RLIMIT_FSIZE, self._limit)

    def wipe(self) -> None:
        self.free()
        for p in self.path.iterdir():
            p.unlink()

    def close(self) -> None:
        self.free()
        if self.mounted:  # lazily: a test that failed may have left files open on it
            subprocess.run(["umount", "-l", str(self.path)], check=True)


@pytest.fixture(params=["mounted", "file-size limit"])
def disk(request, tmp_path):
    d = SmallDisk(tmp_path / "disk", mount=request.param == "mounted")
    if request.param == "mounted" and not d.mounted:
        d.close()
        pytest.skip(f"cannot mount a tmpfs here ({d.why_not}): the file-size limit runs")
    yield d
    d.close()


def account(t: Table) -> dict:
    """What reached the log against what the board emitted."""
    logged: Counter = Counter()
    gapped: set = set()
    unreadable = []
    outages = 0
    for n, ev, why in read_log(t.log):
        if ev is None:
            unreadable.append((n, why))
            continue
        if "seq" in ev:
            logged[(ev["boot"], ev["seq"])] += 1
        elif ev["type"] == "gap":
            gapped.update((ev["boot"], k) for k in range(ev["from"], ev["to"] + 1))
        elif ev["type"] == "outage":
            outages += 1
    emitted = set(t.emitted)
    return {
        "emitted": len(emitted),
        "logged": len(logged),
        "doubled": sum(c - 1 for c in logged.values()),
        "gapped": len(gapped),
        "missing": sorted(emitted - set(logged) - gapped)[:5],
        "forged": sorted(set(logged) - emitted)[:5],
        "both": sorted(set(logged) & gapped)[:5],
        "gapped_still_held": sorted(gapped & t.held_by_board())[:5],
        "unreadable": unreadable[:5],
        "outage_lines": outages,
    }


def _said(said: list[str], what: str) -> int:
    return sum(what in m for m in said)


def _index_rows(db: Path, log: Path) -> tuple[list, int]:
    ix = Index(db, log)
    rows = [r[1:] for r in ix.games()]
    offset = ix.offset
    ix.abandon()
    return rows, offset


def scenario(seed: int, disk: SmallDisk, work: Path, hold_bytes: int) -> dict:
    """A game of seeded steps: events played (cards, moves, games; some long), the disk
    filled (leaving 0 to a few KB) and freed, time passing; then the disk freed for good
    and the logger given time to catch up."""
    rng = random.Random(seed)
    disk.wipe()
    log, db = disk.path / "log.jsonl", disk.path / "log.sqlite"
    t = Table(rng, log, db, hold_bytes=hold_bytes)
    t.start_logger()
    t.play(rng.randint(1, 20), games=True)
    t.run(1000)
    fills = 0
    for _ in range(rng.randint(4, 10)):
        step = rng.choice(["play", "play", "play", "fill", "fill", "free", "long"])
        if step == "fill":
            disk.fill(rng.choice([0, 0, 200, 2000, 8000]))
            fills += 1
        elif step == "free":
            disk.free()
        else:
            n = rng.randint(150, 400) if step == "long" else rng.randint(1, 60)
            t.play(n, pad=rng.choice([0, 0, 60, 300]), games=True)
        t.run(rng.choice([50, 500, 2000, 5000]))
    disk.free()
    t.run(SETTLE_MS)
    t.stop_logger()
    out = account(t)
    said = t.said
    out.update(
        fills=fills,
        cannot=_said(said, "cannot write"),
        again=_said(said, "written again after"),
        paused=_said(said, "taking no more from the board"),
        index_down=_said(said, "The log goes on"),
        index_back=_said(said, "caught up with the log"),
    )
    rows, offset = _index_rows(db, log)
    fresh = work / f"rebuilt{seed}.sqlite"
    rebuilt = Index(fresh, log)
    rebuilt.catch_up()
    out["index_equal"] = rows == [r[1:] for r in rebuilt.games()]
    out["index_whole"] = offset == log.stat().st_size
    rebuilt.close()
    fresh.unlink()
    return out


def _check(seed: int, r: dict, lossless: bool) -> None:
    where = (seed, r)
    assert not r["unreadable"], where  # no line torn, none half written
    assert not r["missing"] and not r["forged"] and not r["both"] and r["doubled"] == 0, where
    assert not r["gapped_still_held"], where  # a gap only for what the board no longer had
    if lossless:
        assert r["gapped"] == 0, where  # everything was held in memory: nothing lost at all
    # each outage said once when it began and once when it ended, with one line in the log
    assert r["cannot"] == r["again"] == r["outage_lines"], where
    assert r["index_down"] == r["index_back"], where  # the index came back every time
    assert r["index_equal"] and r["index_whole"], where  # and caught up with the whole log


def _run(disk: SmallDisk, tmp_path: Path, seeds: range, hold_bytes: int) -> dict:
    runs = {seed: scenario(seed, disk, tmp_path, hold_bytes) for seed in seeds}
    for seed, r in runs.items():
        _check(seed, r, lossless=hold_bytes > 1 << 20)
    keys = ("emitted", "logged", "gapped", "fills", "cannot", "paused", "index_down")
    return {k: sum(r[k] for r in runs.values()) for k in keys}


def test_a_full_disk_loses_nothing_the_logger_can_hold(disk, tmp_path):
    """The issue's case: the index failed first ("database or disk is full" with 16 KB
    free), the logger exited, nothing was logged once space was freed. Here the logger holds
    in memory whatever it cannot write: every event the board emitted reaches the log, once,
    in order, none in a gap, each outage said once and written in the log as one line, the
    index caught up with the whole log and equal to a rebuild."""
    total = _run(disk, tmp_path, range(12), hold_bytes=32 << 20)
    REPORT.append(
        f"full disk ({disk.kind}): 12 seeded runs, {total['fills']} fills:"
        f" {total['emitted']} events emitted, {total['logged']} logged, 0 lost,"
        f" {total['cannot']} log outages said and ended, {total['index_down']} index outages"
        " caught up"
    )
    assert total["cannot"] >= 5 and total["emitted"] > 1000  # the generator did its job


def test_past_what_it_may_hold_the_board_keeps_the_rest_and_a_gap_says_what_it_lost(disk, tmp_path):
    """A logger allowed to hold only 3 KB: past it, it asks the board for nothing more (the
    receiver paused); once the disk is back it writes what it held and asks the board for
    the rest, which resends what its ring still has and says `gap` for what it no longer
    has: every event the board emitted is in the log or in a gap line, never in both, and a
    gap names only events the board no longer held."""
    total = _run(disk, tmp_path, range(100, 112), hold_bytes=3000)
    REPORT.append(
        f"full disk, 3 KB held at most ({disk.kind}): 12 seeded runs: {total['emitted']}"
        f" events emitted, {total['logged']} logged, {total['gapped']} in exact gaps (the"
        f" board's ring past them), 0 lost otherwise; paused {total['paused']} times"
    )
    assert total["paused"] >= 3 and total["gapped"] > 0


def _grown(path: Path, quiet_s: float, timeout: float) -> None:
    """Waits until `path` has stopped growing for quiet_s (a full disk), or timeout."""
    end = time.monotonic() + timeout
    size, since = -1, time.monotonic()
    while time.monotonic() < end:
        now = path.stat().st_size if path.exists() else 0
        if now != size:
            size, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet_s:
            return
        time.sleep(0.1)


@pytest.mark.parametrize("mount", [True, False], ids=["mounted", "file-size limit"])
def test_plateau_log_outlives_a_48_kb_disk(tmp_path, mount):
    """The issue's case, through the command: `plateau log --db` on a 48 KB filesystem (a
    tmpfs, or a 48 KB file-size limit where the test cannot mount) exited with "the index:
    database or disk is full" while 16 KB were still free, and with a file-size limit with
    "disk I/O error" at once. Here a whole Tock game from the simulated board (its journal
    the ground truth, kept off the small disk): the disk fills, stays full a while, then
    space comes back (the tmpfs grown, the limit lifted): every event the board emitted is
    in the log once, in order, unchanged, the index caught up and equal to a rebuild, and
    `plateau log` said once that it could not write, and ends with 0."""
    from plateau.games import find
    from plateau.journal import compare
    from plateau.sim import Firmware

    d = SmallDisk(tmp_path / "disk", size=48 * 1024, mount=mount)
    if mount and not d.mounted:
        d.close()
        pytest.skip(f"cannot mount a tmpfs here ({d.why_not}): the file-size limit runs")
    try:
        script = tmp_path / "g.table"
        script.write_text(find("tock").script(3, "short"))
        journal = tmp_path / "journal.jsonl"
        fw = Firmware(script, "--wait-host", "--journal", str(journal))
        log, db = d.path / "l.jsonl", d.path / "l.sqlite"
        limit = None
        if not d.mounted:
            limit = (48 * 1024, resource.getrlimit(resource.RLIMIT_FSIZE)[1])

            def limit_it():
                resource.setrlimit(resource.RLIMIT_FSIZE, limit)

        cmd = [sys.executable, "-m", "plateau", "log", "--port", fw.port]
        cmd += ["--log", str(log), "--db", str(db), "--json"]
        logger = subprocess.Popen(
            cmd,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=limit_it if limit else None,
        )
        try:
            _grown(log, quiet_s=3.0, timeout=120)  # full (the game goes on)
            full_at = log.stat().st_size
            if d.mounted:
                subprocess.run(["mount", "-o", "remount,size=4m", str(d.path)], check=True)
            else:
                resource.prlimit(logger.pid, resource.RLIMIT_FSIZE, (limit[1], limit[1]))
            end = time.monotonic() + 300  # a bound for a failing test, not a speed target
            while time.monotonic() < end:
                if journal.exists() and '"end"' in journal.read_text():
                    got = compare(journal, log)
                    if got["logged"] + got["gapped"] >= got["emitted"]:
                        break
                time.sleep(0.5)
            time.sleep(1.5)  # an index commit after the last line
            logger.send_signal(signal.SIGTERM)
            _, err = logger.communicate(timeout=60)
        finally:
            if logger.poll() is None:
                logger.kill()
            fw.stop()
        got = compare(journal, log)
        assert logger.returncode == 0, err[-2000:]
        assert got["emitted"] > 500 and full_at < 48 * 1024 < log.stat().st_size, got
        for k in ("lost", "duplicated", "out_of_order", "changed", "gapped", "wrongly_gapped"):
            assert got[k] == 0, (k, got, err[-2000:])
        assert err.count("cannot write") == 1 and "written again after" in err, err[-2000:]
        assert "Traceback" not in err, err[-2000:]
        rows, offset = _index_rows(db, log)
        rebuilt = Index(tmp_path / "rebuilt.sqlite", log)
        rebuilt.catch_up()
        assert rows == [r[1:] for r in rebuilt.games()] and offset == log.stat().st_size
        rebuilt.close()
        REPORT.append(
            f"plateau log on a 48 KB disk ({d.kind}): a {got['emitted']}-event Tock game, the"
            f" disk full at {full_at} B then space back: {got['logged']} logged, 0 lost,"
            " index caught up"
        )
    finally:
        d.close()


class IndexFaults:
    """What makes the index alone fail while the log goes on, each undone by `mend`: its
    file locked by another program (a reader's transaction left open: every test can), its
    file removed, its folder made read-only, its disk full. The folder is the index's own,
    apart from the log's: made read-only by a read-only bind mount of itself (as root: root
    writes through a chmod), else by chmod; its disk a tmpfs of its own (or none: that
    fault then is not drawn)."""

    def __init__(self, folder: Path):
        folder.mkdir()
        self.folder = folder
        self.disk = SmallDisk(folder / "disk", size=256 * 1024)
        self.where = self.disk.path if self.disk.mounted else folder
        self.db = self.where / "index.sqlite"
        self.kinds = ["lock", "remove", "read-only"] + (["full"] if self.disk.mounted else [])
        self.lock: sqlite3.Connection | None = None
        self.bound = False
        self.drawn: Counter = Counter()

    def fault(self, kind: str) -> None:
        self.mend()
        self.drawn[kind] += 1
        if kind == "lock" and self.db.exists():  # a reader's transaction left open
            self.lock = sqlite3.connect(self.db, timeout=0)
            self.lock.execute("begin")
            self.lock.execute("select count(*) from games").fetchone()
        elif kind == "remove":
            self.db.unlink(missing_ok=True)
        elif kind == "read-only":
            self.bound = _bind_read_only(self.where)
            if not self.bound:
                self.where.chmod(0o555)
        elif kind == "full":
            self.disk.fill(0)

    def mend(self) -> None:
        if self.lock is not None:
            self.lock.rollback()
            self.lock.close()
            self.lock = None
        if self.bound:  # lazily: what the logger opened through it goes with it
            subprocess.run(["umount", "-l", str(self.where)], check=True)
            self.bound = False
        self.where.chmod(0o755)
        self.disk.free()

    def close(self) -> None:
        self.mend()
        self.disk.close()


def _bind_read_only(folder: Path) -> bool:
    """folder mounted read-only over itself (root only): False where it cannot be."""
    done = subprocess.run(["mount", "--bind", str(folder), str(folder)], capture_output=True)
    if done.returncode:
        return False
    done = subprocess.run(["mount", "-o", "remount,ro,bind", str(folder)], capture_output=True)
    if done.returncode:
        subprocess.run(["umount", str(folder)])
        return False
    return True


def test_the_index_failing_alone_stops_only_the_index(tmp_path):
    """The index alone fails (locked by another program past 0.5 s, removed, its folder
    read-only, its disk full) at seeded moments while the log's disk is fine: the log goes
    on with every event, the logger says once per outage that the index is down and once
    that it caught up, and at the end the index, caught up from its last commit (or made
    again, when removed), is what a rebuild from the log gives."""
    faults = IndexFaults(tmp_path / "ix")
    try:
        runs = []
        for seed in range(10):
            rng = random.Random(seed)
            faults.db.unlink(missing_ok=True)
            log = tmp_path / f"log{seed}.jsonl"
            t = Table(rng, log, faults.db)
            t.start_logger()
            for _ in range(rng.randint(4, 9)):
                if rng.random() < 0.5:
                    faults.fault(rng.choice(faults.kinds))
                else:
                    faults.mend()
                t.play(rng.randint(1, 80), games=True)
                t.run(rng.choice([200, 1500, 4000]))
            faults.mend()
            t.run(SETTLE_MS + 30_000)  # the index's retries back off to 30 s
            t.stop_logger()
            r = account(t)
            rows, offset = _index_rows(faults.db, log)
            rebuilt = Index(tmp_path / "rebuilt.sqlite", log)
            rebuilt.catch_up()
            r.update(
                down=_said(t.said, "The log goes on"),
                back=_said(t.said, "caught up with the log"),
                log_outages=_said(t.said, "cannot write"),
                equal=rows == [r[1:] for r in rebuilt.games()],
                whole=offset == log.stat().st_size,
            )
            rebuilt.close()
            (tmp_path / "rebuilt.sqlite").unlink()
            runs.append(r)
            assert not r["missing"] and not r["unreadable"] and r["gapped"] == 0, (seed, r)
            assert r["log_outages"] == 0, (seed, t.said)  # the log never stopped
            assert r["down"] == r["back"] and r["equal"] and r["whole"], (seed, r, t.said)
        down = sum(r["down"] for r in runs)
        REPORT.append(
            f"the index alone failing ({dict(faults.drawn)}; read-only by"
            f" {'bind mount' if faults.disk.mounted else 'chmod'}): 10 seeded runs,"
            f" {sum(r['emitted'] for r in runs)} events, every one logged; {down} index"
            " outages, each caught up, the index equal to a rebuild"
        )
        assert down >= 8 and len(faults.drawn) == len(faults.kinds)
    finally:
        faults.close()


def _folder_run(tmp_path: Path, seed: int, mishap: str) -> tuple[Table, dict]:
    """A logger whose log and index share a folder, at seeded moments removed (and made
    again: `mkdir`, as a person would) or made read-only (and writable again)."""
    rng = random.Random(seed)
    folder = tmp_path / f"{mishap}{seed}"
    folder.mkdir()
    t = Table(rng, folder / "log.jsonl", folder / "log.sqlite")
    t.start_logger()
    bound = False
    gone = 0
    try:
        for _ in range(rng.randint(4, 9)):
            t.play(rng.randint(1, 80), games=True)
            t.run(rng.choice([50, 700, 3000]))
            if mishap == "removed" and rng.random() < 0.5:
                if folder.exists():
                    shutil.rmtree(folder)
                    gone += 1
                else:
                    folder.mkdir()
            elif mishap == "read-only" and rng.random() < 0.5:
                if bound:
                    subprocess.run(["umount", "-l", str(folder)], check=True)
                    bound = False
                elif not (bound := _bind_read_only(folder)):
                    folder.chmod(0o555 if folder.stat().st_mode & 0o200 else 0o755)
    finally:
        if bound:
            subprocess.run(["umount", "-l", str(folder)], check=True)
    folder.mkdir(exist_ok=True)
    folder.chmod(0o755)
    t.run(SETTLE_MS + 30_000)
    t.stop_logger()
    r = account(t)
    rows, offset = _index_rows(t.db, t.log)
    rebuilt = Index(tmp_path / "rebuilt.sqlite", t.log)
    rebuilt.catch_up()
    r.update(
        gone=gone,
        cannot=_said(t.said, "cannot write"),
        again=_said(t.said, "written again after"),
        restored=_said(t.said, "written again ("),
        down=_said(t.said, "The log goes on"),
        back=_said(t.said, "caught up with the log"),
        equal=rows == [x[1:] for x in rebuilt.games()],
        whole=offset == t.log.stat().st_size,
    )
    rebuilt.close()
    (tmp_path / "rebuilt.sqlite").unlink()
    return t, r


def test_a_log_whose_folder_is_removed_is_written_again_whole_when_it_is_back(tmp_path):
    """The log's folder removed (`rm -r`, the log and the index in it) while logging: the
    writes went on into a file no one could read. Here the logger notices (at its next sync,
    within 0.5 s), holds what comes, says so once, and when the folder is made again writes
    the log there whole (what it held before the removal read back from the file still
    open), the outage line and what it held after; the index is made again from it."""
    gone = 0
    for seed in range(8):
        t, r = _folder_run(tmp_path, seed, "removed")
        where = (seed, r, t.said)
        assert not r["missing"] and not r["unreadable"] and r["gapped"] == r["doubled"] == 0, where
        # one outage each time (the folder removed again before the logger saw it back: one)
        assert r["cannot"] == r["again"] == r["outage_lines"] == r["restored"], where
        assert (r["gone"] > 0) <= r["cannot"] <= r["gone"], where
        assert r["down"] == r["back"] and r["equal"] and r["whole"], where
        gone += r["gone"]
    assert gone >= 5
    REPORT.append(f"log folder removed {gone} times while logging (8 runs): written again, 0 lost")


def test_a_log_folder_made_read_only_stops_only_the_index(tmp_path):
    """The folder made read-only (a read-only bind mount, as root; chmod otherwise): the log,
    already open, is written on; the index, which needs its journal beside it, stops and
    catches up once the folder is writable again."""
    downs = 0
    for seed in range(6):
        t, r = _folder_run(tmp_path, seed, "read-only")
        where = (seed, r, t.said)
        assert not r["missing"] and not r["unreadable"] and r["gapped"] == r["doubled"] == 0, where
        assert r["cannot"] == 0 and r["down"] == r["back"] and r["equal"] and r["whole"], where
        downs += r["down"]
    assert downs >= 3


class FaultyOs:
    """`os` as the logger sees it, failing at seeded moments as disks do: a write cut short
    (part of the line written, then the error), a write refused, a truncate refused, an fsync
    refused, with each error a disk gives. Off: the real calls."""

    ERRORS = (errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT, errno.EROFS)

    def __init__(self, rng: random.Random, rate: float, cut_rate: float):
        self.rng, self.rate, self.cut_rate, self.on = rng, rate, cut_rate, False
        self.short = self.refused = self.cuts_refused = self.syncs_refused = 0
        self._owed: int | None = None  # the error a short write owes its next call

    def __getattr__(self, name: str):
        return getattr(os, name)

    def _fails(self, rate: float | None = None) -> bool:
        return self.on and self.rng.random() < (self.rate if rate is None else rate)

    def _error(self, e: int) -> OSError:
        return OSError(e, os.strerror(e))

    def write(self, fd: int, data) -> int:
        if self._owed is not None:
            e, self._owed = self._owed, None
            raise self._error(e)
        if self._fails():
            e = self.rng.choice(self.ERRORS)
            if len(data) > 1 and self.rng.random() < 0.6:
                self.short += 1
                self._owed = e
                return os.write(fd, bytes(data[: self.rng.randrange(1, len(data))]))
            self.refused += 1
            raise self._error(e)
        return os.write(fd, data)

    def ftruncate(self, fd: int, size: int) -> None:
        if self._fails(self.cut_rate):
            self.cuts_refused += 1
            raise self._error(errno.EIO)
        os.ftruncate(fd, size)

    def fsync(self, fd: int) -> None:
        if self._fails():
            self.syncs_refused += 1
            raise self._error(self.rng.choice(self.ERRORS))
        os.fsync(fd)


def _whole_lines_read(log: Path) -> list[str]:
    """What a reader that follows the log finds wrong in it now: every line that ends is an
    event (the last, unended, it does not read yet)."""
    from plateau import events

    *whole, _ = log.read_bytes().split(b"\n")
    return [w.decode(errors="replace")[:80] for w in whole if events.parse(w)[0] is None]


def test_no_line_is_ever_left_torn(tmp_path, monkeypatch):
    """Writes cut short, refused, truncates and fsyncs refused, with every error a disk
    gives, at seeded moments (1 write or fsync in 25, 1 truncate in 2): at every look, every
    line of the log that ends is an event (a line torn by a write cut short is cut off again
    before another is written, and never read as a corrupt line once the disk is good); at
    the end every event the board emitted is in the log once, each outage said once and
    written as one line, the index equal to a rebuild."""
    from plateau import logger as logger_module

    totals: Counter = Counter()
    for seed in range(16):
        rng = random.Random(seed)
        faulty = FaultyOs(random.Random(seed + 1000), rate=0.04, cut_rate=0.5)
        monkeypatch.setattr(logger_module, "os", faulty)
        log, db = tmp_path / f"torn{seed}.jsonl", tmp_path / f"torn{seed}.sqlite"
        t = Table(rng, log, db)
        t.start_logger()
        faulty.on = True
        looks = 0
        for _ in range(rng.randint(20, 40)):
            t.play(rng.randint(1, 12), pad=rng.choice([0, 100]), games=True)
            t.run(rng.choice([10, 100, 600]))
            bad = _whole_lines_read(log)
            assert not bad, (seed, bad[:3])
            looks += 1
        faulty.on = False
        t.run(SETTLE_MS)
        t.stop_logger()
        r = account(t)
        rows, offset = _index_rows(db, log)
        rebuilt = Index(tmp_path / "rebuilt.sqlite", log)
        rebuilt.catch_up()
        where = (seed, r, t.said[-3:])
        assert not r["missing"] and not r["unreadable"] and r["gapped"] == r["doubled"] == 0, where
        assert log.read_bytes().endswith(b"\n"), where
        assert _said(t.said, "cannot write") == _said(t.said, "written again after"), where
        assert _said(t.said, "cannot write") == r["outage_lines"], where
        assert rows == [x[1:] for x in rebuilt.games()] and offset == log.stat().st_size, where
        rebuilt.close()
        (tmp_path / "rebuilt.sqlite").unlink()
        totals.update(
            events=r["emitted"],
            outages=r["outage_lines"],
            looks=looks,
            short=faulty.short,
            refused=faulty.refused,
            cuts_refused=faulty.cuts_refused,
            syncs_refused=faulty.syncs_refused,
        )
    REPORT.append(
        f"torn lines: 16 seeded runs, {totals['events']} events, {totals['short']} writes cut"
        f" short, {totals['refused']} refused, {totals['cuts_refused']} truncates and"
        f" {totals['syncs_refused']} fsyncs refused, {totals['outages']} outages: 0 lost, 0"
        f" torn lines at {totals['looks']} looks"
    )
    assert totals["short"] > 20 and totals["cuts_refused"] > 10 and totals["outages"] > 20
