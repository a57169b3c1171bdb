# Tock at the table (issue 5): table scripts played through the firmware (simulated board,
# real drivers, debounce, tracker, link), one test per move kind and per error.
# A script from a `position` starts with that game's `game` event, as `new` says it.
from simcheck import kinds, of, position, run

HEAD = "table tock players=4 rules=classic\n"


def test_exit_is_one_move_and_turn_passes():
    evs = run(HEAD + "card AS\nlift RC1\nplace R18\nwait 400\ncard 5H\n")
    assert kinds(evs) == ["card", "move", "card", "discard"]
    (m,) = of(evs, "move")
    assert m["steps"] == [["camp", "R18"]] and m["seat"] == "R"
    assert of(evs, "discard")[0]["seat"] == "G"


def test_T9_slide_over_squares_is_one_move_reported_once_settled():
    p = {"p.json": position({"R": ["R3"]})}
    evs = run(
        HEAD + "position p.json\ncard 5H\nlift R3\nplace R4\nlift R4\nplace R5\n"
        "lift R5\nplace R6\nlift R6\nplace R8\nwait 400\n",
        p,
    )
    assert kinds(evs) == ["game", "card", "move"]
    (m,) = of(evs, "move")
    assert m["steps"] == [["R3", "R8"]]
    assert 90 <= m["settle"] < 250  # reported once the board had been still SETTLE_MS


def test_T13_capture_then_put_back_in_camp():
    p = {"p.json": position({"R": ["R3"], "G": ["R8", "G2"]})}
    evs = run(
        HEAD + "position p.json\ncard 5H\nlift R8\nplace GC3\nlift R3\nplace R8\nwait 2500\n", p
    )
    (m,) = of(evs, "move")
    assert m["captures"] == ["R8"]
    assert of(evs, "illegal") == []


def test_T13_captured_pawn_left_in_hand_is_reminded_then_corrected():
    p = {"p.json": position({"R": ["R3"], "G": ["R8", "G2"]})}
    evs = run(
        HEAD + "position p.json\ncard 5H\nlift R8\nlift R3\nplace R8\nwait 2000\n"
        "place GC3\nwait 400\n",
        p,
    )
    assert kinds(evs) == ["game", "card", "move", "illegal", "corrected"]
    assert "put 1 G pawn back in camp" in of(evs, "illegal")[0]["fix"]


def test_T13_capture_half_made_says_how_to_finish_then_the_move_corrects_it():
    # `move R3 R8` onto G's pawn without lifting it first (issue 17): the fix says to put
    # that pawn in its camp; doing so and setting the red pawn down is the move, then
    # `corrected`
    p = {"p.json": position({"R": ["R3"], "G": ["R8", "G2"]})}
    evs = run(
        HEAD + "position p.json\ncard 5H\nmove R3 R8\nwait 2000\n"
        "lift R8\nplace GC3\nplace R8\nwait 400\n",
        p,
    )
    assert kinds(evs) == ["game", "card", "illegal", "move", "corrected"]
    fix = of(evs, "illegal")[0]["fix"]
    assert fix.startswith("to capture with 5H (T13): lift the G pawn off R8 and put it in G's")
    assert of(evs, "move")[0]["captures"] == ["R8"]


def test_T11_seven_split_in_any_physical_order():
    p = {"p.json": position({"R": ["R1", "R10"]})}
    # the rules play R1 -> R4 and R10 -> R14 in either order; hands do the back pawn first
    evs = run(
        HEAD + "position p.json\ncard 7D\nlift R1\nplace R4\nlift R10\nplace R14\nwait 400\n", p
    )
    (m,) = of(evs, "move")
    assert sorted(m["steps"]) == [["R1", "R4"], ["R10", "R14"]]
    assert of(evs, "illegal") == []


def test_T11_half_made_seven_is_never_a_move():
    p = {"p.json": position({"R": ["R1", "R10"]})}
    evs = run(
        HEAD + "position p.json\ncard 7D\nlift R1\nplace R4\nwait 800\nlift R10\n"
        "place R14\nwait 400\n",
        p,
    )
    assert kinds(evs) == ["game", "card", "move"]  # the pause at R4 (3 of 7) reported nothing


def test_T12_jack_swap_read_from_lifts_and_places():
    p = {"p.json": position({"R": ["R5"], "G": ["B7"]})}
    evs = run(
        HEAD + "position p.json\ncard JC\nlift R5\nlift B7\nplace R5\nplace B7\nwait 400\n", p
    )
    (m,) = of(evs, "move")
    assert m["kind"] == "swap" and sorted(m["steps"]) == [["B7", "R5"], ["R5", "B7"]]


def test_T10_four_backward():
    p = {"p.json": position({"R": ["R18"]})}
    evs = run(HEAD + "position p.json\ncard 4C\nmove R18 R14\nwait 400\n", p)
    assert of(evs, "move")[0]["steps"] == [["R18", "R14"]]


def test_T14_waiting_pawn_enters_home_when_CH1_frees():
    p = {"p.json": position({"R": ["R16", "RH1"]}, waiting=["R"])}
    evs = run(HEAD + "position p.json\ncard 2S\nmove RH1 RH3\nmove R16 RH1\nwait 400\n", p)
    (m,) = of(evs, "move")
    assert m["steps"] == [["RH1", "RH3"]]
    assert of(evs, "illegal") == []


def test_lift_and_put_back_and_noise_are_not_moves():
    p = {"p.json": position({"R": ["R3"]})}
    evs = run(
        HEAD + "position p.json\ncard 5H\nlift R3\nplace R3\nglitch R9 3\n"
        "glitch R12 15\nwait 3000\n",
        p,
    )
    assert kinds(evs) == ["game", "card"]


def test_T17_wrong_move_is_illegal_with_reason_then_corrected_then_played():
    p = {"p.json": position({"R": ["R3"]})}
    evs = run(
        HEAD + "position p.json\ncard 5H\nmove R3 R9\nwait 2000\nmove R9 R3\n"
        "wait 400\nmove R3 R8\nwait 400\n",
        p,
    )
    assert kinds(evs) == ["game", "card", "illegal", "corrected", "move"]
    bad = of(evs, "illegal")[0]
    assert "R8" in bad["why"] and "R9" in bad["why"]
    assert "R9" in bad["fix"] and "R3" in bad["fix"]


def test_move_without_a_card():
    p = {"p.json": position({"R": ["R3"]})}
    evs = run(HEAD + "position p.json\nmove R3 R6\nwait 2000\nmove R6 R3\nwait 400\n", p)
    assert kinds(evs) == ["game", "illegal", "corrected"]
    assert of(evs, "illegal")[0]["what"] == "no-card"


def test_second_card_before_the_move():
    evs = run(HEAD + "card AS\ncard 9H\nlift RC1\nplace R18\nwait 400\n")
    assert kinds(evs) == ["card", "error", "move"]
    assert of(evs, "error")[0]["what"] == "second-card"


def test_card_already_played_since_the_shuffle():
    evs = run(HEAD + "card 5H\nwait 1000\ncard 5H\n")
    assert kinds(evs) == ["card", "discard", "error"]
    assert of(evs, "error")[0]["what"] == "card-replayed"


def test_unknown_tag_is_an_error_naming_the_uid():
    evs = run(HEAD + "tag 04A3192261AB80\n")
    (e,) = of(evs, "error")
    assert e["what"] == "unknown-tag" and e["uid"] == "04A3192261AB80"


def test_undo_button_takes_back_the_last_move():
    evs = run(
        HEAD + "card AS\nlift RC1\nplace R18\nwait 400\nbutton undo\nwait 300\n"
        "move R18 RC1\nwait 400\ncard AH\nlift RC1\nplace R18\nwait 400\n"
    )
    assert kinds(evs) == ["card", "move", "undo", "card", "move"]
    assert of(evs, "undo")[0]["card"] == "AS"
    assert of(evs, "move")[1]["seat"] == "R"  # R plays again after the undo


def test_T19_win_then_cards_refused():
    p = {"p.json": position({"R": ["RH2", "RH3", "RH4", "R13"]})}
    evs = run(HEAD + "position p.json\ncard 3C\nmove R13 RH1\nwait 400\ncard 5H\n", p)
    assert kinds(evs) == ["game", "card", "move", "win", "error"]
    assert of(evs, "win")[0]["seat"] == "R"
    assert of(evs, "error")[0]["what"] == "game-over"


def test_host_command_new_game():
    evs = run(HEAD + "send new tock players=2 rules=toc-fr\nwait 100\n")
    (g,) = of(evs, "game")
    assert g["position"]["players"] == 2 and g["position"]["rules"] == "toc-fr"
    (a,) = [e for e in evs if e["type"] == "answer"]
    assert a["ok"] is True


def test_a_button_that_does_nothing_says_why():
    # nothing to undo yet, and Tock has no use for pause: a button has no answer, so the
    # table says what it did not do (an error event naming the button)
    evs = run(HEAD + "button undo\nwait 300\nbutton pause\nwait 300\n")
    errs = [(e["button"], e["why"]) for e in of(evs, "error") if e["what"] == "button"]
    assert [b for b, _ in errs] == ["undo", "pause"], evs
    assert "does nothing" in errs[1][1] and errs[0][1], errs


def test_T12_a_pawn_picked_up_and_set_back_is_no_move_on_a_board_set_up():
    # seeded: a game set up from a position (the camps' slots lifted as it is laid out),
    # a pawn picked up and set straight back once or a few times (fidgeting), then a Jack
    # swapping two pawns: the move is that swap, never one with the fidgeted pawn (the
    # tracker forgets what it held in the air once the board agrees with the game)
    from check import Rand

    pawns = {
        "R": ["R8", "B1", "B7", "B10"],
        "G": ["R18", "G9", "B17", "B18"],
        "B": ["B3", "B14", "Y1", "BH4"],
        "Y": ["G11", "B15", "Y10", "YH3"],
    }
    p = {"p.json": position(pawns, rules="toc-fr", players=2)}
    head = "table tock players=2 rules=toc-fr\nposition p.json\nwait 300\ncard JS\n"
    r = Rand(12)
    for trial in range(4):
        fidget = ("B17", "G9", "B3", "Y10")[r.below(4)]
        script = head
        for _ in range(1 + r.below(3)):
            script += "lift %s\nwait %d\nplace %s\n" % (fidget, r.below(40), fidget)
        script += "lift G11\nlift Y1\nplace G11\nplace Y1\nwait 500\n"
        evs = run(script, p)
        (m,) = of(evs, "move")
        assert sorted(m["steps"]) == [["G11", "Y1"], ["Y1", "G11"]], (trial, m, script)
