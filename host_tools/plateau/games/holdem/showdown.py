"""`plateau holdem showdown`: who wins what, for a dealer settling a dispute (H6, H7, H9)."""

from __future__ import annotations

import argparse
import json
import sys

from plateau.fw.games.holdem.hands import HandError, card, describe, name
from plateau.fw.games.holdem.pots import build, round_from, settle, uncalled


def _digits(text: str) -> bool:
    """Plain ASCII digits only: int() would also take "２", "٣" or "1_0"."""
    return 0 < len(text) < 12 and all("0" <= c <= "9" for c in text)


MAX_SEATS = 10  # H1: 2 to 10 seats


def _pairs(items: list[str], what: str) -> dict[str, str]:
    out = {}
    for item in items:
        seat, sep, value = item.partition("=")
        if not sep or not seat:
            raise HandError(f"{what} are seat=value, not {item!r}")
        if not _digits(seat) or seat[0] == "0" or int(seat) > MAX_SEATS:
            raise HandError(
                f"seats are numbers round the table, 1 to {MAX_SEATS} (H1), not {seat!r}"
            )
        if seat in out:
            raise HandError(f"seat {seat} is given twice in --{what}")
        out[seat] = value
    return out


def _chips(items: list[str], what: str) -> dict[str, int]:
    out = {}
    for seat, value in _pairs(items, what).items():
        if not _digits(value):
            raise HandError(f"--{what}: seat {seat} put in {value!r}: a whole number of chips")
        out[seat] = int(value)
    return out


def showdown(
    board: str,
    hands: dict[str, str],
    bets: dict[str, int],
    folded: dict[str, int],
    order: list[str],
) -> dict:
    cards = [card(c) for c in board.split()]
    if len(cards) != 5:
        raise HandError(f"the board needs 5 cards, has {len(cards)}")
    held = {s: [card(c) for c in h.split()] for s, h in hands.items()}
    for s, h in held.items():
        if len(h) != 2:
            raise HandError(f"seat {s} needs 2 cards, has {len(h)}")
    seen = cards + [c for h in held.values() for c in h]
    if len(set(seen)) != len(seen):
        dup = sorted({name(c) for c in seen if seen.count(c) > 1})
        raise HandError(f"a card read twice: {' '.join(dup)} (H8)")
    both = sorted(set(bets) & set(folded), key=int)
    if both:  # its chips would count twice, or once and vanish
        raise HandError(f"seat {' '.join(both)} is both still in (--bets) and folded (--folded)")
    contrib = dict(bets)
    contrib.update(folded)
    for s in contrib:
        if contrib[s] < 0:
            raise HandError(f"seat {s} cannot have put in {contrib[s]}")
    if set(hands) != set(bets):
        raise HandError("every seat still in needs its two cards and its bets")
    back = uncalled(contrib, set(folded))
    if back:
        contrib[back[0]] -= back[1]
    pots, values = settle(
        build(contrib, set(folded)), held, cards, [s for s in order if s in contrib]
    )
    won: dict[str, int] = {}
    for _, _, _, shares in pots:
        for s, n in shares.items():
            won[s] = won.get(s, 0) + n
    return {
        "board": board.split(),
        "returned": {back[0]: back[1]} if back else {},
        "pots": [{"amount": a, "eligible": e, "winners": w, "shares": sh} for a, e, w, sh in pots],
        "hands": {
            s: {"category": describe(values[s][0]), "best": [name(c) for c in values[s][1]]}
            for s in held
        },
        "won": won,
    }


def cmd_showdown(args: argparse.Namespace) -> int:
    try:
        hands = _pairs(args.hands, "hands")
        bets = _chips(args.bets, "bets")
        folded = _chips(args.folded or [], "folded")
        # Odd chips go round the table from the left of the button (H7): by seat number,
        # whatever the order of the arguments; the button may have folded or be out.
        button = args.button or "0"
        if args.button is not None and not (
            _digits(button) and button[0] != "0" and int(button) <= MAX_SEATS
        ):
            raise HandError(f"the button is a seat number, 1 to {MAX_SEATS} (H1), not {button!r}")
        result = showdown(args.community, hands, bets, folded, round_from([*bets, *folded], button))
    except (HandError, ValueError) as e:
        print(f"plateau holdem: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result))
        return 0
    for s, h in result["hands"].items():
        print(f"seat {s}: {h['category']:<16} {' '.join(h['best'])}")
    for s, n in result["returned"].items():
        print(f"uncalled {n} back to seat {s}")
    for i, p in enumerate(result["pots"]):
        kind = "main pot" if i == 0 else f"side pot {i}"
        shares = ", ".join(f"seat {s} {n}" for s, n in p["shares"].items())
        print(f"{kind} {p['amount']} (seats {' '.join(p['eligible'])}): {shares}")
    return 0


def add_parser(sub: argparse._SubParsersAction, common=None) -> None:
    h = sub.add_parser("holdem", help="Texas Hold'em: settle a showdown")
    hs = h.add_subparsers(dest="holdem_command", required=True)
    s = hs.add_parser("showdown", help="the pots, the hands and who wins what")
    cards = s.add_mutually_exclusive_group(required=True)
    cards.add_argument("--community", help='the five community cards, e.g. "AS KS QS JS 2D"')
    # its name before --community (the word "board" now means the ESP32 alone), kept working
    cards.add_argument("--board", dest="community", help=argparse.SUPPRESS)
    s.add_argument("--hands", nargs="+", required=True, help='seat=cards, e.g. 1="AH AD"')
    s.add_argument(
        "--bets",
        nargs="+",
        required=True,
        help="chips each seat still in put in this hand, e.g. 1=100 2=60",
    )
    s.add_argument("--folded", nargs="*", help="chips of seats that folded (dead money)")
    s.add_argument(
        "--button",
        help="the button's seat, in the hand or not (odd chips go from its left; "
        "without it, from seat 1)",
    )
    s.add_argument("--json", action="store_true", help="print the result as one JSON object")
    s.set_defaults(func=cmd_showdown)
