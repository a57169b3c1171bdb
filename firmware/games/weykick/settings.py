# Weykick's settings, declared once (checked by games/settings.py): weykick.md W4, W7.

SETTINGS = (
    ("mode", ("mode", (("first-to", 1, 99), ("timed", 1, 120))), "first-to:10"),
    ("win-by", ("int", 1, 10), 1),
    ("halves", ("choice", (1, 2)), 1),
    ("break", ("int", 0, 3600), 0),  # seconds of half-time break
    ("golden-goal", ("choice", ("on", "off")), "off"),
    ("best-of", ("choice", (1, 3, 5)), 1),
    ("variant", ("choice", ("football", "hockey")), "football"),
)

COMMANDS = {}  # type: dict[str, tuple]  # Weykick's words are the table's own (new, undo, pause, resume)
