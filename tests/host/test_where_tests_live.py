"""Where a test lives (docs/testing.md): a host test needs a PC (the host tools, a process, a
library from PyPI, a module MicroPython has not); one that needs none of it tests the
firmware alone and belongs in tests/firmware, where it also runs under MicroPython at a
board's heap. The modules of the board's interpreter are asked of it (`help('modules')`)."""

import ast
import subprocess

import pytest

from plateau import ROOT
from plateau.sim import micropython

HOST = ROOT / "tests" / "host"


def board_modules() -> set[str]:
    """The modules the MicroPython unix port has built in (its `help('modules')`)."""
    done = subprocess.run(
        [micropython(), "-c", "help('modules')"], capture_output=True, text=True, timeout=60
    )
    if done.returncode:
        pytest.skip(f"micropython could not list its modules: {done.stderr[-300:]}")
    words = done.stdout.split("Plus any modules")[0].split()
    return {w.split("/")[0] for w in words}


def imported(path) -> set[str]:
    """Every module a file imports, at its top or in its functions (relative ones aside)."""
    mods: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            mods |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            mods.add(node.module)
    return mods


def needs_a_pc(mods: set[str], board: set[str]) -> list[str]:
    """What of `mods` only a PC has: the host tools (plateau but its plateau.fw), or a module
    the board's interpreter lacks (the test helpers here import those themselves)."""
    return sorted(
        m
        for m in mods
        if not m.startswith("plateau.fw")
        and (m == "plateau" or m.startswith("plateau.") or m.split(".")[0] not in board)
    )


def test_every_host_test_needs_a_pc():
    board = board_modules()
    assert {"json", "random", "struct"} <= board and "itertools" not in board  # asked right
    alone = [f.name for f in sorted(HOST.glob("test_*.py")) if not needs_a_pc(imported(f), board)]
    assert not alone, f"these test the firmware alone: their place is tests/firmware: {alone}"


def test_the_check_tells_a_firmware_test_from_a_host_test():
    board = board_modules()
    assert not needs_a_pc({"random", "json", "plateau.fw.games.tock.rules"}, board)
    assert needs_a_pc({"random", "itertools", "plateau.fw.games.tock.rules"}, board)
    assert needs_a_pc({"plateau.games", "json"}, board) == ["plateau.games"]
