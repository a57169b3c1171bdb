# hardware/*.json, as the firmware loads them: on the board from /hardware, in the
# simulator from the checkout's hardware/ folder.
import json


def load(folder, name):
    with open(folder + "/" + name) as f:
        return json.load(f)


def sensor_names(folder):
    return load(folder, "sensors.json")["bits"]


def registry(folder):
    return load(folder, "tags.json")["tags"]
