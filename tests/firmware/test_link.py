# P1 (framing), P2 (numbering, ring, hello/gap/snapshot), P4 (commands) on the board's side.
import json

from check import Wire, raises

from link import frame
from link.link import Link
from link.ring import Ring


def events(data):
    return [json.loads(p) for p in frame.Decoder().feed(data)]


def test_P1_cobs_round_trip_has_no_zero_bytes():
    for data in (b"", b"\x00", b"\x00\x00", b"abc", bytes(range(256)) * 3, b"\xff" * 600):
        enc = frame.cobs_encode(data)
        assert 0 not in enc
        assert frame.cobs_decode(enc) == data


def test_P1_decoder_resynchronises_after_noise():
    d = frame.Decoder()
    good = frame.encode(b'{"type":"x"}')
    noise = b"Traceback (most recent call last):\r\n  boot noise \x00\xff\x13\x00"
    got = d.feed(noise + good + b"\x01\x02garbage" + b"\x00" + good)
    assert got == [b'{"type":"x"}', b'{"type":"x"}']
    assert d.errors == 3


def test_P1_noise_costs_only_the_frame_it_touches():
    d = frame.Decoder()
    frames = [frame.encode(b'{"n":%d}' % i) for i in range(3)]
    # noise with no delimiter of its own runs into frame 1 and spoils it, and only it
    got = d.feed(frames[0] + b"\xfe\x99line noise" + frames[1] + frames[2])
    assert got == [b'{"n":0}', b'{"n":2}']
    assert d.errors == 1


def test_P1_crc_catches_a_flipped_bit():
    enc = bytearray(frame.encode(b'{"type":"move"}'))
    enc[3] ^= 0x10
    d = frame.Decoder()
    assert d.feed(bytes(enc)) == []
    assert d.errors == 1


def test_P1_overlong_frame_is_dropped_not_crashed():
    d = frame.Decoder(max_frame=64)
    got = d.feed(b"\x05" * 500 + b"\x00" + frame.encode(b'{"a":1}'))
    assert got == [b'{"a":1}']
    assert "longer" in d.last_error


def test_P2_ring_keeps_the_last_events_in_order():
    r = Ring(1000, 16)
    for s in range(1, 101):
        r.add(s, b"e%d" % s + b"." * (s % 40))
    assert r.last == 100 and len(r) <= 16
    for s in range(r.first, 101):
        assert bytes(r.get(s)).startswith(b"e%d" % s)
    assert r.get(r.first - 1) is None


def test_P2_ring_holds_at_least_256_move_sized_events():
    r = Ring()
    body = b'"type":"move","card":"7H","parts":[["R3","R8"],["G1","G3"]]}'
    for s in range(1, 1000):
        r.add(s, body)
    assert len(r) >= 256


def test_P2_ring_refuses_a_skipped_number():
    r = Ring(100, 4)
    r.add(1, b"a")
    raises(ValueError, r.add, 3, b"c")


def test_P2_events_are_numbered_and_carry_the_boot_id():
    w = Wire()
    link = Link(w.write, "b00710ad")
    link.emit({"type": "card", "card": "7H"})
    link.emit({"type": "discard", "card": "7H"})
    evs = events(w.out)
    assert [(e["boot"], e["seq"], e["type"]) for e in evs] == [
        ("b00710ad", 1, "card"),
        ("b00710ad", 2, "discard"),
    ]


def test_P2_hello_resends_exactly_what_the_host_missed():
    w = Wire()
    link = Link(w.write, "feed0001")
    for i in range(5):
        link.emit({"type": "card", "n": i})
    w.out[:] = b""
    link.receive(frame.encode(b'{"cmd":"hello","boot":"feed0001","seq":3}'))
    evs = events(w.out)
    assert [e["type"] for e in evs] == ["hello", "snapshot", "card", "card"]
    assert [e["seq"] for e in evs[2:]] == [4, 5]


def test_P2_gap_when_the_host_missed_more_than_the_ring():
    w = Wire()
    link = Link(w.write, "feed0002", ring=Ring(400, 8))
    for i in range(20):
        link.emit({"type": "card", "n": i})
    w.out[:] = b""
    link.receive(frame.encode(b'{"cmd":"hello","boot":"other","seq":17}'))
    evs = events(w.out)
    assert evs[1]["type"] == "gap"
    assert evs[1]["from"] == 1 and evs[1]["to"] == link.ring.first - 1
    assert evs[2]["type"] == "snapshot"
    assert [e["seq"] for e in evs[3:]] == list(range(link.ring.first, 21))


def test_P3_heartbeat_at_least_every_second():
    from clock import VirtualClock

    w = Wire()
    link = Link(w.write, "feed0003")
    clock = VirtualClock()
    for _ in range(2000):  # 10 s in 5 ms steps
        link.tick(clock)
        clock.sleep_ms(5)
    beats = [e["up"] for e in events(w.out) if e["type"] == "heartbeat"]
    assert len(beats) >= 10
    assert max(b - a for a, b in zip(beats, beats[1:])) <= 1000


def test_P4_malformed_commands_are_refused_with_a_reason():
    w = Wire()
    link = Link(w.write, "feed0004")
    for bad in (b"not json", b"[1,2]", b'{"nocmd":1}', b'{"cmd":"hello","seq":-4}'):
        w.out[:] = b""
        link.receive(frame.encode(bad))
        (ans,) = events(w.out)
        assert ans["type"] == "answer" and ans["ok"] is False and ans["why"]


def test_P4_unknown_command_is_refused_and_known_one_answered():
    w = Wire()
    link = Link(w.write, "feed0005")
    link.on_command = lambda cmd: None if cmd["cmd"] == "undo" else "unknown command"
    link.receive(frame.encode(b'{"cmd":"undo","id":7}') + frame.encode(b'{"cmd":"fly","id":8}'))
    a, b = events(w.out)
    assert (a["id"], a["ok"]) == (7, True)
    assert (b["id"], b["ok"], b["why"]) == (8, False, "unknown command")


def test_P1_garbage_from_the_host_becomes_one_error_not_a_crash():
    w = Wire()
    link = Link(w.write, "feed0006")
    link.receive(b"\x03\x03\x01garbage\x00")
    (err,) = events(w.out)
    assert err["type"] == "error" and err["what"] == "link"
