# Playing cards as the reader reports them: rank + suit ("7H", "10C", "QS") or "X" (joker).
# Shared by every card game on the table (Tock, Texas Hold'em); the Spanish deck (Pocha)
# has its own ranks.

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
