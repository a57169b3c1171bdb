"""`plateau replay` of a Weykick series (W3-W6), from its events alone, with the host's copy of
the rules core (`plateau.fw.games.weykick.rules`: the board's `Match` and `Series`): every
goal adds one to the side that scored, and counts only while a match is under way (none after
its end, none after the series is over until `new` starts the next); an undo takes one back; a
match ends where the rules end it (first-to: the goal that reached the target; timed: its
time up, or golden goal), on the score its goals made, with the winner that score gives and
the series' standing after it; an undo of the goal that ended a match takes the match back up
(W5), and its `withdrawn` names the result that was. What a log cannot tell (a goal the
sensor never saw, the match clock between events) it cannot check; the first event that does
not follow is reported with why.

The series is taken from the board's word where the log joins it: its `game` event (a match,
a series started) or its snapshot; `taken_up` says when that was not a match's start."""

from __future__ import annotations

from plateau.fw.games.weykick.rules import Match, Series, SettingsError, other, parse_mode
from plateau.games import Mismatch


class WeykickChecker:
    def __init__(self) -> None:
        self.series: Series | None = None  # None until the log says the settings
        self.score = {"A": 0, "B": 0}  # the match's, as its goals made it (no settings known)
        self.goals = 0
        self.matches: list[str] = []
        self.ended: tuple[dict, str | None] | None = None  # the last match's result, if over
        self.taken_back: tuple[dict, str | None] | None = None  # a result an undo reopened
        self.taken_up: str | None = None  # where the board's word started a match under way
        self._result: list[list[str]] | None = None  # the match the last event ended

    # --- where the log joins the series -----------------------------------------------------

    def _begin(self, settings: object, match: object, wins: object, over: bool = False) -> None:
        try:
            rules = parse_mode(settings)
        except (SettingsError, TypeError, AttributeError) as e:
            raise Mismatch(f"a series of impossible settings: {e}") from e
        s = Series(rules)
        number = match if isinstance(match, int) and match >= 1 else 1
        standing = {k: wins.get(k, 0) for k in "AB"} if isinstance(wins, dict) else {}
        s.wins = {k: n if isinstance(n, int) else 0 for k, n in standing.items()} or s.wins
        s.results = [(None, {})] * (number - 1)  # the matches before: only their count counts
        s.match = Match(rules, number)
        self.series = s

    def feed(self, ev: dict) -> None:
        self._result = None
        kind = ev.get("type")
        if kind == "game" and isinstance(ev.get("settings"), dict):
            self._begin(ev["settings"], ev.get("match"), ev.get("series"))
            self.score, self.ended, self.taken_back, self.taken_up = (
                {"A": 0, "B": 0},
                None,
                None,
                None,
            )
            return
        if kind == "snapshot" and isinstance(ev.get("settings"), dict):
            if self.series is None:
                self._snapshot(ev)
            return
        s = self.series
        m = s.match if s is not None else None
        if kind == "goal":
            side = ev["side"]
            if s is not None and m is not None and m.over:
                said = "the series is over" if s.over() else f"match {m.number} is over"
                raise Mismatch(
                    f"a goal for {side} when no match is under way ({said}: a goal counts"
                    " from `new` on, W4)"
                )
            if m is None and self.ended is not None:  # no settings known: a new match
                self.ended = self.taken_back = None
            want = dict(self.score, **{side: self.score[side] + 1})
            if ev["score"] != want:
                raise Mismatch(
                    f"a goal for {side} after {_ab(self.score)} makes {_ab(want)}, "
                    f"not {_ab(ev['score'])} (W6)"
                )
            self.score = want
            self.goals += 1
            if m is not None:
                m.goal(other(side))  # the ball in the other side's goal (W3)
                if isinstance(ev.get("match_ms"), int):
                    m.clock_ms = ev["match_ms"]
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
            if m is not None:
                if m.undo() != side:
                    raise Mismatch(f"undoing {side}'s goal, but the last goal was not {side}'s")
        elif kind == "golden_goal" and m is not None:
            if self.score["A"] != self.score["B"]:
                raise Mismatch(f"golden goal at {_ab(self.score)}, not a tie (W4)")
            m.golden = True
        elif kind == "match_end" and "score" in ev:
            self._match_end(ev, s)
        elif kind == "withdrawn":
            was = self.taken_back
            if was is None or ev.get("score", was[0]) != was[0] or ev.get("winner") != was[1]:
                said = f"{_ab(ev['score'])}, winner {ev.get('winner')}" if "score" in ev else ""
                raise Mismatch(f"a result withdrawn ({said}) that no undo took back (W5)")
            self.matches[-1] += " (withdrawn by undo)"
            self.taken_back = None

    def _snapshot(self, ev: dict) -> None:
        """The board's word for the series where the log joins it (a table that was on
        before its log began): a match's start when its score is 0-0 and its clock 0."""
        self._begin(ev["settings"], ev.get("match"), ev.get("series"))
        s = self.series
        score = ev["score"] if isinstance(ev.get("score"), dict) else {}
        if s is None or not all(isinstance(score.get(k), int) for k in "AB"):
            return
        m = s.match
        self.score = {"A": score["A"], "B": score["B"]}
        m.score = dict(self.score)
        m.clock_ms = ev["clock_ms"] if isinstance(ev.get("clock_ms"), int) else 0
        if ev.get("over"):  # ended: its standing already counts it
            a, b = score["A"], score["B"]
            m.over, m.winner = True, "A" if a > b else "B" if b > a else None
            if m.winner:
                s.wins[m.winner] = max(0, s.wins[m.winner] - 1)
        if any(self.score.values()) or m.clock_ms or m.over:
            self.taken_up = f"taken up at the board's snapshot of match {m.number} under way"

    def _match_end(self, ev: dict, s: Series | None) -> None:
        m = s.match if s is not None else None
        if s is not None and m is not None and not ev.get("corrected"):
            if m.over and self.ended is not None:
                said = "the series is over" if s.over() else "it ended already"
                raise Mismatch(f"match {m.number} ends again ({said}, W4)")
            if not m.over:
                self._time_up(ev, m)
        if ev["score"] != self.score:
            raise Mismatch(
                f"the match ends {_ab(ev['score'])} but its goals made {_ab(self.score)}"
            )
        a, b = self.score["A"], self.score["B"]
        lead = "A" if a > b else "B" if b > a else None
        if ev.get("winner") != lead:
            raise Mismatch(f"winner {ev.get('winner')} at {_ab(self.score)} (W4)")
        if s is not None and m is not None:
            if ev.get("corrected") and not m.over:
                self._time_up(ev, m)
            standing = s.standing()
            if isinstance(ev.get("series"), dict) and ev["series"] != standing:
                raise Mismatch(
                    f"after match {m.number} the series stands {_ab(standing)}, not"
                    f" {_ab(ev['series'])} (W4)"
                )
            if "series_over" in ev and bool(ev["series_over"]) != s.over():
                raise Mismatch(
                    f"the series is {'' if s.over() else 'not '}over after match"
                    f" {m.number} (best of {s.rules['best_of']}, W4)"
                )
        self.matches.append(f"{_ab(self.score)}, winner {lead or 'none (draw)'}")
        self.ended = (self.score, lead)
        self._result = [[lead], [other(lead)]] if lead else [["A", "B"]]
        self.score = {"A": 0, "B": 0}

    def _time_up(self, ev: dict, m: Match) -> None:
        """A match_end no goal brought: only a timed match's time up ends it that way."""
        r = m.rules
        if r["kind"] != "timed":
            raise Mismatch(
                f"match {m.number} ends at {_ab(self.score)}, before a side reached"
                f" {r['target']} (first-to:{r['target']}, W4)"
            )
        took = ev.get("duration_ms")
        if not isinstance(took, int) or took < m.length_ms():
            raise Mismatch(f"a timed match of {r['target']} minutes ends after {took} ms (W4)")
        m.clock_ms = took
        if not m._time_up():  # the rules core's own decision at time up
            raise Mismatch(f"time up at {_ab(self.score)} goes to golden goal, not an end (W4)")

    # --- what replay and the club ask --------------------------------------------------------

    def result(self) -> list[list[str]] | None:
        """The places of the match the last event ended, by this checker's own count
        (a draw: both sides share the place); None when it ended none."""
        return self._result

    def summary(self) -> list[str]:
        return [f"weykick: {self.goals} goals; matches: " + ("; ".join(self.matches) or "none")]

    def state(self) -> dict:
        return {"game": "weykick", "score": self.score, "matches": self.matches}


def _ab(score: dict) -> str:
    return f"A {score.get('A')} - {score.get('B')} B"
