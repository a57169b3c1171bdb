# Tock rule T11 (docs/rules/tock.md): a 7's moves, listed (Position.legal_moves) and checked.
# Apart from test_tock_moves.py because a 7's list comes from games/tock/hints.py, which the
# 64-bit port keeps as bytecode on its heap: under the 64-bit `micropython` at 96k the
# rules, hints and every other move's test no longer fitted in one process (4 tests failed
# with MemoryError; listing every split of three pawns' 7 takes 50 KB on the chip). The
# Makefile runs it at SIM_HEAP on the 64-bit port and at the chip's 111,936 B on the 32-bit
# frozen build, which is the board's figure. Runs under pytest (CPython) too.
from check import raises
from tockpos import pos, results

from games.tock.rules import Illegal


def test_T11_seven_split_over_two_pawns():
    p = pos({"R": ["R1", "R10"]})
    moves = results(p, "7H")
    assert (("R1", "R3"), ("R10", "R15")) in moves or (("R10", "R15"), ("R1", "R3")) in moves
    assert (("R1", "R8"),) in moves and (("R10", "R17"),) in moves


def test_T11_front_pawn_must_move_first():
    # R1 -> R3 lands where the front pawn stands: only after R3 -> R8 has moved on
    p = pos({"R": ["R1", "R3"]})
    m = p.check("7H", pos({"R": ["R3", "R8"]}))
    assert m.steps() == [["R3", "R8"], ["R1", "R3"]]
    assert (("R3", "R8"), ("R1", "R3")) in results(p, "7H")


def test_T11_seven_that_cannot_use_all_seven_has_no_move():
    p = pos({"R": ["RH1"]})  # home pawn can move at most 3
    assert p.legal_moves("7H") == []
    assert not p.has_move("7H")
    p = pos({"R": ["R3", "R5"]})
    assert p.has_move("7H")


def test_T11_toc_fr_splits_over_at_most_two_pawns():
    p = pos({"R": ["R1", "R5", "R9"]}, rules="toc-fr")
    assert all(len(s) <= 2 for s in results(p, "7H"))
    e = raises(Illegal, p.check, "7H", pos({"R": ["R3", "R7", "R12"]}, rules="toc-fr"))
    assert "T11" in e.why
    c = pos({"R": ["R1", "R5", "R9"]})
    assert c.check("7H", pos({"R": ["R3", "R7", "R12"]}))
