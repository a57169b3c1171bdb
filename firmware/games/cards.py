# What the card games share (Tock, Texas Hold'em, Pocha). The cards as the reader reports
# them: French, rank + suit ("7H", "10C", "QS") or "X" (joker); Spanish, rank 1-12 + suit
# O C E B ("12B", named es:12B by the tag registry: games/settings.py tells the decks apart).
# And the pile found again at power-up (CardGame, below), which a game without cards has no
# use for.
#
# Cards found again at power-up (issue 15). The reader powers up with the board, and every
# tag lying on it answers again: the pile. A card of the pile that the board saw lying there
# before the power went is not a new card: one the game counts in the deal now under way, or
# one of its strays, the cards the board saw laid on the pile that the deal does not count
# (refused, taken back by `undo`, laid only to be enrolled, the pile of the game before a
# `new`: the table hands them over). A card of neither was laid while the power was going,
# and is new. The strays are saved with the game, a deck's worth at most. The deck is
# gathered to be shuffled for a deal, but the board does not see when: a stray laid after
# that lies under the new deal's first card. So a stray is forgotten only when the deal
# after next starts (`dealt`): until then, a stray gathered and laid again
# while the power was off is taken for the pile (not played: lift it and lay it again),
# which is better than playing a card nobody laid.
# When the deal under way has no card yet, the pile may still be the last deal's (not yet
# gathered), or the last deal's was gathered and the first card of this one laid during the
# outage: the same card can be in both. The reads that could be either are held until the
# look at the pile is over; if the last deal's top two cards were found, its pile is there
# and they were its cards; if not, it was gathered and they are new cards, played then in
# the order read (with every card read after them in the meantime, so the order holds). A
# card of the last deal laid on its pile within _PILE_MS of power-up is taken for that pile,
# and a stray gathered and laid again during the outage is taken for the pile: the cases the
# table cannot tell apart. Each card game says which cards make its deals (`deal`,
# `last_deal`, saved with the game). Which reads are the pile: the sense layer says so when
# it can (`on_pile`: every tag in the field at power-up at once, before any card counts as
# laid; or `pile=True` on a read); otherwise, reads in the first _PILE_MS after the game
# resumed.

from micropython import const

from clock import elapsed
from games.base import STRAYS, Game
from games.settings import digits

_PILE_MS = const(1000)  # a pile of cards is read again well within this after power-up
_REFUSED = const(4)  # refused cards remembered (a few wrong cards on the pile at most)
_SPANISH_SUITS = const("OCEB")  # oros, copas, espadas, bastos

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = "SHDC"
JOKER = "X"


class CardError(ValueError):
    pass


def parse_card(text):
    """'7H' -> ('7', 'H'); 'X' -> ('X', ''). CardError names what is wrong."""
    if not isinstance(text, str):
        raise CardError("a card is text like 7H, 10C, QS or X, not %r" % (text,))
    t = text.strip().upper()
    if t == JOKER:
        return JOKER, ""
    rank, suit = t[:-1], t[-1:]
    if rank == "T":  # ten as poker hand histories (and treys, pokerkit) write it: TC
        rank = "10"
    if suit not in SUITS or rank not in RANKS:
        raise CardError(
            "unknown card %r: rank A 2-10 (or T) J Q K, then suit S H D C (7H, 10C, QS), or X"
            % text
        )
    return rank, suit


def parse_spanish(text):
    """A Spanish card (K1b): '1O' -> (1, 'O'); '12B' -> (12, 'B'). CardError when it is not
    one (Pocha's rules say it as theirs: games/pocha/rules.py)."""
    if not isinstance(text, str) or len(text) < 2 or text[-1] not in _SPANISH_SUITS:
        raise CardError("unknown card %r: rank 1-12 then suit O C E B (1O, 12B)" % (text,))
    rank = text[:-1]
    if not digits(rank) or len(rank) > 2 or not 1 <= int(rank) <= 12:
        raise CardError("unknown card %r: rank 1-12 then suit O C E B (1O, 12B)" % (text,))
    return int(rank), text[-1]


class CardGame(Game):
    """What every card game shares (Tock, Texas Hold'em, Pocha): the pile found again at
    power-up told from the cards laid since (above). A game reads its cards in on_card and
    asks from_pile first; it says which cards make its deals (deal, last_deal, saved with
    it), refuses a card with refuse(), counts one with count(), starts a deal with dealt(),
    and calls restored() from its restore() and started() at every step (step does)."""

    def __init__(self, emit):
        Game.__init__(self, emit)
        self.refused = []  # cards refused since the last card counted (they lie on the pile)
        self._powered = None  # when the game first ran after it was restored
        self._held = []  # reads at power-up that may be the last deal's pile: (card, uid)
        self._found = []  # every card read at power-up
        self._settling = False
        self._stocktaken = False  # the sense layer said which cards were there at power-up

    def step(self, now, settled=True):
        self.started(now)
        Game.step(self, now, settled)

    def from_pile(self, card, uid, now, pile=False):
        """True when this read is taken care of here: the pile found again after a reset
        (ignored), or held until the look at the pile is over (see above)."""
        if self._powered is None and self.resumed:
            self._powered = now
        if (
            self._settling
            or self._stocktaken
            or not (pile or self._powered is not None and elapsed(now, self._powered) < _PILE_MS)
        ):
            return False
        # counted by name: two cards of one name (Tock's two jokers) are two cards
        self._found.append(card)
        seen = self._found.count(card) - self.strays.count(card)
        if seen <= 0:
            return True  # a stray: it lay there before the power went
        deal = self.deal()
        if deal and seen <= deal.count(card):
            return True
        if self._held or not deal and seen <= self.last_deal().count(card):
            self._held.append((card, uid))  # and every read after it, to keep their order
            return True
        return False

    def on_pile(self, cards, now):
        """The cards lying on the reader at power-up, all at once, before any card counts as
        laid (the sense layer's stocktake): [(card or None, uid hex)], maybe none. Said as a
        `pile` event (when there are some); those the game counted and its strays are the
        pile, the others were laid while the power was going and are played now. With the
        stocktake, reads after it are new cards."""
        self._stocktaken = True
        if not cards:
            return  # none there: nothing to say, and every read from now on is a card laid
        known = [c for c, _ in cards if c is not None]
        self.emit({"type": "pile", "cards": known, "unknown": len(cards) - len(known)})
        if self._powered is None and not self.resumed:
            return  # a new game remembers no card: what lies there is left over
        self._held = [(c, uid) for c, uid in cards if c is not None and self._held_back(c)]
        self.settle_pile(now)

    def _held_back(self, card):
        """At power-up: False when `card` is the pile for sure (ignored), True when it may
        be new (held: see settle_pile)."""
        self._found.append(card)
        seen = self._found.count(card) - self.strays.count(card)
        if seen <= 0:
            return False  # a stray: it lay there before the power went
        deal = self.deal()
        return not deal or seen > deal.count(card)

    def refuse(self, card):
        """A card read and refused: it may lie on the pile when the power comes back. False
        when it was refused already since the last card counted (a tag flickering at the
        edge of the field is read again and again: its refusal is said once)."""
        if card in self.refused:
            return False
        self.refused.append(card)
        del self.refused[:-_REFUSED]
        if card not in self.strays:
            self.lying((card,))
        self.unsaved = True
        return True

    def count(self):
        """A card was counted: the cards refused before it are history."""
        self.refused = []

    def dealt(self):
        """A new deal starts (the deck gathered and shuffled for it): the strays there when
        the last one started are gone (see above). Each card game says when."""
        if self.strays:
            del self.strays[: self.gathered]
            self.gathered = len(self.strays)
            self.unsaved = True

    def restored(self, state):
        """Called by each card game's restore(): the pile memory, the power-up window."""
        refused = state.get("refused", [])
        self.refused = [c for c in refused if isinstance(c, str)][-_REFUSED:]
        strays = state.get("strays", refused)  # an older save kept the refused cards only
        self.strays = [c for c in strays if isinstance(c, str)][-STRAYS:]
        gathered = state.get("gathered", 0)
        self.gathered = min(gathered, len(self.strays)) if isinstance(gathered, int) else 0
        Game.restored(self, state)
        self._powered = None
        self._held = []
        self._found = []
        self._stocktaken = False

    def started(self, now):
        """Each game calls this on every step: the power-up window opens at the first; at
        its end, the reads held are the last deal's pile, or new cards."""
        if self.resumed and self._powered is None:
            self._powered = now
        if self._held and self._powered is not None and elapsed(now, self._powered) >= _PILE_MS:
            self.settle_pile(now)

    def settle_pile(self, now):
        """Decide on the reads held (at the end of the look at the pile, or before a host
        command, which must come after the cards laid before it): the last deal's pile if
        its top two cards were found, else new cards, played in the order read."""
        if not self._held:
            return
        last = self.last_deal()
        found = [c for c, _ in self._held]
        held = self._held
        self._held = []
        pile = last and last[-1] in found and (len(last) < 2 or last[-2] in found)
        self._settling = True
        try:
            for card, uid in held:
                if not (pile and card in last):  # the last deal's pile, not yet gathered
                    self.on_card(card, uid, now)
        finally:
            self._settling = False
