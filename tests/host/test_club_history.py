"""The pages of what was played (issue 32), as an adversary and a club's members try them: a
moment's link (/table/<t>/at/<log>/<line>) malformed, past the end, in a hole, of a log or a
table the scoreboard never heard: a 400 or a 404 with a sentence, never a traceback; a table
with no game over; a player with one game; names with markup shown as text on the new pages
in a real browser; each player's rating over time and head to head as the league counts them
(a seeded generator of results); a moment of `plateau serve --log`'s table, folded as its
live page is. The four games' moments at their start, middle and end, drawn as the live page
draws them, are tests/host/test_club_pages.py's."""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from urllib.parse import quote

import pytest
from clubkit import simulate, wait_for
from test_club_browser import browser
from test_club_pages import Scoreboard, person, timeless, width

from plateau import games
from plateau.club.careers import career
from plateau.club.league import START, League
from plateau.club.server import Club, LocalLog, Server
from plateau.club.state import TableState
from plateau.logger import read_log

MARKUP = '<img src=x onerror="window.pwned=1">'  # a player's name (35 characters)


@pytest.fixture(scope="module")
def weykick(tmp_path_factory) -> tuple[list[dict], object]:
    """A simulated Weykick series (best of 3) and its log."""
    folder = tmp_path_factory.mktemp("history")
    p = simulate(folder, "weykick", seed=5)
    assert p.wait(600) == 0, p.stderr.read().decode() if p.stderr else ""
    log = folder / "weykick.jsonl"
    return [ev for _, ev, _ in read_log(log) if ev], log


def scoreboard(db) -> tuple[Club, Server]:
    club = Club(League(db))
    return club, Server(club, "history-test-token")


def feed(club: Club, table: str, evs: list[dict], skip: range | tuple = ()) -> None:
    """A table's lines as the broker brings them (those in `skip` lost on the way)."""
    prev = 0
    for n, ev in enumerate(evs, 1):
        if n in skip:
            continue
        club.event(table, "e1", n, prev, ev)
        prev = n
    club.keep()


def answers(server: Server, paths: list[str]) -> list[tuple[int, str, str]]:
    """(status, content type, body) of each GET, through the scoreboard's own app."""
    from aiohttp.test_utils import TestClient, TestServer

    async def run():
        out = []
        async with TestClient(TestServer(server.app())) as c:
            for p in paths:
                r = await c.get(p)
                out.append((r.status, r.content_type, await r.text()))
        return out

    return asyncio.run(run())


def ends(evs: list[dict]) -> list[int]:
    return [n for n, ev in enumerate(evs, 1) if ev["type"] == "match_end"]


def test_moment_links_malformed_or_past_the_end_are_a_clear_400_or_404(weykick, tmp_path):
    evs, _ = weykick
    club, server = scoreboard(tmp_path / "club.sqlite")
    feed(club, "wk", evs)
    feed(club, "holey", evs, skip=range(10, 13))  # lines 10-12 never reached the scoreboard
    last = len(evs)
    rng = random.Random(32)
    cases: list[tuple[str, int, str]] = []  # (line as given, status, what the answer says)
    pool = "0123456789-+.eEx %/\\'\"<>٣²\u202e日"
    for _ in range(120):
        raw = "".join(rng.choice(pool) for _ in range(rng.randint(1, 12)))
        if re.fullmatch(r"[1-9][0-9]{0,8}", raw) or set(raw) == {"."}:
            continue  # a line number, or a path's own "." or ".." (the client resolves them)
        cases.append((raw, 400, "a moment is a line"))
    for raw in (
        "0",
        "00",
        "01",
        "-1",
        "+3",
        "1.0",
        "1e3",
        " 1",
        "3 ",
        "0x10",
        str(10**9),
        "9" * 40,
    ):
        cases.append((raw, 400, "a moment is a line"))
    for n in (last + 1, last + rng.randint(2, 10**6), 999_999_999):
        cases.append((str(n), 404, "past the end"))
    paths: list[tuple[str, int, str]] = []
    for raw, status, says in cases:
        paths.append((f"/table/wk/at/e1/{quote(raw, safe='')}", status, says))
    for n in (10, 11, 12):
        paths.append((f"/table/holey/at/e1/{n}", 404, "never reached the scoreboard"))
    for epoch in ("e2", "E1", "e1 ", "<b>e1</b>", "x" * 32, "a/b", "..."):
        paths.append((f"/table/wk/at/{quote(epoch, safe='%')}/3", 404, "holds no log"))
    paths.append(("/table/nobody/at/e1/3", 404, "has published to this scoreboard"))
    paths.append(("/table/" + "t" * 33 + "/at/e1/3", 404, "no such table"))
    paths.append(("/table/a.b/at/e1/3", 404, "no such table"))
    api = [("/api" + p, status, says) for p, status, says in paths]
    got = answers(server, [p for p, _, _ in paths + api])
    for (path, status, says), (code, kind, body) in zip(paths + api, got, strict=True):
        assert code == status, (path, code, body)
        if path.startswith("/api"):
            assert kind == "text/plain" and says in body, (path, body)
            assert "\n" not in body.strip() and "Traceback" not in body, (path, body)
        elif "no such table" not in says:
            assert kind == "text/html", path  # the page says why: its script asks the API
    # the lines held are moments: line 1 to the last, and around the hole
    fine = answers(server, [f"/api/table/holey/at/e1/{n}" for n in (1, 9, 13, last)])
    assert [c for c, _, _ in fine] == [200] * 4, fine
    assert [json.loads(b)["line"] for _, _, b in fine] == [1, 9, 13, last]
    assert club.refused == {} and server.refused == {}


def test_a_table_with_no_game_over_and_a_player_with_one_game(weykick, tmp_path):
    evs, _ = weykick
    club, server = scoreboard(tmp_path / "club.sqlite")
    league = club.league
    assert league is not None
    feed(club, "quiet", evs[:2])  # the table said hello: no goal, no result
    league.seat("wk", {"A": MARKUP, "B": "Bob"}, "test")
    first = ends(evs)[0]
    feed(club, "wk", evs[:first])  # one match: one result
    quiet, results, page, api, bob, none = answers(
        server,
        [
            "/api/table/quiet/at/e1/2",
            "/api/results?table=quiet",
            f"/player?name={quote(MARKUP)}",
            f"/api/player?name={quote(MARKUP)}",
            "/api/player?name=Bob",
            "/api/player?name=quiet:A",  # a seat of a table with no result
        ],
    )
    m = json.loads(quiet[2])
    assert quiet[0] == 200 and m["moves"] == [
        {"line": 1, "said": "weykick: the game begins", "at": m["moves"][0]["at"]}
    ]
    assert m["game"]["over"] is False and m["game"]["result"] is None
    assert json.loads(results[2])["results"] == []
    assert page[0] == 200 and none[0] == 404 and "names a player" in none[2]
    ana, bob_ = json.loads(api[2]), json.loads(bob[2])
    won = 1 if evs[first - 1]["winner"] == "A" else -1
    for p, sign, other in ((ana, won, "Bob"), (bob_, -won, MARKUP)):
        g = p["games"]["weykick"]
        assert g["games"] == 1 and g["wins"] == (sign > 0)
        assert [pt["rating"] for pt in g["points"]] == [START + sign * 20]  # K 40, even odds
        assert g["head_to_head"] == [
            {"opponent": other, "games": 1, "ahead": int(sign > 0), "behind": int(sign < 0),
             "level": 0}
        ]  # fmt: skip
        assert len(p["played"]) == 1 and p["played"][0]["lines"] == [1, first]
        assert p["played"][0]["place"] == (1 if sign > 0 else 2)
    assert set(club.league.standings("weykick")["ratings"][0]) >= {"player", "rating"}


def test_rating_over_time_and_head_to_head_are_the_leagues(tmp_path):
    """Seeded results of every game (names with markup, unnamed seats, ties, partners,
    disputed and voided ones): each player's page agrees with the league's standings, head
    to head is the same seen from either side, every result naming the player is listed."""
    league = League(tmp_path / "club.sqlite")
    rng = random.Random(320)
    pool = ["Ana", "Bob", "<i>Cy</i>", "Dee", "Eve Ng", MARKUP]
    seats_of = {
        "tock": [["R+B", "G+Y"], ["R", "G", "B", "Y"]],
        "weykick": [["A", "B"]],
        "holdem": [[str(i) for i in range(1, 7)]],
        "pocha": [[str(i) for i in range(1, 6)]],
    }
    rated = games.league()
    for n in range(1, 121):
        game = rng.choice(rated)
        table = f"t{rng.randint(1, 3)}"
        seats = rng.choice(seats_of.get(game, [["1", "2", "3"]]))
        seats = seats[: rng.randint(2, len(seats))]
        names = rng.sample(pool, len(seats))
        league.seat(
            table,
            {s: (p if rng.random() < 0.85 else "") for s, p in zip(seats, names, strict=True)},
        )
        order = rng.sample(seats, len(seats))
        ranking: list[list[str]] = []
        for s in order:  # ties and partners: a seat sometimes shares the place before it
            if ranking and rng.random() < 0.25:
                ranking[-1].append(s)
            else:
                ranking.append([s])
        verdict = rng.choices(["rated", "disputed", "confirmed", "voided"], [6, 1, 1, 1])[0]
        league.record(
            {"table": table, "epoch": "e", "last_line": n, "game": game, "seats": seats,
             "ranking": ranking, "verdict": verdict, "why": None if verdict == "rated" else "x"}
        )  # fmt: skip
    everyone = {p for g in rated for h in league.results(g) for p in names_of(h)}
    assert len(everyone) > len(pool)  # named players and unnamed table:seat ones
    pages = {p: career(league, p) for p in everyone}
    for g in rated:
        standings = league.standings(g)
        for r in standings["ratings"]:
            mine = pages[r["player"]]["games"][g]
            assert (mine["rating"], mine["games"], mine["wins"]) == (
                r["rating"],
                r["games"],
                r["wins"],
            )
            assert len(mine["points"]) == r["games"]
            assert abs(mine["points"][-1]["rating"] - r["rating"]) <= 0.55  # 0.1 vs 1
            times = [pt["at"] for pt in mine["points"]]
            assert times == sorted(times)
            for h in mine["head_to_head"]:
                theirs = {
                    x["opponent"]: x for x in pages[h["opponent"]]["games"][g]["head_to_head"]
                }
                back = theirs[r["player"]]
                assert (h["games"], h["ahead"], h["behind"], h["level"]) == (
                    back["games"],
                    back["behind"],
                    back["ahead"],
                    back["level"],
                )
    for p, page in pages.items():
        assert page is not None
        naming = [r for g in rated for r in league.results(g) if p in names_of(r)]
        assert sorted(x["id"] for x in page["played"]) == sorted(r["id"] for r in naming)
        for x in page["played"]:
            if x["verdict"] in ("disputed", "voided"):
                assert x["change"] is None and x["rating"] is None
    assert career(league, "nobody at all") is None


def names_of(r: dict) -> set[str]:
    return {r["players"].get(s) or f"{r['table']}:{s}" for s in r["seats"]}


def test_moments_of_a_local_log(weykick, tmp_path):
    """plateau serve --log: the moments are read from the log itself, folded as its page."""
    evs, log = weykick
    club, server = scoreboard(tmp_path / "club.sqlite")
    local = LocalLog(club, str(log), "wk")
    local.poll()
    picks = [1, 2, *ends(evs), len(evs)]
    got = answers(
        server,
        [f"/api/table/wk/at/{local.epoch}/{n}" for n in picks]
        + [f"/api/table/wk/at/{local.epoch}/{len(evs) + 1}", "/api/table/wk/at/e1/3"],
    )
    live = TableState("wk", local.epoch)
    states = {}
    for n, ev in enumerate(evs, 1):
        live.feed(n, ev)
        states[n] = json.loads(json.dumps(live.to_dict()))
    for n, (code, _, body) in zip(picks, got, strict=False):
        assert code == 200, (n, body)
        assert timeless(json.loads(body)["state"]) == timeless(states[n]), n
    assert got[-2][0] == 404 and "past the end" in got[-2][2]
    assert got[-1][0] == 404 and "holds no log" in got[-1][2]


def test_the_move_list_says_every_goal_with_its_players(weykick, tmp_path):
    evs, _ = weykick
    club, server = scoreboard(tmp_path / "club.sqlite")
    club.league.seat("wk", {"A": "Ana", "B": "Bob"}, "test")
    feed(club, "wk", evs)
    starts = [0, *ends(evs)]
    got = answers(server, [f"/api/table/wk/at/e1/{n}" for n in ends(evs)])
    for k, (code, _, body) in enumerate(got):
        m = json.loads(body)
        first, last = starts[k] + 1, starts[k + 1]
        match = [(n, ev) for n, ev in enumerate(evs, 1) if first <= n <= last]
        goals = [n for n, ev in match if ev["type"] == "goal"]
        said = {x["line"]: x["said"] for x in m["moves"]}
        assert code == 200 and m["game"]["over"] and m["game"]["result"]["verdict"] == "rated"
        assert set(goals) <= set(said), (goals, said)
        for n in goals:
            side = evs[n - 1]["side"]
            assert said[n].startswith(f"goal for {'Ana' if side == 'A' else 'Bob'}"), said[n]
        assert said[last].startswith(("Ana won", "Bob won")), said[last]
        assert sorted(said) == [x["line"] for x in m["moves"]]


def test_names_with_markup_on_the_new_pages_are_text(weykick, tmp_path):
    """In chromium at 360 px: the player's page, a moment's move list and the league show a
    name with markup as the name, run nothing, and fit the screen."""
    evs, _ = weykick
    driver = browser()
    board = Scoreboard(tmp_path / "club.sqlite")
    try:
        board.feed("wk", evs, 1)
        board.league.seat("wk", {"A": MARKUP, "B": "Bob"}, "test")
        board.feed("wk", evs, len(evs))
        width(driver, 360)
        first = ends(evs)[0]
        for path, ready in (
            (f"player?name={quote(MARKUP)}", "#played"),
            (f"table/wk/at/e1/{first}", "#moves li"),
            ("league/weykick", "#history"),
        ):
            driver.get(board.url + path)
            wait_for(lambda r=ready: driver.find_elements("css selector", r), 30, path)
            time.sleep(0.2)
            text = person(driver, 360, path)
            assert MARKUP in text, (path, text)
            assert driver.execute_script("return window.pwned === undefined"), path
            assert not driver.find_elements("css selector", "main img"), path
            if "/at/" in path:  # the match's last move: its end, in the winner's name
                now = driver.find_element("css selector", "#moves li.now").text
                assert now.startswith((f"{MARKUP} won", "Bob won")), now
    finally:
        driver.quit()


def test_a_scoreboard_without_its_file_says_it_has_no_moments(weykick):
    """plateau serve --mqtt without --db keeps no lines: a moment's link says so (404), and a
    player's page has no results to show (404)."""
    evs, _ = weykick
    club = Club(None)
    server = Server(club, "history-test-token")
    feed(club, "wk", evs)
    (code, _, body), (pcode, _, pbody) = answers(
        server, ["/api/table/wk/at/e1/3", "/api/player?name=wk:A"]
    )
    assert code == 404 and "keeps no table's lines" in body, body
    assert pcode == 404 and "names a player" in pbody, pbody


def test_no_page_script_parses_text_as_markup():
    """Every string reaches the pages as text (docs/club.md): no script of theirs hands a
    string to the HTML parser or to eval."""
    from plateau.club.server import STATIC

    scripts = sorted(STATIC.glob("*.js"))
    assert {p.name for p in scripts} >= {"club.js", "history.js"}
    for p in scripts:
        code = re.sub(r"//[^\n]*", "", p.read_text())  # the comments say what is not used
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                     "new Function", "srcdoc"):  # fmt: skip
            assert sink not in code, (p.name, sink)


def test_a_moment_that_cannot_be_folded_is_said_not_a_traceback(weykick, tmp_path, monkeypatch):
    """Not expected (the live fold took these lines): if folding them again fails, the page
    gets a 500 in a sentence and the scoreboard says it once on stderr."""
    from plateau.club import moments

    evs, _ = weykick
    club, server = scoreboard(tmp_path / "club.sqlite")
    said: list[str] = []
    club.say = said.append
    feed(club, "wk", evs)

    def broken(self, i):
        raise RuntimeError("a fold that breaks")

    monkeypatch.setattr(moments.Folded, "state_at", broken)
    ((code, kind, body),) = answers(server, ["/api/table/wk/at/e1/5"])
    assert code == 500 and kind == "text/plain" and "could not be drawn" in body, body
    assert "Traceback" not in body and len(said) == 1 and "not folded" in said[0], said
