# The board's hints (issue 29): Position.reach, the pawns a card can move and where a lifted
# one can go, rule by rule (docs/rules/tock.md). The seeded comparison with an independent
# generator over every card is tests/host/test_tock_reach.py. Runs under pytest (CPython) and
# under `micropython` with the ESP32 heap (tests/firmware/mpy_runner.py).
import gc

from check import raises
from tockpos import pos

from games.tock.rules import CELLS, REACH, Card, Illegal, parse_square, square_name

OUT = bytearray(REACH)


def movable(p, card):
    """The squares (and camps, as "camp:C") of the pawns the card can move."""
    p.reach(Card(card), OUT)
    got = [square_name(s) for s in range(CELLS) if OUT[s]]
    return sorted(got + ["camp:" + "RGBY"[c] for c in range(4) if OUT[CELLS + c]])


def ends(p, card, square):
    s = CELLS + "RGBY".index(square[5]) if square.startswith("camp:") else parse_square(square)
    n = p.reach(Card(card), OUT, s)
    got = sorted(square_name(q) for q in range(CELLS) if OUT[q])
    assert n == len(got)
    return got


def test_T11_a_seven_lights_where_each_pawn_can_end_in_some_split():
    p = pos({"R": ["R1", "R3"]})
    assert movable(p, "7H") == ["R1", "R3"]
    # the back pawn never passes the front one (T9): R6 would need R3 to move only 1
    assert ends(p, "7H", "R1") == ["R2", "R3", "R4", "R5"]
    assert ends(p, "7H", "R3") == ["R10", "R6", "R7", "R8", "R9"]


def test_T11_a_seven_that_cannot_use_all_seven_lights_nothing():
    p = pos({"R": ["RH1"]})
    assert movable(p, "7H") == []
    assert ends(p, "7H", "RH1") == []


def test_T11_toc_fr_splits_over_two_pawns_at_most():
    # R1 -> R4 passes R3, which must then pass R5: three parts (3 + 2 + 2)
    assert "R4" in ends(pos({"R": ["R1", "R3", "R5"]}), "7H", "R1")
    assert "R4" not in ends(pos({"R": ["R1", "R3", "R5"]}, rules="toc-fr"), "7H", "R1")


def test_T14_a_waiting_pawn_ends_in_CH1_when_its_CH1_moves_on():
    p = pos({"R": ["R16", "RH1"]}, waiting=["R"])
    # a 2: CH1's pawn to CH3, and the waiting pawn slips into CH1 with it
    assert movable(p, "2H") == ["R16", "RH1"]
    assert ends(p, "2H", "R16") == ["R18", "RH1"]
    assert ends(p, "2H", "RH1") == ["RH3"]
    # a 7: CH1's pawn takes 3 at most and the waiting pawn's free part 2 (T16), so it
    # must go round, 4 to 7 of it (the pawn in CH1 the rest)
    assert ends(p, "7H", "R16") == ["G2", "G3", "G4", "G5"]
    assert ends(p, "7H", "RH1") == ["RH2", "RH3", "RH4"]
    # with a pawn on G5 to take the rest: any part round the track short of G5, or it
    # slips into CH1 (no part of its own) and on (a free part, short of CH1's pawn)
    q = pos({"R": ["R16", "RH1", "G5"]}, waiting=["R"])
    want = ["G1", "G2", "G3", "G4", "R17", "R18", "RH1", "RH2", "RH3"]
    assert ends(q, "7H", "R16") == want


def test_T11_house_rules_seven_max_pawns_one_and_two():
    # one part: the whole 7 on one pawn (R1 would pass R3)
    p = pos({"R": ["R1", "R3"]}, flags={"seven_max_pawns": 1})
    assert movable(p, "7H") == ["R3"]
    assert ends(p, "7H", "R3") == ["R10"]
    # two parts: as many as this 7 needs (CH1's pawn on, the waiting pawn round)
    q = pos({"R": ["R16", "RH1"]}, waiting=["R"], flags={"seven_max_pawns": 2})
    assert ends(q, "7H", "R16") == ["G2", "G3", "G4", "G5"]
    assert ends(q, "7H", "RH1") == ["RH2", "RH3", "RH4"]
    r = pos({"R": ["R16", "RH1"]}, waiting=["R"], flags={"seven_max_pawns": 1})
    assert movable(r, "7H") == ["R16"]
    assert ends(r, "7H", "R16") == ["G5"]


def test_T11_T14_a_pawn_lifted_after_the_cards_hint_reads_the_ends_kept():
    """A 7's ends are kept for the position and seat they were worked out on: the pawn
    lifted next reads them, the same as on the position built afresh; another position
    or seat asked in between, or a check, leaves none stale."""
    build = (
        ({"R": ["R16", "RH1", "G5"], "B": ["B3"]}, ["R"], 4),
        ({"R": ["R2", "R5", "R9", "G3"], "B": ["B2", "B5", "B9", "Y3"]}, [], 2),
    )
    for pawns, waiting, players in build:
        p = pos(pawns, waiting=waiting, players=players)
        other = pos({"R": ["R1", "R3"]})
        movable(p, "7H")
        for c in pawns:
            for sq in pawns[c]:
                assert ends(p, "7H", sq) == ends(
                    pos(pawns, waiting=waiting, players=players), "7H", sq
                )
                movable(other, "7H")  # another position's hint
                assert ends(p, "7H", sq) == ends(
                    pos(pawns, waiting=waiting, players=players), "7H", sq
                )
        q = pos(pawns, waiting=waiting, players=players, turn="G")  # the other seat
        assert movable(q, "7H") == movable(
            pos(pawns, waiting=waiting, players=players, turn="G"), "7H"
        )
    p = pos({"R": ["R1", "R3"]})
    movable(p, "7H")
    p.check(Card("7H"), pos({"R": ["R3", "R8"]}))  # the search's buffers, used
    assert ends(p, "7H", "R1") == ["R2", "R3", "R4", "R5"]


def test_T8_an_exit_card_lights_the_camp_and_the_start_square():
    p = pos({"R": ["R5"], "G": ["R18"]})
    assert movable(p, "AS") == ["R5", "camp:R"]
    assert ends(p, "AS", "camp:R") == ["R18"]  # capturing the green pawn there (T13)
    assert ends(p, "AS", "R5") == ["R6"]
    assert movable(pos({"R": ["R18"]}), "KS") == ["R18"]  # its own pawn on R18: no exit


def test_T10_a_four_goes_back_and_T12_a_jack_lights_the_pawns_it_may_swap():
    p = pos({"R": ["R5", "R18"], "G": ["G3"], "B": ["B7"]})
    assert ends(p, "4H", "R5") == ["R1"]
    assert ends(p, "4H", "R18") == ["R14"]  # a pawn may back off its own 18 (T10)
    # any-two: every pawn not on its own 18, with every other such pawn
    assert movable(p, "JH") == ["B7", "G3", "R5"]
    assert ends(p, "JH", "G3") == ["B7", "R5"]
    q = pos({"R": ["R5"], "G": ["G3"], "B": ["B7"]}, rules="toc-fr")
    assert ends(q, "JH", "G3") == ["R5"]  # own-with-any: an opponent only with an own pawn


def test_T6_T18_a_full_home_plays_the_partner_and_a_joker_lets_any_seat_play():
    p = pos({"R": ["RH1", "RH2", "RH3", "RH4"], "B": ["B5"]}, rules="toc-fr")
    assert movable(p, "5H") == ["B5"]
    q = pos({"G": ["G5"], "B": ["B5"]}, rules="toc-fr", turn="any")
    assert movable(q, "5H") == ["B5", "G5"]


def test_T19_no_hints_once_the_game_is_won():
    p = pos({"R": ["RH1", "RH2", "RH3", "RH4"]}, rules="classic")
    raises(Illegal, p.reach, Card("5H"), OUT)


def test_a_hint_allocates_nothing():
    p = pos({"R": ["R2", "R5", "R9", "G3"], "B": ["B2", "B5", "B9", "Y3"]}, players=2)
    r5 = parse_square("R5")  # (a name read allocates: not in the measure)
    for card in ("7H", "JH", "AS", "4H"):
        c = Card(card)
        p.reach(c, OUT)  # a first call may take what a first call takes
        gc.collect()
        a0 = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
        p.reach(c, OUT)
        p.reach(c, OUT, r5)
        if hasattr(gc, "mem_alloc"):  # MicroPython
            assert gc.mem_alloc() - a0 == 0, card
    # a 7 near homes, with waiting pawns, parts counted (toc-fr, house rules): its ends
    # worked out afresh (another position asked between) and kept, nothing allocated
    c = Card("7H")
    others = (
        pos(
            {"R": ["R12", "R16", "RH1", "RH2"], "B": ["R9", "R17", "G8", "Y14"]},
            players=2,
            waiting=["R"],
        ),
        pos(
            {"R": ["R5", "R9", "R13", "RH1"], "B": ["R2", "R3", "R15", "BH3"]},
            players=2,
            rules="toc-fr",
        ),
        pos({"R": ["R16", "RH1", "G5"]}, waiting=["R"], flags={"seven_max_pawns": 2}),
    )
    for q in others:
        q.reach(c, OUT)
    for q in others:
        sq = q.cells.find(b"\x01")
        gc.collect()
        a0 = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
        p.reach(c, OUT)
        q.reach(c, OUT)
        q.reach(c, OUT, sq)
        if hasattr(gc, "mem_alloc"):
            assert gc.mem_alloc() - a0 == 0, q.dumps()
