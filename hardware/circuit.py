"""The table's circuit as code (SKiDL), built from the same data the firmware loads:
hardware/sensors.json (chain bit -> square) and a pin map (role -> GPIO). Parts and their
pins are defined in hardware/parts.py, so no KiCad install is needed.

    python -m hardware.circuit            # regenerate hardware/generated/ (make hardware)
    python -m hardware.circuit --check    # ERC, stale outputs, wiring vs data (make test)

The check reads the generated KiCad netlist back and follows the wires, independently of how
the circuit was built: a sensor wired to another register input than sensors.json says, a
register out of chain order, a GPIO used twice or unusable on its board, all fail."""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import json
import logging
import os
import re
import sys
from collections import Counter
from pathlib import Path

from hardware import figures, geometry, parts

HERE = Path(__file__).resolve().parent
OUT = HERE / "generated"
PINMAPS = {"pinmap.json": "plateau.net", "pinmap-esp32s3.json": "plateau-esp32s3.net"}


def _import_skidl():
    # SKiDL looks for KiCad libraries at import and logs about each one it misses; none are
    # needed (every part is defined in parts.py), so its import chatter is kept out.
    for v in ("", "6", "7", "8", "9", "10"):
        os.environ.setdefault(f"KICAD{v}_SYMBOL_DIR", str(HERE))
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        import skidl
    return skidl


skidl = _import_skidl()


# --- ERC warnings that remain, each explained (a warning not matched here fails --check) -----

EXPLAINED = {
    r"Unconnected pin: .*pin \d+/(GPIO\d+|EN|RST|5V) of ESP32": (
        "the board's spare pins (and EN/RST, 5V) are left free on purpose"
    ),
    r"Unconnected pin: .*pin 7/~QH of 74HC165": "each register's inverted output is unused",
    r"Pin conflict on net GOAL_[AB], .*OPEN-COLLECTOR.*BIDIRECTIONAL|"
    r"Pin conflict on net GOAL_[AB], .*BIDIRECTIONAL.*OPEN-COLLECTOR": (
        "the goal sensor's open-drain output into a GPIO the firmware sets as an input "
        "(the ESP32 pin is bidirectional as a part; ERC cannot know the firmware's mode)"
    ),
    r"Unconnected pin: .*pin 5/IRQ of RC522": "the driver polls the reader; IRQ is not wired",
    r"Unconnected pin: .*pin [24]/[24] of SW_Push/": (
        "a 4-pin button: pins 2 and 4 are joined inside to 1 and 3"
    ),
}


def load(name: str) -> dict:
    return json.loads((HERE / name).read_text())


# --- pin map checks (no circuit needed) -------------------------------------------------------


def pin_roles(pinmap: dict) -> list[tuple[str, int]]:
    """Every (role, GPIO) a pin map assigns, e.g. ("reader.cs", 5)."""
    roles = []
    for group in ("shift_chain", "reader"):
        for k, v in pinmap.get(group, {}).items():
            if k not in ("spi", "baudrate", "polarity", "phase", "vcc"):  # not GPIOs
                roles.append((f"{group}.{k}", v))
    for group in ("goals", "buttons"):
        roles += [(f"{group}.{k}", v) for k, v in pinmap.get(group, {}).items()]
    return roles


OUTPUT_ROLES = {"shift_chain.sck", "shift_chain.latch", "reader.sck", "reader.mosi",
                "reader.cs", "reader.rst"}  # fmt: skip
ALLOWED_STRAPS = {("esp32-devkitc", 5)}  # reader CS idles high, the strap's own level


def check_pinmap(pinmap: dict) -> list[str]:
    board = parts.BOARDS.get(pinmap.get("board", ""))
    if board is None:
        return [f"pin map board {pinmap.get('board')!r} is not one of {sorted(parts.BOARDS)}"]
    problems = []
    on_header = {int(n[4:]) for _, n, _ in board.part.pins if n.startswith("GPIO")}
    used: dict[int, str] = {}
    reserved = parts.LED_CHAIN_GPIO[board.key]
    for role, gpio in pin_roles(pinmap):
        if gpio in used:
            problems.append(f"GPIO{gpio} used twice: {used[gpio]} and {role}")
        used.setdefault(gpio, role)
        if gpio == reserved:
            problems.append(f"{role}: GPIO{gpio} is reserved for the LED chain's data line")
        if gpio not in on_header:
            problems.append(f"{role}: GPIO{gpio} is not on the {board.key} headers")
        if gpio in board.forbidden:
            problems.append(f"{role}: GPIO{gpio} {board.forbidden[gpio]}")
        if role in OUTPUT_ROLES and gpio in board.input_only:
            problems.append(f"{role}: GPIO{gpio} is input-only on {board.key}")
        if gpio in board.strapping and (board.key, gpio) not in ALLOWED_STRAPS:
            problems.append(f"{role}: GPIO{gpio} is a strapping pin ({board.strapping[gpio]})")
    return problems


# --- the circuit -------------------------------------------------------------------------------


def _template(p: parts.PartDef):
    kinds = skidl.Pin.types
    return skidl.Part(
        tool=skidl.SKIDL,
        name=p.name,
        ref_prefix=p.ref,
        dest=skidl.TEMPLATE,
        footprint=p.footprint,
        pins=[skidl.Pin(num=n, name=name, func=getattr(kinds, kind)) for n, name, kind in p.pins],
    )


class Build:
    """One circuit: a fresh skidl.Circuit holding every part and net of the table."""

    def __init__(self, pinmap: dict, sensors: dict):
        self.pinmap, self.sensors = pinmap, sensors
        self.board = parts.BOARDS[pinmap["board"]]
        self.circ = skidl.Circuit()
        self.circ.no_files = True
        self._templates: dict[str, object] = {}
        self._count: Counter = Counter()
        self._used: set[str] = set()
        self._build()

    def part(self, p: parts.PartDef, ref: str | None = None, **fields):
        if p.mpn not in self._templates:
            self._templates[p.mpn] = _template(p)
        while ref is None or ref in self._used:
            self._count[p.ref] += 1
            ref = f"{p.ref}{self._count[p.ref]}"
        self._used.add(ref)
        # a fixed tag: the netlist's timestamps derive from it, so regenerating is stable
        x = self._templates[p.mpn](circuit=self.circ, ref=ref, value=p.value, tag=ref)
        x.fields["MPN"] = p.mpn
        x.fields["Manufacturer"] = p.maker
        x.description = p.description
        for k, v in fields.items():
            x.fields[k] = v
        return x

    def net(self, name: str, power: bool = False):
        n = skidl.Net(name, circuit=self.circ)
        if power:
            # like KiCad's PWR_FLAG: the net is fed from off the board (a connector, the
            # DevKitC's regulator), which ERC cannot see through a passive connector pin
            n.drive = skidl.POWER
        return n

    def gpio(self, role: str):
        group, key = role.split(".")
        return self.esp[f"GPIO{self.pinmap[group][key]}"]

    def decouple(self, vcc, gnd, ref=None):
        c = self.part(parts.C_100N, ref)
        c[1] += vcc
        c[2] += gnd

    def _build(self):
        pm, b = self.pinmap, self.board
        gnd, v33, v5in = self.net("GND", True), self.net("+3V3", True), self.net("+5V_IN", True)
        v5 = self.net("+5V_SENS", True)
        self.esp = esp = self.part(b.part, "M1")
        for pin in esp.pins:
            if pin.name == "GND":
                pin += gnd
            elif pin.name == "3V3":
                pin += v33
        # power entry: the sensor rail has its own 5 V input, fused (figures: power budget)
        j = self.part(parts.J_POWER, "J1")
        j["+5V"] += v5in
        j["GND"] += gnd
        f = self.part(parts.PTC, "F1")
        f[1] += v5in
        f[2] += v5
        cb = self.part(parts.C_BULK, "C1")
        cb["+"] += v5
        cb["-"] += gnd

        # the chain: clock and load through series resistors, data back through one
        clk, ld = self.net("CHAIN_CLK"), self.net("CHAIN_LOAD")
        for role, line in (("shift_chain.sck", clk), ("shift_chain.latch", ld)):
            r = self.part(parts.R_220)
            r[1] += self.gpio(role)
            r[2] += line
        miso = self.net("CHAIN_DATA")
        miso += self.gpio("shift_chain.miso")
        pull = self.part(parts.R_10K)
        pull[1] += miso
        pull[2] += v33  # a chain unplugged reads all ones, like an empty board, and the
        # check byte (SER of the last register is tied low) tells them apart
        rdata = self.part(parts.R_100)
        rdata[2] += miso
        into = rdata[1]  # where register 0's QH goes
        bits = self.sensors["bits"]
        nreg = self.sensors["registers"]
        self.registers = []
        for k in range(nreg):
            u = self.part(parts.SHIFT_REGISTER, f"U{k + 1}", Chain=str(k))
            self.registers.append(u)
            u["VCC"] += v33
            u["GND"] += gnd
            u["CLK_INH"] += gnd
            u["CLK"] += clk
            u["SH/LD"] += ld
            u["QH"] += into
            into = u["SER"]
            self.decouple(v33, gnd)
            rn = self.part(parts.RNET)
            rn["COM"] += v33
            for i in range(8):
                bit = 8 * k + i
                if bit >= len(bits):
                    u[parts.INPUTS[i]] += v33  # unused input: idle level, no pawn
                    continue
                line = self.net(f"S_{bits[bit]}")
                u[parts.INPUTS[i]] += line
                rn[f"R{i + 1}"] += line
                self.hall(bits[bit], line, v5, gnd, f"U{101 + bit}")
        into += gnd  # the last register's serial input: the check byte reads 0x00

        # the reader, on its own bus (the 74HC165's QH never lets go of its line)
        rd = self.part(parts.READER, "M2")
        for pin, role in (("SDA", "cs"), ("SCK", "sck"), ("MOSI", "mosi"), ("MISO", "miso"),
                          ("RST", "rst")):  # fmt: skip
            n = self.net(f"RDR_{pin}")
            n += rd[pin], self.gpio(f"reader.{role}")
        rd["GND"] += gnd
        rd["3.3V"] += v33

        # goal sensors (a Weykick table): the same Hall switch, pulled up on the main board
        for side, gpio in sorted(pm["goals"].items()):
            line = self.net(f"GOAL_{side}")
            line += self.esp[f"GPIO{gpio}"]
            r = self.part(parts.R_10K)
            r[1] += line
            r[2] += v33
            self.hall(f"GOAL_{side}", line, v5, gnd, f"U{301 + 'AB'.index(side)}")

        for name, gpio in sorted(pm["buttons"].items()):
            sw = self.part(parts.BUTTON, Function=name)
            n = self.net(f"BTN_{name.upper()}")
            n += sw[1], self.esp[f"GPIO{gpio}"]  # internal pull-up on the ESP32
            sw[3] += gnd

        # the future LED chain: its data pin reserved, its 5 V from the 5 V input
        jl = self.part(parts.J_LED, "J2")
        rl = self.part(parts.R_330)
        rl[1] += self.esp[f"GPIO{parts.LED_CHAIN_GPIO[b.key]}"]
        led = self.net("LED_DIN")
        led += rl[2], jl["DIN"]
        jl["+5V"] += v5in
        jl["GND"] += gnd

    def hall(self, square: str, line, v5, gnd, ref: str):
        h = self.part(parts.HALL, ref, Square=square)
        h["VCC"] += v5
        h["GND"] += gnd
        h["OUT"] += line
        self.decouple(v5, gnd)

    # --- outputs ---

    def erc(self) -> tuple[int, list[str], list[str]]:
        """(errors, explained warnings, unexplained warnings), from SKiDL's ERC."""
        from skidl.logger import erc_logger

        seen: list[tuple[int, str]] = []

        class Grab(logging.Handler):
            def emit(self, record):
                seen.append((record.levelno, record.getMessage()))

        grab = Grab()
        erc_logger.addHandler(grab)
        quiet = [h for h in erc_logger.handlers if h is not grab]
        for h in quiet:
            erc_logger.removeHandler(h)
        try:
            self.circ.ERC()
        finally:
            erc_logger.removeHandler(grab)
            for h in quiet:
                erc_logger.addHandler(h)
        errors = [m for lv, m in seen if lv >= logging.ERROR and "errors found" not in m]
        warns = [m for lv, m in seen if lv == logging.WARNING]
        explained = [w for w in warns if any(re.search(p, w) for p in EXPLAINED)]
        return len(errors), explained, [w for w in warns if w not in explained] + errors

    def netlist(self) -> str:
        with contextlib.redirect_stderr(io.StringIO()):
            text = str(self.circ.generate_netlist(tool=skidl.KICAD8, do_backup=False))
        # what changes from run to run or machine to machine: the date, the script's path,
        # and the source line of each part
        text = re.sub(r'\(date "[^"]*"\)', '(date "")', text)
        text = re.sub(r'\(source "[^"]*"\)', '(source "hardware/circuit.py")', text)
        text = re.sub(r'\s*\(field\s*\(name "SKiDL Line"\)[^)]*\)', "", text)
        return text if text.endswith("\n") else text + "\n"


# --- reading a netlist back -----------------------------------------------------------------


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


PIN_NAMES = {
    p.value: {str(n): name for n, name, _ in p.pins}
    for p in [getattr(parts, k) for k in dir(parts)] + [b.part for b in parts.BOARDS.values()]
    if isinstance(p, parts.PartDef)
}


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
            self.comps[ref] = {
                "value": value,
                "fields": fields,
                "description": desc[0][1] if desc and len(desc[0]) > 1 else "",
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
                pin = PIN_NAMES.get(self.comps[ref]["value"], {}).get(num, num)
                members.add((ref, pin))
                self.pin_net[(ref, pin)] = name
            self.nets[name] = members

    def by_field(self, key: str, value: str) -> list[str]:
        return [r for r, c in self.comps.items() if c["fields"].get(key) == value]

    def through(self, ref: str, pin: str) -> set[tuple[str, str]]:
        """What a pin reaches on its net, looking through two-pin series resistors."""
        net = self.pin_net.get((ref, pin))
        if net is None:
            return set()
        out = set(self.nets[net])
        for r, p in list(out):
            if r.startswith("R") and not r.startswith("RN") and (r, p) != (ref, pin):
                other = "2" if p == "1" else "1"
                far = self.pin_net.get((r, other))
                if far and far not in ("+3V3", "GND"):
                    out |= self.nets[far]
        return out


def check_netlist(text: str | Netlist, pinmap: dict, sensors: dict) -> list[str]:
    """Follows the wires of a netlist and compares them with sensors.json and the pin map."""
    nl = text if isinstance(text, Netlist) else Netlist(text)
    problems = check_pinmap(pinmap)
    esp = "M1"
    gp = lambda g: (esp, f"GPIO{g}")  # noqa: E731
    chain = pinmap["shift_chain"]
    # the chain's order, from the ESP32's data pin: register k's QH feeds k-1's SER
    regs = [r for r, c in nl.comps.items() if c["value"] == parts.SHIFT_REGISTER.value]
    if len(regs) != sensors["registers"]:
        problems.append(f"{len(regs)} registers in the circuit, sensors.json says "
                        f"{sensors['registers']}")  # fmt: skip
    order: list[str] = []
    reach = nl.through(*gp(chain["miso"]))
    while True:
        nxt = [r for r, p in reach if p == "QH" and r in regs and r not in order]
        if len(nxt) != 1:
            break
        order.append(nxt[0])
        reach = nl.through(nxt[0], "SER")
    if len(order) != len(regs):
        problems.append(f"the chain from GPIO{chain['miso']} reaches {len(order)} of "
                        f"{len(regs)} registers")  # fmt: skip
    elif nl.pin_net.get((order[-1], "SER")) != "GND":
        problems.append(f"the last register ({order[-1]}) has SER not tied to GND")
    # each sensor's output on the register input its bit says
    bits = sensors["bits"]
    for i, square in enumerate(bits):
        found = nl.by_field("Square", square)
        if len(found) != 1:
            problems.append(f"{square}: {len(found)} sensors in the circuit")
            continue
        want = (order[i // 8], parts.INPUTS[i % 8]) if i // 8 < len(order) else None
        got = nl.through(found[0], "OUT")
        if want not in got:
            at = sorted(f"{r}.{p}" for r, p in got if r in regs)
            problems.append(
                f"{square} (bit {i}) is wired to {', '.join(at) or 'nothing'}, "
                f"sensors.json wants register {i // 8} input {parts.INPUTS[i % 8]}"
            )
    fitted = sensors.get("sensor", {})
    spec = next((s for s in figures.SENSORS if s.part == fitted.get("part")), None)
    halls = {c["value"] for c in nl.comps.values() if "Square" in c["fields"]}
    if halls != {fitted.get("part")}:
        problems.append(f"the circuit's Hall sensors are {sorted(halls)}, sensors.json's "
                        f"sensor is {fitted.get('part')}")  # fmt: skip
    elif spec is None:
        problems.append(f"sensors.json's sensor {fitted.get('part')} is not in figures.SENSORS")
    elif (fitted.get("sample_ms"), fitted.get("output")) != (spec.sample_ms, spec.output):
        problems.append(f"sensors.json says {fitted.get('part')} samples every "
                        f"{fitted.get('sample_ms')} ms with a {fitted.get('output')} output; "
                        f"its datasheet: {spec.sample_ms:g} ms, {spec.output}")  # fmt: skip
    squares = {c["fields"]["Square"] for c in nl.comps.values() if "Square" in c["fields"]}
    extra = squares - set(bits) - {f"GOAL_{s}" for s in pinmap["goals"]}
    if extra:
        problems.append(f"sensors in the circuit that sensors.json does not name: {sorted(extra)}")
    # every register decoupled: a 100 nF straight across its supply
    across = lambda r: {nl.pin_net.get((r, "1")), nl.pin_net.get((r, "2"))}  # noqa: E731
    caps = [
        r for r, c in nl.comps.items() if c["value"] == "100nF" and across(r) == {"+3V3", "GND"}
    ]
    if len(caps) < len(regs):
        problems.append(f"{len(caps)} decoupling capacitors on +3V3 for {len(regs)} registers")
    # every pin map role reaches the part it drives
    targets = {
        "shift_chain.sck": [(r, "CLK") for r in regs],
        "shift_chain.latch": [(r, "SH/LD") for r in regs],
        "shift_chain.miso": [(order[0], "QH")] if order else [],
        "reader.sck": [("M2", "SCK")], "reader.miso": [("M2", "MISO")],
        "reader.mosi": [("M2", "MOSI")], "reader.cs": [("M2", "SDA")],
        "reader.rst": [("M2", "RST")],
    }  # fmt: skip
    for side in pinmap["goals"]:
        targets[f"goals.{side}"] = [(r, "OUT") for r in nl.by_field("Square", f"GOAL_{side}")]
    for name in pinmap["buttons"]:
        targets[f"buttons.{name}"] = [(r, "1") for r in nl.by_field("Function", name)]
    for role, gpio in pin_roles(pinmap):
        reach = nl.through(*gp(gpio))
        missing = [f"{r}.{p}" for r, p in targets.get(role, []) if (r, p) not in reach]
        if missing or not targets.get(role):
            problems.append(
                f"{role} (GPIO{gpio}) does not reach {', '.join(missing) or 'its part'}"
            )
    return problems


# --- BOM -----------------------------------------------------------------------------------


def _refs(refs: list[str]) -> str:
    """U1 U2 U3 U7 -> U1-U3, U7"""

    def key(r):
        m = re.match(r"([A-Z]+)(\d+)", r)
        return (m.group(1), int(m.group(2))) if m else (r, 0)

    out, run = [], []
    for r in sorted(refs, key=key):
        if run and key(r)[0] == key(run[-1])[0] and key(r)[1] == key(run[-1])[1] + 1:
            run.append(r)
            continue
        if run:
            out.append(run[0] if len(run) == 1 else f"{run[0]}-{run[-1]}")
        run = [r]
    if run:
        out.append(run[0] if len(run) == 1 else f"{run[0]}-{run[-1]}")
    return ", ".join(out)


def bom_rows(nl: Netlist, tags: dict) -> list[dict]:
    groups: dict[tuple, list[str]] = {}
    for ref, c in nl.comps.items():
        f = c["fields"]
        key = (c["value"], f.get("MPN", ""), f.get("Manufacturer", ""), c["description"])
        groups.setdefault(key, []).append(ref)
    rows = [
        {"qty": len(refs), "refs": _refs(refs), "value": v, "mpn": m, "maker": mk,
         "description": d}
        for (v, m, mk, d), refs in sorted(groups.items(), key=lambda kv: kv[1][0])
    ]  # fmt: skip
    # what is not in the circuit: magnets, stickers, cards, wire (quantities from the data)
    names = list(tags["tags"].values())
    french = sum(1 for n in names if not n.startswith("es:"))
    spanish = len(names) - french
    spare_tags = 8
    pawns = 16
    rows += [
        {"qty": pawns + 4 + 2, "refs": "", "value": "6x3 mm N35", "mpn": "disc 6 x 3 mm N35",
         "maker": "generic", "description": f"magnets: one per pawn ({pawns}), one in the "
         "Weykick ball or goal flap (2), 4 spares; any pole down (the sensor is omnipolar)"},
        {"qty": french + spanish + spare_tags, "refs": "", "value": "NTAG213 25 mm",
         "mpn": "NTAG213 sticker, 25 mm round", "maker": "NXP (inlay)",
         "description": f"one per card: French {french} (52 + 2 jokers), Spanish {spanish} "
         f"(Pocha, 48), {spare_tags} spares"},
        {"qty": 1, "refs": "", "value": "French deck 54", "mpn": "poker size 63 x 88 mm",
         "maker": "any", "description": "Tock and Texas Hold'em"},
        {"qty": 1, "refs": "", "value": "Spanish deck 48", "mpn": "baraja espanola 48",
         "maker": "any", "description": "Pocha (its 40-card game drops the 8s and 9s)"},
        {"qty": 1, "refs": "", "value": "flat cable", "mpn": "10-way, 1.27 mm pitch, 5 m",
         "maker": "generic", "description": "chain clock / load / data / 3V3 / 5V, each "
         "beside a ground wire"},
        {"qty": 1, "refs": "", "value": "5V 2A adapter", "mpn": "5 V 2 A, 2.1 mm jack or "
         "leads", "maker": "generic", "description": "the sensor rail's supply (J1)"},
    ]  # fmt: skip
    return rows


def bom_csv(rows: list[dict]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=["qty", "refs", "value", "mpn", "maker", "description"],
                       lineterminator="\n")  # fmt: skip
    w.writeheader()
    w.writerows(rows)
    return buf.getvalue()


def bom_md(rows: list[dict]) -> str:
    out = [
        "# Bill of materials (generated by `make hardware` from hardware/circuit.py; do not edit)",
        "",
        "The electrical parts are counted from the circuit's netlist; the rest from the data "
        "(pawns, tags.json's decks).",
        "",
        "| qty | refs | value | part number | maker | what |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        out.append(f"| {r['qty']} | {r['refs']} | {r['value']} | {r['mpn']} | {r['maker']} "
                   f"| {r['description']} |")  # fmt: skip
    return "\n".join(out) + "\n"


# --- everything at once ---------------------------------------------------------------------


def outputs() -> tuple[dict[str, str], list[str]]:
    """(file name -> text) for hardware/generated, and the ERC report lines."""
    sensors = load("sensors.json")
    files: dict[str, str] = {}
    report = []
    for pm_name, net_name in PINMAPS.items():
        b = Build(load(pm_name), sensors)
        errors, explained, unexplained = b.erc()
        report.append(f"ERC {pm_name}: {errors} errors, {len(explained)} warnings explained "
                      f"in circuit.py, {len(unexplained)} unexplained")  # fmt: skip
        report += [f"  unexplained: {w}" for w in unexplained]
        files[net_name] = b.netlist()
    nl = Netlist(files["plateau.net"])
    rows = bom_rows(nl, load("tags.json"))
    files["bom.csv"] = bom_csv(rows)
    files["bom.md"] = bom_md(rows)
    lay = geometry.layout(sensors)
    files["template.svg"] = geometry.template_svg(lay)
    files["wiring.svg"] = geometry.wiring_svg(lay)
    files["figures.md"] = figures.markdown()
    return files, report


def check() -> list[str]:
    files, report = outputs()
    problems = [line for line in report if "unexplained:" in line]
    problems += [line for line in report if not re.search(r": 0 errors", line)]
    sensors = load("sensors.json")
    for pm_name, net_name in PINMAPS.items():
        problems += [f"{net_name}: {p}" for p in check_netlist(files[net_name], load(pm_name),
                                                               sensors)]  # fmt: skip
    for name, text in files.items():
        path = OUT / name
        if not path.exists() or path.read_text() != text:
            problems.append(f"hardware/generated/{name} is stale: run `make hardware`")
    print("\n".join(report))
    return problems


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m hardware.circuit", description=__doc__)
    ap.add_argument("--check", action="store_true", help="check, write nothing")
    args = ap.parse_args(argv)
    if args.check:
        problems = check()
        for p in problems:
            print("hardware:", p, file=sys.stderr)
        print("hardware check: " + ("ok" if not problems else f"{len(problems)} problems"))
        return 1 if problems else 0
    files, report = outputs()
    OUT.mkdir(exist_ok=True)
    for name, text in files.items():
        (OUT / name).write_text(text)
    print("\n".join(report))
    print(f"wrote {len(files)} files to hardware/generated/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
