"""The club at scale: N tables (default 50) each logging EV_S events a second (default 10) from
real simulated games, each published by its own bridge into one Mosquitto, one `plateau serve`
fed from it, pages watching it over WebSocket (the club page, and a table page for every
fifth table). Measures and prints; asserts nothing about time:
  lost        lines logged that the scoreboard never folded in (must be 0)
  duplicated  lines the scoreboard folded in twice (0: repeats are dropped by line and seq);
              and how many QoS-1 deliveries came twice before that (a subscriber counts them)
  latency     from a line written to the table's log to a page's WebSocket message holding
              it, p50/p99/max (the scoreboard coalesces: a page gets the newest line)
  CPU         the broker's and the scoreboard's, in seconds and % of one core
Run: `make club-bench` (python tests/bench/clubbench.py [--tables N] [--seconds S] [--rate R])."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "host_tools"))
sys.path.insert(0, str(HERE.parent / "host"))

from plateau.club.broker import READER, Mosquitto  # noqa: E402
from plateau.club.mqtt import Bridge, Broker, Feed, open_envelope  # noqa: E402
from plateau.logger import Logger, read_log  # noqa: E402

GAMES = ("holdem", "pocha", "weykick")


def record_games(folder: Path) -> dict[str, list[dict]]:
    """One whole game of each quick kind through the simulated firmware: the events the
    benchmark's tables log (each table replays one, from a point of its own)."""
    from clubkit import simulate

    procs = {g: simulate(folder, g, seed=31) for g in GAMES}
    out = {}
    for g, p in procs.items():
        if p.wait(300):
            raise SystemExit(f"club bench: the {g} simulation failed")
        out[g] = [ev for _, ev, _ in read_log(folder / f"{g}.jsonl") if ev is not None]
    return out


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Tables(threading.Thread):
    """Writes every table's log at `rate` events a second, as `plateau log` would; keeps when
    each line was written."""

    def __init__(self, folder: Path, n: int, rate: float, seconds: float, games: dict):
        super().__init__(daemon=True)
        rng = random.Random(1)
        self.names = [f"t{i:02d}" for i in range(n)]
        self.logs = {t: Logger(folder / f"{t}.jsonl") for t in self.names}
        kinds = [GAMES[i % len(GAMES)] for i in range(n)]
        self.streams = {t: games[k] for t, k in zip(self.names, kinds)}
        self.pos = {t: rng.randrange(len(self.streams[t])) for t in self.names}
        self.gap = 1.0 / rate
        self.next = {t: time.monotonic() + rng.random() * self.gap for t in self.names}
        self.seconds = seconds
        self.written: dict[tuple[str, int], float] = {}
        self.lines = Counter()
        self.boots = Counter()

    def run(self) -> None:
        end = time.monotonic() + self.seconds
        while True:
            now = time.monotonic()
            if now >= end:
                break
            for t in self.names:
                while self.next[t] <= now:
                    self._write(t)
                    self.next[t] += self.gap
            time.sleep(0.002)
        for log in self.logs.values():
            log.close()

    def _write(self, t: str) -> None:
        stream = self.streams[t]
        i = self.pos[t] % len(stream)
        if i == 0:
            self.boots[t] += 1  # the game again, as a new boot (its numbers start again)
        ev = dict(stream[i])
        if ev.get("boot"):
            ev["boot"] = f"b{self.boots[t]:x}{t}"
        self.pos[t] += 1
        self.logs[t].write(ev)
        self.lines[t] += 1
        self.written[(t, self.lines[t])] = time.time()


def pages(url: str, watch: list[str], got: list, stop: threading.Event) -> threading.Thread:
    """WebSocket pages (the club page and some tables' pages); each message's newest line and
    when it came."""
    import aiohttp

    async def one(session, query: str) -> None:
        while not stop.is_set():
            try:
                async with session.ws_connect(f"{url}ws{query}") as ws:
                    async for msg in ws:
                        now = time.time()
                        d = json.loads(msg.data)
                        if d["type"] == "summary":
                            got.append((d["table"]["table"], d["table"]["line"], now))
                        elif d["type"] == "state":
                            got.append((d["state"]["table"], d["state"]["line"], now))
                        if stop.is_set():
                            return
            except aiohttp.ClientError:
                await asyncio.sleep(0.2)

    async def main() -> None:
        async with aiohttp.ClientSession() as session:
            tasks = [asyncio.create_task(one(session, ""))]
            tasks += [asyncio.create_task(one(session, f"?table={t}")) for t in watch]
            while not stop.is_set():
                await asyncio.sleep(0.1)
            for task in tasks:
                task.cancel()

    th = threading.Thread(target=lambda: asyncio.run(main()), daemon=True)
    th.start()
    return th


def machine_busy() -> tuple[int, int] | None:
    """(busy, total) jiffies of every core so far (/proc/stat), None where there is none."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle and iowait
    return sum(fields) - idle, sum(fields)


def bench(tables: int = 50, rate: float = 10.0, seconds: float = 60.0, say=print) -> dict:
    work = Path(tempfile.mkdtemp(prefix="plateau-club-bench-"))
    say(f"club bench: {tables} tables x {rate:g} events/s for {seconds:g} s (work in {work})")
    games = record_games(work)
    names = [f"t{i:02d}" for i in range(tables)]
    users = {t: f"pw-{t}" for t in names}
    users[READER] = "pw-club"
    broker = Mosquitto(work / "broker", users)
    broker.start()
    pw = work / "club.password"
    pw.write_text("pw-club")
    serve = subprocess.Popen(
        [sys.executable, "-m", "plateau", "serve", "--mqtt", f"127.0.0.1:{broker.port}"]
        + ["--password-file", str(pw), "--port", "0", "--db", str(work / "club.sqlite")],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert serve.stdout is not None
    url = serve.stdout.readline().split()[-1]
    deliveries: Counter = Counter()

    def count(table: str, what: str, payload: bytes, retained: bool) -> None:
        if what == "events":
            deliveries[(table, open_envelope(payload)[1])] += 1

    # a session of its own: the same name as the scoreboard's (its default) would take the
    # scoreboard's session over, each connection kicking the other off (and the lines to it)
    raw = Feed(Broker("127.0.0.1", broker.port, READER, "pw-club"), count, client_id="bench-raw")
    raw.start()
    raw.connected.wait(10)
    got: list = []
    stop = threading.Event()
    watcher = pages(url, names[::5], got, stop)
    writer = Tables(work, tables, rate, seconds, games)
    bridges = [
        Bridge(work / f"{t}.jsonl", t, Broker("127.0.0.1", broker.port, t, users[t])) for t in names
    ]
    threads = [threading.Thread(target=b.run, daemon=True) for b in bridges]
    cpu0 = {"broker": cpu_s(broker.pid or 0), "serve": cpu_s(serve.pid)}
    load0, busy0, own0 = os.getloadavg(), machine_busy(), time.process_time()
    t0 = time.monotonic()
    for th in threads:
        th.start()
    writer.start()
    writer.join()
    # the last lines through, then what the scoreboard holds
    import urllib.request

    def club() -> dict:
        with urllib.request.urlopen(f"{url}api/club") as r:
            return {t["table"]: t for t in json.load(r)["tables"]}

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        held = club()
        if all(held.get(t, {}).get("line") == writer.lines[t] for t in names):
            break
        time.sleep(0.2)
    wall = time.monotonic() - t0
    load1, busy1, own = os.getloadavg(), machine_busy(), time.process_time() - own0
    cpu = {
        k: cpu_s(pid) - cpu0[k] for k, pid in (("broker", broker.pid or 0), ("serve", serve.pid))
    }
    time.sleep(0.5)
    stop.set()
    for b in bridges:
        b.stop.set()
    for th in threads:
        th.join(10)
    raw.stop()
    serve.terminate()
    serve.wait(10)
    broker.stop()
    watcher.join(5)
    shutil.rmtree(work, ignore_errors=True)

    logged = sum(writer.lines.values())
    folded = sum(held.get(t, {}).get("events", 0) for t in names)
    lost = sum(max(0, writer.lines[t] - held.get(t, {}).get("line", 0)) for t in names)
    lat = sorted(
        (now - writer.written[(t, line)]) * 1000
        for t, line, now in got
        if (t, line) in writer.written
    )
    twice = sum(1 for n in deliveries.values() if n > 1)
    r = {
        "tables": tables,
        "rate": rate,
        "seconds": seconds,
        "logged": logged,
        "lost": lost,
        "duplicated": folded - (logged - lost),
        "delivered_twice": twice,
        "raw_missing": logged - len(deliveries),
        "page_messages": len(lat),
        "p50_ms": statistics.median(lat) if lat else None,
        "p99_ms": lat[min(len(lat) - 1, int(len(lat) * 0.99))] if lat else None,
        "max_ms": lat[-1] if lat else None,
        "broker_cpu_s": cpu["broker"],
        "serve_cpu_s": cpu["serve"],
        "wall_s": wall,
        "load": [load0[0], load1[0]],
        "cores": os.cpu_count(),
        "machine_busy": (busy1[0] - busy0[0]) / max(1, busy1[1] - busy0[1])
        if busy0 and busy1
        else None,
        "bench_cpu_s": own,
    }
    say(
        f"club bench: {logged} lines logged by {tables} tables, lost {lost}, duplicated"
        f" {r['duplicated']} (QoS-1 deliveries that came twice before dedup: {twice})"
    )
    if lat:
        say(
            f"club bench: line written -> page message: p50 {r['p50_ms']:.0f} ms, p99"
            f" {r['p99_ms']:.0f} ms, max {r['max_ms']:.0f} ms over {len(lat)} page messages"
        )
    say(
        f"club bench: CPU over {wall:.1f} s: broker {cpu['broker']:.1f} s"
        f" ({100 * cpu['broker'] / wall:.0f}% of a core), scoreboard {cpu['serve']:.1f} s"
        f" ({100 * cpu['serve'] / wall:.0f}%), the bench's own process (the bridges and"
        f" tables) {own:.1f} s ({100 * own / wall:.0f}%)"
    )
    busy = r["machine_busy"]
    say(
        f"club bench: the machine during the run: {r['cores']} cores,"
        + (f" {100 * busy:.0f}% of all of them busy," if busy is not None else "")
        + f" load average (1 min) {load0[0]:.1f} at the start, {load1[0]:.1f} at the end"
        " (others' work included: the figures above are this machine's, not a quiet one's)"
    )
    return r


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--rate", type=float, default=10.0, help="events a second per table")
    p.add_argument("--seconds", type=float, default=60.0)
    a = p.parse_args()
    r = bench(a.tables, a.rate, a.seconds)
    return 1 if r["lost"] or r["duplicated"] else 0


if __name__ == "__main__":
    sys.exit(main())
