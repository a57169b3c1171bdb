# The LED chain under the board (issue 29): one WS2812B a square in the sensors' order, then
# the card spot and the goals (hardware/pinmap.json "leds"). Driven through MicroPython's
# `neopixel` module, handed in by hal/board.py: on an ESP32 its write() is machine.bitstream,
# which the port sends through the RMT peripheral, blocking until the last bit is out (24
# bits a LED at 800 kHz: 30 us a LED, 3.2 ms for 107), so the table writes only when a colour
# changed (outputs.py).
#
# The frame is the NeoPixel's own buffer: 3 bytes a LED in the chain's byte order (GRB for a
# WS2812B, the pin map's "order"), written in place, nothing allocated. A stuck or cut data
# line cannot be seen from here: the chain sends nothing back.
class LedChain:
    """The chain and what the pin map says of it: `leds` {"count", "spot", "goals",
    "order", "ma_cap", "ma_channel", "ma_idle"} (the current cap: outputs.py)."""

    def __init__(self, np, leds):
        self._np = np  # neopixel.NeoPixel (or the simulator's, on the chain's model)
        self.buf = np.buf  # 3 bytes a LED, in the chain's order
        self.count = len(self.buf) // 3
        self.order = leds.get("order", "GRB")
        self.spot = leds.get("spot", -1)  # the card spot's LED
        self.goals = leds.get("goals", {})  # each goal's LED, by the goal's name
        self.ma_cap = leds.get("ma_cap", 1200)  # what the chain may draw, mA
        self.ma_channel = leds.get("ma_channel", 20)  # a channel at full, mA
        self.ma_idle = leds.get("ma_idle", 1)  # a LED dark, mA

    def write(self):
        self._np.write()
