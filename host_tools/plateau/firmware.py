"""`make firmware` / `plateau firmware`: an ESP32 image with the firmware frozen in, and
flashing it.

Frozen, the modules of firmware/manifest.py are bytecode in flash: only their data takes
the Python heap, which is what lets a table run on a plain ESP32 (111,936 bytes of heap);
copied as .mpy files (`make deploy`) their code loads onto the heap, which needs a board
with PSRAM (the README and hardware/boards.md give the figures).

Building needs ESP-IDF (its environment exported: `. $IDF_PATH/export.sh`, the version
MicroPython's ports/esp32/README.md names) and a MicroPython source tree of the tests'
version (v1.29); flashing needs esptool (`pip install esptool==5.6.0`, or the `flash`
extra). Neither can run on a machine without them: there the commands are printed, not
run (a dry run), and `--dry-run` asks for that anywhere. Like `deploy`, it cannot be tested
without a board; nothing here has been flashed by us.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from plateau import FIRMWARE, ROOT

OUT = ROOT / "build" / "firmware"
# plateau's board (as for deploy: the pin map) -> MicroPython's board, where the image goes
BOARDS = {
    "esp32": ("ESP32_GENERIC", "0x1000"),  # ESP32-WROOM-32E (no PSRAM): the reference
    "esp32s3": ("ESP32_GENERIC_S3", "0x0"),  # an S3 N8R8: variant SPIRAM_OCT (octal PSRAM)
}


def manifest() -> Path:
    """The image's manifest: the port's own modules (_boot.py mounts the filesystem,
    inisetup makes it at first boot), then the firmware's."""
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / "manifest.py"
    path.write_text(
        "# written by plateau firmware: the ESP32 port's modules, then Plateau's\n"
        'include("$(PORT_DIR)/boards/manifest.py")\n'
        f'include("{FIRMWARE / "manifest.py"}")\n'
    )
    return path


def image_name(board: str, variant: str | None) -> str:
    return f"plateau-{board}{'-' + variant if variant else ''}.bin"


def build_steps(mpy_dir: str, board: str, variant: str | None) -> list[list[str]]:
    port = f"{mpy_dir}/ports/esp32"
    board = BOARDS[board][0]  # MicroPython's name for it
    args = [f"BOARD={board}"] + ([f"BOARD_VARIANT={variant}"] if variant else [])
    build_dir = f"build-{board}" + (f"-{variant}" if variant else "")
    image = OUT / image_name(board, variant)
    return [
        ["make", "-C", f"{mpy_dir}/mpy-cross"],
        ["make", "-C", port, *args, "submodules"],
        ["make", "-C", port, *args, f"FROZEN_MANIFEST={manifest()}"],
        ["cp", f"{port}/{build_dir}/firmware.bin", str(image)],
    ]


def flash_steps(port: str, board: str, variant: str | None) -> list[list[str]]:
    name, offset = BOARDS[board]
    esptool = ["esptool", "--chip", board, "--port", port]
    image = str(OUT / image_name(name, variant))
    return [
        # erased first: .mpy files left by `make deploy` would shadow the frozen modules
        # (the filesystem comes first on the board's import path)
        [*esptool, "erase-flash"],
        [*esptool, "--baud", "460800", "write-flash", "-z", offset, image],
    ]


def firmware(
    board: str = "esp32",
    variant: str | None = None,
    mpy_dir: str | None = None,
    port: str | None = None,
    dry_run: bool = False,
) -> int:
    if board not in BOARDS:
        print(f"plateau firmware: board one of {', '.join(BOARDS)}", file=sys.stderr)
        return 2
    missing = []
    if not (os.environ.get("IDF_PATH") and shutil.which("idf.py")):
        missing.append("ESP-IDF (run `. $IDF_PATH/export.sh` first)")
    if not (mpy_dir and (Path(mpy_dir) / "ports" / "esp32").is_dir()):
        missing.append("a MicroPython source tree (--micropython-src DIR, make MPY_DIR=DIR)")
    if port and not shutil.which("esptool"):
        missing.append("esptool (pip install esptool==5.6.0)")
    steps = build_steps(mpy_dir or "$MPY_DIR", board, variant)
    if port:
        steps += flash_steps(port, board, variant)
    if dry_run or missing:
        why = "asked for" if dry_run else "missing: " + "; ".join(missing)
        print(f"# plateau firmware: a dry run ({why}); the commands it runs:")
        for step in steps:
            print(" ".join(step))
        if port:
            print("# then boot.py, main.py and the maps, as `plateau deploy --frozen` copies:")
            from plateau.deploy import deploy

            deploy(port, board, dry_run=True, modules=False)
        else:
            print("# to flash it: make firmware PORT=/dev/ttyUSB0 (add MPY_DIR=... to build too)")
        return 0
    for step in steps:
        print(" ".join(step), flush=True)
        if subprocess.run(step).returncode:
            print(f"plateau firmware: failed: {' '.join(step)}", file=sys.stderr)
            return 1
    print(f"image: {OUT / image_name(BOARDS[board][0], variant)}")
    if port:
        from plateau.deploy import deploy

        return deploy(port, board, modules=False)
    return 0
