"""plateau selftest and plateau calibrate, against the simulated board (issue 4)."""

import subprocess
import sys

import pytest

from plateau.errors import PlateauError
from plateau.sim import Firmware


def plateau(*args):
    return subprocess.run(
        [sys.executable, "-m", "plateau", *args], capture_output=True, text=True, timeout=120
    )


def test_selftest_reports_pawns_where_the_game_has_none(tmp_path):
    script = tmp_path / "s.table"
    script.write_text("table tock players=4\nwait 300\nplace G7\nwait 3000\n")
    fw = Firmware(script, "--wait-host")
    try:
        done = plateau("selftest", "--port", fw.port)
    finally:
        fw.stop()
    assert "reader: ok" in done.stdout and "sensor chain: ok" in done.stdout
    assert "scan rate:" in done.stdout


def test_calibrate_finds_a_sensor_the_map_names_wrong(tmp_path):
    script = tmp_path / "c.table"
    script.write_text(
        "table tock players=4\nwait 1500\nlift RC1\nplace R1\nwait 500\n"
        "lift R1\nplace R3\nwait 5000\n"
    )
    fw = Firmware(script, "--wait-host")
    out = tmp_path / "sensors.json"
    try:
        done = plateau(
            "calibrate",
            "--port",
            fw.port,
            "--squares",
            "R1,R2",
            "--write",
            str(out),
            "--timeout",
            "20",
        )
    finally:
        fw.stop()
    assert "R1: bit 0 ok" in done.stdout
    assert "MISMATCH R2: seen by chain bit 2, which the map calls R3" in done.stdout
    assert done.returncode == 1
    import json

    bits = json.loads(out.read_text())["bits"]
    assert bits[2] == "R2" and bits[1] == "R3"  # the map written swaps the two


def test_selftest_without_a_board_says_so():
    done = plateau("selftest", "--port", "/dev/nonexistent-plateau")
    assert done.returncode == 3 and "cannot open" in done.stderr


class _Link:
    """A host link whose board answers every command and never sees a tag."""

    def __init__(self):
        self.sent = []

    def send(self, cmd):
        self.sent.append(dict(cmd))
        return len(self.sent)

    def events(self):
        while True:
            for n in range(1, len(self.sent) + 1):
                yield {"type": "answer", "id": n, "ok": True}
            yield {"type": "heartbeat"}


def test_enrol_given_up_cancels_the_wait_on_the_board():
    # F0c (adversarial round 4): the host said "no tag within 2 s: 7H skipped" while the board
    # kept waiting, and took the next card of the deck for the tag
    from plateau.enrol import _enrol_one

    link = _Link()
    said = []
    assert _enrol_one(link, "7H", 0.0, said.append) is None
    assert link.sent == [{"cmd": "enrol", "card": "7H"}, {"cmd": "enrol", "card": "cancel"}]


def test_enrol_stops_waiting_when_the_table_ends_the_wait():
    # a `new` sent meanwhile (by another host) ends the wait on the board, with an
    # `enrol_ended` event: `plateau enrol` says so rather than waiting its whole --timeout
    from plateau.enrol import _enrol_one

    class Ended(_Link):
        def events(self):
            yield {"type": "answer", "id": 1, "ok": True}
            yield {"type": "enrol_ended", "card": "8H", "why": "a new game"}  # not this one
            yield {"type": "heartbeat"}
            yield {"type": "enrol_ended", "card": "7H", "why": "a new game"}
            raise AssertionError("read on after the wait ended")

    with pytest.raises(PlateauError, match="stopped waiting for the tag of 7H: a new game"):
        _enrol_one(Ended(), "7H", 60.0, print)


def test_enrol_interrupted_cancels_the_wait_on_the_board():
    # ADV5-6: Ctrl-C on `plateau send enrol 7H` left the board waiting: the next card of the
    # game was refused as the tag (the play lost). Interrupted at any point of the wait
    # (seeded), the host says so and the table stops waiting too; the interrupt goes on
    import random

    from plateau.enrol import _enrol_one

    class Interrupted(_Link):
        def __init__(self, at):
            super().__init__()
            self.at = at

        def events(self):
            yield {"type": "answer", "id": 1, "ok": True}
            for _ in range(self.at):
                yield {"type": "heartbeat"}
            if len(self.sent) == 1:  # still waiting: Ctrl-C (SIGTERM raises the same)
                raise KeyboardInterrupt
            yield {"type": "answer", "id": 2, "ok": True}  # the cancel's

    rng = random.Random(6)
    for _ in range(10):
        link, said = Interrupted(rng.randint(0, 5)), []
        with pytest.raises(KeyboardInterrupt):
            _enrol_one(link, "7H", 60.0, said.append)
        assert link.sent == [{"cmd": "enrol", "card": "7H"}, {"cmd": "enrol", "card": "cancel"}]
        assert "stops waiting for the tag of 7H" in said[-1]
