# Board entry point: runs at power-up. Builds the real hardware, then the table loop.
# Ctrl-C is off while the table runs (P5); the host's `repl` command ends the loop and gives
# the REPL back, so `mpremote` can always take over.
# The ring's store must be one block of the heap: take it before the imports fragment it.
from link.ring import Ring

RING = Ring()

import os  # noqa: E402

from clock import BoardClock  # noqa: E402
from link.link import Link  # noqa: E402
from link.stdio import StdioTransport  # noqa: E402
from table import Table  # noqa: E402


def boot_id():
    return "%08x" % int.from_bytes(os.urandom(4), "big")


def run():
    transport = StdioTransport()
    link = Link(transport.write, boot_id(), ring=RING)
    table = Table(transport, BoardClock(), link, None)
    link.greet()
    table.run()


run()
