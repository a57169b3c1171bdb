# Weykick scoring (W1-W7: docs/rules/weykick.md; the table's decisions: docs/weykick.md): a
# match between sides A and B, its modes, undo, pause, and best-of series. Pure: time comes
# in as `now` (ms).

SIDES = "AB"


class SettingsError(ValueError):
    pass


def other(side):
    return "B" if side == "A" else "A"


def parse_mode(settings):
    """Table settings (a script's `table weykick mode=first-to:10 ...`, or a host command)
    into match rules. The settings are checked by their declaration (game.py beside this
    file); SettingsError names what is wrong."""
    from games.settings import SettingsError as Refused
    from games.settings import check

    try:
        s = check("weykick", settings)
    except Refused as e:
        raise SettingsError(str(e))
    kind, _, arg = s["mode"].partition(":")
    return {
        "kind": kind,
        "target": int(arg),
        "win_by": s["win-by"],
        "golden_goal": s["golden-goal"] == "on",
        "halves": s["halves"],
        "break_s": s["break"],
        "best_of": s["best-of"],
        "variant": s["variant"],
    }


class Match:
    """One match: its score, its goals, its clock. Times in ms of match time."""

    def __init__(self, rules, number=1):
        self.rules = rules
        self.number = number
        self.score = {"A": 0, "B": 0}
        self.goals = []  # [(side that scored, match ms)]
        self.clock_ms = 0  # match time played
        self.paused = False
        self.half = 1
        self.break_left = 0  # ms of half-time break still to go
        self.golden = False  # timed, tied at the end, golden goal on: next goal wins
        self.over = False
        self.winner = None  # "A", "B", or None (a draw) once over

    def to_dict(self):
        return {
            "number": self.number,
            "score": dict(self.score),
            "clock_ms": self.clock_ms,
            "paused": self.paused,
            "half": self.half,
            "break_left": self.break_left,
            "golden": self.golden,
            "over": self.over,
            "winner": self.winner,
            "goals": list(self.goals),
        }

    @classmethod
    def from_dict(cls, rules, d):
        m = cls(rules, d["number"])
        m.score = dict(d["score"])
        m.goals = [tuple(g) for g in d["goals"]]
        m.clock_ms = d["clock_ms"]
        m.paused = d["paused"]
        m.half = d["half"]
        m.break_left = d.get("break_left", 0)
        m.golden = d["golden"]
        m.over = d["over"]
        m.winner = d["winner"]
        return m

    def length_ms(self):
        return self.rules["target"] * 60000

    def phase(self):
        """Why a ball in a goal would not count now ("over", "paused", "break"), or None."""
        if self.over:
            return "over"
        if self.paused:
            return "paused"
        if self.break_left:
            return "break"
        return None

    def advance(self, ms):
        """Match time passes (not while paused, nor in the half-time break). Returns what it
        brings, in order: "half" (half time: the break begins), "second_half" (the break is
        over), "golden" (time up on a tie: golden goal), "end" (time up). A long step is
        shared out: up to the half in the first half, then the break, then the second half."""
        out = []  # type: list[str]
        if self.over or self.paused:
            return out
        r = self.rules
        while True:
            if self.break_left:
                used = min(ms, self.break_left)
                self.break_left -= used
                ms -= used
                if self.break_left:
                    return out
                out.append("second_half")
            if r["kind"] != "timed" or self.golden:
                self.clock_ms += ms
                return out
            first = r["halves"] == 2 and self.half == 1
            bound = self.length_ms() // 2 if first else self.length_ms()
            used = min(ms, bound - self.clock_ms)
            self.clock_ms += used
            ms -= used
            if self.clock_ms < bound:
                return out
            if first:
                self.half = 2
                self.break_left = r["break_s"] * 1000
                out.append("half")
                if not self.break_left:
                    out.append("second_half")
            elif self._time_up():
                out.append("end")
                return out
            else:
                out.append("golden")  # the rest of the step is golden-goal time

    def _time_up(self):
        """Regular time is over: the higher score wins; a tie is a draw, or golden goal when
        it is on (W4). True when that ended the match."""
        a, b = self.score["A"], self.score["B"]
        if a == b and self.rules["golden_goal"]:
            self.golden = True
            return False
        self._end(None if a == b else "A" if a > b else "B")
        return True

    def goal(self, into):
        """The ball went into goal `into` (W3: a point for the other side). Returns the
        side that scored, or None when the match is over (no goal counts then)."""
        if self.over:
            return None
        side = other(into)
        self.score[side] += 1
        self.goals.append((side, self.clock_ms))
        r = self.rules
        if self.golden:
            self._end(side)
        elif r["kind"] == "first-to":
            s, o = self.score[side], self.score[other(side)]
            if s >= r["target"] and s - o >= r["win_by"]:
                self._end(side)
        return side

    def undo(self):
        """Takes back the last goal (W5). The match is open again if that goal ended it; a
        timed match whose time is up is decided again on the corrected score (a win, a
        draw, or golden goal again). Returns the side whose goal it was, or None."""
        if not self.goals:
            return None
        side, _ = self.goals.pop()
        self.score[side] -= 1
        self.over = False
        self.winner = None
        if self.rules["kind"] == "timed" and self.clock_ms >= self.length_ms():
            self.golden = False
            self._time_up()
        return side

    def _end(self, winner):
        self.over = True
        self.winner = winner


class Series:
    """Best of N matches (W4), N = 1 being a single match. At most N matches are played: the
    first side to win more than half of them takes the series; after N matches without that
    (drawn matches count for neither side), the side with more wins takes it, and equal wins
    make a drawn series."""

    def __init__(self, rules):
        self.rules = rules
        self._start()

    def _start(self):
        self.wins = {"A": 0, "B": 0}
        self.results = []  # finished matches: (winner, score)
        self.match = Match(self.rules, 1)

    def standing(self):
        """Matches won by each side, the current match counted if it is over."""
        w = dict(self.wins)
        if self.match.over and self.match.winner:
            w[self.match.winner] += 1
        return w

    def over(self):
        """Whether the series is decided, the current match counted if it is over."""
        w = self.standing()
        played = len(self.results) + (1 if self.match.over else 0)
        return max(w["A"], w["B"]) > self.rules["best_of"] // 2 or played >= self.rules["best_of"]

    def winner(self):
        """The side ahead in matches won (the series' winner once it is over), or None."""
        w = self.standing()
        return None if w["A"] == w["B"] else "A" if w["A"] > w["B"] else "B"

    def next(self):
        """`new` (W5): the next match when this one is over and the series goes on; this
        match played again from 0-0 when it was not over (the standing kept); a new series
        when the series is over. Returns "next", "again" or "series"."""
        m = self.match
        if not m.over:
            self.match = Match(self.rules, m.number)
            return "again"
        if self.over():
            self._start()
            return "series"
        if m.winner:
            self.wins[m.winner] += 1
        self.results.append((m.winner, dict(m.score)))
        self.match = Match(self.rules, m.number + 1)
        return "next"
