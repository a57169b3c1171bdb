# The scan loop's sensing half: reads the board's chips once per scan and hands the game
# settled facts (sensor edges, new card reads, button presses, goal sensor edges).
from sense.cards import CardReads
from sense.debounce import Debouncer


class Board:
    """What the firmware knows of the hardware: drivers (real or simulated) and the maps
    from hardware/. Any part may be None (a Weykick table has no chain or reader)."""

    def __init__(self, chain=None, reader=None, buttons=None, goals=None, names=(), registry=None):
        self.chain = chain  # hal.shiftin.ShiftChain
        self.reader = reader  # hal.mfrc522.MFRC522
        self.buttons = buttons  # hal.inputs.Inputs
        self.goals = goals  # hal.inputs.Inputs
        self.names = names  # chain bit -> sensor name (hardware/sensors.json)
        self.registry = registry if registry is not None else {}  # UID hex -> card


class Sense:
    def __init__(self, board, debounce_ms=None):
        self.board = board
        kw = {} if debounce_ms is None else {"debounce_ms": debounce_ms}
        self.sensors = Debouncer(len(board.names), **kw) if board.chain else None
        self.cards = CardReads(board.reader, board.registry) if board.reader else None
        self.buttons = Debouncer(8, **kw) if board.buttons else None
        self.goals = Debouncer(8, **kw) if board.goals else None
        self.scans = 0
        self.tap = None  # callable(bit, level): every settled sensor edge, for calibration

    def step(self, now, game):
        b = self.board
        if self.sensors:
            deb = self.sensors
            n = deb.update(b.chain.read(), now)
            for i in range(n):
                game.on_sensor(deb.edges[i], deb.levels[i], now)
                if self.tap:
                    self.tap(deb.edges[i], deb.levels[i])
        if self.cards:
            read = self.cards.poll(now)
            if read and read[2]:
                game.on_enrolled(read[0], read[1])
            elif read:
                game.on_card(read[0], read[1], now)
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

    def selftest(self):
        """What the board can tell about its own hardware (plateau selftest)."""
        b = self.board
        report = {"reader": "none fitted"}  # type: dict
        if b.reader is not None:
            report["reader"] = "ok" if getattr(b.reader, "ok", False) else "not answering"
            report["reader_errors"] = getattr(b.reader, "errors", 0)
        if self.sensors:
            frame = b.chain.read()
            n = len(frame)
            if all(x == 0xFF for x in frame):
                report["chain"] = "every input high: chain unplugged or MISO floating?"
            else:
                report["chain"] = "ok"
            report["sensors_on"] = [
                b.names[i]
                for i in range(len(b.names))
                if frame[i >> 3] >> (i & 7) & 1 and i < n * 8
            ]
        return report

    def busy(self):
        """Whether a sensor is still changing (its new value not yet held DEBOUNCE_MS)."""
        return bool(self.sensors and self.sensors.busy())
