"""The host reading the board's clock across its wrap (issue 34): a move's "t" is the board's
tick counter, which reads 0 again 2**30 ms (12.4 days) after boot and again at a reset.
`plateau games show` gives a game's length on that clock: the same for a game logged by a
board whose counter wrapped mid-game (the log of a board just booted, its counter readings
moved as a board up 12.4 days writes them: tests/firmware/test_sim_wrap_* check that the
firmware writes nothing else differently), and a reset's outage left out."""

import json
import random

from simkit import logged, plateau

PERIOD = 1 << 30
SCRIPT = """table tock players=2 rules=classic
card AS
move RC1 R18
wait 2000
card KH
move GC1 G18
wait 3000
card 5D
move R18 G5
wait 1000
card 3C
move G18 G3
"""


def moved(log, start, out):
    """The log as a board whose counter started at `start` would have logged it."""
    lines = []
    for line in log.read_text().splitlines():
        ev = json.loads(line)
        for k in ("t", "up"):
            if isinstance(ev.get(k), int):
                ev[k] = (ev[k] + start) % PERIOD
        lines.append(json.dumps(ev))
    out.write_text("\n".join(lines) + "\n")
    return out


def shown(tmp_path, log):
    db = tmp_path / (log.stem + ".sqlite")
    done = plateau("index", log, "--db", db)
    assert done.returncode == 0, done.stderr
    done = plateau("games", "show", "1", "--db", db)
    assert done.returncode == 0, done.stderr
    return [line for line in done.stdout.splitlines() if line.startswith("duration")]


def test_a_games_length_on_the_board_clock_across_the_wrap(tmp_path):
    log = logged(tmp_path, "w", SCRIPT)
    ts = [json.loads(line).get("t") for line in log.read_text().splitlines()]
    ts = [t for t in ts if isinstance(t, int)]
    want = shown(tmp_path, log)
    assert want == [f"duration 0 min {(ts[-1] - ts[0]) // 1000:02d} s " + want[0].split(" s ")[1]]
    r = random.Random(34)
    for _ in range(4):  # the wrap between two moves, at a move, or just after the first
        at = r.randint(ts[0], ts[-1])
        wrapped = moved(log, -at % PERIOD, tmp_path / f"wrapped{at}.jsonl")
        assert shown(tmp_path, wrapped) == want, at


def test_a_reset_s_outage_is_left_out_of_the_length(tmp_path):
    # the counter restarts at a reset: the moves after it read less than those before
    # (the simulator's clock runs on: the board's restart is written into its log below);
    # the first move 20 s after power-up, so no span of readings is the game's length
    script = SCRIPT.replace("wait 3000\n", "wait 3000\nreset\nwait 500\n")
    log = logged(tmp_path, "r", script.replace("card AS", "wait 20000\ncard AS"))
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    cut = next(i for i, ev in enumerate(lines) if ev["type"] == "resumed")
    before = [ev["t"] for ev in lines[:cut] if "t" in ev]
    after = [ev["t"] for ev in lines[cut:] if "t" in ev]
    restarted = tmp_path / "restarted.jsonl"
    for ev in lines[cut:]:
        if isinstance(ev.get("t"), int):
            ev["t"] -= after[0] - 700  # as read by a board booted 0.7 s before that move
    restarted.write_text("".join(json.dumps(ev) + "\n" for ev in lines))
    s = (before[-1] - before[0] + after[-1] - after[0]) // 1000
    (line,) = shown(tmp_path, restarted)
    assert line.startswith(f"duration 0 min {s:02d} s"), line
