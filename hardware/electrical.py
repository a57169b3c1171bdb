"""The circuit's electrical rules, read off the netlist with the parts' datasheet figures
(hardware/parts.py). SKiDL's ERC checks pin kinds (an output against an output); it knows no
voltage, no pull-up and no fuse, so a register on the 5 V rail, a missing pull-up or a fuse
replaced by a wire passed it. These rules do not:

- Supplies. Power enters at a source (the 5 V adapter's terminal, the DevKitC's regulator)
  and reaches a rail only through series parts (the reverse-polarity switch, a fuse). Every
  supply pin must sit on a rail inside its part's operating range; every load fed from an
  external input must be behind a reverse-polarity switch and a fuse; no rail is fed by two
  sources; each fuse's hold current at the design temperature must exceed the worst case of
  the loads behind it (the LED chain counted at the firmware's cap from the pin map).
- Levels. Each net's high level is solved from what drives it: an output at its part's supply,
  resistors to rails, nothing from an open-drain output or an open switch. Every pin must stay
  within its part's limit (a 3.3 V pin on a 5 V net, a 5 V output into a 3.3 V input), every
  logic input must see at least its VIH (a 3.3 V output into a 5 V input: the level shifter),
  no input may float.
- Pull-ups. An open-drain output needs a pull-up resistor to a rail, within its sink current.
  A cable can be unplugged: an input whose driver sits beyond a connector, on a part of the
  table powered through the input's own board (a goal, a register downstream, the reader),
  must keep its level with that cable out, from a resistor on its own side.

Where each part sits is its `Place` field; connectors say where their cable goes (`To`), so
the places form a tree rooted at the ESP32 board, with power flowing away from the root. Not
modelled: the analog (ringing, drops along the wires: hardware/figures.py computes those),
timing, and anything a datasheet figure marked (*) gets wrong."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from hardware import parts
from hardware.netlist import Netlist

GROUND_PINS = {"GND", "VSS"}


@dataclass
class Rail:
    net: str
    volts: float
    source: str  # "J1.+5V"
    external: bool
    path: list[tuple[str, str]] = field(default_factory=list)  # (ref, kind) from the source


def esp_ref(nl: Netlist) -> str | None:
    return next((r for r in nl.comps if nl.part(r) in [b.part for b in parts.BOARDS.values()]),
                None)  # fmt: skip


def gpio_roles(pinmap: dict) -> dict[int, tuple[str, str]]:
    """GPIO -> (role, how it is driven: out / od / in / adc), from a pin map."""
    out: dict[int, tuple[str, str]] = {}
    for group, keys in parts.GPIO_ROLES.items():
        got = pinmap.get(group, {})
        if not isinstance(got, dict):
            continue
        for k, v in got.items():
            kind = keys if isinstance(keys, str) else keys.get(k)
            if kind and isinstance(v, int):
                out.setdefault(v, (f"{group}.{k}", kind))
    return out


# --- places ------------------------------------------------------------------------------------


def place_tree(nl: Netlist) -> tuple[dict[str, str | None], list[str]]:
    """Place -> the place its cable comes from (None at the root, the ESP32's board)."""
    problems = []
    root_ref = esp_ref(nl)
    root = nl.comps[root_ref]["fields"].get("Place", "main") if root_ref else "main"
    adj: dict[str, set[str]] = {}
    for ref, c in nl.comps.items():
        here, there = c["fields"].get("Place"), c["fields"].get("To")
        if not here:
            problems.append(f"{ref} has no Place field: where it sits is unknown")
        if here and there:
            adj.setdefault(here, set()).add(there)
            adj.setdefault(there, set()).add(here)
    parent: dict[str, str | None] = {root: None}
    todo = deque([root])
    while todo:
        p = todo.popleft()
        for q in sorted(adj.get(p, ())):
            if q not in parent:
                parent[q] = p
                todo.append(q)
    for ref, c in nl.comps.items():
        here = c["fields"].get("Place")
        if here and here not in parent:
            problems.append(f"{ref} sits on {here!r}, which no connector joins to {root!r}")
    return parent, problems


def ancestors(parent: dict[str, str | None], place: str) -> set[str]:
    out = set()
    p: str | None = place
    while p is not None and p not in out:
        out.add(p)
        p = parent.get(p)
    return out


# --- supplies ----------------------------------------------------------------------------------


def rails(nl: Netlist) -> tuple[dict[str, Rail], list[str]]:
    """Every net power reaches, from each source through the series parts."""
    problems = []
    out: dict[str, Rail] = {}
    series = [(r, nl.part(r).series) for r in nl.comps if nl.part(r) and nl.part(r).series]
    for ref in sorted(nl.comps):
        p = nl.part(ref)
        for s in p.sources if p else ():
            start = nl.pin_net.get((ref, s.pin))
            if start is None:
                continue
            todo = deque([Rail(start, s.volts, f"{ref}.{s.pin}", s.external)])
            while todo:
                rail = todo.popleft()
                if rail.net in out:
                    if out[rail.net].source != rail.source:
                        problems.append(f"{rail.net} is fed by {out[rail.net].source} and by "
                                        f"{rail.source}: two sources joined")  # fmt: skip
                    continue
                out[rail.net] = rail
                for sref, sp in series:
                    a, b = (nl.pin_net.get((sref, pin)) for pin in sp.pins)
                    if a == rail.net and b and b not in out:
                        kind = sp.kind
                    elif b == rail.net and a and a not in out:
                        # a fuse works either way round; a switch fitted backwards protects nothing
                        kind, a, b = (sp.kind if sp.kind == "fuse" else "backwards"), b, a
                    else:
                        continue
                    todo.append(Rail(b, rail.volts, rail.source, rail.external,
                                     rail.path + [(sref, kind)]))  # fmt: skip
    gnd = ground_net(nl)
    if gnd:
        if gnd in out:
            problems.append(f"the ground ({gnd}) is joined to {out[gnd].source}")
        out[gnd] = Rail(gnd, 0.0, "ground", False)
    return out, problems


def ground_net(nl: Netlist) -> str | None:
    ref = esp_ref(nl)
    return nl.pin_net.get((ref, "GND")) if ref else None


def supply_problems(nl: Netlist, rail: dict[str, Rail]) -> list[str]:
    problems = []
    gnd = ground_net(nl)
    for ref in sorted(nl.comps):
        p = nl.part(ref)
        if p is None:
            continue
        if p.sources and "GND" in [n for _, n, _ in p.pins]:
            if nl.pin_net.get((ref, "GND")) != gnd:
                problems.append(f"{ref}.GND (a power input's return) is not on the ground")
        for _, name, kind in p.pins:
            net = nl.pin_net.get((ref, name))
            if name in GROUND_PINS and kind == parts.PWRIN:
                if net != gnd:
                    problems.append(f"{ref}.{name} is on {net}, not the ground ({gnd})")
                continue
            is_supply = kind == parts.PWRIN or (p.draw and p.draw[0] == name)
            if not is_supply:
                continue
            if net is None or net not in rail or rail[net].volts == 0:
                problems.append(f"{ref}.{name} ({p.value}) is on {net}, which no source feeds")
                continue
            r = rail[net]
            if p.logic and name == p.logic.supply:
                lo, hi = p.logic.vcc
                if not lo <= r.volts <= hi:
                    problems.append(f"{ref} ({p.value}) is supplied {r.volts:g} V on {net}: its "
                                    f"range is {lo:g}-{hi:g} V ({p.logic.src})")  # fmt: skip
            if r.external:
                kinds = [k for _, k in r.path]
                if "reverse" not in kinds:
                    problems.append(f"{ref}.{name} on {net} is fed from {r.source} with no "
                                    "reverse-polarity protection on its path")  # fmt: skip
                if "fuse" not in kinds:
                    problems.append(f"{ref}.{name} on {net} is fed from {r.source} through no "
                                    "fuse")  # fmt: skip
    return problems


@dataclass
class Load:
    rail: str
    what: str
    count: int
    each_ma: float
    total_ma: float
    src: str
    check: bool = False


def rail_loads(nl: Netlist, pinmap: dict, rail: dict[str, Rail]) -> list[Load]:
    """Worst-case loads per rail, counted from the netlist: parts x their data sheet current;
    the LED chain at the firmware's cap plus every LED's idle current."""
    groups: dict[tuple[str, str], list[str]] = {}
    for ref in sorted(nl.comps):
        p = nl.part(ref)
        if p is None or p.draw is None:
            continue
        net = nl.pin_net.get((ref, p.draw[0]))
        if net in rail:
            groups.setdefault((net, p.value), []).append(ref)
    out = []
    for (net, _value), refs in groups.items():
        p = nl.part(refs[0])
        fig = p.draw[1]
        total = fig.value * len(refs)
        src = fig.src
        if p is parts.LED:
            cap = float(pinmap.get("leds", {}).get("ma_cap", total))
            idle = parts.LED_IDLE_MA.value * len(refs)
            total = min(total, cap + idle)
            src = (f"the firmware's cap, {cap:g} mA (pin map leds.ma_cap), plus {len(refs)} x "
                   f"{parts.LED_IDLE_MA.value:g} mA dark ({parts.LED_IDLE_MA.src}); uncapped "
                   f"{fig.value:g} mA each ({fig.src})")  # fmt: skip
        out.append(Load(net, p.value, len(refs), fig.value, total, src, fig.check))
    return out


def fuse_margins(nl: Netlist, rail: dict[str, Rail], loads: list[Load],
                 temp_c: float = parts.DESIGN_C) -> list[dict]:  # fmt: skip
    out = []
    for ref in sorted(nl.comps):
        p = nl.part(ref)
        if not (p and p.series and p.series.kind == "fuse"):
            continue
        behind = {n for n, r in rail.items() if ref in [x for x, _ in r.path]}
        load_ma = sum(x.total_ma for x in loads if x.rail in behind)
        hold = p.series.hold_a.value * parts.derate(parts.MF_R_DERATING_ROWS, temp_c)
        out.append({"ref": ref, "part": p, "rails": sorted(behind), "load_a": load_ma / 1000,
                    "hold_a": hold, "temp_c": temp_c})  # fmt: skip
    return out


# --- levels ------------------------------------------------------------------------------------


@dataclass
class Model:
    """What the level solver needs: resistors between nets, drivers, rails."""

    nl: Netlist
    rail: dict[str, Rail]
    roles: dict[int, tuple[str, str]]
    esp: str | None
    edges: list[tuple[str, str, float, str]] = field(default_factory=list)  # a, b, ohm, ref
    drivers: list[tuple[str, float, str]] = field(default_factory=list)  # net, volts, ref

    def supply_volts(self, ref: str) -> float | None:
        p = self.nl.part(ref)
        if p is None or p.logic is None:
            return None
        r = self.rail.get(self.nl.pin_net.get((ref, p.logic.supply), ""))
        return r.volts if r else None

    def drive(self, ref: str, pin: str) -> str:
        """How a pin takes part: "out" (drives high), "od" (pulls low only), "in", "adc", ""."""
        p = self.nl.part(ref)
        kind = p.pin_kind(pin) if p else parts.PASSIVE
        if ref == self.esp and pin.startswith("GPIO"):
            return self.roles.get(int(pin[4:]), ("", ""))[1]
        return {parts.OUT: "out", parts.TRI: "out", parts.OC: "od", parts.IN: "in",
                parts.BIDIR: "in"}.get(kind, "")  # fmt: skip


def build_model(nl: Netlist, rail: dict[str, Rail], pinmap: dict) -> Model:
    m = Model(nl, rail, gpio_roles(pinmap), esp_ref(nl))
    for ref in nl.comps:
        p = nl.part(ref)
        if p is None:
            continue
        if p.ohms and p is parts.RNET:
            com = nl.pin_net.get((ref, "COM"))
            for _, name, _ in p.pins[1:]:
                n = nl.pin_net.get((ref, name))
                if com and n:
                    m.edges.append((com, n, p.ohms, ref))
        elif p.ohms:
            a, b = nl.pin_net.get((ref, "1")), nl.pin_net.get((ref, "2"))
            if a and b:
                m.edges.append((a, b, p.ohms, ref))
        for _, name, _ in p.pins:
            net = nl.pin_net.get((ref, name))
            if net and m.drive(ref, name) == "out" and p.logic:
                v = m.supply_volts(ref)
                if v is not None:
                    m.drivers.append((net, v, ref))
    # the firmware's internal pull-ups (buttons): a 45 kOhm to the ESP32's 3.3 V
    if m.esp:
        v33 = nl.pin_net.get((m.esp, "3V3"))
        for gpio, (role, _) in m.roles.items():
            net = nl.pin_net.get((m.esp, f"GPIO{gpio}"))
            if net and v33 and role.split(".")[0] in parts.INTERNAL_PULLUP_GROUPS:
                m.edges.append((net, v33, parts.ESP32_PULLUP.value * 1e3, m.esp))
    return m


def solve(m: Model, net: str, keep) -> float | None:
    """The net's voltage with every output high, every open-drain output and switch open,
    only the parts `keep(ref)` accepts fitted. None: nothing holds it (it floats)."""
    fixed: dict[str, float] = {}

    def fixed_v(n: str) -> float | None:
        if n in m.rail:
            return m.rail[n].volts
        vs = [v for dn, v, r in m.drivers if dn == n and keep(r)]
        return max(vs) if vs else None

    # the nets joined to `net` through fitted resistors, stopping at held ones
    nodes, todo, adj = {net}, [net], {}
    for a, b, ohm, ref in m.edges:
        if keep(ref):
            adj.setdefault(a, []).append((b, 1 / ohm))
            adj.setdefault(b, []).append((a, 1 / ohm))
    v0 = fixed_v(net)
    if v0 is not None:
        return v0
    while todo:
        n = todo.pop()
        for o, _ in adj.get(n, ()):
            if o in nodes:
                continue
            fv = fixed_v(o)
            if fv is not None:
                fixed[o] = fv
                continue
            nodes.add(o)
            todo.append(o)
    if not fixed:
        return None
    v = dict.fromkeys(nodes, 0.0)
    for _ in range(200):  # Gauss-Seidel: these networks are a few nodes, it converges at once
        delta = 0.0
        for n in nodes:
            g = sum(c for _, c in adj.get(n, ()))
            if g == 0:
                continue
            new = sum(c * fixed.get(o, v.get(o, 0.0)) for o, c in adj[n]) / g
            delta = max(delta, abs(new - v[n]))
            v[n] = new
        if delta < 1e-6:
            break
    floating = [n for n in nodes if not adj.get(n)]
    return None if net in floating else v[net]


def level_problems(m: Model, parent: dict[str, str | None]) -> list[str]:
    nl = m.nl
    problems = []
    place = {r: c["fields"].get("Place", "") for r, c in nl.comps.items()}
    for net in sorted(nl.nets):
        members = sorted(nl.nets[net])
        logic = []
        for ref, pin in members:
            p = nl.part(ref)
            how = m.drive(ref, pin)
            if p is None or p.logic is None or not how:
                continue
            v = m.supply_volts(ref)
            if v is None:
                continue  # unpowered: said by the supply rules
            logic.append((ref, pin, p, how, v))
        if not logic:
            continue
        if net in m.rail:  # a pin tied to a rail: within its limits, a high it reads as high
            level = m.rail[net].volts
            for ref, pin, p, _how, v in logic:
                if level > p.logic.vmax_at(v) + 0.01:
                    problems.append(f"{ref}.{pin} is tied to {net} ({level:g} V): above its "
                                    f"{p.logic.vmax_at(v):.2f} V ({p.value} at {v:g} V; "
                                    f"{p.logic.src})")  # fmt: skip
            continue
        level = solve(m, net, lambda r: True)
        who = ", ".join(f"{r}.{pn}" for r, pn, *_ in logic)
        if level is None:
            problems.append(f"{net} floats: no output drives it and no resistor holds it ({who})")
        for ref, pin, p, how, v in logic if level is not None else ():
            vmax = p.logic.vmax_at(v)
            if level > vmax + 0.01:
                problems.append(f"{net} goes to {level:.2f} V: above {ref}.{pin}'s {vmax:.2f} V "
                                f"({p.value} at {v:g} V; {p.logic.src})")  # fmt: skip
            vih = p.logic.vih_at(v)
            if how in ("in", "od") and vih is not None and level < vih - 0.01:
                problems.append(f"{net}'s high level {level:.2f} V is below {ref}.{pin}'s VIH "
                                f"{vih:.2f} V ({p.value} at {v:g} V; {p.logic.src}): a level "
                                "shifter is missing")  # fmt: skip
        # an open-drain output: a pull-up resistor to a rail, within its sink current
        od = [(r, pn, p) for r, pn, p, how, _ in logic if how == "od"]
        if od:
            ups = [(ref, m.rail[b if a == net else a].volts / ohm * 1e3)
                   for a, b, ohm, ref in m.edges
                   if net in (a, b) and (b if a == net else a) in m.rail and ref != m.esp
                   and m.rail[b if a == net else a].volts > 0]  # fmt: skip
            if not ups:
                problems.append(f"{net}: open-drain {od[0][0]}.{od[0][1]} has no pull-up "
                                "resistor to a rail")  # fmt: skip
            sink = sum(ma for _, ma in ups)
            for r, pn, p in od:
                if p.logic.sink_ma and sink > p.logic.sink_ma:
                    problems.append(f"{net}: its pull-ups sink {sink:.1f} mA into {r}.{pn}, "
                                    f"rated {p.logic.sink_ma:g} mA")  # fmt: skip
        # a cable unplugged: an input must keep its level from its own side
        for ref, pin, p, how, v in logic if level is not None else ():
            if how not in ("in", "od", "adc"):
                continue
            mine = ancestors(parent, place.get(ref, ""))
            if all(place.get(r, "") in mine for r, _ in members):
                continue
            beyond = sorted({place[r] for r, _ in members if place.get(r, "") not in mine})
            alone = solve(m, net, lambda r, mine=mine: place.get(r, "") in mine)
            if alone is None:
                problems.append(f"{ref}.{pin} floats on {net} when the cable to "
                                f"{', '.join(beyond)} is unplugged: it needs a pull-up on "
                                f"{place.get(ref)!r}")  # fmt: skip
            elif alone > p.logic.vmax_at(v) + 0.01:
                problems.append(f"{net} goes to {alone:.2f} V when the cable to "
                                f"{', '.join(beyond)} is unplugged: above {ref}.{pin}'s "
                                f"{p.logic.vmax_at(v):.2f} V ({p.value} at {v:g} V)")  # fmt: skip
    return problems


# --- the pin map's supply figures against the netlist ---------------------------------------


def pinmap_problems(nl: Netlist, pinmap: dict, rail: dict[str, Rail]) -> list[str]:
    """What the firmware reads about supplies (shift_chain.vcc, leds.vcc, sensor_rail, the
    displays' addresses) must be what the circuit does."""
    problems = []
    board = parts.BOARDS.get(pinmap.get("board", ""))
    esp = esp_ref(nl)

    def volts_of(ref, pin):
        r = rail.get(nl.pin_net.get((ref, pin), ""))
        return r.volts if r else None

    want = pinmap.get("shift_chain", {}).get("vcc")
    for ref in nl.by_part(parts.SHIFT_REGISTER):
        got = volts_of(ref, "VCC")
        if want is not None and got != want:
            problems.append(f"the pin map says the chain runs at {want} V (shift_chain.vcc); "
                            f"{ref} is supplied {got} V")  # fmt: skip
    leds = pinmap.get("leds", {})
    found = nl.by_part(parts.LED)
    if leds:
        if leds.get("count") != len(found):
            problems.append(f"the pin map says {leds.get('count')} LEDs (leds.count), the "
                            f"circuit has {len(found)}")  # fmt: skip
        for ref in found:
            if volts_of(ref, "VDD") != leds.get("vcc"):
                problems.append(
                    f"the pin map says the LEDs run at {leds.get('vcc')} V "
                    f"(leds.vcc); {ref} is supplied {volts_of(ref, 'VDD')} V"
                )
                break
    watch = pinmap.get("sensor_rail")
    if watch and esp and board:
        gpio = watch.get("adc")
        if gpio not in board.adc1:
            problems.append(f"sensor_rail.adc: GPIO{gpio} is not an ADC1 pin of {board.key} "
                            f"({board.adc1_src})")  # fmt: skip
        net = nl.pin_net.get((esp, f"GPIO{gpio}"))
        top = [(ohm, b if a == net else a) for a, b, ohm, _ in _resistors(nl)
               if net in (a, b) and (b if a == net else a) in rail]  # fmt: skip
        up = [(o, n) for o, n in top if rail[n].volts > 0]
        down = [o for o, n in top if rail[n].volts == 0]
        sensed = {nl.pin_net.get((r, "VCC")) for r in nl.by_part(parts.HALL)}
        if len(up) != 1 or len(down) != 1:
            problems.append(f"sensor_rail.adc (GPIO{gpio}) is not a divider from a rail to the "
                            "ground")  # fmt: skip
        else:
            (r_top, src), r_bot = up[0], down[0]
            ratio = r_bot / (r_top + r_bot)
            if src not in sensed:
                problems.append(f"sensor_rail.adc watches {src}, not the sensors' rail "
                                f"({', '.join(sorted(n for n in sensed if n))})")  # fmt: skip
            if abs(ratio - watch.get("ratio", 0)) > 5e-4:
                problems.append(f"sensor_rail.ratio is {watch.get('ratio')}, the divider's is "
                                f"{ratio:.4f}")  # fmt: skip
            if watch.get("volts") != rail[src].volts:
                problems.append(f"sensor_rail.volts is {watch.get('volts')}, {src} is "
                                f"{rail[src].volts:g} V")  # fmt: skip
            lo, hi = board.adc_range
            if not lo <= ratio * rail[src].volts <= hi:
                problems.append(f"the divider puts {ratio * rail[src].volts:.2f} V on "
                                f"GPIO{gpio}, outside the ADC's {lo:g}-{hi:g} V "
                                f"({board.adc_range_src})")  # fmt: skip
    addrs = pinmap.get("display", {}).get("addr", {})
    fitted = sorted(int(nl.comps[r]["fields"].get("I2C", "0"), 16)
                    for r in nl.by_part(parts.DISPLAY))  # fmt: skip
    if sorted(addrs.values()) != fitted:
        problems.append(f"the pin map's display addresses {sorted(addrs.values())} are not the "
                        f"modules' {fitted}")  # fmt: skip
    if len(set(fitted)) != len(fitted):
        problems.append(f"two displays share an I2C address: {fitted}")
    return problems


def _resistors(nl: Netlist) -> list[tuple[str, str, float, str]]:
    out = []
    for ref in nl.comps:
        p = nl.part(ref)
        if p and p.ohms and p is not parts.RNET:
            a, b = nl.pin_net.get((ref, "1")), nl.pin_net.get((ref, "2"))
            if a and b:
                out.append((a, b, p.ohms, ref))
    return out


# --- everything -------------------------------------------------------------------------------


def facts(nl: Netlist, pinmap: dict) -> dict:
    """What figures.md's power budget reads: rails, loads, fuse margins, the pin map."""
    rail, _ = rails(nl)
    loads = rail_loads(nl, pinmap, rail)
    return {"rails": rail, "loads": loads, "fuses": fuse_margins(nl, rail, loads),
            "pinmap": pinmap}  # fmt: skip


def check(nl: Netlist, pinmap: dict) -> list[str]:
    parent, problems = place_tree(nl)
    rail, more = rails(nl)
    problems += more
    problems += supply_problems(nl, rail)
    loads = rail_loads(nl, pinmap, rail)
    for f in fuse_margins(nl, rail, loads):
        if f["load_a"] > f["hold_a"]:
            problems.append(f"{f['ref']} ({f['part'].mpn}) holds {f['hold_a']:.2f} A at "
                            f"{f['temp_c']:g} C, its loads take {f['load_a']:.2f} A")  # fmt: skip
    m = build_model(nl, rail, pinmap)
    problems += level_problems(m, parent)
    problems += pinmap_problems(nl, pinmap, rail)
    return problems
