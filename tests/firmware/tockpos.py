# Building Tock positions in tests: name the pawns that are out of camp, the rest fill in.
from games.tock.rules import Position


def pos(pawns=None, turn="R", rules="classic", players=4, waiting=(), flags=None):
    colours = "RGB" if players == 3 else "RGBY"
    full = {}
    for c in colours:
        squares = list((pawns or {}).get(c, []))
        full[c] = squares + ["camp"] * (4 - len(squares))
    d = {"rules": rules, "players": players, "turn": turn, "pawns": full, "waiting": list(waiting)}
    if flags:
        d["flags"] = flags
    return Position.from_dict(d)


def results(p, card):
    """The legal moves of a card as {tuple of steps: after position}."""
    return {tuple(tuple(s) for s in m.steps()): m.after for m in p.legal_moves(card)}


def placement(p):
    """Colour -> sorted squares out of camp, for readable asserts."""
    d = p.to_dict()["pawns"]
    return {c: sorted(s for s in d[c] if s != "camp") for c in d}
