"""The live view a person reads: the Tock ring drawn as the table is, marks and legend,
heartbeats and accepted commands hidden, each game's lines, and no event shape that can
break it (seeded random shapes into every special line)."""

import contextlib
import io
import json
import random

from plateau.games.pocha import score_table
from plateau.games.tock.checker import TockChecker
from plateau.games.tock.live import RING, ring
from plateau.view import LINES, View, show

TRACK = [f"{c}{k}" for c in "RGBY" for k in range(1, 19)]


def test_the_ring_is_the_track_in_order_with_homes_inside():
    cells = [RING[s] for s in TRACK]
    assert len(set(RING.values())) == len(RING) == 72 + 16
    for a, b in zip(cells, cells[1:] + cells[:1], strict=True):  # Y18 -> R1 closes it
        assert abs(a[0] - b[0]) + abs(a[1] - b[1]) in (1, 2), (a, b)  # round a corner: 2
    for c in "RGBY":
        entry = RING[f"{c}16"]
        first = RING[f"{c}H1"]
        assert abs(entry[0] - first[0]) + abs(entry[1] - first[1]) == 1  # home from C16
        inner = [RING[f"{c}H{j}"] for j in range(1, 5)]
        assert all(0 < r < 19 and 0 < col < 19 for r, col in inner)


def test_ring_marks_and_lowercase_last_move():
    f = TockChecker()
    f.start(json.load(open("host_tools/plateau/examples/midgame.json")))
    f.last_move = {"card": "7H", "seat": "R", "steps": [["G5", "G9"]]}
    art = "\n".join(ring(f, {"B3"}))
    grid = art.split("\n")[:20]
    r, c = RING["B3"]
    assert grid[r][3 + 2 * c] == "!"
    r, c = RING["G5"]
    assert grid[r][3 + 2 * c] == "r"  # an R pawn on a square of the last move
    assert "camps: R 2  G 2  B 4  Y 2" in art and "waiting: Y" in art


def printed(view, events):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for ev in events:
            view.show(ev)
    return out.getvalue()


def test_heartbeats_and_accepted_commands_hidden_refusals_shown():
    evs = [
        {"type": "heartbeat", "at": 3, "up": 800},
        {"type": "answer", "id": 1, "ok": True, "at": 3},
        {"type": "answer", "id": 2, "ok": False, "why": "nothing to undo", "at": 3},
    ]
    text = printed(View(False), evs)
    assert "heartbeat" not in text and "done" not in text
    assert "refused: nothing to undo" in text
    assert "heartbeat" in printed(View(False, heartbeats=True), evs)
    assert text.count("\n") == 1


def test_pocha_score_table():
    ev = {
        "type": "hand_end",
        "seq": 9,
        "hand": 3,
        "bids": {"1": 1, "2": 0, "10": 2},
        "taken": {"1": 1, "2": 1, "10": 1},
        "scores": {"1": 15, "2": -5, "10": -5},
        "totals": {"1": 40, "2": -10, "10": 5},
    }
    rows = score_table(ev)
    assert [r.split()[0] for r in rows[1:]] == ["1", "2", "10"]  # seats in order
    assert rows[1].split() == ["1", "1", "1", "+15", "40"]
    text = printed(View(False), [{"type": "hello", "boot": "b", "game": "pocha"}, ev])
    assert "hand 3 over" in text and "+15" in text  # the table: Pocha's host module's Live


def test_holdem_lines():
    assert "seat 3 call 10" in show(
        {"type": "action", "seq": 4, "seat": "3", "action": "call", "bet": 10, "stack": 88}
    )
    assert "seat 1 wins 26" in show(
        {"type": "pot", "seq": 9, "amount": 26, "eligible": ["1", "3"], "shares": {"1": 26}}
    )


def test_no_event_shape_breaks_a_line():
    rnd = random.Random(17)
    values = [None, 0, -3, 2**40, "", "x\x1b[2J", [], {}, [1, 2], {"A": "b"}, 1.5, True]
    keys = sorted(
        {"seat", "card", "steps", "why", "fix", "score", "series", "ranking"}
        | {
            "bet",
            "action",
            "stack",
            "amount",
            "eligible",
            "shares",
            "hand",
            "cards",
            "dealer",
            "button",
            "blinds",
            "stacks",
            "number",
            "winner",
            "suit",
            "ok",
            "totals",
            "bids",
            "taken",
            "scores",
            "goal",
            "side",
            "match_ms",
            "from",
            "to",
            "best",
            "category",
            "kind",
            "captures",
            "up",
            "bid",
            "tiebreak",
            "to_act",
        }
    )
    for kind in LINES:
        for _ in range(300):
            ev = {"type": kind, "seq": rnd.randint(1, 9)}
            for k in rnd.sample(keys, rnd.randint(0, 8)):
                ev[k] = rnd.choice(values)
            line = show(ev)
            assert "\x1b" not in line
            for view in (View(False), View(False, draw="rows")):
                printed(view, [{"type": "game", "game": "tock", "seq": 1}, ev])
