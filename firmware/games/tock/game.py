# Tock, as the table finds it (games/__init__.py): tock.md T1-T19, a pawn on every square's
# Hall sensor, the French deck on the reader. Its settings and command words, declared once
# (checked by games/settings.py): players and rules (T1, T8); a whole position (T4) may be
# given instead.

DECK = "french"
SENSORS = "squares"

SETTINGS = (
    ("players", ("int", 2, 4), 4),
    ("rules", ("choice", ("classic", "king-exit", "toc-fr")), "classic"),
    # T4: a game from this position (a JSON object; `plateau send new tock position=FILE`
    # reads it from a file), read by the rules core; not one already won (T19)
    ("position", ("checked", "games.tock.rules", "Position", "start"), None),
)

COMMANDS = {}  # type: dict[str, tuple]  # Tock's only words are the table's own (new, undo)
