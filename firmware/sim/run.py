# The simulated table: the real firmware loop (table.Table, link, game) driven by a table
# script instead of hands, on a virtual clock, talking through stdin/stdout (a pty when
# `plateau sim` runs it). Never deployed to a board.
#
#   MICROPYPATH=firmware micropython -X heapsize=56k -m sim.run SCRIPT [--realtime]
#       [--wait-host] [--boot HEX]
# The ring's store must be one block of the heap: take it before the imports fragment it.
from link.ring import Ring

RING = Ring()

import sys  # noqa: E402

from clock import VirtualClock  # noqa: E402
from link.link import Link  # noqa: E402
from link.stdio import StdioTransport  # noqa: E402
from table import SCAN_MS, Table  # noqa: E402

from sim.script import ScriptError, parse  # noqa: E402

DEFAULT_PACE_MS = 150  # a brisk human: one hand action every 150 ms
END_MS = 2000  # after the last action the table runs on this long (settling, heartbeats)
HOST_WAIT_MS = 10000  # real time to wait for the host's hello, and for its bye at the end


class Sim:
    def __init__(self, settings, actions, clock, transport, boot):
        self.settings = settings
        self.actions = actions
        self.clock = clock
        self.transport = transport
        self.link = Link(transport.write, boot, ring=RING)
        self.table = Table(transport, clock, self.link, None)
        self.pace = DEFAULT_PACE_MS
        self.bye = False
        self.hosted = False
        self.link.on_command = self.command

    def command(self, cmd):
        if cmd["cmd"] == "bye":  # the host has read everything: the simulator may end
            self.bye = True
            return None
        return self.table.command(cmd)

    def advance(self, ms):
        """Let `ms` of table time pass, the firmware loop running as on the board."""
        end = self.clock.ticks_ms() + ms
        while self.clock.ticks_ms() < end and self.table.running:
            self.table.step()
            self.clock.sleep_ms(SCAN_MS)

    def wait_host(self, until, limit_ms):
        """Run the loop in real time until until() is true or limit_ms pass."""
        import time

        t0 = time.ticks_ms()
        while not until() and time.ticks_diff(time.ticks_ms(), t0) < limit_ms:
            self.table.step()
            time.sleep_ms(SCAN_MS)

    def run(self):
        self.transport.table_mode()
        try:
            if not self.hosted:
                self.link.greet()  # a board says hello at boot; a waiting host already had it
            for line, verb, args in self.actions:
                self.act(line, verb, args)
                if not self.table.running:
                    return
            self.advance(END_MS)
            # A pty loses what is unread when its master side closes: tell the host the
            # script is over and give it time to read everything and say bye.
            self.link.tell({"type": "sim_end"})
            if self.hosted:
                self.wait_host(lambda: self.bye, HOST_WAIT_MS)
        finally:
            self.transport.repl_mode()

    def act(self, line, verb, args):
        if verb == "wait":
            self.advance(args[0])
            return
        if verb == "pace":
            self.pace = args[0]
            return
        if verb == "unplug":
            self.transport.up = False
            self.advance(args[0])
            self.transport.up = True
            return
        raise ScriptError(line, "%r is not simulated yet" % verb)


def main(argv):
    if len(argv) < 2:
        sys.stderr.write("usage: sim.run SCRIPT [--realtime] [--wait-host] [--boot HEX]\n")
        return 2
    try:
        with open(argv[1]) as f:
            settings, actions = parse(f.read())
    except OSError as e:
        sys.stderr.write("sim: cannot read %s: %s\n" % (argv[1], e))
        return 2
    except ScriptError as e:
        sys.stderr.write("sim: %s: %s\n" % (argv[1], e))
        return 2
    boot = "%08x" % (int.from_bytes(__import__("os").urandom(4), "big"))
    if "--boot" in argv:
        boot = argv[argv.index("--boot") + 1]
    sim = Sim(settings, actions, VirtualClock("--realtime" in argv), StdioTransport(), boot)
    if "--wait-host" in argv:
        sim.hosted = True
        sim.wait_host(lambda: sim.link.hellos, HOST_WAIT_MS)
    try:
        sim.run()
    except ScriptError as e:
        sys.stderr.write("sim: %s: %s\n" % (argv[1], e))
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
