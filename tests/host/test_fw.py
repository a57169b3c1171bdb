"""The host reaches the firmware as plateau.fw.<name> (plateau/fw/__init__.py): a user's own
package named like one of the firmware's top-level modules (`clock`, `link`, `games`...) neither
shadows the firmware nor is touched by plateau, and `import plateau` or any plateau command
leaves no firmware name in sys.modules or firmware/ on sys.path."""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import fw_imports

from plateau import FIRMWARE
from plateau.fw import TOP

HERE = Path(__file__).resolve().parent


def test_the_finder_knows_every_top_level_name_of_the_firmware():
    on_board = {p.stem for p in FIRMWARE.iterdir() if p.suffix == ".py"} - {"manifest"}
    on_board |= {p.name for p in FIRMWARE.iterdir() if (p / "__init__.py").is_file()}
    assert TOP == on_board | {"micropython", "framebuf"} == fw_imports.TOP


def test_host_code_imports_the_firmware_only_through_plateau_fw():
    """One name per module: a firmware module imported as `games.x` beside `plateau.fw.games.x`
    would be two modules, two classes for each class (isinstance false, state split)."""
    found = [f for p in fw_imports.host_files() for f in fw_imports.rewrite(p, check=True)]
    assert not found, "\n".join(found)


def test_a_firmware_module_sees_its_own_names_inside_plateau_fw():
    """`from games.cards import ...` inside the rules, and the settings checker's dynamic
    __import__("games.<game>...."), land in plateau.fw. In a fresh interpreter: this one also
    runs the firmware's own tests (tests/firmware), under the board's names."""
    probe = (
        "import json, sys\n"
        "from plateau.fw import TOP\n"
        "from plateau.fw.games import cards, settings\n"
        "from plateau.fw.games.tock import rules, tracker\n"
        "before = set(sys.modules)\n"
        "settings.check('pocha', {})\n"
        "print(json.dumps({\n"
        "    'same': rules.CardError is cards.CardError and tracker.Position is rules.Position,\n"
        "    'loaded': sorted(set(sys.modules) - before),\n"
        "    'board_names': [m for m in sys.modules if m.partition('.')[0] in TOP],\n"
        "    'file': rules.__file__,\n"
        "}))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["same"]
    assert any(m.startswith("plateau.fw.games.pocha.") for m in out["loaded"]), out["loaded"]
    assert out["board_names"] == []
    assert Path(out["file"]) == FIRMWARE / "games" / "tock" / "rules.py"


# Run in a fresh interpreter with the decoys first on sys.path: the user's `clock` already
# imported (plateau must leave it as it is), every other decoy records it if anything imports it.
PROBE = r"""
import json, os, sys
import clock
before = dict(vars(clock))
import plateau
from plateau.fw import TOP
after_import = sorted(m for m in sys.modules if m.partition(".")[0] in TOP)
from plateau.cli import main
codes = []
for args in json.loads(sys.argv[1]):
    try:
        codes.append(main(args))
    except SystemExit as e:  # --help
        codes.append(e.code)
import plateau.fw.games.tock.rules as rules
import plateau.fw.clock
print(json.dumps({
    "codes": codes,
    "after_import": after_import,
    "after_commands": sorted(m for m in sys.modules if m.partition(".")[0] in TOP),
    "path": [p for p in sys.path if "firmware" in p or "mpshim" in p],
    "clock_untouched": dict(vars(clock)) == before and sys.modules["clock"] is clock,
    "rules": rules.__file__,
    "firmware_clock": hasattr(plateau.fw.clock, "BoardClock"),
    "fw_modules": len([m for m in sys.modules if m.startswith("plateau.fw.")]),
}))
"""


def decoys(where):
    """A package under each of the firmware's top-level names; importing one leaves a file."""
    for name in sorted(TOP):
        pkg = where / name
        pkg.mkdir()
        mark = where / f"imported-{name}"
        (pkg / "__init__.py").write_text(
            f"open({str(mark)!r}, 'a').write('imported\\n')\nDECOY = {name!r}\n"
        )


def test_a_users_packages_named_like_the_firmwares_do_not_clash_with_plateau(tmp_path):
    rng = random.Random(2111)
    decoy = tmp_path / "decoy"
    decoy.mkdir()
    decoys(decoy)
    game = rng.choice(["tock", "pocha", "holdem", "weykick"])
    seed = rng.randrange(1000)
    script, log, db = tmp_path / "g.table", tmp_path / "g.jsonl", tmp_path / "g.sqlite"
    commands = [
        *(
            ["gen", "--game", g, "--seed", str(rng.randrange(1000)), "-o", str(tmp_path / g)]
            for g in ("tock", "pocha", "holdem", "weykick")
        ),
        ["gen", "--game", game, "--seed", str(seed), "-o", str(script)],
        ["sim", str(script), "--log", str(log)],
        ["replay", str(log)],
        ["index", "--db", str(db), str(log)],
        ["holdem", "showdown", "--board", "AS KS QS JS 2D", "--hands", "1=AH AD", "--bets", "1=10"],
        ["send", "--help"],
    ]
    # the decoys before everything else on the path, whatever it held
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(filter(None, [str(decoy), os.environ.get("PYTHONPATH")])),
    )
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(commands)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.splitlines()[-1])
    assert out["codes"] == [0] * len(commands), (game, seed, out["codes"])
    # only the user's own `clock`, as they imported it; no other decoy imported by anyone
    assert out["after_import"] == out["after_commands"] == ["clock"]
    assert out["clock_untouched"]
    assert sorted(p.name for p in tmp_path.joinpath("decoy").glob("imported-*")) == [
        "imported-clock"
    ]
    assert out["path"] == []
    assert Path(out["rules"]) == FIRMWARE / "games" / "tock" / "rules.py"
    assert out["firmware_clock"] and out["fw_modules"] > 10
    assert log.stat().st_size > 0


def test_import_plateau_alone_adds_no_firmware_name():
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; before = set(sys.modules); before_path = list(sys.path);"
            "import plateau, plateau.cli, plateau.games, plateau.games.tock.checker, plateau.view;"
            "from plateau.fw import TOP;"
            "print(sorted(m for m in set(sys.modules) - before if m.partition('.')[0] in TOP),"
            " [p for p in sys.path if p not in before_path])",
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[] []"
