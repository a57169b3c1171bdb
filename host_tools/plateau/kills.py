"""Where the reset harness (`plateau resets`) kills a game: script lines where a reset hurts
most, as each game's host module says (its kill_place: inside a Jack swap, during a 7, with
the pile holding the deck's last card, mid-move (Tock); in a tie-break hand, in the draw for
the first dealer and after the game ended (Pocha); mid-hand, at showdown and in the draw for
the button (Hold'em); with the ball in a goal and right after it was taken out (Weykick)),
and anywhere. The line is seeded; the instant, a few milliseconds after the simulator
reached it, is the machine's (what the firmware was doing then: scanning, saving, writing a
frame)."""

from __future__ import annotations

import random

from plateau.games import find

# In every other killed run the host (`plateau log`) is started late: the board plays on with
# no host listening and is killed (once or more) between its EARLY/2th and EARLY th script
# lines, and once it is back the host asks for everything from the first event: tens of
# events, all still in the ring (256 events, 16 KB). A board that restarted must resend every
# event it had saved, as it would have without the reset.
EARLY = 60  # lines: at most about 80 events, 8 KB (Hold'em, the wordiest)
SAVING = -1.0  # a kill point's delay meaning: at the next save under way


def _nowhere(n: int, verb: str | None, raw: str, seen: dict) -> tuple[list, str | None]:
    """A game that says nowhere in particular: kills land anywhere."""
    return [], None


def places(game: str, text: str) -> dict[str, list[int]]:
    """Script lines (1-based) where a kill hurts most, by kind; "any": every action line.
    Where they are is the game's own (its host module's kill_place: the places a line marks,
    the stretch it starts, its generator's comments included: a Jack swap, a hand)."""
    lines = text.split("\n")
    out: dict[str, list[int]] = {"any": []}

    def add(kind: str, n: int) -> None:
        out.setdefault(kind, []).append(n)

    view = find(game)
    kill_place = view.kill_place or _nowhere
    seen: dict = {}  # what the game's kill_place counts
    inside = None  # the kind of stretch we are in: "seven", "pile", "tie-break", ...
    for i, raw in enumerate(lines):
        n = i + 1
        word = raw.split("#", 1)[0].split()[:1]
        verb = word[0] if word else None
        marks, stretch = kill_place(n, verb, raw, seen)
        for kind, at in marks:
            add(kind, at)
        if stretch is not None:
            inside = stretch or None
        if verb is None:
            continue
        out["any"].append(n)
        if inside and verb in ("card", "move", "lift", "place", "send", "wait", "gather"):
            add(inside, n)
    if view.KILL_AFTER_END:  # the game over: its last lines (the final wait)
        out["after the game ended"] = out["any"][-view.KILL_AFTER_END :]
    out["mid-save"] = out["any"]  # the kill waits there for a save under way (see run)
    return out


def choose(game: str, text: str, kills: int, rng: random.Random) -> list[tuple[int, float]]:
    """`kills` kill points: (script line, delay in s after the simulator reached it), half
    of them in the places a reset hurts most, the others anywhere."""
    where = places(game, text)
    special = [k for k in where if k != "any" and where[k]]
    points = []
    for i in range(kills):
        kind = special[i % len(special)] if special and i % 2 == 0 else "any"
        # aimed at a short stretch (a Jack swap is 4 actions), the kill follows closely
        delays = (0, 0, 0.0005, 0.001) if kind != "any" else (0, 0.0005, 0.001, 0.003, 0.01)
        # mid-save: the kill comes as soon as a file being saved shows on the flash
        points.append(
            (rng.choice(where[kind]), SAVING if kind == "mid-save" else rng.choice(delays))
        )
    return sorted(points)


def plan(
    game: str, text: str, n: int, late: bool, rng: random.Random
) -> tuple[list[tuple[int, float]], int]:
    """A run's `n` kill points (sorted) and how many of them come before the host starts
    (0: it is there from the start). With `late`, one of the `n` is an early kill with nobody
    listening (EARLY), the others are chosen as usual: `--kills N` makes N kills, not N plus
    the early ones."""
    if not late:
        return choose(game, text, n, rng), 0
    every = places(game, text)["any"]
    lines = every[EARLY // 2 : EARLY] or every[: len(every) // 2 + 1]  # (a short game)
    early = (rng.choice(lines), rng.choice((0, 0.001)))
    points = sorted(choose(game, text, n - 1, rng) + [early])
    return points, points.index(early) + 1


def kind_of(game: str, text: str, line: int) -> list[str]:
    """The places a script line belongs to (to say where the kills landed)."""
    skip = ("any", "mid-save")  # mid-save is said by what the kill left on the flash
    return sorted(k for k, ns in places(game, text).items() if line in ns and k not in skip)


SAVING = -1.0  # a kill point's delay meaning: at the next save under way
