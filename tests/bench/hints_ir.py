"""The board's costliest hints (the 7s of tests/bench/tock_hints.py's cases) as instructions
counted on the 32-bit MicroPython build under valgrind's cachegrind, and an ESP32 estimate
from them: the instructions of one pystone of the reference workload (pystone_lowmem,
counted the same way) against an ESP32's published pystones per second (esp32_mpy.py:
1661 with v1.12, 1075 with v1.13+ulab). Counted, not timed: the same figures on a busy
machine, where hints_mpy.py's timings (best of a few runs) wander. Still an estimate: the
instruction mix of an x86 build, scaled by pystone, not the chip's.

    python tests/bench/hints_ir.py MP32 BENCH_DIR [--top 4]

BENCH_DIR holds tock_hints.jsonl, pystone_lowmem.mpy and hints_ir_mpy.mpy (make bench's
build/bench); prints one line per 7 counted, the costliest last. Asserts nothing."""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ESP32_PYSTONES = (1661, 1075)  # tests/bench/esp32_mpy.py
HEAP = "111936"


def instructions(mp32: str, bench: Path, *args: str) -> tuple[int, str]:
    """Instructions (Ir) of one run of hints_ir_mpy under cachegrind, and its output."""
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            [
                "valgrind",
                "--tool=cachegrind",
                "--cache-sim=no",
                f"--cachegrind-out-file={tmp}/cg.out",
                mp32,
                "-X",
                f"heapsize={HEAP}",
                "-m",
                "hints_ir_mpy",
                *args,
            ],
            env=dict(os.environ, MICROPYPATH=f".frozen:{bench}"),
            cwd=bench,
            capture_output=True,
            text=True,
            timeout=600,
        )
        if done.returncode:
            err = done.stderr.strip().splitlines()
            sys.exit(f"hints_ir_mpy {' '.join(args)} failed: {err[-1] if err else done.returncode}")
        m = re.search(r"^summary:\s+(\d+)", Path(f"{tmp}/cg.out").read_text(), re.M)
        if not m:
            sys.exit("no instruction count in cachegrind's output")
        return int(m.group(1)), done.stdout.strip()


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("mp32")
    p.add_argument("bench", type=Path)
    p.add_argument("--top", type=int, default=4, help="how many of the costliest to print")
    args = p.parse_args()
    if not shutil.which("valgrind"):
        print("no valgrind: no instruction counts (apt-get install valgrind)")
        return
    cases = args.bench / "tock_hints.jsonl"
    sevens = sum(1 for line in cases.read_text().splitlines() if json.loads(line)["card"][0] == "7")
    n = 2000
    per_pystone = (
        instructions(args.mp32, args.bench, "pystone", str(n))[0]
        - instructions(args.mp32, args.bench, "pystone", "0")[0]
    ) / n
    rows = []
    for i in range(sevens):
        hint, position = instructions(args.mp32, args.bench, "hint", str(i), str(cases))
        base, _ = instructions(args.mp32, args.bench, "base", str(i), str(cases))
        rows.append((hint - base, position))
    rows.sort()
    print(
        f"hints by instructions (cachegrind, the 32-bit build, -X heapsize={HEAP}): "
        f"{sevens} 7s of tests/bench/tock_hints.py, one pystone {per_pystone:.0f} instructions"
    )
    for ir, position in rows[-args.top :]:
        ms = [ir / per_pystone / p * 1000 for p in ESP32_PYSTONES]
        est = f"ESP32 est. {ms[0]:.1f}-{ms[1]:.1f} ms"
        print(f"  {ir / 1e6:5.2f}M instructions ({est}): {position}")


main()
