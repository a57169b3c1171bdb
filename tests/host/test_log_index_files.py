"""`--log F --db F` (a typo) made the log and its SQLite index share one file: SQLite's next
page would be written over log lines (adversarial finding ADV5-13). Refused in one line,
before anything is written, by every command that logs: the same path, another spelling of
it, a link to it; on a new path or an existing log."""

import os

from plateau.cli import main

EXAMPLE = "table weykick\nball A\nwait 100\nclear A\nwait 100\n"


def test_a_log_and_its_index_in_one_file_are_refused(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "w.table").write_text(EXAMPLE)
    (tmp_path / "sub").mkdir()
    os.symlink(tmp_path / "old.jsonl", tmp_path / "link.jsonl")
    (tmp_path / "old.jsonl").write_text("")
    for log, db in (
        ("new.jsonl", "new.jsonl"),
        ("new2.jsonl", "sub/../new2.jsonl"),
        (str(tmp_path / "new3.jsonl"), "new3.jsonl"),
        ("old.jsonl", "link.jsonl"),
    ):
        before = sorted(p.name for p in tmp_path.iterdir())
        capsys.readouterr()
        assert main(["sim", "w.table", "--log", log, "--db", db]) != 0
        err = capsys.readouterr().err
        assert "is the log itself" in err, (log, db, err)
        assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written
    assert (tmp_path / "old.jsonl").read_text() == ""
    # and logging with an index of its own goes on as ever
    assert main(["sim", "w.table", "--log", "a.jsonl", "--db", "a.sqlite"]) == 0
