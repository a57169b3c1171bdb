"""The scoreboard drives a stand-alone table (issue 30 point 2; club/control.py): a simulated
table on Wi-Fi (`plateau sim --wifi`, the firmware under MicroPython) publishing to a real
Mosquitto on 127.0.0.1 with `plateau club-broker`'s ACL, `plateau serve` with a database and
the operator's token, and the operator's page in headless chromium. From the page: a game
started with its settings and its seats named, clicked twice at once (the same write); a
game started across a broker restart; pause, resume, a pause refused by the table. Each
reaches the table once: counted in the table's own events (its USB log, `plateau sim
--log`). The names reach the league and the page. Every write is in the SQLite file with who,
when, what and the table's answer. Refusals over HTTP: a table never heard, a table bridged
from a laptop, a table offline, a word the game does not take, settings the checker refuses,
names of seats the game has not, settings the table refuses (its answer)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from clubkit import PASSWORD, scoreboard, start_broker, wait_for

from plateau.logger import read_log

TOKEN = "drive-the-tables-0123456789"


def http(url: str, path: str, body: dict | None = None, token: str | None = TOKEN):
    """(status, JSON) of a request to the scoreboard."""
    req = urllib.request.Request(
        url + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"}
        | ({"Authorization": f"Bearer {token}"} if token else {}),
        method="GET" if body is None else "POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        raw = e.read()
        try:
            return e.code, json.loads(raw)
        except ValueError:  # aiohttp's own refusals (a wrong token: 401) are text
            return e.code, {"text": raw.decode(errors="replace")}


class Rig:
    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.m = start_broker(tmp / "broker", ["t1", "t2"])
        (tmp / "t1.password").write_text(PASSWORD.format("t1"))
        game = tmp / "game.table"
        game.write_text("table weykick\nwait 900000\n")
        self.log = tmp / "t1.jsonl"
        self.sim = subprocess.Popen(
            [sys.executable, "-m", "plateau", "sim", str(game), "--realtime", "--json"]
            + ["--log", str(self.log), "--wifi", f"127.0.0.1:{self.m.port}", "--table", "t1"]
            + ["--password-file", str(tmp / "t1.password")],
            stdout=subprocess.DEVNULL,
            stderr=open(tmp / "sim.err", "w"),  # noqa: SIM115
        )
        token = tmp / "token"
        token.write_text(TOKEN)
        os.chmod(token, 0o600)
        self.db = tmp / "club.sqlite"
        self._serve = scoreboard(self.m, tmp, "--db", str(self.db), "--token-file", str(token))
        self.url, self.serve = self._serve.__enter__()

    def table(self, name: str = "t1") -> dict:
        _, d = http(self.url, "api/control")
        return next((t for t in d.get("tables", []) if t["table"] == name), {})

    def events(self, kind: str) -> list[dict]:
        """The table's own numbered events of a kind (its USB log), each once by boot+seq."""
        seen = {}
        for _, ev, _ in read_log(self.log):
            if ev and ev.get("type") == kind and "seq" in ev:
                seen[(ev["boot"], ev["seq"])] = ev
        return list(seen.values())

    def close(self) -> None:
        self.sim.terminate()
        try:
            self.sim.wait(20)
        except subprocess.TimeoutExpired:
            self.sim.kill()
        self._serve.__exit__(None, None, None)
        self.m.stop()


@pytest.fixture(scope="module")
def rig(tmp_path_factory):
    r = Rig(tmp_path_factory.mktemp("drive"))
    try:
        wait_for(lambda: r.table().get("takes") and r.table().get("live"), 120,
                 "the stand-alone table to be online at the scoreboard")  # fmt: skip
        wait_for(lambda: r.table().get("game") == "weykick", 60, "its game at the scoreboard")
        yield r
    finally:
        r.close()


def test_a_quiet_table_stays_live(rig):
    """A stand-alone table with nothing to say says it is there every 5 s (its presence),
    as a bridge does: 17 s without an event, it is still live, and driven."""
    time.sleep(17)
    assert rig.table()["live"], rig.table()
    ok, d = http(rig.url, "api/table/t1/command", {"cmd": "undo"})  # no goal yet: refused
    assert ok == 200 and d["write"]["status"] == "refused", d


def test_refusals_are_clear_and_recorded(rig):
    url = rig.url
    # a bridged table (a laptop's presence, no commands) heard by the scoreboard
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="t2-bridge")
    c.username_pw_set("t2", PASSWORD.format("t2"))
    c.connect("127.0.0.1", rig.m.port)
    c.loop_start()
    c.publish(
        "plateau/t2/presence", json.dumps({"online": True, "since": 1.0}), 1, True
    ).wait_for_publish(5)
    wait_for(lambda: rig.table("t2").get("table") == "t2", 30, "t2 at the scoreboard")
    cases = [
        ("nobody", {"cmd": "undo"}, 404, "no table nobody has published"),
        ("t2", {"cmd": "undo"}, 409, "bridged from a laptop"),
        ("t1", {"cmd": "fly"}, 400, "the scoreboard sends a table new, undo, pause, resume"),
        ("t1", {"cmd": "new", "game": "tock", "settings": {"players": 9}}, 400,
         "players must be a whole number from 2 to 4"),
        ("t1", {"cmd": "new", "game": "tock", "settings": {"players": 2},
                "names": {"R": "Ana"}}, 400, "has the seats R+B, G+Y, not R"),
        ("t1", {"cmd": "new", "game": "tock", "names": {"R": "Ana", "G": "Ana"}}, 400,
         "is named twice"),
        ("t1", {"cmd": "new", "game": "chess"}, 400, "unknown game"),
        ("t1", {"cmd": "new", "game": "weykick", "names": {"A": "A\u200bna"}}, 400,
         "invisible characters"),
    ]  # fmt: skip
    for table, body, status, why in cases:
        got, d = http(url, f"api/table/{table}/command", body)
        assert (got, d.get("ok")) == (status, False) and why in d["why"], (body, got, d)
    got, _ = http(url, "api/table/t1/command", {"cmd": "undo"}, token="wrong-token-here")
    assert got == 401
    c.publish("plateau/t2/presence", json.dumps({"online": False}), 1, True).wait_for_publish(5)
    c.loop_stop()
    c.disconnect()
    # a stand-alone table offline: refused while the broker is down, in the test below
    # the table's own refusal: Pocha for 3 kept, then a dealer only 4 players have
    ok, d = http(url, "api/table/t1/command", {"cmd": "new", "game": "pocha",
                                              "settings": {"players": 3}})  # fmt: skip
    assert ok == 200 and d["write"]["status"] == "done", d
    ok, d = http(url, "api/table/t1/command", {"cmd": "new", "game": "pocha",
                                              "settings": {"dealer": "4"}})  # fmt: skip
    assert ok == 200 and d["write"]["status"] == "refused", d
    assert "dealer must be a seat from 1 to 3" in d["write"]["why"], d
    ok, d = http(url, "api/table/t1/command", {"cmd": "pause"})  # Pocha takes no pause
    assert ok == 400 and "unknown command 'pause' for pocha" in d["why"], d
    with sqlite3.connect(rig.db) as db:
        rows = db.execute("select who, tbl, command, status, why from club_commands").fetchall()
    statuses = [r[3] for r in rows]
    assert statuses.count("not sent") >= len(cases) - 0 and "refused" in statuses, rows
    assert all(r[0].startswith("operator (127.0.0.1)") for r in rows), rows


def browser():
    from test_club_browser import browser as chromium

    return chromium()


def test_games_started_and_seats_named_from_the_page_reach_the_table_once(rig):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        pytest.skip("chromium or chromedriver missing (apt-get install chromium chromium-driver)")
    url = rig.url
    d = browser()
    try:
        d.get(url + "operator")
        d.find_element(By.ID, "token").send_keys(TOKEN)
        d.find_element(By.ID, "by").send_keys("Rosa")
        d.execute_script(
            "document.getElementById('token').dispatchEvent(new Event('change', {bubbles: true}))"
        )
        form = 'div.control[data-table="t1"] form.start'
        wait_for(lambda: d.find_elements(By.CSS_SELECTOR, form), 30, "the table's start form")

        def start(game: str, settings: dict, names: dict, clicks: int = 1) -> None:
            f = d.find_element(By.CSS_SELECTOR, form)
            Select(f.find_element(By.NAME, "game")).select_by_value(game)
            for k, v in settings.items():
                i = f.find_element(By.CSS_SELECTOR, f'[data-setting="{k}"]')
                if i.tag_name == "select":
                    Select(i).select_by_value(str(v))
                else:
                    i.clear()
                    i.send_keys(str(v))
                d.execute_script(
                    "arguments[0].dispatchEvent(new Event('change', {bubbles: true}))", i
                )
            want = sorted(names)

            def fields() -> list[str]:
                got = f.find_elements(By.CSS_SELECTOR, "input[data-seat]")
                return sorted(i.get_attribute("data-seat") for i in got)

            wait_for(lambda: fields() == want, 20, f"the seats {want} on the form")
            time.sleep(0.5)  # (no answer about the seats still on its way)
            for seat, who in names.items():
                i = f.find_element(By.CSS_SELECTOR, f'input[data-seat="{seat}"]')
                i.clear()
                i.send_keys(who)
            button = f.find_element(By.CSS_SELECTOR, 'button[data-word="new"]')
            for _ in range(clicks):  # a double click: the same key, the same write
                button.click()

        said = 'p.said[data-table="t1"]'

        def status() -> str:
            return d.find_element(By.CSS_SELECTOR, said).get_attribute("data-status") or ""

        # Tock for two, seats named, the button clicked twice at once
        names = {"R+B": "Ana", "G+Y": "Luis"}
        d.execute_script(f"document.querySelector('{said}').dataset.status = ''")
        start("tock", {"players": 2, "rules": "classic"}, names, clicks=2)
        wait_for(lambda: status() == "done", 60, "the table's answer on the page")
        wait_for(lambda: rig.table().get("game") == "tock", 30, "the scoreboard to see Tock")
        # clicked again once answered, the form unchanged: the same write, answered again
        d.find_element(By.CSS_SELECTOR, f'{form} button[data-word="new"]').click()
        wait_for(
            lambda: "the same click again" in d.find_element(By.CSS_SELECTOR, said).text,
            30,
            "the page to say it was the same write",
        )
        tock = [e for e in rig.events("game") if e.get("game") == "tock"]
        seated = rig.events("seated")
        assert len(tock) == 1 and [e["names"] for e in seated] == [names], (tock, seated)
        _, page = http(url, "api/table/t1")
        assert {k: page["players"].get(k) for k in names} == names, page["players"]

        # Weykick, its sides named, across a broker restart: clicked, the broker stopped at
        # once and started again; the scoreboard sends it again with its id until answered
        names2 = {"A": "Zoë", "B": "Ama K."}
        start("weykick", {"mode": "first-to:5"}, names2)
        rig.m.stop(kill=True)  # at once: the write on its way, or not yet sent
        time.sleep(1.5)
        got, off = http(url, "api/table/t1/command", {"cmd": "undo"})
        assert got == 409 and "t1 is offline" in off["why"], off
        rig.m.start()
        wait_for(lambda: rig.table().get("game") == "weykick", 90, "Weykick at the scoreboard")
        try:
            wait_for(lambda: len(rig.events("seated")) >= 2, 60, "the sides named in the log")
        except AssertionError as e:
            raise AssertionError(
                f"{e}: {rig.events('seated')}; {http(url, 'api/control')[1]['writes'][:3]}"
            ) from None
        assert len(rig.events("seated")) == 2, rig.events("seated")
        wk = [e for e in rig.events("game") if e.get("game") == "weykick"]
        assert len(wk) == 1 and rig.events("seated")[-1]["names"] == names2, wk
        wait_for(lambda: http(url, "api/table/t1")[1]["players"].get("A") == "Zoë", 30,
                 "the names at the scoreboard")  # fmt: skip
        # the Tock seats' names freed (this table's seats now are Weykick's)
        assert "R+B" not in http(url, "api/table/t1")[1]["players"]

        wait_for(lambda: rig.table().get("live"), 60, "the table live again at the scoreboard")
        # pause, pause again (the table refuses: its words shown), resume
        words = 'div.control[data-table="t1"] span.words button[data-word="{}"]'
        wait_for(lambda: d.find_elements(By.CSS_SELECTOR, words.format("pause")), 30, "pause")
        for word, want in (("pause", "done"), ("pause", "refused"), ("resume", "done")):
            time.sleep(2.5)  # a second press, not a double click (the page's REPEAT_MS)
            d.execute_script(f"document.querySelector('{said}').dataset.status = ''")
            d.find_element(By.CSS_SELECTOR, words.format(word)).click()
            try:
                wait_for(lambda want=want: status() == want, 60, f"{word}: {want}")
            except AssertionError as e:
                raise AssertionError(
                    f"{e}; the page says {d.find_element(By.CSS_SELECTOR, said).text!r};"
                    f" {http(url, 'api/control')[1]['writes'][:4]}; {rig.events('pause')}"
                ) from None
            if want == "refused":  # the table's own words, on the page
                text = d.find_element(By.CSS_SELECTOR, said).text
                assert "the table refused: the match is not running" in text, text
        assert len(rig.events("pause")) == 1 and len(rig.events("resume")) == 1
    finally:
        d.quit()
    # every write in the file: who, when, what, how often it went, the table's answer
    with sqlite3.connect(rig.db) as db:
        rows = db.execute(
            "select who, at, command, status, sent, answered from club_commands"
            " where status != 'not sent' order by id"
        ).fetchall()
        audit = db.execute("select who, action, tbl from club_audit order by id").fetchall()
    sent = [(json.loads(r[2])["cmd"], r[3]) for r in rows if r[0].startswith("Rosa")]
    assert sent[-5:] == [("new", "done"), ("new", "done"), ("pause", "done"),
                         ("pause", "refused"), ("resume", "done")], rows  # fmt: skip
    assert all(r[1] and r[5] and r[4] >= 1 for r in rows), rows
    assert ("table t1", "answer", "t1") in audit and any(a[1] == "name" for a in audit), audit


def test_plateau_send_reads_names_as_the_board_does():
    """`plateau send new tock players=2 names=R+B=Ana,G+Y=Luis`: the names typed by the
    link's own checker (the board's), a wrong form refused before anything is sent."""
    from plateau.commands.board import _new

    assert _new(["new", "tock", "players=2", "names=R+B=Ana,G+Y=Luis"]) == {
        "cmd": "new",
        "game": "tock",
        "players": 2,
        "names": {"R+B": "Ana", "G+Y": "Luis"},
    }
    for bad, why in (("names=R", "SEAT=NAME"), ("names=R=Ana,B=Ana", "named twice")):
        with pytest.raises(ValueError, match=why):
            _new(["new", "tock", bad])
