"""`plateau sim` says what happened to the run, and takes the board's tick counter's start
(adversarial tester): a "MicroPython" that exits 0 at once (`--micropython /bin/true`)
printed "0 numbered events, firmware exited cleanly" and exit 0 for a script never played;
`--heap 30000` was a raw MemoryError traceback and `--heap 99999999999` "exited with -11";
`sim.run --ticks-start -5000 SCRIPT` read the flag as the script's name, and `plateau sim`
had no --ticks-start at all."""

import json
import random
import subprocess
import sys

import pytest

from plateau.cli import main
from plateau.commands.sim import HEAP_MAX, HEAP_MIN, TICKS_TOP, heap_size

TICKS_MAX = TICKS_TOP  # an ESP32's ticks_ms() wraps after 2**30 - 1 (firmware/clock.py)


def _run(capsys, argv):
    capsys.readouterr()
    try:
        code = main([str(a) for a in argv])
    except SystemExit as e:
        code = e.code
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def script(tmp_path):
    path = tmp_path / "game.table"
    path.write_text("table tock players=2\ncard AS\nmove RC1 R18\nwait 7000\ncard KH\n")
    return path


def test_a_run_that_never_played_the_script_fails(capsys, tmp_path, script):
    fakes = {"true": "#!/bin/sh\nexit 0\n", "says": "#!/bin/sh\necho hello there\nexit 0\n"}
    for name, text in fakes.items():
        fake = tmp_path / name
        fake.write_text(text)
        fake.chmod(0o755)
        code, _, err = _run(capsys, ["sim", script, "--micropython", fake])
        assert code == 1, err
        assert "never said hello" in err and "without playing" in err, err
        assert "Traceback" not in err


@pytest.mark.parametrize("seed", range(3))
def test_a_heap_out_of_range_is_refused_up_front(capsys, script, seed):
    rng = random.Random(seed)
    for _ in range(8):
        bad = rng.choice(
            [
                str(rng.randrange(1, HEAP_MIN)),
                str(rng.randrange(HEAP_MAX + 1, 10**13)),
                f"{rng.randrange(1, HEAP_MIN // 1024)}k",
                f"{rng.randrange(1025, 10**6)}m",
                rng.choice(["0", "-5", "12x", "", "1e6", "64 k", "0x10000", "½"]),
            ]
        )
        code, _, err = _run(capsys, ["sim", script, f"--heap={bad}"])
        assert code == 2 and err.count("\n") and "64k to 1024m" in err, (bad, err)
        assert "Traceback" not in err
        good = rng.randrange(HEAP_MIN, HEAP_MAX + 1)
        assert heap_size(str(good)) == good
        assert heap_size(f"{good >> 10}K") == (good >> 10) << 10


def test_a_game_that_outgrows_its_heap_is_told_so(capsys, script):
    code, _, err = _run(capsys, ["sim", script, "--heap", "64k"])  # the 64-bit build needs more
    assert code == 1 and "MemoryError" in err and "ran out of its heap" in err, err


def _ups(capsys, argv):
    code, out, err = _run(capsys, ["sim", "--json", "--heartbeats", *argv])
    assert code == 0, err
    return [e["up"] for e in map(json.loads, out.splitlines()) if e.get("type") == "heartbeat"]


@pytest.mark.parametrize("start", [-5000, -1, TICKS_MAX - 100])
def test_plateau_sim_ticks_start_plays_across_the_wrap(capsys, script, start):
    ups = _ups(capsys, [script, "--ticks-start", start])
    first = start & TICKS_MAX
    since = [(u - first) & TICKS_MAX for u in ups]  # ms from the start, across the wrap
    assert since == sorted(since) and since[-1] < 30_000, ups  # counting on from the start
    assert all(0 <= u <= TICKS_MAX for u in ups)
    assert any(u < first for u in ups), ups  # some readings after the wrap (through 0)
    if start == -5000:
        assert ups[0] >= first and ups[-1] < 20_000, ups  # before it, then after it


def test_without_it_the_counter_starts_at_zero(capsys, script):
    ups = _ups(capsys, [script])
    assert ups == sorted(ups) and ups[0] < 2000, ups


@pytest.mark.parametrize("bad", ["x", str(TICKS_MAX + 1), str(-TICKS_MAX - 2), "1.5"])
def test_a_ticks_start_out_of_range_is_refused(capsys, script, bad):
    code, _, err = _run(capsys, ["sim", script, f"--ticks-start={bad}"])
    assert code == 2 and "a tick count" in err, err


def test_sim_run_takes_its_options_before_or_after_the_script(tmp_path):
    """The firmware's own command line, as docs/architecture.md gives it."""
    from plateau.fw.sim.run import script_of

    assert script_of(["sim.run", "--ticks-start", "-5000", "g.table"]) == "g.table"
    assert script_of(["sim.run", "g.table", "--ticks-start", "-5000"]) == "g.table"
    assert script_of(["sim.run", "--realtime", "--boot", "ab", "g.table", "--linger"]) == "g.table"
    assert script_of(["sim.run", "--ticks-start", "-5000"]) is None
    rng = random.Random(7)
    valued = [["--ticks-start", "-5000"], ["--boot", "00ff"], ["--ring", "4096"]]
    flags = [["--realtime"], ["--linger"], ["--wait-host"]]
    for _ in range(50):
        parts = rng.sample(valued + flags, rng.randrange(0, 6))
        parts.insert(rng.randrange(len(parts) + 1), ["x.table"])
        assert script_of(["sim.run", *[w for p in parts for w in p]]) == "x.table", parts


def test_sim_run_under_micropython_with_the_flag_first(tmp_path):
    from plateau.build import BUILD, build
    from plateau.sim import micropython

    build(only_changed=True)
    (tmp_path / "bad.table").write_text("table tock\nmove R1 R2 R3\n")
    proc = subprocess.run(
        [micropython(), "-m", "sim.run", "--ticks-start", "-5000", str(tmp_path / "bad.table")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={"MICROPYPATH": str(BUILD)},
        stdin=subprocess.DEVNULL,
    )
    # the script is found and read (its own error), not "cannot read --ticks-start"
    assert proc.returncode == 2 and "bad.table: line 2" in proc.stderr, proc.stderr
    assert "--ticks-start" not in proc.stderr and sys.executable
