# 74HC165 chain over SPI: the 104 Hall sensors of a Tock board in one read.
# Handed its bus and latch pin (micropython-lib style): no `machine` import here.
#
# Bit i of the frame is register i // 8, input i % 8: frame[i >> 3] >> (i & 7) & 1
# (hardware/wiring.md). The frame is one preallocated bytearray: a scan allocates nothing.


class ShiftChain:
    def __init__(self, spi, latch, nregisters):
        self._spi = spi
        self._latch = latch
        self.frame = bytearray(nregisters)
        latch.value(1)

    def read(self):
        """Loads the inputs (latch low, then high) and shifts them in. Returns the frame."""
        self._latch.value(0)
        self._latch.value(1)
        self._spi.readinto(self.frame)
        return self.frame
