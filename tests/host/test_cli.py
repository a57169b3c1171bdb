"""The command line's shape: a table of commands, help on every option, `--version`, and one
error type mapped to exit codes (0 done, 1 no, 2 bad input, 3 no board)."""

import argparse
import subprocess
import sys

import pytest

from plateau import __version__, ports
from plateau.cli import COMMANDS, parser
from plateau.errors import NO_BOARD, USAGE, NoBoard


def plateau(*args, env=None, cwd=None, timeout=120):
    return subprocess.run(
        [sys.executable, "-m", "plateau", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=cwd,
    )


def subparsers(p):
    for a in p._actions:
        if isinstance(a, argparse._SubParsersAction):
            return a.choices
    return {}


def every_parser(p, path=("plateau",)):
    yield path, p
    for name, s in subparsers(p).items():
        yield from every_parser(s, (*path, name))


def test_the_table_lists_every_command_once():
    names = [name for name, _ in COMMANDS]
    assert len(names) == len(set(names))
    assert set(subparsers(parser())) == set(names)


def test_every_option_of_every_command_has_help():
    missing = []
    for path, p in every_parser(parser()):
        for a in p._actions:
            if isinstance(a, argparse._SubParsersAction | argparse._HelpAction):
                continue
            if not a.help:
                missing.append(f"{' '.join(path)} {'/'.join(a.option_strings) or a.dest}")
    assert not missing, missing


def test_port_and_baud_are_one_shared_definition():
    p = parser()
    helps = set()
    for name in ("log", "send", "selftest", "calibrate", "deploy"):
        sub = subparsers(p)[name]
        (port,) = [a for a in sub._actions if "--port" in a.option_strings]
        helps.add(port.help)
        assert any("--baud" in a.option_strings for a in sub._actions), name
    assert len(helps) == 1


def test_version():
    out = plateau("--version")
    assert out.returncode == 0 and out.stdout.strip() == f"plateau {__version__}"


def test_send_help_lists_the_board_commands():
    from link.commands import all_words

    out = plateau("send", "--help")
    assert out.returncode == 0
    missing = [w for w in all_words() if f"  {w}" not in out.stdout]
    assert not missing, missing


def test_bad_input_exits_2_with_one_line(tmp_path):
    out = plateau("sim", str(tmp_path / "missing.table"))
    assert out.returncode == USAGE
    assert out.stderr.startswith("plateau sim: cannot read") and "Traceback" not in out.stderr
    bad = tmp_path / "bad.table"
    bad.write_text("table tock players=4\nmove R18 R19\n")
    out = plateau("sim", str(bad))
    assert out.returncode == USAGE and "line 2: unknown square 'R19'" in out.stderr
    out = plateau("send", "--port", str(tmp_path / "x"), "frobnicate")
    assert out.returncode == USAGE and "unknown command 'frobnicate'" in out.stderr


def test_no_board_exits_3_and_log_leaves_no_files(tmp_path):
    port = str(tmp_path / "ttyNOPE")
    for args in (("send", "--port", port, "undo"), ("selftest", "--port", port)):
        out = plateau(*args)
        assert out.returncode == NO_BOARD, out.stderr
        assert "Traceback" not in out.stderr and port in out.stderr
    out = plateau("log", "--port", port, cwd=tmp_path)
    assert out.returncode == NO_BOARD, out.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no empty log, no index


def test_port_auto(monkeypatch):
    monkeypatch.delenv("PLATEAU_PORT", raising=False)
    monkeypatch.setattr(ports, "listing", lambda: [("/dev/ttyS0", "", False)])
    with pytest.raises(NoBoard, match="no board plugged in.*ttyS0"):
        ports.resolve("auto")
    one = [("/dev/ttyS0", "", False), ("/dev/ttyUSB0", "CP210x", True)]
    monkeypatch.setattr(ports, "listing", lambda: one)
    assert ports.resolve("auto") == "/dev/ttyUSB0"
    assert ports.resolve("/dev/ttyACM3") == "/dev/ttyACM3"
    monkeypatch.setattr(ports, "listing", lambda: [*one, ("/dev/ttyACM0", "Espressif", True)])
    with pytest.raises(NoBoard, match="several boards"):
        ports.resolve("auto")
    monkeypatch.setenv("PLATEAU_PORT", "/dev/pts/9")
    assert ports.resolve("auto") == "/dev/pts/9"


def test_ports_lists_without_failing():
    out = plateau("ports")
    assert out.returncode == 0, out.stderr


def test_make_bench_leaves_the_committed_results_alone():
    """`make bench` writes its figures to build/bench; tests/bench/results.txt is a run kept
    on purpose and only changes when someone copies a run there (it was rewritten in every
    user's clone)."""
    from plateau import ROOT

    text = (ROOT / "Makefile").read_text()
    recipe = text[text.index("\nbench:") :].split("\n\n")[0]
    assert "build/bench/results.txt" in recipe
    assert "tests/bench/results.txt" not in recipe.replace("#", "\n#").split("\n#")[0]
    bench = (ROOT / "tests" / "bench" / "run.py").read_text()
    assert 'OUT = ROOT / "build" / "bench"' in bench and 'results.txt").write' not in bench
