# The saved game (issue 8): write-then-rename with a CRC, a corrupt file recognised, the
# watchdog fed on every pass of the table loop.
import os

from check import Wire, scratch
from store import Store

from sim import VirtualClock

DIR = scratch("store")


def fresh():
    try:
        for name in os.listdir(DIR):
            os.remove(DIR + "/" + name)
    except OSError:
        pass
    return Store(DIR)


def test_save_then_load_round_trips():
    st = fresh()
    st.save({"game": "tock", "played": ["7H"]}, 0)
    assert Store(DIR).load() == {"game": "tock", "played": ["7H"]}
    assert "state.tmp" not in os.listdir(DIR)  # the write went to tmp, then was renamed


def test_a_damaged_file_is_not_believed():
    st = fresh()
    st.save({"game": "tock", "played": ["7H"]}, 0)
    with open(DIR + "/state.json") as f:
        text = f.read()
    with open(DIR + "/state.json", "w") as f:
        f.write(text.replace("7H", "8H"))
    again = Store(DIR)
    assert again.load() is None and "unreadable" in again.error
    with open(DIR + "/state.json", "w") as f:
        f.write(text[: len(text) // 2])  # cut short by a power cut
    again = Store(DIR)
    assert again.load() is None and "unreadable" in again.error


def test_a_cut_during_a_save_keeps_the_previous_game():
    st = fresh()
    st.save({"game": "tock", "played": ["7H"]}, 0)
    with open(DIR + "/state.tmp", "w") as f:  # the power went before the rename
        f.write('{"v":1,"crc":12,"state":{"game":"to')
    assert Store(DIR).load() == {"game": "tock", "played": ["7H"]}


def test_nothing_saved_is_no_error():
    st = fresh()
    assert st.load() is None and st.error is None


def test_write_rate_is_bounded():
    st = fresh()
    assert st.due(0)
    st.save({"game": "tock"}, 1000)
    assert not st.due(1100) and st.due(1000 + st.min_save_ms)


class Dog:
    def __init__(self):
        self.feeds = 0

    def feed(self):
        self.feeds += 1


class Quiet:
    up = True

    def read(self):
        return b""

    def write(self, data):
        pass


def test_watchdog_fed_on_every_pass():
    from link.link import Link
    from link.ring import Ring
    from table import Table

    w = Wire()
    dog = Dog()
    t = Table(Quiet(), VirtualClock(), Link(w.write, "b", ring=Ring(512, 8)), watchdog=dog)
    for _ in range(50):
        t.step()
    assert dog.feeds == 50


def tag_file(store):
    """The enrolled tags' file (enrolment.py's, in the store's folder and envelope)."""
    from enrolment import Enrolment

    return Enrolment(None, store, None)


def test_enrolled_tags_round_trip_a_line_each_and_load_as_json_too():
    import json

    st = tag_file(fresh())
    tags = [("04AABBCCDDEE%02X" % n, "es:%dB" % (n % 12 + 1)) for n in range(40)]
    assert st.save_tags(lambda: iter(tags)) is None
    got = []
    assert tag_file(Store(DIR)).load_tags(lambda u, c: got.append((u, c))) is None
    assert got == tags
    with open(DIR + "/tags.json") as f:
        text = f.read()
    assert json.loads(text)["state"]["tags"] == dict(tags)  # one envelope for every file
    assert text.count("\n") == 41 and "tags.tmp" not in os.listdir(DIR)
    assert st.save_tags(lambda: iter([])) is None  # none enrolled: a file that says so
    assert tag_file(Store(DIR)).load_tags(lambda u, c: got.append(u)) is None and len(got) == 40


def test_enrolled_tags_that_cannot_be_read_are_not_written_over():
    # a tags.json the board could not read (here: a folder; on a board: short of heap, a
    # flash read error) may be good: it is neither set aside nor replaced by what comes next
    fresh()
    os.mkdir(DIR + "/tags.json")
    st = tag_file(Store(DIR))
    try:
        why = st.load_tags(lambda u, c: None)
        assert why and "not read" in why, why
        refused = st.save_tags(lambda: iter([("04AABBCC", "7H")]))
        assert refused and "restart the board" in refused, refused
        assert "tags.bad" not in os.listdir(DIR)
    finally:
        os.rmdir(DIR + "/tags.json")
