"""The club end to end: simulated tables of all four games (`plateau sim`) logging at once,
each published by `plateau bridge` to a real Mosquitto, `plateau serve` fed from it, and every
table's page open in Debian's headless chromium. The broker is stopped and started again in
the middle of the Tock game. At the end each page shows what its whole log says (pawn squares,
scores, cards, stacks, totals), each finished game is recorded once, a table that sends
markup gets it shown as text, and the event-to-DOM latency is printed (from the moment the
line was on disk in the table's log to the page's DOM holding it)."""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from collections import Counter
from pathlib import Path

import pytest
from clubkit import PASSWORD, simulate, start_broker, wait_for
from conftest import REPORT

from plateau import ROOT
from plateau.club.broker import READER
from plateau.club.league import League
from plateau.club.state import fold_log
from plateau.index import Index
from plateau.logger import Logger

GAMES = ("tock", "holdem", "weykick", "pocha")
NAMES = {"R+B": "<i>Ann</i>", "G+Y": "<b>Bob</b>"}  # Tock for 2: each plays a diagonal pair
HOSTILE = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>'


def browser():
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not (chromium and driver):
        pytest.skip(
            "chromium or chromedriver missing (Debian: apt-get install chromium chromium-driver)"
        )
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    o = webdriver.ChromeOptions()
    o.binary_location = chromium
    for a in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1000,1200",
        # every page is watched at once, in tabs: none is put to sleep
        "--disable-background-timer-throttling",
        "--disable-renderer-backgrounding",
        "--disable-backgrounding-occluded-windows",
    ):
        o.add_argument(a)
    return webdriver.Chrome(service=Service(driver), options=o)


class Seen:
    """When each line of each log was first on disk (polled every 2 ms: a latency measured
    from it is at most that much short)."""

    def __init__(self, logs: dict[str, Path]):
        self.logs = logs
        self.at: dict[tuple[str, int], float] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        files: dict[str, tuple] = {}
        while not self.stop.is_set():
            for t, path in self.logs.items():
                if t not in files:
                    if not path.exists():
                        continue
                    files[t] = (open(path, "rb"), [0, b""])  # noqa: SIM115
                f, (state) = files[t]
                chunk = f.read()
                if chunk:
                    now = time.time() * 1000
                    buf = state[1] + chunk
                    *whole, state[1] = buf.split(b"\n")
                    for _ in whole:
                        state[0] += 1
                        self.at[(t, state[0])] = now
            time.sleep(0.002)
        for f, _ in files.values():
            f.close()


def write_hostile(path: Path) -> None:
    """A table whose board says markup: in the card, the problem, the fix."""
    log = Logger(path)
    pos = {
        "rules": "classic",
        "players": 2,
        "turn": "R",
        "pawns": {c: ["camp"] * 4 for c in "RGBY"},  # 2 players play all four colours
        "waiting": [],
    }
    for ev in (
        {"boot": "e1", "at": 0, "type": "hello", "game": "tock", "table": HOSTILE},
        {"boot": "e1", "at": 0, "type": "snapshot", "game": "tock", "position": pos},
        {"boot": "e1", "seq": 1, "type": "card", "card": HOSTILE, "seat": "R"},
        {"boot": "e1", "seq": 2, "type": "illegal", "what": "camp", "why": HOSTILE, "fix": HOSTILE},
    ):
        log.write(ev)
    log.close()


def page(driver, handle: str, script: str):
    driver.switch_to.window(handle)
    return driver.execute_script(script)


def test_four_games_live_in_a_browser_through_a_broker(tmp_path):
    tables = [*GAMES, "hostile"]
    m = start_broker(tmp_path / "broker", tables)
    driver = browser()
    procs: list[subprocess.Popen] = []
    shots = ROOT / "build" / "club"
    shots.mkdir(parents=True, exist_ok=True)
    logs = {t: tmp_path / f"{t}.jsonl" for t in tables}
    seen = Seen(logs)
    try:
        pw = tmp_path / "club.password"
        pw.write_text(PASSWORD.format(READER))
        token = tmp_path / "token"
        token.write_text("operator-token-for-the-test")
        token.chmod(0o600)  # a token others may read is refused
        blinds = tmp_path / "blinds.txt"  # a first level of 3 s: the second comes mid-test
        blinds.write_text("1/2 0.05\n2/4 60\n")
        serve = subprocess.Popen(
            [sys.executable, "-m", "plateau", "serve", "--mqtt", f"127.0.0.1:{m.port}"]
            + ["--password-file", str(pw), "--port", "0", "--db", str(tmp_path / "club.sqlite")]
            + ["--token-file", str(token), "--blinds", str(blinds)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        procs.append(serve)
        assert serve.stdout is not None
        url = serve.stdout.readline().split()[-1]
        assert url.startswith("http://127.0.0.1:"), url
        tabs = {}
        driver.get(url)
        tabs["club"] = driver.current_window_handle
        for t in tables:
            driver.switch_to.new_window("tab")
            driver.get(f"{url}table/{t}")
            tabs[t] = driver.current_window_handle
        # each table's bridge, connected before its table starts (logs made empty for them)
        write_hostile(logs["hostile"])
        for t in tables:
            logs[t].touch()
            pwf = tmp_path / f"{t}.password"
            pwf.write_text(PASSWORD.format(t))
            procs.append(
                subprocess.Popen(
                    [sys.executable, "-m", "plateau", "bridge", str(logs[t]), "--table", t]
                    + ["--mqtt", f"127.0.0.1:{m.port}", "--password-file", str(pwf)],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )

        def listed() -> int:
            with urllib.request.urlopen(f"{url}api/club") as r:
                return len(json.load(r)["tables"])

        wait_for(lambda: listed() == len(tables), 60, "every bridge at the scoreboard")
        # the operator names Tock's players, once its table is known (a name that is markup
        # stays text)
        req = urllib.request.Request(
            f"{url}api/table/tock/players",
            data=json.dumps({"seats": NAMES}).encode(),
            headers={"Authorization": "Bearer operator-token-for-the-test"},
            method="POST",
        )
        assert urllib.request.urlopen(req).status == 200
        sims = [simulate(tmp_path, g, seed=8 + i) for i, g in enumerate(GAMES)]
        procs += sims
        # the broker goes away in the middle of the Tock game, and comes back
        wait_for(lambda: seen.at.get(("tock", 300)), 120, "300 lines of the Tock game")
        stopped = time.time() * 1000
        m.stop()
        time.sleep(1.0)
        m.start()
        restarted = time.time() * 1000
        for p in sims:
            assert p.wait(300) == 0
        whole = {t: fold_log(logs[t], t) for t in tables}

        def shown_line(t: str):
            return page(driver, tabs[t], "return plateau.state ? plateau.state.line : 0")

        for t in tables:
            wait_for(lambda t=t: shown_line(t) == whole[t].line, 60, f"{t}'s page at its last line")
        for t in tables:
            driver.switch_to.window(tabs[t])
            driver.save_screenshot(str(shots / f"{t}.png"))
        driver.switch_to.window(tabs["club"])
        driver.save_screenshot(str(shots / "club.png"))
        driver.switch_to.window(tabs["tock"])
        driver.set_window_size(390, 844)  # a phone
        time.sleep(0.5)
        driver.save_screenshot(str(shots / "tock-phone.png"))
        width = page(driver, tabs["tock"], "return document.documentElement.scrollWidth")
        assert width <= 400  # one column: nothing to scroll sideways

        # what each page shows is what its log says
        v = whole["tock"].view
        pawns = page(
            driver,
            tabs["tock"],
            "return [...document.querySelectorAll('#tock-board .pawn')]"
            ".map(p => p.dataset.colour + ':' + p.dataset.square)",
        )
        want = Counter(f"{c}:{s}" for c, sq in v["position"]["pawns"].items() for s in sq)
        assert Counter(pawns) == want
        assert page(driver, tabs["tock"], "return document.getElementById('winner').textContent")
        text, marked = page(
            driver,
            tabs["tock"],
            "return [document.getElementById('game').textContent,"
            " document.querySelectorAll('#game i, #game b, #game u').length]",
        )
        assert NAMES[v["winner"]] in text and marked == 0  # a name that is markup stays text

        v = whole["holdem"].view
        board = page(
            driver,
            tabs["holdem"],
            "return [...document.querySelectorAll('#board .cardface')].map(c => c.dataset.card)",
        )
        assert board == v["board"]
        stacks = page(
            driver,
            tabs["holdem"],
            "return Object.fromEntries([...document.querySelectorAll('#stacks tr[data-seat]')]"
            ".map(r => [r.dataset.seat, r.querySelector('.stack').textContent]))",
        )
        assert stacks == {s: str(n) for s, n in v["stacks"].items()}
        pot = page(driver, tabs["holdem"], "return document.getElementById('pot').textContent")
        if v.get("hand_over"):  # the pots are paid: who won what, not "Pot: 0"
            won = [p for p in v["pots"] if p["winners"]]
            assert all(f"won {p['amount']}" in pot for p in won) and "Pot" not in pot, pot
        else:
            assert pot == f"Pot: {v['pot']}"
        clock = page(
            driver, tabs["holdem"], "return document.getElementById('blind-clock').textContent"
        )
        assert "Level 2: 2/4" in clock and "raise the blinds to 2/4" in clock  # it plays 1/2

        v = whole["weykick"].view
        score = page(
            driver,
            tabs["weykick"],
            "return [document.getElementById('score-A').textContent,"
            " document.getElementById('score-B').textContent]",
        )
        assert score == [str(v["score"]["A"]), str(v["score"]["B"])]

        v = whole["pocha"].view
        totals = page(
            driver,
            tabs["pocha"],
            "return Object.fromEntries([...document.querySelectorAll('#bids tr[data-seat]')]"
            ".map(r => [r.dataset.seat, r.querySelector('.total').textContent]))",
        )
        assert totals == {s: str(n) for s, n in v["totals"].items()}

        # markup from a board is text on the page
        hostile = page(
            driver,
            tabs["hostile"],
            "return [window.pwned || 0,"
            " document.querySelectorAll('#game img, #game script').length,"
            " document.getElementById('problem').textContent]",
        )
        assert hostile[0] == 0 and hostile[1] == 0
        assert HOSTILE in hostile[2]

        # every finished game recorded once in the scoreboard's index; the tables' own
        # indexes have every game of their logs
        results = League(tmp_path / "club.sqlite").results()
        assert Counter(r["table"] for r in results) == Counter(
            {t: len(s.finished) for t, s in whole.items() if s.finished}
        )
        tock_games = Index(tmp_path / "tock.sqlite", logs["tock"]).games()
        assert len(tock_games) == 1 and tock_games[0][5] == whole["tock"].view["winner"]

        # latency: from the line on disk to the DOM holding it; lines that waited for the
        # broker to come back are counted apart
        lat, held = [], []
        for t in GAMES:
            first = {}  # a page drawn again with the same line (presence, names) is no update
            for a in page(driver, tabs[t], "return plateau.applied"):
                first.setdefault(a["line"], a)
            for a in first.values():
                at = seen.at.get((t, a["line"]))
                if at is not None and (at < stopped or at > restarted + 5000):
                    lat.append(a["t"] - at)
            # the last line logged while the broker was down: when did the page have it?
            down = [n for (tt, n), at in seen.at.items() if tt == t and stopped <= at <= restarted]
            if down:
                shown = [a["t"] for a in first.values() if a["line"] >= max(down)]
                held.append(min(shown) - restarted)
        lat.sort()
        assert lat  # (held may be empty: a page update can hold only lines after the restart)
        p50 = statistics.median(lat)
        p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
        lines = sum(s.line for s in whole.values())
        REPORT.append(
            f"club in chromium: 4 games + a hostile table through mosquitto, {lines} lines, pages"
            f" equal to the logs; event-to-DOM latency over {len(lat)} page updates: p50"
            f" {p50:.0f} ms, p99 {p99:.0f} ms, max {lat[-1]:.0f} ms (loaded machine); broker"
            f" stopped 1 s mid-game: what was logged meanwhile on the page"
            f" {max([0, *held]) / 1000:.1f} s after it came back; screenshots in build/club/"
        )
    finally:
        seen.stop.set()
        driver.quit()
        for p in procs:
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()
        m.stop()
        if os.environ.get("PLATEAU_KEEP_CLUB"):
            print(tmp_path)
