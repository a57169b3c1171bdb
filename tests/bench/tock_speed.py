"""`make bench`'s Tock enumeration figures (CPython): Position.legal_moves beside the
independent generator (tock_reference.plays) on the same positions and cards, and the rules
core as it was before issue 29's speed work (firmware/games/tock/rules.py at BEFORE, read from
git) on the same. Each figure is the generator's time over the rules core's (above 1: the
rules core is faster), best of 3 runs of each set. Prints; asserts nothing.

    python tests/bench/tock_speed.py [--before REV]

Sets: random positions of every ruleset (tock_positions.random_position) and crowded ones
(crowded_position), each with every card; the slowest 7s: of 300 random and crowded positions,
the 12 whose 7 has the most results (what takes the generator longest), and make bench's
8-pawn 7 (tock_cases.py)."""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from tock_positions import crowded_position, random_position  # noqa: E402
from tock_reference import plays  # noqa: E402
from tock_speed_cases import EIGHT  # noqa: E402

import plateau.fw  # noqa: E402
from plateau.fw.games.tock.rules import Position  # noqa: E402

BEFORE = "7eec6db"  # the last commit before issue 29's speed work (main, 2026-12-01)
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "X"]


def rules_at(rev: str):
    """The rules module as it was at rev, loaded as plateau.fw loads the firmware (its
    imports of games.* read plateau.fw's); None when git cannot show it (a shallow clone)."""
    done = subprocess.run(
        ["git", "show", f"{rev}:firmware/games/tock/rules.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        return None
    mod = types.ModuleType("tock_rules_" + rev)
    mod.__dict__["__builtins__"] = plateau.fw._BUILTINS
    exec(compile(done.stdout, f"{rev}:firmware/games/tock/rules.py", "exec"), mod.__dict__)
    return mod


def cards_of(d: dict) -> list[str]:
    jokers = d["rules"] == "toc-fr" or d.get("flags", {}).get("jokers")
    return [r if r == "X" else r + "S" for r in RANKS if r != "X" or jokers]


def timed(fn, cases) -> float:
    best = 1e9
    for _ in range(3):
        t0 = time.perf_counter()
        for d, card in cases:
            fn(d, card)
        best = min(best, time.perf_counter() - t0)
    return best


def enumerate_with(module):
    """legal_moves of a rules module, from a T4 position: the position is read each time,
    as `plateau tock moves` reads it."""

    def run(d, card):
        module.Position.from_dict(d).legal_moves(card)

    return run


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--before", default=BEFORE, help="the revision to compare with")
    args = p.parse_args()
    from plateau.fw.games.tock import rules as now

    before = rules_at(args.before)
    rng = random.Random(29)
    sets = []
    for label, make, n in (("random", random_position, 120), ("crowded", crowded_position, 40)):
        positions = []
        while len(positions) < n:
            pos = make(rng)
            if pos.winner() is None:
                positions.append(pos.to_dict())
        sets.append((f"{label} positions", [(d, c) for d in positions for c in cards_of(d)]))
    pool = []
    for make in (random_position, crowded_position):
        for _ in range(150):
            pos = make(rng)
            if pos.winner() is None:
                d = pos.to_dict()
                pool.append((len(plays(d, "7S")), d))  # its results: what it takes longest on
    pool.sort(key=lambda x: -x[0])
    sets.append(("the slowest 7s", [(d, "7S") for _, d in pool[:12]] + [(EIGHT, "7S")]))
    print(
        "enumeration, Position.legal_moves against the independent generator "
        "(tests/bench/tock_reference.py), the same positions and cards: the generator's time "
        f"over the rules core's (above 1: faster), now and at {args.before} (before)"
    )
    for label, cases in sets:
        results = sum(len(Position.from_dict(d).legal_moves(c)) for d, c in cases)
        ref = timed(plays, cases)
        ours = timed(enumerate_with(now), cases)
        line = (
            f"  {label}: {len(cases)} (position, card), {results} results: generator "
            f"{ref:.3f} s, rules core {ours:.3f} s ({ref / ours:.2f}x)"
        )
        if before is not None:
            old = timed(enumerate_with(before), cases)
            line += f", before {old:.3f} s ({ref / old:.2f}x)"
        print(line, flush=True)
    if before is None:
        print(f"  (no {args.before} in this clone: no before figures)")


main()
