# 74HC165 chain over SPI: the 104 Hall sensors of a Tock board in one read.
# Handed its bus and latch pin (micropython-lib style): no `machine` import here.
#
# Bit i of the frame is register i // 8, input i % 8 (hardware/wiring.md):
# frame[i >> 3] >> (i & 7) & 1, and 1 means the sensor is active (a magnet over it): the
# sensors' polarity (hardware/sensors.json "active_low") is applied here and nowhere else.
#
# The SPI bus must clock in mode 2 (clock idle high, MISO sampled on the falling edge): the
# 74HC165 shifts on the rising edge, so the sample comes half a period after QH changed, never
# at the same edge (modes 0 and 3 race the chip's propagation delay; mode 1 loses a bit).
#
# One byte more than the chain is read: past the last register come the levels of its SER
# input (tied to GND), so that byte must read 0x00. Anything else means MISO is not driven by
# the chain (unplugged, floating high) or the chain is longer than the map says: `intact` is
# False and the frame is not to be believed. (A chain shorter than the map shows its SER zeros
# early: its missing sensors read as active, which selftest reports as sensors stuck on.)
# The buffers are preallocated: a scan allocates nothing.


class ShiftChain:
    def __init__(self, spi, latch, nregisters, active_low=True, ser=0):
        self._spi = spi
        self._latch = latch
        self._raw = bytearray(nregisters + 1)
        self.frame = bytearray(nregisters)
        self._invert = 0xFF if active_low else 0x00
        self._tail = 0xFF if ser else 0x00
        self.intact = True
        latch.value(1)

    def read(self):
        """Loads the inputs (latch low, then high) and shifts them in. Returns the frame."""
        self._latch.value(0)
        self._latch.value(1)
        raw = self._raw
        self._spi.readinto(raw)
        frame = self.frame
        inv = self._invert
        for i in range(len(frame)):
            frame[i] = raw[i] ^ inv
        self.intact = raw[len(frame)] == self._tail
        return frame
