"""`plateau selftest` and `plateau calibrate`: for people with a real board (they work the
same against the simulator, which is how they are tested)."""

from __future__ import annotations

import json
import time
from pathlib import Path

from plateau import HARDWARE
from plateau.hostlink import HostLink, LinkError


def selftest(port: str, baud: int = 115200, timeout: float = 5.0) -> int:
    link = HostLink(port, baud, following=False)
    link.open(hello=False)
    r = None
    try:
        for ev in link.command({"cmd": "selftest"}, timeout):  # the report, then the answer
            if ev.get("type") == "selftest":
                r = ev
            if ev.get("type") == "answer" and not ev.get("ok"):
                raise LinkError(f"the board refused: {ev.get('why')}")
    finally:
        link.close()
    if r is None:
        raise LinkError(f"no selftest from {port} within {timeout:.0f} s: is it a Plateau board?")
    ok = True
    print(
        f"reader: {r.get('reader')}"
        + (f" ({r['reader_errors']} failed exchanges)" if r.get("reader_errors") else "")
    )
    print(f"sensor chain: {r.get('chain', 'none fitted')}")
    for key, words in (
        (
            "on_unexpected",
            "see a magnet where the game has no pawn (stuck on, or a pawn out of place)",
        ),
        ("off_unexpected", "see none where the game has a pawn (stuck off, or a pawn missing)"),
    ):
        if r.get(key):
            ok = False
            print(f"sensors that {words}: {' '.join(r[key])}")
    print(f"scan rate: {r.get('scan_hz')} scans/s since power-up (target 200)")
    if r.get("reader") not in ("ok", "none fitted") or r.get("chain", "ok") != "ok":
        ok = False
    print("selftest: " + ("all good" if ok else "problems above"))
    return 0 if ok else 1


def calibrate(
    port: str,
    squares: list[str],
    write: str | None,
    baud: int = 115200,
    timeout: float = 60.0,
    say=print,
) -> int:
    """Asks for a pawn on each square in turn, records which chain bit saw it, and checks
    (or writes) the sensor map. A miswired or weak sensor shows at once."""
    current = json.loads((HARDWARE / "sensors.json").read_text())
    bits = list(current["bits"])
    link = HostLink(port, baud)
    link.open()
    wrong = []
    try:
        link.send({"cmd": "calibrate", "mode": "on"})
        for name in squares:
            say(f"put a pawn on {name}")
            ev = _wait_place(link, timeout)
            if ev["bit"] >= len(bits):
                wrong.append(f"{name}: bit {ev['bit']} is outside the map")
                continue
            if bits[ev["bit"]] != name:
                wrong.append(
                    f"{name}: seen by chain bit {ev['bit']}, which the map calls {bits[ev['bit']]}"
                )
                if name in bits:
                    bits[bits.index(name)] = bits[ev["bit"]]
                bits[ev["bit"]] = name
            else:
                say(f"  {name}: bit {ev['bit']} ok")
        link.send({"cmd": "calibrate", "mode": "off"})
    finally:
        link.close()
    for w in wrong:
        say(f"  MISMATCH {w}")
    if write:
        current["bits"] = bits
        Path(write).write_text(json.dumps(current, indent=1) + "\n")
        say(f"sensor map written to {write}")
    say(f"calibrate: {len(squares)} squares, {len(wrong)} mismatched")
    return 1 if wrong else 0


def _wait_place(link: HostLink, timeout: float) -> dict:
    end = time.monotonic() + timeout
    for ev in link.events():
        if ev.get("type") == "sensor" and ev.get("level") == 1:
            return ev
        if time.monotonic() > end:
            break
    raise LinkError(f"no pawn seen within {timeout:.0f} s")
