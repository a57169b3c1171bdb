"""A KiCad netlist read back: components (ref -> value, fields) and nets (name -> pins), and
the few edits a planted fault needs (a pin moved, a part removed, a part shorted). The
circuit's checks read the generated netlist through this, independently of how the circuit
was built."""

from __future__ import annotations

import copy
import re

from hardware import parts


def _sexp(text: str):
    tokens = re.findall(r'\(|\)|"(?:[^"\\]|\\.)*"|[^\s()]+', text)
    stack: list[list] = [[]]
    for t in tokens:
        if t == "(":
            stack.append([])
        elif t == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(t[1:-1] if t.startswith('"') else t)
    return stack[0][0]


def _find(node, key):
    return [x for x in node if isinstance(x, list) and x and x[0] == key]


def _value_map() -> dict[str, parts.PartDef]:
    out: dict[str, parts.PartDef] = {}
    for p in parts.all_parts():
        out.setdefault(p.value, p)
    return out


BY_VALUE = _value_map()  # component value -> its part (each value names one part)


class Netlist:
    """Components (ref -> value, fields) and nets (name -> {(ref, pin name)}) of a KiCad
    netlist, and where each pin goes."""

    def __init__(self, text: str):
        root = _sexp(text)
        self.comps: dict[str, dict] = {}
        for comp in _find(_find(root, "components")[0], "comp"):
            ref = _find(comp, "ref")[0][1]
            fields = {}
            for fs in _find(comp, "fields"):
                for f in _find(fs, "field"):
                    name = _find(f, "name")[0][1]
                    fields[name] = f[2] if len(f) > 2 else ""
            value = _find(comp, "value")[0][1]
            desc = _find(comp, "description")
            fp = _find(comp, "footprint")
            self.comps[ref] = {
                "value": value,
                "fields": fields,
                "description": desc[0][1] if desc and len(desc[0]) > 1 else "",
                "footprint": fp[0][1] if fp and len(fp[0]) > 1 else "",
            }
        self.nets: dict[str, set[tuple[str, str]]] = {}
        self.pin_net: dict[tuple[str, str], str] = {}
        for net in _find(_find(root, "nets")[0], "net"):
            name = _find(net, "name")[0][1]
            members = set()
            for node in _find(net, "node"):
                ref = _find(node, "ref")[0][1]
                num = _find(node, "pin")[0][1]
                # the netlist gives pin numbers; the datasheet's names come from parts.py
                part = BY_VALUE.get(self.comps[ref]["value"])
                pin = {str(n): nm for n, nm, _ in part.pins}.get(num, num) if part else num
                members.add((ref, pin))
                self.pin_net[(ref, pin)] = name
            self.nets[name] = members

    def part(self, ref: str) -> parts.PartDef | None:
        return BY_VALUE.get(self.comps[ref]["value"])

    def by_field(self, key: str, value: str) -> list[str]:
        return [r for r, c in self.comps.items() if c["fields"].get(key) == value]

    def by_part(self, p: parts.PartDef) -> list[str]:
        return [r for r, c in self.comps.items() if c["value"] == p.value]

    def through(self, ref: str, pin: str) -> set[tuple[str, str]]:
        """What a pin reaches on its net, looking through two-pin series resistors (and through
        the chain's flat-cable headers, which are the same copper on both sides)."""
        net = self.pin_net.get((ref, pin))
        if net is None:
            return set()
        out = set(self.nets[net])
        for r, p in list(out):
            if r.startswith("R") and not r.startswith("RN") and (r, p) != (ref, pin):
                other = "2" if p == "1" else "1"
                far = self.pin_net.get((r, other))
                if far and far not in ("+3V3", "GND") and not far.startswith("+5V"):
                    out |= self.nets[far]
        return out

    # --- edits, for planting faults (tests/host/test_circuit.py) ---

    def copy(self) -> Netlist:
        return copy.deepcopy(self)

    def disconnect(self, ref: str, pin: str) -> None:
        net = self.pin_net.pop((ref, pin), None)
        if net is not None:
            self.nets[net].discard((ref, pin))

    def move(self, ref: str, pin: str, net: str) -> None:
        """Solders a pin to another net (created if new)."""
        self.disconnect(ref, pin)
        self.nets.setdefault(net, set()).add((ref, pin))
        self.pin_net[(ref, pin)] = net

    def remove(self, ref: str) -> None:
        for r, p in [k for k in self.pin_net if k[0] == ref]:
            self.disconnect(r, p)
        del self.comps[ref]

    def merge(self, keep: str, gone: str) -> None:
        """Two nets become one (a wire across a part, a bridge of solder)."""
        for member in list(self.nets.pop(gone, set())):
            self.nets[keep].add(member)
            self.pin_net[member] = keep

    def short(self, ref: str) -> None:
        """A two-terminal part replaced by a wire: its nets merged, the part gone."""
        p = self.part(ref)
        a, b = p.series.pins if p and p.series else ("1", "2")
        na, nb = self.pin_net.get((ref, a)), self.pin_net.get((ref, b))
        self.remove(ref)
        if na and nb and na != nb:
            self.merge(na, nb)
