"""An independent Tock move generator (CPython), written from docs/rules/tock.md alone: it
shares no code with firmware/games/tock/rules.py, reads and writes positions in the T4
notation, and plays every card the plain way (a dict of squares, pawns followed by identity,
a copy per step). It is what the rules core is measured and checked against:

    plays(d, card) -> {result: {pawn: set of final squares}}

`result` is the position after (placement, waiting, turn) as a hashable key (key_of), `pawn`
the square a pawn of the mover stood on before the card ("camp:R" for a pawn leaving R's
camp), mapped to the squares it ends on in the plays that give that result (a waiting pawn
that slips into its CH1 as another part frees it, T14, ends there too). tests/bench/
tock_speed.py times it beside Position.legal_moves; tests/host/test_tock_reach.py checks the
rules core's enumeration and its reachability per pawn against it."""

from __future__ import annotations

COLOURS = "RGBY"
TRACK = 72
STEPS = {"A": 1, "2": 2, "3": 3, "5": 5, "6": 6, "8": 8, "9": 9, "10": 10, "Q": 12, "K": 13}
RULES = {  # the flags of each ruleset (docs/rules/tock.md, the table of flags)
    "classic": ("exit-or-13", "any-two", 7, "exact16", False),
    "king-exit": ("exit-only", "any-two", 7, "exact16", False),
    "toc-fr": ("exit-or-13", "own-with-any", 2, "count", True),
}


def sq(name: str) -> int:
    c = COLOURS.index(name[0])
    if name[1] == "H":
        return TRACK + 4 * c + int(name[2:]) - 1
    return 18 * c + int(name[1:]) - 1


def name(s: int) -> str:
    if s < TRACK:
        return f"{COLOURS[s // 18]}{s % 18 + 1}"
    return f"{COLOURS[(s - TRACK) // 4]}H{(s - TRACK) % 4 + 1}"


class Game:
    """What does not change while a card is played: the ruleset, the seats."""

    def __init__(self, d: dict):
        king, swap, seven, entry, teams = RULES[d.get("rules", "classic")]
        flags = d.get("flags", {})
        self.king = flags.get("king", king)
        self.swap = flags.get("swap", swap)
        self.seven = flags.get("seven_max_pawns", seven)
        self.count = flags.get("home_entry", entry) == "count"
        self.players = d.get("players", 4)
        self.teams = flags.get("teams", teams) and self.players == 4
        self.colours = [0, 1, 2] if self.players == 3 else [0, 1, 2, 3]


class State:
    """The board while a card is played: square -> (colour, pawn id); waiting colours."""

    def __init__(self, board: dict, waiting: frozenset):
        self.board = board
        self.waiting = waiting

    def copy(self) -> State:
        return State(dict(self.board), self.waiting)

    def key(self):
        return (tuple(sorted(self.board.items())), self.waiting)


def start_of(d: dict) -> State:
    board = {}
    for letter, squares in d["pawns"].items():
        c = COLOURS.index(letter)
        for s in squares:
            if s != "camp":
                board[sq(s)] = (c, name(sq(s)))
    return State(board, frozenset(COLOURS.index(w) for w in d.get("waiting", [])))


def in_camp(state: State, c: int) -> int:
    return 4 - sum(1 for v in state.board.values() if v[0] == c)


def capture(state: State, s: int) -> None:
    c, _ = state.board.pop(s)  # back to its camp (T13)
    if s == 18 * c + 15:
        state.waiting = state.waiting - {c}


def slip(state: State) -> None:
    """T14: a waiting pawn enters its CH1 the moment CH1 is free."""
    for c in list(state.waiting):
        h1 = TRACK + 4 * c
        if h1 not in state.board:
            state.board[h1] = state.board.pop(18 * c + 15)
            state.waiting = state.waiting - {c}


def forward(g: Game, state: State, s: int, n: int, team) -> State | None:
    """The pawn on s steps n forward (T9, T14, T15, T16), or None when it may not."""
    c, pid = state.board[s]
    out = state.copy()
    board = out.board
    if s >= TRACK:  # in home: forward only, no passing, never past CH4 (T16)
        k = (s - TRACK) % 4
        if k + n > 3 or any(s + j in board for j in range(1, n + 1)):
            return None
        del board[s]
        board[s + n] = (c, pid)
        slip(out)
        return out
    entry = 18 * c + 15
    at = s
    for i in range(n):
        if g.count and at == entry:  # the rest goes into home (T15)
            left = n - i
            homes = [TRACK + 4 * c + j for j in range(left)]
            if left > 4 or any(h in board for h in homes):
                return None
            del board[s]
            if s == entry:
                out.waiting = out.waiting - {c}
            board[homes[-1]] = (c, pid)
            return out
        at = (at + 1) % TRACK
        if i < n - 1 and at in board and board[at][0] in team:
            return None  # may not pass a pawn of its side (T9)
    if at in board:
        if board[at][0] in team or at % 18 == 17:
            return None  # its side, or a square 18 (T9)
        capture(out, at)
    del board[s]
    if s == entry:
        out.waiting = out.waiting - {c}
    if at == entry and not g.count:  # exactly on its C16 (T14)
        if TRACK + 4 * c in board:
            board[at] = (c, pid)
            out.waiting = out.waiting | {c}
        else:
            board[TRACK + 4 * c] = (c, pid)
    else:
        board[at] = (c, pid)
    return out


def backward(state: State, s: int, team) -> State | None:
    """T10: 4 back, same passing and landing rules, never into home."""
    if s >= TRACK:
        return None
    c, pid = state.board[s]
    at = s
    for i in range(4):
        at = (at - 1) % TRACK
        if i < 3 and at in state.board and state.board[at][0] in team:
            return None
    out = state.copy()
    if at in out.board:
        if out.board[at][0] in team or at % 18 == 17:
            return None
        capture(out, at)
    del out.board[s]
    if s == 18 * c + 15:
        out.waiting = out.waiting - {c}
    out.board[at] = (c, pid)
    return out


def exit_pawn(state: State, c: int, team) -> State | None:
    """T8: a camp pawn to its C18, capturing an opponent there."""
    if not in_camp(state, c):
        return None
    s = 18 * c + 17
    if s in state.board and state.board[s][0] in team:
        return None
    out = state.copy()
    if s in out.board:
        capture(out, s)
    out.board[s] = (c, "camp:" + COLOURS[c])
    return out


def seats(g: Game, turn: str):
    if turn == "any":
        return [0, 1] if g.players == 2 else g.colours
    c = COLOURS.index(turn)
    return [c % 2] if g.players == 2 else [c]


def own_of(g: Game, state: State, seat: int):
    """T5, T6: the seat's colours; a team player whose home is full plays its partner's."""
    mine = [seat, seat + 2] if g.players == 2 else [seat]
    if g.teams and all(TRACK + 4 * seat + k in state.board for k in range(4)):
        return [(seat + 2) % 4]
    return mine


def team_of(g: Game, seat: int):
    if g.teams:
        return [seat, (seat + 2) % 4]
    return [seat, seat + 2] if g.players == 2 else [seat]


def one_step_plays(g: Game, state: State, rank: str, own, team):
    """(state after, {pawn: final}) of every card but the 7."""
    if rank == "J":  # T12
        pawns = [s for s in sorted(state.board) if s < TRACK and s != 18 * state.board[s][0] + 17]
        for i, a in enumerate(pawns):
            for b in pawns[i + 1 :]:
                ca, cb = state.board[a][0], state.board[b][0]
                if g.swap == "own-with-any" and ca not in own and cb not in own:
                    continue
                out = state.copy()
                if ca != cb:  # the same colour: nothing at all changes
                    for s, c in ((a, ca), (b, cb)):
                        if s == 18 * c + 15:
                            out.waiting = out.waiting - {c}
                    out.board[a], out.board[b] = state.board[b], state.board[a]
                yield out, {name(a): name(b), name(b): name(a)}
        return
    if rank in ("A", "K", "X"):
        for c in own:
            out = exit_pawn(state, c, team)
            if out is not None:
                yield out, {"camp:" + COLOURS[c]: name(18 * c + 17)}
        if rank == "X" or (rank == "K" and g.king == "exit-only"):
            return
    for s in sorted(state.board):
        if state.board[s][0] not in own:
            continue
        out = backward(state, s, team) if rank == "4" else forward(g, state, s, STEPS[rank], team)
        if out is not None:
            yield out, finals(state, out)


def finals(before: State, after: State) -> dict:
    """Each pawn of the mover that changed square: where it ended."""
    where = {pid: s for s, (_, pid) in after.board.items()}
    out = {}
    for s, (_, pid) in before.board.items():
        if pid in where and where[pid] != s:
            out[pid] = name(where[pid])
    return out


def seven_plays(g: Game, state: State, own, team):
    """T11: parts of distinct own pawns, each >= 1, adding up to 7, at most g.seven of
    them, played one after another; every order tried, each state seen once."""
    seen = set()
    out = []

    def go(st: State, moved: frozenset, left: int, parts: int):
        k = (st.key(), moved, left)
        if k in seen:
            return
        seen.add(k)
        if not left:
            out.append((st, finals(state, st)))
            return
        if parts == g.seven:
            return
        for s in sorted(st.board):
            c, pid = st.board[s]
            if c not in own or pid in moved:
                continue
            for n in range(1, left + 1):
                nxt = forward(g, st, s, n, team)
                if nxt is not None:
                    go(nxt, moved | {pid}, left - n, parts + 1)

    go(state, frozenset(), 7, 0)
    return out


def key_of(d_after_pawns: dict, waiting, turn: str):
    """A result as a hashable key: the squares of each colour, the waiting colours, the turn."""
    placed = frozenset((c, s) for c, sqs in d_after_pawns.items() for s in sqs if s != "camp")
    return placed, frozenset(waiting), turn


def plays(d: dict, card: str) -> dict:
    """{result key: {pawn: {final squares}}} of every legal play of `card` (a card text such
    as 7H or X) from the T4 position `d`; {} when the card has no legal move (T17)."""
    g = Game(d)
    rank = card[:-1] if card != "X" else "X"
    state = start_of(d)
    results: dict = {}
    for seat in seats(g, d.get("turn", "R")):
        own = own_of(g, state, seat)
        team = team_of(g, seat)
        if rank == "7":
            found = seven_plays(g, state, own, team)
        else:
            found = one_step_plays(g, state, rank, own, team)
        if rank == "X":
            turn = "any"
        elif g.players == 2:
            turn = COLOURS[(seat + 1) % 2]
        else:
            turn = COLOURS[g.colours[(g.colours.index(seat) + 1) % len(g.colours)]]
        for st, fin in found:
            pawns: dict = {COLOURS[c]: [] for c in g.colours}
            for s, (c, _) in st.board.items():
                pawns[COLOURS[c]].append(name(s))
            k = key_of(pawns, [COLOURS[c] for c in st.waiting], turn)
            reach = results.setdefault(k, {})
            for pid, f in fin.items():
                reach.setdefault(pid, set()).add(f)
    return results
