# An I2C bus with its devices (sim/chips/__init__.py), as MicroPython's machine.I2C shows it
# to the drivers.
#   [MP-I2C]  MicroPython machine.I2C: writeto(addr, buf, stop=True), writevto(addr, vector,
#             stop=True) (the buffers of `vector` sent one after the other in one
#             transaction), OSError when the transfer fails
#   [MP-E32]  MicroPython ports/esp32/machine_i2c.c: a device that does not acknowledge its
#             address is OSError(ENODEV, 19); the bus held (SDA stuck low, no pull-up) runs
#             into the driver's timeout, OSError(ETIMEDOUT, 116)
#   [I2C]     NXP UM10204 I2C-bus specification, 3.1.10: each byte is 8 bits and an
#             acknowledge, 9 clocks; Fast-mode is up to 400 kHz
# Modelled: devices by address, a missing one, the bus stuck, and the time each transfer
# takes on the wire (bytes, the address included, at 9 clocks each), counted for the bench.
# Not expressed: clock stretching, arbitration, the pull-ups' rise time.
from micropython import const

_ENODEV = const(19)
_ETIMEDOUT = const(116)


class I2CBus:
    def __init__(self, freq=400000):
        self.freq = freq
        self.devices = {}  # address -> a model with write(data) (a whole transaction)
        self.stuck = False  # SDA held low: every transfer times out
        self.bytes = 0  # bytes on the wire (address bytes included), for the bench
        self.longest = 0  # the longest single transfer, in bytes

    def _device(self, addr):
        if self.stuck:
            raise OSError(_ETIMEDOUT)
        dev = self.devices.get(addr)
        if dev is None:
            raise OSError(_ENODEV)
        return dev

    def _count(self, n):
        self.bytes += n + 1
        if n + 1 > self.longest:
            self.longest = n + 1

    def writeto(self, addr, buf, stop=True):
        dev = self._device(addr)
        self._count(len(buf))
        dev.write(bytes(buf))
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        dev = self._device(addr)
        data = b"".join(bytes(b) for b in vector)
        self._count(len(data))
        dev.write(data)

    def us(self, nbytes):
        """The time nbytes take on the wire at the bus's clock, in us."""
        return nbytes * 9 * 1000000 // self.freq
