"""Texas Hold'em on the host: its generator slot, its plays and its replay."""

from __future__ import annotations

from plateau.view import say

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
CHAOS_SPEED = 6.0


def script(seed: int, form: str = "full") -> str:
    """A generated session (plateau.gen.generate_holdem, the one Hold'em generator): "full"
    10 hands, "short" 4, two to four seats by the seed with uneven stacks, every structure
    (H1, H3), the button drawn; "chaos" 50 hands at three to six seats."""
    from plateau.gen import generate_holdem

    if form == "chaos":
        return generate_holdem(3 + seed % 4, 50, seed=seed).script
    seats = 2 + seed % 3
    stacks = [(20, 60, 100, 150)[(seed + k) % 4] for k in range(seats)]
    structure = ("no-limit", "pot-limit", "fixed-limit")[seed // 2 % 3]
    hands = 4 if form == "short" else 10
    return generate_holdem(seats, hands, seed, stacks, draw=True, structure=structure).script


def replay():
    """A new `plateau replay` checker of one game: its chips and pots, H6 and H9
    (plateau.rechecks)."""
    from plateau.rechecks import Holdem

    return Holdem()


def gen(args, settings) -> tuple[str, str]:
    """`plateau gen --game holdem`: (the script, a summary) from the command's options."""
    from plateau.gen import generate_holdem

    seats = args.players if args.players is not None else 3
    typed = settings({"seats": seats, "stacks": args.stacks, "structure": args.structure})
    session = generate_holdem(
        seats=seats,
        seed=args.seed,
        pace=args.pace,
        stacks=typed["stacks"],
        structure=args.structure,
    )
    return session.script, f"{len(session.hands)} hands, stacks {session.hands[-1]['stacks']}"


class Live:
    """Hold'em in the live view: after each event that changes them, a line with the board,
    the pot, whose turn and the stacks."""

    def __init__(self, board: str) -> None:
        self.board: list[str] = []
        self.start: dict = {}  # each seat's chips at the hand's start, blinds included
        self.stacks: dict = {}

    def show(self, ev: dict) -> None:
        kind = ev.get("type")
        if kind == "hand_start" and "stacks" in ev:
            start = dict(ev["stacks"])
            for seat, chips in ev.get("blinds", {}).items():
                start[seat] = start.get(seat, 0) + chips
            self.board, self.start, self.stacks = [], start, dict(ev["stacks"])
        elif kind == "action" and "seat" in ev and "stack" in ev:
            self.stacks[ev["seat"]] = ev["stack"]
        elif kind == "card" and "board" in ev:
            self.board = ev["board"]
        elif kind == "hand_end" and "stacks" in ev:
            self.stacks = dict(ev["stacks"])
        else:
            return
        if not self.start:
            return
        pot = sum(self.start.values()) - sum(self.stacks.get(s, 0) for s in self.start)
        turn = ev.get("to_act")
        say(
            f"      board {' '.join(self.board) or '-'} | pot {pot} | "
            + (f"to act: seat {turn} | " if turn else "")
            + "stacks "
            + " ".join(f"{s}:{n}" for s, n in sorted(self.stacks.items())),
            flush=True,
        )


def kill_place(verb: str, raw: str, seen: dict) -> tuple[str | None, str | None]:
    """Where a kill hurts a Hold'em session most (plateau resets), at a script line: (the
    place this line is, the stretch it starts: "" ends one, None goes on): the draw for the
    button."""
    if raw.startswith("send draw"):
        return None, "draw"
    return None, ("" if verb == "gather" else None)
