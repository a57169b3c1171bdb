"""The club's pages as a person sees them (issue 32), in Debian's headless chromium: every
game's page at its start, middle and end, on a 360 px phone and a 1280 px screen: the
players' names (never a bare seat number once named), each game's end in words (Tock's and
Weykick's winner, Pocha's turn and who played which card, Hold'em's pots won and its street),
no "[object", "undefined" or "NaN", nothing wider than the screen; the club page's cards in
words; the TV mode cycling the tables. Each of those moments again through its link
(/table/<t>/at/<log>/<line>): the same drawing as the live page at that line, beside the
game's move list; and the league, results and player pages once the games are over.
Screenshots land in build/club/pages/.

A scoreboard in this process (its Club fed line by line from simulated games' logs, its
server on a free port): what a page draws does not depend on how the lines came."""

from __future__ import annotations

import asyncio
import json
import random
import re
import threading
import time

import pytest
from clubkit import simulate, wait_for
from test_club_browser import browser

from plateau import ROOT
from plateau.club.league import League
from plateau.club.server import Club, Server
from plateau.club.state import TableState
from plateau.games.holdem.generate import generate as generate_holdem
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
    # Hold'em played until one seat has every chip: its end, a winner and a league result
    whole = generate_holdem(3, 60, seed=8, stacks=40, to_the_end=True).script
    procs = {g: simulate(folder, g, seed=8, text=whole if g == "holdem" else None) for g in NAMES}
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


def person(driver, px: int, where: str) -> str:
    """What every page must pass: no '[object', 'undefined', 'NaN' or 'null', nothing wider
    than the screen (the width asked for: a phone's browser widens its window to a page too
    wide, so window.innerWidth would hide it). The page's text."""
    text, wide, _ = seen(driver)
    for word in BAD_WORDS:
        assert word not in text, (where, word, text)
    assert wide <= px, (where, wide, px)
    return text


# the game as drawn, without the live page's running match clock
DRAWN = (
    "const d = document.getElementById('drawing'); if (!d) return null;"
    " const c = d.cloneNode(true); c.querySelectorAll('#clock').forEach((e) => e.remove());"
    " return c.textContent"
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
                    driver.save_screenshot(str(SHOTS / f"{g}-{stage}-{px}.png"))
                    where = f"{g} {stage} at {px} px"
                    text = person(driver, px, where)
                    assert "Not live" not in text, (where, text)  # heard from 5 s ago at most
                    assert "Ana" in text, (where, text)
                    bare = re.search(r"(?<!\()\b(seat \d|side [AB])\b", text)  # not "Ana (side A)"
                    assert not bare, (where, bare, text)
                    look(g, stage, evs[:upto], text, where)
                    live = driver.execute_script(DRAWN)
                    # the same moment through its link: the same drawing, and the moves
                    moment(driver, board.url, g, upto, px, f"{where}, its link")
                    assert driver.execute_script(DRAWN) == live, (where, live)
                    look(g, stage, evs[:upto], driver.execute_script(DRAWN), f"{where}, its link")
                    checked += 1
        # the club page: each table's game in words, with names
        for px in WIDTHS:
            width(driver, px)
            driver.get(board.url)
            wait_for(lambda: len(driver.find_elements("css selector", ".tablecard")) == 4, 30, "")
            time.sleep(0.3)
            driver.save_screenshot(str(SHOTS / f"club-{px}.png"))
            person(driver, px, f"the club page at {px} px")
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
        # the games over: the league, the results and the players' pages
        records(driver, board)
        folds_alike(board, logs)
    finally:
        driver.quit()
    assert checked == 4 * 3 * len(WIDTHS)


def moment(driver, url: str, game: str, line: int, px: int, where: str) -> str:
    """A moment's page (the table's log e1 at `line`): drawn, read as a person reads it,
    its move list on the move of that line (or the last before it); its text."""
    driver.get(f"{url}table/{game}/at/e1/{line}")
    wait_for(
        lambda: (
            driver.execute_script(
                "return window.plateau && plateau.moment ? plateau.moment.line : 0"
            )
            == line
        ),
        30,
        f"{where}: the moment's page",
    )
    time.sleep(0.2)
    driver.save_screenshot(str(SHOTS / f"moment-{game}-{line}-{px}.png"))
    text = person(driver, px, where)
    assert f"line {line} of the table's log" in text, (where, text)
    moves, now = driver.execute_script(
        "const m = plateau.moment; const now = document.querySelector('#moves .now');"
        " return [m.moves.map((x) => x.line), now ? Number(now.dataset.line) : null]"
    )
    assert moves, where  # every game says at least its beginning
    assert now == max(n for n in moves if n <= line), (where, now, moves)
    if len(moves) > 1:  # a move past the game's beginning names its player
        said = driver.execute_script("return document.getElementById('moves').textContent")
        assert any(who in said for who in NAMES[game].values()), (where, said)
    return text


def records(driver, board: Scoreboard) -> None:
    """The league of each game with the date of each result and links to its players and its
    moves; the night's and each table's results; each player's page: the games, a rating
    chart with a point a rated game, head to head; every one at 360 and 1280 px."""
    today = time.strftime("%Y-%m-%d")
    standings = {g: board.league.standings(g) for g in NAMES}
    for px in WIDTHS:
        width(driver, px)
        for g in NAMES:
            driver.get(f"{board.url}league/{g}")
            wait_for(lambda: driver.find_elements("css selector", "#history"), 30, g)
            time.sleep(0.2)
            driver.save_screenshot(str(SHOTS / f"league-{g}-{px}.png"))
            text = person(driver, px, f"the {g} league at {px} px")
            rows = driver.find_elements("css selector", "#history tr[data-result]")
            assert len(rows) == len(standings[g]["history"]), (g, text)
            for row in rows:
                assert today in row.find_element("css selector", ".when").text, (g, row.text)
                assert row.find_elements("css selector", "a.moves"), (g, row.text)
            for r in standings[g]["ratings"]:
                assert r["player"] in text, (g, r, text)
        for path in ("results", "results/table/pocha"):
            driver.get(board.url + path)
            wait_for(lambda: driver.find_elements("css selector", "#results"), 30, path)
            time.sleep(0.2)
            driver.save_screenshot(str(SHOTS / f"{path.replace('/', '-')}-{px}.png"))
            person(driver, px, f"/{path} at {px} px")
        for who in ("Ana", LONG, "Dmitri"):
            driver.get(f"{board.url}player?name={who}")
            wait_for(lambda: driver.find_elements("css selector", "#played"), 30, who)
            time.sleep(0.2)
            driver.save_screenshot(str(SHOTS / f"player-{who.split()[0]}-{px}.png"))
            text = person(driver, px, f"{who}'s page at {px} px")
            assert driver.find_element("css selector", "#player").text == who
            for g, st in standings.items():
                mine = [r for r in st["ratings"] if r["player"] == who]
                if not mine:
                    continue
                box = f"section[data-game={g}]"
                drawn = driver.find_element("css selector", f"{box} svg.chart")
                assert drawn.get_attribute("data-points") == str(mine[0]["games"]), (who, g)
                assert f"rating {mine[0]['rating']}" in text, (who, g, text)
                met = driver.find_elements("css selector", f"{box} .h2h tr[data-opponent]")
                others = {p for h in st["history"] for p in h["names"].values()} - {who}
                assert {m.get_attribute("data-opponent") for m in met} == others, (who, g)
    # a moment's link that is past the end of the log: a page that says so, 404
    width(driver, 360)
    driver.get(f"{board.url}table/tock/at/e1/99999999")
    wait_for(lambda: driver.find_elements("css selector", "#refused"), 30, "the refusal")
    text = person(driver, 360, "a moment past the end")
    assert "past the end" in text, text


def folds_alike(board: Scoreboard, logs: dict[str, list[dict]]) -> None:
    """Each moment's state, at lines drawn at random and around the kept copies of the fold
    (every 128 lines), is the live fold's at that line: a TableState fed the log's lines up to
    it, as the live page was."""
    import urllib.request

    rng = random.Random(32)
    for g, evs in logs.items():
        picks = set(rng.sample(range(1, len(evs) + 1), min(12, len(evs))))
        picks |= {n for k in (128, 256) for n in (k - 1, k, k + 1) if n <= len(evs)}
        live = TableState(g, "e1")
        for n, ev in enumerate(evs, 1):
            live.feed(n, ev)
            if n not in picks:
                continue
            with urllib.request.urlopen(f"{board.url}api/table/{g}/at/e1/{n}") as r:
                got = json.loads(r.read())
            assert got["line"] == n
            assert timeless(got["state"]) == timeless(json.loads(json.dumps(live.to_dict()))), (
                g,
                n,
            )


def timeless(d: dict) -> dict:
    """A state without what the scoreboard's clock put in it (when each line was folded)."""
    d = json.loads(json.dumps(d))
    d.pop("updated", None)
    d.get("game_start", {}).pop("wall", None)
    d.get("view", {}).pop("clock_wall", None)
    for r in d.get("finished", []):
        r.pop("duration_s", None)
    return d


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
        if stage == "end":  # one seat has every chip: the game's winner
            assert "every chip" in text and "Winner: " in text, (where, text)
