"""The parts of a Plateau table: pins (for the SKiDL circuit), what to order (for the BOM),
their electrical figures (for the circuit's electrical check, hardware/electrical.py), and
where each figure comes from. Every number quoted in the docs is in this file once.

A figure's `src` names the document and section it was taken from. Figures marked
`check=True`, shown with (*), were transcribed from memory of the datasheet and no public text
confirming them was found in a few look-ups: re-check them against the PDF before ordering.
None of them has been measured by us."""

from __future__ import annotations

from dataclasses import dataclass, field

# Pin kinds, named as SKiDL names them (skidl.Pin.types): kept as strings here so this file
# imports without SKiDL (geometry and figures do not need it).
IN, OUT, BIDIR, TRI, PASSIVE, PWRIN, PWROUT, OC, NC = (
    "INPUT",
    "OUTPUT",
    "BIDIR",
    "TRISTATE",
    "PASSIVE",
    "PWRIN",
    "PWROUT",
    "OPENCOLL",
    "NOCONNECT",
)


@dataclass(frozen=True)
class Figure:
    value: float
    unit: str
    src: str
    check: bool = False  # True: from memory of the datasheet, no source found: (*)


# --- electrical data (what hardware/electrical.py checks the netlist against) ---------------


@dataclass(frozen=True)
class Logic:
    """A part's logic levels. Every logic pin (IN, OUT, BIDIR, TRI, OC) is referred to the
    rail on `supply`; a level is `k x that rail + d` volts, written (k, d). An output drives
    its supply's voltage high; an open-drain (OC) output only pulls low."""

    supply: str  # the pin whose rail powers the part's logic
    vcc: tuple[float, float]  # the supply's operating range, V
    vin_max: tuple[float, float]  # (k, d): the most any of its pins may be taken to
    vih: tuple[float, float] | None  # (k, d): the least a logic input reads as high
    src: str
    vih_table: tuple[tuple[float, float], ...] = ()  # (vcc, vih) rows instead of vih
    sink_ma: float = 0.0  # an open-drain output's rated sink current (0: not checked)
    check: bool = False  # some of these figures are (*)

    def vih_at(self, v: float) -> float | None:
        if self.vih_table:  # a datasheet gives rows at some supplies: interpolate between them
            rows = sorted(self.vih_table)
            if v <= rows[0][0]:
                return rows[0][1]
            for (v0, h0), (v1, h1) in zip(rows, rows[1:]):
                if v <= v1:
                    return h0 + (h1 - h0) * (v - v0) / (v1 - v0)
            return rows[-1][1]
        return None if self.vih is None else self.vih[0] * v + self.vih[1]

    def vmax_at(self, v: float) -> float:
        return self.vin_max[0] * v + self.vin_max[1]


@dataclass(frozen=True)
class Source:
    """Where power enters: a connector's pin (an adapter) or a module's regulator."""

    pin: str
    volts: float
    external: bool  # True: plugged in by the user (wrong way round, shorted): fuse it
    what: str


@dataclass(frozen=True)
class Series:
    """A two-terminal part power flows through: a fuse or the reverse-polarity switch."""

    kind: str  # "fuse" | "reverse"
    pins: tuple[str, str]  # (from the source, to the load)
    hold_a: Figure | None = None  # a fuse's hold current at 23 C
    trip_a: Figure | None = None
    ohm: Figure | None = None  # its resistance when conducting (R1max, RDS(on))


@dataclass(frozen=True)
class PartDef:
    name: str  # the symbol's name
    ref: str  # reference prefix (U, R, C, ...)
    value: str
    mpn: str
    maker: str
    footprint: str
    description: str
    datasheet: str
    pins: tuple[tuple[int, str, str], ...]  # (number, name, kind)
    order_note: str = ""
    logic: Logic | None = None
    draw: tuple[str, Figure] | None = None  # (supply pin, worst-case current in mA)
    sources: tuple[Source, ...] = ()
    series: Series | None = None
    ohms: float = 0.0  # a resistor's (or a network's, per element) resistance

    def pin_kind(self, name: str) -> str:
        return next((k for _, n, k in self.pins if n == name), PASSIVE)


LOGIC_KINDS = {IN, OUT, BIDIR, TRI, OC}

# The design temperature for the fuses' hold current: a 40 C room and the electronics' own
# heat inside the closed frame (an assumption, not measured).
DESIGN_C = 60.0
# Bourns MF-R series hold-current derating (fraction of the 23 C hold current) by ambient
# temperature: read from memory of the data sheet's "Thermal Derating Chart"; the chart was
# not found in a public text (the series' electrical table was: see PTC_SENSORS).
MF_R_DERATING_ROWS = ((-40, 1.42), (-20, 1.27), (0, 1.14), (23, 1.0), (40, 0.87), (50, 0.81),
                      (60, 0.74), (70, 0.67), (85, 0.55))  # fmt: skip


def derate(rows, t: float) -> float:
    rows = sorted(rows)
    for (t0, f0), (t1, f1) in zip(rows, rows[1:]):
        if t0 <= t <= t1:
            return f0 + (f1 - f0) * (t - t0) / (t1 - t0)
    return rows[0][1] if t < rows[0][0] else rows[-1][1]


MF_R_DERATING = Figure(derate(MF_R_DERATING_ROWS, DESIGN_C), f"x at {DESIGN_C:g} C",
                       "Bourns MF-R series data sheet, Thermal Derating Chart (values from "
                       "memory, not found in a public text)", check=True)  # fmt: skip


# --- Hall sensor (chosen in figures.py, "sensor choice") ------------------------------------

_DRV5033 = "TI SLIS152 (DRV5033)"
# TI DRV5033 (SLIS152 s.5 Pin Configuration and Functions, re-read): TO-92 "LPG" pin 1 VCC,
# 2 GND, 3 OUT; SOT-23 "DBZ" pin 1 VCC, 2 OUT, 3 GND. VCC 2.5 to 38 V.
HALL = PartDef(
    name="DRV5033",
    ref="U",
    value="DRV5033FA",
    mpn="DRV5033FAQLPG",
    maker="Texas Instruments",
    footprint="Package_TO_SOT_THT:TO-92_Inline",
    description="Hall switch, omnipolar, continuous (not duty-cycled), open-drain, 2.5-38 V",
    datasheet="https://www.ti.com/lit/ds/symlink/drv5033.pdf (TI SLIS152)",
    pins=((1, "VCC", PWRIN), (2, "GND", PWRIN), (3, "OUT", OC)),
    order_note="TO-92 for hand wiring (leads bent so the marked face looks up at the magnet); "
    "DRV5033FAQDBZR is the SOT-23 for a PCB (pin 2 OUT, 3 GND)",
    logic=Logic(
        supply="VCC", vcc=(2.5, 38.0), vin_max=(0.0, 40.0), vih=None, sink_ma=30.0,
        src=_DRV5033 + " s.5 and s.6.3 Recommended Operating Conditions: VCC 2.5-38 V; the "
        "output's 40 V limit and 30 mA sink are from memory of s.6.1/6.3", check=True,
    ),  # fmt: skip
    draw=("VCC", Figure(3.5, "mA", _DRV5033 + " s.6.5 Electrical Characteristics, ICC max; "
                        "value from memory, not found in a public text", check=True)),
)  # fmt: skip

# --- 74HC165 ----------------------------------------------------------------------------------

# TI SCLS116 (SNx4HC165) s.6.3 Recommended Operating Conditions: VCC 2-6 V, VIH 1.5/3.15/4.2 V
# at VCC 2/4.5/6 V (the HC family's rows; TI gives none at 3.3 V: interpolated), VI 0 to VCC.
HC_VIH = ((2.0, 1.5), (4.5, 3.15), (6.0, 4.2))
HC_VIL = ((2.0, 0.5), (4.5, 1.35), (6.0, 1.8))
_HC_LOGIC = Logic(
    supply="VCC", vcc=(2.0, 6.0), vin_max=(1.0, 0.0), vih=None, vih_table=HC_VIH,
    src="TI SCLS116 (SN74HC165) s.6.3 Recommended Operating Conditions: VCC 2-6 V; VIH at "
    "2/4.5/6 V, interpolated between; VI 0 to VCC (the TI HC family's table, as in SCHS155 "
    "s.4.2)",
)  # fmt: skip
# TI SCLS116 (SNx4HC165), "Pin Configuration and Functions", PDIP-16 N package.
SHIFT_REGISTER = PartDef(
    name="74HC165",
    ref="U",
    value="SN74HC165N",
    mpn="SN74HC165N",
    maker="Texas Instruments",
    footprint="Package_DIP:DIP-16_W7.62mm_Socket",
    description="8-bit parallel-in serial-out shift register",
    datasheet="https://www.ti.com/lit/ds/symlink/sn74hc165.pdf (TI SCLS116)",
    pins=(
        (1, "SH/LD", IN),
        (2, "CLK", IN),
        (3, "E", IN),
        (4, "F", IN),
        (5, "G", IN),
        (6, "H", IN),
        (7, "~QH", OUT),
        (8, "GND", PWRIN),
        (9, "QH", OUT),
        (10, "SER", IN),
        (11, "A", IN),
        (12, "B", IN),
        (13, "C", IN),
        (14, "D", IN),
        (15, "CLK_INH", IN),
        (16, "VCC", PWRIN),
    ),
    order_note="DIP in a DIP-16 socket on perfboard; SN74HC165PWR is the TSSOP for a PCB",
    logic=_HC_LOGIC,
    draw=("VCC", Figure(0.08, "mA", "TI SCLS116 s.6.7: ICC 80 uA max, -40..85 C, VCC 6 V "
                        "(static; clocking adds a little, 2 % of the time)")),
)  # fmt: skip

# Chain bit i is register i // 8, input INPUTS[i % 8]. After the load QH shows H (TI SCHS156
# CD74HC165 Table 7-1: parallel load sets QH to H), and each rising CLK edge with SH/LD high
# shifts one stage towards QH (the same table's "serial shift" rows). So with SPI mode 2 (clock
# idle high, data sampled on the falling edge, half a period after the rising edge that
# shifted it), MSB first, input H is bit 7 of the register's byte and A is bit 0. Mode 0
# samples on the rising edge, the very edge that shifts: a race with the chip's propagation
# delay, for which the datasheet gives no minimum (docs/drivers.md, hal/shiftin.py).
INPUTS = "ABCDEFGH"

# --- RC522 reader module (the common blue MFRC522 board, 8-pin header) -------------------------

READER = PartDef(
    name="RC522",
    ref="M",
    value="RC522 module",
    mpn="RFID-RC522",
    maker="generic (NXP MFRC522)",
    footprint="Connector_PinHeader_2.54mm:PinHeader_1x08_P2.54mm_Vertical",
    description="13.56 MHz reader module, MFRC522, SPI, PCB antenna about 40 x 60 mm",
    datasheet="https://www.nxp.com/docs/en/data-sheet/MFRC522.pdf (NXP MFRC522 rev. 3.9)",
    pins=(
        (1, "SDA", IN),  # NSS
        (2, "SCK", IN),
        (3, "MOSI", IN),
        (4, "MISO", TRI),
        (5, "IRQ", OUT),
        (6, "GND", PWRIN),
        (7, "RST", IN),
        (8, "3.3V", PWRIN),
    ),
    logic=Logic(
        supply="3.3V", vcc=(2.5, 3.6), vin_max=(1.0, 0.5), vih=(0.7, 0.0),
        src="NXP MFRC522 rev. 3.9 s.4 Quick reference data: VDDA, VDDD, VDD(TVDD) 2.5-3.6 V "
        "(the module ties them to its 3.3V pin); its pins' VIH 0.7 VDD and VDD + 0.5 V limit "
        "from memory of s.14/s.15", check=True,
    ),  # fmt: skip
    draw=("3.3V", Figure(119.0, "mA", "NXP MFRC522 rev. 3.9 s.4 Quick reference data: IDDD 9, "
                         "IDDA 10, IDD(TVDD) 100 mA max (transmitter on)")),
)  # fmt: skip

# --- the LED chain: WS2812B, one per square, the card spot and each goal ----------------------

_WS2812B = "Worldsemi WS2812B data sheet"
LED = PartDef(
    name="WS2812B",
    ref="D",
    value="WS2812B",
    mpn="WS2812B",
    maker="Worldsemi",
    footprint="LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm",
    description="addressable RGB LED, 24-bit GRB, 800 kbit/s (under a 5 mm light window)",
    datasheet="http://www.world-semi.com (Worldsemi WS2812B data sheet)",
    pins=((1, "VDD", PWRIN), (2, "DOUT", OUT), (3, "VSS", PWRIN), (4, "DIN", IN)),
    order_note="on a 10 mm round breakout (generic) with a 100 nF at its leads; glued under "
    "the square's 5 mm clear acrylic window",
    logic=Logic(
        supply="VDD", vcc=(3.5, 5.3), vin_max=(1.0, 0.5), vih=(0.7, 0.0),
        src=_WS2812B + ", Absolute Maximum Ratings: VDD +3.5 to +5.3 V, VI -0.5 to VDD + "
        "0.5 V; Electrical Characteristics: VIH 0.7 VDD (DIN)",
    ),  # fmt: skip
    draw=("VDD", Figure(60.0, "mA", "full white, 3 x 20 mA: Adafruit NeoPixel Uberguide's "
                        "budget; measured 33.5 and 52.5 mA on two WS2812B types (PJRC, 'How "
                        "much current do WS2812 LEDs really use')")),
)  # fmt: skip
LED_IDLE_MA = Figure(1.0, "mA", "just under 1 mA per LED dark, measured on two WS2812B types "
                     "(PJRC, 'How much current do WS2812 LEDs really use')")  # fmt: skip
LED_MA_CHANNEL = Figure(20.0, "mA", "per colour at full brightness: the Adafruit NeoPixel "
                        "Uberguide's budget (above both PJRC measurements)")  # fmt: skip
LED_RESET_US = Figure(50.0, "us", _WS2812B + ", Data transfer time: RES, low > 50 us")
LED_BIT_US = Figure(1.25, "us", _WS2812B + ", Data transfer time: TH + TL = 1.25 us")

# TI SCLS264 (SN74AHCT125) s.5.2 Recommended Operating Conditions: VCC 4.5-5.5 V, VIH 2 V,
# VIL 0.8 V, VI 0 to 5.5 V (TTL inputs: a 3.3 V output is a valid high); PDIP-14 (N) pinout.
BUFFER = PartDef(
    name="74AHCT125",
    ref="U",
    value="SN74AHCT125N",
    mpn="SN74AHCT125N",
    maker="Texas Instruments",
    footprint="Package_DIP:DIP-14_W7.62mm_Socket",
    description="quad buffer, TTL-level inputs, 3-state outputs: the LED data line 3.3 V -> 5 V "
    "(one gate used, the others' inputs grounded and outputs disabled)",
    datasheet="https://www.ti.com/lit/ds/symlink/sn74ahct125.pdf (TI SCLS264)",
    pins=(
        (1, "1OE", IN), (2, "1A", IN), (3, "1Y", TRI), (4, "2OE", IN), (5, "2A", IN),
        (6, "2Y", TRI), (7, "GND", PWRIN), (8, "3Y", TRI), (9, "3A", IN), (10, "3OE", IN),
        (11, "4Y", TRI), (12, "4A", IN), (13, "4OE", IN), (14, "VCC", PWRIN),
    ),  # fmt: skip
    logic=Logic(
        supply="VCC", vcc=(4.5, 5.5), vin_max=(0.0, 5.5), vih=(0.0, 2.0),
        src="TI SCLS264 (SN74AHCT125) s.5.2 Recommended Operating Conditions: VCC 4.5-5.5 V, "
        "VIH 2 V, VI 0-5.5 V",
    ),  # fmt: skip
    draw=("VCC", Figure(1.39, "mA", "TI SCLS264 s.5.4: ICC 40 uA plus delta-ICC 1.35 mA for "
                        "an input at 3.4 V (one input at the ESP32's 3.3 V high)")),
)  # fmt: skip

# --- the status displays: SH1106 128x64 OLED modules on I2C ------------------------------------

DISPLAY = PartDef(
    name="OLED_I2C",
    ref="M",
    value="OLED 1.3in 128x64 I2C",
    mpn="1.3 inch 128x64 OLED, SH1106, I2C, 4-pin",
    maker="generic (Sino Wealth SH1106)",
    footprint="Connector_PinHeader_2.54mm:PinHeader_1x04_P2.54mm_Vertical",
    description="status display, 128x64 OLED, SH1106 controller on I2C (address 0x3C or 0x3D by "
    "the module's SA0 resistor)",
    datasheet="Sino Wealth SH1106 data sheet V2.6 (no stable URL)",
    pins=((1, "GND", PWRIN), (2, "VCC", PWRIN), (3, "SCL", IN), (4, "SDA", BIDIR)),
    order_note="pin order varies between makers (GND VCC SCL SDA or VCC GND ...): wire by the "
    "module's silk. Set the second module to 0x3D (move its SA0 resistor)",
    logic=Logic(
        supply="VCC", vcc=(3.0, 3.6), vin_max=(1.0, 0.3), vih=(0.8, 0.0), sink_ma=3.0,
        src="SH1106 V2.6 Features: VDD1 1.65-3.5 V, 400 kHz I2C; the module is powered from "
        "3V3 by design (a module's own pull-ups go to its VCC, so 5 V would reach the "
        "ESP32); VIH 0.8 VDD1 from memory; 3 mA sink: I2C UM10204 Fast-mode", check=True,
    ),  # fmt: skip
    draw=("VCC", Figure(25.0, "mA", "estimate for a 1.3 in module, all pixels lit, its "
                        "regulator included: no data sheet figure found", check=True)),
)  # fmt: skip

# --- the buzzer: a magnetic transducer on a PWM pin through an NPN -----------------------------

BUZZER = PartDef(
    name="Buzzer",
    ref="BZ",
    value="12 mm magnetic",
    mpn="12 mm magnetic transducer, 5 Vo-p, 42 Ohm",
    maker="generic (e.g. Futtro FT12K03-42-2K)",
    footprint="Buzzer_Beeper:Buzzer_12x9.5RM7.6",
    description="magnetic transducer (no oscillator inside): driven by PWM at about 2 kHz",
    datasheet="Futtro, 'How to properly use the electromagnetic transducer' (FT12K03-42-2K)",
    pins=((1, "+", PASSIVE), (2, "-", PASSIVE)),
    order_note="pin spacing differs between makers (6.5 or 7.6 mm): check it",
    draw=("+", Figure(70.0, "mA", "FT12K03-42-2K: 5 Vo-p rated, 42 Ohm coil, at most 70 mA, "
                      "85 dB at 10 cm, 2000 Hz (Futtro's application note)")),
)  # fmt: skip
NPN = PartDef(
    "Q_NPN", "Q", "2N3904", "2N3904BU", "onsemi", "Package_TO_SOT_THT:TO-92_Inline",
    "NPN transistor, switches the buzzer (low side)",
    "https://www.onsemi.com/pdf/datasheet/2n3903-d.pdf (onsemi 2N3903, 2N3904)",
    ((1, "E", PASSIVE), (2, "B", PASSIVE), (3, "C", PASSIVE)),
)  # fmt: skip
NPN_HFE_MIN = Figure(30.0, "", "onsemi 2N3904: hFE min 30 at IC 100 mA, VCE 1 V")
NPN_VBE_SAT = Figure(0.95, "V", "onsemi 2N3904: VBE(sat) max 0.95 V at IC 50 mA, IB 5 mA")
DIODE = PartDef(
    "D", "D", "1N4148", "1N4148", "onsemi", "Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal",
    "small-signal diode: the buzzer coil's flyback clamp",
    "https://www.onsemi.com/pdf/datasheet/1n914-d.pdf (onsemi 1N914/1N4148)",
    ((1, "K", PASSIVE), (2, "A", PASSIVE)),
)  # fmt: skip

# --- power entry: reverse-polarity switch and the two fuses -----------------------------------

REVERSE = PartDef(
    "Q_PMOS", "Q", "AO3401A", "AO3401A", "Alpha & Omega Semiconductor",
    "plateau:SOT-23_Adapter_1x03_P2.54mm",
    "P-channel MOSFET in the 5 V input's + line: a reversed adapter leaves it off (its body "
    "diode blocks), the right way round it conducts with under 60 mOhm",
    "https://www.aosmd.com/res/datasheets/AO3401A.pdf (AOS AO3401A rev. 3)",
    ((1, "G", PASSIVE), (2, "S", PASSIVE), (3, "D", PASSIVE)),
    order_note="SOT-23 on a 3-pin SOT-23 to 2.54 mm adapter board for the perfboard",
    series=Series("reverse", ("D", "S"), ohm=Figure(0.06, "Ohm", "AOS AO3401A: RDS(on) < 60 "
                  "mOhm at VGS -4.5 V; VDS -30 V, VGS +-12 V, ID -4 A at 25 C")),
)  # fmt: skip
_MF_R = "Bourns MF-R series data sheet, Electrical Characteristics"
PTC_SENSORS = PartDef(
    "Fuse", "F", "0.75A", "MF-R075", "Bourns", "plateau:Fuse_Radial_P5.10mm",
    "resettable fuse 0.75 A hold, 1.5 A trip, 60 V: the sensor rail",
    "https://www.bourns.com/docs/Product-Datasheets/mfr.pdf (Bourns MF-R)",
    ((1, "1", PASSIVE), (2, "2", PASSIVE)),
    series=Series("fuse", ("1", "2"),
                  hold_a=Figure(0.75, "A", _MF_R + ": MF-R075 Ihold at 23 C"),
                  trip_a=Figure(1.50, "A", _MF_R + ": MF-R075 Itrip at 23 C"),
                  ohm=Figure(0.60, "Ohm", _MF_R + ": MF-R075 R1max")),
)  # fmt: skip
PTC_LEDS = PartDef(
    "Fuse", "F", "2.5A", "MF-R250", "Bourns", "plateau:Fuse_Radial_P5.10mm",
    "resettable fuse 2.5 A hold, 5 A trip, 30 V: the LED chain and buzzer rail",
    "https://www.bourns.com/docs/Product-Datasheets/mfr.pdf (Bourns MF-R)",
    ((1, "1", PASSIVE), (2, "2", PASSIVE)),
    series=Series("fuse", ("1", "2"),
                  hold_a=Figure(2.50, "A", _MF_R + ": MF-R250 Ihold at 23 C"),
                  trip_a=Figure(5.00, "A", _MF_R + ": MF-R250 Itrip at 23 C"),
                  ohm=Figure(0.07, "Ohm", _MF_R + ": MF-R250 R1max")),
)  # fmt: skip
FUSE_PITCH_MM = Figure(5.1, "mm", "Bourns MF-R series dimensions: lead spacing 5.1 mm (from "
                       "memory of the drawing)", check=True)  # fmt: skip

# --- passives, switches, connectors ---------------------------------------------------------


def _two(name, ref, value, mpn, maker, footprint, description, datasheet="", note="", ohms=0.0):
    return PartDef(
        name, ref, value, mpn, maker, footprint, description, datasheet,
        ((1, "1", PASSIVE), (2, "2", PASSIVE)), note, ohms=ohms,
    )  # fmt: skip


_AXIAL = "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P7.62mm_Horizontal"
_CF14 = "https://www.seielect.com/catalog/sei-cf_cfm.pdf (Stackpole CF series)"


def _resistor(ohms: float, value: str, mpn: str, what: str) -> PartDef:
    return _two("R", "R", value, mpn, "Stackpole", _AXIAL,
                f"resistor {value} Ohm 1/4 W, 5 %: {what}", _CF14, ohms=ohms)  # fmt: skip


C_100N = _two(
    "C", "C", "100nF", "K104K15X7RF5TL2", "Vishay",
    "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm",
    "ceramic 100 nF 50 V X7R, 5.08 mm leads: one across each sensor's, register's, LED's and "
    "buffer's supply, and at the rail-watch ADC input",
    "https://www.vishay.com/docs/45171/kseries.pdf (Vishay K series)",
)  # fmt: skip
C_BULK = PartDef(
    "CP", "C", "100uF", "EEU-FR1C101", "Panasonic",
    "Capacitor_THT:CP_Radial_D6.3mm_P2.50mm", "electrolytic 100 uF 16 V, sensor rail bulk",
    "https://industrial.panasonic.com/cdbs/www-data/pdf/RDF0000/ABA0000C1181.pdf (Panasonic FR)",
    ((1, "+", PASSIVE), (2, "-", PASSIVE)),
)  # fmt: skip
C_LED_BULK = PartDef(
    "CP", "C", "1000uF", "EEU-FR1A102", "Panasonic",
    "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm",
    "electrolytic 1000 uF 10 V at the LED chain's start (the Adafruit NeoPixel Uberguide's "
    "1000 uF, 6.3 V or more)",
    "https://industrial.panasonic.com/cdbs/www-data/pdf/RDF0000/ABA0000C1181.pdf (Panasonic FR)",
    ((1, "+", PASSIVE), (2, "-", PASSIVE)),
)  # fmt: skip
R_10K = _resistor(
    10e3,
    "10k",
    "CF14JT10K0",
    "pull-ups (goal inputs, chain data, each "
    "register's SER, reader MISO), the LED buffer's input pull-down",
)
R_220 = _resistor(
    220.0,
    "220",
    "CF14JT220R",
    "series resistor at the ESP32 end of the chain's clock and load lines",
)
R_100 = _resistor(100.0, "100", "CF14JT100R", "series resistor at the chain's data output")
R_330 = _resistor(
    330.0,
    "330",
    "CF14JT330R",
    "the LED data line's series resistor (the "
    "Adafruit NeoPixel Uberguide's 300-500 Ohm), the buzzer transistor's base "
    "resistor",
)
R_22K = _resistor(22e3, "22k", "CF14JT22K0", "the sensor rail watch's divider, top")
R_15K = _resistor(15e3, "15k", "CF14JT15K0", "the sensor rail watch's divider, bottom")
R_2K2 = _resistor(2.2e3, "2.2k", "CF14JT2K20", "I2C pull-ups (SDA, SCL)")
R_100K = _resistor(
    100e3,
    "100k",
    "CF14JT100K",
    "the buzzer transistor's base pull-down (off while the ESP32 boots)",
)
RNET = PartDef(
    "R_Network08", "RN", "8x10k", "4609X-101-103LF", "Bourns",
    "Resistor_THT:R_Array_SIP9", "bussed resistor network 8 x 10 kOhm, SIP-9: one per register, "
    "pull-ups for the open-drain sensor outputs",
    "https://www.bourns.com/docs/Product-Datasheets/4600x.pdf (Bourns 4600X)",
    ((1, "COM", PASSIVE),) + tuple((n, f"R{n - 1}", PASSIVE) for n in range(2, 10)),
    ohms=10e3,
)  # fmt: skip
BUTTON = PartDef(
    "SW_Push", "SW", "B3F-4055", "B3F-4055", "Omron",
    "Button_Switch_THT:SW_PUSH-12mm", "push button 12 x 12 mm (undo, new, pause)",
    "https://omronfs.omron.com/en_US/ecb/products/pdf/en-b3f.pdf (Omron B3F)",
    ((1, "1", PASSIVE), (2, "2", PASSIVE), (3, "3", PASSIVE), (4, "4", PASSIVE)),
    "pins 1-2 and 3-4 are joined inside the switch",
)  # fmt: skip
J_POWER = PartDef(
    "Conn_01x02", "J", "5V in", "1935161", "Phoenix Contact",
    "TerminalBlock_Phoenix:TerminalBlock_Phoenix_MKDS-1,5-2_1x02_P5.00mm_Horizontal",
    "screw terminal, the 5 V input (a 5 V 3 A adapter through a DC jack to screw terminal "
    "adapter)", "https://www.phoenixcontact.com (Phoenix Contact MKDS 1,5/2-5,08)",
    ((1, "+5V", PASSIVE), (2, "GND", PASSIVE)),
    sources=(Source("+5V", 5.0, True, "the 5 V adapter"),),
)  # fmt: skip


def _header(value: str, names: tuple[str, ...], what: str) -> PartDef:
    n = len(names)
    return PartDef(
        f"Conn_01x{n:02d}", "J", value, f"PH1-{n:02d}-UA", "Adam Tech",
        f"Connector_PinHeader_2.54mm:PinHeader_1x{n:02d}_P2.54mm_Vertical",
        f"pin header 1x{n}, 2.54 mm: {what}",
        "https://www.adam-tech.com (Adam Tech PH1 series)",
        tuple((i + 1, name, PASSIVE) for i, name in enumerate(names)),
    )  # fmt: skip


# (each connector its own value: a netlist names pins by number, the value says which part)
J_LED = _header(
    "LED chain",
    ("+5V", "GND", "DIN"),
    "the LED chain (its 5 V and ground also feed the power injection wires)",
)
J_GOAL = _header("goal", ("+5V", "GND", "OUT"), "a goal sensor's cable (Weykick)")
J_DISPLAY = _header("display", ("GND", "VCC", "SCL", "SDA"), "a status display's cable")
J_BUTTONS = _header("buttons", ("UNDO", "NEW", "PAUSE", "GND"), "the three buttons' cable")
J_READER = _header(
    "reader",
    ("SDA", "SCK", "MOSI", "MISO", "IRQ", "GND", "RST", "3.3V"),
    "the reader module's cable",
)
# The chain's flat cable: 10 conductors, a ground beside each signal; each register carrier
# has one header towards the ESP32 and one towards the next register.
CHAIN_PINS = ("CLK", "GND", "LOAD", "GND", "DATA", "GND", "3V3", "GND", "5V", "GND")
J_CHAIN = PartDef(
    "Conn_02x05", "J", "2x5 box", "box header 2x5, 2.54 mm", "generic",
    "Connector_IDC:IDC-Header_2x05_P2.54mm_Vertical",
    "box header 2x5, 2.54 mm, keyed: the chain's flat cable (CLK, LOAD, DATA, 3V3, 5V, each "
    "beside a ground)", "IEC 60603-13 style box header (any maker)",
    tuple((i + 1, name, PASSIVE) for i, name in enumerate(CHAIN_PINS)),
)  # fmt: skip


# --- ESP32 development boards -----------------------------------------------------------------


@dataclass(frozen=True)
class Restriction:
    kind: str  # strapping, input-only, flash, psram, uart0, usb, rgb-led
    why: str
    src: str


FORBIDDEN = {"flash", "psram", "uart0", "usb", "rgb-led"}  # never given a role


@dataclass(frozen=True)
class Board:
    """A development board as the circuit sees it: header pins, each chip's pin restrictions
    (with the datasheet section that says so), its ADC1 pins. Pin numbers are header
    positions: J-left 1..n from the antenna end, then J-right 1..n from the antenna end."""

    key: str  # pinmap.json "board"
    part: PartDef
    restrictions: dict[int, Restriction]
    adc1: frozenset[int]
    adc1_src: str
    adc_range: tuple[float, float] = (0.0, 0.0)  # what ADC1 measures at the 11/12 dB setting, V
    adc_range_src: str = ""
    allowed_straps: dict[int, str] = field(default_factory=dict)  # GPIO -> why it is safe
    rows_mm: float = 0.0  # header row spacing (the footprint)
    antenna_mm: float = 7.0  # the module's antenna end beyond pin 1's row (the footprint)
    outline_src: str = ""

    @property
    def input_only(self) -> frozenset[int]:
        return frozenset(g for g, r in self.restrictions.items() if r.kind == "input-only")

    @property
    def strapping(self) -> dict[int, str]:
        return {g: r.why for g, r in self.restrictions.items() if r.kind == "strapping"}


def _pins(left, right, input_only=()) -> tuple[tuple[int, str, str], ...]:
    pins = []
    for n, name in enumerate(left + right, start=1):
        # the regulator's output drives 3V3; a second 3V3 pin is the same copper
        first_3v3 = name == "3V3" and all(p[1] != "3V3" for p in pins)
        kind = PWROUT if first_3v3 else PWRIN if name == "GND" else PASSIVE
        if name.startswith("GPIO"):
            kind = IN if int(name[4:]) in input_only else BIDIR
        pins.append((n, name, kind))
    return tuple(pins)


# ESP32-WROOM-32E datasheet v1.2 s.4.3 Table 6 DC Characteristics (3.3 V, 25 C): VIH 0.75 VDD,
# VIH max VDD + 0.3 V, VOH 0.8 VDD, VOL 0.1 VDD, pull-up 45 kOhm; s.4.2: VDD33 3.0-3.6 V.
ESP32_VOH = (0.8, "ESP32-WROOM-32E datasheet v1.2 s.4.3 Table 6: VOH 0.8 x VDD")
ESP32_VOL = (0.1, "ESP32-WROOM-32E datasheet v1.2 s.4.3 Table 6: VOL 0.1 x VDD")
ESP32_PULLUP = Figure(45.0, "kOhm", "ESP32-WROOM-32E datasheet v1.2 s.4.3 Table 6: RPU 45 kOhm "
                      "typ (the firmware's internal pull-up)")  # fmt: skip
_ESP_LOGIC = Logic(
    supply="3V3", vcc=(3.0, 3.6), vin_max=(1.0, 0.3), vih=(0.75, 0.0),
    src="ESP32-WROOM-32E datasheet v1.2 s.4.2-4.3 Table 5-6: VDD33 3.0-3.6 V, VIH 0.75 VDD, "
    "VIH max VDD + 0.3 V (the ESP32-S3-WROOM-1 gives the same in its s.5.3)",
)  # fmt: skip
_IDF_GPIO = "ESP-IDF Programming Guide, GPIO & RTC GPIO: pin table and notes"
_ESP32_DS = "ESP32 Series Datasheet s.2.4 Strapping Pins"
_S3_DS = "ESP32-S3 Series Datasheet, Strapping Pins"

# ESP32-DevKitC V4 (Espressif "ESP32-DevKitC V4 Getting Started Guide", Header Block): J2 on
# the left, J3 on the right, pin 1 at the antenna end. SD0-SD3/CLK/CMD are the flash's.
_DEVKITC_LEFT = [
    "3V3", "EN", "GPIO36", "GPIO39", "GPIO34", "GPIO35", "GPIO32", "GPIO33", "GPIO25",
    "GPIO26", "GPIO27", "GPIO14", "GPIO12", "GND", "GPIO13", "GPIO9", "GPIO10", "GPIO11", "5V",
]  # fmt: skip
_DEVKITC_RIGHT = [
    "GND", "GPIO23", "GPIO22", "GPIO1", "GPIO3", "GPIO21", "GND", "GPIO19", "GPIO18", "GPIO5",
    "GPIO17", "GPIO16", "GPIO4", "GPIO0", "GPIO2", "GPIO15", "GPIO8", "GPIO7", "GPIO6",
]  # fmt: skip
_USB_5V = Source("5V", 5.0, False, "the DevKitC's USB 5 V (left unconnected: never joined to J1)")
ESP32_DEVKITC = Board(
    key="esp32-devkitc",
    part=PartDef(
        "ESP32-DevKitC",
        "M",
        "ESP32-DevKitC-32E",
        "ESP32-DevKitC-32E",
        "Espressif",
        "plateau:ESP32-DevKitC-V4",
        "ESP32 board (ESP32-WROOM-32E, CP2102N USB-UART)",
        "https://docs.espressif.com/projects/esp-idf/en/latest/esp32/hw-reference/esp32/"
        "get-started-devkitc.html; https://www.espressif.com/sites/default/files/"
        "documentation/esp32_datasheet_en.pdf",
        _pins(_DEVKITC_LEFT, _DEVKITC_RIGHT, input_only=(34, 35, 36, 39)),
        "plugged into two 1x19 female headers (2.54 mm) on the main board, its antenna end past "
        "the main board's edge",
        logic=_ESP_LOGIC,
        draw=(
            "3V3",
            Figure(
                93.0,
                "mA",
                "ESP32 Series Datasheet s.5 Modem-sleep at 240 MHz, 68 "
                "mA max, and 25 mA for the CP2102N and the power LED (an "
                "allowance, not a data sheet figure)",
            ),
        ),
        sources=(Source("3V3", 3.3, False, "the DevKitC's 3.3 V regulator (from USB)"), _USB_5V),
    ),  # fmt: skip
    restrictions={
        **{
            g: Restriction(
                "flash",
                "drives the module's SPI flash (SD0-SD3, CLK, CMD)",
                _IDF_GPIO + " (esp32): SPI0/1, GPIO6-11",
            )
            for g in range(6, 12)
        },
        1: Restriction(
            "uart0",
            "UART0 TX: the USB link to the host",
            "ESP32-DevKitC V4 guide, Header Block (U0TXD)",
        ),
        3: Restriction(
            "uart0",
            "UART0 RX: the USB link to the host",
            "ESP32-DevKitC V4 guide, Header Block (U0RXD)",
        ),
        **{
            g: Restriction(
                "input-only",
                "input only, no internal pull-up or pull-down",
                _IDF_GPIO + " (esp32): GPI, GPIO34-39",
            )
            for g in (34, 35, 36, 39)
        },
        0: Restriction(
            "strapping",
            "boot mode: low at reset enters the download mode",
            _ESP32_DS + "; " + _IDF_GPIO,
        ),
        2: Restriction(
            "strapping",
            "boot mode: must be low or floating for the download mode",
            _ESP32_DS + "; " + _IDF_GPIO,
        ),
        5: Restriction(
            "strapping", "SDIO timing strap, pulled up inside", _ESP32_DS + "; " + _IDF_GPIO
        ),
        12: Restriction(
            "strapping",
            "flash voltage: high at reset selects 1.8 V flash and the module does not boot",
            _ESP32_DS + " (MTDI); " + _IDF_GPIO,
        ),
        15: Restriction(
            "strapping", "boot messages and SDIO timing", _ESP32_DS + " (MTDO); " + _IDF_GPIO
        ),
    },  # fmt: skip
    adc1=frozenset(range(32, 40)),
    adc1_src="ESP-IDF ADC guide (esp32): ADC1 GPIO32-39; ADC2 cannot be used while Wi-Fi is "
    "(" + _IDF_GPIO + ", ADC2 note)",
    adc_range=(0.15, 2.45),
    adc_range_src="ESP-IDF ADC guide (esp32), ADC Attenuation: 150-2450 mV at ADC_ATTEN_DB_11",
    allowed_straps={5: "reader CS idles high, the strap's own level"},
    rows_mm=25.4,
    antenna_mm=7.0,
    outline_src="Espressif kicad-libraries, Espressif.pretty/ESP32-DevKitC.kicad_mod: rows 25.4 "
    "mm apart, 19 pins at 2.54 mm, the module outline 7 mm past pin 1's row",
)

# ESP32-S3-DevKitC-1 (Espressif user guide, Header Block J1 left, J3 right).
_S3_LEFT = [
    "3V3", "3V3", "RST", "GPIO4", "GPIO5", "GPIO6", "GPIO7", "GPIO15", "GPIO16", "GPIO17",
    "GPIO18", "GPIO8", "GPIO3", "GPIO46", "GPIO9", "GPIO10", "GPIO11", "GPIO12", "GPIO13",
    "GPIO14", "5V", "GND",
]  # fmt: skip
_S3_RIGHT = [
    "GND", "GPIO43", "GPIO44", "GPIO1", "GPIO2", "GPIO42", "GPIO41", "GPIO40", "GPIO39",
    "GPIO38", "GPIO37", "GPIO36", "GPIO35", "GPIO0", "GPIO45", "GPIO48", "GPIO47", "GPIO21",
    "GPIO20", "GPIO19", "GND", "GND",
]  # fmt: skip
_S3_GUIDE = "ESP32-S3-DevKitC-1 user guide"
ESP32S3_DEVKITC = Board(
    key="esp32s3-devkitc-1",
    part=PartDef(
        "ESP32-S3-DevKitC-1",
        "M",
        "ESP32-S3-DevKitC-1-N8R8",
        "ESP32-S3-DevKitC-1-N8R8",
        "Espressif",
        "plateau:ESP32-S3-DevKitC-1",
        "ESP32-S3 board (ESP32-S3-WROOM-1-N8R8: 8 MB quad flash, 8 MB octal PSRAM)",
        "https://docs.espressif.com/projects/esp-idf/en/latest/esp32s3/hw-reference/esp32s3/"
        "user-guide-devkitc-1.html; https://www.espressif.com/sites/default/files/"
        "documentation/esp32-s3_datasheet_en.pdf",
        _pins(_S3_LEFT, _S3_RIGHT),
        "plugged into two 1x22 female headers (2.54 mm) on the main board, its antenna end past "
        "the main board's edge; MicroPython's ESP32_GENERIC_S3 board, variant SPIRAM_OCT",
        logic=_ESP_LOGIC,
        draw=(
            "3V3",
            Figure(
                93.0,
                "mA",
                "as the DevKitC's: ESP32-S3 at 240 MHz with the radio "
                "off and the board's USB bridge and LED (an allowance)",
                True,
            ),
        ),
        sources=(
            Source("3V3", 3.3, False, "the board's 3.3 V regulator (from USB)"),
            Source("5V", 5.0, False, "the board's USB 5 V (left unconnected)"),
        ),
    ),  # fmt: skip
    restrictions={
        **{
            g: Restriction(
                "flash",
                "drives the module's SPI flash",
                _IDF_GPIO + " (esp32s3): SPI0/1, GPIO26-32",
            )
            for g in range(26, 33)
        },
        **{
            g: Restriction(
                "psram",
                "the octal flash/PSRAM bus on R8 modules (N8R8)",
                _IDF_GPIO
                + " (esp32s3): GPIO33-37 on ESP32-S3R8; "
                + _S3_GUIDE
                + ", GPIO35-37 note",
            )
            for g in (33, 34, 35, 36, 37)
        },
        19: Restriction("usb", "native USB D- (USB-JTAG by default)", _IDF_GPIO + " (esp32s3)"),
        20: Restriction("usb", "native USB D+ (USB-JTAG by default)", _IDF_GPIO + " (esp32s3)"),
        43: Restriction("uart0", "UART0 TX: the USB link to the host", _S3_GUIDE + ", J3 TX"),
        44: Restriction("uart0", "UART0 RX: the USB link to the host", _S3_GUIDE + ", J3 RX"),
        48: Restriction(
            "rgb-led",
            "drives the board's addressable RGB LED (v1.0 boards)",
            _S3_GUIDE + " v1.0, RGB LED: GPIO48",
        ),
        38: Restriction(
            "rgb-led",
            "drives the board's addressable RGB LED on v1.1 boards",
            _S3_GUIDE + " v1.1, RGB LED: GPIO38",
        ),
        0: Restriction("strapping", "boot mode", _S3_DS + "; " + _IDF_GPIO + " (esp32s3)"),
        3: Restriction("strapping", "JTAG source", _S3_DS + "; " + _IDF_GPIO + " (esp32s3)"),
        45: Restriction("strapping", "flash voltage", _S3_DS + "; " + _IDF_GPIO + " (esp32s3)"),
        46: Restriction(
            "strapping", "boot mode / ROM messages", _S3_DS + "; " + _IDF_GPIO + " (esp32s3)"
        ),
    },  # fmt: skip
    adc1=frozenset(range(1, 11)),
    adc1_src="ESP-IDF ADC guide (esp32s3): ADC1 GPIO1-10; ADC2 is shared with Wi-Fi",
    adc_range=(0.0, 3.1),
    adc_range_src="ESP-IDF ADC guide (esp32s3), ADC Attenuation: 0-3100 mV at the highest "
    "attenuation",
    rows_mm=22.86,
    antenna_mm=7.0,
    outline_src="Espressif kicad-libraries, Espressif.pretty/ESP32-S3-DevKitC.kicad_mod: rows "
    "22.86 mm apart, 22 pins at 2.54 mm, the module outline 7 mm past pin 1's row",
)

BOARDS = {b.key: b for b in (ESP32_DEVKITC, ESP32S3_DEVKITC)}

# What a pin map's roles are: the GPIO keys of each group and how the firmware drives them
# (hal/board.py and the later LED/display/buzzer drivers): "out" push-pull, "od" open-drain
# (I2C), "in" an input, "adc" an analog input.
GPIO_ROLES = {
    "shift_chain": {"sck": "out", "latch": "out", "miso": "in"},
    "reader": {"sck": "out", "mosi": "out", "cs": "out", "rst": "out", "miso": "in"},
    "leds": {"data": "out"},
    "display": {"sda": "od", "scl": "od"},
    "buzzer": {"pwm": "out"},
    "sensor_rail": {"adc": "adc"},
    "goals": "in",  # every key a GPIO
    "buttons": "in",
}
# The firmware sets the ESP32's internal pull-up on every button (hal/board.py); a button is
# a contact to ground on short leads, where a 45 kOhm pull-up is enough. Open-drain outputs
# (the goal sensors, the displays' SDA) get a resistor on the board whatever the pin map's
# goal_pull says: the DRV5033's application circuit has one (SLIS152 s.8.2.1).
INTERNAL_PULLUP_GROUPS = ("buttons",)

# Espressif's antenna keep-out around a module's PCB antenna: ESP32 Hardware Design
# Guidelines, "Positioning a module on a base board" (15 mm from the antenna's edge; quoted in
# kicad-footprints issue 2570).
ANTENNA_KEEPOUT_MM = Figure(15.0, "mm", "Espressif ESP32 Hardware Design Guidelines, "
                            "Positioning a Module on a Base Board (p. 13)")  # fmt: skip


def all_parts() -> list[PartDef]:
    return [v for v in globals().values() if isinstance(v, PartDef)] + [
        b.part for b in BOARDS.values()
    ]
