"""`plateau sim SCRIPT --wifi HOST:PORT --table T` (issue 30): a simulated stand-alone table,
set up over its USB link with the `wifi` command, publishes its whole game straight to a real
Mosquitto (the club-broker ACL: the table writes its own topics only); a scoreboard fed from
the broker (plateau serve's Club) ends where the USB log's fold ends, and neither the log nor
what the command printed holds the broker password."""

from __future__ import annotations

import json
import subprocess
import sys

from clubkit import PASSWORD, ClubFeed, broker_for, script, start_broker, wait_for

from plateau.club.broker import READER
from plateau.club.state import fold_log
from plateau.logger import read_log


def test_a_simulated_table_on_wifi_publishes_its_game_to_the_broker(tmp_path):
    m = start_broker(tmp_path / "broker", ["t1"])
    feed = ClubFeed(broker_for(m, READER))
    try:
        game = tmp_path / "game.table"
        game.write_text(script("weykick", 3))
        secret = tmp_path / "t1.password"
        secret.write_text(PASSWORD.format("t1"))
        log = tmp_path / "t1.jsonl"
        done = subprocess.run(
            [sys.executable, "-m", "plateau", "sim", str(game), "--json", "--log", str(log)]
            + ["--wifi", f"127.0.0.1:{m.port}", "--table", "t1", "--password-file", str(secret)],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        ref = fold_log(log, "t1").summary()
        assert ref.get("game") == "weykick" and ref.get("winner") is not None, ref

        def agrees() -> bool:
            st = feed.table("t1")
            seen = st.summary() if st else {}
            return all(seen.get(k) == ref.get(k) for k in ("game", "winner", "score"))

        wait_for(agrees, 60, "the scoreboard to show what the USB log shows")
        logged = [ev for _, ev, _ in read_log(log) if ev]
        wifi = [ev for ev in logged if ev.get("type") == "wifi"]
        assert wifi and wifi[0]["connected"] and wifi[0]["broker"] == f"127.0.0.1:{m.port}"
        for text in (log.read_text(), done.stdout, done.stderr):
            assert PASSWORD.format("t1") not in text
        assert "sim-" not in json.dumps(wifi)  # the simulated network's password
    finally:
        feed.stop()
        m.stop()


def test_a_bad_broker_or_table_name_or_mqtt_beside_it_is_refused_in_one_line(tmp_path):
    game = tmp_path / "game.table"
    game.write_text("table weykick\n")
    log = str(tmp_path / "t.jsonl")
    for extra in (
        ["--wifi", "127.0.0.1:99999"],
        ["--wifi", "h:1", "--table", "t/1"],
        ["--wifi", "h:1", "--mqtt", "h:1", "--log", log],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "plateau", "sim", str(game), *extra],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2, (extra, done.stderr)
        assert "--wifi" in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_plateau_wifi_sets_a_table_up_and_selftest_says_where_it_stands(tmp_path):
    """`plateau wifi` over the USB port, the passwords from files; `plateau selftest` then
    shows the network, the broker connected and the backlog, and no output holds a password."""
    from plateau.sim import Firmware

    m = start_broker(tmp_path / "broker", ["t1"])
    script = tmp_path / "s.table"
    script.write_text("table weykick\nwait 60000\n")
    wpa = "wpa-" + "x7" * 6
    fw = Firmware(script, "--wait-host", "--realtime", "--net", "club-net", wpa)
    try:
        (tmp_path / "wpa").write_text(wpa + "\n")
        (tmp_path / "pw").write_text(PASSWORD.format("t1"))
        done = subprocess.run(
            [sys.executable, "-m", "plateau", "wifi", "--port", fw.port, "--ssid", "club-net"]
            + ["--broker", f"127.0.0.1:{m.port}", "--table", "t1"]
            + ["--wifi-password-file", str(tmp_path / "wpa")]
            + ["--password-file", str(tmp_path / "pw"), "--timeout", "10"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0 and "done: wifi set up" in done.stdout, done
        outs = [done.stdout + done.stderr]
        report = ""
        for _ in range(20):  # the station's join (2 s modeled), then the broker
            st = subprocess.run(
                [sys.executable, "-m", "plateau", "selftest", "--port", fw.port],
                capture_output=True,
                text=True,
                timeout=60,
            )
            outs.append(st.stdout + st.stderr)
            report = st.stdout
            if "broker" in report and " connected," in report:
                break
        assert f"wifi: table t1, network joined, signal -58 dBm, broker 127.0.0.1:{m.port}" in (
            report
        ), report
        assert " connected, backlog" in report, report
        for text in outs:
            assert wpa not in text and PASSWORD.format("t1") not in text
    finally:
        fw.stop()
        m.stop()
