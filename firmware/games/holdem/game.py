# Texas Hold'em, as the table finds it (games/__init__.py): holdem.md, the French
# deck on the reader, bets as host commands. Its settings and command words, declared once
# (checked by games/settings.py): H1-H3. Chip counts stay far below the ESP32's small-int
# limit (2**30), so sums of every stack are small ints too.

from micropython import const

DECK = "french"
SENSORS = None

# Private consts: the declarations below are then constants (in flash on a board), not
# tuples built on the heap when the declaration is imported.
_CHIPS = const(10000000)  # most chips a seat may hold
_SEAT = const(("seat", ("seat", "seats"), None))

SETTINGS = (
    ("seats", ("int", 2, 10), 4),
    ("stacks", ("each", 1, _CHIPS, "seats"), 100),  # one for all, or 100,80,250 seat by seat
    ("blinds", ("pair", 1, _CHIPS), "1/2"),
    ("structure", ("choice", ("no-limit", "pot-limit", "fixed-limit")), "no-limit"),
    ("big-bet", ("int", 1, _CHIPS), None),  # fixed-limit turn and river; default 2 x big blind
    ("button", ("seat", "seats"), "1"),
)

COMMANDS = {
    "hand": (),
    "blinds": (("blinds", ("pair", 1, _CHIPS), None),),  # the next hand's, stacks kept
    "draw": (),
    "fold": (_SEAT,),
    "check": (_SEAT,),
    "call": (_SEAT,),
    "allin": (_SEAT,),
    "bet": (_SEAT, ("amount", ("int", 1, 10 * _CHIPS), None)),  # the total bet this round
    "raise": (_SEAT, ("amount", ("int", 1, 10 * _CHIPS), None)),
}


def agree(s):
    """H2: the big blind is twice the small; H3, H4: a big bet set is no smaller than the big
    blind, the smallest bet (checked for `blinds` too: it raised the blinds past a big bet
    set). (A stack short of a blind is no error: that seat posts what it has, all in, H2.)"""
    small, big = s["blinds"].split("/")
    if int(big) != 2 * int(small):
        return "blinds: the big blind is twice the small (H2): %s/%d, not %s" % (
            small,
            2 * int(small),
            s["blinds"],
        )
    if s.get("big-bet", int(big)) < int(big):
        return "big-bet %d is below the big blind %s, the smallest bet (H4): %s or more" % (
            s["big-bet"],
            big,
            big,
        )
    return None
