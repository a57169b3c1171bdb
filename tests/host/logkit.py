"""A board and a logger in one process on one virtual clock: the firmware's `Link` and `Table`
(numbering, ring, resend, greeting) on one side, on the other what `plateau log` runs on each
frame (`hostlink.Receiver`, `logger.Logger`, `logger.keep`, `logger.take_up`), and the bytes
between them. Nothing depends on the machine's speed: the logger's and the index's clocks
are the virtual one too. Used by the logger's restart and disk tests."""

from __future__ import annotations

import json
from collections.abc import Callable

from plateau.fw.link import frame
from plateau.fw.link.link import Link
from plateau.fw.sim import VirtualClock
from plateau.fw.table import Table as Board
from plateau.hostlink import Receiver
from plateau.logger import HOLD_BYTES, Logger, keep, take_up

STEP_MS = 5
GAME = {"type": "game", "game": "tock", "players": 4, "rules": "classic"}
MOVE = {"type": "move", "card": "AS", "seat": "R", "steps": [["RC1", "R1"]]}
SETTLE_MS = 8000  # a logger running this long is in step (recovery is within 3 s)


class Table:
    """The board, the host and the log between them. `emitted`: (boot, seq) of every event
    the board numbered; `expected`: those a logger in step has had the time to log."""

    def __init__(
        self,
        rng,
        log,
        db=None,
        hold_bytes: int = HOLD_BYTES,
        say: Callable[[str], None] | None = None,
    ):
        self.rng = rng
        self.log = log
        self.db = db
        self.hold_bytes = hold_bytes
        self.said: list[str] = []
        self.say = say or self.said.append
        self.clock = VirtualClock()
        self.down = bytearray()  # board -> host, not yet read
        self.up = bytearray()  # host -> board
        self.emitted: list[tuple[str, int]] = []
        self.expected: set[tuple[str, int]] = set()
        self.boots = 0
        self.board: Link | None = None
        self.power_up(erased=True)
        self.logger: Logger | None = None
        self.rx: Receiver | None = None

    def power_up(self, erased):
        kept = None if erased else (self.board.keep(), self._ring())
        self.boots += 1
        board = Link(self.down.extend, f"b{self.rng.getrandbits(28):07x}")
        if kept:  # what the store does at power-up: the link's numbering, then its ring
            assert board.restore(kept[0])
            events = kept[1]
            board.ring.clear(events[0][0] - 1 if events else kept[0]["seq"])
            for s, body in events:
                board.ring.add(s, body)
        self.board = board
        self.table = Board(None, self.clock, board)  # what answers the host's hellos
        self.up.clear()  # what the old board had not read is gone with it
        self.table.greet()  # a board says hello when it starts

    def _ring(self):
        b = self.board
        return [(s, bytes(b.ring.get(s))) for s in range(b.ring.first, b.seq + 1)]

    def held_by_board(self) -> set[tuple[str, int]]:
        """The events the board's ring still holds (it can send them again)."""
        b = self.board
        return {(b.boot, s) for s in range(b.ring.first, b.seq + 1)}

    def play(self, n, pad=0, games=False):
        """n events: cards (with a field `pad` characters long, which the host passes on
        as it is), and with `games` Tock's `game` and `move` events too, which the index
        makes rows of and counts."""
        for _ in range(n):
            ev: dict = {"type": "card", "card": "7H"}
            if games:
                ev = self.rng.choice([ev, ev, MOVE, MOVE, MOVE, GAME] if self.board.seq else [GAME])
            if pad:
                ev = dict(ev, note="x" * pad)
            self.board.emit(dict(ev))
            self.emitted.append((self.board.boot, self.board.seq))

    def now(self) -> float:
        return self.clock.now / 1000

    def start_logger(self):
        self.logger = Logger(
            self.log, self.db, say=self.say, clock=self.now, hold_bytes=self.hold_bytes
        )
        self.rx = Receiver()
        take_up(self.rx, self.log)  # as `plateau log` does
        self.down.clear()  # a port opened anew: nothing old in it
        self.rx.session(self.now())
        self.ask()

    def stop_logger(self):
        self.logger.close()
        self.logger = self.rx = None

    def ask(self):
        hello = {"cmd": "hello", "boot": self.rx.boot, "seq": self.rx.seq}
        self.up.extend(frame.encode(json.dumps(hello).encode()))
        self.rx.asked(self.now())

    def run(self, ms):
        decoder = frame.Decoder()
        for _ in range(ms // STEP_MS):
            if self.up:
                data = bytes(self.up)
                self.up.clear()
                self.table.receive(data)
            self.board.tick(self.clock)
            if self.rx is not None:
                t = self.now()
                data = bytes(self.down)
                self.down.clear()
                for payload in decoder.feed(data):
                    for ev, loggable in self.rx.take(payload, t):
                        keep(self.logger, self.rx, ev, loggable)
                keep(self.logger, self.rx)  # between frames: retries, syncs, the pause
                if self.rx.ask_due(t):
                    self.ask()
                if self.rx.dead(t):  # follow() reopens the port and says hello
                    self.rx.session(t)
                    if self.rx.wants():
                        self.ask()
            else:
                self.down.clear()  # nobody reads the port
            self.clock.sleep_ms(STEP_MS)
        if self.rx is not None and ms >= SETTLE_MS:
            boot = self.board.boot
            self.expected.update(e for e in self.emitted if e[0] == boot)
