"""A plateau command that is ended takes its children along (adversarial tester's finding 23:
`plateau sim` ended by SIGTERM or SIGHUP left its `micropython` running for ever, at a fifth of
a core, with its temporary flash). SIGTERM and SIGHUP end a command as Ctrl-C does (exit 130,
the simulator stopped, its flash removed); killed outright (kill -9), its children die with
it all the same (Linux's parent-death signal), the harnesses' too."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

WAIT = 180  # s: for something to happen on a loaded machine; a pass takes a few seconds


def children(pid: int) -> list[int]:
    """Every process whose parent is `pid` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Running (a zombie waiting for whoever adopted it to reap it is not)."""
    try:
        stat = (Path("/proc") / str(pid) / "stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def cmdline(pid: int) -> list[str]:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_text().split("\0")
    except OSError:  # gone meanwhile
        return []


def signals(pid: int, field: str) -> int:
    for line in (Path("/proc") / str(pid) / "status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1], 16)
    raise AssertionError(field)


def reap(*pids: int) -> None:
    """Whatever a failing test left running goes (it is ours: its command line says so)."""
    for pid in pids:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


def until(what, why: str):
    end = time.monotonic() + WAIT
    while not (got := what()):
        assert time.monotonic() < end, why
        time.sleep(0.05)
    return got


def start(tmp_path, *args, **kw) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "plateau", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=tmp_path,
        **kw,
    )


def simulator(proc: subprocess.Popen) -> int:
    def found():
        assert proc.poll() is None, "plateau sim ended by itself"
        mine = [c for c in children(proc.pid) if any("micropython" in a for a in cmdline(c))]
        # and its handlers are in (they are set before the simulator starts)
        return mine[0] if mine else None

    return until(found, "no micropython child")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL])
def test_plateau_sim_ended_takes_its_simulator_along(tmp_path, sig):
    (tmp_path / "long.table").write_text("table tock players=2\ncard AH\nwait 600000\n")
    proc = start(tmp_path, "sim", "--realtime", "long.table")
    child = simulator(proc)
    args = cmdline(child)
    flash = Path(args[args.index("--state") + 1])
    assert flash.is_dir()
    proc.send_signal(sig)
    code = proc.wait(WAIT)
    try:
        until(lambda: not alive(child), f"its micropython still runs after {sig.name}")
    finally:
        reap(child)
    if sig == signal.SIGKILL:
        assert code == -signal.SIGKILL  # nothing of its own runs: the child goes all the same
    else:
        assert code == 130
        assert not flash.exists()  # the temporary flash went with it


def test_an_ignored_hangup_stays_ignored(tmp_path):
    """Under nohup (SIGHUP ignored) a command outlives its terminal, as nohup promises; the
    default SIGTERM and SIGHUP are taken."""
    (tmp_path / "long.table").write_text("table tock players=2\nwait 600000\n")
    hup = 1 << (signal.SIGHUP - 1)
    term = 1 << (signal.SIGTERM - 1)
    nohup = start(
        tmp_path,
        "sim",
        "--realtime",
        "long.table",
        preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN),
    )
    plain = start(tmp_path, "sim", "--realtime", "long.table")
    try:
        for proc in (nohup, plain):
            simulator(proc)
        assert signals(nohup.pid, "SigIgn") & hup and not signals(nohup.pid, "SigCgt") & hup
        assert signals(nohup.pid, "SigCgt") & term
        assert signals(plain.pid, "SigCgt") & hup and signals(plain.pid, "SigCgt") & term
    finally:
        for proc in (nohup, plain):
            kids = children(proc.pid)
            proc.send_signal(signal.SIGTERM)
            code = proc.wait(WAIT)
            reap(*kids)
            assert code == 130


def test_a_harness_killed_outright_leaves_no_child(tmp_path):
    """`plateau resets` runs a simulated board and a `plateau log` on it: kill -9 it, and
    both go."""
    proc = start(tmp_path, "resets", "--kills", "2", "--per-game", "2", "--games", "tock")

    def both():
        assert proc.poll() is None, "plateau resets ended by itself"
        kids = children(proc.pid)
        names = [" ".join(cmdline(k)) for k in kids]
        has_log = any("plateau log" in n for n in names)
        has_sim = any("micropython" in n for n in names)
        return dict(zip(kids, names, strict=True)) if has_log and has_sim else None

    kids = until(both, "no simulator and logger running together")
    proc.kill()
    proc.wait(WAIT)
    try:
        for kid in kids:
            until(lambda kid=kid: not alive(kid), f"{kids[kid][:200]} still runs")
    finally:
        reap(*kids)
