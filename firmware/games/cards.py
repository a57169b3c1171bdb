# Playing cards as the reader reports them: French, rank + suit ("7H", "10C", "QS") or "X"
# (joker), shared by Tock and Texas Hold'em; Spanish, rank 1-12 + suit O C E B ("12B", named
# es:12B by the tag registry: games/settings.py tells the decks apart), Pocha's.
from micropython import const

from games.settings import digits

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
