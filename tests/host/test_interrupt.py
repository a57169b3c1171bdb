"""Ctrl-C stops every command, even one started with SIGINT ignored (a script's background
job, nohup): `plateau log` and `plateau sim --serve` did (tests/host/test_sim_link.py), `plateau
serve`, `bridge`, `send`, `calibrate` and `sim` went on (adversarial finding ADV5-7). The
command line sets Ctrl-C's handler back for every command (plateau.cli.main)."""

import os
import signal
import subprocess
import sys

import pytest

EXAMPLE = "table weykick\nball A\nwait 100\nclear A\nwait 100\n"


def _ignoring_sigint(args, cwd):
    return subprocess.Popen(
        [sys.executable, "-m", "plateau", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=cwd,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )


@pytest.mark.parametrize("command", ["serve", "no board"])
def test_a_command_started_with_sigint_ignored_stops_on_it(tmp_path, command):
    from plateau.cli import main

    (tmp_path / "w.table").write_text(EXAMPLE)
    assert main(["sim", str(tmp_path / "w.table"), "--log", str(tmp_path / "w.jsonl")]) == 0
    if command == "serve":  # says its address once its handlers are in place
        args = ["serve", "--log", "w.jsonl", "--table", "t1", "--db", "c.sqlite", "--port", "0"]
        ready = "http://"
    else:  # a pty with no board behind it: `send` waits for an answer
        master, slave = os.openpty()
        args = ["send", "--port", os.ttyname(slave), "--timeout", "600", "pause"]
        ready = None
    proc = _ignoring_sigint(args, tmp_path)
    try:
        assert proc.stdout is not None
        if ready:
            line = proc.stdout.readline()
            assert ready in line, line
        else:  # the frame `send` writes: it is past main()'s set-up, waiting
            os.set_blocking(master, True)
            assert os.read(master, 1)
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=30)
        assert code in (0, 130), (code, proc.stdout.read())
    finally:
        if proc.poll() is None:
            proc.kill()
        if command != "serve":
            os.close(master)
            os.close(slave)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_plateau_sim_killed_stops_its_firmware(tmp_path, sig):
    # ADV5-23: `plateau sim` ended by SIGTERM or SIGHUP (kill, the terminal closed, a CI
    # timeout) left its micropython child running for ever, a fifth of a core
    (tmp_path / "long.table").write_text("table weykick\n" + "wait 60000\n" * 50)
    proc = subprocess.Popen(
        [sys.executable, "-m", "plateau", "sim", "long.table", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=tmp_path,
    )
    try:
        assert proc.stdout is not None
        assert '"hello"' in proc.stdout.readline()  # the firmware runs and talks
        with open(f"/proc/{proc.pid}/task/{proc.pid}/children") as f:
            children = [int(c) for c in f.read().split()]
        assert children
        proc.send_signal(sig)
        assert proc.wait(timeout=60) == 130
        for child in children:
            assert not os.path.exists(f"/proc/{child}") or _zombie(child), child
    finally:
        if proc.poll() is None:
            proc.kill()


def _zombie(pid):
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0] == "Z"
