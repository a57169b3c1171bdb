"""`plateau selftest` and `plateau calibrate`: for people with a real board (they work the
same against the simulator, which is how they are tested)."""

from __future__ import annotations

import json
import time

from plateau import HARDWARE
from plateau.commands import write_out
from plateau.errors import PlateauError
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
    lines, ok = judge(r)
    for line in lines:
        print(line)
    return 0 if ok else 1


SCAN_HZ = 200  # the scan loop's rate: a pass every 5 ms (firmware/table.py)
SCAN_SLOW = 0.9  # below 90 % of it, moves are seen late and the selftest says so


def judge(r: dict) -> tuple[list[str], bool]:
    """A selftest report in words, and whether all is well. Every check that fails says
    so: the reader, the sensors' supply, the chain, stuck or missing sensors, and a scan
    loop too slow (or a report with no rate at all)."""
    lines, problems = [], []
    lines.append(
        f"reader: {r.get('reader')}"
        + (f" ({r['reader_errors']} failed exchanges)" if r.get("reader_errors") else "")
    )
    if r.get("reader") not in ("ok", "none fitted"):
        problems.append("the reader")
    rail = r.get("sensor_rail")  # the sensors' 5 V supply (firmware/hal/rail.py)
    if rail is not None:
        lines.append(f"sensor supply: {rail} ({r.get('sensor_rail_mv')} mV)")
        if rail != "ok":
            problems.append("the sensors' supply")
    chain = r.get("chain", "none fitted")
    lines.append(f"sensor chain: {chain}")
    if chain not in ("ok", "none fitted"):
        problems.append("the sensor chain")
    for key, words in (
        (
            "on_unexpected",
            "see a magnet where the game has no pawn (stuck on, or a pawn out of place)",
        ),
        ("off_unexpected", "see none where the game has a pawn (stuck off, or a pawn missing)"),
    ):
        if r.get(key):
            problems.append("sensors")
            lines.append(f"sensors that {words}: {' '.join(r[key])}")
    hz = r.get("scan_hz")
    if not isinstance(hz, int) or hz < SCAN_HZ * SCAN_SLOW:
        problems.append("the scan rate")
        lines.append(
            f"scan rate: {hz} scans/s since power-up, below the {SCAN_HZ} it should keep: "
            "moves are seen late (a board just started reports a low rate: run it again)"
        )
    else:
        lines.append(f"scan rate: {hz} scans/s since power-up (target {SCAN_HZ})")
    w = r.get("wifi")  # a table set up on the club's network (docs/wifi.md): no secret in it
    if isinstance(w, dict):
        where = f"{w.get('network')}" + (f", signal {w['rssi']} dBm" if "rssi" in w else "")
        up = "connected" if w.get("connected") else f"not connected ({w.get('why', 'connecting')})"
        lines.append(
            f"wifi: table {w.get('table')}, network {where}, broker {w.get('broker')}"
            + (" over TLS" if w.get("tls") else "")
            + f" {up}, "
            f"backlog {w.get('backlog')} events"
        )
        if not w.get("connected"):
            problems.append("the Wi-Fi")
    lines.append(
        "selftest: " + ("all good" if not problems else "problems: " + ", ".join(problems))
    )
    return lines, not problems


def calibrate(
    port: str,
    squares: list[str],
    write: str | None,
    baud: int = 115200,
    timeout: float = 60.0,
    say=print,
) -> int:
    """Asks for a pawn on each square in turn, records which chain bit saw it, and checks
    (or writes) the sensor map. A miswired or weak sensor shows at once. A square where no
    pawn comes within `timeout` is skipped (said, counted, left as the map has it), and the
    board's calibrate mode is turned off whatever happens (Ctrl-C, a lost link)."""
    current = json.loads((HARDWARE / "sensors.json").read_text())
    bits = list(current["bits"])
    link = HostLink(port, baud)
    link.open()
    wrong, skipped, ok = [], [], 0
    try:
        link.send({"cmd": "calibrate", "mode": "on"})
        for i, name in enumerate(squares, 1):
            say(f"[{i}/{len(squares)}] put a pawn on {name}")
            ev = _wait_place(link, timeout)
            if ev is None:
                skipped.append(name)
                say(f"  {name}: no pawn seen within {timeout:.0f} s; skipped")
                continue
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
                ok += 1
                say(f"  {name}: bit {ev['bit']} ok")
    finally:
        try:
            link.send({"cmd": "calibrate", "mode": "off"})
        except LinkError:
            pass  # the link is gone: the board leaves calibrate mode at its next reset
        link.close()
    for w in wrong:
        say(f"  MISMATCH {w}")
    if write:
        current["bits"] = bits
        found = json.dumps(current, indent=1) + "\n"
        try:
            write_out(write, found)
        except PlateauError:
            say(found)  # the map found is not lost: it is on the screen
            raise
        say(
            f"sensor map written to {write}"
            + (" (skipped squares as they were)" if skipped else "")
        )
    say(
        f"calibrate: {len(squares)} squares: {ok} ok, {len(wrong)} mismatched, "
        f"{len(skipped)} skipped" + (f" ({' '.join(skipped)})" if skipped else "")
    )
    return 1 if wrong or skipped else 0


def _wait_place(link: HostLink, timeout: float) -> dict | None:
    """The next pawn set down on any sensor, or None after `timeout` s without one."""
    end = time.monotonic() + timeout
    for ev in link.events():
        if ev.get("type") == "sensor" and ev.get("level") == 1:
            return ev
        if time.monotonic() > end:
            break
    return None
