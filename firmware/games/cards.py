# Playing cards as the reader reports them: rank + suit ("7H", "10C", "QS") or "X" (joker).
# Shared by every card game on the table (Tock, Texas Hold'em); the Spanish deck (Pocha)
# has its own ranks (games/pocha/rules.py), and the tag registry names its cards es:12B.
# A game says which deck it reads (DECK in its declaration, games/__init__.py).

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = "SHDC"
JOKER = "X"
SPANISH = "es:"  # the tag registry's prefix for a card of the Spanish deck


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


def tag_name(text, deck="french"):
    """A card as the tag registry names it, typed for a deck: French '7h' -> '7H', 'X';
    Spanish '12B' -> 'es:12B'. Text that says es: is Spanish whatever the deck. The one place
    that tells the decks apart. CardError names what is wrong."""
    if isinstance(text, str) and (deck == "spanish" or text.startswith(SPANISH)):
        from games.pocha.rules import PochaError, card

        try:
            return SPANISH + "%d%s" % card(text[3:] if text.startswith(SPANISH) else text)
        except PochaError as e:
            raise CardError(str(e))
    rank, suit = parse_card(text)
    return rank + suit
