# The table on Wi-Fi, timed (issue 30; make bench, on the 32-bit build with the firmware
# frozen at 111,936 B when there is one): the real Table.step with the uplink (link/uplink.py,
# link/mqtt.py) publishing to a real Mosquitto on 127.0.0.1, the station the simulator's
# stand-in (sim/wlan.py) behind the real driver, in the table's own (virtual) time:
#   1. a pass's time while events are published at a busy table's pace (one every 20
#      passes, 10 a second), against the same passes with no Wi-Fi set up: the worst, the
#      99th percentile and the median, with their ESP32 estimates;
#   2. events a second the table can publish: a burst as large as the ring holds, passes
#      until the broker acknowledged them all (the uplink hands the client 4 a pass);
#   3. the backlog after a 60 s outage: the access point off for 60 s of table time while
#      the table emits an event a second, then back: the passes (and their time) from the
#      network's return to the broker having every event.
#   4. the backlog after a 60 s outage of the broker (the network up): its connection closed
#      and its port refusing for 60 s of table time, an event a second, then back: when the
#      client's backoff tries again, and when every event is acknowledged.
#   micropython -X heapsize=111936 -m wifi_mpy PORT USER PASSWORD STATEDIR DEADPORT
from esp32_mpy import SLOW, esp32, reference  # isort: skip  (calibrates first)

import gc  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

sys.modules.pop("pystone_lowmem", None)
gc.collect()

from link.ring import Ring  # noqa: E402

RING = Ring()  # the board's ring, taken first as main.py does

from power import power_up  # noqa: E402
from store import _write  # noqa: E402

from link.mqtt import UP  # noqa: E402
from sim import VirtualClock  # noqa: E402
from table import SCAN_MS, Table  # noqa: E402

UPLINK = []  # us of the uplink's share of each pass (Table._network: step, command, greeting)
_network = Table._network


def timed_network(self, net):
    t0 = time.ticks_us()
    _network(self, net)
    UPLINK.append(time.ticks_diff(time.ticks_us(), t0))


Table._network = timed_network

SSID, WPA = "bench-net", "bench-wpa-1"


class Sink:
    """The USB port: nowhere (stdout is for the figures)."""

    def write(self, data):
        return len(data)

    def read(self):
        return b""


def board(clock, state, air):
    def station():
        from hal.wlan import Wlan
        from sim.wlan import SimWLAN

        radio = SimWLAN(clock)
        radio.networks = air
        return Wlan(radio)

    RING.clear()
    return power_up(
        Sink(), clock, None, "be7c%04x" % len(air), RING, state, "weykick", station=station
    )


def passes(t, clock, n, every=0, times=None):
    """n passes of the table; an event every `every` passes; each pass's us into `times`."""
    link = t.link
    for i in range(n):
        if every and i % every == 0:
            link.emit({"type": "note", "n": i})
        t0 = time.ticks_us()
        t.step()
        dt = time.ticks_diff(time.ticks_us(), t0)
        if times is not None:
            times.append(dt)
        clock.sleep_ms(SCAN_MS)


def spread(times):
    times.sort()
    n = len(times)
    return times[-1], times[n * 99 // 100], times[n // 2]


def show(label, times):
    worst, p99, mid = spread(times)
    print(
        "  %s: worst %d us (%s), 99th percentile %d us (%s), median %d us (%s)"
        % (label, worst, esp32(worst), p99, esp32(p99), mid, esp32(mid))
    )


def main(port, user, secret, state, dead):
    print(reference())
    clock = VirtualClock()
    air = {}
    t = board(clock, state + "/plain", air)  # no Wi-Fi set up: the same passes, for reference
    plain = []
    passes(t, clock, 200)
    passes(t, clock, 2000, 20, plain)
    del t
    gc.collect()
    kept = {"ssid": SSID, "password": WPA, "broker": "127.0.0.1:" + port}
    kept.update(table=user, secret=secret)
    try:
        os.mkdir(state + "/on-wifi")
    except OSError:
        pass
    _write(state + "/on-wifi/wifi.json", state + "/on-wifi/wifi.tmp", kept)  # as `wifi` keeps them
    air[SSID] = [WPA, -60, True]
    t = board(clock, state + "/on-wifi", air)
    net, link = t.net, t.link
    for _ in range(4000):  # joined (2 s modeled), connected, the greeting out
        passes(t, clock, 1)
        if net.client.state == UP and link.acked == link.seq and not net.wanted:
            break
    if link.acked != link.seq:
        print("wifi bench: the table did not connect: %s" % net.report())
        return
    wifi = []
    UPLINK[:] = []
    passes(t, clock, 2000, 20, wifi)
    mine = UPLINK[:]
    print("1. a pass (Table.step), an event every 20 passes, 2000 passes (a pass that saves")
    print("   an event writes the flash: this machine's file system, not an ESP32's):")
    show("no Wi-Fi set up    ", plain)
    show("Wi-Fi publishing   ", wifi)
    show("the uplink's share ", mine)
    # 2. a burst: as many events as the ring holds
    gc.collect()
    first = link.seq + 1
    burst = 200
    for i in range(burst):
        link.emit({"type": "note", "n": i})
    n, spent = 0, 0
    t0 = time.ticks_ms()
    while link.acked < link.seq and n < 20000:  # a pass every 5 ms of real time, as a board
        a = time.ticks_us()
        t.step()
        dt = time.ticks_diff(time.ticks_us(), a)
        spent += dt
        clock.sleep_ms(SCAN_MS)
        time.sleep_us(max(0, SCAN_MS * 1000 - dt))
        n += 1
    wall = time.ticks_diff(time.ticks_ms(), t0)
    print(
        "2. a burst of %d events (seq %d-%d), a pass every 5 ms: all acknowledged in %d "
        "passes, %d ms: %d events/s; the passes' work %d ms here, %s on an ESP32 (%d-%d "
        "events/s if that work, not the 5 ms period, sets the pace)"
        % (burst, first, link.seq, n, wall, burst * 1000 // max(1, wall), spent // 1000,
           esp32(spent), burst * 1000000 // max(1, int(spent * SLOW[1])),
           burst * 1000000 // max(1, int(spent * SLOW[0])))
    )  # fmt: skip
    # 3. a 60 s outage of the access point, an event a second meanwhile
    radio = net.wlan._if
    radio.outage(SSID, False)
    before = link.acked
    for s in range(60):
        passes(t, clock, 200 - 1)
        link.emit({"type": "note", "n": s})
        passes(t, clock, 1)
    backlog = link.seq - link.acked
    radio.outage(SSID, True)
    n, spent = 0, 0
    back = clock.ticks_ms()
    joined_at = None
    while link.acked < link.seq and n < 40000:
        a = time.ticks_us()
        t.step()
        spent += time.ticks_diff(time.ticks_us(), a)
        clock.sleep_ms(SCAN_MS)
        n += 1
        if joined_at is None and net.client.state == UP:
            joined_at = n
    print(
        "3. the access point off 60 s (table time), an event a second: backlog %d events "
        "(acknowledged before: %d); the network back: connected again after %s passes (the "
        "station's join, 2 s modeled, and the backoff), every event acknowledged after %d "
        "passes (%d ms of table time); the passes' work %d ms here (%s)"
        % (backlog, before, joined_at, n, clock.ticks_ms() - back, spent // 1000, esp32(spent))
    )
    print(
        "   gaps: %d (the ring held the whole backlog)"
        % (0 if link.ring.first <= before + 1 else 1)
    )
    # 4. a 60 s outage of the broker, the network up: the broker stopped (its connection
    # closed, its port refusing: where nothing listens), an event a second meanwhile, then
    # back; the client's backoff (250 ms doubling to 30 s, jittered) sets when it tries again
    c = net.client
    before = link.acked
    c.server("127.0.0.1", int(dead))
    c.drop(clock.ticks_ms(), "the broker closed the connection")
    tries = c.attempts
    for s in range(60):
        passes(t, clock, 200 - 1)
        link.emit({"type": "note", "n": s})
        passes(t, clock, 1)
    backlog = link.seq - link.acked
    tries = c.attempts - tries
    c.server("127.0.0.1", int(port))  # the broker back on its port
    n, spent = 0, 0
    back = clock.ticks_ms()
    up_at = None
    while link.acked < link.seq and n < 40000:
        a = time.ticks_us()
        t.step()
        spent += time.ticks_diff(time.ticks_us(), a)
        clock.sleep_ms(SCAN_MS)
        n += 1
        if up_at is None and c.state == UP:
            up_at = clock.ticks_ms() - back
    print(
        "4. the broker stopped 60 s (table time; its port refused %d tries meanwhile), the "
        "network up, an event a second: backlog %d events (acknowledged before: %d); the "
        "broker back: connected again %s ms after (the client's backoff, 250 ms doubling to "
        "30 s), every event acknowledged %d ms after it came back (%d passes); the passes' "
        "work %d ms here (%s)"
        % (tries, backlog, before, up_at, clock.ticks_ms() - back, n, spent // 1000,
           esp32(spent))
    )  # fmt: skip


main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
