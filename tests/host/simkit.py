"""What the host tests that play table scripts share: the `plateau` command run as a user runs
it (a subprocess), and a script played through `plateau sim SCRIPT --log LOG`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def plateau(*args: object, firmware: Path | None = None) -> subprocess.CompletedProcess:
    """`plateau ARGS...`; `firmware`: another firmware tree (PLATEAU_FIRMWARE), as a user
    tries a new game (docs/adding-a-game.md)."""
    env = dict(os.environ, PLATEAU_FIRMWARE=str(firmware)) if firmware else None
    return subprocess.run(
        [sys.executable, "-m", "plateau", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=900,
        env=env,
    )


def logged(folder: Path, name: str, script: str, *args: object, firmware=None) -> Path:
    """The log of `script` played by `plateau sim FOLDER/NAME.table --log FOLDER/NAME.jsonl
    ARGS...` (which must succeed)."""
    table = folder / f"{name}.table"
    table.write_text(script)
    log = folder / f"{name}.jsonl"
    done = plateau("sim", table, "--log", log, *args, firmware=firmware)
    assert done.returncode == 0, done.stderr[-3000:]
    return log
