# The game saved on the board's flash, so a reset or a power cut resumes it (issue 8), and
# with it what the link must not forget (issue 15): its numbering and its last events, so a
# board that restarts goes on numbering where it stopped and can still resend what the host
# had not received. Nothing numbered goes on the wire before it is here (link.Link.flush,
# table.Table.save): an event the host may have is always on flash.
#
# Two files. state.json: the game, the link's boot id and last number, the ids of the last
# commands done. Writes cannot leave it corrupt: it goes to state.tmp, then os.rename
# replaces state.json (LittleFS, the ESP32 port's filesystem, renames atomically), and it
# carries a CRC of its body, so a file cut short or damaged is recognised and not believed.
# events.log: the last events, one line each ("seq payload"), appended before state.json is
# written; a line past the number state.json holds was never sent (the power went between
# the two writes) and is dropped when read. Appending keeps each write small (an event, not
# the whole history) and the heap quiet; the file is rewritten with the last KEEP events
# once it holds 4 * KEEP lines.
#
# Writes are bounded: one of each per pass of the table loop that announced something
# (events come at a person's pace: a card, then its move, seconds apart); any other change at
# most every MIN_SAVE_MS. Flash blocks endure about 100 000 erase cycles and LittleFS spreads
# its writes over the whole partition, so even 4 writes a second without pause would take
# months to wear it; a real game writes a few times a minute.
import json
import os
from binascii import crc32

from micropython import const

from clock import elapsed

MIN_SAVE_MS = const(250)
VERSION = const(2)  # {"game": game state, "link": {"boot", "seq"}, "done": [ids]}; 1: the game
KEEP = const(32)  # events kept for resending after a reset


class Store:
    def __init__(self, folder, min_save_ms=MIN_SAVE_MS):
        self.folder = folder
        self.path = folder + "/state.json"
        self.tmp = folder + "/state.tmp"
        self.log = folder + "/events.log"
        self.min_save_ms = min_save_ms
        self._saved_at = None
        self._lines = -1  # lines in events.log of self._boot (-1: to be rewritten)
        self._boot = None
        self.saves = 0
        self.error = None  # why the saved state could not be used, if it could not
        try:
            os.mkdir(folder)
        except OSError:
            pass  # already there

    def due(self, now):
        return self._saved_at is None or elapsed(now, self._saved_at) >= self.min_save_ms

    def save(self, state, now):
        """True once saved; False when the flash refused (full, worn: see .error)."""
        body = json.dumps(state)
        crc = crc32(body.encode())
        try:
            with open(self.tmp, "w") as f:
                f.write('{"v":%d,"crc":%d,"state":' % (VERSION, crc))
                f.write(body)
                f.write("}")
            os.rename(self.tmp, self.path)
        except OSError as e:
            return self._failed(e)
        self._saved_at = now
        self.saves += 1
        return True

    def keep(self, boot, ring, first, last):
        """Events first..last of the link's `ring` to events.log (or the file rewritten
        with the last KEEP of them). False when the flash refused."""
        try:
            if boot != self._boot or self._lines < 0 or self._lines >= 4 * KEEP:
                first = max(ring.first, last - KEEP + 1, 1)
                with open(self.log + ".tmp", "wb") as f:
                    f.write(boot.encode() + b"\n")
                    self._append(f, ring, first, last)
                os.rename(self.log + ".tmp", self.log)
                self._boot = boot
                self._lines = last - first + 1
            elif first <= last:
                with open(self.log, "ab") as f:
                    self._append(f, ring, first, last)
                self._lines += last - first + 1
        except OSError as e:
            return self._failed(e)
        return True

    def _append(self, f, ring, first, last):
        for s in range(first, last + 1):
            body = ring.get(s)
            if body is not None:
                f.write(("%d " % s).encode())
                f.write(body)
                f.write(b"\n")

    def _failed(self, e):
        self.error = "the game could not be saved (%s)" % e
        try:  # a stale saved game must not come back at the next power-up
            os.remove(self.path)
        except OSError:
            pass
        return False

    def load(self):
        """The saved state, or None (nothing saved, or unusable: see .error)."""
        try:
            with open(self.path) as f:
                text = f.read()
        except OSError:
            return None
        try:
            d = json.loads(text)
            # the CRC is of the body exactly as written (re-encoding may order keys anew)
            body = text[text.index('"state":') + 8 : text.rindex("}")]
            if d.get("v") not in (1, VERSION) or crc32(body.encode()) != d["crc"]:
                raise ValueError("checksum or version mismatch")
            state = d["state"]
            if not isinstance(state, dict):
                raise ValueError("not a saved game")
            return state if d["v"] == VERSION else {"game": state}
        except (ValueError, KeyError, TypeError, MemoryError) as e:
            self.error = "saved game unreadable (%s): starting a new game" % e
            return None

    def kept(self, boot, seq):
        """The events of `boot` numbered up to `seq` in events.log, as [(seq, payload
        bytes)], the last KEEP at most and without holes (what the link resends)."""
        out = []  # type: list[tuple[int, bytes]]
        try:
            with open(self.log) as f:
                if f.readline().strip() != boot:
                    return out
                for line in f:
                    n, _, body = line.rstrip("\n").partition(" ")
                    if not n.isdigit() or not body:
                        continue  # a line cut short by the power going
                    s = int(n)
                    while out and out[-1][0] >= s:  # numbers given again after a cut
                        out.pop()
                    if s <= seq and (not out or out[-1][0] == s - 1):
                        out.append((s, body.encode()))
                        del out[:-KEEP]
                    elif s <= seq:
                        out = [(s, body.encode())]
        except (OSError, ValueError, MemoryError):
            return []
        if out and out[-1][0] != seq:
            return []
        return out
