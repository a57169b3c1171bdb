# The board's memory of its last events (P2): a ring of numbered payloads in one
# preallocated byte store, so a long game never grows the heap. An event is kept until either
# its slot or its bytes are needed by a newer one; the oldest kept sequence number tells the
# host whether it missed more than the ring holds (then the board sends a `gap`).
from array import array

from micropython import const

_RING_SLOTS = const(256)  # events kept at most (P2: at least 256)
# Bytes kept at most: 256 events of 64 bytes. Only an event's own fields are stored (the link
# adds boot and seq); a move is 40-70 bytes, so a ring of long events holds fewer than 256
# and the host is told with a `gap` if it missed more than that.
_RING_BYTES = const(16384)


class Ring:
    def __init__(self, nbytes=_RING_BYTES, slots=_RING_SLOTS):
        self._data = bytearray(nbytes)
        self._off = array("H" if nbytes < 65536 else "I", [0] * slots)
        self._len = array("H", [0] * slots)
        self._w = 0
        self.first = 1  # oldest sequence number held (first > last: empty)
        self.last = 0  # newest sequence number held
        self.slots = slots  # what it can hold: the flash keeps as much (store.Store.keep)
        self.nbytes = nbytes

    def clear(self, last=0):
        """Forget every event (a reboot: RAM does not survive it); the next to come is
        last + 1 (a board that restarts goes on numbering where it stopped)."""
        self._w = 0
        self.first = last + 1
        self.last = last

    def truncate(self, last):
        """Forget the events after `last` (numbers given again: those were never sent); the
        next to come is last + 1, written where the first forgotten one was."""
        if last < self.first:
            self.clear(last)
        elif last < self.last:
            self._w = self._off[(last + 1) % len(self._off)]
            self.last = last

    def __len__(self):
        return self.last - self.first + 1

    def add(self, seq, payload):
        """Store the payload of event `seq` (seq = last + 1), evicting what it overwrites."""
        n = len(payload)
        data = self._data
        if n > len(data):
            raise ValueError("event of %d bytes larger than the ring" % n)
        if self.last and seq != self.last + 1:
            raise ValueError("ring expects event %d, got %d" % (self.last + 1, seq))
        if not self.last:
            self.first = seq
        w = self._w
        tail = len(data)  # events from `tail` on are skipped over when the write wraps
        if w + n > len(data):
            tail = w
            w = 0
        slots = len(self._off)
        while self.first <= self.last:
            i = self.first % slots
            o = self._off[i]
            full = self.last - self.first + 1 >= slots
            if full or o >= tail or (o < w + n and w < o + self._len[i]):
                self.first += 1
            else:
                break
        data[w : w + n] = payload
        i = seq % slots
        self._off[i] = w
        self._len[i] = n
        self._w = w + n
        self.last = seq

    def get(self, seq):
        """The payload of event `seq` as a memoryview, or None when it is no longer held."""
        if seq < self.first or seq > self.last:
            return None
        i = seq % len(self._off)
        o = self._off[i]
        return memoryview(self._data)[o : o + self._len[i]]
