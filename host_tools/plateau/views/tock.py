"""Tock on the host: its generator slot, its plays and its replay."""

from __future__ import annotations

from plateau.view import LEGEND, SQUARE, ring, say, say_board

RULES = ("classic", "king-exit", "toc-fr")
PLAYS = {
    "card": ("card", "seat"),
    "move": ("card", "seat", "kind", "steps", "captures"),
    "discard": ("card", "seat"),
    "undo": ("card", "steps"),
    "win": ("seat",),
}
PLAYED = ("move", "moves")  # what the index counts as a play (its `moves` column), and its name
GEN = ("rules",)  # the options of `plateau gen` only some generators read: this one's
OUTCOME = "win"
CHAOS_SPEED = 40.0  # a Tock game is about 11 minutes of play: 15-20 s under the harness


def script(seed: int, form: str = "full") -> str:
    """A whole generated game (plateau.gen.generate, the one Tock generator): "full" a game
    for four, "short" for two (make test), "chaos" two to four players by the seed."""
    from plateau.gen import generate

    players = {"short": 2, "full": 4, "chaos": 2 + seed % 3}[form]
    return generate(RULES[seed % 3], players, seed).script


def replay():
    """A new `plateau replay` checker of one game: move by move with the rules core, the
    live view's follower (plateau.follow)."""
    from plateau.follow import TockFollower

    return TockFollower()


def gen(args, settings) -> tuple[str, str]:
    """`plateau gen --game tock`: (the script, a summary) from the command's options."""
    from plateau.gen import generate

    players = args.players if args.players is not None else 4
    rules = settings({"players": players, "rules": args.rules or "classic"})["rules"]
    game = generate(rules, players, args.seed, noise=args.noise, pace=args.pace)
    return game.script, (
        f"{len(game.moves)} moves, {len(game.discards)} discards, winner {game.winner}"
    )


class Live:
    """Tock in the live view: each event checked with the rules core (a line `!!` says why
    one does not follow) and the board drawn after every move (`board`: "ring", "rows" or
    "none"), the squares an `illegal` names marked."""

    def __init__(self, board: str) -> None:
        from plateau.follow import TockFollower

        self.board = board
        self.follower = TockFollower()
        self.marks: set[str] = set()  # squares the last `illegal` named
        self.legend = True  # said once, under the first board drawn

    def show(self, ev: dict) -> None:
        from plateau.follow import Mismatch

        try:
            self.follower.feed(ev)
        except Mismatch as e:
            say(f"      !! {e}", flush=True)
            return
        kind = ev.get("type")
        if kind == "illegal":
            self.marks = set(SQUARE.findall(str(ev.get("fix", ""))))
        elif kind in ("move", "undo", "game", "corrected", "resumed"):
            self.marks = set()
        if kind in ("move", "undo", "game", "win", "illegal"):
            self.draw()

    def draw(self) -> None:
        if self.board == "rows":
            say_board(self.follower, flush=True)
        elif self.board == "ring":
            for line in ring(self.follower, self.marks):
                say(line, flush=True)
            if self.legend and self.follower.pos is not None:
                for line in LEGEND.split("\n"):
                    say("   " + line, flush=True)
                self.legend = False


def kill_place(verb: str, raw: str, seen: dict) -> tuple[str | None, str | None]:
    """Where a kill hurts a Tock game most (plateau resets), at a script line: (the place this
    line is, the stretch it starts: "" ends one, None goes on): moving a pawn, a seven's
    split, the pile holding the deck's last card."""
    if verb == "card":
        seen["cards"] = seen.get("cards", 0) + 1
        if seen["cards"] % 52 == 0:
            return None, "pile holds the deck's last card"
        return None, "seven" if raw.split()[1].startswith("7") else ""
    if verb == "gather":
        return None, ""
    return ("mid-move" if verb == "lift" else None), None
