"""What the host tests that play table scripts share: the `plateau` command run as a user runs
it (a subprocess), a script played through `plateau sim SCRIPT --log LOG`, a log with one
event changed, and a copy of the firmware with games added to its registry."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path


def plateau(*args: object, **env: str) -> subprocess.CompletedProcess:
    """`plateau ARGS...`, with `env` added to the environment (PLATEAU_FIRMWARE: another
    firmware tree, as a user tries a new game: docs/adding-a-game.md)."""
    return subprocess.run(
        [sys.executable, "-m", "plateau", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=900,
        env=dict(os.environ, **env),
    )


def logged(folder: Path, name: str, script: str, *args: object, **env: str) -> Path:
    """The log of `script` played by `plateau sim FOLDER/NAME.table --log FOLDER/NAME.jsonl
    ARGS...` (which must succeed); its index FOLDER/NAME.sqlite unless ARGS name one (the
    default, plateau-games.sqlite in the current folder, would be the checkout's)."""
    table = folder / f"{name}.table"
    table.write_text(script)
    log = folder / f"{name}.jsonl"
    db = () if "--db" in args else ("--db", folder / f"{name}.sqlite")
    done = plateau("sim", table, "--log", log, *db, *args, **env)
    assert done.returncode == 0, done.stderr[-3000:]
    return log


def tampered(lines: list[str], i: int, change: Callable[[dict], object], path: Path) -> Path:
    """`path`, holding the log `lines` with the event of line i (0-based) changed by `change`
    (which edits the event in place) and every other line as it was."""
    ev = json.loads(lines[i])
    change(ev)
    path.write_text("\n".join(lines[:i] + [json.dumps(ev)] + lines[i + 1 :]) + "\n")
    return path


def registry_with(tree: Path, *names: object) -> tuple:
    """The game registry of the firmware tree `tree` (a copy) with `names` after its games:
    GAMES read as the registry holds it (its value, parsed) and written again with them, the
    rest of the file as it was. Returns the new GAMES. (Tests read the registry: a copy's
    `.replace('"pocha")', ...)` named its last game, and a fifth game broke three tests.)"""
    path = tree / "games" / "__init__.py"
    text = path.read_text()
    (node,) = [
        n
        for n in ast.parse(text).body
        if isinstance(n, ast.Assign) and [getattr(t, "id", None) for t in n.targets] == ["GAMES"]
    ]
    games = (*ast.literal_eval(node.value), *names)
    lines = text.split("\n")
    assert node.end_lineno is not None
    lines[node.lineno - 1 : node.end_lineno] = [f"GAMES = {games!r}"]
    path.write_text("\n".join(lines))
    return games
