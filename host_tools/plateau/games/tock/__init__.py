"""Tock on the host: everything the host tools know of it (plateau.games lists the names).
Its generator is in generate.py, its rules checker in checker.py (replay, the live view and
the club's page follow a game move by move with it), its board drawn in the live view in
live.py, its part of the club's page in club.py."""

from __future__ import annotations

from plateau.commands import Bounded
from plateau.events import is_obj, is_steps, is_text, maybe
from plateau.games.tock.club import Club as Club  # its part of the club's page
from plateau.games.tock.live import Live as Live  # its part of the live view
from plateau.index import scalar

RULES = ("classic", "king-exit", "toc-fr")

# --- its events ------------------------------------------------------------------------------

SHAPES = {
    "snapshot": {"position": (is_obj, False)},
    "game": {"position": (is_obj, False)},
    "card": {"card": (is_text, True), "seat": (maybe(is_text), False)},
    "move": {"card": (is_text, True), "seat": (is_text, True), "steps": (is_steps, True)},
    "discard": {"card": (is_text, True)},
    "undo": {"steps": (is_steps, False), "card": (maybe(is_text), False)},
    "resumed": {"position": (is_obj, False), "card": (maybe(is_text), False)},
    "win": {"seat": (is_text, True)},
}
LINES = {
    "move": lambda r, ev: (
        f"{r['seat']} plays {r['card']}: "
        + ", ".join(f"{a}->{b}" for a, b in r["steps"])
        + (f" ({r['kind']})" if r.get("kind") else "")
        + (f", captures {' '.join(map(str, r['captures']))}" if r.get("captures") else "")
    ),
    "discard": lambda r, ev: f"{r['seat']} discards {r['card']}: {r['why']}",
    "illegal": lambda r, ev: (
        f"ILLEGAL{' ' + r['card'] if r.get('card') else ''}: {r['why']}. To put it right: "
        f"{r['fix']}"
    ),
}

# --- its plays and their outcome --------------------------------------------------------------

PLAYS = {
    "card": ("card", "seat"),
    "move": ("card", "seat", "kind", "steps", "captures"),
    "discard": ("card", "seat"),
    "undo": ("card", "steps"),
    "win": ("seat",),
}


def compared(ev: dict, fields: dict) -> dict:
    """A play's fields as plateau resets compares them: a Jack's two steps in any order."""
    if ev["type"] == "move" and fields["kind"] == "swap":
        fields["steps"] = sorted(fields["steps"] or [])
    return fields


PLAYED = ("move", "moves")  # what the index counts as a play (its `moves` column), and its name
OUTCOME = "win"


def winner(ev: dict, before: object) -> object:
    """The winner of a game once `ev` is played: the seat a `win` names; none once an undo
    takes a move back (a win ends a game: the move undone was the winning one)."""
    if ev["type"] == "win":
        return scalar(ev.get("seat")) or before
    if ev["type"] == "undo" and "steps" in ev:
        return None
    return before


def replay():
    """A new `plateau replay` checker of one game: move by move with the rules core."""
    from plateau.games.tock.checker import TockChecker

    return TockChecker()


# --- its generator ----------------------------------------------------------------------------

PLAYERS = "2-4 (4)"  # what `plateau gen --players` means for it


def gen_options(group) -> None:
    """Its options of `plateau gen` (an argparse group of their own)."""
    group.add_argument("--rules", help="Tock's ruleset: classic (default), king-exit, toc-fr")
    group.add_argument(
        "--noise",
        type=Bounded(float, 0.0, 1.0, "a share"),
        default=0.02,
        help="chance of a sensor glitch per action",
    )


def script(seed: int, form: str = "full") -> str:
    """A whole generated game (the one Tock generator): "full" a game for four, "short" for
    two (make test), "chaos" two to four players by the seed."""
    from plateau.games.tock.generate import generate

    players = {"short": 2, "full": 4, "chaos": 2 + seed % 3}[form]
    return generate(RULES[seed % 3], players, seed).script


def gen(args, settings) -> tuple[str, str]:
    """`plateau gen --game tock`: (the script, a summary) from the command's options."""
    from plateau.games.tock.generate import generate

    players = args.players if args.players is not None else 4
    rules = settings({"players": players, "rules": args.rules or "classic"})["rules"]
    game = generate(rules, players, args.seed, noise=args.noise, pace=args.pace)
    return game.script, (
        f"{len(game.moves)} moves, {len(game.discards)} discards, winner {game.winner}"
    )


# --- the harnesses ----------------------------------------------------------------------------

ORDER = {"chaos": 0, "resets": 0}  # its place in the harnesses' orders: it seeds their runs
CHAOS_SPEED = 40.0  # a Tock game is about 11 minutes of play: 15-20 s under the harness


def kill_place(n: int, verb: str | None, raw: str, seen: dict) -> tuple[list, str | None]:
    """Where a kill hurts a Tock game most (plateau resets), at script line n: the places
    it marks ([(kind, line)]) and the stretch it starts ("" ends one, None goes on): inside
    a Jack swap, moving a pawn, a seven's split, the pile holding the deck's last card."""
    if raw.startswith("# jack swap"):  # after the first, second and third of its 4 actions
        return [("jack swap", n + k) for k in (1, 2, 3)], None
    if verb == "card":
        seen["cards"] = seen.get("cards", 0) + 1
        if seen["cards"] % 52 == 0:
            return [], "pile holds the deck's last card"
        return [], "seven" if raw.split()[1].startswith("7") else ""
    if verb == "gather":
        return [], ""
    return ([("mid-move", n)] if verb == "lift" else []), None


# --- the club's page: club.js's board of the ring (club.py folds its view) ---------------------

PAGE = {"draw": "ring", "seats": {"R": "red", "G": "green", "B": "blue", "Y": "yellow"}}


def seats(settings: dict) -> list[str]:
    """The seats a game of these settings (checked) has, as a `win` names them: a colour, or
    two (R+B) when two players each play a diagonal pair (T5): the scoreboard names them at
    `new`."""
    from plateau.fw.games.tock.rules import COLOURS, Position

    pos = settings.get("position")
    p = Position.start(pos) if pos else Position(settings["players"], settings["rules"])
    return list(dict.fromkeys("+".join(COLOURS[c] for c in p.seat_colours(s)) for s in p.colours()))
