"""Tock on the host: its generator slot, its plays and its replay."""

from __future__ import annotations

RULES = ("classic", "king-exit", "toc-fr")
PLAYS = {
    "card": ("card", "seat"),
    "move": ("card", "seat", "kind", "steps", "captures"),
    "discard": ("card", "seat"),
    "undo": ("card", "steps"),
    "win": ("seat",),
}
PLAYED = ("move", "moves")  # what the index counts as a play (its `moves` column), and its name
GEN = ("rules",)  # the options of `plateau gen` only some generators read: this one's
OUTCOME = "win"
CHAOS_SPEED = 40.0  # a Tock game is about 11 minutes of play: 15-20 s under the harness


def script(seed: int, form: str = "full") -> str:
    """A whole generated game (plateau.gen.generate, the one Tock generator): "full" a game
    for four, "short" for two (make test), "chaos" two to four players by the seed."""
    from plateau.gen import generate

    players = {"short": 2, "full": 4, "chaos": 2 + seed % 3}[form]
    return generate(RULES[seed % 3], players, seed).script


def replay():
    """A new `plateau replay` checker of one game: move by move with the rules core, the
    live view's follower (plateau.follow)."""
    from plateau.follow import TockFollower

    return TockFollower()


def gen(args, settings) -> tuple[str, str]:
    """`plateau gen --game tock`: (the script, a summary) from the command's options."""
    from plateau.gen import generate

    players = args.players if args.players is not None else 4
    rules = settings({"players": players, "rules": args.rules or "classic"})["rules"]
    game = generate(rules, players, args.seed, noise=args.noise, pace=args.pace)
    return game.script, (
        f"{len(game.moves)} moves, {len(game.discards)} discards, winner {game.winner}"
    )
