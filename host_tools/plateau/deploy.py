"""`plateau deploy` / `make deploy`: copy the firmware to a board with mpremote, then reset it.

A running table cannot be interrupted (Ctrl-C is off in table mode and the ESP32's watchdog
cannot be stopped), so deploy first listens on the port: if a table is talking (its heartbeats
arrive), it sends the `repl` command, and the board restarts in safe mode, with neither the
table loop nor the watchdog (firmware/safemode.py), where mpremote gets the REPL. If nothing
answers (a new board, or one already at the REPL), it goes straight to mpremote; a board that
is hung can be put in safe mode by holding its pause button while powering it up.

It copies the compiled modules from build/mpy (smaller, and no compile on the board's heap),
boot.py and main.py as source (the board runs those two by name), and the hardware maps into
/hardware, with the pin map of the board chosen by --board; never the simulator (firmware/sim/)
or the tests. The mpremote part is a thin wrapper on purpose: it cannot be tested without a
board (`--dry-run` prints it); the safe-mode step is tested against the simulated table."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path, PurePosixPath

from plateau import FIRMWARE, HARDWARE
from plateau.build import BUILD

NOT_DEPLOYED = ("sim",)  # simulator-only packages


def simulator_only(rel: Path) -> bool:
    """A firmware file (relative to firmware/ or build/mpy) no board holds: the simulator
    (sim/) and each game's hooks for it (games/<game>/sim.py)."""
    return rel.parts[0] in NOT_DEPLOYED or rel.with_suffix("").parts[-1] == "sim"


AS_SOURCE = ("boot.py", "main.py")  # run by name at power-up, so copied as .py
BOARDS = {"esp32": "pinmap.json", "esp32s3": "pinmap-esp32s3.json"}  # --board -> pin map


def deployed_files() -> list[Path]:
    """The .mpy files that go to the board (run `make mpy` first)."""
    files = []
    for f in sorted(BUILD.rglob("*.mpy")):
        rel = f.relative_to(BUILD)
        if simulator_only(rel) or rel.with_suffix(".py").name in AS_SOURCE:
            continue
        files.append(rel)
    return files


def port_trouble(port: str, e: Exception) -> str:
    """Why a port would not open, in words: not there, busy, or not allowed."""
    import errno

    cause = e.__cause__
    code = getattr(cause, "errno", None)
    text = str(cause or e)
    if code == errno.ENOENT or "No such file" in text:
        return f"there is no port {port} (plateau ports lists them; is the board plugged in?)"
    if code == errno.EBUSY or "busy" in text.lower() or "lock" in text.lower():
        return (
            f"{port} is busy: another program has it open (plateau log? a serial terminal?); "
            "close it first"
        )
    if code == errno.EACCES or "Permission denied" in text:
        return f"no permission to open {port} (on Linux: add yourself to the dialout group)"
    return str(e)


def to_safe_mode(
    port: str, baud: int = 115200, listen_s: float = 2.5, settle_s: float = 3.0
) -> bool:
    """If a Plateau table is running on `port`, send it `repl` and wait for it to restart in
    safe mode. Returns whether a table answered."""
    from plateau.errors import NoBoard
    from plateau.hostlink import HostLink, LinkError

    link = HostLink(port, baud)
    try:
        link.open(hello=False)
    except LinkError as e:
        raise NoBoard(port_trouble(port, e)) from None
    answered = False
    try:
        deadline = time.monotonic() + listen_s
        cid = None
        for ev in link.events():
            if cid is None:  # a frame from a table: ask it to step aside
                cid = link.send({"cmd": "repl"})
                deadline = time.monotonic() + listen_s
            elif ev.get("type") == "answer" and ev.get("id") == cid:
                answered = bool(ev.get("ok"))
                break
            if time.monotonic() > deadline:
                break
    except LinkError:
        pass  # silent: no table running (at the REPL already, or a new board)
    finally:
        link.close()
    if answered:
        print(f"the table on {port} restarts in safe mode (no table, no watchdog)")
        time.sleep(settle_s)
    return answered


def plan(board: str = "esp32", modules: bool = True) -> list[tuple[Path, str]]:
    """What goes where: (file on this machine, path on the board), in copy order."""
    files = [(BUILD / p, p.as_posix()) for p in deployed_files()] if modules else []
    files.append((HARDWARE / BOARDS[board], "hardware/pinmap.json"))
    files += [(HARDWARE / n, f"hardware/{n}") for n in ("sensors.json", "tags.json")]
    files += [(FIRMWARE / n, n) for n in AS_SOURCE]
    return files


def chain(port: str, files: list[tuple[Path, str]]) -> list[str]:
    """One mpremote run for the whole deploy (mpremote chains commands with `+`, over one
    connection to the board's REPL): the folders made (an existing one is fine), the files
    copied a folder at a time, then a reset. Separate runs for each file took a minute of
    connecting and re-entering the raw REPL for a 50-file deploy."""
    mpremote = shutil.which("mpremote") or str(Path(sys.executable).parent / "mpremote")
    dirs = sorted({str(PurePosixPath(dest).parent) for _, dest in files} - {"."})
    mkdirs = (
        "import os\n"
        f"for d in {dirs!r}:\n"
        "    try:\n        os.mkdir(d)\n    except OSError:\n        pass\n"
    )
    cmd = [mpremote, "connect", port, "exec", mkdirs]
    by_dir: dict[str, list[str]] = {}
    for src, dest in files:
        if src.name == PurePosixPath(dest).name:  # same name: copied with its folder's files
            by_dir.setdefault(str(PurePosixPath(dest).parent), []).append(str(src))
        else:  # renamed on the way (the chosen board's pin map)
            cmd += ["+", "cp", str(src), f":{dest}"]
    for d, srcs in sorted(by_dir.items()):
        cmd += ["+", "cp", *srcs, ":" if d == "." else f":{d}/"]
    return [*cmd, "+", "reset"]


def deploy(port: str, board: str = "esp32", dry_run: bool = False, modules: bool = True) -> int:
    """`modules` False: main.py, boot.py and the hardware maps only, for a board whose image
    has the firmware frozen in (make firmware); .mpy files there would shadow the frozen
    modules."""
    from plateau.errors import PlateauError, UsageError

    if modules and not BUILD.exists():
        raise PlateauError("build/mpy is missing; run `make mpy` first")
    if board not in BOARDS:
        raise UsageError(f"unknown board {board!r}; one of {', '.join(BOARDS)}")
    files = plan(board, modules)
    cmd = chain(port, files)
    if dry_run:
        print(f"(first, if a table answers on {port}: the repl command, then safe mode)")
    else:
        to_safe_mode(port)
    for i, (src, dest) in enumerate(files, 1):
        print(f"[{i}/{len(files)}] {_rel(src)} :{dest}")
    print(f"in one mpremote run: mpremote connect {port} exec <mkdir> + cp ... + reset")
    if dry_run:
        print(" ".join(cmd[1:]).replace("\n", "\\n"))
        return 0
    done = subprocess.run(cmd, stderr=subprocess.PIPE, text=True)
    if done.returncode:
        raise PlateauError(f"mpremote failed: {done.stderr.strip()}" + _hint(done.stderr))
    print(f"deployed {len(files)} files to {port}; the board restarts")
    return 0


def _rel(p: Path) -> str:
    try:
        return str(p.relative_to(FIRMWARE.parent))
    except ValueError:
        return str(p)


def _hint(err: str) -> str:
    if "raw REPL" in err:
        return (
            "\nthe board did not give its REPL: hold the pause button while powering it up "
            "(safe mode), then deploy again"
        )
    return ""


PACKAGE_JSON = FIRMWARE / "package.json"


def package_json(board: str = "esp32") -> str:
    """The firmware as a mip package (MicroPython's own installer), for installing with no
    host tools: `mpremote mip install --target / github:OWNER/REPO/firmware/package.json`,
    or `mip.install(...)` on a board with network. Sources (the board compiles them as it
    imports them: a board with PSRAM, as for .mpy files, docs/chip.md), boot.py, main.py and
    the maps of `board`; never the simulator. Paths are relative to this file, as mip
    fetches them (the maps from ../hardware/). Not tried here: no board, no network.
    `plateau build` (make mpy) writes it when the tree changed, as does `plateau deploy
    --package-json`; a test keeps it current."""
    import json

    from plateau import __version__

    mods = sorted(
        p.relative_to(FIRMWARE).as_posix()
        for p in FIRMWARE.rglob("*.py")
        if not simulator_only(p.relative_to(FIRMWARE))
        and p.name != "manifest.py"
        and p.relative_to(FIRMWARE).as_posix() not in AS_SOURCE
    )
    urls = [[m, m] for m in [*mods, *AS_SOURCE]]
    urls.append(["hardware/pinmap.json", f"../hardware/{BOARDS[board]}"])
    urls += [[f"hardware/{n}", f"../hardware/{n}"] for n in ("sensors.json", "tags.json")]
    lines = ",\n".join("  " + json.dumps(u) for u in urls)
    return f'{{\n "version": "{__version__}",\n "deps": [],\n "urls": [\n{lines}\n ]\n}}\n'
