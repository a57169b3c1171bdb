"""A log that holds several games, one after another on one board (`send new B` after a game
of A): `plateau replay` checks every one of them and the live view draws each (adversarial
findings F4, F5: a Tock game after Pocha, Hold'em or Weykick was never checked nor drawn, as
its `game` event says only the settings, not a position). Every ordered pair of games, logs
made by the simulator; each game's own events changed in turn (seeded), the change reported."""

import itertools
import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from simkit import logged, plateau, tampered

from plateau.logger import read_log
from plateau.view import View

TABLE = {
    "tock": "tock players=2 rules=classic",
    "holdem": "holdem seats=2 stacks=100 blinds=1/2 button=1",
    "pocha": "pocha players=3 deck=40 schedule=short dealer=1",
    "weykick": "weykick mode=first-to:2",
}
# a few plays of each, with cards only one deck has (K1b: `4C` names a card of both decks)
PLAY = {
    "tock": ["card AS", "move RC1 R18", "wait 1500"],
    "holdem": [
        "send hand",
        "send call 1",
        "send check 2",
        "card AS",
        "card KD",
        "card 9H",
        "send bet 2 10",
        "send fold 1",
        "wait 300",
    ],
    "pocha": [
        "card 5O",
        "send bid 2 1",
        "send bid 3 0",
        "send bid 1 0",
        "card 7E",
        "card 3E",
        "card 7B",
        "wait 500",
    ],
    "weykick": ["ball A", "wait 200", "clear A", "wait 1500"],
}
# an event of each game changed so that the rules cannot allow it
TAMPER = {
    "tock": ("move", lambda ev: ev.update(steps=[["camp", "G5"]])),
    "holdem": ("hand_end", lambda ev: ev["stacks"].update({"1": ev["stacks"]["1"] + 1})),
    "pocha": ("trick", lambda ev: ev.update(winner=str(int(ev["winner"]) % 3 + 1))),
    "weykick": ("goal", lambda ev: ev["score"].update(A=ev["score"]["A"] + 1)),
}
PAIRS = list(itertools.permutations(TABLE, 2))


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("switch")

    def one(pair):
        a, b = pair
        lines = [f"table {TABLE[a]}", *PLAY[a], f"send new {TABLE[b]}", *PLAY[b]]
        return pair, logged(tmp, f"{a}_{b}", "\n".join(lines) + "\n", "--json")

    with ThreadPoolExecutor(2) as pool:  # the simulator is a subprocess: two at a time
        return dict(pool.map(one, PAIRS))


def _events(log):
    return [ev for _, ev, _ in read_log(log) if ev]


def test_every_game_of_a_log_is_replayed(logs):
    for (a, b), log in logs.items():
        kinds = [ev["type"] for ev in _events(log)]
        switch = kinds.index("game")
        for game, part in ((a, kinds[:switch]), (b, kinds[switch:])):
            assert TAMPER[game][0] in part, (a, b, game, kinds)  # the script did its job
        done = plateau("replay", str(log))
        assert done.returncode == 0, (a, b, done.stdout, done.stderr)
        for game in (a, b):
            if game == "tock":  # the final board of its game, or the line of it
                assert "R1-18 " in done.stdout and "R18" in done.stdout, (a, b, done.stdout)
            else:
                assert f"  {game}:" in done.stdout, (a, b, done.stdout)


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: f"{p[0]}-then-{p[1]}")
def test_a_changed_event_of_either_game_is_reported(logs, pair, tmp_path):
    rnd = random.Random(f"{pair}")
    lines = logs[pair].read_text().splitlines()
    switch = next(i for i, ln in enumerate(lines) if '"type":"game"' in ln)
    for game, (lo, hi) in ((pair[0], (0, switch)), (pair[1], (switch, len(lines)))):
        kind, change = TAMPER[game]
        at = [i for i in range(lo, hi) if f'"type":"{kind}"' in lines[i]]
        i = rnd.choice(at)
        bad = tampered(lines, i, change, tmp_path / f"{game}.jsonl")
        done = plateau("replay", str(bad))
        assert done.returncode == 1, (pair, game, kind, done.stdout, done.stderr)
        assert f"line {i + 1} " in done.stdout + done.stderr, (pair, game, done.stdout)


def test_the_live_view_draws_a_tock_game_that_follows_another(logs, capsys):
    """The live view (`plateau log`, `plateau sim`): after the switch to Tock and a move, the
    board with the moved pawn, never "(no game yet)"."""
    for (a, b), log in logs.items():
        if b != "tock":
            continue
        view = View(False, draw="rows")
        capsys.readouterr()
        for ev in _events(log):
            view.show(ev)
        seen = capsys.readouterr().out
        assert "(no game yet)" not in seen, (a, b, seen)
        assert "R1-18 .................r" in seen and "last: AS R camp->R18" in seen, (a, b)
