# The relay campaign's table (tests/host/mqttcampaign.py), under MicroPython: events numbered
# into the link's ring at a steady rate, published through link/mqtt.py with their boot and
# seq as the Wi-Fi table will publish them, each acknowledged per event; after a drop, from
# the first event the broker did not acknowledge. Commands on its commands topic are taken
# once by id and answered on its answers topic. Prints one JSON line at the end.
#   micropython mqttpub.py PORT EVENTS RATE SECONDS COMMANDS [CAFILE]
import json
import sys
import time

from link.mqtt import UP, Client
from link.ring import Ring

port, events, rate, seconds, commands = (int(a) for a in sys.argv[1:6])
cafile = sys.argv[6] if len(sys.argv) > 6 else None
BOOT = "c0ffee%02x" % (port % 256)
EVENTS = b"plateau/t1/events"
ANSWERS = b"plateau/t1/answers"

ring = Ring(60000, 2048)
acked = bytearray(events + 2)  # acked[seq]: the broker acknowledged it
state = {"first": 1, "next": 1, "ups": 0}
taken = {}  # command id -> times received
answers = []  # ids to answer


def on_ack(pid, tag):
    if tag:
        acked[tag] = 1
        while state["first"] <= events and acked[state["first"]]:
            state["first"] += 1


def on_message(topic, payload):
    try:
        cid = json.loads(bytes(payload))["id"]
    except (ValueError, KeyError, TypeError):
        return
    taken[cid] = taken.get(cid, 0) + 1
    answers.append(cid)


tls = None
if cafile:
    import ssl

    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    tls.verify_mode = ssl.CERT_REQUIRED
    with open(cafile, "rb") as f:
        tls.load_verify_locations(cadata=f.read())

c = Client(
    "table-t1",
    user="t1",
    password="t1-secret",
    keepalive_s=2,
    clean=False,
    window=16,
    tls=tls,
    connect_ms=3000,
    answer_ms=1500,
    backoff_ms=(100, 1000),
    on_ack=on_ack,
    on_message=on_message,
)
c.server("127.0.0.1", port)
c.will(b"plateau/t1/presence", b'{"online":false}')
c.subscribe(b"plateau/t1/commands")
t0 = time.ticks_ms()
c.start(t0)
emitted = 0
worst_us = 0
steps = 0
while True:
    now = time.ticks_ms()
    up_ms = time.ticks_diff(now, t0)
    while emitted < events and emitted < up_ms * rate // 1000:  # the table's events
        emitted += 1
        ring.add(emitted, b'"type":"move","n":%d}' % emitted)
    a = time.ticks_us()
    c.step(now)
    if c.state == UP:
        if c.ups != state["ups"]:  # a new connection: from the first not acknowledged
            state["ups"] = c.ups
            state["next"] = state["first"]
            c.publish(b"plateau/t1/presence", b'{"online":true}', retain=True)
        while answers and c.room(40):
            c.publish(ANSWERS, b'{"type":"answer","id":%d,"ok":true}' % answers.pop(0))
        n = state["next"]
        while n <= emitted and c.room(80):
            if acked[n]:
                n += 1
                continue
            head = b'{"boot":"%s","seq":%d,' % (BOOT, n)
            if not c.publish(EVENTS, ring.get(n), head, tag=n):
                break
            n += 1
        state["next"] = n
    worst_us = max(worst_us, time.ticks_diff(time.ticks_us(), a))
    steps += 1
    done = state["first"] > events and len(taken) >= commands and not answers
    if done and c.inflight == 0 or up_ms > seconds * 1000:
        break
    time.sleep_ms(1)
c.stop()
print(
    json.dumps(
        {
            "boot": BOOT,
            "given": emitted,
            "acked_through": state["first"] - 1,
            "ring_first": ring.first,
            "ups": c.ups,
            "attempts": c.attempts,
            "strays": c.strays,
            "commands": len(taken),
            "command_repeats": sum(taken.values()) - len(taken),
            "steps": steps,
            "worst_step_us": worst_us,
            "why": c.why,
        }
    )
)
