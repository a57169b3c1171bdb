"""Plateau's own KiCad footprint library, hardware/plateau.pretty, written from the parts'
dimensions (make hardware) and listed in hardware/fp-lib-table: the two ESP32 boards in their
header sockets (with the antenna keep-out at the main board's edge), the MF-R fuses, and the
SOT-23 adapter the reverse-polarity MOSFET sits on. Every other footprint the circuit names
is one of KiCad's standard libraries.

The boards' dimensions are Espressif's (parts.Board.outline_src): two header rows, pins on
2.54 mm, pin 1 at the antenna end, the module's antenna reaching past pin 1's row. The main
board stops just past the sockets: the antenna hangs over its edge, and nothing of the main
board, no wire and no copper, comes within the keep-out Espressif asks for (a rule area)."""

from __future__ import annotations

from hardware import parts

LIB = "plateau"
PITCH = 2.54


def _pad(num, x, y, square=False, drill=1.0, size=1.7) -> str:
    shape = "rect" if square else "oval"
    return (f'  (pad "{num}" thru_hole {shape} (at {x:g} {y:g}) (size {size:g} {size:g}) '
            f'(drill {drill:g}) (layers "*.Cu" "*.Mask"))')  # fmt: skip


def _line(x0, y0, x1, y1, layer, width=0.12) -> str:
    return (f"  (fp_line (start {x0:g} {y0:g}) (end {x1:g} {y1:g}) "
            f'(stroke (width {width:g}) (type solid)) (layer "{layer}"))')  # fmt: skip


def _box(x0, y0, x1, y1, layer, width=0.12) -> list[str]:
    return [_line(x0, y0, x1, y0, layer, width), _line(x1, y0, x1, y1, layer, width),
            _line(x1, y1, x0, y1, layer, width), _line(x0, y1, x0, y0, layer, width)]  # fmt: skip


def _text(kind, text, x, y, layer) -> str:
    return (
        f'  (fp_text {kind} "{text}" (at {x:g} {y:g}) (layer "{layer}")\n'
        "    (effects (font (size 1 1) (thickness 0.15))))"
    )


def _footprint(name: str, descr: str, body: list[str]) -> str:
    head = [f'(footprint "{name}" (version 20221018) (generator plateau_hardware)',
            '  (layer "F.Cu")', f'  (descr "{descr}")', '  (attr through_hole)']  # fmt: skip
    return "\n".join(head + body + [")"]) + "\n"


def board(b: parts.Board) -> str:
    """The two sockets' pads, numbered as parts.py numbers the header (left 1..n from the
    antenna end, then right), the board's outline, its antenna and the keep-out."""
    n = len(b.part.pins) // 2
    w, length = b.rows_mm, (n - 1) * PITCH
    pads = [_pad(i + 1, 0, i * PITCH, square=i == 0) for i in range(n)]
    pads += [_pad(n + i + 1, w, i * PITCH) for i in range(n)]
    edge = -1.5  # the main board ends here, just past the sockets at pin 1's end
    ant = -b.antenna_mm
    keep = parts.ANTENNA_KEEPOUT_MM.value
    body = [
        _text("reference", "REF**", w / 2, length + 3, "F.SilkS"),
        _text("value", b.part.value, w / 2, length / 2, "F.Fab"),
        *_box(-1.5, ant, w + 1.5, length + 1.5, "F.Fab", 0.1),
        *_box(-1.75, edge, w + 1.75, length + 1.75, "F.CrtYd", 0.05),
        *_box(-1.3, -1.3, 1.3, 1.3, "F.SilkS"),
        _line(-1.5 - keep, edge, w + 1.5 + keep, edge, "Dwgs.User", 0.2),
        _text("user", "main board edge: the antenna hangs over it", w / 2, edge + 1, "Dwgs.User"),
        _text("user", "antenna", w / 2, ant / 2 + edge / 2, "F.Fab"),
        # Espressif's keep-out: nothing within 15 mm of the antenna (a rule area past the edge)
        '  (zone (net 0) (net_name "") (layers "F&B.Cu") (hatch edge 0.5)',
        '    (name "antenna keep-out")',
        "    (connect_pads (clearance 0)) (min_thickness 0.25)",
        "    (keepout (tracks not_allowed) (vias not_allowed) (pads not_allowed) "
        "(copperpour not_allowed) (footprints not_allowed))",
        "    (fill (thermal_gap 0.5) (thermal_bridge_width 0.5))",
        f"    (polygon (pts (xy {-1.5 - keep:g} {edge:g}) (xy {w + 1.5 + keep:g} {edge:g}) "
        f"(xy {w + 1.5 + keep:g} {ant - keep:g}) (xy {-1.5 - keep:g} {ant - keep:g}))))",
        *pads,
    ]
    return _footprint(b.part.footprint.split(":")[1], f"{b.part.description}, in two 1x{n} "
                      f"sockets {w:g} mm apart; {b.outline_src}; antenna keep-out "
                      f"{keep:g} mm: {parts.ANTENNA_KEEPOUT_MM.src}", body)  # fmt: skip


def fuse() -> str:
    p = parts.FUSE_PITCH_MM.value
    body = [
        _text("reference", "REF**", p / 2, -3, "F.SilkS"),
        _text("value", "MF-R", p / 2, 3, "F.Fab"),
        *_box(-2, -1.8, p + 2, 1.8, "F.Fab", 0.1),
        *_box(-2.25, -2.05, p + 2.25, 2.05, "F.CrtYd", 0.05),
        _pad(1, 0, 0, square=True, drill=0.9, size=1.8),
        _pad(2, p, 0, drill=0.9, size=1.8),
    ]
    return _footprint("Fuse_Radial_P5.10mm", f"radial PTC fuse, leads {p:g} mm apart "
                      f"({parts.FUSE_PITCH_MM.src})", body)  # fmt: skip


def sot23_adapter() -> str:
    body = [
        _text("reference", "REF**", PITCH, -3, "F.SilkS"),
        _text("value", "SOT-23 adapter", PITCH, 3, "F.Fab"),
        *_box(-1.5, -2, 2 * PITCH + 1.5, 2, "F.Fab", 0.1),
        *_box(-1.75, -2.25, 2 * PITCH + 1.75, 2.25, "F.CrtYd", 0.05),
    ]
    body += [_pad(i + 1, i * PITCH, 0, square=i == 0) for i in range(3)]
    return _footprint(
        "SOT-23_Adapter_1x03_P2.54mm",
        "an SOT-23 part on a breakout with three "
        "pins at 2.54 mm, numbered as the SOT-23's (AO3401A: 1 G, 2 S, 3 D)",
        body,
    )


def files() -> dict[str, str]:
    """hardware/-relative path -> text."""
    out = {f"{LIB}.pretty/{b.part.footprint.split(':')[1]}.kicad_mod": board(b)
           for b in parts.BOARDS.values()}  # fmt: skip
    out[f"{LIB}.pretty/Fuse_Radial_P5.10mm.kicad_mod"] = fuse()
    out[f"{LIB}.pretty/SOT-23_Adapter_1x03_P2.54mm.kicad_mod"] = sot23_adapter()
    out["fp-lib-table"] = (
        "(fp_lib_table\n"
        f'  (lib (name "{LIB}")(type "KiCad")(uri "${{KIPRJMOD}}/{LIB}.pretty")(options "")'
        '(descr "Plateau\'s own footprints (hardware/footprints.py)"))\n)\n'
    )
    return out


def check_netlist(nl) -> list[str]:
    """Every footprint of the library exists with a pad for each of the part's pins, and each
    board's has its antenna keep-out past the main board's edge."""
    from hardware.netlist import _find, _sexp

    have = files()
    problems = []
    for ref, c in sorted(nl.comps.items()):
        fp = c.get("footprint", "")
        if not fp.startswith(f"{LIB}:"):
            continue
        text = have.get(f"{LIB}.pretty/{fp.split(':')[1]}.kicad_mod")
        if text is None:
            problems.append(f"{ref}: footprint {fp} is not in hardware/{LIB}.pretty")
            continue
        tree = _sexp(text)
        pads = {p[1] for p in _find(tree, "pad")}
        part = nl.part(ref)
        want = {str(n) for n, _, _ in part.pins} if part else set()
        if pads != want:
            problems.append(f"{ref}: footprint {fp} has pads {sorted(pads, key=int)}, the part "
                            f"{len(want)} pins")  # fmt: skip
        if part and part in [b.part for b in parts.BOARDS.values()]:
            zones = [z for z in _find(tree, "zone") if _find(z, "keepout")]
            if not zones:
                problems.append(f"{ref}: footprint {fp} has no antenna keep-out")
    return problems
