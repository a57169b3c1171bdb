"""The games as the host tools find them: the host's game registry. The firmware's registry
(firmware/games/__init__.py) names every game and declares its deck, settings and command
words; each game's host module, plateau/games/<name>.py (or a package plateau/games/<name>/
when it outgrows one file, as the four games have), adds everything only the host knows of
it: each name optional, PLAIN below says what a game without it gets. A game without a host
module still plays through `plateau sim`, is logged, indexed, shown and replayed
(docs/adding-a-game.md). `league`, `chaos`, `resets`, `events`, `view`, the index and the
club find games here and name none."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterator, Mapping
from types import SimpleNamespace
from typing import Any

from plateau.fw import games as firmware


class Mismatch(Exception):
    """An event that does not follow from the game so far (a replay checker's finding)."""


def names() -> tuple[str, ...]:
    """Every game, in the firmware registry's order."""
    return tuple(firmware.GAMES)


PLAIN = SimpleNamespace(
    # --- its events: plateau.events and the live view (plateau.view)
    # {type: {field: (check, required)}}: the fields of its events the host tools read, with
    # the checks of plateau.events (is_text, maybe(is_text)...); merged with the link's and
    # the other games' (a field is required where every game that names it requires it)
    SHAPES={},
    # {type: line(fields, ev)}: its events as a line a person reads; None for an event not
    # of the shape it reads (key=value then)
    LINES={},
    Live=None,  # its part of the live view, Live(draw) with show(ev): it draws what it adds
    # --- its plays and their outcome: the index, plateau replay, plateau resets
    PLAYED=("move", "moves"),  # what the index counts as a play (its `moves`), and its name
    winner=None,  # winner(ev, before): a game's winner once ev is played (None: none yet)
    PLAYS={},  # the events that make its plays, and their fields: compared by the resets
    compared=None,  # compared(ev, fields): a play's fields as compared, if not as they are
    OUTCOME=None,  # the one of them that says how the game ended
    # a new checker of one game for `plateau replay` and the club's replay (club/replay.py):
    # feed, summary, state; result() the places of the game the last event ended (None: it
    # ended none), which the club compares with the table's before it rates a result;
    # taken_up, where the game under way rests on the board's word (None: checked from its
    # start)
    replay=None,
    # --- its generator: plateau gen, the chaos and reset harnesses
    # its one table-script generator, script(seed, form) ("full", "short", "chaos"): the
    # chaos and reset harnesses play it, `plateau gen --game NAME --seed S` writes it
    script=None,
    # `plateau gen` reading the command's options (args, and the settings checker):
    # (script, summary); its own options added by gen_options(group) (another game's are
    # refused); PLAYERS what --players means for it (none: --players is refused); GEN:
    # ("timed",) when its script is timed to the ms (any --pace)
    gen=None,
    gen_options=None,
    PLAYERS=None,
    GEN=(),
    # --- the harnesses (plateau chaos, plateau resets)
    ORDER={},  # its place in each harness's order ({"chaos": 0}): it seeds its runs there
    CHAOS_SPEED=1.0,  # table time to real time under the chaos harness
    # kill_place(n, verb, raw, seen): where a kill hurts it most, at script line n: the
    # places it marks [(kind, line)] and the stretch it starts ("" ends one, None goes on)
    kill_place=None,
    KILL_AFTER_END=0,  # in how many of its last lines a kill lands after the game ended
    RESETS_FIRST=None,  # a line the first game of a reset run must hold (its seed moves on)
    # --- the club: its part of a table's page, and the league
    Club=None,  # a plateau.club.state.Fold: its events folded into the page's view
    # how the page draws the view: {"draw": one of club.js's drawings ("ring", "goals",
    # "poker", "tricks")} or {"rows": [[label, key], ...]}, the view's keys as a table; with
    # "seats" the seats' names ({"R": "red"}); with "blinds" its tables play to the
    # scoreboard's blind clock (plateau serve --blinds). A game with a Club is in the league.
    PAGE={"rows": []},
    # seats(settings): the seats a game of these (checked) settings has, as its results name
    # them; the scoreboard names them at a `new` it sends a stand-alone table (club.control).
    # None: its seats are not named from the scoreboard
    seats=None,
)


@functools.cache
def find(name: str) -> SimpleNamespace:
    """A game's host side: its host module's names (plateau/games/<name>), PLAIN's for
    those it has not (all of them without a module); ValueError if the firmware registry
    does not know the game."""
    firmware.declaration(name)
    try:
        module = importlib.import_module(f"plateau.games.{name}")
    except ModuleNotFoundError as e:
        if e.name != f"plateau.games.{name}":
            raise
        return PLAIN
    return SimpleNamespace(**{k: getattr(module, k, v) for k, v in vars(PLAIN).items()})


class Merged(Mapping):
    """One table of what every game's host module gives for one of its names (a dict: its
    SHAPES, its LINES), merged by `merge` from `base` and theirs in the registry's order, on
    first use: the modules that ask (plateau.events, plateau.view) are loaded before the
    games' modules, which use them."""

    def __init__(self, name: str, base: dict, merge: Callable[[list[dict]], dict]) -> None:
        self._name, self._base, self._merge = name, base, merge
        self._all: dict | None = None

    def table(self) -> dict:
        if self._all is None:
            theirs = [getattr(find(g), self._name) for g in names()]
            self._all = self._merge([self._base, *theirs])
        return self._all

    def __getitem__(self, key: str) -> Any:
        return self.table()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.table())

    def __len__(self) -> int:
        return len(self.table())


def harness(which: str) -> tuple[str, ...]:
    """The games a harness (`chaos`, `resets`) plays, those with a generator, as it plays
    them: the games that give their place in its order (ORDER) by it, so that their runs stay
    the same (a game's place seeds them), then every other one in the registry's order."""
    made = [g for g in names() if find(g).script]
    placed = sorted((g for g in made if which in find(g).ORDER), key=lambda g: find(g).ORDER[which])
    return tuple(placed + [g for g in made if g not in placed])


def league() -> tuple[str, ...]:
    """The games the club's league rates: those whose host module folds a table's page."""
    return tuple(g for g in names() if find(g).Club)


# The words the command language itself uses in a command object: its word, its id, and the
# game a `new` names. A setting or a command argument so named could never be sent (`pick
# id=3` read as the command's id; `new gs game=4` as a game's name): adversarial tester's
# finding 25.
RESERVED = ("cmd", "id", "game", "names")


def declaration_trouble() -> str | None:
    """What is wrong with a game's declarations (games/<name>/game.py), in one line naming
    the game, the setting or argument, and why; None if nothing. Every declared default is
    checked against its own kind, the settings' in order as the checker reads them (a game
    ran with target=0 out of its 1..52, and a later `new dflt target=5` was refused for a
    style nobody gave: finding 20), and no name may be one of RESERVED (finding 25). Asked
    once, on the host, before a plateau command runs: the board's heap pays nothing for it."""
    from plateau.fw.games.settings import value

    for name in firmware.GAMES:
        try:
            mod = firmware.declaration(name)
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
