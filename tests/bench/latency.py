"""`make bench`'s move latency: last hand action -> move event on the simulated board, for
every move of generated Tock games with sensor noise. The clock is virtual and the Hall
sensors are modelled from hardware/sensors.json (firmware/sim/chips/drv5032.py HallSwitches: a
duty-cycled part updates its output only at its own samples), so what is measured is the
sensor's sampling period, the scan, the debounce and the settle time as the firmware runs
them; the ESP32's own time for the rules check and the event, which a virtual clock does not
see, is added from the chip's estimates (given by run.py from this run's figures).

    python tests/bench/latency.py [--games N] [--check-ms A-B] [--event-ms A-B]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "host_tools"))
sys.path.insert(0, str(ROOT))
from hardware import figures  # noqa: E402
from plateau import HARDWARE  # noqa: E402  (puts firmware/ and its stand-ins on the path)
from plateau.games.tock.generate import generate  # noqa: E402

# isort: split
from plateau.fw.sim import VirtualClock  # noqa: E402
from plateau.fw.sim.run import Capture, Sim  # noqa: E402
from plateau.fw.sim.script import read  # noqa: E402

COMPARE = {"part": "DRV5032FA", "sample_ms": 50, "active_low": True, "output": "push-pull"}


class Timed(Sim):
    """The simulated table, noting when hands last changed what a sensor sees."""

    hands: list[int]

    def act(self, line, verb, args):
        if verb in ("lift", "place", "move"):
            now = self.clock.ticks_ms()
            # a `move` lifts at once and sets down half a pace later (sim/run.py)
            self.hands.append(now + self.pace // 2 if verb == "move" else now)
        super().act(line, verb, args)


def latencies(script: str, hw_dir: Path) -> list[int]:
    """last hand action -> move event (virtual ms), for each move the firmware reported."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.table"
        path.write_text(script)
        with open(path) as f:
            settings = read(f)
        out = Capture()
        sim = Timed(settings, str(path), VirtualClock(), out, "00000000", str(hw_dir))
        sim.hands = []
        sim.run()
        moves = [e for e in out.events() if e["type"] == "move"]
    got = []
    for m in moves:
        before = [t for t in sim.hands if t <= m["t"]]
        if before:
            got.append(m["t"] - before[-1])
    return got


def with_sensor(part: dict, tmp: Path) -> Path:
    """A copy of hardware/'s data with another Hall sensor fitted."""
    for f in HARDWARE.glob("*.json"):
        shutil.copy(f, tmp / f.name)
    data = json.loads((tmp / "sensors.json").read_text())
    data["sensor"] = part
    (tmp / "sensors.json").write_text(json.dumps(data))
    return tmp


def span(text: str | None, fallback: float) -> tuple[float, float, str]:
    """'16.0-24.8' -> (16.0, 24.8, 'est.'), or the design figure when the run gave none."""
    if text:
        lo, hi = (float(x) for x in text.split("-"))
        return lo, hi, f"est. {text} ms"
    return fallback, fallback, f"{fallback:g} ms (hardware/figures.py: no estimate this run)"


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--check-ms", help="the ESP32's slowest rules check, 'lo-hi' ms")
    p.add_argument("--event-ms", help="the ESP32's time for a move event, 'lo-hi' ms")
    args = p.parse_args()
    games = [generate("classic", 4, seed, noise=0.03) for seed in range(1, args.games + 1)]
    fitted = json.loads((HARDWARE / "sensors.json").read_text())["sensor"]
    rate = f"every {fitted['sample_ms']} ms" if fitted["sample_ms"] else "continuous"
    lat = [x for g in games for x in latencies(g.script, HARDWARE)]
    made = sum(len(g.moves) for g in games)
    check_lo, check_hi, check_s = span(args.check_ms, figures.CHECK_MS)
    event_lo, event_hi, event_s = span(args.event_ms, figures.EVENT_MS)
    worst = max(lat)
    print(
        "move latency, last hand action -> move event, on the simulated board (virtual clock: "
        "the firmware's scan, debounce and settle, the Hall sensor modelled from "
        f"hardware/sensors.json), every move of {len(games)} generated 4-player games with 3 % "
        "sensor noise:"
    )
    print(
        f"  {fitted['part']} (sensors.json: sampling {rate}): {len(lat)} moves reported of "
        f"{made} made, median {statistics.median(lat):g} ms, worst {worst} ms"
    )
    print(
        f"  + the ESP32's slowest rules check (the worst 7, collections charged: {check_s}) and "
        f"the move event ({event_s}): worst {worst + check_lo + event_lo:.1f}-"
        f"{worst + check_hi + event_hi:.1f} ms (target {figures.TARGET_MS:g} ms; the bound from "
        f"the parts, hardware/generated/figures.md: {figures.chosen().worst_latency_ms():g} ms)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        slow = latencies(games[0].script, with_sensor(COMPARE, Path(tmp)))
    print(
        f"  for comparison, a {COMPARE['part']} (sampling every {COMPARE['sample_ms']} ms) in its "
        f"place, first game: median {statistics.median(slow):g} ms, worst {max(slow)} ms: the "
        "sensor's period is in the figure"
    )


main()
