"""Files a user names, read by every tool the same way (plateau.commands.read_json, and the
simulator's `position` line, firmware/sim/script.py): a file that is not UTF-8, nested
absurdly deep, too long, NaN, a folder or missing is one line naming the file and exit 2,
never a traceback (adversarial tester: `plateau tock moves --position latin1.json` was a
UnicodeDecodeError, 100,000 nested `[` a RecursionError, in `plateau tock` and through a
table script's `position` line). Hostile files come from a seeded generator, each given to
every reader; a byte-order mark before a good position is taken, as editors write one."""

import json
import random
import subprocess

import pytest

from plateau.build import BUILD, build
from plateau.cli import main
from plateau.sim import command

GOOD = {
    "rules": "classic",
    "players": 4,
    "turn": "R",
    "pawns": {
        "R": ["R1", "camp", "camp", "camp"],
        "G": ["camp"] * 4,
        "B": ["camp"] * 4,
        "Y": ["camp"] * 4,
    },
}


def hostile(rng: random.Random) -> tuple[bytes, str]:
    """A bad user file and the words its refusal must hold."""
    good = json.dumps(GOOD).encode()
    kind = rng.choice(["latin1", "bytes", "deep", "deepmix", "deepinside", "long", "nan"])
    if kind == "latin1":  # a name with an accent, saved as Latin-1
        at = good.index(b'"classic"') + 1
        return good[:at] + b"\xe9" + good[at:], "not UTF-8"
    if kind == "bytes":
        at = rng.randrange(len(good))
        return good[:at] + bytes([rng.randrange(0x80, 0x100)]) + good[at:], "not UTF-8"
    if kind == "deep":
        n = rng.choice([9, 50, 1_500, rng.randrange(9, 30_000), 100_000])
        data = b"[" * n + b"]" * rng.choice([0, n])
        return data, "nested deeper" if len(data) <= 1 << 16 else "longer than"
    if kind == "deepmix":
        n = rng.randrange(9, 5_000)
        opens = b"".join(rng.choice([b"[", b'{"a":']) for _ in range(n))
        return opens + b"1", "nested deeper"
    if kind == "deepinside":  # a good position with a deep value where a flag goes
        n = rng.randrange(9, 3_000)
        return good[:-1] + b', "flags": ' + b"[" * n + b"]" * n + b"}", "nested deeper"
    if kind == "long":
        return b" " * (1 << 16) + good, "longer than"
    nan = rng.choice([b'"players": NaN', b'"players": -Infinity'])
    return good.replace(b'"players": 4', nan), "JSON"


def _run(capsys, argv):
    capsys.readouterr()
    try:
        code = main([str(a) for a in argv])
    except SystemExit as e:
        code = e.code
    return code, capsys.readouterr().err


def readers(bad, good, tmp_path):
    """Every tool that reads the file: (argv, where the file is)."""
    script = tmp_path / "p.table"
    script.write_text(f"table tock\nposition {bad.name}\ncard 5H\n")
    return [
        ["tock", "moves", "--position", bad, "--card", "5H"],
        ["tock", "hints", "--position", bad, "--card", "5H"],
        ["tock", "check", "--position", bad, "--card", "5H", "--after", good],
        ["tock", "check", "--position", good, "--card", "5H", "--after", bad],
        ["sim", script],  # checked before the simulator starts
        ["enrol", "7H", "--port", tmp_path / "no-port", "--write", bad],
    ]


@pytest.mark.parametrize("seed", range(12))
def test_hostile_user_files_are_one_line_refusals_in_every_reader(capsys, tmp_path, seed):
    rng = random.Random(seed)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(GOOD))
    for i in range(4):
        data, words = hostile(rng)
        bad = tmp_path / f"bad{i}.json"
        bad.write_bytes(data)
        for argv in readers(bad, good, tmp_path):
            code, err = _run(capsys, argv)
            assert code == 2, (argv, data[:80], err)
            assert err.count("\n") == 1 and "Traceback" not in err, (argv, err[-2000:])
            assert bad.name in err, (argv, err)
            if argv[0] != "enrol":  # a tag map's own words: "is not a tag map: ..."
                assert words in err or (argv[0] == "sim" and "position" in err), (argv, err)


def test_a_folder_or_a_missing_file_is_said_so(capsys, tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(GOOD))
    for bad, words in ((tmp_path, "folder"), (tmp_path / "none.json", "No such file")):
        for argv in readers(bad, good, tmp_path)[:4]:
            code, err = _run(capsys, argv)
            assert code == 2 and err.count("\n") == 1 and words in err, (argv, err)


def test_a_byte_order_mark_before_a_good_position_is_taken(capsys, tmp_path):
    good = tmp_path / "good.json"
    good.write_bytes(b"\xef\xbb\xbf" + json.dumps(GOOD).encode())
    code, _ = _run(capsys, ["tock", "moves", "--position", good, "--card", "5H"])
    assert code == 0
    code, out = _run(capsys, ["tock", "check", "--position", good, "--card", "5H", "--after", good])
    assert code == 1  # R1 must move 5 (T17): nothing moved is not the move


def test_the_simulator_refuses_a_deep_position_on_micropython_too(tmp_path):
    """sim.run reads a `position` line's file itself (its own check, before it plays)."""
    build(only_changed=True)
    (tmp_path / "deep.json").write_bytes(b"[" * 3_000)
    (tmp_path / "latin.json").write_bytes(json.dumps(GOOD).replace("R1", "R\xe9").encode("latin-1"))
    for name, words in (("deep.json", "nested deeper"), ("latin.json", "not UTF-8")):
        script = tmp_path / f"{name}.table"
        script.write_text(f"table tock\nposition {name}\n")
        proc = subprocess.run(
            command(str(script)),
            cwd=tmp_path,  # nothing here to import: the compiled firmware runs
            capture_output=True,
            text=True,
            timeout=120,
            env={"MICROPYPATH": str(BUILD)},
        )
        assert proc.returncode == 2 and words in proc.stderr, proc.stderr
        assert "Traceback" not in proc.stderr
