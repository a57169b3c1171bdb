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
from plateau.logger import Logger
from plateau.schema import COLUMNS

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


# what each column may hold, as the schema documents it (plateau/schema.py): written here
# from the documentation, not taken from the checker under test
_COUNT = ("integer>=0",)
MAY_HOLD = {
    "games": {
        "id": _COUNT,
        "log": ("text",),
        "first_line": _COUNT,
        "last_line": _COUNT,
        "boot": ("text", "null"),
        "first_seq": ("integer>=0", "null"),
        "last_seq": ("integer>=0", "null"),
        "game": ("text", "integer>=0", "null"),
        "rules": ("text", "integer>=0", "null"),
        "players": ("integer>=0", "null"),  # how many play: a number, never a word (ADV5-5)
        "moves": _COUNT,
        "winner": ("text", "integer>=0", "null"),
    },
    "indexed": {
        "log": ("text",),
        "offset": _COUNT,
        "line": _COUNT,
        "boots": ("boots JSON",),
        "unindexed_games": _COUNT,
        "ident": ("text", "null"),
    },
}


def _sqlite_kind(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bytes):
        return "blob"
    if isinstance(value, float):
        return "real"
    if isinstance(value, int):
        return "integer>=0" if 0 <= value < 2**53 else "integer out of range"
    return "text"


def _holds(table, column, value) -> bool:
    if column == "boots":
        return False  # none of BAD is a boot's numbers seen
    if column == "last_line" and value == 0:
        return False  # before the game's first line
    if column == "first_line" and isinstance(value, int) and value > 4:
        return False  # after the game's last line (the example's game ends past line 4)
    return _sqlite_kind(value) in MAY_HOLD[table][column]


def _writer(log, db, tmp_path) -> str | None:
    """What the writers of the index (plateau log --db, plateau sim --log --db: a Logger)
    say on opening it: None when they take it. On a copy of the log: the index is of this
    log, the copy is another, so the writer reads every row it does not own too."""
    copy = tmp_path / "writer.jsonl"
    shutil.copy(log, copy)
    try:
        Logger(copy, db).close()
    except sqlite3.Error as e:
        return str(e)
    return None


def test_every_column_with_a_value_of_every_kind(made, tmp_path, capsys):
    """ADV5-5: every command that opens the index (plateau games, games show, index, and the
    writers) refuses the same damage in one line: a text `players`, a blob `log` (a row
    no log's reader selected), a game whose first line is after its last."""
    log, good = made
    rng = random.Random(5)
    refused = cases = 0
    kinds = set()
    for table, columns in COLUMNS.items():
        assert set(columns) == set(MAY_HOLD[table])
        for column in columns:
            values = rng.sample(BAD, 8) + [b"\x00\xff", "two", 80, 2.5]
            for value in values:
                db = tmp_path / f"{table}-{column}-{cases}.sqlite"
                cases += 1
                shutil.copy(good, db)
                con = sqlite3.connect(db)
                try:
                    con.execute(f"update {table} set {column} = ?", (value,))
                    con.commit()
                    # as stored: a column's affinity turns -1 into '-1' in a text column
                    value = con.execute(f"select {column} from {table}").fetchone()[0]
                except sqlite3.IntegrityError:
                    continue  # the schema itself refuses it (an id, a not null)
                finally:
                    con.close()
                kinds.add(_sqlite_kind(value))
                damaged = not _holds(table, column, value)
                what = (table, column, value)
                for argv in (
                    ["games", "--db", db],
                    ["games", "--db", db, "show", "1"],
                    ["index", log, "--db", db],
                ):
                    try:
                        code, out, err = _run(capsys, *argv)
                    except Exception as e:  # noqa: BLE001 (what the finding saw: a traceback)
                        pytest.fail(f"{argv[0]} on {table}.{column} = {value!r}: {e!r}")
                    seen = (argv[0], *what, out, err)
                    assert "\x1b" not in out + err, seen
                    if damaged:
                        assert code == 1, seen
                        assert err.count("\n") == 1 and str(db) in err and "--rebuild" in err, seen
                        refused += 1
                    else:
                        assert code in (0, 1, 2), seen  # 1: no game 1; 2: no such log
                        assert "damaged" not in err, seen
                said = _writer(log, db, tmp_path)
                if damaged:
                    assert said and "damaged index" in said and "--rebuild" in said, what
                    refused += 1
                else:
                    assert said is None, (*what, said)
                code, out, err = _run(capsys, "index", log, "--db", db, "--rebuild")
                assert code == 0, (*what, err)
                assert "1 games in" in out, (*what, out)
                assert main(["games", "--db", str(db)]) == 0, what  # nothing damaged is left
    assert {"text", "blob", "real", "integer>=0", "integer out of range", "null"} <= kinds
    print(f"damaged index: {cases} databases, {refused} opens refused in one line")


def test_a_writer_refuses_a_damaged_index_in_one_line(made, tmp_path, capsys):
    """plateau sim --log --db (a writer, as plateau log --db) on an index a reader refuses:
    refused in one line before the simulator starts, the log not written."""
    log, good = made
    db = tmp_path / "blob.sqlite"
    shutil.copy(good, db)
    con = sqlite3.connect(db)
    con.execute("update games set log = x'00ff'")
    con.commit()
    con.close()
    table = tmp_path / "t.table"
    table.write_text(EXAMPLE)
    new_log = tmp_path / "new.jsonl"
    code, out, err = _run(capsys, "sim", table, "--log", new_log, "--db", db)
    assert code == 1 and err.count("\n") == 1, (out, err)
    assert "damaged index: games.log holds b'\\x00\\xff'" in err and "--rebuild" in err, err
    assert not new_log.exists() or not new_log.read_bytes()
