# What the table (firmware/table.py) asks of every game. A game overrides what it uses; the
# defaults here answer the inputs it has no use for (a Weykick table has no squares, a card
# game no goals).
#
# Cards found again at power-up (issue 15). The reader powers up with the board, and every
# tag lying on it answers again: the pile. A card of the pile that the game counted (or
# refused) before the reset is not a new card; one it never counted was laid while the
# power was going and is a new card. Each card game says which cards it counted in the deal
# the pile belongs to (`counted`, saved with the game); this class keeps the cards it refused
# since the last one it counted (a second card laid on a turn still open lies on the pile
# too). Which reads are the pile: the sense layer says so when it can (`pile=True`: tags in
# the field at power-up); otherwise, reads in the first PILE_MS after the game resumed.
from micropython import const

from clock import elapsed

PILE_MS = const(1000)  # a pile of cards is read again well within this after power-up
REFUSED = const(4)  # refused cards remembered (a few wrong cards on the pile at most)


class Game:
    def __init__(self, emit):
        self.emit = emit  # callable(dict): the link's numbered events
        self.refused = []  # cards refused since the last card counted (they lie on the pile)
        self._powered = None  # when the game first ran after it was restored

    settings = {}  # type: dict  # the game's settings, checked in full (games/settings.py)
    unsaved = False  # the game changed since it was last saved
    urgent = False  # and it must be saved at the end of this pass, whatever the write rate
    resumed = False  # restored after a reset, not yet said

    def on_sensor(self, bit, level, now):
        pass

    def on_goal(self, name, level, now, since):
        pass

    def on_button(self, name, now):
        pass

    def on_card(self, text, uid, now, pile=False):
        self.emit(
            {"type": "error", "what": "no-cards", "uid": uid, "why": "this game has no cards"}
        )

    def on_pile(self, cards, now):
        """The cards lying on the reader at power-up (a pile left by a reset or a power
        cut), read all at once before any card counts as laid: [(card or None, uid hex)].
        Said as a `pile` event; a game that keeps its own memory of cards may check it."""
        known = [c for c, _ in cards if c is not None]
        self.emit({"type": "pile", "cards": known, "unknown": len(cards) - len(known)})

    def unknown_tag(self, uid):
        self.emit(
            {
                "type": "error",
                "what": "unknown-tag",
                "uid": uid,
                "why": "tag %s is not a card of this deck (enrol it first)" % uid,
            }
        )

    def on_enrolled(self, card, uid):
        self.emit({"type": "enrolled", "card": card, "uid": uid})

    def step(self, now, settled=True):
        pass

    # --- the pile found again at power-up ----------------------------------------------

    def counted(self, card):
        """Whether the game counted this card (its text as read) in the deal whose cards may
        lie on the reader: a card game overrides it."""
        return False

    def from_pile(self, card, now, pile=False):
        """True when this read is the pile found again after a reset, not a new card: the
        caller then ignores it."""
        if self._powered is None and self.resumed:
            self._powered = now
        power_up = pile or self._powered is not None and elapsed(now, self._powered) < PILE_MS
        return power_up and (card in self.refused or self.counted(card))

    def refuse(self, card):
        """A card read and refused: it may lie on the pile when the power comes back. False
        when it was refused already since the last card counted (a tag flickering at the
        edge of the field is read again and again: its refusal is said once)."""
        if card in self.refused:
            return False
        self.refused.append(card)
        del self.refused[:-REFUSED]
        self.unsaved = True
        return True

    def count(self):
        """A card was counted: the cards refused before it are history."""
        self.refused = []

    def restored(self, state):
        """Called by each game's restore(): the pile memory, and the power-up window."""
        refused = state.get("refused", [])
        self.refused = [c for c in refused if isinstance(c, str)][-REFUSED:]
        self.resumed = True
        self.unsaved = False
        self._powered = None

    def started(self, now):
        """Each game calls this on every step: the power-up window opens at the first."""
        if self.resumed and self._powered is None:
            self._powered = now
