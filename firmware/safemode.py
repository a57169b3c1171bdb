# Safe mode: a way back to the REPL that a running table can never block.
#
# An ESP32's watchdog cannot be stopped once started, and the table loop turns Ctrl-C off
# (protocol P5), so a board running its table cannot simply be interrupted. Instead boot.py
# calls decide() at every power-up, and main.py starts neither the table nor the watchdog when
# it says safe mode. Safe mode comes when
#   - the `repl` command asked for it: main.py writes _FLAG and resets the board (once only:
#     the flag is removed as it is read, so the next power-up runs the table again);
#   - the safe button (pinmap.json "safe_button", the pause button) is held at power-up;
#   - the watchdog restarted the board _MAX_HANGS times in a row (a hang at every start: the
#     count is cleared by any other kind of reset and once a table has run _STABLE_MS).
# Logic only: `machine` is handed in (boot.py), so a test drives it with a stand-in.
import os

from micropython import const

_FLAG = const("safe")  # written by the `repl` command path just before machine.reset()
_HANGS = const("hangs")  # watchdog resets in a row
_MAX_HANGS = const(3)
_STABLE_MS = const(60000)

decided = False  # decide() ran (boot.py); main.py decides itself if not
why = None  # why the board is in safe mode, or None: run the table


def decide(machine, folder="hardware"):
    global decided, why
    decided = True
    why = None
    if _take(_FLAG):
        why = "asked for by the repl command"
    elif _held(machine, folder):
        why = "the safe button was held at power-up"
    hangs = _count_hangs(machine)
    if why is None and hangs >= _MAX_HANGS:
        _remove(_HANGS)  # the next power-up tries the table again
        why = "the watchdog restarted the board %d times in a row" % hangs
    return why


def request():
    """The `repl` command: the next start is in safe mode."""
    with open(_FLAG, "w") as f:
        f.write("repl\n")


def _take(name):
    try:
        os.stat(name)
    except OSError:
        return False
    _remove(name)
    return True


def _remove(name):
    try:
        os.remove(name)
    except OSError:
        pass


def _held(machine, folder):
    """Whether the safe button reads pressed (to GND, pull-up) on three reads 10 ms apart."""
    import json
    import time

    try:
        with open(folder + "/pinmap.json") as f:
            pins = json.load(f)
        gpio = pins["buttons"][pins.get("safe_button", "pause")]
    except (OSError, ValueError, KeyError):
        return False
    pin = machine.Pin(gpio, machine.Pin.IN, machine.Pin.PULL_UP)
    for _ in range(3):
        time.sleep_ms(10)
        if pin.value():
            return False
    return True


def _count_hangs(machine):
    if machine.reset_cause() != machine.WDT_RESET:
        _remove(_HANGS)
        return 0
    n = 0
    try:
        with open(_HANGS) as f:
            n = int(f.read())
    except (OSError, ValueError):
        pass
    n += 1
    with open(_HANGS, "w") as f:
        f.write("%d\n" % n)
    return n


class Watchdog:
    """machine.WDT as the table loop feeds it; once the table has run _STABLE_MS, the count of
    watchdog resets in a row starts again from zero."""

    def __init__(self, wdt):
        import time

        self._wdt = wdt
        self._ticks = time.ticks_ms
        self._diff = time.ticks_diff
        self._started = time.ticks_ms()
        self._counting = True

    def feed(self):
        self._wdt.feed()
        if self._counting and self._diff(self._ticks(), self._started) >= _STABLE_MS:
            self._counting = False
            _remove(_HANGS)
