# The board's hints (issue 29: Position.reach) on the interpreter closest to the chip (run by
# make bench, on the 32-bit build with the firmware frozen at 111,936 bytes when there is
# one), for the cases tock_hints.py found costliest: for each, the pawns the card can move
# (what the lights show once the card is read) and, for every pawn and camp on the board,
# where it can go (what they show while it is lifted); each timed right after a collection,
# the best of 5 (of 3 for each pawn): this machine's other work left out. A 7's ends are
# kept for the position they were worked out on (a pawn lifted after the card's hint is a
# look-up): every call here is timed with them forgotten (the work a 7 costs), and a
# lifted pawn once more right after the card's hint (what the board does). What one call
# allocates (nothing, by design), and the worst of each card.
#   micropython -X heapsize=111936 -m hints_mpy CASES
from esp32_mpy import HERE, SLOW, esp32, reference  # isort: skip  (calibrates first)

import gc  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

sys.modules.pop("pystone_lowmem", None)
gc.collect()

from games.tock import rules  # noqa: E402
from games.tock.rules import CELLS, REACH, Card, Position  # noqa: E402

OUT = bytearray(REACH)


def best(pos, card, s, n, kept=False):
    """(best us of n, bytes allocated) of one reach() call: with the 7's ends forgotten,
    or (kept) right after the card's hint."""
    t = 1 << 30
    used = 0
    for i in range(n):
        rules._SEVEN.runs += 1  # (its kept ends forgotten)
        if kept:
            pos.reach(card, OUT, -1)
        gc.collect()
        a0 = gc.mem_alloc()
        t0 = time.ticks_us()
        pos.reach(card, OUT, s)
        dt = time.ticks_diff(time.ticks_us(), t0)
        if i:  # the first call may take what a first call takes (a cache, an interned name)
            used = max(used, gc.mem_alloc() - a0)
        t = min(t, dt)
    return t, used


def main(path):
    print(reference())
    worst = {}  # card rank -> (us movable, us a pawn, position)
    alloc = 0
    n = 0
    with open(path) as f:
        while True:
            line = f.readline()
            if not line:
                break
            case = json.loads(line)
            card = Card(case["card"])
            pos = Position.from_dict(case["position"])
            t, used = best(pos, card, -1, 5)
            alloc = max(alloc, used)
            tp = tk = 0
            for s in range(REACH):
                if s < CELLS and not pos.cells[s] or s >= CELLS and s - CELLS not in pos.colours():
                    continue
                u, used = best(pos, card, s, 3)
                tp = max(tp, u)
                alloc = max(alloc, used)
                u, used = best(pos, card, s, 3, True)
                tk = max(tk, u)
                alloc = max(alloc, used)
            w = worst.get(card.rank)
            if w is None or max(t, tp) > max(w[0], w[1]):
                worst[card.rank] = (t, tp, tk, case["position"])
            n += 1
            del pos
    top = None
    for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "X"):
        if rank not in worst:
            continue
        t, tp, tk, p = worst[rank]
        print(
            "hints %-2s: the pawns it moves %5d us (%s), where a lifted pawn goes %5d us (%s)"
            % (rank, t, esp32(t), tp, esp32(tp))
            + (", after the card's hint %d us (%s)" % (tk, esp32(tk)) if rank == "7" else "")
        )
        if top is None or max(t, tp) > top[0]:
            top = (max(t, tp), rank, p)
    print(
        "worst hint: %d us (%s), a %s in %s; %d cases (tests/bench/tock_hints.py), every pawn "
        "and camp of each; one call allocates at most %d B"
        % (top[0], esp32(top[0]), top[1], json.dumps(top[2]), n, alloc)
    )
    if HERE:
        print(
            "  ESP32 estimates: this port's pystones over an ESP32's, %.0f-%.0f; the target: "
            "50 ms, the hints lit within 100 ms of the card's event" % SLOW
        )


main(sys.argv[1])
