"""Pocha on the host: everything the host tools know of it (plateau.games lists the names).
Its generator is in generate.py, its replay checker in checker.py, its part of the club's
page in club.py."""

from __future__ import annotations

from plateau.events import is_text, maybe
from plateau.games.pocha.club import Club as Club  # its part of the club's page
from plateau.index import scalar
from plateau.view import say, seat_key

# --- its events ------------------------------------------------------------------------------

SHAPES = {"card": {"card": (is_text, True), "seat": (maybe(is_text), False)}}
LINES = {
    "hand_start": lambda r, ev: (
        f"hand {r['hand']}: {r['cards']} card{'s' * (r['cards'] != 1)} each, dealer seat"
        f" {r['dealer']}" + (" (tie-break)" if r.get("tiebreak") else "")
        if "dealer" in r
        else None
    ),
    "bid": lambda r, ev: f"seat {r['seat']} bids {r['bid']}",
    "trick": lambda r, ev: (
        f"trick {r['number']}: {' '.join(r['cards'])} -> seat {r['winner']} takes it"
    ),
    "trump": lambda r, ev: f"trumps: {r['suit']} (turned {r['card']})",
    "hand_end": lambda r, ev: f"hand {r['hand']} over" if "totals" in r else None,
    "match_end": lambda r, ev: (
        "final ranking: "
        + ", ".join(f"{i}. seat {e[0]} ({e[1]})" for i, e in enumerate(r["ranking"], 1))
    ),
}

# --- its plays and their outcome --------------------------------------------------------------

PLAYS = {
    "hand_start": ("hand", "cards", "dealer", "tiebreak"),
    "trump": ("card", "suit", "bidder"),
    "bid": ("seat", "bid"),
    "draw": ("seats",),
    "dealer": ("seat",),
    "card": ("card", "seat", "draw"),
    "trick": ("number", "cards", "winner"),
    "hand_end": ("hand", "bids", "taken", "scores", "totals"),
    "match_end": ("ranking",),
}
PLAYED = ("hand_end", "hands")  # what the index counts as a play (its `moves` column), and its name
OUTCOME = "match_end"


def winner(ev: dict, before: object) -> object:
    """The winner once `ev` is played: the first of the final ranking (highest first: its
    first place is never shared)."""
    if ev["type"] == "match_end":
        ranking = ev.get("ranking")
        if isinstance(ranking, list) and ranking and isinstance(ranking[0], list) and ranking[0]:
            return scalar(ranking[0][0]) or before
        return scalar(ev.get("winner")) or before
    return before


def replay():
    """A new `plateau replay` checker of one game: its tricks, scores and totals, K7, K8
    and K10."""
    from plateau.games.pocha.checker import PochaChecker

    return PochaChecker()


# --- its generator ----------------------------------------------------------------------------

PLAYERS = "3, 4, 5, 6 or 8 (4)"  # what `plateau gen --players` means for it


def gen_options(group) -> None:
    """Its options of `plateau gen` (an argparse group of their own)."""
    from plateau.commands import whole

    group.add_argument("--deck", type=whole(1, 100), default=40, help="Pocha's deck: 40 or 48")
    group.add_argument("--schedule", default="default", help="default, short or full")
    group.add_argument("--draw", action="store_true", help="the first dealer drawn at the table")


def script(seed: int, form: str = "full") -> str:
    """A generated match (the one Pocha generator): 3 to 5 players by the seed, the short
    schedule for "short", every other match drawing its first dealer; "chaos" 3 or 4
    players."""
    from plateau.games.pocha.generate import generate

    if form == "chaos":
        return generate(3 + seed % 2, 40, "default", seed).script
    players = (3, 4, 5)[seed % 3]
    kind = "short" if form == "short" else "default"
    return generate(players, 40, kind, seed, draw=seed % 2 == 0).script


def gen(args, settings) -> tuple[str, str]:
    """`plateau gen --game pocha`: (the script, a summary) from the command's options."""
    from plateau.games.pocha.generate import generate

    players = args.players if args.players is not None else 4
    settings({"players": players, "deck": args.deck, "schedule": args.schedule})
    pocha = generate(players, args.deck, args.schedule, args.seed, args.pace, draw=args.draw)
    return pocha.script, f"{len(pocha.hands)} hands, ranking {pocha.ranking}"


# --- the live view ----------------------------------------------------------------------------


def score_table(ev: dict) -> list[str]:
    """The running score table after a hand: one row a seat, bid / taken / this hand /
    total."""
    seats = sorted(ev["totals"], key=seat_key)
    rows = [f"      {'seat':>4} {'bid':>4} {'took':>5} {'hand':>5} {'total':>6}"]
    for s in seats:
        rows.append(
            f"      {s:>4} {ev['bids'].get(s, '-'):>4} {ev['taken'].get(s, '-'):>5}"
            f" {ev['scores'].get(s, 0):>+5} {ev['totals'][s]:>6}"
        )
    return rows


class Live:
    """Pocha in the live view: the score table after each hand."""

    def __init__(self, draw: str) -> None:
        pass

    def show(self, ev: dict) -> None:
        if ev.get("type") == "hand_end" and isinstance(ev.get("totals"), dict):
            try:
                for row in score_table(ev):
                    say(row, flush=True)
            except (KeyError, TypeError, ValueError, AttributeError):
                pass  # a malformed hand_end: its line was shown as it came


# --- the harnesses ----------------------------------------------------------------------------

ORDER = {"chaos": 1, "resets": 1}  # its place in the harnesses' orders: it seeds their runs
CHAOS_SPEED = 8.0
KILL_AFTER_END = 2  # plateau resets kills it in its last 2 lines too (the final wait)
# the first match a reset run plays holds a tie-break (its seed moved on by 1000 until it
# does; 1 match in 20 has one)
RESETS_FIRST = "# tie-break"


def kill_place(n: int, verb: str | None, raw: str, seen: dict) -> tuple[list, str | None]:
    """Where a kill hurts a Pocha match most (plateau resets), at script line n: (the places
    it marks, the stretch it starts: "" ends one, None goes on): in a tie-break hand, a bid,
    the draw for the first dealer."""
    if raw.startswith("# tie-break"):
        return [], "tie-break"
    if verb == "send" and "bid" in raw:
        return [("bidding", n)], None
    if raw.startswith("send draw"):
        return [], "draw"
    return [], ("" if verb == "gather" else None)


# --- the club's page: club.js's bids, tricks and scores (club.py folds its view) --------------

PAGE = {"draw": "tricks"}


def seats(settings: dict) -> list[str]:
    """Seats 1 to `players` (checked settings, K2: seated in play order): the scoreboard
    names them at `new`."""
    return [str(i) for i in range(1, settings["players"] + 1)]
