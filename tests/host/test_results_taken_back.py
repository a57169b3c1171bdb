"""A result the table takes back (adversarial finding: the league kept Weykick results the
table withdrew with `undo` after `match_end`, and a Tock win undone; the index and replay
kept the Tock winner). Logs made by the simulator: Weykick matches won and withdrawn, once
and twice, then won for good or not; a Tock win undone and the game played on. The league
(through the club, as `plateau serve --log` feeds it), the index and replay hold only the
results that stand."""

import json

import pytest
from simkit import logged, plateau

from plateau.club.league import League
from plateau.club.server import Club, LocalLog
from plateau.index import Index

WIN = {
    "rules": "classic",
    "players": 4,
    "turn": "R",
    "pawns": {
        "R": ["RH2", "RH3", "RH4", "R15"],
        "G": ["camp"] * 4,
        "B": ["camp"] * 4,
        "Y": ["camp"] * 4,
    },
    "waiting": [],
}
GOAL = ["ball {s}", "wait 200", "clear {s}", "wait 700"]
UNDO = ["button undo", "wait 500"]
# (script, the results that stand: each match's winner, in order)
CASES = {
    "wk_once": (["table weykick mode=first-to:1", *GOAL, *UNDO], "weykick", []),
    "wk_twice": (["table weykick mode=first-to:1", *GOAL, *UNDO, *UNDO], "weykick", []),
    "wk_again": (
        ["table weykick mode=first-to:1", *GOAL, *UNDO, *UNDO, *GOAL],
        "weykick",
        [["A"]],  # a ball in goal B: side A scores
    ),
    "tock_undo": (
        [
            "table tock players=4",
            "position win.json",
            "card AS",
            "move R15 RH1",
            "wait 300",
            "send undo",
            "move RH1 R15",
            "wait 500",
            "card 3S",
            "move R15 G1",
            "wait 500",
        ],
        "tock",
        [],
    ),
}


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("withdrawn")
    (tmp / "win.json").write_text(json.dumps(WIN))
    out = {}
    for name, (lines, _, _) in CASES.items():
        out[name] = logged(tmp, name, "\n".join(lines).replace("{s}", "B") + "\n")
    return out


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_result_taken_back_is_no_result(logs, name, tmp_path):
    log = logs[name]
    _, game, standing = CASES[name]
    kinds = [json.loads(line)["type"] for line in log.read_text().splitlines()]
    assert ("withdrawn" if game == "weykick" else "win") in kinds  # the script did its job
    league = League(tmp_path / "club.sqlite")
    club = Club(league)
    LocalLog(club, str(log), "t1").poll()
    assert [r["ranking"][0] for r in league.results(game)] == [w for w in standing], name
    rated = league.standings(game)["ratings"]
    assert bool(rated) == bool(standing), (name, rated)
    league.close()
    index = Index(tmp_path / "index.sqlite", log)
    index.catch_up()
    winners = [row[5] for row in index.games()]
    index.close()
    assert winners[-1] == (standing[-1][0] if standing else None), (name, winners)
    if game == "tock":
        done = plateau("replay", log)
        assert done.returncode == 0 and "WINNER" not in done.stdout, done.stdout
