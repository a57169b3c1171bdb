# The board's hints (issue 29): for the card read, the pawns that have a legal move with it,
# and for a lifted pawn the squares it may end on (docs/rules/tock.md: a 7 in any legal
# split, T11; a Jack the pawns it may swap with, T12; a waiting pawn that slips into CH1,
# T14), without listing the card's moves; and the host's list of a 7's moves
# (Position.legal_moves), read off the same levels.
#
# Part of the Tock rules core (games/tock/rules.py, whose Position.reach and legal_moves
# come here), in a module of its own so that only a table that asks pays for it: a frozen
# board loads it when the first hint is asked (a table with hints off never does), and the
# simulator's 64-bit port, which keeps loaded bytecode on its heap, only when a hint or a
# 7's list of moves is asked. The functions take the 7's search (rules._SEVEN, `sv`: the
# caller's, and its Card, so that a module of rules loaded again is never mixed in) and
# work in its buffers: a hint allocates nothing.
#
# A 7 by dynamic programming (_dp): the own pawns taken one at a time, front pawns first,
# as nodes (a pawn on the track, one in its home; a waiting pawn twice: its part on the
# track before its CH1 frees, then the rest once it may have slipped in). Since a pawn never
# passes one of its side (T9), what a pawn still to come needs of those already taken is
# small, a state: the nearest of them ahead on the track, and near a home that home's
# squares and its waiting pawn (T14-T16). The steps used are a bit mask of the state (bit
# t: t steps; when seven_max_pawns 1 or 2 counts the parts, bit t: one part of t, bit 7:
# all played). A forward pass keeps, level by level, the states reached and their
# masks; a backward pass which of them can still make 7; where a reached state's step meets
# one that can finish, that step's end is marked for its pawn (sv.hit, a bit per pawn).
from micropython import const

from games.cards import JOKER
from games.tock.rules import (  # noqa: F401  (Card, Position, _Seven: Reach's types)
    _PAWN,
    CELLS,
    STEPS,
    TRACK,
    Card,
    Position,
    _own_side,
    _Seven,
    entry_square,
    home_square,
    start_square,
)

_NONE = const(255)  # no square, no pawn
_N_TRACK = const(0)  # the nodes of _dp: a pawn on the track,
_N_HOME = const(1)  # a pawn in its home,
_N_W = const(2)  # a waiting pawn (after its home's pawns: they may free its CH1)
_CELLS = (  # _CELLS[8 * gap + k]: gap + k, 0 past 7 (a level's cell, gap 8: none)
    b"\x00\x01\x02\x03\x04\x05\x06\x07\x01\x02\x03\x04\x05\x06\x07\x00\x02\x03\x04\x05\x06\x07\x00\x00"
    b"\x03\x04\x05\x06\x07\x00\x00\x00\x04\x05\x06\x07\x00\x00\x00\x00\x05\x06\x07\x00\x00\x00\x00\x00"
    b"\x06\x07\x00\x00\x00\x00\x00\x00\x07\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
)
_ZERO4 = b"\x00\x00\x00\x00"
# the lowest bit set of an 8-bit v: _BIT[(v & -v) % 11] (the powers of 2 differ mod 11)
_BIT = b"\x00\x00\x01\x00\x02\x04\x00\x07\x03\x06\x05"

# The hints' own state, made when a hint is first asked (a table with hints off holds
# none); _dp works in the search's buffers (rules._Seven) besides.
_CUM = [0] * 8  # _node7: the cells a step may start from, then the back masks
_KO = bytearray(40)  # _node7: a special step's state then row (16 + k), its start (32 + k)
_KBUF = [bytearray(0)] * 8  # type: list[bytearray]  # _node7: a special step's row's buffer,
_KHIT = [0] * 8  # and its hit bit
_ST = bytearray(10)  # _dp's rows: made, the level's first and end (_row), out of rows;
_NROWS = const(0)  # seven_max_pawns when parts count (_up, _down); the pawns that end
_FIRST2 = const(1)  # somewhere (a bit each); where _dp is (its phase, level, next row:
_LAST2 = const(2)  # _NONE before the level's first); ends(): the seat's ends were kept
_FULL = const(3)  # apart when it began
_PM = const(4)
_HP = const(5)
_PH = const(6)
_J = const(7)
_R = const(8)
_SAME = const(9)
_HK = [0]  # _dp backward: the steps of the level's node that can finish (_node7)
# _dp's phases, a piece each but the levels (a few rows a piece): its nodes, their order,
# what each needs of the state; the levels forward, then backward; done (or no answer)
_NODES = const(0)
_ORDER = const(1)
_NEEDS = const(2)
_FWD = const(3)
_BACK = const(4)
_DONE = const(5)
_FAIL = const(6)
# What a piece weighs (Reach.step's budget, in rows of a level): _dp's set-up phases cost
# about as much as one row (its nodes) or two (their order, their needs), a pawn played for
# a card other than 7 about one (timed on the 32-bit build: a row 10-12 us, the phases
# 11, 16 and 23 us, a pawn 7-9 us; make bench times whole pieces: tests/bench/outputs_mpy.py)
_W_NODES = const(1)
_W_SETUP = const(2)
_W_PAWN = const(1)
# the ends `hit` holds, kept for the position and seat they were worked out on (a pawn
# lifted after the card's hint is a look-up): its cells, and [flags, seat, waiting,
# players, the search's run they belong to] (a search or another _dp runs: forgotten);
# after a joker (T18) every seat's 7 is worked out: the other seat's ends on the same
# position are kept apart ([5] its seat, [6] its run, [7] npawns, [8] the pawns that
# end; its hit, pawns' colours and squares), swapped in when one of its pawns is lifted
_KEY = bytearray(CELLS)
_KEPT = [None, 0, 0, 0, -1, 0, -1, 0, 0]  # type: list
_HIT2 = bytearray(CELLS)
_PC2 = bytearray(8)
_PS2 = bytearray(8)
_TMP = bytearray(CELLS)  # (a swap's)
_TMP8 = bytearray(8)


def reach(sv, pos, card, out, s=-1):
    """Position.reach (a Card: the rules' own, made there). Where the card can take pawns,
    for the lights, without listing its moves; `out`
    (a bytearray of REACH cells, cleared here) is filled, nothing is allocated.
    s = -1: the pawns that have a legal move: out[q] = 1 under each, and
    out[CELLS + c] = 1 when a pawn of colour c may leave its camp (T8).
    s = a square, or CELLS + c for colour c's camp: out[q] = 1 on each square that
    pawn ends on in some legal play of the card: the end of its part of a 7 in some
    split (T11), the other pawn's square for a Jack (T12); a waiting pawn that slips
    into CH1 as another pawn frees it (T14) ends there too. Captured pawns are not
    the mover's. All seats after a joker (T18). Returns how many cells are set.
    All at once: the board works it out a piece a pass (Reach)."""
    job = JOB
    job.start(sv, pos, card, out, s)
    while not job.step(1 << 20):
        pass
    return job.count


class Reach:
    """reach() in pieces, for the board's hints: each step() does about `budget` rows'
    worth of the work (_W_SETUP, _W_PAWN) and says whether all is done, so that the table
    works out a crowded 7 over a few passes and keeps its 5 ms period (outputs.py steps it
    a piece a pass). It works in the search's buffers: a search or another _dp between two
    pieces (sv.runs moved) starts it again. One is made, at the first hint (JOB)."""

    def __init__(self):
        self.cells = bytearray(CELLS)  # the position it is about
        self.pos = None  # type: Position | None
        self.rank = ""
        self.s = -1
        self.waiting = 0
        self.turn = 0
        self.flags = None  # type: dict | None
        self.players = 0
        self.sv = None  # type: _Seven | None
        self.card = None  # type: Card | None
        self.out = None  # type: bytearray | None
        self.seats = ()  # type: tuple | list
        self.k = 0  # the seat being done
        self.i = 0  # its next pawn (a card but 7); a 7: 1 once its ends are under way
        self.runs = -1  # sv.runs after the last piece
        self.done = False
        self.count = 0  # cells set, once done

    def start(self, sv, pos, card, out, s=-1):
        pos._check_card(card)
        self.sv = sv
        self.pos = pos
        self.card = card
        self.rank = card.rank
        self.out = out
        self.s = s
        self.cells[:] = pos.cells
        self.waiting = pos.waiting
        self.turn = pos.turn
        self.flags = pos.flags
        self.players = pos.players
        self.seats = pos._seats_to_try()
        out[:CELLS] = sv.zero
        out[CELLS:] = _ZERO4
        self.k = self.i = 0
        self.done = False
        self.runs = sv.runs

    def about(self, pos, card, s):
        """This job is (or was) reach(pos, card, s) as the position stands."""
        return (
            self.rank == card.rank
            and self.s == s
            and self.waiting == pos.waiting
            and self.turn == pos.turn
            and self.cells == pos.cells
            and self.flags is pos.flags
            and self.players == pos.players
        )

    def step(self, budget):
        """About `budget` rows' worth of the work; True once all is done (count set)."""
        sv = self.sv
        pos = self.pos
        out = self.out
        card = self.card
        if self.done or sv is None or pos is None or out is None or card is None:
            return True  # (done, or never begun)
        if sv.runs != self.runs:  # the buffers were used meanwhile: from the start
            self.start(sv, pos, card, out, self.s)
        s = self.s
        seven = self.rank == "7"
        used = 0
        while used < budget:
            if self.k >= len(self.seats):
                self.count = out.count(b"\x01")
                self.done = True
                self.pos = self.card = None  # (what about() needs is kept: not the game's
                break  # position, which a new game or a reset drops)
            seat = self.seats[self.k]
            if not seven:
                i = _reach_one(sv, pos, seat, card, out, s, self.i, budget - used)
                done = i < 0
                if done:
                    i = -1 - i
                used += (i - self.i) * _W_PAWN + 1
                self.i = i
                if done:
                    self.i = 0
                    self.k += 1
                continue
            if not self.i:
                if s >= 0:  # a lifted pawn: only a seat that plays its colour can move it
                    v = pos.cells[s] if s < CELLS else 0  # (after a joker, T18: not every seat)
                    if not v or v - 1 not in pos.own_for_card(seat):
                        self.k += 1
                        continue
                # 2: its ends under way (_dp), 3: known (kept from the card's hint)
                self.i = 2 if _ends_begin(sv, pos, seat) else 3
                used += 1
                continue
            if self.i == 2:
                if _ST[_PH] < _DONE:
                    used += _dp_piece(sv, budget - used)
                    continue
                _ends_end(sv, pos, seat, _NONE if s < 0 else s)  # (no answer: the search)
                used += 1
            _mark(sv, out, s)
            self.k += 1
            self.i = 0
        self.runs = sv.runs
        return self.done


def _mark(sv, out, s):
    """A seat's 7: the cells its ends (hit) set in out, as reach() says."""
    hit = sv.hit
    for i in range(sv.npawns):
        q = sv.pawn_s[i]
        if s < 0:  # the pawns that end anywhere
            if _ST[_HP] >> i & 1:
                out[q] = 1
            continue
        if q != s:
            continue
        bit = 1 << i
        if q < TRACK:  # a part of 7 ends within 7 squares, or in its home
            for k in range(1, 8):
                e = q + k if q + k < TRACK else q + k - TRACK
                if hit[e] & bit:
                    out[e] = 1
        e = TRACK + 4 * sv.pawn_c[i]
        for e in range(e, e + 4):
            if hit[e] & bit:
                out[e] = 1


JOB = Reach()


def _reach_one(sv, pos, seat, card, out, s, first=0, budget=1 << 20):
    """reach() of any card but a 7 for one seat, each step played on a scratch
    position: its pawns from the `first` on (0: the Jack's and the camps' part too),
    about `budget` rows' worth of them (_W_PAWN each). Returns the pawns passed so far
    (where the next piece starts), or -1 - that once the seat is done."""
    own = pos.own_for_card(seat)
    team = pos.team_colours(seat)
    cells = pos.cells
    r = card.rank
    if first:
        pass
    elif r == "J":  # T12: any two pawns that may be swapped, or one of them own
        mine = pos.flags["swap"] == "own-with-any"
        n = ours = 0
        for q in range(TRACK):
            v = cells[q]
            if v and q != v * 18 - 1:  # a track pawn not on its own 18
                n += 1
                if v - 1 in own:
                    ours += 1
        if s >= 0:
            v = cells[s] if s < TRACK else 0
            if not v or s == v * 18 - 1:
                return -1
            mine = mine and v - 1 not in own  # an opponent's: only with an own pawn
        for q in range(TRACK):
            v = cells[q]
            if v and q != v * 18 - 1 and q != s:
                if s >= 0:
                    if not mine or v - 1 in own:
                        out[q] = 1
                elif n > 1 and (not mine or ours or v - 1 in own):
                    out[q] = 1
        return -1
    if first:
        pass
    elif r == "A" or r == "K" or r == JOKER:  # (a tuple of them would be built)
        for c in own:
            q = start_square(c)
            if (s < 0 or s == CELLS + c) and pos.camp(c) and not _own_side(cells[q], team):
                out[q if s >= 0 else CELLS + c] = 1
        if r == JOKER or (r == "K" and pos.flags["king"] == "exit-only"):
            return -1
    p = sv.levels[0]  # scratch: no search is under way
    p.flags = pos.flags
    n = 0  # pawns passed
    end = first + (budget + _W_PAWN - 1) // _W_PAWN
    for c in own:
        q = cells.find(_PAWN[c])
        while q >= 0:
            n += 1
            if n <= first:
                q = cells.find(_PAWN[c], q + 1)
                continue
            if n > end:
                return n - 1
            p.cells[:] = cells
            p.waiting = pos.waiting
            if r == "4":
                code = p._backward(c, q, team) if q < TRACK else 1
            else:
                code = p._forward(c, q, STEPS[r], team)
            if not code:
                if s < 0 or s == q:
                    out[p.last_to if s >= 0 else q] = 1
                w = pos.waiting & ~p.waiting
                for o in own:  # a waiting pawn that slipped into CH1 (T14)
                    e = entry_square(o)
                    if w >> o & 1 and q != e and not p.cells[e] and (s < 0 or s == e):
                        out[home_square(o, 1) if s >= 0 else e] = 1
            q = cells.find(_PAWN[c], q + 1)
    return -1 - n


# --- a 7's ends, and its moves ---------------------------------------------------------


def ends(sv, pos, seat, s):
    """Mark in `hit` (bit i on a square: pawn_s[i] can end there) the ends of the
    seat's pawns in every legal 7 (T11), of every pawn or of the one on s (_NONE: every
    pawn); _ST[_HP]: a bit per pawn with an end. By _dp, else by the search (a split is
    played only while it can still show an end not yet marked, and only until one order
    of it plays out unless the order can change where a pawn ends: a part ending on its
    C16, T14). The ends of every pawn that _dp found stay for the next question on the
    same position and seat (a pawn lifted after the card's hint): a search or another
    _dp forgets them (_KEPT: the search's run they belong to). Allocates nothing.
    All at once; Reach does it in pieces (_ends_begin, _dp_piece, _ends_end)."""
    if _ends_begin(sv, pos, seat):
        while _ST[_PH] < _DONE:
            _dp_piece(sv, 1 << 20)
        _ends_end(sv, pos, seat, s)


def _ends_begin(sv, pos, seat):
    """ends()' start: False when the seat's ends are known already (kept), else True with
    _dp begun."""
    kept = _KEPT
    same = (
        kept[4] == sv.runs
        and kept[0] is pos.flags
        and kept[2] == pos.waiting
        and kept[3] == pos.players
        and _KEY == pos.cells
    )
    _ST[_SAME] = 1 if same else 0
    if same:
        if kept[1] == seat:
            return False
        if kept[6] == sv.runs and kept[5] == seat:  # the other seat's, kept apart
            _swap(sv)
            return False
        _swap(sv)  # this seat's kept apart while the other's are worked out
    _dp_begin(sv, pos, seat)
    return True


def _ends_end(sv, pos, seat, s):
    """ends()' end, once _dp is done: its ends kept; no answer from it: the search's."""
    if _ST[_PH] == _DONE:
        kept = _KEPT
        if _ST[_SAME]:
            kept[6] = sv.runs  # (the ones kept apart stay)
        _KEY[:] = pos.cells
        kept[0] = pos.flags
        kept[1] = seat
        kept[2] = pos.waiting
        kept[3] = pos.players
        kept[4] = sv.runs
        return
    sv.target = s
    sv.search(pos, seat, None, None, None, True)
    sv.target = _NONE
    if not sv.npawns:
        sv.hit[:] = sv.zero  # no pawn to move: nothing searched, nothing marked
    hp = 0
    for q in range(CELLS):
        hp |= sv.hit[q]
    _ST[_HP] = hp


def _swap(sv):
    """The ends in `hit` (with the seat, its pawns and those that end) and those kept
    apart change places."""
    kept = _KEPT
    _TMP[:] = sv.hit
    sv.hit[:] = _HIT2
    _HIT2[:] = _TMP
    _TMP8[:] = sv.pawn_c
    sv.pawn_c[:] = _PC2
    _PC2[:] = _TMP8
    _TMP8[:] = sv.pawn_s
    sv.pawn_s[:] = _PS2
    _PS2[:] = _TMP8
    kept[1], kept[5] = kept[5], kept[1]
    sv.npawns, kept[7] = kept[7], sv.npawns
    _ST[_HP], kept[8] = kept[8], _ST[_HP]
    kept[6] = kept[4]


def _dp(sv, pos, seat):
    """ends() without listing splits: the own pawns taken one at a time, front pawns
    first (as _greedy plays them: T9, no pawn passes one of its side), as nodes (a
    pawn on the track; one in its home; a waiting pawn after its home's pawns: on the
    track, or into CH1 if they freed it, T14), each with 0..7 steps. What a node still
    to come needs of those already taken is small: the nearest of them ahead on the
    track (it may not pass it: a cell of the level), and near a home that home's
    squares and its waiting pawn (T14-T16: a row); the steps used so far are a bit
    mask in each cell (parts counted: _up, _down). A forward pass fills, level by level, the
    cells reached and their masks; a backward pass, what each can still make 7 with; a
    pawn's step is legal in some split where both meet (_node). Returns False (the
    search then answers) for the flags it has no room for (seven_max_pawns 3 to 6) or
    more rows than its buffers hold; allocates nothing (its rows are the search's
    buffers). All at once: Reach does it in pieces (_dp_begin, then _dp_piece until
    _ST[_PH] is _DONE or _FAIL)."""
    _dp_begin(sv, pos, seat)
    while _ST[_PH] < _DONE:
        _dp_piece(sv, 1 << 20)
    return _ST[_PH] == _DONE


def _dp_begin(sv, pos, seat):
    """_dp's start (its pieces: _dp_piece)."""
    sv.runs += 1  # (what `hit` held is forgotten)
    st = _ST
    st[_HP] = 0
    m = pos.flags["seven_max_pawns"]
    if 2 < m < 7:
        st[_PH] = _FAIL
        return
    sv.pos = pos
    sv.own = pos.own_for_card(seat)
    sv.team = pos.team_colours(seat)
    sv.exact16 = pos.flags["home_entry"] == "exact16"
    st[_PH] = _NODES


def _dp_piece(sv, budget):
    """The next piece of _dp: a phase of its set-up, or up to `budget` rows of a level
    (at least one); returns what it weighed, in rows."""
    st = _ST
    ph = st[_PH]
    if ph == _NODES:
        st[_PH] = _ORDER if _nodes(sv) else _DONE  # (no pawn that can move: no play)
        return _W_NODES
    if ph == _ORDER:
        _order(sv)
        st[_PH] = _NEEDS
    elif ph == _NEEDS:
        _needs(sv)
        st[_PH] = _FWD
        st[_J] = 0
        st[_R] = _NONE
    elif ph == _FWD:
        return _forward(sv, budget)
    elif ph == _BACK:
        return _backward(sv, budget)
    return _W_SETUP


def _nodes(sv):
    """_dp's nodes (see _dp); False when none can move."""
    pos = sv.pos
    own = sv.own
    team = sv.team
    cells = pos.cells
    block = sv.taken  # partner pawns (1: not to pass) and occupied 18s (2: not to land)
    block[:] = sv.zero
    for c in team:
        if c not in own:
            q = cells.find(_PAWN[c], 0, TRACK)
            while q >= 0:
                block[q] = 1
                q = cells.find(_PAWN[c], q + 1, TRACK)
    for q in range(17, TRACK, 18):
        if cells[q] and cells[q] - 1 not in team:
            block[q] = 2
    nd = sv.opt_k  # the nodes: kind, pawn, square, active home, ... (see below)
    n = nn = 0
    for c in own:
        e = c * 18 + 15
        q = cells.find(_PAWN[c])
        while q >= 0:
            sv.pawn_c[n] = c
            sv.pawn_s[n] = q
            kind = _N_TRACK  # the node, its square, and its order among those on one
            x = q  # square (sub): in home deeper first (a pawn with none but pawns
            sub = 2  # ahead never moves, T16: no node), then the waiting pawn, then
            if q >= TRACK:  # a pawn on the track
                kind = _N_HOME
                x = e
                sub = 8 + q - TRACK - 4 * c
                h = q + 1
                while h < TRACK + 4 * c + 4 and cells[h]:
                    h += 1
                if h == TRACK + 4 * c + 4:
                    kind = _NONE
            elif q == e and pos.waiting >> c & 1:
                kind = _N_W
                sub = 4
            if kind != _NONE:
                nd[nn] = kind
                nd[16 + nn] = n
                nd[32 + nn] = x
                nd[64 + nn] = sub
                nn += 1
            n += 1
            q = cells.find(_PAWN[c], q + 1)
    sv.npawns = n
    sv.hit[:] = sv.zero
    sv.nn = nn
    return nn > 0


def _order(sv):
    """_dp's nodes front first (see _dp)."""
    nd = sv.opt_k
    nn = sv.nn
    own = sv.own
    # front first: the nodes in square order (then sub), cut behind the pawn with the
    # widest gap behind it (at least 9 squares: 8 pawns at most on 72), so that no path
    # reaches a pawn taken later
    perm = _KO
    for j in range(nn):  # insertion sort of the nodes by (square, sub)
        key = nd[32 + j] << 4 | nd[64 + j]
        h = j
        while h and nd[32 + perm[h - 1]] << 4 | nd[64 + perm[h - 1]] > key:
            perm[h] = perm[h - 1]
            h -= 1
        perm[h] = j
    wide = -1
    start = 0
    b = nd[32 + perm[nn - 1]]
    for h in range(nn):
        x = nd[32 + perm[h]]
        d = (x - b) % TRACK
        if d > wide:
            wide = d
            start = h
        b = x
    for h in range(nn):  # front first: down from the one before the cut
        j = perm[(start - 1 - h) % nn]
        nd[80 + h] = nd[j]
        nd[96 + h] = nd[16 + j]
        nd[112 + h] = nd[32 + j]
    for j in range(nn):
        nd[j] = nd[80 + j]
        nd[16 + j] = nd[96 + j]
        x = nd[32 + j] = nd[112 + j]
        a = _NONE  # the home whose state it needs (48 + j): the one it is near
        for c in own:
            if (c * 18 + 15 - x) % TRACK <= 7:
                a = c
        nd[48 + j] = a
    nd[48 + nn] = _NONE


def _needs(sv):
    """What _dp's nodes need of the state, the steps each may take; its first row."""
    nd = sv.opt_k
    nn = sv.nn
    exact16 = sv.exact16
    block = sv.taken
    st = _ST
    m = sv.pos.flags["seven_max_pawns"]
    # what the nodes from j on need of the state: the pawn ahead only within reach of
    # the next pawn on the track (80 + j: its square, the level's cells counted from
    # it), of the home (144 + j) its squares and its waiting pawn as they read them; a
    # pawn on the track near a home (opt_end[64 + j]) how far its C16 is (a pawn ahead
    # short of it: no one after can reach that home)
    x = _NONE
    need = 0
    nd[128 + nn] = 0  # all played: no home
    nd[80 + nn] = _NONE
    nd[144 + nn] = 0
    sv.opt_end[64 + nn] = 0
    for j in range(nn - 1, -1, -1):
        kind = nd[j]
        a = nd[48 + j]
        if a != nd[49 + j]:
            need = 0
        short = 0
        if kind == _N_HOME:
            need = 15
        else:
            x = nd[32 + j]
            if kind == _N_W:
                need = 15
            else:
                if sv.pawn_c[nd[16 + j]] == a:  # its own home
                    need |= 1 if exact16 else 15
                if a != _NONE and (a * 18 + 15 - x) % TRACK <= 7:
                    short = (a * 18 + 15 - x) % TRACK
        nd[80 + j] = x
        nd[144 + j] = need
        sv.opt_end[64 + j] = short
    for j in range(nn):  # how much further ahead the next level's cells are (112 + j)
        x = nd[80 + j]
        x2 = nd[81 + j]
        nd[112 + j] = 8 if x == _NONE or x2 == _NONE else (x - x2) % TRACK
    for j in range(1, nn):  # the home a level starts from when its node needs
        nd[128 + j] = _NONE  # another than the node before: as it stands at first
        if nd[48 + j] != nd[47 + j]:
            nd[128 + j] = _home(sv, nd[48 + j]) & nd[144 + j]
    for j in range(nn):  # a pawn on the track: the steps its path allows (64 + j)
        nd[96 + j] = 8  # and how far its active home's C16 is, within 7 (96 + j)
        if nd[j] != _N_HOME:
            x = nd[32 + j]
            lim = 8  # a partner's pawn ahead may not be passed (T6, T9)
            q = block.find(_PAWN[0], x + 1, x + 8)
            if q >= 0:
                lim = q - x
            elif x + 8 > TRACK:
                q = block.find(_PAWN[0], 0, x + 8 - TRACK)
                if q >= 0:
                    lim = q + TRACK - x
            a = (1 << lim) - 1
            q = 17 - x % 18  # nor an occupied 18 landed on (T9)
            if not q:
                q = 18
            if q < lim and block[x + q if x + q < TRACK else x + q - TRACK] == 2:
                a &= ~(1 << q)
            nd[64 + j] = a
            if nd[48 + j] != _NONE and (nd[48 + j] * 18 + 15 - x) % TRACK <= 7:
                nd[96 + j] = (nd[48 + j] * 18 + 15 - x) % TRACK
    st[_PM] = m if m < 7 else 0  # parts counted (seven_max_pawns 1 or 2): _up, _down
    for buf in sv.bufs:
        buf[:] = sv.zero
    st[_NROWS] = st[_FIRST2] = st[_LAST2] = st[_FULL] = 0
    first = sv.opt_end
    first[96] = 0
    r = _row(sv, _home(sv, nd[48]) & nd[144], True)
    sv.bufs[r // 11][r % 11 * 8] = 1  # no pawn ahead, no step yet
    sv.opt_free[80 + r] = 1


def _forward(sv, budget):
    """_dp forward, a piece: up to `budget` rows of level j (st[_J]), from st[_R]; the
    cells each level can be in, with the steps that get there."""
    st = _ST
    first = sv.opt_end
    nn = sv.nn
    j = st[_J]
    if st[_R] == _NONE:  # the level's first piece
        first[97 + j] = st[_FIRST2] = st[_NROWS]
        if j == nn - 1:  # all played: its one cell (no pawn ahead, no home) finishes
            r = _row(sv, 0, True)  # with 7 steps, whatever they were made of
            if r == _NONE:
                st[_PH] = _FAIL
                return 1
            sv.opt_free[80 + r] = 1
            sv.bufs[r // 11][r % 11 * 8] = 128
            first[97 + nn] = st[_NROWS]
            st[_PH] = _BACK
            return 1
        st[_R] = first[96 + j]
    ra = st[_R]
    end = first[97 + j]
    rb = end if end - ra <= budget else ra + budget
    _node7(sv, j, False, ra, rb)
    if st[_FULL]:
        st[_PH] = _FAIL
    elif rb == end:
        st[_J] = j + 1
        st[_R] = _NONE
    else:
        st[_R] = rb
    return rb - ra or 1


def _backward(sv, budget):
    """_dp backward, a piece: up to `budget` rows of level j (from nn - 1 down): what each
    cell can still make 7 with; where a step of a cell reached leads to one that can
    finish, that step's end is marked for its pawn (at the level's last piece)."""
    st = _ST
    first = sv.opt_end
    nd = sv.opt_k
    j = st[_J]
    if st[_R] == _NONE:  # the level's first piece
        st[_FIRST2] = first[97 + j]
        st[_LAST2] = first[98 + j]
        rmap = sv.memo
        for r in range(first[97 + j], first[98 + j]):
            rmap[sv.opt_free[r]] = r + 1
        _HK[0] = 0
        st[_R] = first[96 + j]
    ra = st[_R]
    end = first[97 + j]
    rb = end if end - ra <= budget else ra + budget
    _HK[0] |= _node7(sv, j, True, ra, rb)
    if rb < end:
        st[_R] = rb
        return rb - ra
    st[_R] = _NONE
    if j:
        st[_J] = j - 1
    else:
        st[_PH] = _DONE
    hk = _HK[0]
    if hk >> 1:
        hit = sv.hit
        i = nd[16 + j]
        bit = 1 << i
        st[_HP] |= bit
        h = TRACK + 4 * sv.pawn_c[i]  # bits 8-11: its home's squares
        for k in range(4):
            if hk >> (8 + k) & 1:
                hit[h + k] |= bit
        x = nd[32 + j]  # bits 1-7: x + k on the track
        hk &= 254
        while hk & 255:
            lo = hk & -hk
            hk ^= lo
            k = x + _BIT[lo % 11]
            hit[k if k < TRACK else k - TRACK] |= bit
    return rb - ra or 1


def _row(sv, e, make):
    """The row of home state e in the level being filled (forward) or read (backward),
    or _NONE; made when `make` (its cells are clear: _dp clears them all first).
    sv.memo[e] holds the row last made or read for e; opt_free[r] is row r's state,
    opt_free[80 + r] a bit per cell it holds (_node7)."""
    rmap = sv.memo
    st = _ST
    r = rmap[e] - 1
    if st[_FIRST2] <= r < st[_LAST2] and sv.opt_free[r] == e:
        return r
    if not make:
        return _NONE
    r = st[_LAST2]
    if r >= 80:  # (opt_free: the rows' states, then their cells)
        st[_FULL] = 1
        return _NONE
    st[_LAST2] = st[_NROWS] = r + 1
    rmap[e] = r + 1
    sv.opt_free[r] = e
    sv.opt_free[80 + r] = 0
    return r


def _node7(sv, j, back, ra, rb):
    """Node j's steps from every cell of level j's rows ra to rb - 1 (the rows of a level
    are done a few at a time: Reach). Forward: each cell's mask shifted by each step it
    may take, OR'ed into the cell that step leads to (level j + 1, rows made as met).
    Backward: level j + 1 holding what each of its cells can still make 7 with, the
    steps that lead from a cell reached to one that can finish (returned: bit k for
    x + k on the track, bit 8 + m for square m of its home) and each cell's own back
    mask written over its forward one (a row not there reads as sv.zero).

    A row is a home state; its 8 cells the pawn ahead: none (0) or o squares ahead of
    the level's next pawn on the track; a cell a byte, bit t: t steps used (when parts
    count, seven_max_pawns 1 or 2: bit 0 none yet, bit t one part of t, bit 7 all 7
    played; _up and _down step them). A pawn on the track steps k onto x + k
    whatever the pawn ahead was: all the cells of a row where that pawn is further than
    k lead to one cell, so a row's cells are OR'ed once (cum[k]) and each step is one
    shift and one OR. The special steps keep the pawn ahead (passed on to the next
    level's cells, gap further): a pawn into its home (T14, T15), the home's pawns
    (T16), the waiting pawn staying or slipping into CH1; they are played cell by
    cell."""
    nd = sv.opt_k
    bufs = sv.bufs
    rowext = sv.opt_free
    rmap = sv.memo
    ko = _KO
    kbuf = _KBUF
    khit = _KHIT
    cum = _CUM
    st = _ST
    first2 = st[_FIRST2]
    pm = st[_PM]  # seven_max_pawns when parts count (1, 2), else 0
    kind = nd[j]
    i = nd[16 + j]
    c = sv.pawn_c[i]
    gap = nd[112 + j]
    short = sv.opt_end[65 + j]
    cl = _CELLS  # cl[g8 + k]: the cell step k lands in; cl[g8 + o], cell o's pawn
    g8 = 8 * gap if gap < 8 else 64  # ahead passed on
    bits = _BIT
    zlo = 8  # the steps onto x + k that land short of the next one's home: state 0
    zhi = short - gap
    if short:
        zlo = 1 - gap if gap < 1 else 0
    need = nd[145 + j]
    ext2 = nd[129 + j]
    track = kind != _N_HOME
    path = nd[64 + j]
    dist = nd[96 + j]
    alt = n = 8
    if kind == _N_TRACK and nd[48 + j] == c:
        if not sv.exact16:
            n = dist  # steps past its C16 go into its home (T15)
        elif dist:
            alt = dist  # onto its C16: into CH1 when free (T14)
    h = sv.pawn_s[i] - TRACK - 4 * c
    r0 = _NONE  # the row of state 0, once looked up
    hk = 0
    for r in range(ra, rb):
        cm = rowext[80 + r]  # the cells it holds
        if not cm:
            continue
        ext = rowext[r]
        buf = bufs[r // 11]
        p0 = r % 11 * 8
        # the special steps s0..s1 - 1 (each to state ko[16 + k], hit khit[k]), from
        # the cells whose pawn ahead is further than thr
        s0 = s1 = thr = 0
        if track:
            allowed = path
            norm = ext
            if kind == _N_W:  # CH1 taken: it waits on (the pawn ahead of those
                if not ext & 1:  # behind), or steps on the track; CH1 freed by its
                    allowed &= 254  # home's pawns: it slips in, and on, or it took
                    ko[16] = ext | 1  # its step on the track before that
                    khit[0] = 256
                    s1 = 1
                    while s1 < 4 and not ext >> s1 & 1:
                        ko[16 + s1] = ext | 1 << s1
                        khit[s1] = 256 << s1
                        s1 += 1
            else:
                if alt < 8:
                    if not ext & 1 and allowed >> alt & 1:
                        s0 = thr = alt
                        s1 = alt + 1
                        ko[16 + alt] = ext | 1
                        khit[alt] = 256  # into CH1
                        allowed &= ~(1 << alt)
                elif n < 8:
                    if not n or allowed >> n & 1:
                        s0 = s1 = n + 1
                        thr = n
                        while s1 < 8 and s1 - n < 5 and not ext >> (s1 - n - 1) & 1:
                            ko[16 + s1] = ext | 1 << (s1 - n - 1)
                            khit[s1] = 128 << (s1 - n)
                            s1 += 1
                    allowed &= (2 << n) - 1
            norm = norm & need if ext2 == _NONE else ext2
        else:  # in home: it stays, or steps up to the next pawn (T16)
            allowed = 0
            ko[16] = ext
            khit[0] = 0
            s1 = 1
            while h + s1 < 4 and not ext >> (h + s1) & 1:
                ko[16 + s1] = ext & ~(1 << h) | 1 << (h + s1)
                khit[s1] = 256 << (h + s1)
                s1 += 1
        if track:
            # cum[k]: the cells whose pawn ahead is further than k (none: 8)
            run = buf[p0]
            if cm == 1:
                cum[0] = cum[1] = cum[2] = cum[3] = cum[4] = cum[5] = cum[6] = cum[7] = run
            else:
                for k in range(7, 0, -1):
                    cum[k] = run
                    if cm >> k & 1:
                        run |= buf[p0 + k]
                cum[0] = run
            top = 7 - bits[(run & -run) % 11]  # no step past what the fewest leave
            pre = 0
            # the steps onto x + k lead to the row of state norm, but for those that
            # land short of the next one's home (zlo..zhi): state 0 (row r0); a piece
            # of steps at a time
            rn = rmap[norm] - 1
            if not (first2 <= rn < st[_LAST2] and rowext[rn] == norm):
                rn = _row(sv, norm, not back)
                if rn == _NONE and not back:
                    return 0  # out of rows: _dp answers False
            lo = 0
            while lo <= top:
                rk = rn
                if zlo <= lo <= zhi:
                    hi = zhi
                    if r0 == _NONE:
                        r0 = _row(sv, 0, not back)
                        if r0 == _NONE and not back:
                            return 0
                    rk = r0
                else:
                    hi = zlo - 1 if zlo > lo else 7
                if hi > top:
                    hi = top
                if rk == _NONE:  # (backward: a row nothing reached)
                    for k in range(lo, hi + 1):
                        cum[k] = pre
                    lo = hi + 1
                    continue
                t = bufs[rk // 11]
                o = rk % 11 * 8
                if pm:  # parts counted: each step as _up and _down have it, inlined
                    for k in range(lo, hi + 1):
                        if allowed >> k & 1:
                            g = cum[k]
                            if k:
                                if pm == 2:
                                    g = (g & 1) << k | (g >> (7 - k) & 1) << 7
                                else:
                                    g = (g & 1) << 7 if k == 7 else 0
                            if g:
                                u = o + cl[g8 + k]
                                if back:
                                    a = t[u]
                                    if g & a:
                                        hk |= 1 << k
                                    if k:
                                        if pm == 2:
                                            a = (a >> k & 1) | (a >> 7 & 1) << (7 - k)
                                        else:
                                            a = a >> 7 & 1
                                    pre |= a
                                else:
                                    t[u] |= g
                                    rowext[80 + rk] |= 1 << cl[g8 + k]
                        cum[k] = pre
                elif gap > 7:  # every step to its cell 0
                    if back:
                        v = t[o]
                        for k in range(lo, hi + 1):
                            if allowed >> k & 1:
                                g = cum[k] & (255 >> k)
                                if g:
                                    a = v >> k
                                    if g & a:
                                        hk |= 1 << k
                                    pre |= a
                            cum[k] = pre
                    else:
                        v = 0
                        for k in range(lo, hi + 1):
                            if allowed >> k & 1:
                                v |= (cum[k] & (255 >> k)) << k
                        if v:
                            t[o] |= v
                            rowext[80 + rk] |= 1
                elif back:
                    for k in range(lo, hi + 1):
                        if allowed >> k & 1:
                            g = cum[k] & (255 >> k)
                            if g:
                                a = t[o + cl[g8 + k]] >> k
                                if g & a:
                                    hk |= 1 << k
                                pre |= a
                        cum[k] = pre
                else:
                    cma = 0
                    for k in range(lo, hi + 1):
                        if allowed >> k & 1:
                            g = cum[k] & (255 >> k)
                            if g:
                                u = cl[g8 + k]
                                t[o + u] |= g << k
                                cma |= 1 << u
                    rowext[80 + rk] |= cma
                lo = hi + 1
            if s0 == s1:
                if back:  # each cell's back mask: the steps it may take (k < d)
                    while cm:
                        lo = cm & -cm
                        cm ^= lo
                        o = bits[lo % 11]
                        buf[p0 + o] = cum[o - 1 if o and o <= top else top]
                continue
        for k in range(s0, s1):  # each special step's row
            e = ko[16 + k]
            e = e & need if ext2 == _NONE else ext2
            r2 = rmap[e] - 1
            if not (first2 <= r2 < st[_LAST2] and rowext[r2] == e):
                if back:
                    kbuf[k] = sv.zero  # no row: nothing reached it
                    ko[32 + k] = 0
                    ko[16 + k] = _NONE
                    continue
                r2 = _row(sv, e, True)
                if r2 == _NONE:
                    return 0
            ko[16 + k] = r2
            kbuf[k] = bufs[r2 // 11]
            ko[32 + k] = r2 % 11 * 8
        # cell by cell: the special steps, and backward each cell's back mask (forward:
        # the cells they reach marked once a row; a cell marked that got no bit is one
        # that nothing reached). The first special step's row held apart (t0, u0).
        t0 = kbuf[s0]
        u0 = ko[32 + s0]
        cma = 0
        while cm:
            lo = cm & -cm
            cm ^= lo
            o = bits[lo % 11]
            f = buf[p0 + o]
            b = 0
            if track:
                if back:
                    b = cum[o - 1 if o and o <= top else top]
                if o and o <= thr:
                    if back:
                        buf[p0 + o] = b
                    continue
            o2 = cl[g8 + o] if o else 0
            if o2 and o2 <= short:  # short of the next one's home: state 0
                if r0 == _NONE:
                    r0 = _row(sv, 0, not back)
                    if r0 == _NONE and not back:
                        return 0
                if r0 != _NONE:
                    tb = bufs[r0 // 11]
                    t = r0 % 11 * 8 + o2
                    for k in range(s0, s1):
                        g = _up(f, k, pm) if pm and k else (f & 255 >> k) << k
                        if back:
                            a = tb[t]
                            if g & a:
                                b |= _down(a, k, pm) if pm and k else a >> k
                                hk |= khit[k]
                        elif g:
                            tb[t] |= g
                            rowext[80 + r0] |= 1 << o2
            elif pm:  # parts counted
                for k in range(s0, s1):
                    g = _up(f, k, pm) if k else f
                    u = ko[32 + k] + o2
                    if back:
                        a = kbuf[k][u]
                        if g & a:
                            b |= _down(a, k, pm) if k else a
                            hk |= khit[k]
                    elif g:
                        kbuf[k][u] |= g
                        cma |= 1 << o2
            elif back:
                a = t0[u0 + o2] >> s0
                if f & a:
                    b |= a
                    hk |= khit[s0]
                for k in range(s0 + 1, s1):
                    a = kbuf[k][ko[32 + k] + o2] >> k
                    if f & a:
                        b |= a
                        hk |= khit[k]
            else:
                t0[u0 + o2] |= (f & 255 >> s0) << s0
                for k in range(s0 + 1, s1):
                    kbuf[k][ko[32 + k] + o2] |= (f & 255 >> k) << k
                cma |= 1 << o2
            if back:
                buf[p0 + o] = b
        if cma:
            for k in range(s0, s1):
                rowext[80 + ko[16 + k]] |= cma
    return hk


def _up(v, k, m):
    """A cell's mask after a part of k steps (1-7) when at most m parts (1, 2) count:
    none yet (bit 0) -> one part of k (bit k; with m 1 only k = 7 can be all), one part
    of t -> all 7 played (bit 7) when t + k is 7 (m 2); all played takes no more."""
    g = 1 << k if v & 1 and (m == 2 or k == 7) else 0
    if m == 2 and k < 7 and v >> (7 - k) & 1:
        g |= 128
    return g


def _down(a, k, m):
    """The masks a cell had before a part of k steps (1-7) that leads to mask a (_up's
    other way)."""
    d = 1 if a >> k & 1 and (m == 2 or k == 7) else 0
    if m == 2 and k < 7 and a & 128:
        d |= 1 << (7 - k)
    return d


def _steps(sv, j, ext, o):
    """The steps node j may take from cell o of the row of state ext in level j, as
    _node7 plays them: (steps, state after, cell after, how: 0 a part from its square,
    1 slipped into CH1 first, then from there). The host's (plays): a list."""
    nd = sv.opt_k
    kind = nd[j]
    i = nd[16 + j]
    c = sv.pawn_c[i]
    gap = nd[112 + j]
    short = sv.opt_end[65 + j]
    need = nd[145 + j]
    ext2 = nd[129 + j]
    out = []

    def add(k, e, o2, how):
        e = e & need if ext2 == _NONE else ext2
        if o2 and o2 <= short:
            e = 0
        out.append((k, e, o2, how))

    ahead = o + gap if o and o + gap <= 7 else 0  # the pawn ahead, passed on
    if kind == _N_HOME:
        h = sv.pawn_s[i] - TRACK - 4 * c
        add(0, ext, ahead, 0)
        k = 1
        while h + k < 4 and not ext >> (h + k) & 1:
            add(k, ext & ~(1 << h) | 1 << (h + k), ahead, 0)
            k += 1
        return out
    d = o if o else 8
    allowed = nd[64 + j] & ((1 << d) - 1)
    dist = nd[96 + j]
    if kind == _N_W and not ext & 1:  # CH1 freed: it slips in (and on), or it
        add(0, ext | 1, ahead, 1)  # took its step on the track before
        k = 1
        while k < 4 and not ext >> k & 1:
            add(k, ext | 1 << k, ahead, 1)
            k += 1
        allowed &= 254
    own = kind == _N_TRACK and nd[48 + j] == c
    if own and not sv.exact16:  # past its C16 into its home (T15)
        if not dist or allowed >> dist & 1:
            k = dist + 1
            while k < 8 and k - dist < 5 and not ext >> (k - dist - 1) & 1:
                add(k, ext | 1 << (k - dist - 1), ahead, 0)
                k += 1
        allowed &= (2 << dist) - 1
    for k in range(8):
        if allowed >> k & 1:
            if own and sv.exact16 and k == dist and k and not ext & 1:
                add(k, ext | 1, ahead, 0)  # onto its C16, into CH1 (T14)
            else:
                add(k, ext, gap + k if gap + k <= 7 else 0, 0)
    return out


def plays(sv, pos, seat, card, found):
    """A Move of each result of the 7 (the host's enumeration, Position.legal_moves),
    appended to found; False when _dp has no answer. After _dp each cell holds what it
    can still make 7 with: each path from the first level through the steps _node7
    plays, to cells that can still finish with the steps used, is one legal way to play
    it (none is a dead end), played front first but for a waiting pawn's part on the
    track, played before its home's pawns free its CH1. Its helpers are local: a board
    that never lists moves holds no object for them."""
    if not _dp(sv, pos, seat):
        return False
    nd = sv.opt_k
    nn = sv.nn
    if not nn:
        return True  # no pawn that can move: no play
    first = sv.opt_end
    rows = []  # per level: state -> row
    for j in range(nn + 1):
        rows.append({sv.opt_free[r]: r for r in range(first[96 + j], first[97 + j])})

    def back(j, e, o):  # what the cell can still make 7 with
        r = rows[j].get(e)
        return 0 if r is None else sv.bufs[r // 11][r % 11 * 8 + o]

    chosen = [(0, 0)] * nn  # per node: (steps, how)
    seen = {}  # type: dict[bytes, tuple]  # result -> (its split's rank, its index)
    team = sv.team
    npawns = sv.npawns

    def play():  # a path's parts played on a copy
        p = pos.copy()
        parts = []
        rank = bytearray(npawns)  # the split as the check's search orders splits:
        order = []  # pawn by pawn, staying, then slipping into CH1 and on (a free
        for j in range(nn):  # part), then steps ascending
            if not j or nd[32 + j] != nd[31 + j]:  # a square's first node: a waiting
                for h in range(j, nn):  # pawn's part on the track goes first
                    if nd[32 + h] != nd[32 + j]:
                        break
                    if nd[h] == _N_W and chosen[h][0] and not chosen[h][1]:
                        order.append(h)
            if not (nd[j] == _N_W and chosen[j][0] and not chosen[j][1]):
                order.append(j)
        for j in order:
            k, how = chosen[j]
            i = nd[16 + j]
            c = sv.pawn_c[i]
            if how:
                rank[i] = 1 + k  # it slipped in (its colour waits no more): free
            elif k:
                rank[i] = 10 + k
            if k:
                s = TRACK + 4 * c if how else sv.pawn_s[i]
                code = p._forward(c, s, k, team)
                assert not code, "a path of _dp that does not play"
                parts.append((c, s, p.last_to))
        key = bytes(p.cells) + bytes((p.waiting,))
        old = seen.get(key)
        if old is None:
            seen[key] = (bytes(rank), len(found))
            found.append(pos._made(card, seat, "seven", parts, p))
        elif bytes(rank) < old[0]:  # one result, another split: the one check finds
            seen[key] = (bytes(rank), old[1])
            found[old[1]] = pos._made(card, seat, "seven", parts, p)

    pm = _ST[_PM]

    def go(j, e, o, u):  # at level j, in row e, cell o, with mask bit u (_node7)
        if j == nn:
            play()
            return
        for k, e2, o2, how in _steps(sv, j, e, o):
            u2 = u
            if k and pm:  # parts counted: _up
                g = _up(1 << u, k, pm)
                if not g:
                    continue
                u2 = 7 if g & 128 else k
            elif k:
                u2 = u + k
                if u2 > 7:
                    continue
            if back(j + 1, e2, o2) >> u2 & 1:
                chosen[j] = (k, how)
                go(j + 1, e2, o2, u2)

    for e in rows[0]:
        go(0, e, 0, 0)
    return True


def _home(sv, c):
    """The state of colour c's home at the start: its squares (bits 0-3; its waiting
    pawn is a node of its own, the pawn ahead once it stays); 0 for no colour."""
    if c == _NONE:
        return 0
    cells = sv.pos.cells
    h = TRACK + 4 * c
    return (cells[h] and 1) | (cells[h + 1] and 2) | (cells[h + 2] and 4) | (cells[h + 3] and 8)
