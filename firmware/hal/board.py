# The real board's hardware (hal.hwmap.Hardware: its drivers and maps), built from
# hardware/pinmap.json: the only place that touches `machine` besides the drivers it hands
# buses to, and main.py/boot.py. The hardware layer imports nothing above it: sense, the
# games, the link and the table are handed a Hardware.
# It has not run on an ESP32 here: it is type-checked against the ESP32 stubs, and a test
# runs it under MicroPython with a stand-in `machine` wired to the chip models
# (tests/host/test_boot.py).
import machine

from hal import hwmap
from hal.hwmap import Hardware
from hal.inputs import Inputs
from hal.mfrc522 import MFRC522, ReaderError
from hal.rail import SensorRail
from hal.shiftin import ShiftChain


def build(folder="hardware"):
    """(Hardware, problems): what could not be set up is reported, not fatal."""
    pins = hwmap.load(folder, "pinmap.json")
    names = hwmap.sensor_names(folder)
    problems = []
    c = pins["shift_chain"]
    latch = machine.Pin(c["latch"], machine.Pin.OUT, value=1)
    # The chain only sends: mosi=None leaves the bus's default MOSI pin (GPIO13 for SPI(1) on
    # an ESP32) free. Mode and clock from the pin map: mode 2 at 1 MHz (hal/shiftin.py).
    spi = machine.SPI(
        c["spi"],
        baudrate=c["baudrate"],
        polarity=c.get("polarity", 1),
        phase=c.get("phase", 0),
        sck=machine.Pin(c["sck"]),
        mosi=None,
        miso=machine.Pin(c["miso"]),
    )
    part = hwmap.sensor_part(folder)
    active_low = part["active_low"]
    chain = ShiftChain(spi, latch, (len(names) + 7) // 8, active_low)
    r = pins["reader"]
    rspi = machine.SPI(
        r["spi"],
        baudrate=r["baudrate"],
        polarity=r.get("polarity", 0),
        phase=r.get("phase", 0),
        sck=machine.Pin(r["sck"]),
        mosi=machine.Pin(r["mosi"]),
        miso=machine.Pin(r["miso"]),
    )
    reader = MFRC522(
        rspi,
        machine.Pin(r["cs"], machine.Pin.OUT, value=1),
        machine.Pin(r["rst"], machine.Pin.OUT, value=1),
    )
    try:
        reader.init()
    except ReaderError as e:
        # the table still plays; cards are read once the reader answers (it keeps trying)
        problems.append(str(e))
    up = machine.Pin.PULL_UP
    buttons = Inputs(
        ("undo", "new", "pause"),
        {n: machine.Pin(p, machine.Pin.IN, up) for n, p in pins["buttons"].items()},
    )
    # goal inputs: the ESP32's 34/35 have no internal pull-up (the board's resistors do it);
    # the S3's take the internal one ("goal_pull" in its pin map)
    pull = pins.get("goal_pull")
    goals = Inputs(
        ("A", "B"),
        {
            n: machine.Pin(p, machine.Pin.IN, up) if pull else machine.Pin(p, machine.Pin.IN)
            for n, p in pins["goals"].items()
        },
    )
    # the sensors' 5 V rail through its divider to an ADC1 pin (hal/rail.py); a pin map
    # without one (an older board) has no watch
    rail = None
    s = pins.get("sensor_rail")
    if s:
        if s.get("atten_db", 11) != 11:
            problems.append("sensor_rail: atten_db %s, only 11 is supported" % s["atten_db"])
        else:
            adc = machine.ADC(machine.Pin(s["adc"]), atten=machine.ADC.ATTN_11DB)
            rail = SensorRail(adc, s["ratio"], s["min_volts"], s.get("volts", 5.0))
    leds, displays, buzzer = outputs(pins)
    board = Hardware(
        chain=chain,
        reader=reader,
        buttons=buttons,
        goals=goals,
        names=names,
        registry=hwmap.registry(folder),
        sample_ms=part["sample_ms"],
        rail=rail,
        leds=leds,
        displays=displays,
        buzzer=buzzer,
    )
    return board, problems


def outputs(pins):
    """What the table shows (outputs.py): the LED chain through MicroPython's neopixel
    (machine.bitstream, the RMT peripheral), the displays on their I2C bus, the buzzer's
    PWM; a pin map without one (an older board) has none of it. Alone for safe mode
    (main.py), which sets up nothing else."""
    leds = buzzer = None
    displays = ()  # type: tuple
    c = pins.get("leds")
    if c:
        from neopixel import NeoPixel

        from hal.leds import LedChain

        leds = LedChain(NeoPixel(machine.Pin(c["data"], machine.Pin.OUT), c["count"]), c)
    d = pins.get("display")
    if d:
        from hal.oled import Oled

        i2c = machine.I2C(
            d["i2c"], sda=machine.Pin(d["sda"]), scl=machine.Pin(d["scl"]), freq=d["freq"]
        )
        sh1106 = d.get("controller", "SH1106") == "SH1106"
        page = bytearray(128)  # drawn and sent one page at a time: one buffer for both
        displays = tuple(Oled(i2c, d["addr"][end], sh1106, page) for end in sorted(d["addr"]))
    b = pins.get("buzzer")
    if b:
        from hal.buzzer import Buzzer

        buzzer = Buzzer(machine.PWM(machine.Pin(b["pwm"]), freq=b["hz"], duty_u16=0))
    return leds, displays, buzzer
