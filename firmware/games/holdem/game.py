# Texas Hold'em, as the table finds it (games/__init__.py): holdem.md, the French
# deck on the reader, bets as host commands. Its settings and command words, declared once
# (checked by games/settings.py): H1-H3. Chip counts stay far below the ESP32's small-int
# limit (2**30), so sums of every stack are small ints too.

DECK = "french"
SENSORS = None

CHIPS = 10000000  # most chips a seat may hold

SETTINGS = (
    ("seats", ("int", 2, 10), 4),
    ("stacks", ("each", 1, CHIPS, "seats"), 100),  # one for all, or 100,80,250 seat by seat
    ("blinds", ("pair", 1, CHIPS), "1/2"),
    ("structure", ("choice", ("no-limit", "pot-limit", "fixed-limit")), "no-limit"),
    ("big-bet", ("int", 1, CHIPS), None),  # fixed-limit turn and river; default 2 x big blind
    ("button", ("seat", "seats"), "1"),
)

SEAT = ("seat", ("seat", "seats"), None)
COMMANDS = {
    "hand": (),
    "blinds": (("blinds", ("pair", 1, CHIPS), None),),  # the next hand's, stacks kept
    "draw": (),
    "fold": (SEAT,),
    "check": (SEAT,),
    "call": (SEAT,),
    "allin": (SEAT,),
    "bet": (SEAT, ("amount", ("int", 1, 10 * CHIPS), None)),  # the total bet this round
    "raise": (SEAT, ("amount", ("int", 1, 10 * CHIPS), None)),
}


def agree(s):
    """H2: the big blind is twice the small. (A stack short of a blind is no error: that
    seat posts what it has and is all in, H2.)"""
    small, big = s["blinds"].split("/")
    if int(big) != 2 * int(small):
        return "blinds: the big blind is twice the small (H2): %s/%d, not %s" % (
            small,
            2 * int(small),
            s["blinds"],
        )
    return None


def make(emit, names, settings):
    from games.holdem.tracker import HoldemGame  # imported only when a table plays Hold'em

    return HoldemGame(emit, names, settings)
