"""The live view: what a person (or a script, with --json) sees of a table's events, one line
each, and what the game's host view module adds (its Live, plateau/views/<game>.py: for Tock
the board after every move, drawn by `ring` here). Used by `plateau sim`, `plateau log`."""

from __future__ import annotations

import json
import re

from plateau.events import clean


def show(ev: dict) -> str:
    """One event as a line a person reads: nothing of the board's text can drive the
    terminal (control characters are replaced)."""
    return clean(_show(ev))


def _show(ev: dict) -> str:
    kind = ev.get("type", "?")
    rest = {k: v for k, v in ev.items() if k not in ("type", "boot", "seq", "at")}
    num = f"#{ev['seq']:<4}" if "seq" in ev else "     "
    special = LINES.get(kind) if isinstance(kind, str) else None
    if special:
        try:  # a board may say anything: a shape the line does not expect falls back
            text = special(rest, ev)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            text = None
        if text is not None:
            return f"{num} {kind:<10} {text}" if not text.startswith("!") else text[1:]
    detail = " ".join(f"{k}={json.dumps(v)}" for k, v in rest.items())
    return f"{num} {kind:<10} {detail}"


def _seats(d: dict) -> str:
    """{"1": 10, "2": -5} -> "1:10 2:-5", seats in order."""
    return " ".join(f"{k}:{v}" for k, v in sorted(d.items(), key=lambda kv: _seat_key(kv[0])))


def _seat_key(seat) -> tuple:
    text = str(seat)
    if text.isascii() and text.isdigit() and len(text) < 19:  # "²".isdigit(), int() refuses
        return (0, int(text), "")
    return (1, 0, text)


def _score(sc: dict) -> str:
    return f"A {int(sc['A'])} - {int(sc['B'])} B"


def _clock(ms) -> str:
    t = int(ms) // 1000
    return f"{t // 60}:{t % 60:02d}"


# Weykick's `ignored` events, in words (docs/weykick.md)
IGNORED = {
    "paused": "not counted, the match is paused",
    "break": "not counted, half-time break",
    "over": "not counted, the match is over (undo the last goal, or new)",
    "lockout": "not counted, the goal had not re-armed (a bounce, or too soon after the goal)",
    "both-goals": "not counted, the other goal's sensor sees a ball too (a second ball? a fault?)",
    "at-start": "not counted, the ball was in the goal as the game started",
    "stuck": "its sensor has been on 30 s: a ball left in it, or the sensor stuck on",
}


LINES = {
    "heartbeat": lambda r, ev: f"board up {r.get('up', 0) / 1000:.1f} s",
    "hello": lambda r, ev: (
        f"table {r.get('table')} firmware {r.get('fw')} boot {ev.get('boot')} game {r.get('game')}"
    ),
    "gap": lambda r, ev: (
        f"!      GAP        events {r['from']}-{r['to']} of boot {ev.get('boot')} are gone"
        f" ({r['why']}): {r['to'] - r['from'] + 1} lost"
    ),
    "retake": lambda r, ev: (
        f"!      RETAKE     boot {ev.get('boot')} from event {r['from']}: {r.get('why')}"
    ),
    # Tock
    "move": lambda r, ev: (
        f"{r['seat']} plays {r['card']}: "
        + ", ".join(f"{a}->{b}" for a, b in r["steps"])
        + (f" ({r['kind']})" if r.get("kind") else "")
        + (f", captures {' '.join(map(str, r['captures']))}" if r.get("captures") else "")
    ),
    "discard": lambda r, ev: f"{r['seat']} discards {r['card']}: {r['why']}",
    "illegal": lambda r, ev: (
        f"ILLEGAL{' ' + r['card'] if r.get('card') else ''}: {r['why']}. To put it right: "
        f"{r['fix']}"
    ),
    # Weykick
    "goal": lambda r, ev: (
        f"GOAL in goal {r['goal']}: side {r['side']} scores   {_score(r['score'])}   "
        f"({_clock(r.get('match_ms', 0))})"
    ).replace("GOAL ", "", 1),
    "ignored": lambda r, ev: (  # a ball the table did not count, and why
        f"ball in goal {r.get('goal')}: {IGNORED.get(str(r['why']), str(r['why']))}"
        + (f" (out {r['out_ms']} ms)" if "out_ms" in r else "")
    ),
    "withdrawn": lambda r, ev: (  # undo took back an announced result
        f"match {r.get('match')} result (winner {r.get('winner') or 'none'}, "
        f"{_score(r['score'])}): no longer true after undo"
    ),
    "match_end": lambda r, ev: (
        f"winner {r.get('winner') or 'none (draw)'}   {_score(r['score'])}   "
        f"series A {int(r['series']['A'])} - {int(r['series']['B'])} B"
        if "score" in r
        else "final ranking: "  # Pocha
        + ", ".join(f"{i}. seat {e[0]} ({e[1]})" for i, e in enumerate(r["ranking"], 1))
    ),
    # Hold'em
    "action": lambda r, ev: (
        f"seat {r['seat']} {r['action']}"
        + (f" {r['bet']}" if r.get("bet") and r["action"] not in ("check", "fold") else "")
        + f"   ({r.get('street')}; stack {r.get('stack')})"
    ),
    "hand": lambda r, ev: f"seat {r['seat']}: {r['category']}   {' '.join(r['best'])}",
    "pot": lambda r, ev: (
        f"{r['amount']} (seats {' '.join(map(str, r['eligible']))}) -> "
        + ", ".join(f"seat {s} wins {n}" for s, n in sorted(r["shares"].items()))
    ),
    "hand_start": lambda r, ev: (
        f"hand {r['hand']}: {r['cards']} card{'s' * (r['cards'] != 1)} each, dealer seat"
        f" {r['dealer']}" + (" (tie-break)" if r.get("tiebreak") else "")
        if "dealer" in r  # Pocha; Hold'em's below
        else f"button seat {r['button']}, blinds {_seats(r['blinds'])}, "
        + (f"to act: seat {r['to_act']}" if r.get("to_act") else "no betting: the cards are turned")
        + f"   stacks {_seats(r['stacks'])}"
    ),
    "blinds": lambda r, ev: f"blinds {r['blinds']} from the next hand (big bet {r.get('big_bet')})",
    # Pocha
    "bid": lambda r, ev: f"seat {r['seat']} bids {r['bid']}",
    "trick": lambda r, ev: (
        f"trick {r['number']}: {' '.join(r['cards'])} -> seat {r['winner']} takes it"
    ),
    "trump": lambda r, ev: f"trumps: {r['suit']} (turned {r['card']})",
    # link messages a person need not see: an accepted command (a refused one is shown)
    "answer": lambda r, ev: "done" if r.get("ok") else f"refused: {r.get('why')}",
    "hand_end": lambda r, ev: (
        f"hand {r['hand']} over" if "totals" in r else f"stacks {_seats(r['stacks'])}"
    ),
}


def score_table(ev: dict) -> list[str]:
    """Pocha's running score table after a hand: one row a seat, bid / taken / this hand /
    total."""
    seats = sorted(ev["totals"], key=_seat_key)
    rows = [f"      {'seat':>4} {'bid':>4} {'took':>5} {'hand':>5} {'total':>6}"]
    for s in seats:
        rows.append(
            f"      {s:>4} {ev['bids'].get(s, '-'):>4} {ev['taken'].get(s, '-'):>5}"
            f" {ev['scores'].get(s, 0):>+5} {ev['totals'][s]:>6}"
        )
    return rows


def say(text: str, **kw) -> None:
    """print() for a line that holds anything a board or a log said."""
    print(clean(text), **kw)


def say_board(follower, **kw) -> None:
    """The follower's board, a line at a time (each cleaned like any other)."""
    for line in follower.board().split("\n"):
        say(line, **kw)


class View:
    """What a person (or a script, with --json) sees of the events: one line each, and what
    the game's host view module draws (its Live: for Tock the board after every move).
    Heartbeats (every 800 ms, a fifth of a game's lines) only when asked: a person sees the
    link is alive from the events, and `plateau log` counts them when it stops. --json prints
    every message, heartbeats included."""

    def __init__(self, as_json: bool, board: str = "ring", heartbeats: bool = False):
        """`board`: how a Tock board is drawn after each move: "ring" (as the table is),
        "rows" (a colour's 18 squares a line), or "none"."""
        self.as_json = as_json
        self.board = board
        self.heartbeats = heartbeats
        self.game: str | None = None
        self.live = None  # the game's part of the view (its view module's Live), if it has one

    def show(self, ev: dict) -> None:
        if self.as_json:
            print(json.dumps(ev), flush=True)  # ASCII only: escapes every control character
            return
        kind = ev.get("type")
        if kind == "heartbeat" and not self.heartbeats:
            return
        if kind == "answer" and ev.get("ok") is True:
            return  # a command done: only a refusal is news
        print(show(ev), flush=True)
        said = ev.get("game")
        if kind in ("hello", "snapshot", "game") and said and said != self.game:
            self.game = said
            self.live = _live(said, self.board)
        if self.live is not None:
            self.live.show(ev)


def _live(game: object, board: str):
    """A game's part of the live view, new: its view module's Live (plateau.registry)."""
    from plateau import registry

    try:
        make = registry.find(game).Live if isinstance(game, str) else None
    except ValueError:  # a game this host does not know: its events shown as they come
        return None
    return make(board) if make else None


SQUARE = re.compile(r"\b([RGBY](?:H[1-4]|C[1-4]|1[0-8]|[1-9]))\b")
SIDE = 18


def _ring_cells() -> dict[str, tuple[int, int]]:
    """Square name -> (row, column) on a 20 x 20 grid: the track round the edge in the
    order of play (R along the top, G down the right, B along the bottom, Y up the left),
    each home going inward from its colour's 16."""
    at: dict[str, tuple[int, int]] = {}
    for k in range(1, SIDE + 1):
        at[f"R{k}"] = (0, k)
        at[f"G{k}"] = (k, SIDE + 1)
        at[f"B{k}"] = (SIDE + 1, SIDE + 1 - k)
        at[f"Y{k}"] = (SIDE + 1 - k, 0)
    for j in range(1, 5):
        at[f"RH{j}"] = (j, 16)
        at[f"GH{j}"] = (16, SIDE + 1 - j)
        at[f"BH{j}"] = (SIDE + 1 - j, 3)
        at[f"YH{j}"] = (3, j)
    return at


RING = _ring_cells()
LEGEND = (
    "R G B Y a pawn, r g b y the pawn(s) of the last move, ! a square to put right,\n"
    "   . track (R1 top left, play goes clockwise; C18 is C's start, C16 its way home), o home"
)


def ring(follower, marks: set[str] | frozenset = frozenset()) -> list[str]:
    """The Tock board drawn as the table is: the ring of 72 squares, the homes inside, the
    camps, whose turn, the last move; `marks` (squares an `illegal` named) shown as !."""
    from plateau.fw.games.tock.rules import COLOURS, TRACK

    pos = follower.pos
    if pos is None:
        return ["(no game yet)"]
    moved = set()
    if follower.last_move:
        moved = {s for step in follower.last_move["steps"] for s in step}
    grid = [[" "] * (SIDE + 2) for _ in range(SIDE + 2)]
    for name, (r, c) in RING.items():
        col = "RGBY".index(name[0])
        if "H" in name:
            v = pos.cells[TRACK + 4 * col + int(name[2]) - 1]
            empty = "o"
        else:
            v = pos.cells[col * SIDE + int(name[1:]) - 1]
            empty = "."
        mark = COLOURS[v - 1] if v else empty
        if name in moved and v:
            mark = mark.lower()
        if name in marks:
            mark = "!"
        grid[r][c] = mark
    lines = ["   " + " ".join(row) for row in grid]
    camps = "  ".join(f"{COLOURS[c]} {pos.camp(c)}" for c in pos.colours())
    lines[0] = lines[0] + "   R1 ->"
    lines.append(
        f"   camps: {camps}"
        + (
            "   waiting: " + " ".join(COLOURS[c] for c in pos.colours() if pos.waiting >> c & 1)
            if pos.waiting
            else ""
        )
    )
    lines.append("   " + follower.status("   "))
    return lines
