"""A game named like one of games/'s own modules (base, cards, settings: a folder
games/cards/ hides games/cards.py), a name that is no Python name, or a registry line without
its folder ends every plateau command in one line, exit 2, before anything imports the tree
(adversarial tester's finding 15: it was an ImportError traceback, in the host tools and at
the table's start)."""

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

from simkit import registry_with

from plateau import ROOT


def plateau(*args, firmware, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "plateau", *args],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=cwd,
        env=dict(os.environ, PLATEAU_FIRMWARE=str(firmware)),
    )


def tree_with_game(path: Path, name: str, folder: bool) -> Path:
    """A copy of the firmware whose registry names a game `name` (Weykick's folder copied
    as games/<name>/ when `folder`)."""
    shutil.copytree(ROOT / "firmware", path)
    registry_with(path, name)
    if folder and name.isidentifier():
        shutil.copytree(ROOT / "firmware" / "games" / "weykick", path / "games" / name)
    return path


def test_a_game_named_as_a_module_of_games_is_refused_in_one_line(tmp_path):
    """Seeded picks of bad names and of commands; a name with no folder; a good name runs."""
    rng = random.Random(15)
    taken = sorted(p.stem for p in (ROOT / "firmware" / "games").glob("*.py"))
    assert {"base", "cards", "settings"} <= set(taken)
    bad = [*taken, "go-fish", "2cards", "snap game", "", "snap.x"]
    for i, name in enumerate(rng.sample(bad, len(bad))):
        tree = tree_with_game(tmp_path / f"fw{i}", name, folder=True)
        args = rng.choice([["--help"], ["games"], ["size"], ["sim", "q.table"]])
        done = plateau(*args, firmware=tree, cwd=tmp_path)
        said = done.stderr.strip().splitlines()
        assert done.returncode == 2, (name, args, done.stderr[-1500:])
        assert said == [said[0]] and f"game {name!r} in games/__init__.py" in said[0], said
    missing = tree_with_game(tmp_path / "nofolder", "brisca", folder=False)
    done = plateau("--help", firmware=missing, cwd=tmp_path)
    assert done.returncode == 2 and "has no games/brisca/game.py" in done.stderr
    good = tree_with_game(tmp_path / "good", "cards2", folder=True)
    assert plateau("--help", firmware=good, cwd=tmp_path).returncode == 0
