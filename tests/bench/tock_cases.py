"""Writes the worst-case Tock check cases (CPython): a 7 with 8 own pawns on the track
(2 players, R+B), every legal result of it, and observations no 7 produces (the results of
a 6 and an 8), as T4 JSON, for tock_check_mpy.py to time under micropython."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "host_tools"))
from tock_speed_cases import EIGHT  # noqa: E402

import plateau  # noqa: E402,F401
from plateau.fw.games.tock.rules import Card, Position  # noqa: E402

BEFORE = EIGHT


def main(out):
    pos = Position.from_dict(BEFORE)
    legal = [m.after for m in pos.legal_moves(Card("7S"))]
    seen = {bytes(p.cells) for p in legal}
    illegal = [m.after for c in ("6S", "8S") for m in pos.legal_moves(Card(c))]
    for p in legal[::10]:  # one pawn nudged a square further: 8 steps, never a 7
        for s in range(72):
            if p.cells[s] in (1, 3) and not p.cells[(s + 1) % 72]:
                q = p.copy()
                q.cells[(s + 1) % 72], q.cells[s] = q.cells[s], 0
                if bytes(q.cells) not in seen:
                    illegal.append(q)
                break
    with open(out, "w") as f:  # one case a line: micropython reads them one at a time
        f.write(json.dumps(BEFORE) + "\n")
        for kind, ps in (("legal", legal), ("illegal", illegal)):
            for p in ps:
                f.write(json.dumps({"kind": kind, "after": p.to_dict()}) + "\n")
    print(f"{len(legal)} legal 7 results, {len(illegal)} illegal observations -> {out}")


main(sys.argv[1])
