# Board entry point: runs at power-up. Builds the real hardware, resumes the saved game, and
# runs the table loop. Ctrl-C is off while the table runs (P5); the host's `repl` command
# ends the loop and gives the REPL back, so `mpremote` can always take over.
# The ring's store must be one block of the heap: take it before the imports fragment it.
from link.ring import Ring

RING = Ring()

import os  # noqa: E402

from store import Store  # noqa: E402

from clock import BoardClock  # noqa: E402
from link.link import Link  # noqa: E402
from link.stdio import StdioTransport  # noqa: E402
from sense.scan import Sense  # noqa: E402
from table import Table, make_game  # noqa: E402

GAME = "tock"  # the game at first power-up; `plateau send new weykick ...` changes it, and a
# saved game of either kind is resumed as that game


def boot_id():
    return "%08x" % int.from_bytes(os.urandom(4), "big")


def run():
    from hal.board import build

    board, watchdog, problems = build("hardware")
    transport = StdioTransport()
    link = Link(transport.write, boot_id(), ring=RING)
    game = make_game(GAME, link.emit, board.names, {})
    table = Table(transport, BoardClock(), link, game, Sense(board), Store("state"), watchdog)
    table.resume()
    link.greet()
    for why in problems:
        link.emit({"type": "error", "what": "hardware", "why": why})
    table.run()


run()
