"""`plateau replay` of a Hold'em session (H4, H6, H9), from its events alone: chips are
neither made nor lost (the stacks after every hand add up to what the table started with),
every pot is shared out in full, and no seat checks, calls or bets on a street before its
community cards are laid (a fold may come at any time). The first event that does not follow
is reported with why."""

from __future__ import annotations

from plateau.games import Mismatch


class HoldemChecker:
    def __init__(self) -> None:
        self.chips: int | None = None
        self.hands = 0
        self.stacks: dict[str, int] = {}
        self.board: int | None = None  # community cards laid this hand; None: not known

    BOARD_DUE = {"flop": 3, "turn": 4, "river": 5}

    def feed(self, ev: dict) -> None:
        kind = ev.get("type")
        if kind == "hand_start":
            self.board = 0
        elif kind in ("card", "snapshot", "resumed") and isinstance(ev.get("board"), list):
            self.board = len(ev["board"])
        elif kind in ("gap", "bad", "retake"):
            self.board = None  # a card may be among the events lost
        elif kind == "action" and ev.get("action") != "fold" and self.board is not None:
            due = self.BOARD_DUE.get(str(ev.get("street")), 0)
            if self.board < due:
                raise Mismatch(
                    f"seat {ev.get('seat')} {ev.get('action')} on the {ev['street']} with "
                    f"{self.board} of {due} community cards laid (H4)"
                )
        if kind == "hand_start" and "stacks" in ev:
            total = sum(ev["stacks"].values()) + sum(ev.get("blinds", {}).values())
            if self.chips is None:
                self.chips = total
            elif total != self.chips:
                raise Mismatch(f"hand start: {total} chips at the table, {self.chips} before")
        elif kind == "pot":
            if sum(ev["shares"].values()) != ev["amount"]:
                raise Mismatch(f"a pot of {ev['amount']} shared out as {ev['shares']} (H6)")
        elif kind == "hand_end" and "stacks" in ev:
            total = sum(ev["stacks"].values())
            if self.chips is not None and total != self.chips:
                raise Mismatch(f"after the hand the stacks hold {total} chips, not {self.chips}")
            self.stacks = dict(ev["stacks"])
            self.hands += 1

    def summary(self) -> list[str]:
        stacks = " ".join(f"{s}:{n}" for s, n in sorted(self.stacks.items()))
        return [f"holdem: {self.hands} hands, chips kept ({self.chips}); stacks {stacks or '-'}"]

    def state(self) -> dict:
        return {"game": "holdem", "stacks": self.stacks}
