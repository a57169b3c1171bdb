"""`plateau gen` as the docs say (issue 32): its --help names every game the host knows, and
the default Hold'em script ends (one seat with every chip, the blinds raised by a clock), so
that a simulated Hold'em table gives the league a result that the scoreboard's replay rates;
`--no-end` keeps the fixed number of hands."""

from __future__ import annotations

import subprocess
import sys

import pytest

from plateau import games
from plateau.club.replay import RATED, Replay
from plateau.logger import read_log


def plateau(*argv) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "plateau", *map(str, argv)],
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_gen_help_names_every_game():
    done = plateau("gen", "--help")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    for g in games.names():
        assert g in text, (g, text)
        assert f"{g} (--game {g})" in text or g == "tock", (g, text)


@pytest.mark.parametrize("seed", [0, 5])
def test_the_default_holdem_script_ends_in_a_rated_result(tmp_path, seed):
    script = tmp_path / "holdem.table"
    done = plateau("gen", "--game", "holdem", "--seed", seed, "-o", script)
    assert done.returncode == 0, done.stderr
    assert "has every chip" in done.stderr + done.stdout, done.stderr
    text = script.read_text()
    hands = text.count("send hand")
    assert hands < 200 and ("send blinds" in text) == (hands > 10), hands
    log = tmp_path / "holdem.jsonl"
    sim = plateau("sim", script, "--json", "--log", log)
    assert sim.returncode == 0, sim.stderr[-2000:]
    replay = Replay("t1", "e1")
    results = []
    for n, ev in enumerate((ev for _, ev, _ in read_log(log) if ev), 1):
        results += replay.feed(n, ev)[1]
    assert [r["verdict"] for r in results] == [RATED], results
    assert len(results[0]["ranking"]) == 3  # every seat placed


def test_no_end_keeps_the_hands_asked(tmp_path):
    script = tmp_path / "h.table"
    done = plateau("gen", "--game", "holdem", "--no-end", "--hands", 7, "-o", script)
    assert done.returncode == 0, done.stderr
    text = script.read_text()
    assert text.count("send hand") == 7 and "send blinds" not in text
