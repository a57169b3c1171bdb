"""The game registry (issue 21): a game is found by name, and adding one is what
docs/adding-a-game.md says. The last test follows that page to the letter: it copies the
firmware, writes the page's files into the copy, puts in the page's registry line and plays
the page's table script through `plateau sim` (the firmware under MicroPython, the host
reading its events)."""

import importlib
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from plateau import ROOT
from plateau import registry as host
from plateau.fw.games import GAMES, declaration
from plateau.fw.games.base import Game

PAGE = ROOT / "docs" / "adding-a-game.md"
LINE = re.compile(r"^GAMES = \(.*\)$", re.M)


def page():
    """What the page writes: {path: text} of each `path`: line followed by a python block,
    the registry line, and the table script of its step 4."""
    text = PAGE.read_text()
    files = re.findall(r"^`(firmware/[^`]+\.py)`:\n\n```python\n(.*?)```", text, re.M | re.S)
    (line,) = LINE.findall(text)
    step4 = r"^\$ cat snap\.table\n(.*?)^\$ plateau sim snap\.table$"
    (script,) = re.findall(step4, text, re.M | re.S)
    return dict(files), line, script


def test_every_game_is_declared_whole():
    for name in GAMES:
        decl = declaration(name)
        assert decl.DECK in (None, "french", "spanish")
        assert decl.SENSORS in (None, "squares", "goals")
        assert all(len(s) == 3 for s in decl.SETTINGS) and isinstance(decl.COMMANDS, dict)
        tracker = importlib.import_module(f"plateau.fw.games.{name}.tracker")
        assert issubclass(getattr(tracker, name.capitalize() + "Game"), Game)  # the table's
        assert not hasattr(decl, "make") and not hasattr(decl, "simulated")  # on the heap
        view = host.find(name)  # its host side: the generator slot, its plays
        for form in ("short", "chaos"):
            assert f"\ntable {name}" in "\n" + view.script(1, form)  # a script of this game
        assert view.OUTCOME in view.PLAYS and view.CHAOS_SPEED > 0
    assert host.names() == GAMES


def test_an_unknown_game_is_refused_with_the_known_ones():
    for bad in ("chess", "", None, 3, "Tock", "tock "):
        with pytest.raises(ValueError, match="one of: tock, weykick, holdem, pocha"):
            declaration(bad)
        with pytest.raises(ValueError):
            host.find(bad)


def test_the_table_has_no_branch_per_game():
    """table.py names no game: it asks the registry (comments and docstrings aside)."""
    src = (ROOT / "firmware" / "table.py").read_text()
    code = re.sub(r'"""(.*?)"""', "", src, flags=re.S)
    code = "\n".join(line.split("#")[0] for line in code.splitlines())
    assert not [g for g in GAMES if g in code]


def sim(script, firmware, *args):
    return subprocess.run(
        [sys.executable, "-m", "plateau", "sim", str(script), *args],
        capture_output=True,
        text=True,
        timeout=600,
        env=dict(os.environ, PLATEAU_FIRMWARE=str(firmware)),
    )


def test_adding_a_game_as_the_page_says_plays_through_plateau_sim(tmp_path):
    files, line, text = page()
    assert set(files) == {"firmware/games/snap/game.py", "firmware/games/snap/tracker.py"}
    assert line == 'GAMES = ("tock", "weykick", "holdem", "pocha", "snap")'
    shutil.copytree(ROOT / "firmware", tmp_path / "firmware")
    (tmp_path / "firmware/games/snap").mkdir()
    for path, src in files.items():
        (tmp_path / path).write_text(src)
    (tmp_path / "firmware/games/snap/__init__.py").write_text("")
    registry = tmp_path / "firmware/games/__init__.py"
    before = registry.read_text()
    assert len(LINE.findall(before)) == 1
    registry.write_text(LINE.sub(line, before))
    firmware = tmp_path / "firmware"
    script = tmp_path / "snap.table"
    script.write_text(text)
    done = sim(script, firmware, "--json")
    assert done.returncode == 0, done.stderr[-2000:]
    events = [json.loads(x) for x in done.stdout.splitlines() if x.startswith("{")]
    assert any(e.get("game") == "snap" for e in events if e["type"] == "hello")
    cards = [(e["card"], e["snap"]) for e in events if e["type"] == "card"]
    assert cards == [("7H", False), ("7S", True), ("2C", False), ("2D", True)]
    assert [e["snaps"] for e in events if e["type"] == "game_over"] == [2]
    assert not [e for e in events if e["type"] == "error"]
    # what the page says is refused, before anything runs: a setting out of the declared
    # range, an action Snap's table has no sensor for
    for bad, why in (
        ("table snap target=99\ncard 7H\n", "target must be a whole number from 1 to 52"),
        ("table snap\nmove R1 R2\n", "'move' is an action of tock tables; this one plays snap"),
        ("table snap\ncard 12B\n", "unknown card '12B'"),
    ):
        script.write_text(bad)
        done = sim(script, firmware)
        assert done.returncode and why in done.stderr, done.stderr[-2000:]
