"""TLS between a stand-alone table and the club's broker (issue 30): a CA and the broker's
certificate made by openssl for the run, a Mosquitto whose only listener speaks TLS (and
club-broker's ACL), and a simulated table (`plateau sim --wifi --ca`, the firmware under the
MicroPython unix port, whose `ssl` is mbedtls) handed the CA over its USB link in parts, as
`plateau wifi --ca` hands it: it checks the broker's certificate and publishes its whole
game over TLS. With another CA it does not connect, says why in a `wifi` event, and never
falls back to plain MQTT. `plateau wifi --ca` refuses a file that is no certificate in one
line."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from clubkit import PASSWORD, need_mosquitto, script
from mqttcampaign import tls_files

from plateau.club.broker import READER, Mosquitto
from plateau.logger import read_log

needs_openssl = pytest.mark.skipif(
    shutil.which("openssl") is None,
    reason="openssl is missing (Debian: apt-get install openssl): it makes the run's CA",
)


def tls_broker(folder: Path, cert: Path, key: Path) -> Mosquitto:
    need_mosquitto()
    m = Mosquitto(folder, {"t1": PASSWORD.format("t1"), READER: PASSWORD.format(READER)})
    text = m.conf.read_text().replace(
        f"listener {m.port} 127.0.0.1\n",
        f"listener {m.port} 127.0.0.1\ncertfile {cert}\nkeyfile {key}\n",
    )
    m.conf.write_text(text)
    m.start()
    return m


def sim(
    tmp: Path, m: Mosquitto, ca: Path, game: str, *extra: str
) -> tuple[subprocess.CompletedProcess, list]:
    (tmp / "game.table").write_text(game)
    (tmp / "t1.password").write_text(PASSWORD.format("t1"))
    log = tmp / "t1.jsonl"
    log.unlink(missing_ok=True)
    done = subprocess.run(
        [sys.executable, "-m", "plateau", "sim", str(tmp / "game.table"), "--json"]
        + ["--log", str(log), "--wifi", f"127.0.0.1:{m.port}", "--table", "t1"]
        + ["--password-file", str(tmp / "t1.password"), "--ca", str(ca), *extra],
        capture_output=True,
        text=True,
        timeout=300,
    )
    return done, [ev for _, ev, _ in read_log(log) if ev] if log.exists() else []


@needs_openssl
def test_a_table_handed_the_ca_publishes_over_tls_and_refuses_another(tmp_path):
    pytest.importorskip("paho.mqtt")
    certs = tmp_path / "certs"
    certs.mkdir()
    _, cert, key = tls_files(certs)
    other = tmp_path / "other"
    other.mkdir()
    tls_files(other)  # another CA, for a broker the table must not trust
    m = tls_broker(tmp_path / "broker", cert, key)
    try:
        done, events = sim(tmp_path, m, certs / "ca.pem", script("weykick", 4))
        assert done.returncode == 0, done.stderr[-2000:]
        wifi = [e for e in events if e.get("type") == "wifi"]
        assert wifi and wifi[0]["connected"] is True, wifi
        ends = [e for e in events if e.get("type") == "match_end"]
        assert ends and events[-1].get("seq") is not None
        # every event acknowledged by the broker over TLS: the simulator stays on until then
        # (sim/run.py: published()) and its last wifi event says the backlog is out
        assert PASSWORD.format("t1") not in json.dumps(events) + done.stdout + done.stderr

        # (--realtime: 8 s for the station's join and the broker's certificate refused)
        bad, events = sim(tmp_path, m, other / "ca.pem", "table weykick\nwait 8000\n", "--realtime")
        wifi = [e for e in events if e.get("type") == "wifi"]
        assert wifi and not any(e["connected"] for e in wifi), wifi
        assert any("TLS" in e.get("why", "") for e in wifi), wifi
    finally:
        m.stop()


def test_plateau_wifi_ca_refuses_what_is_no_certificate(tmp_path):
    for text in (b"hello", b"-----BEGIN CERTIFICATE-----\n@@@\n-----END CERTIFICATE-----\n"):
        f = tmp_path / "ca.pem"
        f.write_bytes(text)
        done = subprocess.run(
            [sys.executable, "-m", "plateau", "wifi", "--port", "/dev/null", "--ca", str(f)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2 and "--ca" in done.stderr, done
        assert "Traceback" not in done.stderr


@needs_openssl
def test_plateau_wifi_ca_sets_a_table_up_for_tls_and_selftest_says_so(tmp_path):
    """`plateau wifi ... --ca ca.pem` over the USB port (the CA in parts, each answered),
    then `plateau selftest`: the broker over TLS, connected."""
    from plateau.sim import Firmware

    certs = tmp_path / "certs"
    certs.mkdir()
    _, cert, key = tls_files(certs)
    m = tls_broker(tmp_path / "broker", cert, key)
    script = tmp_path / "s.table"
    script.write_text("table weykick\nwait 60000\n")
    wpa = "wpa-" + "k9" * 6
    fw = Firmware(script, "--wait-host", "--realtime", "--net", "club-net", wpa)
    try:
        (tmp_path / "wpa").write_text(wpa + "\n")
        (tmp_path / "pw").write_text(PASSWORD.format("t1"))
        done = subprocess.run(
            [sys.executable, "-m", "plateau", "wifi", "--port", fw.port, "--ssid", "club-net"]
            + ["--broker", f"127.0.0.1:{m.port}", "--table", "t1", "--ca", str(certs / "ca.pem")]
            + ["--wifi-password-file", str(tmp_path / "wpa")]
            + ["--password-file", str(tmp_path / "pw"), "--timeout", "10"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done
        assert "done: wifi set up" in done.stdout and "CA, part 1 of" in done.stdout, done.stdout
        report = ""
        for _ in range(20):  # the station's join (2 s modeled), then the broker over TLS
            st = subprocess.run(
                [sys.executable, "-m", "plateau", "selftest", "--port", fw.port],
                capture_output=True,
                text=True,
                timeout=60,
            )
            report = st.stdout
            if " connected," in report:
                break
        assert f"broker 127.0.0.1:{m.port} over TLS connected" in report, report
    finally:
        fw.stop()
        m.stop()
