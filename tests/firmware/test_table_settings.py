# Typed settings and commands (issue 15): every setting declared once beside its game,
# checked in full before anything changes, by one checker for a host's `new`, a game
# switch, a table script and `plateau gen`. A refusal says what is wrong.
from check import raises

from games.settings import SettingsError, check
from link.commands import typed
from sim.words import parse_words


def refused(game, **given):
    return str(raises(SettingsError, check, game, given))


def test_defaults_fill_what_is_not_given():
    assert check("tock", {}) == {"players": 4, "rules": "classic"}
    assert check("pocha", {"players": 3})["deck"] == 40
    assert check("holdem", {})["blinds"] == "1/2" and "big-bet" not in check("holdem", {})
    assert check("weykick", {"mode": "timed:5"})["best-of"] == 1


def test_absurd_values_are_refused_by_their_range():
    assert "from 2 to 10" in refused("holdem", seats=1000000000)  # H1
    assert "from 1 to" in refused("holdem", stacks=-100)
    assert "two whole numbers from 1 to" in refused("holdem", blinds="0/0")  # H2
    assert "two whole numbers from 1 to" in refused("holdem", blinds="1/100000000000")


def test_H2_the_big_blind_is_twice_the_small():
    # a big below the small too: the rule said is H2's (it said "small <= big" for 2/1)
    pairs = (("1/1", "1/2"), ("1/3", "1/2"), ("2/5", "2/4"), ("5/100", "5/10"), ("2/1", "2/4"))
    for bad, fix in pairs + (("10/3", "10/20"),):
        why = refused("holdem", blinds=bad)
        assert "twice the small (H2): %s, not %s" % (fix, bad) in why, why
    assert check("holdem", {"blinds": "25/50"})["blinds"] == "25/50"
    # a stack short of the big blind is played (H2: it posts what it has, all in)
    assert check("holdem", {"stacks": 1, "blinds": "1/2"})["stacks"] == 1
    assert "one of 1 3 5" in refused("weykick", **{"best-of": 1000000001})  # W4
    assert "first-to:N" in refused("weykick", mode="first-to:0")
    assert "one of 3 4 5 6 8" in refused("pocha", players=7)  # K2


def test_lists_and_objects_where_a_value_is_wanted():
    assert "not a list" in refused("pocha", players=[4])
    assert "not an object" in refused("pocha", deck={"size": 40})
    assert "not a list" in refused("holdem", blinds=[1, 2])
    assert "not an object" in refused("holdem", stacks={"1": 100})
    assert "not True" in refused("tock", players=True)  # true is not a number
    assert "not 4.0" in refused("tock", players=4.0)


def test_settings_that_hold_together_K1():
    assert "does not deal evenly" in refused("pocha", players=5, deck=48)
    assert check("pocha", {"players": 6, "deck": 48})["players"] == 6
    assert "seat from 1 to 3" in refused("pocha", players=3, dealer="4")
    assert check("holdem", {"seats": 3, "button": 3})["button"] == "3"  # seats as text


def test_H1_stacks_for_all_seats_or_seat_by_seat():
    assert check("holdem", {"seats": 3, "stacks": "100,80,250"})["stacks"] == [100, 80, 250]
    assert check("holdem", {"seats": 2, "stacks": [5, 7]})["stacks"] == [5, 7]
    assert check("holdem", {"seats": 3, "stacks": 40})["stacks"] == 40
    assert "2 values for 3 seats" in refused("holdem", seats=3, stacks="100,80")
    assert "one per seat" in refused("holdem", seats=2, stacks="100,0")
    assert "one per seat" in refused("holdem", seats=2, stacks="100,x")
    assert "one per seat" in refused("holdem", seats=2, stacks=[100, True])
    assert "one per seat" in refused("holdem", seats=2, stacks=[1] * 11)
    # a host's `new holdem stacks=...` words are typed the same way
    cmd = parse_words(["new", "holdem", "seats=3", "stacks=100,80,250"])
    assert typed(cmd)["settings"]["stacks"] == [100, 80, 250]


def test_unknown_settings_and_games_are_named():
    why = refused("tock", colour="red")
    assert "unknown setting 'colour' for tock" in why and "players, rules" in why
    assert "unknown game" in str(raises(SettingsError, check, "chess", {}))


def test_a_position_whose_waiting_is_5_T4():
    camp = ["camp"] * 4
    pawns = {"R": camp, "G": camp, "B": camp, "Y": camp}
    pos = {"rules": "classic", "players": 4, "turn": "R", "waiting": 5, "pawns": pawns}
    assert "waiting must list colours" in refused("tock", position=pos)


def test_commands_are_typed_by_their_declarations():
    assert typed({"cmd": "bid", "seat": 2, "amount": 1}, "pocha") == {
        "cmd": "bid",
        "seat": "2",
        "amount": 1,
    }
    why = str(raises(SettingsError, typed, {"cmd": "bid", "seat": "2", "amount": [1]}, "pocha"))
    assert "amount" in why
    why = str(raises(SettingsError, typed, {"cmd": "undo", "steps": 3}, "tock"))
    assert "undo takes no arguments" in why
    why = str(raises(SettingsError, typed, {"cmd": "bet", "seat": "1"}, "holdem"))
    assert "bet needs amount" in why
    why = str(raises(SettingsError, typed, {"cmd": "bid", "seat": 1, "amount": 0}, "tock"))
    assert "unknown command 'bid' for tock" in why
    why = str(raises(SettingsError, typed, {"cmd": "undo", "id": [1]}, "tock"))
    assert "id must be" in why


def test_seats_are_checked_against_the_game_played():
    why = str(raises(SettingsError, typed, {"cmd": "fold", "seat": "5"}, "holdem", {"seats": 3}))
    assert "seat from 1 to 3" in why


def test_words_typed_the_same_way_as_frames():
    assert parse_words(["new", "holdem", "seats=3", "blinds=1/2"]) == {
        "cmd": "new",
        "game": "holdem",
        "seats": 3,
        "blinds": "1/2",
    }
    assert parse_words(["bet", "3", "40"]) == {"cmd": "bet", "seat": "3", "amount": 40}
    assert "from 2 to 10" in str(raises(SettingsError, parse_words, ["new", "holdem", "seats=11"]))
    assert "bid: amount must be" in str(raises(SettingsError, parse_words, ["bid", "2", "x"]))


def test_a_refused_new_changes_nothing():
    from check import Wire

    from games import make_game
    from link.link import Link
    from link.ring import Ring
    from sim import VirtualClock
    from table import Table

    w = Wire()
    link = Link(w.write, "b", ring=Ring(512, 8))
    t = Table(w, VirtualClock(), link, make_game("pocha", link.emit, (), {"players": 3}))
    before = t.game.state()
    for bad in (
        {"cmd": "new", "game": "holdem", "seats": 1000000000},
        {"cmd": "new", "game": "pocha", "players": [4]},
        {"cmd": "new", "game": "pocha", "deck": {"size": 40}},
        {"cmd": "new", "game": "holdem", "stacks": [100]},
        {"cmd": "new", "players": 7},
    ):
        assert t.command(bad), bad
    assert t.about()["game"] == "pocha" and t.game.state() == before
    assert t.command({"cmd": "new", "game": "holdem", "seats": 3}) is None
    assert t.about() == {"game": "holdem", "rules": "no-limit", "players": 3}


def test_K2_a_new_of_the_game_played_keeps_what_it_does_not_give():
    playing = check("pocha", {"players": 3, "schedule": "short"})
    got = typed({"cmd": "new", "dealer": 2}, "pocha", playing)["settings"]
    assert got == {"players": 3, "deck": 40, "schedule": "short", "dealer": "2"}
    # another game named: its defaults, not these
    other = typed({"cmd": "new", "game": "holdem", "seats": 3}, "pocha", playing)["settings"]
    assert other["seats"] == 3 and "players" not in other
    # every setting given: nothing kept
    assert typed({"cmd": "new", "players": 4}, "pocha", playing)["settings"]["players"] == 4
    # the host, not knowing the game: checked by the board alone
    assert parse_words(["new", "dealer=7"]) == {"cmd": "new", "dealer": 7}


def _cased(r, word):
    """`word` with each letter's case drawn at random."""
    return "".join(c.upper() if r.below(2) else c.lower() for c in word)


def test_a_card_or_tag_field_reads_its_words_in_either_case_other_words_are_lower_case():
    # `unenrol ALL` was refused while `unenrol 04a31922` (hex in any case) and `enrol 7h`
    # were taken: the word that stands where a card or a tag goes follows its field's rule
    from check import Rand

    r = Rand(23)
    for _ in range(60):
        assert typed({"cmd": "unenrol", "tag": _cased(r, "all")})["tag"] == "all"
        assert typed({"cmd": "enrol", "card": _cased(r, "cancel")})["card"] == "cancel"
        uid = "".join(r.choice("0123456789abcdef") for _ in range(r.choice((8, 14, 20))))
        assert typed({"cmd": "unenrol", "tag": _cased(r, uid)})["tag"] == uid.upper()
        card = r.choice(("7h", "10c", "qs", "x", "td"))
        assert typed({"cmd": "enrol", "card": _cased(r, card)})["card"] == card.upper().replace(
            "T", "10"
        )
        # words (command words, games, choices) are lower case: a refusal names them
        word = _cased(r, r.choice(("undo", "pause", "snapshot")))
        if word != word.lower():
            why = str(raises(SettingsError, typed, {"cmd": word}, "tock"))
            assert "unknown command" in why and "undo" in why, why
        mode = _cased(r, "on")
        if mode != "on":
            why = str(raises(SettingsError, typed, {"cmd": "calibrate", "mode": mode}))
            assert "one of on off" in why, why
    for bad in ("al", "alll", "a11", "ALL!"):
        assert "tag must be" in str(raises(SettingsError, typed, {"cmd": "unenrol", "tag": bad}))


def test_H4_a_big_bet_below_the_big_blind_is_refused_blinds_too():
    # ADV5-9: fixed limit with big-bet=10 and blinds 25/50 took turn bets of 10, and `blinds`
    # raised the blinds past a big bet set. Seeded blinds and big bets
    from check import Rand

    r = Rand(9)
    for _ in range(40):
        small = r.int(1, 500)
        bet = r.int(1, 2000)
        given = {"blinds": "%d/%d" % (small, 2 * small), "structure": "fixed-limit"}
        given["big-bet"] = bet
        if bet < 2 * small:
            assert "below the big blind" in refused("holdem", **given)
        else:
            assert check("holdem", given)["big-bet"] == bet
    s = check("holdem", {"structure": "fixed-limit", "big-bet": 10, "blinds": "1/2"})
    s["blinds"] = "25/50"  # what `blinds 25/50` checks (tracker._blinds)
    assert "big-bet 10 is below the big blind 50" in str(raises(SettingsError, check, "holdem", s))
