# The board's MQTT client, its connection (link/mqtt.py is the client, its publishing and
# receiving, on top of this): the socket to the broker and its life, each a bounded step of
# the table's 5 ms pass. Connecting (TCP, then TLS: the handshake goes on in the writes),
# CONNECT and its CONNACK, one write and one read a step, keepalive pings, a broker silent
# while an answer is due, the end of a connection (the publisher above starts again from the
# first message not acknowledged: link/mqtt.py), and the backoff before the next attempt
# (250 ms doubling to 30 s, jittered; the first try after a drop soon; a refusal waits the
# longest). Nothing here waits; what went wrong is in `why`, in words, never the password.
# Why our own client: docs/wifi.md, "The client".
import errno

from micropython import const

from clock import elapsed

# state (read by the table's selftest and the tests)
OFF = const(0)  # not started, or stopped
WAITING = const(1)  # waiting out the backoff before the next attempt
CONNECTING = const(2)  # TCP connect (and the TLS handshake) under way
OPENING = const(3)  # CONNECT sent, waiting for CONNACK
UP = const(4)  # connected: publishing
NAMES = ("off", "waiting", "connecting", "opening", "up")

_CONNECT = const(0x10)
_PINGREQ = const(0xC0)
_WRITE_PER_STEP = const(1024)  # bytes handed to the socket per step at most
# poll's bits: the same numbers on Linux, lwIP (an ESP32) and in MicroPython's select
_POLLIN = const(0x01)
_POLLOUT = const(0x04)
_POLL_BAD = const(0x18)  # POLLERR | POLLHUP
_EINPROGRESS = (errno.EINPROGRESS, 119)  # 119: lwIP's EINPROGRESS, as an ESP32 reports it


class Connection:
    """The connection's part of the client (link.mqtt.Client builds on it): what it calls
    above it, the client defines: _parse(now) (the packets read), _release() (a connection
    ended: what was in flight), _begin_wait() (an answer is due)."""

    def __init__(
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
    ):
        self._id = b_(client_id)
        self._user = b_(user) if user is not None else None
        self._password = b_(password) if password is not None else None
        self._keepalive = keepalive_s
        self._clean = clean
        self._tls = tls
        self._hostname = server_hostname
        self._connect_ms = connect_ms
        self._answer_ms = answer_ms
        self._ping_ms = keepalive_s * 500  # half the keepalive: the broker waits 1.5 of it
        self._base, self._most = backoff_ms
        self._net = net or _Net()
        self._tx = bytearray(tx_size)
        self._txv = memoryview(self._tx)
        self._rx = bytearray(rx_size)
        self._rxv = memoryview(self._rx)
        self._will = None
        self._host = None
        self._port = 1883
        self._addr = None
        self._sock = None
        self._poll = None
        self._tx_at = self._tx_n = self._rx_at = self._rx_n = self._skip = 0
        self._ping = False
        self._t_heard = self._t_sent = self._t_wait = 0
        self._sub_pid = 0
        self.state = OFF
        self.why = None  # why the last connection ended or failed, in words (no secrets)
        self.ups = 0  # connections made (CONNACK accepted)
        self.attempts = 0  # connections tried
        self.inflight = 0  # messages published and not acknowledged (the client's)
        self.refused = None  # a CONNACK's refusal, or "subscribe" for a refused subscription
        self._delay = 0  # the wait before the next attempt ...
        self._backoff = self._base  # ... and the one after a failed attempt
        self._t = self._now = 0

    # what the client above defines (link.mqtt.Client)
    def _parse(self, now):
        """The packets read: why the connection must end, or None."""
        return None

    def _begin_wait(self):
        """Something sent wants an answer."""

    def _release(self):
        """The connection ended: what was in flight on it."""

    def __repr__(self):
        return "<mqtt.Client %s state %d>" % (self._id.decode(), self.state)

    def server(self, host, port=1883):
        """Where the broker is: an IP address (no lookup), or a name: looked up once per
        failed connection with socket.getaddrinfo, which blocks for the DNS answer (see
        docs/wifi.md)."""
        self._host = host
        self._port = port
        self._addr = None

    def will(self, topic, payload, retain=True):
        """What the broker publishes (QoS 1) when the connection ends without DISCONNECT."""
        self._will = (b_(topic), b_(payload), retain)

    def start(self, now):
        if self.state == OFF:
            self.state = WAITING
            self._t = now
            self._delay = 0  # at once

    def stop(self):
        """DISCONNECT (so the broker does not publish the will), then close."""
        if self.state in (OPENING, UP) and self._sock is not None:
            try:
                self._sock.write(b"\xe0\x00")
            except OSError:
                pass
        self._close()
        self._release()
        self.state = OFF

    def drop(self, now, why):
        """End the connection at once, without DISCONNECT (the network went away: the broker
        publishes the will when it notices); the next attempt after the backoff."""
        if self.state != OFF:
            self._lost(now, why)

    def step(self, now):
        """One bounded piece of work; returns the state."""
        self._now = now
        s = self.state
        if s == UP or s == OPENING:
            self._io(now)
        elif s == CONNECTING:
            self._connecting(now)
        elif s == WAITING and elapsed(now, self._t) >= self._delay:
            self._open(now)
        return self.state

    def _open(self, now):
        self.attempts += 1
        s = None
        try:
            if self._host is None:
                raise OSError(0)
            if self._addr is None:
                self._addr = self._net.getaddrinfo(self._host, self._port)[0][-1]
            s = self._net.socket()
            s.setblocking(False)
            try:
                s.connect(self._addr)
            except OSError as e:
                if e.args[0] not in _EINPROGRESS:
                    raise
            p = self._net.poll()
            p.register(s, _POLLOUT)
        except OSError as e:
            if s is not None:
                s.close()
            self._addr = None  # looked up again next time
            self._failed(now, "broker %s:%d unreachable (%s)" % (self._host, self._port, err(e)))
            return
        self._sock, self._poll = s, p
        self.state = CONNECTING
        self._t = now

    def _connecting(self, now):
        sock, poll = self._sock, self._poll
        if sock is None or poll is None:
            return
        ready = 0
        for _, ready in poll.ipoll(0):
            pass
        if ready & _POLL_BAD:
            self._failed(now, "broker %s:%d unreachable (refused)" % (self._host, self._port))
        elif ready & _POLLOUT:
            try:
                if self._tls is not None:
                    poll.unregister(sock)
                    self._sock = sock = self._tls.wrap_socket(
                        sock,
                        server_side=False,
                        do_handshake_on_connect=False,  # it goes on in the writes below
                        server_hostname=self._hostname or self._host,
                    )
                    poll.register(sock, _POLLIN)
                else:
                    poll.modify(sock, _POLLIN)
            except OSError as e:
                self._failed(now, "TLS: %s" % err(e))
                return
            self._reset_io()
            self._put_connect()
            self.state = OPENING
            self._t_heard = self._t_sent = now
        elif elapsed(now, self._t) >= self._connect_ms:
            self._failed(now, "broker %s:%d: no answer" % (self._host, self._port))

    def _io(self, now):
        sock, poll = self._sock, self._poll
        if sock is None or poll is None:
            return
        try:
            if self._tx_at < self._tx_n:
                end = min(self._tx_n, self._tx_at + _WRITE_PER_STEP)
                n = sock.write(self._txv[self._tx_at : end])
                if n:
                    self._tx_at += n
                    self._t_sent = now
                    if self._tx_at == self._tx_n:
                        self._tx_at = self._tx_n = 0
            ready = 0
            for _, ready in poll.ipoll(0):
                pass
            if ready:  # data, or the end of the connection (readinto says which)
                room = len(self._rx) - self._rx_n
                if room:
                    n = sock.readinto(self._rxv[self._rx_n :], room)
                    if n == 0:
                        self._lost(now, "the broker closed the connection")
                        return
                    if n:
                        self._rx_n += n
                        self._t_heard = now
            why = self._parse(now)
        except OSError as e:
            why = "connection lost (%s)" % err(e)
        if why:
            self._lost(now, why)
            return
        self._timers(now)

    def _timers(self, now):
        if self.state == OPENING:
            if elapsed(now, self._t) >= self._connect_ms:
                self._lost(now, "no CONNACK within %d ms" % self._connect_ms)
            return
        waiting = self._ping or self.inflight or self._sub_pid
        quiet = min(elapsed(now, self._t_heard), elapsed(now, self._t_wait))
        if waiting and quiet >= self._answer_ms:
            self._lost(now, "the broker was silent for %d ms" % quiet)
        elif not self._ping and (
            elapsed(now, self._t_sent) >= self._ping_ms
            or elapsed(now, self._t_heard) >= self._ping_ms
        ):
            if self._room(2):
                self._put2(_PINGREQ, 0)
                self._begin_wait()
                self._ping = True

    def _lost(self, now, why):
        """The connection ended: every message in flight is unacknowledged (kept as stale
        for a session the broker may resume); the next attempt after the backoff."""
        was_up = self.state == UP
        self._close()
        self._release()
        self.why = why
        self.state = WAITING
        self._t = now
        if self.refused is not None and self.refused != "subscribe":
            self._delay = self._most  # a wrong password does not mend itself soon
        elif was_up:  # the first try again soon: most drops are short
            self._delay = jitter(self._base)
        else:  # each failed attempt waits twice as long, up to the most
            self._delay = jitter(self._backoff)
            self._backoff = min(self._most, self._backoff * 2)

    _failed = _lost  # an attempt that did not get as far as UP

    def _close(self):
        s = self._sock
        self._sock = None
        if s is not None:
            try:
                if self._poll is not None:
                    self._poll.unregister(s)
            except (OSError, KeyError, ValueError):
                pass
            try:
                s.close()
            except OSError:
                pass
        self._poll = None

    def _reset_io(self):
        self._tx_at = self._tx_n = 0
        self._rx_at = self._rx_n = 0
        self._skip = 0
        self._ping = False
        self._sub_pid = 0
        self._t_heard = self._t_sent = self._t_wait = 0

    def _room(self, n):
        if self._tx_at == self._tx_n:
            self._tx_at = self._tx_n = 0
        elif len(self._tx) - self._tx_n < n and self._tx_at:
            k = self._tx_n - self._tx_at
            self._tx[:k] = self._txv[self._tx_at : self._tx_n]
            self._tx_at, self._tx_n = 0, k
        return len(self._tx) - self._tx_n >= n

    def _put2(self, kind, rem, pid=0):
        tx, i = self._tx, self._tx_n
        tx[i] = kind
        tx[i + 1] = rem
        if rem:
            tx[i + 2] = pid >> 8
            tx[i + 3] = pid & 0xFF
        self._tx_n = i + 2 + rem

    def _put_connect(self):
        will, user, pw = self._will, self._user, self._password
        n = 10 + 2 + len(self._id)
        flags = 0 if not self._clean else 0x02
        if will:
            n += 4 + len(will[0]) + len(will[1])
            flags |= 0x04 | 0x08 | (0x20 if will[2] else 0)  # will at QoS 1
        if user is not None:
            n += 2 + len(user)
            flags |= 0x80
            if pw is not None:
                n += 2 + len(pw)
                flags |= 0x40
        tx = self._tx
        if n + 5 > len(tx):
            raise ValueError("CONNECT of %d bytes is larger than the client's buffer" % n)
        tx[0] = _CONNECT
        i = put_length(tx, 1, n)
        i = put_str(tx, i, b"MQTT")
        tx[i] = 4  # protocol level: 3.1.1
        tx[i + 1] = flags
        tx[i + 2] = self._keepalive >> 8
        tx[i + 3] = self._keepalive & 0xFF
        i = put_str(tx, i + 4, self._id)
        if will:
            i = put_str(tx, i, will[0])
            i = put_str(tx, i, will[1])
        if user is not None:
            i = put_str(tx, i, user)
            if pw is not None:
                i = put_str(tx, i, pw)
        self._tx_at, self._tx_n = 0, i


def put_length(buf, i, n):
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            buf[i] = b | 0x80
            i += 1
        else:
            buf[i] = b
            return i + 1


def put_str(buf, i, s):
    n = len(s)
    buf[i] = n >> 8
    buf[i + 1] = n & 0xFF
    buf[i + 2 : i + 2 + n] = s
    return i + 2 + n


class _Net:
    """The board's own sockets and poller."""

    def socket(self):
        import socket

        return socket.socket()

    def getaddrinfo(self, host, port):
        import socket

        return socket.getaddrinfo(host, port)

    def poll(self):
        import select

        return select.poll()


def b_(s):
    return s.encode() if isinstance(s, str) else bytes(s)


def err(e):
    """An OSError in words, without allocating a table of names."""
    code = e.args[0] if e.args else 0
    if isinstance(code, int) and code < 0:
        return "TLS error -0x%04x" % -code  # mbedtls' own codes are negative
    if code == errno.ECONNREFUSED:
        return "refused"
    if code == errno.ECONNRESET:
        return "reset"
    if code == 32 or code == errno.ENOTCONN:  # EPIPE: not in an ESP32's errno
        return "closed"
    if code in (errno.ETIMEDOUT, 116):
        return "timed out"
    return "error %s" % (code,)


def jitter(ms):
    """ms, less up to a quarter at random: tables that lost the broker together do not all
    come back in the same millisecond."""
    if ms < 8:
        return ms
    import random

    return ms - random.getrandbits(16) % (ms // 4)
