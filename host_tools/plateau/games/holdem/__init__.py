"""Texas Hold'em on the host: everything the host tools know of it (plateau.games lists the
names). Its generator is in generate.py, its replay checker in checker.py, its part of the
club's page in club.py."""

from __future__ import annotations

from plateau.events import is_amounts, is_int, is_text, is_texts
from plateau.games.holdem.club import Club as Club  # its part of the club's page
from plateau.index import scalar
from plateau.view import say, seats_line

# --- its events ------------------------------------------------------------------------------

SHAPES = {
    "card": {"card": (is_text, True), "board": (is_texts, False)},
    # Pocha's hand_start and hand_end carry other fields
    "hand_start": {"stacks": (is_amounts, False), "blinds": (is_amounts, False)},
    "action": {"seat": (is_text, False), "stack": (is_int, False)},
    "hand_end": {"stacks": (is_amounts, False)},
}
LINES = {
    "action": lambda r, ev: (
        f"seat {r['seat']} {r['action']}"
        + (f" {r['bet']}" if r.get("bet") and r["action"] not in ("check", "fold") else "")
        + f"   ({r.get('street')}; stack {r.get('stack')})"
    ),
    "hand": lambda r, ev: f"seat {r['seat']}: {r['category']}   {' '.join(r['best'])}",
    "pot": lambda r, ev: (
        f"{r['amount']} (seats {' '.join(map(str, r['eligible']))}) -> "
        + ", ".join(f"seat {s} wins {n}" for s, n in sorted(r["shares"].items()))
    ),
    "hand_start": lambda r, ev: (
        f"button seat {r['button']}, blinds {seats_line(r['blinds'])}, "
        + (f"to act: seat {r['to_act']}" if r.get("to_act") else "no betting: the cards are turned")
        + f"   stacks {seats_line(r['stacks'])}"
    ),
    "blinds": lambda r, ev: f"blinds {r['blinds']} from the next hand (big bet {r.get('big_bet')})",
    "hand_end": lambda r, ev: f"stacks {seats_line(r['stacks'])}",
}

# --- its plays and their outcome --------------------------------------------------------------

PLAYS = {
    "draw": ("seats",),
    "button": ("seat",),
    "hand_start": ("button", "blinds", "stacks", "to_act"),
    "action": ("seat", "action", "bet", "stack", "to_act", "street"),
    "card": ("card", "seat", "board", "hole", "draw"),
    "street": ("street", "to_act"),
    "show": ("seat",),
    "hand": ("seat", "category", "best"),
    "pot": ("amount", "eligible", "winners", "shares"),
    "hand_end": ("stacks",),
}
PLAYED = ("hand_end", "hands")  # what the index counts as a play (its `moves` column), and its name
OUTCOME = "hand_end"


def winner(ev: dict, before: object) -> object:
    """The winner once `ev` is played: a hand that leaves one seat with every chip."""
    if ev["type"] == "hand_end" and isinstance(ev.get("stacks"), dict):
        left = [s for s, chips in ev["stacks"].items() if chips]
        won = scalar(left[0]) if len(left) == 1 and len(ev["stacks"]) > 1 else None
        return won or before
    return before


def replay():
    """A new `plateau replay` checker of one game: its chips and pots, H6 and H9."""
    from plateau.games.holdem.checker import HoldemChecker

    return HoldemChecker()


# --- its generator ----------------------------------------------------------------------------

PLAYERS = "seats 2-10 (3)"  # what `plateau gen --players` means for it


def gen_options(group) -> None:
    """Its options of `plateau gen` (an argparse group of their own)."""
    from plateau.commands import Bounded

    group.add_argument("--stacks", default="200", help="chips of every seat (200), or seat by seat")
    group.add_argument("--structure", default="no-limit", help="no-limit, pot-limit, fixed-limit")
    group.add_argument(
        "--hands",
        type=Bounded(int, 1, 10000, "a number of hands"),
        default=200,
        help="hands at most (200): the game is played until one seat has every chip, the"
        " blinds doubled every 10 hands (send blinds), so that it ends",
    )
    group.add_argument(
        "--no-end",
        action="store_true",
        help="play --hands hands at blinds 1/2 whatever the chips (a new table when one seat"
        " has them all)",
    )


def script(seed: int, form: str = "full") -> str:
    """A generated session (the one Hold'em generator): "full" 10 hands, "short" 4, two to
    four seats by the seed with uneven stacks, every structure (H1, H3), the button drawn;
    "chaos" 50 hands at three to six seats."""
    from plateau.games.holdem.generate import generate

    if form == "chaos":
        return generate(3 + seed % 4, 50, seed=seed).script
    seats = 2 + seed % 3
    stacks = [(20, 60, 100, 150)[(seed + k) % 4] for k in range(seats)]
    structure = ("no-limit", "pot-limit", "fixed-limit")[seed // 2 % 3]
    hands = 4 if form == "short" else 10
    return generate(seats, hands, seed, stacks, draw=True, structure=structure).script


def gen(args, settings) -> tuple[str, str]:
    """`plateau gen --game holdem`: (the script, a summary) from the command's options."""
    from plateau.games.holdem.generate import generate

    seats = args.players if args.players is not None else 3
    typed = settings({"seats": seats, "stacks": args.stacks, "structure": args.structure})
    session = generate(
        seats=seats,
        hands=args.hands,
        seed=args.seed,
        pace=args.pace,
        stacks=typed["stacks"],
        structure=args.structure,
        to_the_end=not args.no_end,
    )
    last = session.hands[-1]["stacks"]
    won = [s for s, n in last.items() if n > 0]
    end = f", seat {won[0]} has every chip" if len(won) == 1 else ", no winner yet"
    return session.script, f"{len(session.hands)} hands, stacks {last}{end}"


# --- the live view ----------------------------------------------------------------------------


class Live:
    """Hold'em in the live view: after each event that changes them, a line with the board,
    the pot, whose turn and the stacks."""

    def __init__(self, draw: str) -> None:
        self.community: list[str] = []
        self.start: dict = {}  # each seat's chips at the hand's start, blinds included
        self.stacks: dict = {}

    def show(self, ev: dict) -> None:
        kind = ev.get("type")
        if kind == "hand_start" and "stacks" in ev:
            start = dict(ev["stacks"])
            for seat, chips in ev.get("blinds", {}).items():
                start[seat] = start.get(seat, 0) + chips
            self.community, self.start, self.stacks = [], start, dict(ev["stacks"])
        elif kind == "action" and "seat" in ev and "stack" in ev:
            self.stacks[ev["seat"]] = ev["stack"]
        elif kind == "card" and "board" in ev:
            self.community = ev["board"]
        elif kind == "hand_end" and "stacks" in ev:
            self.stacks = dict(ev["stacks"])
        else:
            return
        if not self.start:
            return
        pot = sum(self.start.values()) - sum(self.stacks.get(s, 0) for s in self.start)
        turn = ev.get("to_act")
        say(
            f"      board {' '.join(self.community) or '-'} | pot {pot} | "
            + (f"to act: seat {turn} | " if turn else "")
            + "stacks "
            + " ".join(f"{s}:{n}" for s, n in sorted(self.stacks.items())),
            flush=True,
        )


# --- the harnesses ----------------------------------------------------------------------------

ORDER = {"chaos": 3, "resets": 2}  # its place in the harnesses' orders: it seeds their runs
CHAOS_SPEED = 6.0


def kill_place(n: int, verb: str | None, raw: str, seen: dict) -> tuple[list, str | None]:
    """Where a kill hurts a Hold'em session most (plateau resets), at script line n: (the
    places it marks, the stretch it starts: "" ends one, None goes on): at showdown, in a
    hand, the draw for the button."""
    if raw.startswith("# showdown"):
        return [("showdown", n + 1)], None
    if raw.startswith("# hand "):
        return [], "hand"
    if raw.startswith("send draw"):
        return [], "draw"
    return [], ("" if verb == "gather" else None)


# --- the club's page: club.js's community cards, pots and stacks (club.py folds its view) ----

# "blinds": its tables play to the scoreboard's blind clock (plateau serve --blinds)
PAGE = {"draw": "poker", "blinds": True}


def seats(settings: dict) -> list[str]:
    """Seats 1 to `seats` (checked settings): the scoreboard names them at `new`."""
    return [str(i) for i in range(1, settings["seats"] + 1)]
