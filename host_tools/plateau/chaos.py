"""`plateau chaos`: whole games through a hostile serial line, and what reached the log.

    simulated board (firmware under micropython, on a pty)
        <-> Relay (plateau.relay): corrupts, drops, doubles, reorders, delays and cuts bytes
            (port open), and unplugs (the host's port disappears, then comes back), both
            directions, knowing nothing of the protocol
        <-> `plateau log` (the real command, on a second pty behind a symlink, as
            /dev/serial/by-id/... is on a laptop)

The ground truth is what the firmware emitted: the simulator writes every numbered event,
every event its ring drops and every gap it tells to a journal (`sim.run --journal`).
After the game the log is compared with the journal, number by number (plateau.journal).

Time: the simulated table runs `speed` times faster than real time (sim.run --speed; it
never runs ahead, it may fall behind on a loaded machine: the achieved speed is reported).
A fault's length is drawn in table time and lasts table/speed seconds of real time: a 60 s
cut is 60 s of the table's play (the board goes on refereeing and numbering, its ring fills
and drops the oldest events) that the host sees as 60/speed s of silence. The host's own
timeouts (3 s dead link, asking again every 0.25-1 s) are in real time, so a fault longer
than 3 s of real time also makes the host declare the link dead and reopen the port.
Between faults the line stays clean CLEAN_S seconds of real time: the host's recovery time
is measured from the moment the line clears to the moment the log holds (or names in a
gap) every event the board had emitted by then.
"""

from __future__ import annotations

import json
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from plateau import games
from plateau.commands import write_out
from plateau.games import find
from plateau.journal import Truth, compare
from plateau.relay import MAX_CUT_S, Episode, Relay, plan
from plateau.sim import Firmware, dies_with_parent

# The games with a generator (plateau/games/), in the order that draws each one's faults (a
# game's place seeds them: as each game's host module places itself, ORDER, the four first
# as they always were, so that their runs stay the same; a game added since goes after
# them). Each is played at its CHAOS_SPEED, table time to real time, so that a game lasts
# about 15-25 s of real time (a Tock game is about 11 minutes of play, the others 1.5-3).
GAMES = games.harness("chaos")
CLEAN_S = (3.2, 4.5)  # real seconds of clean line between faults: recovery is seen within them
FIRST_CLEAN_S = 2.0  # real seconds before the first fault (the host connects)
# after the game the log must be complete within this: a liveness bound, not a speed target
FINAL_WAIT_S = 60.0
RECOVERY_S = 3.0  # the promise: recovered within this after the line clears


# --- one game ----------------------------------------------------------------------------------


@dataclass
class Spec:
    game: str
    seed: int
    speed: float
    ring: int | None = None  # ring bytes (None: the board's own 16 KB)
    max_cut: float = MAX_CUT_S


def script(spec: Spec) -> str:
    """The game's generator (its host module's script: plateau/games/), "chaos" form."""
    return find(spec.game).script(spec.seed, "chaos")


def play(spec: Spec, keep: Path | None = None) -> dict:
    """One game through the relay; the counts (see `compare`) and the recovery times."""
    rng = random.Random(spec.seed * 7919 + GAMES.index(spec.game))
    where = keep.resolve() if keep else None  # the simulator runs in a folder of its own
    if where:
        where.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f"plateau-chaos-{spec.game}-{spec.seed}-", dir=where))
    table = work / "game.table"
    table.write_text(script(spec))
    args = ["--wait-host", "--speed", str(spec.speed), "--journal", str(work / "journal.jsonl")]
    if spec.ring:
        args += ["--ring", str(spec.ring)]
    fw = Firmware(table, *args, state_dir=str(work / "flash"))
    relay = Relay(fw.port, work / "port", random.Random(rng.random()))
    with open(work / "view.txt", "wb") as view, open(work / "host.err", "wb") as err:
        host = subprocess.Popen(
            [sys.executable, "-m", "plateau", "log", "--port", str(work / "port")]
            + ["--log", str(work / "game.jsonl"), "--db", str(work / "games.sqlite")],
            stdout=view,
            stderr=err,
            preexec_fn=dies_with_parent(),
        )
    truth = Truth(work)
    episodes = plan(rng, spec.speed, spec.max_cut)
    t0 = time.monotonic()
    ep: Episode | None = None
    ends = t0 + FIRST_CLEAN_S  # when the current episode, or the current clean spell, ends
    kinds: Counter = Counter()
    longest = {"cut": 0.0, "unplug": 0.0}
    waiting: list[tuple[float, set]] = []  # (line cleared at, events then missing)
    recovery: list[float] = []
    unrecovered = 0
    polled = 0.0
    final: float | None = None
    problem = None
    try:
        while True:
            relay.pump(0.005)
            now = time.monotonic()
            if now - polled >= 0.02:
                truth.poll()
                polled = now
                missing = truth.missing()
                for at, need in list(waiting):
                    if not need & missing:
                        recovery.append(now - at)
                        waiting.remove((at, need))
            if final is None and now >= ends:
                if ep is not None:  # the line clears
                    relay.set(None)
                    truth.poll()
                    missing = truth.missing()
                    if missing:
                        waiting.append((now, missing))
                    else:
                        recovery.append(0.0)
                    ep, ends = None, now + rng.uniform(*CLEAN_S)
                else:
                    unrecovered += len(waiting)  # not recovered before the next fault
                    waiting = []
                    ep = next(episodes)
                    kinds[ep.kind] += 1
                    key = "unplug" if ep.kind == "unplug" else "cut"
                    if ep.kind.startswith("cut") or ep.kind == "unplug":
                        longest[key] = max(longest[key], ep.table_s)
                    relay.set(ep)
                    ends = now + ep.real_s
            if final is None and truth.ended:
                final = now  # the game is over: the line clears for good
                if ep is not None:
                    relay.set(None)
                    ep = None
                    truth.poll()
                    waiting.append((now, truth.missing()))
            if final is not None and not waiting and not truth.missing():
                break
            if final is not None and now - final > FINAL_WAIT_S:
                problem = f"log still incomplete {FINAL_WAIT_S:.0f} s after the game"
                break
            if host.poll() is not None:
                problem = f"plateau log exited with {host.returncode}"
                break
            if fw.finished():
                problem = f"the simulator exited with {fw.proc.returncode}"
                break
            if now - t0 > 3600:
                problem = "no end after an hour"
                break
    finally:
        elapsed = time.monotonic() - t0
        if host.poll() is None:
            host.send_signal(signal.SIGINT)
            try:
                host.wait(20)
            except subprocess.TimeoutExpired:
                host.kill()
                problem = problem or "plateau log did not stop on SIGINT"
        fw.stop()
        relay.close()
        truth.journal.close()
        truth.log.close()
    unrecovered += len(waiting)
    result = compare(work / "journal.jsonl", work / "game.jsonl")
    errors = (work / "host.err").read_text(errors="replace")
    table_s = truth.table_ms / 1000
    result.update(
        game=spec.game,
        seed=spec.seed,
        ring=spec.ring,
        speed=spec.speed,
        real_s=round(elapsed, 1),
        achieved_speed=round(table_s / elapsed, 1) if elapsed else 0,
        episodes=dict(kinds),
        longest_cut_s=round(longest["cut"], 1),
        longest_unplug_s=round(longest["unplug"], 1),
        recovery_s=[round(r, 3) for r in recovery],
        unrecovered=unrecovered,
        tracebacks=errors.count("Traceback"),
        relay=dict(relay.counts),
        problem=problem,
        host=errors.strip().splitlines()[-1:] if errors.strip() else [],
        work=str(work) if keep else None,
    )
    if not keep:
        shutil.rmtree(work, ignore_errors=True)
    return result


# --- many games ---------------------------------------------------------------------------------

BROKEN = ("lost", "duplicated", "out_of_order", "wrongly_gapped", "changed", "tracebacks")


def specs(per_game: int, games=GAMES, seed: int = 0, small_ring: int = 2048) -> list[Spec]:
    """per_game games of each; every other one with a small ring (small_ring bytes, about 30
    events), so that long cuts overrun it and the gap path is taken too."""
    out = []
    for i in range(per_game):
        for g in games:
            ring = small_ring if i % 2 else None
            out.append(Spec(g, seed + i, find(g).CHAOS_SPEED, ring))
    return out


def run(todo: list[Spec], jobs: int = 2, say=print, keep: Path | None = None) -> dict:
    """Plays every spec (jobs at a time), says a line per game, returns the totals."""
    results = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for r in pool.map(play, todo, [keep] * len(todo)):
            results.append(r)
            say(line(r))
    return totals(results)


def line(r: dict) -> str:
    rec = max(r["recovery_s"], default=0)
    flags = [k for k in BROKEN if r[k]] + (["PROBLEM: " + r["problem"]] if r["problem"] else [])
    return (
        f"{r['game']:<7} seed {r['seed']:<3} ring {r['ring'] or 'full':<5}"
        f" {r['emitted']:5d} events:"
        f" {r['lost']} lost, {r['duplicated']} dup, {r['out_of_order']} out of order,"
        f" {r['gapped']} gapped ({r['wrongly_gapped']} wrongly), {r['changed']} changed;"
        f" {sum(r['episodes'].values())} faults, longest cut {r['longest_cut_s']} s,"
        f" unplug {r['longest_unplug_s']} s; recovery max {rec:.2f} s"
        f" ({r['real_s']} s real, {r['achieved_speed']}x)"
        + (" !! " + ", ".join(flags) if flags else "")
    )


def totals(results: list[dict]) -> dict:
    rec = sorted(x for r in results for x in r["recovery_s"])
    t: dict = {
        "games": Counter(r["game"] for r in results),
        "problems": [
            f"{r['game']} seed {r['seed']}: {r['problem']}" for r in results if r["problem"]
        ],
        "recoveries": len(rec),
        "recovery_max_s": rec[-1] if rec else 0.0,
        "recovery_p95_s": rec[int(0.95 * (len(rec) - 1))] if rec else 0.0,
        "recovery_over_3s": len([x for x in rec if x > RECOVERY_S]),
        "unrecovered": sum(r["unrecovered"] for r in results),
        "episodes": sum((Counter(r["episodes"]) for r in results), Counter()),
        "longest_cut_s": max((r["longest_cut_s"] for r in results), default=0),
        "longest_unplug_s": max((r["longest_unplug_s"] for r in results), default=0),
        "relay": sum((Counter(r["relay"]) for r in results), Counter()),
        "speed_min": min((r["achieved_speed"] for r in results), default=0),
    }
    for k in ("emitted", "logged", "held_lost", "gapped", *BROKEN):
        t[k] = sum(r[k] for r in results)
    return t


def summary(t: dict) -> list[str]:
    relay = t["relay"]
    return [
        f"chaos: {sum(t['games'].values())} whole games ("
        + ", ".join(f"{n} {g}" for g, n in sorted(t["games"].items()))
        + f"), {t['emitted']} events emitted: {t['lost']} lost ({t['held_lost']} the board"
        f" still held), {t['duplicated']} duplicated, {t['out_of_order']} out of order,"
        f" {t['changed']} changed; {t['gapped']} lost to the ring and named in a gap,"
        f" {t['wrongly_gapped']} wrongly gapped; {t['tracebacks']} tracebacks",
        f"chaos faults: {sum(t['episodes'].values())} ("
        + ", ".join(f"{n} {k}" for k, n in sorted(t["episodes"].items()))
        + f"); longest cut {t['longest_cut_s']} s and unplug {t['longest_unplug_s']} s of table"
        f" time; relay: {relay['bytes']} bytes, {relay['corrupted']} corrupted,"
        f" {relay['dropped']} dropped in pieces, {relay['doubled']} pieces doubled,"
        f" {relay['reordered']} reordered, {relay['garbage']} garbage bursts,"
        f" {relay['cut']} cut or unplugged",
        f"chaos recovery after the line cleared ({t['recoveries']} times): max"
        f" {t['recovery_max_s']:.2f} s, 95% within {t['recovery_p95_s']:.2f} s,"
        f" {t['recovery_over_3s']} over 3 s, {t['unrecovered']} not before the next fault;"
        f" slowest table {t['speed_min']}x real time"
        + ("; PROBLEMS: " + "; ".join(t["problems"]) if t["problems"] else ""),
    ]


def broken(t: dict) -> bool:
    """The link's promise not kept (timing aside: see summary)."""
    return bool(any(t[k] for k in BROKEN) or t["problems"] or t["unrecovered"])


def main(args) -> int:
    games = args.game or list(GAMES)
    todo = specs(args.games, games, args.seed)
    for s in todo:
        s.max_cut = args.max_cut
        if args.speed:
            s.speed = args.speed
    print(
        f"plateau chaos: {len(todo)} games ({', '.join(games)}), {args.jobs} at a time;"
        f" faults up to {args.max_cut:.0f} s of table time",
        file=sys.stderr,
    )
    t = run(todo, args.jobs, keep=Path(args.keep) if args.keep else None)
    for text in summary(t):
        print(text)
    if args.json:
        write_out(args.json, json.dumps(t, indent=1, default=dict) + "\n")
    late = t["recovery_over_3s"]
    return 1 if broken(t) or late else 0
