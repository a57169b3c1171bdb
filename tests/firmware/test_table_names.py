# `new ... names=` (issue 30: the scoreboard names the seats at the table's `new`): a `new`
# with names done says who sits where in the table's own log, once, as one `seated` event
# after the game's own (a switch's `game` event); a `new` the table refuses (its settings)
# says nothing of names; names of the wrong form are refused before anything changes. The
# names as the scoreboard sends them (a JSON object) and as a person types them (R=Ana,B=Luis)
# alike. Seeded: games, seats and names drawn. Runs under pytest and under MicroPython.
import json

from check import Rand, Wire

from link import frame
from link.link import Link
from link.ring import Ring
from sim import VirtualClock

GAMES = ("tock", "weykick", "holdem", "pocha")
SEATS = {"tock": ("R", "G", "B", "Y"), "weykick": ("A", "B"), "holdem": ("1", "2", "3"),
         "pocha": ("1", "2", "3", "4")}  # fmt: skip
PEOPLE = ("Ana", "Luis", "Bo", "Zoë", "Ama K.", "x" * 16, "Dmitri", "Jo-Ann")


def board(game):
    from games import make_game
    from table import Table

    w = Wire()
    w.read = lambda: b""
    link = Link(w.write, "5ea7", ring=Ring(4096, 64))
    t = Table(w, VirtualClock(), link, make_game(game, link.emit, (), {}))
    for _ in range(10):
        t.step()
        t.clock.sleep_ms(5)
    w.out = bytearray()
    return t, w


def said(t, w, cmd, before=None):
    t.receive(frame.encode(json.dumps(cmd).encode()))
    if before is not None:  # nothing changed (the pass after it moves a match's clock)
        assert t.game.state() == before, cmd
    t.step()
    out = [json.loads(p) for p in frame.Decoder().feed(bytes(w.out))]
    w.out = bytearray()
    return [e for e in out if e["type"] != "heartbeat"]


def names_for(r, game):
    seats = list(SEATS[game])
    r.shuffle(seats)
    people = list(PEOPLE)
    r.shuffle(people)
    n = r.int(1, len(seats))
    return {seats[i]: people[i] for i in range(n)}


def test_a_new_with_names_says_who_sits_where_once():
    r = Rand(30)
    n = 0
    for game in GAMES:
        for other in GAMES:
            t, w = board(game)
            names = names_for(r, other)
            cmd = {"cmd": "new", "game": other, "id": "n%d" % n, "names": names}
            if r.below(2):  # as a person types them
                cmd["names"] = ",".join("%s=%s" % kv for kv in names.items())
            got = said(t, w, cmd)
            kinds = [e["type"] for e in got]
            assert kinds.count("seated") == 1, (game, other, got)
            seated = [e for e in got if e["type"] == "seated"][0]
            assert seated["names"] == names and "seq" in seated, seated
            if other != game:  # the switch's own event first, then who sits where
                assert kinds.index("game") < kinds.index("seated"), kinds
            answer = [(e["id"], e["ok"]) for e in got if e["type"] == "answer"]
            assert answer == [("n%d" % n, True)], got
            again = said(t, w, cmd)  # sent again with its id: answered, not done again
            assert [e["type"] for e in again] == ["answer"], again
            n += 1
    assert n == 16


def test_names_of_the_wrong_form_or_a_refused_new_say_nothing():
    r = Rand(31)
    bad = (
        "R",  # no =
        "R=Ana,R=Bo",  # a seat twice
        {"R": "Ana", "B": "Ana"},  # a name twice
        {"R": "x" * 17},
        {"R!": "Ana"},
        {},
        {"R": " Ana"},
        {"R": "A\nna"},
        ["R", "Ana"],
        7,
        dict(("s%d" % i, "p%d" % i) for i in range(11)),
    )
    for i, names in enumerate(bad):
        game = r.choice(GAMES)
        t, w = board(game)
        before, seq = t.game.state(), t.link.seq
        cmd = {"cmd": "new", "game": r.choice(GAMES), "id": i, "names": names}
        got = said(t, w, cmd, before)
        assert [(e["type"], e["ok"]) for e in got] == [("answer", False)], (names, got)
        assert "names" in got[0]["why"], got
        assert t.link.seq == seq, names
    t, w = board("pocha")  # settings the table refuses: no game, no names said
    got = said(t, w, {"cmd": "new", "game": "pocha", "id": 99, "players": 7, "deck": 40,
                      "dealer": "1", "names": {"1": "Ana"}})  # fmt: skip
    assert [e["type"] for e in got] == ["answer"] and not got[0]["ok"], got
