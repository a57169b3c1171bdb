"""The host's end of the link: frames in, events out, commands back (P1-P4).

The link's promise: every event the board numbered reaches the caller once and in order, or
the caller gets a `gap` naming exactly the numbers that are gone and why; and whatever the
line did (bytes corrupted, dropped, doubled, reordered, a cut with the port still open, an
unplug), the host gets back in step by itself once the line is good again.

`Receiver` keeps that promise and does no I/O (tests and fuzzing feed it directly);
`HostLink` wires it to a serial port. How the host recovers:

- Events after a hole are held (up to HELD_MAX) and delivered once the hole fills.
- While a hole is open (the board said, in a numbered event or in the "at" of any link
  message, heartbeats included, that it has more than we have) the host asks with `hello`,
  and asks again ASK_FIRST_S after the last ask or the last progress, backing off to one ask
  every ASK_MAX_S. Each ask restarts the board's resend from where we are.
- A board `gap` is taken as the exact list of lost numbers: events still held inside it are
  delivered, each run of numbers really missing becomes one `gap` for the caller, and the
  count moves past it.
- A board that restarted (a new boot id) ends the old boot: what the host knew the old boot
  had and never got is a `gap` with why "reset"; late frames of an ended boot are dropped.
- The link is declared dead (LinkError; `follow` reopens the port) after DEAD_AFTER_S without
  a good frame, or DEAD_AFTER_S without progress while a hole stays open: heartbeats alone do
  not keep a stuck link alive.
- A snapshot is the state after event "at": it is passed on at that point of the stream
  (after the resent events it already contains), once per greeting and after every gap.

What goes in the log is decided in one place, `Receiver.passed`: every event it passes on
comes with that answer (`take`, `HostLink.received`, `follow`). Whether the board numbered an
event (emit or tell, on its side) says whether it can be asked for again, not whether it is
logged: the log also holds link messages about the game and the table (a session's hello and
snapshot, answers, errors), never the link's own chatter.

Decoding uses the firmware's own `link.frame`, so both ends share one framing; shapes are
checked by `plateau.events`."""

from __future__ import annotations

import itertools
import json
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields

import serial

try:  # a pty whose other end is gone fails its termios set-up (EIO), not with an OSError
    from termios import error as _TtyError
except ImportError:  # no termios (Windows): pyserial reports its own errors there
    _TtyError = OSError  # type: ignore[misc,assignment]

from plateau import events
from plateau.fw.link import frame  # firmware/link/frame.py, shared

DEAD_AFTER_S = 3.0  # P3: no good frame, or no progress on a hole, this long: the link is dead
ASK_FIRST_S = 0.25  # a hole still open this long after the last ask or progress: ask again
ASK_MAX_S = 1.0  # backing off, but never slower than this: recovery within 3 s of a clear line
HELD_MAX = 1024  # events held past a hole (the board's ring holds 256)
RETIRED_MAX = 64  # ended boots remembered (their late frames are dropped)
# link messages counted or acted on, never logged (Receiver.passed)
_CHATTER = ("heartbeat", "sim_end")


class LinkError(Exception):
    """A problem a person can act on: the message says what and what to do."""


class DeadLink(LinkError):
    """The port is open but the board said nothing (or nothing that closed a hole) for
    DEAD_AFTER_S: `follow` reopens the port; a caller that knows the board is only slow (a
    simulator starting on a loaded machine) calls `revive` and reads on."""


@dataclass
class Stats:
    """What the link went through (heartbeats are counted here, not logged)."""

    frames: int = 0  # good frames (CRC right)
    bad_frames: int = 0  # bytes that were no frame (noise, CRC wrong), or no event at all
    bad_events: int = 0  # numbered events of a wrong shape, passed on as `bad`
    heartbeats: int = 0
    duplicates: int = 0  # numbered events we already had (resends, doubled frames)
    asks: int = 0  # hellos sent
    gaps: int = 0  # gap runs passed on
    lost: int = 0  # numbers inside them
    stale: int = 0  # frames of an ended boot, and snapshots already out of date
    board_link_errors: int = 0  # the board's reports of garbage from us
    reopens: int = 0  # the link declared dead and the port opened again
    paused: int = 0  # events the board sent while the caller could take none (asked again)

    def line(self) -> str:
        return ", ".join(
            f"{getattr(self, f.name)} {f.name.replace('_', ' ')}" for f in fields(self)
        )


class Receiver:
    """The numbering and recovery of the link, without I/O: payloads and the time in,
    (event, logged) out (`passed` decides which go in the log); `ask_due` says when to send
    a hello, `dead` when to give up.

    `following` False (`plateau send`): numbered events are passed on as they come, nothing
    is asked; the caller only wants answers."""

    def __init__(self, following: bool = True):
        self.following = following
        self.asking = following  # says hello when it wants something (not for commands only)
        self.boot: str | None = None  # the boot whose events we take
        self.seq = 0  # its last event passed on (or covered by a gap)
        self.board_at = 0  # the newest number the board said it has
        self.held: dict[int, dict] = {}  # events past a hole
        self.snap: dict | None = None  # a snapshot waiting for its event "at"
        self.retired: OrderedDict[str, int] = OrderedDict()  # ended boots -> their last seq
        # set by take_up: (boot, n) -> the highest number of that boot <= n the log holds;
        # the board's first hello is checked against the log's last state (_check_log)
        self.log_has: Callable[[str, int], int] | None = None
        self.stats = Stats()
        self.greeted = False  # a board hello since the port was opened
        self.opened = False  # a hello of this boot passed on (in the log: its first line)
        self.want_snapshot = True  # the next snapshot is logged (a session, or after a gap)
        # the caller can take no more events (plateau log holding all it may while its disk
        # is full: logger.keep): nothing numbered is taken and nothing asked; the board
        # keeps them in its ring and is asked from where we are once the pause ends
        self.paused = False
        self._asked_at: float | None = None
        self._asks = 0  # asks since the last progress
        self._progress_at = 0.0
        self._rx_at = 0.0

    def take_up(
        self, boot: str | None, seq: int, earlier: list[str], log_has: Callable[[str, int], int]
    ) -> None:
        """Take up where a log ends (a restarted `plateau log`: logger.take_up reads it): its
        last boot and number, so only what was missed is asked for; the boots before it
        ended, so their late frames are not taken; `log_has(boot, n)`, the highest number of
        that boot up to n the log holds, for the board's first hello to be checked against
        the log's last state (_check_log)."""
        self.boot, self.seq, self.board_at = boot, seq, seq
        self.opened = boot is not None  # the log has that boot already
        for old in earlier:
            self.retired[old] = 0
        self.log_has = log_has

    def pause(self, on: bool) -> None:
        """Take no more events (on) or go on taking them (off: the board is asked at once for
        what it sent meanwhile, and greets a new session of the log)."""
        if on == self.paused:
            return
        self.paused = on
        if not on:
            self.greeted = False  # its hello and snapshot are logged again
            self.want_snapshot = True
            self.snap = None
            self._asked_at = None
            self._asks = 0

    def passed(self, ev: dict) -> tuple[dict, bool]:
        """An event passed on, with whether it goes in the log: the one place that decides.
        The log holds the game and the table: every numbered event, the gaps and retakes
        this receiver makes, a session's first hello, the snapshots it passes on, answers,
        errors; not the link's own chatter: heartbeats, the simulator's sim_end, the board's
        reports of garbage from us (link errors), a hello after the session's first."""
        if "seq" in ev:
            return ev, True
        kind = ev["type"]
        if kind == "hello":
            return ev, not self.greeted
        if kind == "error" and ev.get("what") == "link":
            return ev, False
        return ev, kind not in _CHATTER

    # --- time -------------------------------------------------------------------------------

    def session(self, now: float) -> None:
        """The port was (re)opened: a new greeting is wanted and logged."""
        self.greeted = False
        self.want_snapshot = True
        self._asked_at = None
        self._asks = 0
        self._progress_at = self._rx_at = now

    def behind(self) -> bool:
        """Events missing: the board has more than we passed on, or some are held."""
        return self.board_at > self.seq or bool(self.held)

    def wants(self) -> bool:
        return (
            self.asking
            and not self.paused
            and (not self.greeted or self.behind() or (self.want_snapshot and self.snap is None))
        )

    def ask_due(self, now: float) -> bool:
        if not self.wants():
            self._progress_at = now
            return False
        if self._asked_at is None:
            return True
        wait = min(ASK_FIRST_S * 2 ** max(self._asks - 1, 0), ASK_MAX_S)
        return now - max(self._asked_at, self._progress_at) >= wait

    def asked(self, now: float) -> None:
        self._asked_at = now
        self._asks += 1
        self.stats.asks += 1

    def dead(self, now: float) -> str | None:
        if now - self._rx_at > DEAD_AFTER_S:
            return f"no frame from the board for {DEAD_AFTER_S:.0f} s"
        if self.wants() and now - self._progress_at > DEAD_AFTER_S:
            return (
                f"no progress for {DEAD_AFTER_S:.0f} s while events are missing"
                f" (have {self.seq}, the board has {self.board_at})"
            )
        return None

    # --- frames -----------------------------------------------------------------------------

    def take(self, payload: bytes, now: float) -> list[tuple[dict, bool]]:
        """One good frame's payload -> what to pass on, each with whether to log it."""
        self.stats.frames += 1
        ev, why = events.parse(payload)
        if ev is None or "boot" not in ev:
            head = events.numbered_head(payload)
            if head is None:  # no event, nor the number of one: noise that passed the CRC
                self.stats.bad_frames += 1
                return []
            ev = events.bad(head[0], head[1], why or "no boot", payload)
        self._rx_at = now
        out: list[tuple[dict, bool]] = []
        boot = ev["boot"]
        if self.log_has is not None and ev["type"] == "hello" and "at" in ev:
            out += self._check_log(boot, ev["at"])
        if boot in self.retired:
            self.stats.stale += 1
            return out
        if boot != self.boot:
            out += self._new_boot(boot, now)
        seq = ev.get("seq")
        at = ev.get("at")
        kind = ev["type"]
        if self.paused and self.following:  # what the board has is noted, nothing taken
            self.board_at = max(self.board_at, seq or 0, at or 0)
            if seq is not None:
                self.stats.paused += 1
            elif kind == "heartbeat":
                self.stats.heartbeats += 1
            elif kind not in ("gap", "snapshot"):
                out.append((ev, False))  # shown, not logged: the session greets again later
            return out
        if seq is not None:
            return out + self._numbered(ev, seq, now)
        if at is not None:
            self.board_at = max(self.board_at, at)
        if kind == "gap":
            if self.following:
                out += self._gap(ev, now)
        elif kind == "snapshot":
            out += self._snapshot(ev)
        else:
            out.append(self.passed(ev))
            if kind == "heartbeat":
                self.stats.heartbeats += 1
            elif kind == "hello":
                # the board's own word on how far it is (an "at" seen before may have been a
                # stale or wrong one): a hole that stays open is asked for again anyway
                self.board_at = max(self.seq, at or 0)
                self.greeted = self.opened = True
                if self.following:  # what came before it, in its place after it
                    out += self._positioned() + self._drain(now)
            elif kind == "error" and ev.get("what") == "link":
                self.stats.board_link_errors += 1
        return out

    def _numbered(self, ev: dict, seq: int, now: float) -> list[tuple[dict, bool]]:
        if ev["type"] == "bad":
            self.stats.bad_events += 1
        if not self.following:
            return [self.passed(ev)]
        self.board_at = max(self.board_at, seq)
        if seq <= self.seq or seq in self.held:
            self.stats.duplicates += 1
            return []
        if seq - self.seq > HELD_MAX:
            return []  # too far past the hole to hold: it will come again with the resend
        self.held[seq] = ev
        return self._drain(now)

    def _drain(self, now: float) -> list[tuple[dict, bool]]:
        """The held events that follow the last one passed on, in order; none of a boot
        before its hello (its power-up hello lost, say: asked again): in the log, a boot's
        first line is its hello, and readers take a numbered event of a boot no hello opened
        for a forged one (repeats.Reader)."""
        out: list[tuple[dict, bool]] = []
        if not self.opened:
            return out
        while self.seq + 1 in self.held:
            self.seq += 1
            out.append(self.passed(self.held.pop(self.seq)))
            self._progressed(now)
            out += self._positioned()
        return out

    def _progressed(self, now: float) -> None:
        self._progress_at = now
        self._asks = 0

    def _positioned(self) -> list[tuple[dict, bool]]:
        """The held snapshot, once the stream has reached the event it follows (and its
        boot's hello is out)."""
        snap = self.snap
        if snap is None or snap["at"] > self.seq or not self.opened:
            return []
        self.snap = None
        if snap["at"] < self.seq:
            self.stats.stale += 1
            return []
        wanted = self.want_snapshot
        self.want_snapshot = False
        return [self.passed(snap)] if wanted else []

    def _snapshot(self, ev: dict) -> list[tuple[dict, bool]]:
        if not self.following or "at" not in ev:
            return [self.passed(ev)]
        if self.snap is None or ev["at"] >= self.snap["at"]:
            self.snap = ev
        return self._positioned()

    def _gap(self, ev: dict, now: float) -> list[tuple[dict, bool]]:
        """The board no longer holds ev["from"]..ev["to"]: what we still miss of it is lost.
        Not before its boot's hello (an answer to an older ask: one comes after it)."""
        if not self.opened or ev["from"] > self.seq + 1 or ev["to"] <= self.seq:
            return []  # an answer to an older ask: not where we are
        return self._give_up(ev["to"], "ring", now)

    def _give_up(self, to: int, why: str, now: float) -> list[tuple[dict, bool]]:
        """Everything up to `to`: held events passed on, each missing run as one gap."""
        out: list[tuple[dict, bool]] = []
        start = self.seq + 1
        for n in sorted(k for k in self.held if k <= to):
            if n > start:
                out.append(self._lost(start, n - 1, why))
            out.append(self.passed(self.held.pop(n)))
            start = n + 1
        if start <= to:
            out.append(self._lost(start, to, why))
        self.seq = to
        self.want_snapshot = True  # what follows cannot be checked against what went before
        self._progressed(now)
        return out + self._positioned() + self._drain(now)

    def _lost(self, first: int, last: int, why: str) -> tuple[dict, bool]:
        self.stats.gaps += 1
        self.stats.lost += last - first + 1
        gap = {"type": "gap", "boot": self.boot, "from": first, "to": last, "why": why}
        return self.passed(gap)

    def _check_log(self, boot: str, at: int) -> list[tuple[dict, bool]]:
        """The board's first hello to a logger taken up from a log. A board never goes back
        on its numbering within a boot, nor back to a boot it left: a log whose last state
        the board contradicts (a number of this boot beyond the board's newest, or a last
        boot that is not the board's while the board's is one the log had before) holds a
        damaged or forged line. Trusting it would drop every later event as already had, or
        as an ended boot's: instead the receiver takes up from the last event of the
        board's boot that the log holds within what the board has, asks from there, and says
        so in a `retake` line (readers take the numbers after it again: logger.Repeats)."""
        log_has, self.log_has = self.log_has, None
        assert log_has is not None
        if boot == self.boot:
            if at >= self.seq:
                return []
            why = f"the log has event {self.seq} of boot {boot}, the board only {at}"
        elif boot in self.retired:
            why = f"the log ends on boot {self.boot}, but the board is still on boot {boot}"
            del self.retired[boot]
            if self.boot is not None:
                self.retired[self.boot] = self.seq
        else:
            return []  # a board that restarted while no logger ran: a new boot, as usual
        self.boot, self.seq, self.board_at = boot, log_has(boot, at), at
        self.held, self.snap = {}, None
        self.want_snapshot = True
        why += f": a damaged or forged line; taking up again from event {self.seq + 1}"
        return [self.passed({"type": "retake", "boot": boot, "from": self.seq + 1, "why": why})]

    def _new_boot(self, boot: str, now: float) -> list[tuple[dict, bool]]:
        """The board restarted: its RAM, the ring with it, is gone."""
        out: list[tuple[dict, bool]] = []
        if self.boot is not None:
            if self.following and self.behind():
                out = self._give_up(max(self.board_at, *self.held, 0), "reset", now)
            self.retired[self.boot] = self.seq
            while len(self.retired) > RETIRED_MAX:
                self.retired.popitem(last=False)
        self.boot, self.seq, self.board_at = boot, 0, 0
        self.held, self.snap = {}, None
        self.greeted = self.opened = False  # its hello is logged, first
        self.want_snapshot = True
        self._asks = 0
        return out


class HostLink:
    """Reads events from a Plateau board (or the simulator) over a serial port.

    Starts from (boot, seq) when set (the last event a log holds), so the board resends only
    what was missed. `received` yields each event with whether it belongs in the log
    (Receiver.passed); `events` the events alone, for a tool that only reads."""

    def __init__(self, port: str, baudrate: int = 115200, following: bool = True):
        self.port = port
        self.baudrate = baudrate
        self.rx = Receiver(following)
        self._ser: serial.Serial | None = None
        self._decoder = frame.Decoder()
        # text ids, unique across host runs (a random prefix): the board answers a command
        # sent again with its id without applying it twice
        prefix = secrets.token_hex(4)
        self._ids = (f"{prefix}-{n}" for n in itertools.count(1))
        self._pending: deque[tuple[dict, bool]] = deque()
        self.clock = time.monotonic

    @property
    def boot(self) -> str | None:
        return self.rx.boot

    @boot.setter
    def boot(self, value: str | None) -> None:
        self.rx.boot = value

    @property
    def seq(self) -> int:
        return self.rx.seq

    @seq.setter
    def seq(self, value: int) -> None:
        self.rx.seq = self.rx.board_at = value

    @property
    def stats(self) -> Stats:
        return self.rx.stats

    @property
    def is_open(self) -> bool:
        return self._ser is not None

    def open(self, hello: bool = True) -> None:
        try:
            # P5: open without touching DTR/RTS; pulsing them resets an ESP32 (and in one
            # pattern drops an ESP32-S3 into its bootloader).
            ser = serial.Serial()
            ser.port = self.port
            ser.baudrate = self.baudrate
            ser.timeout = 0.05
            ser.dtr = False
            ser.rts = False
            # one tool at a time: an advisory lock (flock, POSIX) that every plateau tool
            # takes, so a second one is refused rather than both reading half the frames
            ser.exclusive = True
            ser.open()
        except (serial.SerialException, OSError, _TtyError) as e:
            if "exclusively lock" in str(e):
                raise LinkError(
                    f"{self.port} is busy: another program holds it (one tool at a time: stop"
                    " the other plateau log, send or calibrate first)"
                ) from e
            raise LinkError(f"cannot open {self.port}: {e}. Is the table plugged in?") from e
        self._ser = ser
        self._decoder = frame.Decoder()
        self.rx.session(self.clock())
        self.rx.asking = hello and self.rx.following  # hello=False: commands only, never ask
        if self.rx.wants():  # (not while paused: logger.keep)
            self.hello()

    def hello(self) -> None:
        """Tell the board what we have: it answers with what we missed (P2)."""
        self._write({"cmd": "hello", "boot": self.rx.boot, "seq": self.rx.seq})
        self.rx.asked(self.clock())

    def close(self) -> None:
        if self._ser:
            self._ser.close()
            self._ser = None

    def send(self, cmd: dict) -> int | str:
        """Send a command; returns its id (the board's `answer` carries it). Sending the same
        dict again sends the same id: the board answers again without applying it twice."""
        cmd.setdefault("id", next(self._ids))
        self._write(cmd)
        return cmd["id"]

    def _write(self, cmd: dict) -> None:
        if not self._ser:
            raise LinkError("link is not open")
        try:
            self._ser.write(frame.encode(json.dumps(cmd).encode()))
        except (serial.SerialException, OSError) as e:
            raise LinkError(f"link to {self.port} lost: {e}") from e

    def events(self) -> Iterator[dict]:
        """The events of received(), without whether each is logged."""
        for ev, _ in self.received():
            yield ev

    def received(self) -> Iterator[tuple[dict, bool]]:
        """Yields (event, logged) as events arrive: numbered events exactly once and in
        order, gaps where numbers are gone; `logged`: whether it belongs in the log
        (Receiver.passed). Ends with LinkError when the port fails or the link is dead (see
        the module's doc); `follow` reopens it."""
        assert self._ser is not None
        pending = self._pending  # decoded but not yet taken: kept if a caller stops early
        rx = self.rx
        while True:
            while pending:
                yield pending.popleft()
            now = self.clock()
            if rx.ask_due(now):
                self.hello()
            try:
                data = self._ser.read(4096)
            except (serial.SerialException, OSError) as e:
                raise LinkError(f"link to {self.port} lost: {e}") from e
            now = self.clock()
            if data:
                before = self._decoder.errors
                for payload in self._decoder.feed(data):
                    pending.extend(rx.take(payload, now))
                rx.stats.bad_frames += self._decoder.errors - before
            why = rx.dead(now)
            if why and not pending:
                rx.stats.reopens += 1
                raise DeadLink(f"{self.port}: {why}")

    def revive(self) -> None:
        """After DeadLink, on the same open port: a new session, greeted again."""
        self.rx.session(self.clock())
        if self.rx.wants():
            self.hello()

    def command(self, cmd: dict, timeout: float, resend_s: float = 1.0) -> Iterator[dict]:
        """Sends a command and yields what comes until its answer (the last item), sending it
        again (same id) each resend_s without one; LinkError after `timeout` (a silent board
        is waited for that long: it may be starting)."""
        cid = self.send(cmd)
        start = sent = self.clock()
        while self.clock() - start <= timeout:
            try:
                for ev in self.events():
                    yield ev
                    if ev.get("type") == "answer" and ev.get("id") == cid:
                        return
                    now = self.clock()
                    if now - start > timeout:
                        break
                    if now - sent > resend_s:
                        self._write(cmd)
                        sent = now
                break
            except DeadLink:
                self.revive()
                self._write(cmd)
                sent = self.clock()
        raise LinkError(f"no answer from {self.port} within {timeout:.0f} s")


def follow(
    link: HostLink,
    say=print,
    retry_s: float = 0.5,
    give_up_s: float | None = None,
    idle: Callable[[], None] | None = None,
):
    """(event, logged) from the board (HostLink.received) for as long as it takes: when the
    link drops (unplugged, board reset, dead link) it says so, reopens the port when it comes
    back and asks for what it missed (P3). Stops after give_up_s without a link, if given.
    `idle` is called between tries while there is no link (plateau log retries its disk)."""
    lost_at = None
    while True:
        opened = False
        try:
            link.open()
            opened = True
            if lost_at is not None:
                say(f"link to {link.port} back after {time.monotonic() - lost_at:.1f} s")
            lost_at = None
            yield from link.received()
        except LinkError as e:
            link.close()
            if opened and not isinstance(e, DeadLink):  # a port that failed under us is
                link.stats.reopens += 1  # reopened too (a dead link counted itself)
            if lost_at is None:
                lost_at = time.monotonic()
                say(f"{e}; reconnecting...")
                continue  # at once: a dead link on a port still there reopens at once
            if give_up_s is not None and time.monotonic() - lost_at > give_up_s:
                raise
            if idle is not None:
                idle()
            time.sleep(retry_s)
