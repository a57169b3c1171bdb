"""Layers look only down (issue 21; docs/architecture.md): each firmware layer's imports,
function-level ones included, read from the source. The hardware layer (hal) imports nothing
above it; the sensing layer knows no game and no link; the games know neither the hardware
nor the link nor the table. And (issue 33) the link calls nothing above it, the table is thin
and holds no enrolment, and one function builds the board's objects for main.py and the
simulator alike."""

import ast
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
TOP = (
    "hal",
    "sense",
    "games",
    "link",
    "table",
    "dispatch",
    "store",
    "enrolment",
    "power",
    "sim",
    "main",
    "safemode",
    "wifi",
)
ABOVE_LINK = ("table", "dispatch", "store", "enrolment", "power", "sim", "main", "wifi")

# layer -> the firmware packages and modules it may not import
FORBIDDEN = {
    "hal": ("sense", "games", "link", *ABOVE_LINK),
    "sense": ("games", "link", *ABOVE_LINK),
    "games": ("hal", "sense", "link", *ABOVE_LINK),
    "link": ("hal", "sense", *ABOVE_LINK),
}


def imports(path):
    """The firmware modules a file imports, by their top-level name."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module.split(".")[0])
    return out & set(TOP)


def files_of(layer):
    return sorted((FIRMWARE / layer).rglob("*.py")) or [FIRMWARE / f"{layer}.py"]


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_a_layer_imports_nothing_above_it(layer):
    files = files_of(layer)
    assert files
    wrong = {
        str(f.relative_to(FIRMWARE)): sorted(imports(f) & set(FORBIDDEN[layer])) for f in files
    }
    assert {f: w for f, w in wrong.items() if w} == {}


def test_the_check_sees_a_function_level_import(tmp_path):
    f = tmp_path / "x.py"
    f.write_text("def build():\n    from sense.scan import Sense\n    import machine\n")
    assert imports(f) == {"sense"}


def calls(path):
    """(what, method) of each call `what.method(...)` in a file: `what` the dotted name the
    method is called on (self.keeper, frame, ...), or "?" for anything else."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            on = node.func.value
            parts = []
            while isinstance(on, ast.Attribute):
                parts.append(on.attr)
                on = on.value
            what = ".".join([on.id, *reversed(parts)]) if isinstance(on, ast.Name) else "?"
            out.add((what, node.func.attr))
    return out


def test_the_link_calls_nothing_above_it():
    """Link calls nothing of the table's: no host handed to it, no about/snapshot/command/
    save up; what must be kept goes to its keeper, which it may only ask to commit events
    and numbering and to refill the ring at power-up. Everything it calls is its own, the
    ring's, the frame decoder's, the keeper's two, or the standard library's."""
    src = FIRMWARE / "link" / "link.py"
    tree = ast.parse(src.read_text())
    assert not {"serve", "host"} & {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    keeper = {m for what, m in calls(src) if what in ("keeper", "self.keeper")}
    assert keeper == {"commit", "refill"}
    own = {m for what, m in calls(src) if what == "self"}
    defined = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    # (the transport's write, handed to it; and where a command from the broker is answered)
    assert own <= defined | {"_write", "_reply"}
    others = {(w, m) for w, m in calls(src) if w not in ("self", "keeper", "self.keeper")}
    # its own data (the ring, the decoder, its answers, the JSON it reads and builds), the
    # clock tick() is handed, the standard library's; "?": a method of a literal
    data = {"self.ring", "self._decoder", "self._answers", "cmd", "kept", "hello", "ans", "head"}
    allowed_on = data | {"frame", "json", "gc", "clock", "?"}
    assert {(w, m) for w, m in others if w not in allowed_on} == set()
    assert {m for w, m in others if w == "clock"} <= {"ticks_ms", "since"}
    for what, m in others:  # nothing of the table's, by name, on anything
        assert m not in ("about", "snapshot", "command", "save", "save_game", "state"), (what, m)


def test_the_uplink_calls_nothing_above_it():
    """link/uplink.py, the table on Wi-Fi (issue 30), is handed the link, the station and its
    settings: it calls the link's own (emit, hello, flushed, unsent; its ring's get), the
    client's and the station's, and nothing of the table's or the store's: the table hands
    it the hello and the snapshot (greet) and does the commands it brings."""
    src = FIRMWARE / "link" / "uplink.py"
    table = ("about", "snapshot", "command", "save", "save_game", "commit", "receive", "step")
    for what, m in calls(src):
        if what not in ("self.wlan", "self.client", "c", "json"):
            assert m not in table + ("state",), (what, m)
    on_link = {m for w, m in calls(src) if w in ("link", "self.link")}
    assert on_link <= {"hello", "emit", "flushed", "unsent"}, on_link
    assert imports(src) <= {"link", "clock"}


def test_the_link_imports_nothing_that_keeps_or_runs_it():
    """The link is handed its keeper and fed by the table: none of link/ imports the table,
    the commands' dispatch, the store, enrolment or the assembly (a function-level import
    included), which is what lets it call nothing above it."""
    above = {"table", "dispatch", "store", "enrolment", "power"}
    assert above <= set(FORBIDDEN["link"])
    wrong = {str(f.relative_to(FIRMWARE)): imports(f) & above for f in files_of("link")}
    assert {f: w for f, w in wrong.items() if w} == {}


def code_of(path):
    """A module's code, its comments and docstrings left out."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            if isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                body[0] = ast.Pass()
    return ast.unparse(tree)


TABLE_LINES = 230  # the loop and its hand-offs; the outputs' stage adds about 10 (issue 29)


def test_the_table_is_thin_and_holds_no_enrolment():
    """table.py: the loop, the commands it hands on, saving; under TABLE_LINES lines (it was
    287 with the commands' dispatch in it). Which word does what is dispatch.py's; enrolment
    (which tag is which card, the card awaited, the tags on flash, what a new game ends) is
    enrolment.py's, which the table only hands the tag sense found laid; the Wi-Fi's setting
    up is wifi.py's."""
    src = FIRMWARE / "table.py"
    lines = src.read_text().count("\n")
    assert lines < TABLE_LINES, f"table.py has {lines} lines"
    tree = ast.parse(src.read_text())
    touched = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    touched |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    enrolment = {"enrol_as", "learn", "unlearn", "card_of", "tags", "save_tags", "load_tags"}
    enrolment |= {"awaited", "enrolled", "ended", "resume", "Enrolment"}
    assert not touched & enrolment, touched & enrolment
    # enrolment is named where power_up puts it and in the one hand-off in the pass
    named = [line.strip() for line in code_of(src).splitlines() if "enrol" in line]
    hand_off = ["if laid and self.enrolment:", "self.enrolment.laid(laid, game)"]
    assert named == ["enrolment = None", *hand_off], named
    # the words it knows are the link's own two; every other goes to dispatch.command
    words = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)}
    from plateau.fw.link.commands import all_words

    assert words & set(all_words()) == {"snapshot"}, words & set(all_words())
    assert "hello" in words and ("dispatch", "command") in {
        (n.module, a.name) for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names
    }


def test_one_assembly_builds_the_board_for_main_and_the_simulator():
    """main.py and sim/run.py both build the board's objects with power.power_up and make
    none of them themselves (the simulator hands it its own link and table classes)."""
    built = ("Link", "Table", "Sense", "Store", "Enrolment", "make_game", "JournalLink")
    for path in (FIRMWARE / "main.py", FIRMWARE / "sim" / "run.py"):
        tree = ast.parse(path.read_text())
        called = {
            n.func.id
            for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
        }
        assert "power_up" in called, path
        assert not called & set(built), (path, called & set(built))
        assert not [m for _, m in calls(path) if m == "serve"]
    power = ast.parse((FIRMWARE / "power.py").read_text())
    assert [n.name for n in power.body if isinstance(n, ast.FunctionDef)][0] == "power_up"
