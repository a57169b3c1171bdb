"""Soak (issue 5): at least 50 generated games per ruleset through the firmware with sensor
noise, every move reported exactly once, no phantom move, no false alarm."""

import os
from concurrent.futures import ProcessPoolExecutor

from conftest import REPORT
from soak import soak_one

GAMES = int(os.environ.get("PLATEAU_SOAK_GAMES", "50"))


def test_soak_every_move_reported_exactly_once():
    jobs = [
        (rules, 2 + seed % 3, seed)
        for rules in ("classic", "king-exit", "toc-fr")
        for seed in range(GAMES)
    ]
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(soak_one, jobs, chunksize=4))
    total = {
        k: sum(r[k] for r in results)
        for k in ("made", "reported", "missed", "phantom", "illegal", "errors", "wins", "glitches")
    }
    REPORT.append(
        f"soak: {len(results)} games ({GAMES} per ruleset), {total['made']} moves made, "
        f"{total['reported']} reported, {total['missed']} missed, {total['phantom']} phantom, "
        f"{total['illegal']} false illegal, {total['errors']} errors, {total['wins']} wins, "
        f"{total['glitches']} glitches injected; slowest settle "
        f"{max(r['settle_max'] for r in results)} ms"
    )
    bad = [
        r
        for r in results
        if r["missed"] or r["phantom"] or r["illegal"] or r["errors"] or r["wins"] != 1
    ]
    assert not bad, bad[:3]
