"""What the firmware emitted (its journal: the simulator, run with `--journal`, writes every
numbered event, every event its ring drops and every gap it tells) against what the host
logged, number by number: the ground truth of `plateau chaos`."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import IO


class Tail:
    """The complete lines appended to a file since the last look."""

    def __init__(self, path: Path):
        self.path = path
        self._f: IO[bytes] | None = None
        self._rest = b""

    def lines(self) -> list[dict]:
        if self._f is None:
            if not self.path.exists():
                return []
            self._f = open(self.path, "rb")  # noqa: SIM115 (closed in close())
        data = self._rest + self._f.read()
        *whole, self._rest = data.split(b"\n")
        return [json.loads(x) for x in whole if x.strip()]

    def close(self) -> None:
        if self._f:
            self._f.close()


class Truth:
    """What the board emitted (the journal) against what the host logged, as they come."""

    def __init__(self, work: Path):
        self.journal = Tail(work / "journal.jsonl")
        self.log = Tail(work / "game.jsonl")
        self.emitted: dict[tuple[str, int], dict] = {}
        self.accounted: set[tuple[str, int]] = set()  # logged, or named in a host gap
        self.ended = False
        self.table_ms = 0  # how long the game took on the table's clock

    def poll(self) -> None:
        for e in self.journal.lines():
            if "seq" in e:
                self.emitted[(e["boot"], e["seq"])] = e
            elif "end" in e:
                self.ended = True
                self.table_ms = e["t"]
        for e in self.log.lines():
            if "seq" in e:
                self.accounted.add((e["boot"], e["seq"]))
            elif e.get("type") == "gap":
                self.accounted.update((e["boot"], n) for n in range(e["from"], e["to"] + 1))

    def missing(self) -> set[tuple[str, int]]:
        return set(self.emitted) - self.accounted


def compare(journal: Path, log: Path) -> dict:
    """The log against the journal, number by number (per boot).

    lost: emitted, neither logged nor inside a gap; held_lost: of those, events the ring
    never dropped (the board still held them); duplicated: logged more than once;
    out_of_order: logged after a higher number of its boot; gapped: inside a gap, rightly;
    wrongly_gapped: inside a gap but logged, never emitted, or never dropped by the ring;
    changed: logged with other content than emitted (or as `bad`)."""
    emitted: dict[tuple[str, int], dict] = {}
    held_from: dict[str, int] = {}
    with open(journal) as f:
        for line in f:
            e = json.loads(line)
            if "seq" in e:
                emitted[(e["boot"], e["seq"])] = e
            elif "held_from" in e:
                held_from[e["boot"]] = max(held_from.get(e["boot"], 0), e["held_from"])
    logged: Counter = Counter()
    gapped: list[tuple[str, int]] = []
    out_of_order = changed = 0
    last: dict[str, int] = {}
    with open(log) if log.exists() else open(os.devnull) as f:
        for line in f:
            e = json.loads(line)
            if "seq" in e:
                key = (e["boot"], e["seq"])
                if e["seq"] < last.get(e["boot"], 0):
                    out_of_order += 1
                last[e["boot"]] = max(last.get(e["boot"], 0), e["seq"])
                logged[key] += 1
                if logged[key] == 1 and emitted.get(key) != e:
                    changed += 1
            elif e.get("type") == "gap":
                gapped += [(e["boot"], n) for n in range(e["from"], e["to"] + 1)]
    gap_count = Counter(gapped)
    lost = [k for k in emitted if k not in logged and k not in gap_count]
    wrong = [
        k
        for k, n in gap_count.items()
        if n > 1 or k in logged or k not in emitted or k[1] >= held_from.get(k[0], 1)
    ]
    return {
        "emitted": len(emitted),
        "logged": len(logged),
        "lost": len(lost),
        "held_lost": len([k for k in lost if k[1] >= held_from.get(k[0], 1)]),
        "duplicated": sum(n - 1 for n in logged.values()),
        "out_of_order": out_of_order,
        "gapped": len(gap_count) - len(wrong),
        "wrongly_gapped": len(wrong),
        "changed": changed,
    }
