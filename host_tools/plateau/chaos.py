"""`plateau chaos`: whole games through a hostile serial line, and what reached the log.

    simulated board (firmware under micropython, on a pty)
        <-> Relay: corrupts, drops, doubles, reorders, delays and cuts bytes (port open),
            and unplugs (the host's port disappears, then comes back), both directions
        <-> `plateau log` (the real command, on a second pty behind a symlink, as
            /dev/serial/by-id/... is on a laptop)

The relay knows nothing of the protocol: it cuts the byte stream into pieces of random
length and treats each piece by seeded chance; it never looks for a frame, a delimiter or
a field. The ground truth is what the firmware emitted: the simulator writes every numbered
event, every event its ring drops and every gap it tells to a journal (`sim.run --journal`).
After the game the log is compared with the journal, number by number.

Time: the simulated table runs `speed` times faster than real time (sim.run --speed; it
never runs ahead, it may fall behind on a loaded machine: the achieved speed is reported).
A fault's length is drawn in table time and lasts table/speed seconds of real time: a 60 s
cut is 60 s of the table's play (the board goes on refereeing and numbering, its ring fills
and drops the oldest events) that the host sees as 60/speed s of silence. The host's own
timeouts (3 s dead link, asking again every 0.25-1 s) are in real time, so a fault longer
than 3 s of real time also makes the host declare the link dead and reopen the port.
Between faults the line stays clean CLEAN_S seconds of real time: the host's recovery time
is measured from the moment the line clears to the moment the log holds (or names in a
gap) every event the board had emitted by then.
"""

from __future__ import annotations

import heapq
import json
import math
import os
import random
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tty
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from plateau import registry
from plateau.commands import write_out
from plateau.registry import find
from plateau.sim import Firmware, dies_with_parent

# The games with a generator slot (plateau/views/), in the order that draws each one's
# faults (a game's index seeds them: the four first, as they always were, so that their runs
# stay the same; a game added since goes after them). Each is played at its view's
# CHAOS_SPEED, table time to real time, so that a game lasts about 15-25 s of real time (a
# Tock game is about 11 minutes of play, the others 1.5-3).
GAMES = registry.generated(("tock", "pocha", "weykick", "holdem"))
MAX_CUT_S = 60.0  # longest cut or unplug, in table time
CLEAN_S = (3.2, 4.5)  # real seconds of clean line between faults: recovery is seen within them
FIRST_CLEAN_S = 2.0  # real seconds before the first fault (the host connects)
# after the game the log must be complete within this: a liveness bound, not a speed target
FINAL_WAIT_S = 60.0
PIECE = (1, 48)  # the relay cuts the stream into pieces of this many bytes
QUEUE_MAX = 1 << 16  # bytes waiting in one direction: more are lost (a USB bridge's buffer)
RECOVERY_S = 3.0  # the promise: recovered within this after the line clears


# --- the line --------------------------------------------------------------------------------


@dataclass
class Faults:
    """What one direction of the line does to the bytes, for the length of an episode."""

    cut: bool = False  # nothing gets through
    byte_error: float = 0.0  # per byte: a bit flipped, a byte replaced, dropped or added
    drop: float = 0.0  # per piece: lost
    dup: float = 0.0  # per piece: arrives twice
    reorder: float = 0.0  # per piece: held back 5-80 ms, so later pieces overtake it
    delay_ms: float = 0.0  # per piece: a latency up to this (pieces keep their order)
    garbage: float = 0.0  # per piece: random bytes before it


CLEAN = Faults()


@dataclass
class Episode:
    kind: str  # cut, cut-up, cut-down, unplug, noise, storm
    real_s: float  # how long it lasts in real time
    table_s: float  # the same in table time
    down: Faults = field(default_factory=Faults)  # board -> host
    up: Faults = field(default_factory=Faults)  # host -> board


def plan(rng: random.Random, speed: float, max_cut: float = MAX_CUT_S) -> Iterator[Episode]:
    """Faults, one after another, drawn from rng alone (the same seed, the same faults)."""

    def table_length() -> float:
        # a third of cuts long (half the maximum and more), the rest spread over 0.1 s..
        if rng.random() < 0.33:
            return rng.uniform(max_cut / 2, max_cut)
        return math.exp(rng.uniform(math.log(0.1), math.log(max_cut / 2)))

    def noise(heavy: bool) -> Faults:
        return Faults(
            byte_error=math.exp(rng.uniform(math.log(1e-4), math.log(1e-2))) if not heavy else 1e-2,
            drop=rng.uniform(0, 0.05),
            dup=rng.uniform(0, 0.05),
            reorder=rng.uniform(0, 0.05),
            delay_ms=rng.uniform(0, 150),
            garbage=rng.uniform(0, 0.02),
        )

    while True:
        kind = rng.choices(
            ["cut", "cut-up", "cut-down", "unplug", "noise", "storm"], [25, 7, 7, 20, 28, 13]
        )[0]
        if kind in ("noise", "storm"):
            real = rng.uniform(0.5, 5.0)
            down, up = noise(kind == "storm"), noise(kind == "storm")
            if kind == "noise" and rng.random() < 0.3:  # one direction only
                if rng.random() < 0.5:
                    down = Faults()
                else:
                    up = Faults()
            yield Episode(kind, real, real * speed, down, up)
            continue
        table = table_length()
        ep = Episode(kind, table / speed, table)
        ep.down.cut = kind in ("cut", "cut-down")
        ep.up.cut = kind in ("cut", "cut-up")
        yield ep


class Direction:
    """One direction of the line: pieces of bytes on their way, each due at its time."""

    def __init__(self, rng: random.Random, counts: Counter):
        self.rng = rng
        self.counts = counts
        self.faults = CLEAN
        self._queue: list[tuple[float, int, bytes]] = []  # (due, order, piece)
        self._order = 0
        self._last_due = 0.0
        self._queued = 0
        self._out = b""  # what the receiver could not take yet

    def carry(self, data: bytes, now: float) -> None:
        f, rng = self.faults, self.rng
        self.counts["bytes"] += len(data)
        if f.cut:
            self.counts["cut"] += len(data)
            return
        i = 0
        while i < len(data):
            n = rng.randint(*PIECE)
            piece, i = data[i : i + n], i + n
            if rng.random() < f.drop:
                self.counts["dropped"] += len(piece)
                continue
            if f.byte_error:
                piece = self._corrupt(piece, f.byte_error)
            if rng.random() < f.garbage:
                piece = rng.randbytes(rng.randint(1, 20)) + piece
                self.counts["garbage"] += 1
            due = max(now + rng.uniform(0, f.delay_ms) / 1000, self._last_due)
            self._last_due = due
            if rng.random() < f.reorder:
                due += rng.uniform(0.005, 0.08)
                self.counts["reordered"] += 1
            self._push(due, piece)
            if rng.random() < f.dup:
                self._push(due + rng.uniform(0, 0.05), piece)
                self.counts["doubled"] += 1

    def _corrupt(self, piece: bytes, p: float) -> bytes:
        rng = self.rng
        b = bytearray(piece)
        i = int(math.log(1 - rng.random()) / math.log(1 - p))  # next byte hit
        while i < len(b):
            op = rng.random()
            if op < 0.6:
                b[i] ^= 1 << rng.randrange(8)
            elif op < 0.8:
                b[i] = rng.randrange(256)
            elif op < 0.9:
                del b[i]
            else:
                b.insert(i, rng.randrange(256))
            self.counts["corrupted"] += 1
            i += 1 + int(math.log(1 - rng.random()) / math.log(1 - p))
        return bytes(b)

    def _push(self, due: float, piece: bytes) -> None:
        if self._queued + len(piece) > QUEUE_MAX:
            self.counts["overflow"] += len(piece)
            return
        self._order += 1
        heapq.heappush(self._queue, (due, self._order, piece))
        self._queued += len(piece)

    def next_due(self) -> float | None:
        return self._queue[0][0] if self._queue else None

    def deliver(self, now: float, fd: int | None) -> None:
        """Writes what is due to fd (None: unplugged, it is lost; a cut line loses it too)."""
        while self._queue and self._queue[0][0] <= now:
            _, _, piece = heapq.heappop(self._queue)
            self._queued -= len(piece)
            if fd is None or self.faults.cut:
                self.counts["cut"] += len(piece)
            else:
                self._out += piece
        if self._out and fd is not None:
            try:
                n = os.write(fd, self._out)
            except BlockingIOError:
                return
            except OSError:
                n = len(self._out)  # the other end is gone
            self._out = self._out[n:]
            if len(self._out) > QUEUE_MAX:
                self.counts["overflow"] += len(self._out) - QUEUE_MAX
                self._out = self._out[-QUEUE_MAX:]
        elif fd is None:
            self._out = b""


class Relay:
    """The line between the board's pty and the host's: a second pty, reached through a
    symlink at `port` that disappears while unplugged."""

    def __init__(self, board_port: str, port: Path, rng: random.Random):
        self.port = port
        self.board: int | None = os.open(board_port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        self.host: int | None = None
        self._host_slave: int | None = None
        self.counts: Counter = Counter()
        self.down = Direction(rng, self.counts)  # board -> host
        self.up = Direction(rng, self.counts)  # host -> board
        self.plug()

    def plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        # the relay keeps the slave open too, so the host closing its end (to reopen) never
        # leaves the master without a reader
        self.host, self._host_slave = master, slave
        tmp = self.port.with_suffix(".new")
        tmp.unlink(missing_ok=True)
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.port)

    def unplug(self) -> None:
        self.port.unlink(missing_ok=True)
        for fd in (self.host, self._host_slave):
            if fd is not None:
                os.close(fd)
        self.host = self._host_slave = None

    def set(self, ep: Episode | None) -> None:
        """Start an episode's faults (None: the line is clean again)."""
        self.down.faults = ep.down if ep else CLEAN
        self.up.faults = ep.up if ep else CLEAN
        if ep and ep.kind == "unplug":
            self.unplug()
        elif self.host is None:
            self.plug()

    def pump(self, timeout: float) -> None:
        """Moves bytes for at most `timeout` seconds."""
        now = time.monotonic()
        dues = [d for d in (self.down.next_due(), self.up.next_due()) if d is not None]
        wait = max(0.0, min([timeout] + [d - now for d in dues]))
        fds = [fd for fd in (self.board, self.host) if fd is not None]
        ready = select.select(fds, [], [], wait)[0]
        now = time.monotonic()
        for fd in ready:
            try:
                data = os.read(fd, 4096)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if fd == self.board:
                if not data:  # the simulator ended
                    os.close(fd)
                    self.board = None
                    continue
                self.down.carry(data, now)
            else:
                self.up.carry(data, now)
        self.down.deliver(now, self.host)
        self.up.deliver(now, self.board)

    def close(self) -> None:
        self.unplug()
        if self.board is not None:
            os.close(self.board)
            self.board = None


# --- one game ----------------------------------------------------------------------------------


@dataclass
class Spec:
    game: str
    seed: int
    speed: float
    ring: int | None = None  # ring bytes (None: the board's own 16 KB)
    max_cut: float = MAX_CUT_S


def script(spec: Spec) -> str:
    """The game's generator slot (plateau/views/<game>.py), in its "chaos" form."""
    return find(spec.game).script(spec.seed, "chaos")


class Tail:
    """The complete lines appended to a file since the last look."""

    def __init__(self, path: Path):
        self.path = path
        self._f: IO[bytes] | None = None
        self._rest = b""

    def lines(self) -> list[dict]:
        if self._f is None:
            if not self.path.exists():
                return []
            self._f = open(self.path, "rb")  # noqa: SIM115 (closed in close())
        data = self._rest + self._f.read()
        *whole, self._rest = data.split(b"\n")
        return [json.loads(x) for x in whole if x.strip()]

    def close(self) -> None:
        if self._f:
            self._f.close()


class Truth:
    """What the board emitted (the journal) against what the host logged, as they come."""

    def __init__(self, work: Path):
        self.journal = Tail(work / "journal.jsonl")
        self.log = Tail(work / "game.jsonl")
        self.emitted: dict[tuple[str, int], dict] = {}
        self.accounted: set[tuple[str, int]] = set()  # logged, or named in a host gap
        self.ended = False
        self.table_ms = 0  # how long the game took on the table's clock

    def poll(self) -> None:
        for e in self.journal.lines():
            if "seq" in e:
                self.emitted[(e["boot"], e["seq"])] = e
            elif "end" in e:
                self.ended = True
                self.table_ms = e["t"]
        for e in self.log.lines():
            if "seq" in e:
                self.accounted.add((e["boot"], e["seq"]))
            elif e.get("type") == "gap":
                self.accounted.update((e["boot"], n) for n in range(e["from"], e["to"] + 1))

    def missing(self) -> set[tuple[str, int]]:
        return set(self.emitted) - self.accounted


def play(spec: Spec, keep: Path | None = None) -> dict:
    """One game through the relay; the counts (see `compare`) and the recovery times."""
    rng = random.Random(spec.seed * 7919 + GAMES.index(spec.game))
    where = keep.resolve() if keep else None  # the simulator runs in a folder of its own
    if where:
        where.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f"plateau-chaos-{spec.game}-{spec.seed}-", dir=where))
    table = work / "game.table"
    table.write_text(script(spec))
    args = ["--wait-host", "--speed", str(spec.speed), "--journal", str(work / "journal.jsonl")]
    if spec.ring:
        args += ["--ring", str(spec.ring)]
    fw = Firmware(table, *args, state_dir=str(work / "flash"))
    relay = Relay(fw.port, work / "port", random.Random(rng.random()))
    with open(work / "view.txt", "wb") as view, open(work / "host.err", "wb") as err:
        host = subprocess.Popen(
            [sys.executable, "-m", "plateau", "log", "--port", str(work / "port")]
            + ["--log", str(work / "game.jsonl"), "--db", str(work / "games.sqlite")],
            stdout=view,
            stderr=err,
            preexec_fn=dies_with_parent(),
        )
    truth = Truth(work)
    episodes = plan(rng, spec.speed, spec.max_cut)
    t0 = time.monotonic()
    ep: Episode | None = None
    ends = t0 + FIRST_CLEAN_S  # when the current episode, or the current clean spell, ends
    kinds: Counter = Counter()
    longest = {"cut": 0.0, "unplug": 0.0}
    waiting: list[tuple[float, set]] = []  # (line cleared at, events then missing)
    recovery: list[float] = []
    unrecovered = 0
    polled = 0.0
    final: float | None = None
    problem = None
    try:
        while True:
            relay.pump(0.005)
            now = time.monotonic()
            if now - polled >= 0.02:
                truth.poll()
                polled = now
                missing = truth.missing()
                for at, need in list(waiting):
                    if not need & missing:
                        recovery.append(now - at)
                        waiting.remove((at, need))
            if final is None and now >= ends:
                if ep is not None:  # the line clears
                    relay.set(None)
                    truth.poll()
                    missing = truth.missing()
                    if missing:
                        waiting.append((now, missing))
                    else:
                        recovery.append(0.0)
                    ep, ends = None, now + rng.uniform(*CLEAN_S)
                else:
                    unrecovered += len(waiting)  # not recovered before the next fault
                    waiting = []
                    ep = next(episodes)
                    kinds[ep.kind] += 1
                    key = "unplug" if ep.kind == "unplug" else "cut"
                    if ep.kind.startswith("cut") or ep.kind == "unplug":
                        longest[key] = max(longest[key], ep.table_s)
                    relay.set(ep)
                    ends = now + ep.real_s
            if final is None and truth.ended:
                final = now  # the game is over: the line clears for good
                if ep is not None:
                    relay.set(None)
                    ep = None
                    truth.poll()
                    waiting.append((now, truth.missing()))
            if final is not None and not waiting and not truth.missing():
                break
            if final is not None and now - final > FINAL_WAIT_S:
                problem = f"log still incomplete {FINAL_WAIT_S:.0f} s after the game"
                break
            if host.poll() is not None:
                problem = f"plateau log exited with {host.returncode}"
                break
            if fw.finished():
                problem = f"the simulator exited with {fw.proc.returncode}"
                break
            if now - t0 > 3600:
                problem = "no end after an hour"
                break
    finally:
        elapsed = time.monotonic() - t0
        if host.poll() is None:
            host.send_signal(signal.SIGINT)
            try:
                host.wait(20)
            except subprocess.TimeoutExpired:
                host.kill()
                problem = problem or "plateau log did not stop on SIGINT"
        fw.stop()
        relay.close()
        truth.journal.close()
        truth.log.close()
    unrecovered += len(waiting)
    result = compare(work / "journal.jsonl", work / "game.jsonl")
    errors = (work / "host.err").read_text(errors="replace")
    table_s = truth.table_ms / 1000
    result.update(
        game=spec.game,
        seed=spec.seed,
        ring=spec.ring,
        speed=spec.speed,
        real_s=round(elapsed, 1),
        achieved_speed=round(table_s / elapsed, 1) if elapsed else 0,
        episodes=dict(kinds),
        longest_cut_s=round(longest["cut"], 1),
        longest_unplug_s=round(longest["unplug"], 1),
        recovery_s=[round(r, 3) for r in recovery],
        unrecovered=unrecovered,
        tracebacks=errors.count("Traceback"),
        relay=dict(relay.counts),
        problem=problem,
        host=errors.strip().splitlines()[-1:] if errors.strip() else [],
        work=str(work) if keep else None,
    )
    if not keep:
        shutil.rmtree(work, ignore_errors=True)
    return result


def compare(journal: Path, log: Path) -> dict:
    """The log against the journal, number by number (per boot).

    lost: emitted, neither logged nor inside a gap; held_lost: of those, events the ring
    never dropped (the board still held them); duplicated: logged more than once;
    out_of_order: logged after a higher number of its boot; gapped: inside a gap, rightly;
    wrongly_gapped: inside a gap but logged, never emitted, or never dropped by the ring;
    changed: logged with other content than emitted (or as `bad`)."""
    emitted: dict[tuple[str, int], dict] = {}
    held_from: dict[str, int] = {}
    with open(journal) as f:
        for line in f:
            e = json.loads(line)
            if "seq" in e:
                emitted[(e["boot"], e["seq"])] = e
            elif "held_from" in e:
                held_from[e["boot"]] = max(held_from.get(e["boot"], 0), e["held_from"])
    logged: Counter = Counter()
    gapped: list[tuple[str, int]] = []
    out_of_order = changed = 0
    last: dict[str, int] = {}
    with open(log) if log.exists() else open(os.devnull) as f:
        for line in f:
            e = json.loads(line)
            if "seq" in e:
                key = (e["boot"], e["seq"])
                if e["seq"] < last.get(e["boot"], 0):
                    out_of_order += 1
                last[e["boot"]] = max(last.get(e["boot"], 0), e["seq"])
                logged[key] += 1
                if logged[key] == 1 and emitted.get(key) != e:
                    changed += 1
            elif e.get("type") == "gap":
                gapped += [(e["boot"], n) for n in range(e["from"], e["to"] + 1)]
    gap_count = Counter(gapped)
    lost = [k for k in emitted if k not in logged and k not in gap_count]
    wrong = [
        k
        for k, n in gap_count.items()
        if n > 1 or k in logged or k not in emitted or k[1] >= held_from.get(k[0], 1)
    ]
    return {
        "emitted": len(emitted),
        "logged": len(logged),
        "lost": len(lost),
        "held_lost": len([k for k in lost if k[1] >= held_from.get(k[0], 1)]),
        "duplicated": sum(n - 1 for n in logged.values()),
        "out_of_order": out_of_order,
        "gapped": len(gap_count) - len(wrong),
        "wrongly_gapped": len(wrong),
        "changed": changed,
    }


# --- many games ---------------------------------------------------------------------------------

BROKEN = ("lost", "duplicated", "out_of_order", "wrongly_gapped", "changed", "tracebacks")


def specs(per_game: int, games=GAMES, seed: int = 0, small_ring: int = 2048) -> list[Spec]:
    """per_game games of each; every other one with a small ring (small_ring bytes, about 30
    events), so that long cuts overrun it and the gap path is taken too."""
    out = []
    for i in range(per_game):
        for g in games:
            ring = small_ring if i % 2 else None
            out.append(Spec(g, seed + i, find(g).CHAOS_SPEED, ring))
    return out


def run(todo: list[Spec], jobs: int = 2, say=print, keep: Path | None = None) -> dict:
    """Plays every spec (jobs at a time), says a line per game, returns the totals."""
    results = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for r in pool.map(play, todo, [keep] * len(todo)):
            results.append(r)
            say(line(r))
    return totals(results)


def line(r: dict) -> str:
    rec = max(r["recovery_s"], default=0)
    flags = [k for k in BROKEN if r[k]] + (["PROBLEM: " + r["problem"]] if r["problem"] else [])
    return (
        f"{r['game']:<7} seed {r['seed']:<3} ring {r['ring'] or 'full':<5}"
        f" {r['emitted']:5d} events:"
        f" {r['lost']} lost, {r['duplicated']} dup, {r['out_of_order']} out of order,"
        f" {r['gapped']} gapped ({r['wrongly_gapped']} wrongly), {r['changed']} changed;"
        f" {sum(r['episodes'].values())} faults, longest cut {r['longest_cut_s']} s,"
        f" unplug {r['longest_unplug_s']} s; recovery max {rec:.2f} s"
        f" ({r['real_s']} s real, {r['achieved_speed']}x)"
        + (" !! " + ", ".join(flags) if flags else "")
    )


def totals(results: list[dict]) -> dict:
    rec = sorted(x for r in results for x in r["recovery_s"])
    t: dict = {
        "games": Counter(r["game"] for r in results),
        "problems": [
            f"{r['game']} seed {r['seed']}: {r['problem']}" for r in results if r["problem"]
        ],
        "recoveries": len(rec),
        "recovery_max_s": rec[-1] if rec else 0.0,
        "recovery_p95_s": rec[int(0.95 * (len(rec) - 1))] if rec else 0.0,
        "recovery_over_3s": len([x for x in rec if x > RECOVERY_S]),
        "unrecovered": sum(r["unrecovered"] for r in results),
        "episodes": sum((Counter(r["episodes"]) for r in results), Counter()),
        "longest_cut_s": max((r["longest_cut_s"] for r in results), default=0),
        "longest_unplug_s": max((r["longest_unplug_s"] for r in results), default=0),
        "relay": sum((Counter(r["relay"]) for r in results), Counter()),
        "speed_min": min((r["achieved_speed"] for r in results), default=0),
    }
    for k in ("emitted", "logged", "held_lost", "gapped", *BROKEN):
        t[k] = sum(r[k] for r in results)
    return t


def summary(t: dict) -> list[str]:
    relay = t["relay"]
    return [
        f"chaos: {sum(t['games'].values())} whole games ("
        + ", ".join(f"{n} {g}" for g, n in sorted(t["games"].items()))
        + f"), {t['emitted']} events emitted: {t['lost']} lost ({t['held_lost']} the board"
        f" still held), {t['duplicated']} duplicated, {t['out_of_order']} out of order,"
        f" {t['changed']} changed; {t['gapped']} lost to the ring and named in a gap,"
        f" {t['wrongly_gapped']} wrongly gapped; {t['tracebacks']} tracebacks",
        f"chaos faults: {sum(t['episodes'].values())} ("
        + ", ".join(f"{n} {k}" for k, n in sorted(t["episodes"].items()))
        + f"); longest cut {t['longest_cut_s']} s and unplug {t['longest_unplug_s']} s of table"
        f" time; relay: {relay['bytes']} bytes, {relay['corrupted']} corrupted,"
        f" {relay['dropped']} dropped in pieces, {relay['doubled']} pieces doubled,"
        f" {relay['reordered']} reordered, {relay['garbage']} garbage bursts,"
        f" {relay['cut']} cut or unplugged",
        f"chaos recovery after the line cleared ({t['recoveries']} times): max"
        f" {t['recovery_max_s']:.2f} s, 95% within {t['recovery_p95_s']:.2f} s,"
        f" {t['recovery_over_3s']} over 3 s, {t['unrecovered']} not before the next fault;"
        f" slowest table {t['speed_min']}x real time"
        + ("; PROBLEMS: " + "; ".join(t["problems"]) if t["problems"] else ""),
    ]


def broken(t: dict) -> bool:
    """The link's promise not kept (timing aside: see summary)."""
    return bool(any(t[k] for k in BROKEN) or t["problems"] or t["unrecovered"])


def main(args) -> int:
    games = args.game or list(GAMES)
    todo = specs(args.games, games, args.seed)
    for s in todo:
        s.max_cut = args.max_cut
        if args.speed:
            s.speed = args.speed
    print(
        f"plateau chaos: {len(todo)} games ({', '.join(games)}), {args.jobs} at a time;"
        f" faults up to {args.max_cut:.0f} s of table time",
        file=sys.stderr,
    )
    t = run(todo, args.jobs, keep=Path(args.keep) if args.keep else None)
    for text in summary(t):
        print(text)
    if args.json:
        write_out(args.json, json.dumps(t, indent=1, default=dict) + "\n")
    late = t["recovery_over_3s"]
    return 1 if broken(t) or late else 0
