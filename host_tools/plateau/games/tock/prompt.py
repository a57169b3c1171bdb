"""`plateau tock moves` and `plateau tock check`: the rules core at the prompt."""

from __future__ import annotations

import argparse
import json
import sys

from plateau.fw.games.cards import CardError
from plateau.fw.games.tock.rules import (
    CELLS,
    COLOURS,
    REACH,
    Card,
    Illegal,
    Position,
    PositionError,
    parse_square,
    square_name,
)


def load_position(path: str) -> Position:
    """A position file (T4 JSON) read as every user's file is (commands.read_json: UTF-8,
    bounded in size and nesting), then checked by the rules core."""
    from plateau.commands import read_json

    try:
        return Position.from_dict(read_json(path))
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


def cmd_hints(args: argparse.Namespace) -> int:
    """What the board lights for a card (Position.reach): the pawns it can move, and where
    each can end (one JSON object; with --pawn, that pawn's alone)."""
    pos = load_position(args.position)
    card = Card(args.card)
    out = bytearray(REACH)

    def name(s: int) -> str:
        return "camp:" + COLOURS[s - CELLS] if s >= CELLS else square_name(s)

    def ends(s: int) -> list[str]:
        pos.reach(card, out, s)
        return [square_name(q) for q in range(CELLS) if out[q]]

    if args.pawn is not None:
        text = args.pawn
        s = parse_square(text)
        if text.startswith("camp:") and len(text) == 6 and text[5] in COLOURS:
            s = CELLS + COLOURS.index(text[5])
        if s is None or (s < CELLS and not pos.cells[s]):
            raise PositionError(f"no pawn on {text!r} (a square with a pawn, or camp:R ...)")
        print(json.dumps({"card": str(card), "pawn": name(s), "ends": ends(s)}))
        return 0
    pos.reach(card, out)
    pawns = [s for s in range(REACH) if out[s]]
    hints = {name(s): ends(s) for s in pawns}
    print(json.dumps({"card": str(card), "pawns": [name(s) for s in pawns], "ends": hints}))
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    pos = load_position(args.position)
    after = load_position(args.after)
    card = Card(args.card)
    try:
        m = pos.check(card, after)
    except Illegal as e:
        # T17: a card with no legal move is discarded, so nothing moved is its one right
        # outcome (the board says `discard`; `moves` prints this placement as its `after`)
        if pos.winner() is None and not pos.has_move(card):
            if pos.same_placement(after):
                print(f"legal: {card} has no legal move: discarded, nothing moves (T17)")
                return 0
            print(f"illegal: {card} has no legal move: it is discarded, nothing moves (T17)")
            return 1
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
    h = tsub.add_parser(
        "hints", help="what the board lights for a card: the pawns it moves, where each ends"
    )
    h.add_argument("--position", required=True, help="position file (T4 JSON)")
    h.add_argument("--card", required=True, help="card: 7H, 10C, QS, X ...")
    h.add_argument("--pawn", help="one pawn's ends only: its square (R5), or camp:R")
    h.set_defaults(func=run(cmd_hints))
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
