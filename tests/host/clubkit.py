"""What the club's tests share: a broker of their own (skipped with one line where mosquitto
is missing), simulated tables' logs, and a scoreboard's Club fed from the broker."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from plateau.club.broker import READER, Mosquitto, mosquitto
from plateau.club.mqtt import Broker, Feed
from plateau.club.server import Club
from plateau.games.holdem.generate import generate as generate_holdem
from plateau.games.pocha.generate import generate as generate_pocha
from plateau.games.tock.generate import generate
from plateau.games.weykick.generate import generate as generate_weykick

PASSWORD = "pw-{}"  # each user's password in the tests' broker


def need_mosquitto() -> None:
    if mosquitto() is None:
        pytest.skip(
            "mosquitto is not installed (Debian: apt-get install mosquitto); .ci/run installs it"
        )


def start_broker(folder: Path, tables: list[str]) -> Mosquitto:
    need_mosquitto()
    users = {t: PASSWORD.format(t) for t in tables}
    users[READER] = PASSWORD.format(READER)
    m = Mosquitto(folder, users)
    m.start()
    return m


def broker_for(m: Mosquitto, user: str) -> Broker:
    return Broker("127.0.0.1", m.port, user, PASSWORD.format(user))


def script(game: str, seed: int) -> str:
    """A short whole game of each kind, as a table script."""
    if game == "tock":
        return generate("classic", 2, seed).script
    if game == "pocha":
        return generate_pocha(3, 40, "short", seed).script
    if game == "weykick":
        return generate_weykick(seed, best_of=3, first_to=3).script
    return generate_holdem(3, 4, seed=seed).script


def simulate(folder: Path, game: str, seed: int, text: str | None = None) -> subprocess.Popen:
    """`plateau sim` of a generated game (or of the script `text`), logging to
    folder/<game>.jsonl (started, not waited)."""
    table = folder / f"{game}.table"
    table.write_text(text if text is not None else script(game, seed))
    return subprocess.Popen(
        [sys.executable, "-m", "plateau", "sim", str(table), "--json"]
        + ["--log", str(folder / f"{game}.jsonl"), "--db", str(folder / f"{game}.sqlite")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


class ClubFeed:
    """A scoreboard's Club fed from the broker in this process (messages applied in order on
    one thread, as the server's event loop does, which also ticks it: a state ahead of lines
    that never come heals the page)."""

    def __init__(self, broker: Broker, league=None):
        self.club = Club(league)
        self.lock = threading.Lock()
        self.messages = 0

        def on(table: str, what: str, payload: bytes, retained: bool) -> None:
            with self.lock:
                self.messages += 1
                self.club.message(table, what, payload, retained)

        self.feed = Feed(broker, on, client_id=f"test-club-{time.monotonic_ns()}")
        self.feed.start()
        self.ticking = threading.Event()

        def tick() -> None:
            while not self.ticking.wait(0.5):
                with self.lock:
                    self.club.tick()
                    self.club.keep()

        threading.Thread(target=tick, daemon=True).start()
        assert self.feed.connected.wait(10), "the scoreboard could not connect to the broker"

    def table(self, name: str):
        with self.lock:
            return self.club.tables.get(name)

    def stop(self) -> None:
        self.ticking.set()
        self.feed.stop()


def wait_for(cond, timeout: float, what: str) -> None:
    """Polls cond() until true; the timeout is generous (a loaded machine), never a figure
    the test checks."""
    t0 = time.monotonic()
    while not cond():
        if time.monotonic() - t0 > timeout:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


@contextlib.contextmanager
def serving(log: Path, table: str, db: Path, **env: str) -> Iterator[str]:
    """`plateau serve --log LOG --table T --db DB` on a free port (with `env` added: another
    copy of the host tools), its address yielded, stopped after."""
    serve = subprocess.Popen(
        [sys.executable, "-m", "plateau", "serve", "--log", str(log), "--table", table]
        + ["--port", "0", "--db", str(db)],
        stdout=subprocess.PIPE,
        text=True,
        env=dict(os.environ, **env),
    )
    try:
        assert serve.stdout is not None
        yield serve.stdout.readline().split()[-1]
    finally:
        serve.terminate()
        serve.wait(10)


@contextlib.contextmanager
def scoreboard(m: Mosquitto, folder: Path, *extra: str) -> Iterator[tuple[str, subprocess.Popen]]:
    """`plateau serve --mqtt` on the tests' broker as its user `club`, on a free port, with
    `extra` options; (its address, the process) yielded, stopped (SIGTERM) after."""
    pw = folder / "club.password"
    pw.write_text(PASSWORD.format(READER))
    serve = subprocess.Popen(
        [sys.executable, "-m", "plateau", "serve", "--mqtt", f"127.0.0.1:{m.port}"]
        + ["--password-file", str(pw), "--port", "0", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert serve.stdout is not None
        yield serve.stdout.readline().split()[-1], serve
    finally:
        if serve.poll() is None:
            serve.terminate()
            serve.wait(20)


def table_state(url: str, table: str) -> dict:
    """What the scoreboard at `url` says of a table (its /api/table), {} while it cannot."""
    try:
        with urllib.request.urlopen(f"{url}api/table/{table}") as r:
            return json.load(r)
    except OSError:
        return {}


# --- forged results: what a table's login could publish to win a game it did not ----------------


def _seq_after(evs: list[dict]) -> dict:
    """The boot and next seq of a forged event appended to evs."""
    last = max((e for e in evs if isinstance(e.get("seq"), int)), key=lambda e: e["seq"])
    return {"boot": last.get("boot"), "seq": last["seq"] + 1}


def _cut_after(evs: list[dict], i: int, *extra: dict) -> list[dict]:
    out = [dict(e) for e in evs[: i + 1]]
    for e in extra:
        out.append({**e, **_seq_after(out)})
    return out


def forgeries(game: str, evs: list[dict], rng) -> list[tuple[str, list[dict], str | None]]:
    """Seeded forgeries of a whole game's log (its events, in order) whose end it changes:
    (what, the forged events, the rule id the replay must name, or None for a forgery that
    breaks no rule but rests on the board's word: a game taken up from a set position). Each
    ends a game the table did not win by the rules."""
    out: list[tuple[str, list[dict], str | None]] = []
    kinds = [e["type"] for e in evs]
    if game == "tock":
        win = kinds.index("win")
        seat = evs[win]["seat"]
        others = {e.get("seat") for e in evs if e["type"] == "move"} - set(seat.split("+"))
        other = "R+B" if seat == "G+Y" else "G+Y" if seat == "R+B" else rng.choice(sorted(others))
        forged = [dict(e) for e in evs]
        forged[win] = {**evs[win], "seat": other}
        out.append(("win said of another seat", forged, "T19"))
        moves = [i for i, k in enumerate(kinds) if k == "move" and i < win - 40]
        i = rng.choice(moves)
        out.append(("win mid-game", _cut_after(evs, i, {"type": "win", "seat": seat}), "T19"))
        # a game "taken up" from the position just before the winning move
        from plateau.games.tock.checker import TockChecker

        c = TockChecker()
        last_move = max(i for i, k in enumerate(kinds[:win]) if k == "move")
        for e in evs[: last_move - 1]:
            c.feed(e)
        assert c.pos is not None
        boot = "f0f0f0f0"
        head = [
            {**evs[0], "boot": boot},
            {
                "boot": boot,
                "at": 0,
                "type": "snapshot",
                "game": "tock",
                "position": c.pos.to_dict(),
            },
        ]
        tail = [
            {**e, "boot": boot, "seq": n} for n, e in enumerate(evs[last_move - 1 : win + 1], 1)
        ]
        out.append(("a game taken up from a set position", head + tail, None))
    elif game == "weykick":
        end = max(i for i, k in enumerate(kinds) if k == "match_end")
        last = evs[end]
        series = dict(last["series"])
        series["A"] += 1
        ten = {
            "type": "match_end", "match": last["match"] + 1, "winner": "A",
            "score": {"A": 10, "B": 0}, "duration_ms": 60000, "variant": "football",
            "series": series, "series_over": True, "series_winner": "A",
        }  # fmt: skip
        out.append(("10-0 after the series", _cut_after(evs, len(evs) - 1, ten), "W4"))
        goals = [
            {"type": "goal", "goal": "B", "side": "A", "score": {"A": n, "B": 0},
             "match": last["match"] + 1, "match_ms": 1000 * n}
            for n in range(1, 11)
        ]  # fmt: skip
        out.append(("ten goals after the series", _cut_after(evs, len(evs) - 1, *goals, ten), "W4"))
        forged = [dict(e) for e in evs]
        w = last["winner"]
        forged[end] = {**last, "winner": "B" if w == "A" else "A"}
        out.append(("the last match's winner changed", forged, "W4"))
        mid = [
            i for i, e in enumerate(evs) if e["type"] == "goal" and max(e["score"].values()) == 1
        ]
        i = rng.choice(mid)
        score = evs[i]["score"]
        lead = "A" if score["A"] > score["B"] else "B"
        early = {
            "type": "match_end", "match": evs[i]["match"], "winner": lead, "score": dict(score),
            "duration_ms": evs[i]["match_ms"], "variant": "football",
        }  # fmt: skip
        out.append(("a match ended before its target", _cut_after(evs, i, early), "W4"))
    elif game == "pocha":
        end = kinds.index("match_end")
        ranking = [list(r) for r in evs[end]["ranking"]]
        forged = [dict(e) for e in evs]
        top, second = ranking[0], ranking[1]
        forged[end] = {
            **evs[end],
            "ranking": [[second[0], top[1]] + second[2:], [top[0], second[1]] + top[2:]]
            + ranking[2:],
        }
        out.append(("the final places swapped", forged, "totals"))
        hands = [i for i, k in enumerate(kinds) if k == "hand_end"][:-2]
        i = rng.choice(hands)
        totals = evs[i]["totals"]
        order = sorted(totals, key=lambda s: -totals[s])
        early = {"type": "match_end", "ranking": [[s, totals[s]] for s in order]}
        if len({totals[s] for s in order[:2]}) == 2:
            out.append(("the match ended before its schedule", _cut_after(evs, i, early), "K3"))
    elif game == "holdem":
        ends = [i for i, k in enumerate(kinds) if k == "hand_end"]
        end = next(i for i in ends if sum(1 for n in evs[i]["stacks"].values() if n > 0) == 1)
        stacks = evs[end]["stacks"]
        winner = next(s for s, n in stacks.items() if n > 0)
        loser = rng.choice([s for s in stacks if s != winner])
        forged = [dict(e) for e in evs[: end + 1]]
        forged[end] = {
            **evs[end],
            "stacks": {s: (stacks[winner] if s == loser else 0) for s in stacks},
        }
        out.append(("every chip given to a seat that lost", forged, "H6"))
    return out
