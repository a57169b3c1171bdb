"""Finds the costliest positions for the board's hints (Position.reach, issue 29) by a
seeded search (CPython), for hints_mpy.py to time under MicroPython: random, crowded and
dense positions (the side to play with all its pawns close together, every ruleset), then a
hill climb from the costliest 7s (a pawn moved a square or two, one more out of camp, a
waiting pawn), each step kept when it costs more. The cost is counted, not timed (this
machine is shared): from the rows and cells the 7's levels hold (cost()), a search
fallback counting a million. Writes one case a
line: {"card", "position"}: the 16 costliest 7s, the 3 costliest of every other card (by
the pawns and pairs they look at), and make bench's 8-pawn 7.

    python tests/bench/tock_hints.py OUT.jsonl [--seed 29]"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tock_positions import crowded_position, dense_position, random_position  # noqa: E402
from tock_speed_cases import EIGHT  # noqa: E402

from plateau.fw.games.tock import hints, rules  # noqa: E402
from plateau.fw.games.tock.rules import (  # noqa: E402
    CELLS,
    REACH,
    TRACK,
    Position,
    PositionError,
    entry_square,
    home_square,
)

RANKS = ["A", "2", "3", "4", "5", "6", "8", "9", "10", "J", "Q", "K", "X"]
OUT = bytearray(REACH)


def cost(pos: Position) -> int:
    """The 7's hints' work, estimated from what _dp holds once it has run, in thousands
    of instructions on the 32-bit build (fitted to cachegrind's counts of the costliest
    cases): a fixed part, each node, each row of a pawn on the track (its steps onto x +
    k), each row of a pawn in home or a waiting pawn, each cell (the special steps played
    from it, the back masks written); a search fallback counts a million."""
    seven = rules._SEVEN
    seat = 0 if pos.turn == 4 else pos.seat_of(pos.turn)
    if not hints._dp(seven, pos, seat):
        return 1_000_000
    nd = seven.opt_k
    work = 450
    for j in range(seven.nn):
        work += 42
        for r in range(seven.opt_end[96 + j], seven.opt_end[97 + j]):
            cells = bin(seven.opt_free[80 + r]).count("1")
            if cells:
                work += (100 if nd[j] == hints._N_TRACK else 48) + 10 * cells
    return work


def valid(pos: Position) -> bool:
    try:
        again = Position.from_dict(pos.to_dict())
    except PositionError:
        return False
    return again.winner() is None


def mutate(pos: Position, rng: random.Random) -> Position:
    p = pos.copy()
    own = [c for c in p.own_for_card(0 if p.turn == 4 else p.seat_of(p.turn))]
    squares = [s for s in range(CELLS) if p.cells[s] and p.cells[s] - 1 in own]
    roll = rng.random()
    if roll < 0.6 and squares:  # a pawn a square or two on, or back
        s = rng.choice(squares)
        if s < TRACK:
            t = (s + rng.choice([-2, -1, 1, 2])) % TRACK
            if not p.cells[t]:
                p.cells[t], p.cells[s] = p.cells[s], 0
    elif roll < 0.8:  # one more out of camp, near the others
        c = rng.choice(own)
        if p.camp(c) and squares:
            t = (rng.choice(squares) + rng.randint(-6, 6)) % TRACK
            if not p.cells[t]:
                p.cells[t] = c + 1
    elif p.flags["home_entry"] == "exact16":  # a pawn waiting on its C16 (T14)
        c = rng.choice(own)
        e, h1 = entry_square(c), home_square(c, 1)
        if p.cells[e] == c + 1 and p.cells[h1]:
            p.waiting ^= 1 << c
    return p if valid(p) else pos


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=29)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    pool = []
    for make, n in ((random_position, 1200), (crowded_position, 1200), (dense_position, 1200)):
        for _ in range(n):
            pos = make(rng)
            if valid(pos):
                pool.append(pos)
    scored = sorted(((cost(p), i) for i, p in enumerate(pool)), reverse=True)
    climbed = []
    for work, i in scored[:12]:
        pos = pool[i]
        for _ in range(40):
            q = mutate(pos, rng)
            w = cost(q)
            if w > work:
                pos, work = q, w
        climbed.append((work, pos))
    climbed += [(w, pool[i]) for w, i in scored[12:40]]
    climbed.sort(key=lambda x: -x[0])
    cases = [("7S", pos) for _, pos in climbed[:16]] + [("7S", Position.from_dict(EIGHT))]
    for rank in RANKS:  # the other cards: the positions with the most pawns to look at
        card = rank if rank == "X" else rank + "S"
        fits = [p for p in pool if rank != "X" or p.flags["jokers"]]
        fits.sort(key=lambda p: -sum(1 for s in range(CELLS) if p.cells[s]))
        cases += [(card, p) for p in fits[:3]]
    with open(args.out, "w") as f:
        for card, pos in cases:
            f.write(json.dumps({"card": card, "position": pos.to_dict()}) + "\n")
    print(
        f"{len(cases)} hint cases -> {args.out}: the costliest 7 counts {climbed[0][0]} "
        f"(make bench's 8-pawn 7: {cost(Position.from_dict(EIGHT))})"
    )


main()
