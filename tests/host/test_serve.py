"""`plateau sim --serve`: the simulated table on a port of its own, and the tools a person
uses on a board run against it as they would on /dev/ttyUSB0: send, selftest, log,
calibrate. Waits here are for events (with generous deadlines for a loaded machine), never
for a time to pass."""

import json
import os
import select
import signal
import subprocess
import sys
import time

import pytest

from plateau.board_tools import judge


def plateau(*args, timeout=120, **kw):
    return subprocess.run(
        [sys.executable, "-m", "plateau", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        **kw,
    )


class Serving:
    """`plateau sim --serve [SCRIPT]` in the background; `port` from its first line."""

    def __init__(self, *args):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "plateau", "sim", "--serve", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        ready, _, _ = select.select([self.proc.stdout], [], [], 120)
        assert ready, "plateau sim --serve said nothing in 120 s"
        line = self.proc.stdout.readline()
        assert "serving a simulated table on /dev/" in line, line + self.proc.stderr.read()
        self.port = line.split(" on ")[1].split(":")[0]

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(60)
        self.proc.stdout.close()
        self.proc.stderr.close()
        return code


@pytest.fixture
def idle():
    s = Serving()
    yield s
    assert s.stop() == 0


def test_send_selftest_and_log_on_an_idle_served_table(idle, tmp_path):
    done = plateau("send", "--port", idle.port, "snapshot")
    assert done.returncode == 0, done.stderr
    snap = json.loads(done.stdout.splitlines()[0])
    assert snap["type"] == "snapshot" and snap["game"] == "tock"
    done = plateau("send", "--port", idle.port, "new", "tock", "players=2")
    assert done.returncode == 0 and "done: new tock players=2" in done.stdout, done.stderr
    done = plateau("send", "--port", idle.port, "undo")
    assert done.returncode == 1 and "refused" in done.stdout  # nothing to undo: the board said
    done = plateau("selftest", "--port", idle.port)
    assert "reader: ok" in done.stdout and "sensor chain: ok" in done.stdout, done.stderr
    assert done.returncode == (0 if "all good" in done.stdout else 1)
    # plateau log, started after the `new` (found by --port auto through PLATEAU_PORT):
    # the table resends what the log missed
    log, db = tmp_path / "t.jsonl", tmp_path / "t.sqlite"
    env = dict(os.environ, PLATEAU_PORT=idle.port)
    logger = subprocess.Popen(
        [sys.executable, "-m", "plateau", "log", "--log", str(log), "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and '"seq":1,' not in _read(log):
            time.sleep(0.2)
    finally:
        logger.send_signal(signal.SIGTERM)
        out, err = logger.communicate(timeout=60)
    assert logger.returncode == 0, err
    evs = [json.loads(line) for line in _read(log).splitlines()]
    game = [e for e in evs if e.get("type") == "game"]
    assert game and game[0]["seq"] == 1 and game[0]["position"]["players"] == 2, evs
    assert "heartbeat" not in out  # hidden in the live view; counted when it stops
    assert "heartbeats" in err


def _read(path):
    return path.read_text() if path.exists() else ""


def test_calibrate_on_a_served_script_skips_an_empty_square(tmp_path):
    # the script plays from calibrate's hello: a pawn on R1, then on R3 where R2 is asked
    # for (the map calls that sensor R2's: a mismatch), then none where R5 is asked for: it
    # is skipped after --timeout
    script = tmp_path / "c.table"
    script.write_text(
        "table tock players=4\nwait 1500\nlift RC1\nplace R1\nwait 500\nlift R1\nplace R3\n"
    )
    s = Serving(str(script))
    out = tmp_path / "sensors.json"
    try:
        done = plateau(
            "calibrate",
            "--port",
            s.port,
            "--squares",
            "R1,R2,R5",
            "--write",
            str(out),
            "--timeout",
            "10",
        )
    finally:
        assert s.stop() == 0
    assert "[1/3] put a pawn on R1" in done.stdout and "[3/3]" in done.stdout
    assert "R1: bit 0 ok" in done.stdout
    assert "R5: no pawn seen within 10 s; skipped" in done.stdout
    assert "MISMATCH R2: seen by chain bit 2" in done.stdout
    assert "1 ok, 1 mismatched, 1 skipped (R5)" in done.stdout
    assert done.returncode == 1
    assert json.loads(out.read_text())["bits"][2] == "R2"  # written despite the skip


def test_serve_refuses_a_bad_script_before_serving(tmp_path):
    bad = tmp_path / "bad.table"
    bad.write_text("table tock\nplace R19\n")
    done = plateau("sim", "--serve", str(bad))
    assert done.returncode == 2 and "line 2" in done.stderr


def test_selftest_is_honest_about_the_scan_rate():
    good = {"reader": "ok", "chain": "ok", "scan_hz": 199}
    lines, ok = judge(good)
    assert ok and lines[-1] == "selftest: all good"
    for bad in (
        {**good, "scan_hz": 0},
        {**good, "scan_hz": None},
        {**good, "reader": "no answer"},
        {**good, "chain": "broken at byte 3"},
        {**good, "on_unexpected": ["G7"]},
    ):
        lines, ok = judge(bad)
        assert not ok and lines[-1].startswith("selftest: problems"), bad
        assert not any("all good" in line for line in lines)


def test_enrol_says_each_uid_and_writes_the_registry(tmp_path):
    # tags laid 5 s of table time apart (a served table's time runs no faster than the
    # clock): the host has each enrol command in place long before the next tag comes
    script = tmp_path / "e.table"
    script.write_text(
        "table pocha players=4\nwait 2000\ntag 04A1B2C3\nwait 5000\ntag 04D4E5F6\nwait 5000\n"
    )
    out = tmp_path / "tags.json"
    out.write_text('{"tags": {"04000001": "AS"}}')  # an earlier session's: kept
    s = Serving(str(script))
    try:
        done = plateau(
            "enrol", "--port", s.port, "7H", "es:12B", "--write", str(out), "--timeout", "60"
        )
    finally:
        assert s.stop() == 0
    assert done.returncode == 0, done.stdout + done.stderr
    assert "[1/2] lay the tag of 7H" in done.stdout and "[2/2]" in done.stdout
    assert "7H: tag 04A1B2C3" in done.stdout and "es:12B: tag 04D4E5F6" in done.stdout
    tags = json.loads(out.read_text())["tags"]
    assert tags == {"04000001": "AS", "04A1B2C3": "7H", "04D4E5F6": "es:12B"}
    assert "enrol: 2 of 2 cards have a tag" in done.stdout


def test_send_enrol_answers_with_the_uid_and_a_tag_given_twice_is_refused(tmp_path):
    # `plateau send enrol` is done when a tag is laid, and says which (issue 17); the same tag
    # laid again for another card is refused by the table, which says which card it is
    script = tmp_path / "e.table"
    script.write_text(
        "table tock players=4\nwait 2000\ntag 04A1B2C3\nwait 5000\ntag 04A1B2C3\nwait 8000\n"
    )
    s = Serving(str(script))
    try:
        first = plateau("send", "--port", s.port, "enrol", "card=7H", "--timeout", "60")
        again = plateau("send", "--port", s.port, "enrol", "8H", "--timeout", "12")
    finally:
        assert s.stop() == 0
    assert first.returncode == 0, first.stdout + first.stderr
    assert "lay the tag of 7H on the reader" in first.stdout
    assert "7H: tag 04A1B2C3" in first.stdout
    assert again.returncode == 1, again.stdout + again.stderr
    assert "tag 04A1B2C3 is 7H already" in again.stdout, again.stdout
    assert "8H skipped" in again.stdout


class FakeLink:
    """What a board says to enrol commands: the next UID of a list for each."""

    def __init__(self, uids):
        self.uids = list(uids)
        self.sent = []

    def open(self):
        pass

    def close(self):
        pass

    def send(self, cmd):
        self.sent.append(cmd)
        return len(self.sent)

    def events(self):
        cmd = self.sent[-1]
        yield {"type": "answer", "id": len(self.sent), "ok": True}
        yield {"type": "enrolled", "card": cmd["card"], "uid": self.uids.pop(0)}


def test_enrol_catches_a_tag_given_twice(monkeypatch, tmp_path):
    from plateau import enrol

    fake = FakeLink(["A1", "A1", "B2", "C3"])
    monkeypatch.setattr(enrol, "HostLink", lambda *a: fake)
    said = []
    reg = enrol.enrol("x", ["7H", "QS", "KD"], str(tmp_path / "t.json"), 115200, 5, said.append)
    assert reg == {"A1": "QS", "B2": "KD", "C3": "7H"}
    assert any("DUPLICATE: tag A1 was 7H; it is QS now: 7H again later" in s for s in said)
    assert [c["card"] for c in fake.sent] == ["7H", "QS", "KD", "7H"]
    assert said[-2] == "[3/3] lay the tag of 7H on the reader"


def test_enrol_decks():
    from plateau.enrol import DECKS

    assert len(DECKS["french"]) == 54 and len(set(DECKS["french"])) == 53
    assert len(set(DECKS["spanish40"])) == 40 and len(set(DECKS["spanish48"])) == 48
    assert "es:12B" in DECKS["spanish40"] and "es:8O" not in DECKS["spanish40"]
