# Card reads: tag UIDs from the reader into cards, one card at a time on the card spot.
#
# The reader halts every tag it reads, so a card resting on the spot answers once; the same
# card lifted and laid again powers up fresh and is read again.
#
# The look at the spot. Whenever the reader's field comes on (power-up, or the chip reset
# after it stopped answering) a tag lying on the spot wakes up, and the reader looks until
# searches find no tag awake (three in a row, so that one damaged answer does not end it
# early). At power-up the tag found is told as ("pile", ...): the game decides whether it is
# the card it last took, read before the power went (games/cards.py); it is never enrolled.
# After a chip reset mid-game the tag last told is dropped (it lies there still), any other is
# a card laid. At most one card lies on the spot (two aligned do not answer at all: the tag
# model, sim/chips/ntag213.py; two askew are said as two, below).
#
# What the halt cannot hide is a tag whose power flickers while it rests (a card at the edge of
# the field): it re-wakes and is read again. A repeat of the same UID within _REREAD_MS is taken
# for that and dropped; a person cannot lift and lay a card again that fast.
from micropython import const

from clock import elapsed

_REREAD_MS = const(600)
# A new search for a tag (REQA) starts at most every _POLL_MS while none answers: a card is
# found within 40 ms of landing, and an idle reader costs the scan loop a few SPI writes 25
# times a second, not 200. While tags answer, and while the reader looks at the spot after
# its field came on (a few passes), the next search starts at once.
_POLL_MS = const(40)
_QUIET = const(3)  # empty searches in a row that end the look at the spot (hal/mfrc522.py)
# Two cards on the card spot: while two tags are said to lie there, the tags lying in the
# field are counted again (a WUPA wakes them from HALT) every _CROWD_MS, until one lies alone
_CROWD_MS = const(150)
# Tags a table can enrol (`enrol`), besides the ones hardware/tags.json names: two French
# decks with jokers and a Spanish one (156), with room. They are kept in _TAG bytes each
# (UID length, UID, the card's name in ASCII, zero-padded: "es:12B" is the longest; sensing
# knows no game, so no game's numbering of its cards), 2,720 bytes for all: as text in a
# dict they would take about 72 bytes each (11.5 KB for 160, measured on the 32-bit build),
# more than the simulated table has to spare at an ESP32's heap. The bytes come in chunks of
# _CHUNK tags, taken as tags are enrolled: a table that enrols none pays nothing, and no
# chunk needs a long free run of a fragmented heap. A read looks a tag up in hardware's
# registry first, then scans these (a few ms on an ESP32, once per card laid).
ENROL_MAX = const(160)
_SLOT = const(11)  # an enrolled tag's UID: its length, then up to 10 bytes
_CARD = const(6)  # a card's name, at most
_TAG = const(17)  # an enrolled tag: the same, then its card's name (_SLOT + _CARD)
_CHUNK = const(16)


def uid_hex(uid):
    return "".join("%02X" % b for b in uid)


class CardReads:
    def __init__(self, reader, registry, reread_ms=_REREAD_MS):
        self._reader = reader
        self.registry = registry  # UID hex -> card text ("7H", "X", ...)
        self.reread_ms = reread_ms
        self._last_uid = None  # the tag last told (UID hex)
        self._last_at = 0
        self._again = False  # it was refused: laid again at once, it is read again (forget)
        self.reads = 0  # cards and tags read and told (a person laying one sees it taken)
        self._searched_at = None
        self._field = 0  # the reader's power_ups when last looked at
        self.stocktaking = False  # looking at the spot after the field came on
        self._pile = True  # a tag read in the look at power-up is told as "pile"
        # The card spot (below, poll): a read is told once the search after it found no
        # other tag (_held until then); two tags in one search are two cards on the spot
        # (_crowd: their (uid, hex), said at once), and nothing is played until one lies
        # there alone (_crowd_now: the tags a WUPA search found, while _recounting)
        self._held = None
        self._crowd = None
        self._crowd_now = []  # type: list
        self._crowd_at = 0
        self._recounting = False
        self.enrol_as = None  # a card name: the next tag read is enrolled as that card
        self._tags = []  # the tags enrolled here (on flash too): bytearrays of _CHUNK
        self.enrolled = 0  # how many

    def card_of(self, uid, h=None):
        """The card a tag (UID bytes; `h` its hex) is: hardware's registry, then the tags
        enrolled here; None for an unknown tag."""
        card = self.registry.get(h or uid_hex(uid))
        if card is None:
            i = self._find(uid)
            if i >= 0:
                card = _card_at(self._tags[i // _CHUNK], i % _CHUNK * _TAG)
        return card

    def _find(self, uid):
        """The index of an enrolled tag; -1 if it is not enrolled."""
        for k in range(len(self._tags)):
            i = _find(self._tags[k], _TAG, min(_CHUNK, self.enrolled - k * _CHUNK), uid)
            if i >= 0:
                return k * _CHUNK + i
        return -1

    def learn(self, uid, card):
        """Enrols tag `uid` (bytes) as `card` (checked text): None when done (or it was that
        card already), else why refused (nothing changes): a tag that is another card
        already, or the table full."""
        known = self.card_of(uid)
        if known == card:
            return None
        if known is not None:  # (`unenrol` would not forget a tag of hardware/tags.json)
            return "tag %s is %s already: lay the tag of %s, or stop waiting (enrol cancel)" % (
                uid_hex(uid),
                known,
                card,
            )
        if self.enrolled >= ENROL_MAX:
            return (
                "the table holds %d enrolled tags, its most: forget some first (unenrol TAG, "
                "or unenrol all)" % ENROL_MAX
            )
        if not 0 < len(card) <= _CARD:
            return "%r is no card's name" % card
        n = self.enrolled
        if n == len(self._tags) * _CHUNK:
            self._tags.append(bytearray(_CHUNK * _TAG))
        t = self._tags[n // _CHUNK]
        o = n % _CHUNK * _TAG
        t[o] = len(uid)
        t[o + 1 : o + 1 + len(uid)] = uid
        name = card.encode()
        t[o + _SLOT : o + _TAG] = name + bytes(_CARD - len(name))
        self.enrolled += 1
        return None

    def unlearn(self, h):
        """Forgets enrolled tag `h` (UID hex; "all": every one): None when done, else why."""
        if h == "all":
            self.enrolled = 0
            self._tags = []
            return None
        uid = bytes.fromhex(h)
        i = self._find(uid)
        if i < 0:
            card = self.registry.get(h)
            if card is not None:
                return "tag %s is %s in the board's hardware/tags.json, not enrolled here" % (
                    h,
                    card,
                )
            return "tag %s is not enrolled" % h
        self.enrolled -= 1  # the last one takes its place
        n = self.enrolled
        hole = self._tags[i // _CHUNK]
        last = self._tags[n // _CHUNK]
        o = i % _CHUNK * _TAG
        p = n % _CHUNK * _TAG
        for k in range(_TAG):
            hole[o + k] = last[p + k]
        if not n % _CHUNK:
            self._tags.pop()  # its chunk is empty
        return None

    def tags(self):
        """The enrolled tags, (UID hex, card) one at a time (what store.py writes)."""
        for i in range(self.enrolled):
            t = self._tags[i // _CHUNK]
            o = i % _CHUNK * _TAG
            yield uid_hex(t[o + 1 : o + 1 + t[o]]), _card_at(t, o)

    def forget(self):
        """The last read was refused: the same card laid again is a new read, however soon
        (the re-read filter is for a tag flickering at the edge of the field)."""
        self._again = True

    def poll(self, now):
        """None, or one of ("card", card text or None, uid hex) for a card laid (None: an
        unknown tag), ("enrol", card, uid hex) for a tag laid while `enrol_as` waits for one
        (the table enrols it: learn), ("pile", card text or None, uid hex) for the tag found
        lying on the spot at power-up (the game's to tell: games/cards.py), ("two", [card,
        card], [uid hex, uid hex]) for two cards on the spot at once."""
        reader = self._reader
        if reader.power_ups != self._field:  # the field (re)started: a tag lying there wakes
            self._field = reader.power_ups
            self.stocktaking = True
        if not reader.busy():
            if self.stocktaking and reader.quiet >= _QUIET:
                self.stocktaking = False
                if self._held is None and self._crowd is None:
                    self._pile = False  # the look at power-up is over: none lay there
            wake = False
            if self._crowd is not None:
                if self._recounting and reader.quiet:  # the WUPA search and its reads done
                    return self._recount(now)
                if not self._recounting:
                    if elapsed(now, self._crowd_at) < _CROWD_MS:
                        return None
                    self._recounting = True
                    self._crowd_now = []
                    reader.wake = wake = True  # this search: every tag lying there answers
            elif self._held is not None and reader.quiet:  # no other tag came with it
                held = self._held
                self._held = None
                return self._told(held[0], held[1], now)
            if (
                not wake
                and not self.stocktaking  # the look at the spot searches at every pass
                and reader.quiet
                and self._searched_at is not None
                and elapsed(now, self._searched_at) < _POLL_MS
            ):
                return None
            self._searched_at = now
        uid = reader.poll()
        if uid is None:
            return None
        h = uid_hex(uid)
        if self._crowd is not None:  # counting what lies on the spot
            if self._recounting:
                for u, k in self._crowd_now:
                    if k == h:
                        return None
                self._crowd_now.append((uid, h))
            return None
        if self.stocktaking and not self._pile and h == self._last_uid:
            return None  # the chip was reset: the card last told lies there still
        if h == self._last_uid and not self._again and elapsed(now, self._last_at) < self.reread_ms:
            self._last_at = now
            return None
        held = self._held
        if held is None:  # told once the next search finds no other tag with it
            self._held = (uid, h)
            return None
        if held[1] == h:
            return None  # the same tag again (its HLTA failed)
        # a second tag in the same search: two cards lie on the spot, both awake. Said at
        # once; neither is played until one lies there alone (_recount)
        self._held = None
        self._crowd = [held, (uid, h)]
        self._crowd_at = now
        self._recounting = False
        self.reads += 1
        return "two", [self.card_of(held[0], held[1]), self.card_of(uid, h)], [held[1], h]

    def _told(self, uid, h, now):
        """A tag read alone on the spot: the card laid (or the tag to enrol, or the tag
        found lying there at power-up)."""
        self._last_uid = h
        self._last_at = now
        self._again = False
        self.reads += 1
        if self._pile:
            self._pile = False
            return "pile", self.card_of(uid, h), h
        if self.enrol_as is not None:
            return "enrol", self.enrol_as, h
        return "card", self.card_of(uid, h), h

    def _recount(self, now):
        """Two cards were said to lie on the spot: what the last WUPA search found there.
        One tag alone is the card laid, told now; none, both were taken away (nothing is
        told: each is read when laid again); two or more, they still lie there."""
        self._recounting = False
        self._crowd_at = now
        found = self._crowd_now
        if len(found) > 1:
            return None
        self._crowd = None
        self._crowd_now = []
        if not found:
            self._pile = False
            return None
        return self._told(found[0][0], found[0][1], now)


def _find(table, size, count, uid):
    """The index of `uid` among the first `count` slots of `size` bytes (its length, then its
    bytes) in `table`; -1 if it is not there."""
    n = len(uid)
    for k in range(count):
        o = k * size
        if table[o] == n:
            for i in range(n):
                if table[o + 1 + i] != uid[i]:
                    break
            else:
                return k
    return -1


def _card_at(table, o):
    """The card's name kept in the enrolled tag at offset `o` of `table`."""
    end = o + _TAG
    while not table[end - 1]:
        end -= 1
    return bytes(table[o + _SLOT : end]).decode()
