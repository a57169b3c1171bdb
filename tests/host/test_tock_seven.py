"""The 7 (T11) against a reference written the plain way (issue 14): every split of the 7
over the own pawns, every order of its parts, each part played with Position.forward on a
copy; pawns followed by identity, so that a waiting pawn that slips into CH1 (T14) plays
from there. The board's search (played in place, nothing allocated) must accept exactly the
positions the reference reaches, and find the same for has_move; seeded random positions
of every ruleset, up to 5 own pawns (the reference plays every order of every split; the
8-pawn case is make bench's, tests/bench/tock_cases.py)."""

import random
import sys
from itertools import permutations
from pathlib import Path

from plateau.fw.games.tock.rules import (
    CELLS,
    TRACK,
    Card,
    Illegal,
    Position,
    entry_square,
    home_square,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from tock_positions import random_position  # noqa: E402

SEVEN = Card("7H")


def reference(pos: Position, seat: int) -> set[bytes]:
    """Every placement a 7 of `seat` can leave, the slow and obvious way."""
    own = pos.own_for_card(seat)
    team = pos.team_colours(seat)
    pawns = [(c, s) for c in own for s in range(CELLS) if pos.cells[s] == c + 1]
    out: set[bytes] = set()
    limit = pos.flags["seven_max_pawns"]

    def options(c, s):
        opts = [(k, False) for k in range(1, 8)]
        if s == entry_square(c) and pos.waiting >> c & 1:
            opts += [(k, True) for k in range(1, 4)]  # slips into CH1 first, then k on
        return opts

    def splits(i, left, chosen):
        if i == len(pawns):
            if left == 0 and 0 < len(chosen) <= limit:
                yield list(chosen)
            return
        yield from splits(i + 1, left, chosen)  # this pawn does not move
        for k, free in options(*pawns[i]):
            if k <= left:
                chosen.append((i, k, free))
                yield from splits(i + 1, left - k, chosen)
                chosen.pop()

    for parts in splits(0, 7, []):
        for order in permutations(parts):
            p = pos.copy()
            where = [s for _, s in pawns]  # each pawn's square, followed as it moves
            for i, k, free in order:
                c, start = pawns[i]
                # a free part waits for its pawn to slip into CH1; the others play from
                # where their pawn started
                src = home_square(c, 1) if free else start
                if where[i] != src or p.forward(c, src, k, team):
                    break
                where[i] = p.last_to
                for j, (cj, _) in enumerate(pawns):  # slipped into CH1 as it freed (T14)
                    e = entry_square(cj)
                    if j != i and where[j] == e and p.cells[e] != cj + 1:
                        where[j] = home_square(cj, 1)
            else:
                out.add(bytes(p.cells))
    return out


def test_T11_T14_the_seven_agrees_with_a_plain_reference():
    rng = random.Random(14)
    checked = 0
    for _ in range(150):
        pos = random_position(rng)
        seat = pos.seat_of(pos.turn)
        own = pos.own_for_card(seat)
        if sum(1 for c in own for s in range(CELLS) if pos.cells[s] == c + 1) > 5:
            continue  # the reference plays n! orders of every split: 5 pawns keep it quick
        want = reference(pos, seat)
        got = {bytes(m.after.cells) for m in pos.legal_moves(SEVEN)}
        assert got == want, pos.dumps()
        assert pos.has_move(SEVEN) == bool(want), pos.dumps()
        for cells in want:  # check() finds each, and the placement it names
            after = pos.copy()
            after.cells = bytearray(cells)
            assert bytes(pos.check(SEVEN, after).after.cells) == cells
        # observations the reference never reaches: a pawn of the result nudged a square on
        for cells in list(want)[:5]:
            near = bytearray(cells)
            s = next((s for s in range(TRACK) if near[s] and not near[(s + 1) % TRACK]), None)
            if s is None:
                continue
            near[(s + 1) % TRACK], near[s] = near[s], 0
            if bytes(near) in want:
                continue
            after = pos.copy()
            after.cells = near
            try:
                pos.check(SEVEN, after)
                raise AssertionError(f"accepted a 7 the reference does not reach: {pos.dumps()}")
            except Illegal:
                pass
        checked += 1
    assert checked >= 60
