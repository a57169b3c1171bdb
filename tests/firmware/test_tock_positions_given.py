# Starting positions the rules could never reach, refused by the rules core (T4): "any" to
# play only after a joker (T18), teams only with 4 players (T6), a colour waiting once (T14),
# and a won position is no start (T19) though a game saved once won is read back. Seeded
# over rulesets and player counts. Runs under pytest and MicroPython.
from check import Rand, raises

from games.tock.rules import Position, PositionError


def _camp(players):
    colours = "RGB" if players == 3 else "RGBY"
    return {c: ["camp"] * 4 for c in colours}


def _pos(**kw):
    d = {"rules": "classic", "players": 4, "turn": "R", "pawns": _camp(4)}
    d.update(kw)
    return d


def test_positions_the_rules_never_reach_are_refused_T4():
    from games.tock.rules import Position, PositionError

    rng = Rand(4402)
    for _ in range(20):
        rules = rng.pick(("classic", "king-exit", "toc-fr"))
        players = rng.pick((2, 3, 4))
        d = _pos(rules=rules, players=players, pawns=_camp(players))
        # T18: "any" after a joker, so only with a deck that has jokers
        d["turn"] = "any"
        if rules == "toc-fr":
            Position.from_dict(d)
        else:
            e = raises(PositionError, Position.from_dict, d)
            assert "T18" in str(e), e
            d["flags"] = {"jokers": 2}  # a house rule with jokers: then it can follow one
            Position.from_dict(d)
        # T6: teams are for 4 players only
        d = _pos(players=players, pawns=_camp(players), flags={"teams": True})
        if players == 4:
            Position.from_dict(d)
        else:
            assert "T6" in str(raises(PositionError, Position.from_dict, d))
    # T14: a colour waits once
    d = _pos(flags={"home_entry": "exact16"})
    d["pawns"]["R"] = ["R16", "RH1", "camp", "camp"]
    d["waiting"] = ["R"]
    Position.from_dict(d)
    d["waiting"] = ["R", "R"]
    assert "twice" in str(raises(PositionError, Position.from_dict, d))


def test_a_won_position_is_read_back_but_is_no_start_T19():
    from test_settings_given import _folder

    from sim.script import ScriptError, parse

    d = _pos()
    d["pawns"]["G"] = ["GH1", "GH2", "GH3", "GH4"]
    assert Position.from_dict(d).winner() is not None  # a game saved once won: read back
    e = raises(PositionError, Position.start, d)
    assert "T19" in str(e) and "G" in str(e), e
    e = raises(ScriptError, parse, "table tock\nposition won.json\n", _folder(d, "won.json"))
    assert e.line == 2 and "T19" in str(e), e
