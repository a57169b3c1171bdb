"""The parts of a Plateau table: pins (for the SKiDL circuit), what to order (for the BOM),
and where each figure comes from. Every number quoted in the docs is in this file once.

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


# --- Hall sensor (chosen in figures.py, "sensor choice") ------------------------------------

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
    datasheet="TI SLIS152 (DRV5033)",
    pins=((1, "VCC", PWRIN), (2, "GND", PWRIN), (3, "OUT", OC)),
    order_note="TO-92 for hand wiring (leads bent so the marked face looks up at the magnet); "
    "DRV5033FAQDBZR is the SOT-23 for a PCB (pin 2 OUT, 3 GND)",
)

# --- 74HC165 ----------------------------------------------------------------------------------

# TI SCLS116 (SNx4HC165), "Pin Configuration and Functions", PDIP-16 N package.
SHIFT_REGISTER = PartDef(
    name="74HC165",
    ref="U",
    value="SN74HC165N",
    mpn="SN74HC165N",
    maker="Texas Instruments",
    footprint="Package_DIP:DIP-16_W7.62mm",
    description="8-bit parallel-in serial-out shift register",
    datasheet="TI SCLS116 (SN74HC165)",
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
    order_note="DIP for perfboard; SN74HC165PWR is the TSSOP for a PCB",
)

# Chain bit i is register i // 8, input INPUTS[i % 8]: after the load QH shows H, so with SPI
# mode 0, MSB first, input H is bit 7 of the register's byte and A is bit 0.
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
    datasheet="NXP MFRC522 product data sheet rev. 3.9",
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
)

# --- passives, switches, connectors ---------------------------------------------------------


def _two(name, ref, value, mpn, maker, footprint, description, datasheet="", note=""):
    return PartDef(
        name, ref, value, mpn, maker, footprint, description, datasheet,
        ((1, "1", PASSIVE), (2, "2", PASSIVE)), note,
    )  # fmt: skip


_AXIAL = "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P7.62mm"
C_100N = _two(
    "C", "C", "100nF", "K104K15X7RF5TL2", "Vishay",
    "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm",
    "ceramic 100 nF 50 V X7R, 5.08 mm leads: one across each sensor's and each register's supply",
)  # fmt: skip
C_BULK = PartDef(
    "CP", "C", "100uF", "EEU-FR1C101", "Panasonic",
    "Capacitor_THT:CP_Radial_D6.3mm_P2.50mm", "electrolytic 100 uF 16 V, sensor rail bulk",
    "", ((1, "+", PASSIVE), (2, "-", PASSIVE)),
)  # fmt: skip
R_10K = _two(
    "R", "R", "10k", "CF14JT10K0", "Stackpole", _AXIAL,
    "resistor 10 kOhm 1/4 W: pull-ups (goal inputs, chain data line)",
)  # fmt: skip
R_220 = _two(
    "R", "R", "220", "CF14JT220R", "Stackpole", _AXIAL,
    "resistor 220 Ohm 1/4 W: series resistor at the ESP32 end of the chain's clock and load lines",
)  # fmt: skip
R_100 = _two(
    "R", "R", "100", "CF14JT100R", "Stackpole", _AXIAL,
    "resistor 100 Ohm 1/4 W: series resistor at the chain's data output",
)  # fmt: skip
R_330 = _two(
    "R", "R", "330", "CF14JT330R", "Stackpole", _AXIAL,
    "resistor 330 Ohm 1/4 W: LED chain data line (future)",
)  # fmt: skip
PTC = _two(
    "F", "F", "0.5A", "MF-R050", "Bourns", "Fuse:Fuse_Bourns_MF-RG500",
    "resettable fuse 0.5 A hold: a short in the sensor harness trips it, not the supply",
)  # fmt: skip
RNET = PartDef(
    "R_Network08", "RN", "8x10k", "4609X-101-103LF", "Bourns",
    "Resistor_THT:R_Array_SIP9", "bussed resistor network 8 x 10 kOhm, SIP-9: one per register, "
    "pull-ups for the open-drain sensor outputs", "Bourns 4600X series data sheet",
    ((1, "COM", PASSIVE),) + tuple((n, f"R{n - 1}", PASSIVE) for n in range(2, 10)),
)  # fmt: skip
BUTTON = PartDef(
    "SW_Push", "SW", "B3F-4055", "B3F-4055", "Omron",
    "Button_Switch_THT:SW_PUSH-12mm", "push button 12 x 12 mm (undo, new, pause)",
    "Omron B3F data sheet",
    ((1, "1", PASSIVE), (2, "2", PASSIVE), (3, "3", PASSIVE), (4, "4", PASSIVE)),
    "pins 1-2 and 3-4 are joined inside the switch",
)  # fmt: skip
J_POWER = PartDef(
    "Conn_01x02", "J", "5V in", "1935161", "Phoenix Contact",
    "TerminalBlock_Phoenix:TerminalBlock_Phoenix_MKDS-1,5-2_1x02_P5.00mm_Horizontal",
    "screw terminal, 5 V supply for the sensor rail (a 5 V 2 A adapter)", "",
    ((1, "+5V", PASSIVE), (2, "GND", PASSIVE)),
)  # fmt: skip
J_LED = PartDef(
    "Conn_01x03", "J", "LED chain", "PH1-03-UA", "Adam Tech",
    "Connector_PinHeader_2.54mm:PinHeader_1x03_P2.54mm_Vertical",
    "header for a future LED chain (one addressable LED per square; not fitted yet)", "",
    ((1, "+5V", PASSIVE), (2, "GND", PASSIVE), (3, "DIN", PASSIVE)),
)  # fmt: skip


# --- ESP32 development boards -----------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    """A development board as the circuit sees it: header pins, and which GPIOs may not be
    used, or only with care. Pin numbers are header positions: J-left 1..n, then J-right."""

    key: str  # pinmap.json "board"
    part: PartDef
    forbidden: dict[int, str]  # GPIO -> why it cannot be used
    input_only: frozenset[int]
    strapping: dict[int, str] = field(default_factory=dict)  # GPIO -> why it is safe as used


def _header(left, right, input_only=()) -> tuple[tuple[int, str, str], ...]:
    pins = []
    for n, name in enumerate(left + right, start=1):
        # the regulator's output drives 3V3; a second 3V3 pin is the same copper
        first_3v3 = name == "3V3" and all(p[1] != "3V3" for p in pins)
        kind = PWROUT if first_3v3 else PWRIN if name == "GND" else PASSIVE
        if name.startswith("GPIO"):
            kind = IN if int(name[4:]) in input_only else BIDIR
        pins.append((n, name, kind))
    return tuple(pins)


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
        "Espressif ESP32-DevKitC V4 guide; ESP32 Series Datasheet",
        _header(_DEVKITC_LEFT, _DEVKITC_RIGHT, input_only=(34, 35, 36, 39)),
        "plugged into two 1x19 sockets (2.54 mm) on the main board",
    ),  # fmt: skip
    forbidden={
        **{g: "drives the module's flash (SD0-SD3, CLK, CMD)" for g in (6, 7, 8, 9, 10, 11)},
        1: "UART0 TX: the USB link to the host",
        3: "UART0 RX: the USB link to the host",
    },
    input_only=frozenset({34, 35, 36, 39}),
    strapping={
        0: "boot mode: low at reset enters the download mode",
        2: "boot mode: must be low or floating for the download mode",
        5: "SDIO timing strap, pulled up inside; safe as the reader's CS, which idles high",
        12: "flash voltage: high at reset selects 1.8 V flash and the module does not boot",
        15: "boot messages and SDIO timing",
    },
)

# ESP32-S3-DevKitC-1 (Espressif user guide v1.0, Header Block J1 left, J3 right).
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
ESP32S3_DEVKITC = Board(
    key="esp32s3-devkitc-1",
    part=PartDef(
        "ESP32-S3-DevKitC-1",
        "M",
        "ESP32-S3-DevKitC-1-N8R8",
        "ESP32-S3-DevKitC-1-N8R8",
        "Espressif",
        "plateau:ESP32-S3-DevKitC-1",
        "ESP32-S3 board (octal PSRAM)",
        "Espressif ESP32-S3-DevKitC-1 user guide v1.0; ESP32-S3 Series Datasheet",
        _header(_S3_LEFT, _S3_RIGHT),
    ),  # fmt: skip
    forbidden={
        **{g: "drives the module's flash" for g in range(26, 33)},
        **{g: "the octal PSRAM on N8R8/N16R8 modules" for g in (33, 34, 35, 36, 37)},
        19: "native USB D-",
        20: "native USB D+",
        43: "UART0 TX: the USB link to the host",
        44: "UART0 RX: the USB link to the host",
        48: "drives the board's addressable RGB LED (WS2812-type, v1.0 boards)",
        38: "drives the board's addressable RGB LED on v1.1 boards",
    },  # fmt: skip
    input_only=frozenset(),
    strapping={
        0: "boot mode",
        3: "JTAG source",
        45: "flash voltage",
        46: "boot mode / ROM messages",
    },  # fmt: skip
)

BOARDS = {b.key: b for b in (ESP32_DEVKITC, ESP32S3_DEVKITC)}

# The GPIO a future LED chain's data line would use (reserved: the pin maps do not name it
# because no firmware drives it yet; the circuit keeps it free so no other role takes it).
LED_CHAIN_GPIO = {"esp32-devkitc": 13, "esp32s3-devkitc-1": 16}
