"""`plateau games`: the games the SQLite index holds, read back (the index was written and
never read by any command)."""

import subprocess
import sys

TOCK = """table tock players=2 rules=classic
card AS
move RC1 R18
card KH
move GC1 G18
card 5D
move R18 G5
"""
WEYKICK = """table weykick mode=first-to:1 variant=hockey
ball A
wait 200
clear A
wait 700
"""


def plateau(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "plateau", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


def test_games_lists_and_shows_what_was_logged(tmp_path):
    log, db = tmp_path / "t.jsonl", tmp_path / "t.sqlite"
    for name, text in (("a.table", TOCK), ("b.table", WEYKICK)):
        (tmp_path / name).write_text(text)
        done = plateau("sim", str(tmp_path / name), "--json", "--log", str(log), "--db", str(db))
        assert done.returncode == 0, done.stderr
    out = plateau("games", "--db", str(db))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[-1].startswith("2 games in")
    assert "tock classic" in lines[0] and "2 players" in lines[0] and " 3 moves" in lines[0]
    assert "weykick" in lines[1] and "winner B" in lines[1]  # the ball in goal A: B scores
    assert str(log) in lines[1]
    shown = plateau("games", "--db", str(db), "show", "2")
    assert shown.returncode == 0, shown.stderr
    assert "side B scores" in shown.stdout and "match_end" in shown.stdout
    assert "#1    card" not in shown.stdout  # only that game's lines
    tock = plateau("games", "--db", str(db), "show", "1").stdout
    assert tock.count(" move ") == 3 and "duration" in tock


def test_games_errors(tmp_path):
    done = plateau("games", "--db", str(tmp_path / "none.sqlite"))
    assert done.returncode == 2 and "no index" in done.stderr
    assert not (tmp_path / "none.sqlite").exists()  # reading makes no file
    db = tmp_path / "t.sqlite"
    (tmp_path / "w.table").write_text(WEYKICK)
    plateau(
        "sim", str(tmp_path / "w.table"), "--json", "--log", str(tmp_path / "l"), "--db", str(db)
    )
    done = plateau("games", "--db", str(db), "show", "9")
    assert done.returncode == 1 and "no game 9" in done.stderr
    done = plateau("games", "--db", str(db), "frob")
    assert done.returncode == 2
