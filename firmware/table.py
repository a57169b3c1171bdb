# The table's main loop: one pass reads the link, lets the game layer look at the board, and
# keeps the heartbeat going. Everything it drives is injected (transport, clock, game), so the
# same loop runs on the board (main.py) and in the simulator (sim/run.py).
import gc
import sys

from micropython import const

from clock import TICKS_MAX, elapsed

SCAN_MS = const(5)  # 200 scans a second, start to start: see firmware/sense for why
_ERROR_MS = const(1000)  # a step that keeps failing is reported at most once a second
# The loop places MicroPython's collections itself (see Table._step). CPython, running the
# same table in the host's tests, frees by reference counts: a full collection there is
# only slow.
COLLECT = sys.implementation.name == "micropython"


def make_game(name, emit, names, settings):
    """The game a table plays, by name, its settings checked in full first (SettingsError,
    a ValueError, says what is wrong, an unknown game too): by the registry's convention
    (games/__init__.py), the class <Name>Game of games/<name>/tracker.py, TockGame for
    "tock". Only that game's code is imported onto the heap."""
    from games.settings import check

    settings = check(name, settings)
    cls = name[0].upper() + name[1:] + "Game"
    return getattr(__import__("games.%s.tracker" % name, None, None, (cls,)), cls)(
        emit, names, settings
    )


class Table:
    def __init__(self, transport, clock, link, game=None, sense=None, store=None, watchdog=None):
        self.transport = transport
        self.clock = clock
        self.link = link
        self.sense = sense
        self.store = store  # store.Store: the game survives resets
        self.watchdog = watchdog  # machine.WDT on a board: fed every pass
        self._collect = False  # collect the garbage at the end of this pass
        self._busy = False  # a sensor was mid-change at the last pass
        self.game = game
        self.running = True
        self.failures = 0  # steps and commands that raised (reported as `error` events)
        self._failed_at = None
        self._unsaid = 0  # failures since the last report
        self._started = clock.ticks_ms()  # for the scan rate: the counter may read anything
        # the link answers through this table; with a store, nothing goes on the wire
        # before it is on flash (link/link.py)
        link.serve(self, keeps=store is not None)

    def about(self):
        return self.game.about() if self.game else {"game": None}

    def snapshot(self):
        snap = {"type": "snapshot"}
        if self.game:
            snap.update(self.game.snapshot())
        return snap

    def command(self, cmd):
        """A host command other than hello/snapshot: None when done, else why refused.
        Every argument is typed and checked first (link/commands.py); nothing changes on a
        refusal. (A command sent again with its id is answered by the link, not done twice:
        link/link.py; its memory is saved with the game.) Whatever a command holds, the board
        answers it and goes on (short of memory, or a check missing: refused)."""
        try:
            return self._checked(cmd)
        except MemoryError:
            gc.collect()
            return "the board is short of memory: command not done"
        except Exception as e:  # a bug, or a check missing: refused, the table goes on
            self.failed(e)
            return "the firmware failed on this command (%s: %s)" % (type(e).__name__, e)

    def _checked(self, cmd):
        from link.commands import typed

        game = self.game
        try:
            cmd = typed(cmd, self.about().get("game"), game.settings if game else None)
        except ValueError as e:  # SettingsError: what is wrong, in words
            return str(e)
        if game:  # cards laid before the command come before it
            game.settle_pile(self.clock.ticks_ms())
        why = self._command(cmd)
        if why is None:
            self._changed()  # saved this pass, with the link's memory of the answer
        return why

    def _command(self, cmd):
        name = cmd["cmd"]
        if name == "repl":
            # P5's escape: answer, give Ctrl-C back, leave the loop; main.py then restarts
            # the board in safe mode (no table, no watchdog) so mpremote can take over.
            self.running = False
            return None
        if name == "enrol":
            return self._enrol(cmd["card"])
        if name == "unenrol":
            return self._unenrol(cmd["tag"])
        if name == "new":
            return self._new(cmd)
        if name == "config":
            return self._config(cmd)
        if name == "selftest":
            return self._selftest()
        if name == "calibrate":
            return self._calibrate(cmd)
        if self.game:
            return self.game.command(cmd)
        return "no game is loaded"

    def _new(self, cmd):
        """A new game, of this kind or another: the cards the last one knew on the reader
        (its deal's, or the last deal's, and its strays) are handed over as the new one's
        strays (games/base.py), so that a reset does not play them."""
        game = self.game
        pile = list(game.deal() or game.last_deal()) + game.strays if game else []
        if cmd["game"] != self.about().get("game"):
            why = self._switch(cmd)
        elif game:
            why = game.command(cmd)
        else:
            return "no game is loaded"
        if why is None and pile:
            self.game.strays = []
            self.game.gathered = 0
            self.game.lying(pile)
        cards = self.sense.cards if self.sense else None
        if why is None and cards and cards.enrol_as:
            # a new game: the next card laid is one of its deal, not a tag (docs/protocol.md)
            self.link.emit({"type": "enrol_ended", "card": cards.enrol_as, "why": "a new game"})
            cards.enrol_as = None
        return why

    def _changed(self):
        """Something to save at the end of this pass, whatever the write rate."""
        if self.game:
            self.game.unsaved = self.game.urgent = True

    def _load(self, name, settings):
        """A new game of that kind (ValueError: unknown game or bad settings)."""
        names = self.sense.board.names if self.sense else ()
        self.game = make_game(name, self.link.emit, names, settings)

    def _switch(self, cmd):
        """`new weykick mode=first-to:10`: one firmware plays every game; the table changes
        game between matches (saved with its `game` event, like every event)."""
        try:
            self._load(cmd["game"], cmd.get("settings") or {})
        except ValueError as e:  # settings the game refuses
            return str(e)
        about = self.about()
        about["type"] = "game"
        self.link.emit(about)
        if self.sense:
            self.sense.held(self.game, self.clock.ticks_ms())
        self._changed()
        return None

    def _selftest(self):
        """Sensors that see a magnet where the game has no pawn (stuck on, or a pawn out of
        place), sensors that see none where it has one (stuck off, or a pawn missing), the
        reader, and the scan rate reached since the table started."""
        if not self.sense:
            return "this table has no sensing"
        report = self.sense.selftest()
        report["type"] = "selftest"
        check = self.game.check_sensors if self.game else None
        if check and "sensors_on" in report:  # what the game makes of them
            report.update(check(report.pop("sensors_on")))
        up = elapsed(self.clock.ticks_ms(), self._started)  # (the mean of up to 12.4 days)
        report["scan_hz"] = self.sense.scans * 1000 // up if up else 0
        self.link.tell(report)
        return None

    def _calibrate(self, cmd):
        """`calibrate on`/`calibrate off`: every settled sensor edge is also sent as a
        `sensor` message (chain bit, the name the sensor map gives it, level)."""
        if not self.sense:
            return "this table has no sensing"
        self.sense.configure(calibrate=cmd.get("mode", "on") != "off")
        return None

    # --- enrolment: which tag is which card (docs/protocol.md, "Enrolment") -------------

    def _enrol(self, card):
        """`enrol card=7H` (or es:12B): the next tag laid on the reader becomes that card
        (the card was typed already: games.settings, kind "card"); `enrol card=cancel`:
        no tag awaited any more. Saved before the answer goes: a board reset after it still
        waits for that tag (or no longer)."""
        cards = self.sense.cards if self.sense else None
        if cards is None:
            return "this table has no card reader"
        cards.enrol_as = None if card == "cancel" else card
        if self.store:
            self.save()
        return None

    def _enrol_tag(self, card, uid):
        """A tag laid while `enrol` waits: enrolled and on flash, then `enrolled` (with its
        UID and card, and how many tags are enrolled here) goes out; refused, an `error`
        says why and the table waits on for the right tag."""
        cards = self.sense.cards
        raw = bytes.fromhex(uid)
        why = cards.learn(raw, card)
        laid = cards.card_of(raw)
        if laid and self.game:  # it lies on the pile: not a card played (games/base.py)
            self.game.lying((laid,))
        if why:
            self.link.emit({"type": "error", "what": "enrol", "card": card, "uid": uid, "why": why})
            self._changed()  # the card on the pile, saved with the error (a stray)
            return
        cards.enrol_as = None
        self._keep_tags("enrol %s as %s" % (uid, card))
        self.link.emit({"type": "enrolled", "card": card, "uid": uid, "enrolled": cards.enrolled})
        self._changed()  # no tag awaited any more: saved with this pass's events

    def _unenrol(self, tag):
        """`unenrol 04A31922` (or `unenrol all`): enrolled tags forgotten, on flash too."""
        cards = self.sense.cards if self.sense else None
        if cards is None:
            return "this table has no card reader"
        why = cards.unlearn(tag)
        if why is None:
            self._keep_tags("unenrol %s" % tag)
        return why

    def _keep_tags(self, what):
        """The enrolled tags to flash, at once; a flash that refuses is said (the change
        lasts until the board restarts)."""
        if not self.store:
            return
        why = self.store.save_tags(self.sense.cards.tags)
        if why:
            why = "%s: not saved, it lasts until the board restarts: %s" % (what, why)
            self.link.emit({"type": "error", "what": "enrolled-tags", "why": why})

    def _load_tags(self):
        """At boot: the tags enrolled here, from flash. None, or what went wrong: a file
        damaged (then none is used), or entries left out (not a UID and a card, another
        card already, or past ENROL_MAX)."""
        cards = self.sense.cards if self.sense else None
        if cards is None:
            return None
        bad = []

        def add(uid, card):
            from link.commands import typed  # only when there are tags: heap

            try:
                h = typed({"cmd": "unenrol", "tag": uid})["tag"]
                card = typed({"cmd": "enrol", "card": card})["card"]
                why = None if h == uid and h != "all" else "not a UID"
            except ValueError as e:
                why = str(e)
            if why or cards.learn(bytes.fromhex(uid), card):
                bad.append(uid)

        why = self.store.load_tags(add)
        if why:
            cards.unlearn("all")  # a damaged file: none of it is believed
            return why
        if bad:
            return (
                "enrolled tags left out (not a UID and a card, another card already, or more "
                "than the table holds): %s" % " ".join(str(u)[:24] for u in bad[:8])
            )
        return None

    def _config(self, cmd):
        """`config settle_ms=100 illegal_ms=2000 debounce_ms=20`: the table's timings,
        typed and in range already (link/commands.py)."""
        if self.sense and "debounce_ms" in cmd:
            self.sense.configure(cmd["debounce_ms"])
        if self.game:
            self.game.config(cmd)
        return None

    def save(self, first=None):
        """On flash: the link's events from `first` on (link.Link.flush calls this before
        they go on the wire), then the game and the link's numbering and answers.
        False when they could not be kept for lack of heap: the events wait for the next
        pass. A flash that refuses (full, worn) is reported, and the game goes on."""
        store = self.store
        link = self.link
        if first is None and link.unsent():
            link.flush()  # the game with the events it announced, or neither: never apart
            return True
        game = self.game
        try:
            ok = first is None or store.keep(link.boot, link.ring, first, link.seq)
            state = {"game": game.state() if game else None, "link": link.keep()}
            cards = self.sense.cards if self.sense else None
            if cards and cards.enrol_as:
                state["enrol"] = cards.enrol_as  # a tag awaited (table._enrol)
            ok = ok and store.save(state, self.clock.ticks_ms())
        except MemoryError:
            gc.collect()
            return False
        if ok:
            if game:
                game.unsaved = game.urgent = False
        else:
            link.tell({"type": "error", "what": "saved-game", "why": store.error})
        self._collect = True
        return True

    def resume(self):
        """At boot, before anything is sent: the link takes up its numbering where it
        stopped (with its last events), and the saved game, if there is one, takes the
        place of a new game."""
        if not self.store:
            return
        tags_why = self._load_tags()
        saved = self.store.load()
        if saved is not None:
            link = self.link
            if link.restore(saved.get("link")):  # its numbering, then its events
                self.store.refill(link.ring, link.boot, link.seq)
            if saved.get("game") and self.game:
                self._resume_game(saved["game"])
            self._resume_enrol(saved.get("enrol"))
        if self.store.error:
            self.link.emit({"type": "error", "what": "saved-game", "why": self.store.error})
        if tags_why:  # numbered as this boot's, now that the link took up its numbering
            self.link.emit({"type": "error", "what": "enrolled-tags", "why": tags_why})

    def _resume_enrol(self, card):
        """A tag awaited when the power went: awaited still (the host had the answer)."""
        if card is None or not self.sense or not self.sense.cards:
            return
        from link.commands import typed

        try:
            self.sense.cards.enrol_as = typed({"cmd": "enrol", "card": card})["card"]
        except ValueError:
            pass  # not a card: nothing awaited (the host, unanswered, asks again)

    def _resume_game(self, state):
        """The saved game takes the new one's place; one that does not fit is set aside
        (store.Store.set_aside), as is one that twice found the heap too short to be
        restored: the new game's saves never write over it."""
        name = self.about().get("game")
        why = None
        for _ in range(2):
            try:
                if not isinstance(state, dict):
                    raise ValueError("not a game")
                if state.get("game") != name:  # the table played another game
                    self._load(state.get("game"), {})
                self.game.restore(state)
                return
            except (ValueError, KeyError, TypeError, IndexError, AttributeError) as e:
                why = "unusable (%s)" % e
                break
            except MemoryError:  # a restore starts afresh: tried again once collected
                why = "not restored (short of memory)"
                gc.collect()
        self.store.set_aside(why)
        self._load(name, {})

    def step(self):
        """One pass of the loop. An exception in it (a bug in a game's handler, say) is
        reported as an `error` event and the loop goes on: the watchdog is for hangs."""
        try:
            self._step()
        except Exception as e:
            self.failed(e)
        if self.watchdog:
            self.watchdog.feed()

    def failed(self, e):
        """Report an exception the loop caught, at most once every _ERROR_MS (with how
        many were not reported): a bug hit on every scan must not flood the link."""
        self.failures += 1
        now = self.clock.ticks_ms()
        if self._failed_at is not None and elapsed(now, self._failed_at) < _ERROR_MS:
            self._unsaid += 1
            return
        self._failed_at = now
        ev = {"type": "error", "what": "firmware", "why": "%s: %s" % (type(e).__name__, e)}  # type: dict
        if self._unsaid:
            ev["repeats"] = self._unsaid
            self._unsaid = 0
        try:
            self.link.emit(ev)
        except Exception:
            self._unsaid += 1  # out of memory, likely: the next report counts this one

    def _tell_calibration(self):
        """Calibrating: the settled sensor edges to the host. A method of its own: _step's
        locals stay few enough for MicroPython to keep its frame on the C stack, not on the
        heap under the game's step (more than 11 words of locals and stack go to the heap)."""
        names = self.sense.board.names
        for bit, level in self.sense.calibrated():
            self.link.tell({"type": "sensor", "bit": bit, "name": names[bit], "level": level})

    def _step(self):
        data = self.transport.read()
        if data:
            self.link.receive(data)
        game = self.game
        if game:
            now = self.clock.ticks_ms()
            busy = False
            if self.sense:
                enrol = self.sense.step(now, game)  # a tag laid to be enrolled, or None
                if enrol:
                    self._enrol_tag(*enrol)
                if self.sense.calibration:
                    self._tell_calibration()
                busy = self.sense.busy()
                if self._busy and not busy:
                    self._collect = True  # the sensors just settled: the game reads soon
                self._busy = busy
            game.step(now, not busy)
            if self.store and game.unsaved and (game.urgent or self.store.due(now)):
                self.save()
        self.link.flush()  # the events of this pass: on flash, then on the wire
        self.link.tick(self.clock)
        if self._collect:
            # The garbage is collected between passes, when the sensors have just settled
            # (the game is about to read the board and check a move) and after a save (a
            # move, a card or a goal was just refereed): each read and check then starts
            # with the heap fresh, and a collection (tens of ms on an ESP32) does not fall
            # inside one: the loop's collections are counted by make bench.
            self._collect = False
            if COLLECT:
                gc.collect()

    def run(self):
        """The loop: a pass every SCAN_MS, start to start (the time a pass takes is not
        added to it); a pass that overran is followed at once by the next, and after a
        long stall the period starts afresh rather than in a burst of passes."""
        self.transport.table_mode()
        clock = self.clock
        try:
            due = clock.ticks_ms()
            while self.running:
                self.step()
                due = (due + SCAN_MS) & TICKS_MAX
                wait = -clock.since(due)
                if wait > 0:
                    clock.sleep_ms(wait)
                elif wait < -SCAN_MS:
                    due = clock.ticks_ms()
        finally:
            self.transport.repl_mode()
