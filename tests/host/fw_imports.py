"""Host code reaches the firmware as `plateau.fw.<name>`, never by the board's top-level names.

    python tests/host/fw_imports.py          # rewrites such imports in place, lists each change
    python tests/host/fw_imports.py --check  # lists them, exit status 1 if there are any
    python tests/host/fw_imports.py --stubs build/fwstubs   # the type checker's view (below)

Which files are the host's: host_tools/ (but plateau/mpshim, the stand-in for MicroPython's
own module), tests/host (but fakeboard/, which MicroPython runs), tests/bench (but *_mpy.py,
MicroPython's), hardware/ and tests/conftest.py. tests/firmware keeps the board's names: it is
the board's view, under MicroPython as under pytest. tests/host/test_fw.py runs the check.

The rewrite is mechanical so that it can be run again after a rebase brings new imports:
    from games.tock.rules import X      ->  from plateau.fw.games.tock.rules import X
    import sim.run as run               ->  import plateau.fw.sim.run as run
    import table                        ->  from plateau.fw import table
`import games.tock` (binding `games`) has no one-line equivalent: it is listed, not rewritten.
Afterwards `ruff check --fix --select I` puts the import blocks back in order.

mypy cannot follow plateau.fw's finder; `make typecheck` gives it one stub a firmware module,
plateau/fw/<path>.pyi holding `from <board name> import *`: to the type checker
plateau.fw.games.tock.rules.Position is games.tock.rules.Position (one class, as at run time
where only plateau.fw's copy exists), checked against the firmware's own source.
"""

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
# the firmware's top-level names (its packages and modules but the build manifest) and
# MicroPython's own modules the firmware imports: plateau.fw.TOP, read here without
# importing plateau (the script runs from any Python, before plateau is installed)
TOP = {"micropython", "framebuf"} | {
    p.stem
    for p in FIRMWARE.iterdir()
    if (p.suffix == ".py" and p.name != "manifest.py") or (p / "__init__.py").is_file()
}


def host_files():
    for base in ("host_tools", "tests/host", "tests/bench", "hardware"):
        for p in sorted((ROOT / base).rglob("*.py")):
            rel = p.relative_to(ROOT).as_posix()
            if "/mpshim/" in rel or "/fakeboard/" in rel or rel.endswith("_mpy.py"):
                continue
            yield p
    yield ROOT / "tests" / "conftest.py"


def board_imports(tree):
    """(line, statement kind, dotted name, bound alias) of each import by a firmware name."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.partition(".")[0] in TOP:
                yield node.lineno, "from", node.module, None
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.partition(".")[0] in TOP:
                    yield node.lineno, "import", a.name, a.asname


def rewrite(path, check):
    """The changes made (or, with check, to make) in one file, as printable lines."""
    text = path.read_text()
    lines = text.splitlines(keepends=True)
    found = []
    for lineno, kind, name, alias in sorted(board_imports(ast.parse(text)), reverse=True):
        line = lines[lineno - 1]
        if kind == "from":
            new = re.sub(rf"^(\s*from\s+){re.escape(name)}(\s)", rf"\1plateau.fw.{name}\2", line)
        elif alias:
            pat = rf"^(\s*import\s+){re.escape(name)}(\s+as\s+{alias}\b)"
            new = re.sub(pat, rf"\1plateau.fw.{name}\2", line)
        elif "." not in name:
            new = re.sub(rf"^(\s*)import\s+{name}\b", rf"\1from plateau.fw import {name}", line)
        else:
            new = line  # binds the top-level package: no one-line equivalent
        where = f"{path.relative_to(ROOT)}:{lineno}"
        if new == line:
            found.append(f"{where}: NOT REWRITTEN (do it by hand): {line.strip()}")
            continue
        found.append(f"{where}: {line.strip()}  ->  {new.strip()}")
        lines[lineno - 1] = new
    if found and not check:
        path.write_text("".join(lines))
    return found


def stubs(out):
    """Writes out/plateau/fw/<path>.pyi for each firmware module (see above)."""
    for p in sorted(FIRMWARE.rglob("*.py")):
        rel = p.relative_to(FIRMWARE).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        if not parts or parts[0] not in TOP:
            continue
        stub = out / "plateau" / "fw" / rel.with_suffix(".pyi")
        stub.parent.mkdir(parents=True, exist_ok=True)
        stub.write_text(f"from {'.'.join(parts)} import *\n")


def main(argv):
    if argv[:1] == ["--stubs"] and len(argv) == 2:
        stubs(Path(argv[1]))
        return 0
    check = "--check" in argv
    found = [f for p in host_files() for f in rewrite(p, check)]
    for f in found:
        print(f)
    if check:
        return 1 if found else 0
    print(f"{len(found)} import(s); now: .venv/bin/ruff check --fix --select I host_tools tests")
    return 1 if any("NOT REWRITTEN" in f for f in found) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
