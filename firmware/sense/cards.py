# Card reads: tag UIDs from the reader into cards, and the pile told apart from new cards.
#
# The reader halts every tag it reads, so a card resting on the reader answers once; the same
# card lifted and laid again powers up fresh and is read again.
#
# The pile. Whenever the reader's field comes on (power-up, or the chip reset after it stopped
# answering) every tag lying in it wakes up at once, and the reader takes stock: it reads them
# all, one by one, until searches find no tag awake (three in a row, so that one damaged
# answer does not end it early). At power-up this is done before the table starts (it blocks
# for about 12 ms a card: the board is starting anyway), and the tags found are the pile, told
# to the game in one `pile` read, not as cards played. After a chip reset mid-game it is done
# without blocking: the tags already read since power-up are the pile again and are dropped,
# others count as new cards. From then on every read is a card laid on top. A card laid while
# the board starts is on the pile when the field comes on: it is taken for the pile.
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
QUIET = const(3)  # empty searches in a row that end the stocktaking (see hal/mfrc522.py)
SEEN = const(64)  # tags remembered since power-up: a deck and its jokers, with room
_SLOT = const(11)  # a remembered UID: its length, then up to 10 bytes


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
        self._seen = bytearray(SEEN * _SLOT)  # UIDs read since power-up (the last SEEN)
        self._next = 0  # the slot the next new UID takes
        self.enrol_as = None  # a card name: the next tag read is enrolled as that card

    def forget(self):
        """The last read was refused: the same card laid again is a new read, however soon
        (the re-read filter is for a tag flickering at the edge of the field)."""
        self._last_uid = None

    def take_stock(self):
        """At power-up, before the table starts: every tag lying on the reader, read at once
        (blocking). Returns the pile, [(card or None, uid hex), ...]."""
        reader = self._reader
        pile = []  # type: list
        if not reader.power_ups:
            return pile  # the reader is not up: the stocktaking comes when it is (poll)
        self._field = reader.power_ups
        for uid in reader.read_field():
            self._remember(uid)
            h = uid_hex(uid)
            pile.append((self.registry.get(h), h))
        self._first = False
        return pile

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
                self._remember(uid)
                self._pile.append((self.registry.get(h), h))
                return None
            if self._known(uid):
                return None  # on the pile since before the reset
        if h == self._last_uid and elapsed(now, self._last_at) < self.reread_ms:
            self._last_at = now
            return None
        self._last_uid = h
        self._last_at = now
        self._remember(uid)
        if self.enrol_as is not None:
            card = self.enrol_as
            self.enrol_as = None
            self.registry[h] = card
            return "enrolled", card, h
        return "card", self.registry.get(h), h

    def _known(self, uid):
        seen = self._seen
        n = len(uid)
        for o in range(0, SEEN * _SLOT, _SLOT):
            if seen[o] == n:
                for i in range(n):
                    if seen[o + 1 + i] != uid[i]:
                        break
                else:
                    return True
        return False

    def _remember(self, uid):
        if self._known(uid):
            return
        o = self._next * _SLOT
        self._seen[o] = len(uid)
        self._seen[o + 1 : o + 1 + len(uid)] = uid
        self._next = (self._next + 1) % SEEN
