# The table on Wi-Fi (issue 30), whole: power.power_up's table set up with the `wifi`
# command over its USB link, joining the simulated room's network (sim/wlan.py behind the real
# driver, hal/wlan.py) and publishing through the real client (link/mqtt.py) to a broker the
# test plays on a socket of its own (mqttkit.Script), in simulated time. What reaches the
# broker is read as the scoreboard reads it (by line, then boot and seq). Runs under pytest
# and MicroPython. The real Mosquitto, the relay's faults, whole games and kill -9:
# tests/host/test_wifi_campaign.py.
import json
import sys

from check import Wire, scratch
from mqttkit import Net, Script, connack, nodelay, pause, puback, publish, published, suback

from link import frame
from link.ring import Ring
from sim import VirtualClock

SSID, WPA, SECRET = "club-net", "wpa-pass-7731", "broker-pass-5502"


class Broker(Script):
    """The broker's end: CONNACK, SUBACK, PINGRESP as due; PUBACK for each PUBLISH unless
    held; what was published kept (topic, pid, dup, retain, payload)."""

    def __init__(self):
        Script.__init__(self)
        self.hold = False
        self.held = []
        self.msgs = []
        self.session = 0
        self.code = 0

    def accept(self):
        """A new connection takes the last one's place (a client that dropped its own)."""
        try:
            c = self.server.accept()[0]
        except OSError:
            return self.conn is not None
        if self.conn is not None:
            self.conn.close()
        c.setblocking(False)
        nodelay(c)
        self.conn, self.buf = c, bytearray()
        return True

    def send(self, data):
        if self.conn is not None:
            try:
                self.conn.send(data)
            except OSError:
                pass

    def serve(self):
        for first, body in self.pump():
            kind = first >> 4
            if kind == 1:
                self.send(connack(self.session, self.code))
            elif kind == 8:
                self.send(suback((body[0] << 8) | body[1]))
            elif kind == 12:
                self.send(b"\xd0\x00")
            elif kind == 3:
                m = published((first, body))
                self.msgs.append(m)
                if self.hold:
                    self.held.append(m[1])
                else:
                    self.send(puback(m[1]))

    def release(self):
        for pid in self.held:
            self.send(puback(pid))
        self.held = []

    def on(self, what):
        return [m for m in self.msgs if m[0] == b"plateau/t1/" + what]


class Room:
    """The simulated room: one network, its clock; boards power up in it on one flash. The
    client's sockets are mqttkit's (the board's calls on this port's sockets: CPython's poll
    has no ipoll)."""

    def __init__(self, password=WPA):
        from link import mqttconn

        mqttconn._Net = Net
        self.clock = VirtualClock()
        self.air = {SSID: [password, -61, True]}
        self.flash = scratch("uplink")
        self.broker = Broker()

    def station(self):
        from hal.wlan import Wlan
        from sim.wlan import SimWLAN

        radio = SimWLAN(self.clock, join_ms=200, auth_ms=100, lost_ms=600)
        radio.networks = self.air
        return Wlan(radio)

    def board(self, boot="b0a7d00d", ring=None):
        from power import power_up

        w = Wire()
        w.read = lambda: b""
        ring = Ring(4096, 64) if ring is None else ring
        t = power_up(w, self.clock, None, boot, ring, self.flash, "weykick", station=self.station)
        self.table, self.wire = t, w
        return t

    def send(self, **cmd):
        self.table.receive(frame.encode(json.dumps(cmd).encode()))

    def setup(self, port=None, **kw):
        self.ids = getattr(self, "ids", 0) + 1
        cmd = {"cmd": "wifi", "id": "w%d" % self.ids, "ssid": SSID, "password": WPA}
        cmd["table"] = "t1"
        cmd["broker"] = "127.0.0.1:%d" % (port or self.broker.port)
        cmd["secret"] = SECRET
        cmd.update(kw)
        self.send(**cmd)
        return self.answers()[-1]

    def run(self, passes, serve=True):
        for _ in range(passes):
            self.clock.sleep_ms(5)
            self.table.step()
            pause()
            if serve:
                self.broker.serve()

    def frames(self):
        return [json.loads(p) for p in frame.Decoder().feed(bytes(self.wire.out))]

    def answers(self):
        return [e for e in self.frames() if e["type"] == "answer"]

    def emit(self, n, start=0):
        for i in range(n):
            self.table.link.emit({"type": "note", "n": start + i})
            self.run(1)


def stream(msgs):
    """The events topic as the scoreboard folds it: by line (a repeat is not above the last
    line taken), then numbered repeats by boot and seq; (line, prev, event) of each taken."""
    out, last, seen = [], 0, set()
    for m in msgs:
        d = json.loads(m[4])
        if d["line"] <= last:
            continue
        last = d["line"]
        ev = d["event"]
        if "seq" in ev:
            if (ev["boot"], ev["seq"]) in seen:
                continue
            seen.add((ev["boot"], ev["seq"]))
        out.append((d["line"], d["prev"], ev))
    return out


def seqs(taken):
    return [ev["seq"] for _, _, ev in taken if "seq" in ev]


def test_a_board_without_wifi_loads_nothing_of_it():
    """(First of this module's tests under mpy_runner, which runs them in name order: no
    client loaded yet. The heap figure with and without Wi-Fi: tests/host/test_chip.py.)"""
    from power import power_up

    w = Wire()
    w.read = lambda: b""
    loaded = "link.mqtt" in sys.modules or "link.uplink" in sys.modules
    t = power_up(w, VirtualClock(), None, "b0a7", Ring(4096, 64), scratch("up"), "weykick")
    for _ in range(50):
        t.step()
    assert t.net is None
    if not loaded:
        for m in ("link.uplink", "link.mqtt", "link.mqttconn"):
            assert m not in sys.modules, m


def test_set_up_over_usb_it_joins_connects_and_publishes_each_event_in_the_bridge_layout():
    room = Room()
    t = room.board()
    room.emit(3)  # before the Wi-Fi is set up: still published (the ring holds them)
    ans = room.setup()
    assert ans["ok"] and ans["id"] == "w1", ans
    room.run(200)
    assert t.net is not None and t.net.client.ups == 1
    room.emit(5, 3)
    room.run(40)
    b = room.broker
    taken = stream(b.on(b"events"))
    assert seqs(taken)[:8] == [1, 2, 3, 4, 5, 6, 7, 8], seqs(taken)
    events = [ev for _, _, ev in taken if "seq" in ev and ev["type"] == "note"]
    assert [ev["n"] for ev in events] == list(range(8))
    assert all(ev["boot"] == "b0a7d00d" for ev in events)
    for line, prev, ev in taken:  # the board's lines: event N is 3N; prev the line before
        if "seq" in ev:
            assert line == 3 * ev["seq"]
    assert [p for _, p, _ in taken[1:]] == [ln for ln, _, _ in taken[:-1]]
    kinds = [ev["type"] for _, _, ev in taken]
    assert "hello" in kinds and "snapshot" in kinds and "wifi" in kinds
    hello = [ev for _, _, ev in taken if ev["type"] == "hello"][0]
    assert hello["game"] == "weykick" and hello["table"] == "t1"
    (state,) = b.on(b"state")[-1:]
    assert state[3]  # retained
    d = json.loads(state[4])
    assert d["epoch"] == "b0a7d00d" and d["hello"]["game"] == "weykick"
    assert d["snapshot"]["type"] == "snapshot"
    pres = b.on(b"presence")
    assert pres and pres[0][3] and json.loads(pres[0][4]) == {"online": True, "commands": True}
    # a quiet table says it is there every 5 s, as a bridge does (the scoreboard takes a
    # table unheard for 15 s for gone, and drives only tables it hears)
    n = len(pres)
    room.run(3000)  # 15 s, no event
    assert len(b.on(b"presence")) - n in (3, 4), len(b.on(b"presence")) - n
    b.close()


def test_a_connection_cut_with_events_in_flight_publishes_again_from_the_first_unacknowledged():
    room = Room()
    room.board()
    room.setup()
    room.run(200)
    b = room.broker
    b.hold = True
    room.emit(6)
    room.run(5)
    b.cut()  # none of the six acknowledged
    b.hold = False
    room.emit(4, 6)
    room.run(400)
    taken = stream(b.on(b"events"))
    assert seqs(taken) == sorted(set(seqs(taken)))
    notes = [ev["n"] for _, _, ev in taken if ev["type"] == "note"]
    assert notes == list(range(10)), notes
    assert room.table.net.client.ups >= 2
    assert room.table.link.acked == room.table.link.seq
    b.close()


def test_a_power_cut_publishes_again_from_what_the_flash_kept_and_loses_nothing():
    room = Room()
    room.board()
    room.setup()
    room.run(200)
    b = room.broker
    room.emit(5)
    room.run(20)
    before = room.table.link.seq  # the broker has every one up to here
    b.hold = True
    room.emit(5, 5)  # on flash, published, not acknowledged: the power goes
    room.run(3)
    b.cut()
    b.hold = False
    b.held = []
    t2 = room.board(boot="ffffffff")  # its own boot drawn, the flash's taken up
    assert t2.link.boot == "b0a7d00d" and t2.net is not None
    assert 0 < t2.link.acked <= before
    room.emit(2, 10)
    room.run(400)
    notes = [ev["n"] for _, _, ev in stream(b.on(b"events")) if ev["type"] == "note"]
    assert notes == list(range(12)), notes
    b.close()


def test_what_the_ring_no_longer_holds_is_one_gap_and_the_rest_follows():
    room = Room()
    room.board(ring=Ring(4096, 16))
    room.setup()
    room.run(200)
    radio = room.table.net.wlan._if
    radio.outage(SSID, False)  # the access point goes (noticed in 600 ms): 40 events meanwhile
    room.run(130)
    assert not room.table.net.wlan.joined()
    room.emit(40)
    radio.outage(SSID, True)  # back before the port gave up (5 attempts of 200 ms)
    room.run(600)
    taken = stream(room.broker.on(b"events"))
    gaps = [(ev["from"], ev["to"], ev["why"]) for _, _, ev in taken if ev["type"] == "gap"]
    assert len(gaps) == 1 and gaps[0][2] == "ring", gaps
    have = set(seqs(taken))
    a, z, _ = gaps[0]
    assert all(s in have or a <= s <= z for s in range(1, room.table.link.seq + 1))
    at = [i for i, (_, _, ev) in enumerate(taken) if ev["type"] == "gap"][0]
    after = [ev["type"] for _, _, ev in taken[at:]]  # the table as it stands, for the page
    assert "snapshot" in after, after
    wifi = [ev for _, _, ev in taken if ev["type"] == "wifi"]
    lost = [w["network"] for w in wifi if not w["connected"]]
    assert lost and lost[0] in ("joining", "no network"), wifi  # said when it was lost
    room.broker.close()


def test_commands_from_the_club_are_done_once_and_answered_on_the_tables_topic():
    room = Room()
    t = room.board()
    room.setup()
    room.run(200)
    b = room.broker
    cmd = b'{"cmd":"pause","id":"club-1"}'
    for _ in range(2):  # QoS 1 delivered twice, or sent again: done once
        b.send(publish(b"plateau/t1/commands", cmd, pid=7))
        room.run(20)
    for word in ("hello", "repl", "wifi"):  # a person at the table only
        text = ('{"cmd":"%s","id":"x-%s"}' % (word, word)).encode()
        b.send(publish(b"plateau/t1/commands", text, pid=8))
        room.run(20)
    answers = [json.loads(m[4]) for m in b.on(b"answers")]
    assert [a["id"] for a in answers[:2]] == ["club-1", "club-1"]
    assert all(a["ok"] for a in answers[:2])
    refused = {a["id"]: a["why"] for a in answers[2:]}
    assert set(refused) == {"x-hello", "x-repl", "x-wifi"}
    assert all("USB" in w for w in refused.values())
    assert t.running
    paused = [e for e in room.frames() if e.get("type") == "pause"]
    assert len(paused) == 1  # done once
    usb = [e for e in room.answers() if e.get("id") and str(e["id"]).startswith("club")]
    assert usb == []  # answered to the club, not on the USB port
    b.close()


def test_wrong_passwords_and_an_unreachable_broker_are_said_without_the_secrets():
    room = Room(password="another-password")
    room.board()
    room.setup()
    room.run(300)
    room.air[SSID][0] = WPA  # the network's password put right: it joins
    room.run(3000)
    room.broker.code = 4  # the broker refuses the table's password
    room.broker.cut()
    room.run(300)
    dead = Script()  # a port nobody answers on any more
    port = dead.port
    dead.close()
    room.setup(port=port)
    room.run(400)
    wifi = [e for e in room.frames() if e.get("type") == "wifi"]
    said = [(e["network"], e.get("why", "")) for e in wifi]
    assert ("wrong password", "") in said, said
    assert any("bad user name or password" in w for _, w in said), said
    assert any("unreachable" in w for _, w in said), said
    everything = bytes(room.wire.out) + b"".join(m[4] for m in room.broker.msgs)
    for secret in (WPA, SECRET, "another-password"):
        assert secret.encode() not in everything
    room.broker.close()


def test_the_wifi_command_checks_what_it_is_given_and_keeps_it_on_flash_only():
    room = Room()
    room.board()
    bad = (
        {"broker": "not a host!"},
        {"table": "t/1"},
        {"broker": "10.0.0.2:99999"},
        {"do": "hunter2"},
    )
    for kw in bad:
        ans = room.setup(**kw)
        assert not ans["ok"], (kw, ans)
    room.send(cmd="wifi", id="w9", ssid=SSID)
    ans = room.answers()[-1]
    assert not ans["ok"] and "broker" in ans["why"] and "table" in ans["why"]
    assert room.setup()["ok"]
    room.run(300)
    with open(room.flash + "/state.json") as f:
        state = f.read()
    with open(room.flash + "/wifi.json") as f:
        kept = f.read()
    assert WPA in kept and SECRET in kept
    assert WPA not in state and SECRET not in state
    out = bytes(room.wire.out)
    assert WPA.encode() not in out and SECRET.encode() not in out and b"hunter2" not in out
    room.send(cmd="selftest", id="s1")
    room.send(cmd="wifi", id="off-1", do="off")
    assert room.answers()[-1]["ok"]
    t = room.board()  # the next power-up: no Wi-Fi
    assert t.net is None
    room.broker.close()


def test_a_retained_state_and_a_greeting_on_every_connection():
    room = Room()
    room.board()
    room.setup()
    room.run(200)
    room.broker.cut()
    room.run(400)
    msgs = room.broker.on(b"events")
    hellos = [json.loads(m[4])["line"] for m in msgs if b'"type":"hello"' in m[4]]
    assert len(hellos) >= 2  # one a connection, each after the last event then
    assert len(room.broker.on(b"state")) >= 2
    room.broker.close()


def test_the_brokers_ca_comes_in_parts_is_kept_and_never_falls_back_to_plain():
    """`wifi ca=... ca-at=N ca-size=S` (plateau wifi --ca): parts in order, kept in wifi.ca
    with its CRC in the settings; a part out of order or past the size refused; the CA on
    flash damaged, or a build without ssl: said in an error event and the table stays off the
    network (never plain in TLS's stead); `wifi do=plain` forgets the CA. A certificate this
    port's mbedtls parses: made once by openssl for this test (P-256), kept here as base64."""
    import os
    from binascii import a2b_base64, b2a_base64

    room = Room()
    room.board()
    room.setup()
    ca = a2b_base64(CA_B64)
    parts = [ca[i : i + 150] for i in range(0, len(ca), 150)]

    def part(i, at=None, size=None, **kw):
        room.ids += 1
        cmd = {"cmd": "wifi", "id": "c%d" % room.ids, "ca-size": size or len(ca)}
        cmd["ca"] = b2a_base64(parts[i]).decode().strip()
        cmd["ca-at"] = i * 150 if at is None else at
        cmd.update(kw)
        room.send(**cmd)
        return room.answers()[-1]

    a = part(1)  # the second part first
    assert not a["ok"] and "the part at 0 is next" in a["why"], a
    assert part(0)["ok"]
    a = part(2)  # the third part where the second is due
    assert not a["ok"] and "the part at 150 is next" in a["why"], a
    a = part(1, size=200)
    assert not a["ok"] and "longer than ca-size" in a["why"], a
    for i in range(len(parts)):
        a = part(i)
        assert a["ok"], (i, a)
    a = part(0, ssid="other")
    assert not a["ok"] and "comes alone" in a["why"], a
    with open(room.flash + "/wifi.ca", "rb") as f:
        assert f.read() == ca
    with open(room.flash + "/wifi.json") as f:
        assert "ca" in json.load(f)["state"]
    try:
        import ssl  # noqa: F401

        has_tls = True
    except ImportError:
        has_tls = False
    t = room.table
    if has_tls:
        assert t.net is not None and t.net.tls, "the uplink speaks TLS"
    else:  # the 32-bit frozen build has no ssl: said, off the network
        errors = [e for e in room.frames() if e["type"] == "error" and e.get("what") == "wifi"]
        assert t.net is None and "no TLS" in errors[-1]["why"], errors
    # the CA damaged on flash: at the next power-up the table says so and stays off
    with open(room.flash + "/wifi.ca", "r+b") as f:
        f.seek(40)
        f.write(b"\x00\x00")
    room.board(boot="b0a7d00e")
    room.run(3)  # (its events on flash, then on the wire)
    errors = [e for e in room.frames() if e["type"] == "error" and e.get("what") == "wifi"]
    assert room.table.net is None and errors, errors
    assert ("damaged" if has_tls else "no TLS") in errors[-1]["why"], errors
    room.send(cmd="wifi", id="plain", do="plain")
    assert room.answers()[-1]["ok"] and room.table.net is not None
    assert not room.table.net.tls and "wifi.ca" not in os.listdir(room.flash)


# A P-256 CA certificate made by `openssl req -x509` for this test (public: no key here)
CA_B64 = (
    "MIIBiTCCAS+gAwIBAgIUOanLftwb/keUEWI2d3Uty1QJA6kwCgYIKoZIzj0EAwIwGjEYMBYGA1UEAwwPcGxhdGVh"
    "dSB0ZXN0IENBMB4XDTI2MTIwMjAxMjUxNFoXDTI2MTIwMzAxMjUxNFowGjEYMBYGA1UEAwwPcGxhdGVhdSB0ZXN0"
    "IENBMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEHwwIrtdS53XnCne4D/wdvns9DLhc71oKA9IQllK/IbsPeH6Z"
    "vF9p5GKJZLAq047miLXAeS3dRo04lTW6W0dCcKNTMFEwHQYDVR0OBBYEFLnCmcgg2MIV3ewRD1dZeihKXZmOMB8G"
    "A1UdIwQYMBaAFLnCmcgg2MIV3ewRD1dZeihKXZmOMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSAAwRQIg"
    "ZQY1B82w7Ui2O2MB/Q7a0kZQUmWKooORV8RFuaOBP/0CIQCypLKz1EDDVaM5Tw7VYgQoldXg1e9qE1qzxfa5MAsI"
    "mg=="
)
