"""Seeded Tock positions for the tests and benchmarks of the rules core (CPython):
random ones of every ruleset (pawns in a row, in homes, near their entry, waiting),
crowded ones (the side to play with many pawns close together, where a 7 has thousands of
splits and the order of its parts matters) and dense ones (all of a seat's pawns out and
close together, a home in the way now and then: the costliest hints).
tests/host/test_tock_seven.py, tests/host/test_tock_reach.py, tests/host/test_tock_hints_gen.py,
tests/bench/tock_speed.py and tests/bench/tock_hints.py draw from them."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "host_tools"))
import plateau  # noqa: E402,F401
from plateau.fw.games.tock.rules import (  # noqa: E402
    CELLS,
    TRACK,
    Position,
    entry_square,
    home_square,
)


def random_position(rng: random.Random) -> Position:
    rules = rng.choice(["classic", "king-exit", "toc-fr"])
    players = rng.choice([2, 2, 3, 4])
    pos = Position(players, rules)
    for c in pos.colours():
        out = rng.randint(1, 4) if players == 2 else rng.randint(0, 4)
        near = rng.randrange(TRACK) if rng.random() < 0.4 else None  # pawns in a row
        for _ in range(out):
            if near is not None:  # where the order of the parts matters (T9: no passing)
                s = (near + rng.randint(0, 6)) % TRACK
            elif rng.random() < 0.15:  # a pawn in its home
                s = home_square(c, rng.randint(1, 4))
            elif rng.random() < 0.2:  # near its entry, where T14 and T15 bite
                s = entry_square(c) - rng.randint(0, 6)
            else:
                s = rng.randrange(TRACK)
            if not pos.cells[s]:
                pos.cells[s] = c + 1
    for c in pos.colours():  # waiting: a pawn on C16 with CH1 taken (T14, exact16 only)
        e, h1 = entry_square(c), home_square(c, 1)
        if pos.flags["home_entry"] != "exact16" or rng.random() < 0.5:
            continue
        placed = sum(1 for s in range(CELLS) if pos.cells[s] == c + 1)
        if not pos.cells[e] and placed < 4:
            pos.cells[e] = c + 1
            placed += 1
        if not pos.cells[h1] and placed < 4:
            pos.cells[h1] = c + 1
        if pos.cells[e] == c + 1 and pos.cells[h1]:
            pos.waiting |= 1 << c
    pos.turn = rng.choice(pos.colours())
    return pos


def crowded_position(rng: random.Random) -> Position:
    """Many pawns of the side to play close together (where a 7 has thousands of splits and
    the order of its parts matters), near a home now and then, with opponents among them."""
    rules = rng.choice(["classic", "king-exit", "toc-fr"])
    players = rng.choice([2, 2, 4])
    pos = Position(players, rules)
    if players == 4 and rules == "toc-fr" and rng.random() < 0.3:
        for k in range(4):  # a full home: the partner's pawns are played (T6)
            pos.cells[home_square(0, k + 1)] = 1
    base = entry_square(rng.choice(pos.colours())) - rng.randint(0, 12)
    for c in pos.colours():
        for _ in range(4 if c in (0, 2) else rng.randint(0, 3)):
            if pos.cells.count(bytes((c + 1,))) >= 4:
                break
            if rng.random() < 0.1:
                s = home_square(c, rng.randint(1, 4))
            else:
                s = (base + rng.randint(0, 22)) % TRACK
            if not pos.cells[s]:
                pos.cells[s] = c + 1
    for c in pos.colours():
        e, h1 = entry_square(c), home_square(c, 1)
        if pos.flags["home_entry"] == "exact16" and pos.cells[e] == c + 1 and pos.cells[h1]:
            if rng.random() < 0.7:
                pos.waiting |= 1 << c
    pos.turn = rng.choice([0, 2]) if rng.random() < 0.8 else rng.choice(pos.colours())
    if pos.flags["jokers"] and rng.random() < 0.2:
        pos.turn = 4  # after a joker: any seat (T18)
    return pos


def dense_position(rng: random.Random) -> Position:
    """All pawns of a 2-player seat (or a team's) out and close together, with opponents
    between them and, now and then, a home in the way."""
    rules_name = rng.choice(["classic", "king-exit", "toc-fr"])
    pos = Position(rng.choice([2, 4]), rules_name)
    own = pos.own_for_card(0)
    start = rng.randrange(TRACK)
    for c in (0, 2) if pos.players == 2 else (0,):
        for _ in range(4):
            s = (start + rng.randint(0, 24)) % TRACK
            if rng.random() < 0.15:
                s = home_square(c, rng.randint(1, 4))
            if not pos.cells[s]:
                pos.cells[s] = c + 1
    for c in pos.colours():
        if c in own or (pos.players == 2 and c == 2):
            continue
        for _ in range(rng.randint(0, 4)):
            s = (start + rng.randint(0, 30)) % TRACK
            if not pos.cells[s] and pos.cells.count(bytes((c + 1,))) < 4:
                pos.cells[s] = c + 1
    return pos
