# The USB console as the link transport: the board writes frames to sys.stdout.buffer and
# reads commands from sys.stdin.buffer. Works the same on an ESP32 (USB-CDC or the UART
# bridge) and under the MicroPython unix port (a pty in the simulator).
import select
import sys

import micropython


class StdioTransport:
    def __init__(self):
        self._out = sys.stdout.buffer
        self._in = sys.stdin.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._one = bytearray(1)
        self._buf = bytearray(64)
        self.up = True  # False while the simulator holds the cable unplugged

    def table_mode(self):
        # P5: in table mode a 0x03 on the wire is data, not Ctrl-C. The `repl` command
        # restores it (see Table) so mpremote can take over.
        micropython.kbd_intr(-1)

    def repl_mode(self):
        micropython.kbd_intr(3)

    def write(self, data):
        if self.up:
            self._out.write(data)

    def read(self):
        """Whatever bytes are waiting (up to 64), without blocking; b"" when none. Called
        every pass: when nothing came it allocates nothing (ipoll yields a tuple it owns,
        readinto fills the buffer made once)."""
        n = 0
        buf = self._buf
        one = self._one
        while n < len(buf):
            ready = 0
            for _, ready in self._poll.ipoll(0):
                pass
            if not ready & select.POLLIN or self._in.readinto(one) != 1:
                break
            buf[n] = one[0]
            n += 1
        if not n or not self.up:
            return b""  # unplugged: what the host sent never arrived
        return bytes(buf[:n])
