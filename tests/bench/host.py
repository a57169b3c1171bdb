"""Host-side figures (CPython): decode-and-log throughput, replay speed, link rates.
Run by `make bench`; prints, asserts nothing."""

import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "host_tools"))
import plateau  # noqa: E402,F401
from plateau.fw.link import frame  # noqa: E402
from plateau.fw.link.link import Link  # noqa: E402
from plateau.fw.link.ring import Ring  # noqa: E402
from plateau.hostlink import HostLink  # noqa: E402
from plateau.logger import Logger  # noqa: E402

N = 100_000


def wire(n: int) -> bytes:
    """n events as the board frames them (a realistic mix: cards, moves, heartbeats)."""
    out = bytearray()
    link = Link(out.extend, "5ee0c0de", ring=Ring())
    for i in range(n):
        if i % 3 == 0:
            link.emit({"type": "card", "card": "7H", "seat": "R"})
        elif i % 3 == 1:
            link.emit(
                {
                    "type": "move",
                    "card": "7H",
                    "seat": "R",
                    "kind": "seven",
                    "steps": [["R5", "R8"], ["G3", "G7"]],
                    "t": 1000 + i,
                    "settle": 120,
                }
            )
        else:
            link.tell({"type": "heartbeat", "up": i})
    return bytes(out)


def decode_and_log(data: bytes, work: Path) -> float:
    link = HostLink("bench")
    log = Logger(work / "bench.jsonl", work / "bench.sqlite")
    t0 = time.perf_counter()
    for payload in frame.Decoder().feed(data):
        for ev, loggable in link.rx.take(payload, 0.0):
            if loggable:
                log.write(ev)
    log.close()
    return time.perf_counter() - t0


def main() -> None:
    data = wire(N)
    per_event = len(data) / N
    print(
        f"link: {per_event:.0f} bytes per event on the wire (mix of card, move, heartbeat);"
        f" {115200 / 10 / per_event:.0f} events/s at 115200 baud (8N1),"
        f" {1_000_000 / per_event:.0f} events/s at 1 MB/s (a USB-CDC link, assumed)"
    )
    with tempfile.TemporaryDirectory() as d:
        dt = decode_and_log(data, Path(d))
        print(
            f"host: decode + log (JSON lines, flushed per event) + SQLite index: "
            f"{N / dt:,.0f} events/s ({N} events in {dt:.2f} s)"
        )
        game = Path(sys.argv[1]) if len(sys.argv) > 1 else None
        if game and game.exists():
            from plateau.cli import main as cli

            n = sum(1 for _ in open(game))
            t0 = time.perf_counter()
            import contextlib
            import io

            with contextlib.redirect_stdout(io.StringIO()):
                cli(["replay", str(game), "--json"])
            dt = time.perf_counter() - t0
            print(f"host: replay of a {n}-event game log: {dt:.2f} s ({n / dt:,.0f} events/s)")
    _ = (json, frame)


main()
