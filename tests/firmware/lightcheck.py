# The lights tests' table at the simulated board (test_sim_lights.py, test_sim_pieces.py): a
# module of its own so that each test module loads only what it uses (the chip's run holds
# its bytecode on a 111,936 B heap beside a whole simulated table).
from check import scratch

TOCK = "table tock players=4 rules=classic\n"


def table(script, positions=None):
    """(Sim, Capture) with the script played."""
    import gc
    import json

    gc.collect()  # (the last test's table: many in one process, at a small heap)

    from sim import VirtualClock
    from sim.run import Capture, Sim
    from sim.script import read

    folder = scratch("lights")
    for name in positions or {}:
        with open(folder + "/" + name, "w") as f:
            f.write(json.dumps(positions[name]))
    path = folder + "/s.table"
    with open(path, "w") as f:
        f.write(script)
    with open(path) as f:
        settings = read(f)
    import os

    os.mkdir(folder + "/flash")
    out = Capture()
    sim = Sim(settings, path, VirtualClock(), out, "00000000", "hardware", None, folder + "/flash")
    sim.run()
    return sim, out


def settle(sim, ms=200):
    """Passes until the table has drawn what it has to (at most `ms`)."""
    for _ in range(ms // 5):
        if sim.table.outputs.idle():
            return
        sim.advance(5)


def names_lit(sim, test):
    ph = sim.physical
    return sorted(ph.names[i] for i in range(len(ph.names)) if test(ph.led_chip.rgb(i)))


def white(rgb):
    return rgb[0] == rgb[1] == rgb[2] and rgb[0] > 40
