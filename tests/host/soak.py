"""Plays generated Tock games through the firmware (in this process, CPython) and compares
the moves it reports with the moves the generator made."""

import tempfile
from collections import Counter

from plateau import HARDWARE
from plateau.fw.sim.run import play
from plateau.games.tock.generate import generate


def same(a: dict, b: dict) -> bool:
    # a Jack's two steps may come in either order
    return a["card"] == b["card"] and sorted(map(tuple, a["steps"])) == sorted(
        map(tuple, b["steps"])
    )


def soak_one(args: tuple) -> dict:
    rules, players, seed = args
    game = generate(rules, players, seed, noise=0.03)
    with tempfile.NamedTemporaryFile("w", suffix=".table", delete=False) as f:
        f.write(game.script)
    events = play(f.name, str(HARDWARE))
    moves = [e for e in events if e["type"] == "move"]
    kinds = Counter(e["type"] for e in events)
    matched = 0
    for a, b in zip(game.moves, moves, strict=False):
        if not same(a, b):
            break
        matched += 1
    return {
        "game": f"{rules} {players}p seed {seed}",
        "made": len(game.moves),
        "reported": len(moves),
        "matched": matched,
        "missed": len(game.moves) - matched,
        "phantom": len(moves) - matched,
        "illegal": kinds["illegal"],
        "errors": kinds["error"],
        "wins": kinds["win"],
        "glitches": game.script.count("\nglitch "),
        "settle_max": max((m["settle"] for m in moves), default=0),
    }
