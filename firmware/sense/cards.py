# Card reads: tag UIDs from the reader into cards, and the pile told apart from new cards.
#
# The reader halts every tag it reads, so a card resting on the reader answers once; the same
# card lifted and laid again powers up fresh and is read again.
#
# The pile. Whenever the reader's field comes on (power-up, or the chip reset after it stopped
# answering) every tag lying in it wakes up at once. The reader then takes stock: it reads them
# all, one by one, until a search finds no tag awake (twice in a row, so that one damaged
# answer does not end it early). At power-up the tags found are the pile, told to the game in
# one `pile` read, not as cards played; after a chip reset, the tags already read since
# power-up are the pile again and are dropped, and only others count as new cards. From then
# on every read is a card laid on top.
#
# What the halt cannot hide is a tag whose power flickers while it rests (a card at the edge of
# the field): it re-wakes and is read again. A repeat of the same UID within REREAD_MS is taken
# for that and dropped; a person cannot lift and lay a card again that fast.
from micropython import const

from clock import elapsed

REREAD_MS = const(600)
# A new search for a tag (REQA) starts at most every POLL_MS while none answers: a card is
# found within 40 ms of landing, and an idle reader costs the scan loop a few SPI writes 25
# times a second, not 200. While tags answer, the next search starts at once.
POLL_MS = const(40)
QUIET = const(2)  # empty searches in a row that end the stocktaking
SEEN = const(64)  # tags remembered since power-up: a deck and its jokers, with room


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
        self._field = 0  # the reader's power_ups when last looked at
        self.stocktaking = False  # reading what lies in the field after it came on
        self._first = True  # the first stocktaking since power-up finds the pile
        self._pile = []  # (card or None, uid hex) found by it
        self._seen = []  # UIDs read since power-up, newest last (at most SEEN)
        self.enrol_as = None  # a card name: the next tag read is enrolled as that card

    def poll(self, now):
        """None, or one of ("card", card text or None, uid hex) for a card laid (None: an
        unknown tag), ("enrolled", card, uid hex), ("pile", [(card or None, uid hex), ...],
        None) once the tags lying on the reader at power-up have all been read."""
        reader = self._reader
        if reader.power_ups != self._field:  # the field (re)started: every tag is awake
            self._field = reader.power_ups
            self.stocktaking = True
        if not reader.busy():
            if self.stocktaking and reader.quiet >= QUIET:
                self.stocktaking = False
                if self._first:
                    self._first = False
                    pile = self._pile
                    self._pile = []
                    if pile:
                        return "pile", pile, None
            if (
                reader.quiet
                and self._searched_at is not None
                and elapsed(now, self._searched_at) < POLL_MS
            ):
                return None
            self._searched_at = now
        uid = reader.poll()
        if uid is None:
            return None
        h = uid_hex(uid)
        if self.stocktaking:
            if self._first:
                self._remember(h)
                self._pile.append((self.registry.get(h), h))
                return None
            if h in self._seen:
                return None  # on the pile since before the reset
        if h == self._last_uid and elapsed(now, self._last_at) < self.reread_ms:
            self._last_at = now
            return None
        self._last_uid = h
        self._last_at = now
        self._remember(h)
        if self.enrol_as is not None:
            card = self.enrol_as
            self.enrol_as = None
            self.registry[h] = card
            return "enrolled", card, h
        return "card", self.registry.get(h), h

    def _remember(self, h):
        seen = self._seen
        if h in seen:
            seen.remove(h)
        seen.append(h)
        if len(seen) > SEEN:
            seen.pop(0)
