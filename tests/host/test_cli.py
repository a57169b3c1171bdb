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
    from plateau.fw.link.commands import all_words

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


def _numbers(p):
    """(command, option, its type) for every option that takes a number, resets' included."""
    from plateau import resets

    parsers = list(every_parser(p))
    try:  # resets builds its own parser in main(): catch it on the way
        real = argparse.ArgumentParser.parse_args

        def grab(self, *a, **k):
            parsers.append((("plateau", "resets"), self))
            raise SystemExit(0)

        argparse.ArgumentParser.parse_args = grab
        with pytest.raises(SystemExit):
            resets.main([])
    finally:
        argparse.ArgumentParser.parse_args = real
    for path, sp in parsers:
        for a in sp._actions:
            if a.type is not None and a.option_strings:
                yield " ".join(path), a.option_strings[-1], a.type


def test_every_number_option_is_bounded_and_refuses_what_is_out_of_range():
    """Finding: `--baud -1` gave a ValueError, `--baud 99999999999` an OverflowError, from
    deep inside pyserial. Every number option of every command takes a Bounded type: seeded
    junk and the values around its bounds either parse inside the range or are an option
    error, never a traceback."""
    import random

    from plateau.commands import Bounded

    rng = random.Random(10)
    found = list(_numbers(parser()))
    bare = [(c, o) for c, o, t in found if t in (int, float)]
    assert not bare, f"number options without bounds: {bare}"
    bounded = [(c, o, t) for c, o, t in found if isinstance(t, Bounded)]
    assert {("plateau log", "--baud"), ("plateau send", "--timeout")} <= {
        (c, o) for c, o, _ in bounded
    }
    for cmd, opt, t in bounded:
        tries = ["-1", "nan", "inf", "-inf", "1e400", "9" * 30, "", "x", "１２", "0x10"]
        tries += [str(t.low), str(t.high), str(t.low - 1), str(t.high + 1)]
        tries += [str(rng.randint(-(10**12), 10**12)) for _ in range(5)]
        tries += [repr(rng.uniform(-1e6, 1e6)) for _ in range(5)]
        for text in tries:
            try:
                v = t(text)
            except argparse.ArgumentTypeError as e:
                assert "expected" in str(e), (cmd, opt, text)
                continue
            assert t.low <= v <= t.high and isinstance(v, t.kind), (cmd, opt, text, v)


def test_an_out_of_range_number_is_an_option_error_from_the_command_line():
    for args in (
        ["log", "--baud", "-1"],
        ["log", "--baud", "99999999999"],
        ["send", "--timeout", "nan", "x"],
    ):
        r = plateau(*args)
        assert r.returncode == USAGE and "Traceback" not in r.stderr, r.stderr
        assert "expected" in r.stderr.splitlines()[-1]


def test_games_show_takes_any_number_a_person_types(tmp_path):
    """Finding: `games show 99999999999999999999` ended in an OverflowError."""
    import sqlite3

    db = tmp_path / "g.db"
    sqlite3.connect(db).executescript(
        "create table games (id integer primary key, log, game, rules, players, moves,"
        " winner, first_line, last_line)"
    )
    for n, code in (
        ("99999999999999999999", 1),
        ("0", 1),
        ("²", USAGE),
        ("-1", USAGE),
        ("9" * 5000, 1),
    ):
        r = plateau("games", "--db", str(db), "show", n)
        assert r.returncode == code and "Traceback" not in r.stderr, (n, r.stderr)


def test_every_file_option_refuses_a_folder_with_one_line(tmp_path):
    """Findings: `enrol --write /tmp` gave IsADirectoryError; `index .` blamed the index.
    Every option or argument naming a file to read or write takes in_file/out_file: a
    folder is an option error (exit 2) naming it."""
    from plateau.commands import in_file, out_file

    files = {"log", "db", "write", "output", "script", "json"}
    typed = []
    for path, sp in every_parser(parser()):
        for a in sp._actions:
            if a.dest in files and a.type not in (None, in_file, out_file):
                continue
            if a.dest in files and not (a.dest == "json" and a.type is None):
                typed.append((" ".join(path), a.dest, a.type))
    untyped = [
        (c, d) for c, d, t in typed if t is None and c not in ("plateau bridge", "plateau serve")
    ]
    assert not untyped, f"file options that take a folder: {untyped}"
    for args in (
        ["enrol", "--port", "/dev/null", "--write", str(tmp_path), "AH"],
        ["index", str(tmp_path)],
        ["replay", str(tmp_path)],
        ["games", "--db", str(tmp_path)],
        ["log", "--port", "/dev/null", "--log", str(tmp_path)],
        ["sim", "--log", str(tmp_path), str(tmp_path)],
        ["gen", "-o", str(tmp_path)],
    ):
        r = plateau(*args)
        assert r.returncode == USAGE and "Traceback" not in r.stderr, (args, r.stderr)
        assert "is a folder" in r.stderr.splitlines()[-1], (args, r.stderr)


def _running_with(text):
    """Processes whose command line names `text` (a test's own tmp path)."""
    from pathlib import Path

    found = []
    for p in Path("/proc").iterdir():
        try:
            if p.name.isdigit() and text in (p / "cmdline").read_bytes().decode(errors="replace"):
                found.append(p.name)
        except OSError:
            continue
    return found


def test_sim_with_a_log_being_written_says_so_and_leaves_nothing_running(tmp_path):
    """Finding: `plateau sim --log F` while `plateau log --log F` ran: an uncaught LogError,
    and the simulator left running (--wait-host) for ever."""
    import fcntl

    script = tmp_path / "busy.table"
    script.write_text("table tock players=2\ncard AH\n")
    log = tmp_path / "F.log"
    with open(log, "a") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)  # what a running plateau log holds
        r = plateau("sim", "--log", str(log), str(script))
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert "being written by another plateau log" in r.stderr
    assert not _running_with(str(script))


def test_sim_on_an_interpreter_that_dies_says_what_died(tmp_path):
    """Finding: `--micropython /bin/false` said `cannot open /dev/pts/N ... Is the table
    plugged in?` (the pty goes with the process that held it)."""
    script = tmp_path / "t.table"
    script.write_text("table tock players=2\ncard AH\n")
    r = plateau("sim", "--micropython", "/bin/false", str(script))
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert "plugged in" not in r.stderr and "/bin/false exited with 1" in r.stderr, r.stderr


def test_a_port_another_plateau_tool_holds_is_busy_exit_3():
    """Finding 22: the docs said one tool at a time and exit 3 for a busy port, but two
    `plateau log` (or a `send` while a log ran) opened the same port and took turns losing
    frames. The port is taken exclusively now: the second tool is refused, by name."""
    import os

    from plateau.hostlink import HostLink, LinkError

    master, slave = os.openpty()
    port = os.ttyname(slave)
    first = HostLink(port)
    first.open(hello=False)
    try:
        with pytest.raises(LinkError, match="busy"):
            HostLink(port).open(hello=False)
        for args in (["send", "--port", port, "snapshot"], ["log", "--port", port]):
            r = plateau(*args, timeout=60)
            assert r.returncode == NO_BOARD and "is busy" in r.stderr, (args, r.stderr)
    finally:
        first.close()
        os.close(master)
        os.close(slave)
