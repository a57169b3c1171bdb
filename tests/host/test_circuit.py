"""The circuit (hardware/circuit.py) against the data the firmware loads: ERC, generated files
up to date, deliberately broken copies of sensors.json, the pin maps and the netlist that the
check must catch, and faults planted in the netlist (issue 31's list, then seeded plantings of
each class) that the electrical rules (hardware/electrical.py) must catch, naming them."""

import copy
import json
import math
import random
import re
import sys

import pytest

from plateau import ROOT

sys.path.insert(0, str(ROOT))
circuit = pytest.importorskip("hardware.circuit")  # needs skidl (pyproject dev extras)
from hardware import electrical, figures, footprints, geometry, parts  # noqa: E402
from hardware.netlist import Netlist  # noqa: E402

BOARDS = ("pinmap.json", "pinmap-esp32s3.json")


@pytest.fixture(scope="module")
def data():
    return {n: circuit.load(n) for n in ("sensors.json",) + BOARDS}


@pytest.fixture(scope="module")
def generated():
    return circuit.outputs()


@pytest.fixture(scope="module")
def nets(generated):
    files, _ = generated
    return {pm: Netlist(files[f"generated/{net}"]) for pm, net in circuit.PINMAPS.items()}


@pytest.fixture(scope="module")
def built(nets):
    return None, nets["pinmap.json"]


def test_erc_has_no_errors_and_every_warning_is_explained(generated):
    _, report = generated
    for line in report:
        assert "unexplained" not in line or ", 0 unexplained" in line, line
        assert ": 0 errors" in line, line


def test_generated_files_are_the_committed_ones(generated):
    files, _ = generated
    for name, text in files.items():
        path = circuit.HERE / name
        assert path.exists() and path.read_text() == text, f"{name} is stale: make hardware"


def test_the_committed_data_checks_clean(data, nets):
    for pm in BOARDS:
        assert circuit.check_netlist(nets[pm], data[pm], data["sensors.json"]) == [], pm


def test_a_sensor_bit_moved_to_another_square_is_caught(data, built):
    """Seeded: two squares swapped in sensors.json (the netlist wired as before): both sensors
    are named, and the LED chain (LED i under bit i) no longer matches either."""
    _, nl = built
    rng = random.Random(19)
    for _ in range(15):
        broken = copy.deepcopy(data["sensors.json"])
        i, j = rng.sample(range(len(broken["bits"])), 2)
        bits = broken["bits"]
        bits[i], bits[j] = bits[j], bits[i]
        problems = circuit.check_netlist(nl, data["pinmap.json"], broken)
        named = " ".join(problems)
        assert len(problems) == 3 and bits[i] in named and bits[j] in named, problems
        assert f"at LED {min(i, j)}" in named, problems


def test_a_circuit_wired_from_other_data_is_caught(data):
    broken = copy.deepcopy(data["sensors.json"])
    broken["bits"][0], broken["bits"][77] = broken["bits"][77], broken["bits"][0]
    b = circuit.Build(data["pinmap.json"], broken)
    problems = circuit.check_netlist(b.netlist(), data["pinmap.json"], data["sensors.json"])
    assert len(problems) == 3 and "R1 (bit 0)" in " ".join(problems), problems
    assert any("LED chain" in p for p in problems), problems


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
        ("pinmap.json", ("display", "sda"), 39, "input-only"),
        ("pinmap.json", ("buttons", "pause"), 12, "strapping"),
        ("pinmap.json", ("buzzer", "pwm"), 2, "strapping"),
        ("pinmap.json", ("buttons", "pause"), 13, "used twice"),
        ("pinmap.json", ("goals", "A"), 40, "not on"),
        ("pinmap.json", ("sensor_rail", "adc"), 25, "ADC1"),
        ("pinmap.json", ("leds", "data"), 1, "UART0"),
        ("pinmap-esp32s3.json", ("reader", "cs"), 35, "PSRAM"),
        ("pinmap-esp32s3.json", ("display", "scl"), 36, "PSRAM"),
        ("pinmap-esp32s3.json", ("buttons", "new"), 48, "RGB LED"),
        ("pinmap-esp32s3.json", ("goals", "B"), 19, "USB"),
        ("pinmap-esp32s3.json", ("leds", "data"), 0, "strapping"),
        ("pinmap-esp32s3.json", ("buzzer", "pwm"), 46, "strapping"),
        ("pinmap-esp32s3.json", ("sensor_rail", "adc"), 11, "ADC1"),
    ],
)
def test_an_unusable_gpio_is_caught(data, board, role, gpio, words):
    broken = copy.deepcopy(data[board])
    broken[role[0]][role[1]] = gpio
    problems = circuit.check_pinmap(broken)
    assert any(words in p for p in problems), problems


def test_the_new_pins_are_free_of_every_restriction(data):
    """Issue 29: the LEDs', displays', buzzer's (and the rail watch's) pins are neither
    strapping nor input-only nor flash/PSRAM pins, on either board, from each chip's table."""
    for name in BOARDS:
        board = parts.BOARDS[data[name]["board"]]
        for role, gpio in circuit.pin_roles(data[name]):
            if role.split(".")[0] in ("leds", "display", "buzzer"):
                assert gpio not in board.restrictions, (name, role, board.restrictions[gpio])
        adc = data[name]["sensor_rail"]["adc"]
        assert adc in board.adc1 and board.restrictions.get(adc, parts.Restriction(
            "input-only", "", "")).kind == "input-only", (name, adc)  # fmt: skip


def test_the_firmware_still_loads_the_pin_maps(data):
    """hal/hwmap.py reads the maps the board gets; the new keys are plain JSON beside the old."""
    from plateau import HARDWARE
    from plateau.fw.hal import hwmap

    for name in BOARDS:
        pins = hwmap.load(str(HARDWARE), name)
        assert pins == data[name]
        assert pins["shift_chain"]["sck"] and pins["leds"]["data"] and pins["sensor_rail"]["adc"]


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


# --- faults planted in the circuit: issue 31 point 2, each must fail the check, named ---------


def _pullup(nl, signal):
    ends = lambda r: {nl.pin_net.get((r, "1")), nl.pin_net.get((r, "2"))}  # noqa: E731
    return [r for r in nl.by_part(parts.R_10K) if ends(r) == {signal, "+3V3"}]


def regs_on_5v(nl, pm):
    for r in nl.by_part(parts.SHIFT_REGISTER):
        nl.move(r, "VCC", "+5V_SENS")
    return [f"M1.GPIO{pm['shift_chain']['miso']}'s 3.60 V"]  # 5 V into the GPIO, said


def reader_on_5v(nl, pm):
    nl.move("M2", "3.3V", "+5V_SENS")
    return ["M2 (RC522 module) is supplied 5 V", f"M1.GPIO{pm['reader']['miso']}'s 3.60 V"]


def networks_removed(nl, pm):
    for r in nl.by_part(parts.RNET):
        nl.remove(r)
    return [f"S_{sq} floats" for sq in circuit.load("sensors.json")["bits"]]


def data_pullup_removed(nl, pm):
    (r,) = _pullup(nl, "CHAIN_DATA")
    nl.remove(r)
    return [f"M1.GPIO{pm['shift_chain']['miso']} floats on CHAIN_DATA when the cable to "
            "carrier 0 is unplugged"]  # fmt: skip


def goal_pullups_removed(nl, pm):
    for side in "AB":
        for r in _pullup(nl, f"GOAL_{side}"):
            nl.remove(r)
    return ["GOAL_A: open-drain", "GOAL_B: open-drain", "GOAL_A floats", "GOAL_B floats"]


def fuse_shorted(nl, pm):
    nl.short("F1")
    return ["U101.VCC on +5V_IN is fed from J1.+5V through no fuse"]


def fuse_taken_out(nl, pm):
    nl.remove("F1")
    return ["U101.VCC (DRV5033FA) is on +5V_SENS, which no source feeds"]


def level_shifter_missing(nl, pm):
    a, y = nl.pin_net[("U401", "1A")], nl.pin_net[("U401", "1Y")]
    nl.remove("U401")
    nl.merge(y, a)  # the GPIO wired straight to the LED data line
    return ["below D101.DIN's VIH 3.50 V", "a level shifter is missing"]


ISSUE_FAULTS = [
    regs_on_5v,
    reader_on_5v,
    networks_removed,
    data_pullup_removed,
    goal_pullups_removed,
    fuse_shorted,
    fuse_taken_out,
    level_shifter_missing,
]


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("plant", ISSUE_FAULTS, ids=lambda f: f.__name__)
def test_each_fault_of_the_issue_fails_the_check_and_is_named(data, nets, board, plant):
    nl = nets[board].copy()
    want = plant(nl, data[board])
    problems = electrical.check(nl, data[board])
    text = "\n".join(problems)
    for words in want:
        assert words in text, (plant.__name__, words, problems[:5])


def test_the_real_circuit_passes_the_electrical_rules(data, nets):
    for board in BOARDS:
        assert electrical.check(nets[board].copy(), data[board]) == []


# --- the same classes of fault, planted at random (seeded) --------------------------------------

# Parts whose supply on a rail of another voltage is always a fault: a 74HC165 at 5 V drives
# 5 V into the next register's 3.3 V input or the GPIO (and its pulled-up inputs fall below
# VIH); the RC522 and the displays take 3.6 V at most; the LEDs need 3.5 V and the buffer 4.5 V.
# (A DRV5033 is fine on either rail: 2.5-38 V and an open-drain output.)
MOVABLE = [parts.SHIFT_REGISTER, parts.READER, parts.LED, parts.BUFFER, parts.DISPLAY]


def _rails(nl):
    r, _ = electrical.rails(nl)
    return {n: x.volts for n, x in r.items() if x.volts > 0}


def plant_supply_moved(nl, pm, rng):
    refs = [r for p in MOVABLE for r in nl.by_part(p)]
    ref = rng.choice(refs)
    p = nl.part(ref)
    here = nl.pin_net[(ref, p.logic.supply)]
    rails = _rails(nl)
    to = rng.choice(sorted(n for n, v in rails.items() if v != rails[here]))
    nl.move(ref, p.logic.supply, to)
    return [ref]


def plant_pin_on_5v(nl, pm, rng):
    """A 3.3 V part's logic pin (a GPIO in use, a register's, the reader's, a display's)
    soldered to a 5 V rail: above its limit, whatever it is."""
    rails = _rails(nl)
    pins = []
    for ref in nl.comps:
        p = nl.part(ref)
        if p is None or p.logic is None:
            continue
        if rails.get(nl.pin_net.get((ref, p.logic.supply))) != 3.3:
            continue
        for _, name, kind in p.pins:
            if kind in parts.LOGIC_KINDS and (ref, name) in nl.pin_net:
                pins.append((ref, name))
    ref, pin = rng.choice(sorted(pins))
    nl.move(ref, pin, rng.choice(sorted(n for n, v in rails.items() if v == 5.0)))
    return [f"{ref}.{pin}"]


def _pullups(nl):
    """(resistor, its pin on the signal, the signal net): every resistor to +3V3 (in this
    circuit each is a needed pull-up), each element of each network."""
    out = []
    for ref in nl.comps:
        p = nl.part(ref)
        if p is parts.RNET:
            out += [(ref, f"R{i}", nl.pin_net[(ref, f"R{i}")]) for i in range(1, 9)
                    if (ref, f"R{i}") in nl.pin_net]  # fmt: skip
        elif p and p.ohms:
            a, b = nl.pin_net.get((ref, "1")), nl.pin_net.get((ref, "2"))
            if "+3V3" in (a, b) and a != b:
                out.append((ref, "1" if b == "+3V3" else "2", b if a == "+3V3" else a))
    return sorted(out)


def plant_pullup_removed(nl, pm, rng):
    ref, pin, signal = rng.choice(_pullups(nl))
    if nl.part(ref) is parts.RNET:
        nl.disconnect(ref, pin)  # one element not soldered
    else:
        nl.remove(ref)
    return [signal]


def plant_pullup_to_5v(nl, pm, rng):
    ref, pin, signal = rng.choice(_pullups(nl))
    rails = _rails(nl)
    to = rng.choice(sorted(n for n, v in rails.items() if v == 5.0))
    nl.move(ref, "COM" if nl.part(ref) is parts.RNET else ("2" if pin == "1" else "1"), to)
    return [signal, "above"]


def plant_pullup_beyond_its_cable(nl, pm, rng):
    """A pull-up fitted on the far side of a connector (on the carrier downstream, in the goal,
    on the reader): with that cable out the input floats."""
    moves = []
    for ref, _pin, signal in _pullups(nl):
        here = nl.comps[ref]["fields"]["Place"]
        farther = {nl.comps[r]["fields"]["Place"] for r, _ in nl.nets[signal]} - {here}
        parent, _ = electrical.place_tree(nl)
        down = sorted(q for q in farther if here in electrical.ancestors(parent, q))
        if down and nl.part(ref) is not parts.RNET:
            moves.append((ref, signal, down))
    ref, signal, down = rng.choice(sorted(moves))
    nl.comps[ref]["fields"]["Place"] = rng.choice(down)
    return [signal, "unplugged"]


def plant_protection_bypassed(nl, pm, rng):
    ref = rng.choice(["F1", "F2", "Q1"])
    if rng.random() < 0.5:
        nl.short(ref)
        return ["reverse-polarity" if ref == "Q1" else "no fuse"]
    nl.remove(ref)
    return ["which no source feeds"]


CLASSES = [
    plant_supply_moved,
    plant_pin_on_5v,
    plant_pullup_removed,
    plant_pullup_to_5v,
    plant_pullup_beyond_its_cable,
    plant_protection_bypassed,
]


@pytest.mark.parametrize("plant", CLASSES, ids=lambda f: f.__name__)
def test_seeded_faults_of_each_class_fail_the_check(data, nets, plant):
    rng = random.Random(31)
    for k in range(12):
        board = BOARDS[k % 2]
        nl = nets[board].copy()
        want = plant(nl, data[board], rng)
        problems = electrical.check(nl, data[board])
        assert problems, (plant.__name__, want)
        assert any(all(w in p for w in want) for p in problems), (
            plant.__name__,
            want,
            problems[:5],
        )


# --- the pin maps' supply figures against the netlist -------------------------------------------


@pytest.mark.parametrize(
    "key, value, words",
    [
        (("shift_chain", "vcc"), 5.0, "shift_chain.vcc"),
        (("leds", "vcc"), 3.3, "leds.vcc"),
        (("leds", "count"), 104, "leds.count"),
        (("sensor_rail", "ratio"), 0.5, "sensor_rail.ratio"),
        (("sensor_rail", "volts"), 3.3, "sensor_rail.volts"),
        (("display", "addr"), {"A": 60, "B": 60}, "display addresses"),
        (("leds", "ma_cap"), 3000, "F2 (MF-R250) holds"),
    ],
)
def test_the_pin_maps_supply_figures_must_be_the_circuits(data, nets, key, value, words):
    for board in BOARDS:
        pm = copy.deepcopy(data[board])
        pm[key[0]][key[1]] = value
        problems = electrical.check(nets[board].copy(), pm)
        assert any(words in p for p in problems), (board, problems)


def test_the_rail_watch_reads_the_sensor_rail_through_its_divider(data, nets):
    for board in BOARDS:
        nl = nets[board].copy()
        adc = f"GPIO{data[board]['sensor_rail']['adc']}"
        top = next(r for r in nl.by_part(parts.R_22K))
        nl.move(top, "1", "+5V_LED")  # the divider on the wrong 5 V rail
        assert any("not the sensors' rail" in p for p in electrical.check(nl, data[board]))
        nl = nets[board].copy()
        nl.remove(next(r for r in nl.by_part(parts.R_15K)))
        assert any(f"sensor_rail.adc ({adc})" in p for p in electrical.check(nl, data[board]))


def test_every_part_has_a_datasheet_and_every_footprint_exists(data, nets):
    nl = nets["pinmap.json"].copy()
    assert all(c["fields"].get("Datasheet") for c in nl.comps.values())
    nl.comps["F1"]["footprint"] = "plateau:Fuse_Bourns_MF-RG500"
    assert any("not in hardware/plateau.pretty" in p for p in footprints.check_netlist(nl))
    nl.comps["F1"]["fields"]["Datasheet"] = ""
    assert any(
        "F1 (0.75A) has no datasheet" in p
        for p in circuit.check_netlist(nl, data["pinmap.json"], data["sensors.json"])
    )


def test_the_board_footprints_match_the_boards_and_keep_the_antenna_clear():
    for b in parts.BOARDS.values():
        text = footprints.board(b)
        pads = re.findall(r'\(pad "(\d+)" thru_hole \w+ \(at ([\d.-]+) ([\d.-]+)\)', text)
        assert len(pads) == len(b.part.pins)
        xs = sorted({float(x) for _, x, _ in pads})
        assert xs == [0.0, b.rows_mm]
        ys = sorted({float(y) for _, _, y in pads})
        assert math.isclose(ys[1] - ys[0], 2.54) and ys[0] == 0.0
        keep = re.search(r"\(keepout .*?\)\)", text)
        poly = [float(v) for v in re.findall(r"\(xy [\d.-]+ ([\d.-]+)\)", text)]
        assert keep and min(poly) <= -(b.antenna_mm + parts.ANTENNA_KEEPOUT_MM.value), poly
        assert max(poly) < 0  # the keep-out is past pin 1's end: the main board's edge


# --- the BOMs ---------------------------------------------------------------------------------


def test_both_boards_have_a_bom_a_maker_can_order_from(generated):
    files, _ = generated
    for bom, module, sockets in (("bom", "ESP32-DevKitC-32E", "1x19"),
                                 ("bom-esp32s3", "ESP32-S3-DevKitC-1-N8R8", "1x22")):  # fmt: skip
        text = files[f"generated/{bom}.md"]
        assert module in text and f"female header {sockets}" in text
        for item in (
            "perfboard 100 x 160",
            "perfboard 50 x 70",
            "DIP-16 IC socket",
            "IDC socket 2x5",
            "hook-up wire",
            "flat cable",
            "wooden pawn",
            "birch plywood",
            "pine batten",
            "goal flap",
            "at least 20 ms",
            "Standard-A to Micro-B",
            "5 V 3 A",
            "WS2812B",
            "SN74AHCT125N",
            "MF-R075",
            "MF-R250",
            "AO3401A",
            "SH1106",
            "2N3904",
            "1N4148",
        ):
            assert item in text, (bom, item)
        assert "N8R2" not in text


def test_the_wire_is_computed_from_the_geometry(data):
    """The old route (registers 9-12 each two colours' homes or camps) needed 34 m of sensor
    leads and 4.09 m of chain cable; one colour a register needs about half and 3.6 m."""
    old = copy.deepcopy(data["sensors.json"])
    old["bits"] = old["bits"][:72] + [
        f"{c}{k}{i}" for k in "HC" for pair in ("RG", "BY") for c in pair for i in "1234"
    ]
    lay_old = geometry.layout(old)
    assert math.isclose(3 * lay_old.sensor_leads_mm() / 1000, 34.0, abs_tol=0.1)
    assert math.isclose(lay_old.bus_length() / 1000, 4.09, abs_tol=0.01)
    lay = geometry.layout(data["sensors.json"])
    assert math.isclose(lay.bus_length() / 1000, 3.62, abs_tol=0.01)
    assert 3 * lay.sensor_leads_mm() / 1000 < 18.0
    rows = circuit.bom_rows(circuit.Netlist((circuit.OUT / "plateau.net").read_text()),
                            circuit.load("tags.json"), lay)  # fmt: skip
    routed = sum(r.conductors * r.metres for r in geometry.runs(lay) if r.wire == "hook-up")
    wire = next(r for r in rows if r["value"] == "hook-up wire, m")
    assert wire["qty"] == math.ceil(routed * circuit.SLACK)


def test_the_fuses_have_margin_at_temperature_and_the_adapter_covers_both_rails(data, nets):
    f = electrical.facts(nets["pinmap.json"], data["pinmap.json"])
    for fz in f["fuses"]:
        assert fz["hold_a"] > fz["load_a"], fz
        assert fz["part"].series.hold_a.value >= 0.75
    total = sum(x.total_ma for x in f["loads"] if x.rail in ("+5V_SENS", "+5V_LED"))
    assert total / 1000 < figures.ADAPTER_A


def test_the_chain_clock_has_margin_at_the_far_register():
    m = figures.clock_margin()
    assert m["high"] > 0.1 and m["low"] > 0.1, m


def test_the_s3_board_is_n8r8_with_its_variant_everywhere():
    """Issue 31 point 5: an N8R2 has quad PSRAM, SPIRAM_OCT configures octal."""
    texts = {p: p.read_text() for p in [*(ROOT / "hardware").glob("*.md"),
                                        *(ROOT / "docs").glob("*.md"), ROOT / "Makefile",
                                        ROOT / "README.md"]}  # fmt: skip
    for path, text in texts.items():
        assert "N8R2" not in text, path
    for path in (ROOT / "hardware" / "boards.md", ROOT / "docs" / "chip.md", ROOT / "Makefile"):
        assert re.search(r"N8R8.{0,80}SPIRAM_OCT|SPIRAM_OCT.{0,80}N8R8", texts[path], re.S), path
    (line,) = [x for x in texts[ROOT / "README.md"].splitlines() if "`make firmware [" in x]
    assert "N8R8" in line and "SPIRAM_OCT" in line
    assert parts.ESP32S3_DEVKITC.part.value.endswith("N8R8")


def test_the_pin_maps_clock_is_the_one_the_analysis_supports(data):
    """The chain's SPI clock is hardware data (figures.py works it out); the driver reads it
    from the pin map: they must agree, and the analysis must pass at that clock."""
    for name in BOARDS:
        assert data[name]["shift_chain"]["baudrate"] == figures.SPI_HZ
    ch = figures.chain()
    # SPI mode 2 (the pin maps' polarity 1, phase 0): a bit is sampled half a period after
    # the edge that shifted it
    assert 5 * ch.tau_ns < ch.bit_ns / 2 and ch.read_path_ns < ch.bit_ns / 2
    for name in BOARDS:
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
