"""`plateau bridge --once` publishes every line of a finished log, then stops (adversarial
finding 14: it stopped after an arbitrary part, 100 to 400 lines of 449, whenever the
acknowledgements of a full window came in the same round; and a damaged cursor file
`LOG.bridge-TABLE` holding `[]` was a traceback). A real Mosquitto (skipped where missing):
logs longer than several windows, published from scratch again and again, and cursor files
damaged in seeded ways, each published in full from line 1."""

import json
import random

from clubkit import broker_for, start_broker

from plateau.club.mqtt import WINDOW, Bridge
from plateau.events import dump


def a_log(path, n):
    lines = [dump({"type": "hello", "boot": "b1", "at": 0, "game": "tock"})]
    lines += [dump({"type": "card", "boot": "b1", "seq": s, "card": "AS"}) for s in range(1, n)]
    path.write_bytes(b"".join(lines))
    return n


def cursors(rng):
    """What a cursor file may hold after a disk error or a hand edit."""
    yield b"[]"
    yield b"{not json"
    yield b""
    yield b"\xff\xfe"
    yield b"null"
    yield b'"epoch"'
    for _ in range(8):
        c = {"epoch": "ab12", "line": 3, "offset": 40, "ino": None}
        key = rng.choice(sorted(c))
        c[key] = rng.choice([[], {}, -1, "x", 1.5, None, True, 10**30, "bad epoch!"])
        yield json.dumps(c).encode()


def test_bridge_once_publishes_every_line(tmp_path):
    m = start_broker(tmp_path / "broker", ["t1"])
    try:
        log = tmp_path / "t1.jsonl"
        cursor = tmp_path / "t1.jsonl.bridge-t1"
        rng = random.Random(14)
        runs = 0
        for size in (WINDOW * 3 + 7, WINDOW * 5 - 1, 449):
            lines = a_log(log, size)
            for _ in range(3):
                cursor.unlink(missing_ok=True)
                b = Bridge(log, "t1", broker_for(m, "t1"))
                b.run(follow=False)
                runs += 1
                assert (b.acked_line, b.published) == (lines, lines), (size, b.acked_line)
        for damaged in cursors(rng):
            cursor.write_bytes(damaged)
            b = Bridge(log, "t1", broker_for(m, "t1"))
            b.run(follow=False)
            runs += 1
            assert b.acked_line == lines and b.published >= lines - 3, (damaged, b.acked_line)
        print(f"bridge --once: {runs} runs, every line of each log published")
    finally:
        m.stop()
