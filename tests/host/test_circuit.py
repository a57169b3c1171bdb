"""The circuit (hardware/circuit.py) against the data the firmware loads: ERC, generated files
up to date, and deliberately broken copies of sensors.json, the pin maps and the netlist that
the check must catch."""

import copy
import json
import math
import random
import sys

import pytest

from plateau import ROOT

sys.path.insert(0, str(ROOT))
circuit = pytest.importorskip("hardware.circuit")  # needs skidl (pyproject dev extras)
from hardware import figures, geometry, parts  # noqa: E402


@pytest.fixture(scope="module")
def data():
    return {n: circuit.load(n) for n in ("sensors.json", "pinmap.json", "pinmap-esp32s3.json")}


@pytest.fixture(scope="module")
def built(data):
    b = circuit.Build(data["pinmap.json"], data["sensors.json"])
    return b, circuit.Netlist(b.netlist())


@pytest.fixture(scope="module")
def generated():
    return circuit.outputs()


def test_erc_has_no_errors_and_every_warning_is_explained(generated):
    _, report = generated
    for line in report:
        assert "unexplained" not in line or ", 0 unexplained" in line, line
        assert ": 0 errors" in line, line


def test_generated_files_are_the_committed_ones(generated):
    files, _ = generated
    for name, text in files.items():
        path = circuit.OUT / name
        assert path.exists() and path.read_text() == text, f"{name} is stale: make hardware"


def test_the_committed_data_checks_clean(data, built):
    _, nl = built
    assert circuit.check_netlist(nl, data["pinmap.json"], data["sensors.json"]) == []
    assert circuit.check_pinmap(data["pinmap-esp32s3.json"]) == []


def test_a_sensor_bit_moved_to_another_square_is_caught(data, built):
    """Seeded: two squares swapped in sensors.json (the netlist wired as before), and the
    circuit wired from a swapped copy checked against the real sensors.json."""
    _, nl = built
    rng = random.Random(19)
    for _ in range(15):
        broken = copy.deepcopy(data["sensors.json"])
        i, j = rng.sample(range(len(broken["bits"])), 2)
        bits = broken["bits"]
        bits[i], bits[j] = bits[j], bits[i]
        problems = circuit.check_netlist(nl, data["pinmap.json"], broken)
        named = " ".join(problems)
        assert len(problems) == 2 and bits[i] in named and bits[j] in named, problems


def test_a_circuit_wired_from_other_data_is_caught(data):
    broken = copy.deepcopy(data["sensors.json"])
    broken["bits"][0], broken["bits"][77] = broken["bits"][77], broken["bits"][0]
    b = circuit.Build(data["pinmap.json"], broken)
    problems = circuit.check_netlist(b.netlist(), data["pinmap.json"], data["sensors.json"])
    assert len(problems) == 2 and "R1 (bit 0)" in problems[0] + problems[1]


def test_a_pin_used_twice_is_caught(data):
    broken = copy.deepcopy(data["pinmap.json"])
    broken["reader"]["cs"] = broken["shift_chain"]["sck"]
    problems = circuit.check_pinmap(broken)
    assert any("used twice" in p and "reader.cs" in p and "shift_chain.sck" in p
               for p in problems), problems  # fmt: skip
    # and the circuit built from it shows the damage too: the clock reaches the reader
    b = circuit.Build(broken, data["sensors.json"])
    assert circuit.check_netlist(b.netlist(), broken, data["sensors.json"])


@pytest.mark.parametrize(
    "board, role, gpio, words",
    [
        ("pinmap.json", ("shift_chain", "latch"), 7, "flash"),
        ("pinmap.json", ("shift_chain", "latch"), 34, "input-only"),
        ("pinmap.json", ("buttons", "pause"), 12, "strapping"),
        ("pinmap.json", ("buttons", "pause"), 13, "LED chain"),
        ("pinmap.json", ("goals", "A"), 40, "not on"),
        ("pinmap-esp32s3.json", ("reader", "cs"), 35, "PSRAM"),
        ("pinmap-esp32s3.json", ("buttons", "new"), 48, "RGB LED"),
        ("pinmap-esp32s3.json", ("goals", "B"), 19, "USB"),
    ],
)
def test_an_unusable_gpio_is_caught(data, board, role, gpio, words):
    broken = copy.deepcopy(data[board])
    broken[role[0]][role[1]] = gpio
    problems = circuit.check_pinmap(broken)
    assert any(words in p for p in problems), problems


def test_the_sensor_part_must_match_the_circuit_and_its_datasheet(data, built):
    _, nl = built
    other = copy.deepcopy(data["sensors.json"])
    other["sensor"]["part"] = "DRV5032FB"
    assert any("Hall sensors" in p for p in circuit.check_netlist(nl, data["pinmap.json"], other))
    slow = copy.deepcopy(data["sensors.json"])
    slow["sensor"]["sample_ms"] = 50
    assert any("samples every" in p
               for p in circuit.check_netlist(nl, data["pinmap.json"], slow))  # fmt: skip


def test_a_register_missing_from_the_chain_is_caught(data, built):
    _, nl = built
    short = copy.deepcopy(data["sensors.json"])
    short["registers"] = 12
    assert any("registers" in p for p in circuit.check_netlist(nl, data["pinmap.json"], short))


def test_the_pin_maps_clock_is_the_one_the_analysis_supports(data):
    """The chain's SPI clock is hardware data (figures.py works it out); the driver reads it
    from the pin map: they must agree, and the analysis must pass at that clock."""
    for name in ("pinmap.json", "pinmap-esp32s3.json"):
        assert data[name]["shift_chain"]["baudrate"] == figures.SPI_HZ
    ch = figures.chain()
    # SPI mode 2 (the pin maps' polarity 1, phase 0): a bit is sampled half a period after
    # the edge that shifted it
    assert 5 * ch.tau_ns < ch.bit_ns / 2 and ch.read_path_ns < ch.bit_ns / 2
    for name in ("pinmap.json", "pinmap-esp32s3.json"):
        c = data[name]["shift_chain"]
        assert (c["polarity"], c["phase"]) == (1, 0)


def test_the_timing_figures_are_the_firmwares():
    """The latency and chain analysis use the firmware's own timings and the simulator's
    74HC165 model uses the same datasheet table: a change on one side fails here."""
    from plateau.fw.games.tock.tracker import SETTLE_MS
    from plateau.fw.sense.debounce import DEBOUNCE_MS
    from plateau.fw.sim.chips.hc165 import hc165_ns
    from plateau.fw.table import SCAN_MS

    assert (figures.SCAN_MS, figures.DEBOUNCE_MS, figures.SETTLE_MS) == (
        SCAN_MS,
        DEBOUNCE_MS,
        SETTLE_MS,
    )
    assert figures.HC165_TPD_CLK_QH_2V.value == hc165_ns("tpd", 2.0)
    assert figures.HC165_FMAX_2V.value * 1e3 == 1e6 / (2 * hc165_ns("tw_cp", 2.0))


def test_the_chosen_sensor_meets_the_latency_target():
    s = figures.chosen()
    assert s.worst_latency_ms() <= figures.TARGET_MS
    assert figures.CHOSEN == circuit.load("sensors.json")["sensor"]["part"] == parts.HALL.value


def test_disc_field_integration_agrees_with_the_closed_form_on_axis():
    for d, h in figures.MAGNETS:
        for z in (2.0, 6.0, 12.0):
            exact = figures.bz_axis(1170, d / 2, h, z)
            assert math.isclose(figures.bz(1170, d / 2, h, 0.0, z), exact, rel_tol=0.01)
    # far off the axis the disc is a dipole: B ~ 1/r^3
    a, b = (figures.bz(1170, 3, 3, x, 6.5) for x in (60.0, 120.0))
    assert 6 < a / b < 10


def test_board_geometry_follows_the_track():
    """T2: consecutive track squares (and C18 -> next colour's 1) are one pitch apart; each
    home row starts next to its C16; all 104 squares on distinct cells."""
    lay = geometry.layout()
    track = [c + str(i) for c in geometry.COLOURS for i in range(1, 19)]
    for a, b in zip(track, track[1:] + track[:1]):
        (ax, ay), (bx, by) = lay.squares[a], lay.squares[b]
        assert math.isclose(math.hypot(ax - bx, ay - by), geometry.PITCH), (a, b)
    for c in geometry.COLOURS:
        (ax, ay), (bx, by) = lay.squares[c + "16"], lay.squares[c + "H1"]
        assert math.isclose(math.hypot(ax - bx, ay - by), geometry.PITCH)
    assert len(set(lay.squares.values())) == 104
    assert sorted(lay.squares) == sorted(json.loads((ROOT / "hardware/sensors.json")
                                                    .read_text())["bits"])  # fmt: skip
