# Texas Hold'em hands (docs/rules/holdem.md, H7): the best five of seven cards.
#
# Evaluated directly from rank counts, suit counts and a 13-bit rank mask (no lookup tables,
# no 21 five-card combinations): a few hundred bytecodes, nothing big on the heap, and the
# mask stays a small int on the ESP32 (31-bit). A hand's value is a tuple that compares the
# way hands rank: (category, ranks of the five cards in the order that decides).
from micropython import const

from games.cards import JOKER, parse_card

HIGH_CARD = const(0)
PAIR = const(1)
TWO_PAIR = const(2)
_TRIPS = const(3)
STRAIGHT = const(4)
FLUSH = const(5)
FULL_HOUSE = const(6)
_QUADS = const(7)
STRAIGHT_FLUSH = const(8)
CATEGORIES = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
RANK_VALUE = {
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "8": 8,
    "9": 9,
    "10": 10,
    "J": 11,
    "Q": 12,
    "K": 13,
    "A": 14,
}
VALUE_RANK = {v: r for r, v in RANK_VALUE.items()}
SUITS = "SHDC"


class HandError(ValueError):
    pass


def card(text):
    """'AS' -> (14, 0). HandError for a joker or a card that is not one."""
    try:
        rank, suit = parse_card(text)
    except ValueError as e:
        raise HandError(str(e))
    if rank == JOKER:
        raise HandError("no jokers in Texas Hold'em")
    return RANK_VALUE[rank], SUITS.index(suit)


def name(c):
    return VALUE_RANK[c[0]] + SUITS[c[1]]


def _straight_top(mask):
    """Top rank of the best straight in a rank mask (bit r-2 for rank r), or 0. The Ace also
    plays low: A-2-3-4-5 has top 5. No wrap-around."""
    if mask & (1 << 12):
        mask |= 1 << 13  # the Ace again, below the 2 (bit 13 stands for 1)
    for top in range(14, 4, -1):
        bits = 0x1F << (top - 6) if top > 5 else 0
        if top == 5:
            bits = 0b1111 | (1 << 13)  # 2, 3, 4, 5 and the low Ace
        if mask & bits == bits:
            return top
    return 0


def evaluate(cards):
    """cards: 5 to 7 (rank, suit) pairs, all different. -> (value tuple, best five cards)."""
    counts = [0] * 15
    suits = [0, 0, 0, 0]
    mask = 0
    for r, s in cards:
        counts[r] += 1
        suits[s] += 1
        mask |= 1 << (r - 2)
    for s in range(4):
        if suits[s] >= 5:
            smask = 0
            for r, cs in cards:
                if cs == s:
                    smask |= 1 << (r - 2)
            top = _straight_top(smask)
            if top:
                return (STRAIGHT_FLUSH, top), _straight_cards(cards, top, s)
            ranks = sorted((r for r, cs in cards if cs == s), reverse=True)[:5]
            return (FLUSH,) + tuple(ranks), [(r, s) for r in ranks]
    quads = [r for r in range(14, 1, -1) if counts[r] == 4]
    trips = [r for r in range(14, 1, -1) if counts[r] == 3]
    pairs = [r for r in range(14, 1, -1) if counts[r] == 2]
    if quads:
        q = quads[0]
        kick = max(r for r, _ in cards if r != q)
        return (_QUADS, q, kick), _pick(cards, [q, q, q, q, kick])
    if trips and (len(trips) > 1 or pairs):
        t = trips[0]
        p = max(trips[1:] + pairs)
        return (FULL_HOUSE, t, p), _pick(cards, [t, t, t, p, p])
    top = _straight_top(mask)
    if top:
        return (STRAIGHT, top), _straight_cards(cards, top, None)
    if trips:
        t = trips[0]
        kick = sorted((r for r, _ in cards if r != t), reverse=True)[:2]
        return (_TRIPS, t) + tuple(kick), _pick(cards, [t, t, t] + kick)
    if len(pairs) >= 2:
        hi, lo = pairs[0], pairs[1]
        kick = max(r for r, _ in cards if r != hi and r != lo)
        return (TWO_PAIR, hi, lo, kick), _pick(cards, [hi, hi, lo, lo, kick])
    if pairs:
        p = pairs[0]
        kick = sorted((r for r, _ in cards if r != p), reverse=True)[:3]
        return (PAIR, p) + tuple(kick), _pick(cards, [p, p] + kick)
    ranks = sorted((r for r, _ in cards), reverse=True)[:5]
    return (HIGH_CARD,) + tuple(ranks), _pick(cards, ranks)


def _pick(cards, ranks):
    """The cards that give these ranks (each card once)."""
    left = list(cards)
    out = []
    for r in ranks:
        for c in left:
            if c[0] == r:
                out.append(c)
                left.remove(c)
                break
    return out


def _straight_cards(cards, top, suit):
    want = [top - i for i in range(5)] if top > 5 else [5, 4, 3, 2, 14]
    out = []
    for r in want:
        for c in cards:
            if c[0] == r and (suit is None or c[1] == suit):
                out.append(c)
                break
    return out


def describe(value):
    return CATEGORIES[value[0]]
