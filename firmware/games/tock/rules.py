# The Tock rules core (docs/rules/tock.md, rules T1-T19): positions, cards, legal moves.
#
# Pure: no I/O, no clock, no `machine`. The same file runs in the firmware (MicroPython on an
# ESP32) and in the host tools (CPython). Three questions are answered:
#   Position.legal_moves(card)   every legal move, duplicates (same result) merged  (host)
#   Position.check(card, after)  which legal move produces this observed position   (board)
#   Position.reach(card, out, s) the pawns the card can move; where one can end     (board's
#                                hints, issue 29: lit while a card waits, a pawn lifted)
# None of them lists the splits of a 7 to answer: `check` reads the parts off the
# observation; `reach` and a 7's `legal_moves` go through a dynamic programme over the own
# pawns taken front first (a pawn never passes one of its side, T9), whose state is small:
# the nearest own pawn ahead and, near a home, its squares and waiting pawn (T14-T16), with
# the steps and parts used as a bit mask. It is games/tock/hints.py, the one part of the
# rules in a module of its own: loaded when first asked (a table with hints off never
# does), it works in this module's buffers; `reach` allocates nothing.
#
# The rules' one error convention: a step that can be refused (Position.exit, forward,
# backward, and the check of one seat: _check_swap, _check_seven, _explain) returns why it
# was refused, a str, and else what it made (None: the step is done in place; the Move),
# since searches meet many refusals and try on (the 7's search keeps them as codes, words
# only for the one it reports). A question a caller asked and cannot have raises: Illegal
# (no legal move gives the observed board; `why` in a player's words), PositionError (a
# position that cannot be), CardError (not a card of the deck).
#
# A Move is a plain value (what was played, and the position it leads to); a Position
# changes by Position.play(move) and Position.undo(), as python-chess's push and pop, and
# that is the one undo history (the board's tracker and the host's follower keep none).
#
# One module (but the hints), by concern in sections (squares and notation; cards; the
# position: who plays, counting, notation; one pawn's steps; the cards' moves and the
# checks, with the refusals in words; playing; the Move; the 7's split search), not five
# modules: each module a frozen
# board imports costs its heap (a module object and its globals' dict). Measured on the
# 32-bit frozen build (branch i21, e0898d4): this module with what it imports 8,848 B; split
# into rules, squares, seven and explain 9,488 B; into five modules 10,144 B. The Tock
# table's lowest live free heap is ~24 KB of 111,936: the split is not worth 640 B of it.
#
# Squares are small ints: track 0..71 (R1 = 0 .. R18 = 17, G1 = 18 .. Y18 = 71, forward = +1
# mod 72), then home: 72 + 4 * colour + (k - 1) for CHk. A position is one bytearray of 88
# cells holding colour + 1 or 0; camp counts are what is left of a colour's four pawns.
from micropython import const

from games.cards import JOKER, CardError, parse_card
from games.settings import digits

COLOURS = "RGBY"
TRACK = const(72)
CELLS = const(88)
REACH = const(92)  # Position.reach()'s cells: the squares, then a camp per colour (CELLS + c)
ANY = const(4)  # `turn` after a joker (T18)
_NONE = const(255)  # no square, no pawn
_HISTORY = const(4)  # moves a played position keeps for undo (each costs heap on the board)

# Why a step is refused, as a code (kind | square << 3) that the 7's search keeps without
# building a string; _why() puts it in words.
_HOME_END = const(1)  # past CH4 in home (T16)
_HOME_PASS = const(2)  # a pawn in the way in home (T16)
_COUNT_PAST = const(3)  # the steps left after C16 go past CH4 (T15)
_COUNT_PASS = const(4)  # a pawn in the way into home (T15)
_PASS = const(5)  # a pawn of the mover's side on the way (T9)
_OWN = const(6)  # landing on a pawn of the mover's side (T9)
_SQ18 = const(7)  # landing on a pawn on its square 18 (T9)

RULESETS = {
    "classic": {
        "king": "exit-or-13",
        "jokers": 0,
        "swap": "any-two",
        "seven_max_pawns": 7,
        "home_entry": "exact16",
        "teams": False,
    },
    "king-exit": {
        "king": "exit-only",
        "jokers": 0,
        "swap": "any-two",
        "seven_max_pawns": 7,
        "home_entry": "exact16",
        "teams": False,
    },
    "toc-fr": {
        "king": "exit-or-13",
        "jokers": 2,
        "swap": "own-with-any",
        "seven_max_pawns": 2,
        "home_entry": "count",
        "teams": True,
    },
}
FLAG_VALUES = {
    "king": ("exit-or-13", "exit-only"),
    "swap": ("any-two", "own-with-any"),
    "home_entry": ("exact16", "count"),
}
# Colour tuples the rules hand out, made once: asked on every check, they allocate nothing.
_ALONE = ((0,), (1,), (2,), (3,))
_PAIR = ((0, 2), (1, 3), (2, 0), (3, 1))  # a 2-player seat's colours; a team (T6)
_hints = None  # games.tock.hints, once a hint is asked (Position.reach)


def _load_hints():
    """games/tock/hints.py, loaded when a table first asks for a hint (one with hints off
    never does), then kept (an import each time would allocate)."""
    global _hints
    if _hints is None:
        from games.tock import hints

        _hints = hints
    return _hints


STEPS = {"A": 1, "2": 2, "3": 3, "5": 5, "6": 6, "8": 8, "9": 9, "10": 10, "Q": 12, "K": 13}


class PositionError(ValueError):
    """A position that cannot be (five pawns of a colour, two on a square, ...)."""


class Illegal(Exception):
    """An observed position that no legal move of the card produces.

    `why` is for players: what is wrong and, where it can tell, which rule."""

    def __init__(self, why, rule=None):
        super().__init__(why)
        self.why = why
        self.rule = rule


# --- squares -------------------------------------------------------------------------


def start_square(c):
    return c * 18 + 17  # C18 (T3)


def entry_square(c):
    return c * 18 + 15  # C16 (T3)


def home_square(c, k):
    return TRACK + 4 * c + k - 1  # CHk


def square_name(s):
    if s < TRACK:
        return COLOURS[s // 18] + str(s % 18 + 1)
    h = s - TRACK
    return COLOURS[h // 4] + "H" + str(h % 4 + 1)


def parse_square(name):
    """'R18' -> 17, 'GH2' -> home square; None if not a position square."""
    if not isinstance(name, str) or len(name) < 2 or name[0] not in COLOURS:
        return None
    c = COLOURS.index(name[0])
    rest = name[1:]
    if rest[0] == "H":
        if rest[1:] in ("1", "2", "3", "4"):
            return home_square(c, int(rest[1:]))
        return None
    if digits(rest) and rest[0] != "0" and len(rest) < 3 and int(rest) <= 18:
        return c * 18 + int(rest) - 1
    return None


def colour_of_home(s):
    return (s - TRACK) // 4


# Camp slots (RC1..YC4): the sensors under a colour's camp. A position counts camp pawns, it
# does not place them (which slots hold them is anyone's choice). The one place that names
# them (the tracker's sensor map, the script's squares, the simulated board, plateau gen):
# CAMP_SLOT % (colour letter, k) and sensor_cell (a format, not a function: each function
# costs the board's heap).
CAMP_SLOT = "%sC%d"


def sensor_cell(name):
    """A sensor's name read: its cell (0..87), 100 + camp slot (colour * 4 + k - 1: RC1 is
    100, YC4 115), or 255 when no sensor of a Tock board has that name."""
    s = parse_square(name)
    if s is not None:
        return s
    if isinstance(name, str) and len(name) == 3 and name[1] == "C" and name[0] in COLOURS:
        if name[2] in "1234":
            return 100 + COLOURS.index(name[0]) * 4 + int(name[2]) - 1
    return 255


# --- cards ---------------------------------------------------------------------------


class Card:
    """A card as the rules see it: its rank decides the move (suits do not matter)."""

    def __init__(self, text):
        self.rank, self.suit = parse_card(text)
        self.text = self.rank + self.suit

    def __repr__(self):
        return "Card(%r)" % self.text

    def __str__(self):
        return self.text


# --- positions -----------------------------------------------------------------------


class Position:
    def __init__(self, players=4, rules="classic", flags=None):
        if not isinstance(rules, str) or rules not in RULESETS:
            raise PositionError("unknown rules %r; one of: %s" % (rules, ", ".join(RULESETS)))
        if isinstance(players, bool) or not isinstance(players, int) or players not in (2, 3, 4):
            raise PositionError("players must be 2, 3 or 4, not %r" % (players,))
        self.players = players
        self.rules = rules
        self.overrides = {}
        self.flags = dict(RULESETS[rules])
        if flags is not None:
            self._override(flags)
        self.cells = bytearray(CELLS)
        self.waiting = 0  # bit c: colour c's pawn on C16 is queued for CH1 (T14)
        self.turn = 0  # colour index of the seat to play, or ANY
        self.captured = []  # squares captured on by the move being played
        self.last_to = 0  # where the last pawn moved ended

    def _override(self, flags):
        if not isinstance(flags, dict):
            raise PositionError("flags must be an object")
        for k in flags:
            v = flags[k]
            if k not in self.flags:
                raise PositionError("unknown flag %r; known: %s" % (k, ", ".join(self.flags)))
            if k in FLAG_VALUES and v not in FLAG_VALUES[k]:
                raise PositionError("flag %s must be one of %s" % (k, ", ".join(FLAG_VALUES[k])))
            if k == "teams" and not isinstance(v, bool):
                raise PositionError("flag teams must be true or false")
            if k == "teams" and v and self.players != 4:
                raise PositionError("flag teams is for 4 players only (T6), not %d" % self.players)
            lo, hi = (0, 2) if k == "jokers" else (1, 7)  # a deck has two jokers (T18)
            if k in ("jokers", "seven_max_pawns") and (
                isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi
            ):
                raise PositionError("flag %s must be a whole number from %d to %d" % (k, lo, hi))
            self.flags[k] = v
            self.overrides[k] = v

    @classmethod
    def initial(cls, players=4, rules="classic", flags=None):
        return cls(players, rules, flags)

    def copy(self):
        p = object.__new__(Position)  # skip __init__: copy the fields as they are
        p.players = self.players
        p.rules = self.rules
        p.overrides = self.overrides
        p.flags = self.flags
        p.cells = bytearray(self.cells)
        p.waiting = self.waiting
        p.turn = self.turn
        p.captured = list(self.captured)
        p.last_to = self.last_to
        return p

    # who plays what (T5, T6, T7)

    def colours(self):
        """Colours in play, in seat order."""
        return (0, 1, 2) if self.players == 3 else (0, 1, 2, 3)

    def teams(self):
        return self.flags["teams"] and self.players == 4

    def seat_colours(self, c):
        """The colours a seat controls (its own pawns): 2 players own diagonal pairs."""
        if self.players == 2:
            return _PAIR[c % 2]
        return _ALONE[c]

    def seats(self):
        return (0, 1) if self.players == 2 else self.colours()

    def seat_of(self, c):
        return c % 2 if self.players == 2 else c

    def own_for_card(self, seat):
        """Own colours when the seat plays a card: a team player whose home is full plays
        its partner's pawns (T6), fixed for the whole card."""
        if self.teams() and self.home_full(seat):
            return _ALONE[(seat + 2) % 4]
        return self.seat_colours(seat)

    def team_colours(self, seat):
        if self.teams():
            return _PAIR[seat]
        return self.seat_colours(seat)

    def next_seat(self, seat):
        seats = self.seats()
        return seats[(seats.index(seat) + 1) % len(seats)]

    # counting

    def camp(self, c):
        """Colour c's pawns in its camp: the rest are on the track or in its home (a home
        holds its own colour's pawns alone), counted in C."""
        return 4 - self.cells.count(_PAWN[c])

    def home_full(self, c):
        cells = self.cells
        base = TRACK + 4 * c
        return bool(cells[base] and cells[base + 1] and cells[base + 2] and cells[base + 3])

    def winner(self):
        """The seat that has won (T19), or None. Teams: both homes of the team. Asked
        before every check: it allocates nothing."""
        for seat in self.seats():
            need = _PAIR[seat] if self.teams() else self.seat_colours(seat)
            if self.home_full(need[0]) and (len(need) == 1 or self.home_full(need[1])):
                return seat
        return None

    def same_placement(self, other):
        """Same pawns on the same squares (what sensors can see: not turn, not waiting)."""
        return self.cells == other.cells

    def __eq__(self, other):
        return (
            isinstance(other, Position)
            and self.cells == other.cells
            and self.waiting == other.waiting
            and self.turn == other.turn
            and self.players == other.players
            and self.flags == other.flags
        )

    def key(self):
        return bytes(self.cells) + bytes((self.waiting, self.turn))

    # --- notation (T4) ---------------------------------------------------------------

    @classmethod
    def from_dict(cls, d):
        if not isinstance(d, dict):
            raise PositionError("a position is a JSON object (T4)")
        for k in d:
            if k not in ("rules", "players", "turn", "pawns", "waiting", "flags"):
                raise PositionError("unknown key %r in position" % k)
        pos = cls(d.get("players", 4), d.get("rules", "classic"), d.get("flags"))
        pawns = d.get("pawns")
        if not isinstance(pawns, dict):
            raise PositionError('"pawns" must map each colour in play to its 4 squares')
        in_play = [COLOURS[c] for c in pos.colours()]
        for name in pawns:
            if name not in in_play:
                raise PositionError(
                    "colour %r is not in play with %d players (%s)"
                    % (name, pos.players, " ".join(in_play))
                )
        for name in in_play:
            c = COLOURS.index(name)
            entries = pawns.get(name)
            if not isinstance(entries, list) or len(entries) != 4:
                n = len(entries) if isinstance(entries, list) else 0
                raise PositionError("colour %s must list exactly 4 pawns, not %d" % (name, n))
            for e in entries:
                if e == "camp":
                    continue
                s = parse_square(e)
                if s is None:
                    raise PositionError("%s pawn on unknown square %r" % (name, e))
                if s >= TRACK and colour_of_home(s) != c:
                    raise PositionError("%s pawn in %s, another colour's home" % (name, e))
                if pos.cells[s]:
                    raise PositionError("two pawns on %s" % e)
                pos.cells[s] = c + 1
        turn = d.get("turn", "R")
        if turn == "any":
            if not pos.flags["jokers"]:  # only a joker lets any seat play next
                raise PositionError('turn "any" follows a joker (T18): %s has none' % pos.rules)
            pos.turn = ANY
        elif isinstance(turn, str) and len(turn) == 1 and turn in in_play:
            pos.turn = COLOURS.index(turn)
        else:
            raise PositionError('turn must be a colour in play or "any", not %r' % (turn,))
        waiting = d.get("waiting", [])
        if not isinstance(waiting, list):
            raise PositionError("waiting must list colours (T14), not %r" % (waiting,))
        for name in waiting:
            if name not in in_play:
                raise PositionError("waiting colour %r is not in play" % (name,))
            c = COLOURS.index(name)
            if pos.waiting >> c & 1:
                raise PositionError("waiting lists %s twice (T14)" % name)
            if pos.flags["home_entry"] != "exact16":
                raise PositionError("waiting is only for home_entry exact16 (T14)")
            if pos.cells[entry_square(c)] != c + 1 or not pos.cells[home_square(c, 1)]:
                raise PositionError(
                    "%s waiting needs a %s pawn on %s16 and %sH1 taken (T14)"
                    % (name, name, name, name)
                )
            pos.waiting |= 1 << c
        return pos

    @classmethod
    def start(cls, d):
        """A position a game starts from (Tock's `position` setting, a script's `position`
        line): one from_dict takes, and not won already (T19: every card would be refused)."""
        pos = cls.from_dict(d)
        seat = pos.winner()
        if seat is not None:
            raise PositionError(
                "already won by %s (T19): nothing left to play" % pos._seat_name(seat)
            )
        return pos

    @classmethod
    def parse(cls, text):
        import json

        try:
            d = json.loads(text)
        except ValueError as e:
            raise PositionError("not JSON: %s" % e)
        return cls.from_dict(d)

    def to_dict(self):
        pawns = {}
        for c in self.colours():
            entries = []
            for s in range(CELLS):
                if self.cells[s] == c + 1:
                    entries.append(square_name(s))
            while len(entries) < 4:
                entries.append("camp")
            pawns[COLOURS[c]] = entries
        d = {
            "rules": self.rules,
            "players": self.players,
            "turn": "any" if self.turn == ANY else COLOURS[self.turn],
            "pawns": pawns,
            "waiting": [COLOURS[c] for c in range(4) if self.waiting >> c & 1],
        }
        if self.overrides:
            d["flags"] = dict(self.overrides)
        return d

    def dumps(self):
        import json

        return json.dumps(self.to_dict())

    def __repr__(self):
        return "Position(%s)" % self.dumps()

    # --- one pawn's moves (T8, T9, T10, T14, T15, T16) -------------------------------
    # Each returns None when legal (the position is changed in place) or the reason why not.
    # `team`: colours whose pawns may not be passed or landed on.

    def _land(self, s, team):
        """Landing on track square s: 0 (capture done, if any) or a refusal code."""
        occ = self.cells[s]
        if not occ:
            return 0
        if occ - 1 in team:
            return _OWN | s << 3
        if s % 18 == 17:
            return _SQ18 | s << 3
        self._capture(s)
        return 0

    def _capture(self, s):
        v = self.cells[s] - 1
        self.cells[s] = 0  # T13: back to its camp
        self.captured.append(s)
        if s == entry_square(v):
            self.waiting &= ~(1 << v)

    def _leave(self, c, s):
        self.cells[s] = 0
        if s == entry_square(c):
            self.waiting &= ~(1 << c)

    def exit(self, c, team):
        """T8: a pawn of colour c from its camp to C18."""
        if not self.camp(c):
            return "%s has no pawn in camp" % COLOURS[c]
        s = start_square(c)
        occ = self.cells[s]
        if occ and occ - 1 in team:
            return "%s is taken by a pawn of your own side (T8)" % square_name(s)
        if occ:
            self._capture(s)
        self.cells[s] = c + 1
        return None

    def forward(self, c, s, n, team):
        """T9/T14/T15/T16: the pawn of colour c on square s steps n forward. Returns None
        when done, else why not. The final square is in self.last_to."""
        code = self._forward(c, s, n, team)
        return _why(code, c, s, n) if code else None

    def _forward(self, c, s, n, team):
        """forward() without words: 0 when done, else a refusal code (kind | square << 3),
        so that the 7's search, which meets many refusals, builds no string."""
        cells = self.cells
        if s >= TRACK:  # T16: inside home, never past CH4, never passing a pawn
            if s - TRACK - 4 * c + n > 3:
                return _HOME_END
            for j in range(1, n + 1):
                if cells[s + j]:
                    return _HOME_PASS | (s + j) << 3
            cells[s] = 0
            cells[s + n] = c + 1
            self.last_to = s + n
            self._enter_waiting()
            return 0
        entry = entry_square(c)
        count = self.flags["home_entry"] == "count"
        p = s
        for i in range(1, n + 1):
            if count and p == entry:
                r = n - i + 1  # T15: steps left go into home
                if r > 4:
                    return _COUNT_PAST
                for k in range(1, r + 1):
                    if cells[home_square(c, k)]:
                        return _COUNT_PASS | home_square(c, k) << 3
                self._leave(c, s)
                cells[home_square(c, r)] = c + 1
                self.last_to = home_square(c, r)
                self._enter_waiting()
                return 0
            p = (p + 1) % TRACK
            if i < n and _own_side(cells[p], team):
                return _PASS | p << 3
        why = self._land(p, team)
        if why:
            return why
        self._leave(c, s)
        self.last_to = p
        if p == entry and not count:  # T14: exactly on its own C16
            if cells[home_square(c, 1)]:
                cells[p] = c + 1
                self.waiting |= 1 << c
            else:
                cells[home_square(c, 1)] = c + 1
                self.last_to = home_square(c, 1)
        else:
            cells[p] = c + 1
        return 0

    def backward(self, c, s, team):
        """T10: a track pawn steps 4 back; never into home."""
        if s >= TRACK:
            return "a pawn in home never moves backward (T16)"
        code = self._backward(c, s, team)
        if code & 7 == _PASS:
            return _cannot_pass(s, code >> 3, "T10")
        return _why(code, c, s, 4) if code else None

    def _backward(self, c, s, team):
        """backward() of a track pawn without words: 0 when done, else a refusal code."""
        p = s
        for i in range(1, 5):
            p = (p - 1) % TRACK
            if i < 4 and _own_side(self.cells[p], team):
                return _PASS | p << 3
        why = self._land(p, team)
        if why:
            return why
        self._leave(c, s)
        self.cells[p] = c + 1
        self.last_to = p
        return 0

    def _enter_waiting(self):
        """T14: a waiting pawn enters CH1 the moment CH1 frees."""
        w = self.waiting
        if not w:
            return
        for c in range(4):
            if w >> c & 1 and not self.cells[home_square(c, 1)]:
                self.cells[entry_square(c)] = 0
                self.cells[home_square(c, 1)] = c + 1
                self.waiting &= ~(1 << c)

    def can_swap(self, s):
        """T12: a track pawn not on its own colour's 18."""
        v = self.cells[s]
        return s < TRACK and v and s != start_square(v - 1)

    def swap(self, a, b):
        cells = self.cells
        va, vb = cells[a], cells[b]
        if va == vb:
            return  # same colour: changes nothing at all (T12)
        for s in (a, b):
            if s == entry_square(cells[s] - 1):
                self.waiting &= ~(1 << (cells[s] - 1))
        cells[a], cells[b] = vb, va

    # --- turns -----------------------------------------------------------------------

    def _seats_to_try(self):
        return self.seats() if self.turn == ANY else _ALONE[self.seat_of(self.turn)]

    # --- enumerate ---------------------------------------------------------------------

    def legal_moves(self, card):
        """Every legal move of the card for the seat to play (all seats after a joker),
        duplicates merged: one Move per resulting position. [] means: discard (T17)."""
        if not isinstance(card, Card):
            card = Card(card)
        self._check_card(card)
        found = {}
        seven = card.rank == "7"
        for seat in self._seats_to_try():
            for m in self._sevens(seat, card) if seven else self._moves(seat, card):
                if not seven:  # (kind, parts, position after): made a Move
                    m = self._made(card, seat, m[0], m[1], m[2])
                k = m.after.key()
                if k not in found:
                    found[k] = m
        return list(found.values())

    # --- hints (the board's lights, issue 29) -------------------------------------------

    def reach(self, card, out, s=-1):
        """Where the card can take pawns, for the lights: games/tock/hints.py (`reach`)."""
        if not isinstance(card, Card):
            card = Card(card)
        return _load_hints().reach(_SEVEN, self, card, out, s)

    def reaching(self, card, out, s=-1):
        """reach() in pieces, for the board (games/tock/hints.py, Reach: a piece a pass):
        the job working it out into `out`, begun unless it is about this already (done, or
        under way)."""
        job = _load_hints().JOB
        if not (job.out is out and job.about(self, card, s)):
            job.start(_SEVEN, self, card, out, s)
        return job

    def _check_card(self, card):
        if card.rank == JOKER and not self.flags["jokers"]:
            raise CardError("no jokers in the %s deck (flag jokers = 0)" % self.rules)
        if self.winner() is not None:
            raise Illegal("the game is over: %s has won (T19)" % self._seat_name(self.winner()))

    def _seat_name(self, seat):
        return "+".join(COLOURS[c] for c in self.seat_colours(seat))

    def _moves(self, seat, card):
        """The plays of any card but a 7 (_sevens) for a seat, as (kind, parts, position
        after): a Move is made (_made) only of the one wanted, as check and has_move want
        one at most, and a Move costs a check its time on the board."""
        own = self.own_for_card(seat)
        team = self.team_colours(seat)
        r = card.rank
        if r == "J":
            yield from self._swaps(own)
            return
        if r in ("A", "K", JOKER):
            for c in own:
                p = self.copy()
                if p.exit(c, team) is None:
                    yield "exit", [(c, None, start_square(c))], p
            if r == JOKER or (r == "K" and self.flags["king"] == "exit-only"):
                return
        for c in own:
            for s in range(CELLS):
                if self.cells[s] != c + 1:
                    continue
                p = self.copy()
                if r == "4":
                    ok = p.backward(c, s, team) is None
                    kind = "backward"
                else:
                    ok = p.forward(c, s, STEPS[r], team) is None
                    kind = "forward"
                if ok:
                    yield kind, [(c, s, p.last_to)], p

    def _swaps(self, own):
        mine = self.flags["swap"] == "own-with-any"
        cells = self.cells
        pawns = [s for s in range(TRACK) if self.can_swap(s)]
        for i in range(len(pawns)):
            for j in range(i + 1, len(pawns)):
                a, b = pawns[i], pawns[j]
                if mine and cells[a] - 1 not in own and cells[b] - 1 not in own:
                    continue
                p = self.copy()
                p.swap(a, b)
                yield "swap", [(cells[a] - 1, a, b), (cells[b] - 1, b, a)], p

    def _sevens(self, seat, card):
        """T11: every split of the 7 (steps per pawn), each played in every order the rules
        allow; one Move per resulting position. The host's: read off the levels of the
        hints' search (_Seven.plays), or where it has no answer by the search itself."""
        from games.tock import hints

        found = []  # type: list[Move]
        if not hints.plays(_SEVEN, self, seat, card, found):
            found = []
            _SEVEN.search(self, seat, None, found, card)
        seen = set()
        for m in found:
            k = m.after.key()
            if k not in seen:
                seen.add(k)
                yield m

    # --- check (the board's question) --------------------------------------------------

    def check(self, card, after, touched=None):
        """The legal move of `card` that turns this position into `after` (same pawns on the
        same squares), or raise Illegal with the reason. A 7 is checked from the
        observation, without listing its splits. `touched` (squares hands lifted or set
        down) names the pair when a Jack swapped two pawns of one colour, which changes
        nothing else."""
        if not isinstance(card, Card):
            card = Card(card)
        self._check_card(card)
        if after.players != self.players:
            raise PositionError("the observed position has a different number of players")
        why = None  # the first seat's refusal (a joker tries every seat)
        for seat in self._seats_to_try():
            if card.rank == "7":
                m = self._check_seven(seat, card, after)
            elif card.rank == "J":
                m = self._check_swap(seat, card, after, touched)
            else:
                for kind, parts, p in self._moves(seat, card):
                    if p.same_placement(after):
                        return self._made(card, seat, kind, parts, p)
                m = self._explain(seat, card, after)
            if not isinstance(m, str):
                return m
            why = why or m
        raise Illegal(why or "no legal move of %s leads there" % card)

    def has_move(self, card):
        """Whether the card has at least one legal move (else it is discarded, T17).
        Stops at the first one found."""
        if not isinstance(card, Card):
            card = Card(card)
        self._check_card(card)
        for seat in self._seats_to_try():
            if card.rank == "7":
                if _SEVEN.search(self, seat, None):  # stops at the first split that plays
                    return True
            else:
                for _ in self._moves(seat, card):
                    return True
        return False

    def _check_swap(self, seat, card, after, touched=None):
        """The swap of this seat's Jack that gives `after`, or why none does (T12)."""
        diff = [s for s in range(CELLS) if self.cells[s] != after.cells[s]]
        mine = self.flags["swap"] == "own-with-any"
        own = self.own_for_card(seat)
        if not diff:
            # swapping two pawns of one colour changes nothing: legal if such a pair exists
            for c in range(4):
                ok = [s for s in range(TRACK) if self.cells[s] == c + 1 and self.can_swap(s)]
                if touched is not None:
                    ok = [s for s in ok if s in touched]
                if len(ok) >= 2 and (not mine or c in own):
                    p = self.copy()
                    p.swap(ok[0], ok[1])
                    return self._made(card, seat, "swap", [(c, ok[0], ok[1]), (c, ok[1], ok[0])], p)
            return "nothing moved, and a Jack must swap two pawns when it can (T12)"
        if len(diff) != 2 or diff[0] >= TRACK or diff[1] >= TRACK:
            return "a Jack swaps two pawns on the track; here %s changed (T12)" % " ".join(
                square_name(s) for s in diff
            )
        a, b = diff
        if not (
            self.cells[a] == after.cells[b]
            and self.cells[b] == after.cells[a]
            and self.cells[a]
            and self.cells[b]
        ):
            return "a Jack exchanges two pawns; %s and %s did not just trade places (T12)" % (
                square_name(a),
                square_name(b),
            )
        for s in (a, b):
            if not self.can_swap(s):
                return (
                    "the pawn on %s is on its own start square and cannot be swapped "
                    "(T12)" % square_name(s)
                )
        if mine and self.cells[a] - 1 not in own and self.cells[b] - 1 not in own:
            return "with this ruleset one of the swapped pawns must be yours (T12)"
        p = self.copy()
        p.swap(a, b)
        parts = [(self.cells[a] - 1, a, b), (self.cells[b] - 1, b, a)]
        return self._made(card, seat, "swap", parts, p)

    def _explain(self, seat, card, after):
        """Why no move of a one-pawn card gives `after`: in a player's words."""
        own = self.own_for_card(seat)
        team = self.team_colours(seat)
        gone = [
            s
            for s in range(CELLS)
            if self.cells[s] and self.cells[s] != after.cells[s] and self.cells[s] - 1 in own
        ]
        new = [
            s
            for s in range(CELLS)
            if after.cells[s] and after.cells[s] != self.cells[s] and after.cells[s] - 1 in own
        ]
        if not gone and not new:
            if self.has_move(card):
                return "no pawn of yours moved, and %s has a legal move: you must play it (T17)" % (
                    card
                )
            return "%s has no legal move: it is discarded (T17)" % card
        if len(new) != 1 or len(gone) > 1:
            return "%s moves one pawn; here %d of your pawns changed square" % (
                card,
                max(len(new), len(gone)),
            )
        to = new[0]
        if not gone:
            c = after.cells[to] - 1
            if card.rank not in ("A", "K", JOKER):
                return "%s cannot bring a pawn out of camp: only A, K%s do (T8)" % (
                    card,
                    " and X" if self.flags["jokers"] else "",
                )
            if to != start_square(c):
                return "an exiting pawn goes to its own square 18, not %s (T8)" % square_name(to)
            return self.copy().exit(c, team) or "captured pawns go back to their camp (T13)"
        s = gone[0]
        c = self.cells[s] - 1
        p = self.copy()
        if card.rank == "4":
            why = p.backward(c, s, team)
            expect = "4 squares backward (T10)"
        elif card.rank in STEPS and not (card.rank == "K" and self.flags["king"] == "exit-only"):
            why = p.forward(c, s, STEPS[card.rank], team)
            expect = "%d squares forward (T9)" % STEPS[card.rank]
        else:
            return "a %s cannot move the pawn on %s (king-exit: K only exits)" % (
                card,
                square_name(s),
            )
        if why:
            return why
        if p.last_to != to and not (p.cells[to] and p.same_placement(after)):
            return "%s moves %s: from %s that is %s, not %s" % (
                card,
                expect,
                square_name(s),
                square_name(p.last_to),
                square_name(to),
            )
        return "the board does not match: captured pawns go back to their camp (T13)"

    # the 7, read off the observation (T11)

    def _check_seven(self, seat, card, after):
        """The 7 of this seat that gives `after`, or why none does (T11)."""
        search = _SEVEN
        if self.cells != after.cells:
            c = search.foreign_moved(self, after, self.own_for_card(seat))
            if c >= 0:
                return "a 7 moves only your own pawns; a %s pawn moved (T11)" % COLOURS[c]
        if search.search(self, seat, after, None, card):
            return search.move()
        return (
            search.refusal()
            or "no split of the 7 over your pawns gives this board: "
            "the parts must add up to exactly 7 (T11)"
        )

    # --- playing (python-chess's push and pop) -----------------------------------------

    def _made(self, card, seat, kind, parts, p):
        """The Move of `card` by `seat` that turned a copy of this position into p: its
        captures named, the turn passed."""
        captures = [square_name(s) for s in p.captured]
        p.captured = []
        p.turn = ANY if card.rank == JOKER else self.next_seat(seat)  # T7, T18
        return Move(card, seat, kind, parts, captures, p)

    # The moves played on this position, for undo: (cells, waiting, turn, move), the last
    # _HISTORY. A class default: the many scratch copies the rules make keep none.
    _history = None  # type: list | None

    def play(self, move):
        """This position becomes `move.after` (a move made from it by legal_moves or check);
        the move is kept for undo(). The cells are taken over, not copied: a position once
        played on changes only by play and undo (the rules step on copies)."""
        kept = self._history
        if kept is None:
            kept = self._history = []
        kept.append((self.cells, self.waiting, self.turn, move))
        if len(kept) > _HISTORY:
            kept.pop(0)
        after = move.after
        self.cells = after.cells
        self.waiting = after.waiting
        self.turn = after.turn

    def undo(self):
        """Back to the position before the last move played: that move, or None when there
        is none to take back (none played, or more than the last few)."""
        if not self._history:
            return None
        self.cells, self.waiting, self.turn, move = self._history.pop()
        return move

    def discard(self, card, here=False):
        """The position after a card with no legal move is discarded (T17, T18): a new one,
        or this one changed (`here`: a game that keeps its undo history; a discard is not
        taken back, the move before it is)."""
        if not isinstance(card, Card):
            card = Card(card)
        p = self if here else self.copy()
        if p.turn != ANY:  # after a joker, who discarded is not known: still any seat
            p.turn = ANY if card.rank == JOKER else p.next_seat(p.seat_of(p.turn))
        return p


# --- refusals in words ------------------------------------------------------------------


def _why(code, c, s, n):
    """The words for a refusal code of the pawn of colour c on s stepping n."""
    kind = code & 7
    at = square_name(code >> 3)
    if kind == _HOME_END:
        return "%s cannot move %d: home ends at %sH4 (T16)" % (square_name(s), n, COLOURS[c])
    if kind == _HOME_PASS:
        return "%s cannot pass or land on the pawn on %s (T16)" % (square_name(s), at)
    if kind == _COUNT_PAST:
        return "%s cannot move %d: the steps after %s go past %sH4 (T15)" % (
            square_name(s),
            n,
            square_name(entry_square(c)),
            COLOURS[c],
        )
    if kind == _COUNT_PASS:
        return "%s cannot pass or land on the pawn on %s (T15)" % (square_name(s), at)
    if kind == _PASS:
        return _cannot_pass(s, code >> 3, "T9")
    if kind == _OWN:
        return "%s is taken by a pawn of your own side (T9)" % at
    return "%s is a square 18: a pawn there is taken only by an exiting pawn (T9)" % at


def _own_side(cell, team):
    """Whether a cell holds a pawn the mover may not pass or land on (T9, T6)."""
    return cell and cell - 1 in team


def _cannot_pass(s, p, rule):
    return "%s cannot pass the pawn of your own side on %s (%s)" % (
        square_name(s),
        square_name(p),
        rule,
    )


# --- the move -------------------------------------------------------------------------


class Move:
    """One legal move, a plain value (made by Position.legal_moves and check, played by
    Position.play): the card, the seat that played it, its parts (colour, from, to) in the
    order played (`from` None = out of camp), what it captured, and the position after."""

    def __init__(self, card, seat, kind, parts, captures, after):
        self.card = card
        self.seat = seat
        self.kind = kind
        self.parts = parts
        self.captures = captures  # square names
        self.after = after

    def steps(self):
        """[[from, to], ...] with square names; from is "camp" for an exit."""
        return [["camp" if f is None else square_name(f), square_name(t)] for _, f, t in self.parts]

    def describe(self):
        words = []
        for c, f, t in self.parts:
            if f is None:
                words.append("%s exits to %s" % (COLOURS[c], square_name(t)))
            else:
                words.append("%s %s -> %s" % (COLOURS[c], square_name(f), square_name(t)))
        text = ", ".join(words)
        if self.kind == "swap":
            text = "swap %s and %s" % (square_name(self.parts[0][1]), square_name(self.parts[0][2]))
        if self.captures:
            text += " (captures on %s)" % ", ".join(self.captures)
        return "%s: %s" % (self.card, text)

    def to_dict(self):
        return {
            "card": str(self.card),
            "kind": self.kind,
            "seat": COLOURS[self.seat],
            "steps": self.steps(),
            "captures": self.captures,
            "describe": self.describe(),
            "after": self.after.to_dict(),
        }

    def __repr__(self):
        return "Move(%s)" % self.describe()


# --- the 7's split search (T11) --------------------------------------------------------


class _Caught:
    """What a scratch position of the search keeps of its captures: the one square a part
    can capture on (it lands on one square), not a list that would grow."""

    def __init__(self):
        self.at = 255

    def append(self, s):
        self.at = s


_PAWN = (b"\x01", b"\x02", b"\x03", b"\x04")  # a pawn of each colour, as cells hold it

_OPTS = const(20)  # options of one pawn in a 7, at most: 0 steps, 4 free, 7 x 2 ends


class _Seven:
    """The 7's search (T11), with its memory allocated once. While a 7 waits on the reader
    the board asks it a question after every settled board; on an ESP32 a search that
    allocated would soon pay for a garbage collection (tens of ms on a full heap).

    Depth first over the splits (steps per own pawn adding up to 7, at most
    seven_max_pawns parts, one option array per pawn) and, for each split, over the orders
    its parts may be played in (T11: each part on the board the previous ones left). Part d
    of an order is played on levels[d + 1], a copy of levels[d] made in place: nothing to
    undo, nothing allocated. With the same parts played (`done`), two orders can differ
    only in which pawns entered home and which wait (T14): `memo` keeps two such states
    per `done`, which cuts the n! orders of n parts to about 2^n states.
    One search at a time (the rules never nest them)."""

    def __init__(self):
        self.levels = []
        self.moved = []  # per level: 1 on the squares of pawns that have played a part
        for _ in range(8):  # 7 parts at most, each of one step or more
            p = object.__new__(Position)
            p.cells = bytearray(CELLS)
            p.waiting = 0
            p.last_to = 0
            p.flags = RULESETS["classic"]  # the searched position's, at each search
            p.captured = _Caught()  # type: ignore[assignment]  # forward() only appends
            self.levels.append(p)
            self.moved.append(bytearray(CELLS))
        self.zero = bytearray(CELLS)
        self.reach = bytearray(8)
        self.unreached = bytearray(b"\xff" * 8)
        self.pawn_c = bytearray(8)  # the own pawns: colour, square, options
        self.pawn_s = bytearray(8)
        self.npawns = 0
        self.opt_n = bytearray(8)
        self.opt_k = bytearray(8 * _OPTS)  # steps
        self.opt_free = bytearray(8 * _OPTS)  # a waiting pawn that slips into CH1 first
        self.opt_end = bytearray(8 * _OPTS)  # where it ends, when checking an observation
        self.pick_k = bytearray(8)  # the split being tried: an option per pawn,
        self.pick_free = bytearray(8)
        self.taken = bytearray(CELLS)  # 1 on the squares its pawns end on
        self.n = 0  # its parts (the pawns that move): colour, square, steps
        self.part_c = bytearray(7)
        self.part_s = bytearray(7)
        self.part_k = bytearray(7)
        self.order = bytearray(7)  # the order being tried: part index per level,
        self.dest = bytearray(7)  # where that part's pawn ended
        # per `done`: two states seen (16 bits each, 0 = none; 4 << 7 bytes, cleared from
        # `zero` six slices at a time: no copy of zeros kept)
        self.memo = bytearray(6 * CELLS)
        self.failed = False  # an order failed in this split: states are remembered
        self.part_i = bytearray(7)  # the pawn (index into pawn_*) that plays each part
        self.after_part = bytearray(7)  # a free part: the part that frees its CH1 first
        self.hit = bytearray(CELLS)  # reach: bit i on each square pawn i can end on (ends())
        self.known = bytearray(8)  # reach: per pawn, the steps whose end is already hit
        self.target = _NONE  # reach: the one pawn asked about, or _NONE for every pawn
        self.reaching = False  # reach() rather than search for a move
        self.stop = True  # stop at the first order that plays out (a check, has_move)
        self.sensitive = False  # this split's result may depend on the order (T14)
        self.seen = None  # type: set | None  # collect: the results already made a Move
        self.nn = 0  # _dp's nodes
        self.runs = 0  # searches and hints' _dp run: what `hit` holds is theirs
        # _dp's rows (8 cells of a byte each, 11 a buffer), one level after another: the
        # search's own buffers, free while no search runs
        self.bufs = self.moved + [lv.cells for lv in self.levels]
        self.pos = self.levels[0]  # the position searched (set by search())
        self.after = None  # type: Position | None
        self.collect = None  # type: list | None
        self.card = None  # type: Card | None
        self.own = self.team = _ALONE[0]
        self.seat = 0
        self.max_parts = 0
        self.exact16 = True
        self.refused = self.refused_c = self.refused_s = self.refused_k = 0

    def foreign_moved(self, pos, after, own):
        """A colour this 7 may not move whose pawns changed otherwise than by captures
        (captured pawns only ever leave the board), or -1."""
        cells = pos.cells
        seen = after.cells
        for c in range(4):
            if c in own:
                continue
            pawn = _PAWN[c]
            s = seen.find(pawn)
            while s >= 0:
                if cells[s] != c + 1:  # on a square it was not on
                    if seen.count(pawn) >= cells.count(pawn):
                        return c
                    break
                s = seen.find(pawn, s + 1)
        return -1

    def search(self, pos, seat, after, collect=None, card=None, reaching=False):
        """True when an order of a split plays out (to `after`'s placement when given);
        the split and order found stay in part_* and order. With `collect` (a list: the
        host's enumeration), a Move of each result is appended to it and the search goes
        on; `reaching`, each pawn's ends are marked in `hit` (see ends())."""
        self.pos = pos
        self.after = after
        self.collect = collect
        self.reaching = reaching
        self.runs += 1  # hit and the pawns are the search's now
        self.stop = collect is None and not reaching
        if collect is not None:
            self.seen = set()
        self.card = card
        self.seat = seat
        self.own = own = pos.own_for_card(seat)
        self.team = pos.team_colours(seat)
        self.max_parts = pos.flags["seven_max_pawns"]
        self.exact16 = pos.flags["home_entry"] == "exact16"
        self.refused = 0
        for lv in self.levels:
            lv.flags = pos.flags
        lv = self.levels[0]
        lv.cells[:] = pos.cells
        lv.waiting = pos.waiting
        self.moved[0][:] = self.zero
        self.taken[:] = self.zero
        n = 0
        cells = pos.cells
        for c in own:
            s = cells.find(_PAWN[c])
            while s >= 0:
                self.pawn_c[n] = c
                self.pawn_s[n] = s
                self._options(n, c, s)
                k = self.opt_n[n]
                if not k:
                    return False  # this pawn can neither stay nor have got anywhere
                if k == 1 and self.opt_end[n * _OPTS] == s:
                    self.taken[s] = 1  # it stayed, and only that: nothing to try
                else:
                    n += 1
                s = cells.find(_PAWN[c], s + 1)
        self.npawns = n
        if reaching:
            self.hit[:] = self.zero
            k = self.target
            for i in range(n):  # pawns not asked about count as known: their splits are
                self.known[i] = 0 if k == _NONE or self.pawn_s[i] == k else 255  # skipped
        found = self._assign(0, 7, 0)
        self.seen = None
        return found

    def _hit(self, lv):
        """An order played out: each pawn's end marked, its steps known. A part that
        ended waiting on its C16 and a waiting pawn that played none end in CH1 if their
        colour no longer waits (they slipped in as CH1 freed, T14)."""
        hit = self.hit
        for d in range(self.n):
            j = self.order[d]
            i = self.part_i[j]
            c = self.part_c[j]
            f = self.dest[d]
            if f == c * 18 + 15 and self.exact16 and not lv.waiting >> c & 1:
                f = home_square(c, 1)
            hit[f] |= 1 << i
            self.known[i] |= 1 << self.part_k[j]
        w = self.pos.waiting & ~lv.waiting
        if w:
            for i in range(self.npawns):
                c = self.pawn_c[i]
                if w >> c & 1 and self.pawn_s[i] == c * 18 + 15 and not self.pick_k[i]:
                    hit[home_square(c, 1)] |= 1 << i

    def refusal(self):
        """Why the first part refused was refused, in words, or None."""
        if not self.refused:
            return None
        return _why(self.refused, self.refused_c, self.refused_s, self.refused_k)

    def move(self):
        """The Move of the order found, from the levels it was played on."""
        pos = self.pos
        n = self.n
        last = self.levels[n]
        p = pos.copy()
        p.cells[:] = last.cells
        p.waiting = last.waiting
        p.last_to = last.last_to
        played = []
        for d in range(n):
            j = self.order[d]
            played.append((self.part_c[j], self.part_s[j], self.dest[d]))
            at = self.levels[d + 1].captured.at  # type: ignore[attr-defined]  # a _Caught
            if at != _NONE:
                p.captured.append(at)
        return pos._made(self.card, self.seat, "seven", played, p)

    # the splits

    def _reaches(self, c, s):
        """Where the pawn of colour c on s ends after 1..7 steps forward, ignoring other
        pawns, in one walk: reach[k], _NONE where it cannot get (past CH4, or round the
        track in `count`)."""
        out = self.reach
        out[:] = self.unreached
        out[0] = s
        if s >= TRACK:
            h = s - TRACK - 4 * c
            for k in range(1, 4 - h):
                out[k] = s + k
            return
        entry = entry_square(c)
        count = self.pos.flags["home_entry"] == "count"
        p = s
        for k in range(1, 8):
            if count and p == entry:  # the rest of the steps go into home, up to CH4
                for r in range(1, 5):
                    if k - 1 + r <= 7:
                        out[k - 1 + r] = home_square(c, r)
                return
            p = (p + 1) % TRACK
            out[k] = p

    def _option(self, i, n, k, free, end):
        at = i * _OPTS + n
        self.opt_k[at] = k
        self.opt_free[at] = free
        self.opt_end[at] = end
        return n + 1

    def _options(self, i, c, s):
        """(steps, free, end square) for pawn i in a 7; 0 steps = it does not move. End
        squares are known only when checking an observation (geometry only: blocking is
        found when the parts are played)."""
        pos = self.pos
        after = self.after
        entry = c * 18 + 15  # its C16 (entry_square)
        waiting = s == entry and pos.waiting >> c & 1
        n = 0
        if after is None:
            self._reaches(c, s)
            reach = self.reach
            n = self._option(i, n, 0, 0, _NONE)
            for k in range(1, 8):
                if reach[k] != _NONE:
                    n = self._option(i, n, k, 0, _NONE)
            if waiting:
                for k in range(1, 4):
                    n = self._option(i, n, k, 1, _NONE)
            self.opt_n[i] = n
            return
        seen = after.cells
        if seen[s] == c + 1:
            n = self._option(i, n, 0, 0, s)
        exact16 = self.exact16
        if exact16 and not waiting and s < TRACK and not 0 < (entry - s) % TRACK < 8:
            # the common case, a pawn on the track far from its home: its ends are the
            # squares of its colour among the next 7, found by find() rather than by steps
            pawn = _PAWN[c]
            top = s + 8 if s + 8 < TRACK else TRACK
            e = seen.find(pawn, s + 1, top)
            at = i * _OPTS + n
            while e >= 0:
                self.opt_k[at] = e - s
                self.opt_free[at] = 0
                self.opt_end[at] = e
                at += 1
                e = seen.find(pawn, e + 1, top)
            n = at - i * _OPTS
            if s + 8 > TRACK:  # round the corner, Y18 to R1
                e = seen.find(pawn, 0, s + 8 - TRACK)
                while e >= 0:
                    n = self._option(i, n, e + TRACK - s, 0, e)
                    e = seen.find(pawn, e + 1, s + 8 - TRACK)
            self.opt_n[i] = n
            return
        if waiting:
            for k in range(1, 5):
                if seen[home_square(c, k)] == c + 1:
                    n = self._option(i, n, k - 1, 1, home_square(c, k))
        self._reaches(c, s)
        reach = self.reach
        for k in range(1, 8):
            d = reach[k]
            if d == _NONE:
                continue
            if seen[d] == c + 1:
                n = self._option(i, n, k, 0, d)
            if exact16 and d == entry and seen[home_square(c, 1)] == c + 1:
                n = self._option(i, n, k, 0, home_square(c, 1))
        self.opt_n[i] = n

    def _assign(self, i, left, nparts):
        """Options for pawns i.. whose steps add up to `left`, ends distinct; each split
        complete is played."""
        if i == self.npawns:
            return not left and self._split()
        at = i * _OPTS
        opt_k = self.opt_k
        taken = self.taken
        for o in range(self.opt_n[i]):
            k = opt_k[at + o]
            if k > left or (k and nparts == self.max_parts):
                continue
            end = self.opt_end[at + o]
            if end != _NONE:
                if taken[end]:  # two pawns, one square
                    continue
                taken[end] = 1
            self.pick_k[i] = k
            self.pick_free[i] = self.opt_free[at + o]
            found = self._assign(i + 1, left - k, nparts + (1 if k else 0))
            if end != _NONE:
                taken[end] = 0
            if found:
                return True
        return False

    def _split(self):
        """The split picked: its parts (pawns that move, in pawn order), played in every
        order the rules allow."""
        n = 0
        new = False  # reaching: a part whose end is not yet known
        # where every order that plays out gives one result (no part ends on its own C16,
        # T14; no free part), the first order found is enough, and _greedy finds it
        # unless a waiting pawn's part must go before its colour's CH1 frees
        sensitive = False
        home = 0  # colours with a part in home
        leaves = 0  # colours whose waiting pawn plays a part on the track
        for i in range(self.npawns):
            k = self.pick_k[i]
            if k:
                c = self.pawn_c[i]
                s = self.pawn_s[i]
                free = self.pick_free[i]
                self.part_c[n] = c
                self.part_s[n] = home_square(c, 1) if free else s
                self.part_k[n] = k
                self.part_i[n] = i
                if free or self.exact16 and s < TRACK and (c * 18 + 15 - s) % TRACK == k:
                    sensitive = True
                if s >= TRACK:
                    home |= 1 << c
                elif s == c * 18 + 15:
                    leaves |= self.pos.waiting & 1 << c
                if not self.known[i] >> k & 1:
                    new = True
                n += 1
        self.n = n
        for j in range(n):
            self.after_part[j] = _NONE
            if self.pick_free[self.part_i[j]]:  # its pawn slips in once CH1's pawn moved
                for h in range(n):
                    if self.part_s[h] == self.part_s[j] and not self.pick_free[self.part_i[h]]:
                        self.after_part[j] = h
                if self.after_part[j] == _NONE:
                    return False  # CH1's pawn stays: the waiting pawn never slips in
        # reaching: a pawn that waits may slip into CH1 in any split, so none is skipped
        if not n or self.reaching and not new and not sensitive and not self.pos.waiting:
            return False
        self.sensitive = sensitive
        if not sensitive and not home & leaves:
            return self._greedy() and self.stop
        memo = self.memo
        zero = self.zero
        memo[:88] = zero
        memo[88:176] = zero
        memo[176:264] = zero
        memo[264:352] = zero
        memo[352:440] = zero
        memo[440:528] = zero
        self.failed = False
        return self._orders(0, 0) and self.stop

    # the orders

    def _greedy(self):
        """The parts of a split whose order cannot change its result, played in one pass:
        at each level the first part (front pawns first) that can play now. Such a split
        plays out in some order only if in this one: a pawn may pass no pawn of its side
        (T9, T15, T16), so a part that can play now ends short of every pawn of its side
        ahead of it, and it stops no part that could have played before it (whose path
        did not reach it). A waiting pawn that plays no part slips into CH1 whenever it
        frees; one that plays on the track must go before (the full search, _orders)."""
        n = self.n
        done = 0
        for d in range(n):
            lv = self.levels[d]
            nxt = self.levels[d + 1]
            for j in range(n - 1, -1, -1):
                if done >> j & 1:
                    continue
                nxt.cells[:] = lv.cells
                nxt.waiting = lv.waiting
                nxt.captured.at = _NONE  # type: ignore[attr-defined]  # a _Caught
                code = nxt._forward(self.part_c[j], self.part_s[j], self.part_k[j], self.team)
                if not code:
                    break
                if not self.refused:
                    self.refused = code
                    self.refused_c = self.part_c[j]
                    self.refused_s = self.part_s[j]
                    self.refused_k = self.part_k[j]
            else:
                return False
            done |= 1 << j
            self.order[d] = j
            self.dest[d] = nxt.last_to
        return self._orders(n, done)

    def _orders(self, d, done):
        """Play the parts not in `done` (a bit per part) on from levels[d], in every order
        the rules allow; True when one plays out (stops there, unless collecting)."""
        n = self.n
        lv = self.levels[d]
        cells = lv.cells
        if done == (1 << n) - 1:
            if self.after is not None and cells != self.after.cells:
                return False
            if self.stop:
                return True
            if self.reaching:
                self._hit(lv)
            else:
                key = bytes(cells) + bytes((lv.waiting,))
                if key not in self.seen:  # type: ignore[operator]  # a set when collecting
                    self.seen.add(key)  # type: ignore[union-attr]
                    self.collect.append(self.move())  # type: ignore[union-attr]
            return not self.sensitive  # the order does not matter: on to the next split
        # a state is met again only after an order failed from it: it is remembered then
        if self.failed and self._state(done, lv, False):
            return False
        nxt = self.levels[d + 1]
        moved = self.moved[d]
        now = self.moved[d + 1]
        part_c = self.part_c
        part_s = self.part_s
        for j in range(n - 1, -1, -1):  # front pawns first: they let the others by (T11)
            if done >> j & 1:
                continue
            c = part_c[j]
            s = part_s[j]
            # the part's pawn must still stand on its square, unmoved (a free part waits
            # for its pawn to slip into CH1)
            if cells[s] != c + 1 or moved[s]:
                continue
            h = self.after_part[j]
            if h != _NONE and not done >> h & 1:
                continue  # a free part: CH1 still holds its own pawn
            nxt.cells[:] = cells
            nxt.waiting = lv.waiting
            nxt.captured.at = _NONE  # a _Caught (see levels)
            k = self.part_k[j]
            code = nxt._forward(c, s, k, self.team)
            if code:
                if not self.refused:
                    self.refused = code
                    self.refused_c = c
                    self.refused_s = s
                    self.refused_k = k
                continue
            now[:] = moved
            if lv.waiting & ~nxt.waiting:  # a waiting pawn slipped into CH1: if it had
                for o in self.own:  # played a part, it still has
                    e = entry_square(o)
                    if now[e] and nxt.cells[e] != cells[e]:
                        now[e] = 0
                        now[home_square(cells[e] - 1, 1)] = 1
            now[nxt.last_to] = 1
            self.order[d] = j
            self.dest[d] = nxt.last_to
            if self._orders(d + 1, done | 1 << j):
                return True
        self.failed = True
        self._state(done, lv, True)
        return False

    def _state(self, done, lv, remember):
        """Whether this state (the parts `done`, who is home and who waits) failed already;
        with `remember`, notes that it did (two states per `done`, enough in practice:
        more are played again, never wrongly cut)."""
        cells = lv.cells
        sig = lv.waiting
        for c in self.own:
            h = TRACK + 4 * c
            sig = (
                sig << 4
                | (cells[h] and 1)
                | (cells[h + 1] and 2)
                | (cells[h + 2] and 4)
                | (cells[h + 3] and 8)
            )
        sig += 1  # 0 = an empty slot
        memo = self.memo
        at = done << 2
        for _ in range(2):
            old = memo[at] | memo[at + 1] << 8
            if old == sig:
                return True
            if not old:
                if remember:
                    memo[at] = sig & 255
                    memo[at + 1] = sig >> 8
                return False
            at += 2
        return False


_SEVEN = _Seven()
