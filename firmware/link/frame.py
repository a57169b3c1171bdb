# Wire framing shared by the board and the host (P1).
#
# A frame is COBS(payload + CRC32 little-endian) between two 0x00 delimiters. COBS removes
# every 0x00 from the body, so a reader that lost sync (boot messages, a stray print, a
# traceback, line noise) drops bytes up to the next 0x00 and is back in step. The leading
# 0x00 ends whatever noise came before the frame, so noise costs only itself, not the frame
# after it (the first command after line noise, a `hello` included, used to be lost); two
# delimiters in a row are an empty frame, which readers skip. The CRC rejects what COBS alone
# cannot see.
#
# The payload is one JSON object (an event from the board, a command from the host). JSON is
# larger than a packed struct but every tool, log and person can read it, and json.dumps of a
# small dict costs well under a millisecond on an ESP32 next to a 1 s heartbeat.
from binascii import crc32

from micropython import const

MAX_FRAME = const(1024)  # longest decoded body accepted; longer means a lost delimiter


def cobs_encode(data, delimit=False):
    """COBS of data (bytes or bytearray), between two 0x00 delimiters when `delimit`. Each
    block (a run of at most 254 bytes between zeros) is found with find() and copied whole:
    the bytes are never walked one by one in Python, the cost of a frame on the board."""
    n = len(data)
    size = n + 1 + (2 if delimit else 0)
    i = 0
    while True:  # the exact size first: one more byte per full block of 254
        z = data.find(b"\x00", i)
        size += ((n if z < 0 else z) - i) // 254
        if z < 0:
            break
        i = z + 1
    out = bytearray(size)  # zeros: the delimiters are already in place
    src = memoryview(data)
    o = 1 if delimit else 0
    i = 0
    while True:
        z = data.find(b"\x00", i)
        end = n if z < 0 else z
        while end - i >= 254:  # a full block: code 0xFF, no zero after it
            out[o] = 0xFF
            out[o + 1 : o + 255] = src[i : i + 254]
            o += 255
            i += 254
        out[o] = end - i + 1
        out[o + 1 : o + 1 + end - i] = src[i:end]
        o += end - i + 1
        if z < 0:
            return bytes(out)
        i = z + 1


def cobs_decode(data):
    """Decode one COBS body (no delimiter). Raises ValueError if it is not valid COBS."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ValueError("zero byte inside a COBS frame")
        end = i + code
        if end > n:
            raise ValueError("COBS block runs past the frame")
        out.extend(data[i + 1 : end])
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


def encode(payload):
    """payload bytes -> one frame, 0x00 before and after"""
    crc = crc32(payload) & 0xFFFFFFFF
    n = len(payload)
    body = bytearray(n + 4)
    body[:n] = payload
    body[n] = crc & 0xFF
    body[n + 1] = (crc >> 8) & 0xFF
    body[n + 2] = (crc >> 16) & 0xFF
    body[n + 3] = crc >> 24
    return cobs_encode(body, True)


def check(body):
    """One COBS body (delimiter stripped) -> payload bytes. ValueError names what is wrong."""
    raw = cobs_decode(body)
    if len(raw) < 5:
        raise ValueError("frame too short")
    payload = raw[:-4]
    c = raw[-4:]
    got = c[0] | (c[1] << 8) | (c[2] << 16) | (c[3] << 24)
    if got != crc32(payload) & 0xFFFFFFFF:
        raise ValueError("CRC mismatch")
    return payload


class Decoder:
    """Feed it bytes as they come; it returns the payloads of the good frames. The one
    decoder of the link: the board's (link/link.py) and the host's (plateau.hostlink).

    Bad frames are counted (errors, last_error), never raised: the link must survive noise.
    The body buffer is preallocated and bounded by MAX_FRAME. Delimiters are found with
    find() and the bytes between them copied as a block, never walked one by one in Python:
    the host logs tens of thousands of events a second through it, and the board spends
    little of a pass on a command."""

    def __init__(self, max_frame=MAX_FRAME):
        self._buf = bytearray(max_frame)
        self._n = 0
        self._overflow = False
        self.errors = 0
        self.last_error = None

    def feed(self, data):
        """`data`: bytes or bytearray, any part of the stream. One method, no helpers: on a
        frozen board each method of a class costs heap (a function object and a slot)."""
        out = []  # type: list[bytes]
        buf = self._buf
        n = len(data)
        i = 0
        while i < n:
            z = data.find(b"\x00", i)
            if z < 0 or self._n or self._overflow:
                # a frame that spans pieces: its bytes into the buffer (a few, byte by byte,
                # nothing allocated), checked there when its end comes
                end = n if z < 0 else z
                k = self._n
                if self._overflow or k + end - i > len(buf):
                    self._overflow = True
                else:
                    for j in range(i, end):
                        buf[k] = data[j]
                        k += 1
                    self._n = k
                if z < 0:
                    break
                body, start, stop, over = buf, 0, k, self._overflow
                self._n = 0
                self._overflow = False
            else:  # a whole frame inside this piece, checked in place
                body, start, stop, over = data, i, z, z - i > len(buf)
            if over:
                self._fail("frame longer than %d bytes" % len(buf))
            elif stop > start:
                try:
                    out.append(check(memoryview(body)[start:stop]))
                except (ValueError, MemoryError) as e:  # short of heap: a frame lost
                    self._fail(str(e))
            i = z + 1
        return out

    def _fail(self, why):
        self.errors += 1
        self.last_error = why
