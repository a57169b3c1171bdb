# Weykick scoring (../shared/specs/weykick.md, W1-W7): a match between sides A and B, its
# modes, undo, pause, and best-of series. Pure: time comes in as `now` (ms), nothing else.

SIDES = "AB"


class SettingsError(ValueError):
    pass


def other(side):
    return "B" if side == "A" else "A"


def parse_mode(settings):
    """Table settings (a script's `table weykick mode=first-to:10 ...`, or a host command)
    into match rules. The settings are checked by their declaration (settings.py beside this
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
        self.running = True
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
        m.golden = d["golden"]
        m.over = d["over"]
        m.winner = d["winner"]
        return m

    def length_ms(self):
        return self.rules["target"] * 60000

    def advance(self, ms):
        """Match time passes (not while paused, nor in the half-time break). Returns the
        events it brings: "half" (half time), "resume" (break over), "end" (time up)."""
        out = []  # type: list[str]
        if self.over or self.paused:
            return out
        if self.break_left:
            self.break_left = max(0, self.break_left - ms)
            if not self.break_left:
                out.append("resume")
            return out
        self.clock_ms += ms
        if self.rules["kind"] != "timed" or self.golden:
            return out
        if self.rules["halves"] == 2 and self.half == 1 and self.clock_ms >= self.length_ms() // 2:
            self.half = 2
            self.break_left = self.rules["break_s"] * 1000
            out.append("half")
        if self.clock_ms >= self.length_ms():
            self.clock_ms = self.length_ms()
            a, b = self.score["A"], self.score["B"]
            if a != b:
                self._end("A" if a > b else "B")
            elif self.rules["golden_goal"]:
                self.golden = True  # W4: the next goal wins
                out.append("golden")
                return out
            else:
                self._end(None)
            out.append("end")
        return out

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
        """Takes back the last goal (W5); the match is open again if that goal ended it."""
        if not self.goals:
            return None
        side, _ = self.goals.pop()
        self.score[side] -= 1
        if self.over:
            self.over = False
            self.winner = None
            if self.rules["kind"] == "timed" and not self.golden:
                self.advance(0)  # time was up: decided again on the corrected score
        return side

    def _end(self, winner):
        self.over = True
        self.winner = winner


class Series:
    """Best of N matches (W4); N = 1 is a single match."""

    def __init__(self, rules):
        self.rules = rules
        self.wins = {"A": 0, "B": 0}
        self.results = []  # finished matches: (winner, score)
        self.match = Match(rules, 1)

    def decided(self):
        need = self.rules["best_of"] // 2 + 1
        for side in SIDES:
            if self.wins[side] >= need:
                return side
        return None

    def standing(self):
        """Matches won by each side, the current match counted if it is over."""
        w = dict(self.wins)
        if self.match.over and self.match.winner:
            w[self.match.winner] += 1
        return w

    def finish(self):
        """Record the match that just ended; start the next one if the series goes on
        (False: the series is over)."""
        m = self.match
        if m.winner:
            self.wins[m.winner] += 1
        self.results.append((m.winner, dict(m.score)))
        if self.rules["best_of"] > 1 and self.decided() is None:
            self.match = Match(self.rules, m.number + 1)
            return True
        return False
