"""A table's log replaced by a copy of itself (a new inode: cp + mv, rsync, a restore from a
backup) is folded again as a new epoch: each finished game in it was recorded and rated
again (adversarial finding ADV5-18). A result is the board's numbered event that ended the
game (boot and seq): recorded once, whatever the epoch."""

import random

from plateau.club.league import League
from plateau.club.state import fold_log
from plateau.games import find


def test_a_log_folded_again_under_new_epochs_records_each_result_once(tmp_path):
    from plateau.cli import main

    rng = random.Random(18)
    league = League(tmp_path / "club.sqlite")
    total = 0
    for game in ("weykick", "holdem"):
        script = tmp_path / f"{game}.table"
        script.write_text(find(game).script(rng.randrange(100), "short"))
        log = tmp_path / f"{game}.jsonl"
        assert main(["sim", str(script), "--log", str(log)]) == 0
        first = fold_log(log, game, "e0").finished
        assert first, game
        total += len(first)
        for epoch in range(rng.randint(2, 4)):  # copies of the same log: new epochs
            for rec in fold_log(log, game, f"e{epoch + 1}").finished:
                league.record(rec)
        assert len(league.results(game)) == len(first), game
    assert len(league.results()) == total


def test_a_damaged_result_is_refused_in_one_line(tmp_path, capsys):
    # ADV5-22: a club_results row whose ranking is not JSON ended `plateau league` in a
    # traceback (and the league page in a 500); numbers for seats silently dropped seats.
    # Every JSON column with seeded bad values: one line naming the row and the way out

    from plateau.cli import main

    rng = random.Random(22)
    bad = ["not json", "", "[1, 2]", '[["3"], [1, 2]]', '{"a": 1}', "null", 5, None, b"\xff"]
    for column in ("seats", "players", "ranking"):
        for value in rng.sample(bad, 5):
            db = tmp_path / f"{column}-{bad.index(value)}.sqlite"
            league = League(db)
            league.seat("t1", {"1": "Ann", "2": "Bob"})
            rec = {
                "table": "t1",
                "epoch": "e",
                "game": "holdem",
                "last_line": 9,
                "seats": ["1", "2"],
                "ranking": [["1"], ["2"]],
            }
            assert league.record(rec)
            league.db.execute(f"update club_results set {column} = ?", (value,))
            league.db.commit()
            capsys.readouterr()
            assert main(["league", "--db", str(db), "--game", "holdem"]) == 1
            err = capsys.readouterr().err
            assert "damaged club result 1" in err and "delete from club_results" in err, err
            assert len(err.splitlines()) == 1, err
