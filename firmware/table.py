# The table's loop: one pass takes the host's commands from the link (each done by
# dispatch.py), lets the game look at the board, saves, and keeps the link going. All it
# drives is handed to it, built by one function for the board (main.py) and the simulator
# (sim/run.py) alike: power.power_up. It names no game (the registry makes one:
# games.make_game). The link calls nothing above it: the table feeds it the bytes read and
# answers through it.
import gc
import sys

from micropython import const

from clock import TICKS_MAX, elapsed

SCAN_MS = const(5)  # 200 scans a second, start to start: see firmware/sense for why
_ERROR_MS = const(1000)  # a step that keeps failing is reported at most once a second
# The loop places MicroPython's collections itself (Table._step). CPython, running the same
# table in the host's tests, frees by reference counts: a full collection is only slow there.
COLLECT = sys.implementation.name == "micropython"


class Table:
    outputs = None  # outputs.Outputs: the lights, displays and buzzer (power.power_up)
    station = None  # what makes the Wi-Fi station, for wifi.network (None: the board's)
    net = None  # link.uplink.Uplink: the club's broker over Wi-Fi, once set up (wifi.py)
    net_clock = None  # the network's time (the simulator's: real time); None: the table's
    enrolment = None  # enrolment.Enrolment, on a table with a card reader (power.power_up)
    # (class defaults, set on the table when they change: an instance attribute the table
    # keeps is a slot of its dictionary on the heap)
    running = True  # False: the `repl` command ends the loop
    failures = 0  # steps and commands that raised (reported as `error` events)
    _failed_at = None
    _unsaid = 0  # failures since the last report

    def __init__(self, transport, clock, link, game=None, sense=None, store=None, watchdog=None):
        self.transport = transport
        self.clock = clock
        self.link = link
        self.emit = link.emit  # numbered events (power.power_up: through the outputs' tap)
        self.sense = sense
        self.store = store  # store.Store: the game survives resets (the link's keeper too)
        self.watchdog = watchdog  # machine.WDT on a board: fed every pass
        self._collect = False  # collect the garbage at the end of this pass
        self._saves = 0  # the store's saves when the garbage was last collected
        self._busy = False  # a sensor was mid-change at the last pass
        self.game = game
        if store:
            store.game = game  # saved with the link's events and numbering
        self.started = clock.ticks_ms()  # for the scan rate: the counter may read anything

    def about(self):
        return self.game.about() if self.game else {"game": None}

    def snapshot(self):
        snap = {"type": "snapshot"}
        if self.game:
            snap.update(self.game.snapshot())
        return snap

    def greet(self, host_boot=None, host_seq=None):
        """hello and the snapshot (link.Link.greet): at power-up, and for a host's hello."""
        self.link.greet(self.about(), self.snapshot(), host_boot, host_seq)

    def receive(self, data, reply=None):
        """Bytes from the host: each command in them done and answered (or refused); with
        `reply`, a command from the club's broker, answered there (link.Link.receive)."""
        link = self.link
        for cmd in link.receive(data, reply):
            name = cmd["cmd"]
            try:
                if name == "hello":
                    self.greet(cmd.get("boot"), cmd.get("seq", 0))
                elif name == "snapshot":
                    link.tell(self.snapshot())
                    link.answer(None)
                else:
                    link.answer(self.command(cmd))
            except MemoryError:
                from link.link import SHORT

                gc.collect()
                link.answer(SHORT)

    def command(self, cmd):
        """A host command other than hello/snapshot: None when done, else why refused
        (dispatch.py does it: the table's own words, enrolment's, the game's)."""
        from dispatch import command

        why = command(self, cmd)
        if why is None and self.game:  # saved this pass, with the link's memory of the answer
            self.game.unsaved = self.game.urgent = True
        return why

    def load(self, name, settings):
        """A new game of that kind (ValueError: unknown game or bad settings)."""
        from games import make_game

        names = self.sense.hardware.names if self.sense else ()
        self.game = make_game(name, self.emit, names, settings)
        if self.store:
            self.store.game = self.game

    def save(self):
        """The game on flash: with this pass's events if any (the link's keeper keeps it with
        them: store.Store.commit), else alone. A refusal is said; short of heap, next pass."""
        link = self.link
        if link.unsent():
            link.flush()
            return
        why = self.store.save_game(link.keep(), self.clock.ticks_ms())
        if why:
            link.tell({"type": "error", "what": "saved-game", "why": why})

    def step(self):
        """One pass of the loop. An exception in it (a bug in a game's handler, say) is
        reported as an `error` event and the loop goes on: the watchdog is for hangs."""
        try:
            self._step()
        except Exception as e:
            self.failed(e)
        if self.watchdog:
            self.watchdog.feed()

    def failed(self, e):
        """Report an exception the loop caught, at most once every _ERROR_MS (with how
        many were not reported): a bug hit on every scan must not flood the link."""
        self.failures += 1
        now = self.clock.ticks_ms()
        if self._failed_at is not None and elapsed(now, self._failed_at) < _ERROR_MS:
            self._unsaid += 1
            return
        self._failed_at = now
        ev = {"type": "error", "what": "firmware", "why": "%s: %s" % (type(e).__name__, e)}  # type: dict
        if self._unsaid:
            ev["repeats"] = self._unsaid
            self._unsaid = 0
        try:
            self.emit(ev)
        except Exception:
            self._unsaid += 1  # out of memory, likely: the next report counts this one

    def _step(self):
        # Few locals: the frame stays on the C stack (past 11 words it goes to the heap)
        data = self.transport.read()
        if data:
            self.receive(data)
        game = self.game
        if game:
            now = self.clock.ticks_ms()
            busy = False
            if self.sense:
                laid = self.sense.step(now, game)  # a tag laid to be enrolled, or None
                if laid and self.enrolment:
                    self.enrolment.laid(laid, game)
                if self.sense.calibration:  # (its loop in a frame of its own)
                    self.sense.calibrated(self.link.tell)
                if self.sense.rail_news:  # the sensors' supply went, or came back
                    self.emit(self.sense.rail_said(self.snapshot))
                busy = self.sense.busy()
                if self._busy and not busy:
                    self._collect = True  # the sensors just settled: the game reads soon
                self._busy = busy
            game.step(now, not busy)
            if self.store and game.unsaved and (game.urgent or self.store.due(now)):
                self.save()
        self.link.flush()  # the events of this pass: on flash, then on the wire
        self.link.tick(self.clock)
        if self.net:
            self._network(self.net)
        if self.store and self.store.saves != self._saves:
            self._saves = self.store.saves
            self._collect = True  # a move, a card or a goal was just refereed and saved
        if self.outputs and game:  # a bounded piece of what the table shows, after the link,
            # none in a pass that collects (the game's work is this pass's)
            self.outputs.step(self.clock.ticks_ms(), game, not self._collect)
        if self._collect:
            # between passes, so that each read and check starts with the heap fresh and a
            # collection (tens of ms on an ESP32) never falls inside one (make bench counts)
            self._collect = False
            if COLLECT:
                gc.collect()

    def _network(self, net):
        """The club's broker (link/uplink.py): its bounded step; a command from the club done
        and answered there; the table as it stands, when the uplink asks for it."""
        cmd = net.step((self.net_clock or self.clock).ticks_ms())
        if cmd:
            self.receive(cmd, net.answer)
        if net.wanted:
            net.greet(self.about(), self.snapshot())

    def run(self):
        """A pass every SCAN_MS, start to start; one that overran is followed at once by the
        next, and after a long stall the period starts afresh (not in a burst of passes)."""
        self.transport.table_mode()
        clock = self.clock
        try:
            due = clock.ticks_ms()
            while self.running:
                self.step()
                due = (due + SCAN_MS) & TICKS_MAX
                wait = -clock.since(due)
                if wait > 0:
                    clock.sleep_ms(wait)
                elif wait < -SCAN_MS:
                    due = clock.ticks_ms()
        finally:
            self.transport.repl_mode()
