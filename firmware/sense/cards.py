# Card reads: tag UIDs from the reader into cards, de-duplicated.
#
# The MFRC522 driver halts each tag it reads, so a card resting on the reader answers once;
# the same card laid again after being lifted powers up fresh and is read again. What the
# halt cannot hide is a tag whose power flickers while it rests (a card at the edge of the
# field): it re-wakes and is read again. A repeat of the same UID within REREAD_MS is taken
# for that and dropped; a person cannot lift and lay a card again that fast.
from micropython import const

from clock import elapsed

REREAD_MS = const(600)


def uid_hex(uid):
    return "".join("%02X" % b for b in uid)


class CardReads:
    def __init__(self, reader, registry, reread_ms=REREAD_MS):
        self._reader = reader
        self.registry = registry  # UID hex -> card text ("7H", "X", ...)
        self.reread_ms = reread_ms
        self._last_uid = None
        self._last_at = 0
        self.enrolling = False  # when True, reads are reported as raw UIDs (enrolment)

    def poll(self, now):
        """None, or (card text or None, uid hex) for a new read; None card = unknown tag."""
        uid = self._reader.poll()
        if uid is None:
            return None
        h = uid_hex(uid)
        if h == self._last_uid and elapsed(now, self._last_at) < self.reread_ms:
            self._last_at = now
            return None
        self._last_uid = h
        self._last_at = now
        if self.enrolling:
            return None, h
        return self.registry.get(h), h
