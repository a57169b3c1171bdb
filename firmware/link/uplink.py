# The table on Wi-Fi (issue 30): a second transport beside USB, to the club's broker. The
# same numbered events leave the same ring (link.Link's), each published at QoS 1 and
# acknowledged per event; the ring and the flash stay the truth for both transports. Built
# by power.py once the settings are on flash (the `wifi` command, over USB); a table without
# them never loads this module or the client.
#
# What it publishes, in the topic layout `plateau bridge` uses (docs/club.md), so that
# `plateau serve` reads a stand-alone table as it reads a bridged one:
#   plateau/<table>/events    each message {"epoch", "line", "prev", "event"}, QoS 1
#   plateau/<table>/state     retained: {"epoch", "line", "hello", "snapshot"}, the table as
#                             it stands after the event of that line (for a late joiner: a
#                             consumer that folded that line already keeps its own fold)
#   plateau/<table>/presence  retained {"online": true, "commands": true} (it takes the
#                             club's commands: the scoreboard may drive it), again every 5 s
#                             (a quiet table is still heard); the broker's last will says
#                             false
#   plateau/<table>/answers   the answers to the commands read from .../commands
# `epoch` is the board's boot id (one numbering, as one log is one epoch); the lines are the
# board's own order of messages: event N is line 3N, the greeting after event N (hello, then
# snapshot: on every connection, once the backlog is out) is 3N+1 and 3N+2, and a gap that
# stands for events A..B is line 3B. So a message published again has the line it had, a
# consumer drops it as a repeat by its line or its boot and seq, and `prev` (the line before
# it) tells a consumer that lines were lost on the way.
#
# The broker's acknowledgements (PUBACK) come per message. `Link.acked` is the last event
# the broker had with every one before it; it goes to flash with the link's numbering at the
# next save (the next event's), so a board that restarts publishes again from a point at or
# before the first event the broker did not have: a few events twice at most, dropped by the
# consumer as repeats, never one missing. Events the ring no longer holds when their turn
# comes (a long outage, a restart after one) are published as one `gap` (why "ring"), as the
# serial link says it.
#
# Nothing here waits: each step() does the station's step, the client's bounded step and
# hands the client a few messages (_PER_PASS) at most; the client writes them a step at a
# time (link/mqtt.py). A command from the club comes back from step() for the table to do
# (its answer goes to answer(), then to the answers topic); the table hands the hello and
# snapshot when `wanted` says so (greet): the link calls nothing above it.
import json
from array import array

from micropython import const

from clock import elapsed
from link.mqtt import UP, WAITING, Client

_PER_PASS = const(4)  # stream messages handed to the client per pass at most
_FIFO = const(16)  # stream messages in flight at most (the client's window)
_STATE_MS = const(5000)  # the retained state, at most this often while events flow
# the presence again this often, as a bridge says it is there: a quiet table is still heard
# (the scoreboard takes a table it has not heard from for 15 s for gone: club/server.py)
_BEAT_MS = const(5000)
_PRESENCE = const(b'{"online":true,"commands":true}')
_HELD = const(4)  # commands waiting for the table, answers waiting for the broker, at most
_SEP = const((",", ":"))
_GONE = const("the network went away")


class Uplink:
    def __init__(self, link, wlan, settings, tls=None, net=None):
        """`wlan`: hal.wlan.Wlan (the board's station, or the simulator's stand-in behind
        it). `settings`: what the `wifi` command kept (ssid, password, broker, table, secret);
        the passwords go to the station and the client, and are kept by neither in words."""
        self.link = link
        self.wlan = wlan
        name = settings["table"]
        self.table = name
        self.broker = settings["broker"]
        host, _, port = self.broker.partition(":")
        base = "plateau/%s/" % name
        self._events = (base + "events").encode()
        self._state = (base + "state").encode()
        self._presence = (base + "presence").encode()
        self._answers = (base + "answers").encode()
        c = Client(
            "plateau-" + name,
            user=name,
            password=settings.get("secret"),
            clean=False,  # the broker keeps what was in flight, and the subscription
            tls=tls,
            on_ack=self._on_ack,
            on_message=self._on_message,
            net=net,
        )
        c.server(host, int(port) if port else 1883)
        c.will(self._presence, b'{"online":false}')
        c.subscribe((base + "commands").encode())
        self.client = c
        self.tls = tls is not None  # the broker's certificate checked against the CA kept
        wlan.join(settings["ssid"], settings.get("password") or None)
        self._lines = array("i", [0] * _FIFO)  # stream messages in flight, in order: lines
        self._done = bytearray(_FIFO)  # ... each acknowledged yet
        self._head = self._count = 0
        self._ups = 0  # the client's connections seen
        self._next = 0  # the next event to publish on this connection
        self._prev = 0  # the line published last
        self._online = False  # presence said on this connection
        self._beat_at = 0  # when it was said last
        self._greet = False  # hello and snapshot due on this connection
        self._state_due = self._state_soon = False
        self._state_at = self._now = 0
        self.wanted = False  # the table is asked for its hello and snapshot (greet)
        self._cmds = []  # payloads of commands from the club, for the table
        self._out = []  # answers for the broker
        self.dropped = 0  # commands and answers dropped, held ones full (sent again by then)
        self.published = 0  # stream messages handed to the client
        self._said = None  # what the last `wifi` event said

    # --- the table's pass ------------------------------------------------------------------

    def step(self, now):
        """One bounded piece of work; a command from the club (its payload) for the table to
        do, or None."""
        joined = self.wlan.step(now) == 2  # hal.wlan.JOINED (the link imports no hal)
        c = self.client
        if joined:
            c.start(now)  # (nothing if started)
            c.step(now)
        elif c.state > WAITING:  # the network went: the broker will say the table is gone
            c.drop(now, _GONE)
        if c.state == UP:
            self._publish(now)
        self._report()
        return self._cmds.pop(0) if self._cmds else None

    def answer(self, data):
        """The link's answer to a command from the club (link.Link.receive's reply)."""
        if len(self._out) >= _HELD:
            self._out.pop(0)  # the club sends a command again until it is answered
            self.dropped += 1
        self._out.append(data)

    def greet(self, about, snapshot):
        """The table as it stands (after every event flushed): the hello and snapshot on
        the events topic once a connection (the greeting), and the retained state."""
        self.wanted = False
        link, c = self.link, self.client
        at = link.seq
        if c.state != UP or self._next <= at or self._count >= _FIFO - 1:
            return  # (asked again when it can be taken)
        line = 3 * at
        hello = link.hello(about)
        hello["boot"], hello["at"] = link.boot, at
        snapshot["boot"], snapshot["at"] = link.boot, at
        if self._greet:
            a = self._envelope(line + 1, self._prev, hello)
            b = self._envelope(line + 2, line + 1, snapshot)
            if not c.room(len(a) + len(b) + 2 * len(self._events), 2):
                return
            self._push(c.publish(self._events, a, tag=line + 1), line + 1)
            self._push(c.publish(self._events, b, tag=line + 2), line + 2)
            self._prev = line + 2
            self._greet = False
        del hello["boot"], hello["at"], snapshot["boot"], snapshot["at"]
        state = json.dumps(
            {"epoch": link.boot, "line": line, "hello": hello, "snapshot": snapshot},
            separators=_SEP,
        ).encode()
        self._state_soon = not c.room(len(state) + len(self._state))
        if not self._state_soon:  # (else as soon as the client has room: the next pass)
            c.publish(self._state, state, retain=True)
            self._state_due = False
            self._state_at = self._now

    def stop(self):
        """The table leaves the network (wifi off): the broker says it offline (its will)."""
        self.client.drop(0, "wifi off")
        self.wlan.leave()

    def report(self):
        """Where the table stands on the network, for selftest: no secret in it."""
        c = self.client
        s = self.wlan.state()
        out = {
            "table": self.table,
            "network": self.wlan.names[s],
            "broker": self.broker,
            "tls": self.tls,
            "connected": c.state == UP,
            "backlog": self.link.seq - self.link.acked,
            "published": self.link.acked,
            "connections": c.ups,
        }
        if s == 2:
            out["rssi"] = self.wlan.rssi()
            out["address"] = self.wlan.address()
        if c.why and c.state != UP:
            out["why"] = c.why
        return out

    # --- publishing ------------------------------------------------------------------------

    def _publish(self, now):
        c, link = self.client, self.link
        self._now = now
        if c.ups != self._ups:  # a new connection: from the first event the broker lacks
            self._ups = c.ups
            self._head = self._count = 0
            self._next = link.acked + 1
            self._prev = 3 * link.acked  # (at most what came before it: never a false hole)
            self._online = False
            self._greet = self._state_due = True
        if not self._online or elapsed(now, self._beat_at) >= _BEAT_MS:
            if c.publish(self._presence, _PRESENCE, retain=True):
                self._online = True
                self._beat_at = now
            elif not self._online:
                return  # (said first on each connection: the next pass)
        out = self._out
        while out:
            try:
                if not c.publish(self._answers, out[0]):
                    break  # (the next pass)
            except ValueError:  # more than the client's buffer ever holds: said, not stuck
                out[0] = (
                    b'{"type":"error","what":"wifi","why":"an answer too long for the network"}'
                )
                self.dropped += 1
                continue
            out.pop(0)
        last = link.flushed()
        n = _PER_PASS
        while n and self._next <= last and self._count < _FIFO and self._send(c, link, last):
            n -= 1
        if self._next > last and not link.unsent():  # the backlog is out: the table now
            due = self._state_due and elapsed(now, self._state_at) >= _STATE_MS
            if self._greet or self._state_soon or due:
                self.wanted = True

    def _send(self, c, link, last):
        """The next stream message to the client: the event, or the gap that stands for the
        events the ring no longer holds. False when the client cannot take it now."""
        s = self._next
        ring = link.ring
        body = ring.get(s)
        if body is not None:
            line = 3 * s
            head = '{"epoch":"%s","line":%d,"prev":%d,"event":{"boot":"%s","seq":%d,' % (
                link.boot,
                line,
                self._prev,
                link.boot,
                s,
            )
            try:
                pid = c.publish(self._events, body, head.encode(), tag=line, tail=b"}")
            except ValueError:  # larger than the client's buffer: said as a gap
                return self._gap(c, link, s, s, "too long for the network")
            if not pid:
                return False
            self._next = s + 1
            self._pushed(line)
            return True
        return self._gap(c, link, s, min(max(ring.first - 1, s), last), "ring")

    def _gap(self, c, link, a, b, why):
        line = 3 * b
        ev = {"type": "gap", "boot": link.boot, "from": a, "to": b, "why": why}
        data = self._envelope(line, self._prev, ev)
        if not c.room(len(data) + len(self._events)):
            return False
        self._push(c.publish(self._events, data, tag=line), line)
        self._next = b + 1
        self._greet = True  # the table as it stands follows, once the backlog is out: what
        return True  # the scoreboard folded misses events (as the serial link's snapshot)

    def _envelope(self, line, prev, ev):
        return json.dumps(
            {"epoch": self.link.boot, "line": line, "prev": prev, "event": ev}, separators=_SEP
        ).encode()

    def _push(self, pid, line):
        if pid:
            self._pushed(line)

    def _pushed(self, line):
        i = (self._head + self._count) % _FIFO
        self._lines[i] = line
        self._done[i] = 0
        self._count += 1
        self._prev = line
        self._state_due = True
        self.published += 1

    def _on_ack(self, pid, tag):
        """A PUBACK (the client's): the stream message it was for is done; the broker has
        every event up to the first message not yet acknowledged."""
        if not tag:
            return  # presence, state, an answer
        lines, done = self._lines, self._done
        for k in range(self._count):
            i = (self._head + k) % _FIFO
            if lines[i] == tag:
                done[i] = 1
                break
        link = self.link
        while self._count and done[self._head]:
            line = lines[self._head]
            if line % 3 == 0 and line // 3 > link.acked:  # an event, or a gap's last
                link.acked = line // 3
            self._head = (self._head + 1) % _FIFO
            self._count -= 1

    def _on_message(self, topic, payload):
        """A command from the club (valid during the call only: copied)."""
        if len(self._cmds) >= _HELD:
            self.dropped += 1  # sent again by the club until it is answered
            return
        self._cmds.append(bytes(payload))

    # --- the `wifi` events -----------------------------------------------------------------

    def _report(self):
        """A `wifi` event when where the table stands changes: joined and the broker
        connected; the network lost, refused (a wrong password) or not found; the broker
        lost, refused or unreachable (once for each reason in a row). No secret in it."""
        c = self.client
        s = self.wlan.state()
        up = c.state == UP
        was = self._said
        if s == 1 and (was is None or was[0] != 2):
            return  # joining: said when it came to something, or when a network was lost
        why = None if up or s != 2 else c.why
        if s == 2 and not up and (why is None or why == _GONE):
            return  # connecting (again, once the network is back): said when it came to a why
        said = (s, up, why)
        if said == was:
            return
        self._said = said
        ev = {"type": "wifi", "network": self.wlan.names[s], "broker": self.broker}
        ev["connected"] = up
        if s == 2:
            ev["rssi"] = self.wlan.rssi()
        if why:
            ev["why"] = why
        ev["backlog"] = self.link.seq - self.link.acked
        self.link.emit(ev)
