"""The board's hints (issue 29: Position.reach) on the positions that cost them most, and
on house rules: seeded dense positions (a seat's pawns close together, waiting pawns, pawns
in home in the way), random and crowded positions with flags overridden (seven_max_pawns 1,
2, 3 (answered by the search) and 7, home_entry, teams, swap, king), every card, every pawn
and camp: the same ends as the independent generator (tests/bench/tock_reference.py;
T8-T18) and the same results from Position.legal_moves (test_tock_reach.compare). And the
ends a 7 keeps for its position (a pawn lifted after the card's hint is a look-up): the
same as worked out afresh along a generated game, with checks, other positions and other
seats in between. tests/firmware/test_tock_hints_core.py checks reach() against the rest of
the rules core under MicroPython."""

import random
import sys
from pathlib import Path

from test_tock_reach import compare

from plateau.fw.games.tock import hints, rules
from plateau.fw.games.tock.rules import (
    CELLS,
    REACH,
    Card,
    Position,
    PositionError,
    entry_square,
    home_square,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from tock_positions import crowded_position, dense_position, random_position  # noqa: E402

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "X"]


def waiting_added(pos: Position, rng: random.Random) -> Position:
    """Now and then a pawn of the seat to play on its C16 with a pawn in its CH1, waiting
    (T14), as the costliest hints have them (a pawn of its own moved there when all four
    are out)."""
    if pos.flags["home_entry"] != "exact16":
        return pos
    for c in pos.own_for_card(0 if pos.turn == 4 else pos.seat_of(pos.turn)):
        if rng.random() < 0.3:
            continue
        e, h1 = entry_square(c), home_square(c, 1)
        for q in (e, h1):
            if pos.cells[q]:
                continue
            if pos.cells.count(bytes((c + 1,))) == 4:
                mine = [s for s in range(CELLS) if pos.cells[s] == c + 1 and s not in (e, h1)]
                pos.cells[rng.choice(mine)] = 0
            pos.cells[q] = c + 1
        if pos.cells[e] == c + 1 and pos.cells[h1]:
            pos.waiting |= 1 << c
    return pos


def flagged(pos: Position, rng: random.Random) -> Position | None:
    """The position under house rules: flags drawn over the ruleset's, read back through
    the notation (T4); None when they make no position (waiting under count, teams with
    fewer than 4 players)."""
    d = pos.to_dict()
    flags = {"seven_max_pawns": rng.choice([1, 2, 2, 3, 7])}
    if rng.random() < 0.3:
        flags["home_entry"] = rng.choice(["exact16", "count"])
    if rng.random() < 0.2 and pos.players == 4:
        flags["teams"] = rng.random() < 0.5
    if rng.random() < 0.2:
        flags["swap"] = rng.choice(["any-two", "own-with-any"])
    if rng.random() < 0.2:
        flags["king"] = rng.choice(["exit-or-13", "exit-only"])
    d["flags"] = flags
    try:
        got = Position.from_dict(d)
    except PositionError:
        return None
    return got if got.winner() is None else None


def positions(seed: int, n: int, flags: bool):
    rng = random.Random(seed)
    made = 0
    while made < n:
        make = rng.choice([dense_position, dense_position, random_position, crowded_position])
        pos = waiting_added(make(rng), rng)
        try:
            pos = Position.from_dict(pos.to_dict())
        except PositionError:
            continue
        if pos.winner() is not None:
            continue
        if flags:
            pos = flagged(pos, rng)
            if pos is None:
                continue
        made += 1
        yield pos


def test_T11_T14_T16_hints_on_the_costliest_kind_of_position_agree_with_the_reference():
    sevens = waiting = 0
    for pos in positions(29, 50, flags=False):
        waiting += bool(pos.waiting)
        for rank in RANKS:
            if rank == "X" and not pos.flags["jokers"]:
                continue
            got = compare(pos, rank)
            sevens += got if rank == "7" else 0
    assert sevens > 3000 and waiting > 12


def test_T6_T11_T15_hints_under_house_rules_agree_with_the_reference():
    parts = set()
    for pos in positions(7, 60, flags=True):
        parts.add(pos.flags["seven_max_pawns"])
        for rank in RANKS:
            if rank == "X" and not pos.flags["jokers"]:
                continue
            compare(pos, rank)
    assert parts == {1, 2, 3, 7}


def ends_of(pos: Position, card: Card, s: int) -> bytes:
    out = bytearray(REACH)
    pos.reach(card, out, s)
    return bytes(out)


def fresh(pos: Position, card: Card, s: int) -> bytes:
    """reach() on a position read again (its own flags: nothing kept applies)."""
    return ends_of(Position.from_dict(pos.to_dict()), card, s)


def test_T11_ends_kept_for_a_lifted_pawn_are_those_worked_out_afresh():
    """Along generated games: the card's hint, then each pawn lifted (the kept ends),
    with a check of another card, another position and the other seat in between now and
    then; each the same as reach() on the position read afresh."""
    rng = random.Random(11)
    seven = Card("7H")
    asked = 0
    for _ in range(12):
        pos = next(positions(rng.randrange(1000), 1, flags=False))
        for _turn in range(25):
            if pos.winner() is not None:
                break
            assert ends_of(pos, seven, -1) == fresh(pos, seven, -1)
            for s in range(CELLS):
                if not pos.cells[s]:
                    continue
                roll = rng.random()
                if roll < 0.1:  # a check in between: the search's buffers are used
                    moves = pos.legal_moves(seven)
                    if moves:
                        pos.check(seven, rng.choice(moves).after)
                elif roll < 0.2:  # another position's hint in between
                    other = next(positions(rng.randrange(1000), 1, flags=False))
                    ends_of(other, seven, -1)
                elif roll < 0.3:  # the same cells, the other seat (a joker's any seat)
                    p2 = pos.copy()
                    p2.turn = 0 if pos.turn == 4 else pos.next_seat(pos.seat_of(pos.turn))
                    assert ends_of(p2, seven, s) == fresh(p2, seven, s)
                assert ends_of(pos, seven, s) == fresh(pos, seven, s)
                asked += 1
            card = Card(rng.choice(["AS", "5S", "7S", "8S", "10S", "JS", "QS", "KS", "4S"]))
            moves = pos.legal_moves(card)
            if moves:
                pos.play(rng.choice(moves))
            else:
                pos = pos.discard(card)
    assert asked > 500


def test_a_search_that_answers_for_seven_max_pawns_3_to_6_forgets_no_kept_ends():
    """seven_max_pawns 3 to 6 go to the search (_dp has no room for them): a hint on
    such a position between a position's hint and its lifted pawn leaves that pawn's
    ends right."""
    rng = random.Random(3)
    seven = Card("7S")
    for pos in positions(5, 20, flags=False):
        other = Position.from_dict(dict(pos.to_dict(), flags={"seven_max_pawns": 4}))
        ends_of(pos, seven, -1)
        ends_of(other, seven, -1)
        assert hints._KEPT[4] != rules._SEVEN.runs  # (pos's ends forgotten)
        s = rng.choice([q for q in range(CELLS) if pos.cells[q]])
        assert ends_of(pos, seven, s) == fresh(pos, seven, s)
