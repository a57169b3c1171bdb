"""`plateau gen`: a random legal game of any of the four written as a table script
(docs/scripts.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from plateau.commands import SEED, Bounded, out_file, whole
from plateau.errors import UsageError

GAMES = ("tock", "pocha", "holdem", "weykick")
# The quickest pace a table follows: the reader looks for a new tag every 40 ms
# (firmware/sense/cards.py) and an action must be seen before the next one; measured, the
# adversarial tester's scripts failed below 60 ms and none failed at 100.
MIN_PACE = 100
SHARE = Bounded(float, 0.0, 1.0, "a share")


def add_gen(sub, common) -> None:
    g = sub.add_parser("gen", help="write a random legal game of any of the four as a table script")
    # choices and ranges: the games' declared settings (firmware/games/*/game.py), checked
    # by the same checker as the board's (a bad value: one line naming it, exit 2)
    g.add_argument("--game", default="tock", help="tock (default), pocha, holdem or weykick")
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
    from plateau.fw.games.settings import SettingsError, check
    from plateau.gen import generate, generate_holdem, generate_pocha, generate_weykick

    if args.game not in GAMES:
        raise UsageError(f"--game {args.game}: one of {', '.join(GAMES)}")
    if args.rules is not None and args.game != "tock":
        raise UsageError(f"--rules is Tock's; {args.game} has none")
    if args.pace < MIN_PACE and args.game != "weykick":
        raise UsageError(
            f"--pace {args.pace}: at least {MIN_PACE} ms for {args.game}: a card or a pawn must"
            " be seen before the next action (the reader looks for a new tag every 40 ms)"
        )
    if args.mess and args.game != "weykick":
        raise UsageError(f"--mess is Weykick's; {args.game} has no table incidents")
    rules = args.rules or "classic"
    players = args.players if args.players is not None else (3 if args.game == "holdem" else 4)
    given = {
        "tock": {"players": players, "rules": rules},
        "pocha": {"players": players, "deck": args.deck, "schedule": args.schedule},
        "holdem": {"seats": players, "stacks": args.stacks, "structure": args.structure},
        "weykick": {},
    }[args.game]
    try:  # the settings the game's table line will hold, checked as the board checks them
        typed = check(args.game, given)
    except SettingsError as e:
        raise UsageError(str(e)) from None
    if args.game in ("holdem", "weykick"):
        if args.game == "holdem":
            session = generate_holdem(
                seats=players,
                seed=args.seed,
                pace=args.pace,
                stacks=typed["stacks"],
                structure=args.structure,
            )
            script = session.script
            summary = f"{len(session.hands)} hands, stacks {session.hands[-1]['stacks']}"
        else:
            series = generate_weykick(seed=args.seed, pace=args.pace, mess=args.mess)
            script = series.script
            summary = f"{len(series.matches)} matches, winner {series.winner}"
        return _out(args.output, script, summary)
    if args.game == "pocha":
        pocha = generate_pocha(
            players, args.deck, args.schedule, args.seed, args.pace, draw=args.draw
        )
        return _out(args.output, pocha.script, f"{len(pocha.hands)} hands, ranking {pocha.ranking}")
    game = generate(rules, players, args.seed, noise=args.noise, pace=args.pace)
    summary = f"{len(game.moves)} moves, {len(game.discards)} discards, winner {game.winner}"
    return _out(args.output, game.script, summary)


def _out(output: str | None, script: str, summary: str) -> int:
    if output:
        Path(output).write_text(script)
        print(f"{summary} -> {output}", file=sys.stderr)
    else:
        sys.stdout.write(script)
    return 0
