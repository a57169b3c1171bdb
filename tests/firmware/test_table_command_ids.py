# One check of a command's id (P4; issue 34 point 3): every command word, hello and snapshot
# included, sent over the link with an id the link cannot echo (true and false, floats, huge
# numbers, long text, lists, objects, null, nesting) is refused, answered with id null, and
# changes nothing: no event, no hello, no snapshot, the game as it was. Until this check was
# one, `snapshot` with a 900-character id was answered `ok` with id null and a hello with
# id true was greeted, where the other words refused the same ids. Seeded: the ids are drawn
# for each word of each game; a good id on the same words is still echoed. Runs under pytest
# and under MicroPython.
import json

from check import Rand, Wire

from link import frame
from link.commands import all_words
from link.link import BAD_ID, Link
from link.ring import Ring
from sim import VirtualClock

GAMES = ("tock", "weykick", "holdem", "pocha")
PER_WORD = 6  # bad ids drawn for each word of each game


def bad_id(r):
    """An id no answer can carry, as JSON text: drawn from each kind the host could send."""
    k = r.below(12)
    if k == 0:
        return r.choice(("true", "false"))
    if k == 1:
        return r.choice(("1.5", "-0.0", "0.0", "1e3", "2.5e-7", "1e400"))  # 1e400: inf
    if k == 2:  # whole numbers past the board's small ints (2**30), and far past them
        n = (1 << 30) + r.below(1000)
        return r.choice(("%d", "-%d", "%d000000000000000000")) % n
    if k == 3:
        return '"%s"' % ("x" * r.int(33, 40))  # just too long
    if k == 4:
        return '"%s"' % ("y" * r.int(100, 900))  # issue 34: 900 characters
    if k == 5:
        return "null"
    if k == 6:
        return r.choice(("[]", "[1]", '["a"]', "[1,2,3]"))
    if k == 7:
        return r.choice(("{}", '{"id":1}', '{"a":[1]}'))
    if k == 8:  # nested
        depth = r.int(2, 12)
        return "[" * depth + "1" + "]" * depth
    if k == 9:
        return "[%s]" % bad_id(r)
    if k == 10:
        return '{"x":%s}' % bad_id(r)
    return r.choice(("true", "1.0", '"%s"' % ("z" * 33)))


def board(game):
    from games import make_game
    from table import Table

    w = Wire()
    w.read = lambda: b""
    link = Link(w.write, "1d5", ring=Ring(4096, 64))
    t = Table(w, VirtualClock(), link, make_game(game, link.emit, (), {}))
    for _ in range(20):
        t.step()  # the game under way (Pocha's first hand starts at its first pass)
        t.clock.sleep_ms(5)
    w.out = bytearray()
    return t, w


def frames(w):
    out = [json.loads(p) for p in frame.Decoder().feed(bytes(w.out))]
    w.out = bytearray()
    return out


def test_P4_a_bad_id_is_refused_the_same_for_every_word_hello_and_snapshot_included():
    r = Rand(34)
    sent = 0
    for game in GAMES:
        t, w = board(game)
        words = all_words() + ["hello", "snapshot", "fly", "bye", ""]
        for word in words:
            for _ in range(PER_WORD):
                cid = bad_id(r)
                extra = r.choice(("", ',"seq":0', ',"seat":"1"', ',"card":"7H"', ',"x":1'))
                payload = '{"cmd":%s,"id":%s%s}' % (json.dumps(word), cid, extra)
                before = t.game.state()
                seq = t.link.seq
                t.receive(frame.encode(payload.encode()))
                assert t.game.state() == before, (game, payload)
                t.step()  # the pass after it: nothing the command did would wait
                got = [e for e in frames(w) if e["type"] != "heartbeat"]
                assert [(e["type"], e["id"], e["ok"], e["why"]) for e in got] == [
                    ("answer", None, False, BAD_ID)
                ], (game, payload, got)
                assert t.link.seq == seq, (game, payload)
                sent += 1
    assert sent == len(GAMES) * len(words) * PER_WORD


def test_P4_a_good_id_on_the_same_words_is_echoed():
    r = Rand(35)
    for game in GAMES:
        t, w = board(game)
        for word in all_words() + ["hello", "snapshot"]:
            if word in ("repl", "new"):
                continue  # repl ends the loop; new starts a game: both answered with ids below
            cid = r.choice((r.below(1 << 30), -r.below(1 << 30), "h%d" % r.below(1000), "x" * 32))
            payload = json.dumps({"cmd": word, "id": cid})
            t.receive(frame.encode(payload.encode()))
            got = frames(w)
            if word == "hello":  # a hello is answered by the board's hello, not an answer
                assert [e["type"] for e in got][:2] == ["hello", "snapshot"], got
                continue
            answers = [e for e in got if e["type"] == "answer"]
            assert [a["id"] for a in answers] == [cid], (game, payload, got)
        t.receive(frame.encode(b'{"cmd":"new","id":7}'))
        assert [e["id"] for e in frames(w) if e["type"] == "answer"] == [7]
