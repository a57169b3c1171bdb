# The worst 7 check and the garbage collector, on the interpreter closest to the chip (run
# by make bench, on the 32-bit build with the firmware frozen at 111,936 bytes when there is
# one):
#   1. Position.check of a 7 with 8 own pawns (2 players), for every legal result and for
#      observations no 7 gives: each timed 3 times, each time right after a collection (as
#      the table collects when the sensors settle, before it reads the board), the best
#      kept; the 10 slowest of each kind timed again 30 times: the worst. Best-of timings
#      leave out this machine's other work; the calibration is a best-of too.
#      What one check allocates, and what its search allocates (nothing, by design).
#   2. A whole generated Tock game through the simulated table, the collector left to run
#      as on a board: how long each full collection takes with a game's data live, how many
#      came by themselves (the heap full) and how many of those fell inside a rules check.
#   3. The worst 7 check including any collection it causes, two ways: charged per
#      heap-fill (its allocation over the free heap, times a collection's pause), and with a
#      whole collection inside it (what a check would take if the heap ran out in it).
#   micropython -X heapsize=111936 -m chip_mpy CASES GAME HWDIR STATEDIR
from esp32_mpy import HERE, SLOW, esp32, reference  # isort: skip  (calibrates first)

import gc  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from array import array  # noqa: E402

sys.modules.pop("pystone_lowmem", None)
gc.collect()

import sim.run as run  # noqa: E402  (the link's ring first, as on a board)
from games.tock import rules  # noqa: E402
from games.tock.rules import Card, Illegal, Position  # noqa: E402


def timed_check(before, card, after):
    """(best of 3 in us, bytes one check allocates, legal?) with a fresh heap each time."""
    best = 1 << 30
    used = 0
    ok = False
    for _ in range(3):
        gc.collect()
        a0 = gc.mem_alloc()
        t0 = time.ticks_us()
        try:
            before.check(card, after)
            ok = True
        except Illegal:
            ok = False
        dt = time.ticks_diff(time.ticks_us(), t0)
        used = gc.mem_alloc() - a0
        best = min(best, dt)
    return best, used, ok


def worst_seven(path):
    card = Card("7S")
    stats = {}  # kind -> [count, total us, sample of times, max alloc, slowest [(us, line)]]
    with open(path) as f:
        before = Position.from_dict(json.loads(f.readline()))
        while True:
            line = f.readline()
            if not line:
                break
            last = line
            case = json.loads(line)
            kind = case["kind"]
            after = Position.from_dict(case["after"])
            us, used, ok = timed_check(before, card, after)
            assert ok == (kind == "legal"), line
            st = stats.setdefault(kind, [0, 0, [], 0, []])
            st[0] += 1
            st[1] += us
            if st[0] % 8 == 0:
                st[2].append(us)
            st[3] = max(st[3], used)
            slow = st[4]
            if len(slow) < 10 or us > slow[-1][0]:
                slow.append((us, line))
                slow.sort(reverse=True)
                del slow[10:]
    worst = (0, "", None)
    for kind in stats:
        for _, line in stats[kind][4]:
            after = Position.from_dict(json.loads(line)["after"])
            best = 1 << 30
            for _ in range(10):  # 3 runs each: the best of 30
                best = min(best, timed_check(before, card, after)[0])
            if best > worst[0]:
                worst = (best, kind, json.loads(line)["after"]["pawns"])
            del after
    # the search alone, on the last case: nothing allocated
    after = Position.from_dict(json.loads(last)["after"])
    gc.collect()
    a0 = gc.mem_alloc()
    rules._SEVEN.search(before, 0, after, None, card)
    search_alloc = gc.mem_alloc() - a0
    return stats, worst, search_alloc


class Pauses:
    """gc as table.py sees it: each collection the table asks for, timed (the first 1,500:
    the record is made once, a growing list would take the heap it measures)."""

    def __init__(self):
        self.times = array("H", bytearray(3000))
        self.n = 0

    def collect(self):
        t0 = time.ticks_us()
        gc.collect()
        if self.n < len(self.times):
            self.times[self.n] = min(65535, time.ticks_diff(time.ticks_us(), t0))
        self.n += 1


class Sorted:
    """The first n values of an array, sorted in place (a shell sort): the record's copy and
    a sorted list would take 8 KB in one block of a heap the game has cut up."""

    def __init__(self, a, n):
        gap = n // 2
        while gap:
            for i in range(gap, n):
                v = a[i]
                j = i
                while j >= gap and a[j - gap] > v:
                    a[j] = a[j - gap]
                    j -= gap
                a[j] = v
            gap //= 2
        self.a = a
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return self.a[i]


def game(path, hw_dir, state_dir):
    """A whole game, the collector free to run: (pauses, automatic collections, inside a
    check, checks, slowest check us, lowest free after the table's collections)."""
    import table
    from sim import VirtualClock
    from sim.script import read

    pauses = Pauses()
    table.gc = pauses
    counts = [0, 0, 0]  # automatic collections, inside a check, checks
    check = Position.check

    def checked(self, card, after, touched=None):
        a0 = gc.mem_alloc()
        try:
            return check(self, card, after, touched)
        finally:
            counts[2] += 1
            if gc.mem_alloc() < a0:  # less in use than before: the heap was collected
                counts[1] += 1

    Position.check = checked
    step = table.Table.step

    def stepped(self):
        a0 = gc.mem_alloc()
        n = pauses.n
        step(self)
        if gc.mem_alloc() < a0 and pauses.n == n:
            counts[0] += 1  # collected by itself: the heap ran full during the pass

    table.Table.step = stepped
    with open(path) as f:
        settings = read(f)
    transport = run.Capture()
    transport.write = lambda data: None
    sim = run.Sim(settings, path, VirtualClock(), transport, "c41f0000", hw_dir, None, state_dir)
    sim.run()
    gc.collect()
    free_live = gc.mem_free()
    pause_now = []
    for _ in range(5):
        t0 = time.ticks_us()
        gc.collect()
        pause_now.append(time.ticks_diff(time.ticks_us(), t0))
    del sim
    Position.check = check  # the check cases are timed without the counting
    table.Table.step = step
    table.gc = gc
    return (
        Sorted(pauses.times, min(pauses.n, len(pauses.times))),
        counts,
        free_live,
        min(pause_now),
    )


def main(cases, game_path, hw_dir, state_dir):
    heap = gc.mem_free() + gc.mem_alloc()
    print(reference())
    # the game first, on a heap the check cases have not yet cut up
    pauses, counts, free_live, pause_live = game(game_path, hw_dir, state_dir)
    gc.collect()
    stats, worst, search_alloc = worst_seven(cases)
    for kind in ("legal", "illegal"):
        n, total, sample, alloc, _ = stats[kind]
        sample.sort()
        med = sample[len(sample) // 2]
        print(
            "check 7 (8 own pawns), %s observations: %d, median %d us (%s), mean %d us; "
            "one check allocates at most %d B" % (kind, n, med, esp32(med), total // n, alloc)
        )
    print(
        "worst 7 check: %d us (%s): the slowest 10 of each kind timed again, best of 30; "
        "the search itself allocates %d B (its memory is taken once, at import): what a "
        "check allocates is the move it returns, or the reason it refuses"
        % (worst[0], esp32(worst[0]), search_alloc)
    )
    print("  the worst: a %s observation, pawns after %s" % (worst[1], worst[2]))
    med = pauses[len(pauses) // 2]
    p90 = pauses[len(pauses) * 9 // 10]
    print(
        "garbage collection, a heap of %d B usable, a whole Tock game (classic, 4 players) "
        "through the simulated table: %d full collections by the table (sensors settled, or "
        "a save), a pause of median %d us (%s), 90th percentile %d us (%s); at the end, "
        "%d B free with the game's data live, a pause of %d us"
        % (
            heap,
            len(pauses),
            med,
            esp32(med),
            p90,
            esp32(p90),
            free_live,
            pause_live,
        )
    )
    print(
        "  collections by themselves (the heap ran full; the simulator's chip stand-ins "
        "make garbage a board does not): %d in the game; inside a rules check: %d of %d checks"
        % (counts[0], counts[1], counts[2])
    )
    legal_alloc = stats["legal"][3]
    charge = med * legal_alloc / free_live if free_live else 0
    print(
        "worst 7 check with collections counted: %d us + %d B allocated / %d B free x %d us "
        "a collection = %.1f us charged per check (%s); with a whole collection inside "
        "it, which the table's collections between passes keep from happening (%d of %d "
        "in the game): %d us (%s)"
        % (
            worst[0],
            legal_alloc,
            free_live,
            med,
            worst[0] + charge,
            esp32(worst[0] + charge),
            counts[1],
            counts[2],
            worst[0] + med,
            esp32(worst[0] + med),
        )
    )
    if HERE:
        print(
            "  ESP32 estimates: this port's pystones over an ESP32's, %.0f-%.0f; a collection "
            "is C code, scaled the same way (an estimate: a PSRAM board is slower still)" % SLOW
        )


main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4])
