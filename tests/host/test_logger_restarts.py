"""A logger stopped and started again, a board that restarts (flash erased: a new boot; or
taken up from flash: the same boot and numbering), and games played between them, in seeded
random order: what the log misses, counted against what the firmware's `Link` emitted.

Board (firmware `Link`) and host (`Receiver`, `Logger`, `take_up`: what `plateau log` runs)
in one process on one virtual clock, as in test_link_recovery: nothing depends on the
machine's speed. An event must reach the log once a logger has run for a while during its
boot's life after it was emitted; a board erased while no logger ran loses its unlogged
events honestly (they are not counted)."""

import json
import random
from collections import Counter

from logkit import SETTLE_MS, Table

from plateau.logger import read_log


def scenario(seed, tmp_path):
    rng = random.Random(seed)
    t = Table(rng, tmp_path / f"log{seed}.jsonl")
    for _ in range(rng.randint(4, 12)):
        step = rng.choice(["play", "play", "erase", "restart", "logger", "logger"])
        if step == "play":
            t.play(rng.choice([0, 1, 3]))
        elif step in ("erase", "restart"):
            t.power_up(erased=step == "erase")
        elif t.logger is None:
            t.start_logger()
        else:
            t.stop_logger()
        t.run(rng.choice([300, SETTLE_MS]))
    if t.logger is None:
        t.start_logger()
    t.run(SETTLE_MS)
    t.stop_logger()
    logged = Counter((ev["boot"], ev["seq"]) for _, ev, _ in read_log(t.log) if ev and "seq" in ev)
    return {
        "emitted": len(t.emitted),
        "expected": len(t.expected),
        "missed": len(t.expected - set(logged)),
        "duplicated": sum(n - 1 for n in logged.values()),
        "boots": t.boots,
    }


def test_P2_a_restarted_logger_logs_every_event_of_every_boot_once(tmp_path):
    """Issue: a log whose last boot had only hello and snapshot (a new or erased board, the
    logger stopped, started again) made the next logger retire the board that was talking:
    nothing it said was logged again, ever."""
    runs = [scenario(seed, tmp_path) for seed in range(40)]
    total = {k: sum(r[k] for r in runs) for k in runs[0]}
    print(f"logger restarts (40 seeded runs, virtual time): {total}")
    assert total["expected"] > 50 and total["boots"] > 80  # the generator did its job
    assert total["missed"] == 0 and total["duplicated"] == 0, [
        (seed, r) for seed, r in enumerate(runs) if r["missed"] or r["duplicated"]
    ]


def test_an_erased_board_and_a_game_played_while_no_logger_ran_are_logged(tmp_path):
    """Events logged; the board erased with no logger; a logger that hears only its hello
    and snapshot; a game started with no logger; a logger again."""
    t = Table(random.Random(1), tmp_path / "log.jsonl")
    t.start_logger()
    t.play(2)
    t.run(SETTLE_MS)
    t.stop_logger()
    t.power_up(erased=True)
    t.start_logger()
    t.run(SETTLE_MS)
    t.stop_logger()
    t.play(2)
    t.start_logger()
    t.run(SETTLE_MS)
    t.stop_logger()
    seqs = [(ev["boot"], ev["seq"]) for _, ev, _ in read_log(t.log) if ev and "seq" in ev]
    assert seqs == t.emitted


def _damage(rng, t):
    """One seeded damage to the log's last numbered line (or a forged line after it), as a
    flipped digit or a hand edit would do: a number beyond the board's, a boot the board has
    not, a boot the log had before, a gap past the board's newest. Returns (line numbers not
    to read, the (boot, seq) the damage took from the log, if any)."""
    lines = t.log.read_text().splitlines()
    numbered = [i for i, text in enumerate(lines) if '"seq"' in text]
    boots = list(dict.fromkeys(json.loads(text)["boot"] for text in lines if '"boot"' in text))
    how = rng.choice(["seq-up", "seq-up", "forged", "gap", "boot-unknown", "boot-earlier"])
    if how in ("forged", "gap") or not numbered:
        boot = boots[-1] if boots else "f00d"
        forged = {"boot": boot, "seq": rng.randint(200, 10**6), "type": "card", "card": "AS"}
        if how == "gap":  # a gap line past what the board has, from where the log is
            last = max([json.loads(lines[i])["seq"] for i in numbered] or [0])
            forged = {"type": "gap", "boot": boot, "from": last + 1, "to": forged["seq"]}
        lines.append(json.dumps(forged))
        t.log.write_text("\n".join(lines) + "\n")
        return {len(lines)}, None
    i = numbered[-1]
    ev = json.loads(lines[i])
    taken = (ev["boot"], ev["seq"])
    if how == "seq-up":
        ev["seq"] += rng.randint(100, 10**6)
    elif how == "boot-unknown" or len(boots) < 2:
        ev["boot"] = f"{rng.getrandbits(28):07x}"
    else:
        ev["boot"] = rng.choice([b for b in boots if b != ev["boot"]])
    lines[i] = json.dumps(ev)
    t.log.write_text("\n".join(lines) + "\n")
    return {i + 1}, taken


def test_P2_a_log_whose_last_line_the_board_contradicts_loses_nothing(tmp_path):
    """Adversarial finding F0d: one damaged digit in the log's last event (seq 71 -> 871)
    made a restarted `plateau log` take every later event for one it had, write nothing,
    count nothing lost and reopen the port every 3 s. Seeded runs: loggers stopped, the
    last line damaged (a number beyond the board's, a boot the board has not, an earlier
    boot of the log, a forged line), the logger started again: every event the board still
    holds reaches the readers of the log (logger.Repeats, as replay and the index read)
    exactly once, after a `retake` line saying why."""
    from plateau.repeats import Repeats

    retakes = damaged_runs = 0
    for seed in range(30):
        rng = random.Random(seed)
        t = Table(rng, tmp_path / f"dmg{seed}.jsonl")
        skip: set[int] = set()
        gone = set()
        for _ in range(rng.randint(2, 5)):
            t.start_logger()
            t.play(rng.randint(1, 30))
            t.run(SETTLE_MS)
            t.stop_logger()
            t.play(rng.choice([0, 5]))
            if rng.random() < 0.3:
                t.power_up(erased=rng.random() < 0.5)
            lines, taken = _damage(rng, t)
            skip |= lines
            damaged_runs += 1
            if taken and taken[0] != t.board.boot:  # erased since: nobody can give it back
                gone.add(taken)
        t.start_logger()
        t.run(SETTLE_MS)
        t.stop_logger()
        repeats = Repeats()
        read = Counter()
        for n, ev, _ in read_log(t.log):
            if ev is None or n in skip or repeats.seen(ev):
                continue
            retakes += ev["type"] == "retake"
            if "seq" in ev:
                read[(ev["boot"], ev["seq"])] += 1
        missed = t.expected - gone - set(read)
        assert not missed, (seed, sorted(missed)[:10])
        assert all(n == 1 for n in read.values()), (seed, read.most_common(3))
    print(f"damaged logs: {damaged_runs} damages, {retakes} retake lines")
    assert retakes > 20
