"""Weykick's generator (`plateau gen --game weykick`, the harnesses' Weykick series)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass
class WeykickSeries:
    script: str
    matches: list[dict] = field(default_factory=list)  # per match: winner, score
    winner: str | None = None


def generate(
    seed: int = 0,
    best_of: int = 5,
    first_to: int = 10,
    pace: int = 100,
    buttons: bool = True,
    mess: float = 0.0,
    close: bool = True,
) -> WeykickSeries:
    """A whole random Weykick series as a table script: each goal a ball in a goal, seen a
    while and cleared; now and then a blip in an empty goal (noise, never a goal), a ball
    that rattles in the goal (one goal all the same), a goal taken back with the undo
    button and scored again; `button new` between matches. The expected result is kept by
    plain counting, not by the firmware's rules. `buttons=False`: undo and new are sent by
    the host instead (`send undo`, `send new`): a board that was off when a button was
    pressed never saw it, while a host's command is sent again until answered (the reset
    harness's series).

    With `mess` (0 to 1, the share of goals that meet a table incident) the script is timed
    to the millisecond (pace 0) and holds what a real match meets around its goals, none of
    it a goal (docs/weykick.md): sensor blips shorter than the debounce, a ball fumbled back
    in for a moment as it is taken out, a ball back in before the goal re-armed, a second
    ball in the other goal, balls in a goal during a pause, an undo, `new` in mid-match
    (the match again from 0-0) and `new` with the ball still in a goal. Every wait keeps
    clear of the table's thresholds (debounce 20 ms, bounce 100 ms, re-arm 400 ms, lockout
    600 ms) by a scan or more, so what counts does not hang on the 5 ms scan. `close=False`
    leaves out the incidents that hang on the re-arm time (the fumble, the ball back): for a
    harness that stops the table a while (a reset), after which the ball was out longer."""
    rng = random.Random(seed)
    press = "button" if buttons else "send"
    lines = [
        f"# generated: weykick best-of={best_of} first-to={first_to} seed={seed}"
        + (f" mess={mess}" if mess else ""),
        f"table weykick mode=first-to:{first_to} best-of={best_of} variant=football",
        f"pace {0 if mess else pace}",
    ]
    series = WeykickSeries(script="")
    wins = {"A": 0, "B": 0}
    need = best_of // 2 + 1

    def add(*words: str) -> None:
        lines.extend(words)

    def other(goal: str) -> str:
        return "B" if goal == "A" else "A"

    def incident(goal: str, score: dict) -> None:
        """After a goal into `goal` (the ball taken out): one thing that is not a goal."""
        kinds = ("blip", "both", "pause", "undo", "again", "held")
        kind = rng.choice(kinds + ("fumble", "back") if close else kinds)
        o = other(goal)
        if kind == "held" and score[o] + 1 >= first_to:
            kind = "blip"  # its goal would end the match: `new` would then be the next match
        if kind == "both" and score[o] + 1 >= first_to:
            kind = "blip"  # likewise: the match would end before its incident
        if kind == "blip":  # noise on a sensor: shorter than the debounce
            add(f"wait {rng.randrange(400, 2000, 5)}", f"glitch {rng.choice('AB')} 15")
        elif kind == "fumble":  # the ball slips back in for a moment as it is taken out
            add(f"ball {goal}", f"wait {rng.randrange(30, 70, 5)}", f"clear {goal}")
        elif kind == "back":  # back in before the goal re-armed (out 120-330 ms): said
            add(f"wait {rng.randrange(120, 330, 5)}", f"ball {goal}", "wait 200", f"clear {goal}")
        elif kind == "both":  # a second ball in the other goal while the first lies there
            add("wait 1000", f"ball {goal}", f"wait {rng.randrange(30, 300, 5)}", f"ball {o}")
            add("wait 300", f"clear {goal}", f"clear {o}")
            score[o] += 1  # the first one counts
        elif kind == "pause":  # goals while paused: not counted
            add("wait 700", f"{press} pause", "wait 300", f"ball {o}", "wait 300", f"clear {o}")
            add("wait 700", f"{press} pause" if buttons else "send resume")
        elif kind == "undo":  # the last goal taken back
            add("wait 300", f"{press} undo")
            score[o] -= 1
        elif kind == "again":  # `new` in mid-match: this match again from 0-0
            add("wait 300", f"{press} new")
            score["A"] = score["B"] = 0
        else:  # `new` with the ball in a goal: taking it out (a fumble) scores nothing
            add("wait 1000", f"ball {goal}", "wait 300", f"{press} new", "wait 300")
            add(f"clear {goal}", "wait 40", f"ball {goal}", "wait 40", f"clear {goal}")
            score["A"] = score["B"] = 0  # the goal counted before was the old match's
        add(f"wait {rng.randrange(1000, 3000, 5)}")

    while max(wins.values()) < need:
        score = {"A": 0, "B": 0}
        while max(score.values()) < first_to:
            into = rng.choice("AB")  # the goal the ball goes in; the other side scores
            side = "B" if into == "A" else "A"
            if rng.random() < 0.2:  # a blip in the empty goal, too short to be a ball
                lines.append(f"glitch {into} {rng.choice([3, 8, 15])}")
            lines.append(f"ball {into}")
            if rng.random() < 0.15:  # rattles: out and back in within the debounce
                for _ in range(rng.randint(1, 3)):
                    lines.append(f"wait {rng.choice([40, 60, 80])}")
                    lines.append(f"glitch {into} {rng.choice([10, 15, 30])}")
            lines.append(f"wait {rng.choice([100, 300, 800])}")
            lines.append(f"clear {into}")
            score[side] += 1
            if mess and max(score.values()) < first_to and rng.random() < mess:
                incident(into, score)
                continue
            lines.append(f"wait {rng.choice([700, 1000, 2000])}")
            if rng.random() < 0.05 and max(score.values()) < first_to:
                lines.append(f"{press} undo")  # taken back (a ball that was not a goal)
                lines.append("wait 300")
                score[side] -= 1
        winner = "A" if score["A"] > score["B"] else "B"
        wins[winner] += 1
        series.matches.append({"winner": winner, "score": score})
        lines.append("wait 1000")
        if max(wins.values()) < need:
            lines.append(f"{press} new  # the next match of the series")
            lines.append("wait 500")
    series.winner = "A" if wins["A"] > wins["B"] else "B"
    series.script = "\n".join(lines) + "\n"
    return series
