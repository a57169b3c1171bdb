"""`plateau replay` of a Weykick series (W3-W6), from its events alone: every goal adds one
to the side that scored and nothing else, an undo takes one back, a match ends on the score
the goals made, with the winner that score gives; an undo of the goal that ended a match
takes the match back up (W5), and its `withdrawn` names the result that was. What a log
cannot tell (a goal the sensor never saw) it cannot check; the first event that does not
follow is reported with why."""

from __future__ import annotations

from plateau.games import Mismatch


class WeykickChecker:
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


def _ab(score: dict) -> str:
    return f"A {score.get('A')} - {score.get('B')} B"
