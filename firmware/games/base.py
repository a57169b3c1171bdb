# What the table (firmware/table.py) asks of every game. A game overrides what it uses; the
# defaults here answer the inputs it has no use for (a Weykick table has no squares, a card
# game no goals).
#
# The card found lying on the spot at power-up, which a card game tells from a card laid, is
# games/cards.py's (CardGame): here only what the table asks of every game about it (`spot`,
# the tag last told, handed to the next game at `new`).


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
