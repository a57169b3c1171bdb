# The Tock rules core (../shared/specs/tock.md, rules T1-T19): positions, cards, legal moves.
#
# Pure: no I/O, no clock, no `machine`. The same file runs in the firmware (MicroPython on an
# ESP32) and in the host tools (CPython). Two questions are answered:
#   Position.legal_moves(card)   every legal move, duplicates (same result) merged  (host)
#   Position.check(card, after)  which legal move produces this observed position   (board)
# `check` never enumerates the splits of a 7: it reads the parts off the observation.
#
# Squares are small ints: track 0..71 (R1 = 0 .. R18 = 17, G1 = 18 .. Y18 = 71, forward = +1
# mod 72), then home: 72 + 4 * colour + (k - 1) for CHk. A position is one bytearray of 88
# cells holding colour + 1 or 0; camp counts are what is left of a colour's four pawns.
from micropython import const

from games.cards import JOKER, CardError, parse_card

COLOURS = "RGBY"
TRACK = const(72)
CELLS = const(88)
ANY = const(4)  # `turn` after a joker (T18)

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
    if rest.isdigit() and rest[0] != "0" and 1 <= int(rest) <= 18:
        return c * 18 + int(rest) - 1
    return None


def colour_of_home(s):
    return (s - TRACK) // 4


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
        if rules not in RULESETS:
            raise PositionError("unknown rules %r; one of: %s" % (rules, ", ".join(RULESETS)))
        if players not in (2, 3, 4):
            raise PositionError("players must be 2, 3 or 4, not %r" % (players,))
        self.players = players
        self.rules = rules
        self.overrides = {}
        self.flags = dict(RULESETS[rules])
        if flags:
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
            if k in ("jokers", "seven_max_pawns") and (not isinstance(v, int) or v < 0):
                raise PositionError("flag %s must be a whole number" % k)
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
            return (c % 2, c % 2 + 2)
        return (c,)

    def seats(self):
        return (0, 1) if self.players == 2 else self.colours()

    def seat_of(self, c):
        return c % 2 if self.players == 2 else c

    def own_for_card(self, seat):
        """Own colours when the seat plays a card: a team player whose home is full plays
        its partner's pawns (T6), fixed for the whole card."""
        own = self.seat_colours(seat)
        if self.teams() and self.home_full(seat):
            return ((seat + 2) % 4,)
        return own

    def team_colours(self, seat):
        if self.teams():
            return (seat, (seat + 2) % 4)
        return self.seat_colours(seat)

    def next_seat(self, seat):
        seats = self.seats()
        return seats[(seats.index(seat) + 1) % len(seats)]

    # counting

    def camp(self, c):
        n = 4
        col = c + 1
        cells = self.cells
        for s in range(TRACK):
            if cells[s] == col:
                n -= 1
        for k in range(4):
            if cells[TRACK + 4 * c + k]:
                n -= 1
        return n

    def home_full(self, c):
        base = TRACK + 4 * c
        return all(self.cells[base + k] for k in range(4))

    def winner(self):
        """The seat that has won (T19), or None. Teams: both homes of the team."""
        for seat in self.seats():
            if self.teams():
                need = (seat, (seat + 2) % 4)
            else:
                need = self.seat_colours(seat)
            if all(self.home_full(c) for c in need):
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
            pos.turn = ANY
        elif isinstance(turn, str) and len(turn) == 1 and turn in in_play:
            pos.turn = COLOURS.index(turn)
        else:
            raise PositionError('turn must be a colour in play or "any", not %r' % (turn,))
        for name in d.get("waiting", []):
            if name not in in_play:
                raise PositionError("waiting colour %r is not in play" % (name,))
            c = COLOURS.index(name)
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
        """Landing on track square s: the reason it is refused, or None (capture done)."""
        occ = self.cells[s]
        if not occ:
            return None
        if occ - 1 in team:
            return "%s is taken by a pawn of your own side (T9)" % square_name(s)
        if s % 18 == 17:
            return "%s is a square 18: a pawn there is taken only by an exiting pawn (T9)" % (
                square_name(s)
            )
        self._capture(s)
        return None

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
        cells = self.cells
        if s >= TRACK:  # T16: inside home, never past CH4, never passing a pawn
            k = s - TRACK - 4 * c
            if k + n > 3:
                return "%s cannot move %d: home ends at %sH4 (T16)" % (
                    square_name(s),
                    n,
                    COLOURS[c],
                )
            for j in range(1, n + 1):
                if cells[s + j]:
                    return "%s cannot pass or land on the pawn on %s (T16)" % (
                        square_name(s),
                        square_name(s + j),
                    )
            cells[s] = 0
            cells[s + n] = c + 1
            self.last_to = s + n
            self._enter_waiting()
            return None
        entry = entry_square(c)
        count = self.flags["home_entry"] == "count"
        p = s
        for i in range(1, n + 1):
            if count and p == entry:
                r = n - i + 1  # T15: steps left go into home
                if r > 4:
                    return "%s cannot move %d: the steps after %s go past %sH4 (T15)" % (
                        square_name(s),
                        n,
                        square_name(entry),
                        COLOURS[c],
                    )
                for k in range(1, r + 1):
                    if cells[home_square(c, k)]:
                        return "%s cannot pass or land on the pawn on %s (T15)" % (
                            square_name(s),
                            square_name(home_square(c, k)),
                        )
                self._leave(c, s)
                cells[home_square(c, r)] = c + 1
                self.last_to = home_square(c, r)
                self._enter_waiting()
                return None
            p = (p + 1) % TRACK
            if i < n and _own_side(cells[p], team):
                return _cannot_pass(s, p, "T9")
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
        return None

    def backward(self, c, s, team):
        """T10: a track pawn steps 4 back; never into home."""
        if s >= TRACK:
            return "a pawn in home never moves backward (T16)"
        p = s
        for i in range(1, 5):
            p = (p - 1) % TRACK
            if i < 4 and _own_side(self.cells[p], team):
                return _cannot_pass(s, p, "T10")
        why = self._land(p, team)
        if why:
            return why
        self._leave(c, s)
        self.cells[p] = c + 1
        self.last_to = p
        return None

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
        return self.seats() if self.turn == ANY else (self.seat_of(self.turn),)

    def _after_card(self, seat, card):
        """Advance the turn after `seat` played `card` (T7, T18)."""
        self.turn = ANY if card.rank == JOKER else self.next_seat(seat)

    # --- enumerate ---------------------------------------------------------------------

    def legal_moves(self, card):
        """Every legal move of the card for the seat to play (all seats after a joker),
        duplicates merged: one Move per resulting position. [] means: discard (T17)."""
        if not isinstance(card, Card):
            card = Card(card)
        self._check_card(card)
        found = {}
        for seat in self._seats_to_try():
            for m in self._moves(seat, card):
                k = m.after.key()
                if k not in found:
                    found[k] = m
        return list(found.values())

    def _check_card(self, card):
        if card.rank == JOKER and not self.flags["jokers"]:
            raise CardError("no jokers in the %s deck (flag jokers = 0)" % self.rules)
        if self.winner() is not None:
            raise Illegal("the game is over: %s has won (T19)" % self._seat_name(self.winner()))

    def _seat_name(self, seat):
        return "+".join(COLOURS[c] for c in self.seat_colours(seat))

    def _moves(self, seat, card):
        own = self.own_for_card(seat)
        team = self.team_colours(seat)
        r = card.rank
        if r == "7":
            yield from self._sevens(seat, own, team, card)
            return
        if r == "J":
            yield from self._swaps(seat, own, card)
            return
        if r in ("A", "K", JOKER):
            for c in own:
                p = self.copy()
                if p.exit(c, team) is None:
                    yield Move(card, seat, "exit", [(c, None, start_square(c))], self, p)
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
                    yield Move(card, seat, kind, [(c, s, p.last_to)], self, p)

    def _swaps(self, seat, own, card):
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
                parts = [(cells[a] - 1, a, b), (cells[b] - 1, b, a)]
                yield Move(card, seat, "swap", parts, self, p)

    def _sevens(self, seat, own, team, card):
        """T11: every split of the 7 (steps per pawn), each played in every order the rules
        allow; one Move per resulting position."""
        seen = set()
        for parts in self._seven_splits(seat, None):
            for m in self._seven_orders(parts, seat, card, team, None, None, False):
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
        reasons = []  # type: list[str]
        for seat in self._seats_to_try():
            if card.rank == "7":
                m = self._check_seven(seat, card, after, reasons)
            elif card.rank == "J":
                m = self._check_swap(seat, card, after, reasons, touched)
            else:
                m = None
                for cand in self._moves(seat, card):
                    if cand.after.same_placement(after):
                        m = cand
                        break
                if m is None:
                    reasons.append(self._explain(seat, card, after))
            if m is not None:
                return m
        raise Illegal(reasons[0] if reasons else "no legal move of %s leads there" % card)

    def has_move(self, card):
        """Whether the card has at least one legal move (else it is discarded, T17).
        Stops at the first one found."""
        if not isinstance(card, Card):
            card = Card(card)
        self._check_card(card)
        for seat in self._seats_to_try():
            if card.rank == "7":
                if self._any_seven(seat):
                    return True
            else:
                for _ in self._moves(seat, card):
                    return True
        return False

    def _check_swap(self, seat, card, after, reasons, touched=None):
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
                    return Move(card, seat, "swap", [(c, ok[0], ok[1]), (c, ok[1], ok[0])], self, p)
            reasons.append("nothing moved, and a Jack must swap two pawns when it can (T12)")
            return None
        if len(diff) != 2 or diff[0] >= TRACK or diff[1] >= TRACK:
            reasons.append(
                "a Jack swaps two pawns on the track; here %s changed (T12)"
                % " ".join(square_name(s) for s in diff)
            )
            return None
        a, b = diff
        if not (
            self.cells[a] == after.cells[b]
            and self.cells[b] == after.cells[a]
            and self.cells[a]
            and self.cells[b]
        ):
            reasons.append(
                "a Jack exchanges two pawns; %s and %s did not just trade places (T12)"
                % (square_name(a), square_name(b))
            )
            return None
        for s in (a, b):
            if not self.can_swap(s):
                reasons.append(
                    "the pawn on %s is on its own start square and cannot be swapped "
                    "(T12)" % square_name(s)
                )
                return None
        if mine and self.cells[a] - 1 not in own and self.cells[b] - 1 not in own:
            reasons.append("with this ruleset one of the swapped pawns must be yours (T12)")
            return None
        p = self.copy()
        p.swap(a, b)
        parts = [(self.cells[a] - 1, a, b), (self.cells[b] - 1, b, a)]
        return Move(card, seat, "swap", parts, self, p)

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

    def _check_seven(self, seat, card, after, reasons):
        own = self.own_for_card(seat)
        if self.cells != after.cells:
            mine, theirs = _by_colour(self.cells), _by_colour(after.cells)
            for c in range(4):
                if c in own:
                    continue
                before, now = mine[c + 1], theirs[c + 1]
                if before == now:
                    continue
                if len(now) >= len(before):  # captured pawns only ever leave the board
                    reasons.append(
                        "a 7 moves only your own pawns; a %s pawn moved (T11)" % COLOURS[c]
                    )
                    return None
        team = self.team_colours(seat)
        why = []  # type: list[str]
        for parts in self._seven_splits(seat, after):
            for m in self._seven_orders(parts, seat, card, team, after, why, True):
                return m
        reasons.append(
            why[0]
            if why
            else "no split of the 7 over your pawns gives this board: "
            "the parts must add up to exactly 7 (T11)"
        )
        return None

    def _any_seven(self, seat):
        """Whether some split of the 7 is legal (stops at the first)."""
        team = self.team_colours(seat)
        card = Card("7S")
        for parts in self._seven_splits(seat, None):
            for _ in self._seven_orders(parts, seat, card, team, None, None, True):
                return True
        return False

    def _seven_splits(self, seat, after):
        """The 7's parts, as lists of (colour, square, steps, free): steps per own pawn
        summing to 7, at most seven_max_pawns parts. With `after` (the board's question),
        only pawns ending on squares their colour holds in `after`, each on its own square:
        the observation gives the parts, nothing else is tried. `free`: a waiting pawn that
        slips into CH1 when it frees, then moves on in home (T14)."""
        pawns = []
        squares = _by_colour(self.cells)
        for c in self.own_for_card(seat):
            for s in squares[c + 1]:
                pawns.append((c, s, self._seven_options(c, s, after)))
        max_parts = self.flags["seven_max_pawns"]
        chosen = []  # type: list[tuple]

        def assign(i, left, nparts):
            if i == len(pawns):
                if left == 0:
                    yield [
                        (c, home_square(c, 1) if free else s, k, free)
                        for c, s, k, free, _ in chosen
                        if k
                    ]
                return
            c, s, options = pawns[i]
            for k, free, end in options:
                if k > left or (k and nparts == max_parts):
                    continue
                if end is not None and any(e == end for _, _, _, _, e in chosen):
                    continue
                chosen.append((c, s, k, free, end))
                yield from assign(i + 1, left - k, nparts + (1 if k else 0))
                chosen.pop()

        yield from assign(0, 7, 0)

    def _seven_options(self, c, s, after):
        """(steps, free, end square) for one pawn in a 7; 0 steps = it does not move. End
        squares are known only when checking an observation (geometry only: blocking is
        found when the parts are played)."""
        exact16 = self.flags["home_entry"] == "exact16"
        waiting = s == entry_square(c) and self.waiting >> c & 1
        opts = []
        reach = _reaches(self, c, s)  # where 1..7 steps end, None where they cannot
        if after is None:
            opts.append((0, False, None))
            for k in range(1, 8):
                if reach[k] is not None:
                    opts.append((k, False, None))
            if waiting:
                for k in range(1, 4):
                    opts.append((k, True, None))
            return opts
        if after.cells[s] == c + 1:
            opts.append((0, False, s))
        if waiting:
            for k in range(1, 5):
                if after.cells[home_square(c, k)] == c + 1:
                    opts.append((k - 1, True, home_square(c, k)))
        for k in range(1, 8):
            d = reach[k]
            if d is None:
                continue
            ends = (d, home_square(c, 1)) if exact16 and d == entry_square(c) else (d,)
            for e in ends:
                if after.cells[e] == c + 1:
                    opts.append((k, False, e))
        return opts

    def _seven_orders(self, parts, seat, card, team, after, why, first):
        """Play the parts in every order the rules allow (T11: each part on the board the
        previous ones left). Yields the Moves (placement equal to `after` when given);
        `first`: stop at the first. Orders reaching the same state are explored once."""
        n = len(parts)
        if not n:
            return
        seen = set()
        results = []

        def dfs(p, done, played, moved):
            if done == (1 << n) - 1:
                if after is None or p.same_placement(after):
                    results.append(Move(card, seat, "seven", played, self, p))
                return
            # Orders that played the same parts differ at most in who entered home and who
            # waits (T14): the home cells and `waiting` are the whole state worth keeping.
            key = bytes(p.cells[TRACK:]) + bytes((p.waiting, done))
            if key in seen:
                return
            seen.add(key)
            for j in range(n):
                if done >> j & 1:
                    continue
                c, s, k, free = parts[j]
                # the part's pawn must still stand on its square, unmoved (a free part waits
                # for its pawn to slip into CH1)
                if p.cells[s] != c + 1 or s in moved:
                    continue
                q = p.copy()
                w = q.forward(c, s, k, team)
                if w is None:
                    dfs(
                        q,
                        done | 1 << j,
                        played + [(c, s, q.last_to)],
                        _moved_after(p, q, moved, q.last_to),
                    )
                    if first and results:
                        return
                elif why is not None and not why:
                    why.append(w)

        dfs(self, 0, [], ())
        yield from results

    # --- playing -----------------------------------------------------------------------

    def discard(self, card):
        """The position after a card with no legal move is discarded (T17, T18)."""
        if not isinstance(card, Card):
            card = Card(card)
        p = self.copy()
        if self.turn != ANY:  # after a joker, who discarded is not known: still any seat
            p._after_card(self.seat_of(self.turn), card)
        return p


def _own_side(cell, team):
    """Whether a cell holds a pawn the mover may not pass or land on (T9, T6)."""
    return cell and cell - 1 in team


def _cannot_pass(s, p, rule):
    return "%s cannot pass the pawn of your own side on %s (%s)" % (
        square_name(s),
        square_name(p),
        rule,
    )


def _by_colour(cells):
    """The squares of each colour's pawns, in one pass: [[], R's, G's, B's, Y's]."""
    out = [[], [], [], [], []]  # type: list[list[int]]
    for s in range(CELLS):
        v = cells[s]
        if v:
            out[v].append(s)
    return out


def _reaches(pos, c, s):
    """Where the pawn of colour c on s ends after 0..7 steps forward, ignoring other pawns,
    in one walk: [s, end of 1 step, ..., end of 7 steps], None where it cannot get (past
    CH4, or round the track in `count`)."""
    out = [s, None, None, None, None, None, None, None]
    if s >= TRACK:
        h = s - TRACK - 4 * c
        for k in range(1, 4 - h):
            out[k] = s + k
        return out
    entry = entry_square(c)
    count = pos.flags["home_entry"] == "count"
    p = s
    for k in range(1, 8):
        if count and p == entry:  # the rest of the steps go into home, up to CH4
            for r in range(1, 5):
                if k - 1 + r <= 7:
                    out[k - 1 + r] = home_square(c, r)
            return out
        p = (p + 1) % TRACK
        out[k] = p
    return out


def _moved_after(before, after, moved, dest):
    """Squares of the pawns that have played a part of the 7, after one more part landed on
    `dest`. A pawn that was waiting and slipped into CH1 keeps its status (it has moved if it
    had)."""
    out = [m for m in moved if after.cells[m] == before.cells[m]]
    for m in moved:
        if after.cells[m] != before.cells[m]:  # that pawn slipped from C16 into CH1
            c = before.cells[m] - 1
            out.append(home_square(c, 1))
    out.append(dest)
    return tuple(out)


class Move:
    """One legal move: the card, the seat that played it, its parts (colour, from, to) in the
    order played (`from` None = out of camp), what it captured, and the position after."""

    def __init__(self, card, seat, kind, parts, before, after):
        self.card = card
        self.seat = seat
        self.kind = kind
        self.parts = parts
        self.captures = [square_name(s) for s in after.captured]
        after.captured = []
        after._after_card(seat, card)
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
