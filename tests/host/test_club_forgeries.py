"""Results no table can forge (issue 32): whole games of the four games played by the
simulator, then the end of each changed by a seeded generator (clubkit.forgeries: a win said
of another seat or mid-game, a game taken up from a set position, a Weykick match ended 10-0
after the series or before its target, Pocha's places swapped or its match ended before its
schedule, every Hold'em chip given to a seat that lost). The scoreboard's replay rates each
true result and never a forged one: it is recorded disputed, with the rule it breaks; `plateau
replay` fails each forgery that breaks a rule on the line that does."""

from __future__ import annotations

import json
import random

import pytest
from clubkit import forgeries, script

from plateau.club.league import League
from plateau.club.server import Club
from plateau.games.holdem.generate import generate as generate_holdem
from plateau.logger import read_log

GAMES = ("tock", "weykick", "pocha", "holdem")


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    """A whole game of each kind (Hold'em: played until one seat has every chip)."""
    import subprocess
    import sys

    folder = tmp_path_factory.mktemp("forgeries")
    procs = {}
    for game in GAMES:
        table = folder / f"{game}.table"
        if game == "holdem":
            table.write_text(generate_holdem(seats=3, seed=4, stacks=60).script)
        else:
            table.write_text(script(game, 3))
        procs[game] = subprocess.Popen(
            [sys.executable, "-m", "plateau", "sim", str(table), "--json"]
            + ["--log", str(folder / f"{game}.jsonl")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
    for game, p in procs.items():
        assert p.wait(600) == 0, p.stderr.read().decode() if p.stderr else game
    return {g: [ev for _, ev, _ in read_log(folder / f"{g}.jsonl") if ev] for g in GAMES}


def verdicts(tmp_path, name: str, evs: list[dict]) -> list[dict]:
    """The results a scoreboard records from these events, as a bridge publishes them."""
    league = League(tmp_path / f"{name}.sqlite")
    club = Club(league)
    for n, ev in enumerate(evs, 1):
        club.event("t1", "e1", n, n - 1, ev)
    out = league.results()
    league.close()
    return out


def test_true_results_are_rated(logs, tmp_path):
    for game, evs in logs.items():
        got = verdicts(tmp_path, game, evs)
        assert got, game
        assert all(r["verdict"] == "rated" for r in got), (game, got)


def test_forged_results_are_never_rated(logs, tmp_path):
    rng = random.Random(32)
    tried = 0
    for game, evs in logs.items():
        true = {json.dumps(r["ranking"]) for r in verdicts(tmp_path, f"{game}-true", evs)}
        for round_ in range(3):
            for what, forged, rule in forgeries(game, evs, rng):
                tried += 1
                got = verdicts(tmp_path, f"{game}-{round_}-{tried}", forged)
                ended = [r for r in got if r["lines"][1] >= len(forged) - 1]
                assert ended, (game, what)  # the forged end is recorded: shown, in doubt
                for r in ended:
                    assert r["verdict"] == "disputed", (game, what, r)
                    assert rule is None or rule in r["why"], (game, what, r["why"])
                rated = {json.dumps(r["ranking"]) for r in got if r["verdict"] == "rated"}
                assert rated <= true, (game, what, rated)  # only the table's true results
    assert tried >= 3 * 9


def test_replay_names_the_rule_each_forgery_breaks(logs, tmp_path, capsys):
    from plateau.commands.logs import replay

    rng = random.Random(33)
    for game, evs in logs.items():
        for what, forged, rule in forgeries(game, evs, rng):
            log = tmp_path / f"{game}.jsonl"
            log.write_text("".join(json.dumps(e) + "\n" for e in forged))
            done = replay(str(log))
            said = capsys.readouterr().out
            if rule is None:  # rests on the board's word: replay takes it (the club does not)
                assert done == 0, (game, what, said)
            else:
                assert done == 1 and rule in said and "does not follow" in said, (game, what, said)
