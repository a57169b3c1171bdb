"""The chaos harness's short form (the long one is `make chaos`: 200 whole games): one whole
game of each of the four games through the hostile relay, between the simulated board and
the real `plateau log`. What is asserted is the link's promise, counted against the
firmware's own journal; recovery times are real time on a shared machine, so they are
printed, not asserted (the virtual-time test in test_link_recovery asserts the 3 s)."""

from pathlib import Path

from conftest import REPORT

from plateau import chaos
from plateau.games import find


def test_P1_P2_P3_whole_games_of_every_game_through_a_hostile_line(tmp_path, monkeypatch):
    todo = [
        chaos.Spec("tock", 3, find("tock").CHAOS_SPEED, ring=2048),
        chaos.Spec("pocha", 3, find("pocha").CHAOS_SPEED),
        chaos.Spec("weykick", 3, find("weykick").CHAOS_SPEED),
        chaos.Spec("holdem", 3, find("holdem").CHAOS_SPEED, ring=2048),
    ]
    lines = []
    monkeypatch.chdir(tmp_path)  # --keep a relative folder (it once failed in the workers)
    t = chaos.run(todo, jobs=2, say=lines.append, keep=Path("kept"))
    REPORT.extend(chaos.summary(t))
    detail = "\n".join(lines)
    for key in chaos.BROKEN:
        assert t[key] == 0, f"{key}:\n{detail}"
    assert not t["problems"], detail
    assert t["emitted"] > 1000 and sum(t["episodes"].values()) >= 12
    assert len(list((tmp_path / "kept").glob("plateau-chaos-*/journal.jsonl"))) == len(todo)
