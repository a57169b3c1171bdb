"""Plateau host tools.

The host shares the firmware's pure modules (rules cores, link framing) instead of copying
them: importing this package puts the checkout's `firmware/` on the import path, with a small
stand-in for MicroPython's `micropython` module. That is why `plateau` is installed editable
(`make setup`): it runs from the checkout, next to the firmware it talks to.

PLATEAU_FIRMWARE names another firmware tree (a copy with a game being added, say:
docs/adding-a-game.md); the host tools and the simulator then use it, compiled into a
build/mpy beside it.
"""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = Path(os.environ.get("PLATEAU_FIRMWARE") or ROOT / "firmware").resolve()
HARDWARE = ROOT / "hardware"

for _p in (FIRMWARE, Path(__file__).resolve().parent / "mpshim"):
    if str(_p) not in sys.path:
        sys.path.append(str(_p))

__version__ = "0.1.0"
