"""A log replaced by another file at the same path (a restore, a copy of another table's,
a new log under the old name): the index trusted the path, and `plateau games show N`
printed the other file's lines as game N. The index keeps the log's identity (its first
bytes and those before the offset read): `games show` refuses a log that is not the one
indexed, and `plateau index` (as `plateau log --db`) reads a replaced log from its first
line. Seeded replacements: another game's log, the same log's start with another ending,
a copy (the same content: still the log), the log grown."""

import random
import shutil

import pytest

from plateau.cli import main
from plateau.index import Index

TOCK = "table tock players=2 rules=classic\ncard AS\nmove RC1 R18\ncard KH\nmove GC1 G18\n"
WEYKICK = "table weykick mode=first-to:1 variant=hockey\nball A\nwait 200\nclear A\nwait 700\n"


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("replaced")
    out = {}
    for name, text in (("tock", TOCK), ("weykick", WEYKICK), ("tock2", TOCK)):
        (tmp / f"{name}.table").write_text(text)
        assert main(["sim", str(tmp / f"{name}.table"), "--log", str(tmp / f"{name}.jsonl")]) == 0
        out[name] = (tmp / f"{name}.jsonl").read_bytes()
    return out


def _cli(capsys, *argv):
    capsys.readouterr()
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_games_show_refuses_a_replaced_log_and_index_reads_it_again(logs, tmp_path, capsys):
    rng = random.Random(21)
    tock = logs["tock"]
    lines = tock.splitlines(keepends=True)
    for k in range(8):
        how = ("other game", "same start", "copy", "grown")[k % 4]
        log, db = tmp_path / f"t{k}.jsonl", tmp_path / f"t{k}.sqlite"
        log.write_bytes(tock)
        index = Index(db, log)
        index.catch_up()
        index.close()
        if how == "other game":
            new = logs[rng.choice(("weykick", "tock2"))]
        elif how == "same start":  # the first lines alike, then another game's
            new = b"".join(lines[: rng.randint(1, 3)]) + logs["weykick"]
        elif how == "copy":
            new = tock
        else:
            new = tock + logs["weykick"]
        (tmp_path / "new").write_bytes(new)
        shutil.move(tmp_path / "new", log)  # another inode at the path, as cp + mv make
        code, out, err = _cli(capsys, "games", "--db", db, "show", "1")
        if how in ("copy", "grown"):  # the log indexed, as it was or appended to
            assert code == 0 and " move " in out, (how, err)
            continue
        assert code != 0 and "is not the log" in err and "plateau index" in err, (how, err)
        assert "#1" not in out  # none of the other file's events shown as the game's
        code, out, err = _cli(capsys, "index", log, "--db", db)
        assert code == 0, err
        fresh = tmp_path / f"fresh{k}.sqlite"
        assert _cli(capsys, "index", log, "--db", fresh)[1] == out  # as a first index of it
        assert _cli(capsys, "games", "--db", db, "show", "1")[0] == 0
