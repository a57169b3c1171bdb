# The board's MQTT client: the subset of MQTT 3.1.1 a Wi-Fi table needs (CONNECT with a will,
# user and password; PUBLISH at QoS 1 out, QoS 0 and 1 in; SUBSCRIBE; PINGREQ; DISCONNECT),
# driven from the table's 5 ms pass. Nothing here waits: each step() does a bounded piece of
# work (one write, one read, at most _PACKETS_PER_STEP packets parsed) and returns. Why our
# own and not umqtt or mqtt_as: docs/wifi.md, "The client". The connection's life (the
# socket, CONNECT, pings, the backoff) is link/mqttconn.py's; publishing and receiving here.
#
# What it promises the publisher above it (the ring stays the truth):
# - publish() hands back the packet id, or 0 when it cannot take the message now (not
#   connected, the window of unacknowledged messages full, the buffer full): try again on a
#   later pass. Each PUBACK is reported once through on_ack(pid, tag), `tag` being the
#   caller's own number for the message (an event's seq).
# - A connection that ends takes every unacknowledged message with it: none is reported as
#   acknowledged, and the publisher starts again from the first one the broker did not
#   acknowledge (`ups` counts connections: a new value means start again). With a persistent
#   session (clean=False) the broker may already hold some of them: a message published again
#   with the same tag gets its old packet id and the DUP flag (MQTT-3.3.1-1, 4.4), and only
#   when the broker said its session is present; a broker that forgot the session (a restart
#   without persistence) gets them as new messages, and the subscription again.
# - Commands come through on_message(topic, payload), memoryviews valid during the call only;
#   a QoS 1 message is acknowledged after the call returns (at least once: the link's command
#   ids make a repeat harmless). A message larger than the receive buffer is acknowledged,
#   dropped and counted (`too_long`), so a broker never sends it again for ever.
#
# Memory: the buffers, the window and the poller are made once; an idle step (nothing to
# send, nothing come) allocates nothing. Sending and receiving take a memoryview slice each
# (a few words, only when bytes move); a connection allocates its socket and poller.
from micropython import const

from link.mqttconn import (  # noqa: F401  (the states, for the client's users)
    CONNECTING,
    NAMES,
    OFF,
    OPENING,
    UP,
    WAITING,
    Connection,
    b_,
    put_length,
    put_str,
)

_CONNACK = const(0x20)
_PUBLISH = const(0x30)
_PUBACK = const(0x40)
_SUBSCRIBE = const(0x82)  # the flags MQTT-3.8.1-1 requires
_SUBACK = const(0x90)
_UNSUBACK = const(0xB0)
_PINGRESP = const(0xD0)

_PACKETS_PER_STEP = const(4)  # packets parsed per step at most (each a callback at most)
_RESERVE = const(16)  # tx room publish() leaves for PUBACKs and a PINGREQ
_FREE = const(0)
_SENT = const(1)  # in flight on this connection
_STALE = const(2)  # was in flight when the last connection ended (kept for a resumed session)

# CONNACK return codes (MQTT 3.1.1, 3.2.2.3)
_REFUSED = (
    None,
    "broker refused: protocol version",
    "broker refused: client id",
    "broker refused: server unavailable",
    "broker refused: bad user name or password",
    "broker refused: not authorised",
)


class Client(Connection):
    def __init__(
        self,
        client_id,
        user=None,
        password=None,
        keepalive_s=30,
        clean=False,
        window=16,
        tx_size=1024,
        rx_size=512,
        tls=None,
        server_hostname=None,
        connect_ms=10000,
        answer_ms=5000,
        backoff_ms=(250, 30000),
        on_ack=None,
        on_message=None,
        net=None,
    ):
        """`tls`: an ssl.SSLContext (verify mode and CA set by the caller) or None for plain
        TCP. `net`: what makes sockets and pollers (socket(), getaddrinfo(), poll(): the
        board's `socket` and `select` unless the tests hand another). `window`: messages
        published and not yet acknowledged, at most. `answer_ms`: a connection that hears
        nothing for that long while it waits for an answer (a PUBACK, a PINGRESP) is taken
        for dead. The password is kept for the next CONNECT and never said: not in `why`,
        not in repr."""
        Connection.__init__(
            self,
            client_id,
            user,
            password,
            keepalive_s,
            clean,
            tx_size,
            rx_size,
            tls,
            server_hostname,
            connect_ms,
            answer_ms,
            backoff_ms,
            net,
        )
        self.on_ack = on_ack
        self.on_message = on_message
        from array import array

        self._pids = array("H", [0] * window)
        self._tags = array("i", [0] * window)
        self._used = bytearray(window)
        self._subs = []
        self._next_pid = 0
        self.session = False  # the last CONNACK's session present flag
        self.acked = 0  # PUBACKs that matched a message in flight
        self.strays = 0  # PUBACKs for no message in flight (ignored)
        self.received = 0  # PUBLISH packets passed to on_message
        self.too_long = 0  # PUBLISH packets dropped for the receive buffer

    def subscribe(self, topic):
        """A topic to receive at QoS 1, subscribed on every connection."""
        self._subs.append(b_(topic))

    def room(self, n, count=1):
        """Could `count` messages of n bytes in all (topics, heads and payloads) be published
        now?"""
        return (
            self.state == UP
            and self.inflight + count <= len(self._used)
            and self._room(n + 9 * count + _RESERVE)
        )

    def publish(self, topic, payload, head=b"", retain=False, tag=0, tail=b""):
        """Publish at QoS 1: `head`, `payload` and `tail` as one message (the uplink's
        envelope and the event's boot and seq around the ring's bytes, without joining them).
        Returns the packet id, or 0 when it cannot be taken now. `tag` (0 or a number below
        2**30, the caller's for this message) comes back with its acknowledgement."""
        if self.state != UP or self.inflight >= len(self._used):
            return 0
        n = 2 + len(topic) + 2 + len(head) + len(payload) + len(tail)
        total = n + (2 if n < 128 else 3 if n < 16384 else 4)
        if total + _RESERVE > len(self._tx):
            raise ValueError(
                "a message of %d bytes is larger than the client's buffer (%d)"
                % (total, len(self._tx))
            )
        if not self._room(total + _RESERVE):
            return 0
        used, tags, pids = self._used, self._tags, self._pids
        slot = -1
        dup = 0
        for i in range(len(used)):
            u = used[i]
            if u == _STALE and tag and tags[i] == tag:
                slot, dup = i, 0x08  # its old packet id: the broker's session may hold it
                break
            if slot < 0 and u == _FREE:
                slot = i
        if slot < 0:  # no free slot: the first stale one goes
            for i in range(len(used)):
                if used[i] == _STALE:
                    slot = i
                    break
        if dup:
            pid = pids[slot]
        else:
            pid = self._new_pid()
        used[slot] = _SENT
        pids[slot] = pid
        tags[slot] = tag
        self._begin_wait()
        self.inflight += 1
        tx = self._tx
        i = self._tx_n
        tx[i] = _PUBLISH | 0x02 | dup | (1 if retain else 0)
        i = put_length(tx, i + 1, n)
        i = put_str(tx, i, topic)
        tx[i] = pid >> 8
        tx[i + 1] = pid & 0xFF
        i += 2
        if head:
            tx[i : i + len(head)] = head
            i += len(head)
        tx[i : i + len(payload)] = payload
        i += len(payload)
        if tail:
            tx[i : i + len(tail)] = tail
            i += len(tail)
        self._tx_n = i
        return pid

    def _new_pid(self):
        """The next packet id (1-65535) that no slot holds."""
        pids, used = self._pids, self._used
        while True:
            pid = self._next_pid % 65535 + 1
            self._next_pid = pid
            if pid == self._sub_pid:
                continue
            for i in range(len(used)):
                if used[i] and pids[i] == pid:
                    break
            else:
                return pid

    def _parse(self, now):
        """At most _PACKETS_PER_STEP packets from the receive buffer; the reason to drop the
        connection, or None."""
        rx = self._rx
        for _ in range(_PACKETS_PER_STEP):
            at, end = self._rx_at, self._rx_n
            if self._skip:  # the rest of a message too long for the buffer
                k = min(self._skip, end - at)
                self._skip -= k
                at += k
                self._rx_at = at
                if self._skip:
                    break
            if end - at < 2:
                break
            rem = 0  # the remaining length: 1 to 4 bytes, 7 bits each (2.2.3)
            shift = 0
            p = at + 1
            while True:
                if p >= end:
                    p = -1  # not all here yet
                    break
                b = rx[p]
                p += 1
                rem |= (b & 0x7F) << shift
                if not b & 0x80:
                    break
                shift += 7
                if shift > 21:
                    return "a packet with a bad length"
            if p < 0:
                break
            first = rx[at]
            kind = first & 0xF0
            if p - at + rem > len(rx):  # never fits: only a PUBLISH may be that long
                if kind != _PUBLISH:
                    return "a packet of %d bytes from the broker" % rem
                why = self._too_long(first, p, rem)
            elif p + rem > end:
                break  # not all here yet
            else:
                why = self._packet(kind, first, p, rem, now)
                if why is None:
                    self._rx_at = p + rem
            if why is False:
                break  # no room to answer it now: parsed again next step
            if why:
                return why
        at, end = self._rx_at, self._rx_n
        if at == end:
            self._rx_at = self._rx_n = 0
        elif at:  # the start of a packet to the front, so the rest of it has room
            k = end - at
            self._rx[:k] = self._rxv[at:end] if at >= k else bytes(self._rxv[at:end])
            self._rx_at, self._rx_n = 0, k
        return None

    def _packet(self, kind, first, p, rem, now):
        """One whole packet at rx[p:p+rem]: None when done, False when it must wait (no room
        to acknowledge it), or why the connection must end."""
        rx = self._rx
        if self.state == OPENING:
            if kind != _CONNACK or rem != 2:
                return "the broker did not answer CONNECT with CONNACK"
            code = rx[p + 1]
            if code:
                self.refused = code
                self.why = _REFUSED[code] if code < len(_REFUSED) else "broker refused: %d" % code
                return self.why
            self._connected(now, rx[p] & 1)
            return None
        if kind == _PUBACK:
            if rem != 2:
                return "a PUBACK of %d bytes" % rem
            self._ack((rx[p] << 8) | rx[p + 1])
        elif kind == _PUBLISH:
            qos = (first >> 1) & 3
            if qos == 3 or qos == 2:
                return "a QoS %d message (subscribed at QoS 1)" % qos
            if qos and not self._room(4):
                return False
            tl = (rx[p] << 8) | rx[p + 1]
            q = p + 2 + tl
            if q + (2 if qos else 0) > p + rem:
                return "a PUBLISH shorter than its topic"
            pid = 0
            if qos:
                pid = (rx[q] << 8) | rx[q + 1]
                q += 2
            self.received += 1
            if self.on_message is not None:
                self.on_message(self._rxv[p + 2 : p + 2 + tl], self._rxv[q : p + rem])
            if qos:
                self._put2(_PUBACK, 2, pid)
        elif kind == _SUBACK:
            if rem >= 3 and ((rx[p] << 8) | rx[p + 1]) == self._sub_pid:
                self._sub_pid = 0
                for i in range(p + 2, p + rem):
                    if rx[i] & 0x80:
                        self.refused = "subscribe"
                        self.why = "the broker refused the subscription"
        elif kind == _PINGRESP:
            self._ping = False
        elif kind != _UNSUBACK:
            return "an unexpected packet (type %d) from the broker" % (kind >> 4)
        return None

    def _too_long(self, first, p, rem):
        """A PUBLISH longer than the buffer: acknowledged and skipped once its packet id is
        here. False: not yet (wait for more bytes)."""
        rx, end = self._rx, self._rx_n
        qos = (first >> 1) & 3
        if end - p < 2:
            return False
        tl = (rx[p] << 8) | rx[p + 1]
        need = p + 2 + tl + (2 if qos else 0)
        if need - self._rx_at > len(rx):
            return "a message with a topic of %d bytes" % tl
        if end < need or (qos and not self._room(4)):
            return False
        if qos:
            self._put2(_PUBACK, 2, (rx[need - 2] << 8) | rx[need - 1])
        self.too_long += 1
        self._skip = p + rem - end
        self._rx_at = end
        return None

    def _connected(self, now, session):
        self.state = UP
        self.session = bool(session) and not self._clean
        self.ups += 1
        self.why = None
        self.refused = None
        self._backoff = self._base
        used = self._used
        if not self.session:  # the broker holds none of them: they go again as new
            for i in range(len(used)):
                used[i] = _FREE
        self._t_wait = now
        if self._subs:
            self._put_subscribe()

    def _ack(self, pid):
        used, pids = self._used, self._pids
        for i in range(len(used)):
            if used[i] == _SENT and pids[i] == pid:
                used[i] = _FREE
                self.inflight -= 1
                self.acked += 1
                if self.on_ack is not None:
                    self.on_ack(pid, self._tags[i])
                return
        self.strays += 1

    def _begin_wait(self):
        """Something is sent that wants an answer: if nothing else was awaited, the broker's
        silence counts from now."""
        if not (self._ping or self.inflight or self._sub_pid):
            self._t_wait = self._now

    def _release(self):
        used = self._used
        for i in range(len(used)):
            if used[i] == _SENT:
                used[i] = _FREE if self._clean else _STALE
        self.inflight = 0
        self._reset_io()

    def _put_subscribe(self):
        n = 2 + sum(3 + len(t) for t in self._subs)
        if not self._room(n + 4):
            return
        pid = self._new_pid()
        self._begin_wait()
        self._sub_pid = pid
        tx = self._tx
        tx[self._tx_n] = _SUBSCRIBE
        i = put_length(tx, self._tx_n + 1, n)
        tx[i] = pid >> 8
        tx[i + 1] = pid & 0xFF
        i += 2
        for t in self._subs:
            i = put_str(tx, i, t)
            tx[i] = 1  # QoS 1
            i += 1
        self._tx_n = i
