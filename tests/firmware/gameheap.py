# A whole game through the simulated firmware, for the heap a table needs: the live data at
# its peak. A collector lets the heap fill before it collects, so "free" before a collection
# says nothing; what tells whether a table fits is gc.collect() then gc.mem_free() at the
# moments of most data, and the lowest of those over a whole game. The moments: after each
# hand action, after each rules check (the move found still held), as each event is written
# (the move or hand just refereed still alive) and as the game is saved (its JSON text
# alive). Heartbeats aside, the frames go to stdout for the host to decode and check; the
# figures go to stderr as one JSON line.
#   micropython -X heapsize=111936 -m gameheap SCRIPT HWDIR STATEDIR [PORT USER PASSWORD]
# With a broker's port, the table is on Wi-Fi (issue 30): set up on its flash as the `wifi`
# command keeps it, it joins the simulated room's network and publishes the whole game to the
# broker on 127.0.0.1:PORT (the client, its buffers, its socket and the uplink live through it).
# Run by tests/host/test_chip.py (make test) and tests/bench (make bench).
import gc
import sys

import sim.run as run  # takes the link's ring first, as main.py does on a board

LOW = [1 << 30, 0]  # lowest live free heap seen, samples taken


def sample():
    gc.collect()
    free = gc.mem_free()
    if free < LOW[0]:
        LOW[0] = free
    LOW[1] += 1


class Out(run.Capture):
    """The USB console of the simulated board: frames to stdout, heartbeats left out."""

    def write(self, data):
        if self.up and data.find(b'"heartbeat"') < 0:
            sample()
            sys.stdout.buffer.write(data)


class Dumps:
    """json as store.py sees it: samples once the saved text exists."""

    def __init__(self, json):
        self._json = json

    def dumps(self, obj):
        text = self._json.dumps(obj)
        sample()
        return text

    def loads(self, text):
        return self._json.loads(text)

    def load(self, f):
        return self._json.load(f)


def watch_checks():
    """Tock: a sample after each rules check, the move it found (if any) still held."""
    from games.tock.rules import Position

    check = Position.check

    def checked(self, card, after, touched=None):
        move = check(self, card, after, touched)
        sample()
        return move

    Position.check = checked


def main(path, hw_dir, state_dir, wifi=None):
    import store

    from clock import BoardClock
    from sim import VirtualClock
    from sim.script import read

    store.json = Dumps(store.json)
    with open(path) as f:
        settings = read(f)
    if settings["game"] == "tock":
        watch_checks()
    act = run.Sim.act

    def acted(self, line, verb, args):
        act(self, line, verb, args)
        sample()

    run.Sim.act = acted
    if wifi:  # the settings the `wifi` command keeps, on the flash before power-up
        port, user, secret = wifi
        kept = {"ssid": "bench-net", "password": "bench-wpa-1", "table": user}
        kept.update(broker="127.0.0.1:" + port, secret=secret)
        store._write(state_dir + "/wifi.json", state_dir + "/wifi.tmp", kept)
        run.Sim.networks = {"bench-net": ["bench-wpa-1", -60, True]}
        run.Sim.air_clock = BoardClock()
    sim = run.Sim(settings, path, VirtualClock(), Out(), "c41f0000", hw_dir, None, state_dir)
    gc.collect()
    total = gc.mem_free() + gc.mem_alloc()
    start = gc.mem_free()  # firmware, simulator and this game's code loaded, game set up
    sim.run()
    sys.stderr.write(
        '{"heap": %d, "start": %d, "lowest": %d, "samples": %d}\n' % (total, start, LOW[0], LOW[1])
    )


main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:7] if len(sys.argv) > 4 else None)
