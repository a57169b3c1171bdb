# What the table (firmware/table.py) asks of every game. A game overrides what it uses; the
# defaults here answer the inputs it has no use for (a Weykick table has no squares, a card
# game no goals).
#
# The card found lying on the spot at power-up, which a card game tells from a card laid, is
# games/cards.py's (CardGame): here only what the table asks of every game about it (`spot`,
# the tag last told, handed to the next game at `new`).
from micropython import const

# What the table shows (issue 29), as plain data: a game fills a Show (below) when the table
# asks (Game.show); outputs.py draws it on the LEDs and the displays and plays the tones.
# The lights' colours, as codes (outputs.py turns them into the chain's RGB at the set
# brightness, under the current cap); a Tock seat's colour is its index in "RGBY" + 1.
OFF = const(0)
RED = const(1)
GREEN = const(2)
BLUE = const(3)
YELLOW = const(4)
WHITE = const(5)
DIM = const(6)  # a faint white: the last move's squares
ORANGE = const(7)
BLINK = const(0x80)  # or'ed with a colour: the light blinks
# Tones: (Hz / 10, ms / 10) pairs played in turn (Hz 0: a rest)
CHIRP = b"\xc8\x05"  # a card read: 2 kHz, 50 ms
LOW = b"\x28\x19"  # refused, or wrong: 400 Hz, 250 ms
GOAL = b"\x64\x0c\x7d\x0c\x96\x14"  # 1 kHz, 1.25 kHz, 1.5 kHz
FANFARE = b"\x64\x0f\x7d\x0f\x96\x0f\xc8\x28"  # a game, a match or a pot won


class Show:
    """What the table shows, as plain data: made once by the table (outputs.py), cleared
    and filled by the game's show() each time something changed. `lights`: a colour code a
    LED of the chain (a square's LED has its sensor's chain bit; `spot` is the card spot's
    LED, `goals` the goals', by name; -1 or {} when the chain has none); `big`: a score in
    big digits across the top of the displays (digits, "-", ":" and spaces), `big_b` the
    same seen from the far end (None: as `big`); `lines`: short lines of text under it
    (16 characters a line fit). `hints` is what the players asked to see (0 off, 1 the
    pawns that can move, 2 where a lifted pawn can go). `job`: work the game left to do
    before it can show all (Tock's hints of a crowded 7 take more than a pass): an object
    whose step() does a piece of it and says True once done; the table steps it a piece a
    pass, then asks the game again."""

    def __init__(self, leds, spot=-1, goals=None):
        self.lights = bytearray(leds)
        self.spot = spot
        self.goals = goals or {}
        self.hints = 2
        self.clear()

    def clear(self):
        """Nothing shown (the lights are cleared by the table: outputs.py, in C)."""
        self.big = None
        self.big_b = None
        self.lines = []
        self.job = None


class Game:
    def __init__(self, emit):
        self.emit = emit  # callable(dict): the link's numbered events

    settings = {}  # type: dict  # the game's settings, checked in full (games/settings.py)
    unsaved = False  # the game changed since it was last saved
    urgent = False  # and it must be saved at the end of this pass, whatever the write rate
    resumed = False  # restored after a reset, not yet said
    spot = None  # type: str | None  # the tag last read on the spot, UID hex (games/cards.py)

    def snapshot(self):
        """The game's state for the host (a game overrides it)."""
        return {}

    def config(self, timings):
        """`config settle_ms=100 ...`: the table's timings, typed and in range already
        (link/commands.py); a game takes those it uses (Tock: settle_ms, illegal_ms)."""

    # Selftest: a game with pieces on squares (Tock) has a method check_sensors(on) saying
    # what it makes of the sensors that see a magnet (`on`, their names): a dict for the
    # report. None here, not a method: a method would cost every game's heap (16 B).
    check_sensors = None

    def on_sensor(self, bit, level, now):
        pass

    def on_goal(self, name, level, now, since):
        pass

    def on_button(self, name, now):
        """A button pressed. Games that use the table's buttons (Tock, Weykick) have their
        own; here none does anything, and a button has no answer: that is said."""
        self.button_refused(name, "the %s button does nothing in this game" % name)

    def button_refused(self, name, why):
        self.emit({"type": "error", "what": "button", "button": name, "why": why})

    def on_card(self, text, uid, now, pile=False):
        self.emit(
            {"type": "error", "what": "no-cards", "uid": uid, "why": "this game has no cards"}
        )

    def unknown_tag(self, uid):
        self.emit(
            {
                "type": "error",
                "what": "unknown-tag",
                "uid": uid,
                "why": "tag %s is not a card of this deck (enrol it first)" % uid,
            }
        )

    # --- what the table shows (outputs.py asks) --------------------------------------

    shown = 0  # changed by the game when what show() gives changes with no event (a lift)

    def show(self, out, now):
        """Fill `out` (a Show, cleared) with what the table shows now: plain data, no I/O.
        Returns in how many ms the picture changes by itself (a highlight that ends, a
        clock), 0 if it does not. Asked again at each event, at each change of `shown`,
        and when that time comes. Here: nothing lit, no text."""
        return 0

    def sound(self, ev):
        """The tone of an event just emitted (a Tones string above), or None: a card read
        chirps, a refusal or a wrong board sounds low. A game adds its own (a goal)."""
        kind = ev["type"]
        if kind == "card":
            return CHIRP
        if kind == "error" or kind == "illegal":
            return LOW
        return None

    def step(self, now, settled=True):
        """Once per scan. A game restored after a reset says so at its first step, with
        its snapshot (Tock and Weykick say more: they override this)."""
        if self.resumed:
            self.resumed = False
            snap = self.snapshot()
            snap["type"] = "resumed"
            self.emit(snap)

    def restored(self, state):
        """Called by each game's restore(): it says so at its next step."""
        self.resumed = True
        self.unsaved = False
