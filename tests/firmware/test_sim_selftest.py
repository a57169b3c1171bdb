# selftest against the simulated board: the sensor chain judged by its check byte (the last
# register's SER is tied to GND, so the byte after the chain reads 0x00), never by the
# sensors' levels. With active-low sensors an unplugged chain (MISO held HIGH by its pull-up)
# reads exactly like an empty board, and a board where every sensor sees a magnet reads all
# inputs LOW: neither may be mistaken for the other.
from simcheck import _write

from hal.hwmap import sensor_names
from sim import VirtualClock
from sim.run import Capture, Sim
from sim.script import read

HEAD = "table tock players=4 rules=classic\n"


def _table():
    path = _write("selftest.table", HEAD)
    with open(path) as f:
        settings = read(f)
    out = Capture()
    sim = Sim(settings, path, VirtualClock(), out, "00000000", "hardware")
    sim.advance(100)
    return sim, out


def _selftest(sim, out):
    out.frames = []  # (what came before: the stream starts again here)
    assert sim.table.command({"cmd": "selftest"}) is None
    (report,) = [e for e in out.events() if e.get("type") == "selftest"]
    return report


def test_selftest_plugged_chain_with_the_pawns_in_camp_is_ok():
    sim, out = _table()
    r = _selftest(sim, out)
    assert r["chain"] == "ok"
    assert r["on_unexpected"] == [] and r["off_unexpected"] == []


def test_selftest_unplugged_chain_is_reported_by_its_check_byte():
    sim, out = _table()
    sim.physical.unplug_chain()
    r = _selftest(sim, out)
    assert r["chain"] != "ok" and "0x00" in r["chain"] and "unplugged" in r["chain"]
    # a frame not believed says nothing about the sensors: no "pawn missing" for any square
    assert "on_unexpected" not in r and "off_unexpected" not in r and "sensors_on" not in r
    sim.physical.unplug_chain(False)  # plugged back: the same board is fine again
    assert _selftest(sim, out)["chain"] == "ok"


def test_selftest_every_sensor_active_is_a_working_chain():
    sim, out = _table()
    names = sensor_names("hardware")
    for name in names:
        sim.physical.set(name, 1)
    r = _selftest(sim, out)
    assert r["chain"] == "ok"  # every input LOW, the check byte still 0x00
    from games.tock.rules import CELLS, square_name

    pos = sim.table.game.pos  # the squares the game has pawns on
    expected = [square_name(s) for s in range(CELLS) if pos.cells[s]]
    track = [n for n in names if n[1:2] != "C"]  # camp slots aside, as selftest does
    assert sorted(r["on_unexpected"]) == sorted(n for n in track if n not in expected)
    assert r["off_unexpected"] == []


def test_selftest_counts_the_scans_whose_frame_failed_the_check():
    sim, out = _table()
    sim.physical.unplug_chain()
    sim.advance(50)  # 10 scans with the cable out
    sim.physical.unplug_chain(False)
    sim.advance(50)
    r = _selftest(sim, out)
    assert r["chain"] == "ok" and r["chain_errors"] == 10
