"""The numbers behind the hardware choices, computed from datasheet figures and the board's
geometry: the Hall sensor chosen by latency and current, the move latency, the power budget,
the chain's clock, the magnet's field at the sensor, the reader through a pile of cards.

`python -m hardware.figures` prints them; `python -m hardware.circuit` writes them to
hardware/generated/figures.md. Nothing here was measured: every input is a datasheet figure
(cited) or a stated assumption, and the outputs are arithmetic."""

from __future__ import annotations

import math
from dataclasses import dataclass

from hardware import geometry
from hardware.parts import Figure

# --- firmware timing (tests/host/test_circuit.py checks these against the firmware) --------

SCAN_MS = 5.0  # the table scans the chain every 5 ms (table.SCAN_MS, 200 scans/s)
DEBOUNCE_MS = 20.0  # a sensor change must hold this long (sense/debounce.py DEBOUNCE_MS)
SETTLE_MS = 90.0  # then no sensor may change for this long (games/tock/tracker.py SETTLE_MS)
TARGET_MS = 150.0  # worst "last pawn set down -> move event" on the reference build
# The ESP32's own work between the settled board and the event on the wire, estimated by
# `make bench` (tests/bench/results.txt): not hardware figures, but they count against the
# target. The slowest rules check is a 7 split over 8 own pawns: 16.0-24.8 ms with its share of
# a garbage collection (single-pawn cards 1.4-4 ms); the move event (JSON, numbered, kept,
# framed) 1.6-2.4 ms. The upper ends, rounded up.
CHECK_MS = 25.0
EVENT_MS = 2.5


def star(fig: Figure) -> str:
    """' (*)' after a figure transcribed from memory (no source re-read), else nothing."""
    return " (*)" if fig.check else ""


# --- Hall sensor candidates -----------------------------------------------------------------


@dataclass(frozen=True)
class Sensor:
    part: str
    response: str  # omnipolar / unipolar
    output: str  # push-pull / open-drain
    sample_ms: float  # 0: continuous
    icc_ua: Figure  # average supply current, one sensor
    bop_max_mt: Figure  # the field that surely switches it on
    packages: str
    note: str = ""

    @property
    def current_104_ma(self) -> float:
        return self.icc_ua.value * 104 / 1000

    def worst_latency_ms(self, settle_ms: float = SETTLE_MS) -> float:
        """Magnet set down just after a sensor sample and just after a scan: one sampling
        period, one scan period, the debounce, the settle time, then the ESP32's slowest
        rules check and the move event."""
        return self.sample_ms + SCAN_MS + DEBOUNCE_MS + settle_ms + CHECK_MS + EVENT_MS


_DRV5032 = "TI SLVSDC7 (DRV5032)"
_DRV5032_TABLE = _DRV5032 + " s.5 Device Comparison"
_DRV5033 = "TI SLIS152 (DRV5033)"
SENSORS = [
    Sensor("DRV5032FB", "omnipolar", "push-pull", 200.0,
           Figure(0.54, "uA", _DRV5032 + " s.1 Features (5-Hz version, 1.8 V)"),
           Figure(4.8, "mT", _DRV5032_TABLE), "SOT-23, X2SON, TO-92",
           "the old BOM's part: its output can be 200 ms late"),
    Sensor("DRV5032FA", "omnipolar", "push-pull", 50.0,
           Figure(1.6, "uA", _DRV5032 + " s.1 Features (20-Hz versions, 3 V)"),
           Figure(4.8, "mT", _DRV5032_TABLE), "SOT-23, X2SON, TO-92"),
    Sensor("DRV5032FC", "omnipolar", "open-drain", 50.0,
           Figure(1.6, "uA", _DRV5032 + " s.1 Features (20-Hz versions, 3 V)"),
           Figure(4.8, "mT", _DRV5032_TABLE), "SOT-23, TO-92",
           "the old BOM called this variant 'FA'"),
    Sensor("DRV5032DG", "unipolar", "push-pull", 12.5,
           Figure(6.4, "uA", "estimate: the 20-Hz figure x 4 (80 Hz); no source found",
                  check=True),
           Figure(3.4, "mT", _DRV5032_TABLE), "X2SON only (1.4 x 1.1 mm)",
           "80 Hz, but one pole only and a leadless package: every magnet the same way up, "
           "every sensor on a reflowed PCB"),
    Sensor("DRV5033FA", "omnipolar", "open-drain", 0.0,
           Figure(3500.0, "uA", _DRV5033 + " s.6.5 Electrical Characteristics, ICC max; "
                  "value from memory, not found in a public text", check=True),
           Figure(6.9, "mT", _DRV5033 + " s.6.7 Magnetic Characteristics, FA BOP max; "
                  "value from memory, not found in a public text (6.9 mT is the AJ "
                  "version's typical BOP in TI SLIS164 s.1: the FA's maximum may differ)",
                  check=True),
           "SOT-23, TO-92",
           "continuous: the output follows the field within its propagation delay (tens of us)"),
    Sensor("DRV5012 (SEL high)", "bipolar latch", "push-pull", 0.4,
           Figure(142.0, "uA", "TI SLVSDD5 (DRV5012), 2.5-kHz mode", check=True),
           Figure(3.3, "mT", "TI SLVSDD5", check=True), "X2SON",
           "a latch: it stays on when the magnet leaves until an opposite pole comes, so a "
           "lifted pawn would still read present. Unusable here"),
]  # fmt: skip
# The DRV5033FA's typical figures (the power budget's "typical" column, the magnet's margin).
DRV5033_ICC_TYP = Figure(2700.0, "uA", _DRV5033 + " s.6.5 Electrical Characteristics, ICC typ; "
                         "value from memory, not found in a public text", check=True)  # fmt: skip
DRV5033FA_BOP_TYP = Figure(3.5, "mT", "TI SLIS164 (DRV5033-Q1, the automotive DRV5033) s.1 "
                           "Features: BOP/BRP 3.5/2 mT typ for the FA, 6.9/3.5 mT for "
                           "the AJ")  # fmt: skip
CHOSEN = "DRV5033FA"


def chosen() -> Sensor:
    return next(s for s in SENSORS if s.part == CHOSEN)


def settle_for(sensor: Sensor, target: float = TARGET_MS) -> float:
    """The longest settle time that keeps the worst latency within the target."""
    return target - sensor.worst_latency_ms(0)


def sensor_table() -> list[str]:
    rows = [
        f"| part | response | output | sampling period | worst latency (settle {SETTLE_MS:g} ms) "
        "| settle for "
        f"{TARGET_MS:g} ms | current x 104 | B_OP max | packages |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for s in SENSORS:
        period = "continuous" if s.sample_ms == 0 else f"{s.sample_ms:g} ms"
        cur = s.current_104_ma
        cur_s = f"{cur:.3g} mA" if cur >= 1 else f"{cur * 1000:.3g} uA"
        rows.append(
            f"| {s.part} | {s.response} | {s.output} | {period} | "
            f"{s.worst_latency_ms():g} ms | {settle_for(s):g} ms | {cur_s}{star(s.icc_ua)} | "
            f"{s.bop_max_mt.value:g} mT{star(s.bop_max_mt)} | {s.packages} |"
        )
    return rows


def latency_lines(s: Sensor) -> list[str]:
    total = s.worst_latency_ms()
    return [
        f"- sensor's own update: {s.sample_ms:g} ms "
        f"({'continuous' if not s.sample_ms else 'one sampling period'}; sensors.json)",
        f"- until the next scan sees it: {SCAN_MS:g} ms (200 scans/s)",
        f"- debounce: {DEBOUNCE_MS:g} ms",
        f"- settle: {SETTLE_MS:g} ms (`settle_ms`)",
        f"- the ESP32's slowest rules check, a 7 split over 8 pawns: up to {CHECK_MS:g} ms "
        "(`make bench`'s estimate with its share of a garbage collection; a single-pawn card "
        "takes 1.4-4 ms)",
        f"- the move event (JSON, numbered, kept, framed): up to {EVENT_MS:g} ms (`make bench`)",
        "- not counted: the game and its new events go to flash before the event goes out "
        "(docs/protocol.md, s.9 Resets): a LittleFS write on the ESP32's flash takes milliseconds, "
        "an erase tens of them; not measured here, it comes out of the time to spare",
        f"- worst: **{total:g} ms** (target {TARGET_MS:g} ms: "
        f"{'met' if total <= TARGET_MS else 'missed'}, {TARGET_MS - total:g} ms to spare; "
        f"the longest settle that meets it: {settle_for(s):g} ms)",
        "- what `make bench` measures on the simulated board (virtual clock, this sensor's "
        "model): last hand action -> move event, every move of generated games; it adds the "
        "check and the event's estimates to that",
    ]


# --- the chain's clock -----------------------------------------------------------------------

# The 74HC165's timing. TI specifies the HC family at 2, 4.5 and 6 V only; at our 3.3 V the
# 2-V limits are the safe bound. TI's own SN74HC165 table (SCLS116) was not re-read: the tpd
# is NXP's (a maker may buy either; the simulator's chip model, firmware/sim/chips.py, uses
# the same table), the clock's pulse width TI's CD74HC165 and NXP's, which agree.
HC165_TPD_CLK_QH_2V = Figure(205.0, "ns", "NXP 74HC_HCT165 data sheet rev. 03, Table 7 Dynamic "
                             "characteristics: tpd CP to Q7, VCC 2.0 V, -40..85 C max")  # fmt: skip
HC165_FMAX_2V = Figure(5.0, "MHz", "TI SCHS156D (CD74HC165) s.5.5 and NXP 74HC_HCT165 Table 7: "
                       "CLK pulse width 100 ns min at VCC 2 V, -40..85 C (1 / 200 ns)")  # fmt: skip
HC165_FCLOCK_3V3 = Figure(12.0, "MHz", "TI E2E forum, 'SN74HC165: clock frequency' (thread "
                          "1622586): TI interpolates linearly between 2 and 4.5 V, 12 MHz at "
                          "3.3 V")  # fmt: skip
HC165_CI = Figure(10.0, "pF", "TI SCLS116, Ci max")
HC_INPUT_TT_2V = Figure(1000.0, "ns", "TI SCLS116, input transition time max at 2 V", True)
ESP32_GPIO_MATRIX_NS = Figure(25.0, "ns", "ESP-IDF SPI master guide: GPIO-matrix input delay "
                              "(about 2 APB clocks)", True)  # fmt: skip
CABLE_PF_PER_M = 50.0  # flat cable, a signal beside its ground wire (typical; an assumption)
CABLE_NS_PER_M = 5.0  # signal speed on flat cable, about 0.66 c (typical; an assumption)
SERIES_OHM = 220.0  # series resistor at the ESP32's clock and load pins (circuit.py)
SPI_HZ = 1_000_000  # what the pin maps' shift_chain baudrate says
REGISTERS = 13


@dataclass
class Chain:
    bus_m: float
    c_pf: float
    tau_ns: float
    rise_ns: float
    delay_ns: float
    bit_ns: float
    read_path_ns: float
    scan_us: float


def chain(lay: geometry.Layout | None = None, hz: int = SPI_HZ) -> Chain:
    lay = lay or geometry.layout()
    bus_m = lay.bus_length() / 1000
    c = bus_m * CABLE_PF_PER_M + REGISTERS * HC165_CI.value
    tau = SERIES_OHM * c * 1e-3  # ohm * pF = ps -> ns
    # mode 2 (the pin maps' polarity 1, phase 0): each register shifts on the rising edge and
    # the ESP32 samples on the next falling edge, half a period later; in that half period:
    # the clock to the far register, its tpd, the wire back, the GPIO matrix.
    read_path = (
        0.7 * tau
        + HC165_TPD_CLK_QH_2V.value
        + bus_m * CABLE_NS_PER_M
        + (ESP32_GPIO_MATRIX_NS.value)
    )
    return Chain(
        bus_m=bus_m,
        c_pf=c,
        tau_ns=tau,
        rise_ns=2.2 * tau,
        delay_ns=bus_m * CABLE_NS_PER_M,
        bit_ns=1e9 / hz,
        read_path_ns=read_path,
        scan_us=(REGISTERS + 1) * 8 * 1e6 / hz,
    )


def chain_lines(ch: Chain) -> list[str]:
    half = ch.bit_ns / 2
    return [
        f"- clock and load lines: {ch.bus_m:.2f} m of cable from the ESP32 through 13 registers "
        "(the route in wiring.svg, run along the board's x and y)",
        f"- load on each line: {ch.bus_m:.2f} m x {CABLE_PF_PER_M:g} pF/m + 13 x "
        f"{HC165_CI.value:g} pF = {ch.c_pf:.0f} pF",
        f"- one-way delay along it: {ch.delay_ns:.0f} ns. An ESP32 edge (a few ns) is far "
        "shorter than the round trip, so unterminated the line rings, and a ringing clock "
        "edge clocks a register twice (74HC inputs have no hysteresis)",
        f"- a {SERIES_OHM:g} Ohm series resistor at the ESP32 makes the edge slow and "
        f"monotonic: tau = {ch.tau_ns:.0f} ns, 10-90 % rise {ch.rise_ns:.0f} ns, "
        f"{ch.rise_ns / ch.delay_ns:.1f} x the line delay (the line then acts as one "
        f"lumped load), inside the 74HC's {HC_INPUT_TT_2V.value:g} ns input transition "
        f"limit{star(HC_INPUT_TT_2V)}",
        f"- at {SPI_HZ / 1e6:g} MHz a half period is {half:.0f} ns: the clock reaches "
        f"full swing (5 tau = {5 * ch.tau_ns:.0f} ns) in every half period; "
        f"{'OK' if 5 * ch.tau_ns < half else 'NOT OK'}",
        f"- read timing (SPI mode 2: a register shifts on the rising edge, the ESP32 samples "
        f"on the falling edge half a period later): far clock edge {0.7 * ch.tau_ns:.0f} ns + "
        f"tpd {HC165_TPD_CLK_QH_2V.value:g} ns + wire {ch.delay_ns:.0f} ns + GPIO matrix "
        f"{ESP32_GPIO_MATRIX_NS.value:g} ns{star(ESP32_GPIO_MATRIX_NS)} = "
        f"{ch.read_path_ns:.0f} ns of a {half:.0f} ns half period: "
        f"{'OK' if ch.read_path_ns < half else 'NOT OK'}",
        f"- at 5 MHz the half period is 100 ns: the read path alone ({ch.read_path_ns:.0f} ns) "
        f"does not fit, and 5 MHz is the 74HC165's clock limit at 2 V ({HC165_FMAX_2V.value:g} "
        f"MHz; {HC165_FCLOCK_3V3.value:g} MHz at 3.3 V by TI's interpolation: at 1 MHz the "
        "cable limits the clock, not the chip)",
        f"- scan time at {SPI_HZ / 1e6:g} MHz: {ch.scan_us:.0f} us of clocking per scan "
        "(13 bytes and the check byte; at 5 MHz it would be 22 us): "
        f"{ch.scan_us / (SCAN_MS * 10):.1f} % of the 5 ms scan period",
    ]


# --- power -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Load:
    what: str
    rail: str  # "3V3" (through the DevKitC's regulator, from its USB) or "5V" (sensor input)
    typ_ma: float
    max_ma: float
    src: str


def loads(sensor: Sensor | None = None) -> list[Load]:
    s = sensor or chosen()
    typ = DRV5033_ICC_TYP.value / 1000 if s.part == "DRV5033FA" else s.icc_ua.value / 1000
    return [
        Load("ESP32, CPU at 240 MHz, radio off", "3V3", 50, 68,
             "ESP32 Series Datasheet s.5 (Modem-sleep, 240 MHz: 30-68 mA)"),
        Load("USB-UART bridge, power LED, regulator", "3V3", 15, 25,
             "allowance (CP2102N and the DevKitC's LED; not from a datasheet)"),
        Load("MFRC522 reader (transmitter on)", "3V3", 73, 119,
             "NXP MFRC522 s.14 Characteristics: IDDD 6.5/9, IDDA 7/10, ITVDD 60/100 mA"),
        Load("13 x 74HC165", "3V3", 0.1, 0.5,
             "SCLS116: ICC 8 uA max each at 25 C; clocking 2 % of the time"),
        Load("pull-ups of sensors seeing a magnet (16 pawns)", "3V3", 5.3, 5.3,
             "16 x 3.3 V / 10 kOhm"),
        Load(f"104 x {s.part}", "5V", typ * 104, s.icc_ua.value * 104 / 1000,
             s.icc_ua.src + star(s.icc_ua)),
        Load("2 goal sensors (Weykick table only, instead of the 104)", "5V", 0, 0,
             "counted in the line above: a table has one or the other"),
    ]  # fmt: skip


RADIO_TX_MA = Figure(240.0, "mA", "ESP32 Series Datasheet s.5 RF: TX 802.11b 1 Mbps, 19.5 dBm")
USB2_MA = 500.0  # USB 2.0 port, per the USB 2.0 specification
LED_MA_PER_CHANNEL = 20.0  # WS2812-class LED, per colour at full brightness (typical figure)
LED_IDLE_MA = 1.0  # WS2812-class LED, dark (typical figure; check the chosen LED's datasheet)
LED_CAP_MA = 1500.0  # the firmware's brightness cap a future LED chain must enforce


def power_lines() -> list[str]:
    ls = loads()
    rows = ["| load | rail | typical | max | source |", "|---|---|---|---|---|"]
    for x in ls:
        rows.append(f"| {x.what} | {x.rail} | {x.typ_ma:.1f} mA | {x.max_ma:.1f} mA | {x.src} |")
    usb_typ = sum(x.typ_ma for x in ls if x.rail == "3V3")
    usb_max = sum(x.max_ma for x in ls if x.rail == "3V3")
    radio_max = usb_max - 68 + RADIO_TX_MA.value
    five_typ = sum(x.typ_ma for x in ls if x.rail == "5V")
    five_max = sum(x.max_ma for x in ls if x.rail == "5V")
    led_worst = 104 * (3 * LED_MA_PER_CHANNEL + LED_IDLE_MA)
    rows += [
        "",
        f"- **from the laptop's USB** (DevKitC: ESP32, reader, registers, pull-ups; the "
        f"regulator passes the current through): {usb_typ:.0f} mA typical, {usb_max:.0f} mA "
        f"max with the radio off; {radio_max:.0f} mA peaks with Wi-Fi transmitting "
        f"({RADIO_TX_MA.value:g} mA, {RADIO_TX_MA.src}). A USB 2.0 port gives "
        f"{USB2_MA:g} mA: enough with the radio off (the firmware does not use it).",
        f"- **from the 5 V input** (sensor rail, through a 0.5 A resettable fuse): "
        f"{five_typ:.0f} mA typical, {five_max:.0f} mA max. A 5 V 1 A adapter covers it; "
        "specify 5 V 2 A so the same input feeds the LED chain below.",
        f"- **a future LED chain**, one addressable LED per square: {led_worst / 1000:.1f} A "
        f"if all 104 were full white ({LED_MA_PER_CHANNEL:g} mA x 3 colours + "
        f"{LED_IDLE_MA:g} mA idle each, typical WS2812-class figures), {104 * LED_IDLE_MA:.0f} "
        f"mA dark. Never from USB: from the 5 V input, with the firmware capping the chain at "
        f"{LED_CAP_MA / 1000:g} A (so a 5 V 3 A adapter for sensors + LEDs), and a level "
        "shifter (e.g. 74AHCT1G125) on its data line: 3.3 V is below a 5 V LED's input high.",
        "- The two 5 V sources are never joined (the DevKitC's own 5 V pin stays unconnected); "
        "the grounds are.",
    ]
    return rows


# --- the magnet in a pawn --------------------------------------------------------------------

N35_BR = Figure(1.17, "T", "N35 grade: Br 1.17-1.22 T (IEC 60404-8-1 grade tables; the low end)")
FELT_MM = 0.5  # felt or lacquer under the pawn, magnet to the board's surface
HALL_DEPTH_MM = 1.0  # top of the sensor package to its Hall element (TO-92 LPG about 0.8)


def bz_axis(br: float, radius: float, length: float, z: float) -> float:
    """Field (same unit as br) on the axis of an axially magnetised disc, at z (mm) from its
    face: the closed form of the equivalent-current model."""
    return br / 2 * ((z + length) / math.hypot(radius, z + length) - z / math.hypot(radius, z))


def bz(br: float, radius: float, length: float, x: float, z: float, n: int = 24) -> float:
    """Vertical field at a point x (mm) off the axis and z (mm) below the disc's face, by
    integrating the disc's equivalent surface current (Biot-Savart, n rings of 4n segments).
    Agrees with bz_axis on the axis (tests check it)."""
    k = br / (4 * math.pi)  # mu0 * K / (4 pi) with K = Br / mu0 per unit height
    total = 0.0
    dh = length / n
    segs = 4 * n
    for i in range(n):
        zc = -(z + (i + 0.5) * dh)  # ring height relative to the point (rings above it)
        for j in range(segs):
            a = 2 * math.pi * (j + 0.5) / segs
            # ring element at (R cos a, R sin a, zc); current along (-sin a, cos a, 0)
            rx, ry, rz = x - radius * math.cos(a), -radius * math.sin(a), -zc
            dlx, dly = (
                -math.sin(a) * radius * 2 * math.pi / segs,
                math.cos(a) * radius * 2 * math.pi / segs,
            )
            r3 = (rx * rx + ry * ry + rz * rz) ** 1.5
            total += (dlx * ry - dly * rx) / r3 * dh
    return k * total


MAGNETS = [(5.0, 2.0), (6.0, 2.0), (6.0, 3.0), (8.0, 3.0)]  # diameter, height (mm)
SKINS = [3.0, 5.0, 8.0, 12.0]  # board top thickness over the sensor (mm)
MAGNET = (6.0, 3.0)  # chosen: 6 x 3 mm N35
SKIN_MM = 5.0  # the reference build's top: 5 mm plywood over the sensor pockets


def magnet_lines() -> list[str]:
    bop = chosen().bop_max_mt.value
    br = N35_BR.value * 1000  # mT
    rows = [
        "| magnet (N35) | " + " | ".join(f"top {t:g} mm" for t in SKINS) + " |",
        "|---|" + "---|" * len(SKINS),
    ]
    for d, h in MAGNETS:
        cells = []
        for t in SKINS:
            b = bz_axis(br, d / 2, h, FELT_MM + t + HALL_DEPTH_MM)
            cells.append(f"{b:.1f} mT" + (" ok" if b >= 2 * bop else " weak"))
        rows.append(f"| {d:g} x {h:g} mm | " + " | ".join(cells) + " |")
    d, h = MAGNET
    z = FELT_MM + SKIN_MM + HALL_DEPTH_MM
    own = bz_axis(br, d / 2, h, z)
    near = abs(bz(br, d / 2, h, geometry.PITCH, z))
    diag = abs(bz(br, d / 2, h, geometry.PITCH * math.sqrt(2), z))
    rows += [
        "",
        f"'ok' = at least twice the chosen sensor's B_OP max ({bop:g} mT). Distance magnet "
        f"face to Hall element = felt {FELT_MM:g} + top + {HALL_DEPTH_MM:g} mm in the package.",
        f"- chosen: {d:g} x {h:g} mm N35 with a {SKIN_MM:g} mm top: {own:.1f} mT at the own "
        f"sensor ({own / bop:.1f} x B_OP max); {near:.2f} mT at the next square "
        f"({geometry.PITCH:g} mm away) and {diag:.2f} mT at the diagonal one: far below any "
        "operate point, so a pawn never lights its neighbour.",
        "- computed from the grade's remanence with the disc's equivalent-current model, "
        "not measured: the maker's check is `plateau calibrate` (every square sees its pawn) "
        "and `plateau selftest` with all 16 pawns in their camps.",
    ]
    return rows


# --- the reader through a pile of cards ------------------------------------------------------

CARD_MM = 0.30  # a playing card's thickness (typical 0.28-0.32 mm; an assumption)
STICKER_MM = 0.15  # an NTAG213 sticker inlay (typical; an assumption)
READER_RANGE = Figure(50.0, "mm", "NXP MFRC522 data sheet s.3 Features and benefits: typical "
                      "operating distance in Read/Write mode up to 50 mm, depending on the "
                      "antenna size and tuning")  # fmt: skip


def reader_lines() -> list[str]:
    per = CARD_MM + STICKER_MM
    rows = []
    for n, what in ((5, "Hold'em board (5 cards)"), (48, "Pocha, a 48-card deck"),
                    (52, "Tock, a whole deck before the reshuffle")):  # fmt: skip
        top = SKIN_MM + n * per
        rows.append(f"- {what}: top card {top:.0f} mm above the antenna "
                    f"({SKIN_MM:g} mm top + {n} x {per:.2f} mm)")  # fmt: skip
    rows += [
        f"- the reader's nominal range is up to {READER_RANGE.value:g} mm ({READER_RANGE.src}) "
        "for one tag in the field. A pile is many tags: each detunes the antenna a little and "
        "takes a share of the field, so the real range with 50 stickers stacked is shorter, by "
        "an amount nobody publishes and we have not measured.",
        "- what the table does about it: the firmware halts every tag it has read, so only "
        "the newest card answers; the maker's check (README step 6) lays a whole deck one "
        "card at a time and every card must be read. If the top of the pile stops reading, "
        "thin the top over the reader (a 2 mm window) or use a larger antenna.",
    ]
    return rows


def sourced() -> list[tuple[str, Figure]]:
    """Every datasheet figure used above, named."""
    out = []
    for s in SENSORS:
        out += [(f"{s.part} supply current", s.icc_ua), (f"{s.part} B_OP max", s.bop_max_mt)]
    return out + [
        ("DRV5033FA supply current, typical", DRV5033_ICC_TYP),
        ("DRV5033FA B_OP, typical", DRV5033FA_BOP_TYP),
        ("74HC165 tpd CLK -> QH at 2 V", HC165_TPD_CLK_QH_2V),
        ("74HC165 clock at 2 V", HC165_FMAX_2V),
        ("74HC165 clock at 3.3 V", HC165_FCLOCK_3V3),
        ("74HC165 input capacitance", HC165_CI),
        ("74HC input transition time at 2 V", HC_INPUT_TT_2V),
        ("ESP32 GPIO-matrix input delay", ESP32_GPIO_MATRIX_NS),
        ("ESP32 Wi-Fi transmit current", RADIO_TX_MA),
        ("N35 remanence", N35_BR),
        ("MFRC522 operating distance", READER_RANGE),
    ]


def sources_lines() -> list[str]:
    rows = ["| figure | value | source |", "|---|---|---|"]
    for what, f in sourced():
        rows.append(f"| {what} | {f.value:g} {f.unit}{star(f)} | {f.src} |")
    left = sum(f.check for _, f in sourced())
    rows += [
        "",
        f"{left} figures still marked (*): no public text confirming them was found; read them "
        "in the PDF before ordering.",
    ]
    return rows


def markdown() -> str:
    s = chosen()
    out = [
        "# Hardware figures (generated by `python -m hardware.circuit`; do not edit)",
        "",
        "Every input is a datasheet figure (part, document, section) or a stated assumption; "
        "(*) marks figures transcribed from the datasheet from memory, to re-check against the "
        "PDF before ordering. Nothing here was measured.",
        "",
        "## Hall sensor candidates",
        "",
        *sensor_table(),
        "",
        f"Chosen: **{s.part}** ({s.note}).",
        "",
        "## Move latency, worst case, with the chosen sensor",
        "",
        *latency_lines(s),
        "",
        "## The chain's clock",
        "",
        *chain_lines(chain()),
        "",
        "## Power budget",
        "",
        *power_lines(),
        "",
        "## Magnet and field at the sensor",
        "",
        *magnet_lines(),
        "",
        "## Reader range through a pile of cards",
        "",
        *reader_lines(),
        "",
        "## Sources of the datasheet figures",
        "",
        *sources_lines(),
        "",
    ]
    return "\n".join(out)


if __name__ == "__main__":
    print(markdown())
