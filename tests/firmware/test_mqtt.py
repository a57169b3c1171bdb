# The board's MQTT client (link/mqtt.py) against a broker the test plays on a socket of its
# own (mqttkit.Script): the packets it writes, the acknowledgements it reports, what it does
# when the connection ends with messages in flight, a session the broker kept or forgot, a
# silent broker, a refusal, messages too long, and the bound on each step's work. Time is the
# test's (step(now)), so the timers are exact. Runs under pytest and MicroPython. The real
# broker, the relay's faults and the counts at a subscriber: tests/host/test_mqtt_relay.py.
from check import raises
from mqttkit import Net, Script, connack, pause, puback, publish, published, strings, suback

from link import mqtt
from link.mqtt import OPENING, UP, WAITING, Client

TOPIC = b"plateau/t1/events"


def setup(**kw):
    """A client and the broker's end; the client connected (CONNACK given) unless `up`."""
    up = kw.pop("up", True)
    acks, msgs = [], []
    net = Net()
    broker = Script()
    c = Client(
        "t1",
        net=net,
        on_ack=lambda pid, tag: acks.append((pid, tag)),
        on_message=lambda t, p: msgs.append((bytes(t), bytes(p))),
        **kw,
    )
    c.server("127.0.0.1", broker.port)
    c.start(0)
    box = {"now": 0}

    def step(n=1, ms=1):
        for _ in range(n):
            box["now"] += ms
            pause()
            c.step(box["now"])
            broker.pump()

    step(20)
    assert c.state == OPENING, c.why
    if up:
        broker.send(connack())
        step(5)
        assert c.state == UP
    return c, broker, net, step, acks, msgs


def kinds(packets):
    return [first >> 4 for first, _ in packets]


def test_connect_says_who_with_the_will_and_credentials():
    c = Client("t1", user="t1", password="hunter2", keepalive_s=15, clean=False, net=Net())
    broker = Script()
    c.will(b"plateau/t1/presence", b'{"online":false}')
    c.server("127.0.0.1", broker.port)
    c.start(0)
    for now in range(1, 30):
        pause()
        c.step(now)
        broker.pump()
    first, body = broker.packets[0]
    assert first == 0x10
    (proto,), i = strings(body, 0, 1)
    assert proto == b"MQTT" and body[i] == 4  # 3.1.1
    flags = body[i + 1]
    assert flags & 0x02 == 0  # a persistent session
    assert flags & 0x04 and (flags >> 3) & 3 == 1 and flags & 0x20  # will, QoS 1, retained
    assert flags & 0x80 and flags & 0x40  # user and password
    assert (body[i + 2] << 8) | body[i + 3] == 15
    fields, _ = strings(body, i + 4, 5)
    assert fields == [b"t1", b"plateau/t1/presence", b'{"online":false}', b"t1", b"hunter2"]
    assert "hunter2" not in repr(c)
    broker.close()
    c.stop()


def test_each_puback_is_reported_once_with_its_tag_in_any_order():
    c, broker, net, step, acks, _ = setup(window=4)
    pids = [c.publish(TOPIC, b'"type":"x"}', b'{"seq":%d,' % s, tag=s) for s in (1, 2, 3, 4)]
    assert all(pids) and len(set(pids)) == 4
    assert c.publish(TOPIC, b"{}", tag=5) == 0 and not c.room(2)  # the window is full
    step(5)
    sent = [published(p) for p in broker.packets if p[0] >> 4 == 3]
    assert [s[4] for s in sent] == [b'{"seq":%d,"type":"x"}' % s for s in (1, 2, 3, 4)]
    assert [s[1] for s in sent] == pids and not any(s[2] for s in sent)
    for pid in (pids[2], pids[0], pids[0], 999, pids[3]):
        broker.send(puback(pid))
    step(5)
    assert acks == [(pids[2], 3), (pids[0], 1), (pids[3], 4)]
    assert c.strays == 2 and c.inflight == 1 and c.acked == 3
    assert c.publish(TOPIC, b"{}", tag=5)  # room again
    broker.close()
    c.stop()


def test_a_dropped_connection_acknowledges_nothing_in_flight_a_kept_session_gets_dup():
    c, broker, net, step, acks, _ = setup(window=8, backoff_ms=(10, 100))
    pids = {s: c.publish(TOPIC, b"e%d" % s, tag=s) for s in (1, 2, 3)}
    step(5)
    broker.send(puback(pids[1]))
    step(2)
    broker.cut()  # 2 and 3 unacknowledged
    step(30)
    assert c.ups == 1 and acks == [(pids[1], 1)] and c.inflight == 0
    step(40, ms=5)
    assert c.state == OPENING
    broker.send(connack(session=1))
    step(5)
    assert c.state == UP and c.session and c.ups == 2
    broker.packets.clear()
    for s in (2, 3, 4):  # the publisher starts again from the first not acknowledged
        assert c.publish(TOPIC, b"e%d" % s, tag=s)
    step(5)
    again = [published(p) for p in broker.packets if p[0] >> 4 == 3]
    assert [(a[1], a[2]) for a in again[:2]] == [(pids[2], True), (pids[3], True)]
    assert again[2][1] not in pids.values() and not again[2][2]
    broker.close()
    c.stop()


def test_a_session_the_broker_forgot_gets_them_as_new_messages_and_the_subscription_again():
    c, broker, net, step, acks, msgs = setup(window=8, backoff_ms=(10, 100))
    c.subscribe(b"plateau/t1/commands")
    for s in (1, 2):
        assert c.publish(TOPIC, b"e%d" % s, tag=s)
    step(5)
    broker.cut()
    step(60, ms=5)
    broker.packets.clear()
    broker.send(connack(session=0))  # a broker restarted without its persistence
    step(5)
    assert c.state == UP and not c.session
    assert kinds(broker.packets) == [8]  # SUBSCRIBE on every connection
    for s in (1, 2):
        c.publish(TOPIC, b"e%d" % s, tag=s)
    step(5)
    again = [published(p) for p in broker.packets if p[0] >> 4 == 3]
    assert not any(a[2] for a in again)  # no DUP: the broker holds none of them
    assert acks == [] and c.acked == 0  # nothing was taken for delivered
    broker.close()
    c.stop()


def test_commands_come_through_and_are_acknowledged_after_the_call():
    c, broker, net, step, acks, msgs = setup()
    c.subscribe(b"plateau/t1/commands")
    broker.send(publish(b"plateau/t1/commands", b'{"cmd":"undo","id":7}', pid=41))
    broker.send(publish(b"plateau/t1/commands", b'{"cmd":"pause"}', qos=0))
    step(5)
    assert msgs == [
        (b"plateau/t1/commands", b'{"cmd":"undo","id":7}'),
        (b"plateau/t1/commands", b'{"cmd":"pause"}'),
    ]
    assert (0x40, bytes((0, 41))) in broker.packets and c.received == 2
    broker.close()
    c.stop()


def test_a_message_longer_than_the_buffer_is_acknowledged_dropped_and_counted():
    c, broker, net, step, acks, msgs = setup(rx_size=128)
    broker.send(publish(b"plateau/t1/commands", b"x" * 1000, pid=5))
    broker.send(publish(b"plateau/t1/commands", b'{"cmd":"undo"}', pid=6))
    step(40)
    assert c.state == UP and c.too_long == 1
    assert msgs == [(b"plateau/t1/commands", b'{"cmd":"undo"}')]
    assert [b for f, b in broker.packets if f == 0x40] == [bytes((0, 5)), bytes((0, 6))]
    broker.close()
    c.stop()


def test_a_silent_broker_is_taken_for_dead():
    # a PUBACK that never comes (a half-open connection: the broker's side is gone)
    c, broker, net, step, acks, _ = setup(answer_ms=1000, keepalive_s=60)
    c.publish(TOPIC, b"{}", tag=1)
    step(99, ms=10)
    assert c.state == UP
    step(2, ms=10)
    assert c.state == WAITING and "silent" in c.why
    broker.close()
    # idle: a PINGREQ at half the keepalive; no PINGRESP within answer_ms ends it
    # (the client sent CONNECT at 2 ms, the setup ends at 25 ms)
    c, broker, net, step, acks, _ = setup(answer_ms=500, keepalive_s=2)
    step(95, ms=10)
    assert 12 not in kinds(broker.packets)
    step(5, ms=10)
    assert kinds(broker.packets)[-1] == 12 and c.state == UP
    step(45, ms=10)
    assert c.state == UP
    step(6, ms=10)
    assert c.state == WAITING and "silent" in c.why
    broker.close()


def test_a_pingresp_keeps_it_up():
    c, broker, net, step, acks, _ = setup(answer_ms=500, keepalive_s=2)
    for _ in range(5):
        step(101, ms=10)
        assert kinds(broker.packets)[-1] == 12
        broker.send(bytes((0xD0, 0)))
    step(10)
    assert c.state == UP and c.ups == 1
    broker.close()
    c.stop()


def test_a_refusal_says_why_without_the_password_and_waits_longest():
    c, broker, net, step, acks, _ = setup(up=False, password="hunter2", user="t1")
    broker.send(connack(code=4))
    step(3)
    assert c.state == WAITING and c.refused == 4
    assert c.why == "broker refused: bad user name or password"
    assert c._delay == 30000 and "hunter2" not in c.why
    broker.close()


def test_a_refused_subscription_is_said():
    c, broker, net, step, acks, _ = setup()
    c.subscribe(b"plateau/t2/commands")
    broker.cut()
    step(300, ms=5)
    broker.send(connack())
    step(3)
    sub = [b for f, b in broker.packets if f == 0x82][-1]
    broker.send(suback((sub[0] << 8) | sub[1], code=0x80))
    step(3)
    assert c.state == UP and c.refused == "subscribe" and "refused" in c.why
    broker.close()
    c.stop()


def test_unreachable_backs_off_doubling_to_the_most():
    broker = Script()
    port = broker.port
    broker.close()  # nothing listens there
    c = Client("t1", net=Net(), backoff_ms=(100, 1600))
    c.server("127.0.0.1", port)
    c.start(0)
    now, starts, waits = 0, [], []
    while len(starts) < 8:
        was = c.attempts
        c.step(now)
        if c.attempts != was:
            starts.append(now)
        now += 1
    waits = [b - a for a, b in zip(starts, starts[1:])]
    # each wait up to a quarter shorter (jitter), twice the last, up to 1,600 ms
    for w, most in zip(waits, (100, 200, 400, 800, 1600, 1600, 1600)):
        assert most * 3 // 4 <= w <= most + 3, (waits, most)
    assert "unreachable" in c.why or "refused" in c.why
    c.stop()


def test_each_step_does_a_bounded_piece_of_work():
    # the broker sends 60 commands and 16 acknowledgements at once, while 16 messages of
    # 900 bytes wait to go: no step parses more than 4 packets, writes more than once or
    # more than 1,024 bytes, or reads more than once
    c, broker, net, step, acks, msgs = setup(window=16, tx_size=4096, rx_size=512)
    sent = 0
    for s in range(16):
        sent += bool(c.publish(TOPIC, b"x" * 900, tag=s + 1))
    assert 0 < sent < 16  # the buffer takes what fits; the rest waits for a later pass
    burst = b"".join(
        publish(b"plateau/t1/commands", b'{"cmd":"undo"}', pid=p + 1) for p in range(60)
    )
    broker.send(burst)
    now = 1000
    most = [0, 0, 0]
    for _ in range(100):
        before = (len(msgs), net.writes, net.reads)
        now += 5
        pause()
        c.step(now)
        broker.pump()
        for i, got in enumerate((len(msgs), net.writes, net.reads)):
            most[i] = max(most[i], got - before[i])
    assert len(msgs) == 60 and c.state == UP
    assert most[0] <= 4 and most[1] <= 1 and most[2] <= 1 and net.biggest_write <= 1024
    broker.close()
    c.stop()


def test_a_message_larger_than_the_buffer_is_a_clear_error():
    c, broker, net, step, acks, _ = setup(tx_size=256)
    e = raises(ValueError, c.publish, TOPIC, b"x" * 300)
    assert "larger than the client's buffer" in str(e)
    assert c.inflight == 0 and c.state == UP
    broker.close()
    c.stop()


def test_publish_while_down_is_refused_not_lost():
    c, broker, net, step, acks, _ = setup(up=False)
    assert c.publish(TOPIC, b"{}", tag=1) == 0 and not c.room(2)
    assert mqtt.NAMES[c.state] == "opening"
    broker.close()
    c.stop()
    assert c.state == mqtt.OFF
