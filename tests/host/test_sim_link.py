"""The whole path: firmware under `micropython` -> pty -> pyserial -> plateau (P1-P3)."""

import json
import subprocess
import sys


def run_plateau(*args, timeout=60):
    return subprocess.run(
        [sys.executable, "-m", "plateau", *args], capture_output=True, text=True, timeout=timeout
    )


def test_P2_P3_sim_link_comes_up_with_hello_snapshot_and_heartbeats(tmp_path):
    script = tmp_path / "s.table"
    script.write_text("table tock players=4\nwait 3000\n")
    done = run_plateau("sim", str(script), "--json")
    assert done.returncode == 0, done.stderr
    evs = [json.loads(line) for line in done.stdout.splitlines()]
    kinds = [e["type"] for e in evs]
    assert kinds[:2] == ["hello", "snapshot"]
    beats = [e["up"] for e in evs if e["type"] == "heartbeat"]
    assert len(beats) >= 5  # 3 s of script + 2 s of run-out, one at least every second
    assert all(b - a <= 1000 for a, b in zip(beats, beats[1:], strict=False))
    assert len({e["boot"] for e in evs}) == 1


def test_sim_rejects_a_bad_script_with_its_line(tmp_path):
    script = tmp_path / "bad.table"
    script.write_text("table tock players=4\nwait 10\nlift Q7\n")
    done = run_plateau("sim", str(script))
    assert done.returncode == 2  # bad input
    assert "line 3" in done.stderr and "Q7" in done.stderr


def test_demo_runs_and_exits_0():
    done = run_plateau("demo", timeout=300)  # a hang guard: 60 s ran out at a load of 20
    assert done.returncode == 0, done.stderr
    assert "hello" in done.stdout and " plays " in done.stdout
    assert "heartbeat" not in done.stdout  # hidden in the live view (--heartbeats shows them)
    assert "R G B Y a pawn" in done.stdout  # the ring's legend, once


def test_live_view_shows_every_game(tmp_path):
    scripts = {
        "weykick": "table weykick mode=first-to:1\nball A\nwait 500\n",
        "holdem": "table holdem seats=2 stacks=10 blinds=1/2\nsend hand\nsend fold 1\nwait 100\n",
        "pocha": "table pocha players=3 schedule=short\ncard 5O\nsend bid 2 0\nsend bid 3 0\n"
        "send bid 1 0\ncard 4C\ncard 1C\ncard 3E\nwait 500\n",
    }
    for game, text in scripts.items():
        script = tmp_path / f"{game}.table"
        script.write_text(text)
        done = run_plateau("sim", str(script))
        assert done.returncode == 0, (game, done.stderr)
    assert "hand_end" in done.stdout and "trick" in done.stdout


def test_a_port_whose_other_end_goes_while_it_opens_is_a_link_error(monkeypatch):
    # A simulator that dies while the host opens its pty fails pyserial's termios set-up with
    # EIO, which is no OSError: it was a traceback from `plateau sim` on a loaded machine.
    import termios

    import pytest
    import serial

    from plateau.hostlink import HostLink, LinkError

    def gone(self):
        raise termios.error(5, "Input/output error")

    monkeypatch.setattr(serial.Serial, "open", gone)
    with pytest.raises(LinkError, match="cannot open"):
        HostLink("/dev/pts/nothing").open()


def test_plateau_log_stops_on_sigint_even_when_started_with_it_ignored(tmp_path):
    # Started in the background of a script (or under nohup) a process inherits SIGINT
    # ignored: `plateau log` said "Ctrl-C to stop" and then did not (the adversarial tester,
    # through plateau chaos run in the background).
    import os
    import signal
    import time

    master, slave = os.openpty()
    port = os.ttyname(slave)
    proc = subprocess.Popen(
        [sys.executable, "-m", "plateau", "log", "--port", port, "--log", str(tmp_path / "l")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # "logging PORT to ...": its handlers are in place
        assert "logging" in line, line
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
        assert "lines written" in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
        os.close(slave)
