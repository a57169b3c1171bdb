"""Every file an option writes is checked before the command runs (adversarial tester's
finding 24: `plateau gen -o /nonexistent/x.table` ended in a traceback, `plateau chaos --json`
into a missing folder after the whole run, its totals lost, `plateau calibrate --write` after
the squares were walked). A path whose folder is not there, or is a file, is one argparse
error naming it, exit 2, before anything runs; a write that fails later is one line."""

import random
import subprocess
import sys

import pytest

from plateau.commands import write_out
from plateau.errors import PlateauError

# (command and its other arguments, the option that writes a file)
WRITERS = [
    (["gen", "--game", "pocha"], "-o"),
    (["chaos", "--game", "weykick", "--seed", "4"], "--json"),
    (["calibrate", "--port", "/dev/null", "--squares", "R1"], "--write"),
    (["enrol", "--port", "/dev/null", "7H"], "--write"),
    (["sim", "q.table"], "--log"),
    (["sim", "q.table", "--log", "l.jsonl"], "--db"),
    (["log", "--port", "/dev/null"], "--log"),
    (["log", "--port", "/dev/null"], "--db"),
    (["index", "q.table"], "--db"),
    (["games"], "--db"),
    (["serve", "--log", "q.table"], "--db"),
    (["players", "--table", "t1", "R=Ann"], "--db"),
    (["league"], "--db"),
]


def bad_paths(tmp_path, rng):
    """Output paths no command can write: a missing folder (or several), a file taken for a
    folder; relative or absolute."""
    (tmp_path / "q.table").write_text("table tock players=2\n")
    missing = "/".join(f"no{rng.randrange(100)}" for _ in range(rng.randint(1, 3)))
    return [
        f"{missing}/x.out",
        str(tmp_path / missing / "x.out"),
        "q.table/x.out",
        str(tmp_path / "q.table" / "sub" / "x.out"),
    ]


@pytest.mark.parametrize("seed", [24, 25])
def test_an_output_in_no_folder_is_refused_before_the_run(tmp_path, seed):
    rng = random.Random(seed)
    paths = bad_paths(tmp_path, rng)
    for args, option in rng.sample(WRITERS, 7):
        path = rng.choice(paths)
        done = subprocess.run(
            [sys.executable, "-m", "plateau", *args, option, path],
            capture_output=True,
            text=True,
            timeout=300,
            cwd=tmp_path,
        )
        said = done.stderr.strip().splitlines()
        assert done.returncode == 2, (args, option, path, done.stderr[-1500:])
        assert "Traceback" not in done.stderr
        assert said[-1].endswith("is not there") or said[-1].endswith("is not a folder"), said
        assert path in said[-1] and option.lstrip("-") in said[-1]
        assert not done.stdout  # nothing ran: no game generated, no chaos run, no board
    assert sorted(p.name for p in tmp_path.iterdir()) == ["q.table"]


def test_a_write_that_fails_later_is_one_line(tmp_path):
    folder = tmp_path / "gone"
    folder.mkdir()
    target = folder / "x.json"
    folder.rmdir()  # checked while it was there; gone when the run ends
    with pytest.raises(PlateauError, match=f"cannot write {target}: No such file"):
        write_out(str(target), "{}\n")
