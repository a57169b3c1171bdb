"""The firmware's modules on the host, under a name that cannot clash: `plateau.fw`.

The host shares the firmware's pure modules (rules cores, link framing, the table script
reader) instead of copying them: `from plateau.fw.games.tock.rules import Position` loads
firmware/games/tock/rules.py. On the board those modules are frozen under short top-level
names (`games`, `link`, `clock`, `table`...) and import each other by them; on the host such
names belong to whoever installed a package called `clock` or `link` first. So the host never
puts firmware/ on sys.path: this package's finder loads firmware source files as
`plateau.fw.<name>`, and each module it loads gets its own builtins whose `__import__` reads the
firmware's top-level names (and `micropython`, served by the CPython stand-in in mpshim/) as
`plateau.fw.<name>`. `from games.cards import CardError` inside a firmware module, or the
settings checker's `__import__("games.tock.settings")`, land in plateau.fw; every other import
(json, os, a user's own `clock`) is untouched. The firmware's files stay exactly what the
board runs.

Why not the alternatives: firmware/ on sys.path (what the host did before) shadows a user's
package of the same name or is shadowed by it; rewriting the firmware's imports as relative or
prefixed would change the board's code and its frozen names; copying the sources at build time
would leave the host running something other than the checkout. The one rule this needs: host
code and host tests import the firmware only through `plateau.fw` (a module loaded twice under
two names makes two classes, and isinstance and shared state break between them).
tests/host/test_fw.py checks it; the firmware's own tests (tests/firmware) keep the board's
names, under MicroPython as under pytest.
"""

import builtins
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from pathlib import Path

from plateau import FIRMWARE

PREFIX = __name__ + "."
SHIM = Path(__file__).resolve().parent.parent / "mpshim"
SHIMMED = ("micropython", "framebuf")  # built into the board's MicroPython: CPython stand-ins


def _top_names():
    """The firmware's top-level module names as the board knows them (firmware/'s packages and
    modules but its build manifest, read once), and the modules the board has built in that
    the firmware imports (SHIMMED: `micropython`, `framebuf`)."""
    names = set(SHIMMED)
    for p in FIRMWARE.iterdir():
        if (p.suffix == ".py" and p.name != "manifest.py") or (p / "__init__.py").is_file():
            names.add(p.stem)
    return frozenset(names)


TOP = _top_names()


def _import(name, globals=None, locals=None, fromlist=(), level=0):
    """`__import__` as a firmware module sees it: its top-level names are plateau.fw's."""
    top = name.partition(".")[0]
    if level or top not in TOP:
        return builtins.__import__(name, globals, locals, fromlist, level)
    module = builtins.__import__(PREFIX + name, globals, locals, fromlist, 0)
    # `import games.cards` binds `games`: the package under plateau.fw, not `plateau`
    return module if fromlist else sys.modules[PREFIX + top]


_BUILTINS = dict(vars(builtins), __import__=_import)


class _Loader(importlib.machinery.SourceFileLoader):
    def exec_module(self, module):
        # read at function creation too: a function-level import inside the module sees it
        module.__dict__["__builtins__"] = _BUILTINS
        super().exec_module(module)


class _Finder(importlib.abc.MetaPathFinder):
    """Finds plateau.fw.<dotted> as firmware/<dotted>.py or firmware/<dotted>/__init__.py."""

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith(PREFIX):
            return None
        parts = fullname[len(PREFIX) :].split(".")
        if parts[0] not in TOP:
            return None
        base = SHIM.joinpath(*parts) if parts[0] in SHIMMED else FIRMWARE.joinpath(*parts)
        init = base / "__init__.py"
        if init.is_file():
            origin, where = init, [str(base)]
        elif base.with_suffix(".py").is_file():
            origin, where = base.with_suffix(".py"), None
        else:
            return None
        return importlib.util.spec_from_file_location(
            fullname,
            origin,
            loader=_Loader(fullname, str(origin)),
            submodule_search_locations=where,
        )


# Only this finder loads firmware modules: an empty path leaves the default one nothing to find
# (it would load them with the ordinary builtins, and their imports would go to sys.path).
__path__.clear()

if not any(isinstance(f, _Finder) for f in sys.meta_path):
    sys.meta_path.insert(0, _Finder())
