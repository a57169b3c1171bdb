# Tock rules T1-T10 (docs/rules/tock.md), one or more tests per rule id; T11-T19 are
# in test_tock_moves.py (two modules: each fits the ESP32 heap on its own). Runs under
# pytest (CPython) and under `micropython` with the ESP32 heap (tests/firmware/mpy_runner.py).
from check import raises
from tockpos import placement, pos, results

from games.cards import CardError
from games.tock.rules import Card, Position, PositionError


def only(p, card):
    ms = p.legal_moves(card)
    assert len(ms) == 1, [m.describe() for m in ms]
    return ms[0]


def test_T1_colours_in_seat_order_and_diagonal_partners():
    p = pos(turn="R")
    seq = []
    for _ in range(4):
        seq.append(p.to_dict()["turn"])
        p = p.discard("5H")
    assert seq == ["R", "G", "B", "Y"]
    p = pos(rules="toc-fr")
    assert p.team_colours(0) == (0, 2) and p.team_colours(1) == (1, 3)


def test_T2_track_wraps_from_Y18_to_R1():
    m = only(pos({"Y": ["Y17"]}, turn="Y"), "3H")
    assert m.steps() == [["Y17", "R2"]]


def test_T3_exit_is_to_C18_and_home_entry_is_C16():
    m = only(pos({}, turn="B"), "AS")
    assert m.steps() == [["camp", "B18"]]
    m = only(pos({"G": ["G10"]}, turn="G"), "6H")
    assert placement(m.after)["G"] == ["GH1"]


def test_T4_notation_round_trips_and_ignores_pawn_order():
    text = (
        '{"rules": "classic", "players": 4, "turn": "R", "pawns": {"R": ["R18", "G5", "camp",'
        ' "camp"], "G": ["GH1", "camp", "camp", "camp"], "B": ["camp", "camp", "camp", "camp"],'
        ' "Y": ["YH1", "Y16", "camp", "camp"]}, "waiting": ["Y"]}'
    )
    p = Position.parse(text)
    again = Position.parse(p.dumps())
    assert again == p and again.dumps() == p.dumps()
    shuffled = text.replace('["R18", "G5", "camp", "camp"]', '["camp", "G5", "camp", "R18"]')
    assert Position.parse(shuffled) == p
    assert p.to_dict()["waiting"] == ["Y"]


def test_T4_flags_override_round_trip():
    p = pos(flags={"seven_max_pawns": 3, "king": "exit-only"})
    assert p.flags["seven_max_pawns"] == 3 and p.flags["swap"] == "any-two"
    assert Position.parse(p.dumps()).to_dict()["flags"] == {
        "seven_max_pawns": 3,
        "king": "exit-only",
    }


def bad(d, words):
    e = raises(PositionError, Position.from_dict, d)
    assert words in str(e), str(e)


def test_T4_impossible_positions_get_clear_errors():
    four = {"R": ["camp"] * 4, "G": ["camp"] * 4, "B": ["camp"] * 4, "Y": ["camp"] * 4}
    five = dict(four, R=["camp"] * 5)
    bad({"pawns": five}, "exactly 4")
    two = dict(four, R=["R3", "camp", "camp", "camp"], G=["R3", "camp", "camp", "camp"])
    bad({"pawns": two}, "two pawns on R3")
    bad({"players": 3, "pawns": four}, "not in play")
    bad({"pawns": dict(four, R=["R19", "camp", "camp", "camp"])}, "unknown square")
    bad({"pawns": dict(four, R=["GH1", "camp", "camp", "camp"])}, "another colour's home")
    bad({"pawns": four, "waiting": ["R"]}, "waiting needs")
    bad({"pawns": four, "rules": "chess"}, "unknown rules")
    bad({"pawns": four, "turn": "Q"}, "turn must be")
    bad({"pawns": four, "flags": {"king": "never"}}, "flag king")
    raises(PositionError, Position.parse, "{not json")


def test_T4_unknown_card_is_a_clear_error():
    e = raises(CardError, Card, "1H")
    assert "unknown card" in str(e)
    raises(CardError, Card, "7Z")
    e = raises(CardError, pos().legal_moves, "X")
    assert "no jokers" in str(e)


def test_T5_two_players_move_either_colour_of_their_seat():
    p = pos({"R": ["R3"], "B": ["B3"]}, turn="B", players=2)
    moves = results(p, "2H")
    assert set(moves) == {(("R3", "R5"),), (("B3", "B5"),)}
    assert p.legal_moves("2H")[0].after.to_dict()["turn"] == "G"


def test_T5_three_players_have_no_yellow():
    p = pos(players=3, turn="B")
    assert "Y" not in p.to_dict()["pawns"]
    assert p.discard("5C").to_dict()["turn"] == "R"


def test_T6_team_pawn_may_not_be_passed_or_taken():
    p = pos({"R": ["R3"], "B": ["R5"], "G": ["R7"]}, rules="toc-fr")
    assert results(p, "3H") == {}  # R5 is the partner's: no passing
    assert results(p, "2H") == {}  # nor landing on it
    p = pos({"R": ["R3"], "G": ["R5"]}, rules="toc-fr")
    assert set(results(p, "3H")) == {(("R3", "R6"),)}  # an opponent is passed


def test_T6_full_home_plays_the_partners_pawns():
    p = pos({"R": ["RH1", "RH2", "RH3", "RH4"], "B": ["B3"]}, rules="toc-fr")
    assert set(results(p, "5H")) == {(("B3", "B8"),)}


def test_T6_team_wins_with_both_homes_full():
    full = ["H1", "H2", "H3", "H4"]
    p = pos(
        {"R": ["R" + h for h in full], "B": ["B" + h for h in full[1:]] + ["B12"]}, rules="toc-fr"
    )
    assert p.winner() is None
    m = only(p, "5C")  # R's home is full: R plays B's pawns, B12 counts 5 into BH1
    assert m.after.winner() == 0


def test_T7_one_card_per_turn_in_colour_order():
    p = pos({"R": ["R3"]})
    assert only(p, "5S").after.to_dict()["turn"] == "G"
    p = pos({"G": ["G3"]}, players=2, turn="G")
    assert only(p, "5S").after.to_dict()["turn"] == "R"


def test_T8_exit_captures_an_opponent_on_C18():
    p = pos({"G": ["R18"]})
    m = only(p, "KS")
    assert placement(m.after)["R"] == ["R18"] and placement(m.after)["G"] == []
    assert m.captures == ["R18"]


def test_T8_exit_refused_when_own_pawn_on_C18():
    p = pos({"R": ["R18"]})
    assert set(results(p, "AS")) == {(("R18", "G1"),)}


def test_T9_passes_opponents_captures_on_landing():
    p = pos({"R": ["R3"], "G": ["R5"], "B": ["R8"]})
    m = only(p, "5D")
    assert m.steps() == [["R3", "R8"]] and m.captures == ["R8"]
    assert placement(m.after)["B"] == []


def test_T9_own_pawn_cannot_be_passed_or_landed_on():
    p = pos({"R": ["R3", "R6"]})
    assert set(results(p, "5D")) == {(("R6", "R11"),)}
    assert set(results(p, "3D")) == {(("R6", "R9"),)}


def test_T9_no_move_may_end_on_an_occupied_square_18():
    p = pos({"R": ["G13"], "G": ["G18"]})
    assert results(p, "5H") == {}  # G13 + 5 = G18, held: no capture there
    assert set(results(p, "6H")) == {(("G13", "B1"),)}  # passing an occupied 18 is fine
    # the 18 of a colour not in play counts too
    p = pos({"R": ["B16"]}, players=3)
    q = pos({"R": ["B16"], "G": ["B18"]}, players=3)
    assert set(results(p, "2H")) == {(("B16", "B18"),)}
    assert results(q, "2H") == {}
    assert set(results(q, "3H")) == {(("B16", "Y1"),)}


def test_T10_four_goes_backward_and_is_mandatory():
    p = pos({"R": ["R10"]})
    assert set(results(p, "4C")) == {(("R10", "R6"),)}
    p = pos({"R": ["R2"]})
    assert set(results(p, "4C")) == {(("R2", "Y16"),)}


def test_T10_four_off_the_start_square_then_home_with_a_2():
    p = pos({"R": ["R18"]})
    m = only(p, "4C")
    assert m.steps() == [["R18", "R14"]]
    q = m.after.discard("5H").discard("5H").discard("5H")  # back to R
    m2 = only(q, "2C")
    assert placement(m2.after)["R"] == ["RH1"]


def test_T10_backward_never_enters_home():
    p = pos({"R": ["G2"]}, rules="toc-fr")
    m = only(p, "4S")
    assert m.steps() == [["G2", "R16"]]
    assert placement(m.after)["R"] == ["R16"]
