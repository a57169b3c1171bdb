"""Whole Pocha games (issue 11): a generated short game for 3 in this process, and a full
default-schedule game for 4 through `plateau sim` (firmware under micropython, pty), each
scored hand by hand as the generator scored it, with the final ranking."""

import json
import subprocess
import sys
import tempfile

from conftest import REPORT

from plateau import HARDWARE
from plateau.gen import generate_pocha
from sim.run import play


def test_K3_K8_K10_a_whole_short_game_for_three_in_this_process():
    game = generate_pocha(3, 40, "short", seed=4)
    with tempfile.TemporaryDirectory() as d:
        path = f"{d}/pocha.table"
        with open(path, "w") as f:
            f.write(game.script)
        events = play(path, str(HARDWARE), state=f"{d}/flash")
    _same_game(game, events)


def test_K3_K8_K10_a_whole_short_game_for_three_under_micropython():
    game = generate_pocha(3, 40, "short", seed=5)
    _same_game(game, _plateau_sim(game.script))


def _plateau_sim(script):
    with tempfile.TemporaryDirectory() as d:
        path = f"{d}/game.table"
        with open(path, "w") as f:
            f.write(script)
        done = subprocess.run(
            [sys.executable, "-m", "plateau", "sim", path, "--json"],
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def _same_game(game, events):
    ends = [e for e in events if e["type"] == "hand_end"]
    assert [e["scores"] for e in ends] == [h["scores"] for h in game.hands]
    (last,) = [e for e in events if e["type"] == "match_end"]
    assert [s for s, _ in last["ranking"]] == game.ranking
    assert not [e for e in events if e["type"] in ("illegal", "error")]


def test_K3_K10_full_default_game_for_four_through_plateau_sim():
    game = generate_pocha(4, 40, "default", seed=9)
    events = _plateau_sim(game.script)
    _same_game(game, events)
    ends = [e for e in events if e["type"] == "hand_end"]
    assert len(ends) >= 22  # 9 + 4 + 9, and any tie-break hands
    assert ends[-1]["totals"] == game.totals
    (last,) = [e for e in events if e["type"] == "match_end"]
    REPORT.append(
        f"pocha: a default game for 4 ({len(ends)} hands) through plateau sim, "
        f"final ranking {last['ranking']}"
    )
