"""A game's declarations (games/<name>/game.py) are checked before any plateau command runs:
every default against its own kind (adversarial tester's finding 20: a game ran with
target=0 out of its 1..52, and a style not among its choices surfaced later as if a user had
given it), and no setting or command argument may take a word of the command language itself,
cmd, id or game (finding 25: such a command, or `new`, could never be sent). One line, naming
the game, the name and why; exit 2."""

import os
import random
import shutil
import subprocess
import sys

from simkit import registry_with

from plateau import ROOT, games


def plateau(*args, firmware):
    return subprocess.run(
        [sys.executable, "-m", "plateau", *args],
        capture_output=True,
        text=True,
        timeout=600,
        env=dict(os.environ, PLATEAU_FIRMWARE=str(firmware)),
    )


def tree(path, settings, commands):
    """A copy of the firmware with a game `dflt` (Weykick's folder) declaring these."""
    shutil.copytree(ROOT / "firmware", path)
    registry_with(path, "dflt")
    shutil.copytree(ROOT / "firmware" / "games" / "weykick", path / "games" / "dflt")
    decl = path / "games" / "dflt" / "game.py"
    decl.write_text(decl.read_text() + f"\nSETTINGS = {settings!r}\nCOMMANDS = {commands!r}\n")
    return path


def test_the_four_games_declare_nothing_wrong():
    assert games.declaration_trouble() is None


def bad_default(rng):
    """(settings, the name at fault, a word of its refusal): a default outside its kind."""
    lo = rng.randint(1, 5)
    hi = lo + rng.randint(0, 50)
    return rng.choice(
        [
            ((("target", ("int", lo, hi), rng.choice([lo - 1, hi + 1, True, "3"])),), "target"),
            ((("style", ("choice", ("a", "b")), rng.choice(["c", "A", 1])),), "style"),
            ((("who", ("text", 3), rng.choice(["", "long"])),), "who"),
            (
                (("players", ("int", 2, 4), 4), ("dealer", ("seat", "players"), str(5))),
                "dealer",
            ),
        ]
    )


def test_a_bad_default_is_refused_in_one_line(tmp_path):
    """Seeded: defaults outside their kinds, each in its own tree; then a good declaration
    runs."""
    rng = random.Random(20)
    cases = [bad_default(rng) + ({},) for _ in range(5)]
    for i, (settings, name, commands) in enumerate(cases):
        fw = tree(tmp_path / f"fw{i}", settings, commands)
        done = plateau(rng.choice(["--help", "games", "size"]), firmware=fw)
        said = done.stderr.strip().splitlines()
        assert done.returncode == 2, (settings, commands, done.stderr[-1500:])
        assert len(said) == 1 and "dflt: " in said[0] and repr(name) in said[0], said
    good = ((("target", ("int", 1, 52), 3), ("style", ("choice", ("a", "b")), "a")),)
    fw = tree(tmp_path / "good", good[0], {"pick": (("n", ("int", 1, 9), None),)})
    done = plateau("--help", firmware=fw)
    assert done.returncode == 0, done.stderr[-1500:]


def test_a_name_the_command_language_uses_is_refused_in_one_line(tmp_path):
    """Seeded: each of cmd, id, game as a setting or as a command's argument, in its own
    tree; the word's own game runs without it (the last test's good tree)."""
    rng = random.Random(25)
    for i, word in enumerate(rng.sample(games.RESERVED, len(games.RESERVED))):
        if rng.random() < 0.5:
            settings = (("target", ("int", 1, 9), 3), (word, ("int", 1, 9), 1))
            commands = {}
        else:
            settings = (("target", ("int", 1, 9), 3),)
            commands = {"pick": (("n", ("int", 1, 9), None), (word, ("int", 1, 9), None))}
        fw = tree(tmp_path / f"fw{i}", settings, commands)
        done = plateau(rng.choice(["--help", "games", "size"]), firmware=fw)
        said = done.stderr.strip().splitlines()
        assert done.returncode == 2, (settings, commands, done.stderr[-1500:])
        assert len(said) == 1 and "dflt: " in said[0] and repr(word) in said[0], said
        assert "command language" in said[0], said
