# Running table scripts through the simulated firmware in this process (CPython or
# MicroPython), for the tests: script text in, the events the board sent out.
from check import scratch

from sim.run import play

SCRATCH = scratch("test")


def _write(name, text):
    path = SCRATCH + "/" + name
    with open(path, "w") as f:
        f.write(text)
    return path


def run(script, positions=None, piled=False):
    """Events (heartbeats left out) of a table script; `positions`: name -> T4 dict, written
    next to the script for its `position` lines; `piled`: every card left on the last on the
    reader, as the table was before its card spot (sim.physical.PhysicalTable.piled)."""
    import json
    import os

    for name in positions or {}:
        _write(name, json.dumps(positions[name]))
    path = _write("script.table", script)
    state = SCRATCH + "/flash"  # the simulated flash, empty at the start of each script
    try:
        for name in os.listdir(state):
            os.remove(state + "/" + name)
    except OSError:
        pass
    evs = play(path, "hardware", state=state, piled=piled)
    return [e for e in evs if e["type"] != "heartbeat"]


def of(events, kind):
    return [e for e in events if e["type"] == kind]


def kinds(events):
    """The numbered events' types, in order."""
    return [e["type"] for e in events if "seq" in e]


def position(pawns, turn="R", rules="classic", players=4, waiting=()):
    colours = "RGB" if players == 3 else "RGBY"
    full = {}
    for c in colours:
        squares = list(pawns.get(c, []))
        full[c] = squares + ["camp"] * (4 - len(squares))
    return {
        "rules": rules,
        "players": players,
        "turn": turn,
        "pawns": full,
        "waiting": list(waiting),
    }
