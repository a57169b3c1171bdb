"""Which serial ports hold a board: `plateau ports`, and `--port auto` for every command
that talks to one (pyserial's port listing, as mpremote's `devs` and `auto` use it).

`auto` takes, in order: the port named by $PLATEAU_PORT (what `plateau sim --serve` tells you
to set, so the tools find a simulated table), else the one USB serial port whose USB bridge
an ESP32 board carries. None or several: an error that lists them."""

from __future__ import annotations

import os

from plateau.errors import NoBoard

# USB vendor ids of the bridges on ESP32 boards, and Espressif's own USB (ESP32-S3, C3)
BRIDGES = {
    0x10C4: "Silicon Labs CP210x",
    0x1A86: "WCH CH340/CH9102",
    0x0403: "FTDI",
    0x303A: "Espressif USB",
}


def listing() -> list[tuple[str, str, bool]]:
    """(device, description, looks like a board) for each serial port pyserial sees."""
    from serial.tools import list_ports

    out = []
    for p in sorted(list_ports.comports(), key=lambda p: p.device):
        board = p.vid in BRIDGES
        what = p.description if p.description and p.description != "n/a" else ""
        if board:
            what = f"{BRIDGES[p.vid]} ({p.vid:04x}:{p.pid:04x}) {what}".strip()
        out.append((p.device, what, board))
    return out


def resolve(port: str) -> str:
    """A --port value as a device path: `auto` found as the module says, anything else as
    given."""
    if port != "auto":
        return port
    env = os.environ.get("PLATEAU_PORT")
    if env:
        return env
    ports = listing()
    boards = [dev for dev, _, board in ports if board]
    if len(boards) == 1:
        return boards[0]
    if boards:
        raise NoBoard(f"--port auto: several boards ({', '.join(boards)}); name one with --port")
    others = ", ".join(dev for dev, _, _ in ports) or "none"
    raise NoBoard(
        f"--port auto: no board plugged in (serial ports: {others}); plug one in, name a port "
        "with --port, or set PLATEAU_PORT (plateau sim --serve prints it)"
    )
