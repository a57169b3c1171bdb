"""Whole generated games of all four games across the board's tick counter wrap (issue 34).

MicroPython's ticks_ms() on an ESP32 reads 0 again 2**30 ms (12.4 days) after boot. Each
game `plateau gen` writes is played through the simulated firmware under the real
`micropython` (tests/firmware/wrapkit.py, which notes every frame with the world's time it
went out at): once with the counter starting at 0, then with it wrapping at seeded points
of the game, 1-3 s before a frame the board wrote (moves half made, goals in their lockout,
cards read, heartbeats due). Nothing may differ but the counter's readings, which must read
exactly `start` more: on the 64-bit build, every frame at the same time; on the chip's
interpreter (the 32-bit build, firmware frozen, at a plain ESP32's 111,936 B), whose heap
runs short mid-game, the same numbered events in the same order with the same fields and
the same link messages, a frame that found the heap short waiting a pass for it (counted in
the report: a counter starting at 10**8, which does not wrap in a game, moves as many, its
readings' longer digits using the heap otherwise)."""

import os
import random
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from conftest import REPORT

from plateau import HARDWARE
from plateau.build import BUILD, build, mpy_cross
from plateau.games.holdem.generate import generate as generate_holdem
from plateau.games.pocha.generate import generate as generate_pocha
from plateau.games.tock.generate import generate
from plateau.games.weykick.generate import generate as generate_weykick
from plateau.sim import SIM_HEAP, micropython

CHIP_HEAP = 111936
MP32 = os.environ.get("PLATEAU_MP32")
KIT = Path(__file__).parents[1] / "firmware" / "wrapkit.py"
PERIOD = 1 << 30
SEED = 34  # the wrap points of every game (printed in the report)
WRAPS = 2  # wrapped runs of each game on the 64-bit build (1 on the chip's: the same events)


def games():
    return [
        ("tock classic 3p", generate("classic", 3, seed=1).script),
        ("weykick best-of-5 with incidents", generate_weykick(seed=2, mess=0.3).script),
        ("holdem 5 seats 20 hands", generate_holdem(5, 20, seed=1).script),
        ("pocha 4 players", generate_pocha(4, 40, "short", seed=3, draw=True).script),
    ]


def play(interpreter, heap, path_env, script, start):
    """The trace of `script` with the counter starting at `start`: [(ms, payload line)]."""
    with tempfile.TemporaryDirectory() as state:
        done = subprocess.run(
            [interpreter, "-X", f"heapsize={heap}", "-m", "wrapkit", str(script)]
            + [str(HARDWARE), state, str(start)],
            capture_output=True,
            text=True,
            env=dict(os.environ, MICROPYPATH=path_env),
            cwd=state,  # nothing importable here
            timeout=600,
        )
    assert done.returncode == 0, done.stderr[-2000:]
    out = []
    for line in done.stdout.splitlines():
        ms, payload = line.split(" ", 1)
        out.append((int(ms), payload))
    return out


def compare(ref, got, exact):
    """(what differs, or None; how many numbered events went out at another time). exact:
    every frame the same at the same time; else the numbered events and the link messages
    each the same, in the same order, whenever a frame went out."""
    if exact:
        for i, (a, b) in enumerate(zip(ref, got)):
            if a != b:
                return f"frame {i}: from 0 {a[0]} {a[1][:200]}; wrapped {b[0]} {b[1][:200]}", 0
        return (None if len(ref) == len(got) else f"{len(got)} frames, not {len(ref)}"), 0
    for numbered in (True, False):
        mine = [f for f in ref if ('"seq":' in f[1]) == numbered]
        theirs = [f for f in got if ('"seq":' in f[1]) == numbered]
        for i in range(max(len(mine), len(theirs))):
            a = mine[i][1] if i < len(mine) else "(none)"
            b = theirs[i][1] if i < len(theirs) else "(none)"
            if a != b:
                what = "event" if numbered else "message"
                return f"{what} {i}: from 0 {a[:200]}; wrapped {b[:200]}", 0
        if numbered:
            late = sum(1 for x, y in zip(mine, theirs) if x[0] != y[0])
    return None, late


def test_whole_games_of_every_game_across_the_wrap(tmp_path):
    subprocess.run([mpy_cross(), "-o", str(tmp_path / "wrapkit.mpy"), str(KIT)], check=True)
    build(only_changed=True)
    interpreters = [(micropython(), int(SIM_HEAP.rstrip("k")) * 1024, f"{BUILD}:{tmp_path}", True)]
    if MP32:
        interpreters.append((MP32, CHIP_HEAP, f".frozen:{tmp_path}", False))
    else:
        REPORT.append("wrap: no 32-bit build (make test SHARED=...): the 64-bit build alone")
    rng = random.Random(SEED)
    todo = []
    for name, script in games():
        path = tmp_path / (name.split()[0] + ".table")
        path.write_text(script)
        for where in interpreters:
            todo.append((name, path, where, rng.random()))
    t0 = time.monotonic()

    def one(item):
        name, path, (interpreter, heap, path_env, exact), pick = item
        ref = play(interpreter, heap, path_env, path, 0)
        r = random.Random(pick)
        results = []
        for _ in range(WRAPS if exact else 1):
            at = max(1, r.choice(ref)[0] - r.randint(1, 3000))  # wraps `at` ms into the game
            start = -at % PERIOD
            got = play(interpreter, heap, path_env, path, start)
            results.append((at, *compare(ref, got, exact)))
        return name, exact, len(ref), ref[-1][0], results

    with ThreadPoolExecutor(max_workers=2) as pool:
        done = list(pool.map(one, todo))
    REPORT.append(
        f"wrap: whole games from a counter at 0 and wrapping mid-game (seed {SEED}), "
        f"{time.monotonic() - t0:.0f} s:"
    )
    bad = []
    for name, exact, frames, ms, results in done:
        build_ = "64-bit, every frame at its time" if exact else "32-bit chip heap"
        for at, why, held in results:
            REPORT.append(
                f"  {name:32s} {build_:32s} {frames:5d} frames over {ms / 1000:5.0f} s, "
                f"wrapped at {at / 1000:7.3f} s: "
                + ("same" if not why else "DIFFERS")
                + (f" ({held} events out at another pass: the heap, either run)" if held else "")
            )
            if why:
                bad.append((name, build_, at, why))
    assert not bad, bad
