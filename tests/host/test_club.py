"""The club: the state fold against whole simulated games, what a scoreboard takes from a
broker (repeats, holes, garbage), the league, the server's writes, and the bridge through a
real Mosquitto stopped and killed mid-game (skipped where mosquitto is missing)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import threading
import time

import pytest
from clubkit import ClubFeed, broker_for, serving, simulate, start_broker, table_state, wait_for
from conftest import REPORT

from plateau.club.league import League, rate
from plateau.club.mqtt import Bridge, envelope, open_envelope
from plateau.club.server import AHEAD_WAIT_S, Club, Server
from plateau.club.state import TableState, fold_log
from plateau.logger import Logger, read_log

GAMES = ("holdem", "pocha", "weykick")  # the quick ones; Tock plays in the browser test


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    """One whole simulated game of each quick kind, logged by `plateau sim`."""
    folder = tmp_path_factory.mktemp("club-games")
    procs = {g: simulate(folder, g, seed=5) for g in GAMES}
    for g, p in procs.items():
        assert p.wait(300) == 0, p.stderr.read().decode() if p.stderr else g
    return {g: folder / f"{g}.jsonl" for g in GAMES}


def shown(state: dict) -> dict:
    """What a page shows of a state: the durations are the host's wall clock (a log folded at
    once took no time), the rest must be equal."""
    keep = ("line", "seq", "game")
    return {
        **{k: state[k] for k in keep},
        "view": {k: v for k, v in state["view"].items() if k != "clock_wall"},
        "finished": [{k: v for k, v in r.items() if k != "duration_s"} for r in state["finished"]],
    }


def events_of(path):
    return [(n, ev) for n, ev, _ in read_log(path) if ev is not None]


def test_fold_follows_each_game(logs):
    """What a page shows at the end equals what the log's last events say."""
    for game, path in logs.items():
        evs = [ev for _, ev in events_of(path)]
        st = fold_log(path, game)
        assert st.game == game
        assert st.events + st.repeated == len(evs)
        v = st.view
        if game == "holdem":
            last = [e for e in evs if e["type"] == "hand_end"][-1]
            assert v["stacks"] == last["stacks"]
            assert v["pot"] == 0  # the session's last hand is paid
        elif game == "pocha":
            end = [e for e in evs if e["type"] == "match_end"][-1]
            assert v["totals"] == {r[0]: r[1] for r in end["ranking"]}  # K10: the running scores
            assert st.finished[-1]["ranking"][0][0] == end["ranking"][0][0]
        else:
            ends = [e for e in evs if e["type"] == "match_end"]
            assert v["score"] == ends[-1]["score"]
            assert v["series"] == ends[-1]["series"]
            assert [r["ranking"][0] for r in st.finished] == [[e["winner"]] for e in ends]
        again = TableState.from_dict(json.loads(json.dumps(st.to_dict())))
        assert again.to_dict() == st.to_dict()  # what the bridge publishes is what is shown


def test_scoreboard_takes_each_line_once_and_recovers_from_holes(logs):
    """Deliveries as a broker makes them: in order, with QoS-1 repeats and replays from an
    earlier line after a reconnection, and (broker crashed) lines lost, healed by the next
    retained state. Seeded; the end state is always the whole log's."""
    rng = random.Random(20)
    for game, path in logs.items():
        lines = events_of(path)
        whole = shown(fold_log(path, game, "e1").to_dict())
        for trial in range(20):
            club = Club()
            bridge_state = TableState(game, "e1")  # what the bridge folds as it publishes
            i, prev, lost = 0, 0, False
            while i < len(lines):
                n, ev = lines[i]
                r = rng.random()
                if r < 0.03 and i > 5:  # a reconnection: published again from an earlier line
                    i = max(0, i - rng.randint(1, 20))
                    prev = lines[i - 1][0] if i else 0
                    continue
                bridge_state.feed(n, ev)
                if r < 0.06 and trial % 2:  # lost on the way (the broker died with it)
                    lost = True
                else:
                    club.event(game, "e1", n, prev, ev)
                    if rng.random() < 0.1:
                        club.event(game, "e1", n, prev, ev)  # QoS 1: once more
                prev = n
                i += 1
                if rng.random() < 0.05:
                    club.state(game, TableState.from_dict(bridge_state.to_dict()))
            club.state(game, TableState.from_dict(bridge_state.to_dict()))  # the retained one
            club.tick(time.monotonic() + AHEAD_WAIT_S)  # lines lost at the end never come
            got = club.tables[game].to_dict()
            assert shown(got) == whole, (game, trial)
            if not lost:
                assert got["events"] == fold_log(path).events
            assert game not in club.stale


def test_broker_messages_that_are_not_a_bridges_are_refused(logs):
    rng = random.Random(7)
    n, ev = events_of(logs["holdem"])[3]
    good = envelope("e1", n, n - 1, ev)
    assert open_envelope(good)[1] == n
    bad = [
        b"",
        b"not json",
        b"[]",
        b'{"epoch": "e1", "line": 2, "prev": 2, "event": {"type": "card", "card": "AS"}}',
        b'{"epoch": "e1", "line": 2, "prev": 1, "event": {"type": "move"}}',
        b'{"epoch": 5, "line": 2, "prev": 1, "event": {"type": "card", "card": "AS"}}',
        b'{"epoch": "e1", "line": 2, "prev": 1, "event": ' + b"[" * 20 + b"]" * 20 + b"}",
        good + b" " * 20000,
    ]
    for _ in range(2000):  # mutated good messages: refused or taken, never a crash
        b = bytearray(good)
        for _ in range(rng.randint(1, 4)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        bad.append(bytes(b))
    club = Club()
    for payload in bad:
        club.message("t1", "events", payload)
        club.message("t1", "state", payload)
    assert club.rejected >= len(bad[:8]) * 2 - 1
    for st in club.tables.values():  # whatever passed is a state the page can draw
        json.dumps(st.to_dict())


def test_league_records_once_and_rates(tmp_path):
    league = League(tmp_path / "club.sqlite")
    league.seat("t1", {"R": "Ann", "B": "Bob", "G": "Cy", "Y": "Di"})
    rec = {
        "table": "t1",
        "epoch": "e",
        "game": "tock",
        "rules": "toc-fr",
        "last_line": 10,
        "seats": ["R", "G", "B", "Y"],
        "ranking": [["R", "B"], ["G", "Y"]],  # T6: partners win together
    }
    assert league.record(rec)
    assert not league.record(rec)  # a state carries its finished games again and again
    s = league.standings("tock")
    ratings = {r["player"]: r["rating"] for r in s["ratings"]}
    assert ratings["Ann"] == ratings["Bob"] > 1500 > ratings["Cy"] == ratings["Di"]
    assert s["history"][0]["players"] == {"R": "Ann", "G": "Cy", "B": "Bob", "Y": "Di"}
    # Elo: zero-sum between two; a favourite gains less than an outsider would
    r: dict[str, float] = {"a": 1700.0, "b": 1500.0}
    played = {"a": 50, "b": 50}
    up = rate([["a"], ["b"]], r, played)
    assert up["a"] == -up["b"] and 0 < up["a"] < 10
    r2: dict[str, float] = {"a": 1700.0, "b": 1500.0}
    assert rate([["b"], ["a"]], r2, played)["b"] > 10
    with pytest.raises(ValueError):
        league.seat("t1", {"R": "Ann\x1b[31m"})  # no terminal escapes in a name


def test_server_writes_need_the_token(tmp_path):
    from aiohttp.test_utils import TestClient, TestServer

    league = League(tmp_path / "club.sqlite")
    league.heard({"t1": time.time()})  # a table that has published (an unknown one is 404)
    club = Club(league)
    server = Server(club, "s3cret-token-for-tests")

    async def run():
        async with TestClient(TestServer(server.app())) as c:
            url = "/api/table/t1/players"
            body = {"seats": {"1": "Ann"}}
            assert (await c.post(url, json=body)).status == 401
            bad = {"Authorization": "Bearer nope"}
            assert (await c.post(url, json=body, headers=bad)).status == 401
            ok = {"Authorization": "Bearer s3cret-token-for-tests"}
            assert (await c.post(url, json=body, headers=ok)).status == 200
            assert (await c.post(url, json={"seats": {"1": "x" * 99}}, headers=ok)).status == 400
            assert (await c.post(url, data=b"{", headers=ok)).status == 400
            assert (await c.get("/table/..%2Fetc")).status == 404
            page = await c.get("/table/t1")
            assert "script-src 'self'" in page.headers["Content-Security-Policy"]
            assert (await c.get("/api/league/chess")).status == 404

    asyncio.run(run())
    assert league.seats("t1") == {"1": "Ann"}


# --- through a real broker -----------------------------------------------------------------------


def replay(src, dst, stop_at: list[int], gate: threading.Event, pace_s: float = 0.002):
    """Writes src's events into a new log dst as a logger does, one at a time; waits at each
    line number in stop_at until `gate` is set."""
    log = Logger(dst)
    try:
        for n, ev in events_of(src):
            if n in stop_at:
                gate.wait(60)
            log.write(ev)
            time.sleep(pace_s)
    finally:
        log.close()


def test_broker_stopped_killed_and_bridge_restarted_mid_game(logs, tmp_path):
    """Tables keep logging while the broker is away (stopped cleanly, or killed: seeded) and a
    bridge is restarted; every line reaches the scoreboard, which ends with each log's whole
    state and each finished game recorded once."""
    rng = random.Random(3)
    tables = list(logs)
    m = start_broker(tmp_path / "broker", tables)
    league = League(tmp_path / "club.sqlite")
    feed = ClubFeed(broker_for(m, "club"), league)
    bridges: dict[str, Bridge] = {}
    every: list[Bridge] = []  # restarted ones too
    threads = []

    def start_bridge(t: str) -> None:
        b = bridges[t] = Bridge(tmp_path / f"{t}.jsonl", t, broker_for(m, t))
        every.append(b)
        th = threading.Thread(target=b.run, daemon=True)
        th.start()
        threads.append(th)

    gates = {t: threading.Event() for t in tables}
    writers = []
    for t in tables:
        lines = len(events_of(logs[t]))
        stop_at = [lines // 3, 2 * lines // 3]
        w = threading.Thread(
            target=replay, args=(logs[t], tmp_path / f"{t}.jsonl", stop_at, gates[t])
        )
        w.start()
        writers.append(w)
    try:
        wait_for(lambda: (tmp_path / "holdem.jsonl").exists(), 30, "the first log")
        for t in tables:
            start_bridge(t)
        time.sleep(0.3)
        for round_ in range(2):
            kill = rng.random() < 0.5 if round_ == 0 else True
            m.stop(kill=kill)  # gone mid-game: the tables log on
            for g in gates.values():
                g.set()
            time.sleep(0.5)
            for g in gates.values():
                g.clear()
            if round_ == 1:  # a bridge dies too, and comes back from its cursor
                bridges["pocha"].stop.set()
                threads[tables.index("pocha")].join(10)
                start_bridge("pocha")
            m.start()
            time.sleep(0.5)
        for g in gates.values():
            g.set()
        for w in writers:
            w.join(60)
        whole = {
            t: shown(fold_log(tmp_path / f"{t}.jsonl", t, bridges[t].epoch).to_dict())
            for t in tables
        }

        def caught_up() -> bool:
            return all(
                (st := feed.table(t)) is not None and st.line == whole[t]["line"] for t in tables
            )

        wait_for(caught_up, 60, "every line at the scoreboard")
        time.sleep(0.5)  # the last retained states
        for t in tables:
            assert shown(feed.table(t).to_dict()) == whole[t], t
        finished = sum(len(w["finished"]) for w in whole.values())
        recorded = league.results()
        assert len(recorded) == finished
        published = sum(b.published for b in every)
        assert all(b.connections >= 2 for b in bridges.values() if b is not bridges["pocha"])
        lines = sum(w["line"] for w in whole.values())
        REPORT.append(
            f"club broker outage: {len(tables)} tables, broker stopped then killed mid-game,"
            f" a bridge restarted: {lines} lines, {published} published ({published - lines}"
            f" again after reconnections), holes healed {feed.club.holes}, 0 lost,"
            f" {len(recorded)} results recorded once"
        )
    finally:
        for g in gates.values():
            g.set()
        for b in bridges.values():
            b.stop.set()
        for th in threads:
            th.join(10)
        feed.stop()
        m.stop()


def test_fold_never_fails_on_events_out_of_place(logs):
    """Lines of every game, shuffled, dropped and mixed (a log after losses, a board's odd
    events): the fold goes on and its state stays plain JSON, and each game's move list says
    each event or leaves it out (its `said`, called without the state's guard), for every
    seed."""
    pool = [ev for path in logs.values() for _, ev in events_of(path)]
    rng = random.Random(11)
    errors = 0
    for _ in range(200):
        st = TableState("t")
        picks = rng.sample(pool, 300)
        for n, ev in enumerate(picks, 1):
            if st.feed(n, ev) and st.fold is not None:
                said = st.fold.said(ev["type"], ev, lambda seat: f"<{seat}>")
                assert said is None or isinstance(said, str), (ev, said)
        json.dumps(st.to_dict())
        errors += "fold_error" in st.view
    REPORT.append(f"club fold fuzz: 200 x 300 shuffled events of 3 games, {errors} said not shown")
    assert errors == 0  # the fold's own guard is for the unforeseen, not for events out of place


def test_plateau_sim_publishes_its_log_with_mqtt(tmp_path):
    """`plateau sim SCRIPT --log F --mqtt HOST:PORT --table T` (as `plateau log`): the log
    goes to the broker as it is written, and all of it before the command ends."""
    import subprocess
    import sys

    from clubkit import PASSWORD, script

    m = start_broker(tmp_path / "broker", ["w1"])
    feed = ClubFeed(broker_for(m, "club"))
    try:
        (tmp_path / "w.table").write_text(script("weykick", 4))
        (tmp_path / "pw").write_text(PASSWORD.format("w1"))
        log = tmp_path / "w.jsonl"
        subprocess.run(
            [sys.executable, "-m", "plateau", "sim", str(tmp_path / "w.table"), "--json"]
            + ["--log", str(log), "--mqtt", f"127.0.0.1:{m.port}", "--table", "w1"]
            + ["--password-file", str(tmp_path / "pw")],
            check=True,
            stdout=subprocess.DEVNULL,
            timeout=300,
        )
        whole = shown(fold_log(log, "w1", feed.table("w1").epoch).to_dict())
        wait_for(lambda: feed.table("w1").line == whole["line"], 30, "the whole log")
        assert shown(feed.table("w1").to_dict()) == whole
    finally:
        feed.stop()
        m.stop()


def test_blind_structure_and_clock():
    from plateau.club.blinds import StructureError, clock, parse

    levels = parse("# level: small/big minutes\n1/2 10\n2/4   10\nbreak 5\n5/10 15 # last\n")
    assert [lv.words() for lv in levels] == ["1/2", "2/4", "break", "5/10"]
    assert clock(levels, 0) == {
        "level": 1,
        "blinds": "1/2",
        "small": 1,
        "big": 2,
        "left_s": 600.0,
        "next": "2/4",
    }
    assert clock(levels, 601)["blinds"] == "2/4" and clock(levels, 601)["left_s"] == 599.0
    assert clock(levels, 1250)["blinds"] == "break"
    assert clock(levels, 10**7) == {
        "level": 4,
        "blinds": "5/10",
        "small": 5,
        "big": 10,
        "left_s": None,
        "next": None,
    }
    bad_ones = ("", "break 5", "2/1 10", "1/2", "1/2 0", "a/b 3", "1/2 10 extra", "１/2 10")
    for bad in (*bad_ones, "1/3 10", "5/5 10"):  # H2: the big blind is twice the small
        with pytest.raises(StructureError):
            parse(bad)


def test_serve_one_local_log_without_a_broker(logs, tmp_path):
    """`plateau serve --log F --table T`: one table from its log on this machine, no broker;
    the table's state over HTTP is the whole log's, and a line appended shows."""
    import urllib.request

    log = tmp_path / "p.jsonl"
    lines = logs["pocha"].read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join(lines[:-5]))
    with serving(log, "p1", tmp_path / "club.sqlite") as url:

        def shown_line() -> int:
            return table_state(url, "p1").get("state", {}).get("line", 0)

        wait_for(lambda: shown_line() == len(lines) - 5, 30, "the log's lines")
        with open(log, "ab") as f:
            f.write(b"".join(lines[-5:]))
        wait_for(lambda: shown_line() == len(lines), 30, "the appended lines")
        with urllib.request.urlopen(f"{url}api/table/p1") as r:
            got = json.load(r)["state"]
        assert shown(got) == shown(fold_log(log, "p1", got["epoch"]).to_dict())
        with urllib.request.urlopen(f"{url}api/league/pocha") as r:
            assert len(json.load(r)["history"]) == 1  # the match, recorded


def test_bridge_follows_a_log_replaced_under_it(logs, tmp_path):
    """The table's log is replaced by another (a new log at the same path) while its bridge
    runs: the scoreboard drops the old table's state and shows the new log's, from its line 1."""
    m = start_broker(tmp_path / "broker", ["r1"])
    feed = ClubFeed(broker_for(m, "club"))
    path = tmp_path / "r.jsonl"
    path.write_bytes(logs["weykick"].read_bytes())
    b = Bridge(path, "r1", broker_for(m, "r1"))
    th = threading.Thread(target=b.run, daemon=True)
    th.start()
    try:
        first = b.epoch
        wait_for(lambda: (st := feed.table("r1")) is not None and st.game == "weykick", 30, "it")
        new = tmp_path / "new.jsonl"
        new.write_bytes(logs["holdem"].read_bytes())
        os.replace(new, path)
        wait_for(lambda: feed.table("r1").game == "holdem", 30, "the new log")
        assert b.epoch != first
        whole = shown(fold_log(path, "r1", b.epoch).to_dict())
        wait_for(lambda: feed.table("r1").line == whole["line"], 30, "the whole new log")
        assert shown(feed.table("r1").to_dict()) == whole
    finally:
        b.stop.set()
        th.join(10)
        feed.stop()
        m.stop()


def test_broker_setup_refuses_anonymous_and_other_tables_writes(logs, tmp_path):
    """The documented broker: no anonymous client, a table writes its own topics only, the
    scoreboard writes nothing. A table that tries to speak for another is not heard."""
    from plateau.club.mqtt import Broker, topic

    m = start_broker(tmp_path / "broker", ["t1", "t2"])
    feed = ClubFeed(broker_for(m, "club"))
    try:
        anon = Broker("127.0.0.1", m.port).client()
        refused = threading.Event()
        anon.on_connect = lambda c, u, f, rc, p: rc.is_failure and refused.set()
        anon.connect("127.0.0.1", m.port)
        anon.loop_start()
        assert refused.wait(10), "an anonymous client was let in"
        anon.loop_stop()
        n, ev = events_of(logs["pocha"])[0]
        for user in ("t1", "club"):  # t1 and the scoreboard posing as table t2
            c = broker_for(m, user).client()
            c.connect("127.0.0.1", m.port)
            c.loop_start()
            c.publish(topic("t2", "events"), envelope("x", n, 0, ev), qos=1).wait_for_publish(5)
            c.publish(topic("t2", "state"), b"{}", qos=1, retain=True).wait_for_publish(5)
            c.disconnect()
            c.loop_stop()
        log = tmp_path / "t1.jsonl"  # while t1 speaking for itself is heard
        log.write_bytes(logs["pocha"].read_bytes())
        Bridge(log, "t1", broker_for(m, "t1")).run(follow=False)
        wait_for(lambda: feed.table("t1") is not None, 10, "table t1")
        time.sleep(0.5)
        assert feed.table("t2") is None and feed.club.rejected == 0
    finally:
        feed.stop()
        m.stop()
