"""Plateau host tools.

The host shares the firmware's pure modules (rules cores, link framing) instead of copying
them, under `plateau.fw` (`from plateau.fw.games.tock.rules import Position`: see
plateau/fw/__init__.py); importing this package changes neither sys.path nor sys.modules
beyond itself. That is why `plateau` is installed editable (`make setup`): it runs from the
checkout, next to the firmware it talks to.

PLATEAU_FIRMWARE names another firmware tree (a copy with a game being added, say:
docs/adding-a-game.md); the host tools and the simulator then use it, compiled into a
build/mpy-<name> beside it. One that is no firmware tree (a typo, a file) is said in one
line, exit 2, before anything imports from it (it was a traceback in every command).
"""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = Path(os.environ.get("PLATEAU_FIRMWARE") or ROOT / "firmware").resolve()
HARDWARE = ROOT / "hardware"

if os.environ.get("PLATEAU_FIRMWARE") and not (FIRMWARE / "games" / "__init__.py").is_file():
    print(
        f"plateau: PLATEAU_FIRMWARE={os.environ['PLATEAU_FIRMWARE']} is not a firmware tree (no"
        " games/__init__.py in it); unset it to use this checkout's firmware",
        file=sys.stderr,
    )
    raise SystemExit(2)

__version__ = "0.1.0"
