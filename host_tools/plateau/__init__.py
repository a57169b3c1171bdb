"""Plateau host tools.

The host shares the firmware's pure modules (rules cores, link framing) instead of copying
them, under `plateau.fw` (`from plateau.fw.games.tock.rules import Position`: see
plateau/fw/__init__.py); importing this package changes neither sys.path nor sys.modules
beyond itself. That is why `plateau` is installed editable (`make setup`): it runs from the
checkout, next to the firmware it talks to.

PLATEAU_FIRMWARE names another firmware tree (a copy with a game being added, say:
docs/adding-a-game.md); the host tools and the simulator then use it, compiled into a
build/mpy-<name> beside it (plateau/build.py). Every plateau command loads the firmware
tree first (`plateau --help` too), so a PLATEAU_FIRMWARE that is no firmware tree (a typo, a
file, another folder), or a tree whose game registry names a game wrongly (a module of
games/ itself, a name that is no Python name, no folder), ends the command at once in one
line, exit 2 (bad input), rather than in a traceback from deep in an import.
"""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = Path(os.environ.get("PLATEAU_FIRMWARE") or ROOT / "firmware").resolve()
HARDWARE = ROOT / "hardware"

if os.environ.get("PLATEAU_FIRMWARE") and not (FIRMWARE / "games" / "__init__.py").is_file():
    print(
        f"plateau: PLATEAU_FIRMWARE={os.environ['PLATEAU_FIRMWARE']} is not a firmware tree (no"
        " games/__init__.py in it); unset it to use this checkout's firmware",
        file=sys.stderr,
    )
    raise SystemExit(2)


def registry_trouble(tree: Path) -> str | None:
    """What is wrong with the names of the tree's game registry (GAMES in games/__init__.py),
    in words; None if nothing. A game's name is its folder's and its import's
    (games.<name>.game): a name that is not one, or that is taken by a module of games/
    itself (base, cards, settings: a folder games/cards/ hides games/cards.py, and the host
    tools or the table ended in an ImportError, adversarial tester's finding 15), or a name
    without its folder is said here, before anything imports the tree."""
    import ast

    try:
        module = ast.parse((tree / "games" / "__init__.py").read_text())
    except (OSError, SyntaxError, ValueError):
        return None  # said as it is by the import that follows
    names = None
    for node in module.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "GAMES" for t in node.targets
        ):
            try:
                names = ast.literal_eval(node.value)
            except ValueError:
                return None
    if not isinstance(names, tuple):
        return None
    taken = sorted(p.stem for p in (tree / "games").glob("*.py") if p.stem != "__init__")
    for name in names:
        if not isinstance(name, str) or not name.isidentifier():
            return (
                f"game {name!r} in games/__init__.py: a game's name is a folder name and a "
                "Python name (letters, digits, _; not a digit first)"
            )
        if name in taken or name == "__init__":
            return (
                f"game {name!r} in games/__init__.py is the name of games/{name}.py, a module "
                f"of games/ itself; these names are taken: {', '.join(taken)}"
            )
        if not (tree / "games" / name / "game.py").is_file():
            return f"game {name!r} in games/__init__.py has no games/{name}/game.py"
    return None


_trouble = registry_trouble(FIRMWARE)
if _trouble:
    print(f"plateau: {os.environ.get('PLATEAU_FIRMWARE') or FIRMWARE}: {_trouble}", file=sys.stderr)
    raise SystemExit(2)

__version__ = "0.1.0"
