"""Safe mode and the board's start (issue 18): boot.py and main.py run under MicroPython as an
ESP32 starts them, with a stand-in `machine` (tests/host/fakeboard) wired by the pin map to the
chip models, so hal/board.py builds the real drivers on them. `mpremote` itself cannot run
without a board; what it needs, a REPL with no table loop and no watchdog, is tested here."""

import json
import shutil
import subprocess
from pathlib import Path

from plateau import FIRMWARE, HARDWARE
from plateau.build import BUILD, build
from plateau.fw.link import frame
from plateau.sim import SIM_HEAP, micropython

FAKE = Path(__file__).parent / "fakeboard"
WDT_RESET = 3
PWRON_RESET = 1


def board(tmp_path, pinmap="pinmap.json", **knobs):
    """A board's filesystem: boot.py and main.py as deployed, the hardware maps, the knobs."""
    d = tmp_path / "board"
    (d / "hardware").mkdir(parents=True, exist_ok=True)
    for name in ("boot.py", "main.py"):
        shutil.copy(FIRMWARE / name, d / name)
    shutil.copy(HARDWARE / pinmap, d / "hardware" / "pinmap.json")
    for name in ("sensors.json", "tags.json"):
        shutil.copy(HARDWARE / name, d / "hardware" / name)
    knob(d, **knobs)
    return d


def knob(d, **knobs):
    (d / "machine.json").write_text(json.dumps(knobs))


def power_up(d, send=b""):
    """One start of the board; returns (console text, events, machine.log lines)."""
    build(only_changed=True)
    (d / "machine.log").unlink(missing_ok=True)
    done = subprocess.run(
        [micropython(), "-X", f"heapsize={SIM_HEAP}", str(FAKE / "esp32boot.py")],
        cwd=d,
        input=send,
        capture_output=True,
        timeout=120,
        env={"MICROPYPATH": f"{FAKE}:{BUILD}", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    events = [json.loads(p) for p in frame.Decoder().feed(done.stdout)]
    log = (d / "machine.log").read_text().splitlines() if (d / "machine.log").exists() else []
    return done.stdout.decode("latin-1"), events, log


def started_table(log):
    return any(line.startswith("wdt ") for line in log)


def test_a_normal_start_runs_the_table_with_the_watchdog_and_the_real_drivers(tmp_path):
    d = board(tmp_path)
    text, events, log = power_up(d)
    assert "wdt 8000" in log and "fed 100 violations 0" in log
    assert any(e["type"] == "hello" for e in events)
    pins = json.loads((HARDWARE / "pinmap.json").read_text())
    chain = pins["shift_chain"]
    # the chain's bus: mode 2 at 1 MHz from the pin map, and no MOSI claimed
    assert f"spi {chain['spi']} {chain['baudrate']} 1 0 mosi None" in log
    assert not (d / "safe").exists()


def test_the_repl_command_restarts_into_safe_mode_once(tmp_path):
    d = board(tmp_path)
    cmd = frame.encode(json.dumps({"cmd": "repl", "id": 7}).encode())
    text, events, log = power_up(d, cmd)
    assert [e for e in events if e["type"] == "answer"] == [
        {"boot": events[0]["boot"], "at": 0, "type": "answer", "id": 7, "ok": True}
    ]
    assert log[-1] == "reset" and (d / "safe").exists()
    # the restart: neither table nor watchdog, the REPL is free for mpremote
    text, events, log = power_up(d)
    assert "safe mode (asked for by the repl command)" in text
    assert not started_table(log) and not any(line.startswith("spi") for line in log)
    assert not (d / "safe").exists()
    # and the start after that is a table again
    text, events, log = power_up(d)
    assert started_table(log)


def shown(d):
    """What the board's LEDs, displays and buzzer showed when the run stopped (the stand-in
    machine's shown.json: the chip models read back)."""
    return json.loads((d / "shown.json").read_text())


def test_the_table_shows_its_game_on_the_real_drivers(tmp_path):
    # issue 29: the LED chain through neopixel and machine.bitstream, the displays on
    # machine.I2C, the buzzer on machine.PWM, as hal/board.py sets them up
    d = board(tmp_path, feeds=150)
    text, events, log = power_up(d)
    assert "fed 150 violations 0" in log
    pins = json.loads((HARDWARE / "pinmap.json").read_text())
    shows = pins["display"]
    assert f"i2c {shows['i2c']} {shows['sda']} {shows['scl']} {shows['freq']}" in log
    assert f"pwm {pins['buzzer']['pwm']} {pins['buzzer']['hz']} 0" in log
    seen = shown(d)
    for addr in shows["addr"].values():
        big, lines = seen["displays"][str(addr)]
        assert big is None and lines[:2] == ["RED to play", "lay a card"]
    names = json.loads((HARDWARE / "sensors.json").read_text())["bits"]
    lit = sorted(names[i] for i, rgb in enumerate(seen["leds"][: len(names)]) if any(rgb))
    assert lit == ["RH1", "RH2", "RH3", "RH4"]
    assert all(
        rgb[0] and not rgb[1] and not rgb[2] for rgb in seen["leds"][: len(names)] if any(rgb)
    )


def test_a_display_that_does_not_answer_at_power_up_is_said_and_the_table_runs(tmp_path):
    pins = json.loads((HARDWARE / "pinmap.json").read_text())
    a = pins["display"]["addr"]["A"]
    d = board(tmp_path, feeds=150, displays=[a])  # display B unplugged
    text, events, log = power_up(d)
    assert started_table(log) and "fed 150 violations 0" in log
    said = [e for e in events if e.get("what") == "display"]
    assert len(said) == 1 and "display B" in said[0]["why"], said
    assert shown(d)["displays"][str(a)][1][0] == "RED to play"


def test_safe_mode_is_shown_at_the_table_and_sets_up_nothing_else(tmp_path):
    d = board(tmp_path, held=["pause"])
    text, events, log = power_up(d)
    assert "safe button was held" in text and not started_table(log)
    assert not any(line.startswith("spi") for line in log)  # the chain and reader untouched
    seen = shown(d)
    pins = json.loads((HARDWARE / "pinmap.json").read_text())
    for addr in pins["display"]["addr"].values():
        big, lines = seen["displays"][str(addr)]
        assert lines[0] == "SAFE MODE" and "safe button" in " ".join(lines)
    spot = pins["leds"]["spot"]
    r, g, b = seen["leds"][spot]
    assert r > g > b == 0  # orange
    assert not any(any(rgb) for i, rgb in enumerate(seen["leds"]) if i != spot)


def test_main_py_decides_itself_when_boot_py_is_missing(tmp_path):
    d = board(tmp_path)
    (d / "boot.py").unlink()  # an older deploy, or a board set up by hand
    (d / "safe").write_text("repl\n")
    text, events, log = power_up(d)
    assert "safe mode (asked for by the repl command)" in text and not started_table(log)


def test_holding_the_pause_button_at_power_up_gives_safe_mode(tmp_path):
    d = board(tmp_path, held=["pause"])
    text, events, log = power_up(d)
    assert "safe button was held" in text and not started_table(log)
    knob(d, held=[])
    assert started_table(power_up(d)[2])


def test_a_hang_at_every_start_ends_in_safe_mode_not_a_reboot_loop(tmp_path):
    d = board(tmp_path, cause=WDT_RESET)
    runs = [started_table(power_up(d)[2]) for _ in range(4)]
    # two watchdog restarts run the table; the third in a row stops in safe mode; the
    # count starts again after it
    assert runs == [True, True, False, True]
    knob(d, cause=WDT_RESET)
    power_up(d)
    knob(d, cause=PWRON_RESET)  # a power cut between hangs: not in a row
    power_up(d)
    knob(d, cause=WDT_RESET)
    assert started_table(power_up(d)[2]) and started_table(power_up(d)[2])


def test_a_table_that_cannot_start_stays_at_the_repl_without_watchdog(tmp_path):
    d = board(tmp_path)
    (d / "hardware" / "tags.json").write_text("{ not json")
    text, events, log = power_up(d)
    assert "the table could not start" in text
    assert not started_table(log)


def test_goal_inputs_pull_ups_per_board(tmp_path):
    s3 = json.loads((HARDWARE / "pinmap-esp32s3.json").read_text())
    esp32 = json.loads((HARDWARE / "pinmap.json").read_text())
    log = power_up(board(tmp_path / "s3", "pinmap-esp32s3.json"))[2]
    for gpio in s3["goals"].values():
        assert f"pin {gpio} 1 2" in log  # input, internal pull-up
    log = power_up(board(tmp_path / "esp32"))[2]
    for gpio in esp32["goals"].values():
        assert f"pin {gpio} 1 -1" in log  # input, the board's own resistors


def test_a_card_lying_on_the_card_spot_at_power_up_is_read(tmp_path):
    tags = json.loads((HARDWARE / "tags.json").read_text())["tags"]
    uids = list(tags)[:1]  # at most one lies on the spot (two aligned would not answer)
    d = board(tmp_path, tags=uids, feeds=400)
    text, events, log = power_up(d)
    (pile,) = [e for e in events if e["type"] == "pile"]
    assert sorted(pile["cards"]) == sorted(tags[u] for u in uids)
    assert not [e for e in events if e["type"] == "card"]
    assert "fed 400 violations 0" in log


def test_the_sensor_rail_is_watched_on_the_pin_maps_adc_pin(tmp_path):
    # hal/board.py hands hal/rail.py the ADC1 pin of each board's pin map at 11 dB; a table
    # powered with its sensors' supply dead says so, and reads no pawn lifted
    for pinmap in ("pinmap.json", "pinmap-esp32s3.json"):
        rail = json.loads((HARDWARE / pinmap).read_text())["sensor_rail"]
        log = power_up(board(tmp_path / pinmap, pinmap))[2]
        assert f"adc {rail['adc']} 3" in log, pinmap  # ATTN_11DB
    events = power_up(board(tmp_path / "dead", rail_mv=0, feeds=200))[1]
    (down,) = [e for e in events if e["type"] == "error" and e.get("what") == "sensor-rail"]
    assert down["mv"] < 4000
    assert not [e for e in events if e["type"] in ("illegal", "move")]


def test_deploy_asks_a_running_table_for_safe_mode_and_leaves_a_silent_port_alone(tmp_path):
    import os
    import tty

    from plateau.deploy import to_safe_mode
    from plateau.sim import Firmware

    script = tmp_path / "t.table"
    script.write_text("table tock players=4 rules=classic\nwait 1000\n")
    fw = Firmware(script, "--wait-host")  # a table running, as on a board
    try:
        assert to_safe_mode(fw.port, settle_s=0)
    finally:
        fw.stop()
    master, slave = os.openpty()  # a port where nothing talks (a board at the REPL)
    tty.setraw(slave)
    try:
        assert not to_safe_mode(os.ttyname(slave), settle_s=0)
    finally:
        os.close(master)
        os.close(slave)


def test_deploy_dry_run_sends_the_chosen_boards_pin_map_and_boot_py():
    import sys

    build(only_changed=True)
    for board, pinmap in (("esp32", "pinmap.json"), ("esp32s3", "pinmap-esp32s3.json")):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "plateau",
                "deploy",
                "--port",
                "/dev/x",
                "--board",
                board,
                "--dry-run",
            ],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        assert f"hardware/{pinmap} :hardware/pinmap.json" in done.stdout
        assert "boot.py :boot.py" in done.stdout and "main.py :main.py" in done.stdout
        assert "sim/" not in done.stdout
