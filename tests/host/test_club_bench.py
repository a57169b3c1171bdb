"""The club benchmark's short form (`make club-bench` is the long one: 50 tables, 60 s):
10 tables at 10 events/s for 5 s through a real Mosquitto into `plateau serve`. Nothing may be
lost or folded in twice; the latency and CPU figures are printed, not checked."""

from __future__ import annotations

import sys
from pathlib import Path

from clubkit import need_mosquitto
from conftest import REPORT

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))


def test_club_bench_short_form():
    need_mosquitto()
    from clubbench import bench

    lines: list[str] = []
    r = bench(tables=10, rate=10, seconds=5, say=lines.append)
    REPORT.extend(lines[1:])
    assert r["logged"] > 0 and r["page_messages"] > 0
    assert r["lost"] == 0
    assert r["duplicated"] == 0
