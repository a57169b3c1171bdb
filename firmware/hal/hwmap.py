# What the firmware knows of the hardware: hardware/*.json as the firmware loads them (on
# the board from /hardware, in the simulator from the checkout's hardware/ folder), and the
# Hardware that holds the drivers with the maps (built by hal/board.py for the real board,
# or by the simulator on its chip models). One module, not two: each module a frozen board
# imports costs its heap.
import json

from micropython import const


def load(folder, name):
    with open(folder + "/" + name) as f:
        return json.load(f)


def sensor_names(folder):
    return Names(load(folder, "sensors.json")["bits"])


def sensor_part(folder):
    """The Hall sensor fitted (sensors.json "sensor"): part, sample_ms, active_low, output.
    A map written before the key existed gets the DRV5032's: every variant drives its output
    LOW when a magnet is near."""
    part = {"part": "DRV5032FB", "sample_ms": 200, "active_low": True, "output": "push-pull"}
    part.update(load(folder, "sensors.json").get("sensor", {}))
    return part


_PIECE = const(16)  # tags a piece of Tags' text (about 330 bytes)


def registry(folder):
    return Tags(load(folder, "tags.json")["tags"])


class Names:
    """The sensors' names in chain order (sensors.json "bits"), as a sequence: one text, the
    names separated by spaces, and where each starts. A list of 104 names takes 3.9 KB of
    an ESP32's heap (a string object each), this about 0.6 KB; a name is made when asked
    (a game's setup, selftest, calibration: never in the scan)."""

    def __init__(self, names):
        from array import array

        self._text = " ".join(names)
        self._at = array("H", [0])
        for n in names:
            self._at.append(self._at[-1] + len(n) + 1)

    def __len__(self):
        return len(self._at) - 1

    def __getitem__(self, i):
        if i < 0:
            i += len(self)
        return self._text[self._at[i] : self._at[i + 1] - 1]  # (IndexError past the end)

    def index(self, name):
        for i in range(len(self)):
            if self[i] == name:
                return i
        raise ValueError(name)

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]


class Tags:
    """UID hex -> card (tags.json "tags"), as a mapping: texts of a line "UID:card" a tag,
    looked up by str.find. A dict of the 102 demo tags takes 7.5 KB of an ESP32's heap (a
    key and a value string each), these texts 2 KB, in pieces of _PIECE tags (no long free
    run needed of a heap the table has split); a lookup is once per card laid."""

    def __init__(self, tags):
        pieces = []
        lines = []
        for u in tags:
            lines.append("%s:%s" % (u, tags[u]))
            if len(lines) == _PIECE:
                pieces.append("\n" + "\n".join(lines) + "\n")
                lines = []
        if lines:
            pieces.append("\n" + "\n".join(lines) + "\n")
        self._pieces = pieces

    def get(self, uid, default=None):
        key = "\n" + uid + ":"
        for t in self._pieces:
            i = t.find(key)
            if i >= 0:
                i += len(key)
                return t[i : t.find("\n", i)]
        return default

    def __getitem__(self, uid):
        card = self.get(uid)
        if card is None:
            raise KeyError(uid)
        return card

    def __contains__(self, uid):
        return self.get(uid) is not None

    def __len__(self):
        return sum(t.count("\n") - 1 for t in self._pieces)

    def __iter__(self):
        for t in self._pieces:
            i = 1
            while i < len(t):
                j = t.find(":", i)
                yield t[i:j]
                i = t.find("\n", j) + 1


class Hardware:
    """What the firmware knows of the hardware: drivers (real or simulated) and the maps
    from hardware/. Any part may be None (a Weykick table has no chain or reader)."""

    def __init__(
        self,
        chain=None,
        reader=None,
        buttons=None,
        goals=None,
        names=(),
        registry=None,
        sample_ms=0,
        rail=None,
        leds=None,
        displays=(),
        buzzer=None,
    ):
        self.chain = chain  # hal.shiftin.ShiftChain
        self.reader = reader  # hal.mfrc522.MFRC522
        self.buttons = buttons  # hal.inputs.Inputs
        self.goals = goals  # hal.inputs.Inputs
        self.names = names  # chain bit -> sensor name (hardware/sensors.json)
        self.registry = registry if registry is not None else {}  # UID hex -> card (Tags)
        # the Hall sensors' sampling period (sensors.json "sensor"): a change reaches their
        # output up to this long after it happened
        self.sample_ms = sample_ms
        self.rail = rail  # hal.rail.SensorRail: the sensors' supply, watched (None: not wired)
        # what the table shows (outputs.py): hal.leds.LedChain, hal.oled.Oled at each end
        # (A, then B), hal.buzzer.Buzzer
        self.leds = leds
        self.displays = displays
        self.buzzer = buzzer
