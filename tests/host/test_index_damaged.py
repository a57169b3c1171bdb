"""An index database damaged inside (adversarial finding F3): a value of the wrong kind in
any column the host tools read (a disk error, a hand edit, another program) is refused in
one line naming the file and the way out (`plateau index LOG --rebuild`), never a
traceback; `--rebuild` then makes it again. Every column of both tables, with seeded values
of every SQLite type."""

import random
import shutil
import sqlite3

import pytest
from simkit import logged

from plateau.cli import main
from plateau.logger import COLUMNS

EXAMPLE = "table tock players=2 rules=classic\ncard AS\nmove RC1 R18\nwait 1500\n"
BAD = [
    "x",
    "",
    "{not json",
    "[1]",
    '{"a": "b"}',
    '{"a": -1}',
    "\x1b[31mred",
    b"\x1b[1A",
    b"",
    1.5,
    -1,
    2**62,
    None,
    0,
]


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("index")
    db = tmp / "t.sqlite"
    return logged(tmp, "t", EXAMPLE, "--db", db), db


def _run(capsys, *argv):
    capsys.readouterr()
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_F3_every_column_with_a_value_of_every_kind(made, tmp_path, capsys):
    log, good = made
    rng = random.Random(3)
    refused = cases = 0
    for table, columns in COLUMNS.items():
        for column in columns:
            for value in rng.sample(BAD, 8):
                db = tmp_path / f"{table}-{column}-{BAD.index(value)}.sqlite"
                shutil.copy(good, db)
                con = sqlite3.connect(db)
                try:
                    con.execute(f"update {table} set {column} = ?", (value,))
                    con.commit()
                except sqlite3.IntegrityError:
                    continue  # the schema itself refuses it (an id, a not null)
                finally:
                    con.close()
                cases += 1
                for argv in (
                    ["games", "--db", db],
                    ["games", "--db", db, "show", "1"],
                    ["index", log, "--db", db],
                ):
                    try:
                        code, out, err = _run(capsys, *argv)
                    except Exception as e:  # noqa: BLE001 (what the finding saw: a traceback)
                        pytest.fail(f"{argv[0]} on {table}.{column} = {value!r}: {e!r}")
                    what = (argv[0], table, column, value, err)
                    assert code in (0, 1, 2), what
                    if code == 2:  # games show: the log a row names is not there
                        assert err.count("\n") == 1 and "the game's log" in err, what
                    elif code:
                        refused += 1
                        assert err.count("\n") == 1 and str(db) in err, what
                        assert "--rebuild" in err or "no game" in err, what
                    assert "\x1b" not in out + err, what
                code, out, err = _run(capsys, "index", log, "--db", db, "--rebuild")
                if table == "games" and column == "log":
                    continue  # the damaged rows are no longer this log's: another log's
                assert code == 0, (table, column, value, err)
                assert "1 games in" in out, (table, column, value, out)
    print(f"damaged index: {cases} databases, {refused} commands refused in one line")
    assert refused > cases  # most damage is refused by more than one command
