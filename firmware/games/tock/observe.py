# From what the sensors can see to positions the rules can check.
#
# A Hall sensor sees a magnet, not its colour. Colours come from the position before the
# card and from what hands touched: a square's pawn can only have changed colour if the
# square was lifted or placed on since the card was laid. So for every occupied square:
#   - untouched and occupied before: the same pawn as before;
#   - newly occupied: a pawn of a colour the player may move (the only pawns a move brings);
#   - touched and occupied before and after: the same pawn put back, or a capture (a pawn
#     the player moves landed there); after a Jack, any colour among the touched pawns.
# The few colourings this leaves are the candidates; the rules check decides among them.
from games.tock.rules import CELLS, TRACK, Illegal, colour_of_home

MAX_CANDIDATES = 64  # more would mean hands all over the board: nothing a move explains
SEVEN_TRIES = 12  # rules checks a 7's capture fix may make (see _sevens_capturing)


def candidates(pos, movers, occ, touched, swap=False):
    """Positions (pawn colours on squares) consistent with the observed occupancy `occ`
    (bytearray of CELLS, 1 = magnet) and the `touched` squares. `movers`: colour values
    (colour + 1) whose pawns the player may move. Yields Position objects."""
    cells = pos.cells
    base = bytearray(CELLS)
    open_cells = []
    options = []
    swapped = []
    if swap:
        for s in touched:
            if s < TRACK and cells[s] and cells[s] not in swapped:
                swapped.append(cells[s])
    for s in range(CELLS):
        if not occ[s]:
            continue
        before = cells[s]
        if s >= TRACK:  # a home square holds its own colour only
            base[s] = colour_of_home(s) + 1
            continue
        if before and s not in touched:
            base[s] = before
            continue
        if swap:
            opts = swapped if before else movers
        elif before:
            opts = [before] + [m for m in movers if m != before]
        else:
            opts = movers
        if not opts:
            return
        if len(opts) == 1:
            base[s] = opts[0]
        else:
            open_cells.append(s)
            options.append(opts)
    count = 0
    idx = [0] * len(open_cells)
    while True:
        p = _with_cells(pos, base, open_cells, options, idx)
        if p is not None and swap and len(swapped) > 1 and p.cells == cells:
            p = None  # pawns of different colours were swapped: something must change
        if p is not None:
            yield p
            count += 1
            if count >= MAX_CANDIDATES:
                return
        # next combination (odometer)
        k = 0
        while k < len(idx):
            idx[k] += 1
            if idx[k] < len(options[k]):
                break
            idx[k] = 0
            k += 1
        if k == len(idx):
            return


def _with_cells(pos, base, open_cells, options, idx):
    cells = bytearray(base)
    for k in range(len(open_cells)):
        cells[open_cells[k]] = options[k][idx[k]]
    counts = [0, 0, 0, 0, 0]
    for v in cells:
        counts[v] += 1
    for c in range(1, 5):
        if counts[c] > 4:
            return None  # five pawns of a colour: not this colouring
    p = pos.copy()
    p.cells = cells
    return p


def placement_fix(expected, occ, camp_expected, camp_seen):
    """What to do to make the board match `expected` (a Position): squares to clear, squares
    to fill, camps missing or holding extra pawns. Words a player can act on."""
    from games.tock.rules import COLOURS, square_name

    clear = [square_name(s) for s in range(CELLS) if occ[s] and not expected.cells[s]]
    fill = [
        square_name(s) + " (" + COLOURS[expected.cells[s] - 1] + ")"
        for s in range(CELLS)
        if expected.cells[s] and not occ[s]
    ]
    words = []
    if clear:
        words.append("take the pawn off " + ", ".join(clear))
    if fill:
        words.append("put a pawn on " + ", ".join(fill))
    for c in range(4):
        d = camp_expected[c] - camp_seen[c]
        if d > 0:
            words.append("put %d %s pawn%s back in camp" % (d, COLOURS[c], "s" if d > 1 else ""))
        elif d < 0:
            words.append("%s camp has %d pawn%s too many" % (COLOURS[c], -d, "s" if d < -1 else ""))
    return "; ".join(words)


def capture_fix(pos, card, occ, camp_seen, touched, movers):
    """A capture half made (T13): the board shows a legal move of `card` done but for the
    captured pawns, still standing where the capturing pawn must stop (or lifted and not yet
    in their camp), and the capturing pawn not yet set down. The words to finish it, naming
    squares and camp slots as the sensors are named; "" when no capture explains the board.
    A card's moves are few and listed; a 7's splits are many (listing them all would not fit
    an ESP32's heap), so for a 7 each square a pawn could be captured on is tried instead,
    as the board's own check tries what it sees."""
    from games.tock.rules import COLOURS, entry_square, parse_square, square_name

    if card.rank == "J":
        return ""  # a swap captures nothing (T12)
    moves = _sevens_capturing(pos, card, occ, touched, movers) if card.rank == "7" else None
    for m in moves or pos.legal_moves(card):
        if not m.captures:
            continue
        caught = [parse_square(n) for n in m.captures]
        # the parts that capture: stopping on the pawn, or taking it on their own C16 on the
        # way into the home (T14)
        capturing = [
            (c, f, t)
            for c, f, t in m.parts
            if t in caught or (t >= TRACK and entry_square(c) in caught)
        ]
        open_ = caught + [t for _, _, t in capturing]
        fits = True
        for s in range(CELLS):
            if s not in open_ and bool(occ[s]) != bool(m.after.cells[s]):
                fits = False
                break
        for c, f, _ in m.parts:  # a pawn coming out: lifted from its camp already
            if f is None and camp_seen[c] >= pos.camp(c):
                fits = False
        if not fits:
            continue
        words = []
        for s in caught:
            v = COLOURS[pos.cells[s] - 1]
            where = "%s's camp (%sC1-%sC4)" % (v, v, v)
            if occ[s]:
                words.append(
                    "lift the %s pawn off %s and put it in %s" % (v, square_name(s), where)
                )
            else:
                words.append("put the %s pawn from %s in %s" % (v, square_name(s), where))
        for c, f, t in capturing:
            words.append(
                "then set the %s pawn from %s down on %s"
                % (COLOURS[c], "camp" if f is None else square_name(f), square_name(t))
            )
        return "to capture with %s (T13): %s" % (card, ", ".join(words))
    return ""


def _sevens_capturing(pos, card, occ, touched, movers):
    """The 7's legal moves that capture on a square where the captured pawn still stands
    (or stood, lifted): that square taken as touched (a pawn of the player's may be the one
    on it), each colouring checked by the rules. A generator: one Move at a time. Only
    squares 1 to 7 ahead of a pawn the player may move are tried, and at most SEVEN_TRIES
    checks are made: a 7's check takes up to about 25 ms on an ESP32, and this runs once,
    when the `illegal` is said."""
    cells = pos.cells
    tries = 0
    for s in range(TRACK):
        if not cells[s] or (s in touched and occ[s]):
            continue  # no pawn there before, or one put back there: not a capture half made
        reach = False
        for k in range(1, 8):
            if cells[(s - k) % TRACK] in movers:
                reach = True
        if not reach:
            continue
        seen = occ
        if not occ[s]:
            seen = bytearray(occ)
            seen[s] = 1
        more = set(touched)
        more.add(s)
        for cand in candidates(pos, movers, seen, more):
            tries += 1
            if tries > SEVEN_TRIES:
                return
            try:
                m = pos.check(card, cand, more)
            except Illegal:
                continue
            if m.captures:
                yield m
