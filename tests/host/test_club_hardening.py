"""The scoreboard hardened (issue 32), each attack a test: another site's page on the
WebSocket and the writes (and a name of another site pointed at the scoreboard), malformed
messages from a table's login and malformed writes (depth, size, types: a seeded generator),
names for a table that never published, the operator's token across restarts, clashing
broker names, and a table gone stale (its broker down). Through a real Mosquitto where it is
about the broker (skipped, saying so, where mosquitto is missing)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import stat
import time

import pytest
from clubkit import broker_for, scoreboard, simulate, start_broker, table_state, wait_for
from simkit import plateau

from plateau.club.league import League
from plateau.club.mqtt import Bridge, envelope, topic
from plateau.club.server import Club, Server
from plateau.club.state import fold_log
from plateau.logger import read_log

TOKEN = "s3cret-token-for-tests"
OK = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture(scope="module")
def pocha(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hardening")
    p = simulate(folder, "pocha", seed=5)
    assert p.wait(300) == 0, p.stderr.read().decode() if p.stderr else "pocha"
    return folder / "pocha.jsonl"


def client(server):
    from aiohttp.test_utils import TestClient, TestServer

    return TestClient(TestServer(server.app()))


# --- another site -----------------------------------------------------------------------------


def test_another_sites_page_may_not_use_the_websocket_nor_write(pocha, tmp_path):
    """A page of another site, opened by a club member, connecting to the scoreboard's
    WebSocket (it read every table) or posting with a token it got: refused; a name of
    another site pointed at the scoreboard (DNS rebinding) too. The scoreboard's own pages,
    an --origin, and a client that is no browser's page (no Origin) are served."""
    import aiohttp

    league = League(tmp_path / "club.sqlite")
    club = Club(league)
    for n, ev in enumerate(ev for _, ev, _ in read_log(pocha) if ev):
        club.event("p1", "e1", n + 1, n, ev)
    server = Server(club, TOKEN, origins=["http://scores.club.lan:8080"])

    async def run():
        async with client(server) as c:
            own = f"http://{c.host}:{c.port}"
            for origin in ("http://evil.example", "null", f"http://{c.host}:1", "https://x.test"):
                with pytest.raises(aiohttp.WSServerHandshakeError) as e:
                    await c.ws_connect("/ws", headers={"Origin": origin})
                assert e.value.status == 403, origin
                r = await c.post(
                    "/api/table/p1/players",
                    json={"seats": {"1": "Eve"}},
                    headers={**OK, "Origin": origin},
                )
                assert r.status == 403, origin
                assert (
                    await c.post("/api/results/1/void", headers={**OK, "Origin": origin})
                ).status == 403
            r = await c.get("/api/club", headers={"Host": "evil.example"})
            assert r.status == 403  # rebinding: another site's name for this machine
            for origin in (own, "http://scores.club.lan:8080", None):
                headers = {"Origin": origin} if origin else {}
                ws = await c.ws_connect("/ws", headers=headers)
                msg = await ws.receive_json(timeout=10)
                assert msg["type"] == "summary"
                await ws.close()
                r = await c.post(
                    "/api/table/p1/players", json={"seats": {"1": "Ann"}}, headers={**OK, **headers}
                )
                assert r.status == 200, origin
            return (await (await c.get("/api/club")).json())["writes"]

    writes = asyncio.run(run())
    assert league.seats("p1") == {"1": "Ann"}
    assert sum(n for why, n in writes.items() if why.startswith("origin")) == 4 * 3


# --- malformed payloads ---------------------------------------------------------------------------


def wrong(rng) -> object:
    """A value of a random wrong kind."""
    return rng.choice(
        [None, True, False, -1, 2**64, 10**400, 1.5, "", "x" * 300, [], {}, [[1]], {"a": []},
         "\u202e", [None] * 40, {"": None}]
    )  # fmt: skip


def nest(depth: int, rng) -> str:
    opening = "".join(rng.choice("[{") for _ in range(depth))
    closing = "".join("]" if c == "[" else "}" for c in reversed(opening))
    body = "".join(c if c == "[" else '{"a":' for c in opening)
    return body + "1" + closing


def junk(rng, good: dict[str, bytes], count: int) -> list[tuple[str, bytes]]:
    """Seeded malformed messages for each topic: nested deep (9 to 60,000 levels, in the
    message or inside a good one's fields), long (a field, or the whole, past the limit),
    of the wrong kind in a field (the envelope's, the event's, the state's and its finished
    games', the presence's), not UTF-8, not JSON (NaN, Infinity, cut short)."""
    out: list[tuple[str, bytes]] = []
    for _ in range(count):
        what = rng.choice(sorted(good))
        base = json.loads(good[what])
        kind = rng.randrange(7)
        if kind == 0:
            payload = nest(rng.choice([9, 12, 50, 900, 5000, 60000]), rng).encode()
        elif kind == 1:  # deep inside a good message
            d = json.loads(good[what])
            key = rng.choice(sorted(d))
            d[key] = json.loads(nest(rng.choice([9, 30, 900]), rng)) if rng.random() < 0.1 else 0
            text = json.dumps(d)
            payload = text.replace("0", nest(rng.choice([9, 30, 900]), rng), 1).encode()
        elif kind == 2:  # long
            d = dict(base)
            d[rng.choice(sorted(d))] = "x" * rng.choice([20000, 70000, 2_000_000])
            payload = json.dumps(d).encode()
        elif kind == 3:  # a field of the wrong kind, at the top or one level in
            d = json.loads(good[what])
            inner = [v for v in d.values() if isinstance(v, dict) and v]
            at = rng.choice(inner) if inner and rng.random() < 0.5 else d
            if what == "state" and d.get("finished") and rng.random() < 0.4:
                at = rng.choice(d["finished"])
            at[rng.choice(sorted(at))] = wrong(rng)
            payload = json.dumps(d).encode()
        elif kind == 4:  # not UTF-8
            b = bytearray(good[what])
            b[rng.randrange(len(b))] = rng.choice([0xFF, 0xFE, 0xC0, 0x80])
            payload = bytes(b)
        elif kind == 5:  # not JSON
            payload = rng.choice(
                [b"", b" ", b"NaN", b'{"online": NaN}', b"[Infinity]", good[what][:-3],
                 b"\xef\xbb\xbf" + good[what], good[what] + b"]"]
            )  # fmt: skip
        else:  # the whole of another kind
            payload = json.dumps(wrong(rng)).encode()
        out.append((what, payload))
    return out


def good_messages(pocha) -> dict[str, bytes]:
    evs = [ev for _, ev, _ in read_log(pocha) if ev]
    state = fold_log(pocha, "p1", "e1").to_dict()
    return {
        "events": envelope("e1", len(evs) + 1, len(evs), evs[5]),
        "state": json.dumps(state).encode(),
        "presence": json.dumps({"online": True, "since": 1.0, "at": 2.0}).encode(),
    }


def test_malformed_messages_are_refused_alike_and_counted(pocha):
    """Seeded malformed messages on every topic, into a scoreboard holding a whole table:
    nothing raises (a state nested 900 deep raised RecursionError), each one refused is
    counted by why, and whatever was taken is a state every page can draw."""
    rng = random.Random(32)
    good = good_messages(pocha)
    club = Club()
    for n, ev in enumerate(ev for _, ev, _ in read_log(pocha) if ev):
        club.event("p1", "e1", n + 1, n, ev)
    server = Server(club, TOKEN)
    messages = junk(rng, good, 3000)
    for what, payload in messages:
        before = club.rejected
        club.message("p1", what, payload)
        club.message("p2", what, payload)
        assert club.rejected - before in (0, 2), (what, payload[:80])
    assert club.rejected > len(messages)  # most are refused
    assert sum(club.refused.values()) == club.rejected
    kinds = {why.split(": ", 1)[1].split(" ")[0] for why in club.refused}
    assert {"longer", "nested", "not"} <= kinds, club.refused
    for t in club.tables:
        json.dumps(server._state_message(t), allow_nan=False)
        json.dumps(server._summaries_one(t), allow_nan=False)


def test_malformed_messages_through_the_broker_never_a_traceback(pocha, tmp_path):
    """The same generator's messages published by a table's login through a real Mosquitto
    to `plateau serve`: it says each kind of refusal once, counts them, shows no traceback,
    and still takes that table's true log after them."""
    rng = random.Random(33)
    m = start_broker(tmp_path / "broker", ["p1"])
    try:
        with scoreboard(m, tmp_path, "--db", str(tmp_path / "club.sqlite")) as (url, serve):
            c = broker_for(m, "p1").client()
            c.connect("127.0.0.1", m.port)
            c.loop_start()
            sent = junk(rng, good_messages(pocha), 300)
            sent.append(("state", json.dumps({"view": json.loads(nest(900, rng))}).encode()))
            for what, payload in sent:
                c.publish(topic("p1", what), payload, qos=1).wait_for_publish(5)
            c.disconnect()
            c.loop_stop()
            log = tmp_path / "p1.jsonl"
            log.write_bytes(pocha.read_bytes())
            Bridge(log, "p1", broker_for(m, "p1")).run(follow=False)
            lines = len(pocha.read_text().splitlines())
            wait_for(lambda: table_state(url, "p1").get("state", {}).get("line") == lines, 60, "p1")
            import urllib.request

            with urllib.request.urlopen(f"{url}api/club") as r:
                refused = json.load(r)["refused"]
            serve.terminate()
            serve.wait(20)
            err = serve.stderr.read()
        assert "Traceback" not in err and "Exception" not in err, err[-3000:]
        assert sum(refused.values()) >= len(sent) // 2, refused
        assert err.count("refused a message") == len(refused), err
    finally:
        m.stop()


def test_malformed_writes_are_refused_alike(tmp_path):
    """Writes nested deep, too long, of the wrong kinds (a seeded generator): 400 or 413,
    never a 500 (a body nested 60,000 deep raised RecursionError), nothing written."""
    rng = random.Random(34)
    league = League(tmp_path / "club.sqlite")
    league.seat("t1", {"1": "Ann"})
    server = Server(Club(league), TOKEN)
    bodies: list[bytes] = [nest(d, rng).encode() for d in (4, 50, 900, 30000)]
    bodies += [b"", b"NaN", b"[1]", b"\xff", json.dumps({"seats": "x" * 70000}).encode()]
    for _ in range(300):
        seats = {str(rng.randrange(20)): rng.choice(["Bob", wrong(rng)]) for _ in range(3)}
        body = {"seats": rng.choice([seats, wrong(rng)]), "by": rng.choice(["Cy", wrong(rng)])}
        if rng.random() < 0.3:
            body[rng.choice(["seats", "by"])] = wrong(rng)
        bodies.append(json.dumps(body).encode())

    async def run():
        statuses = []
        async with client(server) as c:
            for body in bodies:
                named = await c.post("/api/table/t1/players", data=body, headers=OK)
                decided = await c.post("/api/results/1/void", data=body, headers=OK)
                statuses.append((body, named.status, decided.status))
        return statuses

    from plateau.events import _depth

    refused = 0
    for body, named, decided in asyncio.run(run()):
        if not body:  # a decision needs no body; naming players does
            assert (named, decided) == (400, 404)
            continue
        try:
            whole = isinstance(json.loads(body), dict) and len(body) <= 16384 and _depth(body) <= 3
        except (ValueError, RecursionError):
            whole = False
        if whole:  # an object: its fields checked (no result 1 to void)
            assert named in (200, 400) and decided == 404, (body[:80], named, decided)
        else:  # refused alike, by both
            assert named in (400, 413) and decided in (400, 413), (body[:80], named, decided)
            refused += 1
    assert refused >= 9
    names = league.seats("t1")
    assert all(isinstance(n, str) and 0 < len(n) <= 40 for n in names.values()), names


# --- unknown tables, the token, the broker's names -----------------------------------------------


def test_names_for_a_table_that_never_published_are_refused(pocha, tmp_path):
    league = League(tmp_path / "club.sqlite")
    club = Club(league)
    for n, ev in enumerate(ev for _, ev, _ in read_log(pocha) if ev):
        club.event("p1", "e1", n + 1, n, ev)
    club.heard["p1"] = time.time()
    club.keep()
    server = Server(club, TOKEN)

    async def run():
        async with client(server) as c:
            body = {"seats": {"1": "Ann"}}
            unknown = await c.post("/api/table/t9/players", json=body, headers=OK)
            known = await c.post("/api/table/p1/players", json=body, headers=OK)
            return unknown.status, await unknown.text(), known.status

    unknown, said, known = asyncio.run(run())
    assert (unknown, known) == (404, 200) and "t9" in said
    assert league.seats("t9") == {}
    done = plateau("players", "--db", tmp_path / "club.sqlite", "--table", "t9", "1=Eve")
    assert done.returncode == 2 and "t9" in done.stderr and len(done.stderr.splitlines()) == 1
    done = plateau("players", "--db", tmp_path / "club.sqlite", "--table", "p1", "2=Bob")
    assert done.returncode == 0 and "directly" in done.stderr, done.stderr
    assert League(tmp_path / "club.sqlite").seats("p1") == {"1": "Ann", "2": "Bob"}


def test_plateau_players_through_the_scoreboard_with_the_token(pocha, tmp_path):
    """`plateau players --url`: the names go through the running scoreboard as its operator's
    page sends them: the token kept beside --db (or --token-file), refused in one line for a
    table it never heard of, a wrong token, no token; 3 for no scoreboard there."""
    from clubkit import serving

    db = tmp_path / "club.sqlite"
    with serving(pocha, "p1", db) as url:
        wait_for(lambda: table_state(url, "p1"), 30, "the table")
        ok = plateau("players", "--url", url, "--db", db, "--table", "p1", "1=Ann", "2=Bob")
        assert ok.returncode == 0 and "p1 seat 2: Bob" in ok.stdout, ok.stderr
        assert "directly" not in ok.stderr
        read = plateau("players", "--url", url, "--table", "p1")
        assert read.returncode == 0 and "p1 seat 1: Ann" in read.stdout, read.stderr
        unknown = plateau("players", "--url", url, "--db", db, "--table", "t9", "1=Eve")
        assert unknown.returncode == 2 and "404" in unknown.stderr, unknown.stderr
        wrong = tmp_path / "wrong.token"
        wrong.write_text("not-the-operators-token\n")
        wrong.chmod(0o600)
        bad = plateau("players", "--url", url, "--token-file", wrong, "--table", "p1", "1=Eve")
        assert bad.returncode == 2 and "401" in bad.stderr, bad.stderr
        none = plateau("players", "--url", url, "--table", "p1", "1=Eve")
        assert none.returncode == 2 and "token" in none.stderr, none.stderr
        for done in (unknown, bad, none):
            assert len(done.stderr.splitlines()) == 1, done.stderr
    assert League(db).seats("p1") == {"1": "Ann", "2": "Bob"}
    audit = League(db).audit()
    assert "@" in audit[-1]["who"] and audit[-1]["after"] == {"1": "Ann", "2": "Bob"}, audit[-1]
    gone = plateau("players", "--url", url, "--table", "p1")
    assert gone.returncode == 3, gone.stderr


def test_the_token_is_kept_beside_the_database(pocha, tmp_path):
    """Without --token-file, the token is made on the first run into DB.token (mode 600) and
    is the same at every start; it is not printed then (the operator's page asks for it); a
    token file others may read is refused in one line."""
    from clubkit import serving

    db = tmp_path / "club.sqlite"
    beside = tmp_path / "club.sqlite.token"
    with serving(pocha, "p1", db):
        pass
    assert beside.exists() and stat.S_IMODE(beside.stat().st_mode) == 0o600
    token = beside.read_text().strip()
    assert len(token) >= 24
    import subprocess
    import sys

    for _ in range(2):
        serve = subprocess.Popen(
            [sys.executable, "-m", "plateau", "serve", "--log", str(pocha), "--table", "p1"]
            + ["--port", "0", "--db", str(db)],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            url = serve.stdout.readline().split()[-1]
            said = serve.stdout.readline()
            assert str(beside) in said and token not in said, said
            wait_for(lambda u=url: table_state(u, "p1"), 30, "the table")
            import urllib.request

            req = urllib.request.Request(
                f"{url}api/table/p1/players",
                data=b'{"seats": {"1": "Ann"}}',
                headers={"Authorization": f"Bearer {token}"},
                method="POST",
            )
            assert urllib.request.urlopen(req).status == 200
        finally:
            serve.terminate()
            serve.wait(20)
    assert beside.read_text().strip() == token
    os.chmod(beside, 0o644)
    done = plateau("serve", "--log", pocha, "--table", "p1", "--port", "0", "--db", db)
    assert done.returncode == 2 and "chmod 600" in done.stderr, done.stderr
    assert len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    "tables", [["club", "t2"], ["t1", "t1"], ["t1", "T1"], ["CLUB"], ["t1", "t2", "t1"]]
)
def test_club_broker_refuses_clashing_or_repeated_names(tmp_path, tables):
    done = plateau("club-broker", tmp_path / "broker", "--tables", *tables)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, done.stderr
    assert not (tmp_path / "broker").exists()


# --- a stale table ------------------------------------------------------------------------------


def test_a_table_whose_broker_is_down_is_shown_not_live_with_when_it_was_heard(pocha, tmp_path):
    """The broker stopped under a live table: within seconds its page (the state the server
    sends, and what chromium shows where it is installed) says not live, why, and when the
    table was last heard; live again once the broker is back."""
    m = start_broker(tmp_path / "broker", ["p1"])
    try:
        with scoreboard(m, tmp_path) as (url, _):
            log = tmp_path / "p1.jsonl"
            log.write_bytes(pocha.read_bytes())
            bridge = Bridge(log, "p1", broker_for(m, "p1"))
            import threading

            th = threading.Thread(target=bridge.run, daemon=True)
            th.start()
            wait_for(lambda: table_state(url, "p1").get("live") is True, 30, "the table live")
            heard = table_state(url, "p1")["heard"]
            m.stop()
            # (the broker's last words may be the bridge's will: offline, then the broker gone)
            wait_for(lambda: "broker" in (table_state(url, "p1").get("why") or ""), 30, "not live")
            got = table_state(url, "p1")
            assert got["live"] is False and abs(got["heard"] - heard) < 10, got
            shown = page_text(url, "p1")
            if shown is not None:
                assert "Not live" in shown and "last heard" in shown, shown
            m.start()
            wait_for(lambda: table_state(url, "p1").get("live") is True, 60, "live again")
            bridge.stop.set()
            th.join(10)
    finally:
        m.stop()


def page_text(url: str, table: str) -> str | None:
    """What chromium shows of a table's page (None where chromium is not installed)."""
    import shutil

    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        return None
    from test_club_browser import browser

    driver = browser()
    try:
        driver.get(f"{url}table/{table}")
        wait_for(lambda: "Not live" in driver.find_element("tag name", "body").text, 30, "shown")
        return driver.find_element("tag name", "body").text
    finally:
        driver.quit()
