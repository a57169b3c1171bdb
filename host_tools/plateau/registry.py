"""The games as the host tools find them. The firmware's registry (firmware/games/__init__.py)
names every game and declares its deck, settings and command words; each game's host view
module, plateau/views/<name>.py, adds what only the host has, each name optional (PLAIN
below says what a game without it gets): a game without a view module still plays through
`plateau sim`, is logged, indexed, shown and replayed (docs/adding-a-game.md)."""

from __future__ import annotations

import functools
import importlib
from types import SimpleNamespace

from plateau.fw import games


def names() -> tuple[str, ...]:
    """Every game, in the firmware registry's order."""
    return tuple(games.GAMES)


PLAIN = SimpleNamespace(
    # its one table-script generator, script(seed, form) ("full", "short", "chaos"): the
    # chaos and reset harnesses play it, `plateau gen --game NAME --seed S` writes it
    script=None,
    # `plateau gen` reading the command's options (args, and the settings checker):
    # (script, summary); GEN: the options only some generators read that this one does
    gen=None,
    GEN=(),
    PLAYS={},  # the events that make its plays, and their fields: compared by the resets
    OUTCOME=None,  # the one of them that says how the game ended
    # where a kill hurts it most, at a script line (plateau resets); and in how many of its
    # last lines a kill lands after the game ended
    kill_place=None,
    KILL_AFTER_END=0,
    CHAOS_SPEED=1.0,  # table time to real time under the chaos harness
    PLAYED=("move", "moves"),  # what the index counts as a play (its `moves`), and its name
    replay=None,  # a new checker of one game for `plateau replay`: feed, summary, state
    Live=None,  # its part of the live view, Live(board) with show(ev): it draws what it adds
)


@functools.cache
def find(name: str) -> SimpleNamespace:
    """A game's host side: its view module's names (plateau/views/<name>.py), PLAIN's for
    those it has not (all of them without a module); ValueError if the firmware registry
    does not know the game."""
    games.declaration(name)
    try:
        module = importlib.import_module(f"plateau.views.{name}")
    except ModuleNotFoundError as e:
        if e.name != f"plateau.views.{name}":
            raise
        return PLAIN
    return SimpleNamespace(**{k: getattr(module, k, v) for k, v in vars(PLAIN).items()})


def generated(seeding: tuple[str, ...]) -> tuple[str, ...]:
    """The games with a generator slot, as a harness plays them: `seeding` first (the order
    in which its games were given their seeds, kept so that their runs stay the same), then
    every other such game of the registry in its order."""
    known = [g for g in seeding if g in names()]
    return tuple(known + [g for g in names() if g not in known and find(g).script])


# The words the command language itself uses in a command object: its word, its id, and the
# game a `new` names. A setting or a command argument so named could never be sent (`pick
# id=3` read as the command's id; `new gs game=4` as a game's name): adversarial tester's
# finding 25.
RESERVED = ("cmd", "id", "game")


def declaration_trouble() -> str | None:
    """What is wrong with a game's declarations (games/<name>/game.py), in one line naming
    the game, the setting or argument, and why; None if nothing. Every declared default is
    checked against its own kind, the settings' in order as the checker reads them (a game
    ran with target=0 out of its 1..52, and a later `new dflt target=5` was refused for a
    style nobody gave: finding 20), and no name may be one of RESERVED (finding 25). Asked
    once, on the host, before a plateau command runs: the board's heap pays nothing for it."""
    from plateau.fw.games.settings import value

    for name in games.GAMES:
        try:
            mod = games.declaration(name)
            decls = [("setting", None, d) for d in mod.SETTINGS]
            decls += [("argument of", w, d) for w, ds in mod.COMMANDS.items() for d in ds]
        except Exception:  # an import error or a malformed declaration: said as it is later
            return None
        known: dict = {}
        for what, word, decl in decls:
            if not (isinstance(decl, tuple) and len(decl) == 3):
                return f"{name}: {decl!r} in its game.py is not (name, kind, default)"
            key, kind, default = decl
            where = f"{what} {word} {key!r}" if word else f"{what} {key!r}"
            if key in RESERVED:
                return (
                    f"{name}: {where} is a word of the command language itself; these names"
                    f" are taken: {', '.join(RESERVED)}"
                )
            if default is None:
                continue
            try:
                typed = value(key, kind, default, known)
            except Exception as e:  # SettingsError; a kind that is no kind says what it can
                return f"{name}: the default of {where} ({default!r}) is not of its kind: {e}"
            if not word:
                known[key] = typed
    return None
