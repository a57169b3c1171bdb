# What the table shows and sounds (issue 29): the LEDs under the squares, the card spot's
# and the goals', the status displays at the table's edges and the buzzer, so the players
# need no laptop. The game says what to show as plain data (games/base.py: Game.show fills a
# Show, Game.sound names an event's tone); this stage draws it, one bounded piece a pass
# (the table's pass is 5 ms, and its own work takes part of it: make bench times each kind):
#
# - nothing is drawn in a pass that emitted an event or collects the garbage: that pass has
#   refereed a move, read a card or counted a goal, and saved it (its time is the game's and
#   the table's; a tone's note starts, no more);
# - the game is asked again only when something changed: an event emitted (every event
#   passes here on its way to the link: tap), its `shown` counter moved (a pawn lifted), or
#   the time it gave came (a highlight that ends, a clock); what the table adds to its show
#   is added at the next pass (_compose);
# - what the game could not work out in one pass (Show.job: Tock's hints of a crowded 7) is
#   worked out a piece a pass (_PIECE rows), before anything is sent, and the game is asked
#   again once it is done;
# - the LED frame is made in C: the Show's colour codes are a GS8 framebuf, the chain's
#   buffer another (3 bytes a LED, a column a channel), and one blit a channel through a
#   palette puts each code's level in place (no Python loop over 107 LEDs: on an ESP32 such a
#   loop would take several ms). The frame is made in one pass and written in the next,
#   only when it changed (3.2 ms on the wire for 107 LEDs: machine.bitstream returns once
#   it is out), never in the same pass as anything else;
# - a display page (8 rows, 128 bytes, 3 ms at 400 kHz) is drawn into one page buffer and
#   sent only if what it shows changed, half a page a pass (1.5 ms on the wire);
# - a tone is a list of notes, each started and ended by a register write at its time;
# - a display that does not answer is said once (an `error` event), tried again every
#   _RETRY_MS, and the game goes on. The LED chain answers nothing: a cut data line cannot be
#   seen from here.
#
# Whatever the game shows, the table adds what every game shares: a card read lights the
# spot green with a chirp, a refused one red with a low tone and the reason on the displays
# (any `error` or `illegal` says its `why` there for _NOTICE_MS, or until the next event once
# it has been up _NOTICE_MIN_MS: the game moved on, its lines are what holds now; one said
# while another is fresh waits until that one has been read); the card awaited while a tag
# is enrolled; and its own settings (`feedback brightness=.. sound=.. hints=..`), kept on flash.
from micropython import const

from clock import TICKS_MAX, elapsed, ticks_diff
from games.base import BLINK, GREEN, RED, WHITE, Show

_BLINK_MS = const(400)  # a blinking light's half period
_NOTICE_MS = const(5000)  # an error's reason stays on the displays this long at most
_NOTICE_MIN_MS = const(1500)  # and at least, whatever comes after it
_SPOT_MS = const(1500)  # the spot's green or red after a card
_RETRY_MS = const(10000)  # a display that did not answer is tried again after this
_SHORT_MS = const(250)  # a show that ran out of heap is asked again after this
_COLS = const(16)  # characters a line (8 px each)
_PIECE = const(3)  # a pass's piece of the game's job (Tock's hints: rows of a 7's levels)
_FILE = "/feedback.json"
_TMP = "/feedback.tmp"
# colour code -> R, G, B at full brightness (games/base.py's codes: off, red, green, blue,
# yellow, white, dim, orange)
_RGB = (
    b"\x00\x00\x00\xff\x00\x00\x00\xff\x00\x00\x00\xff"
    b"\xff\xa0\x00\xff\xff\xff\x30\x30\x30\xff\x40\x00"
)
_CODES = const(8)
_DARK = bytes(_CODES)
DEFAULTS = {"brightness": 30, "sound": "on", "hints": "squares"}
HINTS = ("off", "pawns", "squares")
# 7-segment digits for the big score: segments a-g as bits 0-6, and each segment's
# rectangle (x, y, w, h) in a 18 x 30 cell drawn with 4 px strokes
_SEGS = b"\x3f\x06\x5b\x4f\x66\x6d\x7d\x07\x7f\x6f"
_RECTS = (
    b"\x00\x00\x12\x04\x0e\x00\x04\x0f\x0e\x0f\x04\x0f\x00\x1a\x12\x04"
    b"\x00\x0f\x04\x0f\x00\x00\x04\x0f\x00\x0d\x12\x04"
)


class Outputs:
    def __init__(self, hardware, folder=None, cards=None):
        self.leds = hardware.leds  # hal.leds.LedChain or None
        self.displays = hardware.displays  # hal.oled.Oled, one at each end (A, B)
        self.buzzer = hardware.buzzer  # hal.buzzer.Buzzer or None
        self.folder = folder  # the flash's folder: the settings kept (None: not kept)
        self.cards = cards  # sense.cards.CardReads: the card enrolment awaits (its enrol_as)
        self.emit = None  # the link's emit (tap): a failing part is said through it
        chain = self.leds
        if chain:
            self.show = Show(chain.count, chain.spot, chain.goals)
        else:
            self.show = Show(len(hardware.names))
        self.settings = dict(DEFAULTS)  # type: dict
        self.game = None
        self._now = 0  # the last pass's time (what heard() dates things by)
        self._shown = -1  # the game's `shown` when last asked
        self._ask = True  # ask the game again at the next step
        self._job = None  # what the game left to work out (Show.job), a piece a pass
        self._wait = 0  # the game's show's: when to ask again (ms from the redraw)
        self._asked_at = 0  # when the game was last asked
        self._compose_due = False  # the table's part of the show is to be added
        self._said_last = [None, None, None]  # type: list  # lines, big, big_b last laid out
        self._event = False  # an event was emitted since the last pass: this one is busy
        self._due = None  # ... or when this time comes (the game's own timer)
        self._spot = 0  # the spot's colour after a card, since _spot_at
        self._spot_at = 0
        self._notice = None  # an error's reason on the displays, since _notice_at
        self._notice_at = 0
        self._notice_ms = 0  # how long it stays
        self._next = None  # a reason said while that one was fresh: shown after it
        self._enrol = None  # the card awaited by enrolment, shown while awaited
        self._tone = None  # type: tuple | None  # the notes under way, the next one's index and its time
        self._note = 0
        self._note_at = 0
        # the LED frame: the colour codes last drawn (a change is found by comparing)
        self._drawn = bytearray(len(self.show.lights))
        self._phase = True  # blinking lights on
        self._blink = False  # some light blinks
        self._blink_at = 0
        self._frame_due = chain is not None  # the chain's frame must be made,
        self._write_due = False  # then written
        self._level = -1  # the brightness _lv holds each code's level at
        self._lv = (bytearray(_CODES), bytearray(_CODES), bytearray(_CODES))  # R, G, B
        self._half = ()  # type: tuple  # a page whose right half is still to send: (d, p, text)
        # each display's pages: what each shows now (a line, or the big text) and sent
        n = len(self.displays)
        self._want = [[""] * 8 for _ in range(n)]  # type: list
        self._sent = [[None] * 8 for _ in range(n)]  # type: list
        # when each display last failed to answer (None: it answers)
        self._dead = [0] * n  # type: list
        # when a display not answering is tried again; each is first set up at the first
        # redraw, once the link numbers events (so one that does not answer is said)
        self._retry = None
        self._pages = False  # some page may differ from what its display shows
        self._page = 0  # the next page to look at, over every display's
        self._said = [False] * n  # a display's failure was said (once until it answers)
        self._broken = False  # a game's show() failed, said once
        self.redraws = 0  # times the game was asked (tests, bench)
        self.load()
        if chain or n:
            self._setup()

    def _setup(self):
        import framebuf

        chain = self.leds
        if chain:
            n = chain.count
            # the codes, a pixel a LED; the chain's buffer, a row a LED, a column a channel
            self._codes_fb = framebuf.FrameBuffer(self.show.lights, 1, n, framebuf.GS8)
            self._chain_fb = framebuf.FrameBuffer(chain.buf, 3, n, framebuf.GS8)
            self._pal = bytearray(256)  # code -> one channel's level
            self._pal_fb = framebuf.FrameBuffer(self._pal, 256, 1, framebuf.GS8)
            self._column = (chain.order.index("R"), chain.order.index("G"), chain.order.index("B"))
        self._pfb = []  # type: list  # a framebuf on each display's page buffer (one for a shared buffer)
        for i, d in enumerate(self.displays):
            if i and d.buf is self.displays[i - 1].buf:
                self._pfb.append(self._pfb[-1])
            else:
                self._pfb.append(framebuf.FrameBuffer(d.buf, d.width, 8, framebuf.MONO_VLSB))

    # --- settings ---------------------------------------------------------------------

    def load(self):
        """The settings kept on flash, if any (a damaged file: the defaults)."""
        if self.folder:
            from store import _read

            try:
                with open(self.folder + _FILE, "rb") as f:
                    kept = _read(f)["state"]
                for k in DEFAULTS:
                    if k in kept:
                        self.settings[k] = kept[k]
            except (OSError, ValueError, KeyError, TypeError):
                pass
        self._applied()

    def command(self, cmd):
        """`feedback brightness=.. sound=on/off hints=off/pawns/squares` (typed by
        link/commands.py): kept on flash, shown at once. None, or why refused."""
        for k in DEFAULTS:
            if k in cmd:
                self.settings[k] = cmd[k]
        self._applied()
        if self.folder:
            from store import _write

            try:
                _write(self.folder + _FILE, self.folder + _TMP, self.settings)
            except OSError as e:
                return "the flash refused the settings (%s): used until the next power-up" % e
        return None

    def _applied(self):
        self.show.hints = HINTS.index(self.settings["hints"])
        self._ask = True
        self._frame_due = self.leds is not None
        if self.buzzer and self.settings["sound"] == "off":
            self._tone = None
            self.buzzer.quiet()

    def report(self):
        """For selftest: what is fitted, what answers, the settings."""
        return {
            "leds": self.leds.count if self.leds else 0,
            "displays": len(self.displays),
            "displays_answering": self._dead.count(None),
            "buzzer": self.buzzer is not None,
            "feedback": self.settings,
        }

    # --- events -----------------------------------------------------------------------

    def tap(self, emit):
        """The link's emit, every event heard here on its way (power.power_up hands this
        to the game, enrolment and the table)."""
        self.emit = emit

        def tapped(ev):
            seq = emit(ev)
            self.heard(ev)
            return seq

        return tapped

    def heard(self, ev):
        """An event emitted: the game is asked again; a card read or refused lights the
        spot; a reason (`why`) goes on the displays; the game's tone for it."""
        self._ask = True
        kind = ev["type"]
        why = ev.get("why")
        if kind == "card" or kind == "enrolled":
            self._spot = GREEN
            self._spot_at = self._now
        elif kind == "error" and ("card" in ev or "uid" in ev or ev.get("what") == "card-spot"):
            self._spot = RED
            self._spot_at = self._now
        now = self._now
        if self._notice_up(now):
            up = elapsed(now, self._notice_at)
            if why and up < _NOTICE_MIN_MS:  # (a renege, then the next hand's instruction)
                self._next = _wrap(why)  # it waits until this one has been read
                why = None
            elif not why:  # the game moved on: the reason goes, once it has been read
                self._notice_ms = min(self._notice_ms, max(up, _NOTICE_MIN_MS))
        if why:
            self._notice = _wrap(why)
            self._notice_at = now
            self._notice_ms = _NOTICE_MS
        game = self.game
        if game is not None and self.buzzer is not None and self.settings["sound"] == "on":
            tone = game.sound(ev)
            if tone:
                self._tone = tone
                self._note = 0
                self._note_at = self._now

    def _notice_up(self, now):
        """The reason on the displays at `now`, or None: one whose time is over gives way
        to the one waiting behind it (_next), which then has its own."""
        if self._notice and elapsed(now, self._notice_at) >= self._notice_ms:
            self._notice = self._next
            self._next = None
            self._notice_at = now
            self._notice_ms = _NOTICE_MS
        return self._notice

    # --- the pass ---------------------------------------------------------------------

    def step(self, now, game, free=True):
        """One bounded piece of drawing a pass (see the top of this file); none but a
        tone's note when the pass is not `free` (the table collects the garbage in it)."""
        self._now = now
        enrol = self.cards and self.cards.enrol_as  # the card enrolment awaits, or None
        if game.shown != self._shown or game is not self.game or enrol != self._enrol:
            self.game = game
            self._enrol = enrol
            self._ask = True
        tone = self._tone
        if tone is not None and ticks_diff(now, self._note_at) >= 0:
            self._play(tone)
        busy = self._event or not free  # the game's pass (a move checked and saved, a
        self._event = False  # collection): the next one draws
        if busy:
            return
        due = self._due
        if self._ask or (due is not None and ticks_diff(now, due) >= 0):
            self._redraw(now, game)
            return  # one piece a pass: the game's part, then the table's, then the buses
        if self._job is not None:  # (what the table adds waits: the game asks again)
            try:
                done = self._job.step(_PIECE)
            except Exception as e:  # (out of heap: the game asked again, _SHORT_MS on)
                self._job = None  # (the table's part, next: _compose, sets the time)
                if self._failed_show(e):
                    self._wait = _sooner(self._wait, _SHORT_MS)
                return
            if done:
                self._job = None
                self._ask = True  # done: the game shows it at the next pass
            return
        if self._compose_due:
            self._compose(self._asked_at)  # (as of the game's show: its times are from it)
            return
        if self._blink and elapsed(now, self._blink_at) >= _BLINK_MS:
            self._blink_at = now
            self._phase = not self._phase
            self._frame_due = True
        if self._frame_due:  # the frame made in one pass, written in the next
            self._frame_due = False
            self._make_frame()
            return
        if self._write_due:
            self._write_due = False
            self.leds.write()  # (blocks for its time on the wire: machine.bitstream)
            return
        if self._half:
            self._second_half(now)
            return
        retry = self._retry
        if self._pages or (retry is not None and ticks_diff(now, retry) >= 0):
            self._one_page(now)

    def idle(self):
        """Everything drawn: nothing to ask the game, no frame or page to send (for the
        tests and the bench: what the players see has caught up with the game)."""
        due = self._due
        return not (
            self._ask
            or self._compose_due
            or self._job is not None
            or self._frame_due
            or self._write_due
            or self._half
            or self._pages
            or (due is not None and ticks_diff(self._now, due) >= 0)
        )

    def _redraw(self, now, game):
        """The game asked what to show (its part of a redraw: _compose adds the table's at
        the next pass)."""
        if self._shown < 0 and self.displays:  # the first: the displays set up
            self._retry = now
        self._ask = False
        self._due = None  # (its time, again: _compose)
        self._asked_at = now
        self.redraws += 1
        self._shown = game.shown
        out = self.show
        out.clear()
        self._clear(out.lights)
        try:
            self._wait = game.show(out, now) or 0
            self._job = out.job
        except Exception as e:
            out.clear()
            self._clear(out.lights)
            self._wait = _SHORT_MS if self._failed_show(e) else 0
            self._job = None
        self._compose_due = True

    def _compose(self, now):
        """What the table adds to the game's show (the spot after a card, the card enrolment
        awaits, a reason), and what must be sent of it: the frame, the pages."""
        self._compose_due = False
        out = self.show
        wait = self._wait
        if self._spot:
            left = _SPOT_MS - elapsed(now, self._spot_at)
            if left > 0:
                if out.spot >= 0:
                    out.lights[out.spot] = self._spot
                wait = _sooner(wait, left)
            else:
                self._spot = 0
        # a word from the table under the game's first line (with the big digits) or two:
        # whose turn it is stays in sight
        keep = 1 if out.big is not None else 2
        if self._enrol:
            out.lines = out.lines[:keep] + _wrap("enrol " + self._enrol + ": lay its card")
            if out.spot >= 0:
                out.lights[out.spot] = WHITE | BLINK
        else:
            notice = self._notice_up(now)
            if notice:
                out.lines = out.lines[:keep] + notice
                wait = _sooner(wait, self._notice_ms - elapsed(now, self._notice_at))
        self._due = (now + wait) & TICKS_MAX if wait > 0 else None
        if out.lights != self._drawn:  # the frame is made again only if a code changed
            self._drawn[:] = out.lights
            blink = max(out.lights) >= BLINK  # (a loop in C: BLINK is the codes' high bit)
            if blink and not self._blink:
                self._blink_at = now
                self._phase = True
            self._blink = blink
            self._frame_due = self.leds is not None
        said = self._said_last  # the text last laid out: the same again, nothing to do
        if out.lines != said[0] or out.big != said[1] or out.big_b != said[2]:
            said[0] = out.lines
            said[1] = out.big
            said[2] = out.big_b
            for i in range(len(self.displays)):
                big = out.big_b if i and out.big_b is not None else out.big
                self._layout(self._want[i], big, out.lines)

    def _failed_show(self, e):
        """A game's show or its job raised. Out of heap (a moment of the game's most data):
        True, the game is asked again _SHORT_MS on, whether or not anything changes
        meanwhile; a bug: said once, and the table goes on dark until the next change."""
        if isinstance(e, MemoryError):
            return True
        if not self._broken and self.emit:
            self._broken = True
            self.emit({"type": "error", "what": "show", "why": "%s: %s" % (type(e).__name__, e)})
        return False

    def _clear(self, lights):
        """Every code 0: by the codes' framebuf (C) when there is a chain."""
        if self.leds:
            self._codes_fb.fill(0)
        else:
            for i in range(len(lights)):
                lights[i] = 0

    def _layout(self, want, big, lines):
        """Each page's text: the big digits on pages 0-3 (marked by a leading NUL, so a big
        page never equals a line), the lines on the pages after."""
        first = 0
        if big is not None:
            key = "\x00" + big
            for p in range(4):
                want[p] = key
            first = 4
        for p in range(first, 8):
            k = p - first
            line = lines[k] if k < len(lines) else ""
            if want[p] != line:
                want[p] = line
        self._pages = True

    # --- the LEDs ---------------------------------------------------------------------

    def _make_frame(self):
        """The chain's buffer from the codes, within the current cap (written at the next
        pass)."""
        chain = self.leds
        if chain is None:
            return
        level = self.settings["brightness"] * 255 // 100
        # the chain's current: every LED's idle current, and each lit channel's share of
        # ma_channel at its level; over ma_cap, every level is scaled down to fit
        total = self._fill(level)
        budget = chain.ma_cap - chain.ma_idle * chain.count
        ma = total * chain.ma_channel // 255
        while ma > budget and level > 0:  # (each level rounds down: once or twice more)
            level = min(level - 1, level * budget // ma)
            ma = self._fill(level) * chain.ma_channel // 255
        self._write_due = True

    def _fill(self, level):
        """The chain's buffer from the codes, each channel at `level` of full (0-255): a
        blit a channel through the palette, its 8 codes' levels (and their blinking ones')
        put in by slice. Returns the sum of every channel's level."""
        lv = self._lv
        if level != self._level:  # (a brightness set, or the cap: each code's levels)
            self._level = level
            for ch in range(3):
                for c in range(_CODES):
                    lv[ch][c] = _RGB[3 * c + ch] * level // 255
        pal = self._pal
        on = self._phase
        for ch in range(3):
            pal[0:_CODES] = lv[ch]
            pal[BLINK : BLINK + _CODES] = lv[ch] if on else _DARK
            self._chain_fb.blit(self._codes_fb, self._column[ch], 0, -1, self._pal_fb)
        return sum(self.leds.buf)

    # --- the displays -----------------------------------------------------------------

    def _one_page(self, now):
        """The next page, over every display's, that shows something new: drawn, and its
        left half sent (the right half at the next pass: _second_half). None left: nothing
        more to look at until the next redraw (or a retry)."""
        n = len(self.displays)
        retry = self._retry
        if retry is not None and ticks_diff(now, retry) >= 0:
            self._retry = None
            for d in range(n):
                if self._dead[d] is not None:
                    self._wake(d, now)
        for _ in range(8 * n):
            k = self._page
            self._page = (k + 1) % (8 * n)
            d = k >> 3
            p = k & 7
            want = self._want[d][p]
            if self._dead[d] is not None or want == self._sent[d][p]:
                continue
            oled = self.displays[d]
            fb = self._pfb[d]
            fb.fill(0)
            if want and want[0] == "\x00":
                _big(fb, want, -8 * p)
            elif want:  # centred; a line longer than the glass is cut, not lost off both ends
                text = want[: oled.width // 8]
                fb.text(text, (oled.width - 8 * len(text)) // 2, 0, 1)
            try:
                oled.send(p, 0)
            except OSError as e:
                self._failed(d, now, e)
                return
            self._half = (d, p, want)
            return
        self._pages = False

    def _second_half(self, now):
        """The right half of the page whose left half went at the last pass (the page
        buffer holds it still: nothing else draws into it meanwhile)."""
        d, p, want = self._half
        self._half = ()
        try:
            self.displays[d].send(p, 1)
        except OSError as e:
            self._failed(d, now, e)
            return
        self._sent[d][p] = want

    def _wake(self, d, now):
        try:
            self.displays[d].init()
        except OSError as e:
            self._failed(d, now, e)
            return
        self._dead[d] = None
        self._said[d] = False  # (failing again later is said again)
        sent = self._sent[d]
        for p in range(8):
            sent[p] = None  # (its RAM holds anything after power-up)
        self._pages = True

    def _failed(self, d, now, e):
        """A display that did not answer: said once, tried again every _RETRY_MS."""
        said = self._said[d]
        self._said[d] = True
        self._dead[d] = now
        self._retry = (now + _RETRY_MS) & TICKS_MAX
        if not said and self.emit:
            self.emit(
                {
                    "type": "error",
                    "what": "display",
                    "why": "display %s (I2C 0x%02x) does not answer (%s): the game goes on"
                    % ("AB"[d], self.displays[d].addr, e),
                }
            )

    # --- the buzzer -------------------------------------------------------------------

    def _play(self, tone):
        i = self._note
        if i >= len(tone):
            self._tone = None
            self.buzzer.quiet()
            return
        hz = tone[i] * 10
        if hz:
            self.buzzer.tone(hz)
        else:
            self.buzzer.quiet()
        self._note = i + 2
        self._note_at = (self._now + tone[i + 1] * 10) & TICKS_MAX


def safe_mode(hardware, why):
    """Safe mode (main.py: the table is not started) said at the table: on the displays,
    the card spot's LED orange, the rest dark. Best effort: a part that does not answer is
    left, and nothing here may keep the board from its REPL."""
    import framebuf

    lines = ["SAFE MODE"] + _wrap(why) + ["", "the REPL is free"]
    for d in hardware.displays:
        try:
            d.init()
            fb = framebuf.FrameBuffer(d.buf, d.width, 8, framebuf.MONO_VLSB)
            for p in range(8):
                text = lines[p] if p < len(lines) else ""
                fb.fill(0)
                fb.text(text, (d.width - 8 * len(text)) // 2, 0, 1)
                d.send(p)
        except OSError:
            pass
    chain = hardware.leds
    if chain:
        buf = chain.buf
        for i in range(len(buf)):
            buf[i] = 0
        if chain.spot >= 0:
            at = 3 * chain.spot
            for k in range(3):  # orange, dim: (64, 16, 0) in the chain's byte order
                buf[at + chain.order.index("RGB"[k])] = (64, 16, 0)[k]
        chain.write()


def _sooner(wait, left):
    return left if not wait or left < wait else wait


def _wrap(text):
    """Words in lines of at most _COLS characters (a longer word cut), at most 3 lines."""
    lines = []
    line = ""
    for w in text.split():
        w = w[:_COLS]
        if line and len(line) + 1 + len(w) > _COLS:
            lines.append(line)
            if len(lines) == 3:
                return lines
            line = w
        else:
            line = line + " " + w if line else w
    if line:
        lines.append(line)
    return lines


def _big(fb, text, y):
    """`text` (after its first character) in 7-segment digits, centred, from row y."""
    text = text[1:]
    width = 0
    for ch in text:
        width += 22 if ch in "0123456789" else 10
    x = (128 - width) // 2
    for ch in text:
        if ch in "0123456789":
            segs = _SEGS[ord(ch) - 48]
            for s in range(7):
                if segs >> s & 1:
                    r = 4 * s
                    fb.fill_rect(
                        x + _RECTS[r], y + 1 + _RECTS[r + 1], _RECTS[r + 2], _RECTS[r + 3], 1
                    )
            x += 22
        else:
            if ch == "-":
                fb.fill_rect(x + 1, y + 14, 8, 4, 1)
            elif ch == ":":
                fb.fill_rect(x + 3, y + 8, 4, 4, 1)
                fb.fill_rect(x + 3, y + 20, 4, 4, 1)
            x += 10
