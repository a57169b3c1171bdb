"""The club's pages as a person sees them (issue 32), in Debian's headless chromium: every
game's page at its start, middle and end, on a 360 px phone and a 1280 px screen: the
players' names (never a bare seat number once named), each game's end in words (Tock's and
Weykick's winner, Pocha's turn and who played which card, Hold'em's pots won and its street),
no "[object", "undefined" or "NaN", nothing wider than the screen; the club page's cards in
words; the TV mode cycling the tables. Screenshots land in build/club/pages/.

A scoreboard in this process (its Club fed line by line from simulated games' logs, its
server on a free port): what a page draws does not depend on how the lines came."""

from __future__ import annotations

import asyncio
import re
import threading
import time

import pytest
from clubkit import simulate, wait_for
from test_club_browser import browser

from plateau import ROOT
from plateau.club.league import League
from plateau.club.server import Club, Server
from plateau.logger import read_log

LONG = "Maximiliana Fernández-Oyelaran"  # a name that must wrap on a phone, not widen the page
NAMES = {
    "tock": {"R+B": "Ana", "G+Y": LONG},
    "weykick": {"A": "Ana", "B": LONG},
    "pocha": {"1": "Ana", "2": LONG, "3": "Dmitri"},
    "holdem": {"1": "Ana", "2": LONG, "3": "Dmitri"},
}
WIDTHS = (360, 1280)
SHOTS = ROOT / "build" / "club" / "pages"
BAD_WORDS = ("[object", "undefined", "NaN", "null")


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("pages")
    procs = {g: simulate(folder, g, seed=8) for g in NAMES}
    for g, p in procs.items():
        assert p.wait(600) == 0, (g, p.stderr.read().decode() if p.stderr else "")
    return {g: [ev for _, ev, _ in read_log(folder / f"{g}.jsonl") if ev] for g in NAMES}


class Scoreboard:
    """plateau serve's Club and Server, on a free port, in a thread of their own."""

    def __init__(self, db):
        self.league = League(db)
        self.club = Club(self.league)
        self.server = Server(self.club, "page-test-token-123")
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.fed: dict[str, int] = {}
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.ready.wait(30)

    def _run(self):
        from aiohttp import web

        asyncio.set_event_loop(self.loop)

        async def start():
            self.runner = web.AppRunner(self.server.app(), access_log=None)
            await self.runner.setup()
            site = web.TCPSite(self.runner, "127.0.0.1", 0)
            await site.start()
            self.url = f"http://127.0.0.1:{self.runner.addresses[0][1]}/"
            self.ready.set()
            while True:
                for t in self.fed:  # each table's bridge says it is there (mqtt.HEARTBEAT_S)
                    self.club.heard[t] = time.time()
                self.server.tick()
                await asyncio.sleep(0.05)

        self.loop.run_until_complete(start())

    def feed(self, table: str, evs: list[dict], upto: int) -> None:
        """The table's lines up to `upto`, taken on the server's loop (as from the broker)."""
        done = threading.Event()

        def take():
            for n in range(self.fed.get(table, 0), upto):
                self.club.event(table, "e1", n + 1, n, evs[n])
            self.fed[table] = max(upto, self.fed.get(table, 0))
            self.club.presence[table] = True
            self.club.heard[table] = time.time()
            self.club._changed(table)
            done.set()

        self.loop.call_soon_threadsafe(take)
        assert done.wait(60)


def width(driver, px: int) -> None:
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": px, "height": 900, "deviceScaleFactor": 1, "mobile": px < 600},
    )


def seen(driver) -> tuple[str, int, int]:
    """(the page's text, its width, the screen's)."""
    return driver.execute_script(
        "return [document.body.innerText, document.documentElement.scrollWidth, window.innerWidth]"
    )


def test_every_page_reads_at_a_glance_at_360_and_1280(logs, tmp_path):
    driver = browser()
    board = Scoreboard(tmp_path / "club.sqlite")
    SHOTS.mkdir(parents=True, exist_ok=True)
    checked = 0
    try:
        for g, evs in logs.items():
            board.feed(g, evs, 1)
            board.league.seat(g, NAMES[g], "test")
        for stage, part in (("start", 0.06), ("middle", 0.5), ("end", 1.0)):
            for g, evs in logs.items():
                upto = max(2, int(len(evs) * part))
                board.feed(g, evs, upto)
                for px in WIDTHS:
                    width(driver, px)
                    driver.get(f"{board.url}table/{g}")
                    wait_for(
                        lambda u=upto: (
                            driver.execute_script("return plateau.state ? plateau.state.line : 0")
                            == u
                        ),
                        30,
                        f"{g}'s page at line {upto}",
                    )
                    time.sleep(0.2)  # the layout settled
                    text, wide, screen = seen(driver)
                    driver.save_screenshot(str(SHOTS / f"{g}-{stage}-{px}.png"))
                    where = f"{g} {stage} at {px} px"
                    for word in BAD_WORDS:
                        assert word not in text, (where, word, text)
                    assert "Not live" not in text, (where, text)  # heard from 5 s ago at most
                    assert wide <= screen, (where, wide, screen)
                    assert "Ana" in text, (where, text)
                    bare = re.search(r"(?<!\()\b(seat \d|side [AB])\b", text)  # not "Ana (side A)"
                    assert not bare, (where, bare, text)
                    look(g, stage, evs[:upto], text, where)
                    checked += 1
        # the club page: each table's game in words, with names
        for px in WIDTHS:
            width(driver, px)
            driver.get(board.url)
            wait_for(lambda: len(driver.find_elements("css selector", ".tablecard")) == 4, 30, "")
            time.sleep(0.3)
            text, wide, screen = seen(driver)
            driver.save_screenshot(str(SHOTS / f"club-{px}.png"))
            assert wide <= screen, (px, wide, screen)
            for word in BAD_WORDS:
                assert word not in text, (word, text)
            said = driver.execute_script(
                "return Object.fromEntries([...document.querySelectorAll('.tablecard')]"
                ".map(c => [c.dataset.table, c.querySelector('.said').textContent]))"
            )
            assert said["weykick"].startswith("Ana ") and LONG in said["weykick"], said
            assert "won" in said["tock"] and "wins" in said["pocha"], said
            assert "won" in said["holdem"] or "every chip" in said["holdem"], said
        # the operator's page alone has the token field
        for path in ("", "table/tock", "results", "league/tock", "tv"):
            driver.get(board.url + path)
            time.sleep(0.3)
            assert not driver.find_elements("css selector", "input[type=password]"), path
        driver.get(board.url + "operator")
        wait_for(lambda: driver.find_elements("css selector", "#token"), 10, "the token field")
        # TV mode: every table in turn
        width(driver, 1280)
        driver.get(board.url + "tv?each=3")
        shown = set()
        deadline = time.time() + 40
        while len(shown) < 4 and time.time() < deadline:
            t, title = driver.execute_script(
                "return [plateau.tv ? plateau.tv.table : null,"
                " (document.getElementById('title') || {}).textContent || '']"
            )
            if t:
                shown.add(t)
                assert title.startswith(t), (t, title)
            time.sleep(0.5)
        driver.save_screenshot(str(SHOTS / "tv.png"))
        assert shown == set(NAMES), shown
    finally:
        driver.quit()
    assert checked == 4 * 3 * len(WIDTHS)


def look(game: str, stage: str, evs: list[dict], text: str, where: str) -> None:
    """What a person looks for on each game's page at that point of the game."""
    last = evs[-1]
    if game == "tock" and stage == "end":
        assert f"Winner: {LONG}" in text or "Winner: Ana" in text, (where, text)
    if game == "weykick":
        assert "ball seen ?" not in text, where
        if stage == "end":
            assert "Match won by" in text, (where, text)
    if game == "pocha":
        if stage == "end":
            assert "Winner:" in text, (where, text)
        elif any(e["type"] == "play" for e in evs) and last["type"] in ("card", "bid", "play"):
            assert "To play:" in text or "To bid:" in text, (where, last, text)
        if any(e["type"] == "card" and e.get("seat") for e in evs) and stage != "start":
            assert "On the table:" in text or "Last trick" in text, (where, text)
    if game == "holdem":
        starts = [n for n, e in enumerate(evs) if e["type"] == "hand_start"]
        hand = evs[starts[-1] :] if starts else []
        boards = [e["board"] for e in hand if e["type"] == "card" and "board" in e]
        hand_over = [e["type"] for e in evs if e["type"] in ("hand_start", "hand_end")][-1]
        if boards and hand_over == "hand_start":
            street = {3: "flop", 4: "turn", 5: "river"}[len(boards[-1])]
            assert street in text, (where, street, text)
        if hand_over == "hand_end":
            assert " won " in text and "Pot: 0" not in text, (where, text)
