"""`make bench`: the firmware's figures on the interpreter closest to the chip (the 32-bit
MicroPython with the firmware frozen in, at a plain ESP32's heap, when `make mp32` could
build it; else the 64-bit PyPI one), the heap of whole games of every game on each way of
loading the firmware, and the host's figures on CPython. Prints everything; `make bench`
keeps a copy in build/bench/results.txt. Measures and prints; asserts nothing about time.

    python tests/bench/run.py [--mp32 build/mp32/micropython]
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "host_tools"))
import plateau  # noqa: E402,F401
from plateau import HARDWARE  # noqa: E402
from plateau.build import BUILD, build, mpy_cross  # noqa: E402
from plateau.deploy import deployed_files  # noqa: E402
from plateau.games.holdem.generate import generate as generate_holdem  # noqa: E402
from plateau.games.pocha.generate import generate as generate_pocha  # noqa: E402
from plateau.games.tock.generate import generate  # noqa: E402
from plateau.games.weykick.generate import generate as generate_weykick  # noqa: E402
from plateau.sim import SIM_HEAP, micropython  # noqa: E402

OUT = ROOT / "build" / "bench"
BENCH = Path(__file__).resolve().parent
CHIP_HEAP = 111936  # a plain ESP32's Python heap once grown (micropython/micropython#13219)


def say(text: str = "") -> None:
    print(text, flush=True)


def run_mpy(interp: str, heap: int | str, path: str, module: str, *args: str, pipe=False):
    """A benchmark module under MicroPython, from build/bench; its output, or why it failed."""
    done = subprocess.run(
        [interp, "-X", f"heapsize={heap}", "-m", module, *args],
        env=dict(os.environ, MICROPYPATH=path),
        cwd=OUT,
        stdin=subprocess.PIPE if pipe else subprocess.DEVNULL,  # a pipe nobody writes to
        capture_output=True,
        timeout=900,
    )
    out = done.stdout.decode(errors="replace").rstrip()
    if done.returncode:
        err = done.stderr.decode(errors="replace").strip().splitlines()
        why = err[-1] if err else f"exit {done.returncode}"
        return out + ("\n" if out else "") + f"{module} failed: {why}"
    return out


def prepare() -> Path:
    """Compiles the benchmark modules and the firmware; fetches the reference workload;
    writes the 7-check cases and the games. Returns the folder holding the deployed .mpy
    files alone (what `make deploy` copies to a board)."""
    OUT.mkdir(parents=True, exist_ok=True)
    build(only_changed=True)
    helpers = [ROOT / "tests" / "firmware" / f for f in ("gameheap.py", "idlealloc.py")]
    for src in [*BENCH.glob("*_mpy.py"), *helpers]:
        subprocess.run([mpy_cross(), "-o", str(OUT / (src.stem + ".mpy")), str(src)], check=True)
    subprocess.run([sys.executable, str(BENCH / "fetch_reference.py"), str(OUT)], check=False)
    subprocess.run(
        [sys.executable, str(BENCH / "tock_cases.py"), str(OUT / "tock_cases.jsonl")],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    subprocess.run(  # the costliest hints, by a seeded search (issue 29)
        [sys.executable, str(BENCH / "tock_hints.py"), str(OUT / "tock_hints.jsonl")],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    games = {
        "tock classic 4p": generate("classic", 4, seed=1),
        "weykick best-of-5": generate_weykick(seed=2),
        "holdem 6 seats 50 hands": generate_holdem(6, 50, seed=1),
        "pocha 8 players": generate_pocha(8, 40, "default", seed=3),
    }
    for name, game in games.items():
        (OUT / (name.split()[0] + ".table")).write_text(game.script)
    deploy = OUT / "deploy"
    shutil.rmtree(deploy, ignore_errors=True)
    for rel in deployed_files():
        (deploy / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(BUILD / rel, deploy / rel)
    return deploy


def fresh_state() -> Path:
    """The simulated flash, empty: a game saved there by an earlier run would be resumed."""
    state = OUT / "state"
    shutil.rmtree(state, ignore_errors=True)
    state.mkdir()
    return state


def whole_game(interp: str, heap: int | str, path: str, game: str) -> dict | str:
    """gameheap's figures for one game, or why it did not finish."""
    state = fresh_state()
    done = subprocess.run(
        [interp, "-X", f"heapsize={heap}", "-m", "gameheap", game, str(HARDWARE), str(state)],
        env=dict(os.environ, MICROPYPATH=path),
        cwd=state,
        capture_output=True,
        timeout=900,
    )
    lines = done.stderr.decode(errors="replace").strip().splitlines()
    if done.returncode or not lines:
        return lines[-1] if lines else f"exit {done.returncode}"
    return json.loads(lines[-1])


def heaps(mp32: str | None, deploy: Path) -> None:
    """Whole games on each way of loading the firmware: frozen (an image built with
    firmware/manifest.py), .mpy files (make deploy), and the 64-bit port."""
    ways = []
    if mp32:
        ways.append(("32-bit, firmware frozen", mp32, f".frozen:{OUT}"))
        ways.append(("32-bit, firmware as .mpy files", mp32, f"{deploy}:.frozen:{OUT}"))
    ways.append(("64-bit PyPI build, .mpy files", micropython(), f"{BUILD}:{OUT}"))
    say(
        "lowest live free heap over a whole game (gc.collect() then gc.mem_free() after each "
        "hand action, check, event and save; tests/firmware/gameheap.py), and the data at "
        "that peak; the simulator frozen in the 32-bit build (on a board it is not there)"
    )
    for game in ("tock", "weykick", "holdem", "pocha"):
        for label, interp, path in ways:
            got = whole_game(interp, CHIP_HEAP, path, str(OUT / f"{game}.table"))
            where = f"-X heapsize={CHIP_HEAP}"
            if isinstance(got, str):  # did not fit: how much would it need?
                failed = got
                got = whole_game(interp, SIM_HEAP, path, str(OUT / f"{game}.table"))
                where = f"does not run at {CHIP_HEAP} ({failed}); at -X heapsize={SIM_HEAP}"
            if isinstance(got, str):
                say(f"  {game:8s} {label:32s} failed: {got}")
                continue
            used = got["heap"] - got["lowest"]
            say(
                f"  {game:8s} {label:32s} {where}: lowest free {got['lowest']:6d} B "
                f"({100 * got['lowest'] / got['heap']:4.1f} %), in use at the peak {used:6d} B, "
                f"free at the start {got['start']:6d} B"
            )


def latency(firmware: str, checks: str) -> str:
    """tests/bench/latency.py, given this run's ESP32 estimates for the slowest rules check
    and for a move event (when the runs above printed them)."""
    est = r"\(ESP32 est\. ([\d.]+-[\d.]+) ms\)"
    args = []
    for flag, text, line in (
        ("--check-ms", checks, "worst 7 check with collections counted: "),
        ("--event-ms", firmware, "link: one move event "),
    ):
        m = re.search(re.escape(line) + r"[^\n]*?" + est, text)
        if m:
            args += [flag, m.group(1)]
    done = subprocess.run(
        [sys.executable, str(BENCH / "latency.py"), *args], capture_output=True, text=True
    )
    err = done.stderr.strip().splitlines()
    return done.stdout.rstrip() + (f"\nlatency.py failed: {err[-1]}" if done.returncode else "")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--mp32", help="the 32-bit MicroPython with the firmware frozen in")
    args = p.parse_args()
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
    ).stdout.strip()
    say(f"# make bench, {datetime.date.today()}, commit {commit}")
    deploy = prepare()
    if args.mp32:
        chip = (str(Path(args.mp32).resolve()), CHIP_HEAP, f".frozen:{OUT}")
        say(f"## firmware on the 32-bit MicroPython, firmware frozen, -X heapsize={CHIP_HEAP}")
    else:
        chip = (micropython(), SIM_HEAP, f"{BUILD}:{OUT}")
        say(
            f"## firmware on the 64-bit MicroPython, -X heapsize={SIM_HEAP} (no 32-bit build: "
            "make bench SHARED=...)"
        )
    interp, heap, path = chip
    firmware = run_mpy(interp, heap, path, "firmware_mpy")
    say(firmware)
    say("## the worst 7 check and the garbage collector")
    checks = run_mpy(
        interp,
        heap,
        path,
        "chip_mpy",
        str(OUT / "tock_cases.jsonl"),
        str(OUT / "tock.table"),
        str(HARDWARE),
        str(fresh_state()),
    )
    say(checks)
    say("## the board's hints: the pawns a card moves, where a lifted pawn goes (issue 29)")
    say(run_mpy(interp, heap, path, "hints_mpy", str(OUT / "tock_hints.jsonl")))
    if args.mp32:  # the same 7s counted, not timed (cachegrind): steady on a busy machine
        say(
            subprocess.run(
                [sys.executable, str(BENCH / "hints_ir.py"), chip[0], str(OUT)],
                capture_output=True,
                text=True,
            ).stdout.rstrip()
        )
    say("## move latency (the simulated board's virtual clock, plus the estimates above)")
    say(latency(firmware, checks))
    # time and bytes allocated, not the heap's size: room for two tables and the records
    say("## the table loop (-X heapsize=512k: its figures are times and bytes allocated)")
    say(run_mpy(interp, "512k", path, "loop_mpy", str(HARDWARE), pipe=True))
    say("## what the table shows: the busiest passes with lights, displays and hints (issue 29)")
    shows = [str(OUT / f"{g}.table") for g in ("tock", "weykick", "holdem", "pocha")]
    say(run_mpy(interp, "512k", path, "outputs_mpy", str(HARDWARE), *shows, pipe=True))
    say("## heap of whole games")
    heaps(args.mp32 and chip[0], deploy)
    say("## the table on Wi-Fi (tests/bench/wifibench.py: a real Mosquitto on 127.0.0.1)")
    import wifibench

    wifibench.main(args.mp32 and chip[0])
    say("## host (CPython)")
    log = OUT / "game.jsonl"
    log.unlink(missing_ok=True)  # plateau sim appends to a log
    subprocess.run(
        [
            sys.executable,
            "-m",
            "plateau",
            "sim",
            str(OUT / "tock.table"),
            "--json",
            "--log",
            str(log),
        ],
        stdout=subprocess.DEVNULL,
        check=True,
    )
    say(
        subprocess.run(
            [sys.executable, str(BENCH / "host.py"), str(log)], capture_output=True, text=True
        ).stdout.rstrip()
    )
    say(  # Tock's enumeration beside an independent generator, now and before (issue 29)
        subprocess.run(
            [sys.executable, str(BENCH / "tock_speed.py")], capture_output=True, text=True
        ).stdout.rstrip()
    )
    say("## .mpy sizes")
    size = subprocess.run(
        [sys.executable, "-m", "plateau", "size"], capture_output=True, text=True
    ).stdout
    say("\n".join(size.rstrip().splitlines()[-2:]))


main()
