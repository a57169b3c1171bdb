"""Minor findings of the adversarial tester on host options, each an error in one line with
the README's exit code: Hold'em seats beyond 10 (H1), `--mess` given to a game without
table incidents, a `plateau gen --pace` the table cannot follow, calibration squares that
do not exist; and `plateau log --give-up N` on a port not there tries for N seconds before
it gives up (it gave up at once)."""

import time

import pytest

from plateau.cli import main

BOARD = ["--board", "AS KS QS JS 2D", "--hands", "1=AH AD", "2=2C 3C", "--bets", "1=10", "2=10"]


def _exit(capsys, argv):
    capsys.readouterr()
    try:
        code = main([str(a) for a in argv])
    except SystemExit as e:
        code = e.code
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    "extra",
    [["--button", "0"], ["--button", "11"], ["--button", "007"], ["--folded", "11=5"]],
)
def test_holdem_showdown_seats_are_1_to_10(capsys, extra):
    code, err = _exit(capsys, ["holdem", "showdown", *BOARD, *extra])
    assert code == 2 and err.count("\n") == 1 and "1 to 10" in err, err


def test_holdem_showdown_a_good_one_still_settles(capsys):
    code, _ = _exit(capsys, ["holdem", "showdown", *BOARD, "--button", "2"])
    assert code == 0


@pytest.mark.parametrize("game", ["tock", "pocha", "holdem"])
def test_gen_mess_is_weykicks_only(capsys, game):
    code, err = _exit(capsys, ["gen", "--game", game, "--mess", "0.5"])
    assert code == 2 and err.count("\n") == 1 and "--mess is weykick's" in err, err


def test_log_give_up_tries_for_that_long(capsys, tmp_path):
    log = tmp_path / "l.jsonl"
    start = time.monotonic()
    code, err = _exit(capsys, ["log", "--port", tmp_path / "no-such-port", "--give-up", "1.5"])
    assert code == 3 and err.count("\n") == 1, err
    assert time.monotonic() - start >= 1.5  # a lower bound: holds however slow the machine
    assert not log.exists()


@pytest.mark.parametrize("game", ["tock", "pocha", "holdem"])
def test_gen_pace_the_table_can_follow(capsys, game):
    """A pace below 100 ms wrote games the table could not play (cards read after the next
    command): refused; Weykick's timed goals keep any pace."""
    code, err = _exit(capsys, ["gen", "--game", game, "--pace", "40"])
    assert code == 2 and err.count("\n") == 1 and "at least 100 ms" in err, err
    code, _ = _exit(capsys, ["gen", "--game", "weykick", "--pace", "0"])
    assert code == 0


@pytest.mark.parametrize("squares", ["R19", ",,", "", "R1,XX9", "r1"])
def test_calibrate_squares_are_squares_with_a_sensor(capsys, squares):
    """`plateau calibrate --squares R19` asked for a pawn on a square that does not exist,
    then waited: refused before the port is opened."""
    code, err = _exit(capsys, ["calibrate", "--port", "/dev/null", "--squares", squares])
    assert code == 2 and err.count("\n") == 1 and "no sensor under" in err, err
