"""Weykick on the host: everything the host tools know of it (plateau.games lists the
names). Its generator is in generate.py, its replay checker in checker.py, its part of the
club's page in club.py."""

from __future__ import annotations

from plateau.events import is_amounts, is_int, is_text, maybe
from plateau.games.weykick.club import Club as Club  # its part of the club's page
from plateau.index import scalar

# --- its events ------------------------------------------------------------------------------

SHAPES = {
    "goal": {
        "goal": (is_text, True),
        "side": (is_text, True),
        "score": (is_amounts, False),
        "match_ms": (is_int, False),
        "seen_ms": (is_int, False),
    },
    "match_end": {"winner": (maybe(is_text), False), "score": (is_amounts, False)},
    # a ball not counted, and a result undo took back (docs/weykick.md)
    "ignored": {"goal": (is_text, False), "why": (is_text, True), "out_ms": (is_int, False)},
    "withdrawn": {"winner": (maybe(is_text), False), "score": (is_amounts, False)},
}

# its `ignored` events, in words (docs/weykick.md)
IGNORED = {
    "paused": "not counted, the match is paused",
    "break": "not counted, half-time break",
    "over": "not counted, the match is over (undo the last goal, or new)",
    "lockout": "not counted, the goal had not re-armed (a bounce, or too soon after the goal)",
    "both-goals": "not counted, the other goal's sensor sees a ball too (a second ball? a fault?)",
    "at-start": "not counted, the ball was in the goal as the game started",
    "stuck": "its sensor has been on 30 s: a ball left in it, or the sensor stuck on",
}


def _score(sc: dict) -> str:
    return f"A {int(sc['A'])} - {int(sc['B'])} B"


def _clock(ms) -> str:
    t = int(ms) // 1000
    return f"{t // 60}:{t % 60:02d}"


LINES = {
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
        else None
    ),
}

# --- its plays and their outcome --------------------------------------------------------------

PLAYS = {
    "goal": ("goal", "side", "score", "match"),
    "undo": ("side", "score", "match"),
    "match_end": ("match", "winner", "score", "series", "series_over"),
    "withdrawn": ("match", "winner", "score"),
    "game": ("match", "series", "start"),
}
PLAYED = ("goal", "goals")  # what the index counts as a play (its `moves` column), and its name
OUTCOME = "match_end"


def winner(ev: dict, before: object) -> object:
    """The winner once `ev` is played: a match's (a draw keeps the last one); none once
    undo takes the result back (`withdrawn`)."""
    if ev["type"] == "match_end":
        return scalar(ev.get("winner")) or before
    if ev["type"] == "withdrawn":
        return None
    return before


def replay():
    """A new `plateau replay` checker of one game: its goals, undos and results, W3-W6."""
    from plateau.games.weykick.checker import WeykickChecker

    return WeykickChecker()


# --- its generator ----------------------------------------------------------------------------

# its script is timed to the ms (goals and their re-arm), so any --pace
GEN = ("timed",)


def gen_options(group) -> None:
    """Its options of `plateau gen` (an argparse group of their own)."""
    from plateau.commands import Bounded

    group.add_argument(
        "--mess",
        type=Bounded(float, 0.0, 1.0, "a share"),
        default=0.0,
        help="share of goals (0-1) followed by a table incident that is no goal"
        " (docs/weykick.md); the script is then timed to the ms",
    )


def script(seed: int, form: str = "full") -> str:
    """A generated series (the one Weykick generator): "chaos" a best-of-5 series; "full"
    best of three to 3 goals, "short" to 2, with undo and new sent by the host (a button
    pressed while the board is off is lost, on a real table too: a kill there would differ
    from the run without kills by design), with table incidents, but none that hangs on the
    re-arm time (a restart keeps the table stopped a while, and a ball out meanwhile was out
    longer)."""
    from plateau.games.weykick.generate import generate

    if form == "chaos":
        return generate(seed).script
    first_to = 2 if form == "short" else 3
    return generate(seed, best_of=3, first_to=first_to, buttons=False, mess=0.5, close=False).script


def gen(args, settings) -> tuple[str, str]:
    """`plateau gen --game weykick`: (the script, a summary) from the command's options."""
    from plateau.games.weykick.generate import generate

    settings({})
    series = generate(seed=args.seed, pace=args.pace, mess=args.mess)
    return series.script, f"{len(series.matches)} matches, winner {series.winner}"


# --- the harnesses ----------------------------------------------------------------------------

ORDER = {"chaos": 2, "resets": 3}  # its place in the harnesses' orders: it seeds their runs
CHAOS_SPEED = 6.0  # a best-of-5 series can be 3 matches


def kill_place(n: int, verb: str | None, raw: str, seen: dict) -> tuple[list, str | None]:
    """Where a kill hurts a Weykick series most (plateau resets), at script line n: (the
    places it marks, the stretch it starts): a ball in a goal, just taken out, the next
    match."""
    if verb == "ball":
        return [("ball in a goal", n)], None
    if verb == "clear":
        return [("ball just taken out", n)], None
    return ([("next match", n)] if raw.startswith("send new") else []), None


# --- the club's page: club.js's score and clock (club.py folds its view) ----------------------

PAGE = {"draw": "goals", "seats": {"A": "side A", "B": "side B"}}


def seats(settings: dict) -> list[str]:
    """Its two sides, whatever the settings: the scoreboard names them at `new`."""
    return ["A", "B"]
