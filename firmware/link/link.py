# The board's end of the serial link (P2, P3, P4): numbers events, keeps them in the ring,
# answers the host's hello with who it is, what it missed and the state now, sends
# heartbeats, and turns good frames from the host into commands.
#
# It calls nothing above it. The table (above) hands it events (emit) and link messages
# (tell), feeds it the bytes the host sent (receive: the commands in them come back to the
# table, which does them and answers through the link: answer, greet), and drives it once a
# pass (flush, tick). What must be kept across a reset it hands to its keeper, which it is
# given (the store), before anything goes on the wire.
#
# Numbered events (`card`, `move`, `goal`, ...) get seq = 1, 2, 3 ... per boot and go in the
# ring, with "seq". Link messages (`hello`, `snapshot`, `gap`, `heartbeat`, `answer`, link
# `error`s) carry the newest seq so far as "at" and take no number of their own: they describe
# the link, not the game, and resending them would be noise.
#
# The host recovers from any fault of the line by itself; what the board does for it:
# - every link message says "at", heartbeats included: a host that lost the last events of a
#   burst learns it from the next heartbeat and asks again;
# - a hello may come again at any time (the host asks until its hole is closed): each one
#   restarts the resend from what that hello says, so repeated asks never pile up;
# - the resend goes out _RESEND_PER_STEP events per pass of the table loop, never all at once:
#   256 events at 115200 baud take 2 s, which would stop the sensor scan that long;
# - an event the ring drops before its resend went out is a `gap` at that point, so every
#   number the host asked for comes back either as the event or inside a gap;
# - a command carries an id and the board remembers the last answers: a host that did not
#   hear an answer sends the same command again and gets the same answer, and the command is
#   not applied twice (across a reset too: they are kept on flash with the game). An id is
#   checked once, here (good_id), for every command word, hello and snapshot included: a
#   command with an id the link cannot echo is refused, whatever its word.
#
# Across resets (issue 15; docs/protocol.md, "Resets"): with a keeper (a table with a
# store), emit() only numbers and rings an event; flush() (every pass of the table loop, and
# before any link message) hands the new events and the link's numbering to the keeper
# first (store.Store.commit: on flash, with the game they come from), then writes the
# events. So an event the host may have is on flash, and a board that restarts takes up the
# same boot id and numbering (restore(), the keeper filling the ring again with the events
# it kept, as many as the ring holds): the host asks for what it missed as after a dropped
# link, and logs each event once. Events numbered but never flushed never reached the wire:
# their numbers are free again. Short of heap, a frame not written waits for the next pass
# (an event) or is dropped (a link message): the board refuses what it can and never dies
# of it.
#
# A second transport (issue 30: the club's broker over Wi-Fi, link/uplink.py) reads the same
# ring: it publishes the events up to flushed() (on flash already), and the last one the
# broker acknowledged with all before it (`acked`) is kept on flash with the numbering, so a
# board that restarts publishes again from the first one the broker did not have. A command
# that came that way is handed in as its payload with where to answer (receive's `reply`):
# the link's answer to it goes there, not to the USB port; the words only a person at the
# table may give (_USB_ONLY) are refused from there.
import gc
import json

from micropython import const

from link import frame
from link.ring import Ring

_VERSION = const("0.1.0")
HEARTBEAT_MS = const(800)  # P3 asks for at least one a second; 800 leaves room for a slow scan
# A resent event is about 90 bytes on the wire: at 115200 baud (11.5 KB/s) the line carries
# about 120 a second, so one per 5 ms pass already fills it; the scan goes on between them.
_RESEND_PER_STEP = const(1)
_REMEMBERED = const(8)  # answers kept for commands sent again
_SEP = const((",", ":"))  # compact JSON: every byte of the ring counts
_ID_TEXT = const(32)  # a command id: a whole number (a small int on the board), or this much text
# refusals said here and by the table too (link/commands.py, table.py, dispatch.py)
BAD_ID = "id must be a whole number or text of at most 32 characters"  # (_ID_TEXT)
NOT_COMMAND = 'a command is a JSON object with a "cmd" word'
SHORT = "the board is short of memory: command not done"
# hello: the serial link's own resend; repl and wifi: a person at the table, over USB
_USB_ONLY = const(("hello", "repl", "wifi"))


def good_id(cid):
    """The one check of a command's id (P4): a whole number within the board's small ints
    (true and false are not numbers), or text of at most _ID_TEXT characters. An id the link
    could not echo back in its answer (a float, a list, a long text) is refused."""
    if isinstance(cid, bool):
        return False
    if isinstance(cid, int):
        return -(1 << 30) < cid < 1 << 30
    return isinstance(cid, str) and len(cid) <= _ID_TEXT


class Link:
    # (class defaults, set on a table on Wi-Fi only: a table without keeps its heap)
    acked = 0  # the last event the club's broker acknowledged, all before it too (uplink.py)
    _reply = None  # where link messages go while a command from the broker is done

    def __init__(self, write, boot, table="plateau", ring=None, keeper=None):
        self._write = write  # callable(bytes): the transport (USB console, UART, pty)
        self.boot = boot  # random per power-up: tells the host the board restarted
        self.table = table
        self.ring = ring if ring is not None else Ring()
        # numbered from 1 until restore(): a ring handed over holds nothing of another boot
        # (held on to, its last number made the first event a ValueError: the fuzz's resume)
        self.ring.clear()
        self.seq = 0
        # what must be kept before it goes on the wire (store.Store: commit, refill), or None
        # (events go out as they are emitted)
        self.keeper = keeper
        self._decoder = frame.Decoder()
        self._last_beat = None
        self.sent = 0  # frames written (for selftest and benchmarks)
        self.hellos = 0  # host hellos answered
        self._next = 1  # the next event to resend ...
        self._until = 0  # ... up to this one (nothing to resend when _next > _until)
        # [id, refusal or None, the command's CRC] of the last commands, oldest first: the
        # CRC tells a command sent again from another sent with the same id
        self._answers = []
        self._cid = None  # the id of the command handed to the table last (receive) ...
        self._crc = None  # ... and its CRC, when its answer is remembered (None: it is not)
        self._on_wire = 0  # events up to this seq went on the wire (or never will)
        self._flushing = False

    # --- board -> host ---------------------------------------------------------------

    def emit(self, ev):
        """Send a game event (a dict with "type"); it is numbered and kept for resend.

        The ring keeps only the event's own fields; boot and seq are put back in front when it
        is sent (again), so resent bytes are identical and the ring holds more events."""
        body = _body(ev)
        self.seq += 1
        self.ring.add(self.seq, body)
        if self.keeper is None:
            self._send(body, "seq", self.seq)
            self._on_wire = self.seq
        return self.seq

    def tell(self, ev):
        """Send a link message: not numbered, not kept. While a command from the broker is
        done, to where it is answered (receive's `reply`), unframed."""
        self.flush()  # the events before it go first
        try:
            if self._reply is not None:
                self._reply(('{"boot":"%s","at":%d,' % (self.boot, self.seq)).encode() + _body(ev))
            else:
                self._send(_body(ev), "at", self.seq)
        except MemoryError:  # a link message lost for lack of heap: the next one will do
            gc.collect()

    def _send(self, body, key, seq):
        """Write one frame; False when there was no heap to build it (sent again later)."""
        head = '{"boot":"%s","%s":%d,' % (self.boot, key, seq)
        try:
            data = frame.encode(head.encode() + body)
        except MemoryError:
            gc.collect()
            return False
        self._write(data)
        self.sent += 1
        return True

    def greet(self, about, snapshot, host_boot=None, host_seq=None):
        """hello (with `about`: who plays what), then a gap if the ring no longer holds what
        the host missed, then `snapshot` (the game now); the missed events still held follow,
        oldest first, a few per tick(). Without host_seq (the board's own hello at
        power-up) nothing is resent. The table hands both over: the link asks nothing."""
        self.flush()
        self.tell(self.hello(about))
        if host_seq is None:
            since = self.seq
        else:
            since = host_seq if host_boot == self.boot else 0
        self._next = since + 1
        self._until = self.seq
        self._gap()
        self.tell(snapshot)

    def hello(self, about):
        """The hello message: firmware version, table name, and `about` (who plays what)."""
        hello = {"type": "hello", "fw": _VERSION, "table": self.table}
        hello.update(about)
        return hello

    def _gap(self):
        """The events still to resend that the ring no longer holds: said once, skipped."""
        first = self.ring.first
        if self._next < first and self._next <= self._until:
            to = min(first - 1, self._until)
            self.tell({"type": "gap", "from": self._next, "to": to})
            self._next = to + 1

    def tick(self, clock):
        """Call every loop: sends the heartbeat when it is due, and the next events of a
        resend."""
        if self._last_beat is None or clock.since(self._last_beat) >= HEARTBEAT_MS:
            self._last_beat = clock.ticks_ms()
            self.tell({"type": "heartbeat", "up": self._last_beat})
        n = _RESEND_PER_STEP
        while n and self._next <= self._until:
            self._gap()  # newer events may have pushed the next one out of the ring
            if self._next > self._until:
                break
            if not self._send(bytes(self.ring.get(self._next)), "seq", self._next):
                break  # short of heap: the next pass
            self._next += 1
            n -= 1

    def resending(self):
        return self._next <= self._until

    # --- across resets (see the top of this file) --------------------------------------

    def flush(self):
        """The events numbered since the last flush, to the keeper (on flash), then on the
        wire. The keeper's answer: True, kept; False, short of heap (they wait for the next
        pass: nothing goes out before it is kept); else why the flash refused them (said;
        they go out, and the game goes on)."""
        if self._on_wire >= self.seq or self._flushing:
            return
        self._flushing = True
        try:
            keeper = self.keeper
            if keeper is not None:
                kept = keeper.commit(self.ring, self._on_wire + 1, self.keep())
                if kept is False:
                    return
                if kept is not True:
                    self.tell({"type": "error", "what": "saved-game", "why": kept})
            for s in range(self._on_wire + 1, self.seq + 1):
                body = self.ring.get(s)
                if body is not None and not self._send(bytes(body), "seq", s):
                    return  # short of heap: the rest go next pass
                self._on_wire = s
        finally:
            self._flushing = False

    def unsent(self):
        """Events numbered and not yet flushed."""
        return self.seq - self._on_wire

    def flushed(self):
        """The last event on flash (and on the wire): a second transport publishes up to it."""
        return self._on_wire

    def keep(self):
        """What the flash keeps of the link: boot id, last number, the answers to the last
        commands (its numbering, handed to the keeper), and the last event the broker
        acknowledged (a table on Wi-Fi)."""
        kept = {"boot": self.boot, "seq": self.seq, "answers": self._answers}
        if self.acked:
            kept["acked"] = self.acked
        return kept

    def restore(self, kept):
        """Take up what keep() saved: the boot id and numbering, the ring holding what the
        keeper kept of the events up to that number (or empty after it); False (nothing
        changed) if unusable."""
        try:
            boot, seq = kept["boot"], kept["seq"]
        except (KeyError, TypeError):
            return False
        if not (isinstance(boot, str) and 0 < len(boot) <= 16 and isinstance(seq, int)):
            return False
        if not 0 <= seq < 1 << 30:
            return False
        self.ring.clear(seq)
        self.boot = boot
        self.seq = self._on_wire = self._until = seq
        self._next = seq + 1
        acked = kept.get("acked")
        if isinstance(acked, int) and 0 < acked <= seq:  # kept with the numbering
            self.acked = acked
        answers = kept.get("answers")
        if isinstance(answers, list):  # (a save of before the CRC holds no third: any goes)
            self._answers = [
                [a[0], a[1], a[2] if len(a) == 3 and isinstance(a[2], int) else None]
                for a in answers[-_REMEMBERED:]
                if isinstance(a, list)
                and len(a) in (2, 3)
                and (a[1] is None or isinstance(a[1], str))
            ]
        if self.keeper is not None:
            self.keeper.refill(self.ring, boot, seq)  # its events, as the flash kept them
        return True

    # --- host -> board ---------------------------------------------------------------

    def receive(self, data, reply=None):
        """Bytes from the host: yields each command in them for the table to do (a dict with
        its "cmd" word and its id checked), which it answers with answer() (or greet(), for
        `hello`) before taking the next. What is not a command to do the link answers itself:
        garbage (an error), not a command or a bad id (refused), a command sent again with
        its id (its answer again, not done twice). Short of heap, the board refuses what it
        can and goes on: a command it could not even answer, the host sends again.
        `reply`: `data` is one command's payload from the club's broker (not framed), and
        what the link says while it is done goes to reply(bytes) (uplink.py)."""
        try:
            for payload in (data,) if reply else self._decoder.feed(data):
                if reply:
                    self._reply = reply
                try:
                    cmd = self._command(payload)
                except MemoryError:
                    gc.collect()
                    self._answer(None, SHORT)
                    continue
                if cmd is not None:
                    yield cmd
            why = self._decoder.last_error
            if why:
                self._decoder.last_error = None
                self.tell({"type": "error", "what": "link", "why": why})
        except MemoryError:
            gc.collect()
        finally:
            if reply:
                self._reply = None

    def _command(self, payload):
        """The command in a payload, for the table; None when the link answered it itself."""
        try:
            cmd = json.loads(payload)
        except (ValueError, MemoryError, RuntimeError):  # deep nesting: out of heap or stack
            self._answer(None, "not JSON, or nested too deep")
            return None
        if not isinstance(cmd, dict) or not isinstance(cmd.get("cmd"), str):
            self._answer(None, NOT_COMMAND)
            return None
        cid = cmd.get("id")
        if "id" in cmd and not good_id(cid):
            self._answer(None, BAD_ID)
            return None
        self._cid = cid
        self._crc = None
        name = cmd["cmd"]
        if self._reply is not None and name in _USB_ONLY:
            self._answer(cid, "%s is for the table's USB port, not the network" % name)
            return None
        if name == "hello":
            last = cmd.get("seq", 0)
            if not isinstance(last, int) or last < 0:
                self._answer(cid, "seq must be a whole number >= 0")
                return None
            self.hellos += 1
            return cmd
        if name == "snapshot" or cid is None:
            return cmd  # (a snapshot's answer is not remembered: asking again does no harm)
        from binascii import crc32

        crc = crc32(payload) & 0x3FFFFFFF  # a small int on the board
        for old, why, was in self._answers:
            if old == cid and was not in (None, crc):  # the id of another command
                self._answer(
                    cid, "id %r was another command's: send this one with a new id" % (cid,)
                )
                return None
            if old == cid:  # sent again: the host did not hear the answer
                self._answer(cid, why)
                return None
        self._crc = crc
        return cmd

    def answer(self, refusal):
        """The table's answer to the command receive() handed it last: None when done, else
        why refused; remembered with its id, for the host that sends it again."""
        cid = self._cid
        if self._crc is not None:
            self._answers.append([cid, refusal, self._crc])
            if len(self._answers) > _REMEMBERED:
                self._answers.pop(0)
            self._crc = None
        self._answer(cid, refusal)

    def _answer(self, cid, refusal):
        ans = {"type": "answer", "id": cid, "ok": refusal is None}
        if refusal is not None:
            ans["why"] = refusal
        self.tell(ans)


def _body(ev):
    """An event's JSON without its opening brace (the link puts boot and number there);
    short of heap, one more try after a collection."""
    try:
        return json.dumps(ev, separators=_SEP).encode()[1:]
    except MemoryError:
        gc.collect()
        return json.dumps(ev, separators=_SEP).encode()[1:]
