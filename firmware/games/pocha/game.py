# Pocha, as the table finds it (games/__init__.py): pocha.md K1-K9, the Spanish deck on the
# reader, bids as host commands. Its settings and command words, declared once (checked by
# games/settings.py): K1-K3, K5.

DECK = "spanish"
SENSORS = None

SETTINGS = (
    ("players", ("choice", (3, 4, 5, 6, 8)), 4),
    ("deck", ("choice", (40, 48)), 40),
    ("schedule", ("choice", ("default", "short", "full")), "default"),
    ("dealer", ("seat", "players"), "1"),
)

COMMANDS = {
    "bid": (("seat", ("seat", "players"), None), ("amount", ("int", 0, 16), None)),
    "draw": (),  # K2: the first dealer drawn by lot, at the table
}


def agree(s):
    """K1: the deck must deal evenly."""
    from games.pocha.rules import PochaError, deck

    try:
        deck(s["deck"], s["players"])
    except PochaError as e:
        return str(e)
    return None
