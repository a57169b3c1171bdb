"""Tock on the host: its generator slot and its plays."""

from __future__ import annotations

RULES = ("classic", "king-exit", "toc-fr")
PLAYS = {
    "card": ("card", "seat"),
    "move": ("card", "seat", "kind", "steps", "captures"),
    "discard": ("card", "seat"),
    "undo": ("card", "steps"),
    "win": ("seat",),
}
OUTCOME = "win"
CHAOS_SPEED = 40.0  # a Tock game is about 11 minutes of play: 15-20 s under the harness


def script(seed: int, form: str = "full") -> str:
    """A whole generated game (plateau.gen.generate, the one Tock generator): "full" a game
    for four, "short" for two (make test), "chaos" two to four players by the seed."""
    from plateau.gen import generate

    players = {"short": 2, "full": 4, "chaos": 2 + seed % 3}[form]
    return generate(RULES[seed % 3], players, seed).script
