"""CPython stand-in for MicroPython's `micropython` module, so that the firmware's pure
modules (rules cores, framing) import unchanged in the host tools and in pytest."""


def const(value):
    return value


def kbd_intr(_char):
    pass


def mem_peak():
    return 0
