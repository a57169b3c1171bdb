# The cards' tags (sim/chips/__init__.py): NTAG213 stickers, ISO/IEC 14443-3 Type A.
#   [NTAG]     NXP NTAG213/215/216 product data sheet rev. 3.2 (8.4 state machine, 8.5 UID,
#              9.4 ATQA and SAK)
#   [14443-3]  ISO/IEC 14443-3:2001 Type A (6.2 frames, timing and CRC_A, 6.3 PICC states,
#              6.4 command set and the anticollision loop, Annex B CRC_A)
#   [STACK]    bitexperts.com, "Can you stack multiple NFC cards on top of each other in your
#              wallet" (NTAG203 cards and stickers, two phones as readers): stacked precisely
#              on top of each other, none read, "not even 2 cards", 0 of 20 attempts; they
#              "slowly start working once you introduce more and more misalignment". And
#              tlfong01.blog, "Can RFID read stacked cards?" (an RC522 and a PN532): a stack
#              of two cards stops the reader; splayed, it complains (collisions).
#   [COIL]     NXP AN12342, Card Coil Design Guide: a card's coil and capacitor are a resonant
#              circuit tuned near 13.56 MHz; what couples to it (another card's coil) shifts
#              its resonance away, and the power it takes from the field falls.
# Coupling, as modelled (coupled, below): two stickers whose centres lie within ALIGNED_MM
# of each other, both over the antenna, detune each other and neither answers: taken here
# for unpowered (POWER-OFF, its state lost), as a tag that cannot draw the field's energy;
# a real one might keep its state and only fail to answer. Farther apart they answer as
# single tags do, and collide. Not expressed: the gradual return between the two (the
# measurement's "slowly"), how far apart is far enough (ALIGNED_MM is the "few millimetres"
# of the card spot's outline, not a measured figure), the field's strength and its edge, a
# stack of more than two (each detunes the others the same), memory reads and writes.
from micropython import const

_OFF = const(0)  # [14443-3 6.3.1] POWER-OFF: no field
IDLE = const(1)  # [14443-3 6.3.2] [NTAG 8.4.1]
READY = const(2)  # [14443-3 6.3.3] [NTAG 8.4.2/8.4.3] READY1/READY2: level = which cascade level
ACTIVE = const(3)  # [14443-3 6.3.4] [NTAG 8.4.4]
HALT = const(4)  # [14443-3 6.3.5] [NTAG 8.4.6]
STATE_NAMES = ("POWER-OFF", "IDLE", "READY", "ACTIVE", "HALT")

REQA = 0x26  # [14443-3 6.4.1] short frame, 7 bits
WUPA = 0x52  # [14443-3 6.4.2] short frame, 7 bits
HLTA = 0x50  # [14443-3 6.4.4] 50 00 + CRC_A
SEL = (0x93, 0x95, 0x97)  # [14443-3 6.4.3.2] cascade levels 1-3
CT = 0x88  # [14443-3 6.4.4 / 6.5.4] the cascade tag: first byte of every level but the last
ALIGNED_MM = const(5)  # stickers closer than this, centre to centre, detune each other [STACK]


def coupled(a, b):
    """Whether tags `a` and `b` (in the same field) lie close enough to detune each other:
    their stickers within ALIGNED_MM [STACK, COIL]."""
    dx = a.x - b.x
    dy = a.y - b.y
    return dx * dx + dy * dy < ALIGNED_MM * ALIGNED_MM


def crc_a(data, n, preset=0x6363):
    """[14443-3 Annex B] CRC_A: x^16 + x^12 + x^5 + 1, bits LSB first, preset 6363h, no final
    XOR; sent low byte first. Bit by bit, written apart from the driver's on purpose."""
    crc = preset
    for i in range(n):
        crc ^= data[i]
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


class Tag:
    """An ISO/IEC 14443-3 Type A tag with a 4-, 7- or 10-byte UID, as it answers a reader.
    NTAG213 stickers: 7 bytes, ATQA 0044h, SAK 00h [NTAG 9.4]. A deck of them lies in the
    simulated field, so a tag is one bytearray: state, cascade level, from HALT, SAK, UID
    size, the UID, then each cascade level's 4 bytes and BCC. Where its sticker lies over
    the antenna (x, y, in mm from the card spot's centre) says whom it couples with."""

    x = 0
    y = 0

    def __init__(self, uid, sak=None):
        uid = bytes(uid)
        n = len(uid)
        if n not in (4, 7, 10):
            raise ValueError("a UID has 4, 7 or 10 bytes [14443-3 6.5.4]")
        # [14443-3 6.5.4], [NTAG 8.5]: the UID split by cascade level, CT first at every level
        # but the last, each level's 4 bytes followed by BCC (their XOR)
        if n == 4:
            parts = uid
        elif n == 7:
            parts = bytes((CT,)) + uid[:3] + uid[3:]
        else:
            parts = bytes((CT,)) + uid[:3] + bytes((CT,)) + uid[3:6] + uid[6:]
        b = bytearray(5 + n + len(parts) // 4 * 5)
        b[3] = (0x00 if n == 7 else 0x08) if sak is None else sak
        b[4] = n
        b[5 : 5 + n] = uid
        o = 5 + n
        for k in range(len(parts) // 4):
            p = parts[4 * k : 4 * k + 4]
            b[o : o + 4] = p
            b[o + 4] = p[0] ^ p[1] ^ p[2] ^ p[3]
            o += 5
        self.b = b

    @property
    def uid(self):
        return bytes(self.b[5 : 5 + self.b[4]])

    @property
    def state(self):
        return self.b[0]

    @property
    def sak(self):
        return self.b[3]

    @property
    def atqa(self):
        # [14443-3 6.5.2 ATQA]: bits 8-7 give the UID size (00 single, 01 double, 10 triple);
        # bit 3 set: bit frame anticollision. [NTAG 9.4]: 44h 00h, sent low byte first.
        n = self.b[4]
        return b"\x04\x00" if n == 4 else b"\x44\x00" if n == 7 else b"\x84\x00"

    @property
    def levels(self):
        b = self.b
        o = 5 + b[4]
        return [bytes(b[o + 5 * k : o + 5 * k + 5]) for k in range((len(b) - o) // 5)]

    def power(self, on):
        """[14443-3 6.3.1]: out of the field the tag is off; in it, power-on reset: IDLE."""
        b = self.b
        b[0] = IDLE if on else _OFF
        b[1] = 0
        b[2] = 0  # READY*/ACTIVE* [14443-3 6.3.6/6.3.7]: set when woken from HALT

    def _error(self):
        # [NTAG 8.4.2-8.4.4]: "any other data received ... is interpreted as an error and
        # depending on its previous state NTAG21x returns to the IDLE or HALT state"
        self.b[0] = HALT if self.b[2] else IDLE
        self.b[1] = 0

    def hear(self, frame, nbits):
        """The PCD sent `nbits` bits of `frame`. Returns the answer (bytes, nbits, align: the
        answer's first bit is bit `align` of its first byte) or None (silent)."""
        b = self.b
        state = b[0]
        if state == _OFF:
            return None
        if nbits == 7:  # a short frame [14443-3 6.2.3.1]
            cmd = frame[0] & 0x7F
            if cmd == REQA and state == IDLE or cmd == WUPA and state in (IDLE, HALT):
                # [NTAG 8.4.1/8.4.6]: REQA wakes IDLE tags, WUPA also HALTed ones
                b[2] = 1 if state == HALT else 0
                b[0] = READY
                b[1] = 0
                return self.atqa, 16, 0
            if state in (READY, ACTIVE):
                self._error()
            return None  # [NTAG 8.4.1]: IDLE ignores the rest; [NTAG 8.4.6]: HALT too
        if state in (IDLE, HALT):
            return None
        if state == ACTIVE:
            if (
                nbits == 32
                and frame[0] == HLTA
                and frame[1] == 0
                and crc_a(frame, 2) == frame[2] | frame[3] << 8
            ):
                b[0] = HALT  # [NTAG 8.4.4]: HLTA -> HALT, no answer
                b[1] = 0
                b[2] = 1
                return None
            self._error()
            return None
        # READY at cascade level b[1]
        level = b[1]
        if nbits < 16 or frame[0] != SEL[level]:
            self._error()
            return None
        cl = 5 + b[4] + 5 * level  # where this level's 5 bytes are in b
        nvb = frame[1]
        if nvb == 0x70:  # SELECT [14443-3 6.4.3]
            ok = nbits == 72 and crc_a(frame, 7) == frame[7] | frame[8] << 8
            for j in range(5):
                ok = ok and frame[2 + j] == b[cl + j]
            if not ok:
                self._error()  # [NTAG 8.4.2]: not its UID, or a bad frame
                return None
            if cl + 5 < len(b):
                b[1] = level + 1  # [NTAG 8.4.2]: READY1 -> READY2, SAK with the cascade bit
                sak = 0x04
            else:
                b[0] = ACTIVE
                sak = b[3]
            c = crc_a(bytes((sak,)), 1)
            return bytes((sak, c & 0xFF, c >> 8)), 24, 0
        # ANTICOLLISION [14443-3 6.4.3.1, 6.4.3.3]: NVB = bytes sent (upper) and bits (lower)
        nb = nvb >> 4
        nl = nvb & 0x0F
        known = (nb - 2) * 8 + nl
        if nb < 2 or nl > 7 or known > 32 or nbits != nb * 8 + nl:
            self._error()
            return None
        full = known >> 3
        for j in range(full):
            if frame[2 + j] != b[cl + j]:
                return None  # not its UID: silent, still READY [14443-3 6.4.3.1]
        part = known & 7
        if part and (frame[2 + full] ^ b[cl + full]) & ((1 << part) - 1):
            return None
        ans = bytearray(b[cl + full : cl + 5])
        ans[0] &= ~((1 << part) - 1) & 0xFF
        return bytes(ans), 40 - known, part
