"""Firmware trees run with PLATEAU_FIRMWARE (docs/adding-a-game.md): two trees in one folder
shared build/mpy beside them, so the second ran the first one's modules (its registry: the
host took a game the firmware called unknown), a module deleted from a tree still imported,
and builds at once read modules cut short (adversarial findings ADV5-10, ADV5-11). Each
tree builds into its own folder, holding its modules only, whole."""

import os
import shutil
import subprocess
import sys

from plateau import ROOT

BUILD = "from plateau.build import BUILD, build; build(only_changed=True); print(BUILD)"


def _build(tree):
    done = subprocess.Popen(
        [sys.executable, "-c", BUILD],
        env=dict(os.environ, PLATEAU_FIRMWARE=str(tree)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    return done


def _built(tree):
    proc = _build(tree)
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    return os.path.realpath(out.strip())


def _modules(folder):
    return sorted(
        os.path.relpath(os.path.join(d, f), folder)
        for d, _, files in os.walk(folder)
        for f in files
        if f.endswith(".mpy")
    )


def test_each_tree_runs_its_own_modules_and_only_those(tmp_path):
    a, b = tmp_path / "fwa", tmp_path / "fwb"
    shutil.copytree(ROOT / "firmware", a)
    shutil.copytree(ROOT / "firmware", b)
    (a / "games" / "zz_only_a.py").write_text("X = 1\n")
    built_a = _built(a)
    built_b = _built(b)  # one after the other, in one folder
    assert built_a != built_b
    assert "games/zz_only_a.mpy" in _modules(built_a)
    assert "games/zz_only_a.mpy" not in _modules(built_b)
    (a / "games" / "zz_only_a.py").unlink()  # deleted from the tree: gone from its build
    assert "games/zz_only_a.mpy" not in _modules(_built(a))
    # builds of one tree at once: each ends well, every module whole
    for src in a.rglob("*.py"):
        src.touch()
    procs = [_build(a) for _ in range(3)]
    for p in procs:
        assert p.wait(timeout=600) == 0, p.stderr.read() if p.stderr else ""
    assert _modules(built_a) == _modules(built_b)
    for m in _modules(built_a):
        assert (open(os.path.join(built_a, m), "rb").read()[:1]) == b"M"  # an .mpy header


def test_a_wrong_plateau_firmware_is_said_in_one_line(tmp_path):
    # ADV5-17: a typo, a file, a folder that is no firmware tree: a traceback in every command
    (tmp_path / "q.table").write_text("table weykick\n")
    for bad in (tmp_path / "nonexistent", tmp_path / "q.table", tmp_path):
        for args in (["sim", "q.table"], ["--help"], ["games"]):
            done = subprocess.run(
                [sys.executable, "-m", "plateau", *args],
                env=dict(os.environ, PLATEAU_FIRMWARE=str(bad)),
                capture_output=True,
                text=True,
                cwd=tmp_path,
                timeout=120,
            )
            assert done.returncode == 2, (bad, args, done.stderr)
            assert "is not a firmware tree" in done.stderr and "Traceback" not in done.stderr
            assert len(done.stderr.splitlines()) == 1
