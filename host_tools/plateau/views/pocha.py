"""Pocha on the host: its generator slot, its plays and its replay."""

from __future__ import annotations

from plateau.view import say, score_table

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
KILL_AFTER_END = 2  # plateau resets kills it in its last 2 lines too (the final wait)
OUTCOME = "match_end"
CHAOS_SPEED = 8.0


def script(seed: int, form: str = "full") -> str:
    """A generated match (plateau.gen.generate_pocha, the one Pocha generator): 3 to 5
    players by the seed, the short schedule for "short", every other match drawing its first
    dealer; "chaos" 3 or 4 players."""
    from plateau.gen import generate_pocha

    if form == "chaos":
        return generate_pocha(3 + seed % 2, 40, "default", seed).script
    players = (3, 4, 5)[seed % 3]
    kind = "short" if form == "short" else "default"
    return generate_pocha(players, 40, kind, seed, draw=seed % 2 == 0).script


def replay():
    """A new `plateau replay` checker of one game: its tricks, scores and totals, K7,
    K8 and K10 (plateau.rechecks)."""
    from plateau.rechecks import Pocha

    return Pocha()


def gen(args, settings) -> tuple[str, str]:
    """`plateau gen --game pocha`: (the script, a summary) from the command's options."""
    from plateau.gen import generate_pocha

    players = args.players if args.players is not None else 4
    settings({"players": players, "deck": args.deck, "schedule": args.schedule})
    pocha = generate_pocha(players, args.deck, args.schedule, args.seed, args.pace, draw=args.draw)
    return pocha.script, f"{len(pocha.hands)} hands, ranking {pocha.ranking}"


class Live:
    """Pocha in the live view: the score table after each hand."""

    def __init__(self, board: str) -> None:
        pass

    def show(self, ev: dict) -> None:
        if ev.get("type") == "hand_end" and isinstance(ev.get("totals"), dict):
            try:
                for row in score_table(ev):
                    say(row, flush=True)
            except (KeyError, TypeError, ValueError, AttributeError):
                pass  # a malformed hand_end: its line was shown as it came


def kill_place(verb: str, raw: str, seen: dict) -> tuple[str | None, str | None]:
    """Where a kill hurts a Pocha match most (plateau resets), at a script line: (the place
    this line is, the stretch it starts: "" ends one, None goes on): a bid, the draw for the
    first dealer."""
    if verb == "send" and "bid" in raw:
        return "bidding", None
    if raw.startswith("send draw"):
        return None, "draw"
    return None, ("" if verb == "gather" else None)
