# Table-script parser (docs/scripts.md): every action, and bad scripts rejected
# with their line number and reason before anything runs.
from check import raises

from sim.script import ScriptError, parse

GOOD = """
# a comment line
table tock players=4 rules=classic   # game and settings
card 7H
card 10C
card X
tag 04A3192261AB80
lift R18
place G7
move R18 G7
glitch G7 3
wait 300
pace 150
button undo
reset
unplug 2000
send new tock players=2
lift RC1
place YH4
"""


def test_scenario_every_action_parses():
    settings, actions = parse(GOOD)
    assert settings == {"game": "tock", "players": 4, "rules": "classic"}
    assert [a[1] for a in actions][:4] == ["card", "card", "card", "tag"]
    assert actions[0][0] == 4  # line numbers are the file's
    assert actions[7] == (11, "glitch", ["G7", 3])


def test_scenario_weykick_actions():
    settings, actions = parse("table weykick mode=first-to:10\nball A\nclear A\nball B\n")
    assert settings["mode"] == "first-to:10"
    assert [a[1:] for a in actions] == [("ball", ["A"]), ("clear", ["A"]), ("ball", ["B"])]


def check_rejected(text, line, words):
    e = raises(ScriptError, parse, text)
    assert e.line == line, (e.line, line)
    for w in words:
        assert w in str(e), (w, str(e))


def test_scenario_bad_scripts_name_line_and_reason():
    head = "table tock players=4\n"
    check_rejected(head + "card 7H\nlift Z9\n", 3, ["line 3", "unknown square", "Z9"])
    check_rejected(head + "lift R19\n", 2, ["R19"])
    check_rejected(head + "card 1H\n", 2, ["unknown card"])
    check_rejected(head + "card 7Z\n", 2, ["unknown card"])
    check_rejected(head + "jump R1\n", 2, ["unknown action", "jump"])
    check_rejected(head + "wait soon\n", 2, ["duration"])
    check_rejected(head + "tag 12345\n", 2, ["tag UID"])
    check_rejected(head + "button eject\n", 2, ["unknown button"])
    check_rejected(head + "move R1\n", 2, ["2 arguments"])
    check_rejected(head + "ball C\n", 2, ["unknown goal"])
    check_rejected("card 7H\n", 1, ["starts with 'table"])
    check_rejected("table chess\n", 1, ["unknown game"])
    check_rejected("# nothing\n", 1, ["empty script"])
    check_rejected(head + "card 7H\nposition p.json\n", 3, ["right after"])


def test_scenario_another_games_actions_are_refused():
    check_rejected("table weykick\nmove R1 R2\n", 2, ["line 2", "'move'", "tock", "weykick"])
    check_rejected("table pocha players=4\nplace R1\n", 2, ["'place'", "pocha"])
    check_rejected("table tock\nball A\n", 2, ["'ball'", "weykick tables"])
    check_rejected("table weykick\ncard 7H\n", 2, ["'card'"])
    check_rejected("table weykick\nglitch R1 3\n", 2, ["'glitch'", "tock tables"])
    parse("table weykick\nglitch A 3\nball A\nclear A\n")
    parse("table tock\nglitch R1 3\nmove RC1 R18\n")
    parse("table holdem\ncard AS\ntag 04A1B2C3\n")
