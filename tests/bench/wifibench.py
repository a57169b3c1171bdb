"""The table on Wi-Fi's figures (issue 30; make bench prints them, docs/wifi.md quotes
them): on the 32-bit build with the firmware frozen at a plain ESP32's 111,936 B heap (the
64-bit one, code on its heap, without it), a real Mosquitto on 127.0.0.1 (club-broker's ACL):
  - tests/bench/wifi_mpy.py: a pass's time with Wi-Fi publishing, events a second, the
    backlog drained after a 60 s outage of the access point and after one of the broker
    (ESP32 estimates beside this machine's times);
  - each game's lowest live free heap over a whole game with the table publishing it
    (tests/firmware/gameheap.py with a broker), against the same game without Wi-Fi.
Prints; asserts nothing.   python tests/bench/wifibench.py [--mp32 build/mp32/micropython]"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "host_tools"))

from plateau import HARDWARE  # noqa: E402
from plateau.build import BUILD, build, mpy_cross  # noqa: E402
from plateau.club.broker import READER, Mosquitto, free_port, mosquitto  # noqa: E402
from plateau.sim import micropython  # noqa: E402

BENCH = Path(__file__).resolve().parent
CHIP_HEAP = 111936
GAMES = ("tock", "weykick", "holdem", "pocha")


def compiled(out: Path) -> None:
    for src in (BENCH / "wifi_mpy.py", BENCH / "esp32_mpy.py", ROOT / "tests/firmware/gameheap.py"):
        subprocess.run([mpy_cross(), "-o", str(out / (src.stem + ".mpy")), str(src)], check=True)


def game_heap(interp: str, heap: int, path: str, script: Path, wifi: list[str]) -> dict | str:
    with tempfile.TemporaryDirectory() as state:
        done = subprocess.run(
            [interp, "-X", f"heapsize={heap}", "-m", "gameheap", str(script), str(HARDWARE)]
            + [state, *wifi],
            env=dict(os.environ, MICROPYPATH=path),
            cwd=state,
            capture_output=True,
            timeout=900,
        )
    lines = done.stderr.decode(errors="replace").strip().splitlines()
    if done.returncode or not lines:
        return lines[-1] if lines else f"exit {done.returncode}"
    return json.loads(lines[-1])


def scripts(out: Path) -> None:
    """The games tests/bench/run.py plays (the same generators and seeds)."""
    from plateau.games.holdem.generate import generate as generate_holdem
    from plateau.games.pocha.generate import generate as generate_pocha
    from plateau.games.tock.generate import generate
    from plateau.games.weykick.generate import generate as generate_weykick

    (out / "tock.table").write_text(generate("classic", 4, seed=1).script)
    (out / "weykick.table").write_text(generate_weykick(seed=2).script)
    (out / "holdem.table").write_text(generate_holdem(6, 50, seed=1).script)
    (out / "pocha.table").write_text(generate_pocha(8, 40, "default", seed=3).script)


def main(mp32: str | None) -> None:
    if mosquitto() is None:
        print("mosquitto is not installed (apt-get install mosquitto): no Wi-Fi figures")
        return
    out = Path(tempfile.mkdtemp(prefix="plateau-wifibench-"))
    build(only_changed=True)
    compiled(out)
    scripts(out)
    subprocess.run([sys.executable, str(BENCH / "fetch_reference.py"), str(out)], check=False)
    mp32 = mp32 and str(Path(mp32).resolve())
    if mp32:
        interp, heap, path = mp32, CHIP_HEAP, f".frozen:{out}"
        where = f"32-bit, firmware frozen, -X heapsize={heap}"
    else:
        interp, heap, path = micropython(), 448 * 1024, f"{BUILD}:{out}"
        where = "64-bit PyPI build, code on the heap, -X heapsize=448k (not the chip's figures)"
    users = {f"bench-{g}": f"pw-{g}" for g in (*GAMES, "loop")}
    users[READER] = "pw-reader"
    broker = Mosquitto(out / "broker", users)
    broker.start()
    try:
        print(f"the table on Wi-Fi ({where}), a Mosquitto on 127.0.0.1:")
        state = out / "state"
        state.mkdir()
        done = subprocess.run(
            [interp, "-X", f"heapsize={heap}", "-m", "wifi_mpy", str(broker.port)]
            + ["bench-loop", users["bench-loop"], str(state), str(free_port())],
            env=dict(os.environ, MICROPYPATH=path),
            cwd=state,
            capture_output=True,
            text=True,
            timeout=900,
        )
        print(done.stdout.rstrip())
        if done.returncode:
            print("wifi_mpy failed: " + (done.stderr.strip().splitlines() or ["?"])[-1])
        print(
            "lowest live free heap over a whole game (tests/firmware/gameheap.py), without "
            "Wi-Fi and with the table publishing the game to the broker:"
        )
        for game in GAMES:
            script = out / f"{game}.table"
            plain = game_heap(interp, heap, path, script, [])
            wifi = game_heap(
                interp,
                heap,
                path,
                script,
                [str(broker.port), f"bench-{game}", users[f"bench-{game}"]],
            )
            if isinstance(plain, str) or isinstance(wifi, str):
                print(f"  {game:8s} failed: {plain if isinstance(plain, str) else wifi}")
                continue
            lo, lw = plain["lowest"], wifi["lowest"]
            print(
                f"  {game:8s} no Wi-Fi {lo:6d} B ({100 * lo / heap:4.1f} %), on Wi-Fi {lw:6d} B "
                f"({100 * lw / heap:4.1f} %): the Wi-Fi takes {lo - lw:5d} B at the peak; "
                f"{'keeps' if lw >= heap // 5 else 'does NOT keep'} 20 % ({heap // 5} B) free"
            )
    finally:
        broker.stop()


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--mp32", help="the 32-bit MicroPython with the firmware frozen in")
    a = p.parse_args()
    main(a.mp32)
