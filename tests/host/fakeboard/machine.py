# A stand-in for MicroPython's `machine` on an ESP32, for running boot.py and main.py under the
# unix port (tests/host/test_boot.py): pins and SPI buses wired, by the board's own pin map, to
# the chip models of firmware/sim/chips/. Watchdog, resets and pin set-ups are written to
# machine.log in the board's folder, one line each, for the test to read; machine.json there
# holds the test's knobs (reset cause, buttons held, tags on the reader, watchdog feeds before
# the run is stopped). Never deployed.
import json
import sys
import time

from sim.chips import Pin as Wire
from sim.chips.drv5032 import HallSwitches
from sim.chips.hc165 import ChainSPI, HC165Chain
from sim.chips.i2c import I2CBus
from sim.chips.ledc import BuzzerPWM
from sim.chips.mfrc522 import MFRC522Chip
from sim.chips.ntag213 import Tag
from sim.chips.rail import RailADC, SupplyRail
from sim.chips.sh1106 import SH1106
from sim.chips.spi import SPIBus
from sim.chips.ws2812 import LedChainChip

PWRON_RESET = 1
HARD_RESET = 2
WDT_RESET = 3
DEEPSLEEP_RESET = 4
SOFT_RESET = 5


def _log(*words):
    with open("machine.log", "a") as f:
        f.write(" ".join(str(w) for w in words) + "\n")


def _knobs():
    try:
        with open("machine.json") as f:
            return json.load(f)
    except OSError:
        return {}


_KNOBS = _knobs()
with open("hardware/pinmap.json") as f:
    _MAP = json.load(f)
with open("hardware/sensors.json") as f:
    _SENSOR_MAP = json.load(f)
_NAMES = _SENSOR_MAP["bits"]
_SENSORS = HallSwitches(len(_NAMES), _SENSOR_MAP["sensor"]["part"], time.ticks_ms())
_CHAIN = HC165Chain(
    (len(_NAMES) + 7) // 8,
    lambda: _SENSORS.levels(time.ticks_ms()),
    _MAP["shift_chain"].get("vcc", 3.3),
)
_CHIP = MFRC522Chip(time.ticks_us)
for _uid in _KNOBS.get("tags", ()):
    _CHIP.lay(Tag(bytes.fromhex(_uid)))
_WIRES = {
    _MAP["shift_chain"]["latch"]: _CHAIN.sh_ld,
    _MAP["reader"]["cs"]: _CHIP.nss,
    _MAP["reader"]["rst"]: _CHIP.nrstpd,
}
for _name, _gpio in _MAP["buttons"].items():
    _WIRES[_gpio] = Wire(0 if _name in _KNOBS.get("held", ()) else 1)


# what the table shows: the LED chain on its data pin, the displays on the I2C bus (knob
# "displays": the addresses that answer, every one of the pin map's if not given), the buzzer
_LEDS = LedChainChip(_MAP["leds"]["count"], time.ticks_us)
_I2C = I2CBus(_MAP["display"]["freq"])
for _addr in _KNOBS.get("displays", list(_MAP["display"]["addr"].values())):
    _I2C.devices[_addr] = SH1106(_addr)
_BUZZER = [None]


def violations():
    out = _CHAIN.violations + _CHIP.violations + _LEDS.violations
    for d in _I2C.devices.values():
        out = out + d.violations
    return out


def shown():
    """What the LEDs and displays show, for the test (written to shown.json at the end)."""
    from sim import look

    with open("shown.json", "w") as f:
        json.dump(
            {
                "leds": [list(_LEDS.rgb(i)) for i in range(_LEDS.n)],
                "displays": {a: look.screen(d) for a, d in _I2C.devices.items()},
                "tones": _BUZZER[0].tones if _BUZZER[0] else [],
            },
            f,
        )


sys.atexit(lambda: shown())  # (the board's REPL, where a run without a reset ends)


class Pin:
    IN = 1
    OUT = 3
    PULL_UP = 2
    PULL_DOWN = 1

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        _log("pin", id, mode, pull)
        if id not in _WIRES:
            _WIRES[id] = Wire(1)
        self._wire = _WIRES[id]
        if value is not None:
            self._wire.value(value)

    def value(self, v=None):
        return self._wire.value(v)


# the sensors' rail (knob "rail_mv": its voltage, nominal if not given) through the divider
_RAIL = SupplyRail(int(_MAP["sensor_rail"].get("volts", 5.0) * 1000))
_RAIL.mv = _KNOBS.get("rail_mv", _RAIL.mv)
_SENSORS.supply(_RAIL.mv, time.ticks_ms())


class ADC:
    ATTN_11DB = 3

    def __init__(self, pin, atten=0):
        _log("adc", pin.id, atten)
        self._adc = RailADC(_RAIL, _MAP["sensor_rail"]["ratio"])

    def read_uv(self):
        return self._adc.read_uv()


def SPI(id, baudrate=500000, polarity=0, phase=0, sck=None, mosi=-1, miso=None):
    _log("spi", id, baudrate, polarity, phase, "mosi", mosi if mosi in (None, -1) else mosi.id)
    if id == _MAP["shift_chain"]["spi"]:
        return ChainSPI(_CHAIN, baudrate, polarity, phase, bitwise=False)
    return SPIBus(baudrate, polarity, phase, (_CHIP,))


def I2C(id, sda=None, scl=None, freq=400000):
    _log("i2c", id, sda.id if sda else None, scl.id if scl else None, freq)
    return _I2C


def PWM(pin, freq=None, duty_u16=None):
    _log("pwm", pin.id, freq, duty_u16)
    _BUZZER[0] = BuzzerPWM(time.ticks_ms, freq or 1000, duty_u16 or 0)
    return _BUZZER[0]


def bitstream(pin, encoding, timing, buf):
    _LEDS.bitstream(pin, encoding, timing, buf)


class WDT:
    def __init__(self, id=0, timeout=5000):
        _log("wdt", timeout)
        self.fed = 0
        self.stop_after = _KNOBS.get("feeds", 100)

    def feed(self):
        self.fed += 1
        if self.fed >= self.stop_after:
            _log("fed", self.fed, "violations", len(violations()))
            shown()
            raise SystemExit(0)  # the test has seen enough of the loop


def reset():
    _log("reset")
    shown()
    raise SystemExit(0)


def reset_cause():
    return _KNOBS.get("cause", PWRON_RESET)
