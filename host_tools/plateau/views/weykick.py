"""Weykick on the host: its generator slot, its plays and its replay."""

from __future__ import annotations

PLAYS = {
    "goal": ("goal", "side", "score", "match"),
    "undo": ("side", "score", "match"),
    "match_end": ("match", "winner", "score", "series", "series_over"),
    "withdrawn": ("match", "winner", "score"),
    "game": ("match", "series", "start"),
}
PLAYED = ("goal", "goals")  # what the index counts as a play (its `moves` column), and its name
# the options of `plateau gen` only some generators read: this one's; "timed": its script is
# timed to the ms (goals and their re-arm), so any --pace
GEN = ("mess", "timed")
OUTCOME = "match_end"
CHAOS_SPEED = 6.0  # a best-of-5 series can be 3 matches


def script(seed: int, form: str = "full") -> str:
    """A generated series (plateau.gen.generate_weykick, the one Weykick generator): "chaos"
    a best-of-5 series; "full" best of three to 3 goals, "short" to 2, with undo and new sent
    by the host (a button pressed while the board is off is lost, on a real table too: a kill
    there would differ from the run without kills by design), with table incidents, but none
    that hangs on the re-arm time (a restart keeps the table stopped a while, and a ball out
    meanwhile was out longer)."""
    from plateau.gen import generate_weykick

    if form == "chaos":
        return generate_weykick(seed).script
    first_to = 2 if form == "short" else 3
    return generate_weykick(
        seed, best_of=3, first_to=first_to, buttons=False, mess=0.5, close=False
    ).script


def replay():
    """A new `plateau replay` checker of one game: its goals, undos and results,
    W3-W6 (plateau.rechecks)."""
    from plateau.rechecks import Weykick

    return Weykick()


def gen(args, settings) -> tuple[str, str]:
    """`plateau gen --game weykick`: (the script, a summary) from the command's options."""
    from plateau.gen import generate_weykick

    settings({})
    series = generate_weykick(seed=args.seed, pace=args.pace, mess=args.mess)
    return series.script, f"{len(series.matches)} matches, winner {series.winner}"


def kill_place(verb: str, raw: str, seen: dict) -> tuple[str | None, str | None]:
    """Where a kill hurts a Weykick series most (plateau resets), at a script line: (the place
    this line is, the stretch it starts: "" ends one, None goes on): a ball in a goal, just
    taken out, the next match."""
    if verb == "ball":
        return "ball in a goal", None
    if verb == "clear":
        return "ball just taken out", None
    return ("next match" if raw.startswith("send new") else None), None
