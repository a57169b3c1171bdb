# A stand-in for MicroPython's neopixel module (micropython-lib's, frozen into the ESP32 image)
# on the unix port, for tests/host/test_boot.py: the same class, its buffer and write() by
# machine.bitstream (the stand-in's: the LED chain's model). Never deployed.
import machine


class NeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.timing = (400, 850, 800, 450) if timing == 1 else (800, 1700, 1600, 900)

    def write(self):
        machine.bitstream(self.pin, 0, self.timing, self.buf)
