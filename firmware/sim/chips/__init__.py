# Models of the board's chips, one module per chip as hal/ has one driver per chip, for the
# simulator and the driver tests. Each is written from its part's datasheet (and ISO/IEC
# 14443-3 for the tags), not from what the driver expects: the real drivers (hal/) run
# against them, and where a driver and a datasheet part, the datasheet decides. Simulated,
# not measured: they follow the datasheets' logic and timing tables, not the chips' analog
# behaviour (field strength, signal integrity). Heap-light on purpose: whole games run under
# MicroPython at an ESP32 heap with these models. Never deployed.
#
#   drv5032.py  the Hall switches under the squares: DRV5032 (sampled), DRV5033 (continuous)
#   hc165.py    the 74HC165 shift-register chain, and the SPI master that clocks it
#   spi.py      an SPI bus for slaves behind a chip select (the MFRC522)
#   ntag213.py  the cards' tags: NTAG213, ISO/IEC 14443-3 Type A
#   mfrc522.py  the card reader: NXP MFRC522, with the tags in its field
#
# A new chip is a module of its own here (the LED chain, the display, the buzzer...), citing
# its datasheet as [NAME section] beside each behaviour, and saying what it cannot express.
# sim/physical.py wires them as hardware/pinmap.json says. What every model shares is here: a
# GPIO line (Pin: a level read and written, on_change called when it changes; what drives it,
# push-pull, open-drain, a pull-up, is the chip model's to say), and the seeded generator the
# models draw their undefined values and noise from (Rng). No datasheet for these.


class Pin:
    """A Pin-like object: value() reads, value(v) writes and calls on_change."""

    def __init__(self, value=1, on_change=None):
        self._v = value
        self.on_change = on_change

    def value(self, v=None):
        if v is None:
            return self._v
        old = self._v
        self._v = 1 if v else 0
        if self.on_change and old != self._v:
            self.on_change(self._v)
        return None


class Rng:
    """A small seeded generator (31-bit LCG): the models' undefined values and injected noise
    are reproducible from a seed."""

    def __init__(self, seed=1):
        self.s = (seed * 2654435761 + 1) & 0x7FFFFFFF

    def next(self):
        self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
        return self.s >> 8

    def below(self, n):
        return self.next() % n
