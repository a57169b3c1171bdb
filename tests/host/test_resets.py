"""The reset harness (issue 15), its short form: whole games of the four games, the simulated
board killed with SIGKILL at seeded points (in a Jack swap, a 7, with the pile holding the
deck's last card, in a tie-break, a Hold'em hand, a ball in a goal...) and restarted on the
same flash and the same physical table, a host logging them (in two of the four games it is
started late, after the first kills: it must still get every event). `make resets` (or
`plateau resets`) runs the long form: 240 kills over 24 whole games."""

import os
import random
from pathlib import Path

from conftest import REPORT

from plateau.kills import EARLY, places, plan
from plateau.resets import GAMES, harness, report, script

KILLS = int(os.environ.get("PLATEAU_RESET_KILLS", "40"))


def test_kill_9_at_random_points_loses_nothing_and_sticks_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # --keep a relative folder (it once made every run "stuck")
    work = Path("kept")
    t = harness(KILLS, seed=11, per_game=10, size="short", work=work, say=lambda m: None)
    REPORT.append(report(t) + " (make resets: the long form)")
    # N kills asked: N made, or a few fewer (a game may end before its last kill point)
    assert KILLS * 3 // 4 <= t.kills <= KILLS, report(t)
    assert not t.problems, t.problems
    assert (t.stuck, t.lost, t.doubled, t.logged_twice, t.gapped, t.bad, t.holes) == (0,) * 7
    assert t.different_end == 0 and t.resync_late == 0


def test_kills_n_means_n_kill_points_late_host_or_not():
    """`plateau resets --kills N` plans N kills: the early kill before a late host is one of
    a run's kills, not one more (it made 5 of --kills 4, 42 of make test's 40)."""
    rng = random.Random(5)
    for _ in range(40):
        game = rng.choice(GAMES)
        text = script(game, rng.randrange(10_000), "short")
        n = rng.randint(1, 12)
        late = rng.random() < 0.5
        points, host_after = plan(game, text, n, late, rng)
        assert len(points) == n, (game, n, late, points)
        assert points == sorted(points)
        if late:
            assert 1 <= host_after <= n
            early = points[host_after - 1][0]
            every = places(game, text)["any"]
            assert early in (every[EARLY // 2 : EARLY] or every)
        else:
            assert host_after == 0
