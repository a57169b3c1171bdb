"""ADV5-19: the club's setup as docs/club.md gives it (`plateau club-broker DIR`, then
`mosquitto -c DIR/mosquitto.conf`) works when run as root (mosquitto 2 then drops to the
`mosquitto` user, which must read the password file and write its log), and a table or a
scoreboard whose broker cannot be reached says so in one line and goes on."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest
from clubkit import need_mosquitto
from simkit import plateau

from plateau.club.broker import free_port, mosquitto
from plateau.club.mqtt import Bridge, Broker, Feed

SCRIPT = "table tock players=2\ncard AH\nmove RC1 R18\nwait 300\n"


def _listening(port: int, proc: subprocess.Popen, timeout: float = 20.0) -> str | None:
    """None once the broker listens; what it said if it exited."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if proc.poll() is not None:
            return proc.stderr.read().decode() if proc.stderr else "exited"
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return None
        except OSError:
            time.sleep(0.1)
    return f"not listening on {port} after {timeout} s"


def test_the_documented_setup_starts_and_takes_a_table():
    """club-broker then `mosquitto -c` as the doc says, as whoever runs the tests (root on
    CI: the broker drops to the mosquitto user); a table then publishes to it."""
    need_mosquitto()
    top = Path(tempfile.mkdtemp(dir="/tmp", prefix="plateau-club-"))
    top.chmod(0o755)  # a folder the broker's user may reach, as /etc/mosquitto or /srv are
    port = free_port()
    broker_dir = top / "broker"
    done = plateau("club-broker", broker_dir, "--tables", "t1", "--port", port)
    assert done.returncode == 0, done.stderr
    proc = subprocess.Popen(
        [mosquitto(), "-c", str(broker_dir / "mosquitto.conf")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        said = _listening(port, proc)
        assert said is None, f"mosquitto -c as docs/club.md says: {said}"
        log = top / "t1.jsonl"
        done = plateau(
            "sim", *_table(top), "--log", log, "--mqtt", f"127.0.0.1:{port}", "--table", "t1",
            "--password-file", broker_dir / "t1.password",
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert "unreachable" not in done.stderr and "refused" not in done.stderr, done.stderr
        cursor = json.loads(Path(f"{log}.bridge-t1").read_text())
        assert cursor["line"] == len(log.read_text().splitlines()) > 3, cursor  # all published
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(top, ignore_errors=True)


def _table(folder: Path) -> list[Path]:
    t = folder / "t.table"
    t.write_text(SCRIPT)
    return [t]


@pytest.mark.skipif(os.geteuid() != 0, reason="the check is for a broker started as root")
def test_a_folder_the_broker_user_cannot_reach_is_refused(tmp_path):
    """tmp_path is under /tmp/pytest-of-root (700): the mosquitto user cannot pass it."""
    try:
        import pwd

        pwd.getpwnam("mosquitto")
    except KeyError:
        pytest.skip("no mosquitto user on this machine (Debian's mosquitto package makes it)")
    need_mosquitto()
    done = plateau("club-broker", tmp_path / "broker", "--tables", "t1")
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert "cannot reach" in done.stderr and "/etc/mosquitto" in done.stderr, done.stderr


def test_sim_with_its_broker_down_says_so_once_and_logs_on(tmp_path):
    port = free_port()  # nothing listens there
    pw = tmp_path / "t1.password"
    pw.write_text("secret\n")
    log = tmp_path / "l.jsonl"
    done = plateau(
        "sim", *_table(tmp_path), "--log", log, "--mqtt", f"127.0.0.1:{port}", "--table", "t1",
        "--password-file", pw,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = [ln for ln in done.stderr.splitlines() if "unreachable" in ln]
    assert len(lines) == 1 and f"127.0.0.1:{port}" in lines[0], done.stderr
    assert len(log.read_text().splitlines()) > 3  # the table was logged all the same


def test_a_feed_with_its_broker_down_says_so_once():
    said: list[str] = []
    feed = Feed(Broker.parse(f"127.0.0.1:{free_port()}"), lambda *a: None, say=said.append)
    feed.start()
    try:
        t0 = time.monotonic()
        while time.monotonic() - t0 < 20 and not said:
            time.sleep(0.1)
        time.sleep(3)  # a few retries more: still one line
    finally:
        feed.stop()
    assert len(said) == 1 and "unreachable" in said[0], said


def test_a_bridge_says_unreachable_once_per_outage(tmp_path):
    log = tmp_path / "l.jsonl"
    log.write_text("")
    said: list[str] = []
    bridge = Bridge(log, "t1", Broker.parse(f"127.0.0.1:{free_port()}"), say=said.append)
    thread = threading.Thread(target=bridge.run, daemon=True)
    thread.start()
    time.sleep(4)  # several attempts (0.2 s, doubling to 2 s)
    bridge.stop.set()
    thread.join(10)
    assert len(said) == 1 and "unreachable" in said[0], said
