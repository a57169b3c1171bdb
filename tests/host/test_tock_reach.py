"""The board's hints (issue 29: Position.reach) and the host's enumeration
(Position.legal_moves) against an independent generator written from the spec
(tests/bench/tock_reference.py), over seeded random and crowded positions of every ruleset
and every card: the same results (T8-T18), and for each pawn the same squares it can end on
(T11: in some legal split of a 7; T12: the pawns it can swap with; T14: a waiting pawn that
slips into CH1), the pawns lit being those with somewhere to go.

legal_moves merges plays with the same result, and pawns of one colour are interchangeable
in a result (T3): where a pawn can go is a question about plays, so it is read off the
reference's plays, each pawn followed by identity."""

import json
import random
import sys
from pathlib import Path

from plateau.fw.games.tock.rules import (
    CELLS,
    COLOURS,
    REACH,
    TRACK,
    Card,
    Position,
    parse_square,
    square_name,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from tock_positions import crowded_position, random_position  # noqa: E402
from tock_reference import key_of, plays  # noqa: E402

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "X"]


def pawn_cell(pid: str) -> int:
    if pid.startswith("camp:"):
        return CELLS + COLOURS.index(pid[5])
    return parse_square(pid)


def compare(pos: Position, rank: str) -> int:
    card = rank if rank == "X" else rank + "S"
    ref = plays(pos.to_dict(), card)
    got = set()
    for m in pos.legal_moves(Card(card)):
        d = m.after.to_dict()
        got.add(key_of(d["pawns"], d["waiting"], d["turn"]))
    assert got == set(ref), (card, pos.dumps())
    want: dict[int, set[str]] = {}
    for reach in ref.values():
        for pid, ends in reach.items():
            want.setdefault(pawn_cell(pid), set()).update(ends)
    out = bytearray(REACH)
    n = pos.reach(Card(card), out)
    lit = {s for s in range(REACH) if out[s]}
    assert lit == set(want) and n == len(lit), (card, pos.dumps(), lit, set(want))
    for s in range(REACH):  # every pawn, and every camp: where it can go
        if s < CELLS and not pos.cells[s] or s >= CELLS and s - CELLS not in pos.colours():
            continue
        pos.reach(Card(card), out, s)
        ends = {square_name(q) for q in range(CELLS) if out[q]}
        assert ends == want.get(s, set()), (card, pos.dumps(), s, ends, want.get(s))
    return len(ref)


def cases(make, seed: int, n: int):
    rng = random.Random(seed)
    done = 0
    while done < n:
        pos = make(rng)
        if pos.winner() is not None:
            continue
        done += 1
        yield pos


def test_T8_T18_reach_and_moves_agree_with_the_reference_on_random_positions():
    results = 0
    for pos in cases(random_position, 29, 120):
        for rank in RANKS:
            if rank == "X" and not pos.flags["jokers"]:
                continue
            results += compare(pos, rank)
    assert results > 2000


def test_T11_T14_reach_and_moves_agree_with_the_reference_on_crowded_positions():
    results = sevens = 0
    for pos in cases(crowded_position, 4, 45):
        for rank in RANKS:
            if rank == "X" and not pos.flags["jokers"]:
                continue
            got = compare(pos, rank)
            results += got
            sevens += got if rank == "7" else 0
    assert sevens > 5000  # crowded: many splits, most of them blocked one way or another


def test_plateau_tock_hints_prints_what_the_board_lights(tmp_path, capsys):
    """`plateau tock hints`: the pawns a card moves and each one's ends, as the reference
    has them (T11), one pawn's with --pawn; a pawn that is not there is a clear error."""
    from plateau.cli import main

    rng = random.Random(5)
    pos = crowded_position(rng)
    while pos.winner() is not None:
        pos = crowded_position(rng)
    path = tmp_path / "pos.json"
    path.write_text(pos.dumps())
    want: dict[str, set[str]] = {}
    for reach in plays(pos.to_dict(), "7H").values():
        for pid, ends in reach.items():
            want.setdefault(pid, set()).update(ends)
    assert main(["tock", "hints", "--position", str(path), "--card", "7H"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert set(got["pawns"]) == set(want)
    assert {p: set(e) for p, e in got["ends"].items()} == want
    some = sorted(want)[0]
    assert main(["tock", "hints", "--position", str(path), "--card", "7H", "--pawn", some]) == 0
    assert set(json.loads(capsys.readouterr().out)["ends"]) == want[some]
    empty = next(square_name(s) for s in range(TRACK) if not pos.cells[s])
    assert main(["tock", "hints", "--position", str(path), "--card", "7H", "--pawn", empty]) == 2
    assert f"no pawn on '{empty}'" in capsys.readouterr().err
