"""Layers look only down (issue 21; docs/architecture.md): each firmware layer's imports,
function-level ones included, read from the source. The hardware layer (hal) imports nothing
above it; the sensing layer knows no game and no link; the games know neither the hardware
nor the link nor the table."""

import ast
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
TOP = ("hal", "sense", "games", "link", "table", "store", "sim", "main", "safemode")

# layer -> the firmware packages and modules it may not import
FORBIDDEN = {
    "hal": ("sense", "games", "link", "table", "store", "sim", "main"),
    "sense": ("games", "link", "table", "store", "sim", "main"),
    "games": ("hal", "sense", "link", "table", "store", "sim", "main"),
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


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_a_layer_imports_nothing_above_it(layer):
    files = sorted((FIRMWARE / layer).rglob("*.py"))
    assert files
    wrong = {
        str(f.relative_to(FIRMWARE)): sorted(imports(f) & set(FORBIDDEN[layer])) for f in files
    }
    assert {f: w for f, w in wrong.items() if w} == {}


def test_the_check_sees_a_function_level_import(tmp_path):
    f = tmp_path / "x.py"
    f.write_text("def build():\n    from sense.scan import Sense\n    import machine\n")
    assert imports(f) == {"sense"}
