# Weykick at the table: goal sensor edges and buttons in, goals and scores out (W1-W7; what
# the table decides where the rules are silent: docs/weykick.md).
#
# Counting each goal once is done with the sensor, not a blind timer. A goal counts when a
# goal sensor turns on and stays on for the debounce time (the sense layer's, 20 ms: a blip
# never counts). The goal is then spent until the ball has been out of it for _REARM_OFF_MS
# without a break AND _LOCKOUT_MS have passed since the goal. A ball rattling in the goal or
# bouncing out and back is out for a few tens of ms at a time, so it never re-arms; a ball
# left in the goal never turns the sensor off. A ball taken out by hand is out for good, so a
# real goal one second after the last one counts, where the open-source counters that drop
# every goal within 1-3 s of the last would lose it.
#
# The goals are the table's, not the match's: `new` starts a match but a ball lying in a
# goal stays there, spent. Whatever the table does not count is said (`ignored`, with why),
# and an undo that changes a result already announced says so (`withdrawn`).
from micropython import const

from clock import elapsed
from games.base import Game
from games.weykick.rules import SIDES, Match, Series, other, parse_mode
from games.weykick.show import show as _show  # (loaded with the game: a module loaded
from games.weykick.show import sound as _sound  # mid-game stays, an island in the heap)

_REARM_OFF_MS = const(400)  # the ball out of the goal this long, without a break, re-arms it
_LOCKOUT_MS = const(600)  # and never sooner than this after the goal
# a ball back in a spent goal after being out at least this long may have been a real goal:
# said (`ignored`, lockout); shorter, it rattled or bounced (counted in its `cleared`)
_BOUNCE_MS = const(100)
_KEEP_CLOCK_MS = const(5000)  # the running clock saved this often: a power cut loses no more
_STUCK_MS = const(30000)  # a goal sensor on this long is said (a ball left in, or stuck on)


class Goal:
    """One goal as its sensor sees it."""

    def __init__(self):
        self.armed = True  # a ball going in now would be a goal
        self.inn = None  # when the ball (settled) went in, while it is in
        self.out = None  # when it came out, while it is out
        self.spent_at = None  # when the goal was spent
        self.first_in = None  # when the ball of the spent goal went in (None: not known)
        self.returns = 0  # times back in since, before the goal re-armed
        self.counted = False  # the spent goal was a goal (not an ignored ball)
        self.stuck = False  # said to be on _STUCK_MS, this time in


class WeykickGame(Game):
    _kept_ms = 0  # the match clock when it was last marked to save

    def __init__(self, emit, names, settings):
        super().__init__(emit)
        self.goal = {"A": Goal(), "B": Goal()}
        self.last_now = None
        self._was_in = None  # after a reset: whether each goal held the ball when saved
        self.new_series(settings)

    def new_series(self, settings):
        from games.settings import check

        self.settings = check("weykick", settings)  # SettingsError if they are wrong
        self.rules = parse_mode(self.settings)
        self.series = Series(self.rules)
        self.unsaved = True

    @property
    def match(self):
        return self.series.match

    # --- what the table asks of a game ----------------------------------------------------

    scored_into = None  # the goal the last goal went into, and when (show.py)
    scored_at = None

    def show(self, out, now):
        return _show(self, out, now)

    def sound(self, ev):
        return _sound(self, ev)

    def about(self):
        return {
            "game": "weykick",
            "rules": self.settings.get("mode", "first-to:10"),
            "variant": self.rules["variant"],
        }

    def snapshot(self):
        m = self.match
        return {
            "game": "weykick",
            "settings": self.settings,
            "match": m.number,
            "score": dict(m.score),
            "clock_ms": m.clock_ms,
            "paused": m.paused,
            "over": m.over,
            "series": self.series.standing(),
        }

    def state(self):
        out = {}
        for name in SIDES:
            g = self.goal[name]
            out[name] = [g.armed, self._in(name), g.returns, g.counted]
        return {
            "game": "weykick",
            "settings": self.settings,
            "wins": self.series.wins,
            "results": self.series.results,
            "match": self.match.to_dict(),
            # each goal: armed, whether the ball was in it (a ball found in a goal at
            # power-up is a goal only if the goal was armed and empty when last saved), the
            # ball's returns since the goal, and whether that was a counted goal
            "goals": out,
        }

    def _in(self, name):
        """Whether the ball is in the goal (as saved, until the sensors are read again)."""
        if self._was_in is not None:
            return self._was_in[name]
        return self.goal[name].inn is not None

    def restore(self, state):
        self.new_series(state["settings"])
        self.series.wins = dict(state["wins"])
        self.series.results = [tuple(r) for r in state["results"]]
        self.series.match = Match.from_dict(self.rules, state["match"])
        goals = state.get("goals", {})
        self._was_in = {}
        for name in SIDES:
            saved = list(goals.get(name, ())) + [True, False, 0, False][len(goals.get(name, ())) :]
            g = self.goal[name]
            g.armed = bool(saved[0])
            g.returns = saved[2]
            g.counted = bool(saved[3])
            self._was_in[name] = bool(saved[1])
        self.restored(state)

    def on_button(self, name, now):
        word = name
        if name == "pause" and self.match.paused:
            word = "resume"  # one button: pause, and again to resume
        why = self.command({"cmd": word}) if name in ("undo", "new", "pause") else None
        if why:  # a button has no answer: what it did not do is said (games/base.py)
            self.button_refused(name, why)

    # --- goals (W2, W3, W6) ------------------------------------------------------------

    def on_goal(self, name, level, now, since):
        """A settled goal sensor edge at `now`; the raw change began at `since`."""
        g = self.goal[name]
        if not level:
            g.inn = None
            g.out = since
            g.stuck = False
            return
        back = g.out  # when the ball had come out, if it had
        g.inn = since
        g.out = None
        was = self._was_in
        if self.last_now is None and not (was is not None and not was[name] and g.armed):
            # seen as the game starts (power-up, or a game loaded with a ball in the goal):
            # a ball left in the goal, not a goal (unless the goal was armed and empty when
            # the power went: then it went in meanwhile)
            if was is None or not was[name]:
                self._spend(g, now, None, False)
                self._ignored(name, "at-start")
            elif g.spent_at is None:  # the same ball as before the reset: still spent
                g.spent_at = now
            return
        if not g.armed:
            g.returns += 1
            if back is None or elapsed(since, back) >= _BOUNCE_MS:
                ev = {"type": "ignored", "goal": name, "why": "lockout"}
                if back is not None:
                    ev["out_ms"] = elapsed(since, back)
                self._say(ev)
            return
        why = self.match.phase()
        o = self.goal[other(name)]
        if why is None and o.inn is not None and not o.stuck:
            why = "both-goals"  # one ball cannot be in both: a second ball, or a fault
        self._spend(g, now, since, why is None)
        if why:
            self._ignored(name, why)
        else:
            self._goal(name)
            self.scored_into = name  # its light blinks a while (show.py)
            self.scored_at = now

    def _spend(self, g, now, since, counted):
        g.armed = False
        g.spent_at = now
        g.first_in = since
        g.returns = 0
        g.counted = counted
        self.unsaved = True

    def _ignored(self, name, why):
        m = self.match
        self._say(
            {
                "type": "ignored",
                "goal": name,
                "why": why,
                "match": m.number,
                "match_ms": m.clock_ms,
            }
        )

    def _say(self, ev):
        self.emit(ev)
        self.unsaved = True  # saved before it is announced (link.Link.flush)

    def _goal(self, into):
        m = self.match
        side = m.goal(into)
        self._say(
            {
                "type": "goal",
                "goal": into,
                "side": side,
                "score": dict(m.score),
                "match": m.number,
                "match_ms": m.clock_ms,
            }
        )
        if m.over:
            self._match_end()

    def _match_end(self, corrected=False):
        m = self.match
        s = self.series
        ev = {
            "type": "match_end",
            "match": m.number,
            "winner": m.winner,
            "score": dict(m.score),
            "duration_ms": m.clock_ms,
            "variant": self.rules["variant"],
            "series": s.standing(),
            "series_over": s.over(),
        }
        if ev["series_over"]:
            ev["series_winner"] = s.winner()
        if corrected:
            ev["corrected"] = True  # it replaces the match_end withdrawn just before
        self._say(ev)

    # --- time ----------------------------------------------------------------------------

    def step(self, now, settled=True):
        if self.last_now is None and self._was_in is not None:
            for name in SIDES:  # the ball out of it since power-up, at least
                g = self.goal[name]
                if g.inn is None:
                    g.out = now
                    g.spent_at = now - _LOCKOUT_MS
                elif g.spent_at is None:
                    g.spent_at = now
            self._was_in = None
        if self.resumed:
            self.resumed = False
            self.emit(
                {
                    "type": "resumed",
                    "score": dict(self.match.score),
                    "match": self.match.number,
                    "clock_ms": self.match.clock_ms,
                }
            )
        if self.last_now is not None:
            for what in self.match.advance(elapsed(now, self.last_now)):
                if what == "end":
                    self._match_end()
                elif what == "golden":
                    self._say({"type": "golden_goal", "score": dict(self.match.score)})
                else:  # half, second_half
                    self._say({"type": what, "match_ms": self.match.clock_ms})
        self.last_now = now
        kept = self.match.clock_ms - self._kept_ms
        if kept >= _KEEP_CLOCK_MS or kept < 0:  # (a new match's clock starts again)
            self._kept_ms = self.match.clock_ms
            self.unsaved = True  # saved when the store next may (Store.due)
        for name in SIDES:
            g = self.goal[name]
            if g.inn is not None:
                if not g.stuck and elapsed(now, g.inn) >= _STUCK_MS:
                    g.stuck = True  # from now on it does not stop a goal in the other goal
                    self._ignored(name, "stuck")
            elif (
                not g.armed
                and g.out is not None
                and elapsed(now, g.out) >= _REARM_OFF_MS
                and elapsed(now, g.spent_at) >= _LOCKOUT_MS
            ):
                g.armed = True
                ev = {"type": "cleared", "goal": name, "returns": g.returns, "counted": g.counted}
                if g.first_in is not None:  # W6: how long the sensor saw the ball
                    ev["seen_ms"] = elapsed(g.out, g.first_in)
                self._say(ev)
                self.urgent = True  # a ball in it after a reset is a goal

    # --- corrections (W5) ----------------------------------------------------------------

    def command(self, cmd):
        name = cmd["cmd"]
        m = self.match
        if name == "undo":
            return self._undo(m)
        if name == "pause":
            if m.paused or m.over:
                return "the match is not running"
            m.paused = True
            self._say({"type": "pause", "match_ms": m.clock_ms})
            return None
        if name == "resume":
            if not m.paused:
                return "the match is not paused"
            m.paused = False
            self._say({"type": "resume", "match_ms": m.clock_ms})
            return None
        if name == "new":
            return self._new(m, cmd.get("settings"))
        return "unknown command %r for weykick" % name

    def _undo(self, m):
        was_over, was_golden = m.over, m.golden
        winner, score = m.winner, dict(m.score)
        side = m.undo()
        if side is None:
            return "no goal to undo in this match"
        self._say({"type": "undo", "side": side, "score": dict(m.score), "match": m.number})
        if was_over:  # the result announced is no longer true
            self._say({"type": "withdrawn", "match": m.number, "winner": winner, "score": score})
        if m.over:  # time was up: decided again on the corrected score
            self._match_end(corrected=was_over)
        elif m.golden and (was_over or not was_golden):
            self._say({"type": "golden_goal", "score": dict(m.score)})
        return None

    def _new(self, m, settings):
        """W5: the next match of the series (or this one again, if it was not over; a new
        series once it is over). Other settings start a new series."""
        abandoned = None if m.over else {"match": m.number, "score": dict(m.score)}
        if settings and settings != self.settings:  # checked in full already (table.Table)
            try:
                self.new_series(settings)
            except ValueError as e:  # SettingsError
                return str(e)
            start = "series"
        else:
            start = self.series.next()
        ev = {
            "type": "game",
            "game": "weykick",
            "rules": self.settings["mode"],
            "settings": self.settings,
            "match": self.match.number,
            "series": dict(self.series.wins),
            "start": start,  # next (match), again (the match not finished), series
        }
        if abandoned:
            ev["abandoned"] = abandoned
        self._say(ev)
        return None
