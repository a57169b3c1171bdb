"""`plateau replay` of a Hold'em session (H4, H6, H7, H9), from its events alone: chips are
neither made nor lost (the stacks after every hand add up to what the table started with),
every pot is shared out in full among its winners, a pot contested at showdown goes to the
best hand of the seats that could win it (each shown hand valued with the host's copy of the
rules core, `plateau.fw.games.holdem.hands`, from its hole cards and the community cards),
no seat ends a hand with fewer chips than its last bet and its pots left it, and no seat
checks, calls or bets on a street before its community cards are laid (a fold may come at any
time). A table is won when one seat has every chip; its places are the seats by when they went
out (those out in the same hand by their chips as it began). The first event that does not
follow is reported with why.

A table's chips at its start are the board's word (H1 lets a table start with any stacks):
what the log cannot tell, a pot whose hands were not all shown, is not checked."""

from __future__ import annotations

from plateau.fw.games.holdem.hands import CATEGORIES, HandError, card, evaluate
from plateau.games import Mismatch


class HoldemChecker:
    def __init__(self) -> None:
        self.chips: int | None = None
        self.hands = 0
        self.stacks: dict[str, int] = {}
        self.board: int | None = None  # community cards laid this hand; None: not known
        self.community: list[str] = []
        self.hole: dict[str, list[str]] = {}  # cards shown this hand, by seat
        self.last: dict[str, int] = {}  # each seat's chips after its last bet this hand
        self.won: dict[str, int] = {}  # what the pots gave each seat this hand
        self.began: dict[str, int] = {}  # each seat's chips as the hand began (blinds in)
        self.seats: set[str] = set()  # every seat that played this table
        self.out: list[list[str]] = []  # seats gone out, first out first
        self.taken_up: str | None = None
        self._result: list[list[str]] | None = None

    BOARD_DUE = {"flop": 3, "turn": 4, "river": 5}

    def feed(self, ev: dict) -> None:
        self._result = None
        kind = ev.get("type")
        if kind == "hand_start":
            self.board = 0
            self.community, self.hole, self.won = [], {}, {}
        elif kind in ("card", "snapshot", "resumed") and isinstance(ev.get("board"), list):
            self.board = len(ev["board"])
            self.community = [c for c in ev["board"] if isinstance(c, str)]
        elif kind in ("gap", "bad", "retake"):
            self.board = None  # a card may be among the events lost
            self.last, self.hole = {}, {}
        elif kind == "action" and ev.get("action") != "fold" and self.board is not None:
            due = self.BOARD_DUE.get(str(ev.get("street")), 0)
            if self.board < due:
                raise Mismatch(
                    f"seat {ev.get('seat')} {ev.get('action')} on the {ev['street']} with "
                    f"{self.board} of {due} community cards laid (H4)"
                )
        if kind == "card" and ev.get("hole") and isinstance(ev.get("seat"), str):
            self.hole.setdefault(ev["seat"], []).append(ev["card"])
        elif kind == "action" and isinstance(ev.get("stack"), int):
            self.last[str(ev.get("seat"))] = ev["stack"]
        if kind in ("snapshot", "game") and isinstance(ev.get("stacks"), dict):
            self.seats |= set(ev["stacks"])
            if kind == "snapshot" and self.community and not self.hands:
                self.taken_up = "taken up at the board's snapshot of a hand under way"
        if kind == "hand_start" and "stacks" in ev:
            total = sum(ev["stacks"].values()) + sum(ev.get("blinds", {}).values())
            if self.chips is None:
                self.chips = total
            elif total != self.chips:
                raise Mismatch(f"hand start: {total} chips at the table, {self.chips} before")
            self.last = dict(ev["stacks"])
            blinds = ev.get("blinds", {})
            self.began = {s: n + blinds.get(s, 0) for s, n in ev["stacks"].items()}
            self.seats |= set(ev["stacks"])
        elif kind == "pot":
            self._pot(ev)
        elif kind == "hand_end" and "stacks" in ev:
            self._hand_end(ev["stacks"])

    def _pot(self, ev: dict) -> None:
        shares, winners = ev["shares"], ev.get("winners")
        if sum(shares.values()) != ev["amount"]:
            raise Mismatch(f"a pot of {ev['amount']} shared out as {shares} (H6)")
        if isinstance(winners, list) and set(shares) - set(winners):
            raise Mismatch(f"a pot of {ev['amount']} gives chips to seats not its winners (H6)")
        eligible = ev.get("eligible")
        if (
            isinstance(eligible, list)
            and isinstance(winners, list)
            and set(winners) - set(eligible)
        ):
            raise Mismatch(f"a pot of {ev['amount']} won by seats it was not theirs to win (H6)")
        if isinstance(eligible, list) and isinstance(winners, list) and len(eligible) > 1:
            self._showdown(ev["amount"], eligible, winners)
        for s, n in shares.items():
            self.won[s] = self.won.get(s, 0) + n

    def _showdown(self, amount: int, eligible: list, winners: list) -> None:
        """H7: a contested pot goes to the best hand among the seats that could win it."""
        if len(self.community) != 5 or any(len(self.hole.get(s, ())) != 2 for s in eligible):
            return  # not every hand shown (or laid) in the log: nothing to value
        try:
            value = {
                s: evaluate([card(c) for c in self.hole[s] + self.community])[0] for s in eligible
            }
        except (HandError, ValueError, IndexError) as e:
            raise Mismatch(f"a hand at showdown cannot be valued: {e}") from e
        best = max(value.values())
        want = sorted(s for s in eligible if value[s] == best)
        if sorted(winners) != want:
            raise Mismatch(
                f"a pot of {amount} goes to seat {' & '.join(winners)}, but seat"
                f" {' & '.join(want)} holds the best hand ({CATEGORIES[best[0]]}, H7)"
            )

    def _hand_end(self, stacks: dict) -> None:
        total = sum(stacks.values())
        if self.chips is not None and total != self.chips:
            raise Mismatch(f"after the hand the stacks hold {total} chips, not {self.chips}")
        for s, n in stacks.items():  # an uncalled bet comes back unsaid: at least this
            least = self.last.get(s, n) + self.won.get(s, 0)
            if n < least:
                raise Mismatch(
                    f"seat {s} ends the hand with {n} chips, but its last bet left it"
                    f" {self.last.get(s)} and the pots gave it {self.won.get(s, 0)} (H6)"
                )
        self.stacks = dict(stacks)
        self.hands += 1
        self.seats |= set(stacks)
        gone = sorted(
            (s for s, n in stacks.items() if n == 0 and not any(s in g for g in self.out)),
            key=lambda s: (len(s), s),
        )
        for chips in sorted({self.began.get(s, 0) for s in gone}):
            self.out.append([s for s in gone if self.began.get(s, 0) == chips])
        alive = [s for s, n in stacks.items() if n > 0]
        if len(alive) == 1 and len(stacks) > 1:  # one seat has every chip: the table is won
            left = [s for s in self.seats if s not in alive and not any(s in g for g in self.out)]
            self._result = [alive, *reversed(self.out)] + ([left] if left else [])

    def result(self) -> list[list[str]] | None:
        """The places of the table the last event won (one seat with every chip), by this
        checker's own count; None when it won none."""
        return self._result

    def summary(self) -> list[str]:
        stacks = " ".join(f"{s}:{n}" for s, n in sorted(self.stacks.items()))
        return [f"holdem: {self.hands} hands, chips kept ({self.chips}); stacks {stacks or '-'}"]

    def state(self) -> dict:
        return {"game": "holdem", "stacks": self.stacks}
