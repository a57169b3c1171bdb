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
from pathlib import Path

from plateau import FIRMWARE, HARDWARE
from plateau.build import BUILD

NOT_DEPLOYED = ("sim",)  # simulator-only packages
AS_SOURCE = ("boot.py", "main.py")  # run by name at power-up, so copied as .py
BOARDS = {"esp32": "pinmap.json", "esp32s3": "pinmap-esp32s3.json"}  # --board -> pin map


def deployed_files() -> list[Path]:
    """The .mpy files that go to the board (run `make mpy` first)."""
    files = []
    for f in sorted(BUILD.rglob("*.mpy")):
        rel = f.relative_to(BUILD)
        if rel.parts[0] in NOT_DEPLOYED or rel.with_suffix(".py").name in AS_SOURCE:
            continue
        files.append(rel)
    return files


def to_safe_mode(
    port: str, baud: int = 115200, listen_s: float = 2.5, settle_s: float = 3.0
) -> bool:
    """If a Plateau table is running on `port`, send it `repl` and wait for it to restart in
    safe mode. Returns whether a table answered."""
    from plateau.hostlink import HostLink, LinkError

    link = HostLink(port, baud)
    try:
        link.open(hello=False)
    except LinkError as e:
        print(f"plateau deploy: {e}", file=sys.stderr)
        return False
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


def deploy(port: str, board: str = "esp32", dry_run: bool = False, modules: bool = True) -> int:
    """`modules` False: main.py, boot.py and the hardware maps only, for a board whose image
    has the firmware frozen in (make firmware); .mpy files there would shadow the frozen
    modules."""
    if modules and not BUILD.exists():
        print("plateau deploy: build/mpy is missing; run `make mpy` first", file=sys.stderr)
        return 1
    if board not in BOARDS:
        print(
            f"plateau deploy: unknown board {board!r}; one of {', '.join(BOARDS)}", file=sys.stderr
        )
        return 2
    mpremote = shutil.which("mpremote") or str(Path(sys.executable).parent / "mpremote")
    base = [mpremote, "connect", port]
    files = deployed_files() if modules else []
    dirs = sorted({str(p.parent) for p in files if str(p.parent) != "."})
    steps = [[*base, "mkdir", f":{d}"] for d in dirs]
    steps += [[*base, "cp", str(BUILD / p), f":{p}"] for p in files]
    steps += [[*base, "mkdir", ":hardware"]]
    steps += [[*base, "cp", str(HARDWARE / BOARDS[board]), ":hardware/pinmap.json"]]
    steps += [
        [*base, "cp", str(HARDWARE / name), f":hardware/{name}"]
        for name in ("sensors.json", "tags.json")
    ]
    steps += [[*base, "cp", str(FIRMWARE / name), f":{name}"] for name in AS_SOURCE]
    steps += [[*base, "reset"]]
    if dry_run:
        print(f"(first, if a table answers on {port}: the repl command, then safe mode)")
    else:
        to_safe_mode(port)
    for step in steps:
        print(" ".join(step[1:]))
        if dry_run:
            continue
        done = subprocess.run(step, capture_output=True, text=True)
        if done.returncode and not (step[3] == "mkdir" and "EEXIST" in done.stderr):
            print(f"plateau deploy: failed: {done.stderr.strip()}", file=sys.stderr)
            if "raw REPL" in done.stderr:
                print(
                    "the board did not give its REPL: hold the pause button while powering it "
                    "up (safe mode), then deploy again",
                    file=sys.stderr,
                )
            return 1
    return 0
