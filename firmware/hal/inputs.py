# GPIO inputs: goal sensors and table buttons, each a Pin-like object with value().
# Active low (to GND with a pull-up): pressed / ball present reads 0.


class Inputs:
    intact = True  # GPIO levels are what they are (a chain can be unplugged: hal/shiftin.py)

    def __init__(self, names, pins):
        """names: the inputs in bit order, e.g. ("undo", "new", "pause"); pins: name -> Pin.
        (The order is given, not taken from the dict: MicroPython dicts keep none.)"""
        self._names = tuple(names)
        self._pins = tuple(pins[n] for n in self._names)
        self.frame = bytearray(1)

    def names(self):
        return self._names

    def read(self):
        """Bit k set when input k is active. One byte: up to 8 inputs."""
        v = 0
        for k in range(len(self._pins)):
            if not self._pins[k].value():
                v |= 1 << k
        self.frame[0] = v
        return self.frame
