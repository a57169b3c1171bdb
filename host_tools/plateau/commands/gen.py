"""`plateau gen`: a random legal game written as a table script (docs/scripts.md), by the
game's generator (its host view module's gen(), found through plateau.registry)."""

from __future__ import annotations

import argparse
import sys

from plateau.commands import SEED, Bounded, out_file, whole, write_out
from plateau.errors import UsageError

# The quickest pace a table follows: the reader looks for a new tag every 40 ms
# (firmware/sense/cards.py) and an action must be seen before the next one; measured, the
# adversarial tester's scripts failed below 60 ms and none failed at 100.
MIN_PACE = 100
SHARE = Bounded(float, 0.0, 1.0, "a share")


def add_gen(sub, common) -> None:
    g = sub.add_parser("gen", help="write a random legal game of any of the four as a table script")
    # choices and ranges: the games' declared settings (firmware/games/*/game.py), checked
    # by the same checker as the board's (a bad value: one line naming it, exit 2)
    g.add_argument(
        "--game", default="tock", help="a game with a generator: tock (default), pocha, ..."
    )
    g.add_argument("--rules", help="Tock's ruleset: classic (default), king-exit, toc-fr")
    g.add_argument("--deck", type=whole(1, 100), default=40, help="Pocha's deck: 40 or 48")
    g.add_argument("--schedule", default="default", help="Pocha: default, short or full")
    g.add_argument(
        "--players",
        type=whole(1, 100),
        default=None,
        help="Tock: 2-4 (4); Pocha: 3, 4, 5, 6 or 8 (4); Hold'em: seats 2-10 (3)",
    )
    g.add_argument(
        "--stacks", default="200", help="Hold'em: chips of every seat (200), or seat by seat"
    )
    g.add_argument(
        "--structure", default="no-limit", help="Hold'em: no-limit, pot-limit, fixed-limit"
    )
    g.add_argument("--draw", action="store_true", help="Pocha: the first dealer drawn at the table")
    g.add_argument("--seed", type=SEED, default=0, help="the same seed writes the same game")
    g.add_argument("--noise", type=SHARE, default=0.02, help="chance of a sensor glitch per action")
    g.add_argument(
        "--pace",
        type=whole(0, 60_000),
        default=150,
        help=f"ms between hand actions ({MIN_PACE} at least, but for Weykick's timed goals)",
    )
    g.add_argument(
        "--mess",
        type=SHARE,
        default=0.0,
        help="Weykick: share of goals (0-1) followed by a table incident that is no goal"
        " (docs/weykick.md); the script is then timed to the ms",
    )
    g.add_argument("-o", "--output", type=out_file, help="file to write (default: stdout)")
    g.set_defaults(func=cmd_gen)


def cmd_gen(args: argparse.Namespace) -> int:
    """The game's generator as its host view module runs it (`gen(args, settings)`, given
    the settings checker; else its generator slot `script(seed, "full")`), after what holds
    for every game: the game has one, the options only some generators read are given to one
    of them (GEN), the pace is one the table follows."""
    from plateau import registry

    made = [g for g in registry.names() if registry.find(g).gen or registry.find(g).script]
    if args.game not in made:
        raise UsageError(f"--game {args.game}: one of {', '.join(made)}")
    view = registry.find(args.game)
    for opt in ("rules", "mess"):  # no default: given, and to a game that has no use for it
        if getattr(args, opt) and opt not in view.GEN:
            owners = "/".join(g for g in made if opt in registry.find(g).GEN)
            raise UsageError(f"--{opt} is {owners}'s; {args.game} has none")
    if args.pace < MIN_PACE and "timed" not in view.GEN:
        raise UsageError(
            f"--pace {args.pace}: at least {MIN_PACE} ms for {args.game}: a card or a pawn must"
            " be seen before the next action (the reader looks for a new tag every 40 ms)"
        )
    if view.gen is None:  # its generator slot alone: the seed is all it reads
        return _out(args.output, view.script(args.seed, "full"), f"{args.game} seed {args.seed}")
    script, summary = view.gen(args, lambda given: _settings(args.game, given))
    return _out(args.output, script, summary)


def _settings(game: str, given: dict) -> dict:
    """The settings a game's table line will hold, checked as the board checks them."""
    from plateau.fw.games.settings import SettingsError, check

    try:
        return check(game, given)
    except SettingsError as e:
        raise UsageError(str(e)) from None


def _out(output: str | None, script: str, summary: str) -> int:
    if output:
        write_out(output, script)
        print(f"{summary} -> {output}", file=sys.stderr)
    else:
        sys.stdout.write(script)
    return 0
