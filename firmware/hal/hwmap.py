# What the firmware knows of the hardware: hardware/*.json as the firmware loads them (on
# the board from /hardware, in the simulator from the checkout's hardware/ folder), and the
# Hardware that holds the drivers with the maps (built by hal/board.py for the real board,
# or by the simulator on its chip models). One module, not two: each module a frozen board
# imports costs its heap.
import json


def load(folder, name):
    with open(folder + "/" + name) as f:
        return json.load(f)


def sensor_names(folder):
    return load(folder, "sensors.json")["bits"]


def sensor_part(folder):
    """The Hall sensor fitted (sensors.json "sensor"): part, sample_ms, active_low, output.
    A map written before the key existed gets the DRV5032's: every variant drives its output
    LOW when a magnet is near."""
    part = {"part": "DRV5032FB", "sample_ms": 200, "active_low": True, "output": "push-pull"}
    part.update(load(folder, "sensors.json").get("sensor", {}))
    return part


def registry(folder):
    return load(folder, "tags.json")["tags"]


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
    ):
        self.chain = chain  # hal.shiftin.ShiftChain
        self.reader = reader  # hal.mfrc522.MFRC522
        self.buttons = buttons  # hal.inputs.Inputs
        self.goals = goals  # hal.inputs.Inputs
        self.names = names  # chain bit -> sensor name (hardware/sensors.json)
        self.registry = registry if registry is not None else {}  # UID hex -> card
        # the Hall sensors' sampling period (sensors.json "sensor"): a change reaches their
        # output up to this long after it happened
        self.sample_ms = sample_ms
        self.rail = rail  # hal.rail.SensorRail: the sensors' supply, watched (None: not wired)
