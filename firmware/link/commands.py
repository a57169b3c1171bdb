# Host commands as words, the way people type them (`plateau send undo`, a table script's
# `send new tock players=2`), turned into the command objects the link carries (P4).
# Shared by the host tools and the simulator so both mean the same thing.

WORDS = (
    "new",
    "undo",
    "snapshot",
    "config",
    "enrol",
    "pause",
    "resume",
    "selftest",
    "calibrate",
    "hand",
    "draw",
    "bid",
    "fold",
    "check",
    "call",
    "bet",
    "raise",
    "allin",
    "repl",
)
BETS = ("fold", "check", "call", "bet", "raise", "allin")  # Hold'em: `bet 3 40` = seat, to


def parse_words(words):
    """['new', 'tock', 'players=2'] -> {"cmd": "new", "game": "tock", "players": 2}.
    ValueError says what is wrong."""
    if not words:
        raise ValueError("no command given; one of: " + ", ".join(WORDS))
    name = words[0]
    if name not in WORDS:
        raise ValueError("unknown command %r; one of: %s" % (name, ", ".join(WORDS)))
    cmd = {"cmd": name}
    rest = words[1:]
    if name == "new" and rest and "=" not in rest[0]:
        cmd["game"] = rest[0]
        rest = rest[1:]
    if name == "bid":  # Pocha: `bid 2 1` = seat 2 bids one trick
        if len(rest) < 2 or not rest[1].isdigit():
            raise ValueError("bid needs the seat and the number of tricks: bid SEAT N")
        cmd["seat"] = rest[0]
        cmd["amount"] = int(rest[1])
        rest = rest[2:]
    if name in BETS:
        if not rest or "=" in rest[0]:
            raise ValueError(
                "%s needs the seat: %s SEAT%s"
                % (name, name, " AMOUNT" if name in ("bet", "raise") else "")
            )
        cmd["seat"] = rest[0]
        rest = rest[1:]
        if name in ("bet", "raise"):
            if not rest or not rest[0].isdigit():
                raise ValueError("%s needs the amount: the total bet this round" % name)
            cmd["amount"] = int(rest[0])
            rest = rest[1:]
    if name == "calibrate" and rest and rest[0] in ("on", "off"):
        cmd["mode"] = rest[0]
        rest = rest[1:]
    for w in rest:
        if "=" not in w:
            raise ValueError("%s: %r should be key=value" % (name, w))
        k, v = w.split("=", 1)
        cmd[k] = int(v) if v.isdigit() else v
    return cmd
