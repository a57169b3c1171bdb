# An SPI bus for slaves behind a chip select (sim/chips/__init__.py), as machine.SPI is on a
# board: the MFRC522 sits on one. The mode and clock each slave accepts are its own
# datasheet's (the slave's spi_fault); the bus has no timing of its own beyond the bytes'.
from sim.chips import Rng


class SPIBus:
    """machine.SPI-like, byte level, for SPI slaves that sit behind a chip select (`nss` Pin,
    active low) and implement exchange(tx, rx). The mode and clock are checked against what the
    slave accepts; outside it the bytes read are undefined (random) and the slave records why."""

    def __init__(self, baudrate, polarity=0, phase=0, devices=()):
        self.baudrate = baudrate
        self.polarity = polarity
        self.phase = phase
        self.devices = list(devices)
        self._why = [d.spi_fault(baudrate, polarity << 1 | phase) for d in self.devices]
        self._rng = Rng(5)

    def _xfer(self, tx, rx):
        for k in range(len(self.devices)):
            d = self.devices[k]
            if d.nss.value() == 0:
                break
        else:
            if rx is not None:
                for i in range(len(rx)):
                    rx[i] = 0xFF  # MISO released by every slave: pulled high, or floating
            return
        why = self._why[k]
        d.exchange(tx, rx, len(tx) * 8 * 1000000 // self.baudrate)
        if why:
            d.violate(why)
            if rx is not None:
                for i in range(len(rx)):
                    rx[i] = self._rng.below(256)

    def write(self, buf):
        self._xfer(buf, None)

    def write_readinto(self, tx, rx):
        self._xfer(tx, rx)

    def readinto(self, buf, write=0):
        self._xfer(bytes([write]) * len(buf), buf)

    def read(self, n, write=0):
        buf = bytearray(n)
        self.readinto(buf, write)
        return buf
