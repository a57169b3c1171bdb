# Enrolment that lasts (issue 17): `enrol card=7H`, a tag laid, `enrolled` with its UID and
# card; kept on the board's flash (enrolment.py, tags.json) across resets; a tag awaited when the
# power goes is awaited still; bad input refused with an `error` that says why, the table
# going on. Table scripts through the simulated board (real drivers, reader chip model, link,
# store), on a flash folder of each test's own.
import json
import os

from check import Rand, scratch

from sense.cards import ENROL_MAX
from sim.run import play

SCRATCH = scratch("enrol")
HEAD = "table tock players=4\nwait 200\n"
A = "04AABBCCDDEE01"  # tags no hardware/tags.json names
B = "04AABBCCDDEE02"
C = "04AABBCCDD"


def _run(script, flash, name="e.table"):
    path = SCRATCH + "/" + name
    with open(path, "w") as f:
        f.write(script)
    return [e for e in play(path, "hardware", state=flash) if e["type"] != "heartbeat"]


def _fresh(name):
    flash = SCRATCH + "/" + name
    os.mkdir(flash)
    return flash


def _of(evs, kind, what=None):
    return [e for e in evs if e["type"] == kind and (what is None or e.get("what") == what)]


def _on_flash(flash):
    with open(flash + "/tags.json") as f:
        return json.load(f)["state"]["tags"]


def test_enrolled_says_uid_and_card_and_lasts_across_a_reset():
    flash = _fresh("lasts")
    evs = _run(
        HEAD + "send enrol card=AH\ntag %s\nsend enrol card=es:12B\ntag %s\ngather\nreset\n"
        "wait 300\ntag %s\nwait 300\n" % (A, B, A),
        flash,
    )
    got = [(e["uid"], e["card"], e["enrolled"]) for e in _of(evs, "enrolled")]
    assert got == [(A, "AH", 1), (B, "es:12B", 2)], evs
    assert _on_flash(flash) == {A: "AH", B: "es:12B"}
    # after the reset the tag is still the ace: Tock takes it as a card, not an unknown tag
    cards = _of(evs, "card")
    assert [c["card"] for c in cards] == ["AH"], evs
    assert _of(evs, "error") == [], _of(evs, "error")


def test_enrolled_tags_are_read_at_every_boot_of_the_same_flash():
    flash = _fresh("boots")
    _run(HEAD + "send enrol card=KS\ntag %s\n" % A, flash)
    evs = _run(HEAD + "tag %s\nwait 300\n" % A, flash, "again.table")  # a new power-up
    assert [c["card"] for c in _of(evs, "card")] == ["KS"], evs


def test_a_tag_awaited_when_the_power_goes_is_awaited_still():
    flash = _fresh("awaited")
    evs = _run(HEAD + "send enrol card=QD\nreset\nwait 300\ntag %s\nwait 300\n" % A, flash)
    assert [(e["uid"], e["card"]) for e in _of(evs, "enrolled")] == [(A, "QD")], evs
    assert _on_flash(flash) == {A: "QD"}


def test_a_tag_that_is_another_card_is_refused_and_the_right_one_is_awaited():
    flash = _fresh("twice")
    evs = _run(
        HEAD + "send enrol card=7H\ntag %s\nwait 700\nsend enrol card=8H\ntag %s\nwait 700\n"
        "tag %s\nwait 700\nsend enrol card=7H\ntag %s\nwait 700\n" % (A, A, B, A),
        flash,
    )
    (refused,) = _of(evs, "error", "enrol")
    assert refused["uid"] == A and refused["card"] == "8H"
    assert "is 7H already" in refused["why"] and "enrol cancel" in refused["why"]
    # the same tag again as the same card: enrolled again, nothing new counted
    got = [(e["uid"], e["card"], e["enrolled"]) for e in _of(evs, "enrolled")]
    assert got == [(A, "7H", 1), (B, "8H", 2), (A, "7H", 2)], evs
    assert _on_flash(flash) == {A: "7H", B: "8H"}


def test_a_tag_hardware_names_is_refused_as_another_card():
    with open("hardware/tags.json") as f:
        uid, card = next(iter(json.load(f)["tags"].items()))
    flash = _fresh("factory")
    other = "2C" if card != "2C" else "3C"
    evs = _run(HEAD + "send enrol card=%s\ntag %s\nwait 300\n" % (other, uid), flash)
    (refused,) = _of(evs, "error", "enrol")
    assert ("is %s already" % card) in refused["why"]
    # no advice the board would refuse: such a tag cannot be unenrolled (F0c, round 4)
    assert "unenrol" not in refused["why"] and "enrol cancel" in refused["why"]
    assert _of(evs, "enrolled") == []


def test_an_awaited_tag_is_cancelled_and_the_deck_plays_again():
    # F0c (adversarial round 4): an `enrol` nobody answers took every card laid after it as
    # the tag, through `new`, `unenrol all` and resets. `enrol cancel` ends the wait, on
    # flash too; the card the board refused as a tag lies on the pile, not played at a reset
    with open("hardware/tags.json") as f:
        tags = json.load(f)["tags"]
    ace = [u for u in tags if tags[u] == "AS"][0]
    flash = _fresh("cancel")
    evs = _run(
        HEAD + "send enrol card=7H\ntag %s\nwait 300\nsend enrol cancel\nreset\nwait 1500\n"
        "card KH\nwait 300\ntag %s\nwait 300\n" % (ace, A),
        flash,
    )
    (refused,) = _of(evs, "error", "enrol")
    assert refused["card"] == "7H" and refused["uid"] == ace
    assert [c["card"] for c in _of(evs, "card")] == ["KH"], evs  # not AS, from the pile
    assert _of(evs, "enrolled") == []
    assert [e["uid"] for e in _of(evs, "error", "unknown-tag")] == [A]  # not enrolled as 7H


def test_enrol_cancel_with_nothing_awaited_is_fine():
    flash = _fresh("cancel0")
    evs = _run(HEAD + "send enrol card=cancel\ncard KH\nwait 300\n", flash)
    assert [e["ok"] for e in evs if e["type"] == "answer"] == [True]
    assert [c["card"] for c in _of(evs, "card")] == ["KH"]


def test_unenrol_forgets_a_tag_and_all_on_flash_too():
    flash = _fresh("unenrol")
    evs = _run(
        HEAD + "send enrol card=7H\ntag %s\nsend enrol card=8H\ntag %s\nsend unenrol %s\n"
        "wait 700\nsend enrol card=9H\ntag %s\nwait 300\n" % (A, B, A, A),
        flash,
    )
    assert _on_flash(flash) == {B: "8H", A: "9H"}, evs
    flash = _fresh("unenrol-all")
    evs = _run(
        HEAD + "send enrol card=8H\ntag %s\nsend unenrol all\ngather\nwait 300\ntag %s\n"
        "wait 300\nsend unenrol %s\n" % (B, B, B),
        flash,
    )
    assert _on_flash(flash) == {}
    assert [e["what"] for e in _of(evs, "error")] == ["unknown-tag"], evs
    assert [a.get("why") for a in _of(evs, "answer")][-1] == "tag %s is not enrolled" % B


def test_a_damaged_tag_file_is_said_set_aside_and_the_table_plays():
    r = Rand(17)
    good = '{"v":2,"crc":0,"state":{"tags":{\n"%s":"7H"\n}}}' % A
    damaged = (
        "",
        "{",
        good,  # a wrong CRC
        good[: r.below(len(good))],  # cut short by the power going
        "\x00\xff" * 40,
    )
    for i in range(len(damaged)):
        flash = _fresh("damaged%d" % i)
        with open(flash + "/tags.json", "w") as f:
            f.write(damaged[i])
        evs = _run(HEAD + "send enrol card=8H\ntag %s\nwait 300\n" % B, flash, "d.table")
        (err,) = _of(evs, "error", "enrolled-tags")
        assert "unreadable" in err["why"] and "tags.bad" in err["why"], err
        assert os.stat(flash + "/tags.bad")  # kept for a person to look at
        assert _on_flash(flash) == {B: "8H"}  # the table enrols on
        assert [e["uid"] for e in _of(evs, "enrolled")] == [B]


def test_entries_that_are_not_a_uid_and_a_card_are_left_out_and_said():
    from enrolment import Enrolment
    from store import Store

    flash = _fresh("entries")
    entries = [(A, "7H"), ("zz", "8H"), (B, "7Z"), (C, "QQ"), ("04AABBCC", "es:1O")]
    Enrolment(None, Store(flash), None).save_tags(lambda: iter(entries))
    evs = _run(HEAD + "tag 04AABBCC\nwait 300\n", flash)
    (err,) = _of(evs, "error", "enrolled-tags")
    assert "left out" in err["why"] and "zz" in err["why"], err
    assert "es:1O" not in err["why"]
    # Tock plays French cards: the Spanish tag read is refused by the game, not unknown
    assert _of(evs, "error", "unknown-tag")[0]["uid"] == "04AABBCC"


def test_a_full_table_refuses_the_next_tag_and_says_how_to_make_room():
    from enrolment import Enrolment
    from store import Store

    flash = _fresh("full")
    Enrolment(None, Store(flash), None).save_tags(
        lambda: (("04%012X" % n, "5S") for n in range(ENROL_MAX))
    )
    evs = _run(
        HEAD + "send enrol card=6S\ntag %s\nwait 300\nsend enrol card=5S\ntag 04%012X\n"
        "wait 300\n" % (A, 3),
        flash,
    )
    (full,) = _of(evs, "error", "enrol")
    assert ("holds %d enrolled tags" % ENROL_MAX) in full["why"] and "unenrol" in full["why"]
    # one enrolled already, as that card: no room needed
    assert [e["uid"] for e in _of(evs, "enrolled")] == ["04%012X" % 3]
    assert len(_on_flash(flash)) == ENROL_MAX


def test_a_new_game_ends_the_wait_for_a_tag_other_commands_leave_it():
    # An `enrol` waiting for its tag ended only on `enrol cancel`: after a `new`, the first
    # card of the new game was refused as the awaited tag. A `new` ends the wait (an
    # `enrol_ended` event says so, on flash too: a reset after it waits no more); the
    # game's own commands leave it (a card enrolled mid-game, the game going on around it).
    # Seeded: which commands come while the tag is awaited, a reset or not.
    r = Rand(29)
    for i in range(6):
        flash = _fresh("ended%d" % i)
        before = "".join(
            "send %s\n"
            % r.choice(("undo", "selftest", "config settle_ms=100"))  # (Tock takes no pause)
            for _ in range(r.below(3))
        )
        game = r.choice(("tock players=4", "tock players=2", "weykick"))
        reset = "reset\nwait 1500\n" if r.below(2) else ""
        evs = _run(
            HEAD
            + "send enrol card=7H\n"
            + before
            + "send new %s\n%s" % (game, reset)
            + "wait 300\ntag %s\nwait 300\n" % A,
            flash,
        )
        assert [(e["card"], e["why"]) for e in _of(evs, "enrol_ended")] == [("7H", "a new game")]
        assert _of(evs, "enrolled") == [], (game, evs)
        assert _of(evs, "error", "enrol") == []
        # the tag laid after it is a card of the game (none: refused as unknown, or no cards)
        assert _of(evs, "error", "unknown-tag" if game != "weykick" else "no-cards"), evs
        assert "tags.json" not in os.listdir(flash) or _on_flash(flash) == {}
        # the same commands without the `new`: still waiting, the tag is enrolled as 7H
        flash = _fresh("waits%d" % i)
        evs = _run(HEAD + "send enrol card=7H\n" + before + "tag %s\nwait 300\n" % A, flash)
        assert [(e["uid"], e["card"]) for e in _of(evs, "enrolled")] == [(A, "7H")], evs
        assert _of(evs, "enrol_ended") == []
