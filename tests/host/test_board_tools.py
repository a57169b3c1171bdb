"""plateau selftest and plateau calibrate, against the simulated board (issue 4)."""

import subprocess
import sys

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
