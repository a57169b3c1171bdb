# The scan loop's sensing half: reads the board's chips once per scan and hands the game
# settled facts (sensor edges, new card reads, button presses, goal sensor edges). The
# hardware it reads (drivers and maps) is hal.hwmap.Hardware, built by hal/board.py or the
# simulator.
from micropython import const

from clock import elapsed
from sense.cards import CardReads
from sense.debounce import Debouncer

# The kinds of digital inputs: each a bank of bits (a driver whose read() returns a frame,
# bit k = input k), read, checked and debounced the same way; what differs is only which of
# the game's handlers a settled edge goes to. Private consts: inlined, no heap on the board.
_SENSOR = const(0)  # the Hall sensors of the squares, through the 74HC165 chain
_BUTTON = const(1)  # the table's buttons: a press is an action, a release is not
_GOAL = const(2)  # the goal sensors: both edges, with when the sensor first saw the change
_CALIBRATING = const(32)  # settled sensor edges kept for the host while calibrating
# the sensors' supply down: said in its `error` (rail_said) and in selftest's report
_RAIL_DOWN = const(
    "the sensors' 5 V supply reads %d mV, under %d mV: adapter unplugged or fuse F1 tripped? "
    "The board is not read until it is back"
)


class Sense:
    """Every input the board has, to the game, through one path: each pass reads every bank
    of digital inputs and the card reader, and tells the game what settled (step). It looks
    down only: the hardware (hal.hwmap.Hardware) is handed to it; the game to step()."""

    def __init__(self, hardware, debounce_ms=None):
        self.hardware = hardware
        kw = {} if debounce_ms is None else {"debounce_ms": debounce_ms}
        hw = hardware
        self.sensors = Debouncer(len(hw.names), **kw) if hw.chain else None
        self.cards = CardReads(hw.reader, hw.registry) if hw.reader else None
        self.goals = Debouncer(8, **kw) if hw.goals else None
        # the banks, flat: kind, driver, Debouncer, kind, ... (one tuple: less heap than one each)
        banks = ()  # type: tuple
        if self.sensors:
            banks = (_SENSOR, hw.chain, self.sensors)
        if hw.buttons:
            banks += (_BUTTON, hw.buttons, Debouncer(8, **kw))
        if self.goals:
            banks += (_GOAL, hw.goals, self.goals)
        self._banks = banks
        # the sensors' supply (hal/rail.py): while it is down no square or goal is read (their
        # outputs float HIGH, every pawn "lifted"); the buttons are on 3V3 and still are.
        # rail_news: it went down or came back since the table last looked (Table._rail)
        self.rail = hw.rail
        self.rail_news = False
        self.scans = 0
        self.chain_errors = 0  # scans whose frame failed the chain's check (hal/shiftin.py)
        self.calibration = None  # a list while calibrating: settled sensor edges (bit, level)
        self._now = 0
        self._edge_at = None  # when a sensor edge last settled

    def configure(self, debounce_ms=None, calibrate=None):
        """debounce_ms: the time a square's sensor must hold a new level before it counts
        (`config debounce_ms=`; the buttons and goal sensors keep theirs). calibrate: keep
        every settled sensor edge for the host (`calibrate on`: calibrated), or stop."""
        if debounce_ms is not None and self.sensors:
            self.sensors.debounce_ms = debounce_ms
        if calibrate is not None:
            self.calibration = [] if calibrate else None

    def step(self, now, game):
        """One pass: every bank read, checked and debounced, each settled edge told to the
        game's handler for its kind; then the card reader's news (a card laid, or found
        lying on the spot at power-up). Returns None, or (card, uid hex) of a tag laid while
        `enrol` waits for one: the table's to enrol, not the game's. Nothing is allocated
        while nothing changes. One method: on a frozen board each method costs heap."""
        self._now = now
        banks = self._banks
        rail = self.rail
        down = False
        if rail:
            was = rail.up
            down = not rail.watch(now)
            if rail.up != was:
                self.rail_news = True
        for b in range(0, len(banks), 3):
            kind = banks[b]
            if down and kind != _BUTTON:
                continue  # unpowered sensors: held as they last settled, not read
            driver = banks[b + 1]
            deb = banks[b + 2]
            frame = driver.read()
            if not driver.intact:  # not the chain talking (see hal/shiftin.py): not believed
                self.chain_errors += 1
                frame = deb.stable
            if kind == _BUTTON and not deb.primed:
                # A button down at power-up is no press: it may be the press acted on (its
                # event and the game on flash) just before the power went, still held, and
                # it would count twice. It counts once let go and pressed again. (A press the
                # power cut before it was acted on is then not done: never done twice.)
                deb.prime(frame, now)
                continue
            n = deb.update(frame, now)
            for i in range(n):
                bit = deb.edges[i]
                level = deb.levels[i]
                if kind == _SENSOR:
                    self._edge_at = now
                    game.on_sensor(bit, level, now)
                    cal = self.calibration
                    if cal is not None and len(cal) < _CALIBRATING:
                        cal.append((bit, level))
                elif kind == _GOAL:
                    # with when the sensor first saw the change (before the debounce was met)
                    game.on_goal(driver.names()[bit], level, now, deb.started[i])
                elif level:  # a button pressed (released is not an action)
                    game.on_button(driver.names()[bit], now)
        self.scans += 1
        cards = self.cards
        if cards:
            read = cards.poll(now)
            if read:
                kind, card, uid = read
                if kind == "card" or kind == "pile":  # (pile: lying there at power-up)
                    if game.on_card(card, uid, now, kind == "pile"):
                        cards.forget()  # refused: laid again at once, it is read again
                elif kind == "two":  # two cards on the card spot: neither played (cards.py)
                    game.emit(
                        {
                            "type": "error",
                            "what": "card-spot",
                            "cards": card,
                            "uids": uid,
                            "why": "two cards lie on the card spot (%s and %s): leave one, "
                            "nothing is played until one lies there alone"
                            % (card[0] or uid[0], card[1] or uid[1]),
                        }
                    )
                else:  # "enrol"
                    return card, uid
        return None

    def rail_said(self, snapshot):
        """The sensors' supply went down or came back (hal/rail.py): the event the table
        emits. Down, an `error` (no board read is taken: a game sees no move, no goal);
        back, `resumed` with the game as it stands (`snapshot()`, the table's)."""
        self.rail_news = False
        rail = self.rail
        if not rail.up:
            return {
                "type": "error",
                "what": "sensor-rail",
                "mv": rail.mv,
                "why": _RAIL_DOWN % (rail.mv, rail.min_mv),
            }
        ev = snapshot()
        ev["type"] = "resumed"
        ev["what"] = "sensor-rail"
        ev["mv"] = rail.mv
        return ev

    def calibrated(self, tell):
        """Calibrating: the settled sensor edges kept since the last call, oldest first, each
        to `tell` as a `sensor` message (chain bit, its name in the sensor map, level)."""
        cal = self.calibration
        if not cal:
            return
        self.calibration = []
        names = self.hardware.names
        for bit, level in cal:
            tell({"type": "sensor", "bit": bit, "name": names[bit], "level": level})

    def held(self, game, now):
        """A game loaded while the table runs is told what the sensors hold now, as the first
        scan tells a game loaded at power-up: the debounce reports changes only. Pawns
        standing on their squares are the board as it stands (Tock after Weykick took its
        camps for empty and asked for every pawn back); a ball lying in a goal is no goal."""
        for deb in (self.sensors, self.goals):
            if deb and deb.primed:
                names = self.hardware.goals.names() if deb is self.goals else None
                for i in range(len(names) if names else deb.nbits):
                    if deb.stable[i >> 3] >> (i & 7) & 1:
                        if names:
                            game.on_goal(names[i], 1, now, now)
                        else:
                            game.on_sensor(i, 1, now)

    def selftest(self, game=None, up=0):
        """`selftest`'s report: what the board can tell about its own hardware, what the
        game makes of the sensors that see a magnet (a game with pieces on squares:
        check_sensors: stuck on, or a pawn out of place; stuck off, or a pawn missing), and
        the scan rate reached in the `up` ms since the table started."""
        b = self.hardware
        report = {"type": "selftest", "reader": "none fitted"}  # type: dict
        report["scan_hz"] = self.scans * 1000 // up if up else 0
        if b.reader is not None:
            r = b.reader
            report["reader"] = "ok" if getattr(r, "ok", False) else "not answering"
            report["reader_errors"] = getattr(r, "errors", 0)
            report["reader_resets"] = getattr(r, "resets", 0)
        rail = b.rail
        if rail is not None:
            mv = rail.read_mv()
            down = not rail.up or mv < rail.min_mv  # (back only with a margin: hal/rail.py)
            report["sensor_rail"] = "down" if down else "ok"
            report["sensor_rail_mv"] = mv
            report["sensor_rail_downs"] = rail.downs
        if self.sensors:
            frame = b.chain.read()
            report["chain_errors"] = self.chain_errors
            if rail is not None and down:
                # unpowered, every open-drain output floats HIGH: no sensor is reported
                report["chain"] = _RAIL_DOWN % (mv, rail.min_mv)
                return report
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
            on = [b.names[i] for i in range(min(n, len(b.names))) if frame[i >> 3] >> (i & 7) & 1]
            check = game.check_sensors if game else None
            if check:
                report.update(check(on))
            else:
                report["sensors_on"] = on
        return report

    def busy(self):
        """Whether a sensor is still changing (its new value not yet held DEBOUNCE_MS), or
        the last change is more recent than the sensors' sampling period."""
        if self.rail and not self.rail.up:
            return True  # no board read while the sensors are unpowered
        if not self.sensors:
            return False
        if self.sensors.busy():
            return True
        # a pawn moved: the other sensors of the same move may not have sampled it yet
        at = self._edge_at
        return at is not None and elapsed(self._now, at) < self.hardware.sample_ms
