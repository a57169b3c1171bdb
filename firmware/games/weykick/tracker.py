# Weykick at the table: goal sensor edges and buttons in, goals and scores out (W1-W7).
#
# Counting each goal once is done with the sensor, not a blind timer. A goal counts when a
# goal sensor turns on and stays on for the debounce time (the sense layer's, 20 ms: a blip
# never counts). The goal is then spent until the ball has been out of it for REARM_OFF_MS
# without a break AND LOCKOUT_MS have passed since the goal. A ball rattling in the goal or
# bouncing out and back is out for a few tens of ms at a time, so it never re-arms; a ball
# left in the goal never turns the sensor off. A ball taken out by hand is out for good, so a
# real goal one second after the last one counts, where the open-source counters that drop
# every goal within 1-3 s of the last would lose it.
from micropython import const

from clock import elapsed
from games.base import Game
from games.weykick.rules import SIDES, Match, Series, parse_mode

REARM_OFF_MS = const(400)  # the ball out of the goal this long, without a break, re-arms it
LOCKOUT_MS = const(600)  # and never sooner than this after the goal


class WeykickGame(Game):
    def __init__(self, emit, names, settings):
        super().__init__(emit)
        self.new_series(settings)

    def new_series(self, settings):
        from games.settings import check

        self.settings = check("weykick", settings)  # SettingsError if they are wrong
        self.rules = parse_mode(self.settings)
        self.series = Series(self.rules)
        self.armed = {"A": True, "B": True}
        self.ball_in = {"A": None, "B": None}  # when the ball (settled) went in, if it is in
        self.ball_out = {"A": None, "B": None}  # when it came out, if it is out
        self.goal_at = {"A": None, "B": None}
        self.last_now = None
        self.unsaved = True
        self.resumed = False
        self._was_in = None  # after a reset: whether each goal held the ball when saved

    @property
    def match(self):
        return self.series.match

    # --- what the table asks of a game ----------------------------------------------------

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
        return {
            "game": "weykick",
            "settings": self.settings,
            "wins": self.series.wins,
            "results": self.series.results,
            "match": self.match.to_dict(),
            # each goal: armed, and whether the ball was in it (a ball found in a goal at
            # power-up is a goal only if the goal was armed and empty when last saved)
            "goals": dict((g, [self.armed[g], self._in(g)]) for g in SIDES),
        }

    def _in(self, goal):
        """Whether the ball is in the goal (as saved, until the sensors are read again)."""
        if self._was_in is not None:
            return self._was_in[goal]
        return self.ball_in[goal] is not None

    def restore(self, state):
        self.new_series(state["settings"])
        self.series.wins = dict(state["wins"])
        self.series.results = [tuple(r) for r in state["results"]]
        self.series.match = Match.from_dict(self.rules, state["match"])
        goals = state.get("goals", {})
        self._was_in = {}
        for g in SIDES:
            armed, was_in = goals.get(g, (True, False))
            self.armed[g] = bool(armed)
            self._was_in[g] = bool(was_in)
        self.restored(state)

    def on_button(self, name, now):
        if name == "undo":
            self.command({"cmd": "undo"})
        elif name == "new":
            self.command({"cmd": "new"})
        elif name == "pause":
            self.command({"cmd": "resume" if self.match.paused else "pause"})

    # --- goals (W2, W3, W6) ------------------------------------------------------------

    def on_goal(self, name, level, now, since):
        """A settled goal sensor edge at `now`; the raw change began at `since`."""
        if level:
            self.ball_in[name] = since
            self.ball_out[name] = None
            if self.last_now is None and not (
                self._was_in is not None and not self._was_in[name] and self.armed[name]
            ):
                # seen at power-up: a ball left in the goal, not a goal (unless the goal was
                # armed and empty when the power went: then it went in meanwhile)
                self.armed[name] = False
                self.goal_at[name] = now
            elif self.armed[name]:
                self.armed[name] = False
                self.goal_at[name] = now
                self._goal(name, now)
        else:
            if self.ball_in[name] is not None:
                self.emit(
                    {"type": "cleared", "goal": name, "seen_ms": elapsed(since, self.ball_in[name])}
                )
            self.ball_in[name] = None
            self.ball_out[name] = since

    def _goal(self, into, now):
        m = self.match
        if m.over:
            self.emit(
                {
                    "type": "error",
                    "what": "match-over",
                    "goal": into,
                    "why": "the match is over: undo the last goal or start a new match",
                }
            )
            return
        side = m.goal(into)
        self.emit(
            {
                "type": "goal",
                "goal": into,
                "side": side,
                "score": dict(m.score),
                "match": m.number,
                "match_ms": m.clock_ms,
                "seen_ms": elapsed(now, self.ball_in[into]),
            }
        )
        self._changed()
        if m.over:
            self._match_end()

    def _match_end(self):
        m = self.match
        standing = self.series.standing()
        need = self.rules["best_of"] // 2 + 1
        self.emit(
            {
                "type": "match_end",
                "match": m.number,
                "winner": m.winner,
                "score": dict(m.score),
                "duration_ms": m.clock_ms,
                "variant": self.rules["variant"],
                "series": standing,
                "series_over": self.rules["best_of"] == 1
                or max(standing["A"], standing["B"]) >= need,
            }
        )

    def _changed(self):
        self.unsaved = True  # saved before it is announced (link.Link.flush)

    # --- time ----------------------------------------------------------------------------

    def step(self, now, settled=True):
        if self.last_now is None and self._was_in is not None:
            for side in SIDES:  # the ball out of it since power-up, at least
                if self.ball_in[side] is None:
                    self.ball_out[side] = now
                    self.goal_at[side] = now - LOCKOUT_MS
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
                    self.emit({"type": "golden_goal", "score": dict(self.match.score)})
                else:
                    self.emit({"type": what, "match_ms": self.match.clock_ms})
        self.last_now = now
        for side in SIDES:
            out = self.ball_out[side]
            if (
                not self.armed[side]
                and out is not None
                and elapsed(now, out) >= REARM_OFF_MS
                and elapsed(now, self.goal_at[side]) >= LOCKOUT_MS
            ):
                self.armed[side] = True
                self.unsaved = self.urgent = True  # a ball in it after a reset is a goal

    # --- corrections (W5) ----------------------------------------------------------------

    def command(self, cmd):
        name = cmd["cmd"]
        m = self.match
        if name == "undo":
            side = m.undo()
            if side is None:
                return "no goal to undo in this match"
            self.emit({"type": "undo", "side": side, "score": dict(m.score), "match": m.number})
            self._changed()
            return None
        if name == "pause":
            if m.paused or m.over:
                return "the match is not running"
            m.paused = True
            self.emit({"type": "pause", "match_ms": m.clock_ms})
            self._changed()
            return None
        if name == "resume":
            if not m.paused:
                return "the match is not paused"
            m.paused = False
            self.emit({"type": "resume", "match_ms": m.clock_ms})
            self._changed()
            return None
        if name == "new":
            if cmd.get("settings"):  # checked in full already (table.Table.command)
                try:
                    self.new_series(cmd["settings"])
                except ValueError as e:  # SettingsError
                    return str(e)
            elif m.over and self.series.finish():
                pass  # the series goes on: its next match
            else:
                self.new_series(self.settings)
            self.emit(
                {
                    "type": "game",
                    "game": "weykick",
                    "settings": self.settings,
                    "match": self.match.number,
                    "series": self.series.wins,
                }
            )
            self._changed()
            return None
        return "unknown command %r for weykick" % name
