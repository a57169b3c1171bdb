"""`plateau tock moves` and `plateau tock check`: the rules core at the prompt."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from plateau.fw.games.cards import CardError
from plateau.fw.games.tock.rules import Card, Illegal, Position, PositionError


def load_position(path: str) -> Position:
    try:
        text = Path(path).read_text()
    except OSError as e:
        raise PositionError(f"cannot read {path}: {e.strerror}") from e
    try:
        return Position.parse(text)
    except PositionError as e:
        raise PositionError(f"{path}: {e}") from e


def cmd_moves(args: argparse.Namespace) -> int:
    pos = load_position(args.position)
    moves = pos.legal_moves(Card(args.card))
    if not moves:
        print(
            json.dumps(
                {
                    "card": args.card,
                    "moves": [],
                    "discard": True,
                    "after": pos.discard(Card(args.card)).to_dict(),
                }
            )
        )
        return 0
    for m in moves:
        print(json.dumps(m.to_dict()))
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    pos = load_position(args.position)
    after = load_position(args.after)
    try:
        m = pos.check(Card(args.card), after)
    except Illegal as e:
        print(f"illegal: {e.why}")
        return 1
    print(f"legal: {m.describe()}")
    return 0


def add_parser(sub: argparse._SubParsersAction, common=None) -> None:
    t = sub.add_parser("tock", help="Tock rules: legal moves of a card, or check a move")
    tsub = t.add_subparsers(dest="tock_command", required=True)
    m = tsub.add_parser("moves", help="the legal moves of a card, one JSON object a line")
    m.add_argument("--position", required=True, help="position file (T4 JSON)")
    m.add_argument("--card", required=True, help="card: 7H, 10C, QS, X ...")
    m.set_defaults(func=run(cmd_moves))
    c = tsub.add_parser("check", help="is AFTER reachable from POSITION with this card?")
    c.add_argument("--position", required=True, help="position before (T4 JSON)")
    c.add_argument("--card", required=True, help="the card played")
    c.add_argument("--after", required=True, help="position seen after (T4 JSON)")
    c.set_defaults(func=run(cmd_check))


def run(fn):
    """Bad input is a clear message and exit status 2, never a traceback."""

    def wrapped(args: argparse.Namespace) -> int:
        try:
            return fn(args)
        except (PositionError, CardError) as e:
            print(f"plateau tock: {e}", file=sys.stderr)
            return 2
        except Illegal as e:  # the game is over (T19)
            print(f"plateau tock: {e.why}", file=sys.stderr)
            return 2

    return wrapped
