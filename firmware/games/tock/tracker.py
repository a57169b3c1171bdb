# Tock at the table: settled sensor edges and card reads in, refereed game events out.
#
# The board is watched, not trusted: the position the rules hold is the game; what the
# sensors show is compared with it once the board has settled (no sensor changing for
# SETTLE_MS). A card starts a turn; the first settled board that one legal move of that card
# produces is that move. A half-made move never matches a legal result, so it is never
# reported; a board that stays wrong for _ILLEGAL_MS (a person's pause, not a hand's) is
# `illegal`, with what would fix it, and `corrected` once the board is legal again: the pawns
# put back, or the card's move completed (a capture half made: its pawn still standing).
from micropython import const

from clock import elapsed
from games.cards import JOKER, CardError, CardGame
from games.tock import observe
from games.tock.rules import (
    ANY,
    CELLS,
    COLOURS,
    REACH,
    Card,
    Illegal,
    Position,
    PositionError,
    sensor_cell,
)
from games.tock.show import show as _show  # (loaded with the game: a module loaded
from games.tock.show import sound as _sound  # mid-game stays, an island in the heap)

# The board against the game, one of three states (explicit, as the MFRC522 driver's; private
# consts, inlined: a public name would cost a slot of the module's dict on the board's heap):
_AGREES = const(0)  # the pawns stand as the game has them (a laid card may await its move)
_WRONG = const(1)  # they do not (self.wrong says how), since self.wrong_at: hands may be at it
_REPORTED = const(2)  # still wrong illegal_ms later: an `illegal` event said so; `corrected`
# is said when the board agrees again. How it is wrong (self.wrong, the event's words):
# "camp": the track is right, a camp is not (a captured pawn still in hand); "no-card": pawns
# moved with no card on the reader; "illegal": no legal move of the card gives this board.
SETTLE_MS = const(90)  # quiet time after the last settled edge before the board is read
_ILLEGAL_MS = const(1500)  # a wrong board must stay wrong this long to be reported
DECK = const(52)


class TockGame(CardGame):
    def __init__(self, emit, names, settings=None, settle_ms=SETTLE_MS, illegal_ms=_ILLEGAL_MS):
        from games.settings import check

        super().__init__(emit)
        self.settings = check("tock", settings or {})
        self.settle_ms = settle_ms
        self.illegal_ms = illegal_ms
        # sensor bit -> cell (0..87) or 100 + camp slot (colour * 4 + k), or 255 (unused)
        self._bit_cell = bytearray(len(names))
        for i in range(len(names)):
            self._bit_cell[i] = sensor_cell(names[i])
        self.occ = bytearray(CELLS)  # what the sensors show, track and home
        self.camp = bytearray(16)  # and camp slots
        self._looked = False  # the first scan (every sensor that sees a magnet) is over
        self.last_edge = 0  # when a sensor last changed (hands): from the first look on
        self.new_game(self._start())

    def _start(self):
        """The position a new game starts from, by the settings."""
        s = self.settings
        if "position" in s:
            return Position.from_dict(s["position"])
        return Position.initial(s["players"], s["rules"])

    # --- game state ---------------------------------------------------------------------

    def new_game(self, pos):
        self.pos = pos  # changed by pos.play(move), which keeps the moves for undo
        self.card = None  # type: Card | None  # the card laid, waiting for its move
        self.played = []  # cards played since the last reshuffle (full until the next card)
        self.touched = set()
        self._air = []  # cells (or 100 + camp slot) lifted and not yet set down
        self._lifts = 0  # lifts since the air was last empty
        self.dirty = True  # the board changed since it was last read
        self.agreement = _AGREES  # the pawns seen against the game: _AGREES, _WRONG or _REPORTED
        self.wrong = ""  # how ("camp", "no-card", "illegal"), read when not _AGREES
        self.wrong_at = 0  # since when
        self.owed = False  # an `illegal` was said and no `corrected` yet
        self.unsaved = True  # the game changed since it was last saved (store.py)
        self.resumed = False  # restored after a reset: compare with the board, say so
        self.last_why = None  # why the last board read with a card matched no legal move
        self.moved_at = None  # the last move's time (its squares lit a while: show.py)
        self.refused = []  # cards refused since the last card played (games/cards.py)

    def state(self):
        """What store.py saves: enough to resume the game after a reset."""
        return {
            "game": "tock",
            "settings": self.settings,
            "position": self.pos.to_dict(),
            "card": str(self.card) if self.card else None,
            "played": self.played,
            "spot": self.spot or "",
            # squares hands touched since the card: a reset mid-move must not forget a
            # square lifted and set down again (a capture's, a Jack's first pawn)
            "touched": sorted(self.touched),
        }

    def restore(self, state):
        from games.settings import check

        self.settings = check("tock", state.get("settings", self.settings))
        self.new_game(Position.from_dict(state["position"]))
        played = state.get("played", [])
        for c in played:
            Card(c)  # CardError (a ValueError) if the saved list is not cards
        self.played = list(played)
        if state.get("card"):
            self.card = Card(state["card"])
            self.touched = set(s for s in state.get("touched", ()) if 0 <= s < CELLS)
        self.restored(state)

    def check_sensors(self, on):  # type: ignore[override]  # None in Game (games/cards.py)
        """Selftest: the sensors that see a magnet (`on`, names) against the position: track
        and home squares (camp slots aside: which slots hold a colour's pawns is anyone's
        choice)."""
        from games.tock.rules import square_name

        on = [n for n in on if sensor_cell(n) < CELLS]
        expected = [square_name(s) for s in range(CELLS) if self.pos.cells[s]]
        return {
            "on_unexpected": [n for n in on if n not in expected],
            "off_unexpected": [n for n in expected if n not in on],
        }

    def about(self):
        return {"game": "tock", "rules": self.pos.rules, "players": self.pos.players}

    def snapshot(self):
        snap = {
            "game": "tock",
            "position": self.pos.to_dict(),
            "card": str(self.card) if self.card else None,
            "played": len(self.played),
        }
        if self.agreement == _REPORTED:
            snap["problem"] = self.wrong
        return snap

    # --- what the table shows (games/tock/show.py) -------------------------------------

    moved_at = None  # when the last move was played (its squares lit a while)
    fix = ""  # the `fix` of the last `illegal` said
    _leds = None
    _buf = None

    def show(self, out, now):
        return _show(self, out, now)

    def sound(self, ev):
        return _sound(self, ev)

    def lifted(self):
        """The pawn in the hand: the first lifted (cell, or 100 + a camp slot) that is off its
        square as the game has it (its square empty, or its camp short of pawns); None when
        every pawn stands where the game has it. (The air list alone can hold a square the
        sensors reported lifted after a pawn was set down elsewhere.)"""
        pos = self.pos
        for cell in self._air:
            if cell < CELLS:
                if pos.cells[cell] and not self.occ[cell]:
                    return cell
            elif cell != 255:
                c = (cell - 100) // 4
                if sum(self.camp[c * 4 : c * 4 + 4]) < pos.camp(c):
                    return cell
        return None

    def cell_leds(self):
        """cell -> its LED (the chain runs in the sensors' order: a square's LED has its
        sensor's bit), camp slot k at CELLS + k; 255 where there is none. Made once."""
        leds = self._leds
        if leds is None:
            leds = self._leds = bytearray(b"\xff" * (CELLS + 16))
            cells = self._bit_cell
            for b in range(len(cells)):
                c = cells[b]
                if c < CELLS:
                    leds[c] = b
                elif c != 255:
                    leds[CELLS + c - 100] = b
        return leds

    def reach_buf(self):
        """Position.reach's cells (REACH), made once."""
        if self._buf is None:
            self._buf = bytearray(REACH)
        return self._buf

    def _seat(self):
        t = self.pos.turn
        if t == ANY:
            return "any"
        return COLOURS[self.pos.seat_of(t)]

    # --- inputs from the sense layer -------------------------------------------------------

    def config(self, timings):
        self.settle_ms = timings.get("settle_ms", self.settle_ms)
        self.illegal_ms = timings.get("illegal_ms", self.illegal_ms)

    def on_sensor(self, bit, level, now):
        cell = self._bit_cell[bit]
        if cell == 255:
            return
        held = self.lifted() if self.card is not None else None  # the hints follow it
        if cell < CELLS:
            self.occ[cell] = level
        else:
            self.camp[cell - 100] = level
        if not self._looked:
            return  # the board as it stands at power-up: learnt, not touched by hands
        if cell < CELLS:
            self._touch(cell)
        # Pawns in the air, last lifted last. A pawn set straight back where it was lifted,
        # nothing else lifted meanwhile, was only picked up: its square keeps its pawn (this
        # tells a Jack's two squares from a fumble next to them).
        air = self._air
        if not level:
            air.append(cell)
            self._lifts += 1
        elif air:
            if self._lifts == 1 and air[0] == cell and cell < CELLS:
                self._touch(cell, False)
            if cell in air:
                air.remove(cell)
            else:
                air.pop()
            if not air:
                self._lifts = 0
        if self.card is not None and self.lifted() != held:
            self.shown += 1
        self.last_edge = now
        self.dirty = True

    def _touch(self, cell, touched=True):
        if (cell in self.touched) == touched:
            return
        if touched:
            self.touched.add(cell)
        else:
            self.touched.discard(cell)
        if self.card is not None:  # a move under way: saved at once (see state())
            self.unsaved = self.urgent = True

    def on_card(self, text, uid, now, pile=False):
        """A card read; True when it was refused (it may be laid again at once)."""
        if self.from_pile(text, uid, pile):
            return False  # read before the power went, lying on the spot still
        if text is None:
            self.unknown_tag(uid)
            return False
        try:
            card = Card(text)
        except CardError as e:
            self.emit({"type": "error", "what": "unknown-tag", "uid": uid, "why": str(e)})
            return False
        pos = self.pos
        if pos.winner() is not None:
            return self._refuse(card, "game-over", "the game is over (T19): start a new game")
        if card.rank == JOKER and not pos.flags["jokers"]:
            return self._refuse(card, "not-in-deck", "no jokers in the %s deck" % pos.rules)
        if self.card is not None:
            return self._refuse(
                card, "second-card", "%s is still to be played: one card per turn (T7)" % self.card
            )
        if self._deck_out():
            self.played = []  # the whole deck was out: this card starts it again, shuffled
        if self._already_played(card):
            return self._refuse(
                card, "card-replayed", "%s was already played since the last shuffle" % card
            )
        self.played.append(str(card))
        self.count()
        seat = self._seat()
        self.emit({"type": "card", "card": str(card), "seat": seat})
        if not pos.has_move(card):
            pos.discard(card, True)
            self._done()
            self.emit(
                {
                    "type": "discard",
                    "card": str(card),
                    "seat": seat,
                    "why": "%s has no legal move (T17)" % card,
                }
            )
            return
        self.card = card
        self.touched = set()
        self.dirty = True
        self.unsaved = True

    def _already_played(self, card):
        if card.rank == JOKER:
            return self.played.count(JOKER) >= self.pos.flags["jokers"]
        return str(card) in self.played

    def _deck_out(self):
        return len(self.played) >= DECK + self.pos.flags["jokers"]

    def _refuse(self, card, what, why):
        if self.refuse(str(card)):
            self.emit({"type": "error", "what": what, "card": str(card), "why": why})
        return True

    def on_button(self, name, now):
        if name in ("undo", "new"):
            why = self.command({"cmd": name})
            if why:  # a button has no answer: what it did not do is said
                self.button_refused(name, why)
        else:
            CardGame.on_button(self, name, now)

    # --- host commands ---------------------------------------------------------------------

    def command(self, cmd):
        """None when done; else the reason it was refused (nothing changed)."""
        name = cmd["cmd"]
        if name == "undo":
            return self._undo()
        if name == "new":  # settings checked in full already (table.Table.command)
            if "settings" in cmd:
                self.settings = cmd["settings"]
            try:
                pos = self._start()
            except PositionError as e:
                return str(e)
            self.new_game(pos)
            self.emit({"type": "game", "game": "tock", "position": pos.to_dict()})
            return None
        return "unknown command %r for tock" % name

    def _undo(self):
        if self.card is not None:
            card = self.card
            self.card = None
            self.played.remove(str(card))
            self.emit({"type": "undo", "card": str(card), "what": "card taken back"})
            self.unsaved = True
            return None
        move = self.pos.undo()
        if move is None:
            return "nothing to undo"
        self.moved_at = None
        name = str(move.card)
        if name in self.played:
            self.played.remove(name)
        self.emit(
            {
                "type": "undo",
                "card": name,
                "steps": move.steps(),
                "what": "put the pawns back where they were",
            }
        )
        self.dirty = True
        self.unsaved = True
        return None

    # --- the referee ------------------------------------------------------------------

    def step(self, now, settled=True):
        """Once per scan. `settled`: no sensor is mid-change (sense.busy() is False)."""
        if not self._looked:
            # the board as found (power-up, a game loaded): quiet from this first look on,
            # never from tick 0 (the counter may read anything then, after a wrap too), so
            # a move found on it and the board's wrong time count from here
            self._looked = True
            self.last_edge = now
        if not settled or elapsed(now, self.last_edge) < self.settle_ms:
            return
        if self.dirty:
            self.dirty = False
            self._read_board(now)
        if self.agreement == _WRONG and elapsed(now, self.wrong_at) >= self.illegal_ms:
            self._report()

    def _read_board(self, now):
        pos = self.pos
        if self.resumed:
            self._resume(now)
        if self._matches(pos):
            self.agreement = _AGREES
            # every pawn stands where the game has it: none is in a hand, whatever the air
            # list kept (lifts never set down where they were: a game set up on a full
            # board, a pawn taken away for good), so the next pick-up is told as one
            del self._air[:]
            self._lifts = 0
            self._corrected()
            if self.card is not None and self.card.rank == "J" and len(self.touched) >= 2:
                self._try_move(now)  # a Jack leaves occupancy as it was
            return
        if self.card is not None and self._try_move(now):
            return
        if self._track_matches(pos):
            kind = "camp"
        elif self.card is None:
            kind = "no-card"
        else:
            kind = "illegal"
        if self.agreement != _REPORTED or self.wrong != kind:
            # the clock restarts at every change: hands still moving are not a wrong board
            self.agreement = _WRONG
            self.wrong = kind
            self.wrong_at = now

    def _resume(self, now):
        """First look at the board after a reset: say the game resumed, and whether the
        pawns stand where the saved game has them (and which squares differ if not).
        Squares that differ count as touched: hands were at work when the power went."""
        self.resumed = False
        ok = self._matches(self.pos)
        ev = {
            "type": "resumed",
            "position": self.pos.to_dict(),
            "card": str(self.card) if self.card else None,
            "board": "matches"
            if ok
            else observe.placement_fix(
                self.pos, self.occ, self._camp_expected(self.pos), self._camp_counts()
            ),
        }
        self.emit(ev)
        for s in range(CELLS):
            if bool(self.occ[s]) != bool(self.pos.cells[s]):
                self.touched.add(s)

    def _matches(self, pos):
        return self._track_matches(pos) and self._camp_counts() == self._camp_expected(pos)

    def _track_matches(self, pos):
        occ = self.occ
        cells = pos.cells
        for s in range(CELLS):
            if bool(occ[s]) != bool(cells[s]):
                return False
        return True

    def _camp_counts(self):
        return [sum(self.camp[c * 4 : c * 4 + 4]) for c in range(4)]

    def _camp_expected(self, pos):
        return [pos.camp(c) if c in pos.colours() else 0 for c in range(4)]

    def _movers(self):
        pos = self.pos
        seats = pos.seats() if pos.turn == ANY else (pos.seat_of(pos.turn),)
        movers = []
        for seat in seats:
            for c in pos.own_for_card(seat):
                if c + 1 not in movers:
                    movers.append(c + 1)
        return movers

    def _try_move(self, now):
        pos = self.pos
        card = self.card
        if card is None:
            return False
        why = None
        for cand in observe.candidates(
            pos, self._movers(), self.occ, self.touched, swap=card.rank == "J"
        ):
            try:
                move = pos.check(card, cand, self.touched)
            except Illegal as e:
                why = why or e.why
                continue
            self._played(move, now)
            return True
        self.last_why = why
        return False

    def _played(self, move, now):
        ev = {
            "type": "move",
            "card": str(move.card),
            "seat": COLOURS[move.seat],
            "kind": move.kind,
            "steps": move.steps(),
            "t": now,  # board ms; the last settled sensor edge was at t - settle
            "settle": elapsed(now, self.last_edge),
        }
        if move.captures:
            ev["captures"] = move.captures
        self.pos.play(move)
        self.moved_at = now
        self._done()
        self.emit(ev)
        self.agreement = _AGREES
        winner = self.pos.winner()
        if winner is not None:
            self.emit({"type": "win", "seat": self.pos._seat_name(winner)})
        if self._matches(self.pos):
            self._corrected(ev["seat"])  # an illegal board made right by the move itself
        else:
            self.agreement = _WRONG  # a captured pawn still in hand
            self.wrong = "camp"
            self.wrong_at = self.last_edge

    def _corrected(self, seat=None):
        """The board is legal again: `corrected`, if an `illegal` was said, naming the seat
        it was said to (the mover, when its move made it right: the turn has passed)."""
        if self.owed:
            self.owed = False
            self.emit({"type": "corrected", "seat": seat or self._seat()})

    def _done(self):
        """The card is done: played, or discarded."""
        self.card = None
        self.touched = set()
        self.unsaved = True  # saved before it is announced (link.Link.flush)

    def _report(self):
        kind = self.wrong
        fix = observe.placement_fix(
            self.pos, self.occ, self._camp_expected(self.pos), self._camp_counts()
        )
        if self.card is not None:  # a capture half made: how to finish it comes first
            finish = observe.capture_fix(
                self.pos, self.card, self.occ, self._camp_counts(), self.touched, self._movers()
            )
            if finish:
                fix = finish + ("; or, to take the move back: " + fix if fix else "")
        ev = {"type": "illegal", "what": kind, "fix": fix}
        if kind == "camp":
            ev["why"] = "the board is not as the game is"
        elif kind == "no-card":
            ev["why"] = "pawns moved but no card was laid on the reader"
        else:
            ev["what"] = "move"
            ev["card"] = str(self.card)
            ev["why"] = self.last_why or "no legal move of %s leads to this board" % self.card
        self.fix = fix
        self.emit(ev)
        self.agreement = _REPORTED
        self.owed = True
