# The scan loop's sensing half: reads the board's chips once per scan and hands the game
# settled facts (sensor edges, new card reads, button presses, goal sensor edges).
from clock import elapsed
from sense.cards import CardReads
from sense.debounce import Debouncer


class Board:
    """What the firmware knows of the hardware: drivers (real or simulated) and the maps
    from hardware/. Any part may be None (a Weykick table has no chain or reader)."""

    def __init__(
        self,
        chain=None,
        reader=None,
        buttons=None,
        goals=None,
        names=(),
        registry=None,
        sample_ms=0,
    ):
        self.chain = chain  # hal.shiftin.ShiftChain
        self.reader = reader  # hal.mfrc522.MFRC522
        self.buttons = buttons  # hal.inputs.Inputs
        self.goals = goals  # hal.inputs.Inputs
        self.names = names  # chain bit -> sensor name (hardware/sensors.json)
        self.registry = registry if registry is not None else {}  # UID hex -> card
        # the Hall sensors' sampling period (sensors.json "sensor"): a change reaches their
        # output up to this long after it happened
        self.sample_ms = sample_ms


class Sense:
    def __init__(self, board, debounce_ms=None):
        self.board = board
        kw = {} if debounce_ms is None else {"debounce_ms": debounce_ms}
        self.sensors = Debouncer(len(board.names), **kw) if board.chain else None
        self.cards = CardReads(board.reader, board.registry) if board.reader else None
        self.buttons = Debouncer(8, **kw) if board.buttons else None
        self.goals = Debouncer(8, **kw) if board.goals else None
        self.scans = 0
        self.chain_errors = 0  # scans whose frame failed the chain's check (hal/shiftin.py)
        self.tap = None  # callable(bit, level): every settled sensor edge, for calibration
        self._now = 0
        self._edge_at = None  # when a sensor edge last settled
        self._started = False  # the first step takes stock of the cards on the reader
        self.on_enrol = None  # callable(card, uid hex): a tag laid to be enrolled (the table)

    def step(self, now, game):
        b = self.board
        self._now = now
        if self.sensors:
            deb = self.sensors
            frame = b.chain.read()
            if not b.chain.intact:  # not the chain talking (see hal/shiftin.py): not believed
                self.chain_errors += 1
                frame = deb.stable
            n = deb.update(frame, now)
            if n:
                self._edge_at = now
            for i in range(n):
                game.on_sensor(deb.edges[i], deb.levels[i], now)
                if self.tap:
                    self.tap(deb.edges[i], deb.levels[i])
        if self.cards and not self._started:
            pile = self.cards.take_stock()
            if pile:
                game.on_pile(pile, now)
        self._started = True
        if self.cards:
            read = self.cards.poll(now)
            if read:
                kind, card, uid = read
                if kind == "card":
                    if game.on_card(card, uid, now):
                        self.cards.forget()  # refused: laid again at once, it is read again
                elif kind == "pile":
                    game.on_pile(card, now)
                elif self.on_enrol:
                    self.on_enrol(card, uid)
        if self.buttons:
            deb = self.buttons
            n = deb.update(b.buttons.read(), now)
            names = b.buttons.names()
            for i in range(n):
                if deb.levels[i]:  # pressed (released is not an action)
                    game.on_button(names[deb.edges[i]], now)
        if self.goals:
            deb = self.goals
            n = deb.update(b.goals.read(), now)
            names = b.goals.names()
            for i in range(n):
                # with when the sensor first saw the change (before the debounce was met)
                game.on_goal(names[deb.edges[i]], deb.levels[i], now, deb.started[i])
        self.scans += 1

    def held(self, game, now):
        """A game loaded while the table runs is told what the goal sensors hold now: the
        debounce reports changes only, and a ball lying in a goal is not a goal."""
        deb = self.goals
        if deb and deb.primed:
            names = self.board.goals.names()
            for i in range(len(names)):
                if deb.stable[i >> 3] >> (i & 7) & 1:
                    game.on_goal(names[i], 1, now, now)

    def selftest(self):
        """What the board can tell about its own hardware (plateau selftest)."""
        b = self.board
        report = {"reader": "none fitted"}  # type: dict
        if b.reader is not None:
            r = b.reader
            report["reader"] = "ok" if getattr(r, "ok", False) else "not answering"
            report["reader_errors"] = getattr(r, "errors", 0)
            report["reader_resets"] = getattr(r, "resets", 0)
        if self.sensors:
            frame = b.chain.read()
            report["chain_errors"] = self.chain_errors
            if not b.chain.intact:
                # not the chain talking (hal/shiftin.py): which sensors see a magnet is unknown,
                # so none is reported (a floating MISO would otherwise read as an empty board)
                report["chain"] = (
                    "the byte after the last register is not 0x00 (its SER level): MISO "
                    "unplugged or floating, or the chain longer than the sensor map"
                )
                return report
            report["chain"] = "ok"
            n = len(frame) * 8
            report["sensors_on"] = [
                b.names[i] for i in range(min(n, len(b.names))) if frame[i >> 3] >> (i & 7) & 1
            ]
        return report

    def busy(self):
        """Whether a sensor is still changing (its new value not yet held DEBOUNCE_MS), or
        the last change is more recent than the sensors' sampling period."""
        if not self.sensors:
            return False
        if self.sensors.busy():
            return True
        # a pawn moved: the other sensors of the same move may not have sampled it yet
        at = self._edge_at
        return at is not None and elapsed(self._now, at) < self.board.sample_ms
