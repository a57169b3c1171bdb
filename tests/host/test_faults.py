"""Fault injection (issue 8) through the real firmware: power cuts at random points of
generated games (mid-move included), with the game resumed from the simulated flash."""

import random
import tempfile

from conftest import REPORT
from soak import same

from plateau import HARDWARE
from plateau.fw.sim.run import play
from plateau.games.tock.generate import generate


def cut_power(script: str, rng: random.Random, cuts: int) -> str:
    """`reset` after random hand actions (lifts, places, cards): mid-move as often as not,
    inside a Jack swap too (the squares hands touched are saved with the game)."""
    lines = script.split("\n")
    spots = [
        i for i, line in enumerate(lines) if line.split()[:1] in (["lift"], ["place"], ["card"])
    ]
    for i in sorted(rng.sample(spots, cuts), reverse=True):
        lines.insert(i + 1, "reset")
    return "\n".join(lines)


def test_power_cut_at_random_points_loses_no_move():
    faults = games = moves = lost = dup = illegal = 0
    for seed in range(6):
        rules = ("classic", "king-exit", "toc-fr")[seed % 3]
        game = generate(rules, 2 + seed % 3, seed + 100)
        rng = random.Random(seed)
        script = cut_power(game.script, rng, cuts=8)
        with tempfile.TemporaryDirectory() as flash:
            path = f"{flash}/game.table"
            with open(path, "w") as f:
                f.write(script)
            events = play(path, str(HARDWARE), state=f"{flash}/state")
        reported = [e for e in events if e["type"] == "move"]
        faults += script.count("\nreset")
        games += 1
        moves += len(game.moves)
        # every move the players made is reported, once, across all the boots
        i = 0
        for m in reported:
            if i < len(game.moves) and same(game.moves[i], m):
                i += 1
            else:
                dup += 1
        lost += len(game.moves) - i
        illegal += len([e for e in events if e["type"] == "illegal"])
        resumed = [e for e in events if e["type"] == "resumed"]
        assert len(resumed) == script.count("\nreset")
    REPORT.append(
        f"power cuts: {faults} injected over {games} games ({moves} moves): "
        f"{lost} moves lost, {dup} duplicated, {illegal} illegal reports"
    )
    assert lost == 0 and dup == 0


def test_a_reset_with_the_pile_holding_the_decks_last_card_sticks_nothing():
    """Issue 15's reproducer, as a class: `reset` while the deck's last card still lies on
    the pile (after the 52nd card, before the pile is gathered), in every deck of a game."""
    game = generate("classic", 4, 1)
    lines = game.script.split("\n")
    cut = [i for i, line in enumerate(lines) if line.startswith("gather")]
    for i in reversed(cut):
        lines.insert(i, "reset")
    script = "\n".join(lines)
    with tempfile.TemporaryDirectory() as flash:
        path = f"{flash}/game.table"
        with open(path, "w") as f:
            f.write(script)
        events = play(path, str(HARDWARE), state=f"{flash}/state")
    moves = [e for e in events if e["type"] == "move"]
    assert len(cut) >= 5 and len(moves) == len(game.moves)
    assert all(same(a, b) for a, b in zip(game.moves, moves, strict=True))
    assert not [e for e in events if e["type"] == "error"]
