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


# A card as one byte, for tables that keep many (sense/cards.py keeps the enrolled tags so):
# French 0..51 (rank, then suit), the joker 52, Spanish 53..100 (es:1O ... es:12B). The text
# is the checked one (games/settings.py, kind "card").
SPANISH_SUITS = "OCEB"  # Pocha's (games/pocha/rules.py)


def card_code(text):
    if text == JOKER:
        return 52
    if text.startswith("es:"):
        return 53 + (int(text[3:-1]) - 1) * 4 + SPANISH_SUITS.index(text[-1])
    return RANKS.index(text[:-1]) * 4 + SUITS.index(text[-1])


def card_text(code):
    if code < 52:
        return RANKS[code >> 2] + SUITS[code & 3]
    if code == 52:
        return JOKER
    code -= 53
    return "es:%d%s" % ((code >> 2) + 1, SPANISH_SUITS[code & 3])
