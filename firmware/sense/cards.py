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
# A new search for a tag (REQA) starts at most every POLL_MS: a card is found within 40 ms of
# landing, and the reader costs the scan loop a few SPI writes 25 times a second, not 200.
POLL_MS = const(40)


def uid_hex(uid):
    return "".join("%02X" % b for b in uid)


class CardReads:
    def __init__(self, reader, registry, reread_ms=REREAD_MS):
        self._reader = reader
        self.registry = registry  # UID hex -> card text ("7H", "X", ...)
        self.reread_ms = reread_ms
        self._last_uid = None
        self._last_at = 0
        self._searched_at = None
        self.enrol_as = None  # a card name: the next tag read is enrolled as that card

    def poll(self, now):
        """None, or (card text or None, uid hex, enrolled?) for a new read; a None card is an
        unknown tag; enrolled is True when this read enrolled the tag (see enrol_as)."""
        reader = self._reader
        if not reader.busy():
            if self._searched_at is not None and elapsed(now, self._searched_at) < POLL_MS:
                return None
            self._searched_at = now
        uid = reader.poll()
        if uid is None:
            return None
        h = uid_hex(uid)
        if h == self._last_uid and elapsed(now, self._last_at) < self.reread_ms:
            self._last_at = now
            return None
        self._last_uid = h
        self._last_at = now
        if self.enrol_as is not None:
            card = self.enrol_as
            self.enrol_as = None
            self.registry[h] = card
            return card, h, True
        return self.registry.get(h), h, False
