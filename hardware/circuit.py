"""The table's circuit as code (SKiDL), built from the same data the firmware loads:
hardware/sensors.json (chain bit -> square) and a pin map (role -> GPIO). Parts and their
pins are defined in hardware/parts.py, so no KiCad install is needed.

    python -m hardware.circuit            # regenerate hardware/generated/ (make hardware)
    python -m hardware.circuit --check    # ERC, stale outputs, wiring vs data (make test)

The check reads the generated KiCad netlist back and follows the wires, independently of how
the circuit was built: a sensor wired to another register input than sensors.json says, a
register out of chain order, an LED out of the chain's order, a GPIO used twice or unusable on
its board, all fail; then the electrical rules (hardware/electrical.py: voltages, pull-ups,
supply paths and fuses) and the footprints (hardware/footprints.py)."""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import json
import logging
import math
import os
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

from hardware import figures, geometry, parts
from hardware.netlist import Netlist

HERE = Path(__file__).resolve().parent
OUT = HERE / "generated"
PINMAPS = {"pinmap.json": "plateau.net", "pinmap-esp32s3.json": "plateau-esp32s3.net"}


def _import_skidl():
    # SKiDL looks for KiCad libraries at import and logs about each one it misses; none are
    # needed (every part is defined in parts.py), so its import chatter is kept out.
    for v in ("", "6", "7", "8", "9", "10"):
        os.environ.setdefault(f"KICAD{v}_SYMBOL_DIR", str(HERE))
    # It also opens its log files (skidl_REPL.log, .erc) in the working directory at import and
    # deletes them by that relative name later: two checks run side by side in one folder (the
    # tests' two workers) deleted each other's. They are opened in a folder of this process's
    # own and closed there at once: nothing reads them.
    here = os.getcwd()
    with (
        tempfile.TemporaryDirectory() as scratch,
        contextlib.redirect_stderr(io.StringIO()),
        contextlib.redirect_stdout(io.StringIO()),
    ):
        os.chdir(scratch)
        try:
            import skidl
            import skidl.circuit
            import skidl.logger
            import skidl.node

            skidl.logger.stop_log_file_output()
        finally:
            os.chdir(here)
    # SKiDL records where each part and net was made by walking the whole call stack
    # (inspect.stack: most of the build's time); it only fills the netlist's "SKiDL Line"
    # field, which netlist() strips, so the walk is skipped.
    skidl.circuit.get_skidl_trace = skidl.node.get_skidl_trace = lambda: []
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
    r"Unconnected pin: .*pin 5/IRQ of RC522|Unconnected pin: .*pin 5/IRQ of Conn_01x08": (
        "the driver polls the reader; IRQ is not wired"
    ),
    r"Unconnected pin: .*pin [24]/[24] of SW_Push/": (
        "a 4-pin button: pins 2 and 4 are joined inside to 1 and 3"
    ),
    r"Unconnected pin: .*pin (6/2Y|8/3Y|11/4Y) of 74AHCT125": (
        "the buffer's unused gates: inputs grounded, outputs disabled (OE high) and left open"
    ),
    r"Unconnected pin: .*pin 2/DOUT of WS2812B/D207": "the last LED's data output ends the chain",
    r"Insufficient drive current on net \+5V_(SENS|LED) for pin POWER-IN": (
        "power reaches the 5 V rails from J1 through the reverse-polarity MOSFET and a fuse, "
        "passive parts ERC cannot see through (no rail is declared a source to hush it): "
        "hardware/electrical.py follows each rail's path from its source instead"
    ),
}


def load(name: str) -> dict:
    return json.loads((HERE / name).read_text())


# --- pin map checks (no circuit needed) -------------------------------------------------------


def pin_roles(pinmap: dict) -> list[tuple[str, int]]:
    """Every (role, GPIO) a pin map assigns, e.g. ("reader.cs", 5)."""
    return sorted(((role, g) for g, (role, _) in _roles(pinmap).items()), key=lambda x: x[0])


def _roles(pinmap: dict) -> dict[int, tuple[str, str]]:
    from hardware import electrical

    return electrical.gpio_roles(pinmap)


def _all_roles(pinmap: dict) -> list[tuple[str, int, str]]:
    """(role, GPIO, how it is driven) for every GPIO key, duplicates kept."""
    out = []
    for group, keys in parts.GPIO_ROLES.items():
        got = pinmap.get(group, {})
        for k, v in got.items() if isinstance(got, dict) else ():
            kind = keys if isinstance(keys, str) else keys.get(k)
            if kind:
                out.append((f"{group}.{k}", v, kind))
    return out


def check_pinmap(pinmap: dict) -> list[str]:
    """Every role on a GPIO its board has, at most one role a pin, none on a pin its chip's
    table (parts.Board.restrictions, each with its data sheet section) forbids for that use:
    flash, PSRAM, UART0, USB or the board's RGB LED never; strapping pins never (but the
    listed exceptions); input-only pins for inputs only; the ADC on an ADC1 pin."""
    board = parts.BOARDS.get(pinmap.get("board", ""))
    if board is None:
        return [f"pin map board {pinmap.get('board')!r} is not one of {sorted(parts.BOARDS)}"]
    problems = []
    on_header = {int(n[4:]) for _, n, _ in board.part.pins if n.startswith("GPIO")}
    used: dict[int, str] = {}
    for role, gpio, how in _all_roles(pinmap):
        if not isinstance(gpio, int):
            problems.append(f"{role}: {gpio!r} is not a GPIO number")
            continue
        if gpio in used:
            problems.append(f"GPIO{gpio} used twice: {used[gpio]} and {role}")
        used.setdefault(gpio, role)
        if gpio not in on_header:
            problems.append(f"{role}: GPIO{gpio} is not on the {board.key} headers")
        r = board.restrictions.get(gpio)
        if r and r.kind in parts.FORBIDDEN:
            problems.append(f"{role}: GPIO{gpio} {r.why} ({r.src})")
        if r and r.kind == "input-only" and how in ("out", "od"):
            problems.append(f"{role}: GPIO{gpio} is input-only on {board.key} ({r.src})")
        if r and r.kind == "strapping" and gpio not in board.allowed_straps:
            problems.append(f"{role}: GPIO{gpio} is a strapping pin ({r.why}; {r.src})")
        if how == "adc" and gpio not in board.adc1:
            problems.append(f"{role}: GPIO{gpio} is not on ADC1 ({board.adc1_src})")
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


MAIN = "main"
LEDS = "LED harness"


def carrier(k: int) -> str:
    return f"carrier {k}"


class Build:
    """One circuit: a fresh skidl.Circuit holding every part and net of the table. Every part
    says where it sits (field Place: the main board, a register's carrier, the LED harness, a
    goal, a display, the reader, the buttons); every connector where its cable goes (To)."""

    def __init__(self, pinmap: dict, sensors: dict):
        self.pinmap, self.sensors = pinmap, sensors
        self.board = parts.BOARDS[pinmap["board"]]
        self.circ = skidl.Circuit()
        self.circ.no_files = True
        self._templates: dict[str, object] = {}
        self._count: Counter = Counter()
        self._used: set[str] = set()
        self._nets: dict[str, object] = {}
        self._build()

    def part(self, p: parts.PartDef, ref: str | None = None, place: str = MAIN, **fields):
        if p.value not in self._templates:  # a value names one part (netlist.BY_VALUE)
            self._templates[p.value] = _template(p)
        while ref is None or ref in self._used:
            self._count[p.ref] += 1
            ref = f"{p.ref}{self._count[p.ref]}"
        self._used.add(ref)
        # a fixed tag: the netlist's timestamps derive from it, so regenerating is stable
        x = self._templates[p.value](circuit=self.circ, ref=ref, value=p.value, tag=ref)
        x.fields["MPN"] = p.mpn
        x.fields["Manufacturer"] = p.maker
        x.datasheet = p.datasheet
        x.fields["Place"] = place
        x.description = p.description
        for k, v in fields.items():
            x.fields[k] = v
        return x

    def net(self, name: str, ground: bool = False):
        if name in self._nets:
            return self._nets[name]
        n = skidl.Net(name, circuit=self.circ)
        if ground:
            # the reference, like KiCad's PWR_FLAG on GND; no other net is declared a source:
            # +3V3 is the ESP32 board's regulator output, the 5 V rails come from J1 through
            # passive parts (their ERC warnings are explained above)
            n.drive = skidl.POWER
        self._nets[name] = n
        return n

    def gpio(self, role: str):
        group, key = role.split(".")
        return self.esp[f"GPIO{self.pinmap[group][key]}"]

    def decouple(self, vcc, gnd, place=MAIN, ref=None):
        c = self.part(parts.C_100N, ref, place)
        c[1] += vcc
        c[2] += gnd

    def resistor(self, p: parts.PartDef, a, b, place=MAIN):
        r = self.part(p, place=place)
        r[1] += a
        r[2] += b
        return r

    def connector(self, p: parts.PartDef, ref: str, place: str, to: str, **pins):
        j = self.part(p, ref, place, To=to)
        for name, net in pins.items():
            j[name] += net
        return j

    def _build(self):
        b = self.board
        gnd = self.net("GND", True)
        v33 = self.net("+3V3")  # the DevKitC's regulator output drives it (a PWROUT pin)
        self.esp = esp = self.part(b.part, "M1")
        for pin in esp.pins:
            if pin.name == "GND":
                pin += gnd
            elif pin.name == "3V3":
                pin += v33
        self._power(gnd)
        self._chain(gnd, v33)
        self._reader(gnd, v33)
        self._goals(gnd, v33)
        self._buttons(gnd)
        self._rail_watch(gnd)
        self._leds(gnd)
        self._displays(gnd, v33)
        self._buzzer(gnd)

    def _power(self, gnd):
        # the 5 V input: reverse-polarity switch, then one fuse per rail (figures: power budget)
        vj, vin = self.net("+5V_J1"), self.net("+5V_IN")
        self.v5, self.v5led = self.net("+5V_SENS"), self.net("+5V_LED")
        j = self.part(parts.J_POWER, "J1")
        j["+5V"] += vj
        j["GND"] += gnd
        q = self.part(parts.REVERSE, "Q1")
        q["D"] += vj  # a reversed adapter: the body diode blocks and VGS > 0 keeps it off
        q["S"] += vin
        q["G"] += gnd
        for ref, fuse, rail in (("F1", parts.PTC_SENSORS, self.v5),
                                ("F2", parts.PTC_LEDS, self.v5led)):  # fmt: skip
            f = self.part(fuse, ref)
            f[1] += vin
            f[2] += rail
        for ref, cap, rail in (("C1", parts.C_BULK, self.v5), ("C2", parts.C_LED_BULK,
                                                                 self.v5led)):  # fmt: skip
            cb = self.part(cap, ref)  # C2: at the LED chain's start (J2), on the main board
            cb["+"] += rail
            cb["-"] += gnd

    def _chain(self, gnd, v33):
        # clock and load through series resistors at the ESP32; the chain's flat cable runs
        # main -> carrier 0 -> ... -> carrier 12, a box header at each end of each segment
        clk, ld = self.net("CHAIN_CLK"), self.net("CHAIN_LOAD")
        for role, line in (("shift_chain.sck", clk), ("shift_chain.latch", ld)):
            self.resistor(parts.R_220, self.gpio(role), line)
        data = self.net("CHAIN_DATA")
        data += self.gpio("shift_chain.miso")
        # a chain unplugged reads all ones (an empty board), and the check byte (SER of the
        # last register tied low) tells them apart
        self.resistor(parts.R_10K, data, v33)
        bus = {"CLK": clk, "LOAD": ld, "3V3": v33, "5V": self.v5, "GND": gnd}

        def header(ref, place, to, data_net):
            j = self.part(parts.J_CHAIN, ref, place, To=to)
            for pin in j.pins:
                pin += bus[pin.name] if pin.name in bus else data_net

        header("J3", MAIN, carrier(0), data)
        bits, nreg = self.sensors["bits"], self.sensors["registers"]
        into = None  # the net register k's QH goes on
        self.registers = []
        for k in range(nreg):
            here = carrier(k)
            up = MAIN if k == 0 else carrier(k - 1)
            u = self.part(parts.SHIFT_REGISTER, f"U{k + 1}", here, Chain=str(k))
            self.registers.append(u)
            u["VCC"] += v33
            u["GND"] += gnd
            u["CLK_INH"] += gnd
            u["CLK"] += clk
            u["SH/LD"] += ld
            if k == 0:
                q0 = self.net("CHAIN_Q0")
                u["QH"] += q0
                self.resistor(parts.R_100, q0, data, here)  # the data line's series resistor
                header(f"J{101 + k}", here, up, data)
            else:
                u["QH"] += into
                header(f"J{101 + k}", here, up, into)
            self.decouple(v33, gnd, here)
            rn = self.part(parts.RNET, place=here)
            rn["COM"] += v33
            for i in range(8):
                bit = 8 * k + i
                if bit >= len(bits):
                    u[parts.INPUTS[i]] += v33  # unused input: idle level, no pawn
                    continue
                line = self.net(f"S_{bits[bit]}")
                u[parts.INPUTS[i]] += line
                rn[f"R{i + 1}"] += line
                self.hall(bits[bit], line, gnd, f"U{101 + bit}", here)
            if k == nreg - 1:
                u["SER"] += gnd  # the last register's serial input: the check byte reads 0x00
            else:
                # SER comes from the next carrier: held high when that cable is out, so the
                # check byte fails instead of reading a floating input
                into = self.net(f"CHAIN_Q{k + 1}")
                u["SER"] += into
                self.resistor(parts.R_10K, into, v33, here)
                header(f"J{121 + k}", here, carrier(k + 1), into)

    def _reader(self, gnd, v33):
        # the reader, on its own bus (the 74HC165's QH never lets go of its line)
        rd = self.part(parts.READER, "M2", "reader")
        j = self.part(parts.J_READER, "J4", MAIN, To="reader")
        for pin, role in (("SDA", "cs"), ("SCK", "sck"), ("MOSI", "mosi"), ("MISO", "miso"),
                          ("RST", "rst")):  # fmt: skip
            n = self.net(f"RDR_{pin}")
            n += rd[pin], j[pin], self.gpio(f"reader.{role}")
        # MISO held high with the reader unplugged (or not selected): "no chip", not noise
        self.resistor(parts.R_10K, self.net("RDR_MISO"), v33)
        rd["GND"] += gnd
        j["GND"] += gnd
        rd["3.3V"] += v33
        j["3.3V"] += v33

    def _goals(self, gnd, v33):
        # goal sensors (a Weykick table): the same Hall switch, pulled up on the main board
        for k, (side, gpio) in enumerate(sorted(self.pinmap["goals"].items())):
            line = self.net(f"GOAL_{side}")
            line += self.esp[f"GPIO{gpio}"]
            self.resistor(parts.R_10K, line, v33)
            self.connector(parts.J_GOAL, f"J{5 + k}", MAIN, f"goal {side}",
                           **{"+5V": self.v5, "GND": gnd, "OUT": line})  # fmt: skip
            self.hall(f"GOAL_{side}", line, gnd, f"U{301 + k}", f"goal {side}")

    def _buttons(self, gnd):
        j = self.part(parts.J_BUTTONS, "J9", MAIN, To="buttons")
        j["GND"] += gnd
        for name, gpio in sorted(self.pinmap["buttons"].items()):
            sw = self.part(parts.BUTTON, place="buttons", Function=name)
            n = self.net(f"BTN_{name.upper()}")
            n += sw[1], j[name.upper()], self.esp[f"GPIO{gpio}"]  # the ESP32's pull-up
            sw[3] += gnd

    def _rail_watch(self, gnd):
        # the sensor rail through a divider to an ADC1 pin: a dead adapter or a tripped fuse
        # reads low, where the sensors' outputs alone read "every pawn lifted"
        adc = self.net("SENS_ADC")
        adc += self.gpio("sensor_rail.adc")
        self.resistor(parts.R_22K, self.v5, adc)
        self.resistor(parts.R_15K, adc, gnd)
        self.decouple(adc, gnd)  # the ADC pad's 100 nF (ESP-IDF ADC guide, minimizing noise)

    def _leds(self, gnd):
        # the LED chain's data: 3.3 V GPIO -> 74AHCT125 (TTL inputs, 5 V out) -> the cable ->
        # 330 Ohm at the first LED; held low while the ESP32 boots (the LEDs' reset level)
        raw, buf, din = self.net("LED_GPIO"), self.net("LED_BUF"), self.net("LED_DIN")
        raw += self.gpio("leds.data")
        self.resistor(parts.R_10K, raw, gnd)
        u = self.part(parts.BUFFER, "U401")
        u["VCC"] += self.v5led
        u["GND"] += gnd
        u["1A"] += raw
        u["1OE"] += gnd
        u["1Y"] += buf
        for g in "234":
            u[f"{g}A"] += gnd
            u[f"{g}OE"] += self.v5led
        self.decouple(self.v5led, gnd)
        self.connector(parts.J_LED, "J2", MAIN, LEDS,
                       **{"+5V": self.v5led, "GND": gnd, "DIN": buf})  # fmt: skip
        self.resistor(parts.R_330, buf, din, LEDS)
        under = list(self.sensors["bits"]) + ["spot"] + [f"GOAL_{s}" for s in "AB"]
        for i, what in enumerate(under):
            d = self.part(parts.LED, f"D{101 + i}", LEDS, Under=what, Chain=str(i))
            d["VDD"] += self.v5led
            d["VSS"] += gnd
            d["DIN"] += din
            self.decouple(self.v5led, gnd, LEDS)
            if i < len(under) - 1:
                din = self.net(f"LED_D{i + 1}")
                d["DOUT"] += din

    def _displays(self, gnd, v33):
        sda, scl = self.net("I2C_SDA"), self.net("I2C_SCL")
        sda += self.gpio("display.sda")
        scl += self.gpio("display.scl")
        for line in (sda, scl):
            self.resistor(parts.R_2K2, line, v33)
        for k, (end, addr) in enumerate(sorted(self.pinmap["display"]["addr"].items())):
            place = f"display {end}"
            m = self.part(parts.DISPLAY, f"M{3 + k}", place, I2C=f"0x{addr:02X}")
            j = self.part(parts.J_DISPLAY, f"J{7 + k}", MAIN, To=place)
            for pin, net in (("GND", gnd), ("VCC", v33), ("SCL", scl), ("SDA", sda)):
                m[pin] += net
                j[pin] += net

    def _buzzer(self, gnd):
        bz, drv, base = self.part(parts.BUZZER, "BZ1"), self.net("BZ_DRV"), self.net("BZ_BASE")
        bz["+"] += self.v5led
        bz["-"] += drv
        d = self.part(parts.DIODE, "D1")  # the coil's flyback current back to +5 V
        d["K"] += self.v5led
        d["A"] += drv
        q = self.part(parts.NPN, "Q2")
        q["C"] += drv
        q["E"] += gnd
        q["B"] += base
        pwm = self.net("BZ_PWM")
        pwm += self.gpio("buzzer.pwm")
        self.resistor(parts.R_330, pwm, base)
        self.resistor(parts.R_100K, base, gnd)
        self.decouple(self.v5led, gnd)

    def hall(self, square: str, line, gnd, ref: str, place: str):
        h = self.part(parts.HALL, ref, place, Square=square)
        h["VCC"] += self.v5
        h["GND"] += gnd
        h["OUT"] += line
        self.decouple(self.v5, gnd, place)

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


# --- the netlist against the data ---------------------------------------------------------------


def check_netlist(text: str | Netlist, pinmap: dict, sensors: dict) -> list[str]:
    """Follows the wires of a netlist and compares them with sensors.json and the pin map, then
    runs the electrical rules (hardware/electrical.py) and looks for each footprint."""
    from hardware import electrical, footprints

    nl = text if isinstance(text, Netlist) else Netlist(text)
    problems = check_pinmap(pinmap)
    esp = electrical.esp_ref(nl) or "M1"
    gp = lambda g: (esp, f"GPIO{g}")  # noqa: E731
    chain = pinmap["shift_chain"]
    # the chain's order, from the ESP32's data pin: register k's QH feeds k-1's SER
    regs = nl.by_part(parts.SHIFT_REGISTER)
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
    elif nl.pin_net.get((order[-1], "SER")) != electrical.ground_net(nl):
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
    problems += _led_chain(nl, pinmap, sensors)
    # every register and every LED decoupled: a 100 nF straight across its supply
    across = lambda r: {nl.pin_net.get((r, "1")), nl.pin_net.get((r, "2"))}  # noqa: E731
    gnd = electrical.ground_net(nl)
    for what, found, rail in (("registers", regs, "+3V3"),
                              ("LEDs", nl.by_part(parts.LED), "+5V_LED")):  # fmt: skip
        caps = [r for r in nl.by_part(parts.C_100N) if across(r) == {rail, gnd}]
        if len(caps) < len(found):
            problems.append(f"{len(caps)} decoupling capacitors on {rail} for {len(found)} {what}")
    # every pin map role reaches the part it drives
    one = lambda p, pin: [(r, pin) for r in nl.by_part(p)]  # noqa: E731
    buffer = one(parts.BUFFER, "1A")
    targets = {
        "shift_chain.sck": [(r, "CLK") for r in regs],
        "shift_chain.latch": [(r, "SH/LD") for r in regs],
        "shift_chain.miso": [(order[0], "QH")] if order else [],
        "reader.sck": one(parts.READER, "SCK"), "reader.miso": one(parts.READER, "MISO"),
        "reader.mosi": one(parts.READER, "MOSI"), "reader.cs": one(parts.READER, "SDA"),
        "reader.rst": one(parts.READER, "RST"), "leds.data": buffer,
        "display.sda": one(parts.DISPLAY, "SDA"), "display.scl": one(parts.DISPLAY, "SCL"),
        "buzzer.pwm": one(parts.NPN, "B"),
    }  # fmt: skip
    for side in pinmap["goals"]:
        targets[f"goals.{side}"] = [(r, "OUT") for r in nl.by_field("Square", f"GOAL_{side}")]
    for name in pinmap["buttons"]:
        targets[f"buttons.{name}"] = [(r, "1") for r in nl.by_field("Function", name)]
    for role, gpio in pin_roles(pinmap):
        if role == "sensor_rail.adc":
            continue  # its divider: electrical.pinmap_problems
        reach = nl.through(*gp(gpio))
        missing = [f"{r}.{p}" for r, p in targets.get(role, []) if (r, p) not in reach]
        if missing or not targets.get(role):
            problems.append(
                f"{role} (GPIO{gpio}) does not reach {', '.join(missing) or 'its part'}"
            )
    roles = {g for _, g in pin_roles(pinmap)}
    for (ref, pin), net in sorted(nl.pin_net.items()):
        if ref == esp and pin.startswith("GPIO") and int(pin[4:]) not in roles:
            problems.append(f"{esp}.{pin} is wired ({net}) but the pin map gives it no role")
    for ref, c in sorted(nl.comps.items()):
        if not c["fields"].get("Datasheet"):
            problems.append(f"{ref} ({c['value']}) has no datasheet")
    problems += footprints.check_netlist(nl)
    problems += electrical.check(nl, pinmap)
    return problems


def _led_chain(nl: Netlist, pinmap: dict, sensors: dict) -> list[str]:
    """The LED chain as the firmware will drive it: from the data pin through the buffer,
    LED i under sensors.json's bit i, then the card spot and the goals (pin map leds)."""
    leds = pinmap.get("leds", {})
    want = list(sensors["bits"]) + ["spot", "GOAL_A", "GOAL_B"]
    got: list[str] = []
    start = [(r, "1Y") for r in nl.by_part(parts.BUFFER)]
    reach = nl.through(*start[0]) if start else set()
    seen = set()
    while True:
        nxt = [r for r, p in reach if p == "DIN" and nl.part(r) is parts.LED and r not in seen]
        if len(nxt) != 1:
            break
        seen.add(nxt[0])
        got.append(nl.comps[nxt[0]]["fields"].get("Under", "?"))
        reach = nl.through(nxt[0], "DOUT")
    problems = []
    if got != want:
        first = next(
            (i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want))
        )
        problems.append(f"the LED chain from the buffer runs {len(got)} LEDs, differing from "
                        f"sensors.json's order + spot + goals at LED {first}")  # fmt: skip
    if leds and (leds.get("spot"), leds.get("goals")) != (
        len(sensors["bits"]),
        {"A": len(want) - 2, "B": len(want) - 1},
    ):
        problems.append(f"the pin map's leds.spot/goals {leds.get('spot')}/{leds.get('goals')} "
                        "are not where the chain puts them")  # fmt: skip
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


SLACK = 1.15  # wire bought per metre routed: bends, strip lengths, the odd mistake
PAWNS = 16


def _row(qty, value, mpn, maker, description, refs=""):
    return {"qty": qty, "refs": refs, "value": value, "mpn": mpn, "maker": maker,
            "description": description}  # fmt: skip


def bom_rows(nl: Netlist, tags: dict, lay: geometry.Layout | None = None) -> list[dict]:
    """What a maker orders: the circuit's parts counted from the netlist, then what the
    netlist does not hold (sockets, cable ends, wire, boards, wood, pawns, cards), each
    counted from the netlist or computed from the geometry."""
    lay = lay or geometry.layout()
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
    fps = Counter(c["footprint"] for c in nl.comps.values())
    for fp, n in sorted(fps.items()):
        m = re.search(r"DIP-(\d+)_W7.62mm_Socket", fp)
        if m:
            rows.append(
                _row(
                    n,
                    f"DIP-{m[1]} socket",
                    f"DIP-{m[1]} IC socket, 7.62 mm",
                    "generic",
                    "turned-pin IC sockets for the DIP parts",
                )
            )
    board = next(b for b in parts.BOARDS.values() if b.part.value in
                 {c["value"] for c in nl.comps.values()})  # fmt: skip
    n = len(board.part.pins) // 2
    rows.append(
        _row(
            2,
            f"1x{n} socket",
            f"female header 1x{n}, 2.54 mm",
            "generic",
            f"the {board.part.value}'s sockets on the main board",
        )
    )
    boxes = len(nl.by_part(parts.J_CHAIN))
    rows.append(_row(boxes, "IDC 2x5", "IDC socket 2x5, 2.54 mm, for 1.27 mm flat cable",
                     "generic", "one on the flat cable at each box header (two per cable "
                     "segment, ESP32 -> register 0 -> ... -> 12)"))  # fmt: skip
    housings = Counter(
        int(m[1])
        for m in (
            re.search(r"PinHeader_1x(\d+)", fp or "")
            for fp in (c["footprint"] for r, c in nl.comps.items() if r.startswith("J"))
        )
        if m
    )
    rows.append(_row(sum(housings.values()), "Dupont housings",
                     ", ".join(f"{k} x 1x{p}" for p, k in sorted(housings.items())) +
                     " housings, 2.54 mm, with crimp contacts", "generic",
                     "the cable ends on the main board's pin headers (J2, J4-J9)"))  # fmt: skip
    places = {c["fields"].get("Place", "") for c in nl.comps.values()}
    carriers = sum(1 for p in places if p.startswith("carrier "))
    rows += [
        _row(1, "perfboard 100x160", "perfboard 100 x 160 mm, 2.54 mm", "generic",
             "the main board: the ESP32 board's sockets at one edge, its antenna over it"),
        _row(carriers, "perfboard 50x70", "perfboard 50 x 70 mm, 2.54 mm", "generic",
             "one carrier per register, beside its eight squares"),
        _row(4 * (carriers + 1), "M3 standoff", "M3 x 10 mm nylon standoff with screw",
             "generic", "four under each perfboard"),
    ]  # fmt: skip
    run = {r.wire: 0.0 for r in geometry.runs(lay)}
    for r in geometry.runs(lay):
        run[r.wire] += r.conductors * r.metres
    flat = next(r for r in geometry.runs(lay) if r.wire == "flat")
    rows += [
        _row(math.ceil(run["hook-up"] * SLACK), "hook-up wire, m", "stranded 0.2 mm2 (24 AWG), "
             "3 colours", "generic", f"{run['hook-up']:.1f} m routed (geometry.runs: sensor "
             f"leads, LED links, goals, displays, buttons, reader) + {SLACK - 1:.0%}"),
        _row(math.ceil(run["power"] * SLACK), "power wire, m", "stranded 0.5 mm2 (20 AWG), red "
             "and black", "generic", f"{run['power']:.1f} m routed: the LED chain's power "
             f"injection every {geometry.LED_GROUP} LEDs"),
        _row(math.ceil(flat.metres + 0.1 * (boxes // 2)), "flat cable, m", "10-way, 1.27 mm "
             "pitch", "generic", f"{flat.metres:.2f} m routed (13 segments, 0.1 m slack "
             "each): CLK, LOAD, DATA, 3V3, 5V, each beside a ground"),
        _row(1, "acrylic rod, m", f"clear acrylic rod {geometry.LED_WINDOW_MM:g} mm, 1 m",
             "generic", f"the LEDs' windows: {len(nl.by_part(parts.LED))} pieces as long as the "
             "top is thick, glued flush"),
    ]  # fmt: skip
    # what is not in the circuit: magnets, stickers, cards, pawns, wood (from the data)
    names = list(tags["tags"].values())
    french = sum(1 for n in names if not n.startswith("es:"))
    spanish = len(names) - french
    spare_tags = 8
    flaps = len(nl.by_field("Square", "GOAL_A") + nl.by_field("Square", "GOAL_B"))
    rows += [
        _row(PAWNS + flaps + 4, "6x3 mm N35", "disc 6 x 3 mm N35", "generic",
             f"magnets: one per pawn ({PAWNS}), one per Weykick goal flap ({flaps}), 4 spares; "
             "any pole down (the sensor is omnipolar)"),
        _row(PAWNS, "pawn", "wooden pawn, base 20 mm or less, 4 colours x 4", "generic",
             "a 6 x 3 mm pocket drilled in the base for the magnet, felt under it"),
        _row(flaps, "goal flap", "hinged flap at the back of a goal (Weykick)", "made",
             "carries its magnet; the ball pushes it against the goal's sensor, where the "
             f"magnet must stay at least {figures.DEBOUNCE_MS:g} ms (the firmware's debounce) "
             f"and {figures.DEBOUNCE_MS + figures.SCAN_MS:g} ms to be counted for sure (one "
             "more scan): the ball lies against it until taken out by hand (W2)"),
        _row(french + spanish + spare_tags, "NTAG213 25 mm", "NTAG213 sticker, 25 mm round",
             "NXP (inlay)", f"one per card: French {french} (52 + 2 jokers), Spanish "
             f"{spanish} (Pocha, 48), {spare_tags} spares"),
        _row(1, "French deck 54", "poker size 63 x 88 mm", "any", "Tock and Texas Hold'em"),
        _row(1, "Spanish deck 48", "baraja espanola 48", "any",
             "Pocha (its 40-card game drops the 8s and 9s)"),
        _row(1, "top", f"birch plywood {geometry.BOARD:g} x {geometry.BOARD:g} x "
             f"{figures.SKIN_MM:g} mm", "any", "the board's top (figures.md: the field is "
             "computed for this thickness); the template's crosses and LED windows drilled in "
             "it"),
        _row(1, "frame", f"4 x pine batten 40 x 20 mm x {geometry.BOARD:g} mm, 4 corner "
             f"blocks, a {geometry.BOARD:g} x {geometry.BOARD:g} x 3 mm hardboard bottom",
             "any", "the frame under the top: 40 mm for the carriers and the main board; the "
             "bottom closes the wiring"),
        _row(1, "USB cable", "USB 2.0 cable, Standard-A to Micro-B, with data lines, 2 m",
             "any", f"the laptop to the {board.part.value}'s USB-UART port (its user guide's "
             "cable; a charge-only cable does not work)"),
        _row(1, "5V 3A adapter", "5 V 3 A, 2.1 mm jack, with a DC jack to screw terminal "
             "adapter", "generic", "the 5 V input (J1): the sensor and LED rails "
             "(figures.md: power budget)"),
    ]  # fmt: skip
    return rows


def bom_csv(rows: list[dict]) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=["qty", "refs", "value", "mpn", "maker", "description"],
                       lineterminator="\n")  # fmt: skip
    w.writeheader()
    w.writerows(rows)
    return buf.getvalue()


def bom_md(rows: list[dict], board: str) -> str:
    out = [
        f"# Bill of materials, {board} (generated by `make hardware` from hardware/circuit.py; "
        "do not edit)",
        "",
        "The electrical parts are counted from the circuit's netlist; the rest from the netlist "
        "(sockets, cable ends), the geometry (wire, cable: `hardware/geometry.py`) and the data "
        "(pawns, tags.json's decks). Nothing here has been bought and built by us yet.",
        "",
        "| qty | refs | value | part number | maker | what |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        out.append(f"| {r['qty']} | {r['refs']} | {r['value']} | {r['mpn']} | {r['maker']} "
                   f"| {r['description']} |")  # fmt: skip
    return "\n".join(out) + "\n"


# --- everything at once ---------------------------------------------------------------------

BOMS = {"pinmap.json": "bom", "pinmap-esp32s3.json": "bom-esp32s3"}


def outputs() -> tuple[dict[str, str], list[str]]:
    """(hardware/-relative path -> text) for what `make hardware` writes, and the ERC report."""
    from hardware import electrical, footprints

    sensors = load("sensors.json")
    tags = load("tags.json")
    lay = geometry.layout(sensors)
    files: dict[str, str] = {}
    report = []
    nets = {}
    for pm_name, net_name in PINMAPS.items():
        b = Build(load(pm_name), sensors)
        errors, explained, unexplained = b.erc()
        report.append(f"ERC {pm_name}: {errors} errors, {len(explained)} warnings explained "
                      f"in circuit.py, {len(unexplained)} unexplained")  # fmt: skip
        report += [f"  unexplained: {w}" for w in unexplained]
        files[f"generated/{net_name}"] = text = b.netlist()
        nets[pm_name] = nl = Netlist(text)
        rows = bom_rows(nl, tags, lay)
        files[f"generated/{BOMS[pm_name]}.csv"] = bom_csv(rows)
        files[f"generated/{BOMS[pm_name]}.md"] = bom_md(rows, b.board.part.value)
    files["generated/template.svg"] = geometry.template_svg(lay)
    files["generated/wiring.svg"] = geometry.wiring_svg(lay)
    files["generated/figures.md"] = figures.markdown(
        {pm: electrical.facts(nl, load(pm)) for pm, nl in nets.items()}, lay
    )
    files.update(footprints.files())
    return files, report


def check() -> list[str]:
    files, report = outputs()
    problems = [line for line in report if "unexplained:" in line]
    problems += [line for line in report if not re.search(r": 0 errors", line)]
    sensors = load("sensors.json")
    for pm_name, net_name in PINMAPS.items():
        problems += [
            f"{net_name}: {p}"
            for p in check_netlist(files[f"generated/{net_name}"], load(pm_name), sensors)
        ]
    for name, text in files.items():
        path = HERE / name
        if not path.exists() or path.read_text() != text:
            problems.append(f"hardware/{name} is stale: run `make hardware`")
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
    for name, text in files.items():
        (HERE / name).parent.mkdir(parents=True, exist_ok=True)
        (HERE / name).write_text(text)
    print("\n".join(report))
    print(f"wrote {len(files)} files to hardware/ (generated/, plateau.pretty/, fp-lib-table)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
