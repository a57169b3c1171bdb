# A whole generated game through the simulated firmware under micropython: heap the game's
# data takes (code excluded), and the time from the last hand action of a move to its event.
#   make bench runs it, compiled, from build/bench (-m game_mpy SCRIPT HWDIR)
import gc
import sys
from array import array

import store  # noqa: F401

import games.tock.tracker  # noqa: F401  (loaded now: its code is not the game's data)
import sim.run as run
from clock import VirtualClock
from link.ring import Ring
from sim.script import read

path, hw = sys.argv[1], sys.argv[2]
gc.collect()
free_code = gc.mem_free()  # all modules loaded: what is left for the table's data

last_action = [0]
latencies = array("H", bytearray(4000))  # preallocated: the benchmark must not grow the heap
count = [0]
heap = [0, 10**9]  # most data live after a collection, least free before one
actions = [0]


class Quiet(run.Capture):
    def write(self, data):  # the events are not kept: only timed
        if data.find(b'"move"') >= 0 and count[0] < len(latencies):
            i = data.find(b'"t":') + 4
            t = 0
            while 48 <= data[i] <= 57:
                t = t * 10 + data[i] - 48
                i += 1
            latencies[count[0]] = t - last_action[0]
            count[0] += 1


orig_act = run.Sim.act


def act(self, line, verb, args):
    if verb in ("lift", "place", "move"):
        last_action[0] = self.clock.ticks_ms()
        if verb == "move":
            last_action[0] += self.pace // 2  # its place comes half a pace later
    orig_act(self, line, verb, args)
    actions[0] += 1
    heap[1] = min(heap[1], gc.mem_free())
    if actions[0] % 50 == 0:
        gc.collect()
        heap[0] = max(heap[0], free_code - gc.mem_free())


run.Sim.act = act
with open(path) as f:
    settings = read(f)
sim = run.Sim(settings, path, VirtualClock(), Quiet(), "b", hw, Ring(), "/tmp/plateau-bench-state")
gc.collect()
setup = free_code - gc.mem_free()
sim.run()
del sim
gc.collect()
n = count[0]
got = sorted(latencies[:n])
print(
    "game: %d moves; last hand action -> move event: median %d ms, worst %d ms (board time)"
    % (n, got[n // 2], got[-1])
)
print(
    "heap: code and modules leave %d B; the table's data takes %d B at start (ring 16384 B "
    "of it), %d B at most during the game (sampled after collections); least free %d B"
    % (free_code, setup, heap[0], heap[1])
)
