"""Plateau host tools.

The host shares the firmware's pure modules (rules cores, link framing) instead of copying
them: importing this package puts the checkout's `firmware/` on the import path, with a small
stand-in for MicroPython's `micropython` module. That is why `plateau` is installed editable
(`make setup`): it runs from the checkout, next to the firmware it talks to.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
HARDWARE = ROOT / "hardware"

for _p in (FIRMWARE, Path(__file__).resolve().parent / "mpshim"):
    if str(_p) not in sys.path:
        sys.path.append(str(_p))

__version__ = "0.1.0"
