# Tiny helpers shared by the firmware tests, which run under pytest and under MicroPython's
# own runner (mpy_runner), so they use plain asserts and no pytest features.


def raises(exc, fn, *args):
    """Calls fn(*args), asserts it raises exc, returns the exception."""
    try:
        fn(*args)
    except exc as e:
        return e
    raise AssertionError("%s did not raise %s" % (fn.__name__, exc.__name__))


class Wire:
    """A transport stand-in: collects what the board writes."""

    def __init__(self):
        self.out = bytearray()

    def write(self, data):
        self.out.extend(data)


def scratch(name):
    """A folder of this test process's own (several test runs share a machine: a fixed path
    would let one run's files into another's), in the run's folder (PLATEAU_SCRATCH: make
    mpytest's and pytest's, removed when the run ends) or else /tmp."""
    import os

    top = os.getenv("PLATEAU_SCRATCH") or "/tmp"
    path = "%s/plateau-%s-%s" % (top, name, "".join("%02x" % b for b in os.urandom(4)))
    os.mkdir(path)
    return path


class Rand:
    """A seeded generator that gives the same numbers under CPython and MicroPython (each has
    its own `random`): xorshift32, for the tests' random games."""

    def __init__(self, seed):
        self.x = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def next(self):
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x

    def below(self, n):
        return self.next() % n

    def pick(self, seq):
        return seq[self.below(len(seq))]

    def int(self, lo, hi):
        """lo..hi, both included."""
        return lo + self.next() % (hi - lo + 1)

    def choice(self, items):
        return items[self.next() % len(items)]

    def shuffle(self, items):
        for i in range(len(items) - 1, 0, -1):
            j = self.next() % (i + 1)
            items[i], items[j] = items[j], items[i]
