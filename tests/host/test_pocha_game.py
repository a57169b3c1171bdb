"""Whole Pocha games (issue 11): a generated short game for 3 in this process, and a full
default-schedule game for 4 through `plateau sim` (firmware under micropython, pty), each
scored hand by hand as the generator scored it, with the final ranking."""

import json
import subprocess
import sys
import tempfile

from conftest import REPORT

from plateau import HARDWARE
from plateau.fw.games.pocha.rules import schedule
from plateau.fw.sim.run import play
from plateau.games.pocha.generate import generate as generate_pocha


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
    assert [tuple(r) for r in last["ranking"]] == game.places  # K10, places included
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


def _tied_below_first(game):
    totals = [t for _, t, _ in game.places]
    below = [t for t in totals if t != max(totals)]
    return len(below) != len(set(below))


def test_K8_K10_tied_totals_rank_alike_under_micropython_and_cpython():
    """Issue 16: MicroPython's sort is not stable, so equal totals once came out in another
    order on the board. The first generated games (seeded search, a drawn first dealer)
    whose totals tie below first place, one of them after tie-break hands: their rankings
    through `plateau sim` (the firmware under micropython) and through the firmware in
    this process (CPython) are the same, and are rules.ranking's (K10); hands are numbered
    1, 2, ... tie-breaks included (K8)."""
    games = []
    for players in (5, 4):
        seed = 0
        while True:
            game = generate_pocha(players, 40, "short", seed=seed, draw=True)
            extra = len(game.hands) > len(schedule(40, players, "short"))
            if _tied_below_first(game) and (extra or players == 4):
                break
            seed += 1
        games.append(game)
    assert any(len(g.hands) > len(schedule(40, len(g.totals), "short")) for g in games)
    for game in games:
        on_board = _plateau_sim(game.script)
        with tempfile.TemporaryDirectory() as d:
            path = f"{d}/pocha.table"
            with open(path, "w") as f:
                f.write(game.script)
            on_laptop = play(path, str(HARDWARE), state=f"{d}/flash")
        for events in (on_board, on_laptop):
            _same_game(game, events)
            (dealer,) = [e for e in events if e["type"] == "dealer"]
            assert dealer["seat"] == game.dealer  # K2: drawn at the table
            numbers = [e["hand"] for e in events if e["type"] == "hand_end"]
            assert numbers == list(range(1, len(game.hands) + 1))
        rank = [
            [e["ranking"] for e in ev if e["type"] == "match_end"] for ev in (on_board, on_laptop)
        ]
        assert rank[0] == rank[1]
        REPORT.append(
            f"pocha: {len(game.totals)} players, {len(game.hands)} hands, tied totals "
            f"ranked alike under micropython and CPython: {rank[0][0]}"
        )
