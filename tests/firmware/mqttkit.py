# What the MQTT client's tests share, under pytest and MicroPython alike: a network for the
# client that counts what each step does (Net), a broker played by the test on a socket of
# its own (Script), and the packets it sends and reads (MQTT 3.1.1, section 3).
import socket
import sys

MP = sys.implementation.name == "micropython"


class Sock:
    """A socket the client writes and reads as a board's (write, readinto), counting."""

    def __init__(self, raw, net):
        self.raw = raw
        self.net = net

    def setblocking(self, flag):
        self.raw.setblocking(flag)

    def connect(self, addr):
        self.raw.connect(addr)

    def write(self, data):
        self.net.writes += 1
        self.net.biggest_write = max(self.net.biggest_write, len(data))
        try:
            n = self.raw.write(data) if MP else self.raw.send(data)
        except OSError as e:
            if e.args[0] == 11:  # EAGAIN: nothing taken
                return None
            raise
        return n

    def readinto(self, buf, n):
        self.net.reads += 1
        try:
            if MP:
                return self.raw.readinto(buf, n)
            return self.raw.recv_into(buf, n)
        except OSError as e:
            if e.args[0] == 11:
                return None
            raise

    def close(self):
        self.raw.close()


class Poll:
    def __init__(self):
        import select

        self.p = select.poll()

    def register(self, s, mask):
        self.p.register(s.raw, mask)

    def modify(self, s, mask):
        self.p.modify(s.raw, mask)

    def unregister(self, s):
        self.p.unregister(s.raw)

    def ipoll(self, timeout):
        return self.p.ipoll(timeout) if MP else self.p.poll(timeout)


class Net:
    """The client's `net`: real sockets to 127.0.0.1, each call counted."""

    def __init__(self):
        self.writes = self.reads = self.biggest_write = 0

    def socket(self):
        s = socket.socket()
        nodelay(s)
        return Sock(s, self)

    def getaddrinfo(self, host, port):
        return socket.getaddrinfo(host, port)

    def poll(self):
        return Poll()


def nodelay(s):
    """Small writes go at once: with Nagle's algorithm and the peer's delayed ACK a write can
    wait 40 ms on Linux, and the tests step in simulated milliseconds."""
    s.setsockopt(6, 1, 1)  # IPPROTO_TCP, TCP_NODELAY (no names for them in MicroPython)


def listener():
    """A listening socket on 127.0.0.1 and its port (MicroPython's sockets have no
    getsockname: ports are tried from a random start)."""
    import os

    base = 20000 + int.from_bytes(os.urandom(2), "big") % 30000
    for port in range(base, base + 200):
        s = socket.socket()
        try:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(socket.getaddrinfo("127.0.0.1", port)[0][-1])
            s.listen(4)
            s.setblocking(False)
            return s, port
        except OSError:
            s.close()
    raise OSError("no free port")


class Script:
    """The broker's end, played by the test: accepts the client's connection, reads its
    packets, sends what the test says."""

    def __init__(self):
        self.server, self.port = listener()
        self.conn = None
        self.buf = bytearray()
        self.packets = []  # (first byte, body) read from the client, in order

    def accept(self):
        if self.conn is None:
            try:
                c = self.server.accept()[0]
            except OSError:
                return False
            c.setblocking(False)
            nodelay(c)
            self.conn = c
            self.buf = bytearray()
        return True

    def pump(self):
        """Reads what the client sent; the new packets."""
        if not self.accept():
            return []
        while True:
            try:
                data = self.conn.recv(4096)
            except OSError:
                break
            if not data:
                break
            self.buf.extend(data)
        new = []
        while len(self.buf) >= 2:
            n, shift, i = 0, 0, 1
            while True:
                if i >= len(self.buf):
                    return self._keep(new)
                b = self.buf[i]
                n |= (b & 0x7F) << shift
                i += 1
                if not b & 0x80:
                    break
                shift += 7
            if len(self.buf) < i + n:
                break
            new.append((self.buf[0], bytes(self.buf[i : i + n])))
            self.buf = self.buf[i + n :]
        return self._keep(new)

    def _keep(self, new):
        self.packets.extend(new)
        return new

    def send(self, data):
        self.conn.send(data)

    def cut(self):
        """The connection ends from the broker's side."""
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def close(self):
        self.cut()
        self.server.close()


def pause():
    """A real millisecond: loopback bytes sent are readable at the other end within it."""
    import time

    if MP:
        time.sleep_ms(1)
    else:
        time.sleep(0.001)


def length(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | 0x80 if n else b)
        if not n:
            return bytes(out)


def connack(session=0, code=0):
    return bytes((0x20, 2, session, code))


def puback(pid):
    return bytes((0x40, 2, pid >> 8, pid & 0xFF))


def suback(pid, code=1):
    return bytes((0x90, 3, pid >> 8, pid & 0xFF, code))


def publish(topic, payload, pid=0, qos=1):
    body = bytes((len(topic) >> 8, len(topic) & 0xFF)) + topic
    if qos:
        body += bytes((pid >> 8, pid & 0xFF))
    body += payload
    return bytes((0x30 | qos << 1,)) + length(len(body)) + body


def strings(body, i, n):
    """n length-prefixed strings from body at i; (list, next index)."""
    out = []
    for _ in range(n):
        k = (body[i] << 8) | body[i + 1]
        out.append(bytes(body[i + 2 : i + 2 + k]))
        i += 2 + k
    return out, i


def published(packet):
    """(topic, pid, dup, retain, payload) of a PUBLISH the client sent."""
    first, body = packet
    (topic,), i = strings(body, 0, 1)
    pid = (body[i] << 8) | body[i + 1]
    return topic, pid, bool(first & 0x08), bool(first & 0x01), body[i + 2 :]
