# One measurement for tests/bench/hints_ir.py, run under valgrind's cachegrind on the 32-bit
# build: `pystone N` runs N pystones (the reference workload); `hint I` and `base I` load
# the I-th 7 of the cases file and work its hint out once (its module loaded, its first
# call made), then `hint` works it out once more with its kept ends forgotten. The
# instructions of `hint` less those of `base` are one hint's.
#   micropython -X heapsize=111936 -m hints_ir_mpy hint|base|pystone ARG [CASES]
import json
import sys

mode = sys.argv[1]
arg = int(sys.argv[2])
if mode == "pystone":
    import pystone_lowmem

    pystone_lowmem.pystones(arg)
else:
    from games.tock import rules
    from games.tock.rules import REACH, Card, Position

    out = bytearray(REACH)
    n = 0
    with open(sys.argv[3]) as f:
        while True:
            line = f.readline()
            if not line:
                raise SystemExit("no 7 number %d in %s" % (arg, sys.argv[3]))
            case = json.loads(line)
            if case["card"][0] == "7":
                if n == arg:
                    break
                n += 1
    pos = Position.from_dict(case["position"])
    card = Card(case["card"])
    pos.reach(card, out)
    rules._SEVEN.runs += 1  # (its kept ends forgotten)
    if mode == "hint":
        pos.reach(card, out)
    print(json.dumps(case["position"]))
