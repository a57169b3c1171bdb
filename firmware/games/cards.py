# What the card games share (Tock, Texas Hold'em, Pocha). The cards as the reader reports
# them: French, rank + suit ("7H", "10C", "QS") or "X" (joker); Spanish, rank 1-12 + suit
# O C E B ("12B", named es:12B by the tag registry: games/settings.py tells the decks apart).
# And the card found lying on the spot at power-up (CardGame, below), which a game without
# cards has no use for.
#
# The card spot at power-up (issue 31). Each card is laid on the spot, read, then moved off,
# so at power-up at most one card lies there, and the flash is the truth for what was played.
# The game keeps, with its saved state, the UID of the last tag it was told of (`spot`: a card
# played or refused, a tag unknown or laid to be enrolled). The reader powers up with the
# board and a tag lying on the spot answers in the look at the spot that follows (the sense
# layer tells such a read with `pile` True). If it is the tag last told (as the flash has
# it), its read and what the game made of it went to flash before the power went: it is not
# played again, said as a `pile` event. Any other tag is a card the game has not taken: laid
# while the power was off, or read just before it went but cut before its pass was saved (the
# game on flash is from before it): played as any card laid. A game made new at power-up
# (nothing on flash) knows no tag (`spot` None): what lies there then is left over from before.
# A game saved before it read any tag keeps "" (none). The table hands a game made by `new` the
# last one's `spot`. Two jokers are two tags: told apart by their UIDs. After a reset of the
# reader's chip mid-game, the card lying there is the sense layer's to drop (sense/cards.py).

from micropython import const

from games.base import Game
from games.settings import digits

_REFUSED = const(4)  # refused cards remembered (a tag flickering at the field's edge)
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
    """What every card game shares (Tock, Texas Hold'em, Pocha): the card found lying on the
    spot at power-up told from a card laid (above). A game reads its cards in on_card and
    asks from_pile first; it refuses a card with refuse(), counts one with count(), saves
    `spot` in its state and calls restored() from its restore()."""

    def __init__(self, emit):
        Game.__init__(self, emit)
        self.refused = []  # cards refused since the last card counted

    def from_pile(self, card, uid, pile=False):
        """True when this read is the tag last told, found lying on the spot as the reader's
        field came on at power-up (`pile`): said as a `pile` event, not played again (a new
        game, `spot` None, takes whatever lies there for left over). Else the tag is the
        last told from now on, and the game plays it."""
        if pile and (self.spot is None or self.spot == uid):
            self.spot = uid
            known = [card] if card is not None else []
            self.emit({"type": "pile", "cards": known, "unknown": 1 - len(known)})
            return True
        self.spot = uid
        self.unsaved = True
        return False

    def refuse(self, card):
        """A card read and refused. False when it was refused already since the last card
        counted (a tag flickering at the edge of the field is read again and again: its
        refusal is said once)."""
        if card in self.refused:
            return False
        self.refused.append(card)
        del self.refused[:-_REFUSED]
        return True

    def count(self):
        """A card was counted: the cards refused before it are history."""
        self.refused = []

    def restored(self, state):
        """Called by each card game's restore(): the tag last told (an older save kept none:
        what lies on the spot is taken for left over)."""
        spot = state.get("spot")
        self.spot = spot if isinstance(spot, str) else None
        Game.restored(self, state)
