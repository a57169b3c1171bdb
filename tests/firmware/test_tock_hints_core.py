# The board's hints (issue 29: Position.reach) against the rest of the rules core, on
# seeded generated positions, under the real `micropython` (the 64-bit port and the chip's
# 32-bit frozen build at its heap) as well as CPython: random ones of every ruleset and
# player count, crowded ones (the side to play with its pawns close together, opponents
# among them, homes and waiting pawns in the way, T14-T16), house rules drawn over them
# (seven_max_pawns 1, 2, 3, 7; home_entry; swap; king), every card. For each pawn and camp,
# the squares reach() lights are the squares it ends on in the card's legal moves:
#   - a 7 (T11): reach() reads the dynamic programme of games/tock/hints.py (_dp); the
#     rules' own 7 search (the one Position.check plays, which shares none of _dp's code)
#     marks each pawn's ends as well; the two must agree pawn by pawn, and where few pawns
#     move the results of Position.legal_moves (read off _dp) must be the search's list;
#   - every other card: the parts of the plays Position.legal_moves is made of (T8 exits
#     from the camp, T10 a 4 backwards, T12 a Jack's swaps), and a waiting pawn slipping
#     into CH1 (T14).
# The comparison with an independent generator written from the spec is
# tests/host/test_tock_reach.py and tests/host/test_tock_hints_gen.py (CPython).
from games.tock import rules
from games.tock.rules import (
    CELLS,
    REACH,
    TRACK,
    Card,
    Position,
    PositionError,
    entry_square,
    home_square,
)

OUT = bytearray(REACH)
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "X")


class Rng:
    """A seeded generator of its own (a 32-bit LCG): the same cases on every port."""

    def __init__(self, seed):
        self.x = seed & 0xFFFFFFFF

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n

    def chance(self, percent):
        return self.below(100) < percent

    def pick(self, seq):
        return seq[self.below(len(seq))]


def _count(pos, c):
    return pos.cells.count(bytes((c + 1,)))


def _scattered(rng):
    pos = Position(rng.pick((2, 2, 3, 4)), rng.pick(("classic", "king-exit", "toc-fr")))
    for c in pos.colours():
        near = rng.below(TRACK) if rng.chance(40) else -1  # pawns in a row (T9)
        for _ in range(1 + rng.below(4)):
            if near >= 0:
                s = (near + rng.below(7)) % TRACK
            elif rng.chance(15):
                s = home_square(c, 1 + rng.below(4))
            elif rng.chance(20):
                s = entry_square(c) - rng.below(7)  # near its entry: T14, T15
            else:
                s = rng.below(TRACK)
            if not pos.cells[s]:
                pos.cells[s] = c + 1
    return pos


def _crowded(rng):
    pos = Position(rng.pick((2, 2, 4)), rng.pick(("classic", "king-exit", "toc-fr")))
    base = entry_square(rng.pick(pos.colours())) - rng.below(13)
    for c in pos.colours():
        for _ in range(4 if c in (0, 2) else rng.below(4)):
            if _count(pos, c) >= 4:
                break
            if rng.chance(12):
                s = home_square(c, 1 + rng.below(4))
            else:
                s = (base + rng.below(23)) % TRACK
            if not pos.cells[s]:
                pos.cells[s] = c + 1
    return pos


def _waiting(pos, rng):
    """A pawn on its C16 with its CH1 taken waits (T14, exact16 only), now and then one
    moved there."""
    if pos.flags["home_entry"] != "exact16":
        return
    for c in pos.colours():
        if rng.chance(50):
            continue
        e, h1 = entry_square(c), home_square(c, 1)
        for q in (e, h1):
            if not pos.cells[q] and _count(pos, c) < 4:
                pos.cells[q] = c + 1
        if pos.cells[e] == c + 1 and pos.cells[h1]:
            pos.waiting |= 1 << c


def positions(seed, n):
    """n positions that are legal and not won, read back through the notation (T4)."""
    rng = Rng(seed)
    made = 0
    while made < n:
        pos = _crowded(rng) if rng.chance(50) else _scattered(rng)
        _waiting(pos, rng)
        pos.turn = rng.pick(pos.colours())
        if pos.flags["jokers"] and rng.chance(15):
            pos.turn = rules.ANY  # after a joker: any seat (T18)
        d = pos.to_dict()
        if rng.chance(40):  # house rules
            flags = {"seven_max_pawns": rng.pick((1, 2, 2, 3, 7))}
            if rng.chance(25):
                flags["home_entry"] = rng.pick(("exact16", "count"))
            if rng.chance(20):
                flags["swap"] = rng.pick(("any-two", "own-with-any"))
            if rng.chance(20):
                flags["king"] = rng.pick(("exit-or-13", "exit-only"))
            d["flags"] = flags
        try:
            pos = Position.from_dict(d)
        except PositionError:
            continue
        if pos.winner() is None:
            made += 1
            yield pos


def lit(pos, card):
    """{pawn's square (CELLS + c: a camp): set of squares it may end on} from reach()."""
    got = {}
    n = pos.reach(card, OUT)
    pawns = [s for s in range(REACH) if OUT[s]]
    assert n == len(pawns)
    for s in range(REACH):
        if s < CELLS and not pos.cells[s] or s >= CELLS and s - CELLS not in pos.colours():
            continue
        pos.reach(card, OUT, s)
        ends = set(q for q in range(CELLS) if OUT[q])
        if ends:
            got[s] = ends
    assert sorted(got) == pawns, (str(card), pos.dumps(), pawns, sorted(got))
    return got


def from_moves(pos, card):
    """The same, from the parts of the plays Position.legal_moves makes its moves of (any
    card but a 7), before it merges those with one result (a Jack swapping two pawns of
    one colour changes nothing, T12: every such pair is one move)."""
    want = {}
    for seat in pos._seats_to_try():
        for _kind, parts, after in pos._moves(seat, card):
            for c, f, t in parts:
                want.setdefault(CELLS + c if f is None else f, set()).add(t)
            movers = [f for _, f, _ in parts]
            for o in range(4):  # a waiting pawn that slipped into CH1 as it freed (T14)
                e = entry_square(o)
                if pos.waiting >> o & 1 and not after.waiting >> o & 1:
                    if e not in movers and not after.cells[e]:
                        want.setdefault(e, set()).add(home_square(o, 1))
    return want


def seven_by_search(pos, card):
    """A 7's ends pawn by pawn as the rules' own search marks them (Position.check's:
    no code of _dp), for every seat that may play."""
    sv = rules._SEVEN
    want = {}
    for seat in pos._seats_to_try():
        sv.target = 255  # every pawn
        sv.search(pos, seat, None, None, None, True)
        for i in range(sv.npawns):
            s = sv.pawn_s[i]
            bit = 1 << i
            for q in range(CELLS):
                if sv.hit[q] & bit:
                    want.setdefault(s, set()).add(q)
    return want


def results_by_search(pos, card):
    found = []
    for seat in pos._seats_to_try():
        rules._SEVEN.search(pos, seat, None, found, card)
    return set(m.after.key() for m in found)


def test_T8_T18_hints_are_the_ends_of_the_legal_moves_on_generated_positions():
    sevens = seven_pawns = lists = others = waiting = 0
    for pos in positions(29, 28):
        waiting += pos.waiting != 0
        for rank in RANKS:
            if rank == "X" and not pos.flags["jokers"]:
                continue
            card = Card(rank if rank == "X" else rank + "S")
            got = lit(pos, card)
            if rank != "7":
                want = from_moves(pos, card)
                others += len(want)
            else:
                want = seven_by_search(pos, card)
                sevens += 1
                seven_pawns += len(want)
                own = 0
                for seat in pos._seats_to_try():
                    for c in pos.own_for_card(seat):
                        own += _count(pos, c)
                if own <= 3:  # the host lists every split; the chip's heap, only a few
                    keys = set(m.after.key() for m in pos.legal_moves(card))
                    assert keys == results_by_search(pos, card), pos.dumps()
                    lists += 1
            assert got == want, (str(card), pos.dumps(), got, want)
    # the generator reaches what it is for: 7s with pawns to move, lists, other cards'
    # ends, waiting pawns
    assert seven_pawns > 40 and lists > 8 and others > 200 and waiting > 3, (
        seven_pawns,
        lists,
        others,
        waiting,
    )


def test_T11_a_pawn_lifted_after_the_cards_hint_reads_the_ends_kept_on_generated_games():
    """The 7's ends kept for a pawn lifted after the card's hint (games/tock/hints.py,
    _KEPT) are those worked out afresh, along generated positions with other positions'
    hints in between; right after the card's hint, a lifted pawn is a look-up (no 7
    worked out: the search's run count unchanged), after a joker (T18) too when two seats
    may play (the other seat's ends kept apart)."""
    card = Card("7H")
    sv = rules._SEVEN
    prev = None
    looked = anyseat = 0
    for pos in positions(7, 40):
        for s in range(CELLS):
            if not pos.cells[s]:
                continue
            pos.reach(card, OUT)  # the card's hint
            runs = sv.runs
            pos.reach(card, OUT, s)
            kept = bytes(OUT)
            if pos.flags["seven_max_pawns"] in (1, 2, 7) and len(pos._seats_to_try()) <= 2:
                assert sv.runs == runs, (pos.dumps(), s)  # a look-up
                looked += 1
                anyseat += pos.turn == rules.ANY
            sv.runs += 1  # forgotten: worked out again
            pos.reach(card, OUT, s)
            assert bytes(OUT) == kept, (pos.dumps(), s)
            if prev is not None and s % 3 == 0:
                prev.reach(card, OUT)  # another position's hint in between
                pos.reach(card, OUT, s)
                assert bytes(OUT) == kept, (pos.dumps(), s)
        prev = pos
    assert looked > 100 and anyseat > 5, (looked, anyseat)


def test_T11_T18_hints_worked_out_a_piece_a_pass_are_the_hints_at_once():
    """The board works a hint out a few rows a pass (games/tock/hints.py, Reach: the
    table's 5 ms period kept): pieces of random small budgets, with now and then a search
    of the rules core between two pieces (a move checked: the search's buffers reused,
    the job starts again), give what reach() gives at once, for every card, the pawns
    that can move and each pawn and camp lifted, after a joker too (T18)."""
    from games.tock import hints

    job = hints.Reach()
    sv = rules._SEVEN
    rng = Rng(17)
    want = bytearray(REACH)
    out = bytearray(REACH)
    jobs = pieces = again = sevens = seven_pieces = 0
    for pos in positions(41, 16):
        lifts = [-1] + [s for s in range(CELLS) if pos.cells[s]]
        lifts += [CELLS + c for c in pos.colours() if pos.camp(c)]
        for rank in RANKS:
            if rank == "X" and not pos.flags["jokers"]:
                continue
            card = Card(rank if rank == "X" else rank + "S")
            for s in lifts:
                n = pos.reach(card, want, s)
                sv.runs += 1  # (the 7's ends kept by reach() forgotten: worked out)
                job.start(sv, pos, card, out, s)
                jobs += 1
                sevens += rank == "7"
                while not job.step(1 + rng.below(4)):
                    pieces += 1
                    seven_pieces += rank == "7"
                    if rng.chance(4):  # a move checked between two passes' pieces
                        sv.target = 255  # (every pawn: what the check leaves it at)
                        sv.search(pos, pos._seats_to_try()[0], None, None, None, True)
                        again += 1
                assert out == want and job.count == n, (str(card), pos.dumps(), s)
                assert job.about(pos, card, s)
    # (a 7 takes several pieces, the search between two of them runs often)
    assert sevens > 100 and seven_pieces > 2 * sevens and again > 50, (
        jobs,
        sevens,
        pieces,
        seven_pieces,
        again,
    )


def test_T11_a_piece_that_runs_out_of_heap_anywhere_is_worked_out_again():
    """The heap runs out in a piece, at a seeded call of any of the job's functions, before
    it or once it is done (the rows of a 7 half made, a pawn half marked): the table drops
    that piece and asks again (outputs.py), the job takes up where it was (each of its
    steps can be done again), and what it works out is what reach() gives at once."""
    from games.tock import hints

    names = ("_reach_one", "_ends_begin", "_dp_piece", "_ends_end", "_mark", "_nodes")
    names += ("_order", "_needs", "_forward", "_backward", "_node7", "_row")
    kept = [getattr(hints, n) for n in names]
    calls = [0, 0, 0]  # calls so far, the one that raises, whether it raises once done

    def failing(f):
        def w(*a):
            calls[0] += 1
            if calls[0] != calls[1]:
                return f(*a)
            if calls[2]:  # (what it changed kept, its caller's count of it lost)
                f(*a)
            raise MemoryError("memory allocation failed (injected)")

        return w

    job = hints.Reach()
    sv = rules._SEVEN
    rng = Rng(29)
    want = bytearray(REACH)
    out = bytearray(REACH)
    raised = 0
    try:
        for i, n in enumerate(names):
            setattr(hints, n, failing(kept[i]))
        for pos in positions(43, 12):
            lifts = [-1] + [s for s in range(CELLS) if pos.cells[s]][:3]
            for rank in ("7", "7", "4", "J", "X"):
                if rank == "X" and not pos.flags["jokers"]:
                    continue
                card = Card(rank if rank == "X" else rank + "SHDC"[rng.below(4)])
                s = lifts[rng.below(len(lifts))]
                calls[1] = 0  # (none raises while reach() works it out at once)
                n = pos.reach(card, want, s)
                sv.runs += 1
                job.start(sv, pos, card, out, s)
                calls[0] = 0
                calls[1] = 1 + rng.below(12)
                calls[2] = rng.below(2)
                while True:
                    try:
                        if job.step(1 + rng.below(4)):
                            break
                    except MemoryError:
                        raised += 1
                assert out == want and job.count == n, (str(card), pos.dumps(), s, calls)
    finally:
        for i, n in enumerate(names):
            setattr(hints, n, kept[i])
    assert raised > 15, raised
