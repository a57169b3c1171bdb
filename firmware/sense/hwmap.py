# hardware/*.json, as the firmware loads them: on the board from /hardware, in the
# simulator from the checkout's hardware/ folder.
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
