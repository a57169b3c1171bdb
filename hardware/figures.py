"""The numbers behind the hardware choices, computed from datasheet figures and the board's
geometry: the Hall sensor chosen by latency and current, the move latency, the power budget,
the chain's clock, the magnet's field at the sensor, the reader under the card spot.

`python -m hardware.figures` prints them; `python -m hardware.circuit` writes them to
hardware/generated/figures.md. Nothing here was measured: every input is a datasheet figure
(cited) or a stated assumption, and the outputs are arithmetic."""

from __future__ import annotations

import math
from dataclasses import dataclass

from hardware import geometry, parts
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
           Figure(parts.HALL.draw[1].value * 1000, "uA", parts.HALL.draw[1].src, check=True),
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


# --- power (counted from the netlist: hardware/electrical.py) -----------------------------------

RADIO_TX_MA = Figure(240.0, "mA", "ESP32 Series Datasheet s.5 RF: TX 802.11b 1 Mbps, 19.5 dBm")
ESP32_CPU_MA = 68.0  # the Modem-sleep maximum inside the DevKitC's draw (parts.ESP32_DEVKITC)
USB2_MA = 500.0  # USB 2.0 port, per the USB 2.0 specification
ADAPTER_A = 3.0  # the BOM's 5 V adapter
PULLUP_MA = 16 * 3.3 / 10.0 + 2 * 3.3 / 2.2  # 16 pawns' pull-ups, the I2C lines held low


def power_lines(f: dict) -> list[str]:
    """The power budget of one board from its netlist's facts (electrical.facts)."""
    loads, fuses = f["loads"], f["fuses"]
    rows = ["| rail | load | qty | each | worst | source |", "|---|---|---|---|---|---|"]
    for x in sorted(loads, key=lambda x: (x.rail, -x.total_ma)):
        rows.append(f"| {x.rail} | {x.what} | {x.count} | {x.each_ma:g} mA | "
                    f"{x.total_ma:.1f} mA | {x.src}{' (*)' if x.check else ''} |")  # fmt: skip
    on = lambda *names: sum(x.total_ma for x in loads if x.rail in names)  # noqa: E731
    usb = on("+3V3") + PULLUP_MA
    radio = usb - ESP32_CPU_MA + RADIO_TX_MA.value
    five = on("+5V_SENS", "+5V_LED")
    rows += [
        "",
        f"- **from the laptop's USB** (the ESP32 board's regulator: ESP32, reader, registers, "
        f"displays, pull-ups): {usb:.0f} mA worst with the radio off (the table above plus "
        f"{PULLUP_MA:.1f} mA of pull-ups: 16 pawns' sensors low, both I2C lines low); "
        f"{radio:.0f} mA peaks with Wi-Fi transmitting ({RADIO_TX_MA.value:g} mA instead of "
        f"{ESP32_CPU_MA:g}: {RADIO_TX_MA.src}). A USB 2.0 port gives {USB2_MA:g} mA: "
        f"{'enough' if radio < USB2_MA else 'NOT enough'}, {USB2_MA - radio:.0f} mA to spare "
        "at the Wi-Fi peak.",
        f"- **from the 5 V input** (J1, through the reverse-polarity MOSFET, then one fuse per "
        f"rail): {on('+5V_SENS'):.0f} mA for the sensor rail, {on('+5V_LED'):.0f} mA for the LED "
        f"rail (the chain at the firmware's cap), {five / 1000:.2f} A together: the BOM's "
        f"{ADAPTER_A:g} A adapter is at {five / 10 / ADAPTER_A:.0f} %.",
        "- Fuses, hold current derated to the design temperature by the MF-R series' chart"
        f"{star(parts.MF_R_DERATING)} ({parts.DESIGN_C:g} C: a 40 C room and the closed "
        "frame's own heat, an assumption):",
        "",
        "| fuse | rail | worst load | hold at 23 C | hold at "
        f"{parts.DESIGN_C:g} C | margin | hold at 85 C | trip at 23 C | drop at the worst "
        "load |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for fz in fuses:
        sp = fz["part"].series
        h85 = sp.hold_a.value * parts.derate(parts.MF_R_DERATING_ROWS, 85)
        rows.append(
            f"| {fz['ref']} {fz['part'].mpn} | {', '.join(fz['rails'])} | "
            f"{fz['load_a']:.3f} A | {sp.hold_a.value:g} A | {fz['hold_a']:.2f} A | "
            f"{fz['hold_a'] / fz['load_a']:.2f} x | {h85:.2f} A | {sp.trip_a.value:g} A"
            f" | {fz['load_a'] * sp.ohm.value:.2f} V (R1max {sp.ohm.value:g} Ohm) |"
        )
    q = parts.REVERSE.series.ohm
    rows += [
        "",
        f"- F1's trip current ({parts.PTC_SENSORS.series.trip_a.value:g} A) is within the "
        f"adapter's {ADAPTER_A:g} A: a short in the sensor harness trips F1, not the adapter. "
        f"F2 trips at {parts.PTC_LEDS.series.trip_a.value:g} A, above the adapter: a dead "
        "short on the LED rail meets the adapter's own overload protection first; F2 guards "
        "the LED harness against an overload the adapter can sustain (firmware without its "
        "cap: 107 LEDs full white would ask 6.5 A).",
        f"- The reverse-polarity MOSFET drops {five / 1000 * q.value * 1000:.0f} mV at the "
        f"worst load ({q.src}); a reversed adapter leaves it off and every rail dead.",
        "- Sources never joined: the ESP32 board's own 5 V pin stays unconnected (the check "
        "fails a rail fed by two sources); the grounds are joined.",
    ]
    return rows


# --- the chain's clock margin -----------------------------------------------------------------

FLAT_OHM_PER_M = Figure(0.213, "Ohm/m", "a 28 AWG conductor (1.27 mm flat cable), copper at "
                        "20 C (AWG table; an assumption about the cable bought)")  # fmt: skip
FLAT_GROUNDS = 5  # the flat cable's ground conductors (parts.CHAIN_PINS)


def clock_margin(lay: geometry.Layout | None = None, vdd: float = 3.3) -> dict:
    """The clock's logic margins at the far register: the ESP32's output levels against the
    74HC165's thresholds at 3.3 V, less the ground offset the sensors' current makes along the
    flat cable's grounds (the registers' carriers take their sensors' return through it)."""
    lay = lay or geometry.layout()
    voh, vol = parts.ESP32_VOH[0] * vdd, parts.ESP32_VOL[0] * vdd
    vih = parts.SHIFT_REGISTER.logic.vih_at(vdd)
    vil = parts.Logic("VCC", (2, 6), (1, 0), None, "", vih_table=parts.HC_VIL).vih_at(vdd)
    pts = lay.chain_points
    seg = [geometry._manhattan(a, b) / 1000 for a, b in zip(pts, pts[1:])]
    per = 8 * parts.HALL.draw[1].value / 1000  # A per carrier: 8 sensors at ICC max
    n = len(seg)
    offset = sum(seg[k] * FLAT_OHM_PER_M.value / FLAT_GROUNDS * per * (n - k) for k in range(n))
    return {"voh": voh, "vol": vol, "vih": vih, "vil": vil, "offset": offset,
            "high": voh - offset - vih, "low": vil - (vol - offset), "segments": seg}  # fmt: skip


def margin_lines(lay: geometry.Layout) -> list[str]:
    m = clock_margin(lay)
    return [
        f"- the ESP32 drives at least {m['voh']:.2f} V high and at most {m['vol']:.2f} V low "
        f"({parts.ESP32_VOH[1]}; {parts.ESP32_VOL[1].split(': ')[1]})",
        f"- a 74HC165 at 3.3 V needs {m['vih']:.2f} V high and {m['vil']:.2f} V low: TI gives "
        f"2, 4.5 and 6 V rows only (SCLS116 s.6.3), interpolated; no hysteresis",
        f"- ground offset at register 12: the sensors' current (8 x "
        f"{parts.HALL.draw[1].value:g} mA a carrier{star(parts.HALL.draw[1])}) returns through "
        f"the flat cable's {FLAT_GROUNDS} ground conductors ({FLAT_OHM_PER_M.value:g} Ohm/m "
        f"each{star(FLAT_OHM_PER_M)}: {FLAT_OHM_PER_M.src}) along {sum(m['segments']):.2f} m: "
        f"the far ground sits {m['offset'] * 1000:.0f} mV above the ESP32's",
        f"- margins at the far register: high {m['voh']:.2f} - {m['offset']:.3f} - "
        f"{m['vih']:.2f} = **{m['high'] * 1000:.0f} mV**, low {m['vil']:.2f} - "
        f"({m['vol']:.2f} - {m['offset']:.3f}) = **{m['low'] * 1000:.0f} mV**: "
        f"{'positive both ways' if min(m['high'], m['low']) > 0 else 'NOT positive'}",
        "- the edges' own return current flows in the ground wire beside each signal (the "
        "flat cable pairs them), so it is the line's behaviour (the rise above, slowed by the "
        "220 Ohm resistor to a monotonic ramp), not an offset between the ends. Not measured: "
        "README step 5 checks the clock at register 12 with an oscilloscope; a second edge "
        "there would call for a Schmitt buffer (two gates of a 74HC14 in series per line) on "
        "carrier 6",
        "- the route: registers 9-12 each hold one colour's home and camp (sensors.json), so "
        f"the cable runs {lay.bus_length() / 1000:.2f} m (4.09 m when registers 9-12 mixed two "
        "colours each)",
    ]


# --- the LED chain, the displays, the buzzer, the rail watch -----------------------------------

WIRE_24AWG = Figure(0.0842, "Ohm/m", "24 AWG copper at 20 C (AWG table)")
WIRE_20AWG = Figure(0.0333, "Ohm/m", "20 AWG copper at 20 C (AWG table)")
AHCT_VOH = Figure(3.94, "V", "TI SCLS264 s.5.4: VOH 3.94 V min at IOH -8 mA, VCC 4.5 V (from "
                  "memory of the table)", check=True)  # fmt: skip


def led_lines(f: dict, lay: geometry.Layout) -> list[str]:
    pm = f["pinmap"]["leds"]
    n, cap = pm["count"], pm["ma_cap"]
    full = 3 * pm["ma_channel"]
    frame_us = n * 24 * parts.LED_BIT_US.value + parts.LED_RESET_US.value
    # the worst drop: the whole cap drawn by one injection group, fed at its first LED
    worst = 0.0
    for trunk, links in zip(lay.injection_mm(), lay.group_links_mm()):
        drop = 2 * cap / 1000 * (trunk / 1000 * WIRE_20AWG.value + links / 1000 *
                                 WIRE_24AWG.value / 2)  # fmt: skip
        worst = max(worst, drop)
    f2 = parts.PTC_LEDS.series.ohm.value * (cap + n) / 1000
    vdd = 5.0 - f2 - worst
    vih = parts.LED.logic.vih_at(5.0)
    return [
        f"- {n} WS2812B: {len(lay.bits)} under the squares (LED i under sensors.json's bit "
        f"i), LED {pm['spot']} at the card spot, LEDs {pm['goals']['A']} and "
        f"{pm['goals']['B']} in goals A and B; each at its square's corner, outside a 21 mm "
        "pawn base, under a "
        f"{geometry.LED_WINDOW_MM:g} mm clear acrylic window through the top",
        f"- current: {full} mA full white ({pm['ma_channel']} mA a colour: "
        f"{parts.LED_MA_CHANNEL.src}), {pm['ma_idle']} mA dark ({parts.LED_IDLE_MA.src}). "
        f"Uncapped, {n} full white would take {n * full / 1000:.1f} A; the firmware keeps the "
        f"sum of brightness x lit LEDs under {cap} mA (pin map leds.ma_cap): "
        f"{cap // full} LEDs full white, {cap // pm['ma_channel']} at one colour, every LED at "
        f"{100 * cap / (n * full):.0f} % white",
        f"- a frame: {n} x 24 bits x {parts.LED_BIT_US.value:g} us + the "
        f"{parts.LED_RESET_US.value:g} us reset = {frame_us / 1000:.2f} ms on the wire "
        f"({parts.LED_BIT_US.src}; {parts.LED_RESET_US.src})",
        f"- power fed in along the chain: {n} LEDs in groups of {geometry.LED_GROUP}, each "
        f"group's first LED fed from the main board by a 0.5 mm2 pair "
        f"({', '.join(f'{t / 1000:.2f}' for t in lay.injection_mm())} m), the LEDs linked with "
        f"0.2 mm2. Worst case, the whole cap in one group: {worst * 1000:.0f} mV lost in the "
        f"wires (supply and return; {WIRE_20AWG.src}, {WIRE_24AWG.src}), {f2 * 1000:.0f} mV in "
        f"F2: {vdd:.2f} V at the farthest LED, within the WS2812B's 3.5-5.3 V",
        f"- data: the ESP32's {parts.ESP32_VOH[0] * 3.3:.2f} V high is below a 5 V LED's VIH "
        f"({vih:.1f} V: {parts.LED.logic.src}); the 74AHCT125 reads it as high (VIH 2 V) and "
        f"drives at least {AHCT_VOH.value:g} V{star(AHCT_VOH)} into the first LED through "
        "330 Ohm at the LED's end of the wire and a 1000 uF across the chain's supply (the "
        "Adafruit NeoPixel Uberguide's best practices); each LED then regenerates the signal",
    ]


I2C_TR_NS = Figure(300.0, "ns", "NXP UM10204 I2C-bus specification, Table 10: Fast-mode rise "
                   "time max 300 ns, bus capacitance max 400 pF")  # fmt: skip
I2C_RP = (
    "NXP UM10204 s.7.1: Rp min = (VDD - VOL max) / IOL = (VDD - 0.4 V) / 3 mA; Rp max "
    "= tr / (0.8473 Cb)"
)
MODULE_PULLUP_OHM = 4700.0  # what 1.3 in modules commonly carry on SDA/SCL (an assumption)
PIN_PF = 10.0  # a device pin's capacitance (UM10204's Ci max, taken for every pin)
OLED_PITCH_MM = Figure(0.23, "mm", "a 1.3 in 128x64 panel, active area about 29.4 x 14.7 mm "
                       "(makers' drawings, not one data sheet)", check=True)  # fmt: skip
LEGIBLE_ARCMIN = Figure(16.0, "arcmin", "ISO 9241-3: character height 16 arcmin minimum (20-22 "
                        "preferred), from memory of the standard", check=True)  # fmt: skip


def display_lines(f: dict) -> list[str]:
    pm = f["pinmap"]["display"]
    run = sum(geometry._manhattan(geometry.ESP32_AT, p) for p in geometry.DISPLAYS_AT.values())
    cb = run / 1000 * CABLE_PF_PER_M + (len(pm["addr"]) + 1) * PIN_PF
    rp = 2200.0
    tr = 0.8473 * rp * cb * 1e-3
    both = 1 / (1 / rp + len(pm["addr"]) / MODULE_PULLUP_OHM)
    rp_min = (3.3 - 0.4) / 3e-3
    rows = [
        f"- two SH1106 128x64 OLEDs, one at each end of the table (addresses "
        f"{', '.join(f'0x{a:02X}' for a in sorted(pm['addr'].values()))}, pin map "
        f"display.addr), on one I2C bus at {pm['freq'] // 1000} kHz",
        f"- the bus: {run / 1000:.2f} m of cable x {CABLE_PF_PER_M:g} pF/m + "
        f"{len(pm['addr']) + 1} pins x {PIN_PF:g} pF = {cb:.0f} pF; with 2.2 kOhm pull-ups "
        f"the rise takes {tr:.0f} ns of Fast-mode's {I2C_TR_NS.value:g} ns ({I2C_TR_NS.src}): "
        f"{'OK' if tr < I2C_TR_NS.value else 'NOT OK'}",
        f"- if each module carries its own {MODULE_PULLUP_OHM / 1000:g} kOhm pull-ups (many "
        f"do), the bus's are {both:.0f} Ohm together, above the {rp_min:.0f} Ohm minimum "
        f"({I2C_RP}): {'OK' if both > rp_min else 'NOT OK'}; the modules run from 3V3 so "
        "those pull-ups never bring 5 V to the ESP32",
    ]
    for scale in (1, 2, 4):
        h = 8 * scale * OLED_PITCH_MM.value
        d = h / math.tan(math.radians(LEGIBLE_ARCMIN.value / 60)) / 1000
        rows.append(
            f"- text {8 * scale} px high ({scale}x the 8 px font): {h:.1f} mm, legible to "
            f"about {d:.1f} m ({LEGIBLE_ARCMIN.value:g} arcmin{star(LEGIBLE_ARCMIN)}; "
            f"{OLED_PITCH_MM.value:g} mm pixels{star(OLED_PITCH_MM)})"
        )
    rows.append(
        "- so the players' seats (0.4-1 m from an edge) read 2x text and 4x digits; "
        "not tried by players yet"
    )
    return rows


def buzzer_lines(f: dict) -> list[str]:
    coil = parts.BUZZER.draw[1]
    ic = 5.0 / 42.0
    rb = parts.R_330.ohms
    ib = (3.3 * parts.ESP32_VOH[0] - parts.NPN_VBE_SAT.value) / rb
    return [
        f"- a magnetic transducer on the LED rail, switched low-side by a 2N3904 from the PWM "
        f"pin (pin map buzzer.pwm, {f['pinmap']['buzzer']['hz']} Hz); a 1N4148 across the coil "
        "takes its flyback current; 100 kOhm holds the base low while the ESP32 boots",
        f"- coil current {ic * 1000:.0f} mA while on (5 V / 42 Ohm), {coil.value:g} mA at most on "
        f"average ({coil.src}); base current ({parts.ESP32_VOH[0] * 3.3:.2f} - "
        f"{parts.NPN_VBE_SAT.value:g}) V / {rb:g} Ohm = {ib * 1000:.1f} mA: a forced gain of "
        f"{ic / ib:.0f}, {'under' if ic / ib < parts.NPN_HFE_MIN.value else 'NOT under'} the "
        f"2N3904's {parts.NPN_HFE_MIN.value:g} ({parts.NPN_HFE_MIN.src}): "
        f"{'saturated' if ic / ib < parts.NPN_HFE_MIN.value else 'NOT saturated'}",
    ]


def rail_lines(f: dict) -> list[str]:
    w = f["pinmap"]["sensor_rail"]
    board = parts.BOARDS[f["pinmap"]["board"]]
    r = w["ratio"]
    rows = [
        f"- the sensor rail through 22 kOhm / 15 kOhm (ratio {r}) to GPIO{w['adc']}, an ADC1 pin "
        f"({board.adc1_src}); 100 nF at the pin (the ESP-IDF ADC guide's bypass capacitor), so "
        f"the reading settles in 5 x {22 * 15 / 37 * 0.1:.2f} ms",
        f"- at {w['volts']:g} V the pin sees {r * w['volts']:.2f} V; at {w['min_volts']:g} V "
        f"(pin map min_volts: below it the adapter or F1 is failing) {r * w['min_volts']:.2f} V; "
        f"a dead rail or a tripped F1 about 0 V. The ADC reads {board.adc_range[0]:g}-"
        f"{board.adc_range[1]:g} V ({board.adc_range_src}): up to "
        f"{board.adc_range[1] / r:.1f} V on the rail",
        "- the sensors themselves work down to 2.5 V (DRV5033 s.6.3); the pull-ups are on 3V3, "
        "so a dead sensor rail reads as every pawn lifted: the rail watch is what tells them "
        "apart (the firmware's reading comes later)",
    ]
    return rows


def run_lines(lay: geometry.Layout) -> list[str]:
    rows = ["| run | conductors | length each | total | wire |", "|---|---|---|---|---|"]
    for r in geometry.runs(lay):
        rows.append(f"| {r.what} | {r.conductors} | {r.metres:.2f} m | "
                    f"{r.conductors * r.metres:.2f} m | {r.wire} |")  # fmt: skip
    return rows


def pin_lines(f: dict) -> list[str]:
    from hardware import electrical

    board = parts.BOARDS[f["pinmap"]["board"]]
    roles = electrical.gpio_roles(f["pinmap"])
    rows = [f"{board.part.value}: every GPIO with a restriction, and the pin map's roles.", "",
            "| GPIO | restriction | why | source | role |", "|---|---|---|---|---|"]  # fmt: skip
    for g in sorted(set(board.restrictions) | set(roles)):
        r = board.restrictions.get(g)
        role = roles.get(g, ("", ""))[0]
        allowed = f" (allowed: {board.allowed_straps[g]})" if g in board.allowed_straps else ""
        rows.append(f"| {g} | {r.kind if r else ''} | {(r.why if r else '') + allowed} | "
                    f"{r.src if r else ''} | {role} |")  # fmt: skip
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


# --- the reader and the card spot -----------------------------------------------------------

RECESS_MM = 1.0  # the card spot's recess in the top: one card's outline, 1 mm deep
READER_RANGE = Figure(50.0, "mm", "NXP MFRC522 data sheet s.3 Features and benefits: typical "
                      "operating distance in Read/Write mode up to 50 mm, depending on the "
                      "antenna size and tuning")  # fmt: skip


def reader_lines() -> list[str]:
    g = geometry
    over = SKIN_MM - RECESS_MM  # a card laid face up: its sticker, on its back, underneath
    # from the antenna's edge (the reader's long side lies along y) to the discard pile's
    antenna_edge = g.SPOT[1] - g.READER_BOARD[1] / 2
    pile_edge = g.DISCARD[1] + g.CARD[1] / 2
    return [
        f"- the card spot: one card's outline ({g.CARD[0]:g} x {g.CARD[1]:g} mm), a "
        f"{RECESS_MM:g} mm recess in the {SKIN_MM:g} mm top over the reader's antenna: the "
        f"sticker of a card laid face up in it (the sticker on its back) lies {over:g} mm "
        f"above the antenna, one tag in the field, within the reader's nominal range of "
        f"{READER_RANGE.value:g} mm ({READER_RANGE.src})",
        "- one card at a time: each is laid on the spot, read, then moved off. Stickers "
        "stacked aligned detune each other and do not answer at all (a public test: 0 reads "
        "in 20 for a stack of two NTAG203; the simulator's tag model, docs/drivers.md), so a "
        "pile on the reader could not be read",
        f"- the discard pile beside the spot: its outline {g.PILE_GAP:g} mm from the "
        f"spot's, {antenna_edge - pile_edge:g} mm from the antenna's edge, out of the field "
        "(the field beyond the antenna's edge was not measured: the maker's check in the "
        "README lays a card on the pile's edge and looks that it is not read)",
    ]


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
        *_part_figures(),
        ("MF-R hold current derating", parts.MF_R_DERATING),
        ("MF-R lead spacing", parts.FUSE_PITCH_MM),
        ("WS2812B current per colour", parts.LED_MA_CHANNEL),
        ("WS2812B current dark", parts.LED_IDLE_MA),
        ("WS2812B reset", parts.LED_RESET_US),
        ("WS2812B bit time", parts.LED_BIT_US),
        ("74AHCT125 output high at 8 mA", AHCT_VOH),
        ("ESP32 internal pull-up", parts.ESP32_PULLUP),
        ("2N3904 gain", parts.NPN_HFE_MIN),
        ("2N3904 VBE(sat)", parts.NPN_VBE_SAT),
        ("antenna keep-out", parts.ANTENNA_KEEPOUT_MM),
        ("flat cable conductor", FLAT_OHM_PER_M),
        ("24 AWG wire", WIRE_24AWG),
        ("20 AWG wire", WIRE_20AWG),
        ("I2C Fast-mode rise time", I2C_TR_NS),
        ("OLED pixel pitch", OLED_PITCH_MM),
        ("legible character height", LEGIBLE_ARCMIN),
    ]


def _part_figures() -> list[tuple[str, Figure]]:
    out = []
    for p in parts.all_parts():
        if p.draw:
            out.append((f"{p.value} supply current, worst", p.draw[1]))
        if p.series:
            for what, fig in (("hold", p.series.hold_a), ("trip", p.series.trip_a),
                              ("resistance", p.series.ohm)):  # fmt: skip
                if fig:
                    out.append((f"{p.mpn} {what}", fig))
    return out


def logic_lines() -> list[str]:
    rows = [
        "| part | supply range | VIH | the most a pin takes | source |",
        "|---|---|---|---|---|",
    ]
    for p in parts.all_parts():
        lg = p.logic
        if lg is None:
            continue
        vih = ("table: " + ", ".join(f"{h:g} V at {v:g} V" for v, h in lg.vih_table)
               if lg.vih_table else "-" if lg.vih is None else _kd(lg.vih))  # fmt: skip
        rows.append(f"| {p.value} | {lg.vcc[0]:g}-{lg.vcc[1]:g} V | {vih} | {_kd(lg.vin_max)} "
                    f"| {lg.src}{' (*)' if lg.check else ''} |")  # fmt: skip
    return rows


def _kd(kd: tuple[float, float]) -> str:
    k, d = kd
    if not k:
        return f"{d:g} V"
    s = "VCC" if k == 1 else f"{k:g} VCC"
    return s + (f" + {d:g} V" if d else "")


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


def markdown(facts: dict | None = None, lay: geometry.Layout | None = None) -> str:
    """figures.md. facts: pin map name -> electrical.facts of its netlist (circuit.outputs)."""
    if facts is None:  # standalone: build the circuits (SKiDL needed)
        from hardware import circuit

        return circuit.outputs()[0]["generated/figures.md"]
    lay = lay or geometry.layout()
    ref = facts["pinmap.json"]
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
        *chain_lines(chain(lay)),
        "",
        "### Its logic margin at the far register",
        "",
        *margin_lines(lay),
        "",
        "## Power budget (counted from the circuit's netlist, DevKitC build)",
        "",
        *power_lines(ref),
        "",
        "## The LED chain",
        "",
        *led_lines(ref, lay),
        "",
        "## The status displays",
        "",
        *display_lines(ref),
        "",
        "## The buzzer",
        "",
        *buzzer_lines(ref),
        "",
        "## The sensor rail watch",
        "",
        *rail_lines(ref),
        "",
        "## Wires and cables (from the geometry)",
        "",
        *run_lines(lay),
        "",
        "## Magnet and field at the sensor",
        "",
        *magnet_lines(),
        "",
        "## The reader and the card spot",
        "",
        *reader_lines(),
        "",
        "## Pins: each chip's restrictions and the pin maps' roles",
        "",
    ]
    for name in facts:
        out += [*pin_lines(facts[name]), ""]
    out += [
        "## Parts' logic levels (what the circuit's electrical check holds each pin to)",
        "",
        *logic_lines(),
        "",
        "## Sources of the datasheet figures",
        "",
        *sources_lines(),
        "",
    ]
    return "\n".join(out)


if __name__ == "__main__":
    print(markdown())
