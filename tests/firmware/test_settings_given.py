# Settings as people give them: a setting given twice is refused (a table script's table line
# and `plateau send`'s words alike: the last one won unsaid), Tock's `position` setting read
# from a file, and a starting position the rules could never reach refused (T4, T6, T14, T18,
# T19). Seeded: every game's settings in random order, one of them given twice. Runs under
# pytest and MicroPython.
import gc

from check import Rand, raises, scratch

from games import GAMES, declaration
from games.settings import SettingsError
from sim.script import ScriptError, parse

# Tock's position through the host's words loads the link's modules beside Tock's rules: the
# 64-bit build's 96 KB (bytecode on the heap) does not hold both; the frozen 32-bit build at
# the chip's heap and CPython do (test_tock_positions_given.py checks the rules alone there).
ROOM = not hasattr(gc, "mem_free") or gc.mem_free() > 100000


def _given(game, rng):
    """Each declared setting with a default, as name=value words, in a random order."""
    words = ["%s=%s" % (n, d) for n, _, d in declaration(game).SETTINGS if d is not None]
    rng.shuffle(words)
    return words


def test_a_setting_given_twice_is_refused_by_the_script_and_the_host_words():
    from sim.words import parse_words

    rng = Rand(4401)
    for _ in range(24):
        game = rng.pick(GAMES)
        words = _given(game, rng)
        parse("table %s %s\n" % (game, " ".join(words)))  # once each: taken
        parse_words(["new", game] + words)
        twice = rng.pick(words)
        k = twice.split("=", 1)[0]
        again = twice if rng.below(2) else rng.pick([w for w in words if w.startswith(k + "=")])
        words.insert(rng.below(len(words) + 1), again)
        e = raises(ScriptError, parse, "table %s %s\n" % (game, " ".join(words)))
        assert e.line == 1 and "%r given twice" % k in str(e), e
        e = raises(SettingsError, parse_words, ["new", game] + words)
        assert "given twice" in str(e) and k in str(e), e
        gc.collect()


def test_an_argument_given_twice_by_position_and_by_name_is_refused():
    from sim.words import parse_words

    e = raises(SettingsError, parse_words, ["bet", "3", "seat=3", "20"], "holdem", {"seats": 4})
    assert "given twice" in str(e), e


def test_a_won_position_is_no_start_T19():
    if not ROOM:
        print("test_settings_given: Tock's position words skipped at this heap: see ROOM")
        return
    from test_tock_positions_given import _pos

    from sim.words import parse_words

    d = _pos()
    d["pawns"]["G"] = ["GH1", "GH2", "GH3", "GH4"]
    e = raises(SettingsError, parse_words, ["new", "tock", "position=" + _file(d)])
    assert "T19" in str(e), e


_FOLDER = []


def _folder(d, name):
    import json

    if not _FOLDER:
        _FOLDER.append(scratch("settings"))
    with open(_FOLDER[0] + "/" + name, "w") as f:
        json.dump(d, f)
    return _FOLDER[0]


def _file(d):
    return _folder(d, "pos.json") + "/pos.json"


def test_tock_position_setting_is_read_from_a_file_T4():
    if not ROOM:
        return
    from test_tock_positions_given import _camp, _pos

    from sim.words import parse_words

    d = _pos(players=2, pawns=_camp(2))
    d["pawns"]["R"] = ["R5", "camp", "camp", "camp"]
    cmd = parse_words(["new", "tock", "position=" + _file(d)])
    assert cmd["position"]["pawns"]["R"][0] == "R5", cmd
    e = raises(SettingsError, parse_words, ["new", "tock", "position=/no/such/file.json"])
    assert "cannot read" in str(e), e


def test_a_script_starts_from_a_position_by_its_position_line():
    # in a script, from the script's folder: its `position FILE` line, not a setting
    e = raises(ScriptError, parse, "table tock\nsend new tock position=pos.json\n")
    assert e.line == 2 and "position FILE" in str(e), e
