# Board entry point: runs at power-up after boot.py. Unless boot.py chose safe mode
# (safemode.py), builds the real hardware, has power.power_up build the rest (as the
# simulator does) and resume the saved game, and runs the table loop.
# Ctrl-C is off while the table runs (P5); the host's `repl` command ends the loop, and the
# board restarts in safe mode so `mpremote` (and `make deploy`) always get the REPL.
import safemode

if not safemode.decided:  # no boot.py on the board (or it failed): decide here
    import machine

    if safemode.decide(machine):
        print("plateau: safe mode (%s): the table is not started" % safemode.why)

WDT_MS = 8000  # a hang restarts the board; the loop feeds it every 5 ms scan


def boot_id():
    import os

    return "%08x" % int.from_bytes(os.urandom(4), "big")


def run(ring):
    import sys
    import time

    import machine
    from power import power_up

    from clock import BoardClock
    from hal.board import build
    from link.stdio import StdioTransport

    try:
        hardware, problems = build("hardware")
        table = power_up(StdioTransport(), BoardClock(), hardware, boot_id(), ring, "state", GAME)
        table.greet()
        for why in problems:
            table.link.emit({"type": "error", "what": "hardware", "why": why})
    except Exception as e:
        # the table cannot start: say why and stay at the REPL, the watchdog not started
        # (started, it would restart the board into the same failure every 8 s)
        print("plateau: the table could not start:")
        sys.print_exception(e)
        return
    table.watchdog = safemode.Watchdog(machine.WDT(timeout=WDT_MS))
    table.run()
    if not table.running:  # the `repl` command: restart into safe mode
        safemode.request()
        time.sleep_ms(200)  # the answer leaves the UART before the reset
        machine.reset()


GAME = "tock"  # the game at first power-up; `plateau send new weykick ...` changes it, and a
# saved game of either kind is resumed as that game


def say_safe(why):
    """Safe mode said at the table too (its displays and the spot's LED: outputs.py), in
    case nobody reads the console; nothing here may keep the REPL from the board."""
    try:
        from outputs import safe_mode

        from hal import hwmap
        from hal.board import outputs

        leds, displays, _ = outputs(hwmap.load("hardware", "pinmap.json"))
        safe_mode(hwmap.Hardware(leds=leds, displays=displays), why)
    except Exception as e:  # (a part missing, a pin map without outputs): the REPL first
        print("plateau: safe mode not shown at the table (%s)" % e)


if safemode.why:  # (boot.py said why on the console)
    say_safe(safemode.why)
else:
    # The ring's store must be one block of the heap: take it before the imports fragment it.
    from link.ring import Ring

    run(Ring())
