# Tock's settings and command words, declared once (checked by games/settings.py).
# Players and rules: tock.md T1, T8; a whole position (T4) may be given instead.

SETTINGS = (
    ("players", ("int", 2, 4), 4),
    ("rules", ("choice", ("classic", "king-exit", "toc-fr")), "classic"),
    ("position", ("position",), None),  # T4: a game from this position (tools, tests)
)

COMMANDS = {}  # type: dict[str, tuple]  # Tock's only words are the table's own (new, undo)
