"""The games as the host tools find them. The firmware's registry (firmware/games/__init__.py)
names every game and declares its deck, settings and command words; each game's host view
module, plateau/views/<name>.py, adds what only the host has: its one script generator (the
generator slot, used by the chaos and reset harnesses), the events that make its plays
(compared by the reset harness) and its pace under the chaos harness. A game without a view
module still plays through `plateau sim` (docs/adding-a-game.md): it gets PLAIN."""

from __future__ import annotations

import importlib
from types import ModuleType, SimpleNamespace

from plateau.fw import games


def names() -> tuple[str, ...]:
    """Every game, in the firmware registry's order."""
    return tuple(games.GAMES)


PLAIN = SimpleNamespace(
    script=None,
    gen=None,
    GEN=(),
    PLAYS={},
    OUTCOME=None,
    CHAOS_SPEED=None,
    PLAYED=("move", "moves"),
    replay=None,
    Live=None,
)


def find(name: str) -> ModuleType | SimpleNamespace:
    """A game's host view module (plateau/views/<name>.py), PLAIN if it has none; ValueError
    if the firmware registry does not know the game."""
    games.declaration(name)
    try:
        return importlib.import_module(f"plateau.views.{name}")
    except ModuleNotFoundError as e:
        if e.name != f"plateau.views.{name}":
            raise
        return PLAIN


def generated(seeding: tuple[str, ...]) -> tuple[str, ...]:
    """The games with a generator slot, as a harness plays them: `seeding` first (the order
    in which its games were given their seeds, kept so that their runs stay the same), then
    every other such game of the registry in its order."""
    known = [g for g in seeding if g in names()]
    return tuple(known + [g for g in names() if g not in known and find(g).script])
