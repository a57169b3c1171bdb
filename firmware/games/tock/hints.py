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
# squares and its waiting pawn (T14-T16). The steps and parts used are a bit mask of the
# state (bit t + 8 p). A forward pass keeps, level by level, the states reached and their
# masks; a backward pass which of them can still make 7; where a reached state's step meets
# one that can finish, that step's end is marked for its pawn (sv.hit, a bit per pawn).
from micropython import const

from games.cards import JOKER
from games.tock.rules import (
    _PAWN,
    CELLS,
    REACH,
    STEPS,
    TRACK,
    _own_side,
    entry_square,
    home_square,
    start_square,
)

_NONE = const(255)  # no square, no pawn
_N_TRACK = const(0)  # the nodes of _dp: a pawn on the track,
_N_HOME = const(1)  # a pawn in its home,
_N_WT = const(2)  # a waiting pawn's part on the track (before its CH1 frees),
_N_WF = const(3)  # the same pawn once it may have slipped into CH1
_FAIL = const(254)  # _walk: the step may not be played


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
    the mover's. All seats after a joker (T18). Returns how many cells are set."""
    pos._check_card(card)
    out[:CELLS] = sv.zero
    for c in range(4):
        out[CELLS + c] = 0
    for seat in pos._seats_to_try():
        if card.rank == "7":
            seven = sv
            ends(seven, pos, seat, _NONE if s < 0 else s)
            hit = seven.hit
            if s < 0:  # the pawns that end anywhere
                bits = 0
                for q in range(CELLS):
                    bits |= hit[q]
                for i in range(seven.npawns):
                    if bits >> i & 1:
                        out[seven.pawn_s[i]] = 1
            for i in range(seven.npawns if s >= 0 else 0):
                if seven.pawn_s[i] == s:
                    bit = 1 << i
                    for q in range(CELLS):
                        if hit[q] & bit:
                            out[q] = 1
        else:
            _reach_one(sv, pos, seat, card, out, s)
    n = 0
    for q in range(REACH):
        if out[q]:
            n += 1
    return n


def _reach_one(sv, pos, seat, card, out, s):
    """reach() of any card but a 7 for one seat, each step played on a scratch
    position."""
    own = pos.own_for_card(seat)
    team = pos.team_colours(seat)
    cells = pos.cells
    r = card.rank
    if r == "J":  # T12: any two pawns that may be swapped, or one of them own
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
                return
            mine = mine and v - 1 not in own  # an opponent's: only with an own pawn
        for q in range(TRACK):
            v = cells[q]
            if v and q != v * 18 - 1 and q != s:
                if s >= 0:
                    if not mine or v - 1 in own:
                        out[q] = 1
                elif n > 1 and (not mine or ours or v - 1 in own):
                    out[q] = 1
        return
    if r == "A" or r == "K" or r == JOKER:  # (a tuple of them would be built)
        for c in own:
            q = start_square(c)
            if (s < 0 or s == CELLS + c) and pos.camp(c) and not _own_side(cells[q], team):
                out[q if s >= 0 else CELLS + c] = 1
        if r == JOKER or (r == "K" and pos.flags["king"] == "exit-only"):
            return
    p = sv.levels[0]  # scratch: no search is under way
    p.flags = pos.flags
    for c in own:
        q = cells.find(_PAWN[c])
        while q >= 0:
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


# --- a 7's ends, and its moves ---------------------------------------------------------


def ends(sv, pos, seat, s):
    """Mark in `hit` (bit i on a square: pawn_s[i] can end there) the ends of the
    seat's pawns in every legal 7 (T11), of every pawn or of the one on s (_NONE: every
    pawn). A split is played only while it can still show an end not yet marked, and
    only until one order of it plays out unless the order can change where a pawn
    ends (a part ending on its C16, T14). Allocates nothing."""
    if _dp(sv, pos, seat):
        return
    sv.target = s
    sv.search(pos, seat, None, None, None, True)
    sv.target = _NONE
    if not sv.npawns:
        sv.hit[:] = sv.zero  # no pawn to move: nothing searched, nothing marked


def _dp(sv, pos, seat):
    """ends() without listing splits: the own pawns taken one at a time, front pawns
    first (as _greedy plays them: T9, no pawn passes one of its side), each with 0..7
    steps. What a pawn still to come needs of those already taken is small: the
    nearest of them ahead on the track (it may not pass it), and near a home the
    home's squares and its waiting pawn (T14-T16); the steps and parts used so far are
    a bit mask (bit t + 8 p). A forward pass keeps, level by level, those states and
    their masks; a backward pass, which of them can still make 7; a pawn's step is
    legal in some split when both meet. Returns False (the search then answers) for
    the flags it has no room for (seven_max_pawns 3 to 6) or a level of more states
    than its buffers hold; allocates nothing (its levels are the search's buffers)."""
    m = pos.flags["seven_max_pawns"]
    if 2 < m < 7:
        return False
    own = pos.own_for_card(seat)
    sv.pos = pos
    sv.own = own
    sv.team = team = pos.team_colours(seat)
    sv.exact16 = pos.flags["home_entry"] == "exact16"
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
    nd = sv.opt_k  # the nodes: kind, pawn, position, active colour, sort key
    n = 0
    nn = 0
    for c in own:
        q = cells.find(_PAWN[c])
        while q >= 0:
            sv.pawn_c[n] = c
            sv.pawn_s[n] = q
            e = c * 18 + 15  # the node's square, and its order there (sub): in home,
            kind = _N_TRACK  # deeper first, after the waiting pawn's track part and
            x = q  # before the rest of it (a second node)
            sub = 2
            if q >= TRACK:
                kind = _N_HOME
                x = e
                sub = 8 + q - TRACK - 4 * c
            elif q == e and pos.waiting >> c & 1:
                kind = _N_WT
                x = e
                sub = 15
            while True:
                nd[nn] = kind
                nd[16 + nn] = n
                nd[32 + nn] = x
                nd[64 + nn] = sub
                nn += 1
                if kind != _N_WT:
                    break
                kind = _N_WF
                sub = 4
            n += 1
            q = cells.find(_PAWN[c], q + 1)
    sv.npawns = n
    sv.hit[:] = sv.zero
    if not n:
        sv.nn = 0
        sv.opt_free[0] = 0  # no state: no play
        return True
    # front first: positions measured from the pawn behind the widest gap (at least 9
    # squares: 8 pawns at most on 72), so that no path reaches a pawn taken later
    back = 0
    wide = -1
    for j in range(nn):
        gap = TRACK
        for h in range(nn):
            d = (nd[32 + j] - nd[32 + h]) % TRACK
            if d and d < gap:
                gap = d
        if gap > wide:
            wide = gap
            back = nd[32 + j]
    for j in range(nn):
        key = (nd[32 + j] - back) % TRACK * 16 + nd[64 + j]
        nd[80 + j] = key >> 8
        nd[96 + j] = key & 255
    for j in range(nn):  # selection sort, the front first
        b = j
        for h in range(j + 1, nn):
            if nd[80 + h] << 8 | nd[96 + h] > nd[80 + b] << 8 | nd[96 + b]:
                b = h
        for f in range(0, 112, 16):
            nd[f + j], nd[f + b] = nd[f + b], nd[f + j]
    for j in range(nn):  # the home whose state it needs: the one it is near
        nd[48 + j] = _NONE
        x = nd[32 + j]
        for c in own:
            if (c * 18 + 15 - x) % TRACK <= 7:
                nd[48 + j] = c
    nd[48 + nn] = _NONE
    # what the nodes from j on need of the state (_dp's normalization): the pawn
    # ahead only within reach of the next pawn on the track (80 + j: its square),
    # of the home (144 + j) its squares and its waiting pawn as they read them
    x = _NONE
    need = 0
    for j in range(nn, -1, -1):
        if j < nn:
            if nd[j] == _N_TRACK or nd[j] == _N_WT:
                x = nd[32 + j]
            if nd[48 + j] != nd[49 + j]:
                need = 0
            if nd[j] == _N_HOME or nd[j] == _N_WF:
                need = 63
            elif nd[j] == _N_TRACK:
                need |= 48  # its waiting pawn in the way
                if sv.pawn_c[nd[16 + j]] == nd[48 + j]:  # its own home
                    need |= 1 if sv.exact16 else 15
        nd[80 + j] = x
        nd[144 + j] = need
    for j in range(nn + 1):  # a level a waiting pawn's last node reads: where it did not
        sv.opt_end[32 + j] = 255  # slip in, its home as the nodes after it need it
        sv.opt_end[64 + j] = 0  # a level a pawn on the track reads: how far its
        if j < nn and nd[j] == _N_WF:  # home's C16 is (a pawn ahead short of it: no
            sv.opt_end[32 + j] = nd[145 + j]  # one after can reach that home)
        elif j < nn and nd[j] == _N_TRACK and nd[48 + j] != _NONE:
            sv.opt_end[64 + j] = (nd[48 + j] * 18 + 15 - nd[32 + j]) % TRACK
    for j in range(1, nn + 1):  # the home a level starts from when its node needs
        nd[128 + j] = _NONE  # another than the node before: as it stands at first
        if j == nn:
            nd[128 + j] = 0
        elif nd[48 + j] != nd[47 + j]:
            nd[128 + j] = _home(sv, nd[48 + j]) & nd[144 + j]
    for j in range(nn):  # a pawn on the track: the steps its path allows (64 + j),
        nd[112 + j] = 0  # those of one far from any home (112 + j: none near)
        nd[96 + j] = 8  # and how far its active home's C16 is, within 7
        if nd[j] == _N_TRACK or nd[j] == _N_WT:
            x = nd[32 + j]
            a = 1
            for k in range(1, 8):
                q = (x + k) % TRACK
                if block[q] == 1:
                    break
                if not block[q]:
                    a |= 1 << k
            nd[64 + j] = a
            if nd[48 + j] == _NONE:
                nd[112 + j] = a if nd[j] == _N_TRACK else 0
            else:
                nd[96 + j] = (nd[48 + j] * 18 + 15 - x) % TRACK
    pt = m < 7  # parts counted (bit t + 8 p), else steps alone (bit t)
    sv.es = es = 5 if pt else 3  # a state: nearest pawn ahead, home, mask
    rep = 0x10101 if m == 2 else 0x101 if m == 1 else 1
    sv.nn = nn
    count = sv.opt_free
    count[0] = 0
    sv.per = 88 // es  # states a buffer holds: the levels follow one another in them
    sv.opt_end[0] = sv.opt_end[1] = 0
    sv.fill_c = sv.fill_o = 0
    _put(sv, 0, _NONE, _home(sv, nd[48]) & nd[144], 1)
    # forward: the states each level can be in, with the (steps, parts) that get there;
    # backward: which of them can still make 7 (memo, two levels at a time); where
    # a step of a state that is reached leads to one that can finish, that step's end
    memo = sv.memo
    hit = sv.hit
    for back in (False, True):
        if back:
            if count[nn] > 85:
                return False
            o = (nn & 1) * 256
            for e in range(count[nn]):  # all played: 7 steps, any parts
                memo[o] = 128
                memo[o + 1] = 128 if pt else 0
                memo[o + 2] = 128 if m == 2 else 0
                o += 3
        per = sv.per
        lim = per * es
        for jj in range(nn):
            j = nn - 1 - jj if back else jj
            if not back:
                count[j + 1] = 0
                at = (sv.opt_end[2 * j] << 8 | sv.opt_end[2 * j + 1]) + count[j]
                sv.opt_end[2 * j + 2] = at >> 8  # the next level's first state
                sv.opt_end[2 * j + 3] = at & 255
                if count[j] > 85:
                    return False  # more back masks than memo holds
            at = sv.opt_end[2 * j] << 8 | sv.opt_end[2 * j + 1]
            c = at // per
            o = (at - c * per) * es - es
            buf = sv.bufs[c]
            at = sv.opt_end[2 * j + 2] << 8 | sv.opt_end[2 * j + 3]
            c2 = at // per
            o2 = (at - c2 * per) * es
            nxt0 = sv.bufs[c2]
            sv.fill_c = c2  # where _put finds the level it fills
            sv.fill_o = o2
            kind = nd[j]
            plain = nd[112 + j]
            x = nd[32 + j]
            x2 = nd[81 + j]  # what the nodes after need of the state
            ext2 = nd[129 + j]
            need = nd[145 + j]
            wf = sv.opt_end[33 + j]
            short = sv.opt_end[65 + j]
            top0 = 3 if kind == _N_HOME or kind == _N_WF else 7
            bit = 1 << nd[16 + j]
            # the step near a home done here rather than by _walk: a waiting pawn's
            # track part, or a pawn on the track under exact16 (its C16 `home` away)
            own_home = sv.pawn_c[nd[16 + j]] == nd[48 + j]
            fast = kind == _N_WT or kind == _N_TRACK and (sv.exact16 or not own_home)
            home = nd[96 + j] if kind == _N_TRACK and own_home and sv.exact16 else 8
            mine = (j & 1) * 256
            theirs = 256 - mine
            if plain:  # far from a home: each step k leads all states to one state
                e2 = 0 if ext2 == _NONE else ext2  # (no home: 0)
                acc = sv.acc
                for k in range(8):
                    acc[k] = 0
                    if back and plain >> k & 1:  # that state's back mask
                        obs2 = x + k if x + k < TRACK else x + k - TRACK
                        if x2 == _NONE or (obs2 - x2) % TRACK > 7:
                            obs2 = _NONE
                        e3 = 0 if obs2 != _NONE and (obs2 - x2) % TRACK <= short else e2
                        p = o2
                        nb = c2
                        nxt = nxt0
                        q = theirs
                        for _ in range(count[j + 1]):
                            if p == lim:
                                nb += 1
                                nxt = sv.bufs[nb]
                                p = 0
                            if nxt[p] == obs2 and nxt[p + 1] == e3:
                                acc[k] = memo[q] | memo[q + 1] << 8 | memo[q + 2] << 16
                                break
                            p += es
                            q += 3
                for e in range(count[j]):
                    o += es
                    if o == lim:
                        c += 1
                        buf = sv.bufs[c]
                        o = 0
                    obs = buf[o]
                    f = buf[o + 2] | buf[o + 3] << 8 | buf[o + 4] << 16 if pt else buf[o + 2]
                    d = (obs - x) % TRACK if obs != _NONE else 8
                    allowed = plain & ((1 << d) - 1)  # T9: short of the pawn ahead
                    b = 0
                    for k in range(8):
                        if not allowed >> k & 1:
                            continue
                        if not k:
                            g = f
                        elif pt:
                            g = (f & (255 >> k) * rep) << (k + 8) & 255 * rep
                        else:
                            g = f << k & 255
                        if not back:
                            acc[k] |= g
                            continue
                        a = acc[k]
                        if g & a:
                            if not k:
                                b |= a
                                continue
                            hit[x + k if x + k < TRACK else x + k - TRACK] |= bit
                            if pt:
                                b |= a >> (k + 8) & (255 >> k) * rep
                            else:
                                b |= a >> k
                    if back:
                        memo[mine + 3 * e] = b & 255
                        memo[mine + 3 * e + 1] = b >> 8 & 255
                        memo[mine + 3 * e + 2] = b >> 16
                if not back:
                    for k in range(8):
                        if acc[k]:
                            obs2 = x + k if x + k < TRACK else x + k - TRACK
                            if x2 == _NONE or (obs2 - x2) % TRACK > 7:
                                obs2 = _NONE
                            e3 = 0 if obs2 != _NONE and (obs2 - x2) % TRACK <= short else e2
                            if not _put(sv, j + 1, obs2, e3, acc[k]):
                                return False
                continue
            for e in range(count[j]):
                o += es
                if o == lim:
                    c += 1
                    buf = sv.bufs[c]
                    o = 0
                obs = buf[o]
                ext = buf[o + 1]
                f = buf[o + 2] | buf[o + 3] << 8 | buf[o + 4] << 16 if pt else buf[o + 2]
                b = 0
                top = top0
                if kind == _N_WF and ext >> 4 != 2:
                    top = 0  # it did not slip in: it stays
                elif kind == _N_HOME:  # no further than the next pawn in home (T16)
                    h = sv.pawn_s[nd[16 + j]] - TRACK - 4 * sv.pawn_c[nd[16 + j]]
                    top = 0
                    while h + top < 3 and not ext >> (h + top + 1) & 1:
                        top += 1
                if fast:  # on the track near a home, exact16: the walk done here
                    d = (obs - x) % TRACK if obs != _NONE else 8
                    allowed = nd[64 + j] & ((1 << d) - 1)  # short of the pawn ahead
                    if kind == _N_TRACK and ext >> 4 == 1:  # its waiting pawn in the way
                        allowed &= (1 << nd[96 + j]) - 1
                for k in range(top + 1):
                    if fast and not allowed >> k & 1:
                        continue
                    if not k:
                        g = f
                    elif pt:
                        g = (f & (255 >> k) * rep) << (k + 8) & 255 * rep
                    else:
                        g = f << k & 255
                    if not g:
                        continue
                    if not fast:
                        end = _walk(sv, j, obs, ext, k)
                        if end == _FAIL:
                            continue
                        obs2 = sv.w_obs
                        e2 = sv.w_ext
                    elif not k:  # it stays: in the way of those behind (the
                        end = _NONE  # waiting pawn: as its home's state says)
                        obs2 = x if kind == _N_TRACK else obs
                        e2 = ext
                    elif k == home and not ext & 1:  # on its C16, into CH1 (T14)
                        end = TRACK + 4 * nd[48 + j]
                        obs2 = obs
                        e2 = ext | 1
                    else:  # on the track (on its C16 with CH1 taken: it waits)
                        end = obs2 = x + k if x + k < TRACK else x + k - TRACK
                        e2 = ext if kind == _N_TRACK else ext & 15
                    # the state as the next level keeps it: a pawn ahead out of the
                    # next node's reach is none, a home it does not need the one it
                    # needs (as it stands at the start); all played, the mask alone
                    if obs2 != _NONE and (x2 == _NONE or (obs2 - x2) % TRACK > 7):
                        obs2 = _NONE
                    e2 = e2 & need if ext2 == _NONE else ext2
                    if e2 >> 4 != 2:
                        e2 &= wf
                    if obs2 != _NONE and (obs2 - x2) % TRACK <= short:
                        e2 = 0
                    if not back:
                        if not _put(sv, j + 1, obs2, e2, g):
                            return False
                        continue
                    q = theirs
                    p = o2
                    nb = c2
                    nxt = nxt0
                    for _ in range(count[j + 1]):  # (a range of constant step: no object)
                        if p == lim:
                            nb += 1
                            nxt = sv.bufs[nb]
                            p = 0
                        if nxt[p] == obs2 and nxt[p + 1] == e2:
                            after = memo[q] | memo[q + 1] << 8 | memo[q + 2] << 16
                            if g & after:
                                if end != _NONE:
                                    hit[end] |= bit
                                if not k:
                                    b |= after
                                elif pt:
                                    b |= after >> (k + 8) & (255 >> k) * rep
                                else:
                                    b |= after >> k
                            break
                        p += es
                        q += 3
                if back:
                    memo[mine + 3 * e] = b & 255
                    memo[mine + 3 * e + 1] = b >> 8 & 255
                    memo[mine + 3 * e + 2] = b >> 16
    return True


def plays(sv, pos, seat, card, found):
    """A Move of each result of the 7 (the host's enumeration, Position.legal_moves),
    appended to found; False when _dp has no answer. _dp's levels hold every legal
    way to play it, front pawns first: each path back from 7 steps (through states the
    forward pass reached, so none is a dead end) is one, played in that order. The
    links between levels are kept compact (bytes, grouped by the state they lead to):
    under MicroPython this runs in the heap the old search's enumeration took. Its
    helpers are local: a board that never lists moves holds no object for them."""
    if not _dp(sv, pos, seat):
        return False
    nd = sv.opt_k
    nn = sv.nn
    es = sv.es
    per = sv.per
    first = sv.opt_end

    def state(level, e):  # (obs, ext, mask) of a level's e-th state
        at = (first[2 * level] << 8 | first[2 * level + 1]) + e
        c = at // per
        o = (at - c * per) * es
        buf = sv.bufs[c]
        f = buf[o + 2] | buf[o + 3] << 8 | buf[o + 4] << 16 if es == 5 else buf[o + 2]
        return buf[o], buf[o + 1], f

    masks = []  # per level, each state's mask (small ints: nothing allocated each)
    into = []  # per level: (state before, steps) of the links, grouped by state to
    starts = []  # and where each state's links start in it
    for j in range(nn + 1):
        masks.append([state(j, e)[2] for e in range(sv.opt_free[j])])
    for j in range(nn):
        x2 = nd[81 + j]
        top = 3 if nd[j] == _N_HOME or nd[j] == _N_WF else 7
        to = {}
        for e in range(sv.opt_free[j + 1]):
            to[state(j + 1, e)[:2]] = e
        links = bytearray()
        for e0 in range(sv.opt_free[j]):
            obs, ext, _ = state(j, e0)
            for k in range(top + 1):
                if _walk(sv, j, obs, ext, k) == _FAIL:
                    continue
                obs2 = sv.w_obs
                if obs2 != _NONE and (x2 == _NONE or (obs2 - x2) % TRACK > 7):
                    obs2 = _NONE
                e2 = sv.w_ext & nd[145 + j] if nd[129 + j] == _NONE else nd[129 + j]
                if e2 >> 4 != 2:
                    e2 &= sv.opt_end[33 + j]
                if obs2 != _NONE and (obs2 - x2) % TRACK <= sv.opt_end[65 + j]:
                    e2 = 0
                to_e = to.get((obs2, e2))
                if to_e is not None:
                    links.append(to_e)
                    links.append(e0)
                    links.append(k)
        n = sv.opt_free[j + 1]
        at = [0] * (n + 1)
        for t in range(0, len(links), 3):
            at[links[t] + 1] += 1
        for e in range(n):
            at[e + 1] += at[e]
        grouped = bytearray(2 * at[n])
        fill = list(at)
        for t in range(0, len(links), 3):
            e = links[t]
            grouped[2 * fill[e]] = links[t + 1]
            grouped[2 * fill[e] + 1] = links[t + 2]
            fill[e] += 1
        into.append(grouped)
        starts.append(at)
    ks = bytearray(16)
    seen = {}  # type: dict[bytes, tuple]  # result -> (its split's rank, its index)
    team = sv.team
    pt = es == 5
    npawns = sv.npawns

    def play():  # a path's steps played on a copy, front first (the waiting pawn's
        p = pos.copy()  # part on the track before its CH1 frees, its free part once
        parts = []  # it slipped in)
        rank = bytearray(npawns)  # the split as the check's search orders splits:
        for j in range(nn):  # pawn by pawn, staying, then slipping into CH1 and
            k = ks[j]  # on (a free part), then steps ascending
            i = nd[16 + j]
            c = sv.pawn_c[i]
            if nd[j] == _N_WF and (k or not p.waiting >> c & 1 and not rank[i]):
                rank[i] = 1 + k  # it slipped in (its colour waits no more): free
            elif k:
                rank[i] = 10 + k
            if k:
                s = TRACK + 4 * c if nd[j] == _N_WF else sv.pawn_s[i]
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

    def back(level, e, b):  # the paths that end in state e having used (steps, parts) b
        if not level:
            play()
            return
        grouped = into[level - 1]
        at = starts[level - 1]
        before = masks[level - 1]
        for t in range(at[e], at[e + 1]):
            e0 = grouped[2 * t]
            k = grouped[2 * t + 1]
            b0 = b - k - (8 if k and pt else 0)
            if b0 >= 0 and b0 % 8 <= b % 8 and before[e0] >> b0 & 1:
                ks[level - 1] = k
                back(level - 1, e0, b0)

    for e in range(sv.opt_free[nn]):
        f = masks[nn][e]
        for b in range(7, 64, 8):
            if f >> b & 1:
                back(nn, e, b)
    return True


def _home(sv, c):
    """The state of colour c's home at the start: its squares (bits 0-3), its waiting
    pawn (bits 4-5: 1 on C16, 2 slipped into CH1); 0 for no colour."""
    if c == _NONE:
        return 0
    cells = sv.pos.cells
    h = TRACK + 4 * c
    w = (cells[h] and 1) | (cells[h + 1] and 2) | (cells[h + 2] and 4) | (cells[h + 3] and 8)
    return w | (16 if sv.pos.waiting >> c & 1 else 0)


def _put(sv, level, obs, ext, f):
    """Adds a state to the level being filled (the last), its mask or'ed in when it is
    there already; False when the buffers are full."""
    es = sv.es
    lim = sv.per * es
    n = sv.opt_free[level]
    c = sv.fill_c
    if c == 16:
        return False
    o = sv.fill_o
    buf = sv.bufs[c]
    for _ in range(n):
        if o == lim:
            c += 1
            buf = sv.bufs[c]
            o = 0
        if buf[o] == obs and buf[o + 1] == ext:
            buf[o + 2] |= f & 255
            if es == 5:
                buf[o + 3] |= f >> 8 & 255
                buf[o + 4] |= f >> 16
            return True
        o += es
    if o == lim:
        c += 1
        if c == 16:
            return False
        buf = sv.bufs[c]
        o = 0
    buf[o] = obs
    buf[o + 1] = ext
    buf[o + 2] = f & 255
    if es == 5:
        buf[o + 3] = f >> 8 & 255
        buf[o + 4] = f >> 16
    sv.opt_free[level] = n + 1
    return True


def _walk(sv, j, obs, ext, k):
    """Node j's pawn plays k steps, the own pawns taken before it standing where the
    state (obs, ext) says: where it ends (_NONE: it does not move; _FAIL: it may not),
    and the state after in w_obs, w_ext."""
    nd = sv.opt_k
    kind = nd[j]
    i = nd[16 + j]
    c = sv.pawn_c[i]
    sv.w_obs = obs
    sv.w_ext = ext
    if kind == _N_HOME:  # T16: forward in home, never past CH4 nor a pawn
        if not k:
            return _NONE
        h = sv.pawn_s[i] - TRACK - 4 * c
        if h + k > 3 or ext >> (h + 1) & ((1 << k) - 1):
            return _FAIL
        ext = ext & ~(1 << h) | 1 << (h + k)
        if not h and ext >> 4 == 1:  # the waiting pawn slips into CH1 (T14)
            ext = ext & 15 | 33
        sv.w_ext = ext
        return TRACK + 4 * c + h + k
    if kind == _N_WF:  # the waiting pawn, slipped into CH1: on in home, or stays
        if ext >> 4 != 2:
            return _NONE if not k else _FAIL
        if k:
            if ext >> 1 & ((1 << k) - 1):
                return _FAIL
            ext = ext & 14 | 1 << k
        sv.w_ext = ext & 15
        return TRACK + 4 * c + k
    x = sv.pawn_s[i]
    if not k:
        if kind == _N_TRACK:
            sv.w_obs = x
        return _NONE
    a = nd[48 + j]
    w = a * 18 + 15 if a != _NONE and ext >> 4 == 1 and kind == _N_TRACK else _NONE
    entry = c * 18 + 15
    block = sv.taken
    count = not sv.exact16
    p = x
    for n in range(k):
        if count and p == entry:  # T15: the steps left go into home
            r = k - n
            if r > 4 or ext & ((1 << r) - 1):
                return _FAIL
            sv.w_ext = ext | 1 << (r - 1)
            return TRACK + 4 * c + r - 1
        p += 1
        if p == TRACK:
            p = 0
        if p == obs or p == w or block[p] == 1:
            return _FAIL  # T9: a pawn of its side in the way
    if block[p]:
        return _FAIL  # an occupied square 18 (T9)
    if p == entry and not count:  # T14: into CH1, or it waits
        if not ext & 1:
            sv.w_ext = ext | 1
            return TRACK + 4 * c
    sv.w_obs = p
    if kind == _N_WT:
        sv.w_ext = ext & 15
    return p
