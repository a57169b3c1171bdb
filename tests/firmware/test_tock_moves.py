# Tock rules T11-T19 (docs/rules/tock.md) and the board's check; T1-T10 are in
# test_tock_rules.py, a 7's list of moves in test_tock_sevens.py. Runs under
# pytest (CPython) and under `micropython` with the ESP32 heap (tests/firmware/mpy_runner.py).
from check import raises
from tockpos import placement, pos, results

from games.tock.rules import Illegal


def only(p, card):
    ms = p.legal_moves(card)
    assert len(ms) == 1, [m.describe() for m in ms]
    return ms[0]


def test_T11_each_part_captures_on_landing():
    p = pos({"R": ["R1", "R10"], "G": ["R3"], "B": ["R15"]})
    m = p.check("7H", pos({"R": ["R3", "R15"]}))
    assert sorted(m.captures) == ["R15", "R3"]
    assert m.after.camp(1) == 4 and m.after.camp(2) == 4


def test_T12_jack_swaps_any_two_even_two_opponents():
    p = pos({"G": ["G5"], "B": ["B5"]})
    m = only(p, "JH")
    assert placement(m.after) == {"R": [], "G": ["B5"], "B": ["G5"], "Y": []}


def test_T12_own_with_any_needs_an_own_pawn():
    p = pos({"G": ["G5"], "Y": ["B5"]}, rules="toc-fr")
    assert p.legal_moves("JH") == []
    p = pos({"R": ["R3"], "G": ["G5"], "Y": ["B5"]}, rules="toc-fr")
    assert len(p.legal_moves("JH")) == 2


def test_T12_jack_with_only_excluded_pawns_has_no_move():
    # camp, home, and own start square are excluded; another colour's 18 is not
    p = pos({"R": ["R18", "RH1"], "G": ["G18"]})
    assert p.legal_moves("JC") == []
    assert not p.has_move("JC")
    p = pos({"R": ["R18", "G18"], "G": ["G3"]})
    assert len(p.legal_moves("JC")) == 1  # the R pawn on G18 with G3


def test_T12_same_colour_swap_changes_nothing_and_is_legal():
    p = pos({"R": ["R3", "R9"]})
    m = only(p, "JS")
    assert m.after.same_placement(p)
    assert p.check("JS", p).kind == "swap"


def test_T12_swap_onto_C16_is_not_waiting_and_swap_away_loses_waiting():
    p = pos({"G": ["G3", "GH1"], "Y": ["G16"]})
    m = p.check("JD", pos({"G": ["G16", "GH1"], "Y": ["G3"]}))
    assert m.after.waiting == 0
    p = pos({"G": ["G16", "GH1"], "R": ["R5"]}, waiting="G")
    m = p.check("JD", pos({"G": ["R5", "GH1"], "R": ["G16"]}))
    assert m.after.waiting == 0


def test_T13_captured_pawn_goes_back_to_camp():
    p = pos({"R": ["R3"], "G": ["R8", "G2"]})
    m = only(p, "5C")
    assert m.after.camp(1) == 3


def test_T14_exact16_enters_home_only_by_ending_on_C16():
    p = pos({"R": ["R12"]})
    assert placement(only(p, "4S").after)["R"] == ["R8"]  # a 4 goes backward
    assert placement(only(p, "5S").after)["R"] == ["R17"]  # passes R16: goes round
    assert placement(only(p, "2S").after)["R"] == ["R14"]
    p = pos({"R": ["R13"]})
    assert placement(only(p, "3S").after)["R"] == ["RH1"]


def test_T14_queue_on_C16_then_enter_when_CH1_frees():
    p = pos({"R": ["R13", "RH1"]})
    m = p.check("3S", pos({"R": ["R16", "RH1"]}))
    assert m.after.to_dict()["waiting"] == ["R"]
    # the next R card moves RH1 on: the waiting pawn enters CH1 in the same move
    q = m.after.discard("5H").discard("5H").discard("5H")
    m2 = q.check("2S", pos({"R": ["RH1", "RH3"]}))
    assert placement(m2.after)["R"] == ["RH1", "RH3"] and m2.after.waiting == 0


def test_T14_waiting_pawn_can_be_captured():
    p = pos({"R": ["R16", "RH1"], "G": ["R11"]}, waiting="R", turn="G")
    m = only(p, "5S")
    assert m.captures == ["R16"] and m.after.waiting == 0


def test_T14_landing_on_own_C16_held_by_opponent_captures_then_enters():
    p = pos({"R": ["R10"], "G": ["R16"]})
    m = only(p, "6S")
    assert m.captures == ["R16"] and placement(m.after)["R"] == ["RH1"]


def test_T15_count_enters_home_by_counting():
    p = pos({"R": ["R14"]}, rules="toc-fr")
    assert placement(only(p, "5H").after)["R"] == ["RH3"]  # R15 R16 H1 H2 H3
    assert placement(only(p, "2H").after)["R"] == ["R16"]  # exactly on C16: stays on track


def test_T15_count_cannot_pass_a_home_pawn_or_go_past_CH4():
    p = pos({"R": ["R14", "RH2"]}, rules="toc-fr")
    assert (("R14", "RH3"),) not in results(p, "5H")
    p = pos({"R": ["R14"]}, rules="toc-fr")
    assert results(p, "8H") == {}  # would need CH6: that pawn cannot make the move
    p = pos({"R": ["R16"]}, rules="toc-fr")
    assert placement(only(p, "3H").after)["R"] == ["RH3"]  # starting on C16 included


def test_T16_home_pawns_move_forward_only_never_past_CH4():
    p = pos({"R": ["RH1"]})
    assert set(results(p, "3H")) == {(("RH1", "RH4"),)}
    assert results(p, "5H") == {}
    assert results(p, "4H") == {}
    p = pos({"R": ["RH1", "RH3"]})
    assert set(results(p, "3H")) == set()
    assert set(results(p, "AH")) == {(("camp", "R18"),), (("RH1", "RH2"),), (("RH3", "RH4"),)}


def test_T17_card_without_legal_move_is_discarded():
    p = pos({"R": ["RH4"]})
    assert p.legal_moves("5H") == [] and not p.has_move("5H")
    assert p.discard("5H").to_dict()["turn"] == "G"


def test_T17_must_move_when_there_is_a_move():
    p = pos({"R": ["R3"]})
    e = raises(Illegal, p.check, "5H", p)
    assert "must" in e.why


def test_T18_joker_exits_then_any_seat_plays():
    p = pos({}, rules="toc-fr")
    m = only(p, "X")
    assert m.steps() == [["camp", "R18"]] and m.after.to_dict()["turn"] == "any"
    q = m.after
    m2 = q.check("AS", pos({"R": ["R18"], "B": ["B18"]}, rules="toc-fr"))
    assert m2.after.to_dict()["turn"] == "Y"  # B played it: Y is next


def test_T18_joker_discarded_still_opens_the_turn():
    p = pos({"R": ["R18", "RH1", "RH2", "RH3"]}, rules="toc-fr")
    assert p.legal_moves("X") == []
    assert p.discard("X").to_dict()["turn"] == "any"


def test_T19_win_is_detected_and_further_cards_refused():
    p = pos({"R": ["RH2", "RH3", "RH4", "R13"]})
    m = p.check("3C", pos({"R": ["RH1", "RH2", "RH3", "RH4"]}))
    assert m.after.winner() == 0
    e = raises(Illegal, m.after.legal_moves, "5H")
    assert "T19" in e.why


def test_T19_two_players_need_both_homes():
    homes = ["RH1", "RH2", "RH3", "RH4"]
    p = pos({"R": homes}, players=2)
    assert p.winner() is None
    p = pos({"R": homes, "B": ["BH1", "BH2", "BH3", "BH4"]}, players=2)
    assert p.winner() == 0


def test_check_explains_wrong_distance():
    p = pos({"R": ["R3"]})
    e = raises(Illegal, p.check, "5H", pos({"R": ["R9"]}))
    assert "R8" in e.why and "R9" in e.why


def test_check_capture_by_exit_on_square_18():
    p = pos({"G": ["R18"]})
    m = p.check("AH", pos({"R": ["R18"]}))
    assert m.kind == "exit" and m.captures == ["R18"]
    e = raises(Illegal, p.check, "AH", pos({"R": ["R18"], "G": ["G3"]}))
    assert "camp" in e.why
