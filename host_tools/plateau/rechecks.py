"""`plateau replay` for the games other than Tock (Tock has plateau.follow): each game of a
log is checked again with the host's copy of its rules, from the events alone, by the checker
its view module's `replay()` makes (plateau/views/<game>.py).

- Weykick (W3-W6): every goal adds one to the side that scored and nothing else, an undo
  takes one back, a match ends on the score the goals made, with the winner that score gives;
  an undo of the goal that ended a match takes the match back up (W5), and its `withdrawn`
  names the result that was.
- Pocha (K7, K8, K10): each trick goes to the card the rules say wins it (the trump turned,
  the led suit), each hand's tricks taken are the tricks counted, its scores follow K8 from
  the bids, and the running totals add up; the final ranking is the totals, highest first.
- Hold'em (H4, H6, H9): chips are neither made nor lost (the stacks after every hand add up
  to what the table started with), every pot is shared out in full, and no seat checks, calls
  or bets on a street before its community cards are laid (a fold may come at any time).

What a log cannot tell (a Weykick goal the sensor never saw, a Pocha card laid by the wrong
seat) it cannot check; what it can, it does, and the first event that does not follow is
reported with why."""

from __future__ import annotations

from plateau.follow import Mismatch


class Weykick:
    def __init__(self) -> None:
        self.score = {"A": 0, "B": 0}
        self.goals = 0
        self.matches: list[str] = []
        self.ended: tuple[dict, str | None] | None = None  # the last match's result, if over
        self.taken_back: tuple[dict, str | None] | None = None  # a result an undo reopened

    def feed(self, ev: dict) -> None:
        kind = ev.get("type")
        if kind in ("goal", "game"):
            self.ended = self.taken_back = None  # a goal or a `game` after the end: a new match
        if kind == "goal":
            side = ev["side"]
            want = dict(self.score, **{side: self.score[side] + 1})
            if ev["score"] != want:
                raise Mismatch(
                    f"a goal for {side} after {_ab(self.score)} makes {_ab(want)}, "
                    f"not {_ab(ev['score'])} (W6)"
                )
            self.score = want
            self.goals += 1
        elif kind == "undo" and "score" in ev:
            if self.ended is not None:  # the goal that ended the match: it goes on (W5)
                self.score, self.taken_back, self.ended = dict(self.ended[0]), self.ended, None
            side = ev["side"]
            want = dict(self.score, **{side: self.score[side] - 1})
            if ev["score"] != want or want[side] < 0:
                raise Mismatch(
                    f"undoing {side}'s goal after {_ab(self.score)} leaves "
                    f"{_ab(want)}, not {_ab(ev['score'])} (W5)"
                )
            self.score = want
        elif kind == "match_end" and "score" in ev:
            if ev["score"] != self.score:
                raise Mismatch(
                    f"the match ends {_ab(ev['score'])} but its goals made {_ab(self.score)}"
                )
            a, b = self.score["A"], self.score["B"]
            lead = "A" if a > b else "B" if b > a else None
            if ev.get("winner") != lead:
                raise Mismatch(f"winner {ev.get('winner')} at {_ab(self.score)} (W4)")
            self.matches.append(f"{_ab(self.score)}, winner {lead or 'none (draw)'}")
            self.ended = (self.score, lead)
            self.score = {"A": 0, "B": 0}
        elif kind == "withdrawn":
            was = self.taken_back
            if was is None or ev.get("score", was[0]) != was[0] or ev.get("winner") != was[1]:
                said = f"{_ab(ev['score'])}, winner {ev.get('winner')}" if "score" in ev else ""
                raise Mismatch(f"a result withdrawn ({said}) that no undo took back (W5)")
            self.matches[-1] += " (withdrawn by undo)"
            self.taken_back = None

    def summary(self) -> list[str]:
        return [f"weykick: {self.goals} goals; matches: " + ("; ".join(self.matches) or "none")]

    def state(self) -> dict:
        return {"game": "weykick", "score": self.score, "matches": self.matches}


class Pocha:
    def __init__(self) -> None:
        self.trump: str | None = None
        self.table: list[tuple[str, str]] = []  # (seat, card) of the trick under way
        self.taken: dict[str, int] = {}
        self.bids: dict[str, int] = {}
        self.totals: dict[str, int] | None = None
        self.hands = self.tricks = 0
        self.ranking: list | None = None

    def feed(self, ev: dict) -> None:
        from plateau.fw.games.pocha.rules import card, score, winning

        kind = ev.get("type")
        if kind == "hand_start":
            self.table, self.taken, self.bids, self.trump = [], {}, {}, None
        elif kind == "trump":
            self.trump = ev["suit"]
        elif kind == "bid":
            self.bids[ev["seat"]] = ev["bid"]
        elif kind == "card" and "seat" in ev:
            self.table.append((ev["seat"], ev["card"]))
        elif kind == "trick":
            if self.trump is None or not self.table:
                self.table = []
                return  # its cards or the trump were not in the log: not checkable
            cards = [card(c) for _, c in self.table]
            seat = self.table[winning(cards, self.trump)][0]
            if ev["winner"] != seat:
                plays = " ".join(f"{s}:{c}" for s, c in self.table)
                raise Mismatch(
                    f"trick {ev.get('number')} ({plays}, trumps {self.trump}) goes "
                    f"to seat {seat}, not {ev['winner']} (K7)"
                )
            self.taken[seat] = self.taken.get(seat, 0) + 1
            self.tricks += 1
            self.table = []
        elif kind == "hand_end" and "totals" in ev:
            for s, n in ev["taken"].items():
                if self.taken and self.taken.get(s, 0) != n:
                    raise Mismatch(
                        f"hand {ev.get('hand')}: seat {s} took "
                        f"{self.taken.get(s, 0)} tricks, not {n}"
                    )
                want = score(ev["bids"][s], n)
                if ev["scores"][s] != want:
                    raise Mismatch(
                        f"hand {ev.get('hand')}: seat {s} bid {ev['bids'][s]} and "
                        f"took {n}: {want} points, not {ev['scores'][s]} (K8)"
                    )
            if self.totals is not None:
                for s, t in ev["totals"].items():
                    if self.totals.get(s, 0) + ev["scores"][s] != t:
                        raise Mismatch(
                            f"hand {ev.get('hand')}: seat {s}'s total "
                            f"{self.totals.get(s, 0)} + {ev['scores'][s]} is not {t}"
                        )
            self.totals = dict(ev["totals"])
            self.hands += 1
        elif kind == "match_end" and "ranking" in ev:
            totals = [r[1] for r in ev["ranking"]]
            if totals != sorted(totals, reverse=True):
                raise Mismatch("the final ranking is not highest total first (K10)")
            if self.totals is not None and any(
                self.totals.get(r[0]) != r[1] for r in ev["ranking"]
            ):
                raise Mismatch("the final ranking's totals are not the hands' totals")
            self.ranking = ev["ranking"]

    def summary(self) -> list[str]:
        end = (
            "final ranking " + ", ".join(f"{r[0]} ({r[1]})" for r in self.ranking)
            if self.ranking
            else f"totals {self.totals}"
        )
        return [f"pocha: {self.hands} hands, {self.tricks} tricks checked; {end}"]

    def state(self) -> dict:
        return {"game": "pocha", "totals": self.totals, "ranking": self.ranking}


class Holdem:
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


def _ab(score: dict) -> str:
    return f"A {score.get('A')} - {score.get('B')} B"
