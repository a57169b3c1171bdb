"""The club's commands on bad options (adversarial finding F7): `plateau serve` ended in a
traceback on an option file that is not UTF-8 text or is a folder, on a busy port and on an
address that is not this machine's; `league` and `players` made a new database for a
mistyped path, and `players` took any table name. Each is now an error in one line with the
README's exit code (2 bad input, 3 a busy port). Option files: seeded bad contents for every
option that reads one, on every command that has it."""

import random
import socket
import subprocess
import sys

import pytest

from plateau.cli import main

LOG = '{"type":"hello","boot":"b1","at":0,"game":"tock"}\n'
# (command line before the option, the option): every option file the club's commands read
FILE_OPTIONS = [
    (["serve", "--log", "{log}", "--table", "t1", "--port", "0"], "--token-file"),
    (["serve", "--log", "{log}", "--table", "t1", "--port", "0"], "--blinds"),
    (["serve", "--mqtt", "127.0.0.1:1", "--port", "0"], "--password-file"),
    (["bridge", "{log}", "--table", "t1", "--mqtt", "127.0.0.1:1"], "--password-file"),
    (["log", "--port", "/dev/null", "--log", "{log}", "--mqtt", "127.0.0.1:1"], "--password-file"),
]


def bad_files(rng, tmp_path):
    """Files no option can use: bytes that are not UTF-8 somewhere in good text, a folder,
    nothing there, too long, a device that never ends."""
    for n in range(6):
        text = bytearray(b"a-good-token-1234\n" * rng.randint(1, 3))
        at = rng.randrange(len(text) + 1)
        text[at:at] = bytes([rng.choice([0xFF, 0xFE, 0xC0, 0x80, 0xED])])
        path = tmp_path / f"latin{n}"
        path.write_bytes(bytes(text))
        yield path
    yield tmp_path
    yield tmp_path / "not-there"
    big = tmp_path / "big"
    big.write_bytes(b"a" * 70000)
    yield big
    yield "/dev/zero"


def _exit(capsys, argv):
    capsys.readouterr()
    try:
        code = main([str(a) for a in argv])
    except SystemExit as e:  # argparse: an option error
        code = e.code
    return code, capsys.readouterr().err


def test_every_option_file_that_cannot_be_read_is_one_error_line(tmp_path, capsys):
    log = tmp_path / "t.jsonl"
    log.write_text(LOG)
    rng = random.Random(7)
    n = 0
    for head, option in FILE_OPTIONS:
        for bad in bad_files(rng, tmp_path):
            argv = [a.replace("{log}", str(log)) for a in head] + [option, str(bad)]
            code, err = _exit(capsys, argv)
            n += 1
            assert code == 2, (argv, err)
            assert "Traceback" not in err, (argv, err)
            last = err.strip().splitlines()[-1]
            assert last.startswith(f"plateau {head[0]}: error: argument {option}:"), (argv, err)
    print(f"serve options: {n} unreadable option files, each one error line, exit 2")


def test_what_an_option_file_says_is_checked_too(tmp_path, capsys):
    log = tmp_path / "t.jsonl"
    log.write_text(LOG)
    short = tmp_path / "short"
    short.write_text("abc\n")
    blinds = tmp_path / "blinds"
    blinds.write_text("1/3 10\n")
    for argv in (
        ["serve", "--log", log, "--table", "t1", "--port", "0", "--token-file", short],
        ["serve", "--log", log, "--table", "t1", "--port", "0", "--blinds", blinds],
        ["serve", "--mqtt", "127.0.0.1:99999", "--port", "0"],
        ["sim", log, "--log", tmp_path / "x.jsonl", "--mqtt", "127.0.0.1:99999"],
    ):
        code, err = _exit(capsys, argv)
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, (argv, err)


def _serve(*argv):
    return subprocess.run(
        [sys.executable, "-m", "plateau", "serve", *map(str, argv)],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("host", ["192.0.2.1", "256.1.1.1"])
def test_an_address_that_is_not_this_machines(tmp_path, host):
    log = tmp_path / "t.jsonl"
    log.write_text(LOG)
    done = _serve("--log", log, "--table", "t1", "--port", "0", "--host", host)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and f"cannot listen on {host}:0" in done.stderr


def test_a_busy_port(tmp_path):
    log = tmp_path / "t.jsonl"
    log.write_text(LOG)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        done = _serve("--log", log, "--table", "t1", "--port", port)
    assert done.returncode == 3, done.stderr
    assert done.stderr.count("\n") == 1 and "in use" in done.stderr, done.stderr


def test_league_and_players_make_no_database_for_a_mistyped_path(tmp_path, capsys):
    missing = tmp_path / "nothere.sqlite"
    for argv in (
        ["league", "--db", missing, "--game", "tock"],
        ["players", "--db", missing, "--table", "t1"],
        ["players", "--db", tmp_path / "p.sqlite", "--table", "bad table!", "1=A"],
    ):
        code, err = _exit(capsys, argv)
        assert code == 2 and err.count("\n") == 1, (argv, err)
    assert not missing.exists() and not (tmp_path / "p.sqlite").exists()
    # names need a table that has published to the scoreboard: none in a new database
    code, err = _exit(capsys, ["players", "--db", missing, "--table", "t1", "1=Ann"])
    assert code == 2 and err.count("\n") == 1 and not missing.exists(), err
