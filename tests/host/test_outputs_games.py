"""What the players see (issue 29), checked against the rules over generated games of every
game: tests/firmware/lookcheck.py plays each through the simulated table and, each time the
table has finished drawing a change, reads the LEDs and the displays off the chip models and
compares them with the rules core (the pawns lit are exactly those with a legal move of the
card, a lifted pawn's squares exactly where its parts end, the squares blinking exactly those
an `illegal`'s fix names, the scores, whose turn, the card spot's light, the reasons). On the
32-bit build with the firmware frozen when there is one (PLATEAU_MP32), else the 64-bit one.
The counts of what was checked are printed under "measured"."""

import json
import os
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from conftest import REPORT

from plateau import HARDWARE
from plateau.build import BUILD, build, mpy_cross
from plateau.games.holdem.generate import generate as generate_holdem
from plateau.games.pocha.generate import generate as generate_pocha
from plateau.games.tock.generate import generate as generate_tock
from plateau.games.weykick.generate import generate as generate_weykick
from plateau.sim import micropython

MP32 = os.environ.get("PLATEAU_MP32")
RUNNER = Path(__file__).parents[1] / "firmware" / "lookcheck.py"
HEAP = "8m"  # the checker lists every legal move (a 7's, thousands) beside the table


def games():
    out = []
    for rules, players, seed in (("classic", 4, 5), ("toc-fr", 3, 8), ("king-exit", 2, 11)):
        out.append((f"tock {rules} {players}p", generate_tock(rules, players, seed=seed).script))
    out.append(("weykick", generate_weykick(seed=3).script))
    out.append(("holdem", generate_holdem(seed=4).script))
    out.append(("pocha", generate_pocha(seed=6).script))
    return out


def _check(name, script, runner_dir):
    interpreter = MP32 or micropython()
    path_env = f".frozen:{runner_dir}" if MP32 else f"{BUILD}:{runner_dir}"
    with tempfile.TemporaryDirectory() as work:
        path = Path(work) / "game.table"
        path.write_text(script)
        state = Path(work) / "flash"
        state.mkdir()
        done = subprocess.run(
            [interpreter, "-X", f"heapsize={HEAP}", "-m", "lookcheck", str(path), str(HARDWARE)]
            + [str(state)],
            capture_output=True,
            env=dict(os.environ, MICROPYPATH=path_env),
            cwd=state,
            timeout=1500,
        )
    err = done.stderr.decode(errors="replace")
    assert done.returncode == 0, f"{name}: {err[-3000:]}"
    return json.loads(err.strip().splitlines()[-1])


def test_what_the_players_see_follows_the_rules(tmp_path):
    if not MP32:
        build(only_changed=True)
    subprocess.run([mpy_cross(), "-o", str(tmp_path / "lookcheck.mpy"), str(RUNNER)], check=True)
    for helper in ("check.py",):
        src = RUNNER.parent / helper
        subprocess.run(
            [mpy_cross(), "-o", str(tmp_path / (src.stem + ".mpy")), str(src)], check=True
        )
    cases = games()
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda c: _check(c[0], c[1], tmp_path), cases))
    REPORT.append("what the players see, checked against the rules after each change drawn:")
    for (name, _), counts in zip(cases, results):
        REPORT.append(
            f"  {name:24s} {counts['checks']:5d} looks: {counts['pawns']} pawn hints, "
            f"{counts['lifted']} lifted-pawn hints, {counts['fix']} fixes blinking, "
            f"{counts['displays']} display readings, {counts['spot']} spot lights"
        )
        assert counts["checks"] > 20, name
        assert counts["displays"] > 0, name
    tock = [c for (n, _), c in zip(cases, results) if n.startswith("tock")]
    assert sum(c["pawns"] for c in tock) > 100 and sum(c["lifted"] for c in tock) > 100
