"""`plateau deploy` / `make deploy`: copy the firmware to a board with mpremote, then reset it.

A thin wrapper on purpose: it cannot be tested without a board (see README). It copies the
compiled modules from build/mpy (smaller, and no compile on the board's heap), main.py as
source and the hardware maps (pin map, sensor map, tag registry) into /hardware, and never
the simulator (firmware/sim/) or the tests. For an ESP32-S3, copy pinmap-esp32s3.json over
/hardware/pinmap.json."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from plateau import FIRMWARE, HARDWARE
from plateau.build import BUILD

NOT_DEPLOYED = ("sim",)  # simulator-only packages


def deployed_files() -> list[Path]:
    """The .mpy files that go to the board (run `make mpy` first)."""
    files = []
    for f in sorted(BUILD.rglob("*.mpy")):
        rel = f.relative_to(BUILD)
        if rel.parts[0] in NOT_DEPLOYED or rel.name == "main.mpy":
            continue
        files.append(rel)
    return files


def deploy(port: str, dry_run: bool = False) -> int:
    if not BUILD.exists():
        print("plateau deploy: build/mpy is missing; run `make mpy` first", file=sys.stderr)
        return 1
    mpremote = shutil.which("mpremote") or str(Path(sys.executable).parent / "mpremote")
    base = [mpremote, "connect", port]
    dirs = sorted({str(p.parent) for p in deployed_files() if str(p.parent) != "."})
    steps = [[*base, "mkdir", f":{d}"] for d in dirs]
    steps += [[*base, "cp", str(BUILD / p), f":{p}"] for p in deployed_files()]
    steps += [[*base, "mkdir", ":hardware"]]
    steps += [
        [*base, "cp", str(HARDWARE / name), f":hardware/{name}"]
        for name in ("pinmap.json", "sensors.json", "tags.json")
    ]
    steps += [[*base, "cp", str(FIRMWARE / "main.py"), ":main.py"], [*base, "reset"]]
    for step in steps:
        print(" ".join(step[1:]))
        if dry_run:
            continue
        done = subprocess.run(step, capture_output=True, text=True)
        if done.returncode and not (step[3] == "mkdir" and "EEXIST" in done.stderr):
            print(f"plateau deploy: failed: {done.stderr.strip()}", file=sys.stderr)
            return 1
    return 0
