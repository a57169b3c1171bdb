# Weykick, as the table finds it (games/__init__.py): weykick.md W1-W7, a ball sensor in
# each goal, no cards. Its settings, declared once (checked by games/settings.py): W1, W4,
# W7, and the project's choices where the rules are silent (docs/weykick.md).

from micropython import const

DECK = None
SENSORS = "goals"

SETTINGS = (
    ("mode", ("mode", (("first-to", 1, 99), ("timed", 1, 120))), "first-to:10"),
    ("win-by", ("choice", (1, 2)), 1),  # W4: first-to, optionally by two
    ("halves", ("choice", (1, 2)), 1),
    ("break", ("int", 0, 3600), 0),  # seconds of half-time break
    ("golden-goal", ("choice", ("on", "off")), "off"),
    ("best-of", ("choice", (1, 3, 5)), 1),
    ("variant", ("choice", ("football", "hockey")), "football"),
    ("players", ("int", 2, 6), 2),  # W1: one to three a side
    ("side-a", ("text", 40), None),  # the players of side A: side-a=Ana,Luis
    ("side-b", ("text", 40), None),
)

# its own words: the match clock stopped and started again (the table's new and undo too)
COMMANDS = {"pause": (), "resume": ()}

# Private consts: inlined, or constants in flash on a board, not names on the heap.
_TIMED_ONLY = const((("halves", 1), ("break", 0), ("golden-goal", "off")))
_SIDE_MAX = const(3)  # figurines a side on the octagonal table (W1); agree's words say 3
_NAME_MAX = const(12)  # and 12


def agree(s):
    """Settings that are each right but do not go together: why, or None."""
    timed = s["mode"][:5] == "timed"
    if timed and s["win-by"] != 1:
        return "win-by is for first-to matches (a timed match ends on the clock)"
    if not timed:
        for name, alone in _TIMED_ONLY:
            if s[name] != alone:
                return "%s is for timed matches, not %s" % (name, s["mode"])
    if s["break"] and s["halves"] != 2:
        return "break is the half-time break: it needs halves=2"
    sizes = []
    seen = []
    for side in ("side-a", "side-b"):
        if side not in s:
            continue
        names = s[side].split(",")  # its players' names
        if not 1 <= len(names) <= _SIDE_MAX or [
            n for n in names if not n or len(n) > _NAME_MAX or n.strip() != n
        ]:
            return (
                "%s must be 1 to 3 names of at most 12 characters, separated by commas "
                "(%s=Ana,Luis)" % (side, side)
            )
        for n in names:
            if n in seen:
                return "%s plays twice (%s)" % (n, side)
            seen.append(n)
        sizes.append(len(names))
    players = s["players"]
    if len(sizes) == 2 and sum(sizes) != players:
        return "side-a and side-b name %d players, not players=%d" % (sum(sizes), players)
    if len(sizes) == 1 and not 1 <= players - sizes[0] <= _SIDE_MAX:
        return "players=%d with %d named on one side leaves %d on the other (1 to 3)" % (
            players,
            sizes[0],
            players - sizes[0],
        )
    return None
