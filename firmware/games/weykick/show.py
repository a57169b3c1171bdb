# What a Weykick table shows (issue 29; games/base.py's Show, drawn by outputs.py), from the
# tracker's state: the score in big digits on each end's display, each side's own score
# first (display A at goal A's end); under it the match clock, the match and the series, and
# what stops play (paused, half time, golden goal, the match or series over). The goals'
# LEDs: dim while the goal is armed, dark while it is spent, blinking white a while after a
# goal went in. A ball not counted says why there (an `ignored` event's reason: outputs.py).
from micropython import const

from clock import elapsed
from games.base import BLINK, DIM, FANFARE, GOAL, LOW, WHITE, Game

_FLASH_MS = const(3000)  # a goal's light blinks this long


def show(game, out, now):
    """WeykickGame.show (games/base.py: Game.show)."""
    m = game.match
    a, b = m.score["A"], m.score["B"]
    out.big = "%d-%d" % (a, b)
    out.big_b = "%d-%d" % (b, a)
    wait = 0
    for name in out.goals:
        g = game.goal.get(name)
        if g is None:
            continue
        colour = DIM if g.armed else 0
        if game.scored_into == name and game.scored_at is not None:
            left = _FLASH_MS - elapsed(now, game.scored_at)
            if left > 0:
                colour = WHITE | BLINK
                wait = left
        out.lights[out.goals[name]] = colour
    lines = out.lines
    clock = m.clock_ms
    if m.rules["kind"] == "timed":  # the time left in the match
        clock = max(0, m.length_ms() - clock)
    lines.append("%d:%02d" % (clock // 60000, clock // 1000 % 60))
    s = game.series.standing()
    best = m.rules["best_of"]
    lines.append(
        "match %d  %d-%d" % (m.number, s["A"], s["B"]) if best > 1 else "match %d" % m.number
    )
    if m.over:
        if game.series.over() and best > 1:
            w = game.series.winner()
            lines.append("series: " + (w + " wins" if w else "drawn"))
        else:
            lines.append(m.winner + " wins" if m.winner else "drawn")
    elif m.paused:
        lines.append("paused")
    elif m.break_left:
        lines.append("half time")
    elif m.golden:
        lines.append("golden goal")
    elif wait == 0 or wait > 1000:  # the clock runs: the next second
        step = 1000 - m.clock_ms % 1000
        wait = step if wait == 0 else min(wait, step)
    return wait


def sound(game, ev):
    """WeykickGame.sound: a goal, a match won, a ball not counted; else every game's."""
    kind = ev["type"]
    if kind == "goal":
        return GOAL
    if kind == "match_end":
        return FANFARE
    if kind == "ignored":
        return LOW
    return Game.sound(game, ev)
