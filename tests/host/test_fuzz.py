"""Fuzzing (issue 8): every parser that takes bytes or text from outside gets random and
mutated input, and must answer with its own clear error, never crash or hang."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from plateau.fw.games.tock.rules import Position, PositionError
from plateau.fw.link import frame
from plateau.fw.link.commands import all_words
from plateau.fw.link.link import Link
from plateau.fw.link.ring import Ring
from plateau.fw.sense.cards import CardReads
from plateau.fw.sim import VirtualClock
from plateau.fw.sim.script import ScriptError, parse
from plateau.fw.sim.words import parse_words
from plateau.fw.table import Table

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
GOOD_FRAME = frame.encode(b'{"cmd":"snapshot","id":1}')


def mutate(data: bytes, edits: list[tuple[int, int]]) -> bytes:
    b = bytearray(data)
    for pos, val in edits:
        if not b:
            break
        i = pos % len(b)
        if val < 256:
            b[i] = val  # corrupt
        elif val < 400:
            del b[i]  # drop
        else:
            b.insert(i, b[i])  # duplicate
    return bytes(b)


@FAST
@given(st.binary(max_size=600))
def test_frame_decoder_never_crashes_on_random_bytes(data):
    d = frame.Decoder(max_frame=256)
    for payload in d.feed(data):
        assert isinstance(payload, bytes)  # only frames whose CRC holds come out


@FAST
@given(
    st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 500)), max_size=6), st.integers(0, 3)
)
def test_frame_decoder_recovers_after_mutated_frames(edits, reorder):
    frames = [frame.encode(b'{"n":%d}' % i) for i in range(4)]
    if reorder:
        frames[reorder], frames[0] = frames[0], frames[reorder]
    d = frame.Decoder()
    d.feed(mutate(b"".join(frames), edits))
    # noise that ate the last delimiter costs the frame after it too (it is the frame the
    # noise touched); the one after that is whole again
    got = d.feed(GOOD_FRAME + GOOD_FRAME)
    assert got[-1:] == [b'{"cmd":"snapshot","id":1}']


@FAST
@given(st.binary(max_size=300))
def test_board_answers_any_payload_with_an_answer_or_nothing(payload):
    out = bytearray()
    link = Link(out.extend, "f00d", ring=Ring(512, 8))
    Table(None, VirtualClock(), link).receive(frame.encode(payload))  # a board with no game
    for ev in frame.Decoder().feed(out):
        ev = json.loads(ev)
        assert ev["type"] in ("answer", "hello", "snapshot", "gap", "error")


@FAST
@given(st.lists(st.text(max_size=12), max_size=5))
def test_command_words_parse_or_say_why(words):
    try:
        cmd = parse_words(words)
    except ValueError as e:
        assert str(e)
    else:
        assert cmd["cmd"] in all_words()


@FAST
@given(st.text(max_size=400))
def test_table_script_parser_rejects_with_a_line_number(text):
    try:
        parse(text)
    except ScriptError as e:
        assert e.line >= 1 and str(e).startswith(f"line {e.line}: ")


SCRIPT = "table tock players=4\ncard 7H\nmove R18 G7\nwait 300\nglitch R3 2\nbutton undo\n"


@FAST
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(32, 500)), max_size=5))
def test_table_script_parser_on_mutated_scripts(edits):
    text = mutate(SCRIPT.encode(), edits).decode("utf-8", errors="replace")
    try:
        parse(text)
    except ScriptError as e:
        assert e.line >= 1


POSITION = json.dumps(Position.initial().to_dict())


@FAST
@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(32, 500)), max_size=5))
def test_T4_parser_on_mutated_positions(edits):
    text = mutate(POSITION.encode(), edits).decode("utf-8", errors="replace")
    try:
        p = Position.parse(text)
    except PositionError as e:
        assert str(e)
    else:
        assert Position.parse(p.dumps()) == p


@FAST
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=6),
        lambda c: st.lists(c, max_size=5) | st.dictionaries(st.text(max_size=8), c, max_size=6),
        max_leaves=30,
    )
)
def test_T4_parser_on_random_json(obj):
    try:
        Position.from_dict(obj)
    except PositionError as e:
        assert str(e)


class Reader:
    power_ups = 0  # the field never restarts here: every read is a card laid
    quiet = 0

    def __init__(self, uids):
        self.uids = list(uids)

    def busy(self):
        return False

    def poll(self):
        return self.uids.pop(0) if self.uids else None


@FAST
@given(st.lists(st.binary(min_size=0, max_size=10), max_size=10))
def test_tag_reader_with_random_uids(uids):
    reads = CardReads(Reader(uids), {"04A3192261AB80": "7H"})
    now = 0
    for _ in range(len(uids) + 1):
        now += 1000
        got = reads.poll(now)
        if got is not None:
            kind, card, uid = got
            if kind == "two":  # two tags answered with no empty search between: the spot's pair
                cards, uids_seen = card, uid
            else:
                assert kind == "card", got
                cards, uids_seen = [card], [uid]
            assert all(c in (None, "7H") for c in cards), got
            assert all(c in "0123456789ABCDEF" for u in uids_seen for c in u), got


class ByteByByte:
    """The decoder as the board first had it, a byte at a time: the plain reference the one
    Decoder (find() and block copies, on the board and the host) is held to."""

    def __init__(self, max_frame):
        self.buf = bytearray()
        self.max = max_frame
        self.over = False
        self.errors = []

    def feed(self, data):
        out = []
        for b in data:
            if b:
                if len(self.buf) < self.max:
                    self.buf.append(b)
                else:
                    self.over = True
                continue
            if self.over:
                self.errors.append(f"frame longer than {self.max} bytes")
            elif self.buf:
                try:
                    out.append(frame.check(bytes(self.buf)))
                except ValueError as e:
                    self.errors.append(str(e))
            self.buf = bytearray()
            self.over = False
        return out


def test_the_decoder_agrees_with_a_byte_by_byte_reading_however_the_stream_is_cut():
    """Seeded streams of good frames, corrupted ones, noise, runs of zeros and frames too
    long, fed in random pieces: the same payloads, the same errors, in the same order."""
    import random

    rng = random.Random(21)
    for _ in range(400):
        parts = []
        for _ in range(rng.randint(0, 12)):
            kind = rng.random()
            if kind < 0.5:
                body = bytes(rng.randrange(256) for _ in range(rng.randint(0, 80)))
                parts.append(frame.encode(body))
            elif kind < 0.65:
                f = bytearray(frame.encode(b'{"n":%d}' % rng.randrange(99)))
                f[rng.randrange(1, len(f) - 1)] = rng.randrange(1, 256)
                parts.append(bytes(f))
            elif kind < 0.8:
                parts.append(bytes(rng.randrange(256) for _ in range(rng.randint(1, 40))))
            elif kind < 0.9:
                parts.append(bytes(rng.randint(1, 3)))
            else:
                parts.append(bytes(rng.randint(1, 255) for _ in range(rng.randint(60, 200))))
        stream = b"".join(parts)
        cap = rng.choice([64, 128, 1024])
        d, ref = frame.Decoder(max_frame=cap), ByteByByte(cap)
        got, want, errors = [], [], []
        i = 0
        while i < len(stream):
            k = rng.randint(1, 70)
            got += d.feed(stream[i : i + k])
            if d.last_error:
                errors.append(d.last_error)
            want += ref.feed(stream[i : i + k])
            i += k
        assert got == want
        assert d.errors == len(ref.errors)
        assert set(errors) <= set(ref.errors)
