# The game saved on the board's flash, so a reset or a power cut resumes it (issue 8), and
# with it what the link must not forget (issue 15): its numbering and its last events, so a
# board that restarts goes on numbering where it stopped and can still resend what the host
# had not received. Nothing numbered goes on the wire before it is here: the link hands its
# new events and its numbering to the store it was given (commit, called by link.Link.flush),
# which writes them with the game they come from before the link sends them. The table hands
# the store the game it plays (`game`) and enrolment the card it waits for (`awaited`); the
# table's own save (save_game) is for a game that changed with nothing new to send.
#
# state.json: the game, the link's boot id and last number, the ids of the last commands
# done. Writes cannot leave it corrupt: it goes to state.tmp, then os.rename replaces
# state.json (LittleFS, the ESP32 port's filesystem, renames atomically), and it carries a
# CRC of its body, so a file cut short or damaged is recognised and not believed.
#
# wifi.json: the table's Wi-Fi settings (the `wifi` command: network, passwords, broker, the
# table's name), written the same way (wifi.tmp, rename, CRC) by wifi.py, only when they are
# set up: the passwords are in this file and in no other (not in state.json, an event or an
# answer).
#
# tags.json: the card tags enrolled on this table, enrolment.py's, in the same envelope
# (_head below), written only when a tag is enrolled or forgotten.
#
# events.log (and events.old): the link's events, one line each ("seq payload"), appended
# before state.json is written; a line past the number state.json holds was never sent (the
# power went between the two writes) and is dropped when read. The flash keeps as many
# events as the link's ring holds (its slots and its bytes), so a reset never shortens what
# the host can still ask for: a host that had missed 200 events when the power went gets
# them after the restart as it would have without the reset. Once events.log holds a ring's
# worth it becomes events.old (a rename) and a new events.log starts: each write during play
# is an append of the pass's events, never the whole history. At power-up the ring is filled
# again from both files (refill), and the first save after it writes events.log anew with
# the ring's events (events.old removed), so the files never hold a number twice.
#
# Writes are bounded: one of each per pass of the table loop that announced something
# (events come at a person's pace: a card, then its move, seconds apart); any other change at
# most every _MIN_SAVE_MS. Flash blocks endure about 100 000 erase cycles and LittleFS spreads
# its writes over the whole partition, so even 4 writes a second without pause would take
# months to wear it; a real game writes a few times a minute.
import gc
import json
import os
from array import array
from binascii import crc32

from micropython import const

from clock import elapsed

_MIN_SAVE_MS = const(250)
_VERSION = const(2)  # {"game": game state, "link": {"boot", "seq"}, "done": [ids]}; 1: the game


class Store:
    # what is saved with the link's numbering in state.json, handed over from above: the game
    # played (its state() taken at each save; table.Table sets it) and the card the next tag
    # is enrolled as (enrolment.Enrolment), if one is awaited
    game = None
    awaited = None
    # (class defaults, set on the store when they change: an attribute the store keeps is a
    # slot of its dictionary on the heap)
    error = None  # why the saved state could not be used, if it could not
    _keep_old = False  # state.json could not be read nor set aside: not written over
    min_save_ms = _MIN_SAVE_MS  # a change with nothing to send is saved at most this often

    def __init__(self, folder, clock=None):
        self.folder = folder
        self.clock = clock  # the table's: when the last save was (the write rate, `due`)
        self.path = folder + "/state.json"
        self.tmp = folder + "/state.tmp"
        self.log = folder + "/events.log"  # (and events.old, the ring's worth before it)
        self._saved_at = None
        self._boot = None  # the boot events.log was started for by this Store (None: not yet)
        self._lines = 0  # events in events.log ...
        self._bytes = 0  # ... and their payloads' bytes: a ring's worth, and it becomes events.old
        self._kept = 0  # the last event on flash
        self.saves = 0
        try:
            os.mkdir(folder)
        except OSError:
            pass  # already there

    def due(self, now):
        return self._saved_at is None or elapsed(now, self._saved_at) >= self.min_save_ms

    def save(self, state, now):
        """True once saved; False when the flash refused (full, worn: see .error), or a saved
        game that could not be read at power-up must not be written over (set_aside)."""
        if self._keep_old:
            return False  # .error says why
        try:
            _write(self.path, self.tmp, state)
        except OSError as e:
            return self._failed(e)
        self._saved_at = now
        self.saves += 1
        return True

    def commit(self, ring, first, link):
        """The link's keeper (link.Link.flush): events first.. of its `ring` and its
        numbering `link` (keep(): boot, seq, answers) on flash, with the game that emitted
        them, before they go on the wire. True once kept; the refusal in words when the flash
        refused (the link says it; the events go out, the game goes on); False when the heap
        was too short to build the state (nothing goes out: the next pass tries again)."""
        # (save_game's steps written again, not called: a frame more at the live peak, the
        # state's JSON being made, costs the frozen board 48 B there: tests/host/test_chip.py)
        try:
            ok = self.keep(link["boot"], ring, first, link["seq"])
            ok = ok and self.save(self._state(link), self.clock.ticks_ms() if self.clock else 0)
        except MemoryError:
            gc.collect()
            return False
        if ok and self.game:
            self.game.unsaved = self.game.urgent = False  # saved (refused: tried again)
        return True if ok else self.error

    def save_game(self, link, now):
        """The table's save: the game changed with no event to send (a card refused, the
        rate-limited saves of a game's timers), with the link's numbering `link`. None once
        saved; the refusal in words; False short of heap (the next pass tries again)."""
        try:
            ok = self.save(self._state(link), now)
        except MemoryError:
            gc.collect()
            return False
        if ok and self.game:
            self.game.unsaved = self.game.urgent = False  # saved (refused: tried again)
        return None if ok else self.error

    def _state(self, link):
        game = self.game
        state = {"game": game.state() if game else None, "link": link}
        if self.awaited:
            state["enrol"] = self.awaited  # a tag awaited (enrolment.py)
        return state

    def holds(self, name):
        """Whether the flash holds this file (wifi.json: the table set up on Wi-Fi)."""
        try:
            with open(self.folder + "/" + name, "rb"):
                return True
        except OSError:
            return False

    def keep(self, boot, ring, first, last):
        """Events first..last of the link's `ring` to events.log (all the ring holds when
        the file is started for a new boot). False when the flash refused."""
        if self._keep_old:
            return False  # its events with it: the game's, when it is read again
        try:
            if boot != self._boot:
                self._start(boot, ring)
                return True
            first = max(first, self._kept + 1)  # a save retried: its events are there
            if first > last:
                return True
            if self._lines >= ring.slots or self._bytes >= ring.nbytes:
                # events.log holds what the ring can: it becomes events.old, so the two files
                # always hold the ring's worth of events before these
                os.rename(self.log, self.folder + "/events.old")
                with open(self.log, "wb") as f:
                    f.write(boot.encode() + b"\n")
                self._lines = self._bytes = 0
            with open(self.log, "ab") as f:
                self._append(f, ring, first, last)
        except OSError as e:
            return self._failed(e)
        return True

    def _start(self, boot, ring):
        """events.log written anew with every event the ring holds (events.old removed)."""
        self._lines = self._bytes = 0
        with open(self.log + ".tmp", "wb") as f:
            f.write(boot.encode() + b"\n")
            self._append(f, ring, ring.first, ring.last)
        os.rename(self.log + ".tmp", self.log)
        try:
            os.remove(self.folder + "/events.old")
        except OSError:
            pass  # none
        self._boot = boot
        self._kept = ring.last

    def _append(self, f, ring, first, last):
        for s in range(first, last + 1):
            body = ring.get(s)
            if body is not None:
                f.write(("%d " % s).encode())
                f.write(body)
                f.write(b"\n")
                self._lines += 1
                self._bytes += len(body)
            self._kept = s

    def _failed(self, e):
        self.error = "the game could not be saved (%s)" % e
        try:  # a stale saved game must not come back at the next power-up
            os.remove(self.path)
        except OSError:
            pass
        return False

    def load(self):
        """The saved state, or None (nothing saved, or unusable: see .error). A file that
        could not be read (short of heap, a flash error) may be good: it is read again after
        a collection, and if that fails too it is set aside, as a damaged one is."""
        for again in (0, 1):
            try:
                with open(self.path, "rb") as f:
                    d = _read(f)
                state = d["state"]
                if not isinstance(state, dict):
                    raise ValueError("not a saved game")
                return state if d["v"] == _VERSION else {"game": state}
            except (ValueError, KeyError, TypeError) as e:
                self.set_aside("unreadable (%s)" % e)
                return None
            except (OSError, MemoryError) as e:
                if e.args and e.args[0] == 2:  # ENOENT
                    return None  # nothing saved
                d = None
                gc.collect()
                if again:
                    self.set_aside("not read (%s: %s)" % (type(e).__name__, e))
        return None

    def set_aside(self, why):
        """A saved game that cannot be used now is kept as state.bad, for a person to look
        at, and the new game's saves cannot write over it; if even the rename fails,
        state.json stays and nothing is saved until the board restarts."""
        try:
            os.rename(self.path, self.folder + "/state.bad")
            self.error = "saved game %s: kept as state.bad, starting a new game" % why
        except OSError:
            self._keep_old = True
            self.error = "saved game %s: not written over until the board restarts" % why

    def refill(self, ring, boot, seq):
        """At power-up: the link's `ring` filled again with the events of `boot` numbered
        up to `seq` (the newest that it can hold, without holes, ending at `seq`; else it
        is left empty, numbering on after `seq`). The first keep() after it writes
        events.log anew with them: the files then never hold a number twice."""
        ring.clear(seq)
        try:
            self._refill(ring, boot, seq)
        except (ValueError, MemoryError):  # a file damaged beyond a cut line: nothing resent
            ring.clear(seq)

    def _refill(self, ring, boot, seq):
        # First the lengths, to start from the oldest event of the newest that fit: added
        # one by one from that one, they all stay (a ring filled from an earlier one would
        # have dropped some to wrap around: the ring would hold less than before the reset).
        slots, nbytes = ring.slots, ring.nbytes
        lens = array("H", [0] * slots)
        lo, hi = 1, 0  # the run of events without a hole read so far (hi < lo: none)
        for s, body in self._lines_of(boot, seq):
            if s <= hi:
                hi = s - 1  # a number given again: the later line is the one sent
            if hi < lo or s != hi + 1:
                lo = s  # a hole: the run starts again
            hi = s
            lens[s % slots] = min(len(body), nbytes + 1)
        if hi != seq or hi < lo:
            return  # the events do not reach the number saved: none can be resent
        start, total = seq + 1, 0
        while start > lo and seq - start + 1 < slots:
            total += lens[(start - 1) % slots]
            if total > nbytes:
                break
            start -= 1
        # Then the same lines again, the events from `start` on into the ring.
        ring.clear(start - 1)
        for s, body in self._lines_of(boot, seq):
            if s <= ring.last:
                ring.truncate(s - 1)
            if s < start:
                continue
            if s != ring.last + 1:
                ring.clear(s - 1)
            ring.add(s, body)
        if ring.last != seq:
            ring.clear(seq)

    def _lines_of(self, boot, seq):
        """(seq, payload) of each whole line of `boot` numbered up to `seq` in events.old,
        then events.log (a line cut short by the power going, or another boot's, is left)."""
        for path in (self.folder + "/events.old", self.log):
            try:
                with open(path, "rb") as f:
                    if f.readline() != boot.encode() + b"\n":
                        continue
                    for line in f:
                        n, _, body = line.partition(b" ")
                        if not line.endswith(b"\n") or len(body) < 2:
                            continue
                        try:
                            s = int(n)
                        except ValueError:
                            continue
                        if 0 < s <= seq:
                            yield s, body[:-1]
            except OSError:
                pass  # no such file


def _write(path, tmp, obj):
    """obj as JSON in its envelope ({"v", "crc" of the body, "state": body}), written whole
    to tmp and renamed over path: the file is the old one or the new one, never half."""
    body = json.dumps(obj)
    crc = crc32(body.encode())
    with open(tmp, "w") as f:
        f.write(_head(crc))
        f.write(body)
        f.write("}")
    os.rename(tmp, path)


def _head(crc):
    """What comes before the body: the envelope's version and the body's CRC."""
    return '{"v":%d,"crc":%d,"state":' % (_VERSION, crc)


def _read(f):
    """The envelope of a file _write wrote (open in binary), its CRC checked (ValueError if
    it fails). Read a piece at a time, the CRC first, then the JSON from the stream: no
    buffer the size of the file, which a heap fragmented at power-up may not have (a whole
    game's state is kilobytes; a saved game not read is set aside). The CRC is of the body
    exactly as written (re-encoding may order keys anew): what follows "state": up to the
    envelope's closing brace, the file's last byte."""
    piece = f.read(64)
    at = piece.find(b'"state":')  # (in the first piece: the header is at most 33 bytes)
    if at < 0:
        raise ValueError("not a saved game")
    crc = 0
    piece = piece[at + 8 :]
    while True:
        more = f.read(64)
        if not more:
            break
        crc = crc32(piece, crc)
        piece = more
    if not piece.endswith(b"}"):
        raise ValueError("cut short")
    crc = crc32(piece[:-1], crc)
    f.seek(0)
    d = json.load(f)
    if not isinstance(d, dict) or d.get("v") not in (1, _VERSION) or crc != d["crc"]:
        raise ValueError("checksum or version mismatch")
    return d
