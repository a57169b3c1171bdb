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


def simulate(folder: Path, game: str, seed: int) -> subprocess.Popen:
    """`plateau sim` of a generated game, logging to folder/<game>.jsonl (started, not waited)."""
    table = folder / f"{game}.table"
    table.write_text(script(game, seed))
    return subprocess.Popen(
        [sys.executable, "-m", "plateau", "sim", str(table), "--json"]
        + ["--log", str(folder / f"{game}.jsonl"), "--db", str(folder / f"{game}.sqlite")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


class ClubFeed:
    """A scoreboard's Club fed from the broker in this process (messages applied in order on
    one thread, as the server's event loop does)."""

    def __init__(self, broker: Broker, league=None):
        self.club = Club(league)
        self.lock = threading.Lock()
        self.messages = 0

        def on(table: str, what: str, payload: bytes) -> None:
            with self.lock:
                self.messages += 1
                self.club.message(table, what, payload)

        self.feed = Feed(broker, on, client_id=f"test-club-{time.monotonic_ns()}")
        self.feed.start()
        assert self.feed.connected.wait(10), "the scoreboard could not connect to the broker"

    def table(self, name: str):
        with self.lock:
            return self.club.tables.get(name)

    def stop(self) -> None:
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


def table_state(url: str, table: str) -> dict:
    """What the scoreboard at `url` says of a table (its /api/table), {} while it cannot."""
    try:
        with urllib.request.urlopen(f"{url}api/table/{table}") as r:
            return json.load(r)
    except OSError:
        return {}
