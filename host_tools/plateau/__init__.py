"""Plateau host tools.

The host shares the firmware's pure modules (rules cores, link framing) instead of copying
them, under `plateau.fw` (`from plateau.fw.games.tock.rules import Position`: see
plateau/fw/__init__.py); importing this package changes neither sys.path nor sys.modules
beyond itself. That is why `plateau` is installed editable (`make setup`): it runs from the
checkout, next to the firmware it talks to.

PLATEAU_FIRMWARE names another firmware tree (a copy with a game being added, say:
docs/adding-a-game.md); the host tools and the simulator then use it, compiled into a
build/mpy beside it.
"""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = Path(os.environ.get("PLATEAU_FIRMWARE") or ROOT / "firmware").resolve()
HARDWARE = ROOT / "hardware"

__version__ = "0.1.0"
