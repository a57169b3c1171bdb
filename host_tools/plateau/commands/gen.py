"""`plateau gen`: a random legal game written as a table script (docs/scripts.md), by the
game's generator (its host module's gen(), found through plateau.games): the common options
here, each game's own added by its gen_options."""

from __future__ import annotations

import argparse
import sys

from plateau.commands import SEED, out_file, whole, write_out
from plateau.errors import UsageError

# The quickest pace a table follows: the reader looks for a new tag every 40 ms
# (firmware/sense/cards.py) and an action must be seen before the next one; measured, the
# adversarial tester's scripts failed below 60 ms and none failed at 100.
MIN_PACE = 100


def add_gen(sub, common) -> None:
    from plateau import games

    made = _made()
    g = sub.add_parser(
        "gen",
        help="write a random legal game of one of the registry's games as a table script: "
        + ", ".join(made),
        description="A random legal game as a table script (docs/scripts.md), written by the "
        "game's generator; its settings checked as the board checks them (a bad value: one "
        "line naming it, exit 2). Each game's own options follow the common ones.",
    )
    g.add_argument(
        "--game",
        default=made[0] if made else None,
        help=f"the game: {', '.join(made)} (default {made[0] if made else 'none'})",
    )
    players = [f"{n}: {games.find(n).PLAYERS}" for n in made if games.find(n).PLAYERS]
    # every option that is not common belongs to the games that declare it: --players to
    # those with a PLAYERS, the others to the game whose gen_options adds them
    owners: dict[str, list[str]] = {"players": [n for n in made if games.find(n).PLAYERS]}
    owned = g.add_argument(
        "--players",
        type=whole(1, 100),
        default=None,
        help="how many play (" + "; ".join(players) + ")",
    )
    g.add_argument("--seed", type=SEED, default=0, help="the same seed writes the same game")
    g.add_argument(
        "--pace",
        type=whole(0, 60_000),
        default=150,
        help=f"ms between hand actions ({MIN_PACE} at least, but for a timed script's game)",
    )
    g.add_argument("-o", "--output", type=out_file, help="file to write (default: stdout)")
    noted = [owned]
    for name in made:  # each game's own options, in a group of its own
        options = games.find(name).gen_options
        if options:
            group = g.add_argument_group(f"{name} (--game {name})")
            options(group)
            for action in group._group_actions:
                owners.setdefault(action.dest, []).append(name)
                noted.append(action)
    for action in noted:
        _note_given(action)
    g.set_defaults(func=cmd_gen, owners=owners)


def _note_given(action: argparse.Action) -> None:
    """Makes the option record, when it is given on the command line, its name in the
    namespace's `given` (a default, even a true one, is not given; a value equal to the
    default is)."""
    kind = type(action)

    def __call__(self, parser, namespace, values, option_string=None):
        namespace.given = getattr(namespace, "given", set()) | {self.dest}
        kind.__call__(self, parser, namespace, values, option_string)

    action.__class__ = type("Noted" + kind.__name__, (kind,), {"__call__": __call__})


def _made() -> list[str]:
    """The games of the registry with a generator."""
    from plateau import games

    return [n for n in games.names() if games.find(n).gen or games.find(n).script]


def cmd_gen(args: argparse.Namespace) -> int:
    """The game's generator as its host module runs it (`gen(args, settings)`, given the
    settings checker; else its generator `script(seed, "full")`), after what holds for every
    game: the game has one, the options only some generators read are given to one of them
    (GEN), the pace is one the table follows."""
    from plateau import games

    made = _made()
    if args.game not in made:
        raise UsageError(f"--game {args.game}: one of {', '.join(made)}")
    host = games.find(args.game)
    for dest in sorted(getattr(args, "given", ())):  # an option of another game: refused
        if args.game not in args.owners[dest]:
            owners = "/".join(args.owners[dest])
            raise UsageError(f"--{dest.replace('_', '-')} is {owners}'s; {args.game} has none")
    if args.pace < MIN_PACE and "timed" not in host.GEN:
        raise UsageError(
            f"--pace {args.pace}: at least {MIN_PACE} ms for {args.game}: a card or a pawn must"
            " be seen before the next action (the reader looks for a new tag every 40 ms)"
        )
    if host.gen is None:  # its generator alone: the seed is all it reads
        return _out(args.output, host.script(args.seed, "full"), f"{args.game} seed {args.seed}")
    script, summary = host.gen(args, lambda given: _settings(args.game, given))
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
