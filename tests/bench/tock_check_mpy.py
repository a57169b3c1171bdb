# Times Position.check for the worst 7 (8 own pawns) under micropython, with the ESP32 heap.
#   make bench runs it, compiled, from build/bench (-m tock_check_mpy CASES)
import gc
import json
import sys
import time

from esp32_mpy import esp32  # isort: skip  (calibrates first, on an empty heap)
from games.tock.rules import Card, Illegal, Position


def main(path):
    card = Card("7S")
    # worst, total, count, and every 8th time for the median: a list of 3000 times would
    # itself take a third of the heap
    stats = {"legal": [0, 0, 0, []], "illegal": [0, 0, 0, []]}
    with open(path) as f:
        before = Position.from_dict(json.loads(f.readline()))
        gc.collect()
        free0 = low = gc.mem_free()
        for line in f:
            case = json.loads(line)
            after = Position.from_dict(case["after"])
            case = case["kind"]
            gc.collect()
            t0 = time.ticks_us()
            try:
                before.check(card, after)
                ok = True
            except Illegal:
                ok = False
            dt = time.ticks_diff(time.ticks_us(), t0)
            st = stats[case]
            st[0] = max(st[0], dt)
            st[1] += dt
            if st[2] % 8 == 0:
                st[3].append(dt)
            st[2] += 1
            low = min(low, gc.mem_free())
            assert ok == (case == "legal"), line
    for kind in ("legal", "illegal"):
        worst, total, n, sample = stats[kind]
        sample.sort()
        print(
            "check 7 (8 own pawns on the track), %s observations: %d, mean %d us, median %d us"
            " (%s), worst %d us (%s)"
            % (
                kind,
                n,
                total // n,
                sample[len(sample) // 2],
                esp32(sample[len(sample) // 2]),
                worst,
                esp32(worst),
            )
        )
    print("heap: %d B free before, %d B at the lowest (before collection)" % (free0, low))


main(sys.argv[1])
